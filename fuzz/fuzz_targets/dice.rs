//! Any text as dice expressions, one a line, as `fairdice roll` reads them
//! (in Roll20's notation after a first line `roll20`):
//! parsed, checked and priced under a small budget, and what the price
//! admits is computed (the JSON contract and the terminal table) and
//! rolled by the simulator `verify --simulate` uses. Never a panic, an
//! abort or a hang: whatever the price admits finishes.
#![no_main]

use fairdice::analyses::dice::{Dice, Notation};
use fairdice::analyses::simulate::Simulate;
use fairdice::analyses::{Analysis, Budget};
use fairdice::progress::Progress;
use fairdice::roll_command;
use libfuzzer_sys::fuzz_target;

/// A hundredth of the default budget: 0.3 s and 2.56 MB an input.
const BUDGET: Budget = Budget::new(0.01);
/// Simulated dice an input may roll, as `verify` estimates them.
const SIMULATED_STEPS: f64 = 1e6;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // An optional first line `depth N` sets the explosion depth.
    let mut lines: Vec<&str> = text.lines().collect();
    let mut depth = None;
    if let Some(rest) = lines.first().and_then(|l| l.strip_prefix("depth ")) {
        depth = rest.trim().parse::<u32>().ok();
        lines.remove(0);
    }
    // An optional line `roll20` reads Roll20's notation.
    let mut notation = Notation::Standard;
    if lines.first() == Some(&"roll20") {
        notation = Notation::Roll20;
        lines.remove(0);
    }
    let expressions: Vec<String> = lines.iter().take(4).map(|l| l.to_string()).collect();
    let Ok(params) = roll_command::prepare_in(&expressions, depth, notation, &BUDGET) else {
        return;
    };
    let progress = Progress::hidden();
    let mut json = Vec::new();
    roll_command::write_json(&params, &progress, &mut json).expect("writes to memory");
    let _ = roll_command::text(&params, 80, &progress);
    // The simulator, for as many trials as its estimate allows.
    let analysed = Dice::analyse(&params, &progress);
    for experiment in Dice::simulation(&params, &analysed).experiments {
        let trials = (SIMULATED_STEPS / experiment.steps_per_trial.max(1.0)).min(64.0) as u64;
        if trials > 0 {
            let tally = experiment.run(trials, 1, "fuzz");
            assert_eq!(tally.trials, trials);
        }
    }
});
