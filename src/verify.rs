//! `fairdice verify --simulate N`: every scenario's procedure replayed by
//! seeded simulation (each kind's [`Simulate`](crate::analyses::simulate)),
//! every exact figure set beside its simulated frequency or mean, and a
//! failure when one strays further than chance would take a correct
//! program once in a million runs ([`deviation`]).
//!
//! The exact results are computed afresh, as `check` does: a verification
//! never takes the cache, which anyone could write, as evidence.

mod deviation;
pub mod summary;

pub use deviation::{Deviation, FALSE_ALARM};

use crate::analyses::simulate::{Experiment, Simulation, Tally};
use crate::analyses::Budget;
use crate::build;
use crate::cache::Cache;
use crate::content;
use crate::engine::to_f64;
use crate::error::{Error, Result};
use crate::limits;
use crate::progress::Progress;
use rayon::prelude::*;
use std::fmt;
use std::path::PathBuf;

/// Dice rolled (or cards moved) per second by the simulators, on the safe
/// side: the shuffles and sums of this site's content ran at about 2.7e8 a
/// second on two busy cores (release build).
const STEPS_PER_SECOND: f64 = 5e7;

/// What to verify and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// The project folder, holding `content/`.
    pub root: PathBuf,
    /// Trials per experiment (`--simulate N`).
    pub trials: u64,
    /// The generator's seed (`--seed S`).
    pub seed: u64,
    /// `--budget`.
    pub budget: Budget,
    /// Where the bar is drawn, if anywhere.
    pub progress: Progress,
}

/// Everything a verification found.
#[derive(Debug, Clone)]
pub struct Report {
    /// Trials per experiment.
    pub trials: u64,
    /// The seed.
    pub seed: u64,
    /// Every scenario, in source order.
    pub scenarios: Vec<Checked>,
}

/// One scenario's verification.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Its path under `content/`.
    pub source: String,
    /// Its title.
    pub title: String,
    /// Its kind.
    pub kind: &'static str,
    /// Experiments run (procedures replayed).
    pub experiments: usize,
    /// Every figure replayed, beside its simulation.
    pub comparisons: Vec<Comparison>,
    /// Figures not replayed, each with the reason.
    pub not_replayed: Vec<String>,
}

/// One figure beside its simulated value.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// The experiment, such as `10 targets, 10d6`.
    pub experiment: String,
    /// The figure, such as `bin 5`.
    pub figure: String,
    /// A mean (otherwise a probability).
    pub(crate) is_mean: bool,
    /// An approximation, measured but never failing the run (otherwise an
    /// exact figure).
    pub approximate: bool,
    /// The figure, as a float for display.
    pub exact: f64,
    /// The simulated frequency or mean.
    pub simulated: f64,
    /// How far apart, and how far is allowed.
    pub deviation: Deviation,
}

impl Report {
    /// Every exact figure compared.
    pub fn figures(&self) -> usize {
        self.scenarios.iter().map(|s| s.exact().count()).sum()
    }

    /// Every approximate figure measured.
    pub fn approximations(&self) -> usize {
        self.scenarios
            .iter()
            .map(|s| s.approximations().count())
            .sum()
    }

    /// Every exact figure beyond its limit, with its scenario.
    pub fn failures(&self) -> Vec<(&Checked, &Comparison)> {
        self.scenarios
            .iter()
            .flat_map(|s| {
                s.exact()
                    .filter(|c| c.deviation.beyond())
                    .map(move |c| (s, c))
            })
            .collect()
    }

    /// No figure beyond its limit.
    pub fn passed(&self) -> bool {
        self.failures().is_empty()
    }
}

impl Checked {
    /// The exact figures compared.
    pub fn exact(&self) -> impl Iterator<Item = &Comparison> {
        self.comparisons.iter().filter(|c| !c.approximate)
    }

    /// The approximate figures measured.
    pub fn approximations(&self) -> impl Iterator<Item = &Comparison> {
        self.comparisons.iter().filter(|c| c.approximate)
    }

    /// The exact figure with the largest standardised deviation (the first
    /// of equals).
    pub fn largest(&self) -> Option<&Comparison> {
        self.exact().reduce(|best, c| {
            if c.deviation.deviations > best.deviation.deviations {
                c
            } else {
                best
            }
        })
    }
}

impl Comparison {
    /// What was compared: `10 targets, 10d6: bin 5`, `3 cards, d4, mod: mean rolls`.
    pub fn what(&self) -> String {
        let mean = if self.is_mean { "mean " } else { "" };
        format!("{}: {mean}{}", self.experiment, self.figure)
    }
}

