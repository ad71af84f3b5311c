//! The seed author's substitution search, with every comparison exact.
//!
//! Our reading of the seed's description (it leaves some choices open):
//! - The start is the M individually most probable totals in decreasing
//!   order of probability, ties to the smaller total; when M exceeds the
//!   number of totals the order repeats from the top.
//! - Positions are worked from the last back to the first. At the j-th
//!   position worked (j = 1, 2, ...), the challengers are the j most
//!   probable totals, most probable first, but only totals more probable
//!   than the one that started at this position (the seed never swaps a
//!   total for a less likely one). Each challenger is tried against the list
//!   as it stands; a challenger that equals the current occupant is skipped.
//! - "Beats" means a strictly larger probability of winning the head-to-head
//!   game; a beaten or tied challenger is rejected.
//! - When no challenger is accepted at a position, the search stops: the
//!   seed argues the earlier, more probable positions would resist too.

use super::lists::{Counts, Totals};
use super::residues;
use crate::engine::{text, Exact};
use serde::{Deserialize, Serialize};

/// One comparison the search made, as the results report it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Position in the probability-ordered list, counted from 0.
    pub position: usize,
    /// The total in that position before the comparison.
    pub incumbent: u64,
    /// The total tried in its place.
    pub challenger: u64,
    /// P(the list with the challenger wins) against the current list.
    #[serde(rename = "p_challenger_wins", with = "text")]
    pub challenger_wins: Exact,
    /// P(the current list wins).
    #[serde(rename = "p_incumbent_wins", with = "text")]
    pub incumbent_wins: Exact,
    /// Whether the challenger took the position.
    pub accepted: bool,
}

/// Where the search ended and how it got there.
#[derive(Debug, Clone, PartialEq)]
pub struct Greedy {
    /// The final list.
    pub list: Counts,
    /// Every comparison, in order.
    pub steps: Vec<Step>,
}

/// Run the substitution search for lists of `picks` totals.
pub fn search(totals: &Totals, picks: u64) -> Greedy {
    let order = totals.by_probability();
    let picks = picks as usize;
    let mut current: Vec<usize> = (0..picks).map(|i| order[i % order.len()]).collect();
    let mut steps = Vec::new();
    for worked in 1..=picks {
        let position = picks - worked;
        let more_probable = position.min(order.len());
        let mut substituted = false;
        for &challenger in &order[..worked.min(more_probable)] {
            let incumbent = current[position];
            if challenger == incumbent {
                continue;
            }
            let mut candidate = current.clone();
            candidate[position] = challenger;
            let game = residues::game(
                totals,
                &counts(totals, &candidate),
                &counts(totals, &current),
            );
            let accepted = game.a_wins > game.b_wins;
            steps.push(Step {
                position,
                incumbent: totals.total(incumbent),
                challenger: totals.total(challenger),
                challenger_wins: game.a_wins,
                incumbent_wins: game.b_wins,
                accepted,
            });
            if accepted {
                current = candidate;
                substituted = true;
            }
        }
        if !substituted {
            break;
        }
    }
    Greedy {
        list: counts(totals, &current),
        steps,
    }
}

fn counts(totals: &Totals, indices: &[usize]) -> Counts {
    let mut counts = vec![0u8; totals.kinds()];
    for &i in indices {
        counts[i] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::super::game::play;
    use super::*;

    #[test]
    fn the_seeds_game_keeps_five_distinct_totals() {
        // The seed tried [5, 6, 7, 8, 7] against [5, 6, 7, 8, 9] and kept 9.
        let totals = Totals::of(2, 6);
        let greedy = search(&totals, 5);
        assert_eq!(totals.sums(&greedy.list), [5, 6, 7, 8, 9]);
        let first = &greedy.steps[0];
        assert_eq!(
            (first.position, first.incumbent, first.challenger),
            (4, 9, 7)
        );
        assert!(!first.accepted);
        assert_eq!(greedy.steps.len(), 1);
        let game = play::<Exact>(
            &totals,
            &totals.counts(&[5, 6, 7, 8, 9]),
            &totals.counts(&[5, 6, 7, 7, 8]),
        );
        assert_eq!(first.incumbent_wins, game.a_wins);
    }

    #[test]
    fn accepted_challengers_really_win() {
        for (count, sides, picks) in [(2, 6, 8), (1, 6, 4), (3, 4, 6)] {
            let totals = Totals::of(count, sides);
            let greedy = search(&totals, picks);
            assert_eq!(greedy.list.iter().map(|&n| n as u64).sum::<u64>(), picks);
            for step in &greedy.steps {
                assert_eq!(step.accepted, step.challenger_wins > step.incumbent_wins);
            }
        }
    }
}
