//! `reroll`: pick one of n cards with a single die, rerolling faces that name
//! no card, and banish several cards one after another.
//!
//! Each scheme is a map from faces to cards (or to "roll again"); every figure
//! is counted from that map, so the schemes are compared on the same footing.

use crate::analyses::values::{DicePool, SizeSet};
use crate::engine::{abs_diff, exact_string, to_f64, Exact};
use crate::layout::blocks::{
    Block, Cell, Chart, ChartKind, Reference, ScenarioPage, Series, Table,
};
use num_traits::{One, Zero};
use serde::de::{self, Deserializer};
use serde::Deserialize;
use serde_json::{json, Value};
use std::fmt;

use super::{Cost, ParamError};
use crate::layout::cells::{fraction, optional_fraction, yes_no};

/// Face visits per second, measured on a modest machine.
const STEPS_PER_SECOND: f64 = 3.3e6;

/// One die rolled alone: `d8` or `1d8`, never `2d8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Die {
    /// Faces, numbered `1..=sides`.
    pub sides: u64,
}

impl Die {
    /// Parse `d8` or `1d8`; a pool of several dice is refused because these
    /// schemes read one face.
    pub fn parse(text: &str) -> Result<Die, String> {
        let pool = DicePool::parse(text)?;
        match pool.count {
            None | Some(1) => Ok(Die { sides: pool.sides }),
            Some(count) => Err(format!(
                "{text:?} rolls {count} dice: this scheme reads a single die, such as \"d{}\"",
                pool.sides
            )),
        }
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.sides)
    }
}

impl<'de> Deserialize<'de> for Die {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct DieVisitor;
        impl de::Visitor<'_> for DieVisitor {
            type Value = Die;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a single die like \"d8\"")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Die, E> {
                Die::parse(text).map_err(E::custom)
            }
        }
        // Validating inside the visitor lets serde_yaml attach the value's position.
        deserializer.deserialize_str(DieVisitor)
    }
}

/// How faces are given to cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// Face i names card i; faces above n are rolled again.
    OneFace,
    /// Each card owns floor(f/n) consecutive faces; the rest are rolled again.
    MultiFace,
    /// Face x names card x mod n (card n for 0); never rolled again.
    Mod,
}

impl Scheme {
    /// Every scheme, in the order results list them.
    pub const ALL: [Scheme; 3] = [Scheme::OneFace, Scheme::MultiFace, Scheme::Mod];

    /// The name used in results.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::OneFace => "one-face",
            Scheme::MultiFace => "multi-face",
            Scheme::Mod => "mod",
        }
    }

    /// The card face `face` names among `cards`, `None` for a reroll.
    pub fn card_of(self, face: u64, cards: u64, sides: u64) -> Option<u64> {
        match self {
            Scheme::OneFace => (face <= cards).then_some(face),
            Scheme::MultiFace => {
                let per_card = sides / cards;
                (face <= cards * per_card).then(|| (face - 1) / per_card + 1)
            }
            Scheme::Mod => Some(match face % cards {
                0 => cards,
                rest => rest,
            }),
        }
    }
}

/// One scheme for n cards and one die, counted face by face.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// Cards n.
    pub cards: u64,
    /// Faces f of the die.
    pub sides: u64,
    /// The scheme.
    pub scheme: Scheme,
    /// Faces owned by each card 1..n.
    pub faces_of_card: Vec<u64>,
    /// Faces that are rolled again.
    pub rerolled_faces: u64,
}

impl Case {
    /// Count the faces of every card under `scheme`.
    pub fn count(cards: u64, sides: u64, scheme: Scheme) -> Case {
        let mut faces_of_card = vec![0; cards as usize];
        let mut rerolled_faces = 0;
        for face in 1..=sides {
            match scheme.card_of(face, cards, sides) {
                Some(card) => faces_of_card[card as usize - 1] += 1,
                None => rerolled_faces += 1,
            }
        }
        Case {
            cards,
            sides,
            scheme,
            faces_of_card,
            rerolled_faces,
        }
    }

    /// Every card can come up.
    pub fn feasible(&self) -> bool {
        self.faces_of_card.iter().all(|&faces| faces > 0)
    }

    /// The fewest faces any card owns.
    pub fn faces_per_card(&self) -> u64 {
        self.faces_of_card.iter().copied().min().unwrap_or(0)
    }

