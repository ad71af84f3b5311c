//! Site basics every documentation generator has, and reports to mail: the
//! site file (`fairdice.yaml`), sitemap, canonical and edit links, page
//! language, 404 page, favicon, link previews, "last updated", search that
//! finds, and `fairdice report`'s contents.

use crate::common::{fairdice, fixture};
use std::fs;

// Item: a report names its scenario by file name only, and opens with the
// verdict, the fairdice version and the scenario's own YAML.
#[test]
fn a_report_holds_no_local_path_and_states_what_it_reports() {
    let dir = fixture(&[(
        "content/games/dice # <b>.yaml",
        "title: Two d6\nkind: sum-mod\ndice: d6 # one per target\ntargets: [2, 4]\n",
    )]);
    let scenario = dir.path().join("content/games/dice # <b>.yaml");
    let out = dir.path().join("out.html");
    let run = fairdice(
        &[
            "report",
            scenario.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(run.status.success(), "{}", run.stderr_text());
    let html = fs::read_to_string(&out).unwrap();
    let folder = dir.path().to_str().unwrap();
    assert!(!html.contains(folder), "the report names {folder}");
    assert!(
        !html.contains("games/"),
        "the report names the folder games/"
    );
    assert!(!html.contains("/tmp"), "the report names /tmp");
    assert!(html.contains("<code>dice # &lt;b&gt;.yaml</code>"));
    assert!(html.contains("&quot;file&quot;: &quot;dice # &lt;b&gt;.yaml&quot;"));
    assert!(html.contains(&format!("fairdice {}", env!("CARGO_PKG_VERSION"))));
    // The report's verdict is the sentence its page opens with, stated once,
    // above the tables. 2d6 mod 2 is fair; 4d6 mod 4 is not: its bins hold
    // 322, 324, 326 and 324 of the 1296 rolls, 2/1296 = 0.154321 % off 1/4.
    let verdict = "Exactly fair with 2 targets; the others are not, the worst being 4 targets, \
                   where a target&#39;s chance is off its fair share 1/4 by 0.154321\u{a0}points.";
    let shown = format!("<p class=\"verdict\">{verdict}</p>");
    assert_eq!(html.matches(&shown).count(), 1, "{html}");
    assert!(html.contains(
        "<pre><code>title: Two d6\nkind: sum-mod\ndice: d6 # one per target\ntargets: [2, 4]</code></pre>"
    ));
    assert!(html.find(&shown).unwrap() < html.find("<table").unwrap());
    let built = fairdice(&["build", "--quiet"], dir.path());
    assert!(built.status.success(), "{}", built.stderr_text());
    let page = fs::read_to_string(dir.path().join("site/games/dice # <b>.html")).unwrap();
    assert_eq!(page.matches(&shown).count(), 1, "{page}");
}

/// A small site with a home page, a section, a page and a scenario.
fn small_site(site_file: Option<&str>) -> tempfile::TempDir {
    let mut files = vec![
        (
            "content/_index.md",
            "---\ntitle: Home\n---\nSee [the rules](rules/_index.md) and [the dice](rules/dice.yaml).\n",
        ),
        (
            "content/rules/_index.md",
            "---\ntitle: Rules\ndescription: The rules & \"why\".\nupdated: 2026-01-31\n---\nEvery rule.\n",
        ),
        (
            "content/rules/a b.md",
            "---\ntitle: Odd name\n---\nA page with a space in its name, and a long first paragraph.\n",
        ),
        (
            "content/rules/dice.yaml",
            "title: Dice\nkind: sum-mod\ndice: d6\ntargets: [2, 4]\n",
        ),
    ];
    if let Some(text) = site_file {
        files.push(("fairdice.yaml", text));
    }
    let dir = fixture(&files);
    let run = fairdice(&["build", "--quiet"], dir.path());
    assert!(run.status.success(), "{}", run.stderr_text());
    dir
}

fn read(dir: &tempfile::TempDir, path: &str) -> String {
    fs::read_to_string(dir.path().join("site").join(path)).unwrap()
}

const SITE_FILE: &str =
    "title: House <rules>\nbase_url: https://example.org/house\nlanguage: fr-CA\n\
                         repository: https://github.com/me/house\nbranch: stable\n";

// Item: with a base address, a sitemap of every page with its date, and a
// canonical link and preview address on each page.
#[test]
fn a_base_url_gives_a_sitemap_and_canonical_links() {
    let dir = small_site(Some(SITE_FILE));
    assert_eq!(
        read(&dir, "sitemap.xml"),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
         \x20 <url>\n    <loc>https://example.org/house/index.html</loc>\n  </url>\n\
         \x20 <url>\n    <loc>https://example.org/house/rules/a%20b.html</loc>\n  </url>\n\
         \x20 <url>\n    <loc>https://example.org/house/rules/dice.html</loc>\n  </url>\n\
         \x20 <url>\n    <loc>https://example.org/house/rules/index.html</loc>\n    <lastmod>2026-01-31</lastmod>\n  </url>\n\
         </urlset>\n"
    );
    let page = read(&dir, "rules/a b.html");
    assert!(page
        .contains("<link rel=\"canonical\" href=\"https://example.org/house/rules/a%20b.html\">"));
    assert!(page.contains(
        "<meta property=\"og:url\" content=\"https://example.org/house/rules/a%20b.html\">"
    ));
    // Without a site file: no sitemap, no canonical link, no absolute address.
    let plain = small_site(None);
    assert!(!plain.path().join("site/sitemap.xml").exists());
    let page = read(&plain, "rules/a b.html");
    assert!(!page.contains("canonical") && !page.contains("og:url"));
    assert!(!page.contains("https://"), "{page}");
}

// Item: the site file's title, language and repository reach every page:
// `<html lang>`, page titles, link previews, "edit this page".
#[test]
fn the_site_file_sets_title_language_and_edit_links() {
    let dir = small_site(Some(SITE_FILE));
    let page = read(&dir, "rules/index.html");
    assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"fr-CA\" data-root=\"../\" data-words="));
    assert!(page.contains("<title>Rules · House &lt;rules&gt;</title>"));
    assert!(page.contains("<meta property=\"og:site_name\" content=\"House &lt;rules&gt;\">"));
    assert!(page.contains("<meta property=\"og:title\" content=\"Rules\">"));
    assert!(page.contains("<meta property=\"og:type\" content=\"website\">"));
    assert!(page.contains(
        "<meta property=\"og:description\" content=\"The rules &amp; &quot;why&quot;.\">"
    ));
    assert!(
        page.contains("<meta name=\"description\" content=\"The rules &amp; &quot;why&quot;.\">")
    );
    assert!(page.contains(
        "<a href=\"https://github.com/me/house/edit/stable/content/rules/_index.md\">Edit this page</a>"
    ));
    // A scenario's edit link opens its YAML.
    assert!(read(&dir, "rules/dice.html")
        .contains("href=\"https://github.com/me/house/edit/stable/content/rules/dice.yaml\""));
    assert!(read(&dir, "rules/a b.html")
        .contains("href=\"https://github.com/me/house/edit/stable/content/rules/a%20b.md\""));
    // Without one: English, the home page's title, no edit links.
    let plain = small_site(None);
    let page = read(&plain, "rules/index.html");
    assert!(page.contains("<html lang=\"en\""));
    assert!(page.contains("<title>Rules · Home</title>"));
    assert!(!page.contains("Edit this page"));
}

