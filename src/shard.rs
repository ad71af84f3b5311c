//! A build split across machines: `fairdice build --shard I/N` computes
//! share I of N of the scenarios into the result cache, and a last build
//! over the shards' merged caches renders the site without computing.
//!
//! Every machine must agree on the shares without talking to the others,
//! so the assignment is a pure function of the scenarios: each computation
//! is named by its cache key (kind, parsed parameters, fairdice version and
//! engine digest, see [`crate::cache::Key`]), and the computations are
//! dealt, most expensive first, each to the least loaded shard
//! (longest-processing-time scheduling). Costs are the estimates the budget
//! already uses ([`crate::analyses::cost`]), counted in whole microseconds
//! so that loads add up exactly; ties are broken by a stable hash of the
//! key, then by the key itself. Scenarios with the same key are one
//! computation and one cache entry, so they go to one shard.
//!
//! Nothing here trusts another machine: a merged entry is used only when
//! its stored key equals the scenario's whole key, version included
//! ([`crate::cache::Cache::lookup`]); any other is recomputed, or reported
//! by `build --require-cached`.

use crate::build::{self, Project};
use crate::cache::{self, Cache, Key, Origin};
use crate::content;
use crate::error::Error;
use crate::hash::Fnv;
use crate::limits;
use crate::progress::Progress;
use crate::scenario::Scenario;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The most shards a build may be split into (a GitHub Actions matrix
/// holds at most 256 jobs).
pub const MAX_SHARDS: u32 = 256;

/// One share of a split build: shard `index` of `count`, counted from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// Why a `--shard` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not two whole numbers around a slash.
    #[error("`{0}` is not a shard: write I/N, such as 2/4 for the second of four shards")]
    Form(String),
    /// No shard at all.
    #[error("a build cannot be split into 0 shards: N must be at least 1")]
    NoShards,
    /// More shards than [`MAX_SHARDS`].
    #[error("too many shards: N may be at most {MAX_SHARDS}")]
    TooMany,
    /// An index outside 1..=N.
    #[error("there is no shard {index} of {count}: I must be from 1 to {count}")]
    OutOfRange {
        /// The index asked for.
        index: u32,
        /// The count asked for.
        count: u32,
    },
}

impl Shard {
    /// Shard `index` (from 1) of `count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError::NoShards);
        }
        if count > MAX_SHARDS {
            return Err(ShardError::TooMany);
        }
        if index == 0 || index > count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }

    /// The shard's number, from 1.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// How many shards the build is split into.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The scenarios of `scenarios` that are this shard's to compute, in
    /// their order.
    pub fn share<'a>(&self, scenarios: &'a [Scenario]) -> Vec<&'a Scenario> {
        let shards = assign(scenarios, self.count);
        scenarios
            .iter()
            .zip(shards)
            .filter(|(_, shard)| *shard == self.index)
            .map(|(scenario, _)| scenario)
            .collect()
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let form = || ShardError::Form(text.to_string());
        let (index, count) = text.split_once('/').ok_or_else(form)?;
        let (index, count) = (
            number(index).ok_or_else(form)?,
            number(count).ok_or_else(form)?,
        );
        // Numbers too big for a u32 are refused by range, not misread.
        let count = u32::try_from(count).unwrap_or(u32::MAX);
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        Shard::new(index, count)
    }
}

/// A whole number written in digits only (no sign, no spaces), saturating.
fn number(text: &str) -> Option<u64> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| {
        text.bytes().fold(0u64, |n, digit| {
            n.saturating_mul(10).saturating_add(u64::from(digit - b'0'))
        })
    })
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The shard (from 1) of each scenario, in their order, for a build split
/// into `count` shards. The same scenarios give the same answer on every
/// machine, in any order.
pub fn assign(scenarios: &[Scenario], count: u32) -> Vec<u32> {
    let jobs: Vec<Job> = scenarios
        .iter()
        .map(|scenario| Job {
            key: Key::of(scenario).material,
            micros: micros(scenario.params.cost().seconds),
        })
        .collect();
    plan(&jobs, count)
}

/// One computation to place: its cache key and estimated cost.
#[derive(Debug, Clone)]
struct Job {
    key: String,
    micros: u64,
}

/// An estimate in whole microseconds (negative or not a number: none).
fn micros(seconds: f64) -> u64 {
    // `as` saturates: an absurd estimate is the largest, not a wrap.
    (seconds * 1e6).round() as u64
}

