//! Reads tokens into statements by AnyDice's grammar. Every problem is
//! collected: after one, reading resumes at the next statement.

use super::lex::{Tok, Token};
use super::syntax::*;
use super::{Place, Problem};
use std::sync::Arc;

/// The program's statements, or every problem found.
pub(crate) fn program(tokens: &[Token]) -> Result<Vec<Statement>, Vec<Problem>> {
    let mut reader = Reader {
        tokens,
        at: 0,
        problems: Vec::new(),
        depth: 0,
        names: Default::default(),
    };
    let statements = reader.block_body(Context::Top);
    if reader.problems.is_empty() {
        Ok(statements)
    } else {
        Err(reader.problems)
    }
}

/// Where a statement stands: functions may not output, define functions
/// or change settings; only they give a `result:`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Top,
    Block,
    Function,
}

/// The deepest nesting of parentheses, blocks and calls read: a program
/// of a million `(` would otherwise exhaust the stack.
const MAX_NESTING: usize = 200;

struct Reader<'a> {
    tokens: &'a [Token],
    at: usize,
    problems: Vec<Problem>,
    depth: usize,
    /// Each name read once: every use of a variable shares its text, so
    /// frames find it by address before comparing letters.
    names: crate::hash::FnvMap<String, Name>,
}

type Read<T> = Result<T, Problem>;

