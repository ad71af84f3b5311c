//! The allocator's guard: the watchdog samples resident memory every tick,
//! but one request for more than the whole budget (a dense table of 2^31
//! counts, say) would fail at once, and Rust aborts on a failed allocation
//! without a word. While the watchdog is armed, such a request stops the
//! process with the watchdog's own message and exit code instead, before
//! anything is allocated. It is the second guard behind every estimate,
//! wherever the allocation is made.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The largest single request allowed now: the armed watchdog's memory
/// limit, or no limit.
static MOST_AT_ONCE: AtomicUsize = AtomicUsize::new(usize::MAX);

/// Hold single requests to `bytes` (the armed budget), or lift the limit
/// with `None`.
pub(super) fn hold_to(bytes: Option<f64>) {
    let most = bytes.map_or(usize::MAX, |b| b.clamp(0.0, usize::MAX as f64) as usize);
    MOST_AT_ONCE.store(most, Ordering::Relaxed);
}

/// The system's allocator with the guard: `#[global_allocator]` in the
/// `fairdice` binary.
pub struct Guarded;

impl Guarded {
    fn check(size: usize) {
        if size > MOST_AT_ONCE.load(Ordering::Relaxed) {
            // Lifted first, so the message itself can be written.
            hold_to(None);
            super::stop_for_request(size as f64);
        }
    }
}

// SAFETY: every call is passed to the system allocator unchanged; the guard
// only ever stops the process before a call is made.
unsafe impl GlobalAlloc for Guarded {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::check(layout.size());
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::check(layout.size());
        System.alloc_zeroed(layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::check(new_size);
        System.realloc(ptr, layout, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{watch, Budget};
    use std::process::Command;

    const CHILD: &str = "FAIRDICE_TEST_ALLOCATOR_CHILD";

    /// Run in a child copy of the test binary (the stop ends its process):
    /// armed, a request within the budget is served and one past it stops
    /// the process with the watchdog's message; disarmed, nothing is held.
    #[test]
    fn a_request_past_the_armed_budget_stops_the_process_with_a_message() {
        if std::env::var_os(CHILD).is_some() {
            let within = Layout::from_size_align(1 << 20, 8).unwrap();
            let past = Layout::from_size_align(1 << 40, 8).unwrap();
            unsafe {
                // Disarmed: not held (only checked, never made).
                assert!(MOST_AT_ONCE.load(Ordering::Relaxed) == usize::MAX);
                let _guard = watch(&Budget::new(1.0), "the test");
                let served = Guarded.alloc(within);
                assert!(!served.is_null());
                Guarded.dealloc(served, within);
                Guarded.alloc(past);
            }
            unreachable!("the request past the budget was served");
        }
        let name = "limits::allocator::tests::a_request_past_the_armed_budget_stops_the_process_with_a_message";
        let out = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", name, "--nocapture", "--test-threads=1"])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("error: the test asked at once for more than ")
                && stderr.contains("was stopped"),
            "{stderr}"
        );
    }
}
