//! One head-to-head game, exactly, by dynamic programming over the copies
//! still to be crossed off.
//!
//! A state is how many times each total has been rolled so far, capped at
//! the larger of the two players' copies (c_s = max(a_s, b_s)): beyond that
//! a roll of s changes nothing for anyone. Rolls that hit neither list do not
//! change the state either, so they are conditioned away: from a state the
//! next useful roll is s with probability w_s / W, where W sums the ways of
//! the totals still useful, and the state lasts K / W rolls on average
//! (K = all outcomes). Every roll only moves forward, so one pass in index
//! order settles every state.
//!
//! The same code runs in exact fractions (reported results) and in `f64`
//! (steering searches). The float version only adds and multiplies
//! non-negative numbers, so each probability carries a relative error of a
//! few units in the last place per roll of depth: far below [`TOO_CLOSE`],
//! under which float results are never trusted.

use super::lists::Totals;
use crate::engine::Exact;
use num_traits::Zero;
use std::cell::Cell;
use std::thread::LocalKey;

/// Float margins closer than this are decided in exact arithmetic: the
/// float game's error is far smaller, so anything wider is a real gap.
pub const TOO_CLOSE: f64 = 1e-9;

/// The numbers a game can be played in: exact fractions or floats.
pub trait Probability: Clone + Send + Sync {
    /// Zero.
    fn nothing() -> Self;
    /// numerator / denominator.
    fn fraction(numerator: u64, denominator: u64) -> Self;
    /// Whether this is zero (states never reached are skipped).
    fn is_nothing(&self) -> bool;
    /// `self += a * b`.
    fn add_product(&mut self, a: &Self, b: &Self);
    /// `self += a`.
    fn add(&mut self, a: &Self);
    /// `a - b`.
    fn minus(&self, b: &Self) -> Self;
    /// `work` on `size` zeros, which it must leave zeros (a game resets
    /// every state it reads). Floats reuse one buffer per thread
    /// ([`lend_zeros`]).
    fn with_zeros<R>(size: usize, work: impl FnOnce(&mut [Self]) -> R) -> R {
        work(&mut vec![Self::nothing(); size])
    }
}

impl Probability for f64 {
    fn nothing() -> Self {
        0.0
    }
    fn fraction(numerator: u64, denominator: u64) -> Self {
        numerator as f64 / denominator as f64
    }
    fn is_nothing(&self) -> bool {
        *self == 0.0
    }
    fn add_product(&mut self, a: &Self, b: &Self) {
        *self += a * b;
    }
    fn add(&mut self, a: &Self) {
        *self += a;
    }
    fn minus(&self, b: &Self) -> Self {
        self - b
    }
    fn with_zeros<R>(size: usize, work: impl FnOnce(&mut [Self]) -> R) -> R {
        thread_local! {
            static ZEROS: Cell<Vec<f64>> = const { Cell::new(Vec::new()) };
        }
        lend_zeros(&ZEROS, size, work)
    }
}

/// `work` on `size` zeros of this thread's buffer `zeros`, which it must
/// leave zeros (a game clears each state it reads): games by the ten
/// thousand, each zeroing a fresh buffer for its states, spent more on that
/// than some spent playing.
pub(super) fn lend_zeros<T: Copy + Default + PartialEq + 'static, R>(
    zeros: &'static LocalKey<Cell<Vec<T>>>,
    size: usize,
    work: impl FnOnce(&mut [T]) -> R,
) -> R {
    // Taken out while in use: a panic loses the buffer, never its zeros.
    let mut buffer = zeros.take();
    if buffer.len() < size {
        buffer.resize(size, T::default());
    }
    let result = work(&mut buffer[..size]);
    debug_assert!(
        buffer.iter().all(|x| *x == T::default()),
        "a game left a state non-zero"
    );
    zeros.set(buffer);
    result
}

impl Probability for Exact {
    fn nothing() -> Self {
        Zero::zero()
    }
    fn fraction(numerator: u64, denominator: u64) -> Self {
        Exact::new(numerator.into(), denominator.into())
    }
    fn is_nothing(&self) -> bool {
        Zero::is_zero(self)
    }
    fn add_product(&mut self, a: &Self, b: &Self) {
        *self += a * b;
    }
    fn add(&mut self, a: &Self) {
        *self += a;
    }
    fn minus(&self, b: &Self) -> Self {
        self - b
    }
}

