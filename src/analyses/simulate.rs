//! Simulation: each kind replays its procedure from the rules with a seeded
//! generator, so `fairdice verify` can set every exact probability beside a
//! simulated frequency.
//!
//! A kind's simulator ([`Simulate`]) is written from the rules of the
//! procedure (roll, add, reroll, shuffle, race), never by sampling the
//! exact distribution, and it names the exact figures each simulated
//! [`Experiment`] must reproduce. A figure may be [`Figure::Exact`] or
//! [`Figure::Summed`] (a test's power summed over every outcome), which
//! fail the run when the simulation strays too far, or
//! [`Figure::Approximate`] (an asymptotic p-value, a test's nominal size, a
//! power from a chi-square law), which the simulation measures without
//! failing: the gap is the approximation's, not a bug. Figures that cannot
//! be replayed (arithmetic on observed data, sizes too large) are named in
//! [`Simulation::not_replayed`] with the reason, never left out silently.
//!
//! The generator is pinned so that a seed gives the same stream on every
//! machine and in every release: ChaCha with 8 rounds (`rand_chacha`,
//! documented as portable and value-stable), keyed by the seed and one
//! stream per block of trials; dice are drawn from its 64-bit words by
//! Lemire's multiply-and-reject method, written here so that no library
//! change can alter which face a word gives.

use super::Analysis;
use crate::engine::{to_f64, Exact};
use crate::hash::Fnv;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use rayon::prelude::*;

pub mod anydice;
pub mod dice;
pub mod observed;

/// The seed `verify` uses when none is given.
pub const DEFAULT_SEED: u64 = 20_261_123;

/// Trials run from one stream: the blocks of an experiment run in parallel
/// and are added in order, so the counts never depend on the threads.
pub(crate) const TRIALS_PER_BLOCK: u64 = 1 << 14;

/// How a kind replays its procedure: the optional capability `verify`
/// reaches through the registry.
pub trait Simulate: Analysis {
    /// The experiments that replay these parameters from the rules, each
    /// with the figures (taken from `results` or the exact engine) its
    /// frequencies must match, and the figures not replayed with why.
    fn simulation(params: &Self::Params, results: &Self::Results) -> Simulation;
}

/// What a scenario replays, and what it cannot.
pub struct Simulation {
    /// Experiments to run, in the order their figures appear in the results.
    pub experiments: Vec<Experiment>,
    /// Figures of the results that no experiment replays, each with the
    /// reason, as the verification page shows them.
    pub not_replayed: Vec<String>,
}

impl Simulation {
    /// These experiments, every figure replayed.
    pub fn of(experiments: Vec<Experiment>) -> Simulation {
        Simulation {
            experiments,
            not_replayed: Vec::new(),
        }
    }

    /// Add the experiment that replays `what`, or the reason it cannot be.
    pub(crate) fn replay(&mut self, what: &str, attempt: Result<Experiment, String>) {
        match attempt {
            Ok(experiment) => self.experiments.push(experiment),
            Err(why) => self.not_replayed.push(format!("{what}: {why}")),
        }
    }
}

/// One trial, run again and again: it rolls with the [`Sampler`] and
/// records on the [`Trial`] which events happened and what it measured.
pub(crate) type TrialFn = Box<dyn Fn(&mut Sampler, &mut Trial) + Send + Sync>;

/// One procedure replayed many times, with the exact figures it must match.
pub struct Experiment {
    /// What is replayed, such as `10 targets, 10d6`.
    pub label: String,
    /// Events and their exact probabilities; [`Trial::hit`] names them by
    /// index.
    pub events: Vec<Event>,
    /// Measured quantities and their exact means; [`Trial::measure`] names
    /// them by index.
    pub means: Vec<Event>,
    /// Rough work of one trial, in dice rolled (or cards moved), for the
    /// cost estimate.
    pub steps_per_trial: f64,
    /// One trial.
    pub trial: TrialFn,
}

