//! How exact numbers are spelled in the results contract: big integers as
//! decimal strings (JSON numbers lose digits past 2^53) and fractions as
//! `"p/q"`, always with the `/q`.
//!
//! Use it on any result field holding exact numbers, however nested:
//! `#[serde(with = "crate::engine::text")]` on a `BigUint`, `Exact`,
//! `Option<_>`, `Vec<_>` or `Vec<Vec<_>>` of them. Reading back is strict:
//! a cached entry that does not spell a number exactly is refused.

use super::decimal::{decimal, signed_decimal};
use super::exact::{exact_string, Exact};
use num_bigint::{BigInt, BigUint};
use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};

/// A value with a text spelling in the contract.
pub trait TextForm: Sized {
    /// Write the value in its contract spelling.
    fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;
    /// Read a value written by [`TextForm::write`].
    fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
}

/// For `#[serde(with = "crate::engine::text")]`.
pub fn serialize<T: TextForm, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    value.write(serializer)
}

/// For `#[serde(with = "crate::engine::text")]`.
pub(crate) fn deserialize<'de, T: TextForm, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    T::read(deserializer)
}

struct Spelled<'a, T>(&'a T);

impl<T: TextForm> Serialize for Spelled<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.write(serializer)
    }
}

struct Read<T>(T);

impl<'de, T: TextForm> Deserialize<'de> for Read<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::read(deserializer).map(Read)
    }
}

impl TextForm for BigUint {
    fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&decimal(self))
    }
    fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        parse_digits(&text).ok_or_else(|| de::Error::custom(format!("not a count: {text:?}")))
    }
}

impl TextForm for BigInt {
    fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&signed_decimal(self))
    }
    fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        parse_signed(&text).ok_or_else(|| de::Error::custom(format!("not an integer: {text:?}")))
    }
}

impl TextForm for Exact {
    fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&exact_string(self))
    }
    fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        parse_fraction(&text)
            .ok_or_else(|| de::Error::custom(format!("not a reduced fraction p/q: {text:?}")))
    }
}

impl<T: TextForm> TextForm for Option<T> {
    fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Some(value) => serializer.serialize_some(&Spelled(value)),
            None => serializer.serialize_none(),
        }
    }
    fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Option::<Read<T>>::deserialize(deserializer)?.map(|read| read.0))
    }
}

impl<T: TextForm> TextForm for Vec<T> {
    fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(Spelled))
    }
    fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Vec::<Read<T>>::deserialize(deserializer)?
            .into_iter()
            .map(|read| read.0)
            .collect())
    }
}

fn parse_digits(text: &str) -> Option<BigUint> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    canonical.then(|| text.parse().ok()).flatten()
}

fn parse_signed(text: &str) -> Option<BigInt> {
    match text.strip_prefix('-') {
        Some(rest) if rest != "0" => parse_digits(rest).map(|n| -BigInt::from(n)),
        Some(_) => None,
        None => parse_digits(text).map(BigInt::from),
    }
}

/// `p/q` as written by [`exact_string`]: reduced, positive denominator.
fn parse_fraction(text: &str) -> Option<Exact> {
    let (numer, denom) = text.split_once('/')?;
    let numer = parse_signed(numer)?;
    let denom = BigInt::from(parse_digits(denom)?);
    if num_traits::Zero::is_zero(&denom) {
        return None;
    }
    let value = Exact::new(numer.clone(), denom.clone());
    (value.numer() == &numer && value.denom() == &denom).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Sample {
        #[serde(with = "super")]
        count: BigUint,
        #[serde(with = "super")]
        half: Exact,
        #[serde(with = "super")]
        ratio: Option<Exact>,
        #[serde(with = "super")]
        rows: Vec<Vec<Exact>>,
        #[serde(with = "super")]
        margin: BigInt,
    }

    fn frac(p: i64, q: i64) -> Exact {
        Exact::new(p.into(), q.into())
    }

    #[test]
    fn exact_numbers_round_trip_in_their_contract_spelling() {
        let sample = Sample {
            count: BigUint::from(6u32).pow(40),
            half: frac(1, 2),
            ratio: None,
            rows: vec![vec![frac(-3, 4), frac(0, 1)], vec![frac(5, 1)]],
            margin: BigInt::from(-17),
        };
        let json = serde_json::to_string(&sample).unwrap();
        assert_eq!(
            json,
            r#"{"count":"13367494538843734067838845976576","half":"1/2","ratio":null,"rows":[["-3/4","0/1"],["5/1"]],"margin":"-17"}"#
        );
        assert_eq!(serde_json::from_str::<Sample>(&json).unwrap(), sample);
    }

    #[test]
    fn only_the_canonical_spelling_is_read_back() {
        for bad in [
            "2/4", "1/0", "1/-2", "01/2", "1.5", "x/2", "-0/1", "1/2/3", "",
        ] {
            assert_eq!(parse_fraction(bad), None, "{bad:?}");
        }
        assert_eq!(parse_fraction("0/1"), Some(frac(0, 1)));
        assert_eq!(parse_fraction("-7/3"), Some(frac(-7, 3)));
        assert_eq!(parse_digits("007"), None);
        assert_eq!(parse_digits("+7"), None);
    }
}
