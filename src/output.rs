//! The write phase: the new site is written beside the old one and swapped in
//! only when complete, so a failed build leaves `site/` as it was.

use crate::error::{Error, Result};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A site in memory: output path (`/`-separated) to file contents, as
/// rendering makes it and writing takes it.
pub type SiteFiles = std::collections::BTreeMap<String, Vec<u8>>;

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
    write_site_with(out, files, &|path, bytes| std::fs::write(path, bytes))
}

/// [`write_site`] with the function that writes each file, so tests can make
/// the Nth write fail.
///
/// The site is written to a staging folder beside `out`, then swapped in.
/// On Linux the swap is one atomic `renameat2(RENAME_EXCHANGE)`, so a build
/// killed at any moment leaves `out` holding either the old site or the new
/// one. Elsewhere it is two renames, and a kill between them leaves the old
/// site in `NAME.old-PID`, which the next build puts back.
pub fn write_site_with(
    out: &Path,
    files: &SiteFiles,
    write_file: &(dyn Fn(&Path, &[u8]) -> std::io::Result<()> + Sync),
) -> Result<()> {
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    let name = out
        .file_name()
        .map_or("site".into(), |n| n.to_string_lossy().to_string());
    let _lock = lock::acquire(&parent.join(format!(".{name}.lock")))?;
    recover_interrupted(parent, &name, out)?;
    let staging = parent.join(format!("{name}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    if let Err(err) = write_tree(&staging, files, write_file) {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(err);
    }
    if out.exists() {
        swap::exchange(&staging, out).map_err(|e| Error::io(out, e))?;
        // `staging` now holds the old site.
        std::fs::remove_dir_all(&staging).map_err(|e| Error::io(&staging, e))?;
    } else {
        std::fs::rename(&staging, out).map_err(|e| Error::io(out, e))?;
    }
    Ok(())
}

/// Tidy what a killed build left beside `out`: staging folders are dropped,
/// and an old site parked by a non-atomic swap is restored if `out` is gone.
fn recover_interrupted(parent: &Path, name: &str, out: &Path) -> Result<()> {
    let entries = std::fs::read_dir(parent).map_err(|e| Error::io(parent, e))?;
    let mut leftovers: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.strip_prefix(name)
                    .is_some_and(|rest| rest.starts_with(".tmp-") || rest.starts_with(".old-"))
            })
        })
        .collect();
    leftovers.sort();
    for path in leftovers {
        let is_old = path.to_string_lossy().contains(".old-");
        if is_old && !out.exists() {
            std::fs::rename(&path, out).map_err(|e| Error::io(&path, e))?;
        } else {
            std::fs::remove_dir_all(&path).map_err(|e| Error::io(&path, e))?;
        }
    }
    Ok(())
}

fn write_tree(
    dir: &Path,
    files: &SiteFiles,
    write_file: &(dyn Fn(&Path, &[u8]) -> std::io::Result<()> + Sync),
) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    // Folders first, one by one; then the files in parallel, since creating
    // thousands of small files is most of the write phase.
    let folders: BTreeSet<PathBuf> = files
        .keys()
        .filter_map(|relative| dir.join(relative).parent().map(Path::to_path_buf))
        .collect();
    for folder in &folders {
        std::fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))?;
    }
    files.par_iter().try_for_each(|(relative, bytes)| {
        let path = dir.join(relative);
        write_file(&path, bytes).map_err(|e| Error::io(&path, e))
    })
}

mod swap {
    //! Replacing one folder by another.
    use std::path::Path;

    /// Swap the contents of the names `a` and `b`, atomically where the
    /// system can.
    #[cfg(target_os = "linux")]
    pub fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let c = |p: &Path| CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other);
        let (ca, cb) = (c(a)?, c(b)?);
        // SAFETY: both paths are valid NUL-terminated strings that outlive the call.
        let rc = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                ca.as_ptr(),
                libc::AT_FDCWD,
                cb.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if rc == 0 {
            return Ok(());
        }
        let err = std::io::Error::last_os_error();
        match err.raw_os_error() {
            // Not supported by this kernel or file system: fall back.
            Some(libc::EINVAL) | Some(libc::ENOSYS) => two_renames(a, b),
            _ => Err(err),
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
        two_renames(a, b)
    }

    /// `b` parked as `NAME.old-PID`, `a` moved to `b`, the old one moved to `a`.
    fn two_renames(a: &Path, b: &Path) -> std::io::Result<()> {
        let name = b
            .file_name()
            .map_or("site".into(), |n| n.to_string_lossy().to_string());
        let parked = b.with_file_name(format!("{name}.old-{}", std::process::id()));
        std::fs::rename(b, &parked)?;
        if let Err(err) = std::fs::rename(a, b) {
            std::fs::rename(&parked, b)?;
            return Err(err);
        }
        std::fs::rename(&parked, a)
    }
}

mod lock {
    //! One build at a time writes a given site.
    use crate::error::{Error, Result};
    use std::fs::File;
    use std::path::Path;

    /// Held while writing; released when dropped or when the process dies.
    pub struct Lock {
        _file: File,
    }

    /// Take the lock at `path`, waiting (with a message) while another build holds it.
    #[cfg(target_os = "linux")]
    pub fn acquire(path: &Path) -> Result<Lock> {
        use std::os::unix::io::AsRawFd;
        let file = File::create(path).map_err(|e| Error::io(path, e))?;
        let fd = file.as_raw_fd();
        // SAFETY: flock on a file descriptor we own.
        if unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            eprintln!(
                "another fairdice build is writing this site; waiting for it to finish ({})",
                path.display()
            );
            // SAFETY: as above; blocks until the other build releases the lock.
            if unsafe { libc::flock(fd, libc::LOCK_EX) } != 0 {
                return Err(Error::io(path, std::io::Error::last_os_error()));
            }
        }
        Ok(Lock { _file: file })
    }

    #[cfg(not(target_os = "linux"))]
    pub fn acquire(path: &Path) -> Result<Lock> {
        let file = File::create(path).map_err(|e| Error::io(path, e))?;
        Ok(Lock { _file: file })
    }
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
