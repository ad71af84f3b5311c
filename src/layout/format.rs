//! Display forms of exact numbers: rounded, grouped or scientific.
//!
//! Presentation helpers for analyses filling tables. The exact value always
//! travels beside the display form, so rounding here never loses anything.
//!
//! Every approximate spelling of an exact integer or fraction (pages,
//! tooltips, the search index, CSV twin columns, the PDF and the terminal
//! all take theirs from here) is made by [`rounded`]: the exact value
//! rounded to so many significant digits, half to even, with integer
//! arithmetic only. A count of 3656158440062976 reads "3.65616 × 10¹⁵",
//! never its first digits cut ("3.65615").

use crate::engine::Exact;
use num_bigint::{BigInt, BigUint};
use num_traits::{Signed, Zero};

/// Digits past which a count is shown in scientific form.
const MAX_GROUPED_DIGITS: usize = 15;

/// Significant digits shown for probabilities and other fractions.
pub(crate) const SIGNIFICANT: usize = 6;

/// The space between a number and its unit (`50 %`, `2.5 points`): a
/// no-break space (U+00A0), so a line never ends between the two.
pub(crate) const UNIT_SPACE: char = '\u{a0}';

/// `number` and `unit` joined by [`UNIT_SPACE`].
pub(crate) fn with_unit(number: &str, unit: &str) -> String {
    format!("{number}{UNIT_SPACE}{unit}")
}

/// Authors' prose with every number joined to its unit as [`with_unit`]
/// joins them: the ordinary space in `5 %` or `2 points` after a digit
/// becomes [`UNIT_SPACE`]. Markdown text goes through here, so a page's
/// prose and its computed figures never break between number and unit.
pub(crate) fn units_joined(text: &str) -> std::borrow::Cow<'_, str> {
    let joins_at = |i: usize| {
        let rest = &text[i + 1..];
        let unit = ["%", "points", "point"]
            .into_iter()
            .find(|unit| rest.starts_with(unit));
        // A number, not a name ending in digits (`5d6 % 5` is a formula).
        let before = &text[..i];
        let number = before.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
        before.ends_with(|c: char| c.is_ascii_digit())
            && !number.ends_with(|c: char| c.is_alphanumeric())
            && unit
                .is_some_and(|unit| !rest[unit.len()..].starts_with(|c: char| c.is_alphanumeric()))
    };
    let spaces: Vec<usize> = text
        .match_indices(' ')
        .map(|(i, _)| i)
        .filter(|&i| joins_at(i))
        .collect();
    if spaces.is_empty() {
        return text.into();
    }
    let mut joined = String::with_capacity(text.len() + spaces.len());
    let mut from = 0;
    for i in spaces {
        joined.push_str(&text[from..i]);
        joined.push(UNIT_SPACE);
        from = i + 1;
    }
    joined.push_str(&text[from..]);
    joined.into()
}

/// An integer of any sign, grouped as [`count`] groups: `−3,084`.
pub(crate) fn integer(value: impl Into<BigInt>) -> String {
    let value: BigInt = value.into();
    let magnitude = count(value.magnitude());
    if value.is_negative() {
        format!("{MINUS}{magnitude}")
    } else {
        magnitude
    }
}

/// A count: `4,395,456`, or `1.23457 × 10⁴⁵` when it is very long,
/// rounded half to even by [`rounded`].
pub fn count(value: &BigUint) -> String {
    let digits = value.to_string();
    if digits.len() <= MAX_GROUPED_DIGITS {
        group_thousands(&digits)
    } else {
        let shown = rounded(&BigInt::from(value.clone()), &BigInt::from(1), SIGNIFICANT);
        scientific(&shown.digits, shown.exponent)
    }
}

/// A positive value rounded to a number of significant digits.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Rounded {
    /// Exactly as many digits as asked, the first not zero.
    pub(crate) digits: String,
    /// The power of ten of the first digit: the value is about
    /// `0.digits × 10^(exponent + 1)`.
    pub(crate) exponent: i64,
    /// Whether the digits are the value itself, nothing rounded away.
    pub(crate) exact: bool,
}

