//! AnyDice's values: numbers, sequences, dice and collections of dice,
//! with the conversions its documentation gives between them.

use super::work::Work;
use crate::engine::Outcomes;
use num_bigint::BigUint;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A die: exact outcomes, or the empty die `d{}` (no outcome at all, which
/// a function uses to drop a case from its result).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Die(pub Option<Rc<Outcomes>>);

/// The empty die for no outcomes.
impl From<Option<Outcomes>> for Die {
    fn from(outcomes: Option<Outcomes>) -> Die {
        Die(outcomes.map(Rc::new))
    }
}

impl Die {
    pub(crate) fn empty() -> Die {
        Die(None)
    }

    /// A die of these outcomes (shared: a die passed around or kept in a
    /// variable is not copied).
    pub(crate) fn of(outcomes: Outcomes) -> Die {
        Die(Some(Rc::new(outcomes)))
    }

    pub(crate) fn constant(value: i64) -> Die {
        Die::of(Outcomes::constant(value))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_none()
    }
}

/// A collection of dice rolled together (`3d6`, `[highest 1 of d6 and
/// d8]`): groups of identical dice. Summed wherever a single die is
/// needed; sorted where places are picked (`@`) or a sequence is expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pool {
    pub groups: Vec<(Die, u64)>,
}

impl Pool {
    /// How many dice: `#(3d6)` is 3.
    pub(crate) fn len(&self) -> u64 {
        self.groups.iter().map(|(_, n)| n).sum()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value {
    Number(i64),
    /// Shared: a sequence read from a variable or passed to a function is
    /// not copied.
    Sequence(Rc<[i64]>),
    Die(Die),
    Pool(Pool),
}

impl Value {
    /// What AnyDice writes for `[X]` in a `named` text: the number itself,
    /// and placeholders for the rest (as AnyDice shows them).
    pub(crate) fn label(&self) -> String {
        match self {
            Value::Number(n) => n.to_string(),
            Value::Sequence(s) if s.is_empty() => "{}".to_string(),
            Value::Sequence(_) => "{?}".to_string(),
            Value::Die(Die(None)) => "d{}".to_string(),
            Value::Die(Die(Some(o))) => format!("d{}", sides(o)),
            Value::Pool(p) => match p.groups.as_slice() {
                [(Die(Some(o)), n)] => format!("{n}d{}", sides(o)),
                _ => format!("{}d{{?}}", p.len()),
            },
        }
    }

    /// The kind of value, as messages name it.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Value::Number(_) => "a number",
            Value::Sequence(_) => "a sequence",
            Value::Die(_) | Value::Pool(_) => "a die",
        }
    }
}

/// `6` for a standard die of six sides (faces 1 to 6, once each), as
/// AnyDice names it; `{?}` for any other die.
fn sides(o: &Outcomes) -> String {
    let standard = o.min() == 1
        && o.iter()
            .enumerate()
            .all(|(i, (v, w))| v == i as i64 + 1 && w == &BigUint::from(1u32));
    if standard && o.width() == o.iter().count() {
        o.max().to_string()
    } else {
        "{?}".to_string()
    }
}

/// Outcomes from counts, or `None` for none. The one way a die is made
/// from values, so the spread between them (a count is kept for every
/// value between) is always priced first.
pub(crate) fn die_from(counts: BTreeMap<i64, BigUint>, work: &mut Work) -> Result<Die, String> {
    if let (Some((&lo, _)), Some((&hi, _))) = (counts.first_key_value(), counts.last_key_value()) {
        work.spread(i128::from(lo), i128::from(hi))?;
    }
    Ok(Die::from(Outcomes::from_map(counts)))
}

/// A die with these faces, each face once (twice as likely if written
/// twice); the empty die for no faces.
pub(crate) fn die_of_faces(faces: &[i64], work: &mut Work) -> Result<Die, String> {
    let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
    for &face in faces {
        *counts.entry(face).or_default() += 1u32;
    }
    die_from(counts, work)
}
