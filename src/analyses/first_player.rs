//! `first-player`: every player rolls the same dice, the highest total goes
//! first, and a tie for the top is rolled again.
//!
//! The players still in contention are exchangeable, so the state of the game
//! is just how many of them there are: a Markov chain on 2..=p contenders,
//! whose one-round transitions come from the distribution of one player's total.

use crate::engine::combinatorics::binomial;
use crate::engine::{text, to_f64, Dist, Exact};
use crate::progress::Progress;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::pool::IdenticalDice;
use super::simulate::{Event, Experiment, Sampler, Simulate, Simulation};
use super::values::SizeSet;
use super::{Analysis, Cost, ParamError};

/// The `first-player` kind.
pub(crate) struct FirstPlayer;

/// Chains solved per second per unit of p^3 x bits per player, measured on
/// the test profile (40 players with 10d20 took about 8 s).
const UNITS_PER_SECOND: f64 = 3.3e5;

/// Seconds per player^3 per squared bit of one player's outcomes, for long
/// numbers (see [`Params::estimated_seconds`]): 4.8e-9 measured with
/// reroll-tied, the costlier rule, rounded up.
const SECONDS_PER_SQUARED_BIT: f64 = 5e-9;

/// How many rounds `rounds_more_than` covers.
pub(crate) const ROUNDS_SHOWN: u64 = 5;

/// Who rolls again after a tie for the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TieRule {
    /// Every player rolls again.
    RerollAll,
    /// Only the players tied for the top roll again.
    RerollTied,
}

impl TieRule {
    /// The name used in scenario files and results.
    pub fn name(self) -> &'static str {
        match self {
            TieRule::RerollAll => "reroll-all",
            TieRule::RerollTied => "reroll-tied",
        }
    }

    /// Contenders of the next round after `tied` of `contenders` tie for the
    /// top, among `players` in the game.
    fn next_contenders(self, players: u64, tied: u64) -> u64 {
        match self {
            TieRule::RerollAll => players,
            TieRule::RerollTied => tied,
        }
    }

    /// Ways, out of C(m, j) placements of the tie, that one given contender
    /// stays in contention: all of them, or those where it is among the tied.
    fn ways_kept(self, contenders: u64, tied: u64) -> BigUint {
        match self {
            TieRule::RerollAll => binomial(contenders, tied),
            TieRule::RerollTied => binomial(contenders - 1, tied - 1),
        }
    }
}

/// One round's outcome counts for one player's dice.
///
/// `top_ways(m, j)` counts the rolls of m players (out of T^m) in which
/// exactly j of them share the highest total: C(m, j) sum over t of
/// c_t^j F_t^(m-j), with c_t the ways to roll t and F_t the ways to roll less.
#[derive(Debug, Clone)]
pub(crate) struct RoundCounts {
    /// Ways one player rolls each total, lowest first.
    ways: Vec<BigUint>,
    /// Ways one player rolls below each total.
    below: Vec<BigUint>,
    /// Outcomes for one player.
    outcomes: BigUint,
}

impl RoundCounts {
    /// From the distribution of one player's total.
    pub fn new(dist: &Dist) -> RoundCounts {
        let ways: Vec<BigUint> = dist.iter().map(|(_, w)| w.clone()).collect();
        let below = ways
            .iter()
            .scan(BigUint::ZERO, |sum, w| {
                let before = sum.clone();
                *sum += w;
                Some(before)
            })
            .collect();
        RoundCounts {
            ways,
            below,
            outcomes: dist.total_outcomes(),
        }
    }

    /// sum over t of c_t^j F_t^(m-j): the top shared by j given contenders of m.
    fn given_top(&self, contenders: u64, tied: u64) -> BigUint {
        self.ways
            .iter()
            .zip(&self.below)
            .map(|(c, f)| c.pow(tied as u32) * f.pow((contenders - tied) as u32))
            .sum()
    }

