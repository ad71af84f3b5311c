//! The power of Pearson's chi-square test on a die from the test's own
//! statistic, not the noncentral chi-square approximation (which promised
//! 80 % at 257 rolls where the test reaches 76 %).
//!
//! With fair chances w_i / W, Pearson's statistic on n rolls is
//! X² = (W / (n L)) sum c_i o_i² - n with the integers c_i = L / w_i (L the
//! least common multiple of the w_i): the test rejects exactly when the
//! integer sum of weighted squares reaches a threshold. So the power is the
//! chance of that sum under the alternative, found by a dynamic program
//! over the faces on (rolls so far, sum so far). The probabilities are
//! floats: a power is a planning figure, not one the site calls exact.
//!
//! The program's cost grows fast with the rolls and the faces. Past its
//! cap, the power is conditioned on the favoured face instead: given that
//! face's count, the other faces fall as a fair die's do (the alternative
//! shares the rest in proportion), so their own statistic follows the
//! chi-square law of a fair die. The favoured face, whose bias the
//! noncentral approximation smooths away, is summed exactly; the fair
//! rest is the part the chi-square law describes well. Where both were
//! computed, the two powers differ by less than 0.002 (tested below).

use super::{chi_square_critical, chi_square_tail, MOST_TRIALS, POWER};
use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The most transitions of the dynamic program one search for the rolls
/// needed may take, over all its evaluations of the power (0.6 to 2.4 s
/// at the 2.5e7 to 1e8 steps a second measured); past it the search
/// keeps the conditioned power's answer.
pub const MOST_SEARCH_STEPS: u64 = 60_000_000;
/// The most rolls the exact search tries; beyond, the conditioned power.
pub const MOST_EXACT_ROLLS: u64 = 100_000;

/// Counts further than this many standard deviations (plus 3) from their
/// mean are left out: their chance is under 1e-8.
const SPREAD: f64 = 6.0;

/// States and transitions less likely than this are dropped.
const NEGLIGIBLE: f64 = 1e-14;

/// Rolls needed for the chi-square test to notice a bias, and how found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RollsNeeded {
    /// The least n at which the test's own power reaches [`POWER`], and
    /// that power.
    Exact(u64, f64),
    /// The least n at which the power conditioned on the favoured face
    /// ([`conditioned_power`]) reaches [`POWER`], and that power: the
    /// dynamic program was over its cost cap.
    Conditioned(u64, f64),
    /// No number of rolls up to [`MOST_TRIALS`].
    Never,
}

/// The chance that Pearson's chi-square test at the 5 % level (its
/// asymptotic critical value, as the page applies it) rejects a die whose
/// fair chances are `ways[i] / sum(ways)` after `trials` rolls, when the
/// faces really come up with chances `alternative`. `None` when the
/// dynamic program would take more than `most_steps` transitions, or the
/// weighted squares do not fit 64 bits.
pub fn chi_square_power(
    trials: u64,
    ways: &[u64],
    alternative: &[f64],
    most_steps: u64,
) -> Option<f64> {
    let mut steps_left = most_steps;
    power_within(trials, ways, alternative, &mut steps_left)
}

