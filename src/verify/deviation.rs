//! How far a simulated figure may stray from its exact value before the
//! program, not chance, is to blame.
//!
//! A run makes K comparisons and may raise a false alarm on a correct
//! program with probability at most [`FALSE_ALARM`]; Bonferroni gives each
//! comparison `FALSE_ALARM / K`. Floats throughout: these are statistics,
//! irrational by nature, never exact results.
//!
//! - A **frequency** (an event hit k times in N trials, exact chance p)
//!   fails when the Chernoff bound on its tail,
//!   `exp(-N D(k/N || p))` with D the relative entropy, is below half the
//!   comparison's share. The bound holds for every N and p, so the
//!   guarantee does not lean on a normal approximation, which is far too
//!   optimistic six deviations out for rare events.
//! - A **mean** (of N measures, exact mean m) fails when
//!   `|mean - m| / (s / sqrt N)`, with s the sample's standard deviation,
//!   passes the normal quantile of the comparison's share (bounded by
//!   Mills' ratio, so the limit errs high). This one leans on the central
//!   limit theorem: N is thousands of trials of light-tailed counts.
//!   A sample whose trials all agree (999 cards on a d1000 take one roll
//!   almost every time) has no spread to judge by. Where the kind knows
//!   the measure's exact variance v, Cantelli's inequality bounds the
//!   chance that one trial lands `gap` from the mean on that side by
//!   `v / (v + gap^2)`, so all N agree there with chance at most its N-th
//!   power: the mean fails only when that is below the share. Otherwise
//!   the larger of the sample's and the exact variance sets the standard
//!   error. Where the variance is unknown, a sample with no spread or of
//!   fewer than [`CENTRAL_TRIALS`] trials is not judged.

/// The chance that a correct program fails a whole run: one in a million.
pub const FALSE_ALARM: f64 = 1e-6;

/// A simulated figure set beside its exact value.
#[derive(Debug, Clone, PartialEq)]
pub struct Deviation {
    /// Standard deviations between the simulated and the exact figure:
    /// `|k - N p| / sqrt(N p (1 - p))` for a frequency, `|mean - m| / (s /
    /// sqrt N)` for a mean; infinite when the spread is zero and they differ.
    pub deviations: f64,
    /// The largest `deviations` this comparison allows.
    pub limit: f64,
}

impl Deviation {
    /// Beyond the limit: the program, not chance, is to blame.
    pub fn beyond(&self) -> bool {
        self.deviations > self.limit
    }
}

/// An event hit `hits` times in `trials` trials against its exact chance
/// `p`, allowed a false alarm with probability `share`.
pub(crate) fn frequency(hits: u64, trials: u64, p: f64, share: f64) -> Deviation {
    let n = trials as f64;
    let expected = n * p;
    let spread = (n * p * (1.0 - p)).sqrt();
    let gap = (hits as f64 - expected).abs();
    // ln(2 / share): the bound on each side must fall below share / 2.
    let needed = (2.0 / share).ln();
    let upward = hits as f64 >= expected;
    let tail = |gap: f64| {
        let q = if upward { p + gap / n } else { p - gap / n };
        n * relative_entropy(q.clamp(0.0, 1.0), p)
    };
    if spread == 0.0 {
        // p is 0 or 1: any other count is impossible.
        let deviations = if gap > 0.0 { f64::INFINITY } else { 0.0 };
        return Deviation {
            deviations,
            limit: 0.0,
        };
    }
    // The gap at which the bound reaches the share, by bisection; the
    // bound grows with the gap.
    let room = if upward { n - expected } else { expected };
    let limit_gap = if tail(room) < needed {
        f64::INFINITY
    } else {
        let (mut low, mut high) = (0.0, room);
        for _ in 0..200 {
            let mid = (low + high) / 2.0;
            if tail(mid) < needed {
                low = mid;
            } else {
                high = mid;
            }
        }
        high
    };
    Deviation {
        deviations: gap / spread,
        limit: limit_gap / spread,
    }
}

