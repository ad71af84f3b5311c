//! The examples of AnyDice's documentation, whose names state the answer,
//! and figures checked by listing every roll.

use super::*;
use num_bigint::BigUint;

/// The output's values with their ways, in lowest terms.
fn table(source: &str) -> Vec<Vec<(i64, u64)>> {
    let report = run(source, 10.0).unwrap_or_else(|e| panic!("{source}: {e}"));
    report
        .outputs
        .iter()
        .map(|o| match &o.outcomes {
            None => Vec::new(),
            Some(d) => {
                let d = d.reduced();
                d.iter()
                    .filter(|(_, w)| *w != &BigUint::from(0u32))
                    .map(|(v, w)| (v, u64::try_from(w).unwrap()))
                    .collect()
            }
        })
        .collect()
}

/// A die with these faces, as a table in lowest terms.
fn faces(values: &[i64]) -> Vec<(i64, u64)> {
    let d = Outcomes::die(values).unwrap().reduced();
    d.iter()
        .filter(|(_, w)| !w.bits() == 0 || w.bits() > 0)
        .map(|(v, w)| (v, u64::try_from(w).unwrap()))
        .collect()
}

#[test]
fn the_documentation_names_its_answers() {
    let cases: &[(&str, &[i64])] = &[
        ("output d6 / 2", &[0, 1, 1, 2, 2, 3]),
        ("output d6 > 3", &[0, 0, 0, 1, 1, 1]),
        ("output d2 / d3", &[1, 0, 0, 2, 1, 0]),
        ("output d2 > d3", &[0, 0, 0, 1, 0, 0]),
        ("output 2d2 > d3", &[1, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1]),
        ("output {1:4, 2, 3}", &[1, 1, 1, 1, 2, 3]),
        ("output {{1,2,4}:2, 5, 6}", &[1, 2, 4, 1, 2, 4, 5, 6]),
        ("output {d4}", &[1, 2, 3, 4]),
        ("output 2d(2d2)", &[4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 8]),
        ("function: double A:n if above B:n { if A > B { result: A + A } result: A }\noutput [double d6 if above 3]", &[1, 2, 3, 8, 10, 12]),
        ("output [middle 1 of 3d6]", &[]),
    ];
    for (source, expected) in cases {
        if expected.is_empty() {
            continue;
        }
        assert_eq!(table(source)[0], faces(expected), "{source}");
    }
}

#[test]
fn places_sequences_and_numbers() {
    for (source, value) in [
        ("output 1@{2,4,6}", 2),
        ("output {1,3}@{2,4,6}", 8),
        ("output {1,2,2}@{2,4,6}", 10),
        ("output 1@246", 2),
        ("output {1..3}@246", 12),
        (
            "set \"position order\" to \"lowest first\"\noutput 1@246",
            6,
        ),
        ("output #{2,4,6}", 3),
        ("output #(3d6)", 3),
        ("output [count {1, 2} in {1..6}]", 2),
        ("output {1,2,3} > 1", 2),
        ("output {1,2} = {1,2}", 1),
        ("output 5 / 3", 1),
        ("output -5 / 3", -1),
        ("output 1 | 1 & 0", 0),
        ("output [absolute -3]", 3),
        ("output 1 @ [sort {1, 2, 4, 6, 5, 3}]", 6),
        ("output 1 @ [reverse {1..6}]", 6),
        ("output [maximum of 3d6]", 18),
        ("X: 3 X: X * 2 output X", 6),
        ("loop N over {1..4} { X: N } output X", 4),
    ] {
        assert_eq!(table(source)[0], vec![(value, 1)], "{source}");
    }
}

/// Every roll of `count` dice of `sides`, listed, through `f`.
fn listed(count: u32, sides: i64, f: impl Fn(&mut Vec<i64>) -> i64) -> Vec<(i64, u64)> {
    let mut counts = std::collections::BTreeMap::new();
    for mut i in 0..(sides as u64).pow(count) {
        let mut roll: Vec<i64> = (0..count)
            .map(|_| {
                let v = (i % sides as u64) as i64 + 1;
                i /= sides as u64;
                v
            })
            .collect();
        *counts.entry(f(&mut roll)).or_insert(0u64) += 1;
    }
    let all: Vec<i64> = counts
        .iter()
        .flat_map(|(&v, &n)| std::iter::repeat_n(v, n as usize))
        .collect();
    faces(&all)
}

