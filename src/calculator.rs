//! The calculators in the page: a scenario's own keys given new values in a
//! form, checked, computed and laid out exactly as the build does, and
//! returned as the HTML its page would show.
//!
//! Pure text in, text out, so the same code serves the build (which writes
//! the form) and, compiled to WebAssembly (`wasm/`), the reader's browser,
//! where the page's script only carries the text to and from this module.

use crate::analyses::Budget;
use crate::flow::{self, Node};
use crate::html;
use crate::kinds;
use crate::layout::Alone;
use crate::progress::Progress;
use crate::scenario::{self, FormError, Header, Scenario};
use serde::{Deserialize, Serialize};
use serde_yaml::Value;

/// The what-if form of a scenario page: the scenario's own keys with their
/// values as the file writes them, one line each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Form {
    /// The scenario's path in `content/`.
    pub source: String,
    /// Its title and kind, sent back with every request.
    pub title: String,
    pub kind: String,
    /// The browser engine that computes it (`assets/engine-NAME.js`).
    pub engine: &'static str,
    /// Every key of the kind, in the kind's order.
    pub fields: Vec<Field>,
}

/// One key of the form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    /// The key, as in the scenario file.
    pub key: String,
    /// Its value in YAML's one-line (flow) form; empty when the file leaves
    /// the key out.
    pub value: String,
    /// When the value maps names to single values (a dice scenario's
    /// rolls), each name and its value as the reader reads them, so that
    /// each has an input of its own; the form sends them back here, and
    /// they, not `value`, are then the field's value. An entry left empty
    /// is left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<Field>,
    /// Whether the entries' values are text (quoted where YAML would read
    /// them otherwise) rather than numbers or words as written; with no
    /// entries, that `value` is text of several lines as it reads (a
    /// program, in a text area), quoted when the scenario is composed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub text: bool,
}

/// What the page asks: the scenario with the form's values.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The scenario's path in `content/` (names the CSV downloads).
    pub source: String,
    pub title: String,
    pub kind: String,
    /// The form's keys and values, in order; an empty value leaves the key
    /// out, as the file may.
    pub fields: Vec<Field>,
}

/// What a page's script sends: a what-if form's values, or the
/// playground's rolls (see [`read_call`]).
#[derive(Debug, Clone)]
pub enum Call {
    WhatIf(Request),
    Playground(Playground),
}

/// The call a page's script sends as JSON (`{"what-if": {...}}` or
/// `{"playground": {...}}`), read by the one-line YAML reader, which reads
/// JSON as JSON means it: the browser's engine carries no JSON library.
pub fn read_call(json: &str) -> Result<Call, String> {
    let malformed = |why: String| format!("a malformed request: {why}");
    let unknown = || malformed("expected one of what-if and playground".into());
    let node =
        flow::read(json).map_err(|e| malformed(format!("column {}: {}", e.column, e.message)))?;
    let (name, body) = match &node {
        Node::Map(entries) if entries.len() == 1 => (&entries[0].0, &entries[0].1),
        _ => return Err(unknown()),
    };
    match name {
        Node::Scalar { text, .. } if text == "what-if" => flow::to(body).map(Call::WhatIf),
        Node::Scalar { text, .. } if text == "playground" => flow::to(body).map(Call::Playground),
        _ => return Err(unknown()),
    }
    .map_err(|e| malformed(e.to_string()))
}

/// The playground's form: one roll in the dice language per line, and how
/// deep exploding dice explode (empty for the kind's default).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Playground {
    pub rolls: String,
    #[serde(default)]
    pub explode_depth: String,
    /// `roll20` to read `cs` and `cf` as Roll20's critical marks; empty
    /// for the standard notation.
    #[serde(default)]
    pub notation: String,
}

/// What the page shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Response {
    /// The scenario page's blocks for these values, the scenario file
    /// that gives them, and their results as `eval --json` writes them
    /// (null in the browser's module: the page reads only the HTML).
    Done {
        /// The answer (the verdict), shown before the form.
        answer: String,
        /// The other blocks, after the form.
        html: String,
        yaml: String,
        results: serde_json::Value,
    },
    /// The build's own message for these values, and the key it is about
    /// (none when it is about the whole scenario).
    Refused {
        key: Option<String>,
        message: String,
    },
}

