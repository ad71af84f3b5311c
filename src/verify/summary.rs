//! The verification page: `verify --write` records a passing run's summary
//! as a markdown page of the site, [`PAGE`] under `content/`, which is
//! committed and built like any page. No date and no timing: the same run
//! writes the same bytes.

use super::{sd, Outcome, Report};
use crate::error::{Error, Result};
use crate::output::files;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Where the page goes, under `content/`.
pub const PAGE: &str = "guide/verification.md";

/// The line that marks the page as ours: `--write` replaces a page that
/// has it, and refuses to touch one that does not.
pub const MARKER: &str =
    "# Written by `fairdice verify --simulate N --write`: run it again instead of editing.";

/// Write the page for `report` under `root/content/`; a usage error
/// ([`Error::Refused`]) when a page there was not written by `--write`.
pub fn write(root: &Path, report: &Report) -> Result<PathBuf> {
    let path = root.join("content").join(PAGE);
    match files::read_regular(&path, 1 << 20) {
        Ok(bytes) if !String::from_utf8_lossy(&bytes).contains(MARKER) => {
            return Err(Error::Refused(format!(
                "{}: not written by `fairdice verify --write` (its marker line is missing); \
                 move it away to let verify write the page",
                path.display()
            )))
        }
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
            return Err(Error::io(&path, err))
        }
        _ => {}
    }
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))?;
    }
    files::replace(&path, page(report).as_bytes()).map_err(|e| Error::io(&path, e))?;
    Ok(path)
}

/// The page's markdown.
pub fn page(report: &Report) -> String {
    let experiments: usize = report
        .scenarios
        .iter()
        .map(|s| {
            let mut labels: Vec<&str> = s.comparisons().iter().map(|c| &*c.experiment).collect();
            labels.dedup();
            labels.len()
        })
        .sum();
    let (trials, seed, figures) = (report.trials, report.seed, report.figures());
    let mut text = format!(
        "---\n{MARKER}\ntitle: Checked by simulation\nweight: 2\n\
         description: Every exact figure beside a seeded simulation of the procedure.\n---\n\
         # Checked by simulation\n\n\
         Every figure on this site is counted exactly. As a check on the program\n\
         itself, `fairdice verify` also plays every procedure many times over with\n\
         a seeded random generator, following the rules as a table would (roll and\n\
         add, reroll, break ties, riffle, race), and sets each exact probability\n\
         and mean beside what the simulation found.\n\n\
         The last verification played each of {experiments} procedures {trials} times\n\
         with seed {seed}, and compared {figures} exact figures with their simulated\n\
         values: every one was within its limit.\n\n\
         ## How to read it\n\n\
         For an event with exact chance $p$ seen $k$ times in $N$ trials, the\n\
         deviation is $|k - Np| / \\sqrt{{Np(1-p)}}$ standard deviations; for a\n\
         mean, the gap over its standard error. Each figure has a limit set so\n\
         that a correct program passes one of them, anywhere in the run, less\n\
         than once in a million runs (a bound on the tail shared out over every\n\
         figure). A wrong exact figure, or a simulator that breaks a rule, shows\n\
         up as a deviation beyond its limit.\n\n\
         | scenario | kind | figures | largest deviation | limit | where |\n\
         |---|---|---:|---:|---:|---|\n"
    );
    for checked in &report.scenarios {
        let link = format!("[{}](../{})", escape(&checked.title), checked.source);
        let row = match (&checked.outcome, checked.largest()) {
            (Outcome::Nothing(why), _) => {
                format!("| {link} | {} | 0 | | | {} |", checked.kind, escape(why))
            }
            (Outcome::Compared(_), None) => format!("| {link} | {} | 0 | | | |", checked.kind),
            (Outcome::Compared(all), Some(largest)) => format!(
                "| {link} | {} | {} | {} | {} | {} |",
                checked.kind,
                all.len(),
                sd(largest.deviation.deviations),
                sd(largest.deviation.limit),
                escape(&largest.what())
            ),
        };
        let _ = writeln!(text, "{row}");
    }
    let _ = write!(
        text,
        "\nTo run it again: `fairdice verify --simulate {trials} --seed {seed}`\n\
         prints the same figures on any machine.\n"
    );
    text
}

/// Text safe in a markdown table cell: no markup, no column breaks.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '|' | '[' | ']' | '*' | '_' | '`' | '<' | '>' | '{' | '}' | '$' | '#'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_cannot_carry_markup() {
        assert_eq!(escape("[5, 6] | *x*"), "\\[5, 6\\] \\| \\*x\\*");
        assert_eq!(escape("{{ value() }}"), "\\{\\{ value() \\}\\}");
    }
}