    /// P(exactly `tied` of `contenders` share the top) with the weight
    /// `placements` for which of them tie.
    fn probability(&self, contenders: u64, tied: u64, placements: BigUint) -> Exact {
        let ways = placements * self.given_top(contenders, tied);
        Exact::new(
            BigInt::from(ways),
            BigInt::from(self.outcomes.pow(contenders as u32)),
        )
    }
}

/// The chain for one number of players, one dice choice and one tie rule.
#[derive(Debug, Clone)]
pub(crate) struct Chain {
    players: u64,
    /// For each contender count: (next contender count, P, P that a given contender stays).
    moves: BTreeMap<u64, Vec<(u64, Exact, Exact)>>,
    /// P(the round ends with one player on top), per contender count.
    settled: BTreeMap<u64, Exact>,
}

impl Chain {
    /// Build the transitions of every reachable contender count.
    pub fn new(players: u64, rule: TieRule, round: &RoundCounts) -> Chain {
        let states: Vec<u64> = match rule {
            TieRule::RerollAll => vec![players],
            TieRule::RerollTied => (2..=players).collect(),
        };
        let mut moves = BTreeMap::new();
        let mut settled = BTreeMap::new();
        for &m in &states {
            settled.insert(m, round.probability(m, 1, BigUint::from(m)));
            let out = (2..=m)
                .map(|j| {
                    (
                        rule.next_contenders(players, j),
                        round.probability(m, j, binomial(m, j)),
                        round.probability(m, j, rule.ways_kept(m, j)),
                    )
                })
                .collect();
            moves.insert(m, out);
        }
        Chain {
            players,
            moves,
            settled,
        }
    }

    /// P(the first round ends in a tie for the top).
    pub fn p_tie_first_round(&self) -> Exact {
        Exact::one() - &self.settled[&self.players]
    }

    /// Solve x(m) = own(m) + sum of weight(m -> n) x(n) over the states in
    /// ascending order: every move goes to fewer contenders or stays put.
    fn solve(
        &self,
        own: impl Fn(u64) -> Exact,
        weight: impl Fn(&(u64, Exact, Exact)) -> &Exact,
    ) -> Exact {
        let mut solved: BTreeMap<u64, Exact> = BTreeMap::new();
        for (&m, out) in &self.moves {
            let mut constant = own(m);
            let mut stay = Exact::zero();
            for step in out {
                if step.0 == m {
                    stay += weight(step);
                } else {
                    constant += weight(step) * &solved[&step.0];
                }
            }
            solved.insert(m, constant / (Exact::one() - stay));
        }
        solved[&self.players].clone()
    }

    /// Mean number of rounds until one player is alone on top.
    pub fn expected_rounds(&self) -> Exact {
        self.solve(|_| Exact::one(), |step| &step.1)
    }

    /// P(a given player goes first): it must be alone on top in some round,
    /// having stayed in contention until then.
    pub fn p_first(&self) -> Exact {
        let alone = |m: u64| &self.settled[&m] / Exact::from_integer(m.into());
        self.solve(alone, |step| &step.2)
    }

    /// P(more than r rounds) for r = 1..=`rounds`.
    pub(crate) fn rounds_more_than(&self, rounds: u64) -> Vec<Exact> {
        let mut mass: BTreeMap<u64, Exact> = BTreeMap::from([(self.players, Exact::one())]);
        (1..=rounds)
            .map(|_| {
                let mut next: BTreeMap<u64, Exact> = BTreeMap::new();
                for (m, p) in &mass {
                    for (to, step, _) in &self.moves[m] {
                        *next.entry(*to).or_insert_with(Exact::zero) += p * step;
                    }
                }
                mass = next;
                mass.values().sum()
            })
            .collect()
    }
}

/// Every (players, dice, tie rule), worked out exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// One case per (players, dice, tie rule), players first.
    pub cases: Vec<Case>,
    /// For each (players, tie rule), the dice that settle it fastest.
    pub fastest: Vec<Fastest>,
}

