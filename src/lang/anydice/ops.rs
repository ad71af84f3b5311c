//! AnyDice's operators on its values, with the coercions its documentation
//! states: a sequence in arithmetic is its sum; a collection of dice is
//! summed before arithmetic; a die combines value by value with the other
//! side; a sequence compared to a number counts the matches.

use super::value::{die_from, die_of_faces, Die, Pool, Value};
use super::work::{listing_price, pick_price, pool_sum_price, times, Work};
use crate::engine::{picked, Outcomes};
use crate::lang::anydice::syntax::{Binary, Unary};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::collections::BTreeMap;
use std::rc::Rc;

/// What went wrong in an operation, without its place (the caller adds it).
pub(crate) type Fail = String;

pub(crate) fn overflow() -> Fail {
    "a number past ±9223372036854775807, which AnyDice cannot hold".to_string()
}

/// `a op b` on two numbers.
pub(crate) fn numbers(op: Binary, a: i64, b: i64, in_die: bool) -> Result<i64, Fail> {
    use Binary::*;
    let truth = |t: bool| Ok(i64::from(t));
    match op {
        Add => a.checked_add(b).ok_or_else(overflow),
        Subtract => a.checked_sub(b).ok_or_else(overflow),
        Multiply => a.checked_mul(b).ok_or_else(overflow),
        // Integer division rounds toward zero; AnyDice answers 0 for a
        // division by zero.
        Divide if b == 0 => Ok(0),
        Divide => a.checked_div(b).ok_or_else(overflow),
        Power => power(a, b, in_die),
        Equal => truth(a == b),
        NotEqual => truth(a != b),
        Less => truth(a < b),
        Greater => truth(a > b),
        AtMost => truth(a <= b),
        AtLeast => truth(a >= b),
        And => truth(a != 0 && b != 0),
        Or => truth(a != 0 || b != 0),
        At | Dice => unreachable!("not a value-by-value operator"),
    }
}

/// `a ^ b`: a negative exponent gives the fraction rounded toward zero.
/// `0 ^ -1` is refused for numbers; on a die AnyDice shows it as the most
/// negative number it holds, and so does fairdice.
fn power(a: i64, b: i64, in_die: bool) -> Result<i64, Fail> {
    if b < 0 {
        return match a {
            0 if in_die => Ok(i64::MIN),
            0 => Err("0 to a negative power has no value".to_string()),
            1 => Ok(1),
            -1 => Ok(if b % 2 == 0 { 1 } else { -1 }),
            _ => Ok(0),
        };
    }
    let b = u32::try_from(b).map_err(|_| overflow())?;
    a.checked_pow(b).ok_or_else(overflow)
}

/// The sum of a collection as one die: the empty die if any die is empty.
pub(crate) fn sum_pool(pool: &Pool, work: &mut Work) -> Result<Die, Fail> {
    let mut total = Outcomes::constant(0);
    for (die, count) in &pool.groups {
        let Some(outcomes) = &die.0 else {
            return Ok(Die::empty());
        };
        if *count == 0 {
            continue;
        }
        work.charge(
            pool_sum_price(outcomes.width() as f64, *count as f64),
            "a sum of dice",
        )?;
        work.spread(
            i128::from(total.min()).saturating_add(times(outcomes.min(), *count)),
            i128::from(total.max()).saturating_add(times(outcomes.max(), *count)),
        )?;
        total = total.add(&outcomes.repeat_sum(*count));
    }
    Ok(Die::of(total))
}

/// A value as a single die for arithmetic: numbers and sequences (summed)
/// are certain, collections are summed.
pub(crate) fn as_die(value: &Value, work: &mut Work) -> Result<Die, Fail> {
    Ok(match value {
        Value::Number(n) => Die::constant(*n),
        Value::Sequence(s) => Die::constant(sum(s)?),
        Value::Die(d) => d.clone(),
        Value::Pool(p) => sum_pool(p, work)?,
    })
}

/// What `output` shows: a sequence is a die with its numbers as faces.
pub(crate) fn shown(value: &Value, work: &mut Work) -> Result<Die, Fail> {
    match value {
        Value::Sequence(s) => die_of_faces(s, work),
        other => as_die(other, work),
    }
}

pub(crate) fn sum(sequence: &[i64]) -> Result<i64, Fail> {
    sequence
        .iter()
        .try_fold(0i64, |a, &b| a.checked_add(b))
        .ok_or_else(overflow)
}

