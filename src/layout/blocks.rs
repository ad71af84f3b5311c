//! A scenario page described as plain data: the meeting point of the maths
//! and the site. Layout fills these types (no HTML); the site renders them
//! (no arithmetic).

use serde::{Deserialize, Serialize};

/// What the site receives for one scenario.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScenarioPage {
    /// The exact results as the JSON contract spells them (`results` in the
    /// export), for shortcodes that quote a figure and for the gates.
    pub results: serde_json::Value,
    /// What the scenario page shows, in order.
    pub blocks: Vec<Block>,
}

/// One piece of a scenario page.
// A page holds a few dozen blocks, built once per build: boxing charts
// would only make every layout module noisier.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Block {
    /// A section heading.
    Heading {
        /// Heading text.
        text: String,
    },
    /// The page's answer in one sentence, computed from its results and
    /// shown first.
    Verdict {
        /// The sentence.
        text: String,
    },
    /// A paragraph of plain text (escaped when rendered).
    Text {
        /// Paragraph text.
        text: String,
    },
    /// Text shown as written, line for line: a program the page answers.
    Code {
        /// What it is, said before it ("The program, as written").
        caption: String,
        /// The text (escaped when rendered).
        text: String,
    },
    /// A sentence naming another scenario of the site, which the site
    /// links by its title; the build fails when no scenario of that name
    /// and kind exists.
    ScenarioLink {
        /// Text before the link.
        before: String,
        /// The scenario's name: its path under `content/` without `.yaml`.
        scenario: String,
        /// The kind it must be.
        kind: String,
        /// Text after the link.
        after: String,
        /// Sentences quoting the linked scenario's figures, one per case
        /// (none when it is not of that kind: the site says so).
        quotes: Vec<String>,
    },
    /// Key figures as label and value pairs, each value as shown and exact
    /// (release snapshots compare the exact ones).
    Facts {
        /// `(label, value)` in display order.
        items: Vec<(String, Cell)>,
    },
    /// A data table.
    Table(Table),
    /// A chart.
    Chart(Chart),
}

/// A table whose cells carry both a display form and the exact value.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Table {
    /// Unique within the scenario; names the CSV file and shortcode target.
    pub id: String,
    /// Caption shown above the table.
    pub caption: String,
    /// Column headers.
    pub columns: Vec<String>,
    /// Rows of cells, one per column.
    pub rows: Vec<Vec<Cell>>,
}

/// One table cell.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Cell {
    /// What a reader sees: rounded or in scientific form.
    pub shown: String,
    /// The exact value, as written to CSV.
    pub exact: String,
}

impl Cell {
    /// A cell whose display and exact forms are the same text.
    pub fn plain(text: impl Into<String>) -> Self {
        let text = text.into();
        Cell {
            shown: text.clone(),
            exact: text,
        }
    }
}

/// How a chart draws its series.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ChartKind {
    /// One bar per point from zero, each series in its own colour, read on
    /// one vertical axis (a chart never has a second).
    #[default]
    Bars,
    /// Signed bars around a zero line: how far each point is from a fair
    /// share (the points hold the differences, the reference names the share).
    Deviation,
    /// Points with their intervals (`Series::intervals`), such as observed
    /// frequencies with confidence intervals.
    Intervals,
    /// Points joined by lines, one line per series.
    Lines,
    /// A square table of pairwise values as coloured cells, such as
    /// head-to-head margins: series i is row i (its name labels the row),
    /// its points `(j, value)` fill column j, and column j is the same item
    /// as row j, so the columns carry the rows' labels. The colour scale is
    /// centred on zero.
    Heatmap,
}

/// Most series one chart may hold: the charts' palette has one colour for
/// each, and never shows a colour twice.
pub const MAX_SERIES: usize = 10;

/// What the vertical values are, which decides how ticks read.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ValueFormat {
    /// Plain numbers, such as expected rolls.
    #[default]
    Number,
    /// Probabilities (or differences of them), shown as percentages
    /// (percentage points on a deviation chart).
    Probability,
}

