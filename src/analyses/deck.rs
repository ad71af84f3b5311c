//! `deck`: what a hand drawn from a shuffled deck holds, exactly.
//!
//! Drawing d cards without replacement from a deck of N, made of named
//! groups of K_g copies and other cards, follows the multivariate
//! hypergeometric law: a hand with c_g copies of each group is one of
//! prod C(K_g, c_g) x C(rest, d - sum c_g) equally likely hands out of
//! C(N, d). A question ("at least one hero and two allies") sums those
//! counts over the copies that meet it, in big integers, so every chance
//! is an exact fraction.

use crate::analyses::simulate::{Event, Experiment, Sampler, Simulate, Simulation};
use crate::analyses::values::SizeSet;
use crate::engine::combinatorics::binomial;
use crate::engine::{ratio, text, Exact};
use crate::progress::Progress;
use num_bigint::BigUint;
use num_traits::{One, Pow, Zero};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

use super::{Analysis, Cost, ParamError};

/// The `deck` kind.
pub(crate) struct Deck;

/// Big-integer word operations per second, on the safe side.
const WORD_OPS_PER_SECOND: f64 = 6.7e7;

/// Parameters of a `deck` scenario.
#[derive(Debug, Clone, Deserialize)]
pub struct Params {
    /// The deck: its size and its named groups of copies.
    pub deck: DeckList,
    /// Hand sizes to report: the opening hand, then by turn.
    pub draws: SizeSet,
    /// Names for some hand sizes, such as `{7: on the play, 8: on the draw}`.
    #[serde(default)]
    pub names: BTreeMap<u64, String>,
    /// The questions, in the file's order: each needs at least so many
    /// copies of every group it names.
    pub want: Named<Named<u64>>,
    /// Drawing a fresh hand of the same size when the first fails.
    #[serde(default)]
    pub mulligan: Option<Mulligan>,
}

/// All the cards and the named groups among them; the rest are other cards.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckList {
    /// Cards in the deck.
    pub cards: u64,
    /// Copies of each named group, in the file's order.
    pub groups: Named<u64>,
}

/// The mulligan rule: how many fresh hands a player may draw.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mulligan {
    /// Fresh hands of the same size after the first, at most.
    pub redraws: u64,
}

/// A mapping from names to values that keeps the file's order (a question
/// table reads in the order the author wrote it), and refuses a name given
/// twice (the loader's first reading of the file refuses it too).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named<V>(pub Vec<(String, V)>);

impl<V> Named<V> {
    /// The value named `name`.
    pub fn get(&self, name: &str) -> Option<&V> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Named<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> de::Visitor<'de> for Visitor<V> {
            type Value = Named<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping of names, such as {hero: 3, ally: 9}")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Named<V>, A::Error> {
                let mut entries: Vec<(String, V)> = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    if entries.iter().any(|(n, _)| *n == name) {
                        return Err(de::Error::custom(format!("`{name}` is named twice")));
                    }
                    let value = map.next_value()?;
                    entries.push((name, value));
                }
                if entries.is_empty() {
                    return Err(de::Error::custom("expected at least one name, found none"));
                }
                Ok(Named(entries))
            }
        }
        deserializer.deserialize_map(Visitor(std::marker::PhantomData))
    }
}

/// Every hand size and question, and every group's copies per hand size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// One case per (hand size, question), smallest hand first.
    pub cases: Vec<Case>,
    /// One entry per group, in the file's order.
    pub groups: Vec<GroupCopies>,
}

/// One question asked of one hand size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// Cards in the hand.
    pub draw: u64,
    /// The author's name for this hand size (`on the play`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<String>,
    /// The question's name.
    pub question: String,
    /// P(the hand meets the question).
    #[serde(with = "text")]
    pub probability: Exact,
    /// With a mulligan: P(the kept hand meets it) when a player draws a
    /// fresh hand of the same size whenever the hand fails, at most
    /// `redraws` times.
    #[serde(default, with = "text", skip_serializing_if = "Option::is_none")]
    pub with_mulligans: Option<Exact>,
}

/// How many copies of one group a hand holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupCopies {
    /// The group's name.
    pub group: String,
    /// Its copies in the deck.
    pub copies: u64,
    /// One entry per hand size, smallest first.
    pub draws: Vec<CopiesInHand>,
}

/// The distribution of one group's copies in one hand size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CopiesInHand {
    /// Cards in the hand.
    pub draw: u64,
    /// P(exactly c copies in the hand), c = 0, 1, ... up to the fewer of
    /// the copies and the hand.
    #[serde(with = "text")]
    pub exactly: Vec<Exact>,
    /// Mean copies in the hand: d K / N.
    #[serde(with = "text")]
    pub expected: Exact,
}

