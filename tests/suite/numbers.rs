//! Issue 41, item 2: one number style per figure, read from the built site
//! (`cargo run --release -- build` first, as for `reading`):
//!
//! - a figure is spelled the same in its page's verdict, table and prose,
//!   thousands grouped (`3,084`), and the search finds it by either spelling;
//! - a difference of two chances reads in points, in verdict and table;
//! - no number breaks from its `%`: never an ordinary space between them;
//! - `≈` marks a rounded value only, `=` a value shown in full;
//! - probabilities shown as approximations are percentages (deck tables,
//!   the start-of-game rule's commentary).

use crate::reading::{pages, site};
use num_bigint::BigInt;

const NBSP: char = '\u{a0}';

fn page(path: &str) -> String {
    std::fs::read_to_string(site().join(path)).unwrap()
}

/// `html` without the elements named: their tags and everything inside.
fn without(html: &str, elements: &[&str]) -> String {
    let mut text = html.to_string();
    for element in elements {
        let (open, close) = (format!("<{element}"), format!("</{element}>"));
        // `<code>` or `<code class=...>`, not `<header>` for `<head`.
        let opening = |text: &str| {
            text.match_indices(&open)
                .map(|(at, _)| at)
                .find(|&at| text[at + open.len()..].starts_with(['>', ' ']))
        };
        while let Some(start) = opening(&text) {
            let end = text[start..]
                .find(&close)
                .map_or(text.len(), |e| start + e + close.len());
            text.replace_range(start..end, " ");
        }
    }
    text
}

/// What a reader sees as text: no script, style, code or chart, no exact
/// fraction behind its toggle, no tag.
fn reader_text(html: &str) -> String {
    let kept = without(html, &["script", "style", "code", "pre", "svg", "head"]);
    let mut text = String::new();
    let mut in_tag = false;
    let mut rest = kept.as_str();
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("<span class=\"exact\">") {
            rest = &rest[rest.find("</span>").unwrap() + "</span>".len()..];
            continue;
        }
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    text.replace("&amp;", "&")
}

/// Whether `text` holds `number` as a whole number: "2.525 %" is not in
/// "52.525 %".
fn has_number(text: &str, number: &str) -> bool {
    text.match_indices(number).any(|(at, _)| {
        !text[..at].ends_with(|c: char| c.is_ascii_digit() || c == '.' || c == ',')
            && !text[at + number.len()..].starts_with(|c: char| c.is_ascii_digit())
    })
}

fn verdict(html: &str) -> &str {
    let start = html.find("<p class=\"verdict\">").expect("a verdict");
    &html[start..start + html[start..].find("</p>").unwrap()]
}

#[test]
fn a_figure_reads_the_same_in_verdict_table_prose_and_search() {
    let html = page("cards/match-formats.html");
    let verdict = verdict(&html);
    assert!(verdict.contains("about 3,084 matches"), "{verdict}");
    assert!(
        verdict.contains(&format!("worth 2.5{NBSP}points of match win rate")),
        "{verdict}"
    );
    // The cases table: the same count grouped, the edge in points (its
    // exact value beside it), never the plain digits or a percentage.
    assert!(html.contains("<span class=\"shown\">3,084</span><span class=\"exact\">3084</span>"));
    assert!(html.contains(&format!(
        "<span class=\"shown\">2.525{NBSP}points</span><span class=\"exact\">101/4000</span>"
    )));
    let text = reader_text(&html);
    for old in ["3084", "2.525 %", "2.525\u{a0}%"] {
        assert!(
            !has_number(&text, old),
            "{old:?} on cards/match-formats.html"
        );
    }
    // The prose page quotes the same figures through shortcodes.
    let prose = reader_text(&page("cards/matches.html"));
    assert!(prose.contains("3,084"), "{prose}");
    assert!(prose.contains(&format!("2.525{NBSP}points")), "{prose}");
    assert!(!has_number(&prose, "3084") && !has_number(&prose, "2.525\u{a0}%"));
    // The search index reads "3,084" as 3084: either spelling finds both.
    let js = std::fs::read_to_string(site().join("search-index.js")).unwrap();
    let index: serde_json::Value =
        serde_json::from_str(&js[js.find('{').unwrap()..=js.rfind('}').unwrap()]).unwrap();
    let postings = index["terms"]["3084"].as_array().expect("3084 is indexed");
    let found: Vec<&str> = postings
        .chunks(2)
        .map(|p| {
            let section = &index["sections"][p[0].as_u64().unwrap() as usize];
            index["pages"][section[0].as_u64().unwrap() as usize][1]
                .as_str()
                .unwrap()
        })
        .collect();
    for page in ["cards/match-formats.html", "cards/matches.html"] {
        assert!(found.contains(&page), "{page} not found by 3084: {found:?}");
    }
}

