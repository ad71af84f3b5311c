//! Any text as the two small languages an author writes inside files: a
//! scenario's `expect:` gates (bounds as decimals, fractions, exponents) and
//! `{{ shortcode(...) }}` calls in a page. Each gives a value or a located
//! error, in time linear in its length: never a panic, a hang or unbounded
//! memory.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize)]
struct Gated {
    expect: fairdice::gates::Expect,
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // A bound on its own, and a whole `expect:` block around the text.
    let _ = fairdice::gates::parse_exact(text);
    let block = format!("expect:\n  tvd: {text}\n");
    if let Ok(gated) = serde_yaml::from_str::<Gated>(&block) {
        let results = json!({"cases": [{"targets": 2, "tvd": "1/3", "uniform": false}]});
        let _ = fairdice::gates::check(&gated.expect, &results);
    }
    if let Ok(gated) = serde_yaml::from_str::<Gated>(text) {
        let results = json!({"cases": [{"tvd": "0/1", "nested": {"margin": "-5/7"}}]});
        for failure in fairdice::gates::check(&gated.expect, &results) {
            let _ = fairdice::gates::locate(text, &failure.figure);
        }
    }
    // Shortcodes, found in any page text, with and without literal spans.
    let _ = fairdice::shortcodes::find(text, 1, &[]);
    let half = text.len() / 2;
    if text.is_char_boundary(half) {
        let _ = fairdice::shortcodes::find(text, 7, &[0..half]);
    }
});