    fn accepted_faces(&self) -> u64 {
        self.sides - self.rerolled_faces
    }

    /// Mean rolls until a face names a card: f / accepted faces, the mean of
    /// a geometric law. `None` when every face is rolled again.
    pub fn expected_rolls(&self) -> Option<Exact> {
        let accepted = self.accepted_faces();
        (accepted > 0).then(|| Exact::new(self.sides.into(), accepted.into()))
    }

    /// P(card i) for i = 1..n, given that the rolls end; `None` if they never do.
    pub fn card_probabilities(&self) -> Option<Vec<Exact>> {
        let accepted = self.accepted_faces();
        (accepted > 0).then(|| {
            self.faces_of_card
                .iter()
                .map(|&faces| Exact::new(faces.into(), accepted.into()))
                .collect()
        })
    }

    /// Every card equally likely.
    pub fn uniform(&self) -> bool {
        self.accepted_faces() > 0 && self.faces_of_card.windows(2).all(|w| w[0] == w[1])
    }

    /// max over cards of |P(card) - 1/n|.
    pub fn max_abs_deviation(&self) -> Option<Exact> {
        let fair = Exact::new(One::one(), self.cards.into());
        self.card_probabilities()?
            .iter()
            .map(|p| abs_diff(p, &fair))
            .max()
    }

    fn to_json(&self) -> Value {
        json!({
            "cards": self.cards,
            "die": self.sides,
            "scheme": self.scheme.name(),
            "feasible": self.feasible(),
            "faces_per_card": self.faces_per_card(),
            "rerolled_faces": self.rerolled_faces,
            "expected_rolls": self.expected_rolls().as_ref().map(exact_string),
            "card_probabilities": self.card_probabilities()
                .map(|ps| ps.iter().map(exact_string).collect::<Vec<_>>()),
            "uniform": self.uniform(),
            "max_abs_deviation": self.max_abs_deviation().as_ref().map(exact_string),
        })
    }

    fn row(&self) -> Vec<Cell> {
        vec![
            Cell::plain(self.cards.to_string()),
            Cell::plain(format!("d{}", self.sides)),
            Cell::plain(self.scheme.name()),
            yes_no(self.feasible()),
            Cell::plain(self.faces_per_card().to_string()),
            Cell::plain(self.rerolled_faces.to_string()),
            optional_fraction(self.expected_rolls().as_ref()),
            yes_no(self.uniform()),
            optional_fraction(self.max_abs_deviation().as_ref()),
        ]
    }
}

/// Mean rolls to pick one of `cards` with a `sides` die under `multi-face`;
/// `None` when the die has fewer faces than there are cards.
pub fn multi_face_rolls(cards: u64, sides: u64) -> Option<Exact> {
    Case::count(cards, sides, Scheme::MultiFace).expected_rolls()
}

/// The die of `dice` with the fewest expected `multi-face` rolls for `cards`,
/// fewer faces winning ties; `None` if none has enough faces.
pub fn best_die(cards: u64, dice: &[Die]) -> Option<(Die, Exact)> {
    dice.iter()
        .filter_map(|&die| multi_face_rolls(cards, die.sides).map(|rolls| (die, rolls)))
        .min_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)))
}

/// Which die each banishing stage uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageDie {
    /// The same die at every stage.
    Fixed(Die),
    /// The best die of the list for the cards left.
    Best,
}

/// Banishing `banish` cards from `cards`, one after another, renumbering the
/// rest each time.
#[derive(Debug, Clone, PartialEq)]
pub struct Banishing {
    /// Cards at the start.
    pub cards: u64,
    /// Cards banished.
    pub banish: u64,
    /// The die rule.
    pub die: StageDie,
    /// The die of each stage; `None` where a single card is left and no roll
    /// is needed, or where no die of the list has enough faces.
    pub stage_dice: Vec<Option<Die>>,
    /// Sum of the stages' expected rolls; `None` if a stage has no die with enough faces.
    pub expected_total_rolls: Option<Exact>,
}

