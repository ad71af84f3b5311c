//! `reroll`: pick one of n cards with a single die, rerolling faces that name
//! no card, and banish several cards one after another.
//!
//! Each scheme is a map from faces to cards (or to "roll again"); every figure
//! is counted from that map, so the schemes are compared on the same footing.

use crate::analyses::simulate::{Event, Experiment, Sampler, Simulate, Simulation};
use crate::analyses::values::SizeSet;
use crate::engine::{abs_diff, text, to_f64, Exact};
use crate::progress::Progress;
use num_traits::{One, ToPrimitive, Zero};
use serde::{Deserialize, Serialize};

use super::{Analysis, Cost, ParamError};

/// Face visits per second, measured on a modest machine.
const STEPS_PER_SECOND: f64 = 3.3e6;

/// The `reroll` kind.
pub struct Reroll;

/// How faces are given to cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
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
    pub(crate) const ALL: [Scheme; 3] = [Scheme::OneFace, Scheme::MultiFace, Scheme::Mod];

    /// The name used in results (as serde spells it).
    pub fn name(self) -> &'static str {
        match self {
            Scheme::OneFace => "one-face",
            Scheme::MultiFace => "multi-face",
            Scheme::Mod => "mod",
        }
    }

    /// The card face `face` names among `cards`, `None` for a reroll.
    pub(crate) fn card_of(self, face: u64, cards: u64, sides: u64) -> Option<u64> {
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

/// One scheme for n cards and one die, counted face by face: the map every
/// figure of a [`Case`] is worked out from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FaceCount {
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

impl FaceCount {
    /// Count the faces of every card under `scheme`. A single card is
    /// chosen without rolling: whatever the die would show names it, so
    /// every scheme gives it every face and none is rolled again.
    pub fn count(cards: u64, sides: u64, scheme: Scheme) -> FaceCount {
        let mut faces_of_card = vec![0; cards as usize];
        let mut rerolled_faces = 0;
        for face in 1..=sides {
            let card = match cards {
                1 => Some(1),
                _ => scheme.card_of(face, cards, sides),
            };
            match card {
                Some(card) => faces_of_card[card as usize - 1] += 1,
                None => rerolled_faces += 1,
            }
        }
        FaceCount {
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
    pub(crate) fn faces_per_card(&self) -> u64 {
        self.faces_of_card.iter().copied().min().unwrap_or(0)
    }

    fn accepted_faces(&self) -> u64 {
        self.sides - self.rerolled_faces
    }

    /// Mean rolls until a face names a card: f / accepted faces, the mean of
    /// a geometric law; 0 for a single card, which needs no roll. `None`
    /// when some card can never come up (the scheme cannot choose fairly
    /// among them all, whatever the number of rolls).
    pub(crate) fn expected_rolls(&self) -> Option<Exact> {
        if !self.feasible() {
            return None;
        }
        if self.cards == 1 {
            return Some(Exact::zero());
        }
        Some(Exact::new(self.sides.into(), self.accepted_faces().into()))
    }

    /// P(card i) for i = 1..n, given that the rolls end; `None` if they never do.
    pub(crate) fn card_probabilities(&self) -> Option<Vec<Exact>> {
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

    /// max over cards of |P(card) - 1/n|; `None` when some card can never
    /// come up.
    pub fn max_abs_deviation(&self) -> Option<Exact> {
        if !self.feasible() {
            return None;
        }
        let fair = Exact::new(One::one(), self.cards.into());
        self.card_probabilities()?
            .iter()
            .map(|p| abs_diff(p, &fair))
            .max()
    }
}

/// Mean rolls to pick one of `cards` with a `sides` die under `multi-face`;
/// `None` when the die has fewer faces than there are cards.
pub(crate) fn multi_face_rolls(cards: u64, sides: u64) -> Option<Exact> {
    FaceCount::count(cards, sides, Scheme::MultiFace).expected_rolls()
}

/// The die of `dice` (by their faces) with the fewest expected
/// `multi-face` rolls for `cards`, fewer faces winning ties; `None` if none
/// has enough faces.
pub(crate) fn best_die(cards: u64, dice: &[u64]) -> Option<(u64, Exact)> {
    dice.iter()
        .filter_map(|&sides| multi_face_rolls(cards, sides).map(|rolls| (sides, rolls)))
        .min_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)))
}

/// A die numbered 1 to `sides` as authors write it: `d8`.
pub(crate) fn die_name(sides: u64) -> String {
    format!("d{sides}")
}

/// Which die each banishing stage uses. Results spell a fixed die by its
/// faces and the other rule as `"best"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "StageDieSpelling", try_from = "StageDieSpelling")]
pub enum StageDie {
    /// The same die at every stage, by its faces.
    Fixed(u64),
    /// The best die of the list for the cards left.
    Best,
}

/// [`StageDie`] as the results contract spells it.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum StageDieSpelling {
    Sides(u64),
    Rule(String),
}

