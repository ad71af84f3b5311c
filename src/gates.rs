//! Fairness gates: what a scenario promises about its own results.
//!
//! A scenario's `expect:` maps figure names to conditions, such as
//! `uniform: true` or `max_abs_deviation: "< 1/1000"`. Conditions are read
//! exactly while the file is deserialized (so a malformed bound is reported
//! with its line and column), and checked after the analysis against the
//! scenario's exact `results`.
//!
//! Gates know nothing about kinds. A kind exposes its figures by putting
//! them in `results.cases[i]`, directly or in nested objects (lists are not
//! searched); [`case_figures`] finds them, so a new kind gets gates for free.

use crate::engine::{exact_string, Exact};
use crate::layout::format;
use num_bigint::BigInt;
use num_traits::One;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// The gates of one scenario, in the order written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Expect(pub Vec<Gate>);

/// One promise: a figure and the condition every case must meet.
#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    /// The figure's key in each case of the results.
    pub figure: String,
    /// What it must satisfy.
    pub condition: Condition,
}

/// A condition on one figure.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// A yes/no figure must have this value.
    Is(bool),
    /// A number must compare so with the bound.
    Compare(Comparison, Exact),
}

/// How a figure compares with its bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// `<`
    Less,
    /// `<=`
    AtMost,
    /// `==`
    Equal,
    /// `!=`
    NotEqual,
    /// `>=`
    AtLeast,
    /// `>`
    Greater,
}

impl Comparison {
    /// Longest operators first, so `<=` is not read as `<`.
    const SPELLINGS: [(&'static str, Comparison); 6] = [
        ("<=", Comparison::AtMost),
        (">=", Comparison::AtLeast),
        ("==", Comparison::Equal),
        ("!=", Comparison::NotEqual),
        ("<", Comparison::Less),
        (">", Comparison::Greater),
    ];

    fn symbol(self) -> &'static str {
        Self::SPELLINGS
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("?", |(s, _)| s)
    }

    fn holds(self, value: &Exact, bound: &Exact) -> bool {
        match self {
            Comparison::Less => value < bound,
            Comparison::AtMost => value <= bound,
            Comparison::Equal => value == bound,
            Comparison::NotEqual => value != bound,
            Comparison::AtLeast => value >= bound,
            Comparison::Greater => value > bound,
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::Is(b) => write!(f, "{b}"),
            Condition::Compare(op, bound) => write!(f, "{} {}", op.symbol(), show(bound)),
        }
    }
}

/// An exact number as people write it: `3/2`, `0`, `-1/4`.
fn show(value: &Exact) -> String {
    if value.denom().is_one() {
        value.numer().to_string()
    } else {
        format!("{}/{}", value.numer(), value.denom())
    }
}

impl Condition {
    /// Read `"< 1/1000"`, `"<= 0.001"`, `"== 0"`, `">= 2.5e-3"`.
    pub fn parse(text: &str) -> Result<Condition, String> {
        let trimmed = text.trim();
        let (comparison, rest) = Comparison::SPELLINGS
            .iter()
            .find_map(|(symbol, c)| trimmed.strip_prefix(symbol).map(|rest| (*c, rest)))
            .ok_or_else(|| {
                format!(
                    "expected a comparison like \"< 1/1000\", \"<= 0.001\" or \"== 0\", found {}",
                    quoted(text)
                )
            })?;
        let bound = parse_exact(rest.trim()).map_err(|why| format!("{}: {why}", quoted(text)))?;
        Ok(Condition::Compare(comparison, bound))
    }
}

/// The most digits a bound's number may have (each of `p` and `q` in
/// `p/q`): far more than any figure a budget admits needs.
pub(crate) const MAX_DIGITS: usize = 10_000;
/// The largest exponent a bound may have, either way (`1e-4000`).
pub(crate) const MAX_EXPONENT: u32 = 4_000;

