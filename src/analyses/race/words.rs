//! Exact games in one 128-bit word, when the common denominator fits.
//!
//! [`residues`] shows every state's probability, and every share of it
//! (the probability over the state's W), is an integer over the shape's
//! denominator D for the shares. Scaled by D they are integers no larger
//! than D, so when D < 2^127 the whole game runs once in `u128` instead of
//! once per prime, and the results need no Chinese remainders.
//!
//! The one division, share = probability * D / W, is done by shifting out
//! W's twos and multiplying by the inverse of its odd part o modulo 2^128.
//! Each is checked (y is a multiple of odd o exactly when y * o^-1 mod 2^128
//! is at most (2^128 - 1) / o), and a game where one failed is played
//! modulo primes instead: the words rest on no unchecked claim.
//!
//! [`residues`]: super::residues

use super::game::{lend_zeros, Lookup, Step, Walk};
use crate::engine::modular::odd_inverse;
use crate::engine::Exact;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use std::cell::Cell;

/// Dividing by one W exactly, in words.
struct Division {
    /// How many twos W has.
    twos: u32,
    /// The inverse of W's odd part modulo 2^128.
    inverse: u128,
    /// (2^128 - 1) / (W's odd part): the largest exact quotient.
    limit: u128,
}

/// A shape's denominator and divisions, when the denominator fits a word.
pub(super) struct Divisions {
    denominator: u128,
    by: Vec<Division>,
}

impl Divisions {
    /// `None` when D is too large for a word (2^127, so that a difference
    /// of two probabilities times D fits an `i128`).
    pub(super) fn of(denominator: &BigUint, divisors: &[u64]) -> Option<Divisions> {
        if denominator.bits() > 127 {
            return None;
        }
        let denominator = u128::try_from(denominator).ok()?;
        let by = divisors
            .iter()
            .map(|&w| {
                let twos = w.trailing_zeros();
                let odd = u128::from(w >> twos);
                Division {
                    twos,
                    inverse: odd_inverse(odd),
                    limit: u128::MAX / odd,
                }
            })
            .collect();
        Some(Divisions { denominator, by })
    }
}

/// A game's quantities times D, exactly.
pub(super) struct Scaled {
    a_wins: u128,
    b_wins: u128,
    tie: u128,
    /// The sum of the shares: expected useful rolls weighed by K / W, over K.
    spent: u128,
    denominator: u128,
}

/// Play a walk in words; `None` if D is too large for it or a division was
/// not exact. With `rolls`, the shares are summed too: at most D times
/// the longest game, which must then fit as well.
pub(super) fn run(
    walk: &Walk,
    divisors: &[u64],
    divisions: &Divisions,
    rolls: bool,
) -> Option<Scaled> {
    let d = divisions.denominator;
    if rolls && d.checked_mul(u128::from(walk.longest())).is_none() {
        return None;
    }
    thread_local! {
        static ZEROS: Cell<Vec<u128>> = const { Cell::new(Vec::new()) };
    }
    let (mut a_wins, mut b_wins, mut tie, mut spent) = (0u128, 0u128, 0u128, 0u128);
    let mut exact = true;
    let mut lookup = Lookup::new(divisors);
    lend_zeros(&ZEROS, walk.size(), |reach| {
        reach[0] = d;
        walk.each(|state, step, digits| {
            let here = std::mem::take(&mut reach[state]);
            if here == 0 {
                return;
            }
            match step {
                // Wrapping: after a failed division the numbers are thrown away.
                Step::Tie => tie = tie.wrapping_add(here),
                Step::AWins => a_wins = a_wins.wrapping_add(here),
                Step::BWins => b_wins = b_wins.wrapping_add(here),
                Step::Roll { useful } => {
                    let by = &divisions.by[lookup.position(useful)];
                    let share = (here >> by.twos).wrapping_mul(by.inverse);
                    exact &= here.trailing_zeros() >= by.twos && share <= by.limit;
                    spent = spent.wrapping_add(share);
                    for (next, s) in walk.moves(state, digits) {
                        let ways = u128::from(walk.ways_of(s, digits));
                        reach[next] = reach[next].wrapping_add(share.wrapping_mul(ways));
                    }
                }
            }
        });
    });
    exact.then_some(Scaled {
        a_wins,
        b_wins,
        tie,
        spent,
        denominator: d,
    })
}

impl Scaled {
    /// P(A wins) - P(B wins).
    pub(super) fn margin(&self) -> Exact {
        let (magnitude, negative) = match self.a_wins.checked_sub(self.b_wins) {
            Some(m) => (m, false),
            None => (self.b_wins - self.a_wins, true),
        };
        reduced(magnitude, negative, self.denominator, 1)
    }

    /// [P(A wins), P(B wins), P(tie)].
    pub(super) fn odds(&self) -> [Exact; 3] {
        [self.a_wins, self.b_wins, self.tie].map(|n| reduced(n, false, self.denominator, 1))
    }

    /// Expected rolls: K times the summed shares.
    pub(super) fn rolls(&self, outcomes: u64) -> Exact {
        reduced(self.spent, false, self.denominator, outcomes)
    }
}

/// ±n * k / d in lowest terms, the gcds taken in words.
fn reduced(n: u128, negative: bool, d: u128, k: u64) -> Exact {
    let g = n.gcd(&d);
    let (n, d) = (n / g, d / g);
    let h = u128::from(k).gcd(&d);
    let numerator = BigInt::from(n) * BigInt::from(u128::from(k) / h);
    let numerator = if negative { -numerator } else { numerator };
    Exact::new_raw(numerator, BigInt::from(d / h))
}
