//! Every approximate spelling of an exact number, against an independent
//! rounding: thousands of shown/exact pairs (counts of 10^15 and far
//! beyond, fractions tiny, near 1 and above it, ties made on purpose),
//! read back from what a reader sees (table cells, percentages) and from
//! the CSV twin column, and compared digit by digit with the value rounded
//! half to even by plain `BigUint` arithmetic on its decimal expansion.

use super::blocks::Table;
use super::{cells, csv, format};
use crate::engine::{ratio, Exact};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;

/// Digits and the power of ten of the first, as a reader reads them:
/// `4,395,456`, `9.05084 × 10¹⁷`, `0.0726928`, `12.5 %` (a percentage is
/// read as the number before the sign), `1.65382e-8` (CSV).
fn read(shown: &str) -> (String, i64) {
    let text = shown.trim_end_matches("\u{a0}%").replace(',', "");
    let (mantissa, power) = match text.split_once(" × 10") {
        Some((m, p)) => (m.to_string(), superscript_value(p)),
        None => match text.split_once('e') {
            Some((m, p)) => (m.to_string(), p.parse().unwrap()),
            None => (text.clone(), 0),
        },
    };
    let (whole, part) = mantissa.split_once('.').unwrap_or((&mantissa, ""));
    let all = format!("{whole}{part}");
    let leading = all.len() - all.trim_start_matches('0').len();
    let digits = all
        .trim_start_matches('0')
        .trim_end_matches('0')
        .to_string();
    let exponent = whole.len() as i64 - 1 - leading as i64 + power;
    (digits, exponent)
}

fn superscript_value(text: &str) -> i64 {
    let plain: String = text
        .chars()
        .map(|c| match c {
            '⁻' => '-',
            c => char::from_digit(
                "⁰¹²³⁴⁵⁶⁷⁸⁹".chars().position(|d| d == c).unwrap() as u32,
                10,
            )
            .unwrap(),
        })
        .collect();
    plain.parse().unwrap()
}

/// `n / d` to `significant` digits, half to even, from its decimal
/// expansion: far enough that the digits after the kept ones and the
/// remainder decide the rounding. Trailing zeros trimmed.
fn expected(n: &BigUint, d: &BigUint, significant: usize) -> (String, i64) {
    let places = significant as i64 + 2 + d.to_string().len() as i64;
    let scaled = n * BigUint::from(10u32).pow(places as u32);
    let (quotient, remainder) = (&scaled / d, &scaled % d);
    let digits = quotient.to_string();
    let mut exponent = digits.len() as i64 - 1 - places;
    let (kept, rest) = digits.split_at(significant);
    let mut kept: BigUint = kept.parse().unwrap();
    // The rest has at least three digits (n/d >= 10^-digits(d)).
    let tie = rest[1..].bytes().all(|b| b == b'0') && remainder.is_zero();
    let up = match rest.as_bytes()[0] {
        b'6'..=b'9' => true,
        b'5' => !tie || kept.bit(0),
        _ => false,
    };
    if up {
        kept += 1u32;
    }
    let mut kept = kept.to_string();
    if kept.len() > significant {
        kept.truncate(significant);
        exponent += 1;
    }
    (kept.trim_end_matches('0').to_string(), exponent)
}

/// The shown digits are the exact value's rounded to the digits shown (6,
/// or 9, 12, ... where 6 would read as 1 or 100 %).
fn check(shown: &str, n: &BigUint, d: &BigUint) -> Result<(), TestCaseError> {
    let (digits, exponent) = read(shown);
    let significant = (format::SIGNIFICANT..)
        .step_by(3)
        .find(|s| *s >= digits.len())
        .unwrap();
    let wanted = expected(n, d, significant);
    prop_assert_eq!(
        (digits, exponent),
        wanted,
        "{} shown for {}/{} ({} digits)",
        shown,
        n,
        d,
        significant
    );
    Ok(())
}

