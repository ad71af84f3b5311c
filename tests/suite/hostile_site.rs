//! What a hostile contributor can do with file names and files: take a name
//! the build makes, publish active content, turn a name into a script link,
//! point an image at the reader's files, or link folders out of the project.
//! Each must fail the build with the file and a clear message, and leave
//! the site exactly as it was; odd but harmless names must still give links
//! that resolve.

use crate::common::{fixture, good_site, snapshot, write};
use fairdice::build::{self, Project};
use std::collections::BTreeSet;
use std::path::Path;

/// Add `files` to a good site and build: the error (which must come), with
/// the site checked to be as it was.
fn refused(name: &str, files: &[(&str, &[u8])]) -> String {
    let dir = good_site();
    let before = snapshot(&dir.path().join("site"));
    for (path, bytes) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, bytes).unwrap();
    }
    let err = match build::build(&Project::at(dir.path())) {
        Ok(_) => panic!("{name}: built without error"),
        Err(err) => err.to_string(),
    };
    assert_eq!(
        snapshot(&dir.path().join("site")),
        before,
        "{name}: the site changed"
    );
    err
}

/// A bad input: its name, the files added, and where and what the error
/// says (one line of the error starts with the place and holds the text).
type Case<'a> = (&'a str, Vec<(&'a str, &'a [u8])>, &'a str, &'a str);

