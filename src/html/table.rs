//! A table as HTML: summarised when long, numeric columns aligned, exact
//! fractions behind a toggle, and a link to its CSV.

use super::escape;
use crate::layout::blocks::{Cell, Table};
use std::fmt::Write;

/// Tables longer than this scroll in a box of their own on screen.
const LONG_TABLE: usize = 40;
/// Tables whose rows are wider than this many characters (see
/// [`print_width`]) print on a landscape page in smaller type: a portrait
/// A4 page holds about 120 characters of 8 pt table text.
const WIDE_TABLE: usize = 110;
/// Past this many rows a table shows its first and last rows, and the
/// rest is in its CSV.
const MAX_INLINE_ROWS: usize = 2000;
/// Rows kept at each end of a table past [`MAX_INLINE_ROWS`].
const SUMMARY_EDGE: usize = 100;

/// Where a table's CSV is: a file beside the page, or (in a document that
/// stands alone) the data itself in a `data:` address with a file name to
/// save it as.
pub struct CsvLink {
    pub href: String,
    pub download: Option<String>,
}

/// The words a table shows around its figures, in the page's language.
#[derive(Debug, Clone, Copy)]
pub struct TableWords<'a> {
    /// The label of the exact fractions' toggle.
    pub show_exact: &'a str,
    /// The text of the link to the CSV.
    pub csv_link: &'a str,
}

impl TableWords<'static> {
    /// The words of an English page.
    pub const ENGLISH: TableWords<'static> = TableWords {
        show_exact: "Show exact fractions",
        csv_link: "CSV with exact values and decimals",
    };
}

/// `table` as HTML, linking its CSV at `csv`.
pub fn table(table: &Table, csv: &CsvLink) -> String {
    table_in(table, csv, TableWords::ENGLISH)
}

