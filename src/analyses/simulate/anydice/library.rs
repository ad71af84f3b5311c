//! AnyDice's function library, each function played on rolls: the
//! collection's dice sorted and picked, a die rolled again while it shows
//! its highest face.
//!
//! `[explode D]` and `[maximum of D]` need D's highest face, the one thing
//! a roll does not tell. It is taken from an interval computed on D's
//! expression ([`Machine::span`]): numbers and sequences as they are, `dN`
//! and `d{...}` from their faces, `N d X`, `+`, `-` and `*` from the
//! bounds of their terms. As every use of a die is a roll of its own, every
//! combination of the terms' values can show, so the bound is the highest
//! face itself, not only a bound on it. Any other die there (a function's
//! result, a comparison) is not replayed, and the program says why.

use super::sample::{self, Sample};
use super::{Go, Machine, Stored};
use crate::lang::anydice::library;
use crate::lang::anydice::ops::overflow;
use crate::lang::anydice::syntax::{Binary, Expr, Unary};
use crate::lang::anydice::Settings;

/// What an expression is across its rolls: a number or sequence (the same
/// in every roll), or a die whose (summed) roll lies between two bounds,
/// both of which it can show.
enum Span {
    Known(Sample),
    Range(i64, i64),
}

impl Span {
    /// The bounds of the value as a die (a sequence summed).
    fn bounds(&self) -> Go<(i64, i64)> {
        match self {
            Span::Known(v) => {
                let n = v.number().ok_or("a die where a number was expected")??;
                Ok((n, n))
            }
            Span::Range(lo, hi) => Ok((*lo, *hi)),
        }
    }
}

fn number(stored: &Stored) -> i64 {
    match stored {
        Stored::Value(Sample::Number(n)) => *n,
        _ => unreachable!("a number parameter holds a number"),
    }
}

fn sequence<'a>(stored: &'a Stored) -> &'a [i64] {
    match stored {
        Stored::Value(Sample::Sequence(s)) => s,
        _ => unreachable!("a sequence parameter holds a sequence"),
    }
}

