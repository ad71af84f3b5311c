//! Publishing the rules beyond the site: `fairdice release` records the
//! rules and figures as a snapshot file the author commits, and
//! `fairdice pdf` prints the whole site through headless Chromium.

use super::releases::{self, Snapshot, Version};
use crate::build::{render_site, Project};
use crate::content;
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Record release `version` of the rules, effective `effective`
/// (`YYYY-MM-DD`), as `content/releases/VERSION.json`. The site must build
/// and its gates hold; the version must be newer than the latest release.
/// Returns the file written. The project's lock is held from reading the
/// latest release to writing the new one, so two releases at once cannot
/// both pass the check against the same latest release and both write.
pub fn release(project: &Project, version: &str, effective: &str) -> Result<PathBuf> {
    let parsed = check_request(version, effective)?;
    let _lock = crate::output::lock_project(&project.out)?;
    let content_dir = project.root.join("content");
    let loaded = content::load_with_budget(&content_dir, &project.budget)?;
    releases::check_newer(parsed, loaded.releases.last(), "content/")?;
    releases::check_effective((parsed, effective), loaded.releases.last(), "content/")?;
    let built = crate::build::render_for_release(project, &parsed.to_string())?;
    if let Some(err) = Error::grouped(built.gate_failures) {
        return Err(err);
    }
    if built.rules.is_empty() {
        return Err(Error::Usage(
            "the site has no numbered rules to release: a section's _index.md must say \
                 `numbered: true`"
                .into(),
        ));
    }
    let snapshot = Snapshot {
        version: parsed.to_string(),
        effective: effective.to_string(),
        rules: built.rules,
        figures: built.figures,
    };
    let path = content_dir
        .join(releases::FOLDER)
        .join(format!("{parsed}.json"));
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))?;
        crate::output::files::remove_stale_temporaries(folder, |base| {
            releases::is_snapshot(&format!("{}/{base}", releases::FOLDER))
        });
    }
    crate::output::files::replace(&path, snapshot.to_text().as_bytes())
        .map_err(|e| Error::io(&path, e))?;
    Ok(path)
}

/// The version and effective date a release is asked for, as written on
/// the command line: the version parsed, or an [`Error::Usage`] saying
/// what was expected (checked before anything is read).
pub fn check_request(version: &str, effective: &str) -> Result<Version> {
    let parsed = Version::parse(version).map_err(Error::Usage)?;
    releases::check_date(effective).map_err(Error::Usage)?;
    Ok(parsed)
}

/// Today's date in UTC, `YYYY-MM-DD`: the default effective date of a
/// release (read once, by the release command; never by a build).
pub fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date((seconds / 86_400) as i64)
}

/// The date `days` after 1970-01-01 (Howard Hinnant's civil_from_days).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The browsers tried, in order, on the `PATH`.
const BROWSERS: [&str; 3] = ["chromium", "chromium-browser", "google-chrome"];

/// A browser able to print, found on the `PATH`.
pub(crate) fn find_browser() -> Result<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in BROWSERS {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(Error::Usage(
        "no Chromium on the PATH (looked for chromium, chromium-browser and google-chrome): \
         install Debian's `chromium` package (apt-get install chromium) and run again"
            .into(),
    ))
}

