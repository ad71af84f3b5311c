//! The command line: exit codes, stderr, and the JSON contract of `eval`.

use std::process::Command;

fn fairdice(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_fairdice"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn eval_prints_the_json_contract() {
    let dir = crate::common::fixture(&[(
        "s.yaml",
        "title: Seed\nkind: sum-mod\ndice: d6\ntargets: [2, 3, 10]\n",
    )]);
    let out = fairdice(&["eval", "s.yaml", "--json"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let scenario = &doc["scenarios"][0];
    assert_eq!(scenario["file"], "s.yaml");
    assert_eq!(scenario["title"], "Seed");
    assert_eq!(scenario["kind"], "sum-mod");
    let cases = scenario["results"]["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 3);
    assert_eq!(cases[0]["fairness"]["uniform"], true);
    assert_eq!(
        cases[1]["bins"][2],
        serde_json::json!({"bin": 2, "ways": "72", "probability": "1/3"})
    );
    let ten = &cases[2];
    assert_eq!(ten["dice"], serde_json::json!({"count": 10, "sides": 6}));
    assert_eq!(ten["total_outcomes"], "60466176");
    assert_eq!(
        ten["sums"][25],
        serde_json::json!({"total": 35, "ways": "4395456", "probability": reduced(4395456, 60466176)})
    );
    assert_eq!(ten["fairness"]["uniform"], false);
    assert_eq!(ten["fairness"]["max_min_ratio"], reduced(6061868, 6031368));
}

/// p/q reduced, computed independently of the library.
fn reduced(p: u64, q: u64) -> String {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    let g = gcd(p, q);
    format!("{}/{}", p / g, q / g)
}

#[test]
fn errors_go_to_stderr_with_exit_code_1() {
    let dir = crate::common::fixture(&[(
        "bad.yaml",
        "title: Bad\nkind: sum-mod\ndice: 2x6\ntargets: 3\n",
    )]);
    let out = fairdice(&["eval", "bad.yaml", "--json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.trim(),
        "error: bad.yaml:3:7: dice: expected dice like \"d6\" or \"2d6\", found \"2x6\"; \
         column 2: unexpected `x`: expected an operator (+ - * % or a comparison such as >=) or the end"
    );
}

#[test]
fn build_check_exits_1_on_a_stale_site() {
    let dir = crate::common::fixture(&[("content/_index.md", "# Home\n")]);
    let out = fairdice(&["build", "--check"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing: ./site/index.html"));
    assert!(fairdice(&["build"], dir.path()).status.success());
    let out = fairdice(&["build", "--check"], dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn help_describes_the_commands() {
    let out = fairdice(&["--help"], std::path::Path::new("."));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    for command in ["build", "eval"] {
        assert!(text.contains(command), "{text}");
    }
}

// eval --json writes its document by hand around each streamed contract:
// it must be exactly serde_json's pretty form of the same document, for
// several scenarios and titles that need escaping.
#[test]
fn eval_json_is_serde_jsons_pretty_form_of_its_document() {
    let dir = crate::common::fixture(&[
        (
            "a.yaml",
            "title: \"Quotes \\\" and \\\\ and ünïcode\"\nkind: sum-mod\ndice: 2d6\ntargets: [2, 3]\n",
        ),
        ("b.yaml", "title: Rolls\nkind: dice\nrolls:\n  x: \"4d6kh3\"\n  y: \"3d6\"\n"),
    ]);
    for files in [vec!["a.yaml"], vec!["a.yaml", "b.yaml"]] {
        let mut args = vec!["eval", "--json", "--quiet"];
        args.extend(&files);
        let out = fairdice(&args, dir.path());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let printed = String::from_utf8(out.stdout).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&printed).unwrap();
        assert_eq!(doc["scenarios"].as_array().unwrap().len(), files.len());
        assert_eq!(doc["scenarios"][0]["title"], "Quotes \" and \\ and ünïcode");
        assert_eq!(printed, serde_json::to_string_pretty(&doc).unwrap() + "\n");
    }
}

/// ESC, CR and BEL from an expression, a YAML file or an argument reach
/// the terminal escaped (`\u{1b}`, `\r`), in errors and in results alike,
/// never raw (issue 27).
#[test]
fn control_characters_in_user_text_are_printed_escaped() {
    let raw = |bytes: &[u8]| bytes.iter().any(|b| [0x1b, b'\r', 0x07].contains(b));
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let dir = crate::common::fixture(&[
        (
            "good.yaml",
            "title: \"Good\\e]0;title\\a\"\nkind: dice\nrolls:\n  two: \"2d6\\r+1\"\n",
        ),
        (
            "bad.yaml",
            "title: Bad\nkind: dice\nrolls:\n  three: \"3d6\\e[2J\"\n",
        ),
    ]);
    let runs: [(&[&str], i32, &str); 5] = [
        (&["roll", "3d6\u{1b}[31m"], 1, "`3d6\\u{1b}[31m`, column 4"),
        (&["roll", "2d6\r+1"], 0, "2d6\\r+1"),
        (&["eval", "good.yaml"], 0, "Good\\u{1b}]0;title\\u{7}"),
        (&["eval", "bad.yaml"], 1, "`3d6\\u{1b}[2J`, column 4"),
        (&["roll", "--explode-depth", "4\r", "d6!"], 2, "'4\\r'"),
    ];
    for (args, code, shown) in runs {
        let out = fairdice(args, dir.path());
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(
            !raw(&out.stdout) && !raw(&out.stderr),
            "{args:?}: {stdout:?} {stderr:?}"
        );
        assert!(
            stdout.contains(shown) || stderr.contains(shown),
            "{args:?}: {stdout} {stderr}"
        );
    }
}
