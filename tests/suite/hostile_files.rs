//! Files that are not ours: links planted where the program writes, a
//! person's own folders beside the site, a report aimed at its own input,
//! links inside a committed site, and a forged cache. Each must fail with a
//! clear error or be left alone, and never be followed, emptied or trusted.

use crate::common::{fairdice, fixture, snapshot, write};
use fairdice::build::{self, Project};
use fairdice::cache::{Cache, Key};
use fairdice::output;
use fairdice::progress::Progress;
use std::fs;
use std::os::unix::fs::{symlink, FileTypeExt};
use std::path::{Path, PathBuf};

/// Uniform for every case: a gate `uniform: true` holds.
const FAIR: &str = "title: Fair\nkind: sum-mod\ndice: d6\ntargets: [2, 3]\n";
/// Not uniform (10 targets): the same gate fails.
const UNFAIR: &str = "title: Unfair\nkind: sum-mod\ndice: d6\ntargets: [10]\n";

fn site_files() -> Vec<(&'static str, String)> {
    vec![
        (
            "content/_index.md",
            "---\ntitle: Home\n---\nSee [fair](fair.yaml).\n".to_string(),
        ),
        ("content/fair.yaml", FAIR.to_string()),
    ]
}

/// A built site in a fresh folder.
fn built_site() -> tempfile::TempDir {
    let files = site_files();
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let dir = fixture(&borrowed);
    build::build(&Project::at(dir.path())).expect("the good site builds");
    dir
}

/// A file outside the project, with contents that must survive.
fn outside_file(outside: &Path, name: &str) -> PathBuf {
    let path = outside.join(name);
    fs::write(&path, "precious: not fairdice's\n").unwrap();
    path
}

fn edit(dir: &Path) {
    write(
        dir,
        "content/fair.yaml",
        &FAIR.replace("title: Fair", "title: Fair, edited"),
    );
}

/// Run fairdice in `dir`: it must exit with `code` and say `text` on stderr.
fn says(args: &[&str], dir: &Path, code: i32, text: &str) -> String {
    let run = fairdice(args, dir);
    let stderr = run.stderr_text();
    assert_eq!(run.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(
        stderr.contains(text),
        "{args:?}: expected {text:?} in:\n{stderr}"
    );
    stderr
}

/// Names beside or under `dir` that a build leaves when it fails to tidy up.
fn temporaries(dir: &Path) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.contains(".tmp-"))
        .collect()
}

// Item: links planted where the program creates its own files.

#[test]
fn a_lock_that_is_a_link_is_refused_and_its_target_untouched() {
    let outside = tempfile::tempdir().unwrap();
    for dangling in [false, true] {
        let dir = built_site();
        let before = snapshot(&dir.path().join("site"));
        let target = if dangling {
            outside.path().join("never-created")
        } else {
            outside_file(outside.path(), "notes.txt")
        };
        let lock = dir.path().join(".site.lock");
        let _ = fs::remove_file(&lock);
        symlink(&target, &lock).unwrap();
        edit(dir.path());
        let err = build::build(&Project::at(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(err.contains(".site.lock: is a symbolic link"), "{err}");
        assert!(err.contains("remove it"), "{err}");
        if dangling {
            assert!(
                !target.exists(),
                "a dangling link must not create its target"
            );
        } else {
            assert_eq!(
                fs::read_to_string(&target).unwrap(),
                "precious: not fairdice's\n"
            );
        }
        assert_eq!(snapshot(&dir.path().join("site")), before);
    }
}

#[test]
fn an_existing_lock_file_is_never_emptied() {
    let dir = built_site();
    let lock = dir.path().join(".site.lock");
    fs::write(&lock, "a person's notes in a file of that name\n").unwrap();
    edit(dir.path());
    build::build(&Project::at(dir.path())).unwrap();
    assert_eq!(
        fs::read_to_string(&lock).unwrap(),
        "a person's notes in a file of that name\n"
    );
}

#[test]
fn a_staging_name_taken_by_a_link_or_a_persons_folder_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    let kept = outside_file(outside.path(), "kept.txt");
    let dir = built_site();
    let site = dir.path().join("site");
    let before = snapshot(&site);
    let files = build::render_site(&Project::at(dir.path())).unwrap().files;
    // This test process's id is the one the write below stages under.
    let staging = dir.path().join(format!("site.tmp-{}", std::process::id()));
    symlink(outside.path(), &staging).unwrap();
    let err = output::write_site(&site, &files).unwrap_err().to_string();
    assert!(err.contains("was not made by fairdice"), "{err}");
    assert!(err.contains("move or rename it"), "{err}");
    assert_eq!(
        fs::read_to_string(&kept).unwrap(),
        "precious: not fairdice's\n"
    );
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 1);
    assert_eq!(snapshot(&site), before);

    fs::remove_file(&staging).unwrap();
    write(&staging, "mine.txt", "a person's folder\n");
    let err = output::write_site(&site, &files).unwrap_err().to_string();
    assert!(err.contains("was not made by fairdice"), "{err}");
    assert_eq!(
        fs::read_to_string(staging.join("mine.txt")).unwrap(),
        "a person's folder\n"
    );
    assert_eq!(snapshot(&site), before);
}