/// One (players, dice, tie rule), worked out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// Players p.
    pub players: u64,
    /// What each player rolls; a bare `d6` is one die.
    pub dice: IdenticalDice,
    /// Who rolls again.
    pub ties: TieRule,
    /// P(tie for the top in the first round).
    #[serde(with = "text")]
    pub p_tie_first_round: Exact,
    /// Mean rounds.
    #[serde(with = "text")]
    pub expected_rounds: Exact,
    /// P(player i goes first), i = 1..p.
    #[serde(with = "text")]
    pub p_first: Vec<Exact>,
    /// P(more than r rounds), r = 1..=ROUNDS_SHOWN.
    #[serde(with = "text")]
    pub rounds_more_than: Vec<Exact>,
}

/// The dice with the fewest expected rounds for one (players, tie rule).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fastest {
    /// Players p.
    pub players: u64,
    /// Who rolls again.
    pub ties: TieRule,
    /// The fastest dice; the first listed win ties.
    pub dice: IdenticalDice,
    /// Their mean rounds.
    #[serde(with = "text")]
    pub expected_rounds: Exact,
}

/// Parameters of a `first-player` scenario.
#[derive(Debug, Clone, Deserialize)]
pub struct Params {
    /// Numbers of players.
    pub players: SizeSet,
    /// The dice choices compared; `d6` means one die.
    #[serde(deserialize_with = "crate::analyses::pool::read::pools")]
    pub dice: Vec<IdenticalDice>,
    /// The tie rules compared: a list, or one rule.
    #[serde(deserialize_with = "crate::analyses::values::one_or_many")]
    pub ties: Vec<TieRule>,
}

impl Params {
    /// The fractions of a chain grow with the players and the bits of one
    /// player's outcomes; measured, the time follows p^3 times those bits,
    /// and once the numbers are long, p^3 times their square (each product
    /// is reduced by a gcd): 12 players with 400d6 took 8.8 s (reroll-tied)
    /// and 1.9 s (reroll-all), with 800d6 four times as long; 1000d6 with
    /// both rules, priced 27 s by the linear rule alone, took 97.7 s.
    fn estimated_seconds(&self) -> f64 {
        let mut seconds = 0.0;
        for dice in &self.dice {
            let bits = dice.bits();
            let per_cube = (bits / UNITS_PER_SECOND).max(SECONDS_PER_SQUARED_BIT * bits * bits);
            for &p in self.players.values() {
                seconds += (p as f64).powi(3) * per_cube * self.ties.len() as f64;
            }
        }
        seconds
    }

    /// Every (players, dice, tie rule), players first.
    fn cases(&self) -> Vec<Case> {
        let rounds: Vec<RoundCounts> = self
            .dice
            .iter()
            .map(|d| {
                let dist = Dist::dice(d.count, d.sides).expect("validated dice");
                RoundCounts::new(&dist)
            })
            .collect();
        let mut cases = Vec::new();
        for &players in self.players.values() {
            for (dice, round) in self.dice.iter().zip(&rounds) {
                for &rule in &self.ties {
                    let chain = Chain::new(players, rule, round);
                    cases.push(Case {
                        players,
                        dice: *dice,
                        ties: rule,
                        p_tie_first_round: chain.p_tie_first_round(),
                        expected_rounds: chain.expected_rounds(),
                        // Every player rolls the same dice, so each one's
                        // chance is the chain's answer for a given contender.
                        p_first: vec![chain.p_first(); players as usize],
                        rounds_more_than: chain.rounds_more_than(ROUNDS_SHOWN),
                    });
                }
            }
        }
        cases
    }
}

