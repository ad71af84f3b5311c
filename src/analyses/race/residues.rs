//! Exact games at machine speed: the dynamic programme of [`game`] run
//! modulo many primes, joined by the Chinese remainder theorem.
//!
//! Why this is exact: along any path of the game each useful roll divides by
//! the useful ways W of the state it leaves, and a game takes at most
//! n = sum of c_s useful rolls. So every probability in the game, and every
//! share of the expected length, is an integer over D = L^n, where L is the
//! least common multiple of the W the game can meet. Hence
//! - margin * D is an integer of size at most D, and
//! - expected rolls * D is an integer of size at most D * K * states
//!   (each state adds at most K / W <= K rolls, times a probability <= 1).
//!
//! Computing those integers modulo primes whose product exceeds twice the
//! bound ([`modular`]) and reconstructing them gives the fractions exactly.
//! It is the same recurrence as the fractions in [`game`], without the gcd
//! after every addition that makes big fractions slow: about as fast as the
//! float version times the number of primes (a dozen for two dice).
//!
//! [`game`]: super::game
//! [`modular`]: crate::engine::modular

use super::game::{play, GameOdds, Lookup, Step, Walk};
use super::lists::Totals;
use super::words::{self, Divisions, Scaled};
use crate::engine::modular::{self, primes_for_bits, Prime};
use crate::engine::{Denominator, Exact};
use num_bigint::{BigUint, Sign};
use num_integer::Integer;
use num_traits::One;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// P(A wins) - P(B wins), exactly.
pub(crate) fn margin(totals: &Totals, a: &[u8], b: &[u8]) -> Exact {
    match solve(totals, a, b, Wanted::Margin) {
        Solved::Fractions(odds) => odds.margin(),
        Solved::Words(scaled) => scaled.margin(),
        Solved::Residues(run) => run.exact(
            run.primes
                .iter()
                .zip(&run.a_wins)
                .zip(&run.b_wins)
                .map(|((prime, &x), &y)| (x + prime.p - y) % prime.p),
        ),
    }
}

/// Expected rolls for one player alone to empty `list`, exactly (the list
/// against itself: the game ends on the roll that empties it).
pub(crate) fn solo_rolls(totals: &Totals, list: &[u8]) -> Exact {
    match solve(totals, list, list, Wanted::All) {
        Solved::Fractions(odds) => odds.expected_rolls,
        Solved::Words(scaled) => scaled.rolls(totals.outcomes),
        Solved::Residues(run) => run.exact(run.rolls.iter().copied()),
    }
}

/// Play A against B exactly, modulo primes; in fractions if a game would
/// need more primes than there are.
pub fn game(totals: &Totals, a: &[u8], b: &[u8]) -> GameOdds<Exact> {
    solve(totals, a, b, Wanted::All).odds(totals)
}

/// What a caller will read from a game: the margin alone (at most 1 in
/// size, so margin * D fits in fewer primes than the expected length
/// needs), or everything.
#[derive(Clone, Copy, PartialEq)]
enum Wanted {
    Margin = 0,
    All = 1,
}

/// A game played out: in one word when its denominator fits, else in
/// residues or (beyond the primes) in fractions.
enum Solved {
    Words(Scaled),
    Residues(Run),
    Fractions(GameOdds<Exact>),
}

/// A game's quantities modulo each prime, each the residue of value / D.
/// Only the quantities a caller asks for are turned into fractions.
struct Run {
    primes: &'static [Prime],
    /// The shape, for its D.
    common: Arc<Common>,
    wanted: Wanted,
    /// D modulo each prime.
    scale: Vec<u64>,
    a_wins: Vec<u64>,
    b_wins: Vec<u64>,
    tie: Vec<u64>,
    rolls: Vec<u64>,
}