/// [`chi_square_power`], spending transitions from `steps_left`.
fn power_within(
    trials: u64,
    ways: &[u64],
    alternative: &[f64],
    steps_left: &mut u64,
) -> Option<f64> {
    let faces = ways.len();
    if faces < 2 || alternative.len() != faces || ways.contains(&0) {
        return None;
    }
    let critical = chi_square_critical(faces as u64 - 1)?;
    let lcm = ways
        .iter()
        .try_fold(1u64, |l, &w| l.checked_mul(w / num_integer::gcd(l, w)))?;
    let weights: Vec<u64> = ways.iter().map(|&w| lcm / w).collect();
    let total_ways: u64 = ways.iter().sum();
    let n = trials as f64;
    // X² >= critical  <=>  sum c_i o_i² >= (critical + n) n L / W.
    let threshold = ((critical + n) * n * lcm as f64 / total_ways as f64).ceil();
    let largest = *weights.iter().max()? as f64 * n * n;
    if threshold > 2f64.powi(52) || largest > 2f64.powi(52) {
        return None;
    }
    let threshold = threshold as u64;
    // The two faces with the widest spread close the program in closed
    // form: given the rolls left, their part is a convex quadratic in one
    // binomial count, so it reaches what is missing on two tails.
    let spread = |i: usize| alternative[i] * (1.0 - alternative[i]);
    let mut order: Vec<usize> = (0..faces).collect();
    order.sort_by(|&a, &b| spread(a).total_cmp(&spread(b)).then(a.cmp(&b)));
    let last = order.pop()?;
    let before_last = order.pop()?;
    let closing = Closing::new(
        trials,
        [weights[before_last], weights[last]],
        alternative[before_last] / (alternative[before_last] + alternative[last]),
    );
    let ln_factorial = ln_factorials(trials);
    let mut states: States = HashMap::default();
    states.insert(key(0, 0), 1.0);
    let (mut power, mut chance_left) = (0.0f64, 1.0f64);
    // sum c_j o_j² over the faces still to come is at least r² / sum 1/c_j
    // for r rolls left (the continuous minimum): past the threshold with
    // that, a state is rejected already.
    let mut harmonic: f64 = weights.iter().map(|&c| 1.0 / c as f64).sum();
    for &face in &order {
        // o_i given the rolls left is binomial with the face's share of
        // the chance left.
        let share = (alternative[face] / chance_left).clamp(0.0, 1.0);
        chance_left -= alternative[face];
        harmonic -= 1.0 / weights[face] as f64;
        let (lo, hi) = window(trials, alternative[face]);
        let mut next: States = HashMap::default();
        // The count's chances for each number of rolls left, once.
        let mut chances: HashMap<u64, Vec<f64>, BuildHasherDefault<Mix>> = HashMap::default();
        for (&state, &chance) in &states {
            let (used, sum) = unkey(state);
            let left = trials - used;
            let top = hi.min(left);
            if top < lo {
                continue;
            }
            *steps_left = steps_left.checked_sub(top - lo + 1)?;
            let pmf = chances.entry(left).or_insert_with(|| {
                (lo..=top)
                    .map(|count| binomial(&ln_factorial, left, count, share))
                    .collect()
            });
            for (count, &chance_of_count) in (lo..=top).zip(pmf.iter()) {
                let p = chance * chance_of_count;
                if p < NEGLIGIBLE {
                    continue;
                }
                let sum = sum + weights[face] * count * count;
                let rest = (left - count) as f64;
                if sum as f64 + rest * rest / harmonic >= threshold as f64 + 0.5 {
                    // What is left adds at least that: rejected already.
                    power += p;
                } else {
                    *next.entry(key(used + count, sum)).or_insert(0.0) += p;
                }
            }
        }
        states = next;
    }
    let mut closing = closing;
    *steps_left = steps_left.checked_sub(states.len() as u64)?;
    for (&state, &chance) in &states {
        let (used, sum) = unkey(state);
        power += chance * closing.reaches(trials - used, threshold.saturating_sub(sum));
    }
    Some(power.min(1.0))
}

/// The last two faces: with r rolls left, the first of them gets x of
/// them, binomial(r, share), and they add c0 x² + c1 (r - x)².
struct Closing {
    weights: [u64; 2],
    share: f64,
    ln_factorial: Vec<f64>,
    /// Per rolls left: P(X <= x) and P(X >= x), each summed from its own
    /// end so small tails keep their digits.
    tails: HashMap<u64, (Vec<f64>, Vec<f64>)>,
}

impl Closing {
    fn new(trials: u64, weights: [u64; 2], share: f64) -> Closing {
        Closing {
            weights,
            share,
            ln_factorial: ln_factorials(trials),
            tails: HashMap::new(),
        }
    }

