//! Work without bound: numbers in gates, the budget factor, scenarios whose
//! estimate must hold in every command, a whole build, and templates and
//! pages that loop or grow. Each is refused or stopped with a clear error,
//! and `site/` is left as it was.

use crate::common::{fairdice, fixture, snapshot, write};
use fairdice::build::{self, Project};
use fairdice::limits::Budget;
use std::path::Path;
use std::time::{Duration, Instant};

fn scenario(dice: &str, targets: &str) -> String {
    format!("title: S\nkind: sum-mod\ndice: {dice}\ntargets: {targets}\n")
}

/// A built site with a home page and a small scenario.
fn good_site() -> tempfile::TempDir {
    let dir = fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nHello.\n"),
        ("content/good.yaml", &scenario("d6", "[2, 3]")),
    ]);
    build::build(&Project::at(dir.path())).expect("the good site builds");
    dir
}

/// Nothing the failed command made is left beside the site.
fn assert_no_leftovers(root: &Path) {
    for entry in std::fs::read_dir(root).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        assert!(
            !name.starts_with("site.tmp-") && !name.starts_with("site.old-"),
            "{name} left behind"
        );
    }
}

#[test]
fn gate_bounds_of_any_size_fail_fast_with_their_place() {
    let nines = "9".repeat(900_000);
    let long_fraction = format!("1/{}", "3".repeat(20_000));
    let long_number = "7".repeat(10_001);
    let many_gates: String = (0..101).map(|i| format!("  g{i}: true\n")).collect();
    let cases: Vec<(String, &str, &str)> = vec![
        ("\"<= 3e77777777777\"".into(), "5:8", "the exponent"),
        ("\"> 5E-2147483649\"".into(), "5:8", "out of range"),
        (
            "\">= 0.5e+000000000000000000000000000000009999\"".into(),
            "5:8",
            "exponents from -4000 to 4000",
        ),
        (format!("\"< 1e{nines}\""), "5:8", "out of range"),
        (
            format!("\"== {long_fraction}\""),
            "5:8",
            "the denominator has 20000 digits",
        ),
        (
            format!("\"!= {long_number}\""),
            "5:8",
            "the number has 10001 digits",
        ),
        (format!("\"< 0.{long_number}e3\""), "5:8", "at most 10000"),
    ];
    let mut failures = Vec::new();
    let mut check = |name: &str, text: String, location: &str, message: &str| {
        let dir = good_site();
        let before = snapshot(&dir.path().join("site"));
        write(dir.path(), "content/bad.yaml", &text);
        let started = Instant::now();
        let result = build::build(&Project::at(dir.path()));
        let took = started.elapsed();
        match result {
            Ok(_) => failures.push(format!("{name}: built")),
            Err(err) => {
                let err = err.to_string();
                let first = err.lines().next().unwrap_or("");
                let place = format!("content/bad.yaml:{location}: ");
                if !first.starts_with(&place) || !first.contains(message) || first.len() > 400 {
                    failures.push(format!(
                        "{name}: expected {place}...{message}, got {first:.400}"
                    ));
                }
            }
        }
        if took > Duration::from_secs(15) {
            failures.push(format!("{name}: took {took:?}"));
        }
        if snapshot(&dir.path().join("site")) != before {
            failures.push(format!("{name}: the site changed"));
        }
    };
    for (bound, location, message) in cases {
        let text =
            format!("title: Bad\nkind: sum-mod\ndice: d6\nexpect:\n  tvd: {bound}\ntargets: 2\n");
        check(&bound[..bound.len().min(30)], text, location, message);
    }
    check(
        "101 gates",
        format!("title: Bad\nkind: sum-mod\ndice: d6\ntargets: 2\nexpect:\n{many_gates}"),
        "6:3",
        "more than 100 gates",
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The run's stderr, with no trace of a panic.
fn refused(args: &[&str], dir: &Path, message: &str) -> String {
    let run = fairdice(args, dir);
    let stderr = run.stderr_text();
    assert!(
        matches!(run.status.code(), Some(1 | 2)),
        "{args:?}: {:?}\n{stderr}",
        run.status
    );
    assert!(stderr.contains(message), "{args:?}: {stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("backtrace"),
        "{args:?}: {stderr}"
    );
    stderr
}

#[test]
fn budget_factors_are_bounded_and_no_estimate_overflows() {
    let dir = good_site();
    let before = snapshot(&dir.path().join("site"));
    write(dir.path(), "huge.yaml", &scenario("4000000000d6", "3"));
    for factor in ["1e12", "5000", "1e-9", "1e309"] {
        for args in [
            vec!["eval", "huge.yaml", "--budget", factor],
            vec!["report", "huge.yaml", "-o", "huge.html", "--budget", factor],
            vec!["build", "--budget", factor],
        ] {
            let stderr = refused(&args, dir.path(), "--budget");
            assert!(
                stderr.contains("out of range") || stderr.contains("expected a"),
                "{args:?}: {stderr}"
            );
        }
    }
    // The largest factor still refuses what no machine could do, at once.
    for (dice, targets) in [
        ("4000000000d6", "3"),
        ("3d1000000000000", "2"),
        ("2d6", "99999999999999"),
        ("2d6", "[18446744073709551615]"),
    ] {
        write(dir.path(), "huge.yaml", &scenario(dice, targets));
        let started = Instant::now();
        refused(
            &["eval", "huge.yaml", "--budget", "1000"],
            dir.path(),
            "huge.yaml:",
        );
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    assert!(!dir.path().join("huge.html").exists());
    assert_eq!(snapshot(&dir.path().join("site")), before);
}

#[test]
fn memory_hungry_scenarios_are_refused_before_any_work() {
    // Measured before the estimate counted bins and every copy of a row:
    // 2d6 with 3,000,000 targets peaked at 7 GB, d6 over 2..270 at 1.5 GB.
    let dir = good_site();
    let before = snapshot(&dir.path().join("site"));
    // The last is over budget as a page but within it as JSON alone.
    for (dice, targets, key, json_too) in [
        ("2d6", "3000000", "4:10", true),
        ("d6", "\"2..200\"", "4:10", true),
        ("3d100000", "[5, 7]", "3:7", true),
        ("1600d6", "11", "3:7", false),
    ] {
        let text = scenario(dice, targets);
        write(dir.path(), "content/hungry.yaml", &text);
        write(dir.path(), "hungry.yaml", &text);
        let mut commands = vec![
            vec!["build"],
            vec!["eval", "hungry.yaml"],
            vec!["report", "hungry.yaml", "-o", "hungry.html"],
        ];
        if json_too {
            commands.push(vec!["eval", "--json", "hungry.yaml"]);
        } else {
            let run = fairdice(&["eval", "--json", "hungry.yaml"], dir.path());
            assert!(run.status.success(), "{}", run.stderr_text());
        }
        for args in commands {
            let stderr = refused(&args, dir.path(), &format!("hungry.yaml:{key}: "));
            assert!(
                stderr.contains("raise the budget with `--budget"),
                "{stderr}"
            );
        }
    }
    assert_eq!(snapshot(&dir.path().join("site")), before);
}

/// Run the binary and measure its peak resident memory: the high-water
/// mark of its own address space (`VmHWM` in `/proc/PID/status`), read
/// every millisecond until it exits. Not `wait4`'s `ru_maxrss`: Linux
/// carries the spawning process's high-water mark across `exec`, so that
/// figure counts this test harness's memory (hundreds of MB while other
/// tests run) instead of the program's.
#[cfg(target_os = "linux")]
fn peak_of(args: &[&str], dir: &Path) -> (Option<i32>, String, f64) {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairdice"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fairdice");
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut stderr = String::new();
        pipe.read_to_string(&mut stderr).unwrap();
        stderr
    });
    let status_file = format!("/proc/{}/status", child.id());
    let high_water = || -> Option<f64> {
        let status = std::fs::read_to_string(&status_file).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024.0)
    };
    let mut peak: f64 = 0.0;
    let status = loop {
        // Read before asking whether it exited: the last reading is taken
        // while the process still has its memory.
        if let Some(bytes) = high_water() {
            peak = peak.max(bytes);
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    };
    let stderr = reader.join().unwrap();
    (status.code(), stderr, peak)
}

