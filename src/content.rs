//! Loading `content/`: markdown pages with front matter, and scenario files.
//!
//! This is the only module of the load phase that reads files; everything it
//! returns is plain data for the compute and render phases.

use crate::analyses::Budget;
use crate::error::{Error, Result};
use crate::paths;
use crate::rulebook::glossary;
use crate::rulebook::made::Made;
use crate::rulebook::releases;
use crate::scenario::{self, Scenario};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

/// A markdown page.
#[derive(Debug, Clone)]
pub struct Page {
    /// Path relative to `content/`, `/`-separated, such as `rules/dice.md`.
    pub source: String,
    /// Title from the front matter, else the file name.
    pub title: String,
    /// Order among siblings: smaller first, then by title; pages without
    /// one come after the weighted ones.
    pub weight: Option<i64>,
    /// Optional summary shown in listings and the `<meta>` description.
    pub description: Option<String>,
    /// "Last updated" as written in the front matter (`YYYY-MM-DD`); it
    /// wins over the date of the last commit.
    pub updated: Option<String>,
    /// Markdown after the front matter.
    pub body: String,
    /// Line of `source` where `body` starts (1-based), for error messages.
    pub body_line: usize,
    /// For a section's `_index.md`: whether the section's pages are
    /// numbered rules (`numbered: true`).
    pub numbered: bool,
    /// What the page shows when the rule book made it (its body is then
    /// empty): data the site renders, not markdown.
    pub made: Option<Made>,
    /// For a translation: the release its translator worked from, with the
    /// line and column where it is written.
    pub translated_from: Option<(String, usize, usize)>,
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
    /// Release snapshots (`releases/VERSION.json`), oldest first; each is
    /// also published as it is.
    pub releases: Vec<releases::Release>,
    /// The glossary (`_glossary.yaml`), if the site has one.
    pub glossary: Option<Vec<glossary::Entry>>,
    /// Translated pages (`_translations/<lang>/<page>`), sorted by path;
    /// each page's `source` is its own file below `content/`.
    pub translated: Vec<Page>,
    /// Translated glossaries by language (`_translations/<lang>/_glossary.yaml`).
    pub translated_glossaries: BTreeMap<String, Vec<glossary::Entry>>,
    /// Sources that could not be read or parsed (their errors say why). A
    /// build goes on without them to find every other problem, and a link
    /// or shortcode naming one of them is not an error of its own.
    pub failed: BTreeSet<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FrontMatter {
    #[serde(default, deserialize_with = "crate::yaml::some_non_blank")]
    title: Option<String>,
    #[serde(default)]
    weight: Option<i64>,
    description: Option<String>,
    #[serde(default)]
    numbered: bool,
    updated: Option<crate::history::Date>,
    #[serde(default)]
    translated_from: Option<serde_yaml::Value>,
}

/// Read every page, scenario and asset below `dir` under the default budget.
pub fn load(dir: &Path) -> Result<Content> {
    load_with_budget(dir, &Budget::default())
}

/// Read every page, scenario and asset below `dir`. All problems are
/// reported together, each with its file, line and column.
pub fn load_with_budget(dir: &Path, budget: &Budget) -> Result<Content> {
    let (content, errors) = load_partial(dir, budget)?;
    match Error::from_list(errors) {
        Some(err) => Err(err),
        None => Ok(content),
    }
}

/// Read every page, scenario and asset below `dir` that can be read, with
/// the errors of those that cannot (named in [`Content::failed`]), so a
/// build can go on to find every other problem. Fails outright only when
/// the folder itself cannot be read.
pub fn load_partial(dir: &Path, budget: &Budget) -> Result<(Content, Vec<Error>)> {
    let prefix = format!(
        "{}/",
        dir.file_name()
            .map_or("content".into(), |n| n.to_string_lossy())
    );
    let mut content = Content::default();
    let mut errors = Vec::new();
    let mut failed = BTreeSet::new();
    if !dir.is_dir() {
        return Err(Error::file(
            dir.display(),
            "no content folder here (expected markdown pages and scenario files)",
        ));
    }
    let data = DataFolder::new(dir, "");
    read_folder(dir, &prefix, &mut errors, |relative, bytes| {
        if releases::is_temporary(&relative) {
            return Ok(());
        }
        let name = format!("{prefix}{relative}");
        let loaded = (|| {
            if let Some(inside) = relative.strip_prefix(TRANSLATIONS) {
                return read_translation(&mut content, inside, bytes, &prefix);
            }
            match Path::new(&relative).extension().and_then(|e| e.to_str()) {
                Some("md") => {
                    let text = utf8(bytes, &name)?;
                    content.pages.push(parse_page(&relative, &text, &prefix)?);
                }
                Some("yaml") if relative == glossary::SOURCE => {
                    let text = utf8(bytes, &name)?;
                    let _phase = crate::limits::content(format!("reading {name}"));
                    content.glossary = Some(glossary::parse(&text, &prefix)?);
                }
                Some("yaml" | "yml") => {
                    let text = utf8(bytes, &name)?;
                    content.scenarios.push(
                        scenario::parse_with_data(&relative, &text, budget, &data)
                            .map_err(|e| Error::from_scenario(e, &prefix))?,
                    );
                }
                Some("json") if releases::is_snapshot(&relative) => {
                    let text = utf8(bytes.clone(), &name)?;
                    content
                        .releases
                        .push(releases::parse(&relative, &text, &prefix)?);
                    content.assets.insert(relative.clone(), bytes);
                }
                _ => {
                    check_passive(&relative, &bytes).map_err(|message| located(&name, message))?;
                    content.assets.insert(relative.clone(), bytes);
                }
            }
            Ok(())
        })();
        if loaded.is_err() {
            failed.insert(relative);
        }
        loaded
    })?;
    // Scenarios that take values from others, once all are read.
    let (scenarios, unresolved) =
        scenario::resolve(std::mem::take(&mut content.scenarios), budget, false);
    content.scenarios = scenarios;
    for err in unresolved {
        failed.insert(err.file.clone());
        errors.push(Error::from_scenario(err, &prefix));
    }
    // Files that could not even be read are named by their errors.
    failed.extend(errors.iter().filter_map(|err| match err {
        Error::Source { file, .. } => file.strip_prefix(&prefix).map(str::to_string),
        _ => None,
    }));
    content.failed = failed;
    releases::sort(&mut content.releases);
    Ok((content, errors))
}

/// The folder of translated pages, below `content/`.
pub(crate) const TRANSLATIONS: &str = "_translations/";

/// A file of `_translations/`: a translated page (`<lang>/<page>.md`, with
/// `translated_from`) or glossary (`<lang>/_glossary.yaml`). Scenarios,
/// data and figures are the source's, never translated by hand.
fn read_translation(
    content: &mut Content,
    inside: &str,
    bytes: Vec<u8>,
    prefix: &str,
) -> Result<()> {
    let relative = format!("{TRANSLATIONS}{inside}");
    let name = format!("{prefix}{relative}");
    let (lang, rest) = inside.split_once('/').unwrap_or(("", inside));
    if lang.is_empty() {
        return Err(located(
            &name,
            "a translation goes in a folder named after its language: \
             content/_translations/<lang>/<the source page's path>, such as \
             content/_translations/fr/rules/start-of-game.md"
                .into(),
        ));
    }
    if rest.starts_with(TRANSLATIONS) {
        return Err(located(
            &name,
            format!(
                "a translations folder inside another: content/{TRANSLATIONS}{lang}/ holds the \
                 pages of content/ in {lang}, each at its own path, and no page of content/ is \
                 below {TRANSLATIONS}; move this file into its language's folder, \
                 content/{TRANSLATIONS}<lang>/, or remove it"
            ),
        ));
    }
    if rest == glossary::SOURCE {
        let text = utf8(bytes, &name)?;
        let entries = glossary::parse(&text, &format!("{prefix}{TRANSLATIONS}{lang}/"))?;
        content.translated_glossaries.insert(lang.into(), entries);
        return Ok(());
    }
    if !rest.ends_with(".md") {
        return Err(located(
            &name,
            "only pages (.md) and the glossary (_glossary.yaml) are translated: a page's \
             scenarios, figures and data are the source's, so its numbers are never \
             translated by hand; remove this file"
                .into(),
        ));
    }
    let text = utf8(bytes, &name)?;
    let page = parse_page(&relative, &text, prefix)?;
    if page.translated_from.is_none() {
        return Err(located(
            &name,
            "a translation says which release its translator worked from: start the page \
             with front matter `---\\ntranslated_from: \"1.0.0\"\\n---`"
                .into(),
        ));
    }
    content.translated.push(page);
    Ok(())
}

/// Extensions of files a browser runs or renders as active content (pages,
/// scripts, SVG and XML with their own scripts), and of files web servers
/// run themselves. A content file of these types could run script in a
/// reader's browser, so none is published.
pub const ACTIVE_EXTENSIONS: &[&str] = &[
    "htm", "html", "xhtml", "xht", "shtml", "shtm", "mht", "mhtml", "hta", "js", "mjs", "cjs",
    "svg", "svgz", "xml", "xsl", "xslt", "xul", "rdf", "mml", "swf", "php", "phtml", "phar", "asp",
    "aspx", "jsp", "cgi",
];

/// Where the data files scenarios name are read from: a folder (`content/`,
/// or the folder of a scenario given to `eval`). A path is resolved by the
/// site's one link rule ([`paths::link_target`]), so it cannot climb out of
/// the folder; a link is followed only to a file inside it; the file
/// streams through [`open_limited`].
pub struct DataFolder {
    dir: PathBuf,
    /// How messages name the folder, as scenario sources start (`""` for
    /// `content/`, whose prefix errors add later; `"examples/"` for eval).
    shown: String,
}

impl DataFolder {
    /// The data folder `dir`, shown as `shown` in front of file names.
    pub fn new(dir: &Path, shown: &str) -> DataFolder {
        DataFolder {
            dir: dir.to_path_buf(),
            shown: shown.to_string(),
        }
    }
}

impl scenario::DataSource for DataFolder {
    fn open(
        &self,
        source: &str,
        written: &str,
    ) -> std::result::Result<scenario::DataFile, scenario::DataOpenError> {
        use scenario::DataOpenError::{File, Path as Wrong};
        let from = source.strip_prefix(&self.shown).unwrap_or(source);
        let relative = match paths::link_target(from, written) {
            paths::Target::File { path, .. } if !path.is_empty() => path,
            _ => {
                return Err(Wrong(format!(
                    "{written:?} is outside the scenario's folder tree: data files must be \
                     inside the project; put the file beside the scenario"
                )))
            }
        };
        let name = format!("{}{relative}", self.shown);
        let path = self.dir.join(&relative);
        let is_link = std::fs::symlink_metadata(&path)
            .map_err(|_| {
                Wrong(format!(
                    "no file {name}: expected a CSV file beside the scenario"
                ))
            })?
            .file_type()
            .is_symlink();
        let root = self
            .dir
            .canonicalize()
            .map_err(|_| Wrong(format!("the folder of {name} could not be read")))?;
        let folder = self.shown.trim_end_matches('/');
        let folder = if folder.is_empty() { "content" } else { folder };
        entry_metadata(&root, &path, is_link, folder).map_err(Wrong)?;
        let reader = open_limited(&path, &name).map_err(|err| match err {
            Error::Source { message, .. } => File {
                name: name.clone(),
                message,
            },
            other => Wrong(other.to_string()),
        })?;
        Ok((name, Box::new(reader)))
    }
}

/// Refuse a content file a browser would run or render as active content:
/// one of the [`ACTIVE_EXTENSIONS`], or any file that starts with markup,
/// which browsers may sniff as a web page whatever its name.
fn check_passive(relative: &str, bytes: &[u8]) -> std::result::Result<(), String> {
    let fix = "write pages as markdown (.md); files the site owner trusts go in \
               templates/assets/, which is published as assets/";
    // Windows drops trailing dots and spaces, so `a.html.` is `a.html` there.
    let name = relative.rsplit('/').next().unwrap_or(relative);
    let name = name.trim_end_matches(['.', ' ']).to_ascii_lowercase();
    if let Some((_, extension)) = name.rsplit_once('.') {
        if ACTIVE_EXTENSIONS.contains(&extension) {
            return Err(format!(
                ".{extension} files are not published from content/: a browser would run \
                 them or render them as a page that can run script; {fix}"
            ));
        }
    }
    if starts_with_markup(bytes) {
        return Err(format!(
            "the file starts with markup (`<`), so a browser may take it for a web page and \
             run script in it; {fix}"
        ));
    }
    Ok(())
}

/// Whether `bytes` open with markup (`<` after a byte-order mark and
/// white space), which browsers may sniff as a web page whatever the
/// file's name.
pub fn starts_with_markup(bytes: &[u8]) -> bool {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    text.iter().take(512).find(|b| !b.is_ascii_whitespace()) == Some(&b'<')
}

fn located(name: &str, message: String) -> Error {
    Error::Source {
        file: name.to_string(),
        line: 1,
        column: 1,
        message,
    }
}

/// Read every file below `dir`, a folder the user writes (`content/`,
/// `templates/`), in name order, and hand each to `visit` with its path
/// relative to `dir`. `prefix` is how errors name the folder (`content/`).
///
/// One rule for every such folder: names starting with `.` are skipped, the
/// folder may be a link only to a folder inside the project, and a link
/// inside it must stay inside it, so no file outside the project is ever
/// read or published. Errors of single files are gathered in `errors`.
pub fn read_folder(
    dir: &Path,
    prefix: &str,
    errors: &mut Vec<Error>,
    mut visit: impl FnMut(String, Vec<u8>) -> Result<()>,
) -> Result<()> {
    let root = folder_inside_project(dir, prefix)?;
    for entry in WalkDir::new(dir).sort_by_file_name().follow_links(false) {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                let path = err.path().map(Path::to_path_buf).unwrap_or_default();
                let name = format!("{prefix}{}", relative_source(dir, &path));
                match err.io_error().map(std::io::Error::kind) {
                    Some(std::io::ErrorKind::NotFound) => errors.push(located(&name, vanished())),
                    _ => return Err(Error::io(path, err.into())),
                }
                continue;
            }
        };
        let path = entry.path();
        let relative = relative_source(dir, path);
        if relative.split('/').any(|part| part.starts_with('.')) {
            continue;
        }
        let name = format!("{prefix}{relative}");
        let found = entry_metadata(
            &root,
            path,
            entry.path_is_symlink(),
            prefix.trim_end_matches('/'),
        );
        let bytes = match found {
            Ok(metadata) if !metadata.is_file() => continue,
            Ok(_) => read_limited(path, &name).map_err(|err| match err {
                Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                    located(&name, vanished())
                }
                other => other,
            }),
            Err(message) => Err(located(&name, message)),
        };
        if let Err(err) = bytes.and_then(|bytes| visit(relative, bytes)) {
            errors.push(err);
        }
    }
    Ok(())
}

