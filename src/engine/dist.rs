//! Distributions of dice totals as exact outcome counts.

use super::exact::{ratio, Exact};
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Why a distribution cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DistError {
    /// A sum needs at least one die.
    #[error("at least one die is needed")]
    NoDice,
    /// A die needs at least two faces to be random.
    #[error("a die needs at least 2 faces, got {0}")]
    TooFewFaces(u64),
    /// Totals past `u64` cannot be indexed.
    #[error("{count}d{sides} has more totals than can be indexed")]
    TooLarge {
        /// Number of dice.
        count: u64,
        /// Faces per die.
        sides: u64,
    },
}

/// Outcome counts per total: `counts[i]` ways to roll total `min_total + i`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dist {
    min_total: u64,
    counts: Vec<BigUint>,
}

impl Dist {
    /// One die with faces `1..=sides`, each face once.
    pub fn die(sides: u64) -> Result<Self, DistError> {
        Self::dice(1, sides)
    }

    /// The sum of `count` dice with faces `1..=sides`.
    ///
    /// The counts are the coefficients of `(1 + x + ... + x^(k-1))^N`. Writing
    /// that polynomial as `(1 - x^k)^N (1 - x)^(-N)` and comparing coefficients
    /// of `(1 - x)(1 - x^k) P' = N P (1 - x^k - k x^(k-1) + k x^k)` gives a
    /// recurrence with three terms per coefficient, whatever `k` is:
    ///
    /// `(j+1) p[j+1] = (N+j) p[j] + (D+k-j) p[j-k] - (k(N+1)-j-1) p[j-k+1]`
    ///
    /// with `D = N(k-1)`. Every term is a big integer times a machine word, so
    /// the cost grows with the size of the answer (D coefficients of about
    /// N log2 k bits), and symmetry halves it.
    pub fn dice(count: u64, sides: u64) -> Result<Self, DistError> {
        if count == 0 {
            return Err(DistError::NoDice);
        }
        if sides < 2 {
            return Err(DistError::TooFewFaces(sides));
        }
        let too_large = DistError::TooLarge { count, sides };
        let degree = count.checked_mul(sides - 1).ok_or(too_large.clone())?;
        let len = usize::try_from(degree)
            .ok()
            .and_then(|d| d.checked_add(1))
            .ok_or(too_large.clone())?;
        // Every coefficient below is a u64 product; keep them in range.
        count
            .checked_add(1)
            .and_then(|n1| n1.checked_mul(sides))
            .and_then(|x| x.checked_add(degree))
            .ok_or(too_large)?;

        let (n, k, d) = (count, sides, degree);
        let half = len / 2;
        let mut p: Vec<BigUint> = Vec::with_capacity(len);
        p.push(BigUint::one());
        for j in 0..half as u64 {
            let ju = j as usize;
            let mut next = &p[ju] * (n + j);
            if j >= k {
                next += &p[ju - k as usize] * (d + k - j);
            }
            if j + 1 >= k {
                next -= &p[ju + 1 - k as usize] * (k * (n + 1) - j - 1);
            }
            next /= j + 1;
            p.push(next);
        }
        // The distribution is symmetric: p[j] = p[D - j].
        for j in p.len()..len {
            let mirrored = p[len - 1 - j].clone();
            p.push(mirrored);
        }
        Ok(Dist {
            min_total: count,
            counts: p,
        })
    }

    /// The smallest total with a count (possibly zero) in the table.
    pub fn min_total(&self) -> u64 {
        self.min_total
    }

    /// The largest total in the table.
    pub fn max_total(&self) -> u64 {
        self.min_total + self.counts.len() as u64 - 1
    }