impl Run {
    /// The fraction whose residues (of value, not yet times D) these are:
    /// the integer value * D from its residues, over D.
    fn exact(&self, residues: impl Iterator<Item = u64>) -> Exact {
        let scaled: Vec<u64> = residues
            .zip(self.primes.iter().zip(&self.scale))
            .map(|(r, (prime, &d))| prime.mul_plain(r, d))
            .collect();
        let (sign, magnitude) = modular::reconstruct(&scaled).into_parts();
        let value = self.common.over[self.wanted as usize].ratio(&magnitude);
        if sign == Sign::Minus {
            -value
        } else {
            value
        }
    }
}

impl Solved {
    /// Everything a game solved with [`Wanted::All`] found.
    fn odds(self, totals: &Totals) -> GameOdds<Exact> {
        match self {
            Solved::Fractions(odds) => odds,
            Solved::Words(scaled) => {
                let [a_wins, b_wins, tie] = scaled.odds();
                GameOdds {
                    a_wins,
                    b_wins,
                    tie,
                    expected_rolls: scaled.rolls(totals.outcomes),
                }
            }
            Solved::Residues(run) => GameOdds {
                a_wins: run.exact(run.a_wins.iter().copied()),
                b_wins: run.exact(run.b_wins.iter().copied()),
                tie: run.exact(run.tie.iter().copied()),
                expected_rolls: run.exact(run.rolls.iter().copied()),
            },
        }
    }
}

/// In one word when the shape's denominator allows, else [`in_residues`].
fn solve(totals: &Totals, a: &[u8], b: &[u8], wanted: Wanted) -> Solved {
    let walk = Walk::lumped(totals, a, b);
    let common = Common::of(&walk);
    let in_words = common.words.as_ref().and_then(|divisions| {
        words::run(&walk, &common.divisors, divisions, wanted == Wanted::All)
    });
    match in_words {
        Some(scaled) => Solved::Words(scaled),
        None => in_residues(totals, a, b, &walk, &common, wanted),
    }
}

/// With [`Wanted::Margin`], only the wins' residues are good for
/// reading back: |P(A wins) - P(B wins)| * D <= D, while the expected
/// length's bound is D * K * states (see the module doc).
fn in_residues(
    totals: &Totals,
    a: &[u8],
    b: &[u8],
    walk: &Walk,
    common: &Arc<Common>,
    wanted: Wanted,
) -> Solved {
    let bound_bits = match wanted {
        Wanted::Margin => common.margin.bits(),
        Wanted::All => {
            common.all.bits()
                + u64::from(64 - totals.outcomes.leading_zeros())
                + u64::from(usize::BITS - walk.size().leading_zeros())
        }
    };
    let count = primes_for_bits(bound_bits);
    if count > modular::PRIMES {
        return Solved::Fractions(play::<Exact>(totals, a, b));
    }
    let primes = &modular::primes()[..count];
    let prepared = common.prepared(count);
    let [a_wins, b_wins, tie, rolls] = run(totals, walk, common, &prepared, primes, wanted);
    Solved::Residues(Run {
        primes,
        common: Arc::clone(common),
        wanted,
        scale: prepared.scale[wanted as usize][..count].to_vec(),
        a_wins,
        b_wins,
        tie,
        rolls,
    })
}

/// What a game's exact run needs besides its lists: the W its states can
/// divide by and common denominators. Both depend only on the walk's
/// shape (the multiset of (cap, ways) over its useful totals), and in a
/// search many games share a shape, so each shape is worked out once.
struct Common {
    /// Every useful-ways total W a state of the shape can divide by,
    /// ascending.
    divisors: Vec<u64>,
    /// D for the wins and the tie.
    margin: BigUint,
    /// D for those and the expected length's shares.
    all: BigUint,
    /// `margin` and `all` ready to reduce fractions over them by counting
    /// off their known primes, not by a gcd of long numbers.
    over: [Denominator; 2],
    /// Division by each W in words, when `all` fits one.
    words: Option<Divisions>,
    /// What runs modulo the primes need, for as many as games have asked.
    prepared: Mutex<Arc<Prepared>>,
}