fn expect_all(cases: &[Case]) {
    let mut failures = Vec::new();
    for (name, files, location, message) in cases {
        let err = refused(name, files);
        let hit = err
            .lines()
            .any(|line| line.starts_with(location) && line.contains(message));
        if !hit {
            failures.push(format!(
                "{name}: expected {location:?} ... {message:?}, got {err:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const PAGE: &[u8] = b"---\ntitle: Clash\n---\nText.\n";
const SCENARIO: &[u8] = b"title: Clash\nkind: sum-mod\ndice: d6\ntargets: 2\n";

#[test]
fn no_content_file_takes_a_name_the_build_makes() {
    let own = "a name the build keeps for itself";
    expect_all(&[
        (
            "page over the print page",
            vec![("content/print.md", PAGE)],
            "content/print.md:1:1: ",
            "writes the same page print.html as the print page, a name the build keeps",
        ),
        (
            "scenario over the print page",
            vec![("content/print.yml", SCENARIO)],
            "content/print.yml:1:1: ",
            own,
        ),
        (
            "forged exact results",
            vec![("content/good.json", b"{\"forged\": true}\n")],
            "content/good.json:1:1: ",
            "writes the same file good.json as content/good.yaml",
        ),
        (
            "forged table",
            vec![("content/good.bins-2.csv", b"total,p\n2,1/2\n")],
            "content/good.bins-2.csv:1:1: ",
            "as content/good.yaml",
        ),
        (
            "asset over a template asset",
            vec![("content/assets/style.css", b"body{}\n")],
            "content/assets/style.css:1:1: ",
            "writes the same file assets/style.css as the template assets",
        ),
        (
            "asset under assets/",
            vec![("content/assets/extra.css", b"body{}\n")],
            "content/assets/extra.css:1:1: ",
            "assets/ in the site holds the template assets",
        ),
        (
            "page under assets/",
            vec![("content/assets/notes.md", PAGE)],
            "content/assets/notes.md:1:1: ",
            own,
        ),
        (
            "two section indexes",
            vec![("content/index.md", PAGE)],
            "content/index.md:1:1: ",
            "writes the same page index.html as content/_index.md",
        ),
        (
            "yaml and yml",
            vec![("content/good.yml", SCENARIO)],
            "content/good.yml:1:1: ",
            "as content/good.yaml",
        ),
        (
            "names that differ in case",
            vec![("content/Good.md", PAGE)],
            "content/good.yaml:1:1: ",
            "differ only in case",
        ),
        (
            "a folder named like a page",
            vec![("content/good.html/inner.md", PAGE)],
            "content/good.yaml:1:1: ",
            "writes the file good.html, but content/good.html/inner.md needs a folder",
        ),
        (
            "a folder named like a data file",
            vec![("content/good.json/x.csv", b"a\n")],
            "content/good.json/x.csv:1:1: ",
            "inside a folder good.json, but content/good.yaml writes a file",
        ),
    ]);
}

#[test]
fn active_content_is_refused() {
    let how = "files the site owner trusts go in templates/assets/";
    expect_all(&[
        (
            "an html page",
            vec![("content/index.html", b"<p>x</p>\n")],
            "content/index.html:1:1: ",
            ".html files are not published from content/",
        ),
        (
            "the search index replaced",
            vec![("content/search-index.js", b"alert(1)\n")],
            "content/search-index.js:1:1: ",
            ".js files are not published",
        ),
        (
            "an htm page in a folder",
            vec![("content/deep/er/a.HTM", b"x")],
            "content/deep/er/a.HTM:1:1: ",
            ".htm files are not published",
        ),
        (
            "a module script",
            vec![("content/x.mjs", b"export {}\n")],
            "content/x.mjs:1:1: ",
            how,
        ),
        (
            "svg with a script",
            vec![("content/img/logo.Svg", b"<svg onload=alert(1)/>")],
            "content/img/logo.Svg:1:1: ",
            ".svg files are not published",
        ),
        (
            "xhtml",
            vec![("content/p.xhtml", b"x")],
            "content/p.xhtml:1:1: ",
            "a page that can run script",
        ),
        (
            "xml with a stylesheet",
            vec![("content/feed.xml", b"x")],
            "content/feed.xml:1:1: ",
            ".xml files",
        ),
        (
            "a trailing dot",
            vec![("content/trick.html.", b"x")],
            "content/trick.html.:1:1: ",
            ".html files",
        ),
        (
            "markup in a text file",
            vec![("content/notes.txt", b"\n  <script>alert(1)</script>\n")],
            "content/notes.txt:1:1: ",
            "starts with markup",
        ),
        (
            "markup with no extension",
            vec![("content/README", b"\xEF\xBB\xBF<!doctype html><b>x</b>")],
            "content/README:1:1: ",
            "browser may take it for a web page",
        ),
    ]);
}

#[test]
fn the_reference_lists_every_refused_type() {
    let reference =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference.md"))
            .unwrap();
    for extension in fairdice::content::ACTIVE_EXTENSIONS {
        assert!(
            reference.contains(&format!("`.{extension}`")),
            "docs/reference.md does not list .{extension}"
        );
    }
}

#[test]
fn passive_files_are_published_and_can_be_linked() {
    let png: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    let dir = fixture(&[
        (
            "content/_index.md",
            "# Home\n\nThe [data](data.csv), the [notes](docs/notes.txt) and ![a chart](img/chart.png).\n",
        ),
        ("content/data.csv", "a,b\n1,2\n"),
        ("content/docs/notes.txt", "Plain notes.\n"),
    ]);
    write(dir.path(), "content/img/chart.png", "");
    std::fs::write(dir.path().join("content/img/chart.png"), png).unwrap();
    build::build(&Project::at(dir.path())).unwrap();
    let site = dir.path().join("site");
    assert_eq!(std::fs::read(site.join("img/chart.png")).unwrap(), png);
    assert!(site.join("data.csv").is_file() && site.join("docs/notes.txt").is_file());
    assert_eq!(unresolved_links(&site), Vec::<String>::new());
}

#[test]
fn images_and_links_must_stay_inside_the_site() {
    let page = |body: &str| format!("---\ntitle: Bad\n---\n\n{body}\n").into_bytes();
    let cases: Vec<(&str, Vec<u8>, &str, &str)> = vec![
        (
            "an image climbing out",
            page("![x](../../../../etc/hostname)"),
            "content/bad.md:5:1: ",
            "broken image \"../../../../etc/hostname\": points outside the site",
        ),
        (
            "encoded dots",
            page("Text\n\n![x](%2e%2E/%2e%2e/etc/hostname)"),
            "content/bad.md:7:1: ",
            "points outside the site",
        ),
        (
            "backslashes",
            page("![x](..\\\\..\\\\..\\\\etc\\\\hostname)"),
            "content/bad.md:",
            "broken image \"..%5C..%5C..%5Cetc%5Chostname\"",
        ),
        (
            "a missing image",
            page("# T\n\n![x](pictures/none.png)"),
            "content/bad.md:7:1: ",
            "broken image \"pictures/none.png\": no file pictures/none.png in the site",
        ),
        (
            "an image of a folder",
            page("![x](pictures/)"),
            "content/bad.md:5:1: ",
            "no file pictures/ in the site",
        ),
        (
            "an encoded slash",
            page("![x](good%2Ehtml%2F..%2F..%2Fx)"),
            "content/bad.md:5:1: ",
            "no file",
        ),
        (
            "a link to a missing csv",
            page("[data](good.nothing.csv)"),
            "content/bad.md:5:1: ",
            "broken link \"good.nothing.csv\"",
        ),
        (
            "a link to a table anchor",
            page("[t](good.yaml#table-nope)"),
            "content/bad.md:5:1: ",
            "good.html has no heading #table-nope",
        ),
    ];
    let cases: Vec<Case> = cases
        .iter()
        .map(|(name, text, location, message)| {
            (
                *name,
                vec![("content/bad.md", text.as_slice())],
                *location,
                *message,
            )
        })
        .collect();
    expect_all(&cases);
}

#[test]
fn a_page_can_link_to_any_id_on_a_page() {
    let dir = fixture(&[
        ("content/_index.md", "# Home\n\n{{ table(scenario=\"s\", id=\"fairness\") }}\n\nSee [the table](#table-fairness) and [its page](s.yaml#table-fairness).\n"),
        ("content/s.yaml", "title: S\nkind: sum-mod\ndice: d6\ntargets: [2, 3]\n"),
    ]);
    build::build(&Project::at(dir.path())).unwrap();
    assert_eq!(
        unresolved_links(&dir.path().join("site")),
        Vec::<String>::new()
    );
}

/// Names a browser would read as something else unless encoded.
const ODD: &[&str] = &[
    "javascript:alert(1)",
    "sp ace",
    "ha#sh",
    "que?ry",
    "per%25cent",
    "100%",
    "co:lon",
    "été ünï",
    "quo\"te'<b>",
    "amp&amp;",
];

#[test]
fn odd_names_give_links_that_resolve_to_their_files() {
    let mut files = vec![(
        "content/_index.md".to_string(),
        "---\ntitle: Home\n---\nHome.\n".to_string(),
    )];
    for (i, name) in ODD.iter().enumerate() {
        files.push((
            format!("content/{name}.md"),
            format!("---\ntitle: Page {i}\nweight: {i}\n---\nText {i}.\n"),
        ));
        files.push((
            format!("content/odd {i}/{name}.yaml"),
            format!("title: Scenario {i}\nkind: sum-mod\ndice: d6\ntargets: [2, 3]\n"),
        ));
    }
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let dir = fixture(&borrowed);
    build::build(&Project::at(dir.path())).unwrap();
    let site = dir.path().join("site");
    assert_eq!(unresolved_links(&site), Vec::<String>::new());

    // Every page is reached from the sidebar of the home page, and from
    // the search index.
    let home = std::fs::read_to_string(site.join("index.html")).unwrap();
    let index = std::fs::read_to_string(site.join("search-index.js")).unwrap();
    let json = index
        .strip_prefix("window.FAIRDICE_SEARCH=")
        .and_then(|j| j.strip_suffix(";\n"))
        .unwrap();
    let index: serde_json::Value = serde_json::from_str(json).unwrap();
    let from_search: BTreeSet<String> = index["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let href = p[1].as_str().unwrap();
            assert!(!has_scheme(href), "search href {href}");
            decode(href)
        })
        .collect();
    let linked: BTreeSet<String> = attribute_values(&home)
        .into_iter()
        .filter(|(_, v)| !v.starts_with('#'))
        .map(|(_, v)| decode(&v))
        .collect();
    for name in ODD {
        let page = format!("{name}.html");
        assert!(site.join(&page).is_file(), "{page}");
        assert!(
            linked.contains(&page),
            "no sidebar link to {page}: {linked:?}"
        );
        assert!(from_search.contains(&page), "no search entry for {page}");
    }
    // The scenario pages' JSON and CSV links, and the print page's links,
    // are covered by `unresolved_links` over every page.
    let scenario = std::fs::read_to_string(site.join("odd 0/javascript:alert(1).html")).unwrap();
    assert!(
        scenario.contains("href=\"javascript%3Aalert%281%29.json\""),
        "{scenario}"
    );
    assert!(!home.contains("href=\"javascript:"), "{home}");
}

#[test]
fn folders_linked_out_of_the_project_are_refused() {
    // templates/ itself a link to a folder outside the project.
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "assets/secret.txt", "private\n");
    write(outside.path(), "page.html", "{{ content | safe }}");
    let dir = good_site();
    let before = snapshot(&dir.path().join("site"));
    std::fs::rename(dir.path().join("templates"), dir.path().join("kept")).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("templates")).unwrap();
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("templates/: a link to "), "{err}");
    assert!(err.contains("outside the project"), "{err}");
    assert_eq!(snapshot(&dir.path().join("site")), before);

    // A link to a folder inside the project is followed.
    std::fs::remove_file(dir.path().join("templates")).unwrap();
    std::os::unix::fs::symlink("kept", dir.path().join("templates")).unwrap();
    build::build(&Project::at(dir.path())).unwrap();

    // An entry inside templates/ linking out.
    std::os::unix::fs::symlink(
        outside.path().join("assets/secret.txt"),
        dir.path().join("kept/assets/secret.txt"),
    )
    .unwrap();
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("templates/assets/secret.txt:1:1: a link to ")
            && err.contains("outside the templates folder"),
        "{err}"
    );
    assert!(!dir.path().join("site/assets/secret.txt").exists());

    // content/ itself linked out of the project.
    let dir = good_site();
    let elsewhere = tempfile::tempdir().unwrap();
    crate::common::copy_dir(&dir.path().join("content"), elsewhere.path());
    std::fs::remove_dir_all(dir.path().join("content")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), dir.path().join("content")).unwrap();
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("content/: a link to ") && err.contains("outside the project"),
        "{err}"
    );
}