    /// P(c0 X² + c1 (r - X)² >= missing).
    fn reaches(&mut self, r: u64, missing: u64) -> f64 {
        let (low, high) = match reaching(self.weights, r, missing as u128) {
            Reaching::All => return 1.0,
            Reaching::Tails(low, high) => (low, high),
        };
        let (share, ln_factorial) = (self.share, &self.ln_factorial);
        let (below, above) = self.tails.entry(r).or_insert_with(|| {
            let pmf: Vec<f64> = (0..=r)
                .map(|x| binomial(ln_factorial, r, x, share))
                .collect();
            let mut below = pmf.clone();
            for x in 1..below.len() {
                below[x] += below[x - 1];
            }
            let mut above = pmf;
            for x in (0..above.len() - 1).rev() {
                above[x] += above[x + 1];
            }
            (below, above)
        });
        low.map_or(0.0, |x| below[x as usize]) + high.map_or(0.0, |x| above[x as usize])
    }
}

/// Which splits (x, r - x) of r rolls between two faces of weights
/// `[c0, c1]` make c0 x² + c1 (r - x)² reach `missing`.
enum Reaching {
    /// Every split.
    All,
    /// Every x up to the first and every x from the second (`None`: no x
    /// on that side): the sum is a convex quadratic in x.
    Tails(Option<u64>, Option<u64>),
}

fn reaching([c0, c1]: [u64; 2], r: u64, missing: u128) -> Reaching {
    let (c0, c1, r128) = (c0 as u128, c1 as u128, r as u128);
    let value = |x: u64| c0 * (x as u128).pow(2) + c1 * (r128 - x as u128).pow(2);
    // The quadratic's least point, then the largest x below it and the
    // least above it that still reach `missing`.
    let centre = ((c1 * r128) as f64 / (c0 + c1) as f64).round() as u64;
    let centre = centre.min(r);
    if value(centre) >= missing {
        return Reaching::All;
    }
    let a = (c0 + c1) as f64;
    let (b, c) = (
        -2.0 * (c1 * r128) as f64,
        (c1 * r128 * r128) as f64 - missing as f64,
    );
    let root = (b * b - 4.0 * a * c).max(0.0).sqrt();
    let guess_low = ((-b - root) / (2.0 * a)).floor().clamp(0.0, centre as f64) as u64;
    let guess_high = ((-b + root) / (2.0 * a))
        .ceil()
        .clamp(centre as f64, r as f64) as u64;
    // Nudge the float roots onto the exact integers.
    let mut low = Some(guess_low);
    while let Some(x) = low {
        if value(x) >= missing {
            break;
        }
        low = x.checked_sub(1);
    }
    while let Some(x) = low {
        if x < centre && value(x + 1) >= missing {
            low = Some(x + 1);
        } else {
            break;
        }
    }
    let mut high = Some(guess_high);
    while let Some(x) = high {
        if value(x) >= missing {
            break;
        }
        high = (x < r).then_some(x + 1);
    }
    while let Some(x) = high {
        if x > centre && value(x - 1) >= missing {
            high = Some(x - 1);
        } else {
            break;
        }
    }
    Reaching::Tails(low, high)
}

/// The least rolls at which the chi-square test notices, with [`POWER`],
/// chances `alternative` on a die of `ways` whose face `favoured` is
/// biased and whose other faces share the rest in proportion to `ways`.
/// `start` is where to look first (the noncentral approximation's n, or
/// `None` when the bias is nothing to notice). The conditioned power
/// finds the crossing; the test's own power then settles it where the
/// dynamic program fits its cap (and `try_exact`: the caller knows a
/// smaller search was already over it).
pub fn chi_square_rolls_needed(
    ways: &[u64],
    alternative: &[f64],
    favoured: usize,
    start: Option<u64>,
    try_exact: bool,
) -> RollsNeeded {
    let Some(start) = start else {
        return RollsNeeded::Never;
    };
    let Some((guess, conditioned)) = conditioned_search(ways, alternative, favoured, start) else {
        return RollsNeeded::Never;
    };
    let exact = if try_exact {
        exact_search(ways, alternative, guess)
    } else {
        None
    };
    match exact {
        Some((n, power)) => RollsNeeded::Exact(n, power),
        None => RollsNeeded::Conditioned(guess, conditioned),
    }
}

