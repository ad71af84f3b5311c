//! The JSON contract of every kind, as users script against it: `fairdice
//! eval --json` on one scenario per kind must print exactly what the
//! hand-written exporter printed before results became typed (the snapshots
//! in `contract/` were made by that exporter). A change here is a breaking
//! change for users' scripts: make it on purpose, and say so in the release.

use std::path::Path;
use std::process::Command;

fn eval_json(scenario: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suite/contract");
    let out = Command::new(env!("CARGO_BIN_EXE_fairdice"))
        .current_dir(&dir)
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

fn snapshot(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suite/contract")
        .join(name);
    std::fs::read_to_string(path).expect("snapshot")
}

#[test]
fn every_kind_keeps_its_json_contract() {
    let cases = [
        (
            "sum-mod",
            "content/targets/seed-tables.yaml",
            "seed-tables.json",
        ),
        ("reroll", "content/rules/banishing.yaml", "banishing.json"),
        (
            "first-player",
            "content/rules/first-player.yaml",
            "first-player.json",
        ),
        ("shuffle", "content/rules/shuffling.yaml", "shuffling.json"),
        (
            "race",
            "content/games/two-d6-picks-2.yaml",
            "two-d6-picks-2.json",
        ),
        ("race", "content/games/original.yaml", "original.json"),
        (
            "die-test",
            "content/observed/die-test.yaml",
            "die-test.json",
        ),
        (
            "seat-advantage",
            "content/observed/seat-advantage.yaml",
            "seat-advantage.json",
        ),
        (
            "dice",
            "content/dice/ability-scores.yaml",
            "ability-scores.json",
        ),
    ];
    for kind in fairdice::kinds::names() {
        assert!(
            cases.iter().any(|(k, _, _)| *k == kind),
            "kind {kind} has no JSON contract snapshot here"
        );
    }
    for (kind, scenario, expected) in cases {
        let printed = eval_json(scenario);
        assert!(
            printed.contains(&format!("\"kind\": \"{kind}\"")),
            "{scenario}"
        );
        assert!(
            printed == snapshot(expected),
            "{scenario}: `fairdice eval --json` differs from contract/{expected}"
        );
    }
}
