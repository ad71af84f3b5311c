//! The serde Deserializer over a read [`Node`]: typed values, errors named
//! by key path as serde_yaml names them. Apart from the reader because it
//! is the serde side of the module, and the largest part of it.

use super::resolve::{boolean, float, is_null, resolve, signed, unsigned, Resolved};
use super::Node;
use serde::de::{self, Unexpected, Visitor};
use std::fmt;

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
