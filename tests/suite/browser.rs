//! The built site in a real browser: Debian's headless Chromium opens the
//! pages over `file://` and runs their scripts.
//!
//! Chromium is driven through its command line only (no driver crate): each
//! page is loaded with `--dump-dom` while console output is logged to stderr,
//! and a small harness page, written beside the site, loads pages in an
//! iframe, uses them as a reader would (typing a search, clicking the theme
//! button, pressing "/") and writes what it saw into its own DOM, which the
//! dump returns. Screenshots for a person to look at are written to
//! `target/browser/screenshots/`. Skipped, with a notice, without Chromium.

use std::path::{Path, PathBuf};
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";

fn chromium(args: &[&str], profile: &Path) -> (String, String) {
    let output = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .expect("chromium runs");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The project's own committed site (CI checks that it is current), copied
/// so the test never writes beside it.
fn built_site(work: &Path) -> PathBuf {
    let site = Path::new(env!("CARGO_MANIFEST_DIR")).join("site");
    assert!(
        site.join("index.html").is_file(),
        "build the site first: cargo run --release -- build"
    );
    let copy = work.join("site");
    crate::common::copy_dir(&site, &copy);
    copy
}

/// Uses the pages in an iframe and reports each check as `name=value` lines.
const HARNESS: &str = r##"<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>harness</title></head>
<body><pre id="results"></pre><iframe id="frame" width="1200" height="900"></iframe>
<script>
var results = document.getElementById("results");
var frame = document.getElementById("frame");
function report(name, value) { results.textContent += name + "=" + value + "\n"; }
function visit(path, then) {
  frame.onload = function () { setTimeout(function () { then(frame.contentWindow, frame.contentDocument); }, 50); };
  frame.src = path;
}
function hrefs(doc) {
  return Array.prototype.map.call(doc.querySelectorAll("#search-results a"), function (a) {
    return a.getAttribute("href");
  }).join(" ");
}
visit("guide/reading-numbers.html", function (win, doc) {
  var math = doc.querySelectorAll("math");
  report("math_count", math.length);
  report("math_namespace", math.length && math[0].namespaceURI);
  var fraction = doc.querySelector("math[display=block] mfrac");
  var box = fraction && fraction.getBoundingClientRect();
  var line = parseFloat(win.getComputedStyle(doc.body).lineHeight);
  report("fraction_taller_than_text", !!box && box.height > 0.9 * (line || 16) && box.width > 0);
  report("merror", doc.querySelectorAll("merror").length);
  var input = doc.getElementById("search-input");
  doc.dispatchEvent(new win.KeyboardEvent("keydown", { key: "/", bubbles: true }));
  report("slash_focuses_search", doc.activeElement === input);
  input.value = "variation distance";
  input.dispatchEvent(new win.Event("input", { bubbles: true }));
  report("typed_search", hrefs(doc));
  var root = doc.documentElement;
  var button = doc.getElementById("theme-toggle");
  var before = win.getComputedStyle(doc.body).backgroundColor;
  var themeBefore = root.getAttribute("data-theme");
  button.click();
  report("theme_after_click", root.getAttribute("data-theme"));
  report("background_changed", win.getComputedStyle(doc.body).backgroundColor !== before);
  report("theme_before_click", themeBefore);
  visit("index.html?q=reading+numbers", function (win2, doc2) {
    report("theme_remembered", doc2.documentElement.getAttribute("data-theme"));
    report("query_search", hrefs(doc2));
    doc2.getElementById("theme-toggle").click();
    report("theme_after_second_click", doc2.documentElement.getAttribute("data-theme"));
    // The playground is searched but not printed: it computes in the page.
    var pages = win2.FAIRDICE_SEARCH.pages.map(function (p) { return p[1]; })
      .filter(function (p) { return p !== "playground.html"; });
    visit("print.html", function (win3, doc3) {
      var sections = Array.prototype.map.call(doc3.querySelectorAll("section.print-page"), function (s) {
        return s.querySelector(".print-source").textContent;
      });
      report("print_sections", sections.join(" "));
      report("indexed_pages", pages.slice().sort().join(" "));
      var dangling = Array.prototype.filter.call(doc3.querySelectorAll("a[href^='#']"), function (a) {
        return !doc3.getElementById(a.getAttribute("href").slice(1));
      });
      report("print_dangling_anchors", dangling.length);
      visit("index.html?q=advantage", function (win4, doc4) {
        report("advantage_search", hrefs(doc4));
        report("done", "yes");
      });
    });
  });
});
</script></body></html>
"##;

pub(crate) fn result<'a>(dump: &'a str, name: &str) -> &'a str {
    let key = format!("{name}=");
    let start = dump.find("<pre id=\"results\">").map_or(0, |i| i + 18);
    let end = dump.find("</pre>").unwrap_or(dump.len());
    dump[start..end]
        .lines()
        .find_map(|line| line.strip_prefix(&key))
        .unwrap_or_else(|| panic!("the harness did not report {name}:\n{dump}"))
}