/// A figure: the probability of an event, or the mean of a measure.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Such as `bin 5` or `A wins`.
    pub label: String,
    /// The figure the simulation must reproduce.
    pub figure: Figure,
    /// For a mean, the measure's exact variance where the kind knows it:
    /// it judges a sample whose trials all agree, where the sample's own
    /// spread is zero and says nothing.
    pub variance: Option<Exact>,
}

/// A figure's value, and whether a miss is the program's fault.
#[derive(Debug, Clone, PartialEq)]
pub enum Figure {
    /// Counted exactly: a simulation beyond its limit fails the run.
    Exact(Exact),
    /// Summed over every outcome in floats (a test's power): exact but for
    /// rounding far below any simulation's reach, so, as for an exact
    /// figure, a simulation beyond its limit fails the run.
    Summed(f64),
    /// An approximation (float, as the results give it): the simulation
    /// measures how close it is and never fails the run on it.
    Approximate(f64),
}

impl Figure {
    /// The value as a float, for comparing.
    pub fn value(&self) -> f64 {
        match self {
            Figure::Exact(exact) => to_f64(exact),
            Figure::Summed(value) | Figure::Approximate(value) => *value,
        }
    }

    /// Whether a miss fails the run.
    pub(crate) fn is_exact(&self) -> bool {
        matches!(self, Figure::Exact(_) | Figure::Summed(_))
    }
}

impl Event {
    /// `label` with the exact figure `exact`.
    pub fn new(label: impl Into<String>, exact: Exact) -> Event {
        Event {
            label: label.into(),
            figure: Figure::Exact(exact),
            variance: None,
        }
    }

    /// A mean of a measure whose geometric law (trials until the first
    /// success, from 1) gives its variance from its mean: m (m - 1).
    pub(crate) fn geometric_mean(label: impl Into<String>, mean: Exact) -> Event {
        let variance = &mean * (&mean - Exact::from_integer(1.into()));
        Event::new(label, mean).with_variance(variance)
    }

    /// This mean with its measure's exact variance.
    pub(crate) fn with_variance(mut self, variance: Exact) -> Event {
        self.variance = Some(variance);
        self
    }

    /// `label` with the approximate figure `value`.
    pub(crate) fn approximate(label: impl Into<String>, value: f64) -> Event {
        Event {
            label: label.into(),
            figure: Figure::Approximate(value),
            variance: None,
        }
    }
}

/// What one trial records.
pub struct Trial<'a> {
    tally: &'a mut Tally,
}

impl Trial<'_> {
    /// Event `event` happened in this trial.
    pub fn hit(&mut self, event: usize) {
        self.tally.hits[event] += 1;
    }

    /// This trial measured `value` for mean `mean`.
    pub fn measure(&mut self, mean: usize, value: u64) {
        let sum = &mut self.tally.sums[mean];
        sum.total += u128::from(value);
        sum.squares += u128::from(value) * u128::from(value);
    }
}

/// The counts of an experiment after some trials; integers, so the order
/// in which blocks are added cannot change them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tally {
    /// Trials run.
    pub trials: u64,
    /// Per event, the trials in which it happened.
    pub hits: Vec<u64>,
    /// Per mean, the sum and the sum of squares of its measures.
    pub sums: Vec<Sums>,
}

/// Sum and sum of squares of one measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sums {
    /// Sum of the values.
    pub total: u128,
    /// Sum of their squares.
    pub squares: u128,
}

impl Tally {
    fn empty(experiment: &Experiment) -> Tally {
        Tally {
            trials: 0,
            hits: vec![0; experiment.events.len()],
            sums: vec![Sums::default(); experiment.means.len()],
        }
    }

    fn add(&mut self, other: &Tally) {
        self.trials += other.trials;
        for (a, b) in self.hits.iter_mut().zip(&other.hits) {
            *a += b;
        }
        for (a, b) in self.sums.iter_mut().zip(&other.sums) {
            a.total += b.total;
            a.squares += b.squares;
        }
    }
}

