//! Exploding dice: one die exploded into itself (`!!`), and a pool whose
//! explosions add dice (`!`), kept or summed. Apart from the other pools
//! because an explosion is a chain of rolls with its own profiles and
//! programs, a third of the module.

use super::{best_first, Condition, Keep};
use crate::engine::outcomes::Outcomes;
use crate::engine::ways::{binomials, powers, run_exact, Program, Ways, PROGRAM_BYTES};
#[cfg(test)]
use crate::engine::work;
use crate::engine::work::tally;
use num_bigint::BigUint;
use num_traits::One;
use std::collections::BTreeMap;

/// Explode into the die (`!!`, compounding): a face that meets the
/// condition adds another roll, up to `depth` extra rolls, the last of
/// which does not explode again (as icepool's `explode(depth=D)`); each
/// extra roll counts `penalty` less (`!p`, penetrating: 1). Over
/// `T^(depth+1)` outcomes, so every chain of rolls has its true weight.
pub fn explode(die: &Outcomes, condition: Condition, depth: u32, penalty: i64) -> Outcomes {
    if depth == 0 {
        return die.clone();
    }
    let total = die.total();
    // The extra rolls: `rest` starts with an extra roll that may make
    // `level - 1` more.
    let step = |rest: &Outcomes, level: u32, offset: i64| {
        let scale = total.pow(level);
        let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
        tally!(
            die.width() as f64
                * rest.width() as f64
                * (work::widest(die.iter().map(|(_, w)| w))
                    + work::widest(rest.iter().map(|(_, w)| w)))
                * work::MAP
        );
        for (face, w) in die.iter() {
            if condition.holds(face) {
                for (more, rw) in rest.iter() {
                    *counts.entry(face + offset + more).or_default() += w * rw;
                }
            } else {
                *counts.entry(face + offset).or_default() += w * &scale;
            }
        }
        Outcomes::from_map(counts).expect("a die keeps its faces")
    };
    let mut rest = die.shifted(-penalty);
    for level in 1..depth {
        rest = step(&rest, level, -penalty);
    }
    step(&rest, depth, 0)
}

/// `count` dice whose explosions add new dice to the pool (`!`, as
/// Roll20 and Foundry): each roll that meets the condition adds a die, up
/// to `depth` extra per die. Without `keep`, the sum of `value` over every
/// die; with it, over the highest (or lowest) M of all of them.
///
/// One die's chain of rolls is reduced to its profile (the sum of values,
/// or the M best faces, sorted), built level by level; the pool merges
/// the profiles die by die, keeping the M best, so the work grows with
/// the number of profiles, never with the rolls.
pub(crate) fn explode_into_pool(
    die: &Outcomes,
    condition: Condition,
    depth: u32,
    count: u64,
    keep: Option<Keep>,
    value: impl Fn(i64) -> i64,
) -> Outcomes {
    if let Some(keep) = keep {
        let bound = die.total().pow((depth + 1) * count as u32);
        let program = ExplodedKeep {
            die,
            condition,
            depth,
            count,
            keep,
            value: &value,
        };
        if let Some(Some(outcomes)) = run_exact(&bound, program) {
            return outcomes;
        }
    }
    explode_by_profiles(die, condition, depth, count, keep, value)
}

/// [`explode_into_pool`] by merging profiles die by die, in big integers:
/// the sum without a keep, and keeps past what [`run_exact`] holds.
pub(super) fn explode_by_profiles(
    die: &Outcomes,
    condition: Condition,
    depth: u32,
    count: u64,
    keep: Option<Keep>,
    value: impl Fn(i64) -> i64,
) -> Outcomes {
    type Profiles = BTreeMap<Vec<i64>, BigUint>;
    // Faces compared so the best come first: negated for keep-lowest.
    let (kept, sign) = match keep {
        Some(Keep::Highest(m)) => (m as usize, 1),
        Some(Keep::Lowest(m)) => (m as usize, -1),
        None => (0, 1),
    };
    let join = |a: &[i64], b: &[i64]| -> Vec<i64> {
        if keep.is_none() {
            return vec![a[0] + b[0]];
        }
        let mut all: Vec<i64> = a.iter().chain(b).copied().collect();
        all.sort_unstable_by(|x, y| y.cmp(x));
        all.truncate(kept);
        all
    };
    let single = |face: i64| match keep {
        None => vec![value(face)],
        Some(_) => vec![sign * face],
    };
    let total = die.total();
    // The chain of one die from a roll that may make `level` extra rolls.
    let mut chain: Profiles = Profiles::new();
    for level in 0..=depth {
        let mut next = Profiles::new();
        let scale = total.pow(level);
        tally!(
            die.width() as f64
                * chain.len() as f64
                * (kept as f64 + 1.0 + work::widest(chain.values()) + work::words(&scale))
                * work::MAP
        );
        for (face, w) in die.iter() {
            if condition.holds(face) && level > 0 {
                for (rest, rw) in &chain {
                    *next.entry(join(&single(face), rest)).or_default() += w * rw;
                }
            } else {
                *next.entry(single(face)).or_default() += w * &scale;
            }
        }
        chain = next;
    }
    let mut pool: Profiles = Profiles::from([(Vec::new(), BigUint::one())]);
    for _ in 0..count {
        let mut next = Profiles::new();
        tally!(
            (pool.len() * chain.len()) as f64
                * (kept as f64 + 1.0 + work::widest(pool.values()) + work::widest(chain.values()))
                * work::MAP
        );
        for (a, aw) in &pool {
            for (b, bw) in &chain {
                let joined = if a.is_empty() { b.clone() } else { join(a, b) };
                *next.entry(joined).or_default() += aw * bw;
            }
        }
        pool = next;
    }
    let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
    for (profile, ways) in pool {
        let sum = match keep {
            None => profile.iter().sum(),
            Some(_) => profile.iter().map(|&f| value(sign * f)).sum(),
        };
        *counts.entry(sum).or_default() += ways;
    }
    Outcomes::from_map(counts).expect("a pool has a value")
}

