//! Tests of observed counts against exact expectations, shared by the
//! kinds that read real rolls and games (`die-test`, `seat-advantage`).
//!
//! Exact where the maths allows: binomial and multinomial p-values are sums
//! of exact probabilities, as reduced fractions. Floats only for figures
//! irrational by nature (chi-square p-values, Clopper-Pearson bounds, power),
//! from `statrs`'s regularized gamma and incomplete beta functions.

use crate::engine::combinatorics::{factorial, factorials};
use crate::engine::Exact;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use serde::{Deserialize, Serialize};
use statrs::distribution::{ChiSquared, ContinuousCDF};
use statrs::function::beta::inv_beta_reg;
use statrs::function::gamma::gamma_ur;

mod chi_power;
pub use chi_power::{chi_square_power, chi_square_rolls_needed, RollsNeeded, MOST_EXACT_ROLLS};

/// The confidence of every interval: 95 %.
pub(crate) const CONFIDENCE: f64 = 0.95;
/// The significance level of the power tables: 5 %.
pub(crate) const SIGNIFICANCE: f64 = 0.05;
/// The power asked of the power tables: 80 %.
pub(crate) const POWER: f64 = 0.8;
/// Relative advantages the power tables look for: 10 %, 25 %, 50 % more
/// often than fair.
pub(crate) const ADVANTAGES: [(u64, u64); 3] = [(1, 10), (1, 4), (1, 2)];

/// A chi-square statistic and its p-value (floats: irrational by nature).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChiSquare {
    /// The statistic.
    pub statistic: f64,
    /// Degrees of freedom.
    pub df: u64,
    /// The chance of a statistic at least this large under the fair model
    /// (float, from the chi-square distribution).
    pub p_value: f64,
}

impl ChiSquare {
    fn new(statistic: f64, df: u64) -> ChiSquare {
        ChiSquare {
            statistic,
            df,
            p_value: chi_square_tail(statistic, df),
        }
    }
}

/// P(X >= x) for X chi-square with `df` degrees of freedom: the upper
/// regularized gamma function Q(df/2, x/2).
pub(crate) fn chi_square_tail(x: f64, df: u64) -> f64 {
    if df == 0 {
        return 1.0;
    }
    if x <= 0.0 {
        return 1.0;
    }
    gamma_ur(df as f64 / 2.0, x / 2.0)
}

/// Pearson's chi-square of `observed` against `expected` (same total).
/// Categories expected never are left out (they cannot be observed).
pub(crate) fn pearson(observed: &[u64], expected: &[f64]) -> ChiSquare {
    let mut statistic = 0.0;
    let mut categories = 0u64;
    for (&o, &e) in observed.iter().zip(expected) {
        if e > 0.0 {
            statistic += (o as f64 - e).powi(2) / e;
            categories += 1;
        }
    }
    ChiSquare::new(statistic, categories.saturating_sub(1))
}

/// The G-test (log-likelihood ratio, scipy's `power_divergence` with
/// `lambda_="log-likelihood"`): G = 2 sum o ln(o / e).
pub(crate) fn g_test(observed: &[u64], expected: &[f64]) -> ChiSquare {
    let mut statistic = 0.0;
    let mut categories = 0u64;
    for (&o, &e) in observed.iter().zip(expected) {
        if e > 0.0 {
            if o > 0 {
                statistic += 2.0 * o as f64 * (o as f64 / e).ln();
            }
            categories += 1;
        }
    }
    ChiSquare::new(statistic.max(0.0), categories.saturating_sub(1))
}

