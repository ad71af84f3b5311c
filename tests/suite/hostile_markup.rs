//! Markup from a hostile page: formulas and heading ids that try to put
//! script on the page, inputs that cost quadratic time, `{{` in math and
//! private-use characters that used to collide with the shortcode marks.
//! The pages are checked by tokenizing the built HTML as a browser does,
//! not by looking for one payload.

use crate::common::{fixture, snapshot};
use fairdice::build::{self, Project};
use std::time::{Duration, Instant};

const SCENARIO: &str = "title: Good\nkind: sum-mod\ndice: d6\ntargets: [2, 5]\n";
const VALUE: &str = "{{ value(scenario=\"good\", path=\"cases.1.fairness.tvd\") }}";

fn page(body: &str) -> String {
    format!("---\ntitle: Hostile\n---\n{body}")
}

/// A site with the scenario `good` and the page `content/page.md`, built.
fn built(body: &str) -> (tempfile::TempDir, String) {
    let dir = fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nHome.\n"),
        ("content/good.yaml", SCENARIO),
        ("content/page.md", &page(body)),
    ]);
    if let Err(err) = build::build(&Project::at(dir.path())) {
        panic!("the page does not build: {err}");
    }
    let html = std::fs::read_to_string(dir.path().join("site/page.html")).unwrap();
    (dir, html)
}

/// Build a good site, add `content/bad.md`, and return the error of the
/// rebuild after checking that the site was left as it was.
fn refused(body: &str) -> String {
    let dir = fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nHome.\n"),
        ("content/good.yaml", SCENARIO),
    ]);
    build::build(&Project::at(dir.path())).unwrap();
    let before = snapshot(&dir.path().join("site"));
    std::fs::write(dir.path().join("content/bad.md"), page(body)).unwrap();
    let err = match build::build(&Project::at(dir.path())) {
        Ok(_) => panic!("built without error: {body:.200}"),
        Err(err) => err.to_string(),
    };
    assert_eq!(
        snapshot(&dir.path().join("site")),
        before,
        "the site changed: {body:.200}"
    );
    err.lines().next().unwrap_or_default().to_string()
}

// ---------------------------------------------------------------------------
// An HTML tokenizer: enough of the HTML standard's to see what a browser
// would make of the page (tags and attributes, text with character
// references, comments, raw text in script and style).

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Start {
        name: String,
        attributes: Vec<(String, String)>,
    },
    End(String),
    Text(String),
}

