//! Navigation: the sidebar tree, breadcrumbs and reading order, mirroring the
//! folders of `content/`.

use super::Computed;
use crate::content::Content;
use crate::paths::{self, page_output, scenario_output};
use serde::Serialize;
use std::collections::BTreeMap;

/// One page or section in reading order.
#[derive(Debug, Clone)]
struct Entry {
    title: String,
    /// Output path; `None` for a folder without `_index.md`.
    output: Option<String>,
    parent: Option<usize>,
    description: Option<String>,
}

/// The site's structure, computed once and viewed from each page.
#[derive(Debug, Clone)]
pub(crate) struct Nav {
    entries: Vec<Entry>,
    by_output: BTreeMap<String, usize>,
    /// Entries by parent (`None`: the top level), in reading order.
    children: BTreeMap<Option<usize>, Vec<usize>>,
    /// Folders of `content/` shown as sections without an `_index.md`,
    /// under their folder's name.
    untitled: Vec<String>,
}

/// A link as a template sees it: `href` relative to the current page.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct NavLink {
    title: String,
    href: Option<String>,
    description: Option<String>,
}

/// A sidebar row.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct NavItem {
    title: String,
    href: Option<String>,
    depth: usize,
    current: bool,
    /// On the path from the top to the current page.
    open: bool,
    /// Stands for siblings left out of a long list.
    more: bool,
}

/// Sibling lists longer than this are cut to a window in the sidebar.
const SIDEBAR_LIMIT: usize = 25;
/// Siblings shown on each side of the current page in a cut list.
const SIDEBAR_REACH: usize = 10;

/// Which of `len` siblings the sidebar shows, given the one on the way to
/// the current page.
fn sidebar_window(len: usize, focus: Option<usize>) -> std::ops::Range<usize> {
    if len <= SIDEBAR_LIMIT {
        return 0..len;
    }
    let focus = focus.unwrap_or(0);
    let start = focus.saturating_sub(SIDEBAR_REACH);
    let end = (focus + SIDEBAR_REACH + 1).min(len);
    start..end
}

/// The sort key of a weight: weighted items first, smaller first; then
/// those without one (ties broken by title).
fn order(weight: Option<i64>) -> (bool, i64) {
    (weight.is_none(), weight.unwrap_or(0))
}

/// Something placed in a folder, before ordering.
struct Placed {
    weight: Option<i64>,
    title: String,
    output: String,
    description: Option<String>,
}

impl Nav {
    /// The structure of `content`: folders are sections, ordered by weight
    /// then title, sections after the pages of their parent.
    pub fn new(content: &Content, computed: &[Computed]) -> Nav {
        let mut folders: BTreeMap<String, Vec<Placed>> = BTreeMap::new();
        let mut indexes: BTreeMap<String, Placed> = BTreeMap::new();
        for page in &content.pages {
            let placed = Placed {
                weight: page.weight,
                title: page.title.clone(),
                output: page_output(&page.source),
                description: page.description.clone(),
            };
            if page.is_section_index() {
                indexes.insert(page.folder().to_string(), placed);
            } else {
                folders
                    .entry(page.folder().to_string())
                    .or_default()
                    .push(placed);
            }
        }
        for c in computed {
            let folder = c
                .scenario
                .name
                .rsplit_once('/')
                .map_or("", |(d, _)| d)
                .to_string();
            folders.entry(folder).or_default().push(Placed {
                weight: c.scenario.header.weight,
                title: c.scenario.header.title.clone(),
                output: scenario_output(&c.scenario.name),
                description: c.scenario.header.description.clone(),
            });
        }
        // Every ancestor of a folder with content is a section too.
        let all_folders: Vec<String> = folders.keys().chain(indexes.keys()).cloned().collect();
        for folder in all_folders {
            let mut path = folder.as_str();
            while let Some((parent, _)) = path.rsplit_once('/') {
                folders.entry(parent.to_string()).or_default();
                path = parent;
            }
            folders.entry(folder.clone()).or_default();
        }
        let mut nav = Nav {
            entries: Vec::new(),
            by_output: BTreeMap::new(),
            children: BTreeMap::new(),
            untitled: Vec::new(),
        };
        if let Some(home) = indexes.remove("") {
            nav.push(home.title, Some(home.output), None, home.description);
        }
        nav.add_folder("", None, &mut folders, &mut indexes);
        for (i, entry) in nav.entries.iter().enumerate() {
            nav.children.entry(entry.parent).or_default().push(i);
        }
        nav
    }

