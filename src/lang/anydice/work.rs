//! The work a program may do: every operation charges its price (in
//! elementary steps) before it runs, and the run stops with a clear
//! message once the budget is spent, whatever the program does (loops,
//! recursion, wide dice). Counting steps rather than reading a clock keeps
//! the answer the same on every machine and in the browser.

/// Steps per second of budget: a step is about one big-integer addition or
/// one interpreted node, measured on the benches' machine.
pub const STEPS_PER_SECOND: f64 = 3.0e7;

/// The longest exact count a mixture may hold, in bits (about 39,000
/// digits). A loop that mixes a die with itself squares its denominators
/// at each turn: AnyDice rounds them away, fairdice refuses them here, in
/// milliseconds, rather than multiply numbers of millions of digits.
pub const MAX_COUNT_BITS: u64 = 1 << 17;

/// The widest spread of values a die may have: its table holds a count for
/// every value between its lowest and highest.
pub const MAX_SPREAD: f64 = 5.0e6;

#[derive(Debug, Clone)]
pub(crate) struct Work {
    spent: f64,
    limit: f64,
    /// What was running when the budget ran out, for the message.
    pub seconds: f64,
}

impl Work {
    pub(crate) fn new(seconds: f64) -> Work {
        Work {
            spent: 0.0,
            limit: seconds * STEPS_PER_SECOND,
            seconds,
        }
    }

    /// Steps left.
    pub(crate) fn remaining(&self) -> f64 {
        (self.limit - self.spent).max(0.0)
    }

    pub(crate) fn spent(&self) -> f64 {
        self.spent
    }

    /// Takes `steps` from the budget, or refuses before doing `what`.
    pub(crate) fn charge(&mut self, steps: f64, what: &str) -> Result<(), String> {
        // A NaN price is refused too.
        if steps.is_nan() || steps > self.remaining() {
            return Err(self.refusal(what));
        }
        self.spent += steps;
        Ok(())
    }

    pub(crate) fn refusal(&self, what: &str) -> String {
        format!(
            "the program is over its budget of {} s of work at {what} (--budget N multiplies it; about {:.0} s were spent)",
            self.seconds,
            self.spent / STEPS_PER_SECOND
        )
    }

    /// Takes the price of `values` products of counts of `bits` bits: a
    /// machine word costs one step, and longer counts grow as Karatsuba's
    /// multiplication does (words^1.6).
    pub(crate) fn charge_counts(
        &mut self,
        values: f64,
        bits: u64,
        what: &str,
    ) -> Result<(), String> {
        self.charge(counts_price(values, bits as f64), what)
    }

    /// Refuses counts of more than [`MAX_COUNT_BITS`].
    pub(crate) fn count_bits(&self, bits: u64) -> Result<(), String> {
        if bits > MAX_COUNT_BITS {
            return Err(format!(
                "the exact probabilities here need fractions of about {} digits, past the {} fairdice keeps (AnyDice rounds them away): shorten the loop or the recursion that mixes a die into itself",
                (bits as f64 * std::f64::consts::LOG10_2) as u64,
                (MAX_COUNT_BITS as f64 * std::f64::consts::LOG10_2) as u64
            ));
        }
        Ok(())
    }

    /// Refuses a die whose values would spread from `lo` to `hi`, exact
    /// bounds taken before the die is made (so no sum of values can wrap):
    /// past what AnyDice's numbers hold, or too wide for a table.
    pub(crate) fn spread(&mut self, lo: i128, hi: i128) -> Result<(), String> {
        let (least, most) = (i128::from(i64::MIN), i128::from(i64::MAX));
        if lo < least || hi > most {
            let past = if hi > most { hi } else { lo };
            return Err(format!(
                "a die whose values reach {past}, past ±9223372036854775807, which AnyDice cannot hold: use smaller numbers or fewer dice"
            ));
        }
        let spread = (hi - lo) as f64;
        if spread > MAX_SPREAD {
            return Err(format!(
                "a die whose values spread from {lo} to {hi} is too wide: fairdice keeps a count for every value between, at most {MAX_SPREAD}; bring its values closer together"
            ));
        }
        self.charge(spread, "a wide die")
    }
}

// The price of each operation, in steps: one owner of each formula, which
// the run charges (ops, run, library) and the static estimate (price)
// adds up before anything runs.

/// `values` products of counts of `bits` bits: a machine word costs one
/// step, and longer counts grow as Karatsuba's multiplication does
/// (words^1.6).
pub(crate) fn counts_price(values: f64, bits: f64) -> f64 {
    values * (1.0 + (bits / 64.0).powf(1.6))
}

/// Summing `count` dice of `width` values into one die.
pub(crate) fn pool_sum_price(width: f64, count: f64) -> f64 {
    let sum = width * count;
    sum * sum.min(width * 4.0)
}

/// Picking places of `count` dice of `faces` values: `reach` places deep,
/// the picked values spreading over `spread`.
pub(crate) fn pick_price(faces: f64, reach: f64, count: f64, spread: f64) -> f64 {
    faces * reach * (count + 1.0) * (spread + 1.0)
}

/// Exploding a die of `width` values `depth` times, over `spread` values.
pub(crate) fn explosion_price(width: f64, spread: f64, depth: f64) -> f64 {
    width * spread * depth
}

/// Reducing a mixture of `values` counts of `words` machine words: a gcd,
/// quadratic in their length.
pub(crate) fn mixture_price(values: f64, words: f64) -> f64 {
    values * (1.0 + words * words)
}

/// Merging `rolls` sorted rolls listed so far with `sorted` more, for a
/// collection of `dice` dice.
pub(crate) fn listing_price(rolls: f64, sorted: f64, dice: f64) -> f64 {
    rolls * sorted * (dice + 1.0)
}

/// `value` times `count`, exactly, as a bound for [`Work::spread`]
/// (saturated far past any value a die may hold).
pub(crate) fn times(value: i64, count: u64) -> i128 {
    i128::from(value).saturating_mul(i128::from(count))
}
