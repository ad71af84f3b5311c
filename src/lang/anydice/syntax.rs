//! The syntax tree of an AnyDice program, as its grammar
//! (`anydice.com/ebnf.txt`) names the parts.

use super::Place;

/// Binary operators, loosest first: `& |`, comparisons, `+ -`, `* /`, `^`,
/// `@`, `d`. Operators of one level group from the left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Binary {
    And,
    Or,
    Equal,
    NotEqual,
    Less,
    Greater,
    AtMost,
    AtLeast,
    Add,
    Subtract,
    Multiply,
    Divide,
    Power,
    At,
    Dice,
}

impl Binary {
    /// How tightly the operator binds: 1 loosest, 7 tightest.
    pub(crate) fn level(self) -> u8 {
        use Binary::*;
        match self {
            And | Or => 1,
            Equal | NotEqual | Less | Greater | AtMost | AtLeast => 2,
            Add | Subtract => 3,
            Multiply | Divide => 4,
            Power => 5,
            At => 6,
            Dice => 7,
        }
    }

    pub(crate) fn from_symbol(symbol: &str) -> Option<Binary> {
        use Binary::*;
        Some(match symbol {
            "&" => And,
            "|" => Or,
            "=" => Equal,
            "!=" => NotEqual,
            "<" => Less,
            ">" => Greater,
            "<=" => AtMost,
            ">=" => AtLeast,
            "+" => Add,
            "-" => Subtract,
            "*" => Multiply,
            "/" => Divide,
            "^" => Power,
            "@" => At,
            "d" => Dice,
            _ => return None,
        })
    }

    pub(crate) fn is_comparison(self) -> bool {
        self.level() == 2
    }
}

/// Prefix operators, which bind tighter than any binary one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unary {
    Plus,
    Minus,
    Not,
    Length,
    Die,
}

/// A variable's or a parameter's name, shared: binding it in a frame
/// copies no text.
pub(crate) type Name = std::sync::Arc<str>;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    Number(i64),
    Variable(Name, Place),
    Sequence(Vec<Part>),
    Unary(Unary, Box<Expr>),
    Binary(Binary, Box<Expr>, Box<Expr>, Place),
    /// `[word ARG word ...]`.
    Call(Call, Place),
}

/// A function call's parts, and the key of the function it names (made
/// once when the program is read, not at every call).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Call {
    pub parts: Vec<CallPart>,
    pub key: String,
}

impl Expr {
    /// Calls `variable` with each name this expression reads and `call`
    /// with each function call it makes, outermost first.
    pub(crate) fn visit(&self, variable: &mut dyn FnMut(&str), call: &mut dyn FnMut(&Call)) {
        match self {
            Expr::Number(_) => {}
            Expr::Variable(name, _) => variable(name),
            Expr::Sequence(parts) => {
                for p in parts {
                    p.value.visit(variable, call);
                    for e in p.to.iter().chain(p.times.iter()) {
                        e.visit(variable, call);
                    }
                }
            }
            Expr::Unary(_, x) => x.visit(variable, call),
            Expr::Binary(_, a, b, _) => {
                a.visit(variable, call);
                b.visit(variable, call);
            }
            Expr::Call(c, _) => {
                call(c);
                for p in &c.parts {
                    if let CallPart::Argument(e) = p {
                        e.visit(variable, call);
                    }
                }
            }
        }
    }
}

impl Call {
    pub(crate) fn new(parts: Vec<CallPart>) -> Call {
        let key = key(parts.iter().map(|p| match p {
            CallPart::Word(w) => Some(w.as_str()),
            CallPart::Argument(_) => None,
        }));
        Call { parts, key }
    }
}

/// One part of a sequence: `value`, `from..to`, with `:times` after either.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Part {
    pub value: Expr,
    pub to: Option<Expr>,
    pub times: Option<Expr>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum CallPart {
    Word(String),
    Argument(Expr),
}

/// A parameter's declared type: `:n` number, `:s` sequence, `:d` die, or
/// none (`:?`), passed as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Type {
    Number,
    Sequence,
    Die,
    Any,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum NamePart {
    Word(String),
    Parameter(Name, Type),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Function {
    pub name: Vec<NamePart>,
    pub body: Vec<Statement>,
    /// Its parameters, named and typed, in order (read once, for every
    /// call).
    pub params: Vec<(Name, Type)>,
    /// The parameters' types alone.
    pub types: Vec<Type>,
}

impl Function {
    /// The words with `_` for each parameter: how calls find it.
    pub(crate) fn key(&self) -> String {
        key(self.name.iter().map(|p| match p {
            NamePart::Word(w) => Some(w.as_str()),
            NamePart::Parameter(..) => None,
        }))
    }
}

impl Function {
    pub(crate) fn new(name: Vec<NamePart>, body: Vec<Statement>) -> Function {
        let params: Vec<(Name, Type)> = name
            .iter()
            .filter_map(|p| match p {
                NamePart::Parameter(n, t) => Some((n.clone(), *t)),
                NamePart::Word(_) => None,
            })
            .collect();
        let types = params.iter().map(|(_, t)| *t).collect();
        Function {
            name,
            body,
            params,
            types,
        }
    }
}

/// A function's key from its words, `None` for each parameter or argument.
pub(crate) fn key<'a>(parts: impl Iterator<Item = Option<&'a str>>) -> String {
    parts
        .map(|p| p.unwrap_or("_"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The parts of a `named` text: literal text and `[VARIABLE]` references.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Piece {
    Text(String),
    Variable(Name),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Statement {
    Output {
        value: Expr,
        name: Option<Vec<Piece>>,
        at: Place,
    },
    Assign(Name, Expr),
    Function(std::sync::Arc<Function>),
    If {
        branches: Vec<(Expr, Vec<Statement>, Place)>,
        otherwise: Option<Vec<Statement>>,
    },
    Loop {
        variable: Name,
        over: Expr,
        body: Vec<Statement>,
        at: Place,
    },
    Set {
        setting: String,
        value: Setting,
        at: Place,
    },
    Result(Expr),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Setting {
    Text(String),
    Value(Expr),
}

/// Splits `named` text into literal text and `[VARIABLE]` references.
pub(crate) fn pieces(text: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_uppercase() || c == '_'))
            .unwrap_or(after.len());
        if name_len > 0 && after[name_len..].starts_with(']') {
            out.push(Piece::Text(rest[..open].to_string()));
            out.push(Piece::Variable(after[..name_len].into()));
            rest = &after[name_len + 1..];
        } else {
            out.push(Piece::Text(rest[..=open].to_string()));
            rest = after;
        }
    }
    out.push(Piece::Text(rest.to_string()));
    out.retain(|p| !matches!(p, Piece::Text(t) if t.is_empty()));
    out
}
