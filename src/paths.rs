//! Where every file lands in the site, and how links between them are
//! written: the one owner of the rule "this source becomes that page".
//!
//! Paths are `/`-separated and relative to `content/` (sources) or `site/`
//! (outputs); links between pages are relative, so the site works from
//! `file://`.

/// The page holding every page, for printing.
pub(crate) const PRINT_PAGE: &str = "print.html";
/// The rule book (the numbered sections and the glossary), for printing.
pub(crate) const RULEBOOK_PRINT_PAGE: &str = "print-rules.html";
/// The dice playground, computed in the reader's browser.
pub(crate) const PLAYGROUND_PAGE: &str = "playground.html";
/// The search index, a script every page loads.
pub(crate) const SEARCH_INDEX: &str = "search-index.js";
/// The page hosts serve for a missing address.
pub(crate) const NOT_FOUND: &str = "404.html";
/// The list of pages for search engines, written when the site has a base
/// address.
pub(crate) const SITEMAP: &str = "sitemap.xml";
/// The folder of the template assets (`templates/assets/`).
pub(crate) const ASSETS: &str = "assets";

/// The content folder as errors name files in it (`content/rules/x.md`).
pub(crate) const CONTENT: &str = "content/";

/// A content file as errors and messages name it, from its path relative
/// to the content folder.
pub(crate) fn content_file(relative: &str) -> String {
    format!("{CONTENT}{relative}")
}

/// The name of the `n`th temporary that process `pid` writes before
/// renaming it to `base`: `BASE.tmp-PID-N`. The one owner of the scheme,
/// so the writer, the sweeps and the content reader that skips them agree.
pub(crate) fn temporary_name(base: &str, pid: u32, n: u64) -> String {
    format!("{base}.tmp-{pid}-{n}")
}

/// The base name and process id of a name of [`temporary_name`]'s form
/// (digits only: no sign, at most 20 of them).
pub(crate) fn temporary_of(name: &str) -> Option<(&str, u32)> {
    let (base, rest) = name.rsplit_once(".tmp-")?;
    let (pid, n) = rest.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.len() <= 20 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(pid) || !digits(n) {
        return None;
    }
    Some((base, pid.parse().ok()?))
}

/// Whether a markdown source introduces its folder (`_index.md` or
/// `index.md`), and so becomes the folder's `index.html`.
pub(crate) fn is_section_index(source: &str) -> bool {
    let file = source.rsplit('/').next().unwrap_or(source);
    file == "_index.md" || file == "index.md"
}

/// Where a markdown page lands: `rules/dice.md` -> `rules/dice.html`,
/// `rules/_index.md` -> `rules/index.html`.
pub(crate) fn page_output(source: &str) -> String {
    let stem = source.strip_suffix(".md").unwrap_or(source);
    if is_section_index(source) {
        return match stem.rsplit_once('/') {
            Some((dir, _)) => format!("{dir}/index.html"),
            None => "index.html".into(),
        };
    }
    format!("{stem}.html")
}

/// Where a page's markdown source is published, beside its HTML:
/// `rules/dice.md` -> `rules/dice.md`, `rules/_index.md` -> `rules/index.md`.
pub(crate) fn page_markdown(source: &str) -> String {
    let output = page_output(source);
    format!("{}.md", output.strip_suffix(".html").unwrap_or(&output))
}

/// A scenario's name: its source without the extension (`games/a.yaml` ->
/// `games/a`). Shortcodes name scenarios this way, and every file of the
/// scenario starts with it.
pub(crate) fn scenario_name(source: &str) -> String {
    source
        .strip_suffix(".yaml")
        .or_else(|| source.strip_suffix(".yml"))
        .unwrap_or(source)
        .to_string()
}

/// Whether `name` could name a scenario (or any source) of `content/`: a
/// `/`-separated relative path of non-empty segments, none hidden (`.`,
/// `..` or a dotfile, which the content reader never reads), without
/// backslashes or control characters. What a release snapshot may name.
pub(crate) fn is_source_name(name: &str) -> bool {
    !name.is_empty()
        && !name.contains('\\')
        && !name.chars().any(char::is_control)
        && name
            .split('/')
            .all(|part| !part.is_empty() && !part.starts_with('.'))
}

/// The files a page or scenario source writes that other pages may link to
/// (`rules/dice.md` -> its HTML and markdown, `a.yaml` -> `a.html` and
/// `a.json`); its table CSVs are left out, as their ids come from results.
pub(crate) fn source_outputs(source: &str) -> Vec<String> {
    if source.ends_with(".md") {
        vec![page_output(source), page_markdown(source)]
    } else if source.ends_with(".yaml") || source.ends_with(".yml") {
        let name = scenario_name(source);
        vec![scenario_output(&name), scenario_json(&name)]
    } else {
        vec![source.to_string()]
    }
}