/// The least n whose [`conditioned_power`] reaches [`POWER`]: bracketed
/// from `start`, then bisected (the conditioned power rises smoothly);
/// with that power.
fn conditioned_search(
    ways: &[u64],
    alternative: &[f64],
    favoured: usize,
    start: u64,
) -> Option<(u64, f64)> {
    let power = |n: u64| conditioned_power(n, ways, alternative, favoured);
    let reaches = |n: u64| -> Option<bool> { Some(power(n)? >= POWER) };
    let start = start.clamp(1, MOST_TRIALS);
    let (mut low, mut high) = if reaches(start)? {
        let mut high = start;
        loop {
            let low = high * 7 / 8;
            if low == 0 || !reaches(low)? {
                break (low, high);
            }
            high = low;
        }
    } else {
        let mut low = start;
        loop {
            if low >= MOST_TRIALS {
                return None;
            }
            let high = (low + low / 8 + 1).min(MOST_TRIALS);
            if reaches(high)? {
                break (low, high);
            }
            low = high;
        }
    };
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if reaches(middle)? {
            high = middle;
        } else {
            low = middle;
        }
    }
    Some((high, power(high)?))
}

/// The least n near `guess` at which the test's own power reaches
/// [`POWER`]: walked from `guess` to the crossing, then a few teeth of
/// the saw-tooth a lattice statistic gives are tried below it. `None`
/// when an evaluation is over the cost cap or past [`MOST_EXACT_ROLLS`].
/// With the power there.
fn exact_search(ways: &[u64], alternative: &[f64], guess: u64) -> Option<(u64, f64)> {
    /// The conditioned guess is off by a roll or two; further means the
    /// walk is not worth its cost.
    const MOST_WALK: u64 = 40;
    let steps_left = Cell::new(MOST_SEARCH_STEPS);
    let powers: std::cell::RefCell<HashMap<u64, f64>> = Default::default();
    let reaches = |n: u64| -> Option<bool> {
        if n > MOST_EXACT_ROLLS {
            return None;
        }
        if let Some(&power) = powers.borrow().get(&n) {
            return Some(power >= POWER);
        }
        let mut left = steps_left.get();
        let power = power_within(n, ways, alternative, &mut left);
        steps_left.set(left);
        powers.borrow_mut().insert(n, power?);
        Some(power? >= POWER)
    };
    let found = |n: u64| Some((n, *powers.borrow().get(&n)?));
    // The search takes about seven evaluations: one that alone costs more
    // than a sixth of the steps gives up at once.
    steps_left.set(MOST_SEARCH_STEPS / 6);
    let first = reaches(guess.max(1))?;
    steps_left.set(steps_left.get() + MOST_SEARCH_STEPS - MOST_SEARCH_STEPS / 6);
    let mut n = guess.max(1);
    if first {
        while n > 1 && reaches(n - 1)? {
            n -= 1;
            if guess - n > MOST_WALK {
                return None;
            }
        }
    } else {
        loop {
            n += 1;
            if n - guess > MOST_WALK {
                return None;
            }
            if reaches(n)? {
                break;
            }
        }
    }
    // n reaches and n - 1 does not. A two-faced die's statistic moves in
    // big steps (its power saw-tooth is deep, and each evaluation cheap);
    // with more faces the teeth are shallow.
    let window = if ways.len() == 2 {
        (n / 20).clamp(10, 200)
    } else {
        5
    };
    for below in n.saturating_sub(window + 1).max(1)..n.saturating_sub(1) {
        if reaches(below)? {
            return found(below);
        }
    }
    found(n)
}

