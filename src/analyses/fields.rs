//! The keys a parameter struct accepts, read from its `Deserialize` impl.
//!
//! serde's derive passes a struct's field names to `deserialize_struct`; a
//! deserializer that only records them lets the loader check a scenario's
//! keys against the header keys plus the kind's own, so the kinds need not
//! repeat the header.

use serde::de::{self, Deserialize, Deserializer, Visitor};
use std::fmt;

/// The field names `T` accepts (empty for types that are not structs).
pub(crate) fn fields_of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(FieldRecorder {
        fields: &mut fields,
    });
    fields
}

struct FieldRecorder<'a> {
    fields: &'a mut &'static [&'static str],
}

#[derive(Debug)]
struct Recorded;

impl fmt::Display for Recorded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("fields recorded")
    }
}

impl std::error::Error for Recorded {}

impl de::Error for Recorded {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Recorded
    }
}

impl<'de> Deserializer<'de> for FieldRecorder<'_> {
    type Error = Recorded;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Recorded> {
        Err(Recorded)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Recorded> {
        *self.fields = fields;
        Err(Recorded)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Example {
        dice: String,
        #[serde(rename = "target-count")]
        targets: u32,
    }

    #[test]
    fn records_renamed_fields() {
        assert_eq!(fields_of::<Example>(), &["dice", "target-count"]);
        assert!(fields_of::<u32>().is_empty());
    }
}
