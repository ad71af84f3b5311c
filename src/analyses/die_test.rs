//! `die-test`: is this die fair? Observed rolls against the die's exact
//! chances: per-face intervals, Pearson's chi-square and the G-test, the
//! exact multinomial test when its outcomes can be enumerated, and the rolls
//! it would take to notice a given bias.

use crate::analyses::observations::{tally_rolls, Count, DataError, DataPath};
use crate::analyses::stats::{self, ChiSquare};
use crate::engine::{text, Exact};
use crate::progress::Progress;
use num_bigint::BigInt;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::BufRead;

use super::{Analysis, Cost, ParamError};

/// The `die-test` kind.
pub struct DieTest;

/// The most outcomes the exact multinomial test visits; beyond, the page
/// relies on the chi-square approximation.
pub const ENUMERATION_LIMIT: u64 = 200_000;
/// Outcomes visited per second, on the safe side (big-integer multinomials).
const OUTCOMES_PER_SECOND: f64 = 2e5;

/// Parameters of a `die-test` scenario.
#[derive(Debug, Clone, Deserialize)]
pub struct Params {
    /// The die that was rolled.
    pub die: Die,
    /// Rolls per face, in increasing face order.
    #[serde(default)]
    pub counts: Option<Vec<Count>>,
    /// A CSV file of rolls beside the scenario.
    #[serde(default)]
    pub rolls: Option<DataPath>,
    /// The rolls file's counts per face, filled in by the loader.
    #[serde(skip)]
    pub tallied: Option<Vec<u64>>,
}

impl Params {
    /// Rolls per face, from `counts:` or the tallied file.
    pub fn observed(&self) -> Vec<u64> {
        match (&self.counts, &self.tallied) {
            (Some(counts), _) => counts.iter().map(|c| c.0).collect(),
            (None, Some(tallied)) => tallied.clone(),
            (None, None) => Vec::new(),
        }
    }
}

/// A die: its distinct faces in increasing order, and the ways each comes up.
/// Written in the dice language as one die (`d6`, `dF`, `d{1,1,2,3}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Die {
    /// As written.
    pub name: String,
    /// `(face, ways)`, faces increasing.
    pub faces: Vec<(i64, u64)>,
}

/// The most faces a die may have.
pub const MAX_FACES: usize = 10_000;

impl Die {
    /// One die in the dice language, with at most [`MAX_FACES`] faces and at
    /// least two different ones.
    pub fn parse(text: &str) -> Result<Die, String> {
        let trimmed = text.trim();
        let outcomes = crate::analyses::dice_lang::die(trimmed, MAX_FACES as u64)
            .map_err(|error| error.describe(trimmed))?;
        let faces: Vec<(i64, u64)> = outcomes
            .iter()
            .filter_map(|(face, ways)| u64::try_from(ways).ok().map(|w| (face, w)))
            .collect();
        if faces.len() < 2 {
            return Err(format!(
                "{text:?} shows fewer than 2 different faces: a die to test needs at least 2"
            ));
        }
        Ok(Die {
            name: trimmed.to_string(),
            faces,
        })
    }

    fn values(&self) -> Vec<i64> {
        self.faces.iter().map(|&(face, _)| face).collect()
    }

    fn ways(&self) -> Vec<u64> {
        self.faces.iter().map(|&(_, ways)| ways).collect()
    }

    fn total_ways(&self) -> u64 {
        self.faces.iter().map(|&(_, ways)| ways).sum()
    }

    /// The exact chance of face number `index`.
    fn chance(&self, index: usize) -> Exact {
        Exact::new(
            BigInt::from(self.faces[index].1),
            BigInt::from(self.total_ways()),
        )
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl<'de> Deserialize<'de> for Die {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct DieVisitor;
        impl de::Visitor<'_> for DieVisitor {
            type Value = Die;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a die like \"d6\"")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Die, E> {
                Die::parse(text).map_err(E::custom)
            }
        }
        deserializer.deserialize_str(DieVisitor)
    }
}

