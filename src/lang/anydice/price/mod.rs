//! A program's price before it runs: the steps its run would charge,
//! estimated from the syntax tree without computing any distribution.
//!
//! The estimate is an abstract run over shapes: a number is a range (one
//! value where it is known), a sequence its length and the range of its
//! values (the values themselves where known), a die the range of its
//! values, how many there are in one case and the bits of its counts, a
//! collection its dice. Each operation adds the price the run charges for
//! it, from the same formulas ([`work`]). A die passed where a number or a
//! sequence is expected is followed case by case while the cases are few,
//! else once for all of them (the price times the cases); an `if` whose
//! condition is not known takes the dearer branch; a loop runs its turns;
//! recursion stops at the maximum function depth, as the run does. A
//! function's price is kept by its arguments' shapes, so the estimate
//! itself stays cheap, and it stops at [`MAX_TICKS`] of its own work,
//! saying "over" the price reached.

use super::ops::{self, numbers};
use super::run::Frames;
use super::syntax::*;
use super::value::Value;
use super::work::{self, Work, STEPS_PER_SECOND};
use super::{library, Place, Refusal, Settings};
use crate::engine::sorted_roll_count;
use crate::hash::FnvMap;
use std::fmt;
use std::rc::Rc;

/// The most the estimate itself does: nodes of the program visited (a
/// function's price, once known for its arguments, costs one). About a
/// few milliseconds.
pub const MAX_TICKS: u64 = 200_000;

/// A die passed to a function's number or sequence parameter is followed
/// case by case up to this many cases, and priced once for all beyond.
const FOLLOWED_CASES: usize = 256;

/// Beyond [`FOLLOWED_CASES`], this many cases spread evenly over them are
/// followed, and their mean price stands for every case.
const SAMPLES: usize = 48;

/// A die's values are listed as cases up to this many (and followed, or
/// sampled).
const LISTED_CASES: usize = 4096;

/// The values a die is known to have are kept up to this many.
const SUPPORT: usize = 512;

/// A sequence's numbers are kept up to this many.
const ITEMS: usize = 4096;

/// A loop's turns followed one by one; the rest are priced as the last.
const TURNS: usize = 256;

/// Recursion followed this deep (the estimate's own stack); deeper, the
/// price reached is a lower bound.
const DEPTH: u32 = 64;

/// What a program is estimated to cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Steps of [`work`], as the run would charge them.
    pub steps: f64,
    /// `false` when the estimate stopped at its own bound: the steps are
    /// then a lower bound ("over").
    pub complete: bool,
    /// The part of the program charged the most at once (a call, dice, an
    /// operation, a loop), and its place.
    pub dearest: Option<(String, Place)>,
}

/// An estimate this many times over a budget refuses the program at once,
/// without running it (nearer, the run's own budget decides).
pub const FAR_OVER: f64 = 10.0;

impl Estimate {
    /// The steps as seconds of budget.
    pub fn seconds(&self) -> f64 {
        self.steps / STEPS_PER_SECOND
    }

    /// Why a budget of `seconds` refuses the program without running it,
    /// if the estimate is [`FAR_OVER`] it: the estimate, the dearest part
    /// and what to change.
    pub fn far_over(&self, seconds: f64) -> Option<String> {
        if self.steps <= FAR_OVER * seconds * STEPS_PER_SECOND {
            return None;
        }
        let part = match &self.dearest {
            Some((what, at)) if at.line > 0 => {
                format!(
                    "; the dearest part is {what} at line {}, column {}",
                    at.line, at.column
                )
            }
            Some((what, _)) => format!("; the dearest part is {what}"),
            None => String::new(),
        };
        Some(format!(
            "the program is estimated before running at {self}, more than {FAR_OVER} times its budget of {seconds} s{part}: use fewer or smaller dice, shorter loops, fewer cases passed to functions (:n, :s) or a lower \"maximum function depth\""
        ))
    }
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = if self.complete { "about" } else { "over" };
        let seconds = self.seconds();
        if seconds < 1e4 {
            write!(
                f,
                "{word} {:.1e} steps ({word} {seconds:.3} s of work)",
                self.steps
            )
        } else {
            write!(
                f,
                "{word} {:.1e} steps ({word} {seconds:.1e} s of work)",
                self.steps
            )
        }
    }
}

/// The estimate of `source`'s work, or the problems in its text.
pub fn estimate(source: &str) -> Result<Estimate, Refusal> {
    let statements = super::read(source)?;
    Ok(estimate_program(&statements))
}

