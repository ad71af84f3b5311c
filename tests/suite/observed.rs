//! Observed data (`die-test`, `seat-advantage`): figures checked against
//! independent computations, data files read beside the scenario, and bad
//! data refused with the CSV's file and line, the site left as it was.

use crate::common::{fairdice, good_site, snapshot, write};
use fairdice::build::{self, Project};
use std::path::Path;

fn eval(dir: &Path, scenario: &str) -> serde_json::Value {
    let run = fairdice(&["eval", scenario, "--json", "--quiet"], dir);
    assert!(run.status.success(), "{}", run.stderr_text());
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    json["scenarios"][0]["results"].clone()
}

#[test]
fn the_textbook_die_matches_brute_force_and_published_figures() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "d.yaml",
        "title: T\nkind: die-test\ndie: d6\ncounts: [5, 8, 9, 8, 10, 20]\n",
    );
    let results = eval(dir.path(), "d.yaml");
    assert_eq!(results["rolls"], 60);
    let chi = &results["chi_square"];
    assert!((chi["statistic"].as_f64().unwrap() - 13.4).abs() < 1e-12);
    assert_eq!(chi["df"], 5);
    assert!((chi["p_value"].as_f64().unwrap() - 0.019_905_220_334_774_38).abs() < 1e-12);
    // Enumerating all C(65, 5) = 8,259,888 outcomes with Python's fractions
    // (no grouping of exchangeable faces) gives this fraction.
    assert_eq!(
        results["exact_p_value"],
        "1148519946397127497785675220502817786220067/\
         28283378461047024010024740899175117977812992"
    );
    assert_eq!(results["faces"][5]["observed"], 20);
    assert_eq!(results["faces"][5]["expected"], "1/6");
    assert_eq!(results["faces"][5]["expected_in_interval"], false);
}

#[test]
fn rolls_files_are_read_beside_the_scenario_in_both_shapes() {
    let dir = tempfile::tempdir().unwrap();
    let mut log = String::from("roll\n");
    for (face, times) in [(1, 5), (2, 8), (3, 9), (4, 8), (5, 10), (6, 20)] {
        log.push_str(&format!("{face}\n").repeat(times));
    }
    write(dir.path(), "dice/rolls.csv", &log);
    write(
        dir.path(),
        "dice/counts.csv",
        "face,count\n1,5\n2,8\n3,9\n4,8\n5,10\n6,20\n",
    );
    for file in ["rolls.csv", "counts.csv"] {
        let yaml = format!("title: T\nkind: die-test\ndie: d6\nrolls: {file}\n");
        write(dir.path(), "dice/d.yaml", &yaml);
        let results = eval(dir.path(), "dice/d.yaml");
        assert_eq!(results["rolls"], 60, "{file}");
        assert!((results["chi_square"]["statistic"].as_f64().unwrap() - 13.4).abs() < 1e-12);
    }
}

#[test]
fn a_million_rolls_stream_through() {
    let dir = tempfile::tempdir().unwrap();
    let mut log = String::with_capacity(3_000_000);
    for i in 0..1_000_000u64 {
        log.push_str(&format!("{}\n", i * 7 % 20 + 1));
    }
    write(dir.path(), "rolls.csv", &log);
    write(
        dir.path(),
        "d.yaml",
        "title: T\nkind: die-test\ndie: d20\nrolls: rolls.csv\n",
    );
    let results = eval(dir.path(), "d.yaml");
    assert_eq!(results["rolls"], 1_000_000);
    assert_eq!(results["faces"][0]["observed"], 50_000);
    // Far too many outcomes to enumerate: the chi-square stands in.
    assert!(results["exact_p_value"].is_null());
}

/// Add `files` to a built site; the build must fail with an error starting
/// `location` and containing `message`, and leave `site/` untouched.
fn refused(files: &[(&str, &str)], location: &str, message: &str) {
    let dir = good_site();
    let before = snapshot(&dir.path().join("site"));
    for (path, text) in files {
        write(dir.path(), path, text);
    }
    let err = build::build(&Project::at(dir.path()))
        .expect_err("the build must fail")
        .to_string();
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.starts_with(location) && first.contains(message),
        "expected {location} ... {message}, got:\n{err}"
    );
    assert_eq!(snapshot(&dir.path().join("site")), before, "site changed");
}

