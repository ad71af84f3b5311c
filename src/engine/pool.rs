//! Dice pools: one die transformed (rerolled, exploded), many dice rolled
//! together and some kept, or their successes counted. The building blocks
//! of the dice language, each exact and each checked against brute force.

use super::combinatorics::{binomial_row, binomial_row_start};
use super::outcomes::Outcomes;
use super::ways::{binomials, powers, run_exact, Program, Ways};
#[cfg(test)]
use super::work;
use super::work::tally;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

mod explode;
#[cfg(test)]
mod tests;

pub use explode::explode;
pub(crate) use explode::{explode_into_pool, exploded_sums};

/// A test on one die's face: `=X`, `<X`, `<=X`, `>X` or `>=X`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// Equal to.
    Eq(i64),
    /// Below.
    Lt(i64),
    /// At most.
    Le(i64),
    /// Above.
    Gt(i64),
    /// At least.
    Ge(i64),
}

impl Condition {
    /// Whether `value` meets the condition.
    pub fn holds(self, value: i64) -> bool {
        match self {
            Condition::Eq(x) => value == x,
            Condition::Lt(x) => value < x,
            Condition::Le(x) => value <= x,
            Condition::Gt(x) => value > x,
            Condition::Ge(x) => value >= x,
        }
    }
}

/// Which dice of a pool are kept, counted from one end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The highest M.
    Highest(u64),
    /// The lowest M.
    Lowest(u64),
}

/// Reroll once: a face that meets the condition is rolled again and the
/// second result stands. Over `T^2` outcomes, face `f` has
/// `w_f (T [f kept] + W_rerolled)` ways.
pub(crate) fn reroll_once(die: &Outcomes, condition: Condition) -> Outcomes {
    let total = die.total();
    let rerolled: BigUint = die
        .iter()
        .filter(|(v, _)| condition.holds(*v))
        .map(|(_, w)| w)
        .sum();
    tally!(die.width() as f64 * work::words(&total) * 2.0);
    let counts = die
        .iter()
        .map(|(v, w)| {
            let first = if condition.holds(v) {
                BigUint::zero()
            } else {
                &total * w
            };
            (v, first + w * &rerolled)
        })
        .collect();
    Outcomes::from_map(counts).expect("a die keeps its faces")
}

/// Reroll until the face no longer meets the condition: the faces that
/// meet it are gone, the others keep their ways. `None` when every face
/// meets it (the reroll would never end).
pub(crate) fn reroll_until(die: &Outcomes, condition: Condition) -> Option<Outcomes> {
    let counts: BTreeMap<i64, BigUint> = die
        .iter()
        .filter(|(v, _)| !condition.holds(*v))
        .map(|(v, w)| (v, w.clone()))
        .collect();
    Outcomes::from_map(counts)
}

/// The sum of `value(face)` over the kept dice of `count` independent
/// rolls of `die`: by a dynamic program over the faces in machine words
/// (see [`run_exact`]), else by a closed form in big integers.
pub fn keep(die: &Outcomes, count: u64, keep: Keep, value: impl Fn(i64) -> i64) -> Outcomes {
    let kept = match keep {
        Keep::Highest(m) | Keep::Lowest(m) => m,
    };
    assert!(kept <= count, "callers check that M <= N");
    if kept > 0 && count <= PROGRAM_DICE {
        let program = KeepProgram {
            die,
            count,
            keep,
            value: &value,
        };
        if let Some(Some(outcomes)) = run_exact(&die.total().pow(count as u32), program) {
            return outcomes;
        }
    }
    keep_by_convolution(die, count, keep, value)
}

/// The most dice [`keep_program`] takes: its table of binomials grows with
/// the square of the dice (and with the words of a count past 2^188: 188
/// dice in 64 words take 9 MB). A certain die (`d1`, `d{1,2}rr2`: one
/// way) fits any number, and 2000 of them asked a gigabyte of binomials
/// its price never counted. Past it the closed form serves (500d6kh50's
/// whole process takes 8 ms).
const PROGRAM_DICE: u64 = 188;

/// [`keep_program`]'s arguments, for [`run_exact`].
struct KeepProgram<'a, F> {
    die: &'a Outcomes,
    count: u64,
    keep: Keep,
    value: &'a F,
}