/// A private folder for one print, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch> {
        Scratch::sweep();
        let path = std::env::temp_dir().join(format!("{SCRATCH}{}", std::process::id()));
        // A folder left by a killed run of a process of the same id.
        let _ = std::fs::remove_dir_all(&path);
        let builder = {
            #[cfg_attr(not(unix), allow(unused_mut))]
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            builder
        };
        builder.create(&path).map_err(|e| Error::io(&path, e))?;
        Ok(Scratch(path))
    }

    fn path(&self) -> &Path {
        &self.0
    }

    /// Remove the folders of earlier prints whose process has ended (a
    /// `kill -9` skips `Drop`), so their sites and browser profiles do not
    /// pile up.
    fn sweep() {
        let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let pid = name.to_str().and_then(|n| n.strip_prefix(SCRATCH));
            // Digits only: `parse` takes a sign, and `+1` is not a name we make.
            let pid = pid.filter(|p| p.bytes().all(|b| b.is_ascii_digit()));
            let Some(pid) = pid.and_then(|p| p.parse::<u32>().ok()) else {
                continue;
            };
            if pid != std::process::id() && !crate::output::files::process_runs(pid) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

/// The start of a print's private folder's name; the process id follows.
const SCRATCH: &str = "fairdice-pdf-";

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `fairdice pdf`: build the site in memory, write it to a private
/// temporary folder, and print the rule book's print page (its numbered
/// sections and the glossary), or with `all` the whole site's, with
/// headless Chromium, and return the PDF's bytes. It prints twice: the
/// first print shows on which page each page of the site starts (marks
/// read back with `pdftotext`), the second the contents with those page
/// numbers.
pub fn pdf(project: &Project, (all, lang): (bool, Option<&str>)) -> Result<Vec<u8>> {
    let browser = find_browser()?;
    let reader = find_tool("pdftotext", "poppler-utils")?;
    let built = render_site(project)?;
    let name = match lang {
        _ if all => crate::paths::PRINT_PAGE.to_string(),
        None => crate::paths::RULEBOOK_PRINT_PAGE.to_string(),
        Some(lang) => translated_print(project, &built, lang)?,
    };
    let name = name.as_str();
    let Some(html) = built.files.get(name) else {
        return Err(Error::Usage(
            "the site has no numbered rules to print (a section's _index.md says \
             `numbered: true`): `fairdice pdf --all` prints the whole site"
                .into(),
        ));
    };
    let html = String::from_utf8_lossy(html).into_owned();
    let deadline = Instant::now() + admit_print(name, html.len(), &project.budget)?;
    let folder = Scratch::new()?;
    let site = folder.path().join("site");
    for (path, bytes) in &built.files {
        let target = site.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::write(&target, bytes).map_err(|e| Error::io(&target, e))?;
    }
    let page = site.join(name);
    let write = |text: String| std::fs::write(&page, text).map_err(|e| Error::io(&page, e));
    let (marked, anchors) = with_marks(&html, None);
    write(marked)?;
    let first = print(&browser, folder.path(), &page, deadline)?;
    let marks = page_starts(&reader, folder.path(), &first)?;
    let lost = (0..anchors.len()).find(|i| !marks.contains_key(i));
    if let Some(lost) = lost {
        return Err(Error::file(
            reader.display(),
            format!(
                "did not find where {} starts in the first print: its page number is unknown",
                anchors[lost]
            ),
        ));
    }
    let starts = anchors
        .into_iter()
        .enumerate()
        .filter_map(|(i, anchor)| marks.get(&i).map(|&page| (anchor, page)))
        .collect();
    write(with_marks(&html, Some(&starts)).0)?;
    print(&browser, folder.path(), &page, deadline)
}

/// Seconds the browser is estimated to take for the two prints of a print
/// page of `bytes`: this project's own `pdf --all`, a 7.1 MB page, took
/// 53 s for both (about 3.7 s a megabyte each, on top of its start).
fn print_seconds(bytes: usize) -> f64 {
    2.0 * (2.0 + 4e-6 * bytes as f64)
}

/// The time the two prints of `name` may take: a whole build's time
/// ([`crate::limits::Budget::build_seconds`]); a page estimated to take
/// longer is refused before the browser starts.
fn admit_print(name: &str, bytes: usize, budget: &crate::limits::Budget) -> Result<Duration> {
    let allowed = budget.build_seconds();
    let estimate = print_seconds(bytes);
    if estimate > allowed {
        let flag = crate::limits::Budget::advice(budget.factor * estimate / allowed)
            .map_or("split the site".to_string(), |flag| {
                format!("raise the budget with {flag}")
            });
        return Err(Error::file(
            name,
            format!(
                "printing this page of {} is estimated to take about {:.0} s, over the \
                 budget of {:.0} s: print the rule book alone (without --all), or {flag}",
                crate::limits::megabytes(bytes as f64),
                estimate,
                allowed
            ),
        ));
    }
    Ok(Duration::from_secs_f64(allowed))
}

/// `lang` as the site file declares it among its translations (compared
/// without regard to case), or an [`Error::Usage`] listing those it does
/// declare: `pdf --lang` checks it before anything is built.
pub fn check_language(project: &Project, lang: &str) -> Result<String> {
    let config = crate::config::load(&project.root)?;
    let declared: Vec<&str> = config.translations.keys().map(|l| l.0.as_str()).collect();
    if let Some(found) = declared.iter().find(|l| l.eq_ignore_ascii_case(lang)) {
        return Ok((*found).to_string());
    }
    let known = if declared.is_empty() {
        "fairdice.yaml declares none (`translations:` with `fr: Français`, say)".into()
    } else {
        format!("fairdice.yaml declares {}", declared.join(", "))
    };
    Err(Error::Usage(format!(
        "--lang {lang}: not a language of the site's translations; {known}"
    )))
}

/// The rule book's print page in `lang`, which the site file must declare.
fn translated_print(project: &Project, built: &crate::build::Built, lang: &str) -> Result<String> {
    let lang = check_language(project, lang)?;
    let name = crate::site::translated_print_page(&lang);
    if !built.files.contains_key(&name) {
        return Err(Error::Usage(
            "the site has no numbered rules to print (a section's _index.md says \
             `numbered: true`)"
                .into(),
        ));
    }
    Ok(name)
}

/// A tool other than the browser, found on the `PATH`.
fn find_tool(name: &str, package: &str) -> Result<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| {
            Error::Usage(format!(
                "no {name} on the PATH: install Debian's `{package}` package \
                 (apt-get install {package}) and run again"
            ))
        })
}

