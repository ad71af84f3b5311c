//! Distributions over integers as exact outcome counts: the values a roll of
//! dice can take, each with the number of equally likely outcomes that give
//! it. Every operator of the dice language is a function from outcomes to
//! outcomes, so each can be tested alone against brute force.

use super::exact::Exact;
use super::ways;
#[cfg(test)]
use super::work;
use super::work::tally;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Ways per value: `ways[i]` equally likely outcomes give `min + i`.
///
/// Always trimmed (the first and last counts are non-zero) and never empty,
/// so `total()` is positive and every probability is defined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcomes {
    min: i64,
    ways: Vec<BigUint>,
}

/// Whether summing `count` dice of `faces` equally likely values costs less
/// by the sliding window (about `count^2 faces` additions in all) than by
/// the recurrence (`count faces^2` products): with fewer dice than faces.
/// The price of a roll follows the same choice.
pub(crate) fn window_is_cheaper(faces: usize, count: u64) -> bool {
    count < faces as u64
}

impl Outcomes {
    /// A value that is certain: one outcome.
    pub(crate) fn constant(value: i64) -> Self {
        Outcomes {
            min: value,
            ways: vec![BigUint::one()],
        }
    }

    /// One die with these faces, each face one outcome; a face written
    /// twice is twice as likely. `None` for no faces.
    pub fn die(faces: &[i64]) -> Option<Self> {
        let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
        tally!(faces.len() as f64 * work::MAP);
        for &face in faces {
            *counts.entry(face).or_default() += 1u32;
        }
        Self::from_map(counts)
    }

    /// Faces `1..=sides`, each once.
    pub fn standard(sides: u64) -> Option<Self> {
        let sides = usize::try_from(sides).ok().filter(|&s| s > 0)?;
        tally!(sides as f64 * work::NEW);
        Some(Outcomes {
            min: 1,
            ways: vec![BigUint::one(); sides],
        })
    }

    /// Outcomes from (value, ways) pairs in any order; repeated values add
    /// up and zero counts are dropped. `None` when nothing has a way.
    pub(crate) fn from_map(counts: BTreeMap<i64, BigUint>) -> Option<Self> {
        let counts: Vec<(i64, BigUint)> =
            counts.into_iter().filter(|(_, w)| !w.is_zero()).collect();
        let (&(min, _), &(max, _)) = (counts.first()?, counts.last()?);
        let len = usize::try_from(max.abs_diff(min)).ok()? + 1;
        let mut ways = vec![BigUint::zero(); len];
        for (value, w) in counts {
            ways[value.abs_diff(min) as usize] = w;
        }
        Some(Outcomes { min, ways })
    }

    /// Outcomes from a dense table starting at `min`, trimmed.
    fn from_dense(min: i64, mut ways: Vec<BigUint>) -> Self {
        let first = ways.iter().position(|w| !w.is_zero()).unwrap_or(0);
        while ways.len() > first + 1 && ways.last().is_some_and(Zero::is_zero) {
            ways.pop();
        }
        ways.drain(..first);
        if ways.is_empty() {
            ways.push(BigUint::zero());
        }
        Outcomes {
            min: min + first as i64,
            ways,
        }
    }

    /// The smallest value with a way.
    pub fn min(&self) -> i64 {
        self.min
    }

    /// The largest value with a way.
    pub fn max(&self) -> i64 {
        self.min + (self.ways.len() as i64 - 1)
    }

    /// How many values lie between min and max, both included.
    pub fn width(&self) -> usize {
        self.ways.len()
    }

