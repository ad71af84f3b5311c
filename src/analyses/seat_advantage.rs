//! `seat-advantage`: does going first (or second...) matter? Wins by place
//! in turn order against each seat's fair share, per number of players:
//! exact binomial tests summed in fractions, exact intervals, a chi-square
//! across seats, and the games it would take to notice an advantage.

use crate::analyses::observations::{
    tally_games, too_many, total, Count, DataError, DataPath, Tally, MAX_PLAYERS,
};
use crate::analyses::simulate::observed::{
    at_least, binomial_rejections, more_often, no_more_likely, pearson, power_experiment,
    weights_within_reach, Coverage, Loaded, MAX_REPLAYED,
};
use crate::analyses::simulate::{Event, Experiment, Figure, Simulate, Simulation};
use crate::analyses::stats::{self, ChiSquare};
use crate::engine::{text, Exact};
use crate::progress::Progress;
use num_bigint::BigInt;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::BufRead;

use super::{Analysis, Cost, ParamError};

/// The `seat-advantage` kind.
pub(crate) struct SeatAdvantage;

/// Big-integer word operations per second, on the safe side.
const WORD_OPS_PER_SECOND: f64 = 6.7e7;

/// Parameters of a `seat-advantage` scenario.
#[derive(Debug, Clone, Deserialize)]
pub struct Params {
    /// A CSV log of games beside the scenario.
    #[serde(default)]
    pub games: Option<DataPath>,
    /// Wins by place in turn order, per number of players, written inline:
    /// `{4: [40, 30, 20, 10]}`.
    #[serde(default)]
    pub wins: Option<BTreeMap<u64, Vec<Count>>>,
    /// The first-player scenario whose procedure picks who starts these
    /// games (its name: the path under `content/` without `.yaml`); the
    /// page links to it.
    #[serde(default)]
    pub compare_with: Option<String>,
    /// The games file's tally, filled in by the loader.
    #[serde(skip)]
    pub tallied: Option<Tally>,
}

impl Params {
    /// Wins by place in turn order, per number of players.
    pub(crate) fn tally(&self) -> Tally {
        match (&self.wins, &self.tallied) {
            (Some(wins), _) => wins
                .iter()
                .map(|(&players, seats)| (players, seats.iter().map(|c| c.0).collect()))
                .collect(),
            (None, Some(tallied)) => tallied.clone(),
            (None, None) => Tally::new(),
        }
    }
}

/// The results: the contract of issue 16, each table with its chi-square
/// and the games needed to notice an advantage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Games observed.
    pub games: u64,
    /// One entry per number of players, fewest first.
    pub by_players: Vec<Table>,
}

/// The games of one number of players.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Players in each of these games.
    pub players: u64,
    /// How many games.
    pub games: u64,
    /// One entry per place in turn order (1 = went first).
    pub seats: Vec<Seat>,
    /// Pearson's chi-square of the wins against equal shares (floats).
    pub chi_square: ChiSquare,
    /// Games needed to notice the first player winning more often.
    pub games_needed: Vec<GamesNeeded>,
}

/// One place in turn order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Seat {
    /// Place in turn order, 1 = went first.
    pub seat: u64,
    /// Games it won.
    pub wins: u64,
    /// Its share of wins if order did not matter: 1/players.
    #[serde(with = "text")]
    pub fair_share: Exact,
    /// The exact two-sided binomial test of its wins against that share.
    #[serde(with = "text")]
    pub p_value: Exact,
    /// 95 % Clopper-Pearson interval of its true share of wins (floats).
    pub interval: [f64; 2],
    /// Whether the interval holds the fair share.
    pub fair_share_in_interval: bool,
}

/// Games needed to notice one size of first-player advantage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GamesNeeded {
    /// How much more often than its fair share the first player wins
    /// (1/10 = 10 %; negative: less often).
    #[serde(with = "text")]
    pub advantage: Exact,
    /// Whether this is the advantage these games show.
    pub observed: bool,
    /// Games for the two-sided binomial test at 5 % to notice it 80 % of
    /// the time (the least n at which its exact power does); `None` past
    /// the search's reach.
    pub games_needed: Option<u64>,
}