impl<'p> Machine<'p, '_> {
    /// The library function `key` on its bound arguments.
    pub(super) fn builtin(
        &mut self,
        key: &str,
        a: &[Stored<'p>],
        settings: &Settings,
    ) -> Go<Sample> {
        let hf = settings.highest_first;
        Ok(match key {
            "absolute _" => Sample::Number(number(&a[0]).checked_abs().ok_or_else(overflow)?),
            "_ contains _" => Sample::Number(i64::from(sequence(&a[0]).contains(&number(&a[1])))),
            "count _ in _" => {
                let (values, seq) = (sequence(&a[0]), sequence(&a[1]));
                Sample::Number(
                    seq.iter()
                        .map(|s| values.iter().filter(|v| *v == s).count() as i64)
                        .sum(),
                )
            }
            "maximum of _" => match self.value(&a[0])? {
                Sample::Empty(_) => Sample::Number(0),
                _ => Sample::Number(self.highest_face(&a[0], "maximum of D")?),
            },
            "reverse _" => Sample::Sequence(sequence(&a[0]).iter().rev().copied().collect()),
            "sort _" => {
                let mut s = sequence(&a[0]).to_vec();
                s.sort_unstable();
                if hf {
                    s.reverse();
                }
                Sample::Sequence(s)
            }
            "highest of _ and _" => Sample::Number(number(&a[0]).max(number(&a[1]))),
            "lowest of _ and _" => Sample::Number(number(&a[0]).min(number(&a[1]))),
            "highest _ of _" | "highest _ of _ and _" | "highest _ of _ and _ and _" => {
                let pool = self.collection(&a[1..])?;
                from_end(number(&a[0]), &pool, true, hf)?
            }
            "lowest _ of _" | "lowest _ of _ and _" | "lowest _ of _ and _ and _" => {
                let pool = self.collection(&a[1..])?;
                from_end(number(&a[0]), &pool, false, hf)?
            }
            "middle _ of _" => {
                let n = number(&a[0]);
                let pool = self.collection(&a[1..])?;
                if pool == Sample::Empty(None) {
                    return Ok(pool);
                }
                let total = dice_in(&pool);
                if n <= 0 {
                    return Ok(Sample::Number(0));
                }
                if n >= total {
                    return Ok(pool.as_die()?.map_or(Sample::Empty(None), Sample::Die));
                }
                from_lowest(library::middle_places(n, total), &pool, hf)?
            }
            "explode _" => {
                let Some(first) = self.value(&a[0])?.as_die()? else {
                    return Ok(Sample::Empty(None));
                };
                let highest = self.highest_face(&a[0], "explode D")?;
                let (mut total, mut last) = (first, first);
                for _ in 0..settings.explode_depth {
                    if last != highest {
                        break;
                    }
                    last = self
                        .value(&a[0])?
                        .as_die()?
                        .ok_or("an empty die after a roll")?;
                    total = total.checked_add(last).ok_or_else(overflow)?;
                }
                Sample::Die(total)
            }
            other => return Err(format!("the library function [{other}] is not replayed")),
        })
    }

    /// The dice passed to die parameters, as one collection rolled: its
    /// rolls lowest first, or the empty die (`Some(n)` when among `n` dice).
    fn collection(&mut self, dice: &[Stored<'p>]) -> Go<Sample> {
        let (mut rolls, mut empty, mut size) = (Vec::new(), false, 0u64);
        let values = dice
            .iter()
            .map(|die| self.value(die))
            .collect::<Go<Vec<Sample>>>()?;
        if let [Sample::Empty(None)] = values.as_slice() {
            return Ok(Sample::Empty(None));
        }
        for value in values {
            match value {
                Sample::Pool(r) => rolls.extend(r),
                Sample::Die(v) | Sample::Number(v) => rolls.push(v),
                Sample::Empty(n) => {
                    empty = true;
                    size += n.unwrap_or(1);
                }
                Sample::Sequence(_) => unreachable!("a die parameter holds a die"),
            }
        }
        if empty {
            return Ok(Sample::Empty(Some(size + rolls.len() as u64)));
        }
        rolls.sort_unstable();
        Ok(Sample::Pool(rolls))
    }

    /// The highest face of the die `stored` holds (see the module's note).
    fn highest_face(&mut self, stored: &Stored<'p>, what: &str) -> Go<i64> {
        let span = match stored {
            Stored::Value(v) => Span::Known(Sample::Number(v.as_die()?.ok_or("an empty die")?)),
            Stored::Thunk(thunk) => {
                let span = self.within(thunk, |m| m.span(thunk.expr));
                span.map_err(|why| {
                    format!("[{what}] needs the highest face of D, known for numbers, sequences and dice combined by d, +, - and * ({why})")
                })?
            }
        };
        Ok(span.bounds()?.1)
    }

    /// What `e` is across its rolls, without rolling it.
    fn span(&mut self, e: &'p Expr) -> Go<Span> {
        self.step(1)?;
        let range = |lo: Option<i64>, hi: Option<i64>| match (lo, hi) {
            (Some(lo), Some(hi)) => Ok(Span::Range(lo, hi)),
            _ => Err(overflow()),
        };
        Ok(match e {
            Expr::Number(n) => Span::Known(Sample::Number(*n)),
            Expr::Sequence(parts) => Span::Known(Sample::Sequence(self.sequence(parts)?)),
            Expr::Variable(name, _) => match self.variable(name) {
                None => return Err(format!("{name} has no value yet")),
                Some(Stored::Value(Sample::Die(n))) => Span::Range(n, n),
                Some(Stored::Value(Sample::Empty(_))) => return Err("an empty die".into()),
                Some(Stored::Value(v)) => Span::Known(v),
                Some(Stored::Thunk(thunk)) => self.within(&thunk, |m| m.span(thunk.expr))?,
            },
            Expr::Unary(op, operand) => match (op, self.span(operand)?) {
                (Unary::Plus, span) => span,
                (Unary::Minus, Span::Range(lo, hi)) => range(hi.checked_neg(), lo.checked_neg())?,
                (Unary::Die, Span::Range(lo, hi)) => Span::Range(lo, hi),
                (Unary::Die, Span::Known(faces)) => {
                    let (lo, hi) = faces_range(&faces)?;
                    Span::Range(lo, hi)
                }
                (_, Span::Known(v)) => Span::Known(sample::unary(*op, v, self.sampler)?),
                (_, Span::Range(..)) => return Err("a prefix ! or # on a die".into()),
            },
            Expr::Binary(op, a, b, _) => {
                let (x, y) = (self.span(a)?, self.span(b)?);
                match (op, x, y) {
                    (Binary::Dice, count, faces) => {
                        let Span::Known(count) = count else {
                            return Err("a rolled number of dice".into());
                        };
                        let n = count.number().ok_or("a die as a count")??;
                        let (lo, hi) = match faces {
                            Span::Known(f) => faces_range(&f)?,
                            Span::Range(lo, hi) => (lo, hi),
                        };
                        match n {
                            0 => Span::Range(0, 0),
                            n if n > 0 => range(lo.checked_mul(n), hi.checked_mul(n))?,
                            n => range(hi.checked_mul(n), lo.checked_mul(n))?,
                        }
                    }
                    (Binary::At, Span::Known(p), Span::Known(v)) => {
                        Span::Known(sample::at(&p, &v, self.ctx.settings.highest_first)?)
                    }
                    (_, Span::Known(x), Span::Known(y)) if *op != Binary::At => {
                        Span::Known(sample::binary(*op, x, y)?)
                    }
                    (Binary::Add | Binary::Subtract | Binary::Multiply, x, y) => {
                        let ((a, b), (c, d)) = (x.bounds()?, y.bounds()?);
                        let corners = |f: fn(i64, i64) -> Option<i64>| -> Go<Span> {
                            let all = [f(a, c), f(a, d), f(b, c), f(b, d)];
                            let all: Option<Vec<i64>> = all.into_iter().collect();
                            let all = all.ok_or_else(overflow)?;
                            Ok(Span::Range(
                                *all.iter().min().expect("four"),
                                *all.iter().max().expect("four"),
                            ))
                        };
                        match op {
                            Binary::Add => corners(i64::checked_add)?,
                            Binary::Subtract => corners(i64::checked_sub)?,
                            _ => corners(i64::checked_mul)?,
                        }
                    }
                    _ => return Err("an operator other than d, +, - and * on a die".into()),
                }
            }
            Expr::Call(..) => return Err("a function's result".into()),
        })
    }
}

/// The lowest and highest face of `d faces` for a number or sequence.
fn faces_range(faces: &Sample) -> Go<(i64, i64)> {
    match faces {
        Sample::Number(0) => Ok((0, 0)),
        Sample::Number(n) if *n > 0 => Ok((1, *n)),
        Sample::Number(n) => Ok((*n, -1)),
        Sample::Sequence(s) => match (s.iter().min(), s.iter().max()) {
            (Some(&lo), Some(&hi)) => Ok((lo, hi)),
            _ => Err("an empty die".into()),
        },
        _ => Err("a die where faces were expected".into()),
    }
}

/// How many dice a collection holds (the empty one among them).
fn dice_in(pool: &Sample) -> i64 {
    match pool {
        Sample::Pool(rolls) => rolls.len() as i64,
        Sample::Empty(n) => n.unwrap_or(0) as i64,
        _ => unreachable!("a collection"),
    }
}

/// `[highest N of D]` (or lowest): the sum of the N best (or worst) dice.
fn from_end(n: i64, pool: &Sample, highest: bool, highest_first: bool) -> Go<Sample> {
    if let Sample::Empty(_) = pool {
        return Ok(Sample::Empty(None));
    }
    match library::end_places(n, dice_in(pool), highest) {
        Some(places) => from_lowest(places, pool, highest_first),
        None => Ok(Sample::Number(0)),
    }
}

/// The sum of the dice at `places` counted from the lowest (1), picked in
/// the program's position order by `@`, as the exact library picks them.
fn from_lowest(
    places: std::ops::RangeInclusive<i64>,
    pool: &Sample,
    highest_first: bool,
) -> Go<Sample> {
    let places = library::in_position_order(places, dice_in(pool), highest_first);
    sample::at(&Sample::Sequence(places), pool, highest_first)
}
