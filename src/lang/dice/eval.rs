//! Evaluating a checked expression exactly: each part becomes
//! [`Outcomes`], each operator one engine call. Every dice term is its own
//! independent roll, so `1d6 - 1d6` is two dice.

use super::{BinaryOp, Comparison, Critical, Explosion, Expr, Function, KeepRule, Node, Pool};
use crate::engine::pool::{self, Condition};
use crate::engine::{Exact, Outcomes};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// The exact outcomes of an expression that [`super::check`] accepted.
pub fn evaluate(expr: &Expr, explode_depth: u32) -> Outcomes {
    match &expr.node {
        Node::Number(value) => Outcomes::constant(*value),
        Node::Negate(inner) => evaluate(inner, explode_depth).negate(),
        Node::Labelled(_, inner) => evaluate(inner, explode_depth),
        Node::Binary(op, left, right) => {
            let a = evaluate(left, explode_depth);
            let b = evaluate(right, explode_depth);
            match op {
                BinaryOp::Add => a.add(&b),
                BinaryOp::Subtract => a.add(&b.negate()),
                BinaryOp::Multiply => a.combine(&b, |x, y| x * y),
                BinaryOp::Modulo => a.combine(&b, i64::rem_euclid),
                BinaryOp::Divide(rounding) => a.combine(&b, |x, y| rounding.divide(x, y)),
            }
        }
        Node::Group(members, pool) => {
            let members: Vec<Outcomes> =
                members.iter().map(|m| evaluate(m, explode_depth)).collect();
            let (start, end) = pool.kept(pool.count).expect("checked: enough members");
            let score = pool.scorer();
            let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
            // Every combination of the members' values, sorted and kept.
            let mut combination = |values: &[i64], ways: &BigUint| {
                let mut sorted = values.to_vec();
                sorted.sort_unstable();
                let sum = sorted[start as usize..end as usize]
                    .iter()
                    .map(|&v| score(v))
                    .sum();
                *counts.entry(sum).or_default() += ways;
            };
            each_combination(
                &members,
                &mut Vec::new(),
                &BigUint::from(1u8),
                &mut combination,
            );
            Outcomes::from_map(counts).expect("some combination")
        }
        Node::Pairs(a, b) => {
            let (Node::Pool(a), Node::Pool(b)) = (&a.node, &b.node) else {
                unreachable!("the parser pairs pools only")
            };
            let a_die = die_of(a, Some(explode_depth));
            let b_die = die_of(b, Some(explode_depth));
            pool::pairs(&a_die, a.count, &b_die, b.count)
        }
        Node::Compare(comparison, left, right) => {
            let a = evaluate(left, explode_depth);
            let b = evaluate(right, explode_depth);
            let [higher, tie, lower] = a.compare(&b);
            let yes = match comparison {
                Comparison::Eq => tie,
                Comparison::Ne => higher + lower,
                Comparison::Lt => lower,
                Comparison::Le => lower + tie,
                Comparison::Gt => higher,
                Comparison::Ge => higher + tie,
            };
            let no = a.total() * b.total() - &yes;
            Outcomes::from_map([(0, no), (1, yes)].into()).expect("some outcome")
        }
        Node::Call(function, arguments) => {
            let mut values = arguments.iter().map(|a| evaluate(a, explode_depth));
            let first = values.next().expect("calls have an argument");
            match function {
                Function::Abs => first.map(i64::abs),
                Function::Max => values.fold(first, |acc, v| acc.combine(&v, i64::max)),
                Function::Min => values.fold(first, |acc, v| acc.combine(&v, i64::min)),
            }
        }
        Node::Pool(pool) => roll_pool(pool, explode_depth),
    }
}

/// Every combination of one value per member, with its ways (priced by
/// the check: the product of the members' widths).
fn each_combination(
    members: &[Outcomes],
    values: &mut Vec<i64>,
    ways: &BigUint,
    visit: &mut dyn FnMut(&[i64], &BigUint),
) {
    let Some((first, rest)) = members.split_first() else {
        // Counted for the price's test (nothing outside tests).
        crate::engine::work::tally!(values.len() as f64 + crate::engine::work::words(ways) * 4.0);
        return visit(values, ways);
    };
    for (value, w) in first.iter() {
        values.push(value);
        each_combination(rest, values, &(ways * w), visit);
        values.pop();
    }
}