/// A chart described by its data; `charts` turns it into SVG.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Chart {
    /// Unique within the scenario.
    pub id: String,
    /// Title (also the SVG `<title>`).
    pub title: String,
    /// One sentence saying what the chart shows (the SVG `<desc>`).
    pub description: String,
    /// Bars, lines or a heatmap.
    pub kind: ChartKind,
    /// Horizontal axis label.
    pub x_label: String,
    /// Vertical axis label.
    pub y_label: String,
    /// Logarithmic vertical axis. Zeros cannot sit on it: they are drawn
    /// as marked points on a separate "0" line below the axis.
    pub log_y: bool,
    /// Where the vertical axis of a line chart starts when its quantity
    /// cannot go below it (expected rounds are at least 1); else zero. Bars
    /// always stand on zero.
    #[serde(default)]
    pub y_from: Option<f64>,
    /// How the vertical values read.
    #[serde(default)]
    pub y_format: ValueFormat,
    /// Labels for chosen horizontal positions (categories, such as bins);
    /// empty for a numeric axis with ticks of its own.
    #[serde(default)]
    pub x_ticks: Vec<(f64, String)>,
    /// The data.
    pub series: Vec<Series>,
    /// The top of the vertical axis when the charts of one page share one
    /// scale (bars of different rolls read against each other); the axis
    /// still covers every value drawn.
    #[serde(default)]
    pub y_to: Option<f64>,
    /// The horizontal range drawn, when the charts of one page share one
    /// or a chart leaves out tails too thin to see (its note says what);
    /// points outside it are not drawn.
    #[serde(default)]
    pub x_range: Option<(f64, f64)>,
    /// The colour scale's labels of a heatmap, at chosen values, formatted
    /// as the tables format the same quantity; the largest magnitude is
    /// the scale's end.
    #[serde(default)]
    pub y_ticks: Vec<(f64, String)>,
    /// A horizontal reference line, such as the fair share 1/n.
    pub reference: Option<Reference>,
    /// Visible text under the chart for what a reader must know to read it.
    #[serde(default)]
    pub note: Option<String>,
    /// The id of the table holding the same data, for readers who want numbers.
    pub table_id: Option<String>,
}

/// One named set of points.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// `(x, y)` points, floats for plotting only.
    pub points: Vec<(f64, f64)>,
    /// One tooltip per point with its exact value (the SVG `<title>`).
    #[serde(default)]
    pub titles: Vec<String>,
    /// One `(low, high)` per point, for [`ChartKind::Intervals`].
    #[serde(default)]
    pub intervals: Vec<(f64, f64)>,
}

/// A labelled horizontal line.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Reference {
    /// Legend entry, such as "fair share 1/10".
    pub label: String,
    /// Height of the line.
    pub y: f64,
}

impl ScenarioPage {
    /// The page's answer in one sentence (its `Verdict` block): the one
    /// sentence the page opens with, a report states at its top and
    /// listings and link previews describe the scenario by.
    pub fn verdict(&self) -> Option<&str> {
        self.blocks.iter().find_map(|block| match block {
            Block::Verdict { text } => Some(text.as_str()),
            _ => None,
        })
    }

    /// The table with this id, if the page has one.
    pub fn table(&self, id: &str) -> Option<&Table> {
        self.blocks.iter().find_map(|block| match block {
            Block::Table(table) if table.id == id => Some(table),
            _ => None,
        })
    }

    /// The chart with this id, if the page has one.
    pub fn chart(&self, id: &str) -> Option<&Chart> {
        self.blocks.iter().find_map(|block| match block {
            Block::Chart(chart) if chart.id == id => Some(chart),
            _ => None,
        })
    }

    /// Every chart, in page order.
    pub fn charts(&self) -> impl Iterator<Item = &Chart> {
        self.blocks.iter().filter_map(|block| match block {
            Block::Chart(chart) => Some(chart),
            _ => None,
        })
    }

    /// Every table, in page order.
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.blocks.iter().filter_map(|block| match block {
            Block::Table(table) => Some(table),
            _ => None,
        })
    }
}