    /// The folders shown as sections that have no `_index.md`.
    pub(crate) fn untitled(&self) -> &[String] {
        &self.untitled
    }

    fn push(
        &mut self,
        title: String,
        output: Option<String>,
        parent: Option<usize>,
        description: Option<String>,
    ) -> usize {
        let index = self.entries.len();
        if let Some(output) = &output {
            self.by_output.insert(output.clone(), index);
        }
        self.entries.push(Entry {
            title,
            output,
            parent,
            description,
        });
        index
    }

    fn add_folder(
        &mut self,
        folder: &str,
        parent: Option<usize>,
        folders: &mut BTreeMap<String, Vec<Placed>>,
        indexes: &mut BTreeMap<String, Placed>,
    ) {
        let mut items = folders.remove(folder).unwrap_or_default();
        // Direct subfolders become items placed by their index page's weight.
        let prefix = if folder.is_empty() {
            String::new()
        } else {
            format!("{folder}/")
        };
        let subfolders: Vec<String> = folders
            .keys()
            .filter(|f| {
                f.strip_prefix(&prefix)
                    .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
            })
            .cloned()
            .collect();
        self.untitled.extend(
            subfolders
                .iter()
                .filter(|sub| !indexes.contains_key(*sub))
                .cloned(),
        );
        let mut sections: Vec<((bool, i64), String, String)> = subfolders
            .into_iter()
            .map(|sub| {
                let (weight, title) = indexes.get(&sub).map_or_else(
                    || {
                        (
                            None,
                            sub.rsplit('/')
                                .next()
                                .unwrap_or(&sub)
                                .replace(['-', '_'], " "),
                        )
                    },
                    |p| (p.weight, p.title.clone()),
                );
                (order(weight), title, sub)
            })
            .collect();
        items.sort_by(|a, b| {
            (order(a.weight), &a.title, &a.output).cmp(&(order(b.weight), &b.title, &b.output))
        });
        sections.sort();
        for item in items {
            self.push(item.title, Some(item.output), parent, item.description);
        }
        for (_, title, sub) in sections {
            let index = indexes.remove(&sub);
            let description = index.as_ref().and_then(|p| p.description.clone());
            let entry = self.push(title, index.map(|p| p.output), parent, description);
            self.add_folder(&sub, Some(entry), folders, indexes);
        }
    }

    fn href(from: &str, to: &Option<String>) -> Option<String> {
        to.as_ref().map(|to| paths::href(from, to))
    }

    fn ancestors(&self, index: usize) -> Vec<usize> {
        let mut chain = vec![index];
        let mut at = index;
        while let Some(parent) = self.entries[at].parent {
            chain.push(parent);
            at = parent;
        }
        chain
    }

    /// The sidebar seen from `output`: the top level, plus the contents of
    /// each section on the way to the current page. A long list shows a
    /// window around the current page and a link to the rest, so a page's
    /// sidebar stays the same size however many pages the site has.
    /// `place` is where the page stands (a translation stands in its
    /// source's place), `output` where it is written, which links are
    /// relative to; `more` names the pages a long level leaves out
    /// (`… {count} more`).
    pub fn view(&self, place: &str, output: &str, more: &str) -> Vec<NavItem> {
        let current = self.by_output.get(place).copied();
        let open = current.map(|c| self.ancestors(c)).unwrap_or_default();
        let mut items = Vec::new();
        let at = Level {
            output,
            current,
            open: &open,
            more,
        };
        self.push_level(None, 0, &at, &mut items);
        items
    }

    fn push_level(
        &self,
        parent: Option<usize>,
        depth: usize,
        at: &Level,
        items: &mut Vec<NavItem>,
    ) {
        let Level {
            output,
            current,
            open,
            more: more_words,
        } = *at;
        let children = self.children.get(&parent).map_or(&[][..], Vec::as_slice);
        let focus = children.iter().position(|c| open.contains(c));
        let shown = sidebar_window(children.len(), focus);
        let section = parent.map_or(Some("index.html".to_string()), |p| {
            self.entries[p].output.clone()
        });
        let more = |count: usize| NavItem {
            title: more_words.replace("{count}", &count.to_string()),
            href: Self::href(output, &section),
            depth,
            current: false,
            open: false,
            more: true,
        };
        if shown.start > 0 {
            items.push(more(shown.start));
        }
        for &i in &children[shown.clone()] {
            let entry = &self.entries[i];
            items.push(NavItem {
                title: entry.title.clone(),
                // The current page links to itself, a translation too.
                href: if Some(i) == current {
                    Some(paths::sibling_href(output))
                } else {
                    Self::href(output, &entry.output)
                },
                depth,
                current: Some(i) == current,
                open: open.contains(&i),
                more: false,
            });
            if open.contains(&i) {
                self.push_level(Some(i), depth + 1, at, items);
            }
        }
        if shown.end < children.len() {
            items.push(more(children.len() - shown.end));
        }
    }

