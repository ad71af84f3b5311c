//! LaTeX formulas to MathML at build time, so pages need no script and no
//! font download to show them.
//!
//! A formula is text from whoever wrote the page: its size and nesting are
//! bounded before the parser sees it, every character it holds reaches the
//! page escaped, and the MathML is checked against the elements and
//! attributes the renderer is known to write before it is published.

use crate::html::escape;
use pulldown_latex::config::DisplayMode;
use pulldown_latex::event::{Content, Dimension, DimensionUnit, Event, Grouping};
use pulldown_latex::{write_mathml, Parser, RenderConfig, Storage};
use std::collections::BTreeSet;
use std::io;

/// The longest formula, in bytes. The parser recurses once for each command
/// taking another command as its argument (`\hat\hat\hat x`), about 1.1 KB
/// of stack a level: 4096 bytes make at most 1024 levels, inside the 2 MB
/// stack of a worker thread.
const MAX_BYTES: usize = 4096;

/// The deepest nesting of `{`, `[`, `\left` and `\begin`: the parser
/// rescans a group's text once per level around it.
const MAX_NESTING: usize = 32;

/// The MathML one page may hold (a few characters of LaTeX can make a
/// hundred bytes of MathML).
const PAGE_MATHML: usize = 8 << 20;

/// Commands that define commands: an expansion can grow without bound, and
/// a definition lasts for one formula only, so it buys nothing on a page.
const DEFINING: [&str; 4] = ["def", "let", "newcommand", "renewcommand"];

/// Characters with a meaning in HTML, and how they are written as text.
const MARKUP: [(char, &str); 5] = [
    ('&', "&amp;"),
    ('<', "&lt;"),
    ('>', "&gt;"),
    ('"', "&quot;"),
    ('\'', "&#39;"),
];

/// What is left of a page's MathML allowance.
#[derive(Debug)]
pub(crate) struct Allowance {
    left: usize,
    spent: bool,
}

impl Default for Allowance {
    fn default() -> Self {
        Allowance {
            left: PAGE_MATHML,
            spent: false,
        }
    }
}

impl Allowance {
    fn spend(&mut self, bytes: usize) -> Result<(), String> {
        match self.left.checked_sub(bytes) {
            Some(left) => self.left = left,
            None => self.spent = true,
        }
        if self.spent {
            return Err(over_allowance());
        }
        Ok(())
    }

    /// Whether the page went over its allowance (said once, for the
    /// formula that did).
    pub(crate) fn is_spent(&self) -> bool {
        self.spent
    }
}

fn over_allowance() -> String {
    format!(
        "the formulas of this page make more than {} MB of MathML: split the page or shorten them",
        PAGE_MATHML >> 20
    )
}

/// A formula as a `<math>` element, or why it cannot be one.
///
/// The renderer would draw a red error box for a bad formula; refusing it
/// here instead means no reader ever sees one.
pub(crate) fn to_mathml(
    latex: &str,
    display: bool,
    allowance: &mut Allowance,
) -> Result<String, String> {
    check_source(latex)?;
    let source = map_unsupported(latex);
    let storage = Storage::new();
    let events = Parser::new(&source, &storage)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| {
            let reason = error.to_string();
            let reason = reason.lines().next().unwrap_or("parsing error").trim();
            format!("formula `{}` does not parse: {reason}", excerpt(latex))
        })?;
    let stand_ins = StandIns::for_source(&source)?;
    let owned = stand_ins.strings(&events, allowance)?;
    let events = events
        .into_iter()
        .zip(&owned)
        .map(|(event, owned)| stand_ins.event(event, owned.as_deref()));
    let config = RenderConfig {
        display_mode: if display {
            DisplayMode::Block
        } else {
            DisplayMode::Inline
        },
        annotation: None,
        ..RenderConfig::default()
    };
    let mut out = Capped {
        bytes: Vec::new(),
        allowance,
    };
    write_mathml(&mut out, events.map(Ok::<_, io::Error>), config).map_err(|e| {
        if e.kind() == io::ErrorKind::OutOfMemory {
            over_allowance()
        } else {
            format!("formula `{}`: {e}", excerpt(latex))
        }
    })?;
    let written = String::from_utf8(out.bytes)
        .map_err(|_| format!("formula `{}`: the MathML is not UTF-8", excerpt(latex)))?;
    let mathml = annotated(&stand_ins.to_entities(&written), latex.trim()).ok_or_else(|| {
        format!(
            "formula `{}`: no <math> element was written",
            excerpt(latex)
        )
    })?;
    out.allowance
        .spend(mathml.len().saturating_sub(written.len()))?;
    check_markup(&mathml).map_err(|what| {
        format!(
            "formula `{}` gives MathML that cannot be published safely ({what}); rewrite it",
            excerpt(latex)
        )
    })?;
    Ok(mathml)
}

