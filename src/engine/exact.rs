//! Exact probabilities as reduced fractions of big integers.

use super::decimal::{push_decimal, signed_decimal};
use super::modular::odd_inverse;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

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
/// those of k). For many numerators over one denominator, prepare it once
/// with [`Denominator::with_primes`].
pub fn ratio_smooth(numerator: &BigUint, denominator: &BigUint, primes: &[u64]) -> Exact {
    Denominator::with_primes(denominator, primes).ratio(numerator)
}

/// A denominator prepared for reducing many fractions over it: when its
/// primes are known and small (a product of dice sizes), each is counted
/// off the numerator up to its multiplicity here, which is far cheaper than
/// the binary gcd of two numbers thousands of bits long; otherwise each
/// fraction takes a gcd.
pub struct Denominator {
    value: BigUint,
    /// Each prime with its multiplicity, when all are small.
    primes: Option<Vec<Prime>>,
}

/// A small prime of a [`Denominator`], with what counting it off a
/// numerator needs.
struct Prime {
    p: u64,
    /// Its multiplicity in the denominator.
    in_denominator: u64,
    /// The largest power of `p` in a machine word, and its exponent.
    word: u64,
    word_exponent: u64,
    /// `p`'s inverse modulo 2^64 (for odd `p`; unused for 2), and
    /// `u64::MAX / p`: a word `r` is a multiple of `p` exactly when
    /// `r * inverse` (wrapping) is at most `most`, and that product is
    /// then `r / p` (Granlund and
    /// Montgomery, "Division by invariant integers using multiplication",
    /// 1994, section 9). Counting a power of `p` off a word costs a
    /// multiplication per factor, not a division.
    inverse: u64,
    most: u64,
}

impl Prime {
    fn new(p: u64, in_denominator: u64) -> Prime {
        let (word, word_exponent) = word_power(p);
        Prime {
            p,
            in_denominator,
            word,
            word_exponent,
            inverse: odd_inverse(p),
            most: u64::MAX / p,
        }
    }

    /// How many times `p` (odd) divides the word `r > 0`.
    fn in_word(&self, mut r: u64) -> u64 {
        let mut count = 0;
        loop {
            let quotient = r.wrapping_mul(self.inverse);
            if quotient > self.most {
                return count;
            }
            (r, count) = (quotient, count + 1);
        }
    }

    /// Divide `n` and `d` by the largest power of `p` dividing both: `d`
    /// holds `in_denominator` of them, so `n`'s are counted only that far,
    /// a word's worth of them per remainder.
    fn cancel(&self, n: &mut BigUint, d: &mut BigUint) {
        if self.p == 2 {
            let shared = n.trailing_zeros().unwrap_or(0).min(self.in_denominator);
            *n >>= shared;
            *d >>= shared;
            return;
        }
        let mut left = self.in_denominator;
        while left > 0 {
            let (power, exponent) = if left >= self.word_exponent {
                (self.word, self.word_exponent)
            } else {
                (self.p.pow(left as u32), left)
            };
            let rest = remainder(n, power);
            let taken = if rest == 0 {
                exponent
            } else {
                self.in_word(rest)
            };
            if taken > 0 {
                let divisor = if taken == exponent {
                    power
                } else {
                    self.p.pow(taken as u32)
                };
                *n /= divisor;
                *d /= divisor;
            }
            if taken < exponent {
                return;
            }
            left -= taken;
        }
    }
}

impl Denominator {
    /// Any positive denominator; its primes are searched for (below 2^16).
    pub fn new(value: &BigUint) -> Self {
        let primes = small_prime_factors(value);
        Self::counted(value, primes)
    }

    /// A positive denominator whose prime factors are all in `primes`.
    pub(crate) fn with_primes(value: &BigUint, primes: &[u64]) -> Self {
        Self::counted(value, Some(primes.to_vec()))
    }

    /// A positive denominator whose primes are not known and not worth
    /// searching for: each fraction takes a gcd.
    pub(crate) fn unfactored(value: &BigUint) -> Self {
        Self::counted(value, None)
    }

    fn counted(value: &BigUint, primes: Option<Vec<u64>>) -> Self {
        Denominator {
            value: value.clone(),
            primes: primes.map(|primes| {
                primes
                    .into_iter()
                    .map(|p| Prime::new(p, multiplicity(value, p)))
                    .collect()
            }),
        }
    }

