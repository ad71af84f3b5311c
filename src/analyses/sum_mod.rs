//! `sum-mod`: pick one of n targets by rolling dice and taking the total mod n.

use crate::engine::{abs_diff, prime_factors, ratio, text, Denominator, Dist, Exact};
use crate::progress::Progress;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::pool::{IdenticalDice, Total};
use super::simulate::{Event, Experiment, Simulate, Simulation};
use super::values::SizeSet;
use super::{Analysis, Cost, ParamError};
use crate::lang::dice::Expression;

/// The `sum-mod` kind.
pub struct SumMod;

/// Parameters of a `sum-mod` scenario.
#[derive(Debug, Clone, Deserialize)]
pub struct Params {
    /// `d6` rolls as many dice as targets (the method); `10d6` fixes the count.
    #[serde(deserialize_with = "super::pool::read::pool")]
    pub dice: Expression,
    /// How many targets to choose among: a number, a list or a range.
    pub targets: SizeSet,
}

/// Every target count, worked out exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// One case per target count, in the order given.
    pub cases: Vec<Case>,
}

/// One target count worked out exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// The dice rolled.
    pub dice: IdenticalDice,
    /// Number of targets n.
    pub targets: u64,
    /// k^N, the equally likely outcomes of the roll.
    #[serde(with = "text")]
    pub total_outcomes: BigUint,
    /// Ways and probability of each total.
    #[serde(serialize_with = "crate::analyses::pool::in_parallel")]
    pub sums: Vec<Total>,
    /// Ways and probability of each bin v = total mod n.
    pub bins: Vec<Bin>,
    /// Fairness figures of the bins.
    pub fairness: Fairness,
}

/// One bin, the targets' v = total mod n.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bin {
    /// v, from 0 to n - 1.
    pub bin: u64,
    /// Outcomes landing in it.
    #[serde(with = "text")]
    pub ways: BigUint,
    /// ways / k^N.
    #[serde(with = "text")]
    pub probability: Exact,
}

/// How far the bins are from one in n each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fairness {
    /// Every bin has the same count.
    pub uniform: bool,
    /// max over v of |P(v) - 1/n|.
    #[serde(with = "text")]
    pub max_abs_deviation: Exact,
    /// Total variation distance: 1/2 sum over v of |P(v) - 1/n|.
    #[serde(with = "text")]
    pub tvd: Exact,
    /// max P / min P; `None` when some bin is empty.
    #[serde(with = "text")]
    pub max_min_ratio: Option<Exact>,
}

impl Fairness {
    /// The fairness of a choice among `bins.len()` targets with these counts.
    pub(crate) fn of_bins(bins: &[BigUint]) -> Fairness {
        let total: BigUint = bins.iter().sum();
        let fair = Exact::new(One::one(), (bins.len() as u64).into());
        let deviations: Vec<Exact> = bins
            .iter()
            .map(|ways| abs_diff(&ratio(ways, &total), &fair))
            .collect();
        let max_abs_deviation = deviations.iter().max().cloned().unwrap_or_default();
        let tvd = deviations.iter().sum::<Exact>() / Exact::from_integer(2.into());
        let max = bins.iter().max().cloned().unwrap_or_default();
        let min = bins.iter().min().cloned().unwrap_or_default();
        Fairness {
            uniform: min == max,
            max_abs_deviation,
            tvd,
            max_min_ratio: (!min.is_zero()).then(|| ratio(&max, &min)),
        }
    }
}

impl Params {
    /// The dice rolled for `targets` targets: a bare `d6` rolls one die
    /// per target.
    fn dice_for(&self, targets: u64) -> IdenticalDice {
        let dice = self.dice.pool().expect("read as a pool");
        if self.dice.count_written() {
            dice
        } else {
            IdenticalDice {
                count: targets,
                ..dice
            }
        }
    }
}

impl Analysis for SumMod {
    const NAME: &'static str = "sum-mod";
    type Params = Params;
    type Results = Results;

    /// Nothing to check across keys: each value validated itself.
    fn validate(_: &Params) -> Result<(), ParamError> {
        Ok(())
    }