    /// Every page's output path in reading order (the order of the sidebar
    /// and of the previous and next links).
    pub(crate) fn reading_order(&self) -> Vec<&str> {
        self.entries
            .iter()
            .filter_map(|e| e.output.as_deref())
            .collect()
    }

    /// From the home page down to the current page's parent.
    pub(crate) fn breadcrumbs(&self, place: &str, output: &str) -> Vec<NavLink> {
        let Some(&current) = self.by_output.get(place) else {
            return Vec::new();
        };
        let mut chain = self.ancestors(current);
        chain.reverse();
        chain.pop();
        let home = self
            .entries
            .first()
            .filter(|e| e.output.as_deref() == Some("index.html") && place != "index.html");
        home.map(|e| self.link(output, e))
            .into_iter()
            .chain(
                chain
                    .into_iter()
                    .map(|i| self.link(output, &self.entries[i])),
            )
            .collect()
    }

    /// The page `step` places before or after in reading order.
    pub fn neighbour(&self, place: &str, output: &str, step: isize) -> Option<NavLink> {
        let current = *self.by_output.get(place)?;
        let mut at = current as isize;
        loop {
            at += step;
            let entry = self.entries.get(usize::try_from(at).ok()?)?;
            if entry.output.is_some() {
                return Some(self.link(output, entry));
            }
        }
    }

    /// The pages and sections directly inside the section whose index is `output`.
    pub(crate) fn children_of(&self, output: &str) -> Vec<NavLink> {
        let Some(&current) = self.by_output.get(output) else {
            return Vec::new();
        };
        let is_home = output == "index.html";
        self.entries
            .iter()
            .filter(|e| {
                if is_home {
                    e.parent.is_none() && e.output.as_deref() != Some(output)
                } else {
                    e.parent == Some(current)
                }
            })
            .map(|e| self.link(output, e))
            .collect()
    }

    fn link(&self, from: &str, entry: &Entry) -> NavLink {
        NavLink {
            title: entry.title.clone(),
            href: Self::href(from, &entry.output),
            description: entry.description.clone(),
        }
    }
}

/// What every level of the sidebar is drawn with.
#[derive(Clone, Copy)]
struct Level<'a> {
    output: &'a str,
    current: Option<usize>,
    open: &'a [usize],
    more: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_pages_come_first_then_the_rest_by_title() {
        let page = |source: &str, front: &str| {
            crate::content::parse_page(source, &format!("---\n{front}\n---\n"), "content/").unwrap()
        };
        let content = Content {
            pages: vec![
                page("_index.md", "title: Home"),
                page("alpha.md", "title: Alpha"),
                page("beta.md", "title: Beta\nweight: 2"),
                page("gamma.md", "title: Gamma\nweight: -1"),
                page("delta.md", "title: Delta"),
                page("zero.md", "title: Zero\nweight: 0"),
                page("s/_index.md", "title: Unweighted section"),
                page("t/_index.md", "title: Weighted section\nweight: 1"),
            ],
            ..Content::default()
        };
        let nav = Nav::new(&content, &[]);
        assert_eq!(
            nav.reading_order(),
            [
                "index.html",
                "gamma.html",
                "zero.html",
                "beta.html",
                "alpha.html",
                "delta.html",
                "t/index.html",
                "s/index.html",
            ]
        );
    }

    #[test]
    fn long_sibling_lists_show_a_window() {
        assert_eq!(sidebar_window(5, Some(2)), 0..5);
        assert_eq!(sidebar_window(1000, Some(500)), 490..511);
        assert_eq!(sidebar_window(1000, Some(3)), 0..14);
        assert_eq!(sidebar_window(1000, Some(999)), 989..1000);
        assert_eq!(sidebar_window(1000, None), 0..11);
    }
}