// Item: every page has a description for link previews: its own, else the
// start of its text; a scenario's, else its verdict.
#[test]
fn every_page_describes_itself() {
    let dir = small_site(None);
    assert!(read(&dir, "rules/a b.html").contains(
        "<meta name=\"description\" content=\"A page with a space in its name, and a long first paragraph.\">"
    ));
    let scenario = read(&dir, "rules/dice.html");
    assert!(scenario.contains(
        "<meta property=\"og:description\" content=\"Exactly fair with 2 targets; the others are not, \
         the worst being 4 targets, where a target&#39;s chance is off its fair share 1/4 by 0.154321\u{a0}points.\">"
    ), "{scenario}");
    assert!(
        !scenario.contains("class=\"lead\""),
        "the verdict is no lead paragraph"
    );
}

// Item: "last updated" from the front matter, shown on the page and in the
// sitemap; none outside git without one.
#[test]
fn last_updated_comes_from_front_matter_outside_git() {
    let dir = small_site(None);
    assert!(read(&dir, "rules/index.html").contains(
        "<p class=\"page-meta\">Last updated <time datetime=\"2026-01-31\">2026-01-31</time></p>"
    ));
    assert!(!read(&dir, "rules/a b.html").contains("Last updated"));
    assert!(!read(&dir, "rules/dice.html").contains("Last updated"));
}