fn tokenize(html: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut text = String::new();
    let mut rest = html;
    let flush = |text: &mut String, tokens: &mut Vec<Token>| {
        if !text.is_empty() {
            tokens.push(Token::Text(std::mem::take(text)));
        }
    };
    while let Some(c) = rest.chars().next() {
        let after_lt = rest.strip_prefix('<');
        let tag_start = |r: &str| r.starts_with(|c: char| c.is_ascii_alphabetic());
        if let Some(comment) = rest.strip_prefix("<!--") {
            flush(&mut text, &mut tokens);
            rest = comment.find("-->").map_or("", |i| &comment[i + 3..]);
        } else if rest.starts_with("<!") || rest.starts_with("<?") {
            flush(&mut text, &mut tokens);
            rest = rest.find('>').map_or("", |i| &rest[i + 1..]);
        } else if let Some(end) = after_lt
            .and_then(|r| r.strip_prefix('/'))
            .filter(|r| tag_start(r))
        {
            flush(&mut text, &mut tokens);
            let name_end = end.find(|c: char| c.is_whitespace() || c == '/' || c == '>');
            let name = &end[..name_end.unwrap_or(end.len())];
            tokens.push(Token::End(name.to_ascii_lowercase()));
            rest = end.find('>').map_or("", |i| &end[i + 1..]);
        } else if let Some(tag) = after_lt.filter(|r| tag_start(r)) {
            flush(&mut text, &mut tokens);
            let (name, attributes, after) = start_tag(tag);
            rest = after;
            if ["script", "style", "textarea", "title"].contains(&name.as_str()) {
                let close = rest
                    .to_ascii_lowercase()
                    .find(&format!("</{name}"))
                    .unwrap_or(rest.len());
                let raw = &rest[..close];
                tokens.push(Token::Start { name, attributes });
                if !raw.is_empty() {
                    tokens.push(Token::Text(raw.to_string()));
                }
                rest = &rest[close..];
            } else {
                tokens.push(Token::Start { name, attributes });
            }
        } else if c == '&' {
            let (decoded, after) = reference(rest);
            text.push_str(&decoded);
            rest = after;
        } else {
            text.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    flush(&mut text, &mut tokens);
    tokens
}

/// A start tag after its `<`: name, attributes, and the text after `>`.
fn start_tag(tag: &str) -> (String, Vec<(String, String)>, &str) {
    let stop = |c: char| c.is_whitespace() || c == '/' || c == '>';
    let name_end = tag.find(stop).unwrap_or(tag.len());
    let name = tag[..name_end].to_ascii_lowercase();
    let mut rest = &tag[name_end..];
    let mut attributes = Vec::new();
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
        if let Some(after) = rest.strip_prefix('>') {
            return (name, attributes, after);
        }
        if rest.is_empty() {
            return (name, attributes, rest);
        }
        let first = rest.chars().next().map_or(0, char::len_utf8);
        let end = rest[first..]
            .find(|c: char| stop(c) || c == '=')
            .map_or(rest.len(), |i| first + i);
        let attribute = rest[..end].to_ascii_lowercase();
        rest = rest[end..].trim_start();
        let mut value = String::new();
        if let Some(v) = rest.strip_prefix('=') {
            let v = v.trim_start();
            let (raw, after) = match v.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let close = v[1..].find(q).map_or(v.len(), |i| i + 1);
                    (&v[1..close], v.get(close + 1..).unwrap_or(""))
                }
                _ => {
                    let close = v
                        .find(|c: char| c.is_whitespace() || c == '>')
                        .unwrap_or(v.len());
                    (&v[..close], &v[close..])
                }
            };
            value = decode(raw);
            rest = after;
        }
        attributes.push((attribute, value));
    }
}

fn decode(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let (decoded, after) = reference(&rest[at..]);
        out.push_str(&decoded);
        rest = after;
    }
    out.push_str(rest);
    out
}

/// A character reference at the start of `text` (which starts with `&`).
fn reference(text: &str) -> (String, &str) {
    let named = [
        ("&amp;", "&"),
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&quot;", "\""),
        ("&apos;", "'"),
        ("&nbsp;", "\u{a0}"),
    ];
    if let Some((entity, c)) = named.iter().find(|(e, _)| text.starts_with(e)) {
        return (c.to_string(), &text[entity.len()..]);
    }
    if let Some(number) = text.strip_prefix("&#") {
        let (hex, digits) = match number.strip_prefix(['x', 'X']) {
            Some(h) => (true, h),
            None => (false, number),
        };
        let len = digits
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(digits.len());
        let value = u32::from_str_radix(&digits[..len], if hex { 16 } else { 10 }).ok();
        if let Some(c) = value.and_then(char::from_u32).filter(|_| len > 0) {
            let after = &digits[len..];
            return (c.to_string(), after.strip_prefix(';').unwrap_or(after));
        }
    }
    ("&".into(), &text[1..])
}

/// The tokens of the page's `<article>`.
fn article(html: &str) -> Vec<Token> {
    let tokens = tokenize(html);
    let start = tokens
        .iter()
        .position(|t| matches!(t, Token::Start { name, .. } if name == "article"))
        .expect("an <article>");
    let end = tokens
        .iter()
        .rposition(|t| *t == Token::End("article".into()))
        .expect("an </article>");
    tokens[start + 1..end].to_vec()
}

/// The text inside each `<name>` element, in order.
fn texts_of(tokens: &[Token], element: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut open: Option<String> = None;
    for token in tokens {
        match (token, &mut open) {
            (Token::Start { name, .. }, None) if name == element => open = Some(String::new()),
            (Token::Text(text), Some(inside)) => inside.push_str(text),
            (Token::End(name), Some(_)) if name == element => found.extend(open.take()),
            _ => {}
        }
    }
    found
}