    /// `(value, ways)` for every value with at least one way, lowest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (i64, &BigUint)> + '_ {
        self.ways
            .iter()
            .enumerate()
            .filter(|(_, w)| !w.is_zero())
            .map(|(i, w)| (self.min + i as i64, w))
    }

    /// Ways to get exactly `value`.
    pub fn ways(&self, value: i64) -> BigUint {
        value
            .checked_sub(self.min)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.ways.get(i))
            .cloned()
            .unwrap_or_default()
    }

    /// All outcomes together.
    pub fn total(&self) -> BigUint {
        self.ways.iter().sum()
    }

    /// Whether only one value is possible.
    pub(crate) fn is_constant(&self) -> bool {
        self.ways.len() == 1
    }

    /// The outcomes scaled so that `total()` becomes `total() * factor`:
    /// the same probabilities over a larger set of outcomes.
    pub(crate) fn scaled(&self, factor: &BigUint) -> Self {
        tally!(self.ways.len() as f64 * (work::widest(&self.ways) + work::words(factor)));
        Outcomes {
            min: self.min,
            ways: self.ways.iter().map(|w| w * factor).collect(),
        }
    }

    /// The same outcomes with every value moved by `offset`.
    pub fn shifted(&self, offset: i64) -> Self {
        Outcomes {
            min: self.min + offset,
            ways: self.ways.clone(),
        }
    }

    /// Each value replaced by `f(value)`; values that meet add their ways.
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Self {
        tally!(self.ways.len() as f64 * work::widest(&self.ways) * work::MAP);
        let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
        for (value, w) in self.iter() {
            *counts.entry(f(value)).or_default() += w;
        }
        Self::from_map(counts).expect("a distribution has a value")
    }

    /// The sum of two independent rolls: a convolution.
    pub fn add(&self, other: &Self) -> Self {
        // In machine words natively; the browser's engine keeps to
        // `BigUint`, for its size.
        if !cfg!(target_arch = "wasm32") {
            // A number added (`d10 + 41`) only moves the other side.
            for (one, rest) in [(self, other), (other, self)] {
                if one.ways.len() == 1 && one.ways[0].is_one() {
                    return rest.shifted(one.min);
                }
            }
            let bound = self.total() * other.total();
            if let Some(ways) = ways::convolve(&self.ways, &other.ways, &bound) {
                return Self::from_dense(self.min + other.min, ways);
            }
        }
        let mut ways = vec![BigUint::zero(); self.ways.len() + other.ways.len() - 1];
        tally!(
            (self.ways.len() * other.ways.len()) as f64
                * (work::widest(&self.ways) + work::widest(&other.ways))
        );
        for (i, a) in self.ways.iter().enumerate().filter(|(_, a)| !a.is_zero()) {
            for (j, b) in other.ways.iter().enumerate() {
                if !b.is_zero() {
                    ways[i + j] += a * b;
                }
            }
        }
        Self::from_dense(self.min + other.min, ways)
    }

    /// `-X`.
    pub(crate) fn negate(&self) -> Self {
        let mut ways = self.ways.clone();
        ways.reverse();
        Outcomes {
            min: -self.max(),
            ways,
        }
    }

    /// `f(a, b)` of two independent rolls, value by value.
    pub(crate) fn combine(&self, other: &Self, f: impl Fn(i64, i64) -> i64) -> Self {
        tally!(
            (self.ways.len() * other.ways.len()) as f64
                * (work::widest(&self.ways) + work::widest(&other.ways))
                * work::MAP
        );
        let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
        for (a, wa) in self.iter() {
            for (b, wb) in other.iter() {
                *counts.entry(f(a, b)).or_default() += wa * wb;
            }
        }
        Self::from_map(counts).expect("a distribution has a value")
    }

    /// The sum of `count` independent rolls of `self`.
    ///
    /// With the values shifted to start at 0, the counts are the
    /// coefficients of `P(x)^N` for the die's polynomial `P`. From
    /// `P A' = N P' A` (J. C. P. Miller's recurrence):
    /// `k p0 a_k = sum_{j=1..K} (N j - k + j) p_j a_{k-j}`,
    /// so each coefficient costs one term per face, and the division is
    /// exact because `a_k` is an integer.
    pub(crate) fn repeat_sum(&self, count: u64) -> Self {
        if count == 0 {
            return Outcomes::constant(0);
        }
        if count == 1 || self.is_constant() {
            tally!(self.ways.len() as f64 * work::widest(&self.ways));
            return Outcomes {
                min: self.min * count as i64,
                ways: if self.is_constant() {
                    vec![self.ways[0].pow(count as u32)]
                } else {
                    self.ways.clone()
                },
            };
        }
        if window_is_cheaper(self.ways.len(), count) && self.ways.iter().all(|w| *w == self.ways[0])
        {
            return self.uniform_repeat_sum(count);
        }
        let degree = self.ways.len() - 1;
        let len = degree * count as usize + 1;
        let p: Vec<BigInt> = self.ways.iter().cloned().map(BigInt::from).collect();
        let faces: Vec<usize> = (1..=degree).filter(|&j| !p[j].is_zero()).collect();
        let mut a: Vec<BigInt> = Vec::with_capacity(len);
        a.push(p[0].pow(count as u32));
        for k in 1..len {
            let mut sum = BigInt::zero();
            for &j in faces.iter().take_while(|&&j| j <= k) {
                let factor = count as i128 * j as i128 - k as i128 + j as i128;
                if factor != 0 {
                    sum += &p[j] * &a[k - j] * BigInt::from(factor);
                }
            }
            a.push(sum / (&p[0] * k));
        }
        let ways = a
            .into_iter()
            .map(|x| x.to_biguint().expect("counts are not negative"))
            .collect();
        tally!((len * faces.len()) as f64 * (work::widest(&self.ways) + work::widest(&ways)));
        Outcomes {
            min: self.min * count as i64,
            ways,
        }
    }

    /// [`Outcomes::repeat_sum`] of a die whose values all have the same
    /// ways `w` (every standard die): add one die at a time, each new
    /// count the sum of the last `K` counts, kept as a sliding window, so
    /// a die costs two additions a value instead of one product a face
    /// (`3d10000` in milliseconds, not seconds); `w^count` scales it.
    fn uniform_repeat_sum(&self, count: u64) -> Self {
        let faces = self.ways.len();
        let mut ways: Vec<BigUint> = vec![BigUint::one(); faces];
        for _ in 1..count {
            let mut next = Vec::with_capacity(ways.len() + faces - 1);
            let mut window = BigUint::zero();
            for k in 0..ways.len() + faces - 1 {
                if let Some(w) = ways.get(k) {
                    window += w;
                }
                if k >= faces {
                    window -= &ways[k - faces];
                }
                next.push(window.clone());
            }
            ways = next;
        }
        // Each die adds two window sums a value, over about half the end's
        // values on average.
        tally!(count as f64 * ways.len() as f64 * work::widest(&ways));
        let scale = self.ways[0].pow(count as u32);
        if !scale.is_one() {
            ways.iter_mut().for_each(|w| *w *= &scale);
        }
        Outcomes {
            min: self.min * count as i64,
            ways,
        }
    }

    /// The exact probability of each value, lowest first.
    pub(crate) fn probabilities(&self) -> Vec<(i64, Exact)> {
        let total = self.total();
        let values: Vec<(i64, &BigUint)> = self.iter().collect();
        let fractions = super::exact::ratios(values.iter().map(|(_, w)| *w), &total);
        values.into_iter().map(|(v, _)| v).zip(fractions).collect()
    }

    /// The exact mean.
    pub fn mean(&self) -> Exact {
        let (sum, _) = self.moments();
        Exact::new(sum, BigInt::from(self.total()))
    }

    /// The exact variance, E[X^2] - E[X]^2.
    pub fn variance(&self) -> Exact {
        let total = BigInt::from(self.total());
        let (sum, squares) = self.moments();
        Exact::new(
            BigInt::from(squares) * &total - &sum * &sum,
            &total * &total,
        )
    }

    /// The sums of `ways * value` and of `ways * value^2`, each term a
    /// big integer times a word.
    fn moments(&self) -> (BigInt, BigUint) {
        let (mut up, mut down, mut squares) = (BigUint::zero(), BigUint::zero(), BigUint::zero());
        for (value, ways) in self.iter() {
            let size = value.unsigned_abs();
            let term = ways * size;
            squares += &term * size;
            if value < 0 {
                down += term;
            } else {
                up += term;
            }
        }
        (BigInt::from(up) - BigInt::from(down), squares)
    }

    /// Ways for the first roll to be higher than the second, equal, and
    /// lower, over `self.total() * other.total()` outcomes.
    pub fn compare(&self, other: &Self) -> [BigUint; 3] {
        // Ways of `other` strictly below each value, by a running sum.
        let mut below = BigUint::zero();
        let mut higher = BigUint::zero();
        let mut tie = BigUint::zero();
        let mut theirs = other.iter().peekable();
        tally!(
            (self.ways.len() + other.ways.len()) as f64
                * (work::widest(&self.ways) + work::widest(&other.ways))
        );
        for (value, w) in self.iter() {
            while let Some((v, ow)) = theirs.peek() {
                if *v >= value {
                    break;
                }
                below += *ow;
                theirs.next();
            }
            higher += w * &below;
            tie += w * other.ways(value);
        }
        let all = self.total() * other.total();
        let lower = all - &higher - &tie;
        [higher, tie, lower]
    }

    /// `X mod m` with results from 0 to m-1, for m > 0.
    pub fn modulo(&self, modulus: i64) -> Self {
        self.map(|v| v.mod_floor(&modulus))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn as_pairs(outcomes: &Outcomes) -> Vec<(i64, u64)> {
        outcomes
            .iter()
            .map(|(v, w)| (v, u64::try_from(w).expect("small")))
            .collect()
    }

    /// Every roll of `count` dice with these faces, enumerated.
    fn brute_sum(faces: &[i64], count: u32) -> Vec<(i64, u64)> {
        let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
        let k = faces.len();
        for mut roll in 0..k.pow(count) {
            let mut total = 0;
            for _ in 0..count {
                total += faces[roll % k];
                roll /= k;
            }
            *counts.entry(total).or_default() += 1;
        }
        counts.into_iter().collect()
    }

    #[test]
    fn repeated_sums_match_enumeration() {
        for faces in [
            vec![1, 2, 3, 4, 5, 6],
            vec![-1, 0, 1],
            vec![1, 1, 2, 3],
            vec![0, 0, 1, 1, 2],
            vec![-3, 5, 5, 9],
            vec![2],
        ] {
            let die = Outcomes::die(&faces).unwrap();
            for count in 0..=5u32 {
                assert_eq!(
                    as_pairs(&die.repeat_sum(count as u64)),
                    brute_sum(&faces, count),
                    "{count} x {faces:?}"
                );
            }
        }
    }

    #[test]
    fn repeated_sum_agrees_with_the_uniform_recurrence() {
        let die = Outcomes::standard(6).unwrap();
        let sum = die.repeat_sum(100);
        let dist = super::super::Dist::dice(100, 6).unwrap();
        for (total, ways) in dist.iter() {
            assert_eq!(sum.ways(total as i64), *ways);
        }
        assert_eq!(sum.total(), BigUint::from(6u32).pow(100));
    }

    /// The sliding window (fewer dice than faces) against convolution one
    /// die at a time, and against the closed form for standard dice.
    #[test]
    fn the_window_sum_of_uniform_dice_matches_convolution() {
        let doubled = Outcomes::die(&[-2, -2, -1, -1, 0, 0, 1, 1]).unwrap();
        for (die, count) in [
            (Outcomes::standard(20).unwrap(), 3),
            (Outcomes::standard(7).unwrap(), 6),
            (doubled, 3),
            (Outcomes::standard(2).unwrap(), 1),
        ] {
            assert!(super::window_is_cheaper(die.width(), count) || count == 1);
            let mut slow = die.clone();
            for _ in 1..count {
                slow = slow.add(&die);
            }
            assert_eq!(die.repeat_sum(count), slow);
        }
        let sum = Outcomes::standard(4096).unwrap().repeat_sum(10);
        let dist = super::super::Dist::dice(10, 4096).unwrap();
        for (total, ways) in dist.iter() {
            assert_eq!(sum.ways(total as i64), *ways);
        }
    }

    #[test]
    fn convolution_negation_and_combination() {
        let d6 = Outcomes::standard(6).unwrap();
        let diff = d6.add(&d6.negate());
        assert_eq!(diff.min(), -5);
        assert_eq!(diff.ways(0), BigUint::from(6u32));
        assert_eq!(diff.ways(-5), BigUint::one());
        let product = d6.combine(&d6, |a, b| a * b);
        assert_eq!(product.ways(12), BigUint::from(4u32)); // 2x6 3x4 4x3 6x2
        assert_eq!(product.total(), BigUint::from(36u32));
        let highest = d6.combine(&d6, i64::max);
        assert_eq!(
            as_pairs(&highest),
            (1..=6).map(|v| (v, 2 * v as u64 - 1)).collect::<Vec<_>>()
        );
    }

    /// Mean and variance by their definitions, over values on both sides
    /// of zero.
    #[test]
    fn moments_match_their_definitions() {
        let faces = [-7, -7, -1, 0, 2, 3, 3, 3, 40, -30];
        let die = Outcomes::die(&faces).unwrap();
        for roll in [
            die.clone(),
            die.repeat_sum(3),
            die.negate().add(&die.shifted(-9)),
        ] {
            let total = BigInt::from(roll.total());
            let p = |ways: &BigUint| Exact::new(BigInt::from(ways.clone()), total.clone());
            let mean: Exact = roll
                .iter()
                .map(|(v, w)| p(w) * Exact::from_integer(v.into()))
                .sum();
            let variance: Exact = roll
                .iter()
                .map(|(v, w)| {
                    let apart = Exact::from_integer(v.into()) - &mean;
                    p(w) * &apart * &apart
                })
                .sum();
            assert_eq!(roll.mean(), mean);
            assert_eq!(roll.variance(), variance);
        }
    }

    #[test]
    fn moments_and_comparisons() {
        let d6 = Outcomes::standard(6).unwrap();
        assert_eq!(d6.mean(), Exact::new(7.into(), 2.into()));
        assert_eq!(d6.variance(), Exact::new(35.into(), 12.into()));
        let [higher, tie, lower] = d6.compare(&d6);
        assert_eq!(
            (higher, tie, lower),
            (15u32.into(), 6u32.into(), 15u32.into())
        );
        let two = Outcomes::standard(6).unwrap().repeat_sum(2);
        let [h, t, l] = two.compare(&d6.shifted(3));
        // 2d6 against d6+3 (4..9), by enumeration of 216 rolls.
        let mut expected = [0u64; 3];
        for a in 1..=6 {
            for b in 1..=6 {
                for c in 4..=9 {
                    let i = if a + b > c {
                        0
                    } else if a + b == c {
                        1
                    } else {
                        2
                    };
                    expected[i] += 1;
                }
            }
        }
        assert_eq!([h, t, l], expected.map(BigUint::from));
    }

    #[test]
    fn modulo_is_never_negative() {
        let fudge = Outcomes::die(&[-1, 0, 1]).unwrap().repeat_sum(2);
        assert_eq!(as_pairs(&fudge.modulo(3)), vec![(0, 3), (1, 3), (2, 3)]);
    }
}