/// `text` quoted for a message, cut short when long.
fn quoted(text: &str) -> String {
    const SHOWN: usize = 40;
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{:?}... ({} characters)", &text[..cut], text.len()),
        None => format!("{text:?}"),
    }
}

/// An exact number from an integer, `p/q`, or a decimal with an optional
/// exponent (`0.001`, `25e-4`): decimals are read as the fraction they
/// spell, never through a float. Digits and exponents are bounded
/// ([`MAX_DIGITS`], [`MAX_EXPONENT`]) before any arithmetic, so the work is
/// linear in the text and small.
pub fn parse_exact(text: &str) -> Result<Exact, String> {
    let malformed = || {
        "the bound must be an integer, a fraction like 1/1000 or a decimal like 0.001".to_string()
    };
    let too_long = |what: &str, digits: usize| {
        format!(
            "{what} has {digits} digits; at most {MAX_DIGITS} are allowed: \
             write a shorter bound, such as 1/1000 or 1e-40"
        )
    };
    if let Some((p, q)) = text.split_once('/') {
        for (what, part) in [("the numerator", p), ("the denominator", q)] {
            if part.len() > MAX_DIGITS + 1 {
                return Err(too_long(what, part.len()));
            }
        }
        return crate::engine::parse_fraction(text).ok_or_else(malformed);
    }
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, parse_exponent(e).ok_or_else(malformed)?),
        None => (text, 0),
    };
    if exponent.unsigned_abs() > u64::from(MAX_EXPONENT) {
        return Err(format!(
            "the exponent is out of range: exponents from -{MAX_EXPONENT} to {MAX_EXPONENT} \
             are allowed (write 0 or a fraction for a bound that small)"
        ));
    }
    let (sign, digits) = match mantissa.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, mantissa.strip_prefix('+').unwrap_or(mantissa)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !all_digits(whole) || !all_digits(fraction) {
        return Err(malformed());
    }
    if whole.len() + fraction.len() > MAX_DIGITS {
        return Err(too_long("the number", whole.len() + fraction.len()));
    }
    let numer: BigInt = format!("{whole}{fraction}")
        .parse()
        .map_err(|_| malformed())?;
    // Both terms are bounded above, so this cannot overflow.
    let scale = exponent - fraction.len() as i64;
    let power = num_traits::pow(BigInt::from(10), scale.unsigned_abs() as usize);
    let numer = numer * sign;
    Ok(if scale >= 0 {
        Exact::from_integer(numer * power)
    } else {
        Exact::new(numer, power)
    })
}

/// An exponent's value, saturated far beyond [`MAX_EXPONENT`] so that any
/// length of digits reads in linear time; `None` if it is not an integer.
fn parse_exponent(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value = digits.bytes().fold(0i64, |value, b| {
        (value * 10 + i64::from(b - b'0')).min(i64::from(u32::MAX))
    });
    Some(if negative { -value } else { value })
}

