//! Rolling an expression as a table would, die by die, with the seeded
//! [`Sampler`]: the simulator `fairdice verify` sets beside [`crate::lang::dice::evaluate`].
//!
//! Written from the rules in `docs/reference.md` ("The dice language"),
//! never from the exact engine: each die is rolled and rerolled, explodes
//! roll after roll, the pool is sorted to keep or drop, and its dice are
//! counted or summed, in the order reroll, explode, keep or drop, count.

use super::Sampler;
use crate::engine::pool::Condition;
use crate::lang::dice::{BinaryOp, Die, Explosion, Expr, Function, KeepRule, Node, Pool};
use std::collections::BTreeMap;

/// One roll of a checked expression, with exploding dice allowed
/// `explode_depth` extra rolls.
pub fn roll(expr: &Expr, explode_depth: u32, sampler: &mut Sampler) -> i64 {
    match &expr.node {
        Node::Number(value) => *value,
        Node::Negate(inner) => -roll(inner, explode_depth, sampler),
        Node::Labelled(_, inner) => roll(inner, explode_depth, sampler),
        Node::Binary(op, left, right) => {
            // Left first, then right: each term is its own roll.
            let a = roll(left, explode_depth, sampler);
            let b = roll(right, explode_depth, sampler);
            match op {
                BinaryOp::Add => a + b,
                BinaryOp::Subtract => a - b,
                BinaryOp::Multiply => a * b,
                BinaryOp::Modulo => a.rem_euclid(b),
                BinaryOp::Divide(rounding) => rounding.divide(a, b),
            }
        }
        Node::Group(members, pool) => {
            let mut values: Vec<i64> = members
                .iter()
                .map(|m| roll(m, explode_depth, sampler))
                .collect();
            values.sort_unstable();
            let (start, end) = pool.kept(pool.count).unwrap_or((0, 0));
            let score = pool.scorer();
            values[start as usize..end as usize]
                .iter()
                .map(|&v| score(v))
                .sum()
        }
        Node::Pairs(a, b) => {
            let (Node::Pool(a), Node::Pool(b)) = (&a.node, &b.node) else {
                return 0;
            };
            // Counts per value, not a list of every die: the memory is the
            // values a die can show, however many dice there are.
            let mut dice = |pool: &Pool| {
                let die = OneDie::new(pool);
                let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
                for _ in 0..pool.count {
                    die.roll(explode_depth, sampler, |v| {
                        *counts.entry(v).or_default() += 1
                    });
                }
                counts
            };
            let (a, b) = (dice(a), dice(b));
            pairs_won(&a, &b) as i64
        }
        Node::Compare(comparison, left, right) => {
            let a = roll(left, explode_depth, sampler);
            let b = roll(right, explode_depth, sampler);
            i64::from(comparison.holds(a, b))
        }
        Node::Call(function, arguments) => {
            let values = arguments.iter().map(|a| roll(a, explode_depth, sampler));
            match function {
                Function::Max => values.max().unwrap_or(0),
                Function::Min => values.min().unwrap_or(0),
                Function::Abs => values.map(i64::abs).next().unwrap_or(0),
            }
        }
        Node::Pool(pool) => roll_pool(pool, explode_depth, sampler),
    }
}

/// How many places `a` wins when both pools' dice, given as counts per
/// value, are sorted highest first and paired place by place (as long as
/// the shorter pool lasts): a walk over runs of equal values.
fn pairs_won(a: &BTreeMap<i64, u64>, b: &BTreeMap<i64, u64>) -> u64 {
    let (mut a_runs, mut b_runs) = (a.iter().rev(), b.iter().rev());
    let run = |r: Option<(&i64, &u64)>| r.map(|(&v, &n)| (v, n));
    let (mut x, mut y) = (run(a_runs.next()), run(b_runs.next()));
    let mut won = 0;
    while let (Some((va, na)), Some((vb, nb))) = (x, y) {
        let n = na.min(nb);
        if va > vb {
            won += n;
        }
        x = if na > n {
            Some((va, na - n))
        } else {
            run(a_runs.next())
        };
        y = if nb > n {
            Some((vb, nb - n))
        } else {
            run(b_runs.next())
        };
    }
    won
}

