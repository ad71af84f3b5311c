//! Any bytes as the one page of a site that also holds one scenario: the
//! whole render (front matter, shortcodes, links, templates) in memory.
#![no_main]

use fairdice::content::{parse_page, Content};
use fairdice::site::{self, Computed};
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::sync::OnceLock;

struct Fixture {
    templates: site::Templates,
    scenario: fairdice::scenario::Scenario,
    page: fairdice::layout::ScenarioPage,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let templates = Path::new(env!("CARGO_MANIFEST_DIR")).join("../templates");
        let templates = site::load_templates(&templates).expect("templates load");
        let scenario = fairdice::scenario::parse("targets.yaml", "title: T\nkind: sum-mod\ndice: d6\ntargets: [2, 10]\n")
            .expect("fixture scenario");
        let page = scenario.analyse(&fairdice::progress::Progress::hidden()).page(&fairdice::layout::Alone);
        Fixture { templates, scenario, page }
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(page) = parse_page("page.md", text, "content/") else { return };
    let fixture = fixture();
    let content = Content { pages: vec![page], scenarios: vec![fixture.scenario.clone()], ..Default::default() };
    let computed = [Computed { scenario: &fixture.scenario, page: fixture.page.clone() }];
    let _ = site::render(&content, &computed, &fixture.templates, &Default::default());
});