/// Numbers of 1 to 60 digits, some of them ties: a kept digit then a 5
/// then zeros, so rounding half to even is put to the test.
fn number() -> impl Strategy<Value = BigUint> {
    prop_oneof![
        proptest::collection::vec(any::<u32>(), 1..7).prop_map(|l| BigUint::from_slice(&l) + 1u32),
        (1u64..10_000_000, 0u32..45)
            .prop_map(|(m, zeros)| BigUint::from(m * 10 + 5) * BigUint::from(10u32).pow(zeros)),
        (1u64..u64::MAX).prop_map(BigUint::from),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn every_shown_number_is_its_exact_value_rounded_half_to_even(
        n in number(),
        d in number(),
    ) {
        // A count, as a table cell shows it (grouped up to 15 digits).
        let cell = cells::count(&n);
        prop_assert_eq!(&cell.exact, &n.to_string());
        check(&cell.shown, &n, &BigUint::one())?;
        // A fraction and a percentage, each side of 1.
        let value = ratio(&n, &d);
        check(&cells::fraction(&value).shown, &n, &d)?;
        check(&cells::percent(&value).shown, &(&n * 100u32), &d)?;
        let inverse = ratio(&d, &n);
        check(&format::decimal(&inverse), &d, &n)?;
        // The CSV's decimal twin of a fraction column says the same.
        let table = Table {
            id: "t".into(),
            caption: String::new(),
            columns: vec!["p".into()],
            rows: vec![vec![cells::fraction(&value)]],
        };
        let text = csv::csv(&table);
        let row = text.lines().nth(1).unwrap();
        let twin = row.split(',').nth(1).unwrap();
        check(twin, &n, &d)?;
    }
}

#[test]
fn the_cut_numbers_of_issue_41_are_rounded() {
    let count = |text: &str| format::count(&text.parse().unwrap());
    assert_eq!(count("905083995793710110"), "9.05084 × 10¹⁷");
    assert_eq!(count("3656158440062976"), "3.65616 × 10¹⁵");
    // Ties go to the even digit, above a tie rounds up.
    assert_eq!(count("1000005000000000000"), "1 × 10¹⁸");
    assert_eq!(count("1000015000000000000"), "1.00002 × 10¹⁸");
    assert_eq!(count("1000005000000000001"), "1.00001 × 10¹⁸");
    // A carry into a new digit.
    assert_eq!(count("9999995000000000"), "1 × 10¹⁶");
    let half = |n: u64, d: u64| format::decimal(&ratio(&n.into(), &d.into()));
    assert_eq!(half(1_234_565, 10_000_000), "0.123456");
    assert_eq!(half(1_234_575, 10_000_000), "0.123458");
    assert_eq!(half(1_234_565_000_001, 10_000_000_000_000), "0.123457");
}

#[test]
fn rough_percentages_round_half_to_even_from_the_exact_value() {
    let f = |n: u64, d: u64| format::rough_percent(&ratio(&n.into(), &d.into()));
    assert_eq!(f(3, 4), "75\u{a0}%");
    assert_eq!(f(1, 20), "5.0\u{a0}%");
    assert_eq!(f(145, 1000), "14\u{a0}%");
    assert_eq!(f(155, 1000), "16\u{a0}%");
    assert_eq!(f(1451, 10000), "15\u{a0}%");
    assert_eq!(f(28301, 100_000_000), "0.028\u{a0}%");
    assert_eq!(f(9996, 10000), "99.96\u{a0}%");
    assert_eq!(f(0, 1), "0\u{a0}%");
    assert_eq!(f(1, 1), "100\u{a0}%");
    let almost = Exact::new(
        (BigUint::from(10u32).pow(60) - 1u32).into(),
        BigUint::from(10u32).pow(60).into(),
    );
    assert_eq!(format::rough_percent(&almost), "< 100\u{a0}%");
    assert_eq!(format::rough_percent_of(0.75527875), "76\u{a0}%");
}
