//! The `match` page: what winning the first-player procedure is worth over
//! a match, in words, then the match edge against the per-game edge
//! (drawn and tabulated), and every case with the matches it takes to
//! notice its edge.

use crate::analyses::match_kind::{Case, Curve, FirstFrom, LaterGames, Match, Params, Results};
use crate::engine::{to_f64, Exact};
use crate::layout::blocks::{
    Block, Cell, Chart, ChartKind, Series, Table, ValueFormat, MAX_SERIES,
};
use crate::layout::cells::{self, fraction, percent};
use crate::layout::{format, Layout};

impl Layout for Match {
    fn layout(params: &Params, results: &Results) -> Vec<Block> {
        let mut blocks = vec![Block::Verdict {
            text: verdict(&results.cases, results.p_first_from.as_ref()),
        }];
        if let Some(from) = &results.p_first_from {
            blocks.push(observed_link(from, &results.cases));
        }
        for &rule in &params.later_games {
            blocks.push(Block::Text {
                text: rule_in_words(rule).into(),
            });
        }
        blocks.push(Block::Chart(edge_chart(&results.curves)));
        blocks.push(Block::Table(edge_table(&results.curves)));
        blocks.push(Block::Table(cases_table(&results.cases)));
        blocks
    }
}

/// Where p_first was observed, linked, with each case's p_match and the
/// p_match at the ends of p_first's interval.
fn observed_link(from: &FirstFrom, cases: &[Case]) -> Block {
    let [low, high] = from.interval;
    Block::ScenarioLink {
        before: "The player going first wins a game with the chance observed on the page ".into(),
        scenario: from.scenario.clone(),
        kind: "seat-advantage".into(),
        after: format!(
            ": in its 2-player games the player who went first won {} of {}, {} ({}), with a \
             95\u{a0}% interval of {} to {}. Each p_match below is exact at that share. The \
             interval is statistical, and so are the figures at its ends: p_match rises with \
             p_first, so p_match at the interval's ends (rounded outward to millionths) \
             bounds it as the interval bounds p_first, approximately.",
            format::count(&from.wins.into()),
            format::count(&from.games.into()),
            format::percent(&from.share),
            format::exact(&from.share),
            format::float_percent(low),
            format::float_percent(high),
        ),
        quotes: cases
            .iter()
            .filter_map(|case| {
                let [low, high] = case.p_match_interval.as_deref()? else {
                    return None;
                };
                let mut text = capitalized(&best_of_words(case.best_of));
                if case.best_of > 1 {
                    text.push_str(&format!(", {}", case.later_games.name()));
                }
                Some(format!(
                    "{text}: p_match {} (interval {} to {}).",
                    format::percent(&case.p_match),
                    format::percent(low),
                    format::percent(high)
                ))
            })
            // A single game is the same whatever rule follows it: said once.
            .fold(Vec::new(), |mut quotes: Vec<String>, quote| {
                if !quotes.contains(&quote) {
                    quotes.push(quote);
                }
                quotes
            }),
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// `best-of-three`, or `best-of-7`.
fn best_of_words(best_of: u64) -> String {
    match best_of {
        1 => "single game".into(),
        3 => "best-of-three".into(),
        5 => "best-of-five".into(),
        n => format!("best-of-{n}"),
    }
}

fn rule_words(rule: LaterGames) -> &'static str {
    match rule {
        LaterGames::LoserChooses => "the loser chooses who starts the next game",
        LaterGames::WinnerChooses => "the winner chooses who starts the next game",
        LaterGames::Alternate => "the players take turns to start",
    }
}

fn rule_in_words(rule: LaterGames) -> &'static str {
    match rule {
        LaterGames::LoserChooses => {
            "loser-chooses: after each game its loser chooses who starts the next, and takes \
             the seat with the better chance (first when the first player wins at least half \
             of the games)."
        }
        LaterGames::WinnerChooses => {
            "winner-chooses: after each game its winner chooses who starts the next, and \
             takes the seat with the better chance."
        }
        LaterGames::Alternate => {
            "alternate: the players take turns to start, whatever the results."
        }
    }
}