impl<F: Fn(i64) -> i64> Program for KeepProgram<'_, F> {
    type Output = Option<Outcomes>;
    fn run<W: Ways>(self) -> Self::Output {
        keep_program::<W>(self.die, self.count, self.keep, self.value)
    }
}

/// [`keep`] faces best first, carrying only the dice placed so far (fewer
/// than M, all kept) and their sum; once M are placed the rest are counted
/// at once by the binomial tail. Counts in `W`, so callers check that they
/// hold the outcomes (see [`run_exact`]). `None` when the sums span too
/// wide a range for dense tables.
fn keep_program<W: Ways>(
    die: &Outcomes,
    count: u64,
    keep: Keep,
    value: &impl Fn(i64) -> i64,
) -> Option<Outcomes> {
    let (m, faces, low, spread) = best_first(die, keep, value)?;
    let n = count as usize;
    let widest = spread.checked_mul(m)?.checked_add(1)?;
    if widest.checked_mul(m + 1)? > 1 << 20 {
        return None;
    }
    let rows = binomials::<W>(n);
    // placed[j][s - j low]: ways to have placed j dice (all kept) summing to s.
    let mut placed: Vec<Vec<W>> = (0..m)
        .map(|j| vec![W::zero_ways(); spread * j + 1])
        .collect();
    placed[0][0] = W::of_u64(1);
    let mut result = vec![W::zero_ways(); widest];
    let mut after = faces.iter().fold(W::zero_ways(), |mut sum, (_, w)| {
        sum.add(w);
        sum
    });
    for (face, w) in &faces {
        after.sub(w);
        let v = usize::try_from(value(*face) - low).ok()?;
        let w_powers = powers(w, n);
        let after_powers = powers(&after, n);
        for j in 0..m {
            let rest = n - j;
            // At least m - j of the rest show this face: the first m - j of
            // them are kept, the others (here or beyond) are not.
            let mut tail = W::zero_ways();
            for e in m - j..=rest {
                tail.add_product(&rows[rest][e].times(&w_powers[e]), &after_powers[rest - e]);
            }
            for (s, ways) in placed[j].iter().enumerate() {
                if !ways.no_ways() {
                    result[s + (m - j) * v].add_product(ways, &tail);
                }
            }
        }
        // Fewer than m - j show it: k more dice placed, all kept (k = 0
        // leaves a state as it is). In place, the fullest rows first, so
        // that each reads rows this face has not yet moved on.
        for j in (1..m).rev() {
            let (before, row) = placed.split_at_mut(j);
            for (source, from) in before.iter().enumerate() {
                let k = j - source;
                let coefficient = rows[n - source][k].times(&w_powers[k]);
                for (s, ways) in from.iter().enumerate() {
                    if !ways.no_ways() {
                        row[0][s + k * v].add_product(ways, &coefficient);
                    }
                }
            }
        }
    }
    let base = low * m as i64;
    let counts = result
        .iter()
        .enumerate()
        .map(|(s, ways)| (base + s as i64, ways.big()))
        .collect();
    Outcomes::from_map(counts)
}

/// The M kept, the faces with their ways best first (highest first for
/// kh), and the lowest value and the spread of the faces' values.
type Ordered<W> = (usize, Vec<(i64, W)>, i64, usize);

/// See [`Ordered`].
fn best_first<W: Ways>(
    die: &Outcomes,
    keep: Keep,
    value: &impl Fn(i64) -> i64,
) -> Option<Ordered<W>> {
    let (m, highest_first) = match keep {
        Keep::Highest(m) => (m as usize, true),
        Keep::Lowest(m) => (m as usize, false),
    };
    let mut faces: Vec<(i64, W)> = die.iter().map(|(v, w)| (v, W::of(w))).collect();
    if highest_first {
        faces.reverse();
    }
    let low = faces.iter().map(|&(v, _)| value(v)).min()?;
    let high = faces.iter().map(|&(v, _)| value(v)).max()?;
    let spread = usize::try_from(high.checked_sub(low)?).ok()?;
    Some((m, faces, low, spread))
}