impl DeckList {
    fn grouped(&self) -> u64 {
        self.groups.0.iter().map(|(_, k)| k).sum()
    }
}

/// A question on a deck: (copies in the deck, copies needed) for each
/// group it names, and the cards of every other group or none.
struct Question {
    needs: Vec<(u64, u64)>,
    rest: u64,
}

impl Question {
    fn new(deck: &DeckList, needs: &Named<u64>) -> Question {
        let needs: Vec<(u64, u64)> = needs
            .0
            .iter()
            .map(|(group, need)| (*deck.groups.get(group).expect("validated group"), *need))
            .collect();
        let named: u64 = needs.iter().map(|(k, _)| k).sum();
        Question {
            needs,
            rest: deck.cards - named,
        }
    }

    /// Hands of `draw` cards that meet the question: the sum over copies
    /// c_g >= need_g of prod C(K_g, c_g) x C(rest, draw - sum c_g).
    fn ways(&self, draw: u64) -> BigUint {
        self.ways_from(0, draw)
    }

    fn ways_from(&self, group: usize, left: u64) -> BigUint {
        let Some(&(copies, need)) = self.needs.get(group) else {
            return binomial(self.rest, left);
        };
        (need..=copies.min(left))
            .map(|c| binomial(copies, c) * self.ways_from(group + 1, left - c))
            .sum()
    }

    /// Terms [`Question::ways`] sums for a hand of `draw`, as an estimate.
    fn terms(&self, draw: u64) -> f64 {
        self.needs
            .iter()
            .map(|&(copies, need)| (copies.min(draw).saturating_sub(need) + 1) as f64)
            .product()
    }
}

/// P(the kept hand meets it) when a failed hand is replaced by a fresh
/// one, up to `redraws` times: each hand fails independently with
/// 1 - p, so all of them fail with (1 - p)^(redraws + 1).
///
/// With 1 - p = m/d reduced, that is (d^k - m^k) / d^k for k = redraws + 1,
/// already reduced (a prime dividing d^k divides d, so not m^k): two
/// powers by repeated squaring and one subtraction, with no gcd of numbers
/// (r + 1) log2(d) bits long, which made the fraction power quadratic in
/// `redraws` (10,000 took 0.7 s, 100,000 over 20 s). The exponent is a
/// u128, so `u64::MAX` redraws do not wrap to no hand at all; the cost
///  refuses what would not fit before this runs.
pub(crate) fn with_redraws(p: &Exact, redraws: u64) -> Exact {
    let miss = Exact::one() - p;
    let (m, d) = (miss.numer().magnitude(), miss.denom().magnitude());
    let k = u128::from(redraws) + 1;
    let all = Pow::pow(d, k);
    let kept = &all - Pow::pow(m, k);
    Exact::new_raw(kept.into(), all.into())
}

impl Params {
    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for &draw in self.draws.values() {
            let hands = binomial(self.deck.cards, draw);
            for (name, needs) in &self.want.0 {
                let question = Question::new(&self.deck, needs);
                let probability = ratio(&question.ways(draw), &hands);
                let with_mulligans = self
                    .mulligan
                    .as_ref()
                    .map(|m| with_redraws(&probability, m.redraws));
                cases.push(Case {
                    draw,
                    hand: self.names.get(&draw).cloned(),
                    question: name.clone(),
                    probability,
                    with_mulligans,
                });
            }
        }
        cases
    }

    fn groups(&self) -> Vec<GroupCopies> {
        let cards = self.deck.cards;
        self.deck
            .groups
            .0
            .iter()
            .map(|&(ref group, copies)| GroupCopies {
                group: group.clone(),
                copies,
                draws: self
                    .draws
                    .values()
                    .iter()
                    .map(|&draw| copies_in_hand(cards, copies, draw))
                    .collect(),
            })
            .collect()
    }
}

/// C(K, c) C(N - K, d - c) / C(N, d) for every c: the hypergeometric law.
fn copies_in_hand(cards: u64, copies: u64, draw: u64) -> CopiesInHand {
    let hands = binomial(cards, draw);
    let exactly = (0..=copies.min(draw))
        .map(|c| {
            ratio(
                &(binomial(copies, c) * binomial(cards - copies, draw - c)),
                &hands,
            )
        })
        .collect();
    CopiesInHand {
        draw,
        exactly,
        expected: Exact::new((draw * copies).into(), cards.into()),
    }
}

