//! Scenario files: YAML in `content/` naming a kind and its parameters.
//!
//! Parsing is pure (text in, scenario or located error out); reading the
//! files is the content loader's job.

use crate::analyses::fields::fields_of;
use crate::analyses::Budget;
use crate::kinds::{self, Params};
use serde::Deserialize;
use std::fmt;

/// Keys every scenario file may carry whatever its kind.
///
/// Kinds' parameter structs do not repeat these: the loader checks every
/// top-level key against the header's fields plus the kind's.
#[derive(Debug, Clone, Deserialize)]
pub struct Header {
    /// Page title.
    #[serde(deserialize_with = "crate::yaml::non_blank")]
    pub title: String,
    /// Which analysis runs.
    pub kind: String,
    /// Optional text shown under the title.
    #[serde(default)]
    pub description: Option<String>,
    /// Order among the pages of a section (smaller first).
    #[serde(default)]
    pub weight: Option<i64>,
    /// Fairness gates: figures the results must show, or the build fails.
    #[serde(default)]
    pub expect: crate::gates::Expect,
    /// Keys of the numbered rules whose figures this scenario gives.
    #[serde(default)]
    pub rules: Vec<String>,
}

/// A parsed and validated scenario.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// Path relative to `content/`, with `/` separators, such as `targets/d6.yaml`.
    pub source: String,
    /// The source path without its extension: the name shortcodes use and
    /// the page's path in the site.
    pub name: String,
    /// Title, description and ordering.
    pub header: Header,
    /// The kind's parameters.
    pub params: Params,
    /// The file's text, to locate figures named in its `expect` block.
    pub text: String,
}

impl Scenario {
    /// Its exact results, computed under the watchdog's eye: past the
    /// scenario's time budget the process stops, naming the file.
    pub fn analyse(&self, progress: &crate::progress::Progress) -> crate::kinds::Results {
        let _phase = crate::limits::compute(format!("computing {}", self.source));
        self.params.analyse(progress)
    }
}

/// A scenario that could not be read, located in its file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ScenarioError {
    /// The file, as given to [`parse`].
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

/// Parse and validate one scenario file's text under the default budget.
pub fn parse(source_path: &str, text: &str) -> Result<Scenario, ScenarioError> {
    parse_with_budget(source_path, text, &Budget::default())
}

/// Opens the data files scenarios name (the loader's job, so parsing stays
/// a function of what it is handed).
pub(crate) trait DataSource {
    /// Open the file `written` names in the scenario `source`: its name as
    /// errors show it (relative as `source` is), and its rows; or why not.
    fn open(&self, source: &str, written: &str) -> Result<DataFile, DataOpenError>;
}

/// A data file opened: its name as errors show it, and its rows.
pub(crate) type DataFile = (String, Box<dyn std::io::BufRead>);

/// Why a data file could not be opened.
#[derive(Debug)]
pub(crate) enum DataOpenError {
    /// The path as written is wrong (outside, missing): reported at the key.
    Path(String),
    /// The file itself is refused (too big, not a file): reported at it.
    File {
        /// The file, as errors show it.
        name: String,
        /// What is wrong.
        message: String,
    },
}

/// Why a scenario parsed from text alone cannot read the file `written`.
fn no_data(written: &str) -> String {
    format!("{written:?} cannot be read here: data files are read for scenario files on disk")
}

/// No data files: scenarios parsed from their text alone.
pub(crate) struct NoData;

impl DataSource for NoData {
    fn open(&self, _: &str, written: &str) -> Result<DataFile, DataOpenError> {
        Err(DataOpenError::Path(no_data(written)))
    }
}

/// Parse and validate one scenario, refusing it if its estimated cost is
/// over `budget`; it may name no data files.
pub fn parse_with_budget(
    source_path: &str,
    text: &str,
    budget: &Budget,
) -> Result<Scenario, ScenarioError> {
    parse_with_data(source_path, text, budget, &NoData)
}