/// Dice rolled (roughly) by one roll of `expr`, for the cost estimate: a
/// die that may reroll counts twice, one that may explode `1 + depth`.
pub(crate) fn dice_per_roll(expr: &Expr, explode_depth: u32) -> f64 {
    match &expr.node {
        Node::Number(_) => 0.0,
        Node::Negate(inner) | Node::Labelled(_, inner) => dice_per_roll(inner, explode_depth),
        Node::Binary(_, left, right) | Node::Compare(_, left, right) | Node::Pairs(left, right) => {
            dice_per_roll(left, explode_depth) + dice_per_roll(right, explode_depth)
        }
        Node::Call(_, arguments) | Node::Group(arguments, _) => arguments
            .iter()
            .map(|a| dice_per_roll(a, explode_depth))
            .sum(),
        Node::Pool(pool) => {
            let reroll = if pool.reroll.is_some() { 2.0 } else { 1.0 };
            let explode = if pool.explode.is_some() {
                1.0 + f64::from(pool.depth(explode_depth))
            } else {
                1.0
            };
            // A rolled number of dice: its own dice, then a guess of ten.
            let count = pool.rolled.as_ref().map_or(pool.count as f64, |r| {
                dice_per_roll(r, explode_depth) + 10.0
            });
            count * reroll * explode
        }
    }
}

/// The pool: every die rolled (rerolled, exploded), then kept or dropped
/// by value, then counted or summed. Die by die: a pool without a keep
/// or drop adds each die as it is rolled, and one with them holds only
/// the dice its rules may keep or drop (see [`Window`]), as counts per
/// value, so `1000000000d1` or `1000000000d6kh3` need no list of dice.
fn roll_pool(pool: &Pool, explode_depth: u32, sampler: &mut Sampler) -> i64 {
    let die = OneDie::new(pool);
    let count = match &pool.rolled {
        Some(rolled) => roll(rolled, explode_depth, sampler) as u64,
        None => pool.count,
    };
    let score = pool.scorer();
    let depth = pool.depth(explode_depth);
    let mut kept = Kept::new(&pool.keep);
    let again = pool.reroll_add.map(|r| r.rule);
    let mut met = false;
    for _ in 0..count {
        die.roll(depth, sampler, |v| {
            met |= again.is_some_and(|c| c.holds(v));
            kept.push(v, &score);
        });
    }
    // Avrae's `ra`: one more die when any met its condition.
    if met {
        die.roll(depth, sampler, |v| kept.push(v, &score));
    }
    kept.score(&score)
}

/// A pool's dice as they are rolled, holding only those its keeps and
/// drops need: the sum of all, the lowest dropped, and the extreme ones
/// (the highest dropped, or the window that holds the kept).
struct Kept {
    window: Window,
    total: i128,
    lowest: Extremes,
    held: Extremes,
}

impl Kept {
    fn new(rules: &[crate::lang::dice::Modifier<KeepRule>]) -> Kept {
        let window = Window::of(rules);
        let (lowest, held) = match window {
            Window::Drop { low, high } => (Extremes::new(low, false), Extremes::new(high, true)),
            Window::Within { highest, size, .. } => {
                (Extremes::new(0, false), Extremes::new(size, highest))
            }
        };
        Kept {
            window,
            total: 0,
            lowest,
            held,
        }
    }

    fn push(&mut self, value: i64, score: &impl Fn(i64) -> i64) {
        if let Window::Drop { .. } = self.window {
            self.total += i128::from(score(value));
        }
        self.lowest.push(value);
        self.held.push(value);
    }

    /// The kept dice counted or summed.
    fn score(&self, score: &impl Fn(i64) -> i64) -> i64 {
        let sum = match self.window {
            // Every die, less the lowest and the highest dropped.
            Window::Drop { .. } => {
                self.total
                    - self.lowest.score(0, u64::MAX, score)
                    - self.held.score(0, u64::MAX, score)
            }
            // The dice kept among the extreme ones held, counted from the
            // lowest of them; fewer held than the window (a pool short of
            // dice) moves a window of the highest down.
            Window::Within {
                highest,
                size,
                start,
                end,
            } => {
                let short = if highest { size - self.held.len } else { 0 };
                self.held.score(
                    start.saturating_sub(short),
                    end.saturating_sub(short),
                    score,
                )
            }
        };
        sum as i64
    }
}