/// One die of a pool after its reroll and, with `explode_depth`, a
/// compounding explosion (the dice `pairs` sorts).
fn die_of(pool: &Pool, explode_depth: Option<u32>) -> Outcomes {
    let mut die = pool.die.outcomes().expect("checked dice have faces");
    if let Some(reroll) = pool.reroll {
        let rule = reroll.rule;
        die = if rule.until {
            pool::reroll_until(&die, rule.condition).expect("checked: some face stays")
        } else {
            pool::reroll_once(&die, rule.condition)
        };
    }
    match (pool.explode, explode_depth) {
        (Some(explode), Some(depth)) => {
            let condition = explode.rule.unwrap_or(Condition::Eq(die.max()));
            let penalty = i64::from(pool.explosion == Explosion::Penetrate);
            pool::explode(&die, condition, depth, penalty)
        }
        _ => die,
    }
}

/// Reroll, explode, keep or drop, count: in that order, whatever order
/// they were written in.
fn roll_pool(pool: &Pool, explode_depth: u32) -> Outcomes {
    let explode_depth = pool.depth(explode_depth);
    // `!` explodes into the pool, so its dice stay single rolls here.
    let into_pool = pool.explosion == Explosion::Pool && pool.explode.is_some();
    let die = die_of(pool, (!into_pool).then_some(explode_depth));
    let into_pool = pool.explode.filter(|_| into_pool).map(|explode| {
        let condition = explode.rule.unwrap_or(Condition::Eq(die.max()));
        (condition, explode_depth)
    });
    let of = |count: u64| match into_pool {
        Some((condition, depth)) => {
            let keep = pool.keep.first().map(|k| match k.rule {
                KeepRule::KeepLowest(m) => pool::Keep::Lowest(m),
                rule => pool::Keep::Highest(rule.amount()),
            });
            pool::explode_into_pool(&die, condition, depth, count, keep, pool.scorer())
        }
        None => match pool.reroll_add {
            Some(again) => reroll_and_add(pool, &die, count, again.rule),
            None => pool_of(pool, &die, count),
        },
    };
    let Some(rolled) = &pool.rolled else {
        return of(pool.count);
    };
    // Each number of dice c with its ways, over T^most outcomes: the
    // c-dice pool scaled by T^(most - c), so every count weighs alike.
    let counts = evaluate(rolled, explode_depth);
    let total = match into_pool {
        Some((_, depth)) => die.total().pow(depth + 1),
        None => die.total(),
    };
    let most = counts.max() as u64;
    let mut sum: BTreeMap<i64, BigUint> = BTreeMap::new();
    for (count, ways) in counts.iter() {
        let count = count as u64;
        let scale = ways * total.pow((most - count) as u32);
        for (value, w) in of(count).iter() {
            *sum.entry(value).or_default() += w * &scale;
        }
    }
    Outcomes::from_map(sum).expect("some count has a way")
}

/// `count` dice of `die` kept, counted or summed.
fn pool_of(pool: &Pool, die: &Outcomes, count: u64) -> Outcomes {
    let (start, end) = pool.kept(count).expect("checked: enough dice");
    let value = pool.scorer();
    if start > 0 && end < count {
        pool::keep_range(die, count, (start, end), value)
    } else if end - start < count {
        let keep = if start == 0 {
            pool::Keep::Lowest(end)
        } else {
            pool::Keep::Highest(end - start)
        };
        pool::keep(die, count, keep, value)
    } else if pool.rescored() {
        die.map(value).repeat_sum(count)
    } else {
        die.repeat_sum(count)
    }
}