/// [`keep`] by the closed form below, in big integers: for outcomes past
/// what [`run_exact`] holds, or sums spread too wide for [`keep_program`].
///
/// Condition on the face `t` of the M-th kept die from the chosen end:
/// `i < M` dice lie strictly beyond it (their values convolved), at least
/// `M - i` dice show `t`, and the rest lie on the other side. So
///
/// `ways = sum_t sum_i C(N, i) beyond_t^(*i) shifted by (M-i) value(t)
///        x sum_{e >= M-i} C(N-i, e) w_t^e B_t^(N-i-e)`
///
/// where `B_t` is the weight on the other side. The inner tail is the full
/// binomial `(w_t + B_t)^(N-i)` minus its first `M - i` terms, so the cost
/// is polynomial in N and M, never the `faces^N` rolls.
fn keep_by_convolution(
    die: &Outcomes,
    count: u64,
    keep: Keep,
    value: impl Fn(i64) -> i64,
) -> Outcomes {
    let (kept, highest_first) = match keep {
        Keep::Highest(m) => (m, true),
        Keep::Lowest(m) => (m, false),
    };
    if kept == 0 {
        return Outcomes::constant(0).scaled(&die.total().pow(count as u32));
    }
    let mut faces: Vec<(i64, BigUint)> = die.iter().map(|(v, w)| (v, w.clone())).collect();
    if highest_first {
        faces.reverse();
    }
    let n = count as usize;
    let m = kept as usize;
    let binomial_n = binomial_row(count);
    let mut result: BTreeMap<i64, BigUint> = BTreeMap::new();
    // Weight strictly beyond the current face, as a die of values.
    let mut beyond: Vec<(i64, BigUint)> = Vec::new();
    let mut weight_beyond = BigUint::zero();
    let all: BigUint = faces.iter().map(|(_, w)| w).sum();
    for (face, w_t) in &faces {
        let other_side = &all - &weight_beyond - w_t;
        let at_or_other = w_t + &other_side;
        let w_powers = powers(w_t, n);
        let b_powers = powers(&other_side, n);
        let all_powers = powers(&at_or_other, n);
        // beyond^(*i) as value -> ways, for i = 0, 1, ...
        let mut power: BTreeMap<i64, BigUint> = BTreeMap::from([(0, BigUint::one())]);
        for (i, binomial_i) in binomial_n.iter().enumerate().take(m) {
            let rest = n - i;
            let needed = m - i;
            if needed <= rest {
                let mut tail = all_powers[rest].clone();
                let binomial_rest = binomial_row_start(rest as u64, needed as u64);
                tally!(binomial_rest.len() as f64 * 3.0 * work::words(&tail));
                for (e, binomial) in binomial_rest.iter().enumerate() {
                    tail -= binomial * &w_powers[e] * &b_powers[rest - e];
                }
                if !tail.is_zero() {
                    let factor = binomial_i * tail;
                    let offset = (needed as i64) * value(*face);
                    tally!(
                        power.len() as f64
                            * (work::widest(power.values()) + work::words(&factor))
                            * work::MAP
                    );
                    for (v, ways) in &power {
                        *result.entry(v + offset).or_default() += ways * &factor;
                    }
                }
            }
            if beyond.is_empty() {
                break;
            }
            let mut next: BTreeMap<i64, BigUint> = BTreeMap::new();
            tally!(
                (power.len() * beyond.len()) as f64
                    * (work::widest(power.values()) + work::words(w_t))
                    * work::MAP
            );
            for (v, ways) in &power {
                for (b, bw) in &beyond {
                    *next.entry(v + value(*b)).or_default() += ways * bw;
                }
            }
            power = next;
        }
        weight_beyond += w_t;
        beyond.push((*face, w_t.clone()));
    }
    Outcomes::from_map(result).expect("some roll keeps dice")
}

/// The most values a die may have for [`sorted_rolls`], which recurses
/// once per value.
pub(crate) const MAX_SORTED_FACES: usize = 1000;

/// Every sorted roll of `count` dice (lowest first) with its ways: the
/// ways to choose which dice show each value times the faces' ways. For
/// rules no closed form serves (the middle dice, pairing off two pools);
/// callers price the C(count + values - 1, count) rolls first.
pub(crate) fn sorted_rolls(die: &Outcomes, count: u64, visit: &mut dyn FnMut(&[i64], &BigUint)) {
    let faces: Vec<(i64, &BigUint)> = die.iter().collect();
    rolls_of(&faces, count, visit);
}

