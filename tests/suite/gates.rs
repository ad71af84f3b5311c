//! Fairness gates end to end: `expect:` in a scenario, the build failing
//! with the scenario, case and figure, and `fairdice check`.

use crate::common::{fairdice, fixture, write};

/// The seed cases: 2 and 3 targets are exactly uniform, 10 is not.
const SEED: &str = "title: Seed\nkind: sum-mod\ndice: d6\ntargets: [2, 3, 10]\n";

/// Ways per bin of 10d6 mod 10, by dynamic programming over the dice.
fn ten_d6_bins() -> Vec<u128> {
    let mut ways = vec![1u128];
    for _ in 0..10 {
        let mut next = vec![0u128; ways.len() + 6];
        for (total, w) in ways.iter().enumerate() {
            for face in 1..=6 {
                next[total + face] += w;
            }
        }
        ways = next;
    }
    let mut bins = vec![0u128; 10];
    for (total, w) in ways.iter().enumerate() {
        bins[total % 10] += w;
    }
    bins
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// max over bins of |ways/6^10 - 1/10|, as a reduced "p/q".
fn ten_d6_max_abs_deviation() -> (String, f64) {
    let total = 6u128.pow(10);
    let numer = ten_d6_bins()
        .iter()
        .map(|&w| (10 * w).abs_diff(total))
        .max()
        .unwrap();
    let denom = 10 * total;
    let g = gcd(numer, denom);
    (
        format!("{}/{}", numer / g, denom / g),
        numer as f64 / denom as f64,
    )
}

#[test]
fn a_gate_that_holds_lets_the_build_pass() {
    let scenario = format!(
        "{SEED}expect:\n  max_abs_deviation: \"< 1/1000\"\n  tvd: \"<= 0.001\"\n  total_outcomes: \">= 36\"\n"
    );
    let dir = fixture(&[("content/seed.yaml", &scenario)]);
    let out = fairdice(&["build"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr_text());
    assert!(dir.path().join("site/seed.html").is_file());
}

#[test]
fn a_gate_that_fails_names_the_file_case_figure_value_and_bound() {
    let scenario = format!("{SEED}expect:\n  max_abs_deviation: \"< 1/10000\"\n");
    let dir = fixture(&[("content/dice/seed.yaml", &scenario)]);
    let out = fairdice(&["build"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let (exact, approx) = ten_d6_max_abs_deviation();
    assert!(approx > 1e-4 && approx < 1e-3, "{approx}");
    let about =
        ::fairdice::layout::format::decimal(&::fairdice::engine::parse_fraction(&exact).unwrap());
    assert_eq!(
        out.stderr_text().trim(),
        format!(
            "error: content/dice/seed.yaml:6:22: expect: case 3 (targets 10): \
             max_abs_deviation is {exact} (about {about}), which is not < 1/10000"
        )
    );
    assert!(
        !dir.path().join("site").exists(),
        "a failed gate writes nothing"
    );
}

#[test]
fn uniform_fails_once_per_biased_case() {
    let scenario =
        "title: Sweep\nkind: sum-mod\ndice: d6\ntargets: [2, 3, 4, 6]\nexpect:\n  uniform: true\n";
    let dir = fixture(&[("content/sweep.yaml", scenario)]);
    let out = fairdice(&["build"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    // 4d6 mod 4 is the only biased case: 2, 3 and 6 divide six.
    assert_eq!(
        out.stderr_text().trim(),
        "error: content/sweep.yaml:6:12: expect: case 3 (targets 4): uniform is false, expected true"
    );
}

#[test]
fn malformed_gates_are_located_when_the_file_is_read() {
    let dir = fixture(&[(
        "content/bad.yaml",
        &format!("{SEED}expect:\n  tvd: \"about 0\"\n"),
    )]);
    let out = fairdice(&["build"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let stderr = out.stderr_text();
    assert!(
        stderr.starts_with("error: content/bad.yaml:6:8: expect.tvd: expected a comparison"),
        "{stderr}"
    );
    let dir = fixture(&[(
        "content/bad.yaml",
        &format!("{SEED}expect:\n  tvd: 0.001\n"),
    )]);
    let stderr = fairdice(&["build"], dir.path()).stderr_text();
    assert!(stderr.contains("content/bad.yaml:6:8: "), "{stderr}");
    assert!(stderr.contains("compared exactly"), "{stderr}");
}

#[test]
fn an_unknown_figure_lists_the_figures_of_the_kind() {
    let dir = fixture(&[(
        "content/s.yaml",
        &format!("{SEED}expect:\n  bias: \"< 1\"\n"),
    )]);
    let stderr = fairdice(&["build"], dir.path()).stderr_text();
    assert!(
        stderr.contains(
            "case 1 (targets 2): no figure `bias` in the results; this kind exposes \
             count, max_abs_deviation, max_min_ratio, sides, targets, total_outcomes, tvd, uniform"
        ),
        "{stderr}"
    );
}

#[test]
fn check_reports_failed_gates_and_a_stale_site_together() {
    let holds = format!("{SEED}expect:\n  max_abs_deviation: \"< 1/1000\"\n");
    let dir = fixture(&[("content/s.yaml", &holds)]);
    assert_eq!(fairdice(&["build"], dir.path()).status.code(), Some(0));
    let out = fairdice(&["check"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr_text());
    assert!(
        out.stderr_text()
            .starts_with("checked ./site: 0 pages, 1 scenario (1 computed, 0 cached)"),
        "{}",
        out.stderr_text()
    );

    let retitled = SEED.replace("title: Seed", "title: Seeds");
    write(
        dir.path(),
        "content/s.yaml",
        &format!("{retitled}expect:\n  uniform: true\n"),
    );
    let out = fairdice(&["check"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let stderr = out.stderr_text();
    assert!(
        stderr.contains("error: content/s.yaml:6:12: expect: case 3 (targets 10): uniform is false, expected true"),
        "{stderr}"
    );
    // The site was built without the gate block, so it is also stale.
    assert!(stderr.contains("stale: ./site/s.html"), "{stderr}");
    assert!(stderr.contains("differs from a fresh build"), "{stderr}");
}

#[test]
fn eval_applies_the_gates_too() {
    let dir = fixture(&[("s.yaml", &format!("{SEED}expect:\n  uniform: true\n"))]);
    let out = fairdice(&["eval", "s.yaml", "--json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(!out.stdout.is_empty(), "results are still printed");
    assert_eq!(
        out.stderr_text().trim(),
        "error: s.yaml:6:12: expect: case 3 (targets 10): uniform is false, expected true"
    );
}