impl<'de> Deserialize<'de> for Condition {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ConditionVisitor;
        impl Visitor<'_> for ConditionVisitor {
            type Value = Condition;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("true, false, or a comparison like \"< 1/1000\"")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Condition, E> {
                Ok(Condition::Is(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Condition, E> {
                Ok(Condition::Compare(
                    Comparison::Equal,
                    Exact::from_integer(v.into()),
                ))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Condition, E> {
                Ok(Condition::Compare(
                    Comparison::Equal,
                    Exact::from_integer(v.into()),
                ))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Condition, E> {
                Err(E::custom(format!(
                    "{v} would be read as a float; write the bound as a string, \
                     such as \"== {v}\" or \"<= {v}\", so it is compared exactly"
                )))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Condition, E> {
                Condition::parse(text).map_err(E::custom)
            }
        }
        // Validating in the visitor lets serde_yaml attach the value's position.
        deserializer.deserialize_any(ConditionVisitor)
    }
}

/// The most gates one scenario may set: each is checked on every case.
pub(crate) const MAX_GATES: usize = 100;

impl<'de> Deserialize<'de> for Expect {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ExpectVisitor;
        impl<'de> Visitor<'de> for ExpectVisitor {
            type Value = Expect;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map from figure names to conditions, such as `uniform: true`")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Expect, A::Error> {
                let mut gates: Vec<Gate> = Vec::new();
                let mut seen = std::collections::BTreeSet::new();
                while let Some(figure) = map.next_key::<String>()? {
                    if gates.len() == MAX_GATES {
                        return Err(de::Error::custom(format!(
                            "more than {MAX_GATES} gates: a kind has far fewer figures; \
                             keep the gates that matter"
                        )));
                    }
                    if !seen.insert(figure.clone()) {
                        return Err(de::Error::custom(format!(
                            "the figure `{figure}` is expected twice"
                        )));
                    }
                    let condition = map.next_value::<Condition>()?;
                    gates.push(Gate { figure, condition });
                }
                Ok(Expect(gates))
            }
        }
        deserializer.deserialize_map(ExpectVisitor)
    }
}

/// Every figure of one case that a gate may name: scalar values of the case
/// object and of objects nested in it (not in lists), the shallowest first
/// when a name repeats.
pub fn case_figures(case: &Value) -> BTreeMap<String, &Value> {
    let mut figures = BTreeMap::new();
    let mut level: Vec<&Value> = vec![case];
    while !level.is_empty() {
        let mut next = Vec::new();
        for object in level.iter().filter_map(|v| v.as_object()) {
            for (key, value) in object {
                match value {
                    Value::Object(_) => next.push(value),
                    Value::Array(_) => {}
                    scalar => {
                        figures.entry(key.clone()).or_insert(scalar);
                    }
                }
            }
        }
        level = next;
    }
    figures
}

/// The cases of a scenario's results: `results.cases`, or the results as a
/// single case when a kind has no `cases` list.
pub fn cases(results: &Value) -> Vec<&Value> {
    match results.get("cases").and_then(Value::as_array) {
        Some(cases) => cases.iter().collect(),
        None => vec![results],
    }
}

/// How a case is named in messages: its number from 1 and its first plain
/// top-level value (`case 3 (targets 10)`), or its `label` when it has one.
pub(crate) fn case_name(index: usize, case: &Value) -> String {
    let number = index + 1;
    let object = case.as_object();
    let label = object
        .and_then(|o| o.get("label"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| {
            object?.iter().find_map(|(key, value)| match value {
                Value::String(s) => Some(format!("{key} {s}")),
                Value::Number(n) => Some(format!("{key} {n}")),
                Value::Bool(b) => Some(format!("{key} {b}")),
                _ => None,
            })
        });
    match label {
        Some(label) => format!("case {number} ({label})"),
        None => format!("case {number}"),
    }
}

/// A gate that did not hold, worded for the author.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The figure named in `expect:`.
    pub figure: String,
    /// What went wrong, naming the case, the actual value and the bound.
    pub message: String,
}

/// The one value at a dotted path into the results, as shortcodes name
/// it: `comparisons.0.p_tie` (list items by their index from 0).
pub(crate) fn at_path<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(value, |at, key| match at {
        Value::Array(items) => items.get(key.parse::<usize>().ok()?),
        Value::Object(map) => map.get(key),
        _ => None,
    })
}

/// Check every gate against every case; one failure per gate and case
/// (per value, for a dotted path that runs through lists). A numeric part
/// of a dotted path picks one list item, counted from 0
/// (`comparisons.0.p_a_higher`).
pub fn check(expect: &Expect, results: &Value) -> Vec<Failure> {
    let cases = cases(results);
    let mut failures = Vec::new();
    for gate in &expect.0 {
        for (index, case) in cases.iter().enumerate() {
            let problems = if gate.figure.contains('.') {
                judge_path(gate, case)
            } else {
                judge(gate, &case_figures(case)).into_iter().collect()
            };
            for problem in problems {
                failures.push(Failure {
                    figure: gate.figure.clone(),
                    message: format!("{}: {problem}", case_name(index, case)),
                });
            }
        }
    }
    failures
}

/// Why `gate` fails on a case with these figures, or `None` when it holds.
fn judge(gate: &Gate, figures: &BTreeMap<String, &Value>) -> Option<String> {
    let figure = &gate.figure;
    let Some(value) = figures.get(figure) else {
        let known: Vec<&str> = figures.keys().map(String::as_str).collect();
        return Some(format!(
            "no figure `{figure}` in the results; this kind exposes {}",
            known.join(", ")
        ));
    };
    judge_value(figure, &gate.condition, value)
}

/// A gate on a dotted path (`chi_square.p_value`,
/// `by_players.seats.p_value`): each segment a key; where a value is a
/// list, the rest of the path applies to every element, and every value
/// found must meet the condition.
fn judge_path(gate: &Gate, case: &Value) -> Vec<String> {
    let join = |place: &str, key: &str| {
        if place.is_empty() {
            key.to_string()
        } else {
            format!("{place}.{key}")
        }
    };
    let mut found = vec![(String::new(), case)];
    for key in gate.figure.split('.') {
        let mut next = Vec::new();
        for (place, value) in found {
            if let (Value::Array(items), Ok(index)) = (value, key.parse::<usize>()) {
                next.extend(items.get(index).map(|item| (join(&place, key), item)));
                continue;
            }
            let elements: Vec<(String, &Value)> = match value {
                Value::Array(items) => items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| (format!("{place}[{}]", i + 1), item))
                    .collect(),
                other => vec![(place, other)],
            };
            for (place, element) in elements {
                if let Some(inner) = element.get(key) {
                    next.push((join(&place, key), inner));
                }
            }
        }
        found = next;
    }
    if found.is_empty() {
        return vec![format!(
            "no figure at `{}` in the results: each part of the path must name a key of the \
             results (lists are gone through element by element)",
            gate.figure
        )];
    }
    found
        .into_iter()
        .filter_map(|(place, value)| judge_value(&place, &gate.condition, value))
        .collect()
}

