//! Offsets in a page's body: the body with each shortcode replaced by a
//! mark (and the way back), and the line and column of an offset. Apart
//! from the rendering because every error and rule is placed through them.

use super::MARK;
use crate::shortcodes::{Expansion, Found};
use std::ops::Range;

/// The body with each shortcode replaced by a [`MARK`].
pub(super) struct Marked {
    pub(super) text: String,
    /// Offset of each mark in `text`, in order.
    marks: Vec<usize>,
    /// Byte range of each shortcode in the body.
    shortcodes: Vec<Range<usize>>,
}

/// A piece of a text event: text, or the mark of shortcode number `i`.
pub(super) enum Piece<'t> {
    Text(&'t str),
    Mark(usize),
}

impl Marked {
    pub(super) fn new(body: &str, found: &[Found]) -> Self {
        let mut text = String::with_capacity(body.len());
        let mut marks = Vec::with_capacity(found.len());
        let mut last = 0;
        for found in found {
            text.push_str(&body[last..found.start]);
            marks.push(text.len());
            text.push(MARK);
            last = found.end;
        }
        text.push_str(&body[last..]);
        let shortcodes = found.iter().map(|f| f.start..f.end).collect();
        Marked {
            text,
            marks,
            shortcodes,
        }
    }

    /// The body offset of an offset in `text`.
    pub(super) fn to_body(&self, offset: usize) -> usize {
        let before = self.marks.partition_point(|&m| m < offset);
        match before.checked_sub(1) {
            None => offset,
            Some(last) => self.shortcodes[last].end + (offset - self.marks[last] - MARK.len_utf8()),
        }
    }

    /// `self.text[range]` with each mark replaced by its inline
    /// expansion's text (block expansions dropped).
    pub(super) fn with_inline_expansions(
        &self,
        range: Range<usize>,
        expansions: &[Option<Expansion>],
    ) -> String {
        let mut out = String::new();
        let mut from = range.start;
        let first = self.marks.partition_point(|&m| m < range.start);
        for (i, &mark) in self.marks.iter().enumerate().skip(first) {
            if mark >= range.end {
                break;
            }
            out.push_str(&self.text[from..mark]);
            if let Some(Some(Expansion::Inline(value) | Expansion::Link { text: value, .. })) =
                expansions.get(i)
            {
                out.push_str(value);
            }
            from = mark + MARK.len_utf8();
        }
        out.push_str(&self.text[from..range.end]);
        out
    }

    pub(super) fn body_start(&self, i: usize) -> usize {
        self.shortcodes[i].start
    }

    /// `text` (which is `self.text[start..]`) cut at the marks it holds.
    pub(super) fn split<'t>(&self, text: &'t str, start: usize) -> Vec<Piece<'t>> {
        let first = self.marks.partition_point(|&m| m < start);
        let last = self.marks.partition_point(|&m| m < start + text.len());
        let mut pieces = Vec::new();
        let mut from = 0;
        for (i, &mark) in self.marks[first..last].iter().enumerate() {
            let at = mark - start;
            if at > from {
                pieces.push(Piece::Text(&text[from..at]));
            }
            pieces.push(Piece::Mark(first + i));
            from = at + MARK.len_utf8();
        }
        if from < text.len() || pieces.is_empty() {
            pieces.push(Piece::Text(&text[from..]));
        }
        pieces
    }
}

/// Lines and columns of body offsets: line starts are found by binary
/// search, and a column is counted on from the last one asked on its line.
pub(super) struct Places<'b> {
    pub(super) body: &'b str,
    pub(super) first_line: usize,
    line_starts: Vec<usize>,
    /// The last offset asked and its column.
    last: (usize, usize),
}

impl<'b> Places<'b> {
    pub(super) fn new(body: &'b str, first_line: usize) -> Self {
        let line_starts = std::iter::once(0)
            .chain(body.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Places {
            body,
            first_line,
            line_starts,
            last: (0, 1),
        }
    }

    pub(super) fn line_index(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset) - 1
    }

    /// 1-based line and column of a byte offset.
    pub(super) fn locate(&mut self, offset: usize) -> (usize, usize) {
        let index = self.line_index(offset);
        let line_start = self.line_starts[index];
        let (from, column) = if self.last.0 >= line_start && self.last.0 <= offset {
            self.last
        } else {
            (line_start, 1)
        };
        let column = column + self.body[from..offset].chars().count();
        self.last = (offset, column);
        (self.first_line + index, column)
    }
}