impl Analysis for Deck {
    const NAME: &'static str = "deck";
    type Params = Params;
    type Results = Results;

    /// The groups must fit in the deck, the hands too, and every question
    /// must name groups of the deck and need no more copies than they hold.
    fn validate(params: &Params) -> Result<(), ParamError> {
        let refuse = |key, message: String| Err(ParamError { key, message });
        let deck = &params.deck;
        for &(ref group, copies) in &deck.groups.0 {
            if copies == 0 || copies > deck.cards {
                return refuse(
                    "deck",
                    format!(
                        "group `{group}` has {copies} copies; expected 1 to the deck's {} cards",
                        deck.cards
                    ),
                );
            }
        }
        if deck.grouped() > deck.cards {
            return refuse(
                "deck",
                format!(
                    "the groups hold {} cards, more than the deck's {}",
                    deck.grouped(),
                    deck.cards
                ),
            );
        }
        if params.draws.max() > deck.cards {
            return refuse(
                "draws",
                format!(
                    "a hand of {} cards is larger than the deck's {}",
                    params.draws.max(),
                    deck.cards
                ),
            );
        }
        for size in params.names.keys() {
            if !params.draws.values().contains(size) {
                return refuse("names", format!("{size} is not a hand size in `draws`"));
            }
        }
        for (question, needs) in &params.want.0 {
            for &(ref group, need) in &needs.0 {
                let Some(&copies) = deck.groups.get(group) else {
                    let known: Vec<&str> = deck.groups.0.iter().map(|(n, _)| n.as_str()).collect();
                    return refuse(
                        "want",
                        format!(
                            "question `{question}` names the group `{group}`, which the deck does not have (it has {})",
                            known.join(", ")
                        ),
                    );
                };
                if need == 0 || need > copies {
                    return refuse(
                        "want",
                        format!(
                            "question `{question}` needs {need} of `{group}`; expected 1 to its {copies} copies"
                        ),
                    );
                }
            }
        }
        Ok(())
    }

    /// A binomial C(n, k) takes k big-integer steps on numbers of up to
    /// k log2(n) bits; each term of a question's sum is a product of
    /// binomials whose k add up to at most the hand and the copies, and so
    /// is each copy count of a group's distribution.
    fn cost(params: &Params) -> Cost {
        let cards = params.deck.cards.max(2) as f64;
        let (mut word_ops, mut bytes) = (0.0, 0.0);
        for &draw in params.draws.values() {
            let d = draw as f64;
            let words = d * cards.log2() / 64.0 + 1.0;
            let mut steps = d;
            let mut fractions = 0.0;
            for (_, needs) in &params.want.0 {
                let question = Question::new_unchecked(&params.deck, needs);
                let copies: u64 = question.needs.iter().map(|(k, _)| k).sum();
                steps += question.terms(draw) * (d + copies as f64);
                fractions += 1.0;
            }
            for &(_, copies) in &params.deck.groups.0 {
                let counts = copies.min(draw) as f64 + 1.0;
                steps += counts * (d + copies as f64);
                fractions += counts;
            }
            word_ops += steps * words;
            bytes += fractions * words * 16.0;
        }
        Cost {
            seconds: word_ops / WORD_OPS_PER_SECOND,
            bytes,
            key: "draws",
            ..Cost::default()
        }
        .plus(mulligan_cost(params))
    }

    /// Over budget because of the mulligan: how long its fractions get.
    fn cost_detail(params: &Params) -> Option<String> {
        let mulligan = params.mulligan.as_ref()?;
        (Deck::cost(params).key == "mulligan").then(|| {
            format!(
                "`redraws: {}` makes each kept hand's chance an exact fraction of up to {:.0e} digits",
                mulligan.redraws,
                mulligan_bits(params.deck.cards, params.draws.max(), mulligan.redraws) * LOG10_2
            )
        })
    }

    fn analyse(params: &Params, _: &Progress) -> Results {
        Results {
            cases: params.cases(),
            groups: params.groups(),
        }
    }
}

/// log10(2): decimal digits per bit.
const LOG10_2: f64 = std::f64::consts::LOG10_2;

/// Seconds per (bits of a kept hand's fraction)^1.5: its two powers (Toom-3
/// multiplication) and their decimal spelling both grow about so. Measured
/// on a page build of 60 cards, 7 drawn, one question, 1 - p = 58565/97527:
/// 10^5 redraws (1.7 million bits) 0.83 s, 10^6 (16.6 million bits) 25 s
/// and 220 MB; `eval` 0.64 s and 18.9 s, 3 x 10^6 redraws 74 s.
const MULLIGAN_SECONDS_PER_BITS_1_5: f64 = 3e-10;

