//! The rules a pool's modifiers must keep, one owner for each: a
//! condition (reroll, explode, count, failures) that no face meets does
//! nothing and is refused; an explosion that every face meets never ends;
//! a keep keeps at least one die. [`super::check`] applies them while it
//! prices, from [`Faces`], what is known of a die before any work.

use super::{Die, LangError, Modifier, Pool, Span};
use crate::engine::pool::Condition;

/// Values beyond this cannot be computed (they must stay exact in `i64`
/// sums and products, and in the `f64` of charts).
pub(crate) const MAX_VALUE: i128 = 1 << 53;

/// Refuses an explosion that every face the die can still show meets:
/// each roll would explode until the depth ran out, so the result would
/// measure the depth, not the die. `faces` are those left after `rr`
/// (`rerolled`); after `ro` every face can still show. A bare `!` explodes
/// on the highest of them, as [`super::evaluate`] does.
pub(super) fn explodes_sometimes(
    faces: &Faces,
    explode: Modifier<Option<Condition>>,
    rerolled: bool,
    pool: &Pool,
) -> Result<(), LangError> {
    if let Some(condition) = explode.rule {
        some_face_meets(faces, explode.map(|_| condition), pool)?;
    }
    let condition = explode.rule.unwrap_or(Condition::Eq(faces.range().1));
    if faces.without(condition).is_some() {
        return Ok(());
    }
    let (after, reroll_fewer) = if rerolled {
        (" after its reroll", ", reroll fewer")
    } else {
        ("", "")
    };
    Err(LangError::new(
        explode.span,
        format!(
            "every face the die can show{after} ({}) explodes, so it would explode on \
             every roll: explode on fewer faces{reroll_fewer} or give the die faces that \
             do not explode",
            faces.describe()
        ),
    ))
}

/// Whether some face of `faces` meets `condition`.
fn meets(faces: &Faces, condition: Condition) -> bool {
    match faces {
        Faces::Written(faces) => faces.iter().any(|&f| condition.holds(f)),
        Faces::Run(low, high) => match condition {
            Condition::Eq(x) => (*low..=*high).contains(&x),
            Condition::Lt(_) | Condition::Le(_) => condition.holds(*low),
            Condition::Gt(_) | Condition::Ge(_) => condition.holds(*high),
        },
    }
}

/// The one rule for a pool's conditions (reroll, explode, count,
/// failures): a condition no face can meet does nothing, so it is a
/// mistake to point at, not a rule to apply (`2d6ro7` rerolls nothing,
/// `2d6!7` never explodes, `2d6>=7` is always 0).
pub(super) fn some_face_meets(
    faces: &Faces,
    condition: Modifier<Condition>,
    pool: &Pool,
) -> Result<(), LangError> {
    if meets(faces, condition.rule) {
        return Ok(());
    }
    let what = if pool.reroll.is_some_and(|r| r.span == condition.span) {
        "so no die is ever rerolled: remove the reroll or change its condition".to_string()
    } else if pool.explode.is_some_and(|e| e.span == condition.span) {
        "so no die ever explodes: remove the explosion or change its condition".to_string()
    } else if pool.failures.is_some_and(|f| f.span == condition.span) {
        "so no die is ever a failure: remove the failures or change their condition".to_string()
    } else if pool.reroll_add.is_some_and(|r| r.span == condition.span) {
        "so no die is ever added".to_string()
    } else if let Some(select) = pool.select.iter().find(|s| s.span == condition.span) {
        if select.rule.keep {
            "so every die is dropped".to_string()
        } else {
            "so no die is ever dropped".to_string()
        }
    } else {
        let (sign, value) = match condition.rule {
            Condition::Eq(x) => ("=", x),
            Condition::Lt(x) => ("<", x),
            Condition::Le(x) => ("<=", x),
            Condition::Gt(x) => (">", x),
            Condition::Ge(x) => (">=", x),
        };
        let dice = Span {
            start: pool.start,
            end: condition.span.start,
        };
        let message = format!(
            "no face of a {} is {}, so this count of dice is always 0",
            pool.die.name(),
            super::words::condition(condition.rule),
        );
        return Err(LangError {
            total: Some((dice, format!(" {sign} {value}"))),
            ..LangError::new(condition.span, message)
        });
    };
    Err(LangError::new(
        condition.span,
        format!(
            "no face of a {} is {}, {what}",
            pool.die.name(),
            super::words::condition(condition.rule),
        ),
    ))
}

