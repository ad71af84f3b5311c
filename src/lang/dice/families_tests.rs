//! The other families' forms against brute force: every roll of the dice
//! enumerated and scored as Avrae (`avrae/d20`'s `SetOperator`), Foundry
//! (its `Die` modifiers) and Roll20 say, never through fairdice's scorer,
//! then compared as exact probabilities with what fairdice computes.

use super::{check, evaluate, parse};
use crate::engine::{ratio, Exact};
use num_bigint::BigUint;
use std::collections::BTreeMap;

/// Each value's exact chance, as fairdice computes it.
fn computed(text: &str, depth: u32) -> BTreeMap<i64, Exact> {
    let expr = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    check(&expr, depth).unwrap_or_else(|e| panic!("{text}: {e}"));
    let outcomes = evaluate(&expr, depth);
    outcomes.probabilities().into_iter().collect()
}

/// Each value's exact chance over weighted rolls (a roll, its weight).
fn chances(rolls: impl IntoIterator<Item = (i64, u64)>) -> BTreeMap<i64, Exact> {
    let mut ways: BTreeMap<i64, BigUint> = BTreeMap::new();
    let mut total = BigUint::from(0u32);
    for (value, weight) in rolls {
        *ways.entry(value).or_default() += weight;
        total += weight;
    }
    ways.into_iter()
        .map(|(v, w)| (v, ratio(&w, &total)))
        .collect()
}

/// Every roll of `n` dice with faces 1 to `sides`, each equally likely.
fn rolls(n: u32, sides: i64) -> impl Iterator<Item = Vec<i64>> {
    (0..sides.pow(n)).map(move |mut index| {
        (0..n)
            .map(|_| {
                let face = index % sides + 1;
                index /= sides;
                face
            })
            .collect()
    })
}

fn plain(n: u32, sides: i64, score: impl Fn(&[i64]) -> i64) -> BTreeMap<i64, Exact> {
    chances(rolls(n, sides).map(|r| (score(&r), 1)))
}

fn sorted(roll: &[i64]) -> Vec<i64> {
    let mut roll = roll.to_vec();
    roll.sort_unstable();
    roll
}

#[test]
fn avrae_keeps_and_drops_by_value_and_by_rank() {
    // p1 drops every 1; k>3 keeps the dice above 3; k5k6 keeps either.
    let drop_ones = plain(4, 6, |r| r.iter().filter(|&&d| d != 1).sum());
    assert_eq!(computed("4d6p1", 3), drop_ones);
    assert_eq!(
        computed("4d6k>3", 3),
        plain(4, 6, |r| r.iter().filter(|&&d| d > 3).sum())
    );
    assert_eq!(
        computed("4d6p<3", 3),
        plain(4, 6, |r| r.iter().filter(|&&d| d >= 3).sum())
    );
    assert_eq!(
        computed("4d6k=5k=6", 3),
        plain(4, 6, |r| r.iter().filter(|&&d| d >= 5).sum())
    );
    assert_eq!(
        computed("4d6p1p6", 3),
        plain(4, 6, |r| r.iter().filter(|&&d| d != 1 && d != 6).sum())
    );
    // ph2 and pl1 drop by rank, as dh2 and dl1.
    assert_eq!(
        computed("4d6ph2", 3),
        plain(4, 6, |r| sorted(r)[..2].iter().sum())
    );
    assert_eq!(
        computed("4d6pl1", 3),
        plain(4, 6, |r| sorted(r)[1..].iter().sum())
    );
    // Avrae's sets are groups: the highest of three rolls.
    assert_eq!(
        computed("(1d4 + 1, 3, 2d6kl1)kh1", 3),
        chances(
            rolls(3, 6).flat_map(|r| { (2..=5).map(move |a| (a.max(3).max(r[0].min(r[1])), 6)) })
        )
    );
    // A keep by rank, then a drop by value among the kept.
    assert_eq!(
        computed("4d6kh3p2", 3),
        plain(4, 6, |r| sorted(r)[1..].iter().filter(|&&d| d != 2).sum())
    );
}