/// The shard (from 1) of each job: the distinct keys, most costly first
/// (ties by hash, then key), each to the least loaded shard (ties to the
/// lowest number).
fn plan(jobs: &[Job], count: u32) -> Vec<u32> {
    let count = count.max(1);
    // One computation per key, however many scenarios share it.
    let mut distinct: BTreeMap<&str, u64> = BTreeMap::new();
    for job in jobs {
        distinct.entry(&job.key).or_insert(job.micros);
    }
    let mut order: Vec<(&str, u64, u64)> = distinct
        .into_iter()
        .map(|(key, micros)| (key, micros, hash(key)))
        .collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)).then(a.0.cmp(b.0)));
    let mut loads = vec![0u64; count as usize];
    let mut placed: BTreeMap<&str, u32> = BTreeMap::new();
    for (key, micros, _) in order {
        let (lightest, _) = (loads.iter().enumerate())
            .min_by_key(|&(shard, load)| (*load, shard))
            .expect("at least one shard");
        loads[lightest] = loads[lightest].saturating_add(micros);
        placed.insert(key, lightest as u32 + 1);
    }
    jobs.iter().map(|job| placed[job.key.as_str()]).collect()
}

/// The stable content hash of a key.
fn hash(key: &str) -> u64 {
    let mut hash = Fnv::default();
    hash.write(key.as_bytes());
    hash.value()
}

/// What `fairdice build --shard I/N` did.
#[derive(Debug)]
pub struct ShardSummary {
    /// The share computed.
    pub shard: Shard,
    /// Scenarios in the whole site.
    pub scenarios: usize,
    /// Per scenario of the share: source, where its results came from,
    /// time taken.
    pub timings: Vec<(String, Origin, Duration)>,
    /// Wall time.
    pub elapsed: Duration,
}

impl ShardSummary {
    /// How many of the share's scenarios came from `origin`.
    pub fn count(&self, origin: Origin) -> usize {
        self.timings.iter().filter(|(_, o, _)| *o == origin).count()
    }
}

/// `fairdice build --shard I/N`: compute this shard's share of the
/// scenarios ([`Shard::share`]) into the result cache, and render and
/// write nothing. Content that does not load fails the shard, as it would
/// fail the build that merges the shards. A share's result that cannot be
/// stored is an error: it would be lost.
pub fn build_shard(project: &Project, shard: Shard) -> Result<ShardSummary, Error> {
    let started = Instant::now();
    let _watch = build::watch(&project.budget, "the shard")?;
    if !project.cache.is_enabled() {
        return Err(Error::Usage(
            "--shard computes into the result cache: it cannot be used with --no-cache".into(),
        ));
    }
    let stage = limits::stage("loading content/");
    let (content, problems) =
        content::load_partial(&project.root.join("content"), &project.budget)?;
    if let Some(err) = Error::grouped(problems) {
        return Err(err);
    }
    build::admit_all(&content.scenarios, crate::paths::CONTENT, &project.budget)?;
    drop(stage);
    let _stage = limits::stage(format!("computing shard {shard}"));
    let share = shard.share(&content.scenarios);
    let timings = project.progress.with_bar(share.len(), "computing", |bar| {
        share
            .par_iter()
            .map(|scenario| {
                let timing = compute_into(&project.cache, scenario, &project.progress);
                bar.inc(1);
                timing
            })
            .collect::<Result<Vec<_>, Error>>()
    })?;
    Ok(ShardSummary {
        shard,
        scenarios: content.scenarios.len(),
        timings,
        elapsed: started.elapsed(),
    })
}