/// Bytes per decimal digit of a kept hand's fraction: the page build of
/// 10^6 redraws peaked at 220 MB for 10 million digits (the fraction is
/// spelled in the page, its JSON and its CSV).
const MULLIGAN_BYTES_PER_DIGIT: f64 = 25.0;

/// A kept hand's chance is (d^k - m^k) / d^k with k = redraws + 1 and d
/// the reduced denominator of p, which divides C(cards, draw): its two
/// numbers take up to k log2 C(cards, draw) bits each, so `redraws` is
/// priced by the size of that power, not by a count of steps (a billion
/// redraws would be fractions of billions of digits).
fn mulligan_cost(params: &Params) -> Cost {
    let Some(mulligan) = &params.mulligan else {
        return Cost::default();
    };
    let questions = params.want.0.len() as f64;
    let (mut seconds, mut bytes) = (0.0, 0.0);
    for &draw in params.draws.values() {
        let bits = mulligan_bits(params.deck.cards, draw, mulligan.redraws);
        seconds += questions * MULLIGAN_SECONDS_PER_BITS_1_5 * bits.powf(1.5);
        bytes += questions * 2.0 * bits * LOG10_2 * MULLIGAN_BYTES_PER_DIGIT;
    }
    Cost {
        seconds,
        bytes,
        key: "mulligan",
        ..Cost::default()
    }
}

/// Bits of the denominator of a kept hand's chance, at most: (redraws + 1)
/// times those of C(cards, draw), in floating point so that any count is
/// priced without overflow.
fn mulligan_bits(cards: u64, draw: u64, redraws: u64) -> f64 {
    (redraws as f64 + 1.0) * log2_binomial(cards, draw)
}

/// log2 C(n, k) from Stirling's series for ln n!, rounded up by a bit
/// (exact to far less than that), so that a deck of 10^12 cards is priced
/// at once. ln n! - ln (n - k)! is written with `ln_1p` so that a small
/// hand from a huge deck loses nothing to cancellation.
fn log2_binomial(n: u64, k: u64) -> f64 {
    let k = k.min(n.saturating_sub(k));
    if k == 0 {
        return 1.0;
    }
    let (n, k) = (n as f64, k as f64);
    let m = n - k;
    let falling =
        k * n.ln() - k - (m + 0.5) * (-k / n).ln_1p() + 1.0 / (12.0 * n) - 1.0 / (12.0 * m);
    let tau = 2.0 * std::f64::consts::PI;
    let ln_k_factorial = k * k.ln() - k + 0.5 * (tau * k).ln() + 1.0 / (12.0 * k);
    ((falling - ln_k_factorial) / std::f64::consts::LN_2).max(0.0) + 1.0
}

impl Question {
    /// For the cost, before validation: unknown groups count as empty.
    fn new_unchecked(deck: &DeckList, needs: &Named<u64>) -> Question {
        Question {
            needs: needs
                .0
                .iter()
                .map(|(group, need)| (deck.groups.get(group).copied().unwrap_or(0), *need))
                .collect(),
            rest: 0,
        }
    }
}

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
            .collect();
        Simulation::of(experiments)
    }
}

fn deal_experiment(params: &Params, results: &Results, draw: u64) -> Experiment {
    let groups = &params.deck.groups.0;
    let copies: Vec<u64> = groups.iter().map(|(_, k)| *k).collect();
    let cards = params.deck.cards;
    let questions: Vec<Vec<(usize, u64)>> = params
        .want
        .0
        .iter()
        .map(|(_, needs)| {
            needs
                .0
                .iter()
                .map(|(group, need)| {
                    (
                        groups.iter().position(|(n, _)| n == group).unwrap_or(0),
                        *need,
                    )
                })
                .collect()
        })
        .collect();
    let redraws = params.mulligan.as_ref().map(|m| m.redraws);
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

fn meets(held: &[u64], needs: &[(usize, u64)]) -> bool {
    needs.iter().all(|&(g, need)| held[g] >= need)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).unwrap()
    }

    fn results(yaml: &str) -> Results {
        Deck::analyse(&params(yaml), &Progress::hidden())
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
                        let mut needs = vec![("g0".to_string(), need_a)];
                        let mut indexed = vec![(0, need_a)];
                        if need_b > 0 {
                            needs.push(("g1".to_string(), need_b));
                            indexed.push((1, need_b));
                        }
                        let question = Question::new(&deck, &Named(needs));
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
}
