//! The optimal mixed strategy when no single list is unbeaten.
//!
//! Picking a list is a symmetric zero-sum game: the row player earns the
//! margin P(win) - P(lose) against the column player's list. Swapping the
//! players negates the margin, so the game's value is 0, and an optimal mix
//! of lists is one whose expected margin against every list is at least 0.
//! When some list is unbeaten it is such a mix on its own; otherwise a
//! player has to randomise.
//!
//! The double oracle finds the mix without the whole margin table: solve
//! the game restricted to a few lists exactly ([`simplex::solve_game`]),
//! look for a list that beats that mix, add it, and repeat until nothing
//! beats the mix. Floats (rows of the margin table) only point at candidate
//! best responses. When they find none, the mix is checked against every
//! list in exact arithmetic, so the reported worst margin is exact; if that
//! check finds a list that beats the mix after all, it joins the restricted
//! game and the loop goes on.

use super::game::TOO_CLOSE;
use super::simplex;
use crate::engine::Exact;
use num_traits::{Signed, Zero};
use rayon::prelude::*;
use std::collections::HashMap;

/// The margins of a symmetric zero-sum game: margin(i, j) = -margin(j, i).
pub(crate) trait Margins: Sync {
    /// How many pure strategies (lists) there are.
    fn strategies(&self) -> usize;
    /// margin(i, j) for every j, in floats: only to steer the search.
    fn float_row(&self, i: usize) -> Vec<f64>;
    /// margin(i, j), exactly.
    fn exact(&self, i: usize, j: usize) -> Exact;
}

/// An optimal mixed strategy, every number exact.
#[derive(Debug, Clone, PartialEq)]
pub struct Mixed {
    /// The strategies played with positive weight, in index order.
    pub support: Vec<usize>,
    /// Their weights, summing to 1.
    pub weights: Vec<Exact>,
    /// The value of the last restricted game (0 for a symmetric game).
    pub value: Exact,
    /// min over every strategy j of the mix's expected margin against j,
    /// checked exactly: at least 0, so no list beats the mix.
    pub worst_margin: Exact,
    /// Restricted games solved.
    pub rounds: usize,
}

/// The double oracle, starting from the strategies in `start`.
pub(crate) fn double_oracle(game: &impl Margins, start: &[usize]) -> Mixed {
    assert!(!start.is_empty(), "the oracle starts from some strategy");
    let mut oracle = Oracle {
        game,
        rows: HashMap::new(),
        exact: HashMap::new(),
    };
    let mut set: Vec<usize> = start.to_vec();
    set.dedup();
    let mut rounds = 0;
    loop {
        rounds += 1;
        let solution = simplex::solve_game(&oracle.exact_matrix(&set));
        let mix: Vec<(usize, Exact)> = set
            .iter()
            .copied()
            .zip(solution.rows)
            .filter(|(_, w)| w.is_positive())
            .collect();
        let against = oracle.float_payoffs(&mix);
        let (least_at, least) = lowest(&against);
        if least < -TOO_CLOSE {
            set.push(least_at);
            continue;
        }
        let everyone: Vec<usize> = (0..against.len()).collect();
        let (worst_at, worst_margin) = oracle.exact_worst(&mix, &everyone);
        if worst_margin.is_negative() {
            debug_assert!(!set.contains(&worst_at), "the mix holds its own set");
            set.push(worst_at);
            continue;
        }
        let mut mix = mix;
        mix.sort_by_key(|(i, _)| *i);
        let (support, weights) = mix.into_iter().unzip();
        return Mixed {
            support,
            weights,
            value: solution.value,
            worst_margin,
            rounds,
        };
    }
}

/// The lowest value and its first index.
fn lowest(values: &[f64]) -> (usize, f64) {
    values
        .iter()
        .copied()
        .enumerate()
        .fold(
            (0, f64::INFINITY),
            |best, (j, v)| if v < best.1 { (j, v) } else { best },
        )
}

/// Caches of the rows and exact margins asked for so far.
struct Oracle<'a, G: Margins> {
    game: &'a G,
    rows: HashMap<usize, Vec<f64>>,
    /// margin(i, j) for i < j.
    exact: HashMap<(usize, usize), Exact>,
}

