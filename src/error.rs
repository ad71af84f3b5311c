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
    /// A request that cannot be carried out as asked (unsafe output folder...).
    #[error("{0}")]
    Refused(String),
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

    /// One error from a list, or `Many` when there are several.
    pub fn from_list(mut errors: Vec<Error>) -> Option<Error> {
        match errors.len() {
            0 => None,
            1 => errors.pop(),
            _ => Some(Error::Many(errors)),
        }
    }

    /// A scenario error, with the file path prefixed by the content folder's name.
    pub fn from_scenario(err: ScenarioError, prefix: &str) -> Self {
        Error::Source {
            file: format!("{prefix}{}", err.file),
            line: err.line,
            column: err.column,
            message: err.message,
        }
    }
}

/// Results of the pipeline.
pub type Result<T, E = Error> = std::result::Result<T, E>;
