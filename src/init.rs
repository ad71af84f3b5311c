//! `fairdice init DIR`: a new site that builds as it is, with a page, a
//! scenario of each kind and the default page templates to edit. No asset
//! is copied (style sheets, scripts, the browser's engine): the built-in
//! ones stay current with the program, and a site overrides one only by
//! putting its own in `templates/assets/`.
//!
//! The starter files live in `src/init/starter/` and are compiled in by the
//! cargo build script, like the default templates.

use crate::error::{Error, Result};
use crate::site::defaults;
use std::path::{Path, PathBuf};

/// Keeps generated files out of version control (the site is committed).
pub(crate) const GITIGNORE: &str = "/.fairdice-cache\n/site.tmp-*\n/site.old-*\n";

/// Write the starter project into `dir`, which must be missing or empty.
/// Returns the files written, relative to `dir`.
pub fn init(dir: &Path) -> Result<Vec<PathBuf>> {
    let refuse = |why: &str| {
        Err(Error::Usage(format!(
            "{} {why}: `fairdice init` only writes into a new or empty folder",
            dir.display()
        )))
    };
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() && !dir.exists() => {
            return refuse("is a symbolic link to nothing");
        }
        Ok(_) if !dir.is_dir() => return refuse("is a file, not a folder"),
        _ => {}
    }
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
        if entries.next().is_some() {
            return Err(Error::Usage(format!(
                "{} is not empty: `fairdice init` only writes into a new or empty folder",
                dir.display()
            )));
        }
    }
    let templates = defaults::templates()
        .filter(|(name, _)| !name.starts_with("assets/"))
        .map(|(name, bytes)| (format!("templates/{name}"), bytes));
    let starter = defaults::starter().map(|(name, bytes)| (name.to_string(), bytes));
    let gitignore = std::iter::once((".gitignore".to_string(), GITIGNORE.as_bytes()));
    let mut written = Vec::new();
    for (relative, bytes) in starter.chain(templates).chain(gitignore) {
        let path = dir.join(&relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::write(&path, bytes).map_err(|e| Error::io(&path, e))?;
        written.push(PathBuf::from(relative));
    }
    Ok(written)
}