/// The power of the chi-square test at `trials` rolls, conditioned on the
/// favoured face's count m (binomial, summed exactly over every m that
/// matters): given m, the other faces are a fair die's over the rolls
/// left, so the chance that their weighted squares make up what m leaves
/// missing is read from their own statistic's chi-square law (with
/// `faces - 2` degrees of freedom; exact for one or two other faces). Needs
/// `alternative` proportional to `ways` off the favoured face. `None` for
/// a die of one face or weights past 64 bits.
pub(crate) fn conditioned_power(
    trials: u64,
    ways: &[u64],
    alternative: &[f64],
    favoured: usize,
) -> Option<f64> {
    let faces = ways.len();
    if faces < 2 || alternative.len() != faces || ways.contains(&0) || favoured >= faces {
        return None;
    }
    let critical = chi_square_critical(faces as u64 - 1)?;
    let lcm = ways
        .iter()
        .try_fold(1u64, |l, &w| l.checked_mul(w / num_integer::gcd(l, w)))?;
    let weight = |face: usize| (lcm / ways[face]) as f64;
    let total_ways: u64 = ways.iter().sum();
    let rest_ways = (total_ways - ways[favoured]) as f64;
    let n = trials as f64;
    // X² >= critical  <=>  sum c_i o_i² >= threshold, as in the program.
    let threshold = ((critical + n) * n * lcm as f64 / total_ways as f64).ceil();
    let rest_df = faces as u64 - 2;
    let others: Vec<usize> = (0..faces).filter(|&i| i != favoured).collect();
    let rejects = |m: u64| -> f64 {
        let missing = threshold - weight(favoured) * (m as f64).powi(2);
        let left = n - m as f64;
        if missing <= 0.0 {
            return 1.0;
        }
        if rest_df == 0 {
            // One other face: its part is fixed.
            return f64::from(weight(others[0]) * left * left >= missing);
        }
        if rest_df == 1 {
            // Two: their split is binomial, and its tails are exact.
            let (a, b) = (others[0], others[1]);
            let weights = [lcm / ways[a], lcm / ways[b]];
            let share = ways[a] as f64 / (ways[a] + ways[b]) as f64;
            return two_faces_reach(weights, share, trials - m, missing as u128);
        }
        if left == 0.0 {
            return 0.0;
        }
        // The rest's statistic is (W_rest / (r L)) sum c_i o_i² - r. On a
        // plain die the sum moves in steps of two, so its tail is read
        // half a step (one) below what is missing.
        let statistic = rest_ways / (left * lcm as f64) * (missing - 1.0) - left;
        chi_square_tail(statistic, rest_df)
    };
    let p = alternative[favoured];
    if p <= 0.0 || p >= 1.0 {
        return Some(rejects(if p >= 1.0 { trials } else { 0 }));
    }
    // The binomial chances of m, relative to the mode's, walked outward
    // until they are negligible; normalised by their own sum.
    let up = |m: u64| (trials - m) as f64 / (m + 1) as f64 * p / (1.0 - p);
    let mode = ((n + 1.0) * p).floor().min(n) as u64;
    let (mut total, mut power) = (1.0f64, rejects(mode));
    let (mut chance, mut m) = (1.0f64, mode);
    while m < trials {
        chance *= up(m);
        m += 1;
        if chance < 1e-17 {
            break;
        }
        total += chance;
        power += chance * rejects(m);
    }
    let (mut chance, mut m) = (1.0f64, mode);
    while m > 0 {
        chance /= up(m - 1);
        m -= 1;
        if chance < 1e-17 {
            break;
        }
        total += chance;
        power += chance * rejects(m);
    }
    Some((power / total).clamp(0.0, 1.0))
}

/// P(c0 X² + c1 (r - X)² >= missing) for X binomial(r, share), from the
/// regularized incomplete beta function (no table, so any r).
fn two_faces_reach(weights: [u64; 2], share: f64, r: u64, missing: u128) -> f64 {
    use statrs::function::beta::beta_reg;
    let (low, high) = match reaching(weights, r, missing) {
        Reaching::All => return 1.0,
        Reaching::Tails(low, high) => (low, high),
    };
    let r_f = r as f64;
    // P(X <= x) = I_{1-p}(r - x, x + 1); P(X >= x) = I_p(x, r - x + 1).
    let at_most = |x: u64| {
        if x >= r {
            1.0
        } else {
            beta_reg(r_f - x as f64, x as f64 + 1.0, 1.0 - share)
        }
    };
    let at_least = |x: u64| {
        if x == 0 {
            1.0
        } else {
            beta_reg(x as f64, r_f - x as f64 + 1.0, share)
        }
    };
    (low.map_or(0.0, at_most) + high.map_or(0.0, at_least)).min(1.0)
}