/// Which dice of a pool sorted lowest first its keeps and drops leave,
/// whatever the number rolled (explosions add dice).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Window {
    /// Drops alone: every die but the `low` lowest and the `high` highest.
    Drop { low: u64, high: u64 },
    /// From the first keep on: among the `size` highest dice (or lowest),
    /// those at `start..end`, counted from the lowest of them.
    Within {
        highest: bool,
        size: u64,
        start: u64,
        end: u64,
    },
}

impl Window {
    /// The rules in the order written, each on the dice the last one left.
    fn of(rules: &[crate::lang::dice::Modifier<KeepRule>]) -> Window {
        let mut window = Window::Drop { low: 0, high: 0 };
        for rule in rules {
            window = match (window, rule.rule) {
                (Window::Drop { low, high }, KeepRule::DropLowest(m)) => Window::Drop {
                    low: low.saturating_add(m),
                    high,
                },
                (Window::Drop { low, high }, KeepRule::DropHighest(m)) => Window::Drop {
                    low,
                    high: high.saturating_add(m),
                },
                // The first keep: the highest m of those left are the m
                // below the `high` dropped; the lowest m, above `low`.
                (Window::Drop { high, .. }, KeepRule::KeepHighest(m)) => Window::Within {
                    highest: true,
                    size: high.saturating_add(m),
                    start: 0,
                    end: m,
                },
                (Window::Drop { low, .. }, KeepRule::KeepLowest(m)) => Window::Within {
                    highest: false,
                    size: low.saturating_add(m),
                    start: low,
                    end: low.saturating_add(m),
                },
                (
                    Window::Within {
                        highest,
                        size,
                        start,
                        end,
                    },
                    rule,
                ) => {
                    // Checked: no rule asks for more dice than are left.
                    let m = rule.amount().min(end - start);
                    let (start, end) = match rule {
                        KeepRule::KeepHighest(_) => (end - m, end),
                        KeepRule::KeepLowest(_) => (start, start + m),
                        KeepRule::DropHighest(_) => (start, end - m),
                        KeepRule::DropLowest(_) => (start + m, end),
                    };
                    Window::Within {
                        highest,
                        size,
                        start,
                        end,
                    }
                }
            };
        }
        window
    }
}

/// The `limit` highest (or lowest) values seen, as counts per value: at
/// most `limit` entries, and no more than the die has values.
struct Extremes {
    counts: BTreeMap<i64, u64>,
    len: u64,
    limit: u64,
    highest: bool,
}

impl Extremes {
    fn new(limit: u64, highest: bool) -> Extremes {
        Extremes {
            counts: BTreeMap::new(),
            len: 0,
            limit,
            highest,
        }
    }

    /// One more die: held if it is among the extremes so far.
    fn push(&mut self, value: i64) {
        if self.limit == 0 {
            return;
        }
        if self.len == self.limit {
            // Full: the value displaces the least extreme one, if beyond it.
            let mut least = if self.highest {
                self.counts.first_entry()
            } else {
                self.counts.last_entry()
            }
            .expect("full, so not empty");
            let beyond = if self.highest {
                value > *least.key()
            } else {
                value < *least.key()
            };
            if !beyond {
                return;
            }
            *least.get_mut() -= 1;
            if *least.get() == 0 {
                least.remove();
            }
            self.len -= 1;
        }
        *self.counts.entry(value).or_default() += 1;
        self.len += 1;
    }

    /// The score of the dice held at `start..end`, sorted lowest first.
    fn score(&self, start: u64, end: u64, score: &impl Fn(i64) -> i64) -> i128 {
        let mut sum = 0i128;
        let mut at = 0u64;
        for (&value, &count) in &self.counts {
            let overlap = end.min(at + count).saturating_sub(start.max(at));
            sum += i128::from(score(value)) * i128::from(overlap);
            at += count;
        }
        sum
    }
}

