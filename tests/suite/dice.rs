//! The `dice` kind end to end: figures against the first-player kind's,
//! a bad expression reported at its line with the site untouched, an
//! over-budget expression refused at once naming its costliest part.

use crate::common::{fairdice, good_site, snapshot, write};
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

fn results(file: &str) -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = fairdice(&["eval", file, "--json", "--quiet"], root);
    assert!(run.status.success(), "{}", run.stderr_text());
    let doc: Value = serde_json::from_slice(&run.stdout).unwrap();
    doc["scenarios"][0]["results"].clone()
}

fn fraction(value: &Value) -> (i128, i128) {
    let (p, q) = value.as_str().unwrap().split_once('/').unwrap();
    (p.parse().unwrap(), q.parse().unwrap())
}

#[test]
fn two_rolls_of_2d6_agree_with_the_first_player_figures() {
    let duel = results("content/dice/first-player-duel.yaml");
    let first = results("content/rules/first-player.yaml");
    let case = first["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["players"] == 2 && c["dice"]["count"] == 2 && c["dice"]["sides"] == 6)
        .expect("two players with 2d6");
    let pair = &duel["comparisons"][0];
    // A round is tied exactly when the two rolls are equal.
    assert_eq!(pair["p_tie"], case["p_tie_first_round"]);
    // Rerolling ties, the first seat starts with P(higher) / P(not tied).
    let (hp, hq) = fraction(&pair["p_a_higher"]);
    let (tp, tq) = fraction(&pair["p_tie"]);
    let (fp, fq) = fraction(&case["p_first"][0]);
    // hp/hq / (1 - tp/tq) == fp/fq, cross-multiplied.
    assert_eq!(hp * tq * fq, fp * hq * (tq - tp));
    // Expected rounds 1 / (1 - p_tie).
    let (ep, eq) = fraction(&case["expected_rounds"]);
    assert_eq!(ep * (tq - tp), eq * tq);
}

#[test]
fn ways_sum_to_the_outcomes_and_probabilities_are_reduced() {
    let scores = results("content/dice/ability-scores.yaml");
    for roll in scores["rolls"].as_array().unwrap() {
        let total: u128 = roll["total_outcomes"].as_str().unwrap().parse().unwrap();
        let mut sum = 0u128;
        let mut previous = i64::MIN;
        for outcome in roll["outcomes"].as_array().unwrap() {
            let ways: u128 = outcome["ways"].as_str().unwrap().parse().unwrap();
            sum += ways;
            let (p, q) = fraction(&outcome["probability"]);
            assert_eq!(p as u128 * total, ways * q as u128);
            assert_eq!(num_integer::gcd(p, q), 1, "{outcome}");
            let value = outcome["value"].as_i64().unwrap();
            assert!(value > previous);
            previous = value;
        }
        assert_eq!(sum, total, "{}", roll["name"]);
    }
}

#[test]
fn a_bad_expression_fails_at_its_line_and_leaves_the_site() {
    let dir = good_site();
    let before = snapshot(&dir.path().join("site"));
    for (text, expected) in [
        (
            "4d6kh5",
            "7:8: rolls.big: `4d6kh5`, column 4: cannot keep 5 of 4 dice",
        ),
        ("d0", "column 1: d0 has no faces"),
        ("2d6rr<7", "every face is rerolled"),
        ("(1d6 + 2", "unbalanced `(`"),
        ("\"3d6 +\"", "column 6: expected a number"),
    ] {
        write(
            dir.path(),
            "content/bad.yaml",
            &format!("title: Bad\nkind: dice\n\n\nrolls:\n  fine: 3d6\n  big: {text}\n"),
        );
        let run = fairdice(&["build", "--quiet"], dir.path());
        assert_eq!(run.status.code(), Some(1), "{text}");
        let stderr = run.stderr_text();
        assert!(stderr.contains("content/bad.yaml:"), "{stderr}");
        assert!(stderr.contains(expected), "{text}: {stderr}");
        assert_eq!(snapshot(&dir.path().join("site")), before, "{text}");
    }
}

#[test]
fn a_question_the_page_cannot_answer_fails_at_its_place() {
    let dir = good_site();
    write(
        dir.path(),
        "content/bad.yaml",
        "title: Bad\nkind: dice\nrolls:\n  a: 3d6\n  b: 2d8\nquestion: who wins\n",
    );
    let run = fairdice(&["build", "--quiet"], dir.path());
    assert_eq!(run.status.code(), Some(1));
    let stderr = run.stderr_text();
    assert!(stderr.contains("content/bad.yaml:6:11"), "{stderr}");
    assert!(
        stderr.contains("`target`, `head-to-head`, `distribution`"),
        "{stderr}"
    );
}

#[test]
fn an_expression_over_budget_is_refused_at_once_naming_its_part() {
    let dir = good_site();
    write(
        dir.path(),
        "content/huge.yaml",
        "title: Huge\nkind: dice\nrolls:\n  small: d6\n  huge: 1d6 + 100000d1000kh50000\n",
    );
    let started = Instant::now();
    let run = fairdice(&["check", "--quiet"], dir.path());
    // A runaway guard, far above the instant answer expected.
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(run.status.code(), Some(1));
    let stderr = run.stderr_text();
    assert!(stderr.contains("over the budget"), "{stderr}");
    assert!(
        stderr.contains("the costliest part is `100000d1000kh50000` in roll \"huge\""),
        "{stderr}"
    );
}

#[test]
fn the_serve_playground_rolls_with_the_builds_checks() {
    let dir = good_site();
    let (_serving, addr) = crate::serve::start(dir.path());
    let get = |path: &str| crate::serve::get(&addr, path);
    let (code, page) = get("/__fairdice/playground");
    assert_eq!(code, 200);
    assert!(page.contains("Dice playground"));
    let (code, report) = get("/__fairdice/roll?roll=2d6&roll=d12");
    assert_eq!(code, 200, "{report}");
    // Different rolls are alternatives: the report opens target by target
    // and still says who rolls higher in its table.
    assert!(
        report.contains(
            "To roll at least a target number: 2d6 is best from 2 to 7; they tie at 8; \
             d12 is best from 9 to 12"
        ),
        "{report}"
    );
    assert!(report.contains("who rolls higher"), "{report}");
    let (code, yaml) = get("/__fairdice/roll.yaml?roll=4d6dl1&roll=2d20kh1+%2B+3&depth=2");
    assert_eq!(code, 200);
    assert!(
        yaml.contains("kind: dice") && yaml.contains("2d20kh1 + 3"),
        "{yaml}"
    );
    assert!(yaml.contains("explode_depth: 2"), "{yaml}");
    let (code, error) = get("/__fairdice/roll?roll=4d6kh5");
    assert_eq!(code, 422);
    assert!(error.contains("cannot keep 5 of 4 dice"), "{error}");
    let (code, error) = get("/__fairdice/roll?roll=%3Cscript%3Ealert(1)%3C/script%3E");
    assert_eq!(code, 422);
    assert!(
        !error.contains("<script>") && error.contains("&lt;script&gt;"),
        "{error}"
    );
    let started = Instant::now();
    let (code, error) = get("/__fairdice/roll?roll=1d6%2B100000d1000kh50000");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(code, 422);
    assert!(
        error.contains("over the budget") && error.contains("100000d1000kh50000"),
        "{error}"
    );
    assert_eq!(get("/__fairdice/version").0, 200);
}

/// Issue 28, item 12: roll names and expressions are text, never a
/// template: braces once panicked in the progress bar's template.
#[test]
fn braces_in_rolls_and_names_are_text() {
    let dir = tempfile::tempdir().unwrap();
    let run = fairdice(&["roll", "d{1, 2, 3}"], dir.path());
    assert!(run.status.success(), "{}", run.stderr_text());
    assert!(String::from_utf8_lossy(&run.0.stdout).contains("d{1, 2, 3}"));
    write(
        dir.path(),
        "braces.yaml",
        "title: Braces\nkind: dice\nrolls:\n  \"x }\": d{1,2}\n  \"{{msg}} {\": 2d6\n",
    );
    let run = fairdice(&["eval", "braces.yaml", "--json"], dir.path());
    assert!(run.status.success(), "{}", run.stderr_text());
    let doc: Value = serde_json::from_slice(&run.0.stdout).unwrap();
    let rolls = &doc["scenarios"][0]["results"]["rolls"];
    assert_eq!(rolls[0]["name"], "x }");
    assert_eq!(rolls[1]["name"], "{{msg}} {");
}

/// Issue 43: a scenario names its family's notation, and only a known one.
#[test]
fn a_scenario_says_its_notation() {
    use fairdice::analyses::dice::Params;
    let read = |yaml: &str| serde_yaml::from_str::<Params>(yaml);
    let roll20 = read("rolls: {attack: 1d20cs>18}\nnotation: roll20\n").unwrap();
    assert!(
        roll20.rolls.0[0].expression.tree
            != read("rolls: {attack: 1d20cs>18}\n").unwrap().rolls.0[0]
                .expression
                .tree
    );
    let error = read("rolls: {attack: 1d20}\nnotation: avrae\n")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("standard") && error.contains("roll20"),
        "{error}"
    );
}
