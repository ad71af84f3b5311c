//! Exact probabilities as reduced fractions of big integers.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

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

/// `|a - b|`, exactly.
pub fn abs_diff(a: &Exact, b: &Exact) -> Exact {
    (a - b).abs()
}

/// The contract's spelling of an exact value: `"p/q"`, always with the `/q`.
pub fn exact_string(value: &Exact) -> String {
    format!("{}/{}", value.numer(), value.denom())
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
    fn floats_survive_huge_parts() {
        let big = BigUint::from(6u32).pow(2000);
        let value = ratio(&(&big / 3u32), &big);
        assert!((to_f64(&value) - 1.0 / 3.0).abs() < 1e-12);
        let tiny = ratio(&BigUint::from(1u32), &big);
        assert_eq!(to_f64(&tiny), 0.0);
    }
}