/// Avrae's `ra`: `count` dice, and one more when any shows a face meeting
/// `again`. The rolls where none meets it (the dice restricted to the
/// other faces) stand as they are, times the new die's faces so every
/// roll weighs alike; the others (all rolls less those) gain the new die.
fn reroll_and_add(pool: &Pool, die: &Outcomes, count: u64, again: Condition) -> Outcomes {
    let value = pool.scorer();
    let scored = die.map(&value);
    let all = scored.repeat_sum(count);
    let others: BTreeMap<i64, BigUint> = die
        .iter()
        .filter(|(face, _)| !again.holds(*face))
        .map(|(face, ways)| (face, ways.clone()))
        .collect();
    let none = Outcomes::from_map(others).map(|o| o.map(&value).repeat_sum(count));
    let mut met: BTreeMap<i64, BigUint> = all.iter().map(|(v, w)| (v, w.clone())).collect();
    if let Some(none) = &none {
        for (v, w) in none.iter() {
            let left = met
                .get_mut(&v)
                .expect("every roll without a match is a roll");
            *left -= w;
        }
    }
    met.retain(|_, w| !w.is_zero());
    let mut sum: BTreeMap<i64, BigUint> = BTreeMap::new();
    if let Some(met) = Outcomes::from_map(met) {
        for (v, w) in met.add(&scored).iter() {
            *sum.entry(v).or_default() += w;
        }
    }
    if let Some(none) = none {
        for (v, w) in none.scaled(&die.total()).iter() {
            *sum.entry(v).or_default() += w;
        }
    }
    Outcomes::from_map(sum).expect("a pool has some roll")
}

/// Each Roll20 critical mark of `expr` (`cs>19`, `cf1` under `notation:
/// roll20`) and the exact chance that some die its pool keeps bears it:
/// the pool counted on the mark's faces, at least 1.
pub(crate) fn criticals(expr: &Expr, explode_depth: u32) -> Vec<(Critical, Exact)> {
    let mut found = Vec::new();
    let mut parts = vec![expr];
    while let Some(part) = parts.pop() {
        match &part.node {
            Node::Pool(pool) => {
                for mark in &pool.criticals {
                    let mut counted = pool.clone();
                    counted.criticals.clear();
                    counted.successes = Some(mark.map(|c| c.condition));
                    counted.failures = None;
                    let outcomes = roll_pool(&counted, explode_depth);
                    let some: BigUint = outcomes
                        .iter()
                        .filter(|(v, _)| *v >= 1)
                        .map(|(_, w)| w)
                        .sum();
                    found.push((mark.rule, crate::engine::ratio(&some, &outcomes.total())));
                }
                parts.extend(pool.rolled.as_deref());
            }
            Node::Number(_) => {}
            Node::Negate(inner) | Node::Labelled(_, inner) => parts.push(inner),
            Node::Binary(_, a, b) | Node::Compare(_, a, b) | Node::Pairs(a, b) => {
                parts.extend([&**b, &**a]);
            }
            Node::Call(_, arguments) | Node::Group(arguments, _) => {
                parts.extend(arguments.iter().rev());
            }
        }
    }
    found
}

/// The exact chance that no exploding die in one roll of `expr` had its
/// chain cut short: that every chain ended on a roll that did not explode,
/// not on its last allowed one (the `explode_depth`-th extra roll), which
/// would have exploded again. A die whose roll meets the explode condition
/// with chance p is cut short with chance p^(depth + 1); its dice are
/// independent, so the chances multiply. `None` when the number of dice is
/// itself rolled with exploding dice (the two are not independent).
pub(crate) fn uncut(expr: &Expr, explode_depth: u32) -> Option<Exact> {
    let all = |parts: Vec<&Expr>| {
        parts.into_iter().try_fold(Exact::one(), |product, part| {
            Some(product * uncut(part, explode_depth)?)
        })
    };
    match &expr.node {
        Node::Number(_) => Some(Exact::one()),
        Node::Negate(inner) | Node::Labelled(_, inner) => uncut(inner, explode_depth),
        Node::Binary(_, left, right) | Node::Compare(_, left, right) => all(vec![left, right]),
        Node::Group(members, _) => all(members.iter().collect()),
        Node::Call(_, arguments) => all(arguments.iter().collect()),
        Node::Pairs(a, b) => all(vec![a, b]),
        Node::Pool(pool) => {
            let die_uncut = die_uncut(pool, explode_depth);
            match (&pool.rolled, die_uncut) {
                (None, None) => Some(Exact::one()),
                (None, Some(one)) => Some(num_traits::pow(one, pool.count as usize)),
                (Some(rolled), None) => uncut(rolled, explode_depth),
                (Some(rolled), Some(one)) => {
                    if uncut(rolled, explode_depth)? != Exact::one() {
                        return None;
                    }
                    let counts = evaluate(rolled, explode_depth);
                    let total = counts.total();
                    Some(counts.iter().fold(Exact::zero(), |sum, (count, ways)| {
                        let count = usize::try_from(count).unwrap_or(0);
                        sum + crate::engine::ratio(ways, &total)
                            * num_traits::pow(one.clone(), count)
                    }))
                }
            }
        }
    }
}