/// The formula as an error message quotes it: its start, if it is long.
fn excerpt(latex: &str) -> String {
    let latex = latex.trim();
    match latex.char_indices().nth(80) {
        Some((cut, _)) => format!("{}...", &latex[..cut]),
        None => latex.to_string(),
    }
}

/// Size, nesting and definitions, checked on the text alone.
fn check_source(latex: &str) -> Result<(), String> {
    if latex.len() > MAX_BYTES {
        return Err(format!(
            "this formula is {} bytes long; a formula may have at most {MAX_BYTES}: split it into several",
            latex.len()
        ));
    }
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut chars = latex.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let opens = match c {
            '{' | '[' => true,
            '}' | ']' => false,
            '\\' => {
                let name_start = at + 1;
                let mut name_end = name_start;
                while let Some((i, n)) = chars.next_if(|(_, n)| n.is_ascii_alphabetic()) {
                    name_end = i + n.len_utf8();
                }
                if name_end == name_start {
                    chars.next(); // a control symbol such as `\{` or `\\`
                    continue;
                }
                match &latex[name_start..name_end] {
                    "left" | "begin" => true,
                    "right" | "end" => false,
                    name if DEFINING.contains(&name) => {
                        return Err(format!(
                        "formulas cannot define commands (\\{name}): write the formula out in full"
                    ))
                    }
                    _ => continue,
                }
            }
            _ => continue,
        };
        if opens {
            depth += 1;
            deepest = deepest.max(depth);
        } else {
            depth = depth.saturating_sub(1);
        }
    }
    if deepest > MAX_NESTING {
        return Err(format!(
            "this formula nests {deepest} levels deep (braces, brackets, \\left and \\begin); \
             at most {MAX_NESTING} are allowed: simplify it or split it"
        ));
    }
    Ok(())
}

/// Private-use characters the formula does not hold, one for each markup
/// character: the renderer writes most characters of a formula as they
/// are, so markup characters go in as stand-ins and come out as entities.
struct StandIns([char; MARKUP.len()]);

impl StandIns {
    fn for_source(source: &str) -> Result<Self, String> {
        // MAX_BYTES is under the 6400 characters of the private-use area, so
        // there are always enough free ones.
        let used: BTreeSet<char> = source.chars().collect();
        let mut free = ('\u{E000}'..='\u{F8FF}').filter(|c| !used.contains(c));
        let mut chars = ['\0'; MARKUP.len()];
        for slot in &mut chars {
            *slot = free
                .next()
                .ok_or("this formula uses every private-use character")?;
        }
        Ok(StandIns(chars))
    }

    fn char(&self, c: char) -> char {
        MARKUP
            .iter()
            .position(|(m, _)| *m == c)
            .map_or(c, |i| self.0[i])
    }

    fn has_markup(s: &str) -> bool {
        s.contains(|c| MARKUP.iter().any(|(m, _)| *m == c))
    }

    /// For each event, its text with stand-ins, when it has markup
    /// characters (`\operatorname{...}` passes its argument as it is).
    fn strings(
        &self,
        events: &[Event],
        allowance: &mut Allowance,
    ) -> Result<Vec<Option<String>>, String> {
        let text = |event: &Event| match *event {
            Event::Content(Content::Function(s) | Content::Number(s)) if Self::has_markup(s) => {
                Some(s.len())
            }
            _ => None,
        };
        allowance.spend(events.iter().filter_map(text).sum())?;
        Ok(events
            .iter()
            .map(|event| match *event {
                Event::Content(Content::Function(s) | Content::Number(s))
                    if Self::has_markup(s) =>
                {
                    Some(s.chars().map(|c| self.char(c)).collect())
                }
                _ => None,
            })
            .collect())
    }

