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
