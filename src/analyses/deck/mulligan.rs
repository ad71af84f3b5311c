//! Mulligans as card games play them: a player who cannot keep a hand
//! draws another, under one of four rules.
//!
//! - `redraw`: the same number of cards again (the simplest rule; without
//!   `keep_if`, every question is its own keep rule, as before).
//! - `london`: the full hand again, then one card to the bottom of the
//!   deck per mulligan taken. The hand is keepable when some choice of
//!   those bottom cards leaves a hand that meets `keep_if`.
//! - `vancouver` and `paris`: a fresh hand of one card fewer per mulligan.
//!   Vancouver's scry 1 comes after the hand is kept and changes the cards
//!   drawn later, never the hand, so both give the same figures here.
//!
//! Each step's chance is exact: a multivariate hypergeometric sum over the
//! copies of the groups `keep_if` names.

use super::want::{Question, Want};
use super::{DeckList, Named};
use crate::engine::combinatorics::binomial;
use crate::engine::{ratio, text, Exact};
use num_traits::{One, Zero};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The mulligan rule: how a player who cannot keep a hand draws another.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mulligan {
    /// Which rule; `redraw` when not written.
    #[serde(default)]
    pub rule: Method,
    /// Mulligans a player may take, at most; the last hand is kept.
    pub redraws: u64,
    /// The hands a player keeps: a question, or the name of one in `want`.
    #[serde(default)]
    pub keep_if: Option<KeepIf>,
    /// The opening hand's size; the smallest of `draws` when not written.
    #[serde(default)]
    pub hand: Option<u64>,
}

/// The four rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// A fresh hand of the same size.
    #[default]
    Redraw,
    /// The full hand again, one card to the bottom per mulligan.
    London,
    /// One card fewer per mulligan, then scry 1 if smaller than the opening.
    Vancouver,
    /// One card fewer per mulligan.
    Paris,
}

impl Method {
    /// Its name as written in a scenario.
    pub fn name(self) -> &'static str {
        match self {
            Method::Redraw => "redraw",
            Method::London => "london",
            Method::Vancouver => "vancouver",
            Method::Paris => "paris",
        }
    }

    /// Whether each mulligan costs a card.
    pub fn shrinks(self) -> bool {
        self != Method::Redraw
    }
}

/// `keep_if`: a question written out, or the name of one in `want`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeepIf {
    /// The name of a question in `want`.
    Named(String),
    /// A question written in place.
    Written(Want),
}

impl<'de> Deserialize<'de> for KeepIf {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> de::Visitor<'de> for Visitor {
            type Value = KeepIf;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a question, such as {land: 2..5}, or the name of one of the questions in `want`",
                )
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<KeepIf, E> {
                Ok(KeepIf::Named(name.to_string()))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<KeepIf, A::Error> {
                Want::deserialize(de::value::MapAccessDeserializer::new(map)).map(KeepIf::Written)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

impl Mulligan {
    /// The question a kept hand meets, if any (`None`: no `keep_if`, or a
    /// name `want` lacks, which validation refuses).
    pub fn keep<'a>(&'a self, want: &'a Named<Want>) -> Option<&'a Want> {
        match self.keep_if.as_ref()? {
            KeepIf::Named(name) => want.get(name),
            KeepIf::Written(want) => Some(want),
        }
    }

    /// Cards in the hand kept after `mulligans` of them, from an opening
    /// hand of `opening`.
    pub fn hand_after(&self, opening: u64, mulligans: u64) -> u64 {
        if self.rule.shrinks() {
            opening.saturating_sub(mulligans)
        } else {
            opening
        }
    }

    /// Cards drawn at that step (the London rule draws the full hand).
    pub fn drawn_after(&self, opening: u64, mulligans: u64) -> u64 {
        match self.rule {
            Method::London | Method::Redraw => opening,
            Method::Vancouver | Method::Paris => opening.saturating_sub(mulligans),
        }
    }
}

/// What the mulligan rule gives, step by step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MulliganSteps {
    /// The rule.
    pub rule: Method,
    /// Cards in the opening hand.
    pub opening: u64,
    /// One step per hand a player may see: 0 mulligans, 1, ...
    pub steps: Vec<Step>,
    /// P(the hand kept meets `keep_if`): kept at some step, not forced.
    #[serde(with = "text")]
    pub keepable_kept: Exact,
    /// Mean cards in the hand kept (the last one is kept whatever it holds).
    #[serde(with = "text")]
    pub expected_hand: Exact,
}

/// The hand seen after some mulligans.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Mulligans taken before this hand.
    pub mulligans: u64,
    /// Cards kept at this step.
    pub hand: u64,
    /// P(the player sees this hand): every hand before it failed.
    #[serde(with = "text")]
    pub reached: Exact,
    /// P(this hand can be kept, given that it is seen).
    #[serde(with = "text")]
    pub keepable: Exact,
    /// P(a keepable hand has been kept by this step).
    #[serde(with = "text")]
    pub kept_by: Exact,
}