impl Analysis for SeatAdvantage {
    const NAME: &'static str = "seat-advantage";
    type Params = Params;
    type Results = Results;

    fn validate(params: &Params) -> Result<(), ParamError> {
        if let Some(name) = &params.compare_with {
            check_scenario_name("compare_with", name, "first-player", "rules/first-player")?;
        }
        match (&params.games, &params.wins) {
            (Some(_), Some(_)) => Err(ParamError {
                key: "wins",
                message: "give either `games` or `wins`, not both".into(),
            }),
            (None, None) => Err(ParamError {
                key: "kind",
                message: "no games: add `games: FILE.csv` (a log of games) or \
                          `wins: {4: [40, 30, 20, 10]}` (wins by turn order)"
                    .into(),
            }),
            (None, Some(wins)) => check_wins(wins),
            (Some(_), None) => Ok(()),
        }
    }

    /// Two passes of n big-integer weights of n log2(players) bits per table.
    fn cost(params: &Params) -> Cost {
        let mut ops = 0.0;
        let mut bytes = 0.0;
        for (&players, seats) in &params.tally() {
            let n: f64 = seats.iter().sum::<u64>() as f64;
            let words = n * (players as f64).log2() / 64.0 + 1.0;
            ops += 2.0 * n * words * (3.0 + players as f64);
            bytes += (players as f64 + 4.0) * words * 8.0 + players as f64 * 600.0;
        }
        Cost {
            seconds: ops / WORD_OPS_PER_SECOND,
            bytes,
            key: if params.games.is_some() {
                "games"
            } else {
                "wins"
            },
            ..Cost::default()
        }
    }

    fn analyse(params: &Params, progress: &Progress) -> Results {
        let tally = params.tally();
        progress.with_spinner("seat advantage", |_| test(&tally))
    }

    fn data_files(params: &Params) -> Vec<(&'static str, String)> {
        params
            .games
            .iter()
            .map(|path| ("games", path.0.clone()))
            .collect()
    }

    fn read_data(
        params: &mut Params,
        _key: &'static str,
        rows: &mut dyn BufRead,
    ) -> Result<(), DataError> {
        params.tallied = Some(tally_games(rows)?);
        Ok(())
    }
}

/// A scenario's name as shortcodes write it: `rules/first-player`, given
/// under `key` for a scenario of `kind` (`example` names one).
pub(crate) fn check_scenario_name(
    key: &'static str,
    name: &str,
    kind: &str,
    example: &str,
) -> Result<(), ParamError> {
    let wrong = name.is_empty()
        || name.ends_with(".yaml")
        || name.starts_with('/')
        || name
            .split('/')
            .any(|part| part.is_empty() || part == "." || part == "..");
    if wrong {
        return Err(ParamError {
            key,
            message: format!(
                "{name:?}: name the {kind} scenario by its path under content/ without \
                 .yaml, such as {example}"
            ),
        });
    }
    Ok(())
}

fn check_wins(wins: &BTreeMap<u64, Vec<Count>>) -> Result<(), ParamError> {
    let wrong = |message: String| {
        Err(ParamError {
            key: "wins",
            message,
        })
    };
    if wins.is_empty() {
        return wrong("no games: give wins by turn order, such as `{4: [40, 30, 20, 10]}`".into());
    }
    for (&players, seats) in wins {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return wrong(format!("{players} players: expected 2 to {MAX_PLAYERS}"));
        }
        if seats.len() as u64 != players {
            return wrong(format!(
                "{} counts for {players} players: give one count of wins per place in turn \
                 order, first player first",
                seats.len()
            ));
        }
        if total(seats.iter().map(|c| c.0)).is_none() {
            return wrong(too_many(&format!("the wins of {players} players")));
        }
        if seats.iter().all(|c| c.0 == 0) {
            return wrong(format!(
                "no games of {players} players: at least one count must be above 0"
            ));
        }
    }
    Ok(())
}

/// Every figure for the games in `tally`.
pub fn test(tally: &Tally) -> Results {
    let by_players: Vec<Table> = tally
        .iter()
        .map(|(&players, wins)| table(players, wins))
        .collect();
    Results {
        games: by_players.iter().map(|t| t.games).sum(),
        by_players,
    }
}