/// Per prime, what a shape's runs modulo it need: each W's inverse (times
/// R^2, see [`Game::lanes`]) and D. Kept with the shape rather than worked
/// out for each game: an inverse is an extended Euclid in 128-bit words,
/// and a game needs one per divisor and prime.
#[derive(Default)]
struct Prepared {
    /// By prime, then by divisor.
    inverses: Vec<Vec<u64>>,
    /// D for the margin and D for everything, by prime.
    scale: [Vec<u64>; 2],
}

impl Prepared {
    fn of(common: &Common, count: usize) -> Prepared {
        let primes = &modular::primes()[..count];
        let inverses = primes
            .iter()
            .map(|prime| {
                common
                    .divisors
                    .iter()
                    .map(|&w| prime.to_montgomery(prime.to_montgomery(prime.inverse(w))))
                    .collect()
            })
            .collect();
        let scale = [&common.margin, &common.all].map(|d| {
            primes
                .iter()
                .map(|prime| u64::try_from(d % prime.p).expect("below p"))
                .collect()
        });
        Prepared { inverses, scale }
    }
}

/// Shapes worked out so far. Emptied when full, so a long build of many
/// scenarios keeps a bounded amount.
type Shapes = HashMap<Vec<(u8, u64)>, Arc<Common>>;

/// The most shapes kept.
const SHAPES_KEPT: usize = 1 << 16;

impl Common {
    /// The shape's [`Common`], worked out on first use.
    ///
    /// Why a game may use its shape's: the unending walk of the shape
    /// (every total rolled to its cap, [`Walk::unending`]) holds every
    /// state of the game, the same digits in another order, with the same
    /// W; the game's paths are some of its paths, cut short where a list is
    /// done. So every W the game meets is among the shape's, and a
    /// denominator of every path and prefix of the unending walk is one of
    /// the game's; a lumped state's probability is a sum of such paths'.
    /// It costs little: most games need the same number of primes either
    /// way.
    fn of(walk: &Walk) -> Arc<Common> {
        static SHAPES: OnceLock<Mutex<Shapes>> = OnceLock::new();
        let shapes = SHAPES.get_or_init(Mutex::default);
        let shape = walk.shape();
        let known = shapes
            .lock()
            .ok()
            .and_then(|known| known.get(&shape).cloned());
        if let Some(common) = known {
            return common;
        }
        let unending = Walk::unending(&shape);
        let divisors = divisors_met(&unending);
        let ([margin, all], primes) = denominators(&unending, &divisors);
        let words = Divisions::of(&all, &divisors);
        let over = [&margin, &all].map(|d| match &primes {
            Some(primes) => Denominator::with_primes(d, primes),
            None => Denominator::unfactored(d),
        });
        let common = Arc::new(Common {
            divisors,
            margin,
            all,
            over,
            words,
            prepared: Mutex::default(),
        });
        // A poisoned lock only loses the memo, never a result.
        if let Ok(mut known) = shapes.lock() {
            if known.len() >= SHAPES_KEPT {
                known.clear();
            }
            known.insert(shape, Arc::clone(&common));
        }
        common
    }

    /// The shape's [`Prepared`] for at least the first `count` primes.
    fn prepared(&self, count: usize) -> Arc<Prepared> {
        let mut held = self.prepared.lock().unwrap_or_else(PoisonError::into_inner);
        if held.inverses.len() < count {
            *held = Arc::new(Prepared::of(self, count));
        }
        Arc::clone(&held)
    }
}

/// Every useful-ways total W that some state divides by, ascending. Kept
/// with each shape, so collected as a set rather than as a list of every
/// change (W changes at almost every state) cut down afterwards.
fn divisors_met(walk: &Walk) -> Vec<u64> {
    let mut met = BTreeSet::new();
    let mut last = 0;
    walk.each(|_, step, _| {
        if let Step::Roll { useful } = step {
            if useful != last {
                met.insert(useful);
                last = useful;
            }
        }
    });
    met.into_iter().collect()
}

