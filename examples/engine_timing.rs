//! Wall-clock timing of `Dist::dice` for the comparison script
//! `benches/compare_icepool.sh`.
//!
//! Usage: `engine_timing [--runs R] [NdK | NdK%M ...]` (default: the benchmark
//! workloads, best of 3 runs). `NdK%M` also folds the totals modulo `M`.
//! One line per workload, `key=value` separated by spaces so a script can
//! parse it:
//!
//! `workload=1000d6 best_seconds=0.001234 runs=3 checksum=123 total_mod=456`
//!
//! `checksum` is the count of the middle total (of residue 0 when folded) and
//! `total_mod` the count of all outcomes, both modulo 1e9+7: cheap numbers
//! another tool can reproduce, so a comparison is known to be of equal work.

use fairdice::engine::Dist;
use num_bigint::BigUint;
use std::time::{Duration, Instant};

const DEFAULT_WORKLOADS: [&str; 5] = ["1000d6", "1000d6%10", "1000d20", "3000d6", "10000d6"];
const CHECKSUM_MODULUS: u64 = 1_000_000_007;

/// A pool of `count` dice with `sides` faces, written `NdK`, with totals
/// folded modulo `modulus` when written `NdK%M`.
struct Workload {
    count: u64,
    sides: u64,
    modulus: Option<u64>,
}

impl Workload {
    fn parse(text: &str) -> Result<Self, String> {
        let number = |s: &str| {
            s.parse::<u64>()
                .map_err(|e| format!("bad number in {text:?}: {e}"))
        };
        let (pool, modulus) = match text.split_once('%') {
            Some((pool, modulus)) => (pool, Some(number(modulus)?.max(1))),
            None => (text, None),
        };
        let (count, sides) = pool
            .split_once('d')
            .ok_or_else(|| format!("expected NdK or NdK%M, got {text:?}"))?;
        Ok(Workload {
            count: number(count)?,
            sides: number(sides)?,
            modulus,
        })
    }

    /// The timed work: the distribution, folded if asked.
    fn compute(&self) -> Result<Counts, String> {
        let dist = Dist::dice(self.count, self.sides).map_err(|e| e.to_string())?;
        Ok(match self.modulus {
            Some(modulus) => Counts::Residues(dist.modulo(modulus)),
            None => Counts::Totals(dist),
        })
    }
}

/// What a workload computes: counts per total or per residue.
enum Counts {
    Totals(Dist),
    Residues(Vec<BigUint>),
}

impl Counts {
    /// The count of the middle total, or of residue 0 when folded.
    fn checksum_count(&self) -> BigUint {
        match self {
            Counts::Totals(dist) => dist.ways((dist.min_total() + dist.max_total()) / 2),
            Counts::Residues(bins) => bins[0].clone(),
        }
    }

    fn total_outcomes(&self) -> BigUint {
        match self {
            Counts::Totals(dist) => dist.total_outcomes(),
            Counts::Residues(bins) => bins.iter().sum(),
        }
    }
}

fn residue(value: &BigUint) -> u64 {
    let reduced = value % CHECKSUM_MODULUS;
    u64::try_from(&reduced).expect("a residue fits in u64")
}

/// Times `runs` computations; reports the fastest and the checksums.
fn time_workload(name: &str, workload: &Workload, runs: u32) -> Result<String, String> {
    let mut best = Duration::MAX;
    let mut counts = None;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        counts = Some(workload.compute()?);
        best = best.min(start.elapsed());
    }
    let counts = counts.ok_or("no run was made")?;
    Ok(format!(
        "workload={name} best_seconds={:.6} runs={runs} checksum={} total_mod={}",
        best.as_secs_f64(),
        residue(&counts.checksum_count()),
        residue(&counts.total_outcomes()),
    ))
}

fn run() -> Result<(), String> {
    let mut runs = 3u32;
    let mut names = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--runs" {
            let value = args.next().ok_or("--runs needs a value")?;
            runs = value.parse().map_err(|e| format!("bad --runs: {e}"))?;
        } else {
            names.push(arg);
        }
    }
    if names.is_empty() {
        names = DEFAULT_WORKLOADS.iter().map(|s| s.to_string()).collect();
    }
    for name in &names {
        let workload = Workload::parse(name)?;
        println!("{}", time_workload(name, &workload, runs)?);
    }
    Ok(())
}

fn main() {
    if let Err(message) = run() {
        eprintln!("engine_timing: {message}");
        std::process::exit(2);
    }
}
