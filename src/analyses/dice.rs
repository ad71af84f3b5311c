//! Dice and their totals as results spell them, shared by the kinds that
//! roll a pool of identical dice.

use crate::engine::{text, Exact};
use num_bigint::BigUint;
use serde::{Deserialize, Serialize};

/// N dice of k faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dice {
    /// N, the dice rolled.
    pub count: u64,
    /// k, faces per die.
    pub sides: u64,
}

/// One total of the dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Total {
    /// The total.
    pub total: u64,
    /// Outcomes giving it.
    #[serde(with = "text")]
    pub ways: BigUint,
    /// ways / k^N.
    #[serde(with = "text")]
    pub probability: Exact,
}