/// `numer / denom` (both positive) rounded to `significant` digits, half
/// to even, from the exact value: the one rounding of every number shown.
/// A tie (the part dropped exactly half a unit of the last digit) goes to
/// the even last digit; anything above half rounds up, anything below
/// down. A carry into a new digit (9.999996 to 6 digits) gives `100000`
/// with the exponent one higher.
pub(crate) fn rounded(numer: &BigInt, denom: &BigInt, significant: usize) -> Rounded {
    let mut exponent = decimal_exponent(numer, denom);
    let shift = significant as i64 - 1 - exponent;
    let ten = BigInt::from(10u32);
    let (n, d) = if shift >= 0 {
        (numer * num_traits::pow(ten, shift as usize), denom.clone())
    } else {
        (
            numer.clone(),
            denom * num_traits::pow(ten, (-shift) as usize),
        )
    };
    let (mut quotient, remainder) = num_integer::Integer::div_rem(&n, &d);
    let twice = &remainder * 2u32;
    let odd = num_integer::Integer::is_odd(&quotient);
    if twice > d || (twice == d && odd) {
        quotient += 1u32;
    }
    let mut digits = quotient.to_string();
    if digits.len() > significant {
        // Rounding carried into a new digit: 999999.6 is 1000000.
        digits.truncate(significant);
        exponent += 1;
    }
    Rounded {
        digits,
        exponent,
        exact: remainder.is_zero(),
    }
}

/// Most significant digits shown for a value that would otherwise round
/// to a bound it is not (1, 100 %).
const MAX_SIGNIFICANT: usize = 40;

/// The minus sign of every number shown (U+2212, as the charts draw it);
/// CSV files turn it back into `-` for spreadsheets.
pub(crate) const MINUS: char = '−';

/// A fraction as a decimal with [`SIGNIFICANT`] digits: `0.0726928`,
/// or `1.65 × 10⁻⁸` when tiny. Computed with integers, so it stays right
/// even where the parts overflow a float. A value that is not 1 never
/// shows as "1": it gets the digits it takes (`0.999999999999569`), or
/// past [`MAX_SIGNIFICANT`] digits reads "< 1"; zero shows only for zero.
pub fn decimal(value: &Exact) -> String {
    short_of(value, &Exact::from_integer(1.into()))
}

/// `value` with [`SIGNIFICANT`] digits, or as many more as it takes not
/// to read as `bound` or its negative when it is neither; "< bound" (or
/// "> −bound") when even [`MAX_SIGNIFICANT`] digits are not enough.
fn short_of(value: &Exact, bound: &Exact) -> String {
    shown_short_of(value, bound).text
}

/// A value's digits as shown, and whether they are the whole value.
struct Shown {
    text: String,
    exact: bool,
}

/// [`short_of`], saying whether anything was rounded away.
fn shown_short_of(value: &Exact, bound: &Exact) -> Shown {
    let bound_shown = decimal_to(bound, SIGNIFICANT).text;
    let reads_as_bound = |shown: &str| shown.trim_start_matches(MINUS) == bound_shown;
    let mut significant = SIGNIFICANT;
    let mut shown = decimal_to(value, significant);
    while reads_as_bound(&shown.text) && value.abs() != *bound {
        if significant >= MAX_SIGNIFICANT {
            let text = if value.is_negative() {
                format!("> {MINUS}{bound_shown}")
            } else {
                format!("< {bound_shown}")
            };
            return Shown { text, exact: false };
        }
        significant += 3;
        shown = decimal_to(value, significant);
    }
    shown
}

