//! Outcomes weighed together, and dice picked by their place in a sorted
//! roll: the two building blocks a language with functions over rolled
//! values (AnyDice) needs beyond the pool operators.

use super::outcomes::Outcomes;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// The mixture of `parts`: part `i` chosen with weight `w_i` (out of the
/// weights' sum), then rolled. Counts are scaled by the least common
/// multiple of the parts' totals and reduced to lowest terms, so the
/// result is the exact mixture with the smallest integers. `None` for no
/// parts (or only zero weights).
pub fn mix(parts: &[(BigUint, &Outcomes)]) -> Option<Outcomes> {
    let parts: Vec<(&BigUint, &Outcomes, BigUint)> = parts
        .iter()
        .filter(|(w, _)| !w.is_zero())
        .map(|(w, o)| (w, *o, o.total()))
        .collect();
    let lcm = parts
        .iter()
        .fold(BigUint::one(), |l, (_, _, total)| l.lcm(total));
    let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
    for (weight, outcomes, total) in parts {
        let scale = weight * (&lcm / total);
        for (value, ways) in outcomes.iter().filter(|(_, w)| !w.is_zero()) {
            *counts.entry(value).or_default() += ways * &scale;
        }
    }
    Outcomes::from_map(counts).map(|o| o.reduced())
}

impl Outcomes {
    /// The same probabilities with the counts divided by their greatest
    /// common divisor.
    pub fn reduced(&self) -> Outcomes {
        let mut gcd = BigUint::zero();
        for (_, w) in self.iter() {
            gcd = gcd.gcd(w);
            // Most mixtures are coprime a few counts in: no need to read on.
            if gcd.is_one() {
                return self.clone();
            }
        }
        if gcd.is_zero() {
            return self.clone();
        }
        Outcomes::from_map(self.iter().map(|(v, w)| (v, w / &gcd)).collect())
            .expect("a distribution has a value")
    }
}

/// The sum of the dice at the picked places of `count` rolls of `die`,
/// sorted from the highest (or the lowest): `picks[i]` is how many times
/// place `i + 1` counts (AnyDice's `{1, 1, 3}@5d6`). Places past the
/// dice count nothing.
///
/// A dynamic program over the faces in sorted order, carrying the dice
/// placed so far and the sum of the picked ones; once every picked place
/// is filled, the remaining dice are counted at once. The work grows with
/// faces × places × dice × sums, never with the `faces^count` rolls.
pub fn picked(die: &Outcomes, count: u64, picks: &[u64], highest_first: bool) -> Outcomes {
    let places = picks.iter().rposition(|&m| m > 0).map_or(0, |p| p + 1) as u64;
    let mut faces: Vec<(i64, &BigUint)> = die.iter().filter(|(_, w)| !w.is_zero()).collect();
    if highest_first {
        faces.reverse();
    }
    // The ways of the faces after each one, for the dice left over.
    let mut after = vec![BigUint::zero(); faces.len() + 1];
    for i in (0..faces.len()).rev() {
        after[i] = &after[i + 1] + faces[i].1;
    }
    // `open[c]`: sums of the picked dice over c dice placed (c < places).
    let mut open: Vec<BTreeMap<i64, BigUint>> =
        vec![BTreeMap::new(); places.min(count) as usize + 1];
    open[0].insert(0, BigUint::one());
    let mut done: BTreeMap<i64, BigUint> = BTreeMap::new();
    if places == 0 || count == 0 {
        return Outcomes::from_map(BTreeMap::from([(0, die.total().pow(count as u32))]))
            .expect("one value");
    }
    let pick = |c: u64, k: u64| -> i64 {
        (c..(c + k).min(places))
            .map(|p| picks[p as usize] as i64)
            .sum()
    };
    for (i, &(value, ways)) in faces.iter().enumerate() {
        let mut next: Vec<BTreeMap<i64, BigUint>> = vec![BTreeMap::new(); open.len()];
        for (c, sums) in open.iter().enumerate() {
            let c = c as u64;
            let left = count - c;
            let (mut choose, mut power) = (BigUint::one(), BigUint::one());
            for k in 0..=left {
                let factor = &choose * &power;
                let placed = c + k;
                let added = value * pick(c, k);
                if placed >= places.min(count) {
                    // Filled: the remaining dice fall on the later faces.
                    let rest = after[i + 1].pow((count - placed) as u32);
                    if !rest.is_zero() || placed == count {
                        let scale = &factor * &rest;
                        for (sum, w) in sums {
                            *done.entry(sum + added).or_default() += w * &scale;
                        }
                    }
                } else {
                    for (sum, w) in sums {
                        *next[placed as usize].entry(sum + added).or_default() += w * &factor;
                    }
                }
                power *= ways;
                choose = choose * (left - k) / (k + 1);
            }
        }
        open = next;
    }
    Outcomes::from_map(done).expect("some roll fills the places")
}