impl Banishing {
    /// Work out the stages under `multi-face`.
    pub fn new(cards: u64, banish: u64, die: StageDie, dice: &[Die]) -> Banishing {
        let mut stage_dice = Vec::new();
        let mut total = Some(Exact::zero());
        for left in (cards - banish + 1..=cards).rev() {
            if left == 1 {
                stage_dice.push(None);
                continue;
            }
            let (stage_die, rolls) = match die {
                StageDie::Fixed(die) => (Some(die), multi_face_rolls(left, die.sides)),
                StageDie::Best => best_die(left, dice).unzip(),
            };
            stage_dice.push(stage_die);
            total = total.zip(rolls).map(|(sum, rolls)| sum + rolls);
        }
        Banishing {
            cards,
            banish,
            die,
            stage_dice,
            expected_total_rolls: total,
        }
    }

    fn die_label(&self) -> String {
        match self.die {
            StageDie::Fixed(die) => die.to_string(),
            StageDie::Best => "best".into(),
        }
    }

    fn stage_sides(&self) -> Vec<Option<u64>> {
        self.stage_dice.iter().map(|d| d.map(|d| d.sides)).collect()
    }

    fn to_json(&self) -> Value {
        json!({
            "cards": self.cards,
            "banish": self.banish,
            "die": match self.die {
                StageDie::Fixed(die) => json!(die.sides),
                StageDie::Best => json!("best"),
            },
            "expected_total_rolls": self.expected_total_rolls.as_ref().map(exact_string),
            "stage_dice": self.stage_sides(),
        })
    }

    fn row(&self) -> Vec<Cell> {
        let stages: Vec<String> = self
            .stage_sides()
            .iter()
            .map(|s| s.map_or("none".into(), |s| format!("d{s}")))
            .collect();
        vec![
            Cell::plain(self.cards.to_string()),
            Cell::plain(self.die_label()),
            Cell::plain(stages.join(", ")),
            optional_fraction(self.expected_total_rolls.as_ref()),
        ]
    }
}

/// Parameters of a `reroll` scenario.
#[derive(Debug, Clone, Deserialize)]
pub struct Params {
    /// How many cards are laid out: a number, a list or a range.
    pub cards: SizeSet,
    /// The dice on offer, one die each.
    pub dice: Vec<Die>,
    /// Cards banished one after another, if asked.
    #[serde(default)]
    pub banish: Option<u64>,
}

