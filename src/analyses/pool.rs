//! A pool of identical dice and its totals as results spell them, shared by
//! the kinds that roll one (sum-mod, first-player, race). Scenarios write
//! the dice in the dice language; [`read`] reads a kind's dice key with it.

pub use crate::engine::IdenticalDice;
use crate::engine::{text, Exact};
use num_bigint::BigUint;
use serde::{Deserialize, Serialize};

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
    use serde::ser::SerializeSeq;
    let mut list = serializer.serialize_seq(Some(items.len()))?;
    // A chunk at a time: a spelled item (a JSON value) weighs hundreds of
    // bytes, and all of 1d1000000's million at once took 600 MB.
    for chunk in items.chunks(SPELLED_AT_ONCE) {
        spell::<T, S>(chunk, &mut list)?;
    }
    list.end()
}

/// A list of `len` items made a chunk at a time by `make` (given the
/// chunk's range) and spelled as [`in_parallel`] spells them: the items
/// never all exist at once, so a million fractions need not be held.
pub(crate) fn made_in_chunks<T, S>(
    len: usize,
    make: impl Fn(std::ops::Range<usize>) -> Vec<T>,
    serializer: S,
) -> Result<S::Ok, S::Error>
where
    T: Serialize + Sync,
    S: serde::Serializer,
{
    use serde::ser::SerializeSeq;
    let mut list = serializer.serialize_seq(Some(len))?;
    for start in (0..len).step_by(SPELLED_AT_ONCE) {
        let chunk = make(start..len.min(start + SPELLED_AT_ONCE));
        if cfg!(feature = "browser") || chunk.len() < PARALLEL_ITEMS {
            for item in &chunk {
                list.serialize_element(item)?;
            }
        } else {
            spell::<T, S>(&chunk, &mut list)?;
        }
    }
    list.end()
}

/// Spells `chunk` on every core, then writes it in order to `list`.
fn spell<T, S>(chunk: &[T], list: &mut S::SerializeSeq) -> Result<(), S::Error>
where
    T: Serialize + Sync,
    S: serde::Serializer,
{
    use rayon::prelude::*;
    use serde::ser::{Error, SerializeSeq};
    let spelled: Vec<serde_json::Value> = chunk
        .par_iter()
        .map(serde_json::to_value)
        .collect::<Result<_, _>>()
        .map_err(S::Error::custom)?;
    for value in &spelled {
        list.serialize_element(value)?;
    }
    Ok(())
}

/// How many items [`in_parallel`] spells before writing them.
pub(crate) const SPELLED_AT_ONCE: usize = 1 << 14;

/// Serde readers for `#[serde(deserialize_with = "…")]`: a kind's dice key
/// read into the shape the kind computes with.
pub mod read {
    use super::IdenticalDice;
    use crate::analyses::values::one_or_many_with;
    use crate::lang::dice::{Expression, Shape, DICE, STANDARD_DIE};
    use serde::de::{DeserializeSeed, Deserializer};

    /// A pool of identical dice, kept as written: a bare `d6` leaves the
    /// count to the kind (read it with [`Expression::pool`] and
    /// [`Expression::count_written`]).
    pub fn pool<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Expression, D::Error> {
        Shape(DICE, |dice: &Expression| dice.pool().map(|_| dice.clone())).deserialize(deserializer)
    }

    /// A pool of identical dice with its count written (`2d6`).
    pub(crate) fn counted_pool<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<IdenticalDice, D::Error> {
        Shape(DICE, Expression::counted_pool).deserialize(deserializer)
    }

    /// Pools of identical dice, a bare `d6` as one die: a list, or one pool.
    pub fn pools<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<IdenticalDice>, D::Error> {
        one_or_many_with(deserializer, Shape(DICE, Expression::pool))
    }

    /// Dice numbered 1 to k, one each, by their faces k: a list, or one die.
    pub(crate) fn standard_dice<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<u64>, D::Error> {
        one_or_many_with(deserializer, Shape(STANDARD_DIE, Expression::standard_die))
    }
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn a_shape_error_keeps_its_place_in_yaml() {
        #[derive(Debug, serde::Deserialize)]
        struct Params {
            #[allow(dead_code)]
            #[serde(deserialize_with = "read::standard_dice")]
            dice: Vec<u64>,
        }
        let ok: Params = serde_yaml::from_str("dice: [d6, D8, 1d20]").unwrap();
        assert_eq!(ok.dice, [6, 8, 20]);
        let one: Params = serde_yaml::from_str("dice: d6").unwrap();
        assert_eq!(one.dice, [6]);
        let err = serde_yaml::from_str::<Params>("dice:\n  - d6\n  - 2d6\n").unwrap_err();
        let place = err.location().unwrap();
        assert_eq!((place.line(), place.column()), (3, 5), "{err}");
        assert!(err.to_string().contains("rolls 2 dice"), "{err}");
        // Not an expression at all: what was expected comes first.
        let typo = serde_yaml::from_str::<Params>("dice: [d6, d1O]").unwrap_err();
        let place = typo.location().unwrap();
        assert_eq!((place.line(), place.column()), (1, 12), "{typo}");
        let message = typo.to_string();
        assert!(
            message.contains("expected one die with faces 1 to k"),
            "{message}"
        );
        assert!(message.contains("found \"d1O\"; column 3"), "{message}");
    }
}