/// The best-of-three where the loser chooses if there is one (the common
/// tournament rule), else the longest match, at the first chance that
/// gives going first an edge; against the single game. With p_first
/// observed, the verdict first says how many games it comes from and
/// whether its interval holds an even chance; if it does, the games show
/// no edge, and the match figures are what the edge would be worth if it
/// were as observed.
fn verdict(cases: &[Case], from: Option<&FirstFrom>) -> String {
    let half = Exact::new(1.into(), 2.into());
    let with_edge = || cases.iter().filter(|c| c.p_first != half);
    let chosen = with_edge()
        .find(|c| c.best_of == 3 && c.later_games == LaterGames::LoserChooses)
        .or_else(|| with_edge().max_by_key(|c| c.best_of))
        .or_else(|| cases.iter().max_by_key(|c| c.best_of));
    let Some(case) = chosen else {
        return String::new();
    };
    let opening = from.map(|from| observed_opening(from, &half));
    // Observed games that show no edge: the fixed-chance figures are
    // hypothetical, and at an observed even share there are none.
    let hypothetical = from.is_some_and(|from| from.fair_share_in_interval);
    if from.is_some() && case.p_first == half {
        return opening.unwrap_or_default();
    }
    let game_edge = &case.p_first - &half;
    let costs = case.match_edge < Exact::default();
    let worth = match (hypothetical, costs) {
        (false, false) => "is worth",
        (false, true) => "costs",
        (true, false) => "would be worth",
        (true, true) => "would cost",
    };
    let mut text = match (&opening, hypothetical) {
        (None, _) => format!(
            "When the player going first wins {} of games, winning the roll for first player",
            format::rough_percent(&case.p_first),
        ),
        (Some(opening), false) => {
            format!("{opening} At that share, winning the roll for first player")
        }
        (Some(opening), true) => {
            format!("{opening} If the edge were as observed, winning the roll for first player")
        }
    };
    text.push_str(&format!(
        " {worth} {} of match win rate in a {}",
        format::rough_points(&num_traits::Signed::abs(&case.match_edge)),
        best_of_words(case.best_of),
    ));
    if case.best_of > 1 {
        text.push_str(&format!(" where {}", rule_words(case.later_games)));
    }
    text.push_str(&format!(
        ", against {} in a single game",
        format::rough_points(&num_traits::Signed::abs(&game_edge))
    ));
    let takes = if hypothetical {
        "it would take"
    } else {
        "it takes"
    };
    match case.matches_needed {
        Some(n) => text.push_str(&format!(
            "; {takes} about {} matches to notice.",
            format::count(&n.into())
        )),
        None => text.push('.'),
    }
    text
}

/// The observed games p_first comes from, and whether they show an edge:
/// whether the 95 % interval of the first player's share holds an even
/// chance, as the analysis found.
fn observed_opening(from: &FirstFrom, half: &Exact) -> String {
    let [low, high] = from.interval;
    let (relation, meaning) = if from.fair_share_in_interval {
        ("includes", "do not show any edge for the first player")
    } else if from.share > *half {
        ("excludes", "show an edge for the player going first")
    } else {
        ("excludes", "show an edge for the player going second")
    };
    format!(
        "The player going first won {} of {} observed games, {}, with a 95\u{a0}% interval of {} to \
         {} that {relation} an even chance ({}): these games {meaning}.",
        format::count(&from.wins.into()),
        format::count(&from.games.into()),
        format::rough_percent(&from.share),
        format::float_percent(low),
        format::float_percent(high),
        format::percent(half),
    )
}

fn curve_name(curve: &Curve) -> String {
    format!(
        "{}, {}",
        best_of_words(curve.best_of),
        curve.later_games.name()
    )
}

/// The match edge against the game's, one line per format and rule.
fn edge_chart(curves: &[Curve]) -> Chart {
    let note = (curves.len() > MAX_SERIES).then(|| {
        format!("The first {MAX_SERIES} formats and rules are drawn; the table has every one.")
    });
    Chart {
        id: "edge".into(),
        title: "Match edge against the per-game edge".into(),
        description: "How much more often than half the player who starts game 1 wins the \
                      match, against how much more often than half the player going first \
                      wins a game, one line per match format and rule."
            .into(),
        kind: ChartKind::Lines,
        x_label: "per-game edge of going first (percentage points)".into(),
        y_label: "match edge of starting game 1".into(),
        y_format: ValueFormat::Probability,
        series: curves
            .iter()
            .take(MAX_SERIES)
            .map(|curve| {
                let name = curve_name(curve);
                let half = Exact::new(1.into(), 2.into());
                Series {
                    points: curve
                        .points
                        .iter()
                        .map(|point| {
                            let game = 100.0 * to_f64(&(&point.p_first - &half));
                            (game, to_f64(&(&point.p_match - &half)))
                        })
                        .collect(),
                    titles: curve
                        .points
                        .iter()
                        .map(|point| {
                            let label =
                                format!("{name}, p_first {}", format::exact(&point.p_first));
                            format::points_title(&label, &(&point.p_match - &half))
                        })
                        .collect(),
                    name,
                    ..Series::default()
                }
            })
            .collect(),
        note,
        table_id: Some("edge".into()),
        ..Chart::default()
    }
}

