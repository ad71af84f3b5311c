//! Who writes each file of the site. Every path the build makes is
//! reserved (the print page, the search index, `assets/`, the site marker,
//! and each page's, scenario's and content file's outputs), so a content
//! file can never replace a generated one, and two sources never write one
//! file: each clash is an error naming both.

use crate::error::Error;
use std::collections::BTreeMap;

/// Where a file of the site comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner<'a> {
    /// A file under `content/` (a page, a scenario or a copied file),
    /// relative to it.
    Content(&'a str),
    /// Something the build makes, described for error messages.
    Generated(&'static str),
}

impl Owner<'_> {
    fn describe(&self) -> String {
        match self {
            Owner::Content(source) => crate::paths::content_file(source),
            Owner::Generated(what) => (*what).to_string(),
        }
    }
}

/// The paths claimed so far, keyed case-folded: names that differ only in
/// case are one file on macOS and Windows.
#[derive(Default)]
pub(crate) struct Claims<'a> {
    files: BTreeMap<String, (String, Owner<'a>)>,
    folders: BTreeMap<String, (String, Owner<'a>)>,
    /// One error per clash, on the content file that came second.
    pub errors: Vec<Error>,
}

impl<'a> Claims<'a> {
    /// Reserve the folder `path` and everything in it for `owner`.
    pub fn folder(&mut self, path: &str, owner: Owner<'a>) {
        self.folders
            .insert(path.to_lowercase(), (path.to_string(), owner));
    }

    /// `owner` writes the file `path`.
    pub fn file(&mut self, path: &str, owner: Owner<'a>) {
        let folded = path.to_lowercase();
        if let Some((first, earlier)) = self.files.get(&folded) {
            let message = if first == path {
                let what = if path.ends_with(".html") {
                    "page"
                } else {
                    "file"
                };
                format!("writes the same {what} {path} as {}", earlier.describe())
            } else {
                format!(
                    "writes {path}, and {} writes {first}: the names differ only in case, so they \
                     are one file on macOS and Windows",
                    earlier.describe()
                )
            };
            return self.clash(owner, *earlier, message);
        }
        if let Some((_, earlier)) = self.folders.get(&folded) {
            let message = format!(
                "writes the file {path}, but {} needs a folder of that name",
                earlier.describe()
            );
            return self.clash(owner, *earlier, message);
        }
        let mut ancestor = path;
        while let Some((parent, _)) = ancestor.rsplit_once('/') {
            ancestor = parent;
            let folder = parent.to_lowercase();
            let clash = match (self.files.get(&folder), self.folders.get(&folder)) {
                (Some((file, earlier)), _) => Some((
                    *earlier,
                    format!(
                        "writes {path} inside a folder {file}, but {} writes a file of that name",
                        earlier.describe()
                    ),
                )),
                (None, Some((name, earlier @ Owner::Generated(what)))) if owner != *earlier => {
                    Some((
                        *earlier,
                        format!("writes {path}, but {name}/ in the site holds {what}"),
                    ))
                }
                _ => None,
            };
            if let Some((earlier, message)) = clash {
                return self.clash(owner, earlier, message);
            }
            self.folders
                .entry(folder)
                .or_insert((parent.to_string(), owner));
        }
        self.files.insert(folded, (path.to_string(), owner));
    }

    fn clash(&mut self, owner: Owner, earlier: Owner, message: String) {
        let error = match (owner, earlier) {
            (Owner::Content(source), Owner::Content(_)) => {
                located(source, format!("{message}: rename one of them"))
            }
            (Owner::Content(source), Owner::Generated(_))
            | (Owner::Generated(_), Owner::Content(source)) => located(
                source,
                format!("{message}, a name the build keeps for itself: rename content/{source}"),
            ),
            // Two names the build makes itself: a bug, not the author's.
            (Owner::Generated(_), Owner::Generated(_)) => Error::Internal(message),
        };
        self.errors.push(error);
    }
}

fn located(source: &str, message: String) -> Error {
    Error::Source {
        file: crate::paths::content_file(source),
        line: 1,
        column: 1,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(claims: &[(&str, Owner)]) -> Vec<String> {
        let mut all = Claims::default();
        all.folder("assets", Owner::Generated("the template assets"));
        all.file("print.html", Owner::Generated("the print page"));
        for (path, owner) in claims {
            all.file(path, *owner);
        }
        all.errors.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn every_clash_names_both_sides() {
        let c = Owner::Content;
        assert_eq!(
            errors(&[("print.html", c("print.md"))]),
            ["content/print.md:1:1: writes the same page print.html as the print page, a name the build keeps for itself: rename content/print.md"]
        );
        assert_eq!(
            errors(&[("a.html", c("a.md")), ("a.html", c("a.yaml"))]),
            ["content/a.yaml:1:1: writes the same page a.html as content/a.md: rename one of them"]
        );
        let case = errors(&[("Print.html", c("Print.md"))]);
        assert!(case[0].contains("differ only in case"), "{case:?}");
        let inside = errors(&[("a.html", c("a.md")), ("a.html/b.html", c("a.html/b.md"))]);
        assert!(inside[0].starts_with("content/a.html/b.md:1:1: writes a.html/b.html inside a folder a.html, but content/a.md"), "{inside:?}");
        let over = errors(&[("d/x.html", c("d/x.md")), ("D", c("D"))]);
        assert!(over[0].contains("needs a folder"), "{over:?}");
        let reserved = errors(&[("assets/x.png", c("assets/x.png"))]);
        assert!(
            reserved[0].contains("assets/ in the site holds the template assets"),
            "{reserved:?}"
        );
        assert!(errors(&[("a/b.html", c("a/b.md")), ("a/c.csv", c("a/c.csv"))]).is_empty());
        // Lowercase may change a name's length: no slicing by it.
        assert!(errors(&[("İİ/x.html", c("İİ/x.md")), ("i̇i̇/y.csv", c("i̇i̇/y.csv"))]).is_empty());
    }
}
