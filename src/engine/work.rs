//! The engine's work counted in word operations, in tests only: the
//! prices of `lang::dice::check` are held to these counts (within 10x both
//! ways), so an estimate that drifts from what the engine does fails a
//! test, not a reader who was refused a quick roll. Outside tests the
//! [`tally!`] calls compile to nothing, in the browser engines too.

#[cfg(test)]
use num_bigint::BigUint;
#[cfg(test)]
use std::cell::Cell;

#[cfg(test)]
thread_local! {
    /// Word operations counted on this thread (each test has its own).
    static WORK: Cell<f64> = const { Cell::new(0.0) };
}

/// Count `ops` word operations (tests only; see the module).
macro_rules! tally {
    ($ops:expr) => {
        #[cfg(test)]
        $crate::engine::work::add($ops)
    };
}
pub(crate) use tally;

#[cfg(test)]
pub(crate) fn add(ops: f64) {
    WORK.with(|work| work.set(work.get() + ops));
}

/// `f`'s result and the word operations it counted.
#[cfg(test)]
pub(crate) fn counted<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let before = WORK.with(Cell::get);
    let result = f();
    (result, WORK.with(Cell::get) - before)
}

/// The words of a count, plus one for the loop around it (as the prices
/// count them).
#[cfg(test)]
pub(crate) fn words(count: &BigUint) -> f64 {
    count.bits() as f64 / 64.0 + 1.0
}

/// The words of the largest of `counts`.
#[cfg(test)]
pub(crate) fn widest<'a>(counts: impl IntoIterator<Item = &'a BigUint>) -> f64 {
    counts.into_iter().map(words).fold(1.0, f64::max)
}

/// A count made anew (allocated and set) weighs as this many word
/// operations (the prices' factor).
#[cfg(test)]
pub(crate) const NEW: f64 = 20.0;

/// A sorted-map entry weighs as a few vector slots (the prices' factor).
#[cfg(test)]
pub(crate) const MAP: f64 = 3.0;
