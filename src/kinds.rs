//! The registry: every scenario kind, in one list.
//!
//! A kind is an [`Analysis`] (name, parameters, validation, cost, exact
//! results), a [`Layout`] (its page) and a [`Simulate`] (its procedure
//! replayed, and what cannot be, with why); [`Kind`] asks for all three, so the
//! compiler rejects a kind that leaves anything out. Adding a kind is its
//! two halves and one line in [`KINDS`]; `docs/adding-a-kind.md` walks
//! through it.
//!
//! Everything after loading reaches a kind only through [`Params`] and
//! [`Results`], which hide the kind's own types behind one interface.

use crate::analyses::fields::fields_of;
use crate::analyses::observations::DataError;
use crate::analyses::simulate::{Simulate, Simulation};
use crate::analyses::{self, Analysis, Cost, ParamError};
use crate::layout::{Layout, Others, ScenarioPage};
use crate::progress::Progress;
use std::any::Any;
use std::fmt;
use std::io::BufRead;
use std::sync::Arc;

/// A scenario kind: what it computes, how its page is laid out, and how
/// its procedure is replayed by simulation.
pub trait Kind: Analysis + Layout + Simulate {}

impl<K: Analysis + Layout + Simulate> Kind for K {}

/// Every kind a scenario's `kind:` may name, in the order the docs list them,
/// each with the browser engine that computes it, if any (see
/// [`Entry::engine`]).
pub(crate) static KINDS: &[Entry] = &[
    entry::<analyses::sum_mod::SumMod>(None),
    entry::<analyses::reroll::Reroll>(Some("rules")),
    entry::<analyses::first_player::FirstPlayer>(Some("rules")),
    entry::<analyses::shuffle::Shuffle>(None),
    entry::<analyses::race::Race>(None),
    entry::<analyses::die_test_kind::DieTest>(None),
    entry::<analyses::seat_advantage::SeatAdvantage>(None),
    entry::<analyses::dice::Dice>(Some(PLAYGROUND_ENGINE)),
    entry::<analyses::deck::Deck>(Some("cards")),
    entry::<analyses::match_kind::Match>(Some("cards")),
    entry::<analyses::anydice_kind::Anydice>(Some("anydice")),
];

/// The engine of the playground, which computes `dice` scenarios.
pub(crate) const PLAYGROUND_ENGINE: &str = "dice";

/// The engine being built: `scripts/build-wasm.sh` builds one module per
/// engine named in [`KINDS`], each with `FAIRDICE_ENGINE` set to its name
/// and holding only its kinds, so a page loads only what its form computes.
/// Unset (a native build, or a browser build by hand), every engine's kinds.
const BUILDING: Option<&str> = option_env!("FAIRDICE_ENGINE");

/// Every engine the registry names, once each, sorted (for the tests that
/// keep the engines' assets and `scripts/build-wasm.sh` in step).
#[cfg(test)]
pub(crate) fn engines() -> Vec<&'static str> {
    let mut named: Vec<&str> = KINDS.iter().filter_map(|entry| entry.engine).collect();
    named.push(PLAYGROUND_ENGINE);
    named.sort_unstable();
    named.dedup();
    named
}

/// Whether this build computes kinds of `engine`.
const fn built_here(engine: Option<&str>) -> bool {
    let (Some(engine), Some(building)) = (engine, BUILDING) else {
        return engine.is_some();
    };
    let (a, b) = (engine.as_bytes(), building.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// One registered kind, reached by its name.
pub struct Entry {
    /// As written after `kind:`.
    pub name: &'static str,
    /// The browser engine that computes it, for kinds quick enough to
    /// recompute while the reader types: their pages carry a what-if form,
    /// computed by `assets/engine-NAME.js` (built from `wasm/`). Built for
    /// the browser (feature `browser`), kinds of other engines keep only
    /// their names, so their code is left out of the module.
    pub(crate) engine: Option<&'static str>,
    /// The top-level keys of its parameters (besides the header's).
    pub fields: fn() -> &'static [&'static str],
    /// The keys that only name files (see [`Analysis::FILE_KEYS`]).
    pub(crate) file_keys: &'static [&'static str],
    /// Read its parameters from a scenario file's text (not in the
    /// browser, which reads no YAML files).
    pub parse: fn(&str) -> Result<Params, serde_yaml::Error>,
    /// Read its parameters from a what-if form's values, as a mapping of
    /// its keys (see [`crate::flow`]).
    pub(crate) read: fn(&crate::flow::Node) -> Result<Params, crate::flow::Error>,
}