/// The folder's real path, which must be inside the project (the folder
/// holding `dir`): a link from `templates/` to anywhere else is refused.
fn folder_inside_project(dir: &Path, prefix: &str) -> Result<PathBuf> {
    let refuse = |why: String| Error::file(prefix, why);
    let real = dir
        .canonicalize()
        .map_err(|_| match std::fs::read_link(dir) {
            Ok(target) => refuse(dangling(&target)),
            Err(_) => refuse(vanished()),
        })?;
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let project = parent.canonicalize().map_err(|e| Error::io(parent, e))?;
    if !real.is_dir() {
        return Err(refuse("not a folder".into()));
    }
    if !real.starts_with(&project) {
        return Err(refuse(format!(
            "a link to {} outside the project: the folder must be inside the project; copy it \
             in instead",
            real.display()
        )));
    }
    Ok(real)
}

/// What a walked entry is, following a link only when it stays inside
/// `root` (the folder's real path). `folder` names the folder in messages.
fn entry_metadata(
    root: &Path,
    path: &Path,
    is_link: bool,
    folder: &str,
) -> std::result::Result<std::fs::Metadata, String> {
    if is_link {
        let target = match path.canonicalize() {
            Ok(target) => target,
            Err(_) => {
                return Err(match std::fs::read_link(path) {
                    Ok(target) => dangling(&target),
                    Err(_) => vanished(),
                })
            }
        };
        if !target.starts_with(root) {
            return Err(format!(
                "a link to {} outside the {folder} folder: links must stay inside it; copy \
                 the file in instead",
                target.display()
            ));
        }
    }
    std::fs::metadata(path).map_err(|_| vanished())
}