pub(crate) fn estimate_program(program: &[Statement]) -> Estimate {
    let mut e = Estimator::default();
    for statement in program {
        if let Statement::Function(f) = statement {
            e.functions.insert(f.key(), f.clone());
        }
    }
    e.block(program);
    Estimate {
        steps: e.steps,
        complete: !e.over && !e.cut,
        dearest: e.dearest.1,
    }
}

/// A die in one case: its values' range (over every case it stands for),
/// how wide its table is and how many values have a way in one case, the
/// values themselves where known, and the bits of its total count.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct DieShape {
    lo: i64,
    hi: i64,
    width: u64,
    faces: u64,
    support: Option<Rc<[i64]>>,
    bits: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Seq {
    items: Option<Rc<[i64]>>,
    len: (u64, u64),
    values: (i64, i64),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Shape {
    Number(i64, i64),
    Sequence(Seq),
    /// `None`: the empty die.
    Die(Option<DieShape>),
    Pool(Vec<(Option<DieShape>, u64)>),
}

/// A range of numbers, both ends included.
type Range = (i64, i64);

fn clamp(x: i128) -> i64 {
    x.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

fn span_width(lo: i64, hi: i64) -> u64 {
    (i128::from(hi) - i128::from(lo) + 1).clamp(1, i128::from(u64::MAX)) as u64
}

fn bits_of(n: u64) -> u64 {
    u64::from(64 - n.leading_zeros()).max(1)
}

impl DieShape {
    /// A number, known or one of a range, as a die: one value per case.
    fn constant(lo: i64, hi: i64) -> DieShape {
        DieShape {
            lo,
            hi,
            width: 1,
            faces: 1,
            support: (lo == hi).then(|| Rc::from(vec![lo])),
            bits: 1,
        }
    }

    /// Every value from `lo` to `hi`.
    fn dense(lo: i64, hi: i64, bits: u64) -> DieShape {
        let width = span_width(lo, hi);
        DieShape {
            lo,
            hi,
            width,
            faces: width,
            support: None,
            bits,
        }
    }

    fn of_values(mut values: Vec<i64>, bits: u64) -> Option<DieShape> {
        values.sort_unstable();
        values.dedup();
        let (&lo, &hi) = (values.first()?, values.last()?);
        Some(DieShape {
            lo,
            hi,
            width: span_width(lo, hi),
            faces: values.len() as u64,
            support: (values.len() <= SUPPORT).then(|| Rc::from(values)),
            bits,
        })
    }

    /// The values one by one, where known and few.
    fn cases(&self) -> Option<Vec<i64>> {
        match &self.support {
            Some(s) => Some(s.to_vec()),
            None if self.faces == self.width
                && self.width == span_width(self.lo, self.hi)
                && self.width as usize <= LISTED_CASES =>
            {
                Some((self.lo..=self.hi).collect())
            }
            None => None,
        }
    }

    fn spread(&self) -> f64 {
        (self.width - 1) as f64
    }

    fn negated(&self) -> DieShape {
        DieShape {
            lo: clamp(-i128::from(self.hi)),
            hi: clamp(-i128::from(self.lo)),
            support: self
                .support
                .as_ref()
                .map(|s| s.iter().rev().map(|v| clamp(-i128::from(*v))).collect()),
            ..self.clone()
        }
    }

    fn join(&self, other: &DieShape) -> DieShape {
        let support = match (&self.support, &other.support) {
            (Some(a), Some(b)) => {
                let mut all: Vec<i64> = a.iter().chain(b.iter()).copied().collect();
                all.sort_unstable();
                all.dedup();
                (all.len() <= SUPPORT).then(|| Rc::from(all))
            }
            _ => None,
        };
        DieShape {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
            width: self.width.max(other.width),
            faces: self.faces.max(other.faces),
            support,
            bits: self.bits.max(other.bits),
        }
    }
}

impl Seq {
    fn known(items: Vec<i64>) -> Seq {
        let values = (
            items.iter().copied().min().unwrap_or(0),
            items.iter().copied().max().unwrap_or(0),
        );
        let len = (items.len() as u64, items.len() as u64);
        Seq {
            items: (items.len() <= ITEMS).then(|| Rc::from(items)),
            len,
            values,
        }
    }

    fn sum(&self) -> (i64, i64) {
        if let Some(items) = &self.items {
            let s = clamp(items.iter().map(|&v| i128::from(v)).sum());
            return (s, s);
        }
        let (l0, l1) = (i128::from(self.len.0), i128::from(self.len.1));
        let (v0, v1) = (i128::from(self.values.0), i128::from(self.values.1));
        (clamp((l0 * v0).min(l1 * v0)), clamp((l1 * v1).max(l0 * v1)))
    }

    fn join(&self, other: &Seq) -> Seq {
        if self == other {
            return self.clone();
        }
        let (a, b) = match (self.len.1, other.len.1) {
            (0, _) => (other.values, other.values),
            (_, 0) => (self.values, self.values),
            _ => (self.values, other.values),
        };
        Seq {
            items: None,
            len: (self.len.0.min(other.len.0), self.len.1.max(other.len.1)),
            values: (a.0.min(b.0), a.1.max(b.1)),
        }
    }
}

impl Shape {
    fn known(&self) -> Option<Value> {
        match self {
            Shape::Number(lo, hi) if lo == hi => Some(Value::Number(*lo)),
            Shape::Sequence(Seq { items: Some(s), .. }) => Some(Value::Sequence(s.clone())),
            _ => None,
        }
    }

    fn of(value: Value) -> Shape {
        match value {
            Value::Number(n) => Shape::Number(n, n),
            Value::Sequence(s) => Shape::Sequence(Seq::known(s.to_vec())),
            _ => Shape::Number(0, 0),
        }
    }

    fn number(&self) -> (i64, i64) {
        match self {
            Shape::Number(lo, hi) => (*lo, *hi),
            Shape::Sequence(s) => s.sum(),
            _ => (0, 0),
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            Shape::Die(d) => d.is_none(),
            Shape::Pool(p) => p.iter().any(|(d, _)| d.is_none()),
            _ => false,
        }
    }
}

fn pool_size(groups: &[(Option<DieShape>, u64)]) -> u64 {
    groups.iter().map(|(_, n)| n).sum()
}

fn join(a: Shape, b: Shape) -> Shape {
    use Shape::*;
    match (a, b) {
        (Number(a0, a1), Number(b0, b1)) => Number(a0.min(b0), a1.max(b1)),
        (Sequence(x), Sequence(y)) => Sequence(x.join(&y)),
        (Number(lo, hi), Sequence(s)) | (Sequence(s), Number(lo, hi)) => Sequence(s.join(&Seq {
            items: None,
            len: (1, 1),
            values: (lo, hi),
        })),
        (Die(x), Die(y)) => Die(match (x, y) {
            (Some(x), Some(y)) => Some(x.join(&y)),
            (x, y) => x.or(y),
        }),
        (Die(d), n @ (Number(..) | Sequence(_))) | (n @ (Number(..) | Sequence(_)), Die(d)) => {
            let (lo, hi) = n.number();
            let c = DieShape::constant(lo, hi);
            Die(Some(d.map_or(c.clone(), |d| d.join(&c))))
        }
        (Pool(p), Pool(q)) => Pool(if pool_size(&p) >= pool_size(&q) { p } else { q }),
        (p @ Pool(_), _) | (_, p @ Pool(_)) => p,
    }
}

fn join_maybe(a: Option<Shape>, b: Option<Shape>) -> Option<Shape> {
    match (a, b) {
        (Some(a), Some(b)) => Some(join(a, b)),
        (a, b) => a.or(b),
    }
}

/// How a block may end: `result` is what a `result:` on some path gives,
/// `surely` whether every path gives one.
struct Flow {
    result: Option<Shape>,
    surely: bool,
}

/// A function's price and result by its key, its arguments' shapes, the
/// depth and settings, and the callers' variables it reads (a function
/// sees its callers' variables).
type Memo = FnvMap<(String, Vec<Shape>, Vec<Option<Shape>>, u32, Settings), (f64, Shape)>;

#[derive(Default)]
struct Estimator {
    frames: Frames<Shape>,
    functions: FnvMap<String, std::sync::Arc<Function>>,
    settings: Settings,
    depth: u32,
    steps: f64,
    ticks: u64,
    over: bool,
    /// Recursion was cut at [`DEPTH`]: the price is a lower bound, but the
    /// rest of the program is still priced.
    cut: bool,
    memo: Memo,
    /// Each function's free variables: the names its body, and the
    /// functions it calls, read.
    free: FnvMap<String, Rc<[String]>>,
    /// The part being priced, and the dearest single charge with its part.
    at: Option<(String, Place)>,
    dearest: (f64, Option<(String, Place)>),
}

/// How an argument is expanded into cases.
enum Cases {
    /// Each case, followed one by one.
    Each(Vec<Shape>),
    /// One shape for all `n` cases.
    All(Shape, f64),
}

mod calls;
mod flow;
mod operations;

/// A die's cases for a parameter: each value while they are few, else
/// one shape for all.
fn cases(d: &DieShape, shape: impl Fn(i64) -> Shape) -> Cases {
    match d.cases() {
        Some(values) if values.len() <= LISTED_CASES => {
            Cases::Each(values.into_iter().map(shape).collect())
        }
        _ => {
            let mut all = shape(d.lo);
            all = join(all, shape(d.hi));
            Cases::All(all, d.faces as f64)
        }
    }
}

/// The variables `statements` read and the functions they call.
fn reads(
    statements: &[Statement],
    names: &mut std::collections::BTreeSet<String>,
    calls: &mut Vec<String>,
) {
    let expr =
        |e: &Expr, names: &mut std::collections::BTreeSet<String>, calls: &mut Vec<String>| {
            e.visit(
                &mut |name| {
                    names.insert(name.to_string());
                },
                &mut |call| calls.push(call.key.clone()),
            )
        };
    for statement in statements {
        match statement {
            Statement::Output { value, .. }
            | Statement::Assign(_, value)
            | Statement::Result(value) => expr(value, names, calls),
            Statement::Function(_) => {}
            Statement::If {
                branches,
                otherwise,
            } => {
                for (condition, body, _) in branches {
                    expr(condition, names, calls);
                    reads(body, names, calls);
                }
                if let Some(body) = otherwise {
                    reads(body, names, calls);
                }
            }
            Statement::Loop { over, body, .. } => {
                expr(over, names, calls);
                reads(body, names, calls);
            }
            Statement::Set { value, .. } => {
                if let Setting::Value(e) = value {
                    expr(e, names, calls);
                }
            }
        }
    }
}

/// Every sorted roll of a collection, each once, where its dice's values
/// are known and the rolls few; highest first if asked.
fn sorted_rolls(groups: &[(Option<DieShape>, u64)], highest_first: bool) -> Option<Vec<Vec<i64>>> {
    let mut rolls: Vec<Vec<i64>> = vec![Vec::new()];
    for (die, count) in groups {
        let faces = die.as_ref()?.cases()?;
        if sorted_roll_count(*count, faces.len()) * rolls.len() as f64 > FOLLOWED_CASES as f64 {
            return None;
        }
        let mut sets: Vec<Vec<i64>> = vec![Vec::new()];
        for _ in 0..*count {
            sets = sets
                .into_iter()
                .flat_map(|set| {
                    let from = set
                        .last()
                        .map_or(0, |last| faces.iter().position(|f| f == last).unwrap_or(0));
                    faces[from..].iter().map(move |f| {
                        let mut next = set.clone();
                        next.push(*f);
                        next
                    })
                })
                .collect();
        }
        let mut next: Vec<Vec<i64>> = rolls
            .iter()
            .flat_map(|r| {
                sets.iter().map(move |s| {
                    let mut merged: Vec<i64> = r.iter().chain(s.iter()).copied().collect();
                    merged.sort_unstable();
                    merged
                })
            })
            .collect();
        next.sort_unstable();
        next.dedup();
        rolls = next;
    }
    if highest_first {
        for roll in &mut rolls {
            roll.reverse();
        }
    }
    Some(rolls)
}

/// `a op b` over ranges of numbers: the range of the results.
fn interval(op: Binary, a: (i64, i64), b: (i64, i64)) -> (i64, i64) {
    use Binary::*;
    let wide = |x: i128, y: i128| (clamp(x.min(y)), clamp(x.max(y)));
    let (a0, a1, b0, b1) = (
        i128::from(a.0),
        i128::from(a.1),
        i128::from(b.0),
        i128::from(b.1),
    );
    match op {
        Add => (clamp(a0 + b0), clamp(a1 + b1)),
        Subtract => (clamp(a0 - b1), clamp(a1 - b0)),
        Multiply => {
            let c = [
                a0.saturating_mul(b0),
                a0.saturating_mul(b1),
                a1.saturating_mul(b0),
                a1.saturating_mul(b1),
            ];
            wide(
                *c.iter().min().expect("four"),
                *c.iter().max().expect("four"),
            )
        }
        Divide => {
            let m = a0.abs().max(a1.abs());
            if a0 >= 0 && b0 > 0 {
                (clamp(a0 / b1), clamp(a1 / b0))
            } else {
                (clamp(-m), clamp(m))
            }
        }
        Power => {
            if a0 == a1 && b0 == b1 {
                let v = numbers(Power, a.0, b.0, true).unwrap_or(i64::MAX);
                (v, v)
            } else {
                let m = a0.abs().max(a1.abs());
                let e = b1.clamp(0, 64) as u32;
                let top = m.checked_pow(e).unwrap_or(i128::MAX);
                (clamp(-top), clamp(top))
            }
        }
        _ => {
            if a0 == a1 && b0 == b1 {
                let v = numbers(op, a.0, b.0, false).unwrap_or(0);
                (v, v)
            } else {
                (0, 1)
            }
        }
    }
}

#[cfg(test)]
mod tests;
