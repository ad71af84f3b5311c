//! One roll of an AnyDice value, and AnyDice's operators on rolls: the
//! rules of `lang::anydice::ops` (a sequence in arithmetic is its sum, a
//! collection is summed before arithmetic, a sequence compared with a
//! number counts the matches, the empty die is 0 beside `+ - |`) applied to
//! the numbers a trial rolled instead of to whole distributions. The
//! number-by-number operators are the exact interpreter's own
//! ([`ops::numbers`]): they are the language's rules, not its distributions.

use super::super::Sampler;
use crate::lang::anydice::ops::{self, overflow, Fail};
use crate::lang::anydice::syntax::{Binary, Unary};

/// One trial's value of an expression, tagged with its AnyDice type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Sample {
    Number(i64),
    Sequence(Vec<i64>),
    /// One die, rolled.
    Die(i64),
    /// A collection of dice (`3d6`), rolled: the rolls, lowest first.
    Pool(Vec<i64>),
    /// The empty die `d{}` (`None`), or a collection of `n` dice one of
    /// which is empty (`Some(n)`): no value at all.
    Empty(Option<u64>),
}

impl Sample {
    /// Whether AnyDice holds this as a die (a distribution): a name bound
    /// to it is rolled again at every use.
    pub(crate) fn is_die(&self) -> bool {
        matches!(self, Sample::Die(_) | Sample::Pool(_) | Sample::Empty(_))
    }

    /// The value as a single die shows it: numbers and sequences (summed)
    /// as they are, collections summed; `None` for the empty die.
    pub(crate) fn as_die(&self) -> Result<Option<i64>, Fail> {
        Ok(match self {
            Sample::Number(n) | Sample::Die(n) => Some(*n),
            Sample::Sequence(s) | Sample::Pool(s) => Some(ops::sum(s)?),
            Sample::Empty(_) => None,
        })
    }

    /// The number a number is, or a sequence sums to.
    pub(crate) fn number(&self) -> Option<Result<i64, Fail>> {
        match self {
            Sample::Number(n) => Some(Ok(*n)),
            Sample::Sequence(s) => Some(ops::sum(s)),
            _ => None,
        }
    }

    /// What `output` shows: a sequence is a die with its numbers as faces,
    /// so one of them, picked uniformly; `None` for the empty die.
    pub(crate) fn shown(&self, sampler: &mut Sampler) -> Result<Option<i64>, Fail> {
        match self {
            Sample::Sequence(s) => Ok(pick(s, sampler)),
            other => other.as_die(),
        }
    }

    /// The kind of value, as the exact interpreter's messages name it.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Sample::Number(_) => "a number",
            Sample::Sequence(_) => "a sequence",
            _ => "a die",
        }
    }
}

/// One face of the die `d{faces}`, each written face equally likely.
fn pick(faces: &[i64], sampler: &mut Sampler) -> Option<i64> {
    match faces.len() {
        0 => None,
        n => Some(faces[sampler.below(n as u64) as usize]),
    }
}

/// One roll of the die `dX` makes of `faces` (`d6` is 1..6, `d-3` is -1..-3,
/// `d0` is 0, `d{...}` one of its faces); a die or collection gives its
/// (summed) roll. `None` for the empty die.
pub(crate) fn face(faces: &Sample, sampler: &mut Sampler) -> Result<Option<i64>, Fail> {
    Ok(match faces {
        Sample::Number(0) => Some(0),
        Sample::Number(n) if *n > 0 => Some(sampler.die(n.unsigned_abs()) as i64),
        // d-N: faces -1 to -N, equally likely.
        Sample::Number(n) => Some(-(sampler.die(n.unsigned_abs()) as i64)),
        Sample::Sequence(s) => pick(s, sampler),
        other => other.as_die()?,
    })
}

/// `a op b` for any binary operator but `@` and `d`.
pub(crate) fn binary(op: Binary, a: Sample, b: Sample) -> Result<Sample, Fail> {
    if op.is_comparison() {
        comparison(op, a, b)
    } else {
        arithmetic(op, a, b)
    }
}

fn arithmetic(op: Binary, a: Sample, b: Sample) -> Result<Sample, Fail> {
    let empty = |v: &Sample| matches!(v, Sample::Empty(_));
    let (ea, eb) = (empty(&a), empty(&b));
    if ea && eb {
        return Ok(Sample::Empty(None));
    }
    // The empty die is 0 beside `+`, `-` and `|`; a collection beside it
    // is left as it is.
    let (a, b) = match op {
        Binary::Add | Binary::Subtract | Binary::Or if ea => {
            if matches!(b, Sample::Pool(_)) {
                return Ok(b);
            }
            (Sample::Number(0), b)
        }
        Binary::Add | Binary::Subtract | Binary::Or if eb => {
            if matches!(a, Sample::Pool(_)) {
                return Ok(a);
            }
            (a, Sample::Number(0))
        }
        _ if ea || eb => return Ok(Sample::Empty(None)),
        _ => (a, b),
    };
    if let (Some(x), Some(y)) = (a.number(), b.number()) {
        return ops::numbers(op, x?, y?, false).map(Sample::Number);
    }
    let (Some(x), Some(y)) = (a.as_die()?, b.as_die()?) else {
        return Ok(Sample::Empty(None));
    };
    ops::numbers(op, x, y, true).map(Sample::Die)
}