/// Why the figure called `figure` with this value breaks `condition`.
fn judge_value(figure: &str, condition: &Condition, value: &Value) -> Option<String> {
    match (condition, value) {
        (Condition::Is(wanted), Value::Bool(actual)) => {
            (wanted != actual).then(|| format!("{figure} is {actual}, expected {wanted}"))
        }
        (Condition::Is(wanted), other) => Some(format!(
            "{figure} is {other}, not a yes/no figure, so it cannot be {wanted}"
        )),
        (Condition::Compare(op, bound), value) => match figure_number(value) {
            Some(actual) if op.holds(&actual, bound) => None,
            Some(_) if value.is_f64() => Some(format!(
                "{figure} is {value}, which is not {} {}",
                op.symbol(),
                show(bound)
            )),
            Some(actual) => Some(format!(
                "{figure} is {} (about {}), which is not {} {}",
                exact_string(&actual),
                format::decimal(&actual),
                op.symbol(),
                show(bound)
            )),
            None => Some(format!(
                "{figure} is {value}, not an exact number, so it cannot be compared with {}",
                show(bound)
            )),
        },
    }
}

/// An exact number from the contract: `"p/q"`, a decimal integer string, or
/// an integer; or a float (a figure irrational by nature, such as a
/// chi-square p-value), taken at its exact binary value.
fn figure_number(value: &Value) -> Option<Exact> {
    if let Some(float) = value.as_f64().filter(|_| value.is_f64()) {
        return Exact::from_float(float);
    }
    match value {
        Value::String(text) => crate::engine::parse_fraction(text)
            .or_else(|| text.parse::<BigInt>().ok().map(Exact::from_integer)),
        Value::Number(n) => n
            .as_i64()
            .map(|i| Exact::from_integer(i.into()))
            .or_else(|| n.as_u64().map(|u| Exact::from_integer(u.into()))),
        _ => None,
    }
}