    /// `(total, ways)` pairs, lowest total first.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &BigUint)> + '_ {
        (self.min_total..).zip(self.counts.iter())
    }

    /// Ways to roll exactly `total` (zero outside the range).
    pub fn ways(&self, total: u64) -> BigUint {
        total
            .checked_sub(self.min_total)
            .and_then(|i| self.counts.get(i as usize))
            .cloned()
            .unwrap_or_default()
    }

    /// All outcomes together: `k^N` for a sum of dice.
    pub fn total_outcomes(&self) -> BigUint {
        self.counts.iter().sum()
    }

    /// The exact probability of `total`.
    pub fn probability(&self, total: u64) -> Exact {
        ratio(&self.ways(total), &self.total_outcomes())
    }

    /// Counts per residue: `bins[v]` ways for the total to be `v` mod `modulus`.
    pub fn modulo(&self, modulus: u64) -> Vec<BigUint> {
        let mut bins = vec![BigUint::zero(); modulus as usize];
        for (total, ways) in self.iter() {
            bins[(total % modulus) as usize] += ways;
        }
        bins
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every roll of `count` dice, enumerated one by one.
    fn brute_force(count: u32, sides: u64) -> Vec<u64> {
        let max = count as u64 * sides;
        let mut counts = vec![0u64; (max + 1) as usize];
        let rolls = sides.pow(count);
        for mut roll in 0..rolls {
            let mut total = 0;
            for _ in 0..count {
                total += roll % sides + 1;
                roll /= sides;
            }
            counts[total as usize] += 1;
        }
        counts.drain(..count as usize);
        counts
    }

    fn as_u64(dist: &Dist) -> Vec<u64> {
        dist.iter()
            .map(|(_, w)| u64::try_from(w).expect("small"))
            .collect()
    }

    #[test]
    fn matches_brute_force_for_small_pools() {
        for count in 1..=5u32 {
            for sides in 2..=7u64 {
                let dist = Dist::dice(count as u64, sides).unwrap();
                assert_eq!(dist.min_total(), count as u64);
                assert_eq!(as_u64(&dist), brute_force(count, sides), "{count}d{sides}");
            }
        }
        assert_eq!(as_u64(&Dist::dice(2, 20).unwrap()), brute_force(2, 20));
        assert_eq!(as_u64(&Dist::dice(3, 12).unwrap()), brute_force(3, 12));
    }

    #[test]
    fn reproduces_the_published_ten_d6_table() {
        let dist = Dist::dice(10, 6).unwrap();
        assert_eq!(dist.ways(35), BigUint::from(4_395_456u32));
        assert_eq!(dist.ways(10), BigUint::from(1u32));
        assert_eq!(dist.ways(30), BigUint::from(2_930_455u32));
        assert_eq!(dist.ways(9), BigUint::zero());
        let bins = dist.modulo(10);
        assert_eq!(bins[0], BigUint::from(6_031_368u32));
        assert_eq!(bins[5], BigUint::from(6_061_868u32));
        assert_eq!(bins[1], BigUint::from(6_034_280u32));
    }

    #[test]
    fn two_and_three_d6_fold_uniformly() {
        let two = Dist::dice(2, 6).unwrap().modulo(2);
        assert_eq!(two, vec![BigUint::from(18u32); 2]);
        let three = Dist::dice(3, 6).unwrap().modulo(3);
        assert_eq!(three, vec![BigUint::from(72u32); 3]);
    }

    #[test]
    fn rejects_impossible_pools() {
        assert_eq!(Dist::dice(0, 6), Err(DistError::NoDice));
        assert_eq!(Dist::dice(3, 1), Err(DistError::TooFewFaces(1)));
        assert!(matches!(
            Dist::dice(u64::MAX, 6),
            Err(DistError::TooLarge { .. })
        ));
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn counts_sum_to_all_rolls_and_are_symmetric(count in 1u64..60, sides in 2u64..30) {
                let dist = Dist::dice(count, sides).unwrap();
                prop_assert_eq!(dist.total_outcomes(), BigUint::from(sides).pow(count as u32));
                prop_assert_eq!(dist.max_total(), count * sides);
                let lo = dist.min_total();
                let hi = dist.max_total();
                for t in lo..=hi {
                    prop_assert_eq!(dist.ways(t), dist.ways(lo + hi - t));
                }
            }

            #[test]
            fn one_more_die_is_a_convolution(count in 1u64..25, sides in 2u64..12) {
                let fewer = Dist::dice(count, sides).unwrap();
                let more = Dist::dice(count + 1, sides).unwrap();
                for t in more.min_total()..=more.max_total() {
                    let mut ways = BigUint::zero();
                    for face in 1..=sides {
                        if t > face {
                            ways += fewer.ways(t - face);
                        }
                    }
                    prop_assert_eq!(more.ways(t), ways);
                }
            }
        }
    }
}
