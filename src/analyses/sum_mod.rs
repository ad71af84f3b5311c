//! `sum-mod`: pick one of n targets by rolling dice and taking the total mod n.

use crate::engine::{
    abs_diff, exact_string, prime_factors, ratio, ratio_smooth, to_f64, Dist, Exact,
};
use crate::format;
use crate::report::{Block, Cell, Chart, ChartKind, Reference, Report, Series, Table};
use crate::scenario::values::{DicePool, SizeSet};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{cells, Cost, ParamError};

/// Scenarios with more cases than this show the per-case charts only for a
/// summary; their tables are still complete.
const MAX_CASES_WITH_CHARTS: usize = 12;

/// Parameters of a `sum-mod` scenario.
#[derive(Debug, Clone, Deserialize)]
pub struct Params {
    /// `d6` rolls as many dice as targets (the method); `10d6` fixes the count.
    pub dice: DicePool,
    /// How many targets to choose among: a number, a list or a range.
    pub targets: SizeSet,
}

/// One target count worked out exactly.
#[derive(Debug, Clone)]
pub struct Case {
    /// Dice rolled.
    pub count: u64,
    /// Faces per die.
    pub sides: u64,
    /// Number of targets n.
    pub targets: u64,
    /// Ways per total.
    pub sums: Dist,
    /// Ways per bin v = total mod n.
    pub bins: Vec<BigUint>,
    /// Fairness figures of the bins.
    pub fairness: Fairness,
}

/// How far the bins are from one in n each.
#[derive(Debug, Clone, PartialEq)]
pub struct Fairness {
    /// Every bin has the same count.
    pub uniform: bool,
    /// max over v of |P(v) - 1/n|.
    pub max_abs_deviation: Exact,
    /// Total variation distance: 1/2 sum over v of |P(v) - 1/n|.
    pub tvd: Exact,
    /// max P / min P; `None` when some bin is empty.
    pub max_min_ratio: Option<Exact>,
}

impl Fairness {
    /// The fairness of a choice among `bins.len()` targets with these counts.
    pub fn of_bins(bins: &[BigUint]) -> Fairness {
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

    fn to_json(&self) -> Value {
        json!({
            "uniform": self.uniform,
            "max_abs_deviation": exact_string(&self.max_abs_deviation),
            "tvd": exact_string(&self.tvd),
            "max_min_ratio": self.max_min_ratio.as_ref().map(exact_string),
        })
    }
}

impl Params {
    /// The dice rolled for `targets` targets.
    fn count_for(&self, targets: u64) -> u64 {
        self.dice.count_or(targets)
    }

    /// Nothing to check across keys: each value validated itself.
    pub fn validate(&self) -> Result<(), ParamError> {
        Ok(())
    }

    /// Dominated by writing the tables: about D = N(k-1) totals per case,
    /// each a count of N log10(k) digits converted and written a few times
    /// (measured: 1000d6 takes about 2.4e9 instructions, 10 MB of JSON).
    pub fn cost(&self) -> Cost {
        let digits_per_die = (self.dice.sides as f64).log10();
        let mut cost = Cost {
            seconds: 0.0,
            bytes: 0.0,
            key: if self.dice.count.is_some() {
                "dice"
            } else {
                "targets"
            },
        };
        for &n in self.targets.values() {
            let count = self.count_for(n) as f64;
            let totals = count * (self.dice.sides as f64 - 1.0) + 1.0;
            let digits = count * digits_per_die + 1.0;
            cost.seconds += totals * digits * 600.0 / 1.5e9;
            cost.bytes += totals * (3.0 * digits + 40.0) * 3.0;
        }
        cost
    }

    /// Every case, exactly.
    pub fn cases(&self) -> Vec<Case> {
        self.targets
            .values()
            .iter()
            .map(|&n| {
                let count = self.count_for(n);
                let sums = Dist::dice(count, self.dice.sides)
                    .expect("validated: at least one die of at least two faces");
                let bins = sums.modulo(n);
                let fairness = Fairness::of_bins(&bins);
                Case {
                    count,
                    sides: self.dice.sides,
                    targets: n,
                    sums,
                    bins,
                    fairness,
                }
            })
            .collect()
    }

    /// The results contract and the page.
    pub fn analyse(&self) -> Report {
        let cases = self.cases();
        let results = json!({ "cases": cases.iter().map(Case::to_json).collect::<Vec<_>>() });
        let mut blocks = vec![fairness_table(&cases)];
        // A trend needs a few biased cases to draw (uniform ones sit at 0,
        // off a log scale).
        if cases.iter().filter(|c| !c.fairness.uniform).count() >= 3 {
            blocks.push(bias_chart(&cases));
        }
        let with_charts = cases.len() <= MAX_CASES_WITH_CHARTS;
        for case in &cases {
            blocks.extend(case.blocks(with_charts));
        }
        Report { results, blocks }
    }
}

impl Case {
    fn total_outcomes(&self) -> BigUint {
        self.sums.total_outcomes()
    }

