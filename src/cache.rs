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
use std::fmt;
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

/// Why the cache held no results to use for a computation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Miss {
    /// No entry of that name (or no cache folder).
    Absent,
    /// An entry that cannot be read, or is not in the cache's format.
    Unreadable,
    /// An entry computed by another fairdice version or engine (named).
    OtherVersion(String),
    /// An entry stored for another computation: other parameters.
    OtherKey,
    /// Results that do not match their checksum, or do not parse.
    Damaged,
}

impl fmt::Display for Miss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Miss::Absent => write!(f, "no entry"),
            Miss::Unreadable => write!(f, "an entry that is not a readable cache entry"),
            Miss::OtherVersion(version) => write!(
                f,
                "an entry computed by fairdice {version}, not {ENGINE_VERSION}"
            ),
            Miss::OtherKey => write!(f, "an entry stored for other parameters"),
            Miss::Damaged => write!(f, "an entry whose results do not match their checksum"),
        }
    }
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
        self.lookup(key, scenario).ok()
    }

    /// The stored results of `scenario` under `key`, or why there are none
    /// to use. An entry is used only when its stored key equals `key`
    /// whole (kind, parameters, fairdice version and engine digest), its
    /// checksum matches and its results parse: an entry copied from another
    /// machine is checked like any other, never trusted.
    pub fn lookup(&self, key: &Key, scenario: &Scenario) -> Result<Results, Miss> {
        let path = self.folder().ok_or(Miss::Absent)?.join(key.file_name());
        let bytes = files::read_regular(&path, u64::MAX).map_err(|err| match err.kind() {
            std::io::ErrorKind::NotFound => Miss::Absent,
            _ => Miss::Unreadable,
        })?;
        let mut parts = bytes.splitn(4, |&b| b == b'\n');
        let (Some(format), Some(stored_key), Some(sum), Some(results)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(Miss::Unreadable);
        };
        let stored_key: String =
            serde_json::from_slice(stored_key).map_err(|_| Miss::Unreadable)?;
        if format != FORMAT.as_bytes() {
            return Err(Miss::Unreadable);
        }
        if stored_key != key.material {
            let version = |material: &str| {
                let first = material.lines().next().unwrap_or_default();
                first.strip_prefix("fairdice ").map(str::to_string)
            };
            return Err(match version(&stored_key) {
                Some(stored) if Some(&stored) != version(&key.material).as_ref() => {
                    Miss::OtherVersion(stored)
                }
                _ => Miss::OtherKey,
            });
        }
        if sum != checksum(results).as_bytes() {
            return Err(Miss::Damaged);
        }
        scenario
            .params
            .results_from_bytes(results)
            .ok_or(Miss::Damaged)
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

    #[test]
    fn a_lookup_says_why_an_entry_is_not_used() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::at(dir.path());
        let a = scenario("title: A\nkind: sum-mod\ndice: d6\ntargets: [2, 3]\n");
        let b = scenario("title: B\nkind: sum-mod\ndice: d8\ntargets: [2, 3]\n");
        let (key_a, key_b) = (Key::of(&a), Key::of(&b));
        assert_eq!(cache.lookup(&key_a, &a).err(), Some(Miss::Absent));
        assert_eq!(
            Cache::disabled().lookup(&key_a, &a).err(),
            Some(Miss::Absent)
        );
        let results = a.params.analyse(&Progress::hidden());
        cache.store(&key_a, &results).unwrap();
        assert!(cache.lookup(&key_a, &a).is_ok());

        let entry = std::fs::read_to_string(dir.path().join(key_a.file_name())).unwrap();
        let at_b = dir.path().join(key_b.file_name());
        std::fs::write(&at_b, &entry).unwrap();
        assert_eq!(cache.lookup(&key_b, &b).err(), Some(Miss::OtherKey));

        let old = entry.replacen(ENGINE_VERSION, "0.0.1+old", 1);
        std::fs::write(dir.path().join(key_a.file_name()), old).unwrap();
        assert_eq!(
            cache.lookup(&key_a, &a).err(),
            Some(Miss::OtherVersion("0.0.1+old".into()))
        );
        std::fs::write(dir.path().join(key_a.file_name()), "fairdice-cache 1\n").unwrap();
        assert_eq!(cache.lookup(&key_a, &a).err(), Some(Miss::Unreadable));
    }
}
