//! Loading `content/`: markdown pages with front matter, and scenario files.
//!
//! This is the only module of the load phase that reads files; everything it
//! returns is plain data for the compute and render phases.

use crate::analyses::Budget;
use crate::error::{Error, Result};
use crate::paths;
use crate::scenario::{self, Scenario};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use walkdir::WalkDir;

/// A markdown page.
#[derive(Debug, Clone)]
pub struct Page {
    /// Path relative to `content/`, `/`-separated, such as `rules/dice.md`.
    pub source: String,
    /// Title from the front matter, else the file name.
    pub title: String,
    /// Order among siblings: smaller first, then by title.
    pub weight: i64,
    /// Optional summary shown in listings and the `<meta>` description.
    pub description: Option<String>,
    /// Markdown after the front matter.
    pub body: String,
    /// Line of `source` where `body` starts (1-based), for error messages.
    pub body_line: usize,
}

impl Page {
    /// Whether this page introduces its folder (`_index.md` or `index.md`).
    pub fn is_section_index(&self) -> bool {
        paths::is_section_index(&self.source)
    }

    /// The folder the page lives in, `""` at the top.
    pub fn folder(&self) -> &str {
        self.source.rsplit_once('/').map_or("", |(dir, _)| dir)
    }
}

/// Everything found under `content/`.
#[derive(Debug, Clone, Default)]
pub struct Content {
    /// Markdown pages, sorted by source path.
    pub pages: Vec<Page>,
    /// Scenarios, sorted by source path.
    pub scenarios: Vec<Scenario>,
    /// Other files (images...), copied to the site as they are.
    pub assets: BTreeMap<String, Vec<u8>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FrontMatter {
    title: Option<String>,
    #[serde(default)]
    weight: i64,
    description: Option<String>,
}

/// Read every page, scenario and asset below `dir` under the default budget.
pub fn load(dir: &Path) -> Result<Content> {
    load_with_budget(dir, &Budget::default())
}

/// Read every page, scenario and asset below `dir`. All problems are
/// reported together, each with its file, line and column.
pub fn load_with_budget(dir: &Path, budget: &Budget) -> Result<Content> {
    let prefix = format!(
        "{}/",
        dir.file_name()
            .map_or("content".into(), |n| n.to_string_lossy())
    );
    let mut content = Content::default();
    let mut errors = Vec::new();
    if !dir.is_dir() {
        return Err(Error::Refused(format!(
            "{}: no content folder here (expected markdown pages and scenario files)",
            dir.display()
        )));
    }
    let walker = WalkDir::new(dir).sort_by_file_name().follow_links(false);
    for entry in walker {
        let entry = entry.map_err(|e| {
            let path = e.path().map(Path::to_path_buf).unwrap_or_default();
            Error::io(path, e.into())
        })?;
        let path = entry.path();
        let relative = relative_source(dir, path);
        if relative.split('/').any(|part| part.starts_with('.')) {
            continue;
        }
        let located = |message: String| Error::Source {
            file: format!("{prefix}{relative}"),
            line: 1,
            column: 1,
            message,
        };
        if entry.path_is_symlink() {
            if let Err(message) = check_symlink(dir, path) {
                errors.push(located(message));
                continue;
            }
        }
        let Ok(metadata) = std::fs::metadata(path) else {
            errors.push(located("a link that points nowhere".into()));
            continue;
        };
        if !metadata.is_file() {
            continue;
        }
        let name = format!("{prefix}{relative}");
        let bytes = match read_limited(path, &name) {
            Ok(bytes) => bytes,
            Err(err) => {
                errors.push(err);
                continue;
            }
        };
        let text = || utf8(bytes.clone(), &name);
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let parsed = match extension {
            "md" => text()
                .and_then(|t| parse_page(&relative, &t, &prefix))
                .map(|p| content.pages.push(p)),
            "yaml" | "yml" => text()
                .and_then(|t| {
                    scenario::parse_with_budget(&relative, &t, budget)
                        .map_err(|e| Error::from_scenario(e, &prefix))
                })
                .map(|s| content.scenarios.push(s)),
            _ => {
                content.assets.insert(relative, bytes);
                Ok(())
            }
        };
        if let Err(err) = parsed {
            errors.push(err);
        }
    }
    check_collisions(&content, &prefix, &mut errors);
    match Error::from_list(errors) {
        Some(err) => Err(err),
        None => Ok(content),
    }
}

/// Read a file a user wrote, refusing one over [`max_file_bytes`] for its
/// extension. Every reader of user files (content, templates, scenario files
/// named on the command line) goes through here, so one limit holds for all.
/// `name` is how errors name the file.
pub fn read_limited(path: &Path, name: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let limit = max_file_bytes(extension);
    let too_big = |size: u64| Error::Source {
        file: name.to_string(),
        line: 1,
        column: 1,
        message: format!(
            "the file has {size} bytes; {} files may have at most {} MB",
            if extension.is_empty() {
                "such"
            } else {
                extension
            },
            limit / 1_000_000
        ),
    };
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let size = file.metadata().map_err(|e| Error::io(path, e))?.len();
    if size > limit {
        return Err(too_big(size));
    }
    // Read one byte past the limit, in case the file grows while we read.
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// A user's file as text: [`read_limited`], then UTF-8 checked with the
/// line of the first bad byte.
pub fn read_text(path: &Path, name: &str) -> Result<String> {
    utf8(read_limited(path, name)?, name)
}

fn utf8(bytes: Vec<u8>, name: &str) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        Error::Source {
            file: name.to_string(),
            line: 1 + e.as_bytes()[..valid]
                .iter()
                .filter(|&&b| b == b'\n')
                .count(),
            column: 1,
            message: "the file is not valid UTF-8 text".into(),
        }
    })
}

