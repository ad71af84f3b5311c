//! A build split across machines: `build --shard I/N` computes a share of
//! the scenarios into the cache, and `build --require-cached` over the
//! merged caches renders the same site without computing anything.

use crate::common::{fairdice, fixture, snapshot};
use fairdice::build::{self, Project};
use fairdice::cache::{Cache, Origin};
use fairdice::shard::{self, Shard};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The `fairdice init` starter: a scenario of every kind.
fn starter() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fairdice::init::init(dir.path()).unwrap();
    dir
}

/// The project at `root`, its cache in `cache` and its site in `out`.
fn project(root: &Path, cache: &str, out: &str) -> Project {
    Project {
        cache: Cache::at(root.join(cache)),
        out: root.join(out),
        ..Project::at(root)
    }
}

fn entry_names(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Copy every file of each shard's cache into `to`: merging is copying.
fn merge(from: &[PathBuf], to: &Path) {
    fs::create_dir_all(to).unwrap();
    for dir in from {
        for name in entry_names(dir) {
            fs::copy(dir.join(&name), to.join(&name)).unwrap();
        }
    }
}

/// Run shard `i` of `n` of `root` into the cache `cache`.
fn run_shard(root: &Path, cache: &str, i: u32, n: u32) -> shard::ShardSummary {
    let shard = Shard::new(i, n).unwrap();
    shard::build_shard(&project(root, cache, "unused-site"), shard).unwrap()
}

/// The final build over a merged cache, which must compute nothing.
fn render_cached(root: &Path, cache: &str, out: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let project = Project {
        require_cached: true,
        ..project(root, cache, out)
    };
    let summary = build::build(&project).unwrap();
    assert_eq!(summary.computed, 0, "nothing computed");
    assert_eq!(summary.cached, summary.scenarios);
    snapshot(&root.join(out))
}

#[test]
fn one_shard_and_four_shards_build_byte_identical_sites() {
    let dir = starter();
    let root = dir.path();

    let whole = run_shard(root, "cache-1", 1, 1);
    assert_eq!(whole.count(Origin::Computed), whole.scenarios);
    assert!(whole.scenarios >= 8, "the starter has a scenario per kind");
    let one = render_cached(root, "cache-1", "site-1");

    // Four machines, four caches, each with its own share.
    let mut caches = Vec::new();
    let mut computed = 0;
    for i in 1..=4 {
        let summary = run_shard(root, &format!("cache-4-{i}"), i, 4);
        assert_eq!(summary.count(Origin::Cached), 0);
        assert!(!summary.timings.is_empty(), "shard {i} has work");
        computed += summary.count(Origin::Computed);
        caches.push(root.join(format!("cache-4-{i}")));
    }
    assert_eq!(computed, whole.scenarios, "each scenario in one shard");
    let per_shard: Vec<BTreeSet<String>> = caches.iter().map(|c| entry_names(c)).collect();
    let all: BTreeSet<String> = per_shard.iter().flatten().cloned().collect();
    assert_eq!(all, entry_names(&root.join("cache-1")), "the same entries");
    assert_eq!(
        per_shard.iter().map(BTreeSet::len).sum::<usize>(),
        all.len(),
        "no entry computed twice"
    );
    assert!(!root.join("unused-site").exists(), "a shard writes no site");

    merge(&caches, &root.join("cache-4"));
    let four = render_cached(root, "cache-4", "site-4");
    assert_eq!(one, four, "byte-identical sites");

    // And both are the site a build without any cache writes.
    let fresh = Project {
        cache: Cache::disabled(),
        out: root.join("site-fresh"),
        ..Project::at(root)
    };
    build::build(&fresh).unwrap();
    assert_eq!(one, snapshot(&root.join("site-fresh")));
}

fn small() -> tempfile::TempDir {
    fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nHello.\n"),
        (
            "content/a.yaml",
            "title: A\nkind: sum-mod\ndice: d6\ntargets: [2, 3]\n",
        ),
        (
            "content/b.yaml",
            "title: B\nkind: sum-mod\ndice: 2d6\ntargets: [2, 3]\n",
        ),
        (
            "content/c.yaml",
            "title: C\nkind: sum-mod\ndice: 3d6\ntargets: [4]\n",
        ),
    ])
}

#[test]
fn require_cached_names_every_missing_scenario_and_computes_nothing() {
    let dir = small();
    let root = dir.path();
    let shard = run_shard(root, "cache", 1, 2);
    let done: Vec<&str> = shard.timings.iter().map(|(s, _, _)| s.as_str()).collect();
    let before = entry_names(&root.join("cache"));

    let project = Project {
        require_cached: true,
        ..project(root, "cache", "site")
    };
    let err = build::build(&project).unwrap_err().to_string();
    for source in ["a.yaml", "b.yaml", "c.yaml"] {
        let named = err.contains(&format!("content/{source}: --require-cached"));
        assert_eq!(named, !done.contains(&source), "{source}: {err}");
    }
    assert!(err.contains("no entry"), "{err}");
    assert!(!root.join("site").exists(), "no site written");
    assert_eq!(before, entry_names(&root.join("cache")), "nothing computed");

    // The other shard completes the cache.
    run_shard(root, "cache", 2, 2);
    render_cached(root, "cache", "site");
}

/// The second line of an entry, the key it was stored for, edited.
fn edit_stored_key(path: &Path, edit: impl Fn(&str) -> String) {
    let bytes = fs::read(path).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let mut lines: Vec<&str> = text.splitn(4, '\n').collect();
    let key: String = serde_json::from_str(lines[1]).unwrap();
    let forged = serde_json::to_string(&edit(&key)).unwrap();
    lines[1] = &forged;
    fs::write(path, lines.join("\n")).unwrap();
}

