//! The committed site read as its readers do (issue 14):
//!
//! - every chart in the site passes the SVG check (no repeated adjacent tick
//!   labels, bar charts whose value axis includes zero, no colour twice);
//! - axe-core at 1366 and 390 px finds no violation, chart text is at least
//!   12 and 10 px as drawn, every legend, tick and axis label lies inside
//!   its chart's box as drawn and ends whole (no "…"), each series of a
//!   chart with a key is named whole in it, nothing but tables scrolls
//!   sideways, a table that scrolls has taken the width beside it (the
//!   columns its box cuts are named; the widest table's page is read too),
//!   and
//!   screenshots of every kind's page and the playground at both widths
//!   and in both themes land in `target/reading/` (tools/browser/check.mjs:
//!   one Chromium for every page, several tabs at once, the PDF below
//!   printed alongside);
//! - every interactive element on those pages used at both widths
//!   (tools/browser/interact.mjs), judged by computed style and box, not
//!   markup: a glossary definition shows inside the viewport after hover,
//!   focus and tap and hides after Escape; the theme switch changes the
//!   colours and back; the phone menu opens and closes; what-if forms show;
//! - html-validate finds no error in any page;
//! - `print.html` printed to PDF by Chromium keeps every row of the widest
//!   and of the longest table whole on a line, their last row and last
//!   column included, prints no control and numbers its pages (pdftotext).
//!
//! The tools come from `tools/browser` (`npm ci`), Debian's `chromium` and
//! `poppler-utils`. Without them the tests are skipped with a notice, except
//! under `CI=true`, where a missing tool is a failure (.ci/run installs them).

use std::path::{Path, PathBuf};
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn site() -> PathBuf {
    let site = root().join("site");
    assert!(
        site.join("index.html").is_file(),
        "build the site first: cargo run --release -- build"
    );
    site
}

/// Every HTML page of the site, as paths relative to it, sorted.
pub(crate) fn pages() -> Vec<String> {
    let site = site();
    let mut pages: Vec<String> = walkdir::WalkDir::new(&site)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .map(|e| {
            e.path()
                .strip_prefix(&site)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    pages.sort();
    pages
}

/// True when the tool is there; otherwise a notice (or, in CI, a failure).
fn have(ok: bool, what: &str) -> bool {
    if !ok {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{what} missing and CI=true: .ci/run installs it"
        );
        eprintln!("NOTICE: {what} missing, test skipped");
    }
    ok
}

fn node_tools() -> bool {
    let modules = root().join("tools/browser/node_modules");
    have(
        Command::new("node").arg("--version").output().is_ok()
            && ["axe-core", "html-validate", "puppeteer-core"]
                .iter()
                .all(|m| modules.join(m).is_dir())
            && Path::new(CHROMIUM).exists(),
        "node, chromium or tools/browser/node_modules (cd tools/browser && npm ci)",
    )
}

/// The text inside each `<text>` element, in order.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..t.find("</text>")?];
            Some(body.trim().to_string())
        })
        .collect()
}