fn comparison(op: Binary, a: Sample, b: Sample) -> Result<Sample, Fail> {
    let summed = |v: Sample| -> Result<Sample, Fail> {
        Ok(match v {
            Sample::Pool(_) | Sample::Empty(Some(_)) => {
                v.as_die()?.map_or(Sample::Empty(None), Sample::Die)
            }
            other => other,
        })
    };
    let (a, b) = (summed(a)?, summed(b)?);
    if matches!(a, Sample::Empty(_)) || matches!(b, Sample::Empty(_)) {
        return Ok(Sample::Empty(None));
    }
    if let Some(n) = ops::compare_numbers(op, &a, &b, |v| match v {
        Sample::Number(n) => Some(Ok(std::slice::from_ref(n))),
        Sample::Sequence(s) => Some(Err(s)),
        _ => None,
    }) {
        return Ok(Sample::Number(n));
    }
    let (Some(x), Some(y)) = (a.as_die()?, b.as_die()?) else {
        unreachable!("empty dice were answered above")
    };
    Ok(Sample::Die(
        ops::numbers(op, x, y, false).expect("comparisons cannot fail"),
    ))
}

/// A prefix operator; `d` on a number or sequence rolls the die it makes.
pub(crate) fn unary(op: Unary, value: Sample, sampler: &mut Sampler) -> Result<Sample, Fail> {
    let value = match value {
        Sample::Sequence(s) if matches!(op, Unary::Minus | Unary::Not) => {
            Sample::Number(ops::sum(&s)?)
        }
        other => other,
    };
    Ok(match (op, value) {
        (Unary::Plus, v) => v,
        (Unary::Length, v) => Sample::Number(match v {
            Sample::Number(n) => n.unsigned_abs().to_string().len() as i64,
            Sample::Sequence(s) => s.len() as i64,
            Sample::Die(_) => 1,
            Sample::Pool(p) => p.len() as i64,
            Sample::Empty(n) => n.unwrap_or(0) as i64,
        }),
        (Unary::Die, v) if v.is_die() => v,
        (Unary::Die, faces) => face(&faces, sampler)?.map_or(Sample::Empty(None), Sample::Die),
        (Unary::Minus, Sample::Number(n)) => Sample::Number(n.checked_neg().ok_or_else(overflow)?),
        (Unary::Not, Sample::Number(n)) => Sample::Number(i64::from(n == 0)),
        (Unary::Minus, Sample::Pool(p)) => Sample::Pool(negated(&p)?),
        (Unary::Minus, empty @ Sample::Empty(Some(_))) => empty,
        (op, v) => match v.as_die()? {
            None => Sample::Empty(None),
            Some(x) if op == Unary::Minus => Sample::Die(x.checked_neg().ok_or_else(overflow)?),
            Some(x) => Sample::Die(i64::from(x == 0)),
        },
    })
}

/// Every roll negated, lowest first again.
pub(crate) fn negated(rolls: &[i64]) -> Result<Vec<i64>, Fail> {
    let mut out = rolls
        .iter()
        .map(|r| r.checked_neg().ok_or_else(overflow))
        .collect::<Result<Vec<i64>, Fail>>()?;
    out.reverse();
    Ok(out)
}

/// `places @ value`: the numbers at those places of a sequence, of a
/// number's digits, or of a collection's rolls sorted by the position
/// order; places that do not exist count 0.
pub(crate) fn at(places: &Sample, value: &Sample, highest_first: bool) -> Result<Sample, Fail> {
    let places: Vec<i64> = match places {
        Sample::Number(n) => vec![*n],
        Sample::Sequence(s) => s.clone(),
        _ => return Err("the places before @ must be a number or a sequence, not a die".into()),
    };
    match value {
        Sample::Number(n) => Ok(Sample::Number(ops::digits_at(&places, *n, highest_first))),
        Sample::Sequence(s) => ops::sequence_at(&places, s).map(Sample::Number),
        Sample::Empty(None) => Ok(Sample::Empty(None)),
        Sample::Empty(Some(size)) => {
            let any = places.iter().any(|&p| p >= 1 && p as u64 <= *size);
            Ok(if any {
                Sample::Empty(None)
            } else {
                Sample::Die(0)
            })
        }
        Sample::Die(v) => pool_at(&places, &[*v], highest_first),
        Sample::Pool(rolls) => pool_at(&places, rolls, highest_first),
    }
}

/// The sum of the rolls (lowest first) at `places` of the position order.
fn pool_at(places: &[i64], rolls: &[i64], highest_first: bool) -> Result<Sample, Fail> {
    let size = rolls.len();
    let mut total = 0i64;
    for &p in places.iter().filter(|&&p| p >= 1 && p as usize <= size) {
        let i = if highest_first {
            size - p as usize
        } else {
            p as usize - 1
        };
        total = total.checked_add(rolls[i]).ok_or_else(overflow)?;
    }
    Ok(Sample::Die(total))
}