/// Every roll of `count` dice placed on `faces` in their order (each roll
/// lists them in that order), with its ways. The rolls come in descending
/// order of their faces' places, compared place by place: the roll with
/// none of the first face comes first, all of the first face last.
pub(crate) fn rolls_of(
    faces: &[(i64, &BigUint)],
    count: u64,
    visit: &mut dyn FnMut(&[i64], &BigUint),
) {
    assert!(faces.len() <= MAX_SORTED_FACES, "callers check the faces");
    let mut roll = Vec::with_capacity(count as usize);
    // Natively, ways below 2^64 (ten d10 have at most 10^10) are worked out
    // in a word; the browser's engine keeps to one method, for its size.
    if !cfg!(target_arch = "wasm32") {
        if let Some(small) = small_weights(faces, count) {
            let small: Vec<(i64, &u64)> = small.iter().map(|(v, w)| (*v, w)).collect();
            Step::<u64> {
                faces: &small,
                roll: &mut roll,
                visit,
            }
            .place(0, count as usize, 1);
            return;
        }
    }
    Step::<BigUint> {
        faces,
        roll: &mut roll,
        visit,
    }
    .place(0, count as usize, BigUint::one());
}

/// The faces with their ways in words, when every roll's ways fit one:
/// no roll has more ways than `(sum of the ways) ^ count`, and with no
/// face of no ways, no partial product has more than its roll.
fn small_weights(faces: &[(i64, &BigUint)], count: u64) -> Option<Vec<(i64, u64)>> {
    let small: Vec<(i64, u64)> = faces
        .iter()
        .map(|&(value, w)| Some((value, u64::try_from(w).ok().filter(|&w| w > 0)?)))
        .collect::<Option<_>>()?;
    let total = small.iter().try_fold(0u64, |t, &(_, w)| t.checked_add(w))?;
    total.checked_pow(u32::try_from(count).ok()?)?;
    Some(small)
}

/// The ways a [`Step`] counts in: big integers, or a word where
/// [`small_weights`] showed every product on the way stays below 2^64
/// (each is a term of the expansion of `(sum of the ways) ^ count`).
trait Count: Clone {
    fn unit() -> Self;
    /// `self * choose * power`.
    fn product(&self, choose: &Self, power: &Self) -> Self;
    /// `self *= by`; past the last turn a word may wrap, unused.
    fn scale(&mut self, by: &Self);
    /// C(left, here + 1) from C(left, here).
    fn next_choose(&self, left: usize, here: usize) -> Self;
    /// `self * w ^ left`, as the visit takes it.
    fn leaf(&self, w: &Self, left: usize) -> BigUint;
    /// Words of the count, for the tally.
    #[cfg(test)]
    fn words(&self) -> f64;
}

impl Count for BigUint {
    fn unit() -> Self {
        One::one()
    }
    fn product(&self, choose: &Self, power: &Self) -> Self {
        self * choose * power
    }
    fn scale(&mut self, by: &Self) {
        *self *= by;
    }
    fn next_choose(&self, left: usize, here: usize) -> Self {
        self * (left - here) / (here + 1)
    }
    fn leaf(&self, w: &Self, left: usize) -> BigUint {
        self * w.pow(left as u32)
    }
    #[cfg(test)]
    fn words(&self) -> f64 {
        work::words(self)
    }
}

impl Count for u64 {
    fn unit() -> Self {
        1
    }
    fn product(&self, choose: &Self, power: &Self) -> Self {
        self * choose * power
    }
    fn scale(&mut self, by: &Self) {
        *self = self.wrapping_mul(*by);
    }
    fn next_choose(&self, left: usize, here: usize) -> Self {
        (u128::from(*self) * (left - here) as u128 / (here + 1) as u128) as u64
    }
    fn leaf(&self, w: &Self, left: usize) -> BigUint {
        BigUint::from(self * w.pow(left as u32))
    }
    #[cfg(test)]
    fn words(&self) -> f64 {
        1.0
    }
}

struct Step<'a, N> {
    faces: &'a [(i64, &'a N)],
    roll: &'a mut Vec<i64>,
    visit: &'a mut dyn FnMut(&[i64], &BigUint),
}

