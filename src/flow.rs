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
//! [`Deserializer`](de::Deserializer) that resolves plain words the way
//! serde_yaml does (by the type asked for: `7` is a number where a number
//! is asked, and text where text is), and names the key path of an error
//! as serde_yaml does (`rolls.big: …`).

use serde::de::{self, Unexpected, Visitor};
use std::fmt;

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

/// What a plain word is when any type may be asked for (serde_yaml's
/// rules: YAML 1.2's core schema, where `0123` is text).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Resolved {
    Null,
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Big(u128),
    BigSigned(i128),
    Float(f64),
    Str,
}

fn resolve(text: &str) -> Resolved {
    if text.is_empty() || is_null(text) {
        return Resolved::Null;
    }
    if let Some(b) = boolean(text) {
        return Resolved::Bool(b);
    }
    if let Some(n) = unsigned(text, u64::from_str_radix) {
        return Resolved::Unsigned(n);
    }
    if let Some(n) = negative(text, i64::from_str_radix) {
        return Resolved::Signed(n);
    }
    if let Some(n) = unsigned(text, u128::from_str_radix) {
        return Resolved::Big(n);
    }
    if let Some(n) = negative(text, i128::from_str_radix) {
        return Resolved::BigSigned(n);
    }
    if !leading_zero_digits(text) {
        if let Some(f) = float(text) {
            return Resolved::Float(f);
        }
    }
    Resolved::Str
}

fn is_null(text: &str) -> bool {
    matches!(text, "null" | "Null" | "NULL" | "~")
}

fn boolean(text: &str) -> Option<bool> {
    match text {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

type Radix<T> = fn(&str, u32) -> Result<T, std::num::ParseIntError>;

/// `0123`: digits after a leading zero are text in YAML 1.2.
fn leading_zero_digits(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    digits.len() > 1 && digits.starts_with('0') && digits[1..].bytes().all(|b| b.is_ascii_digit())
}

/// `digits` in base 16, 8 or 2 after `0x`, `0o`, `0b`, else none.
fn prefixed<T>(digits: &str, sign: &str, parse: Radix<T>) -> Option<T> {
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = digits.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return None;
            }
            if let Ok(n) = parse(&format!("{sign}{rest}"), radix) {
                return Some(n);
            }
        }
    }
    None
}

fn unsigned<T>(text: &str, parse: Radix<T>) -> Option<T> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if let Some(n) = prefixed(digits, "", parse) {
        return Some(n);
    }
    if digits.starts_with(['+', '-']) || leading_zero_digits(text) {
        return None;
    }
    parse(digits, 10).ok()
}

fn negative<T>(text: &str, parse: Radix<T>) -> Option<T> {
    if let Some(rest) = text.strip_prefix('-') {
        if let Some(n) = prefixed(rest, "-", parse) {
            return Some(n);
        }
    }
    if leading_zero_digits(text) {
        return None;
    }
    parse(text, 10).ok()
}

/// Both signed and unsigned, as serde_yaml reads a signed type.
fn signed<T>(text: &str, parse: Radix<T>) -> Option<T> {
    let digits = match text.strip_prefix('+') {
        Some(rest) if rest.starts_with(['+', '-']) => return None,
        Some(rest) => rest,
        None => text,
    };
    if let Some(n) = prefixed(digits, "", parse) {
        return Some(n);
    }
    if let Some(rest) = text.strip_prefix('-') {
        if let Some(n) = prefixed(rest, "-", parse) {
            return Some(n);
        }
    }
    if leading_zero_digits(text) {
        return None;
    }
    parse(digits, 10).ok()
}

