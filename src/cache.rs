//! The result cache: typed exact results kept on disk between builds, so a
//! rebuild recomputes only the scenarios that changed.
//!
//! It stores results, never pages: layout and rendering run on every build,
//! so a change to how a number is shown can never be served stale.
//!
//! An entry is keyed by everything that decides the results: the kind, the
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
use crate::kinds::Results;
use crate::progress::Progress;
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
    /// Everything the results depend on, spelled out.
    pub material: String,
}

/// How a scenario's results were obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Computed in this build.
    Computed,
    /// Read from the cache.
    Cached,
}

/// The first line of every entry; bump when the layout changes.
const FORMAT: &str = "fairdice-cache 2";

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

    /// The stored results of `scenario` under `key`, if a valid entry exists.
    pub fn load(&self, key: &Key, scenario: &Scenario) -> Option<Results> {
        let path = self.dir.as_ref()?.join(key.file_name());
        let bytes = std::fs::read(path).ok()?;
        let mut parts = bytes.splitn(4, |&b| b == b'\n');
        let (format, stored_key, sum, results) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let stored_key: String = serde_json::from_slice(stored_key).ok()?;
        let valid = format == FORMAT.as_bytes()
            && stored_key == key.material
            && sum == checksum(results).as_bytes();
        if !valid {
            return None;
        }
        scenario.params.results_from_bytes(results)
    }

    /// Store results; failures only cost a recomputation later, so they
    /// are returned for logging, not treated as build errors.
    pub fn store(&self, key: &Key, results: &Results) -> std::io::Result<()> {
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        std::fs::create_dir_all(dir)?;
        let results = results.to_bytes();
        let stored_key = serde_json::to_string(&key.material).map_err(std::io::Error::other)?;
        let mut bytes = format!("{FORMAT}\n{stored_key}\n{}\n", checksum(&results)).into_bytes();
        bytes.extend_from_slice(&results);
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

    /// The cached results of `scenario`, or fresh ones (then stored).
    pub fn results(&self, scenario: &Scenario, progress: &Progress) -> (Results, Origin) {
        let key = Key::of(scenario);
        if let Some(results) = self.load(&key, scenario) {
            return (results, Origin::Cached);
        }
        let results = scenario.params.analyse(progress);
        let _ = self.store(&key, &results);
        (results, Origin::Computed)
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
