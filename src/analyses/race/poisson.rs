//! The closed form behind the search: rolls as a Poisson process.
//!
//! Let the rolls arrive at rate 1. Each total s then arrives as its own
//! independent Poisson stream of rate p_s, and the c-th arrival of s comes
//! at an Erlang(c, p_s) time with CDF F(t) = 1 - e^{-p t} sum_{j<c} (p t)^j / j!.
//! With c_s = max(a_s, b_s), the game is decided by the total that is the
//! last to reach c_s: if a_s < b_s, A was done before it; if a_s > b_s, B
//! was; if equal, both finish on that roll. So
//!
//! P(s last) = integral of f_s(t) prod_{r != s} F_r(t) dt
//!
//! depends only on c, and expanding the product gives terms
//! g t^m e^{-L t} / m! that integrate to g / L^{m+1}. Measuring time in
//! units of K rolls makes every rate an integer (the ways w_s), and carrying
//! g = coefficient * m! keeps every coefficient an integer: multiplying a
//! term by (w t)^j / j! e^{-w t} maps g to g w^j C(m + j, j).
//!
//! The expected end of a game is E[min(T_A, T_B)] = E[T_A] + E[T_B] -
//! E[max(T_A, T_B)], and max(T_A, T_B) is the time all of c is crossed off;
//! each of the three is E[time] = integral of (1 - prod F_r) dt.

use super::lists::Totals;
use crate::engine::Exact;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Terms g t^m e^{-L t} / m!, keyed by (L, m).
type Terms = BTreeMap<(u64, u32), BigInt>;

/// Multiply by F(t) for `quota` arrivals of a stream of rate `rate`.
fn times_erlang_cdf(terms: &Terms, rate: u64, quota: u8) -> Terms {
    let mut out = terms.clone();
    for (&(decay, power), g) in terms {
        let mut factor = BigInt::one(); // w^j C(m + j, j)
        for j in 0..quota as u32 {
            if j > 0 {
                factor = factor * rate * (power + j) / j;
            }
            let entry = out
                .entry((decay + rate, power + j))
                .or_insert_with(BigInt::zero);
            *entry -= g * &factor;
        }
    }
    out.retain(|_, g| !g.is_zero());
    out
}

/// The integral over t of the terms with a positive decay, exactly.
fn integral(terms: &Terms) -> Exact {
    terms
        .iter()
        .filter(|((decay, _), _)| *decay > 0)
        .map(|(&(decay, power), g)| Exact::new(g.clone(), BigInt::from(decay).pow(power + 1)))
        .sum()
}

/// P(s is the last total to reach its quota c_s), for every s with c_s > 0.
pub(crate) fn last_to_finish(totals: &Totals, quotas: &[u8]) -> Vec<(usize, Exact)> {
    let useful: Vec<usize> = (0..quotas.len()).filter(|&i| quotas[i] > 0).collect();
    useful
        .iter()
        .map(|&s| {
            let rate = totals.ways[s];
            let quota = quotas[s] as u32;
            // f_s(t) = w^q t^{q-1} e^{-w t} / (q-1)!
            let mut terms = Terms::new();
            terms.insert((rate, quota - 1), BigInt::from(rate).pow(quota));
            for &r in useful.iter().filter(|&&r| r != s) {
                terms = times_erlang_cdf(&terms, totals.ways[r], quotas[r]);
            }
            (s, integral(&terms))
        })
        .collect()
}

/// Expected rolls until every quota is met.
pub(crate) fn expected_rolls(totals: &Totals, quotas: &[u8]) -> Exact {
    let mut terms = Terms::new();
    terms.insert((0, 0), BigInt::one());
    for (r, &quota) in quotas.iter().enumerate().filter(|(_, &q)| q > 0) {
        terms = times_erlang_cdf(&terms, totals.ways[r], quota);
    }
    -integral(&terms) * Exact::from_integer(totals.outcomes.into())
}

#[cfg(test)]
mod tests {
    use super::super::game::play;
    use super::super::lists::all_lists;
    use super::*;

    /// P(A wins), P(B wins), E[rolls] of a game from the closed form.
    fn closed_form(totals: &Totals, a: &[u8], b: &[u8]) -> (Exact, Exact, Exact) {
        let quotas: Vec<u8> = a.iter().zip(b).map(|(&x, &y)| x.max(y)).collect();
        let mut a_wins = Exact::zero();
        let mut b_wins = Exact::zero();
        for (s, p) in last_to_finish(totals, &quotas) {
            if a[s] < b[s] {
                a_wins += p;
            } else if a[s] > b[s] {
                b_wins += p;
            }
        }
        let rolls =
            expected_rolls(totals, a) + expected_rolls(totals, b) - expected_rolls(totals, &quotas);
        (a_wins, b_wins, rolls)
    }

    #[test]
    fn closed_form_agrees_with_the_dynamic_programme() {
        let cases = [(1, 4, 2), (2, 6, 3), (3, 4, 2)];
        for (count, sides, picks) in cases {
            let totals = Totals::of(count, sides);
            let lists = all_lists(totals.kinds(), picks);
            for (i, a) in lists.iter().enumerate().step_by(5) {
                let b = &lists[(i * 13 + 7) % lists.len()];
                let dp = play::<Exact>(&totals, a, b);
                let (a_wins, b_wins, rolls) = closed_form(&totals, a, b);
                assert_eq!(dp.a_wins, a_wins, "{a:?} {b:?}");
                assert_eq!(dp.b_wins, b_wins, "{a:?} {b:?}");
                assert_eq!(dp.expected_rolls, rolls, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn the_seeds_pair_in_both_methods() {
        let totals = Totals::of(2, 6);
        let a = totals.counts(&[5, 6, 7, 8, 9]);
        let b = totals.counts(&[5, 6, 7, 7, 8]);
        let dp = play::<Exact>(&totals, &a, &b);
        let (a_wins, b_wins, rolls) = closed_form(&totals, &a, &b);
        assert_eq!(
            (dp.a_wins, dp.b_wins, dp.expected_rolls),
            (a_wins, b_wins, rolls)
        );
    }
}
