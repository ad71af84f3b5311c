//! Counting ways in machine words when the answer is known to fit.
//!
//! A dynamic program over dice adds and multiplies counts of ways whose
//! final values are bounded in advance (no count exceeds the total number
//! of outcomes). When that bound is below `2^128 * P` (`P = 2^61 - 1`, a
//! prime), the counts are kept as residues modulo `2^128` (wrapping `u128`)
//! and modulo `P`, and each final count is rebuilt exactly by the Chinese
//! remainder theorem. Past the bound the same program runs in [`Wrapping`]
//! words (natively; see [`run_exact`]), or on `BigUint` where a caller
//! asks. Either way the result is exact; only the speed differs.

#[cfg(test)]
use super::work;
use super::work::tally;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

/// A count of ways a dynamic program can add, subtract and multiply.
pub(crate) trait Ways: Clone {
    fn zero_ways() -> Self;
    fn of(big: &BigUint) -> Self;
    fn of_u64(small: u64) -> Self;
    fn add_product(&mut self, a: &Self, b: &Self);
    fn add(&mut self, other: &Self);
    fn sub(&mut self, other: &Self);
    fn times(&self, other: &Self) -> Self;
    fn no_ways(&self) -> bool;
    fn big(&self) -> BigUint;
    /// The count as one machine word, where it is one and a product by a
    /// word is cheaper than by a count ([`Ways::add_product_word`]).
    fn word(&self) -> Option<u64> {
        None
    }
    /// `self += a * word`.
    fn add_product_word(&mut self, a: &Self, word: u64) {
        self.add_product(a, &Self::of_u64(word));
    }
}

impl Ways for BigUint {
    fn zero_ways() -> Self {
        Zero::zero()
    }
    fn of(big: &BigUint) -> Self {
        big.clone()
    }
    fn of_u64(small: u64) -> Self {
        BigUint::from(small)
    }
    fn add_product(&mut self, a: &Self, b: &Self) {
        tally!(work::words(a) + work::words(b));
        if !a.is_zero() && !b.is_zero() {
            *self += a * b;
        }
    }
    fn add(&mut self, other: &Self) {
        *self += other;
    }
    fn sub(&mut self, other: &Self) {
        *self -= other;
    }
    fn times(&self, other: &Self) -> Self {
        self * other
    }
    fn no_ways(&self) -> bool {
        Zero::is_zero(self)
    }
    fn big(&self) -> BigUint {
        self.clone()
    }
}

/// The Mersenne prime `2^61 - 1`.
const P: u64 = (1 << 61) - 1;

/// A count modulo `2^128` and modulo [`P`]: exact for counts below
/// `2^128 * P`, which [`fits`] checks before a program uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Residue {
    low: u128,
    prime: u64,
}

/// `x mod P` for `x < 2^123` (a product of two residues plus a third).
fn reduce(x: u128) -> u64 {
    let p = u128::from(P);
    let r = (x & p) + (x >> 61);
    let r = (r & p) + (r >> 61);
    let r = r as u64;
    if r >= P {
        r - P
    } else {
        r
    }
}

/// `(a + b) mod P` for `a, b <= P`, in one word.
fn add_mod(a: u64, b: u64) -> u64 {
    let sum = a + b;
    if sum >= P {
        sum - P
    } else {
        sum
    }
}

