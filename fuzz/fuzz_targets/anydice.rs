//! Any text as an AnyDice program, as `fairdice anydice` reads it: read,
//! priced before it runs (the static estimate, bounded by its own count of
//! nodes), then run within a twentieth of a second of budgeted work, and
//! every output's counts read. Never a panic, an abort or a hang: the
//! budget is counted in priced steps, so whatever is admitted finishes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let _ = fairdice::lang::anydice::check(source);
    let _ = fairdice::lang::anydice::price::estimate(source);
    if let Ok(report) = fairdice::lang::anydice::run(source, 0.05) {
        for output in &report.outputs {
            if let Some(outcomes) = &output.outcomes {
                let _ = (outcomes.total(), outcomes.iter().count());
            }
        }
    }
});