/// The exact odds of a head-to-head game between lists A and B, and its
/// expected length.
#[derive(Debug, Clone, PartialEq)]
pub struct GameOdds<T> {
    /// A empties its list strictly first.
    pub a_wins: T,
    /// B empties its list strictly first.
    pub b_wins: T,
    /// Both lists empty on the same roll.
    pub tie: T,
    /// Rolls until the game ends, misses included.
    pub expected_rolls: T,
}

impl<T: Probability> GameOdds<T> {
    /// P(A wins) - P(B wins).
    pub(crate) fn margin(&self) -> T {
        self.a_wins.minus(&self.b_wins)
    }
}

/// What a state of the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// Both lists are empty: the roll that got here tied the game.
    Tie,
    /// Only A's list is empty.
    AWins,
    /// Only B's list is empty.
    BWins,
    /// Play goes on; the totals still useful have `useful` ways between them.
    Roll { useful: u64 },
}

/// A set of digits, one bit each. A walk has fewer than 64 digits: each
/// at least doubles the number of states, which is a `usize`.
pub(super) type Bits = u64;

/// A state's digits, with those below their caps as bits.
#[derive(Debug, Clone, Copy)]
pub(super) struct Digits<'a> {
    /// Below its cap: the digit's totals can still be rolled usefully.
    open: Bits,
    /// The digits.
    values: &'a [u8],
}

/// A game's states, in an order where every roll moves forward.
///
/// Only the useful totals (c_s > 0) are digits of a state; a state's index
/// is its mixed-radix number, so one pass in index order settles every state.
///
/// In a lumped walk ([`Walk::lumped`]) one digit may stand for a group of
/// m totals that play alike: the same ways, each wanted once by the same
/// players. Which of them have come up does not matter, only how many, so
/// the digit counts them (cap m), and from d of them rolled the next comes
/// up with m - d times the ways of one. The chain of counts is the chain
/// of the totals with alike states merged: the same probabilities, exactly,
/// over fewer states.
pub(super) struct Walk {
    /// c_s for each digit (m for a group).
    caps: Vec<u8>,
    /// Mixed-radix place value of each useful total's digit.
    strides: Vec<usize>,
    /// A's and B's copies of each useful total.
    need_a: Vec<u8>,
    need_b: Vec<u8>,
    /// Ways of each useful total (of one total of a group).
    ways: Vec<u64>,
    /// How many totals each digit stands for: 1, or m for a group.
    group: Vec<u8>,
    /// Number of states: the product of (c_s + 1).
    size: usize,
}

impl Walk {
    pub(super) fn of(totals: &Totals, a: &[u8], b: &[u8]) -> Walk {
        Walk::from_digits(
            a.iter()
                .zip(b)
                .zip(&totals.ways)
                .map(|((&x, &y), &w)| (x, y, w, 1)),
        )
    }

    /// The walk of A against B with alike totals grouped (see [`Walk`]):
    /// totals at most one player wants once, by (A's copies, B's copies,
    /// ways). About a third fewer states in the races the search plays;
    /// for exact runs, whose sums do not depend on the order of the states.
    pub(super) fn lumped(totals: &Totals, a: &[u8], b: &[u8]) -> Walk {
        let mut groups: Vec<(u8, u8, u64, u8)> = Vec::new();
        let mut digits: Vec<(u8, u8, u64, u8)> = Vec::new();
        for ((&x, &y), &w) in a.iter().zip(b).zip(&totals.ways) {
            if x.max(y) != 1 {
                digits.push((x, y, w, 1));
            } else if let Some(g) = groups.iter_mut().find(|g| (g.0, g.1, g.2) == (x, y, w)) {
                g.3 += 1;
            } else {
                groups.push((x, y, w, 1));
            }
        }
        let groups = groups.into_iter().map(|(x, y, w, m)| (x * m, y * m, w, m));
        Walk::from_digits(digits.into_iter().chain(groups))
    }

    /// The walk of a shape with no lists: every total is rolled up to its
    /// cap, and only the last state (everything capped) ends the game.
    pub(super) fn unending(shape: &[(u8, u64)]) -> Walk {
        Walk::from_digits(shape.iter().map(|&(cap, w)| (cap, cap, w, 1)))
    }

