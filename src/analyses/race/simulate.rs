//! The race replayed as players play it: roll the dice, cross one copy of
//! the total off every list that has it, and stop when a list is empty.

use super::results::{Analysed, List, Matchup};
use super::{Params, Race};
use crate::analyses::simulate::{Event, Experiment, Sampler, Simulate, Simulation};
use crate::engine::{to_f64, Exact};

/// Every head-to-head game of the results (the scenario's matchups, then
/// the optimizer's greedy and fastest lists against a maximin list) against
/// its exact odds and mean length, and every solo list against its exact
/// chance of being done by its median and its mean time.
impl Simulate for Race {
    fn simulation(params: &Params, analysed: &Analysed) -> Simulation {
        let results = &analysed.results;
        let count = results.dice.count;
        let sides = params.dice.sides;
        let optimizer = results.optimizer.iter();
        let games = results
            .matchups
            .iter()
            .map(|m| ("matchup", m))
            .chain(optimizer.flat_map(|o| {
                [
                    ("greedy against maximin", &o.greedy.against_maximin),
                    ("fastest against maximin", &o.fastest_solo.against_maximin),
                ]
            }));
        let mut experiments: Vec<Experiment> = games
            .map(|(what, game)| game_experiment(what, game, count, sides))
            .collect();
        for (solo, within) in results.solo.iter().zip(&analysed.page.solo_within) {
            experiments.push(solo_experiment(
                &solo.list,
                &solo.expected_rolls,
                solo.median_rolls
                    .and_then(|m| Some((m, within.get(m as usize)?))),
                count,
                sides,
            ));
        }
        Simulation::of(experiments)
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ending {
    AWins,
    BWins,
    Tie,
}

/// Play `a` against `b` to the end: how it ended and after how many rolls.
pub(super) fn play(
    sampler: &mut Sampler,
    a: &[u64],
    b: &[u64],
    count: u64,
    sides: u64,
) -> (Ending, u64) {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    let mut rolls = 0;
    loop {
        rolls += 1;
        let total = sampler.dice(count, sides);
        cross_off(&mut a, total);
        cross_off(&mut b, total);
        match (a.is_empty(), b.is_empty()) {
            (true, true) => return (Ending::Tie, rolls),
            (true, false) => return (Ending::AWins, rolls),
            (false, true) => return (Ending::BWins, rolls),
            (false, false) => {}
        }
    }
}

/// Cross one copy of `total` off `list`, if it has one.
fn cross_off(list: &mut Vec<u64>, total: u64) {
    if let Some(at) = list.iter().position(|&t| t == total) {
        list.swap_remove(at);
    }
}

fn game_experiment(what: &str, game: &Matchup, count: u64, sides: u64) -> Experiment {
    let (a, b) = (game.a.clone(), game.b.clone());
    Experiment {
        label: format!("{what} {a:?} against {b:?}"),
        events: vec![
            Event::new("A wins", game.p_a_wins.clone()),
            Event::new("B wins", game.p_b_wins.clone()),
            Event::new("tie", game.p_tie.clone()),
        ],
        steps_per_trial: count as f64 * to_f64(&game.expected_rolls),
        means: vec![Event::new("rolls", game.expected_rolls.clone())],
        trial: Box::new(move |sampler, trial| {
            let (ending, rolls) = play(sampler, &a, &b, count, sides);
            trial.hit(ending as usize);
            trial.measure(0, rolls);
        }),
    }
}

fn solo_experiment(
    list: &List,
    expected_rolls: &Exact,
    median: Option<(u64, &Exact)>,
    count: u64,
    sides: u64,
) -> Experiment {
    let list = list.clone();
    let median_rolls = median.map(|(m, _)| m);
    Experiment {
        label: format!("{list:?} alone"),
        events: median
            .map(|(m, p)| Event::new(format!("done within {m} rolls"), p.clone()))
            .into_iter()
            .collect(),
        steps_per_trial: count as f64 * to_f64(expected_rolls),
        means: vec![Event::new("rolls", expected_rolls.clone())],
        trial: Box::new(move |sampler, trial| {
            // A list raced against itself: both empty on the same roll.
            let (_, rolls) = play(sampler, &list, &list, count, sides);
            if median_rolls.is_some_and(|m| rolls <= m) {
                trial.hit(0);
            }
            trial.measure(0, rolls);
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simulated_races_agree_with_the_exact_games() {
        use crate::analyses::Analysis;
        use crate::progress::Progress;
        let params: Params = serde_yaml::from_str(
            "dice: 2d6\npicks: 2\nmatchups: [[[6, 7], [7, 8]], [[2, 12], [7, 7]]]\noptimize: true",
        )
        .unwrap();
        let analysed = Race::analyse(&params, &Progress::hidden());
        let simulation = Race::simulation(&params, &analysed);
        let figures = crate::analyses::simulate::assert_agrees(&simulation, 20_000);
        // Four games of three odds and a mean, and every solo list's
        // median chance and mean.
        assert!(figures >= 4 * 4 + 2 * 2, "{figures}");
    }

    #[test]
    fn a_game_ends_when_a_list_is_empty() {
        let mut sampler = Sampler::new(3, "race");
        for _ in 0..200 {
            let (ending, rolls) = play(&mut sampler, &[7], &[2, 12], 2, 6);
            assert!(rolls >= 1);
            assert_ne!(ending, Ending::Tie, "one roll cannot empty both");
        }
        let (ending, _) = play(&mut sampler, &[6, 8], &[8, 6], 2, 6);
        assert_eq!(ending, Ending::Tie);
        let mut list = vec![7, 7, 8];
        cross_off(&mut list, 7);
        cross_off(&mut list, 5);
        list.sort();
        assert_eq!(list, [7, 8]);
    }
}