/// A profile folder for Chromium when it is installed; `None` (with a
/// notice) when it is not, which fails under `CI=true`: in CI a missing
/// browser is a failure, never a silent pass.
pub(crate) fn available() -> Option<tempfile::TempDir> {
    if !Path::new(CHROMIUM).exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{CHROMIUM} not found and CI=true: .ci/run installs it (apt-get install chromium)"
        );
        eprintln!("NOTICE: {CHROMIUM} not found, browser test skipped (apt-get install chromium)");
        return None;
    }
    Some(tempfile::tempdir().unwrap())
}

/// Run `harness`, written into `site` for the time of the run, and return
/// its DOM once its scripts are done.
pub(crate) fn run_harness(
    profile: &tempfile::TempDir,
    site: &Path,
    harness: &str,
) -> (String, String) {
    let path = site.join("browser-harness.html");
    std::fs::write(&path, harness).unwrap();
    let output = chromium(
        &[
            "--allow-file-access-from-files",
            "--virtual-time-budget=20000",
            "--dump-dom",
            &url(&path),
        ],
        profile.path(),
    );
    std::fs::remove_file(&path).unwrap();
    output
}

#[test]
fn the_site_works_in_headless_chromium() {
    let Some(profile) = available() else {
        return;
    };
    let work = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let site = built_site(&work);

    // Pages load without console messages (errors, failed loads, warnings).
    for page in [
        "index.html",
        "guide/reading-numbers.html",
        "targets/method.html",
        "targets/sweep.html",
        "print.html",
    ] {
        let (dom, log) = chromium(&["--dump-dom", &url(&site.join(page))], profile.path());
        assert!(dom.contains("</html>"), "{page} did not load");
        let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
        assert!(console.is_empty(), "{page}: console output {console:#?}");
    }

    // Reading as a reader does, through the harness.
    let (dump, log) = run_harness(&profile, &site, HARNESS);
    assert_eq!(result(&dump, "done"), "yes", "{log}");

    assert!(result(&dump, "math_count").parse::<usize>().unwrap() >= 5);
    assert_eq!(
        result(&dump, "math_namespace"),
        "http://www.w3.org/1998/Math/MathML"
    );
    assert_eq!(
        result(&dump, "fraction_taller_than_text"),
        "true",
        "MathML laid out"
    );
    assert_eq!(result(&dump, "merror"), "0");

    assert_eq!(result(&dump, "slash_focuses_search"), "true");
    let typed = result(&dump, "typed_search");
    assert!(
        typed.contains("reading-numbers.html"),
        "typed search found {typed:?}"
    );
    let query = result(&dump, "query_search");
    assert!(
        query.starts_with("guide/reading-numbers.html"),
        "?q= searches on load, the page titled with the words first: {query:?}"
    );

    // Issue 41, item 7c: the page titled with the word comes first, before
    // a section of another page that uses it more.
    let advantage = result(&dump, "advantage_search");
    assert!(
        advantage.starts_with("dice/advantage.html"),
        "\"advantage\" found {advantage:?}"
    );

    // The theme flips, changes the colours, is remembered and flips back.
    let first = result(&dump, "theme_after_click");
    assert!(first == "dark" || first == "light", "{first}");
    assert_eq!(result(&dump, "background_changed"), "true");
    assert_eq!(result(&dump, "theme_remembered"), first);
    let second = result(&dump, "theme_after_second_click");
    assert!(second != first && (second == "dark" || second == "light"));

    // The print page holds every page of the site, and its anchors resolve.
    let mut printed: Vec<&str> = result(&dump, "print_sections").split(' ').collect();
    printed.sort();
    let indexed: Vec<&str> = result(&dump, "indexed_pages").split(' ').collect();
    assert_eq!(printed, indexed);
    assert!(printed.len() >= 5, "{printed:?}");
    assert_eq!(result(&dump, "print_dangling_anchors"), "0");

    // Screenshots for a person to look at.
    let shots = work.join("screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    for (page, name, size) in [
        ("index.html", "home.png", "1300,1400"),
        ("targets/sweep.html", "scenario.png", "1300,2400"),
        ("print.html", "print.png", "1300,2400"),
        ("targets/method.html", "phone.png", "390,1600"),
    ] {
        let out = shots.join(name);
        chromium(
            &[
                &format!("--window-size={size}"),
                &format!("--screenshot={}", out.display()),
                &url(&site.join(page)),
            ],
            profile.path(),
        );
        assert!(out.is_file(), "no screenshot {}", out.display());
    }
    eprintln!("screenshots in {}", shots.display());
}