/// A budget a quarter of the default keeps these fixtures fast; the
/// release binary at the default budget is measured in `SumMod::cost`.
const FACTOR: &str = "0.25";
const BUDGET: Budget = Budget::new(0.25);

/// Scenarios each just under the quarter budget, of the three shapes
/// whose rows grow differently: many totals, many digits, many bins.
const BIG: [(&str, &str); 3] = [("d6", "\"2..54\""), ("430d6", "7"), ("2d6", "12500")];

#[cfg(target_os = "linux")]
#[test]
fn one_big_admitted_scenario_stays_under_its_budget_in_every_command() {
    let dir = fixture(&[("content/_index.md", "---\ntitle: Home\n---\nHi.\n")]);
    let root = dir.path();
    write(root, "tiny.yaml", &scenario("d6", "2"));
    let commands = |file: &str| -> Vec<Vec<String>> {
        let owned = |args: &[&str]| args.iter().map(|a| a.to_string()).collect();
        vec![
            owned(&["eval", "--json", file, "--budget", FACTOR]),
            owned(&[
                "report", file, "-o", "out.html", "--force", "--budget", FACTOR,
            ]),
            owned(&["build", "--budget", FACTOR]),
            // Unchanged: the cache is read and the old site compared.
            owned(&["build", "--budget", FACTOR]),
        ]
    };
    let run = |args: &[String]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stderr, peak) = peak_of(&args, root);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        peak
    };
    // What the program takes with no scenario to speak of.
    let baseline = commands("tiny.yaml")
        .iter()
        .map(|args| run(args))
        .fold(0.0, f64::max);
    for (dice, targets) in BIG {
        let text = scenario(dice, targets);
        // Near the limit: admitted at a quarter, refused at a fifth.
        assert!(fairdice::scenario::parse_with_budget("s.yaml", &text, &BUDGET).is_ok());
        let fifth = Budget::new(0.2);
        assert!(fairdice::scenario::parse_with_budget("s.yaml", &text, &fifth).is_err());
        write(root, "big.yaml", &text);
        write(root, "content/big.yaml", &text);
        for args in commands("big.yaml") {
            let peak = run(&args);
            assert!(
                peak - baseline <= BUDGET.bytes(),
                "{dice} {targets}, {args:?}: {:.0} MB over a baseline of {:.0} MB, \
                 over the budget of {:.0} MB",
                peak / 1e6,
                baseline / 1e6,
                BUDGET.bytes() / 1e6
            );
        }
        std::fs::remove_file(root.join("content/big.yaml")).unwrap();
    }
}

