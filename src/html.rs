//! A scenario's blocks as HTML, written without a template engine: the
//! site's pages, single-file reports and the calculators in the reader's
//! browser all write them here, so a page recomputed in the browser is the
//! page the build wrote, and the browser's module carries no Tera.
//!
//! Text is escaped as Tera's autoescape does (`& < > " '`); charts are
//! drawn by [`crate::charts`].

pub mod anchors;
mod table;

use crate::charts;
use crate::error::{Error, Result};
use crate::layout::blocks::{Block, Table};
use crate::paths;
use anchors::{slugify, Anchors};
use std::fmt::Write;

pub use table::{table, table_in, CsvLink, TableWords};

/// A heading with its anchor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// Plain text.
    pub text: String,
    /// The `id`, unique within the page.
    pub id: String,
}

/// What a link to another scenario shows: its title and its page (none in
/// a document that stands alone).
pub struct Linked {
    pub title: String,
    pub href: Option<String>,
}

/// What the writer asks of the document it writes into.
pub trait Links {
    /// Where `table`'s CSV is.
    fn csv(&self, table: &Table) -> CsvLink;
    /// The scenario `name` (of kind `kind`) a block links to.
    fn scenario(&self, name: &str, kind: &str) -> Result<Linked>;
}

/// The blocks of a scenario page as HTML, and their headings for the "on
/// this page" list. `source` (the scenario's file under `content/`) names
/// the file a chart that cannot be drawn comes from.
/// A scenario's blocks split for its page: the answer (its verdict, which
/// comes first) and the rest, so the answer can stand before the what-if
/// form on every width; the headings are the rest's.
pub(crate) fn answer_and_blocks(
    blocks: &[Block],
    links: &dyn Links,
    source: &str,
) -> Result<(String, String, Vec<Heading>)> {
    let split = usize::from(matches!(blocks.first(), Some(Block::Verdict { .. })));
    let (answer, _) = self::blocks(&blocks[..split], links, source)?;
    let (rest, headings) = self::blocks(&blocks[split..], links, source)?;
    Ok((answer, rest, headings))
}

pub fn blocks(blocks: &[Block], links: &dyn Links, source: &str) -> Result<(String, Vec<Heading>)> {
    let mut out = String::new();
    let mut headings = Vec::new();
    let mut ids = Anchors::for_page();
    for block in blocks {
        out.push('\n');
        match block {
            Block::Heading { text } => {
                // Ids begin with a letter ("2 targets" -> "case-2-targets"),
                // so CSS selectors and strict validators take them.
                let mut id = slugify(text);
                if id.starts_with(|c: char| c.is_ascii_digit()) {
                    id.insert_str(0, "case-");
                }
                // Roll names `a`, `A` and `a!` all slug to `a`.
                let id = ids.unique(id);
                let (text_html, id_html) = (escape(text), escape(&id));
                let _ = writeln!(
                    out,
                    "<h2 id=\"{id_html}\">{text_html}<a class=\"anchor\" href=\"#{id_html}\" \
                     aria-hidden=\"true\" tabindex=\"-1\">#</a></h2>"
                );
                headings.push(Heading {
                    level: 2,
                    text: text.clone(),
                    id,
                });
            }
            Block::Text { text } => {
                let _ = writeln!(out, "<p>{}</p>", escape(text));
            }
            Block::Code { caption, text } => {
                let _ = writeln!(
                    out,
                    "<figure class=\"program\"><figcaption>{}</figcaption><pre><code>{}</code></pre></figure>",
                    escape(caption),
                    escape(text.trim_end())
                );
            }
            Block::ScenarioLink {
                before,
                scenario,
                kind,
                after,
                quotes,
            } => {
                let linked = links.scenario(scenario, kind)?;
                let title = escape(&linked.title);
                let _ = write!(out, "<p>{}", escape(before));
                match &linked.href {
                    Some(href) => {
                        let _ = write!(out, "<a href=\"{}\">{title}</a>", escape(href));
                    }
                    None => {
                        let _ = write!(out, "“{title}”");
                    }
                }
                let _ = write!(out, "{}</p>", escape(after));
                for quote in quotes {
                    let _ = write!(out, "\n<p>{}</p>", escape(quote));
                }
                out.push('\n');
            }
            Block::Verdict { text } => {
                let _ = writeln!(out, "<p class=\"verdict\">{}</p>", escape(text));
            }
            Block::Facts { items } => {
                out.push_str("<dl class=\"facts\">");
                for (label, value) in items {
                    let _ = write!(
                        out,
                        "<div><dt>{}</dt><dd>{}</dd></div>",
                        escape(label),
                        escape(&value.shown)
                    );
                }
                out.push_str("</dl>\n");
            }
            Block::Table(table) => {
                out.push_str(&table::table(table, &links.csv(table)));
                out.push('\n');
            }
            Block::Chart(chart) => {
                let data = chart.table_id.as_ref().map(|t| format!("#table-{t}"));
                let link = data.as_deref().map(|href| charts::DataLink {
                    href,
                    label: "Data table",
                });
                let figure = charts::render_figure(chart, link)
                    .map_err(|e| Error::file(paths::content_file(source), e.to_string()))?;
                out.push_str(&figure);
                out.push('\n');
            }
        }
        out.push('\n');
    }
    out.push('\n');
    Ok((out, headings))
}