/// Why one chart fails the check, if it does.
fn svg_problems(svg: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let labels = texts(svg);
    for pair in labels.windows(2) {
        if pair[0] == pair[1] {
            problems.push(format!("repeated adjacent label {:?}", pair[0]));
        }
    }
    // "0 %" with any space a language puts before its unit.
    let zero = |l: &String| l == "0" || l.strip_prefix('0').is_some_and(|u| u.trim() == "%");
    if svg.contains("data-kind=\"bars\"") && !labels.iter().any(zero) {
        problems.push(format!("bar chart without zero on its axis: {labels:?}"));
    }
    let mut colours: Vec<&str> = svg
        .split("data-colour=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    let series = colours.len();
    colours.sort();
    colours.dedup();
    if colours.len() != series {
        problems.push("two series of one colour".into());
    }
    let groups = svg.split("<g class=\"series\"").skip(1);
    for group in groups {
        let group = &group[..group.find("</g>").unwrap_or(group.len())];
        let marks = ["<rect", "<circle", "<polygon"]
            .iter()
            .map(|mark| group.matches(mark).count())
            .sum::<usize>();
        if group.matches("<title>").count() != marks {
            problems.push("a mark without its exact value in a <title>".into());
        }
    }
    problems
}

#[test]
fn every_chart_in_the_site_passes_the_svg_check() {
    let site = site();
    let mut charts = 0;
    let mut kinds = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for page in pages() {
        let html = std::fs::read_to_string(site.join(&page)).unwrap();
        for piece in html.split("<svg ").skip(1) {
            let svg = &piece[..piece.find("</svg>").expect("closed svg")];
            if !svg.contains("class=\"chart") {
                continue;
            }
            charts += 1;
            if let Some(kind) = svg.split("data-kind=\"").nth(1) {
                kinds.insert(kind.split('"').next().unwrap().to_string());
            }
            for problem in svg_problems(svg) {
                failures.push(format!("{page}: {problem}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(charts >= 20, "only {charts} charts");
    for kind in ["bars", "deviation", "lines", "heatmap"] {
        assert!(
            kinds.contains(kind),
            "no {kind} chart in the site: {kinds:?}"
        );
    }
}

#[test]
fn the_svg_check_catches_what_it_is_for() {
    let ok = "<svg data-kind=\"bars\"><text>0 %</text><text>10 %</text>\
              <g class=\"series\" data-colour=\"s1\"><rect><title>1/2</title></rect></g></svg>";
    assert!(svg_problems(ok).is_empty(), "{:?}", svg_problems(ok));
    let repeated = ok.replace("10 %", "0 %");
    assert!(svg_problems(&repeated)[0].contains("repeated adjacent"));
    let no_zero = ok.replace(">0 %<", ">5 %<");
    assert!(svg_problems(&no_zero)[0].contains("without zero"));
    let twice = ok.replace(
        "</g></svg>",
        "</g><g class=\"series\" data-colour=\"s1\"></g></svg>",
    );
    assert!(svg_problems(&twice)[0].contains("one colour"));
    let untitled = ok.replace("<title>1/2</title>", "");
    assert!(svg_problems(&untitled)[0].contains("<title>"));
    let untitled_marker = ok.replace("</rect>", "</rect><polygon points=\"0,0 1,1 0,1\"/>");
    assert!(svg_problems(&untitled_marker)[0].contains("<title>"));
}

/// One scenario page of each kind, the pages whose markdown embeds tables
/// and charts, the home page and the print page.
fn pages_to_read() -> Vec<String> {
    let site = site();
    let mut chosen = vec!["index.html".to_string()];
    let mut kinds = std::collections::BTreeSet::new();
    // The page with the most columns in one table: the one most likely
    // to scroll, which must take the width there is.
    let mut widest = (0, String::new());
    for page in pages().into_iter().filter(|p| p != "print.html") {
        let html = std::fs::read_to_string(site.join(&page)).unwrap();
        let columns = html
            .split("<thead>")
            .skip(1)
            .map(|head| {
                head.split("</thead>")
                    .next()
                    .unwrap()
                    .matches("<th")
                    .count()
            })
            .max()
            .unwrap_or(0);
        if columns > widest.0 {
            widest = (columns, page.clone());
        }
        let kind = html
            .split("(kind <code>")
            .nth(1)
            .and_then(|rest| rest.split('<').next());
        match kind {
            Some(kind) if kinds.insert(kind.to_string()) => chosen.push(page),
            None if html.contains("<figure class=\"chart\"") => chosen.push(page),
            _ => {}
        }
    }
    assert!(kinds.len() >= 5, "kinds found: {kinds:?}");
    // The page with the most glossary marks: the likeliest to have one
    // at the right edge of a phone's screen.
    let glossed = pages()
        .into_iter()
        .filter(|p| p != "print.html" && !p.starts_with("print-"))
        .max_by_key(|p| glossary_marks(p).len())
        .unwrap();
    // The playground: its form's controls (the Notation menu among them)
    // must fit a phone's width and pass axe as the pages do.
    for page in [widest.1, glossed, "playground.html".to_string()] {
        if !chosen.contains(&page) {
            chosen.push(page);
        }
    }
    chosen.push("print.html:light".into());
    chosen
}

/// What the one run of `tools/browser/check.mjs` left: its verdict and
/// the folder of its report, screenshots and `print.pdf`.
struct BrowserRun {
    out: PathBuf,
    passed: bool,
    said: String,
}

/// The browser tests share one launch of Chromium (check.mjs reads every
/// page several tabs at a time and prints the PDF alongside); the first
/// test to ask runs it, the others wait for it. `None` when the tools are
/// missing outside CI.
fn browser_run() -> Option<&'static BrowserRun> {
    static RUN: std::sync::OnceLock<Option<BrowserRun>> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        if !node_tools() {
            return None;
        }
        let out = root().join("target/reading");
        let _ = std::fs::remove_dir_all(&out);
        let output = Command::new("node")
            .arg(root().join("tools/browser/check.mjs"))
            .arg(site())
            .arg(&out)
            .args(["--pdf", "print.html"])
            .args(pages_to_read())
            .output()
            .expect("node runs");
        Some(BrowserRun {
            out,
            passed: output.status.success(),
            said: format!(
                "{}\n{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ),
        })
    })
    .as_ref()
}

#[test]
fn axe_text_sizes_sideways_scrolling_and_screenshots() {
    let Some(run) = browser_run() else {
        return;
    };
    assert!(run.passed, "{}", run.said);
    let shots = std::fs::read_dir(&run.out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "png")
        })
        .count();
    assert!(
        shots >= 4 * 6,
        "{shots} screenshots in {}",
        run.out.display()
    );
    eprintln!("screenshots in {}", run.out.display());
}

/// Each interactive element was used, at both widths: the check of what
/// shows cannot pass by finding nothing to use.
#[test]
fn glossary_menus_theme_and_what_if_forms_are_used_at_both_widths() {
    let Some(run) = browser_run() else {
        return;
    };
    assert!(run.passed, "{}", run.said);
    let report: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(run.out.join("report.json")).unwrap())
            .unwrap();
    for width in [1366, 390] {
        let checked: Vec<&str> = report
            .iter()
            .filter(|r| r["theme"] == "used" && r["width"] == width)
            .flat_map(|r| r["checked"].as_array().unwrap())
            .map(|c| c.as_str().unwrap())
            .collect();
        let has = |what: &str| checked.iter().any(|c| c.contains(what));
        for what in [
            "after hover",
            "after focus",
            "after tap",
            "after hover and Escape",
            "after focus and Escape",
            "after tap and Escape",
            "theme switch colours",
            "what-if form",
        ] {
            assert!(has(what), "{what} never checked at {width}px: {checked:?}");
        }
        let menu = if width == 390 {
            "navigation after the menu link"
        } else {
            "navigation on a wide screen"
        };
        assert!(has(menu), "{menu} never checked at {width}px");
    }
}

/// The declarations of every rule that applies only in the dark theme
/// (under `[data-theme="dark"]` or `prefers-color-scheme: dark`).
fn dark_declarations(css: &str) -> Vec<String> {
    fn walk(css: &str, dark: bool, found: &mut Vec<String>) {
        let mut rest = css;
        while let Some(open) = rest.find('{') {
            let prelude = rest[..open].rsplit(['}', ';']).next().unwrap_or("").trim();
            let mut depth = 0;
            let mut close = rest.len();
            for (i, c) in rest[open..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            close = open + i;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let body = &rest[open + 1..close];
            let dark = dark
                || prelude.contains("data-theme=\"dark\"")
                || prelude.contains("prefers-color-scheme: dark");
            if body.contains('{') {
                walk(body, dark, found);
            } else if dark {
                found.extend(
                    body.split(';')
                        .map(str::trim)
                        .filter(|d| !d.is_empty())
                        .map(String::from),
                );
            }
            rest = &rest[(close + 1).min(rest.len())..];
        }
    }
    let mut found = Vec::new();
    walk(css, false, &mut found);
    found
}

/// The browser check runs axe's colour rules only in the dark theme; that
/// holds while the dark theme changes colour variables and nothing else.
#[test]
fn the_dark_theme_only_swaps_colours() {
    let mut declarations = Vec::new();
    for sheet in ["style.css", "rules.css"] {
        let css = std::fs::read_to_string(root().join("templates/assets").join(sheet)).unwrap();
        declarations.extend(dark_declarations(&css));
    }
    assert!(declarations.len() >= 20, "{declarations:?}");
    let other: Vec<&String> = declarations
        .iter()
        .filter(|d| !d.starts_with("--") && !d.starts_with("color-scheme:"))
        .collect();
    assert!(
        other.is_empty(),
        "the dark theme sets more than colours, so tools/browser/check.mjs must run \
         every axe rule in it too: {other:?}"
    );
    let layout = ":root { --bg: #fff; }\n@media (prefers-color-scheme: dark) { \
                  :root:not([data-theme=\"light\"]) { --bg: #000; color-scheme: dark; } }\n\
                  :root[data-theme=\"dark\"] .top { display: none; }";
    assert_eq!(
        dark_declarations(layout),
        ["--bg: #000", "color-scheme: dark", "display: none"]
    );
}

#[test]
fn html_validate_finds_no_error_in_any_page() {
    if !node_tools() {
        return;
    }
    let tools = root().join("tools/browser");
    let site = site();
    let output = Command::new("node")
        .arg(tools.join("node_modules/html-validate/bin/html-validate.mjs"))
        .arg("--config")
        .arg(tools.join("htmlvalidate.json"))
        .args(pages().iter().map(|p| site.join(p)))
        .output()
        .expect("node runs");
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A table of the print page: its header cells and its rows' shown text.
struct PrintedTable {
    columns: Vec<String>,
    rows: Vec<Vec<String>>,
}

/// Tags removed, the hidden exact forms dropped, entities decoded.
fn cell_text(html: &str) -> String {
    let mut html = html.to_string();
    while let Some(start) = html.find("<span class=\"exact\">") {
        let end = html[start..]
            .find("</span>")
            .map_or(html.len(), |e| start + e + 7);
        html.replace_range(start..end, "");
    }
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .trim()
        .to_string()
}

/// The text of each `<tag ...>` cell in `row` (not `<thead>` for `th`).
fn cells(row: &str, tag: &str) -> Vec<String> {
    let open = format!("<{tag}");
    let close = format!("</{tag}>");
    row.match_indices(&open)
        .filter(|(at, _)| matches!(row.as_bytes().get(at + open.len()), Some(b' ' | b'>')))
        .map(|(at, _)| {
            let cell = &row[at..];
            let body = &cell[cell.find('>').unwrap() + 1..];
            cell_text(&body[..body.find(&close).unwrap_or(body.len())])
        })
        .collect()
}

fn printed_tables(html: &str) -> Vec<PrintedTable> {
    html.split("<table")
        .skip(1)
        .filter_map(|t| {
            let t = &t[..t.find("</table>")?];
            let head = &t[t.find("<thead>")?..t.find("</thead>")?];
            let body = &t[t.find("<tbody>")?..];
            Some(PrintedTable {
                columns: cells(head, "th"),
                rows: body.split("<tr").skip(1).map(|r| cells(r, "td")).collect(),
            })
        })
        .collect()
}

fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Reads back with pdftotext the PDF Chromium printed of `print.html`
/// (in the shared browser run, as `--print-to-pdf` prints it): every row of the widest and of the longest table is on one
/// line, whole (so its last column too), the last column's header is there,
/// no control prints, and the pages are numbered.
#[test]
fn print_keeps_every_row_and_column_of_the_widest_and_longest_tables() {
    let pdftotext = Command::new("pdftotext").arg("-v").output().is_ok();
    if !have(pdftotext, "pdftotext (poppler-utils)") {
        return;
    }
    let site = site();
    let html = std::fs::read_to_string(site.join("print.html")).unwrap();
    assert!(!html.contains("more rows in the CSV"), "a table cut short");
    let tables = printed_tables(&html);
    let widest = tables.iter().max_by_key(|t| t.columns.len()).unwrap();
    let longest = tables.iter().max_by_key(|t| t.rows.len()).unwrap();
    assert!(widest.columns.len() >= 12 && longest.rows.len() >= 100);
    assert!(
        widest.rows.iter().all(|r| r.len() == widest.columns.len()),
        "the parser lost cells: {:?}",
        widest.columns
    );

    let Some(run) = browser_run() else {
        return;
    };
    let pdf = run.out.join("print.pdf");
    assert!(pdf.is_file(), "no PDF printed: {}", run.said);
    let text = Command::new("pdftotext")
        .args(["-layout"])
        .arg(&pdf)
        .arg("-")
        .output()
        .expect("pdftotext runs");
    let text = String::from_utf8_lossy(&text.stdout);
    let lines: Vec<String> = text.lines().map(squeeze).collect();
    let pages = text.matches('\u{c}').count();
    for (what, table) in [("widest", widest), ("longest", longest)] {
        // Each row prints whole, its last column included, on one line.
        for row in &table.rows {
            let whole = squeeze(&row.concat());
            assert!(
                lines.iter().any(|l| l.contains(&whole)),
                "{what} table: row {row:?} not whole on a line of the PDF ({pages} pages)"
            );
        }
        // The last column's header, word by word (it may wrap).
        let header = table.columns.last().unwrap();
        for word in header.split_whitespace() {
            assert!(
                text.contains(word),
                "{what} table: last column {header:?} not in the PDF"
            );
        }
    }
    // Issue 41, item 3: nothing screen-only (a scenario's links to its
    // data), and the contents give the rules' pages their rule numbers.
    for control in [
        "Show exact fractions",
        "Dark theme",
        "Close the menu",
        "each table links its CSV",
    ] {
        assert!(!text.contains(control), "{control:?} printed");
    }
    for entry in ["1 Start of game", "2 Use of dice"] {
        assert!(
            text.lines().any(|l| l
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .starts_with(entry)),
            "the contents lack {entry:?}"
        );
    }
    assert!(
        text.contains(&format!("Page 1 of {pages}"))
            && text.contains(&format!("Page {pages} of {pages}")),
        "pages not numbered ({pages} pages)"
    );
}

/// The words marked with a glossary definition on a page of the built
/// site, as `words=start of definition`.
fn glossary_marks(page: &str) -> Vec<String> {
    let html = std::fs::read_to_string(site().join(page)).unwrap();
    html.split("class=\"term-word\"")
        .skip(1)
        .map(|m| {
            let words = &m[m.find('>').unwrap() + 1..m.find("</button>").unwrap()];
            let definition = m.split(" hidden>").nth(1).unwrap();
            format!(
                "{words}={}",
                definition.chars().take(12).collect::<String>()
            )
        })
        .collect()
}

#[test]
fn glossary_definitions_appear_only_where_the_word_has_their_sense() {
    // A dice reroll, a drawn race game and arithmetic modulo a prime are
    // not the glossary's card reroll, tie for first and reading mod n.
    assert!(glossary_marks("dice/index.html").is_empty());
    assert!(glossary_marks("games/strongest.html").is_empty());
    assert!(!glossary_marks("games/seed-game.html")
        .iter()
        .any(|m| m.starts_with("tie=")));
    assert_eq!(
        glossary_marks("rules/start-of-game.html"),
        ["tie=Two or more ", "round=One roll mad"]
    );
    assert!(glossary_marks("rules/random-number-generation.html")
        .contains(&"roll again=Rolling agai".to_string()));
}

/// The built site's search index: pages, sections and postings.
fn search_index() -> serde_json::Value {
    let js = std::fs::read_to_string(site().join("search-index.js")).unwrap();
    let json = &js[js.find('{').unwrap()..js.rfind('}').unwrap() + 1];
    serde_json::from_str(json).unwrap()
}

/// The pages (by link) whose sections hold `word`, best first.
fn pages_found(index: &serde_json::Value, word: &str) -> Vec<String> {
    let postings = index["terms"][word].as_array().cloned().unwrap_or_default();
    let mut hits: Vec<(u64, String)> = postings
        .chunks(2)
        .map(|p| {
            let section = &index["sections"][p[0].as_u64().unwrap() as usize];
            let page = &index["pages"][section[0].as_u64().unwrap() as usize];
            (
                p[1].as_u64().unwrap(),
                page[1].as_str().unwrap().to_string(),
            )
        })
        .collect();
    hits.sort_by_key(|h| std::cmp::Reverse(h.0));
    hits.into_iter().map(|(_, page)| page).collect()
}

#[test]
fn search_finds_table_cells_and_the_playground_and_not_every_rules_history_link() {
    let index = search_index();
    // The dice syntax table and the playground's syntax guide.
    let found = pages_found(&index, "4d6kh3");
    assert!(found.contains(&"dice/index.html".to_string()), "{found:?}");
    assert!(found.contains(&"playground.html".to_string()), "{found:?}");
    assert!(!pages_found(&index, "once").is_empty());
    // "history" is the word of the history pages, not of every rule's
    // link to its history.
    let history = pages_found(&index, "history");
    assert!(
        !history.iter().any(|p| p == "rules/start-of-game.html"),
        "{history:?}"
    );
}

/// Issue 41, item 7a: no rule of the site has two figures links a reader
/// cannot tell apart (rule 1.1.1 had two, both "figures").
#[test]
fn a_rules_figures_links_have_distinct_labels() {
    let mut rules_with_several = 0;
    for page in pages() {
        let html = std::fs::read_to_string(site().join(&page)).unwrap();
        // A rule's marks: in its paragraph or item, or after its heading.
        let openings = ["class=\"rule\" id=", "class=\"rule-marks\""]
            .into_iter()
            .flat_map(|marker| html.split(marker).skip(1));
        for opening in openings {
            let end = ["</p>", "</li>", "<ul", "<ol"]
                .iter()
                .filter_map(|close| opening.find(close))
                .min()
                .unwrap_or(opening.len());
            let labels: Vec<&str> = opening[..end]
                .split("class=\"rule-figures\"")
                .skip(1)
                .map(|link| &link[link.find('>').unwrap() + 1..link.find("</a>").unwrap()])
                .collect();
            let mut distinct = labels.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), labels.len(), "{page}: {labels:?}");
            rules_with_several += usize::from(labels.len() > 1);
        }
    }
    assert!(
        rules_with_several >= 1,
        "no rule with several figures links"
    );
}

/// Issue 41, item 7b: the glossary page lists its terms alphabetically.
#[test]
fn the_glossary_page_is_alphabetical() {
    let html = std::fs::read_to_string(site().join("glossary.html")).unwrap();
    let terms: Vec<String> = html
        .split("<dfn>")
        .skip(1)
        .map(|d| d[..d.find("</dfn>").unwrap()].to_lowercase())
        .collect();
    assert!(terms.len() >= 10, "{terms:?}");
    let mut sorted = terms.clone();
    sorted.sort();
    assert_eq!(terms, sorted);
}

/// Issue 41, item 3: the rule book's contents, in English and in French,
/// give each page its rule number (a translation its source's), and none
/// to a page without rules.
#[test]
fn the_rule_books_contents_carry_rule_numbers() {
    for (page, expected) in [
        (
            "print-rules.html",
            [
                "Rules",
                "1 Start of game",
                "2 Use of dice",
                "3 Random number generation",
            ],
        ),
        (
            "print-rules.fr.html",
            [
                "Rules",
                "1 Début de partie",
                "2 Usage des dés",
                "3 Random number generation",
            ],
        ),
    ] {
        let html = std::fs::read_to_string(site().join(page)).unwrap();
        let contents = &html[html.find("class=\"print-contents\"").unwrap()..];
        let contents = &contents[..contents.find("</nav>").unwrap()];
        let entries: Vec<String> = contents
            .split("<li>")
            .skip(1)
            .map(|item| {
                let title = &item[item.find("><span>").unwrap() + 7..];
                let title = &title[..title.find("</span> <span class=\"print-at\"").unwrap()];
                title
                    .replace("<span class=\"print-number\">", "")
                    .replace("</span>", "")
            })
            .collect();
        assert_eq!(entries[..4], expected, "{page}: {entries:?}");
        // The glossary, last, has no number either.
        assert!(
            entries[4..]
                .iter()
                .all(|e| !e.starts_with(char::is_numeric)),
            "{page}: {entries:?}"
        );
    }
}
