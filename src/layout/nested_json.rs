//! JSON spelled as `serde_json`'s pretty printer spells it, but starting
//! some levels deep, so a value can be written straight into a document
//! that frames it (`site::document`, `kinds::Results::write_json`) with no
//! value built and no second pass over its text.

use std::io::{self, Write};

/// One level of indentation.
pub(crate) const INDENT: &str = "  ";

/// A serializer spelling a value as `serde_json`'s pretty printer does,
/// its lines after the first indented `depth` levels, so that it reads as
/// nested that deep (each token goes straight to `out`).
pub(crate) fn nested_serializer<W: Write>(
    out: W,
    depth: usize,
) -> serde_json::Serializer<W, Nested> {
    serde_json::Serializer::with_formatter(
        out,
        Nested {
            depth,
            has_value: false,
        },
    )
}

/// [`serde_json::ser::PrettyFormatter`] with two spaces, starting at
/// `depth` levels (see [`nested_serializer`]).
pub(crate) struct Nested {
    depth: usize,
    has_value: bool,
}

/// Blanks for a line's indentation, written many levels at a time: a
/// write per level was a call per level through a `dyn Write`, a fifth
/// of the time of printing a large result.
const BLANKS: [u8; 64] = [b' '; 64];

impl Nested {
    fn line<W: ?Sized + Write>(&self, out: &mut W, before: &[u8]) -> io::Result<()> {
        out.write_all(before)?;
        let mut left = self.depth * INDENT.len();
        while left > 0 {
            let now = left.min(BLANKS.len());
            out.write_all(&BLANKS[..now])?;
            left -= now;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for Nested {
    fn begin_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.line(out, b"\n")?;
        }
        out.write_all(b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.line(out, if first { b"\n" } else { b",\n" })
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.line(out, b"\n")?;
        }
        out.write_all(b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.line(out, if first { b"\n" } else { b",\n" })
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_spells_as_the_pretty_printer_indented() {
        let value = serde_json::json!({
            "a": [1, [], {}, [[]], {"b": [{"c": null}], "d": "x\ny"}],
            "e": {},
            "f": 2.5,
        });
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        for depth in [0, 1, 3, 40] {
            let mut out = Vec::new();
            serde::Serialize::serialize(&value, &mut nested_serializer(&mut out, depth)).unwrap();
            let indent = format!("\n{}", INDENT.repeat(depth));
            assert_eq!(
                String::from_utf8(out).unwrap(),
                pretty.replace('\n', &indent)
            );
        }
    }
}