    /// A walk over (A's copies, B's copies, ways, totals) per digit; digits
    /// neither list has are left out. Each list is allocated once: at most
    /// one digit per item.
    fn from_digits(digits: impl Iterator<Item = (u8, u8, u64, u8)>) -> Walk {
        let most = digits.size_hint().0;
        let mut walk = Walk {
            caps: Vec::with_capacity(most),
            strides: Vec::with_capacity(most),
            need_a: Vec::with_capacity(most),
            need_b: Vec::with_capacity(most),
            ways: Vec::with_capacity(most),
            group: Vec::with_capacity(most),
            size: 1,
        };
        for (x, y, ways, group) in digits {
            let cap = x.max(y);
            if cap > 0 {
                walk.caps.push(cap);
                walk.strides.push(walk.size);
                walk.need_a.push(x);
                walk.need_b.push(y);
                walk.ways.push(ways);
                walk.group.push(group);
                walk.size *= cap as usize + 1;
            }
        }
        walk
    }

    /// How many states there are.
    pub(super) fn size(&self) -> usize {
        self.size
    }

    /// The most useful rolls any game can take: sum of c_s.
    pub(super) fn longest(&self) -> u64 {
        self.caps.iter().map(|&c| c as u64).sum()
    }

    /// Visit every state in index order with what it is. The closure gets
    /// the state's digits to ask [`Walk::moves`] where its rolls lead.
    ///
    /// Whether each list is done, the useful ways and the open digits are
    /// kept up to date as the odometer turns, so a state costs O(1) on
    /// average.
    pub(super) fn each(&self, mut visit: impl FnMut(usize, Step, Digits<'_>)) {
        let mut rolled = vec![0u8; self.caps.len()];
        let mut a_missing = self.need_a.iter().filter(|&&n| n > 0).count();
        let mut b_missing = self.need_b.iter().filter(|&&n| n > 0).count();
        let mut useful: u64 = self
            .ways
            .iter()
            .zip(&self.group)
            .map(|(&w, &m)| w * m as u64)
            .sum();
        let mut open: Bits = (0..self.caps.len()).fold(0, |o, s| o | 1 << s);
        for state in 0..self.size {
            let step = match (a_missing == 0, b_missing == 0) {
                (true, true) => Step::Tie,
                (true, false) => Step::AWins,
                (false, true) => Step::BWins,
                (false, false) => Step::Roll { useful },
            };
            let digits = Digits {
                open,
                values: &rolled,
            };
            visit(state, step, digits);
            // Turn the odometer, keeping the counts in step.
            for (s, digit) in rolled.iter_mut().enumerate() {
                if *digit < self.caps[s] {
                    *digit += 1;
                    a_missing -= usize::from(*digit == self.need_a[s]);
                    b_missing -= usize::from(*digit == self.need_b[s]);
                    // A group's ways shrink with every member rolled.
                    if *digit == self.caps[s] || self.group[s] > 1 {
                        useful -= self.ways[s];
                    }
                    if *digit == self.caps[s] {
                        open &= !(1 << s);
                    }
                    break;
                }
                *digit = 0;
                a_missing += usize::from(self.need_a[s] > 0);
                b_missing += usize::from(self.need_b[s] > 0);
                useful += self.ways[s] * self.group[s] as u64;
                open |= 1 << s;
            }
        }
    }

    /// Where each useful roll from a state leads, with the digit rolled:
    /// one move per open digit, found from the bits rather than by testing
    /// every digit (the test mispredicts often in the hot loop).
    pub(super) fn moves(
        &self,
        state: usize,
        digits: Digits,
    ) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut left = digits.open;
        std::iter::from_fn(move || {
            (left != 0).then(|| {
                let s = left.trailing_zeros() as usize;
                left &= left - 1;
                (state + self.strides[s], s)
            })
        })
    }

    /// The ways of rolling digit s from a state: from a group's digit d,
    /// the m - d totals not yet rolled.
    pub(super) fn ways_of(&self, s: usize, digits: Digits) -> u64 {
        match self.group[s] {
            1 => self.ways[s],
            m => self.ways[s] * (m - digits.values[s]) as u64,
        }
    }

    /// Ways of each useful total (for walks without groups).
    pub(super) fn ways(&self) -> &[u64] {
        &self.ways
    }

    /// The multiset of (cap, ways) over the useful totals: all a walk
    /// without its players' lists depends on (see [`residues`]).
    ///
    /// [`residues`]: super::residues
    pub(super) fn shape(&self) -> Vec<(u8, u64)> {
        let mut shape = Vec::new();
        for s in 0..self.caps.len() {
            match self.group[s] {
                1 => shape.push((self.caps[s], self.ways[s])),
                m => shape.extend(std::iter::repeat_n((1, self.ways[s]), m as usize)),
            }
        }
        shape.sort_unstable();
        shape
    }
}

