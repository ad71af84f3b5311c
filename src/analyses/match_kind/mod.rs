//! `match`: best of n games, when the player going first wins a game with
//! chance p and a rule decides who starts each game after the first.
//!
//! The player who won the first-player procedure starts game 1. A match's
//! state is the score and who starts the next game, so the chance that the
//! starter of game 1 wins, and the mean games played, follow from a
//! recursion over at most (n + 1)^2 / 2 states, in exact fractions.
//! (The module is `match_kind`, since `match` is a keyword of Rust.)

use crate::analyses::seat_advantage::{self, SeatAdvantage};
use crate::analyses::simulate::observed::Loaded;
use crate::analyses::simulate::{Event, Experiment, Simulate, Simulation};
use crate::analyses::stats;
use crate::analyses::values::SizeSet;
use crate::engine::{parse_fraction, text, to_f64, Exact};
use crate::progress::Progress;
use num_traits::{One, Zero};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::fmt;

use super::{Analysis, Cost, ParamError};

mod chain;
pub(crate) use chain::MatchChain;

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

/// `p_first`: the chances written out, or read from the games a
/// seat-advantage scenario observed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FirstChances {
    /// `["1/2", "11/20"]`, or one chance.
    Given(Vec<Chance>),
    /// `{from: observed/two-players}`.
    Observed(Observed),
}

/// `p_first: {from: NAME}`: the share of wins of the player who went first
/// in the 2-player games of the seat-advantage scenario `NAME`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Observed {
    /// The seat-advantage scenario's name, as written.
    pub(crate) from: String,
    /// The first seat's wins and the games, filled in by the loader once
    /// that scenario is read (so they key the cache); `None` until then.
    pub(crate) record: Option<(u64, u64)>,
}

/// `{from: NAME}`, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Reference {
    from: String,
}

impl<'de> Deserialize<'de> for FirstChances {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> de::Visitor<'de> for Visitor {
            type Value = FirstChances;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "chances written as fractions, such as [\"11/20\"], or the games of a \
                     seat-advantage scenario, such as {from: observed/two-players}",
                )
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut chances = Vec::new();
                while let Some(chance) = seq.next_element()? {
                    chances.push(chance);
                }
                Ok(FirstChances::Given(chances))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
                let one = Chance::deserialize(de::value::StrDeserializer::<E>::new(text))?;
                Ok(FirstChances::Given(vec![one]))
            }
            fn visit_u64<E: de::Error>(self, number: u64) -> Result<Self::Value, E> {
                let one = Chance::deserialize(de::value::U64Deserializer::<E>::new(number))?;
                Ok(FirstChances::Given(vec![one]))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let reference = Reference::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(FirstChances::Observed(Observed {
                    from: reference.from,
                    record: None,
                }))
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
    /// Chances that the player going first wins a game, or where they
    /// were observed.
    pub p_first: FirstChances,
    /// Rules for who starts the games after the first.
    #[serde(deserialize_with = "crate::analyses::values::one_or_many")]
    pub later_games: Vec<LaterGames>,
}

/// Every (best of, chance, rule), and the edge curves of the chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Where p_first was observed, when it was (`p_first: {from: NAME}`);
    /// absent from the contract otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_first_from: Option<FirstFrom>,
    /// One case per (best of, p_first, later games), shortest match first.
    pub cases: Vec<Case>,
    /// Per (best of, later games), the match edge against the game's, for
    /// p_first from 50 % to 70 %.
    pub curves: Vec<Curve>,
}

/// The games p_first was read from: the first seat's share of wins in a
/// seat-advantage scenario's 2-player games, with its interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct FirstFrom {
    /// The seat-advantage scenario (its path under `content/` without `.yaml`).
    pub(crate) scenario: String,
    /// Games the player going first won.
    pub(crate) wins: u64,
    /// 2-player games observed.
    pub(crate) games: u64,
    /// wins / games: the p_first of every case.
    #[serde(with = "text")]
    pub(crate) share: Exact,
    /// 95 % Clopper-Pearson interval of the first player's true share of
    /// wins (floats), as the seat-advantage page gives it.
    pub(crate) interval: [f64; 2],
    /// Whether the interval holds 1/2, the fair share of two players: then
    /// the games show no edge for either seat.
    pub(crate) fair_share_in_interval: bool,
    /// Its ends rounded outward to millionths, exact: the chances each
    /// case's `p_match_interval` is computed at.
    #[serde(with = "text")]
    pub(crate) interval_ends: Vec<Exact>,
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
    /// With p_first observed: p_match at the two ends of p_first's
    /// interval (`interval_ends`), lowest first. p_match rises with
    /// p_first, so these bound p_match as the interval bounds p_first. The
    /// figures are exact at those ends, but the ends are statistical (a
    /// 95 % interval, rounded outward to millionths), so the bounds are
    /// approximate. Absent from the contract otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "text")]
    pub p_match_interval: Option<Vec<Exact>>,
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