/// Where the gate on `figure` is written in `text` (see [`Places`], which
/// reads the text once for many gates).
pub fn locate(text: &str, figure: &str) -> (usize, usize) {
    Places::of(text).of_figure(figure)
}

/// Where the gates of a scenario are written, read in one pass over its
/// text (however many gates fail).
#[derive(Debug, Default)]
pub(crate) struct Places<'a> {
    /// Each figure's value inside the block `expect:`, the first if repeated.
    figures: BTreeMap<&'a str, (usize, usize)>,
    /// The `expect` key itself.
    expect: (usize, usize),
}

impl<'a> Places<'a> {
    /// Every gate's position in `text`.
    pub fn of(text: &'a str) -> Places<'a> {
        let mut places = Places {
            figures: BTreeMap::new(),
            expect: (1, 1),
        };
        let mut in_expect = false;
        for (i, line) in text.lines().enumerate() {
            if let Some(rest) = line.strip_prefix("expect") {
                if rest.trim_start().starts_with(':') {
                    in_expect = true;
                    places.expect = (i + 1, 1);
                    continue;
                }
            }
            let indented = line.starts_with([' ', '\t']);
            if in_expect && !indented && !line.trim().is_empty() {
                in_expect = false;
            }
            if !in_expect {
                continue;
            }
            // `figure: value`, the key ending at the first `:` followed by a
            // blank or the end of the line (as YAML reads a plain key).
            let body = line.trim_start();
            let colon = body.char_indices().find(|&(at, c)| {
                c == ':'
                    && body[at + 1..]
                        .chars()
                        .next()
                        .is_none_or(char::is_whitespace)
            });
            if let Some((at, _)) = colon {
                let value = &body[at + 1..];
                let column = line.len() - value.trim_start().len() + 1;
                let figure = body[..at].trim_end();
                places.figures.entry(figure).or_insert((i + 1, column));
            }
        }
        places
    }

    /// Where the gate on `figure` is written: its value, else the `expect`
    /// key, else (1, 1).
    pub(crate) fn of_figure(&self, figure: &str) -> (usize, usize) {
        self.figures.get(figure).copied().unwrap_or(self.expect)
    }
}

impl Expect {
    /// No gates at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn frac(p: i64, q: i64) -> Exact {
        Exact::new(p.into(), q.into())
    }

    #[test]
    fn dotted_figures_name_one_value_anywhere() {
        let results = serde_json::json!({
            "comparisons": [{"a": "x", "b": "y", "p_a_higher": "513/800"}]
        });
        let gate = |figure: &str, text: &str| {
            Expect(vec![Gate {
                figure: figure.into(),
                condition: Condition::parse(text).unwrap(),
            }])
        };
        assert!(check(&gate("comparisons.0.p_a_higher", "> 1/2"), &results).is_empty());
        let failed = check(&gate("comparisons.0.p_a_higher", "< 1/2"), &results);
        assert!(failed[0].message.contains("513/800"), "{failed:?}");
        let missing = check(&gate("comparisons.1.p_a_higher", "< 1/2"), &results);
        assert!(missing[0].message.contains("no figure at"), "{missing:?}");
    }

    #[test]
    fn comparisons_are_read_exactly() {
        assert_eq!(
            Condition::parse("< 1/1000"),
            Ok(Condition::Compare(Comparison::Less, frac(1, 1000)))
        );
        assert_eq!(
            Condition::parse("<=0.001"),
            Ok(Condition::Compare(Comparison::AtMost, frac(1, 1000)))
        );
        assert_eq!(
            Condition::parse(">= 25e-4"),
            Ok(Condition::Compare(Comparison::AtLeast, frac(1, 400)))
        );
        assert_eq!(
            Condition::parse("== 0"),
            Ok(Condition::Compare(Comparison::Equal, frac(0, 1)))
        );
        assert_eq!(
            Condition::parse("!= -1.5"),
            Ok(Condition::Compare(Comparison::NotEqual, frac(-3, 2)))
        );
        assert!(Condition::parse("about 3")
            .unwrap_err()
            .contains("expected a comparison"));
        assert!(Condition::parse("< 1/0").unwrap_err().contains("the bound"));
        assert!(Condition::parse("< .").unwrap_err().contains("the bound"));
    }

