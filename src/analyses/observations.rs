//! Observations read from CSV files beside a scenario: rolls of a die and
//! logs of games, tallied as they stream past (a million rolls never sit in
//! memory), each bad row reported with its line and column.
//!
//! The loader opens the file (inside the project, under the size limit) and
//! hands over a reader; nothing here touches the file system.

use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use std::fmt;
use std::io::BufRead;

/// A bad row of a data file: where and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    /// 1-based line of the file.
    pub line: u64,
    /// 1-based column of the field at fault.
    pub column: u64,
    /// What was wrong and what was expected.
    pub message: String,
}

impl DataError {
    fn at(line: u64, column: u64, message: impl Into<String>) -> DataError {
        DataError {
            line,
            column,
            message: message.into(),
        }
    }
}

/// A data file named in a scenario: a path relative to the scenario's
/// folder, ending in `.csv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataPath(pub String);

impl<'de> Deserialize<'de> for DataPath {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PathVisitor;
        impl serde::de::Visitor<'_> for PathVisitor {
            type Value = DataPath;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a CSV file such as \"rolls.csv\"")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<DataPath, E> {
                let ok =
                    text.to_ascii_lowercase().ends_with(".csv") && !text.contains(['#', '?', '\\']);
                if !ok {
                    return Err(E::custom(format!(
                        "expected a CSV file beside the scenario, such as \"rolls.csv\", \
                         found {text:?}"
                    )));
                }
                Ok(DataPath(text.to_string()))
            }
        }
        // Validating in the visitor lets serde_yaml attach the value's position.
        deserializer.deserialize_str(PathVisitor)
    }
}

impl fmt::Display for DataPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The most rolls or games one table may count, each count and their sum
/// alike: a trillion, far past any real log, so sums over every face or
/// seat stay exact in u64 and in the f64 the statistics take (below 2^53).
pub(crate) const MAX_COUNT: u64 = 1_000_000_000_000;

/// `counts` added up, if the sum stays within [`MAX_COUNT`].
pub fn total(counts: impl IntoIterator<Item = u64>) -> Option<u64> {
    counts
        .into_iter()
        .try_fold(0u64, |sum, c| sum.checked_add(c))
        .filter(|&sum| sum <= MAX_COUNT)
}

/// The message for counts past [`MAX_COUNT`].
pub(crate) fn too_many(what: &str) -> String {
    format!("{what} add up past {MAX_COUNT} (a trillion): give the counts of a real log")
}

/// A count written in a scenario (times a face came up, games a seat
/// won): a whole number, 0 to [`MAX_COUNT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count(pub u64);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CountVisitor;
        impl serde::de::Visitor<'_> for CountVisitor {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a count of rolls, 0 or more")
            }
            fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Count, E> {
                if value > MAX_COUNT {
                    return Err(E::custom(format!(
                        "count {value} is past {MAX_COUNT} (a trillion): give the counts of \
                         a real log"
                    )));
                }
                Ok(Count(value))
            }
            fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Count, E> {
                let value = u64::try_from(value).map_err(|_| {
                    E::custom(format!(
                        "negative count {value}: a count is how many times something \
                         happened, 0 or more"
                    ))
                })?;
                self.visit_u64(value)
            }
        }
        deserializer.deserialize_any(CountVisitor)
    }
}

/// One row of a CSV stream: its line and trimmed fields.
struct Row<'a> {
    line: u64,
    fields: Vec<&'a str>,
}

impl Row<'_> {
    /// The 1-based column where field `index` starts (fields unquoted).
    fn column(&self, index: usize) -> u64 {
        1 + self.fields[..index]
            .iter()
            .map(|f| f.len() as u64 + 1)
            .sum::<u64>()
    }

    fn error(&self, index: usize, message: impl Into<String>) -> DataError {
        DataError::at(self.line, self.column(index), message)
    }
}