/// Print `page` to a PDF with headless Chromium, with bookmarks made from
/// its headings; returns the PDF's bytes.
fn print(browser: &Path, folder: &Path, page: &Path, deadline: Instant) -> Result<Vec<u8>> {
    let written = folder.join("out.pdf");
    let _ = std::fs::remove_file(&written);
    let mut command = Command::new(browser);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-pdf-header-footer",
            "--generate-pdf-document-outline",
            "--allow-file-access-from-files",
        ])
        .arg(format!(
            "--user-data-dir={}",
            folder.join("profile").display()
        ))
        .arg(format!("--print-to-pdf={}", written.display()))
        .arg(format!("file://{}", page.display()));
    let time = deadline.saturating_duration_since(Instant::now());
    let output = crate::isolated::run_command(command, time).map_err(|e| Error::io(browser, e))?;
    if output.stopped.is_some() {
        return Err(Error::file(
            browser.display(),
            format!(
                "printing took more than {:.0} s and was stopped: print the rule book \
                 alone (without --all), or raise the budget with --budget",
                time.as_secs_f64()
            ),
        ));
    }
    let pdf = std::fs::read(&written)
        .ok()
        .filter(|b| b.starts_with(b"%PDF"));
    pdf.ok_or_else(|| {
        Error::file(
            browser.display(),
            format!(
                "did not print a PDF (exit {:?}): {}",
                output.code,
                String::from_utf8_lossy(&output.stderr)
                    .lines()
                    .rev()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" / ")
            ),
        )
    })
}

/// Where a page's mark starts in the print page, and where its page number
/// goes in the contents.
const MARK: &str = "<i class=\"print-mark\" data-mark=\"";
const AT: &str = "<span class=\"print-at\" data-at=\"";

/// The mark printed for the `i`th page: text no page holds, read back from
/// the first print.
fn mark_text(i: usize) -> String {
    format!("fairdice-mark-{i}-start")
}

/// The print page with its marks and page numbers filled in: for the first
/// print (`starts` is `None`) each page's mark and a placeholder number as
/// wide as most real ones, so the contents take the same lines in both
/// prints; for the second the page each page starts on, and no marks.
/// Also the pages' anchors, in the order of their marks.
fn with_marks(html: &str, starts: Option<&BTreeMap<String, usize>>) -> (String, Vec<String>) {
    let mut out = String::with_capacity(html.len() + 4096);
    let mut rest = html;
    let mut anchors = Vec::new();
    loop {
        let next = [MARK, AT]
            .into_iter()
            .filter_map(|tag| rest.find(tag).map(|at| (at, tag)))
            .min();
        let Some((at, tag)) = next else {
            break;
        };
        let open = at + tag.len();
        let Some(close) = rest[open..].find("\">").map(|c| open + c) else {
            break;
        };
        let anchor = &rest[open..close];
        out.push_str(&rest[..close + 2]);
        rest = &rest[close + 2..];
        if tag == MARK {
            anchors.push(anchor.to_string());
        }
        match (tag == MARK, starts) {
            (true, None) => out.push_str(&mark_text(anchors.len() - 1)),
            (true, Some(_)) => {}
            (false, None) => out.push_str("000"),
            (false, Some(starts)) => {
                if let Some(page) = starts.get(anchor) {
                    out.push_str(&page.to_string());
                }
            }
        }
    }
    out.push_str(rest);
    (out, anchors)
}