/// What scores a die other than its face, each rule met by some face the
/// die can show: a count and failures (`>=8f1`, `cs>3df1`), and keeps
/// or drops by value (`p1`, `k>3`); and a minimum no higher than the
/// maximum.
pub(super) fn scores_something(faces: &Faces, pool: &Pool) -> Result<(), LangError> {
    for rule in [pool.successes, pool.failures].into_iter().flatten() {
        some_face_meets(faces, rule, pool)?;
    }
    for select in &pool.select {
        let conditions = &select.rule.conditions;
        if !conditions.iter().any(|&c| meets(faces, c)) {
            let first = Modifier {
                rule: conditions[0],
                span: select.span,
            };
            return some_face_meets(faces, first, pool);
        }
        if conditions.iter().any(|&c| faces.without(c).is_none()) {
            return Err(LangError::new(
                select.span,
                if select.rule.keep {
                    "every face is kept: remove it"
                } else {
                    "every face is dropped, so the total is always 0"
                },
            ));
        }
    }
    if let (Some(floor), Some(ceiling)) = (pool.floor, pool.ceiling) {
        if floor.rule > ceiling.rule {
            return Err(LangError::new(
                ceiling.span,
                format!(
                    "the maximum {} is below the minimum {}: every die would show both",
                    ceiling.rule, floor.rule
                ),
            ));
        }
    }
    Ok(())
}

/// The one rule for keeping: at least one die (or group member) is kept,
/// whatever the explosion or the order of the keeps.
pub(super) fn keeps_some(kept: u64, pool: &Pool, noun: &str) -> Result<(), LangError> {
    match (kept, pool.keep.last()) {
        (0, Some(last)) => Err(LangError::new(
            last.span,
            format!("keeps no {noun}, so the result is always 0: keep at least one"),
        )),
        _ => Ok(()),
    }
}

/// A die's faces as far as checking needs: a run `low..=high` of standard
/// faces, or the written faces.
#[derive(Debug, Clone)]
pub(super) enum Faces {
    Run(i64, i64),
    Written(Vec<i64>),
}

impl Faces {
    pub(super) fn of(die: &Die, span: Span) -> Result<Faces, LangError> {
        Ok(match die {
            Die::Standard(sides) => {
                let sides = i64::try_from(*sides)
                    .ok()
                    .filter(|&sides| i128::from(sides) <= MAX_VALUE)
                    .ok_or_else(|| LangError::new(span, "too many faces to compute exactly"))?;
                Faces::Run(1, sides)
            }
            Die::Fudge => Faces::Run(-1, 1),
            Die::Custom(faces) => {
                if faces.iter().any(|&f| i128::from(f).abs() > MAX_VALUE) {
                    return Err(LangError::new(
                        span,
                        "a face beyond ±2^53 is too large to compute exactly",
                    ));
                }
                Faces::Written(faces.clone())
            }
        })
    }

    pub(super) fn count(&self) -> f64 {
        match self {
            Faces::Run(low, high) => (high - low + 1) as f64,
            Faces::Written(faces) => faces.len() as f64,
        }
    }

    /// The lowest and the highest face.
    pub(super) fn range(&self) -> (i64, i64) {
        match self {
            Faces::Run(low, high) => (*low, *high),
            Faces::Written(faces) => (
                faces.iter().copied().min().unwrap_or(0),
                faces.iter().copied().max().unwrap_or(0),
            ),
        }
    }

