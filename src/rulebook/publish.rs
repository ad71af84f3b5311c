//! Publishing the rules beyond the site: `fairdice release` records the
//! rules and figures as a snapshot file the author commits, and
//! `fairdice pdf` prints the whole site through headless Chromium.

use super::releases::{self, Snapshot, Version};
use crate::build::{render_site, Project};
use crate::content;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Record release `version` of the rules, effective `effective`
/// (`YYYY-MM-DD`), as `content/releases/VERSION.json`. The site must build
/// and its gates hold; the version must be newer than the latest release.
/// Returns the file written. The project's lock is held from reading the
/// latest release to writing the new one, so two releases at once cannot
/// both pass the check against the same latest release and both write.
pub fn release(project: &Project, version: &str, effective: &str) -> Result<PathBuf> {
    let parsed = Version::parse(version).map_err(Error::Usage)?;
    releases::check_date(effective).map_err(Error::Usage)?;
    let _lock = crate::output::lock_project(&project.out)?;
    let content_dir = project.root.join("content");
    let loaded = content::load_with_budget(&content_dir, &project.budget)?;
    releases::check_newer(parsed, loaded.releases.last(), "content/")?;
    let built = render_site(project)?;
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
/// temporary folder, and print its print page (every page in reading order,
/// with a table of contents) to `out` with headless Chromium.
pub fn pdf(project: &Project, out: &Path) -> Result<()> {
    let browser = find_browser()?;
    let built = render_site(project)?;
    let folder = Scratch::new()?;
    let site = folder.path().join("site");
    for (path, bytes) in &built.files {
        let target = site.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::write(&target, bytes).map_err(|e| Error::io(&target, e))?;
    }
    let page = site.join(crate::paths::PRINT_PAGE);
    let written = folder.path().join("out.pdf");
    let output = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-pdf-header-footer",
            "--allow-file-access-from-files",
        ])
        .arg(format!(
            "--user-data-dir={}",
            folder.path().join("profile").display()
        ))
        .arg(format!("--print-to-pdf={}", written.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .map_err(|e| Error::io(&browser, e))?;
    let pdf = std::fs::read(&written)
        .ok()
        .filter(|b| b.starts_with(b"%PDF"));
    let Some(pdf) = pdf else {
        return Err(Error::file(
            browser.display(),
            format!(
                "did not print a PDF (exit {}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
                    .lines()
                    .rev()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" / ")
            ),
        ));
    };
    crate::output::files::replace(out, &pdf).map_err(|e| Error::io(out, e))
}

#[cfg(test)]
mod tests {
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
    fn days_become_calendar_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_415), "2025-11-23");
        assert_eq!(civil_date(-1), "1969-12-31");
        assert!(releases::check_date(&today()).is_ok());
    }
}