/// The counts of a face with chance `chance` worth visiting in `trials`.
fn window(trials: u64, chance: f64) -> (u64, u64) {
    let mean = trials as f64 * chance;
    let reach = SPREAD * (mean * (1.0 - chance)).max(0.0).sqrt() + 3.0;
    let lo = (mean - reach).floor().max(0.0) as u64;
    let hi = ((mean + reach).ceil() as u64).min(trials);
    (lo, hi)
}

fn ln_factorials(n: u64) -> Vec<f64> {
    let mut out = Vec::with_capacity(n as usize + 1);
    out.push(0.0);
    for i in 1..=n {
        let last = out[out.len() - 1];
        out.push(last + (i as f64).ln());
    }
    out
}

/// P(X = k) for X binomial(n, p), from log factorials.
fn binomial(ln_factorial: &[f64], n: u64, k: u64, p: f64) -> f64 {
    if p <= 0.0 {
        return if k == 0 { 1.0 } else { 0.0 };
    }
    if p >= 1.0 {
        return if k == n { 1.0 } else { 0.0 };
    }
    let ln = ln_factorial[n as usize] - ln_factorial[k as usize] - ln_factorial[(n - k) as usize]
        + k as f64 * p.ln()
        + (n - k) as f64 * (1.0 - p).ln();
    ln.exp()
}

/// (rolls so far, sum so far) -> chance, the sum of weighted squares in
/// the low 64 bits of the key.
type States = HashMap<u128, f64, BuildHasherDefault<Mix>>;

fn key(used: u64, sum: u64) -> u128 {
    (used as u128) << 64 | sum as u128
}

fn unkey(key: u128) -> (u64, u64) {
    ((key >> 64) as u64, key as u64)
}