/// Parse one scenario, read the data files it names from `data`, then
/// validate it and refuse it if its estimated cost is over `budget`. A bad
/// row is reported at its line in the data file.
pub(crate) fn parse_with_data(
    source_path: &str,
    text: &str,
    budget: &Budget,
    data: &dyn DataSource,
) -> Result<Scenario, ScenarioError> {
    let at = |line: usize, column: usize, message: String| ScenarioError {
        file: source_path.to_string(),
        line,
        column,
        message,
    };
    let from_yaml = |err: serde_yaml::Error| {
        let (line, column, message) = crate::yaml::problem(&err, text);
        at(line, column, message)
    };
    let blank = text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'));
    if blank {
        return Err(at(
            1,
            1,
            "the file is empty: expected a scenario with `title` and `kind`".into(),
        ));
    }
    crate::yaml::refuse_tags(text).map_err(|(line, column, message)| at(line, column, message))?;
    let header: Header = serde_yaml::from_str(text).map_err(from_yaml)?;
    let kind = kinds::find(&header.kind);
    if let Some(kind) = kind {
        let kind_fields = (kind.fields)();
        let known: Vec<&str> = fields_of::<Header>()
            .iter()
            .chain(kind_fields)
            .copied()
            .collect();
        let mapping: serde_yaml::Mapping = serde_yaml::from_str(text).map_err(from_yaml)?;
        check_keys(text, &mapping, &known)
            .map_err(|(line, column, message)| at(line, column, message))?;
    }
    let params: Params = match kind {
        Some(kind) => (kind.parse)(text).map_err(from_yaml)?,
        None => {
            let (line, column) = key_position(text, "kind");
            return Err(at(
                line,
                column,
                format!(
                    "unknown kind {:?}: expected one of {}",
                    header.kind,
                    kinds::names().join(", ")
                ),
            ));
        }
    };
    let params = read_data(params, source_path, text, data)?;
    admit(&params, budget).map_err(|err| {
        let (line, column) = key_position(text, err.key);
        at(line, column, format!("{}: {}", err.key, err.message))
    })?;
    let name = crate::paths::scenario_name(source_path);
    Ok(Scenario {
        source: source_path.to_string(),
        name,
        header,
        params,
        text: text.to_string(),
    })
}

/// Parameters that make sense together and cost no more than `budget`.
fn admit(params: &Params, budget: &Budget) -> Result<(), crate::analyses::ParamError> {
    params
        .validate()
        .and_then(|()| budget.admit_explained(&params.cost(), params.cost_detail()))
}

/// A what-if form's values that make no scenario: the key at fault (none
/// when the fault is the whole scenario's) and the build's own message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FormError {
    pub key: Option<String>,
    pub message: String,
}

/// The scenario a what-if form describes: the header's title and kind,
/// and the kind's keys with their values, read by [`crate::flow`] (the
/// browser reads no YAML). It is checked as [`parse_with_budget`] checks
/// a file, with the same messages; `text` is the file these values would
/// make, kept as [`Scenario::text`].
pub(crate) fn from_form(
    source_path: &str,
    header: Header,
    fields: Vec<(String, crate::flow::Node)>,
    text: String,
    budget: &Budget,
) -> Result<Scenario, FormError> {
    let refuse = |key: Option<&str>, message: String| FormError {
        key: key.map(str::to_string),
        message,
    };
    let entry = kinds::find(&header.kind).ok_or_else(|| {
        refuse(
            None,
            format!(
                "unknown kind {:?}: expected one of {}",
                header.kind,
                kinds::names().join(", ")
            ),
        )
    })?;
    let known = (entry.fields)();
    for (i, (key, _)) in fields.iter().enumerate() {
        if !known.contains(&key.as_str()) {
            return Err(refuse(Some(key), unknown_key(key, known)));
        }
        if fields[..i].iter().any(|(k, _)| k == key) {
            let message = format!("the key `{key}` is written twice: keep one of them");
            return Err(refuse(Some(key), message));
        }
    }
    let mapping = crate::flow::Node::Map(
        fields
            .into_iter()
            .map(|(key, value)| (crate::flow::Node::plain(key), value))
            .collect(),
    );
    let params = crate::flow::check_numbers(&mapping)
        .and_then(|()| (entry.read)(&mapping))
        .map_err(|err| {
            let message = crate::yaml::in_words(&err.to_string());
            refuse(err.key(), message)
        })?;
    if let Some((key, written)) = params.data_files().into_iter().next() {
        return Err(refuse(Some(key), format!("{key}: {}", no_data(&written))));
    }
    admit(&params, budget)
        .map_err(|err| refuse(Some(err.key), format!("{}: {}", err.key, err.message)))?;
    Ok(Scenario {
        source: source_path.to_string(),
        name: crate::paths::scenario_name(source_path),
        header,
        params,
        text,
    })
}

