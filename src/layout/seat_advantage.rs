//! The `seat-advantage` page: per number of players, a sentence, each
//! place in turn order against its fair share, and the games it takes to
//! notice an advantage.

use crate::analyses::first_player::{self, FirstPlayer};
use crate::analyses::seat_advantage::{Params, Results, Seat, SeatAdvantage, Table as Games};
#[cfg(test)]
use crate::analyses::Analysis;
use crate::engine::{to_f64, Exact};
use crate::layout::blocks::{Block, Cell, Chart, ChartKind, Reference, Series, Table, ValueFormat};
use crate::layout::cells::{self, fraction, yes_no};
use crate::layout::format;
use crate::layout::{results_of, Alone, Layout, Others};
use std::collections::BTreeSet;

impl Layout for SeatAdvantage {
    fn layout(params: &Params, results: &Results) -> Vec<Block> {
        Self::layout_with(params, results, &Alone)
    }

    fn layout_with(params: &Params, results: &Results, others: &dyn Others) -> Vec<Block> {
        let mut blocks = vec![Block::Verdict {
            text: overall_verdict(results),
        }];
        if let Some(scenario) = &params.compare_with {
            blocks.push(Block::ScenarioLink {
                before: "Who starts these games is decided by the procedure on the page ".into(),
                scenario: scenario.clone(),
                kind: "first-player".into(),
                after: ", which gives each player's exact chance to go first: a fair \
                        procedure gives each player the same chance, so any advantage of \
                        going first is shared evenly over many games. This page asks \
                        whether that advantage exists: each place in turn order's share of \
                        wins against its fair share."
                    .into(),
                quotes: match results_of::<FirstPlayer>(others, scenario) {
                    Some(rule) => (results.by_players.iter())
                        .map(|games| rule_quote(games, rule))
                        .collect(),
                    // Not a first-player scenario: the site says so at the key.
                    None => Vec::new(),
                },
            });
        }
        for games in &results.by_players {
            let id = format!("players-{}", games.players);
            blocks.push(Block::Heading {
                text: format!("{} players", games.players),
            });
            blocks.push(Block::Text {
                text: verdict(games),
            });
            blocks.push(Block::Chart(chart(games, &id)));
            blocks.push(Block::Table(seats_table(games, &id)));
            blocks.push(Block::Table(needed_table(games, &id)));
        }
        blocks
    }
}

/// What the first player's record says, in words a player uses.
fn reading(p: f64) -> &'static str {
    if p < 0.01 {
        "going first looks like it matters"
    } else if p < 0.05 {
        "unusual if order did not matter, but not conclusive"
    } else {
        "within what chance gives when order does not matter"
    }
}

/// The page's answer in one sentence: the first player's record for each
/// number of players, against its fair share, with the exact test's p-value.
fn overall_verdict(results: &Results) -> String {
    let clauses: Vec<String> = results
        .by_players
        .iter()
        .map(|games| {
            let first = &games.seats[0];
            let share = win_share(first.wins, games.games);
            let p = to_f64(&first.p_value);
            format!(
                "with {} players the first player won {} of {} games against a fair {} \
                 (chance alone does that in {} of such logs: {})",
                games.players,
                format::rough_percent(&share),
                format::count(&games.games.into()),
                format::exact(&first.fair_share),
                format::rough_percent(&first.p_value),
                reading(p)
            )
        })
        .collect();
    if clauses.is_empty() {
        return "No games recorded.".into();
    }
    let mut sentence = clauses.join("; ");
    if let Some(first) = sentence.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    sentence.push('.');
    sentence
}

/// The rule's expected share against what these games show: under a rule
/// that gives every player the same chance to go first, each player holds
/// each place in turn order equally often, so expects the average of the
/// places' shares of wins, the same for all, however much going first is
/// worth. The rule's chance is read from its exact results; a rule that
/// does not model these games, or gives their players different chances,
/// is quoted as saying so.
fn rule_quote(games: &Games, rule: &first_player::Results) -> String {
    let n = games.players;
    let chances: BTreeSet<&Exact> = (rule.cases.iter())
        .filter(|case| case.players == n)
        .flat_map(|case| &case.p_first)
        .collect();
    let mut chances = chances.into_iter();
    let chance = match (chances.next(), chances.next()) {
        (None, _) => {
            return format!(
                "Games of {n} players: the rule's page does not model {n} players, so it says \
                 nothing of these games."
            )
        }
        (Some(chance), None) => format::exact(chance),
        (Some(_), Some(_)) => {
            return format!(
                "Games of {n} players: the rule's page gives {n} players different chances to \
                 go first, so over many games the places in turn order are not shared evenly \
                 and the seats' shares below include that."
            )
        }
    };
    let first = &games.seats[0];
    let share = win_share(first.wins, games.games);
    format!(
        "Games of {n} players: the rule gives each player the same chance to go first, \
         {chance}, so over many games each player holds each place in turn order equally \
         often and can expect {chance} of the wins, however much going first is worth. In \
         these games the player who went first won {} ({} of {}) against the {} every player \
         can expect under the rule.",
        format::rough_percent(&share),
        format::count(&first.wins.into()),
        format::count(&games.games.into()),
        format::exact(&first.fair_share),
    )
}

/// A seat's share of the games it won, exactly (none of no games).
fn win_share(wins: u64, games: u64) -> Exact {
    crate::engine::ratio(&wins.into(), &games.max(1).into())
}