#[test]
fn a_dangling_link_is_told_apart_from_a_missing_file() {
    let dir = good_site();
    std::os::unix::fs::symlink("nowhere/gone.md", dir.path().join("content/alias.md")).unwrap();
    let err = refused_in(&dir);
    assert!(
        err.starts_with("content/alias.md:1:1: a link to nowhere/gone.md, which does not exist"),
        "{err}"
    );
    std::fs::remove_file(dir.path().join("content/alias.md")).unwrap();
    std::fs::remove_dir_all(dir.path().join("templates")).unwrap();
    std::os::unix::fs::symlink("gone", dir.path().join("templates")).unwrap();
    let err = refused_in(&dir);
    assert!(
        err.starts_with("templates/: a link to gone, which does not exist"),
        "{err}"
    );
}

fn refused_in(dir: &tempfile::TempDir) -> String {
    let before = snapshot(&dir.path().join("site"));
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert_eq!(snapshot(&dir.path().join("site")), before);
    err
}

#[test]
fn a_byte_order_mark_is_not_part_of_the_text() {
    let dir = fixture(&[
        ("content/_index.md", "\u{feff}---\ntitle: Marked home\n---\nText.\n"),
        ("content/plain.md", "\u{feff}# Plain page\n"),
        (
            "content/s.yaml",
            "\u{feff}title: Marked\nkind: sum-mod\ndice: d6\ntargets: 5\nexpect:\n  uniform: true\n",
        ),
    ]);
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    // The gate is located on its own line: the mark did not shift the text.
    assert!(err.starts_with("content/s.yaml:6:"), "{err}");
    write(
        dir.path(),
        "content/s.yaml",
        "\u{feff}title: Marked\nkind: sum-mod\ndice: d6\ntargets: 2\n",
    );
    build::build(&Project::at(dir.path())).unwrap();
    let site = dir.path().join("site");
    let home = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(home.contains("<title>Marked home</title>"), "{home}");
    let plain = std::fs::read_to_string(site.join("plain.html")).unwrap();
    assert!(plain.contains("<h1 id=\"plain-page\">"), "{plain}");
    assert!(std::fs::read_to_string(site.join("s.html"))
        .unwrap()
        .contains("Marked"));
    // eval reads scenario files the same way.
    let run = crate::common::fairdice(&["eval", "content/s.yaml", "--json"], dir.path());
    assert!(run.status.success(), "{}", run.stderr_text());
}

