//! One file a command writes on request (`report -o`, `pdf -o`): the one
//! rule for what it may replace, and standard output for `-o -`.

use super::files;
use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The `-o` that names standard output, as the usual tools take it (a
/// file of that name is `./-`).
pub const STDOUT: &str = "-";

/// One file a command writes on request, and what it must never write
/// over.
pub struct Target<'a> {
    /// What is written, for messages: "report", "PDF".
    pub what: &'a str,
    /// The file to write, or [`STDOUT`].
    pub out: &'a Path,
    /// Files read to make it, each with its noun ("scenario file"):
    /// never replaced.
    pub sources: &'a [(&'a str, &'a Path)],
    /// Folders fairdice reads or rebuilds (a project's `content/`,
    /// `templates/` and site): nothing is written inside them.
    pub source_folders: &'a [&'a Path],
    /// Leading bytes of an earlier output of the same command, replaced
    /// without `force` (a PDF over a PDF); none to require `force`.
    pub earlier_output: Option<&'a [u8]>,
    /// Replace any other existing regular file (never anything else).
    pub force: bool,
}

impl Target<'_> {
    /// Whether the output goes to standard output (`-o -`).
    pub fn is_stdout(&self) -> bool {
        self.out.as_os_str() == STDOUT
    }

    /// Where the output went, for the closing note.
    pub fn shown(&self) -> String {
        if self.is_stdout() {
            "standard output".into()
        } else {
            self.out.display().to_string()
        }
    }

    /// Refuse a source, a file inside a source folder, and anything that
    /// exists but is not a regular file (a folder, a symbolic link whatever
    /// it points to, a FIFO, a device, a socket), even with `force`; and,
    /// without `force`, a regular file that is not an earlier output: the
    /// command replaces only what the user asked it to. Standard output
    /// (`-o -`) is always accepted.
    pub fn check(&self) -> Result<()> {
        if self.is_stdout() {
            return Ok(());
        }
        let refuse = |why: String| {
            Err(Error::Usage(format!(
                "refusing to write the {} to {}: {why}",
                self.what,
                self.out.display()
            )))
        };
        let example = if self.what == "PDF" {
            "rules.pdf"
        } else {
            "report.html"
        };
        if let Some(folder) = self.source_folders.iter().find(|f| inside(self.out, f)) {
            return refuse(format!(
                "it is inside {}, which fairdice reads or rebuilds: choose a file outside it, such as {example}",
                folder.display()
            ));
        }
        let Ok(meta) = std::fs::symlink_metadata(self.out) else {
            return Ok(());
        };
        if let Some((noun, source)) = self.sources.iter().find(|(_, s)| same_file(s, self.out)) {
            return refuse(format!(
                "it is the {noun} {} itself: choose another -o file, such as {example}",
                source.display()
            ));
        }
        if meta.is_dir() {
            return refuse(format!(
                "it is a folder: name the file to write, such as {example}"
            ));
        }
        // Replacing a link would remove it (`/dev/stdout` is one), and
        // writing through it would write where it points: neither is asked
        // for by naming the link, so neither is done, --force or not.
        if meta.file_type().is_symlink() {
            let to = std::fs::read_link(self.out)
                .map(|target| format!(" (to {})", target.display()))
                .unwrap_or_default();
            return refuse(format!(
                "it is a symbolic link{to}, and --force replaces only a regular file: name the \
                 file itself, or `-o -` for standard output"
            ));
        }
        if !meta.is_file() {
            return refuse(
                "it is not a regular file (a FIFO, a device or a socket), and --force replaces \
                 only a regular file: choose a new file, or `-o -` for standard output"
                    .into(),
            );
        }
        let earlier = self
            .earlier_output
            .is_some_and(|magic| starts_with(self.out, magic));
        if !self.force && !earlier {
            return refuse(
                "it exists: pass --force to replace it, or choose another -o file".into(),
            );
        }
        Ok(())
    }

    /// Write `bytes` to standard output, or (checked again, since the
    /// work took a while) to the file whole or not at all.
    pub fn write(&self, bytes: &[u8]) -> Result<()> {
        if self.is_stdout() {
            let mut out = std::io::stdout().lock();
            return out
                .write_all(bytes)
                .and_then(|()| out.flush())
                .map_err(|e| Error::io("standard output", e));
        }
        self.check()?;
        files::replace(self.out, bytes).map_err(|e| Error::io(self.out, e))
    }
}

/// Whether `path` lies inside `folder`, either of which may not exist
/// yet, compared by their real paths.
fn inside(path: &Path, folder: &Path) -> bool {
    real(path).starts_with(real(folder))
}

/// The real path of `path`: its nearest existing ancestor resolved
/// through links, then the rest of it as written (`..` taken lexically).
fn real(path: &Path) -> PathBuf {
    let absolute = std::env::current_dir().unwrap_or_default().join(path);
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    while existing.canonicalize().is_err() {
        let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) else {
            break;
        };
        rest.push(name.to_os_string());
        existing = parent;
    }
    let mut real = existing
        .canonicalize()
        .unwrap_or_else(|_| existing.to_path_buf());
    for name in rest.iter().rev() {
        match name.to_str() {
            Some(".") => {}
            Some("..") => {
                real.pop();
            }
            _ => real.push(name),
        }
    }
    real
}

/// Whether the regular file at `path` begins with `magic`.
fn starts_with(path: &Path, magic: &[u8]) -> bool {
    files::read_prefix(path, magic.len()).is_ok_and(|head| head == magic)
}

/// Whether two paths name the same file (through links and hard links).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return a.dev() == b.dev() && a.ino() == b.ino();
        }
    }
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn pdf_target<'a>(out: &'a Path, folders: &'a [&'a Path], force: bool) -> Target<'a> {
        Target {
            what: "PDF",
            out,
            sources: &[],
            source_folders: folders,
            earlier_output: Some(b"%PDF-"),
            force,
        }
    }

    #[test]
    fn an_earlier_pdf_is_replaced_another_file_only_with_force() {
        let dir = tempfile::tempdir().unwrap();
        let (pdf, notes) = (dir.path().join("old.pdf"), dir.path().join("notes.pdf"));
        fs::write(&pdf, "%PDF-1.4 ...").unwrap();
        fs::write(&notes, "not a PDF").unwrap();
        assert!(pdf_target(&pdf, &[], false).check().is_ok());
        assert!(pdf_target(&dir.path().join("new.pdf"), &[], false)
            .check()
            .is_ok());
        let refused = pdf_target(&notes, &[], false)
            .check()
            .unwrap_err()
            .to_string();
        assert!(refused.contains("it exists: pass --force"), "{refused}");
        assert!(pdf_target(&notes, &[], true).check().is_ok());
    }

    #[test]
    fn nothing_is_written_inside_a_source_folder_however_it_is_spelled() {
        let dir = tempfile::tempdir().unwrap();
        let content = dir.path().join("content");
        fs::create_dir(&content).unwrap();
        fs::create_dir(dir.path().join("other")).unwrap();
        let folders = [content.as_path()];
        for out in [
            "content/a.pdf",
            "other/../content/a.pdf",
            "content/new/deep.pdf",
            "./content/./x",
        ] {
            let out = dir.path().join(out);
            assert!(
                pdf_target(&out, &folders, true).check().is_err(),
                "{}",
                out.display()
            );
        }
        let beside = dir.path().join("content.pdf");
        assert!(pdf_target(&beside, &folders, true).check().is_ok());
    }
}
