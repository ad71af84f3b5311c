//! Exit codes, the summary line, --quiet and --verbose, and plain output
//! when stderr is not a terminal.

use crate::common::{fairdice, fixture};

const SCENARIO: &str = "title: S\nkind: sum-mod\ndice: d6\ntargets: [2, 3]\n";

fn site() -> tempfile::TempDir {
    fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nHello.\n"),
        ("content/s.yaml", SCENARIO),
    ])
}

#[test]
fn success_is_0_with_one_summary_line() {
    let dir = site();
    let out = fairdice(&["build"], dir.path());
    assert_eq!(out.status.code(), Some(0));
    let stderr = out.stderr_text();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let line = stderr.trim();
    assert!(
        line.starts_with("built ./site: 1 page, 1 scenario (1 computed, 0 cached), "),
        "{line}"
    );
    assert!(line.ends_with(" s"), "{line}");
    let again = fairdice(&["build"], dir.path()).stderr_text();
    assert!(
        again.contains("(0 computed, 1 cached)") && again.contains("(unchanged)"),
        "{again}"
    );
}

#[test]
fn build_failures_are_1_and_located() {
    let dir = fixture(&[(
        "content/s.yaml",
        "title: S\nkind: sum-mod\ndice: d6\ntargets: -2\n",
    )]);
    let out = fairdice(&["build"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        out.stderr_text(),
        "error: content/s.yaml:4:10: targets: expected sizes of at least 1, found -2\n"
    );
    let out = fairdice(&["eval", "missing.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(1));
}

/// Run fairdice in `dir`: a usage error (exit 2) with nothing on stdout.
/// Returns what it said on stderr.
fn usage_error(args: &[&str], dir: &std::path::Path) -> String {
    let out = fairdice(args, dir);
    let stderr = out.stderr_text();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
    stderr
}

#[test]
fn usage_errors_are_2() {
    let dir = site();
    for args in [
        &["build", "--colour"][..],
        &["frobnicate"],
        &["serve", "--port", "http"],
        &["build", "--quiet", "--verbose"],
        &["build", "--root", "nowhere"],
        &["build", "--out", "content"],
        &["eval"],
    ] {
        usage_error(args, dir.path());
    }
    let stderr = fairdice(&["build", "--root", "nowhere"], dir.path()).stderr_text();
    assert!(stderr.contains("no content/ folder here"), "{stderr}");
}

#[test]
fn quiet_prints_only_errors_and_verbose_adds_detail() {
    let dir = site();
    let out = fairdice(&["--quiet", "build"], dir.path());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stderr_text(), "");
    let out = fairdice(&["build", "--verbose"], dir.path());
    let stderr = out.stderr_text();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with("  s.yaml: cached in "), "{stderr}");
    assert!(lines[1].starts_with("built ./site: "), "{stderr}");
    let out = fairdice(&["-q", "build", "--root", "nowhere"], dir.path());
    assert!(
        out.stderr_text().starts_with("error: "),
        "errors survive --quiet"
    );
}

#[test]
fn no_colour_codes_when_stderr_is_not_a_terminal() {
    let dir = fixture(&[(
        "content/s.yaml",
        "title: S\nkind: sum-mod\ndice: d1\ntargets: 2\n",
    )]);
    for args in [&["build"][..], &["--verbose", "check"]] {
        let stderr = fairdice(args, dir.path()).stderr_text();
        assert!(!stderr.is_empty());
        assert!(!stderr.contains('\x1b'), "{stderr:?}");
    }
}

#[test]
fn help_lists_every_command() {
    let out = fairdice(&["--help"], std::path::Path::new("."));
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for command in [
        "build",
        "check",
        "eval",
        "serve",
        "init",
        "--quiet",
        "--verbose",
    ] {
        assert!(text.contains(command), "{command}: {text}");
    }
}

/// A site with one numbered page to release, and a French translation
/// declared.
fn rules_site() -> tempfile::TempDir {
    fixture(&[
        ("fairdice.yaml", "translations:\n  fr: Français\n"),
        ("content/_index.md", "---\ntitle: Home\n---\nHello.\n"),
        (
            "content/rules/_index.md",
            "---\ntitle: Rules\nnumbered: true\n---\n",
        ),
        (
            "content/rules/start.md",
            "---\ntitle: Start\n---\nEach player rolls two dice. {#roll}\n",
        ),
    ])
}

// Issue 39: a language the site does not have, and a version or date that
// is not one, are usage errors (2), refused before anything is built.
#[test]
fn release_and_pdf_arguments_that_are_not_usable_are_2() {
    let dir = rules_site();
    for (args, said) in [
        (
            &["pdf", "--lang", "de", "-o", "rules.pdf"][..],
            "error: --lang de: not a language of the site's translations; fairdice.yaml \
             declares fr\n",
        ),
        (
            &["release", "banana"],
            "error: version \"banana\" is not MAJOR.MINOR.PATCH: write three whole numbers \
             such as 1.0.0\n",
        ),
        (
            &["release", "1.0.0", "--effective", "2026-02-30"],
            "error: effective date \"2026-02-30\" is not a date: expected YYYY-MM-DD, such as \
             2026-11-23\n",
        ),
    ] {
        assert_eq!(usage_error(args, dir.path()), said, "{args:?}");
    }
    assert!(!dir.path().join("rules.pdf").exists());
    assert!(!dir.path().join("content/releases").exists());
}

// Issue 39: a release cannot take effect before the release it follows.
#[test]
fn a_release_effective_before_the_latest_is_refused() {
    let dir = rules_site();
    let run = fairdice(
        &["release", "1.0.0", "--effective", "2026-11-23", "-q"],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr_text());
    let run = fairdice(
        &["release", "1.0.1", "--effective", "1970-01-01"],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(1), "{}", run.stderr_text());
    assert_eq!(
        run.stderr_text(),
        "error: content/releases/1.0.0.json:3:3: release 1.0.1 would take effect on \
         1970-01-01, before the latest release, 1.0.0, effective 2026-11-23: a release takes \
         effect on or after the one before it; pass --effective 2026-11-23 or a later day\n"
    );
    assert!(!dir.path().join("content/releases/1.0.1.json").exists());
    // The same day, or a later one, is a release.
    for (version, day) in [("1.0.1", "2026-11-23"), ("1.1.0", "2026-12-01")] {
        let run = fairdice(&["release", version, "--effective", day, "-q"], dir.path());
        assert_eq!(run.status.code(), Some(0), "{}", run.stderr_text());
    }
}