/// Every relative `href` and `src` of every HTML file, and every page link
/// of the search index, that does not name a file of the site (decoded as
/// a browser decodes it), or an id on it.
fn unresolved_links(site: &Path) -> Vec<String> {
    let files: BTreeSet<String> = snapshot(site)
        .into_iter()
        .map(|(p, _)| p.to_string_lossy().replace('\\', "/"))
        .collect();
    let mut broken = Vec::new();
    for page in files.iter().filter(|f| f.ends_with(".html")) {
        let html = std::fs::read_to_string(site.join(page)).unwrap();
        for (_, value) in attribute_values(&html) {
            if value.starts_with("http://")
                || value.starts_with("https://")
                || value.starts_with("mailto:")
            {
                continue;
            }
            if has_scheme(&value) {
                broken.push(format!("{page}: {value} has a scheme"));
                continue;
            }
            let (path, fragment) = value
                .split_once('#')
                .map_or((value.as_str(), None), |(p, f)| (p, Some(f)));
            let target = if path.is_empty() {
                Some(page.clone())
            } else {
                join(page, &decode(path))
            };
            let Some(target) = target.filter(|t| files.contains(t)) else {
                broken.push(format!("{page}: {value}"));
                continue;
            };
            if let Some(fragment) = fragment.filter(|f| !f.is_empty()) {
                let text = std::fs::read_to_string(site.join(&target)).unwrap();
                if !text.contains(&format!("id=\"{}\"", decode(fragment))) {
                    broken.push(format!("{page}: {value} (no such id)"));
                }
            }
        }
    }
    broken
}