    /// Dominated by the tables: every case has D = N(k-1) + 1 totals and n
    /// bins, each a row holding counts of about N log10(k) digits, which
    /// the results, their JSON, the page, its CSVs, the print page and the
    /// search index each hold at once. Peak resident memory, measured with
    /// `/usr/bin/time -v` (release, 2 cores) for rows R and digits per row d:
    ///
    /// | scenario           | R      | d    | eval | eval --json | report | build | rebuild |
    /// |--------------------|--------|------|------|-------------|--------|-------|---------|
    /// | d6, 2..150         | 68 k   | 79   | 115  | 224         | 336    | 254   | 257 MB  |
    /// | d6, 2..270         | 220 k  | 141  | 460  | 897         | 1452   | 990   | 1009 MB |
    /// | 1000d6, 7          | 5 k    | 779  | 39   | 68          | 159    | 73    | 92 MB   |
    /// | 2500d6, 7          | 12.5 k | 1946 | 190  | 355         | 717    | 363   | 478 MB  |
    /// | 300d100, 2         | 30 k   | 601  | 176  | 325         | 632    | 345   | 391 MB  |
    /// | 2d6, 1000000       | 1 M    | 3    | 1059 | 2282        | 2795   | 2507  | 2507 MB |
    /// | 3d1000000, 5       | 3 M    | 19   | 3289 | 7116        | 9673   | 7866  | 7866 MB |
    ///
    /// The worst command (`report`, which also inlines the CSVs and JSON)
    /// fits about 2.7 kB + 31 bytes a digit per row; the estimate below
    /// adds a margin (see [`Cost::with_tables`]), so every admitted scenario
    /// stays under the budget in every command. The edge of the default
    /// budget is now d6 over 2..99, 912d6, 118d100 and 2d6 with 51000
    /// targets. Time: about 15 µs + 0.4 µs a digit per row.
    fn cost(params: &Params) -> Cost {
        let (mut shown, mut totals, mut bins) = (Cost::default(), 0.0, 0.0);
        for &n in params.targets.values() {
            let dice = params.dice_for(n);
            let (count, sides) = (dice.count as f64, dice.sides as f64);
            let case_totals = count * (sides - 1.0) + 1.0;
            shown = shown.with_tables(case_totals + n as f64, count * sides.log10() + 1.0);
            totals += case_totals;
            bins += n as f64;
        }
        Cost {
            // The key whose value drives the rows.
            key: if params.dice.count_written() && totals >= bins {
                "dice"
            } else {
                "targets"
            },
            ..shown
        }
    }

    fn analyse(params: &Params, _: &Progress) -> Results {
        let cases = params
            .targets
            .values()
            .iter()
            .map(|&n| {
                let dice = params.dice_for(n);
                Case::of(dice.count, dice.sides, n)
            })
            .collect();
        Results { cases }
    }
}

impl Case {
    /// `count` dice of `sides` faces, mod `targets`.
    pub fn of(count: u64, sides: u64, targets: u64) -> Case {
        let sums =
            Dist::dice(count, sides).expect("validated: at least one die of at least two faces");
        let bin_ways = sums.modulo(targets);
        let total_outcomes = sums.total_outcomes();
        // `ways / k^N`, reduced cheaply: the denominator's primes are k's.
        let over = Denominator::with_primes(&total_outcomes, &prime_factors(sides));
        let probability = |ways: &BigUint| over.ratio(ways);
        Case {
            dice: IdenticalDice { count, sides },
            targets,
            sums: sums
                .iter()
                .collect::<Vec<_>>()
                .into_par_iter()
                .map(|(total, ways)| Total {
                    total,
                    probability: probability(ways),
                    ways: ways.clone(),
                })
                .collect(),
            bins: bin_ways
                .iter()
                .enumerate()
                .map(|(v, ways)| Bin {
                    bin: v as u64,
                    probability: probability(ways),
                    ways: ways.clone(),
                })
                .collect(),
            fairness: Fairness::of_bins(&bin_ways),
            total_outcomes,
        }
    }
}

/// The method as a table plays it: roll the dice, add them up, and take
/// the remainder; every total and every bin against its exact probability.
impl Simulate for SumMod {
    fn simulation(_: &Params, results: &Results) -> Simulation {
        Simulation::of(results.cases.iter().map(Case::experiment).collect())
    }
}

