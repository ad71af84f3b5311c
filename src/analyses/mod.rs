//! One module per scenario kind: its parameters, its checks and its analysis.
//!
//! Adding a kind means adding a module here and one arm to each `match`
//! below; nothing else in the pipeline changes.

mod cells;
pub mod cost;
pub mod first_player;
pub mod race;
pub mod reroll;
pub mod shuffle;
pub mod sum_mod;

pub use cost::{Budget, Cost};

use crate::report::Report;
use serde::Deserialize;

/// The kinds a scenario's `kind:` may name.
pub const KINDS: &[&str] = &["sum-mod", "reroll", "first-player", "shuffle", "race"];

/// Keys every scenario file may carry whatever its kind; read by the loader.
///
/// Kinds' parameter structs do not repeat these: the loader checks every
/// top-level key against the header's fields plus the kind's (see
/// [`Params::fields`]), so kinds must not use `deny_unknown_fields` at the
/// top level (nested structs should).
#[derive(Debug, Clone, Deserialize)]
pub struct Header {
    /// Page title.
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
}

/// A scenario's parameters, by kind.
#[derive(Debug, Clone)]
pub enum Params {
    /// `sum-mod`: one of n targets from the sum of dice mod n.
    SumMod(sum_mod::Params),
    /// `reroll`: one of n cards from a single die, rerolling spare faces.
    Reroll(reroll::Params),
    /// `shuffle`: distance to a random order after riffle shuffles.
    Shuffle(shuffle::Params),
    /// `first-player`: highest total goes first, ties rolled again.
    FirstPlayer(first_player::Params),
    /// `race`: two players race to cross off their chosen totals.
    Race(race::Params),
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

impl Params {
    /// Deserialize the parameters of `kind`; `None` when the kind is unknown.
    pub fn from_yaml(kind: &str, source: &str) -> Option<Result<Params, serde_yaml::Error>> {
        Some(match kind {
            "sum-mod" => serde_yaml::from_str(source).map(Params::SumMod),
            "reroll" => serde_yaml::from_str(source).map(Params::Reroll),
            "shuffle" => serde_yaml::from_str(source).map(Params::Shuffle),
            "first-player" => serde_yaml::from_str(source).map(Params::FirstPlayer),
            "race" => serde_yaml::from_str(source).map(Params::Race),
            _ => return None,
        })
    }

    /// The top-level keys a kind accepts besides the header's; `None` for
    /// an unknown kind.
    pub fn fields(kind: &str) -> Option<&'static [&'static str]> {
        use crate::scenario::fields::fields_of;
        Some(match kind {
            "sum-mod" => fields_of::<sum_mod::Params>(),
            "reroll" => fields_of::<reroll::Params>(),
            "shuffle" => fields_of::<shuffle::Params>(),
            "first-player" => fields_of::<first_player::Params>(),
            "race" => fields_of::<race::Params>(),
            _ => return None,
        })
    }

    /// The kind's name, as written in scenario files.
    pub fn kind(&self) -> &'static str {
        match self {
            Params::SumMod(_) => "sum-mod",
            Params::Reroll(_) => "reroll",
            Params::Shuffle(_) => "shuffle",
            Params::FirstPlayer(_) => "first-player",
            Params::Race(_) => "race",
        }
    }

    /// Checks that need several keys together, and the cost budget, before
    /// any work starts.
    pub fn validate(&self) -> Result<(), ParamError> {
        match self {
            Params::SumMod(p) => p.validate(),
            Params::Reroll(p) => p.validate(),
            Params::Shuffle(p) => p.validate(),
            Params::FirstPlayer(p) => p.validate(),
            Params::Race(p) => p.validate(),
        }
    }

    /// What the analysis would take, estimated from the parameters alone.
    pub fn cost(&self) -> Cost {
        match self {
            Params::SumMod(p) => p.cost(),
            Params::Reroll(p) => p.cost(),
            Params::FirstPlayer(p) => p.cost(),
            Params::Shuffle(p) => p.cost(),
            Params::Race(p) => p.cost(),
        }
    }

    /// Run the analysis. Only called on validated parameters.
    pub fn analyse(&self) -> Report {
        match self {
            Params::SumMod(p) => p.analyse(),
            Params::Reroll(p) => p.analyse(),
            Params::Shuffle(p) => p.analyse(),
            Params::FirstPlayer(p) => p.analyse(),
            Params::Race(p) => p.analyse(),
        }
    }
}