/// `(name, value)` of each `href="..."` and `src="..."`, entities decoded.
fn attribute_values(html: &str) -> Vec<(&'static str, String)> {
    let mut found = Vec::new();
    for name in [" href=\"", " src=\""] {
        for (i, _) in html.match_indices(name) {
            let start = i + name.len();
            let end = start + html[start..].find('"').unwrap();
            let value = html[start..end]
                .replace("&quot;", "\"")
                .replace("&#x27;", "'")
                .replace("&#39;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
            found.push((name, value));
        }
    }
    found
}

fn has_scheme(link: &str) -> bool {
    link.split_once(':').is_some_and(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// `page`'s folder joined with a relative path; `None` above the root.
fn join(page: &str, path: &str) -> Option<String> {
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for part in path.split('/') {
        match part {
            "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
            out.push(u8::from_str_radix(hex, 16).expect("valid percent escape"));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("UTF-8 after decoding")
}

/// A glossary term's mark comes from `rulebook/term.html`; an override
/// that leaves out the page's own words, or shows them twice, is refused
/// naming the template and what it must hold, and the site is untouched.
#[test]
fn a_term_template_without_its_words_is_refused() {
    let glossary: &[u8] = b"- term: die\n  definition: A cube.\n";
    for (name, template) in [
        ("no words", &b"<b>{{ definition }}</b>"[..]),
        ("twice", b"{{ words }}{{ words }}"),
        ("broken", b"{{ words"),
    ] {
        let err = refused(
            name,
            &[
                ("content/_glossary.yaml", glossary),
                ("templates/rulebook/term.html", template),
            ],
        );
        assert!(err.contains("rulebook/term.html"), "{name}: {err}");
        if name != "broken" {
            assert!(
                err.starts_with("templates/rulebook/term.html"),
                "{name}: {err}"
            );
            assert!(err.contains("{{ words }} once"), "{name}: {err}");
        }
    }
}

/// A copy of the browser's engine other than this program's own (one an
/// older `init` copied) is refused with the fix; the program's own bytes
/// (as the repository's templates hold) are no override at all.
#[test]
fn an_older_copy_of_the_engine_is_refused() {
    let err = refused(
        "old engine",
        &[(
            "templates/assets/engine.js",
            b"self.FAIRDICE_ENGINE = \"AGFzbQ\";\n",
        )],
    );
    assert!(err.starts_with("templates/assets/engine.js"), "{err}");
    assert!(
        err.contains("differs from this fairdice's browser engine"),
        "{err}"
    );
    assert!(err.contains("remove the file"), "{err}");
}

/// The templates whose work fairdice now does itself (a scenario's blocks
/// and tables, so the browser's calculators show what the build wrote), or
/// another template does (a rule's marks, now in its whole opening), are
/// refused by name with the fix, never silently ignored.
#[test]
fn retired_templates_are_refused_with_the_fix() {
    for (name, fix) in [
        ("blocks.html", "remove the file"),
        ("table.html", "remove the file"),
        ("rulebook/marks.html", "templates/rulebook/rule.html"),
    ] {
        let path = format!("templates/{name}");
        let err = refused(name, &[(path.as_str(), b"<p>{{ table.caption }}</p>")]);
        assert!(err.starts_with(&format!("templates/{name}")), "{err}");
        assert!(err.contains("no longer reads"), "{err}");
        assert!(err.contains(fix), "{err}");
    }
}

/// Its siblings: a changed copy of one of today's engines, and a module
/// of a name the program has no engine for, are refused the same way.
#[test]
fn a_changed_or_unknown_engine_is_refused() {
    for name in ["engine-dice.js", "engine-extra.js"] {
        let path = format!("templates/assets/{name}");
        let err = refused(name, &[(path.as_str(), b"self.FAIRDICE_ENGINES = {};\n")]);
        assert!(err.starts_with(&path), "{err}");
        assert!(err.contains("remove the file"), "{err}");
    }
}
