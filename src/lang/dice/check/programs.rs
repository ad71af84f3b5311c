//! The prices of the engine's programs in machine words and of an
//! exploding pool's profiles: each mirrors the engine's own choice of
//! method, so a roll is priced by the work it will really do.

use super::super::rules::Faces;
use super::super::Pool;
use super::sorted_rolls;
use crate::engine::pool::exploded_sums;
use crate::engine::pool::Condition;
use crate::engine::ways::{counts_for, PROGRAM_BYTES};

/// How many profiles one die's chain of rolls has (see
/// `engine::pool::explode_by_profiles`): its distinct chains (d exploding
/// rolls then one that is not), at most the sorted sets of its `keep` best
/// faces, or without a keep at most the sums it can reach.
pub(super) fn chain_profiles(pool: &Pool, faces: &Faces, depth: u32, keep: Option<u64>) -> f64 {
    let (width, exploding) = exploding_faces(pool, faces);
    let calm = (width - exploding).max(1.0);
    let rolls = f64::from(depth) + 1.0;
    let chains = (0..depth).fold(0.0, |sum, d| sum + exploding.powi(d as i32) * calm)
        + exploding.powi(depth as i32) * width;
    let (low, high) = faces.bounds();
    let spread = match (pool.successes.is_some(), pool.failures.is_some()) {
        (true, true) => 2.0,
        (true, false) => 1.0,
        _ => (high - low) as f64,
    };
    chains.min(match keep {
        Some(m) => sorted_rolls((m as f64).min(rolls), width + 1.0),
        None => spread * rolls + 1.0,
    })
}

/// A die's distinct faces, and how many of them explode.
pub(super) fn exploding_faces(pool: &Pool, faces: &Faces) -> (f64, f64) {
    let width = faces.count().min(faces.width());
    let condition = pool
        .explode
        .and_then(|e| e.rule)
        .unwrap_or(Condition::Eq(faces.range().1));
    let calm = faces
        .without(condition)
        .map_or(1.0, |f| f.count().min(f.width()));
    (width, (width - calm).max(1.0))
}

/// The share of [`exploded_keep_program`]'s states that are reached and
/// moved, counted by the engine (6d6!kh3 to 12d6!kh6): most pairs of
/// rolls left are never met together, and a state moves to at most the
/// rolls left.
pub(super) const STATES_REACHED: f64 = 12.0;

/// The price of `engine::pool::exploded_keep_program`, which keeps M of a
/// `!` pool in machine words: `None` where the engine takes the profiles
/// instead (outcomes past what `ways::run_exact` holds, or tables past
/// `PROGRAM_BYTES`), as these conditions mirror its own; each count at the
/// width the engine picks for the outcomes (`ways::counts_for`). Per face
/// of `faces`, every state (E rolls left, N rolls left, j < M dice kept,
/// their sum) moves to up to M - j others; before that, `G^count` over
/// (A, B) and each face's tails. `faces` counts the die's distinct faces,
/// `spread` its values' range. The word operations, and the table's bytes.
pub(super) fn exploded_keep_program(
    count: u64,
    depth: u32,
    m: u64,
    spread: u64,
    (faces, exploding): (f64, f64),
    bits: f64,
) -> Option<(f64, f64)> {
    let counts = counts_for(bits)?;
    let rolls = count.checked_mul(u64::from(depth) + 1)?;
    let cells = (rolls + 1).checked_mul(count + 1)?;
    let widest = spread.checked_mul(m)?.checked_add(1)?;
    let sums = exploded_sums(usize::try_from(m).ok()?, usize::try_from(spread).ok()?)?;
    let bytes = usize::try_from(cells)
        .ok()?
        .checked_mul(sums)?
        .checked_mul(counts.bytes)?;
    if bytes > PROGRAM_BYTES {
        return None;
    }
    let (cells, spread, rolls) = (cells as f64, spread as f64, rolls as f64);
    let states: f64 = (0..m)
        .map(|j| cells * (spread * j as f64 + 1.0) * (m - j) as f64)
        .sum::<f64>()
        / STATES_REACHED;
    let generating = count as f64 * cells * (f64::from(depth) + 2.0);
    // A face's tails run over the rolls left of its kind: up to every
    // roll for an exploding face, one roll a die for the others.
    let calm = (faces - exploding).max(0.0);
    let n = count as f64;
    let tails = m as f64 * (exploding * (rolls + 1.0).powi(2) + calm * (n + 1.0).powi(2)) / 2.0;
    let ops = counts.ops * (generating + faces * states + tails) + 4.0 * widest as f64;
    Some((ops, bytes as f64))
}

/// The price of `engine::pool::keep_program`, which keeps M of N dice in
/// machine words (`4d6kh3`, `10d100kh3`, `100d20kh50` in wider words):
/// `None` where the engine takes the closed form in big integers instead,
/// as these conditions mirror its own. Per face, each of the M rows of
/// placed dice (row j spans `spread j + 1` sums) takes its binomial tail
/// and moves to every fuller row.
pub(super) fn keep_program(count: u64, m: u64, spread: u64, faces: f64, bits: f64) -> Option<f64> {
    if m == 0 || count > 188 {
        return None;
    }
    let word = counts_for(bits)?.ops;
    let widest = spread.checked_mul(m)?.checked_add(1)?;
    if widest.checked_mul(m + 1)? > 1 << 20 {
        return None;
    }
    let (n, m, spread) = (count as f64, m as f64, spread as f64);
    let rows = m * spread * (m - 1.0) / 2.0 + m;
    let tails = m * (n - m + 1.0);
    let moves = spread * m * m * m / 6.0 + m * m / 2.0;
    Some(word * faces * (rows + tails + moves + 2.0 * n))
}
