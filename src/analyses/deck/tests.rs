//! The deck kind's figures against every hand of small decks.

use super::want::Question;
use super::*;
use crate::analyses::simulate::Simulate;
use crate::analyses::Analysis;
use num_traits::Zero;

fn params(yaml: &str) -> Params {
    serde_yaml::from_str(yaml).unwrap()
}

fn results(yaml: &str) -> Results {
    Deck::analyse(&params(yaml), &Progress::hidden())
}

fn at_least(group: &str, n: u64) -> Want {
    Want::Copies {
        groups: vec![group.to_string()],
        count: Count {
            at_least: n,
            at_most: None,
        },
    }
}

fn frac(p: u64, q: u64) -> Exact {
    Exact::new(p.into(), q.into())
}

/// Every hand of `draw` cards as a subset of the deck's cards, each
/// card labelled by its group (or none): the hands meeting `needs`,
/// and the hands holding exactly c copies of each group.
fn enumerate(groups: &[u64], cards: u64, draw: u64, needs: &[(usize, u64)]) -> (u64, u64) {
    let mut label = Vec::new();
    for (g, &copies) in groups.iter().enumerate() {
        label.extend(std::iter::repeat_n(Some(g), copies as usize));
    }
    label.resize(cards as usize, None);
    let (mut meeting, mut hands) = (0, 0);
    for subset in 0u32..1 << cards {
        if u64::from(subset.count_ones()) != draw {
            continue;
        }
        hands += 1;
        let mut held = vec![0u64; groups.len()];
        for (i, l) in label.iter().enumerate() {
            if let (true, Some(g)) = (subset >> i & 1 == 1, l) {
                held[*g] += 1;
            }
        }
        if needs.iter().all(|&(g, n)| held[g] >= n) {
            meeting += 1;
        }
    }
    (meeting, hands)
}

