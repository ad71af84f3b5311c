//! Timings of the exact engine: building dice-sum distributions and folding
//! them modulo 10.
//!
//! Targets in release on the 2-core build machine: 1000d6 under 5 ms,
//! 1000d20 and 3000d6 under 60 ms each, 10000d6 under 2 s. Run with
//! `cargo bench --bench engine`; see `benches/README.md`.

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode,
};
use fairdice::engine::Dist;
use std::hint::black_box;
use std::time::Duration;

/// Pools quick enough for criterion's usual repeated sampling.
const SMALL_POOLS: [(u64, u64); 3] = [(1000, 6), (1000, 20), (3000, 6)];
/// Pools that take a noticeable fraction of a second per build.
const LARGE_POOLS: [(u64, u64); 1] = [(10000, 6)];

fn pool_name(count: u64, sides: u64) -> String {
    format!("{count}d{sides}")
}

fn build(count: u64, sides: u64) -> Dist {
    Dist::dice(black_box(count), black_box(sides)).expect("benchmark pools are valid")
}

/// A group with criterion's minimum sample count and short warm-up, so the
/// whole bench stays well under a minute.
fn short_group<'a>(
    c: &'a mut Criterion,
    name: &str,
    measurement: Duration,
) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(measurement);
    group
}

/// Times `Dist::dice` per pool as `dice/NdK`. The large pools use flat
/// sampling with the minimum sample count, one build per sample, so the whole
/// group stays within a few seconds.
fn dice(c: &mut Criterion) {
    let mut group = short_group(c, "dice", Duration::from_secs(3));
    for (count, sides) in SMALL_POOLS {
        bench_pool(&mut group, count, sides);
    }
    group
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    for (count, sides) in LARGE_POOLS {
        bench_pool(&mut group, count, sides);
    }
    group.finish();
}

fn bench_pool(group: &mut BenchmarkGroup<WallTime>, count: u64, sides: u64) {
    group.bench_function(BenchmarkId::from_parameter(pool_name(count, sides)), |b| {
        b.iter(|| build(count, sides))
    });
}

/// Folding totals into residues mod 10, the step `sum_mod` runs after `dice`.
fn modulo_ten(c: &mut Criterion) {
    let mut group = short_group(c, "modulo_10", Duration::from_secs(2));
    for (count, sides) in [(1000, 6), (10000, 6)] {
        let dist = build(count, sides);
        group.bench_function(BenchmarkId::from_parameter(pool_name(count, sides)), |b| {
            b.iter(|| black_box(&dist).modulo(black_box(10)))
        });
    }
    group.finish();
}

criterion_group!(benches, dice, modulo_ten);
criterion_main!(benches);