impl<N: Count> Step<'_, N> {
    /// Place `left` dice on the values from `face` up.
    fn place(&mut self, face: usize, left: usize, ways: N) {
        let at = self.roll.len();
        let Some(&(value, w)) = self.faces.get(face) else {
            return;
        };
        if left == 0 || face + 1 == self.faces.len() {
            tally!(self.roll.len() as f64 + left as f64 + ways.words() * work::MAP);
            self.roll.resize(at + left, value);
            (self.visit)(self.roll, &ways.leaf(w, left));
        } else {
            // C(left, here) from the last one: no table of binomials,
            // whose rows for thousands of dice would take gigabytes.
            let (mut power, mut choose) = (N::unit(), N::unit());
            tally!((left + 1) as f64 * 4.0 * ways.words());
            for here in 0..=left {
                let next = ways.product(&choose, &power);
                self.place(face + 1, left - here, next);
                self.roll.push(value);
                power.scale(w);
                choose = choose.next_choose(left, here);
            }
        }
        self.roll.truncate(at);
    }
}

/// The sum of `value` over the dice from `start` to `end` (sorted lowest
/// first) of `count` rolls of `die`: `4d6dl1dh1` keeps 1..3.
pub(crate) fn keep_range(
    die: &Outcomes,
    count: u64,
    (start, end): (u64, u64),
    value: impl Fn(i64) -> i64,
) -> Outcomes {
    let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
    sorted_rolls(die, count, &mut |roll, ways| {
        let sum = roll[start as usize..end as usize]
            .iter()
            .map(|&v| value(v))
            .sum();
        *counts.entry(sum).or_default() += ways;
    });
    Outcomes::from_map(counts).expect("some roll keeps dice")
}

/// How many of `b`'s dice `a`'s beat when both pools are sorted from the
/// highest and paired off (Risk: ties go to `b`; extra dice sit out): by
/// a dynamic program over the faces when it is no more work than listing
/// the sorted rolls (which the check priced), else by listing them.
pub(crate) fn pairs(a: &Outcomes, a_count: u64, b: &Outcomes, b_count: u64) -> Outcomes {
    let (na, nb) = (a_count as f64, b_count as f64);
    let mut faces: Vec<i64> = a.iter().chain(b.iter()).map(|(v, _)| v).collect();
    faces.sort_unstable_by(|x, y| y.cmp(x));
    faces.dedup();
    let program =
        faces.len() as f64 * (na + 1.0) * (nb + 1.0) * (na.min(nb) + 1.0) * (na.max(nb) + 1.0);
    let listing = rolls_sorted(na, a.iter().count()) * rolls_sorted(nb, b.iter().count());
    // The program's table stays small (a million states at most) whatever
    // the budget admitted.
    let table = (na + 1.0) * (nb + 1.0) * (na.min(nb) + 1.0);
    if program > listing || table > PAIRS_STATES {
        return pairs_by_listing(a, a_count, b, b_count);
    }
    let (na, nb) = (a_count as usize, b_count as usize);
    let bound = a.total().pow(a_count as u32) * b.total().pow(b_count as u32);
    let program = PairsProgram {
        a,
        na,
        b,
        nb,
        faces: &faces,
    };
    let counts = run_exact(&bound, program)
        .unwrap_or_else(|| pairs_program::<BigUint>(a, na, b, nb, &faces));
    Outcomes::from_map((0..).zip(counts).collect()).expect("some roll")
}

/// The most states [`pairs_program`] keeps.
const PAIRS_STATES: f64 = (1 << 20) as f64;

/// How many sorted rolls `n` dice of `k` values have, C(n + k - 1, n), in
/// floating point (a comparison of costs, saturating).
fn rolls_sorted(n: f64, k: usize) -> f64 {
    let k = k as f64;
    let mut count = 1.0;
    let mut i = 0.0;
    while i < n.min(k - 1.0) && count < 1e300 {
        count *= (n + k - 1.0 - i) / (i + 1.0);
        i += 1.0;
    }
    count
}

/// [`pairs_program`]'s arguments, for [`run_exact`].
struct PairsProgram<'a> {
    a: &'a Outcomes,
    na: usize,
    b: &'a Outcomes,
    nb: usize,
    faces: &'a [i64],
}

impl Program for PairsProgram<'_> {
    type Output = Vec<BigUint>;
    fn run<W: Ways>(self) -> Self::Output {
        pairs_program::<W>(self.a, self.na, self.b, self.nb, self.faces)
    }
}

