//! All errors at once: one build reports every problem it can find
//! (scenarios, pages, links, shortcodes, gates, the site file), grouped by
//! file with file:line:column each, then fails with exit code 1 and leaves
//! `site/` as it was. A file that does not load is reported once: links and
//! shortcodes naming it are not errors of their own.

use crate::common::{fairdice, good_site, snapshot, write};
use std::path::PathBuf;

/// The six planted mistakes, as the build reports them, in file order.
const SIX: [&str; 6] = [
    "error: content/bad.yaml:5:1: unknown field `colour`, expected one of `title`, `kind`, \
     `description`, `weight`, `expect`, `rules`, `dice`, `targets`",
    "error: content/codes.md:3:1: table(...): scenario \"good\" has no table \"nope\"; it has: \
     fairness, sums-2, bins-2, sums-3, bins-3",
    "error: content/front.md:3:9: front matter: weight: invalid type: string \"heavy\", \
     expected a whole number from -9223372036854775808 to 9223372036854775807",
    "error: content/gated.yaml:6:12: expect: case 1 (targets 4): uniform is false, expected true",
    "error: content/links.md:3:5: broken link \"missing.md\" (in the site \"missing.html\"): no \
     file missing.html in the site: link to a page's .md or a scenario's .yaml, or to a file in \
     content/",
    "error: fairdice.yaml:2:1: unknown field `colour`, expected one of `title`, `base_url`, \
     `language`, `repository`, `branch`, `translations`",
];

/// A good site, built, with `files` then written into it; and its site as
/// built, to check it is left alone.
fn planted(files: &[(&str, &str)]) -> (tempfile::TempDir, Vec<(PathBuf, Vec<u8>)>) {
    let dir = good_site();
    let before = snapshot(&dir.path().join("site"));
    for (path, text) in files {
        write(dir.path(), path, text);
    }
    (dir, before)
}

fn error_lines(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.starts_with("error:")).collect()
}

#[test]
fn six_mistakes_are_reported_by_one_build_grouped_by_file() {
    // A scenario with an unknown key, a page whose front matter does not
    // parse, a broken link, a shortcode naming a missing table, a failed
    // gate and a site file with an unknown key; and the home page names the
    // scenario and the page that do not load (no error of its own).
    let (dir, before) = planted(&[
        (
            "content/_index.md",
            "---\ntitle: Home\n---\nSee [the scenario](good.yaml), [bad](bad.yaml), \
                 [front](front.md) and {{ value(scenario=\"bad\", path=\"cases.0.targets\") }}.\n",
        ),
        (
            "content/bad.yaml",
            "title: Bad\nkind: sum-mod\ndice: d6\ntargets: [2]\ncolour: red\n",
        ),
        (
            "content/front.md",
            "---\ntitle: Front\nweight: heavy\n---\nText.\n",
        ),
        (
            "content/links.md",
            "# Links\n\nSee [nowhere](missing.md).\n",
        ),
        (
            "content/codes.md",
            "# Codes\n\n{{ table(scenario=\"good\", id=\"nope\") }}\n",
        ),
        // 4d6 mod 4 is not uniform (322, 324, 326 and 324 of 1296 rolls).
        (
            "content/gated.yaml",
            "title: Gated\nkind: sum-mod\ndice: d6\ntargets: [4]\nexpect:\n  uniform: true\n",
        ),
        ("fairdice.yaml", "title: Site\ncolour: blue\n"),
    ]);
    let root = dir.path();

    let build = fairdice(&["build"], root);
    assert_eq!(build.status.code(), Some(1), "{}", build.stderr_text());
    assert_eq!(error_lines(&build.stderr_text()), SIX);
    assert!(snapshot(&root.join("site")) == before, "site/ was changed");

    // `check` lists the same; `build --check` applies no gates.
    let check = fairdice(&["check"], root);
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(error_lines(&check.stderr_text()), SIX);
    let stale = fairdice(&["build", "--check"], root);
    assert_eq!(stale.status.code(), Some(1));
    let without_gate: Vec<&str> = SIX
        .iter()
        .copied()
        .filter(|l| !l.contains("expect:"))
        .collect();
    assert_eq!(error_lines(&stale.stderr_text()), without_gate);
    assert!(snapshot(&root.join("site")) == before, "site/ was changed");
}

