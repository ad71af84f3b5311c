//! Value types shared by every scenario kind: dice pools and sets of sizes.
//!
//! Each one validates itself while it is deserialized, so a bad value is
//! reported by serde_yaml with the line and column where it stands.

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A pool of identical dice, written `d6` or `10d6`.
///
/// `count` is `None` for a bare `d6`, whose count each kind decides (the
/// sum-mod method rolls as many dice as there are targets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DicePool {
    /// Number of dice, when the scenario fixes it.
    pub count: Option<u64>,
    /// Faces per die, numbered `1..=sides`.
    pub sides: u64,
}

impl DicePool {
    /// Parse `d6`, `D6`, `2d6`; the error says what was expected.
    pub fn parse(text: &str) -> Result<Self, String> {
        let expected = || format!("expected dice like \"d6\" or \"2d6\", found {text:?}");
        let lower = text.trim().to_ascii_lowercase();
        let (count, sides) = lower.split_once('d').ok_or_else(expected)?;
        let count = if count.is_empty() {
            None
        } else {
            Some(count.parse::<u64>().map_err(|_| expected())?)
        };
        let sides = sides.parse::<u64>().map_err(|_| expected())?;
        if count == Some(0) {
            return Err(format!(
                "{text:?} rolls no dice: the count must be at least 1"
            ));
        }
        if sides < 2 {
            return Err(format!(
                "{text:?} has {sides} face(s): a die needs at least 2 faces"
            ));
        }
        Ok(DicePool { count, sides })
    }

    /// The number of dice, `default` when the scenario left it open.
    pub fn count_or(&self, default: u64) -> u64 {
        self.count.unwrap_or(default)
    }
}

impl fmt::Display for DicePool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.count {
            Some(count) => write!(f, "{count}d{}", self.sides),
            None => write!(f, "d{}", self.sides),
        }
    }
}

impl<'de> Deserialize<'de> for DicePool {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PoolVisitor;
        impl de::Visitor<'_> for PoolVisitor {
            type Value = DicePool;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("dice like \"d6\" or \"2d6\"")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<DicePool, E> {
                DicePool::parse(text).map_err(E::custom)
            }
        }
        // Validating inside the visitor lets serde_yaml attach the value's position.
        deserializer.deserialize_str(PoolVisitor)
    }
}

impl Serialize for DicePool {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A list key that also takes one value: `dice: d20` reads as `[d20]`.
/// Use as `#[serde(deserialize_with = "one_or_many")]`. Each value is read
/// inside serde_yaml's visitor, so its errors keep their line and column.
pub(crate) fn one_or_many<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct OneOrMany<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> de::Visitor<'de> for OneOrMany<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("one value or a list of values, such as [d6, d8]")
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut values = Vec::new();
            while let Some(value) = seq.next_element()? {
                values.push(value);
            }
            Ok(values)
        }
        fn visit_str<E: de::Error>(self, text: &str) -> Result<Vec<T>, E> {
            T::deserialize(de::value::StrDeserializer::<E>::new(text)).map(|one| vec![one])
        }
        fn visit_u64<E: de::Error>(self, number: u64) -> Result<Vec<T>, E> {
            T::deserialize(de::value::U64Deserializer::<E>::new(number)).map(|one| vec![one])
        }
        fn visit_i64<E: de::Error>(self, number: i64) -> Result<Vec<T>, E> {
            T::deserialize(de::value::I64Deserializer::<E>::new(number)).map(|one| vec![one])
        }
    }
    deserializer.deserialize_any(OneOrMany(std::marker::PhantomData))
}

/// A set of positive sizes: `3`, `[2, 3, 10]` or the range `"2..30"` (inclusive).
///
/// Kept sorted and without repeats, so results come out in a stable order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SizeSet(pub Vec<u64>);

/// The longest range a scenario may spell out; larger sweeps are a typo.
pub(crate) const MAX_RANGE_LEN: u64 = 10_000;

