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
//! Rows are computed in `f64` only to steer: which rows to evaluate, which
//! opponent is worth a closer look. Every claim is then proved in exact
//! arithmetic ([`residues`]):
//! - each maximin candidate's worst margin from its whole row, exactly;
//! - every other list is shown below the best by one exact game against an
//!   opponent that beats it by more (its witness, the cheapest game the
//!   floats point at); a witness that failed would send that list to a full
//!   exact row, so a float error could cost time but never a wrong answer;
//! - the fastest solo lists from every list's exact solo time;
//! - the cycle and the margin table of the strongest lists.

#[cfg(test)]
use super::game::play;
use super::game::{self, state_count, TOO_CLOSE};
use super::greedy::{self, Greedy};
use super::lists::{all_lists, mirror_indices, Counts, Totals};
use super::mixed::{self, Margins};
use super::residues;
use crate::engine::{compare, Exact};
use crate::progress::Progress;
use num_traits::{Signed, Zero};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many of the strongest lists the margin table and the cycle look at.
pub(crate) const STRONGEST: usize = 12;

/// A list with its exact worst margin.
#[derive(Debug, Clone, PartialEq)]
pub struct Rated {
    /// The list.
    pub list: Counts,
    /// min over every opponent of P(win) - P(lose), the list itself
    /// included: what the search ranks by (0 exactly when unbeaten).
    pub worst_margin: Exact,
    /// min over every *other* list: how safe the list is. Positive for a
    /// list that beats every other; 0 for an unbeaten list that some other
    /// list (its mirror image, say) holds to an even game.
    pub min_margin: Exact,
    /// The first other list (in list order) that holds it to `min_margin`.
    pub closest_rival: Counts,
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
    /// The greedy list's exact margins.
    pub greedy_rated: Rated,
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
    /// Games played in exact arithmetic to prove the answer.
    pub exact_games: usize,
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

/// Where the search says how far it has got: the spinner's message.
type Report<'a> = &'a dyn Fn(String);

/// Search every list of `picks` totals. Searches that outlast
/// [`crate::progress::DELAY`] show a spinner on `progress`.
pub fn optimise(totals: &Totals, picks: u64, progress: &Progress) -> Optimum {
    let lists = all_lists(totals.kinds(), picks);
    let greedy = greedy::search(totals, picks);
    let mirrors = mirror_indices(&lists);
    // A list and its mirror image take equally long alone.
    let solo_rolls = by_mirror_pairs(&mirrors, |j| residues::solo_rolls(totals, &lists[j]));
    let start = lists
        .iter()
        .position(|l| *l == greedy.list)
        .expect("the greedy list is a list");
    let steer: Vec<f64> = solo_rolls.iter().map(crate::engine::to_f64).collect();
    let (rows, mut proof) = progress.with_spinner("race", |bar| {
        let report = |message: String| bar.set_message(message);
        let rows = bound_and_prune(totals, &lists, &mirrors, &steer, start, &report);
        let proof = certify(totals, &lists, &mirrors, &rows, &report);
        (rows, proof)
    });
    let maximin = proof.maximin(&lists);
    let unbeaten: Vec<Rated> = maximin
        .iter()
        .filter(|r| r.worst_margin.is_zero())
        .cloned()
        .collect();
    proof.worst(totals, &lists, start);
    let greedy_rated = proof.rated(&lists, start);
    let (fastest, fastest_rolls) = fastest_solo(&lists, &solo_rolls);
    let top = strongest(&lists, &rows, &maximin[0].list);
    let strongest_margins = exact_margins(totals, &top);
    let cycle = find_cycle(&top, &strongest_margins);
    let mixed = unbeaten
        .is_empty()
        .then(|| mixed_strategy(totals, &lists, &rows, &proof.full, &maximin));
    let exact_games = proof.games
        + lists.len()
        + top.len() * (top.len() - 1) / 2
        + mixed.as_ref().map_or(0, |(_, played)| *played);
    let mixed = mixed.map(|(mix, _)| mix);
    Optimum {
        lists: lists.len(),
        greedy,
        greedy_rated,
        unbeaten,
        maximin,
        fastest,
        fastest_rolls,
        cycle,
        strongest: top,
        strongest_margins,
        rows_evaluated: rows.len(),
        exact_games,
        mixed,
    }
}

/// The race as a symmetric zero-sum game over `lists`, reusing the float
/// rows the search computed and the exact rows its proof computed.
struct RaceGame<'a> {
    totals: &'a Totals,
    lists: &'a [Counts],
    rows: &'a [Row],
    exact_rows: &'a BTreeMap<usize, Vec<Exact>>,
    /// Exact games played here, not read from `exact_rows`.
    played: AtomicUsize,
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
        if let Some(row) = self.exact_rows.get(&i) {
            return row[j].clone();
        }
        if let Some(row) = self.exact_rows.get(&j) {
            return -row[i].clone();
        }
        self.played.fetch_add(1, Ordering::Relaxed);
        residues::margin(self.totals, &self.lists[i], &self.lists[j])
    }
}