fn dangling(target: &Path) -> String {
    format!(
        "a link to {}, which does not exist: point it at a file inside the folder, or remove it",
        target.display()
    )
}

fn vanished() -> String {
    "the file disappeared while being read; run the build again".into()
}

/// Read a file a user wrote, refusing one over [`max_file_bytes`] for its
/// extension. Every reader of user files (content, templates, scenario files
/// named on the command line, data files scenarios name) goes through here
/// or [`open_limited`], so one limit holds for all. `name` is how errors
/// name the file.
pub(crate) fn read_limited(path: &Path, name: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    let (file, size, limit) = open_checked(path, name)?;
    // Read one byte past the limit, in case the file grows while we read.
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(too_big(path, name, bytes.len() as u64));
    }
    Ok(bytes)
}

/// A user's file to stream through (a log of a million rolls), under the
/// same checks and limit as [`read_limited`]: reading fails, saying so,
/// once the file has grown past the limit.
pub(crate) fn open_limited(path: &Path, name: &str) -> Result<std::io::BufReader<Limited>> {
    let (file, _, limit) = open_checked(path, name)?;
    let message = format!(
        "{name}: the file grew past {} MB while being read, the most {} files may have",
        limit / 1_000_000,
        extension_of(path)
    );
    Ok(std::io::BufReader::new(Limited {
        file,
        left: limit,
        message,
    }))
}

