//! A progress bar that shows itself only when work outlasts a second, and
//! only on a terminal: quick builds stay quiet, and logs stay clean.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::mpsc;
use std::time::Duration;

/// How long work may run before a bar appears.
pub const DELAY: Duration = Duration::from_secs(1);

/// Run `work` with a bar of `len` steps labelled `label`; `work` receives
/// the bar to advance. With `enabled` false, or when stderr is not a
/// terminal, nothing is ever drawn.
pub fn with_bar<T>(
    enabled: bool,
    len: usize,
    label: &str,
    work: impl FnOnce(&ProgressBar) -> T,
) -> T {
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} {bar:30} {pos}/{len} {elapsed}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_message(label.to_string());
    if !enabled || !std::io::stderr().is_terminal() {
        return work(&bar);
    }
    let (done, finished) = mpsc::channel::<()>();
    let result = std::thread::scope(|scope| {
        let shown = bar.clone();
        scope.spawn(move || {
            // Nothing arrives on this channel: it disconnects when the
            // work ends, before or after the delay.
            if let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(DELAY) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(120));
            }
        });
        let result = work(&bar);
        drop(done);
        result
    });
    bar.finish_and_clear();
    result
}