fn table(players: u64, wins: &[u64]) -> Table {
    let games: u64 = wins.iter().sum();
    let fair_share = Exact::new(BigInt::from(1), BigInt::from(players));
    let p_values = stats::binomial_p_values(wins, games, &fair_share);
    let seats = wins
        .iter()
        .zip(p_values)
        .enumerate()
        .map(|(i, (&won, p_value))| {
            let interval = stats::clopper_pearson(won, games);
            Seat {
                seat: i as u64 + 1,
                wins: won,
                fair_share_in_interval: stats::within(&interval, &fair_share),
                fair_share: fair_share.clone(),
                p_value,
                interval,
            }
        })
        .collect();
    let expected = vec![games as f64 / players as f64; players as usize];
    Table {
        players,
        games,
        seats,
        chi_square: stats::pearson(wins, &expected),
        games_needed: games_needed(&fair_share, wins[0], games),
    }
}

/// Games needed to notice the first player winning 10 %, 25 %, 50 % more
/// often than fair, and as often as these games show.
fn games_needed(fair_share: &Exact, first_wins: u64, games: u64) -> Vec<GamesNeeded> {
    let fair = stats::share_f64(fair_share);
    let mut rows: Vec<GamesNeeded> = stats::ADVANTAGES
        .iter()
        .map(|&(p, q)| GamesNeeded {
            advantage: Exact::new(BigInt::from(p), BigInt::from(q)),
            observed: false,
            games_needed: stats::binomial_exact_trials_needed(
                fair,
                stats::share_f64(&stats::favoured(fair_share, (p, q))),
            ),
        })
        .collect();
    let share = Exact::new(BigInt::from(first_wins), BigInt::from(games));
    let advantage = &share / fair_share - Exact::from_integer(1.into());
    rows.push(GamesNeeded {
        games_needed: stats::binomial_exact_trials_needed(fair, stats::share_f64(&share)),
        advantage,
        observed: true,
    });
    rows
}

/// The figures of a log of games are arithmetic on games already played,
/// so the simulation replays the questions they answer, per number of
/// players: as many games as the log in which turn order does not matter
/// (each seat's mean wins, its exact binomial test, its interval's
/// coverage, and how close the chi-square p-value and its 5 % size come);
/// and each row of games needed, with the first player winning that much
/// more often (how often the exact binomial test notices; the row
/// promises 80 %).
impl Simulate for SeatAdvantage {
    fn simulation(_: &Params, results: &Results) -> Simulation {
        let mut simulation = Simulation::of(Vec::new());
        simulation.not_replayed.push(
            "each seat's interval and the chi-square statistic: arithmetic on the games \
             observed, nothing random (their p-values and coverage are replayed)"
                .into(),
        );
        for table in &results.by_players {
            let players = table.players;
            simulation.experiments.push(fair_games(table));
            if !weights_within_reach(table.games) {
                simulation.not_replayed.push(Coverage::out_of_reach(
                    &format!("{players} players, each seat's"),
                    table.games,
                    "games",
                ));
            }
            for row in &table.games_needed {
                let what = format!(
                    "{players} players, games to notice a first player winning {}",
                    more_often(&row.advantage)
                );
                let attempt = row
                    .games_needed
                    .ok_or_else(|| "none or over a billion, nothing to replay".to_string())
                    .and_then(|n| power_games(table, row, n));
                simulation.replay(&what, attempt);
            }
        }
        simulation
    }
}