/// A file that refuses to be read past its size limit.
#[derive(Debug)]
pub(crate) struct Limited {
    file: std::fs::File,
    left: u64,
    message: String,
}

impl std::io::Read for Limited {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let want = buf
            .len()
            .min(usize::try_from(self.left + 1).unwrap_or(usize::MAX));
        let read = self.file.read(&mut buf[..want])?;
        if read as u64 > self.left {
            return Err(std::io::Error::other(self.message.clone()));
        }
        self.left -= read as u64;
        Ok(read)
    }
}

/// The file opened, checked to be a regular file within its limit: the
/// file, its size and the limit.
fn open_checked(path: &Path, name: &str) -> Result<(std::fs::File, u64, u64)> {
    let limit = max_file_bytes(extension_of(path));
    let file = open_regular(path).map_err(|e| Error::io(path, e))?;
    let metadata = file.metadata().map_err(|e| Error::io(path, e))?;
    if !metadata.is_file() {
        return Err(Error::Source {
            file: name.to_string(),
            line: 1,
            column: 1,
            message: "not a regular file (a folder, a device or a pipe): expected a text file"
                .into(),
        });
    }
    let size = metadata.len();
    if size > limit {
        return Err(too_big(path, name, size));
    }
    Ok((file, size, limit))
}