    /// The event with stand-ins for markup characters, and a width for a
    /// space that has none (`\strut`: the renderer leaves out `<mspace`
    /// then, and the page would show ` height="1em" />`).
    fn event<'e>(&self, event: Event<'e>, owned: Option<&'e str>) -> Event<'e> {
        let c = |c: char| self.char(c);
        match event {
            Event::Content(content) => Event::Content(match content {
                Content::Function(s) => Content::Function(owned.unwrap_or(s)),
                Content::Number(s) => Content::Number(owned.unwrap_or(s)),
                Content::Ordinary { content, stretchy } => Content::Ordinary {
                    content: c(content),
                    stretchy,
                },
                Content::LargeOp { content, small } => Content::LargeOp {
                    content: c(content),
                    small,
                },
                Content::BinaryOp { content, small } => Content::BinaryOp {
                    content: c(content),
                    small,
                },
                Content::Relation { content, small } => Content::Relation {
                    content: self.relation(content),
                    small,
                },
                Content::Delimiter { content, size, ty } => Content::Delimiter {
                    content: c(content),
                    size,
                    ty,
                },
                Content::Punctuation(p) => Content::Punctuation(c(p)),
                // The renderer escapes text itself.
                text @ Content::Text(_) => text,
            }),
            Event::Begin(Grouping::LeftRight(open, close)) => {
                Event::Begin(Grouping::LeftRight(open.map(c), close.map(c)))
            }
            Event::Space {
                width: None,
                height,
                depth,
            } => Event::Space {
                width: Some(Dimension::new(0.0, DimensionUnit::Em)),
                height,
                depth,
            },
            other => other,
        }
    }

    /// A relation (`<`, `\gt`) with its stand-in. The parser's own type
    /// cannot be built here, so it is taken from the parse of `\mathrel`.
    fn relation(
        &self,
        content: pulldown_latex::event::RelationContent,
    ) -> pulldown_latex::event::RelationContent {
        let mut buf = [0u8; 8];
        let text = std::str::from_utf8(content.encode_utf8_to_buf(&mut buf)).unwrap_or("");
        let mut chars = text.chars();
        let (Some(only), None) = (chars.next(), chars.next()) else {
            return content;
        };
        let stand_in = self.char(only);
        if stand_in == only {
            return content;
        }
        let source = format!("\\mathrel{{{stand_in}}}");
        let storage = Storage::new();
        let parsed = Parser::new(&source, &storage).find_map(|e| match e {
            Ok(Event::Content(Content::Relation { content, .. })) => Some(content),
            _ => None,
        });
        // Left as it was if the parser changed: the markup check refuses it.
        parsed.unwrap_or(content)
    }

    fn to_entities(&self, mathml: &str) -> String {
        let mut out = String::with_capacity(mathml.len());
        for c in mathml.chars() {
            match self.0.iter().position(|s| *s == c) {
                Some(i) => out.push_str(MARKUP[i].1),
                None => out.push(c),
            }
        }
        out
    }
}

/// A writer that stops at the page's MathML allowance.
struct Capped<'b> {
    bytes: Vec<u8>,
    allowance: &'b mut Allowance,
}

impl io::Write for Capped<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.allowance
            .spend(buf.len())
            .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `<math ...>body</math>` with the LaTeX source kept, escaped, as its
/// annotation (for copying and for screen readers).
fn annotated(mathml: &str, latex: &str) -> Option<String> {
    let open_end = mathml.find('>')? + 1;
    let body = mathml.get(open_end..)?.strip_suffix("</math>")?;
    Some(format!(
        "{}<semantics><mrow>{body}</mrow><annotation encoding=\"application/x-tex\">{}</annotation></semantics></math>",
        &mathml[..open_end],
        escape(latex)
    ))
}

/// The elements the renderer writes.
const ELEMENTS: [&str; 22] = [
    "annotation",
    "math",
    "merror",
    "mfrac",
    "mi",
    "mn",
    "mo",
    "mover",
    "mroot",
    "mrow",
    "msqrt",
    "mspace",
    "msub",
    "msubsup",
    "msup",
    "mtable",
    "mtd",
    "mtext",
    "mtr",
    "munder",
    "munderover",
    "semantics",
];

