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
use super::run::{Frames, MAX_SETTING};
use super::syntax::*;
use super::value::Value;
use super::work::{self, Work, STEPS_PER_SECOND};
use super::{library, Place, Refusal, Settings};
use crate::engine::sorted_roll_count;
use std::collections::HashMap;
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
            Shape::Sequence(Seq { items: Some(s), .. }) => Some(Value::Sequence(s.to_vec())),
            _ => None,
        }
    }

    fn of(value: Value) -> Shape {
        match value {
            Value::Number(n) => Shape::Number(n, n),
            Value::Sequence(s) => Shape::Sequence(Seq::known(s)),
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
type Memo = HashMap<(String, Vec<Shape>, Vec<Option<Shape>>, u32, Settings), (f64, Shape)>;

#[derive(Default)]
struct Estimator {
    frames: Frames<Shape>,
    functions: HashMap<String, Rc<Function>>,
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
    free: HashMap<String, Rc<[String]>>,
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

impl Estimator {
    fn tick(&mut self, n: u64) {
        self.ticks += n;
        if self.ticks > MAX_TICKS {
            self.over = true;
        }
    }

    fn charge(&mut self, steps: f64) {
        self.steps += steps.max(0.0);
        if steps > self.dearest.0 {
            self.dearest = (steps, self.at.clone());
        }
    }

    fn assign(&mut self, name: &str, value: Shape) {
        self.frames.assign(name, value);
    }

    fn variable(&self, name: &str) -> Option<&Shape> {
        self.frames.variable(name)
    }

    fn block(&mut self, statements: &[Statement]) -> Flow {
        let mut result = None;
        for statement in statements {
            if self.over {
                break;
            }
            let flow = self.statement(statement);
            result = join_maybe(result, flow.result);
            if flow.surely {
                return Flow {
                    result,
                    surely: true,
                };
            }
        }
        Flow {
            result,
            surely: false,
        }
    }

    fn statement(&mut self, statement: &Statement) -> Flow {
        let next = Flow {
            result: None,
            surely: false,
        };
        match statement {
            Statement::Output { value, .. } => {
                let v = self.expression(value);
                self.shown(&v);
            }
            Statement::Assign(name, value) => {
                let v = self.expression(value);
                self.assign(name, v);
            }
            Statement::Function(f) => {
                self.functions.insert(f.key(), f.clone());
            }
            Statement::If {
                branches,
                otherwise,
            } => return self.branches(branches, otherwise.as_deref()),
            Statement::Loop {
                variable,
                over,
                body,
                at,
            } => {
                let outer = self.at.replace(("a loop".to_string(), *at));
                let flow = self.looped(variable, over, body);
                self.at = outer;
                return flow;
            }
            Statement::Set { setting, value, .. } => self.set(setting, value),
            Statement::Result(value) => {
                return Flow {
                    result: Some(self.expression(value)),
                    surely: true,
                }
            }
        }
        next
    }

    /// An `if` chain: a known condition picks its branch; an unknown one
    /// follows both ways, keeps the dearer price and either way's values.
    fn branches(
        &mut self,
        branches: &[(Expr, Vec<Statement>, Place)],
        otherwise: Option<&[Statement]>,
    ) -> Flow {
        let Some(((condition, body, _), rest)) = branches.split_first() else {
            return match otherwise {
                Some(body) => self.block(body),
                None => Flow {
                    result: None,
                    surely: false,
                },
            };
        };
        let (lo, hi) = match self.expression(condition) {
            Shape::Number(lo, hi) => (lo, hi),
            _ => (i64::MIN, i64::MAX),
        };
        if lo == 0 && hi == 0 {
            return self.branches(rest, otherwise);
        }
        if lo > 0 || hi < 0 {
            return self.block(body);
        }
        let (frames, before) = (self.frames.clone(), self.steps);
        let narrowed = self.narrowed(condition);
        if let Some((name, yes, _)) = &narrowed {
            self.assign(name, Shape::Number(yes.0, yes.1));
        }
        let taken = self.block(body);
        let (taken_frames, taken_steps) = (std::mem::replace(&mut self.frames, frames), self.steps);
        self.steps = before;
        if let Some((name, _, no)) = narrowed {
            self.assign(&name, Shape::Number(no.0, no.1));
        }
        let other = self.branches(rest, otherwise);
        self.steps = self.steps.max(taken_steps);
        for (mine, theirs) in self.frames.0.iter_mut().zip(taken_frames.0) {
            for (name, value) in theirs {
                let joined = match mine.remove(&name) {
                    Some(v) => join(v, value),
                    None => value,
                };
                mine.insert(name, joined);
            }
        }
        Flow {
            result: join_maybe(taken.result, other.result),
            surely: taken.surely && other.surely,
        }
    }

    /// A condition comparing a variable with a known number: the
    /// variable's range where it holds, and where it does not.
    fn narrowed(&self, condition: &Expr) -> Option<(String, Range, Range)> {
        let Expr::Binary(op, a, b, _) = condition else {
            return None;
        };
        let known = |e: &Expr| match e {
            Expr::Number(n) => Some(*n),
            Expr::Variable(v, _) => match self.variable(v) {
                Some(Shape::Number(lo, hi)) if lo == hi => Some(*lo),
                _ => None,
            },
            _ => None,
        };
        let (name, n, op) = match (a.as_ref(), b.as_ref()) {
            (Expr::Variable(v, _), other) if known(other).is_some() => (v, known(other)?, *op),
            (other, Expr::Variable(v, _)) if known(other).is_some() => {
                use Binary::*;
                let flipped = match op {
                    Less => Greater,
                    Greater => Less,
                    AtMost => AtLeast,
                    AtLeast => AtMost,
                    other => *other,
                };
                (v, known(other)?, flipped)
            }
            _ => return None,
        };
        let Some(Shape::Number(lo, hi)) = self.variable(name) else {
            return None;
        };
        let (lo, hi) = (*lo, *hi);
        use Binary::*;
        // Not `n`: the range without it where it is an end.
        let without = match n {
            _ if n == lo => (lo.saturating_add(1), hi),
            _ if n == hi => (lo, hi.saturating_sub(1)),
            _ => (lo, hi),
        };
        let (yes, no) = match op {
            Equal => ((n, n), without),
            NotEqual => (without, (n, n)),
            Less => ((lo, n.saturating_sub(1)), (n, hi)),
            AtMost => ((lo, n), (n.saturating_add(1), hi)),
            Greater => ((n.saturating_add(1), hi), (lo, n)),
            AtLeast => ((n, hi), (lo, n.saturating_sub(1))),
            _ => return None,
        };
        let within = |(a, b): (i64, i64)| (a.max(lo), b.min(hi));
        let (yes, no) = (within(yes), within(no));
        (yes.0 <= yes.1 && no.0 <= no.1).then(|| (name.clone(), yes, no))
    }

    fn looped(&mut self, variable: &str, over: &Expr, body: &[Statement]) -> Flow {
        let (items, len, values) = match self.expression(over) {
            Shape::Number(lo, hi) => ((lo == hi).then(|| vec![lo]), 1, Shape::Number(lo, hi)),
            Shape::Sequence(s) => (
                s.items.as_ref().map(|i| i.to_vec()),
                s.len.1,
                Shape::Number(s.values.0, s.values.1),
            ),
            // Refused by the run at once.
            _ => return self.block(&[]),
        };
        let mut result = None;
        let (start, mut done, mut last) = (self.steps, 0u64, 0.0f64);
        while done < len && !self.over {
            let before = self.steps;
            self.charge(1.0);
            let value = match &items {
                Some(items) => Shape::Number(items[done as usize], items[done as usize]),
                None => values.clone(),
            };
            self.assign(variable, value);
            let flow = self.block(body);
            result = join_maybe(result, flow.result);
            if flow.surely {
                return Flow {
                    result,
                    surely: true,
                };
            }
            done += 1;
            last = self.steps - before;
            if done >= TURNS as u64 {
                break;
            }
        }
        // The turns not followed (past TURNS, or past the estimate's own
        // bound) are priced as the dearer of the last and the mean.
        if done > 0 && done < len {
            let mean = (self.steps - start) / done as f64;
            self.charge(last.max(mean) * (len - done) as f64);
        }
        Flow {
            result,
            surely: false,
        }
    }

    fn set(&mut self, setting: &str, value: &Setting) {
        let number = match value {
            Setting::Value(e) => match self.expression(e) {
                Shape::Number(lo, hi) if lo == hi => Some(lo),
                _ => None,
            },
            Setting::Text(_) => None,
        }
        .filter(|n| (1..=MAX_SETTING).contains(n));
        match (setting, number, value) {
            ("explode depth", Some(n), _) => self.settings.explode_depth = n as u32,
            ("maximum function depth", Some(n), _) => self.settings.max_depth = n as u32,
            ("position order", _, Setting::Text(t)) => {
                self.settings.highest_first = t != "lowest first"
            }
            _ => {}
        }
    }

    fn expression(&mut self, e: &Expr) -> Shape {
        if self.over {
            return Shape::Number(0, 0);
        }
        self.tick(1);
        self.charge(1.0);
        match e {
            Expr::Number(n) => Shape::Number(*n, *n),
            Expr::Variable(name, _) => self.variable(name).cloned().unwrap_or(Shape::Number(0, 0)),
            Expr::Sequence(parts) => Shape::Sequence(self.sequence(parts)),
            Expr::Unary(op, operand) => {
                let v = self.expression(operand);
                self.unary(*op, v)
            }
            Expr::Binary(op, a, b, place) => {
                let x = self.expression(a);
                let y = self.expression(b);
                let what = match op {
                    Binary::At => "picking dice (@)",
                    Binary::Dice => "dice (d)",
                    _ => "an operation on dice",
                };
                let outer = self.at.replace((what.to_string(), *place));
                let v = match op {
                    Binary::At => self.at(&x, &y),
                    Binary::Dice => self.dice(&x, &y),
                    _ => self.binary(*op, &x, &y),
                };
                self.at = outer;
                v
            }
            Expr::Call(parts, place) => {
                let name = call_key(parts);
                let outer = self.at.replace((format!("the call [{name}]"), *place));
                let v = self.call(parts);
                self.at = outer;
                v
            }
        }
    }

    fn sequence(&mut self, parts: &[Part]) -> Seq {
        let mut out = Seq::known(Vec::new());
        for part in parts {
            let value = self.expression(&part.value);
            let times = match &part.times {
                Some(t) => {
                    let (lo, hi) = self.expression(t).number();
                    (lo.max(0) as u64, hi.max(0) as u64)
                }
                None => (1, 1),
            };
            let one = match &part.to {
                Some(to) => {
                    let (from, to) = (value.number(), self.expression(to).number());
                    let len = |a: i64, b: i64| (i128::from(b) - i128::from(a) + 1).max(0) as u64;
                    let lens = (len(from.1, to.0), len(from.0, to.1));
                    self.charge(lens.1 as f64 * times.1 as f64);
                    if from.0 == from.1 && to.0 == to.1 && lens.1 as usize <= ITEMS {
                        Seq::known((from.0..=to.0).collect())
                    } else {
                        Seq {
                            items: None,
                            len: lens,
                            values: (from.0, to.1),
                        }
                    }
                }
                None => match value {
                    Shape::Number(lo, hi) if lo == hi => Seq::known(vec![lo]),
                    Shape::Number(lo, hi) => Seq {
                        items: None,
                        len: (1, 1),
                        values: (lo, hi),
                    },
                    Shape::Sequence(s) => s,
                    die => match self.as_die(&die) {
                        None => Seq::known(Vec::new()),
                        Some(d) => match d.cases() {
                            Some(values) => Seq::known(values),
                            None => Seq {
                                items: None,
                                len: (1, d.faces),
                                values: (d.lo, d.hi),
                            },
                        },
                    },
                },
            };
            self.charge(one.len.1 as f64 * times.1 as f64);
            let repeated = match (&one.items, times.0 == times.1) {
                (Some(items), true) if items.len() * times.0 as usize <= ITEMS => {
                    Seq::known(items.repeat(times.0 as usize))
                }
                _ => Seq {
                    items: None,
                    len: (
                        one.len.0.saturating_mul(times.0),
                        one.len.1.saturating_mul(times.1),
                    ),
                    values: one.values,
                },
            };
            out = match (&out.items, &repeated.items) {
                (Some(a), Some(b)) if a.len() + b.len() <= ITEMS => {
                    Seq::known(a.iter().chain(b.iter()).copied().collect())
                }
                _ if out.len.1 == 0 => repeated,
                _ if repeated.len.1 == 0 => out,
                _ => Seq {
                    items: None,
                    len: (
                        out.len.0.saturating_add(repeated.len.0),
                        out.len.1.saturating_add(repeated.len.1),
                    ),
                    values: (
                        out.values.0.min(repeated.values.0),
                        out.values.1.max(repeated.values.1),
                    ),
                },
            };
        }
        out
    }

    /// The price of a die spreading over `spread` values ([`Work::spread`]).
    fn spread(&mut self, spread: f64) {
        self.charge(spread.min(work::MAX_SPREAD));
    }

    fn sum_pool(&mut self, groups: &[(Option<DieShape>, u64)]) -> Option<DieShape> {
        let mut total = DieShape::constant(0, 0);
        for (die, count) in groups {
            let die = die.as_ref()?;
            if *count == 0 {
                continue;
            }
            self.sum_price(die, *count);
            let n = i128::from(*count);
            let next = DieShape {
                lo: clamp(i128::from(total.lo) + i128::from(die.lo) * n),
                hi: clamp(i128::from(total.hi) + i128::from(die.hi) * n),
                width: total.width + (die.width - 1).saturating_mul(*count),
                faces: 0,
                support: None,
                bits: total.bits + die.bits.saturating_mul(*count),
            };
            let support: Option<Rc<[i64]>> = match (&total.support, &die.support) {
                (Some(t), Some(d)) if *count <= 64 && !self.over => {
                    let mut sums = t.to_vec();
                    for _ in 0..*count {
                        sums = self.sums(&sums, d);
                        if sums.len() > SUPPORT || self.over {
                            break;
                        }
                    }
                    (sums.len() <= SUPPORT).then(|| Rc::from(sums))
                }
                _ => None,
            };
            self.spread(next.spread());
            total = DieShape {
                faces: support.as_ref().map_or(next.width, |s| s.len() as u64),
                support,
                ..next
            };
        }
        Some(total)
    }

    /// The price of summing `count` dice like `die` ([`ops::sum_pool`]).
    fn sum_price(&mut self, die: &DieShape, count: u64) {
        self.charge(work::pool_sum_price(die.width as f64, count as f64));
    }

    /// Every sum of a value of `a` and one of `b`.
    fn sums(&mut self, a: &[i64], b: &[i64]) -> Vec<i64> {
        self.tick((a.len() * b.len() / 64) as u64);
        let mut out: Vec<i64> = a
            .iter()
            .flat_map(|x| b.iter().map(move |y| x.saturating_add(*y)))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    fn as_die(&mut self, value: &Shape) -> Option<DieShape> {
        match value {
            Shape::Number(lo, hi) => Some(DieShape::constant(*lo, *hi)),
            Shape::Sequence(s) => {
                let (lo, hi) = s.sum();
                Some(DieShape::constant(lo, hi))
            }
            Shape::Die(d) => d.clone(),
            Shape::Pool(p) => self.sum_pool(p),
        }
    }

    fn die_of_faces(&mut self, s: &Seq) -> Option<DieShape> {
        let d = match &s.items {
            Some(items) => DieShape::of_values(items.to_vec(), bits_of(items.len() as u64))?,
            None if s.len.1 == 0 => return None,
            None => DieShape {
                faces: s.len.1.min(span_width(s.values.0, s.values.1)),
                bits: bits_of(s.len.1),
                ..DieShape::dense(s.values.0, s.values.1, 1)
            },
        };
        self.spread(d.spread());
        Some(d)
    }

    fn shown(&mut self, value: &Shape) {
        match value {
            Shape::Sequence(s) => {
                self.die_of_faces(s);
            }
            other => {
                self.as_die(other);
            }
        }
    }

    fn faces_of(&mut self, value: &Shape) -> Option<DieShape> {
        match value {
            Shape::Number(0, 0) => Some(DieShape::constant(0, 0)),
            Shape::Number(lo, hi) => {
                let most = lo.unsigned_abs().max(hi.unsigned_abs());
                self.spread(most as f64);
                let (a, b) = if *lo >= 1 {
                    (1, *hi)
                } else if *hi <= -1 {
                    (*lo, -1)
                } else {
                    (*lo.min(&0), *hi.max(&0))
                };
                let mut d = DieShape::dense(a, b, bits_of(most));
                if lo != hi {
                    d.width = most;
                    d.faces = most;
                }
                self.spread(d.spread());
                Some(d)
            }
            Shape::Sequence(s) => self.die_of_faces(s),
            Shape::Die(d) => d.clone(),
            Shape::Pool(p) => self.sum_pool(p),
        }
    }

    fn unary(&mut self, op: Unary, value: Shape) -> Shape {
        let value = match value {
            Shape::Sequence(s) if matches!(op, Unary::Minus | Unary::Not) => {
                let (lo, hi) = s.sum();
                Shape::Number(lo, hi)
            }
            other => other,
        };
        match (op, value) {
            (Unary::Plus, v) => v,
            (Unary::Length, v) => match v {
                Shape::Number(lo, hi) => {
                    let digits = |n: i64| n.unsigned_abs().to_string().len() as i64;
                    if lo == hi {
                        Shape::Number(digits(lo), digits(lo))
                    } else {
                        Shape::Number(1, digits(lo).max(digits(hi)))
                    }
                }
                Shape::Sequence(s) => Shape::Number(s.len.0 as i64, s.len.1 as i64),
                Shape::Die(d) => {
                    let n = i64::from(d.is_some());
                    Shape::Number(n, n)
                }
                Shape::Pool(p) => {
                    let n = pool_size(&p) as i64;
                    Shape::Number(n, n)
                }
            },
            (Unary::Die, v) => match v {
                Shape::Die(_) | Shape::Pool(_) => v,
                faces => Shape::Die(self.faces_of(&faces)),
            },
            (Unary::Minus, Shape::Number(lo, hi)) => {
                Shape::Number(clamp(-i128::from(hi)), clamp(-i128::from(lo)))
            }
            (Unary::Not, Shape::Number(lo, hi)) => match (lo, hi) {
                (0, 0) => Shape::Number(1, 1),
                _ if lo > 0 || hi < 0 => Shape::Number(0, 0),
                _ => Shape::Number(0, 1),
            },
            (Unary::Minus, Shape::Pool(p)) => Shape::Pool(
                p.iter()
                    .map(|(d, n)| {
                        let d = d.as_ref().map(|d| {
                            self.spread(d.spread());
                            d.negated()
                        });
                        (d, *n)
                    })
                    .collect(),
            ),
            (op, v) => {
                let Some(die) = self.as_die(&v) else {
                    return Shape::Die(None);
                };
                self.charge(die.width as f64);
                Shape::Die(Some(match op {
                    Unary::Minus => {
                        self.spread(die.spread());
                        die.negated()
                    }
                    _ => DieShape {
                        lo: i64::from(die.hi < 0 || die.lo > 0 || die.lo == die.hi),
                        hi: i64::from(die.lo <= 0 && die.hi >= 0),
                        width: die.width.min(2),
                        faces: die.faces.min(2),
                        support: None,
                        bits: die.bits,
                    },
                }))
            }
        }
    }

    fn binary(&mut self, op: Binary, a: &Shape, b: &Shape) -> Shape {
        // Known numbers and sequences: the run's own operator, which does
        // no priced work on them.
        if let (Some(x), Some(y)) = (a.known(), b.known()) {
            let mut free = Work::new(0.0);
            return ops::binary(op, &x, &y, &mut free).map_or(Shape::Number(0, 0), Shape::of);
        }
        if op.is_comparison() {
            self.comparison(op, a, b)
        } else {
            self.arithmetic(op, a, b)
        }
    }

    fn arithmetic(&mut self, op: Binary, a: &Shape, b: &Shape) -> Shape {
        let (ea, eb) = (a.is_empty(), b.is_empty());
        if ea && eb {
            return Shape::Die(None);
        }
        let zero = Shape::Number(0, 0);
        let (a, b) = match op {
            Binary::Add | Binary::Subtract | Binary::Or if ea => {
                if matches!(b, Shape::Pool(_)) {
                    return b.clone();
                }
                (&zero, b)
            }
            Binary::Add | Binary::Subtract | Binary::Or if eb => {
                if matches!(a, Shape::Pool(_)) {
                    return a.clone();
                }
                (a, &zero)
            }
            _ if ea || eb => return Shape::Die(None),
            _ => (a, b),
        };
        if matches!(a, Shape::Number(..) | Shape::Sequence(_))
            && matches!(b, Shape::Number(..) | Shape::Sequence(_))
        {
            let (lo, hi) = interval(op, a.number(), b.number());
            return Shape::Number(lo, hi);
        }
        let (Some(x), Some(y)) = (self.as_die(a), self.as_die(b)) else {
            return Shape::Die(None);
        };
        Shape::Die(Some(self.combine(op, &x, &y)))
    }

    fn comparison(&mut self, op: Binary, a: &Shape, b: &Shape) -> Shape {
        let a = match a {
            Shape::Pool(p) => Shape::Die(self.sum_pool(p)),
            other => other.clone(),
        };
        let b = match b {
            Shape::Pool(p) => Shape::Die(self.sum_pool(p)),
            other => other.clone(),
        };
        if a.is_empty() || b.is_empty() {
            return Shape::Die(None);
        }
        match (&a, &b) {
            (Shape::Sequence(_), Shape::Sequence(_)) => Shape::Number(0, 1),
            (Shape::Sequence(s), Shape::Number(..)) | (Shape::Number(..), Shape::Sequence(s)) => {
                Shape::Number(0, s.len.1 as i64)
            }
            (Shape::Number(..), Shape::Number(..)) => {
                let (lo, hi) = interval(op, a.number(), b.number());
                Shape::Number(lo, hi)
            }
            _ => {
                let (Some(x), Some(y)) = (self.as_die(&a), self.as_die(&b)) else {
                    return Shape::Die(None);
                };
                Shape::Die(Some(self.combine(op, &x, &y)))
            }
        }
    }

    /// `x op y` value by value: the run's price, and the die it makes.
    fn combine(&mut self, op: Binary, x: &DieShape, y: &DieShape) -> DieShape {
        let bits = x.bits + y.bits;
        self.charge(work::counts_price(
            x.width as f64 * y.width as f64,
            bits as f64,
        ));
        let exact = match (&x.support, &y.support) {
            (Some(a), Some(b)) if a.len() * b.len() <= 1 << 14 => {
                self.tick((a.len() * b.len() / 64) as u64);
                let values: Vec<i64> = if op == Binary::Add {
                    self.sums(a, b)
                } else {
                    a.iter()
                        .flat_map(|p| b.iter().filter_map(move |q| numbers(op, *p, *q, true).ok()))
                        .collect()
                };
                DieShape::of_values(values, bits)
            }
            _ => None,
        };
        let d = exact.unwrap_or_else(|| {
            let (lo, hi) = interval(op, (x.lo, x.hi), (y.lo, y.hi));
            let span = span_width(lo, hi);
            let width = match op {
                Binary::Add | Binary::Subtract => x.width + y.width - 1,
                _ => x.width.saturating_mul(y.width),
            }
            .min(span);
            DieShape {
                lo,
                hi,
                width,
                faces: x.faces.saturating_mul(y.faces).min(width),
                support: None,
                bits,
            }
        });
        self.spread(d.spread());
        d
    }

    fn dice(&mut self, count: &Shape, faces: &Shape) -> Shape {
        let count = match count {
            Shape::Sequence(s) => {
                let (lo, hi) = s.sum();
                Shape::Number(lo, hi)
            }
            Shape::Pool(p) => Shape::Die(self.sum_pool(p)),
            other => other.clone(),
        };
        match count {
            Shape::Number(lo, hi) => {
                if lo == 1 && hi == 1 {
                    if let Shape::Pool(_) = faces {
                        return faces.clone();
                    }
                }
                let die = self.faces_of(faces);
                // An unknown count: the dearer end.
                let n = if lo.unsigned_abs() > hi.unsigned_abs() {
                    lo
                } else {
                    hi
                };
                self.roll_n(n, die)
            }
            Shape::Die(None) => Shape::Pool(vec![(None, 1)]),
            Shape::Die(Some(counts)) => {
                let Some(die) = self.faces_of(faces) else {
                    return Shape::Pool(vec![(None, 1)]);
                };
                let ns: Vec<i64> = counts.cases().unwrap_or_else(|| {
                    let step = (counts.width / 256).max(1);
                    (0..counts.width.min(256))
                        .map(|i| clamp(i128::from(counts.lo) + i128::from(i * step)))
                        .collect()
                });
                let scale = counts.faces as f64 / ns.len() as f64;
                let before = self.steps;
                // Each count's dice, summed: the price alone (their values
                // are the mixture's, below).
                for &n in &ns {
                    if n < 0 {
                        self.spread(die.spread());
                    }
                    if n != 0 {
                        self.sum_price(&die, n.unsigned_abs());
                        self.spread(die.spread() * n.unsigned_abs() as f64);
                    }
                }
                self.steps = before + (self.steps - before) * scale.max(1.0);
                let (lo, hi) = interval(Binary::Multiply, (counts.lo, counts.hi), (die.lo, die.hi));
                let most = counts.lo.unsigned_abs().max(counts.hi.unsigned_abs());
                Shape::Die(Some(DieShape::dense(
                    lo.min(0),
                    hi.max(0),
                    die.bits.saturating_mul(most) + counts.bits,
                )))
            }
            Shape::Sequence(_) | Shape::Pool(_) => unreachable!("summed above"),
        }
    }

    fn roll_n(&mut self, n: i64, die: Option<DieShape>) -> Shape {
        match (n, die) {
            (_, None) => Shape::Die(None),
            (0, _) => Shape::Number(0, 0),
            (n, Some(d)) if n < 0 => {
                self.spread(d.spread());
                Shape::Pool(vec![(Some(d.negated()), n.unsigned_abs())])
            }
            (n, d) => Shape::Pool(vec![(d, n as u64)]),
        }
    }

    fn at(&mut self, places: &Shape, value: &Shape) -> Shape {
        if let (Some(p), Some(v)) = (places.known(), value.known()) {
            let mut free = Work::new(0.0);
            return ops::at(&p, &v, self.settings.highest_first, &mut free)
                .map_or(Shape::Number(0, 0), Shape::of);
        }
        let picked = match places {
            Shape::Number(lo, hi) => Seq {
                items: (lo == hi).then(|| Rc::from(vec![*lo])),
                len: (1, 1),
                values: (*lo, *hi),
            },
            Shape::Sequence(s) => s.clone(),
            // Refused by the run.
            _ => return Shape::Number(0, 0),
        };
        match value {
            Shape::Number(..) => {
                let k = picked.len.1.min(19) as i64 * 9;
                Shape::Number(-k, k)
            }
            Shape::Sequence(s) => {
                let k = i128::from(picked.len.1);
                Shape::Number(
                    clamp((i128::from(s.values.0) * k).min(0)),
                    clamp((i128::from(s.values.1) * k).max(0)),
                )
            }
            Shape::Die(None) => Shape::Die(None),
            Shape::Die(d) => self.pool_at(&picked, &[(d.clone(), 1)]),
            Shape::Pool(p) => self.pool_at(&picked, p),
        }
    }

    fn pool_at(&mut self, places: &Seq, groups: &[(Option<DieShape>, u64)]) -> Shape {
        let size = pool_size(groups);
        let (reach, total) = match &places.items {
            Some(items) => {
                let within: Vec<u64> = items
                    .iter()
                    .filter(|&&p| p >= 1 && p as u64 <= size)
                    .map(|&p| p as u64)
                    .collect();
                (
                    within.iter().copied().max().unwrap_or(0),
                    within.len() as u64,
                )
            }
            None => (
                size.min(places.values.1.max(0) as u64),
                places.len.1.min(size.max(1) * 64),
            ),
        };
        if total == 0 {
            return Shape::Number(0, 0);
        }
        if groups.iter().any(|(d, _)| d.is_none()) {
            return Shape::Die(None);
        }
        let bits = groups
            .iter()
            .map(|(d, n)| d.as_ref().map_or(0, |d| d.bits.saturating_mul(*n)))
            .sum();
        let lo = groups
            .iter()
            .filter_map(|(d, _)| d.as_ref())
            .map(|d| d.lo)
            .min();
        let hi = groups
            .iter()
            .filter_map(|(d, _)| d.as_ref())
            .map(|d| d.hi)
            .max();
        let (lo, hi) = (lo.unwrap_or(0), hi.unwrap_or(0));
        let t = i128::from(total);
        let (lo, hi) = (clamp(i128::from(lo) * t), clamp(i128::from(hi) * t));
        let spread = (i128::from(hi) - i128::from(lo)) as f64;
        if let [(Some(die), count)] = groups {
            self.charge(work::pick_price(
                die.width as f64,
                reach as f64,
                *count as f64,
                die.spread() * total as f64,
            ));
            self.spread(spread);
            if total == 1 && die.support.is_some() {
                return Shape::Die(Some(DieShape {
                    bits,
                    ..die.clone()
                }));
            }
            return Shape::Die(Some(DieShape::dense(lo, hi, bits)));
        }
        self.listing(groups);
        self.spread(spread);
        Shape::Die(Some(DieShape::dense(lo, hi, bits)))
    }

    /// The price of listing a collection's sorted rolls, and how many
    /// there are ([`ops::sorted_rolls`]).
    fn listing(&mut self, groups: &[(Option<DieShape>, u64)]) -> f64 {
        let size = pool_size(groups) as f64;
        let mut rolls = 1.0;
        for (die, count) in groups {
            let Some(die) = die else {
                return 0.0;
            };
            let sorted = sorted_roll_count(*count, die.faces as usize);
            self.charge(work::listing_price(rolls, sorted, size));
            rolls *= sorted;
        }
        rolls
    }

    fn call(&mut self, parts: &[CallPart]) -> Shape {
        if self.depth >= self.settings.max_depth {
            return Shape::Die(None);
        }
        if self.depth >= DEPTH {
            self.cut = true;
            return Shape::Die(None);
        }
        let key = call_key(parts);
        let mut args = Vec::new();
        for part in parts {
            if let CallPart::Argument(e) = part {
                args.push(self.expression(e));
            }
        }
        if let Some(function) = self.functions.get(&key).cloned() {
            let params = function.params();
            let types: Vec<Type> = params.iter().map(|(_, t)| *t).collect();
            return self.invoke(
                &types,
                args,
                &mut |e, bound| e.body(&key, &function, &params, bound),
                true,
            );
        }
        let Some(builtin) = library::find(&key) else {
            // Refused by the run.
            return Shape::Number(0, 0);
        };
        self.invoke(
            builtin.types,
            args,
            &mut |e, bound| e.builtin(&key, builtin, bound),
            false,
        )
    }

    /// A user function's body for these arguments, priced once.
    fn body(
        &mut self,
        key: &str,
        function: &Function,
        params: &[(String, Type)],
        bound: &[Shape],
    ) -> Shape {
        let seen = self
            .free_variables(key)
            .iter()
            .map(|name| self.variable(name).cloned())
            .collect();
        let memo = (
            key.to_string(),
            bound.to_vec(),
            seen,
            self.depth,
            self.settings,
        );
        if let Some((steps, shape)) = self.memo.get(&memo).cloned() {
            self.steps += steps;
            self.tick(1);
            return shape;
        }
        let before = self.steps;
        self.frames.0.push(HashMap::new());
        for (i, (name, _)) in params.iter().enumerate() {
            if params[..i].iter().all(|(n, _)| n != name) {
                self.assign(name, bound[i].clone());
            }
        }
        let flow = self.block(&function.body);
        self.frames.0.pop();
        let result = match (flow.result, flow.surely) {
            (Some(r), true) => r,
            (r, _) => join_maybe(r, Some(Shape::Die(None))).expect("a shape"),
        };
        if !self.over {
            self.memo
                .insert(memo, (self.steps - before, result.clone()));
        }
        result
    }

    /// The names `key`'s body reads, and those of every function it
    /// calls, found once.
    fn free_variables(&mut self, key: &str) -> Rc<[String]> {
        if let Some(names) = self.free.get(key) {
            return names.clone();
        }
        let mut names = std::collections::BTreeSet::new();
        let (mut todo, mut done) = (vec![key.to_string()], std::collections::HashSet::new());
        while let Some(k) = todo.pop() {
            if !done.insert(k.clone()) {
                continue;
            }
            if let Some(f) = self.functions.get(&k) {
                // Its parameters are its own, whatever the callers hold.
                let mut own = std::collections::BTreeSet::new();
                reads(&f.body, &mut own, &mut todo);
                for part in &f.name {
                    if let NamePart::Parameter(p, _) = part {
                        own.remove(p);
                    }
                }
                names.extend(own);
            }
        }
        let names: Rc<[String]> = names.into_iter().collect();
        self.free.insert(key.to_string(), names.clone());
        names
    }

    fn builtin(&mut self, key: &str, builtin: &library::Builtin, bound: &[Shape]) -> Shape {
        // Numbers and sequences only, all known: the library's own answer
        // (it does no priced work on them).
        if builtin.types.iter().all(|t| *t != Type::Die) {
            if let Some(values) = bound.iter().map(Shape::known).collect::<Option<Vec<_>>>() {
                let mut free = Work::new(0.0);
                return (builtin.run)(&values, &self.settings, &mut free)
                    .map_or(Shape::Number(0, 0), Shape::of);
            }
        }
        let number = |s: &Shape| s.number();
        match key {
            "absolute _" => {
                let (lo, hi) = number(&bound[0]);
                let (a, b) = (lo.unsigned_abs(), hi.unsigned_abs());
                let low = if lo <= 0 && hi >= 0 { 0 } else { a.min(b) };
                Shape::Number(
                    low.min(i64::MAX as u64) as i64,
                    a.max(b).min(i64::MAX as u64) as i64,
                )
            }
            "_ contains _" => Shape::Number(0, 1),
            "count _ in _" => {
                // Each of the sequence's numbers counts the values equal
                // to it: at most the most times a value is written.
                let most = match &bound[0] {
                    Shape::Sequence(Seq { items: Some(v), .. }) => {
                        let mut v = v.to_vec();
                        v.sort_unstable();
                        v.chunk_by(|a, b| a == b)
                            .map(<[i64]>::len)
                            .max()
                            .unwrap_or(0) as u64
                    }
                    Shape::Sequence(s) => s.len.1,
                    _ => 1,
                };
                let len = match &bound[1] {
                    Shape::Sequence(s) => s.len.1,
                    _ => 1,
                };
                Shape::Number(0, clamp(i128::from(most) * i128::from(len)))
            }
            "maximum of _" => match self.as_die(&bound[0]) {
                Some(d) => Shape::Number(d.hi, d.hi),
                None => Shape::Number(0, 0),
            },
            "reverse _" | "sort _" => bound[0].clone(),
            "highest of _ and _" | "lowest of _ and _" => {
                let (a, b) = (number(&bound[0]), number(&bound[1]));
                if key.starts_with("highest") {
                    Shape::Number(a.0.max(b.0), a.1.max(b.1))
                } else {
                    Shape::Number(a.0.min(b.0), a.1.min(b.1))
                }
            }
            "explode _" => {
                let Some(die) = self.as_die(&bound[0]) else {
                    return Shape::Die(None);
                };
                let depth = self.settings.explode_depth;
                let rolls = i128::from(depth) + 1;
                let hi = clamp(i128::from(die.hi) * rolls);
                let lo = clamp(i128::from(die.lo) * rolls).min(die.lo);
                let spread = die.spread() * rolls as f64;
                self.spread(spread);
                self.charge(work::explosion_price(
                    die.width as f64,
                    spread,
                    depth as f64,
                ));
                let bits = die.bits.saturating_mul(rolls as u64);
                // Each explosion adds the highest value again.
                let support = die.support.as_ref().and_then(|faces| {
                    let mut values = Vec::new();
                    for k in 0..=i128::from(depth) {
                        let base = i128::from(die.hi) * k;
                        values.extend(
                            faces
                                .iter()
                                .filter(|&&v| v != die.hi || k == i128::from(depth))
                                .map(|&v| clamp(base + i128::from(v))),
                        );
                        if values.len() > SUPPORT {
                            return None;
                        }
                    }
                    DieShape::of_values(values, bits)
                });
                Shape::Die(Some(
                    support.unwrap_or_else(|| DieShape::dense(lo, hi, bits)),
                ))
            }
            // highest, lowest, middle N of dice: places picked from the
            // collection, as the library turns them into `@`.
            _ => {
                let mut groups = Vec::new();
                for v in &bound[1..] {
                    match v {
                        Shape::Pool(p) => groups.extend(p.iter().cloned()),
                        Shape::Die(d) => groups.push((d.clone(), 1)),
                        other => {
                            let (lo, hi) = other.number();
                            groups.push((Some(DieShape::constant(lo, hi)), 1))
                        }
                    }
                }
                if groups.iter().any(|(d, _)| d.is_none()) {
                    return Shape::Die(None);
                }
                let size = pool_size(&groups) as i64;
                let (lo, hi) = number(&bound[0]);
                let n = if lo == hi { lo } else { hi };
                if n <= 0 {
                    return Shape::Number(0, 0);
                }
                let from_lowest = if key.starts_with("middle") {
                    if n >= size {
                        return Shape::Die(self.sum_pool(&groups));
                    }
                    let drop = (size - n + 1) / 2;
                    drop + 1..=drop + n
                } else if key.starts_with("highest") {
                    (size - n).max(0) + 1..=size
                } else {
                    1..=n.min(size)
                };
                let places: Vec<i64> = from_lowest
                    .map(|p| match self.settings.highest_first {
                        true => size + 1 - p,
                        false => p,
                    })
                    .collect();
                self.pool_at(&Seq::known(places), &groups)
            }
        }
    }

    /// Binds the arguments as the run does and prices the body: once, or
    /// for each case of a die passed to a number or sequence parameter,
    /// with the price of mixing the cases.
    fn invoke(
        &mut self,
        types: &[Type],
        args: Vec<Shape>,
        body: &mut dyn FnMut(&mut Estimator, &[Shape]) -> Shape,
        own_frame: bool,
    ) -> Shape {
        let mut bound = Vec::with_capacity(args.len());
        let mut expanded: Vec<(usize, Cases)> = Vec::new();
        let mut weight_bits = 0u64;
        for (i, (kind, arg)) in types.iter().zip(args).enumerate() {
            match (kind, arg) {
                (Type::Any, arg) => bound.push(arg),
                (Type::Number, Shape::Sequence(s)) => {
                    let (lo, hi) = s.sum();
                    bound.push(Shape::Number(lo, hi))
                }
                (Type::Number, n @ Shape::Number(..)) => bound.push(n),
                (Type::Number, die) => {
                    let Some(d) = self.as_die(&die) else {
                        return Shape::Die(None);
                    };
                    bound.push(Shape::Number(0, 0));
                    weight_bits += d.bits.saturating_sub(bits_of(d.faces)).max(1);
                    expanded.push((i, cases(&d, |v| Shape::Number(v, v))));
                }
                (Type::Die, Shape::Number(lo, hi)) => {
                    bound.push(Shape::Die(Some(DieShape::constant(lo, hi))))
                }
                (Type::Die, Shape::Sequence(s)) => {
                    let (lo, hi) = s.sum();
                    bound.push(Shape::Die(Some(DieShape::constant(lo, hi))))
                }
                (Type::Die, die) => bound.push(die),
                (Type::Sequence, Shape::Number(lo, hi)) => bound.push(Shape::Sequence(Seq {
                    items: (lo == hi).then(|| Rc::from(vec![lo])),
                    len: (1, 1),
                    values: (lo, hi),
                })),
                (Type::Sequence, s @ Shape::Sequence(_)) => bound.push(s),
                (Type::Sequence, Shape::Die(None)) => return Shape::Die(None),
                (Type::Sequence, Shape::Die(Some(d))) => {
                    bound.push(Shape::Sequence(Seq::known(Vec::new())));
                    weight_bits += d.bits.saturating_sub(bits_of(d.faces)).max(1);
                    expanded.push((i, cases(&d, |v| Shape::Sequence(Seq::known(vec![v])))));
                }
                (Type::Sequence, Shape::Pool(p)) => {
                    if p.iter().any(|(d, _)| d.is_none()) {
                        return Shape::Die(None);
                    }
                    let rolls = self.listing(&p);
                    let size = pool_size(&p);
                    weight_bits += p
                        .iter()
                        .filter_map(|(d, n)| d.as_ref().map(|d| d.bits.saturating_mul(*n)))
                        .sum::<u64>();
                    bound.push(Shape::Sequence(Seq::known(Vec::new())));
                    if let Some(each) = sorted_rolls(&p, self.settings.highest_first && size > 1) {
                        let each = each
                            .into_iter()
                            .map(|r| Shape::Sequence(Seq::known(r)))
                            .collect();
                        expanded.push((i, Cases::Each(each)));
                        continue;
                    }
                    let dice = || p.iter().filter_map(|(d, _)| d.as_ref());
                    let values = (
                        dice().map(|d| d.lo).min().unwrap_or(0),
                        dice().map(|d| d.hi).max().unwrap_or(0),
                    );
                    expanded.push((
                        i,
                        Cases::All(
                            Shape::Sequence(Seq {
                                items: None,
                                len: (size, size),
                                values,
                            }),
                            rolls,
                        ),
                    ));
                }
            }
        }
        let enter = own_frame || !expanded.is_empty();
        if enter {
            self.depth += 1;
        }
        let result = if expanded.is_empty() {
            body(self, &bound)
        } else {
            self.cases(&mut bound, &expanded, weight_bits, body)
        };
        if enter {
            self.depth -= 1;
        }
        result
    }

    /// One case: its result as a die, and the price of mixing it in.
    fn case(
        &mut self,
        bound: &[Shape],
        body: &mut dyn FnMut(&mut Estimator, &[Shape]) -> Shape,
    ) -> Option<DieShape> {
        let result = body(self, bound);
        let die = match &result {
            Shape::Sequence(s) => {
                let (lo, hi) = s.sum();
                Some(DieShape::constant(lo, hi))
            }
            other => self.as_die(other),
        };
        if let Some(d) = &die {
            self.charge(work::counts_price(
                d.width as f64 * 2.0,
                (d.bits * 2) as f64,
            ));
        }
        die
    }

    fn cases(
        &mut self,
        bound: &mut [Shape],
        expanded: &[(usize, Cases)],
        weight_bits: u64,
        body: &mut dyn FnMut(&mut Estimator, &[Shape]) -> Shape,
    ) -> Shape {
        let count = |c: &Cases| match c {
            Cases::Each(v) => v.len() as f64,
            Cases::All(_, n) => *n,
        };
        let total: f64 = expanded.iter().map(|(_, c)| count(c)).product();
        self.charge(total);
        let each = expanded.iter().all(|(_, c)| matches!(c, Cases::Each(_)));
        // Every case while they are few, else cases spread evenly over
        // them, their mean price standing for each.
        let followed = if total <= FOLLOWED_CASES as f64 {
            total as usize
        } else {
            SAMPLES
        };
        let mut joined: Option<DieShape> = None;
        if each {
            let (before, mut done) = (self.steps, 0);
            for s in 0..followed {
                if self.over {
                    break;
                }
                done += 1;
                let mut k = if followed == total as usize {
                    s as f64
                } else {
                    (s as f64 * (total - 1.0) / (SAMPLES - 1) as f64).floor()
                };
                // The first expanded parameter varies fastest, as the run's.
                for (i, c) in expanded {
                    let n = count(c);
                    if let Cases::Each(values) = c {
                        bound[*i] = values[(k % n) as usize].clone();
                    }
                    k = (k / n).floor();
                }
                if let Some(d) = self.case(bound, body) {
                    joined = Some(joined.map_or(d.clone(), |j| j.join(&d)));
                }
            }
            // The cases not followed cost the mean of those followed.
            let spent = self.steps - before;
            self.steps = before + spent * total / done.max(1) as f64;
        } else {
            for (i, c) in expanded {
                bound[*i] = match c {
                    Cases::Each(values) => values
                        .iter()
                        .cloned()
                        .reduce(join)
                        .unwrap_or(Shape::Number(0, 0)),
                    Cases::All(shape, _) => shape.clone(),
                };
            }
            let before = self.steps;
            joined = self.case(bound, body);
            let one = self.steps - before;
            self.charge(one * (total - 1.0));
        }
        let Some(d) = joined else {
            return Shape::Die(None);
        };
        let bits = d.bits + weight_bits;
        let mixed = match d.support {
            Some(s) if each && followed == total as usize => {
                DieShape::of_values(s.to_vec(), bits).expect("a value")
            }
            _ => DieShape::dense(d.lo, d.hi, bits),
        };
        let parts = if each {
            total
        } else {
            total.min(mixed.width as f64)
        };
        self.charge(work::mixture_price(
            parts * d.width as f64,
            bits as f64 / 64.0,
        ));
        Shape::Die(Some(mixed))
    }
}

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
    fn expr(e: &Expr, names: &mut std::collections::BTreeSet<String>, calls: &mut Vec<String>) {
        match e {
            Expr::Number(_) => {}
            Expr::Variable(name, _) => {
                names.insert(name.clone());
            }
            Expr::Sequence(parts) => {
                for p in parts {
                    expr(&p.value, names, calls);
                    for e in p.to.iter().chain(p.times.iter()) {
                        expr(e, names, calls);
                    }
                }
            }
            Expr::Unary(_, x) => expr(x, names, calls),
            Expr::Binary(_, a, b, _) => {
                expr(a, names, calls);
                expr(b, names, calls);
            }
            Expr::Call(parts, _) => {
                calls.push(call_key(parts));
                for p in parts {
                    if let CallPart::Argument(e) = p {
                        expr(e, names, calls);
                    }
                }
            }
        }
    }
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
