//! Dice pools: one die transformed (rerolled, exploded), many dice rolled
//! together and some kept, or their successes counted. The building blocks
//! of the dice language, each exact and each checked against brute force.

use super::combinatorics::{binomial_row, binomial_row_start};
use super::outcomes::Outcomes;
use super::ways::{binomials, fits, powers, Residue, Ways};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// A test on one die's face: `=X`, `<X`, `<=X`, `>X` or `>=X`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// Equal to.
    Eq(i64),
    /// Below.
    Lt(i64),
    /// At most.
    Le(i64),
    /// Above.
    Gt(i64),
    /// At least.
    Ge(i64),
}

impl Condition {
    /// Whether `value` meets the condition.
    pub fn holds(self, value: i64) -> bool {
        match self {
            Condition::Eq(x) => value == x,
            Condition::Lt(x) => value < x,
            Condition::Le(x) => value <= x,
            Condition::Gt(x) => value > x,
            Condition::Ge(x) => value >= x,
        }
    }
}

/// Which dice of a pool are kept, counted from one end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The highest M.
    Highest(u64),
    /// The lowest M.
    Lowest(u64),
}

/// Reroll once: a face that meets the condition is rolled again and the
/// second result stands. Over `T^2` outcomes, face `f` has
/// `w_f (T [f kept] + W_rerolled)` ways.
pub(crate) fn reroll_once(die: &Outcomes, condition: Condition) -> Outcomes {
    let total = die.total();
    let rerolled: BigUint = die
        .iter()
        .filter(|(v, _)| condition.holds(*v))
        .map(|(_, w)| w)
        .sum();
    let counts = die
        .iter()
        .map(|(v, w)| {
            let first = if condition.holds(v) {
                BigUint::zero()
            } else {
                &total * w
            };
            (v, first + w * &rerolled)
        })
        .collect();
    Outcomes::from_map(counts).expect("a die keeps its faces")
}

/// Reroll until the face no longer meets the condition: the faces that
/// meet it are gone, the others keep their ways. `None` when every face
/// meets it (the reroll would never end).
pub(crate) fn reroll_until(die: &Outcomes, condition: Condition) -> Option<Outcomes> {
    let counts: BTreeMap<i64, BigUint> = die
        .iter()
        .filter(|(v, _)| !condition.holds(*v))
        .map(|(v, w)| (v, w.clone()))
        .collect();
    Outcomes::from_map(counts)
}

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
        if fits(&bound) {
            if let Some(outcomes) =
                exploded_keep_program(die, condition, depth, count, keep, &value)
            {
                return outcomes;
            }
        }
    }
    explode_by_profiles(die, condition, depth, count, keep, value)
}

