//! `deck`: what a hand drawn from a shuffled deck holds, exactly.
//!
//! Drawing d cards without replacement from a deck of N, made of named
//! groups of K_g copies and other cards, follows the multivariate
//! hypergeometric law: a hand with c_g copies of each group is one of
//! prod C(K_g, c_g) x C(rest, d - sum c_g) equally likely hands out of
//! C(N, d). A question ("at least one hero and two allies") sums those
//! counts over the copies that meet it, in big integers, so every chance
//! is an exact fraction. Questions are read in [`want`], mulligans in
//! [`mulligan`].

mod mulligan;
mod simulate;
#[cfg(test)]
mod tests;
pub mod want;

pub use mulligan::{KeepIf, Method, Mulligan, MulliganSteps, Step};
pub use want::{Count, Want};

use crate::analyses::values::SizeSet;
use crate::engine::combinatorics::binomial;
use crate::engine::{ratio, text, Exact};
use crate::progress::Progress;
use num_traits::{One, Pow};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use want::Question;

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
    /// The questions, in the file's order: each a count of copies (a
    /// range) of the groups it names, all of them or any one.
    pub want: Named<Want>,
    /// Drawing another hand when the first cannot be kept.
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
    /// With a mulligan that has `keep_if`: the chance of a keepable hand
    /// after each mulligan, and the mean size of the hand kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mulligan: Option<MulliganSteps>,
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
    /// With a `redraw` mulligan: P(the kept hand meets it) when a player
    /// draws a fresh hand of the same size whenever the hand fails, at
    /// most `redraws` times.
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
            for (name, want) in &self.want.0 {
                let question = Question::new(&self.deck, want);
                let probability = ratio(&question.ways(draw), &hands);
                let with_mulligans = self
                    .mulligan
                    .as_ref()
                    .filter(|m| m.rule == Method::Redraw)
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

    /// The opening hand a mulligan starts from.
    fn opening(&self) -> u64 {
        (self.mulligan.as_ref())
            .and_then(|m| m.hand)
            .unwrap_or_else(|| self.draws.min())
    }

    fn mulligan_steps(&self) -> Option<MulliganSteps> {
        let mulligan = self.mulligan.as_ref()?;
        let keep = mulligan.keep(&self.want)?;
        Some(mulligan::steps(&self.deck, mulligan, keep, self.opening()))
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
        for (question, want) in &params.want.0 {
            want::check(deck, question, want).or_else(|message| refuse("want", message))?;
        }
        match &params.mulligan {
            Some(mulligan) => validate_mulligan(params, mulligan),
            None => Ok(()),
        }
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
            for (_, want) in &params.want.0 {
                let question = Question::new(&params.deck, want);
                let copies: u64 = question.copies.iter().sum();
                steps += question.terms(draw, 0) * (d + copies as f64 + want.size() as f64);
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
        if Deck::cost(params).key != "mulligan" {
            return None;
        }
        if mulligan.rule.shrinks() {
            return Some(format!(
                "`rule: {}` with `redraws: {}` sums every hand of {} cards by the copies of the \
                 groups `keep_if` names, once per mulligan",
                mulligan.rule.name(),
                mulligan.redraws,
                params.opening()
            ));
        }
        Some(format!(
            "`redraws: {}` makes each kept hand's chance an exact fraction of up to {:.0e} digits",
            mulligan.redraws,
            mulligan_bits(params.deck.cards, params.draws.max(), mulligan.redraws) * LOG10_2
        ))
    }

    fn analyse(params: &Params, _: &Progress) -> Results {
        Results {
            cases: params.cases(),
            groups: params.groups(),
            mulligan: params.mulligan_steps(),
        }
    }
}

/// The mulligan's keys together: an opening hand the deck holds, a
/// `keep_if` that names a question of `want` or asks of the deck's groups
/// (required by the rules that cost cards), and no more mulligans than
/// cards to lose.
fn validate_mulligan(params: &Params, mulligan: &Mulligan) -> Result<(), ParamError> {
    let refuse = |message: String| {
        Err(ParamError {
            key: "mulligan",
            message,
        })
    };
    let (opening, cards) = (params.opening(), params.deck.cards);
    if opening == 0 || opening > cards {
        return refuse(format!(
            "an opening hand of {opening} cards; expected 1 to the deck's {cards}"
        ));
    }
    let rule = mulligan.rule.name();
    match &mulligan.keep_if {
        None if mulligan.rule.shrinks() => {
            return refuse(format!(
                "`rule: {rule}` needs `keep_if`: the hands a player keeps, such as \
                 `keep_if: {{land: 2..5}}`, or the name of a question in `want`"
            ))
        }
        None => {}
        Some(KeepIf::Named(name)) if params.want.get(name).is_none() => {
            let known: Vec<&str> = params.want.0.iter().map(|(n, _)| n.as_str()).collect();
            return refuse(format!(
                "`keep_if: {name}` names no question of `want` (it has {})",
                known.join(", ")
            ));
        }
        Some(KeepIf::Named(_)) => {}
        Some(KeepIf::Written(want)) => {
            want::check(&params.deck, "keep_if", want).or_else(refuse)?;
        }
    }
    if mulligan.rule.shrinks() && mulligan.redraws > opening {
        return refuse(format!(
            "`rule: {rule}` loses a card per mulligan: a hand of {opening} allows at most \
             {opening} mulligans, not {}",
            mulligan.redraws
        ));
    }
    Ok(())
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
    let steps = steps_cost(params, mulligan);
    if mulligan.rule != Method::Redraw {
        return steps;
    }
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
    .plus(steps)
}

/// The steps of a mulligan with `keep_if`: each step's sum over the
/// copies of the groups it names (a London step tries every split of its
/// bottom cards for each), and each step's fractions. The chance of
/// reaching step m has a denominator of up to m log2 C(cards, hand) bits,
/// so the rows' fractions grow with their number: priced in closed form
/// (a `redraw` rule may allow billions of steps), with a gcd's quadratic
/// cost per fraction.
fn steps_cost(params: &Params, mulligan: &Mulligan) -> Cost {
    let Some(keep) = mulligan.keep(&params.want) else {
        return Cost::default();
    };
    let question = want::Question::new(&params.deck, keep);
    let opening = params.opening();
    let slots = question.copies.len();
    let words = opening as f64 * (params.deck.cards.max(2) as f64).log2() / 64.0 + 1.0;
    let per_term = |bottom: u64| {
        mulligan::bottom_choices(bottom, slots) * keep.size() as f64 + slots as f64 + words
    };
    let mut word_ops = 0.0;
    let last = match mulligan.rule {
        Method::Redraw => 0,
        _ => mulligan.redraws.min(opening),
    };
    for m in 0..=last {
        word_ops += match mulligan.rule {
            Method::London => question.terms(opening, m) * per_term(m) * words,
            _ => question.terms(mulligan.drawn_after(opening, m), 0) * per_term(0) * words,
        };
    }
    let rows = mulligan.redraws as f64 + 1.0;
    let bits = log2_binomial(params.deck.cards, opening.min(params.deck.cards / 2));
    // Sums over m of (m bits)^1.5 and (m bits / 64)^2, four fractions a row.
    let powers = 4.0 * MULLIGAN_SECONDS_PER_BITS_1_5 * bits.powf(1.5) * rows.powf(2.5) / 2.5;
    let gcds = 4.0 * (bits / 64.0).powi(2) * rows.powi(3) / 3.0 / WORD_OPS_PER_SECOND;
    Cost {
        seconds: word_ops / WORD_OPS_PER_SECOND + powers + gcds,
        bytes: 4.0 * bits * rows * rows / 2.0 * LOG10_2 * MULLIGAN_BYTES_PER_DIGIT,
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