/// For each (players, tie rule), the case with the fewest expected rounds;
/// the first listed dice win ties.
fn fastest(cases: &[Case]) -> Vec<Fastest> {
    let mut best: Vec<&Case> = Vec::new();
    for case in cases {
        match best
            .iter_mut()
            .find(|b| b.players == case.players && b.ties == case.ties)
        {
            Some(b) if case.expected_rounds < b.expected_rounds => *b = case,
            Some(_) => {}
            None => best.push(case),
        }
    }
    best.into_iter()
        .map(|c| Fastest {
            players: c.players,
            ties: c.ties,
            dice: c.dice,
            expected_rounds: c.expected_rounds.clone(),
        })
        .collect()
}

impl Analysis for FirstPlayer {
    const NAME: &'static str = "first-player";
    type Params = Params;
    type Results = Results;

    /// Lists must not be empty and a game needs two players.
    fn validate(params: &Params) -> Result<(), ParamError> {
        let refuse = |key, message: String| Err(ParamError { key, message });
        if params.players.min() < 2 {
            return refuse("players", "a game needs at least 2 players".into());
        }
        if params.dice.is_empty() {
            return refuse(
                "dice",
                "expected at least one choice of dice, such as [2d6]".into(),
            );
        }
        if params.ties.is_empty() {
            return refuse(
                "ties",
                "expected at least one tie rule, such as [reroll-all]".into(),
            );
        }
        Ok(())
    }

    /// Time from the measured chain cost; the results are a few fractions
    /// per case.
    fn cost(params: &Params) -> Cost {
        let cases = (params.players.values().len() * params.dice.len() * params.ties.len()) as f64;
        Cost {
            seconds: params.estimated_seconds(),
            bytes: cases * 4e3,
            key: "players",
            ..Cost::default()
        }
    }

    fn analyse(params: &Params, _: &Progress) -> Results {
        let cases = params.cases();
        Results {
            fastest: fastest(&cases),
            cases,
        }
    }
}

/// The game's opening as the table plays it: every contender rolls, the
/// highest total goes first, and a tie for the top rolls again under the
/// tie rule. Each player's chance, the first-round tie, the long games
/// and the rounds against their exact figures.
impl Simulate for FirstPlayer {
    fn simulation(_: &Params, results: &Results) -> Simulation {
        Simulation::of(results.cases.iter().map(Case::experiment).collect())
    }
}

impl Case {
    fn experiment(&self) -> Experiment {
        let (players, ties) = (self.players, self.ties);
        let IdenticalDice { count, sides } = self.dice;
        let tie_event = players as usize;
        let events = (1..=players)
            .zip(&self.p_first)
            .map(|(i, p)| Event::new(format!("player {i} first"), p.clone()))
            .chain([Event::new("tie in round 1", self.p_tie_first_round.clone())])
            .chain(
                (1..)
                    .zip(&self.rounds_more_than)
                    .map(|(r, p)| Event::new(format!("more than {r} rounds"), p.clone())),
            )
            .collect();
        Experiment {
            label: format!("{players} players, {count}d{sides}, {}", ties.name()),
            events,
            steps_per_trial: (players * count) as f64 * to_f64(&self.expected_rounds),
            means: vec![rounds_mean(players, ties, &self.expected_rounds)],
            trial: Box::new(move |sampler, trial| {
                let (first, rounds) = play_opening(sampler, players, count, sides, ties);
                trial.hit(first);
                if rounds.tied_first {
                    trial.hit(tie_event);
                }
                for r in 1..=ROUNDS_SHOWN.min(rounds.played - 1) {
                    trial.hit(tie_event + r as usize);
                }
                trial.measure(0, rounds.played);
            }),
        }
    }
}

/// How long one opening took.
struct Rounds {
    played: u64,
    tied_first: bool,
}

/// Roll until one player alone has the top total: that player (from 0)
/// and the rounds it took.
/// The mean of the rounds played. Every round is alike when all players
/// roll again, or when two play: the rounds are then geometric and their
/// variance follows from the mean.
fn rounds_mean(players: u64, ties: TieRule, expected: &Exact) -> Event {
    if ties == TieRule::RerollAll || players == 2 {
        Event::geometric_mean("rounds", expected.clone())
    } else {
        Event::new("rounds", expected.clone())
    }
}

