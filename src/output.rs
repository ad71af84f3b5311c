//! The write phase: the new site is written beside the old one and swapped in
//! only when complete, so a failed build leaves `site/` as it was.

use crate::error::{Error, Result};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::Path;

mod target;
pub use target::Target;

/// A site in memory: output path (`/`-separated) to file contents, as
/// rendering makes it and writing takes it.
pub type SiteFiles = std::collections::BTreeMap<String, Vec<u8>>;

/// A file every fairdice output folder holds, so `--out` knows it may
/// replace the folder.
pub(crate) const MARKER: &str = ".fairdice";
/// The marker's contents.
pub(crate) const MARKER_TEXT: &str =
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
    /// On disk as a symbolic link or another entry that is not a regular
    /// file or folder (`""`: the site folder itself).
    pub irregular: Vec<String>,
}

impl Diff {
    /// Whether the folder matches the build exactly.
    pub fn is_clean(&self) -> bool {
        self.stale.is_empty()
            && self.missing.is_empty()
            && self.extra.is_empty()
            && self.irregular.is_empty()
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
        Err(Error::Usage(format!(
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
        let marked = std::fs::symlink_metadata(out_abs.join(MARKER)).is_ok_and(|m| m.is_file());
        if !empty && !marked {
            return refuse("it is not empty and holds no earlier fairdice output");
        }
    } else if out_abs.exists() {
        return refuse("it is a file");
    }
    Ok(())
}

/// Write `files` as the folder `out`, replacing it whole.
pub fn write_site(out: &Path, files: &SiteFiles) -> Result<()> {
    write_site_with(out, files, &files::create_new)
}

/// [`write_site`] with the function that writes each file, so tests can make
/// the Nth write fail.
///
/// The site is written into a staging folder beside `out`, `NAME.tmp-PID/`,
/// which holds [`STAGING_MARKER`] and the new site in `new/`; then it is
/// swapped in. On Linux the swap is one atomic `renameat2(RENAME_EXCHANGE)`,
/// so a build killed at any moment leaves `out` holding either the old site
/// or the new one. Elsewhere it is two renames, with the old site parked in
/// the staging folder's `old/`, which the next build puts back.
pub fn write_site_with(
    out: &Path,
    files: &SiteFiles,
    write_file: &(dyn Fn(&Path, &[u8]) -> std::io::Result<()> + Sync),
) -> Result<()> {
    let (parent, name) = beside(out)?;
    let _lock = lock::acquire(&lock_path(parent, &name))?;
    staging::recover(parent, &name, out)?;
    let staging = staging::create(parent, &name, out)?;
    let new = staging.join("new");
    let result = write_tree(&new, out, files, write_file).and_then(|()| {
        if std::fs::symlink_metadata(out).is_ok() {
            swap::exchange(&new, out, &staging.join("old"))
        } else {
            std::fs::rename(&new, out)
        }
        .map_err(|e| Error::io(out, e))
    });
    // The staging folder now holds the old site, or the failed new one.
    // Tidying it is best effort: the next build removes it (it is marked).
    let _ = std::fs::remove_dir_all(&staging);
    result
}

/// The lock file of the site `out`, `.NAME.lock` beside it.
fn lock_path(parent: &Path, name: &str) -> std::path::PathBuf {
    parent.join(format!(".{name}.lock"))
}

pub use lock::Lock;

/// Take the project's lock, the one a build holds while it writes the site
/// `out`, waiting while another fairdice command holds it: so two commands
/// that read then write the project (`release`) never both act on what they
/// read before the other wrote.
pub(crate) fn lock_project(out: &Path) -> Result<Lock> {
    let (parent, name) = beside(out)?;
    lock::acquire(&lock_path(parent, &name))
}

/// The folder that holds the site `out` (made if missing), where its lock
/// and staging folder go, and the site folder's name.
fn beside(out: &Path) -> Result<(&Path, String)> {
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    let name = out
        .file_name()
        .map_or("site".into(), |n| n.to_string_lossy().to_string());
    Ok((parent, name))
}

/// The file that marks a staging folder as made by fairdice, so start-up
/// recovery never removes or restores a folder a person made.
pub(crate) const STAGING_MARKER: &str = ".fairdice-staging";

mod staging {
    //! Staging folders: `NAME.tmp-PID/`, marked inside, the only folders
    //! beside the site that a build removes or restores from.
    use super::{files, Error, Result, STAGING_MARKER};
    use std::path::{Path, PathBuf};

    pub(crate) fn marker_text(pid: u32) -> String {
        format!("fairdice staging folder of process {pid}; safe to delete when no build runs\n")
    }

    /// The process id in `NAME.tmp-PID`, for exactly that pattern.
    fn pid_of(entry: &str, name: &str) -> Option<u32> {
        let digits = entry.strip_prefix(name)?.strip_prefix(".tmp-")?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    }

    /// Whether `path` is a real folder (not a link) holding our marker for `pid`.
    fn is_ours(path: &Path, pid: u32) -> bool {
        let is_dir = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
        is_dir
            && files::read_regular(&path.join(STAGING_MARKER), 1024)
                .is_ok_and(|text| text == marker_text(pid).as_bytes())
    }

    /// Make this process's staging folder and its marker. A folder of that
    /// name that is not ours (recovery removed ours) is refused, not reused.
    pub fn create(parent: &Path, name: &str, out: &Path) -> Result<PathBuf> {
        let pid = std::process::id();
        let path = parent.join(format!("{name}.tmp-{pid}"));
        if let Err(err) = std::fs::create_dir(&path) {
            if err.kind() == std::io::ErrorKind::AlreadyExists {
                return Err(Error::file(
                    out.display(),
                    format!(
                        "cannot stage the new site: {} exists and was not made by fairdice; \
                     move or rename it",
                        path.display()
                    ),
                ));
            }
            return Err(Error::io(out, err));
        }
        let marked = files::create_new(&path.join(STAGING_MARKER), marker_text(pid).as_bytes());
        if let Err(err) = marked {
            let _ = std::fs::remove_dir_all(&path);
            return Err(Error::io(out, err));
        }
        Ok(path)
    }

    /// A build killed while writing its marker leaves the folder holding
    /// only a marker with the start of its text (perhaps none of it): that
    /// marker is removed, so the empty folder goes too. A folder holding
    /// anything else, or a marker with other words, is not touched.
    fn remove_half_made(path: &Path, pid: u32) {
        let Ok(entries) = std::fs::read_dir(path) else {
            return;
        };
        let names: Vec<_> = entries.take(2).filter_map(|e| e.ok()).collect();
        let only_marker = names.len() == 1 && names[0].file_name() == STAGING_MARKER;
        let marker = path.join(STAGING_MARKER);
        if only_marker
            && files::read_regular(&marker, 1024)
                .is_ok_and(|text| marker_text(pid).as_bytes().starts_with(&text))
        {
            let _ = std::fs::remove_file(&marker);
        }
    }

    /// Tidy what a killed build left beside `out`: marked staging folders
    /// are removed, after restoring a parked old site if `out` is gone.
    /// An empty folder of the pattern (a build killed before writing its
    /// marker) is removed too, by `remove_dir`, which refuses a folder that
    /// holds anything. Anything else, whatever its name, is left alone.
    pub(crate) fn recover(parent: &Path, name: &str, out: &Path) -> Result<()> {
        let entries = std::fs::read_dir(parent).map_err(|e| Error::io(parent, e))?;
        let mut leftovers: Vec<PathBuf> = entries
            .filter_map(|entry| {
                let entry = entry.ok()?;
                let pid = pid_of(entry.file_name().to_str()?, name)?;
                let path = entry.path();
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    remove_half_made(&path, pid);
                    let _ = std::fs::remove_dir(&path);
                }
                Some(path).filter(|path| is_ours(path, pid))
            })
            .collect();
        leftovers.sort();
        for path in leftovers {
            let old = path.join("old");
            let parked = std::fs::symlink_metadata(&old).is_ok_and(|m| m.is_dir());
            if parked && std::fs::symlink_metadata(out).is_err() {
                std::fs::rename(&old, out).map_err(|e| {
                    Error::io(
                        out,
                        std::io::Error::new(
                            e.kind(),
                            format!(
                                "could not restore the previous site from {}: {e}",
                                old.display()
                            ),
                        ),
                    )
                })?;
            }
            let _ = std::fs::remove_dir_all(&path);
        }
        Ok(())
    }
}

/// Write every file under `dir`; errors name the file under `out`, the
/// folder the user asked for, not the staging folder.
fn write_tree(
    dir: &Path,
    out: &Path,
    files: &SiteFiles,
    write_file: &(dyn Fn(&Path, &[u8]) -> std::io::Result<()> + Sync),
) -> Result<()> {
    std::fs::create_dir(dir).map_err(|e| Error::io(out, e))?;
    // Folders first, one by one; then the files in parallel, since creating
    // thousands of small files is most of the write phase.
    let folders: BTreeSet<&str> = files
        .keys()
        .filter_map(|relative| relative.rsplit_once('/').map(|(folder, _)| folder))
        .collect();
    for folder in folders {
        std::fs::create_dir_all(dir.join(folder)).map_err(|e| Error::io(out.join(folder), e))?;
    }
    files.par_iter().try_for_each(|(relative, bytes)| {
        write_file(&dir.join(relative), bytes).map_err(|e| Error::io(out.join(relative), e))
    })
}

mod swap {
    //! Replacing one folder by another.
    use std::path::Path;

    /// Swap the contents of the names `a` and `b`, atomically where the
    /// system can; otherwise `b` is parked at `park` meanwhile.
    #[cfg(target_os = "linux")]
    pub fn exchange(a: &Path, b: &Path, park: &Path) -> std::io::Result<()> {
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
            Some(libc::EINVAL) | Some(libc::ENOSYS) => two_renames(a, b, park),
            _ => Err(err),
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub fn exchange(a: &Path, b: &Path, park: &Path) -> std::io::Result<()> {
        two_renames(a, b, park)
    }

    /// `b` parked at `park`, `a` moved to `b`; `b` put back if that fails.
    fn two_renames(a: &Path, b: &Path, park: &Path) -> std::io::Result<()> {
        std::fs::rename(b, park)?;
        if let Err(err) = std::fs::rename(a, b) {
            std::fs::rename(park, b)?;
            return Err(err);
        }
        Ok(())
    }
}

mod lock {
    //! One build at a time writes a given site.
    use super::files;
    use crate::error::{Error, Result};
    use std::fs::File;
    use std::path::Path;

    /// Held while writing; released when dropped or when the process dies.
    pub struct Lock {
        _file: File,
    }

    /// Take the lock at `path`, waiting (with a message) while another build holds it.
    #[cfg(target_os = "linux")]
    pub(crate) fn acquire(path: &Path) -> Result<Lock> {
        use std::os::unix::io::AsRawFd;
        let file = files::open_lock(path).map_err(|e| Error::io(path, e))?;
        let fd = file.as_raw_fd();
        // SAFETY: flock on a file descriptor we own.
        if unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            eprintln!(
                "another fairdice build is writing this site; waiting for it to finish ({})",
                crate::printable::printable(&path.display().to_string())
            );
            // SAFETY: as above; blocks until the other build releases the lock.
            if unsafe { libc::flock(fd, libc::LOCK_EX) } != 0 {
                return Err(Error::io(path, std::io::Error::last_os_error()));
            }
        }
        Ok(Lock { _file: file })
    }

    #[cfg(not(target_os = "linux"))]
    pub(crate) fn acquire(path: &Path) -> Result<Lock> {
        let file = files::open_lock(path).map_err(|e| Error::io(path, e))?;
        Ok(Lock { _file: file })
    }
}

pub mod files {
    //! Files the program makes (the lock, markers, site files, cache
    //! entries, reports and their temporaries) are never opened through a
    //! symbolic link, and an existing file is never truncated: new files
    //! are created exclusively and moved into place by renaming, which
    //! replaces a link rather than writing through it.
    use std::fs::{File, OpenOptions};
    use std::io::{Error, ErrorKind, Read, Write};
    use std::path::Path;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// The error for a path that is a link or not a regular file.
    fn not_regular(path: &Path) -> Error {
        let what = match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => "is a symbolic link",
            _ => "is not a regular file",
        };
        Error::new(
            ErrorKind::InvalidInput,
            format!(
                "{what}, and fairdice never reads or writes its own files through one: remove it"
            ),
        )
    }

    /// Open options that refuse a final symbolic link and never block on a
    /// FIFO (on Linux; elsewhere the caller checks first).
    fn options() -> OpenOptions {
        #[allow(unused_mut)]
        let mut options = OpenOptions::new();
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        }
        options
    }

