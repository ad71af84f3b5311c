//! A one-line verdict read off any kind's exact results, for the top of a
//! report: whether the cases are exactly fair, or whether a race has an
//! unbeaten list. Kinds with figures of their own say less here than on
//! their page; this only reads the figures the gates can name.

use crate::gates;
use serde_json::Value;

/// One sentence saying what the results show.
pub fn verdict(results: &Value) -> String {
    let cases = gates::cases(results);
    let figures: Vec<_> = cases.iter().map(|case| gates::case_figures(case)).collect();
    let uniform: Vec<bool> = figures
        .iter()
        .filter_map(|f| f.get("uniform").and_then(|v| v.as_bool()))
        .collect();
    let cases_word = |n: usize| if n == 1 { "case" } else { "cases" };
    if !uniform.is_empty() {
        let n = uniform.len();
        let fair = uniform.iter().filter(|u| **u).count();
        return match fair {
            k if k == n && n == 1 => "Exactly fair: every outcome has the same chance.".into(),
            k if k == n => {
                format!("Exactly fair in all {n} cases: every outcome has the same chance.")
            }
            0 if n == 1 => "Not exactly fair: some outcomes are more likely than others.".into(),
            0 => format!("Not exactly fair in any of the {n} cases."),
            k if n - k == 1 => format!("Exactly fair in {k} of the {n} cases; the other is not."),
            k => format!(
                "Exactly fair in {k} of the {n} cases; the other {} are not.",
                n - k
            ),
        };
    }
    let unbeaten = figures
        .first()
        .and_then(|f| f.get("is_unbeaten"))
        .and_then(|v| v.as_bool());
    match unbeaten {
        Some(true) => "An unbeaten list exists: no other list beats it.".into(),
        Some(false) => "No list is unbeaten: every list loses to some other list.".into(),
        None => format!(
            "Computed exactly: {} {}; see the tables below.",
            cases.len(),
            cases_word(cases.len())
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn counts_the_exactly_fair_cases() {
        let fair = json!({"fairness": {"uniform": true}});
        let unfair = json!({"fairness": {"uniform": false}});
        assert_eq!(
            verdict(&json!({"cases": [fair, fair]})),
            "Exactly fair in all 2 cases: every outcome has the same chance."
        );
        assert_eq!(
            verdict(&json!({"cases": [fair, unfair, unfair]})),
            "Exactly fair in 1 of the 3 cases; the other 2 are not."
        );
        assert_eq!(
            verdict(&json!({"cases": [unfair]})),
            "Not exactly fair: some outcomes are more likely than others."
        );
        assert_eq!(
            verdict(&json!({"cases": [unfair, unfair]})),
            "Not exactly fair in any of the 2 cases."
        );
        assert_eq!(
            verdict(&json!({"cases": [fair]})),
            "Exactly fair: every outcome has the same chance."
        );
    }

    #[test]
    fn a_race_says_whether_a_list_is_unbeaten() {
        let race = |unbeaten| json!({"optimizer": {"greedy": {"is_unbeaten": unbeaten}}});
        assert!(verdict(&race(true)).starts_with("An unbeaten list exists"));
        assert!(verdict(&race(false)).starts_with("No list is unbeaten"));
        assert_eq!(
            verdict(&json!({"cases": [{"tvd": "1/2"}, {"tvd": "1/3"}]})),
            "Computed exactly: 2 cases; see the tables below."
        );
    }
}
