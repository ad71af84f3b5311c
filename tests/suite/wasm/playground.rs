//! The dice playground in the browser: rolls typed or given in the
//! address, computed by the engine in the page and compared with `fairdice
//! eval`; what a reader sees of a roll the engine refuses.

use super::{rolls, site, Browser};
use fairdice::calculator::{self, Response};
use serde_json::{json, Value};
use std::process::Command;

/// The playground's address for these expressions, from `file://`.
pub(super) fn playground_url(expressions: &[&str]) -> String {
    let mut url = format!("file://{}", site().join("playground.html").display());
    for (i, expression) in expressions.iter().enumerate() {
        url.push(if i == 0 { '?' } else { '&' });
        url.push_str("roll=");
        for byte in expression.bytes() {
            if byte.is_ascii_alphanumeric() || b"-_.~".contains(&byte) {
                url.push(byte as char);
            } else {
                url.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    url
}

/// Script: wait until the playground shows an answer (after `action`, run
/// first); returns its state, message, YAML, address and every row of
/// each roll's distribution table as [data-value, data-probability].
pub(super) fn playground_answer(action: &str) -> String {
    format!(
        r##"new Promise(function (resolve) {{
  var form = document.querySelector("form.playground");
  {action}
  (function poll() {{
    var state = form.getAttribute("data-state");
    if (state !== "done" && state !== "refused") return setTimeout(poll, 20);
    var tables = document.querySelectorAll('#scenario-results [id^="table-roll-"]');
    resolve({{
      state: state,
      status: form.querySelector(".calculator-status").textContent,
      problems: Array.prototype.map.call(form.querySelectorAll(".calculator-status li"), function (li) {{
        return li.textContent;
      }}),
      invalid: form.elements.rolls.getAttribute("aria-invalid"),
      yaml: form.querySelector(".calculator-yaml").textContent,
      search: location.search,
      tables: Array.prototype.map.call(tables, function (table) {{
        return Array.prototype.map.call(table.querySelectorAll("tr[data-value]"), function (tr) {{
          return [tr.getAttribute("data-value"), tr.getAttribute("data-probability")];
        }});
      }})
    }});
  }})();
}})"##
    )
}

/// `fairdice eval --json` of a scenario file's text: each roll's outcomes
/// as [value, probability].
fn eval_rolls(yaml: &str) -> Vec<Vec<[String; 2]>> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("playground.yaml");
    std::fs::write(&file, yaml).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_fairdice"))
        .args(["eval", "--json", "--quiet"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    json["scenarios"][0]["results"]["rolls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|roll| {
            roll["outcomes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| {
                    [
                        o["value"].to_string(),
                        o["probability"].as_str().unwrap().to_string(),
                    ]
                })
                .collect()
        })
        .collect()
}

#[test]
fn the_playground_opens_computed_and_every_row_matches_eval() {
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    let expressions = [
        "4d6kh3",
        "2d20kh1",
        "3d6!",
        "8d10>=7",
        "d{1,1,2,3}*2 - d4",
        "max(d6, d8) + 2",
        "4dF",
        "5d6 % 5",
        "4d6ro1dl1",
        "2d6rr<3",
    ];
    let session = browser.open_url(&playground_url(&expressions));
    let shown = browser.eval(&session, &playground_answer(""));
    assert_eq!(shown["state"], "done", "{shown}");
    let yaml = shown["yaml"].as_str().unwrap();
    let rolls: Value = serde_yaml::from_str::<Value>(yaml).unwrap()["rolls"].clone();
    let written: Vec<&str> = rolls
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(written, expressions, "the YAML holds the address's rolls");

    let in_browser: Vec<Vec<[String; 2]>> =
        serde_json::from_value(shown["tables"].clone()).unwrap();
    let native = eval_rolls(yaml);
    assert_eq!(in_browser.len(), expressions.len());
    assert_eq!(in_browser, native);
    // Spot checks against figures known by hand.
    assert_eq!(native[0][0], ["3".to_string(), "1/1296".to_string()]);
    assert_eq!(native[3].len(), 9, "0 to 8 successes");
    assert_eq!(browser.complaints(&session), Vec::<String>::new());

    // Typing new rolls recomputes them and puts them in the address.
    let shown = browser.eval(
        &session,
        &playground_answer(
            r#"form.elements.rolls.value = "2d6\n1d12"; form.dispatchEvent(new Event("submit", { cancelable: true }));"#,
        ),
    );
    assert_eq!(shown["state"], "done", "{shown}");
    assert_eq!(shown["search"], "?roll=2d6&roll=1d12");
    assert_eq!(shown["tables"][0][5], json!(["7", "1/6"]));
    assert_eq!(shown["tables"][1].as_array().unwrap().len(), 12);
    assert_eq!(browser.complaints(&session), Vec::<String>::new());

    // The explode depth is the form's and the address's: d6! exploding
    // once tops out at 12, and the address carries the depth.
    let shown = browser.eval(
        &session,
        &playground_answer(
            r#"form.elements.rolls.value = "d6!"; form.elements.explode_depth.value = "1"; form.dispatchEvent(new Event("submit", { cancelable: true }));"#,
        ),
    );
    assert_eq!(shown["state"], "done", "{shown}");
    assert_eq!(shown["search"], "?roll=d6%21&depth=1");
    let rows = shown["tables"][0].as_array().unwrap();
    assert_eq!(rows.last().unwrap(), &json!(["12", "1/36"]));
    assert!(
        shown["yaml"].as_str().unwrap().contains("explode_depth: 1"),
        "{shown}"
    );
    assert_eq!(browser.complaints(&session), Vec::<String>::new());
}

