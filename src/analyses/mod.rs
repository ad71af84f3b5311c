//! The analyses: one module per scenario kind, each turning validated
//! parameters into typed exact results (big-integer counts, reduced
//! fractions, plain integers). No formatting and no page layout here: that
//! is [`crate::layout`]'s job, and [`crate::kinds`] joins the two.

pub mod anydice_kind;
pub mod cost;
pub mod deck;
pub mod dice;
pub(crate) mod dice_contract;
pub(crate) mod die_test_kind;
pub mod fields;
pub(crate) mod first_player;
pub(crate) mod match_kind;
pub(crate) mod observations;
pub mod pool;
pub mod race;
pub mod reroll;
pub(crate) mod seat_advantage;
pub mod shuffle;
pub mod simulate;
pub mod stats;
pub mod sum_mod;
pub mod values;

pub use cost::{Budget, Cost};

use crate::progress::Progress;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

/// What a scenario kind computes: its name, its parameters and their
/// checks, a cost estimate, and the analysis itself.
///
/// A kind's parameter struct holds only its own keys (the loader checks
/// every top-level key against the header's plus the kind's), so it must
/// not use `deny_unknown_fields` at the top level (nested structs should).
pub trait Analysis: 'static {
    /// The kind's name, as written after `kind:` in a scenario file.
    const NAME: &'static str;
    /// The kind's keys, read from the scenario file. Its `Debug` form keys
    /// the cache, so it must show every field that changes the results.
    type Params: DeserializeOwned + Debug + Clone + Send + Sync;
    /// The exact results, as the cache stores them. Serialized, they are
    /// also the `results` of the JSON contract, unless [`Analysis::contract`]
    /// picks a part of them.
    type Results: Serialize + DeserializeOwned + Debug + Clone + Send + Sync;

    /// Checks that need several keys together, before any work starts.
    fn validate(params: &Self::Params) -> Result<(), ParamError>;
    /// What the analysis would take, estimated from the parameters alone.
    fn cost(params: &Self::Params) -> Cost;
    /// Compute the results; only called on validated parameters within
    /// budget. Long work reports through `progress`.
    fn analyse(params: &Self::Params, progress: &Progress) -> Self::Results;

    /// The part of the parameters that costs most, in words, added to the
    /// message when the cost is over budget (the dice language names the
    /// sub-expression). Most kinds' cost follows from one key: `None`.
    fn cost_detail(_params: &Self::Params) -> Option<String> {
        None
    }

    /// The `results` of the JSON contract (`eval --json`, the scenario's
    /// `.json`, shortcode paths, gates): by default all of the results.
    /// A kind whose page needs exact figures beyond its published contract
    /// keeps them in its results and serializes only the contract part
    /// here, so the figures are cached with the rest and layout stays
    /// formatting only. Given a serializer, so that the same contract is
    /// made a value (pages, gates) or streamed (`eval --json`).
    fn contract<S: serde::Serializer>(
        results: &Self::Results,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        results.serialize(serializer)
    }

    /// Keys that only ever name a file beside the scenario
    /// (`program_file:`): a What if? form leaves them out, since the
    /// reader's browser reads no files. None by default.
    const FILE_KEYS: &'static [&'static str] = &[];

    /// Files of observations the scenario names (`rolls: rolls.csv`): each
    /// key and the path as written, relative to the scenario's folder. The
    /// loader opens each (inside the project, under the size limit) and
    /// hands it to [`Analysis::read_data`] before validation. None by default.
    fn data_files(_params: &Self::Params) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// Read the file named under `key`, streamed row by row, into the
    /// parameters (which key the cache, so they must hold what was read).
    fn read_data(
        _params: &mut Self::Params,
        _key: &'static str,
        _rows: &mut dyn std::io::BufRead,
    ) -> Result<(), observations::DataError> {
        Ok(())
    }

    /// Other scenarios the parameters take a value from (`p_first: {from:
    /// NAME}`): each key, the name as written (a path under `content/`
    /// without `.yaml`) and the kind it must be. The loader resolves them
    /// once every scenario is read, each named scenario before the one
    /// naming it, and hands each to [`Analysis::resolve`]. None by default.
    fn references(_params: &Self::Params) -> Vec<(&'static str, String, &'static str)> {
        Vec::new()
    }

    /// Take the value named under `key` from `other`: the parameters of the
    /// scenario it names (already resolved, and of the kind
    /// [`Analysis::references`] asked for, as `Any`). The parameters key
    /// the cache, so they must hold what was taken. `Err` says why not.
    fn resolve(
        _params: &mut Self::Params,
        _key: &'static str,
        _other: &dyn std::any::Any,
    ) -> Result<(), String> {
        Ok(())
    }

    /// The value taken under `key` once resolved, written on one line as
    /// a scenario file would write it (`"11/20"`): what a What if? form,
    /// which reads no other scenario, is prefilled with. `None` by default.
    fn resolved_value(_params: &Self::Params, _key: &str) -> Option<String> {
        None
    }
}

/// A parameter that is well-formed but impossible or too costly together
/// with the others; `key` lets the loader point at the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamError {
    /// The top-level key at fault.
    pub key: &'static str,
    /// What is wrong and what was expected.
    pub message: String,
}
