//! N identical dice of k faces numbered 1 to k: the pool the kinds that
//! roll one die type compute with, and what the dice language reads
//! `2d6` into for them.

use serde::{Deserialize, Serialize};
use std::fmt;

/// N dice of k faces numbered 1 to k, summed: `{"count": 2, "sides": 6}`
/// in results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdenticalDice {
    /// N, the dice rolled.
    pub count: u64,
    /// k, faces per die.
    pub sides: u64,
}

impl IdenticalDice {
    /// log2 of the outcome count, sides^count: the size of the numbers
    /// exact arithmetic on these dice carries.
    pub fn bits(&self) -> f64 {
        self.count as f64 * (self.sides as f64).log2()
    }
}

impl fmt::Display for IdenticalDice {
    /// `2d6`, the count written even for one die.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)
    }
}
