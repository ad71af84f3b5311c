//! The dice language: expressions such as `4d6dl1`, `2d20kh1`, `8d10>=7`,
//! `5d10!>=9kh3` or `max(1d6, 1d8) + 2`, read into a syntax tree
//! ([`parse`]), checked and priced before any work ([`check`]), and
//! evaluated exactly into [`Outcomes`] ([`evaluate`]). Every kind reads its
//! dice values as an [`Expression`] and restricts it to the shape it needs.
//!
//! The grammar and its meaning are documented for authors in
//! `docs/reference.md` ("The dice language"); every operator's exact
//! computation lives in the engine (`engine::pool`, `engine::Outcomes`).

mod check;
mod eval;
mod expression;
#[cfg(test)]
mod families_tests;
mod parse;
mod rules;
mod words;

pub use check::{check, Price};
pub use eval::evaluate;
pub(crate) use eval::{criticals, uncut};
pub use expression::{Expression, Shape};
pub(crate) use expression::{DICE, ONE_DIE, STANDARD_DIE};
#[cfg(test)]
pub use parse::parse;
pub use parse::parse_in;
pub(crate) use words::{critical_words, describe};

use crate::engine::pool::Condition;
use crate::engine::Outcomes;
use std::fmt;

/// The default number of extra rolls an exploding die may make.
pub(crate) const DEFAULT_EXPLODE_DEPTH: u32 = 3;
/// The most extra rolls an author may allow an exploding die.
pub(crate) const MAX_EXPLODE_DEPTH: u32 = 20;

/// A place in an expression: character offsets, end excluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First character, from 0.
    pub start: usize,
    /// One past the last character.
    pub end: usize,
}

impl Span {
    /// The expression text this span covers.
    pub fn text<'a>(&self, expression: &'a str) -> &'a str {
        let start = char_offset(expression, self.start);
        let end = char_offset(expression, self.end);
        &expression[start..end]
    }
}

fn char_offset(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(byte, _)| byte)
}

/// What is wrong with an expression, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LangError {
    /// The part at fault.
    pub span: Span,
    /// What was expected, or why the part cannot be computed.
    pub message: String,
    /// The comparison of totals likely meant: the dice as written (the
    /// span) and the comparison after them (` >= 15`), offered whole where
    /// the text is known.
    pub total: Option<(Span, String)>,
}

impl LangError {
    pub(crate) fn new(span: Span, message: impl Into<String>) -> Self {
        LangError {
            span,
            message: message.into(),
            total: None,
        }
    }

    /// The message with the expression and the 1-based column, as authors
    /// read it: "`4d6kh5`, column 4: cannot keep 5 of 4 dice".
    pub(crate) fn describe(&self, expression: &str) -> String {
        let total = match &self.total {
            Some((dice, comparison)) => format!(
                "; to compare the total write ({}){comparison}",
                dice.text(expression)
            ),
            None => String::new(),
        };
        format!(
            "`{expression}`, column {}: {}{total}",
            self.span.start + 1,
            self.message
        )
    }
}

impl fmt::Display for LangError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.span.start + 1, self.message)
    }
}

impl std::error::Error for LangError {}

/// An expression: a number, a pool of dice, or operators on expressions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    /// What it is.
    pub node: Node,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of expression.
// A pool is the common node and is read once, moved, never copied in
// bulk: unboxed, it takes less code in the browser's engine.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// An integer.
    Number(i64),
    /// Dice rolled together.
    Pool(Pool),
    /// `-a`.
    Negate(Box<Expr>),
    /// `a + b`, `a - b`, `a * b`, `a % b`.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `max(...)`, `min(...)`, `abs(a)`.
    Call(Function, Vec<Expr>),
    /// `a >= b` and the like, of two whole expressions: 1 when true, 0
    /// when false (the lowest precedence, so `1d20+5 >= 15` compares the
    /// total).
    Compare(Comparison, Box<Expr>, Box<Expr>),
    /// `pairs(a, b)`: two pools sorted from the highest and paired off (Risk):
    /// how many of b's dice a's beat; ties go to b, extra dice sit out.
    Pairs(Box<Expr>, Box<Expr>),
    /// `{a, b, ...}` with keeps, drops and a count (Roll20's groups): each
    /// member one value of the group. The pool holds the modifiers only;
    /// its count is the number of members.
    Group(Vec<Expr>, Box<Pool>),
    /// A part with its name in brackets (`1d8[fire]`, as Roll20, Foundry
    /// and Avrae write them): the name is the reader's, the value the
    /// part's.
    Labelled(String, Box<Expr>),
}