impl From<StageDie> for StageDieSpelling {
    fn from(rule: StageDie) -> Self {
        match rule {
            StageDie::Fixed(sides) => StageDieSpelling::Sides(sides),
            StageDie::Best => StageDieSpelling::Rule("best".into()),
        }
    }
}

impl TryFrom<StageDieSpelling> for StageDie {
    type Error = String;
    fn try_from(spelling: StageDieSpelling) -> Result<Self, String> {
        match spelling {
            StageDieSpelling::Sides(sides) => Ok(StageDie::Fixed(sides)),
            StageDieSpelling::Rule(rule) if rule == "best" => Ok(StageDie::Best),
            StageDieSpelling::Rule(rule) => Err(format!(
                "expected a number of faces or \"best\", found {rule:?}"
            )),
        }
    }
}

/// Every figure of the scenario, worked out exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Every (cards, die, scheme), in that order: cards first, then the
    /// dice as listed, then [`Scheme::ALL`].
    pub cases: Vec<Case>,
    /// The best die for each number of cards.
    pub best_die: Vec<BestDie>,
    /// The banishing rows, only when the scenario asks to banish (the key is
    /// absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub banish: Option<Vec<Banishing>>,
}

/// One scheme for n cards and one die.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// Cards n.
    pub cards: u64,
    /// Faces f of the die.
    pub die: u64,
    /// The scheme.
    pub scheme: Scheme,
    /// Every card can come up.
    pub feasible: bool,
    /// The fewest faces any card owns.
    pub faces_per_card: u64,
    /// Faces that are rolled again.
    pub rerolled_faces: u64,
    /// Mean rolls until a face names a card (0 for a single card); `None`
    /// when some card can never come up.
    #[serde(with = "text")]
    pub expected_rolls: Option<Exact>,
    /// P(card i) for i = 1..n, given that the rolls end; `None` if they never do.
    #[serde(with = "text")]
    pub card_probabilities: Option<Vec<Exact>>,
    /// Every card equally likely.
    pub uniform: bool,
    /// max over cards of |P(card) - 1/n|; `None` when some card can never
    /// come up.
    #[serde(with = "text")]
    pub max_abs_deviation: Option<Exact>,
}

impl Case {
    /// `cards` cards, a die of `sides` faces, under `scheme`.
    pub fn of(cards: u64, sides: u64, scheme: Scheme) -> Case {
        let count = FaceCount::count(cards, sides, scheme);
        Case {
            cards,
            die: sides,
            scheme,
            feasible: count.feasible(),
            faces_per_card: count.faces_per_card(),
            rerolled_faces: count.rerolled_faces,
            expected_rolls: count.expected_rolls(),
            card_probabilities: count.card_probabilities(),
            uniform: count.uniform(),
            max_abs_deviation: count.max_abs_deviation(),
        }
    }

    /// Faces owned by each card 1..n, read back from the probabilities
    /// (each is faces / accepted faces): the contract does not list them,
    /// and the page shows them beside the mod shortcut's probabilities.
    pub(crate) fn faces_of_card(&self) -> Option<Vec<u64>> {
        let accepted = Exact::from_integer((self.die - self.rerolled_faces).into());
        self.card_probabilities.as_ref().map(|probabilities| {
            probabilities
                .iter()
                .map(|p| {
                    (p * &accepted)
                        .to_integer()
                        .to_u64()
                        .expect("at most the die's faces")
                })
                .collect()
        })
    }
}