/// The mean of `trials` measures with these sums against the exact mean
/// `exact` (and the measure's exact `variance`, where known), allowed a
/// false alarm with probability `share`.
pub fn mean(
    sums: (u128, u128),
    trials: u64,
    exact: f64,
    variance: Option<f64>,
    share: f64,
) -> Deviation {
    let (total, squares) = sums;
    let n = trials as f64;
    let mean = total as f64 / n;
    let sample_variance = if trials > 1 {
        ((squares as f64 - total as f64 * mean) / (n - 1.0)).max(0.0)
    } else {
        0.0
    };
    let gap = (mean - exact).abs();
    let judged = |v: f64| Deviation {
        deviations: gap / (v / n).sqrt(),
        limit: normal_limit(share),
    };
    let unjudged = Deviation {
        deviations: 0.0,
        limit: f64::INFINITY,
    };
    let differs = gap > 1e-12 * exact.abs().max(1.0);
    match variance {
        // The measure is constant: any other mean is the program's fault.
        Some(v) if v <= 0.0 => Deviation {
            deviations: if differs { f64::INFINITY } else { 0.0 },
            limit: 0.0,
        },
        Some(v) if sample_variance == 0.0 => agreeing(gap, n, v, share),
        // A few trials that missed a rare long tail, or met it once: the
        // larger spread errs on the side of no false alarm.
        Some(v) => judged(v.max(sample_variance)),
        None if sample_variance == 0.0 || trials < CENTRAL_TRIALS => unjudged,
        None => judged(sample_variance),
    }
}

/// Trials from which a mean of unknown variance is judged by its sample's
/// spread: fewer leave the central limit theorem too far to lean on (ten
/// trials of a race's rolls once failed at 8 sd).
pub(crate) const CENTRAL_TRIALS: u64 = 1000;

/// Every trial gave the same value, `gap` from the exact mean of a measure
/// of variance `v`: in standard errors (`sqrt(v / N)`), the gap and the
/// largest gap at which N agreeing trials still have chance `share`
/// ((v / (v + g^2))^N = share).
fn agreeing(gap: f64, n: f64, v: f64, share: f64) -> Deviation {
    let error = (v / n).sqrt();
    // share^(-1/N) - 1, kept accurate when N is large.
    let growth = (-share.ln() / n).exp_m1();
    Deviation {
        deviations: gap / error,
        limit: (v * growth).sqrt() / error,
    }
}

/// D(q || p) = q ln(q/p) + (1-q) ln((1-q)/(1-p)), with 0 ln 0 = 0.
fn relative_entropy(q: f64, p: f64) -> f64 {
    let term = |a: f64, b: f64| {
        if a == 0.0 {
            0.0
        } else if b == 0.0 {
            f64::INFINITY
        } else {
            a * (a / b).ln()
        }
    };
    (term(q, p) + term(1.0 - q, 1.0 - p)).max(0.0)
}

