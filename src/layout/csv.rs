//! A table as CSV: the one writer behind every CSV the site offers (the
//! files beside a scenario's page, and the `data:` links of reports and
//! what-if forms).
//!
//! Fields go through the `csv` crate's RFC 4180 writer, so a comma, a
//! quote or a line break in any cell is quoted, and every row has as many
//! fields as the header. Text cells that a spreadsheet would read as a
//! formula (`=`, `+`, `-`, `@`, tab, carriage return first) get a leading
//! apostrophe, as OWASP's "CSV Injection" advises; numbers are left alone.

use super::blocks::{Cell, Table};

/// Exact values, one row per line. A column of numbers holding at least one
/// fraction gets a decimal twin for spreadsheets, `NAME (decimal)`.
pub fn csv(table: &Table) -> String {
    let twins: Vec<bool> = (0..table.columns.len())
        .map(|i| fraction_column(table, i))
        .collect();
    let mut header = Vec::new();
    for (name, &twin) in table.columns.iter().zip(&twins) {
        header.push(text_field(name));
        if twin {
            header.push(text_field(&format!("{name} (decimal)")));
        }
    }
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    write(&mut writer, &header);
    let empty = Cell::plain("");
    for row in &table.rows {
        let mut fields = Vec::new();
        for (i, &twin) in twins.iter().enumerate() {
            let cell = row.get(i).unwrap_or(&empty);
            fields.push(exact_field(&cell.exact));
            if twin {
                fields.push(decimal_field(&cell.shown));
            }
        }
        write(&mut writer, &fields);
    }
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// One record into the in-memory writer. Writing to a `Vec` cannot fail,
/// and every record has the header's length, so the writer has nothing to
/// refuse.
fn write(writer: &mut csv::Writer<Vec<u8>>, fields: &[String]) {
    let _ = writer.write_record(fields);
}

/// Every cell of column `i` is a number (or empty, or a dash for none)
/// and at least one is a fraction.
fn fraction_column(table: &Table, i: usize) -> bool {
    let cells = || table.rows.iter().filter_map(|row| row.get(i));
    cells().all(|c| number(&c.exact.replace('−', "-")) || matches!(c.exact.trim(), "" | "—"))
        && cells().any(|c| fraction(&c.exact.replace('−', "-")))
}

/// An exact value as written: numbers as they are (a display minus, U+2212,
/// as `-`), text neutralised.
fn exact_field(text: &str) -> String {
    let ascii = text.replace('−', "-");
    if number(&ascii) {
        ascii
    } else {
        text_field(text)
    }
}

/// Text a spreadsheet must not take for a formula: a leading apostrophe
/// before `=`, `+`, `-`, `@`, tab or carriage return.
pub(crate) fn text_field(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// An integer, a decimal (scientific form included) or a fraction of
/// integers: the forms a spreadsheet reads as a number, never a formula.
fn number(text: &str) -> bool {
    fraction(text) || decimal(text)
}

fn integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn fraction(text: &str) -> bool {
    text.split_once('/')
        .is_some_and(|(numerator, denominator)| {
            integer(numerator) && integer(denominator) && !denominator.starts_with('-')
        })
}

/// Digits with an optional sign, point and exponent (no `inf`, no `nan`).
fn decimal(text: &str) -> bool {
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (text, None),
    };
    let unsigned = mantissa.strip_prefix('-').unwrap_or(mantissa);
    let (whole, part) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = !(whole.is_empty() && part.is_empty()) && digits(whole) && digits(part);
    let exponent_ok = exponent.is_none_or(|e| integer(e.strip_prefix('+').unwrap_or(e)));
    mantissa_ok && exponent_ok
}

/// A display decimal as a spreadsheet reads it: `1.65382 × 10⁻⁸` becomes
/// `1.65382e-8`, `12.5 %` and `12.5 points` become `0.125`, `3,084`
/// becomes `3084` (CSV files are data: plain digits, no separators), a
/// dash (no value) an empty field. Anything else is text, neutralised.
fn decimal_field(shown: &str) -> String {
    let shown = shown.trim().replace('−', "-");
    if shown == "—" {
        return String::new();
    }
    let ungrouped = shown.replace(',', "");
    if decimal(&ungrouped) {
        return ungrouped;
    }
    let hundredths = ["%", "points", "point"]
        .iter()
        .find_map(|unit| shown.strip_suffix(unit))
        .map(str::trim_end);
    if let Some(percent) = hundredths {
        if decimal(percent) {
            return hundredth(percent);
        }
    }
    let Some((mantissa, power)) = shown.split_once(" × 10") else {
        return exact_field(&shown);
    };
    let exponent: String = power
        .chars()
        .map(|c| match c {
            '⁻' => '-',
            c => "⁰¹²³⁴⁵⁶⁷⁸⁹"
                .chars()
                .position(|d| d == c)
                .and_then(|d| char::from_digit(d as u32, 10))
                .unwrap_or('?'),
        })
        .collect();
    exact_field(&format!("{mantissa}e{exponent}"))
}

/// A plain decimal divided by 100 by moving its point, so no digit is
/// changed by floating point: `12.5` becomes `0.125`, `-3` `-0.03`.
fn hundredth(percent: &str) -> String {
    if percent.contains(['e', 'E']) {
        return format!("{percent}e-2");
    }
    let (sign, unsigned) = match percent.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", percent),
    };
    let (whole, part) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let whole = format!("{whole:0>3}");
    let (units, moved) = whole.split_at(whole.len() - 2);
    let units = units.trim_start_matches('0');
    let fraction = format!("{moved}{part}");
    let fraction = fraction.trim_end_matches('0');
    let units = if units.is_empty() { "0" } else { units };
    if fraction.is_empty() {
        format!("{sign}{units}")
    } else {
        format!("{sign}{units}.{fraction}")
    }
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

    fn table(columns: &[&str], rows: Vec<Vec<Cell>>) -> Table {
        Table {
            id: "t".into(),
            caption: "c".into(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows,
        }
    }

    /// Every record as a real CSV reader sees it.
    fn read(text: &str) -> Vec<Vec<String>> {
        csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes())
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect()
    }

    #[test]
    fn csv_holds_exact_values_and_a_decimal_twin_for_fractions() {
        let t = table(
            &["total", "p, exact"],
            vec![vec![Cell::plain("2"), cell("0.0277778", "1/36")]],
        );
        assert_eq!(
            csv(&t),
            "total,\"p, exact\",\"p, exact (decimal)\"\n2,1/36,0.0277778\n"
        );
    }

    /// Numbers shown with the display minus (U+2212) reach the CSV with
    /// `-`, as spreadsheets read them, and a fraction column of them keeps
    /// its decimal twin (its display minus turned back too).
    #[test]
    fn the_display_minus_is_a_plain_minus_in_csv() {
        let t = table(
            &["gap", "edge"],
            vec![
                vec![Cell::plain("−0.25"), cell("−0.5", "−1/2")],
                vec![Cell::plain("3"), cell("0.25", "1/4")],
            ],
        );
        let records = read(&csv(&t));
        assert_eq!(records[0], ["gap", "edge", "edge (decimal)"]);
        assert_eq!(records[1], ["-0.25", "-1/2", "-0.5"]);
        assert_eq!(records[2], ["3", "1/4", "0.25"]);
        // A float percentage cell carries the share itself.
        let t = table(
            &["low"],
            vec![vec![crate::layout::cells::float_percent(0.125434)]],
        );
        assert_eq!(read(&csv(&t))[1], ["0.125434"]);
        // Points and grouped integers: the CSV is data, plain digits.
        let t = table(
            &["edge", "matches"],
            vec![
                vec![
                    crate::layout::cells::points(&crate::engine::Exact::new(
                        101.into(),
                        4000.into(),
                    )),
                    crate::layout::cells::integer(3084),
                ],
                vec![cell("12.5\u{a0}points", "1/8"), cell("2.5", "5/2")],
            ],
        );
        let records = read(&csv(&t));
        assert_eq!(
            records[0],
            ["edge", "edge (decimal)", "matches", "matches (decimal)"]
        );
        assert_eq!(records[1], ["101/4000", "0.02525", "3084", "3084"]);
        assert_eq!(records[2], ["1/8", "0.125", "5/2", "2.5"]);
    }

    #[test]
    fn a_text_column_with_a_slash_has_no_twin_and_every_row_the_headers_length() {
        let t = table(
            &["roll", "p"],
            vec![
                vec![Cell::plain("d20 w/ advantage"), cell("9.75 %", "39/400")],
                vec![Cell::plain("d20, plain"), cell("5 %", "1/20")],
            ],
        );
        let records = read(&csv(&t));
        assert_eq!(records[0], ["roll", "p", "p (decimal)"]);
        assert_eq!(records[1], ["d20 w/ advantage", "39/400", "0.0975"]);
        assert_eq!(records[2], ["d20, plain", "1/20", "0.05"]);
    }

    #[test]
    fn formulas_in_text_cells_are_neutralised_and_numbers_kept() {
        let t = table(
            &["=name", "value"],
            vec![
                vec![Cell::plain("=HYPERLINK(\"x\")"), Cell::plain("-3")],
                vec![Cell::plain("+1"), Cell::plain("-1/36")],
                vec![Cell::plain("-x"), Cell::plain("2.5e-3")],
                vec![Cell::plain("@SUM(A1)"), Cell::plain("7")],
                vec![Cell::plain("\tx"), Cell::plain("8")],
                vec![Cell::plain("\rx"), Cell::plain("9")],
            ],
        );
        let records = read(&csv(&t));
        assert_eq!(records[0], ["'=name", "value", "value (decimal)"]);
        let names: Vec<&str> = records[1..].iter().map(|r| r[0].as_str()).collect();
        assert_eq!(
            names,
            [
                "'=HYPERLINK(\"x\")",
                "'+1",
                "'-x",
                "'@SUM(A1)",
                "'\tx",
                "'\rx"
            ]
        );
        let values: Vec<&str> = records[1..].iter().map(|r| r[1].as_str()).collect();
        assert_eq!(values, ["-3", "-1/36", "2.5e-3", "7", "8", "9"]);
        assert!(records.iter().all(|r| r.len() == 3));
    }

    #[test]
    fn a_short_row_is_padded_to_the_header() {
        let t = table(&["a", "b"], vec![vec![Cell::plain("1")]]);
        assert_eq!(read(&csv(&t)), [["a", "b"], ["1", ""]]);
    }

    #[test]
    fn display_decimals_become_machine_numbers() {
        assert_eq!(decimal_field("1.65382 × 10⁻⁸"), "1.65382e-8");
        assert_eq!(decimal_field("6.53318 × 10⁷⁷"), "6.53318e77");
        assert_eq!(decimal_field("—"), "");
        assert_eq!(decimal_field("12.5 %"), "0.125");
        assert_eq!(decimal_field("99.17 %"), "0.9917");
        assert_eq!(decimal_field("100 %"), "1");
        assert_eq!(decimal_field("0.05 %"), "0.0005");
        assert_eq!(decimal_field("−3 %"), "-0.03");
        assert_eq!(decimal_field("> 99.99 %"), "> 99.99 %");
        assert_eq!(decimal_field("-oops"), "'-oops");
    }

    #[test]
    fn numbers_are_told_from_text() {
        for n in ["0", "-12", "1/36", "-1/36", "0.5", ".5", "1e5", "-2.5E-3"] {
            assert!(number(n), "{n}");
        }
        for t in [
            "", "-", "1/-3", "1/", "inf", "NaN", "1,000", "=1", "1e", "--1",
        ] {
            assert!(!number(t), "{t}");
        }
    }
}
