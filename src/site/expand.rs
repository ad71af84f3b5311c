//! What each shortcode expands to: a value, a table or a chart of a scenario.

use super::{Computed, Renderer};
use crate::charts;
use crate::html;
use crate::layout::format;
use crate::paths;
use crate::rulebook::made::Made;
use crate::shortcodes::{Call, Expand, Expansion};

/// Resolves shortcodes for one page (links are relative to it).
pub struct Expander<'a, 'r> {
    pub(super) renderer: &'a Renderer<'r>,
    /// The page's output path, which links are written from.
    pub(super) output: String,
    /// Table ids already on the page: a second table of the same id (from
    /// another scenario) is prefixed with its scenario, so ids stay unique
    /// while the first keeps the id authors link to.
    pub(super) table_ids: std::cell::RefCell<std::collections::BTreeSet<String>>,
}

impl Expand for Expander<'_, '_> {
    fn word(&self, key: &str) -> Option<String> {
        self.renderer.words().words.get(key).map(|w| w.to_string())
    }

    fn expand(&self, call: &Call) -> Result<Expansion, String> {
        if call.name == "rule" {
            return self.rule(call);
        }
        if let Some(made) = made(call)? {
            return (self.renderer)
                .made_html(&made, &self.output)
                .map(Expansion::Block);
        }
        let name = call.arg("scenario")?;
        if self.renderer.failed.contains(name) {
            // The scenario's own error is reported; this page's reference
            // to it is not a second one.
            return Ok(Expansion::Inline(String::new()));
        }
        let computed = self.renderer.scenarios.get(name).ok_or_else(|| {
            let known: Vec<&str> = self.renderer.scenarios.keys().copied().collect();
            format!(
                "{}(...): no scenario {name:?}; scenarios are named by their path in content/ without .yaml: {}",
                call.name,
                known.join(", ")
            )
        })?;
        let scenario_href = paths::href(
            &self.output,
            &paths::scenario_output(&computed.scenario.name),
        );
        match call.name.as_str() {
            "value" => {
                let path = call.arg("path")?;
                let value =
                    crate::gates::at_path(&computed.page.results, path).ok_or_else(|| {
                        format!(
                            "value(...): scenario {name:?} has no result at {path:?}; {}",
                            nearest_paths(&computed.page.results, path)
                        )
                    })?;
                let style = call.args.get("format").map_or("decimal", String::as_str);
                let numbers = &self.renderer.words().numbers;
                format::contract_value(value, style)
                    .map(|shown| Expansion::Inline(numbers.respell(&shown)))
                    .map_err(|e| format!("value(...) at {path:?}: {e}"))
            }
            "table" => self.table(call, name, computed, &scenario_href),
            "chart" => {
                let id = call.arg("id")?;
                let chart = computed.page.chart(id).ok_or_else(|| {
                    let ids = computed.page.charts().map(|c| c.id.as_str());
                    format!(
                        "chart(...): scenario {name:?} has no chart {id:?}; {}",
                        it_has(ids, "charts")
                    )
                })?;
                // Prefixed by the scenario, so two scenarios' charts of the same
                // id on one page keep distinct SVG ids for screen readers.
                let mut chart = chart.clone();
                chart.id = format!("{}-{}", crate::html::anchors::slugify(name), chart.id);
                let words = self.renderer.words();
                words.chart(&mut chart);
                let data = chart
                    .table_id
                    .as_ref()
                    .map(|t| format!("{scenario_href}#table-{t}"));
                let link = data.as_deref().map(|href| charts::DataLink {
                    href,
                    label: words.word("data_table"),
                });
                let figure = charts::render_figure(&chart, link).map_err(|e| e.to_string())?;
                Ok(Expansion::Block(words.numbers.respell_markup(&figure)))
            }
            other => Err(format!(
                "unknown shortcode {other:?}: expected value, table, chart or rule"
            )),
        }
    }
}

impl Expander<'_, '_> {
    /// `rule(key=...)`: a link to the rule, named by its number.
    fn rule(&self, call: &Call) -> Result<Expansion, String> {
        let key = call.arg("key")?;
        if self.renderer.book.get(key).is_none() && !self.renderer.book.is_complete() {
            // Perhaps a rule of a page that failed: its error is reported.
            return Ok(Expansion::Inline(String::new()));
        }
        let placed = self.renderer.book.get(key).ok_or_else(|| {
            format!(
                "rule(...): no rule has the key {key:?}; {}",
                self.renderer.book.known_keys()
            )
        })?;
        // In a translation, to the rule's page in the same language when
        // there is one (every rule of its source has its id there).
        let translated = self.renderer.lang.and_then(|lang| {
            let translations = self.renderer.translations;
            translations.of(&placed.source).find(|t| t.lang == lang)
        });
        let href = match translated {
            Some(t) => format!("{}#{}", paths::href(&self.output, &t.output()), key),
            None => placed.href(&self.output),
        };
        let words = self.renderer.words();
        let text = words.word("rule_ref");
        Ok(Expansion::Link {
            text: text.replace("{number}", &placed.rule.number),
            href,
        })
    }