/// How many states a game between `a` and `b` may visit.
pub fn state_count(a: &[u8], b: &[u8]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| x.max(y) as f64 + 1.0)
        .product()
}

/// Play A against B to the end, in the number type `T`.
pub fn play<T: Probability>(totals: &Totals, a: &[u8], b: &[u8]) -> GameOdds<T> {
    play_out(totals, a, b, true)
}

/// P(A wins) - P(B wins) alone: the search's float rows read nothing else.
/// The same operations in the same order as [`play`], so the same bits.
pub(super) fn margin<T: Probability>(totals: &Totals, a: &[u8], b: &[u8]) -> T {
    play_out::<T>(totals, a, b, false).margin()
}

/// 1 / W, each worked out once per game: W takes few values but changes
/// from almost every state to the next (each digit at its cap or not), and
/// a division costs as much as the rest of a float state.
struct Inverses<T> {
    /// By W, up to [`Inverses::TABLE`]; zero where not yet worked out.
    table: Vec<T>,
    /// Past the table: the last W met.
    last: (u64, T),
}

impl<T: Probability> Inverses<T> {
    /// The largest W kept in the table (the outcomes of 6d4, say).
    const TABLE: u64 = 4096;

    fn new(outcomes: u64) -> Self {
        let size = if outcomes <= Self::TABLE {
            outcomes + 1
        } else {
            0
        };
        Inverses {
            table: vec![T::nothing(); size as usize],
            last: (0, T::nothing()),
        }
    }

    /// 1 / W (W > 0).
    fn of(&mut self, useful: u64) -> &T {
        if let Some(inverse) = self.table.get_mut(useful as usize) {
            if inverse.is_nothing() {
                *inverse = T::fraction(1, useful);
            }
            return inverse;
        }
        if self.last.0 != useful {
            self.last = (useful, T::fraction(1, useful));
        }
        &self.last.1
    }
}

/// [`play`], leaving the expected length at zero unless `rolls`.
fn play_out<T: Probability>(totals: &Totals, a: &[u8], b: &[u8], rolls: bool) -> GameOdds<T> {
    let walk = Walk::of(totals, a, b);
    let mut odds = GameOdds {
        a_wins: T::nothing(),
        b_wins: T::nothing(),
        tie: T::nothing(),
        expected_rolls: T::nothing(),
    };
    let outcomes = T::fraction(totals.outcomes, 1);
    let ways: Vec<T> = walk.ways().iter().map(|&w| T::fraction(w, 1)).collect();
    let mut inverses = Inverses::new(totals.outcomes);
    T::with_zeros(walk.size(), |reach| {
        reach[0] = T::fraction(1, 1);
        walk.each(|state, step, digits| {
            if reach[state].is_nothing() {
                return;
            }
            let here = std::mem::replace(&mut reach[state], T::nothing());
            match step {
                Step::Tie => odds.tie.add(&here),
                Step::AWins => odds.a_wins.add(&here),
                Step::BWins => odds.b_wins.add(&here),
                Step::Roll { useful } => {
                    // One division per state: here / W, then times each w_s.
                    let mut share = T::nothing();
                    share.add_product(&here, inverses.of(useful));
                    if rolls {
                        odds.expected_rolls.add_product(&share, &outcomes);
                    }
                    for (next, s) in walk.moves(state, digits) {
                        reach[next].add_product(&share, &ways[s]);
                    }
                }
            }
        });
    });
    odds
}

/// Where a state's W sits among the divisors. W changes from almost every
/// state to the next (each digit at its cap or not) but takes few values:
/// small ones are looked up in a table by W, larger ones searched for
/// (the last answer kept).
pub(super) struct Lookup<'d> {
    divisors: &'d [u64],
    /// Position by W, when the largest W is at most [`Lookup::TABLE`].
    table: Vec<u32>,
    last: (u64, usize),
}

impl<'d> Lookup<'d> {
    /// The largest W looked up in a table (the outcomes of 6d4, say).
    const TABLE: u64 = 4096;