/// One die's chance of not being cut short, if the pool explodes.
fn die_uncut(pool: &Pool, explode_depth: u32) -> Option<Exact> {
    let explode = pool.explode.filter(|_| !pool.explode_once)?;
    // The die as it explodes: after its reroll.
    let die = die_of(pool, None);
    let condition = explode.rule.unwrap_or(Condition::Eq(die.max()));
    let exploding: BigUint = die
        .iter()
        .filter(|(face, _)| condition.holds(*face))
        .map(|(_, ways)| ways)
        .sum();
    let p = crate::engine::ratio(&exploding, &die.total());
    Some(Exact::one() - num_traits::pow(p, explode_depth as usize + 1))
}

#[cfg(test)]
mod tests {
    use super::super::{check, parse};
    use super::*;

    fn outcomes(text: &str) -> Outcomes {
        let expr = parse(text).unwrap();
        check(&expr, 3).unwrap();
        evaluate(&expr, 3)
    }

    fn pairs(text: &str) -> Vec<(i64, u64)> {
        outcomes(text)
            .iter()
            .map(|(v, w)| (v, u64::try_from(w).unwrap()))
            .collect()
    }

    #[test]
    fn keeping_from_many_certain_dice_is_quick() {
        // A die of one way (d1, or d{1,2} rerolled until not 2) fits any
        // number of dice in machine words; the program for few dice built
        // binomials to 2000 (a gigabyte, 30 s, found by the fuzzer).
        let start = std::time::Instant::now();
        assert_eq!(pairs("2000d1d61"), [(1939, 1)]);
        assert_eq!(pairs("3000d{1,2}rr2kh5"), [(5, 1)]);
        assert_eq!(pairs("2500d{7}kl3"), [(21, 1)]);
        assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    }

    /// Every way to roll `dice` independent dice with these faces, scored.
    fn brute(faces: &[&[i64]], score: impl Fn(&[i64]) -> i64) -> Vec<(i64, u64)> {
        let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
        let total: usize = faces.iter().map(|f| f.len()).product();
        for mut index in 0..total {
            let mut roll = Vec::new();
            for die in faces {
                roll.push(die[index % die.len()]);
                index /= die.len();
            }
            *counts.entry(score(&roll)).or_default() += 1;
        }
        counts.into_iter().collect()
    }

    const D6: &[i64] = &[1, 2, 3, 4, 5, 6];

    #[test]
    fn arithmetic_rolls_each_term_separately() {
        assert_eq!(pairs("1d6-1d6"), brute(&[D6, D6], |r| r[0] - r[1]));
        assert_eq!(pairs("d6*d6"), brute(&[D6, D6], |r| r[0] * r[1]));
        assert_eq!(pairs("2*d6+1"), brute(&[D6], |r| 2 * r[0] + 1));
        assert_eq!(pairs("-d6"), brute(&[D6], |r| -r[0]));
        assert_eq!(
            pairs("(d6-4) % 3"),
            brute(&[D6], |r| (r[0] - 4).rem_euclid(3))
        );
        assert_eq!(
            pairs("d20 % d6"),
            brute(&[&(1..=20).collect::<Vec<_>>(), D6], |r| r[0] % r[1])
        );
        assert_eq!(
            pairs("max(d6, d6, d6)"),
            brute(&[D6, D6, D6], |r| *r.iter().max().unwrap())
        );
        assert_eq!(pairs("min(d6, 3)"), brute(&[D6], |r| r[0].min(3)));
        assert_eq!(
            pairs("abs(d6-d6)"),
            brute(&[D6, D6], |r| (r[0] - r[1]).abs())
        );
        assert_eq!(
            pairs("4dF"),
            brute(&[&[-1i64, 0, 1][..]; 4], |r| r.iter().sum())
        );
        assert_eq!(pairs("7"), vec![(7, 1)]);
    }