impl Reader<'_> {
    fn name(&mut self, text: String) -> Name {
        self.names
            .entry(text)
            .or_insert_with_key(|text| Name::from(text.as_str()))
            .clone()
    }

    fn peek(&self) -> &Tok {
        &self.tokens[self.at].kind
    }

    fn place(&self) -> Place {
        self.tokens[self.at].at
    }

    fn next(&mut self) -> Tok {
        let tok = self.tokens[self.at].kind.clone();
        if tok != Tok::End {
            self.at += 1;
        }
        tok
    }

    fn is_sym(&self, symbol: &str) -> bool {
        matches!(self.peek(), Tok::Sym(s) if *s == symbol)
    }

    fn is_word(&self, word: &str) -> bool {
        matches!(self.peek(), Tok::Lower(w) if w == word)
    }

    fn expect_sym(&mut self, symbol: &str, why: &str) -> Read<()> {
        if self.is_sym(symbol) {
            self.next();
            Ok(())
        } else {
            Err(self.unexpected(&format!("\"{symbol}\" {why}")))
        }
    }

    fn expect_word(&mut self, word: &str, why: &str) -> Read<()> {
        if self.is_word(word) {
            self.next();
            Ok(())
        } else {
            Err(self.unexpected(&format!("\"{word}\" {why}")))
        }
    }

    fn unexpected(&self, expected: &str) -> Problem {
        let found = match self.peek() {
            Tok::Number(n) => format!("the number {n}"),
            Tok::Upper(w) => format!("the variable {w}"),
            Tok::Lower(w) => format!("the word \"{w}\""),
            Tok::Text(t) => format!("the text \"{t}\""),
            Tok::Sym(s) => format!("\"{s}\""),
            Tok::End => "the end of the program".to_string(),
        };
        Problem::new(self.place(), format!("found {found}, expected {expected}"))
    }

    fn nest(&mut self) -> Read<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(Problem::new(
                self.place(),
                format!("nested more than {MAX_NESTING} deep: name a part with a variable"),
            ));
        }
        Ok(())
    }

    /// Statements up to `}` or the end, recovering after each problem.
    fn block_body(&mut self, context: Context) -> Vec<Statement> {
        let mut out = Vec::new();
        loop {
            match self.peek() {
                Tok::End => return out,
                Tok::Sym("}") if context != Context::Top => return out,
                _ => {}
            }
            let (start, depth) = (self.at, self.depth);
            let read = self.statement(context);
            self.depth = depth;
            match read {
                Ok(statement) => {
                    let is_result = matches!(statement, Statement::Result(_));
                    out.push(statement);
                    if is_result && !self.is_sym("}") {
                        let problem = self.unexpected(
                            "\"}\" after \"result:\" (a result ends the function: nothing may follow it in its block)",
                        );
                        self.problems.push(problem);
                        self.recover(start);
                    }
                }
                Err(problem) => {
                    self.problems.push(problem);
                    self.recover(start);
                }
            }
        }
    }

    /// Skips to the next token that can start a statement at this level.
    fn recover(&mut self, start: usize) {
        if self.at == start {
            self.next();
        }
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Tok::End => return,
                Tok::Sym("{") => depth += 1,
                Tok::Sym("}") if depth == 0 => return,
                Tok::Sym("}") => depth -= 1,
                Tok::Lower(w)
                    if depth == 0
                        && matches!(
                            w.as_str(),
                            "output" | "function" | "loop" | "if" | "set" | "result"
                        ) =>
                {
                    return
                }
                Tok::Upper(_)
                    if depth == 0
                        && matches!(
                            self.tokens.get(self.at + 1).map(|t| &t.kind),
                            Some(Tok::Sym(":"))
                        ) =>
                {
                    return
                }
                _ => {}
            }
            self.next();
        }
    }

    fn statement(&mut self, context: Context) -> Read<Statement> {
        let at = self.place();
        let inside = context == Context::Function;
        match self.peek().clone() {
            Tok::Upper(name) => {
                self.next();
                self.expect_sym(":", &format!("after {name} to give it a value ({name}: 3d6)"))?;
                let name = self.name(name);
                Ok(Statement::Assign(name, self.expression()?))
            }
            Tok::Lower(word) => match word.as_str() {
                "output" if !inside => {
                    self.next();
                    let value = self.expression()?;
                    let name = if self.is_word("named") {
                        self.next();
                        match self.next() {
                            Tok::Text(text) => Some(pieces(&text)),
                            _ => {
                                self.at -= 1;
                                return Err(self.unexpected("a name in double quotes after \"named\""));
                            }
                        }
                    } else {
                        None
                    };
                    Ok(Statement::Output { value, name, at })
                }
                "function" if !inside => {
                    self.next();
                    self.expect_sym(":", "after \"function\" (function: name X:n { ... })")?;
                    self.function()
                }
                "set" if !inside => {
                    self.next();
                    let setting = match self.next() {
                        Tok::Text(text) => text,
                        _ => {
                            self.at -= 1;
                            return Err(self.unexpected("a setting's name in double quotes after \"set\""));
                        }
                    };
                    self.expect_word("to", "after the setting's name")?;
                    let value = match self.peek().clone() {
                        Tok::Text(text) => {
                            self.next();
                            Setting::Text(text)
                        }
                        _ => Setting::Value(self.expression()?),
                    };
                    Ok(Statement::Set { setting, value, at })
                }
                "if" => {
                    self.next();
                    let mut branches = vec![(self.expression()?, self.block(context)?, at)];
                    let mut otherwise = None;
                    while self.is_word("else") {
                        self.next();
                        if self.is_word("if") {
                            let at = self.place();
                            self.next();
                            branches.push((self.expression()?, self.block(context)?, at));
                        } else {
                            otherwise = Some(self.block(context)?);
                            break;
                        }
                    }
                    Ok(Statement::If { branches, otherwise })
                }
                "loop" => {
                    self.next();
                    let variable = match self.next() {
                        Tok::Upper(name) => name,
                        _ => {
                            self.at -= 1;
                            return Err(self.unexpected("a variable after \"loop\" (loop N over {1..4} { ... })"));
                        }
                    };
                    self.expect_word("over", "after the loop's variable")?;
                    let over = self.expression()?;
                    let body = self.block(context)?;
                    let variable = self.name(variable);
                    Ok(Statement::Loop { variable, over, body, at })
                }
                "result" if inside => {
                    self.next();
                    self.expect_sym(":", "after \"result\" (result: X + 1)")?;
                    Ok(Statement::Result(self.expression()?))
                }
                "result" => Err(Problem::new(at, "\"result:\" gives a function's value: it belongs inside a function")),
                "output" | "set" | "function" => Err(Problem::new(
                    at,
                    format!("\"{word}\" is not allowed here: a function computes a result, and outputs, settings and functions belong at the top of the program"),
                )),
                _ => Err(self.unexpected("a statement (output, X: value, function:, if, loop or set); perhaps you forgot to write \"output\"")),
            },
            _ => Err(self.unexpected("a statement (output, X: value, function:, if, loop or set); perhaps you forgot to write \"output\"")),
        }
    }

    fn block(&mut self, context: Context) -> Read<Vec<Statement>> {
        let context = if context == Context::Top {
            Context::Block
        } else {
            context
        };
        self.expect_sym("{", "to open a block")?;
        self.nest()?;
        let body = self.block_body(context);
        self.depth -= 1;
        self.expect_sym("}", "to end the block")?;
        Ok(body)
    }

    fn function(&mut self) -> Read<Statement> {
        let mut name = Vec::new();
        loop {
            match self.peek().clone() {
                Tok::Lower(word) => {
                    self.next();
                    name.push(NamePart::Word(word));
                }
                Tok::Upper(variable) => {
                    self.next();
                    let kind = if self.is_sym(":") {
                        self.next();
                        match self.next() {
                            Tok::Lower(t) if t == "n" => Type::Number,
                            Tok::Lower(t) if t == "s" => Type::Sequence,
                            Tok::Lower(t) if t == "d" => Type::Die,
                            Tok::Sym("?") => Type::Any,
                            _ => {
                                self.at -= 1;
                                return Err(self.unexpected(
                                    "a parameter type: n (number), s (sequence) or d (die)",
                                ));
                            }
                        }
                    } else {
                        Type::Any
                    };
                    name.push(NamePart::Parameter(self.name(variable), kind));
                }
                Tok::Sym("{") => break,
                _ => {
                    return Err(self
                        .unexpected("a word, a parameter (X:n) or \"{\" in the function's name"))
                }
            }
        }
        let body = self.block(Context::Function)?;
        Ok(Statement::Function(Arc::new(Function::new(name, body))))
    }

    pub(crate) fn expression(&mut self) -> Read<Expr> {
        self.binary(1)
    }

    fn binary_at(&self, level: u8) -> Option<Binary> {
        let op = match self.peek() {
            Tok::Sym(s) => Binary::from_symbol(s)?,
            Tok::Lower(w) if w == "d" => Binary::Dice,
            _ => return None,
        };
        (op.level() == level).then_some(op)
    }

    fn binary(&mut self, level: u8) -> Read<Expr> {
        if level > 7 {
            return self.unary();
        }
        let mut left = self.binary(level + 1)?;
        while let Some(op) = self.binary_at(level) {
            let at = self.place();
            self.next();
            let right = if op == Binary::Dice {
                self.unary()?
            } else {
                self.binary(level + 1)?
            };
            left = Expr::Binary(op, Box::new(left), Box::new(right), at);
        }
        Ok(left)
    }

    fn unary(&mut self) -> Read<Expr> {
        let op = match self.peek() {
            Tok::Sym("+") => Unary::Plus,
            Tok::Sym("-") => Unary::Minus,
            Tok::Sym("!") => Unary::Not,
            Tok::Sym("#") => Unary::Length,
            Tok::Lower(w) if w == "d" => Unary::Die,
            _ => return self.atom(),
        };
        self.next();
        self.nest()?;
        let operand = self.unary()?;
        self.depth -= 1;
        Ok(Expr::Unary(op, Box::new(operand)))
    }

    fn atom(&mut self) -> Read<Expr> {
        let at = self.place();
        match self.peek().clone() {
            Tok::Number(n) => {
                self.next();
                Ok(Expr::Number(n))
            }
            Tok::Upper(name) => {
                self.next();
                Ok(Expr::Variable(self.name(name), at))
            }
            Tok::Sym("(") => {
                self.next();
                self.nest()?;
                let inner = self.expression()?;
                self.depth -= 1;
                self.expect_sym(")", "to close the parenthesis")?;
                Ok(inner)
            }
            Tok::Sym("{") => {
                self.next();
                self.nest()?;
                let mut parts = Vec::new();
                if !self.is_sym("}") {
                    loop {
                        let value = self.expression()?;
                        let to = if self.is_sym("..") {
                            self.next();
                            Some(self.expression()?)
                        } else {
                            None
                        };
                        let times = if self.is_sym(":") {
                            self.next();
                            Some(self.expression()?)
                        } else {
                            None
                        };
                        parts.push(Part { value, to, times });
                        if self.is_sym(",") {
                            self.next();
                        } else {
                            break;
                        }
                    }
                }
                self.depth -= 1;
                self.expect_sym("}", "to end the sequence (or \",\" between its parts)")?;
                Ok(Expr::Sequence(parts))
            }
            Tok::Sym("[") => {
                self.next();
                self.nest()?;
                let mut parts = Vec::new();
                loop {
                    match self.peek().clone() {
                        Tok::Sym("]") => break,
                        Tok::Lower(w) if w != "d" => {
                            self.next();
                            parts.push(CallPart::Word(w));
                        }
                        Tok::End => return Err(self.unexpected("\"]\" to end the function call")),
                        _ => parts.push(CallPart::Argument(self.expression()?)),
                    }
                }
                self.depth -= 1;
                self.next();
                Ok(Expr::Call(Call::new(parts), at))
            }
            _ => Err(self.unexpected(
                "a value: a number, a variable, d6, {1..6}, (...) or [a function call]",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::lex::tokens;
    use super::*;

    fn one(source: &str) -> Expr {
        match &program(&tokens(&format!("output {source}")).unwrap()).unwrap()[0] {
            Statement::Output { value, .. } => value.clone(),
            other => panic!("{other:?}"),
        }
    }

    fn shape(e: &Expr) -> String {
        match e {
            Expr::Number(n) => n.to_string(),
            Expr::Variable(v, _) => v.to_string(),
            Expr::Unary(op, x) => format!("({op:?} {})", shape(x)),
            Expr::Binary(op, a, b, _) => format!("({} {op:?} {})", shape(a), shape(b)),
            Expr::Sequence(p) => format!("{{{}}}", p.len()),
            Expr::Call(c, _) => format!("[{}]", c.parts.len()),
        }
    }

    #[test]
    fn precedence_follows_the_grammar() {
        assert_eq!(shape(&one("#3d6")), "((Length 3) Dice 6)");
        assert_eq!(shape(&one("-2^2")), "((Minus 2) Power 2)");
        assert_eq!(shape(&one("1@3d6+1")), "((1 At (3 Dice 6)) Add 1)");
        assert_eq!(shape(&one("1 | 1 & 0")), "((1 Or 1) And 0)");
        assert_eq!(
            shape(&one("2d6 >= 7 + 1")),
            "((2 Dice 6) AtLeast (7 Add 1))"
        );
        assert_eq!(shape(&one("d6d6")), "((Die 6) Dice 6)");
        assert_eq!(shape(&one("2*3^2")), "(2 Multiply (3 Power 2))");
    }

    #[test]
    fn problems_are_all_reported_with_places() {
        let problems = program(&tokens("output 1 +\nX 3\noutput (2").unwrap()).unwrap_err();
        let places: Vec<_> = problems.iter().map(|p| (p.at.line, p.at.column)).collect();
        assert_eq!(places, vec![(2, 3), (3, 10)], "{problems:?}");
        let problems = program(&tokens("function: f { result: 1 output 2 }").unwrap()).unwrap_err();
        assert!(problems[0].message.contains("result"), "{problems:?}");
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = format!("output {}1{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(program(&tokens(&deep).unwrap()).is_err());
        let deep = format!("output {}1", "-".repeat(100_000));
        assert!(program(&tokens(&deep).unwrap()).is_err());
    }
}
