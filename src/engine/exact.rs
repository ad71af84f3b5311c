//! Exact probabilities as reduced fractions of big integers.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// An exact, always reduced, rational number.
pub type Exact = BigRational;

/// `numerator / denominator` as a reduced fraction.
///
/// Panics only on a zero denominator, which callers rule out by construction
/// (a distribution always has at least one outcome).
pub fn ratio(numerator: &BigUint, denominator: &BigUint) -> Exact {
    Exact::new(
        BigInt::from(numerator.clone()),
        BigInt::from(denominator.clone()),
    )
}

/// `numerator / denominator` reduced without a general gcd, given every
/// prime factor of the denominator (the `k^N` of N dice with k faces has
/// those of k). Dividing out a few small primes is far cheaper than the
/// binary gcd of two numbers thousands of bits long.
pub fn ratio_smooth(numerator: &BigUint, denominator: &BigUint, primes: &[u64]) -> Exact {
    let mut n = numerator.clone();
    let mut d = denominator.clone();
    if n.is_zero() {
        return Exact::from_integer(BigInt::zero());
    }
    for &p in primes {
        if p == 2 {
            let shift = n
                .trailing_zeros()
                .unwrap_or(0)
                .min(d.trailing_zeros().unwrap_or(0));
            n >>= shift;
            d >>= shift;
            continue;
        }
        loop {
            let (nq, nr) = n.div_rem(&BigUint::from(p));
            if !nr.is_zero() {
                break;
            }
            let (dq, dr) = d.div_rem(&BigUint::from(p));
            if !dr.is_zero() {
                break;
            }
            n = nq;
            d = dq;
        }
    }
    debug_assert!(n.gcd(&d).is_one(), "primes must cover the denominator");
    Exact::new_raw(BigInt::from(n), BigInt::from(d))
}

/// Many fractions over one denominator, each reduced. When the
/// denominator's prime factors are all small (a product of dice sizes),
/// they are found once and counted off each numerator, which is far cheaper
/// than a gcd per fraction; otherwise each fraction takes a gcd.
pub fn ratios<'a>(
    numerators: impl Iterator<Item = &'a BigUint>,
    denominator: &BigUint,
) -> Vec<Exact> {
    match small_prime_factors(denominator) {
        Some(primes) => numerators
            .map(|n| ratio_smooth(n, denominator, &primes))
            .collect(),
        None => numerators.map(|n| ratio(n, denominator)).collect(),
    }
}

/// The distinct prime factors of `n` when all are below 2^16, else `None`.
fn small_prime_factors(n: &BigUint) -> Option<Vec<u64>> {
    let mut rest = n.clone();
    let mut primes = Vec::new();
    if rest.is_zero() {
        return None;
    }
    if let Some(twos) = rest.trailing_zeros().filter(|&t| t > 0) {
        primes.push(2);
        rest >>= twos;
    }
    let mut p = 3u64;
    while !rest.is_one() && p < 1 << 16 {
        let divisor = BigUint::from(p);
        if (&rest % &divisor).is_zero() {
            primes.push(p);
            while (&rest % &divisor).is_zero() {
                rest /= &divisor;
            }
        }
        p += 2;
    }
    rest.is_one().then_some(primes)
}

/// The distinct prime factors of `n`, ascending.
pub fn prime_factors(mut n: u64) -> Vec<u64> {
    let mut primes = Vec::new();
    let mut p = 2;
    while p * p <= n {
        if n.is_multiple_of(p) {
            primes.push(p);
            while n.is_multiple_of(p) {
                n /= p;
            }
        }
        p += 1;
    }
    if n > 1 {
        primes.push(n);
    }
    primes
}

/// `|a - b|`, exactly.
pub fn abs_diff(a: &Exact, b: &Exact) -> Exact {
    (a - b).abs()
}

/// The contract's spelling of an exact value: `"p/q"`, always with the `/q`.
pub fn exact_string(value: &Exact) -> String {
    format!("{}/{}", value.numer(), value.denom())
}

