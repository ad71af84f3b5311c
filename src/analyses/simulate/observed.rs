//! What the simulators of observed data share (`die-test`,
//! `seat-advantage`): there is no procedure to replay, only data, so they
//! replay the question the tests answer. Dice or games as they should be,
//! as many as the data has, show how often chance alone gives what the
//! p-values and intervals say; biased ones, as many as a power table asks,
//! show how often the test notices the bias.
//!
//! Written from the definitions, not from `stats`: an outcome's likelihood
//! is compared with the observed one's directly ([`no_more_likely`]), the
//! statistics are the textbook sums ([`pearson`], [`g_statistic`]), and
//! the dice are rolled one by one ([`Loaded`]).

use super::{Event, Experiment, Figure, Sampler};
use crate::analyses::stats;
use crate::engine::Exact;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

/// The most rolls (or games) one trial replays one by one. A larger log's
/// counts are drawn at once from the multinomial distribution
/// ([`Loaded::counts`]); what needs a big-integer weight for every count
/// (an interval's coverage, the binomial test's rejection region) is not
/// replayed past it.
pub(crate) const MAX_REPLAYED: u64 = 20_000;

/// Outcomes with rational chances, drawn by one uniform integer below
/// their common denominator: a die with repeated faces, a die favouring
/// one face, a game whose first player wins more often.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Loaded {
    /// Running totals of the outcomes' weights; the last is the whole.
    cumulative: Vec<u64>,
}

impl Loaded {
    /// Outcome `i` with chance `weights[i] / sum` (weights not all zero).
    pub fn new(weights: &[u64]) -> Loaded {
        let cumulative = weights
            .iter()
            .scan(0u64, |total, &w| {
                *total += w;
                Some(*total)
            })
            .collect();
        Loaded { cumulative }
    }

    /// Outcome `i` with chance `chances[i]` (adding up to 1); `None` when
    /// their common denominator does not fit a 64-bit draw.
    pub(crate) fn from_chances(chances: &[Exact]) -> Option<Loaded> {
        let mut denominator = BigUint::one();
        for chance in chances {
            denominator = denominator.lcm(chance.denom().magnitude());
        }
        let weights: Option<Vec<u64>> = chances
            .iter()
            .map(|c| (c.numer().magnitude() * (&denominator / c.denom().magnitude())).to_u64())
            .collect();
        let weights = weights?;
        (weights.iter().try_fold(0u64, |a, &w| a.checked_add(w)) == denominator.to_u64())
            .then(|| Loaded::new(&weights))
    }

    /// How many outcomes there are.
    pub fn outcomes(&self) -> usize {
        self.cumulative.len()
    }

    /// One draw: the outcome's index.
    pub fn roll(&self, sampler: &mut Sampler) -> usize {
        let whole = self.cumulative.last().copied().unwrap_or(1);
        let draw = sampler.below(whole);
        self.cumulative.partition_point(|&total| total <= draw)
    }

    /// `rolls` draws, counted per outcome.
    pub(crate) fn tally(&self, sampler: &mut Sampler, rolls: u64) -> Vec<u64> {
        let mut counts = vec![0u64; self.outcomes()];
        for _ in 0..rolls {
            counts[self.roll(sampler)] += 1;
        }
        counts
    }

    /// `rolls` draws counted per outcome, as [`Loaded::tally`] counts them
    /// up to [`MAX_REPLAYED`] (one draw a roll); beyond, the counts are
    /// drawn at once from their multinomial distribution, one binomial an
    /// outcome given the rolls left ([`binomial`]).
    pub fn counts(&self, sampler: &mut Sampler, rolls: u64) -> Vec<u64> {
        if rolls <= MAX_REPLAYED {
            return self.tally(sampler, rolls);
        }
        let mut counts = Vec::with_capacity(self.outcomes());
        let (mut left, mut below) = (rolls, 0u64);
        let whole = self.cumulative.last().copied().unwrap_or(1);
        for (i, &total) in self.cumulative.iter().enumerate() {
            let weight = total - below;
            let rest = whole - below;
            below = total;
            let count = if i + 1 == self.outcomes() || weight == rest {
                left
            } else {
                binomial(sampler, left, weight as f64 / rest as f64)
            };
            counts.push(count);
            left -= count;
        }
        counts
    }

