//! Exact linear programming and zero-sum games, for the mixed strategy.
//!
//! The restricted games the double oracle solves have a few dozen
//! strategies at most, so a dense tableau in exact fractions is both simple
//! and fast enough. Bland's rule (the lowest-indexed improving column enters,
//! the lowest-indexed basic variable leaves among ties) cannot cycle, so the
//! method always ends, even on degenerate problems: game matrices with
//! zero margins are full of them.

use crate::engine::Exact;
use num_traits::{One, Signed, Zero};

/// A linear programme with nothing to bound its objective.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the linear programme is unbounded")]
pub(crate) struct Unbounded;

/// An optimal solution of [`maximise`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LpSolution {
    /// The best objective value.
    pub(crate) objective: Exact,
    /// The primal solution x, one value per column.
    pub(crate) primal: Vec<Exact>,
    /// The dual solution y, one value per constraint: y >= 0,
    /// y A >= c and y b = objective certify that no x does better.
    pub(crate) dual: Vec<Exact>,
}

/// Maximise c·x subject to A x <= b and x >= 0, where b >= 0 (so x = 0 is
/// a feasible start and no first phase is needed).
///
/// Panics if some b is negative or the shapes disagree: callers build these
/// programmes themselves.
pub(crate) fn maximise(
    a: &[Vec<Exact>],
    b: &[Exact],
    c: &[Exact],
) -> Result<LpSolution, Unbounded> {
    assert_eq!(a.len(), b.len(), "one bound per constraint");
    assert!(
        a.iter().all(|row| row.len() == c.len()),
        "one coefficient per column"
    );
    assert!(b.iter().all(|x| !x.is_negative()), "b >= 0");
    let mut tableau = Tableau::new(a, b, c);
    while let Some(entering) = tableau.entering() {
        let leaving = tableau.leaving(entering).ok_or(Unbounded)?;
        tableau.pivot(leaving, entering);
    }
    Ok(tableau.solution())
}

/// The dense simplex tableau: constraint rows [A | I | b] over the columns
/// x then slacks, and the objective row [-c | 0 | 0].
struct Tableau {
    columns: usize,
    rows: Vec<Vec<Exact>>,
    objective: Vec<Exact>,
    /// The variable basic in each row.
    basis: Vec<usize>,
}

impl Tableau {
    fn new(a: &[Vec<Exact>], b: &[Exact], c: &[Exact]) -> Tableau {
        let (m, n) = (a.len(), c.len());
        let rows = a
            .iter()
            .zip(b)
            .enumerate()
            .map(|(i, (row, bound))| {
                let mut full = row.clone();
                full.extend((0..m).map(|k| if k == i { Exact::one() } else { Exact::zero() }));
                full.push(bound.clone());
                full
            })
            .collect();
        let mut objective: Vec<Exact> = c.iter().map(|x| -x.clone()).collect();
        objective.resize(n + m + 1, Exact::zero());
        Tableau {
            columns: n,
            rows,
            objective,
            basis: (n..n + m).collect(),
        }
    }

    fn rhs(&self) -> usize {
        self.objective.len() - 1
    }

    /// Bland: the lowest-indexed column whose reduced cost can improve.
    fn entering(&self) -> Option<usize> {
        (0..self.rhs()).find(|&j| self.objective[j].is_negative())
    }

    /// The ratio test; ties go to the lowest-indexed basic variable.
    fn leaving(&self, entering: usize) -> Option<usize> {
        let rhs = self.rhs();
        let mut best: Option<(usize, Exact)> = None;
        for (i, row) in self.rows.iter().enumerate() {
            if !row[entering].is_positive() {
                continue;
            }
            let ratio = &row[rhs] / &row[entering];
            let better = match &best {
                None => true,
                Some((k, r)) => ratio < *r || (ratio == *r && self.basis[i] < self.basis[*k]),
            };
            if better {
                best = Some((i, ratio));
            }
        }
        best.map(|(i, _)| i)
    }