#[test]
fn a_bad_expression_shows_its_error_inline_with_no_console_error() {
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    let session = browser.open_url(&playground_url(&["4d6kh5"]));
    let shown = browser.eval(&session, &playground_answer(""));
    assert_eq!(shown["state"], "refused", "{shown}");
    assert_eq!(shown["invalid"], "true");
    let status = shown["status"].as_str().unwrap();
    assert_eq!(
        status,
        "Line 1: `4d6kh5`, column 4: cannot keep 5 of 4 dice"
    );
    // Issue 41, item 7d: every bad line shows at once, each by its line's
    // number, never the engine's key ("rolls.4d6kh5: ..."); good lines
    // between them, a blank line and a roll written twice change nothing.
    let shown = browser.eval(
        &session,
        &playground_answer(
            r#"form.elements.rolls.value = "3d6\n4d6kh5\n\n2d0\n3d6\nfoo bar\n2d0\n1d20";
               form.dispatchEvent(new Event("submit", { cancelable: true }));"#,
        ),
    );
    assert_eq!(shown["state"], "refused", "{shown}");
    assert_eq!(shown["invalid"], "true");
    let problems: Vec<&str> = shown["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(
        problems,
        [
            "Line 2: `4d6kh5`, column 4: cannot keep 5 of 4 dice",
            "Line 4: `2d0`, column 2: d0 has no faces: a die needs at least one face, as in d6",
            "Line 6: `foo bar`, column 1: unknown name `foo`: expected dice such as 3d6, or max, \
             min, abs, floor, ceil, round or pairs",
        ],
        "{shown}"
    );
    assert!(
        shown["status"]
            .as_str()
            .unwrap()
            .starts_with("3 lines cannot be read:"),
        "{shown}"
    );
    assert!(
        !shown["status"].as_str().unwrap().contains("rolls."),
        "{shown}"
    );
    // The depth's message names the field as the form labels it.
    let shown = browser.eval(
        &session,
        &playground_answer(
            r#"form.elements.rolls.value = "d6!"; form.elements.explode_depth.value = "99";
               form.dispatchEvent(new Event("submit", { cancelable: true }));"#,
        ),
    );
    assert_eq!(
        shown["status"], "Explode depth: 99 extra rolls: at most 20 are allowed",
        "{shown}"
    );
    // A roll over the build's budget gets the build's message.
    let shown = browser.eval(
        &session,
        &playground_answer(
            r#"form.elements.rolls.value = "100000d1000"; form.elements.explode_depth.value = "3"; form.dispatchEvent(new Event("submit", { cancelable: true }));"#,
        ),
    );
    assert_eq!(shown["state"], "refused", "{shown}");
    let status = shown["status"].as_str().unwrap();
    let Response::Refused { message, .. } =
        calculator::answer(&calculator::Call::Playground(rolls("100000d1000")))
    else {
        panic!("100000d1000 computed natively")
    };
    assert_eq!(status, message);
    assert!(status.contains("budget"), "{status}");
    assert_eq!(browser.complaints(&session), Vec::<String>::new());
}

/// Issue 40, item 3: the playground reads an AnyDice program as well as
/// rolls, with the AnyDice engine, and the address keeps the program.
#[test]
fn an_anydice_program_is_computed_in_the_playground() {
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    let session = browser.open_url(&playground_url(&["3d6"]));
    let shown = browser.eval(
        &session,
        &playground_answer(
            r#"form.elements.rolls.value = "X: 2d6\noutput X named \"two\"\noutput [highest 1 of 2d20]";
               form.dispatchEvent(new Event("submit", { cancelable: true }));"#,
        ),
    );
    assert_eq!(shown["state"], "done", "{shown}");
    assert!(
        shown["search"]
            .as_str()
            .unwrap()
            .starts_with("?program=X%3A+2d6"),
        "{shown}"
    );
    assert!(
        shown["yaml"]
            .as_str()
            .unwrap()
            .contains("kind: \"anydice\""),
        "{shown}"
    );
    // 2d6: 7 in 6 of 36; the better of two d20s: 20 in 39 of 400.
    assert_eq!(shown["tables"][0][5], json!(["7", "1/6"]));
    assert_eq!(shown["tables"][1][19], json!(["20", "39/400"]));
    assert_eq!(browser.complaints(&session), Vec::<String>::new());
    // A program AnyDice refuses is refused at its line and column.
    let shown = browser.eval(
        &session,
        &playground_answer(
            r#"form.elements.rolls.value = "output [nope]";
               form.dispatchEvent(new Event("submit", { cancelable: true }));"#,
        ),
    );
    assert_eq!(shown["state"], "refused", "{shown}");
    assert_eq!(shown["invalid"], "true");
    let status = shown["status"].as_str().unwrap();
    assert!(status.contains("line 1, column 8"), "{status}");
    assert_eq!(browser.complaints(&session), Vec::<String>::new());
}
