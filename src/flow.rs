//! YAML's one-line (flow) values, as a what-if form holds them (`5`,
//! `[2d6, 1d6]`, `{a: 4d6kh3}`, `"x, y"`), read and turned into a kind's
//! parameters without a YAML library.
//!
//! Why: the browser's module (`wasm/`) computes the forms, and a YAML
//! library is a fifth of its size. The build reads scenario files with
//! serde_yaml; a form's values are read here, and the tests hold the two
//! to the same answers: the same value for every text both accept, the
//! same message for every value a kind refuses.
//!
//! [`Node`] is what [`read`] makes of a text; it is a serde
//! [`Deserializer`](serde::de::Deserializer) that resolves plain words the way
//! serde_yaml does (by the type asked for: `7` is a number where a number
//! is asked, and text where text is), and names the key path of an error
//! as serde_yaml does (`rolls.big: …`).

mod de;
mod resolve;
#[cfg(test)]
mod tests;

pub(crate) use de::{check_numbers, to, Error};
use resolve::{resolve, Resolved};

/// A value read from one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Node {
    /// A scalar: its text, and whether it was written plain (unquoted),
    /// which decides whether it may be a number, true/false or null.
    Scalar { text: String, plain: bool },
    /// `[a, b]`
    List(Vec<Node>),
    /// `{a: 1, b: 2}`, in the order written.
    Map(Vec<(Node, Node)>),
}

/// How deep brackets may nest (serde_yaml's own limit).
const DEPTH: usize = 128;

/// A mistake in a one-line value: the 1-based column (in characters) and
/// what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Syntax {
    pub column: usize,
    pub message: String,
}

/// The value `text` writes on one line.
pub(crate) fn read(text: &str) -> Result<Node, Syntax> {
    let mut reader = Reader {
        chars: text.chars().collect(),
        at: 0,
    };
    reader.blank();
    let node = if reader.at_end() {
        plain(String::new())
    } else {
        reader.node(0)?
    };
    reader.blank();
    if !reader.at_end() {
        return Err(reader.error(format!(
            "`{}` follows a value that is already complete: put the whole value in quotes, \
             or separate list items with `, ` inside brackets",
            reader.rest()
        )));
    }
    Ok(node)
}

/// `text` as a plain (unquoted) word when it reads back as the same text,
/// and in double quotes otherwise (`12` and `true` would read as a number
/// and a truth value; `a, b` as two items).
pub(crate) fn text(text: &str) -> String {
    let reads_back = matches!(
        read(text),
        Ok(Node::Scalar { text: ref read, plain: true }) if read == text && resolve(text) == Resolved::Str
    );
    if reads_back && !text.contains(['#', '\\', '"', '\'']) {
        text.to_string()
    } else {
        quoted(text)
    }
}

/// `text` in double quotes, escaped as JSON escapes it (and as serde_json
/// writes it, byte for byte), which YAML reads back as the same text: one
/// writer for the forms' YAML and the browser engine's answers, so the
/// engine carries no JSON library.
pub(crate) fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(HEX[(c as usize) >> 4] as char);
                out.push(HEX[(c as usize) & 15] as char);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn plain(text: String) -> Node {
    Node::plain(text)
}

impl Node {
    /// A word written without quotes.
    pub(crate) fn plain(text: String) -> Node {
        Node::Scalar { text, plain: true }
    }
}

struct Reader {
    chars: Vec<char>,
    at: usize,
}

/// Characters that open or close a collection or part its items.
const FLOW: &[char] = &[',', '[', ']', '{', '}'];

impl Reader {
    fn at_end(&self) -> bool {
        self.at >= self.chars.len()
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn rest(&self) -> String {
        self.chars[self.at..].iter().collect()
    }

    fn error(&self, message: String) -> Syntax {
        Syntax {
            column: self.at + 1,
            message,
        }
    }

    /// Spaces, and a comment (` #` to the end of the line).
    fn blank(&mut self) {
        while let Some(c) = self.peek() {
            if c == ' ' || c == '\t' {
                self.at += 1;
            } else if c == '#' && (self.at == 0 || matches!(self.chars[self.at - 1], ' ' | '\t')) {
                self.at = self.chars.len();
            } else {
                break;
            }
        }
    }

    fn node(&mut self, depth: usize) -> Result<Node, Syntax> {
        if depth >= DEPTH {
            return Err(self.error(format!(
                "brackets are nested more than {DEPTH} deep: write a flatter value"
            )));
        }
        match self.peek() {
            Some('[') => self.list(depth),
            Some('{') => self.map(depth),
            Some('"') => self.double_quoted(),
            Some('\'') => self.single_quoted(),
            _ => self.plain(),
        }
    }

    fn list(&mut self, depth: usize) -> Result<Node, Syntax> {
        let open = self.at;
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.blank();
            match self.peek() {
                None => return Err(unclosed(open, "list", ']')),
                Some(']') => {
                    self.at += 1;
                    return Ok(Node::List(items));
                }
                Some(',') => {
                    return Err(self.error(
                        "an empty item: write a value between the commas, or remove one".into(),
                    ))
                }
                _ => {}
            }
            let item = self.node(depth + 1)?;
            self.blank();
            // `[a: 1]` is a list holding the one-entry map {a: 1}.
            let item = if self.colon() {
                let value = self.value(depth + 1, &[',', ']'])?;
                Node::Map(vec![(item, value)])
            } else {
                item
            };
            items.push(item);
            self.blank();
            match self.peek() {
                Some(',') => self.at += 1,
                Some(']') => {}
                None => return Err(unclosed(open, "list", ']')),
                Some(_) => return Err(self.expected_separator("list", ']')),
            }
        }
    }

