//! Exact integers by their remainders modulo many word-sized primes.
//!
//! When a computation only adds and multiplies (and divides by numbers known
//! to be invertible), running it modulo a prime costs a few machine
//! instructions per step, with no allocation and no gcd. Running it modulo
//! enough primes that their product exceeds twice the size of the true
//! integer answer, and joining the remainders by the Chinese remainder
//! theorem, recovers that integer exactly. Nothing is approximated: the only
//! thing to get right is the size bound, which the caller proves.
//!
//! The primes lie between 2^61 and 2^62, so each contributes more than 61
//! bits, and products are reduced by Montgomery's method (two multiplications
//! instead of a 128-bit division).

use num_bigint::{BigInt, BigUint};
use num_traits::{One, PrimInt, WrappingMul, WrappingSub, Zero};
use std::sync::OnceLock;

/// Bits every prime contributes at least.
pub(crate) const BITS_PER_PRIME: u64 = 61;

/// How many primes are available: enough for integers of about 15,000 bits.
pub(crate) const PRIMES: usize = 256;

/// A prime p with 2^61 < p < 2^62 and its Montgomery constants (R = 2^64).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Prime {
    /// The prime.
    pub p: u64,
    /// -p^{-1} mod 2^64.
    neg_inv: u64,
    /// R^2 mod p, to bring numbers into Montgomery form.
    r2: u64,
    /// R mod p: the Montgomery form of 1.
    one: u64,
}

/// The inverse of an odd number modulo 2^(its word's bits), for `u64` and
/// `u128` alike: Newton's iteration doubles the correct low bits, and an
/// odd number is its own inverse modulo 8. Exact division and Montgomery's
/// method both start from it.
pub(crate) fn odd_inverse<T: PrimInt + WrappingMul + WrappingSub>(odd: T) -> T {
    let two = T::one() + T::one();
    let (mut inverse, mut correct) = (odd, 3);
    while correct < T::zero().count_zeros() {
        inverse = inverse.wrapping_mul(&two.wrapping_sub(&odd.wrapping_mul(&inverse)));
        correct *= 2;
    }
    inverse
}

impl Prime {
    fn new(p: u64) -> Prime {
        let r = (1u128 << 64) % p as u128;
        Prime {
            p,
            neg_inv: odd_inverse(p).wrapping_neg(),
            r2: ((r * r) % p as u128) as u64,
            one: r as u64,
        }
    }

    /// t R^{-1} mod p, for any t < p 2^64 (Montgomery reduction).
    #[inline]
    pub(crate) fn reduce(&self, t: u128) -> u64 {
        let m = (t as u64).wrapping_mul(self.neg_inv);
        let sum = t + m as u128 * self.p as u128;
        let r = (sum >> 64) as u64;
        if r >= self.p {
            r - self.p
        } else {
            r
        }
    }

    /// a b R^{-1} mod p.
    #[inline]
    pub(crate) fn mul(&self, a: u64, b: u64) -> u64 {
        self.reduce(a as u128 * b as u128)
    }

    /// x R mod p: the Montgomery form of x.
    pub(crate) fn to_montgomery(self, x: u64) -> u64 {
        self.mul(x % self.p, self.r2)
    }

    /// The Montgomery form of 1.
    pub fn one(&self) -> u64 {
        self.one
    }

    /// x^{-1} mod p for x not divisible by p, as a plain number.
    pub(crate) fn inverse(&self, x: u64) -> u64 {
        // Extended Euclid on (x, p) in signed 128-bit integers.
        let (mut old_r, mut r) = ((x % self.p) as i128, self.p as i128);
        let (mut old_s, mut s) = (1i128, 0i128);
        while r != 0 {
            let q = old_r / r;
            (old_r, r) = (r, old_r - q * r);
            (old_s, s) = (s, old_s - q * s);
        }
        assert_eq!(old_r, 1, "{x} is not invertible modulo {}", self.p);
        old_s.rem_euclid(self.p as i128) as u64
    }

    /// a b mod p for plain numbers.
    pub(crate) fn mul_plain(&self, a: u64, b: u64) -> u64 {
        ((a as u128 * b as u128) % self.p as u128) as u64
    }
}

/// The first `PRIMES` primes below 2^62, largest first.
pub(crate) fn primes() -> &'static [Prime] {
    static LIST: OnceLock<Vec<Prime>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list = Vec::with_capacity(PRIMES);
        let mut candidate = (1u64 << 62) - 1;
        while list.len() < PRIMES {
            if is_prime(candidate) {
                list.push(Prime::new(candidate));
            }
            candidate -= 2;
        }
        list
    })
}

/// How many primes make a product above 2 * 2^bits, so that any integer of
/// at most `bits` bits in size, of either sign, is recovered exactly.
pub(crate) fn primes_for_bits(bits: u64) -> usize {
    (bits + 2).div_ceil(BITS_PER_PRIME) as usize
}