    /// `ways / k^N`, reduced cheaply: the denominator's primes are k's.
    fn probability(&self, ways: &BigUint, total: &BigUint) -> Exact {
        ratio_smooth(ways, total, &prime_factors(self.sides))
    }

    fn label(&self) -> String {
        format!("{} targets, {}d{}", self.targets, self.count, self.sides)
    }

    fn to_json(&self) -> Value {
        let total = self.total_outcomes();
        json!({
            "dice": { "count": self.count, "sides": self.sides },
            "targets": self.targets,
            "total_outcomes": total.to_string(),
            "sums": self.sums.iter().map(|(t, ways)| json!({
                "total": t,
                "ways": ways.to_string(),
                "probability": exact_string(&self.probability(ways, &total)),
            })).collect::<Vec<_>>(),
            "bins": self.bins.iter().enumerate().map(|(v, ways)| json!({
                "bin": v,
                "ways": ways.to_string(),
                "probability": exact_string(&self.probability(ways, &total)),
            })).collect::<Vec<_>>(),
            "fairness": self.fairness.to_json(),
        })
    }

    fn blocks(&self, with_charts: bool) -> Vec<Block> {
        let n = self.targets;
        let total = self.total_outcomes();
        let ways_row = |label: u64, ways: &BigUint| {
            let p = self.probability(ways, &total);
            vec![
                Cell::plain(label.to_string()),
                cells::count(ways),
                cells::fraction(&p),
            ]
        };
        let sums = Table {
            id: format!("sums-{n}"),
            caption: format!(
                "Totals of {}d{}: ways and probability",
                self.count, self.sides
            ),
            columns: vec!["total".into(), "ways".into(), "probability".into()],
            rows: self.sums.iter().map(|(t, w)| ways_row(t, w)).collect(),
        };
        let bins = Table {
            id: format!("bins-{n}"),
            caption: format!("Bins v = total mod {n}: ways and probability"),
            columns: vec!["bin".into(), "ways".into(), "probability".into()],
            rows: self
                .bins
                .iter()
                .enumerate()
                .map(|(v, w)| ways_row(v as u64, w))
                .collect(),
        };
        let mut blocks = vec![
            Block::Heading { text: self.label() },
            Block::Facts {
                items: self.facts(),
            },
        ];
        if with_charts {
            blocks.push(Block::Chart(self.sums_chart()));
        }
        blocks.push(Block::Table(sums));
        if with_charts {
            blocks.push(Block::Chart(self.bins_chart()));
        }
        blocks.push(Block::Table(bins));
        blocks
    }

    fn facts(&self) -> Vec<(String, String)> {
        let f = &self.fairness;
        vec![
            (
                "Total outcomes".into(),
                format::count(&self.total_outcomes()),
            ),
            (
                "Exactly uniform".into(),
                if f.uniform { "yes" } else { "no" }.into(),
            ),
            (
                "Largest |P(v) − 1/n|".into(),
                format::decimal(&f.max_abs_deviation),
            ),
            ("Total variation distance".into(), format::decimal(&f.tvd)),
            (
                "Most likely / least likely bin".into(),
                f.max_min_ratio
                    .as_ref()
                    .map_or("a bin is empty".into(), format::decimal),
            ),
        ]
    }

    /// The sum distribution with each bar in the colour of its bin.
    fn sums_chart(&self) -> Chart {
        let total = self.total_outcomes();
        let n = self.targets;
        let series = (0..n)
            .map(|v| Series {
                name: format!("bin {v}"),
                points: self
                    .sums
                    .iter()
                    .filter(|(t, _)| t % n == v)
                    .map(|(t, ways)| (t as f64, to_f64(&self.probability(ways, &total))))
                    .collect(),
            })
            .filter(|s| !s.points.is_empty())
            .collect();
        Chart {
            id: format!("sums-{n}"),
            title: format!("Distribution of the total of {}d{}", self.count, self.sides),
            description: format!(
                "Probability of each total, each bar coloured by the bin (total mod {n}) it falls in."
            ),
            kind: ChartKind::Bars,
            x_label: "total".into(),
            y_label: "probability".into(),
            log_y: false,
            series,
            reference: None,
            table_id: Some(format!("sums-{n}")),
        }
    }