    #[test]
    fn a_decimal_is_the_fraction_it_spells() {
        // 0.1 is not 0.1 as a float; as a bound it must be exactly 1/10.
        assert_eq!(parse_exact("0.1"), Ok(frac(1, 10)));
        assert_eq!(parse_exact("1e3"), Ok(frac(1000, 1)));
        assert_eq!(parse_exact("-25E-4"), Ok(frac(-1, 400)));
        assert_eq!(parse_exact("3/6"), Ok(frac(1, 2)));
        assert!(parse_exact("1.2.3")
            .unwrap_err()
            .contains("must be an integer"));
        assert!(parse_exact("1e").is_err() && parse_exact("e5").is_err());
    }

    /// Sizes at and just past each limit, with the time each takes: a bound
    /// is read in time linear in its text, whatever it spells.
    #[test]
    fn bounds_are_bounded_in_digits_and_exponent() {
        let limit = MAX_EXPONENT as i64;
        let one_at = |e: i64| parse_exact(&format!("1e{e}"));
        assert_eq!(
            one_at(limit).map(|x| x.numer().to_string().len()),
            Ok(limit as usize + 1)
        );
        assert_eq!(
            one_at(-limit).map(|x| x.denom().to_string().len()),
            Ok(limit as usize + 1)
        );
        let huge_exponents = [
            format!("{}", limit + 1),
            format!("-{}", limit + 1),
            "2147483648".into(),
            "-9223372036854775808".into(),
            "99999999999999999999999999999".into(),
            "0".repeat(1_000_000) + "7",
            "9".repeat(1_000_000),
        ];
        for exponent in huge_exponents {
            let started = std::time::Instant::now();
            let text = format!("2.5e{exponent}");
            let result = parse_exact(&text);
            assert!(started.elapsed().as_millis() < 5000, "{}", text.len());
            if exponent.trim_start_matches('0') == "7" {
                assert_eq!(result, Ok(frac(25_000_000, 1)));
            } else {
                let err = result.unwrap_err();
                assert!(
                    err.contains("out of range: exponents from -4000 to 4000"),
                    "{err}"
                );
            }
        }
        let digits = "3".repeat(MAX_DIGITS);
        assert!(parse_exact(&digits).is_ok());
        assert!(parse_exact(&format!("0.{}e-{limit}", &digits[1..])).is_ok());
        assert!(parse_exact(&format!("{digits}/{digits}7")).is_ok());
        for (text, what) in [
            (format!("{digits}3"), "the number has 10001 digits"),
            (format!("{digits}.5"), "the number has 10001 digits"),
            (
                format!("1/{}", "7".repeat(5_000_000)),
                "the denominator has 5000000",
            ),
            (format!("{digits}12/3"), "the numerator has 10002"),
        ] {
            let started = std::time::Instant::now();
            let err = parse_exact(&text).unwrap_err();
            assert!(started.elapsed().as_millis() < 5000);
            assert!(
                err.starts_with(what) && err.contains("at most 10000"),
                "{err}"
            );
        }
        // The message quotes a long bound cut short.
        let err = Condition::parse(&format!("< 1e{}", "9".repeat(100_000))).unwrap_err();
        assert!(err.len() < 300, "{err}");
        assert!(err.starts_with("\"< 1e999"), "{err}");
        assert!(err.contains("(100004 characters)"), "{err}");
    }

