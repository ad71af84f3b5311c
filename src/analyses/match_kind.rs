//! `match`: best of n games, when the player going first wins a game with
//! chance p and a rule decides who starts each game after the first.
//!
//! The player who won the first-player procedure starts game 1. A match's
//! state is the score and who starts the next game, so the chance that the
//! starter of game 1 wins, and the mean games played, follow from a
//! recursion over at most (n + 1)^2 / 2 states, in exact fractions.
//! (The module is `match_kind`, since `match` is a keyword of Rust.)

use crate::analyses::simulate::observed::Loaded;
use crate::analyses::simulate::{Event, Experiment, Simulate, Simulation};
use crate::analyses::stats;
use crate::analyses::values::SizeSet;
use crate::engine::{parse_fraction, text, to_f64, Exact};
use crate::progress::Progress;
use num_traits::{One, Zero};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

use super::{Analysis, Cost, ParamError};

/// The `match` kind.
pub(crate) struct Match;

/// Exact fraction operations per second, on the safe side.
const OPERATIONS_PER_SECOND: f64 = 1e6;

/// The longest match: a best-of-1001 has half a million states, each a
/// fraction of thousands of digits.
const MOST_GAMES: u64 = 1001;

/// The chances of the per-game edge drawn on the page's chart, in
/// hundredths: 50 % to 70 %.
const CURVE_PERCENT: std::ops::RangeInclusive<u64> = 50..=70;

/// Who starts each game after the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LaterGames {
    /// The loser of a game chooses who starts the next, and takes the
    /// seat with the better chance.
    LoserChooses,
    /// The winner of a game chooses, and takes the better seat.
    WinnerChooses,
    /// The players take turns to start.
    Alternate,
}

impl LaterGames {
    /// The name used in scenario files and results.
    pub fn name(self) -> &'static str {
        match self {
            LaterGames::LoserChooses => "loser-chooses",
            LaterGames::WinnerChooses => "winner-chooses",
            LaterGames::Alternate => "alternate",
        }
    }

    /// Whether A starts the next game, given whether A started this one,
    /// whether A won it, and whether going first is the better seat (a
    /// chooser takes it; at exactly 1/2 either seat is as good, and the
    /// chooser goes first).
    pub(crate) fn a_starts_next(self, a_started: bool, a_won: bool, first_better: bool) -> bool {
        match self {
            LaterGames::Alternate => !a_started,
            LaterGames::LoserChooses => first_better != a_won,
            LaterGames::WinnerChooses => first_better == a_won,
        }
    }
}

/// A chance, written `"11/20"`, from 0 to 1.
#[derive(Debug, Clone, PartialEq)]
pub struct Chance(pub Exact);

impl<'de> Deserialize<'de> for Chance {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = Chance;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a chance written as a fraction, such as \"11/20\"")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Chance, E> {
                let value = parse_fraction(text.trim()).ok_or_else(|| {
                    E::custom(format!(
                        "expected a chance written as a fraction, such as \"11/20\", found {text:?}"
                    ))
                })?;
                if value < Exact::zero() || value > Exact::one() {
                    return Err(E::custom(format!(
                        "expected a chance from 0 to 1, found {text:?}"
                    )));
                }
                Ok(Chance(value))
            }
            fn visit_u64<E: de::Error>(self, number: u64) -> Result<Chance, E> {
                self.visit_str(&format!("{number}/1"))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// Parameters of a `match` scenario.
#[derive(Debug, Clone, Deserialize)]
pub struct Params {
    /// Games in a match, each odd: best of 1, 3, 5...
    pub best_of: SizeSet,
    /// Chances that the player going first wins a game.
    #[serde(deserialize_with = "crate::analyses::values::one_or_many")]
    pub p_first: Vec<Chance>,
    /// Rules for who starts the games after the first.
    #[serde(deserialize_with = "crate::analyses::values::one_or_many")]
    pub later_games: Vec<LaterGames>,
}

/// Every (best of, chance, rule), and the edge curves of the chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// One case per (best of, p_first, later games), shortest match first.
    pub cases: Vec<Case>,
    /// Per (best of, later games), the match edge against the game's, for
    /// p_first from 50 % to 70 %.
    pub curves: Vec<Curve>,
}

