//! LaTeX formulas to MathML at build time, so pages need no script and no
//! font download to show them.

use pulldown_latex::config::DisplayMode;
use pulldown_latex::{push_mathml, Parser, RenderConfig, Storage};

/// A formula as a `<math>` element, or why it does not parse.
///
/// The renderer would draw a red error box for a bad formula; refusing it
/// here instead means no reader ever sees one.
pub fn to_mathml(latex: &str, display: bool) -> Result<String, String> {
    let source = map_unsupported(latex);
    let storage = Storage::new();
    let events: Vec<_> = Parser::new(&source, &storage).collect();
    if let Some(error) = events.iter().find_map(|e| e.as_ref().err()) {
        let reason = error.to_string();
        let reason = reason.lines().next().unwrap_or("parsing error").trim();
        return Err(format!(
            "formula `{}` does not parse: {reason}",
            latex.trim()
        ));
    }
    let config = RenderConfig {
        display_mode: if display {
            DisplayMode::Block
        } else {
            DisplayMode::Inline
        },
        annotation: Some(latex.trim()),
        ..RenderConfig::default()
    };
    let mut html = String::new();
    push_mathml(&mut html, events.into_iter(), config)
        .map_err(|e| format!("formula `{}`: {e}", latex.trim()))?;
    Ok(html)
}

/// Commands people write that the parser lacks, spelled as ones it has:
/// `\mod` (the binary "mod" of `a \mod n`) becomes `\bmod`.
fn map_unsupported(latex: &str) -> String {
    let mut out = String::with_capacity(latex.len() + 4);
    let mut rest = latex;
    while let Some(at) = rest.find("\\mod") {
        let after = &rest[at + 4..];
        out.push_str(&rest[..at]);
        if after.starts_with(|c: char| c.is_ascii_alphabetic()) {
            out.push_str("\\mod");
        } else {
            out.push_str("\\bmod");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_become_mathml() {
        let inline = to_mathml("\\frac{1}{n}", false).unwrap();
        assert!(inline.starts_with("<math"), "{inline}");
        assert!(inline.contains("<mfrac>"), "{inline}");
        assert!(!inline.contains("display=\"block\""), "{inline}");
        let block = to_mathml("x^2", true).unwrap();
        assert!(block.contains("display=\"block\""), "{block}");
        assert!(block.contains("<msup>"), "{block}");
    }

    #[test]
    fn mod_is_mapped_to_bmod() {
        assert_eq!(map_unsupported("t \\mod n"), "t \\bmod n");
        assert_eq!(map_unsupported("\\mod{n} \\models"), "\\bmod{n} \\models");
        let html = to_mathml("t \\mod n", false).unwrap();
        assert!(html.contains(">mod<"), "{html}");
    }

    #[test]
    fn bad_formulas_are_refused() {
        let err = to_mathml("\\frac{1}{", false).unwrap_err();
        assert!(
            err.starts_with("formula `\\frac{1}{` does not parse"),
            "{err}"
        );
        assert!(to_mathml("\\nosuchcommand", false).is_err());
    }
}