#[test]
fn a_cache_folder_or_entry_that_is_a_link_is_never_followed() {
    let outside = tempfile::tempdir().unwrap();
    // The whole cache folder is a link out of the project.
    let dir = built_site();
    fs::remove_dir_all(dir.path().join(".fairdice-cache")).unwrap();
    symlink(outside.path(), dir.path().join(".fairdice-cache")).unwrap();
    edit(dir.path());
    let summary = build::build(&Project::at(dir.path())).unwrap();
    assert_eq!((summary.computed, summary.cached), (1, 0));
    assert_eq!(
        fs::read_dir(outside.path()).unwrap().count(),
        0,
        "nothing is written through the link"
    );

    // One entry is a link to a file outside: not read, and replaced (the
    // link, never its target) when the entry is stored.
    let dir = built_site();
    let cache = dir.path().join(".fairdice-cache");
    let entry = fs::read_dir(&cache)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let real = fs::read(&entry).unwrap();
    let target = outside.path().join("entry.json");
    fs::write(&target, &real).unwrap();
    fs::remove_file(&entry).unwrap();
    symlink(&target, &entry).unwrap();
    let summary = build::build(&Project::at(dir.path())).unwrap();
    assert_eq!(
        (summary.computed, summary.cached),
        (1, 0),
        "a valid entry behind a link is not used"
    );
    assert!(!fs::symlink_metadata(&entry)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read(&entry).unwrap(), real);
    assert_eq!(fs::read(&target).unwrap(), real);
}

// Item: start-up recovery touches only what this program made.

#[test]
fn a_persons_folders_beside_the_site_survive_every_build() {
    let dir = built_site();
    let theirs = [
        "site.tmp-notes",
        "site.old-notes",
        "site.tmp-4242",
        "site.old-4242",
        "site.tmp-",
        "site.tmp-12x",
    ];
    for name in theirs {
        write(&dir.path().join(name), "keep.txt", name);
    }
    // A marker of ours inside a folder whose name is not our pattern, and
    // one whose process id does not match its name.
    write(&dir.path().join("site.tmp-notes"), ".fairdice-staging", "x");
    let forged = dir.path().join("site.tmp-77");
    write(
        &forged,
        ".fairdice-staging",
        "fairdice staging folder of process 78; safe to delete when no build runs\n",
    );
    write(&forged, "old/index.html", "a person's page\n");
    for rebuild in 0..2 {
        if rebuild == 1 {
            // With site/ gone, no folder of theirs is renamed into its place.
            fs::remove_dir_all(dir.path().join("site")).unwrap();
        }
        edit(dir.path());
        says(&["build"], dir.path(), 0, "built ./site");
        for name in theirs {
            assert_eq!(
                fs::read_to_string(dir.path().join(name).join("keep.txt")).unwrap(),
                name,
                "{name} (build {rebuild})"
            );
        }
        assert!(forged.join("old/index.html").is_file());
        assert!(dir.path().join("site/.fairdice").is_file());
        assert!(!dir.path().join("site/keep.txt").exists());
    }
}