// Item: a 404 page and a favicon, on every site; with a base address the
// 404 page resolves its links from the site's folder, at any depth.
#[test]
fn every_site_has_a_404_page_and_a_favicon() {
    let plain = small_site(None);
    let page = read(&plain, "404.html");
    assert!(page.contains("<h1>Page not found</h1>"));
    assert!(page.contains("<a href=\"index.html\">the home page</a>"));
    assert!(!page.contains("<base"));
    let icon = read(&plain, "assets/favicon.svg");
    assert!(
        icon.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && !icon.contains("href")
    );
    assert!(read(&plain, "rules/a b.html")
        .contains("<link rel=\"icon\" href=\"../assets/favicon.svg\" type=\"image/svg+xml\">"));
    let broken = crate::common::broken_links(&plain.path().join("site"));
    assert!(broken.is_empty(), "{broken:?}");

    let dir = small_site(Some(SITE_FILE));
    let page = read(&dir, "404.html");
    assert!(page.contains("<meta charset=\"utf-8\">\n<base href=\"/house/\">"));
    assert!(
        !page.contains("canonical"),
        "a 404 page has no address of its own"
    );
    // A content page cannot take the name.
    let clash = fixture(&[("content/404.md", "# Lost\n")]);
    let run = fairdice(&["build"], clash.path());
    assert_eq!(run.status.code(), Some(1));
    assert!(
        run.stderr_text().contains("404.html"),
        "{}",
        run.stderr_text()
    );
}

// Item: a bad site file fails the build with its line, column and what was
// expected, and leaves the site as it was.
#[test]
fn a_bad_site_file_is_located_and_leaves_the_site_alone() {
    let dir = crate::common::good_site();
    let before = crate::common::snapshot(&dir.path().join("site"));
    for (text, expected) in [
        (
            "title: T\nbase_url: javascript:alert(1)\n",
            "error: fairdice.yaml:2:11: base_url: \"javascript:alert(1)\" is not a web address: expected one starting with https:// or http://",
        ),
        (
            "repository: \"https://github.com/me/x\\\" onclick=\\\"x\"\n",
            "error: fairdice.yaml:1:13: repository: \"https://github.com/me/x\\\" onclick=\\\"x\" holds '\"'",
        ),
        (
            "title: T\nlang: fr\n",
            "error: fairdice.yaml:2:1: unknown field `lang`, expected one of `title`, `base_url`, `language`, `repository`, `branch`, `translations`",
        ),
        (
            "language: french\n",
            "error: fairdice.yaml:1:11: language: \"french\" is not a language tag",
        ),
        (
            "base_url: https://example.org/?page=1\n",
            "error: fairdice.yaml:1:11: base_url: \"https://example.org/?page=1\" has a query or fragment",
        ),
        ("title: [1, 2]\n", "error: fairdice.yaml:1:8: title: invalid type: sequence"),
    ] {
        fs::write(dir.path().join("fairdice.yaml"), text).unwrap();
        let run = fairdice(&["build"], dir.path());
        assert_eq!(run.status.code(), Some(1), "{text}");
        let stderr = run.stderr_text();
        assert!(stderr.starts_with(expected), "{text}\n{stderr}");
        assert_eq!(crate::common::snapshot(&dir.path().join("site")), before);
    }
    // With a bad page too, both errors come at once.
    fs::write(dir.path().join("fairdice.yaml"), "language: french\n").unwrap();
    fs::write(dir.path().join("content/bad.md"), "---\nweight: x\n---\n").unwrap();
    let stderr = fairdice(&["build"], dir.path()).stderr_text();
    assert!(
        stderr.contains("fairdice.yaml:1:11") && stderr.contains("content/bad.md:2"),
        "{stderr}"
    );
}