#[test]
fn minimums_and_maximums_hold_each_die() {
    let held =
        |low: i64, high: i64| plain(3, 6, move |r| r.iter().map(|d| d.clamp(&low, &high)).sum());
    assert_eq!(computed("3d6mi2", 3), held(2, 6));
    assert_eq!(computed("3d6ma4", 3), held(1, 4));
    assert_eq!(computed("3d6min2max5", 3), held(2, 5));
    // After a keep of the highest: ranked on the faces, held after.
    assert_eq!(
        computed("3d6mi3kh2", 3),
        plain(3, 6, |r| sorted(r)[1..].iter().map(|&d| d.max(3)).sum())
    );
    // After a reroll: the reroll sees the face, the minimum the result.
    let rerolled = plain(2, 6, |r| if r[0] == 1 { r[1] } else { r[0] }.max(2));
    assert_eq!(computed("1d6ro1mi2", 3), rerolled);
}

#[test]
fn reroll_and_add_adds_one_die_at_most() {
    // 3d6ra6: when any die shows 6, one more d6 (never more than one).
    let mut weighted = Vec::new();
    for r in rolls(3, 6) {
        let sum: i64 = r.iter().sum();
        if r.contains(&6) {
            weighted.extend((1..=6).map(|extra| (sum + extra, 1)));
        } else {
            weighted.push((sum, 6));
        }
    }
    assert_eq!(computed("3d6ra6", 3), chances(weighted));
    // With a minimum: every die held, the added one too.
    let mut weighted = Vec::new();
    for r in rolls(2, 4) {
        let sum: i64 = r.iter().map(|d| (*d).max(2)).sum();
        if r.contains(&1) {
            weighted.extend((1..=4).map(|extra: i64| (sum + extra.max(2), 1)));
        } else {
            weighted.push((sum, 4));
        }
    }
    assert_eq!(computed("2d4ra1mi2", 3), chances(weighted));
}

/// One die's chains of rolls into the pool: each chain's faces and
/// weight, a roll meeting `explodes` rolling again, at most `depth` more.
fn chains(sides: i64, depth: u32, explodes: &dyn Fn(i64) -> bool) -> Vec<(Vec<i64>, u64)> {
    let mut done = Vec::new();
    let mut open = vec![(Vec::new(), 1u64)];
    for level in 0..=depth {
        let mut next = Vec::new();
        for (chain, weight) in open {
            for face in 1..=sides {
                let mut chain: Vec<i64> = chain.clone();
                chain.push(face);
                let left = sides.pow(depth - level) as u64;
                if explodes(face) && level < depth {
                    next.push((chain, weight));
                } else {
                    done.push((chain, weight * left));
                }
            }
        }
        open = next;
    }
    done
}

/// Every pool of `n` dice, each one of `chains`, scored on all its rolls.
fn pools(
    chains: &[(Vec<i64>, u64)],
    n: usize,
    score: impl Fn(&[i64]) -> i64,
) -> BTreeMap<i64, Exact> {
    let mut weighted = Vec::new();
    let count = chains.len().pow(n as u32);
    for mut index in 0..count {
        let (mut all, mut weight) = (Vec::new(), 1u64);
        for _ in 0..n {
            let (chain, w) = &chains[index % chains.len()];
            index /= chains.len();
            all.extend(chain);
            weight *= w;
        }
        weighted.push((score(&all), weight));
    }
    chances(weighted)
}

#[test]
fn explosions_as_avrae_and_foundry_write_them() {
    let sum = |all: &[i64]| all.iter().sum::<i64>();
    // Avrae's e6 and Foundry's x: a new die on each 6, new dice too.
    let on_six = chains(6, 2, &|f| f == 6);
    assert_eq!(computed("2d6e6", 2), pools(&on_six, 2, sum));
    assert_eq!(computed("2d6x", 2), pools(&on_six, 2, sum));
    assert_eq!(computed("2d6x6", 2), pools(&on_six, 2, sum));
    let high = chains(6, 2, &|f| f > 4);
    assert_eq!(computed("2d6e>4", 2), pools(&high, 2, sum));
    assert_eq!(computed("2d6x>=5", 2), pools(&high, 2, sum));
    // Foundry's xo: each die at most once, whatever the depth.
    let once = chains(6, 1, &|f| f == 6);
    assert_eq!(computed("2d6xo", 3), pools(&once, 2, sum));
    assert_eq!(
        computed("2d6xo>=5", 3),
        pools(&chains(6, 1, &|f| f >= 5), 2, sum)
    );
    // Kept after exploding: the highest two of every die rolled.
    assert_eq!(
        computed("2d6x6kh2", 2),
        pools(&on_six, 2, |all| sorted(all).iter().rev().take(2).sum())
    );
}