/// [`exploded_keep_program`]'s arguments, for [`run_exact`].
struct ExplodedKeep<'a, F> {
    die: &'a Outcomes,
    condition: Condition,
    depth: u32,
    count: u64,
    keep: Keep,
    value: &'a F,
}

impl<F: Fn(i64) -> i64> Program for ExplodedKeep<'_, F> {
    type Output = Option<Outcomes>;
    fn run<W: Ways>(self) -> Self::Output {
        let ExplodedKeep {
            die,
            condition,
            depth,
            count,
            keep,
            value,
        } = self;
        exploded_keep_program::<W>(die, condition, depth, count, keep, value)
    }
}

/// [`explode_into_pool`] keeping M, in counts `W` that hold the outcomes
/// (see [`run_exact`]).
///
/// Each roll of a chain either explodes (an "E" roll, on a face that meets
/// the condition) or not (an "N" roll); a chain is `d < depth` E rolls
/// then an N roll, its `depth - d` unused rolls scaling it by `T^(depth -
/// d)`, or `depth` E rolls then a last roll of any face (E or N). So the
/// whole pool is a mixture, over (A, B), of A rolls of the die restricted
/// to E and B rolls restricted to N, with the coefficients of `G(u, t)^count`,
/// `G = sum_{d < depth} T^(depth - d) u^d t + u^depth (u + t)`. The
/// program walks the faces best first carrying (E rolls left, N rolls
/// left, dice kept so far < M, their sum) for every (A, B) at once; once
/// M are kept the rest are counted by a binomial tail. `None` when the
/// sums spread too wide for dense tables.
pub(super) fn exploded_keep_program<W: Ways>(
    die: &Outcomes,
    condition: Condition,
    depth: u32,
    count: u64,
    keep: Keep,
    value: &impl Fn(i64) -> i64,
) -> Option<Outcomes> {
    let (m, faces, low, spread) = best_first(die, keep, value)?;
    let faces: Vec<(i64, W, bool)> = faces
        .into_iter()
        .map(|(v, w)| (v, w, condition.holds(v)))
        .collect();
    let (n, depth) = (count as usize, depth as usize);
    let most_e = n.checked_mul(depth + 1)?;
    let widest = spread.checked_mul(m)?.checked_add(1)?;
    let cells = (most_e + 1).checked_mul(n + 1)?;
    let bytes = cells
        .checked_mul(exploded_sums(m, spread)?)?
        .checked_mul(std::mem::size_of::<W>())?;
    if bytes > PROGRAM_BYTES {
        return None;
    }
    // G^count as coefficients g[A][B], A E rolls and B N rolls.
    let total = W::of(&die.total());
    let total_powers = powers(&total, depth);
    let mut chain = vec![vec![W::zero_ways(); 2]; depth + 2];
    for d in 0..depth {
        chain[d][1] = total_powers[depth - d].clone();
    }
    chain[depth][1].add(&W::of_u64(1));
    chain[depth + 1][0] = W::of_u64(1);
    let mut g = vec![vec![W::zero_ways(); n + 1]; most_e + 1];
    g[0][0] = W::of_u64(1);
    for _ in 0..n {
        let mut next = vec![vec![W::zero_ways(); n + 1]; most_e + 1];
        for (a, row) in g.iter().enumerate() {
            for (b, ways) in row.iter().enumerate() {
                if ways.no_ways() {
                    continue;
                }
                for (d, pair) in chain.iter().enumerate() {
                    for (t, c) in pair.iter().enumerate() {
                        if !c.no_ways() && a + d <= most_e && b + t <= n {
                            next[a + d][b + t].add_product(ways, c);
                        }
                    }
                }
            }
        }
        g = next;
    }
    let rows = binomials::<W>(most_e.max(n));
    // state[j][(rest_e * (n + 1) + rest_n) * (spread j + 1) + s - j low]
    let at = |j: usize, rest_e: usize, rest_n: usize, s: usize| {
        (rest_e * (n + 1) + rest_n) * (spread * j + 1) + s
    };
    let mut state: Vec<Vec<W>> = (0..m)
        .map(|j| vec![W::zero_ways(); cells * (spread * j + 1)])
        .collect();
    for (a, row) in g.iter().enumerate() {
        for (b, ways) in row.iter().enumerate() {
            state[0][at(0, a, b, 0)] = ways.clone();
        }
    }
    let mut result = vec![W::zero_ways(); widest];
    // The weight of the E and of the N faces not yet reached.
    let (mut after_e, mut after_n) = (W::zero_ways(), W::zero_ways());
    for (_, w, e) in &faces {
        if *e {
            after_e.add(w);
        } else {
            after_n.add(w);
        }
    }
    for (face, w, e) in &faces {
        if *e {
            after_e.sub(w);
        } else {
            after_n.sub(w);
        }
        let v = usize::try_from(value(*face) - low).ok()?;
        let most_here = if *e { most_e } else { n };
        let w_powers = powers(w, most_here);
        let (same, other) = if *e {
            (after_e.clone(), after_n.clone())
        } else {
            (after_n.clone(), after_e.clone())
        };
        let same_powers = powers(&same, most_here);
        let other_powers = powers(&other, if *e { n } else { most_e });
        // At least m - j of `here` rolls left show this face, the rest of
        // their kind lie beyond it.
        let tails: Vec<Vec<W>> = (0..m)
            .map(|j| {
                (0..=most_here)
                    .map(|here| {
                        let mut tail = W::zero_ways();
                        for k in m - j..=here {
                            tail.add_product(
                                &rows[here][k].times(&w_powers[k]),
                                &same_powers[here - k],
                            );
                        }
                        tail
                    })
                    .collect()
            })
            .collect();
        // C(here, k) w^k: k of the `here` rolls left show this face.
        let coefficients: Vec<Vec<W>> = (0..=most_here)
            .map(|here| {
                (0..m.min(here + 1))
                    .map(|k| rows[here][k].times(&w_powers[k]))
                    .collect()
            })
            .collect();
        // In place, most dice kept first: a state only moves to more kept
        // dice (k = 0 leaves it where it is), so each is read before any
        // move reaches its row.
        for j in (0..m).rev() {
            for rest_e in 0..=most_e {
                for rest_n in 0..=n {
                    let (here, there) = if *e {
                        (rest_e, rest_n)
                    } else {
                        (rest_n, rest_e)
                    };
                    let base = at(j, rest_e, rest_n, 0);
                    let width = spread * j + 1;
                    tally!(width as f64);
                    if state[j][base..base + width].iter().all(W::no_ways) {
                        continue;
                    }
                    let tail = tails[j][here].times(&other_powers[there]);
                    // With no face of this kind beyond, every roll left of
                    // it must show here.
                    let stuck = same.no_ways();
                    for s in 0..width {
                        let ways = state[j][base + s].clone();
                        if ways.no_ways() {
                            continue;
                        }
                        result[s + (m - j) * v].add_product(&ways, &tail);
                        if stuck && here > 0 {
                            state[j][base + s] = W::zero_ways();
                        }
                        for (k, coefficient) in coefficients[here].iter().enumerate().skip(1) {
                            if stuck && k < here || j + k >= m {
                                continue;
                            }
                            let (to_e, to_n) = if *e {
                                (rest_e - k, rest_n)
                            } else {
                                (rest_e, rest_n - k)
                            };
                            state[j + k][at(j + k, to_e, to_n, s + k * v)]
                                .add_product(&ways, coefficient);
                        }
                    }
                }
            }
        }
    }
    let base = low.checked_mul(m as i64)?;
    let counts = result
        .iter()
        .enumerate()
        .map(|(s, ways)| (base + s as i64, ways.big()))
        .collect();
    Outcomes::from_map(counts)
}

/// The sums [`exploded_keep_program`] keeps per (E rolls left, N rolls
/// left): `spread j + 1` for each j < M dice kept. Its table's size, for
/// the engine and the price alike.
pub(crate) fn exploded_sums(m: usize, spread: usize) -> Option<usize> {
    spread
        .checked_mul(m * m.saturating_sub(1) / 2)?
        .checked_add(m)
}