impl Params {
    /// Cross-key checks and the work budget: each case walks every face and
    /// writes one probability per card.
    pub fn validate(&self) -> Result<(), ParamError> {
        if self.dice.is_empty() {
            return Err(ParamError {
                key: "dice",
                message: "expected at least one die, such as [d6, d8]".into(),
            });
        }
        let mut sorted = self.dice.clone();
        sorted.sort();
        if let Some(pair) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(ParamError {
                key: "dice",
                message: format!("{} is listed twice", pair[0]),
            });
        }
        if let Some(banish) = self.banish {
            if banish == 0 || banish > self.cards.max() {
                return Err(ParamError {
                    key: "banish",
                    message: format!(
                        "cannot banish {banish} card(s) from at most {} cards: \
                         expected 1 to {}",
                        self.cards.max(),
                        self.cards.max()
                    ),
                });
            }
        }
        Ok(())
    }

    /// Every case walks every face (banishing walks them again per stage)
    /// and writes one probability per card.
    pub fn cost(&self) -> Cost {
        let faces: f64 = self.dice.iter().map(|d| d.sides as f64).sum();
        let cards: f64 = self.cards.values().iter().map(|&n| n as f64).sum();
        let counts = self.cards.values().len() as f64;
        let stages = self.banish.unwrap_or(0) as f64;
        let steps = counts * faces * (3.0 + stages * (self.dice.len() as f64 + 1.0));
        // One probability per card per (cards, die, scheme): reduced, written
        // as JSON, CSV and HTML (measured: 1..150 cards, 5 dice, 0.4 s).
        let probabilities = 3.0 * self.dice.len() as f64 * cards;
        let seconds = steps / STEPS_PER_SECOND + probabilities * 2.5e-6;
        let bytes = probabilities * 12.0 * 4.0;
        Cost {
            seconds,
            bytes,
            key: if steps / STEPS_PER_SECOND > probabilities * 2.5e-6 {
                "dice"
            } else {
                "cards"
            },
        }
    }

    /// Every (cards, die, scheme), cards first.
    pub fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for &cards in self.cards.values() {
            for die in &self.dice {
                for scheme in Scheme::ALL {
                    cases.push(Case::count(cards, die.sides, scheme));
                }
            }
        }
        cases
    }

    /// The banishing rows: each die, then the best die, for every n >= k.
    pub fn banishings(&self) -> Vec<Banishing> {
        let Some(banish) = self.banish else {
            return Vec::new();
        };
        let rules: Vec<StageDie> = self
            .dice
            .iter()
            .map(|&d| StageDie::Fixed(d))
            .chain([StageDie::Best])
            .collect();
        self.cards
            .values()
            .iter()
            .filter(|&&n| n >= banish)
            .flat_map(|&n| {
                rules
                    .iter()
                    .map(move |&rule| Banishing::new(n, banish, rule, &self.dice))
            })
            .collect()
    }

    /// The results contract and the page.
    pub fn analyse(&self) -> ScenarioPage {
        let cases = self.cases();
        let banishings = self.banishings();
        let best: Vec<Value> = self
            .cards
            .values()
            .iter()
            .map(|&n| {
                let best = best_die(n, &self.dice);
                json!({
                    "cards": n,
                    "die": best.as_ref().map(|(d, _)| d.sides),
                    "expected_rolls": best.as_ref().map(|(_, r)| exact_string(r)),
                })
            })
            .collect();
        let mut results = json!({
            "cases": cases.iter().map(Case::to_json).collect::<Vec<_>>(),
            "best_die": best,
        });
        if self.banish.is_some() {
            results["banish"] = banishings.iter().map(Banishing::to_json).collect();
        }
        let mut blocks = vec![
            Block::Heading {
                text: "Expected rolls per die".into(),
            },
            Block::Chart(self.rolls_chart()),
            Block::Table(self.rolls_table()),
            Block::Table(self.best_table()),
        ];
        if !banishings.is_empty() {
            blocks.push(Block::Heading {
                text: "Banishing several cards".into(),
            });
            blocks.push(Block::Table(banish_table(&banishings)));
        }
        blocks.push(Block::Heading {
            text: "The mod shortcut".into(),
        });
        blocks.extend(self.mod_blocks());
        blocks.push(Block::Heading {
            text: "Every scheme".into(),
        });
        blocks.push(Block::Table(cases_table(&cases)));
        ScenarioPage { results, blocks }
    }

    fn rolls_table(&self) -> Table {
        let mut columns = vec!["cards".to_string()];
        columns.extend(self.dice.iter().map(|d| d.to_string()));
        Table {
            id: "expected-rolls".into(),
            caption: "Expected rolls to pick a card, several faces per card (multi-face)".into(),
            columns,
            rows: self
                .cards
                .values()
                .iter()
                .map(|&n| {
                    let mut row = vec![Cell::plain(n.to_string())];
                    row.extend(
                        self.dice
                            .iter()
                            .map(|d| optional_fraction(multi_face_rolls(n, d.sides).as_ref())),
                    );
                    row
                })
                .collect(),
        }
    }

    fn rolls_chart(&self) -> Chart {
        Chart {
            id: "expected-rolls".into(),
            title: "Expected rolls against the number of cards".into(),
            description: "Mean number of rolls until a face names a card, each card owning \
                          as many faces as the die allows; a die appears once it has enough faces."
                .into(),
            kind: ChartKind::Lines,
            x_label: "cards n".into(),
            y_label: "expected rolls".into(),
            log_y: false,
            series: self
                .dice
                .iter()
                .map(|d| Series {
                    name: d.to_string(),
                    points: self
                        .cards
                        .values()
                        .iter()
                        .filter_map(|&n| {
                            multi_face_rolls(n, d.sides).map(|r| (n as f64, to_f64(&r)))
                        })
                        .collect(),
                })
                .collect(),
            reference: Some(Reference {
                label: "a single roll".into(),
                y: 1.0,
            }),
            table_id: Some("expected-rolls".into()),
        }
    }

    fn best_table(&self) -> Table {
        Table {
            id: "best-die".into(),
            caption: "The die with the fewest expected rolls (multi-face), fewer faces on ties"
                .into(),
            columns: vec!["cards".into(), "die".into(), "expected rolls".into()],
            rows: self
                .cards
                .values()
                .iter()
                .map(|&n| {
                    let best = best_die(n, &self.dice);
                    vec![
                        Cell::plain(n.to_string()),
                        Cell::plain(best.as_ref().map_or("none".into(), |(d, _)| d.to_string())),
                        optional_fraction(best.as_ref().map(|(_, r)| r)),
                    ]
                })
                .collect(),
        }
    }

    /// For each die, the largest card count it does not divide: there the
    /// mod shortcut favours the low cards most visibly.
    fn mod_examples(&self) -> Vec<Case> {
        self.dice
            .iter()
            .filter_map(|d| {
                self.cards
                    .values()
                    .iter()
                    .rev()
                    .find(|&&n| n <= d.sides && d.sides % n != 0)
                    .map(|&n| Case::count(n, d.sides, Scheme::Mod))
            })
            .collect()
    }

    fn mod_blocks(&self) -> Vec<Block> {
        let mut blocks = Vec::new();
        for case in self.mod_examples() {
            let id = format!("mod-d{}-{}", case.sides, case.cards);
            let probabilities = case.card_probabilities().expect("mod always ends");
            let n = case.cards;
            blocks.push(Block::Chart(Chart {
                id: id.clone(),
                title: format!("d{} mod {n}: each card's chance", case.sides),
                description: format!(
                    "Probability of each of {n} cards when a d{} is read mod {n}, \
                     beside the fair share 1/{n}.",
                    case.sides
                ),
                kind: ChartKind::Bars,
                x_label: "card".into(),
                y_label: "probability".into(),
                log_y: false,
                series: vec![Series {
                    name: "probability of the card".into(),
                    points: probabilities
                        .iter()
                        .enumerate()
                        .map(|(i, p)| ((i + 1) as f64, to_f64(p)))
                        .collect(),
                }],
                reference: Some(Reference {
                    label: format!("fair share 1/{n}"),
                    y: 1.0 / n as f64,
                }),
                table_id: Some(id.clone()),
            }));
            blocks.push(Block::Table(Table {
                id,
                caption: format!("d{} mod {n}: faces and probability per card", case.sides),
                columns: vec!["card".into(), "faces".into(), "probability".into()],
                rows: probabilities
                    .iter()
                    .zip(&case.faces_of_card)
                    .enumerate()
                    .map(|(i, (p, faces))| {
                        vec![
                            Cell::plain((i + 1).to_string()),
                            Cell::plain(faces.to_string()),
                            fraction(p),
                        ]
                    })
                    .collect(),
            }));
        }
        blocks
    }
}