#[test]
fn foundry_counts_and_failures() {
    let count = |r: &[i64], c: &dyn Fn(i64) -> bool| r.iter().filter(|&&d| c(d)).count() as i64;
    assert_eq!(
        computed("5d6cs>=5", 3),
        plain(5, 6, |r| count(r, &|d| d >= 5))
    );
    assert_eq!(
        computed("5d6cs6", 3),
        plain(5, 6, |r| count(r, &|d| d == 6))
    );
    assert_eq!(
        computed("5d6cf<3", 3),
        plain(5, 6, |r| count(r, &|d| d < 3))
    );
    // df: a failure is -1 whatever else it scored; without a count the
    // other dice add their faces. sf: a failure subtracts its face.
    assert_eq!(
        computed("5d6cs>3df=1", 3),
        plain(5, 6, |r| r
            .iter()
            .map(|&d| if d == 1 { -1 } else { i64::from(d > 3) })
            .sum())
    );
    assert_eq!(
        computed("4d6df1", 3),
        plain(4, 6, |r| r
            .iter()
            .map(|&d| if d == 1 { -1 } else { d })
            .sum())
    );
    assert_eq!(
        computed("4d6sf<3", 3),
        plain(4, 6, |r| r
            .iter()
            .map(|&d| if d < 3 { -d } else { d })
            .sum())
    );
    assert_eq!(
        computed("5d6cs>=4sf1", 3),
        plain(5, 6, |r| r
            .iter()
            .map(|&d| if d == 1 { -1 } else { i64::from(d >= 4) })
            .sum())
    );
}

#[test]
fn roll20_forms_and_shorthands() {
    let two_d6 = plain(2, 6, |r| r.iter().sum());
    for text in [
        "[[2d6]]",
        "/r 2d6",
        "/roll 2d6",
        "/gmroll 2d6",
        "2d6[fire]",
        "[[ 1d6[fire] + 1d6[cold] ]]",
    ] {
        assert_eq!(computed(text, 3), two_d6, "{text}");
    }
    for text in ["2d6s", "2d6sa", "2d6sd"] {
        assert_eq!(computed(text, 3), two_d6, "{text}");
    }
    assert_eq!(
        computed("1d8[fire] + 1d6[cold] + 3", 3),
        chances(rolls(1, 8).flat_map(|a| (1..=6).map(move |b| (a[0] + b + 3, 1))))
    );
    // Fate: dF.1 has one minus, four blanks, one plus; dF.2 is dF.
    let faces = [-1, 0, 0, 0, 0, 1];
    let mut weighted = Vec::new();
    for a in faces {
        for b in faces {
            weighted.push((a + b, 1));
        }
    }
    assert_eq!(computed("2dF.1", 3), chances(weighted));
    assert_eq!(computed("2dF.2", 3), computed("2dF", 3));
}

#[test]
fn legend_of_the_five_rings_rolls_and_keeps() {
    // 3k2: three d10 whose tens add another roll to the die (again on
    // 10, at most `depth` more), the highest two kept.
    let die = chains(10, 1, &|f| f == 10);
    let values: Vec<(Vec<i64>, u64)> = die
        .iter()
        .map(|(chain, w)| (vec![chain.iter().sum()], *w))
        .collect();
    let expected = pools(&values, 3, |all| sorted(all).iter().rev().take(2).sum());
    assert_eq!(computed("3k2", 1), expected);
    assert_eq!(computed("3k2!", 1), expected);
    assert_eq!(computed("3k2", 1), computed("3d10!!kh2", 1));
}

/// What each refused or family-split form says, so no error offers a
/// spelling that means something else.
#[test]
fn forms_not_computed_say_why_without_a_false_suggestion() {
    let error = |text: &str| {
        let expr = parse(text);
        match expr {
            Err(e) => e.message,
            Ok(expr) => check(&expr, 3)
                .map(|_| String::new())
                .unwrap_or_else(|e| e.message),
        }
    };
    assert!(
        error("4d6p1kh3").contains("only after the keeps"),
        "{}",
        error("4d6p1kh3")
    );
    assert!(error("1d6mi2ro1").contains("after rerolls"));
    assert!(error("4d6p1mi2").contains("before any keep or drop"));
    assert!(error("4d6ra1kh3").contains("ra (Avrae) is computed alone"));
    assert!(error("4d6eh1").contains("eh, el"));
    assert!(error("4d6cs>3cf<2").contains("one count"));
    assert!(error("4d6p7").contains("no die is ever dropped"));
    assert!(error("4d6k<7").contains("every face is kept"));
    assert!(error("2d6mi5ma3").contains("below the minimum"));
    for text in ["1d6d", "4d6kj3", "6d10u", "4d6q"] {
        assert!(
            !error(text).contains("did you mean"),
            "{text}: {}",
            error(text)
        );
    }
}

