//! Text from scenarios and front matter reaches pages as text, never as markup.

use fairdice::build::{self, Project};

#[test]
fn titles_and_descriptions_are_escaped() {
    let evil = "<script>alert(1)</script>";
    let dir = crate::common::fixture(&[
        ("content/_index.md", "---\ntitle: \"<script>alert(1)</script>\"\ndescription: \"\\\" onload=\\\"alert(2)\"\n---\nHome.\n"),
        (
            "content/evil.yaml",
            "title: \"<script>alert(1)</script>\"\ndescription: \"<img src=x onerror=alert(3)>\"\nkind: sum-mod\ndice: d6\ntargets: 2\n",
        ),
    ]);
    build::build(&Project::at(dir.path())).unwrap();
    for page in ["index.html", "evil.html"] {
        let html = std::fs::read_to_string(dir.path().join("site").join(page)).unwrap();
        assert!(!html.contains(evil), "{page} holds the raw script tag");
        assert!(!html.contains("<img src=x"), "{page} holds the raw img tag");
        assert!(
            !html.contains("\" onload=\""),
            "{page} lets a quote out of an attribute"
        );
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;&#x2f;script&gt;")
                || html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{page}: {html}"
        );
    }
    let json = std::fs::read_to_string(dir.path().join("site/evil.json")).unwrap();
    assert!(
        json.contains("\"title\": \"<script>alert(1)</script>\""),
        "the JSON keeps the data as it is"
    );
}

#[test]
fn raw_html_in_markdown_is_shown_as_text() {
    let dir = crate::common::fixture(&[(
        "content/_index.md",
        "# Home\n\n<script>alert(1)</script>\n\n<iframe src=\"https://e.org\"></iframe>\n\nPress <kbd>/</kbd>.\n",
    )]);
    build::build(&Project::at(dir.path())).unwrap();
    let html = std::fs::read_to_string(dir.path().join("site/index.html")).unwrap();
    assert!(!html.contains("<script>alert"), "{html}");
    assert!(!html.contains("<iframe"), "{html}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(
        html.contains("<kbd>/</kbd>"),
        "the documented allowlist passes"
    );
}

/// Issue 27: a page's `.md` export republished a body that opens with raw
/// markup, which a browser may sniff as a web page; content files that do
/// so are refused, and the export now opens with the page's title.
#[test]
fn a_pages_markdown_export_never_opens_with_markup() {
    let dir = crate::common::fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nHome.\n"),
        (
            "content/raw.md",
            "---\ntitle: Raw\n---\n\n  <script>alert(1)</script>\n",
        ),
        ("content/bom.md", "\u{feff}<b>bold</b> start\n"),
        (
            "content/plain.md",
            "---\ntitle: Plain\n---\nPlain <b>text</b>.\n",
        ),
    ]);
    fairdice::build::build(&fairdice::build::Project::at(dir.path())).unwrap();
    let read = |name: &str| std::fs::read(dir.path().join("site").join(name)).unwrap();
    for name in ["raw.md", "bom.md"] {
        let bytes = read(name);
        assert!(!fairdice::content::starts_with_markup(&bytes), "{name}");
        assert!(bytes.starts_with(b"# "), "{name}");
    }
    assert_eq!(read("raw.md"), b"# Raw\n\n\n  <script>alert(1)</script>\n");
    assert_eq!(read("plain.md"), b"Plain <b>text</b>.\n");
}