#[test]
fn a_page_with_a_bad_shortcode_still_has_its_links_checked() {
    let (dir, before) = planted(&[
        (
            "content/both.md",
            "# Both\n\n{{ value(scenario=\"good\", path=\"cases.9\") }}\n\n[gone](gone.md)\n\n\
                 [home](_index.md#no-such-heading)\n",
        ),
        // A page linking to it: rendered with errors, it is still a page.
        ("content/other.md", "# Other\n\nSee [both](both.md).\n"),
    ]);
    let root = dir.path();
    let build = fairdice(&["build"], root);
    assert_eq!(build.status.code(), Some(1));
    assert_eq!(
        error_lines(&build.stderr_text()),
        [
            "error: content/both.md:3:1: value(...): scenario \"good\" has no result at \"cases.9\"; \
             \"cases\" is a list: follow it with an index from 0 to 1 (\"cases.0\")",
            "error: content/both.md:5:1: broken link \"gone.md\" (in the site \"gone.html\"): no \
             file gone.html in the site: link to a page's .md or a scenario's .yaml, or to a file \
             in content/",
            "error: content/both.md:7:1: broken link \"_index.md#no-such-heading\" (in the site \
             \"index.html#no-such-heading\"): index.html has no heading #no-such-heading",
        ]
    );
    assert!(snapshot(&root.join("site")) == before, "site/ was changed");
}

#[test]
fn what_a_failed_file_would_have_given_is_no_error_of_its_own() {
    // A scenario that does not load, whose table CSV a page links to; a
    // numbered page that does not load, whose rule another page, a
    // scenario and the glossary name. One error each, and nothing else.
    let (dir, before) = planted(&[
        (
            "content/bad.yaml",
            "title: Bad\nkind: sum-mod\ndice: d6\ntargets: [2]\ncolour: red\n",
        ),
        (
            "content/uses.md",
            "# Uses\n\nThe [sums](bad.sums-2.csv) and {{ rule(key=\"ante\") }}.\n",
        ),
        (
            "content/rules/_index.md",
            "---\ntitle: Rules\nnumbered: true\n---\n",
        ),
        (
            "content/rules/play.md",
            "---\ntitle: Play\nweight: heavy\n---\n# Play\n\nEach player antes. {#ante}\n",
        ),
        (
            "content/measured.yaml",
            "title: Measured\nkind: sum-mod\ndice: d6\ntargets: [2]\nrules: [ante]\n",
        ),
        (
            "content/_glossary.yaml",
            "- term: ante\n  definition: What each player puts in.\n  rule: ante\n",
        ),
    ]);
    let root = dir.path();
    let build = fairdice(&["build"], root);
    assert_eq!(build.status.code(), Some(1), "{}", build.stderr_text());
    assert_eq!(
        error_lines(&build.stderr_text()),
        [
            "error: content/bad.yaml:5:1: unknown field `colour`, expected one of `title`, \
             `kind`, `description`, `weight`, `expect`, `rules`, `dice`, `targets`",
            "error: content/rules/play.md:3:9: front matter: weight: invalid type: string \
             \"heavy\", expected a whole number from -9223372036854775808 to 9223372036854775807",
        ]
    );
    assert!(snapshot(&root.join("site")) == before, "site/ was changed");

    // With both fixed, the links, the rule and its references all resolve.
    write(
        root,
        "content/bad.yaml",
        "title: Bad\nkind: sum-mod\ndice: d6\ntargets: [2]\n",
    );
    write(
        root,
        "content/rules/play.md",
        "---\ntitle: Play\n---\n# Play\n\nEach player antes. {#ante}\n",
    );
    let build = fairdice(&["build"], root);
    assert_eq!(build.status.code(), Some(0), "{}", build.stderr_text());
    let uses = std::fs::read_to_string(root.join("site/uses.html")).unwrap();
    assert!(uses.contains("bad.sums-2.csv"), "{uses}");
    assert!(uses.contains("rules/play.html#ante"), "{uses}");

    // A mistyped key is still an error when every page loads.
    write(
        root,
        "content/uses.md",
        "# Uses\n\n{{ rule(key=\"antes\") }}\n",
    );
    let build = fairdice(&["build"], root);
    assert_eq!(build.status.code(), Some(1));
    let errors = build.stderr_text();
    assert!(
        errors.contains("content/uses.md:3:1: rule(...): no rule has the key \"antes\""),
        "{errors}"
    );
}