const fn entry<K: Kind>(engine: Option<&'static str>) -> Entry {
    // In the browser no file is parsed: the YAML reader is left out.
    let parse = if cfg!(feature = "browser") {
        |_: &str| {
            Err(serde::de::Error::custom(
                "the browser reads no scenario files",
            ))
        }
    } else {
        parse::<K>
    };
    if cfg!(feature = "browser") && !built_here(engine) {
        return Entry {
            name: K::NAME,
            engine,
            fields: || &[],
            file_keys: &[],
            parse,
            read: |_| {
                Err(serde::de::Error::custom(
                    "this kind is not computed in the browser",
                ))
            },
        };
    }
    Entry {
        name: K::NAME,
        engine,
        fields: fields_of::<K::Params>,
        file_keys: K::FILE_KEYS,
        parse,
        read: read::<K>,
    }
}

fn typed<K: Kind>(params: K::Params) -> Params {
    Params(Arc::new(Typed::<K> {
        params: Arc::new(params),
    }))
}

fn parse<K: Kind>(text: &str) -> Result<Params, serde_yaml::Error> {
    serde_yaml::from_str(text).map(typed::<K>)
}

fn read<K: Kind>(node: &crate::flow::Node) -> Result<Params, crate::flow::Error> {
    crate::flow::to(node).map(typed::<K>)
}

/// The registered kind called `name`.
pub fn find(name: &str) -> Option<&'static Entry> {
    KINDS.iter().find(|entry| entry.name == name)
}

/// The names of every kind, for error messages.
pub fn names() -> Vec<&'static str> {
    KINDS.iter().map(|entry| entry.name).collect()
}

/// One scenario's parameters, of whichever kind.
#[derive(Clone)]
pub struct Params(Arc<dyn ErasedParams>);

/// One scenario's exact results, of whichever kind.
#[derive(Clone)]
pub struct Results(Arc<dyn ErasedResults>);

impl Params {
    /// The kind's name.
    pub fn kind(&self) -> &'static str {
        self.0.kind()
    }
    /// Checks across keys (see [`Analysis::validate`]).
    pub fn validate(&self) -> Result<(), ParamError> {
        self.0.validate()
    }
    /// The estimated cost (see [`Analysis::cost`]).
    pub fn cost(&self) -> Cost {
        self.0.cost()
    }
    /// The data files the parameters name (see [`Analysis::data_files`]).
    pub(crate) fn data_files(&self) -> Vec<(&'static str, String)> {
        self.0.data_files()
    }
    /// These parameters with the file named under `key` read in (see
    /// [`Analysis::read_data`]).
    pub(crate) fn with_data(
        &self,
        key: &'static str,
        rows: &mut dyn BufRead,
    ) -> Result<Params, DataError> {
        self.0.with_data(key, rows)
    }
    /// The other scenarios these parameters take values from (see
    /// [`Analysis::references`]).
    pub(crate) fn references(&self) -> Vec<(&'static str, String, &'static str)> {
        self.0.references()
    }
    /// These parameters with the value under `key` taken from `other`, the
    /// parameters of the scenario it names (see [`Analysis::resolve`]).
    pub(crate) fn with_reference(
        &self,
        key: &'static str,
        other: &Params,
    ) -> Result<Params, String> {
        self.0.with_reference(key, other.0.as_any())
    }
    /// The value taken under `key` (see [`Analysis::resolved_value`]).
    pub(crate) fn resolved_value(&self, key: &str) -> Option<String> {
        self.0.resolved_value(key)
    }
    /// The costliest part in words (see [`Analysis::cost_detail`]).
    pub(crate) fn cost_detail(&self) -> Option<String> {
        self.0.cost_detail()
    }
    /// Compute the exact results.
    pub fn analyse(&self, progress: &Progress) -> Results {
        self.0.analyse(progress)
    }
    /// Results stored by [`Results::to_bytes`] for these parameters;
    /// `None` when they do not read back as this kind's results.
    pub(crate) fn results_from_bytes(&self, bytes: &[u8]) -> Option<Results> {
        self.0.read(bytes)
    }
}

