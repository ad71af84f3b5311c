//! The race optimizer's cost on the three reference games.
//!
//! `cargo bench --bench race` times the complete 2d6 M=5 analysis with
//! criterion, then runs the two large searches (2d6 M=8 and 3d6 M=5) once
//! each and prints their wall time and CPU time (user + system, every
//! thread: what issue 42 measures, as `/usr/bin/time` does): criterion's
//! minimum of ten samples would take many minutes for those. Set
//! `RACE_BENCH_LARGE=0` to skip them.

use criterion::{black_box, Criterion};
use fairdice::analyses::race::{Params, Race};
use fairdice::analyses::Analysis;
use fairdice::progress::Progress;
use std::time::Instant;

fn params(dice: &str, picks: u64) -> Params {
    let yaml = format!("dice: {dice}\npicks: {picks}\noptimize: true\n");
    let params: Params = serde_yaml::from_str(&yaml).expect("valid scenario");
    Race::validate(&params).expect("within budget");
    params
}

fn complete_two_d6_five_picks(c: &mut Criterion) {
    let params = params("2d6", 5);
    c.bench_function("race 2d6 M=5 complete analysis", |b| {
        b.iter(|| black_box(Race::analyse(&params, &Progress::hidden())))
    });
}

/// User plus system CPU time of the process so far, in seconds, or NaN
/// where it cannot be read.
fn cpu_seconds() -> f64 {
    #[cfg(target_os = "linux")]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: getrusage only writes the struct it is given, and a
        // zeroed rusage is a valid one whatever it does.
        let usage = unsafe {
            libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
            usage.assume_init()
        };
        let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
    #[cfg(not(target_os = "linux"))]
    f64::NAN
}

fn time_once(dice: &str, picks: u64) {
    let params = params(dice, picks);
    let (start, cpu) = (Instant::now(), cpu_seconds());
    let results = Race::analyse(&params, &Progress::hidden());
    let optimizer = results.results.optimizer.expect("optimize is on");
    println!(
        "race {dice} M={picks}: {:.2} s, {:.2} s of CPU, {} lists, {} rows, maximin {}",
        start.elapsed().as_secs_f64(),
        cpu_seconds() - cpu,
        optimizer.lists,
        optimizer.rows_evaluated,
        serde_json::to_value(&optimizer.maximin).expect("results serialize")
    );
}

fn main() {
    let mut criterion = Criterion::default().sample_size(10).configure_from_args();
    complete_two_d6_five_picks(&mut criterion);
    criterion.final_summary();
    if std::env::var("RACE_BENCH_LARGE").as_deref() != Ok("0") {
        time_once("2d6", 8);
        time_once("3d6", 5);
    }
}