/// `"p/q"` as a person writes it (`2/4` is a half): any integers, a non-zero
/// denominator. The results contract's strict reading is in [`super::text`].
pub fn parse_fraction(text: &str) -> Option<Exact> {
    let (p, q) = text.split_once('/')?;
    let p: BigInt = p.parse().ok()?;
    let q: BigInt = q.parse().ok()?;
    (!q.is_zero()).then(|| Exact::new(p, q))
}

/// A float for display and plotting only; never fed back into exact work.
///
/// Scales huge numerators and denominators down together so that values whose
/// parts overflow `f64` still come out right.
pub fn to_f64(value: &Exact) -> f64 {
    if value.is_zero() {
        return 0.0;
    }
    let numer = value.numer();
    let denom = value.denom();
    let shift = numer.bits().max(denom.bits()).saturating_sub(1000);
    let n = (numer >> shift).to_f64().unwrap_or(f64::NAN);
    let d = (denom >> shift).to_f64().unwrap_or(f64::NAN);
    if d == 0.0 {
        // The denominator is far smaller than the numerator.
        return if n.is_sign_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    n / d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_are_reduced_and_keep_the_denominator() {
        let half = ratio(&BigUint::from(18u32), &BigUint::from(36u32));
        assert_eq!(exact_string(&half), "1/2");
        let one = ratio(&BigUint::from(7u32), &BigUint::from(7u32));
        assert_eq!(exact_string(&one), "1/1");
        let zero = ratio(&BigUint::from(0u32), &BigUint::from(7u32));
        assert_eq!(exact_string(&zero), "0/1");
    }

    #[test]
    fn smooth_reduction_matches_the_gcd() {
        let six_pow = BigUint::from(6u32).pow(10);
        for ways in [0u64, 1, 2, 3, 12, 4_395_456, 6_031_368, 60_466_176] {
            let ways = BigUint::from(ways);
            assert_eq!(
                ratio_smooth(&ways, &six_pow, &[2, 3]),
                ratio(&ways, &six_pow)
            );
        }
        let twenty_pow = BigUint::from(20u32).pow(30);
        let ways = BigUint::from(5u32).pow(7) * BigUint::from(2u32).pow(9) * 7u32;
        assert_eq!(
            ratio_smooth(&ways, &twenty_pow, &prime_factors(20)),
            ratio(&ways, &twenty_pow)
        );
        assert_eq!(prime_factors(20), vec![2, 5]);
        assert_eq!(prime_factors(1_000_003), vec![1_000_003]);
        assert_eq!(prime_factors(12), vec![2, 3]);
    }

    #[test]
    fn many_fractions_over_one_denominator() {
        let total = BigUint::from(6u32).pow(40) * BigUint::from(7u32).pow(3);
        let numerators: Vec<BigUint> = [0u64, 1, 14, 36, 4_395_456, 343]
            .into_iter()
            .map(BigUint::from)
            .collect();
        let fast = ratios(numerators.iter(), &total);
        let slow: Vec<Exact> = numerators.iter().map(|n| ratio(n, &total)).collect();
        assert_eq!(fast, slow);
        // A large prime in the denominator falls back to the gcd.
        let odd = BigUint::from(1_000_003u64) * 12u32;
        assert_eq!(small_prime_factors(&odd), None);
        assert_eq!(
            ratios([BigUint::from(3u32)].iter(), &odd),
            vec![ratio(&BigUint::from(3u32), &odd)]
        );
    }

    #[test]
    fn floats_survive_huge_parts() {
        let big = BigUint::from(6u32).pow(2000);
        let value = ratio(&(&big / 3u32), &big);
        assert!((to_f64(&value) - 1.0 / 3.0).abs() < 1e-12);
        let tiny = ratio(&BigUint::from(1u32), &big);
        assert_eq!(to_f64(&tiny), 0.0);
    }
}