/// The attributes the renderer writes.
const ATTRIBUTES: [&str; 17] = [
    "class",
    "depth",
    "display",
    "displaystyle",
    "encoding",
    "height",
    "largeop",
    "linethickness",
    "mathvariant",
    "maxsize",
    "minsize",
    "movablelimits",
    "scriptlevel",
    "stretchy",
    "style",
    "symmetric",
    "width",
];

/// Entities the renderer and the stand-ins write in text.
const ENTITIES: [&str; 6] = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&nbsp;"];

/// Whether `mathml` is only known elements and attributes with plain
/// values, and text with no markup: whatever a later renderer does with a
/// formula, it cannot put a script or a handler on the page.
fn check_markup(mathml: &str) -> Result<(), String> {
    let mut rest = mathml;
    while !rest.is_empty() {
        if let Some(tag) = rest.strip_prefix('<') {
            rest = check_tag(tag)?;
        } else {
            let end = rest.find('<').unwrap_or(rest.len());
            check_text(&rest[..end])?;
            rest = &rest[end..];
        }
    }
    Ok(())
}

/// One tag after its `<`; the text after its `>`.
fn check_tag(tag: &str) -> Result<&str, String> {
    let tag = tag.strip_prefix('/').unwrap_or(tag);
    let name_end = tag
        .find(|c: char| !c.is_ascii_lowercase())
        .unwrap_or(tag.len());
    let name = &tag[..name_end];
    if !ELEMENTS.contains(&name) {
        return Err(format!("an element <{name}>"));
    }
    let mut rest = &tag[name_end..];
    loop {
        rest = rest.trim_start_matches(' ');
        if let Some(after) = rest.strip_prefix("/>").or_else(|| rest.strip_prefix('>')) {
            return Ok(after);
        }
        let (attribute, after) = rest
            .split_once("=\"")
            .ok_or_else(|| format!("a malformed <{name}> tag"))?;
        if !ATTRIBUTES.contains(&attribute) {
            return Err(format!("an attribute {attribute:?}"));
        }
        let (value, after) = after
            .split_once('"')
            .ok_or_else(|| format!("an unclosed {attribute} value"))?;
        let plain = value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " .,:;#%()+-/".contains(c));
        let lower = value.to_ascii_lowercase();
        if !plain || lower.contains("url") || lower.contains("expression") {
            return Err(format!("the {attribute} value {value:?}"));
        }
        rest = after;
    }
}

fn check_text(text: &str) -> Result<(), String> {
    if text.contains('>') {
        return Err("a bare >".into());
    }
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        rest = &rest[at..];
        let entity = ENTITIES
            .iter()
            .find(|e| rest.starts_with(**e))
            .ok_or("a bare &")?;
        rest = &rest[entity.len()..];
    }
    Ok(())
}

/// Commands people write that the parser lacks, spelled as ones it has:
/// `\mod` (the binary "mod" of `a \mod n`) becomes `\bmod`, and the infix
/// fractions of plain TeX (`{n \over k}`, `{n \choose k}`, `{a \atop b}`)
/// become `\frac`, `\binom` and `\genfrac` of the two sides of their group
/// (braces, `\left...\right`, or the whole formula). Text that does not
/// balance is left as it is, for the parser to refuse.
fn map_unsupported(latex: &str) -> String {
    let mut frames = vec![Frame::default()];
    let mut rest = latex;
    while let Some(token) = next_token(&mut rest) {
        let name = token
            .strip_prefix('\\')
            .filter(|n| n.starts_with(|c: char| c.is_ascii_alphabetic()));
        let infix = match name {
            Some("over") => Some("\\frac"),
            Some("choose") => Some("\\binom"),
            Some("atop") => Some("\\genfrac{}{}{0pt}{}"),
            _ => None,
        };
        let nested = frames.len() > 1;
        let Some(top) = frames.last_mut() else {
            break;
        };
        match (token, name, infix) {
            ("{", ..) => frames.push(Frame::default()),
            (_, Some("left"), _) => {
                top.out.push_str(token);
                let spaces = rest.len() - rest.trim_start().len();
                top.out.push_str(&rest[..spaces]);
                rest = &rest[spaces..];
                top.out.push_str(next_token(&mut rest).unwrap_or_default());
                frames.push(Frame {
                    left: true,
                    ..Frame::default()
                });
            }
            ("}", ..) | (_, Some("right"), _) if nested && top.left == (token != "}") => {
                let inner = frames.pop().map(Frame::finish).unwrap_or_default();
                let Some(parent) = frames.last_mut() else {
                    break;
                };
                if token == "}" {
                    parent.out.push('{');
                    parent.out.push_str(&inner);
                    parent.out.push('}');
                } else {
                    parent.out.push_str(&inner);
                    parent.out.push_str(token);
                }
            }
            (_, Some("mod"), _) => top.out.push_str("\\bmod"),
            (_, _, Some(command)) if top.infix.is_none() => {
                top.infix = Some((top.out.len(), command));
            }
            _ => top.out.push_str(token),
        }
    }
    match <[Frame; 1]>::try_from(frames) {
        Ok([whole]) => whole.finish(),
        Err(_) => latex.to_string(),
    }
}

