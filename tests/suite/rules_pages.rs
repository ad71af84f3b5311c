//! The rules pages quote their figures by list index into scenario results;
//! these tests make sure every quote resolves and still points at the case
//! the sentence around it describes, and check the claims the prose makes.

use fairdice::layout::ScenarioPage;
use fairdice::scenario;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

const SECTION: &str = "content/rules";

/// Every scenario of the section, analysed, by shortcode name.
fn reports() -> BTreeMap<String, ScenarioPage> {
    let mut reports = BTreeMap::new();
    for entry in fs::read_dir(SECTION).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yaml") {
            let relative = path.strip_prefix("content").unwrap().to_str().unwrap();
            let text = fs::read_to_string(&path).unwrap();
            let parsed = scenario::parse(relative, &text).unwrap_or_else(|e| panic!("{e}"));
            reports.insert(
                parsed.name.clone(),
                parsed
                    .params
                    .analyse(&fairdice::progress::Progress::hidden())
                    .page(&fairdice::layout::Alone),
            );
        }
    }
    reports
}

/// `(shortcode, {argument: value})` for every `{{ name(k="v", ...) }}`.
fn shortcodes(text: &str) -> Vec<(String, BTreeMap<String, String>)> {
    let mut found = Vec::new();
    for piece in text.split("{{").skip(1) {
        let inner = piece.split("}}").next().unwrap().trim();
        let (name, args) = inner.split_once('(').expect("shortcode with arguments");
        let args = args.trim_end_matches(')');
        let map = args
            .split(',')
            .map(|pair| {
                let (k, v) = pair.split_once('=').expect("key=\"value\"");
                (k.trim().to_string(), v.trim().trim_matches('"').to_string())
            })
            .collect();
        found.push((name.trim().to_string(), map));
    }
    found
}

fn at<'a>(results: &'a Value, path: &str) -> &'a Value {
    path.split('.')
        .fold(results, |v, key| match key.parse::<usize>() {
            Ok(i) => &v[i],
            Err(_) => &v[key],
        })
}

fn pages() -> Vec<(String, String)> {
    fs::read_dir(SECTION)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| (p.display().to_string(), fs::read_to_string(&p).unwrap()))
        .collect()
}

#[test]
fn every_shortcode_of_the_rules_pages_resolves() {
    let reports = reports();
    let mut count = 0;
    for (page, text) in pages() {
        assert!(text.starts_with("---\ntitle: "), "{page}: front matter");
        for (name, args) in shortcodes(&text) {
            if name == "rule" {
                continue; // cross-references: checked by every build
            }
            let report = &reports[&args["scenario"]];
            let ok = match name.as_str() {
                "value" => !at(&report.results, &args["path"]).is_null(),
                "table" => report.table(&args["id"]).is_some(),
                "chart" => report.chart(&args["id"]).is_some(),
                other => panic!("{page}: unknown shortcode {other}"),
            };
            assert!(ok, "{page}: {name} {args:?} does not resolve");
            count += 1;
        }
    }
    assert!(count > 30, "only {count} shortcodes found");
    assert!(Path::new(SECTION).join("_index.md").exists());
}