impl Experiment {
    /// The number of blocks `trials` trials take.
    pub fn blocks(trials: u64) -> u64 {
        trials.div_ceil(TRIALS_PER_BLOCK)
    }

    /// Run block `block` of `trials` trials, from the stream named by
    /// `seed`, `name` (the scenario and experiment) and the block.
    pub(crate) fn run_block(&self, trials: u64, block: u64, seed: u64, name: &str) -> Tally {
        let start = block * TRIALS_PER_BLOCK;
        let count = trials.saturating_sub(start).min(TRIALS_PER_BLOCK);
        let mut sampler = Sampler::new(seed, &format!("{name}#{block}"));
        let mut tally = Tally::empty(self);
        for _ in 0..count {
            (self.trial)(&mut sampler, &mut Trial { tally: &mut tally });
        }
        tally.trials = count;
        tally
    }

    /// Run `trials` trials in parallel blocks and add them up in order.
    pub fn run(&self, trials: u64, seed: u64, name: &str) -> Tally {
        let blocks: Vec<Tally> = (0..Self::blocks(trials))
            .into_par_iter()
            .map(|block| self.run_block(trials, block, seed, name))
            .collect();
        self.total(&blocks)
    }

    /// The blocks of a run added up, in order.
    pub fn total(&self, blocks: &[Tally]) -> Tally {
        let mut tally = Tally::empty(self);
        for block in blocks {
            tally.add(block);
        }
        tally
    }
}

/// The seeded generator every simulator rolls with.
pub struct Sampler {
    rng: ChaCha8Rng,
}

impl Sampler {
    /// ChaCha8 keyed by `seed` (its 8 little-endian bytes, then zeros), on
    /// the stream numbered by the FNV-1a hash of `name`.
    pub fn new(seed: u64, name: &str) -> Sampler {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        let mut rng = ChaCha8Rng::from_seed(key);
        let mut stream = Fnv::default();
        stream.write(name.as_bytes());
        rng.set_stream(stream.value());
        Sampler { rng }
    }

    /// A uniform integer in `0..n` (`n` at least 1), without modulo bias:
    /// Lemire's method keeps the high word of a 128-bit product and rejects
    /// the few low words that would favour some results.
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut product = u128::from(self.rng.next_u64()) * u128::from(n);
        if (product as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u64) < threshold {
                product = u128::from(self.rng.next_u64()) * u128::from(n);
            }
        }
        (product >> 64) as u64
    }

    /// One roll of a die numbered `1..=sides`.
    pub fn die(&mut self, sides: u64) -> u64 {
        1 + self.below(sides)
    }

    /// The total of `count` dice of `sides` faces.
    pub fn dice(&mut self, count: u64, sides: u64) -> u64 {
        (0..count).map(|_| self.die(sides)).sum()
    }

    /// A uniform float in `[0, 1)`: the top 53 bits of one draw.
    pub fn unit(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A fair coin: heads is `true`.
    pub fn coin(&mut self) -> bool {
        self.rng.next_u64() >> 63 == 1
    }
}

