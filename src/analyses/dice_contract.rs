//! The `dice` kind's contract spelled as it is written, for
//! `fairdice roll --json`: each roll's outcomes become fractions a chunk at
//! a time, so a die of a million faces never holds a million fractions
//! (nor the page's figures, which the command does not print). The bytes
//! are those of [`super::dice::Results`], which a test of
//! `roll_command` checks.

use super::dice::{comparison, Outcome};
use super::pool::made_in_chunks;
use crate::engine::{text, Denominator, Outcomes};
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

/// Rolls already evaluated, each with its name and its text.
pub(crate) struct Streamed<'a> {
    pub rolls: Vec<(&'a str, &'a str, &'a Outcomes)>,
}

impl Serialize for Streamed<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let rolls: Vec<Roll> = self
            .rolls
            .iter()
            .map(|&(name, expression, outcomes)| Roll {
                name,
                expression,
                outcomes,
            })
            .collect();
        let mut comparisons = Vec::new();
        for (i, (a, _, x)) in self.rolls.iter().enumerate() {
            for (b, _, y) in &self.rolls[i + 1..] {
                comparisons.push(comparison([a, b], x, y));
            }
        }
        let mut results = serializer.serialize_struct("Results", 2)?;
        results.serialize_field("rolls", &rolls)?;
        results.serialize_field("comparisons", &comparisons)?;
        results.end()
    }
}

/// One roll, spelled as [`super::dice::Roll`] is.
struct Roll<'a> {
    name: &'a str,
    expression: &'a str,
    outcomes: &'a Outcomes,
}

/// A value as the `text` form spells it.
struct Text<'a, T>(&'a T);

impl<T: text::TextForm> Serialize for Text<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        text::serialize(self.0, serializer)
    }
}

/// A roll's outcomes, made a chunk at a time.
struct Chunked<'a>(&'a Outcomes);

impl Serialize for Chunked<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let over = Denominator::new(&self.0.total());
        let pairs: Vec<(i64, &num_bigint::BigUint)> = self.0.iter().collect();
        made_in_chunks(
            pairs.len(),
            |range| {
                let chunk = &pairs[range];
                over.ratios(chunk.iter().map(|(_, w)| *w))
                    .into_iter()
                    .zip(chunk)
                    .map(|(probability, (value, ways))| Outcome {
                        value: *value,
                        ways: (*ways).clone(),
                        probability,
                    })
                    .collect()
            },
            serializer,
        )
    }
}

impl Serialize for Roll<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut roll = serializer.serialize_struct("Roll", 6)?;
        roll.serialize_field("name", self.name)?;
        roll.serialize_field("expression", self.expression)?;
        roll.serialize_field("total_outcomes", &Text(&self.outcomes.total()))?;
        roll.serialize_field("outcomes", &Chunked(self.outcomes))?;
        roll.serialize_field("mean", &Text(&self.outcomes.mean()))?;
        roll.serialize_field("variance", &Text(&self.outcomes.variance()))?;
        roll.end()
    }
}
