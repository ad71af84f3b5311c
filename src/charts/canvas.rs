//! A drawing collected first and written at the end: text and lines of the
//! frame through plotters' SVG backend, then the data marks (bars, points,
//! cells), written directly because each carries a `<title>` with its exact
//! value, which plotters has no element for.

use super::theme::{self, Role};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Where text hangs from its point.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Anchor {
    /// Left end, vertically centred.
    Left,
    /// Right end, vertically centred.
    Right,
    /// Centre, hanging below the point.
    Below,
    /// Left end, sitting above the point.
    LeftAbove,
}

enum Op {
    Text {
        text: String,
        at: (i32, i32),
        size: f64,
        anchor: Anchor,
        role: Role,
    },
    Line {
        from: (i32, i32),
        to: (i32, i32),
        role: Role,
    },
}

/// One SVG drawing of `width` x `height` units.
pub(crate) struct Canvas {
    /// Width in SVG units.
    pub width: i32,
    /// Height in SVG units.
    pub height: i32,
    ops: Vec<Op>,
    marks: Vec<String>,
}

/// Two decimals at most: marks stay short and deterministic.
pub(crate) fn num(value: f64) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

/// Text for SVG content and attributes.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A `<title>` child, or nothing without a text.
pub fn title(text: Option<&String>) -> String {
    text.map_or(String::new(), |t| format!("<title>{}</title>", escape(t)))
}

/// `class="f-NAME" fill="#..."`: the fill of a role.
pub fn fill(role: Role) -> String {
    format!(
        "class=\"f-{}\" fill=\"{}\"",
        role.name,
        theme::hex(role.light)
    )
}

/// `class="k-NAME" stroke="#..."`: the stroke of a role.
pub(crate) fn stroke(role: Role) -> String {
    format!(
        "class=\"k-{}\" stroke=\"{}\"",
        role.name,
        theme::hex(role.light)
    )
}

/// From one line of text to the next, at this font size.
pub(crate) fn line_height(size: f64) -> f64 {
    (size * 1.25).round()
}

impl Canvas {
    /// An empty drawing.
    pub fn new(width: i32, height: i32) -> Canvas {
        Canvas {
            width,
            height,
            ops: Vec::new(),
            marks: Vec::new(),
        }
    }

    /// Text of the frame (labels, ticks, legend).
    pub fn text(&mut self, text: &str, at: (f64, f64), size: f64, anchor: Anchor, role: Role) {
        self.ops.push(Op::Text {
            text: text.to_string(),
            at: (at.0.round() as i32, at.1.round() as i32),
            size,
            anchor,
            role,
        });
    }

    /// Text of several lines (a wrapped label), [`line_height`] apart: the
    /// first where [`Canvas::text`] puts a single line and the others below
    /// it, except [`Anchor::LeftAbove`], whose last line sits on the point.
    pub fn lines(
        &mut self,
        lines: &[String],
        at: (f64, f64),
        size: f64,
        anchor: Anchor,
        role: Role,
    ) {
        let last = lines.len().saturating_sub(1);
        for (k, line) in lines.iter().enumerate() {
            let row = match anchor {
                Anchor::LeftAbove => k as f64 - last as f64,
                _ => k as f64,
            };
            self.text(
                line,
                (at.0, at.1 + row * line_height(size)),
                size,
                anchor,
                role,
            );
        }
    }

    /// A one-unit line of the frame (axes, ticks, grid).
    pub fn line(&mut self, from: (f64, f64), to: (f64, f64), role: Role) {
        self.ops.push(Op::Line {
            from: (from.0.round() as i32, from.1.round() as i32),
            to: (to.0.round() as i32, to.1.round() as i32),
            role,
        });
    }

    /// A data mark, as SVG markup.
    pub fn mark(&mut self, svg: String) {
        self.marks.push(svg);
    }

    /// The SVG body (without the `<svg>` element): the frame drawn by
    /// plotters with theme classes added, then the marks.
    pub fn finish(self) -> Result<String, Box<dyn std::error::Error>> {
        let mut svg = String::new();
        {
            let size = (self.width as u32, self.height as u32);
            let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            for op in &self.ops {
                match op {
                    Op::Text {
                        text,
                        at,
                        size,
                        anchor,
                        role,
                    } => {
                        let pos = match anchor {
                            Anchor::Left => Pos::new(HPos::Left, VPos::Center),
                            Anchor::Right => Pos::new(HPos::Right, VPos::Center),
                            Anchor::Below => Pos::new(HPos::Center, VPos::Top),
                            Anchor::LeftAbove => Pos::new(HPos::Left, VPos::Bottom),
                        };
                        // plotters writes font-size as size / 1.24.
                        let font = ("sans-serif", size * 1.24).into_font().color(&role.light);
                        root.draw_text(text, &font.pos(pos), *at)?;
                    }
                    Op::Line { from, to, role } => {
                        root.draw(&PathElement::new(
                            vec![*from, *to],
                            role.light.stroke_width(1),
                        ))?;
                    }
                }
            }
            root.present()?;
        }
        let start = svg.find('>').map_or(0, |i| i + 1);
        let end = svg.rfind("</svg>").unwrap_or(svg.len());
        let mut body = round_font_sizes(&svg[start..end]);
        for role in theme::FRAME_ROLES {
            let hex = theme::hex(role.light);
            body = body
                .replace(
                    &format!("fill=\"{hex}\""),
                    &format!("fill=\"{hex}\" class=\"f-{}\"", role.name),
                )
                .replace(
                    &format!("stroke=\"{hex}\""),
                    &format!("stroke=\"{hex}\" class=\"k-{}\"", role.name),
                );
        }
        for mark in self.marks {
            body.push_str(&mark);
            body.push('\n');
        }
        Ok(body)
    }
}

/// plotters writes a size s as s / 1.24 in floating point: round it back.
fn round_font_sizes(svg: &str) -> String {
    const KEY: &str = "font-size=\"";
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(i) = rest.find(KEY) {
        let (head, tail) = rest.split_at(i + KEY.len());
        out.push_str(head);
        let end = tail.find('"').unwrap_or(tail.len());
        match tail[..end].parse::<f64>() {
            Ok(size) => out.push_str(&num(size)),
            Err(_) => out.push_str(&tail[..end]),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_elements_carry_theme_classes() {
        let mut canvas = Canvas::new(100, 50);
        canvas.text("a < b", (10.0, 10.0), 13.0, Anchor::Left, theme::INK);
        canvas.line((0.0, 0.0), (10.0, 0.0), theme::GRID);
        canvas.mark("<rect/>".into());
        let body = canvas.finish().unwrap();
        assert!(body.contains("font-size=\"13\""), "{body}");
        assert!(body.contains("class=\"f-ink\""), "{body}");
        assert!(body.contains("class=\"k-grid\""), "{body}");
        assert!(body.contains("a &lt; b"), "{body}");
        assert!(body.trim_end().ends_with("<rect/>"));
        assert!(!body.contains("<svg"));
    }

    #[test]
    fn numbers_stay_short() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.345), "12.35");
        assert_eq!(num(-0.001), "0");
    }
}