fn decimal_to(value: &Exact, significant: usize) -> Shown {
    if value.is_zero() {
        return Shown {
            text: "0".to_string(),
            exact: true,
        };
    }
    let sign = if value.is_negative() {
        MINUS.to_string()
    } else {
        String::new()
    };
    let Rounded {
        digits,
        exponent,
        exact,
    } = rounded(&value.numer().abs(), value.denom(), significant);
    let body = if (-5..=5).contains(&exponent) {
        positional(&digits, exponent)
    } else {
        scientific(&digits, exponent)
    };
    Shown {
        text: format!("{sign}{body}"),
        exact,
    }
}

/// A fraction as a percentage for reading: `12.5 %`, `1.65 × 10⁻⁶ %`;
/// never "100 %" for a chance short of certain (see [`decimal`]).
/// Scaled without reducing: the digits need no gcd of huge parts.
pub fn percent(value: &Exact) -> String {
    percent_shown(value).text
}

/// [`percent`], saying whether it is the whole value.
fn percent_shown(value: &Exact) -> Shown {
    let Shown { text, exact } = shown_short_of(&hundredfold(value), &hundred());
    Shown {
        text: with_unit(&text, "%"),
        exact,
    }
}

/// A difference of two chances in percentage points, every digit a
/// percentage of it would show: 101/4000 reads `2.525 points` (the
/// difference between 52.525 % and 50 %), never `2.525 %`.
pub(crate) fn points(difference: &Exact) -> String {
    let number = short_of(&hundredfold(difference), &hundred());
    with_unit(&number, points_unit(&number))
}

/// `point` for exactly one, else `points`.
fn points_unit(number: &str) -> &'static str {
    if number.trim_start_matches(MINUS) == "1" {
        "point"
    } else {
        "points"
    }
}

/// A difference of two chances in percentage points read at a glance, for
/// verdicts: two significant digits as [`rough_percent`] gives them
/// (`2.5 points`, `16 points`).
pub(crate) fn rough_points(difference: &Exact) -> String {
    let sign = if difference.is_negative() {
        MINUS.to_string()
    } else {
        String::new()
    };
    let number = format!("{sign}{}", rough_number(&hundredfold(&difference.abs())));
    with_unit(&number, points_unit(&number))
}

/// `value × 100`, unreduced: the digits need no gcd of huge parts.
fn hundredfold(value: &Exact) -> Exact {
    Exact::new_raw(value.numer() * 100, value.denom().clone())
}

fn hundred() -> Exact {
    Exact::from_integer(100.into())
}

/// Text of a number as readers see it: a leading `-` becomes the minus
/// sign (U+2212), as in every decimal shown; CSV turns it back into `-`.
pub(crate) fn signed(text: impl ToString) -> String {
    let text = text.to_string();
    match text.strip_prefix('-') {
        Some(rest) => format!("{MINUS}{rest}"),
        None => text,
    }
}

/// An exact value as readers see it (`−1/2`; the contract writes `-1/2`).
pub(crate) fn exact(value: &Exact) -> String {
    signed(crate::engine::exact_string(value))
}

/// The tooltip of a charted point: its label and its exact value, with
/// the percentage for a probability (`bin 3: 1/6 ≈ 16.6667 %`) or the
/// decimal for anything else (`2 players: 11/10 = 1.1`). `≈` only where
/// the digits shown are not the whole value.
pub(crate) fn exact_title(label: &str, value: &Exact, probability: bool) -> String {
    let shown = if probability {
        percent_shown(value)
    } else {
        shown_short_of(value, &Exact::from_integer(1.into()))
    };
    if value.is_integer() {
        format!("{label}: {}", shown.text)
    } else {
        format!("{label}: {}", exact_then(value, shown))
    }
}

/// The tooltip of a charted difference of two chances: its exact value
/// and its percentage points (`p_first 11/20: 101/4000 = 2.525 points`).
pub(crate) fn points_title(label: &str, difference: &Exact) -> String {
    let Shown { text, exact } = shown_short_of(&hundredfold(difference), &hundred());
    let number = with_unit(&text, points_unit(&text));
    if difference.is_integer() {
        format!("{label}: {number}")
    } else {
        format!(
            "{label}: {}",
            exact_then(
                difference,
                Shown {
                    text: number,
                    exact
                }
            )
        )
    }
}