/// All the text of the tokens, as a reader sees it.
fn all_text(tokens: &[Token]) -> String {
    tokens
        .iter()
        .filter_map(|t| match t {
            Token::Text(text) => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn attribute<'t>(token: &'t Token, wanted: &str) -> Option<&'t str> {
    match token {
        Token::Start { attributes, .. } => attributes
            .iter()
            .find(|(a, _)| a == wanted)
            .map(|(_, v)| v.as_str()),
        _ => None,
    }
}

/// What markdown and MathML may put in an article.
const ARTICLE_ELEMENTS: &[&str] = &[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "a",
    "em",
    "strong",
    "code",
    "pre",
    "ul",
    "ol",
    "li",
    "blockquote",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "sup",
    "sub",
    "div",
    "section",
    "hr",
    "br",
    "del",
    "kbd",
    "abbr",
    "mark",
    "aside",
    "math",
    "semantics",
    "annotation",
    "mrow",
    "mi",
    "mn",
    "mo",
    "mtext",
    "mspace",
    "mfrac",
    "msqrt",
    "mroot",
    "msub",
    "msup",
    "msubsup",
    "munder",
    "mover",
    "munderover",
    "mtable",
    "mtr",
    "mtd",
];

/// Whatever the page holds, nothing in it can run: only the template's own
/// scripts (by `src`, empty), no handler attribute anywhere, no script URL,
/// and in the article only the elements markdown and MathML make.
fn assert_inert(html: &str) {
    for token in tokenize(html) {
        let Token::Start { name, attributes } = &token else {
            continue;
        };
        if name == "script" {
            let src = attribute(&token, "src").unwrap_or_default();
            assert!(
                src.ends_with("assets/theme.js")
                    || src.ends_with("search-index.js")
                    || src.ends_with("assets/search.js")
                    || src.ends_with("assets/rules.js")
                    || src.ends_with("assets/glossary.js"),
                "a script that is not the template's: {token:?}"
            );
        }
        for (attribute, value) in attributes {
            assert!(!attribute.starts_with("on"), "a handler: {token:?}");
            assert!(
                !["autofocus", "formaction", "srcdoc"].contains(&attribute.as_str()),
                "{token:?}"
            );
            let value = value.trim().to_ascii_lowercase();
            assert!(!value.starts_with("javascript:"), "a script URL: {token:?}");
            assert!(!value.contains("url("), "a CSS URL: {token:?}");
        }
    }
    let article = article(html);
    for token in &article {
        if let Token::Start { name, .. } = token {
            assert!(
                ARTICLE_ELEMENTS.contains(&name.as_str()),
                "<{name}> in the article: {token:?}"
            );
        }
    }
    let scripts = article
        .iter()
        .filter(|t| matches!(t, Token::Start { name, .. } if name == "script"));
    assert_eq!(scripts.count(), 0);
}

#[test]
fn the_tokenizer_sees_what_a_browser_sees() {
    let tokens = tokenize("<p a=1 b='x&lt;' c=\"&#x3c;&#62;&quot;\">t&amp;< x</p><script>if (a<b) {}</script><!-- c -->");
    assert_eq!(
        tokens,
        [
            Token::Start {
                name: "p".into(),
                attributes: vec![
                    ("a".into(), "1".into()),
                    ("b".into(), "x<".into()),
                    ("c".into(), "<>\"".into())
                ]
            },
            Token::Text("t&< x".into()),
            Token::End("p".into()),
            Token::Start {
                name: "script".into(),
                attributes: vec![]
            },
            Token::Text("if (a<b) {}".into()),
            Token::End("script".into()),
        ]
    );
    // An unescaped quote lets an attribute out.
    let tokens = tokenize("<h2 id=\"a\"onfocus=\"alert(1)\"autofocus>");
    assert!(attribute(&tokens[0], "onfocus").is_some());
}

// ---------------------------------------------------------------------------
// 1. Formulas: the LaTeX source reaches the page only as text.

/// Formulas that parse, each trying to leave the MathML (through the
/// annotation, an element's text or an attribute) or to smuggle an entity.
const FORMULAS: &[&str] = &[
    "a</annotation></semantics></math><svg onload=alert(2)>",
    "\\text{</mtext></math><script>alert(3)</script>}",
    "\\operatorname{<img src=x onerror=alert(4)>}",
    "\\mathop{</mo></math><iframe src=javascript:alert(5)>}",
    "b\"onmouseover=\"alert(6)",
    "c'onfocus='alert(7)'",
    "\\text{&lt;script&gt;alert(8)&lt;/script&gt;} \\& \\And",
    "x \\lt y \\gt z < w > v",
    "\\mathrel{<} \\mathbin{>} \\mathpunct{'} \\mathord{\"}",
    "\\text{&amp;quot;&#34;&#x3C;}",
];

#[test]
fn formulas_reach_the_page_as_text() {
    let mut body = String::new();
    for formula in FORMULAS {
        body.push_str(&format!(
            "Inline ${formula}$ here.\n\n$${formula}$$\n\n$$\n{formula}\n$$\n\n"
        ));
    }
    let (_dir, html) = built(&body);
    assert_inert(&html);
    let article = article(&html);
    // Each formula's source comes back, character for character, as the
    // text of its annotation: inline, display, and display on its own lines.
    let expected: Vec<String> = FORMULAS
        .iter()
        .flat_map(|f| [f.to_string(), f.to_string(), f.to_string()])
        .collect();
    assert_eq!(texts_of(&article, "annotation"), expected);
    assert_eq!(texts_of(&article, "math").len(), expected.len());
    // And what a formula writes as text stays text.
    let mtexts = texts_of(&article, "mtext");
    assert!(
        mtexts
            .iter()
            .any(|t| t.contains("</mtext></math><script>alert(3)</script>")),
        "{mtexts:?}"
    );
    assert!(
        mtexts.iter().any(|t| t.contains("&lt;script&gt;alert(8)")),
        "{mtexts:?}"
    );
    let identifiers = texts_of(&article, "mi");
    assert!(
        identifiers
            .iter()
            .any(|t| t == "<img src=x onerror=alert(4)>"),
        "{identifiers:?}"
    );
    let operators = [texts_of(&article, "mo"), identifiers].concat();
    for op in ["<", ">", "&", "\"", "'"] {
        assert!(operators.iter().any(|t| t == op), "{op} in {operators:?}");
    }
}

#[test]
fn formulas_that_cost_without_bound_are_refused() {
    let braces = format!("${}x{}$", "{".repeat(50_000), "}".repeat(50_000));
    let nested = format!("${}x{}$", "{".repeat(1_000), "}".repeat(1_000));
    let lefts = format!("$${}x{}$$", "\\left(".repeat(40), "\\right)".repeat(40));
    let roots = format!("Root ${}x{}$.", "\\sqrt[".repeat(40), "]x".repeat(40));
    let long = format!("\nSum ${}1$.", "1+".repeat(3000));
    let hats = format!("${} x$", "\\hat".repeat(5000));
    // Each \operatorname* takes the rest of the formula: MathML grows as the
    // square of the text, until the page's allowance runs out.
    let squares = format!("${}$\n\n", "\\operatorname*".repeat(290)).repeat(300);
    for (body, location, message) in [
        (
            braces.as_str(),
            "content/bad.md:4:",
            "a formula may have at most 4096",
        ),
        (&nested, "content/bad.md:4:", "nests 1000 levels deep"),
        (&lefts, "content/bad.md:4:", "levels deep"),
        (&roots, "content/bad.md:4:", "levels deep"),
        (
            &long,
            "content/bad.md:5:",
            "a formula may have at most 4096",
        ),
        (
            &hats,
            "content/bad.md:4:",
            "a formula may have at most 4096",
        ),
        (
            "Ok $x$, then\n$\\def\\a{\\a\\a}\\a$",
            "content/bad.md:5:",
            "cannot define commands (\\def)",
        ),
        (
            "$$\n\\newcommand{\\b}{b} \\b\n$$",
            "content/bad.md:4:",
            "cannot define commands (\\newcommand)",
        ),
        (
            "$\\let\\c=x$",
            "content/bad.md:4:",
            "cannot define commands (\\let)",
        ),
        (
            &squares,
            "content/bad.md:",
            "the formulas of this page make more than 8 MB of MathML",
        ),
    ] {
        let start = Instant::now();
        let err = refused(body);
        assert!(
            err.starts_with(location) && err.contains(message),
            "{err:.300}"
        );
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?} for {err:.100}",
            start.elapsed()
        );
    }
}