/// A fast multiplicative hash for the program's integer keys (no
/// adversary: the keys are ours).
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u128(&mut self, value: u128) {
        self.write_u64(value as u64);
        self.write_u64((value >> 64) as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::stats::{chi_square_trials_needed, pearson};

    /// Every outcome of `trials` rolls, its chance under `alternative`,
    /// and whether Pearson's test (as the page computes it) rejects.
    fn brute_force(trials: u64, ways: &[u64], alternative: &[f64]) -> f64 {
        let total: u64 = ways.iter().sum();
        let expected: Vec<f64> = ways
            .iter()
            .map(|&w| w as f64 / total as f64 * trials as f64)
            .collect();
        let critical = chi_square_critical(ways.len() as u64 - 1).unwrap();
        let mut power = 0.0;
        let mut counts = vec![0u64; ways.len()];
        loop {
            if counts.iter().sum::<u64>() == trials {
                let mut chance = (1..=trials).map(|i| i as f64).product::<f64>();
                for (&c, &p) in counts.iter().zip(alternative) {
                    chance *= p.powi(c as i32) / (1..=c).map(|i| i as f64).product::<f64>();
                }
                if pearson(&counts, &expected).statistic >= critical {
                    power += chance;
                }
            }
            // The next vector of counts, as an odometer.
            let mut i = 0;
            loop {
                if i == counts.len() {
                    return power;
                }
                counts[i] += 1;
                if counts[i] <= trials {
                    break;
                }
                counts[i] = 0;
                i += 1;
            }
        }
    }

    #[test]
    fn the_power_matches_brute_force_enumeration() {
        let cases: [(u64, &[u64], &[f64]); 5] = [
            (12, &[1; 6], &[0.25, 0.15, 0.15, 0.15, 0.15, 0.15]),
            (9, &[1; 4], &[0.4, 0.2, 0.2, 0.2]),
            (15, &[1, 1], &[0.75, 0.25]),
            (10, &[2, 1, 1, 1], &[0.3, 0.25, 0.25, 0.2]),
            (8, &[1, 2, 3], &[0.3, 0.3, 0.4]),
        ];
        for (trials, ways, alternative) in cases {
            let by_program = chi_square_power(trials, ways, alternative, u64::MAX).unwrap();
            let by_enumeration = brute_force(trials, ways, alternative);
            assert!(
                (by_program - by_enumeration).abs() < 1e-9,
                "{trials} rolls of {ways:?}: {by_program} against {by_enumeration}"
            );
            assert!(by_program > 0.0);
        }
        // Under the fair die itself the power is the test's size: near 5 %.
        let size = chi_square_power(300, &[1; 6], &[1.0 / 6.0; 6], u64::MAX).unwrap();
        assert!((0.04..0.06).contains(&size), "{size}");
    }

    /// `ways`' chances with face `favoured` made `1 + advantage` times as
    /// likely, the others sharing the rest in proportion.
    fn biased(ways: &[u64], favoured: usize, advantage: f64) -> Vec<f64> {
        let total: u64 = ways.iter().sum();
        let fair = |i: usize| ways[i] as f64 / total as f64;
        let chance = fair(favoured) * (1.0 + advantage);
        let rest = (1.0 - chance) / (1.0 - fair(favoured));
        (0..ways.len())
            .map(|i| {
                if i == favoured {
                    chance
                } else {
                    fair(i) * rest
                }
            })
            .collect()
    }

    /// With 15 rolls or more expected of each face. At 10 (60 rolls of a
    /// d6) the two differ by 0.006, but 80 % power asks for more rolls than
    /// that, and at such sizes the program is cheap anyway.
    #[test]
    fn the_conditioned_power_is_within_two_thousandths_of_the_tests_own() {
        let cases: [(&[u64], usize, f64, &[u64]); 8] = [
            (&[1; 6], 0, 0.5, &[100, 200, 281, 300]),
            (&[1; 6], 5, 0.25, &[500, 900, 1078]),
            (&[1; 4], 0, 0.25, &[200, 500, 700]),
            (&[1; 4], 2, 0.1, &[1500]),
            (&[1; 3], 0, 0.1, &[300, 2000]),
            (&[1; 12], 0, 0.5, &[300, 400]),
            (&[1, 2, 3, 2, 1], 0, 0.5, &[100, 300, 600]),
            (&[2, 1, 1], 1, -0.3, &[150]),
        ];
        let mut largest = 0.0f64;
        for (ways, favoured, advantage, sizes) in cases {
            let alternative = biased(ways, favoured, advantage);
            for &n in sizes {
                let own = chi_square_power(n, ways, &alternative, u64::MAX).unwrap();
                let conditioned = conditioned_power(n, ways, &alternative, favoured).unwrap();
                largest = largest.max((own - conditioned).abs());
                assert!(
                    (own - conditioned).abs() < 0.002,
                    "{n} rolls of {ways:?}, face {favoured} by {advantage}: \
                     {conditioned} against the test's own {own}"
                );
            }
        }
        // It is not the same sum in disguise.
        assert!(largest > 1e-5, "{largest}");
        // With two faces nothing is left to the chi-square law: the
        // conditioned power is the test's own.
        for n in [10, 57, 400, 1111] {
            let alternative = biased(&[1, 1], 1, 0.2);
            let own = chi_square_power(n, &[1, 1], &alternative, u64::MAX).unwrap();
            let conditioned = conditioned_power(n, &[1, 1], &alternative, 1).unwrap();
            assert!((own - conditioned).abs() < 1e-9, "{n}: {own} {conditioned}");
        }
        // Under the fair die it is the test's size.
        let size = conditioned_power(3000, &[1; 6], &[1.0 / 6.0; 6], 0).unwrap();
        assert!((0.045..0.055).contains(&size), "{size}");
    }

    #[test]
    fn the_search_finds_the_least_rolls_reaching_80_percent() {
        // A d6 with one face 50 % more often: the approximation said 257,
        // and the replay found 76 % there.
        let ways = [1u64; 6];
        let alternative = biased(&ways, 0, 0.5);
        let approximate = chi_square_trials_needed(&[1.0 / 6.0; 6], &alternative);
        assert_eq!(approximate, Some(257));
        let RollsNeeded::Exact(n, reached) =
            chi_square_rolls_needed(&ways, &alternative, 0, approximate, true)
        else {
            panic!("the exact search fits its cap for a d6")
        };
        let power = |n| chi_square_power(n, &ways, &alternative, u64::MAX).unwrap();
        assert!(power(n) >= POWER, "{n}: {}", power(n));
        assert_eq!(reached, power(n));
        assert!(n > 257, "{n}");
        assert!(power(257) < 0.78, "{}", power(257));
        // The least such n within the walked-down window.
        for below in n.saturating_sub(10)..n {
            assert!(power(below) < POWER, "{below} already reaches 80 %");
        }
        // Told not to try the program, the conditioned power answers.
        assert!(matches!(
            chi_square_rolls_needed(&ways, &alternative, 0, approximate, false),
            RollsNeeded::Conditioned(m, _) if m.abs_diff(n) <= 2
        ));
        // A face 25 % more often: also within the cap.
        let alternative = biased(&ways, 3, 0.25);
        let approximate = chi_square_trials_needed(&[1.0 / 6.0; 6], &alternative);
        let RollsNeeded::Exact(n, _) =
            chi_square_rolls_needed(&ways, &alternative, 3, approximate, true)
        else {
            panic!("a d6 at 25 % fits the cap")
        };
        let power = |n| chi_square_power(n, &ways, &alternative, u64::MAX).unwrap();
        assert!(power(n) >= POWER && power(n - 1) < POWER, "{n}");
        assert!(n > approximate.unwrap() + 20, "{n} against {approximate:?}");
        // Over the cap, the conditioned power's n stands, and says so: for
        // a d6 at 10 % it is within two rolls of the test's own 6,549 (from
        // `the_test_s_own_search_for_a_d6_at_10_percent`, too slow to run
        // each time).
        let alternative = biased(&ways, 0, 0.1);
        let approximate = chi_square_trials_needed(&[1.0 / 6.0; 6], &alternative);
        assert_eq!(
            approximate,
            Some(6_414),
            "the approximation promises too much"
        );
        let RollsNeeded::Conditioned(n, reached) =
            chi_square_rolls_needed(&ways, &alternative, 0, approximate, true)
        else {
            panic!("a d6 at 10 % is over the cap")
        };
        assert!(n.abs_diff(6_549) <= 2, "{n}");
        assert!((POWER..POWER + 0.001).contains(&reached), "{reached}");
        // A d100 at 10 %: far over the cap, still found.
        let alternative = biased(&[1; 100], 0, 0.1);
        let approximate = chi_square_trials_needed(&[0.01; 100], &alternative);
        let RollsNeeded::Conditioned(n, _) =
            chi_square_rolls_needed(&[1; 100], &alternative, 0, approximate, true)
        else {
            panic!("a d100 at 10 % is over the cap")
        };
        assert!(n > approximate.unwrap(), "{n} against {approximate:?}");
        assert_eq!(
            chi_square_rolls_needed(&ways, &alternative, 0, None, true),
            RollsNeeded::Never
        );
        assert_eq!(
            chi_square_power(50, &ways, &biased(&ways, 0, 0.5), 10),
            None
        );
    }

    /// The least n at which the test's own power reaches 80 % for a d6
    /// with a face 10 % more often, by bisection with no cost cap: about
    /// half a minute in release. Run with
    /// `cargo test --release --lib own_search_for_a_d6 -- --ignored`.
    #[test]
    #[ignore]
    fn the_test_s_own_search_for_a_d6_at_10_percent() {
        let ways = [1u64; 6];
        let alternative = biased(&ways, 0, 0.1);
        let power = |n| chi_square_power(n, &ways, &alternative, u64::MAX).unwrap();
        let (mut low, mut high) = (6_000u64, 7_000u64);
        assert!(power(low) < POWER && power(high) >= POWER);
        while high - low > 1 {
            let middle = (low + high) / 2;
            if power(middle) >= POWER {
                high = middle;
            } else {
                low = middle;
            }
        }
        assert_eq!(high, 6_549);
        for below in high - 6..high {
            assert!(power(below) < POWER, "{below}");
        }
    }
}