/// The double oracle, started from the maximin lists, with the number of
/// exact games it had to play.
fn mixed_strategy(
    totals: &Totals,
    lists: &[Counts],
    rows: &[Row],
    exact_rows: &BTreeMap<usize, Vec<Exact>>,
    maximin: &[Rated],
) -> (MixedLists, usize) {
    let start: Vec<usize> = maximin
        .iter()
        .map(|r| lists.iter().position(|l| *l == r.list).expect("a list"))
        .collect();
    let game = RaceGame {
        totals,
        lists,
        rows,
        exact_rows,
        played: AtomicUsize::new(0),
    };
    let mix = mixed::double_oracle(&game, &start);
    let lists = MixedLists {
        support: mix.support.iter().map(|&i| lists[i].clone()).collect(),
        mix,
    };
    (lists, game.played.into_inner())
}

/// List `list`'s float margins against every list. Every game is played,
/// even against both lists of a mirror pair: their floats differ in the
/// last bits, and the search's choices follow the floats.
fn float_row(totals: &Totals, lists: &[Counts], list: usize) -> Vec<f64> {
    lists
        .par_iter()
        .map(|b| game::margin::<f64>(totals, &lists[list], b))
        .collect()
}

/// A list's row, `margin(b)` for every list b, on every core. The row of a
/// list that is its own mirror image takes one game per mirror pair:
/// margin(a, mirror b) = margin(mirror a, b) = margin(a, b).
fn row_of<T: Clone + Send + Sync>(
    mirrors: &[usize],
    list: usize,
    margin: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    if mirrors[list] == list {
        by_mirror_pairs(mirrors, margin)
    } else {
        (0..mirrors.len()).into_par_iter().map(&margin).collect()
    }
}

/// `value(j)` for every list j, computed once per mirror pair (for the
/// first of the two) and copied to the other: for figures a list shares
/// with its mirror image.
fn by_mirror_pairs<T: Clone + Send + Sync>(
    mirrors: &[usize],
    value: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let firsts: Vec<Option<T>> = (0..mirrors.len())
        .into_par_iter()
        .map(|j| (j <= mirrors[j]).then(|| value(j)))
        .collect();
    (0..mirrors.len())
        .map(|j| {
            firsts[j.min(mirrors[j])]
                .clone()
                .expect("the first of each pair is computed")
        })
        .collect()
}

/// Evaluate rows, strongest bound first, until no other list can be maximin.
fn bound_and_prune(
    totals: &Totals,
    lists: &[Counts],
    mirrors: &[usize],
    solo_rolls: &[f64],
    start: usize,
    report: Report,
) -> Vec<Row> {
    let mut bound = vec![f64::INFINITY; lists.len()];
    let mut evaluated = vec![false; lists.len()];
    let mut best = f64::NEG_INFINITY;
    let mut rows = Vec::new();
    let mut next = Some(start);
    while let Some(list) = next {
        let margins = match rows.iter().find(|r: &&Row| r.list == mirrors[list]) {
            Some(image) => mirrored(&image.margins, mirrors),
            None => float_row(totals, lists, list),
        };
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
        report(format!(
            "search: {} rows, best worst margin {best:.6}",
            rows.len()
        ));
        next = (0..lists.len())
            .filter(|&j| !evaluated[j] && bound[j] >= best - TOO_CLOSE)
            .max_by(|&x, &y| {
                bound[x]
                    .total_cmp(&bound[y])
                    .then(solo_rolls[y].total_cmp(&solo_rolls[x]))
                    .then(y.cmp(&x))
            });
    }
    rows
}

/// The row of a list's mirror image, from the list's own row:
/// margin(mirror a, b) = margin(a, mirror b).
fn mirrored<T: Clone>(row: &[T], mirrors: &[usize]) -> Vec<T> {
    mirrors.iter().map(|&j| row[j].clone()).collect()
}