/// Files to add, by path.
type Files = Vec<(&'static str, String)>;

fn die(body: &str) -> String {
    format!("title: Die\nkind: die-test\ndie: d6\n{body}")
}

#[test]
fn bad_rolls_are_refused_with_the_csv_file_and_line() {
    let yaml = die("rolls: rolls.csv\n");
    let with = |csv: &'static str| {
        vec![
            ("content/d.yaml", yaml.clone()),
            ("content/rolls.csv", csv.to_string()),
        ]
    };
    let cases: Vec<(Files, &str, &str)> = vec![
        (
            with("1\n2\n7\n"),
            "content/rolls.csv:3:1: ",
            "7 is not a face of this die",
        ),
        (
            with("face,count\n1,4\n2,-3\n"),
            "content/rolls.csv:3:3: ",
            "negative count -3",
        ),
        (
            with("1\n2,3\n"),
            "content/rolls.csv:2:1: ",
            "expected one roll per line",
        ),
        (with("1\nsix\n"), "content/rolls.csv:2:1: ", "found \"six\""),
        (with(""), "content/rolls.csv:1:1: ", "the file has no rows"),
        (
            with("face,count\n1,2,3\n"),
            "content/rolls.csv:2:1: ",
            "found 3 fields",
        ),
        (
            vec![("content/d.yaml", die("rolls: missing.csv\n"))],
            "content/d.yaml:4:8: ",
            "no file missing.csv",
        ),
        (
            vec![("content/d.yaml", die("rolls: ../outside.csv\n"))],
            "content/d.yaml:4:8: ",
            "inside the project",
        ),
        (
            vec![("content/d.yaml", die("rolls: rolls.txt\n"))],
            "content/d.yaml:4:8: ",
            "expected a CSV file",
        ),
        (
            vec![("content/d.yaml", die("counts: [1, 2, -3, 4, 5, 6]\n"))],
            "content/d.yaml:4:16: ",
            "negative count -3",
        ),
        (
            vec![("content/d.yaml", die("counts: [1, 2, 3]\n"))],
            "content/d.yaml:4:9: ",
            "3 counts for a die with 6 different faces",
        ),
        (
            vec![
                (
                    "content/d.yaml",
                    die("counts: [1, 2, 3, 4, 5, 6]\nrolls: rolls.csv\n"),
                ),
                ("content/rolls.csv", "1\n".into()),
            ],
            "content/d.yaml:5:8: ",
            "not both",
        ),
    ];
    for (files, location, message) in cases {
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
        refused(&files, location, message);
    }
}

#[test]
fn an_oversize_rolls_file_is_refused() {
    let big = "1\n".repeat(25_000_001);
    refused(
        &[
            ("content/d.yaml", &die("rolls: rolls.csv\n")),
            ("content/rolls.csv", &big),
        ],
        "content/rolls.csv:1:1: ",
        "at most 50 MB",
    );
}

#[test]
fn a_link_out_of_the_project_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.csv", "1\n2\n");
    let dir = good_site();
    let before = snapshot(&dir.path().join("site"));
    write(dir.path(), "content/d.yaml", &die("rolls: rolls.csv\n"));
    std::os::unix::fs::symlink(
        outside.path().join("secret.csv"),
        dir.path().join("content/rolls.csv"),
    )
    .unwrap();
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("outside the content folder"), "{err}");
    assert_eq!(snapshot(&dir.path().join("site")), before);
}

#[test]
fn gates_read_the_test_figures() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "content/_index.md", "# Dice\n");
    write(
        dir.path(),
        "content/d.yaml",
        &die("counts: [5, 8, 9, 8, 10, 20]\nexpect:\n  chi_square.p_value: \"> 0.01\"\n  exact_p_value: \"> 0.05\"\n  faces.expected_in_interval: true\n"),
    );
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("content/d.yaml:7:18: expect: case 1 (rolls 60): exact_p_value is 1148519946397127497785675220502817786220067/28283378461047024010024740899175117977812992 (about 0.0406"), "{err}");
    assert!(
        err.contains("faces[6].expected_in_interval is false"),
        "{err}"
    );
    assert!(!err.contains("chi_square.p_value"), "{err}");
}