/// `git ARGS` in `dir`, with a fixed identity and author date.
fn git(dir: &std::path::Path, date: &str, args: &[&str]) -> String {
    let output = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@example.org",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The binary in `dir`, with git's "now" fixed at `now` (the dates must not
/// depend on it).
fn fairdice_at(dir: &std::path::Path, now: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_fairdice"))
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_DATE", now)
        .env("GIT_COMMITTER_DATE", now)
        .output()
        .unwrap()
}

/// `build --check` in a fresh clone of `root` (as CI checks a commit).
fn check_in_a_clone(root: &std::path::Path, now: &str) -> std::process::Output {
    let clone = tempfile::tempdir().unwrap();
    git(
        clone.path(),
        now,
        &["clone", "-q", root.to_str().unwrap(), "c"],
    );
    fairdice_at(&clone.path().join("c"), now, &["build", "--check"])
}

// Item: in a git checkout, "last updated" is the author date of the last
// commit that changed the source without changing the site. It is the same
// for a commit wherever it is built, whatever the day: content committed
// together with its rebuilt site, or the site committed on a later day,
// gives what a fresh clone builds. A shallow clone is refused with the fix.
#[test]
fn last_updated_comes_from_the_last_commit_of_each_source() {
    if std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("NOTICE: git not found, test skipped");
        return;
    }
    let dir = fixture(&[
        ("content/_index.md", "# Home\n\nSee [a](a.md).\n"),
        ("content/a.md", "---\ntitle: A\n---\nFirst.\n"),
        (
            "content/dice.yaml",
            "title: Dice\nkind: sum-mod\ndice: d6\ntargets: [2]\n",
        ),
        (
            "content/fixed.md",
            "---\ntitle: Fixed\nupdated: 2020-02-29\n---\nText.\n",
        ),
    ]);
    let root = dir.path();
    let commit = |date: &str, message: &str| {
        git(root, date, &["add", "-A"]);
        git(root, date, &["commit", "-qm", message]);
    };
    let build = |now: &str| {
        let run = fairdice_at(root, now, &["build", "--quiet"]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    };
    let updated = |page: &str| {
        let html = read_path(root, page);
        html.split("datetime=\"")
            .nth(1)
            .map(|rest| rest[..10].to_string())
    };
    let passes = |now: &str| {
        let check = check_in_a_clone(root, now);
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
    };
    git(
        root,
        "2026-01-10T12:00:00+0000",
        &["init", "-q", "-b", "main"],
    );
    commit("2026-01-10T12:00:00+0000", "first");
    fs::write(root.join("content/a.md"), "---\ntitle: A\n---\nSecond.\n").unwrap();
    commit("2026-03-05T23:30:00-0500", "second");

    // The site is built and committed on later days: nothing changes.
    build("2026-06-01T08:00:00+0000");
    assert_eq!(updated("index.html").as_deref(), Some("2026-01-10"));
    assert_eq!(
        updated("a.html").as_deref(),
        Some("2026-03-05"),
        "the author's own day"
    );
    assert_eq!(updated("dice.html").as_deref(), Some("2026-01-10"));
    assert_eq!(
        updated("fixed.html").as_deref(),
        Some("2020-02-29"),
        "front matter wins"
    );
    commit("2026-06-02T08:00:00+0000", "the site");
    passes("2027-01-01T00:00:00+0000");

    // Changes not yet committed do not move a date; committed together
    // with the rebuilt site, on another day, they still do not: the site
    // could not know that commit's date when it was built.
    fs::write(root.join("content/a.md"), "---\ntitle: A\n---\nThird.\n").unwrap();
    fs::write(root.join("content/new.md"), "# New\n").unwrap();
    build("2026-07-04T10:00:00+0200");
    assert_eq!(updated("a.html").as_deref(), Some("2026-03-05"));
    assert_eq!(
        updated("new.html"),
        None,
        "never committed apart from the site"
    );
    commit("2026-07-05T10:00:00+0200", "third, with the site");
    passes("2026-07-05T10:00:00+0200");
    build("2026-07-06T10:00:00+0200");
    assert_eq!(updated("a.html").as_deref(), Some("2026-03-05"));

    // Content committed on its own dates its pages; until the site is
    // rebuilt, the check reports it stale; committing the rebuilt site on
    // another day leaves the dates as they were built.
    fs::write(root.join("content/a.md"), "---\ntitle: A\n---\nFourth.\n").unwrap();
    commit("2026-08-01T09:00:00+0000", "fourth");
    let stale = check_in_a_clone(root, "2026-08-01T10:00:00+0000");
    assert_eq!(stale.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&stale.stderr);
    assert!(stderr.contains("a.html"), "{stderr}");
    build("2026-08-01T10:00:00+0000");
    assert_eq!(updated("a.html").as_deref(), Some("2026-08-01"));
    assert_eq!(updated("new.html"), None, "its only commit holds the site");
    commit("2026-08-03T09:00:00+0000", "the site, rebuilt");
    passes("2026-09-01T00:00:00+0000");

    // A shallow clone has lost the dates: refused, saying how to fix it.
    let clone = tempfile::tempdir().unwrap();
    let url = format!("file://{}", root.display());
    git(
        clone.path(),
        "2026-09-01T00:00:00+0000",
        &["clone", "-q", "--depth", "1", &url, "s"],
    );
    let run = fairdice_at(
        &clone.path().join("s"),
        "2026-09-01T00:00:00+0000",
        &["build", "--check"],
    );
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("shallow git clone") && stderr.contains("fetch-depth: 0"),
        "{stderr}"
    );
}