    fn map(&mut self, depth: usize) -> Result<Node, Syntax> {
        let open = self.at;
        self.at += 1;
        let mut entries: Vec<(Node, Node)> = Vec::new();
        loop {
            self.blank();
            match self.peek() {
                None => return Err(unclosed(open, "mapping", '}')),
                Some('}') => {
                    self.at += 1;
                    return Ok(Node::Map(entries));
                }
                Some(',') => {
                    return Err(self.error(
                        "an empty entry: write `key: value` between the commas, or remove one"
                            .into(),
                    ))
                }
                _ => {}
            }
            let key_at = self.at;
            if self.peek() == Some(':') && self.colon_ends(1) {
                return Err(
                    self.error("a key is missing before this `:`: write `key: value`".into())
                );
            }
            let key = self.node(depth + 1)?;
            self.blank();
            let value = if self.colon() {
                self.value(depth + 1, &[',', '}'])?
            } else {
                plain(String::new())
            };
            if entries.iter().any(|(k, _)| *k == key) {
                let name = match &key {
                    Node::Scalar { text, .. } => text.clone(),
                    _ => "this key".into(),
                };
                return Err(Syntax {
                    column: key_at + 1,
                    message: format!("the key `{name}` is written twice: keep one of them"),
                });
            }
            entries.push((key, value));
            self.blank();
            match self.peek() {
                Some(',') => self.at += 1,
                Some('}') => {}
                None => return Err(unclosed(open, "mapping", '}')),
                Some(_) => return Err(self.expected_separator("mapping", '}')),
            }
        }
    }

    /// A value after `key:`; empty (null) when the entry ends first.
    fn value(&mut self, depth: usize, ends: &[char]) -> Result<Node, Syntax> {
        self.blank();
        match self.peek() {
            None => Ok(plain(String::new())),
            Some(c) if ends.contains(&c) => Ok(plain(String::new())),
            _ => self.node(depth),
        }
    }

