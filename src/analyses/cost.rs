//! Estimating an analysis's cost from its parameters, before any work, and
//! refusing what exceeds the budget.
//!
//! Estimates are rough (within a small factor) but computed in floating point
//! from the parameters alone, so even absurd sizes (10^9 dice) are refused at
//! once and without overflow.

use super::ParamError;
pub use crate::limits::{Budget, Form};

/// What an analysis is expected to take.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Cost {
    /// Estimated run time on one core of a modest machine.
    pub seconds: f64,
    /// Estimated peak memory plus output, in bytes.
    pub bytes: f64,
    /// The key whose value drives the cost, for the error's position.
    pub key: &'static str,
    /// The table rows shown, whose cost on pages `seconds` and `bytes`
    /// include (see [`Cost::with_tables`] and [`Cost::in_form`]).
    pub tables: Tables,
}

/// Table rows of big numbers: their count, and the sum of each row's
/// digits (both forms' costs are linear in these two).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tables {
    /// Rows shown.
    pub rows: f64,
    /// Rows times the digits of their longest number, summed.
    pub digits: f64,
}

impl Tables {
    /// Showing these rows in every command's worst form (`report` also
    /// inlines the CSVs and JSON): first measured at about 2.7 kB + 31
    /// bytes a digit per row on `sum-mod` pages (see [`super::sum_mod`]'s
    /// cost). Pages have grown since (a bar per row with its exact
    /// tooltip, digits kept beside the grouped form, sectioned search):
    /// measured again with each command's own high-water mark, a report of
    /// 500d6 peaked at 76 MB over the baseline (about 30 kB a row of 390
    /// digits) against an estimate of 52 MB. Now 4.8 kB + 72 bytes a digit.
    /// About 15 µs + 0.4 µs a digit per row.
    fn on_pages(&self) -> (f64, f64) {
        (
            self.rows * 15e-6 + self.digits * 0.4e-6,
            self.rows * 4800.0 + self.digits * 72.0,
        )
    }

    /// The same rows spelled a chunk at a time (`roll --json`): the time
    /// of [`Tables::in_json`], and the memory of one chunk's rows (the
    /// longest rows, on the safe side).
    fn streamed(&self) -> (f64, f64) {
        let (seconds, _) = self.in_json();
        let held = self.rows.min(crate::analyses::pool::SPELLED_AT_ONCE as f64);
        let share = if self.rows > 0.0 {
            held / self.rows
        } else {
            0.0
        };
        let (_, bytes) = Tables {
            rows: held,
            digits: self.digits * share,
        }
        .in_json();
        (seconds, bytes)
    }

    /// The same rows in the JSON contract alone (`eval --json`): measured
    /// with the process's high-water mark, 1000d6 (5,001 rows of 780
    /// digits) peaked at 44 MB and 2500d6 (12,501 rows of 1,946 digits) at
    /// 207 MB in 0.38 s: about 3.3 times the JSON's size, which is 2.6
    /// bytes a digit a row. Here 1 kB + 11 bytes a digit, and 2 µs + 0.02
    /// µs a digit per row.
    fn in_json(&self) -> (f64, f64) {
        (
            self.rows * 2e-6 + self.digits * 0.02e-6,
            self.rows * 1000.0 + self.digits * 11.0,
        )
    }
}

impl Cost {
    /// This cost and showing `rows` table rows of numbers up to `digits`
    /// long, priced for pages (see [`Tables::on_pages`]).
    pub(crate) fn with_tables(self, rows: f64, digits: f64) -> Cost {
        let tables = Tables {
            rows: self.tables.rows + rows,
            digits: self.tables.digits + rows * digits,
        };
        let (seconds, bytes) = Tables {
            rows,
            digits: rows * digits,
        }
        .on_pages();
        Cost {
            seconds: self.seconds + seconds,
            bytes: self.bytes + bytes,
            tables,
            ..self
        }
    }

    /// What this costs a command that makes `form` of the results: the
    /// tables priced for pages are priced again for JSON alone.
    pub(crate) fn in_form(&self, form: Form) -> Cost {
        match form {
            Form::Pages | Form::Browser => *self,
            Form::Json | Form::Streamed => {
                let (page_seconds, page_bytes) = self.tables.on_pages();
                let (json_seconds, json_bytes) = if form == Form::Streamed {
                    self.tables.streamed()
                } else {
                    self.tables.in_json()
                };
                Cost {
                    seconds: self.seconds - page_seconds + json_seconds,
                    bytes: self.bytes - page_bytes + json_bytes,
                    ..*self
                }
            }
        }
    }

    /// Two costs together (one scenario doing both, or two scenarios).
    pub(crate) fn plus(self, other: Cost) -> Cost {
        Cost {
            seconds: self.seconds + other.seconds,
            bytes: self.bytes + other.bytes,
            key: if other.seconds > self.seconds {
                other.key
            } else {
                self.key
            },
            tables: Tables {
                rows: self.tables.rows + other.tables.rows,
                digits: self.tables.digits + other.tables.digits,
            },
        }
    }
}