/// The exact (Clopper-Pearson) interval for a proportion with `successes`
/// in `trials`, at [`CONFIDENCE`]: beta quantiles, so it never undercovers.
pub(crate) fn clopper_pearson(successes: u64, trials: u64) -> [f64; 2] {
    if trials == 0 {
        return [0.0, 1.0];
    }
    let alpha = 1.0 - CONFIDENCE;
    let (k, n) = (successes as f64, trials as f64);
    let lower = if successes == 0 {
        0.0
    } else {
        inv_beta_reg(k, n - k + 1.0, alpha / 2.0)
    };
    let upper = if successes == trials {
        1.0
    } else {
        inv_beta_reg(k + 1.0, n - k, 1.0 - alpha / 2.0)
    };
    [lower, upper]
}

/// The exact two-sided binomial test of `successes` in `trials` with chance
/// `share` each, as scipy's `binomtest`: the probability of every outcome no
/// more likely than the one observed, summed exactly (scipy compares with a
/// relative tolerance of 1e-7; here ties are exact).
#[cfg(test)]
pub(crate) fn binomial_p_value(successes: u64, trials: u64, share: &Exact) -> Exact {
    binomial_p_values(&[successes], trials, share).remove(0)
}

/// [`binomial_p_value`] for several observed counts of the same trials and
/// share (every seat of a table): two passes over the outcomes whatever
/// their number, in memory for one weight at a time.
pub(crate) fn binomial_p_values(successes: &[u64], trials: u64, share: &Exact) -> Vec<Exact> {
    // With share = a/b, P(k) = C(n,k) a^k (b-a)^(n-k) / b^n: compare and
    // sum the integer weights, divide once.
    let a = share.numer().magnitude().clone();
    let b = share.denom().magnitude().clone();
    let rest = &b - &a;
    let mut targets = vec![BigUint::zero(); successes.len()];
    binomial_weights(trials, &a, &rest, |k, weight| {
        for (target, _) in targets.iter_mut().zip(successes).filter(|(_, &s)| s == k) {
            *target = weight.clone();
        }
    });
    let mut tails = vec![BigUint::zero(); successes.len()];
    binomial_weights(trials, &a, &rest, |_, weight| {
        for (tail, target) in tails.iter_mut().zip(&targets) {
            if weight <= target {
                *tail += weight;
            }
        }
    });
    let whole = BigInt::from(b.pow(trials as u32));
    tails
        .into_iter()
        .map(|tail| Exact::new(BigInt::from(tail), whole.clone()))
        .collect()
}

/// Hand C(n,k) a^k r^(n-k) for k = 0..=n to `each`, each weight from the
/// one before: W(k+1) = W(k) (n-k) a / ((k+1) r), an exact division.
pub(crate) fn binomial_weights(
    n: u64,
    a: &BigUint,
    r: &BigUint,
    mut each: impl FnMut(u64, &BigUint),
) {
    if r.is_zero() {
        // A sure thing: every trial succeeds.
        for k in 0..=n {
            let weight = if k == n {
                a.pow(n as u32)
            } else {
                BigUint::zero()
            };
            each(k, &weight);
        }
        return;
    }
    let mut weight = r.pow(n as u32);
    for k in 0..=n {
        each(k, &weight);
        if k < n {
            weight = weight * (n - k) * a / (r * (k + 1));
        }
    }
}

/// The exact multinomial test: with category weights `ways` (chance
/// ways[i] / sum), the probability of every outcome of `observed.iter().sum()`
/// trials no more likely than `observed`. Categories of equal weight are
/// exchangeable, so only outcomes sorted within each such group are visited,
/// each counted with its number of arrangements. `None` when more than
/// `limit` outcomes would be visited.
pub(crate) fn multinomial_p_value(observed: &[u64], ways: &[u64], limit: u64) -> Option<Exact> {
    let trials: u64 = observed.iter().sum();
    if multinomial_outcomes(trials, ways)? > limit as f64 {
        return None;
    }
    let order = grouped_order(ways);
    let weights: Vec<u64> = order.iter().map(|&i| ways[i]).collect();
    let factorials = factorials(trials);
    let target = multinomial_weight(
        &order.iter().map(|&i| observed[i]).collect::<Vec<_>>(),
        &weights,
        &factorials,
    );
    let mut search = Search {
        weights: &weights,
        factorials: &factorials,
        target: &target,
        counts: vec![0; weights.len()],
        tail: BigUint::zero(),
    };
    search.visit(0, trials);
    let total: u64 = ways.iter().sum();
    Some(Exact::new(
        BigInt::from(search.tail),
        BigInt::from(BigUint::from(total).pow(trials as u32)),
    ))
}