/// An exact fraction and its decimal: `7/2 = 3.5`, `1/3 ≈ 0.333333`
/// (`≈` only where the decimal is rounded); an integer alone (`4`).
pub(crate) fn exact_with_decimal(value: &Exact) -> String {
    if value.is_integer() {
        return integer(value.to_integer());
    }
    exact_then(value, shown_short_of(value, &Exact::from_integer(1.into())))
}

fn exact_then(value: &Exact, shown: Shown) -> String {
    let sign = if shown.exact { "=" } else { "≈" };
    format!("{} {sign} {}", exact(value), shown.text)
}

/// A chance as a percentage a reader takes in at a glance, for verdict
/// sentences: two significant digits ("23 %", "0.028 %", "5.0 %"), more
/// only where two would show 100 % for a chance that is not; rounded half
/// to even from the exact value by [`rounded`].
pub(crate) fn rough_percent(chance: &Exact) -> String {
    with_unit(&rough_number(&hundredfold(chance)), "%")
}

/// A percentage's number with two significant digits (more where two
/// would read 100 for a value below it), for [`rough_percent`] and
/// [`rough_points`].
fn rough_number(value: &Exact) -> String {
    if !value.is_positive() || *value >= hundred() {
        return decimal(value);
    }
    let (numer, denom) = (value.numer().abs(), value.denom().abs());
    for significant in 2..=MAX_SIGNIFICANT {
        let shown = rounded(&numer, &denom, significant);
        if !(shown.exponent == 2 && shown.digits.trim_end_matches('0') == "1") {
            return fixed(&shown);
        }
    }
    "< 100".to_string()
}

/// [`rough_percent`] of a float chance (a statistic's p-value): its exact
/// binary value rounded the same way.
pub(crate) fn rough_percent_of(chance: f64) -> String {
    match Exact::from_float(chance) {
        Some(exact) => rough_percent(&exact),
        None => with_unit(&float(chance * 100.0), "%"),
    }
}

/// Rounded digits written out with every digit kept, trailing zeros too
/// (`5.0`, `0.028`, `1200`).
fn fixed(shown: &Rounded) -> String {
    let digits = &shown.digits;
    let whole = shown.exponent + 1;
    if whole <= 0 {
        format!("0.{}{digits}", "0".repeat((-whole) as usize))
    } else if whole as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(whole as usize - digits.len()))
    } else {
        let (int, frac) = digits.split_at(whole as usize);
        format!("{int}.{frac}")
    }
}