/// The parameters with every data file they name read in.
fn read_data(
    mut params: Params,
    source_path: &str,
    text: &str,
    data: &dyn DataSource,
) -> Result<Params, ScenarioError> {
    for (key, written) in params.data_files() {
        let (name, mut rows) = data.open(source_path, &written).map_err(|err| match err {
            DataOpenError::Path(message) => {
                let (line, column) = key_position(text, key);
                ScenarioError {
                    file: source_path.to_string(),
                    line,
                    column,
                    message: format!("{key}: {message}"),
                }
            }
            DataOpenError::File { name, message } => ScenarioError {
                file: name,
                line: 1,
                column: 1,
                message,
            },
        })?;
        params = params
            .with_data(key, &mut rows)
            .map_err(|err| ScenarioError {
                file: name,
                line: err.line as usize,
                column: err.column as usize,
                message: err.message,
            })?;
    }
    Ok(params)
}

/// Resolve every scenario's references to others (`p_first: {from:
/// NAME}`, see [`crate::analyses::Analysis::references`]), each named
/// scenario before the one naming it, then check each resolved scenario
/// again as [`parse_with_data`] does (its cost may have grown). A name is
/// found by [`Scenario::name`]; with `by_suffix` (scenario files given to
/// `eval` by their paths, `content/cards/log`), also as the end of one.
///
/// Returns the scenarios resolved, in their order, and the errors of
/// those that could not be: located at the key, one per scenario, a
/// cycle named in full in each scenario on it.
pub(crate) fn resolve(
    scenarios: Vec<Scenario>,
    budget: &Budget,
    by_suffix: bool,
) -> (Vec<Scenario>, Vec<ScenarioError>) {
    let mut resolver = Resolver {
        states: vec![State::Waiting; scenarios.len()],
        scenarios,
        by_suffix,
        budget,
        stack: Vec::new(),
        errors: Vec::new(),
    };
    for i in 0..resolver.scenarios.len() {
        resolver.visit(i);
    }
    let Resolver {
        scenarios,
        states,
        mut errors,
        ..
    } = resolver;
    let kept = scenarios
        .into_iter()
        .zip(&states)
        .filter(|(_, state)| matches!(state, State::Resolved))
        .map(|(scenario, _)| scenario)
        .collect();
    errors.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    (kept, errors)
}

/// Where a scenario is in [`resolve`]'s walk.
#[derive(Debug, Clone, PartialEq)]
enum State {
    Waiting,
    /// On the walk's path: met again, it closes a cycle.
    Visiting,
    Resolved,
    Failed,
    /// On a cycle, named as `a → b → a`.
    Cycle(String),
}

struct Resolver<'b> {
    scenarios: Vec<Scenario>,
    states: Vec<State>,
    by_suffix: bool,
    budget: &'b Budget,
    stack: Vec<usize>,
    errors: Vec<ScenarioError>,
}