/// Category indices with equal weights next to each other.
fn grouped_order(ways: &[u64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ways.len()).collect();
    order.sort_by_key(|&i| (ways[i], i));
    order
}

/// How many outcomes [`multinomial_p_value`] visits: partitions of the
/// trials into groups, each group's counts sorted. Counted exactly by
/// dynamic programming when small, `None` (too many) when even the
/// estimate C(n+k-1, k-1) / prod(g!) is far over any limit.
pub(crate) fn multinomial_outcomes(trials: u64, ways: &[u64]) -> Option<f64> {
    let order = grouped_order(ways);
    let mut groups: Vec<u64> = Vec::new();
    let mut last = None;
    for &i in &order {
        if last == Some(ways[i]) {
            *groups.last_mut().expect("a group") += 1;
        } else {
            groups.push(1);
            last = Some(ways[i]);
        }
    }
    let k = ways.len() as f64;
    let n = trials as f64;
    let ln_estimate = statrs::function::gamma::ln_gamma(n + k)
        - statrs::function::gamma::ln_gamma(n + 1.0)
        - statrs::function::gamma::ln_gamma(k)
        - groups
            .iter()
            .map(|&g| statrs::function::gamma::ln_gamma(g as f64 + 1.0))
            .sum::<f64>();
    if ln_estimate > 40.0 || trials > 20_000 {
        return None;
    }
    // Ways to split t trials into a group of g sorted counts: partitions of
    // t into at most g parts; then convolve the groups.
    let t = trials as usize;
    let mut total = vec![0.0f64; t + 1];
    total[0] = 1.0;
    for &g in &groups {
        let mut parts = vec![0.0f64; t + 1];
        parts[0] = 1.0;
        for size in 1..=g as usize {
            for m in size..=t {
                parts[m] += parts[m - size];
            }
        }
        let mut next = vec![0.0f64; t + 1];
        for (m, &left) in total.iter().enumerate() {
            if left == 0.0 {
                continue;
            }
            for (j, &here) in parts[..=t - m].iter().enumerate() {
                next[m + j] += left * here;
            }
        }
        total = next;
    }
    Some(total[t])
}

/// n! / prod(c_i!) * prod(w_i^c_i): an outcome's probability times total^n.
fn multinomial_weight(counts: &[u64], weights: &[u64], factorials: &[BigUint]) -> BigUint {
    let trials: u64 = counts.iter().sum();
    let mut denominator = BigUint::one();
    let mut powers = BigUint::one();
    for (&c, &w) in counts.iter().zip(weights) {
        denominator *= &factorials[c as usize];
        if w != 1 {
            powers *= BigUint::from(w).pow(c as u32);
        }
    }
    &factorials[trials as usize] / denominator * powers
}

/// The depth-first walk of [`multinomial_p_value`].
struct Search<'a> {
    weights: &'a [u64],
    factorials: &'a [BigUint],
    target: &'a BigUint,
    counts: Vec<u64>,
    tail: BigUint,
}