#[test]
fn no_number_breaks_from_its_percent_sign() {
    let mut broken = Vec::new();
    for path in pages() {
        let text = reader_text(&page(&path));
        let chars: Vec<char> = text.chars().collect();
        for i in 2..chars.len() {
            if chars[i] == '%'
                && chars[i - 1].is_ascii_whitespace()
                && chars[i - 2].is_ascii_digit()
            {
                let from = i.saturating_sub(30);
                broken.push(format!(
                    "{path}: {}",
                    chars[from..=i].iter().collect::<String>()
                ));
            }
        }
    }
    assert!(broken.is_empty(), "{} breakable: {broken:#?}", broken.len());
    // The one issue 41 saw break at 1366 px.
    let observed = page("cards/match-observed.html");
    assert!(observed.contains(&format!("(50{NBSP}%)")));
}

/// `1/6` as numerator and denominator.
fn fraction(text: &str) -> Option<(BigInt, BigInt)> {
    let (n, d) = text
        .replace('−', "-")
        .split_once('/')
        .map(|(n, d)| (n.to_string(), d.to_string()))?;
    Some((n.parse().ok()?, d.parse().ok()?))
}

/// `16.6667` (or `16,6667` with a decimal comma) as digits over a power
/// of ten.
fn decimal(text: &str, point: char) -> Option<(BigInt, BigInt)> {
    let text = text.replace('−', "-");
    let (whole, part) = text.split_once(point).unwrap_or((&text, ""));
    let digits: BigInt = format!("{whole}{part}").parse().ok()?;
    Some((digits, BigInt::from(10).pow(part.len() as u32)))
}

/// Every `p/q = x` and `p/q ≈ x` a reader sees (tooltips, key figures),
/// with `x` a plain decimal, a percentage or points: `=` exactly when `x`
/// is the fraction itself.
#[test]
fn approximately_marks_only_rounded_values() {
    let (mut equal, mut approximate) = (0, 0);
    let mut wrong = Vec::new();
    for path in pages() {
        // A French page writes 7,375 % (decimal comma, narrow no-break
        // space): the same figures in its language's spelling.
        let french = path.starts_with("fr/") || path.contains(".fr.");
        let (point, ends): (char, &[char]) = if french {
            (',', &['<', ' ', ')', ';'])
        } else {
            ('.', &['<', ' ', ')', ',', ';'])
        };
        let mut html = page(&path);
        if french {
            html = html.replace('\u{202f}', "\u{a0}");
        }
        for sign in [" = ", " ≈ "] {
            for (at, _) in html.match_indices(sign) {
                let before = &html[..at];
                let exact = &before[before.rfind([' ', '>']).map_or(0, |s| s + 1)..];
                let after = &html[at + sign.len()..];
                let end = after.find(ends).unwrap_or(after.len());
                if after[end..].starts_with(" ×") {
                    continue; // Scientific: rounded by its form.
                }
                let token = &after[..end];
                // The unit after a no-break space, or (wrongly) a space.
                let (shown, unit) = token
                    .split_once(NBSP)
                    .unwrap_or((token, after[end..].trim_start_matches(' ')));
                let shown = shown.trim_end_matches('.');
                let scale = if unit.starts_with('%') || unit.starts_with("point") {
                    100
                } else {
                    1
                };
                let (Some((n, d)), Some((m, p))) = (fraction(exact), decimal(shown, point)) else {
                    continue;
                };
                // n/d × scale = m/p exactly?
                let is_exact = &n * scale * &p == &m * &d;
                if sign == " = " {
                    equal += 1;
                } else {
                    approximate += 1;
                }
                if is_exact != (sign == " = ") {
                    wrong.push(format!("{path}: {exact}{sign}{token}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(
        equal > 10 && approximate > 10,
        "{equal} '=', {approximate} '≈'"
    );
}

#[test]
fn probabilities_shown_as_approximations_are_percentages() {
    // The deck's "exactly k copies" table, as the London mulligan's.
    let html = page("cards/opening-hands.html");
    assert!(html.contains(&format!(
        "<span class=\"shown\">2.16145{NBSP}%</span><span class=\"exact\">2108/97527</span>"
    )));
    assert!(!reader_text(&html).contains("0.0216145"));
    // The rule's commentary: the exact fraction, then the percentage.
    let rule = reader_text(&page("rules/start-of-game.html"));
    let tie = rule.find("73/648").expect("the exact chance of a tie");
    assert!(
        rule[tie..].starts_with(&format!("73/648\n(about 11.2654{NBSP}%)")),
        "{}",
        rule[tie..].chars().take(40).collect::<String>()
    );
}