#[test]
fn questions_match_every_subset_of_small_decks() {
    let decks: [(&[u64], u64); 4] = [(&[3, 4], 12), (&[2, 2, 5], 14), (&[6], 9), (&[1, 3], 6)];
    for (groups, cards) in decks {
        let deck = DeckList {
            cards,
            groups: Named(
                groups
                    .iter()
                    .enumerate()
                    .map(|(g, &k)| (format!("g{g}"), k))
                    .collect(),
            ),
        };
        for draw in 1..=cards.min(8) {
            // Every combination of needs 1..=2 of the first two groups.
            for need_a in 1..=groups[0].min(2) {
                for need_b in 0..=groups.get(1).map_or(0, |k| (*k).min(2)) {
                    let mut needs = vec![at_least("g0", need_a)];
                    let mut indexed = vec![(0, need_a)];
                    if need_b > 0 {
                        needs.push(at_least("g1", need_b));
                        indexed.push((1, need_b));
                    }
                    let question = Question::new(&deck, &Want::All(needs));
                    let (meeting, hands) = enumerate(groups, cards, draw, &indexed);
                    assert_eq!(
                        ratio(&question.ways(draw), &binomial(cards, draw)),
                        frac(meeting, hands),
                        "{groups:?} of {cards}, draw {draw}, needs {indexed:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn copies_match_every_subset_and_sum_to_one() {
    for (copies, cards) in [(3u64, 10u64), (4, 7), (1, 5)] {
        for draw in 1..=cards {
            let hand = copies_in_hand(cards, copies, draw);
            let total: Exact = hand.exactly.iter().sum();
            assert_eq!(total, Exact::one());
            // Exactly c = at least c minus at least c + 1.
            for c in 1..hand.exactly.len() as u64 {
                let (at_least, hands) = enumerate(&[copies], cards, draw, &[(0, c)]);
                let (above, _) = enumerate(&[copies], cards, draw, &[(0, c + 1)]);
                assert_eq!(hand.exactly[c as usize], frac(at_least - above, hands));
            }
            let mean: Exact = hand
                .exactly
                .iter()
                .enumerate()
                .map(|(c, p)| p * Exact::from_integer((c as u64).into()))
                .sum();
            assert_eq!(mean, hand.expected);
        }
    }
}

#[test]
fn three_copies_in_fifty_and_mulligans() {
    let r = results(
        "deck: {cards: 50, groups: {hero: 3, ally: 9}}\ndraws: [6, 7]\n\
         names: {6: on the play, 7: on the draw}\n\
         want: {a-hero: {hero: 1}, hero-and-two-allies: {hero: 1, ally: 2}}\n\
         mulligan: {redraws: 2}",
    );
    // P(no hero in 7 of 50) = C(47, 7) / C(50, 7).
    let none = ratio(&binomial(47u64, 7), &binomial(50u64, 7));
    let case = &r.cases[2];
    assert_eq!((case.draw, case.question.as_str()), (7, "a-hero"));
    assert_eq!(case.hand.as_deref(), Some("on the draw"));
    assert_eq!(case.probability, Exact::one() - &none);
    let miss3 = &none * &none * &none;
    assert_eq!(case.with_mulligans, Some(Exact::one() - miss3));
    assert_eq!(
        serde_json::to_value(&r.cases[2]).unwrap()["probability"],
        "1037/2800"
    );
    assert_eq!(r.groups[0].draws[1].expected, frac(21, 50));
}

#[test]
fn simulated_deals_agree() {
    let p = params(
        "deck: {cards: 12, groups: {a: 3, b: 4}}\ndraws: [3, 5]\n\
         want: {one-a: {a: 1}, a-and-two-b: {a: 1, b: 2}}\nmulligan: {redraws: 1}",
    );
    let r = Deck::analyse(&p, &Progress::hidden());
    let simulation = Deck::simulation(&p, &r);
    // Per hand size: 2 questions, 2 kept hands, copies of a (0..=3) and b.
    let figures = crate::analyses::simulate::assert_agrees(&simulation, 20_000);
    assert_eq!(figures, (2 + 2 + 4 + 4) + (2 + 2 + 4 + 5));
}

/// The kept hand's chance summed hand by hand: the first success on
/// hand i + 1 has chance (1 - p)^i p.
fn kept_by_sum(p: &Exact, redraws: u64) -> Exact {
    let miss = Exact::one() - p;
    let mut failing = Exact::one();
    let mut kept = Exact::zero();
    for _ in 0..=redraws {
        kept += &failing * p;
        failing *= &miss;
    }
    kept
}

#[test]
fn kept_hands_match_the_sum_over_hands() {
    let none = ratio(&binomial(47u64, 7), &binomial(50u64, 7));
    for p in [
        frac(0, 1),
        frac(1, 1),
        frac(1, 2),
        frac(3, 7),
        Exact::one() - none,
    ] {
        for redraws in 0..12 {
            assert_eq!(with_redraws(&p, redraws), kept_by_sum(&p, redraws));
        }
    }
    // Reduced as built: the same value as a fraction reduced by gcd.
    let kept = with_redraws(&frac(2, 9), 5);
    assert_eq!(kept, Exact::new(kept.numer().clone(), kept.denom().clone()));
}

#[test]
fn any_count_of_redraws_is_kept_or_priced() {
    // u64::MAX redraws once wrapped to no hand at all (0 %); a sure or
    // an impossible hand stays so, however many.
    assert_eq!(with_redraws(&frac(1, 1), u64::MAX), Exact::one());
    assert_eq!(with_redraws(&frac(0, 1), u64::MAX), Exact::zero());
    let near = crate::engine::to_f64(&with_redraws(&frac(38962, 97527), 10_000));
    assert!(near > 0.999_999 && near <= 1.0, "{near}");
    // Beyond the budget, refused before any work, at `mulligan`.
    let deck = "deck: {cards: 60, groups: {land: 24, key: 4}}\ndraws: 7\n\
                want: {a-key: {key: 1}}\nmulligan: {redraws: ";
    let budget = crate::analyses::Budget::default();
    for redraws in [
        "1000000000",
        "4294967295",
        "4294967296",
        "18446744073709551615",
    ] {
        let p = params(&format!("{deck}{redraws}}}"));
        let e = budget.admit(&Deck::cost(&p)).unwrap_err();
        assert_eq!(e.key, "mulligan", "{redraws}");
        let detail = Deck::cost_detail(&p).unwrap();
        assert!(
            detail.contains(&format!("`redraws: {redraws}`")),
            "{detail}"
        );
    }
    // 100,000 redraws (0.83 s for a page) are admitted.
    let p = params(&format!("{deck}100000}}"));
    assert!(Deck::cost(&p).seconds < 5.0, "{:?}", Deck::cost(&p));
    assert!(budget.admit(&Deck::cost(&p)).is_ok());
    assert!(Deck::cost_detail(&params(&format!("{deck}1}}"))).is_none());
}

#[test]
fn binomials_are_priced_by_their_bits() {
    for (n, k) in [
        (60u64, 7u64),
        (50, 25),
        (1000, 3),
        (1000, 997),
        (5, 0),
        (1, 1),
    ] {
        let bits = binomial(n, k).bits() as f64;
        let priced = log2_binomial(n, k);
        assert!(
            priced >= bits && priced <= bits + 1.5,
            "C({n}, {k}): {priced} for {bits}"
        );
    }
    // A small hand from a huge deck: about 7 log2(10^12) - log2(7!).
    let huge = log2_binomial(1_000_000_000_000, 7);
    assert!(
        (huge - (7.0 * 1e12f64.log2() - 5040f64.log2())).abs() < 1.5,
        "{huge}"
    );
}

#[test]
fn a_deck_of_a_trillion_cards_deals_without_laying_it_out() {
    let p = params(
        "deck: {cards: 1000000000000, groups: {a: 300000000000, b: 1}}\ndraws: 4\n\
         want: {one-a: {a: 1}}\nmulligan: {redraws: 2}",
    );
    let r = Deck::analyse(&p, &Progress::hidden());
    let simulation = Deck::simulation(&p, &r);
    // One question, its kept hand, copies of a (0..=4) and of b (0..=1).
    let figures = crate::analyses::simulate::assert_agrees(&simulation, 20_000);
    assert_eq!(figures, 1 + 1 + 5 + 2);
    let steps = simulation.experiments[0].steps_per_trial;
    assert!(steps < 100.0, "{steps}");
}

#[test]
fn results_read_back_as_written() {
    let r = results("deck: {cards: 40, groups: {x: 4}}\ndraws: [5]\nwant: {x: {x: 1}}");
    assert!(r.cases[0].with_mulligans.is_none());
    let json = serde_json::to_value(&r).unwrap();
    assert!(json["cases"][0].get("with_mulligans").is_none());
    assert_eq!(serde_json::from_value::<Results>(json).unwrap(), r);
}

#[test]
fn bad_decks_are_refused() {
    let refused = |yaml: &str| Deck::validate(&params(yaml)).unwrap_err();
    let e = refused("deck: {cards: 10, groups: {x: 11}}\ndraws: 3\nwant: {q: {x: 1}}");
    assert_eq!(e.key, "deck");
    assert!(e.message.contains("group `x` has 11 copies"), "{e:?}");
    let e = refused("deck: {cards: 10, groups: {x: 6, y: 6}}\ndraws: 3\nwant: {q: {x: 1}}");
    assert!(e.message.contains("the groups hold 12 cards"), "{e:?}");
    let e = refused("deck: {cards: 10, groups: {x: 3}}\ndraws: [3, 11]\nwant: {q: {x: 1}}");
    assert_eq!(e.key, "draws");
    let e = refused("deck: {cards: 10, groups: {x: 3}}\ndraws: 3\nwant: {q: {y: 1}}");
    assert_eq!(e.key, "want");
    assert!(e.message.contains("the group `y`"), "{e:?}");
    let e = refused("deck: {cards: 10, groups: {x: 3}}\ndraws: 3\nwant: {q: {x: 4}}");
    assert!(e.message.contains("needs 4 of `x`"), "{e:?}");
    let e = serde_yaml::from_str::<Params>(
        "deck: {cards: 10, groups: {x: 3, x: 2}}\ndraws: 3\nwant: {q: {x: 1}}",
    )
    .unwrap_err();
    assert!(e.to_string().contains("`x` is named twice"), "{e}");
    // Valid, but a hand of half a million cards is refused by the
    // budget before any work, at `draws`.
    let huge =
        params("deck: {cards: 1000000, groups: {x: 500000}}\ndraws: 500000\nwant: {q: {x: 1}}");
    assert!(Deck::validate(&huge).is_ok());
    let e = crate::analyses::Budget::default()
        .admit(&Deck::cost(&huge))
        .unwrap_err();
    assert_eq!(e.key, "draws");
    let small = params("deck: {cards: 60, groups: {x: 24}}\ndraws: [7, 8]\nwant: {q: {x: 2}}");
    assert!(Deck::cost(&small).seconds < 0.01);
}

/// Every hand of `draw` cards of a deck laid out card by card (each card
/// labelled by its group, or none), as the copies of each group it holds.
fn every_hand(groups: &[u64], cards: u64, draw: u64) -> Vec<Vec<u64>> {
    let label = labels(groups, cards);
    (0u32..1 << cards)
        .filter(|subset| u64::from(subset.count_ones()) == draw)
        .map(|subset| held_by(&label, subset, groups.len()))
        .collect()
}

fn labels(groups: &[u64], cards: u64) -> Vec<Option<usize>> {
    let mut label = Vec::new();
    for (g, &copies) in groups.iter().enumerate() {
        label.extend(std::iter::repeat_n(Some(g), copies as usize));
    }
    label.resize(cards as usize, None);
    label
}

fn held_by(label: &[Option<usize>], subset: u32, groups: usize) -> Vec<u64> {
    let mut held = vec![0u64; groups];
    for (i, l) in label.iter().enumerate() {
        if let (true, Some(g)) = (subset >> i & 1 == 1, l) {
            held[*g] += 1;
        }
    }
    held
}

/// The share of hands of `draw` that `meets` accepts.
fn share(groups: &[u64], cards: u64, draw: u64, meets: &dyn Fn(&[u64]) -> bool) -> Exact {
    let hands = every_hand(groups, cards, draw);
    let meeting = hands.iter().filter(|h| meets(h)).count() as u64;
    frac(meeting, hands.len() as u64)
}

type Check = Box<dyn Fn(&[u64]) -> bool>;

#[test]
fn ranges_any_of_and_groups_together_match_every_subset_of_a_small_deck() {
    // a: 4, b: 3, c: 2 copies in 13 cards; each question beside the same
    // question written as a closure on the copies (a, b, c).
    let questions: Vec<(&str, Check)> = vec![
        ("{a: 2..3}", Box::new(|h| (2..=3).contains(&h[0]))),
        ("{a: 1..1, b: ..1}", Box::new(|h| h[0] == 1 && h[1] <= 1)),
        ("{a: none}", Box::new(|h| h[0] == 0)),
        ("{a: ..0, c: 2..}", Box::new(|h| h[0] == 0 && h[2] >= 2)),
        ("{a: 2}", Box::new(|h| h[0] >= 2)),
        ("{a or b: 3..}", Box::new(|h| h[0] + h[1] >= 3)),
        (
            "{a + c: 2..3, b: 1}",
            Box::new(|h| (2..=3).contains(&(h[0] + h[2])) && h[1] >= 1),
        ),
        (
            "{any: [{a: 3..}, {b: 2, c: 1..1}]}",
            Box::new(|h| h[0] >= 3 || (h[1] >= 2 && h[2] == 1)),
        ),
        (
            "{c: ..1, any: [{a: none}, {all: [{b: 3..3}, {a or c: ..2}]}]}",
            Box::new(|h| h[2] <= 1 && (h[0] == 0 || (h[1] == 3 && h[0] + h[2] <= 2))),
        ),
    ];
    let groups = [4, 3, 2];
    for (yaml, check) in &questions {
        let r = results(&format!(
            "deck: {{cards: 13, groups: {{a: 4, b: 3, c: 2}}}}\ndraws: 1..7\nwant: {{q: {yaml}}}"
        ));
        for case in &r.cases {
            assert_eq!(
                case.probability,
                share(&groups, 13, case.draw, check.as_ref()),
                "{yaml}, {} cards",
                case.draw
            );
        }
    }
}

#[test]
fn counts_read_every_form_and_refuse_the_rest_naming_the_forms() {
    let count = |text: &str| serde_yaml::from_str::<Count>(text);
    let range = |at_least, at_most| Count { at_least, at_most };
    assert_eq!(count("3").unwrap(), range(3, None));
    assert_eq!(count("2..4").unwrap(), range(2, Some(4)));
    assert_eq!(count("'2..2'").unwrap(), range(2, Some(2)));
    assert_eq!(count("..3").unwrap(), range(0, Some(3)));
    assert_eq!(count("2..").unwrap(), range(2, None));
    assert_eq!(count("none").unwrap(), range(0, Some(0)));
    assert_eq!(count("..0").unwrap(), range(0, Some(0)));
    for (bad, says) in [
        ("0", "write `none` (or `..0`)"),
        ("[2, 4]", "not as a list"),
        ("{min: 2, max: 4}", "not as a mapping"),
        ("4..2", "write `2..4`"),
        ("two", "`two` is not a count of copies"),
        ("0..", "asks nothing"),
        ("-1", "`-1` is not a count"),
        ("2.5", "expected a count of copies"),
    ] {
        let e = count(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
        assert!(e.contains("`2..4` (2 to 4)") || bad == "4..2", "{bad}: {e}");
    }
    // In a question, at the value's line and column.
    let e = serde_yaml::from_str::<Params>(
        "deck: {cards: 60, groups: {land: 24}}\ndraws: 7\nwant:\n  q: {land: [2, 4]}",
    )
    .unwrap_err();
    assert!(e.to_string().contains("line 4 column 13"), "{e}");
    assert!(e.to_string().contains("not as a list"), "{e}");
    let e = serde_yaml::from_str::<Params>(
        "deck: {cards: 60, groups: {land: 24}}\ndraws: 7\nwant: {q: {land: 2, one: [{land: 1}]}}",
    )
    .unwrap_err();
    assert!(e.to_string().contains("not as a list"), "{e}");
}

/// Archon Arcana, "Template:MulliganCommentary" (The KeyForge Wiki,
/// https://archonarcana.com/Template:MulliganCommentary): a 36-card deck of
/// three houses of 12 cards. A 7-card hand is shaped 3-2-2 34.44 % of the
/// time; a card with 3 copies is in 7 cards 48.82 % of the time and, after
/// KeyForge's mulligan (a fresh hand of one card fewer), in the 6 cards
/// 43.14 %; 4 copies in 5 cards 46.58 % and in 7 59.68 %.
#[test]
fn published_keyforge_figures() {
    let r = results(
        "deck: {cards: 36, groups: {h1: 12, h2: 12, h3: 12}}\ndraws: 7\n\
         want: {three-two-two: {any: [{h1: 3..3, h2: 2..2}, {h1: 2..2, h2: 3..3}, \
         {h1: 2..2, h2: 2..2}]}}",
    );
    let percent = |p: &Exact| (crate::engine::to_f64(p) * 10_000.0).round() / 100.0;
    assert_eq!(percent(&r.cases[0].probability), 34.44);
    let r = results(
        "deck: {cards: 36, groups: {urchin: 3, four: 4}}\ndraws: [5, 7]\n\
         want: {urchin: {urchin: 1..}, four: {four: 1}}\n\
         mulligan: {rule: paris, redraws: 1, keep_if: urchin, hand: 7}",
    );
    assert_eq!(percent(&r.cases[2].probability), 48.82);
    assert_eq!(percent(&r.cases[3].probability), 59.68);
    let steps = r.mulligan.unwrap().steps;
    assert_eq!(percent(&steps[0].keepable), 48.82);
    assert_eq!(percent(&steps[1].keepable), 43.14);
    assert_eq!(percent(&r.cases[1].probability), 46.58);
}

/// Every hand of `opening` cards, and for each every choice of `bottom`
/// of its cards (subsets of the hand, card by card): the share of hands
/// where some choice leaves a hand that `meets` accepts.
fn london_share(
    groups: &[u64],
    cards: u64,
    opening: u64,
    bottom: u64,
    meets: &dyn Fn(&[u64]) -> bool,
) -> Exact {
    let label = labels(groups, cards);
    let (mut keepable, mut hands) = (0, 0);
    for hand in (0u32..1 << cards).filter(|s| u64::from(s.count_ones()) == opening) {
        hands += 1;
        // Sub-hands of `hand`: every subset of its bits.
        let mut kept = hand;
        loop {
            if u64::from(kept.count_ones()) == opening - bottom
                && meets(&held_by(&label, kept, groups.len()))
            {
                keepable += 1;
                break;
            }
            if kept == 0 {
                break;
            }
            kept = (kept - 1) & hand;
        }
    }
    frac(keepable, hands)
}

/// The steps chained by hand from each step's chance: reach, keep, and the
/// mean hand kept (the last hand kept whatever it holds).
fn chained(keepable: &[Exact], hands: &[u64]) -> (Vec<Exact>, Exact, Exact) {
    let (mut reached, mut kept, mut mean) = (Exact::one(), Exact::zero(), Exact::zero());
    let mut kept_by = Vec::new();
    for (m, q) in keepable.iter().enumerate() {
        let size = Exact::from_integer(hands[m].into());
        if m + 1 == keepable.len() {
            mean += &reached * &size;
        } else {
            mean += &reached * q * &size;
        }
        kept += &reached * q;
        kept_by.push(kept.clone());
        reached = &reached * (Exact::one() - q);
    }
    (kept_by, kept, mean)
}

#[test]
fn mulligans_match_every_hand_and_every_bottom_choice_of_a_small_deck() {
    let keeps: Vec<(&str, Check)> = vec![
        ("{a: 2..3}", Box::new(|h| (2..=3).contains(&h[0]))),
        (
            "{a: 1..2, b: 1}",
            Box::new(|h| (1..=2).contains(&h[0]) && h[1] >= 1),
        ),
        ("{a or b: ..2}", Box::new(|h| h[0] + h[1] <= 2)),
        (
            "{any: [{a: 3..}, {b: 2..2, a: none}]}",
            Box::new(|h| h[0] >= 3 || (h[1] == 2 && h[0] == 0)),
        ),
    ];
    let groups = [4, 3];
    for rule in ["london", "paris", "vancouver", "redraw"] {
        for (keep, check) in &keeps {
            let p = params(&format!(
                "deck: {{cards: 12, groups: {{a: 4, b: 3}}}}\ndraws: [5, 6]\n\
                 want: {{k: {keep}}}\nmulligan: {{rule: {rule}, redraws: 3, keep_if: k}}"
            ));
            assert!(Deck::validate(&p).is_ok());
            let steps = Deck::analyse(&p, &Progress::hidden()).mulligan.unwrap();
            let hands: Vec<u64> = match rule {
                "redraw" => vec![5; 4],
                _ => vec![5, 4, 3, 2],
            };
            let keepable: Vec<Exact> = (0..4)
                .map(|m| match rule {
                    "london" => london_share(&groups, 12, 5, m, check.as_ref()),
                    _ => share(&groups, 12, hands[m as usize], check.as_ref()),
                })
                .collect();
            let (kept_by, kept, mean) = chained(&keepable, &hands);
            let label = format!("{rule}, {keep}");
            for (m, step) in steps.steps.iter().enumerate() {
                assert_eq!(step.hand, hands[m], "{label}");
                assert_eq!(step.keepable, keepable[m], "{label}, step {m}");
                assert_eq!(step.kept_by, kept_by[m], "{label}, step {m}");
            }
            assert_eq!(steps.keepable_kept, kept, "{label}");
            assert_eq!(steps.expected_hand, mean, "{label}");
        }
    }
}

#[test]
fn simulated_mulligans_agree() {
    for rule in ["london", "vancouver"] {
        let p = params(&format!(
            "deck: {{cards: 40, groups: {{land: 16, key: 3}}}}\ndraws: 7\n\
             want: {{keep: {{land: 2..4, key: 1}}}}\n\
             mulligan: {{rule: {rule}, redraws: 2, keep_if: keep}}"
        ));
        let r = Deck::analyse(&p, &Progress::hidden());
        let simulation = Deck::simulation(&p, &r);
        crate::analyses::simulate::assert_agrees(&simulation, 20_000);
        assert_eq!(simulation.experiments.len(), 2, "{rule}");
    }
}

#[test]
fn bad_mulligans_are_refused_at_the_mulligan() {
    let refused = |mulligan: &str| {
        let p = params(&format!(
            "deck: {{cards: 40, groups: {{land: 16}}}}\ndraws: 7\nwant: {{two: {{land: 2}}}}\n\
             mulligan: {mulligan}"
        ));
        let e = Deck::validate(&p).unwrap_err();
        assert_eq!(e.key, "mulligan", "{e:?}");
        e.message
    };
    let e = refused("{rule: london, redraws: 2}");
    assert!(e.contains("`rule: london` needs `keep_if`"), "{e}");
    let e = refused("{rule: paris, redraws: 8, keep_if: two}");
    assert!(e.contains("at most 7 mulligans, not 8"), "{e}");
    let e = refused("{rule: london, redraws: 1, keep_if: three}");
    assert!(
        e.contains("names no question of `want` (it has two)"),
        "{e}"
    );
    let e = refused("{rule: london, redraws: 1, keep_if: {land: 17}}");
    assert!(e.contains("needs 17 of `land`"), "{e}");
    let e = refused("{redraws: 1, hand: 41}");
    assert!(e.contains("expected 1 to the deck's 40"), "{e}");
    let e = serde_yaml::from_str::<Params>(
        "deck: {cards: 40, groups: {land: 16}}\ndraws: 7\nwant: {two: {land: 2}}\n\
         mulligan: {rule: mtg, redraws: 1}",
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("expected one of `redraw`, `london`"),
        "{e}"
    );
}

#[test]
fn london_steps_are_priced_and_refused_over_budget_naming_the_estimate() {
    // Twelve groups of five in a deck of 60, every one named by keep_if:
    // each step sums up to 6^12 vectors of copies, each trying every split
    // of its bottom cards.
    let groups: Vec<String> = (0..12).map(|g| format!("g{g}: 5")).collect();
    let keep: Vec<String> = (0..12).map(|g| format!("g{g}: ..3")).collect();
    let p = params(&format!(
        "deck: {{cards: 60, groups: {{{}}}}}\ndraws: 20\nwant: {{k: {{{}}}}}\n\
         mulligan: {{rule: london, redraws: 6, keep_if: k}}",
        groups.join(", "),
        keep.join(", ")
    ));
    let e = crate::analyses::Budget::default()
        .admit(&Deck::cost(&p))
        .unwrap_err();
    assert_eq!(e.key, "mulligan");
    let detail = Deck::cost_detail(&p).unwrap();
    assert!(
        detail.contains("`rule: london` with `redraws: 6`"),
        "{detail}"
    );
    // A sixty-card deck's London mulligan is cheap.
    let p = params(
        "deck: {cards: 60, groups: {land: 24, key: 4}}\ndraws: 7\n\
         want: {k: {land: 2..5, key: 1}}\nmulligan: {rule: london, redraws: 4, keep_if: k}",
    );
    assert!(Deck::cost(&p).seconds < 0.05, "{:?}", Deck::cost(&p));
}