impl Search<'_> {
    /// Choose the count of category `at` from what is `left`; within a
    /// group of equal weights counts never increase.
    fn visit(&mut self, at: usize, left: u64) {
        let same_group = at > 0 && self.weights[at - 1] == self.weights[at];
        let most = if same_group {
            left.min(self.counts[at - 1])
        } else {
            left
        };
        if at + 1 == self.weights.len() {
            if left > most {
                return;
            }
            self.counts[at] = left;
            let weight = multinomial_weight(&self.counts, self.weights, self.factorials);
            if weight <= *self.target {
                self.tail += weight * self.arrangements();
            }
            return;
        }
        for count in (0..=most).rev() {
            self.counts[at] = count;
            self.visit(at + 1, left - count);
        }
        self.counts[at] = 0;
    }

    /// Distinct orders of the current counts within each group of equal
    /// weights: g! / prod(multiplicity of each count)!.
    fn arrangements(&self) -> BigUint {
        let mut result = BigUint::one();
        let mut start = 0;
        while start < self.weights.len() {
            let mut end = start;
            while end < self.weights.len() && self.weights[end] == self.weights[start] {
                end += 1;
            }
            let group = &self.counts[start..end];
            let mut ways = factorial(group.len() as u64);
            let mut run = 1u64;
            for i in 1..=group.len() {
                if i < group.len() && group[i] == group[i - 1] {
                    run += 1;
                } else {
                    ways /= factorial(run);
                    run = 1;
                }
            }
            result *= ways;
            start = end;
        }
        result
    }
}

/// Trials needed for the chi-square test at [`SIGNIFICANCE`] to detect,
/// with [`POWER`], the chances `alternative` instead of `fair` (each
/// summing to 1): the least n whose noncentral chi-square, of noncentrality
/// n * sum (p1 - p0)^2 / p0, passes the critical value that often. `None`
/// beyond a billion trials.
pub(crate) fn chi_square_trials_needed(fair: &[f64], alternative: &[f64]) -> Option<u64> {
    let df = fair.iter().filter(|&&p| p > 0.0).count().saturating_sub(1) as u64;
    if df == 0 {
        return None;
    }
    let per_trial: f64 = fair
        .iter()
        .zip(alternative)
        .filter(|(p0, _)| **p0 > 0.0)
        .map(|(p0, p1)| (p1 - p0).powi(2) / p0)
        .sum();
    if per_trial <= 0.0 {
        return None;
    }
    let critical = chi_square_critical(df)?;
    let power = |n: u64| noncentral_chi_square_tail(critical, df, n as f64 * per_trial);
    least_trials(power)
}

/// The statistic beyond which the chi-square test with `df` degrees of
/// freedom rejects at [`SIGNIFICANCE`]; `None` for no degrees of freedom.
pub(crate) fn chi_square_critical(df: u64) -> Option<f64> {
    Some(
        ChiSquared::new(df as f64)
            .ok()?
            .inverse_cdf(1.0 - SIGNIFICANCE),
    )
}

/// The most trials (rolls, games) a search for the trials needed looks
/// at: a bias that needs more is never noticed.
pub(crate) const MOST_TRIALS: u64 = 1_000_000_000;

/// The least n with `power(n) >= POWER`, by doubling then bisection.
fn least_trials(power: impl Fn(u64) -> f64) -> Option<u64> {
    let mut high = 1u64;
    while power(high) < POWER {
        high *= 2;
        if high > MOST_TRIALS {
            return None;
        }
    }
    let mut low = high / 2;
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if power(middle) >= POWER {
            high = middle;
        } else {
            low = middle;
        }
    }
    Some(high)
}

/// P(X >= x) for X noncentral chi-square: a Poisson(lambda/2) mixture of
/// central chi-squares with df + 2j degrees of freedom.
fn noncentral_chi_square_tail(x: f64, df: u64, lambda: f64) -> f64 {
    let half = lambda / 2.0;
    let centre = half.floor() as u64;
    let ln_poisson =
        |j: u64| -half + j as f64 * half.ln() - statrs::function::gamma::ln_gamma(j as f64 + 1.0);
    let term = |j: u64| {
        let weight = if half == 0.0 {
            if j == 0 {
                1.0
            } else {
                0.0
            }
        } else {
            ln_poisson(j).exp()
        };
        weight * chi_square_tail(x, df + 2 * j)
    };
    // Sum outwards from the Poisson mode until the weights vanish.
    let mut sum = term(centre);
    let spread = (half.sqrt() * 12.0).ceil() as u64 + 20;
    for j in (centre.saturating_sub(spread)..centre).rev() {
        sum += term(j);
    }
    for j in centre + 1..=centre + spread {
        sum += term(j);
    }
    sum.min(1.0)
}

