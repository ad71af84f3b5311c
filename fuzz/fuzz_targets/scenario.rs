//! Any bytes as a scenario file of any kind: a scenario or a located error,
//! never a panic, an abort or a hang. Accepted scenarios the price admits
//! under a small budget are analysed, laid out, written as JSON and
//! replayed for a few trials by the simulator `verify` uses.
#![no_main]

use fairdice::layout::Alone;
use fairdice::progress::Progress;
use libfuzzer_sys::fuzz_target;

/// Only cheap scenarios are run, so the fuzzer keeps its pace.
const SECONDS: f64 = 0.05;
/// Peak memory a run scenario may be estimated at.
const BYTES: f64 = 64e6;
/// Simulated steps an input may take, as `verify` estimates them.
const SIMULATED_STEPS: f64 = 1e5;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(scenario) = fairdice::scenario::parse("fuzz.yaml", text) else { return };
    let cost = scenario.params.cost();
    if !(cost.seconds < SECONDS && cost.bytes < BYTES) {
        return;
    }
    let results = scenario.params.analyse(&Progress::hidden());
    let _ = results.page(&Alone);
    let mut json = Vec::new();
    results.write_json(&mut json, 0).expect("writes to memory");
    for experiment in results.simulation().experiments {
        let trials = (SIMULATED_STEPS / experiment.steps_per_trial.max(1.0)).min(16.0) as u64;
        if trials > 0 {
            assert_eq!(experiment.run(trials, 1, "fuzz").trials, trials);
        }
    }
});