/// How two totals are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Comparison {
    /// Whether `a` compares so with `b`.
    pub(crate) fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Comparison::Eq => a == b,
            Comparison::Ne => a != b,
            Comparison::Lt => a < b,
            Comparison::Le => a <= b,
            Comparison::Gt => a > b,
            Comparison::Ge => a >= b,
        }
    }

    /// As a sentence says it: "is at least".
    pub(crate) fn words(self) -> &'static str {
        match self {
            Comparison::Eq => "equals",
            Comparison::Ne => "differs from",
            Comparison::Lt => "is below",
            Comparison::Le => "is at most",
            Comparison::Gt => "is above",
            Comparison::Ge => "is at least",
        }
    }
}

/// The arithmetic operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Subtract,
    /// `*`
    Multiply,
    /// `%`: the remainder from 0 to n-1.
    Modulo,
    /// `/` inside `floor(…)`, `ceil(…)` or `round(…)`, which say how it
    /// rounds; a bare `/` is refused, since communities round differently.
    Divide(Rounding),
}

/// How a division rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// Down, toward minus infinity.
    Floor,
    /// Up, toward plus infinity.
    Ceil,
    /// To the nearest, halves away from zero.
    Round,
}

impl Rounding {
    /// `a / b` rounded so; `b` is never 0 (checked). In `i128`, so
    /// `i64::MIN / -1` cannot overflow.
    pub(crate) fn divide(self, a: i64, b: i64) -> i64 {
        let (a, b) = (i128::from(a), i128::from(b));
        let (a, b) = if b < 0 { (-a, -b) } else { (a, b) };
        let value = match self {
            Rounding::Floor => a.div_euclid(b),
            Rounding::Ceil => -(-a).div_euclid(b),
            Rounding::Round => a.signum() * ((2 * a.abs() + b) / (2 * b)),
        };
        i64::try_from(value).unwrap_or(i64::MAX)
    }
}

/// The functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    /// The highest of its arguments.
    Max,
    /// The lowest of its arguments.
    Min,
    /// The absolute value of its one argument.
    Abs,
}

/// `N` dice of one kind and what happens to them, in the order
/// reroll, explode, keep or drop, count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    /// How many dice.
    pub count: u64,
    /// A rolled number of dice (`(1d4)d6`), when the count is not fixed;
    /// then `count` is 0 and unused.
    pub rolled: Option<Box<Expr>>,
    /// Whether the count was written (`1d6`, `10d6`) rather than left out
    /// (`d6`): some kinds give a bare die a count of their own.
    pub count_written: bool,
    /// Which die.
    pub die: Die,
    /// Where the die was written (`d6`, `dF`, `d{1,2}`).
    pub die_span: Span,
    /// Reroll rule, if any.
    pub reroll: Option<Modifier<Reroll>>,
    /// Explode rule (the condition; `None` inside means the highest face).
    pub explode: Option<Modifier<Option<Condition>>>,
    /// What an explosion's extra rolls become.
    pub explosion: Explosion,
    /// Keep and drop rules, applied in the order written
    /// (`4d6dl1dh1`: the middle two).
    pub keep: Vec<Modifier<KeepRule>>,
    /// Count the dice meeting this condition instead of summing.
    pub successes: Option<Modifier<Condition>>,
    /// The dice meeting this one are failures, scored as `failure` says
    /// (`f1`, `df=1`, `sf<2`).
    pub failures: Option<Modifier<Condition>>,
    /// What a failure scores.
    pub failure: Failure,
    /// Each die explodes at most once (Foundry's `xo`), whatever the depth.
    pub explode_once: bool,
    /// Avrae's `ra`: when some die meets it, one more die is rolled and
    /// added (one at most, however many meet it).
    pub reroll_add: Option<Modifier<Condition>>,
    /// Each die's value held to at least this (Avrae's `mi`, Foundry's `min`).
    pub floor: Option<Modifier<i64>>,
    /// Each die's value held to at most this (Avrae's `ma`, Foundry's `max`).
    pub ceiling: Option<Modifier<i64>>,
    /// Avrae's keeps and drops by value (`k>3`, `p1`), after the keeps by
    /// rank: a die they drop scores nothing.
    pub select: Vec<Modifier<Select>>,
    /// Where the pool's text starts (its count, or the `(` of a rolled
    /// one), so a message can quote it.
    pub start: usize,
    /// Where the dice were sorted (`s`, `sa`, `sd`): no total changes.
    pub sorted: Option<Span>,
    /// Roll20's critical marks (`cs>19`, `cf1` under `notation: roll20`):
    /// no total changes; their chances are reported beside it.
    pub criticals: Vec<Modifier<Critical>>,
}