/// Make sure the cache holds `scenario`'s results: a valid entry is kept,
/// anything else computed and stored. The results are not kept in memory.
fn compute_into(
    cache: &Cache,
    scenario: &Scenario,
    progress: &Progress,
) -> Result<(String, Origin, Duration), Error> {
    let started = Instant::now();
    let key = Key::of(scenario);
    let origin = if cache.lookup(&key, scenario).is_ok() {
        Origin::Cached
    } else {
        let results = scenario.analyse(progress);
        cache.store(&key, &results).map_err(|err| {
            let dir = cache.dir().unwrap_or(Path::new(cache::FOLDER));
            Error::io(dir.join(key.file_name()), err)
        })?;
        Origin::Computed
    };
    Ok((scenario.source.clone(), origin, started.elapsed()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs(costs: &[u64]) -> Vec<Job> {
        costs
            .iter()
            .enumerate()
            .map(|(i, &micros)| Job {
                key: format!("key {i}"),
                micros,
            })
            .collect()
    }

    fn loads(jobs: &[Job], shards: &[u32], count: u32) -> Vec<u64> {
        let mut loads = vec![0; count as usize];
        for (job, &shard) in jobs.iter().zip(shards) {
            loads[shard as usize - 1] += job.micros;
        }
        loads
    }

    #[test]
    fn shards_parse_as_i_of_n() {
        assert_eq!("2/4".parse::<Shard>(), Shard::new(2, 4));
        assert_eq!("1/1".parse::<Shard>().unwrap().to_string(), "1/1");
        assert_eq!(
            "0/4".parse::<Shard>(),
            Err(ShardError::OutOfRange { index: 0, count: 4 })
        );
        assert_eq!(
            "5/4".parse::<Shard>(),
            Err(ShardError::OutOfRange { index: 5, count: 4 })
        );
        assert_eq!("1/0".parse::<Shard>(), Err(ShardError::NoShards));
        assert_eq!("1/257".parse::<Shard>(), Err(ShardError::TooMany));
        assert_eq!(
            "1/99999999999999999999999".parse::<Shard>(),
            Err(ShardError::TooMany)
        );
        assert_eq!(
            "99999999999/4".parse::<Shard>(),
            Err(ShardError::OutOfRange {
                index: u32::MAX,
                count: 4
            })
        );
        for bad in [
            "", "2", "2/", "/4", "2/4/8", "-1/4", "+1/4", " 1/4", "1 / 4", "a/b", "1.0/4",
        ] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(ShardError::Form(bad.into())),
                "{bad}"
            );
        }
    }

    #[test]
    fn every_job_goes_to_exactly_one_shard_in_range() {
        let jobs = jobs(&[5, 0, 7, 7, 1, 300, 2, 2, 2, 9, 11]);
        for count in 1..=13 {
            let shards = plan(&jobs, count);
            assert_eq!(shards.len(), jobs.len());
            assert!(
                shards.iter().all(|&s| (1..=count).contains(&s)),
                "{shards:?}"
            );
        }
        assert!(plan(&jobs, 1).iter().all(|&s| s == 1));
    }

    #[test]
    fn the_assignment_does_not_depend_on_the_order_given() {
        let forward = jobs(&[5, 0, 7, 7, 1, 300, 2, 2, 2, 9, 11]);
        let mut backward = forward.clone();
        backward.reverse();
        let by_key = |jobs: &[Job], shards: Vec<u32>| -> BTreeMap<String, u32> {
            jobs.iter().map(|j| j.key.clone()).zip(shards).collect()
        };
        for count in 1..=5 {
            assert_eq!(
                by_key(&forward, plan(&forward, count)),
                by_key(&backward, plan(&backward, count))
            );
            assert_eq!(plan(&forward, count), plan(&forward, count));
        }
    }

    #[test]
    fn equal_keys_share_a_shard_and_are_counted_once() {
        let mut jobs = jobs(&[10, 10, 10, 10]);
        jobs.push(jobs[0].clone());
        jobs.push(jobs[0].clone());
        let shards = plan(&jobs, 4);
        assert_eq!(shards[0], shards[4]);
        assert_eq!(shards[0], shards[5]);
        // Four distinct computations of equal cost: one per shard.
        let mut distinct = shards[..4].to_vec();
        distinct.sort();
        assert_eq!(distinct, [1, 2, 3, 4]);
    }

    #[test]
    fn costs_are_balanced_within_the_largest_job() {
        // Greedy, biggest first: no shard exceeds the lightest by more
        // than one job's cost.
        let costs: Vec<u64> = (1..=40).map(|i| (i * 7919) % 1000 + 1).collect();
        let jobs = jobs(&costs);
        let biggest = *costs.iter().max().unwrap();
        for count in [2, 3, 4, 7] {
            let loads = loads(&jobs, &plan(&jobs, count), count);
            let (min, max) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
            assert!(max - min <= biggest, "{count}: {loads:?}");
        }
        // One giant and many small: the small ones fill the other shards.
        let jobs = self::jobs(&[1000, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100]);
        assert_eq!(loads(&jobs, &plan(&jobs, 2), 2), [1000, 1000]);
    }

    #[test]
    fn scenarios_are_assigned_by_their_computation() {
        let parse = |text: &str| crate::scenario::parse("s.yaml", text).unwrap();
        let scenarios: Vec<Scenario> = (2..=9)
            .map(|n| {
                parse(&format!(
                    "title: S\nkind: sum-mod\ndice: {n}d6\ntargets: 3\n"
                ))
            })
            .collect();
        let shards = assign(&scenarios, 3);
        let mut retitled = scenarios.clone();
        for s in &mut retitled {
            s.header.title = "Renamed".into();
        }
        retitled.reverse();
        let mut again = assign(&retitled, 3);
        again.reverse();
        assert_eq!(shards, again, "wording and order change nothing");
        let shares: usize = (1..=3)
            .map(|i| Shard::new(i, 3).unwrap().share(&scenarios).len())
            .sum();
        assert_eq!(shares, scenarios.len());
    }
}