    fn pivot(&mut self, leaving: usize, entering: usize) {
        let pivot = self.rows[leaving][entering].clone();
        for x in &mut self.rows[leaving] {
            *x /= &pivot;
        }
        let pivot_row = self.rows[leaving].clone();
        let others = self
            .rows
            .iter_mut()
            .enumerate()
            .filter(|(i, _)| *i != leaving)
            .map(|(_, row)| row)
            .chain(std::iter::once(&mut self.objective));
        for row in others {
            let factor = row[entering].clone();
            if factor.is_zero() {
                continue;
            }
            for (x, p) in row.iter_mut().zip(&pivot_row) {
                if !p.is_zero() {
                    *x -= &factor * p;
                }
            }
        }
        self.basis[leaving] = entering;
    }

    fn solution(&self) -> LpSolution {
        let rhs = self.rhs();
        let mut primal = vec![Exact::zero(); self.columns];
        for (row, &variable) in self.rows.iter().zip(&self.basis) {
            if variable < self.columns {
                primal[variable] = row[rhs].clone();
            }
        }
        LpSolution {
            objective: self.objective[rhs].clone(),
            primal,
            dual: self.objective[self.columns..rhs].to_vec(),
        }
    }
}

/// An optimal solution of a zero-sum game.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GameSolution {
    /// What the row player can guarantee and the column player can hold
    /// them to.
    pub value: Exact,
    /// An optimal mix of rows: it earns at least `value` against every column.
    pub rows: Vec<Exact>,
    /// An optimal mix of columns: it concedes at most `value` to every row.
    pub columns: Vec<Exact>,
}