fn extension_of(path: &Path) -> &str {
    path.extension().and_then(|e| e.to_str()).unwrap_or("")
}

fn too_big(path: &Path, name: &str, size: u64) -> Error {
    let extension = extension_of(path);
    Error::Source {
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
            max_file_bytes(extension) / 1_000_000
        ),
    }
}

/// Open without blocking on a pipe (opening a FIFO for reading waits for a
/// writer), so the caller can look at what it opened before reading.
fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// A user's file as text: [`read_limited`], then UTF-8 checked with the
/// line of the first bad byte.
pub fn read_text(path: &Path, name: &str) -> Result<String> {
    utf8(read_limited(path, name)?, name)
}

/// UTF-8 text, without the byte-order mark some editors put first (it is
/// no part of the text: YAML would read it into the first key).
fn utf8(mut bytes: Vec<u8>, name: &str) -> Result<String> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
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
pub(crate) fn max_file_bytes(extension: &str) -> u64 {
    match extension {
        "yaml" | "yml" => 1_000_000,
        "md" => 5_000_000,
        _ => 50_000_000,
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
        Some(yaml) if !yaml.trim().is_empty() => crate::yaml::read(yaml).map_err(|problem| {
            let (line, column, message) = problem;
            Error::Source {
                file: format!("{prefix}{source}"),
                line: line + 1,
                column,
                message: format!("front matter: {message}"),
            }
        })?,
        _ => FrontMatter::default(),
    };
    let translated_from = match front.translated_from {
        None => None,
        Some(value) => Some(release_named(source, text, prefix, value)?),
    };
    Ok(Page {
        source: source.to_string(),
        title: front.title.unwrap_or(fallback_title),
        weight: front.weight,
        description: front.description,
        updated: front.updated.map(|d| d.0),
        body: body.to_string(),
        body_line,
        numbered: front.numbered,
        made: None,
        translated_from,
    })
}