    /// `numerator / self`, reduced.
    pub fn ratio(&self, numerator: &BigUint) -> Exact {
        let Some(primes) = &self.primes else {
            return ratio(numerator, &self.value);
        };
        if numerator.is_zero() {
            return Exact::from_integer(BigInt::zero());
        }
        let mut n = numerator.clone();
        let mut d = self.value.clone();
        for prime in primes {
            prime.cancel(&mut n, &mut d);
        }
        debug_assert!(n.gcd(&d).is_one(), "primes must cover the denominator");
        Exact::new_raw(BigInt::from(n), BigInt::from(d))
    }
}

/// `1 - p` for a reduced `p = n/d`, with no reduction: `gcd(d - n, d) =
/// gcd(n, d) = 1` (num-rational's subtraction takes two gcds).
pub fn complement(p: &Exact) -> Exact {
    Exact::new_raw(p.denom() - p.numer(), p.denom().clone())
}

/// The largest power of `p > 1` in a machine word, and its exponent.
fn word_power(p: u64) -> (u64, u64) {
    let (mut power, mut exponent) = (p, 1);
    while let Some(next) = power.checked_mul(p) {
        (power, exponent) = (next, exponent + 1);
    }
    (power, exponent)
}

/// How many times the prime `p` divides `n > 0`: the remainder by the
/// largest power of `p` in 64 bits tells at once when that is fewer than
/// its exponent, else the quotient is counted on.
fn multiplicity(n: &BigUint, p: u64) -> u64 {
    if p == 2 {
        return n.trailing_zeros().unwrap_or(0);
    }
    let (power, exponent) = word_power(p);
    let mut count = 0;
    let mut rest = std::borrow::Cow::Borrowed(n);
    loop {
        let mut left = remainder(&rest, power);
        if left != 0 {
            while left.is_multiple_of(p) {
                left /= p;
                count += 1;
            }
            return count;
        }
        if rest.is_zero() {
            return count;
        }
        rest = std::borrow::Cow::Owned(&*rest / power);
        count += exponent;
    }
}

/// `n mod q` for a one-word `q > 0`, digit by digit from the top, with
/// nothing allocated (a big integer's `%` makes a new one).
fn remainder(n: &BigUint, q: u64) -> u64 {
    let q = u128::from(q);
    let rest = n
        .iter_u64_digits()
        .rev()
        .fold(0, |rest, digit| ((rest << 64) | u128::from(digit)) % q);
    u64::try_from(rest).expect("below q")
}

/// Fractions from this many numerators up are reduced on every core,
/// when their denominator's bits times their number reach
/// [`PARALLEL_BITS`] (under that, faster than a thread pool starts).
const PARALLEL_FRACTIONS: usize = 64;
const PARALLEL_BITS: u64 = 1 << 18;

/// Many fractions over one denominator, each reduced (see
/// [`Denominator`]).
pub fn ratios<'a>(
    numerators: impl Iterator<Item = &'a BigUint>,
    denominator: &BigUint,
) -> Vec<Exact> {
    Denominator::new(denominator).ratios(numerators)
}

