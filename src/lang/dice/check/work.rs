//! Issue 42, item 1: every price within 10x of the work the engine
//! counts (see `engine::work`), both ways, over every operator and engine
//! path. Operations, not time, so the test is the same on any machine and
//! in debug; `WORD_OPS_PER_SECOND` turns them into seconds, and the
//! ignored benchmark below checks that against release timings.

use super::super::{evaluate, parse};
use super::{check, WORD_OPS_PER_SECOND};
use crate::engine::work::counted;

/// Sizes that run in well under a second each in debug; the large ones
/// are in [`BIG`].
const SMALL: &[&str] = &[
    // Numbers, sums and large single dice.
    "7",
    "d6",
    "3d6",
    "100d6",
    "300d6",
    "10d100",
    "1d10000",
    "1d100000",
    "3d1000",
    "2d6+3",
    "2d6+1d8-3",
    "-2d6",
    "10dF",
    "4d{1,1,2,3,5,8}",
    "20d{0,0,1}",
    // Keep and drop.
    "4d6kh3",
    "2d20kh1",
    "2d20kl1",
    "30d6kh10",
    "100d20kh50",
    "10d100kh3",
    "4d6dl1",
    "4d6dl1dh1",
    "8d10dl2dh2",
    "60d6kl10",
    "200d6kh5",
    // Rerolls.
    "4d6ro1",
    "4d6rr1",
    "4d6ro<3kh3",
    "10d10rr<3",
    "2d20ro<5kh1",
    // Explosions into the pool.
    "6d6!kh3",
    "8d10!kh4",
    "10d10!kh5",
    "3d6!",
    "5d10!",
    "4d6!kl2",
    "12d6!kh6",
    "10d6!>=5",
    // Past 2^188 outcomes: the programs in wider words (issue 42, item 2).
    "16d10!kh8",
    "20d6!kh10",
    "30d6!kh10",
    "40d10!!kh20",
    // Compounding and penetrating.
    "d6!!",
    "3d6!!",
    "10d10!!kh5",
    "20d10!!kh10",
    "4d6!p",
    "5d10!p>=8",
    "d20!!>=19",
    // Counts of successes and failures.
    "8d10>=7",
    "50d10>=7",
    "10d10>=8f1",
    "20d6=6",
    "6d10>=7f1",
    // Groups.
    "{2d20, 1d20+5}kh1",
    "{3d6, 3d6, 3d6}kh2",
    "{4d6kh3, 4d6kh3, 4d6kh3}>=15",
    "{2d6, 1d12}kl1",
    // Pairs.
    "pairs(3d6, 2d6)",
    "pairs(5d6, 5d6)",
    "pairs(3d10, 3d8)",
    // Rolled numbers of dice.
    "(1d4)d6",
    "(1d4+1)d6kh2",
    "(1d10)d10",
    "(1d4)d6!kh1",
    "4d6!kh1",
    "6d8!kh2",
    // Arithmetic, comparisons and functions.
    "2d6*1d6",
    "floor(3d6/2)",
    "ceil(1d20/3)+2",
    "3d6 % 4",
    "1d20+5 >= 15",
    "3d6 > 2d8",
    "2d6 = 7",
    "max(1d20, 1d20)",
    "min(3d6, 3d6, 3d6)",
    "abs(1d6-1d6)",
    "abs(50d6-50d6)",
    // The other families' forms (issue 43).
    "8d6ra1",
    "40d6ra6mi2",
    "4d6p1",
    "20d6kh10p<3",
    "6d6cs>=5df=1",
    "30d6sf<3",
    "3d10xo",
    "20d6xo>=5kh5",
    "6k3",
    "10d6mi2ma5",
    "(1d4 + 1, 3, 2d6kl1)kh1",
];

/// What these take in release; compared in the ignored benchmark.
const BIG: &[&str] = &[
    "1000d6",
    "1d1000000",
    "500d6kh50",
    "200d20kh20",
    "2000d6",
    "12d10dl3dh3",
    "pairs(8d6, 8d6)",
    "{3d100, 3d100, 3d100}kh1",
    "3d10000",
];

/// The price's word operations and those the engine counted for `text`.
fn priced_and_counted(text: &str) -> (f64, f64) {
    let expr = parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let price = check(&expr, 3).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let (_, work) = counted(|| evaluate(&expr, 3));
    (price.seconds * WORD_OPS_PER_SECOND, work)
}

/// Each price within 10x of the counted work, both ways.
#[test]
fn every_price_is_within_ten_times_the_counted_work() {
    let mut off = Vec::new();
    for text in SMALL {
        let (priced, work) = priced_and_counted(text);
        let ratio = priced / work.max(1.0);
        eprintln!("{text:32} priced {priced:12.3e}  counted {work:12.3e}  x{ratio:.2}");
        if !(0.1..=10.0).contains(&ratio) {
            off.push(format!("{text}: priced {priced:.3e}, counted {work:.3e}"));
        }
    }
    assert!(off.is_empty(), "{}", off.join("\n"));
    assert!(SMALL.len() + BIG.len() >= 60);
}

/// The priced seconds against release timings, on a generous scale (10x
/// both ways, where the time is long enough to measure): run with
/// `cargo test --release --lib price_in_seconds -- --ignored --nocapture`
/// (the scenario kinds: `tests/suite/prices.rs`).
#[test]
#[ignore = "a benchmark: run in release"]
fn price_in_seconds_against_release_timings() {
    use std::time::Instant;
    let mut off = Vec::new();
    let mut judge = |what: &str, priced: f64, took: f64| {
        let ratio = priced / took;
        eprintln!("{what:40} priced {priced:10.4} s  took {took:10.4} s  x{ratio:.2}");
        if !crate::limits::priced_fairly(priced, took) {
            off.push(format!("{what}: priced {priced:.4} s, took {took:.4} s"));
        }
    };
    for text in SMALL.iter().chain(BIG) {
        let expr = parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let price = check(&expr, 3).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let start = Instant::now();
        let outcomes = evaluate(&expr, 3);
        let took = start.elapsed().as_secs_f64();
        assert!(outcomes.width() > 0);
        judge(text, price.seconds, took);
    }
    assert!(off.is_empty(), "{}", off.join("\n"));
}
