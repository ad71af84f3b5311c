//! `verify --simulate` for decks: hands dealt card by card from counts.

use super::mulligan::{can_bottom, Method, MulliganSteps};
use super::want::Question;
use super::{Case, Deck, Params, Results};
use crate::analyses::simulate::{Event, Experiment, Sampler, Simulate, Simulation};
use crate::engine::Exact;
use num_traits::Zero;

/// Shuffled decks, as a table deals them: the top `draw` cards of a
/// shuffled deck, one at a time, each equally likely to be any card still
/// in the deck, and a failed hand shuffled back and dealt again while
/// redraws remain. Each question, each kept hand and every group's copies
/// against their exact figures. The deck is held as counts per group, never
/// card by card, so a deck of 10^12 cards deals as fast as one of 60 (laid
/// out, it asked 16 TB).
impl Simulate for Deck {
    fn simulation(params: &Params, results: &Results) -> Simulation {
        let experiments = params
            .draws
            .values()
            .iter()
            .map(|&draw| deal_experiment(params, results, draw))
            .chain(mulligan_experiment(params, results))
            .collect();
        Simulation::of(experiments)
    }
}

fn deal_experiment(params: &Params, results: &Results, draw: u64) -> Experiment {
    let groups = &params.deck.groups.0;
    let copies: Vec<u64> = groups.iter().map(|(_, k)| *k).collect();
    let cards = params.deck.cards;
    let questions: Vec<Question> = (params.want.0.iter())
        .map(|(_, want)| Question::new(&params.deck, want))
        .collect();
    let redraws = (params.mulligan.as_ref())
        .filter(|m| m.rule == Method::Redraw)
        .map(|m| m.redraws);
    let cases: Vec<&Case> = results.cases.iter().filter(|c| c.draw == draw).collect();
    let mut events = Vec::new();
    for case in &cases {
        events.push(Event::new(case.question.clone(), case.probability.clone()));
    }
    if redraws.is_some() {
        for case in &cases {
            let kept = case.with_mulligans.clone().unwrap_or_else(Exact::zero);
            events.push(Event::new(format!("{}, kept hand", case.question), kept));
        }
    }
    // Per group, each count of copies: event offsets into `events`.
    let mut copy_events = Vec::new();
    for group in &results.groups {
        copy_events.push(events.len());
        if let Some(hand) = group.draws.iter().find(|h| h.draw == draw) {
            for (c, p) in hand.exactly.iter().enumerate() {
                events.push(Event::new(
                    format!("{}: exactly {c}", group.group),
                    p.clone(),
                ));
            }
        }
    }
    let count = questions.len();
    let hands = 1.0 + redraws.map_or(0.0, |r| expected_redraws(&cases, r));
    Experiment {
        label: format!("{draw} cards from {cards}"),
        events,
        means: Vec::new(),
        steps_per_trial: draw as f64 * (copies.len() as f64 + 1.0) * hands,
        trial: Box::new(move |sampler, trial| {
            let first = deal(sampler, &copies, cards, draw);
            for (q, needs) in questions.iter().enumerate() {
                if meets(&first, needs) {
                    trial.hit(q);
                }
            }
            if let Some(redraws) = redraws {
                for (q, needs) in questions.iter().enumerate() {
                    let kept = meets(&first, needs)
                        || (0..redraws).any(|_| meets(&deal(sampler, &copies, cards, draw), needs));
                    if kept {
                        trial.hit(count + q);
                    }
                }
            }
            for (g, &offset) in copy_events.iter().enumerate() {
                trial.hit(offset + first[g] as usize);
            }
        }),
    }
}

/// Fresh hands a trial deals on average beyond the first, over every
/// question: a question met with chance p is dealt again until met, so
/// (1 - p) / p more hands, but never more than `redraws` (all of them
/// when no hand can meet it).
fn expected_redraws(cases: &[&Case], redraws: u64) -> f64 {
    let redraws = redraws as f64;
    cases
        .iter()
        .map(|case| {
            let p = crate::engine::to_f64(&case.probability);
            if p > 0.0 {
                ((1.0 - p) / p).min(redraws)
            } else {
                redraws
            }
        })
        .sum()
}

/// Deal `draw` cards from a shuffled deck of `cards` holding `copies` of
/// each group (the rest other cards): each card dealt is any card left
/// with equal chance, so it belongs to a group with chance copies left /
/// cards left. The copies of each group in the hand.
fn deal(sampler: &mut Sampler, copies: &[u64], cards: u64, draw: u64) -> Vec<u64> {
    let mut held = vec![0u64; copies.len()];
    for dealt in 0..draw {
        let mut card = sampler.below(cards - dealt);
        for (g, &k) in copies.iter().enumerate() {
            let left = k - held[g];
            if card < left {
                held[g] += 1;
                break;
            }
            card -= left;
        }
    }
    held
}

/// Whether a hand holding `held` copies of each of the deck's groups
/// meets the question.
fn meets(held: &[u64], question: &Question) -> bool {
    question.rule.holds(&in_slots(held, question))
}

/// The copies of the question's groups, in its slots' order.
fn in_slots(held: &[u64], question: &Question) -> Vec<u64> {
    question.group_index.iter().map(|&g| held[g]).collect()
}

/// A player mulliganing by the rule: each step deals its hand afresh from
/// the whole deck (London: the full hand, then tries every split of the
/// bottom cards), keeps the first keepable one, or the last. The chance of
/// a keepable hand kept by each step, and the mean hand kept.
fn mulligan_experiment(params: &Params, results: &Results) -> Option<Experiment> {
    let mulligan = params.mulligan.clone()?;
    let steps: MulliganSteps = results.mulligan.clone()?;
    let keep = Question::new(&params.deck, mulligan.keep(&params.want)?);
    let copies: Vec<u64> = params.deck.groups.0.iter().map(|(_, k)| *k).collect();
    let cards = params.deck.cards;
    let opening = steps.opening;
    let events = (steps.steps.iter())
        .map(|s| {
            Event::new(
                format!("kept by {} mulligans", s.mulligans),
                s.kept_by.clone(),
            )
        })
        .collect();
    let expected_steps: f64 = (steps.steps.iter())
        .map(|s| crate::engine::to_f64(&s.reached))
        .sum();
    let last = mulligan.redraws;
    Some(Experiment {
        label: format!("{} mulligan from {opening} cards", mulligan.rule.name()),
        events,
        means: vec![Event::new("cards kept", steps.expected_hand.clone())],
        steps_per_trial: opening as f64 * (copies.len() as f64 + 1.0) * expected_steps,
        trial: Box::new(move |sampler, trial| {
            for m in 0..=last {
                let drawn = mulligan.drawn_after(opening, m);
                let held = in_slots(&deal(sampler, &copies, cards, drawn), &keep);
                let others = drawn - held.iter().sum::<u64>();
                let keepable = match mulligan.rule {
                    Method::London => can_bottom(&keep, &held, others, m),
                    _ => keep.rule.holds(&held),
                };
                if keepable || m == last {
                    if keepable {
                        (m..=last).for_each(|later| trial.hit(later as usize));
                    }
                    trial.measure(0, mulligan.hand_after(opening, m));
                    return;
                }
            }
        }),
    })
}