    pub(super) fn new(divisors: &'d [u64]) -> Lookup<'d> {
        let mut table = Vec::new();
        if let Some(&largest) = divisors.last().filter(|&&w| w <= Self::TABLE) {
            table = vec![u32::MAX; largest as usize + 1];
            for (d, &w) in divisors.iter().enumerate() {
                table[w as usize] = d as u32;
            }
        }
        Lookup {
            divisors,
            table,
            last: (0, 0),
        }
    }

    pub(super) fn position(&mut self, useful: u64) -> usize {
        if let Some(&d) = self.table.get(useful as usize).filter(|&&d| d != u32::MAX) {
            return d as usize;
        }
        if self.last.0 != useful {
            let d = self
                .divisors
                .binary_search(&useful)
                .expect("met in the first walk");
            self.last = (useful, d);
        }
        self.last.1
    }
}

#[cfg(test)]
mod tests {
    use super::super::lists::{all_lists, mirror};
    use super::*;
    use crate::engine::exact_string;
    use std::collections::HashMap;

    fn one() -> Exact {
        Exact::fraction(1, 1)
    }

    /// Every sequence of rolls that cross something off, played out
    /// literally on the two remaining lists until one is empty. A roll that
    /// crosses nothing off leaves everything as it was, so each step is a
    /// draw among the totals still on some list, preceded by a geometric run
    /// of useless rolls lasting K / (their ways) rolls on average.
    fn brute_force(totals: &Totals, a: &[u8], b: &[u8]) -> GameOdds<Exact> {
        let mut odds = GameOdds {
            a_wins: Exact::zero(),
            b_wins: Exact::zero(),
            tie: Exact::zero(),
            expected_rolls: Exact::zero(),
        };
        // A sequence so far is summed up by (A's remaining, B's remaining).
        let mut frontier: HashMap<(Vec<u8>, Vec<u8>), Exact> = HashMap::new();
        frontier.insert((a.to_vec(), b.to_vec()), one());
        while !frontier.is_empty() {
            let mut next: HashMap<(Vec<u8>, Vec<u8>), Exact> = HashMap::new();
            for ((left_a, left_b), mass) in frontier {
                let useful: Vec<usize> = (0..totals.kinds())
                    .filter(|&i| left_a[i] + left_b[i] > 0)
                    .collect();
                let hit: u64 = useful.iter().map(|&i| totals.ways[i]).sum();
                odds.expected_rolls += &mass * Exact::fraction(totals.outcomes, hit);
                for &s in &useful {
                    let mut na = left_a.clone();
                    let mut nb = left_b.clone();
                    na[s] = na[s].saturating_sub(1);
                    nb[s] = nb[s].saturating_sub(1);
                    let p = &mass * Exact::fraction(totals.ways[s], hit);
                    let a_empty = na.iter().all(|&n| n == 0);
                    let b_empty = nb.iter().all(|&n| n == 0);
                    match (a_empty, b_empty) {
                        (true, true) => odds.tie += p,
                        (true, false) => odds.a_wins += p,
                        (false, true) => odds.b_wins += p,
                        (false, false) => *next.entry((na, nb)).or_insert_with(Exact::zero) += p,
                    }
                }
            }
            frontier = next;
        }
        odds
    }

