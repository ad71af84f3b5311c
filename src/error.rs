//! Errors of the site pipeline, each naming where it happened.

use crate::scenario::ScenarioError;
use std::fmt;
use std::path::PathBuf;

/// Something that stops a build.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A problem at a known place in a source file.
    #[error("{file}:{line}:{column}: {message}")]
    Source {
        /// Path as the user knows it, such as `content/rules/reroll.yaml`.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was wrong and what was expected.
        message: String,
    },
    /// A file or folder could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// A template could not be loaded or rendered.
    #[error("template {name}: {message}")]
    Template {
        /// Template file name.
        name: String,
        /// Tera's report.
        message: String,
    },
    /// A problem with a whole file or folder, at no line of it (a folder
    /// that is not a project, a page not written by fairdice, a git
    /// checkout that gives no dates).
    #[error("{file}: {message}")]
    File {
        /// The path as the user knows it.
        file: String,
        /// What was wrong and how to fix it.
        message: String,
    },
    /// A request the command cannot carry out as asked (an output folder or
    /// file it may not write, a busy port, a budget out of range, a missing
    /// browser): the command line says so with exit code 2 where it is the
    /// user's request that is at fault.
    #[error("{0}")]
    Usage(String),
    /// The program itself failed (a panic caught where a loop must go on,
    /// as `serve` rebuilding): a bug to report, never the author's fault.
    #[error("internal error (please report it): {0}")]
    Internal(String),
    /// Several independent problems, all reported at once.
    #[error("{}", Many(.0))]
    Many(Vec<Error>),
}

struct Many<'a>(&'a [Error]);

impl fmt::Display for Many<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, err) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{err}")?;
        }
        Ok(())
    }
}

impl Error {
    /// An I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// A problem with the whole file or folder `file`.
    pub fn file(file: impl std::fmt::Display, message: impl Into<String>) -> Self {
        Error::File {
            file: file.to_string(),
            message: message.into(),
        }
    }

    /// One error from a list, or `Many` when there are several.
    pub(crate) fn from_list(mut errors: Vec<Error>) -> Option<Error> {
        match errors.len() {
            0 => None,
            1 => errors.pop(),
            _ => Some(Error::Many(errors)),
        }
    }

    /// Every problem of `errors` (lists flattened) grouped by file: sorted by
    /// file, then line and column, each reported once; `None` when there
    /// are none. A build reports all its problems this way, so an author
    /// fixes a file at a time.
    pub fn grouped(errors: Vec<Error>) -> Option<Error> {
        let mut flat = Vec::new();
        flatten(errors, &mut flat);
        let mut keyed: Vec<((String, usize, usize), String, Error)> = flat
            .into_iter()
            .map(|err| (err.place(), err.to_string(), err))
            .collect();
        keyed.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        keyed.dedup_by(|a, b| a.1 == b.1);
        Error::from_list(keyed.into_iter().map(|(_, _, err)| err).collect())
    }

    /// The file an error is about and where in it, for grouping: a located
    /// error's own place, else the path or name that starts its message.
    fn place(&self) -> (String, usize, usize) {
        match self {
            Error::Source {
                file, line, column, ..
            } => (file.clone(), *line, *column),
            Error::Io { path, .. } => (path.display().to_string(), 0, 0),
            Error::Template { name, .. } => (format!("templates/{name}"), 0, 0),
            Error::File { file, .. } => (file.clone(), 0, 0),
            Error::Many(_) | Error::Internal(_) | Error::Usage(_) => (String::new(), 0, 0),
        }
    }

    /// A scenario error, with the file path prefixed by the content folder's name.
    pub(crate) fn from_scenario(err: ScenarioError, prefix: &str) -> Self {
        Error::Source {
            file: format!("{prefix}{}", err.file),
            line: err.line,
            column: err.column,
            message: err.message,
        }
    }
}

fn flatten(errors: Vec<Error>, into: &mut Vec<Error>) {
    for err in errors {
        match err {
            Error::Many(inner) => flatten(inner, into),
            other => into.push(other),
        }
    }
}

/// Results of the pipeline.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    fn at(file: &str, line: usize, column: usize) -> Error {
        Error::Source {
            file: file.into(),
            line,
            column,
            message: format!("m{line}"),
        }
    }

    #[test]
    fn problems_are_grouped_by_file_then_place_and_told_once() {
        let errors = vec![
            at("content/b.md", 9, 1),
            Error::Many(vec![at("content/a.md", 10, 2), at("content/b.md", 2, 5)]),
            Error::file("content/a.md", "too large"),
            at("content/a.md", 2, 1),
            at("content/b.md", 9, 1),
            Error::Template {
                name: "page.html".into(),
                message: "no such variable".into(),
            },
        ];
        let lines: Vec<String> = match Error::grouped(errors).unwrap() {
            Error::Many(list) => list.iter().map(ToString::to_string).collect(),
            other => panic!("one error: {other}"),
        };
        assert_eq!(
            lines,
            [
                "content/a.md: too large",
                "content/a.md:2:1: m2",
                "content/a.md:10:2: m10",
                "content/b.md:2:5: m2",
                "content/b.md:9:1: m9",
                "template page.html: no such variable",
            ]
        );
        assert!(Error::grouped(Vec::new()).is_none());
        assert!(matches!(
            Error::grouped(vec![Error::Many(vec![at("x", 1, 1)])]),
            Some(Error::Source { .. })
        ));
    }
}