impl fmt::Display for Comparison {
    /// `10 targets, 10d6: bin 5: 3.12 sd (limit 6.71 sd), 0.100412 simulated, 0.100231 exact`
    /// (`approximate` for an approximation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} (limit {}), {:.6} simulated, {:.6} {}",
            self.what(),
            sd(self.deviation.deviations),
            sd(self.deviation.limit),
            self.simulated,
            self.exact,
            if self.approximate {
                "approximate"
            } else {
                "exact"
            }
        )
    }
}

/// Standard deviations as printed: `3.12 sd`, `inf sd`.
pub fn sd(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.2} sd")
    } else {
        "inf sd".into()
    }
}

impl fmt::Display for Checked {
    /// One line: the scenario, its figures and its largest deviation, its
    /// approximations, and how many figures were not replayed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): ", self.source, self.kind)?;
        match self.largest() {
            None => write!(f, "no exact figures to compare")?,
            Some(largest) => write!(
                f,
                "{} figures, largest deviation {largest}",
                self.exact().count()
            )?,
        }
        let approximations = self.approximations().count();
        if approximations > 0 {
            write!(f, "; {approximations} approximations measured")?;
        }
        if !self.not_replayed.is_empty() {
            write!(f, "; {} not replayed", self.not_replayed.len())?;
        }
        Ok(())
    }
}

/// Load `content/`, compute every scenario exactly, replay each by
/// simulation and compare.
pub fn run(options: &Options) -> Result<Report> {
    options.budget.check().map_err(Error::Usage)?;
    let _watch = limits::watch(&options.budget, "verify");
    let stage = limits::stage("loading content/");
    let content = content::load_with_budget(&options.root.join("content"), &options.budget)?;
    build::admit_all(&content.scenarios, crate::paths::CONTENT, &options.budget)?;
    drop(stage);
    let stage = limits::stage("computing the scenarios");
    let evaluated =
        build::compute_cached(&content.scenarios, &Cache::disabled(), &options.progress);
    drop(stage);
    let simulations: Vec<Simulation> = evaluated.iter().map(|e| e.results.simulation()).collect();
    let sources: Vec<&str> = content
        .scenarios
        .iter()
        .map(|s| s.source.as_str())
        .collect();
    admit(&sources, &simulations, options)?;
    let _stage = limits::stage("simulating the scenarios");
    let tallies = simulate(&sources, &simulations, options);
    let figures: usize = simulations.iter().map(figures_of).sum();
    let share = FALSE_ALARM / figures.max(1) as f64;
    let scenarios = content
        .scenarios
        .iter()
        .zip(&simulations)
        .zip(tallies)
        .map(|((scenario, simulation), tallies)| Checked {
            source: scenario.source.clone(),
            title: scenario.header.title.clone(),
            kind: scenario.params.kind(),
            experiments: simulation.experiments.len(),
            comparisons: simulation
                .experiments
                .iter()
                .zip(&tallies)
                .flat_map(|(e, t)| compare(e, t, share))
                .collect(),
            not_replayed: simulation.not_replayed.clone(),
        })
        .collect();
    Ok(Report {
        trials: options.trials,
        seed: options.seed,
        scenarios,
    })
}

fn experiments(simulation: &Simulation) -> &[Experiment] {
    &simulation.experiments
}

/// The exact figures of a simulation: they share the false alarms.
fn figures_of(simulation: &Simulation) -> usize {
    experiments(simulation)
        .iter()
        .flat_map(|e| e.events.iter().chain(&e.means))
        .filter(|event| event.figure.is_exact())
        .count()
}

/// Refuse, before any trial, a simulation estimated over the budget: each
/// scenario's against one scenario's time, all together against the
/// whole build's.
fn admit(sources: &[&str], simulations: &[Simulation], options: &Options) -> Result<()> {
    let seconds_of = |simulation: &Simulation| {
        let steps: f64 = experiments(simulation)
            .iter()
            .map(|e| e.steps_per_trial.max(1.0))
            .sum();
        steps * options.trials as f64 / STEPS_PER_SECOND
    };
    let refuse = |what: String, seconds: f64, allowed: f64, per: &str| {
        let advice = Budget::advice(seconds / allowed * options.budget.factor)
            .map_or(String::new(), |flag| format!(", or pass {flag}"));
        Err(Error::Usage(format!(
            "{what} {} trials each is estimated to take about {seconds:.0} s, over the \
             budget of {allowed:.0} s {per}: lower --simulate{advice}",
            options.trials
        )))
    };
    let mut total = 0.0;
    for (source, simulation) in sources.iter().zip(simulations) {
        let seconds = seconds_of(simulation);
        total += seconds;
        if seconds > options.budget.seconds() {
            return refuse(
                format!("{}: simulating", crate::paths::content_file(source)),
                seconds,
                options.budget.seconds(),
                "a scenario",
            );
        }
    }
    if total > options.budget.build_seconds() {
        return refuse(
            "simulating every scenario at".into(),
            total,
            options.budget.build_seconds(),
            "for the whole run",
        );
    }
    Ok(())
}

