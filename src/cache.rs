//! The result cache: computed reports kept on disk between builds, so a
//! rebuild recomputes only the scenarios that changed.
//!
//! An entry is keyed by everything that decides a report: the kind, the
//! parsed parameters, the crate version and a digest of the engine and
//! analysis sources taken at compile time. The key is hashed to name the
//! file and also stored whole inside it; an entry is used only when it
//! parses and its stored key equals the wanted one, so a corrupt, stale or
//! colliding entry is recomputed, never trusted.
//!
//! Keying on the parsed parameters rather than the file's text means the key
//! always describes exactly what was computed (an edit racing the build
//! cannot pair old results with new text), and editing a title or a comment
//! reuses the results.

use crate::hash::Fnv;
use crate::report::Report;
use crate::scenario::Scenario;
use std::path::{Path, PathBuf};

/// The cache folder's name under the project root (not committed).
pub const FOLDER: &str = ".fairdice-cache";

/// What produced computed results: the crate version and a digest of the
/// engine and analysis sources (set by the cargo build script).
pub const ENGINE_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    "+",
    env!("FAIRDICE_ENGINE_DIGEST")
);

/// A cache folder, or none (every scenario computed).
#[derive(Debug, Clone)]
pub struct Cache {
    dir: Option<PathBuf>,
}

/// The identity of a computation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// Everything the report depends on, spelled out.
    pub material: String,
}

/// How a scenario's report was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Computed in this build.
    Computed,
    /// Read from the cache.
    Cached,
}

/// The first line of every entry; bump when the layout changes.
const FORMAT: &str = "fairdice-cache 1";

fn checksum(bytes: &[u8]) -> String {
    let mut hash = Fnv::default();
    hash.write(bytes);
    hash.hex()
}

impl Key {
    /// The key of a scenario's computation.
    pub fn of(scenario: &Scenario) -> Key {
        Key {
            material: format!(
                "fairdice {ENGINE_VERSION}\nkind {}\n{:?}\n",
                scenario.params.kind(),
                scenario.params
            ),
        }
    }

    /// The entry's file name.
    pub fn file_name(&self) -> String {
        let mut hash = Fnv::default();
        hash.write(self.material.as_bytes());
        format!("{}.json", hash.hex())
    }
}

impl Cache {
    /// A cache in `dir` (created when first written).
    pub fn at(dir: impl Into<PathBuf>) -> Cache {
        Cache {
            dir: Some(dir.into()),
        }
    }

    /// No cache: always compute.
    pub fn disabled() -> Cache {
        Cache { dir: None }
    }

    /// The folder, when enabled.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The stored report for `key`, if a valid entry exists.
    pub fn load(&self, key: &Key) -> Option<Report> {
        let path = self.dir.as_ref()?.join(key.file_name());
        let bytes = std::fs::read(path).ok()?;
        let mut parts = bytes.splitn(4, |&b| b == b'\n');
        let (format, stored_key, sum, report) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let stored_key: String = serde_json::from_slice(stored_key).ok()?;
        let valid = format == FORMAT.as_bytes()
            && stored_key == key.material
            && sum == checksum(report).as_bytes();
        if !valid {
            return None;
        }
        serde_json::from_slice(report).ok()
    }

    /// Store a report; failures only cost a recomputation later, so they
    /// are returned for logging, not treated as build errors.
    pub fn store(&self, key: &Key, report: &Report) -> std::io::Result<()> {
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        std::fs::create_dir_all(dir)?;
        let report = serde_json::to_vec(report).map_err(std::io::Error::other)?;
        let stored_key = serde_json::to_string(&key.material).map_err(std::io::Error::other)?;
        let mut bytes = format!("{FORMAT}\n{stored_key}\n{}\n", checksum(&report)).into_bytes();
        bytes.extend_from_slice(&report);
        // Write aside and rename, so a reader never sees half an entry.
        let path = dir.join(key.file_name());
        let partial = dir.join(format!(
            "{}.tmp-{}-{:?}",
            key.file_name(),
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::write(&partial, bytes)?;
        std::fs::rename(&partial, &path).inspect_err(|_| {
            let _ = std::fs::remove_file(&partial);
        })
    }

    /// The cached report for `scenario`, or a fresh one (then stored).
    pub fn report(&self, scenario: &Scenario) -> (Report, Origin) {
        let key = Key::of(scenario);
        if let Some(report) = self.load(&key) {
            return (report, Origin::Cached);
        }
        let report = scenario.params.analyse();
        let _ = self.store(&key, &report);
        (report, Origin::Computed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse;

    fn scenario(text: &str) -> Scenario {
        parse("s.yaml", text).unwrap()
    }

    #[test]
    fn keys_follow_parameters_not_wording() {
        let base = scenario("title: A\nkind: sum-mod\ndice: d6\ntargets: [2, 3]\n");
        let retitled = scenario("title: B # new\nkind: sum-mod\ndice: d6\ntargets: [3, 2]\n");
        let changed = scenario("title: A\nkind: sum-mod\ndice: d8\ntargets: [2, 3]\n");
        assert_eq!(Key::of(&base), Key::of(&retitled));
        assert_ne!(Key::of(&base), Key::of(&changed));
        assert_ne!(Key::of(&base).file_name(), Key::of(&changed).file_name());
        assert!(Key::of(&base).material.contains(ENGINE_VERSION));
    }
}
