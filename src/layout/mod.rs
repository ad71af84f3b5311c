//! Layout: typed exact results turned into what a page shows, as plain data
//! ([`blocks`]): headings, key figures, tables whose cells carry a display
//! form beside the exact value, and charts described by their points.
//!
//! This is the only place numbers are formatted ([`format`], [`cells`]).
//! Layout runs on every build, from fresh or cached results alike, so a
//! change here can never be hidden by the cache.

mod anydice_kind;
pub mod blocks;
pub(crate) mod cells;
pub mod csv;
mod deck;
mod dice;
mod die_test_kind;
mod first_player;
pub mod format;
pub mod locale;
mod match_kind;
pub(crate) mod nested_json;
mod race;
mod reroll;
#[cfg(test)]
mod rounding_tests;
mod seat_advantage;
mod shuffle;
mod sum_mod;

use crate::analyses::Analysis;
pub use blocks::{Block, ScenarioPage};
use std::any::Any;

/// How a kind's results become its scenario page.
pub trait Layout: Analysis {
    /// The page's blocks, in order, from the parameters and the results.
    /// Formatting only: every number shown comes from `results`.
    fn layout(params: &Self::Params, results: &Self::Results) -> Vec<Block>;

    /// The page when it may quote other scenarios' results (layout runs
    /// once every result exists). Most pages quote none.
    fn layout_with(
        params: &Self::Params,
        results: &Self::Results,
        _others: &dyn Others,
    ) -> Vec<Block> {
        Self::layout(params, results)
    }
}

/// The other scenarios of the site, for a page that quotes one (the
/// seat-advantage page quotes its first-player rule).
pub trait Others {
    /// The exact results of the scenario `name` (its path under `content/`
    /// without `.yaml`), whatever its kind.
    fn results(&self, name: &str) -> Option<&dyn Any>;
}

/// No other scenario: a scenario alone (a report, a calculator).
pub struct Alone;

impl Others for Alone {
    fn results(&self, _name: &str) -> Option<&dyn Any> {
        None
    }
}

/// The results of the scenario `name` when it is of kind `K`.
pub(crate) fn results_of<'o, K: Analysis>(
    others: &'o dyn Others,
    name: &str,
) -> Option<&'o K::Results> {
    others.results(name)?.downcast_ref()
}
