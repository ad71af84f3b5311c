//! The `dice` kind's contract spelled as it is written, for
//! `fairdice roll --json`: each roll's outcomes become fractions a chunk at
//! a time, so a die of a million faces never holds a million fractions
//! (nor the page's figures, which the command does not print). The bytes
//! are those of [`super::dice::Results`], which a test checks.

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

#[cfg(test)]
mod tests {
    use crate::analyses::dice::Dice;
    use crate::analyses::Analysis;
    use crate::limits::Budget;
    use crate::progress::Progress;

    /// The streamed contract is byte for byte the contract `eval --json`
    /// writes from the whole results: short lists, lists spelled in
    /// parallel (over 1,000 values) and lists of several chunks (over
    /// 16,384), with comparisons between rolls.
    #[test]
    fn the_stream_spells_the_contract_exactly() {
        for rolls in [
            vec!["3d6", "4d6kh3", "1d20+5>=15"],
            vec!["1d2500", "3d6"],
            vec!["1d40000"],
        ] {
            let expressions: Vec<String> = rolls.iter().map(|r| r.to_string()).collect();
            let params =
                crate::roll_command::prepare(&expressions, None, &Budget::default()).unwrap();
            let progress = Progress::hidden();
            let analysed = Dice::analyse(&params, &progress);
            let mut whole = Vec::new();
            Dice::contract(&analysed, &mut serde_json::Serializer::pretty(&mut whole)).unwrap();
            let mut streamed = Vec::new();
            crate::roll_command::write_json(&params, &progress, &mut streamed).unwrap();
            assert_eq!(
                String::from_utf8(streamed).unwrap(),
                String::from_utf8(whole).unwrap(),
                "{rolls:?}"
            );
        }
    }

    /// Issue 42: a die of a million faces is answered under the default
    /// budget when the contract is streamed (it holds one chunk of
    /// fractions), and still refused where every row is held.
    #[test]
    fn a_million_faces_fit_the_default_budget_when_streamed() {
        let million = ["1d1000000".to_string()];
        let streamed = Budget::default().streaming(true);
        assert!(crate::roll_command::prepare(&million, None, &streamed).is_ok());
        let held = Budget::default().printing(true);
        let refusal = crate::roll_command::prepare(&million, None, &held).unwrap_err();
        assert!(refusal.contains("GB"), "{refusal}");
    }
}