fn read_path(root: &std::path::Path, page: &str) -> String {
    fs::read_to_string(root.join("site").join(page)).unwrap()
}

/// Types queries into a fixture site's search box and reports what the
/// results hold, one `name=value` line each.
const SEARCH_HARNESS: &str = r##"<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>search harness</title></head>
<body><pre id="results"></pre><iframe id="frame" width="1200" height="900"></iframe>
<script>
var results = document.getElementById("results");
var frame = document.getElementById("frame");
function report(name, value) { results.textContent += name + "=" + value + "\n"; }
var loads = 0;
frame.onload = function () { setTimeout(function () {
  var win = frame.contentWindow, doc = frame.contentDocument;
  loads += 1;
  if (loads === 2) {
    // The Search button opened the first result, as Enter does.
    report("button_opened", win.location.pathname.split("/").pop() + win.location.hash);
    report("done", "yes");
    return;
  }
  var input = doc.getElementById("search-input");
  function search(name, query) {
    input.value = query;
    input.dispatchEvent(new win.Event("input", { bubbles: true }));
    var items = doc.querySelectorAll("#search-results li");
    report(name + "_hrefs", Array.prototype.map.call(doc.querySelectorAll("#search-results a"), function (a) {
      return a.getAttribute("href");
    }).join(" "));
    report(name + "_marks", Array.prototype.map.call(doc.querySelectorAll("#search-results mark"), function (m) {
      return m.textContent;
    }).join("|"));
    report(name + "_first", items.length ? items[0].textContent : "");
    report(name + "_elements", doc.querySelectorAll("#search-results *:not(li):not(a):not(span):not(mark)").length);
  }
  search("whole", "die");
  search("deck", "52");
  search("rule", "1.2.3");
  search("seven", "7");
  search("markup", "onerror");
  search("two", "cards 52");
  // An empty search: the button leaves the page where it is.
  search("empty", "");
  doc.querySelector("#search-form button").click();
  report("empty_button_stays", win.location.pathname.split("/").pop());
  search("button", "deck");
  doc.querySelector("#search-form button").click();
}, 50); };
frame.src = "index.html";
</script></body></html>
"##;

