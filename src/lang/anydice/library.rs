//! AnyDice's function library (`anydice.com/docs/function-library`), each
//! function lowered onto the engine rather than written in AnyDice.

use super::ops::{self, Fail};
use super::syntax::Type;
use super::value::{Die, Pool, Value};
use super::work::{self, Work};
use super::Settings;
use crate::engine::pool::{explode, Condition};
use std::ops::RangeInclusive;

pub(crate) struct Builtin {
    pub types: &'static [Type],
    pub run: fn(&[Value], &Settings, &mut Work) -> Result<Value, Fail>,
}

use Type::{Die as D, Number as N, Sequence as S};

/// Every library function by its key (words, `_` for each value).
const LIBRARY: &[(&str, Builtin)] = &[
    (
        "absolute _",
        Builtin {
            types: &[N],
            run: |a, _, _| {
                let n = number(&a[0]).checked_abs().ok_or_else(ops::overflow)?;
                Ok(Value::Number(n))
            },
        },
    ),
    (
        "_ contains _",
        Builtin {
            types: &[S, N],
            run: |a, _, _| {
                Ok(Value::Number(i64::from(
                    sequence(&a[0]).contains(&number(&a[1])),
                )))
            },
        },
    ),
    (
        "count _ in _",
        Builtin {
            types: &[S, S],
            run: |a, _, _| {
                let (values, seq) = (sequence(&a[0]), sequence(&a[1]));
                Ok(Value::Number(
                    seq.iter()
                        .map(|s| values.iter().filter(|v| *v == s).count() as i64)
                        .sum(),
                ))
            },
        },
    ),
    (
        "maximum of _",
        Builtin {
            types: &[D],
            run: |a, _, w| {
                Ok(Value::Number(
                    ops::as_die(&a[0], w)?.0.map_or(0, |o| o.max()),
                ))
            },
        },
    ),
    (
        "reverse _",
        Builtin {
            types: &[S],
            run: |a, _, _| {
                let mut s = sequence(&a[0]).to_vec();
                s.reverse();
                Ok(Value::Sequence(s.into()))
            },
        },
    ),
    (
        "sort _",
        Builtin {
            types: &[S],
            run: |a, settings, _| {
                let mut s = sequence(&a[0]).to_vec();
                s.sort_unstable();
                if settings.highest_first {
                    s.reverse();
                }
                Ok(Value::Sequence(s.into()))
            },
        },
    ),
    (
        "highest of _ and _",
        Builtin {
            types: &[N, N],
            run: |a, _, _| Ok(Value::Number(number(&a[0]).max(number(&a[1])))),
        },
    ),
    (
        "lowest of _ and _",
        Builtin {
            types: &[N, N],
            run: |a, _, _| Ok(Value::Number(number(&a[0]).min(number(&a[1])))),
        },
    ),
    (
        "highest _ of _",
        Builtin {
            types: &[N, D],
            run: |a, s, w| from_end(number(&a[0]), pool(&a[1..]), true, s, w),
        },
    ),
    (
        "lowest _ of _",
        Builtin {
            types: &[N, D],
            run: |a, s, w| from_end(number(&a[0]), pool(&a[1..]), false, s, w),
        },
    ),
    (
        "highest _ of _ and _",
        Builtin {
            types: &[N, D, D],
            run: |a, s, w| from_end(number(&a[0]), pool(&a[1..]), true, s, w),
        },
    ),
    (
        "lowest _ of _ and _",
        Builtin {
            types: &[N, D, D],
            run: |a, s, w| from_end(number(&a[0]), pool(&a[1..]), false, s, w),
        },
    ),
    (
        "highest _ of _ and _ and _",
        Builtin {
            types: &[N, D, D, D],
            run: |a, s, w| from_end(number(&a[0]), pool(&a[1..]), true, s, w),
        },
    ),
    (
        "lowest _ of _ and _ and _",
        Builtin {
            types: &[N, D, D, D],
            run: |a, s, w| from_end(number(&a[0]), pool(&a[1..]), false, s, w),
        },
    ),
    (
        "middle _ of _",
        Builtin {
            types: &[N, D],
            run: |a, s, w| {
                let n = number(&a[0]);
                let p = pool(&a[1..]);
                if matches!(&a[1], Value::Die(d) if d.is_empty()) {
                    return Ok(Value::Die(Die::empty()));
                }
                let total = p.len() as i64;
                if n <= 0 {
                    return Ok(Value::Number(0));
                }
                if n >= total {
                    return Ok(Value::Die(ops::sum_pool(&p, w)?));
                }
                from_lowest(middle_places(n, total), p, s, w)
            },
        },
    ),
    (
        "explode _",
        Builtin {
            types: &[D],
            run: |a, s, w| {
                let Die(Some(die)) = ops::as_die(&a[0], w)? else {
                    return Ok(Value::Die(Die::empty()));
                };
                let depth = s.explode_depth;
                let rolls = u64::from(depth) + 1;
                let (lo, hi) = (work::times(die.min(), rolls), work::times(die.max(), rolls));
                w.spread(lo, hi)?;
                let spread = (hi - lo) as f64;
                w.charge(
                    work::explosion_price(die.width() as f64, spread, depth as f64),
                    "an explosion",
                )?;
                Ok(Value::Die(Die::of(explode(
                    &die,
                    Condition::Eq(die.max()),
                    depth,
                    0,
                ))))
            },
        },
    ),
];