/// `f(a, b)` value by value over two dice.
fn combine(
    a: &Outcomes,
    b: &Outcomes,
    work: &mut Work,
    f: impl Fn(i64, i64) -> Result<i64, Fail>,
) -> Result<Die, Fail> {
    let bits = a.total().bits() + b.total().bits();
    work.charge_counts(
        a.width() as f64 * b.width() as f64,
        bits,
        "an operation on two dice",
    )?;
    let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
    for (x, wx) in a.iter().filter(|(_, w)| !w.is_zero()) {
        for (y, wy) in b.iter().filter(|(_, w)| !w.is_zero()) {
            *counts.entry(f(x, y)?).or_default() += wx * wy;
        }
    }
    die_from(counts, work)
}

/// `a op b` for the arithmetic and boolean operators.
fn arithmetic(op: Binary, a: &Value, b: &Value, work: &mut Work) -> Result<Value, Fail> {
    let empty = |v: &Value| match v {
        Value::Die(d) => d.is_empty(),
        Value::Pool(p) => p.groups.iter().any(|(d, _)| d.is_empty()),
        _ => false,
    };
    let (ea, eb) = (empty(a), empty(b));
    if ea && eb {
        return Ok(Value::Die(Die::empty()));
    }
    // AnyDice reads the empty die as 0 beside `+`, `-` and `|`.
    let zero = Value::Number(0);
    let (a, b) = match op {
        Binary::Add | Binary::Subtract | Binary::Or if ea => {
            if matches!(b, Value::Pool(_)) {
                return Ok(b.clone());
            }
            (&zero, b)
        }
        Binary::Add | Binary::Subtract | Binary::Or if eb => {
            if matches!(a, Value::Pool(_)) {
                return Ok(a.clone());
            }
            (a, &zero)
        }
        _ if ea || eb => return Ok(Value::Die(Die::empty())),
        _ => (a, b),
    };
    let number = |v: &Value| match v {
        Value::Number(n) => Some(Ok(*n)),
        Value::Sequence(s) => Some(sum(s)),
        _ => None,
    };
    if let (Some(x), Some(y)) = (number(a), number(b)) {
        return numbers(op, x?, y?, false).map(Value::Number);
    }
    let (Die(Some(x)), Die(Some(y))) = (as_die(a, work)?, as_die(b, work)?) else {
        return Ok(Value::Die(Die::empty()));
    };
    if op == Binary::Add {
        let bits = x.total().bits() + y.total().bits();
        work.charge_counts(x.width() as f64 * y.width() as f64, bits, "a sum of dice")?;
        work.spread(
            i128::from(x.min()) + i128::from(y.min()),
            i128::from(x.max()) + i128::from(y.max()),
        )?;
        return Ok(Value::Die(Die::of(x.add(&y))));
    }
    combine(&x, &y, work, |p, q| numbers(op, p, q, true)).map(Value::Die)
}

/// `a op b` for the comparisons.
fn comparison(op: Binary, a: &Value, b: &Value, work: &mut Work) -> Result<Value, Fail> {
    let a = match a {
        Value::Pool(p) => Value::Die(sum_pool(p, work)?),
        other => other.clone(),
    };
    let b = match b {
        Value::Pool(p) => Value::Die(sum_pool(p, work)?),
        other => other.clone(),
    };
    if matches!(&a, Value::Die(d) if d.is_empty()) || matches!(&b, Value::Die(d) if d.is_empty()) {
        return Ok(Value::Die(Die::empty()));
    }
    let holds = |x: i64, y: i64| numbers(op, x, y, false).expect("comparisons cannot fail");
    if let Some(n) = compare_numbers(op, &a, &b, |v| match v {
        Value::Number(n) => Some(Ok(std::slice::from_ref(n))),
        Value::Sequence(s) => Some(Err(s)),
        _ => None,
    }) {
        return Ok(Value::Number(n));
    }
    let (Die(Some(x)), Die(Some(y))) = (as_die(&a, work)?, as_die(&b, work)?) else {
        unreachable!("empty dice were answered above")
    };
    Ok(Value::Die(combine(&x, &y, work, |p, q| Ok(holds(p, q)))?))
}

