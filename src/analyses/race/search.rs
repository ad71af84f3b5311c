//! The exhaustive search for the strongest list.
//!
//! A list's worst margin is the minimum over every opponent B of
//! P(win) - P(lose) against B. It is never positive (the list against itself
//! ties), so a list is unbeaten exactly when its worst margin is 0, and the
//! maximin lists are those with the largest worst margin.
//!
//! Computing every margin of every pair is out of reach for larger games
//! (43,758 lists of 8 picks on 2d6 make about 10^9 pairs), so the search is
//! a bound-and-prune over rows of the margin table:
//! - Evaluating a row (list A against everyone) gives A's worst margin, and,
//!   by antisymmetry, for every other list B the upper bound
//!   worst(B) <= margin(B, A) = -margin(A, B).
//! - The next row is the list with the highest bound, so rows follow strong
//!   lists; the search stops when every list not yet evaluated has a bound
//!   below the best worst margin found. Those lists are provably not maximin.
//!
//! Rows are computed in `f64` (see `game` for why its error is far below
//! [`TOO_CLOSE`]); a float comparison is trusted only when the gap exceeds
//! `TOO_CLOSE`. Everything reported is then recomputed exactly: the worst
//! margin of each maximin candidate from every opponent whose float margin is
//! within `TOO_CLOSE` of its float minimum, the fastest solo lists, the cycle
//! and the margin table of the strongest lists.

use super::game::play;
use super::greedy::{self, Greedy};
use super::lists::{all_lists, Counts, Totals};
use super::mixed::{self, Margins};
use super::solo;
use crate::engine::Exact;
use indicatif::{ProgressBar, ProgressStyle};
use num_traits::{Signed, Zero};
use rayon::prelude::*;

/// Float margins closer than this are decided in exact arithmetic.
pub const TOO_CLOSE: f64 = 1e-9;

/// How many of the strongest lists the margin table and the cycle look at.
pub const STRONGEST: usize = 12;

/// Searches with more lists than this show a progress bar.
const PROGRESS_FROM_LISTS: usize = 5_000;

/// A list with its exact worst margin.
#[derive(Debug, Clone, PartialEq)]
pub struct Rated {
    /// The list.
    pub list: Counts,
    /// min over every opponent of P(win) - P(lose).
    pub worst_margin: Exact,
}

/// A non-transitive triple: `lists[0]` beats `lists[1]` beats `lists[2]`
/// beats `lists[0]`, with those three margins.
#[derive(Debug, Clone, PartialEq)]
pub struct Cycle {
    /// The three lists.
    pub lists: [Counts; 3],
    /// margin(lists[i], lists[(i + 1) % 3]), all positive.
    pub margins: [Exact; 3],
}

/// Everything the optimizer found.
#[derive(Debug, Clone)]
pub struct Optimum {
    /// How many lists exist.
    pub lists: usize,
    /// The seed's greedy search.
    pub greedy: Greedy,
    /// The greedy list's exact worst margin.
    pub greedy_worst_margin: Exact,
    /// Lists with worst margin 0.
    pub unbeaten: Vec<Rated>,
    /// Lists with the largest worst margin.
    pub maximin: Vec<Rated>,
    /// The lists with the fewest expected solo rolls.
    pub fastest: Vec<Counts>,
    /// Their expected solo rolls.
    pub fastest_rolls: Exact,
    /// A non-transitive triple among the strongest lists, if one exists.
    pub cycle: Option<Cycle>,
    /// The first maximin list and the lists that come closest to beating it.
    pub strongest: Vec<Counts>,
    /// Exact margins among `strongest`: row against column.
    pub strongest_margins: Vec<Vec<Exact>>,
    /// Rows of the margin table the search had to compute.
    pub rows_evaluated: usize,
    /// The optimal mix of lists, when no list is unbeaten.
    pub mixed: Option<MixedLists>,
}

/// An optimal mixed strategy over lists (see [`mixed`]).
#[derive(Debug, Clone, PartialEq)]
pub struct MixedLists {
    /// The lists played with positive weight.
    pub support: Vec<Counts>,
    /// The mixed strategy and its exact certificate.
    pub mix: mixed::Mixed,
}

/// One evaluated row: a list's float margins against every list.
struct Row {
    list: usize,
    margins: Vec<f64>,
    worst: f64,
}