impl Budget {
    /// Refuse a cost over budget, saying by how much and how to raise it.
    pub(crate) fn admit(&self, cost: &Cost) -> Result<(), ParamError> {
        let cost = &cost.in_form(self.form);
        let (seconds, bytes) = (self.seconds(), self.bytes());
        if fits(cost, seconds, bytes) {
            return Ok(());
        }
        Err(ParamError {
            key: cost.key,
            message: format!(
                "this scenario is estimated to need {} and {}, \
                 over the budget of {} and {}: make it smaller{}",
                about(human_seconds(cost.seconds)),
                about(human_bytes(cost.bytes)),
                human_seconds(seconds),
                human_bytes(bytes),
                match self.form {
                    Form::Browser => " (a page computes no more than a build does)".to_string(),
                    _ => format!(", {}", raise(needed(cost, Budget::SECONDS, Budget::BYTES))),
                },
            ),
        })
    }

    /// [`Budget::admit`], naming the costliest part of the parameters (see
    /// `Analysis::cost_detail`) when the cost is refused.
    pub(crate) fn admit_explained(
        &self,
        cost: &Cost,
        detail: Option<String>,
    ) -> Result<(), ParamError> {
        self.admit(cost).map_err(|mut err| {
            if let Some(detail) = detail {
                err.message = format!("{}; {detail}", err.message);
            }
            err
        })
    }

    /// Refuse scenarios that each fit but together exceed the whole-build
    /// budget, naming the costliest (by name, as given) and the flag.
    pub(crate) fn admit_all(&self, costs: &[(String, Cost)]) -> Result<(), String> {
        let costs: Vec<(&String, Cost)> = costs
            .iter()
            .map(|(name, cost)| (name, cost.in_form(self.form)))
            .collect();
        let total = costs
            .iter()
            .fold(Cost::default(), |sum, (_, cost)| sum.plus(*cost));
        let (seconds, bytes) = (self.build_seconds(), self.build_bytes());
        if fits(&total, seconds, bytes) {
            return Ok(());
        }
        let mut costliest: Vec<&(&String, Cost)> = costs.iter().collect();
        costliest.sort_by(|a, b| {
            (b.1.bytes / bytes + b.1.seconds / seconds)
                .total_cmp(&(a.1.bytes / bytes + a.1.seconds / seconds))
        });
        const SHOWN: usize = 5;
        let mut names: Vec<String> = costliest
            .iter()
            .take(SHOWN)
            .map(|(name, cost)| {
                format!(
                    "{name} ({}, {})",
                    human_seconds(cost.seconds),
                    human_bytes(cost.bytes)
                )
            })
            .collect();
        if costs.len() > SHOWN {
            names.push(format!("and {} more", costs.len() - SHOWN));
        }
        let per_build = Budget::SCENARIOS_PER_BUILD;
        Err(format!(
            "the {} scenarios are estimated to need {} and {} together, over the \
             budget for a whole build of {} and {} ({per_build} scenarios' worth): {}; \
             make them smaller, build fewer at once, {}",
            costs.len(),
            about(human_seconds(total.seconds)),
            about(human_bytes(total.bytes)),
            human_seconds(seconds),
            human_bytes(bytes),
            names.join(", "),
            raise(needed(
                &total,
                Budget::SECONDS * per_build,
                Budget::BYTES * per_build
            )),
        ))
    }
}

/// Finite, and within both limits.
fn fits(cost: &Cost, seconds: f64, bytes: f64) -> bool {
    cost.seconds.is_finite()
        && cost.bytes.is_finite()
        && cost.seconds <= seconds
        && cost.bytes <= bytes
}

/// The factor of the defaults `cost` needs.
fn needed(cost: &Cost, seconds: f64, bytes: f64) -> f64 {
    (cost.seconds / seconds).max(cost.bytes / bytes)
}

/// "or raise the budget with `--budget 4`", or why no budget would do.
fn raise(needed: f64) -> String {
    match Budget::advice(needed) {
        Some(flag) => format!("or raise the budget with {flag}"),
        None => format!(
            "no budget would cover it (`--budget` goes up to {})",
            Budget::MAX_FACTOR
        ),
    }
}

/// "about 3 minutes", but "more than a century" and "under 1 s" as they are.
/// An estimated time in words: "about 3 minutes", "more than a century".
pub(crate) fn estimated_time(seconds: f64) -> String {
    about(human_seconds(seconds))
}

fn about(text: String) -> String {
    if text.starts_with("more than") || text.starts_with("under") {
        text
    } else {
        format!("about {text}")
    }
}

fn human_seconds(seconds: f64) -> String {
    match seconds {
        s if !s.is_finite() || s > 3.15e9 => "more than a century".into(),
        s if s >= 86400.0 => plural(s / 86400.0, "day"),
        s if s >= 3600.0 => plural(s / 3600.0, "hour"),
        s if s >= 60.0 => plural(s / 60.0, "minute"),
        s if s < 0.5 => "under 1 s".into(),
        s => format!("{s:.0} s"),
    }
}

