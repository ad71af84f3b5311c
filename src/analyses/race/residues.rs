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

use super::game::{play, GameOdds, Step, Walk};
use super::lists::Totals;
use crate::engine::modular::{self, primes_for_bits, Prime};
use crate::engine::Exact;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::One;

/// P(A wins) - P(B wins), exactly.
pub(crate) fn margin(totals: &Totals, a: &[u8], b: &[u8]) -> Exact {
    match solve(totals, a, b, Wanted::Margin) {
        Solved::Fractions(odds) => odds.margin(),
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
        Solved::Residues(run) => run.exact(run.rolls.iter().copied()),
    }
}

/// Play A against B exactly, modulo primes; in fractions if a game would
/// need more primes than there are.
pub fn game(totals: &Totals, a: &[u8], b: &[u8]) -> GameOdds<Exact> {
    match solve(totals, a, b, Wanted::All) {
        Solved::Fractions(odds) => odds,
        Solved::Residues(run) => GameOdds {
            a_wins: run.exact(run.a_wins.iter().copied()),
            b_wins: run.exact(run.b_wins.iter().copied()),
            tie: run.exact(run.tie.iter().copied()),
            expected_rolls: run.exact(run.rolls.iter().copied()),
        },
    }
}

/// What a caller will read from a game: the margin alone (at most 1 in
/// size, so margin * D fits in fewer primes than the expected length
/// needs), or everything.
#[derive(Clone, Copy, PartialEq)]
enum Wanted {
    Margin,
    All,
}

/// A game played out, in residues or (beyond the primes) in fractions.
enum Solved {
    Residues(Run),
    Fractions(GameOdds<Exact>),
}

/// A game's quantities modulo each prime, each the residue of value / D.
/// Only the quantities a caller asks for are turned into fractions.
struct Run {
    primes: &'static [Prime],
    denominator: BigInt,
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
        Exact::new(modular::reconstruct(&scaled), self.denominator.clone())
    }
}

/// With [`Wanted::Margin`], only the wins' residues are good for
/// reading back: |P(A wins) - P(B wins)| * D <= D, while the expected
/// length's bound is D * K * states (see the module doc).
fn solve(totals: &Totals, a: &[u8], b: &[u8], wanted: Wanted) -> Solved {
    let walk = Walk::of(totals, a, b);
    let divisors = divisors_met(&walk);
    let denominator = denominator(&walk, &divisors);
    let bound_bits = match wanted {
        Wanted::Margin => denominator.bits(),
        Wanted::All => {
            denominator.bits()
                + u64::from(64 - totals.outcomes.leading_zeros())
                + u64::from(usize::BITS - walk.size().leading_zeros())
        }
    };
    let count = primes_for_bits(bound_bits);
    if count > modular::PRIMES {
        return Solved::Fractions(play::<Exact>(totals, a, b));
    }
    let primes = &modular::primes()[..count];
    let [a_wins, b_wins, tie, rolls] = run(totals, &walk, &divisors, primes);
    let scale = primes
        .iter()
        .map(|prime| u64::try_from(&denominator % prime.p).expect("below p"))
        .collect();
    Solved::Residues(Run {
        primes,
        denominator: BigInt::from(denominator),
        scale,
        a_wins,
        b_wins,
        tie,
        rolls,
    })
}

/// Every useful-ways total W that some state divides by, ascending.
fn divisors_met(walk: &Walk) -> Vec<u64> {
    let mut met = Vec::new();
    walk.each(|_, step, _| {
        // W changes only when a digit reaches or leaves its cap: runs of
        // states share it.
        if let Step::Roll { useful } = step {
            if met.last() != Some(&useful) {
                met.push(useful);
            }
        }
    });
    met.sort_unstable();
    met.dedup();
    met
}

/// Largest useful ways factored by trial division; beyond, the bound is
/// the cruder L^n.
const FACTOR_UP_TO: u64 = 1 << 20;

/// A common denominator D of every probability and share in the game.
///
/// A path's probability has the product of the W it left as denominator,
/// so the least common multiple over paths is prod over primes q of
/// q^(the most factors q any path collects). One pass in index order finds
/// those exponents (each state keeps the most of each prime any path into it
/// has collected), and paths only end in finished states. Two to five times
/// fewer bits than L^n, and so that many fewer primes to run.
fn denominator(walk: &Walk, divisors: &[u64]) -> BigUint {
    let factored: Option<Vec<Vec<(u64, i16)>>> = divisors.iter().map(|&w| factor(w)).collect();
    let Some(factored) = factored else {
        let lcm = divisors
            .iter()
            .fold(BigUint::one(), |l, &w| l.lcm(&BigUint::from(w)));
        return lcm.pow(walk.longest() as u32);
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
    let worst = match primes.len() {
        0..=8 => most_factors::<8>(walk, divisors, &adds),
        9..=16 => most_factors::<16>(walk, divisors, &adds),
        17..=32 => most_factors::<32>(walk, divisors, &adds),
        _ => most_factors::<64>(walk, divisors, &adds),
    };
    primes
        .iter()
        .zip(worst)
        .map(|(&q, e)| BigUint::from(q).pow(e as u32))
        .product()
}

/// For each prime (lane), the most factors of it any path collects. Lanes
/// are fixed-width arrays so the max runs as a few vector instructions.
fn most_factors<const N: usize>(walk: &Walk, divisors: &[u64], adds: &[Vec<i16>]) -> Vec<i16> {
    let lanes = adds.first().map_or(0, Vec::len);
    if lanes > N {
        // More distinct primes than lanes: chunk them.
        let (first, rest): (Vec<Vec<i16>>, Vec<Vec<i16>>) = adds
            .iter()
            .map(|a| (a[..N].to_vec(), a[N..].to_vec()))
            .unzip();
        let mut worst = most_factors::<N>(walk, divisors, &first);
        worst.extend(most_factors::<N>(walk, divisors, &rest));
        return worst;
    }
    let widen = |a: &Vec<i16>| {
        let mut lane = [0i16; N];
        lane[..a.len()].copy_from_slice(a);
        lane
    };
    let adds: Vec<[i16; N]> = adds.iter().map(widen).collect();
    let mut exponents = vec![[0i16; N]; walk.size()];
    let mut worst = [0i16; N];
    let mut lookup = Lookup::new(divisors);
    walk.each(|state, step, rolled| {
        let here = exponents[state];
        let Step::Roll { useful } = step else {
            worst = std::array::from_fn(|i| worst[i].max(here[i]));
            return;
        };
        let add = &adds[lookup.position(useful)];
        let after: [i16; N] = std::array::from_fn(|i| here[i] + add[i]);
        for (next, _) in walk.moves(state, rolled) {
            let slot = &mut exponents[next];
            *slot = std::array::from_fn(|i| slot[i].max(after[i]));
        }
    });
    worst[..lanes].to_vec()
}

/// Where a state's W sits among the divisors. W changes only when a digit
/// reaches or leaves its cap, so the last answer is kept and the search runs
/// only when W changes.
struct Lookup<'d> {
    divisors: &'d [u64],
    last: (u64, usize),
}

