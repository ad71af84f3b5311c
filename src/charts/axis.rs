//! Axis ranges, tick positions and tick labels.
//!
//! Ticks sit on steps of 1, 2 or 5 times a power of ten, and each label
//! carries as many digits as its step needs, so neighbouring labels always
//! differ. Probabilities read as percentages.

use crate::layout::blocks::ValueFormat;

/// A linear or logarithmic scale from data values to pixels.
#[derive(Debug, Clone)]
pub(crate) struct Scale {
    /// Data value at the low end (log10 of it on a log scale).
    pub lo: f64,
    /// Data value at the high end (log10 of it on a log scale).
    pub hi: f64,
    /// Pixel at the low end.
    pub from: f64,
    /// Pixel at the high end.
    pub to: f64,
    /// Logarithmic.
    pub log: bool,
}

impl Scale {
    /// The pixel of a value (a log scale takes positive values only).
    pub fn at(&self, value: f64) -> f64 {
        let v = if self.log { value.log10() } else { value };
        let span = if self.hi > self.lo {
            self.hi - self.lo
        } else {
            1.0
        };
        self.from + (v - self.lo) / span * (self.to - self.from)
    }
}

/// A tick: where, and what it says.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tick {
    /// Data value.
    pub value: f64,
    /// Label.
    pub label: String,
}

/// The step of about `count` intervals over `span`: 1, 2 or 5 times 10^k.
pub(crate) fn nice_step(span: f64, count: usize) -> f64 {
    let raw = (span / count.max(1) as f64).max(f64::MIN_POSITIVE);
    let power = 10f64.powf(raw.log10().floor());
    let m = raw / power;
    let nice = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * power
}

/// The linear range covering `lo..=hi` widened to whole steps, with the
/// ticks on it; `integral` keeps steps at 1 or more.
pub fn linear(lo: f64, hi: f64, count: usize, integral: bool) -> (f64, f64, Vec<f64>) {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else if lo == 0.0 {
        (0.0, 1.0)
    } else {
        (lo - lo.abs() * 0.5, hi + hi.abs() * 0.5)
    };
    let mut step = nice_step(hi - lo, count);
    if integral {
        step = step.max(1.0);
    }
    let first = (lo / step + 1e-9).floor();
    let last = (hi / step - 1e-9).ceil();
    let ticks = (first as i64..=last as i64)
        .map(|k| clean(k as f64 * step))
        .collect();
    (clean(first * step), clean(last * step), ticks)
}

/// Rounds away float noise such as 0.30000000000000004.
fn clean(value: f64) -> f64 {
    if value == 0.0 {
        return 0.0;
    }
    let digits = 12 - value.abs().log10().floor() as i32;
    let scale = 10f64.powi(digits.clamp(-300, 300));
    (value * scale).round() / scale
}

/// Decimal places a step needs so that its multiples read apart.
fn decimals(step: f64) -> usize {
    if step <= 0.0 {
        return 0;
    }
    (-(step.log10() + 1e-9).floor()).max(0.0) as usize
}

/// A tick's label for a linear axis with this step.
pub fn label(value: f64, step: f64, format: ValueFormat, signed: bool) -> String {
    let (value, step, unit) = match format {
        ValueFormat::Probability => (value * 100.0, step * 100.0, " %"),
        ValueFormat::Number => (value, step, ""),
    };
    if value == 0.0 {
        return format!("0{unit}");
    }
    let digits = decimals(step);
    let mut text = format!("{:.*}", digits, value);
    if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') {
        text.remove(0);
    }
    if signed && value > 0.0 {
        text.insert(0, '+');
    }
    let text = text.replace('-', "−");
    format!("{text}{unit}")
}

/// Powers of ten covering `lo..=hi` (both positive) and the exponents
/// labelled, at most `count` of them.
pub(crate) fn log_decades(lo: f64, hi: f64, count: usize) -> (i32, i32, Vec<i32>) {
    let first = lo.log10().floor() as i32;
    let last = (hi.log10().ceil() as i32).max(first + 1);
    let every = ((last - first) as usize).div_ceil(count.max(1)).max(1) as i32;
    let ticks = (first..=last)
        .filter(|e| (e - first) % every == 0)
        .collect();
    (first, last, ticks)
}

/// `10⁻⁵`, the label of a power of ten.
pub(crate) fn power_label(exponent: i32) -> String {
    let sup: String = exponent
        .to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => "⁰¹²³⁴⁵⁶⁷⁸⁹"
                .chars()
                .nth(d.to_digit(10).unwrap_or(0) as usize)
                .unwrap_or('⁰'),
        })
        .collect();
    format!("10{sup}")
}

/// Approximate width of a label in SVG units: there are no font files to
/// measure with, so a generous average for sans-serif.
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.6
}