#[test]
fn picks_and_functions_match_listing_every_roll() {
    let sorted = |r: &mut Vec<i64>| {
        r.sort_unstable_by(|a, b| b.cmp(a));
    };
    assert_eq!(
        table("output [highest 3 of 4d6]")[0],
        listed(4, 6, |r| {
            sorted(r);
            r[..3].iter().sum()
        })
    );
    assert_eq!(
        table("output [lowest 2 of 4d6]")[0],
        listed(4, 6, |r| {
            sorted(r);
            r[2..].iter().sum()
        })
    );
    assert_eq!(
        table("output [middle 2 of 4d4]")[0],
        listed(4, 4, |r| {
            sorted(r);
            r[1..3].iter().sum()
        })
    );
    assert_eq!(
        table("output 2@3d6")[0],
        listed(3, 6, |r| {
            sorted(r);
            r[1]
        })
    );
    assert_eq!(
        table("output {1,3}@4d6")[0],
        listed(4, 6, |r| {
            sorted(r);
            r[0] + r[2]
        })
    );
    // Successes (5 or 6) unless a 1 shows, by a function over the sorted roll.
    let program = "function: hits R:s { if R = 1 { result: 0 } result: R >= 5 }\noutput [hits 4d6]";
    assert_eq!(
        table(program)[0],
        listed(4, 6, |r| if r.contains(&1) {
            0
        } else {
            r.iter().filter(|&&v| v >= 5).count() as i64
        })
    );
    // The empty die drops a case: 2d6 given that no die shows 1.
    let program = "function: keep R:s { if R = 1 { result: d{} } result: R }\noutput [keep 2d6]";
    let mut expected = std::collections::BTreeMap::new();
    for a in 2..=6 {
        for b in 2..=6 {
            *expected.entry(a + b).or_insert(0u64) += 1;
        }
    }
    let all: Vec<i64> = expected
        .iter()
        .flat_map(|(&v, &n)| std::iter::repeat_n(v, n as usize))
        .collect();
    assert_eq!(table(program)[0], faces(&all));
}

#[test]
fn explosions_follow_the_explode_depth() {
    // d6 exploding at most twice: 6+6+x has weight 1/216 per x.
    let t = &table("output [explode d6]")[0];
    assert_eq!(t.first(), Some(&(1, 36)));
    assert_eq!(t.last(), Some(&(18, 1)));
    // 1..5, then 6 + (1..5), then 12 + (1..6).
    assert_eq!(t.len(), 16);
    let t = &table("set \"explode depth\" to 1\noutput [explode d6]")[0];
    assert_eq!(t.last(), Some(&(12, 1)));
}

#[test]
fn recursion_stops_at_the_maximum_depth_with_a_warning() {
    let report = run(
        "function: depth { result: 1 + [depth] }\noutput [depth]",
        10.0,
    )
    .unwrap();
    assert_eq!(report.warnings, vec![run::DEPTH_WARNING.to_string()]);
    // The innermost call is cut to the empty die, which `+` reads as 0.
    assert_eq!(
        table("function: depth { result: 1 + [depth] }\noutput [depth]")[0],
        vec![(10, 1)]
    );
    assert_eq!(table("function: depth { result: 1 + [depth] }\nset \"maximum function depth\" to 5\noutput [depth]")[0], vec![(5, 1)]);
}

#[test]
fn names_substitute_variables() {
    let report = run("loop N over {1..2} { output Nd4 named \"[N]d4\" }\noutput 1\nX: d4 output X named \"this is a [X]\"", 10.0).unwrap();
    let names: Vec<&str> = report.outputs.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, vec!["1d4", "2d4", "output 3", "this is a d4"]);
}