/// Whose meaning a letter takes where the families disagree.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Notation {
    /// Foundry's `cs` and `cf` (the count of dice meeting them), Roll20's
    /// and Foundry's `k3` (keep the highest 3).
    #[default]
    Standard,
    /// Roll20's `cs` and `cf`: marks of a critical success or failure on
    /// a die, which leave the total alone.
    Roll20,
}

/// A die's critical mark, as Roll20 writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Critical {
    /// `cs` when true, `cf` when false.
    pub success: bool,
    /// The faces marked.
    pub condition: Condition,
}

impl Pool {
    /// `count` dice with no modifier yet.
    pub(crate) fn plain(count: u64, die: Die, die_span: Span) -> Pool {
        Pool {
            rolled: None,
            count,
            count_written: true,
            die,
            die_span,
            reroll: None,
            explode: None,
            explosion: Explosion::Pool,
            keep: Vec::new(),
            successes: None,
            failures: None,
            failure: Failure::Offset,
            explode_once: false,
            reroll_add: None,
            floor: None,
            ceiling: None,
            select: Vec::new(),
            start: die_span.start,
            sorted: None,
            criticals: Vec::new(),
        }
    }

    /// Which of `count` dice are kept once sorted lowest first, as `start..end`,
    /// applying every keep and drop in order; `Err` names the rule that
    /// asks for more dice than are left, and how many were.
    pub(crate) fn kept(&self, count: u64) -> Result<(u64, u64), (Modifier<KeepRule>, u64)> {
        let (mut start, mut end) = (0, count);
        for keep in &self.keep {
            let left = end - start;
            match keep.rule {
                KeepRule::KeepHighest(m) if m <= left => start = end - m,
                KeepRule::KeepLowest(m) if m <= left => end = start + m,
                KeepRule::DropHighest(m) if m <= left => end -= m,
                KeepRule::DropLowest(m) if m <= left => start += m,
                _ => return Err((*keep, left)),
            }
        }
        Ok((start, end))
    }

    /// A die's value as the pool adds it up: its face held to the floor
    /// and ceiling; nothing when a keep by value drops it; with a count,
    /// 1 for a success; a failure as [`Failure`] says.
    ///
    /// Boxed: one function for every engine call it is passed to, rather
    /// than a copy inlined into each (25 kB of the browser's dice engine).
    pub(crate) fn scorer(&self) -> Box<dyn Fn(i64) -> i64> {
        let (successes, failures, failure) = (
            self.successes.map(|s| s.rule),
            self.failures.map(|f| f.rule),
            self.failure,
        );
        let (floor, ceiling) = (self.floor.map(|m| m.rule), self.ceiling.map(|m| m.rule));
        let select: Vec<Select> = self.select.iter().map(|m| m.rule.clone()).collect();
        Box::new(move |face| {
            let v = face
                .max(floor.unwrap_or(i64::MIN))
                .min(ceiling.unwrap_or(i64::MAX));
            if select.iter().any(|s| s.drops(v)) {
                return 0;
            }
            let failed = failures.is_some_and(|f| f.holds(v));
            let counted = successes.map(|s| i64::from(s.holds(v)));
            match (failure, failed, counted) {
                (Failure::Offset, _, Some(c)) => c - i64::from(failed),
                (Failure::Deduct, true, _) => -1,
                (Failure::Subtract, true, _) => -v,
                (_, _, Some(c)) => c,
                (_, _, None) => v,
            }
        })
    }

    /// The explosion depth in force: one for Foundry's `xo`, else `depth`.
    pub(crate) fn depth(&self, depth: u32) -> u32 {
        if self.explode_once {
            1
        } else {
            depth
        }
    }

    /// Whether a die's value is scored other than as its face.
    pub(crate) fn rescored(&self) -> bool {
        self.successes.is_some()
            || self.failures.is_some()
            || self.floor.is_some()
            || self.ceiling.is_some()
            || !self.select.is_empty()
    }

