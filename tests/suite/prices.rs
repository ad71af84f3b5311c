//! Issue 42, item 1, for the scenario kinds: every scenario under
//! `content/` priced against its computation in release, on a generous
//! scale (10x both ways where the time is long enough to measure). The
//! dice language's own test counts operations instead
//! (`src/analyses/dice_lang/check/work.rs`). Run with
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
        // Under 50 ms start-up and the clock dominate; die-test is priced
        // at its power search's cap of steps (19 s), which these files
        // stop far short of (about 1.2 s): left open in issue 42.
        let fair = if took < 0.05 {
            priced < 0.5
        } else if scenario.params.kind() == "die-test" {
            priced < 30.0
        } else {
            (0.1..=10.0).contains(&ratio)
        };
        if !fair {
            off.push(format!("{what}: priced {priced:.4} s, took {took:.4} s"));
        }
    }
    assert!(off.is_empty(), "{}", off.join("\n"));
}
