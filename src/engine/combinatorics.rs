//! Binomial coefficients and factorials in big integers: one owner for
//! the counting every analysis leans on (first-player ties, riffle
//! shuffles, dice pools, multinomial tests).

use num_bigint::BigUint;
use num_traits::One;

/// C(n, k) by the multiplicative formula: each partial product is itself a
/// binomial coefficient, so every division is exact. 0 when k > n.
pub fn binomial(n: impl Into<BigUint>, k: u64) -> BigUint {
    let n: BigUint = n.into();
    if BigUint::from(k) > n {
        return BigUint::ZERO;
    }
    (0..k).fold(BigUint::one(), |acc, i| acc * (&n - i) / (i + 1))
}

/// The row C(n, 0), C(n, 1), ..., C(n, n), each from the one before.
pub(crate) fn binomial_row(n: u64) -> Vec<BigUint> {
    binomial_row_start(n, n + 1)
}

/// The first `len` entries of row n (at most the whole row): C(n, 0), ...,
/// C(n, len - 1), each from the one before, for sums that stop early.
pub(crate) fn binomial_row_start(n: u64, len: u64) -> Vec<BigUint> {
    let len = len.min(n + 1);
    let mut row = Vec::with_capacity(len as usize);
    let mut c = BigUint::one();
    for k in 0..len {
        if k > 0 {
            c = c * (n - k + 1) / k;
        }
        row.push(c.clone());
    }
    row
}

/// n!.
pub(crate) fn factorial(n: u64) -> BigUint {
    (1..=n).map(BigUint::from).product()
}

/// 0!, 1!, ..., n!, each from the one before.
pub(crate) fn factorials(n: u64) -> Vec<BigUint> {
    let mut out = vec![BigUint::one()];
    for i in 1..=n {
        let next = out.last().expect("0! is there") * i;
        out.push(next);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C(n, k) by Pascal's rule, an independent recurrence.
    fn pascal(n: u64) -> Vec<Vec<BigUint>> {
        let mut rows: Vec<Vec<BigUint>> = vec![vec![BigUint::one()]];
        for m in 1..=n as usize {
            let before = &rows[m - 1];
            let row = (0..=m)
                .map(|k| {
                    let left = if k > 0 {
                        before[k - 1].clone()
                    } else {
                        BigUint::ZERO
                    };
                    let right = before.get(k).cloned().unwrap_or(BigUint::ZERO);
                    left + right
                })
                .collect();
            rows.push(row);
        }
        rows
    }

    #[test]
    fn binomials_match_pascals_triangle() {
        let triangle = pascal(40);
        for (n, row) in triangle.iter().enumerate() {
            assert_eq!(&binomial_row(n as u64), row, "row {n}");
            for len in 0..=n + 2 {
                let start = binomial_row_start(n as u64, len as u64);
                assert_eq!(start, row[..len.min(n + 1)], "row {n}, {len} entries");
            }
            for (k, c) in row.iter().enumerate() {
                assert_eq!(&binomial(n as u64, k as u64), c, "C({n}, {k})");
            }
            assert_eq!(binomial(n as u64, n as u64 + 1), BigUint::ZERO);
        }
        // Published: C(52, 5) = 2,598,960 poker hands.
        assert_eq!(binomial(52u64, 5), BigUint::from(2_598_960u32));
        // A big-integer top, as the riffle counts use: C(2^70, 2).
        let top: BigUint = BigUint::one() << 70u32;
        assert_eq!(binomial(top.clone(), 2), &top * (&top - 1u32) / 2u32);
    }

    #[test]
    fn factorials_match_their_definition() {
        assert_eq!(factorial(0), BigUint::one());
        assert_eq!(factorial(20), BigUint::from(2_432_902_008_176_640_000u64));
        let all = factorials(30);
        for (n, f) in all.iter().enumerate() {
            assert_eq!(f, &factorial(n as u64));
        }
        // 52! has 68 digits.
        assert_eq!(factorial(52).to_string().len(), 68);
    }
}
