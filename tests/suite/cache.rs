//! The result cache: hits, misses after an edit, and entries that must not
//! be trusted.

use crate::common::{fixture, snapshot, write};
use fairdice::build::{self, Project};
use fairdice::cache::Cache;
use std::fs;
use std::path::Path;

fn files() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "content/_index.md",
            "---\ntitle: Home\n---\nTen targets: {{ value(scenario=\"ten\", path=\"cases.0.fairness.tvd\") }}\n",
        ),
        (
            "content/ten.yaml",
            "title: Ten\nkind: sum-mod\ndice: d6\ntargets: [10, 12]\n",
        ),
        (
            "content/small.yaml",
            "title: Small\nkind: sum-mod\ndice: d6\ntargets: [2, 3]\n",
        ),
    ]
}

fn counts(project: &Project) -> (usize, usize) {
    let summary = build::build(project).unwrap();
    (summary.computed, summary.cached)
}

fn entries(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut paths: Vec<_> = fs::read_dir(dir.join(".fairdice-cache"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths
}

#[test]
fn a_rebuild_reuses_every_result_and_writes_the_same_site() {
    let dir = fixture(&files());
    let project = Project::at(dir.path());
    assert_eq!(counts(&project), (2, 0), "first build computes");
    let first = snapshot(&dir.path().join("site"));
    assert_eq!(entries(dir.path()).len(), 2);

    assert_eq!(counts(&project), (0, 2), "second build hits the cache");
    assert_eq!(first, snapshot(&dir.path().join("site")));

    // Cached results render byte for byte like fresh ones (floats included).
    let uncached = Project {
        cache: Cache::disabled(),
        out: dir.path().join("fresh"),
        ..project.clone()
    };
    assert_eq!(counts(&uncached), (2, 0));
    assert_eq!(first, snapshot(&dir.path().join("fresh")));
}

#[test]
fn an_edit_recomputes_only_what_changed() {
    let dir = fixture(&files());
    let project = Project::at(dir.path());
    counts(&project);

    write(
        dir.path(),
        "content/_index.md",
        "---\ntitle: Home again\n---\nNo figures.\n",
    );
    assert_eq!(counts(&project), (0, 2), "a page edit computes nothing");

    write(
        dir.path(),
        "content/small.yaml",
        "title: Small\nkind: sum-mod\ndice: d6\ntargets: [2, 3, 4]\n",
    );
    assert_eq!(
        counts(&project),
        (1, 1),
        "one scenario edited, one computed"
    );
    let page = fs::read_to_string(dir.path().join("site/small.html")).unwrap();
    assert!(page.contains("4 targets"), "the new case is on the page");

    write(
        dir.path(),
        "content/small.yaml",
        "title: Renamed # only words changed\nkind: sum-mod\ndice: d6\ntargets: [2, 3, 4]\n",
    );
    assert_eq!(counts(&project), (0, 2), "a new title reuses the results");
}

#[test]
fn corrupt_and_mismatched_entries_are_recomputed_not_trusted() {
    let dir = fixture(&files());
    let project = Project::at(dir.path());
    counts(&project);
    let good = snapshot(&dir.path().join("site"));
    let paths = entries(dir.path());

    // Truncated JSON.
    let bytes = fs::read(&paths[0]).unwrap();
    fs::write(&paths[0], &bytes[..bytes.len() / 2]).unwrap();
    assert_eq!(counts(&project), (1, 1));
    assert_eq!(good, snapshot(&dir.path().join("site")));
    assert_eq!(
        fs::read(&paths[0]).unwrap(),
        bytes,
        "the entry is rewritten"
    );

    // A well-formed entry stored under the other scenario's name: its key
    // does not match, so it must not be used.
    let other = fs::read(&paths[1]).unwrap();
    fs::write(&paths[0], &other).unwrap();
    assert_eq!(counts(&project), (1, 1));
    assert_eq!(good, snapshot(&dir.path().join("site")));

    // Results edited by hand (still valid JSON, key intact), and an empty file.
    let text = String::from_utf8(other).unwrap();
    let tampered = text.replacen("\"ways\":\"1\"", "\"ways\":\"2\"", 1);
    assert_ne!(tampered, text);
    fs::write(&paths[1], tampered).unwrap();
    fs::write(&paths[0], "").unwrap();
    assert_eq!(counts(&project), (2, 0));
    assert_eq!(good, snapshot(&dir.path().join("site")));
}

#[test]
fn no_cache_reads_and_writes_nothing() {
    let dir = fixture(&files());
    let project = Project {
        cache: Cache::disabled(),
        ..Project::at(dir.path())
    };
    assert_eq!(counts(&project), (2, 0));
    assert_eq!(counts(&project), (2, 0));
    assert!(!dir.path().join(".fairdice-cache").exists());
}

#[test]
fn the_cache_holds_exact_results_and_never_a_formatted_number() {
    let dir = fixture(&files());
    let project = Project::at(dir.path());
    assert_eq!(counts(&project), (2, 0));
    let exported: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.path().join("site/ten.json")).unwrap()).unwrap();
    let stored: Vec<serde_json::Value> = entries(dir.path())
        .iter()
        .map(|path| {
            let bytes = fs::read(path).unwrap();
            // Format line, key, checksum, then the typed results as JSON.
            let body = bytes.splitn(4, |&b| b == b'\n').nth(3).unwrap();
            serde_json::from_slice(body).unwrap()
        })
        .collect();
    assert!(
        stored.contains(&exported["results"]),
        "an entry is exactly the scenario's exact results"
    );
    for entry in &stored {
        let text = entry.to_string();
        for display in ["\"shown\"", "\"blocks\"", "\"caption\"", "×"] {
            assert!(!text.contains(display), "a cache entry holds {display}");
        }
    }
}

#[test]
fn a_change_in_how_a_number_is_shown_reaches_the_page_through_the_cache() {
    let dir = fixture(&files());
    let project = Project::at(dir.path());
    assert_eq!(counts(&project), (2, 0));
    let home = || fs::read_to_string(dir.path().join("site/index.html")).unwrap();
    let before = home();
    // The same figure, shown as a percentage: layout and rendering run
    // again on the cached results.
    write(
        dir.path(),
        "content/_index.md",
        "---\ntitle: Home\n---\nTen targets: {{ value(scenario=\"ten\", path=\"cases.0.fairness.tvd\", format=\"percent\") }}\n",
    );
    assert_eq!(counts(&project), (0, 2), "the results come from the cache");
    let after = home();
    assert_ne!(before, after);
    let decimal = before.split("<p>Ten targets: ").nth(1).unwrap();
    let percent = after.split("<p>Ten targets: ").nth(1).unwrap();
    assert!(
        !decimal.split('<').next().unwrap().contains('%'),
        "{decimal}"
    );
    assert!(
        percent.split('<').next().unwrap().ends_with('%'),
        "{percent}"
    );
}