/// Hand every non-empty row of `reader` to `each`; lines starting with `#`
/// are comments. Returns the number of rows.
fn each_row(
    reader: &mut dyn BufRead,
    mut each: impl FnMut(&Row) -> Result<(), DataError>,
) -> Result<u64, DataError> {
    let mut csv = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .from_reader(reader);
    let mut record = csv::StringRecord::new();
    let mut rows = 0;
    loop {
        match csv.read_record(&mut record) {
            Ok(false) => return Ok(rows),
            Ok(true) => {}
            Err(err) => return Err(csv_error(&err)),
        }
        let line = record.position().map_or(1, csv::Position::line);
        let row = Row {
            line,
            fields: record.iter().map(str::trim).collect(),
        };
        if row.fields.iter().all(|f| f.is_empty()) {
            continue;
        }
        rows += 1;
        each(&row)?;
    }
}

fn csv_error(err: &csv::Error) -> DataError {
    let line = err.position().map_or(1, csv::Position::line);
    let message = match err.kind() {
        csv::ErrorKind::Utf8 { .. } => "the row is not valid UTF-8 text".to_string(),
        csv::ErrorKind::Io(io) => format!("the file could not be read: {io}"),
        _ => format!("malformed CSV: {err}"),
    };
    DataError::at(line, 1, message)
}

/// A whole number in a field; `what` names it in the message.
fn number(row: &Row, index: usize, what: &str) -> Result<i64, DataError> {
    let text = row.fields[index];
    text.parse::<i64>().map_err(|_| {
        row.error(
            index,
            format!("expected {what} (a whole number), found {text:?}"),
        )
    })
}

/// A count of 0 or more.
fn count(row: &Row, index: usize) -> Result<u64, DataError> {
    let value = number(row, index, "a count")?;
    u64::try_from(value).map_err(|_| {
        row.error(
            index,
            format!(
                "negative count {value}: a count is how many times the face came up, 0 or more"
            ),
        )
    })
}

/// Rolls of a die tallied per face, from either one roll per line (`4`) or
/// `face,count` rows (`4,17`), with an optional header row (`roll`, or
/// `face,count`). `faces` are the die's faces in increasing order.
pub(crate) fn tally_rolls(reader: &mut dyn BufRead, faces: &[i64]) -> Result<Vec<u64>, DataError> {
    let mut counts = vec![0u64; faces.len()];
    let mut rolls = 0u64;
    let mut width: Option<usize> = None;
    let rows = each_row(reader, |row| {
        let first = width.is_none();
        let expected = *width.get_or_insert(row.fields.len());
        if first && row.fields[0].parse::<i64>().is_err() {
            return header(row);
        }
        if row.fields.len() != expected {
            return Err(row.error(
                0,
                format!(
                    "expected {} like the file's first row, found {} fields",
                    shape(expected),
                    row.fields.len()
                ),
            ));
        }
        let face = number(row, 0, "a face of the die")?;
        let index = faces.binary_search(&face).map_err(|_| {
            row.error(
                0,
                format!(
                    "{face} is not a face of this die: expected one of {}",
                    list(faces)
                ),
            )
        })?;
        let times = if expected == 2 { count(row, 1)? } else { 1 };
        rolls = total([rolls, times])
            .ok_or_else(|| row.error(1.min(expected - 1), too_many("the rolls")))?;
        counts[index] += times;
        Ok(())
    })?;
    if counts.iter().all(|&c| c == 0) {
        let why = if rows == 0 {
            "the file has no rows"
        } else {
            "the file counts no rolls"
        };
        return Err(DataError::at(
            1,
            1,
            format!("{why}: expected one roll per line (\"4\") or face,count rows (\"4,17\")"),
        ));
    }
    Ok(counts)
}

/// A rolls file's header row, if it is one.
fn header(row: &Row) -> Result<(), DataError> {
    let names: Vec<String> = row.fields.iter().map(|f| f.to_ascii_lowercase()).collect();
    let known: &[&[&str]] = &[&["roll"], &["face"], &["face", "count"]];
    if known.iter().any(|k| *k == names.as_slice()) {
        return Ok(());
    }
    Err(row.error(
        0,
        format!(
            "expected a face (a whole number) or a header `roll` or `face,count`, found {:?}",
            row.fields.join(",")
        ),
    ))
}