/// A comparison of numbers and sequences, or `None` when a side is a die.
/// `view` tells a number (`Ok`, as one number) from a sequence (`Err`):
/// sequences compare number by number from the left; a sequence and a
/// number count the numbers that hold. One rule for the exact interpreter
/// and the replay's rolls.
pub(crate) fn compare_numbers<'a, T>(
    op: Binary,
    a: &'a T,
    b: &'a T,
    view: impl Fn(&'a T) -> Option<Result<&'a [i64], &'a [i64]>>,
) -> Option<i64> {
    let holds = |x: i64, y: i64| numbers(op, x, y, false).expect("comparisons cannot fail");
    Some(match (view(a)?, view(b)?) {
        (Err(x), Err(y)) => {
            use std::cmp::Ordering::*;
            let o = x.cmp(y);
            i64::from(match op {
                Binary::Equal => o == Equal,
                Binary::NotEqual => o != Equal,
                Binary::Less => o == Less,
                Binary::Greater => o == Greater,
                Binary::AtMost => o != Greater,
                _ => o != Less,
            })
        }
        (Err(x), Ok([n])) => x.iter().map(|&e| holds(e, *n)).sum(),
        (Ok([n]), Err(y)) => y.iter().map(|&e| holds(*n, e)).sum(),
        (Ok([x]), Ok([y])) => holds(*x, *y),
        _ => unreachable!("a number is one number"),
    })
}

/// `places @ n`: the digits of `n` at those places (from the left, or the
/// right for `lowest first`), signed as `n`; places that do not exist
/// count 0.
pub(crate) fn digits_at(places: &[i64], n: i64, highest_first: bool) -> i64 {
    let digits: Vec<i64> = n
        .unsigned_abs()
        .to_string()
        .bytes()
        .map(|b| i64::from(b - b'0'))
        .collect();
    let sign = if n < 0 { -1 } else { 1 };
    let digit = |p: i64| -> i64 {
        if p < 1 || p as usize > digits.len() {
            return 0;
        }
        let i = if highest_first {
            p as usize - 1
        } else {
            digits.len() - p as usize
        };
        sign * digits[i]
    };
    places.iter().map(|&p| digit(p)).sum()
}

/// `places @ sequence`: the sum of the numbers at those places; places that
/// do not exist count 0.
pub(crate) fn sequence_at(places: &[i64], s: &[i64]) -> Result<i64, Fail> {
    let pick = |p: i64| {
        if p >= 1 && p as usize <= s.len() {
            s[p as usize - 1]
        } else {
            0
        }
    };
    places
        .iter()
        .try_fold(0i64, |a, &p| a.checked_add(pick(p)))
        .ok_or_else(overflow)
}

/// Any binary operator but `@` and `d`.
pub(crate) fn binary(op: Binary, a: &Value, b: &Value, work: &mut Work) -> Result<Value, Fail> {
    if op.is_comparison() {
        comparison(op, a, b, work)
    } else {
        arithmetic(op, a, b, work)
    }
}

pub(crate) fn unary(op: Unary, value: Value, work: &mut Work) -> Result<Value, Fail> {
    let value = match value {
        Value::Sequence(s) if matches!(op, Unary::Minus | Unary::Not) => Value::Number(sum(&s)?),
        other => other,
    };
    Ok(match (op, value) {
        (Unary::Plus, v) => v,
        (Unary::Length, v) => Value::Number(match v {
            Value::Number(n) => n.unsigned_abs().to_string().len() as i64,
            Value::Sequence(s) => s.len() as i64,
            Value::Die(d) => i64::from(!d.is_empty()),
            Value::Pool(p) => p.len() as i64,
        }),
        (Unary::Die, v) => match v {
            Value::Die(_) | Value::Pool(_) => v,
            faces => Value::Die(faces_of(&faces, work)?),
        },
        (Unary::Minus, Value::Number(n)) => Value::Number(n.checked_neg().ok_or_else(overflow)?),
        (Unary::Not, Value::Number(n)) => Value::Number(i64::from(n == 0)),
        (Unary::Minus, Value::Pool(p)) => Value::Pool(Pool {
            groups: p
                .groups
                .iter()
                .map(|(d, n)| {
                    Ok((
                        Die::from(d.0.as_ref().map(|o| negated(o, work)).transpose()?),
                        *n,
                    ))
                })
                .collect::<Result<_, Fail>>()?,
        }),
        (op, v) => {
            let Die(Some(die)) = as_die(&v, work)? else {
                return Ok(Value::Die(Die::empty()));
            };
            work.charge(die.width() as f64, "an operation on a die")?;
            Value::Die(Die::of(match op {
                Unary::Minus => negated(&die, work)?,
                _ => die.map(|x| i64::from(x == 0)),
            }))
        }
    })
}

