//! Estimating an analysis's cost from its parameters, before any work, and
//! refusing what exceeds the budget.
//!
//! Estimates are rough (within a small factor) but computed in floating point
//! from the parameters alone, so even absurd sizes (10^9 dice) are refused at
//! once and without overflow.

use super::ParamError;

/// What an analysis is expected to take.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Estimated run time on one core of a modest machine.
    pub seconds: f64,
    /// Estimated peak memory plus output, in bytes.
    pub bytes: f64,
    /// The key whose value drives the cost, for the error's position.
    pub key: &'static str,
}

impl Cost {
    /// The larger of two costs in each dimension (for one scenario doing both).
    pub fn plus(self, other: Cost) -> Cost {
        Cost {
            seconds: self.seconds + other.seconds,
            bytes: self.bytes + other.bytes,
            key: if other.seconds > self.seconds {
                other.key
            } else {
                self.key
            },
        }
    }
}

/// How much one scenario may cost; `factor` scales the defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Multiplier of [`Budget::SECONDS`] and [`Budget::BYTES`], from `--budget`.
    pub factor: f64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { factor: 1.0 }
    }
}

impl Budget {
    /// Default time allowed for one scenario.
    pub const SECONDS: f64 = 30.0;
    /// Default memory and output allowed for one scenario.
    pub const BYTES: f64 = 256e6;

    /// Refuse a cost over budget, saying by how much and how to raise it.
    pub fn admit(&self, cost: &Cost) -> Result<(), ParamError> {
        let seconds = Self::SECONDS * self.factor;
        let bytes = Self::BYTES * self.factor;
        if cost.seconds.is_finite()
            && cost.bytes.is_finite()
            && cost.seconds <= seconds
            && cost.bytes <= bytes
        {
            return Ok(());
        }
        let needed = (cost.seconds / Self::SECONDS)
            .max(cost.bytes / Self::BYTES)
            .ceil();
        let raise = if needed.is_finite() && needed < 1e6 {
            format!("or raise the budget with `--budget {needed}`")
        } else {
            "no budget would cover it".to_string()
        };
        Err(ParamError {
            key: cost.key,
            message: format!(
                "this scenario is estimated to need {} and {}, \
                 over the budget of {} and {}: make it smaller, {raise}",
                about(human_seconds(cost.seconds)),
                about(human_bytes(cost.bytes)),
                human_seconds(seconds),
                human_bytes(bytes),
            ),
        })
    }
}

/// "about 3 minutes", but "more than a century" as it is.
fn about(text: String) -> String {
    if text.starts_with("more than") {
        text
    } else {
        format!("about {text}")
    }
}

fn human_seconds(seconds: f64) -> String {
    match seconds {
        s if !s.is_finite() || s > 3.15e9 => "more than a century".into(),
        s if s >= 86400.0 => format!("{:.0} days", s / 86400.0),
        s if s >= 3600.0 => format!("{:.0} hours", s / 3600.0),
        s if s >= 60.0 => format!("{:.0} minutes", s / 60.0),
        s => format!("{s:.0} s"),
    }
}

fn human_bytes(bytes: f64) -> String {
    match bytes {
        b if !b.is_finite() || b >= 1e15 => "more than a petabyte".into(),
        b if b >= 1e12 => format!("{:.0} TB", b / 1e12),
        b if b >= 1e9 => format!("{:.0} GB", b / 1e9),
        b => format!("{:.0} MB", (b / 1e6).max(1.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_costs_pass_and_large_ones_name_the_flag() {
        let budget = Budget::default();
        let small = Cost {
            seconds: 1.0,
            bytes: 1e6,
            key: "dice",
        };
        assert!(budget.admit(&small).is_ok());
        let big = Cost {
            seconds: 95.0,
            bytes: 1e6,
            key: "dice",
        };
        let err = budget.admit(&big).unwrap_err();
        assert_eq!(err.key, "dice");
        assert!(err.message.contains("about 2 minutes"), "{}", err.message);
        assert!(err.message.contains("`--budget 4`"), "{}", err.message);
        assert!(Budget { factor: 4.0 }.admit(&big).is_ok());
        let absurd = Cost {
            seconds: 1e30,
            bytes: f64::INFINITY,
            key: "dice",
        };
        let err = budget.admit(&absurd).unwrap_err();
        assert!(
            err.message.contains("more than a century"),
            "{}",
            err.message
        );
        assert!(
            err.message.contains("no budget would cover it"),
            "{}",
            err.message
        );
    }
}
