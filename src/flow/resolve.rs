//! Plain-word resolution: what an unquoted scalar (`7`, `0x1f`, `~`,
//! `true`, `.inf`) is when a type is asked for, by serde_yaml's rules.
//! Apart from the reader and the Deserializer because both ask it, and it
//! is a rule table of its own.

/// What a plain word is when any type may be asked for (serde_yaml's
/// rules: YAML 1.2's core schema, where `0123` is text).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Resolved {
    Null,
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Big(u128),
    BigSigned(i128),
    Float(f64),
    Str,
}

pub(super) fn resolve(text: &str) -> Resolved {
    if text.is_empty() || is_null(text) {
        return Resolved::Null;
    }
    if let Some(b) = boolean(text) {
        return Resolved::Bool(b);
    }
    if let Some(n) = unsigned(text, u64::from_str_radix) {
        return Resolved::Unsigned(n);
    }
    if let Some(n) = negative(text, i64::from_str_radix) {
        return Resolved::Signed(n);
    }
    if let Some(n) = unsigned(text, u128::from_str_radix) {
        return Resolved::Big(n);
    }
    if let Some(n) = negative(text, i128::from_str_radix) {
        return Resolved::BigSigned(n);
    }
    if !leading_zero_digits(text) {
        if let Some(f) = float(text) {
            return Resolved::Float(f);
        }
    }
    Resolved::Str
}

pub(super) fn is_null(text: &str) -> bool {
    matches!(text, "null" | "Null" | "NULL" | "~")
}

pub(super) fn boolean(text: &str) -> Option<bool> {
    match text {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

type Radix<T> = fn(&str, u32) -> Result<T, std::num::ParseIntError>;

/// `0123`: digits after a leading zero are text in YAML 1.2.
fn leading_zero_digits(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    digits.len() > 1 && digits.starts_with('0') && digits[1..].bytes().all(|b| b.is_ascii_digit())
}

/// `digits` in base 16, 8 or 2 after `0x`, `0o`, `0b`, else none.
fn prefixed<T>(digits: &str, sign: &str, parse: Radix<T>) -> Option<T> {
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = digits.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return None;
            }
            if let Ok(n) = parse(&format!("{sign}{rest}"), radix) {
                return Some(n);
            }
        }
    }
    None
}

pub(super) fn unsigned<T>(text: &str, parse: Radix<T>) -> Option<T> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if let Some(n) = prefixed(digits, "", parse) {
        return Some(n);
    }
    if digits.starts_with(['+', '-']) || leading_zero_digits(text) {
        return None;
    }
    parse(digits, 10).ok()
}

fn negative<T>(text: &str, parse: Radix<T>) -> Option<T> {
    if let Some(rest) = text.strip_prefix('-') {
        if let Some(n) = prefixed(rest, "-", parse) {
            return Some(n);
        }
    }
    if leading_zero_digits(text) {
        return None;
    }
    parse(text, 10).ok()
}

/// Both signed and unsigned, as serde_yaml reads a signed type.
pub(super) fn signed<T>(text: &str, parse: Radix<T>) -> Option<T> {
    let digits = match text.strip_prefix('+') {
        Some(rest) if rest.starts_with(['+', '-']) => return None,
        Some(rest) => rest,
        None => text,
    };
    if let Some(n) = prefixed(digits, "", parse) {
        return Some(n);
    }
    if let Some(rest) = text.strip_prefix('-') {
        if let Some(n) = prefixed(rest, "-", parse) {
            return Some(n);
        }
    }
    if leading_zero_digits(text) {
        return None;
    }
    parse(digits, 10).ok()
}

pub(super) fn float(text: &str) -> Option<f64> {
    let unsigned = match text.strip_prefix('+') {
        Some(rest) if rest.starts_with(['+', '-']) => return None,
        Some(rest) => rest,
        None => text,
    };
    match unsigned {
        ".inf" | ".Inf" | ".INF" => return Some(f64::INFINITY),
        _ => {}
    }
    match text {
        "-.inf" | "-.Inf" | "-.INF" => return Some(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        _ => {}
    }
    unsigned.parse::<f64>().ok().filter(|f| f.is_finite())
}