#[test]
fn roll20_critical_marks_leave_the_total_and_report_their_chance() {
    use super::{criticals, parse_in, Notation};
    let text = "2d20kh1cs20cf1";
    let expr = parse_in(text, Notation::Roll20).unwrap();
    check(&expr, 3).unwrap();
    let total: BTreeMap<i64, Exact> = evaluate(&expr, 3).probabilities().into_iter().collect();
    assert_eq!(total, plain(2, 20, |r| r[0].max(r[1])));
    let marks: Vec<(bool, Exact)> = criticals(&expr, 3)
        .into_iter()
        .map(|(mark, chance)| (mark.success, chance))
        .collect();
    // The kept die bears the mark: a 20 among two, or a 1 on both.
    let kept_is = |face: i64| {
        let (hits, all) = rolls(2, 20).fold((0u32, 0u32), |(h, a), r| {
            (h + u32::from(r[0].max(r[1]) == face), a + 1)
        });
        ratio(&BigUint::from(hits), &BigUint::from(all))
    };
    assert_eq!(marks, [(true, kept_is(20)), (false, kept_is(1))]);
    // In the standard notation cs counts: 0 or 1 kept 20.
    assert_eq!(computed("1d20cs20", 3).len(), 2);
}

/// Issue 43, item 5: a suggestion is made only where it means what the
/// text means in some family, checked here against that family's meaning
/// by brute force; elsewhere no expression is offered.
#[test]
fn every_suggestion_means_what_a_family_means() {
    let message = |text: &str| match parse(text) {
        Err(e) => e.describe(text),
        Ok(expr) => check(&expr, 3).map_or_else(|e| e.describe(text), |_| String::new()),
    };
    let sum = |r: &[i64]| r.iter().sum::<i64>();
    let at_least = |v: i64, n: i64| i64::from(v >= n);
    // (written, suggestion offered, the family's meaning by brute force)
    let vetted: Vec<(&str, &str, BTreeMap<i64, Exact>)> = vec![
        // The reader's total compared, as AnyDice and the users mean.
        (
            "4d6kh3>=15",
            "(4d6kh3) >= 15",
            plain(4, 6, |r| at_least(sorted(r)[1..].iter().sum(), 15)),
        ),
        ("2d6>=7", "(2d6) >= 7", plain(2, 6, |r| at_least(sum(r), 7))),
        (
            "4d6!kh3>=20",
            "(4d6!kh3) >= 20",
            computed("(4d6!kh3) >= 20", 3),
        ),
        // AnyDice's d4d6: a d4's worth of d6, each count as likely.
        ("d4d6", "(d4)d6", {
            let mut weighted = Vec::new();
            for count in 1..=4u32 {
                for r in rolls(count, 6) {
                    weighted.push((sum(&r), 6u64.pow(4 - count)));
                }
            }
            chances(weighted)
        }),
        // D&D's advantage and disadvantage.
        ("d20adv", "2d20kh1", plain(2, 20, |r| r[0].max(r[1]))),
        ("d20dis", "2d20kl1", plain(2, 20, |r| r[0].min(r[1]))),
    ];
    for (written, offered, meaning) in &vetted {
        let said = message(written);
        assert!(
            said.contains(&format!("write {offered}")),
            "{written}: {said}"
        );
        assert_eq!(&computed(offered, 3), meaning, "{written} → {offered}");
    }
    // Forms with no family meaning, or two: no expression is offered, and
    // where families split, both are named.
    for text in [
        "4d6kx3",
        "1d6d",
        "6d10u",
        "3d6q2",
        "4d6kk3",
        "1d20ad",
        "flor(d6 / 2)",
        "4d6ro",
        "1d6e",
        "4d6p",
        "2d6!!!",
        "1d6xx",
        "4d6mi",
        "d%%",
        "4dFF",
    ] {
        let said = message(text);
        assert!(!said.is_empty(), "{text} is read");
        assert!(!said.contains("did you mean"), "{text}: {said}");
        assert!(!said.contains("write ("), "{text}: {said}");
    }
    let split = message("4d6r1");
    assert!(
        split.contains("Roll20") && split.contains("Foundry"),
        "{split}"
    );
}