impl Ways for Residue {
    fn zero_ways() -> Self {
        Residue { low: 0, prime: 0 }
    }
    fn of(big: &BigUint) -> Self {
        let digits = big.to_u64_digits();
        let low = u128::from(digits.first().copied().unwrap_or(0))
            | (u128::from(digits.get(1).copied().unwrap_or(0)) << 64);
        let prime = (big % P).to_u64().unwrap_or(0);
        Residue { low, prime }
    }
    fn of_u64(small: u64) -> Self {
        Residue {
            low: u128::from(small),
            prime: small % P,
        }
    }
    fn add_product(&mut self, a: &Self, b: &Self) {
        tally!(RESIDUE_OPS);
        self.low = self.low.wrapping_add(a.low.wrapping_mul(b.low));
        // One reduction of the sum: below 2^122 + 2^61.
        self.prime = reduce(u128::from(self.prime) + u128::from(a.prime) * u128::from(b.prime));
    }
    fn add(&mut self, other: &Self) {
        self.low = self.low.wrapping_add(other.low);
        self.prime = add_mod(self.prime, other.prime);
    }
    fn sub(&mut self, other: &Self) {
        self.low = self.low.wrapping_sub(other.low);
        self.prime = add_mod(self.prime, P - other.prime);
    }
    fn times(&self, other: &Self) -> Self {
        Residue {
            low: self.low.wrapping_mul(other.low),
            prime: reduce(u128::from(self.prime) * u128::from(other.prime)),
        }
    }
    fn no_ways(&self) -> bool {
        self.low == 0 && self.prime == 0
    }
    /// The count in `[0, 2^128 * P)` with these residues: `low + 2^128 t`
    /// where `t = (prime - low) / 2^128 mod P`, and `1 / 2^128 = 2^55`
    /// modulo `P` (as `2^61 = 1`, `2^128 = 2^6`).
    fn big(&self) -> BigUint {
        let low_mod = (self.low % u128::from(P)) as u64;
        let difference = reduce(u128::from(self.prime) + u128::from(P - low_mod));
        let t = reduce(u128::from(difference) * (1u128 << 55));
        (BigUint::from(t) << 128u32) + BigUint::from(self.low)
    }
}

/// Whether counts up to `bound` are exact as [`Residue`]s.
pub(crate) fn fits(bound: &BigUint) -> bool {
    bound.bits() <= 188
}

/// A count modulo `2^(64 K)` in `K` words, wrapping: exact for counts
/// below that, as [`Residue`] is below `2^188`, with no reduction and no
/// allocation, so a program past `2^188` outcomes keeps its speed (a
/// product costs [`wrapping_ops`] word operations, not a `BigUint`'s
/// allocation). Native only: the browser's engine stays at its size.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wrapping<const K: usize>([u64; K]);

/// Word operations of one product added in `k` words: the truncated
/// schoolbook product, `k (k + 1) / 2` multiplications, and the carries.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn wrapping_ops(k: usize) -> f64 {
    (k * (k + 1) / 2 + k) as f64
}

#[cfg(not(target_arch = "wasm32"))]
impl<const K: usize> Wrapping<K> {
    /// `self + words + carry`, wrapping.
    fn add_words(&mut self, words: &[u64; K], carry: u64) {
        let mut carry = u128::from(carry);
        for (word, &y) in self.0.iter_mut().zip(words) {
            let t = u128::from(*word) + u128::from(y) + carry;
            *word = t as u64;
            carry = t >> 64;
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl<const K: usize> Ways for Wrapping<K> {
    fn zero_ways() -> Self {
        Wrapping([0; K])
    }
    fn of(big: &BigUint) -> Self {
        let mut words = [0; K];
        for (word, digit) in words.iter_mut().zip(big.iter_u64_digits()) {
            *word = digit;
        }
        Wrapping(words)
    }
    fn of_u64(small: u64) -> Self {
        let mut words = [0; K];
        words[0] = small;
        Wrapping(words)
    }
    fn add_product(&mut self, a: &Self, b: &Self) {
        tally!(wrapping_ops(K));
        // Row i of the product lands at word i; what passes word K wraps.
        for (i, &x) in a.0.iter().enumerate() {
            if x == 0 {
                continue;
            }
            let mut carry = 0u128;
            for (word, &y) in self.0[i..].iter_mut().zip(&b.0) {
                let t = u128::from(*word) + u128::from(x) * u128::from(y) + carry;
                *word = t as u64;
                carry = t >> 64;
            }
        }
    }
    fn add(&mut self, other: &Self) {
        self.add_words(&other.0, 0);
    }
    /// Adds the two's complement, `!other + 1`.
    fn sub(&mut self, other: &Self) {
        self.add_words(&other.0.map(|word| !word), 1);
    }
    fn times(&self, other: &Self) -> Self {
        let mut product = Self::zero_ways();
        product.add_product(self, other);
        product
    }
    fn no_ways(&self) -> bool {
        self.0.iter().all(|&word| word == 0)
    }
    fn word(&self) -> Option<u64> {
        self.0[1..].iter().all(|&w| w == 0).then_some(self.0[0])
    }
    /// One row of the product: `K` word products, not `K (K + 1) / 2`.
    fn add_product_word(&mut self, a: &Self, word: u64) {
        tally!(2.0 * K as f64);
        let mut carry = 0u128;
        for (sum, &x) in self.0.iter_mut().zip(&a.0) {
            let t = u128::from(*sum) + u128::from(x) * u128::from(word) + carry;
            *sum = t as u64;
            carry = t >> 64;
        }
    }
    fn big(&self) -> BigUint {
        let digits = self.0.iter().flat_map(|&w| [w as u32, (w >> 32) as u32]);
        BigUint::new(digits.collect())
    }
}

/// A dynamic program written once over its counts, [`run_exact`] picks
/// their kind.
pub(crate) trait Program {
    type Output;
    fn run<W: Ways>(self) -> Self::Output;
}

/// Calls `$then!` with the widths [`Wrapping`] is built in, in words:
/// each about half again the last, so a program pays at most about twice
/// the word products it needs.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! widths {
    ($then:ident $($before:tt)*) => {
        $then!($($before)* 4 6 9 14 21 32 48 64)
    };
}

/// Calls `$then!` with the widths [`Wrapping`] takes below [`Residue`]'s:
/// one or two words multiply in fewer operations than its two residues.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! narrow {
    ($then:ident $($before:tt)*) => {
        $then!($($before)* 1 2)
    };
}

/// Returns `program` run in the first of the widths that holds `bits`.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! narrowest {
    ($bits:ident $program:ident $($k:literal)*) => {
        $(if $bits <= 64 * $k {
            return Some($program.run::<Wrapping<$k>>());
        })*
    };
}

