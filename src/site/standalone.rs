//! `fairdice report`: one scenario as one self-contained HTML file, to mail,
//! attach to a ruling or archive. Styles are inlined, charts are inline SVG,
//! and the CSV and JSON data travel inside `data:` links, so the file opens
//! anywhere with nothing beside it.

use super::nav::Nav;
use super::{scenario_json, Computed, CsvLink, Renderer};
use crate::content::Content;
use crate::error::{Error, Result};
use crate::layout::blocks::Table;
use crate::layout::csv::csv;
use crate::paths;
use crate::scenario::Scenario;
use std::collections::BTreeMap;
use tera::Tera;

/// The templates and styles a report is made with, built into the program
/// so a report can be written outside any project.
const TEMPLATES: [(&str, &str); 3] = [
    ("report.html", include_str!("report.html")),
    ("blocks.html", include_str!("../../templates/blocks.html")),
    ("table.html", include_str!("../../templates/table.html")),
];
const STYLE: &str = include_str!("../../templates/assets/style.css");

/// The report of one computed scenario as a complete HTML document.
pub fn report_html(computed: &Computed) -> Result<String> {
    let tera = built_in_templates()?;
    with_renderer(&tera, computed, |renderer| {
        let scenario = computed.scenario;
        let (mut blocks, headings) =
            renderer.scenario_blocks(computed, &data_csv_link(scenario))?;
        // The verdict opens the report, above the scenario's YAML: once.
        blocks.retain(|block| block["type"] != "verdict");
        let json_doc = scenario_json(scenario, &computed.page);
        let json_text = serde_json::to_string_pretty(&json_doc).expect("JSON values serialise");

        let mut context = renderer.context(
            "report.html",
            &scenario.header.title,
            scenario.header.description.as_deref(),
            &headings,
        );
        context.insert("blocks", &blocks);
        context.insert("kind", scenario.params.kind());
        context.insert("source", &scenario.source);
        context.insert("style", STYLE);
        context.insert("json", &json_text);
        context.insert("json_href", &data_address("application/json", &json_text));
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

/// A scenario's blocks (headings, verdict, facts, tables, charts) as HTML,
/// exactly as its page shows them but with each table's CSV inside a
/// `data:` link, since no file beside the page holds it: what the
/// calculators in the page show.
pub(crate) fn blocks_html(computed: &Computed) -> Result<String> {
    let tera = built_in_templates()?;
    with_renderer(&tera, computed, |renderer| {
        let (blocks, _) = renderer.scenario_blocks(computed, &data_csv_link(computed.scenario))?;
        let mut context = tera::Context::new();
        context.insert("blocks", &blocks);
        renderer.render_template("blocks.html", &context)
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
        standalone: true,
    })
}

/// Each table's CSV as a `data:` address, saved under the name the site
/// gives the file.
fn data_csv_link(scenario: &Scenario) -> impl Fn(&Table) -> CsvLink + '_ {
    move |table: &Table| CsvLink {
        href: data_address("text/csv", &csv(table)),
        download: Some(paths::file_name(&paths::table_csv(&scenario.name, &table.id)).to_string()),
    }
}

/// `data:` address holding `text`, percent-encoded.
fn data_address(media_type: &str, text: &str) -> String {
    let mut out = format!("data:{media_type};charset=utf-8,");
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.~,/:=+".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_addresses_escape_what_urls_cannot_hold() {
        assert_eq!(
            data_address("text/csv", "a,b\n1/36,\"x y\"#%\n"),
            "data:text/csv;charset=utf-8,a,b%0A1/36,%22x%20y%22%23%25%0A"
        );
    }
}
