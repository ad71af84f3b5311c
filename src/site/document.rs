//! The JSON document of one scenario, `{"file", "title", "kind",
//! "results"}`: one framing, written here, for the site's `<name>.json`
//! files, the standalone report and `fairdice eval --json`.

#[cfg(not(feature = "browser"))]
use crate::kinds::Results;
use crate::layout::nested_json::{nested_serializer, INDENT};
use crate::scenario::Scenario;
use std::io::{self, Write};

/// The document of one scenario, pretty-printed with no final line break,
/// its results the contract as laid out on the scenario's page.
pub fn scenario_json(scenario: &Scenario, results: &serde_json::Value) -> String {
    let mut out = Vec::new();
    write_document(&mut out, scenario, 0, |out, depth| {
        serde::Serialize::serialize(results, &mut nested_serializer(out, depth))
            .map_err(io::Error::from)
    })
    .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// `{"scenarios": [...]}`, each scenario's document as [`scenario_json`]
/// spells it, as `fairdice eval --json` prints it. Each contract is
/// streamed to `out` as it is spelled, with no value built: the JSON of
/// 1000d6 is 10 MB. (The command line's; the browser's module has no use
/// for it.)
#[cfg(not(feature = "browser"))]
pub fn write_scenarios_json(
    out: &mut dyn Write,
    scenarios: &[(&Scenario, &Results)],
) -> io::Result<()> {
    if scenarios.is_empty() {
        return writeln!(out, "{{\n  \"scenarios\": []\n}}");
    }
    write!(out, "{{\n  \"scenarios\": [")?;
    for (i, (scenario, results)) in scenarios.iter().enumerate() {
        let comma = if i == 0 { "" } else { "," };
        write!(out, "{comma}\n    ")?;
        write_document(out, scenario, 2, |out, depth| {
            results.write_json(out, depth)
        })?;
    }
    writeln!(out, "\n  ]\n}}")
}

/// The one framing, its lines after the first indented `depth` levels:
/// file, title and kind, then the results that `results` writes
/// pretty-printed a level deeper.
fn write_document(
    out: &mut dyn Write,
    scenario: &Scenario,
    depth: usize,
    results: impl FnOnce(&mut dyn Write, usize) -> io::Result<()>,
) -> io::Result<()> {
    let text = |s: &str| serde_json::to_string(s).expect("a string serializes");
    let outer = INDENT.repeat(depth);
    let inner = INDENT.repeat(depth + 1);
    write!(
        out,
        "{{\n{inner}\"file\": {},\n{inner}\"title\": {},\n{inner}\"kind\": {},\n{inner}\"results\": ",
        text(&scenario.source),
        text(&scenario.header.title),
        text(scenario.params.kind()),
    )?;
    results(&mut *out, depth + 1)?;
    write!(out, "\n{outer}}}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;
    use crate::scenario::parse;

    #[test]
    fn the_site_and_eval_frame_one_document() {
        let scenario = parse(
            "games/odd.yaml",
            "title: Say \"odd\"\nkind: sum-mod\ndice: d6\ntargets: [2, 3]\n",
        )
        .unwrap();
        let results = scenario.params.analyse(&Progress::new(false));
        let document = scenario_json(&scenario, &results.to_json());
        let value: serde_json::Value = serde_json::from_str(&document).unwrap();
        assert_eq!(value["file"], "games/odd.yaml");
        assert_eq!(value["title"], "Say \"odd\"");
        assert_eq!(value["kind"], "sum-mod");
        assert_eq!(value["results"], results.to_json());
        assert_eq!(document, serde_json::to_string_pretty(&value).unwrap());

        let mut out = Vec::new();
        write_scenarios_json(&mut out, &[(&scenario, &results), (&scenario, &results)]).unwrap();
        let listed: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(listed, serde_json::json!({"scenarios": [value, value]}));
        let pretty = serde_json::to_string_pretty(&listed).unwrap() + "\n";
        assert_eq!(String::from_utf8(out).unwrap(), pretty);

        let mut none = Vec::new();
        write_scenarios_json(&mut none, &[]).unwrap();
        assert_eq!(none, b"{\n  \"scenarios\": []\n}\n");
    }
}