impl Response {
    /// The JSON the page's script reads: `status` ("done" or "refused"),
    /// then `answer`, `html` and `yaml`, or `key` (or null) and `message`.
    /// (The results stay with the caller: the page reads only the HTML.)
    pub fn to_json(&self) -> String {
        let q = |text: &str| flow::quoted(text);
        match self {
            Response::Done {
                answer, html, yaml, ..
            } => format!(
                "{{\"status\":\"done\",\"answer\":{},\"html\":{},\"yaml\":{}}}",
                q(answer),
                q(html),
                q(yaml)
            ),
            Response::Refused { key, message } => format!(
                "{{\"status\":\"refused\",\"key\":{},\"message\":{}}}",
                key.as_deref().map_or("null".to_string(), q),
                q(message)
            ),
        }
    }
}

/// The form for a scenario's page, if its kind has one.
pub fn form(scenario: &Scenario) -> Option<Form> {
    let kind = scenario.params.kind();
    let entry = kinds::find(kind)?;
    let engine = entry.engine?;
    let mapping: serde_yaml::Mapping = serde_yaml::from_str(&scenario.text).ok()?;
    let fields = (entry.fields)()
        .iter()
        .filter(|key| !entry.file_keys.contains(key))
        .map(|key| {
            // A value taken from another scenario: the value taken.
            let resolved = scenario.params.resolved_value(key);
            let written = mapping.get(*key).filter(|_| resolved.is_none());
            let (entries, text) = written.map_or((Vec::new(), false), entries);
            let value = resolved.unwrap_or_else(|| written.map_or(String::new(), one_line));
            // Text of several lines (an AnyDice program) is edited as it
            // reads, in a text area: the value is the text itself.
            match flow::read(&value) {
                Ok(Node::Scalar { text: lines, .. }) if lines.contains('\n') => Field {
                    key: key.to_string(),
                    value: lines,
                    text: true,
                    ..Field::default()
                },
                _ => Field {
                    key: key.to_string(),
                    value,
                    entries,
                    text,
                },
            }
        })
        .collect();
    Some(Form {
        source: scenario.source.clone(),
        title: scenario.header.title.clone(),
        kind: kind.to_string(),
        engine,
        fields,
    })
}

/// Check, compute and lay out the scenario a form describes, under the
/// build's default budget.
pub fn calculate(request: &Request) -> Response {
    let (yaml, fields) = match compose(request) {
        Ok(composed) => composed,
        Err(refused) => return refused,
    };
    let header = Header {
        title: request.title.clone(),
        kind: request.kind.clone(),
        description: None,
        weight: None,
        expect: Default::default(),
        rules: Vec::new(),
    };
    let scenario = match scenario::from_form(
        &request.source,
        header,
        fields,
        yaml.clone(),
        &Budget {
            form: crate::limits::Form::Browser,
            ..Budget::default()
        },
    ) {
        Ok(scenario) => scenario,
        Err(FormError { key, message }) => return Response::Refused { key, message },
    };
    // A value taken from another scenario of the site: none is read here.
    if let Some((key, name, kind)) = scenario.params.references().into_iter().next() {
        return Response::Refused {
            key: Some(key.into()),
            message: format!(
                "{key}: taken from the {kind} scenario {name:?}, which is not read here: \
                 write the value itself"
            ),
        };
    }
    let page = scenario.analyse(&Progress::hidden()).page(&Alone);
    let links = html::Standalone {
        scenario: &scenario.name,
    };
    match html::answer_and_blocks(&page.blocks, &links, &scenario.source) {
        Ok((answer, html, _)) => Response::Done {
            answer,
            html,
            yaml,
            results: page.results,
        },
        Err(err) => Response::Refused {
            key: None,
            message: err.to_string(),
        },
    }
}