/// Largest useful ways factored by trial division; beyond, the bound is
/// the cruder L^n.
const FACTOR_UP_TO: u64 = 1 << 20;

/// Common denominators D of the probabilities of a walk's states (for the
/// wins and the tie) and of those and the shares of the expected length.
///
/// A path's probability is the product of w / W over its rolls, so its
/// reduced denominator has, for each prime q, the factors of q its W hold
/// less those its w hold (when that is positive). The least common multiple
/// over paths is prod over primes q of q^(the most any path or prefix
/// keeps); a share divides a state's probability by its W once more. One
/// pass in index order finds those exponents: each state keeps the most of
/// each prime any path into it has kept. Several times fewer bits than L^n,
/// and so that many fewer primes to run.
/// With D's primes, when known (else D = L^n, and `None`).
fn denominators(walk: &Walk, divisors: &[u64]) -> ([BigUint; 2], Option<Vec<u64>>) {
    let factored: Option<Vec<Vec<(u64, i16)>>> = divisors.iter().map(|&w| factor(w)).collect();
    let Some(factored) = factored else {
        let lcm = divisors
            .iter()
            .fold(BigUint::one(), |l, &w| l.lcm(&BigUint::from(w)));
        let d = lcm.pow(walk.longest() as u32);
        return ([d.clone(), d], None);
    };
    let mut primes: Vec<u64> = factored.iter().flatten().map(|&(q, _)| q).collect();
    primes.sort_unstable();
    primes.dedup();
    let mut adds: Vec<Vec<i16>> = vec![vec![0; primes.len()]; divisors.len()];
    for (d, factors) in factored.iter().enumerate() {
        for &(q, e) in factors {
            adds[d][primes.binary_search(&q).expect("collected")] = e;
        }
    }
    // Only the primes of some W can be left over, so only theirs count.
    let subs: Vec<Vec<i16>> = walk
        .ways()
        .iter()
        .map(|&w| primes.iter().map(|&q| multiplicity(w, q)).collect())
        .collect();
    let factors = Factors {
        walk,
        divisors,
        adds: &adds,
        subs: &subs,
    };
    let [margin, all] = match primes.len() {
        0..=8 => factors.most::<8>(),
        9..=16 => factors.most::<16>(),
        17..=32 => factors.most::<32>(),
        _ => factors.most::<64>(),
    };
    let product = |worst: Vec<i16>| -> BigUint {
        primes
            .iter()
            .zip(worst)
            .map(|(&q, e)| BigUint::from(q).pow(e.max(0) as u32))
            .product()
    };
    ([product(margin), product(all)], Some(primes))
}

/// How many times q divides w (w > 0).
fn multiplicity(mut w: u64, q: u64) -> i16 {
    let mut e = 0;
    while w > 0 && w.is_multiple_of(q) {
        w /= q;
        e += 1;
    }
    e
}

/// The walk and, per prime (lane), the factors each W adds and each w
/// takes away.
struct Factors<'a> {
    walk: &'a Walk,
    divisors: &'a [u64],
    /// Per divisor, per prime: its exponent.
    adds: &'a [Vec<i16>],
    /// Per useful total, per prime: the exponent in its ways.
    subs: &'a [Vec<i16>],
}