impl<G: Margins> Oracle<'_, G> {
    /// Compute the exact margins of these pairs not yet known, in parallel.
    fn fill_exact(&mut self, pairs: impl Iterator<Item = (usize, usize)>) {
        let mut missing: Vec<(usize, usize)> = pairs
            .filter(|&(i, j)| i != j)
            .map(|(i, j)| (i.min(j), i.max(j)))
            .filter(|key| !self.exact.contains_key(key))
            .collect();
        missing.sort_unstable();
        missing.dedup();
        let game = self.game;
        let computed: Vec<Exact> = missing.par_iter().map(|&(i, j)| game.exact(i, j)).collect();
        self.exact.extend(missing.into_iter().zip(computed));
    }

    fn exact_margin(&self, i: usize, j: usize) -> Exact {
        match i.cmp(&j) {
            std::cmp::Ordering::Equal => Exact::zero(),
            std::cmp::Ordering::Less => self.exact[&(i, j)].clone(),
            std::cmp::Ordering::Greater => -self.exact[&(j, i)].clone(),
        }
    }

    fn exact_matrix(&mut self, set: &[usize]) -> Vec<Vec<Exact>> {
        self.fill_exact(set.iter().flat_map(|&i| set.iter().map(move |&j| (i, j))));
        set.iter()
            .map(|&i| set.iter().map(|&j| self.exact_margin(i, j)).collect())
            .collect()
    }

    /// The mix's float expected margin against every strategy.
    fn float_payoffs(&mut self, mix: &[(usize, Exact)]) -> Vec<f64> {
        let mut against = vec![0.0; self.game.strategies()];
        for (i, weight) in mix {
            let game = self.game;
            let row = self.rows.entry(*i).or_insert_with(|| game.float_row(*i));
            let weight = crate::engine::to_f64(weight);
            for (total, margin) in against.iter_mut().zip(row.iter()) {
                *total += weight * margin;
            }
        }
        against
    }

    /// The mix's exact lowest expected margin among `candidates`, with the
    /// first strategy that reaches it.
    fn exact_worst(&mut self, mix: &[(usize, Exact)], candidates: &[usize]) -> (usize, Exact) {
        self.fill_exact(
            mix.iter()
                .flat_map(|&(i, _)| candidates.iter().map(move |&j| (i, j))),
        );
        candidates
            .iter()
            .map(|&j| {
                let payoff = mix
                    .iter()
                    .fold(Exact::zero(), |t, (i, w)| t + w * self.exact_margin(*i, j));
                (j, payoff)
            })
            .fold(None, |best: Option<(usize, Exact)>, (j, p)| match best {
                Some((k, b)) if b <= p => Some((k, b)),
                _ => Some((j, p)),
            })
            .expect("the mix's own strategies are candidates")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game given by its whole exact matrix.
    struct Table(Vec<Vec<Exact>>);

    impl Margins for Table {
        fn strategies(&self) -> usize {
            self.0.len()
        }
        fn float_row(&self, i: usize) -> Vec<f64> {
            self.0[i].iter().map(crate::engine::to_f64).collect()
        }
        fn exact(&self, i: usize, j: usize) -> Exact {
            self.0[i][j].clone()
        }
    }

    fn q(p: i64, d: i64) -> Exact {
        Exact::new(p.into(), d.into())
    }

    /// Antisymmetric matrix from its upper triangle, row by row.
    fn antisymmetric(n: usize, upper: &[Exact]) -> Table {
        let mut values = upper.iter();
        let pairs: Vec<((usize, usize), Exact)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .map(|pair| (pair, values.next().expect("enough values").clone()))
            .collect();
        let margin = |i: usize, j: usize| {
            let find = |key: (usize, usize)| pairs.iter().find(|(p, _)| *p == key);
            match (find((i, j)), find((j, i))) {
                (Some((_, v)), _) => v.clone(),
                (_, Some((_, v))) => -v.clone(),
                _ => Exact::zero(),
            }
        };
        Table(
            (0..n)
                .map(|i| (0..n).map(|j| margin(i, j)).collect())
                .collect(),
        )
    }

    /// Rock, paper, scissors, and two more moves: "lizard" loses to all
    /// three narrowly and "crowd" beats rock and scissors but loses to paper
    /// badly. The unique optimal mix is 1/3 each on rock, paper, scissors.
    fn rock_paper_scissors_and_friends() -> Table {
        let upper = [
            // rock vs paper, scissors, lizard, crowd
            q(-1, 1),
            q(1, 1),
            q(1, 10),
            q(-1, 2),
            // paper vs scissors, lizard, crowd
            q(-1, 1),
            q(1, 10),
            q(2, 1),
            // scissors vs lizard, crowd
            q(1, 10),
            q(-1, 2),
            // lizard vs crowd
            q(0, 1),
        ];
        antisymmetric(5, &upper)
    }

    #[test]
    fn finds_rock_paper_scissors_from_a_poor_start() {
        let game = rock_paper_scissors_and_friends();
        for start in [[3usize], [4], [0]] {
            let mixed = double_oracle(&game, &start);
            assert_eq!(mixed.support, vec![0, 1, 2], "from {start:?}");
            assert_eq!(mixed.weights, vec![q(1, 3); 3]);
            assert_eq!(mixed.value, Exact::zero());
            assert_eq!(mixed.worst_margin, Exact::zero());
            assert!(mixed.rounds > 1, "a single list is never enough here");
        }
    }

    #[test]
    fn worst_margin_is_the_true_minimum_and_deterministic() {
        let game = rock_paper_scissors_and_friends();
        let mixed = double_oracle(&game, &[4]);
        let truth = (0..5)
            .map(|j| {
                mixed
                    .support
                    .iter()
                    .zip(&mixed.weights)
                    .fold(Exact::zero(), |t, (&i, w)| t + w * &game.0[i][j])
            })
            .min()
            .unwrap();
        assert_eq!(mixed.worst_margin, truth);
        assert!(!mixed.worst_margin.is_negative());
        assert_eq!(mixed, double_oracle(&game, &[4]));
    }

    #[test]
    fn an_unbeaten_strategy_is_its_own_mix() {
        // Strategy 1 beats or ties everyone.
        let game = antisymmetric(3, &[q(-1, 4), q(1, 3), q(0, 1)]);
        let mixed = double_oracle(&game, &[0]);
        assert_eq!(mixed.support, vec![1]);
        assert_eq!(mixed.weights, vec![q(1, 1)]);
        assert_eq!(mixed.worst_margin, Exact::zero());
    }
}