    /// Issue 28, item 1: a comparison of totals is 1 or 0, over every
    /// outcome of both sides.
    #[test]
    fn comparisons_of_totals_match_enumeration() {
        let d20: Vec<i64> = (1..=20).collect();
        assert_eq!(
            pairs("1d20+5 >= 15"),
            brute(&[&d20], |r| i64::from(r[0] + 5 >= 15))
        );
        assert_eq!(pairs("1d20+5 >= 15"), vec![(0, 9), (1, 11)]);
        assert_eq!(
            pairs("(2d6)>=7"),
            brute(&[D6, D6], |r| i64::from(r[0] + r[1] >= 7))
        );
        assert_eq!(
            pairs("d20 > d20"),
            brute(&[&d20, &d20], |r| i64::from(r[0] > r[1]))
        );
        assert_eq!(
            pairs("3d6 != 10"),
            brute(&[D6; 3], |r| i64::from(r.iter().sum::<i64>() != 10))
        );
        assert_eq!(
            pairs("2d20kh1 = 20"),
            brute(&[&d20, &d20], |r| i64::from(r[0].max(r[1]) == 20))
        );
        assert_eq!(
            pairs("d6 < d6"),
            brute(&[D6, D6], |r| i64::from(r[0] < r[1]))
        );
        assert_eq!(
            pairs("d6 <= 2*d6"),
            brute(&[D6, D6], |r| i64::from(r[0] <= 2 * r[1]))
        );
        assert_eq!(pairs("d6 >= 7"), vec![(0, 6)]);
        assert_eq!(
            pairs("(d6 > 3) + (d6 > 3)"),
            brute(&[D6, D6], |r| { i64::from(r[0] > 3) + i64::from(r[1] > 3) })
        );
    }

    /// Issue 28, items 5, 8 and 9: rounded division, several keeps in the
    /// order written, successes minus failures.
    #[test]
    fn division_keeps_and_failures_match_enumeration() {
        let d10: Vec<i64> = (1..=10).collect();
        let sorted = |r: &[i64]| {
            let mut r = r.to_vec();
            r.sort();
            r
        };
        assert_eq!(
            pairs("4d6dl1dh1"),
            brute(&[D6; 4], |r| sorted(r)[1..3].iter().sum())
        );
        assert_eq!(pairs("5d6kh3kl1"), brute(&[D6; 5], |r| sorted(r)[2]));
        assert_eq!(
            pairs("5d6dh1kh2"),
            brute(&[D6; 5], |r| sorted(r)[2..4].iter().sum())
        );
        assert_eq!(
            pairs("5d6kl4dl1>=4"),
            brute(
                &[D6; 5],
                |r| sorted(r)[1..4].iter().filter(|&&v| v >= 4).count() as i64
            )
        );
        assert_eq!(
            pairs("4d10>=8f1"),
            brute(&[&d10[..]; 4], |r| r
                .iter()
                .map(|&v| i64::from(v >= 8) - i64::from(v == 1))
                .sum())
        );
        assert_eq!(
            pairs("4d10>=6f<=2"),
            brute(&[&d10[..]; 4], |r| r
                .iter()
                .map(|&v| i64::from(v >= 6) - i64::from(v <= 2))
                .sum())
        );
        let f: &[i64] = &[-7, -5, -2, 0, 3, 5];
        let faces = "d{-7,-5,-2,0,3,5}";
        for (divisor, g) in [("d{-4,-2}", &[-4i64, -2][..]), ("d{3,4}", &[3, 4][..])] {
            let quotient = |r: &[i64]| r[0] as f64 / r[1] as f64;
            let text = |f: &str| format!("{f}({faces} / {divisor})");
            assert_eq!(
                pairs(&text("floor")),
                brute(&[f, g], |r| quotient(r).floor() as i64)
            );
            assert_eq!(
                pairs(&text("ceil")),
                brute(&[f, g], |r| quotient(r).ceil() as i64)
            );
            // f64::round rounds halves away from zero, as round(…) does.
            assert_eq!(
                pairs(&text("round")),
                brute(&[f, g], |r| quotient(r).round() as i64)
            );
        }
        assert_eq!(
            pairs("round(3d6 / 2)"),
            brute(&[D6; 3], |r| {
                (r.iter().sum::<i64>() as f64 / 2.0).round() as i64
            })
        );
    }