/// A float share as a percentage, for figures irrational by nature (an
/// interval's ends): `15.161135 %`, in the style of [`percent`].
pub(crate) fn float_percent(value: f64) -> String {
    let percent = value * 100.0;
    if percent == 0.0 || !percent.is_finite() {
        return with_unit(&percent.to_string(), "%");
    }
    // Significant digits, as exact percentages are shown: "31.5278 %",
    // not "31.527813 %" beside it.
    let magnitude = percent.abs().log10().floor() as i64;
    let decimals = (SIGNIFICANT as i64 - 1 - magnitude).max(0) as usize;
    let text = format!("{percent:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    // Rounding never claims certainty that is not there.
    if text == "100" && percent < 100.0 {
        return with_unit("> 99.9999", "%");
    }
    with_unit(&signed(text), "%")
}

/// A float for display, for figures that are inherently approximate.
pub(crate) fn float(value: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    signed(
        format!("{:.*}", SIGNIFICANT, value)
            .trim_end_matches('0')
            .trim_end_matches('.'),
    )
}

/// The e with 10^e <= numer/denom < 10^(e+1), for positive values: a guess
/// from bit lengths, corrected exactly.
fn decimal_exponent(numer: &BigInt, denom: &BigInt) -> i64 {
    let guess = (numer.bits() as f64 - denom.bits() as f64) * std::f64::consts::LOG10_2;
    let mut e = guess.floor() as i64;
    let ten = BigInt::from(10u32);
    // 10^e <= n/d  <=>  10^e * d <= n (e >= 0) or d <= n * 10^-e (e < 0).
    let at_least = |e: i64| {
        if e >= 0 {
            num_traits::pow(ten.clone(), e as usize) * denom <= *numer
        } else {
            *denom <= numer * num_traits::pow(ten.clone(), (-e) as usize)
        }
    };
    while !at_least(e) {
        e -= 1;
    }
    while at_least(e + 1) {
        e += 1;
    }
    e
}

fn positional(digits: &str, exponent: i64) -> String {
    let trimmed = digits.trim_end_matches('0');
    let trimmed = if trimmed.is_empty() { "0" } else { trimmed };
    if exponent < 0 {
        format!("0.{}{}", "0".repeat((-exponent - 1) as usize), trimmed)
    } else {
        let int_len = exponent as usize + 1;
        if trimmed.len() <= int_len {
            format!("{}{}", trimmed, "0".repeat(int_len - trimmed.len()))
        } else {
            format!("{}.{}", &trimmed[..int_len], &trimmed[int_len..])
        }
    }
}

fn scientific(digits: &str, exponent: i64) -> String {
    let head = &digits[..1];
    let tail = digits[1..digits.len().min(SIGNIFICANT)].trim_end_matches('0');
    let mantissa = if tail.is_empty() {
        head.to_string()
    } else {
        format!("{head}.{tail}")
    };
    format!("{mantissa} × 10{}", superscript(exponent))
}

fn superscript(exponent: i64) -> String {
    exponent
        .to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            _ => '⁹',
        })
        .collect()
}