/// One die of a pool with its reroll and explosion rules.
struct OneDie<'a> {
    faces: Faces<'a>,
    reroll: Option<crate::lang::dice::Reroll>,
    explode: Option<Condition>,
    explosion: Explosion,
}

/// A die's faces, each equally likely.
enum Faces<'a> {
    /// 1 to K.
    Standard(u64),
    /// -1, 0, 1.
    Fudge,
    /// As written, repeats counted.
    Custom(&'a [i64]),
}

impl<'a> OneDie<'a> {
    fn new(pool: &'a Pool) -> Self {
        let faces = match &pool.die {
            Die::Standard(sides) => Faces::Standard(*sides),
            Die::Fudge => Faces::Fudge,
            Die::Custom(faces) => Faces::Custom(faces),
        };
        let reroll = pool.reroll.map(|r| r.rule);
        // A bare `!` explodes on the highest face the die can still show:
        // after `rr`, the faces it rerolls are gone.
        let explode = pool.explode.map(|e| {
            e.rule.unwrap_or_else(|| {
                let shown = faces
                    .all()
                    .filter(|&f| !reroll.is_some_and(|r| r.until && r.condition.holds(f)));
                Condition::Eq(shown.max().unwrap_or(0))
            })
        });
        OneDie {
            faces,
            reroll,
            explode,
            explosion: pool.explosion,
        }
    }

    /// A face after the reroll rule: `ro` rolls once more and the second
    /// result stands; `rr` rolls until the face no longer meets it.
    fn face(&self, sampler: &mut Sampler) -> i64 {
        let mut face = self.faces.roll(sampler);
        if let Some(reroll) = self.reroll {
            if reroll.until {
                while reroll.condition.holds(face) {
                    face = self.faces.roll(sampler);
                }
            } else if reroll.condition.holds(face) {
                face = self.faces.roll(sampler);
            }
        }
        face
    }

    /// The die, given to `die` when done: its face, and another roll each
    /// time the last one explodes, at most `depth` extra rolls: a new die
    /// each (`!`), or added into this one (`!!`), one less each (`!p`).
    fn roll(&self, depth: u32, sampler: &mut Sampler, mut done: impl FnMut(i64)) {
        let mut last = self.face(sampler);
        let mut value = last;
        if let Some(explode) = self.explode {
            let mut extra = 0;
            while extra < depth && explode.holds(last) {
                last = self.face(sampler);
                match self.explosion {
                    Explosion::Pool => {
                        done(value);
                        value = last;
                    }
                    Explosion::Compound => value += last,
                    Explosion::Penetrate => value += last - 1,
                }
                extra += 1;
            }
        }
        done(value);
    }
}

