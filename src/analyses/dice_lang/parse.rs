//! Reading an expression into its syntax tree, by recursive descent:
//!
//! ```text
//! expr    = sum [ ("=" | "==" | "!=" | "<" | "<=" | ">" | ">=") sum ]
//! sum     = term { ("+" | "-") term }
//! term    = unary { ("*" | "%" | "/") unary }
//! unary   = "-" unary | atom
//! atom    = integer | pool | "(" expr ")" | name "(" expr { "," expr } ")"
//!         | "{" expr { "," expr } "}" { modifier }
//! pool    = [integer] ("d" | "D") die { modifier }
//! die     = integer | "F" | "%" | "{" face { "," face } "}"
//! modifier = ("ro" | "rr") cond | ("!" | "!!" | "!p") [cond] | ("kh" | "kl" | "dh" | "dl" | "k") [integer]
//!          | "d" integer | compare | "f" cond
//! cond    = integer | compare
//! compare = ("=" | "<" | "<=" | ">" | ">=") ["-"] integer
//! ```
//!
//! A comparison written straight after a pool counts its dice (`8d10>=7`);
//! after a space or a `)` it compares totals (`2d6 >= 7`, `(2d6)>=7`).
//! Letter modifiers may follow a space (`4d6 kh3`) and any case (`4D6KH3`);
//! `−` and `×` read as `-` and `*`. `/` only inside `floor`, `ceil` or
//! `round`, which say how it rounds. Every error names the column and
//! what to write instead.

use super::{
    BinaryOp, Comparison, Die, Explosion, Expr, Function, KeepRule, LangError, Modifier, Node,
    Pool, Reroll, Rounding, Span,
};
use crate::engine::pool::Condition;

/// The longest expression read, so a hostile file cannot make the parser
/// recurse or allocate without bound.
pub(crate) const MAX_LENGTH: usize = 1000;
/// The deepest nesting of parentheses, unary minus and calls.
const MAX_DEPTH: usize = 64;

/// Read an expression.
pub fn parse(text: &str) -> Result<Expr, LangError> {
    // One character for one, so columns stay those of the text.
    let chars: Vec<char> = text
        .chars()
        .map(|c| match c {
            '−' => '-',
            '×' => '*',
            c => c,
        })
        .collect();
    if chars.len() > MAX_LENGTH {
        return Err(LangError::new(
            Span {
                start: MAX_LENGTH,
                end: chars.len(),
            },
            format!("an expression may be at most {MAX_LENGTH} characters long"),
        ));
    }
    let mut parser = Parser {
        chars,
        at: 0,
        depth: 0,
        rounding: None,
    };
    parser.skip_spaces();
    if parser.at == parser.chars.len() {
        return Err(LangError::new(
            Span { start: 0, end: 0 },
            "empty expression: write dice such as 3d6 or 4d6kh3",
        ));
    }
    let expr = parser.expr()?;
    parser.skip_spaces();
    if let Some(c) = parser.peek() {
        let message = if c == ')' {
            "unbalanced `)`: no `(` opens it".to_string()
        } else {
            format!("unexpected `{c}`: expected an operator (+ - * % or a comparison such as >=) or the end")
        };
        return Err(parser.error_here(message));
    }
    Ok(expr)
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    depth: usize,
    /// How `/` rounds here: set inside `floor`, `ceil` and `round`.
    rounding: Option<Rounding>,
}