fn float(text: &str) -> Option<f64> {
    let unsigned = match text.strip_prefix('+') {
        Some(rest) if rest.starts_with(['+', '-']) => return None,
        Some(rest) => rest,
        None => text,
    };
    match unsigned {
        ".inf" | ".Inf" | ".INF" => return Some(f64::INFINITY),
        _ => {}
    }
    match text {
        "-.inf" | "-.Inf" | "-.INF" => return Some(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        _ => {}
    }
    unsigned.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// Why a value cannot become the parameters asked for, and where: the key
/// path (`rolls.big`), as serde_yaml names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Error {
    pub path: Option<String>,
    pub message: String,
}

impl Error {
    /// The top-level key the error is about, if any.
    pub(crate) fn key(&self) -> Option<&str> {
        let path = self.path.as_deref().filter(|p| *p != ".")?;
        path.split(['.', '[']).next().filter(|k| !k.is_empty())
    }

    fn at(mut self, path: &Path) -> Self {
        if self.path.is_none() {
            self.path = Some(path.to_string());
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.path.as_deref() {
            Some(path) if path != "." => write!(f, "{path}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Error {
            path: None,
            message: message.to_string(),
        }
    }
}

/// Where a node stands, as serde_yaml writes it.
#[derive(Debug, Clone)]
enum Path {
    Root,
    Key(String),
    Item(String),
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => f.write_str("."),
            Path::Key(p) | Path::Item(p) => f.write_str(p),
        }
    }
}

impl Path {
    fn key(&self, key: &Node) -> Path {
        let parent = match self {
            Path::Root => String::new(),
            other => format!("{other}."),
        };
        match key {
            Node::Scalar { text, .. } => Path::Key(format!("{parent}{text}")),
            _ => Path::Key(format!("{parent}?")),
        }
    }

    fn item(&self, index: usize) -> Path {
        Path::Item(format!("{self}[{index}]"))
    }
}

/// Refuses a whole number too large for any YAML value (past 64 bits), as
/// serde_yaml refuses it in a file before reading any kind's keys.
pub(crate) fn check_numbers(node: &Node) -> Result<(), Error> {
    fn walk(node: &Node, path: &Path) -> Result<(), Error> {
        match node {
            Node::Scalar { text, plain: true } => match resolve(text) {
                Resolved::Big(_) | Resolved::BigSigned(_) => {
                    let message = format!(
                        "invalid type: integer `{text}` as {}, expected any YAML value",
                        if text.starts_with('-') {
                            "i128"
                        } else {
                            "u128"
                        }
                    );
                    Err(Error {
                        path: Some(path.to_string()),
                        message,
                    })
                }
                _ => Ok(()),
            },
            Node::Scalar { .. } => Ok(()),
            Node::List(items) => items
                .iter()
                .enumerate()
                .try_for_each(|(i, item)| walk(item, &path.item(i))),
            Node::Map(entries) => entries.iter().try_for_each(|(key, value)| {
                walk(key, path)?;
                walk(value, &path.key(key))
            }),
        }
    }
    walk(node, &Path::Root)
}

/// A node to read as `T`.
pub(crate) fn to<T: de::DeserializeOwned>(node: &Node) -> Result<T, Error> {
    T::deserialize(At {
        node,
        path: Path::Root,
    })
}

/// A node and its place.
struct At<'a> {
    node: &'a Node,
    path: Path,
}

impl At<'_> {
    /// What serde_yaml says a node is when it is not what was asked for.
    fn unexpected_with(&self, expected: &dyn de::Expected) -> Error {
        let big;
        let unexpected = match self.node {
            Node::List(_) => Unexpected::Seq,
            Node::Map(_) => Unexpected::Map,
            Node::Scalar { text, plain: false } => Unexpected::Str(text),
            Node::Scalar { text, plain: true } => match resolve(text) {
                Resolved::Null => Unexpected::Unit,
                Resolved::Bool(b) => Unexpected::Bool(b),
                Resolved::Unsigned(n) => Unexpected::Unsigned(n),
                Resolved::Signed(n) => Unexpected::Signed(n),
                Resolved::Big(n) => {
                    big = format!("integer `{n}` as u128");
                    Unexpected::Other(&big)
                }
                Resolved::BigSigned(n) => {
                    big = format!("integer `{n}` as i128");
                    Unexpected::Other(&big)
                }
                Resolved::Float(f) => Unexpected::Float(f),
                Resolved::Str => Unexpected::Str(text),
            },
        };
        de::Error::invalid_type(unexpected, expected)
    }

    fn plain_text(&self) -> Option<&str> {
        match self.node {
            Node::Scalar { text, plain: true } => Some(text),
            _ => None,
        }
    }

    fn is_empty_plain(&self) -> bool {
        self.plain_text().is_some_and(str::is_empty)
    }
}

macro_rules! forward {
    ($($method:ident => $to:ident),* $(,)?) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.$to(visitor)
        })*
    };
}

