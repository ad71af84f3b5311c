//! Rolling an expression as a table would, die by die, with the seeded
//! [`Sampler`]: the simulator `fairdice verify` sets beside [`super::evaluate`].
//!
//! Written from the rules in `docs/reference.md` ("The dice language"),
//! never from the exact engine: each die is rolled and rerolled, explodes
//! roll after roll, the pool is sorted to keep or drop, and its dice are
//! counted or summed, in the order reroll, explode, keep or drop, count.

use super::{BinaryOp, Die, Explosion, Expr, Function, KeepRule, Node, Pool};
use crate::analyses::simulate::Sampler;
use crate::engine::pool::Condition;

/// One roll of a checked expression, with exploding dice allowed
/// `explode_depth` extra rolls.
pub fn roll(expr: &Expr, explode_depth: u32, sampler: &mut Sampler) -> i64 {
    match &expr.node {
        Node::Number(value) => *value,
        Node::Negate(inner) => -roll(inner, explode_depth, sampler),
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
            let mut dice = |pool: &Pool| {
                let die = OneDie::new(pool);
                let mut dice = Vec::new();
                for _ in 0..pool.count {
                    die.roll(explode_depth, sampler, &mut dice);
                }
                dice.sort_unstable_by(|x, y| y.cmp(x));
                dice
            };
            let (a, b) = (dice(a), dice(b));
            a.iter().zip(&b).filter(|(x, y)| x > y).count() as i64
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

/// Dice rolled (roughly) by one roll of `expr`, for the cost estimate: a
/// die that may reroll counts twice, one that may explode `1 + depth`.
pub(crate) fn dice_per_roll(expr: &Expr, explode_depth: u32) -> f64 {
    match &expr.node {
        Node::Number(_) => 0.0,
        Node::Negate(inner) => dice_per_roll(inner, explode_depth),
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
                1.0 + f64::from(explode_depth)
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
/// by value, then counted or summed.
fn roll_pool(pool: &Pool, explode_depth: u32, sampler: &mut Sampler) -> i64 {
    let die = OneDie::new(pool);
    let count = match &pool.rolled {
        Some(rolled) => roll(rolled, explode_depth, sampler) as u64,
        None => pool.count,
    };
    let mut dice: Vec<i64> = Vec::new();
    for _ in 0..count {
        die.roll(explode_depth, sampler, &mut dice);
    }
    // Each keep or drop in turn, on the dice the last one left.
    for keep in &pool.keep {
        dice.sort_unstable();
        let count = dice.len();
        let kept = match keep.rule {
            KeepRule::KeepHighest(m) => count - m as usize..count,
            KeepRule::KeepLowest(m) => 0..m as usize,
            KeepRule::DropHighest(m) => 0..count - m as usize,
            KeepRule::DropLowest(m) => m as usize..count,
        };
        dice = dice[kept].to_vec();
    }
    let (successes, failures) = (pool.successes, pool.failures);
    dice.iter()
        .map(|&v| match successes {
            Some(s) => {
                i64::from(s.rule.holds(v)) - i64::from(failures.is_some_and(|f| f.rule.holds(v)))
            }
            None => v,
        })
        .sum()
}

/// One die of a pool with its reroll and explosion rules.
struct OneDie<'a> {
    faces: Faces<'a>,
    reroll: Option<super::Reroll>,
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

    /// The die onto `dice`: its face, and another roll each time the last
    /// one explodes, at most `depth` extra rolls: a new die each (`!`), or
    /// added into this one (`!!`), one less each (`!p`).
    fn roll(&self, depth: u32, sampler: &mut Sampler, dice: &mut Vec<i64>) {
        let mut last = self.face(sampler);
        dice.push(last);
        let Some(explode) = self.explode else {
            return;
        };
        let mut extra = 0;
        while extra < depth && explode.holds(last) {
            last = self.face(sampler);
            match self.explosion {
                Explosion::Pool => dice.push(last),
                Explosion::Compound => *dice.last_mut().expect("pushed") += last,
                Explosion::Penetrate => *dice.last_mut().expect("pushed") += last - 1,
            }
            extra += 1;
        }
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
    use super::super::{check, evaluate, parse};
    use super::*;
    use crate::engine::to_f64;
    use std::collections::BTreeMap;

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

    #[test]
    fn dice_per_roll_counts_rerolls_and_explosions() {
        let expr = parse("4d6ro1 + 2d6! + 3").unwrap();
        assert_eq!(dice_per_roll(&expr, 3), 4.0 * 2.0 + 2.0 * 4.0);
    }
}
