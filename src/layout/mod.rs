//! Layout: typed exact results turned into what a page shows, as plain data
//! ([`blocks`]): headings, key figures, tables whose cells carry a display
//! form beside the exact value, and charts described by their points.
//!
//! This is the only place numbers are formatted ([`format`], [`cells`]).
//! Layout runs on every build, from fresh or cached results alike, so a
//! change here can never be hidden by the cache.

pub mod blocks;
pub mod cells;
pub mod csv;
mod dice;
mod die_test_kind;
mod first_player;
pub mod format;
mod race;
mod reroll;
mod seat_advantage;
mod shuffle;
mod sum_mod;

use crate::analyses::Analysis;
pub use blocks::{Block, ScenarioPage};

/// How a kind's results become its scenario page.
pub trait Layout: Analysis {
    /// The page's blocks, in order, from the parameters and the results.
    /// Formatting only: every number shown comes from `results`.
    fn layout(params: &Self::Params, results: &Self::Results) -> Vec<Block>;
}