/// The words of `text` in lines no wider than `max_width` (as
/// [`text_width`] measures them at `size`), broken between words only: a
/// label is never cut, and a word wider than the line has a line to itself.
pub(crate) fn wrap(text: &str, max_width: f64, size: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), size) <= max_width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    if lines.is_empty() {
        lines.push(String::new());
    }
    lines
}

/// Where to centre these lines near `centre` so that each stays inside
/// `lo..=hi` (when they fit there at all).
pub(crate) fn centre_within(lines: &[String], centre: f64, size: f64, (lo, hi): (f64, f64)) -> f64 {
    lines
        .iter()
        .map(|l| text_width(l, size) / 2.0)
        .fold(centre, |c, half| c.min(hi - half).max(lo + half))
}

/// Every `k`-th tick, the smallest `k` that keeps labels of this width
/// from touching over `pixels_per_tick`.
pub(crate) fn thin<T: Clone>(ticks: &[T], widest: f64, pixels_per_tick: f64) -> Vec<T> {
    let k = ((widest + 6.0) / pixels_per_tick.max(1e-9)).ceil().max(1.0) as usize;
    ticks.iter().step_by(k).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 60-character legend label on a 360-unit drawing: every word kept,
    /// in order, each line inside the width, broken only between words.
    #[test]
    fn long_labels_wrap_between_words_and_lose_nothing() {
        let label = "best-of-three, winner-chooses (same as best-of-three, alts.)";
        assert_eq!(label.chars().count(), 60);
        let lines = wrap(label, 300.0, 13.0);
        assert_eq!(
            lines,
            [
                "best-of-three, winner-chooses (same as",
                "best-of-three, alts.)"
            ]
        );
        assert!(lines.iter().all(|l| text_width(l, 13.0) <= 300.0));
        assert_eq!(lines.join(" "), label);
        assert_eq!(wrap("short", 300.0, 13.0), ["short"]);
        // A word wider than the line keeps its own line, whole.
        assert_eq!(
            wrap("a supercalifragilistic b", 50.0, 13.0),
            ["a", "supercalifragilistic", "b"]
        );
        assert_eq!(wrap("", 50.0, 13.0), [""]);
    }

    #[test]
    fn labels_are_distinct_at_any_step() {
        // The issue: eleven labels "0.5" on 2d6 mod 2, "1.0777" on one dot.
        for (lo, hi) in [
            (0.0f64, 0.5f64),
            (0.0997, 0.1003),
            (1.0777, 1.0777),
            (0.0, 1e-7),
        ] {
            let (a, b, ticks) = linear(lo.min(0.0), hi, 6, false);
            assert!(a <= lo.min(0.0) && b >= hi);
            let step = ticks[1] - ticks[0];
            let labels: Vec<String> = ticks
                .iter()
                .map(|&t| label(t, step, ValueFormat::Probability, false))
                .collect();
            let mut unique = labels.clone();
            unique.dedup();
            assert_eq!(unique, labels, "{lo}..{hi}");
        }
    }

    #[test]
    fn probabilities_read_as_percentages() {
        let (lo, hi, ticks) = linear(0.0, 0.5, 5, false);
        assert_eq!((lo, hi), (0.0, 0.5));
        let labels: Vec<String> = ticks
            .iter()
            .map(|&t| label(t, 0.1, ValueFormat::Probability, false))
            .collect();
        assert_eq!(labels, ["0 %", "10 %", "20 %", "30 %", "40 %", "50 %"]);
        assert_eq!(
            label(0.0005, 0.0005, ValueFormat::Probability, true),
            "+0.05 %"
        );
        assert_eq!(
            label(-0.001, 0.0005, ValueFormat::Probability, true),
            "−0.10 %"
        );
        assert_eq!(label(0.0, 0.0005, ValueFormat::Probability, true), "0 %");
        assert_eq!(label(2.5, 0.5, ValueFormat::Number, false), "2.5");
    }

    #[test]
    fn integral_axes_step_by_whole_numbers() {
        let (lo, hi, ticks) = linear(3.0, 3.0, 6, true);
        assert!(lo < 3.0 && hi > 3.0);
        assert!(ticks.iter().all(|t| t.fract() == 0.0));
    }

    #[test]
    fn decades_and_thinning() {
        let (first, last, ticks) = log_decades(3e-13, 0.02, 6);
        assert_eq!((first, last), (-13, -1));
        assert!(ticks.len() <= 7 && ticks[0] == -13);
        assert_eq!(power_label(-13), "10⁻¹³");
        assert_eq!(thin(&[1, 2, 3, 4, 5], 30.0, 20.0), [1, 3, 5]);
    }
}