    /// Open with `options`, refusing links and anything but a regular file.
    fn open(path: &Path, options: &OpenOptions) -> std::io::Result<File> {
        if !cfg!(target_os = "linux") && std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file())
        {
            return Err(not_regular(path));
        }
        let file = options.open(path).map_err(|err| {
            if is_link_refused(&err) {
                not_regular(path)
            } else {
                err
            }
        })?;
        if !file.metadata()?.is_file() {
            return Err(not_regular(path));
        }
        Ok(file)
    }

    /// Whether opening failed because `O_NOFOLLOW` met a link.
    fn is_link_refused(err: &Error) -> bool {
        #[cfg(target_os = "linux")]
        return err.raw_os_error() == Some(libc::ELOOP);
        #[cfg(not(target_os = "linux"))]
        return {
            let _ = err;
            false
        };
    }

    /// Create `path`, which must not exist, and write `bytes`; a partly
    /// written file is removed.
    pub(crate) fn create_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
        file.write_all(bytes).inspect_err(|_| {
            let _ = std::fs::remove_file(path);
        })
    }

    /// The contents of the regular file `path` (not a link), if at most
    /// `limit` bytes long.
    pub(crate) fn read_regular(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
        let file = open(path, options().read(true))?;
        let mut bytes = Vec::new();
        file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > limit {
            return Err(Error::new(
                ErrorKind::InvalidData,
                format!("larger than {limit} bytes"),
            ));
        }
        Ok(bytes)
    }

    /// The first `n` bytes of the regular file `path` (fewer if shorter).
    pub(crate) fn read_prefix(path: &Path, n: usize) -> std::io::Result<Vec<u8>> {
        let file = open(path, options().read(true))?;
        let mut bytes = Vec::new();
        file.take(n as u64).read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    /// Open (or create) the lock file, never truncating it.
    pub(crate) fn open_lock(path: &Path) -> std::io::Result<File> {
        open(path, options().read(true).write(true).create(true))
    }

    /// The name of a new temporary beside `base` ([`crate::paths::temporary_name`]).
    fn temporary_name(base: &str) -> String {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        crate::paths::temporary_name(base, std::process::id(), n)
    }

    /// If `name` is a temporary of this naming scheme left by a process
    /// that has ended, the name it was meant to become.
    pub(crate) fn stale_temporary(name: &str) -> Option<&str> {
        let (base, pid) = crate::paths::temporary_of(name)?;
        (pid != std::process::id() && !process_runs(pid)).then_some(base)
    }

    /// Remove the regular files in `dir` that are temporaries left by ended
    /// processes for a name `is_base` accepts; nothing else (a kill between
    /// writing a temporary and renaming it leaves one behind).
    pub fn remove_stale_temporaries(dir: &Path, is_base: impl Fn(&str) -> bool) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let stale = name
                .to_str()
                .and_then(stale_temporary)
                .is_some_and(&is_base);
            if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    /// Whether a process with this id exists (assumed so where unknown).
    pub(crate) fn process_runs(pid: u32) -> bool {
        #[cfg(target_os = "linux")]
        {
            let Ok(pid) = libc::pid_t::try_from(pid) else {
                return false;
            };
            // SAFETY: signal 0 only asks whether the process exists.
            pid > 0
                && (unsafe { libc::kill(pid, 0) } == 0
                    || Error::last_os_error().raw_os_error() != Some(libc::ESRCH))
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = pid;
            true
        }
    }

    /// Write `bytes` to `path` whole or not at all: a new temporary beside
    /// it, then a rename. The temporary is removed on every failure.
    pub fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let base = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .ok_or_else(|| Error::new(ErrorKind::InvalidInput, "not a file name"))?;
        let mut attempts = 0;
        let temporary = loop {
            let temporary = path.with_file_name(temporary_name(&base));
            match create_new(&temporary, bytes) {
                Ok(()) => break temporary,
                // Left by a killed process that had this id: try the next name.
                Err(e) if e.kind() == ErrorKind::AlreadyExists && attempts < 100 => attempts += 1,
                Err(e) => return Err(e),
            }
        };
        std::fs::rename(&temporary, path).inspect_err(|_| {
            let _ = std::fs::remove_file(&temporary);
        })
    }
}