/// The exact proof of the search's answer.
struct Certificate {
    /// Each list's mirror image.
    mirrors: Vec<usize>,
    /// Whole rows computed exactly: list -> margin against every list.
    full: BTreeMap<usize, Vec<Exact>>,
    /// The largest exact worst margin among them.
    best: Exact,
    /// Exact games played.
    games: usize,
}

impl Certificate {
    /// The lists with the best worst margin, in list order.
    fn maximin(&self, lists: &[Counts]) -> Vec<Rated> {
        self.full
            .iter()
            .filter(|(_, row)| compare(least(row), &self.best).is_eq())
            .map(|(&i, _)| self.rated(lists, i))
            .collect()
    }

    /// A list whose whole row is known, rated.
    fn rated(&self, lists: &[Counts], list: usize) -> Rated {
        let row = &self.full[&list];
        let (rival, min_margin) = row
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != list)
            .min_by(|(x, a), (y, b)| compare(a, b).then(x.cmp(y)))
            .expect("a race has at least two lists");
        Rated {
            list: lists[list].clone(),
            worst_margin: least(row).clone(),
            min_margin: min_margin.clone(),
            closest_rival: lists[rival].clone(),
        }
    }

    /// A list's exact worst margin, from its whole row (computed if new).
    fn worst(&mut self, totals: &Totals, lists: &[Counts], list: usize) -> Exact {
        if !self.full.contains_key(&list) {
            let row = match self.full.get(&self.mirrors[list]) {
                Some(image) => mirrored(image, &self.mirrors),
                None => {
                    self.games += lists.len();
                    exact_row(totals, lists, &self.mirrors, list)
                }
            };
            self.full.insert(list, row);
        }
        least(&self.full[&list]).clone()
    }

    /// Whether a whole exact row already shows `list` losing by more than
    /// the best: margin(list, a) = -margin(a, list) < best exactly when
    /// margin(a, list) > -best, given as `minus_best`.
    fn already_shown(&self, list: usize, minus_best: &Exact) -> bool {
        self.full
            .values()
            .any(|row| compare(&row[list], minus_best).is_gt())
    }
}

/// A row's least margin (the first of equals, as `min` takes).
fn least(row: &[Exact]) -> &Exact {
    row.iter()
        .min_by(|a, b| compare(a, b))
        .expect("a row has at least its own list")
}

/// Prove the maximin set exactly (see the module doc).
fn certify(
    totals: &Totals,
    lists: &[Counts],
    mirrors: &[usize],
    rows: &[Row],
    report: Report,
) -> Certificate {
    let best_float = rows
        .iter()
        .map(|r| r.worst)
        .fold(f64::NEG_INFINITY, f64::max);
    let mut proof = Certificate {
        mirrors: mirrors.to_vec(),
        full: BTreeMap::new(),
        best: Exact::zero(),
        games: 0,
    };
    let mut pending: Vec<usize> = rows
        .iter()
        .filter(|r| r.worst >= best_float - TOO_CLOSE)
        .map(|r| r.list)
        .collect();
    let mut witnessed = vec![false; lists.len()];
    loop {
        let due: Vec<usize> = std::mem::take(&mut pending);
        for (done, &list) in due.iter().enumerate() {
            report(format!(
                "proof: whole exact row {} of {} ({} games each)",
                done + 1,
                due.len(),
                lists.len()
            ));
            proof.worst(totals, lists, list);
        }
        proof.best = proof
            .full
            .values()
            .map(|row| least(row))
            .max_by(|a, b| compare(a, b))
            .expect("a candidate")
            .clone();
        let minus_best = -&proof.best;
        for (i, shown) in witnessed.iter_mut().enumerate() {
            *shown =
                *shown || (!proof.full.contains_key(&i) && proof.already_shown(i, &minus_best));
        }
        let games: Vec<(usize, Option<usize>)> = (0..lists.len())
            .filter(|&i| !witnessed[i] && !proof.full.contains_key(&i))
            .map(|i| (i, witness(lists, rows, best_float, i)))
            .collect();
        report(format!(
            "proof: {} exact games against witnesses",
            games.len()
        ));
        let margins: Vec<Option<Exact>> = games
            .par_iter()
            .map(|&(i, by)| by.map(|j| residues::margin(totals, &lists[i], &lists[j])))
            .collect();
        proof.games += margins.iter().flatten().count();
        for (&(i, _), margin) in games.iter().zip(&margins) {
            match margin {
                Some(m) if compare(m, &proof.best).is_lt() => witnessed[i] = true,
                // The floats misled (or pointed nowhere): settle it in full.
                _ => pending.push(i),
            }
        }
        if pending.is_empty() {
            return proof;
        }
    }
}