fn shape(width: usize) -> &'static str {
    if width == 1 {
        "one roll per line"
    } else {
        "face,count rows"
    }
}

/// Faces for a message, the middle left out when there are many.
fn list(faces: &[i64]) -> String {
    let shown: Vec<String> = if faces.len() <= 12 {
        faces.iter().map(i64::to_string).collect()
    } else {
        let mut shown: Vec<String> = faces[..5].iter().map(i64::to_string).collect();
        shown.push("...".into());
        shown.extend(faces[faces.len() - 2..].iter().map(i64::to_string));
        shown
    };
    shown.join(", ")
}

/// The most players a game may have.
pub(crate) const MAX_PLAYERS: u64 = 64;

/// Wins by turn position (1 = went first) for each number of players.
pub type Tally = BTreeMap<u64, Vec<u64>>;

/// Games tallied by number of players and the winner's place in turn
/// order. The header names the columns, in any order: `players` and
/// `winner` (seats 1..players), optionally `first` (the seat that went
/// first; seat 1 when absent or empty) and `event` (any text).
pub(crate) fn tally_games(reader: &mut dyn BufRead) -> Result<Tally, DataError> {
    let mut columns: Option<Columns> = None;
    let mut tally = Tally::new();
    each_row(reader, |row| {
        let Some(columns) = &columns else {
            columns = Some(Columns::read(row)?);
            return Ok(());
        };
        if row.fields.len() != columns.width {
            return Err(row.error(
                0,
                format!(
                    "expected {} fields like the header, found {}",
                    columns.width,
                    row.fields.len()
                ),
            ));
        }
        let players = number(row, columns.players, "the number of players")?;
        if !(2..=MAX_PLAYERS as i64).contains(&players) {
            return Err(row.error(
                columns.players,
                format!("{players} players: expected 2 to {MAX_PLAYERS}"),
            ));
        }
        let players = players as u64;
        let seat = |index: usize, what: &str| -> Result<u64, DataError> {
            let seat = number(row, index, what)?;
            if seat < 1 || seat as u64 > players {
                return Err(row.error(
                    index,
                    format!(
                        "seat {seat} is beyond the {players} players of this game: seats are \
                         numbered 1 to {players}"
                    ),
                ));
            }
            Ok(seat as u64)
        };
        let winner = seat(columns.winner, "the winner's seat")?;
        let first = match columns.first {
            Some(index) if !row.fields[index].is_empty() => seat(index, "the first player's seat")?,
            _ => 1,
        };
        let position = (winner + players - first) % players;
        tally
            .entry(players)
            .or_insert_with(|| vec![0; players as usize])[position as usize] += 1;
        Ok(())
    })?;
    match columns {
        None => Err(DataError::at(
            1,
            1,
            "the file is empty: expected a header row `players,winner` then one game a row",
        )),
        Some(_) if tally.is_empty() => Err(DataError::at(
            1,
            1,
            "the file has a header but no games: add one game a row, such as `4,2`",
        )),
        Some(_) => Ok(tally),
    }
}

/// Where each column of a games file is.
struct Columns {
    width: usize,
    players: usize,
    winner: usize,
    first: Option<usize>,
}