fn play_opening(
    sampler: &mut Sampler,
    players: u64,
    count: u64,
    sides: u64,
    ties: TieRule,
) -> (usize, Rounds) {
    let everyone: Vec<usize> = (0..players as usize).collect();
    let mut contenders = everyone.clone();
    let mut rounds = Rounds {
        played: 0,
        tied_first: false,
    };
    loop {
        rounds.played += 1;
        let rolls: Vec<(usize, u64)> = contenders
            .iter()
            .map(|&player| (player, sampler.dice(count, sides)))
            .collect();
        let top = rolls.iter().map(|&(_, total)| total).max().unwrap_or(0);
        let tied: Vec<usize> = rolls
            .iter()
            .filter(|&&(_, total)| total == top)
            .map(|&(player, _)| player)
            .collect();
        if let [first] = tied[..] {
            return (first, rounds);
        }
        rounds.tied_first |= rounds.played == 1;
        contenders = match ties {
            TieRule::RerollAll => everyone.clone(),
            TieRule::RerollTied => tied,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ratio;
    use serde_json::json;

    #[test]
    fn simulated_openings_agree_with_the_chain() {
        let params: Params = serde_yaml::from_str(
            "players: [2, 4]\ndice: [d4, 2d6]\nties: [reroll-all, reroll-tied]",
        )
        .unwrap();
        let results = FirstPlayer::analyse(&params, &Progress::hidden());
        let simulation = FirstPlayer::simulation(&params, &results);
        // Per case: each player, the first-round tie, five long-game
        // figures and the mean rounds.
        assert_eq!(
            crate::analyses::simulate::assert_agrees(&simulation, 20_000),
            2 * 2 * (2 + 7) + 2 * 2 * (4 + 7)
        );
    }

    /// Issue 39, item 6: long numbers are priced by their square (12
    /// players with 1000d6 and both rules took 97.7 s, priced 27 s); the
    /// profile the linear rule was measured on keeps its price.
    #[test]
    fn long_chains_are_priced_by_the_square_of_their_bits() {
        let seconds = |yaml: &str| params(yaml).estimated_seconds();
        let both = seconds("players: 12\ndice: 1000d6\nties: [reroll-all, reroll-tied]");
        assert!((90.0..300.0).contains(&both), "{both}");
        let tied = seconds("players: 12\ndice: 400d6\nties: reroll-tied");
        assert!((8.0..20.0).contains(&tied), "{tied}");
        let profile = seconds("players: 40\ndice: 10d20\nties: reroll-all");
        assert!((profile - 64000.0 * 10.0 * 20f64.log2() / 3.3e5).abs() < 1e-9);
    }

    fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).unwrap()
    }

    fn results(yaml: &str) -> Results {
        FirstPlayer::analyse(&params(yaml), &Progress::hidden())
    }

    fn frac(p: u64, q: u64) -> Exact {
        Exact::new(p.into(), q.into())
    }

    fn chain(players: u64, count: u64, sides: u64, rule: TieRule) -> Chain {
        Chain::new(
            players,
            rule,
            &RoundCounts::new(&Dist::dice(count, sides).unwrap()),
        )
    }

    /// The process over sets of contenders, by enumerating every roll of the
    /// contenders with their identities: P(each player first) and E(rounds).
    fn brute_force(players: usize, sides: u64, rule: TieRule) -> (Vec<Exact>, Exact) {
        let everyone = (1usize << players) - 1;
        // solved[set] = (P(player i first), E(rounds)) from that set of contenders.
        let mut solved: BTreeMap<usize, (Vec<Exact>, Exact)> = BTreeMap::new();
        let mut sets: Vec<usize> = (1..=everyone).filter(|s| s.count_ones() >= 2).collect();
        sets.sort_by_key(|s| s.count_ones());
        if rule == TieRule::RerollAll {
            sets = vec![everyone];
        }
        for set in sets {
            let members: Vec<usize> = (0..players).filter(|i| set >> i & 1 == 1).collect();
            let outcomes = sides.pow(members.len() as u32);
            let share = frac(1, outcomes);
            let (mut win, mut rounds) = (vec![Exact::zero(); players], Exact::one());
            let mut stay = Exact::zero();
            for code in 0..outcomes {
                let rolls: Vec<u64> = (0..members.len() as u32)
                    .map(|i| code / sides.pow(i) % sides)
                    .collect();
                let top = *rolls.iter().max().unwrap();
                let tied: usize = members
                    .iter()
                    .zip(&rolls)
                    .filter(|(_, &r)| r == top)
                    .fold(0, |acc, (&i, _)| acc | 1 << i);
                let next = match rule {
                    _ if tied.count_ones() == 1 => {
                        win[tied.trailing_zeros() as usize] += &share;
                        continue;
                    }
                    TieRule::RerollAll => everyone,
                    TieRule::RerollTied => tied,
                };
                if next == set {
                    stay += &share;
                } else {
                    let (w, e) = &solved[&next];
                    for (total, w) in win.iter_mut().zip(w) {
                        *total += &share * w;
                    }
                    rounds += &share * e;
                }
            }
            let scale = Exact::one() / (Exact::one() - stay);
            let win = win.into_iter().map(|w| w * &scale).collect();
            solved.insert(set, (win, rounds * &scale));
        }
        solved.remove(&everyone).unwrap()
    }

    #[test]
    fn two_players_with_2d6_match_the_known_figures() {
        for rule in [TieRule::RerollAll, TieRule::RerollTied] {
            let c = chain(2, 2, 6, rule);
            assert_eq!(c.p_tie_first_round(), frac(73, 648));
            assert_eq!(c.expected_rounds(), frac(648, 575));
            assert_eq!(c.p_first(), frac(1, 2));
        }
    }

    #[test]
    fn chains_match_enumerated_rolls_with_player_identities() {
        for (players, sides) in [(3, 4), (4, 3), (2, 5), (3, 2)] {
            for rule in [TieRule::RerollAll, TieRule::RerollTied] {
                let (win, rounds) = brute_force(players, sides, rule);
                let c = chain(players as u64, 1, sides, rule);
                assert_eq!(c.expected_rounds(), rounds, "{players} d{sides} {rule:?}");
                for w in &win {
                    assert_eq!(&c.p_first(), w, "{players} d{sides} {rule:?}");
                }
            }
        }
    }

    #[test]
    fn reroll_all_matches_the_geometric_closed_form() {
        for (players, count, sides) in [(2, 1, 6), (3, 2, 6), (5, 1, 20), (6, 1, 12)] {
            let c = chain(players, count, sides, TieRule::RerollAll);
            let tie = c.p_tie_first_round();
            assert_eq!(c.expected_rounds(), Exact::one() / (Exact::one() - &tie));
            let expected: Vec<Exact> = (1..=5).map(|r| num_traits::pow(tie.clone(), r)).collect();
            assert_eq!(c.rounds_more_than(5), expected);
        }
    }

    #[test]
    fn chances_sum_to_one_and_one_round_counts_are_complete() {
        for rule in [TieRule::RerollAll, TieRule::RerollTied] {
            for players in 2..=6u64 {
                let c = chain(players, 2, 6, rule);
                assert_eq!(
                    c.p_first() * Exact::from_integer(players.into()),
                    Exact::one()
                );
                let more = c.rounds_more_than(5);
                assert_eq!(more[0], c.p_tie_first_round());
                assert!(more.windows(2).all(|w| w[1] < w[0]));
            }
        }
        // All placements of the top account for every roll of m players.
        let round = RoundCounts::new(&Dist::dice(2, 6).unwrap());
        for m in 2..=5u64 {
            let sum: BigUint = (1..=m)
                .map(|j| binomial(m, j) * round.given_top(m, j))
                .sum();
            assert_eq!(sum, BigUint::from(36u32).pow(m as u32));
        }
        // Three players, 1d2: the top is shared unless exactly one rolls 2.
        let tie = chain(3, 1, 2, TieRule::RerollTied).p_tie_first_round();
        assert_eq!(tie, ratio(&BigUint::from(5u32), &BigUint::from(8u32)));
    }

    #[test]
    fn reroll_tied_settles_faster_than_reroll_all() {
        for players in 3..=6 {
            let all = chain(players, 1, 6, TieRule::RerollAll).expected_rounds();
            let tied = chain(players, 1, 6, TieRule::RerollTied).expected_rounds();
            assert!(tied < all, "{players} players");
        }
    }

    #[test]
    fn json_contract_and_fastest() {
        let results = results("players: [2, 3]\ndice: [2d6, d20]\nties: [reroll-all, reroll-tied]");
        let r = serde_json::to_value(&results).unwrap();
        let first = &r["cases"][0];
        assert_eq!(first["players"], 2);
        assert_eq!(first["dice"], json!({"count": 2, "sides": 6}));
        assert_eq!(first["ties"], "reroll-all");
        assert_eq!(first["p_tie_first_round"], "73/648");
        assert_eq!(first["expected_rounds"], "648/575");
        assert_eq!(first["p_first"], json!(["1/2", "1/2"]));
        assert_eq!(first["rounds_more_than"][1], "5329/419904");
        assert_eq!(r["cases"][2]["dice"], json!({"count": 1, "sides": 20}));
        assert_eq!(r["cases"][2]["expected_rounds"], "20/19");
        assert_eq!(r["fastest"][0]["dice"], json!({"count": 1, "sides": 20}));
    }

    #[test]
    fn results_read_back_as_written() {
        let results = results("players: 2..4\ndice: [2d6, d12]\nties: [reroll-all, reroll-tied]");
        let json = serde_json::to_value(&results).unwrap();
        assert_eq!(serde_json::from_value::<Results>(json).unwrap(), results);
    }

    /// Bad values are refused while reading, where they stand; bad
    /// combinations by `validate` and the budget, at the key the loader
    /// points to.
    #[test]
    fn bad_files_are_refused_with_their_place() {
        let head = "title: T\nkind: first-player\n";
        let at = |text: &str| {
            let e = serde_yaml::from_str::<Params>(text).unwrap_err();
            let place = e.location().map(|l| (l.line(), l.column()));
            (place, e.to_string())
        };
        let (place, message) = at(&format!(
            "{head}players: 2\ndice: [2d6]\nties: [reroll-all, reroll-some]\n"
        ));
        assert_eq!(place, Some((5, 20)), "{message}");
        assert!(
            message.contains("unknown variant `reroll-some`"),
            "{message}"
        );
        let (place, _) = at(&format!(
            "{head}players: 2\ndice: [2d6, 2x6]\nties: [reroll-all]\n"
        ));
        assert_eq!(place, Some((4, 13)));
        let error = FirstPlayer::validate(&params("players: 1\ndice: [2d6]\nties: [reroll-all]"))
            .unwrap_err();
        assert_eq!(error.key, "players");
        assert!(error.message.contains("at least 2 players"), "{error:?}");
        let huge = params("players: 500\ndice: [100d20]\nties: [reroll-tied]");
        assert!(FirstPlayer::validate(&huge).is_ok());
        let error = crate::analyses::Budget::default()
            .admit(&FirstPlayer::cost(&huge))
            .unwrap_err();
        assert_eq!(error.key, "players");
        assert!(error.message.contains("--budget"), "{error:?}");
    }
}