/// Seconds per (games + 1)^4 x (bits of the chance's denominator)^2: a
/// state's value is a polynomial in the chance of degree the games left,
/// so its fractions are that many times the chance's bits long, and each
/// product and sum of them reduces by a binary gcd, quadratic in bits.
/// Measured (`eval --json`, one rule) with chances of 5,000 to 20,000
/// digits: best of 3 at 10,000 digits 1.4 to 2.5 s, at 20,000 digits 7.6
/// s; best of 9 at 5,000 digits 16.6 s, which 6e-12 fits within 30 %.
const GCD_SECONDS: f64 = 1e-11;

/// The part of the cost the linear count of [`Match::cost`] leaves out:
/// the gcds of a long chance's fractions, which took a 20,000-digit
/// `p_first` 7.6 s and a 100,000-digit one past 90 s while priced at well
/// under a second. Negligible for a chance of a few digits.
fn long_chances_cost(params: &Params) -> Cost {
    let rules = params.later_games.len() as f64;
    let mut chances = params.chances();
    chances.extend(params.first_from().map_or(Vec::new(), |f| f.interval_ends));
    let squares: f64 = chances
        .iter()
        .map(|p| (p.denom().bits() as f64).powi(2))
        .sum();
    let seconds: f64 = (params.best_of.values().iter())
        .map(|&n| GCD_SECONDS * rules * (n as f64 + 1.0).powi(4) * squares)
        .sum();
    Cost {
        seconds,
        key: "p_first",
        ..Cost::default()
    }
}

/// Decimal digits of a chance's denominator, about.
fn digits(p: &Exact) -> f64 {
    p.denom().bits() as f64 * std::f64::consts::LOG10_2
}

/// A share's interval ends rounded outward to millionths, as exact
/// fractions within 0 to 1: approximate statistics made exact chances to
/// compute at, never narrower than the interval.
fn interval_ends(interval: [f64; 2]) -> Vec<Exact> {
    const MILLION: f64 = 1e6;
    let millionths = |x: f64| {
        let n = if x.is_finite() {
            x.clamp(0.0, MILLION)
        } else {
            0.0
        };
        Exact::new((n as u64).into(), 1_000_000u64.into())
    };
    let [low, high] = interval;
    vec![
        millionths((low * MILLION).floor()),
        millionths(if high.is_finite() {
            (high * MILLION).ceil()
        } else {
            MILLION
        }),
    ]
}

impl Observed {
    /// The games as the results give them, once resolved.
    fn first_from(&self) -> Option<FirstFrom> {
        let (wins, games) = self.record?;
        let interval = stats::clopper_pearson(wins, games);
        Some(FirstFrom {
            scenario: self.from.clone(),
            wins,
            games,
            share: Exact::new(wins.into(), games.max(1).into()),
            interval,
            fair_share_in_interval: stats::within(&interval, &Exact::new(1.into(), 2.into())),
            interval_ends: interval_ends(interval),
        })
    }
}

impl Params {
    /// The chances to compute at: those written, or the observed share
    /// (none while a `from` is not yet resolved).
    fn chances(&self) -> Vec<Exact> {
        match &self.p_first {
            FirstChances::Given(chances) => chances.iter().map(|c| c.0.clone()).collect(),
            FirstChances::Observed(observed) => {
                observed.first_from().map(|f| f.share).into_iter().collect()
            }
        }
    }

    /// Where p_first was observed, once resolved.
    fn first_from(&self) -> Option<FirstFrom> {
        match &self.p_first {
            FirstChances::Given(_) => None,
            FirstChances::Observed(observed) => observed.first_from(),
        }
    }

