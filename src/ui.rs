//! What the command line prints on stderr: errors, notes and the summary
//! line, with `--quiet` and `--verbose`, in colour only on a terminal.

use crate::build::Summary;
use crate::cache::Origin;
use crate::error::Error;
use crate::printable::printable;
use crate::shard::ShardSummary;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

/// How chatty to be and whether to colour.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ui {
    /// Errors only.
    pub quiet: bool,
    /// Per-scenario detail.
    pub verbose: bool,
    /// ANSI colours (stderr is a terminal and `NO_COLOR` is unset).
    pub colour: bool,
}

const RED: &str = "31;1";
const GREEN: &str = "32";
const DIM: &str = "2";
const YELLOW: &str = "33";

impl Ui {
    /// Settings from the flags; colour decided from the terminal.
    pub fn new(quiet: bool, verbose: bool) -> Ui {
        Ui {
            quiet,
            verbose: verbose && !quiet,
            colour: std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        }
    }

    /// `text` in colour, its own control characters shown escaped (see
    /// [`printable`]) so that only the colour codes reach the terminal.
    fn paint(&self, code: &str, text: &str) -> String {
        let text = printable(text);
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.into_owned()
        }
    }

    /// Every problem in `err`, one `error: ` line each (always shown).
    pub fn error(&self, err: &Error) {
        for line in error_lines(err) {
            eprintln!("{} {}", self.paint(RED, "error:"), printable(&line));
        }
    }

    /// Every problem in `err` as a `warning: ` line (hidden by `--quiet`).
    pub fn warning(&self, err: &Error) {
        if !self.quiet {
            for line in error_lines(err) {
                eprintln!("{} {}", self.paint(YELLOW, "warning:"), printable(&line));
            }
        }
    }

    /// A line of normal output (hidden by `--quiet`).
    pub fn note(&self, text: &str) {
        if !self.quiet {
            eprintln!("{}", printable(text));
        }
    }

    /// A line on stderr even with `--quiet`, such as a file a check found
    /// stale.
    pub fn always(&self, text: &str) {
        eprintln!("{}", printable(text));
    }

    /// Results asked for, on stdout (never hidden), as written: `text`
    /// ends with its own line break.
    pub fn results(&self, text: &str) {
        print!("{}", printable(text));
    }

    /// A line shown only with `--verbose`.
    pub fn detail(&self, text: &str) {
        if self.verbose {
            eprintln!("{}", self.paint(DIM, text));
        }
    }

    /// The closing line of a build or check, after verbose detail.
    pub fn summary(&self, verb: &str, out: &Path, summary: &Summary) {
        self.timings(&summary.timings);
        if !self.quiet {
            eprintln!("{}", self.paint(GREEN, &summary_line(verb, out, summary)));
        }
    }

    /// The closing line of `build --shard I/N`, after verbose detail: it
    /// says that no site was written, and what to run next.
    pub fn shard_summary(&self, cache: &Path, summary: &ShardSummary) {
        self.timings(&summary.timings);
        if !self.quiet {
            let line = format!(
                "shard {}: {} of {} ({} computed, {} cached) into {} in {:.2} s; \
                 no site written: merge the shards' caches, then run \
                 `fairdice build --require-cached`",
                summary.shard,
                summary.timings.len(),
                counted(summary.scenarios, "scenario"),
                summary.count(Origin::Computed),
                summary.count(Origin::Cached),
                cache.display(),
                summary.elapsed.as_secs_f64()
            );
            eprintln!("{}", self.paint(GREEN, &line));
        }
    }

    /// Per scenario, with `--verbose`: computed or cached, and how long.
    fn timings(&self, timings: &[(String, Origin, Duration)]) {
        for (source, origin, elapsed) in timings {
            let how = match origin {
                Origin::Computed => "computed",
                Origin::Cached => "cached",
            };
            self.detail(&format!(
                "  {source}: {how} in {:.3} s",
                elapsed.as_secs_f64()
            ));
        }
    }
}

/// `built site: 4 pages, 1 scenario (1 computed, 0 cached), 75 files in 0.12 s`.
pub(crate) fn summary_line(verb: &str, out: &Path, summary: &Summary) -> String {
    format!(
        "{verb} {}: {}, {} ({} computed, {} cached), {}{} in {:.2} s",
        out.display(),
        counted(summary.pages, "page"),
        counted(summary.scenarios, "scenario"),
        summary.computed,
        summary.cached,
        counted(summary.files, "file"),
        if verb == "built" && !summary.written {
            " (unchanged)"
        } else {
            ""
        },
        summary.elapsed.as_secs_f64()
    )
}

/// `1 page`, `2 pages`.
fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The lines of an error, flattening lists of errors.
pub fn error_lines(err: &Error) -> Vec<String> {
    match err {
        Error::Many(errors) => errors.iter().flat_map(error_lines).collect(),
        other => other.to_string().lines().map(str::to_string).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn counts_in_the_summary_agree_with_their_nouns() {
        let summary = |pages, scenarios, files| Summary {
            pages,
            scenarios,
            computed: scenarios,
            cached: 0,
            files,
            written: true,
            timings: Vec::new(),
            elapsed: Duration::from_millis(120),
            warnings: Vec::new(),
            translations: Vec::new(),
        };
        assert_eq!(
            summary_line("built", Path::new("site"), &summary(1, 1, 1)),
            "built site: 1 page, 1 scenario (1 computed, 0 cached), 1 file in 0.12 s"
        );
        assert_eq!(
            summary_line("checked", Path::new("site"), &summary(0, 2, 75)),
            "checked site: 0 pages, 2 scenarios (2 computed, 0 cached), 75 files in 0.12 s"
        );
    }
}
