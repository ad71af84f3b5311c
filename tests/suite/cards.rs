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
    assert!(html.contains("2.5\u{a0}points"), "{html}");
    let even = request("cards/match-formats.yaml", MATCH, &[("best_of", "4")]);
    let Response::Refused { key, .. } = calculator::calculate(&even) else {
        panic!("a best of 4 was computed")
    };
    assert_eq!(key.as_deref(), Some("best_of"));
}

// Issue 39: a first player who always wins, or always loses, is as easy to
// notice either way: the same number of matches, not a number one way and
// none the other.
#[test]
fn a_certain_p_first_needs_as_many_matches_either_way() {
    let dir = crate::common::fixture(&[
        (
            "always.yaml",
            "title: A\nkind: match\nbest_of: 1\np_first: \"1/1\"\nlater_games: alternate\n",
        ),
        (
            "never.yaml",
            "title: N\nkind: match\nbest_of: 1\np_first: \"0/1\"\nlater_games: alternate\n",
        ),
    ]);
    let run = crate::common::fairdice(
        &["eval", "always.yaml", "never.yaml", "--json", "-q"],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr_text());
    let printed: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let case = |i: usize| printed["scenarios"][i]["results"]["cases"][0].clone();
    assert_eq!(case(0)["p_match"], "1/1");
    assert_eq!(case(1)["p_match"], "0/1");
    // Six matches: all six won (or lost) has a chance of 2/64 under a fair
    // start, under 5 %; five (2/32) does not.
    assert_eq!(case(0)["matches_needed"], 6);
    assert_eq!(case(1)["matches_needed"], 6);
}

// Issue 39: one card is "1 card", and no redraws are said as such.
#[test]
fn a_hand_of_one_card_and_no_redraws_are_said_in_words() {
    let dir = crate::common::fixture(&[(
        "one.yaml",
        "title: One\nkind: deck\ndeck:\n  cards: 2\n  groups: {ace: 1}\ndraws: [1, 2]\n\
         names: {1: on the play}\nwant:\n  an-ace: {ace: 1}\nmulligan: {redraws: 0}\n",
    )]);
    let run = crate::common::fairdice(&["eval", "one.yaml"], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr_text());
    let text = String::from_utf8(run.stdout.clone()).unwrap();
    for said in [
        "A hand of 1 card (on the play) from 2 cards meets \"an-ace\" (at least 1 ace) 50\u{a0}% of the time; with no \
         redraws, the kept hand meets it 50\u{a0}% of the time.",
        "on the play is a hand of 1 card.",
        "With no redraws (`redraws: 0`), a player keeps the first hand drawn: the kept hand \
         meets each question as often as the first hand does.",
        "kept hand, no redraws",
    ] {
        assert!(text.contains(said), "{said}\n{text}");
    }
    for never in ["1 cards", "up to 0"] {
        assert!(!text.contains(never), "{never}\n{text}");
    }
}