/// `table` as HTML with `words` around it, linking its CSV at `csv`.
pub fn table_in(table: &Table, csv: &CsvLink, words: TableWords) -> String {
    let total = table.rows.len();
    let (head, tail) = if total <= MAX_INLINE_ROWS {
        (&table.rows[..], &table.rows[..0])
    } else {
        (
            &table.rows[..SUMMARY_EDGE],
            &table.rows[total - SUMMARY_EDGE..],
        )
    };
    let omitted = total - head.len() - tail.len();
    let numeric: Vec<bool> = (0..table.columns.len())
        .map(|i| {
            table
                .rows
                .iter()
                .all(|row| row.get(i).is_some_and(numeric_cell))
        })
        .collect();
    let id = escape(&table.id);
    let wide = if print_width(table) > WIDE_TABLE {
        " wide"
    } else {
        ""
    };
    let mut out = format!("<div class=\"table-block{wide}\" id=\"table-{id}\">\n");
    let _ = write!(
        out,
        "<p class=\"table-caption\" id=\"caption-{id}\">{}",
        escape(&table.caption)
    );
    if omitted > 0 {
        let _ = write!(
            out,
            " ({total} rows: the first and last {} shown, every row in the CSV)",
            head.len()
        );
    }
    out.push_str("</p>\n");
    if table.rows.iter().flatten().any(|c| c.shown != c.exact) {
        let _ = write!(
            out,
            "<label class=\"exact-label\"><input type=\"checkbox\" class=\"exact-toggle\">{}</label>",
            escape(words.show_exact)
        );
    }
    let long = if total > LONG_TABLE { " long" } else { "" };
    let _ = write!(
        out,
        "\n<section class=\"table-wrap{long}\" tabindex=\"0\">\n\
         <table aria-labelledby=\"caption-{id}\">\n<thead><tr>"
    );
    for (column, &num) in table.columns.iter().zip(&numeric) {
        let class = if num { " class=\"num\"" } else { "" };
        let _ = write!(out, "<th scope=\"col\"{class}>{}</th>", escape(column));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    let distribution = distribution_column(table);
    rows(&mut out, head, &numeric, distribution);
    if omitted > 0 {
        let _ = writeln!(
            out,
            "<tr class=\"omitted\"><td colspan=\"{}\">{omitted} more rows in the CSV</td></tr>",
            table.columns.len()
        );
        rows(&mut out, tail, &numeric, distribution);
    }
    let _ = write!(
        out,
        "\n</tbody>\n</table>\n</section>\n<p class=\"table-links\"><a href=\"{}\"",
        escape(&csv.href)
    );
    if let Some(download) = &csv.download {
        let _ = write!(out, " download=\"{}\"", escape(download));
    }
    let _ = write!(out, ">{}</a></p>\n</div>\n", escape(words.csv_link));
    out
}

/// Table rows, each cell showing its rounded value with the exact one
/// beside it when they differ.
fn rows(out: &mut String, rows: &[Vec<Cell>], numeric: &[bool], distribution: Option<usize>) {
    for row in rows {
        out.push_str("<tr");
        if let Some(column) = distribution {
            let _ = write!(
                out,
                " data-value=\"{}\" data-probability=\"{}\"",
                // For scripts: numbers as programs write them (`-2`).
                escape(&row[0].exact.replace('−', "-")),
                escape(&row[column].exact.replace('−', "-"))
            );
        }
        out.push('>');
        for (i, cell) in row.iter().enumerate() {
            let class = if numeric.get(i) == Some(&true) {
                " class=\"num\""
            } else {
                ""
            };
            let _ = write!(out, "<td{class}>");
            if cell.shown != cell.exact {
                let _ = write!(
                    out,
                    "<span class=\"shown\">{}</span><span class=\"exact\">{}</span>",
                    escape(&cell.shown),
                    escape(&cell.exact)
                );
            } else {
                out.push_str(&escape(&cell.shown));
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>\n");
    }
}

/// A table's printed width in characters, padding included: each column as
/// wide as its widest shown cell or its longest header word (headers wrap
/// in print, cells do not).
fn print_width(table: &Table) -> usize {
    (0..table.columns.len())
        .map(|i| {
            let header = table.columns[i]
                .split_whitespace()
                .map(|w| w.chars().count());
            let cells = table
                .rows
                .iter()
                .filter_map(|row| row.get(i))
                .map(|c| c.shown.chars().count());
            header.chain(cells).max().unwrap_or(0) + 2
        })
        .sum()
}

/// A cell holding a number (right-aligned): digits, a fraction, a
/// decimal or scientific form, or a dash for none.
fn numeric_cell(cell: &Cell) -> bool {
    let text = cell.exact.trim();
    text == "—"
        || (!text.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_digit() || "-−+./,e ".contains(c)))
}

/// A distribution table (first column `value`, and a `probability`
/// column) labels each row with its value and exact probability
/// (`data-value`, `data-probability`), so scripts and tests read the exact
/// fraction from the page: the index of that column.
fn distribution_column(table: &Table) -> Option<usize> {
    if table.columns.first().map(String::as_str) != Some("value") {
        return None;
    }
    table.columns.iter().position(|c| c == "probability")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_width_counts_the_widest_cell_or_header_word() {
        let table = Table {
            id: "t".into(),
            caption: "c".into(),
            columns: vec!["list".into(), "smallest margin".into()],
            rows: vec![
                vec![Cell::plain("[4, 5, 6]"), Cell::plain("0")],
                vec![
                    Cell::plain("[4]"),
                    Cell {
                        shown: "0.0277778".into(),
                        exact: "1/36".into(),
                    },
                ],
            ],
        };
        // "[4, 5, 6]" (9) + 2, then "0.0277778" (9) beside "smallest" (8) + 2.
        assert_eq!(print_width(&table), 22);
    }

    /// A negative number shown with the minus sign (U+2212) is still a
    /// number (right-aligned, kept on one line); scripts read `-`.
    #[test]
    fn negative_numbers_are_numbers_and_scripts_read_them_plainly() {
        assert!(numeric_cell(&Cell::plain("−0.00399548")));
        assert!(numeric_cell(&Cell::plain("−1/2")));
        assert!(!numeric_cell(&Cell::plain("[5, 6]x")));
        let mut out = String::new();
        let row = vec![Cell::plain("−2"), Cell::plain("1/8")];
        rows(&mut out, &[row], &[true, true], Some(1));
        assert!(
            out.contains("data-value=\"-2\" data-probability=\"1/8\""),
            "{out}"
        );
        assert!(out.contains("<td class=\"num\">−2</td>"), "{out}");
    }
}
