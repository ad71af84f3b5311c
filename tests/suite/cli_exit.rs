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
        let out = fairdice(args, dir.path());
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            out.stderr_text()
        );
        assert!(out.stdout.is_empty(), "{args:?}");
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
