//! Any bytes as a language's catalogue of interface words
//! (`templates/i18n/xx.yaml`), then its number style and dates used on
//! text made of the same bytes: reading is refused or taken, respelling
//! and dating never panic.
#![no_main]

use fairdice::words::Catalogues;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(catalogues) = Catalogues::read(std::iter::once(("i18n/xx.yaml", data))) else { return };
    let words = catalogues.words("xx");
    let text = String::from_utf8_lossy(data);
    let _ = words.numbers.respell(&text);
    let _ = words.numbers.respell_markup(&text);
    let _ = words.date(&text);
    let _ = words.date("2026-11-23");
    let _ = catalogues.report(&["xx", "yy"]);
});