/// [`explode_into_pool`] by merging profiles die by die, in big integers:
/// the sum without a keep, and keeps past what [`Residue`]s hold.
fn explode_by_profiles(
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

/// [`explode_into_pool`] keeping M, when the outcomes fit in [`Residue`]s.
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
fn exploded_keep_program(
    die: &Outcomes,
    condition: Condition,
    depth: u32,
    count: u64,
    keep: Keep,
    value: &impl Fn(i64) -> i64,
) -> Option<Outcomes> {
    let (m, faces, low, spread) = best_first(die, keep, value)?;
    let faces: Vec<(i64, Residue, bool)> = faces
        .into_iter()
        .map(|(v, w)| (v, w, condition.holds(v)))
        .collect();
    let (n, depth) = (count as usize, depth as usize);
    let most_e = n.checked_mul(depth + 1)?;
    let widest = spread.checked_mul(m)?.checked_add(1)?;
    let cells = (most_e + 1).checked_mul(n + 1)?;
    if cells.checked_mul(widest)?.checked_mul(m + 1)? > 1 << 20 {
        return None;
    }
    // G^count as coefficients g[A][B], A E rolls and B N rolls.
    let total = Residue::of(&die.total());
    let total_powers = powers(&total, depth);
    let mut chain = vec![vec![Residue::zero_ways(); 2]; depth + 2];
    for d in 0..depth {
        chain[d][1] = total_powers[depth - d];
    }
    chain[depth][1].add(&Residue::of_u64(1));
    chain[depth + 1][0] = Residue::of_u64(1);
    let mut g = vec![vec![Residue::zero_ways(); n + 1]; most_e + 1];
    g[0][0] = Residue::of_u64(1);
    for _ in 0..n {
        let mut next = vec![vec![Residue::zero_ways(); n + 1]; most_e + 1];
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
    let rows = binomials::<Residue>(most_e.max(n));
    // state[j][(rest_e * (n + 1) + rest_n) * (spread j + 1) + s - j low]
    let at = |j: usize, rest_e: usize, rest_n: usize, s: usize| {
        (rest_e * (n + 1) + rest_n) * (spread * j + 1) + s
    };
    let mut state: Vec<Vec<Residue>> = (0..m)
        .map(|j| vec![Residue::zero_ways(); cells * (spread * j + 1)])
        .collect();
    for (a, row) in g.iter().enumerate() {
        for (b, ways) in row.iter().enumerate() {
            state[0][at(0, a, b, 0)] = *ways;
        }
    }
    let mut result = vec![Residue::zero_ways(); widest];
    // The weight of the E and of the N faces not yet reached.
    let (mut after_e, mut after_n) = (Residue::zero_ways(), Residue::zero_ways());
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
            (after_e, after_n)
        } else {
            (after_n, after_e)
        };
        let same_powers = powers(&same, most_here);
        let other_powers = powers(&other, if *e { n } else { most_e });
        // At least m - j of `here` rolls left show this face, the rest of
        // their kind lie beyond it.
        let tails: Vec<Vec<Residue>> = (0..m)
            .map(|j| {
                (0..=most_here)
                    .map(|here| {
                        let mut tail = Residue::zero_ways();
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
        let coefficients: Vec<Vec<Residue>> = (0..=most_here)
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
                    if state[j][base..base + width].iter().all(Residue::no_ways) {
                        continue;
                    }
                    let tail = tails[j][here].times(&other_powers[there]);
                    // With no face of this kind beyond, every roll left of
                    // it must show here.
                    let stuck = same.no_ways();
                    for s in 0..width {
                        let ways = state[j][base + s];
                        if ways.no_ways() {
                            continue;
                        }
                        result[s + (m - j) * v].add_product(&ways, &tail);
                        if stuck && here > 0 {
                            state[j][base + s] = Residue::zero_ways();
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

/// The sum of `value(face)` over the kept dice of `count` independent
/// rolls of `die`: by a dynamic program over the faces in machine words
/// when the outcomes fit, else by a closed form in big integers.
pub fn keep(die: &Outcomes, count: u64, keep: Keep, value: impl Fn(i64) -> i64) -> Outcomes {
    let kept = match keep {
        Keep::Highest(m) | Keep::Lowest(m) => m,
    };
    assert!(kept <= count, "callers check that M <= N");
    if kept > 0 && count <= PROGRAM_DICE && fits(&die.total().pow(count as u32)) {
        if let Some(outcomes) = keep_program(die, count, keep, &value) {
            return outcomes;
        }
    }
    keep_by_convolution(die, count, keep, value)
}

/// The most dice [`keep_program`] takes: its table of binomials grows with
/// the square of the dice. A die of two ways or more never fits past 188
/// dice; a certain die (`d1`, `d{1,2}rr2`: one way) fits any number, and
/// 2000 of them asked a gigabyte of binomials its price never counted.
const PROGRAM_DICE: u64 = 188;

/// [`keep`] faces best first, carrying only the dice placed so far (fewer
/// than M, all kept) and their sum; once M are placed the rest are counted
/// at once by the binomial tail. Counts as [`Residue`]s, so callers check
/// that the outcomes [`fits`]. `None` when the sums span too wide a range
/// for dense tables.
fn keep_program(
    die: &Outcomes,
    count: u64,
    keep: Keep,
    value: &impl Fn(i64) -> i64,
) -> Option<Outcomes> {
    let (m, faces, low, spread) = best_first(die, keep, value)?;
    let n = count as usize;
    let widest = spread.checked_mul(m)?.checked_add(1)?;
    if widest.checked_mul(m + 1)? > 1 << 20 {
        return None;
    }
    let rows = binomials::<Residue>(n);
    // placed[j][s - j low]: ways to have placed j dice (all kept) summing to s.
    let mut placed: Vec<Vec<Residue>> = (0..m)
        .map(|j| vec![Residue::zero_ways(); spread * j + 1])
        .collect();
    placed[0][0] = Residue::of_u64(1);
    let mut result = vec![Residue::zero_ways(); widest];
    let mut after = faces.iter().fold(Residue::zero_ways(), |mut sum, (_, w)| {
        sum.add(w);
        sum
    });
    for (face, w) in &faces {
        after.sub(w);
        let v = usize::try_from(value(*face) - low).ok()?;
        let w_powers = powers(w, n);
        let after_powers = powers(&after, n);
        for j in 0..m {
            let rest = n - j;
            // At least m - j of the rest show this face: the first m - j of
            // them are kept, the others (here or beyond) are not.
            let mut tail = Residue::zero_ways();
            for e in m - j..=rest {
                tail.add_product(&rows[rest][e].times(&w_powers[e]), &after_powers[rest - e]);
            }
            for (s, ways) in placed[j].iter().enumerate() {
                if !ways.no_ways() {
                    result[s + (m - j) * v].add_product(ways, &tail);
                }
            }
        }
        // Fewer than m - j show it: k more dice placed, all kept (k = 0
        // leaves a state as it is). In place, the fullest rows first, so
        // that each reads rows this face has not yet moved on.
        for j in (1..m).rev() {
            let (before, row) = placed.split_at_mut(j);
            for (source, from) in before.iter().enumerate() {
                let k = j - source;
                let coefficient = rows[n - source][k].times(&w_powers[k]);
                for (s, ways) in from.iter().enumerate() {
                    if !ways.no_ways() {
                        row[0][s + k * v].add_product(ways, &coefficient);
                    }
                }
            }
        }
    }
    let base = low * m as i64;
    let counts = result
        .iter()
        .enumerate()
        .map(|(s, ways)| (base + s as i64, ways.big()))
        .collect();
    Outcomes::from_map(counts)
}

/// The M kept, the faces with their ways best first (highest first for
/// kh), and the lowest value and the spread of the faces' values.
type Ordered = (usize, Vec<(i64, Residue)>, i64, usize);

/// See [`Ordered`].
fn best_first(die: &Outcomes, keep: Keep, value: &impl Fn(i64) -> i64) -> Option<Ordered> {
    let (m, highest_first) = match keep {
        Keep::Highest(m) => (m as usize, true),
        Keep::Lowest(m) => (m as usize, false),
    };
    let mut faces: Vec<(i64, Residue)> = die.iter().map(|(v, w)| (v, Residue::of(w))).collect();
    if highest_first {
        faces.reverse();
    }
    let low = faces.iter().map(|&(v, _)| value(v)).min()?;
    let high = faces.iter().map(|&(v, _)| value(v)).max()?;
    let spread = usize::try_from(high.checked_sub(low)?).ok()?;
    Some((m, faces, low, spread))
}

/// [`keep`] by the closed form below, in big integers: for outcomes past
/// what [`Residue`] holds, or sums spread too wide for [`keep_program`].
///
/// Condition on the face `t` of the M-th kept die from the chosen end:
/// `i < M` dice lie strictly beyond it (their values convolved), at least
/// `M - i` dice show `t`, and the rest lie on the other side. So
///
/// `ways = sum_t sum_i C(N, i) beyond_t^(*i) shifted by (M-i) value(t)
///        x sum_{e >= M-i} C(N-i, e) w_t^e B_t^(N-i-e)`
///
/// where `B_t` is the weight on the other side. The inner tail is the full
/// binomial `(w_t + B_t)^(N-i)` minus its first `M - i` terms, so the cost
/// is polynomial in N and M, never the `faces^N` rolls.
fn keep_by_convolution(
    die: &Outcomes,
    count: u64,
    keep: Keep,
    value: impl Fn(i64) -> i64,
) -> Outcomes {
    let (kept, highest_first) = match keep {
        Keep::Highest(m) => (m, true),
        Keep::Lowest(m) => (m, false),
    };
    if kept == 0 {
        return Outcomes::constant(0).scaled(&die.total().pow(count as u32));
    }
    let mut faces: Vec<(i64, BigUint)> = die.iter().map(|(v, w)| (v, w.clone())).collect();
    if highest_first {
        faces.reverse();
    }
    let n = count as usize;
    let m = kept as usize;
    let binomial_n = binomial_row(count);
    let mut result: BTreeMap<i64, BigUint> = BTreeMap::new();
    // Weight strictly beyond the current face, as a die of values.
    let mut beyond: Vec<(i64, BigUint)> = Vec::new();
    let mut weight_beyond = BigUint::zero();
    let all: BigUint = faces.iter().map(|(_, w)| w).sum();
    for (face, w_t) in &faces {
        let other_side = &all - &weight_beyond - w_t;
        let at_or_other = w_t + &other_side;
        let w_powers = powers(w_t, n);
        let b_powers = powers(&other_side, n);
        let all_powers = powers(&at_or_other, n);
        // beyond^(*i) as value -> ways, for i = 0, 1, ...
        let mut power: BTreeMap<i64, BigUint> = BTreeMap::from([(0, BigUint::one())]);
        for (i, binomial_i) in binomial_n.iter().enumerate().take(m) {
            let rest = n - i;
            let needed = m - i;
            if needed <= rest {
                let mut tail = all_powers[rest].clone();
                let binomial_rest = binomial_row_start(rest as u64, needed as u64);
                for (e, binomial) in binomial_rest.iter().enumerate() {
                    tail -= binomial * &w_powers[e] * &b_powers[rest - e];
                }
                if !tail.is_zero() {
                    let factor = binomial_i * tail;
                    let offset = (needed as i64) * value(*face);
                    for (v, ways) in &power {
                        *result.entry(v + offset).or_default() += ways * &factor;
                    }
                }
            }
            if beyond.is_empty() {
                break;
            }
            let mut next: BTreeMap<i64, BigUint> = BTreeMap::new();
            for (v, ways) in &power {
                for (b, bw) in &beyond {
                    *next.entry(v + value(*b)).or_default() += ways * bw;
                }
            }
            power = next;
        }
        weight_beyond += w_t;
        beyond.push((*face, w_t.clone()));
    }
    Outcomes::from_map(result).expect("some roll keeps dice")
}

/// The most values a die may have for [`sorted_rolls`], which recurses
/// once per value.
pub(crate) const MAX_SORTED_FACES: usize = 1000;

/// Every sorted roll of `count` dice (lowest first) with its ways: the
/// ways to choose which dice show each value times the faces' ways. For
/// rules no closed form serves (the middle dice, pairing off two pools);
/// callers price the C(count + values - 1, count) rolls first.
pub(crate) fn sorted_rolls(die: &Outcomes, count: u64, visit: &mut dyn FnMut(&[i64], &BigUint)) {
    let faces: Vec<(i64, &BigUint)> = die.iter().collect();
    assert!(faces.len() <= MAX_SORTED_FACES, "callers check the faces");
    let mut roll = Vec::with_capacity(count as usize);
    let mut step = Step {
        faces: &faces,
        roll: &mut roll,
        visit,
    };
    step.place(0, count as usize, BigUint::one());
}

struct Step<'a> {
    faces: &'a [(i64, &'a BigUint)],
    roll: &'a mut Vec<i64>,
    visit: &'a mut dyn FnMut(&[i64], &BigUint),
}

impl Step<'_> {
    /// Place `left` dice on the values from `face` up.
    fn place(&mut self, face: usize, left: usize, ways: BigUint) {
        let at = self.roll.len();
        let Some(&(value, w)) = self.faces.get(face) else {
            return;
        };
        if left == 0 || face + 1 == self.faces.len() {
            self.roll.resize(at + left, value);
            (self.visit)(self.roll, &(ways * w.pow(left as u32)));
        } else {
            // C(left, here) from the last one: no table of binomials,
            // whose rows for thousands of dice would take gigabytes.
            let (mut power, mut choose) = (BigUint::one(), BigUint::one());
            for here in 0..=left {
                let next = &ways * &choose * &power;
                self.place(face + 1, left - here, next);
                self.roll.push(value);
                power *= w;
                choose = choose * (left - here) / (here + 1);
            }
        }
        self.roll.truncate(at);
    }
}

/// The sum of `value` over the dice from `start` to `end` (sorted lowest
/// first) of `count` rolls of `die`: `4d6dl1dh1` keeps 1..3.
pub(crate) fn keep_range(
    die: &Outcomes,
    count: u64,
    (start, end): (u64, u64),
    value: impl Fn(i64) -> i64,
) -> Outcomes {
    let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
    sorted_rolls(die, count, &mut |roll, ways| {
        let sum = roll[start as usize..end as usize]
            .iter()
            .map(|&v| value(v))
            .sum();
        *counts.entry(sum).or_default() += ways;
    });
    Outcomes::from_map(counts).expect("some roll keeps dice")
}

/// How many of `b`'s dice `a`'s beat when both pools are sorted from the
/// highest and paired off (Risk: ties go to `b`; extra dice sit out): by
/// a dynamic program over the faces when it is no more work than listing
/// the sorted rolls (which the check priced), else by listing them.
pub(crate) fn pairs(a: &Outcomes, a_count: u64, b: &Outcomes, b_count: u64) -> Outcomes {
    let (na, nb) = (a_count as f64, b_count as f64);
    let mut faces: Vec<i64> = a.iter().chain(b.iter()).map(|(v, _)| v).collect();
    faces.sort_unstable_by(|x, y| y.cmp(x));
    faces.dedup();
    let program =
        faces.len() as f64 * (na + 1.0) * (nb + 1.0) * (na.min(nb) + 1.0) * (na.max(nb) + 1.0);
    let listing = rolls_sorted(na, a.iter().count()) * rolls_sorted(nb, b.iter().count());
    // The program's table stays small (a million states at most) whatever
    // the budget admitted.
    let table = (na + 1.0) * (nb + 1.0) * (na.min(nb) + 1.0);
    if program > listing || table > PAIRS_STATES {
        return pairs_by_listing(a, a_count, b, b_count);
    }
    let (na, nb) = (a_count as usize, b_count as usize);
    let bound = a.total().pow(a_count as u32) * b.total().pow(b_count as u32);
    let counts = if fits(&bound) {
        pairs_program::<Residue>(a, na, b, nb, &faces)
    } else {
        pairs_program::<BigUint>(a, na, b, nb, &faces)
    };
    Outcomes::from_map((0..).zip(counts).collect()).expect("some roll")
}

/// The most states [`pairs_program`] keeps.
const PAIRS_STATES: f64 = (1 << 20) as f64;

/// How many sorted rolls `n` dice of `k` values have, C(n + k - 1, n), in
/// floating point (a comparison of costs, saturating).
fn rolls_sorted(n: f64, k: usize) -> f64 {
    let k = k as f64;
    let mut count = 1.0;
    let mut i = 0.0;
    while i < n.min(k - 1.0) && count < 1e300 {
        count *= (n + k - 1.0 - i) / (i + 1.0);
        i += 1.0;
    }
    count
}

/// [`pairs`] over `faces` from the highest: the state is how many of
/// each pool's dice are placed (on faces so far, the highest ranks) and
/// how many pairs `a` has won. At each face `b`'s dice are placed first;
/// then each of `a`'s dice placed there wins its pair when `b`'s die of
/// the same rank is not yet placed (so lower).
fn pairs_program<W: Ways>(
    a: &Outcomes,
    na: usize,
    b: &Outcomes,
    nb: usize,
    faces: &[i64],
) -> Vec<BigUint> {
    let dice = na.min(nb);
    let rows = binomials::<W>(na.max(nb));
    let at = |ap: usize, bp: usize, won: usize| (ap * (nb + 1) + bp) * (dice + 1) + won;
    let size = (na + 1) * (nb + 1) * (dice + 1);
    let mut table = vec![W::zero_ways(); size];
    table[0] = W::of_u64(1);
    for &face in faces {
        for (die, n, pool_b) in [(b, nb, true), (a, na, false)] {
            let w = die.ways(face);
            if w.is_zero() {
                continue;
            }
            let w_powers = powers(&W::of(&w), n);
            let mut next = vec![W::zero_ways(); size];
            for ap in 0..=na {
                for bp in 0..=nb {
                    let placed = if pool_b { bp } else { ap };
                    let coefficients: Vec<W> = (0..=n - placed)
                        .map(|k| rows[n - placed][k].times(&w_powers[k]))
                        .collect();
                    for won in 0..=dice {
                        let ways = &table[at(ap, bp, won)];
                        if ways.no_ways() {
                            continue;
                        }
                        for (k, coefficient) in coefficients.iter().enumerate() {
                            let to = if pool_b {
                                at(ap, bp + k, won)
                            } else {
                                let wins = (ap + k).min(dice).saturating_sub(ap.max(bp));
                                at(ap + k, bp, won + wins)
                            };
                            next[to].add_product(ways, coefficient);
                        }
                    }
                }
            }
            table = next;
        }
    }
    (0..=dice).map(|won| table[at(na, nb, won)].big()).collect()
}

/// [`pairs`] by listing: every sorted roll of `b` is listed once; for
/// each sorted roll of `a`, `b`'s ways are summed per number beaten (in
/// `u128` when all of `b`'s outcomes fit) and multiplied once per number.
fn pairs_by_listing(a: &Outcomes, a_count: u64, b: &Outcomes, b_count: u64) -> Outcomes {
    let dice = a_count.min(b_count) as usize;
    let mut theirs: Vec<(Vec<i64>, BigUint)> = Vec::new();
    sorted_rolls(b, b_count, &mut |roll, ways| {
        theirs.push((
            roll.iter().rev().take(dice).copied().collect(),
            ways.clone(),
        ));
    });
    let small: Option<Vec<u128>> = (b.total().bits() * b_count < 127).then(|| {
        theirs
            .iter()
            .map(|(_, w)| u128::try_from(w).expect("fits"))
            .collect()
    });
    let mut counts = vec![BigUint::zero(); dice + 1];
    sorted_rolls(a, a_count, &mut |roll, ways| {
        let mine: Vec<i64> = roll.iter().rev().take(dice).copied().collect();
        let beaten = |their: &[i64]| mine.iter().zip(their).filter(|(x, y)| x > y).count();
        match &small {
            Some(small) => {
                let mut by = vec![0u128; dice + 1];
                for ((their, _), w) in theirs.iter().zip(small) {
                    by[beaten(their)] += w;
                }
                for (count, sum) in counts.iter_mut().zip(by) {
                    *count += ways * BigUint::from(sum);
                }
            }
            None => {
                let mut by = vec![BigUint::zero(); dice + 1];
                for (their, w) in &theirs {
                    by[beaten(their)] += w;
                }
                for (count, sum) in counts.iter_mut().zip(by) {
                    *count += ways * sum;
                }
            }
        }
    });
    let counts = (0..).zip(counts).collect();
    Outcomes::from_map(counts).expect("some roll")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(outcomes: &Outcomes) -> Vec<(i64, u64)> {
        outcomes
            .iter()
            .map(|(v, w)| (v, u64::try_from(w).expect("small")))
            .collect()
    }

    /// Every roll of `count` dice of `faces` (each face one outcome),
    /// each mapped to a value by `score`.
    fn enumerate(
        faces: &[i64],
        count: u32,
        score: impl Fn(&mut Vec<i64>) -> i64,
    ) -> Vec<(i64, u64)> {
        let k = faces.len();
        let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
        for mut index in 0..k.pow(count) {
            let mut roll = Vec::new();
            for _ in 0..count {
                roll.push(faces[index % k]);
                index /= k;
            }
            *counts.entry(score(&mut roll)).or_default() += 1;
        }
        counts.into_iter().collect()
    }

    fn kept_sum(roll: &mut [i64], keep: Keep, value: impl Fn(i64) -> i64) -> i64 {
        roll.sort();
        let kept: &[i64] = match keep {
            Keep::Highest(m) => &roll[roll.len() - m as usize..],
            Keep::Lowest(m) => &roll[..m as usize],
        };
        kept.iter().map(|&v| value(v)).sum()
    }

    const FACE_SETS: [&[i64]; 5] = [
        &[1, 2, 3, 4, 5, 6],
        &[-1, 0, 1],
        &[1, 1, 2, 3],
        &[0, 0, 1, 1, 2],
        &[2, 7, 7, -4],
    ];

    #[test]
    fn keep_matches_enumeration() {
        for faces in FACE_SETS {
            let die = Outcomes::die(faces).unwrap();
            for count in 1..=5u64 {
                for m in 0..=count {
                    for keep_rule in [Keep::Highest(m), Keep::Lowest(m)] {
                        let exact = keep(&die, count, keep_rule, |v| v);
                        let brute =
                            enumerate(faces, count as u32, |roll| kept_sum(roll, keep_rule, |v| v));
                        assert_eq!(pairs(&exact), brute, "{faces:?} {count} {keep_rule:?}");
                        // Both ways `keep` may take agree with enumeration.
                        let closed = keep_by_convolution(&die, count, keep_rule, |v| v);
                        assert_eq!(pairs(&closed), brute, "{faces:?} {count} {keep_rule:?}");
                        if m > 0 {
                            let program = keep_program(&die, count, keep_rule, &|v| v).unwrap();
                            assert_eq!(pairs(&program), brute, "{faces:?} {count} {keep_rule:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn keep_then_count_matches_enumeration() {
        let faces: &[i64] = &[1, 2, 3, 4, 5, 6];
        let die = Outcomes::die(faces).unwrap();
        let success = |v: i64| i64::from(v >= 4);
        for count in 1..=5u64 {
            for m in 1..=count {
                let rule = Keep::Highest(m);
                let exact = keep(&die, count, rule, success);
                let brute = enumerate(faces, count as u32, |roll| kept_sum(roll, rule, success));
                assert_eq!(pairs(&exact), brute);
            }
        }
    }

    #[test]
    fn keep_four_d6_drop_lowest_is_the_published_table() {
        // 4d6 drop the lowest: 1296 rolls; 18 has 21 ways, 3 has 1, 13 has 172.
        let d6 = Outcomes::standard(6).unwrap();
        let scores = keep(&d6, 4, Keep::Highest(3), |v| v);
        assert_eq!(scores.total(), BigUint::from(1296u32));
        assert_eq!(scores.ways(18), BigUint::from(21u32));
        assert_eq!(scores.ways(3), BigUint::from(1u32));
        assert_eq!(scores.ways(13), BigUint::from(172u32));
    }

    #[test]
    fn rerolls_match_enumeration() {
        let d6 = Outcomes::standard(6).unwrap();
        // Reroll ones once: 36 outcomes, a 1 only from 1 then 1.
        let once = reroll_once(&d6, Condition::Eq(1));
        assert_eq!(once.total(), BigUint::from(36u32));
        assert_eq!(
            pairs(&once),
            vec![(1, 1), (2, 7), (3, 7), (4, 7), (5, 7), (6, 7)]
        );
        // Enumerate two rolls for a custom die and a range condition.
        let faces: &[i64] = &[1, 1, 2, 3];
        let die = Outcomes::die(faces).unwrap();
        let cond = Condition::Lt(2);
        let exact = reroll_once(&die, cond);
        let brute = enumerate(faces, 2, |roll| {
            if cond.holds(roll[0]) {
                roll[1]
            } else {
                roll[0]
            }
        });
        assert_eq!(pairs(&exact), brute);
        let until = reroll_until(&d6, Condition::Le(2)).unwrap();
        assert_eq!(pairs(&until), vec![(3, 1), (4, 1), (5, 1), (6, 1)]);
        assert_eq!(reroll_until(&d6, Condition::Lt(7)), None);
    }

    #[test]
    fn explosions_match_enumeration() {
        for (faces, cond) in [
            (&[1i64, 2, 3, 4, 5, 6][..], Condition::Eq(6)),
            (&[1, 2, 3][..], Condition::Ge(2)),
            (&[1, 1, 2][..], Condition::Eq(2)),
        ] {
            let die = Outcomes::die(faces).unwrap();
            for depth in 0..=3u32 {
                let exact = explode(&die, cond, depth, 0);
                // Roll depth+1 dice; sum while each exploding roll allows the next.
                let brute = enumerate(faces, depth + 1, |roll| {
                    let mut sum = 0;
                    for (i, &face) in roll.iter().enumerate() {
                        sum += face;
                        if !cond.holds(face) || i == depth as usize {
                            break;
                        }
                    }
                    sum
                });
                assert_eq!(pairs(&exact), brute, "{faces:?} {cond:?} depth {depth}");
            }
        }
    }

    #[test]
    fn sorted_rolls_match_enumeration() {
        for faces in FACE_SETS {
            let die = Outcomes::die(faces).unwrap();
            for count in 1..=5u64 {
                for start in 0..count {
                    for end in start + 1..=count {
                        let exact = keep_range(&die, count, (start, end), |v| v);
                        let brute = enumerate(faces, count as u32, |roll| {
                            roll.sort();
                            roll[start as usize..end as usize].iter().sum()
                        });
                        assert_eq!(pairs(&exact), brute, "{faces:?} {count} {start}..{end}");
                    }
                }
            }
        }
    }

    /// Every roll of one die's chain: `depth + 1` rolls, the chain
    /// stopping at the first that does not meet `cond` (or at the depth).
    fn chain(roll: &[i64], cond: Condition, depth: u32) -> &[i64] {
        let end = roll
            .iter()
            .take(depth as usize)
            .position(|&f| !cond.holds(f))
            .unwrap_or(depth as usize);
        &roll[..=end]
    }

    #[test]
    fn penetrating_explosions_match_enumeration() {
        for (faces, cond) in [
            (&[1i64, 2, 3, 4, 5, 6][..], Condition::Eq(6)),
            (&[1, 2, 3][..], Condition::Ge(2)),
        ] {
            let die = Outcomes::die(faces).unwrap();
            for depth in 0..=3u32 {
                let exact = explode(&die, cond, depth, 1);
                let brute = enumerate(faces, depth + 1, |roll| {
                    let rolls = chain(roll, cond, depth);
                    rolls.iter().sum::<i64>() - (rolls.len() as i64 - 1)
                });
                assert_eq!(pairs(&exact), brute, "{faces:?} {cond:?} depth {depth}");
            }
        }
    }

    /// `!`: every roll of every chain is a die of the pool, kept or
    /// counted as one.
    #[test]
    fn explosions_into_the_pool_match_enumeration() {
        for (faces, cond) in [
            (&[1i64, 2, 3, 4][..], Condition::Eq(4)),
            (&[1, 2, 3][..], Condition::Ge(2)),
            (&[1, 2, 3, 4][..], Condition::Eq(2)),
            (&[1, 1, 2, 3][..], Condition::Le(1)),
        ] {
            let die = Outcomes::die(faces).unwrap();
            for depth in 0..=2u32 {
                let rolls = depth as usize + 1;
                for count in 1..=3u64 {
                    let all = |roll: &mut Vec<i64>| -> Vec<i64> {
                        roll.chunks(rolls)
                            .flat_map(|c| chain(c, cond, depth).to_vec())
                            .collect()
                    };
                    let success = |v: i64| i64::from(v >= 3);
                    let exact = explode_into_pool(&die, cond, depth, count, None, success);
                    let brute = enumerate(faces, rolls as u32 * count as u32, |roll| {
                        all(roll).into_iter().map(success).sum()
                    });
                    assert_eq!(pairs(&exact), brute, "{faces:?} {depth} {count}");
                    for m in 1..=count {
                        for rule in [Keep::Highest(m), Keep::Lowest(m)] {
                            let exact =
                                explode_into_pool(&die, cond, depth, count, Some(rule), |v| v);
                            let brute = enumerate(faces, rolls as u32 * count as u32, |roll| {
                                kept_sum(&mut all(roll), rule, |v| v)
                            });
                            assert_eq!(pairs(&exact), brute, "{faces:?} {depth} {count} {rule:?}");
                            // Both ways agree: the program and the profiles.
                            let program =
                                exploded_keep_program(&die, cond, depth, count, rule, &success)
                                    .unwrap();
                            let profiles =
                                explode_by_profiles(&die, cond, depth, count, Some(rule), success);
                            let brute = enumerate(faces, rolls as u32 * count as u32, |roll| {
                                kept_sum(&mut all(roll), rule, success)
                            });
                            assert_eq!(
                                pairs(&program),
                                brute,
                                "{faces:?} {depth} {count} {rule:?}"
                            );
                            assert_eq!(
                                pairs(&profiles),
                                brute,
                                "{faces:?} {depth} {count} {rule:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Both sums of `pairs`: in `u128`, and in big integers once `b`'s
    /// outcomes pass 2^127 (the same die with each face's ways scaled).
    #[test]
    fn pairs_sum_alike_in_small_and_big_integers() {
        let die = Outcomes::die(&[1, 2, 2, 3]).unwrap();
        let scale = BigUint::one() << 100u32;
        let small = super::pairs(&die, 3, &die, 2);
        let big = super::pairs(&die, 3, &die.scaled(&scale), 2);
        assert_eq!(big, small.scaled(&scale.pow(2)));
        let brute = enumerate(&[1, 2, 2, 3], 5, |roll| {
            let (mut a, mut b) = (roll[..3].to_vec(), roll[3..].to_vec());
            a.sort_by(|x, y| y.cmp(x));
            b.sort_by(|x, y| y.cmp(x));
            a.iter().zip(&b).filter(|(x, y)| x > y).count() as i64
        });
        assert_eq!(pairs(&small), brute);
    }

    /// `pairs` by its program (in residues and in big integers) and by
    /// listing sorted rolls, against every roll of both pools.
    #[test]
    fn pairs_match_enumeration_every_way() {
        let face_sets: [&[i64]; 3] = [&[1, 2, 3, 4], &[1, 1, 2, 3], &[0, 2, 2, 5, 7]];
        for a_faces in face_sets {
            for b_faces in face_sets {
                let (a, b) = (
                    Outcomes::die(a_faces).unwrap(),
                    Outcomes::die(b_faces).unwrap(),
                );
                for (na, nb) in [(1, 1), (1, 3), (3, 1), (2, 2), (3, 2), (2, 4), (4, 3)] {
                    let dice = na.min(nb);
                    let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
                    let (ka, kb) = (a_faces.len(), b_faces.len());
                    for index in 0..ka.pow(na as u32) * kb.pow(nb as u32) {
                        let (mut x, mut y) = (index % ka.pow(na as u32), index / ka.pow(na as u32));
                        let mut mine: Vec<i64> = (0..na)
                            .map(|_| {
                                let f = a_faces[x % ka];
                                x /= ka;
                                f
                            })
                            .collect();
                        let mut theirs: Vec<i64> = (0..nb)
                            .map(|_| {
                                let f = b_faces[y % kb];
                                y /= kb;
                                f
                            })
                            .collect();
                        mine.sort_by(|p, q| q.cmp(p));
                        theirs.sort_by(|p, q| q.cmp(p));
                        let won = mine.iter().zip(&theirs).filter(|(p, q)| p > q).count();
                        *counts.entry(won as i64).or_default() += 1;
                    }
                    let brute: Vec<(i64, u64)> = counts.into_iter().collect();
                    let mut faces: Vec<i64> = a_faces.iter().chain(b_faces).copied().collect();
                    faces.sort_unstable_by(|p, q| q.cmp(p));
                    faces.dedup();
                    let (nau, nbu) = (na as usize, nb as usize);
                    let of = |counts: Vec<BigUint>| {
                        pairs(&Outcomes::from_map((0..).zip(counts).collect()).unwrap())
                    };
                    let small = pairs_program::<Residue>(&a, nau, &b, nbu, &faces);
                    let big = pairs_program::<BigUint>(&a, nau, &b, nbu, &faces);
                    assert_eq!(small.len(), dice as usize + 1);
                    assert_eq!(of(small), brute, "{a_faces:?} {na} {b_faces:?} {nb}");
                    assert_eq!(of(big), brute, "{a_faces:?} {na} {b_faces:?} {nb}");
                    let listed = pairs_by_listing(&a, na, &b, nb);
                    assert_eq!(pairs(&listed), brute, "{a_faces:?} {na} {b_faces:?} {nb}");
                    assert_eq!(pairs(&super::pairs(&a, na, &b, nb)), brute);
                }
            }
        }
    }

    #[test]
    fn successes_match_enumeration() {
        let faces: &[i64] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        let die = Outcomes::die(faces).unwrap();
        let exact = die.map(|v| i64::from(v >= 7)).repeat_sum(4);
        let brute = enumerate(faces, 4, |roll| {
            roll.iter().filter(|&&v| v >= 7).count() as i64
        });
        assert_eq!(pairs(&exact), brute);
    }

    #[test]
    fn large_pools_stay_exact() {
        let d6 = Outcomes::standard(6).unwrap();
        let top = keep(&d6, 500, Keep::Highest(50), |v| v);
        assert_eq!(top.total(), BigUint::from(6u32).pow(500));
        assert_eq!(top.max(), 300);
        assert_eq!(
            top.ways(300),
            keep(&d6, 500, Keep::Highest(50), |v| v).ways(300)
        );
        // All 50 kept dice are sixes unless at most 49 of 500 show a six.
        let at_most_49: BigUint = (0..50u32)
            .map(|k| binomial_row(500)[k as usize].clone() * BigUint::from(5u32).pow(500 - k))
            .sum();
        assert_eq!(top.ways(300), BigUint::from(6u32).pow(500) - at_most_49);
    }
}
