//! Heading anchors: ids unique within a page and made only of characters
//! that are safe in an `id` attribute and a URL fragment.

use std::collections::{HashMap, HashSet};

/// Whether a character may stand in an id: letters, digits, `-`, `_`, `.`.
fn allowed(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | '_' | '.')
}

/// An id written by the author (`## Title {#id}`, a footnote's `[^label]`),
/// or what is wrong with it.
pub(crate) fn check_id(id: &str) -> Result<(), String> {
    if !id.is_empty() && id.chars().all(allowed) {
        return Ok(());
    }
    Err(format!(
        "{id:?} may only hold letters, digits, '-', '_' and '.' (it becomes an id in the page)"
    ))
}

/// A stable anchor from heading text: lowercase words joined by hyphens.
pub(crate) fn slugify(text: &str) -> String {
    let mut slug = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            slug.extend(c.to_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-').to_string();
    if slug.is_empty() {
        "section".into()
    } else {
        slug
    }
}

/// Ids the page templates give their own elements (`templates/*.html`): no
/// heading, rule key or glossary term may take one.
pub(crate) const TEMPLATE_IDS: &[&str] = &[
    "main",
    "site-nav",
    "theme-toggle",
    "search-form",
    "search-input",
    "search-results",
    "search-status",
    "scenario-answer",
    "scenario-results",
    "playground-rolls",
    "playground-depth",
    "playground-notation",
    "playground-syntax",
];

/// The ids given out on one page so far.
#[derive(Debug, Default)]
pub(crate) struct Anchors {
    used: HashSet<String>,
    /// For each id asked for twice, the suffix to try next: a page of
    /// thousands of equal headings costs one look-up each, not a count
    /// from 2 each time.
    next: HashMap<String, usize>,
}

impl Anchors {
    /// A page's ids, with the templates' own already taken.
    pub(crate) fn for_page() -> Anchors {
        Anchors {
            used: TEMPLATE_IDS.iter().map(|id| id.to_string()).collect(),
            next: HashMap::new(),
        }
    }

    /// `base`, or `base-2`, `base-3`... whichever is free first.
    pub fn unique(&mut self, base: String) -> String {
        if self.used.insert(base.clone()) {
            return base;
        }
        let n = self.next.entry(base.clone()).or_insert(2);
        loop {
            let id = format!("{base}-{n}");
            *n += 1;
            if self.used.insert(id.clone()) {
                return id;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_templates_ids_are_taken_on_every_page() {
        let mut anchors = Anchors::for_page();
        assert_eq!(anchors.unique("main".into()), "main-2");
        assert_eq!(anchors.unique("search-input".into()), "search-input-2");
        assert_eq!(anchors.unique("rules".into()), "rules");
        // Every fixed id of the templates is in the list.
        let templates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
        for entry in std::fs::read_dir(templates).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "html") {
                let html = std::fs::read_to_string(&path).unwrap();
                for (i, _) in html.match_indices(" id=\"") {
                    let id = &html[i + 5..];
                    let id = &id[..id.find('"').unwrap()];
                    if !id.contains('{') && id != "true" {
                        assert!(TEMPLATE_IDS.contains(&id), "{}: {id}", path.display());
                    }
                }
            }
        }
    }

    #[test]
    fn slugs_are_plain() {
        assert_eq!(slugify("Who goes first?"), "who-goes-first");
        assert_eq!(slugify("P(v) − 1/n"), "p-v-1-n");
        assert_eq!(slugify("!!!"), "section");
    }

    #[test]
    fn author_ids_are_limited_to_a_safe_set() {
        for good in ["ties", "Rule_2.1", "a-b", "règle"] {
            assert_eq!(check_id(good), Ok(()), "{good}");
        }
        for bad in [
            "a\"onfocus=\"alert(1)\"autofocus",
            "x'y",
            "<b>",
            "a>b",
            "two words",
            "tick`",
            "javascript:alert(1)",
            "a&amp;b",
            "",
        ] {
            let err = check_id(bad).unwrap_err();
            assert!(
                err.contains("may only hold letters, digits, '-', '_' and '.'"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn duplicates_get_the_next_free_suffix() {
        let mut anchors = Anchors::default();
        let ids: Vec<String> = ["a", "a", "a-2", "a", "b", "a-3"]
            .into_iter()
            .map(|id| anchors.unique(id.into()))
            .collect();
        assert_eq!(ids, ["a", "a-2", "a-2-2", "a-3", "b", "a-3-2"]);
    }

    #[test]
    fn many_equal_headings_cost_linear_work() {
        let mut anchors = Anchors::default();
        let start = std::time::Instant::now();
        for _ in 0..50_000 {
            anchors.unique("a".into());
        }
        assert_eq!(anchors.unique("a".into()), "a-50001");
        // Quadratic work here is over a billion string inserts: minutes.
        assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    }
}