fn group_thousands(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A value of the results contract shown in prose: `"p/q"` as a decimal (or
/// as the fraction with `style = "fraction"`), decimal strings grouped.
pub(crate) fn contract_value(value: &serde_json::Value, style: &str) -> Result<String, String> {
    use serde_json::Value;
    if !matches!(style, "decimal" | "fraction" | "percent" | "points") {
        return Err(format!(
            "format={style:?}: expected decimal, fraction, percent or points"
        ));
    }
    Ok(match value {
        Value::String(text) => match crate::engine::parse_fraction(text) {
            Some(fraction) => match style {
                "fraction" => text.clone(),
                "percent" => percent(&fraction),
                "points" => points(&fraction),
                _ => decimal(&fraction),
            },
            None => match text.parse::<BigUint>() {
                Ok(n) => count(&n),
                Err(_) => text.clone(),
            },
        },
        // Floats are statistics irrational by nature: rounded like `float`.
        Value::Number(n) if n.is_f64() => {
            let value = n.as_f64().unwrap_or(f64::NAN);
            match style {
                "percent" => float_percent(value),
                _ => float(value),
            }
        }
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => integer(u),
            (None, Some(i)) => integer(i),
            _ => n.to_string(),
        },
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        Value::Null => "none".to_string(),
        Value::Array(_) | Value::Object(_) => {
            return Err("the path points at a list or an object; expected a single value".into())
        }
    })
}

/// Items as a sentence lists them: "2", "2 and 3", "2, 3 and 6", and
/// "a, b; c, d; and e" when they hold commas.
pub(crate) fn in_words<T: AsRef<str>>(items: &[T]) -> String {
    let items: Vec<&str> = items.iter().map(AsRef::as_ref).collect();
    // Items that hold commas themselves ("Avrae, drop every 1") are kept
    // apart by semicolons, as English lists of such items are.
    let (between, last_joint) = match items.len() > 2 && items.iter().any(|i| i.contains(',')) {
        true => ("; ", "; and "),
        false => (", ", " and "),
    };
    match items.split_last() {
        Some((last, init)) if !init.is_empty() => {
            format!("{}{last_joint}{last}", init.join(between))
        }
        _ => items.concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_keep_items_with_commas_apart() {
        assert_eq!(in_words(&["2"]), "2");
        assert_eq!(in_words(&["2", "3"]), "2 and 3");
        assert_eq!(in_words(&["2", "3", "6"]), "2, 3 and 6");
        assert_eq!(in_words(&["a, b", "c"]), "a, b and c");
        assert_eq!(in_words(&["a, b", "c", "d"]), "a, b; c; and d");
    }

    #[test]
    fn float_percentages_keep_significant_digits_as_exact_ones_do() {
        assert_eq!(float_percent(0.31527813), "31.5278\u{a0}%");
        assert_eq!(float_percent(0.7694221), "76.9422\u{a0}%");
        assert_eq!(float_percent(0.0000123456789), "0.00123457\u{a0}%");
        assert_eq!(float_percent(0.5), "50\u{a0}%");
        assert_eq!(float_percent(1.0), "100\u{a0}%");
        assert_eq!(float_percent(0.99999999), "> 99.9999\u{a0}%");
        assert_eq!(float_percent(-0.125), "\u{2212}12.5\u{a0}%");
        assert_eq!(float_percent(0.0), "0\u{a0}%");
        // The same figure read exactly shows the same digits.
        let exact = Exact::new(31527813.into(), 100000000.into());
        assert_eq!(percent(&exact), float_percent(0.31527813));
    }

    #[test]
    fn items_are_listed_as_a_sentence_lists_them() {
        assert_eq!(super::in_words::<&str>(&[]), "");
        assert_eq!(super::in_words(&["2"]), "2");
        assert_eq!(super::in_words(&["2", "3"]), "2 and 3");
        assert_eq!(super::in_words(&["2", "3", "6"]), "2, 3 and 6");
    }

    #[test]
    fn a_minus_is_the_minus_sign_and_only_in_front() {
        assert_eq!(signed(-3), "−3");
        assert_eq!(signed(12), "12");
        assert_eq!(signed("1d6-4"), "1d6-4");
        assert_eq!(exact(&Exact::new((-1).into(), 2.into())), "−1/2");
        assert_eq!(float(-0.0039954812), "−0.003995");
    }
    use crate::engine::ratio;

    fn frac(n: u64, d: u64) -> Exact {
        ratio(&BigUint::from(n), &BigUint::from(d))
    }

    #[test]
    fn counts_group_or_go_scientific() {
        assert_eq!(count(&BigUint::from(4_395_456u32)), "4,395,456");
        assert_eq!(count(&BigUint::from(7u32)), "7");
        // 6^100 = 6.533186... × 10^77: rounded, not cut.
        assert_eq!(count(&BigUint::from(6u32).pow(100)), "6.53319 × 10⁷⁷");
    }

    #[test]
    fn decimals_match_the_seed_tables() {
        assert_eq!(decimal(&frac(4_395_456, 60_466_176)), "0.0726928");
        assert_eq!(decimal(&frac(1, 60_466_176)), "1.65382 × 10⁻⁸");
        assert_eq!(decimal(&frac(1, 2)), "0.5");
        assert_eq!(decimal(&frac(1, 3)), "0.333333");
        assert_eq!(decimal(&frac(648, 575)), "1.12696");
        assert_eq!(decimal(&frac(999_999, 1_000_000)), "0.999999");
        assert_eq!(decimal(&frac(99_999_999, 100_000_000)), "0.99999999");
        // The shuffle table's distance that showed as "1".
        let distance = ratio(
            &"608225502043897861".parse().unwrap(),
            &"608225502044160000".parse().unwrap(),
        );
        assert_eq!(decimal(&distance), "0.999999999999569");
        assert_eq!(decimal(&frac(1_000_001, 1_000_000)), "1.000001");
        assert_eq!(decimal(&frac(1, 1)), "1");
        assert_eq!(decimal(&frac(1_000_000_000, 1)), "1 × 10⁹");
    }

    #[test]
    fn decimals_of_huge_fractions() {
        let big = BigUint::from(6u32).pow(3000);
        assert_eq!(
            decimal(&ratio(&BigUint::from(1u32), &big)),
            "3.51762 × 10⁻²³³⁵"
        );
        assert_eq!(decimal(&ratio(&(&big / 3u32), &big)), "0.333333");
    }

    #[test]
    fn rough_percents_read_at_a_glance_and_never_round_to_0_or_100() {
        assert_eq!(rough_percent_of(0.75527875), "76\u{a0}%");
        assert_eq!(rough_percent_of(0.23), "23\u{a0}%");
        assert_eq!(rough_percent_of(0.00028301), "0.028\u{a0}%");
        assert_eq!(rough_percent_of(0.05), "5.0\u{a0}%");
        assert_eq!(rough_percent_of(0.9996), "99.96\u{a0}%");
        assert_eq!(rough_percent_of(0.0), "0\u{a0}%");
        assert_eq!(rough_percent_of(1.0), "100\u{a0}%");
    }

    /// A rounded figure never reads as certain (1, 100 %) or as a bound
    /// of the other sign unless it is exactly that; the digits grow until
    /// it does not, and past 40 it says "< 1". One minus sign, U+2212.
    #[test]
    fn rounding_never_claims_certainty() {
        let f = |n: &str, d: &str| Exact::new(n.parse().unwrap(), d.parse().unwrap());
        // dice/exploding.html's cell, and `roll 20d6`'s 1 - 1/6^20.
        assert_eq!(percent(&f("1088390755", "1088391168")), "99.9999621\u{a0}%");
        let six20: BigInt = BigInt::from(6).pow(20);
        let almost = f(&(&six20 - BigInt::from(1)).to_string(), &six20.to_string());
        assert_eq!(percent(&almost), "99.9999999999999726\u{a0}%");
        assert_eq!(decimal(&almost), "0.999999999999999726");
        // Past 40 digits: said as a bound, never as 1.
        let ten50: BigInt = BigInt::from(10).pow(50);
        let nearly = f(&(&ten50 - BigInt::from(1)).to_string(), &ten50.to_string());
        assert_eq!(decimal(&nearly), "< 1");
        assert_eq!(percent(&nearly), "< 100\u{a0}%");
        assert_eq!(decimal(&-nearly.clone()), "> −1");
        // Exact bounds and ordinary values as before, minus as U+2212.
        assert_eq!(decimal(&f("1", "1")), "1");
        assert_eq!(percent(&f("1", "1")), "100\u{a0}%");
        assert_eq!(percent(&f("0", "1")), "0\u{a0}%");
        assert_eq!(decimal(&f("-1", "2")), "−0.5");
        assert_eq!(float(-0.25), "−0.25");
        // A tiny chance never reads 0.
        assert_eq!(
            percent(&f("1", &six20.to_string())),
            "2.73511 × 10⁻¹⁴\u{a0}%"
        );
        // By brute force over small fractions: a shown 1 or 100 % is exact.
        for d in 1..200u32 {
            for n in 0..=d {
                let value = f(&n.to_string(), &d.to_string());
                assert_eq!(decimal(&value) == "1", n == d, "{n}/{d}");
                assert_eq!(percent(&value) == "100\u{a0}%", n == d, "{n}/{d}");
                assert_eq!(percent(&value) == "0\u{a0}%", n == 0, "{n}/{d}");
            }
        }
    }

    /// Issue 41: one spelling per figure. Integers of 1,000 and more are
    /// grouped, differences of chances are in points, a unit never breaks
    /// from its number, and `≈` marks only what is rounded.
    #[test]
    fn one_number_style_per_figure() {
        assert_eq!(count(&BigUint::from(3084u32)), "3,084");
        assert_eq!(count(&BigUint::from(1_234_567u32)), "1,234,567");
        assert_eq!(count(&BigUint::from(999u32)), "999");
        assert_eq!(count(&BigUint::from(1000u32)), "1,000");
        assert_eq!(integer(-3084), "\u{2212}3,084");
        assert_eq!(integer(12u8), "12");
        // A difference of two chances: 52.525 % against 50 %.
        assert_eq!(points(&frac(101, 4000)), "2.525\u{a0}points");
        assert_eq!(rough_points(&frac(101, 4000)), "2.5\u{a0}points");
        assert_eq!(rough_points(&frac(1, 20)), "5.0\u{a0}points");
        assert_eq!(points(&frac(1, 100)), "1\u{a0}point");
        assert_eq!(
            points(&Exact::new((-1).into(), 8.into())),
            "\u{2212}12.5\u{a0}points"
        );
        // A no-break space between every number and its unit.
        assert_eq!(percent(&frac(1, 2)), "50\u{a0}%");
        assert_eq!(rough_percent(&frac(11, 20)), "55\u{a0}%");
        assert_eq!(float_percent(0.5), "50\u{a0}%");
        for shown in [percent(&frac(1, 3)), points(&frac(1, 3))] {
            assert!(!shown.contains(' '), "{shown:?}");
            assert!(shown.contains(UNIT_SPACE), "{shown:?}");
        }
        // `≈` only for a rounded value.
        assert_eq!(
            exact_title("edge", &frac(101, 4000), true),
            "edge: 101/4000 = 2.525\u{a0}%"
        );
        assert_eq!(
            exact_title("bin 3", &frac(1, 6), true),
            "bin 3: 1/6 \u{2248} 16.6667\u{a0}%"
        );
        assert_eq!(exact_title("n", &frac(11, 10), false), "n: 11/10 = 1.1");
        assert_eq!(exact_title("n", &frac(4, 1), true), "n: 400\u{a0}%");
        assert_eq!(exact_with_decimal(&frac(7, 2)), "7/2 = 3.5");
        assert_eq!(exact_with_decimal(&frac(1, 3)), "1/3 \u{2248} 0.333333");
        assert_eq!(exact_with_decimal(&frac(3084, 1)), "3,084");
        // Prose and shortcodes take the same spellings.
        use serde_json::json;
        assert_eq!(contract_value(&json!(3084), "decimal").unwrap(), "3,084");
        assert_eq!(
            contract_value(&json!("101/4000"), "points").unwrap(),
            "2.525\u{a0}points"
        );
    }

    #[test]
    fn prose_keeps_numbers_with_their_units() {
        assert_eq!(
            units_joined("at 5 % per game, 2 points, 3 pointers, 50 %)"),
            "at 5\u{a0}% per game, 2\u{a0}points, 3 pointers, 50\u{a0}%)"
        );
        assert_eq!(
            units_joined("5d6 % 5, % 3, 1,000 %"),
            "5d6 % 5, % 3, 1,000\u{a0}%"
        );
        assert!(matches!(
            units_joined("no units here"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn contract_values_in_prose() {
        use serde_json::json;
        assert_eq!(
            contract_value(&json!("19063/75582720"), "decimal").unwrap(),
            "0.000252214"
        );
        assert_eq!(
            contract_value(&json!("19063/75582720"), "fraction").unwrap(),
            "19063/75582720"
        );
        assert_eq!(
            contract_value(&json!("1/8"), "percent").unwrap(),
            "12.5\u{a0}%"
        );
        assert_eq!(
            contract_value(&json!("60466176"), "decimal").unwrap(),
            "60,466,176"
        );
        assert_eq!(contract_value(&json!(true), "decimal").unwrap(), "yes");
        assert!(contract_value(&json!([1]), "decimal").is_err());
        assert!(contract_value(&json!("1/2"), "roman")
            .unwrap_err()
            .contains("expected decimal"));
    }
}
