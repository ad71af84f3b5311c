//! Tables for a terminal: the layout's [`Table`] blocks as aligned plain
//! text, so a command can print results without a browser (`fairdice eval`
//! does; any command showing a table should call [`render_table`]).
//!
//! Each column shows what a reader sees on the page (the rounded form); a
//! column whose exact values differ (fractions, long counts) gets an exact
//! column beside it. When the table is wider than the terminal, exact
//! columns are left out, widest first, and a closing line says which, so
//! nothing is ever cut in the middle of a number.

use crate::layout::blocks::{Block, Cell, Table};
use std::fmt::Write as _;

/// Columns are separated by this many spaces.
const GAP: usize = 2;

/// The width to lay tables out for: `COLUMNS` when set, else the width of
/// the terminal on stdout, else 100 (output to a file or a pipe).
pub fn width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|columns| columns.trim().parse().ok())
        .filter(|&columns: &usize| columns > 0)
        .or_else(|| {
            console::Term::stdout()
                .size_checked()
                .map(|(_, columns)| usize::from(columns))
        })
        .unwrap_or(100)
}

/// `table` as lines of text at most `width` characters wide where the
/// numbers allow: its caption and id, a header, a rule and one line per
/// row, ending with a newline.
pub(crate) fn render_table(table: &Table, width: usize) -> String {
    let mut columns = columns(table);
    let mut dropped = Vec::new();
    while total_width(&columns) > width {
        let widest_exact = columns
            .iter()
            .enumerate()
            .filter(|(_, column)| column.exact_of.is_some())
            .max_by_key(|(at, column)| (column.width, std::cmp::Reverse(*at)))
            .map(|(at, _)| at);
        let Some(at) = widest_exact else { break };
        let column = columns.remove(at);
        dropped.push(table.columns[column.exact_of.unwrap_or(0)].clone());
    }
    let mut out = format!("{} [{}]\n", table.caption, table.id);
    let line = |cells: Vec<(&str, &Column)>| {
        let mut text = String::new();
        for (at, (cell, column)) in cells.iter().enumerate() {
            let pad = column.width.saturating_sub(cell.chars().count());
            let last = at + 1 == cells.len();
            if column.right {
                text.push_str(&" ".repeat(pad));
                text.push_str(cell);
            } else {
                text.push_str(cell);
                if !last {
                    text.push_str(&" ".repeat(pad));
                }
            }
            if !last {
                text.push_str(&" ".repeat(GAP));
            }
        }
        text.trim_end().to_string() + "\n"
    };
    out.push_str(&line(
        columns.iter().map(|c| (c.header.as_str(), c)).collect(),
    ));
    out.push_str(&line(
        columns.iter().map(|c| (c.rule.as_str(), c)).collect(),
    ));
    for row in 0..table.rows.len() {
        out.push_str(&line(
            columns.iter().map(|c| (c.cells[row].as_str(), c)).collect(),
        ));
    }
    if !dropped.is_empty() {
        let _ = writeln!(
            out,
            "(exact {} left out to fit {width} columns: see --json or the CSV)",
            dropped
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out
}

/// A page's blocks in order: headings, sentences, key figures and tables
/// (charts are left out: their data is in the tables shown).
pub fn render_blocks(blocks: &[Block], width: usize) -> String {
    let parts: Vec<String> = blocks
        .iter()
        .filter_map(|block| match block {
            Block::Heading { text } => Some(format!("== {text} ==\n")),
            Block::Text { text } | Block::Verdict { text } => Some(format!("{text}\n")),
            Block::Code { caption, text } => Some(format!("{caption}:\n{}\n", text.trim_end())),
            Block::ScenarioLink {
                before,
                scenario,
                after,
                ..
            } => Some(format!("{before}{scenario}{after}\n")),
            Block::Facts { items } => Some(render_facts(items)),
            Block::Table(table) => Some(render_table(table, width)),
            Block::Chart(_) => None,
        })
        .collect();
    parts.join("\n")
}

/// Key figures as `label: value` lines, labels aligned.
pub(crate) fn render_facts(items: &[(String, Cell)]) -> String {
    let label_width = items
        .iter()
        .map(|(label, _)| label.chars().count())
        .max()
        .unwrap_or(0);
    items
        .iter()
        .map(|(label, value)| {
            let pad = label_width - label.chars().count();
            format!("{label}:{} {}\n", " ".repeat(pad), value.shown)
        })
        .collect()
}

/// One printed column: a table column's shown values, or its exact values.
struct Column {
    header: String,
    rule: String,
    cells: Vec<String>,
    width: usize,
    /// Numbers are right-aligned, text left-aligned.
    right: bool,
    /// For an exact column, the table column it belongs to.
    exact_of: Option<usize>,
}

fn columns(table: &Table) -> Vec<Column> {
    let mut out = Vec::new();
    for (at, header) in table.columns.iter().enumerate() {
        let cells: Vec<&Cell> = table
            .rows
            .iter()
            .map(|row| row.get(at).unwrap_or(&EMPTY))
            .collect();
        let shown = cells.iter().map(|cell| cell.shown.clone()).collect();
        out.push(column(header.clone(), shown, None));
        if cells.iter().any(|cell| cell.exact != cell.shown) {
            let exact = cells.iter().map(|cell| cell.exact.clone()).collect();
            out.push(column(format!("{header} (exact)"), exact, Some(at)));
        }
    }
    out
}

static EMPTY: Cell = Cell {
    shown: String::new(),
    exact: String::new(),
};

fn column(header: String, cells: Vec<String>, exact_of: Option<usize>) -> Column {
    let width = cells
        .iter()
        .chain(std::iter::once(&header))
        .map(|text| text.chars().count())
        .max()
        .unwrap_or(0);
    let right = cells.iter().any(|cell| numeric(cell))
        && cells.iter().all(|cell| numeric(cell) || blank(cell));
    Column {
        rule: "-".repeat(width),
        header,
        cells,
        width,
        right,
        exact_of,
    }
}

/// A number as the layout shows one: `12`, `-0.5`, `−1/3`, `0.25 %`, `1.2e+30`.
fn numeric(text: &str) -> bool {
    let text = text.trim_start_matches(['-', '−', '+', '<', '>', '≈', '~', ' ']);
    text.starts_with(|c: char| c.is_ascii_digit() || c == '.')
}

/// Cells that say "no value".
fn blank(text: &str) -> bool {
    matches!(text.trim(), "" | "—" | "-" | "n/a")
}

fn total_width(columns: &[Column]) -> usize {
    columns.iter().map(|c| c.width).sum::<usize>() + GAP * columns.len().saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(shown: &str, exact: &str) -> Cell {
        Cell {
            shown: shown.into(),
            exact: exact.into(),
        }
    }

    fn sample() -> Table {
        Table {
            id: "bins-3".into(),
            caption: "Bins of 3d6 mod 3".into(),
            columns: vec!["bin".into(), "ways".into(), "probability".into()],
            rows: vec![
                vec![Cell::plain("0"), Cell::plain("72"), cell("0.3333", "1/3")],
                vec![Cell::plain("1"), Cell::plain("72"), cell("0.3333", "1/3")],
                vec![Cell::plain("10"), Cell::plain("7"), cell("0.0324", "7/216")],
            ],
        }
    }

    #[test]
    fn numbers_align_right_with_their_exact_forms_beside_them() {
        assert_eq!(
            render_table(&sample(), 80),
            "Bins of 3d6 mod 3 [bins-3]\n\
             bin  ways  probability  probability (exact)\n\
             ---  ----  -----------  -------------------\n  \
             0    72       0.3333                  1/3\n  \
             1    72       0.3333                  1/3\n \
             10     7       0.0324                7/216\n"
        );
    }

    #[test]
    fn exact_columns_are_left_out_when_the_table_is_too_wide_never_cut() {
        let text = render_table(&sample(), 30);
        assert!(!text.contains("(exact)"), "{text}");
        assert!(text.contains(" 0.0324\n"), "{text}");
        assert!(
            text.ends_with(
                "(exact `probability` left out to fit 30 columns: see --json or the CSV)\n"
            ),
            "{text}"
        );
        // Too narrow even for the shown values: every value is still whole.
        let narrow = render_table(&sample(), 5);
        assert!(narrow.contains("0.0324"), "{narrow}");
    }

    #[test]
    fn text_aligns_left_and_dashes_count_as_numbers_missing() {
        let table = Table {
            id: "t".into(),
            caption: "c".into(),
            columns: vec!["scheme".into(), "rolls".into()],
            rows: vec![
                vec![Cell::plain("one-face"), Cell::plain("—")],
                vec![Cell::plain("mod"), cell("1.5", "3/2")],
            ],
        };
        let text = render_table(&table, 80);
        assert!(
            text.contains("\nmod         1.5            3/2\n"),
            "{text}"
        );
        assert!(
            text.contains("\none-face      —              —\n"),
            "{text}"
        );
    }

    #[test]
    fn facts_align_their_labels() {
        let items = vec![
            ("lists".to_string(), Cell::plain("66")),
            ("closest rival".to_string(), Cell::plain("6 7")),
        ];
        assert_eq!(
            render_facts(&items),
            "lists:         66\nclosest rival: 6 7\n"
        );
    }
}