/// The page of the scenario called `name`.
pub(crate) fn scenario_output(name: &str) -> String {
    format!("{name}.html")
}

/// The exact results of the scenario called `name`, as JSON.
pub fn scenario_json(name: &str) -> String {
    format!("{name}.json")
}

/// The CSV of table `table_id` of the scenario called `name`.
pub(crate) fn table_csv(name: &str, table_id: &str) -> String {
    format!("{name}.{table_id}.csv")
}

/// Whether `path` is one of the table CSVs of the scenario called `name`
/// (`table_csv` for some table id): what a link to a scenario that failed
/// may name before its tables are known.
pub(crate) fn is_table_csv_of(path: &str, name: &str) -> bool {
    path.strip_prefix(name)
        .and_then(|rest| rest.strip_prefix('.'))
        .and_then(|rest| rest.strip_suffix(".csv"))
        .is_some_and(|id| !id.is_empty() && !id.contains('/'))
}

/// The last segment of a `/`-separated path: how a page links to a file in
/// its own folder.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Whether `folder` is `root` or lies below it (`""` is the content root,
/// which holds every folder): `rules/advanced` is within `rules`,
/// `rules-old` is not.
pub(crate) fn is_within(folder: &str, root: &str) -> bool {
    root.is_empty()
        || folder == root
        || folder
            .strip_prefix(root)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// A link written in markdown to a source, rewritten to the output it
/// becomes: `other.md#x` -> `other.html#x`, `dir/_index.md` ->
/// `dir/index.html`, `scenario.yaml` -> `scenario.html`. `None` for links
/// that are not to a source (absolute, with a scheme, or to another file).
pub(crate) fn source_link(url: &str) -> Option<String> {
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
pub(crate) fn is_relative(url: &str) -> bool {
    !(url.is_empty() || url.starts_with("//") || url.starts_with('/') || url.contains(':'))
}

/// `../` once per folder level, so links work from `file://`.
pub(crate) fn root_prefix(output: &str) -> String {
    "../".repeat(output.matches('/').count())
}

/// How a page at `from` (`""`: the site root) links to the output file
/// `to`: through the site root, each segment percent-encoded. Every link to a generated file is
/// written here, so no file name can make a link mean something else.
pub fn href(from: &str, to: &str) -> String {
    let mut out = root_prefix(from);
    for (i, segment) in to.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        encode_segment(segment, &mut out);
    }
    out
}

/// How a page links to the output file `to` in its own folder: its
/// encoded file name.
pub(crate) fn sibling_href(to: &str) -> String {
    let mut out = String::new();
    encode_segment(file_name(to), &mut out);
    out
}

/// Percent-encode all but RFC 3986's unreserved characters. `:` is encoded
/// too, so a first segment can never read as a scheme (`javascript:`), and
/// `#`, `?`, `%` and spaces stay part of the name.
pub(crate) fn encode_segment(segment: &str, out: &mut String) {
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
}

/// Where a link written in a page leads, read as a browser reads it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    /// Another site or a scheme (`https:`, `mailto:`): not a file of ours.
    External,
    /// Absolute, or climbing above the site root.
    Outside,
    /// A file of the site (output path, decoded) and the `#fragment` as written.
    File {
        path: String,
        fragment: Option<String>,
    },
}

/// The target of `link`, written in the page whose output path is `from`.
/// Read as browsers do: tabs and newlines dropped, `\` taken as `/`, the
/// query ignored, each segment percent-decoded before `.` and `..` apply
/// (`%2e%2e` climbs too). A segment that decodes to a `/` or `\\` names no
/// file, so it is kept encoded and the link fails to resolve.
pub(crate) fn link_target(from: &str, link: &str) -> Target {
    let cleaned: String = link
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .map(|c| if c == '\\' { '/' } else { c })
        .collect();
    let (rest, fragment) = match cleaned.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment.to_string())),
        None => (cleaned.as_str(), None),
    };
    let path = rest.split('?').next().unwrap_or(rest);
    if has_scheme(path) {
        return Target::External;
    }
    if path.starts_with('/') {
        return Target::Outside;
    }
    if path.is_empty() {
        return Target::File {
            path: from.to_string(),
            fragment,
        };
    }
    let mut parts: Vec<String> = from.split('/').map(str::to_string).collect();
    parts.pop();
    let segments: Vec<&str> = path.split('/').collect();
    for (i, segment) in segments.iter().enumerate() {
        let decoded = percent_decode(segment);
        match decoded.as_str() {
            "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Target::Outside;
                }
            }
            "" if i + 1 < segments.len() => {}
            _ if decoded.contains(['/', '\\']) => parts.push((*segment).to_string()),
            _ => parts.push(decoded),
        }
    }
    Target::File {
        path: parts.join("/"),
        fragment,
    }
}