    /// The draws a trial of `rolls` rolls takes ([`Loaded::counts`]), for
    /// the simulation's cost.
    pub(crate) fn steps(&self, rolls: u64) -> f64 {
        if rolls <= MAX_REPLAYED {
            rolls as f64
        } else {
            self.outcomes() as f64 * (2.0 * (rolls as f64).sqrt() + 1.0)
        }
    }
}

/// A draw from the binomial distribution of `n` trials of chance `p`, by
/// inversion searching outward from the mode (C. D. Kemp, "A modal method
/// for generating binomial variables", Communications in Statistics:
/// Theory and Methods 15, 1986): the outcomes are visited in the order m,
/// m - 1, m + 1, m - 2, ... and one uniform is spent on their chances in
/// that order, which is an exact inversion for that order. Chances come
/// from the mode's (by `ln_gamma`) through the ratio of neighbours, in
/// floats, so each is right to about 1e-12 relative; the search takes
/// about one standard deviation's worth of steps.
pub fn binomial(sampler: &mut Sampler, n: u64, p: f64) -> u64 {
    if n == 0 || p <= 0.0 {
        return 0;
    }
    if p >= 1.0 {
        return n;
    }
    use statrs::function::gamma::ln_gamma;
    let mode = ((n as f64 + 1.0) * p).floor().min(n as f64) as u64;
    let (nf, mf) = (n as f64, mode as f64);
    let at_mode = (ln_gamma(nf + 1.0) - ln_gamma(mf + 1.0) - ln_gamma(nf - mf + 1.0)
        + mf * p.ln()
        + (nf - mf) * (-p).ln_1p())
    .exp();
    let odds = p / (1.0 - p);
    let mut u = sampler.unit() - at_mode;
    if u < 0.0 {
        return mode;
    }
    let (mut low, mut low_chance) = (mode, at_mode);
    let (mut high, mut high_chance) = (mode, at_mode);
    while low > 0 || high < n {
        if low > 0 {
            low_chance *= low as f64 / ((n - low + 1) as f64 * odds);
            low -= 1;
            u -= low_chance;
            if u < 0.0 {
                return low;
            }
        }
        if high < n {
            high_chance *= (n - high) as f64 / (high + 1) as f64 * odds;
            high += 1;
            u -= high_chance;
            if u < 0.0 {
                return high;
            }
        }
    }
    // Rounding left a sliver of the uniform unspent: the mode stands in.
    mode
}

/// Whether `counts` is no more likely than `observed` (the same number of
/// trials over categories of weights `weights`): the outcome the exact
/// multinomial and binomial tests add up. The multinomial chances'
/// ratio is `prod obs_i! / prod c_i! * prod w_i^(c_i - obs_i)`; its
/// logarithm decides unless it is within rounding of zero, and then the
/// two sides are multiplied out exactly, so ties count as they must.
pub(crate) fn no_more_likely(counts: &[u64], observed: &[u64], weights: &[u64]) -> bool {
    let mut log_ratio = 0.0f64;
    let mut magnitude = 0.0f64;
    for ((&c, &o), &w) in counts.iter().zip(observed).zip(weights) {
        // ln(o! / c!) + (c - o) ln w, term by term.
        let (low, high, sign) = if c < o { (c, o, 1.0) } else { (o, c, -1.0) };
        let term = (low + 1..=high).map(|j| (j as f64).ln()).sum::<f64>()
            - (high - low) as f64 * (w as f64).ln();
        log_ratio += sign * term;
        magnitude += term.abs();
    }
    let rounding = 1e-9 * (1.0 + magnitude);
    if log_ratio.abs() > rounding {
        return log_ratio < 0.0;
    }
    // P(counts) <= P(observed) as integers: move every factor to the side
    // where it multiplies.
    let (mut this, mut that) = (BigUint::one(), BigUint::one());
    for ((&c, &o), &w) in counts.iter().zip(observed).zip(weights) {
        let falling = |low: u64, high: u64| (low + 1..=high).fold(BigUint::one(), |p, j| p * j);
        if c > o {
            this *= BigUint::from(w).pow((c - o) as u32);
            that *= falling(o, c);
        } else {
            that *= BigUint::from(w).pow((o - c) as u32);
            this *= falling(c, o);
        }
    }
    this <= that
}