/// The widths as an array.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! array {
    ($($k:literal)*) => {
        [$($k),*]
    };
}

/// See [`widths`].
#[cfg(not(target_arch = "wasm32"))]
const WIDTHS: [usize; 8] = widths!(array);

/// See [`narrow`].
#[cfg(not(target_arch = "wasm32"))]
const NARROW: [usize; 2] = narrow!(array);

/// What one count costs [`run_exact`] for counts up to `2^bits`: word
/// operations a product added, and bytes a count kept; `None` past what it
/// runs (the callers' slow methods). The same choice, for the prices.
pub(crate) fn counts_for(bits: f64) -> Option<Counts> {
    // Hairs under each edge, so rounding never prices a width the engine
    // does not take.
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(&k) = NARROW.iter().find(|&&k| bits < (64 * k) as f64 - 0.01) {
        return Some(Counts {
            ops: wrapping_ops(k),
            bytes: 8 * k,
        });
    }
    if bits < 187.99 {
        return Some(Counts {
            ops: RESIDUE_OPS,
            bytes: std::mem::size_of::<Residue>(),
        });
    }
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(&k) = WIDTHS.iter().find(|&&k| bits < (64 * k) as f64 - 0.01) {
        return Some(Counts {
            ops: wrapping_ops(k),
            bytes: 8 * k,
        });
    }
    None
}

/// See [`counts_for`].
pub(crate) struct Counts {
    pub(crate) ops: f64,
    pub(crate) bytes: usize,
}

/// The most bytes of counts a program's table of states may take (64
/// MB): `30d6!kh10` takes 42 MB in six words a count.
pub(crate) const PROGRAM_BYTES: usize = 1 << 26;

/// Word operations of one product added in [`Residue`]s, two residues (a
/// 128-bit product and one modulo 2^61 - 1), on the safe side.
pub(crate) const RESIDUE_OPS: f64 = 8.0;

/// `program` on counts exact up to `bound`: natively, one or two words
/// ([`Wrapping`]) while they fit, then [`Residue`]s, then the narrowest
/// wider [`Wrapping`] that holds them; `None` past the widest, or past
/// `2^188` in the browser (where residues are all there is).
pub(crate) fn run_exact<P: Program>(bound: &BigUint, program: P) -> Option<P::Output> {
    #[cfg(not(target_arch = "wasm32"))]
    let bits = bound.bits();
    #[cfg(not(target_arch = "wasm32"))]
    narrow!(narrowest bits program);
    if fits(bound) {
        return Some(program.run::<Residue>());
    }
    #[cfg(not(target_arch = "wasm32"))]
    widths!(narrowest bits program);
    None
}

