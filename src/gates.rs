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
                    "expected a comparison like \"< 1/1000\", \"<= 0.001\" or \"== 0\", found {text:?}"
                )
            })?;
        let bound = parse_exact(rest.trim()).ok_or_else(|| {
            format!(
                "{text:?}: the bound must be an integer, a fraction like 1/1000 or a decimal like 0.001"
            )
        })?;
        Ok(Condition::Compare(comparison, bound))
    }
}

/// An exact number from an integer, `p/q`, or a decimal with an optional
/// exponent (`0.001`, `25e-4`): decimals are read as the fraction they
/// spell, never through a float.
pub fn parse_exact(text: &str) -> Option<Exact> {
    if text.contains('/') {
        return format::parse_fraction(text);
    }
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (sign, digits) = match mantissa.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, mantissa.strip_prefix('+').unwrap_or(mantissa)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    let numer: BigInt = format!("{whole}{fraction}").parse().ok()?;
    let scale = exponent - i32::try_from(fraction.len()).ok()?;
    let ten = Exact::from_integer(10.into());
    let power = if scale >= 0 {
        num_traits::pow(ten, scale as usize)
    } else {
        Exact::one() / num_traits::pow(ten, scale.unsigned_abs() as usize)
    };
    Some(Exact::from_integer(numer * sign) * power)
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
                while let Some(figure) = map.next_key::<String>()? {
                    if gates.iter().any(|g| g.figure == figure) {
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
pub fn case_name(index: usize, case: &Value) -> String {
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

/// Check every gate against every case; one failure per gate and case.
pub fn check(expect: &Expect, results: &Value) -> Vec<Failure> {
    let cases = cases(results);
    let mut failures = Vec::new();
    for gate in &expect.0 {
        for (index, case) in cases.iter().enumerate() {
            let figures = case_figures(case);
            if let Some(problem) = judge(gate, &figures) {
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
    match (&gate.condition, value) {
        (Condition::Is(wanted), Value::Bool(actual)) => {
            (wanted != actual).then(|| format!("{figure} is {actual}, expected {wanted}"))
        }
        (Condition::Is(wanted), other) => Some(format!(
            "{figure} is {other}, not a yes/no figure, so it cannot be {wanted}"
        )),
        (Condition::Compare(op, bound), value) => match figure_number(value) {
            Some(actual) if op.holds(&actual, bound) => None,
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
/// an integer. Floats are display values and are refused.
fn figure_number(value: &Value) -> Option<Exact> {
    match value {
        Value::String(text) => format::parse_fraction(text)
            .or_else(|| text.parse::<BigInt>().ok().map(Exact::from_integer)),
        Value::Number(n) => n
            .as_i64()
            .map(|i| Exact::from_integer(i.into()))
            .or_else(|| n.as_u64().map(|u| Exact::from_integer(u.into()))),
        _ => None,
    }
}

/// Where a gate is written: the line and column of its value inside the
/// block `expect:` of `text`, else the `expect` key itself, else (1, 1).
pub fn locate(text: &str, figure: &str) -> (usize, usize) {
    let mut in_expect = false;
    let mut expect_at = (1, 1);
    for (i, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("expect") {
            if rest.trim_start().starts_with(':') {
                in_expect = true;
                expect_at = (i + 1, 1);
                continue;
            }
        }
        let indented = line.starts_with([' ', '\t']);
        if in_expect && !indented && !line.trim().is_empty() {
            in_expect = false;
        }
        if in_expect {
            let body = line.trim_start();
            if let Some(after) = body.strip_prefix(figure) {
                if let Some(value) = after.trim_start().strip_prefix(':') {
                    let column = line.len() - value.trim_start().len() + 1;
                    return (i + 1, column);
                }
            }
        }
    }
    expect_at
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
        assert_eq!(parse_exact("0.1"), Some(frac(1, 10)));
        assert_eq!(parse_exact("1e3"), Some(frac(1000, 1)));
        assert_eq!(parse_exact("3/6"), Some(frac(1, 2)));
        assert_eq!(parse_exact("1.2.3"), None);
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
        let text =
            "title: T\nkind: sum-mod\nexpect:\n  uniform: true\n  tvd: \"< 1\"\ndice: d6\ntvd: x\n";
        assert_eq!(locate(text, "tvd"), (5, 8));
        assert_eq!(locate(text, "uniform"), (4, 12));
        assert_eq!(locate(text, "dice"), (3, 1));
        assert_eq!(locate("expect: {tvd: \"< 1\"}\n", "tvd"), (1, 1));
    }
}