/// Largest file read per kind, so no input makes fairdice allocate without
/// bound: scenarios are short by nature, pages are text.
pub fn max_file_bytes(extension: &str) -> u64 {
    match extension {
        "yaml" | "yml" => 1_000_000,
        "md" => 5_000_000,
        _ => 50_000_000,
    }
}

/// A link inside `content/` may point anywhere inside it, never outside.
fn check_symlink(dir: &Path, path: &Path) -> std::result::Result<(), String> {
    let root = dir.canonicalize().map_err(|e| e.to_string())?;
    match path.canonicalize() {
        Ok(target) if target.starts_with(&root) => Ok(()),
        Ok(target) => Err(format!(
            "a link to {} outside the content folder: links must stay inside it",
            target.display()
        )),
        Err(_) => Err("a link that points nowhere".into()),
    }
}

fn relative_source(dir: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(dir).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Split off and read the front matter of a markdown page.
pub fn parse_page(source: &str, text: &str, prefix: &str) -> Result<Page> {
    let fallback_title = source
        .rsplit('/')
        .next()
        .unwrap_or(source)
        .trim_end_matches(".md")
        .replace(['-', '_'], " ");
    let (front, body, body_line) = split_front_matter(text).map_err(|line| Error::Source {
        file: format!("{prefix}{source}"),
        line,
        column: 1,
        message: "front matter opened with `---` is never closed: expected a line `---`".into(),
    })?;
    let front: FrontMatter = match front {
        Some(yaml) if !yaml.trim().is_empty() => serde_yaml::from_str(yaml).map_err(|e| {
            let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
            let message = e.to_string();
            let message = message
                .split(" at line ")
                .next()
                .unwrap_or(&message)
                .to_string();
            Error::Source {
                file: format!("{prefix}{source}"),
                line: line + 1,
                column,
                message: format!("front matter: {message}"),
            }
        })?,
        _ => FrontMatter::default(),
    };
    Ok(Page {
        source: source.to_string(),
        title: front.title.unwrap_or(fallback_title),
        weight: front.weight,
        description: front.description,
        body: body.to_string(),
        body_line,
    })
}

/// `(front matter, body, body's first line)`; `Err(line)` when unclosed.
fn split_front_matter(text: &str) -> std::result::Result<(Option<&str>, &str, usize), usize> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return Ok((None, text, 1));
    };
    let mut offset = 0;
    for (i, line) in rest.split_inclusive('\n').enumerate() {
        if line.trim_end() == "---" {
            let body = &rest[offset + line.len()..];
            return Ok((Some(&rest[..offset]), body, i + 3));
        }
        offset += line.len();
    }
    Err(1)
}

/// Two sources that would write the same page.
fn check_collisions(content: &Content, prefix: &str, errors: &mut Vec<Error>) {
    let mut outputs: BTreeMap<String, &str> = BTreeMap::new();
    let pages = content
        .pages
        .iter()
        .map(|p| (paths::page_output(&p.source), p.source.as_str()));
    let scenarios = content
        .scenarios
        .iter()
        .map(|s| (paths::scenario_output(&s.name), s.source.as_str()));
    for (output, source) in pages.chain(scenarios) {
        if let Some(first) = outputs.insert(output.clone(), source) {
            errors.push(Error::Source {
                file: format!("{prefix}{source}"),
                line: 1,
                column: 1,
                message: format!(
                    "writes the same page {output} as {prefix}{first}: rename one of them"
                ),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_is_split_and_read() {
        let page = parse_page(
            "a/b.md",
            "---\ntitle: Hello\nweight: 3\n---\n# Body\n",
            "content/",
        )
        .unwrap();
        assert_eq!(page.title, "Hello");
        assert_eq!(page.weight, 3);
        assert_eq!(page.body, "# Body\n");
        assert_eq!(page.body_line, 5);
        let bare = parse_page("how-to_read.md", "Text", "content/").unwrap();
        assert_eq!(bare.title, "how to read");
        assert_eq!(bare.body_line, 1);
    }

    #[test]
    fn bad_front_matter_is_located() {
        let err = parse_page("p.md", "---\ntitle: x\ncolour: red\n---\n", "content/").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("content/p.md:3:1: front matter: unknown field `colour`"),
            "{err}"
        );
        let err = parse_page("p.md", "---\ntitle: x\n", "content/").unwrap_err();
        assert!(err.to_string().contains("never closed"), "{err}");
        let err = parse_page("p.md", "---\nweight: heavy\n---\n", "content/").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("content/p.md:2:9: front matter: weight: invalid type"),
            "{err}"
        );
    }
}
