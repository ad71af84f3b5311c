//! What a question asks of a hand, as players ask it: counts of copies
//! that are ranges (`2..4`, `..3`, `2..`, `none`, or a bare number for at
//! least), several groups counted together (`land or searcher: 3..`), and
//! entries combined all together (the default) or any one of them
//! (`any: [...]`). Each value is checked while it is read, so a bad one is
//! reported at its own line and column.
//!
//! A hand's chance to meet a question is still the multivariate
//! hypergeometric sum: over the copies c_g of every group the question
//! names, prod C(K_g, c_g) x C(rest, d - sum c_g) for the vectors that meet
//! it, in big integers.

use super::DeckList;
use crate::engine::combinatorics::binomial_row_start;
use num_bigint::BigUint;
use num_traits::Zero;
use serde::de::{self, Deserializer};
use serde::Deserialize;
use std::fmt;

/// The forms a count of copies takes, for every message about one.
pub const COUNT_FORMS: &str = "`2` (at least 2), `2..4` (2 to 4), `2..2` (exactly 2), \
                               `..3` (at most 3), `2..` (at least 2) or `none` (no copies)";

/// How many copies a hand may hold: from `at_least` to `at_most` (no upper
/// bound when `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// The fewest copies that meet it.
    pub at_least: u64,
    /// The most copies that meet it, if any limit.
    pub at_most: Option<u64>,
}

impl Count {
    /// Whether `held` copies meet the count.
    pub fn holds(&self, held: u64) -> bool {
        held >= self.at_least && self.at_most.is_none_or(|most| held <= most)
    }

    /// Read `2..4`, `..3`, `2..`, `2..2`, `none` or a number.
    fn parse(text: &str) -> Result<Count, String> {
        let text = text.trim();
        if text == "none" {
            return Ok(Count {
                at_least: 0,
                at_most: Some(0),
            });
        }
        let bad = || format!("`{text}` is not a count of copies; expected {COUNT_FORMS}");
        let number = |part: &str| part.trim().parse::<u64>().map_err(|_| bad());
        let Some((low, high)) = text.split_once("..") else {
            return Count::at_least(number(text)?);
        };
        let at_least = if low.trim().is_empty() {
            0
        } else {
            number(low)?
        };
        let at_most = if high.trim().is_empty() {
            None
        } else {
            Some(number(high)?)
        };
        match at_most {
            None if at_least == 0 => Err(format!(
                "`{text}` holds any count of copies, so it asks nothing; expected {COUNT_FORMS}"
            )),
            Some(most) if most < at_least => Err(format!(
                "`{text}` reads from the low count to the high one: write `{most}..{at_least}`"
            )),
            _ => Ok(Count { at_least, at_most }),
        }
    }

