//! The pools' tests: each pool checked against brute force over every
//! roll. Apart because they are as long as the code they check.

use super::explode::{explode_by_profiles, exploded_keep_program};
use super::*;
use crate::engine::ways::Residue;

fn pairs(outcomes: &Outcomes) -> Vec<(i64, u64)> {
    outcomes
        .iter()
        .map(|(v, w)| (v, u64::try_from(w).expect("small")))
        .collect()
}

/// Every roll of `count` dice of `faces` (each face one outcome),
/// each mapped to a value by `score`.
fn enumerate(faces: &[i64], count: u32, score: impl Fn(&mut Vec<i64>) -> i64) -> Vec<(i64, u64)> {
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
                        let program =
                            keep_program::<Residue>(&die, count, keep_rule, &|v| v).unwrap();
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
                        let exact = explode_into_pool(&die, cond, depth, count, Some(rule), |v| v);
                        let brute = enumerate(faces, rolls as u32 * count as u32, |roll| {
                            kept_sum(&mut all(roll), rule, |v| v)
                        });
                        assert_eq!(pairs(&exact), brute, "{faces:?} {depth} {count} {rule:?}");
                        // Both ways agree: the program and the profiles.
                        let program = exploded_keep_program::<Residue>(
                            &die, cond, depth, count, rule, &success,
                        )
                        .unwrap();
                        let profiles =
                            explode_by_profiles(&die, cond, depth, count, Some(rule), success);
                        let brute = enumerate(faces, rolls as u32 * count as u32, |roll| {
                            kept_sum(&mut all(roll), rule, success)
                        });
                        assert_eq!(pairs(&program), brute, "{faces:?} {depth} {count} {rule:?}");
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

/// A die of `faces` whose every face has `2^shift` ways: few faces, but
/// outcomes past 2^188 after a few dice, so the wide programs can be
/// checked against the slow methods in a moment.
fn heavy(faces: &[i64], shift: u32) -> Outcomes {
    Outcomes::die(faces)
        .unwrap()
        .scaled(&(BigUint::one() << shift))
}

/// Past 2^188 outcomes the keep program runs in wider words
/// (`ways::Wrapping`) and gives the closed form's counts exactly.
#[test]
fn keep_past_2_188_matches_the_closed_form() {
    use crate::engine::ways::Wrapping;
    for (faces, count, shift) in [
        (&[1i64, 2, 3, 4, 5, 6][..], 80u64, 0u32),
        (&[1, 2, 3, 4, 5, 6], 5, 40),
        (&[2, 7, 7, -4], 6, 90),
        (&[0, 1, 1], 9, 60),
    ] {
        let die = heavy(faces, shift);
        let bits = die.total().pow(count as u32).bits();
        assert!(bits > 188 && bits <= 576, "{faces:?} {count}: {bits} bits");
        for m in [1, count / 2, count - 1] {
            for rule in [Keep::Highest(m), Keep::Lowest(m)] {
                let closed = keep_by_convolution(&die, count, rule, |v| v);
                let wide = keep_program::<Wrapping<9>>(&die, count, rule, &|v| v).unwrap();
                let big = keep_program::<BigUint>(&die, count, rule, &|v| v).unwrap();
                assert_eq!(wide, closed, "{faces:?} {count} {rule:?}");
                assert_eq!(big, closed, "{faces:?} {count} {rule:?}");
                assert_eq!(keep(&die, count, rule, |v| v), closed);
                assert_eq!(wide.total(), die.total().pow(count as u32));
            }
        }
    }
}

/// The same for a `!` pool: the wide program against the profiles.
#[test]
fn exploded_keep_past_2_188_matches_the_profiles() {
    use crate::engine::ways::Wrapping;
    for (faces, cond, depth, count, shift) in [
        (&[1i64, 2, 3, 4][..], Condition::Eq(4), 2u32, 4u64, 20u32),
        (&[1, 2, 3][..], Condition::Ge(2), 1, 3, 40),
        (&[1, 1, 2, 3][..], Condition::Le(1), 3, 2, 30),
    ] {
        let die = heavy(faces, shift);
        let bits = die.total().pow((depth + 1) * count as u32).bits();
        assert!(
            bits > 188 && bits <= 64 * 6,
            "{faces:?} {count}: {bits} bits"
        );
        for m in 1..=count {
            for rule in [Keep::Highest(m), Keep::Lowest(m)] {
                let profiles = explode_by_profiles(&die, cond, depth, count, Some(rule), |v| v);
                let wide =
                    exploded_keep_program::<Wrapping<6>>(&die, cond, depth, count, rule, &|v| v)
                        .unwrap();
                assert_eq!(wide, profiles, "{faces:?} {depth} {count} {rule:?}");
                let exact = explode_into_pool(&die, cond, depth, count, Some(rule), |v| v);
                assert_eq!(exact, profiles);
            }
        }
    }
}

/// Wrapping words add, subtract and multiply as big integers modulo
/// `2^(64 K)`, over pseudo-random counts of every length up to K words.
#[test]
fn wrapping_words_are_big_integers_modulo_their_width() {
    use crate::engine::ways::{Ways, Wrapping};
    let modulus = BigUint::one() << 256u32;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..200 {
        let mut random = || {
            let words = (next() % 5) as usize;
            let digits: Vec<u64> = (0..words).map(|_| next()).collect();
            digits
                .iter()
                .rev()
                .fold(BigUint::zero(), |n, &d| (n << 64u32) + d)
        };
        let (a, b, c) = (random(), random(), random());
        let of = Wrapping::<4>::of;
        let mut w = of(&c);
        w.add_product(&of(&a), &of(&b));
        w.sub(&of(&a));
        w.add(&of(&b).times(&of(&c)));
        let expected = (&c + &a * &b + &modulus - &a + &b * &c) % &modulus;
        assert_eq!(w.big(), expected);
        assert_eq!(of(&a).no_ways(), a.is_zero());
    }
}

/// Property: over pseudo-random dice of random weights, past 2^188
/// outcomes and at several widths, `keep` (the program at the width it
/// picks) gives the closed form's counts.
#[test]
fn keep_past_2_188_matches_the_closed_form_on_random_dice() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |below: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % below
    };
    let mut past = 0;
    for _ in 0..40 {
        let faces = 2 + next(4);
        let counts: BTreeMap<i64, BigUint> = (0..faces)
            .map(|_| {
                (
                    next(12) as i64 - 3,
                    BigUint::from(1 + next(1 << 40)) << next(60),
                )
            })
            .collect();
        let die = Outcomes::from_map(counts).unwrap();
        let count = 3 + next(6);
        let m = 1 + next(count - 1);
        let rule = if next(2) == 0 {
            Keep::Highest(m)
        } else {
            Keep::Lowest(m)
        };
        let bits = die.total().pow(count as u32).bits();
        past += usize::from(bits > 188);
        let exact = keep(&die, count, rule, |v| v);
        assert_eq!(
            exact,
            keep_by_convolution(&die, count, rule, |v| v),
            "{die:?} {count} {rule:?} ({bits} bits)"
        );
    }
    assert!(past >= 30, "{past} of 40 past 2^188");
}