/// Answer a page's call.
pub fn answer(call: &Call) -> Response {
    match call {
        Call::WhatIf(request) => calculate(request),
        Call::Playground(form) => calculate(&playground(form)),
    }
}

/// The playground's scenario: a `dice` scenario whose rolls are the
/// text's lines, each named by itself (a line written twice counts once),
/// with the form's explode depth.
pub(crate) fn playground(form: &Playground) -> Request {
    let mut rolls: Vec<&str> = Vec::new();
    for line in form.rolls.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if !rolls.contains(&line) {
            rolls.push(line);
        }
    }
    let entries: Vec<String> = rolls
        .iter()
        .map(|roll| {
            let written = flow::text(roll);
            format!("{written}: {written}")
        })
        .collect();
    Request {
        source: PLAYGROUND.into(),
        title: "Playground".into(),
        kind: "dice".into(),
        fields: vec![
            Field {
                key: "rolls".into(),
                value: if entries.is_empty() {
                    String::new()
                } else {
                    format!("{{{}}}", entries.join(", "))
                },
                ..Field::default()
            },
            Field {
                key: "explode_depth".into(),
                value: form.explode_depth.trim().to_string(),
                ..Field::default()
            },
            Field {
                key: "notation".into(),
                value: form.notation.trim().to_string(),
                ..Field::default()
            },
        ],
    }
}

/// The scenario file the playground's rolls would be (its CSVs are named
/// after it).
pub(crate) const PLAYGROUND: &str = "playground.yaml";

/// The scenario file the request describes, and its keys with their
/// values read. (The error is always a `Refused`, small; its size is
/// `Done`'s, and it is made once per request.)
#[allow(clippy::result_large_err)]
fn compose(request: &Request) -> Result<(String, Vec<(String, Node)>), Response> {
    let quoted = flow::quoted;
    let mut yaml = format!(
        "title: {}\nkind: {}\n",
        quoted(&request.title),
        quoted(&request.kind)
    );
    let mut fields = Vec::new();
    for field in &request.fields {
        let refuse = |message: String| Response::Refused {
            key: Some(field.key.clone()),
            message,
        };
        let joined;
        let value = if field.text && field.entries.is_empty() {
            // A text area's text, as it reads: quoted here.
            joined = match field.value.trim() {
                "" => String::new(),
                _ => flow::quoted(&field.value),
            };
            joined.as_str()
        } else if field.entries.is_empty() {
            field.value.trim()
        } else {
            joined = join_entries(field).map_err(refuse)?;
            joined.as_str()
        };
        if value.is_empty() {
            continue;
        }
        if !field
            .key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(refuse(format!(
                "{:?} is not a key of a scenario",
                field.key
            )));
        }
        if value.contains(['\n', '\r']) {
            return Err(refuse(format!(
                "{}: write the value on one line, as a list in brackets: [a, b]",
                field.key
            )));
        }
        let node = flow::read(value).map_err(|err| refuse(err.message))?;
        yaml.push_str(&format!("{}: {value}\n", field.key));
        fields.push((field.key.clone(), node));
    }
    Ok((yaml, fields))
}

/// A mapping whose names are all text as the form's entries (each value
/// as the reader reads it: text as it is, anything else on one line), and
/// whether every value is text; anything else has none.
fn entries(value: &Value) -> (Vec<Field>, bool) {
    let Value::Mapping(map) = value else {
        return (Vec::new(), false);
    };
    let mut entries = Vec::new();
    for (name, value) in map {
        let Value::String(name) = name else {
            return (Vec::new(), false);
        };
        entries.push(Field {
            key: name.clone(),
            value: match value {
                Value::String(text) => text.clone(),
                other => one_line(other),
            },
            ..Field::default()
        });
    }
    let text = !map.is_empty() && map.values().all(Value::is_string);
    (entries, text)
}