/// Search every list of `picks` totals.
pub fn optimise(totals: &Totals, picks: u64) -> Optimum {
    let lists = all_lists(totals.kinds(), picks);
    let greedy = greedy::search(totals, picks);
    let solo_rolls: Vec<f64> = lists
        .par_iter()
        .map(|list| solo::expected_rolls::<f64>(totals, list))
        .collect();
    let start = lists
        .iter()
        .position(|l| *l == greedy.list)
        .expect("the greedy list is a list");
    let rows = bound_and_prune(totals, &lists, &solo_rolls, start);
    let rated = confirm_maximin(totals, &lists, &rows);
    let best = rated.iter().map(|r| &r.worst_margin).max().cloned();
    let maximin: Vec<Rated> = rated
        .into_iter()
        .filter(|r| Some(&r.worst_margin) == best.as_ref())
        .collect();
    let unbeaten: Vec<Rated> = maximin
        .iter()
        .filter(|r| num_traits::Zero::is_zero(&r.worst_margin))
        .cloned()
        .collect();
    let greedy_row = rows.iter().find(|r| r.list == start).expect("first row");
    let greedy_worst_margin = exact_worst(totals, &lists, greedy_row).1;
    let (fastest, fastest_rolls) = fastest_solo(totals, &lists, &solo_rolls);
    let top = strongest(&lists, &rows, &maximin[0].list);
    let strongest_margins = exact_margins(totals, &top);
    let cycle = find_cycle(&top, &strongest_margins);
    let mixed = unbeaten
        .is_empty()
        .then(|| mixed_strategy(totals, &lists, &rows, &maximin));
    Optimum {
        lists: lists.len(),
        greedy,
        greedy_worst_margin,
        unbeaten,
        maximin,
        fastest,
        fastest_rolls,
        cycle,
        strongest: top,
        strongest_margins,
        rows_evaluated: rows.len(),
        mixed,
    }
}

/// The race as a symmetric zero-sum game over `lists`, reusing the rows
/// the search already computed.
struct RaceGame<'a> {
    totals: &'a Totals,
    lists: &'a [Counts],
    rows: &'a [Row],
}

impl Margins for RaceGame<'_> {
    fn strategies(&self) -> usize {
        self.lists.len()
    }

    fn float_row(&self, i: usize) -> Vec<f64> {
        match self.rows.iter().find(|r| r.list == i) {
            Some(row) => row.margins.clone(),
            None => float_row(self.totals, self.lists, i),
        }
    }

    fn exact(&self, i: usize, j: usize) -> Exact {
        play::<Exact>(self.totals, &self.lists[i], &self.lists[j]).margin()
    }
}

/// The double oracle, started from the maximin lists.
fn mixed_strategy(
    totals: &Totals,
    lists: &[Counts],
    rows: &[Row],
    maximin: &[Rated],
) -> MixedLists {
    let start: Vec<usize> = maximin
        .iter()
        .map(|r| lists.iter().position(|l| *l == r.list).expect("a list"))
        .collect();
    let mix = mixed::double_oracle(
        &RaceGame {
            totals,
            lists,
            rows,
        },
        &start,
    );
    MixedLists {
        support: mix.support.iter().map(|&i| lists[i].clone()).collect(),
        mix,
    }
}

/// List `list`'s float margins against every list.
fn float_row(totals: &Totals, lists: &[Counts], list: usize) -> Vec<f64> {
    lists
        .par_iter()
        .map(|b| play::<f64>(totals, &lists[list], b).margin())
        .collect()
}

/// Evaluate rows, strongest bound first, until no other list can be maximin.
fn bound_and_prune(
    totals: &Totals,
    lists: &[Counts],
    solo_rolls: &[f64],
    start: usize,
) -> Vec<Row> {
    let progress = progress_bar(lists.len());
    let mut bound = vec![f64::INFINITY; lists.len()];
    let mut evaluated = vec![false; lists.len()];
    let mut best = f64::NEG_INFINITY;
    let mut rows = Vec::new();
    let mut next = Some(start);
    while let Some(list) = next {
        let margins = float_row(totals, lists, list);
        let worst = margins.iter().copied().fold(f64::INFINITY, f64::min);
        best = best.max(worst);
        for (b, m) in bound.iter_mut().zip(&margins) {
            *b = b.min(-m);
        }
        bound[list] = worst;
        evaluated[list] = true;
        rows.push(Row {
            list,
            margins,
            worst,
        });
        progress.set_message(format!("{} rows, best worst margin {best:.6}", rows.len()));
        progress.inc(1);
        next = (0..lists.len())
            .filter(|&j| !evaluated[j] && bound[j] >= best - TOO_CLOSE)
            .max_by(|&x, &y| {
                bound[x]
                    .total_cmp(&bound[y])
                    .then(solo_rolls[y].total_cmp(&solo_rolls[x]))
                    .then(y.cmp(&x))
            });
    }
    progress.finish_and_clear();
    rows
}