#[test]
fn a_merged_entry_that_does_not_match_its_key_is_never_used() {
    let dir = small();
    let root = dir.path();
    run_shard(root, "cache", 1, 1);
    let good = render_cached(root, "cache", "site");
    let names: Vec<String> = entry_names(&root.join("cache")).into_iter().collect();
    let entry = |i: usize| root.join("cache").join(&names[i]);
    let required = Project {
        require_cached: true,
        ..project(root, "cache", "site")
    };

    // Another scenario's entry under this one's name: another key.
    fs::copy(entry(1), entry(0)).unwrap();
    let err = build::build(&required).unwrap_err().to_string();
    assert!(
        err.contains("an entry stored for other parameters"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one scenario named: {err}");
    // A plain build recomputes it (and the site is as before).
    let summary = build::build(&project(root, "cache", "site")).unwrap();
    assert_eq!((summary.computed, summary.cached), (1, 2));
    assert_eq!(good, snapshot(&root.join("site")));

    // An entry claiming another fairdice version (results untouched, so
    // its checksum still holds): refused by its version.
    edit_stored_key(&entry(2), |key| {
        let (_version, rest) = key.split_once('\n').unwrap();
        format!("fairdice 0.0.1+forged\n{rest}")
    });
    let err = build::build(&required).unwrap_err().to_string();
    assert!(
        err.contains("an entry computed by fairdice 0.0.1+forged, not "),
        "{err}"
    );
    let summary = build::build(&project(root, "cache", "site")).unwrap();
    assert_eq!((summary.computed, summary.cached), (1, 2));

    // Results edited by hand, key intact: the checksum fails.
    let mut bytes = fs::read(entry(1)).unwrap();
    let body = bytes.iter().enumerate().filter(|(_, &b)| b == b'\n').nth(2);
    let start = body.unwrap().0;
    let digit = (bytes.iter().skip(start))
        .position(u8::is_ascii_digit)
        .unwrap();
    bytes[start + digit] = if bytes[start + digit] == b'7' {
        b'8'
    } else {
        b'7'
    };
    fs::write(entry(1), bytes).unwrap();
    let err = build::build(&required).unwrap_err().to_string();
    assert!(err.contains("do not match their checksum"), "{err}");
    build::build(&project(root, "cache", "site")).unwrap();
    assert_eq!(good, render_cached(root, "cache", "site"));
}

#[test]
fn the_command_line_runs_shards_into_one_cache_and_renders_from_it() {
    let dir = small();
    let root = dir.path();
    for i in 1..=4 {
        let out = fairdice(&["build", "--shard", &format!("{i}/4")], root);
        assert_eq!(out.status.code(), Some(0), "{}", out.stderr_text());
        let stderr = out.stderr_text();
        assert!(stderr.contains(&format!("shard {i}/4: ")), "{stderr}");
        assert!(stderr.contains("no site written"), "{stderr}");
        assert!(!root.join("site").exists());
    }
    assert_eq!(entry_names(&root.join(".fairdice-cache")).len(), 3);
    let out = fairdice(&["build", "--require-cached"], root);
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr_text());
    assert!(out.stderr_text().contains("(0 computed, 3 cached)"));
    assert!(root.join("site/a.html").is_file());

    let out = fairdice(&["build", "--require-cached", "--no-cache"], root);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_bad_shard_is_a_usage_error_that_says_how_to_write_one() {
    let dir = small();
    for (value, says) in [
        ("2", "write I/N, such as 2/4"),
        ("0/4", "I must be from 1 to 4"),
        ("5/4", "I must be from 1 to 4"),
        ("1/0", "N must be at least 1"),
        ("1/1000", "N may be at most 256"),
    ] {
        let out = fairdice(&["build", "--shard", value], dir.path());
        assert_eq!(out.status.code(), Some(2), "{value}");
        assert!(
            out.stderr_text().contains(says),
            "{value}: {}",
            out.stderr_text()
        );
    }
    for other in ["--check", "--no-cache", "--require-cached"] {
        let out = fairdice(&["build", "--shard", "1/2", other], dir.path());
        assert_eq!(out.status.code(), Some(2), "{other}");
    }
    assert!(!dir.path().join(".fairdice-cache").exists());
    let help = fairdice(&["build", "--help"], dir.path());
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--shard <I/N>"), "{help}");
    assert!(help.contains("--require-cached"), "{help}");
}

/// The documented workflow runs the commands this suite tests, over a
/// matrix whose size is the N every shard is given.
#[test]
fn the_documented_workflow_shards_merges_and_requires_the_cache() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let text = fs::read_to_string(docs.join("ci/sharded-build.yml")).unwrap();
    let workflow: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let jobs = &workflow["jobs"];
    let shards = jobs["shard"]["strategy"]["matrix"]["shard"]
        .as_sequence()
        .unwrap();
    assert!(shards.len() > 1);
    let steps = |job: &str| -> String { serde_yaml::to_string(&jobs[job]["steps"]).unwrap() };
    let shard = steps("shard");
    assert!(
        shard.contains("build --shard ${{ matrix.shard }}/${{ strategy.job-total }}"),
        "{shard}"
    );
    assert!(shard.contains("include-hidden-files: true"), "{shard}");
    assert!(shard.contains("path: .fairdice-cache/"), "{shard}");
    let site = steps("site");
    assert!(site.contains("merge-multiple: true"), "{site}");
    assert!(site.contains("path: .fairdice-cache"), "{site}");
    assert!(site.contains("build --require-cached"), "{site}");
    assert!(site.contains("fetch-depth: 0"), "{site}");
    let reference = fs::read_to_string(docs.join("reference.md")).unwrap();
    assert!(reference.contains("(ci/sharded-build.yml)"));
}