// ---------------------------------------------------------------------------
// 2. Heading ids and footnote labels: a safe set, or an error.

#[test]
fn heading_ids_outside_the_safe_set_are_refused() {
    for id in [
        "r\"onmouseover=\"alert(1)",
        "r'tab'",
        "tick`s",
        "javascript:alert(2)",
        "a&amp;b",
        "x%20y",
        "semi;colon",
        "(paren)",
        "a=b",
    ] {
        let err = refused(&format!("Intro.\n\n## Rolls {{#{id}}}\n"));
        assert!(err.starts_with("content/bad.md:6:"), "{id}: {err}");
        assert!(
            err.contains("heading id")
                && err.contains("may only hold letters, digits, '-', '_' and '.'"),
            "{id}: {err}"
        );
        assert!(err.contains("write it as {#"), "{id}: {err}");
    }
    for label in ["a\"b", "x<y", "q'"] {
        let err = refused(&format!("A claim[^{label}].\n\n[^{label}]: The source.\n"));
        assert!(err.starts_with("content/bad.md:4:"), "{label}: {err}");
        assert!(err.contains("footnote label"), "{label}: {err}");
    }
}

#[test]
fn heading_ids_are_unique_escaped_and_plain() {
    let body = "## Rolls {#rolls-2.1 .big onclick=alert(1) style=color:red}\n\n\
                ## Two words {#two words}\n\n## Same\n\n## Same {#same-2}\n\n## Same\n\n\
                ## <b>Bold</b> & \"quoted\"\n\nNote[^n1].\n\n[^n1]: Footnote.\n\n\
                ## Not an id {#<img src=x onerror=alert(1)>}\n\n## Nor this {#a>b}\n";
    let (_dir, html) = built(body);
    assert_inert(&html);
    let article = article(&html);
    let ids: Vec<&str> = article.iter().filter_map(|t| attribute(t, "id")).collect();
    for id in [
        "rolls-2.1",
        "two",
        "same",
        "same-2",
        "same-3",
        "b-bold-b-quoted",
        "n1",
        "not-an-id-img-src-x-onerror-alert-1",
        "nor-this-a-b",
    ] {
        assert!(ids.contains(&id), "{id} not in {ids:?}");
    }
    let unique: std::collections::BTreeSet<&str> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
    for id in &ids {
        assert!(
            id.chars().all(|c| c.is_alphanumeric() || "-_.".contains(c)),
            "{id}"
        );
    }
    // Every in-page link goes to an id of the page.
    for token in &article {
        if let Some(target) = attribute(token, "href").and_then(|h| h.strip_prefix('#')) {
            assert!(ids.contains(&target), "#{target} not in {ids:?}");
        }
    }
    // Attributes other than the id are not passed on.
    let headings: Vec<&Token> = article
        .iter()
        .filter(|t| matches!(t, Token::Start { name, .. } if name == "h2"))
        .collect();
    for heading in headings {
        let Token::Start { attributes, .. } = heading else {
            unreachable!()
        };
        assert_eq!(attributes.len(), 1, "{heading:?}");
    }
}

