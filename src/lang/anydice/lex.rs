//! Tokens of an AnyDice program. Whitespace is free and `\ ... \` is a
//! comment, as AnyDice's grammar says; `..` may hold spaces between its dots.

use super::{Place, Problem};

/// One token and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: Tok,
    pub at: Place,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// Digits; AnyDice has no negative literal (`-3` is unary minus).
    Number(i64),
    /// An uppercase word (with underscores): a variable.
    Upper(String),
    /// A lowercase word: a keyword, a function word or the `d` operator.
    Lower(String),
    /// Text between double quotes, without them.
    Text(String),
    /// Punctuation and operators: `{ } [ ] ( ) , : .. + - * / ^ @ # ! = != < > <= >= & |`.
    Sym(&'static str),
    End,
}

const SYMBOLS: [&str; 25] = [
    "!=", "<=", ">=", "{", "}", "[", "]", "(", ")", ",", ":", "+", "-", "*", "/", "^", "@", "#",
    "!", "=", "<", ">", "&", "|", "?",
];

/// The tokens of `source`, ending with [`Tok::End`], or every character
/// that starts no token (lexing goes on past each).
pub(crate) fn tokens(source: &str) -> Result<Vec<Token>, Vec<Problem>> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let (mut i, mut line, mut column) = (0usize, 1usize, 1usize);
    let advance = |i: &mut usize, line: &mut usize, column: &mut usize, n: usize| {
        for _ in 0..n {
            if chars[*i] == '\n' {
                *line += 1;
                *column = 1;
            } else {
                *column += 1;
            }
            *i += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let at = Place { line, column };
        if c.is_whitespace() {
            advance(&mut i, &mut line, &mut column, 1);
            continue;
        }
        if c == '\\' {
            match chars[i + 1..].iter().position(|&d| d == '\\') {
                Some(n) => advance(&mut i, &mut line, &mut column, n + 2),
                None => {
                    problems.push(Problem::new(
                        at,
                        "this comment never ends: close it with another backslash (\\)",
                    ));
                    break;
                }
            }
            continue;
        }
        let run = |test: fn(char) -> bool| chars[i..].iter().take_while(|&&d| test(d)).count();
        let kind = if c.is_ascii_digit() {
            let n = run(|d| d.is_ascii_digit());
            let text: String = chars[i..i + n].iter().collect();
            advance(&mut i, &mut line, &mut column, n);
            match text.parse::<i64>() {
                Ok(value) => Tok::Number(value),
                Err(_) => {
                    problems.push(Problem::new(
                        at,
                        format!(
                            "{text} is too large: AnyDice numbers stay within ±9223372036854775807"
                        ),
                    ));
                    Tok::Number(0)
                }
            }
        } else if c.is_ascii_uppercase() || c == '_' {
            let n = run(|d| d.is_ascii_uppercase() || d == '_');
            let word = chars[i..i + n].iter().collect();
            advance(&mut i, &mut line, &mut column, n);
            Tok::Upper(word)
        } else if c.is_ascii_lowercase() {
            let n = run(|d| d.is_ascii_lowercase());
            let word = chars[i..i + n].iter().collect();
            advance(&mut i, &mut line, &mut column, n);
            Tok::Lower(word)
        } else if c == '"' {
            match chars[i + 1..].iter().position(|&d| d == '"') {
                Some(n) => {
                    let text = chars[i + 1..i + 1 + n].iter().collect();
                    advance(&mut i, &mut line, &mut column, n + 2);
                    Tok::Text(text)
                }
                None => {
                    problems.push(Problem::new(
                        at,
                        "this text never ends: close it with a double quote (\")",
                    ));
                    break;
                }
            }
        } else if c == '.' {
            let gap = chars[i + 1..]
                .iter()
                .take_while(|d| d.is_whitespace())
                .count();
            if chars.get(i + 1 + gap) == Some(&'.') {
                advance(&mut i, &mut line, &mut column, gap + 2);
                Tok::Sym("..")
            } else {
                problems.push(Problem::new(
                    at,
                    "a lone \".\": AnyDice has whole numbers only, and ranges are written {1..6}",
                ));
                advance(&mut i, &mut line, &mut column, 1);
                continue;
            }
        } else if let Some(symbol) = SYMBOLS
            .iter()
            .find(|s| chars[i..].iter().take(s.len()).copied().eq(s.chars()))
        {
            advance(&mut i, &mut line, &mut column, symbol.len());
            Tok::Sym(symbol)
        } else {
            problems.push(Problem::new(
                at,
                format!(
                    "{c:?} means nothing in AnyDice: remove it, or put it in a comment (\\ ... \\)"
                ),
            ));
            advance(&mut i, &mut line, &mut column, 1);
            continue;
        };
        out.push(Token { kind, at });
    }
    out.push(Token {
        kind: Tok::End,
        at: Place { line, column },
    });
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<Tok> {
        tokens(source)
            .unwrap()
            .into_iter()
            .map(|t| t.kind)
            .collect()
    }

    #[test]
    fn words_numbers_ranges_and_comments() {
        assert_eq!(
            kinds("X: 3d6 \\ a note \\ {1 . .6}"),
            vec![
                Tok::Upper("X".into()),
                Tok::Sym(":"),
                Tok::Number(3),
                Tok::Lower("d".into()),
                Tok::Number(6),
                Tok::Sym("{"),
                Tok::Number(1),
                Tok::Sym(".."),
                Tok::Number(6),
                Tok::Sym("}"),
                Tok::End
            ]
        );
        assert_eq!(kinds("a>=b")[1], Tok::Sym(">="));
    }

    #[test]
    fn every_bad_character_is_reported_with_its_place() {
        let problems = tokens("output 1\n  output 2 ; $").unwrap_err();
        let places: Vec<_> = problems.iter().map(|p| (p.at.line, p.at.column)).collect();
        assert_eq!(places, vec![(2, 12), (2, 14)]);
        assert!(tokens("output 1 \\ open").is_err());
    }
}
