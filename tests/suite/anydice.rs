//! AnyDice programs against AnyDice's own answers (tests/data/anydice):
//! every output's label and every value's percentage, to AnyDice's printed
//! precision; where AnyDice refused, fairdice refuses.

use fairdice::engine::{ratio, to_f64};
use fairdice::lang::anydice::{run, Refusal};
use serde_json::Value;

/// AnyDice prints about 12 significant digits of its floating-point sums.
fn close(ours: f64, theirs: f64) -> bool {
    (ours - theirs).abs() <= 1e-9 + 1e-8 * theirs.abs()
}

/// Why `program` disagrees with `case`'s answer, if it does.
fn disagreement(case: &Value) -> Option<String> {
    let program = case["program"].as_str().unwrap();
    let result = run(program, 2.0);
    if case.get("refused").is_some() {
        return match result {
            Err(_) => None,
            Ok(_) => Some("AnyDice refused it, fairdice answered".into()),
        };
    }
    let report = match result {
        Ok(report) => report,
        Err(Refusal::Syntax(p)) => return Some(format!("refused: {}", p[0])),
        Err(Refusal::Calculation(p)) => return Some(format!("refused: {p}")),
    };
    let expected = case["outputs"].as_array().unwrap();
    if expected.len() != report.outputs.len() {
        return Some(format!(
            "{} outputs, AnyDice {}",
            report.outputs.len(),
            expected.len()
        ));
    }
    for (output, want) in report.outputs.iter().zip(expected) {
        let label = want[0].as_str().unwrap();
        if output.name != label {
            return Some(format!("label {:?}, AnyDice {label:?}", output.name));
        }
        let mut theirs: Vec<(i64, f64)> = want[1]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_i64().unwrap(), p[1].as_f64().unwrap()))
            .filter(|(_, p)| *p != 0.0)
            .collect();
        theirs.sort_by_key(|(v, _)| *v);
        let ours: Vec<(i64, f64)> = output.outcomes.as_ref().map_or_else(Vec::new, |o| {
            let total = o.total();
            o.iter()
                .map(|(v, w)| (v, to_f64(&ratio(w, &total)) * 100.0))
                .collect()
        });
        let mut theirs = theirs.into_iter().peekable();
        for (value, p) in ours {
            let t = match theirs.peek() {
                Some(&(v, t)) if v == value => {
                    theirs.next();
                    t
                }
                _ => 0.0,
            };
            if !close(p, t) {
                return Some(format!("{label}: value {value}: {p} %, AnyDice {t} %"));
            }
        }
        if let Some((v, t)) = theirs.next() {
            return Some(format!("{label}: value {v}: AnyDice {t} %, fairdice none"));
        }
    }
    None
}

