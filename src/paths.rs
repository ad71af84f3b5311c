//! Where every file lands in the site, and how links between them are
//! written: the one owner of the rule "this source becomes that page".
//!
//! Paths are `/`-separated and relative to `content/` (sources) or `site/`
//! (outputs); links between pages are relative, so the site works from
//! `file://`.

/// Whether a markdown source introduces its folder (`_index.md` or
/// `index.md`), and so becomes the folder's `index.html`.
pub fn is_section_index(source: &str) -> bool {
    let file = source.rsplit('/').next().unwrap_or(source);
    file == "_index.md" || file == "index.md"
}

/// Where a markdown page lands: `rules/dice.md` -> `rules/dice.html`,
/// `rules/_index.md` -> `rules/index.html`.
pub fn page_output(source: &str) -> String {
    let stem = source.strip_suffix(".md").unwrap_or(source);
    if is_section_index(source) {
        return match stem.rsplit_once('/') {
            Some((dir, _)) => format!("{dir}/index.html"),
            None => "index.html".into(),
        };
    }
    format!("{stem}.html")
}

/// A scenario's name: its source without the extension (`games/a.yaml` ->
/// `games/a`). Shortcodes name scenarios this way, and every file of the
/// scenario starts with it.
pub fn scenario_name(source: &str) -> String {
    source
        .strip_suffix(".yaml")
        .or_else(|| source.strip_suffix(".yml"))
        .unwrap_or(source)
        .to_string()
}

/// The page of the scenario called `name`.
pub fn scenario_output(name: &str) -> String {
    format!("{name}.html")
}

/// The exact results of the scenario called `name`, as JSON.
pub fn scenario_json(name: &str) -> String {
    format!("{name}.json")
}

/// The CSV of table `table_id` of the scenario called `name`.
pub fn table_csv(name: &str, table_id: &str) -> String {
    format!("{name}.{table_id}.csv")
}

/// The last segment of a `/`-separated path: how a page links to a file in
/// its own folder.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// A link written in markdown to a source, rewritten to the output it
/// becomes: `other.md#x` -> `other.html#x`, `dir/_index.md` ->
/// `dir/index.html`, `scenario.yaml` -> `scenario.html`. `None` for links
/// that are not to a source (absolute, with a scheme, or to another file).
pub fn source_link(url: &str) -> Option<String> {
    if !is_relative(url) {
        return None;
    }
    let (path, fragment) = url
        .split_once('#')
        .map_or((url, None), |(p, f)| (p, Some(f)));
    let mut target = if path.ends_with(".md") {
        page_output(path)
    } else if path.ends_with(".yaml") || path.ends_with(".yml") {
        scenario_output(&scenario_name(path))
    } else {
        return None;
    };
    if let Some(fragment) = fragment {
        target.push('#');
        target.push_str(fragment);
    }
    Some(target)
}

/// A link that stays inside the site: no scheme, not absolute.
pub fn is_relative(url: &str) -> bool {
    !(url.is_empty() || url.starts_with("//") || url.starts_with('/') || url.contains(':'))
}

/// `../` once per folder level, so links work from `file://`.
pub fn root_prefix(output: &str) -> String {
    "../".repeat(output.matches('/').count())
}

/// The output path a relative link from `from` points at, or `None` when it
/// climbs out of the site.
pub fn resolve(from: &str, link: &str) -> Option<String> {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in link.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_land_where_the_site_expects() {
        assert_eq!(page_output("_index.md"), "index.html");
        assert_eq!(page_output("index.md"), "index.html");
        assert_eq!(page_output("rules/_index.md"), "rules/index.html");
        assert_eq!(page_output("rules/dice.md"), "rules/dice.html");
        assert_eq!(page_output("rules/my_index.md"), "rules/my_index.html");
        assert_eq!(scenario_name("games/a.yaml"), "games/a");
        assert_eq!(scenario_name("games/a.yml"), "games/a");
        assert_eq!(scenario_output("games/a"), "games/a.html");
        assert_eq!(table_csv("games/a", "bins-2"), "games/a.bins-2.csv");
        assert_eq!(scenario_json("games/a"), "games/a.json");
        assert_eq!(file_name("games/a.json"), "a.json");
    }

    #[test]
    fn links_to_sources_become_links_to_pages() {
        assert_eq!(source_link("other.md#x").as_deref(), Some("other.html#x"));
        assert_eq!(
            source_link("dir/_index.md").as_deref(),
            Some("dir/index.html")
        );
        assert_eq!(source_link("../s.yaml").as_deref(), Some("../s.html"));
        assert_eq!(source_link("s.yml#t").as_deref(), Some("s.html#t"));
        assert_eq!(source_link("https://x.org/a.md"), None);
        assert_eq!(source_link("/a.md"), None);
        assert_eq!(source_link("picture.png"), None);
    }

    #[test]
    fn links_resolve_relative_to_the_page() {
        assert_eq!(
            resolve("rules/dice.html", "../index.html"),
            Some("index.html".into())
        );
        assert_eq!(
            resolve("rules/dice.html", "banish.html"),
            Some("rules/banish.html".into())
        );
        assert_eq!(resolve("index.html", "../x.html"), None);
        assert_eq!(root_prefix("a/b/c.html"), "../../");
        assert_eq!(root_prefix("c.html"), "");
    }
}
