//! Value types shared by every scenario kind: sets of sizes, and lists
//! that also take one value. (Dice are read by `lang::dice::Expression`.)
//!
//! Each one validates itself while it is deserialized, so a bad value is
//! reported by serde_yaml with the line and column where it stands.

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A list key that also takes one value: `dice: d20` reads as `[d20]`.
/// Use as `#[serde(deserialize_with = "one_or_many")]`. Each value is read
/// inside serde_yaml's visitor, so its errors keep their line and column.
pub(crate) fn one_or_many<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    one_or_many_with(deserializer, std::marker::PhantomData::<T>)
}

/// [`one_or_many`] with each value read by `seed` (such as a dice value
/// given its shape, `lang::dice::Shape`).
pub(crate) fn one_or_many_with<'de, D, S>(
    deserializer: D,
    seed: S,
) -> Result<Vec<S::Value>, D::Error>
where
    D: Deserializer<'de>,
    S: de::DeserializeSeed<'de> + Clone,
{
    struct OneOrMany<S>(S);
    impl<'de, S: de::DeserializeSeed<'de> + Clone> de::Visitor<'de> for OneOrMany<S> {
        type Value = Vec<S::Value>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("one value or a list of values, such as [d6, d8]")
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut values = Vec::new();
            while let Some(value) = seq.next_element_seed(self.0.clone())? {
                values.push(value);
            }
            Ok(values)
        }
        fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
            let one = de::value::StrDeserializer::<E>::new(text);
            self.0.deserialize(one).map(|one| vec![one])
        }
        fn visit_u64<E: de::Error>(self, number: u64) -> Result<Self::Value, E> {
            let one = de::value::U64Deserializer::<E>::new(number);
            self.0.deserialize(one).map(|one| vec![one])
        }
        fn visit_i64<E: de::Error>(self, number: i64) -> Result<Self::Value, E> {
            let one = de::value::I64Deserializer::<E>::new(number);
            self.0.deserialize(one).map(|one| vec![one])
        }
    }
    deserializer.deserialize_any(OneOrMany(seed))
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
