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
        "games/dice # <b>.yaml",
        "title: Two d6\nkind: sum-mod\ndice: d6 # one per target\ntargets: [2, 4]\n",
    )]);
    let scenario = dir.path().join("games/dice # <b>.yaml");
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
    // 2d6 mod 2 is fair, 4d6 mod 4 is not.
    let verdict = "<p class=\"verdict\"><strong>Exactly fair in 1 of the 2 cases; the other is not.</strong></p>";
    assert!(html.contains(verdict), "{html}");
    assert!(html.contains(
        "<pre><code>title: Two d6\nkind: sum-mod\ndice: d6 # one per target\ntargets: [2, 4]</code></pre>"
    ));
    // The verdict comes before the first table.
    assert!(html.find(verdict).unwrap() < html.find("<table").unwrap());
}