/// Pearson's statistic, the sum of (observed - expected)^2 / expected.
pub(crate) fn pearson(counts: &[u64], expected: &[f64]) -> f64 {
    counts
        .iter()
        .zip(expected)
        .map(|(&o, &e)| (o as f64 - e).powi(2) / e)
        .sum()
}

/// The G statistic, 2 sum observed ln(observed / expected) (0 ln 0 = 0).
pub(crate) fn g_statistic(counts: &[u64], expected: &[f64]) -> f64 {
    2.0 * counts
        .iter()
        .zip(expected)
        .filter(|(&o, _)| o > 0)
        .map(|(&o, &e)| o as f64 * (o as f64 / e).ln())
        .sum::<f64>()
}

/// A statistic at least as large as the observed one, up to rounding: the
/// same outcome summed in another order must count.
pub(crate) fn at_least(statistic: f64, observed: f64) -> bool {
    statistic >= observed - 1e-9 * observed.abs().max(1.0)
}

/// An interval's coverage: which counts of `trials` trials give a 95 %
/// interval that holds the true chance, and the exact chance of those
/// counts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Coverage {
    /// The true chance.
    pub chance: Exact,
    /// Per count `0..=trials`, whether its interval holds the chance. The
    /// intervals are the page's own (`stats`), so the simulation replays
    /// exactly these decisions.
    pub holds: Vec<bool>,
    /// The exact chance of a count whose interval holds it.
    pub exact: Exact,
}

/// Whether a big-integer weight for every count up to `trials` is within
/// reach, as an interval's coverage and the binomial test's rejection
/// region need: up to [`MAX_REPLAYED`].
pub(crate) fn weights_within_reach(trials: u64) -> bool {
    trials <= MAX_REPLAYED
}

impl Coverage {
    /// Why `whose` interval coverage is not replayed for `trials` `unit`
    /// (past [`weights_within_reach`]), for the figures not replayed.
    pub(crate) fn out_of_reach(whose: &str, trials: u64, unit: &str) -> String {
        format!(
            "{whose} interval coverage: its exact chance needs a big-integer weight for \
             every count up to {trials} {unit} (the p-values are replayed, the {unit} \
             counted by their multinomial distribution)"
        )
    }

    /// The coverage of the interval of `trials` trials at `chance`.
    pub fn new(trials: u64, chance: &Exact) -> Coverage {
        let a = chance.numer().magnitude();
        let b = chance.denom().magnitude();
        let mut holds = Vec::with_capacity(trials as usize + 1);
        let mut covered = BigUint::zero();
        stats::binomial_weights(trials, a, &(b - a), |count, weight| {
            let within = stats::within(&stats::clopper_pearson(count, trials), chance);
            if within {
                covered += weight;
            }
            holds.push(within);
        });
        Coverage {
            chance: chance.clone(),
            exact: crate::engine::ratio(&covered, &b.pow(trials as u32)),
            holds,
        }
    }

    /// One coverage per distinct chance among `chances`, and each chance's
    /// index into them: a d6's six faces share one.
    pub(crate) fn per_chance(trials: u64, chances: &[Exact]) -> (Vec<Coverage>, Vec<usize>) {
        let mut distinct: Vec<Coverage> = Vec::new();
        let index = chances
            .iter()
            .map(|chance| {
                distinct
                    .iter()
                    .position(|c| &c.chance == chance)
                    .unwrap_or_else(|| {
                        distinct.push(Coverage::new(trials, chance));
                        distinct.len() - 1
                    })
            })
            .collect();
        (distinct, index)
    }
}

/// A power-table row replayed: `steps` draws a trial, made by `notices`,
/// which says whether the test noticed the bias; the row's power there is
/// `reached` (at least [`stats::POWER`]).
pub(crate) fn power_experiment(
    label: String,
    test: &str,
    steps: f64,
    reached: Figure,
    notices: impl Fn(&mut Sampler) -> bool + Send + Sync + 'static,
) -> Experiment {
    Experiment {
        label,
        events: vec![Event {
            label: format!("{test} rejects at 5 %"),
            figure: reached,
            variance: None,
        }],
        means: Vec::new(),
        steps_per_trial: steps,
        trial: Box::new(move |sampler, trial| {
            if notices(sampler) {
                trial.hit(0);
            }
        }),
    }
}