/// Every experiment's tally, per scenario, in order: blocks of trials run
/// in parallel, each from its own stream, and are added up in order.
fn simulate(sources: &[&str], simulations: &[Simulation], options: &Options) -> Vec<Vec<Tally>> {
    let blocks = Experiment::blocks(options.trials);
    let jobs: Vec<(usize, usize, u64)> = simulations
        .iter()
        .enumerate()
        .flat_map(|(s, simulation)| {
            (0..experiments(simulation).len())
                .flat_map(move |e| (0..blocks).map(move |block| (s, e, block)))
        })
        .collect();
    let done: Vec<Tally> = options.progress.with_bar(jobs.len(), "simulating", |bar| {
        jobs.par_iter()
            .map(|&(s, e, block)| {
                let experiment = &experiments(&simulations[s])[e];
                let name = format!("{}#{e}", sources[s]);
                // Priced by `admit`, and stopped at a scenario's time
                // whatever that price said.
                let _phase = limits::compute(format!("simulating {name}"));
                let tally = experiment.run_block(options.trials, block, options.seed, &name);
                bar.inc(1);
                tally
            })
            .collect()
    });
    let mut done = done.chunks(blocks.max(1) as usize);
    simulations
        .iter()
        .map(|simulation| {
            experiments(simulation)
                .iter()
                .map(|experiment| experiment.total(done.next().unwrap_or(&[])))
                .collect()
        })
        .collect()
}