// Issue 27, item 3: `pdf -o` never replaces a source, a file inside the
// project's sources or site, a special file, or (without --force) a file
// that is not a PDF. Refused before any Chromium is looked for.

#[test]
fn a_pdf_never_overwrites_a_source_a_special_file_or_another_file() {
    let dir = fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nHi.\n"),
        ("notes.txt", "my notes\n"),
        ("docs/keep.txt", "x"),
    ]);
    let here = dir.path();
    let fifo = here.join("pipe.pdf");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    symlink("/dev/null", here.join("null.pdf")).unwrap();
    for (output, why) in [
        ("content/_index.md", "which fairdice reads or rebuilds"),
        ("content/new.pdf", "which fairdice reads or rebuilds"),
        ("templates/page.html", "which fairdice reads or rebuilds"),
        ("site/rules.pdf", "which fairdice reads or rebuilds"),
        ("content", "which fairdice reads or rebuilds"),
        ("docs", "it is a folder"),
        ("pipe.pdf", "it is not a regular file"),
        ("/dev/null", "it is not a regular file"),
        ("null.pdf", "it is a symbolic link (to /dev/null)"),
    ] {
        for force in [false, true] {
            let mut args = vec!["pdf", "-o", output];
            if force {
                args.push("--force");
            }
            let refusal = format!("refusing to write the PDF to {output}: ");
            let stderr = says(&args, here, 2, &refusal);
            assert!(stderr.contains(why), "{output}: {stderr}");
        }
    }
    says(
        &["pdf", "-o", "notes.txt"],
        here,
        2,
        "it exists: pass --force",
    );
    assert_eq!(
        fs::read_to_string(here.join("content/_index.md")).unwrap(),
        "---\ntitle: Home\n---\nHi.\n"
    );
    assert_eq!(
        fs::read_to_string(here.join("notes.txt")).unwrap(),
        "my notes\n"
    );
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(fs::symlink_metadata(here.join("null.pdf"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(!here.join("content/new.pdf").exists() && !here.join("site").exists());
}

// Item: `report -o` never replaces what it was not asked to.

#[test]
fn a_report_never_overwrites_its_scenario_or_a_file_it_was_not_told_to() {
    let outside = tempfile::tempdir().unwrap();
    let dir = fixture(&[("s.yaml", FAIR), ("sub/keep.txt", "x")]);
    let here = dir.path();
    fs::hard_link(here.join("s.yaml"), here.join("hard.html")).unwrap();
    symlink(here.join("s.yaml"), here.join("soft.html")).unwrap();
    for (output, why) in [
        ("s.yaml", "it is the scenario file s.yaml itself"),
        ("./sub/../s.yaml", "it is the scenario file s.yaml itself"),
        ("hard.html", "it is the scenario file s.yaml itself"),
        ("soft.html", "it is the scenario file s.yaml itself"),
        ("sub", "it is a folder"),
    ] {
        for force in [false, true] {
            let mut args = vec!["report", "s.yaml", "-o", output];
            if force {
                args.push("--force");
            }
            let refusal = format!("refusing to write the report to {output}: {why}");
            says(&args, here, 2, &refusal);
        }
        assert_eq!(fs::read_to_string(here.join("s.yaml")).unwrap(), FAIR);
    }

    // Another file: refused unless --force, which replaces it.
    fs::write(here.join("notes.html"), "my notes\n").unwrap();
    let exists = "it exists: pass --force to replace it";
    says(&["report", "s.yaml", "-o", "notes.html"], here, 2, exists);
    let stderr = says(
        &["report", "s.yaml", "-o", "notes.html", "--force"],
        here,
        0,
        "",
    );
    assert_eq!(stderr, "wrote the report to notes.html\n");
    let html = fs::read_to_string(here.join("notes.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    assert!(temporaries(here).is_empty(), "{:?}", temporaries(here));

    // A link, whatever it points to, is neither replaced nor written
    // through, even with --force: `/dev/stdout` is such a link.
    let target = outside_file(outside.path(), "page.html");
    symlink(&target, here.join("link.html")).unwrap();
    symlink("/proc/self/fd/1", here.join("stdout.html")).unwrap();
    symlink("/dev/null", here.join("null.html")).unwrap();
    for (output, to) in [
        ("link.html", target.display().to_string()),
        ("stdout.html", "/proc/self/fd/1".into()),
        ("null.html", "/dev/null".into()),
    ] {
        for force in [false, true] {
            let mut args = vec!["report", "s.yaml", "-o", output];
            if force {
                args.push("--force");
            }
            let refusal = format!(
                "error: refusing to write the report to {output}: it is a symbolic link (to \
                 {to}), and --force replaces only a regular file: name the file itself, or \
                 `-o -` for standard output\n"
            );
            assert_eq!(says(&args, here, 2, ""), refusal);
        }
        let link = fs::read_link(here.join(output)).unwrap();
        assert_eq!(link.display().to_string(), to);
    }
    assert_eq!(
        fs::read_to_string(&target).unwrap(),
        "precious: not fairdice's\n"
    );
    assert!(temporaries(here).is_empty(), "{:?}", temporaries(here));
}

// Issue 39, item 8: `-o -` is standard output (a file named `-` is `./-`),
// for the report as for the PDF; nothing special is replaced.

#[test]
fn a_report_to_dash_goes_to_standard_output() {
    let dir = fixture(&[("s.yaml", FAIR)]);
    let here = dir.path();
    let run = fairdice(&["report", "s.yaml", "-o", "-"], here);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr_text());
    assert_eq!(run.stderr_text(), "wrote the report to standard output\n");
    let html = String::from_utf8(run.stdout.clone()).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    assert!(!here.join("-").exists());
    // Whatever --force says, standard output is written, never replaced.
    let run = fairdice(&["report", "s.yaml", "-o", "-", "--force", "-q"], here);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr_text());
    assert_eq!(String::from_utf8(run.stdout.clone()).unwrap(), html);
    assert!(!here.join("-").exists());
    // A file named `-` is written as `./-`.
    let run = fairdice(&["report", "s.yaml", "-o", "./-", "-q"], here);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr_text());
    assert!(run.stdout.is_empty());
    assert_eq!(fs::read_to_string(here.join("-")).unwrap(), html);
}

#[test]
fn a_failed_report_leaves_nothing_behind() {
    let dir = fixture(&[("s.yaml", FAIR), ("bad.yaml", "title: Bad\nkind: nope\n")]);
    let here = dir.path();
    says(
        &["report", "bad.yaml", "-o", "bad.html"],
        here,
        1,
        "bad.yaml:2:7: ",
    );
    // A folder that does not exist: the error names the file asked for,
    // not a temporary.
    let stderr = says(&["report", "s.yaml", "-o", "missing/r.html"], here, 1, "");
    assert!(stderr.starts_with("error: missing/r.html: "), "{stderr}");
    assert!(!here.join("bad.html").exists());
    assert!(temporaries(here).is_empty(), "{:?}", temporaries(here));
}

// Item: links and other non-regular entries inside the committed site.

/// Plants something in a built site folder.
type Plant<'a> = Box<dyn Fn(&Path) + 'a>;

#[test]
fn check_reports_every_link_or_special_file_inside_the_site() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside_file(outside.path(), "secret.txt");
    let plants: Vec<(&str, Plant)> = vec![
        (
            "p.txt",
            Box::new(|site: &Path| symlink(&secret, site.join("p.txt")).unwrap()),
        ),
        (
            "assets/more",
            Box::new(|site: &Path| symlink(outside.path(), site.join("assets/more")).unwrap()),
        ),
        (
            "gone.html",
            Box::new(|site: &Path| symlink("nowhere.html", site.join("gone.html")).unwrap()),
        ),
        (
            // A FIFO, which would hang a reader that opened it.
            "pipe",
            Box::new(|site: &Path| {
                use std::os::unix::ffi::OsStrExt;
                let path = std::ffi::CString::new(site.join("pipe").as_os_str().as_bytes());
                // SAFETY: a valid NUL-terminated path.
                assert_eq!(unsafe { libc::mkfifo(path.unwrap().as_ptr(), 0o600) }, 0);
            }),
        ),
        (
            // A link in place of a built file, to a copy with the same bytes.
            "index.html",
            Box::new(|site: &Path| {
                let copy = outside.path().join("index.html");
                fs::copy(site.join("index.html"), &copy).unwrap();
                fs::remove_file(site.join("index.html")).unwrap();
                symlink(&copy, site.join("index.html")).unwrap();
            }),
        ),
    ];
    for (name, plant) in &plants {
        let dir = built_site();
        plant(&dir.path().join("site"));
        for args in [&["check"][..], &["build", "--check"]] {
            let link = format!("not a regular file: ./site/{name}\n");
            let stderr = says(args, dir.path(), 1, &link);
            assert!(
                !stderr.contains(&format!("missing: ./site/{name}")),
                "{stderr}"
            );
        }
        // A build replaces the site with real files only.
        says(&["build"], dir.path(), 0, "built ./site");
        says(&["check"], dir.path(), 0, "checked ./site");
        assert_eq!(
            fs::read_to_string(&secret).unwrap(),
            "precious: not fairdice's\n"
        );
    }

    // The site folder itself a link to a faithful copy.
    let dir = built_site();
    let copy = outside.path().join("copy");
    fs::rename(dir.path().join("site"), &copy).unwrap();
    symlink(&copy, dir.path().join("site")).unwrap();
    says(
        &["build", "--check"],
        dir.path(),
        1,
        "not a regular file: ./site",
    );
}

