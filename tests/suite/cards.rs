//! The kinds `deck` and `match` (issue 30) end to end, natively: the
//! committed scenarios of the Cards and matches section through the what-if
//! calculator, as the browser's engine computes them once it is rebuilt.

use fairdice::calculator::{self, Request, Response};

fn request(source: &str, text: &str, changes: &[(&str, &str)]) -> Request {
    let scenario = fairdice::scenario::parse(source, text).unwrap();
    let mut form = calculator::form(&scenario).expect("a what-if form");
    for (key, value) in changes {
        let field = form.fields.iter_mut().find(|f| f.key == *key).unwrap();
        field.value = value.to_string();
        // The value as one line, not the form's entries (which the page
        // sends in its place).
        field.entries.clear();
    }
    Request {
        source: form.source,
        title: form.title,
        kind: form.kind,
        fields: form.fields,
    }
}

const DECK: &str = include_str!("../../content/cards/sixty-cards.yaml");
const MATCH: &str = include_str!("../../content/cards/match-formats.yaml");

#[test]
fn the_deck_form_recomputes_a_smaller_deck() {
    let changed = request(
        "cards/sixty-cards.yaml",
        DECK,
        &[
            ("deck", "{cards: 50, groups: {hero: 3}}"),
            ("want", "{a-hero: {hero: 1}}"),
            ("draws", "7"),
            ("names", ""),
        ],
    );
    let Response::Done { results, html, .. } = calculator::calculate(&changed) else {
        panic!("the calculator refused a 50-card deck")
    };
    // 1 - C(47, 7) / C(50, 7), and with one redraw 1 - (that miss)^2.
    assert_eq!(results["cases"][0]["probability"], "1037/2800");
    assert_eq!(results["cases"][0]["with_mulligans"], "4731831/7840000");
    assert!(html.contains("a-hero"), "{html}");
}

#[test]
fn the_deck_form_refuses_a_need_past_the_group_at_its_key() {
    let changed = request(
        "cards/sixty-cards.yaml",
        DECK,
        &[("want", "{q: {key-card: 5}}")],
    );
    let Response::Refused { key, message } = calculator::calculate(&changed) else {
        panic!("five of a four-of was computed")
    };
    assert_eq!(key.as_deref(), Some("want"));
    assert!(message.contains("needs 5 of `key-card`"), "{message}");
}

#[test]
fn the_match_form_gives_the_best_of_three_figure() {
    let changed = request(
        "cards/match-formats.yaml",
        MATCH,
        &[
            ("best_of", "3"),
            ("p_first", "\"11/20\""),
            ("later_games", "loser-chooses"),
        ],
    );
    let Response::Done {
        results,
        answer,
        html,
        ..
    } = calculator::calculate(&changed)
    else {
        panic!("the calculator refused a best-of-three")
    };
    let html = answer + &html;
    assert_eq!(results["cases"][0]["p_match"], "2101/4000");
    assert_eq!(results["cases"][0]["expected_games"], "51/20");
    assert!(html.contains("2.5 points"), "{html}");
    let even = request("cards/match-formats.yaml", MATCH, &[("best_of", "4")]);
    let Response::Refused { key, .. } = calculator::calculate(&even) else {
        panic!("a best of 4 was computed")
    };
    assert_eq!(key.as_deref(), Some("best_of"));
}