    /// Issue 28, item 7: groups of rolls kept and counted as members.
    #[test]
    fn groups_match_enumeration() {
        let d20: Vec<i64> = (1..=20).collect();
        assert_eq!(
            pairs("{2d20, 1d20+5}kh1"),
            brute(&[&d20, &d20, &d20], |r| (r[0] + r[1]).max(r[2] + 5))
        );
        let sorted3 = |a: i64, b: i64, c: i64| {
            let mut v = [a, b, c];
            v.sort();
            v
        };
        assert_eq!(
            pairs("{2d4, 2d4, 2d4}kh2"),
            brute(&[&[1i64, 2, 3, 4][..]; 6], |r| {
                let v = sorted3(r[0] + r[1], r[2] + r[3], r[4] + r[5]);
                v[1] + v[2]
            })
        );
        assert_eq!(
            pairs("{2d4, 2d4, 2d4}>=6"),
            brute(&[&[1i64, 2, 3, 4][..]; 6], |r| {
                [r[0] + r[1], r[2] + r[3], r[4] + r[5]]
                    .iter()
                    .filter(|&&v| v >= 6)
                    .count() as i64
            })
        );
        assert_eq!(pairs("{d6, d6}"), pairs("2d6"));
        assert_eq!(
            pairs("{d6, d6, d6}dl1dh1"),
            brute(&[D6; 3], |r| sorted3(r[0], r[1], r[2])[1])
        );
    }

    /// Issue 28, item 10: Risk's battles, sorted and paired off.
    #[test]
    fn pairs_match_enumeration() {
        let sorted = |r: &[i64]| {
            let mut r = r.to_vec();
            r.sort_by(|a, b| b.cmp(a));
            r
        };
        let beaten = |a: &[i64], b: &[i64]| {
            sorted(a)
                .iter()
                .zip(sorted(b))
                .filter(|(x, y)| **x > *y)
                .count() as i64
        };
        assert_eq!(
            pairs("pairs(3d6, 2d6)"),
            brute(&[D6; 5], |r| beaten(&r[..3], &r[3..]))
        );
        assert_eq!(
            pairs("pairs(3d6, 2d6)"),
            vec![(0, 2275), (1, 2611), (2, 2890)]
        );
        assert_eq!(
            pairs("pairs(1d6, 2d6)"),
            brute(&[D6; 3], |r| beaten(&r[..1], &r[1..]))
        );
        assert_eq!(pairs("pairs(2d4, 3d{1,1,3})"), {
            let b: &[i64] = &[1, 1, 3];
            let d4: &[i64] = &[1, 2, 3, 4];
            brute(&[d4, d4, b, b, b], |r| beaten(&r[..2], &r[2..]))
        });
    }

    /// Issue 28, item 6: a rolled number of dice, zero dice summing to 0.
    #[test]
    fn rolled_numbers_of_dice_match_enumeration() {
        let d4: &[i64] = &[1, 2, 3, 4];
        // Roll the count, then always roll the most dice it allows and use
        // the first ones: every outcome equally likely.
        let first = |r: &[i64], count: i64| r[1..=count as usize].iter().sum::<i64>();
        assert_eq!(
            pairs("(1d4)d6"),
            brute(&[d4, D6, D6, D6, D6], |r| first(r, r[0]))
        );
        assert_eq!(
            pairs("(d6-1)d6"),
            brute(&[D6, D6, D6, D6, D6, D6], |r| first(r, r[0] - 1))
        );
        assert_eq!(
            pairs("(1d4+1)d6kh2"),
            brute(&[d4, D6, D6, D6, D6, D6], |r| {
                let mut dice = r[1..=(r[0] + 1) as usize].to_vec();
                dice.sort();
                dice[dice.len() - 2..].iter().sum()
            })
        );
        assert_eq!(pairs("(1d2)d{0,1}>=1"), pairs("(1d2)d{0,1}"));
        assert_eq!(pairs("(2)d6"), pairs("2d6"));
    }

