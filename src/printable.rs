//! Text for a terminal: user text (an expression, a YAML value, a file
//! name) can hold ESC, CR and other control characters that would move
//! the cursor, recolour or clear the screen, or hide a line, if printed
//! raw. Every line fairdice prints to a terminal, in errors and in normal
//! output alike, passes through [`printable`]: the one place that decides
//! how such characters are shown.

use std::borrow::Cow;

/// `text` with each control character but the line break shown as its
/// Rust escape (`\u{1b}`, `\r`, `\t`, `\u{7f}`), so it reads as written
/// and does nothing to the terminal; text without one is returned as is.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escaped(c) {
            shown.extend(c.escape_debug());
        } else {
            shown.push(c);
        }
    }
    Cow::Owned(shown)
}

/// Line breaks stay: messages and tables are printed line by line.
fn escaped(c: char) -> bool {
    c.is_control() && c != '\n'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_escaped_and_line_breaks_kept() {
        assert_eq!(
            printable("3d6\u{1b}[2J\r+1\u{7}\t\u{7f}\u{9b}31m\0\nnext"),
            "3d6\\u{1b}[2J\\r+1\\u{7}\\t\\u{7f}\\u{9b}31m\\0\nnext"
        );
        assert!(matches!(printable("4d6kh3 é\n"), Cow::Borrowed(_)));
    }
}