/// Compare the built files with the folder on disk. Anything on disk that
/// is not a regular file or folder (a symbolic link, a FIFO) is a
/// difference: a site must never publish what a link points to.
pub fn diff(out: &Path, files: &SiteFiles) -> Result<Diff> {
    let mut diff = Diff::default();
    let mut seen = BTreeSet::new();
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::io(out, e)),
        Ok(meta) if !meta.is_dir() => diff.irregular.push(String::new()),
        Ok(_) => compare_tree(out, files, &mut diff, &mut seen)?,
    }
    diff.missing = files
        .keys()
        .filter(|path| !seen.contains(path.as_str()))
        .cloned()
        .collect();
    for list in [&mut diff.stale, &mut diff.extra, &mut diff.irregular] {
        list.sort();
    }
    Ok(diff)
}

/// Walk `out` once (links not followed), reading a file only when its size
/// matches the built one, so memory holds one file at a time.
fn compare_tree(
    out: &Path,
    files: &SiteFiles,
    diff: &mut Diff,
    seen: &mut BTreeSet<String>,
) -> Result<()> {
    for entry in walkdir::WalkDir::new(out).min_depth(1) {
        let entry = entry.map_err(|e| {
            let path = e.path().unwrap_or(out).to_path_buf();
            Error::io(path, e.into())
        })?;
        let kind = entry.file_type();
        if kind.is_dir() {
            continue;
        }
        let relative = entry
            .path()
            .strip_prefix(out)
            .unwrap_or(entry.path())
            .to_string_lossy()
            .replace('\\', "/");
        if !kind.is_file() {
            diff.irregular.push(relative.clone());
        } else if let Some(built) = files.get(&relative) {
            let size = entry
                .metadata()
                .map_err(|e| Error::io(entry.path(), e.into()))?;
            let limit = built.len() as u64;
            let same = size.len() == limit
                && files::read_regular(entry.path(), limit)
                    .map_err(|e| Error::io(entry.path(), e))?
                    == *built;
            if !same {
                diff.stale.push(relative.clone());
            }
        } else {
            diff.extra.push(relative.clone());
        }
        seen.insert(relative);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    fn marked(parent: &Path, name: &str, pid: u32) -> PathBuf {
        let path = parent.join(name);
        fs::create_dir(&path).unwrap();
        fs::write(path.join(STAGING_MARKER), staging::marker_text(pid)).unwrap();
        path
    }

    #[test]
    fn recovery_removes_or_restores_only_marked_folders_of_the_pattern() {
        let dir = tempfile::tempdir().unwrap();
        let parent = dir.path();
        let out = parent.join("site");
        let ours = marked(parent, "site.tmp-31", 31);
        fs::create_dir(ours.join("old")).unwrap();
        fs::write(ours.join("old/index.html"), "old site").unwrap();
        let also_ours = marked(parent, "site.tmp-32", 32);
        let wrong_pid = marked(parent, "site.tmp-33", 34);
        let not_pattern = marked(parent, "site.tmp-33a", 33);
        let other_site = marked(parent, "sites.tmp-35", 35);
        let unmarked = parent.join("site.tmp-36");
        fs::create_dir(&unmarked).unwrap();
        fs::write(unmarked.join("notes.txt"), "a person's").unwrap();
        let empty = parent.join("site.tmp-39");
        fs::create_dir(&empty).unwrap();
        // Killed while writing the marker: none or part of its text.
        let half_marked = parent.join("site.tmp-40");
        fs::create_dir(&half_marked).unwrap();
        fs::write(half_marked.join(STAGING_MARKER), "").unwrap();
        let part_marked = parent.join("site.tmp-41");
        fs::create_dir(&part_marked).unwrap();
        fs::write(
            part_marked.join(STAGING_MARKER),
            &staging::marker_text(41)[..20],
        )
        .unwrap();
        // But not a partial marker beside other files, nor other words.
        let part_and_more = parent.join("site.tmp-42");
        fs::create_dir(&part_and_more).unwrap();
        fs::write(part_and_more.join(STAGING_MARKER), "").unwrap();
        fs::write(part_and_more.join("notes.txt"), "a person's").unwrap();
        let other_words = parent.join("site.tmp-43");
        fs::create_dir(&other_words).unwrap();
        fs::write(other_words.join(STAGING_MARKER), "mine").unwrap();
        // A link to a marked folder, and a marker that is a link.
        let elsewhere = tempfile::tempdir().unwrap();
        let target = marked(elsewhere.path(), "site.tmp-37", 37);
        std::os::unix::fs::symlink(&target, parent.join("site.tmp-37")).unwrap();
        let link_marker = parent.join("site.tmp-38");
        fs::create_dir(&link_marker).unwrap();
        std::os::unix::fs::symlink(
            target.join(STAGING_MARKER),
            link_marker.join(STAGING_MARKER),
        )
        .unwrap();

        staging::recover(parent, "site", &out).unwrap();
        assert_eq!(
            fs::read_to_string(out.join("index.html")).unwrap(),
            "old site"
        );
        assert!(!ours.exists() && !also_ours.exists() && !empty.exists());
        assert!(!half_marked.exists() && !part_marked.exists());
        for kept in [
            &part_and_more,
            &other_words,
            &wrong_pid,
            &not_pattern,
            &other_site,
            &unmarked,
            &link_marker,
        ] {
            assert!(kept.is_dir(), "{}", kept.display());
        }
        assert!(target.join(STAGING_MARKER).is_file());
        assert!(fs::symlink_metadata(parent.join("site.tmp-37")).is_ok());
    }

    #[test]
    fn a_failed_replace_leaves_the_target_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("r.html");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("inside"), "x").unwrap();
        assert!(files::replace(&target, b"<html>").is_err());
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        assert_eq!(fs::read_to_string(target.join("inside")).unwrap(), "x");
    }

    #[test]
    fn own_files_are_never_read_or_locked_through_links_or_fifos() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::write(&real, "precious").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let fifo = dir.path().join("fifo");
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::ffi::OsStrExt;
            let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
            // SAFETY: a valid NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        }
        for path in [&link, &fifo] {
            if fs::symlink_metadata(path).is_err() {
                continue;
            }
            let read = files::read_regular(path, 100).unwrap_err().to_string();
            let lock = files::open_lock(path).unwrap_err().to_string();
            for err in [read, lock] {
                assert!(
                    err.contains("never reads or writes its own files through"),
                    "{err}"
                );
            }
        }
        assert!(files::create_new(&link, b"x").is_err());
        assert_eq!(fs::read_to_string(&real).unwrap(), "precious");
        assert_eq!(files::read_regular(&real, 8).unwrap(), b"precious");
        assert!(files::read_regular(&real, 7).is_err());
    }

    #[test]
    fn stale_temporaries_follow_the_naming_scheme_only() {
        let ours = format!("a.json.tmp-{}-0", std::process::id());
        assert_eq!(
            files::stale_temporary("a.json.tmp-999999999-3"),
            Some("a.json")
        );
        for name in [
            ours.as_str(),
            "a.json.tmp-1-3",
            "a.json.tmp-999999999",
            "a.json.tmp--3",
            "a.json.tmp-99999999999999999999999-3",
            "a.json.tmp-9x-3",
            "a.json",
        ] {
            assert_eq!(files::stale_temporary(name), None, "{name}");
        }
    }

    #[test]
    fn diff_reports_links_and_never_reads_through_them() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        fs::create_dir(&out).unwrap();
        fs::write(dir.path().join("outside"), "same").unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside"), out.join("a.txt")).unwrap();
        fs::write(out.join("b.txt"), "same").unwrap();
        let files: SiteFiles = [("a.txt", "same"), ("b.txt", "same"), ("c.txt", "new")]
            .into_iter()
            .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
            .collect();
        let diff = diff(&out, &files).unwrap();
        assert_eq!(diff.irregular, vec!["a.txt".to_string()]);
        assert_eq!(diff.missing, vec!["c.txt".to_string()]);
        assert!(diff.stale.is_empty() && diff.extra.is_empty());
    }
}
