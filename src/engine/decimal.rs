//! Big integers spelled in decimal, fast: the exact results of a large
//! roll are thousands of numbers of hundreds of digits (1000d6: 15,000 of
//! about 780), and num-bigint's `to_string` spends most of its time
//! allocating (it rebuilds its table of powers of ten for every number and
//! writes one byte per digit before reversing them).
//!
//! Here a number is divided by 10^19 one 64-bit limb at a time with a
//! precomputed reciprocal (two multiplications, no division instruction),
//! giving 19 digits per step; numbers of more than [`SPLIT_LIMBS`] limbs
//! are first split in halves by a power of ten, so the cost stays near
//! num-bigint's own divide and conquer for very long numbers. The spelling
//! is num-bigint's exactly (tested against it).

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{ToPrimitive, Zero};
use std::cell::RefCell;

/// 10^19, the largest power of ten in a limb.
const CHUNK: u64 = 10_000_000_000_000_000_000;
/// Decimal digits per chunk.
const CHUNK_DIGITS: usize = 19;
/// `floor((2^128 - 1) / CHUNK) - 2^64`: dividing by `CHUNK` (whose top bit
/// is set) with multiplications (Möller and Granlund, "Improved division
/// by invariant integers", 2011, algorithm 4).
const RECIPROCAL: u64 = (u128::MAX / CHUNK as u128 - (1u128 << 64)) as u64;
/// Above this many limbs a number is split in two by a power of ten first.
const SPLIT_LIMBS: usize = 48;

/// `n` in decimal, as `n.to_string()` spells it.
pub fn decimal(n: &BigUint) -> String {
    let mut out = String::with_capacity(digits_bound(n));
    push_decimal(n, &mut out);
    out
}

/// `n` in decimal with a `-` when negative, as `n.to_string()` spells it.
pub(crate) fn signed_decimal(n: &BigInt) -> String {
    let mut out = String::new();
    if n.sign() == Sign::Minus {
        out.push('-');
    }
    push_decimal(n.magnitude(), &mut out);
    out
}

/// Append `n` in decimal to `out`.
pub(crate) fn push_decimal(n: &BigUint, out: &mut String) {
    // Most counts fit two limbs: spelled by the standard library, without
    // copying the limbs out.
    if let Some(small) = n.to_u128() {
        use std::fmt::Write;
        write!(out, "{small}").expect("a String takes any text");
        return;
    }
    let mut bytes = std::mem::take(out).into_bytes();
    bytes.reserve(digits_bound(n));
    if n.is_zero() {
        bytes.push(b'0');
    } else {
        write_number(n.to_u64_digits(), None, &mut bytes);
    }
    *out = String::from_utf8(bytes).expect("digits are ASCII");
}

/// At least the number of digits of `n` (log10 2 < 0.30103).
fn digits_bound(n: &BigUint) -> usize {
    (n.bits() as usize * 30103).div_ceil(100_000) + 1
}

/// Write the number with these limbs (little-endian, maybe with zero top
/// limbs), left-padded with zeros to `width` digits when given.
fn write_number(mut limbs: Vec<u64>, width: Option<usize>, out: &mut Vec<u8>) {
    while limbs.last() == Some(&0) {
        limbs.pop();
    }
    if limbs.len() > SPLIT_LIMBS {
        let n = BigUint::from_slice(&u32_limbs(&limbs));
        let (level, low_digits) = split_level(limbs.len());
        let (high, low) = POWERS.with(|powers| {
            let mut powers = powers.borrow_mut();
            while powers.len() <= level {
                let next = match powers.last() {
                    Some(last) => last * last,
                    None => BigUint::from(CHUNK),
                };
                powers.push(next);
            }
            num_integer::Integer::div_rem(&n, &powers[level])
        });
        write_number(
            high.to_u64_digits(),
            width.map(|w| w.saturating_sub(low_digits)),
            out,
        );
        write_number(low.to_u64_digits(), Some(low_digits), out);
        return;
    }
    let chunks = chunks(limbs);
    let top = chunks.last().copied().unwrap_or(0);
    let top_digits = if top == 0 {
        0
    } else {
        top.ilog10() as usize + 1
    };
    let digits = top_digits + CHUNK_DIGITS * chunks.len().saturating_sub(1);
    if let Some(width) = width {
        out.resize(out.len() + width.saturating_sub(digits), b'0');
    }
    let mut buffer = [0u8; CHUNK_DIGITS];
    if top != 0 {
        spell_chunk(top, &mut buffer);
        out.extend_from_slice(&buffer[CHUNK_DIGITS - top_digits..]);
    }
    for &chunk in chunks.iter().rev().skip(1) {
        spell_chunk(chunk, &mut buffer);
        out.extend_from_slice(&buffer);
    }
}

thread_local! {
    /// 10^(19 * 2^k) for k = 0, 1, ...: the splitting powers, built once.
    static POWERS: RefCell<Vec<BigUint>> = const { RefCell::new(Vec::new()) };
}

/// The power 10^(19 * 2^level) that splits a number of `limbs` limbs near
/// its middle, and its number of digits.
fn split_level(limbs: usize) -> (usize, usize) {
    // 10^(19 * 2^level) has about 0.99 * 2^level limbs.
    let level = (limbs / 2).max(1).ilog2() as usize;
    (level, CHUNK_DIGITS << level)
}