// ---------------------------------------------------------------------------
// 3 and 4. Linear work: sizes where quadratic work takes minutes.

/// Generous: the linear builds below take a second or two in the test
/// profile; the quadratic ones took 27 s to several minutes in release.
const LINEAR: Duration = Duration::from_secs(20);

#[test]
fn forty_thousand_equal_headings_build_in_linear_time() {
    let body = "## a\n\n".repeat(40_000);
    let start = Instant::now();
    let (_dir, html) = built(&body);
    let elapsed = start.elapsed();
    assert!(html.contains("id=\"a-40000\""));
    assert!(elapsed < LINEAR, "{elapsed:?}");
}

#[test]
fn megabytes_of_shortcodes_and_code_spans_build_in_linear_time() {
    // 3 MB of shortcodes on 40,000 lines, then a 1.2 MB line of code spans
    // holding `{{`.
    let mut body = format!("Value {VALUE} and more.\n").repeat(40_000);
    body.push('\n');
    body.push_str(
        &"`{{ x }}` {{ value(scenario=\"good\", path=\"cases.0.targets\") }} ".repeat(20_000),
    );
    body.push('\n');
    assert!(body.len() > 4_000_000, "{}", body.len());
    let start = Instant::now();
    let (_dir, html) = built(&body);
    let elapsed = start.elapsed();
    assert_eq!(html.matches("<code>{{ x }}</code>").count(), 20_000);
    assert!(!html.contains("{{ value"));
    assert!(elapsed < LINEAR, "{elapsed:?}");
}