impl Resolver<'_> {
    /// The scenario a reference names.
    fn find(&self, name: &str) -> Option<usize> {
        let exact = self.scenarios.iter().position(|s| s.name == name);
        exact.or_else(|| {
            let tail = format!("/{name}");
            let mut found = (self.scenarios.iter().enumerate())
                .filter(|(_, s)| self.by_suffix && s.name.ends_with(&tail));
            match (found.next(), found.next()) {
                (Some((i, _)), None) => Some(i),
                _ => None,
            }
        })
    }

    fn visit(&mut self, i: usize) {
        if self.states[i] != State::Waiting {
            return;
        }
        self.states[i] = State::Visiting;
        self.stack.push(i);
        let outcome = self.resolve_one(i);
        self.stack.pop();
        self.states[i] = match outcome {
            Ok(params) => {
                self.scenarios[i].params = params;
                State::Resolved
            }
            Err((key, message)) => {
                let scenario = &self.scenarios[i];
                let (line, column) = scenario.key_position(key);
                self.errors.push(ScenarioError {
                    file: scenario.source.clone(),
                    line,
                    column,
                    message: format!("{key}: {message}"),
                });
                State::Failed
            }
        };
    }

    /// Scenario `i`'s parameters with each reference taken, or the key at
    /// fault and why.
    fn resolve_one(&mut self, i: usize) -> Result<Params, (&'static str, String)> {
        let mut params = self.scenarios[i].params.clone();
        for (key, name, kind) in params.references() {
            let Some(j) = self.find(&name) else {
                return Err((
                    key,
                    format!(
                        "no scenario {name:?} in content/ (name a {kind} scenario by its path \
                         under content/ without .yaml)"
                    ),
                ));
            };
            if self.states[j] == State::Visiting {
                let from = self.stack.iter().position(|&k| k == j).unwrap_or(0);
                let mut names: Vec<&str> = (self.stack[from..].iter())
                    .map(|&k| self.scenarios[k].name.as_str())
                    .collect();
                names.push(&self.scenarios[j].name);
                let cycle = names.join(" → ");
                for &k in &self.stack[from..] {
                    self.states[k] = State::Cycle(cycle.clone());
                }
            }
            self.visit(j);
            if let State::Cycle(cycle) = &self.states[i] {
                return Err((key, format!("the references form a cycle: {cycle}")));
            }
            if self.states[j] != State::Resolved {
                return Err((
                    key,
                    format!("{name:?} could not be read: see its own error"),
                ));
            }
            let target = &self.scenarios[j];
            let found = target.params.kind();
            if found != kind {
                return Err((
                    key,
                    format!("{name:?} is a {found} scenario; name a {kind} one"),
                ));
            }
            params = params
                .with_reference(key, &target.params)
                .map_err(|m| (key, m))?;
        }
        params
            .validate()
            .and_then(|()| {
                self.budget
                    .admit_explained(&params.cost(), params.cost_detail())
            })
            .map_err(|err| (err.key, err.message))?;
        Ok(params)
    }
}

/// Every top-level key must be one of `known`.
fn check_keys(
    text: &str,
    mapping: &serde_yaml::Mapping,
    known: &[&str],
) -> Result<(), (usize, usize, String)> {
    for key in mapping.keys() {
        let name = key
            .as_str()
            .map_or_else(|| format!("{key:?}"), str::to_string);
        if !known.contains(&name.as_str()) {
            let (line, _) = key_position(text, &name);
            return Err((line, 1, unknown_key(&name, known)));
        }
    }
    Ok(())
}

/// The message for a top-level key that is not one of `known`.
fn unknown_key(name: &str, known: &[&str]) -> String {
    let expected = known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    format!("unknown field `{name}`, expected one of {expected}")
}

/// Where a top-level key's value starts, for errors that involve the value
/// as a whole; (1, 1) if the key is absent.
fn key_position(text: &str, key: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix(key) {
            if let Some(after) = rest.trim_start().strip_prefix(':') {
                let value_offset = line.len() - after.trim_start().len();
                return (i + 1, value_offset + 1);
            }
        }
    }
    (1, 1)
}

