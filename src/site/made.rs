//! The pages the rule book makes ([`Made`]), rendered straight through its
//! views and templates; the shortcodes that place the same lists on an
//! author's page are rendered here too.

use super::Renderer;
use crate::content::Page;
use crate::markdown::{self, MarkdownError, Rendered};
use crate::paths;
use crate::rulebook::{self, made::Made};

impl Renderer<'_> {
    /// The HTML of what `made` shows, on the page written at `output`.
    pub(super) fn made_html(&self, made: &Made, output: &str) -> Result<String, String> {
        let book = self.book;
        let live = |key: &str| book.get(key).map(|p| p.href(output));
        let scenario_href = |name: &str| {
            self.scenarios
                .contains_key(name)
                .then(|| paths::href(output, &paths::scenario_output(name)))
        };
        match made {
            Made::Changes { version } => {
                let _phase = crate::limits::content(format!(
                    "comparing release {version} with the one before"
                ));
                (self.history).changes_html(self.tera, version, &live, &scenario_href)
            }
            Made::Releases => self.history.releases_html(self.tera, output),
            Made::History => {
                let _phase = crate::limits::content("writing the rule history");
                self.history.history_html(self.tera, &live)
            }
            Made::Glossary if self.glossary.is_empty() => Err(format!(
                "glossary(): this site has no glossary to list: write its terms in \
                 content/{}, such as `- term: die` with a `definition:`",
                rulebook::glossary::SOURCE
            )),
            Made::Glossary => {
                let lang = self.lang.unwrap_or(&self.meta.config.language.0);
                rulebook::glossary_html(self.tera, self.glossary, book, (output, lang))
            }
        }
    }

    /// The body of a page the rule book made: what markdown makes of its
    /// shortcode alone, without markdown; an error stands at the body's
    /// first line, where that shortcode would.
    pub(super) fn made_body(
        &self,
        made: &Made,
        page: &Page,
        output: &str,
    ) -> (Rendered, Vec<MarkdownError>) {
        match self.made_html(made, output) {
            Ok(html) => (markdown::lone_block(&html), Vec::new()),
            Err(message) => (
                Rendered::default(),
                vec![MarkdownError {
                    line: page.body_line,
                    column: 1,
                    message,
                }],
            ),
        }
    }
}