impl SizeSet {
    /// Parse the range form `a..b`, both ends included.
    pub(crate) fn parse_range(text: &str) -> Result<Self, String> {
        let expected = || format!("expected a range like \"2..30\", found {text:?}");
        let (lo, hi) = text.split_once("..").ok_or_else(expected)?;
        let hi = hi.strip_prefix('=').unwrap_or(hi);
        let lo: u64 = lo.trim().parse().map_err(|_| expected())?;
        let hi: u64 = hi.trim().parse().map_err(|_| expected())?;
        if lo > hi {
            return Err(format!("the range {text:?} runs backwards: {lo} > {hi}"));
        }
        if hi - lo >= MAX_RANGE_LEN {
            return Err(format!(
                "the range {text:?} has {} values; at most {MAX_RANGE_LEN} are allowed",
                hi - lo + 1
            ));
        }
        Self::from_values((lo..=hi).collect())
    }

    /// Validate explicit values: non-empty and all at least 1.
    pub(crate) fn from_values(mut values: Vec<u64>) -> Result<Self, String> {
        if values.is_empty() {
            return Err("expected at least one value, found an empty list".into());
        }
        if values.contains(&0) {
            return Err("expected sizes of at least 1, found 0".into());
        }
        values.sort_unstable();
        values.dedup();
        Ok(SizeSet(values))
    }

    /// The sizes, ascending.
    pub fn values(&self) -> &[u64] {
        &self.0
    }

    /// The smallest size.
    pub fn min(&self) -> u64 {
        self.0[0]
    }

    /// The largest size.
    pub fn max(&self) -> u64 {
        self.0[self.0.len() - 1]
    }
}

impl<'de> Deserialize<'de> for SizeSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SizeVisitor;
        impl<'de> de::Visitor<'de> for SizeVisitor {
            type Value = SizeSet;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a positive number, a list of them, or a range like \"2..30\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<SizeSet, E> {
                SizeSet::from_values(vec![v]).map_err(E::custom)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<SizeSet, E> {
                Err(E::custom(format!(
                    "expected sizes of at least 1, found {v}"
                )))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<SizeSet, E> {
                SizeSet::parse_range(text).map_err(E::custom)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<SizeSet, A::Error> {
                let mut values = Vec::new();
                while let Some(v) = seq.next_element::<i64>()? {
                    let v = u64::try_from(v).map_err(|_| {
                        de::Error::custom(format!("expected sizes of at least 1, found {v}"))
                    })?;
                    values.push(v);
                }
                SizeSet::from_values(values).map_err(de::Error::custom)
            }
        }
        // Validating inside the visitor lets serde_yaml attach the value's position.
        deserializer.deserialize_any(SizeVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_pools_parse_and_reject() {
        assert_eq!(
            DicePool::parse("d6"),
            Ok(DicePool {
                count: None,
                sides: 6
            })
        );
        assert_eq!(
            DicePool::parse("10D20"),
            Ok(DicePool {
                count: Some(10),
                sides: 20
            })
        );
        assert!(DicePool::parse("0d6").unwrap_err().contains("at least 1"));
        assert!(DicePool::parse("d1")
            .unwrap_err()
            .contains("at least 2 faces"));
        assert!(DicePool::parse("six")
            .unwrap_err()
            .contains("expected dice"));
        assert_eq!(DicePool::parse("3d8").unwrap().to_string(), "3d8");
    }

    #[test]
    fn size_sets_accept_three_spellings() {
        let one: SizeSet = serde_yaml::from_str("4").unwrap();
        assert_eq!(one.values(), &[4]);
        let list: SizeSet = serde_yaml::from_str("[10, 2, 3, 3]").unwrap();
        assert_eq!(list.values(), &[2, 3, 10]);
        let range: SizeSet = serde_yaml::from_str("\"2..5\"").unwrap();
        assert_eq!(range.values(), &[2, 3, 4, 5]);
    }

    #[test]
    fn size_sets_reject_nonsense() {
        for (text, needle) in [
            ("0", "at least 1"),
            ("[3, -1]", "found -1"),
            ("\"9..2\"", "backwards"),
            ("\"1..99999999\"", "at most"),
            ("[]", "empty"),
            ("{a: 1}", "expected a positive number"),
            ("2.5", "expected a positive number"),
        ] {
            let err = serde_yaml::from_str::<SizeSet>(text)
                .unwrap_err()
                .to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
