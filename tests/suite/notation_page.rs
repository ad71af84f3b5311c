//! The guide page `content/guide/notation.md` is tested: every row of its
//! tables says what fairdice reads another tool's form as, and gives an
//! exact figure. Each figure is recomputed with `fairdice roll --json`;
//! each form said to be read must be accepted, each form said not to be
//! read must be refused, so the page goes stale loudly when the dice
//! language changes. A few figures are also enumerated here by brute
//! force, from the other tool's meaning rather than from fairdice's.

use crate::common::fairdice;
use num_rational::Ratio;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

type Fraction = Ratio<i128>;

fn page() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/guide/notation.md");
    std::fs::read_to_string(path).expect("content/guide/notation.md")
}

/// What the page says fairdice does with a form.
#[derive(Debug, PartialEq)]
enum Reading {
    AsWritten,
    /// Accepted, but meaning something else: write the expression instead.
    OtherMeaning(String),
    /// Refused: write the expression instead.
    NotRead(String),
    NoEquivalent,
}

#[derive(Debug)]
struct Row {
    family: String,
    form: String,
    reading: Reading,
    /// `--explode-depth N` when the row asks for one.
    explode_depth: Option<String>,
    /// The example: `mean` or `chance`, the expression, the exact figure.
    example: Option<(String, String, Fraction)>,
}

/// The text of every `code span` in a cell, in order.
fn code_spans(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The expression after "write " in a cell.
fn written(cell: &str) -> String {
    let rest = &cell[cell.find("write `").expect("a `write` in the cell") + 6..];
    code_spans(rest)[0].clone()
}

fn fraction(text: &str) -> Fraction {
    text.trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a fraction: {text}"))
}

fn parse_row(family: &str, line: &str) -> Row {
    let cells: Vec<&str> = line
        .trim()
        .trim_matches('|')
        .split('|')
        .map(str::trim)
        .collect();
    assert_eq!(cells.len(), 4, "four cells in {line}");
    let form = code_spans(cells[0]).pop().expect("the form in a code span");
    let status = cells[2];
    let reading = if status.starts_with("Read as written") {
        Reading::AsWritten
    } else if status.starts_with("Read with another meaning") {
        Reading::OtherMeaning(written(status))
    } else if status.starts_with("Not read") {
        Reading::NotRead(written(status))
    } else if status.starts_with("No equivalent yet") {
        Reading::NoEquivalent
    } else {
        panic!("unknown status in {line}")
    };
    let explode_depth = status
        .find("`--explode-depth ")
        .map(|at| code_spans(&status[at..])[0]["--explode-depth ".len()..].to_string());
    let example = if cells[3] == "—" {
        None
    } else {
        let (what, rest) = cells[3].split_once(" of ").expect("mean of / chance of");
        let expr = code_spans(rest)[0].clone();
        let figure = fraction(rest.rsplit_once('=').expect("= figure").1);
        Some((what.to_string(), expr, figure))
    };
    Row {
        family: family.to_string(),
        form,
        reading,
        explode_depth,
        example,
    }
}

/// Every table row of the page, with the `##` heading it sits under.
fn rows() -> Vec<Row> {
    let text = page();
    let mut family = String::new();
    let mut rows = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            family = heading.to_string();
        } else if line.starts_with("| `") {
            rows.push(parse_row(&family, line));
        }
    }
    rows
}

/// `fairdice roll EXPR --json [--explode-depth N]`: the roll's JSON, or
/// the error text when the binary refuses it.
fn roll(expr: &str, explode_depth: Option<&str>) -> Result<Value, String> {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["roll", expr, "--json"];
    if let Some(depth) = explode_depth {
        args.extend(["--explode-depth", depth]);
    }
    let run = fairdice(&args, dir.path());
    if run.status.success() {
        let doc: Value = serde_json::from_slice(&run.stdout).unwrap();
        Ok(doc["rolls"][0].clone())
    } else {
        assert_eq!(run.status.code(), Some(1), "`{expr}`: a refusal exits 1");
        Err(run.stderr_text())
    }
}

fn accepted(expr: &str, depth: Option<&str>) -> Value {
    roll(expr, depth).unwrap_or_else(|error| panic!("`{expr}` is refused: {error}"))
}

fn mean(roll: &Value) -> Fraction {
    fraction(roll["mean"].as_str().unwrap())
}

/// The roll's probability of each value, exact.
fn distribution(roll: &Value) -> BTreeMap<i64, Fraction> {
    roll["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let value = o["value"].as_i64().unwrap();
            (value, fraction(o["probability"].as_str().unwrap()))
        })
        .collect()
}