/// A relative advantage in words, for a label: `10 % more often`,
/// `24.4 % more often`, `27.5 % less often`.
pub(crate) fn more_often(advantage: &Exact) -> String {
    let percent = crate::engine::to_f64(advantage) * 100.0;
    let way = if percent < 0.0 { "less" } else { "more" };
    let size = percent.abs();
    if (size - size.round()).abs() < 1e-9 {
        format!("{size:.0} % {way} often")
    } else {
        format!("{size:.1} % {way} often")
    }
}

/// Which counts of `trials` trials (chance `a / (a + r)` each, both above
/// 0) the exact two-sided binomial test rejects at [`stats::SIGNIFICANCE`]:
/// the least likely counts, ties together, while their chances add up to
/// at most 5 %. The chances rise to a peak and fall, so the least likely
/// count left is always at one end: two walks inward, one weight each.
pub(crate) fn binomial_rejections(trials: u64, a: u64, r: u64) -> Vec<bool> {
    // 5 % as a fraction: rejected while 20 * sum <= whole.
    const PER_WHOLE: u32 = 20;
    debug_assert!((stats::SIGNIFICANCE - 1.0 / f64::from(PER_WHOLE)).abs() < 1e-15);
    let whole = BigUint::from(a + r).pow(trials as u32);
    let (a, r) = (BigUint::from(a), BigUint::from(r));
    let mut rejected = vec![false; trials as usize + 1];
    // The unvisited counts are left..=right; signed, so right may pass 0.
    let (mut left, mut right) = (0i64, trials as i64);
    let (mut left_weight, mut right_weight) = (r.pow(trials as u32), a.pow(trials as u32));
    let mut sum = BigUint::zero();
    while left <= right {
        let least = (&left_weight).min(&right_weight).clone();
        let mut group = Vec::new();
        while left <= right && left_weight == least {
            group.push(left);
            sum += &left_weight;
            let k = left as u64;
            if k < trials {
                left_weight = left_weight * (trials - k) * &a / (&r * (k + 1));
            }
            left += 1;
        }
        while left <= right && right_weight == least {
            group.push(right);
            sum += &right_weight;
            let k = right as u64;
            if k > 0 {
                right_weight = right_weight * k * &r / ((trials - k + 1) * &a);
            }
            right -= 1;
        }
        if &sum * PER_WHOLE > whole {
            break;
        }
        for count in group {
            rejected[count as usize] = true;
        }
    }
    rejected
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::to_f64;
    use num_bigint::BigInt;

    fn fraction(p: i64, q: i64) -> Exact {
        Exact::new(BigInt::from(p), BigInt::from(q))
    }

    /// Mean and variance of `draws` binomial draws against n p and n p q,
    /// each within 6 of its standard errors (a correct sampler strays that
    /// far about once in 500 million runs).
    fn moments_agree(n: u64, p: f64, draws: u64, seed: u64) {
        let mut sampler = Sampler::new(seed, "binomial");
        let (mut sum, mut squares) = (0.0f64, 0.0f64);
        for _ in 0..draws {
            let x = binomial(&mut sampler, n, p) as f64;
            assert!(x <= n as f64);
            sum += x;
            squares += x * x;
        }
        let d = draws as f64;
        let (mean, variance) = (n as f64 * p, n as f64 * p * (1.0 - p));
        let average = sum / d;
        let spread = squares / d - average * average;
        assert!(
            (average - mean).abs() <= 6.0 * (variance / d).sqrt(),
            "n {n} p {p}: mean {average}, expected {mean}"
        );
        // The sample variance's own variance: (mu4 - sigma^4) / d, with
        // the binomial's fourth central moment n p q (1 + 3 p q (n - 2)),
        // and the bias from estimating the mean (up to (6 sd / sqrt d)^2).
        let pq = p * (1.0 - p);
        let mu4 = n as f64 * pq * (1.0 + 3.0 * pq * (n as f64 - 2.0));
        let error = ((mu4 - variance * variance).max(0.0) / d).sqrt();
        assert!(
            (spread - variance).abs() <= 6.0 * error + 36.0 * variance / d + 1e-9,
            "n {n} p {p}: variance {spread}, expected {variance}"
        );
    }

    #[test]
    fn binomial_draws_have_the_binomials_mean_and_variance() {
        for (n, p) in [
            (1, 0.5),
            (7, 0.1),
            (1_000_000, 1.0 / 6.0),
            (1_000_000, 1e-6),
            (1_000_000, 0.999),
            (50_000, 0.5),
        ] {
            moments_agree(n, p, 20_000, 7);
        }
        let mut sampler = Sampler::new(1, "edges");
        assert_eq!(binomial(&mut sampler, 0, 0.5), 0);
        assert_eq!(binomial(&mut sampler, 10, 0.0), 0);
        assert_eq!(binomial(&mut sampler, 10, 1.0), 10);
    }

    #[test]
    fn binomial_draws_fit_the_exact_distribution() {
        // 200,000 draws of Binomial(20, 0.3) against its exact chances by
        // Pearson's test, cells under 5 expected merged into their
        // neighbour; failing at 1e-6 means a wrong sampler.
        let (n, p, draws) = (20u64, 0.3f64, 200_000u64);
        let mut sampler = Sampler::new(11, "fit");
        let mut seen = vec![0u64; n as usize + 1];
        for _ in 0..draws {
            seen[binomial(&mut sampler, n, p) as usize] += 1;
        }
        let choose = |k: u64| (0..k).fold(1.0f64, |c, i| c * (n - i) as f64 / (i + 1) as f64);
        let chance = |k: u64| choose(k) * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32);
        let (mut statistic, mut cells) = (0.0, 0);
        let (mut observed, mut expected) = (0.0, 0.0);
        for k in 0..=n {
            observed += seen[k as usize] as f64;
            expected += chance(k) * draws as f64;
            if k == n || expected >= 5.0 && chance(k + 1) * draws as f64 >= 5.0 {
                statistic += (observed - expected).powi(2) / expected;
                cells += 1;
                (observed, expected) = (0.0, 0.0);
            }
        }
        use statrs::distribution::{ChiSquared, ContinuousCDF};
        let limit = ChiSquared::new((cells - 1) as f64)
            .unwrap()
            .inverse_cdf(1.0 - 1e-6);
        assert!(
            statistic < limit,
            "{statistic} over {limit} with {cells} cells: {seen:?}"
        );
    }

    #[test]
    fn counts_past_the_one_by_one_limit_are_multinomial() {
        let die = Loaded::new(&[3, 2, 1]);
        let mut sampler = Sampler::new(5, "multinomial");
        let rolls = 1_000_000;
        let trials = 2_000;
        let mut sums = [0f64; 3];
        for _ in 0..trials {
            let counts = die.counts(&mut sampler, rolls);
            assert_eq!(counts.iter().sum::<u64>(), rolls);
            for (sum, count) in sums.iter_mut().zip(&counts) {
                *sum += *count as f64;
            }
        }
        for (sum, share) in sums.iter().zip([0.5, 1.0 / 3.0, 1.0 / 6.0]) {
            let mean = sum / trials as f64;
            let spread = (rolls as f64 * share * (1.0 - share) / trials as f64).sqrt();
            assert!(
                (mean - rolls as f64 * share).abs() <= 6.0 * spread,
                "{sums:?}"
            );
        }
        // Up to the limit, the counts are the one-by-one tally's.
        let (mut a, mut b) = (Sampler::new(9, "same"), Sampler::new(9, "same"));
        assert_eq!(die.counts(&mut a, 500), die.tally(&mut b, 500));
        // A weight of zero never comes up.
        let never = Loaded::new(&[0, 1, 0]);
        assert_eq!(never.counts(&mut sampler, rolls), vec![0, rolls, 0]);
    }

    #[test]
    fn loaded_dice_roll_their_weights() {
        let die = Loaded::from_chances(&[fraction(1, 2), fraction(1, 3), fraction(1, 6)]).unwrap();
        assert_eq!(die, Loaded::new(&[3, 2, 1]));
        let mut sampler = Sampler::new(3, "loaded");
        let counts = die.tally(&mut sampler, 60_000);
        for (count, expected) in counts.iter().zip([30_000.0, 20_000.0, 10_000.0]) {
            assert!((*count as f64 - expected).abs() < 600.0, "{counts:?}");
        }
        // A chance of zero never comes up.
        let never = Loaded::new(&[0, 1]);
        assert!((0..100).all(|_| never.roll(&mut sampler) == 1));
        // Chances that do not add up to 1 are refused.
        assert_eq!(Loaded::from_chances(&[fraction(1, 2)]), None);
    }

    /// The multinomial chance of `counts`, times the whole, by factorials.
    fn weight(counts: &[u64], weights: &[u64]) -> BigUint {
        let factorial = |n: u64| (1..=n).fold(BigUint::one(), |p, j| p * j);
        let n: u64 = counts.iter().sum();
        let mut w = factorial(n);
        for (&c, &k) in counts.iter().zip(weights) {
            w = w * BigUint::from(k).pow(c as u32) / factorial(c);
        }
        w
    }

    #[test]
    fn likelihoods_compare_as_their_exact_values_do() {
        let weights = [1, 2, 1, 3];
        let outcomes: Vec<Vec<u64>> = (0..=6u64)
            .flat_map(|a| (0..=6 - a).map(move |b| (a, b)))
            .flat_map(|(a, b)| (0..=6 - a - b).map(move |c| vec![a, b, c, 6 - a - b - c]))
            .collect();
        for x in &outcomes {
            for y in &outcomes {
                assert_eq!(
                    no_more_likely(x, y, &weights),
                    weight(x, &weights) <= weight(y, &weights),
                    "{x:?} against {y:?}"
                );
            }
        }
        // Ties between different outcomes: 6! = 3! 5! / 1! (times 1! 1!),
        // so (6, 0, 1) and (3, 5, ...) style coincidences are exact.
        assert!(no_more_likely(&[1, 0], &[0, 1], &[1, 1]));
        assert!(no_more_likely(&[300, 300], &[300, 300], &[1, 1]));
    }

    #[test]
    fn statistics_match_the_textbook() {
        let expected = [10.0; 6];
        assert!((pearson(&[5, 8, 9, 8, 10, 20], &expected) - 13.4).abs() < 1e-12);
        let g = g_statistic(&[5, 8, 9, 8, 10, 20], &expected);
        let stats = stats::g_test(&[5, 8, 9, 8, 10, 20], &expected).statistic;
        assert!((g - stats).abs() < 1e-12);
        assert!(at_least(13.4, 13.400000000000002) && !at_least(13.3, 13.4));
        assert_eq!(more_often(&fraction(1, 10)), "10 % more often");
        assert_eq!(more_often(&fraction(38, 156)), "24.4 % more often");
        assert_eq!(more_often(&fraction(-11, 40)), "27.5 % less often");
    }

    #[test]
    fn coverage_is_at_least_95_percent_and_adds_up() {
        // Brute force for 10 trials at 1/6: the chances of the counts
        // whose interval holds 1/6.
        let chance = fraction(1, 6);
        let brute: f64 = (0..=10u64)
            .filter(|&k| stats::within(&stats::clopper_pearson(k, 10), &chance))
            .map(|k| {
                let ways = weight(&[k, 10 - k], &[1, 5]);
                ways.to_f64().unwrap() / 6f64.powi(10)
            })
            .sum();
        let exact = to_f64(&Coverage::new(10, &chance).exact);
        assert!((exact - brute).abs() < 1e-12, "{exact} {brute}");
        for (trials, p, q) in [(10, 1, 6), (60, 1, 2), (600, 1, 6), (240, 1, 4)] {
            let covered = to_f64(&Coverage::new(trials, &fraction(p, q)).exact);
            assert!(
                (0.95..1.0).contains(&covered),
                "{trials} {p}/{q}: {covered}"
            );
        }
        let (distinct, index) =
            Coverage::per_chance(6, &[fraction(1, 6), fraction(1, 2), fraction(1, 6)]);
        assert_eq!(index, [0, 1, 0]);
        assert_eq!(distinct.len(), 2);
        assert_eq!(distinct[1].holds.len(), 7);
    }

    #[test]
    fn rejections_are_where_the_exact_p_value_is_at_most_5_percent() {
        for (trials, a, r) in [(10, 1, 1), (20, 1, 3), (57, 1, 2), (1, 1, 1), (30, 2, 3)] {
            let rejected = binomial_rejections(trials, a, r);
            let share = fraction(a as i64, (a + r) as i64);
            for (count, &rejects) in rejected.iter().enumerate() {
                let p = stats::binomial_p_value(count as u64, trials, &share);
                assert_eq!(rejects, to_f64(&p) <= 0.05, "{trials} {a}/{r}: {count}");
            }
        }
    }
}