/// The cheapest opponent the floats say beats `list` by more than the best
/// worst margin: from its own row if it has one, else a list whose row it
/// lost to.
fn witness(lists: &[Counts], rows: &[Row], best_float: f64, list: usize) -> Option<usize> {
    let below = best_float - TOO_CLOSE;
    let cheapest = |candidates: Vec<usize>| {
        candidates.into_iter().min_by(|&x, &y| {
            state_count(&lists[list], &lists[x])
                .total_cmp(&state_count(&lists[list], &lists[y]))
                .then(x.cmp(&y))
        })
    };
    match rows.iter().find(|r| r.list == list) {
        Some(row) => cheapest(
            (0..lists.len())
                .filter(|&j| row.margins[j] < below)
                .collect(),
        ),
        None => cheapest(
            rows.iter()
                .filter(|r| -r.margins[list] < below)
                .map(|r| r.list)
                .collect(),
        ),
    }
}

/// A list's margin against every list, exactly.
fn exact_row(totals: &Totals, lists: &[Counts], mirrors: &[usize], list: usize) -> Vec<Exact> {
    row_of(mirrors, list, |b| {
        residues::margin(totals, &lists[list], &lists[b])
    })
}

/// The lists with the fewest expected solo rolls.
fn fastest_solo(lists: &[Counts], solo_rolls: &[Exact]) -> (Vec<Counts>, Exact) {
    let fewest = solo_rolls
        .iter()
        .min_by(|a, b| compare(a, b))
        .expect("some list")
        .clone();
    let fastest = lists
        .iter()
        .zip(solo_rolls)
        .filter(|(_, e)| compare(e, &fewest).is_eq())
        .map(|(l, _)| l.clone())
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
pub(crate) fn exact_margins(totals: &Totals, lists: &[Counts]) -> Vec<Vec<Exact>> {
    let n = lists.len();
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let upper: Vec<Exact> = pairs
        .par_iter()
        .map(|&(i, j)| residues::margin(totals, &lists[i], &lists[j]))
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
            let found = optimise(&totals, picks, &Progress::hidden());
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
    fn margins_are_over_every_other_list_with_the_rival_that_holds_them() {
        // Brute force: every pair exactly, the list itself left out.
        for (count, sides, picks) in [(2, 6, 1), (2, 6, 2), (1, 4, 2), (2, 4, 3), (3, 2, 6)] {
            let totals = Totals::of(count, sides);
            let lists = all_lists(totals.kinds(), picks);
            let found = optimise(&totals, picks, &Progress::hidden());
            let greedy = Rated {
                list: found.greedy.list.clone(),
                ..found.greedy_rated.clone()
            };
            for rated in found.maximin.iter().chain([&greedy]) {
                let others: Vec<(Exact, &Counts)> = lists
                    .iter()
                    .filter(|b| **b != rated.list)
                    .map(|b| (play::<Exact>(&totals, &rated.list, b).margin(), b))
                    .collect();
                let least = others.iter().map(|(m, _)| m).min().unwrap();
                let first = others.iter().find(|(m, _)| m == least).unwrap().1;
                let case = format!("{count}d{sides} M={picks} {:?}", rated.list);
                assert_eq!(&rated.min_margin, least, "{case}");
                assert_eq!(&rated.closest_rival, first, "{case}");
                assert_eq!(
                    rated.worst_margin,
                    least.clone().min(Exact::zero()),
                    "{case}: itself adds an even game"
                );
            }
        }
        // One pick of 2d6: 7 beats every other total, most narrowly 6 (the
        // first of 6 and 8): P(7 first) - P(6 first) = (6 - 5) / (6 + 5).
        let totals = Totals::of(2, 6);
        let one = optimise(&totals, 1, &Progress::hidden());
        assert_eq!(one.maximin.len(), 1);
        assert_eq!(one.maximin[0].list, totals.counts(&[7]));
        assert_eq!(one.maximin[0].min_margin, Exact::new(1.into(), 11.into()));
        assert_eq!(one.maximin[0].closest_rival, totals.counts(&[6]));
        // Two picks: the unbeaten [6, 7] and [7, 8] are mirror images, an
        // even game, so each is the other's closest rival at margin 0.
        let two = optimise(&totals, 2, &Progress::hidden());
        let unbeaten: Vec<(&Counts, &Exact, &Counts)> = two
            .unbeaten
            .iter()
            .map(|r| (&r.list, &r.min_margin, &r.closest_rival))
            .collect();
        let (a, b) = (totals.counts(&[6, 7]), totals.counts(&[7, 8]));
        assert_eq!(
            unbeaten,
            vec![(&a, &Exact::zero(), &b), (&b, &Exact::zero(), &a)]
        );
    }

    #[test]
    fn exact_rows_and_solo_times_by_mirror_pairs_match_every_game_played() {
        let totals = Totals::of(2, 6);
        let lists = all_lists(totals.kinds(), 3);
        let mirrors = mirror_indices(&lists);
        let symmetric: Vec<usize> = (0..lists.len()).filter(|&i| mirrors[i] == i).collect();
        assert!(symmetric.len() > 3, "{symmetric:?}");
        for &list in symmetric.iter().step_by(3).chain([&5]) {
            let every: Vec<Exact> = lists
                .iter()
                .map(|b| play::<Exact>(&totals, &lists[list], b).margin())
                .collect();
            assert_eq!(exact_row(&totals, &lists, &mirrors, list), every);
        }
        let solo = by_mirror_pairs(&mirrors, |j| residues::solo_rolls(&totals, &lists[j]));
        for (list, rolls) in lists.iter().zip(&solo) {
            assert_eq!(*rolls, play::<Exact>(&totals, list, list).expected_rolls);
        }
    }

    #[test]
    fn a_mirror_images_row_is_a_permutation_of_the_row() {
        let totals = Totals::of(2, 6);
        let lists = all_lists(totals.kinds(), 3);
        let mirrors = mirror_indices(&lists);
        for list in [0, 17, 100, 285] {
            let computed = exact_row(&totals, &lists, &mirrors, mirrors[list]);
            assert_eq!(
                computed,
                mirrored(&exact_row(&totals, &lists, &mirrors, list), &mirrors)
            );
            assert_eq!(mirrors[mirrors[list]], list);
        }
    }

    #[test]
    fn floats_that_lie_cost_time_not_correctness() {
        // One evaluated row whose floats claim the weakest list beats
        // everyone: every witness it offers fails in exact arithmetic, and
        // the proof must still end at the true maximin lists.
        let totals = Totals::of(2, 6);
        let lists = all_lists(totals.kinds(), 2);
        let liar = Row {
            list: 0,
            margins: vec![0.9; lists.len()],
            worst: 0.9,
        };
        let mut proof = certify(&totals, &lists, &mirror_indices(&lists), &[liar], &|_| {});
        let worst = brute_force_worst(&totals, 2);
        let best = worst.iter().max().unwrap();
        let truth: Vec<Counts> = (0..lists.len())
            .filter(|&i| worst[i] == *best)
            .map(|i| lists[i].clone())
            .collect();
        let found: Vec<Counts> = proof.maximin(&lists).into_iter().map(|r| r.list).collect();
        assert_eq!(found, truth);
        assert_eq!(proof.best, *best);
        assert_eq!(proof.worst(&totals, &lists, 0), worst[0]);
    }

    #[test]
    fn cycles_are_real_and_the_margin_table_is_antisymmetric() {
        let totals = Totals::of(2, 6);
        let found = optimise(&totals, 3, &Progress::hidden());
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
        let found = optimise(&totals, 2, &Progress::hidden());
        let lists = all_lists(totals.kinds(), 2);
        let fewest = lists
            .iter()
            .map(|l| play::<Exact>(&totals, l, l).expected_rolls)
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
        let found = optimise(&totals, 6, &Progress::hidden());
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
        assert_eq!(
            Some(mixed),
            optimise(&totals, 6, &Progress::hidden()).mixed,
            "deterministic"
        );
    }

    #[test]
    fn the_game_among_the_strongest_lists_is_solved_exactly() {
        // Real race margins: the restricted game on the strongest lists.
        let totals = Totals::of(3, 2);
        let found = optimise(&totals, 6, &Progress::hidden());
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