/// Every sorted roll of `count` dice with its ways, in the order AnyDice
/// walks them: lowest first, each roll listed from its lowest die and the
/// rolls in ascending order (`[1, 1]`, `[1, 2]`, `[2, 2]`); highest first,
/// each listed from its highest die and the rolls in descending order
/// (`[2, 2]`, `[2, 1]`, `[1, 1]`). `None` when there would be more than
/// `limit` of them (or the die has too many faces to list). Each roll is
/// made as `R` (a `Vec`, or a shared slice) straight from the walk.
pub fn sorted_roll_list<R: for<'a> From<&'a [i64]>>(
    die: &Outcomes,
    count: u64,
    limit: f64,
    highest_first: bool,
) -> Option<Vec<(R, BigUint)>> {
    let mut faces: Vec<(i64, &BigUint)> = die.iter().filter(|(_, w)| !w.is_zero()).collect();
    if faces.is_empty()
        || faces.len() > super::pool::MAX_SORTED_FACES
        || sorted_roll_count(count, faces.len()) > limit
    {
        return None;
    }
    if highest_first {
        faces.reverse();
    }
    let mut out = Vec::new();
    super::pool::rolls_of(&faces, count, &mut |roll, ways| {
        out.push((R::from(roll), ways.clone()))
    });
    // They come in descending order of their faces' places (the first
    // face listed counts least): reversed, ascending.
    out.reverse();
    Some(out)
}

/// C(count + faces - 1, count), the sorted rolls of `count` dice of
/// `faces` values, in floating point (a price, saturating).
pub fn sorted_roll_count(count: u64, faces: usize) -> f64 {
    let (n, k) = (count as f64, faces as f64);
    (1..faces)
        .fold(1.0, |c, i| c * (n + i as f64) / i as f64)
        .min(f64::MAX)
        .max(if k == 0.0 { 0.0 } else { 1.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every roll of `count` dice, listed, sorted, picked.
    fn brute(faces: &[i64], count: u32, picks: &[u64], highest_first: bool) -> Outcomes {
        let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
        let n = faces.len().pow(count);
        for mut index in 0..n {
            let mut roll: Vec<i64> = (0..count)
                .map(|_| {
                    let f = faces[index % faces.len()];
                    index /= faces.len();
                    f
                })
                .collect();
            roll.sort_unstable();
            if highest_first {
                roll.reverse();
            }
            let sum = picks
                .iter()
                .enumerate()
                .filter_map(|(p, &m)| roll.get(p).map(|v| v * m as i64))
                .sum();
            *counts.entry(sum).or_default() += 1u32;
        }
        Outcomes::from_map(counts).unwrap()
    }

    #[test]
    fn picked_places_match_listing_every_roll() {
        let dice: [&[i64]; 3] = [&[1, 2, 3, 4, 5, 6], &[-1, 0, 0, 2], &[3, 3, 7]];
        let pickings: [&[u64]; 6] = [
            &[1],
            &[0, 1],
            &[1, 1, 0, 1],
            &[2, 0, 1],
            &[0, 0, 0, 0, 1],
            &[1, 1, 1],
        ];
        for faces in dice {
            let die = Outcomes::die(faces).unwrap();
            for count in 1..=4 {
                for picks in pickings {
                    for highest in [true, false] {
                        assert_eq!(
                            picked(&die, count, picks, highest),
                            brute(faces, count as u32, picks, highest),
                            "{faces:?} x{count} {picks:?} {highest}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_mixture_weighs_each_part_by_its_probability() {
        // d2 with weight 1 and d4 with weight 3 (out of 4): P(1) = 1/8 + 3/16.
        let d2 = Outcomes::standard(2).unwrap();
        let d4 = Outcomes::standard(4).unwrap();
        let mixed = mix(&[(BigUint::from(1u32), &d2), (BigUint::from(3u32), &d4)]).unwrap();
        let ways: Vec<u32> = mixed.iter().map(|(_, w)| w.try_into().unwrap()).collect();
        assert_eq!(ways, vec![5, 5, 3, 3]);
        assert!(mix(&[]).is_none());
    }
}