fn check_row(row: &Row) {
    let depth = row.explode_depth.as_deref();
    let meant = match &row.reading {
        Reading::AsWritten => {
            accepted(&row.form, depth);
            Some(row.form.clone())
        }
        Reading::OtherMeaning(instead) => {
            let as_read = distribution(&accepted(&row.form, depth));
            let as_meant = distribution(&accepted(instead, depth));
            assert_ne!(
                as_read, as_meant,
                "`{}` and `{instead}` now agree",
                row.form
            );
            Some(instead.clone())
        }
        Reading::NotRead(instead) => {
            let error = roll(&row.form, depth).err().unwrap_or_else(|| {
                panic!(
                    "{}: `{}` is read now: update the page",
                    row.family, row.form
                )
            });
            assert!(error.starts_with("error:"), "{error}");
            Some(instead.clone())
        }
        Reading::NoEquivalent => {
            assert!(
                roll(&row.form, depth).is_err(),
                "`{}` is read now",
                row.form
            );
            None
        }
    };
    match (&row.example, meant) {
        (Some((what, expr, figure)), Some(meant)) => {
            assert!(
                expr.contains(&meant),
                "the example `{expr}` is about `{meant}`"
            );
            let result = accepted(expr, depth);
            assert_eq!(mean(&result), *figure, "{}: {what} of `{expr}`", row.family);
            if what == "chance" {
                let values: Vec<i64> = distribution(&result).into_keys().collect();
                assert_eq!(values, vec![0, 1], "a chance is of a comparison: `{expr}`");
            } else {
                assert_eq!(what, "mean", "an example is a mean or a chance");
            }
        }
        (None, None) => {}
        _ => panic!(
            "{}: `{}` needs an example exactly when it has an equivalent",
            row.family, row.form
        ),
    }
}

#[test]
fn every_table_row_matches_the_binary() {
    let rows = rows();
    for family in ["Roll20", "Foundry VTT", "Avrae", "AnyDice", "icepool"] {
        let count = rows.iter().filter(|r| r.family == family).count();
        assert!(count >= 6, "{family} has {count} rows");
    }
    assert!(rows.iter().any(|r| r.reading == Reading::AsWritten));
    assert!(rows
        .iter()
        .any(|r| matches!(r.reading, Reading::NotRead(_))));
    assert!(rows
        .iter()
        .any(|r| matches!(r.reading, Reading::OtherMeaning(_))));
    for row in &rows {
        check_row(row);
    }
}

fn row(family: &str, form: &str) -> Row {
    rows()
        .into_iter()
        .find(|r| r.family == family && r.form == form)
        .unwrap_or_else(|| panic!("no row for {family} `{form}`"))
}

/// The figure a row prints.
fn figure(family: &str, form: &str) -> Fraction {
    row(family, form).example.expect("an example").2
}

/// Every roll of `n` dice with faces 1 to `sides`.
fn all_rolls(n: usize, sides: i64) -> Vec<Vec<i64>> {
    (0..n).fold(vec![vec![]], |rolls, _| {
        rolls
            .iter()
            .flat_map(|r| {
                (1..=sides).map(move |face| {
                    let mut next = r.clone();
                    next.push(face);
                    next
                })
            })
            .collect()
    })
}

/// The average of `f` over equally likely cases.
fn average<T>(cases: &[T], f: impl Fn(&T) -> i64) -> Fraction {
    let total: i128 = cases.iter().map(|c| i128::from(f(c))).sum();
    Fraction::new(total, cases.len() as i128)
}

fn highest_three(dice: &[i64]) -> i64 {
    let mut sorted = dice.to_vec();
    sorted.sort_unstable();
    sorted[1..].iter().sum()
}

#[test]
fn keep_highest_three_of_four_enumerated() {
    let rolls = all_rolls(4, 6);
    assert_eq!(rolls.len(), 1296);
    let chance = average(&rolls, |r| i64::from(highest_three(r) >= 15));
    assert_eq!(chance, Fraction::new(25, 108));
    for family in ["Roll20", "Avrae", "icepool"] {
        let form = if family == "icepool" {
            "d6.highest(4, 3)"
        } else {
            "4d6kh3"
        };
        assert_eq!(figure(family, form), chance, "{family}");
    }
    assert_eq!(
        average(&rolls, |r| highest_three(r)),
        figure("Foundry VTT", "4d6kh3")
    );
}

#[test]
fn avrae_drop_every_one_enumerated() {
    // Avrae's `4d6p1` drops every die showing 1: sum the others.
    let rolls = all_rolls(4, 6);
    let total = |r: &Vec<i64>| r.iter().filter(|&&face| face != 1).sum::<i64>();
    assert_eq!(average(&rolls, total), figure("Avrae", "4d6p1"));
    // The whole distribution, not only the mean, is fairdice's spelling.
    let mut counts: BTreeMap<i64, Fraction> = BTreeMap::new();
    for r in &rolls {
        *counts.entry(total(r)).or_default() += Fraction::new(1, 1296);
    }
    assert_eq!(distribution(&accepted("4d{0,2,3,4,5,6}", None)), counts);
    // and not dropping the lowest die, which the two are easily taken for.
    assert_ne!(distribution(&accepted("4d6dl1", None)), counts);
}