/// For the kinds' tests: run every experiment of `simulation` for `trials`
/// trials and assert that each frequency and mean lies within a generous
/// five standard deviations (plus a little) of its exact figure. Returns
/// the number of exact figures checked (approximate ones are left out:
/// their gap is the approximation's).
#[cfg(test)]
pub fn assert_agrees(simulation: &Simulation, trials: u64) -> usize {
    assert!(!simulation.experiments.is_empty(), "nothing to simulate");
    let mut figures = 0;
    for (i, experiment) in simulation.experiments.iter().enumerate() {
        let tally = experiment.run(trials, DEFAULT_SEED, &format!("test#{i}"));
        let n = trials as f64;
        let exact = experiment.events.iter().zip(&tally.hits);
        for (event, &hits) in exact.filter(|(event, _)| event.figure.is_exact()) {
            let p = event.figure.value();
            let spread = (n * p * (1.0 - p)).sqrt();
            let gap = (hits as f64 - n * p).abs();
            assert!(
                gap <= 5.0 * spread + 3.0,
                "{}: {}: {hits} of {trials}, expected {}",
                experiment.label,
                event.label,
                n * p
            );
            figures += 1;
        }
        let exact = experiment.means.iter().zip(&tally.sums);
        for (mean, sums) in exact.filter(|(mean, _)| mean.figure.is_exact()) {
            let exact = mean.figure.value();
            let average = sums.total as f64 / n;
            let variance = sums.squares as f64 / n - average * average;
            let gap = (average - exact).abs();
            assert!(
                gap <= 5.0 * (variance / n).sqrt() + 1e-9,
                "{}: mean {}: {average}, exact {exact}",
                experiment.label,
                mean.label
            );
            figures += 1;
        }
    }
    figures
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_pinned() {
        // The first draws of the default seed: a change to the generator, its
        // keying or the die method would change every published run.
        let mut sampler = Sampler::new(DEFAULT_SEED, "pinned");
        let rolls: Vec<u64> = (0..12).map(|_| sampler.die(6)).collect();
        assert_eq!(rolls, PINNED_ROLLS);
        let mut again = Sampler::new(DEFAULT_SEED, "pinned");
        assert_eq!((0..12).map(|_| again.die(6)).collect::<Vec<_>>(), rolls);
        let mut other = Sampler::new(DEFAULT_SEED, "other");
        assert_ne!((0..12).map(|_| other.die(6)).collect::<Vec<_>>(), rolls);
    }

    const PINNED_ROLLS: [u64; 12] = [1, 5, 2, 6, 6, 2, 5, 4, 6, 2, 5, 6];

    #[test]
    fn below_is_unbiased_where_modulo_is_not() {
        // n = 3 * 2^62 makes `word % n` give 0 twice as often as 2 (0..2^62
        // is reached from two words); the method must not.
        let n = 3u64 << 62;
        let third = n / 3;
        let mut sampler = Sampler::new(1, "bias");
        let mut low = [0u32; 3];
        for _ in 0..30_000 {
            low[(sampler.below(n) / third) as usize] += 1;
        }
        for count in low {
            assert!((9_000..11_000).contains(&count), "{low:?}");
        }
    }

    #[test]
    fn every_face_comes_up_about_equally() {
        let mut sampler = Sampler::new(7, "faces");
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[sampler.die(6) as usize] += 1;
        }
        assert_eq!(counts[0], 0);
        for &count in &counts[1..] {
            assert!((11_000..12_400).contains(&count), "{counts:?}");
        }
        assert!((0..1000).all(|_| sampler.below(1) == 0));
    }

    #[test]
    fn blocks_add_up_to_the_same_counts_however_they_are_run() {
        let experiment = Experiment {
            label: "a d6".into(),
            events: (1..=6)
                .map(|face| Event::new(format!("{face}"), Exact::new(1.into(), 6.into())))
                .collect(),
            means: vec![Event::new("face", Exact::new(7.into(), 2.into()))],
            steps_per_trial: 1.0,
            trial: Box::new(|sampler, trial| {
                let face = sampler.die(6);
                trial.hit(face as usize - 1);
                trial.measure(0, face);
            }),
        };
        let trials = 3 * TRIALS_PER_BLOCK + 5;
        let parallel = experiment.run(trials, 9, "d6");
        let blocks: Vec<Tally> = (0..Experiment::blocks(trials))
            .map(|b| experiment.run_block(trials, b, 9, "d6"))
            .collect();
        assert_eq!(parallel, experiment.total(&blocks));
        assert_eq!(parallel.trials, trials);
        assert_eq!(parallel.hits.iter().sum::<u64>(), trials);
        assert_ne!(experiment.run(trials, 10, "d6"), parallel);
    }
}