/// The modifiers, as errors list them and suggestions pick from.
const MODIFIERS: [&str; 9] = ["kh", "kl", "dh", "dl", "k", "d", "ro", "rr", "f"];

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// Eat `s` (ASCII), in any case: modifiers read `KH3` as `kh3`.
    fn eat_str(&mut self, s: &str) -> bool {
        let len = s.chars().count();
        if self.chars[self.at..]
            .iter()
            .take(len)
            .map(char::to_ascii_lowercase)
            .eq(s.chars())
        {
            self.at += len;
            true
        } else {
            false
        }
    }

    fn error_here(&self, message: impl Into<String>) -> LangError {
        let end = (self.at + 1).min(self.chars.len()).max(self.at);
        LangError::new(
            Span {
                start: self.at,
                end,
            },
            message,
        )
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("`{c}`"),
            None => "the end".to_string(),
        }
    }

    fn span_from(&self, start: usize) -> Span {
        Span {
            start,
            end: self.at,
        }
    }

    fn nest(&mut self) -> Result<(), LangError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error_here(format!(
                "nested more than {MAX_DEPTH} levels deep: simplify the expression"
            )));
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Expr, LangError> {
        let start = self.at;
        let left = self.sum()?;
        self.skip_spaces();
        let comparison = [
            ("<=", Comparison::Le),
            (">=", Comparison::Ge),
            ("!=", Comparison::Ne),
            ("==", Comparison::Eq),
            ("<", Comparison::Lt),
            (">", Comparison::Gt),
            ("=", Comparison::Eq),
        ]
        .into_iter()
        .find(|(text, _)| self.eat_str(text));
        let Some((_, comparison)) = comparison else {
            return Ok(left);
        };
        self.skip_spaces();
        let right = self.sum()?;
        Ok(Expr {
            node: Node::Compare(comparison, Box::new(left), Box::new(right)),
            span: self.span_from(start),
        })
    }

    fn sum(&mut self) -> Result<Expr, LangError> {
        let start = self.at;
        let mut left = self.term()?;
        loop {
            self.skip_spaces();
            let op = match self.peek() {
                Some('+') => BinaryOp::Add,
                Some('-') => BinaryOp::Subtract,
                _ => return Ok(left),
            };
            self.at += 1;
            self.skip_spaces();
            let right = self.term()?;
            left = Expr {
                node: Node::Binary(op, Box::new(left), Box::new(right)),
                span: self.span_from(start),
            };
        }
    }

    fn term(&mut self) -> Result<Expr, LangError> {
        let start = self.at;
        let mut left = self.unary()?;
        loop {
            self.skip_spaces();
            let op = match (self.peek(), self.rounding) {
                (Some('*'), _) => BinaryOp::Multiply,
                (Some('%'), _) => BinaryOp::Modulo,
                (Some('/'), Some(rounding)) => BinaryOp::Divide(rounding),
                (Some('/'), None) => {
                    return Err(self.error_here(
                        "a bare `/` does not say how it rounds: write floor(a / b) to round \
                         down, ceil(a / b) to round up or round(a / b) to round to the nearest",
                    ))
                }
                _ => return Ok(left),
            };
            self.at += 1;
            self.skip_spaces();
            let right = self.unary()?;
            left = Expr {
                node: Node::Binary(op, Box::new(left), Box::new(right)),
                span: self.span_from(start),
            };
        }
    }

    fn unary(&mut self) -> Result<Expr, LangError> {
        let start = self.at;
        if self.eat('-') {
            self.nest()?;
            self.skip_spaces();
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(Expr {
                node: Node::Negate(Box::new(inner)),
                span: self.span_from(start),
            });
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Expr, LangError> {
        let start = self.at;
        match self.peek() {
            Some('(') => {
                self.at += 1;
                self.nest()?;
                self.skip_spaces();
                let mut inner = self.expr()?;
                self.skip_spaces();
                if !self.eat(')') {
                    return Err(LangError::new(
                        Span {
                            start,
                            end: start + 1,
                        },
                        format!(
                            "unbalanced `(`: expected `)` to close it, found {}",
                            self.found()
                        ),
                    ));
                }
                self.depth -= 1;
                inner.span = self.span_from(start);
                if !matches!(self.peek(), Some('d' | 'D')) {
                    return Ok(inner);
                }
                // `(1d4)d6`: a rolled number of dice.
                let mut pool = self.pool(start, Some(0))?;
                if let Node::Pool(p) = &mut pool.node {
                    p.rolled = Some(Box::new(inner));
                }
                Ok(pool)
            }
            Some(c) if c.is_ascii_digit() => {
                let number = self.integer()?;
                if matches!(self.peek(), Some('d' | 'D')) {
                    let count = u64::try_from(number).map_err(|_| {
                        LangError::new(self.span_from(start), "the number of dice is too large")
                    })?;
                    if count == 0 {
                        return Err(LangError::new(
                            self.span_from(start),
                            "a pool needs at least one die: write 1d6, not 0d6",
                        ));
                    }
                    self.pool(start, Some(count))
                } else {
                    Ok(Expr {
                        node: Node::Number(number),
                        span: self.span_from(start),
                    })
                }
            }
            Some('d' | 'D') => self.pool(start, None),
            Some('{') => self.group(start),
            Some(c) if c.is_ascii_alphabetic() => self.call(start),
            _ => Err(self.error_here(format!(
                "expected a number, dice such as 3d6, `(` or a function, found {}",
                self.found()
            ))),
        }
    }

    fn integer(&mut self) -> Result<i64, LangError> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        if self.at == start {
            return Err(self.error_here(format!("expected a whole number, found {}", self.found())));
        }
        let digits: String = self.chars[start..self.at].iter().collect();
        digits.parse().map_err(|_| {
            LangError::new(
                self.span_from(start),
                format!("{digits} is too large: numbers must be below 2^63"),
            )
        })
    }

    fn signed_integer(&mut self) -> Result<i64, LangError> {
        let negative = self.eat('-');
        let value = self.integer()?;
        Ok(if negative { -value } else { value })
    }

    fn call(&mut self, start: usize) -> Result<Expr, LangError> {
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
            self.at += 1;
        }
        let name: String = self.chars[start..self.at].iter().collect();
        let lower = name.to_ascii_lowercase();
        let (function, rounding) = match lower.as_str() {
            "max" => (Some(Function::Max), None),
            "min" => (Some(Function::Min), None),
            "abs" => (Some(Function::Abs), None),
            "floor" => (None, Some(Rounding::Floor)),
            "ceil" => (None, Some(Rounding::Ceil)),
            "round" => (None, Some(Rounding::Round)),
            "pairs" => (None, None),
            _ => {
                let known = ["max", "min", "abs", "floor", "ceil", "round", "pairs"];
                return Err(LangError::new(
                    self.span_from(start),
                    format!(
                        "unknown name `{name}`: expected dice such as 3d6, or {}{}",
                        super::words::list(&known, "or"),
                        did_you_mean(&lower, &known, "")
                    ),
                ));
            }
        };
        self.skip_spaces();
        if !self.eat('(') {
            return Err(
                self.error_here(format!("expected `(` after {name}, found {}", self.found()))
            );
        }
        self.nest()?;
        let outer = std::mem::replace(&mut self.rounding, rounding);
        let mut arguments = Vec::new();
        loop {
            self.skip_spaces();
            arguments.push(self.expr()?);
            self.skip_spaces();
            if self.eat(',') {
                continue;
            }
            if self.eat(')') {
                break;
            }
            return Err(self.error_here(format!(
                "expected `,` or `)` in {name}(...), found {}",
                self.found()
            )));
        }
        self.rounding = outer;
        self.depth -= 1;
        let span = self.span_from(start);
        if lower == "pairs" {
            return match <[Expr; 2]>::try_from(arguments) {
                Ok([a, b]) if plain_pool(&a) && plain_pool(&b) => Ok(Expr {
                    node: Node::Pairs(Box::new(a), Box::new(b)),
                    span,
                }),
                _ => Err(LangError::new(
                    span,
                    "pairs sorts two pools and pairs their dice off: write two pools \
                     without keeps, counts or ! (!! is fine), as in pairs(3d6, 2d6)",
                )),
            };
        }
        let Some(function) = function else {
            // floor, ceil, round: the rounding is the division's own.
            return match arguments.pop() {
                Some(
                    mut inner @ Expr {
                        node: Node::Binary(BinaryOp::Divide(_), _, _),
                        ..
                    },
                ) if arguments.is_empty() => {
                    inner.span = span;
                    Ok(inner)
                }
                _ => Err(LangError::new(
                    span,
                    format!(
                        "{lower} rounds one division: write {lower}(a / b), as in {lower}(3d6 / 2)"
                    ),
                )),
            };
        };
        if function == Function::Abs && arguments.len() != 1 {
            return Err(LangError::new(span, "abs takes exactly one argument"));
        }
        Ok(Expr {
            node: Node::Call(function, arguments),
            span,
        })
    }

    /// `{a, b, ...}` and its modifiers: keeps, drops and a count.
    fn group(&mut self, start: usize) -> Result<Expr, LangError> {
        self.at += 1;
        self.nest()?;
        let outer = self.rounding.take();
        let mut members = Vec::new();
        loop {
            self.skip_spaces();
            members.push(self.expr()?);
            self.skip_spaces();
            if self.eat(',') {
                continue;
            }
            if self.eat('}') {
                break;
            }
            return Err(self.error_here(format!(
                "expected `,` or `}}` in the group {{...}}, found {}",
                self.found()
            )));
        }
        self.rounding = outer;
        self.depth -= 1;
        let die_span = self.span_from(start);
        let mut pool = Pool {
            rolled: None,
            count: members.len() as u64,
            count_written: true,
            die: Die::Standard(1),
            die_span,
            reroll: None,
            explode: None,
            explosion: Explosion::Pool,
            keep: Vec::new(),
            successes: None,
            failures: None,
        };
        self.modifiers(&mut pool)?;
        if let Some(span) = [pool.reroll.map(|m| m.span), pool.explode.map(|m| m.span)]
            .into_iter()
            .flatten()
            .next()
        {
            return Err(LangError::new(
                span,
                "a group {...} keeps, drops and counts its members; reroll and explode \
                 the dice inside it, as in {2d6!!, 1d20}kh1",
            ));
        }
        Ok(Expr {
            node: Node::Group(members, Box::new(pool)),
            span: self.span_from(start),
        })
    }

    /// A pool from its `d` on; `count` is `None` for a bare `d6`.
    fn pool(&mut self, start: usize, count: Option<u64>) -> Result<Expr, LangError> {
        let die_start = self.at;
        self.at += 1; // the `d` (or `D`)
        let die = match self.peek() {
            Some('F' | 'f') => {
                self.at += 1;
                Die::Fudge
            }
            Some('%') => {
                self.at += 1;
                Die::Standard(100)
            }
            Some('{') => {
                self.at += 1;
                self.faces()?
            }
            Some(c) if c.is_ascii_digit() => {
                let sides_start = self.at;
                let sides = self.integer()?;
                if sides == 0 {
                    return Err(LangError::new(
                        self.span_from(die_start),
                        "d0 has no faces: a die needs at least one face, as in d6",
                    ));
                }
                let sides = u64::try_from(sides)
                    .map_err(|_| LangError::new(self.span_from(sides_start), "too many faces"))?;
                Die::Standard(sides)
            }
            _ => {
                return Err(self.error_here(format!(
                "expected the die after `d`: a number of faces (d6), F, % or {{faces}}, found {}",
                self.found()
            )))
            }
        };
        let die_span = self.span_from(die_start);
        let mut pool = Pool {
            rolled: None,
            count: count.unwrap_or(1),
            count_written: count.is_some(),
            die,
            die_span,
            reroll: None,
            explode: None,
            explosion: Explosion::Pool,
            keep: Vec::new(),
            successes: None,
            failures: None,
        };
        self.modifiers(&mut pool)?;
        Ok(Expr {
            node: Node::Pool(pool),
            span: self.span_from(start),
        })
    }

    fn faces(&mut self) -> Result<Die, LangError> {
        let mut faces = Vec::new();
        loop {
            self.skip_spaces();
            if !self.peek().is_some_and(|c| c == '-' || c.is_ascii_digit()) {
                return Err(self.error_here(format!(
                    "expected a face (a whole number) in {{...}}, found {}",
                    self.found()
                )));
            }
            faces.push(self.signed_integer()?);
            self.skip_spaces();
            if self.eat(',') {
                continue;
            }
            if self.eat('}') {
                return Ok(Die::Custom(faces));
            }
            return Err(self.error_here(format!(
                "expected `,` or `}}` in the faces, found {}",
                self.found()
            )));
        }
    }

    fn modifiers(&mut self, pool: &mut Pool) -> Result<(), LangError> {
        loop {
            // After a space, only a letter modifier or `!` (not `!=`)
            // belongs to the pool: `2d6 >= 7` compares the total.
            let before = self.at;
            self.skip_spaces();
            let next = self.peek().map(|c| c.to_ascii_lowercase());
            let spaced = self.at > before;
            let after = self.chars.get(self.at + 1).copied();
            if spaced
                && !(next.is_some_and(|c| c.is_ascii_alphabetic())
                    || (next == Some('!') && after != Some('=')))
            {
                self.at = before;
                return Ok(());
            }
            let start = self.at;
            if self.eat_str("ro") || self.eat_str("rr") {
                let until = self.chars[start + 1].eq_ignore_ascii_case(&'r');
                let condition = self.condition(true)?;
                let rule = Reroll { until, condition };
                set_once(&mut pool.reroll, rule, self.span_from(start), "reroll")?;
            } else if next == Some('r') && !after.is_some_and(|c| c.is_ascii_alphabetic()) {
                return Err(self.error_here(
                    "`r` alone means reroll until in Roll20 and reroll once in Foundry: \
                     write ro (as in ro1) to reroll once, or rr (as in rr1) to reroll until \
                     the face no longer matches",
                ));
            } else if self.eat('!') {
                pool.explosion = if self.eat('!') {
                    Explosion::Compound
                } else if self.eat_str("p") {
                    Explosion::Penetrate
                } else {
                    Explosion::Pool
                };
                let condition = if self.is_condition_at(self.at) {
                    Some(self.condition(true)?)
                } else {
                    None
                };
                set_once(
                    &mut pool.explode,
                    condition,
                    self.span_from(start),
                    "explode",
                )?;
            } else if let Some(kind) = self.keep_kind() {
                let amount = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    u64::try_from(self.integer()?).unwrap_or(u64::MAX)
                } else {
                    1
                };
                let rule = match kind {
                    "kh" | "k" => KeepRule::KeepHighest(amount),
                    "kl" => KeepRule::KeepLowest(amount),
                    "dh" => KeepRule::DropHighest(amount),
                    _ => KeepRule::DropLowest(amount),
                };
                let span = self.span_from(start);
                pool.keep.push(Modifier { rule, span });
            } else if !spaced && next.is_some_and(|c| "<>=".contains(c)) {
                let condition = self.condition(false)?;
                set_once(
                    &mut pool.successes,
                    condition,
                    self.span_from(start),
                    "count",
                )?;
            } else if next == Some('f') && self.is_condition_at(self.at + 1) {
                self.at += 1;
                let condition = self.condition(true)?;
                let span = self.span_from(start);
                if pool.successes.is_none() {
                    return Err(LangError::new(
                        span,
                        "f counts failures against successes: write the success count first, \
                         as in 10d10>=8f1",
                    ));
                }
                set_once(&mut pool.failures, condition, span, "failure")?;
            } else if next.is_some_and(|c| c.is_ascii_alphanumeric()) {
                return Err(self.unknown_modifier());
            } else {
                self.at = before;
                return Ok(());
            }
        }
    }

    /// Whether a condition (`5`, `<3`, `>=5`) starts at `at`.
    fn is_condition_at(&self, at: usize) -> bool {
        self.chars
            .get(at)
            .is_some_and(|c| c.is_ascii_digit() || "<>=".contains(*c))
    }

    /// The word at the cursor is no modifier: list them, and suggest the
    /// nearest with the number that follows ("did you mean kh3?").
    fn unknown_modifier(&self) -> LangError {
        let start = self.at;
        let mut end = start;
        while self.chars.get(end).is_some_and(char::is_ascii_alphabetic) {
            end += 1;
        }
        let word: String = self.chars[start..end].iter().collect();
        let word = word.to_ascii_lowercase();
        let mut digits = end;
        while self.chars.get(digits).is_some_and(char::is_ascii_digit) {
            digits += 1;
        }
        let number: String = self.chars[end..digits].iter().collect();
        let hint = match word.as_str() {
            "adv" | "advantage" => "; for advantage write 2d20kh1 (the higher of two d20)".into(),
            "dis" | "disadv" | "disadvantage" => {
                "; for disadvantage write 2d20kl1 (the lower of two d20)".into()
            }
            _ => did_you_mean(&word, &MODIFIERS, &number),
        };
        LangError::new(
            Span {
                start,
                end: end.max(start + 1),
            },
            format!(
                "unknown modifier `{word}`: expected {}, ! or a condition such as >=5{hint}",
                super::words::list(&MODIFIERS, "or")
            ),
        )
    }

    /// `kh`, `kl`, `dh`, `dl`, or the shorthands `k` (keep highest) and
    /// `d` before a number (drop lowest), as Roll20 writes them.
    fn keep_kind(&mut self) -> Option<&'static str> {
        if let Some(kind) = ["kh", "kl", "dh", "dl"]
            .into_iter()
            .find(|kind| self.eat_str(kind))
        {
            return Some(kind);
        }
        let next = self.chars.get(self.at + 1);
        let word_ends = !next.is_some_and(char::is_ascii_alphabetic);
        if self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'k')) && word_ends {
            self.at += 1;
            return Some("k");
        }
        if self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'d'))
            && next.is_some_and(char::is_ascii_digit)
        {
            self.at += 1;
            return Some("dl");
        }
        None
    }

    /// `X`, `=X`, `<X`, `<=X`, `>X`, `>=X`; a bare number only where
    /// `bare` allows it (after ro, rr and !).
    fn condition(&mut self, bare: bool) -> Result<Condition, LangError> {
        let make: fn(i64) -> Condition = if self.eat_str("<=") {
            Condition::Le
        } else if self.eat_str(">=") {
            Condition::Ge
        } else if self.eat('<') {
            Condition::Lt
        } else if self.eat('>') {
            Condition::Gt
        } else if self.eat('=') {
            Condition::Eq
        } else if bare && self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Ok(Condition::Eq(self.integer()?));
        } else {
            return Err(self.error_here(format!(
                "expected a condition such as 1, <3 or >=5, found {}",
                self.found()
            )));
        };
        if !self.peek().is_some_and(|c| c == '-' || c.is_ascii_digit()) {
            return Err(self.error_here(format!(
                "expected a number after the comparison, found {}",
                self.found()
            )));
        }
        Ok(make(self.signed_integer()?))
    }
}