/// The die `dX` makes of `X`: `d6` is 1..6 (`d-3` is -1..-3, `d0` is 0),
/// `d{...}` has those faces, and a die or collection is summed.
pub(crate) fn faces_of(value: &Value, work: &mut Work) -> Result<Die, Fail> {
    Ok(match value {
        Value::Number(0) => Die::constant(0),
        Value::Number(n) => {
            work.spread(0, i128::from(n.unsigned_abs()))?;
            let faces: Vec<i64> = if *n > 0 {
                (1..=*n).collect()
            } else {
                (*n..=-1).collect()
            };
            die_of_faces(&faces, work)?
        }
        Value::Sequence(s) => die_of_faces(s, work)?,
        Value::Die(d) => d.clone(),
        Value::Pool(p) => sum_pool(p, work)?,
    })
}

/// `N d X`: N dice like `dX`, a collection. A die as N rolls the count
/// first (`d6d6`); a negative N is N dice of the negated die.
pub(crate) fn dice(count: &Value, faces: &Value, work: &mut Work) -> Result<Value, Fail> {
    let count = match count {
        Value::Sequence(s) => Value::Number(sum(s)?),
        Value::Pool(p) => Value::Die(sum_pool(p, work)?),
        other => other.clone(),
    };
    match count {
        Value::Number(n) => {
            if n == 1 {
                if let Value::Pool(p) = faces {
                    return Ok(Value::Pool(p.clone()));
                }
            }
            let die = faces_of(faces, work)?;
            roll_n(n, die, work)
        }
        Value::Die(Die(None)) => Ok(Value::Pool(Pool {
            groups: vec![(Die::empty(), 1)],
        })),
        Value::Die(Die(Some(counts))) => {
            let die = faces_of(faces, work)?;
            let Die(Some(_)) = &die else {
                return Ok(Value::Pool(Pool {
                    groups: vec![(Die::empty(), 1)],
                }));
            };
            let mut parts = Vec::new();
            for (n, w) in counts.iter().filter(|(_, w)| !w.is_zero()) {
                let rolled = match roll_n(n, die.clone(), work)? {
                    Value::Pool(p) => sum_pool(&p, work)?,
                    Value::Die(d) => d,
                    _ => unreachable!("roll_n gives dice"),
                };
                if let Die(Some(o)) = rolled {
                    parts.push((w.clone(), o));
                }
            }
            let refs: Vec<(BigUint, &Outcomes)> =
                parts.iter().map(|(w, o)| (w.clone(), &**o)).collect();
            Ok(Value::Die(Die::from(crate::engine::mix(&refs))))
        }
        Value::Sequence(_) | Value::Pool(_) => unreachable!("summed above"),
    }
}

/// A die with every value negated; refused when a value would pass what
/// AnyDice's numbers hold (the lowest, -2^63, has no opposite).
fn negated(die: &Outcomes, work: &mut Work) -> Result<Outcomes, Fail> {
    work.spread(-i128::from(die.max()), -i128::from(die.min()))?;
    Ok(die.negate())
}

fn roll_n(n: i64, die: Die, work: &mut Work) -> Result<Value, Fail> {
    Ok(match (n, &die.0) {
        (_, None) => Value::Die(Die::empty()),
        (0, _) => Value::Die(Die::constant(0)),
        (n, Some(o)) if n < 0 => Value::Pool(Pool {
            groups: vec![(Die::of(negated(o, work)?), n.unsigned_abs())],
        }),
        (n, _) => Value::Pool(Pool {
            groups: vec![(die, n as u64)],
        }),
    })
}

/// `places @ value`: the numbers at those places of a sequence, of a
/// number's digits, or of a collection sorted by the position order;
/// places that do not exist count 0.
pub(crate) fn at(
    places: &Value,
    value: &Value,
    highest_first: bool,
    work: &mut Work,
) -> Result<Value, Fail> {
    let places: Vec<i64> = match places {
        Value::Number(n) => vec![*n],
        Value::Sequence(s) => s.to_vec(),
        _ => return Err("the places before @ must be a number or a sequence, not a die: pass the die to a function with a number parameter (:n)".to_string()),
    };
    match value {
        Value::Number(n) => Ok(Value::Number(digits_at(&places, *n, highest_first))),
        Value::Sequence(s) => sequence_at(&places, s).map(Value::Number),
        Value::Die(Die(None)) => Ok(Value::Die(Die::empty())),
        Value::Die(d) => pool_at(
            &places,
            &Pool {
                groups: vec![(d.clone(), 1)],
            },
            highest_first,
            work,
        ),
        Value::Pool(p) => pool_at(&places, p, highest_first, work),
    }
}