/// The first player's record in a sentence, with the chi-square across seats.
fn verdict(games: &Games) -> String {
    let first = &games.seats[0];
    let share = win_share(first.wins, games.games);
    let p = to_f64(&first.p_value);
    let reading = if p < 0.01 {
        "Chance alone rarely does that: going first looks like it matters."
    } else if p < 0.05 {
        "That is unusual for a game where order does not matter, but not conclusive."
    } else {
        "That is well within what chance gives when order does not matter."
    };
    format!(
        "In {} games of {} players, the first player won {} ({}; a fair share is {}). If order \
         did not matter, a record at least this far from the fair share would happen in {} of \
         such logs (exact binomial test). {reading} Across all seats, the chi-square test gives \
         p = {}.",
        format::count(&games.games.into()),
        games.players,
        format::count(&first.wins.into()),
        format::rough_percent(&share),
        format::exact(&first.fair_share),
        format::rough_percent(&first.p_value),
        format::float(games.chi_square.p_value)
    )
}

fn seats_table(games: &Games, id: &str) -> Table {
    Table {
        id: format!("{id}-seats"),
        caption: format!(
            "{} players: wins by place in turn order, with the exact binomial test and the 95\u{a0}% \
             exact interval",
            games.players
        ),
        columns: [
            "turn order",
            "wins",
            "share of wins",
            "fair share",
            "p-value",
            "interval low",
            "interval high",
            "fair share in interval",
        ]
        .map(String::from)
        .to_vec(),
        rows: games
            .seats
            .iter()
            .map(|seat| {
                let share = win_share(seat.wins, games.games);
                vec![
                    Cell::plain(seat.seat.to_string()),
                    cells::integer(seat.wins),
                    cells::percent(&share),
                    cells::percent(&seat.fair_share),
                    fraction(&seat.p_value),
                    cells::float_percent(seat.interval[0]),
                    cells::float_percent(seat.interval[1]),
                    yes_no(seat.fair_share_in_interval),
                ]
            })
            .collect(),
    }
}

/// Each place in turn order's share of wins with its exact interval as an
/// error bar, against the fair share; tooltips carry the exact fractions.
fn chart(games: &Games, id: &str) -> Chart {
    let share = |s: &Seat| win_share(s.wins, games.games);
    Chart {
        id: format!("{id}-shares"),
        title: format!("{} players: share of wins by turn order", games.players),
        description: "Each place in turn order's share of wins, with its 95\u{a0}% exact \
                      (Clopper-Pearson) interval as an error bar, against the fair share."
            .into(),
        kind: ChartKind::Intervals,
        x_label: "place in turn order".into(),
        y_label: "share of wins".into(),
        log_y: false,
        y_format: ValueFormat::Probability,
        x_ticks: games
            .seats
            .iter()
            .map(|s| (s.seat as f64, s.seat.to_string()))
            .collect(),
        series: vec![Series {
            name: "share of wins, with its 95\u{a0}% interval".into(),
            points: games
                .seats
                .iter()
                .map(|s| (s.seat as f64, to_f64(&share(s))))
                .collect(),
            titles: games
                .seats
                .iter()
                .map(|s| {
                    format!(
                        "place {}: {} of {} games = {} ({}); 95\u{a0}% interval {} to {}",
                        s.seat,
                        s.wins,
                        games.games,
                        format::exact(&share(s)),
                        format::percent(&share(s)),
                        format::float_percent(s.interval[0]),
                        format::float_percent(s.interval[1])
                    )
                })
                .collect(),
            intervals: games
                .seats
                .iter()
                .map(|s| (s.interval[0], s.interval[1]))
                .collect(),
        }],
        reference: games.seats.first().map(|s| Reference {
            label: format!("fair share {}", format::exact(&s.fair_share)),
            y: to_f64(&s.fair_share),
        }),
        table_id: Some(format!("{id}-seats")),
        ..Chart::default()
    }
}

fn needed_table(games: &Games, id: &str) -> Table {
    Table {
        id: format!("{id}-games-needed"),
        caption: format!(
            "{} players: games needed to notice the first player winning more often (exact \
             test at 5\u{a0}%, 80\u{a0}% of the time)",
            games.players
        ),
        columns: ["first player wins more often by", "games needed"]
            .map(String::from)
            .to_vec(),
        rows: games
            .games_needed
            .iter()
            .map(|row| {
                let label = format::percent(&row.advantage);
                vec![
                    Cell {
                        shown: if row.observed {
                            format!("{label} (as in these games)")
                        } else {
                            label
                        },
                        exact: format::exact(&row.advantage),
                    },
                    match row.games_needed {
                        Some(n) => Cell::plain(format::count(&n.into())),
                        None => Cell::plain("—"),
                    },
                ]
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;

    fn results<K: Analysis>(text: &str) -> K::Results {
        let params: K::Params = serde_yaml::from_str(text).unwrap();
        K::validate(&params).unwrap();
        K::analyse(&params, &Progress::hidden())
    }

    #[test]
    fn the_rules_exact_chance_is_quoted_or_its_absence_said() {
        let games = results::<SeatAdvantage>(
            "title: G\nkind: seat-advantage\nwins: {3: [12, 7, 5], 4: [1, 1, 1, 1]}\n",
        );
        let mut rule = results::<FirstPlayer>(
            "title: R\nkind: first-player\nplayers: 3\ndice: [d6, 2d6]\nties: [reroll-tied]\n",
        );
        let quote = rule_quote(&games.by_players[0], &rule);
        assert!(
            quote.contains("the same chance to go first, 1/3, so"),
            "{quote}"
        );
        assert!(
            quote.contains("won 50\u{a0}% (12 of 24) against the 1/3"),
            "{quote}"
        );
        let four = rule_quote(&games.by_players[1], &rule);
        assert!(four.contains("does not model 4 players"), "{four}");
        // A rule whose cases disagree is never quoted as one chance.
        rule.cases[1].p_first[0] = Exact::new(1u32.into(), 2u32.into());
        let quote = rule_quote(&games.by_players[0], &rule);
        assert!(quote.contains("different chances to go first"), "{quote}");
    }
}