/// A pool whose dice `pairs` can sort: a fixed count, each die one value.
fn plain_pool(expr: &Expr) -> bool {
    matches!(&expr.node, Node::Pool(p) if p.keep.is_empty() && p.successes.is_none()
        && p.rolled.is_none() && (p.explode.is_none() || p.explosion != Explosion::Pool))
}

/// "; did you mean kh3?" for the known word nearest `word` (at most two
/// edits away), followed by `number`; empty when none is near.
fn did_you_mean(word: &str, known: &[&str], number: &str) -> String {
    known
        .iter()
        .map(|k| (crate::engine::nearest::edits(word, k), *k))
        .filter(|(d, _)| *d <= 2 && *d < word.len().max(2))
        .min_by_key(|(d, _)| *d)
        .map_or(String::new(), |(_, k)| {
            format!("; did you mean {k}{number}?")
        })
}

fn set_once<T>(
    slot: &mut Option<Modifier<T>>,
    rule: T,
    span: Span,
    what: &str,
) -> Result<(), LangError> {
    if slot.is_some() {
        return Err(LangError::new(
            span,
            format!("a pool takes one {what} rule: this is the second"),
        ));
    }
    *slot = Some(Modifier { rule, span });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(text: &str) -> Pool {
        match parse(text).unwrap().node {
            Node::Pool(pool) => pool,
            other => panic!("{text}: {other:?}"),
        }
    }

    fn error(text: &str) -> (usize, String) {
        let error = parse(text).unwrap_err();
        (error.span.start + 1, error.message)
    }

    #[test]
    fn reads_dice_and_their_modifiers() {
        let p = pool("4d6ro1kh3");
        assert_eq!((p.count, &p.die), (4, &Die::Standard(6)));
        assert_eq!(
            p.reroll.unwrap().rule,
            Reroll {
                until: false,
                condition: Condition::Eq(1)
            }
        );
        assert_eq!(p.keep[0].rule, KeepRule::KeepHighest(3));
        let p = pool("5d10!>=9kh3");
        assert_eq!(p.explode.unwrap().rule, Some(Condition::Ge(9)));
        let p = pool("3d6!");
        assert_eq!(p.explode.unwrap().rule, None);
        assert_eq!(p.explosion, Explosion::Pool);
        assert_eq!(pool("3d6!!").explosion, Explosion::Compound);
        let p = pool("3d6!p>=5");
        assert_eq!(p.explosion, Explosion::Penetrate);
        assert_eq!(p.explode.unwrap().rule, Some(Condition::Ge(5)));
        assert_eq!(pool("6d10!10>=8").successes.unwrap().rule, Condition::Ge(8));
        let p = pool("2d6rr<3");
        assert_eq!(
            p.reroll.unwrap().rule,
            Reroll {
                until: true,
                condition: Condition::Lt(3)
            }
        );
        let p = pool("8d10>=7");
        assert_eq!(p.successes.unwrap().rule, Condition::Ge(7));
        assert_eq!(pool("d%").die, Die::Standard(100));
        assert_eq!(pool("4dF").die, Die::Fudge);
        assert_eq!(pool("3d{0,0,1,1,2}").die, Die::Custom(vec![0, 0, 1, 1, 2]));
        assert_eq!(pool("d{-2, 5}").die, Die::Custom(vec![-2, 5]));
        assert_eq!(pool("2d20kl").keep[0].rule, KeepRule::KeepLowest(1));
        // Modifiers in any order.
        assert_eq!(
            pool("4d6kh3ro1"),
            Pool {
                ..pool("4d6kh3ro1")
            }
        );
        assert_eq!(
            pool("4d6kh3ro1").reroll.unwrap().rule.condition,
            Condition::Eq(1)
        );
    }

    #[test]
    fn reads_arithmetic_with_precedence() {
        let e = parse("1 + 2 * 3").unwrap();
        match e.node {
            Node::Binary(BinaryOp::Add, left, right) => {
                assert_eq!(left.node, Node::Number(1));
                assert!(matches!(right.node, Node::Binary(BinaryOp::Multiply, _, _)));
            }
            other => panic!("{other:?}"),
        }
        let e = parse("-d6 - -2").unwrap();
        assert!(matches!(e.node, Node::Binary(BinaryOp::Subtract, _, _)));
        let e = parse("max(2d20kh1, 1d20) % 3").unwrap();
        assert!(matches!(e.node, Node::Binary(BinaryOp::Modulo, _, _)));
        let e = parse("(1d6)").unwrap();
        assert_eq!(e.span, Span { start: 0, end: 5 });
        assert!(parse("d6%3").is_ok());
        assert!(parse("d%%3").is_ok());
    }

    #[test]
    fn errors_name_the_column_and_what_was_expected() {
        assert_eq!(error("d0").0, 1);
        assert!(error("d0").1.contains("at least one face"));
        assert_eq!(error("(1d6 + 2").0, 1);
        assert!(error("(1d6 + 2").1.contains("unbalanced `(`"));
        assert_eq!(error("1d6)").0, 4);
        assert!(error("1d6)").1.contains("unbalanced `)`"));
        assert_eq!(error("3d6 +").0, 6);
        assert!(error("3d6 +").1.contains("found the end"));
        assert_eq!(error("3dx").0, 3);
        assert_eq!(error("4d6kx").0, 4);
        assert!(error("4d6kx").1.contains("unknown modifier"));
        assert!(error("foo(1)").1.contains("unknown name `foo`"));
        assert!(error("abs(1, 2)").1.contains("exactly one"));
        assert!(error("").1.contains("empty"));
        assert!(error("0d6").1.contains("at least one die"));
        assert!(error("99999999999999999999").1.contains("too large"));
        assert!(error("d{1,}").1.contains("expected a face"));
        assert!(error("2d6rr").1.contains("expected a condition"));
        assert!(error("2d6>").1.contains("expected a number"));
    }

    fn keeps(text: &str) -> Vec<KeepRule> {
        pool(text).keep.iter().map(|k| k.rule).collect()
    }

    fn compare(text: &str) -> (Comparison, Node, Node) {
        match parse(text).unwrap().node {
            Node::Compare(c, a, b) => (c, a.node, b.node),
            other => panic!("{text}: {other:?}"),
        }
    }

    /// Issue 28, items 1 and 2: a comparison after a space or `)` compares
    /// totals, at the lowest precedence; straight after a pool it counts.
    #[test]
    fn comparisons_of_totals_and_counts_of_dice() {
        let (c, left, right) = compare("1d20+5 >= 15");
        assert_eq!(c, Comparison::Ge);
        assert!(matches!(left, Node::Binary(BinaryOp::Add, _, _)));
        assert_eq!(right, Node::Number(15));
        assert_eq!(compare("(2d6)>=7").0, Comparison::Ge);
        assert_eq!(compare("2d6 >= 7").0, Comparison::Ge);
        assert_eq!(compare("d20 > d20").0, Comparison::Gt);
        assert_eq!(compare("2d20kh1 = 20").0, Comparison::Eq);
        assert_eq!(compare("3d6 != 10").0, Comparison::Ne);
        assert_eq!(compare("d6 == 3").0, Comparison::Eq);
        assert_eq!(compare("1+2<3*4").0, Comparison::Lt);
        assert_eq!(pool("8d10>=7").successes.unwrap().rule, Condition::Ge(7));
        assert!(parse("(d6 > 3) + (d6 > 3)").is_ok());
        assert!(error("d6 > 3 > 2").1.contains("unexpected `>`"));
    }

    /// Issue 28, items 3 and 8: Roll20's shorthands, any case, spaces and
    /// Unicode operators; several keeps in order.
    #[test]
    fn shorthands_and_spellings() {
        assert_eq!(keeps("4d6k3"), [KeepRule::KeepHighest(3)]);
        assert_eq!(keeps("2d20k"), [KeepRule::KeepHighest(1)]);
        assert_eq!(keeps("4d6d1"), [KeepRule::DropLowest(1)]);
        assert_eq!(keeps("4D6KH3"), [KeepRule::KeepHighest(3)]);
        assert_eq!(keeps("4d6 kh3"), [KeepRule::KeepHighest(3)]);
        assert_eq!(
            pool("4d6 ro1  kh3").reroll.unwrap().rule.condition,
            Condition::Eq(1)
        );
        assert_eq!(
            keeps("4d6dl1dh1"),
            [KeepRule::DropLowest(1), KeepRule::DropHighest(1)]
        );
        assert_eq!(
            keeps("5d10kh3kl1"),
            [KeepRule::KeepHighest(3), KeepRule::KeepLowest(1)]
        );
        assert_eq!(pool("4DF").die, Die::Fudge);
        assert_eq!(
            parse("1d6 − 2").unwrap().node,
            parse("1d6 - 2").unwrap().node
        );
        assert_eq!(parse("2 × d6").unwrap().node, parse("2 * d6").unwrap().node);
        assert_eq!(error("d{−1, 1} − x").0, 12);
        let p = pool("10d10>=8f1");
        assert_eq!(p.failures.unwrap().rule, Condition::Eq(1));
        assert_eq!(pool("5d10>=6f<=2").failures.unwrap().rule, Condition::Le(2));
    }

    /// Issue 28, items 5 and 11: every refusal names the column and what
    /// to write.
    #[test]
    fn refusals_say_what_to_write() {
        let (column, message) = error("4d6kx3");
        assert_eq!(column, 4);
        assert!(message.contains("unknown modifier `kx`"), "{message}");
        assert!(message.ends_with("did you mean kh3?"), "{message}");
        assert!(
            message.contains("kh, kl, dh, dl, k, d, ro, rr or f"),
            "{message}"
        );
        let (column, message) = error("4d6r1");
        assert_eq!(column, 4);
        assert!(
            message.contains("ro (as in ro1)") && message.contains("rr"),
            "{message}"
        );
        assert!(error("4d6 r<2").1.contains("reroll once"));
        assert!(error("d20adv").1.contains("write 2d20kh1"));
        assert!(error("d20dis").1.contains("write 2d20kl1"));
        let (column, message) = error("flor(d6 / 2)");
        assert_eq!(column, 1);
        assert!(message.ends_with("did you mean floor?"), "{message}");
        let (column, message) = error("3d6 / 2");
        assert_eq!(column, 5);
        assert!(
            message.contains("floor(a / b)")
                && message.contains("ceil(a / b)")
                && message.contains("round(a / b)"),
            "{message}"
        );
        assert!(error("floor(d6)").1.contains("write floor(a / b)"));
        assert!(matches!(
            parse("pairs(3d6, 2d6!!)").unwrap().node,
            Node::Pairs(_, _)
        ));
        for bad in [
            "pairs(3d6kh2, 2d6)",
            "pairs(3d6)",
            "pairs(3d6, 2)",
            "pairs(2d6!, d6)",
        ] {
            assert!(error(bad).1.contains("as in pairs(3d6, 2d6)"), "{bad}");
        }
        assert!(error("max(d6 / 2, 1)").1.contains("bare `/`"));
        assert!(error("10d10f1").1.contains("as in 10d10>=8f1"));
        assert!(error("10d10>=8f1f2").1.contains("second"));
        let e = parse("floor((3d6 + 1) / 2)").unwrap();
        assert!(matches!(
            e.node,
            Node::Binary(BinaryOp::Divide(Rounding::Floor), _, _)
        ));
        assert_eq!(e.span, Span { start: 0, end: 20 });
        assert!(matches!(
            parse("round(d6 / 4)").unwrap().node,
            Node::Binary(BinaryOp::Divide(Rounding::Round), _, _)
        ));
    }

    #[test]
    fn hostile_input_is_bounded() {
        let deep = "(".repeat(400) + "1" + &")".repeat(400);
        assert!(error(&deep).1.contains("nested"));
        let minus = "-".repeat(400) + "1";
        assert!(error(&minus).1.contains("nested"));
        let long = "1+".repeat(600) + "1";
        assert!(error(&long).1.contains("at most"));
        assert!(parse("é").is_err());
        assert!(parse("1d6 1d6").is_err());
    }
}
