//! Numbers in a page's language. The layout spells every figure once, in
//! the English style (`3,084`, `0.112654`, `39.8125 %`); a translated page
//! respells those figures by its language's rules (`3 084`, `0,112654`,
//! `39,8125 %`), so that no call site formats numbers by hand per language.

use serde::Deserialize;

/// How one language writes numbers: the marks that differ from English.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NumberStyle {
    /// Between the whole part and the decimals: `.` in English, `,` in French.
    pub decimal: String,
    /// Between groups of three digits: `,` in English, a narrow no-break
    /// space in French.
    pub group: String,
    /// Between a number and its unit (`%`): a no-break space, so the two
    /// never part at the end of a line.
    pub unit: String,
}

impl Default for NumberStyle {
    /// The style the layout writes, which respells nothing.
    fn default() -> Self {
        NumberStyle {
            decimal: ".".into(),
            group: ",".into(),
            unit: "\u{a0}".into(),
        }
    }
}

/// Spaces the layout may leave between a number and `%`.
const UNIT_SPACES: [char; 3] = [' ', '\u{a0}', '\u{202f}'];

impl NumberStyle {
    /// `text`, written in the layout's style, with every number respelled
    /// in this style. A run of digits with more than one point (a rule
    /// number, `1.1.2`, or a version, `1.0.0`) is not a number and is kept.
    pub fn respell(&self, text: &str) -> String {
        if *self == NumberStyle::default() {
            return text.to_string();
        }
        let chars: Vec<char> = text.chars().collect();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        while i < chars.len() {
            let starts_number =
                chars[i].is_ascii_digit() && (i == 0 || !is_word_or_mark(chars[i - 1]));
            if !starts_number {
                out.push(chars[i]);
                i += 1;
                continue;
            }
            let end = number_end(&chars, i);
            let token: String = chars[i..end].iter().collect();
            if token.matches('.').count() > 1 || (end < chars.len() && is_word(chars[end])) {
                out.push_str(&token);
                i = end;
                continue;
            }
            for c in token.chars() {
                match c {
                    ',' => out.push_str(&self.group),
                    '.' => out.push_str(&self.decimal),
                    _ => out.push(c),
                }
            }
            i = end;
            // The space before a `%` becomes this style's unit space.
            if i + 1 < chars.len() && UNIT_SPACES.contains(&chars[i]) && chars[i + 1] == '%' {
                out.push_str(&self.unit);
                i += 1;
            }
        }
        out
    }

    /// `markup` (HTML or SVG) with the numbers of its text respelled, and
    /// its tags and attributes (coordinates, exact values) left alone.
    pub fn respell_markup(&self, markup: &str) -> String {
        let mut out = String::with_capacity(markup.len());
        let mut rest = markup;
        while let Some(open) = rest.find('<') {
            out.push_str(&self.respell(&rest[..open]));
            let close = rest[open..].find('>').map_or(rest.len(), |c| open + c + 1);
            out.push_str(&rest[open..close]);
            rest = &rest[close..];
        }
        out.push_str(&self.respell(rest));
        out
    }
}

/// Where the number starting at `start` ends: digits, a `,` followed by
/// exactly three digits, and `.` followed by a digit.
fn number_end(chars: &[char], start: usize) -> usize {
    let digit_at = |i: usize| chars.get(i).is_some_and(char::is_ascii_digit);
    let mut i = start;
    loop {
        while digit_at(i) {
            i += 1;
        }
        match chars.get(i) {
            Some(',')
                if digit_at(i + 1) && digit_at(i + 2) && digit_at(i + 3) && !digit_at(i + 4) =>
            {
                i += 4;
            }
            Some('.') if digit_at(i + 1) => i += 1,
            _ => return i,
        }
    }
}

/// A letter, digit, or a mark that makes the digits after it part of
/// something else (`v1.2`, `x.5`, `#3`, `/648` of a fraction is kept as is
/// anyway: it has no separators).
fn is_word_or_mark(c: char) -> bool {
    is_word(c) || c == '.' || c == '#' || c == '_'
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn french() -> NumberStyle {
        NumberStyle {
            decimal: ",".into(),
            group: "\u{202f}".into(),
            unit: "\u{202f}".into(),
        }
    }

    #[test]
    fn french_numbers_take_a_decimal_comma_and_narrow_spaces() {
        let fr = french();
        assert_eq!(fr.respell("environ 0.112654"), "environ 0,112654");
        assert_eq!(fr.respell("39.8125 %"), "39,8125\u{202f}%");
        assert_eq!(fr.respell("(50\u{a0}%)"), "(50\u{202f}%)");
        assert_eq!(fr.respell("3,084 matches"), "3\u{202f}084 matches");
        assert_eq!(fr.respell("1,234,567.5"), "1\u{202f}234\u{202f}567,5");
        assert_eq!(fr.respell("9.05084 × 10¹⁷"), "9,05084 × 10¹⁷");
    }

    #[test]
    fn what_is_not_a_number_is_kept() {
        let fr = french();
        for kept in [
            "rule 1.1.2",
            "release 1.0.0",
            "73/648",
            "2d6, 3d6",
            "1, 2, 3",
            "a list: 12,34",
            "d20",
            "1d6.",
            "x2.5y",
        ] {
            assert_eq!(fr.respell(kept), kept.replace(" %", "\u{202f}%"), "{kept}");
        }
        // A sentence's full stop after a number is not a decimal point.
        assert_eq!(fr.respell("about 1.5."), "about 1,5.");
    }

    #[test]
    fn the_layouts_own_style_changes_nothing() {
        let en = NumberStyle::default();
        for text in ["3,084 and 0.5", "5.2 %", "5.2\u{a0}%", "<b>1.5</b>"] {
            assert_eq!(en.respell(text), text);
            assert_eq!(en.respell_markup(text), text);
        }
    }

    #[test]
    fn markup_keeps_its_tags_and_attributes() {
        let fr = french();
        let svg = "<text x=\"49.2\" data-exact=\"0.5\">0.5</text><title>1/2 ≈ 12.5 %</title>";
        assert_eq!(
            fr.respell_markup(svg),
            "<text x=\"49.2\" data-exact=\"0.5\">0,5</text><title>1/2 ≈ 12,5\u{202f}%</title>"
        );
    }
}