/// The output path `link` (written in the page `from`) points at, or
/// `None` when it leaves the site or is not a file of ours.
pub fn resolve(from: &str, link: &str) -> Option<String> {
    match link_target(from, link) {
        Target::File { path, .. } => Some(path),
        Target::External | Target::Outside => None,
    }
}

/// Whether `url` starts with a scheme (`letter (letter | digit | + - .)* :`).
fn has_scheme(url: &str) -> bool {
    let Some((scheme, _)) = url.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

/// `%XX` decoded (as UTF-8, lossily); a `%` not followed by two hex digits
/// stays as it is.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).and_then(|&b| hex(b)),
            bytes.get(i + 2).and_then(|&b| hex(b)),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_names_stay_inside_content() {
        for good in ["dice", "rules/dice", "a b/c-d"] {
            assert!(is_source_name(good), "{good}");
        }
        for bad in [
            "", "../x", "a/../b", "/abs", "a//b", ".hidden", "a\\b", "a\nb", "a/",
        ] {
            assert!(!is_source_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_scenarios_table_csvs_are_told_from_other_files() {
        assert!(is_table_csv_of(&table_csv("rules/s", "sums-7"), "rules/s"));
        assert!(is_table_csv_of("s.t.csv", "s"));
        for other in [
            "s.csv",
            "s..csv",
            "s.html",
            "s.t.csv.html",
            "s.a/b.csv",
            "st.x.csv",
            "r/s.t.csv",
        ] {
            assert!(!is_table_csv_of(other, "s"), "{other}");
        }
    }

    #[test]
    fn folders_lie_within_their_ancestors_only() {
        use super::is_within;
        assert!(is_within("rules", "rules"));
        assert!(is_within("rules/advanced/timing", "rules"));
        assert!(is_within("anything", ""));
        assert!(!is_within("rules-old", "rules"));
        assert!(!is_within("", "rules"));
        assert!(!is_within("guide", "rules"));
    }

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

    fn file(path: &str, fragment: Option<&str>) -> Target {
        Target::File {
            path: path.into(),
            fragment: fragment.map(str::to_string),
        }
    }

    #[test]
    fn links_resolve_relative_to_the_page() {
        let from = "rules/dice.html";
        assert_eq!(link_target(from, "../index.html"), file("index.html", None));
        assert_eq!(
            link_target(from, "banish.html#t"),
            file("rules/banish.html", Some("t"))
        );
        assert_eq!(link_target(from, "#t"), file(from, Some("t")));
        assert_eq!(
            link_target(from, "x.html?q=a:b"),
            file("rules/x.html", None)
        );
        assert_eq!(link_target("index.html", "../x.html"), Target::Outside);
        assert_eq!(resolve(from, "../a%20b.html#x"), Some("a b.html".into()));
        assert_eq!(resolve(from, "../../x.html"), None);
        assert_eq!(root_prefix("a/b/c.html"), "../../");
        assert_eq!(root_prefix("c.html"), "");
    }

    #[test]
    fn links_are_read_as_browsers_read_them() {
        let from = "a/b.html";
        for outside in [
            "../../etc/passwd",
            "..\\..\\etc\\passwd",
            "%2e%2e/%2E%2e/etc/passwd",
            ".\t./../x",
            "/etc/passwd",
            "//host/share",
            "\\\\host\\share",
        ] {
            assert_eq!(link_target(from, outside), Target::Outside, "{outside:?}");
        }
        for external in [
            "https://e.org/",
            "mailto:a@b.org",
            " javascript:x",
            "ja\nvascript:x",
        ] {
            assert_eq!(
                link_target(from, external),
                Target::External,
                "{external:?}"
            );
        }
        assert_eq!(
            link_target(from, "my%20file%23.png"),
            file("a/my file#.png", None)
        );
        assert_eq!(link_target(from, "x%2Fy.png"), file("a/x%2Fy.png", None));
        assert_eq!(link_target(from, "%E2%82%AC.csv"), file("a/€.csv", None));
        assert_eq!(link_target(from, "100%.csv"), file("a/100%.csv", None));
    }

    #[test]
    fn hrefs_encode_every_odd_name_and_resolve_back() {
        assert_eq!(
            href("rules/dice.html", "targets/a.html"),
            "../targets/a.html"
        );
        assert_eq!(
            href("index.html", "javascript:alert(1).html"),
            "javascript%3Aalert%281%29.html"
        );
        assert_eq!(sibling_href("d/a b#?%.json"), "a%20b%23%3F%25.json");
        for name in [
            "a b.html",
            "c#d?e%f.html",
            "x:y/€ é.html",
            "javascript:alert(1).html",
            "..%2e.html",
        ] {
            for from in ["index.html", "deep/er/page.html"] {
                let link = href(from, name);
                assert!(!has_scheme(&link) && is_relative(&link), "{link}");
                assert_eq!(
                    link_target(from, &link),
                    file(name, None),
                    "{from} -> {link}"
                );
            }
        }
    }
}