/// The page (from 1) each page of the site starts on in `pdf`, by its
/// mark's number: the page where `pdftotext` finds the mark.
fn page_starts(reader: &Path, folder: &Path, pdf: &[u8]) -> Result<BTreeMap<usize, usize>> {
    let first = folder.join("first.pdf");
    std::fs::write(&first, pdf).map_err(|e| Error::io(&first, e))?;
    let output = Command::new(reader)
        .args(["-enc", "UTF-8"])
        .arg(&first)
        .arg("-")
        .output()
        .map_err(|e| Error::io(reader, e))?;
    if !output.status.success() {
        return Err(Error::file(
            reader.display(),
            format!(
                "could not read the first print back (exit {}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            ),
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    Ok(pages_of_marks(&text))
}

/// In `text` (pages split by form feeds), the page of each mark, by its
/// number.
fn pages_of_marks(text: &str) -> BTreeMap<usize, usize> {
    let mut found = BTreeMap::new();
    for (page, words) in text.split('\u{c}').enumerate() {
        for word in words.split_whitespace() {
            let number = word
                .strip_prefix("fairdice-mark-")
                .and_then(|w| w.strip_suffix("-start"))
                .and_then(|n| n.parse::<usize>().ok());
            if let Some(number) = number {
                found.entry(number).or_insert(page + 1);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    /// Issue 39: the print is priced before the browser starts: the
    /// project's own 7.1 MB page fits the default budget (it took 53 s),
    /// a page five times larger does not, and `--budget` lets it through.
    #[test]
    fn a_print_is_priced_before_the_browser_starts() {
        use crate::limits::Budget;
        let own = admit_print("print.html", 7_100_000, &Budget::default()).unwrap();
        assert_eq!(own, Duration::from_secs(120));
        let err = admit_print("print.html", 36_000_000, &Budget::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("print.html: printing this page of 36 MB is estimated to take about 292 s, over the budget of 120 s"),
            "{err}"
        );
        assert!(err.ends_with("raise the budget with `--budget 3`"), "{err}");
        assert!(admit_print("print.html", 36_000_000, &Budget::new(3.0)).is_ok());
    }

    use super::*;

    #[test]
    fn a_killed_prints_folder_is_swept_and_a_running_ones_kept() {
        let mut child = Command::new("true").spawn().unwrap();
        let ended = child.id();
        child.wait().unwrap();
        let dead = std::env::temp_dir().join(format!("{SCRATCH}{ended}"));
        let alive = std::env::temp_dir().join(format!("{SCRATCH}1"));
        let signed = std::env::temp_dir().join(format!("{SCRATCH}+{ended}"));
        std::fs::create_dir_all(&signed).unwrap();
        std::fs::create_dir_all(dead.join("profile")).unwrap();
        std::fs::create_dir_all(&alive).unwrap();
        Scratch::sweep();
        assert!(!dead.exists());
        // Process 1 always runs: its folder stays.
        assert!(alive.exists());
        // Not a name a print makes: left alone.
        assert!(signed.exists());
        std::fs::remove_dir(&signed).unwrap();
        std::fs::remove_dir(&alive).unwrap();
    }

    #[test]
    fn marks_and_page_numbers_are_filled_in_and_read_back() {
        let html = "<li><span class=\"print-at\" data-at=\"page-a\"></span></li>\
                    <li><span class=\"print-at\" data-at=\"page-b\"></span></li>\
                    <i class=\"print-mark\" data-mark=\"page-a\"></i>A\
                    <i class=\"print-mark\" data-mark=\"page-b\"></i>B";
        let (first, anchors) = with_marks(html, None);
        assert_eq!(anchors, ["page-a", "page-b"]);
        assert!(first.contains("data-at=\"page-a\">000</span>"), "{first}");
        assert!(first.contains("data-mark=\"page-b\">fairdice-mark-1-start</i>B"));
        let text = "Contents 000 000\u{c}fairdice-mark-0-start A\u{c}more\u{c}B fairdice-mark-1-start\u{c}";
        assert_eq!(pages_of_marks(text), BTreeMap::from([(0, 2), (1, 4)]));
        let starts = BTreeMap::from([("page-a".to_string(), 2), ("page-b".to_string(), 4)]);
        let (second, _) = with_marks(html, Some(&starts));
        assert!(second.contains("data-at=\"page-b\">4</span>"), "{second}");
        assert!(second.contains("data-mark=\"page-a\"></i>A"), "{second}");
        assert!(!second.contains("fairdice-mark"));
    }

    #[test]
    fn days_become_calendar_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_415), "2025-11-23");
        assert_eq!(civil_date(-1), "1969-12-31");
        assert!(releases::check_date(&today()).is_ok());
    }
}