// Item: the cache is never evidence for a check.

/// The single entry of the cache in `dir`: its path and its four parts.
fn only_entry(dir: &Path) -> (PathBuf, Vec<Vec<u8>>) {
    let mut paths: Vec<PathBuf> = fs::read_dir(dir.join(".fairdice-cache"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(paths.len(), 1, "{paths:?}");
    let path = paths.pop().unwrap();
    let bytes = fs::read(&path).unwrap();
    let parts = bytes
        .splitn(4, |&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    (path, parts)
}

fn fnv(bytes: &[u8]) -> String {
    let mut hash = fairdice::hash::Fnv::default();
    hash.write(bytes);
    hash.hex()
}

#[test]
fn a_forged_cache_entry_with_a_recomputed_checksum_never_passes_a_check() {
    let gate = "expect:\n  uniform: true\n";
    // The fair scenario's results, and the unfair scenario's key.
    let fair_dir = fixture(&[("content/s.yaml", &format!("{FAIR}{gate}"))]);
    build::build(&Project::at(fair_dir.path())).unwrap();
    let (_, fair) = only_entry(fair_dir.path());

    let dir = fixture(&[("content/s.yaml", &format!("{UNFAIR}{gate}"))]);
    says(&["build"], dir.path(), 1, "uniform is false");
    let (path, unfair) = only_entry(dir.path());
    // Forgery: the unfair key over the fair results, checksum recomputed.
    let forged = [&fair[0][..], &unfair[1], fnv(&fair[3]).as_bytes(), &fair[3]].join(&b'\n');
    fs::write(&path, forged).unwrap();
    // A local build may use its cache, and so publishes the forgery.
    says(&["build"], dir.path(), 0, "(0 computed, 1 cached)");
    for args in [&["check"][..], &["--verbose", "check"]] {
        let gate = "error: content/s.yaml:6:12: expect: case 1 (targets 10): uniform is false";
        let stderr = says(args, dir.path(), 1, gate);
        assert!(stderr.contains("stale: ./site/s.html"), "{stderr}");
    }
    says(&["build", "--check"], dir.path(), 1, "stale: ./site/s.json");

    // A subtler forgery: one count changed in the honest entry.
    let dir = fixture(&[("content/s.yaml", FAIR)]);
    says(&["build"], dir.path(), 0, "(1 computed, 0 cached)");
    let (path, parts) = only_entry(dir.path());
    let results = String::from_utf8(parts[3].clone()).unwrap();
    let tampered = results.replacen("\"1\"", "\"2\"", 1);
    assert_ne!(tampered, results);
    let forged = [
        &parts[0][..],
        &parts[1],
        fnv(tampered.as_bytes()).as_bytes(),
        tampered.as_bytes(),
    ]
    .join(&b'\n');
    fs::write(&path, forged).unwrap();
    says(&["build"], dir.path(), 0, "(0 computed, 1 cached)");
    says(&["check"], dir.path(), 1, "stale: ./site/s.json");
}

#[test]
fn checks_compute_afresh_and_write_no_cache() {
    let dir = built_site();
    fs::remove_dir_all(dir.path().join(".fairdice-cache")).unwrap();
    says(&["check"], dir.path(), 0, "(1 computed, 0 cached)");
    says(&["build", "--check"], dir.path(), 0, "up to date");
    assert!(!dir.path().join(".fairdice-cache").exists());
}

// Item: errors name the path the user asked for.

#[test]
fn write_errors_name_the_site_not_a_temporary_folder() {
    let dir = built_site();
    edit(dir.path());
    let site = dir.path().join("site");
    let files = build::render_site(&Project::at(dir.path())).unwrap().files;
    for failing in ["index.html", "fair.json", ".fairdice"] {
        let err = output::write_site_with(&site, &files, &|path: &Path, bytes: &[u8]| {
            if path.ends_with(failing) {
                return Err(std::io::Error::other("no space left (simulated)"));
            }
            fs::write(path, bytes)
        })
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            format!(
                "{}: no space left (simulated)",
                site.join(failing).display()
            )
        );
        assert!(temporaries(dir.path()).is_empty());
    }
}

// Item: cache temporaries.

#[test]
fn stale_cache_temporaries_are_removed_and_nothing_else() {
    let dir = built_site();
    let cache = dir.path().join(".fairdice-cache");
    // Process ids above the kernel's limit never run; 1 always does.
    let stale = [
        "0123456789abcdef.json.tmp-999999999-0",
        "fedcba9876543210.json.tmp-4294967295-17",
    ];
    let kept = [
        "0123456789abcdef.json.tmp-1-0",
        "notes.txt.tmp-999999999-0",
        "0123456789abcdef.json.tmp-999999999-x",
        "0123456789ABCDEF.json.tmp-999999999-0",
        "0123456789abcdef.json.tmp-999999999",
        "my-notes.md",
    ];
    for name in stale.iter().chain(&kept) {
        fs::write(cache.join(name), name).unwrap();
    }
    fs::create_dir(cache.join("aaaaaaaaaaaaaaaa.json.tmp-999999999-1")).unwrap();
    symlink(
        cache.join("my-notes.md"),
        cache.join("bbbbbbbbbbbbbbbb.json.tmp-999999999-2"),
    )
    .unwrap();
    // `check` changes nothing in the cache.
    says(&["check"], dir.path(), 0, "checked ./site");
    for name in stale {
        assert!(cache.join(name).exists(), "{name}");
    }
    says(&["build"], dir.path(), 0, "built ./site");
    for name in stale {
        assert!(!cache.join(name).exists(), "{name}");
    }
    for name in kept {
        assert_eq!(fs::read_to_string(cache.join(name)).unwrap(), name);
    }
    assert!(cache.join("aaaaaaaaaaaaaaaa.json.tmp-999999999-1").is_dir());
    assert!(fs::symlink_metadata(cache.join("bbbbbbbbbbbbbbbb.json.tmp-999999999-2")).is_ok());
}

#[test]
fn a_failed_cache_write_leaves_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = fairdice::scenario::parse("s.yaml", FAIR).unwrap();
    let key = Key::of(&scenario);
    let results = scenario.params.analyse(&Progress::hidden());
    let cache = Cache::at(dir.path());
    // The entry's name taken by a non-empty folder: the rename fails.
    write(
        &dir.path().join(key.file_name()),
        "x",
        "a folder in the way",
    );
    for _ in 0..3 {
        assert!(cache.store(&key, &results).is_err());
    }
    let names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(names, vec![key.file_name()]);
    // And a cache folder that is a file is an error, not a panic.
    let file = dir.path().join("plain");
    fs::write(&file, "x").unwrap();
    assert!(Cache::at(&file).store(&key, &results).is_err());
    assert_eq!(fs::read_to_string(&file).unwrap(), "x");
}
