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
    BinaryOp, Comparison, Die, Explosion, Expr, Function, LangError, Modifier, Node, Notation,
    Pool, Rounding, Span,
};

mod pool;
#[cfg(test)]
mod tests;

/// The longest expression read, so a hostile file cannot make the parser
/// recurse or allocate without bound.
pub(crate) const MAX_LENGTH: usize = 1000;
/// The deepest nesting of parentheses, unary minus and calls.
const MAX_DEPTH: usize = 64;

/// Read an expression, letters read as most families mean them.
#[cfg(test)]
pub fn parse(text: &str) -> Result<Expr, LangError> {
    parse_in(text, Notation::Standard)
}

/// Read an expression in a family's notation where families disagree.
pub fn parse_in(text: &str, notation: Notation) -> Result<Expr, LangError> {
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
        notation,
    };
    parser.skip_spaces();
    parser.command();
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
    /// Whose meaning a letter takes where families disagree.
    notation: Notation,
}

/// The modifiers, as errors list them and suggestions pick from.
const MODIFIERS: [&str; 26] = [
    "kh", "kl", "dh", "dl", "k", "d", "ph", "pl", "p", "ro", "rr", "ra", "x", "xo", "e", "mi",
    "ma", "min", "max", "cs", "cf", "df", "sf", "f", "sa", "sd",
];

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

    /// The text a span covers, for messages that quote it.
    fn text_of(&self, span: Span) -> String {
        self.chars[span.start..span.end].iter().collect()
    }

    fn span_from(&self, start: usize) -> Span {
        Span {
            start,
            end: self.at,
        }
    }

    /// Roll20's and Foundry's chat commands before a roll (`/r 1d20`,
    /// `/roll 1d20`, `/gmroll`, `/gr`): read past, as the roll is the same.
    fn command(&mut self) {
        for command in ["/roll", "/gmroll", "/gr", "/r"] {
            let at = self.at;
            if self.eat_str(command) && self.peek().is_some_and(char::is_whitespace) {
                self.skip_spaces();
                return;
            }
            self.at = at;
        }
    }

    /// A name in brackets after a part (`1d8[fire]`), if any.
    fn label(&mut self, part: Expr) -> Result<Expr, LangError> {
        let before = self.at;
        self.skip_spaces();
        if self.peek() != Some('[') || self.chars.get(self.at + 1) == Some(&'[') {
            self.at = before;
            return Ok(part);
        }
        let open = self.at;
        self.at += 1;
        while self.peek().is_some_and(|c| c != ']' && c != '[') {
            self.at += 1;
        }
        if !self.eat(']') {
            return Err(LangError::new(
                Span {
                    start: open,
                    end: open + 1,
                },
                "unclosed `[`: a name in brackets ends with `]`, as in 1d8[fire]",
            ));
        }
        let name: String = self.chars[open + 1..self.at - 1].iter().collect();
        Ok(Expr {
            span: Span {
                start: part.span.start,
                end: self.at,
            },
            node: Node::Labelled(name.trim().to_string(), Box::new(part)),
        })
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
        let atom = self.atom()?;
        self.label(atom)
    }

    fn atom(&mut self) -> Result<Expr, LangError> {
        let start = self.at;
        match self.peek() {
            Some('(') if self.set_at() => self.group(start, ')'),
            Some('(') => {
                self.at += 1;
                let inner =
                    self.enclosed(start, ")", "unbalanced `(`: expected `)` to close it")?;
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
                } else if self.roll_and_keep_at() {
                    self.roll_and_keep(start, number)
                } else {
                    Ok(Expr {
                        node: Node::Number(number),
                        span: self.span_from(start),
                    })
                }
            }
            Some('d' | 'D') => self.pool(start, None),
            Some('{') => self.group(start, '}'),
            Some('[') if self.chars.get(self.at + 1) == Some(&'[') => self.inline_roll(start),
            Some(c) if c.is_ascii_alphabetic() => self.call(start),
            _ => Err(self.error_here(format!(
                "expected a number, dice such as 3d6, `(` or a function, found {}",
                self.found()
            ))),
        }
    }

    /// Whether the `(` at the cursor opens Avrae's set, `(1d4 + 1, 3)`: a
    /// comma stands inside it, outside any inner bracket.
    fn set_at(&self) -> bool {
        let mut depth = 0usize;
        for &c in &self.chars[self.at..] {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return false;
                    }
                }
                ',' if depth == 1 => return true,
                _ => {}
            }
        }
        false
    }

    /// Roll20's inline roll `[[1d20+5]]`: the roll inside, as in `( )`.
    fn inline_roll(&mut self, start: usize) -> Result<Expr, LangError> {
        self.at += 2;
        self.enclosed(start, "]]", "unclosed `[[`: an inline roll ends with `]]`")
    }

    /// The expression between an opening at `start`, already read, and
    /// `close`; `unclosed` says what is missing.
    fn enclosed(&mut self, start: usize, close: &str, unclosed: &str) -> Result<Expr, LangError> {
        self.nest()?;
        self.skip_spaces();
        let mut inner = self.expr()?;
        self.skip_spaces();
        if !self.eat_str(close) {
            return Err(LangError::new(
                Span {
                    start,
                    end: start + close.len(),
                },
                format!("{unclosed}, found {}", self.found()),
            ));
        }
        self.depth -= 1;
        inner.span = self.span_from(start);
        Ok(inner)
    }

    /// Whether Legend of the Five Rings' roll-and-keep (`6k3`) follows a
    /// number: `k` and a digit.
    fn roll_and_keep_at(&self) -> bool {
        self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'k'))
            && self
                .chars
                .get(self.at + 1)
                .is_some_and(char::is_ascii_digit)
    }

    /// `6k3`: six d10 whose tens explode into the die (another roll added,
    /// again on 10), the highest three kept; `6k3!` says the explosion.
    fn roll_and_keep(&mut self, start: usize, rolled: i64) -> Result<Expr, LangError> {
        let die_span = self.span_from(start);
        self.at += 1;
        let keep_start = self.at - 1;
        let kept = u64::try_from(self.integer()?).unwrap_or(u64::MAX);
        let keep = Modifier {
            rule: super::KeepRule::KeepHighest(kept),
            span: self.span_from(keep_start),
        };
        let explode_start = self.at;
        let written = self.eat('!');
        let count = u64::try_from(rolled)
            .ok()
            .filter(|&c| c > 0)
            .ok_or_else(|| {
                LangError::new(die_span, "roll and keep needs at least one die, as in 6k3")
            })?;
        let mut pool = Pool::plain(count, Die::Standard(10), die_span);
        pool.explode = Some(Modifier {
            rule: None,
            span: if written {
                self.span_from(explode_start)
            } else {
                die_span
            },
        });
        pool.explosion = Explosion::Compound;
        pool.keep.push(keep);
        Ok(Expr {
            node: Node::Pool(pool),
            span: self.span_from(start),
        })
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
                        "unknown name `{name}`: expected dice such as 3d6, or {}",
                        super::words::list(&known, "or"),
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
    /// Avrae writes the group `(a, b, ...)`: its opening at `start`, `close`
    /// the bracket that ends it.
    fn group(&mut self, start: usize, close: char) -> Result<Expr, LangError> {
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
            if self.eat(close) {
                break;
            }
            return Err(self.error_here(format!(
                "expected `,` or `{close}` in the group, found {}",
                self.found()
            )));
        }
        self.rounding = outer;
        self.depth -= 1;
        let die_span = self.span_from(start);
        let mut pool = Pool::plain(members.len() as u64, Die::Standard(1), die_span);
        self.modifiers(&mut pool)?;
        let per_die = [
            pool.reroll.map(|m| m.span),
            pool.explode.map(|m| m.span),
            pool.reroll_add.map(|m| m.span),
            pool.floor.map(|m| m.span),
            pool.ceiling.map(|m| m.span),
            pool.select.first().map(|m| m.span),
            pool.failures
                .filter(|_| pool.failure != super::Failure::Offset)
                .map(|m| m.span),
        ];
        if let Some(span) = per_die.into_iter().flatten().min_by_key(|s| s.start) {
            return Err(LangError::new(
                span,
                "a group {...} keeps, drops and counts its members; reroll, explode and \
                 hold the dice inside it, as in {2d6!!, 1d20}kh1",
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
    matches!(&expr.node, Node::Pool(p) if p.keep.is_empty() && !p.rescored()
        && p.reroll_add.is_none()
        && p.rolled.is_none() && (p.explode.is_none() || p.explosion != Explosion::Pool))
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