/// Every step of the rule, from the opening hand to the last mulligan.
pub fn steps(deck: &DeckList, mulligan: &Mulligan, keep: &Want, opening: u64) -> MulliganSteps {
    let question = Question::new(deck, keep);
    let mut reached = Exact::one();
    let mut kept_by = Exact::zero();
    let mut expected_hand = Exact::zero();
    let mut steps = Vec::new();
    let mut same_size = None;
    for mulligans in 0..=mulligan.redraws {
        let hand = mulligan.hand_after(opening, mulligans);
        let keepable = match mulligan.rule {
            // The same chance every time: computed once.
            Method::Redraw => same_size
                .get_or_insert_with(|| keepable_fresh(&question, deck.cards, hand))
                .clone(),
            Method::London => keepable_london(&question, deck.cards, opening, mulligans),
            Method::Vancouver | Method::Paris => keepable_fresh(&question, deck.cards, hand),
        };
        let kept_here = &reached * &keepable;
        kept_by += &kept_here;
        let hand_cards = Exact::from_integer(hand.into());
        if mulligans == mulligan.redraws {
            // The last hand is kept whatever it holds.
            expected_hand += &reached * hand_cards;
        } else {
            expected_hand += &kept_here * hand_cards;
        }
        let next = &reached - &kept_here;
        steps.push(Step {
            mulligans,
            hand,
            reached,
            keepable,
            kept_by: kept_by.clone(),
        });
        reached = next;
    }
    MulliganSteps {
        rule: mulligan.rule,
        opening,
        steps,
        keepable_kept: kept_by,
        expected_hand,
    }
}

/// P(a fresh hand of `hand` cards meets the question).
fn keepable_fresh(question: &Question, cards: u64, hand: u64) -> Exact {
    ratio(&question.ways(hand), &binomial(cards, hand))
}

/// P(a hand of `opening` cards keeps, after `bottom` of them go to the
/// bottom, a hand that meets the question, for the best choice of them).
fn keepable_london(question: &Question, cards: u64, opening: u64, bottom: u64) -> Exact {
    let ways = question.sum_hands(opening, bottom, &mut |held, others| {
        can_bottom(question, held, others, bottom)
    });
    ratio(&ways, &binomial(cards, opening))
}

/// Whether some choice of `bottom` cards (b_s copies of each slot, the
/// rest from the `others` cards in no slot) leaves copies that meet the
/// question. Every split of `bottom` among the slots is tried.
pub fn can_bottom(question: &Question, held: &[u64], others: u64, bottom: u64) -> bool {
    let mut kept = held.to_vec();
    try_bottom(question, &mut kept, 0, others, bottom)
}

fn try_bottom(question: &Question, kept: &mut [u64], slot: usize, others: u64, left: u64) -> bool {
    if slot == kept.len() {
        return left <= others && question.rule.holds(kept);
    }
    let held = kept[slot];
    for b in 0..=held.min(left) {
        kept[slot] = held - b;
        if try_bottom(question, kept, slot + 1, others, left - b) {
            kept[slot] = held;
            return true;
        }
    }
    kept[slot] = held;
    false
}

/// Ways to split `bottom` cards among `slots` groups and the other cards:
/// C(bottom + slots, slots), the choices [`can_bottom`] tries at most.
pub fn bottom_choices(bottom: u64, slots: usize) -> f64 {
    (1..=slots as u64).fold(1.0, |acc, i| acc * (bottom + i) as f64 / i as f64)
}