/// One match format with one per-game chance and one rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// Games in the match, at most.
    pub best_of: u64,
    /// P(the player going first wins a game).
    #[serde(with = "text")]
    pub p_first: Exact,
    /// Who starts each game after the first.
    pub later_games: LaterGames,
    /// P(the player who started game 1 wins the match).
    #[serde(with = "text")]
    pub p_match: Exact,
    /// Mean games played.
    #[serde(with = "text")]
    pub expected_games: Exact,
    /// p_match - 1/2: what winning the first-player procedure is worth.
    #[serde(with = "text")]
    pub match_edge: Exact,
    /// Matches the exact two-sided binomial test at 5 % needs to notice
    /// that edge 80 % of the time (a float planning figure, as on the
    /// seat-advantage page); `None` with no edge or past the search's reach.
    pub matches_needed: Option<u64>,
}

/// The match edge against the per-game edge, for one format and rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    /// Games in the match, at most.
    pub best_of: u64,
    /// Who starts each game after the first.
    pub later_games: LaterGames,
    /// One point per p_first, ascending.
    pub points: Vec<CurvePoint>,
}

/// One point of a [`Curve`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// P(the player going first wins a game).
    #[serde(with = "text")]
    pub p_first: Exact,
    /// P(the starter of game 1 wins the match).
    #[serde(with = "text")]
    pub p_match: Exact,
}

/// One match format, chance and rule, solved over its states.
pub(crate) struct MatchChain {
    need: u64,
    p: Exact,
    rule: LaterGames,
    first_better: bool,
    /// (A's wins, B's wins, A starts) -> (P(A wins the match), mean games left).
    solved: BTreeMap<(u64, u64, bool), (Exact, Exact)>,
}

impl MatchChain {
    pub(crate) fn new(best_of: u64, p: &Exact, rule: LaterGames) -> MatchChain {
        let half = Exact::new(1.into(), 2.into());
        let mut chain = MatchChain {
            need: best_of / 2 + 1,
            p: p.clone(),
            rule,
            first_better: *p >= half,
            solved: BTreeMap::new(),
        };
        chain.solve();
        chain
    }

    /// Every state, from the scores nearest the end back to 0-0: a state's
    /// value needs only the states one game later.
    fn solve(&mut self) {
        let need = self.need;
        for played in (0..2 * need - 1).rev() {
            for a in played.saturating_sub(need - 1)..=played.min(need - 1) {
                let b = played - a;
                for a_starts in [true, false] {
                    let value = self.step(a, b, a_starts);
                    self.solved.insert((a, b, a_starts), value);
                }
            }
        }
    }

    /// One game from (a, b) with A starting or not.
    fn step(&self, a: u64, b: u64, a_starts: bool) -> (Exact, Exact) {
        let p_a = if a_starts {
            self.p.clone()
        } else {
            Exact::one() - &self.p
        };
        let after = |a_won: bool| {
            let (a, b) = if a_won { (a + 1, b) } else { (a, b + 1) };
            let starts = self.rule.a_starts_next(a_starts, a_won, self.first_better);
            self.value(a, b, starts)
        };
        let (win_if_won, games_if_won) = after(true);
        let (win_if_lost, games_if_lost) = after(false);
        let p_b = Exact::one() - &p_a;
        (
            &p_a * win_if_won + &p_b * win_if_lost,
            Exact::one() + &p_a * games_if_won + p_b * games_if_lost,
        )
    }

    fn value(&self, a: u64, b: u64, a_starts: bool) -> (Exact, Exact) {
        if a == self.need {
            (Exact::one(), Exact::zero())
        } else if b == self.need {
            (Exact::zero(), Exact::zero())
        } else {
            self.solved[&(a, b, a_starts)].clone()
        }
    }