impl Case {
    fn experiment(&self) -> Experiment {
        let IdenticalDice { count, sides } = self.dice;
        let targets = self.targets;
        let lowest = self.sums.first().map_or(count, |s| s.total);
        let totals = self.sums.len();
        let events = self
            .sums
            .iter()
            .map(|s| Event::new(format!("total {}", s.total), s.probability.clone()))
            .chain(
                self.bins
                    .iter()
                    .map(|b| Event::new(format!("bin {}", b.bin), b.probability.clone())),
            )
            .collect();
        Experiment {
            label: format!("{targets} targets, {count}d{sides}"),
            events,
            means: Vec::new(),
            steps_per_trial: count as f64,
            trial: Box::new(move |sampler, trial| {
                let total = sampler.dice(count, sides);
                trial.hit((total - lowest) as usize);
                trial.hit(totals + (total % targets) as usize);
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simulated_rolls_agree_with_the_exact_bins() {
        let params = params("dice: d6\ntargets: [3, 4, 5]");
        let results = SumMod::analyse(&params, &Progress::hidden());
        let simulation = SumMod::simulation(&params, &results);
        // Totals and bins of 3d6, 4d6 and 5d6.
        assert_eq!(
            crate::analyses::simulate::assert_agrees(&simulation, 20_000),
            (16 + 3) + (21 + 4) + (26 + 5)
        );
    }

    use crate::engine::exact_string;
    use serde_json::json;

    fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).unwrap()
    }

    fn cases(yaml: &str) -> Vec<Case> {
        SumMod::analyse(&params(yaml), &Progress::hidden()).cases
    }

    #[test]
    fn the_method_rolls_one_die_per_target() {
        let cases = cases("dice: d6\ntargets: [2, 3, 10]");
        assert_eq!(
            cases.iter().map(|c| c.dice.count).collect::<Vec<_>>(),
            [2, 3, 10]
        );
        assert!(cases[0].fairness.uniform && cases[1].fairness.uniform);
        let ten = &cases[2];
        assert_eq!(ten.bins[0].ways, BigUint::from(6_031_368u32));
        assert_eq!(ten.bins[5].ways, BigUint::from(6_061_868u32));
        assert!(!ten.fairness.uniform);
        // |6061868/6^10 - 1/10| is the largest deviation: bin 5 is the heaviest.
        let expected = abs_diff(
            &ratio(&BigUint::from(6_061_868u32), &BigUint::from(6u32).pow(10)),
            &Exact::new(1.into(), 10.into()),
        );
        assert_eq!(ten.fairness.max_abs_deviation, expected);
        assert_eq!(
            ten.fairness.max_min_ratio,
            Some(ratio(
                &BigUint::from(6_061_868u32),
                &BigUint::from(6_031_368u32)
            ))
        );
    }

    #[test]
    fn fairness_figures_match_a_hand_computation() {
        // Bins 1, 2, 3 out of 6 against a fair 2 each.
        let bins: Vec<BigUint> = [1u32, 2, 3].map(BigUint::from).to_vec();
        let f = Fairness::of_bins(&bins);
        assert_eq!(exact_string(&f.max_abs_deviation), "1/6");
        assert_eq!(exact_string(&f.tvd), "1/6");
        assert_eq!(
            f.max_min_ratio.as_ref().map(exact_string).as_deref(),
            Some("3/1")
        );
        let empty = Fairness::of_bins(&[BigUint::from(0u32), BigUint::from(4u32)]);
        assert_eq!(empty.max_min_ratio, None);
        assert_eq!(exact_string(&empty.tvd), "1/2");
    }

    #[test]
    fn fixed_count_dice_and_json_contract() {
        let results = SumMod::analyse(&params("dice: 2d6\ntargets: 2"), &Progress::hidden());
        let results = serde_json::to_value(&results).unwrap();
        let case = &results["cases"][0];
        assert_eq!(case["dice"], json!({"count": 2, "sides": 6}));
        assert_eq!(case["total_outcomes"], "36");
        assert_eq!(
            case["sums"][5],
            json!({"total": 7, "ways": "6", "probability": "1/6"})
        );
        assert_eq!(
            case["bins"][1],
            json!({"bin": 1, "ways": "18", "probability": "1/2"})
        );
        assert_eq!(case["fairness"]["max_abs_deviation"], "0/1");
        assert_eq!(case["fairness"]["max_min_ratio"], "1/1");
    }

    #[test]
    fn cost_grows_with_the_tables() {
        let budget = crate::analyses::Budget::default();
        let fine = SumMod::cost(&params("dice: d6\ntargets: \"2..30\""));
        assert!(fine.seconds < 0.1 && fine.bytes < 20e6, "{fine:?}");
        // A report of 1000d6 peaks at about 243 MB, at the edge of the
        // default 256 MB: refused by default, admitted with `--budget 2`.
        let thousand = SumMod::cost(&params("dice: 1000d6\ntargets: 7"));
        assert!(budget.admit(&thousand).is_err(), "{thousand:?}");
        assert!(crate::analyses::Budget::new(2.0).admit(&thousand).is_ok());
        let big = SumMod::cost(&params("dice: d6\ntargets: 5000"));
        assert_eq!(big.key, "targets");
        assert!(budget.admit(&big).is_err());
        let absurd = SumMod::cost(&params("dice: 1000000000d6\ntargets: 2"));
        assert_eq!(absurd.key, "dice");
        assert!(absurd.seconds > 1e9, "{absurd:?}");
        let huge_die = SumMod::cost(&params("dice: 2d1000000\ntargets: 2"));
        // Two million rows of sums: refused by default, fine with a budget.
        assert!(budget.admit(&huge_die).is_err(), "{huge_die:?}");
        assert!(crate::analyses::Budget::new(50.0).admit(&huge_die).is_ok());
        // Bins are rows too: few dice, many targets.
        let many_bins = SumMod::cost(&params("dice: 2d6\ntargets: 1000000"));
        assert_eq!(many_bins.key, "targets");
        assert!(budget.admit(&many_bins).is_err(), "{many_bins:?}");
        let far_target = SumMod::cost(&params("dice: 2d6\ntargets: 18446744073709551615"));
        assert!(far_target.bytes.is_finite() && budget.admit(&far_target).is_err());
        // Measured at 434 MB to 1.45 GB peak (see `cost`): now refused.
        let sweep = SumMod::cost(&params("dice: d6\ntargets: \"2..270\""));
        assert!(budget.admit(&sweep).is_err(), "{sweep:?}");
    }
}