/// The most trials [`binomial_exact_trials_needed`] searches: each try
/// costs one pass over every count, so the search stays under a second.
pub(crate) const MOST_EXACT_TRIALS: u64 = 2_000_000;

/// The power of the exact two-sided binomial test at [`SIGNIFICANCE`] (the
/// test of [`binomial_p_value`]: reject the least likely counts under
/// `fair`, ties together, while their chances add up to at most 5 %) when
/// each trial succeeds with chance `alternative`. In floats: a power is a
/// planning figure, not one the site calls exact.
pub(crate) fn binomial_exact_power(trials: u64, fair: f64, alternative: f64) -> f64 {
    let n = trials as usize;
    // Log chances by the recurrence ln C(n,k+1) = ln C(n,k) + ln((n-k)/(k+1)),
    // so nothing underflows before it is compared.
    let log_chances = |p: f64| {
        let (ln_p, ln_q) = (p.ln(), (1.0 - p).ln());
        // No factor at all for none of an outcome: a chance of 0 or 1 has
        // a log of -inf, and 0 times it is no number.
        let times = |count: usize, ln: f64| if count == 0 { 0.0 } else { count as f64 * ln };
        let mut logs = Vec::with_capacity(n + 1);
        let mut ln_choose = 0.0f64;
        for k in 0..=n {
            logs.push(ln_choose + times(k, ln_p) + times(n - k, ln_q));
            if k < n {
                ln_choose += ((n - k) as f64).ln() - ((k + 1) as f64).ln();
            }
        }
        logs
    };
    let under_fair = log_chances(fair);
    let under_alternative = log_chances(alternative);
    // Chances rise to a peak and fall: the least likely count left is at
    // one end, so two walks inward find the rejected counts in order.
    let tied = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
    let (mut left, mut right) = (0usize, n as isize);
    let (mut rejected_chance, mut power) = (0.0f64, 0.0f64);
    while (left as isize) <= right {
        let least = under_fair[left].min(under_fair[right as usize]);
        let (mut group_fair, mut group_alternative) = (0.0, 0.0);
        while (left as isize) <= right && tied(under_fair[left], least) {
            group_fair += under_fair[left].exp();
            group_alternative += under_alternative[left].exp();
            left += 1;
        }
        while (left as isize) <= right && tied(under_fair[right as usize], least) {
            group_fair += under_fair[right as usize].exp();
            group_alternative += under_alternative[right as usize].exp();
            right -= 1;
        }
        rejected_chance += group_fair;
        if rejected_chance > SIGNIFICANCE * (1.0 + 1e-12) {
            break;
        }
        power += group_alternative;
    }
    power.min(1.0)
}

/// Trials the exact binomial test at [`SIGNIFICANCE`] needs to notice, with
/// [`POWER`], a chance `alternative` instead of `fair`: the least n whose
/// [`binomial_exact_power`] reaches 80 %. The power of an exact test rises
/// in a saw-tooth, so the search brackets by doubling, bisects, then walks
/// down through the teeth below. `None` past [`MOST_EXACT_TRIALS`].
pub(crate) fn binomial_exact_trials_needed(fair: f64, alternative: f64) -> Option<u64> {
    // A certain alternative (0 or 1) is noticed as any other: the fewest
    // trials whose every outcome alike is rejected.
    if alternative == fair || !(0.0..=1.0).contains(&alternative) || !(0.0..1.0).contains(&fair) {
        return None;
    }
    let power = |n: u64| binomial_exact_power(n, fair, alternative);
    let mut high = 1u64;
    while power(high) < POWER {
        high *= 2;
        if high > 2 * MOST_EXACT_TRIALS {
            return None;
        }
    }
    let mut low = high / 2;
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if power(middle) >= POWER {
            high = middle;
        } else {
            low = middle;
        }
    }
    // A tooth below may already reach the power: look a few teeth down.
    let window = (high / 20).clamp(10, 200);
    let least = (high.saturating_sub(window).max(1)..high)
        .find(|&n| power(n) >= POWER)
        .unwrap_or(high);
    (least <= MOST_EXACT_TRIALS).then_some(least)
}