impl Factors<'_> {
    /// For each prime, the most factors any path or prefix keeps (for the
    /// wins) and that plus its last W (for the shares). Lanes are
    /// fixed-width arrays so the max runs as a few vector instructions.
    fn most<const N: usize>(&self) -> [Vec<i16>; 2] {
        let lanes = self.adds.first().map_or(0, Vec::len);
        if lanes > N {
            // More distinct primes than lanes: chunk them.
            let split = |rows: &[Vec<i16>]| -> (Vec<Vec<i16>>, Vec<Vec<i16>>) {
                rows.iter()
                    .map(|a| (a[..N].to_vec(), a[N..].to_vec()))
                    .unzip()
            };
            let (adds_first, adds_rest) = split(self.adds);
            let (subs_first, subs_rest) = split(self.subs);
            let part = |adds: &[Vec<i16>], subs: &[Vec<i16>]| {
                Factors {
                    walk: self.walk,
                    divisors: self.divisors,
                    adds,
                    subs,
                }
                .most::<N>()
            };
            let [mut margin, mut all] = part(&adds_first, &subs_first);
            let [margin_rest, all_rest] = part(&adds_rest, &subs_rest);
            margin.extend(margin_rest);
            all.extend(all_rest);
            return [margin, all];
        }
        let widen = |a: &Vec<i16>| {
            let mut lane = [0i16; N];
            lane[..a.len()].copy_from_slice(a);
            lane
        };
        let adds: Vec<[i16; N]> = self.adds.iter().map(widen).collect();
        let subs: Vec<[i16; N]> = self.subs.iter().map(widen).collect();
        // Every state of an unending walk is reached, so each is raised
        // from this floor before it is read. Exponents stay far inside i16:
        // at most 2 * MAX_PICKS rolls of at most 53 factors each.
        let mut exponents = vec![[i16::MIN / 2; N]; self.walk.size()];
        exponents[0] = [0; N];
        let mut margin = [0i16; N];
        let mut all = [0i16; N];
        let mut lookup = Lookup::new(self.divisors);
        self.walk.each(|state, step, digits| {
            let here = exponents[state];
            margin = std::array::from_fn(|i| margin[i].max(here[i]));
            let Step::Roll { useful } = step else {
                return;
            };
            let add = &adds[lookup.position(useful)];
            let after: [i16; N] = std::array::from_fn(|i| here[i] + add[i]);
            all = std::array::from_fn(|i| all[i].max(after[i]));
            for (next, s) in self.walk.moves(state, digits) {
                let slot = &mut exponents[next];
                *slot = std::array::from_fn(|i| slot[i].max(after[i] - subs[s][i]));
            }
        });
        let all: [i16; N] = std::array::from_fn(|i| all[i].max(margin[i]));
        [margin[..lanes].to_vec(), all[..lanes].to_vec()]
    }
}

/// The prime factorisation of a small number; `None` beyond [`FACTOR_UP_TO`].
fn factor(mut n: u64) -> Option<Vec<(u64, i16)>> {
    if n > FACTOR_UP_TO {
        return None;
    }
    let mut factors = Vec::new();
    let mut q = 2;
    while q * q <= n {
        let mut e = 0;
        while n.is_multiple_of(q) {
            n /= q;
            e += 1;
        }
        if e > 0 {
            factors.push((q, e));
        }
        q += 1;
    }
    if n > 1 {
        factors.push((n, 1));
    }
    Some(factors)
}

/// P(A wins) * D, P(B wins) * D, P(tie) * D and expected rolls * D modulo
/// each prime.
///
/// The primes go through the game in groups held in fixed-width arrays, so
/// the per-prime loops unroll; a group narrower than its array repeats its
/// first prime in the spare lanes and drops them at the end. The expected
/// rolls are left at zero when only the margin is wanted.
fn run(
    totals: &Totals,
    walk: &Walk,
    common: &Common,
    prepared: &Prepared,
    primes: &[Prime],
    wanted: Wanted,
) -> [Vec<u64>; 4] {
    let mut all: [Vec<u64>; 4] = Default::default();
    let game = Game {
        totals,
        walk,
        divisors: &common.divisors,
        rolls: wanted == Wanted::All,
    };
    for (g, group) in primes.chunks(32).enumerate() {
        let inverses = &prepared.inverses[g * 32..];
        let residues = match group.len() {
            1 => game.lanes::<1>(group, inverses),
            2 => game.lanes::<2>(group, inverses),
            3 => game.lanes::<3>(group, inverses),
            4 => game.lanes::<4>(group, inverses),
            5 => game.lanes::<5>(group, inverses),
            6 => game.lanes::<6>(group, inverses),
            7 | 8 => game.lanes::<8>(group, inverses),
            9..=12 => game.lanes::<12>(group, inverses),
            13..=16 => game.lanes::<16>(group, inverses),
            17..=24 => game.lanes::<24>(group, inverses),
            _ => game.lanes::<32>(group, inverses),
        };
        for (into, from) in all.iter_mut().zip(residues) {
            into.extend_from_slice(&from[..group.len()]);
        }
    }
    all
}