    /// P(the starter of game 1 wins the match).
    pub(crate) fn p_match(&self) -> Exact {
        self.value(0, 0, true).0
    }

    /// Mean games played.
    pub(crate) fn expected_games(&self) -> Exact {
        self.value(0, 0, true).1
    }
}

impl Params {
    fn cases(&self) -> Vec<Case> {
        let half = Exact::new(1.into(), 2.into());
        let mut cases = Vec::new();
        for &best_of in self.best_of.values() {
            for Chance(p) in &self.p_first {
                for &rule in &self.later_games {
                    let chain = MatchChain::new(best_of, p, rule);
                    let p_match = chain.p_match();
                    cases.push(Case {
                        best_of,
                        p_first: p.clone(),
                        later_games: rule,
                        expected_games: chain.expected_games(),
                        match_edge: &p_match - &half,
                        matches_needed: stats::binomial_exact_trials_needed(0.5, to_f64(&p_match)),
                        p_match,
                    });
                }
            }
        }
        cases
    }

    fn curves(&self) -> Vec<Curve> {
        let mut curves = Vec::new();
        for &best_of in self.best_of.values() {
            for &rule in &self.later_games {
                let points = CURVE_PERCENT
                    .map(|percent| {
                        let p = Exact::new(percent.into(), 100.into());
                        let p_match = MatchChain::new(best_of, &p, rule).p_match();
                        CurvePoint {
                            p_first: p,
                            p_match,
                        }
                    })
                    .collect();
                curves.push(Curve {
                    best_of,
                    later_games: rule,
                    points,
                });
            }
        }
        curves
    }
}

impl Analysis for Match {
    const NAME: &'static str = "match";
    type Params = Params;
    type Results = Results;

    /// Matches of an odd number of games, and lists that are not empty.
    fn validate(params: &Params) -> Result<(), ParamError> {
        let refuse = |key, message: String| Err(ParamError { key, message });
        if let Some(even) = params.best_of.values().iter().find(|n| *n % 2 == 0) {
            return refuse(
                "best_of",
                format!("a best of {even} can end in a tie; expected odd numbers of games"),
            );
        }
        if params.best_of.max() > MOST_GAMES {
            return refuse(
                "best_of",
                format!(
                    "expected at most {MOST_GAMES} games, found {}",
                    params.best_of.max()
                ),
            );
        }
        if params.p_first.is_empty() {
            return refuse(
                "p_first",
                "expected at least one chance, such as [\"11/20\"]".into(),
            );
        }
        if params.later_games.is_empty() {
            return refuse(
                "later_games",
                "expected at least one rule, such as [loser-chooses]".into(),
            );
        }
        Ok(())
    }

    /// n^2/2 states per (best of, chance, rule), each a few products of
    /// fractions of about n times the chance's digits; plus the curves,
    /// and up to a second for each case's matches needed.
    fn cost(params: &Params) -> Cost {
        let rules = params.later_games.len() as f64;
        let mut operations = 0.0;
        let mut search = 0.0;
        for &n in params.best_of.values() {
            let states = (n as f64 + 1.0).powi(2) / 2.0;
            for Chance(p) in &params.p_first {
                let digits = p.denom().bits() as f64 / 3.3;
                operations += rules * states * (n as f64 * digits / 19.0 + 1.0);
                search += rules * 0.05;
            }
            let curve_points = CURVE_PERCENT.count() as f64;
            operations += rules * curve_points * states * (n as f64 * 2.0 / 19.0 + 1.0);
        }
        Cost {
            seconds: operations / OPERATIONS_PER_SECOND + search,
            bytes: operations * 8.0,
            key: "best_of",
            ..Cost::default()
        }
    }

    fn analyse(params: &Params, _: &Progress) -> Results {
        Results {
            cases: params.cases(),
            curves: params.curves(),
        }
    }
}