    fn cases(&self) -> Vec<Case> {
        let half = Exact::new(1.into(), 2.into());
        let ends = self.first_from().map(|f| f.interval_ends);
        let mut cases = Vec::new();
        for &best_of in self.best_of.values() {
            for p in &self.chances() {
                for &rule in &self.later_games {
                    let chain = MatchChain::new(best_of, p, rule);
                    let p_match = chain.p_match();
                    let p_match_interval = ends.as_ref().map(|ends| {
                        (ends.iter())
                            .map(|end| MatchChain::new(best_of, end, rule).p_match())
                            .collect()
                    });
                    cases.push(Case {
                        p_match_interval,
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
        match &params.p_first {
            FirstChances::Given(chances) if chances.is_empty() => {
                return refuse(
                    "p_first",
                    "expected at least one chance, such as [\"11/20\"]".into(),
                )
            }
            FirstChances::Given(_) => {}
            FirstChances::Observed(observed) => seat_advantage::check_scenario_name(
                "p_first",
                &observed.from,
                SeatAdvantage::NAME,
                "observed/two-players",
            )?,
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
        let mut chances = params.chances();
        chances.extend(params.first_from().map_or(Vec::new(), |f| f.interval_ends));
        for &n in params.best_of.values() {
            let states = (n as f64 + 1.0).powi(2) / 2.0;
            for p in &chances {
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
        .plus(long_chances_cost(params))
    }

    /// Over budget because of a long chance: how long it is.
    fn cost_detail(params: &Params) -> Option<String> {
        (Match::cost(params).key == "p_first").then(|| {
            let digits = params.chances().iter().map(digits).fold(0.0, f64::max);
            format!(
                "a chance of about {digits:.0} digits makes every score's fractions about \
                 that many digits per game left, each reduced by a gcd"
            )
        })
    }

    fn analyse(params: &Params, _: &Progress) -> Results {
        Results {
            p_first_from: params.first_from(),
            cases: params.cases(),
            curves: params.curves(),
        }
    }

    fn references(params: &Params) -> Vec<(&'static str, String, &'static str)> {
        match &params.p_first {
            FirstChances::Given(_) => Vec::new(),
            FirstChances::Observed(observed) => {
                vec![("p_first", observed.from.clone(), SeatAdvantage::NAME)]
            }
        }
    }

    /// The observed share, `"11/20"`.
    fn resolved_value(params: &Params, key: &str) -> Option<String> {
        let share = params.first_from().filter(|_| key == "p_first")?.share;
        Some(format!("\"{}\"", crate::engine::exact_string(&share)))
    }

    /// The first seat's wins and the games of the seat-advantage scenario
    /// `p_first` names: its games must all be of 2 players, and at least one.
    fn resolve(params: &mut Params, _key: &'static str, other: &dyn Any) -> Result<(), String> {
        let FirstChances::Observed(observed) = &mut params.p_first else {
            return Ok(());
        };
        let name = &observed.from;
        let seats = other
            .downcast_ref::<seat_advantage::Params>()
            .ok_or_else(|| format!("{name:?} is not a seat-advantage scenario"))?;
        let tally = seats.tally();
        if let Some(players) = tally.keys().find(|&&players| players != 2) {
            return Err(format!(
                "{name:?} has games of {players} players, and a match is played by 2: name a \
                 seat-advantage scenario whose games are all of 2 players"
            ));
        }
        let (first, games) = match tally.get(&2).map(Vec::as_slice) {
            Some(&[first, second]) => (first, first.checked_add(second)),
            _ => (0, Some(0)),
        };
        match games {
            Some(0) => Err(format!(
                "{name:?} has no observed games of 2 players: give it `wins: {{2: [11, 9]}}` \
                 or a log of games"
            )),
            Some(games) => {
                observed.record = Some((first, games));
                Ok(())
            }
            None => Err(format!("{name:?} has more games than can be counted")),
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

    /// A seat-advantage scenario's parameters, as the loader reads them.
    fn seats(yaml: &str) -> seat_advantage::Params {
        serde_yaml::from_str(yaml).unwrap()
    }

    fn observed(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).unwrap()
    }

    const FROM_LOG: &str =
        "best_of: [1, 3]\np_first: {from: cards/log}\nlater_games: [loser-chooses, alternate]";

    #[test]
    fn an_observed_share_is_an_exact_p_first_with_its_interval_carried_through() {
        let mut params = observed(FROM_LOG);
        assert_eq!(
            Match::references(&params),
            [("p_first", "cards/log".to_string(), "seat-advantage")]
        );
        // Unresolved, nothing is computed at a chance nobody gave.
        assert!(Match::analyse(&params, &Progress::hidden())
            .cases
            .is_empty());
        let log = seats("wins: {2: [11, 9]}");
        Match::resolve(&mut params, "p_first", &log).unwrap();
        // The cache is keyed by the parameters' Debug form: it holds the record.
        assert!(format!("{params:?}").contains("record: Some((11, 20))"));
        let results = Match::analyse(&params, &Progress::hidden());
        let from = results.p_first_from.as_ref().unwrap();
        assert_eq!((from.wins, from.games), (11, 20));
        assert_eq!(from.share, frac(11, 20));
        // The interval the seat-advantage page gives for the same seat.
        let page = seat_advantage::test(&log.tally());
        assert_eq!(from.interval, page.by_players[0].seats[0].interval);
        // 0.315278 to 0.769422 holds 1/2: these games show no edge.
        assert!(from.fair_share_in_interval);
        // Its ends, rounded outward to millionths.
        let [low, high] = from.interval;
        let ends = &from.interval_ends;
        assert!(
            to_f64(&ends[0]) <= low && low - to_f64(&ends[0]) < 1e-6,
            "{ends:?}"
        );
        assert!(
            to_f64(&ends[1]) >= high && to_f64(&ends[1]) - high < 1e-6,
            "{ends:?}"
        );
        // Best of 3, loser chooses, at 11/20: 2101/4000, as by hand above.
        let case = &results.cases[2];
        assert_eq!(
            (case.best_of, case.later_games),
            (3, LaterGames::LoserChooses)
        );
        assert_eq!(case.p_first, frac(11, 20));
        assert_eq!(case.p_match, frac(2101, 4000));
        let interval = case.p_match_interval.as_ref().unwrap();
        for (end, at) in interval.iter().zip(ends) {
            let (win, _) = by_sequences(3, at, LaterGames::LoserChooses);
            assert_eq!(*end, win);
        }
        assert!(interval[0] < case.p_match && case.p_match < interval[1]);
        // A single game's p_match is p_first, its interval the interval's ends.
        assert_eq!(
            results.cases[0].p_match_interval.as_deref(),
            Some(&ends[..])
        );
        // In the contract beside the cases; absent when p_first is written.
        let json = serde_json::to_value(&results).unwrap();
        assert_eq!(json["p_first_from"]["share"], "11/20");
        assert_eq!(json["p_first_from"]["scenario"], "cards/log");
        assert_eq!(json["p_first_from"]["fair_share_in_interval"], true);
        assert_eq!(json["cases"][2]["p_match"], "2101/4000");
        assert!(json["cases"][2]["p_match_interval"][1].is_string());
        assert_eq!(serde_json::from_value::<Results>(json).unwrap(), results);
        let written = observed("best_of: 3\np_first: \"11/20\"\nlater_games: alternate");
        let json = serde_json::to_value(Match::analyse(&written, &Progress::hidden())).unwrap();
        assert!(json.get("p_first_from").is_none(), "{json}");
        assert!(json["cases"][0].get("p_match_interval").is_none(), "{json}");
    }

    #[test]
    fn p_match_rises_with_p_first() {
        for rule in RULES {
            for best_of in [1, 3, 5, 7] {
                let mut last = Exact::zero();
                for percent in 0..=100u64 {
                    let p_match = MatchChain::new(best_of, &frac(percent, 100), rule).p_match();
                    assert!(p_match >= last, "bo{best_of} {rule:?} at {percent} %");
                    last = p_match;
                }
            }
        }
    }

    #[test]
    fn interval_ends_round_outward_within_zero_and_one() {
        assert_eq!(
            interval_ends([0.315_278_1, 0.769_422_1]),
            [frac(315_278, 1_000_000), frac(769_423, 1_000_000)]
        );
        assert_eq!(interval_ends([0.0, 1.0]), [frac(0, 1), frac(1, 1)]);
        assert_eq!(
            interval_ends([f64::NAN, f64::INFINITY]),
            [frac(0, 1), frac(1, 1)]
        );
        assert_eq!(interval_ends([-0.5, 1.5]), [frac(0, 1), frac(1, 1)]);
    }

    #[test]
    fn only_the_games_of_two_players_give_a_p_first() {
        let refused = |other: &dyn Any| {
            let mut params = observed(FROM_LOG);
            Match::resolve(&mut params, "p_first", other).unwrap_err()
        };
        let e = refused(&seats("wins: {2: [11, 9], 3: [4, 3, 3]}"));
        assert!(
            e.contains("has games of 3 players, and a match is played by 2"),
            "{e}"
        );
        let e = refused(&seats("wins: {4: [4, 3, 3, 1]}"));
        assert!(e.contains("games of 4 players"), "{e}");
        // A log of games with no game in it.
        let mut empty = seats("games: log.csv");
        empty.tallied = Some(Default::default());
        let e = refused(&empty);
        assert!(e.contains("no observed games of 2 players"), "{e}");
        let e = refused(&seats("wins: {2: [0, 0]}"));
        assert!(e.contains("no observed games"), "{e}");
        let e = refused(&observed(FROM_LOG));
        assert!(
            e.contains("\"cards/log\" is not a seat-advantage scenario"),
            "{e}"
        );
        // Written chances take nothing from anywhere.
        let mut written = observed("best_of: 3\np_first: \"1/2\"\nlater_games: alternate");
        assert!(Match::references(&written).is_empty());
        Match::resolve(&mut written, "p_first", &seats("wins: {3: [1, 1, 1]}")).unwrap();
    }

    #[test]
    fn bad_references_are_refused_where_written() {
        let read = |yaml: &str| serde_yaml::from_str::<Params>(yaml);
        let e = read("best_of: 3\np_first: {form: cards/log}\nlater_games: alternate").unwrap_err();
        assert!(e.to_string().contains("unknown field `form`"), "{e}");
        assert_eq!(e.location().map(|l| l.line()), Some(2));
        let e = read("best_of: 3\np_first: {from: [a]}\nlater_games: alternate").unwrap_err();
        assert_eq!(e.location().map(|l| l.line()), Some(2));
        let e = read("best_of: 3\np_first: true\nlater_games: alternate").unwrap_err();
        assert!(
            e.to_string().contains("{from: observed/two-players}"),
            "{e}"
        );
        for name in ["", "/cards/log", "cards/../log", "cards/log.yaml"] {
            let params = read(&format!(
                "best_of: 3\np_first: {{from: {name:?}}}\nlater_games: alternate"
            ))
            .unwrap();
            let e = Match::validate(&params).unwrap_err();
            assert_eq!(e.key, "p_first");
            assert!(
                e.message.contains("name the seat-advantage scenario"),
                "{e:?}"
            );
        }
    }

    /// A chance about 11/20 whose denominator has `digits` digits.
    fn long_chance(digits: usize) -> String {
        format!(
            "\"55{}/1{}1\"",
            "0".repeat(digits - 3),
            "0".repeat(digits - 2)
        )
    }

    #[test]
    fn a_long_chance_is_priced_by_its_gcds() {
        let budget = crate::analyses::Budget::default();
        let params = |best_of: u64, digits: usize| {
            let yaml = format!(
                "best_of: {best_of}\np_first: {}\nlater_games: alternate",
                long_chance(digits)
            );
            serde_yaml::from_str::<Params>(&yaml).unwrap()
        };
        // 50,000 digits at best of 3 took 45 s, priced linearly under 1 s.
        let long = params(3, 50_000);
        let e = budget.admit(&Match::cost(&long)).unwrap_err();
        assert_eq!(e.key, "p_first");
        let detail = Match::cost_detail(&long).unwrap();
        assert!(detail.starts_with("a chance of about 4999"), "{detail}");
        // 20,000 digits at best of 3 (7.6 s) is priced near it, and admitted.
        let seconds = Match::cost(&params(3, 20_000)).seconds;
        assert!((5.0..30.0).contains(&seconds), "{seconds}");
        // Short chances are priced as before.
        let short = params(101, 3);
        assert_eq!(Match::cost(&short).key, "best_of");
        assert!(Match::cost_detail(&short).is_none());
        assert!(long_chances_cost(&short).seconds < 0.1);
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