    #[test]
    fn matches_brute_force_on_every_1d4_pair_of_two_picks() {
        let totals = Totals::of(1, 4);
        let lists = all_lists(totals.kinds(), 2);
        for a in &lists {
            for b in &lists {
                let dp = play::<Exact>(&totals, a, b);
                assert_eq!(dp, brute_force(&totals, a, b), "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn a_single_distinct_pick_by_hand() {
        // 1d4, A = [1], B = [2]: whichever of 1 or 2 comes first wins; each
        // useful roll takes 4/2 = 2 rolls on average.
        let totals = Totals::of(1, 4);
        let o = play::<Exact>(&totals, &[1, 0, 0, 0], &[0, 1, 0, 0]);
        assert_eq!(exact_string(&o.a_wins), "1/2");
        assert_eq!(exact_string(&o.tie), "0/1");
        assert_eq!(exact_string(&o.expected_rolls), "2/1");
        // A = [1, 1] against B = [1]: B always finishes first or ties never.
        let o = play::<Exact>(&totals, &[2, 0, 0, 0], &[1, 0, 0, 0]);
        assert_eq!(exact_string(&o.b_wins), "1/1");
        assert_eq!(exact_string(&o.expected_rolls), "4/1");
    }

    #[test]
    fn probabilities_sum_to_one_and_self_play_ties() {
        let totals = Totals::of(2, 6);
        let lists = all_lists(totals.kinds(), 3);
        for (i, a) in lists.iter().enumerate().step_by(17) {
            let b = &lists[(i * 7 + 3) % lists.len()];
            let o = play::<Exact>(&totals, a, b);
            assert_eq!(&o.a_wins + &o.b_wins + &o.tie, one());
            let same = play::<Exact>(&totals, a, a);
            assert_eq!(same.tie, one());
        }
    }

    #[test]
    fn swapping_and_mirroring_are_symmetries() {
        let totals = Totals::of(2, 6);
        let a = totals.counts(&[5, 6, 7, 8, 9]);
        let b = totals.counts(&[5, 6, 7, 7, 8]);
        let ab = play::<Exact>(&totals, &a, &b);
        let ba = play::<Exact>(&totals, &b, &a);
        assert_eq!(
            (ab.a_wins.clone(), ab.tie.clone()),
            (ba.b_wins.clone(), ba.tie.clone())
        );
        assert_eq!(ab.expected_rolls, ba.expected_rolls);
        let mirrored = play::<Exact>(&totals, &mirror(&a), &mirror(&b));
        assert_eq!(ab, mirrored);
        // A list against its own mirror image is an exact tie in margin.
        let c = totals.counts(&[4, 6, 7, 7, 10]);
        assert!(play::<Exact>(&totals, &c, &mirror(&c)).margin().is_zero());
    }

    #[test]
    fn floats_agree_with_fractions() {
        let totals = Totals::of(3, 6);
        let a = totals.counts(&[9, 10, 11, 12, 10]);
        let b = totals.counts(&[8, 10, 11, 11, 13]);
        let exact = play::<Exact>(&totals, &a, &b);
        let float = play::<f64>(&totals, &a, &b);
        let close = |x: &Exact, y: f64| {
            let x = crate::engine::to_f64(x);
            (x - y).abs() <= 1e-13 * x.abs().max(1.0)
        };
        assert!(close(&exact.a_wins, float.a_wins));
        assert!(close(&exact.b_wins, float.b_wins));
        assert!(close(&exact.tie, float.tie));
        assert!(close(&exact.expected_rolls, float.expected_rolls));
    }
}

#[cfg(test)]
mod monte_carlo {
    use super::super::simulate::{play as play_game, Ending};
    use super::*;
    use crate::analyses::simulate::Sampler;
    use crate::engine::to_f64;

    /// Play `games` games literally with `verify`'s simulator: roll the
    /// dice, cross off, repeat.
    fn simulate(count: u64, sides: u64, a: &[u64], b: &[u64], games: u32) -> (f64, f64, f64, f64) {
        let mut sampler = Sampler::new(2024, "monte carlo");
        let (mut a_wins, mut b_wins, mut rolls, mut rolls_sq) = (0u32, 0u32, 0.0, 0.0);
        for _ in 0..games {
            let (ending, n) = play_game(&mut sampler, a, b, count, sides);
            match ending {
                Ending::AWins => a_wins += 1,
                Ending::BWins => b_wins += 1,
                Ending::Tie => {}
            }
            rolls += n as f64;
            rolls_sq += (n * n) as f64;
        }
        let g = games as f64;
        let mean = rolls / g;
        (
            a_wins as f64 / g,
            b_wins as f64 / g,
            mean,
            (rolls_sq / g - mean * mean).sqrt(),
        )
    }

    #[test]
    fn simulation_agrees_within_its_sampling_error() {
        let games = 40_000;
        for (count, sides, a, b) in [
            (2, 6, vec![5, 6, 7, 8, 9], vec![5, 6, 7, 7, 8]),
            (3, 4, vec![7, 7, 8], vec![6, 8, 9]),
        ] {
            let totals = Totals::of(count, sides);
            let exact = play::<Exact>(&totals, &totals.counts(&a), &totals.counts(&b));
            let (pa, pb, mean, sd) = simulate(count, sides, &a, &b, games);
            // Five standard errors: a false alarm about once in 3.5 million runs.
            let tolerance = |p: f64| 5.0 * (p * (1.0 - p) / games as f64).sqrt();
            let ea = to_f64(&exact.a_wins);
            let eb = to_f64(&exact.b_wins);
            assert!((pa - ea).abs() < tolerance(ea), "{a:?}: {pa} vs {ea}");
            assert!((pb - eb).abs() < tolerance(eb), "{b:?}: {pb} vs {eb}");
            let er = to_f64(&exact.expected_rolls);
            assert!(
                (mean - er).abs() < 5.0 * sd / (games as f64).sqrt(),
                "{mean} vs {er}"
            );
        }
    }
}