    /// The least and most a die scores, from the least and most it shows.
    pub(crate) fn score_bounds(&self, low: i128, high: i128) -> (i128, i128) {
        let hold = |v: i128| {
            let v = self.floor.map_or(v, |f| v.max(i128::from(f.rule)));
            self.ceiling.map_or(v, |c| v.min(i128::from(c.rule)))
        };
        let (low, high) = (hold(low), hold(high));
        let (mut low, mut high) = if self.successes.is_some() {
            (0, 1)
        } else {
            (low, high)
        };
        if self.failures.is_some() {
            let (l, h) = match self.failure {
                Failure::Offset | Failure::Deduct => (-1, -1),
                Failure::Subtract => (-high, -low),
            };
            (low, high) = (low.min(l), high.max(h));
        }
        if !self.select.is_empty() {
            (low, high) = (low.min(0), high.max(0));
        }
        (low, high)
    }
}

/// What a failure scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Roll20's `f` after a count: -1 where a success scores 1 (both: 0).
    Offset,
    /// Foundry's `df`: -1, whatever else the die scored.
    Deduct,
    /// Foundry's `sf`: minus its value.
    Subtract,
}

/// Avrae's keep or drop by value: `k>3` keeps the dice above 3 (drops the
/// others), `p1` drops every 1. Joined selectors (`k5k6`) keep either.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Select {
    /// `k` when true, `p` when false.
    pub keep: bool,
    /// The values chosen, any of which selects a die.
    pub conditions: Vec<Condition>,
}

impl Select {
    /// Whether this rule drops a die of value `v`.
    pub(crate) fn drops(&self, v: i64) -> bool {
        self.conditions.iter().any(|c| c.holds(v)) != self.keep
    }
}

/// A pool modifier and where it was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Modifier<T> {
    /// The rule.
    pub rule: T,
    /// Its place.
    pub span: Span,
}

impl<T> Modifier<T> {
    /// The same place with the rule made into another.
    pub(crate) fn map<U>(self, f: impl FnOnce(T) -> U) -> Modifier<U> {
        Modifier {
            rule: f(self.rule),
            span: self.span,
        }
    }
}

/// A die: standard, Fudge, or with the faces written out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Die {
    /// Faces 1 to K (`dK`, and `d%` for 100).
    Standard(u64),
    /// Faces -1, 0, 1 (`dF`).
    Fudge,
    /// Faces as written; repeats count twice (`d{1,1,2}`).
    Custom(Vec<i64>),
}

impl Die {
    /// How many faces the die has, repeats counted.
    pub(crate) fn face_count(&self) -> u64 {
        match self {
            Die::Standard(sides) => *sides,
            Die::Fudge => 3,
            Die::Custom(faces) => faces.len() as u64,
        }
    }

    /// As written: `d6`, `dF`, `d{1,1,2}`.
    pub(crate) fn name(&self) -> String {
        match self {
            Die::Standard(sides) => format!("d{sides}"),
            Die::Fudge => "dF".into(),
            Die::Custom(faces) => format!(
                "d{{{}}}",
                faces
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }

    /// The die's outcomes: one way per face.
    pub fn outcomes(&self) -> Option<Outcomes> {
        match self {
            Die::Standard(sides) => Outcomes::standard(*sides),
            Die::Fudge => Outcomes::die(&[-1, 0, 1]),
            Die::Custom(faces) => Outcomes::die(faces),
        }
    }
}

/// What an exploding die's extra rolls become, as each community means it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Explosion {
    /// `!`: each is a new die of the pool (Roll20, Foundry), which keeps
    /// and counts see one by one.
    Pool,
    /// `!!`: added into the die that exploded.
    Compound,
    /// `!p`: added into the die, each counting one less (Hackmaster).
    Penetrate,
}

/// Reroll once (`ro`) or until the face no longer matches (`rr`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reroll {
    /// `rr` when true, `ro` when false.
    pub until: bool,
    /// Which faces are rolled again.
    pub condition: Condition,
}

/// Keep or drop dice from one end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeepRule {
    /// `khM`
    KeepHighest(u64),
    /// `klM`
    KeepLowest(u64),
    /// `dhM`
    DropHighest(u64),
    /// `dlM`
    DropLowest(u64),
}

impl KeepRule {
    /// How many dice it keeps or drops.
    pub(crate) fn amount(self) -> u64 {
        match self {
            KeepRule::KeepHighest(m)
            | KeepRule::KeepLowest(m)
            | KeepRule::DropHighest(m)
            | KeepRule::DropLowest(m) => m,
        }
    }
}