/// The best die for one number of cards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BestDie {
    /// Cards n.
    pub cards: u64,
    /// Faces of the die with the fewest expected `multi-face` rolls; `None`
    /// if no die has enough faces.
    pub die: Option<u64>,
    /// Its expected rolls.
    #[serde(with = "text")]
    pub expected_rolls: Option<Exact>,
}

impl BestDie {
    /// The best of `dice` for `cards` cards.
    pub fn of(cards: u64, dice: &[u64]) -> BestDie {
        let (die, expected_rolls) = best_die(cards, dice).unzip();
        BestDie {
            cards,
            die,
            expected_rolls,
        }
    }
}

/// Banishing `banish` cards from `cards`, one after another, renumbering the
/// rest each time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Banishing {
    /// Cards at the start.
    pub cards: u64,
    /// Cards banished.
    pub banish: u64,
    /// The die rule.
    pub die: StageDie,
    /// Sum of the stages' expected rolls; `None` if a stage has no die with enough faces.
    #[serde(with = "text")]
    pub expected_total_rolls: Option<Exact>,
    /// Faces of each stage's die; `None` where a single card is left and no
    /// roll is needed, or where no die of the list has enough faces.
    pub stage_dice: Vec<Option<u64>>,
}

impl Banishing {
    /// Work out the stages under `multi-face`.
    pub fn new(cards: u64, banish: u64, die: StageDie, dice: &[u64]) -> Banishing {
        let mut stage_dice = Vec::new();
        let mut total = Some(Exact::zero());
        for left in (cards - banish + 1..=cards).rev() {
            if left == 1 {
                stage_dice.push(None);
                continue;
            }
            let (stage_die, rolls) = match die {
                StageDie::Fixed(sides) => (Some(sides), multi_face_rolls(left, sides)),
                StageDie::Best => best_die(left, dice).unzip(),
            };
            stage_dice.push(stage_die);
            total = total.zip(rolls).map(|(sum, rolls)| sum + rolls);
        }
        Banishing {
            cards,
            banish,
            die,
            expected_total_rolls: total,
            stage_dice,
        }
    }
}

/// Parameters of a `reroll` scenario.
#[derive(Debug, Clone, Deserialize)]
pub struct Params {
    /// How many cards are laid out: a number, a list or a range.
    pub cards: SizeSet,
    /// The dice on offer, one die each, by their faces (`d8` is 8): a
    /// list, or one die.
    #[serde(deserialize_with = "crate::analyses::pool::read::standard_dice")]
    pub dice: Vec<u64>,
    /// Cards banished one after another, if asked.
    #[serde(default)]
    pub banish: Option<u64>,
}

impl Params {
    /// Every (cards, die, scheme), cards first.
    pub fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for &cards in self.cards.values() {
            for &sides in &self.dice {
                for scheme in Scheme::ALL {
                    cases.push(Case::of(cards, sides, scheme));
                }
            }
        }
        cases
    }

    /// The banishing rows, if asked: each die, then the best die, for every
    /// n >= k.
    pub(crate) fn banishings(&self) -> Option<Vec<Banishing>> {
        let banish = self.banish?;
        let rules: Vec<StageDie> = self
            .dice
            .iter()
            .map(|&d| StageDie::Fixed(d))
            .chain([StageDie::Best])
            .collect();
        let rows = self
            .cards
            .values()
            .iter()
            .filter(|&&n| n >= banish)
            .flat_map(|&n| {
                rules
                    .iter()
                    .map(move |&rule| Banishing::new(n, banish, rule, &self.dice))
            })
            .collect();
        Some(rows)
    }
}

impl Analysis for Reroll {
    const NAME: &'static str = "reroll";
    type Params = Params;
    type Results = Results;

