//! AnyDice programs (anydice.com), read and run exactly: a front end over
//! the engine. [`run`] reads a program ([`lex`], [`parse`] into
//! [`syntax`]), runs it ([`run`](self::run) with [`ops`] and the function
//! [`library`]) within a [`work`] budget, and gives each output as exact
//! [`Outcomes`]. [`price`] estimates a program's work before it runs.
//!
//! The meaning follows AnyDice's documentation (`anydice.com/docs`); every
//! deviation is listed in `docs/reference.md` ("AnyDice programs").

mod lex;
pub(crate) mod library;
pub(crate) mod ops;
mod parse;
pub mod price;
pub(crate) mod run;
pub(crate) mod syntax;
pub(crate) mod value;
pub mod work;

use crate::engine::Outcomes;
use std::fmt;

/// AnyDice's settings and their defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Settings {
    pub explode_depth: u32,
    pub max_depth: u32,
    pub highest_first: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            explode_depth: 2,
            max_depth: 10,
            highest_first: true,
        }
    }
}

/// The most a setting may ask: deeper recursion or explosion is priced
/// by the work it does, but a number past this is surely a mistake.
const MAX_SETTING: i64 = 10_000;

impl Settings {
    /// Whether `setting` takes a number (the depths): its value is
    /// evaluated only then.
    pub(crate) fn takes_number(setting: &str) -> bool {
        matches!(setting, "explode depth" | "maximum function depth")
    }

    /// `set "setting" to ...`, given the value's number (where the setting
    /// takes one and the value is a number) or its text; the message says
    /// what may be written instead.
    pub(crate) fn set(
        &mut self,
        setting: &str,
        number: Option<i64>,
        text: Option<&str>,
    ) -> Result<(), String> {
        match setting {
            "explode depth" | "maximum function depth" => {
                let default = if setting == "explode depth" { 2 } else { 10 };
                let n = number.filter(|n| (1..=MAX_SETTING).contains(n)).ok_or_else(|| {
                    format!("\"{setting}\" can only be set to a positive integer up to {MAX_SETTING} (the default is {default})")
                })?;
                if setting == "explode depth" {
                    self.explode_depth = n as u32;
                } else {
                    self.max_depth = n as u32;
                }
            }
            "position order" => match text {
                Some("highest first") => self.highest_first = true,
                Some("lowest first") => self.highest_first = false,
                _ => return Err(
                    "\"position order\" can only be set to \"highest first\" (the default) or \"lowest first\"".into(),
                ),
            },
            other => return Err(format!(
                "there is no setting \"{other}\": AnyDice has \"explode depth\", \"maximum function depth\" and \"position order\""
            )),
        }
        Ok(())
    }
}

/// A place in a program: line and column, from 1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Place {
    pub line: usize,
    pub column: usize,
}

/// What is wrong with a program, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub at: Place,
    pub message: String,
}

impl Problem {
    pub(crate) fn new(at: Place, message: impl Into<String>) -> Problem {
        Problem {
            at,
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}:{}: {}", self.at.line, self.at.column, self.message)
        }
    }
}

/// One `output` of a program: its name as AnyDice labels it, and its
/// outcomes (`None` for the empty die).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub name: String,
    pub outcomes: Option<Outcomes>,
}

/// What a program gives.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub outputs: Vec<Output>,
    /// AnyDice's warnings, each once (recursion cut at the maximum depth).
    pub warnings: Vec<String>,
    /// The work done, in the budget's steps.
    pub steps: f64,
}

/// Why a program gave no report: problems in its text (every one found),
/// or one while it ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Syntax(Vec<Problem>),
    Calculation(Problem),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Syntax(problems) => {
                let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
                write!(f, "{}", lines.join("\n"))
            }
            Refusal::Calculation(problem) => write!(f, "{problem}"),
        }
    }
}

/// Reads and runs `source` within `seconds` of budgeted work.
pub fn run(source: &str, seconds: f64) -> Result<Report, Refusal> {
    let statements = read(source)?;
    run::Machine::new(work::Work::new(seconds))
        .run(&statements)
        .map_err(Refusal::Calculation)
}

/// Reads `source` without running it: every problem in its text.
pub fn check(source: &str) -> Result<(), Refusal> {
    read(source).map(|_| ())
}

/// Reads `source` into its statements: the syntax tree [`run`] runs, and
/// the one `verify --simulate` replays.
pub(crate) fn read(source: &str) -> Result<Vec<syntax::Statement>, Refusal> {
    let tokens = lex::tokens(source).map_err(Refusal::Syntax)?;
    parse::program(&tokens).map_err(Refusal::Syntax)
}

#[cfg(test)]
mod tests;