#[test]
fn groups_rerolls_and_minimums_enumerated() {
    let rolls = all_rolls(3, 6);
    // {2d6,1d12}kh1: the higher of 2d6 and 1d12.
    let pairs = all_rolls(2, 6);
    let twelve: Vec<(i64, i64)> = pairs
        .iter()
        .flat_map(|p| (1..=12).map(move |d12| (p[0] + p[1], d12)))
        .collect();
    let higher = average(&twelve, |&(two, one)| two.max(one));
    assert_eq!(higher, figure("Roll20", "{2d6,1d12}kh1"));
    // 2d6ro1: each of 36 first-and-second rolls per die; the second counts
    // only after a 1.
    let die: Vec<i64> = all_rolls(2, 6)
        .iter()
        .map(|r| if r[0] == 1 { r[1] } else { r[0] })
        .collect();
    let two_dice: Vec<(i64, i64)> = die
        .iter()
        .flat_map(|&a| die.iter().map(move |&b| (a, b)))
        .collect();
    assert_eq!(
        average(&two_dice, |&(a, b)| a + b),
        figure("Roll20", "2d6ro1")
    );
    // A d20 whose minimum is 10 (Foundry's min10, Avrae's mi10).
    let d20: Vec<i64> = (1..=20).collect();
    let minimum = average(&d20, |&face| face.max(10));
    assert_eq!(minimum, figure("Foundry VTT", "1d20min10"));
    assert_eq!(minimum, figure("Avrae", "1d20mi10"));
    // AnyDice's 1@3d6, the highest die.
    let highest = average(&rolls, |r| *r.iter().max().unwrap());
    assert_eq!(highest, figure("AnyDice", "1@3d6"));
}

/// The mean total of one exploding die: `extra` more rolls at most, each
/// made when the last roll met `explodes`.
fn exploding_mean(sides: i64, extra: u32, explodes: &dyn Fn(i64) -> bool) -> Fraction {
    let faces: Vec<i64> = (1..=sides).collect();
    let once = average(&faces, |&f| f);
    let chance = Fraction::new(
        faces.iter().filter(|&&f| explodes(f)).count() as i128,
        sides as i128,
    );
    (0..=extra).map(|k| once * chance.pow(k as i32)).sum()
}

#[test]
fn explosions_enumerated() {
    let on_six = |face| face == 6;
    let three = exploding_mean(6, 3, &on_six);
    assert_eq!(three, figure("Roll20", "1d6!"));
    assert_eq!(three, figure("Avrae", "1d6e6"));
    assert_eq!(
        Fraction::new(21, 5) - three,
        Fraction::new(7, 2160),
        "the page's gap to 21/5"
    );
    assert_eq!(
        exploding_mean(6, 3, &|face| face >= 5),
        figure("Roll20", "1d6!>5")
    );
    assert_eq!(
        exploding_mean(10, 1, &|face| face == 10),
        figure("Foundry VTT", "1d10xo")
    );
    assert_eq!(
        exploding_mean(10, 3, &|face| face == 10),
        figure("Foundry VTT", "1d10x")
    );
    assert_eq!(
        exploding_mean(6, 2, &on_six),
        figure("AnyDice", "[explode d6]")
    );
    assert_eq!(
        exploding_mean(6, 9, &on_six),
        figure("icepool", "d6.explode()")
    );
    assert!(page().contains("7/2160 below the unlimited 21/5"));
}

#[test]
fn successes_minus_failures_enumerated() {
    // Roll20's 10d10>8f1: +1 for a die of 8 or more, -1 for a 1.
    let per_die: Vec<i64> = (1..=10)
        .map(|face| i64::from(face >= 8) - i64::from(face == 1))
        .collect();
    let mut counts: BTreeMap<i64, i128> = BTreeMap::from([(0, 1)]);
    for _ in 0..10 {
        let mut next = BTreeMap::new();
        for (&total, &ways) in &counts {
            for &step in &per_die {
                *next.entry(total + step).or_insert(0) += ways;
            }
        }
        counts = next;
    }
    let all: i128 = counts.values().sum();
    assert_eq!(all, 10_i128.pow(10));
    let expected: BTreeMap<i64, Fraction> = counts
        .iter()
        .map(|(&v, &w)| (v, Fraction::new(w, all)))
        .collect();
    let result = accepted("10d10>=8f1", None);
    assert_eq!(distribution(&result), expected);
    assert_eq!(mean(&result), figure("Roll20", "10d10>8f1"));
}

#[test]
fn anydice_programs_give_the_same_figures() {
    // `fairdice anydice` reads what `fairdice roll` refuses.
    let dir = tempfile::tempdir().unwrap();
    let program = "output [highest 1 of 2d20]\noutput [explode d6]\noutput 1@3d6\noutput 2d6>7\n";
    std::fs::write(dir.path().join("forms.anydice"), program).unwrap();
    let run = fairdice(&["anydice", "forms.anydice", "--json"], dir.path());
    assert!(run.status.success(), "{}", run.stderr_text());
    let doc: Value = serde_json::from_slice(&run.stdout).unwrap();
    let means: Vec<Fraction> = doc["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| fraction(o["mean"].as_str().unwrap()))
        .collect();
    let forms = ["[highest 1 of 2d20]", "[explode d6]", "1@3d6", "2d6>7"];
    let figures: Vec<Fraction> = forms.iter().map(|f| figure("AnyDice", f)).collect();
    assert_eq!(means, figures);
}