impl Scenario {
    /// Where the value of top-level key `key` starts in the file, for
    /// errors found after loading (such as a name that leads nowhere).
    pub(crate) fn key_position(&self, key: &str) -> (usize, usize) {
        key_position(&self.text, key)
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.header.title, self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;

    fn error(text: &str) -> ScenarioError {
        parse("s.yaml", text).unwrap_err()
    }

    #[test]
    fn a_good_scenario_parses() {
        let s = parse(
            "a/targets.yaml",
            "title: T\nkind: sum-mod\ndice: d6\ntargets: \"2..4\"\n",
        )
        .unwrap();
        assert_eq!(s.name, "a/targets");
        assert_eq!(s.header.title, "T");
        assert_eq!(s.params.kind(), "sum-mod");
    }

    #[test]
    fn errors_point_at_line_and_column() {
        let e = error("title: T\nkind: sum-mod\ndice: d6\ntargets: \"9..2\"\n");
        assert_eq!((e.line, e.column), (4, 10));
        assert!(e.message.contains("backwards"), "{e}");

        let e = error("title: T\nkind: sum-mod\ndice: d1\ntargets: 3\n");
        assert_eq!((e.line, e.column), (3, 7));
        assert!(e.message.contains("at least 2 faces"), "{e}");

        let e = error("title: T\nkind: sum-mod\ndice: d6\ntargets: 3\ncolour: red\n");
        assert_eq!((e.line, e.column), (5, 1));
        assert!(e.message.contains("unknown field `colour`"), "{e}");

        let e = error("title: T\nkind: sum-mod\ndice: 0d6\ntargets: 3\n");
        assert_eq!(e.line, 3);
        assert!(e.message.contains("at least one die"), "{e}");

        let e = error("title: T\nkind: summod\ndice: d6\ntargets: 3\n");
        assert_eq!((e.line, e.column), (2, 7));
        assert!(
            e.message
                .contains("unknown kind \"summod\": expected one of sum-mod"),
            "{e}"
        );

        let e = error("title: T\nkind: sum-mod\ndice: d6\ntargets: 0\n");
        assert_eq!(e.line, 4);

        let e = error("title: T\nkind: sum-mod\ndice: d6\n");
        assert!(e.message.contains("missing field `targets`"), "{e}");

        let e = error("title: [1]\nkind: sum-mod\ndice: d6\ntargets: 3\n");
        assert_eq!((e.line, e.column), (1, 8));

        // A billion laughs: aliases nested to expand past serde_yaml's limit.
        let mut bomb = String::from(
            "title: T\nkind: sum-mod\ndice: d6\ntargets: 2\na0: &a0 [x, x, x, x, x, x, x, x, x]\n",
        );
        for i in 1..12 {
            let refs = vec![format!("*a{}", i - 1); 9].join(", ");
            bomb.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
        }
        let e = error(&bomb);
        assert!(e.message.contains("repetition limit"), "{e}");

        let e = error("  \n");
        assert!(e.message.contains("empty"));

        let e = error("title: T\nkind: sum-mod\ndice: d6\ntargets: 5000\n");
        assert_eq!((e.line, e.column), (4, 10));
        assert!(e.message.contains("--budget"), "{e}");
        assert!(e.message.starts_with("targets: "), "{e}");
        assert_eq!(e.to_string(), format!("s.yaml:4:10: {}", e.message));
    }

    const LOG: &str = "title: Log\nkind: seat-advantage\nwins: {2: [11, 9]}\n";

    fn a_match(from: &str) -> String {
        format!("title: M\nkind: match\nbest_of: 3\np_first: {{from: {from}}}\nlater_games: loser-chooses\n")
    }

    /// The files resolved: the names of those kept, and each error as
    /// `file:line:column: message`.
    fn resolved(files: &[(&str, &str)], by_suffix: bool) -> (Vec<String>, Vec<String>) {
        let scenarios = files
            .iter()
            .map(|(path, text)| parse(path, text).unwrap())
            .collect();
        let (kept, errors) = resolve(scenarios, &Budget::default(), by_suffix);
        (
            kept.into_iter().map(|s| s.name).collect(),
            errors.into_iter().map(|e| e.to_string()).collect(),
        )
    }

    #[test]
    fn a_match_takes_its_p_first_from_the_log_it_names() {
        // The match is listed first: the log it names is resolved first.
        let m = a_match("logs/two");
        let files = [("m.yaml", m.as_str()), ("logs/two.yaml", LOG)];
        let scenarios: Vec<Scenario> = files.iter().map(|(p, t)| parse(p, t).unwrap()).collect();
        let (kept, errors) = resolve(scenarios, &Budget::default(), false);
        assert!(errors.is_empty(), "{errors:?}");
        let results = kept[0].params.analyse(&Progress::hidden()).to_json();
        assert_eq!(results["cases"][0]["p_match"], "2101/4000");
        assert_eq!(results["p_first_from"]["games"], 20);
        // Scenarios that name nothing are kept as they are.
        assert_eq!(kept[1].name, "logs/two");
    }

    #[test]
    fn a_reference_that_leads_nowhere_is_refused_at_its_key() {
        let m = a_match("logs/none");
        let (kept, errors) = resolved(&[("m.yaml", &m), ("logs/two.yaml", LOG)], false);
        assert_eq!(kept, ["logs/two"]);
        assert_eq!(
            errors,
            [
                "m.yaml:4:10: p_first: no scenario \"logs/none\" in content/ (name a \
              seat-advantage scenario by its path under content/ without .yaml)"
            ]
        );
        // Another kind.
        let other = "title: S\nkind: sum-mod\ndice: d6\ntargets: 2\n";
        let (_, errors) = resolved(&[("m.yaml", &m), ("logs/none.yaml", other)], false);
        assert_eq!(
            errors,
            ["m.yaml:4:10: p_first: \"logs/none\" is a sum-mod scenario; name a seat-advantage one"]
        );
        // A log with no 2-player games: the kind's own message, at the key.
        let three = "title: L\nkind: seat-advantage\nwins: {3: [4, 3, 3]}\n";
        let (_, errors) = resolved(&[("m.yaml", &m), ("logs/none.yaml", three)], false);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("m.yaml:4:10: p_first: \"logs/none\" has games of 3 players"));
        // A path's end names a file only where asked (files given to eval).
        let (kept, errors) = resolved(
            &[("m.yaml", &a_match("two")), ("content/logs/two.yaml", LOG)],
            true,
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(kept.len(), 2);
        let (_, errors) = resolved(
            &[("m.yaml", &a_match("two")), ("content/logs/two.yaml", LOG)],
            false,
        );
        assert_eq!(errors.len(), 1, "{errors:?}");
    }

    #[test]
    fn references_in_a_cycle_are_refused_naming_the_cycle() {
        let (kept, errors) = resolved(&[("a.yaml", &a_match("a"))], false);
        assert!(kept.is_empty());
        assert_eq!(
            errors,
            ["a.yaml:4:10: p_first: the references form a cycle: a → a"]
        );
        // Two matches naming each other, and a third naming one of them:
        // each on the cycle names it, the third points at its error.
        let (kept, errors) = resolved(
            &[
                ("a.yaml", &a_match("b")),
                ("b.yaml", &a_match("a")),
                ("c.yaml", &a_match("b")),
                ("log.yaml", LOG),
            ],
            false,
        );
        assert_eq!(kept, ["log"]);
        assert_eq!(
            errors,
            [
                "a.yaml:4:10: p_first: the references form a cycle: a → b → a",
                "b.yaml:4:10: p_first: the references form a cycle: a → b → a",
                "c.yaml:4:10: p_first: \"b\" could not be read: see its own error",
            ]
        );
        // A match naming a match that names a log: resolved, but of the wrong kind.
        let (_, errors) = resolved(
            &[
                ("a.yaml", &a_match("b")),
                ("b.yaml", &a_match("log")),
                ("log.yaml", LOG),
            ],
            false,
        );
        assert_eq!(
            errors,
            ["a.yaml:4:10: p_first: \"b\" is a match scenario; name a seat-advantage one"]
        );
    }

    #[test]
    fn reroll_files_are_located_at_the_bad_value() {
        let at = |text: &str| {
            let e = parse("rules/r.yaml", text).unwrap_err();
            (e.line, e.column, e.message)
        };
        let head = "title: T\nkind: reroll\n";
        let (line, column, message) = at(&format!("{head}cards: 0\ndice: [d6]\n"));
        assert_eq!((line, column), (3, 8), "{message}");
        let (line, column, message) = at(&format!("{head}cards: 3\ndice: [d6, d8, d1O]\n"));
        assert_eq!((line, column), (4, 16), "{message}");
        assert!(message.contains("expected one die"), "{message}");
        let (line, _, message) = at(&format!("{head}cards: 3\ndice: [d1]\n"));
        assert_eq!(line, 4);
        assert!(message.contains("at least 2 faces"), "{message}");
        let (line, column, message) = at(&format!("{head}cards: 3\ndice: [d6]\nbanish: 4\n"));
        assert_eq!((line, column), (5, 9));
        assert!(message.starts_with("banish: cannot banish 4"), "{message}");
    }
}
