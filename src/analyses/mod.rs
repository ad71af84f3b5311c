//! One module per scenario kind: its parameters, its checks and its analysis.
//!
//! Adding a kind means adding a module here and one arm to each `match`
//! below; nothing else in the pipeline changes.

pub mod sum_mod;

use crate::report::Report;
use serde::Deserialize;

/// The kinds a scenario's `kind:` may name.
pub const KINDS: &[&str] = &["sum-mod"];

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
            _ => return None,
        })
    }

    /// The top-level keys a kind accepts besides the header's; `None` for
    /// an unknown kind.
    pub fn fields(kind: &str) -> Option<&'static [&'static str]> {
        use crate::scenario::fields::fields_of;
        Some(match kind {
            "sum-mod" => fields_of::<sum_mod::Params>(),
            _ => return None,
        })
    }

    /// The kind's name, as written in scenario files.
    pub fn kind(&self) -> &'static str {
        match self {
            Params::SumMod(_) => "sum-mod",
        }
    }

    /// Checks that need several keys together, and the cost budget, before
    /// any work starts.
    pub fn validate(&self) -> Result<(), ParamError> {
        match self {
            Params::SumMod(p) => p.validate(),
        }
    }

    /// Run the analysis. Only called on validated parameters.
    pub fn analyse(&self) -> Report {
        match self {
            Params::SumMod(p) => p.analyse(),
        }
    }
}