#[test]
fn refusals_say_where_and_what_to_write() {
    let e = run("X: d6\nif X = 1 { output 1 }", 10.0)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("2:1: Boolean values can only be numbers"),
        "{e}"
    );
    let e = run("output [frobnicate d6]", 10.0).unwrap_err().to_string();
    assert!(e.contains("no function [frobnicate _]"), "{e}");
    let e = run("output Y", 10.0).unwrap_err().to_string();
    assert!(e.starts_with("1:8: Y has no value"), "{e}");
}

#[test]
fn hostile_programs_stop_at_the_budget() {
    for source in [
        "loop A over {1..100000} { loop B over {1..100000} { X: A } }",
        "function: f N:n { result: [f d6] + [f d6] }\nset \"maximum function depth\" to 50\noutput [f 1]",
        "output 1000000000d6",
        "output d{1, 1000000000000}",
        "output 10^d18",
        "output {1..100000000000}",
        "output [highest 50 of 200d{1..1000}]",
    ] {
        let r = run(source, 0.5);
        assert!(matches!(r, Err(Refusal::Calculation(_))), "{source}: {r:?}");
    }
}

#[test]
fn every_way_to_make_a_wide_die_is_refused_where_it_is_written() {
    // Each makes a die from values far apart: a count for every value
    // between would ask tens of GB at once.
    for (source, line) in [
        ("output {-2147483647, 7}", 1),
        ("output d{-2147483647, 7}", 1),
        ("X: {-9223372036854775807, 7}\noutput X", 2),
        ("output d{1, 7} * 1000000000", 1),
        ("output d{0, 1} * 100000000 + d2", 1),
        ("output [highest 1 of 2d{-2147483647, 7}]", 1),
        (
            "function: f X:n { result: X }\noutput [f d{-2147483647, 7}]",
            2,
        ),
    ] {
        let e = run(source, 10.0).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("{line}:")) && e.contains("bring its values closer"),
            "{source}: {e}"
        );
    }
    // Within the limit, the die is made exactly.
    let t = table("output {-2000000, 7}");
    assert_eq!(t, vec![vec![(-2_000_000, 1), (7, 1)]]);
}

#[test]
fn dice_whose_values_pass_what_anydice_holds_are_refused_not_wrapped() {
    // Each would wrap past ±2^63 in the sum, product or negation of values.
    for source in [
        "output 9223372036854775807 + d2",
        "output 3d{4611686018427387904}",
        "output [highest 2 of 3d{4611686018427387904}]",
        "output [explode d{4611686018427387904}]",
        "output -d{-9223372036854775807-1, -9223372036854775807}",
        "output -1d{-9223372036854775807-1, -9223372036854775806}",
        "output [absolute -9223372036854775807-1]",
    ] {
        let e = run(source, 10.0).unwrap_err().to_string();
        assert!(
            e.starts_with("1:") && e.contains("9223372036854775807"),
            "{source}: {e}"
        );
    }
    // At the edge, exact.
    let t = table("output -(d2 + -9223372036854775807 - 1)");
    assert_eq!(
        t,
        vec![vec![(9223372036854775806, 1), (9223372036854775807, 1)]]
    );
}

#[test]
fn a_mixture_whose_fractions_explode_is_refused_at_once() {
    // Each turn mixes T with itself: the denominators square.
    let program = "function: keep X:n in R:s else D:d { if X = R { result: X } result: D }\n\
                   T: d20\nloop I over {1..30} { T: [keep T in {1..10} else T] }\noutput T";
    let e = run(program, 30.0).unwrap_err().to_string();
    assert!(e.starts_with("3:") && e.contains("digits, past the"), "{e}");
    // Ten turns stay exact: P(11..20) is (1/2)^(2^10) of the start.
    let ten = program.replace("{1..30}", "{1..10}");
    let report = run(&ten, 30.0).unwrap();
    let t = report.outputs[0].outcomes.as_ref().unwrap();
    let expected = crate::engine::Exact::new(
        1.into(),
        num_bigint::BigInt::from(20) * num_bigint::BigInt::from(2).pow(1023),
    );
    assert_eq!(crate::engine::ratio(&t.ways(20), &t.total()), expected);
}