/// Deterministic Miller-Rabin for 64-bit numbers (these seven bases are
/// known to decide every n < 2^64).
fn is_prime(n: u64) -> bool {
    const SMALL: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for p in SMALL {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    let mul = |a: u64, b: u64| ((a as u128 * b as u128) % n as u128) as u64;
    let pow = |mut base: u64, mut exp: u64| {
        let mut acc = 1u64;
        while exp > 0 {
            if exp & 1 == 1 {
                acc = mul(acc, base);
            }
            base = mul(base, base);
            exp >>= 1;
        }
        acc
    };
    let shift = (n - 1).trailing_zeros();
    let odd = (n - 1) >> shift;
    [2u64, 325, 9375, 28178, 450775, 9780504, 1795265022]
        .iter()
        .map(|&a| a % n)
        .filter(|&a| a != 0)
        .all(|a| {
            let mut x = pow(a, odd);
            if x == 1 || x == n - 1 {
                return true;
            }
            for _ in 1..shift {
                x = mul(x, x);
                if x == n - 1 {
                    return true;
                }
            }
            false
        })
}

/// The integer in (-M/2, M/2] with these remainders modulo the first
/// `residues.len()` primes of [`primes`] (M their product).
pub(crate) fn reconstruct(residues: &[u64]) -> BigInt {
    let primes = &primes()[..residues.len()];
    if residues.iter().all(|r| r.is_zero()) {
        return BigInt::zero();
    }
    // Garner: x = d_0 + d_1 p_0 + d_2 p_0 p_1 + ..., each digit below its
    // prime, found modulo p_j from the digits before it, in machine words.
    let mut digits: Vec<u64> = Vec::with_capacity(residues.len());
    for (j, prime) in primes.iter().enumerate() {
        let mut value = 0u64; // the digits so far, modulo p_j
        let mut place = 1u64; // p_0 ... p_{i-1} modulo p_j
        for (digit, earlier) in digits.iter().zip(primes) {
            value = (value + prime.mul_plain(*digit, place)) % prime.p;
            place = prime.mul_plain(place, earlier.p % prime.p);
        }
        let gap = (residues[j] % prime.p + prime.p - value) % prime.p;
        digits.push(prime.mul_plain(gap, prime.inverse(place)));
    }
    let mut x = BigUint::zero();
    let mut modulus = BigUint::one();
    for (digit, prime) in digits.iter().zip(primes).rev() {
        x = x * prime.p + digit;
        modulus *= prime.p;
    }
    if &x + &x > modulus {
        BigInt::from(x) - BigInt::from(modulus)
    } else {
        BigInt::from(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn residues_of(x: &BigInt, count: usize) -> Vec<u64> {
        primes()[..count]
            .iter()
            .map(|prime| {
                let r = x % BigInt::from(prime.p);
                let r = if r < BigInt::zero() {
                    r + BigInt::from(prime.p)
                } else {
                    r
                };
                u64::try_from(r).unwrap()
            })
            .collect()
    }

    #[test]
    fn the_primes_are_prime_distinct_and_in_range() {
        let list = primes();
        assert_eq!(list.len(), PRIMES);
        for pair in list.windows(2) {
            assert!(pair[0].p > pair[1].p);
        }
        for prime in list {
            assert!(prime.p > 1 << BITS_PER_PRIME && prime.p < 1 << 62);
            // Trial division by every odd number up to 2^12 and a Fermat
            // test to base 3: independent of the Miller-Rabin code.
            assert!((3..4096u64).step_by(2).all(|d| prime.p % d != 0));
            let fermat = (0..64).rev().fold(1u64, |acc, bit| {
                let sq = prime.mul_plain(acc, acc);
                if (prime.p - 1) >> bit & 1 == 1 {
                    prime.mul_plain(sq, 3)
                } else {
                    sq
                }
            });
            assert_eq!(fermat, 1);
        }
        // Known: the largest prime below 2^62 is 2^62 - 57.
        assert_eq!(list[0].p, (1 << 62) - 57);
        assert!(!is_prime((1 << 62) - 1));
        assert!(is_prime(2_305_843_009_213_693_951)); // 2^61 - 1
    }

    #[test]
    fn montgomery_products_match_plain_ones() {
        for prime in &primes()[..4] {
            for (a, b) in [
                (0, 5),
                (1, 1),
                (prime.p - 1, prime.p - 1),
                (12345, 987654321),
            ] {
                let product = prime.mul(prime.to_montgomery(a), prime.to_montgomery(b));
                assert_eq!(prime.reduce(product as u128), prime.mul_plain(a, b));
            }
            assert_eq!(prime.reduce(prime.one() as u128), 1);
            assert_eq!(prime.mul_plain(prime.inverse(36), 36), 1);
        }
    }

    proptest! {
        /// One helper inverts odd words of both widths.
        #[test]
        fn odd_words_are_inverted(x in any::<u64>(), y in any::<u128>()) {
            let (x, y) = (x | 1, y | 1);
            prop_assert_eq!(x.wrapping_mul(odd_inverse(x)), 1);
            prop_assert_eq!(y.wrapping_mul(odd_inverse(y)), 1);
        }

        #[test]
        fn reconstruction_recovers_signed_integers(
            digits in proptest::collection::vec(any::<u64>(), 1..30),
            negative in any::<bool>(),
        ) {
            let magnitude = digits.iter().fold(BigInt::zero(), |x, &d| (x << 64) + d);
            let x = if negative { -magnitude.clone() } else { magnitude.clone() };
            let count = primes_for_bits(magnitude.bits());
            prop_assert_eq!(reconstruct(&residues_of(&x, count)), x);
        }
    }
}