/// As many games as the table's, each won by a seat drawn at random.
fn fair_games(table: &Table) -> Experiment {
    let (players, games) = (table.players, table.games);
    let seats = Loaded::new(&vec![1; players as usize]);
    let observed: Vec<u64> = table.seats.iter().map(|s| s.wins).collect();
    let fair_share = Exact::new(BigInt::from(1), BigInt::from(players));
    let coverage = weights_within_reach(games).then(|| Coverage::new(games, &fair_share));
    let expected = vec![games as f64 / players as f64; players as usize];
    let critical = stats::chi_square_critical(table.chi_square.df).unwrap_or(f64::INFINITY);
    let mut events: Vec<Event> = table
        .seats
        .iter()
        .map(|s| {
            let label = format!("seat {}: wins no more likely than {}", s.seat, s.wins);
            Event::new(label, s.p_value.clone())
        })
        .collect();
    if let Some(coverage) = &coverage {
        events.extend(table.seats.iter().map(|s| {
            let label = format!("seat {}: its interval holds its fair share", s.seat);
            Event::new(label, coverage.exact.clone())
        }));
    }
    let covered = coverage.as_ref().map_or(0, |_| players as usize);
    events.extend([
        Event::approximate(
            format!("chi-square at least {:.4}", table.chi_square.statistic),
            table.chi_square.p_value,
        ),
        Event::approximate("chi-square test rejects at 5 %", stats::SIGNIFICANCE),
    ]);
    let means = table
        .seats
        .iter()
        .map(|s| {
            let mean = &s.fair_share * Exact::from_integer(BigInt::from(games));
            Event::new(format!("seat {} wins", s.seat), mean)
        })
        .collect();
    let statistic = table.chi_square.statistic;
    let seat_count = players as usize;
    Experiment {
        label: format!("{games} games of {players} players, turn order irrelevant"),
        events,
        means,
        steps_per_trial: seats.steps(games),
        trial: Box::new(move |sampler, trial| {
            let wins = seats.counts(sampler, games);
            let weights = [1, players - 1];
            for (seat, (&won, &seen)) in wins.iter().zip(&observed).enumerate() {
                if no_more_likely(&[won, games - won], &[seen, games - seen], &weights) {
                    trial.hit(seat);
                }
                if let Some(coverage) = &coverage {
                    if coverage.holds[won as usize] {
                        trial.hit(seat_count + seat);
                    }
                }
                trial.measure(seat, won);
            }
            let x = pearson(&wins, &expected);
            for (i, hit) in [at_least(x, statistic), x >= critical]
                .into_iter()
                .enumerate()
            {
                if hit {
                    trial.hit(seat_count + covered + i);
                }
            }
        }),
    }
}