/// The results: the contract of issue 16, plus the power table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Rolls observed.
    pub rolls: u64,
    /// One entry per face of the die, in increasing order.
    pub faces: Vec<Face>,
    /// Pearson's chi-square against the die's chances (floats).
    pub chi_square: ChiSquare,
    /// The G-test (log-likelihood ratio) against the same (floats).
    pub g_test: ChiSquare,
    /// The exact multinomial test: the chance, for a die as it should be,
    /// of rolls no more likely than these; `None` when more than
    /// [`ENUMERATION_LIMIT`] outcomes would have to be visited.
    #[serde(with = "text")]
    pub exact_p_value: Option<Exact>,
    /// Rolls needed to notice a face favoured by each of
    /// [`stats::ADVANTAGES`].
    pub power: Vec<Power>,
}

/// One face: how often it came up against how often it should.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Face {
    /// The face's value.
    pub face: i64,
    /// Times it came up.
    pub observed: u64,
    /// Its exact chance on a die as it should be.
    #[serde(with = "text")]
    pub expected: Exact,
    /// 95 % Clopper-Pearson interval of its true chance (floats).
    pub interval: [f64; 2],
    /// Whether the interval holds the expected chance.
    pub expected_in_interval: bool,
}

/// Rolls needed to notice one size of bias.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Power {
    /// How much more often than it should the face comes up (1/10 = 10 %).
    #[serde(with = "text")]
    pub advantage: Exact,
    /// The face so favoured: the least likely one (any, on a plain die).
    pub face: i64,
    /// Rolls for the chi-square test at 5 % to notice it 80 % of the time;
    /// `None` when no number of rolls under a billion would.
    pub rolls_needed: Option<u64>,
}

impl Analysis for DieTest {
    const NAME: &'static str = "die-test";
    type Params = Params;
    type Results = Results;

    fn validate(params: &Params) -> Result<(), ParamError> {
        let faces = params.die.faces.len();
        match (&params.counts, &params.rolls) {
            (Some(_), Some(_)) => Err(ParamError {
                key: "rolls",
                message: "give either `counts` or `rolls`, not both".into(),
            }),
            (None, None) => Err(ParamError {
                key: "die",
                message: "no observations: add `counts: [...]` (rolls per face) or \
                          `rolls: FILE.csv`"
                    .into(),
            }),
            (Some(counts), None) if counts.len() != faces => Err(ParamError {
                key: "counts",
                message: format!(
                    "{} counts for a die with {faces} different faces: give one count per \
                     face, in increasing face order",
                    counts.len()
                ),
            }),
            (Some(counts), None) if counts.iter().all(|c| c.0 == 0) => Err(ParamError {
                key: "counts",
                message: "no rolls: at least one count must be above 0".into(),
            }),
            _ => Ok(()),
        }
    }

    /// The exact test dominates: up to [`ENUMERATION_LIMIT`] outcomes.
    fn cost(params: &Params) -> Cost {
        let rolls: u64 = params.observed().iter().sum();
        let outcomes = stats::multinomial_outcomes(rolls, &params.die.ways())
            .unwrap_or(f64::INFINITY)
            .min(ENUMERATION_LIMIT as f64);
        Cost {
            seconds: outcomes / OUTCOMES_PER_SECOND,
            bytes: params.die.faces.len() as f64 * 400.0 + (rolls as f64 + 1.0) * 64.0,
            key: "die",
        }
    }

    fn analyse(params: &Params, progress: &Progress) -> Results {
        progress.with_spinner("die test", |_| test(&params.die, &params.observed()))
    }

    fn data_files(params: &Params) -> Vec<(&'static str, String)> {
        params
            .rolls
            .iter()
            .map(|path| ("rolls", path.0.clone()))
            .collect()
    }

    fn read_data(
        params: &mut Params,
        _key: &'static str,
        rows: &mut dyn BufRead,
    ) -> Result<(), DataError> {
        params.tallied = Some(tally_rolls(rows, &params.die.values())?);
        Ok(())
    }
}