impl fmt::Debug for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Results {
    /// The results as the JSON contract spells them.
    pub fn to_json(&self) -> serde_json::Value {
        self.0.to_json()
    }
    /// The same contract written pretty-printed to `out` as it is spelled,
    /// its lines after the first indented `depth` levels, with no value
    /// built: the JSON of 1000d6 is 10 MB. (The command line's; the
    /// browser's module has no use for it.)
    #[cfg(not(feature = "browser"))]
    pub fn write_json(&self, out: &mut dyn std::io::Write, depth: usize) -> std::io::Result<()> {
        self.0.write_json(out, depth)
    }
    /// The stored form, for the cache.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        self.0.to_bytes()
    }
    /// The scenario page: the contract and the laid-out blocks, quoting
    /// `others` where the kind's page does.
    pub fn page(&self, others: &dyn Others) -> ScenarioPage {
        self.0.page(others)
    }
    /// The kind's own results, for [`crate::layout::results_of`].
    pub(crate) fn as_any(&self) -> &dyn Any {
        self.0.as_any()
    }
    /// The procedure replayed against these results (see [`Simulate`]).
    pub fn simulation(&self) -> Simulation {
        self.0.simulation()
    }
}

impl fmt::Debug for Results {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The browser's module never stores, reads back, replays or exports
/// results (its page shows only the HTML): in its build those bodies are
/// left out, and their code with them.
const BROWSER_NEVER: &str = "the browser's module stores, reads back and replays no results";

trait ErasedParams: fmt::Debug + Send + Sync {
    fn kind(&self) -> &'static str;
    fn validate(&self) -> Result<(), ParamError>;
    fn cost(&self) -> Cost;
    fn cost_detail(&self) -> Option<String>;
    fn analyse(&self, progress: &Progress) -> Results;
    fn data_files(&self) -> Vec<(&'static str, String)>;
    fn with_data(&self, key: &'static str, rows: &mut dyn BufRead) -> Result<Params, DataError>;
    fn references(&self) -> Vec<(&'static str, String, &'static str)>;
    fn with_reference(&self, key: &'static str, other: &dyn Any) -> Result<Params, String>;
    fn as_any(&self) -> &dyn Any;
    fn resolved_value(&self, key: &str) -> Option<String>;
    fn read(&self, bytes: &[u8]) -> Option<Results>;
}

trait ErasedResults: fmt::Debug + Send + Sync {
    fn to_json(&self) -> serde_json::Value;
    #[cfg(not(feature = "browser"))]
    fn write_json(&self, out: &mut dyn std::io::Write, depth: usize) -> std::io::Result<()>;
    fn to_bytes(&self) -> Vec<u8>;
    fn page(&self, others: &dyn Others) -> ScenarioPage;
    fn as_any(&self) -> &dyn Any;
    fn simulation(&self) -> Simulation;
}

struct Typed<K: Kind> {
    params: Arc<K::Params>,
}

/// The browser never prints parameters or results: its build writes only
/// the kind's name, and every derived `Debug` of the kinds' types is left
/// out of the module.
impl<K: Kind> fmt::Debug for Typed<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if cfg!(feature = "browser") {
            return f.write_str(K::NAME);
        }
        self.params.fmt(f)
    }
}

struct TypedResults<K: Kind> {
    params: Arc<K::Params>,
    results: K::Results,
}

impl<K: Kind> fmt::Debug for TypedResults<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if cfg!(feature = "browser") {
            return f.write_str(K::NAME);
        }
        self.results.fmt(f)
    }
}

