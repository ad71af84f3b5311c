//! Fixture sites built in temporary folders.

use std::fs;
use std::path::{Path, PathBuf};

/// A project folder with the repository's templates and the given files.
pub fn fixture(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"),
        &dir.path().join("templates"),
    );
    for (path, text) in files {
        write(dir.path(), path, text);
    }
    dir
}

pub fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

pub fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).unwrap();
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Every file under `dir`, relative path to bytes.
pub fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            files.push((
                entry.path().strip_prefix(dir).unwrap().to_path_buf(),
                fs::read(entry.path()).unwrap(),
            ));
        }
    }
    files
}

/// Every `href="..."` and `src="..."` of every HTML file that is relative
/// must name a file of the site (and an id on it, for `#anchors`).
pub fn broken_links(site: &Path) -> Vec<String> {
    let mut broken = Vec::new();
    for (path, bytes) in snapshot(site) {
        if path.extension().and_then(|e| e.to_str()) != Some("html") {
            continue;
        }
        let html = String::from_utf8(bytes).unwrap();
        for attr in ["href=\"", "src=\""] {
            for (i, _) in html.match_indices(attr) {
                let start = i + attr.len();
                let end = start + html[start..].find('"').unwrap();
                let link = &html[start..end];
                if link.contains(':') || link.starts_with("//") {
                    continue;
                }
                let (file, fragment) = link
                    .split_once('#')
                    .map_or((link, None), |(f, a)| (f, Some(a)));
                let file = fairdice::paths::percent_decode(file);
                let target = if file.is_empty() {
                    site.join(&path)
                } else {
                    site.join(path.parent().unwrap()).join(file)
                };
                if !target.is_file() {
                    broken.push(format!("{}: {link}", path.display()));
                    continue;
                }
                if let Some(fragment) = fragment.filter(|f| !f.is_empty()) {
                    let text = fs::read_to_string(&target).unwrap_or_default();
                    if !text.contains(&format!("id=\"{fragment}\"")) {
                        broken.push(format!("{}: {link} (no such anchor)", path.display()));
                    }
                }
            }
        }
    }
    broken
}

/// Run the `fairdice` binary in `dir`.
pub fn fairdice(args: &[&str], dir: &Path) -> Run {
    Run(std::process::Command::new(env!("CARGO_BIN_EXE_fairdice"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .expect("run fairdice"))
}

/// A finished run of the binary.
pub struct Run(pub std::process::Output);

impl std::ops::Deref for Run {
    type Target = std::process::Output;
    fn deref(&self) -> &std::process::Output {
        &self.0
    }
}

impl Run {
    /// stderr as text.
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.0.stderr).to_string()
    }
}

/// A small site, already built: a home page linking a sum-mod scenario. The
/// bad-input tests add one bad file to it and check the site is untouched.
pub fn good_site() -> tempfile::TempDir {
    let dir = fixture(&[
        (
            "content/_index.md",
            "---\ntitle: Home\n---\nSee [the scenario](good.yaml).\n",
        ),
        (
            "content/good.yaml",
            "title: Good\nkind: sum-mod\ndice: d6\ntargets: [2, 3]\n",
        ),
    ]);
    fairdice::build::build(&fairdice::build::Project::at(dir.path()))
        .expect("the good site builds");
    dir
}