/// A group being rewritten by [`map_unsupported`].
#[derive(Default)]
struct Frame {
    out: String,
    /// Where an infix fraction splits the group, and what it becomes.
    infix: Option<(usize, &'static str)>,
    /// Opened by `\left` (closed by `\right`), not by a brace.
    left: bool,
}

impl Frame {
    fn finish(self) -> String {
        match self.infix {
            Some((at, command)) => {
                format!("{command}{{{}}}{{{}}}", &self.out[..at], &self.out[at..])
            }
            None => self.out,
        }
    }
}

/// The next token: a command (`\frac`), an escaped character (`\{`) or one
/// character.
fn next_token<'t>(rest: &mut &'t str) -> Option<&'t str> {
    let mut chars = rest.char_indices();
    let (_, first) = chars.next()?;
    let len = if first == '\\' {
        let letters = rest[1..]
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len() - 1);
        if letters > 0 {
            1 + letters
        } else {
            1 + rest[1..].chars().next().map_or(0, char::len_utf8)
        }
    } else {
        first.len_utf8()
    };
    let (token, after) = rest.split_at(len);
    *rest = after;
    Some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mathml(latex: &str, display: bool) -> Result<String, String> {
        to_mathml(latex, display, &mut Allowance::default())
    }

    #[test]
    fn formulas_become_mathml() {
        let inline = mathml("\\frac{1}{n}", false).unwrap();
        assert!(inline.starts_with("<math"), "{inline}");
        assert!(inline.contains("<mfrac>"), "{inline}");
        assert!(!inline.contains("display=\"block\""), "{inline}");
        let block = mathml("x^2", true).unwrap();
        assert!(block.contains("display=\"block\""), "{block}");
        assert!(block.contains("<msup>"), "{block}");
        assert!(
            block.ends_with(
                "</mrow><annotation encoding=\"application/x-tex\">x^2</annotation></semantics></math>"
            ),
            "{block}"
        );
    }

    #[test]
    fn mod_is_mapped_to_bmod() {
        assert_eq!(map_unsupported("t \\mod n"), "t \\bmod n");
        assert_eq!(map_unsupported("\\mod{n} \\models"), "\\bmod{n} \\models");
        assert_eq!(map_unsupported("a \\mod_b"), "a \\bmod_b");
        let html = mathml("t \\mod n", false).unwrap();
        assert!(html.contains(">mod<"), "{html}");
    }

    #[test]
    fn infix_fractions_become_commands() {
        for (latex, mapped) in [
            ("{n \\over k}", "{\\frac{n }{ k}}"),
            ("{{n} \\over {k}}", "{\\frac{{n} }{ {k}}}"),
            ("a \\choose b", "\\binom{a }{ b}"),
            ("x + {a \\atop b}", "x + {\\genfrac{}{}{0pt}{}{a }{ b}}"),
            (
                "\\left( 1 \\over 2 \\right)",
                "\\left(\\frac{ 1 }{ 2 }\\right)",
            ),
            (
                "\\left\\{ 1 \\over 2 \\right\\}",
                "\\left\\{\\frac{ 1 }{ 2 }\\right\\}",
            ),
            (
                "\\overline{x} \\overset{a}{b}",
                "\\overline{x} \\overset{a}{b}",
            ),
            ("\\{ a \\}", "\\{ a \\}"),
            ("{a \\over b", "{a \\over b"),
        ] {
            assert_eq!(map_unsupported(latex), mapped, "{latex}");
        }
        for latex in [
            "{{n} \\over {k}}",
            "\\left( n \\choose k \\right)",
            "{a \\atop b}",
        ] {
            let html = mathml(latex, false).unwrap_or_else(|e| panic!("{latex}: {e}"));
            assert!(html.contains("<mfrac"), "{html}");
        }
        // Two in one group is ambiguous in TeX too.
        assert!(mathml("a \\over b \\over c", false).is_err());
    }

    #[test]
    fn bad_formulas_are_refused() {
        let err = mathml("\\frac{1}{", false).unwrap_err();
        assert!(
            err.starts_with("formula `\\frac{1}{` does not parse"),
            "{err}"
        );
        assert!(mathml("\\nosuchcommand", false).is_err());
    }

    #[test]
    fn markup_characters_come_out_as_entities() {
        for (latex, expected) in [
            ("a < b", "<mo>&lt;</mo>"),
            ("a \\gt b", "<mo>&gt;</mo>"),
            ("\\mathrel{<}", "<mo>&lt;</mo>"),
            ("a \\And b", "&amp;"),
            ("\\&", "<mi>&amp;</mi>"),
            ("a\"b", "<mi>&quot;</mi>"),
            (
                "\\operatorname{<img src=x onerror=alert(1)>}",
                "<mi>&lt;img src=x onerror=alert(1)&gt;</mi>",
            ),
            ("\\operatorname{a\"b'c}", "<mi>a&quot;b&#39;c</mi>"),
            ("\\mathop{</mi><script>}", "&lt;/mi&gt;&lt;script&gt;"),
            ("\\text{</mtext><b>&}", "&lt;/mtext&gt;&lt;b&gt;&amp;"),
        ] {
            let html = mathml(latex, false).unwrap_or_else(|e| panic!("{latex}: {e}"));
            assert!(html.contains(expected), "{latex}: {html}");
            check_markup(&html).unwrap();
        }
    }

    #[test]
    fn the_annotation_is_escaped() {
        let html = mathml("x</annotation></math><img src=x onerror=alert(1)>", true).unwrap();
        assert!(
            html.contains(
                ">x&lt;/annotation&gt;&lt;/math&gt;&lt;img src=x onerror=alert(1)&gt;</annotation>"
            ),
            "{html}"
        );
        check_markup(&html).unwrap();
        let html = mathml("\\text{\"'&<>} x", false).unwrap();
        assert!(
            html.contains("<annotation encoding=\"application/x-tex\">\\text{&quot;&#39;&amp;&lt;&gt;} x</annotation>"),
            "{html}"
        );
        check_markup(&html).unwrap();
    }

    #[test]
    fn what_the_renderer_writes_passes_the_markup_check() {
        // A sweep of the parser's 735 commands in ten shapes (10,852
        // formulas that parse) found only `\strut` failing; these stand for
        // the shapes.
        for latex in [
            "\\displaystyle x \\textstyle y \\scriptstyle z",
            "\\color{red} x \\colorbox{blue}{y} \\fcolorbox{red}{#00ff00}{z}",
            "\\mathbf{\\text{a<b}} \\mathbb{R} \\mathcal{F} \\boldsymbol{<}",
            "\\kern1em \\mkern18mu \\hskip 2pt \\kern-1em x",
            "\\begin{aligned} a &= b \\\\[1em] c &< d \\end{aligned}",
            "\\begin{array}{c|l:r} a & b & c \\\\ \\hline d & e & f \\end{array}",
            "\\begin{cases} 1 & x > 0 \\\\ 0 & \\text{else} \\end{cases}",
            "\\underbrace{a}_{b} \\overbrace{c}^{d} \\xrightarrow[a]{b} \\sqrt[3]{x}",
            "\\big( \\Big[ \\bigg\\{ \\Bigg\\langle \\left| x \\middle| y \\right.",
            "\\not= \\not< \\not\\in f'(x) g'' \\dots \\,\\;\\:\\!\\quad x",
            "\\sum_{i=1}^{n} \\int_0^1 \\lim_{x \\to 0} \\operatorname{argmax}_x",
            "\\binom{n}{k} \\tfrac{1}{2} \\cfrac{1}{1+x} \\genfrac(){1pt}{0}{a}{b}",
            "\\strut x \\mathstrut y",
        ] {
            let html = mathml(latex, true).unwrap_or_else(|e| panic!("{latex}: {e}"));
            check_markup(&html).unwrap_or_else(|e| panic!("{latex}: {e}: {html}"));
        }
    }

    #[test]
    fn struts_are_whole_elements() {
        let html = mathml("\\strut x \\mathstrut y", false).unwrap();
        assert!(
            html.contains("<mspace width=\"0em\" height=\"1em\""),
            "{html}"
        );
    }

    #[test]
    fn stand_ins_are_not_the_authors_characters() {
        let html = mathml("\\text{\u{E000}\u{E001}} < \u{E002}", false).unwrap();
        assert!(html.contains("\u{E000}\u{E001}"), "{html}");
        assert!(html.contains("<mo>&lt;</mo>"), "{html}");
        assert!(html.contains('\u{E002}'), "{html}");
    }

    #[test]
    fn the_markup_check_refuses_what_the_renderer_should_never_write() {
        for bad in [
            "<math><script>alert(1)</script></math>",
            "<math><mi onclick=\"x()\">a</mi></math>",
            "<math><mi style=\"background:url(x)\">a</mi></math>",
            "<math><mi class=\"a\" >&x;</mi></math>",
            "<math><mo>></mo></math>",
            "<math><mi class='a'>a</mi></math>",
            "<math><mi class=\"a",
        ] {
            assert!(check_markup(bad).is_err(), "{bad}");
        }
        check_markup("<math display=\"block\"><mspace width=\"0.1667em\" /><mo stretchy=\"true\"minsize=\"1.2em\">(</mo></math>").unwrap();
    }

    #[test]
    fn size_nesting_and_definitions_are_bounded() {
        let long = "x+".repeat(MAX_BYTES / 2 + 1);
        assert!(mathml(&long, false).unwrap_err().contains("at most 4096"));
        for deep in [
            format!(
                "{}x{}",
                "{".repeat(MAX_NESTING + 1),
                "}".repeat(MAX_NESTING + 1)
            ),
            format!("{}x{}", "\\left(".repeat(40), "\\right)".repeat(40)),
            format!("{}x{}", "\\sqrt[".repeat(40), "]x".repeat(40)),
            format!(
                "{}x{}",
                "\\begin{matrix}".repeat(40),
                "\\end{matrix}".repeat(40)
            ),
        ] {
            let err = mathml(&deep, false).unwrap_err();
            assert!(err.contains("levels deep"), "{err}");
        }
        let ok = format!("{}x{}", "{".repeat(MAX_NESTING), "}".repeat(MAX_NESTING));
        mathml(&ok, false).unwrap();
        for define in ["\\def\\a{x}\\a", "\\newcommand{\\b}{y}\\b", "\\let\\c=x"] {
            let err = mathml(define, false).unwrap_err();
            assert!(err.contains("cannot define commands"), "{err}");
        }
        // Escaped braces are not nesting.
        mathml(&"\\{".repeat(100), false).unwrap();
    }

    #[test]
    fn the_longest_chain_of_commands_fits_a_thread_stack() {
        // The worst recursion a formula of MAX_BYTES allows, on a stack the
        // size of a rayon worker's.
        let chain = format!("{} x", "\\hat".repeat((MAX_BYTES - 2) / 4));
        let html = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || mathml(&chain, false).map(|h| h.len()))
            .unwrap()
            .join()
            .unwrap();
        assert!(html.is_ok(), "{html:?}");
    }

    #[test]
    fn a_page_has_a_mathml_allowance() {
        let mut allowance = Allowance {
            left: 10_000,
            spent: false,
        };
        // \operatorname* takes the rest of the formula: output grows as the
        // square of the input.
        let blowup = "\\operatorname*".repeat(250);
        let err = to_mathml(&blowup, false, &mut allowance).unwrap_err();
        assert!(err.contains("MB of MathML"), "{err}");
        assert!(allowance.is_spent());
        assert!(to_mathml("x", false, &mut allowance).is_err());
        let mut allowance = Allowance {
            left: 10_000,
            spent: false,
        };
        for _ in 0..20 {
            to_mathml("\\frac{1}{6}", false, &mut allowance).unwrap();
        }
        assert!(allowance.left < 10_000 && !allowance.is_spent());
    }
}