fn u32_limbs(limbs: &[u64]) -> Vec<u32> {
    limbs
        .iter()
        .flat_map(|&limb| [limb as u32, (limb >> 32) as u32])
        .collect()
}

/// The base-10^19 digits of the number, least significant first; empty
/// for zero. Consumes the limbs.
///
/// Each pass over the limbs divides by 10^19 four times over, the second
/// division consuming the first's quotient limb by limb as it comes, and so
/// on: the four chains of remainders are independent, so the processor
/// runs them side by side, and there are a quarter as many passes.
fn chunks(mut limbs: Vec<u64>) -> Vec<u64> {
    let mut chunks = Vec::with_capacity(limbs.len() + limbs.len() / 8 + 4);
    while !limbs.is_empty() {
        let mut remainders = [0u64; 4];
        for limb in limbs.iter_mut().rev() {
            let mut quotient = *limb;
            for remainder in &mut remainders {
                (quotient, *remainder) = divide_chunk(*remainder, quotient);
            }
            *limb = quotient;
        }
        chunks.extend_from_slice(&remainders);
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
    }
    while chunks.last() == Some(&0) {
        chunks.pop();
    }
    chunks
}

/// `(high * 2^64 + low) / CHUNK` and its remainder, for `high < CHUNK`.
#[inline]
fn divide_chunk(high: u64, low: u64) -> (u64, u64) {
    let numerator = (u128::from(high) << 64) | u128::from(low);
    let estimate = (u128::from(RECIPROCAL) * u128::from(high)).wrapping_add(numerator);
    let mut quotient = ((estimate >> 64) as u64).wrapping_add(1);
    let mut remainder = low.wrapping_sub(quotient.wrapping_mul(CHUNK));
    if remainder > estimate as u64 {
        quotient = quotient.wrapping_sub(1);
        remainder = remainder.wrapping_add(CHUNK);
    }
    if remainder >= CHUNK {
        quotient += 1;
        remainder -= CHUNK;
    }
    (quotient, remainder)
}

/// Two-digit pairs "00" to "99".
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// `chunk < 10^19` as exactly 19 digits, zero-padded.
#[inline]
fn spell_chunk(chunk: u64, buffer: &mut [u8; CHUNK_DIGITS]) {
    // Two independent halves of 9 and 10 digits, two digits at a time.
    let (mut high, mut low) = (chunk / 10_000_000_000, chunk % 10_000_000_000);
    for i in 0..5 {
        let pair = (low % 100) as usize * 2;
        low /= 100;
        buffer[17 - 2 * i..19 - 2 * i].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    for i in 0..4 {
        let pair = (high % 100) as usize * 2;
        high /= 100;
        buffer[7 - 2 * i..9 - 2 * i].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    buffer[0] = b'0' + high as u8;
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::One;
    use proptest::prelude::*;

    fn check(n: &BigUint) {
        assert_eq!(decimal(n), n.to_string(), "{n:x}");
        let negative = -BigInt::from(n.clone());
        assert_eq!(signed_decimal(&negative), negative.to_string());
    }

    #[test]
    fn the_chunk_division_is_exact_at_its_edges() {
        for (high, low) in [
            (0, 0),
            (0, u64::MAX),
            (CHUNK - 1, u64::MAX),
            (CHUNK - 1, 0),
            (1, 0),
            (12345, 6789),
        ] {
            let n = (u128::from(high) << 64) | u128::from(low);
            let expected = (
                (n / u128::from(CHUNK)) as u64,
                (n % u128::from(CHUNK)) as u64,
            );
            assert_eq!(divide_chunk(high, low), expected, "{high} {low}");
        }
    }

    #[test]
    fn numbers_at_chunk_and_split_boundaries() {
        check(&BigUint::zero());
        check(&BigUint::one());
        check(&BigUint::from(u64::MAX));
        let ten = BigUint::from(10u32);
        for digits in [
            18, 19, 20, 37, 38, 39, 57, 912, 1823, 1824, 1825, 3648, 7000,
        ] {
            let power = ten.pow(digits);
            check(&power);
            check(&(&power - 1u32));
            check(&(&power + 1u32));
            // Zero chunks in the middle, and a low half of all zeros.
            check(&(&power * &power + 7u32));
            check(&(&power * 3u32));
        }
        check(&BigUint::from(6u32).pow(1000));
        check(&BigUint::from(6u32).pow(10000));
        check(&(BigUint::from(2u32).pow(64 * 48) - 1u32));
        check(&BigUint::from(2u32).pow(64 * 48));
        check(&BigUint::from(2u32).pow(64 * 97 + 5));
    }

    #[test]
    fn appending_keeps_what_was_there() {
        let mut out = String::from("p=");
        push_decimal(&BigUint::from(6u32).pow(30), &mut out);
        out.push('/');
        push_decimal(&BigUint::zero(), &mut out);
        assert_eq!(out, format!("p={}/0", BigUint::from(6u32).pow(30)));
    }

    proptest! {
        #[test]
        fn any_number_is_spelled_as_num_bigint_spells_it(
            limbs in proptest::collection::vec(any::<u32>(), 0..400),
            zeros in 0usize..60,
            shift in 0usize..64,
        ) {
            let mut n = BigUint::from_slice(&limbs) << shift;
            // Runs of zero digits inside the number.
            n = &n * BigUint::from(10u32).pow(zeros as u32) + 1u32;
            check(&n);
            check(&BigUint::from_slice(&limbs));
        }
    }
}