pub(crate) fn find(key: &str) -> Option<&'static Builtin> {
    // Found by hash: a loop calls the library at every turn.
    static BY_KEY: std::sync::OnceLock<crate::hash::FnvMap<&str, &Builtin>> =
        std::sync::OnceLock::new();
    BY_KEY
        .get_or_init(|| LIBRARY.iter().map(|(k, b)| (*k, b)).collect())
        .get(key)
        .copied()
}

/// " (did you mean [...]?)" when a known function's words are close.
pub(crate) fn suggestion<'a>(key: &str, defined: impl Iterator<Item = &'a String>) -> String {
    let known: Vec<&str> = LIBRARY
        .iter()
        .map(|(k, _)| *k)
        .chain(defined.map(String::as_str))
        .collect();
    let words = |k: &str| {
        k.split(' ')
            .filter(|w| *w != "_")
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let want = words(key);
    known
        .iter()
        .filter(|k| !want.is_empty() && words(k) == want)
        .map(|k| format!(" (a function [{k}] exists: check the number of values)"))
        .next()
        .unwrap_or_default()
}

fn number(v: &Value) -> i64 {
    match v {
        Value::Number(n) => *n,
        _ => unreachable!("a number parameter holds a number"),
    }
}

fn sequence(v: &Value) -> &[i64] {
    match v {
        Value::Sequence(s) => s,
        _ => unreachable!("a sequence parameter holds a sequence"),
    }
}

/// The dice passed to a die parameter (or several), as one collection.
fn pool(values: &[Value]) -> Pool {
    let mut groups = Vec::new();
    for v in values {
        match v {
            Value::Pool(p) => groups.extend(p.groups.iter().cloned()),
            Value::Die(d) => groups.push((d.clone(), 1)),
            Value::Number(n) => groups.push((Die::constant(*n), 1)),
            Value::Sequence(_) => unreachable!("a die parameter holds a die"),
        }
    }
    Pool { groups }
}

/// `[highest N of DICE]`: the sum of the N best (or worst) dice.
fn from_end(
    n: i64,
    pool: Pool,
    highest: bool,
    settings: &Settings,
    work: &mut Work,
) -> Result<Value, Fail> {
    if pool.groups.iter().any(|(d, _)| d.is_empty()) {
        return Ok(Value::Die(Die::empty()));
    }
    match end_places(n, pool.len() as i64, highest) {
        Some(places) => from_lowest(places, pool, settings, work),
        None => Ok(Value::Number(0)),
    }
}

/// The places, counted from the lowest die (1), of `[highest N of D]` (or
/// lowest) among `size` dice; `None` for no die at all (N at most 0).
pub(crate) fn end_places(n: i64, size: i64, highest: bool) -> Option<RangeInclusive<i64>> {
    (n > 0).then(|| match highest {
        true => (size - n).max(0) + 1..=size,
        false => 1..=n.min(size),
    })
}

/// The places, counted from the lowest die (1), of `[middle N of D]` among
/// `total` dice, for N between 1 and `total - 1`: the lower middle when
/// the dice left over do not split evenly.
pub(crate) fn middle_places(n: i64, total: i64) -> RangeInclusive<i64> {
    let drop = (total - n + 1) / 2;
    drop + 1..=drop + n
}

/// Places counted from the lowest die (1) among `size`, as the program's
/// position order numbers them for `@`.
pub(crate) fn in_position_order(
    places: RangeInclusive<i64>,
    size: i64,
    highest_first: bool,
) -> Vec<i64> {
    places
        .map(|p| match highest_first {
            true => size + 1 - p,
            false => p,
        })
        .collect()
}

/// The sum of the dice at `places` counted from the lowest die (1), for
/// `highest`, `lowest` and `middle`: turned into the program's position
/// order for [`ops::at`], the one picker.
fn from_lowest(
    places: RangeInclusive<i64>,
    pool: Pool,
    settings: &Settings,
    work: &mut Work,
) -> Result<Value, Fail> {
    let places = in_position_order(places, pool.len() as i64, settings.highest_first);
    ops::at(
        &Value::Sequence(places.into()),
        &Value::Pool(pool),
        settings.highest_first,
        work,
    )
}