/// Rolls whose ways fit a word are listed as those that do not: the same
/// rolls in the same order, the ways scaled by the faces' scale.
#[test]
fn rolls_in_words_match_rolls_in_big_integers() {
    let weights = [1u64, 3, 2, 7];
    let values = [1i64, 2, 5, 9];
    for count in 0..=6u64 {
        let list = |scale: u32| {
            let ways: Vec<BigUint> = weights.iter().map(|&w| BigUint::from(w) << scale).collect();
            let faces: Vec<(i64, &BigUint)> = values.iter().copied().zip(&ways).collect();
            let mut out = Vec::new();
            rolls_of(&faces, count, &mut |roll, w| {
                out.push((roll.to_vec(), w.clone()))
            });
            out
        };
        // 13^6 is below 2^64: in words; 2^40 times each face, far past.
        let (small, big) = (list(0), list(40));
        assert_eq!(small.len(), big.len());
        assert!(small_weights(&[(1, &BigUint::from(13u32))], count).is_some());
        for ((a, wa), (b, wb)) in small.iter().zip(&big) {
            assert_eq!(a, b);
            assert_eq!(&(wa << (40 * count)), wb);
        }
        let total: BigUint = small.iter().map(|(_, w)| w).sum();
        assert_eq!(total, BigUint::from(13u32).pow(count as u32));
    }
}