/// "1 hour", "2 hours": `amount` rounded, then the unit.
fn plural(amount: f64, unit: &str) -> String {
    let rounded = amount.round();
    let s = if rounded == 1.0 { "" } else { "s" };
    format!("{rounded:.0} {unit}{s}")
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
    fn json_alone_prices_the_tables_again_and_nothing_else() {
        let compute = Cost {
            seconds: 2.0,
            bytes: 1e6,
            key: "dice",
            ..Cost::default()
        };
        // 1000d6: 5,001 rows of 780 digits.
        let shown = compute.with_tables(5001.0, 780.0);
        assert_eq!(shown.key, "dice");
        assert_eq!(shown.in_form(Form::Pages), shown);
        let json = shown.in_form(Form::Json);
        // Pages: 5,001 x (4,800 + 72 x 780) bytes; JSON: 5,001 x (1,000 +
        // 11 x 780), each on top of the computation's own.
        assert!((shown.bytes - (1e6 + 5001.0 * (4800.0 + 72.0 * 780.0))).abs() < 1.0);
        assert!((json.bytes - (1e6 + 5001.0 * (1000.0 + 11.0 * 780.0))).abs() < 1.0);
        assert!(json.seconds > 2.0 && json.seconds < shown.seconds);
        // Over the default budget as a page, within it as JSON.
        let budget = Budget::default();
        assert!(budget.admit(&shown).is_err());
        assert!(budget.printing(true).admit(&shown).is_ok());
        // Without tables, the form changes nothing.
        assert_eq!(compute.in_form(Form::Json), compute);
        // Tables add up across cases and scenarios.
        let two = compute.with_tables(10.0, 5.0).with_tables(20.0, 2.0);
        assert_eq!(
            two.tables,
            Tables {
                rows: 30.0,
                digits: 90.0
            }
        );
        assert_eq!(
            two.plus(two).tables,
            Tables {
                rows: 60.0,
                digits: 180.0
            }
        );
    }

    #[test]
    fn small_costs_pass_and_large_ones_name_the_flag() {
        let budget = Budget::default();
        let small = Cost {
            seconds: 1.0,
            bytes: 1e6,
            key: "dice",
            ..Cost::default()
        };
        assert!(budget.admit(&small).is_ok());
        let big = Cost {
            seconds: 95.0,
            bytes: 1e6,
            key: "dice",
            ..Cost::default()
        };
        let err = budget.admit(&big).unwrap_err();
        assert_eq!(err.key, "dice");
        assert!(err.message.contains("about 2 minutes"), "{}", err.message);
        assert!(err.message.contains("`--budget 4`"), "{}", err.message);
        assert!(Budget::new(4.0).admit(&big).is_ok());
        let absurd = Cost {
            seconds: 1e30,
            bytes: f64::INFINITY,
            key: "dice",
            ..Cost::default()
        };
        let err = budget.admit(&absurd).unwrap_err();
        assert!(err.message.contains("up to 1000"), "{}", err.message);
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

    #[test]
    fn a_whole_build_is_held_to_a_few_scenarios_worth() {
        let budget = Budget::default();
        let each = |name: &str, bytes: f64| {
            (
                name.to_string(),
                Cost {
                    seconds: 1.0,
                    bytes,
                    key: "targets",
                    ..Cost::default()
                },
            )
        };
        let three: Vec<_> = (0..3).map(|i| each(&format!("s{i}.yaml"), 250e6)).collect();
        assert!(three.iter().all(|(_, c)| budget.admit(c).is_ok()));
        assert!(budget.admit_all(&three).is_ok());
        let mut eight: Vec<_> = (0..7).map(|i| each(&format!("s{i}.yaml"), 200e6)).collect();
        eight.push(each("big.yaml", 250e6));
        let err = budget.admit_all(&eight).unwrap_err();
        assert!(
            err.starts_with("the 8 scenarios are estimated to need"),
            "{err}"
        );
        assert!(err.contains("about 2 GB together"), "{err}");
        assert!(err.contains("1 GB (4 scenarios' worth)"), "{err}");
        assert!(err.contains(": big.yaml (1 s, 250 MB), s0.yaml"), "{err}");
        assert!(err.contains("and 3 more"), "{err}");
        assert!(err.contains("`--budget 2`"), "{err}");
        assert!(Budget::new(2.0).admit_all(&eight).is_ok());
        // Sums that overflow to infinity are refused, not admitted.
        let endless = vec![each("a.yaml", f64::MAX), each("b.yaml", f64::MAX)];
        let err = Budget::new(1000.0).admit_all(&endless).unwrap_err();
        assert!(err.contains("no budget would cover it"), "{err}");
        assert!(budget.admit_all(&[]).is_ok());
    }

    #[test]
    fn an_out_of_range_factor_admits_no_more_than_the_largest() {
        let huge = Cost {
            seconds: 1e12,
            bytes: 1e15,
            key: "dice",
            ..Cost::default()
        };
        for factor in [1e12, f64::INFINITY, f64::NAN] {
            assert!(Budget::new(factor).admit(&huge).is_err(), "{factor}");
        }
    }
}