impl<'de> de::Deserializer<'de> for At<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let result = match self.node {
            Node::Scalar { text, plain: false } => visitor.visit_str(text),
            Node::Scalar { text, plain: true } => match resolve(text) {
                Resolved::Null => visitor.visit_unit(),
                Resolved::Bool(b) => visitor.visit_bool(b),
                Resolved::Unsigned(n) => visitor.visit_u64(n),
                Resolved::Signed(n) => visitor.visit_i64(n),
                Resolved::Big(n) => visitor.visit_u128(n),
                Resolved::BigSigned(n) => visitor.visit_i128(n),
                Resolved::Float(f) => visitor.visit_f64(f),
                Resolved::Str => visitor.visit_str(text),
            },
            Node::List(items) => visitor.visit_seq(Items::new(items, &self.path)),
            Node::Map(entries) => visitor.visit_map(Entries::new(entries, &self.path)),
        };
        result.map_err(|e| e.at(&self.path))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.plain_text().and_then(boolean) {
            Some(b) => visitor.visit_bool(b),
            None => Err(invalid(&self, &visitor)),
        }
        .map_err(|e| e.at(&self.path))
    }

    forward! {
        deserialize_i8 => deserialize_i64,
        deserialize_i16 => deserialize_i64,
        deserialize_i32 => deserialize_i64,
        deserialize_u8 => deserialize_u64,
        deserialize_u16 => deserialize_u64,
        deserialize_u32 => deserialize_u64,
        deserialize_f32 => deserialize_f64,
        deserialize_char => deserialize_str,
        deserialize_string => deserialize_str,
        deserialize_identifier => deserialize_str,
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let parsed = self
            .plain_text()
            .and_then(|t| signed(t, i64::from_str_radix));
        scalar_or_invalid(&self, visitor, parsed, |v, n| v.visit_i64(n))
    }

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let parsed = self
            .plain_text()
            .and_then(|t| signed(t, i128::from_str_radix));
        scalar_or_invalid(&self, visitor, parsed, |v, n| v.visit_i128(n))
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let parsed = self
            .plain_text()
            .and_then(|t| unsigned(t, u64::from_str_radix));
        scalar_or_invalid(&self, visitor, parsed, |v, n| v.visit_u64(n))
    }

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let parsed = self
            .plain_text()
            .and_then(|t| unsigned(t, u128::from_str_radix));
        scalar_or_invalid(&self, visitor, parsed, |v, n| v.visit_u128(n))
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let parsed = self.plain_text().and_then(float);
        scalar_or_invalid(&self, visitor, parsed, |v, f| v.visit_f64(f))
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node {
            Node::Scalar { text, .. } => visitor.visit_str(text),
            _ => Err(invalid(&self, &visitor)),
        }
        .map_err(|e| e.at(&self.path))
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
        Err(de::Error::custom(
            "serialization and deserialization of bytes in YAML is not implemented",
        ))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let none = self
            .plain_text()
            .is_some_and(|t| t.is_empty() || is_null(t));
        if none {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node {
            Node::Scalar { text, plain } => {
                if *plain && (text.is_empty() || is_null(text)) {
                    visitor.visit_unit()
                } else {
                    Err(de::Error::invalid_value(Unexpected::Str(text), &"null"))
                }
            }
            _ => Err(invalid(&self, &visitor)),
        }
        .map_err(|e| e.at(&self.path))
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node {
            Node::List(items) => visitor.visit_seq(Items::new(items, &self.path)),
            _ if self.is_empty_plain() => visitor.visit_seq(Items::new(&[], &self.path)),
            _ => Err(invalid(&self, &visitor)),
        }
        .map_err(|e| e.at(&self.path))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.node {
            Node::Map(entries) => visitor.visit_map(Entries::new(entries, &self.path)),
            _ if self.is_empty_plain() => visitor.visit_map(Entries::new(&[], &self.path)),
            _ => Err(invalid(&self, &visitor)),
        }
        .map_err(|e| e.at(&self.path))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let expected = &"a YAML tag starting with '!'";
        match self.node {
            Node::Scalar { text, .. } => {
                visitor.visit_enum(de::value::StrDeserializer::<Error>::new(text))
            }
            Node::Map(_) => Err(de::Error::invalid_type(Unexpected::Map, expected)),
            Node::List(_) => Err(de::Error::invalid_type(Unexpected::Seq, expected)),
        }
        .map_err(|e| e.at(&self.path))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

/// [`At::invalid`] for any visitor (its `expecting` is all that is read).
fn invalid<'de, V: Visitor<'de>>(at: &At, visitor: &V) -> Error {
    struct Expecting<'a, V>(&'a V);
    impl<'de, V: Visitor<'de>> de::Expected for Expecting<'_, V> {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            self.0.expecting(f)
        }
    }
    at.unexpected_with(&Expecting(visitor))
}

fn scalar_or_invalid<'de, V: Visitor<'de>, T>(
    at: &At,
    visitor: V,
    parsed: Option<T>,
    visit: impl FnOnce(V, T) -> Result<V::Value, Error>,
) -> Result<V::Value, Error> {
    match parsed {
        Some(n) => visit(visitor, n),
        None => Err(invalid(at, &visitor)),
    }
    .map_err(|e| e.at(&at.path))
}

struct Items<'a> {
    items: std::slice::Iter<'a, Node>,
    index: usize,
    path: &'a Path,
}