// ---------------------------------------------------------------------------
// 4b. Linear work from small files: a glossary term with a hundred
// thousand aliases, a numbered page of twenty thousand items, releases of
// long rules and of many. Each took seconds to minutes in release before it
// was made linear (issue 27); here each builds in under a second, and the
// test checks what it built.

/// A site of `files` besides a home page, built.
fn built_site(files: &[(&str, &str)]) -> tempfile::TempDir {
    let mut all = vec![("content/_index.md", "---\ntitle: Home\n---\nHome.\n")];
    all.extend_from_slice(files);
    let dir = fixture(&all);
    if let Err(err) = build::build(&Project::at(dir.path())) {
        panic!("the site does not build: {err}");
    }
    dir
}

fn read(dir: &tempfile::TempDir, path: &str) -> String {
    std::fs::read_to_string(dir.path().join("site").join(path)).unwrap()
}

/// A glossary of a term with `aliases` aliases `w0`, `w1`... and one more
/// term, with `extra` added to the second term's aliases.
fn glossary(aliases: usize, extra: &str) -> String {
    let names: Vec<String> = (0..aliases).map(|i| format!("w{i}")).collect();
    format!(
        "- term: banish\n  definition: Remove.\n  aliases: [{}]\n\
         - term: zone\n  definition: A place.\n  aliases: [zones{extra}]\n",
        names.join(", ")
    )
}

#[test]
fn a_term_with_a_hundred_thousand_aliases_marks_a_long_page_in_linear_time() {
    // 100,000 aliases (790 kB) and a page of 40 kB: each alias was looked
    // for in turn through the page, and each compared with every other.
    let text = "Words w1x and w99999y about the game, zoned. ".repeat(900);
    let body = format!("---\ntitle: Page\n---\n{text}\n\nZones, w99999 and w7.\n");
    let dir = built_site(&[
        ("content/_glossary.yaml", &glossary(100_000, "")),
        ("content/page.md", &body),
    ]);
    let html = read(&dir, "page.html");
    let marks: Vec<&str> = html
        .split("class=\"term-word\"")
        .skip(1)
        .map(|m| &m[m.find('>').unwrap() + 1..m.find("</button>").unwrap()])
        .collect();
    assert_eq!(marks, ["Zones", "w99999"], "{html:.300}");
    // A spelling given twice, at the end of the long list, is still found.
    let err = refused_site(&[("content/_glossary.yaml", &glossary(100_000, ", W99999"))]);
    assert!(
        err.contains(
            "content/_glossary.yaml:4:1: glossary: \"W99999\" is already a term or alias of the \
             entry at line 1"
        ),
        "{err}"
    );
}

/// A good site built, then `files` added: the error of the rebuild, after
/// checking that the site was left as it was.
fn refused_site(files: &[(&str, &str)]) -> String {
    let dir = built_site(&[]);
    let before = snapshot(&dir.path().join("site"));
    for (path, text) in files {
        crate::common::write(dir.path(), path, text);
    }
    let err = match build::build(&Project::at(dir.path())) {
        Ok(_) => panic!("built without error"),
        Err(err) => err.to_string(),
    };
    assert_eq!(
        snapshot(&dir.path().join("site")),
        before,
        "the site changed"
    );
    err
}

