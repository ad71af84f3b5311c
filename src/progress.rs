//! The one owner of progress bars. A [`Progress`] is made once at the edge
//! (from `--quiet` and whether stderr is a terminal) and handed down to
//! every piece of long work, analyses included, so one switch silences
//! them all and bars drawn at once stack instead of overwriting each other.
//!
//! Bars appear only when work outlasts [`DELAY`]: quick builds stay quiet.
//!
//! In the reader's browser (feature `browser`, the engine in `wasm/`)
//! nothing is drawn and no clock may be read (wasm32 has none, and an
//! indicatif bar reads one as it is made): [`browser`] stands in.

#[cfg(feature = "browser")]
pub use browser::{Progress, ProgressBar};
#[cfg(not(feature = "browser"))]
pub use indicatif::ProgressBar;
#[cfg(not(feature = "browser"))]
use indicatif::{MultiProgress, ProgressDrawTarget, ProgressStyle};
#[cfg(not(feature = "browser"))]
use std::io::IsTerminal;
#[cfg(not(feature = "browser"))]
use std::sync::mpsc;
use std::time::Duration;

/// How long work may run before a bar appears.
pub const DELAY: Duration = Duration::from_secs(1);

/// Where progress is drawn, or nowhere.
#[cfg(not(feature = "browser"))]
#[derive(Clone, Default)]
pub struct Progress {
    /// `None` when silenced.
    bars: Option<MultiProgress>,
}

#[cfg(not(feature = "browser"))]
impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("shown", &self.bars.is_some())
            .finish()
    }
}

#[cfg(not(feature = "browser"))]
impl Progress {
    /// Bars on stderr when `wanted` (no `--quiet`) and stderr is a terminal.
    pub fn new(wanted: bool) -> Progress {
        if wanted && std::io::stderr().is_terminal() {
            Progress {
                bars: Some(MultiProgress::with_draw_target(ProgressDrawTarget::stderr())),
            }
        } else {
            Progress::hidden()
        }
    }

    /// Nothing is ever drawn (tests, `--quiet`, logs).
    pub fn hidden() -> Progress {
        Progress { bars: None }
    }

    /// Whether anything will be drawn.
    #[cfg(test)]
    pub(crate) fn is_shown(&self) -> bool {
        self.bars.is_some()
    }

    /// Run `work` with a bar of `len` steps labelled `label`; `work`
    /// receives the bar to advance. It is drawn only once `work` has run
    /// for [`DELAY`].
    pub fn with_bar<T>(&self, len: usize, label: &str, work: impl FnOnce(&ProgressBar) -> T) -> T {
        if self.bars.is_none() {
            return work(&ProgressBar::hidden());
        }
        let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} {bar:30} {pos}/{len} {elapsed}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar.set_message(label.to_string());
        let result = self.after_delay(&bar, || work(&bar));
        bar.finish_and_clear();
        result
    }

    /// A spinner for work of unknown length, labelled `label`; its message
    /// says how far the work is. Drawn once it has spun for [`DELAY`];
    /// call `finish_and_clear` when done. The label is user text (a roll's
    /// name or expression such as `d{1,2}`), so it goes in as the bar's
    /// prefix, never into the template, where `{` and `}` are syntax.
    pub fn with_spinner<T>(&self, label: &str, work: impl FnOnce(&ProgressBar) -> T) -> T {
        if self.bars.is_none() {
            return work(&ProgressBar::hidden());
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix} {msg} [{elapsed}]")
                .expect("valid template"),
        );
        bar.set_prefix(label.to_string());
        let result = self.after_delay(&bar, || work(&bar));
        bar.finish_and_clear();
        result
    }

    /// Run `work`, showing `bar` among the others if it outlasts [`DELAY`].
    fn after_delay<T>(&self, bar: &ProgressBar, work: impl FnOnce() -> T) -> T {
        let Some(bars) = &self.bars else {
            return work();
        };
        let (done, finished) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            scope.spawn(move || {
                // Nothing arrives on this channel: it disconnects when the
                // work ends, before or after the delay.
                if let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(DELAY) {
                    let shown = bars.add(bar.clone());
                    shown.enable_steady_tick(Duration::from_millis(120));
                }
            });
            let result = work();
            drop(done);
            result
        })
    }
}

/// The same calls, drawing nothing and reading no clock.
#[cfg(feature = "browser")]
mod browser {
    use std::sync::atomic::{AtomicU64, Ordering};

    /// Progress that is never shown.
    #[derive(Clone, Debug, Default)]
    pub struct Progress;

    impl Progress {
        pub fn new(_wanted: bool) -> Progress {
            Progress
        }
        pub fn hidden() -> Progress {
            Progress
        }
        pub fn is_shown(&self) -> bool {
            false
        }
        pub fn with_bar<T>(
            &self,
            _len: usize,
            _label: &str,
            work: impl FnOnce(&ProgressBar) -> T,
        ) -> T {
            work(&ProgressBar::default())
        }
        pub fn with_spinner<T>(&self, _label: &str, work: impl FnOnce(&ProgressBar) -> T) -> T {
            work(&ProgressBar::default())
        }
    }

    /// A bar that only counts: the calls work makes on an indicatif bar.
    #[derive(Debug, Default)]
    pub struct ProgressBar {
        position: AtomicU64,
    }

    impl ProgressBar {
        pub fn inc(&self, delta: u64) {
            self.position.fetch_add(delta, Ordering::Relaxed);
        }
        pub fn position(&self) -> u64 {
            self.position.load(Ordering::Relaxed)
        }
        pub fn set_message(&self, _message: impl Into<std::borrow::Cow<'static, str>>) {}
        pub fn finish_and_clear(&self) {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_progress_runs_the_work_and_draws_nothing() {
        let progress = Progress::hidden();
        assert!(!progress.is_shown());
        let counted = progress.with_bar(3, "work", |bar| {
            bar.inc(3);
            bar.position()
        });
        assert_eq!(counted, 3);
        assert_eq!(progress.with_spinner("race", |_| 7), 7);
    }

    /// Labels are user text: roll names and expressions with braces once
    /// panicked as a progress template ("d{1, 2, 3}", "x }").
    #[test]
    fn labels_with_braces_are_text_not_templates() {
        for label in ["d{1, 2, 3}", "x }", "{", "{{msg}}", "{spinner:", "}{"] {
            let progress = Progress::hidden();
            assert_eq!(progress.with_spinner(label, |_| 1), 1);
            assert_eq!(progress.with_bar(2, label, |_| 2), 2);
        }
    }

    #[test]
    fn a_quiet_request_is_never_shown() {
        assert!(!Progress::new(false).is_shown());
    }
}