/// Every figure of the test of `die` on `observed` rolls per face.
pub fn test(die: &Die, observed: &[u64]) -> Results {
    let rolls: u64 = observed.iter().sum();
    let chances: Vec<f64> = (0..die.faces.len())
        .map(|i| stats::share_f64(&die.chance(i)))
        .collect();
    let expected: Vec<f64> = chances.iter().map(|p| p * rolls as f64).collect();
    let faces = die
        .faces
        .iter()
        .zip(observed)
        .enumerate()
        .map(|(i, (&(face, _), &count))| {
            let interval = stats::clopper_pearson(count, rolls);
            let expected = die.chance(i);
            Face {
                face,
                observed: count,
                expected_in_interval: stats::within(&interval, &expected),
                expected,
                interval,
            }
        })
        .collect();
    Results {
        rolls,
        faces,
        chi_square: stats::pearson(observed, &expected),
        g_test: stats::g_test(observed, &expected),
        exact_p_value: stats::multinomial_p_value(observed, &die.ways(), ENUMERATION_LIMIT),
        power: power(die, &chances),
    }
}

/// Rolls needed to notice the least likely face favoured by each advantage,
/// the other faces sharing the rest in proportion.
fn power(die: &Die, chances: &[f64]) -> Vec<Power> {
    let rarest = (0..die.faces.len())
        .min_by_key(|&i| die.faces[i].1)
        .unwrap_or(0);
    stats::ADVANTAGES
        .iter()
        .map(|&advantage| {
            let favoured = stats::share_f64(&stats::favoured(&die.chance(rarest), advantage));
            let rest = (1.0 - favoured) / (1.0 - chances[rarest]);
            let alternative: Vec<f64> = chances
                .iter()
                .enumerate()
                .map(|(i, &p)| if i == rarest { favoured } else { p * rest })
                .collect();
            Power {
                advantage: Exact::new(BigInt::from(advantage.0), BigInt::from(advantage.1)),
                face: die.faces[rarest].0,
                rolls_needed: (favoured < 1.0)
                    .then(|| stats::chi_square_trials_needed(chances, &alternative))
                    .flatten(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_are_read() {
        assert_eq!(Die::parse("d6").unwrap().faces.len(), 6);
        let custom = Die::parse("d{3, 1,1,2}").unwrap();
        assert_eq!(custom.faces, [(1, 2), (2, 1), (3, 1)]);
        assert_eq!(Die::parse("d{-1,0,1}").unwrap().values(), [-1, 0, 1]);
        assert!(Die::parse("d1").unwrap_err().contains("fewer than 2"));
        assert!(Die::parse("6").unwrap_err().contains("expected one die"));
        assert!(Die::parse("2d6").unwrap_err().contains("expected one die"));
        let bad_face = Die::parse("d{1,x}").unwrap_err();
        assert!(bad_face.contains("column 5"), "{bad_face}");
        assert_eq!(Die::parse("dF").unwrap().values(), [-1, 0, 1]);
        assert_eq!(Die::parse("d%").unwrap().faces.len(), 100);
        // Refused before any face is counted, however many are asked for.
        let huge = Die::parse("d9000000000000000").unwrap_err();
        assert!(huge.contains("at most 10000 faces"), "{huge}");
    }

    #[test]
    fn the_textbook_die() {
        let die = Die::parse("d6").unwrap();
        let results = test(&die, &[5, 8, 9, 8, 10, 20]);
        assert_eq!(results.rolls, 60);
        assert!((results.chi_square.statistic - 13.4).abs() < 1e-12);
        assert_eq!(results.faces[5].expected, Exact::new(1.into(), 6.into()));
        assert!(!results.faces[5].expected_in_interval);
        assert!(results.faces[0].expected_in_interval);
        // The exact test is also checked against brute force in `stats`;
        // here it must agree roughly with the chi-square approximation.
        let exact = stats::share_f64(results.exact_p_value.as_ref().unwrap());
        assert!((0.005..0.05).contains(&exact), "{exact}");
        let needed: Vec<u64> = results
            .power
            .iter()
            .map(|p| p.rolls_needed.unwrap())
            .collect();
        assert!(needed[0] > needed[1] && needed[1] > needed[2], "{needed:?}");
    }

    #[test]
    fn results_round_trip_through_json() {
        let die = Die::parse("d{1,1,2}").unwrap();
        let results = test(&die, &[7, 2]);
        let json = serde_json::to_value(&results).unwrap();
        assert_eq!(json["faces"][0]["expected"], "2/3");
        assert!(json["exact_p_value"].is_string());
        let back: Results = serde_json::from_value(json).unwrap();
        assert_eq!(back, results);
    }
}