/// The convolution of two tables of counts (the sum of two independent
/// rolls), every product added in machine words: counts no larger than
/// `bound` (the product of the tables' totals) fit, so each product costs
/// a few word operations rather than a `BigUint`'s allocation. `None` past
/// what [`run_exact`] holds.
pub(crate) fn convolve(a: &[BigUint], b: &[BigUint], bound: &BigUint) -> Option<Vec<BigUint>> {
    run_exact(bound, Convolution(a, b))
}

struct Convolution<'a>(&'a [BigUint], &'a [BigUint]);

impl Program for Convolution<'_> {
    type Output = Vec<BigUint>;
    fn run<W: Ways>(self) -> Vec<BigUint> {
        // The side of words goes inside, where its products are rows.
        let words = |t: &[BigUint]| t.iter().all(|c| c.bits() <= 64);
        if !words(self.1) && words(self.0) {
            return Convolution(self.1, self.0).run::<W>();
        }
        let b: Vec<W> = self.1.iter().map(W::of).collect();
        let mut sums = vec![W::zero_ways(); self.0.len() + b.len() - 1];
        // A die times a number (`2d6 * 5`) has a count at every fifth
        // value: its zeros are skipped on both sides.
        let sparse: Vec<(usize, &W)> = b.iter().enumerate().filter(|(_, y)| !y.no_ways()).collect();
        let dense = sparse.len() * 2 > b.len();
        // Wide counts against a side whose counts are words (a pool's
        // sums against a few dice): each product is one row of words.
        let words: Option<Vec<u64>> = b.iter().map(W::word).collect();
        for (i, x) in self.0.iter().enumerate() {
            if x.is_zero() {
                continue;
            }
            let x = W::of(x);
            match (&words, dense) {
                (Some(words), true) => {
                    for (sum, &y) in sums[i..].iter_mut().zip(words) {
                        sum.add_product_word(&x, y);
                    }
                }
                (Some(words), false) => {
                    for &(j, _) in &sparse {
                        sums[i + j].add_product_word(&x, words[j]);
                    }
                }
                (None, true) => {
                    for (sum, y) in sums[i..].iter_mut().zip(&b) {
                        sum.add_product(&x, y);
                    }
                }
                (None, false) => {
                    for &(j, y) in &sparse {
                        sums[i + j].add_product(&x, y);
                    }
                }
            }
        }
        sums.iter().map(W::big).collect()
    }
}

/// `C(n, k)` for every `n <= most`, as rows of counts.
pub(crate) fn binomials<W: Ways>(most: usize) -> Vec<Vec<W>> {
    let mut rows: Vec<Vec<W>> = Vec::with_capacity(most + 1);
    let mut row = vec![BigUint::one()];
    for n in 0..=most {
        rows.push(row.iter().map(W::of).collect());
        let mut next = Vec::with_capacity(n + 2);
        next.push(BigUint::one());
        for k in 1..=n {
            next.push(&row[k - 1] + &row[k]);
        }
        next.push(BigUint::one());
        row = next;
    }
    rows
}