/// Escape text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A document that stands alone (a report, a calculator's answer): each
/// table's CSV travels in a `data:` address saved under the name the site
/// gives the file, and other scenarios are named, not linked.
pub(crate) struct Standalone<'a> {
    /// The scenario's name (its path under `content/` without `.yaml`).
    pub scenario: &'a str,
}

impl Links for Standalone<'_> {
    fn csv(&self, table: &Table) -> CsvLink {
        CsvLink {
            href: data_address("text/csv", &crate::layout::csv::csv(table)),
            download: Some(
                paths::file_name(&paths::table_csv(self.scenario, &table.id)).to_string(),
            ),
        }
    }

    fn scenario(&self, name: &str, _kind: &str) -> Result<Linked> {
        Ok(Linked {
            title: name.to_string(),
            href: None,
        })
    }
}

/// `data:` address holding `text`, percent-encoded.
pub(crate) fn data_address(media_type: &str, text: &str) -> String {
    let mut out = format!("data:{media_type};charset=utf-8,");
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.~,/:=+".contains(&byte) {
            out.push(byte as char);
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::blocks::Cell;

    #[test]
    fn data_addresses_escape_what_urls_cannot_hold() {
        assert_eq!(
            data_address("text/csv", "a,b\n1/36,\"x y\"#%\n"),
            "data:text/csv;charset=utf-8,a,b%0A1/36,%22x%20y%22%23%25%0A"
        );
    }

    #[test]
    fn text_is_escaped_and_headings_get_unique_ids() {
        let page = [
            Block::Heading {
                text: "2 <targets>".into(),
            },
            Block::Heading {
                text: "2 targets".into(),
            },
            Block::Text {
                text: "a & 'b'".into(),
            },
            Block::Facts {
                items: vec![("x\"".into(), crate::layout::blocks::Cell::plain("1/2"))],
            },
        ];
        let (html, headings) = blocks(&page, &Standalone { scenario: "s" }, "s.yaml").unwrap();
        assert_eq!(
            html,
            "\n<h2 id=\"case-2-targets\">2 &lt;targets&gt;<a class=\"anchor\" \
             href=\"#case-2-targets\" aria-hidden=\"true\" tabindex=\"-1\">#</a></h2>\n\n\
             \n<h2 id=\"case-2-targets-2\">2 targets<a class=\"anchor\" \
             href=\"#case-2-targets-2\" aria-hidden=\"true\" tabindex=\"-1\">#</a></h2>\n\n\
             \n<p>a &amp; &#39;b&#39;</p>\n\n\
             \n<dl class=\"facts\"><div><dt>x&quot;</dt><dd>1/2</dd></div></dl>\n\n\n"
        );
        let ids: Vec<&str> = headings.iter().map(|h| h.id.as_str()).collect();
        assert_eq!(ids, ["case-2-targets", "case-2-targets-2"]);
    }

    #[test]
    fn a_standalone_link_names_the_scenario_without_linking_it() {
        let page = [Block::ScenarioLink {
            before: "As in ".into(),
            scenario: "rules/first".into(),
            kind: "first-player".into(),
            after: ".".into(),
            quotes: vec![],
        }];
        let (html, _) = blocks(&page, &Standalone { scenario: "s" }, "s.yaml").unwrap();
        assert_eq!(html, "\n<p>As in “rules/first”.</p>\n\n\n");
        let table = Table {
            id: "t".into(),
            caption: "c".into(),
            columns: vec!["a".into()],
            rows: vec![vec![Cell::plain("1")]],
        };
        let link = Standalone { scenario: "dice/x" }.csv(&table);
        assert_eq!(link.download.as_deref(), Some("x.t.csv"));
        assert!(link
            .href
            .starts_with("data:text/csv;charset=utf-8,a%0A1%0A"));
    }
}