    #[test]
    fn pools_follow_the_modifier_order() {
        // Keep then count: successes among the kept dice.
        assert_eq!(
            pairs("4d6kh2>=5"),
            brute(&[D6; 4], |r| {
                let mut r = r.to_vec();
                r.sort();
                r[2..].iter().filter(|&&v| v >= 5).count() as i64
            })
        );
        // Written in another order, computed in the same.
        assert_eq!(pairs("4d6>=5kh2"), pairs("4d6kh2>=5"));
        assert_eq!(pairs("4d6kh3ro1"), pairs("4d6ro1kh3"));
        // Reroll ones once, then keep the highest 3 of 4: enumerate 8 dice
        // (each die's first and second roll).
        let expected = brute(&[D6; 8], |r| {
            let mut dice: Vec<i64> = (0..4)
                .map(|i| {
                    if r[2 * i] == 1 {
                        r[2 * i + 1]
                    } else {
                        r[2 * i]
                    }
                })
                .collect();
            dice.sort();
            dice[1..].iter().sum()
        });
        assert_eq!(pairs("4d6ro1kh3"), expected);
        // Custom faces, dropping.
        let faces: &[i64] = &[0, 0, 1, 1, 2];
        assert_eq!(
            pairs("3d{0,0,1,1,2}dh1"),
            brute(&[faces; 3], |r| {
                let mut r = r.to_vec();
                r.sort();
                r[..2].iter().sum()
            })
        );
        assert_eq!(pairs("2d20kl1"), pairs("min(d20, d20)"));
        assert_eq!(pairs("2d20kh1"), pairs("max(d20, d20)"));
        assert_eq!(pairs("10d6>4"), pairs("10d{0,0,0,0,1,1}"));
    }

    #[test]
    fn the_published_ability_score_table() {
        let scores = outcomes("4d6dl1");
        assert_eq!(scores.total(), BigUint::from(1296u32));
        let ways: Vec<u64> = (3..=18)
            .map(|v| u64::try_from(scores.ways(v)).unwrap())
            .collect();
        assert_eq!(
            ways,
            [1, 4, 10, 21, 38, 62, 91, 122, 148, 167, 172, 160, 131, 94, 54, 21]
        );
    }

    #[test]
    fn exploding_keeps_with_depth() {
        // 2d6! with depth 3 against a brute force of 4 rolls per die.
        let chain = |r: &[i64]| {
            let mut sum = 0;
            for (i, &face) in r.iter().enumerate() {
                sum += face;
                if face != 6 || i == 3 {
                    break;
                }
            }
            sum
        };
        assert_eq!(pairs("d6!"), brute(&[D6; 4], chain));
        assert_eq!(pairs("d6!!"), brute(&[D6; 4], chain));
        // `!` adds dice: the highest of every roll, not of each chain.
        let d4: &[i64] = &[1, 2, 3, 4];
        let rolls = |r: &[i64]| -> Vec<i64> {
            r.chunks(4)
                .flat_map(|c| {
                    let end = c[..3].iter().position(|&f| f != 4).unwrap_or(3);
                    c[..=end].to_vec()
                })
                .collect()
        };
        assert_eq!(
            pairs("2d4!kh1"),
            brute(&[d4; 8], |r| *rolls(r).iter().max().unwrap())
        );
        assert_eq!(
            pairs("2d4!4>=3"),
            brute(&[d4; 8], |r| rolls(r).iter().filter(|&&v| v >= 3).count()
                as i64)
        );
        assert_eq!(
            pairs("d4!p"),
            brute(&[d4; 4], |r| {
                let chain = rolls(r);
                chain.iter().sum::<i64>() - (chain.len() as i64 - 1)
            })
        );
        let two = outcomes("2d6!!kh1");
        assert_eq!(two.total(), BigUint::from(6u32).pow(8));
        assert_eq!(pairs("2d6!!kh1"), {
            let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
            for (a, wa) in brute(&[D6; 4], chain) {
                for (b, wb) in brute(&[D6; 4], chain) {
                    *counts.entry(a.max(b)).or_default() += wa * wb;
                }
            }
            counts.into_iter().collect::<Vec<_>>()
        });
    }
}