impl<'d> Lookup<'d> {
    fn new(divisors: &'d [u64]) -> Lookup<'d> {
        Lookup {
            divisors,
            last: (0, 0),
        }
    }

    fn position(&mut self, useful: u64) -> usize {
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
/// first prime in the spare lanes and drops them at the end.
fn run(totals: &Totals, walk: &Walk, divisors: &[u64], primes: &[Prime]) -> [Vec<u64>; 4] {
    let mut all: [Vec<u64>; 4] = Default::default();
    for group in primes.chunks(32) {
        let residues = match group.len() {
            1 => lanes::<1>(totals, walk, divisors, group),
            2 => lanes::<2>(totals, walk, divisors, group),
            3 => lanes::<3>(totals, walk, divisors, group),
            4 => lanes::<4>(totals, walk, divisors, group),
            5 => lanes::<5>(totals, walk, divisors, group),
            6 => lanes::<6>(totals, walk, divisors, group),
            7 | 8 => lanes::<8>(totals, walk, divisors, group),
            9..=12 => lanes::<12>(totals, walk, divisors, group),
            13..=16 => lanes::<16>(totals, walk, divisors, group),
            17..=24 => lanes::<24>(totals, walk, divisors, group),
            _ => lanes::<32>(totals, walk, divisors, group),
        };
        for (into, from) in all.iter_mut().zip(residues) {
            into.extend_from_slice(&from[..group.len()]);
        }
    }
    all
}

/// One group of at most `N` primes through the game.
///
/// Every state keeps, per prime, a 128-bit sum of (share in Montgomery
/// form) * ways over the rolls that lead to it; one Montgomery reduction
/// turns that into the state's probability. The sums stay below
/// p * 2^64 because the ways into a state add up to at most K < 2^53.
fn lanes<const N: usize>(
    totals: &Totals,
    walk: &Walk,
    divisors: &[u64],
    group: &[Prime],
) -> [Vec<u64>; 4] {
    let primes: [Prime; N] = std::array::from_fn(|j| group[j.min(group.len() - 1)]);
    // For each divisor W and prime: W^{-1} R^2, so that one Montgomery
    // product of a plain probability gives its share in Montgomery form.
    let inverse_of: Vec<[u64; N]> = divisors
        .iter()
        .map(|&w| {
            std::array::from_fn(|j| {
                let prime = &primes[j];
                prime.to_montgomery(prime.to_montgomery(prime.inverse(w)))
            })
        })
        .collect();
    let mut reach = vec![[0u128; N]; walk.size()];
    reach[0] = std::array::from_fn(|j| primes[j].one() as u128);
    let mut a_wins = [0u128; N];
    let mut b_wins = [0u128; N];
    let mut tie = [0u128; N];
    let mut shares = [0u128; N];
    let mut lookup = Lookup::new(divisors);
    walk.each(|state, step, rolled| {
        let here = reach[state];
        let into = match step {
            Step::Tie => &mut tie,
            Step::AWins => &mut a_wins,
            Step::BWins => &mut b_wins,
            Step::Roll { useful } => {
                let inverses = &inverse_of[lookup.position(useful)];
                let share: [u64; N] =
                    std::array::from_fn(|j| primes[j].mul(primes[j].reduce(here[j]), inverses[j]));
                for j in 0..N {
                    shares[j] += share[j] as u128;
                }
                for (next, ways) in walk.moves(state, rolled) {
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
    let rolls = (0..N)
        .map(|j| {
            let prime = &primes[j];
            prime.mul_plain(prime.reduce(shares[j]), totals.outcomes % prime.p)
        })
        .collect();
    [plain(&a_wins), plain(&b_wins), plain(&tie), rolls]
}

#[cfg(test)]
mod tests {
    use super::super::lists::{all_lists, mirror};
    use super::*;
    use num_traits::Zero;

    #[test]
    fn agrees_with_fractions_on_spread_out_pairs() {
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
            }
        }
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