fn progress_bar(lists: usize) -> ProgressBar {
    if lists < PROGRESS_FROM_LISTS {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} race search: {msg} [{elapsed}]")
            .expect("valid template"),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// The exact worst margin of every row whose float worst margin is within
/// reach of the best.
fn confirm_maximin(totals: &Totals, lists: &[Counts], rows: &[Row]) -> Vec<Rated> {
    let best = rows
        .iter()
        .map(|r| r.worst)
        .fold(f64::NEG_INFINITY, f64::max);
    let mut candidates: Vec<&Row> = rows
        .iter()
        .filter(|r| r.worst >= best - TOO_CLOSE)
        .collect();
    candidates.sort_by_key(|r| r.list);
    candidates
        .into_iter()
        .map(|row| {
            let (list, worst_margin) = exact_worst(totals, lists, row);
            Rated { list, worst_margin }
        })
        .collect()
}

/// A row's exact worst margin: only opponents whose float margin is within
/// `TOO_CLOSE` of the float minimum can be the minimum.
fn exact_worst(totals: &Totals, lists: &[Counts], row: &Row) -> (Counts, Exact) {
    let a = &lists[row.list];
    let worst = (0..lists.len())
        .filter(|&j| row.margins[j] <= row.worst + TOO_CLOSE)
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|j| play::<Exact>(totals, a, &lists[j]).margin())
        .min()
        .expect("a row has at least its own list");
    (a.clone(), worst)
}

/// The lists with the fewest expected solo rolls, confirmed exactly.
fn fastest_solo(totals: &Totals, lists: &[Counts], solo_rolls: &[f64]) -> (Vec<Counts>, Exact) {
    let least = solo_rolls.iter().copied().fold(f64::INFINITY, f64::min);
    let near: Vec<(usize, Exact)> = (0..lists.len())
        .filter(|&i| solo_rolls[i] <= least * (1.0 + TOO_CLOSE))
        .map(|i| (i, solo::expected_rolls::<Exact>(totals, &lists[i])))
        .collect();
    let fewest = near
        .iter()
        .map(|(_, e)| e)
        .min()
        .expect("some list")
        .clone();
    let fastest = near
        .into_iter()
        .filter(|(_, e)| *e == fewest)
        .map(|(i, _)| lists[i].clone())
        .collect();
    (fastest, fewest)
}

/// The maximin list first, then the lists that do best against it
/// (largest float margin against it; ties by list order).
fn strongest(lists: &[Counts], rows: &[Row], leader: &Counts) -> Vec<Counts> {
    let leader_index = lists.iter().position(|l| l == leader).expect("a list");
    let row = rows
        .iter()
        .find(|r| r.list == leader_index)
        .expect("maximin lists have rows");
    let mut others: Vec<usize> = (0..lists.len()).filter(|&j| j != leader_index).collect();
    others.sort_by(|&x, &y| row.margins[x].total_cmp(&row.margins[y]).then(x.cmp(&y)));
    std::iter::once(leader_index)
        .chain(others)
        .take(STRONGEST)
        .map(|i| lists[i].clone())
        .collect()
}

/// Exact margins among `lists`, row against column; the diagonal is 0.
pub fn exact_margins(totals: &Totals, lists: &[Counts]) -> Vec<Vec<Exact>> {
    let n = lists.len();
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let upper: Vec<Exact> = pairs
        .par_iter()
        .map(|&(i, j)| play::<Exact>(totals, &lists[i], &lists[j]).margin())
        .collect();
    let mut table = vec![vec![Exact::zero(); n]; n];
    for ((i, j), m) in pairs.into_iter().zip(upper) {
        table[j][i] = -m.clone();
        table[i][j] = m;
    }
    table
}