/// The z beyond which a normal variable falls, on either side, with
/// probability at most `share`: 2 phi(z) / z = share (Mills' ratio bounds
/// the tail by phi(z) / z), found by bisection.
pub(crate) fn normal_limit(share: f64) -> f64 {
    let tail = |z: f64| 2.0 * (-z * z / 2.0).exp() / (z * (2.0 * std::f64::consts::PI).sqrt());
    let (mut low, mut high) = (1.0, 64.0);
    for _ in 0..200 {
        let mid = (low + high) / 2.0;
        if tail(mid) > share {
            low = mid;
        } else {
            high = mid;
        }
    }
    high
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_limit_matches_published_quantiles() {
        // Two-sided 1e-6 is z = 4.8916 (tables); Mills' bound errs a little high.
        let z = normal_limit(1e-6);
        assert!((4.89..4.93).contains(&z), "{z}");
        let z = normal_limit(1e-9);
        assert!((6.10..6.14).contains(&z), "{z}");
    }

    #[test]
    fn relative_entropy_of_known_pairs() {
        assert_eq!(relative_entropy(0.5, 0.5), 0.0);
        // D(1 || 1/2) = ln 2.
        assert!((relative_entropy(1.0, 0.5) - 2f64.ln()).abs() < 1e-15);
        assert_eq!(relative_entropy(0.1, 0.0), f64::INFINITY);
        assert_eq!(relative_entropy(0.0, 0.0), 0.0);
    }

    #[test]
    fn a_fair_count_passes_and_a_wrong_one_fails() {
        let share = 1e-9;
        // 10,000 fair coins: 5,100 heads is 2 deviations out.
        let fair = frequency(5_100, 10_000, 0.5, share);
        assert!((fair.deviations - 2.0).abs() < 1e-12);
        assert!(!fair.beyond());
        // For a large count the Chernoff limit is near sqrt(2 ln(2/share)).
        assert!((6.3..6.8).contains(&fair.limit), "{}", fair.limit);
        // 5,400 heads is 8 deviations out.
        let wrong = frequency(5_400, 10_000, 0.5, share);
        assert!(wrong.beyond(), "{wrong:?}");
        assert!(wrong.limit < wrong.deviations);
    }

    #[test]
    fn rare_events_get_a_wider_limit_than_the_normal_tail() {
        // Expected 1 in 10,000 trials: 8 hits is 7 deviations out, which a
        // normal tail would call impossible, yet happens about once in
        // 100,000 runs (Poisson); the bound lets it pass.
        let rare = frequency(8, 10_000, 1e-4, 1e-9);
        assert!(rare.deviations > 6.9);
        assert!(!rare.beyond(), "{rare:?}");
        assert!(rare.limit > 10.0, "{rare:?}");
        // 40 hits is beyond any chance.
        assert!(frequency(40, 10_000, 1e-4, 1e-9).beyond());
    }

    #[test]
    fn impossible_events_fail_as_soon_as_they_happen() {
        assert!(frequency(1, 1_000, 0.0, 1e-9).beyond());
        assert!(!frequency(0, 1_000, 0.0, 1e-9).beyond());
        assert!(frequency(999, 1_000, 1.0, 1e-9).beyond());
        assert!(!frequency(1_000, 1_000, 1.0, 1e-9).beyond());
    }

    #[test]
    fn means_compare_against_their_standard_error() {
        // Values 1 and 3, equally often: mean 2, sample variance about 1.
        let (trials, total, squares) = (10_000u64, 20_000u128, 50_000u128);
        let right = mean((total, squares), trials, 2.0, None, 1e-9);
        assert_eq!(right.deviations, 0.0);
        // Exact 1.9: 0.1 / (1 / 100) = 10 deviations.
        let wrong = mean((total, squares), trials, 1.9, None, 1e-9);
        assert!((wrong.deviations - 10.0).abs() < 0.01, "{wrong:?}");
        assert!(wrong.beyond());
        // An exact variance larger than the sample's sets the error: 4
        // gives 0.1 / (2 / 100) = 5 deviations.
        let wider = mean((total, squares), trials, 1.9, Some(4.0), 1e-9);
        assert!((wider.deviations - 5.0).abs() < 0.01, "{wider:?}");
    }

    #[test]
    fn a_constant_measure_fails_on_any_gap() {
        assert!(mean((30, 90), 10, 3.5, Some(0.0), 1e-9).beyond());
        assert!(!mean((30, 90), 10, 3.0, Some(0.0), 1e-9).beyond());
    }

    #[test]
    fn agreeing_trials_are_judged_by_cantellis_bound() {
        // All N trials gave 1 against mean 2 and variance 2: each lands
        // there with chance at most 2 / (2 + 1) = 2/3, all N with (2/3)^N.
        // (2/3)^N < 1e-9 from N = 52 on.
        for (n, beyond) in [(51u64, false), (52, true)] {
            let sums = (u128::from(n), u128::from(n));
            let deviation = mean(sums, n, 2.0, Some(2.0), 1e-9);
            assert_eq!(deviation.beyond(), beyond, "{n}: {deviation:?}");
        }
        // Unknown variance: agreeing trials are not judged.
        assert!(!mean((1000, 1000), 1000, 2.0, None, 1e-9).beyond());
    }

    #[test]
    fn few_trials_of_unknown_spread_are_not_judged() {
        let few = CENTRAL_TRIALS - 1;
        let sums = (u128::from(few) * 2, u128::from(few) * 5);
        assert!(!mean(sums, few, 9.9, None, 1e-9).beyond());
        let many = CENTRAL_TRIALS;
        let sums = (u128::from(many) * 2, u128::from(many) * 5);
        assert!(mean(sums, many, 9.9, None, 1e-9).beyond());
    }
}