/// Every figure of one experiment beside its tally.
fn compare(experiment: &Experiment, tally: &Tally, share: f64) -> Vec<Comparison> {
    let trials = tally.trials.max(1);
    let frequencies = experiment
        .events
        .iter()
        .zip(&tally.hits)
        .map(|(event, &hits)| {
            let p = event.figure.value();
            Comparison {
                experiment: experiment.label.clone(),
                figure: event.label.clone(),
                is_mean: false,
                approximate: !event.figure.is_exact(),
                exact: p,
                simulated: hits as f64 / trials as f64,
                deviation: deviation::frequency(hits, trials, p, share),
            }
        });
    let means = experiment
        .means
        .iter()
        .zip(&tally.sums)
        .map(|(mean, sums)| {
            let exact = mean.figure.value();
            Comparison {
                experiment: experiment.label.clone(),
                figure: mean.label.clone(),
                is_mean: true,
                approximate: !mean.figure.is_exact(),
                exact,
                simulated: sums.total as f64 / trials as f64,
                deviation: deviation::mean(
                    (sums.total, sums.squares),
                    trials,
                    exact,
                    mean.variance.as_ref().map(to_f64),
                    share,
                ),
            }
        });
    frequencies.chain(means).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::simulate::{Event, Figure, TrialFn, DEFAULT_SEED};
    use crate::analyses::sum_mod::Case;
    use crate::engine::Exact;

    /// The `sum-mod` experiment of `count` d6 mod `targets`, as the kind
    /// builds it.
    fn sum_mod(count: u64, targets: u64) -> Experiment {
        let results = crate::analyses::sum_mod::Results {
            cases: vec![Case::of(count, 6, targets)],
        };
        let params = serde_yaml::from_str("dice: d6\ntargets: 2").unwrap();
        <crate::analyses::sum_mod::SumMod as crate::analyses::simulate::Simulate>::simulation(
            &params, &results,
        )
        .experiments
        .remove(0)
    }

    fn worst(experiment: &Experiment, trials: u64, figures: usize) -> Comparison {
        let tally = experiment.run(trials, DEFAULT_SEED, "test");
        let share = FALSE_ALARM / figures as f64;
        let checked = Checked {
            source: "test.yaml".into(),
            title: "test".into(),
            kind: "sum-mod",
            experiments: 1,
            comparisons: compare(experiment, &tally, share),
            not_replayed: Vec::new(),
        };
        checked.largest().unwrap().clone()
    }

    #[test]
    fn a_correct_program_passes() {
        let experiment = sum_mod(3, 5);
        let largest = worst(&experiment, 50_000, 5_000);
        assert!(!largest.deviation.beyond(), "{largest}");
    }

    #[test]
    fn a_wrong_exact_figure_is_caught() {
        // Bin 0 of 3d6 mod 5 claimed 1/20 more likely than it is.
        let mut experiment = sum_mod(3, 5);
        let bin = experiment.events.len() - 5;
        let shift = Exact::new(1.into(), 20.into());
        let Figure::Exact(exact) = &mut experiment.events[bin].figure else {
            unreachable!()
        };
        *exact += &shift;
        let largest = worst(&experiment, 50_000, 5_000);
        assert!(largest.deviation.beyond(), "{largest}");
        assert_eq!(largest.figure, "bin 0");
    }

    #[test]
    fn a_simulator_that_breaks_the_rules_is_caught() {
        // A d6 made from a d8 by modulo (faces 1 and 2 twice as likely)
        // against the exact figures of a fair one.
        let mut experiment = sum_mod(1, 2);
        let biased: TrialFn = Box::new(|sampler, trial| {
            let face = sampler.below(8) % 6 + 1;
            trial.hit(face as usize - 1);
            trial.hit(6 + (face % 2) as usize);
        });
        experiment.trial = biased;
        let largest = worst(&experiment, 20_000, 5_000);
        assert!(largest.deviation.beyond(), "{largest}");
        // A mean off by a tenth of a roll is caught too.
        let mut experiment = sum_mod(1, 2);
        experiment.means = vec![Event::new("face", Exact::new(36.into(), 10.into()))];
        experiment.trial = Box::new(|sampler, trial| {
            let face = sampler.die(6);
            trial.hit(face as usize - 1);
            trial.hit(6 + (face % 2) as usize);
            trial.measure(0, face);
        });
        let largest = worst(&experiment, 20_000, 5_000);
        assert!(largest.is_mean && largest.deviation.beyond(), "{largest}");
    }

    /// The reroll kind's experiment for `cards` cards on a d`sides`.
    fn pick(cards: u64, sides: u64) -> Experiment {
        use crate::analyses::reroll::{Case, Reroll, Results, Scheme};
        let results = Results {
            cases: vec![Case::of(cards, sides, Scheme::OneFace)],
            best_die: Vec::new(),
            banish: None,
        };
        let params = serde_yaml::from_str(&format!("dice: [d{sides}]\ncards: [{cards}]")).unwrap();
        <Reroll as crate::analyses::simulate::Simulate>::simulation(&params, &results)
            .experiments
            .remove(0)
    }

    /// Over many seeds of a few trials each, how many runs a correct
    /// program fails.
    fn false_alarms(experiment: &Experiment, trials: u64, seeds: u64) -> u64 {
        let share = FALSE_ALARM / 500.0;
        (0..seeds)
            .filter(|&seed| {
                let tally = experiment.run(trials, seed, "test");
                compare(experiment, &tally, share)
                    .iter()
                    .any(|c| c.deviation.beyond())
            })
            .count() as u64
    }

    #[test]
    fn trials_that_all_agree_are_no_false_alarm() {
        // 999 cards on a d1000: one roll nearly always, so ten trials
        // usually agree and their sample spread is zero (issue 27).
        let experiment = pick(999, 1000);
        for trials in [1, 2, 10, 100] {
            assert_eq!(
                false_alarms(&experiment, trials, 2_000),
                0,
                "{trials} trials"
            );
        }
        // Three cards on a d8: ten trials that missed the long tail.
        assert_eq!(false_alarms(&pick(3, 8), 10, 2_000), 0);
    }

    #[test]
    fn a_constant_measure_claimed_to_vary_is_still_caught() {
        // Every trial takes one roll, against a claimed mean of 2 rolls
        // (a geometric law of variance 2): agreeing trials reveal it.
        let mut experiment = pick(999, 1000);
        experiment.means = vec![Event::geometric_mean(
            "rolls",
            Exact::from_integer(2.into()),
        )];
        experiment.trial = Box::new(|_, trial| trial.measure(0, 1));
        let largest = worst(&experiment, 100, 5_000);
        assert!(largest.is_mean && largest.deviation.beyond(), "{largest}");
        let few = worst(&experiment, 10, 5_000);
        assert!(
            !few.deviation.beyond(),
            "ten agreeing trials are not enough: {few}"
        );
    }
}