#[test]
fn a_numbered_page_of_twenty_thousand_items_builds_in_linear_time() {
    // Each item looked ahead through every later event for a sub-list.
    let mut items: String = (1..=20_000).map(|i| format!("- item {i}\n")).collect();
    items.push_str("- last {#last}\n  - sub\n");
    let dir = built_site(&[
        (
            "content/rules/_index.md",
            "---\ntitle: Rules\nnumbered: true\n---\nThe rules.\n",
        ),
        (
            "content/rules/start.md",
            &format!("---\ntitle: Start\n---\n{items}"),
        ),
    ]);
    let html = read(&dir, "rules/start.html");
    assert_eq!(html.matches("<li class=\"rule\"").count(), 20_002);
    assert!(html.contains("id=\"start.20000\""), "{html:.300}");
    let last = &html[html.find("id=\"last\"").unwrap()..];
    assert!(last.contains(">1.20001</a>"), "{last:.300}");
    assert!(last.contains(">1.20001a</a>"), "{last:.300}");
}

/// A release snapshot's text.
fn snapshot_text(version: &str, rules: Vec<(String, String)>) -> String {
    fairdice::rulebook::releases::Snapshot {
        version: version.into(),
        effective: "2026-01-15".into(),
        rules: rules
            .into_iter()
            .enumerate()
            .map(|(i, (key, text))| fairdice::rulebook::releases::RuleAt {
                url: format!("rules/a.html#{key}"),
                key,
                number: format!("1.{i}"),
                title: None,
                text,
            })
            .collect(),
        figures: Vec::new(),
    }
    .to_text()
}

#[test]
fn releases_of_long_rules_and_of_many_build_in_linear_time() {
    // A rule of 20,000 words rewritten (the word diff took seconds per
    // pair), and 10,000 rules each reworded (the history looked every key
    // up in every rule of every release).
    let words = |seed: u64| -> String {
        let mut x = seed;
        let mut next = move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            format!("w{}", (x >> 33) % 1000)
        };
        (0..20_000).map(|_| next()).collect::<Vec<_>>().join(" ")
    };
    let rules = |long: String, word: &str| -> Vec<(String, String)> {
        let mut rules = vec![("long".to_string(), long)];
        rules.extend((0..10_000).map(|i| (format!("r{i}"), format!("Roll {word} dice."))));
        rules
    };
    let dir = built_site(&[
        (
            "content/releases/1.0.0.json",
            &snapshot_text("1.0.0", rules(words(1), "two")),
        ),
        (
            "content/releases/1.1.0.json",
            &snapshot_text("1.1.0", rules(words(2), "three")),
        ),
    ]);
    let changes = read(&dir, "releases/1.1.0.html");
    let rewritten = format!(
        "<dt id=\"long\">Rule 1.0 (rewritten) <code>long</code></dt>\n<dd>Rewritten (too long \
         to compare word by word): <del class=\"word\">{}</del> <ins class=\"word\">{}</ins></dd>",
        words(1),
        words(2)
    );
    assert!(changes.contains(&rewritten), "{changes:.300}");
    assert!(changes.contains(
        "<dd>Roll <del class=\"word\">two</del><ins class=\"word\">three</ins> dice.</dd>"
    ));
    let history = read(&dir, "releases/history.html");
    assert_eq!(history.matches("<dt id=").count(), 10_001);
    assert_eq!(
        history.matches("<ins class=\"word\">three</ins>").count(),
        10_000
    );
}

// ---------------------------------------------------------------------------
// 5. `{{` in math and code is LaTeX or code, not a shortcode.