/// The one-line mapping a field's entries write: names always as text,
/// values as text where the field's are, else as written (a value YAML
/// reads on one line); an entry with an empty value is left out, an empty
/// name refused.
fn join_entries(field: &Field) -> Result<String, String> {
    let mut written = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for entry in &field.entries {
        let (name, value) = (entry.key.trim(), entry.value.trim());
        if value.is_empty() {
            continue;
        }
        if name.is_empty() {
            return Err(format!("{}: give the value {value:?} a name", field.key));
        }
        if names.contains(&name) {
            return Err(format!(
                "{}: the name {name:?} is given twice; give each its own",
                field.key
            ));
        }
        names.push(name);
        let value = if field.text {
            flow::text(value)
        } else {
            match flow::read(value) {
                Ok(_) => value.to_string(),
                Err(err) => {
                    return Err(format!(
                        "{}: {name}: column {}: {}",
                        field.key, err.column, err.message
                    ))
                }
            }
        };
        written.push(format!("{}: {value}", flow::text(name)));
    }
    Ok(if written.is_empty() {
        String::new()
    } else {
        format!("{{{}}}", written.join(", "))
    })
}

/// A YAML value on one line: lists in brackets, maps in braces, text
/// plain where it reads back as the same text and quoted otherwise.
fn one_line(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(text) => flow::text(text),
        Value::Sequence(items) => {
            let items: Vec<String> = items.iter().map(one_line).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Mapping(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", one_line(k), one_line(v)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
        Value::Tagged(tagged) => format!("{} {}", tagged.tag, one_line(&tagged.value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST_PLAYER: &str = "title: Who goes first\ndescription: Ties roll again.\nkind: first-player\nplayers: 2..6\ndice: [2d6, 1d6]\nties:\n  - reroll-all\n  - reroll-tied\n";

    fn request(kind: &str, fields: &[(&str, &str)]) -> Request {
        Request {
            source: "rules/first-player.yaml".into(),
            title: "Who goes first".into(),
            kind: kind.into(),
            fields: fields
                .iter()
                .map(|(key, value)| Field {
                    key: key.to_string(),
                    value: value.to_string(),
                    ..Field::default()
                })
                .collect(),
        }
    }

    #[test]
    fn the_form_holds_the_kinds_keys_as_the_file_writes_them() {
        let scenario = scenario::parse("rules/first-player.yaml", FIRST_PLAYER).unwrap();
        let form = form(&scenario).unwrap();
        let fields: Vec<(&str, &str)> = form
            .fields
            .iter()
            .map(|f| (f.key.as_str(), f.value.as_str()))
            .collect();
        assert_eq!(
            fields,
            [
                ("players", "2..6"),
                ("dice", "[2d6, 1d6]"),
                ("ties", "[reroll-all, reroll-tied]")
            ]
        );
        assert_eq!(form.kind, "first-player");
        let sweep = "title: t\nkind: sum-mod\ndice: d6\ntargets: 3\n";
        assert!(super::form(&scenario::parse("t.yaml", sweep).unwrap()).is_none());
    }

    #[test]
    fn flow_text_reads_back_as_the_same_value() {
        for text in [
            "[2d6, 1d6]",
            "\"a, b\"",
            "\"true\"",
            "\"12\"",
            "12",
            "{a: 1, b: [x, \"y: z\"]}",
            "\"\"",
        ] {
            let value: Value = serde_yaml::from_str(text).unwrap();
            assert_eq!(one_line(&value), text);
            assert_eq!(
                serde_yaml::from_str::<Value>(&one_line(&value)).unwrap(),
                value
            );
        }
    }

    #[test]
    fn the_form_computes_what_the_build_computes() {
        let fields = [
            ("players", "5"),
            ("dice", "[1d6]"),
            ("ties", "[reroll-tied]"),
        ];
        let Response::Done {
            answer,
            html,
            yaml,
            results,
        } = calculate(&request("first-player", &fields))
        else {
            panic!("refused")
        };
        let built = scenario::parse("rules/first-player.yaml", &yaml).unwrap();
        let page = built.params.analyse(&Progress::hidden()).page(&Alone);
        assert_eq!(results, page.results);
        let verdict = html::escape(page.verdict().unwrap());
        // The answer stands apart, to go before the form.
        assert_eq!(answer.trim(), format!("<p class=\"verdict\">{verdict}</p>"));
        assert!(!html.contains("class=\"verdict\""));
        assert!(!html.contains("<svg"), "one number of players: no chart");
        assert!(html.contains("download=\"first-player.cases.csv\""));
        assert_eq!(
            yaml,
            "title: \"Who goes first\"\nkind: \"first-player\"\nplayers: 5\ndice: [1d6]\nties: [reroll-tied]\n"
        );
    }

    #[test]
    fn a_value_taken_from_another_scenario_is_asked_for_instead() {
        let fields = [
            ("best_of", "3"),
            ("p_first", "{from: cards/log}"),
            ("later_games", "alternate"),
        ];
        let Response::Refused { key, message } = calculate(&request("match", &fields)) else {
            panic!("computed with no p_first")
        };
        assert_eq!(key.as_deref(), Some("p_first"));
        assert!(
            message.contains("\"cards/log\", which is not read here"),
            "{message}"
        );
        let fields = [
            ("best_of", "3"),
            ("p_first", "\"11/20\""),
            ("later_games", "alternate"),
        ];
        assert!(matches!(
            calculate(&request("match", &fields)),
            Response::Done { .. }
        ));
        // The form of a built page holds the value taken, so it computes.
        let files = [
            ("cards/log.yaml", "title: L\nkind: seat-advantage\nwins: {2: [11, 9]}\n"),
            (
                "cards/m.yaml",
                "title: M\nkind: match\nbest_of: 3\np_first: {from: cards/log}\nlater_games: alternate\n",
            ),
        ];
        let scenarios = files.map(|(path, text)| scenario::parse(path, text).unwrap());
        let (resolved, errors) = scenario::resolve(scenarios.to_vec(), &Budget::default(), false);
        assert!(errors.is_empty(), "{errors:?}");
        let form = form(&resolved[1]).unwrap();
        assert_eq!(form.fields[1].key, "p_first");
        assert_eq!(form.fields[1].value, "\"11/20\"");
        // Unresolved (a scenario read alone), the file's own value.
        let alone = super::form(&scenarios[1]).unwrap();
        assert_eq!(alone.fields[1].value, "{from: cards/log}");
    }

    #[test]
    fn bad_values_get_the_builds_message_and_their_key() {
        let refused = calculate(&request(
            "first-player",
            &[("players", "1"), ("dice", "[d6]"), ("ties", "[reroll-all]")],
        ));
        let Response::Refused { key, message } = refused else {
            panic!("computed")
        };
        assert_eq!(key.as_deref(), Some("players"));
        let built = scenario::parse(
            "x.yaml",
            "title: t\nkind: first-player\nplayers: 1\ndice: [d6]\nties: [reroll-all]\n",
        )
        .unwrap_err();
        assert_eq!(message, built.message);

        // Values of the wrong type or shape: the message a file with them
        // gets, and the key.
        for (kind, key, value, rest) in [
            ("first-player", "players", "many", "dice: [d6]"),
            ("first-player", "dice", "[d6, {a: 1}]", "players: 2"),
            ("first-player", "dice", "[d6, d1O]", "players: 2"),
            (
                "first-player",
                "ties",
                "[reroll-some]",
                "players: 2\ndice: [d6]",
            ),
            ("dice", "rolls", "{big: 4d6kh5}", ""),
            ("dice", "rolls", "[2d6]", ""),
            ("dice", "explode_depth", "-1", "rolls: {a: d6!}"),
            (
                "match",
                "best_of",
                "99999999999999999999999",
                "p_first: \"1/2\"\nlater_games: alternate",
            ),
            (
                "match",
                "p_first",
                "[\"6/5\"]",
                "best_of: 3\nlater_games: alternate",
            ),
        ] {
            let mut fields = vec![(key, value)];
            let extra: Vec<(&str, &str)> = rest
                .lines()
                .filter_map(|line| line.split_once(": "))
                .collect();
            fields.extend(extra);
            let Response::Refused { key: said, message } = calculate(&request(kind, &fields))
            else {
                panic!("{key}: {value} computed")
            };
            let file = format!("title: t\nkind: {kind}\n{key}: {value}\n{rest}\n");
            let built = scenario::parse("x.yaml", &file).unwrap_err();
            assert_eq!(message, built.message, "{file}");
            assert_eq!(said.as_deref(), Some(key), "{file}");
        }

        let refused = calculate(&request(
            "first-player",
            &[("players", "2"), ("dice", "[d6]\nbanish: 2")],
        ));
        assert!(matches!(refused, Response::Refused { key: Some(k), .. } if k == "dice"));
        let refused = calculate(&request("first-player", &[("players: 2\nx", "2")]));
        assert!(matches!(refused, Response::Refused { key: Some(_), .. }));
    }

    #[test]
    fn playground_lines_become_named_rolls() {
        let form = |rolls: &str, depth: &str| Playground {
            rolls: rolls.into(),
            explode_depth: depth.into(),
            notation: String::new(),
        };
        let request = playground(&form("4d6kh3\n\n  max(1d6, 1d8) + 2 \n4d6kh3\n", " 5 "));
        assert_eq!(request.kind, "dice");
        assert_eq!(
            request.fields,
            [
                Field {
                    key: "rolls".into(),
                    value: "{4d6kh3: 4d6kh3, \"max(1d6, 1d8) + 2\": \"max(1d6, 1d8) + 2\"}".into(),
                    ..Field::default()
                },
                Field {
                    key: "explode_depth".into(),
                    value: "5".into(),
                    ..Field::default()
                },
                Field {
                    key: "notation".into(),
                    ..Field::default()
                }
            ]
        );
        assert_eq!(playground(&form(" \n", "")).fields[0].value, "");
        let call = read_call(r#"{"playground": {"rolls": "2d6"}}"#).unwrap();
        assert!(
            matches!(call, Call::Playground(form) if form.rolls == "2d6" && form.explode_depth.is_empty())
        );
    }

    /// Issue 43, item 3: the playground reads Roll20's `cs` when asked,
    /// Foundry's count otherwise.
    #[test]
    fn the_playgrounds_notation_picks_whose_cs_is_read() {
        let values = |notation: &str| match answer(&Call::Playground(Playground {
            rolls: "1d20cs>18".into(),
            explode_depth: String::new(),
            notation: notation.into(),
        })) {
            Response::Done { results, .. } => results["rolls"][0]["outcomes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["value"].as_i64().unwrap())
                .collect::<Vec<_>>(),
            other => panic!("{notation:?}: {other:?}"),
        };
        assert_eq!(values(""), [0, 1]);
        assert_eq!(values("roll20"), (1..=20).collect::<Vec<_>>());
    }

    #[test]
    fn the_playgrounds_explode_depth_counts_and_a_bad_one_names_its_field() {
        let answer_for = |depth: &str| {
            answer(&Call::Playground(Playground {
                rolls: "d6!".into(),
                explode_depth: depth.into(),
                notation: String::new(),
            }))
        };
        let highest = |depth: &str| match answer_for(depth) {
            Response::Done { results, .. } => results["rolls"][0]["outcomes"]
                .as_array()
                .unwrap()
                .last()
                .unwrap()["value"]
                .clone(),
            other => panic!("d6! at depth {depth:?} computes: {other:?}"),
        };
        // d6! exploding once tops out at 6 + 6; at the default depth 3, 6 * 4.
        assert_eq!(highest("1"), 12);
        assert_eq!(highest(""), 24);
        match answer_for("many") {
            Response::Refused { key, .. } => assert_eq!(key.as_deref(), Some("explode_depth")),
            other => panic!("a bad depth is refused: {other:?}"),
        }
    }

    #[test]
    fn costly_values_get_the_builds_budget_without_command_line_advice() {
        let fields = [
            ("players", "2..60"),
            ("dice", "[100d20]"),
            ("ties", "[reroll-all]"),
        ];
        let Response::Refused { key, message } = calculate(&request("first-player", &fields))
        else {
            panic!("computed")
        };
        // A reader has no command line: no `--budget` advice in a page.
        assert!(
            message.contains("over the budget of")
                && message.ends_with("make it smaller (a page computes no more than a build does)"),
            "{message}"
        );
        assert!(!message.contains("--budget"), "{message}");
        assert!(key.is_some());
    }

    fn entries_of(field: &Field) -> Vec<(&str, &str)> {
        (field.entries.iter())
            .map(|e| (e.key.as_str(), e.value.as_str()))
            .collect()
    }

    #[test]
    fn a_mapping_of_single_values_gives_each_entry_an_input() {
        let source =
            "title: t\nkind: dice\nrolls:\n  advantage: 2d20kh1\n  plus five: d20+5\n  six: '6'\n";
        let scenario = scenario::parse("dice/a.yaml", source).unwrap();
        let dice = form(&scenario).unwrap();
        let rolls = &dice.fields[0];
        assert_eq!(rolls.key, "rolls");
        assert!(rolls.text, "every roll is text");
        assert_eq!(
            entries_of(rolls),
            [
                ("advantage", "2d20kh1"),
                ("plus five", "d20+5"),
                ("six", "6")
            ]
        );
        // explode_depth is one number: no entries.
        assert!(dice.fields[1].entries.is_empty());

        // A deck's mulligan maps words to numbers: entries, not text; its
        // deck holds a map inside a map: one line, no entries.
        let deck = include_str!("../content/cards/sixty-cards.yaml");
        let scenario = scenario::parse("cards/sixty-cards.yaml", deck).unwrap();
        let form = form(&scenario).unwrap();
        let field = |key: &str| form.fields.iter().find(|f| f.key == key).unwrap();
        assert_eq!(entries_of(field("mulligan")), [("redraws", "1")]);
        assert!(!field("mulligan").text);
        // Maps inside: each entry's value on one line.
        assert_eq!(
            entries_of(field("deck")),
            [("cards", "60"), ("groups", "{land: 24, key-card: 4}")]
        );
        assert_eq!(
            entries_of(field("want")),
            [
                ("a-key-card", "{key-card: 1}"),
                ("two-lands", "{land: 2}"),
                ("three-lands", "{land: 3}"),
                ("key-card-and-two-lands", "{key-card: 1, land: 2}")
            ]
        );
        assert!(!field("want").text);
        // Names that are numbers (7: on the play) stay one line.
        assert!(field("names").entries.is_empty());
    }

    #[test]
    fn entries_compute_as_the_one_line_mapping_they_write() {
        let with_entries = |entries: &[(&str, &str)]| Request {
            fields: vec![Field {
                key: "rolls".into(),
                entries: (entries.iter())
                    .map(|(key, value)| Field {
                        key: key.to_string(),
                        value: value.to_string(),
                        ..Field::default()
                    })
                    .collect(),
                text: true,
                ..Field::default()
            }],
            ..request("dice", &[])
        };
        let html = |response: Response| match response {
            Response::Done {
                answer, html, yaml, ..
            } => (answer + &html, yaml),
            other => panic!("refused: {other:?}"),
        };
        // An emptied entry is left out; a roll that starts with a brace (a
        // group) and a number are quoted as text; the name "6" too.
        let (from_entries, yaml) = html(calculate(&with_entries(&[
            ("advantage", "2d20kh1"),
            ("normal", ""),
            ("best of two", "{2d20, 1d20+5}kh1"),
            ("6", "6"),
        ])));
        assert_eq!(
            yaml,
            "title: \"Who goes first\"\nkind: \"dice\"\nrolls: {advantage: 2d20kh1, \
             best of two: \"{2d20, 1d20+5}kh1\", \"6\": \"6\"}\n"
        );
        let one_line = "{advantage: 2d20kh1, best of two: \"{2d20, 1d20+5}kh1\", \"6\": \"6\"}";
        let (from_line, _) = html(calculate(&request("dice", &[("rolls", one_line)])));
        assert_eq!(from_entries, from_line);

        for (entries, expected) in [
            (
                &[("a", "d6"), ("", "d8")][..],
                "rolls: give the value \"d8\" a name",
            ),
            (
                &[("a", "d6"), (" a ", "d8")][..],
                "rolls: the name \"a\" is given twice; give each its own",
            ),
        ] {
            match calculate(&with_entries(entries)) {
                Response::Refused { key, message } => {
                    assert_eq!(key.as_deref(), Some("rolls"));
                    assert_eq!(message, expected);
                }
                other => panic!("{entries:?} computed: {other:?}"),
            }
        }
        // Values that are not text are read as written: one value each.
        let mut request = with_entries(&[("redraws", "[1, 2")]);
        request.fields[0].text = false;
        match calculate(&request) {
            Response::Refused { message, .. } => {
                assert!(message.starts_with("rolls: redraws: column "), "{message}")
            }
            other => panic!("an unclosed list computed: {other:?}"),
        }
    }

    /// The JSON the browser's script writes (JSON.stringify, compact) is
    /// read as serde_json reads it, strings of every kind included.
    #[test]
    fn calls_are_read_from_json_and_answers_written_as_json() {
        let texts = [
            "plain",
            "",
            "quote \" backslash \\ slash / colon: hash # {brace} [bracket], comma",
            "lines\nand\ttabs\r\u{8}\u{c}\u{1}\u{1f}\u{7f}",
            "Élan, 日本語, emoji 🎲, \u{2028}\u{2029}, \u{feff}",
            "  spaced  ",
            "- dash",
            "'single'",
            "&anchor *alias !tag %directive @at `tick` |pipe >fold ?q",
        ];
        for text in texts {
            assert_eq!(flow::quoted(text), serde_json::to_string(text).unwrap());
            let request = serde_json::json!({"what-if": {
                "source": text, "title": text, "kind": "dice",
                "fields": [
                    {"key": "rolls", "value": text, "entries": [{"key": text, "value": text}], "text": true},
                    {"key": "explode_depth", "value": ""}
                ]
            }});
            let Call::WhatIf(read) = read_call(&request.to_string()).unwrap() else {
                panic!("not a what-if")
            };
            assert_eq!((read.source.as_str(), read.title.as_str()), (text, text));
            assert_eq!(read.fields[0].value, text);
            assert_eq!(read.fields[0].entries[0].key, text);
            assert!(read.fields[0].text && !read.fields[1].text);
            let playground = serde_json::json!({"playground": {"rolls": text}}).to_string();
            let Call::Playground(read) = read_call(&playground).unwrap() else {
                panic!("not the playground")
            };
            assert_eq!(read.rolls, text);

            for response in [
                Response::Done {
                    answer: text.into(),
                    html: text.into(),
                    yaml: text.into(),
                    results: serde_json::Value::Null,
                },
                Response::Refused {
                    key: Some(text.into()),
                    message: text.into(),
                },
                Response::Refused {
                    key: None,
                    message: text.into(),
                },
            ] {
                let written: serde_json::Value = serde_json::from_str(&response.to_json()).unwrap();
                let expected = match &response {
                    Response::Done { .. } => serde_json::json!({
                        "status": "done", "answer": text, "html": text, "yaml": text
                    }),
                    Response::Refused { key, message } => serde_json::json!({
                        "status": "refused", "key": key, "message": message
                    }),
                };
                assert_eq!(written, expected);
            }
        }
        for (bad, expected) in [
            ("{\"what-if\": 1}", "a malformed request: "),
            (
                "{\"sideways\": {}}",
                "a malformed request: expected one of what-if and playground",
            ),
            (
                "[1]",
                "a malformed request: expected one of what-if and playground",
            ),
            (
                "{\"playground\": {\"rolls\": \"d6\", \"extra\": 1}}",
                "a malformed request: ",
            ),
            ("{\"playground\": {", "a malformed request: column "),
        ] {
            let message = read_call(bad).unwrap_err();
            assert!(message.starts_with(expected), "{bad}: {message}");
        }
    }
}