fn cases_table(cases: &[Case]) -> Table {
    Table {
        id: "cases".into(),
        caption: "Every number of cards, die and scheme".into(),
        columns: [
            "cards",
            "die",
            "scheme",
            "every card possible",
            "faces per card (fewest)",
            "rerolled faces",
            "expected rolls",
            "uniform",
            "max |P(card) − 1/n|",
        ]
        .map(String::from)
        .to_vec(),
        rows: cases.iter().map(Case::row).collect(),
    }
}

fn banish_table(banishings: &[Banishing]) -> Table {
    Table {
        id: "banish".into(),
        caption: "Expected rolls to banish several cards one after another (multi-face)".into(),
        columns: ["cards", "die", "die per stage", "expected total rolls"]
            .map(String::from)
            .to_vec(),
        rows: banishings.iter().map(Banishing::row).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ratio;
    use num_bigint::BigUint;

    fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).unwrap()
    }

    fn frac(p: u64, q: u64) -> Exact {
        Exact::new(p.into(), q.into())
    }

    #[test]
    fn reroll_schemes_are_exactly_uniform_with_the_geometric_mean() {
        for sides in 2..=30u64 {
            for cards in 1..=sides {
                let per_card = sides / cards;
                for scheme in [Scheme::OneFace, Scheme::MultiFace] {
                    let case = Case::count(cards, sides, scheme);
                    assert!(case.feasible() && case.uniform(), "{cards} d{sides}");
                    for p in case.card_probabilities().unwrap() {
                        assert_eq!(p, frac(1, cards));
                    }
                    assert_eq!(case.max_abs_deviation(), Some(Exact::zero()));
                }
                // Independent formula: f / (n floor(f/n)).
                assert_eq!(
                    multi_face_rolls(cards, sides),
                    Some(frac(sides, cards * per_card))
                );
                let one_face = Case::count(cards, sides, Scheme::OneFace);
                assert_eq!(one_face.expected_rolls(), Some(frac(sides, cards)));
                assert_eq!(one_face.rerolled_faces, sides - cards);
            }
        }
    }

    #[test]
    fn the_rules_d20_example_gives_four_faces_to_each_of_five_cards() {
        let case = Case::count(5, 20, Scheme::MultiFace);
        assert_eq!(case.faces_of_card, [4; 5]);
        assert_eq!(case.rerolled_faces, 0);
        assert_eq!(case.expected_rolls(), Some(Exact::one()));
        // Faces 1-4 name card 1 and 17-20 card 5, as the rules lay them out.
        let cards: Vec<u64> = (1..=20)
            .map(|f| Scheme::MultiFace.card_of(f, 5, 20).unwrap())
            .collect();
        assert_eq!(&cards[..4], &[1; 4]);
        assert_eq!(&cards[16..], &[5; 4]);
    }

    #[test]
    fn mod_scheme_matches_a_brute_force_reading_of_every_face() {
        for sides in 2..=20u64 {
            for cards in 1..=12u64 {
                let case = Case::count(cards, sides, Scheme::Mod);
                // Brute force: read each face's remainder and tally by hand.
                let mut tally = vec![0u64; cards as usize];
                for face in 1..=sides {
                    tally[((face + cards - 1) % cards) as usize] += 1;
                }
                let expected: Vec<Exact> = tally.iter().map(|&t| frac(t, sides)).collect();
                assert_eq!(case.card_probabilities().unwrap(), expected);
                assert_eq!(case.expected_rolls(), Some(Exact::one()));
                assert_eq!(case.uniform(), sides % cards == 0);
                assert_eq!(case.feasible(), sides >= cards);
            }
        }
        // d6 mod 4: cards 1 and 2 own two faces, 3 and 4 one.
        let case = Case::count(4, 6, Scheme::Mod);
        assert_eq!(case.faces_of_card, [2, 2, 1, 1]);
        assert_eq!(case.max_abs_deviation(), Some(frac(1, 12)));
    }

    #[test]
    fn too_small_dice_are_flagged() {
        let multi = Case::count(7, 6, Scheme::MultiFace);
        assert!(!multi.feasible());
        assert_eq!(multi.expected_rolls(), None);
        assert_eq!(multi.card_probabilities(), None);
        assert_eq!(multi.rerolled_faces, 6);
        let one = Case::count(8, 6, Scheme::OneFace);
        assert!(!one.feasible());
        assert_eq!(one.max_abs_deviation(), Some(frac(1, 8)));
    }

    #[test]
    fn the_rules_worked_example_takes_52_over_21_rolls() {
        let d8 = Die { sides: 8 };
        let row = Banishing::new(7, 2, StageDie::Fixed(d8), &[d8]);
        assert_eq!(row.expected_total_rolls, Some(frac(52, 21)));
        assert_eq!(row.stage_dice, [Some(d8), Some(d8)]);
        // Switching to a d6 for the second stage, as the rules allow.
        let dice = [Die { sides: 6 }, d8];
        let best = Banishing::new(7, 2, StageDie::Best, &dice);
        assert_eq!(best.expected_total_rolls, Some(frac(8, 7) + Exact::one()));
        assert_eq!(best.stage_dice, [Some(d8), Some(Die { sides: 6 })]);
    }

    #[test]
    fn a_single_card_left_needs_no_roll() {
        let d6 = Die { sides: 6 };
        let row = Banishing::new(2, 2, StageDie::Fixed(d6), &[d6]);
        assert_eq!(row.expected_total_rolls, Some(frac(1, 1)));
        assert_eq!(row.stage_dice, [Some(d6), None]);
        let short = Banishing::new(8, 2, StageDie::Fixed(d6), &[d6]);
        assert_eq!(short.expected_total_rolls, None);
    }

    #[test]
    fn best_die_prefers_fewest_rolls_then_fewest_faces() {
        let dice: Vec<Die> = [20, 12, 10, 8, 6].map(|sides| Die { sides }).to_vec();
        // Brute force over the list with the independent formula.
        for cards in 1..=20u64 {
            let expected = dice
                .iter()
                .filter(|d| d.sides >= cards)
                .map(|d| {
                    (
                        ratio(
                            &BigUint::from(d.sides),
                            &BigUint::from(cards * (d.sides / cards)),
                        ),
                        d.sides,
                    )
                })
                .min();
            let got = best_die(cards, &dice).map(|(d, r)| (r, d.sides));
            assert_eq!(got, expected, "{cards} cards");
        }
        assert_eq!(best_die(5, &dice).unwrap().0.sides, 10);
        assert_eq!(best_die(7, &dice).unwrap().0.sides, 8);
        assert_eq!(best_die(11, &dice).unwrap().0.sides, 12);
    }

    #[test]
    fn json_contract() {
        let report = params("cards: [5, 7]\ndice: [d6, d8]\nbanish: 2").analyse();
        let r = &report.results;
        assert_eq!(r["cases"].as_array().unwrap().len(), 2 * 2 * 3);
        assert_eq!(
            r["cases"][1],
            json!({"cards": 5, "die": 6, "scheme": "multi-face", "feasible": true,
                   "faces_per_card": 1, "rerolled_faces": 1, "expected_rolls": "6/5",
                   "card_probabilities": ["1/5", "1/5", "1/5", "1/5", "1/5"],
                   "uniform": true, "max_abs_deviation": "0/1"})
        );
        assert_eq!(r["cases"][2]["expected_rolls"], "1/1");
        assert_eq!(
            r["best_die"][1],
            json!({"cards": 7, "die": 8, "expected_rolls": "8/7"})
        );
        let banish = r["banish"].as_array().unwrap();
        assert_eq!(banish.len(), 2 * 3);
        assert_eq!(
            banish[4],
            json!({"cards": 7, "banish": 2, "die": 8, "expected_total_rolls": "52/21",
                   "stage_dice": [8, 8]})
        );
        assert_eq!(banish[5]["die"], "best");
        assert_eq!(banish[5]["stage_dice"], json!([8, 6]));
        assert!(report.chart("expected-rolls").is_some());
        assert!(report.table("mod-d8-7").is_some());
        assert!(params("cards: 3\ndice: [d6]")
            .analyse()
            .results
            .get("banish")
            .is_none());
    }

    #[test]
    fn bad_parameters_are_refused() {
        let err = |yaml: &str| params(yaml).validate().unwrap_err();
        assert_eq!(err("cards: [3, 4]\ndice: [d6]\nbanish: 5").key, "banish");
        assert_eq!(err("cards: 3\ndice: [d6]\nbanish: 0").key, "banish");
        assert_eq!(err("cards: 3\ndice: []").key, "dice");
        assert!(err("cards: 3\ndice: [d6, D6]").message.contains("twice"));
        let budget = crate::analyses::Budget::default();
        let big = params("cards: \"1..5000\"\ndice: [d20]").cost();
        assert_eq!(big.key, "cards");
        assert!(big.bytes > crate::analyses::Budget::BYTES, "{big:?}");
        let huge_die = params("cards: 3\ndice: [d1000000000]").cost();
        assert_eq!(huge_die.key, "dice");
        assert!(budget.admit(&huge_die).is_err(), "{huge_die:?}");
        assert!(budget
            .admit(&params("cards: \"1..10\"\ndice: [d6, d20]\nbanish: 2").cost())
            .is_ok());
        assert!(serde_yaml::from_str::<Params>("cards: 3\ndice: [2d6]").is_err());
    }

    #[test]
    fn bad_files_are_located() {
        use crate::scenario::parse;
        let at = |text: &str| {
            let e = parse("rules/r.yaml", text).unwrap_err();
            (e.line, e.column, e.message)
        };
        let head = "title: T\nkind: reroll\n";
        let (line, column, message) = at(&format!("{head}cards: 0\ndice: [d6]\n"));
        assert_eq!((line, column), (3, 8), "{message}");
        let (line, column, message) = at(&format!("{head}cards: 3\ndice: [d6, d8, d1O]\n"));
        assert_eq!((line, column), (4, 16), "{message}");
        assert!(message.contains("expected dice"), "{message}");
        let (line, _, message) = at(&format!("{head}cards: 3\ndice: [d1]\n"));
        assert_eq!(line, 4);
        assert!(message.contains("at least 2 faces"), "{message}");
        let (line, column, message) = at(&format!("{head}cards: 3\ndice: [d6]\nbanish: 4\n"));
        assert_eq!((line, column), (5, 9));
        assert!(message.starts_with("banish: cannot banish 4"), "{message}");
    }
}
