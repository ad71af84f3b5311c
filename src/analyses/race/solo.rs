//! One player alone: how long crossing off a list takes.

//! The expected time itself is [`residues::solo_rolls`]: a list raced
//! against itself always ties on the roll that empties it.
//!
//! [`residues::solo_rolls`]: super::residues::solo_rolls

use super::lists::Totals;
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

/// `finished[n]`: how many of the K^n sequences of n rolls have emptied
/// `list` by roll n, for n = 0, 1, ... until at least `coverage` of all
/// sequences have (or `max_rolls`). Exact counts: divide by K^n. With the
/// state after the last roll, to carry the counts further.
pub(crate) fn finished_by<'t>(
    totals: &'t Totals,
    list: &[u8],
    coverage: f64,
    max_rolls: usize,
) -> (Finishing<'t>, Vec<BigUint>) {
    let mut finishing = Finishing::new(totals, list);
    let mut finished = vec![finishing.finished()];
    finishing.extend(&mut finished, coverage, max_rolls);
    (finishing, finished)
}

/// The count of roll sequences in each state of a list after some rolls,
/// kept so a distribution can be carried further without starting over.
pub(crate) struct Finishing<'t> {
    totals: &'t Totals,
    /// Index in `totals` of each total on the list.
    useful: Vec<usize>,
    caps: Vec<usize>,
    strides: Vec<usize>,
    /// Sequences so far that reached each state (copies crossed off).
    ways: Vec<BigUint>,
    /// K^rolls.
    all: BigUint,
}

impl<'t> Finishing<'t> {
    /// Before the first roll.
    pub fn new(totals: &'t Totals, list: &[u8]) -> Finishing<'t> {
        let useful: Vec<usize> = (0..list.len()).filter(|&i| list[i] > 0).collect();
        let caps: Vec<usize> = useful.iter().map(|&i| list[i] as usize).collect();
        let mut strides = Vec::with_capacity(caps.len());
        let mut size = 1usize;
        for &cap in &caps {
            strides.push(size);
            size *= cap + 1;
        }
        let mut ways = vec![BigUint::zero(); size];
        ways[0] = BigUint::from(1u32);
        Finishing {
            totals,
            useful,
            caps,
            strides,
            ways,
            all: BigUint::from(1u32),
        }
    }

    /// Sequences so far that have emptied the list.
    pub fn finished(&self) -> BigUint {
        self.ways[self.ways.len() - 1].clone()
    }

    /// Push the count after each further roll onto `finished` until at
    /// least `coverage` of all sequences have finished or `finished` holds
    /// counts for `max_rolls` rolls.
    pub fn extend(&mut self, finished: &mut Vec<BigUint>, coverage: f64, max_rolls: usize) {
        while finished.len() <= max_rolls {
            self.roll();
            finished.push(self.finished());
            let done = &self.ways[self.ways.len() - 1];
            if ratio_f64(done, &self.all) >= coverage {
                break;
            }
        }
    }

    /// One more roll: every sequence either crosses a copy off or stays.
    fn roll(&mut self) {
        let totals = self.totals;
        let mut next = vec![BigUint::zero(); self.ways.len()];
        for (state, here) in self.ways.iter().enumerate() {
            if here.is_zero() {
                continue;
            }
            let mut stay = totals.outcomes;
            for (s, (&cap, &stride)) in self.caps.iter().zip(&self.strides).enumerate() {
                if state / stride % (cap + 1) < cap {
                    let w = totals.ways[self.useful[s]];
                    stay -= w;
                    next[state + stride] += here * w;
                }
            }
            next[state] += here * stay;
        }
        self.ways = next;
        self.all *= totals.outcomes;
    }
}

/// A float of a/b for deciding when to stop, never reported.
fn ratio_f64(a: &BigUint, b: &BigUint) -> f64 {
    let shift = b.bits().saturating_sub(60);
    let (a, b) = ((a >> shift).to_f64(), (b >> shift).to_f64());
    a.unwrap_or(0.0) / b.unwrap_or(1.0)
}

#[cfg(test)]
mod tests {
    use super::super::residues::solo_rolls;
    use super::*;
    use crate::engine::{exact_string, ratio, Exact};

    #[test]
    fn single_total_is_geometric() {
        // Waiting for one 7 on 2d6 takes 6 rolls on average; two 7s take 12.
        let totals = Totals::of(2, 6);
        let one = totals.counts(&[7]);
        assert_eq!(exact_string(&solo_rolls(&totals, &one)), "6/1");
        let two = totals.counts(&[7, 7]);
        assert_eq!(exact_string(&solo_rolls(&totals, &two)), "12/1");
        // P(a 7 within n rolls) = 1 - (5/6)^n.
        let (_, finished) = finished_by(&totals, &one, 0.99, 100);
        for (n, ways) in finished.iter().enumerate() {
            let all = BigUint::from(36u32).pow(n as u32);
            let miss = BigUint::from(30u32).pow(n as u32);
            assert_eq!(*ways, &all - &miss, "n = {n}");
        }
        assert!(finished.len() > 20 && finished.len() < 30);
    }

    #[test]
    fn distribution_mean_matches_expected_rolls() {
        // E[T] = sum over n of P(T > n); the tail beyond coverage is tiny.
        let totals = Totals::of(1, 4);
        let list = totals.counts(&[1, 2, 2]);
        let (_, finished) = finished_by(&totals, &list, 1.0 - 1e-15, 2000);
        let mut mean = 0.0;
        for (n, ways) in finished.iter().enumerate() {
            let all = BigUint::from(4u32).pow(n as u32);
            mean += 1.0 - crate::engine::to_f64(&ratio(ways, &all));
        }
        let exact: Exact = solo_rolls(&totals, &list);
        assert!(
            (mean - crate::engine::to_f64(&exact)).abs() < 1e-9,
            "{mean}"
        );
    }
}
