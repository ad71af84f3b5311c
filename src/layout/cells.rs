//! Table cells for exact values, shared by the analyses that fill tables.

use crate::engine::Exact;
use crate::layout::blocks::Cell;
use crate::layout::format;
use num_bigint::BigUint;

/// A fraction: rounded for the reader, `p/q` for the CSV.
pub fn fraction(value: &Exact) -> Cell {
    Cell {
        shown: format::decimal(value),
        exact: format::exact(value),
    }
}

/// A fraction read as a percentage, `p/q` for the CSV.
pub fn percent(value: &Exact) -> Cell {
    Cell {
        shown: format::percent(value),
        exact: format::exact(value),
    }
}

/// A float share (an interval's end, irrational by nature) read as a
/// percentage; the CSV gets the share itself as a decimal.
pub(crate) fn float_percent(value: f64) -> Cell {
    Cell {
        shown: format::float_percent(value),
        exact: format::float(value).replace(format::MINUS, "-"),
    }
}

/// A difference of two chances in percentage points, `p/q` for the CSV.
pub(crate) fn points(value: &Exact) -> Cell {
    Cell {
        shown: format::points(value),
        exact: format::exact(value),
    }
}

/// An integer of any sign: grouped from 1,000 for the reader (`3,084`),
/// plain digits for the CSV (`3084`), which is data.
pub(crate) fn integer(value: impl Into<num_bigint::BigInt> + ToString) -> Cell {
    Cell {
        exact: value.to_string(),
        shown: format::integer(value),
    }
}

/// A count: grouped or scientific for the reader, every digit for the CSV.
pub fn count(value: &BigUint) -> Cell {
    Cell {
        shown: format::count(value),
        exact: value.to_string(),
    }
}

/// A fraction that may be undefined, shown as a dash.
pub(crate) fn optional_fraction(value: Option<&Exact>) -> Cell {
    value.map_or(Cell::plain("—"), fraction)
}

/// A yes/no flag.
pub(crate) fn yes_no(flag: bool) -> Cell {
    Cell::plain(if flag { "yes" } else { "no" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_carry_display_and_exact_forms() {
        let third = Exact::new(1.into(), 3.into());
        assert_eq!(fraction(&third).exact, "1/3");
        assert_eq!(fraction(&third).shown, format::decimal(&third));
        assert_eq!(optional_fraction(None).shown, "—");
        assert_eq!(yes_no(true).shown, "yes");
        let big = count(&BigUint::from(4_395_456u32));
        assert_eq!(
            (big.shown.as_str(), big.exact.as_str()),
            ("4,395,456", "4395456")
        );
        let matches = integer(3084u64);
        assert_eq!(
            (matches.shown.as_str(), matches.exact.as_str()),
            ("3,084", "3084")
        );
        let edge = points(&Exact::new(101.into(), 4000.into()));
        assert_eq!(
            (edge.shown.as_str(), edge.exact.as_str()),
            ("2.525\u{a0}points", "101/4000")
        );
    }
}