impl Columns {
    fn read(row: &Row) -> Result<Columns, DataError> {
        let mut found: BTreeMap<&str, usize> = BTreeMap::new();
        for (index, name) in row.fields.iter().enumerate() {
            let name = name.to_ascii_lowercase();
            let known = ["players", "winner", "first", "event"];
            let Some(&name) = known.iter().find(|k| **k == name) else {
                return Err(row.error(
                    index,
                    format!(
                        "unknown column {name:?}: expected a header row naming players, winner \
                         and optionally first and event, such as `players,winner,first`"
                    ),
                ));
            };
            if found.insert(name, index).is_some() {
                return Err(row.error(index, format!("the column {name:?} is named twice")));
            }
        }
        let needed = |name: &str| {
            found.get(name).copied().ok_or_else(|| {
                row.error(
                    0,
                    format!(
                        "the header has no column {name:?}: expected a header row such as \
                         `players,winner,first`"
                    ),
                )
            })
        };
        Ok(Columns {
            width: row.fields.len(),
            players: needed("players")?,
            winner: needed("winner")?,
            first: found.get("first").copied(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rolls(text: &str) -> Result<Vec<u64>, DataError> {
        tally_rolls(&mut text.as_bytes(), &[1, 2, 3, 4, 5, 6])
    }

    fn games(text: &str) -> Result<Tally, DataError> {
        tally_games(&mut text.as_bytes())
    }

    #[test]
    fn rolls_are_tallied_in_both_shapes() {
        assert_eq!(rolls("1\n6\n6\n\n3\n").unwrap(), [1, 0, 1, 0, 0, 2]);
        assert_eq!(rolls("roll\n2\n").unwrap(), [0, 1, 0, 0, 0, 0]);
        assert_eq!(
            rolls("face,count\n1,5\n2,8\n6,20\n# a comment\n6,1\n").unwrap(),
            [5, 8, 0, 0, 0, 21]
        );
        let fudge = tally_rolls(&mut "-1\n0\n1\n1\n".as_bytes(), &[-1, 0, 1]).unwrap();
        assert_eq!(fudge, [1, 1, 2]);
    }

    #[test]
    fn bad_rolls_are_located() {
        let e = rolls("1\n2\n7\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 1));
        assert!(e.message.contains("7 is not a face"), "{}", e.message);
        let e = rolls("1,2\n2,-3\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(e.message.starts_with("negative count -3"), "{}", e.message);
        let e = rolls("1,2\n2\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("face,count rows"), "{}", e.message);
        let e = rolls("1\nfour\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("found \"four\""), "{}", e.message);
        let e = rolls("").unwrap_err();
        assert!(
            e.message.starts_with("the file has no rows"),
            "{}",
            e.message
        );
        let e = rolls("face,count\n3,0\n").unwrap_err();
        assert!(
            e.message.starts_with("the file counts no rolls"),
            "{}",
            e.message
        );
        let e = rolls("colour\n").unwrap_err();
        assert!(e.message.contains("header"), "{}", e.message);
        let e = tally_rolls(&mut &b"1\n\xff\n"[..], &[1, 2]).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("UTF-8"), "{}", e.message);
    }

    #[test]
    fn games_count_wins_by_turn_position() {
        let t = games("players,winner\n2,1\n2,2\n2,1\n3,3\n").unwrap();
        assert_eq!(t[&2], [2, 1]);
        assert_eq!(t[&3], [0, 0, 1]);
        // Seat 3 went first and won: turn position 1; seat 1 won after 3: position 2.
        let t = games("event,winner,players,first\nA,3,3,3\nB,1,3,3\nC,2,3,\n").unwrap();
        assert_eq!(t[&3], [1, 2, 0]);
    }

    #[test]
    fn bad_games_are_located() {
        let e = games("players,winner\n4,5\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(
            e.message.starts_with("seat 5 is beyond the 4 players"),
            "{}",
            e.message
        );
        let e = games("players,winner,first\n4,2,0\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 5));
        let e = games("players,victor\n").unwrap_err();
        assert!(
            e.message.contains("unknown column \"victor\""),
            "{}",
            e.message
        );
        let e = games("winner\n1\n").unwrap_err();
        assert!(e.message.contains("no column \"players\""), "{}", e.message);
        let e = games("players,winner\n4\n").unwrap_err();
        assert!(
            e.message.contains("2 fields like the header"),
            "{}",
            e.message
        );
        let e = games("").unwrap_err();
        assert!(e.message.starts_with("the file is empty"), "{}", e.message);
        let e = games("players,winner\n").unwrap_err();
        assert!(e.message.contains("no games"), "{}", e.message);
        let e = games("players,winner\n1,1\n").unwrap_err();
        assert!(e.message.contains("expected 2 to"), "{}", e.message);
    }
}