/// The triple i beats j beats k beats i whose smallest margin is largest;
/// ties to the earliest triple.
fn find_cycle(lists: &[Counts], margins: &[Vec<Exact>]) -> Option<Cycle> {
    let n = lists.len();
    let mut best: Option<([usize; 3], Exact)> = None;
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                // Each cycle once: its first list is the earliest.
                if j <= i || k <= i || j == k {
                    continue;
                }
                let trio = [&margins[i][j], &margins[j][k], &margins[k][i]];
                if trio.iter().all(|m| m.is_positive()) {
                    let weakest = trio.into_iter().min().expect("three").clone();
                    if best.as_ref().is_none_or(|(_, b)| weakest > *b) {
                        best = Some(([i, j, k], weakest));
                    }
                }
            }
        }
    }
    best.map(|([i, j, k], _)| Cycle {
        lists: [lists[i].clone(), lists[j].clone(), lists[k].clone()],
        margins: [
            margins[i][j].clone(),
            margins[j][k].clone(),
            margins[k][i].clone(),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair, exactly: the definition the search must agree with.
    fn brute_force_worst(totals: &Totals, picks: u64) -> Vec<Exact> {
        let lists = all_lists(totals.kinds(), picks);
        lists
            .iter()
            .map(|a| {
                lists
                    .iter()
                    .map(|b| play::<Exact>(totals, a, b).margin())
                    .min()
                    .unwrap()
            })
            .collect()
    }

    #[test]
    fn search_matches_exhaustive_exact_comparison() {
        for (count, sides, picks) in [(1, 4, 2), (2, 4, 3), (2, 6, 2), (1, 6, 3)] {
            let totals = Totals::of(count, sides);
            let lists = all_lists(totals.kinds(), picks);
            let worst = brute_force_worst(&totals, picks);
            let best = worst.iter().max().unwrap();
            let expected: Vec<&Counts> = lists
                .iter()
                .zip(&worst)
                .filter(|(_, w)| *w == best)
                .map(|(l, _)| l)
                .collect();
            let found = optimise(&totals, picks);
            let got: Vec<&Counts> = found.maximin.iter().map(|r| &r.list).collect();
            let mut expected_sorted = expected.clone();
            expected_sorted.sort();
            let mut got_sorted = got.clone();
            got_sorted.sort();
            assert_eq!(got_sorted, expected_sorted, "{count}d{sides} M={picks}");
            assert!(found.maximin.iter().all(|r| &r.worst_margin == best));
            assert_eq!(found.unbeaten.is_empty(), !best.is_zero());
            assert_eq!(found.mixed.is_some(), found.unbeaten.is_empty());
        }
    }

    #[test]
    fn cycles_are_real_and_the_margin_table_is_antisymmetric() {
        let totals = Totals::of(2, 6);
        let found = optimise(&totals, 3);
        let m = &found.strongest_margins;
        for (i, row) in m.iter().enumerate() {
            for (j, margin) in row.iter().enumerate() {
                assert_eq!(*margin, -m[j][i].clone());
            }
        }
        if let Some(cycle) = &found.cycle {
            for i in 0..3 {
                let game = play::<Exact>(&totals, &cycle.lists[i], &cycle.lists[(i + 1) % 3]);
                assert_eq!(game.margin(), cycle.margins[i]);
                assert!(cycle.margins[i].is_positive());
            }
        }
    }

    #[test]
    fn fastest_solo_is_the_true_minimum() {
        let totals = Totals::of(2, 6);
        let found = optimise(&totals, 2);
        let lists = all_lists(totals.kinds(), 2);
        let fewest = lists
            .iter()
            .map(|l| solo::expected_rolls::<Exact>(&totals, l))
            .min()
            .unwrap();
        assert_eq!(found.fastest_rolls, fewest);
        assert_eq!(
            found.fastest,
            vec![totals.counts(&[6, 7]), totals.counts(&[7, 8])]
        );
    }

    /// The mix's exact expected margin against `b`.
    fn mix_against(totals: &Totals, mixed: &MixedLists, b: &Counts) -> Exact {
        mixed
            .support
            .iter()
            .zip(&mixed.mix.weights)
            .fold(Exact::zero(), |t, (a, w)| {
                t + w * play::<Exact>(totals, a, b).margin()
            })
    }

    #[test]
    fn without_an_unbeaten_list_the_mix_beats_no_list() {
        // Three two-sided dice, six picks: every one of the 84 lists loses
        // to some other list.
        let totals = Totals::of(3, 2);
        let found = optimise(&totals, 6);
        assert!(found.unbeaten.is_empty());
        let mixed = found.mixed.clone().expect("a mix when no list is unbeaten");
        let weights = &mixed.mix.weights;
        assert!(weights.iter().all(|w| w.is_positive()));
        assert_eq!(weights.iter().sum::<Exact>(), Exact::from_integer(1.into()));
        assert!(mixed.support.len() > 1, "a single list would be unbeaten");
        assert!(mixed.mix.value.is_zero(), "a symmetric game is worth 0");
        // Every list, exactly: the certificate does not rest on floats.
        let worst = all_lists(totals.kinds(), 6)
            .iter()
            .map(|b| mix_against(&totals, &mixed, b))
            .min()
            .unwrap();
        assert_eq!(worst, mixed.mix.worst_margin);
        assert!(!worst.is_negative());
        assert_eq!(Some(mixed), optimise(&totals, 6).mixed, "deterministic");
    }

    #[test]
    fn the_game_among_the_strongest_lists_is_solved_exactly() {
        // Real race margins: the restricted game on the strongest lists.
        let totals = Totals::of(3, 2);
        let found = optimise(&totals, 6);
        let margins = &found.strongest_margins;
        let solution = super::super::simplex::solve_game(margins);
        assert!(solution.value.is_zero());
        for j in 0..margins.len() {
            let earned: Exact = (0..margins.len())
                .map(|i| &solution.rows[i] * &margins[i][j])
                .sum();
            assert!(!earned.is_negative(), "the mix loses to {j}");
        }
        // No single strong list is safe, so the mix uses several.
        assert!(solution.rows.iter().filter(|w| w.is_positive()).count() > 1);
    }
}