    /// Dice listed once each, and no more cards banished than the largest
    /// pile holds.
    fn validate(params: &Params) -> Result<(), ParamError> {
        if params.dice.is_empty() {
            return Err(ParamError {
                key: "dice",
                message: "expected at least one die, such as [d6, d8]".into(),
            });
        }
        let mut sorted = params.dice.clone();
        sorted.sort();
        if let Some(pair) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(ParamError {
                key: "dice",
                message: format!("{} is listed twice", die_name(pair[0])),
            });
        }
        if let Some(banish) = params.banish {
            if banish == 0 || banish > params.cards.max() {
                return Err(ParamError {
                    key: "banish",
                    message: format!(
                        "cannot banish {banish} card(s) from at most {} cards: \
                         expected 1 to {}",
                        params.cards.max(),
                        params.cards.max()
                    ),
                });
            }
        }
        Ok(())
    }

    /// Every case walks every face (banishing walks them again per stage)
    /// and writes one probability per card.
    fn cost(params: &Params) -> Cost {
        let faces: f64 = params.dice.iter().map(|&sides| sides as f64).sum();
        let cards: f64 = params.cards.values().iter().map(|&n| n as f64).sum();
        let counts = params.cards.values().len() as f64;
        let stages = params.banish.unwrap_or(0) as f64;
        let steps = counts * faces * (3.0 + stages * (params.dice.len() as f64 + 1.0));
        // One probability per card per (cards, die, scheme): reduced, written
        // as JSON, CSV and HTML (measured: 1..150 cards, 5 dice, 0.4 s).
        let probabilities = 3.0 * params.dice.len() as f64 * cards;
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
            ..Cost::default()
        }
    }

    fn analyse(params: &Params, _: &Progress) -> Results {
        Results {
            cases: params.cases(),
            best_die: params
                .cards
                .values()
                .iter()
                .map(|&n| BestDie::of(n, &params.dice))
                .collect(),
            banish: params.banishings(),
        }
    }
}

/// The procedure as a player follows it: roll the die, read the face by
/// the scheme's rule, roll again while it names no card; for banishing,
/// one such pick per stage with the stage's die, renumbering the cards
/// left. Each card against its exact probability, and the rolls against
/// their exact mean.
impl Simulate for Reroll {
    fn simulation(_: &Params, results: &Results) -> Simulation {
        let picks = results.cases.iter().filter_map(pick_experiment);
        let banishings = results
            .banish
            .iter()
            .flatten()
            .filter_map(banish_experiment);
        Simulation::of(picks.chain(banishings).collect())
    }
}

/// The card a face names, read from the rules as written, or `None` when
/// the face is rolled again.
fn read_face(scheme: Scheme, face: u64, cards: u64, sides: u64) -> Option<u64> {
    match scheme {
        Scheme::OneFace => (face <= cards).then_some(face),
        Scheme::MultiFace => {
            let block = sides / cards;
            (block > 0 && face <= block * cards).then(|| face.div_ceil(block))
        }
        Scheme::Mod => Some((face - 1) % cards + 1),
    }
}

/// Roll until a face names a card: the card and the rolls it took. A
/// single card is chosen without a roll.
fn pick(sampler: &mut Sampler, scheme: Scheme, cards: u64, sides: u64) -> (u64, u64) {
    if cards == 1 {
        return (1, 0);
    }
    let mut rolls = 0;
    loop {
        rolls += 1;
        if let Some(card) = read_face(scheme, sampler.die(sides), cards, sides) {
            return (card, rolls);
        }
    }
}

fn pick_experiment(case: &Case) -> Option<Experiment> {
    // A scheme whose every face is rolled again never ends: nothing to play.
    let probabilities = case.card_probabilities.as_ref()?;
    let expected_rolls = case.expected_rolls.clone()?;
    let (cards, sides, scheme) = (case.cards, case.die, case.scheme);
    Some(Experiment {
        label: format!("{cards} cards, d{sides}, {}", scheme.name()),
        events: probabilities
            .iter()
            .enumerate()
            .map(|(i, p)| Event::new(format!("card {}", i + 1), p.clone()))
            .collect(),
        steps_per_trial: to_f64(&expected_rolls),
        means: vec![Event::geometric_mean("rolls", expected_rolls)],
        trial: Box::new(move |sampler, trial| {
            let (card, rolls) = pick(sampler, scheme, cards, sides);
            trial.hit(card as usize - 1);
            trial.measure(0, rolls);
        }),
    })
}