/// What each list entry quoted by the pages must be: the keys that identify it.
fn described() -> BTreeMap<(&'static str, &'static str), Value> {
    let dice = |count: u64, sides: u64| json!({"count": count, "sides": sides});
    let fp =
        |players: u64, d: Value, ties: &str| json!({"players": players, "dice": d, "ties": ties});
    let rr =
        |cards: u64, die: u64, scheme: &str| json!({"cards": cards, "die": die, "scheme": scheme});
    BTreeMap::from([
        (
            ("rules/first-player", "cases.0"),
            fp(2, dice(2, 6), "reroll-all"),
        ),
        (
            ("rules/first-player", "cases.6"),
            fp(2, dice(1, 20), "reroll-all"),
        ),
        (
            ("rules/first-player", "cases.32"),
            fp(6, dice(2, 6), "reroll-all"),
        ),
        (
            ("rules/first-player", "cases.33"),
            fp(6, dice(2, 6), "reroll-tied"),
        ),
        (
            ("rules/first-player", "fastest.9"),
            json!({"players": 6, "ties": "reroll-tied"}),
        ),
        (("rules/banishing", "cases.73"), rr(5, 20, "multi-face")),
        (("rules/banishing", "cases.75"), rr(6, 6, "one-face")),
        (("rules/banishing", "cases.93"), rr(7, 8, "one-face")),
        (("rules/banishing", "cases.95"), rr(7, 8, "mod")),
        (
            ("rules/banishing", "banish.31"),
            json!({"cards": 7, "die": 8}),
        ),
        (
            ("rules/banishing", "banish.35"),
            json!({"cards": 7, "die": "best"}),
        ),
        (
            ("rules/shuffling", "riffles_needed.1"),
            json!({"cards": 11, "tvd_at_most": "1/4"}),
        ),
        (
            ("rules/shuffling", "riffles_needed.2"),
            json!({"cards": 11, "tvd_at_most": "1/10"}),
        ),
        (
            ("rules/shuffling", "riffles_needed.6"),
            json!({"cards": 52, "tvd_at_most": "1/2"}),
        ),
        (
            ("rules/shuffling", "cases.0"),
            json!({"cards": 11, "riffles": 1}),
        ),
        (
            ("rules/shuffling", "cases.1"),
            json!({"cards": 11, "riffles": 2}),
        ),
    ])
}

#[test]
fn quoted_indices_point_at_the_cases_the_text_describes() {
    let reports = reports();
    let described = described();
    for ((scenario, entry), identity) in &described {
        let found = at(&reports[*scenario].results, entry);
        for (key, expected) in identity.as_object().unwrap() {
            assert_eq!(&found[key], expected, "{scenario} {entry}.{key}");
        }
    }
    // And the pages quote no list entry that is not described above.
    for (page, text) in pages() {
        for (name, args) in shortcodes(&text) {
            if name != "value" {
                continue;
            }
            let parts: Vec<&str> = args["path"].split('.').collect();
            let entry = format!("{}.{}", parts[0], parts[1]);
            assert!(
                described.contains_key(&(args["scenario"].as_str(), entry.as_str())),
                "{page}: {} {entry} is quoted but not described in this test",
                args["scenario"]
            );
        }
    }
}

#[test]
fn the_prose_claims_hold() {
    let reports = reports();
    let fp = &reports["rules/first-player"].results;
    let rational = |v: &Value| -> f64 {
        let (p, q) = v.as_str().unwrap().split_once('/').unwrap();
        p.parse::<f64>().unwrap() / q.parse::<f64>().unwrap()
    };
    // "the die that settles the start fastest is the one with the most faces"
    for row in fp["fastest"].as_array().unwrap() {
        assert_eq!(row["dice"]["sides"], 20, "{row}");
    }
    // "only the tied players roll again ends sooner" with more than two players;
    // "the two tie rules are the same thing" with two.
    let cases = fp["cases"].as_array().unwrap();
    for pair in cases.chunks(2) {
        let (all, tied) = (&pair[0], &pair[1]);
        assert_eq!(
            (all["ties"].as_str(), tied["ties"].as_str()),
            (Some("reroll-all"), Some("reroll-tied"))
        );
        if all["players"] == 2 {
            assert_eq!(all["expected_rounds"], tied["expected_rounds"]);
        } else {
            assert!(rational(&tied["expected_rounds"]) < rational(&all["expected_rounds"]));
        }
    }
    // "every card is exactly equally likely, whatever die is used"
    let rr = &reports["rules/banishing"].results;
    for case in rr["cases"].as_array().unwrap() {
        if case["scheme"] != "mod" && case["feasible"] == true {
            assert_eq!(case["uniform"], true, "{case}");
        }
    }
    // "a shuffle is never exactly fair ... larger piles need more riffles"
    let sh = &reports["rules/shuffling"].results;
    for case in sh["cases"].as_array().unwrap() {
        assert_ne!(case["tvd"], "0/1");
    }
    let needed = sh["riffles_needed"].as_array().unwrap();
    for pair in needed
        .windows(4)
        .filter(|w| w[0]["tvd_at_most"] == w[3]["tvd_at_most"])
    {
        assert!(pair[0]["riffles"].as_u64() <= pair[3]["riffles"].as_u64());
    }
}
