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
    BinaryOp, Comparison, Die, Explosion, Expr, Function, LangError, Modifier, Node, Pool,
    Rounding, Span,
};

mod pool;
#[cfg(test)]
mod tests;

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