fn pool_at(
    places: &[i64],
    pool: &Pool,
    highest_first: bool,
    work: &mut Work,
) -> Result<Value, Fail> {
    let size = pool.len();
    let mut picks: Vec<u64> = Vec::new();
    for &p in places.iter().filter(|&&p| p >= 1 && p as u64 <= size) {
        let i = p as usize - 1;
        if picks.len() <= i {
            picks.resize(i + 1, 0);
        }
        picks[i] += 1;
    }
    if picks.is_empty() {
        return Ok(Value::Die(Die::constant(0)));
    }
    if pool.groups.iter().any(|(d, _)| d.is_empty()) {
        return Ok(Value::Die(Die::empty()));
    }
    if let [(Die(Some(die)), count)] = pool.groups.as_slice() {
        let faces = die.width() as f64;
        let reach = picks.len() as f64;
        let spread = (die.max() - die.min()) as f64 * picks.iter().sum::<u64>() as f64;
        work.charge(
            pick_price(faces, reach, *count as f64, spread),
            "picking dice from a collection",
        )?;
        let places = picks.iter().fold(0u64, |a, &b| a.saturating_add(b));
        work.spread(times(die.min(), places), times(die.max(), places))?;
        return Ok(Value::Die(Die::of(picked(
            die,
            *count,
            &picks,
            highest_first,
        ))));
    }
    // Dice of different kinds: every sorted roll, listed.
    let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
    for (roll, ways) in sorted_rolls(pool, highest_first, work)? {
        let total: i64 = picks
            .iter()
            .enumerate()
            .map(|(i, &m)| roll[i] * m as i64)
            .sum();
        *counts.entry(total).or_default() += ways;
    }
    Ok(Value::Die(die_from(counts, work)?))
}

/// Sorted rolls with their ways, each roll as `R`.
pub(crate) type Rolls<R> = Vec<(R, BigUint)>;

/// Every roll of a collection, sorted by the position order, with its
/// ways; rolls that sort alike are merged.
pub(crate) fn sorted_rolls(
    pool: &Pool,
    highest_first: bool,
    work: &mut Work,
) -> Result<Rolls<Rc<[i64]>>, Fail> {
    // One group's rolls are listed in this order already.
    if let [(die, count)] = pool.groups.as_slice() {
        return group_rolls(die, *count, highest_first, work);
    }
    let mut out = merged_rolls(&pool.groups, pool.len(), work)?;
    if highest_first {
        for (roll, _) in &mut out {
            roll.reverse();
        }
        // AnyDice walks the rolls from the highest.
        out.sort_unstable_by(|a, b| b.0.cmp(&a.0));
    }
    Ok(out.into_iter().map(|(r, w)| (r.into(), w)).collect())
}

/// The sorted rolls of `count` dice alike, with their ways, in the order
/// AnyDice walks them; none for the empty die.
fn group_rolls<R: for<'a> From<&'a [i64]>>(
    die: &Die,
    count: u64,
    highest_first: bool,
    work: &mut Work,
) -> Result<Rolls<R>, Fail> {
    let Die(Some(die)) = die else {
        return Ok(Vec::new());
    };
    crate::engine::sorted_roll_list(die, count, work.remaining(), highest_first)
        .ok_or_else(|| work.refusal("listing the rolls of a collection"))
}

/// The sorted rolls of groups of dice, merged group by group.
fn merged_rolls(
    groups: &[(Die, u64)],
    dice: u64,
    work: &mut Work,
) -> Result<Vec<(Vec<i64>, BigUint)>, Fail> {
    let mut rolls: BTreeMap<Vec<i64>, BigUint> = BTreeMap::from([(Vec::new(), BigUint::one())]);
    for (die, count) in groups {
        if die.is_empty() {
            return Ok(Vec::new());
        }
        let sorted: Rolls<Vec<i64>> = group_rolls(die, *count, false, work)?;
        work.charge(
            listing_price(rolls.len() as f64, sorted.len() as f64, dice as f64),
            "listing the rolls of a collection",
        )?;
        let mut next: BTreeMap<Vec<i64>, BigUint> = BTreeMap::new();
        for (roll, ways) in &rolls {
            for (more, w) in &sorted {
                let mut merged: Vec<i64> = roll.iter().chain(more.iter()).copied().collect();
                merged.sort_unstable();
                *next.entry(merged).or_default() += ways * w;
            }
        }
        rolls = next;
    }
    Ok(rolls.into_iter().collect())
}
