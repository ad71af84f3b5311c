//! A match format solved exactly: every score of a best-of-n, from the
//! end back to 0-0, under one chance and one rule for later games.

use super::LaterGames;
use crate::engine::Exact;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

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