/// The release a translation names in `translated_from`, with its place;
/// an error on a page that is not a translation, or a value that is not a
/// version.
fn release_named(
    source: &str,
    text: &str,
    prefix: &str,
    value: serde_yaml::Value,
) -> Result<(String, usize, usize)> {
    let line = text
        .lines()
        .position(|l| l.starts_with("translated_from:"))
        .map_or(1, |i| i + 1);
    let column = "translated_from: ".len() + 1;
    let fail = |message: String| Error::Source {
        file: format!("{prefix}{source}"),
        line,
        column,
        message: format!("front matter: translated_from: {message}"),
    };
    if !source.starts_with(TRANSLATIONS) {
        return Err(fail(format!(
            "only a translation names the release it was translated from; a translation of \
             this page goes in content/{TRANSLATIONS}<lang>/{source}"
        )));
    }
    match value {
        serde_yaml::Value::String(version) => Ok((version, line, column)),
        _ => Err(fail(
            "expected a release's version in quotes, such as \"1.0.0\"".into(),
        )),
    }
}

/// `(front matter, body, body's first line)`; `Err(line)` when unclosed.
fn split_front_matter(text: &str) -> std::result::Result<(Option<&str>, &str, usize), usize> {
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
        assert_eq!(page.weight, Some(3));
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

    #[test]
    fn active_content_is_told_from_passive() {
        for name in [
            "a.html", "d/b.HTM", "x.svg", "x.svg.", "x.js ", "f.xml", "p.php",
        ] {
            let err = check_passive(name, b"plain").unwrap_err();
            assert!(
                err.contains("are not published") && err.contains("templates/assets/"),
                "{name}: {err}"
            );
        }
        for bytes in [&b"<p>"[..], b"\n\t <svg>", b"\xEF\xBB\xBF<html>"] {
            assert!(check_passive("notes.txt", bytes)
                .unwrap_err()
                .contains("starts with markup"));
        }
        for (name, bytes) in [
            ("data.csv", &b"a,b\n"[..]),
            ("pic.png", b"\x89PNG"),
            ("README", b"Text <b>"),
        ] {
            assert_eq!(check_passive(name, bytes), Ok(()), "{name}");
        }
    }

    #[test]
    fn a_dangling_link_is_not_a_vanished_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let link = dir.path().join("link.md");
        std::os::unix::fs::symlink("missing.md", &link).unwrap();
        let err = entry_metadata(&root, &link, true, "content").unwrap_err();
        assert!(
            err.starts_with("a link to missing.md, which does not exist"),
            "{err}"
        );
        let gone = dir.path().join("gone.md");
        for is_link in [true, false] {
            assert_eq!(
                entry_metadata(&root, &gone, is_link, "content").unwrap_err(),
                vanished()
            );
        }
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        assert_eq!(
            utf8(b"\xEF\xBB\xBFtitle: x".to_vec(), "s.yaml").unwrap(),
            "title: x"
        );
        assert_eq!(
            utf8(b"a\xEF\xBB\xBF".to_vec(), "s.yaml").unwrap(),
            "a\u{feff}"
        );
    }
}
