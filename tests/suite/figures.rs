//! Figures that say what they mean, and the terminal's view of them:
//! `eval` without `--json` prints the tables themselves.

use crate::common::fixture;

#[test]
fn eval_prints_the_tables_aligned_with_exact_and_decimal_forms() {
    let dir = fixture(&[(
        "s.yaml",
        "title: Three targets\nkind: sum-mod\ndice: d6\ntargets: 3\n",
    )]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fairdice"))
        .args(["eval", "s.yaml"])
        .current_dir(dir.path())
        .env("COLUMNS", "120")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("Three targets (s.yaml) [sum-mod]\n"),
        "{text}"
    );
    // 3d6 mod 3: 216 rolls, 72 in each bin, every probability exactly 1/3;
    // totals 3..18 with 1, 3, 6, 10, ... ways (the number of compositions).
    let bins = text.split("[bins-3]\n").nth(1).expect("the bins table");
    let lines: Vec<&str> = bins.lines().take(5).collect();
    assert_eq!(lines[0], "bin  ways  probability  probability (exact)");
    assert_eq!(lines[2], "  0    72     0.333333                  1/3");
    assert_eq!(lines[4], "  2    72     0.333333                  1/3");
    let sums = text.split("[sums-3]\n").nth(1).expect("the sums table");
    assert!(
        sums.contains("\n    3     1   0.00462963                1/216\n"),
        "{sums}"
    );
    assert!(
        sums.contains("\n   10    27        0.125                  1/8\n"),
        "{sums}"
    );
}
