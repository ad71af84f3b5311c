//! The totals a race is played on and the players' lists over them.
//!
//! A list is kept as copies per total (`counts[i]` copies of total
//! `min + i`): the game only ever asks how many of a total are left, and two
//! lists that differ only in order are the same list.

use crate::engine::Dist;

/// Copies of each total in a list, indexed by `total - min`.
pub type Counts = Vec<u8>;

/// The totals of a pool of dice with their ways as machine words.
///
/// Validation keeps the number of outcomes within 2^53, so every weight is
/// exact both as a `u64` and as an `f64`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    /// The smallest total (the number of dice).
    pub min: u64,
    /// Ways to roll each total, lowest first.
    pub ways: Vec<u64>,
    /// All outcomes of one roll, k^N.
    pub outcomes: u64,
}

impl Totals {
    /// The totals of `count` dice with `sides` faces each.
    ///
    /// Panics if the pool has more than 2^64 outcomes; `Params::validate`
    /// refuses those first.
    pub fn of(count: u64, sides: u64) -> Totals {
        let dist = Dist::dice(count, sides).expect("validated dice pool");
        let ways: Vec<u64> = dist
            .iter()
            .map(|(_, w)| u64::try_from(w).expect("validated: ways fit a machine word"))
            .collect();
        Totals {
            min: dist.min_total(),
            outcomes: ways.iter().sum(),
            ways,
        }
    }

    /// How many different totals there are.
    pub fn kinds(&self) -> usize {
        self.ways.len()
    }

    /// The total at an index.
    pub fn total(&self, index: usize) -> u64 {
        self.min + index as u64
    }

    /// The index of a total, if the dice can show it.
    pub fn index(&self, total: u64) -> Option<usize> {
        total
            .checked_sub(self.min)
            .map(|i| i as usize)
            .filter(|&i| i < self.kinds())
    }

    /// Indices from the most probable total to the least, ties to the
    /// smaller total: the order the seed's greedy search starts from.
    pub(crate) fn by_probability(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.kinds()).collect();
        order.sort_by(|&x, &y| self.ways[y].cmp(&self.ways[x]).then(x.cmp(&y)));
        order
    }

    /// A list written as totals, as counts.
    pub fn counts(&self, sums: &[u64]) -> Counts {
        let mut counts = vec![0u8; self.kinds()];
        for &sum in sums {
            counts[self.index(sum).expect("validated total")] += 1;
        }
        counts
    }

    /// A list as its totals, ascending.
    pub fn sums(&self, counts: &[u8]) -> Vec<u64> {
        counts
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| std::iter::repeat_n(self.total(i), n as usize))
            .collect()
    }
}

/// The list with every total t replaced by its mirror N(k+1) - t; the dice
/// are symmetric, so mirroring both players changes nothing.
pub fn mirror(counts: &[u8]) -> Counts {
    counts.iter().rev().copied().collect()
}

/// For each list, the index of its mirror image in `lists` (which must hold
/// every list of its size). Margins are the same when both lists are
/// mirrored, so a row of the margin table gives its mirror's row for free.
pub(crate) fn mirror_indices(lists: &[Counts]) -> Vec<usize> {
    let index: std::collections::HashMap<&Counts, usize> =
        lists.iter().enumerate().map(|(i, l)| (l, i)).collect();
    lists.iter().map(|l| index[&mirror(l)]).collect()
}

/// How many lists of `picks` totals exist: multisets, C(len + picks - 1, picks).
pub fn list_count(len: usize, picks: u64) -> f64 {
    (1..=picks).fold(1.0, |acc, i| acc * (len as f64 - 1.0 + i as f64) / i as f64)
}

/// Every list of `picks` totals, in lexicographic order of its ascending
/// totals (so results never depend on thread scheduling).
pub fn all_lists(len: usize, picks: u64) -> Vec<Counts> {
    fn extend(from: usize, left: u8, counts: &mut Counts, out: &mut Vec<Counts>) {
        if left == 0 {
            out.push(counts.clone());
            return;
        }
        for i in from..counts.len() {
            counts[i] += 1;
            extend(i, left - 1, counts, out);
            counts[i] -= 1;
        }
    }
    let mut out = Vec::new();
    let picks = u8::try_from(picks).expect("validated pick count");
    extend(0, picks, &mut vec![0; len], &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_d6_totals_and_order() {
        let totals = Totals::of(2, 6);
        assert_eq!(totals.min, 2);
        assert_eq!(totals.ways, [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
        assert_eq!(totals.outcomes, 36);
        let order: Vec<u64> = totals
            .by_probability()
            .iter()
            .map(|&i| totals.total(i))
            .collect();
        assert_eq!(order, [7, 6, 8, 5, 9, 4, 10, 3, 11, 2, 12]);
    }

    #[test]
    fn counts_round_trip_and_mirror() {
        let totals = Totals::of(2, 6);
        let counts = totals.counts(&[7, 5, 6, 7, 12]);
        assert_eq!(totals.sums(&counts), [5, 6, 7, 7, 12]);
        assert_eq!(totals.sums(&mirror(&counts)), [2, 7, 7, 8, 9]);
    }

    #[test]
    fn enumeration_matches_the_multiset_count() {
        for (len, picks) in [(11, 5), (11, 1), (4, 2), (16, 3)] {
            let lists = all_lists(len, picks);
            assert_eq!(lists.len() as f64, list_count(len, picks).round());
            assert!(lists.windows(2).all(|w| w[0] > w[1]), "lexicographic");
            assert!(lists
                .iter()
                .all(|l| l.iter().map(|&n| n as u64).sum::<u64>() == picks));
        }
        assert_eq!(list_count(11, 8).round(), 43758.0);
        assert_eq!(list_count(16, 5).round(), 15504.0);
    }
}
