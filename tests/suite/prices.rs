//! Issue 42, item 1, for the scenario kinds: every scenario under
//! `content/` priced against its computation in release, on a generous
//! scale (10x both ways where the time is long enough to measure). The
//! dice language's own test counts operations instead
//! (`src/lang/dice/check/work.rs`). Run with
//! `cargo test --release --test suite prices -- --ignored --nocapture`.

use fairdice::limits::Budget;
use fairdice::progress::Progress;
use std::path::Path;
use std::time::Instant;

#[test]
#[ignore = "a benchmark: run in release"]
fn every_scenario_is_priced_within_ten_times_its_time() {
    let budget = Budget::new(1000.0);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let content = fairdice::content::load_with_budget(&root, &budget)
        .unwrap_or_else(|e| panic!("content/: {e}"));
    let mut off = Vec::new();
    for scenario in &content.scenarios {
        measure(scenario, &mut off);
    }
    assert!(off.is_empty(), "{}", off.join("\n"));
}

/// The die test's power search by the die's faces, from a coin to a d20,
/// and loaded dice: its price is by faces, so each size is measured.
#[test]
#[ignore = "a benchmark: run in release"]
fn die_tests_of_every_size_are_priced_within_ten_times_their_time() {
    let budget = Budget::new(1000.0);
    let mut off = Vec::new();
    let dice: Vec<(String, String)> = [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 20]
        .iter()
        .map(|&f| (format!("d{f}"), vec!["30"; f].join(", ")))
        .chain([
            ("d{1,1,1,1,1,2}".to_string(), "100, 20".to_string()),
            (
                "d{1,2,3,4,5,6,6}".to_string(),
                "10, 10, 10, 10, 10, 20".to_string(),
            ),
            ("d6".to_string(), "5, 5, 4, 4, 4, 4".to_string()),
        ])
        .collect();
    for (die, counts) in dice {
        let yaml = format!("title: t\nkind: die-test\ndie: \"{die}\"\ncounts: [{counts}]\n");
        let scenario =
            fairdice::scenario::parse_with_budget(&format!("{die}.yaml"), &yaml, &budget)
                .unwrap_or_else(|e| panic!("{die}: {e}"));
        measure(&scenario, &mut off);
    }
    assert!(off.is_empty(), "{}", off.join("\n"));
}

/// Prices and runs one scenario; a line in `off` when the price is not
/// within 10 times of the time taken.
fn measure(scenario: &fairdice::scenario::Scenario, off: &mut Vec<String>) {
    let priced = scenario.params.cost().seconds;
    let start = Instant::now();
    let json = scenario
        .params
        .analyse(&Progress::hidden())
        .to_json()
        .to_string();
    let took = start.elapsed().as_secs_f64();
    assert!(!json.is_empty());
    let what = format!("{} [{}]", scenario.source, scenario.params.kind());
    let ratio = priced / took;
    eprintln!("{what:50} priced {priced:9.4} s  took {took:9.4} s  x{ratio:.2}");
    if !fairdice::limits::priced_fairly(priced, took) {
        off.push(format!("{what}: priced {priced:.4} s, took {took:.4} s"));
    }
}
