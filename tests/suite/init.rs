//! `fairdice init` and the built-in templates: a new site builds at once,
//! and a folder with only content/ builds too.

use crate::common::{fairdice, snapshot, write};
use std::fs;

#[test]
fn init_then_build_gives_a_working_site() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("new-site");
    let out = fairdice(&["init", dir.to_str().unwrap()], tmp.path());
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr_text());
    for file in ["content/_index.md", "templates/base.html", ".gitignore"] {
        assert!(dir.join(file).is_file(), "{file}");
    }
    // No asset is copied: the built-in ones stay current with the program.
    assert!(!dir.join("templates/assets").exists());

    let out = fairdice(&["build"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr_text());
    let home = fs::read_to_string(dir.join("site/index.html")).unwrap();
    // 6d6 has 6^6 rolls, shown grouped; each of six targets gets 1/6.
    assert!(home.contains("46,656"), "{home}");
    assert!(home.contains("1/6"), "{home}");
    assert_eq!(
        crate::common::broken_links(&dir.join("site")),
        Vec::<String>::new()
    );
    for asset in [
        "style.css",
        "engine-dice.js",
        "engine-rules.js",
        "engine-cards.js",
        "calculator.js",
    ] {
        assert!(dir.join("site/assets").join(asset).is_file(), "{asset}");
    }
    let out = fairdice(&["check"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr_text());
}

#[test]
fn the_starter_has_a_scenario_of_every_kind() {
    let tmp = tempfile::tempdir().unwrap();
    ::fairdice::init::init(tmp.path()).unwrap();
    let mut kinds = Vec::new();
    for entry in walkdir::WalkDir::new(tmp.path().join("content")) {
        let entry = entry.unwrap();
        if entry.path().extension().is_some_and(|e| e == "yaml") {
            let text = fs::read_to_string(entry.path()).unwrap();
            let scenario = ::fairdice::scenario::parse("s.yaml", &text).unwrap();
            assert!(
                !scenario.header.expect.is_empty(),
                "{}: starters show a gate",
                entry.path().display()
            );
            kinds.push(scenario.params.kind());
        }
    }
    for kind in ::fairdice::kinds::names() {
        assert!(kinds.contains(&kind), "no starter scenario of kind {kind}");
    }
}

#[test]
fn init_refuses_a_folder_that_is_not_empty() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "notes.txt", "keep");
    let out = fairdice(&["init", "."], tmp.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr_text().contains("is not empty"),
        "{}",
        out.stderr_text()
    );
    assert_eq!(
        fs::read_to_string(tmp.path().join("notes.txt")).unwrap(),
        "keep"
    );
}

/// Issue 27: a file or a dangling link ended with exit 1 and a raw OS
/// error; like a folder that is not empty, they are a usage error.
#[test]
fn init_refuses_a_file_or_a_link_to_nothing_with_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "notes.txt", "keep");
    std::os::unix::fs::symlink(tmp.path().join("nowhere"), tmp.path().join("link")).unwrap();
    for (target, why) in [
        ("notes.txt", "is a file, not a folder"),
        ("link", "is a symbolic link to nothing"),
    ] {
        let out = fairdice(&["init", target], tmp.path());
        assert_eq!(out.status.code(), Some(2), "{target}");
        let stderr = out.stderr_text();
        assert!(stderr.contains(&format!("{target} {why}")), "{stderr}");
    }
    assert_eq!(
        fs::read_to_string(tmp.path().join("notes.txt")).unwrap(),
        "keep"
    );
    assert!(!tmp.path().join("nowhere").exists());
}

#[test]
fn content_alone_builds_with_the_built_in_templates_and_files_override_them() {
    let tmp = tempfile::tempdir().unwrap();
    ::fairdice::init::init(tmp.path()).unwrap();
    assert_eq!(fairdice(&["build"], tmp.path()).status.code(), Some(0));
    let with_templates = snapshot(&tmp.path().join("site"));

    fs::remove_dir_all(tmp.path().join("templates")).unwrap();
    let out = fairdice(&["build"], tmp.path());
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr_text());
    assert_eq!(with_templates, snapshot(&tmp.path().join("site")));

    // One file overrides its default; the others stay built in.
    write(
        tmp.path(),
        "templates/assets/style.css",
        "body { color: red }\n",
    );
    assert_eq!(fairdice(&["build"], tmp.path()).status.code(), Some(0));
    let site = tmp.path().join("site");
    assert_eq!(
        fs::read_to_string(site.join("assets/style.css")).unwrap(),
        "body { color: red }\n"
    );
    assert!(fs::read_to_string(site.join("index.html"))
        .unwrap()
        .contains("assets/style.css"));
}