#[test]
fn programs_give_anydices_answers() {
    let corpus = include_str!("../data/anydice/corpus-dev.jsonl");
    let cases: Vec<Value> = corpus
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut wrong = Vec::new();
    let (mut answered, mut refused) = (0, 0);
    for case in &cases {
        let problem = disagreement(case);
        if case.get("refused").is_some() {
            refused += 1;
            // Where AnyDice refuses, fairdice refuses: no exception.
            assert!(problem.is_none(), "{}: {}", case["id"], problem.unwrap());
        } else {
            answered += 1;
            if let Some(p) = problem {
                wrong.push(format!("{}: {p}", case["id"]));
            }
        }
    }
    let matched = answered - wrong.len();
    eprintln!("matched {matched} of {answered} answered programs; {refused} refusals");
    // The known deviations (docs/reference.md, "AnyDice programs").
    assert!(
        matched * 100 >= answered * 98,
        "{} of {answered} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// A scenario of kind `anydice` reads its program from a file beside it,
/// and a bad program fails at the scenario's key with the program's place.
#[test]
fn a_scenario_reads_its_program_beside_it_and_names_mistakes() {
    use crate::common::{fairdice, fixture};
    let dir = fixture(&[
        ("content/_index.md", "# Home\n"),
        (
            "content/dice/crits.yaml",
            "title: Crits\nkind: anydice\nprogram_file: crits.anydice\n",
        ),
        (
            "content/dice/crits.anydice",
            "output [highest 1 of 2d20] = 20 named \"a 20 with advantage\"\n",
        ),
    ]);
    let run = fairdice(
        &["eval", "content/dice/crits.yaml", "--json", "--quiet"],
        dir.path(),
    );
    assert!(run.status.success(), "{}", run.stderr_text());
    let json: Value = serde_json::from_slice(&run.stdout).unwrap();
    let case = &json["scenarios"][0]["results"]["cases"][0];
    assert_eq!(case["name"], "a 20 with advantage");
    // 1 - (19/20)^2 = 39/400.
    assert_eq!(case["outcomes"][1]["probability"], "39/400");
    // The page shows the program it answers, as written in its file.
    let built = fairdice(&["build", "--quiet"], dir.path());
    assert!(built.status.success(), "{}", built.stderr_text());
    let page = std::fs::read_to_string(dir.path().join("site/dice/crits.html")).unwrap();
    assert!(
        page.contains(
            "<figcaption>The program, as written</figcaption><pre><code>output \
             [highest 1 of 2d20] = 20 named &quot;a 20 with advantage&quot;</code></pre>"
        ),
        "{page}"
    );

    crate::common::write(
        dir.path(),
        "content/dice/bad.yaml",
        "title: Bad\nkind: anydice\nprogram: |\n  output 1\n  output [nope d6]\n",
    );
    let run = fairdice(&["eval", "content/dice/bad.yaml"], dir.path());
    assert_eq!(run.status.code(), Some(1));
    let err = run.stderr_text();
    assert!(
        err.contains("content/dice/bad.yaml:3:")
            && err.contains("line 2, column 8 of the program: there is no function [nope _]"),
        "{err}"
    );
}

/// Issue 40, item 3: an `anydice` page's What if? form offers the program
/// as it reads, in a text area, and computes what the reader writes there.
#[test]
fn the_what_if_form_edits_the_program_as_text() {
    use fairdice::calculator::{calculate, form, Request, Response};
    let yaml =
        "title: Crits\nkind: anydice\nprogram: |\n  X: d20\n  output X = 20 named \"crit\"\n";
    let budget = fairdice::limits::Budget::default();
    let scenario = fairdice::scenario::parse_with_budget("crit.yaml", yaml, &budget).unwrap();
    let form = form(&scenario).expect("the anydice kind has a browser engine");
    assert_eq!(form.engine, "anydice");
    let program = form.fields.iter().find(|f| f.key == "program").unwrap();
    assert!(program.text && program.entries.is_empty());
    assert_eq!(program.value, "X: d20\noutput X = 20 named \"crit\"\n");
    // The reader's browser reads no files: no field names one.
    let keys: Vec<&str> = form.fields.iter().map(|f| f.key.as_str()).collect();
    assert_eq!(keys, ["program"]);
    // The reader changes the program: a crit on 19 or 20.
    let mut fields = form.fields.clone();
    for field in &mut fields {
        if field.key == "program" {
            field.value = "X: d20\noutput X >= 19 named \"crit on 19+\"\n".into();
        }
    }
    let request = Request {
        source: scenario.source.clone(),
        title: "Crits".into(),
        kind: "anydice".into(),
        fields,
    };
    match calculate(&request) {
        Response::Done { yaml, results, .. } => {
            assert!(
                yaml.contains("program: \"X: d20\\noutput X >= 19"),
                "{yaml}"
            );
            let case = &results["cases"][0];
            assert_eq!(case["name"], "crit on 19+");
            // 1 in 10: two faces of twenty.
            assert_eq!(case["outcomes"][1]["probability"], "1/10");
        }
        Response::Refused { message, .. } => panic!("{message}"),
    }
}

/// Below this many steps (about 3 ms of work) a run is instant whatever
/// the estimate says, and the fixed costs the estimate does not model
/// (names, labels, a die's table made once) dominate: the ratio is
/// held only above it.
const PRICE_FLOOR: f64 = 1e5;

/// The static estimate (`price::estimate`) against the steps each answered
/// program of the corpus spends when run: the distribution of the ratios,
/// the worst both ways, and the share within 10x.
#[test]
fn prices_estimated_before_the_run_are_within_10x_of_it() {
    use fairdice::lang::anydice::price::estimate;
    use fairdice::lang::anydice::work::STEPS_PER_SECOND;
    let corpus = include_str!("../data/anydice/corpus-dev.jsonl");
    const BUDGET: f64 = 2.0;
    let mut ratios: Vec<(f64, f64, f64, String)> = Vec::new();
    let (mut slowest, mut over_budget, mut incomplete) = (0.0f64, 0, 0);
    let (mut below, mut below_outside) = (0, 0);
    for line in corpus.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        if case.get("refused").is_some() {
            continue;
        }
        let program = case["program"].as_str().unwrap();
        let started = std::time::Instant::now();
        let Ok(guess) = estimate(program) else {
            continue;
        };
        let took = started.elapsed().as_secs_f64();
        slowest = slowest.max(took);
        if !guess.complete {
            incomplete += 1;
        }
        let real = match run(program, BUDGET) {
            Ok(report) => report.steps,
            // Over the budget: the run would spend at least all of it,
            // and so must the estimate.
            Err(Refusal::Calculation(p)) if p.message.contains("over its budget") => {
                over_budget += 1;
                assert!(
                    guess.steps >= BUDGET * STEPS_PER_SECOND / 10.0,
                    "{}: over the run's budget, estimated {guess}",
                    case["id"]
                );
                continue;
            }
            Err(_) => continue,
        };
        let ratio = guess.steps / real;
        if real >= PRICE_FLOOR || guess.steps >= PRICE_FLOOR * 10.0 {
            ratios.push((ratio, real, guess.steps, case["id"].to_string()));
        } else {
            below += 1;
            if !(0.1..=10.0).contains(&ratio) {
                below_outside += 1;
            }
        }
    }
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    let within = ratios
        .iter()
        .filter(|r| (0.1..=10.0).contains(&r.0))
        .count();
    let mut buckets = std::collections::BTreeMap::new();
    for r in &ratios {
        *buckets.entry(r.0.log10().floor() as i64).or_insert(0) += 1;
    }
    eprintln!(
        "{} programs above {PRICE_FLOOR} steps; {within} within 10x; {over_budget} over the run's budget, {incomplete} estimates incomplete; slowest estimate {:.1} ms",
        ratios.len(),
        slowest * 1e3
    );
    for (decade, n) in &buckets {
        eprintln!("  ratio 1e{decade}..1e{}: {n}", decade + 1);
    }
    let show = |r: &(f64, f64, f64, String)| {
        format!(
            "{}: estimate {:.3e}, run {:.3e}, ratio {:.3}",
            r.3, r.2, r.1, r.0
        )
    };
    eprintln!("under-estimated most:");
    for r in ratios.iter().take(8) {
        eprintln!("  {}", show(r));
    }
    eprintln!("over-estimated most:");
    for r in ratios.iter().rev().take(8) {
        eprintln!("  {}", show(r));
    }
    eprintln!("{below} programs below the floor, {below_outside} of them outside 10x");
    // Every program above the floor, both ways; the estimate is fast.
    assert_eq!(
        within,
        ratios.len(),
        "outside 10x:\n{}",
        ratios
            .iter()
            .filter(|r| !(0.1..=10.0).contains(&r.0))
            .map(show)
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(ratios.len() >= 50, "the corpus has dear programs to price");
    assert_eq!(incomplete, 0, "every corpus program is estimated in full");
    assert!(slowest < 0.5, "the slowest estimate took {slowest} s");
}

/// `fairdice anydice FILE` refuses a program whose estimate is far over its
/// budget at once, naming the estimate and the dearest part's place.
#[test]
fn the_anydice_command_refuses_a_program_estimated_far_over_its_budget() {
    use crate::common::{fairdice, fixture};
    let dir = fixture(&[(
        "deep.anydice",
        "set \"maximum function depth\" to 1000\nfunction: f X:n { result: X + [f d6] }\noutput [f d6]\n",
    )]);
    let started = std::time::Instant::now();
    let run = fairdice(&["anydice", "deep.anydice"], dir.path());
    assert!(!run.status.success());
    let stderr = run.stderr_text();
    assert!(
        stderr.contains("deep.anydice:3:")
            && stderr.contains("the program is estimated before running at over"),
        "{stderr}"
    );
    assert!(started.elapsed().as_secs_f64() < 10.0, "{stderr}");
}