/// A game to run modulo primes.
struct Game<'a> {
    totals: &'a Totals,
    walk: &'a Walk,
    divisors: &'a [u64],
    /// Whether to sum the expected length's shares.
    rolls: bool,
}

impl Game<'_> {
    /// One group of at most `N` primes through the game.
    ///
    /// Every state keeps, per prime, a 128-bit sum of (share in Montgomery
    /// form) * ways over the rolls that lead to it; one Montgomery reduction
    /// turns that into the state's probability. The sums stay below
    /// p * 2^64 because the ways into a state add up to at most K < 2^53.
    fn lanes<const N: usize>(&self, group: &[Prime], inverses: &[Vec<u64>]) -> [Vec<u64>; 4] {
        let Game {
            totals,
            walk,
            divisors,
            rolls,
        } = *self;
        let primes: [Prime; N] = std::array::from_fn(|j| group[j.min(group.len() - 1)]);
        // For each divisor W and prime: W^{-1} R^2 (from [`Prepared`]), so
        // that one Montgomery product of a plain probability gives its share
        // in Montgomery form.
        let last = group.len() - 1;
        let inverse_of: Vec<[u64; N]> = (0..divisors.len())
            .map(|d| std::array::from_fn(|j| inverses[j.min(last)][d]))
            .collect();
        let mut reach = vec![[0u128; N]; walk.size()];
        reach[0] = std::array::from_fn(|j| primes[j].one() as u128);
        let mut a_wins = [0u128; N];
        let mut b_wins = [0u128; N];
        let mut tie = [0u128; N];
        let mut spent = [0u128; N];
        let mut lookup = Lookup::new(divisors);
        walk.each(|state, step, digits| {
            let here = reach[state];
            let into = match step {
                Step::Tie => &mut tie,
                Step::AWins => &mut a_wins,
                Step::BWins => &mut b_wins,
                Step::Roll { useful } => {
                    let inverses = &inverse_of[lookup.position(useful)];
                    let share: [u64; N] = std::array::from_fn(|j| {
                        primes[j].mul(primes[j].reduce(here[j]), inverses[j])
                    });
                    if rolls {
                        for j in 0..N {
                            spent[j] += share[j] as u128;
                        }
                    }
                    for (next, s) in walk.moves(state, digits) {
                        let ways = walk.ways_of(s, digits);
                        let slot = &mut reach[next];
                        for j in 0..N {
                            slot[j] += share[j] as u128 * ways as u128;
                        }
                    }
                    return;
                }
            };
            for j in 0..N {
                into[j] += primes[j].reduce(here[j]) as u128;
            }
        });
        let plain = |sums: &[u128; N]| -> Vec<u64> {
            (0..N)
                .map(|j| (sums[j] % primes[j].p as u128) as u64)
                .collect()
        };
        let expected = (0..N)
            .map(|j| {
                let prime = &primes[j];
                prime.mul_plain(prime.reduce(spent[j]), totals.outcomes % prime.p)
            })
            .collect();
        [plain(&a_wins), plain(&b_wins), plain(&tie), expected]
    }
}

#[cfg(test)]
mod tests {
    use super::super::lists::{all_lists, mirror};
    use super::*;
    use num_traits::Zero;