impl Denominator {
    /// Many `numerator / self`, each reduced; long lists on every core
    /// (the browser's module has one, and leaves rayon out).
    pub fn ratios<'a>(&self, numerators: impl Iterator<Item = &'a BigUint>) -> Vec<Exact> {
        use rayon::prelude::*;
        let numerators: Vec<&BigUint> = numerators.collect();
        let work = numerators.len() as u64 * self.value.bits();
        if cfg!(feature = "browser")
            || numerators.len() < PARALLEL_FRACTIONS
            || work < PARALLEL_BITS
        {
            numerators.iter().map(|n| self.ratio(n)).collect()
        } else {
            numerators.par_iter().map(|n| self.ratio(n)).collect()
        }
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
        if remainder(&rest, p) == 0 {
            primes.push(p);
            while remainder(&rest, p) == 0 {
                rest /= p;
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

/// `a` against `b` by cross-multiplying (denominators are positive):
/// num-rational's comparison expands both as continued fractions, a big
/// division per step, which costs several times more on the long parts of
/// a race's margins. Signs and equal denominators settle most at once.
pub fn compare(a: &Exact, b: &Exact) -> Ordering {
    let signs = a.numer().sign().cmp(&b.numer().sign());
    if signs != Ordering::Equal || a.numer().is_zero() {
        return signs;
    }
    if a.denom() == b.denom() {
        return a.numer().cmp(b.numer());
    }
    (a.numer() * b.denom()).cmp(&(b.numer() * a.denom()))
}

/// `|a - b|`, exactly.
pub fn abs_diff(a: &Exact, b: &Exact) -> Exact {
    (a - b).abs()
}

/// The contract's spelling of an exact value: `"p/q"`, always with the `/q`.
pub fn exact_string(value: &Exact) -> String {
    let mut text = signed_decimal(value.numer());
    text.push('/');
    let denominator = value.denom().magnitude();
    if denominator.bits() < SPELLED_FROM_BITS {
        push_decimal(denominator, &mut text);
        return text;
    }
    SPELLED.with(|spelled| {
        let mut spelled = spelled.borrow_mut();
        match spelled.iter().find(|(number, _)| number == denominator) {
            Some((_, digits)) => text.push_str(digits),
            None => {
                let mut digits = String::new();
                push_decimal(denominator, &mut digits);
                text.push_str(&digits);
                if spelled.len() == SPELLED_KEPT {
                    spelled.pop_front();
                }
                spelled.push_back((denominator.clone(), digits));
            }
        }
    });
    text
}

/// Denominators this long and longer are remembered once spelled.
const SPELLED_FROM_BITS: u64 = 512;
/// How many are remembered, on each thread.
const SPELLED_KEPT: usize = 128;

thread_local! {
    /// The last denominators spelled, with their digits: the probabilities
    /// of one distribution share few denominators (the 5,001 of 1000d6 have
    /// 95 among them), and spelling a number of hundreds of digits costs far
    /// more than comparing it.
    static SPELLED: std::cell::RefCell<std::collections::VecDeque<(BigUint, String)>> =
        const { std::cell::RefCell::new(std::collections::VecDeque::new()) };
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
    fn remembered_denominators_spell_as_the_fresh_ones() {
        // 6^1000 over some of its factors: long denominators, some repeated,
        // more distinct ones than are remembered, so some are forgotten.
        let whole = BigUint::from(6u32).pow(1000);
        for round in 0..2u32 {
            for k in 0..(SPELLED_KEPT as u32 + 40) {
                let denominator = &whole >> (k % 300);
                let numerator = BigUint::from(2 * k + 1 + round);
                let value = ratio(&numerator, &denominator);
                assert_eq!(
                    exact_string(&value),
                    format!("{}/{}", value.numer(), value.denom()),
                    "{k}"
                );
            }
        }
        // Short ones are spelled as they come, signs and all.
        let small = ratio(&BigUint::from(3u32), &BigUint::from(12u32));
        assert_eq!(exact_string(&small), "1/4");
        assert_eq!(exact_string(&-small), "-1/4");
    }

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

    proptest::proptest! {
        /// Counting primes off by words agrees with the gcd, whatever
        /// powers the numerator and the denominator share: powers past a
        /// word's (5^27, 3^40), numerators with more of a prime than the
        /// denominator, and a cofactor of other primes.
        #[test]
        fn counted_reduction_matches_the_gcd(
            exponents in proptest::collection::vec((0u32..70, 0u32..70), 4),
            cofactor in proptest::collection::vec(proptest::prelude::any::<u32>(), 0..4),
        ) {
            let primes = [2u32, 3, 5, 7];
            let mut numerator = BigUint::from_slice(&cofactor) * 11u32 + 1u32;
            let mut denominator = BigUint::one();
            for (p, (in_n, in_d)) in primes.iter().zip(&exponents) {
                numerator *= BigUint::from(*p).pow(*in_n);
                denominator *= BigUint::from(*p).pow(*in_d);
            }
            let over = Denominator::new(&denominator);
            let reduced = over.ratio(&numerator);
            proptest::prop_assert_eq!(&reduced, &ratio(&numerator, &denominator));
            proptest::prop_assert_eq!(complement(&reduced), Exact::one() - &reduced);
        }
    }

    proptest::proptest! {
        /// Cross-multiplying orders fractions as num-rational does.
        #[test]
        fn comparison_by_cross_multiplying_agrees(
            parts in proptest::collection::vec((-40i64..40, 1i64..40, 0u32..3), 2),
        ) {
            let [a, b] = [0, 1].map(|i| {
                let (n, d, k) = parts[i];
                // Long parts too: n 7^(30k) + 1 over d 5^(30k).
                let numerator = BigInt::from(n) * BigInt::from(7).pow(30 * k) + 1;
                Exact::new(numerator, BigInt::from(d) * BigInt::from(5).pow(30 * k))
            });
            proptest::prop_assert_eq!(compare(&a, &b), a.cmp(&b));
            proptest::prop_assert_eq!(compare(&a, &a), Ordering::Equal);
        }
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