    proptest::proptest! {
        /// Fuzz-like: any text at all is read or refused, never a panic, and
        /// what is read compares with itself.
        #[test]
        fn any_text_is_read_or_refused(text in "[-+0-9eE./ <>=!]{0,60}") {
            if let Ok(Condition::Compare(_, bound)) = Condition::parse(&text) {
                proptest::prop_assert_eq!(&bound, &bound.clone());
            }
        }

        /// Numbers in the grammar, with exponents of every size: the
        /// exponent's sign and size decide, and nothing overflows.
        #[test]
        fn exponents_of_every_size_are_read_or_refused(
            whole in "[0-9]{1,30}",
            fraction in "[0-9]{0,30}",
            exponent in proptest::num::i64::ANY,
        ) {
            let text = format!("{whole}.{fraction}e{exponent}");
            let result = parse_exact(&text);
            proptest::prop_assert_eq!(
                result.is_ok(),
                exponent.unsigned_abs() <= u64::from(MAX_EXPONENT),
                "{}", text
            );
            if exponent.abs() < 30 {
                let read = result.unwrap();
                let spelled = format!("{whole}{fraction}").parse::<BigInt>().unwrap();
                let scale = exponent - fraction.len() as i64;
                let ten = BigInt::from(10).pow(scale.unsigned_abs() as u32);
                let expected = if scale >= 0 {
                    Exact::from_integer(spelled * ten)
                } else {
                    Exact::new(spelled, ten)
                };
                proptest::prop_assert_eq!(read, expected);
            }
        }
    }

    #[test]
    fn too_many_gates_are_refused_in_linear_time() {
        let many: String = (0..=MAX_GATES).map(|i| format!("f{i}: true\n")).collect();
        let err = serde_yaml::from_str::<Expect>(&many).unwrap_err();
        assert!(err.to_string().contains("more than 100 gates"), "{err}");
        let fine: String = (0..MAX_GATES).map(|i| format!("f{i}: true\n")).collect();
        assert_eq!(
            serde_yaml::from_str::<Expect>(&fine).unwrap().0.len(),
            MAX_GATES
        );
    }

    #[test]
    fn expect_deserializes_in_order_with_located_errors() {
        let expect: Expect =
            serde_yaml::from_str("uniform: true\ntvd: \"< 1/100\"\ncount: 3\n").unwrap();
        let names: Vec<&str> = expect.0.iter().map(|g| g.figure.as_str()).collect();
        assert_eq!(names, ["uniform", "tvd", "count"]);
        assert_eq!(
            expect.0[2].condition,
            Condition::Compare(Comparison::Equal, frac(3, 1))
        );
        let err = serde_yaml::from_str::<Expect>("uniform: true\ntvd: 0.001\n").unwrap_err();
        assert!(err.to_string().contains("compared exactly"), "{err}");
        assert_eq!(err.location().map(|l| (l.line(), l.column())), Some((2, 6)));
        let err = serde_yaml::from_str::<Expect>("tvd: \"< 1\"\ntvd: \"< 2\"\n").unwrap_err();
        assert!(err.to_string().contains("expected twice"), "{err}");
    }

    #[test]
    fn figures_come_from_the_case_and_its_nested_objects() {
        let case = json!({
            "targets": 10,
            "dice": {"count": 10, "sides": 6},
            "bins": [{"ways": "1"}],
            "fairness": {"uniform": false, "tvd": "1/7", "targets": 99},
        });
        let figures = case_figures(&case);
        let names: Vec<&str> = figures.keys().map(String::as_str).collect();
        assert_eq!(names, ["count", "sides", "targets", "tvd", "uniform"]);
        assert_eq!(figures["targets"], &json!(10), "the shallowest wins");
        assert_eq!(case_name(2, &case), "case 3 (targets 10)");
        assert_eq!(
            case_name(0, &json!({"label": "d6 vs d8", "n": 1})),
            "case 1 (d6 vs d8)"
        );
        assert_eq!(case_name(0, &json!({"x": {}})), "case 1");
    }