    pub(super) fn bounds(&self) -> (i128, i128) {
        let (low, high) = self.range();
        (i128::from(low), i128::from(high))
    }

    /// The faces for an author: `only 2`, `from 1 to 6`.
    pub(super) fn describe(&self) -> String {
        match self.range() {
            (low, high) if low == high => format!("only {low}"),
            (low, high) => format!("from {low} to {high}"),
        }
    }

    pub(super) fn width(&self) -> f64 {
        let (low, high) = self.bounds();
        (high - low + 1) as f64
    }

    /// The faces left when those meeting `condition` are rerolled away;
    /// `None` when none is left.
    pub(super) fn without(&self, condition: Condition) -> Option<Faces> {
        match self {
            Faces::Written(faces) => {
                let left: Vec<i64> = faces
                    .iter()
                    .copied()
                    .filter(|f| !condition.holds(*f))
                    .collect();
                (!left.is_empty()).then_some(Faces::Written(left))
            }
            Faces::Run(low, high) => {
                let (mut low, mut high) = (*low, *high);
                match condition {
                    Condition::Eq(x) if x == low => low += 1,
                    Condition::Eq(x) if x == high => high -= 1,
                    Condition::Eq(_) => {}
                    Condition::Lt(x) => low = low.max(x),
                    Condition::Le(x) => low = low.max(x.saturating_add(1)),
                    Condition::Gt(x) => high = high.min(x),
                    Condition::Ge(x) => high = high.min(x.saturating_sub(1)),
                }
                (low <= high).then_some(Faces::Run(low, high))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{check, parse};

    fn message(text: &str) -> String {
        let expr = parse(text).unwrap();
        check(&expr, 3).unwrap_err().describe(text)
    }

    /// Issue 39, item 1: keeping no dice is one rule, whatever the
    /// explosion and wherever the keep is written (these panicked).
    #[test]
    fn keeping_no_dice_is_refused_with_or_without_an_explosion() {
        for text in [
            "d6!kh0",
            "2d6kh0!",
            "2d6!kh0",
            "2d6kl0!",
            "2d6kh0!!",
            "2d6kh0!p",
            "min(10D12KH0!<6)",
            "4d6dl4",
            "(1d4)d6!kh0",
        ] {
            assert!(
                message(text).contains("keeps no dice, so the result is always 0"),
                "{text}: {}",
                message(text)
            );
        }
        assert!(message("{d6, d8}kh0").contains("keeps no member"));
    }

    /// Issue 39, minor: a condition that no face meets is refused for
    /// every modifier, as a count was (`2d6>=7`).
    #[test]
    fn a_condition_no_face_meets_is_refused_for_every_modifier() {
        for (text, column, says) in [
            ("2d6!7", 4, "no face of a d6 is 7, so no die ever explodes"),
            ("2d6!!>6", 4, "is above 6, so no die ever explodes"),
            (
                "2d6ro7",
                4,
                "no face of a d6 is 7, so no die is ever rerolled",
            ),
            ("2d6rr0", 4, "so no die is ever rerolled"),
            ("3d6>3f0", 6, "so no die is ever a failure"),
            ("2d6>=7", 4, "so this count of dice is always 0"),
            ("d{1,400000000}!3>=5", 15, "is 3, so no die ever explodes"),
            ("d{-2147483647,7}!3>=7", 17, "so no die ever explodes"),
        ] {
            let got = message(text);
            assert!(got.contains(says), "{text}: {got}");
            assert!(got.contains(&format!("column {column}:")), "{text}: {got}");
        }
        // Conditions some face meets stay allowed.
        for text in ["2d6!6", "2d6ro1", "3d6>3f1", "2d6!>5", "dF!>0", "d{2,4}rr2"] {
            let expr = parse(text).unwrap();
            assert!(check(&expr, 3).is_ok(), "{text}");
        }
    }
}