/// Scenarios just under the quarter budget when only their JSON is
/// printed (`eval --json`, `roll --json` price no page): far larger than
/// [`BIG`], so the JSON estimate is held to the same account.
const BIG_JSON: [(&str, &str); 4] = [
    ("sum-mod", "dice: 1100d6\ntargets: 7\n"),
    ("sum-mod", "dice: d6\ntargets: \"2..112\"\n"),
    ("sum-mod", "dice: 2d6\ntargets: 50000\n"),
    ("dice", "rolls:\n  r: \"1100d6\"\n"),
];

#[cfg(target_os = "linux")]
#[test]
fn one_big_scenario_admitted_for_json_stays_under_its_budget() {
    let dir = fixture(&[("content/_index.md", "---\ntitle: Home\n---\nHi.\n")]);
    let root = dir.path();
    let json = BUDGET.printing(true);
    let run = |args: &[&str]| {
        let (code, stderr, peak) = peak_of(args, root);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        peak
    };
    write(root, "tiny.yaml", &scenario("d6", "2"));
    let baseline = run(&["eval", "--json", "tiny.yaml", "--budget", FACTOR])
        .max(run(&["roll", "--json", "d6", "--budget", FACTOR]));
    for (kind, body) in BIG_JSON {
        let text = format!("title: Big\nkind: {kind}\n{body}");
        // Near the limit: admitted at a quarter, refused at a fifth; and
        // a page of it is refused even at a quarter.
        assert!(fairdice::scenario::parse_with_budget("s.yaml", &text, &json).is_ok());
        let fifth = Budget::new(0.2).printing(true);
        assert!(fairdice::scenario::parse_with_budget("s.yaml", &text, &fifth).is_err());
        assert!(fairdice::scenario::parse_with_budget("s.yaml", &text, &BUDGET).is_err());
        write(root, "big.yaml", &text);
        let mut commands = vec![vec!["eval", "--json", "big.yaml", "--budget", FACTOR]];
        if kind == "dice" {
            commands.push(vec!["roll", "--json", "1100d6", "--budget", FACTOR]);
        }
        for args in commands {
            let peak = run(&args);
            assert!(
                peak - baseline <= json.bytes(),
                "{body}, {args:?}: {:.0} MB over a baseline of {:.0} MB, \
                 over the budget of {:.0} MB",
                peak / 1e6,
                baseline / 1e6,
                json.bytes() / 1e6
            );
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn several_admitted_scenarios_stay_under_the_whole_build_budget() {
    let mut files = vec![(
        "content/_index.md".to_string(),
        "---\ntitle: Home\n---\nHi.\n".to_string(),
    )];
    for (i, (dice, targets)) in BIG.iter().chain(&[("d6", "\"2..50\"")]).enumerate() {
        files.push((format!("content/s{i}.yaml"), scenario(dice, targets)));
    }
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let dir = fixture(&borrowed);
    let root = dir.path();
    let estimated: f64 = files[1..]
        .iter()
        .map(|(path, text)| {
            let parsed = fairdice::scenario::parse_with_budget(path, text, &BUDGET).unwrap();
            parsed.params.cost().bytes
        })
        .sum();
    assert!(
        estimated <= BUDGET.build_bytes() && estimated > 0.9 * BUDGET.build_bytes(),
        "the fixture fills the whole-build budget: {estimated}"
    );
    let eval: Vec<String> = ["eval", "--json", "--budget", FACTOR]
        .into_iter()
        .map(String::from)
        .chain(files[1..].iter().map(|(path, _)| path.clone()))
        .collect();
    let eval: Vec<&str> = eval.iter().map(String::as_str).collect();
    for args in [
        vec!["build", "--budget", FACTOR, "--no-cache"],
        vec!["build", "--budget", FACTOR],
        vec!["check", "--budget", FACTOR],
        eval,
    ] {
        let (code, stderr, peak) = peak_of(&args, root);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(
            peak <= BUDGET.build_bytes(),
            "{args:?}: {:.0} MB, over the whole-build budget of {:.0} MB",
            peak / 1e6,
            BUDGET.build_bytes() / 1e6
        );
    }

    // One more, each admitted alone: refused together, naming them.
    let before = snapshot(&root.join("site"));
    write(root, "content/s9.yaml", &scenario("d6", "\"2..50\""));
    let run = fairdice(&["build", "--budget", FACTOR], root);
    let stderr = run.stderr_text();
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the 5 scenarios are estimated to need"),
        "{stderr}"
    );
    assert!(stderr.contains("content/s1.yaml ("), "{stderr}");
    assert!(stderr.contains("content/s9.yaml ("), "{stderr}");
    assert!(
        stderr.contains("content/s0.yaml (under 1 s, 62 MB)"),
        "{stderr}"
    );
    assert!(stderr.contains("`--budget 1`"), "{stderr}");
    assert_eq!(snapshot(&root.join("site")), before);
    // The advised budget is enough.
    let run = fairdice(&["build", "--budget", "1"], root);
    assert!(run.status.success(), "{}", run.stderr_text());
}

/// Replace the first `{{` of a template by `bomb` and build: the build
/// must stop with `message`, in time, leaving the site as it was.
fn stopped(template: &str, bomb: &str, args: &[&str], message: &str) {
    let dir = good_site();
    let root = dir.path();
    let before = snapshot(&root.join("site"));
    let path = root.join("templates").join(template);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("{{", &format!("{bomb}{{{{"), 1)).unwrap();
    let started = Instant::now();
    let run = fairdice(args, root);
    let stderr = run.stderr_text();
    assert_eq!(run.status.code(), Some(1), "{template}: {stderr}");
    assert!(stderr.contains(message), "{template}: {stderr}");
    assert!(started.elapsed() < Duration::from_secs(20), "{template}");
    assert_eq!(snapshot(&root.join("site")), before, "{template}");
    assert_no_leftovers(root);
}

#[test]
fn a_template_that_never_ends_is_stopped_naming_the_template() {
    let forever = "{% for i in range(end=100000) %}{% for j in range(end=100000) %}\
                   {% if i == j %}.{% endif %}{% endfor %}{% endfor %}";
    stopped(
        "page.html",
        forever,
        &["build", "--budget", "0.1"],
        "error: rendering templates/page.html for the page \"Home\" took more than 1 s \
         and was stopped: look for a loop",
    );
    stopped(
        "scenario.html",
        forever,
        &["check", "--budget", "0.1"],
        "error: rendering templates/scenario.html for the page \"S\" took more than 1 s",
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_template_or_page_that_grows_is_stopped_by_the_memory_limit() {
    // Whichever guard sees it first stops it: the watchdog's sample of the
    // memory in use ("used more than"), or the allocator's check of one
    // request as a buffer doubles ("asked at once for more than").
    let growing = format!(
        "{{% for i in range(end=100000) %}}{{% for j in range(end=100000) %}}{}\
         {{% endfor %}}{{% endfor %}}",
        "grow".repeat(500)
    );
    stopped(
        "page.html",
        &growing,
        &["build", "--budget", "0.1"],
        "more than 102 MB of memory while rendering \
         templates/page.html for the page \"Home\", and was stopped",
    );
    stopped(
        "scenario.html",
        &growing,
        &["build", "--budget", "0.1"],
        "more than 102 MB of memory while rendering templates/scenario.html",
    );

    // Content alone: one table shortcode written many times over.
    let dir = good_site();
    let root = dir.path();
    let before = snapshot(&root.join("site"));
    write(root, "content/wide.yaml", &scenario("d6", "60"));
    let page = "{{ table(scenario=\"wide\", id=\"sums-60\") }}\n\n".repeat(60_000);
    write(
        root,
        "content/copies.md",
        &format!("---\ntitle: Copies\n---\n{page}"),
    );
    let run = fairdice(&["build", "--budget", "0.1"], root);
    let stderr = run.stderr_text();
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("more than 102 MB of memory while rendering"),
        "{stderr}"
    );
    assert!(
        stderr.contains("raise the budget with `--budget"),
        "{stderr}"
    );
    assert_eq!(snapshot(&root.join("site")), before);
    assert_no_leftovers(root);
}