fn seats(body: &str) -> String {
    format!("title: Seats\nkind: seat-advantage\n{body}")
}

#[test]
fn seat_p_values_match_scipy_and_turn_order_counts_from_the_first_player() {
    let dir = tempfile::tempdir().unwrap();
    // 120 three-player games; seat 2 went first in every one and won 29,
    // seat 3 won 38 and seat 1 won 53: by turn order 29, 38, 53.
    let mut log = String::from("players,first,winner\n");
    for (seat, times) in [(2, 29), (3, 38), (1, 53)] {
        log.push_str(&format!("3,2,{seat}\n").repeat(times));
    }
    write(dir.path(), "games.csv", &log);
    write(dir.path(), "s.yaml", &seats("games: games.csv\n"));
    let results = eval(dir.path(), "s.yaml");
    let table = &results["by_players"][0];
    assert_eq!(table["players"], 3);
    let wins: Vec<u64> = (0..3)
        .map(|i| table["seats"][i]["wins"].as_u64().unwrap())
        .collect();
    assert_eq!(wins, [29, 38, 53]);
    // scipy.stats.binomtest(29, 120, 1/3).pvalue = 0.03318519090838292
    let p =
        fairdice::engine::parse_fraction(table["seats"][0]["p_value"].as_str().unwrap()).unwrap();
    assert!((fairdice::engine::to_f64(&p) - 0.033_185_190_908_382_92).abs() < 1e-12);
    assert_eq!(table["seats"][0]["fair_share"], "1/3");
    assert_eq!(table["seats"][0]["fair_share_in_interval"], false);
}

#[test]
fn bad_games_are_refused_with_the_csv_file_and_line() {
    let yaml = seats("games: games.csv\n");
    let with = |csv: &str| {
        vec![
            ("content/s.yaml", yaml.clone()),
            ("content/games.csv", csv.to_string()),
        ]
    };
    let cases: Vec<(Files, &str, &str)> = vec![
        (
            with("players,winner\n4,2\n4,5\n"),
            "content/games.csv:3:3: ",
            "seat 5 is beyond the 4 players",
        ),
        (
            with("players,winner,first\n4,2,9\n"),
            "content/games.csv:2:5: ",
            "seat 9 is beyond",
        ),
        (
            with("players,winner\n4,two\n"),
            "content/games.csv:2:3: ",
            "found \"two\"",
        ),
        (
            with("players,winner\n4\n"),
            "content/games.csv:2:1: ",
            "expected 2 fields",
        ),
        (
            with("players,seat\n"),
            "content/games.csv:1:9: ",
            "unknown column \"seat\"",
        ),
        (with(""), "content/games.csv:1:1: ", "the file is empty"),
        (
            with("players,winner\n"),
            "content/games.csv:1:1: ",
            "no games",
        ),
        (
            vec![("content/s.yaml", seats("wins: {3: [1, 2]}\n"))],
            "content/s.yaml:3:7: ",
            "2 counts for 3 players",
        ),
        (
            vec![("content/s.yaml", seats("wins: {2: [1, -2]}\n"))],
            "content/s.yaml:3:",
            "negative count -2",
        ),
    ];
    for (files, location, message) in cases {
        let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
        refused(&files, location, message);
    }
}

#[test]
fn a_seat_gate_fails_when_the_games_show_an_advantage() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "content/_index.md", "# Games\n");
    write(
        dir.path(),
        "content/s.yaml",
        &seats("wins: {2: [97, 59], 3: [10, 10, 10]}\nexpect:\n  by_players.seats.fair_share_in_interval: true\n"),
    );
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("by_players[1].seats[1].fair_share_in_interval is false"),
        "{err}"
    );
    assert!(
        err.contains("by_players[1].seats[2].fair_share_in_interval is false"),
        "{err}"
    );
    assert!(!err.contains("by_players[2]"), "{err}");
}
