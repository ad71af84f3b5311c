//! Reading an expression into its syntax tree, by recursive descent:
//!
//! ```text
//! expr    = term { ("+" | "-") term }
//! term    = unary { ("*" | "%") unary }
//! unary   = "-" unary | atom
//! atom    = integer | pool | "(" expr ")" | name "(" expr { "," expr } ")"
//! pool    = [integer] ("d" | "D") die { modifier }
//! die     = integer | "F" | "%" | "{" face { "," face } "}"
//! modifier = ("ro" | "rr") cond | "!" [cond] | ("kh" | "kl" | "dh" | "dl") [integer]
//!          | compare
//! cond    = integer | compare
//! compare = ("=" | "<" | "<=" | ">" | ">=") ["-"] integer
//! ```
//!
//! Spaces may separate tokens of `expr`, `term` and `atom`, never the parts
//! of a pool. Every error names the column and what was expected.

use super::{
    BinaryOp, Die, Expr, Function, KeepRule, LangError, Modifier, Node, Pool, Reroll, Span,
};
use crate::engine::pool::Condition;

/// The longest expression read, so a hostile file cannot make the parser
/// recurse or allocate without bound.
pub(crate) const MAX_LENGTH: usize = 1000;
/// The deepest nesting of parentheses, unary minus and calls.
const MAX_DEPTH: usize = 64;

/// Read an expression.
pub fn parse(text: &str) -> Result<Expr, LangError> {
    let chars: Vec<char> = text.chars().collect();
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
            format!("unexpected `{c}`: expected an operator (+ - * %) or the end")
        };
        return Err(parser.error_here(message));
    }
    Ok(expr)
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    depth: usize,
}

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

    fn eat_str(&mut self, s: &str) -> bool {
        let len = s.chars().count();
        if self.chars[self.at..]
            .iter()
            .take(len)
            .copied()
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
            let op = match self.peek() {
                Some('*') => BinaryOp::Multiply,
                Some('%') => BinaryOp::Modulo,
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
                Ok(inner)
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
        let function = match name.as_str() {
            "max" => Function::Max,
            "min" => Function::Min,
            "abs" => Function::Abs,
            _ => {
                return Err(LangError::new(
                    self.span_from(start),
                    format!("unknown name `{name}`: expected dice such as 3d6, or max, min or abs"),
                ))
            }
        };
        self.skip_spaces();
        if !self.eat('(') {
            return Err(
                self.error_here(format!("expected `(` after {name}, found {}", self.found()))
            );
        }
        self.nest()?;
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
        self.depth -= 1;
        let span = self.span_from(start);
        if function == Function::Abs && arguments.len() != 1 {
            return Err(LangError::new(span, "abs takes exactly one argument"));
        }
        Ok(Expr {
            node: Node::Call(function, arguments),
            span,
        })
    }

    /// A pool from its `d` on; `count` is `None` for a bare `d6`.
    fn pool(&mut self, start: usize, count: Option<u64>) -> Result<Expr, LangError> {
        let die_start = self.at;
        self.at += 1; // the `d` (or `D`)
        let die = match self.peek() {
            Some('F') => {
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
            count: count.unwrap_or(1),
            count_written: count.is_some(),
            die,
            die_span,
            reroll: None,
            explode: None,
            keep: None,
            successes: None,
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
            let start = self.at;
            if self.eat_str("ro") || self.eat_str("rr") {
                let until = self.chars[start + 1] == 'r';
                let condition = self.condition(true)?;
                let rule = Reroll { until, condition };
                set_once(&mut pool.reroll, rule, self.span_from(start), "reroll")?;
            } else if self.eat('!') {
                let condition = if self
                    .peek()
                    .is_some_and(|c| c.is_ascii_digit() || "<>=".contains(c))
                {
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
                    "kh" => KeepRule::KeepHighest(amount),
                    "kl" => KeepRule::KeepLowest(amount),
                    "dh" => KeepRule::DropHighest(amount),
                    _ => KeepRule::DropLowest(amount),
                };
                set_once(&mut pool.keep, rule, self.span_from(start), "keep or drop")?;
            } else if self.peek().is_some_and(|c| "<>=".contains(c)) {
                let condition = self.condition(false)?;
                set_once(
                    &mut pool.successes,
                    condition,
                    self.span_from(start),
                    "count",
                )?;
            } else if self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
                let bad = self.peek().unwrap_or(' ');
                return Err(self.error_here(format!(
                    "unknown modifier starting `{bad}`: expected ro, rr, !, kh, kl, dh, dl \
                     or a condition such as >=5"
                )));
            } else {
                return Ok(());
            }
        }
    }

    fn keep_kind(&mut self) -> Option<&'static str> {
        ["kh", "kl", "dh", "dl"]
            .into_iter()
            .find(|kind| self.eat_str(kind))
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
        assert_eq!(p.keep.unwrap().rule, KeepRule::KeepHighest(3));
        let p = pool("5d10!>=9kh3");
        assert_eq!(p.explode.unwrap().rule, Some(Condition::Ge(9)));
        let p = pool("3d6!");
        assert_eq!(p.explode.unwrap().rule, None);
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
        assert_eq!(pool("2d20kl").keep.unwrap().rule, KeepRule::KeepLowest(1));
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
        assert_eq!(error("4d6kh3kl1").0, 7);
        assert!(error("foo(1)").1.contains("unknown name `foo`"));
        assert!(error("abs(1, 2)").1.contains("exactly one"));
        assert!(error("").1.contains("empty"));
        assert!(error("0d6").1.contains("at least one die"));
        assert!(error("99999999999999999999").1.contains("too large"));
        assert!(error("d{1,}").1.contains("expected a face"));
        assert!(error("2d6rr").1.contains("expected a condition"));
        assert!(error("2d6>").1.contains("expected a number"));
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