/// p_first down, one column per format and rule: the chance to win the match.
fn edge_table(curves: &[Curve]) -> Table {
    let mut columns = vec!["p_first".to_string()];
    columns.extend(curves.iter().map(curve_name));
    let rows = curves
        .first()
        .map(|first| {
            (0..first.points.len())
                .map(|i| {
                    let mut row = vec![percent(&first.points[i].p_first)];
                    row.extend(curves.iter().map(|c| percent(&c.points[i].p_match)));
                    row
                })
                .collect()
        })
        .unwrap_or_default();
    Table {
        id: "edge".into(),
        caption: "Chance that the player who starts game 1 wins the match".into(),
        columns,
        rows,
    }
}

fn cases_table(cases: &[Case]) -> Table {
    let observed = cases.iter().any(|c| c.p_match_interval.is_some());
    let mut table = Table {
        id: "cases".into(),
        caption: "Every match format, chance and rule".into(),
        columns: [
            "best of",
            "p_first",
            "later games",
            "p_match",
            "match edge",
            "expected games",
            "matches to notice",
        ]
        .map(String::from)
        .to_vec(),
        rows: cases
            .iter()
            .map(|c| {
                vec![
                    Cell::plain(c.best_of.to_string()),
                    percent(&c.p_first),
                    Cell::plain(c.later_games.name()),
                    percent(&c.p_match),
                    cells::points(&c.match_edge),
                    fraction(&c.expected_games),
                    c.matches_needed.map_or(Cell::plain("—"), cells::integer),
                ]
            })
            .collect(),
    };
    if observed {
        // p_match at the ends of the observed p_first's interval.
        table
            .columns
            .extend(["p_match low", "p_match high"].map(String::from));
        for (row, case) in table.rows.iter_mut().zip(cases) {
            let ends = case.p_match_interval.as_deref().unwrap_or_default();
            row.extend(ends.iter().map(percent));
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::Analysis;
    use crate::layout::ScenarioPage;
    use crate::progress::Progress;

    #[test]
    fn the_page_says_what_the_roll_is_worth() {
        let params: Params = serde_yaml::from_str(
            "best_of: [1, 3, 5]\np_first: [\"11/20\", \"3/5\"]\nlater_games: [loser-chooses, alternate]",
        )
        .unwrap();
        let results = Match::analyse(&params, &Progress::hidden());
        let page = ScenarioPage {
            results: serde_json::to_value(&results).unwrap(),
            blocks: Match::layout(&params, &results),
        };
        let verdict = page.verdict().unwrap();
        assert!(
            verdict.contains(
                "is worth 2.5\u{a0}points of match win rate in a best-of-three where the loser chooses"
            ),
            "{verdict}"
        );
        assert!(
            verdict.contains("against 5.0\u{a0}points in a single game"),
            "{verdict}"
        );
        assert_eq!(page.chart("edge").unwrap().series.len(), 6);
        let edge = page.table("edge").unwrap();
        assert_eq!(edge.rows.len(), 21);
        assert_eq!(edge.rows[5][3].exact, "2101/4000");
        assert_eq!(page.table("cases").unwrap().rows.len(), 12);
        // Even seats make no point: the verdict takes the first chance
        // with an edge.
        let params: Params = serde_yaml::from_str(
            "best_of: 3\np_first: [\"1/2\", \"11/20\"]\nlater_games: loser-chooses",
        )
        .unwrap();
        let results = Match::analyse(&params, &Progress::hidden());
        let sentence = super::verdict(&results.cases, None);
        assert!(sentence.contains("wins 55\u{a0}% of games"), "{sentence}");
        assert!(sentence.contains("is worth 2.5\u{a0}points"), "{sentence}");
    }

    /// A best-of-three, loser chooses, at the first seat's share of wins
    /// in a log of 2-player games (`wins: {2: [first, second]}`).
    fn observed(wins: &str) -> (Params, Results) {
        let mut params: Params = serde_yaml::from_str(
            "best_of: [1, 3]\np_first: {from: cards/log}\n\
             later_games: [loser-chooses, alternate]",
        )
        .unwrap();
        let log: crate::analyses::seat_advantage::Params =
            serde_yaml::from_str(&format!("wins: {{2: {wins}}}")).unwrap();
        Match::resolve(&mut params, "p_first", &log).unwrap();
        let results = Match::analyse(&params, &Progress::hidden());
        (params, results)
    }

    #[test]
    fn an_observed_edge_whose_interval_holds_an_even_chance_is_no_edge_shown() {
        // 11 of 20: Clopper-Pearson 0.315278 to 0.769422 holds 1/2.
        let (params, results) = observed("[11, 9]");
        let from = results.p_first_from.as_ref().unwrap();
        assert!(from.fair_share_in_interval);
        let sentence = super::verdict(&results.cases, Some(from));
        assert!(
            sentence.starts_with(
                "The player going first won 11 of 20 observed games, 55\u{a0}%, with a 95\u{a0}% \
                 interval of 31.5278\u{a0}% to 76.9422\u{a0}% that includes an even chance (50\u{a0}%): these \
                 games do not show any edge for the first player. If the edge were as \
                 observed, winning the roll for first player would be worth 2.5\u{a0}points of \
                 match win rate in a best-of-three where the loser chooses who starts the next \
                 game, against 5.0\u{a0}points in a single game; it would take about 3,084 matches \
                 to notice."
            ),
            "{sentence}"
        );
        // The games come before any matches to notice.
        assert!(sentence.find("20 observed games") < sentence.find("matches to notice"));
        // The page's quotes say the single game once, whatever rule follows it.
        let blocks = Match::layout(&params, &results);
        let Some(Block::ScenarioLink { quotes, .. }) = blocks.get(1) else {
            panic!("no link to the observed games: {blocks:?}")
        };
        assert_eq!(
            quotes,
            &[
                "Single game: p_match 55\u{a0}% (interval 31.5278\u{a0}% to 76.9423\u{a0}%).",
                "Best-of-three, loser-chooses: p_match 52.525\u{a0}% (interval 39.5033\u{a0}% to 67.3826\u{a0}%).",
                "Best-of-three, alternate: p_match 52.525\u{a0}% (interval 39.5033\u{a0}% to 67.3826\u{a0}%).",
            ]
        );
    }

    /// Whether the observed interval holds 1/2, and the verdict.
    fn observed_verdict(wins: &str) -> (bool, String) {
        let (_, results) = observed(wins);
        let from = results.p_first_from.as_ref().unwrap();
        let sentence = super::verdict(&results.cases, Some(from));
        (from.fair_share_in_interval, sentence)
    }

    #[test]
    fn an_observed_edge_whose_interval_excludes_an_even_chance_is_an_edge_shown() {
        // 15 of 20: Clopper-Pearson 0.508954 to 0.913429, above 1/2; at 3/4
        // a best-of-three where the loser chooses is won 3/4 (1/4 + 9/16) +
        // 1/4 (3/16) = 21/32 of the time, an edge of 15.625 points.
        let (_, results) = observed("[15, 5]");
        assert_eq!(results.cases[2].p_match, Exact::new(21.into(), 32.into()));
        let (in_interval, sentence) = observed_verdict("[15, 5]");
        assert!(!in_interval);
        let opening = "The player going first won 15 of 20 observed games, 75\u{a0}%, with a 95\u{a0}% \
                       interval of 50.8954\u{a0}% to 91.3429\u{a0}% that excludes an even chance (50\u{a0}%): \
                       these games show an edge for the player going first. At that share, \
                       winning the roll for first player is worth 16\u{a0}points of match win rate \
                       in a best-of-three where the loser chooses who starts the next game, \
                       against 25\u{a0}points in a single game; it takes about ";
        assert!(sentence.starts_with(opening), "{sentence}");
        assert!(!sentence.contains("would"), "{sentence}");
        // 5 of 20: 0.0865715 to 0.491046, below 1/2: the second seat's edge.
        let (in_interval, sentence) = observed_verdict("[5, 15]");
        assert!(!in_interval);
        let opening = "The player going first won 5 of 20 observed games, 25\u{a0}%, with a 95\u{a0}% \
                       interval of 8.65715\u{a0}% to 49.1046\u{a0}% that excludes an even chance (50\u{a0}%): \
                       these games show an edge for the player going second. At that share, \
                       winning the roll for first player costs 16\u{a0}points";
        assert!(sentence.starts_with(opening), "{sentence}");
    }
}