    /// Whether a `:` that separates a key from its value comes next (it
    /// is then taken).
    fn colon(&mut self) -> bool {
        if self.peek() == Some(':') {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// Whether the `:` `ahead - 1` characters on ends a key: followed by a
    /// space, a bracket or comma, or the end.
    fn colon_ends(&self, ahead: usize) -> bool {
        self.peek_at(ahead)
            .is_none_or(|c| c == ' ' || c == '\t' || FLOW.contains(&c))
    }

    fn expected_separator(&self, what: &str, end: char) -> Syntax {
        self.error(format!(
            "expected `, ` or `{end}` here: separate the {what}'s items with `, `, and quote an \
             item that holds a comma or bracket"
        ))
    }

    fn plain(&mut self) -> Result<Node, Syntax> {
        let start = self.at;
        let first = self.peek().unwrap_or(' ');
        let next_safe = self
            .peek_at(1)
            .is_some_and(|c| c != ' ' && c != '\t' && !FLOW.contains(&c));
        match first {
            '!' => {
                let tag: String = self.chars[self.at..]
                    .iter()
                    .take_while(|c| !c.is_whitespace() && !FLOW.contains(c))
                    .collect();
                return Err(self.error(format!(
                    "YAML tags such as `{tag}` are not read: write the value itself, without \
                     the tag (quote it if it starts with `!`)"
                )));
            }
            '&' | '*' => {
                return Err(self.error(format!(
                    "anchors and aliases (`&`, `*`) are not read here: write the value itself \
                     (quote it if it starts with `{first}`)"
                )))
            }
            '|' | '>' => {
                return Err(self.error(format!(
                    "`{first}` starts a block of text, which cannot be written on one line: \
                     write the text in quotes"
                )))
            }
            '%' | '@' | '`' | '#' => {
                return Err(self.error(format!(
                    "a value cannot start with `{first}`: write it in quotes"
                )))
            }
            '-' | '?' | ':' if !next_safe || first != '-' => {
                return Err(self.error(format!(
                    "`{first}` alone is not a value here: write the value in quotes, or write \
                     list items in brackets, separated by `, `"
                )))
            }
            _ => {}
        }
        while let Some(c) = self.peek() {
            // libyaml refuses these, as `?` may start a key.
            if c == ':'
                && self
                    .peek_at(1)
                    .is_some_and(|next| next == '?' || FLOW.contains(&next))
            {
                self.at += 1;
                return Err(self.error(
                    "a `:` right before a bracket or comma: write a space after a key's colon \
                     (`key: value`), or quote a value that holds a colon"
                        .into(),
                ));
            }
            let ends = FLOW.contains(&c)
                || (c == ':' && self.colon_ends(1))
                || (c == '#' && self.at > start && matches!(self.chars[self.at - 1], ' ' | '\t'));
            if ends {
                break;
            }
            self.at += 1;
        }
        let text: String = self.chars[start..self.at].iter().collect();
        Ok(plain(text.trim_end().to_string()))
    }

    fn single_quoted(&mut self) -> Result<Node, Syntax> {
        let open = self.at;
        self.at += 1;
        let mut text = String::new();
        loop {
            match self.peek() {
                None => return Err(unclosed_quote(open, '\'')),
                Some('\'') if self.peek_at(1) == Some('\'') => {
                    text.push('\'');
                    self.at += 2;
                }
                Some('\'') => {
                    self.at += 1;
                    return Ok(Node::Scalar { text, plain: false });
                }
                Some(c) => {
                    text.push(c);
                    self.at += 1;
                }
            }
        }
    }

    fn double_quoted(&mut self) -> Result<Node, Syntax> {
        let open = self.at;
        self.at += 1;
        let mut text = String::new();
        loop {
            match self.peek() {
                None => return Err(unclosed_quote(open, '"')),
                Some('"') => {
                    self.at += 1;
                    return Ok(Node::Scalar { text, plain: false });
                }
                Some('\\') => {
                    self.at += 1;
                    text.push(self.escape()?);
                }
                Some(c) => {
                    text.push(c);
                    self.at += 1;
                }
            }
        }
    }

    /// The character a `\` escape (just read) stands for.
    fn escape(&mut self) -> Result<char, Syntax> {
        let Some(c) = self.peek() else {
            return Err(self.error("a `\\` ends the text: write `\\\\` for a backslash".into()));
        };
        self.at += 1;
        let hex = |reader: &mut Reader, digits: usize| -> Result<char, Syntax> {
            let written: String = reader.chars[reader.at..].iter().take(digits).collect();
            let code = (written.len() == digits)
                .then(|| u32::from_str_radix(&written, 16).ok())
                .flatten()
                .and_then(char::from_u32);
            match code {
                Some(c) => {
                    reader.at += digits;
                    Ok(c)
                }
                None => Err(reader.error(format!(
                    "`\\{c}` needs {digits} hexadecimal digits naming a character"
                ))),
            }
        };
        Ok(match c {
            '0' => '\0',
            'a' => '\u{7}',
            'b' => '\u{8}',
            't' | '\t' => '\t',
            'n' => '\n',
            'v' => '\u{b}',
            'f' => '\u{c}',
            'r' => '\r',
            'e' => '\u{1b}',
            ' ' => ' ',
            '"' => '"',
            '/' => '/',
            '\\' => '\\',
            'N' => '\u{85}',
            '_' => '\u{a0}',
            'L' => '\u{2028}',
            'P' => '\u{2029}',
            'x' => hex(self, 2)?,
            'u' => hex(self, 4)?,
            'U' => hex(self, 8)?,
            other => {
                self.at -= 1;
                return Err(self.error(format!(
                    "`\\{other}` is not an escape YAML knows: write `\\\\` for a backslash"
                )));
            }
        })
    }
}

fn unclosed(open: usize, what: &str, end: char) -> Syntax {
    Syntax {
        column: open + 1,
        message: format!(
            "this {what} in brackets is not closed: end it with `{end}` on the same line, its \
             items separated by `, `"
        ),
    }
}

fn unclosed_quote(open: usize, quote: char) -> Syntax {
    Syntax {
        column: open + 1,
        message: format!(
            "this quote ({quote}) is never closed: end the value with {quote} on the same line"
        ),
    }
}