impl<K: Kind> ErasedParams for Typed<K> {
    fn kind(&self) -> &'static str {
        K::NAME
    }
    fn validate(&self) -> Result<(), ParamError> {
        K::validate(&self.params)
    }
    fn cost(&self) -> Cost {
        K::cost(&self.params)
    }
    fn cost_detail(&self) -> Option<String> {
        K::cost_detail(&self.params)
    }
    fn analyse(&self, progress: &Progress) -> Results {
        let results = K::analyse(&self.params, progress);
        Results(Arc::new(TypedResults::<K> {
            params: self.params.clone(),
            results,
        }))
    }
    fn data_files(&self) -> Vec<(&'static str, String)> {
        K::data_files(&self.params)
    }
    fn with_data(&self, key: &'static str, rows: &mut dyn BufRead) -> Result<Params, DataError> {
        let mut params = (*self.params).clone();
        K::read_data(&mut params, key, rows)?;
        Ok(Params(Arc::new(Typed::<K> {
            params: Arc::new(params),
        })))
    }
    fn references(&self) -> Vec<(&'static str, String, &'static str)> {
        K::references(&self.params)
    }
    fn with_reference(&self, key: &'static str, other: &dyn Any) -> Result<Params, String> {
        let mut params = (*self.params).clone();
        K::resolve(&mut params, key, other)?;
        Ok(Params(Arc::new(Typed::<K> {
            params: Arc::new(params),
        })))
    }
    fn as_any(&self) -> &dyn Any {
        &*self.params
    }
    fn resolved_value(&self, key: &str) -> Option<String> {
        K::resolved_value(&self.params, key)
    }
    fn read(&self, bytes: &[u8]) -> Option<Results> {
        if cfg!(feature = "browser") {
            unreachable!("{BROWSER_NEVER}")
        }
        let results: K::Results = serde_json::from_slice(bytes).ok()?;
        Some(Results(Arc::new(TypedResults::<K> {
            params: self.params.clone(),
            results,
        })))
    }
}

impl<K: Kind> ErasedResults for TypedResults<K> {
    fn to_json(&self) -> serde_json::Value {
        if cfg!(feature = "browser") {
            unreachable!("{BROWSER_NEVER}")
        }
        K::contract(&self.results, serde_json::value::Serializer).expect("results serialize")
    }
    #[cfg(not(feature = "browser"))]
    fn write_json(&self, out: &mut dyn std::io::Write, depth: usize) -> std::io::Result<()> {
        let mut serializer = crate::layout::nested_json::nested_serializer(out, depth);
        K::contract(&self.results, &mut serializer).map_err(std::io::Error::from)
    }
    fn to_bytes(&self) -> Vec<u8> {
        if cfg!(feature = "browser") {
            unreachable!("{BROWSER_NEVER}")
        }
        serde_json::to_vec(&self.results).expect("results serialize")
    }
    fn page(&self, others: &dyn Others) -> ScenarioPage {
        ScenarioPage {
            results: if cfg!(feature = "browser") {
                serde_json::Value::Null
            } else {
                self.to_json()
            },
            blocks: K::layout_with(&self.params, &self.results, others),
        }
    }
    fn as_any(&self) -> &dyn Any {
        &self.results
    }
    fn simulation(&self) -> Simulation {
        if cfg!(feature = "browser") {
            unreachable!("{BROWSER_NEVER}")
        }
        K::simulation(&self.params, &self.results)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Built for one engine, only its kinds are computed; natively, every
    /// engine's.
    #[test]
    fn an_engine_holds_only_its_kinds() {
        assert!(built_here(Some("cards")) && built_here(Some("dice")));
        assert!(!built_here(None));
        assert_eq!(engines(), ["anydice", "cards", "dice", "rules"]);
        // The playground computes dice scenarios.
        assert_eq!(find("dice").and_then(|e| e.engine), Some(PLAYGROUND_ENGINE));
    }
}
