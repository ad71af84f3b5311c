//! The JSON document of one scenario, `{"file", "title", "kind",
//! "results"}`: one framing, written here, for the site's `<name>.json`
//! files, the standalone report and `fairdice eval --json`.

#[cfg(not(feature = "browser"))]
use crate::kinds::Results;
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

/// One level of indentation.
const INDENT: &str = "  ";

/// A serializer spelling a value as `serde_json`'s pretty printer does,
/// its lines after the first indented `depth` levels, so that it reads as
/// nested that deep (each token goes straight to `out`).
pub(crate) fn nested_serializer<W: Write>(
    out: W,
    depth: usize,
) -> serde_json::Serializer<W, Nested> {
    serde_json::Serializer::with_formatter(
        out,
        Nested {
            depth,
            has_value: false,
        },
    )
}

/// [`serde_json::ser::PrettyFormatter`] with two spaces, starting at
/// `depth` levels (see [`nested_serializer`]).
pub(crate) struct Nested {
    depth: usize,
    has_value: bool,
}

impl Nested {
    fn line<W: ?Sized + Write>(&self, out: &mut W, before: &[u8]) -> io::Result<()> {
        out.write_all(before)?;
        for _ in 0..self.depth {
            out.write_all(INDENT.as_bytes())?;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for Nested {
    fn begin_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.line(out, b"\n")?;
        }
        out.write_all(b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.line(out, if first { b"\n" } else { b",\n" })
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.line(out, b"\n")?;
        }
        out.write_all(b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.line(out, if first { b"\n" } else { b",\n" })
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
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

    #[test]
    fn nested_spells_as_the_pretty_printer_indented() {
        let value = serde_json::json!({
            "a": [1, [], {}, [[]], {"b": [{"c": null}], "d": "x\ny"}],
            "e": {},
            "f": 2.5,
        });
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        for depth in [0, 1, 3] {
            let mut out = Vec::new();
            serde::Serialize::serialize(&value, &mut nested_serializer(&mut out, depth)).unwrap();
            let indent = format!("\n{}", INDENT.repeat(depth));
            assert_eq!(
                String::from_utf8(out).unwrap(),
                pretty.replace('\n', &indent)
            );
        }
    }
}
