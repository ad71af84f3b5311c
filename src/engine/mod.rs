//! The exact engine: big-integer outcome counts and reduced fractions.
//!
//! Pure computation, no I/O: everything here is a function of its arguments,
//! so it can be tested against brute force and reused by every analysis.

pub(crate) mod combinatorics;
pub mod decimal;
mod dist;
mod exact;
mod identical;
pub(crate) mod modular;
pub(crate) mod nearest;
mod outcomes;
pub mod pool;
mod select;
pub mod text;
pub(crate) mod ways;
pub(crate) mod work;

pub use dist::{Dist, DistError};
pub use exact::{
    abs_diff, compare, complement, exact_string, parse_fraction, prime_factors, ratio,
    ratio_smooth, ratios, to_f64, Denominator, Exact,
};
pub use identical::IdenticalDice;
pub(crate) use outcomes::window_is_cheaper;
pub use outcomes::Outcomes;
pub use select::{mix, picked, sorted_roll_count, sorted_roll_list};