/// A fraction as a float, for the float statistics.
pub(crate) fn share_f64(value: &Exact) -> f64 {
    crate::engine::to_f64(value)
}

/// `1 + advantage`, times `fair`: the chance of a face or seat favoured
/// by that relative advantage.
pub fn favoured(fair: &Exact, advantage: (u64, u64)) -> Exact {
    let (p, q) = advantage;
    fair * Exact::new(BigInt::from(p + q), BigInt::from(q))
}

/// Whether an exact share lies within a float interval.
pub fn within(interval: &[f64; 2], share: &Exact) -> bool {
    let value = share_f64(share);
    interval[0] <= value && value <= interval[1]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    #[test]
    fn the_textbook_die_gives_chi_square_13_4() {
        // A d6 rolled 60 times: 5, 8, 9, 8, 10, 20 (chi-square 13.4, 5 df).
        let observed = [5, 8, 9, 8, 10, 20];
        let chi = pearson(&observed, &[10.0; 6]);
        close(chi.statistic, 13.4, 1e-12);
        assert_eq!(chi.df, 5);
        // scipy.stats.chisquare: p = 0.019905220334774376.
        close(chi.p_value, 0.019_905_220_334_774_376, 1e-12);
        // scipy.stats.power_divergence(lambda_="log-likelihood"):
        // G = 11.757332492902774, p = 0.03826850658297484.
        let g = g_test(&observed, &[10.0; 6]);
        close(g.statistic, 11.757_332_492_902_774, 1e-10);
        close(g.p_value, 0.038_268_506_582_974_84, 1e-10);
    }

    #[test]
    fn clopper_pearson_matches_published_values() {
        // statsmodels proportion_confint(7, 20, method="beta"):
        // (0.15390920478454118, 0.5921885345328282).
        let [lo, hi] = clopper_pearson(7, 20);
        close(lo, 0.153_909_204_784_541_18, 1e-9);
        close(hi, 0.592_188_534_532_828_2, 1e-9);
        // None in 10: the upper bound is 1 - 0.025^(1/10) in closed form.
        let [lo, hi] = clopper_pearson(0, 10);
        assert_eq!(lo, 0.0);
        close(hi, 1.0 - 0.025f64.powf(0.1), 1e-12);
        let [lo, hi] = clopper_pearson(10, 10);
        close(lo, 0.025f64.powf(0.1), 1e-12);
        assert_eq!(hi, 1.0);
    }

    /// Every outcome's probability, the brute-force way.
    fn brute_binomial(k: u64, n: u64, p: &Exact) -> Exact {
        let q = Exact::one() - p;
        let probability = |j: u64| {
            let c = (0..j).fold(Exact::one(), |acc, i| {
                acc * Exact::new(BigInt::from(n - i), BigInt::from(i + 1))
            });
            c * num_traits::pow(p.clone(), j as usize)
                * num_traits::pow(q.clone(), (n - j) as usize)
        };
        let observed = probability(k);
        (0..=n)
            .map(probability)
            .filter(|pr| *pr <= observed)
            .fold(Exact::zero(), |a, b| a + b)
    }

    #[test]
    fn binomial_p_values_match_enumeration() {
        for n in 0..=12u64 {
            for k in 0..=n {
                for (a, b) in [(1, 2), (1, 3), (1, 4), (2, 5)] {
                    let share = Exact::new(BigInt::from(a), BigInt::from(b));
                    assert_eq!(
                        binomial_p_value(k, n, &share),
                        brute_binomial(k, n, &share),
                        "{k} of {n} at {a}/{b}"
                    );
                }
            }
        }
        // scipy.stats.binomtest(62, 100, 0.5).pvalue = 0.02097873567785...
        let half = Exact::new(1.into(), 2.into());
        close(
            share_f64(&binomial_p_value(62, 100, &half)),
            0.020_978_735_677_851_1,
            1e-12,
        );
    }

    /// Every outcome of n trials over the categories, the brute-force way.
    fn brute_multinomial(observed: &[u64], ways: &[u64]) -> Exact {
        let n: u64 = observed.iter().sum();
        let k = ways.len();
        let mut outcomes = vec![vec![]];
        for _ in 0..k {
            outcomes = outcomes
                .into_iter()
                .flat_map(|prefix: Vec<u64>| {
                    let used: u64 = prefix.iter().sum();
                    (0..=n - used).map(move |c| {
                        let mut next = prefix.clone();
                        next.push(c);
                        next
                    })
                })
                .collect();
        }
        let fact = factorials(n);
        let target = multinomial_weight(observed, ways, &fact);
        let total: u64 = ways.iter().sum();
        let tail: BigUint = outcomes
            .iter()
            .filter(|o| o.iter().sum::<u64>() == n)
            .map(|o| multinomial_weight(o, ways, &fact))
            .filter(|w| *w <= target)
            .sum();
        Exact::new(
            BigInt::from(tail),
            BigInt::from(BigUint::from(total).pow(n as u32)),
        )
    }

    #[test]
    fn multinomial_p_values_match_enumeration() {
        let cases: [(&[u64], &[u64]); 6] = [
            (&[2, 0, 1, 3], &[1, 1, 1, 1]),
            (&[5, 1, 0], &[1, 1, 1]),
            (&[1, 1, 1, 1, 1, 1], &[1, 1, 1, 1, 1, 1]),
            (&[4, 2, 2], &[2, 1, 1]),
            (&[0, 3, 1, 2], &[2, 1, 1, 3]),
            (&[3, 3, 0, 1, 1], &[1, 2, 1, 2, 1]),
        ];
        for (observed, ways) in cases {
            assert_eq!(
                multinomial_p_value(observed, ways, u64::MAX).unwrap(),
                brute_multinomial(observed, ways),
                "{observed:?} with ways {ways:?}"
            );
        }
        assert_eq!(
            multinomial_p_value(&[1000, 0, 0, 0, 0, 0], &[1; 6], 1000),
            None
        );
    }

    #[test]
    fn outcomes_are_counted_exactly() {
        // Partitions of 6 into at most 3 parts: 7.
        assert_eq!(multinomial_outcomes(6, &[1, 1, 1]), Some(7.0));
        // Distinct weights: all C(6+2, 2) = 28 compositions.
        assert_eq!(multinomial_outcomes(6, &[1, 2, 3]), Some(28.0));
        assert_eq!(multinomial_outcomes(1_000_000, &[1; 20]), None);
    }

    #[test]
    fn power_grows_with_the_advantage() {
        // One face of a d6 at 1.5/6, the rest sharing the remainder.
        let fair = [1.0 / 6.0; 6];
        let mut alternative = [(1.0 - 0.25) / 5.0; 6];
        alternative[0] = 0.25;
        let strong = chi_square_trials_needed(&fair, &alternative).unwrap();
        alternative = [(1.0 - 1.1 / 6.0) / 5.0; 6];
        alternative[0] = 1.1 / 6.0;
        let weak = chi_square_trials_needed(&fair, &alternative).unwrap();
        assert!(strong < weak, "{strong} {weak}");
        // Cohen's tables: effect w = 0.5 with 5 df needs n = 51 for 80 %
        // power; scipy.stats.ncx2.sf(11.070497693516351, 5, 51 * 0.25)
        // = 0.7972061109605708.
        close(
            noncentral_chi_square_tail(11.070_497_693_516_351, 5, 12.75),
            0.797_206_110_960_570_8,
            1e-9,
        );
        assert_eq!(least_trials(|n| if n >= 37 { 0.9 } else { 0.1 }), Some(37));
    }

    /// The exact test's power, summed by hand over its rejection region, and
    /// over the region found by brute force with big integers.
    #[test]
    fn the_exact_binomial_tests_power_is_summed_over_its_rejection_region() {
        // n = 10, fair 1/2: P(X <= 1) + P(X >= 9) = 22/1024 <= 5 %, adding
        // 2 and 8 gives 112/1024 > 5 %: the test rejects 0, 1, 9 and 10.
        let p: f64 = 0.7;
        let by_hand: f64 = [0u32, 1, 9, 10]
            .iter()
            .map(|&k| {
                let choose = [
                    1.0, 10.0, 45.0, 120.0, 210.0, 252.0, 210.0, 120.0, 45.0, 10.0, 1.0,
                ][k as usize];
                choose * p.powi(k as i32) * (1.0 - p).powi(10 - k as i32)
            })
            .sum();
        close(binomial_exact_power(10, 0.5, 0.7), by_hand, 1e-12);
        // A fair share of 1/4 against its rejection region found by brute
        // force in integers: under 1/4 count k has weight C(n,k) 3^(n-k) of
        // 4^n; a count is rejected when the counts no more likely than it
        // weigh at most 5 % (20 * sum <= 4^n).
        for trials in [7u64, 40, 101, 257] {
            let weights: Vec<BigUint> = (0..=trials)
                .map(|k| {
                    crate::engine::combinatorics::binomial(trials, k)
                        * BigUint::from(3u32).pow((trials - k) as u32)
                })
                .collect();
            let whole = BigUint::from(4u32).pow(trials as u32);
            let rejected: Vec<bool> = weights
                .iter()
                .map(|w| {
                    let tail: BigUint = weights.iter().filter(|v| *v <= w).sum();
                    tail * 20u32 <= whole
                })
                .collect();
            let alternative: f64 = 0.375;
            let expected: f64 = rejected
                .iter()
                .enumerate()
                .filter(|(_, r)| **r)
                .map(|(k, _)| {
                    let k = k as u64;
                    let ln_choose = statrs::function::gamma::ln_gamma(trials as f64 + 1.0)
                        - statrs::function::gamma::ln_gamma(k as f64 + 1.0)
                        - statrs::function::gamma::ln_gamma((trials - k) as f64 + 1.0);
                    (ln_choose
                        + k as f64 * alternative.ln()
                        + (trials - k) as f64 * (1.0 - alternative).ln())
                    .exp()
                })
                .sum();
            close(
                binomial_exact_power(trials, 0.25, alternative),
                expected,
                1e-9,
            );
        }
    }

    #[test]
    fn the_exact_test_needs_more_games_than_the_normal_approximation_promised() {
        // The verification found 101 games of 4 players (the first winning
        // 50 % more often) noticed only 75 % of the time: 101 came from the
        // normal approximation. The exact search asks for enough.
        let needed = binomial_exact_trials_needed(0.25, 0.375).unwrap();
        assert!(binomial_exact_power(needed, 0.25, 0.375) >= POWER);
        assert!(binomial_exact_power(needed - 1, 0.25, 0.375) < POWER);
        assert!(needed > 101, "{needed}");
        assert!(binomial_exact_power(101, 0.25, 0.375) < 0.78);
        assert_eq!(binomial_exact_trials_needed(0.5, 0.5), None);
    }
}
