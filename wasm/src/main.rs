//! fairdice's engine in the reader's browser: the calculators of
//! `fairdice::calculator` (what-if forms and the playground), the
//! same code the build runs, behind four exported functions. The page's
//! script writes a request (JSON) into memory it asked for with
//! `fairdice_alloc`, calls `fairdice_call`, and reads the response (JSON)
//! at `fairdice_output`; it computes nothing itself.

#![no_main]

use fairdice::calculator::{self, Response};
use std::sync::Mutex;

/// The last response, or, while a call runs, the message the page shows
/// if it traps. (A panic traps at once: the module is built with
/// `-Cpanic=immediate-abort`, which leaves out the code that would format
/// a panic's message; see scripts/build-wasm.sh.)
static OUTPUT: Mutex<Vec<u8>> = Mutex::new(Vec::new());

fn set_output(bytes: Vec<u8>) -> usize {
    let len = bytes.len();
    *OUTPUT.lock().unwrap_or_else(|e| e.into_inner()) = bytes;
    len
}

fn refused(message: String) -> Vec<u8> {
    Response::Refused { key: None, message }.to_json().into_bytes()
}

/// Room for a request of `len` bytes, handed to [`fairdice_call`].
#[no_mangle]
pub extern "C" fn fairdice_alloc(len: usize) -> *mut u8 {
    let mut bytes = Vec::<u8>::with_capacity(len.max(1));
    let at = bytes.as_mut_ptr();
    std::mem::forget(bytes);
    at
}

/// Answer the request of `len` bytes at `at` (from [`fairdice_alloc`],
/// freed here); returns the length of the response at [`fairdice_output`].
///
/// # Safety
/// `at` must come from `fairdice_alloc(len)` and hold `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn fairdice_call(at: *mut u8, len: usize) -> usize {
    set_output(refused(
        "internal error in fairdice: the computation stopped (a bug: please report \
         these values)"
            .to_string(),
    ));
    // SAFETY: allocated by fairdice_alloc with capacity max(len, 1).
    let bytes = unsafe { Vec::from_raw_parts(at, len, len.max(1)) };
    let response = match std::str::from_utf8(&bytes) {
        Ok(json) => match calculator::read_call(json) {
            Ok(call) => calculator::answer(&call).to_json().into_bytes(),
            Err(message) => refused(message),
        },
        Err(_) => refused("a malformed request: not UTF-8".into()),
    };
    set_output(response)
}

/// Where the last response is.
#[no_mangle]
pub extern "C" fn fairdice_output() -> *const u8 {
    OUTPUT.lock().unwrap_or_else(|e| e.into_inner()).as_ptr()
}

/// The length of the last response: what [`fairdice_call`] returned, or
/// after a trap, the length of the message left for it.
#[no_mangle]
pub extern "C" fn fairdice_output_len() -> usize {
    OUTPUT.lock().unwrap_or_else(|e| e.into_inner()).len()
}
