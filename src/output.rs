//! The write phase: the new site is written beside the old one and swapped in
//! only when complete, so a failed build leaves `site/` as it was.

use crate::error::{Error, Result};
use crate::site::SiteFiles;
use std::path::{Path, PathBuf};

/// A file every fairdice output folder holds, so `--out` knows it may
/// replace the folder.
pub const MARKER: &str = ".fairdice";
/// The marker's contents.
pub const MARKER_TEXT: &str =
    "This folder is written by `fairdice build`; edits here are overwritten.\n";

/// How the built site differs from what is on disk.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// On disk with other contents.
    pub stale: Vec<String>,
    /// Built but not on disk.
    pub missing: Vec<String>,
    /// On disk but not built.
    pub extra: Vec<String>,
}

impl Diff {
    /// Whether the folder matches the build exactly.
    pub fn is_clean(&self) -> bool {
        self.stale.is_empty() && self.missing.is_empty() && self.extra.is_empty()
    }
}

/// Refuse output folders whose replacement would destroy something that is
/// not a fairdice site: the project root, `content/`, `/`, or a non-empty
/// folder without the marker.
pub fn check_out_dir(out: &Path, root: &Path) -> Result<()> {
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let out_abs = canonical(out);
    let root_abs = canonical(root);
    let refuse = |why: &str| {
        Err(Error::Refused(format!(
            "refusing to write the site to {}: {why}",
            out.display()
        )))
    };
    if out_abs.parent().is_none() {
        return refuse("it is the file system root");
    }
    if out_abs == root_abs || root_abs.starts_with(&out_abs) {
        return refuse("it is the project folder or contains it");
    }
    for protected in ["content", "templates", "src"] {
        let p = canonical(&root.join(protected));
        if out_abs == p || out_abs.starts_with(&p) {
            return refuse(&format!("it is inside the project's {protected}/ folder"));
        }
    }
    if out_abs.is_dir() {
        let mut entries = std::fs::read_dir(&out_abs).map_err(|e| Error::io(&out_abs, e))?;
        let empty = entries.next().is_none();
        if !empty && !out_abs.join(MARKER).is_file() {
            return refuse("it is not empty and holds no earlier fairdice output");
        }
    } else if out_abs.exists() {
        return refuse("it is a file");
    }
    Ok(())
}

/// Write `files` as the folder `out`, replacing it whole.
pub fn write_site(out: &Path, files: &SiteFiles) -> Result<()> {
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    let name = out
        .file_name()
        .map_or("site".into(), |n| n.to_string_lossy().to_string());
    let staging = parent.join(format!("{name}.tmp-{}", std::process::id()));
    let old = parent.join(format!("{name}.old-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    let written = write_tree(&staging, files);
    if let Err(err) = written {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(err);
    }
    let had_old = out.exists();
    if had_old {
        std::fs::rename(out, &old).map_err(|e| Error::io(out, e))?;
    }
    if let Err(e) = std::fs::rename(&staging, out) {
        if had_old {
            let _ = std::fs::rename(&old, out);
        }
        let _ = std::fs::remove_dir_all(&staging);
        return Err(Error::io(out, e));
    }
    if had_old {
        std::fs::remove_dir_all(&old).map_err(|e| Error::io(&old, e))?;
    }
    Ok(())
}

fn write_tree(dir: &Path, files: &SiteFiles) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    for (relative, bytes) in files {
        let path = dir.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::write(&path, bytes).map_err(|e| Error::io(&path, e))?;
    }
    Ok(())
}

/// Compare the built files with the folder on disk.
pub fn diff(out: &Path, files: &SiteFiles) -> Result<Diff> {
    let mut diff = Diff::default();
    let on_disk = read_tree(out)?;
    for (path, bytes) in files {
        match on_disk.iter().find(|(p, _)| p == path) {
            None => diff.missing.push(path.clone()),
            Some((_, disk)) if disk != bytes => diff.stale.push(path.clone()),
            Some(_) => {}
        }
    }
    for (path, _) in &on_disk {
        if !files.contains_key(path) {
            diff.extra.push(path.clone());
        }
    }
    Ok(diff)
}

fn read_tree(dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    if !dir.exists() {
        return Ok(Vec::new());
    }
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(|e| Error::io(dir, e.into()))?;
        if entry.file_type().is_file() {
            let relative: PathBuf = entry
                .path()
                .strip_prefix(dir)
                .unwrap_or(entry.path())
                .to_path_buf();
            let relative = relative.to_string_lossy().replace('\\', "/");
            let bytes = std::fs::read(entry.path()).map_err(|e| Error::io(entry.path(), e))?;
            files.push((relative, bytes));
        }
    }
    Ok(files)
}
