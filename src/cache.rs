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
//! The cache is a convenience, not evidence: anything this program can
//! compute, a person who can write the folder can forge (checksum
//! included), so `check` and `build --check` never read it.
//!
//! Keying on the parsed parameters rather than the file's text means the key
//! always describes exactly what was computed (an edit racing the build
//! cannot pair old results with new text), and editing a title or a comment
//! reuses the results.

use crate::hash::Fnv;
use crate::kinds::Results;
use crate::output::files;
use crate::progress::Progress;
use crate::scenario::Scenario;
use std::path::{Path, PathBuf};

/// The cache folder's name under the project root (not committed).
pub(crate) const FOLDER: &str = ".fairdice-cache";

/// What produced computed results: the crate version and a digest of the
/// engine and analysis sources (set by the cargo build script).
pub(crate) const ENGINE_VERSION: &str = concat!(
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
    pub(crate) material: String,
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

/// Whether `name` is an entry's name as [`Key::file_name`] makes it.
fn is_entry_name(name: &str) -> bool {
    name.strip_suffix(".json").is_some_and(|hash| {
        hash.len() == 16
            && hash
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
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

    /// Whether entries are read and written (false for [`Cache::disabled`]).
    pub fn is_enabled(&self) -> bool {
        self.dir.is_some()
    }

    /// The folder, when enabled.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The folder, when enabled and a real folder: a link named like the
    /// cache is never followed, for reading or writing.
    fn folder(&self) -> Option<&Path> {
        let dir = self.dir.as_deref()?;
        let meta = std::fs::symlink_metadata(dir).ok()?;
        meta.is_dir().then_some(dir)
    }

    /// Remove the temporaries that builds which have ended left in the
    /// cache (named by [`files`]' scheme, for an entry's name); nothing else.
    pub fn remove_stale_temporaries(&self) {
        if let Some(dir) = self.folder() {
            files::remove_stale_temporaries(dir, is_entry_name);
        }
    }

    /// The stored results of `scenario` under `key`, if a valid entry exists.
    pub fn load(&self, key: &Key, scenario: &Scenario) -> Option<Results> {
        let path = self.folder()?.join(key.file_name());
        let bytes = files::read_regular(&path, u64::MAX).ok()?;
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
        let dir = self.folder().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a real folder")
        })?;
        let results = results.to_bytes();
        let stored_key = serde_json::to_string(&key.material).map_err(std::io::Error::other)?;
        let mut bytes = format!("{FORMAT}\n{stored_key}\n{}\n", checksum(&results)).into_bytes();
        bytes.extend_from_slice(&results);
        // Whole or not at all, so a reader never sees half an entry.
        files::replace(&dir.join(key.file_name()), &bytes)
    }

    /// The cached results of `scenario`, or fresh ones (then stored).
    pub fn results(&self, scenario: &Scenario, progress: &Progress) -> (Results, Origin) {
        if self.dir.is_none() {
            // No entry to find or write, so no key to make.
            return (scenario.analyse(progress), Origin::Computed);
        }
        let key = Key::of(scenario);
        if let Some(results) = self.load(&key, scenario) {
            return (results, Origin::Cached);
        }
        let results = scenario.analyse(progress);
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

    #[test]
    fn entry_names_are_sixteen_lowercase_hex_digits() {
        let s = scenario("title: A\nkind: sum-mod\ndice: d6\ntargets: 2\n");
        assert!(is_entry_name(&Key::of(&s).file_name()));
        for name in [
            "0123456789ABCDEF.json",
            "0123.json",
            "0123456789abcdef.yaml",
            ".json",
        ] {
            assert!(!is_entry_name(name), "{name}");
        }
    }

    #[test]
    fn a_stored_entry_leaves_no_temporary_and_loads_back() {
        let dir = tempfile::tempdir().unwrap();
        let s = scenario("title: A\nkind: sum-mod\ndice: d6\ntargets: [2, 3]\n");
        let cache = Cache::at(dir.path().join("c"));
        let key = Key::of(&s);
        let results = s.params.analyse(&Progress::hidden());
        cache.store(&key, &results).unwrap();
        cache.store(&key, &results).unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path().join("c")).unwrap().collect();
        assert_eq!(names.len(), 1);
        let loaded = cache.load(&key, &s).unwrap();
        assert_eq!(loaded.to_bytes(), results.to_bytes());
    }
}