/// [`pairs`] over `faces` from the highest: the state is how many of
/// each pool's dice are placed (on faces so far, the highest ranks) and
/// how many pairs `a` has won. At each face `b`'s dice are placed first;
/// then each of `a`'s dice placed there wins its pair when `b`'s die of
/// the same rank is not yet placed (so lower).
fn pairs_program<W: Ways>(
    a: &Outcomes,
    na: usize,
    b: &Outcomes,
    nb: usize,
    faces: &[i64],
) -> Vec<BigUint> {
    let dice = na.min(nb);
    let rows = binomials::<W>(na.max(nb));
    let at = |ap: usize, bp: usize, won: usize| (ap * (nb + 1) + bp) * (dice + 1) + won;
    let size = (na + 1) * (nb + 1) * (dice + 1);
    let mut table = vec![W::zero_ways(); size];
    table[0] = W::of_u64(1);
    for &face in faces {
        for (die, n, pool_b) in [(b, nb, true), (a, na, false)] {
            let w = die.ways(face);
            if w.is_zero() {
                continue;
            }
            let w_powers = powers(&W::of(&w), n);
            let mut next = vec![W::zero_ways(); size];
            for ap in 0..=na {
                for bp in 0..=nb {
                    let placed = if pool_b { bp } else { ap };
                    let coefficients: Vec<W> = (0..=n - placed)
                        .map(|k| rows[n - placed][k].times(&w_powers[k]))
                        .collect();
                    for won in 0..=dice {
                        let ways = &table[at(ap, bp, won)];
                        if ways.no_ways() {
                            continue;
                        }
                        for (k, coefficient) in coefficients.iter().enumerate() {
                            let to = if pool_b {
                                at(ap, bp + k, won)
                            } else {
                                let wins = (ap + k).min(dice).saturating_sub(ap.max(bp));
                                at(ap + k, bp, won + wins)
                            };
                            next[to].add_product(ways, coefficient);
                        }
                    }
                }
            }
            table = next;
        }
    }
    (0..=dice).map(|won| table[at(na, nb, won)].big()).collect()
}

/// [`pairs`] by listing: every sorted roll of `b` is listed once; for
/// each sorted roll of `a`, `b`'s ways are summed per number beaten (in
/// `u128` when all of `b`'s outcomes fit) and multiplied once per number.
fn pairs_by_listing(a: &Outcomes, a_count: u64, b: &Outcomes, b_count: u64) -> Outcomes {
    let dice = a_count.min(b_count) as usize;
    let mut theirs: Vec<(Vec<i64>, BigUint)> = Vec::new();
    sorted_rolls(b, b_count, &mut |roll, ways| {
        theirs.push((
            roll.iter().rev().take(dice).copied().collect(),
            ways.clone(),
        ));
    });
    let small: Option<Vec<u128>> = (b.total().bits() * b_count < 127).then(|| {
        theirs
            .iter()
            .map(|(_, w)| u128::try_from(w).expect("fits"))
            .collect()
    });
    let mut counts = vec![BigUint::zero(); dice + 1];
    sorted_rolls(a, a_count, &mut |roll, ways| {
        let mine: Vec<i64> = roll.iter().rev().take(dice).copied().collect();
        tally!(theirs.len() as f64 * (dice as f64 + 1.0) + (dice as f64 + 1.0) * work::words(ways));
        let beaten = |their: &[i64]| mine.iter().zip(their).filter(|(x, y)| x > y).count();
        match &small {
            Some(small) => {
                let mut by = vec![0u128; dice + 1];
                for ((their, _), w) in theirs.iter().zip(small) {
                    by[beaten(their)] += w;
                }
                for (count, sum) in counts.iter_mut().zip(by) {
                    *count += ways * BigUint::from(sum);
                }
            }
            None => {
                let mut by = vec![BigUint::zero(); dice + 1];
                for (their, w) in &theirs {
                    by[beaten(their)] += w;
                }
                for (count, sum) in counts.iter_mut().zip(by) {
                    *count += ways * sum;
                }
            }
        }
    });
    let counts = (0..).zip(counts).collect();
    Outcomes::from_map(counts).expect("some roll")
}