/// The games a row asks for, the first player winning as often as the row
/// says: how often the exact two-sided binomial test at 5 % notices.
fn power_games(table: &Table, row: &GamesNeeded, games: u64) -> Result<Experiment, String> {
    if !weights_within_reach(games) {
        return Err(format!(
            "{games} games, more than the {MAX_REPLAYED} a trial replays"
        ));
    }
    let players = table.players;
    let one = Exact::from_integer(BigInt::from(1));
    let fair_share = Exact::new(BigInt::from(1), BigInt::from(players));
    let first = &fair_share * (&one + &row.advantage);
    let rest = &one - &first;
    let winner = Loaded::from_chances(&[first.clone(), rest])
        .ok_or("its chances do not fit a 64-bit draw")?;
    let rejected = binomial_rejections(games, 1, players - 1);
    let label = format!(
        "{games} games of {players} players, the first winning {}",
        more_often(&row.advantage)
    );
    // The power the search found there (at least 80 %), summed over every
    // count: the replay, with its own exact rejection region, must meet it.
    let reached = stats::binomial_exact_power(
        games,
        stats::share_f64(&fair_share),
        stats::share_f64(&first),
    );
    Ok(power_experiment(
        label,
        "binomial test",
        games as f64,
        Figure::Summed(reached),
        move |sampler| rejected[winner.tally(sampler, games)[0] as usize],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forum_log_of_156_games() {
        // Two players, the first won 62 % of 156 games (97 wins).
        let tally = Tally::from([(2, vec![97, 59])]);
        let results = test(&tally);
        let table = &results.by_players[0];
        assert_eq!(results.games, 156);
        assert_eq!(table.seats[0].fair_share, Exact::new(1.into(), 2.into()));
        // scipy.stats.binomtest(97, 156, 0.5).pvalue = 0.002930581611216728
        let p = stats::share_f64(&table.seats[0].p_value);
        assert!((p - 0.002_930_581_611_216_728).abs() < 1e-12, "{p}");
        // With two seats the two tests are the same test.
        assert_eq!(table.seats[0].p_value, table.seats[1].p_value);
        assert!(!table.seats[0].fair_share_in_interval);
        assert_eq!(table.chi_square.df, 1);
        let observed = table.games_needed.last().unwrap();
        assert!(observed.observed);
        assert_eq!(observed.advantage, Exact::new(38.into(), 156.into()));
    }

    // A log past the one-by-one limit: its wins are drawn from their
    // multinomial distribution, and each seat's exact p-value and mean
    // wins still agree with the replay; the coverage is listed instead.
    #[test]
    fn a_log_of_a_hundred_thousand_games_is_replayed() {
        use crate::analyses::simulate::assert_agrees;
        let tally = Tally::from([(3, vec![33_700, 33_500, 32_800])]);
        let mut results = test(&tally);
        for table in &mut results.by_players {
            table.games_needed.clear();
        }
        let params: Params = serde_yaml::from_str("wins: {3: [33700, 33500, 32800]}").unwrap();
        let simulation = SeatAdvantage::simulation(&params, &results);
        // Per seat: its p-value and its mean wins (no coverage).
        assert_eq!(assert_agrees(&simulation, 4_000), 3 * 2);
        assert!(simulation
            .not_replayed
            .iter()
            .any(|reason| reason.contains("interval coverage") && reason.contains("100000 games")));
    }

    #[test]
    fn simulated_fair_games_agree_with_the_exact_tests() {
        use crate::analyses::simulate::assert_agrees;
        let tally = Tally::from([(2, vec![97, 59]), (3, vec![12, 7, 5])]);
        let mut results = test(&tally);
        for table in &mut results.by_players {
            table.games_needed.clear();
        }
        let params: Params = serde_yaml::from_str("wins: {2: [97, 59]}").unwrap();
        let simulation = SeatAdvantage::simulation(&params, &results);
        // Per seat: its p-value, its interval's coverage and its mean wins.
        assert_eq!(assert_agrees(&simulation, 20_000), 3 * 2 + 3 * 3);
        assert_eq!(
            simulation.experiments[1].label,
            "24 games of 3 players, turn order irrelevant"
        );
    }

    #[test]
    fn a_games_needed_row_is_replayed_with_a_favoured_first_player() {
        let results = test(&Tally::from([(4, vec![40, 30, 20, 10])]));
        let params: Params = serde_yaml::from_str("wins: {4: [40, 30, 20, 10]}").unwrap();
        let simulation = SeatAdvantage::simulation(&params, &results);
        // The fair games, then the 50 % row (10 % and 25 % ask for
        // thousands of games, too slow for a unit test).
        let needed = results.by_players[0].games_needed[2].games_needed.unwrap();
        let row = &simulation.experiments[3];
        assert_eq!(
            row.label,
            format!("{needed} games of 4 players, the first winning 50 % more often")
        );
        // Its figure: the exact test's power there, at least 80 %, held to
        // its limit as an exact figure is.
        let Figure::Summed(reached) = row.events[0].figure else {
            panic!("{:?}", row.events[0].figure)
        };
        assert!((stats::POWER..0.9).contains(&reached), "{reached}");
        let tally = row.run(4_000, 1, "power");
        let share = tally.hits[0] as f64 / 4_000.0;
        let spread = (reached * (1.0 - reached) / 4_000.0).sqrt();
        assert!(
            (share - reached).abs() < 5.0 * spread,
            "{share} against {reached}"
        );
    }

    #[test]
    fn fair_tables_pass() {
        let tally = Tally::from([(3, vec![10, 10, 10]), (4, vec![1, 0, 0, 0])]);
        let results = test(&tally);
        assert_eq!(results.games, 31);
        assert_eq!(
            results.by_players[0].seats[1].p_value,
            Exact::from_integer(1.into())
        );
        assert_eq!(results.by_players[1].chi_square.df, 3);
        let json = serde_json::to_value(&results).unwrap();
        assert_eq!(json["by_players"][0]["seats"][0]["fair_share"], "1/3");
        let back: Results = serde_json::from_value(json).unwrap();
        assert_eq!(back, results);
    }
}