#[test]
fn braces_in_math_and_code_are_not_shortcodes() {
    let body = format!(
        "Ways: $\\binom{{n}}{{k}} = {{{{n}} \\over {{k}}}}$, and $x^{{{{2}}}}$ is {VALUE}.\n\n\
         $$\n{{{{a}} \\choose {{b}}}} + {{{{c}}}}_{{{{d}}}}\n$$\n\n\
         Code `{{{{ value() }}}}` and\n\n```\n{{{{ table() }}}}\n```\n\n    {{{{ chart() }}}}\n"
    );
    let (_dir, html) = built(&body);
    assert_inert(&html);
    let article = article(&html);
    assert_eq!(
        texts_of(&article, "annotation"),
        [
            "\\binom{n}{k} = {{n} \\over {k}}",
            "x^{{2}}",
            "{{a} \\choose {b}} + {{c}}_{{d}}"
        ]
    );
    assert_eq!(
        texts_of(&article, "mfrac").len(),
        3,
        "\\binom, \\over and \\choose"
    );
    let code = texts_of(&article, "code");
    assert_eq!(
        code,
        ["{{ value() }}", "{{ table() }}\n", "{{ chart() }}\n"]
    );
    // The shortcode on the line of the formulas was expanded.
    let text = &texts_of(&article, "p")[0];
    let value = text.split(" is ").nth(1).unwrap().trim_end_matches('.');
    assert!(value.parse::<f64>().is_ok(), "{text}");
}

// ---------------------------------------------------------------------------
// 6. Private-use characters are the author's text like any other.

#[test]
fn private_use_characters_round_trip() {
    let pua = [
        '\u{E000}',
        '\u{E001}',
        '\u{E123}',
        '\u{F8FF}',
        '\u{F0000}',
        '\u{10FFFD}',
    ];
    let all: String = pua.iter().collect();
    let body = format!(
        "# Marks {all}\n\n\
         Plain {all} text, *{all}*, `{all}`, [{all}](good.yaml).\n\n\
         Around \u{E000}{VALUE}\u{E001} and \u{E000}0\u{E001} and &#xE000;1&#xE001;.\n\n\
         | a | b |\n|---|---|\n| {all} | \u{E000}{VALUE} |\n\n\
         $\\text{{{all}}}$\n"
    );
    let (_dir, html) = built(&body);
    assert_inert(&html);
    let article = article(&html);
    let text = all_text(&article);
    assert!(text.contains(&format!("Marks {all}")), "{text}");
    assert!(
        text.contains(&format!("Plain {all} text, {all}, {all}, {all}.")),
        "{text}"
    );
    assert!(
        text.contains("\u{E000}0\u{E001} and \u{E000}1\u{E001}."),
        "{text}"
    );
    let around = text.split("Around \u{E000}").nth(1).unwrap();
    let value = &around[..around.find('\u{E001}').unwrap()];
    assert!(value.parse::<f64>().is_ok(), "{value:?} in {text}");
    assert_eq!(
        texts_of(&article, "td"),
        [all.clone(), format!("\u{E000}{value}")]
    );
    assert_eq!(texts_of(&article, "mtext"), std::slice::from_ref(&all));
    assert_eq!(
        texts_of(&article, "annotation"),
        [format!("\\text{{{all}}}")]
    );
    let h1 = texts_of(&article, "h1");
    assert!(h1[0].starts_with(&format!("Marks {all}")), "{h1:?}");
}

#[test]
fn shortcodes_work_in_every_text_context() {
    let body = format!(
        "## Bias {VALUE}\n\n*{VALUE}* and **{VALUE}** and [{VALUE}](good.yaml).\n\n\
         > {VALUE}\n\n- {VALUE}\n- item\n\n| v |\n|---|\n| {VALUE} |\n\n\
         Note[^f].\n\n[^f]: {VALUE}\n\n<kbd>{VALUE}</kbd>\n"
    );
    let (_dir, html) = built(&body);
    assert_inert(&html);
    let article = article(&html);
    let text = all_text(&article);
    assert!(!text.contains("{{") && !text.contains('\u{E000}'), "{text}");
    let h2 = texts_of(&article, "h2");
    let value = h2[0].trim_start_matches("Bias ").trim_end_matches('#');
    assert!(value.parse::<f64>().is_ok(), "{h2:?}");
    assert_eq!(text.matches(value).count(), 9, "{text}");
}

#[test]
fn shortcodes_where_no_text_can_go_are_refused() {
    for (body, location) in [
        (format!("See [x](good.yaml#{VALUE})."), "content/bad.md:4:"),
        (format!("\n![pic]({VALUE})"), "content/bad.md:5:"),
        (format!("## Title {{#{VALUE}}}"), "content/bad.md:4:"),
    ] {
        let err = refused(&body);
        assert!(err.starts_with(location), "{body}: {err}");
    }
}