// Item: search finds numbers, marks the words in context, links to the
// section, ranks whole words above prefixes, and shows page text as text.
#[test]
fn search_finds_numbers_and_links_to_the_section_in_chromium() {
    let Some(chromium) = crate::browser::available() else {
        return;
    };
    let filler = "Other words fill this long page about tables and counters. ".repeat(20);
    let a = format!("---\ntitle: Alpha\n---\n{filler}\n\n## Loser {{#loser}}\n\nA die decides who goes first.\n");
    let dir = fixture(&[
        ("content/_index.md", "# Home\n\nSee [a](a.md), [b](b.md) and [c](c.md).\n"),
        ("content/a.md", &a),
        ("content/b.md", "---\ntitle: Bravo\n---\nDies, dies, dies and dies.\n"),
        (
            "content/c.md",
            "---\ntitle: Charlie\n---\nIntro.\n\n## The deck {#deck}\n\nShuffle all 52 cards, then deal 7 to each player.\n\n\
             ## Rule 1.2.3 {#rule-1.2.3}\n\nThe third rule. Quoted: `<img src=x onerror=alert(1)>`.\n",
        ),
    ]);
    let run = fairdice(&["build", "--quiet"], dir.path());
    assert!(run.status.success(), "{}", run.stderr_text());
    let site = dir.path().join("site");
    let (dump, log) = crate::browser::run_harness(&chromium, &site, SEARCH_HARNESS);
    let result = |name: &str| crate::browser::result(&dump, name).to_string();
    assert_eq!(result("done"), "yes", "{log}");
    // "die" is a whole word in Alpha, only the start of "dies" in Bravo,
    // which says it four times in a short page.
    // The playground's syntax guide speaks of dice too, often enough
    // (each die held, dropped, exploded, the families' forms) to rank first.
    assert_eq!(result("whole_hrefs"), "playground.html a.html#loser b.html");
    assert_eq!(result("whole_marks"), "die|die|Dies|dies|dies|dies");
    assert!(
        result("whole_first").starts_with("Playground"),
        "{}",
        result("whole_first")
    );
    assert_eq!(result("deck_hrefs"), "c.html#deck");
    assert_eq!(result("deck_marks"), "52");
    assert_eq!(result("rule_hrefs"), "c.html#rule-1.2.3");
    assert_eq!(result("rule_marks"), "1.2.3");
    // The playground's examples hold a 7 too (`2d6 >= 7`).
    assert_eq!(result("seven_hrefs"), "c.html#deck playground.html");
    assert_eq!(result("seven_marks"), "7|7");
    assert_eq!(result("two_hrefs"), "c.html#deck");
    assert_eq!(result("two_marks"), "52|cards");
    // Page text reaches the results as text: no element is made from it.
    assert_eq!(result("markup_hrefs"), "c.html#rule-1.2.3");
    // (The harness's report is itself text, so the dump escapes it.)
    assert!(result("markup_first").contains("&lt;img src=x onerror=alert(1)&gt;"));
    // The visible Search button (html-validate's wcag/h32) submits the
    // form: it opens the first result, and with no query it stays put.
    assert_eq!(result("empty_hrefs"), "");
    assert_eq!(result("empty_button_stays"), "index.html");
    assert_eq!(result("button_hrefs"), "c.html#deck");
    assert_eq!(result("button_opened"), "c.html#deck");
    for name in ["whole", "deck", "rule", "seven", "markup", "two"] {
        assert_eq!(result(&format!("{name}_elements")), "0", "{name}");
    }
}