/// Solve the zero-sum game where the row player receives `payoff[i][j]`.
///
/// Shifting every payoff so the smallest is 1 makes the value positive
/// without changing the optimal mixes. Then y = columns / value solves
/// max Σy subject to payoff y <= 1, y >= 0: bounded because every payoff
/// is at least 1, and its dual is the row player's mix over the value.
pub(crate) fn solve_game(payoff: &[Vec<Exact>]) -> GameSolution {
    assert!(
        !payoff.is_empty() && !payoff[0].is_empty(),
        "a game has moves"
    );
    let lowest = payoff.iter().flatten().min().expect("some payoff").clone();
    let shift = Exact::one() - lowest;
    let shifted: Vec<Vec<Exact>> = payoff
        .iter()
        .map(|row| row.iter().map(|x| x + &shift).collect())
        .collect();
    let ones = |n: usize| vec![Exact::one(); n];
    let lp = maximise(&shifted, &ones(payoff.len()), &ones(payoff[0].len()))
        .expect("positive payoffs bound the programme");
    let shifted_value = lp.objective.recip();
    let scale = |v: Vec<Exact>| v.into_iter().map(|x| x * &shifted_value).collect();
    GameSolution {
        value: &shifted_value - shift,
        rows: scale(lp.dual),
        columns: scale(lp.primal),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn q(p: i64, d: i64) -> Exact {
        Exact::new(p.into(), d.into())
    }

    fn int_matrix(rows: &[&[i64]]) -> Vec<Vec<Exact>> {
        rows.iter()
            .map(|r| r.iter().map(|&x| q(x, 1)).collect())
            .collect()
    }

    /// What a mix of rows earns against every column, and what a mix of
    /// columns concedes to every row: the certificate of optimality.
    fn check_certificate(payoff: &[Vec<Exact>], s: &GameSolution) {
        let total = |v: &[Exact]| v.iter().fold(Exact::zero(), |a, x| a + x);
        assert_eq!(total(&s.rows), Exact::one());
        assert_eq!(total(&s.columns), Exact::one());
        assert!(s.rows.iter().chain(&s.columns).all(|x| !x.is_negative()));
        for j in 0..payoff[0].len() {
            let earned =
                (0..payoff.len()).fold(Exact::zero(), |a, i| a + &s.rows[i] * &payoff[i][j]);
            assert!(
                earned >= s.value,
                "row mix earns {earned} < {} against {j}",
                s.value
            );
        }
        for (i, row) in payoff.iter().enumerate() {
            let conceded = row
                .iter()
                .zip(&s.columns)
                .fold(Exact::zero(), |a, (p, y)| a + p * y);
            assert!(conceded <= s.value, "column mix concedes {conceded} to {i}");
        }
    }

    #[test]
    fn rock_paper_scissors_is_a_third_each() {
        let rps = int_matrix(&[&[0, -1, 1], &[1, 0, -1], &[-1, 1, 0]]);
        let s = solve_game(&rps);
        assert_eq!(s.value, Exact::zero());
        assert_eq!(s.rows, vec![q(1, 3); 3]);
        assert_eq!(s.columns, vec![q(1, 3); 3]);
    }

    #[test]
    fn a_dominated_strategy_gets_no_weight() {
        // Rock-paper-scissors plus a "fool" that loses to everything, by 2
        // to rock: worse than any other move against every reply.
        let game = int_matrix(&[
            &[0, -1, 1, 2],
            &[1, 0, -1, 1],
            &[-1, 1, 0, 1],
            &[-2, -1, -1, 0],
        ]);
        let s = solve_game(&game);
        check_certificate(&game, &s);
        assert_eq!(s.value, Exact::zero());
        assert_eq!(s.rows, vec![q(1, 3), q(1, 3), q(1, 3), q(0, 1)]);
    }

    #[test]
    fn a_two_by_two_game_by_hand() {
        // No saddle point: the row player mixes p on the first row with
        // 3p - 2(1 - p) = -p + (1 - p), so p = 3/7 and the value is 1/7;
        // the column player mixes 2/7 on the first column.
        let game = int_matrix(&[&[3, -1], &[-2, 1]]);
        let s = solve_game(&game);
        assert_eq!(s.value, q(1, 7));
        assert_eq!(s.rows, vec![q(3, 7), q(4, 7)]);
        assert_eq!(s.columns, vec![q(2, 7), q(5, 7)]);
    }

    #[test]
    fn a_saddle_point_is_a_pure_strategy() {
        let game = int_matrix(&[&[4, 2, 5], &[1, 0, 7], &[3, 1, 2]]);
        let s = solve_game(&game);
        assert_eq!(s.value, q(2, 1));
        assert_eq!(s.rows, vec![q(1, 1), q(0, 1), q(0, 1)]);
        assert_eq!(s.columns, vec![q(0, 1), q(1, 1), q(0, 1)]);
    }

    #[test]
    fn bland_rule_ends_on_beales_cycling_example() {
        // Beale (1955): Dantzig's largest-coefficient rule cycles forever
        // here; the optimum is 1/20 at x = (1/25, 0, 1, 0).
        let a = vec![
            vec![q(1, 4), q(-60, 1), q(-1, 25), q(9, 1)],
            vec![q(1, 2), q(-90, 1), q(-1, 50), q(3, 1)],
            vec![q(0, 1), q(0, 1), q(1, 1), q(0, 1)],
        ];
        let b = vec![q(0, 1), q(0, 1), q(1, 1)];
        let c = vec![q(3, 4), q(-150, 1), q(1, 50), q(-6, 1)];
        let s = maximise(&a, &b, &c).unwrap();
        assert_eq!(s.objective, q(1, 20));
        assert_eq!(s.primal, vec![q(1, 25), q(0, 1), q(1, 1), q(0, 1)]);
        // The dual certifies it: y b equals the objective and y A >= c.
        let yb = s
            .dual
            .iter()
            .zip(&b)
            .fold(Exact::zero(), |t, (y, x)| t + y * x);
        assert_eq!(yb, s.objective);
        for (j, cj) in c.iter().enumerate() {
            let column = s
                .dual
                .iter()
                .zip(&a)
                .fold(Exact::zero(), |t, (y, row)| t + y * &row[j]);
            assert!(column >= *cj);
        }
    }

    #[test]
    fn unbounded_programmes_are_reported() {
        let a = vec![vec![q(1, 1), q(-1, 1)]];
        let result = maximise(&a, &[q(1, 1)], &[q(0, 1), q(1, 1)]);
        assert_eq!(result, Err(Unbounded));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_games_have_certified_solutions(
            rows in 1usize..6,
            columns in 1usize..6,
            entries in proptest::collection::vec(-5i64..=5, 36),
        ) {
            let game: Vec<Vec<Exact>> = (0..rows)
                .map(|i| (0..columns).map(|j| q(entries[i * 6 + j], 1)).collect())
                .collect();
            let s = solve_game(&game);
            check_certificate(&game, &s);
            prop_assert_eq!(s.clone(), solve_game(&game), "deterministic");
        }
    }
}
