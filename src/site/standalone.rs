//! `fairdice report`: one scenario as one self-contained HTML file, to mail,
//! attach to a ruling or archive. Styles are inlined, charts are inline SVG,
//! and the CSV and JSON data travel inside `data:` links, so the file opens
//! anywhere with nothing beside it.

use super::nav::Nav;
use super::{scenario_json, Computed, Renderer};
use crate::content::Content;
use crate::error::{Error, Result};
use crate::html;
use crate::layout::blocks::Block;
use crate::paths;
use std::collections::BTreeMap;
use tera::Tera;

/// The templates and styles a report is made with, built into the program
/// so a report can be written outside any project.
const TEMPLATES: [(&str, &str); 1] = [("report.html", include_str!("report.html"))];
const STYLE: &str = include_str!("../../templates/assets/style.css");

/// The report of one computed scenario as a complete HTML document.
pub fn report_html(computed: &Computed) -> Result<String> {
    let tera = built_in_templates()?;
    with_renderer(&tera, computed, |renderer| {
        let scenario = computed.scenario;
        // The verdict opens the report, above the scenario's YAML: once.
        let blocks: Vec<Block> = (computed.page.blocks.iter())
            .filter(|block| !matches!(block, Block::Verdict { .. }))
            .cloned()
            .collect();
        let links = html::Standalone {
            scenario: &scenario.name,
        };
        let (blocks, headings) = html::blocks(&blocks, &links, &scenario.source)?;
        let json_text = scenario_json(scenario, &computed.page.results);

        let mut context = renderer.context(
            "report.html",
            &scenario.header.title,
            scenario.header.description.as_deref(),
            &headings,
        );
        context.insert("blocks_html", &blocks);
        context.insert("kind", scenario.params.kind());
        context.insert("source", &scenario.source);
        context.insert("style", STYLE);
        context.insert("json", &json_text);
        context.insert(
            "json_href",
            &html::data_address("application/json", &json_text),
        );
        context.insert(
            "json_download",
            paths::file_name(&paths::scenario_json(&scenario.name)),
        );
        context.insert("version", env!("CARGO_PKG_VERSION"));
        context.insert("verdict", &computed.page.verdict());
        context.insert("yaml", scenario.text.trim_end());
        renderer.render_template("report.html", &context)
    })
}

fn built_in_templates() -> Result<Tera> {
    let mut tera = Tera::new();
    tera.autoescape_on(vec![".html"]);
    tera.add_raw_templates(TEMPLATES)
        .map_err(|e| Error::Template {
            name: "report.html".into(),
            message: e.to_string(),
        })?;
    Ok(tera)
}

/// A renderer for one scenario alone: no site around it.
fn with_renderer<T>(tera: &Tera, computed: &Computed, work: impl FnOnce(&Renderer) -> T) -> T {
    let nav = Nav::new(&Content::default(), std::slice::from_ref(computed));
    work(&Renderer {
        tera,
        nav: &nav,
        site_title: &computed.scenario.header.title,
        scenarios: &BTreeMap::new(),
        book: &Default::default(),
        history: &Default::default(),
        terms: None,
        glossary: &[],
        meta: &super::Meta::default(),
        failed: &Default::default(),
        unreleased: &Default::default(),
        translations: &Default::default(),
        lang: None,
        words: crate::words::Catalogues::builtin(),
    })
}