impl<'a> Items<'a> {
    fn new(items: &'a [Node], path: &'a Path) -> Self {
        Items {
            items: items.iter(),
            index: 0,
            path,
        }
    }
}

impl<'de> de::SeqAccess<'de> for Items<'_> {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(node) = self.items.next() else {
            return Ok(None);
        };
        let path = self.path.item(self.index);
        self.index += 1;
        seed.deserialize(At { node, path }).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Entries<'a> {
    entries: std::slice::Iter<'a, (Node, Node)>,
    value: Option<(&'a Node, Path)>,
    path: &'a Path,
}

impl<'a> Entries<'a> {
    fn new(entries: &'a [(Node, Node)], path: &'a Path) -> Self {
        Entries {
            entries: entries.iter(),
            value: None,
            path,
        }
    }
}

impl<'de> de::MapAccess<'de> for Entries<'_> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some((value, self.path.key(key)));
        seed.deserialize(At {
            node: key,
            path: self.path.clone(),
        })
        .map(Some)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (node, path) = self.value.take().expect("a value follows its key");
        seed.deserialize(At { node, path })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    /// What serde_yaml makes of `text` as the value of a key in a file
    /// (`key: text`, as a form's value is written), and what this module
    /// makes of it, as serde_yaml's own value type.
    fn both(text: &str) -> (Option<serde_yaml::Value>, Option<serde_yaml::Value>) {
        let theirs = serde_yaml::from_str::<serde_yaml::Mapping>(&format!("key: {text}"))
            .ok()
            .and_then(|mut file| file.remove("key"));
        let ours = read(text)
            .ok()
            .map(|node| to::<serde_yaml::Value>(&node).expect("every node is a YAML value"));
        (theirs, ours)
    }

    #[test]
    fn one_line_values_read_as_serde_yaml_reads_them() {
        let accepted = [
            "5",
            "-3",
            "+7",
            "0x1f",
            "-0o17",
            "0b101",
            "0123",
            "1.5",
            "-2e3",
            ".inf",
            "-.Inf",
            "~",
            "null",
            "true",
            "False",
            "2..6",
            "2d6",
            "4d6kh3 + 2",
            "1d20+5 >= 15",
            "max(1d6 1d8)",
            "a:b",
            "a#b",
            "a # a comment",
            "\"11/20\"",
            "'it''s'",
            "\"tab\\there \\u00e9 \\x41 \\\\ \\\" \\/\"",
            "[2d6, 1d6]",
            "[]",
            "[a, b,]",
            "[ a ,b ]",
            "[[1, 2], [3]]",
            "[a: 1, b]",
            "{}",
            "{a: 1, b: [x, \"y: z\"]}",
            "{a}",
            "{a: }",
            "{a: , b: 2}",
            "{a:b}",
            "[a:1]",
            "{\"a\":1}",
            "{3: [33700, 33500, 32800]}",
            "{from: observed/games.yaml, seat: 1}",
            "{4d6kh3: 4d6kh3, \"max(1d6, 1d8) + 2\": \"max(1d6, 1d8) + 2\"}",
            "{a: {b: {c: [1, {d: e}]}}}",
            "  [1, 2]  ",
            "",
        ];
        for text in accepted {
            let (theirs, ours) = both(text);
            assert!(theirs.is_some(), "serde_yaml refuses {text:?}");
            assert_eq!(ours, theirs, "{text:?}");
        }
        let refused = [
            "[a, b",
            "{a: 1",
            "\"open",
            "'open",
            "[a] b",
            "a: b",
            "- a",
            "[a, , b]",
            "{a: 1, a: 2}",
            "[1 2]x",
            "\"\\q\"",
            "]",
            "}",
            "{a:}",
            "{a:, b: 2}",
            "[a:]",
            "{: a}",
            "[a,#]",
        ];
        for text in refused {
            assert!(read(text).is_err(), "{text:?} is read");
            let (theirs, _) = both(text);
            assert!(theirs.is_none(), "serde_yaml reads {text:?}: {theirs:?}");
        }
        // Tags, anchors and aliases are refused with the fix, as in files.
        for (text, says) in [
            ("!!binary aGk=", "YAML tags such as `!!binary`"),
            ("&a 2", "anchors and aliases"),
            ("[*a]", "anchors and aliases"),
            ("|", "block of text"),
        ] {
            let err = read(text).unwrap_err();
            assert!(err.message.contains(says), "{text:?}: {}", err.message);
        }
    }

    #[test]
    fn mistakes_are_placed_where_the_fix_goes() {
        let err = read("[2d6, 1d6").unwrap_err();
        assert_eq!(err.column, 1);
        assert!(err
            .message
            .starts_with("this list in brackets is not closed"));
        let err = read("{a: \"x}").unwrap_err();
        assert_eq!(err.column, 5);
        assert!(err.message.contains("quote (\") is never closed"));
        let err = read("{a: 1, a: 2}").unwrap_err();
        assert_eq!(err.column, 8);
        assert_eq!(
            err.message,
            "the key `a` is written twice: keep one of them"
        );
        let deep = "[".repeat(10_000);
        assert!(read(&deep)
            .unwrap_err()
            .message
            .contains("nested more than"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        /// Any short text of YAML's punctuation and words: what this module
        /// reads, serde_yaml reads as the same value. (It may refuse what
        /// serde_yaml reads only where the text holds a tag, anchor or
        /// alias, or a key that is not a single word.)
        #[test]
        fn never_reads_what_serde_yaml_reads_otherwise(
            text in "[a1 ,:\\[\\]{}\"'#.~-]{0,14}"
        ) {
            let (theirs, ours) = both(&text);
            if ours.is_some() {
                proptest::prop_assert_eq!(ours, theirs, "{:?}", text);
            }
        }

        /// Values made of lists, maps and words read back as themselves
        /// through [`text`] and the writer of lists and maps.
        #[test]
        fn written_words_read_back(words in proptest::collection::vec("[ -~]{0,8}", 0..4)) {
            let written: Vec<String> = words.iter().map(|w| text(w)).collect();
            let list = format!("[{}]", written.join(", "));
            let node = read(&list).unwrap();
            let read_back: Vec<String> = to(&node).unwrap();
            proptest::prop_assert_eq!(&read_back, &words);
            let theirs: Vec<String> = serde_yaml::from_str(&list).unwrap();
            proptest::prop_assert_eq!(&theirs, &words);
        }
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Shape {
        count: u32,
        name: String,
        #[serde(default)]
        ratio: Option<f64>,
        items: Vec<i64>,
        nested: std::collections::BTreeMap<String, Vec<u8>>,
    }

    /// A typed read takes what serde_yaml takes and refuses what it
    /// refuses, with the same message and key path.
    #[test]
    fn typed_values_get_serde_yamls_answers_and_messages() {
        let cases = [
            "{count: 3, name: 7, items: [1, -2], nested: {a: [1]}}",
            "{count: 3, name: x, ratio: 0.5, items: [], nested: {}}",
            "{count: \"3\", name: x, items: [], nested: {}}",
            "{count: -1, name: x, items: [], nested: {}}",
            "{count: 4294967296, name: x, items: [], nested: {}}",
            "{count: 99999999999999999999999, name: x, items: [], nested: {}}",
            "{count: 3, name: [x], items: [], nested: {}}",
            "{count: 3, name: x, items: [1, b], nested: {}}",
            "{count: 3, name: x, items: [], nested: {a: [1, 300]}}",
            "{count: 3, name: x, items: []}",
            "{count: 3, name: x, items: [], nested: {}, extra: 1}",
            "{count: 3, name: x, items: 5, nested: {}}",
            "{count: true, name: x, items: [], nested: {}}",
            "{count: 1.5, name: x, items: [], nested: {}}",
            "{count: ~, name: x, items: [], nested: {}}",
            "[1, 2]",
        ];
        for text in cases {
            let theirs = serde_yaml::from_str::<Shape>(text).map_err(|e| {
                // Without the place serde_yaml adds (a form has no lines).
                let said = e.to_string();
                said.split(" at line ").next().unwrap_or(&said).to_string()
            });
            let ours = to::<Shape>(&read(text).unwrap()).map_err(|e| e.to_string());
            assert_eq!(ours, theirs, "{text}");
        }
        let err = to::<Shape>(&read("{count: 3, name: x, items: [1, b], nested: {}}").unwrap())
            .unwrap_err();
        assert_eq!(err.key(), Some("items"));
        let err = to::<Shape>(&read("{count: 3, name: x, items: []}").unwrap()).unwrap_err();
        assert_eq!(err.key(), None);
    }

    #[test]
    fn text_is_plain_only_where_it_reads_back() {
        for (written, expected) in [
            ("2d6", "2d6"),
            ("4d6kh3 + 2", "4d6kh3 + 2"),
            ("12", "\"12\""),
            ("true", "\"true\""),
            ("", "\"\""),
            ("a, b", "\"a, b\""),
            ("a: b", "\"a: b\""),
            ("-", "\"-\""),
            (" x", "\" x\""),
            ("it's", "\"it's\""),
        ] {
            assert_eq!(text(written), expected);
        }
    }
}