    /// The game in residues, and in words if its denominator fits one.
    fn both_ways(totals: &Totals, a: &[u8], b: &[u8]) -> [Option<GameOdds<Exact>>; 2] {
        let walk = Walk::lumped(totals, a, b);
        let common = Common::of(&walk);
        let residues = in_residues(totals, a, b, &walk, &common, Wanted::All);
        let words = common
            .words
            .as_ref()
            .and_then(|divisions| words::run(&walk, &common.divisors, divisions, true));
        [
            Some(residues.odds(totals)),
            words.map(|scaled| Solved::Words(scaled).odds(totals)),
        ]
    }

    #[test]
    fn agrees_with_fractions_on_spread_out_pairs() {
        let mut in_words = 0;
        for (count, sides, picks) in [(1, 4, 2), (2, 6, 3), (2, 6, 5), (3, 4, 4), (3, 6, 3)] {
            let totals = Totals::of(count, sides);
            let lists = all_lists(totals.kinds(), picks);
            let step = (lists.len() / 40).max(1);
            for (i, a) in lists.iter().enumerate().step_by(step) {
                let b = &lists[(i * 31 + 11) % lists.len()];
                let exact = play::<Exact>(&totals, a, b);
                let fast = game(&totals, a, b);
                assert_eq!(margin(&totals, a, b), exact.margin(), "{a:?} {b:?}");
                assert_eq!(fast, exact, "{a:?} {b:?}");
                // Each way on its own, whichever `game` took.
                let [residues, words] = both_ways(&totals, a, b);
                assert_eq!(residues.as_ref(), Some(&exact), "{a:?} {b:?}");
                if let Some(words) = words {
                    assert_eq!(words, exact, "{a:?} {b:?}");
                    in_words += 1;
                }
            }
        }
        assert!(in_words > 20, "{in_words}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn any_pair_on_any_small_pool_agrees_with_fractions(
            count in 1u64..=3,
            sides in 2u64..=6,
            picks in 1u64..=4,
            seed in 0usize..1_000_000,
        ) {
            let totals = Totals::of(count, sides);
            let lists = all_lists(totals.kinds(), picks);
            let a = &lists[seed % lists.len()];
            let b = &lists[(seed / 7 + seed % 13) % lists.len()];
            let exact = play::<Exact>(&totals, a, b);
            let fast = game(&totals, a, b);
            proptest::prop_assert_eq!(fast, exact);
        }
    }

    #[test]
    fn a_division_that_is_not_exact_sends_the_game_back_to_the_primes() {
        // D = 1 cannot be divided by the first W: the words refuse the game.
        let totals = Totals::of(2, 6);
        let (a, b) = (totals.counts(&[6, 7, 8]), totals.counts(&[5, 7, 9]));
        let walk = Walk::lumped(&totals, &a, &b);
        let common = Common::of(&walk);
        let one = Divisions::of(&BigUint::one(), &common.divisors).expect("1 fits");
        assert!(words::run(&walk, &common.divisors, &one, false).is_none());
        assert!(common.words.is_some(), "this game's D fits a word");
    }

    #[test]
    fn the_longest_games_need_the_most_primes_and_still_agree() {
        // All copies on the rarest totals: the most rolls and the most
        // different divisors, so the size bound is tested where it is tight.
        let totals = Totals::of(2, 6);
        let a = totals.counts(&[2, 2, 2, 12, 12, 3]);
        let b = totals.counts(&[12, 12, 12, 2, 11, 11]);
        let exact = play::<Exact>(&totals, &a, &b);
        let fast = game(&totals, &a, &b);
        assert_eq!(fast, exact);
    }

    #[test]
    fn ties_and_solo_times() {
        let totals = Totals::of(2, 6);
        let a = totals.counts(&[4, 6, 7, 7, 10]);
        assert!(margin(&totals, &a, &mirror(&a)).is_zero());
        assert!(margin(&totals, &a, &a).is_zero());
        // One 7 alone: 6 rolls on average.
        assert_eq!(
            solo_rolls(&totals, &totals.counts(&[7])),
            Exact::from_integer(6.into())
        );
        assert_eq!(
            solo_rolls(&totals, &a),
            play::<Exact>(&totals, &a, &a).expected_rolls
        );
    }
}