    #[test]
    fn gates_hold_or_fail_with_the_case_figure_value_and_bound() {
        let results = json!({"cases": [
            {"targets": 2, "fairness": {"uniform": true, "tvd": "0/1"}},
            {"targets": 3, "fairness": {"uniform": false, "tvd": "1/50"}},
        ]});
        let expect: Expect = serde_yaml::from_str("tvd: \"<= 1/50\"\nuniform: true\n").unwrap();
        let failures = check(&expect, &results);
        assert_eq!(
            failures,
            vec![Failure {
                figure: "uniform".into(),
                message: "case 2 (targets 3): uniform is false, expected true".into()
            }]
        );
        let strict: Expect = serde_yaml::from_str("tvd: \"< 0.02\"\n").unwrap();
        assert_eq!(
            check(&strict, &results)[0].message,
            "case 2 (targets 3): tvd is 1/50 (about 0.02), which is not < 1/50"
        );
        let unknown: Expect = serde_yaml::from_str("bias: \"< 1\"\n").unwrap();
        assert_eq!(
            check(&unknown, &results)[0].message,
            "case 1 (targets 2): no figure `bias` in the results; this kind exposes targets, tvd, uniform"
        );
        let wrong_type: Expect = serde_yaml::from_str("uniform: \"< 1\"\n").unwrap();
        assert!(check(&wrong_type, &results)[0]
            .message
            .contains("uniform is true, not an exact number"));
    }

    #[test]
    fn gates_are_located_in_the_expect_block() {
        let text = "title: T\nkind: sum-mod\nexpect:\n  uniform: true\n  tvd: \"< 1\"\n  \
                    a:b:   \"< 2\"\n  tvd: x\ndice: d6\ntvd: y\n";
        let places = Places::of(text);
        assert_eq!(places.of_figure("tvd"), (5, 8));
        assert_eq!(places.of_figure("uniform"), (4, 12));
        assert_eq!(places.of_figure("a:b"), (6, 10));
        assert_eq!(places.of_figure("a"), (3, 1));
        assert_eq!(places.of_figure("dice"), (3, 1));
        let inline = "expect: {tvd: \"< 1\"}\n";
        assert_eq!(Places::of(inline).of_figure("tvd"), (1, 1));
        assert_eq!(Places::of("title: T\n").of_figure("tvd"), (1, 1));
        assert_eq!(locate(text, "tvd"), (5, 8));
    }

    #[test]
    fn dotted_paths_reach_nested_figures_and_every_list_element() {
        let results = serde_json::json!({
            "chi_square": {"statistic": 13.4, "p_value": 0.0199},
            "g_test": {"p_value": 0.0383},
            "by_players": [
                {"players": 3, "seats": [{"p_value": "1/2", "fair": true}, {"p_value": "1/1000", "fair": false}]},
                {"players": 4, "seats": [{"p_value": "1/3", "fair": true}]}
            ]
        });
        let gates = |yaml: &str| check(&serde_yaml::from_str::<Expect>(yaml).unwrap(), &results);
        assert!(gates("g_test.p_value: \"> 0.01\"\n").is_empty());
        let failures = gates("chi_square.p_value: \"> 0.02\"\n");
        assert_eq!(failures.len(), 1);
        assert!(
            failures[0]
                .message
                .contains("chi_square.p_value is 0.0199, which is not > 1/50"),
            "{failures:?}"
        );
        let failures =
            gates("by_players.seats.p_value: \"> 1/100\"\nby_players.seats.fair: true\n");
        assert_eq!(failures.len(), 2, "{failures:?}");
        assert!(
            failures[0]
                .message
                .contains("by_players[1].seats[2].p_value is 1/1000"),
            "{failures:?}"
        );
        assert!(
            failures[1]
                .message
                .contains("by_players[1].seats[2].fair is false"),
            "{failures:?}"
        );
        let failures = gates("by_players.seat.p_value: \"> 0\"\n");
        assert!(
            failures[0]
                .message
                .contains("no figure at `by_players.seat.p_value`"),
            "{failures:?}"
        );
    }
}
