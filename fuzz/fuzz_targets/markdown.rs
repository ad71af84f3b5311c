//! Any text as a page body through the markdown pipeline (shortcodes,
//! headings, links), with shortcodes answered by a stand-in.
#![no_main]

use fairdice::markdown;
use fairdice::shortcodes::{Call, Expand, Expansion};
use libfuzzer_sys::fuzz_target;

struct Echo;

impl Expand for Echo {
    fn expand(&self, call: &Call) -> Result<Expansion, String> {
        match call.name.as_str() {
            "value" => Ok(Expansion::Inline(call.arg("path")?.to_string())),
            "table" | "chart" => Ok(Expansion::Block(format!("<div>{}</div>", call.name))),
            other => Err(format!("unknown shortcode {other}")),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(rendered) = markdown::render(text, 1, &Echo) {
        // Marks used for shortcodes never leak into the page.
        assert!(!rendered.html.contains('\u{E000}') || text.contains('\u{E000}'));
    }
});
