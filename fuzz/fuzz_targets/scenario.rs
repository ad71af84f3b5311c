//! Any bytes as a scenario file: a scenario or a located error, never a
//! panic, a hang or unbounded memory. Accepted scenarios are analysed too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(scenario) = fairdice::scenario::parse("fuzz.yaml", text) {
        // Only cheap scenarios are run, so the fuzzer keeps its pace.
        if scenario.params.cost().seconds < 0.05 {
            let results = scenario
                .params
                .analyse(&fairdice::progress::Progress::hidden());
            let _ = results.page();
        }
    }
});
