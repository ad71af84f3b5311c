//! The verification page: `verify --write` records a passing run's summary
//! as a markdown page of the site, [`PAGE`] under `content/`, which is
//! committed and built like any page. No date and no timing: the same run
//! writes the same bytes.

use super::{sd, Report};
use crate::error::{Error, Result};
use crate::layout::format::integer;
use crate::output::files;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Where the page goes, under `content/`.
pub const PAGE: &str = "guide/verification.md";

/// The line that marks the page as ours: `--write` replaces a page that
/// has it, and refuses to touch one that does not.
pub(crate) const MARKER: &str =
    "# Written by `fairdice verify --simulate N --write`: run it again instead of editing.";

/// Write the page for `report` under `root/content/`; a usage error
/// ([`Error::File`]) when a page there was not written by `--write`.
pub fn write(root: &Path, report: &Report) -> Result<PathBuf> {
    let path = root.join("content").join(PAGE);
    match files::read_regular(&path, 1 << 20) {
        Ok(bytes) if !String::from_utf8_lossy(&bytes).contains(MARKER) => {
            return Err(Error::file(
                path.display(),
                "not written by `fairdice verify --write` (its marker line is missing); \
                 move it away to let verify write the page",
            ))
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
    let experiments: usize = report.scenarios.iter().map(|s| s.experiments).sum();
    let (trials, seed, figures) = (report.trials, report.seed, report.figures());
    // Figures grouped as every page groups them; the command and the seed
    // are typed, so they keep their plain digits.
    let (trials_shown, figures_shown) = (integer(trials), integer(figures));
    let approximations = report.approximations();
    let mut text = format!(
        "---\n{MARKER}\ntitle: Checked by simulation\nweight: 2\n\
         description: Every exact figure beside a seeded simulation of the procedure.\n---\n\
         # Checked by simulation\n\n\
         Every figure on this site is counted exactly. As a check on the program\n\
         itself, `fairdice verify` also plays every procedure many times over with\n\
         a seeded random generator, following the rules as a table would (roll and\n\
         add, reroll, explode, keep the best, break ties, riffle, race; for observed\n\
         rolls and games, fair dice and fair games of the same size), and sets\n\
         each exact probability and mean beside what the simulation found.\n\n\
         The last verification played each of {experiments} procedures {trials_shown} times\n\
         with seed {seed}, and compared {figures_shown} exact figures with their simulated\n\
         values: every one was within its limit. It also measured {approximations}\n\
         approximate figures, below.\n\n\
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
        let row = match checked.largest() {
            None => format!("| {} | {} | 0 | | | |", link(checked), checked.kind),
            Some(largest) => format!(
                "| {} | {} | {} | {} | {} | {} |",
                link(checked),
                checked.kind,
                integer(checked.exact().count()),
                sd(largest.deviation.deviations),
                sd(largest.deviation.limit),
                escape(&largest.what())
            ),
        };
        let _ = writeln!(text, "{row}");
    }
    approximations_section(&mut text, report);
    not_replayed_section(&mut text, report);
    let _ = write!(
        text,
        "\nTo run it again: `fairdice verify --simulate {trials} --seed {seed}`\n\
         prints the same figures on any machine.\n"
    );
    text
}

/// The approximate figures, each beside its simulation: how far the
/// asymptotic p-values, the tests' nominal sizes and the power tables are
/// from the truth for these data.
fn approximations_section(text: &mut String, report: &Report) {
    let _ = write!(
        text,
        "\n## Approximations\n\n\
         Some figures are approximations by nature: the chi-square and G-test\n\
         p-values come from the chi-square distribution, which the statistic\n\
         only approaches as the counts grow; a test at 5 % rejects a fair die\n\
         about 5 % of the time; where a die's power table is too costly to sum\n\
         over every way the rolls can fall, its power comes from the chi-square\n\
         distribution of the faces not favoured. (A power summed over every\n\
         outcome is checked above, as an exact figure is.) The simulation plays\n\
         fair dice and fair games of the observed size (and biased ones of the\n\
         size the power table gives) and measures each one. A gap here is the\n\
         approximation's, not an error,\n\
         and never fails the run; a gap beyond the limit says the approximation\n\
         is off by more than chance for data of this size.\n\n\
         | scenario | figure | approximation | simulated | deviation | beyond chance |\n\
         |---|---|---:|---:|---:|---|\n"
    );
    for checked in &report.scenarios {
        for approximation in checked.approximations() {
            let _ = writeln!(
                text,
                "| {} | {} | {:.4} | {:.4} | {} | {} |",
                link(checked),
                escape(&approximation.what()),
                approximation.exact,
                approximation.simulated,
                sd(approximation.deviation.deviations),
                if approximation.deviation.beyond() {
                    "yes"
                } else {
                    "no"
                }
            );
        }
    }
}

/// The figures no experiment replays, each with the reason.
fn not_replayed_section(text: &mut String, report: &Report) {
    let _ = write!(
        text,
        "\n## Not replayed\n\n\
         Figures that a simulation cannot check, and why:\n\n"
    );
    for checked in &report.scenarios {
        for why in &checked.not_replayed {
            let _ = writeln!(text, "- {}: {}", link(checked), escape(why));
        }
    }
}

/// A link to the scenario's page, from the verification page.
fn link(checked: &super::Checked) -> String {
    format!("[{}](../{})", escape(&checked.title), checked.source)
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