fn banish_experiment(row: &Banishing) -> Option<Experiment> {
    let expected = row.expected_total_rolls.clone()?;
    let stages: Vec<(u64, u64)> = (row.cards - row.banish + 1..=row.cards)
        .rev()
        .zip(&row.stage_dice)
        .filter_map(|(left, die)| die.map(|sides| (left, sides)))
        .collect();
    let rule = match row.die {
        StageDie::Fixed(sides) => die_name(sides),
        StageDie::Best => "the best die".into(),
    };
    Some(Experiment {
        label: format!("banish {} of {} cards, {rule}", row.banish, row.cards),
        events: Vec::new(),
        steps_per_trial: to_f64(&expected),
        means: vec![Event::new("rolls", expected).with_variance(stages_variance(&stages))],
        trial: Box::new(move |sampler, trial| {
            let rolls = stages
                .iter()
                .map(|&(left, sides)| pick(sampler, Scheme::MultiFace, left, sides).1)
                .sum();
            trial.measure(0, rolls);
        }),
    })
}

/// The variance of the rolls of a banishing: its stages are independent,
/// and each is geometric with mean m = sides / (faces naming a card),
/// variance m (m - 1). A stage with one card left takes no roll.
fn stages_variance(stages: &[(u64, u64)]) -> Exact {
    stages
        .iter()
        .filter(|&&(left, _)| left > 1)
        .map(|&(left, sides)| {
            let naming = sides / left * left;
            let mean = Exact::new(sides.into(), naming.into());
            &mean * (&mean - Exact::from_integer(1.into()))
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_banishings_variance_adds_its_stages_geometric_variances() {
        // Banish 2 of 7 with a d8: a geometric stage of p = 7/8, variance
        // (1 - p) / p^2 = 8/49, then one of p = 6/8, variance 4/9; a last
        // card left takes no roll.
        let variance = stages_variance(&[(7, 8), (6, 8), (1, 8)]);
        assert_eq!(variance, Exact::new(268.into(), 441.into()));
        // A d20 for 6 cards uses 18 faces: p = 9/10, variance 10/81.
        assert_eq!(
            stages_variance(&[(6, 20)]),
            Exact::new(10.into(), 81.into())
        );
    }
    use crate::engine::ratio;
    use num_bigint::BigUint;
    use serde_json::json;

    #[test]
    fn simulated_picks_agree_with_the_exact_schemes() {
        let params = params("cards: [1, 3, 5, 7]\ndice: [d4, d6]\nbanish: 2");
        let results = Reroll::analyse(&params, &Progress::hidden());
        let simulation = Reroll::simulation(&params, &results);
        let figures = crate::analyses::simulate::assert_agrees(&simulation, 20_000);
        // Cards and rolls of every scheme that ends (multi-face cannot pick
        // 5 or 7 cards with a d4, nor 7 with a d6); a mean per banishing row
        // whose stages all have a die.
        assert!(figures > 40, "{figures}");
        let rules = read_face;
        assert_eq!(rules(Scheme::MultiFace, 5, 5, 20), Some(2));
        assert_eq!(rules(Scheme::MultiFace, 7, 3, 8), None);
        assert_eq!(rules(Scheme::Mod, 6, 4, 6), Some(2));
        assert_eq!(rules(Scheme::OneFace, 4, 3, 6), None);
    }

    fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).unwrap()
    }

    fn analyse(yaml: &str) -> Results {
        Reroll::analyse(&params(yaml), &Progress::hidden())
    }

    fn frac(p: u64, q: u64) -> Exact {
        Exact::new(p.into(), q.into())
    }

    #[test]
    fn reroll_schemes_are_exactly_uniform_with_the_geometric_mean() {
        for sides in 2..=30u64 {
            for cards in 2..=sides {
                let per_card = sides / cards;
                for scheme in [Scheme::OneFace, Scheme::MultiFace] {
                    let case = FaceCount::count(cards, sides, scheme);
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
                let one_face = FaceCount::count(cards, sides, Scheme::OneFace);
                if cards > 1 {
                    assert_eq!(one_face.expected_rolls(), Some(frac(sides, cards)));
                    assert_eq!(one_face.rerolled_faces, sides - cards);
                }
            }
        }
    }

    #[test]
    fn the_rules_d20_example_gives_four_faces_to_each_of_five_cards() {
        let case = FaceCount::count(5, 20, Scheme::MultiFace);
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
                let case = FaceCount::count(cards, sides, Scheme::Mod);
                // Brute force: read each face's remainder and tally by hand.
                let mut tally = vec![0u64; cards as usize];
                for face in 1..=sides {
                    tally[((face + cards - 1) % cards) as usize] += 1;
                }
                let expected: Vec<Exact> = tally.iter().map(|&t| frac(t, sides)).collect();
                assert_eq!(case.card_probabilities().unwrap(), expected);
                let rolls = match cards {
                    1 => Some(Exact::zero()),
                    _ if sides < cards => None,
                    _ => Some(Exact::one()),
                };
                assert_eq!(case.expected_rolls(), rolls, "{cards} cards, d{sides}");
                assert_eq!(case.uniform(), sides % cards == 0);
                assert_eq!(case.feasible(), sides >= cards);
            }
        }
        // d6 mod 4: cards 1 and 2 own two faces, 3 and 4 one.
        let case = FaceCount::count(4, 6, Scheme::Mod);
        assert_eq!(case.faces_of_card, [2, 2, 1, 1]);
        assert_eq!(case.max_abs_deviation(), Some(frac(1, 12)));
    }

    #[test]
    fn too_small_dice_are_flagged() {
        let multi = FaceCount::count(7, 6, Scheme::MultiFace);
        assert!(!multi.feasible());
        assert_eq!(multi.expected_rolls(), None);
        assert_eq!(multi.card_probabilities(), None);
        assert_eq!(multi.rerolled_faces, 6);
        // Fewer faces than cards: the schemes that never reroll end in one
        // roll, but cards 7 and 8 never come up, so no mean is given.
        for scheme in [Scheme::OneFace, Scheme::Mod] {
            let short = Case::of(8, 6, scheme);
            assert!(!short.feasible);
            assert_eq!(short.expected_rolls, None);
            assert_eq!(short.max_abs_deviation, None);
            let probabilities = short.card_probabilities.unwrap();
            assert_eq!(probabilities[7], Exact::zero());
        }
    }

    #[test]
    fn one_card_needs_no_roll_whatever_the_die_and_scheme() {
        for sides in [2, 6, 20] {
            for scheme in Scheme::ALL {
                let case = Case::of(1, sides, scheme);
                assert_eq!(
                    case.expected_rolls,
                    Some(Exact::zero()),
                    "d{sides} {scheme:?}"
                );
                assert!(case.feasible && case.uniform);
                assert_eq!(case.rerolled_faces, 0);
                assert_eq!(case.card_probabilities, Some(vec![Exact::one()]));
                assert_eq!(case.max_abs_deviation, Some(Exact::zero()));
            }
        }
        let best = BestDie::of(1, &[8, 6]);
        assert_eq!(best.expected_rolls, Some(Exact::zero()));
    }

    #[test]
    fn the_rules_worked_example_takes_52_over_21_rolls() {
        let d8 = 8;
        let row = Banishing::new(7, 2, StageDie::Fixed(d8), &[d8]);
        assert_eq!(row.expected_total_rolls, Some(frac(52, 21)));
        assert_eq!(row.stage_dice, [Some(8), Some(8)]);
        // Switching to a d6 for the second stage, as the rules allow.
        let dice = [6, d8];
        let best = Banishing::new(7, 2, StageDie::Best, &dice);
        assert_eq!(best.expected_total_rolls, Some(frac(8, 7) + Exact::one()));
        assert_eq!(best.stage_dice, [Some(8), Some(6)]);
    }

    #[test]
    fn a_single_card_left_needs_no_roll() {
        let d6 = 6;
        let row = Banishing::new(2, 2, StageDie::Fixed(d6), &[d6]);
        assert_eq!(row.expected_total_rolls, Some(frac(1, 1)));
        assert_eq!(row.stage_dice, [Some(6), None]);
        let short = Banishing::new(8, 2, StageDie::Fixed(d6), &[d6]);
        assert_eq!(short.expected_total_rolls, None);
    }

    #[test]
    fn best_die_prefers_fewest_rolls_then_fewest_faces() {
        let dice: Vec<u64> = vec![20, 12, 10, 8, 6];
        // Brute force over the list with the independent formula (one card
        // needs no roll: see `one_card_needs_no_roll_whatever_the_die_and_scheme`).
        for cards in 2..=20u64 {
            let expected = dice
                .iter()
                .filter(|&&sides| sides >= cards)
                .map(|&sides| {
                    (
                        ratio(
                            &BigUint::from(sides),
                            &BigUint::from(cards * (sides / cards)),
                        ),
                        sides,
                    )
                })
                .min();
            let got = best_die(cards, &dice).map(|(sides, r)| (r, sides));
            assert_eq!(got, expected, "{cards} cards");
        }
        assert_eq!(best_die(5, &dice).unwrap().0, 10);
        assert_eq!(best_die(7, &dice).unwrap().0, 8);
        assert_eq!(best_die(11, &dice).unwrap().0, 12);
    }

    #[test]
    fn json_contract() {
        let results = analyse("cards: [5, 7]\ndice: [d6, d8]\nbanish: 2");
        let r = &serde_json::to_value(&results).unwrap();
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
        let without = serde_json::to_value(analyse("cards: 3\ndice: [d6]")).unwrap();
        assert!(without.get("banish").is_none());
    }

    #[test]
    fn results_read_back_as_written() {
        for yaml in [
            "cards: \"1..10\"\ndice: [d6, d8, d10, d12, d20]\nbanish: 2",
            "cards: [3, 9]\ndice: [d6]",
        ] {
            let results = analyse(yaml);
            let json = serde_json::to_value(&results).unwrap();
            assert_eq!(serde_json::from_value::<Results>(json).unwrap(), results);
        }
    }

    #[test]
    fn faces_read_back_from_the_probabilities_match_the_count() {
        for sides in 2..=20u64 {
            for cards in 1..=sides {
                for scheme in Scheme::ALL {
                    assert_eq!(
                        Case::of(cards, sides, scheme).faces_of_card(),
                        Some(FaceCount::count(cards, sides, scheme).faces_of_card),
                        "{cards} d{sides} {scheme:?}"
                    );
                }
            }
        }
        assert_eq!(Case::of(7, 6, Scheme::MultiFace).faces_of_card(), None);
    }

    #[test]
    fn bad_parameters_are_refused() {
        let err = |yaml: &str| Reroll::validate(&params(yaml)).unwrap_err();
        assert_eq!(err("cards: [3, 4]\ndice: [d6]\nbanish: 5").key, "banish");
        assert_eq!(err("cards: 3\ndice: [d6]\nbanish: 0").key, "banish");
        assert_eq!(err("cards: 3\ndice: []").key, "dice");
        assert!(err("cards: 3\ndice: [d6, D6]").message.contains("twice"));
        let budget = crate::analyses::Budget::default();
        let big = Reroll::cost(&params("cards: \"1..5000\"\ndice: [d20]"));
        assert_eq!(big.key, "cards");
        assert!(big.bytes > crate::analyses::Budget::BYTES, "{big:?}");
        let huge_die = Reroll::cost(&params("cards: 3\ndice: [d1000000000]"));
        assert_eq!(huge_die.key, "dice");
        assert!(budget.admit(&huge_die).is_err(), "{huge_die:?}");
        assert!(budget
            .admit(&Reroll::cost(&params(
                "cards: \"1..10\"\ndice: [d6, d20]\nbanish: 2"
            )))
            .is_ok());
        assert!(serde_yaml::from_str::<Params>("cards: 3\ndice: [2d6]").is_err());
    }
}
