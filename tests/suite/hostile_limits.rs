//! Every reader of a user's file holds the same limits: scenario files named
//! on the command line (`eval`, `report`), content and templates. Nothing is
//! read without bound, nothing blocks on a device or a pipe.

use crate::common::{fairdice, fixture, snapshot};
use std::fs;

/// A file of `bytes` that takes no disk space (sparse).
fn sparse(path: &std::path::Path, bytes: u64) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::File::create(path).unwrap().set_len(bytes).unwrap();
}

#[test]
fn scenario_files_on_the_command_line_are_read_under_the_limit() {
    let dir = fixture(&[]);
    let big = dir.path().join("big.yaml");
    sparse(&big, 1_000_001);
    // A regular file over the limit, a device that never ends, a folder.
    for (arg, expected) in [
        ("big.yaml", "may have at most 1 MB"),
        ("/dev/zero", "not a regular file"),
        ("/dev/urandom", "not a regular file"),
        (".", "not a regular file"),
    ] {
        for command in [
            vec!["eval", arg],
            vec!["eval", arg, "--json"],
            vec!["report", arg, "-o", "out.html"],
        ] {
            let out = fairdice(&command, dir.path());
            assert_eq!(
                out.status.code(),
                Some(1),
                "{command:?}: {}",
                out.stderr_text()
            );
            assert!(
                out.stderr_text().contains(expected),
                "{command:?}: {}",
                out.stderr_text()
            );
            assert!(!dir.path().join("out.html").exists());
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_pipe_is_refused_instead_of_waited_on() {
    let dir = fixture(&[]);
    let pipe = dir.path().join("pipe.yaml");
    let c_path = std::ffi::CString::new(pipe.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let out = fairdice(&["eval", "pipe.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stderr_text().contains("not a regular file"),
        "{}",
        out.stderr_text()
    );
}

#[test]
fn templates_are_read_under_the_same_limits_as_content() {
    for path in [
        "templates/page.html",
        "templates/assets/huge.bin",
        "templates/extra.html",
    ] {
        let dir = fixture(&[("content/_index.md", "# Home\n")]);
        assert_eq!(fairdice(&["build"], dir.path()).status.code(), Some(0));
        let before = snapshot(&dir.path().join("site"));
        sparse(&dir.path().join(path), 50_000_001);
        let out = fairdice(&["build"], dir.path());
        assert_eq!(out.status.code(), Some(1), "{path}");
        let err = out.stderr_text();
        assert!(
            err.contains(path) && err.contains("may have at most 50 MB"),
            "{path}: {err}"
        );
        assert_eq!(
            before,
            snapshot(&dir.path().join("site")),
            "{path}: site untouched"
        );
    }
}