    /// `table(scenario=..., id=...)`: the table with its CSV, and where it
    /// comes from.
    fn table(
        &self,
        call: &Call,
        name: &str,
        computed: &Computed,
        scenario_href: &str,
    ) -> Result<Expansion, String> {
        let id = call.arg("id")?;
        let table = computed.page.table(id).ok_or_else(|| {
            let ids = computed.page.tables().map(|t| t.id.as_str());
            format!(
                "table(...): scenario {name:?} has no table {id:?}; {}",
                it_has(ids, "tables")
            )
        })?;
        let csv = html::CsvLink {
            href: paths::href(
                &self.output,
                &paths::table_csv(&computed.scenario.name, &table.id),
            ),
            download: None,
        };
        let mut table = table.clone();
        if !self.table_ids.borrow_mut().insert(table.id.clone()) {
            table.id = format!("{}-{}", crate::html::anchors::slugify(name), table.id);
        }
        let words = self.renderer.words();
        words.table(&mut table);
        let html = words
            .numbers
            .respell_markup(&html::table_in(&table, &csv, words.table_words()));
        Ok(Expansion::Block(format!(
            "{html}<p class=\"source\">{} <a href=\"{scenario_href}\">{}</a>.</p>",
            crate::html::escape(words.word("from_scenario")),
            crate::html::escape(&computed.scenario.header.title)
        )))
    }
}

/// The list a rule-book shortcode places (`changes`, `releases`, `history`,
/// `glossary`): the same data as the pages the rule book makes.
fn made(call: &Call) -> Result<Option<Made>, String> {
    Ok(match call.name.as_str() {
        "changes" => Some(Made::Changes {
            version: call.arg("version")?.to_string(),
        }),
        "releases" => Some(Made::Releases),
        "history" => Some(Made::History),
        "glossary" => Some(Made::Glossary),
        _ => None,
    })
}

/// `it has: a, b`, or `it has no charts`: the ids a reference could name.
/// Where a dotted `path` into `results` stops leading anywhere, and the
/// paths that go on from there, nearest the one written first.
fn nearest_paths(results: &serde_json::Value, path: &str) -> String {
    use serde_json::Value;
    let parts: Vec<&str> = path.split('.').collect();
    let mut at = results;
    let mut good = 0;
    for part in &parts {
        match crate::gates::at_path(at, part) {
            Some(next) if !part.is_empty() => {
                at = next;
                good += 1;
            }
            _ => break,
        }
    }
    let prefix = parts[..good].join(".");
    let within = |p: &str| {
        if prefix.is_empty() {
            p.to_string()
        } else {
            format!("{prefix}.{p}")
        }
    };
    let wrong = parts.get(good).copied().unwrap_or("");
    let here = if prefix.is_empty() {
        "the results".to_string()
    } else {
        format!("{prefix:?}")
    };
    match at {
        Value::Object(map) if !map.is_empty() => {
            let keys: Vec<&str> = map.keys().map(String::as_str).collect();
            let near = crate::engine::nearest::nearest(wrong, &keys, 5);
            let near: Vec<String> = near
                .into_iter()
                .map(|k| format!("{:?}", within(k)))
                .collect();
            format!("the nearest paths are {}", near.join(", "))
        }
        Value::Array(items) if !items.is_empty() => format!(
            "{here} is a list: follow it with an index from 0 to {} ({:?})",
            items.len() - 1,
            within("0")
        ),
        Value::Array(_) | Value::Object(_) => format!("{here} is empty"),
        _ => format!("{here} is a single value ({at}): end the path there"),
    }
}

fn it_has<'a>(ids: impl Iterator<Item = &'a str>, what: &str) -> String {
    let ids: Vec<&str> = ids.collect();
    if ids.is_empty() {
        format!("it has no {what}")
    } else {
        format!("it has: {}", ids.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::nearest_paths;
    use serde_json::json;

    #[test]
    fn a_wrong_path_names_the_nearest_that_go_on() {
        let results = json!({"cases": [{"players": 2, "fairness": {"tvd": "0", "max_ratio": "1"}}], "n": 3, "none": []});
        let said = |path| nearest_paths(&results, path);
        assert_eq!(
            said("cases.0.fairness.tdv"),
            "the nearest paths are \"cases.0.fairness.tvd\", \"cases.0.fairness.max_ratio\""
        );
        assert_eq!(
            said("cases.x.players"),
            "\"cases\" is a list: follow it with an index from 0 to 0 (\"cases.0\")"
        );
        assert_eq!(said("cases.3"), said("cases.x.players"));
        assert_eq!(
            said("n.1"),
            "\"n\" is a single value (3): end the path there"
        );
        assert_eq!(said("none.0"), "\"none\" is empty");
        assert!(
            said("case").starts_with("the nearest paths are \"cases\""),
            "{}",
            said("case")
        );
    }
}