    /// Each bin's probability against the fair share 1/n.
    fn bins_chart(&self) -> Chart {
        let total = self.total_outcomes();
        let n = self.targets;
        Chart {
            id: format!("bins-{n}"),
            title: format!("Bins of {}d{} mod {n}", self.count, self.sides),
            description: format!("Probability of each bin beside the fair share 1/{n}."),
            kind: ChartKind::Bars,
            x_label: "bin".into(),
            y_label: "probability".into(),
            log_y: false,
            series: vec![Series {
                name: "probability of the bin".into(),
                points: self
                    .bins
                    .iter()
                    .enumerate()
                    .map(|(v, ways)| (v as f64, to_f64(&self.probability(ways, &total))))
                    .collect(),
            }],
            reference: Some(Reference {
                label: format!("fair share 1/{n}"),
                y: 1.0 / n as f64,
            }),
            table_id: Some(format!("bins-{n}")),
        }
    }
}

fn fairness_table(cases: &[Case]) -> Block {
    Block::Table(Table {
        id: "fairness".into(),
        caption: "Fairness of each target count".into(),
        columns: vec![
            "targets".into(),
            "dice".into(),
            "total outcomes".into(),
            "uniform".into(),
            "max |P(v) − 1/n|".into(),
            "total variation distance".into(),
            "max P / min P".into(),
        ],
        rows: cases
            .iter()
            .map(|case| {
                let f = &case.fairness;
                let total = case.total_outcomes();
                vec![
                    Cell::plain(case.targets.to_string()),
                    Cell::plain(format!("{}d{}", case.count, case.sides)),
                    cells::count(&total),
                    cells::yes_no(f.uniform),
                    cells::fraction(&f.max_abs_deviation),
                    cells::fraction(&f.tvd),
                    cells::optional_fraction(f.max_min_ratio.as_ref()),
                ]
            })
            .collect(),
    })
}

/// How the largest deviation shrinks (or not) as the number of targets grows.
fn bias_chart(cases: &[Case]) -> Block {
    let biased: Vec<(f64, f64)> = cases
        .iter()
        .filter(|c| !c.fairness.uniform)
        .map(|c| (c.targets as f64, to_f64(&c.fairness.max_abs_deviation)))
        .collect();
    let uniform: Vec<String> = cases
        .iter()
        .filter(|c| c.fairness.uniform)
        .map(|c| c.targets.to_string())
        .collect();
    let mut description =
        "Largest deviation of a bin from 1/n for each number of targets, on a log scale."
            .to_string();
    if !uniform.is_empty() {
        description.push_str(&format!(
            " Exactly uniform (deviation 0, not drawn): n = {}.",
            uniform.join(", ")
        ));
    }
    Block::Chart(Chart {
        id: "bias".into(),
        title: "Bias against the number of targets".into(),
        description,
        kind: ChartKind::Lines,
        x_label: "targets n".into(),
        y_label: "max |P(v) − 1/n|".into(),
        log_y: true,
        series: vec![Series {
            name: "max |P(v) − 1/n|".into(),
            points: biased,
        }],
        reference: None,
        table_id: Some("fairness".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).unwrap()
    }

    #[test]
    fn the_method_rolls_one_die_per_target() {
        let cases = params("dice: d6\ntargets: [2, 3, 10]").cases();
        assert_eq!(
            cases.iter().map(|c| c.count).collect::<Vec<_>>(),
            [2, 3, 10]
        );
        assert!(cases[0].fairness.uniform && cases[1].fairness.uniform);
        let ten = &cases[2];
        assert_eq!(ten.bins[0], BigUint::from(6_031_368u32));
        assert_eq!(ten.bins[5], BigUint::from(6_061_868u32));
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
        let report = params("dice: 2d6\ntargets: 2").analyse();
        let case = &report.results["cases"][0];
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
        let fine = params("dice: d6\ntargets: \"2..30\"").cost();
        assert!(fine.seconds < 0.1 && fine.bytes < 5e6, "{fine:?}");
        assert!(budget
            .admit(&params("dice: 1000d6\ntargets: 7").cost())
            .is_ok());
        let big = params("dice: d6\ntargets: 5000").cost();
        assert_eq!(big.key, "targets");
        assert!(budget.admit(&big).is_err());
        let absurd = params("dice: 1000000000d6\ntargets: 2").cost();
        assert_eq!(absurd.key, "dice");
        assert!(absurd.seconds > 1e9, "{absurd:?}");
        let huge_die = params("dice: 2d1000000\ntargets: 2").cost();
        // Two million rows of sums: refused by default, fine with a budget.
        assert!(budget.admit(&huge_die).is_err(), "{huge_die:?}");
        assert!(crate::analyses::Budget { factor: 2.0 }
            .admit(&huge_die)
            .is_ok());
    }
}