impl Faces<'_> {
    fn roll(&self, sampler: &mut Sampler) -> i64 {
        match self {
            Faces::Standard(sides) => sampler.die(*sides) as i64,
            Faces::Fudge => sampler.below(3) as i64 - 1,
            Faces::Custom(faces) => faces[sampler.below(faces.len() as u64) as usize],
        }
    }

    fn all(&self) -> Box<dyn Iterator<Item = i64> + '_> {
        match self {
            Faces::Standard(sides) => Box::new(1..=*sides as i64),
            Faces::Fudge => Box::new(-1..=1),
            Faces::Custom(faces) => Box::new(faces.iter().copied()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::to_f64;
    use crate::lang::dice::{check, evaluate, parse};
    use std::collections::BTreeMap;

    #[test]
    fn pairs_won_from_counts_is_the_sorted_lists_zipped() {
        // Pseudo-random lists of dice, against sorting and zipping them.
        let mut seed = 7u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for _ in 0..500 {
            let (la, lb, faces) = (next(12), next(12), 1 + next(8) as i64);
            let mut a: Vec<i64> = (0..la).map(|_| next(faces as u64) as i64 - 2).collect();
            let mut b: Vec<i64> = (0..lb).map(|_| next(faces as u64) as i64 - 2).collect();
            let counts = |v: &[i64]| {
                v.iter().fold(BTreeMap::new(), |mut m, &x| {
                    *m.entry(x).or_default() += 1;
                    m
                })
            };
            let won = pairs_won(&counts(&a), &counts(&b));
            a.sort_unstable_by(|x, y| y.cmp(x));
            b.sort_unstable_by(|x, y| y.cmp(x));
            let zipped = a.iter().zip(&b).filter(|(x, y)| x > y).count() as u64;
            assert_eq!(won, zipped, "{a:?} {b:?}");
        }
    }

    /// The simulated frequency of each value of `text` beside its exact
    /// chance, in standard deviations: the largest.
    fn largest_deviation(text: &str, simulated_depth: u32, exact_depth: u32) -> f64 {
        let expr = parse(text).unwrap();
        check(&expr, exact_depth.max(simulated_depth)).unwrap();
        let exact = evaluate(&expr, exact_depth);
        let trials = 40_000u64;
        let mut sampler = Sampler::new(5, text);
        let mut seen: BTreeMap<i64, u64> = BTreeMap::new();
        for _ in 0..trials {
            *seen
                .entry(roll(&expr, simulated_depth, &mut sampler))
                .or_default() += 1;
        }
        let n = trials as f64;
        let mut largest = 0.0f64;
        for (value, p) in exact.probabilities() {
            let p = to_f64(&p);
            let hits = seen.remove(&value).unwrap_or(0) as f64;
            largest = largest.max((hits - n * p).abs() / (n * p * (1.0 - p)).sqrt().max(1e-9));
        }
        // A value the exact engine says is impossible.
        if !seen.is_empty() {
            return f64::INFINITY;
        }
        largest
    }

    #[test]
    fn every_rule_rolled_die_by_die_agrees_with_the_engine() {
        for text in [
            "4d6ro1kh3",
            "2d6rr<3",
            "d6rr6!",
            "3d6!",
            "5d10!>=9kh3",
            "3d6!6>=5",
            "8d10>=7",
            "4dF",
            "max(d6, d8) + 2",
            "min(d6, 3) * 2",
            "d20 % d6",
            "abs(d6 - d6)",
            "-d4 + 10",
            "3d{0,0,1,1,2}dh1",
            "6d6dl2",
            "d%",
            "2d20kl1",
            "1d20+5 >= 15",
            "d20 > d20",
            "3d6 != 10",
            "4d6dl1dh1",
            "5d10kh3kl1",
            "10d10>=8f1",
            "floor(3d6 / 2)",
            "round(d6 / -4) + ceil(d20 / 3)",
            "(1d4)d6",
            "(d6-1)d6",
            "(1d4+1)d6kh2",
            "5d6!kh2",
            "6d10!10>=8",
            "3d6!!",
            "3d6!p",
            "4d6!kl2",
            "(1d3)d6!",
            "pairs(3d6, 2d6)",
            "{2d20, 1d20+5}kh1",
            "{3d6, 3d6, 3d6}kh2",
            "{4d6kh3, 4d6kh3}>=12",
            "pairs(2d6!!, 3d4ro1)",
        ] {
            let deviation = largest_deviation(text, 3, 3);
            // 40 000 rolls: a correct roller stays well within 5.5 sd on
            // every value of these (a few dozen values each).
            assert!(deviation < 5.5, "{text}: {deviation} sd");
        }
    }

    #[test]
    fn a_roller_off_the_rules_is_caught() {
        // One explosion too many: the tail of d6! moves.
        assert!(largest_deviation("d6!", 3, 2).is_infinite());
        assert!(largest_deviation("2d6!!kh1", 2, 1) > 20.0);
    }

    /// The score of `dice` kept by `rules` as the rules read: sorted, and
    /// each rule on the dice the last one left.
    fn by_sorting(dice: &[i64], rules: &[KeepRule]) -> i64 {
        let mut dice = dice.to_vec();
        dice.sort_unstable();
        for rule in rules {
            let n = dice.len();
            dice = match *rule {
                KeepRule::KeepHighest(m) => dice[n - m as usize..].to_vec(),
                KeepRule::KeepLowest(m) => dice[..m as usize].to_vec(),
                KeepRule::DropHighest(m) => dice[..n - m as usize].to_vec(),
                KeepRule::DropLowest(m) => dice[m as usize..].to_vec(),
            };
        }
        dice.iter().sum()
    }

    fn by_window(dice: &[i64], rules: &[KeepRule]) -> (i64, usize) {
        let rules: Vec<_> = rules
            .iter()
            .map(|&rule| crate::lang::dice::Modifier {
                rule,
                span: crate::lang::dice::Span { start: 0, end: 0 },
            })
            .collect();
        let mut kept = Kept::new(&rules);
        for &v in dice {
            kept.push(v, &|v| v);
        }
        let held = kept.lowest.counts.len() + kept.held.counts.len();
        (kept.score(&|v| v), held)
    }

    #[test]
    fn keeps_and_drops_die_by_die_agree_with_sorting() {
        use KeepRule::*;
        let mut sampler = Sampler::new(9, "keeps");
        let sequences: &[&[KeepRule]] = &[
            &[],
            &[KeepHighest(3)],
            &[KeepLowest(2)],
            &[DropHighest(1)],
            &[DropLowest(2)],
            &[DropLowest(1), DropHighest(1)],
            &[DropHighest(2), KeepHighest(3)],
            &[DropLowest(2), KeepLowest(3), DropHighest(1)],
            &[KeepHighest(5), KeepLowest(3)],
            &[KeepLowest(6), DropLowest(2), KeepHighest(2)],
            &[DropLowest(1), DropLowest(1), KeepHighest(4), DropHighest(1)],
        ];
        for rules in sequences {
            for trial in 0..200 {
                let n = 8 + sampler.below(8) as usize;
                let dice: Vec<i64> = (0..n).map(|_| sampler.below(13) as i64 - 6).collect();
                let (score, _) = by_window(&dice, rules);
                assert_eq!(
                    score,
                    by_sorting(&dice, rules),
                    "{rules:?} on {dice:?} ({trial})"
                );
            }
        }
        // `4d6dl1dh1` on 6, 2, 5, 3: the middle two, 3 + 5.
        assert_eq!(
            by_window(&[6, 2, 5, 3], &[DropLowest(1), DropHighest(1)]).0,
            8
        );
    }

    #[test]
    fn a_huge_pool_is_held_in_memory_bounded_by_its_rules() {
        // A million dice kept or dropped hold a few counts per value, not
        // a million dice (a billion asked 8 GB a trial).
        let mut sampler = Sampler::new(3, "huge");
        let dice: Vec<i64> = (0..1_000_000).map(|_| sampler.die(6) as i64).collect();
        let sum: i64 = dice.iter().sum();
        let (kept, held) = by_window(&dice, &[KeepRule::KeepHighest(3)]);
        assert_eq!((kept, held), (18, 1));
        let (kept, held) = by_window(&dice, &[KeepRule::KeepHighest(500_000)]);
        assert_eq!(kept, by_sorting(&dice, &[KeepRule::KeepHighest(500_000)]));
        assert!(held <= 6, "{held} values held");
        let (kept, held) = by_window(&dice, &[KeepRule::DropLowest(2), KeepRule::DropHighest(2)]);
        assert_eq!((kept, held), (sum - 2 - 12, 2));
        // Rolled: a million d1 add up to a million; kept, to the rule's dice.
        let expr = parse("1000000d1").unwrap();
        assert_eq!(roll(&expr, 3, &mut sampler), 1_000_000);
        let expr = parse("1000000d1kh999990dl5").unwrap();
        assert_eq!(roll(&expr, 3, &mut sampler), 999_985);
    }

    #[test]
    fn dice_per_roll_counts_rerolls_and_explosions() {
        let expr = parse("4d6ro1 + 2d6! + 3").unwrap();
        assert_eq!(dice_per_roll(&expr, 3), 4.0 * 2.0 + 2.0 * 4.0);
    }
}