/// `x^0..=x^n`.
pub(crate) fn powers<W: Ways>(x: &W, n: usize) -> Vec<W> {
    let mut row = Vec::with_capacity(n + 1);
    row.push(W::of_u64(1));
    for i in 0..n {
        let next = row[i].times(x);
        row.push(next);
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn residues_rebuild_every_count_below_the_bound() {
        let big = |s: &str| s.parse::<BigUint>().unwrap();
        let limit = (BigUint::one() << 128u32) * BigUint::from(P);
        for x in [
            BigUint::default(),
            BigUint::one(),
            BigUint::from(P),
            BigUint::from(u128::MAX),
            BigUint::one() << 128u32,
            big("123456789012345678901234567890123456789012345678901234"),
            &limit - 1u32,
        ] {
            assert_eq!(Residue::of(&x).big(), x);
        }
        // Arithmetic through the residues, with a subtraction on the way.
        let a = big("98765432109876543210987654321");
        let b = big("12345678901234567890123");
        let mut r = Residue::of(&a).times(&Residue::of(&b));
        r.add_product(&Residue::of(&a), &Residue::of_u64(7));
        r.sub(&Residue::of(&b));
        assert_eq!(r.big(), &a * &b + &a * 7u32 - &b);
        assert!(fits(&(&limit >> 1u32)));
        assert!(!fits(&limit));
    }

    /// The engine's width and the price's agree on each side of each
    /// width's edge (a count's bytes name the width).
    #[test]
    fn run_exact_takes_the_width_counts_for_prices() {
        struct Size;
        impl Program for Size {
            type Output = usize;
            fn run<W: Ways>(self) -> usize {
                std::mem::size_of::<W>()
            }
        }
        for bits in [
            1u64, 64, 65, 128, 129, 188, 189, 256, 257, 384, 385, 576, 577, 4096, 4097,
        ] {
            // 2^bits - 1 has `bits` bits, and log2 within one of it.
            let bound = (BigUint::one() << bits) - 1u32;
            let priced = counts_for(bits as f64 - 0.5).map(|counts| counts.bytes);
            assert_eq!(run_exact(&bound, Size), priced, "{bits} bits");
        }
        assert_eq!(run_exact(&(BigUint::one() << 600u32), Size), Some(8 * 14));
    }

    /// Sparse tables (a die times a number) and dense ones give the
    /// schoolbook convolution, in every kind of count.
    #[test]
    fn convolution_skips_zeros_and_keeps_every_count() {
        let table = |counts: &[u64], scale: u32| -> Vec<BigUint> {
            counts.iter().map(|&c| BigUint::from(c) << scale).collect()
        };
        let schoolbook = |a: &[BigUint], b: &[BigUint]| {
            let mut sums = vec![BigUint::zero(); a.len() + b.len() - 1];
            for (i, x) in a.iter().enumerate() {
                for (j, y) in b.iter().enumerate() {
                    sums[i + j] += x * y;
                }
            }
            sums
        };
        let sparse = [3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 7, 0, 0, 0, 0, 11];
        let dense = [1, 2, 3, 4, 5, 6, 0, 8];
        // Full words, whose products carry across every word above them.
        let full = [u64::MAX, 1, u64::MAX - 1, u64::MAX];
        // One side wide and the other narrow, either way round, takes the
        // rows from the narrow side.
        for (a_scale, b_scale) in [(0, 0), (100, 100), (0, 190), (190, 0), (60, 64)] {
            for (a, b) in [
                (&sparse[..], &dense[..]),
                (&dense, &sparse),
                (&sparse, &sparse),
                (&full, &dense),
                (&full, &full),
            ] {
                let (a, b) = (table(a, a_scale), table(b, b_scale));
                let want = schoolbook(&a, &b);
                let bits = want.iter().map(BigUint::bits).max().unwrap();
                // One word holds counts below 2^64; two, 2^128; residues,
                // 2^188; four words, 2^256.
                if bits <= 64 {
                    assert_eq!(Convolution(&a, &b).run::<Wrapping<1>>(), want);
                }
                if bits <= 128 {
                    assert_eq!(Convolution(&a, &b).run::<Wrapping<2>>(), want);
                }
                if bits <= 188 {
                    assert_eq!(Convolution(&a, &b).run::<Residue>(), want);
                }
                if bits <= 256 {
                    assert_eq!(Convolution(&a, &b).run::<Wrapping<4>>(), want);
                }
                assert_eq!(Convolution(&a, &b).run::<Wrapping<6>>(), want);
                assert_eq!(Convolution(&a, &b).run::<BigUint>(), want);
            }
        }
    }

    #[test]
    fn binomial_rows_are_pascals() {
        let rows = binomials::<BigUint>(6);
        assert_eq!(rows[6], [1u32, 6, 15, 20, 15, 6, 1].map(BigUint::from));
        assert_eq!(powers(&BigUint::from(3u32), 3)[3], BigUint::from(27u32));
    }
}
