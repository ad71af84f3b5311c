//! The JSON contract of every kind, as users script against it: `fairdice
//! eval --json` on each contract scenario must print exactly its snapshot
//! (the first snapshots were made by the hand-written exporter, before
//! results became typed). A change here is a breaking change for users'
//! scripts: make it on purpose, and say so in the release.
//!
//! The scenarios are found, not listed: every `contract/content/**/NAME.yaml`
//! is run from `contract/` and compared with `contract/NAME.json`. The kinds
//! come from the registry (`fairdice::kinds::names()`): a kind with no
//! contract scenario fails here, naming the two files to add.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One contract scenario: its path as `eval` is given it (relative to
/// `contract/`) and the name of its snapshot in `contract/`.
struct Case {
    scenario: String,
    snapshot: String,
}

fn contract_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suite/contract")
}

/// Every `.yaml` under `contract/content/`, sorted, with its snapshot name.
fn cases() -> Vec<Case> {
    let dir = contract_dir();
    let mut cases: Vec<Case> = walkdir::WalkDir::new(dir.join("content"))
        .into_iter()
        .map(|entry| entry.expect("read contract/content").into_path())
        .filter(|path| path.extension().is_some_and(|e| e == "yaml"))
        .map(|path| Case {
            snapshot: format!("{}.json", path.file_stem().unwrap().to_string_lossy()),
            scenario: path.strip_prefix(&dir).unwrap().to_string_lossy().into(),
        })
        .collect();
    cases.sort_by(|a, b| a.scenario.cmp(&b.scenario));
    cases
}

fn eval_json(scenario: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fairdice"))
        .current_dir(contract_dir())
        .args(["eval", scenario, "--json", "--quiet"])
        .output()
        .expect("run fairdice");
    assert!(
        out.status.success(),
        "{scenario}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 JSON")
}

/// The kind `eval --json` printed for its one scenario.
fn printed_kind(printed: &str) -> String {
    let json: serde_json::Value = serde_json::from_str(printed).expect("JSON");
    json["scenarios"][0]["kind"]
        .as_str()
        .expect("a kind")
        .to_string()
}

/// How to make the snapshot of `scenario`.
fn how_to_snapshot(scenario: &str, snapshot: &str) -> String {
    format!(
        "in tests/suite/contract/, run `fairdice eval {scenario} --json --quiet > {snapshot}` \
         and check the output by hand"
    )
}

/// Compare one scenario's output with its snapshot; the kind it printed.
fn check(case: &Case) -> String {
    let printed = eval_json(&case.scenario);
    let (scenario, snapshot) = (&case.scenario, &case.snapshot);
    let Ok(expected) = std::fs::read_to_string(contract_dir().join(snapshot)) else {
        panic!(
            "{scenario} has no snapshot contract/{snapshot}: {}",
            how_to_snapshot(scenario, snapshot)
        );
    };
    assert!(
        printed == expected,
        "{scenario}: `fairdice eval --json` differs from contract/{snapshot}"
    );
    printed_kind(&printed)
}

/// The message for each registered kind that no contract scenario covers.
fn uncovered(kinds: &[&str], covered: &BTreeSet<String>) -> Vec<String> {
    kinds
        .iter()
        .filter(|kind| !covered.contains(**kind))
        .map(|kind| {
            format!(
                "kind `{kind}` (src/kinds.rs) has no JSON contract snapshot: add a scenario \
                 tests/suite/contract/content/SECTION/NAME.yaml of kind {kind} (and any data \
                 file it reads, beside it), then its snapshot tests/suite/contract/NAME.json: {}",
                how_to_snapshot("content/SECTION/NAME.yaml", "NAME.json")
            )
        })
        .collect()
}

#[test]
fn every_kind_keeps_its_json_contract() {
    let cases = cases();
    let covered: BTreeSet<String> = cases.iter().map(check).collect();
    let missing = uncovered(&fairdice::kinds::names(), &covered);
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_snapshot_has_its_scenario_and_names_are_unique() {
    let cases = cases();
    let names: BTreeSet<&str> = cases.iter().map(|c| c.snapshot.as_str()).collect();
    assert_eq!(
        names.len(),
        cases.len(),
        "two contract scenarios share a name"
    );
    for entry in std::fs::read_dir(contract_dir()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            !name.ends_with(".json") || names.contains(name.as_str()),
            "contract/{name} is no scenario's snapshot: add content/SECTION/{}.yaml or remove it",
            name.trim_end_matches(".json")
        );
    }
}

#[test]
fn a_registered_kind_without_a_scenario_is_named_with_what_to_add() {
    let covered = BTreeSet::from(["sum-mod".to_string()]);
    let missing = uncovered(&["sum-mod", "new-kind"], &covered);
    assert_eq!(missing.len(), 1);
    assert!(missing[0].contains("kind `new-kind`"), "{}", missing[0]);
    assert!(missing[0].contains("tests/suite/contract/NAME.json"));
}