/// Matches played game by game: the seat going first wins each game with
/// its chance, the rule picks who starts the next, and the match ends when
/// one player has won more than half. Who wins and how many games it
/// takes against their exact figures.
impl Simulate for Match {
    fn simulation(_: &Params, results: &Results) -> Simulation {
        let mut simulation = Simulation::of(Vec::new());
        for case in &results.cases {
            let what = format!(
                "best of {}, p_first {}, {}",
                case.best_of,
                crate::engine::exact_string(&case.p_first),
                case.later_games.name()
            );
            simulation.replay(&what.clone(), case.experiment(what));
        }
        simulation
    }
}

impl Case {
    fn experiment(&self, label: String) -> Result<Experiment, String> {
        let game = Loaded::from_chances(&[self.p_first.clone(), Exact::one() - &self.p_first])
            .ok_or("the chance's denominator does not fit a 64-bit draw")?;
        let half = Exact::new(1.into(), 2.into());
        let (need, rule, first_better) =
            (self.best_of / 2 + 1, self.later_games, self.p_first >= half);
        Ok(Experiment {
            label,
            events: vec![Event::new("starter of game 1 wins", self.p_match.clone())],
            means: vec![Event::new("games", self.expected_games.clone())],
            steps_per_trial: to_f64(&self.expected_games),
            trial: Box::new(move |sampler, trial| {
                let (mut a, mut b, mut a_starts, mut games) = (0, 0, true, 0);
                while a < need && b < need {
                    games += 1;
                    let first_wins = game.roll(sampler) == 0;
                    let a_won = first_wins == a_starts;
                    if a_won {
                        a += 1;
                    } else {
                        b += 1;
                    }
                    a_starts = rule.a_starts_next(a_starts, a_won, first_better);
                }
                if a == need {
                    trial.hit(0);
                }
                trial.measure(0, games);
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frac(p: u64, q: u64) -> Exact {
        Exact::new(p.into(), q.into())
    }

    const RULES: [LaterGames; 3] = [
        LaterGames::LoserChooses,
        LaterGames::WinnerChooses,
        LaterGames::Alternate,
    ];

    /// Every sequence of game winners (bit i: player 1 won game i), played
    /// out with the players' identities, written from the rules in words;
    /// a sequence counts once, with no games after the match is decided.
    fn by_sequences(best_of: u64, p: &Exact, rule: LaterGames) -> (Exact, Exact) {
        let need = best_of / 2 + 1;
        let first_is_better = *p >= frac(1, 2);
        let (mut win, mut games) = (Exact::zero(), Exact::zero());
        for sequence in 0u64..1 << best_of {
            let (mut wins, mut starter, mut chance) = ([0u64; 2], 0usize, Exact::one());
            let mut played = 0;
            while wins[0] < need && wins[1] < need {
                let winner = (sequence >> played & 1) as usize;
                chance *= if winner == starter {
                    p.clone()
                } else {
                    Exact::one() - p
                };
                wins[winner] += 1;
                played += 1;
                let loser = 1 - winner;
                starter = match rule {
                    LaterGames::Alternate => 1 - starter,
                    LaterGames::LoserChooses if first_is_better => loser,
                    LaterGames::LoserChooses => winner,
                    LaterGames::WinnerChooses if first_is_better => winner,
                    LaterGames::WinnerChooses => loser,
                };
            }
            if sequence >> played != 0 {
                continue;
            }
            if wins[0] == need {
                win += &chance;
            }
            games += chance * Exact::from_integer(played.into());
        }
        (win, games)
    }

    #[test]
    fn best_of_three_at_eleven_twentieths_where_the_loser_chooses() {
        let chain = MatchChain::new(3, &frac(11, 20), LaterGames::LoserChooses);
        assert_eq!(chain.p_match(), frac(2101, 4000));
        // By hand: win game 1 (B starts game 2) then win game 2 or, at 1-1,
        // game 3 started by A; or lose game 1, win game 2 started by A and
        // game 3 started by B.
        let (p, q) = (frac(11, 20), frac(9, 20));
        let by_hand = &p * (&q + &p * &p) + &q * (&p * &q);
        assert_eq!(chain.p_match(), by_hand);
        // Two games unless they split: 2 + P(1-1).
        let split = &p * &p + &q * &p;
        assert_eq!(chain.expected_games(), frac(2, 1) + split);
    }

    #[test]
    fn chains_match_every_sequence_of_games() {
        for best_of in [1, 3, 5, 7, 9] {
            for p in [
                frac(11, 20),
                frac(3, 5),
                frac(1, 2),
                frac(2, 5),
                frac(1, 1),
                frac(0, 1),
            ] {
                for rule in RULES {
                    let chain = MatchChain::new(best_of, &p, rule);
                    let (win, games) = by_sequences(best_of, &p, rule);
                    assert_eq!(chain.p_match(), win, "bo{best_of} {p} {rule:?}");
                    assert_eq!(chain.expected_games(), games, "bo{best_of} {p} {rule:?}");
                }
            }
        }
    }

    #[test]
    fn a_single_game_is_the_game_and_even_seats_are_even() {
        for rule in RULES {
            assert_eq!(MatchChain::new(1, &frac(3, 5), rule).p_match(), frac(3, 5));
            for best_of in [3, 5, 7] {
                let even = MatchChain::new(best_of, &frac(1, 2), rule);
                assert_eq!(even.p_match(), frac(1, 2));
            }
        }
    }

    #[test]
    fn cases_curves_and_json() {
        let params: Params = serde_yaml::from_str(
            "best_of: [1, 3]\np_first: [\"11/20\", \"3/5\"]\nlater_games: [loser-chooses, alternate]",
        )
        .unwrap();
        let results = Match::analyse(&params, &Progress::hidden());
        assert_eq!(results.cases.len(), 8);
        let json = serde_json::to_value(&results).unwrap();
        let case = &json["cases"][4];
        assert_eq!(case["best_of"], 3);
        assert_eq!(case["later_games"], "loser-chooses");
        assert_eq!(case["p_match"], "2101/4000");
        assert_eq!(case["match_edge"], "101/4000");
        assert!(case["matches_needed"].as_u64().unwrap() > 1000);
        assert_eq!(results.curves.len(), 4);
        assert_eq!(results.curves[0].points.len(), 21);
        assert_eq!(results.curves[0].points[5].p_match, frac(11, 20));
        assert_eq!(serde_json::from_value::<Results>(json).unwrap(), results);
    }

    #[test]
    fn simulated_matches_agree() {
        let params: Params = serde_yaml::from_str(
            "best_of: [3, 5]\np_first: \"3/5\"\nlater_games: [loser-chooses, winner-chooses, alternate]",
        )
        .unwrap();
        let results = Match::analyse(&params, &Progress::hidden());
        let simulation = Match::simulation(&params, &results);
        assert_eq!(
            crate::analyses::simulate::assert_agrees(&simulation, 20_000),
            6 * 2
        );
    }

    #[test]
    fn bad_matches_are_refused() {
        let read = |yaml: &str| serde_yaml::from_str::<Params>(yaml);
        let e = read("best_of: 3\np_first: \"6/5\"\nlater_games: alternate").unwrap_err();
        assert!(e.to_string().contains("from 0 to 1"), "{e}");
        assert_eq!(e.location().map(|l| (l.line(), l.column())), Some((2, 10)));
        let e = read("best_of: 3\np_first: \"half\"\nlater_games: alternate").unwrap_err();
        assert!(e.to_string().contains("such as \"11/20\""), "{e}");
        let e = read("best_of: 3\np_first: \"1/2\"\nlater_games: loser-picks").unwrap_err();
        assert!(e.to_string().contains("unknown variant"), "{e}");
        let even = read("best_of: [3, 4]\np_first: \"1/2\"\nlater_games: alternate").unwrap();
        let e = Match::validate(&even).unwrap_err();
        assert_eq!(e.key, "best_of");
        assert!(e.message.contains("best of 4 can end in a tie"), "{e:?}");
    }
}