    /// A bare number: at least that many, and never 0, which every hand
    /// holds (a player writing `land: 0` means no land).
    fn at_least(n: u64) -> Result<Count, String> {
        if n == 0 {
            return Err(format!(
                "`0` would ask for at least 0 copies, which every hand holds: write `none` \
                 (or `..0`) for a hand without any; expected {COUNT_FORMS}"
            ));
        }
        Ok(Count {
            at_least: n,
            at_most: None,
        })
    }
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> de::Visitor<'de> for Visitor {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "a count of copies: {COUNT_FORMS}")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Count, E> {
                Count::at_least(n).map_err(E::custom)
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Count, E> {
                match u64::try_from(n) {
                    Ok(n) => self.visit_u64(n),
                    Err(_) => Err(E::custom(format!(
                        "`{n}` is not a count of copies; expected {COUNT_FORMS}"
                    ))),
                }
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Count, E> {
                Count::parse(text).map_err(E::custom)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<Count, A::Error> {
                Err(de::Error::custom(format!(
                    "a range of copies is written `2..4`, not as a list; expected {COUNT_FORMS}"
                )))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, _: A) -> Result<Count, A::Error> {
                Err(de::Error::custom(format!(
                    "a range of copies is written `2..4`, not as a mapping; expected {COUNT_FORMS}"
                )))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// A question: what a hand must hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Want {
    /// Every part holds (a mapping's entries, or `all: [...]`).
    All(Vec<Want>),
    /// At least one part holds (`any: [...]`).
    Any(Vec<Want>),
    /// The copies of these groups together (one group, or several written
    /// `land or searcher`) meet the count.
    Copies {
        /// The groups counted together, as named.
        groups: Vec<String>,
        /// How many copies of them.
        count: Count,
    },
}

/// The groups of one entry's name: `land`, or `land or searcher` (also
/// `land + searcher`) counted together.
fn group_names(key: &str) -> Vec<String> {
    key.split(" or ")
        .flat_map(|part| part.split(" + "))
        .map(|name| name.trim().to_string())
        .collect()
}

/// One entry's value: a count, or for `any` and `all` a list of questions.
enum Entry {
    Count(Count),
    Parts(Vec<Want>),
}

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> de::Visitor<'de> for Visitor {
            type Value = Entry;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "a count of copies: {COUNT_FORMS}")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Entry, E> {
                Count::at_least(n).map(Entry::Count).map_err(E::custom)
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Entry, E> {
                Count::deserialize(de::value::I64Deserializer::<E>::new(n)).map(Entry::Count)
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Entry, E> {
                Count::parse(text).map(Entry::Count).map_err(E::custom)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Entry, A::Error> {
                let mut parts = Vec::new();
                while let Some(part) = seq.next_element::<Want>()? {
                    parts.push(part);
                }
                if parts.is_empty() {
                    return Err(de::Error::custom(
                        "expected at least one question in the list, found none",
                    ));
                }
                Ok(Entry::Parts(parts))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, _: A) -> Result<Entry, A::Error> {
                Err(de::Error::custom(
                    "`any` and `all` take a list of questions, such as [{land: 3..}, {searcher: 1}]",
                ))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

impl<'de> Deserialize<'de> for Want {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> de::Visitor<'de> for Visitor {
            type Value = Want;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a question: a mapping of groups to counts, such as {hero: 1, land: 2..4}",
                )
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Want, A::Error> {
                let mut parts = Vec::new();
                let mut keys: Vec<String> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if keys.contains(&key) {
                        return Err(de::Error::custom(format!("`{key}` is named twice")));
                    }
                    // `any` and `all` take a list of questions (or, as a
                    // group's name, a count); every other name a count.
                    let entry = match key.as_str() {
                        "any" | "all" => map.next_value::<Entry>()?,
                        _ => Entry::Count(map.next_value::<Count>()?),
                    };
                    let part = match (entry, key.as_str()) {
                        (Entry::Parts(parts), "any") => Want::Any(parts),
                        (Entry::Parts(parts), _) => Want::All(parts),
                        (Entry::Count(count), _) => Want::Copies {
                            groups: group_names(&key),
                            count,
                        },
                    };
                    keys.push(key);
                    parts.push(part);
                }
                if parts.is_empty() {
                    return Err(de::Error::custom("expected at least one group, found none"));
                }
                Ok(Want::All(parts))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

impl Want {
    /// Every group named, in the order first named.
    pub fn groups(&self) -> Vec<&str> {
        let mut names = Vec::new();
        self.visit(&mut |groups, _| {
            for g in groups {
                if !names.contains(&g.as_str()) {
                    names.push(g.as_str());
                }
            }
        });
        names
    }

    /// Call `f` on every entry's groups and count.
    pub fn visit<'a>(&'a self, f: &mut impl FnMut(&'a [String], Count)) {
        match self {
            Want::All(parts) | Want::Any(parts) => parts.iter().for_each(|p| p.visit(f)),
            Want::Copies { groups, count } => f(groups, *count),
        }
    }

    /// Entries and lists, for the cost of checking a hand against it.
    pub fn size(&self) -> usize {
        match self {
            Want::All(parts) | Want::Any(parts) => 1 + parts.iter().map(Want::size).sum::<usize>(),
            Want::Copies { groups, .. } => groups.len(),
        }
    }
}

/// A question compiled against a deck: each entry names slots, the
/// positions of its groups among the groups the question names.
#[derive(Debug, Clone)]
pub enum Rule {
    /// Every part holds.
    All(Vec<Rule>),
    /// At least one part holds.
    Any(Vec<Rule>),
    /// The copies in these slots, added up, meet the count.
    Count(Vec<usize>, Count),
}

impl Rule {
    /// Whether a hand holding `held[s]` copies of each slot meets it.
    pub fn holds(&self, held: &[u64]) -> bool {
        match self {
            Rule::All(parts) => parts.iter().all(|p| p.holds(held)),
            Rule::Any(parts) => parts.iter().any(|p| p.holds(held)),
            Rule::Count(slots, count) => count.holds(slots.iter().map(|&s| held[s]).sum()),
        }
    }
}

/// A question on a deck: the copies in the deck of each group it names
/// (its slots), the cards of every other group or none, and the rule.
#[derive(Debug, Clone)]
pub struct Question {
    /// Copies in the deck of each slot's group.
    pub copies: Vec<u64>,
    /// Index in the deck's groups of each slot.
    pub group_index: Vec<usize>,
    /// Cards in no slot.
    pub rest: u64,
    /// What the copies in the slots must meet.
    pub rule: Rule,
}

impl Question {
    /// Compile `want` against `deck`; unknown groups count as empty (the
    /// cost reads questions before validation refuses them).
    pub fn new(deck: &DeckList, want: &Want) -> Question {
        let names = want.groups();
        let group_index: Vec<usize> = names
            .iter()
            .map(|n| {
                deck.groups
                    .0
                    .iter()
                    .position(|(g, _)| g == n)
                    .unwrap_or(usize::MAX)
            })
            .collect();
        let copies: Vec<u64> = group_index
            .iter()
            .map(|&i| deck.groups.0.get(i).map_or(0, |(_, k)| *k))
            .collect();
        let named: u64 = copies.iter().sum();
        Question {
            rule: compile(want, &names),
            rest: deck.cards.saturating_sub(named),
            copies,
            group_index,
        }
    }

    /// Copies of each slot a hand of `draw` can hold that the question
    /// may accept: every slot 0 to its copies, narrowed by the counts
    /// every hand meeting it must meet (a top-level entry of one group).
    /// With `slack`, the upper ends are raised by that many copies (a
    /// London hand holds up to `slack` cards it will put on the bottom).
    pub fn bounds(&self, draw: u64, slack: u64) -> Vec<(u64, u64)> {
        let mut bounds: Vec<(u64, u64)> = self.copies.iter().map(|&k| (0, k.min(draw))).collect();
        let top: &[Rule] = match &self.rule {
            Rule::All(parts) => parts,
            one => std::slice::from_ref(one),
        };
        for part in top {
            if let Rule::Count(slots, count) = part {
                if let [slot] = slots[..] {
                    let (low, high) = &mut bounds[slot];
                    *low = (*low).max(count.at_least);
                    *high = (*high).min(
                        count
                            .at_most
                            .map_or(u64::MAX, |most| most.saturating_add(slack)),
                    );
                }
            }
        }
        bounds
    }

    /// Vectors of copies [`Question::ways`] visits for a hand of `draw`,
    /// as an estimate.
    pub fn terms(&self, draw: u64, slack: u64) -> f64 {
        self.bounds(draw, slack)
            .iter()
            .map(|&(low, high)| (high.saturating_sub(low) + 1) as f64)
            .product()
    }

    /// Hands of `draw` cards that meet the question.
    pub fn ways(&self, draw: u64) -> BigUint {
        self.sum_hands(draw, 0, &mut |held, _| self.rule.holds(held))
    }

    /// Hands of `draw` cards whose copies per slot `accept` takes (given
    /// the copies and the cards in no slot): the sum over such vectors c of
    /// prod C(K_s, c_s) x C(rest, draw - sum c_s), within
    /// [`Question::bounds`] for `slack`.
    pub fn sum_hands(
        &self,
        draw: u64,
        slack: u64,
        accept: &mut dyn FnMut(&[u64], u64) -> bool,
    ) -> BigUint {
        let bounds = self.bounds(draw, slack);
        let rows: Vec<Vec<BigUint>> = (self.copies.iter().zip(&bounds))
            .map(|(&k, &(_, high))| binomial_row_start(k, high + 1))
            .collect();
        // Shorter than the hand when few cards are in no slot.
        let rest = binomial_row_start(self.rest, draw + 1);
        let mut held = vec![0; self.copies.len()];
        let mut total = BigUint::zero();
        let mut walk = Walk {
            bounds: &bounds,
            rows: &rows,
            rest: &rest,
            held: &mut held,
            accept,
            total: &mut total,
        };
        walk.from(0, draw, BigUint::from(1u8));
        total
    }
}

/// The depth-first walk of [`Question::sum_hands`].
struct Walk<'a> {
    bounds: &'a [(u64, u64)],
    rows: &'a [Vec<BigUint>],
    rest: &'a [BigUint],
    held: &'a mut Vec<u64>,
    accept: &'a mut dyn FnMut(&[u64], u64) -> bool,
    total: &'a mut BigUint,
}

impl Walk<'_> {
    fn from(&mut self, slot: usize, left: u64, ways: BigUint) {
        let Some(&(low, high)) = self.bounds.get(slot) else {
            if let Some(others) = self.rest.get(left as usize) {
                if (self.accept)(self.held, left) {
                    *self.total += ways * others;
                }
            }
            return;
        };
        for c in low..=high.min(left) {
            self.held[slot] = c;
            self.from(slot + 1, left - c, &ways * &self.rows[slot][c as usize]);
        }
    }
}

fn compile(want: &Want, names: &[&str]) -> Rule {
    match want {
        Want::All(parts) => Rule::All(parts.iter().map(|p| compile(p, names)).collect()),
        Want::Any(parts) => Rule::Any(parts.iter().map(|p| compile(p, names)).collect()),
        Want::Copies { groups, count } => Rule::Count(
            groups
                .iter()
                .map(|g| names.iter().position(|n| n == g).expect("named"))
                .collect(),
            *count,
        ),
    }
}

/// Whether `want` names only groups of `deck`, and can be met by some
/// hand (every count's low end at most the copies it counts): `Err` says
/// which entry does not.
pub fn check(deck: &DeckList, question: &str, want: &Want) -> Result<(), String> {
    let mut problem = None;
    want.visit(&mut |groups, count| {
        if problem.is_some() {
            return;
        }
        let mut copies = 0;
        for group in groups {
            match deck.groups.get(group) {
                Some(k) => copies += k,
                None => {
                    let known: Vec<&str> = deck.groups.0.iter().map(|(n, _)| n.as_str()).collect();
                    problem = Some(format!(
                        "question `{question}` names the group `{group}`, which the deck does not have (it has {})",
                        known.join(", ")
                    ));
                    return;
                }
            }
        }
        if count.at_least > copies {
            let of = groups.join(" or ");
            problem = Some(format!(
                "question `{question}` needs {} of `{of}`; expected 1 to its {copies} copies",
                count.at_least
            ));
        }
    });
    problem.map_or(Ok(()), Err)
}
