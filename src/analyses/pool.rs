//! A pool of identical dice and its totals as results spell them, shared by
//! the kinds that roll one (sum-mod, first-player, race). Scenarios write
//! the dice in the dice language; `dice_lang::Expression::pool` reads them.

use crate::engine::{text, Exact};
use num_bigint::BigUint;
use serde::{Deserialize, Serialize};
use std::fmt;

/// N dice of k faces numbered 1 to k, summed: `{"count": 2, "sides": 6}`
/// in results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdenticalDice {
    /// N, the dice rolled.
    pub count: u64,
    /// k, faces per die.
    pub sides: u64,
}

impl IdenticalDice {
    /// log2 of the outcome count, sides^count: the size of the numbers
    /// exact arithmetic on these dice carries.
    pub fn bits(&self) -> f64 {
        self.count as f64 * (self.sides as f64).log2()
    }
}

impl fmt::Display for IdenticalDice {
    /// `2d6`, the count written even for one die.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)
    }
}

/// One total of the dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Total {
    /// The total.
    pub total: u64,
    /// Outcomes giving it.
    #[serde(with = "text")]
    pub ways: BigUint,
    /// ways / k^N.
    #[serde(with = "text")]
    pub probability: Exact,
}

/// Lists from this many items up are spelled on every core.
const PARALLEL_ITEMS: usize = 1000;

/// For `#[serde(serialize_with = "crate::analyses::pool::in_parallel")]` on
/// long lists of big numbers (the 5,001 totals of 1000d6): spelling
/// thousand-digit numbers in decimal is most of the work of printing them,
/// so the items are spelled on every core, then written in order. (The
/// browser's module has one core: it writes them as they come.)
pub(crate) fn in_parallel<T, S>(items: &[T], serializer: S) -> Result<S::Ok, S::Error>
where
    T: Serialize + Sync,
    S: serde::Serializer,
{
    // A short list is spelled faster than a thread pool starts.
    if cfg!(feature = "browser") || items.len() < PARALLEL_ITEMS {
        return items.serialize(serializer);
    }
    use rayon::prelude::*;
    use serde::ser::{Error, SerializeSeq};
    let mut list = serializer.serialize_seq(Some(items.len()))?;
    // A chunk at a time: a spelled item (a JSON value) weighs hundreds of
    // bytes, and all of 1d1000000's million at once took 600 MB.
    for chunk in items.chunks(SPELLED_AT_ONCE) {
        let spelled: Vec<serde_json::Value> = chunk
            .par_iter()
            .map(serde_json::to_value)
            .collect::<Result<_, _>>()
            .map_err(S::Error::custom)?;
        for value in &spelled {
            list.serialize_element(value)?;
        }
    }
    list.end()
}

/// How many items [`in_parallel`] spells before writing them.
const SPELLED_AT_ONCE: usize = 1 << 14;
