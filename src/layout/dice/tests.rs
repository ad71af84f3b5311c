//! The `dice` page's tests: its sentences, tables and charts for small
//! rolls. Apart because they are almost half the module.

use super::*;
use crate::analyses::Analysis;
use crate::progress::Progress;

/// Negative values read with the minus sign (U+2212) everywhere a
/// reader sees them: verdict, facts, table cells and tooltips.
#[test]
fn negative_values_read_with_one_minus_sign() {
    let params: Params = serde_yaml::from_str("rolls:\n  low: 1d6-4\n").unwrap();
    let analysed = Dice::analyse(&params, &Progress::hidden());
    let shown = format!("{:?}", Dice::layout(&params, &analysed));
    assert!(shown.contains("from −3 to 2"), "{shown}");
    assert!(shown.contains("−1/2 = −0.5"), "{shown}");
    assert!(shown.contains("shown: \"−3\""), "{shown}");
    assert!(shown.contains("low: −3 or more"), "{shown}");
    // (The charts' points are numbers, not text: (-3.0, …).)
    for ascii in ["-1/2", "\"-3\"", "\"-1\"", "from -3", ": -", "\"-2:"] {
        assert!(!shown.contains(ascii), "{ascii:?} in {shown}");
    }
}

fn verdict_of(yaml: &str) -> String {
    let params: Params = serde_yaml::from_str(yaml).unwrap();
    let analysed = Dice::analyse(&params, &Progress::hidden());
    match Dice::layout(&params, &analysed).remove(0) {
        Block::Verdict { text } => text,
        other => panic!("{other:?}"),
    }
}

/// The "most likely" fact of each roll on a page of `yaml`.
fn most_likely_of(yaml: &str) -> Vec<(String, String)> {
    let params: Params = serde_yaml::from_str(yaml).unwrap();
    let analysed = Dice::analyse(&params, &Progress::hidden());
    Dice::layout(&params, &analysed)
        .into_iter()
        .filter_map(|block| match block {
            Block::Facts { items } => items
                .into_iter()
                .find(|(label, _)| label.starts_with("most likely"))
                .map(|(label, cell)| (label, cell.shown)),
            _ => None,
        })
        .collect()
}

/// A uniform roll has no most likely value: it says so rather than
/// listing every value as tied; a real tie still lists its values.
#[test]
fn a_uniform_roll_has_no_most_likely_value() {
    let got = most_likely_of("rolls:\n  a: d20\n  b: 2d6\n  c: d{1,1,2,2,3}\n  d: d{0,0,5}*0+d2\n");
    let want = [
        ("most likely", "none: all 20 values are equally likely"),
        ("most likely", "7"),
        ("most likely (tied)", "1, 2"),
        ("most likely", "none: all 2 values are equally likely"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(l, v)| (l.to_string(), v.to_string()))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn the_verdict_names_the_roll_that_beats_every_other_or_says_none_does() {
    // From the ability-score page: rerolling ones beats 4d6dl1 (55.08% to
    // 34.75%), 3d6 and 2d6+6 (48.06% to 40.76%, the closest).
    let text = verdict_of(
        "question: head-to-head\nrolls:\n  4d6 drop lowest: 4d6dl1\n  3d6 straight: 3d6\n  \
         reroll ones: 4d6ro1dl1\n  heroic: 2d6+6\n",
    );
    assert!(
        text.starts_with(
            "Of these rolls, reroll ones beats every other head to head; its closest \
             contest: reroll ones rolls higher than heroic 48.0571\u{a0}%"
        ),
        "{text}"
    );
    // Efron's dice go round in a circle, each beating the next 2/3 of
    // the time: no roll beats every other.
    let text = verdict_of(
        "question: head-to-head\nrolls:\n  A: d{4,4,4,4,0,0}\n  B: d{3,3,3,3,3,3}\n  C: d{6,6,2,2,2,2}\n  \
         D: d{5,5,5,1,1,1}\n",
    );
    assert!(text.starts_with("No roll beats every other"), "{text}");
    assert_eq!(
        verdict_of("rolls:\n  one die: d6\n"),
        "Rolled once, one die (d6) averages 3.5, from 1 to 6; every value is equally likely."
    );
    assert_eq!(
        verdict_of("rolls:\n  two dice: 2d6\n"),
        "Rolled once, two dice (2d6) averages 7, from 2 to 12; 7 is the likeliest value."
    );
}

#[test]
fn the_page_leads_with_the_head_to_head_when_asked() {
    let params: Params = serde_yaml::from_str(
        "question: head-to-head\nrolls:\n  standard: 4d6dl1\n  heroic: 2d6+6\n",
    )
    .unwrap();
    let analysed = Dice::analyse(&params, &Progress::hidden());
    let blocks = Dice::layout(&params, &analysed);
    let Block::Verdict { text } = &blocks[0] else {
        panic!("{:?}", blocks[0])
    };
    // heroic (2d6+6, mean 13) against standard (4d6dl1, mean 12.24).
    assert!(
        text.starts_with("Head to head, heroic rolls higher than standard"),
        "{text}"
    );
    let page = crate::layout::ScenarioPage {
        results: Dice::contract(&analysed, serde_json::value::Serializer).unwrap(),
        blocks,
    };
    let table = page.table("roll-1").unwrap();
    assert_eq!(table.rows.len(), 16);
    assert_eq!(table.rows[15][0].shown, "18");
    assert_eq!(table.rows[15][1].exact, "21");
    assert_eq!(table.rows[15][2].exact, "7/432");
    assert!(page.chart("at-least").is_some() && page.chart("difference-1").is_some());
}

#[test]
fn more_rolls_than_colours_get_a_sentence_not_a_chart_that_cannot_draw() {
    // Eleven to 26 rolls passed `eval` and failed the build: "chart
    // at-least: 11 series" (issue 27).
    for count in [10, 11, 26] {
        let rolls: String = (1..=count)
            .map(|i| format!("  r{i}: d{}\n", i + 1))
            .collect();
        let params: Params = serde_yaml::from_str(&format!("rolls:\n{rolls}")).unwrap();
        let analysed = Dice::analyse(&params, &Progress::hidden());
        let blocks = Dice::layout(&params, &analysed);
        let chart = blocks
            .iter()
            .find(|b| matches!(b, Block::Chart(c) if c.id == "at-least"));
        let said = blocks.iter().any(
            |b| matches!(b, Block::Text { text } if text.starts_with(&format!("{count} rolls are more"))),
        );
        assert_eq!(
            (chart.is_some(), said),
            (count <= MAX_SERIES, count > MAX_SERIES)
        );
        if let Some(Block::Chart(chart)) = chart {
            // The charts refuse more series than colours.
            assert!(chart.series.len() <= MAX_SERIES);
        }
    }
}

fn page_of(yaml: &str) -> crate::layout::ScenarioPage {
    let params: Params = serde_yaml::from_str(yaml).unwrap();
    let analysed = Dice::analyse(&params, &Progress::hidden());
    crate::layout::ScenarioPage {
        results: Dice::contract(&analysed, serde_json::value::Serializer).unwrap(),
        blocks: Dice::layout(&params, &analysed),
    }
}

/// The rolls of one page are drawn on one scale: one height (the
/// tallest bar of any of them) and one range of values, so a d20's
/// 5 % bars stand half as tall as advantage's 9.75 %, and 2d6's 7
/// sets the height of all three.
#[test]
fn rolls_on_one_page_share_one_scale() {
    let page = page_of("rolls:\n  advantage: 2d20kh1\n  normal: d20\n  two: 2d6\n");
    let charts: Vec<&Chart> = (1..=3)
        .map(|i| page.chart(&format!("roll-{i}")).unwrap())
        .collect();
    for chart in &charts {
        // 2d6 rolls 7 with 1/6, the tallest bar of the three.
        assert_eq!(chart.y_to, Some(1.0 / 6.0), "{}", chart.id);
        assert_eq!(chart.x_range, Some((1.0, 20.0)), "{}", chart.id);
        assert_eq!(chart.note, None);
    }
    assert_eq!(page.chart("at-least").unwrap().x_range, Some((1.0, 20.0)));
    // The difference charts share theirs.
    let tops: Vec<Option<f64>> = (1..=3)
        .map(|i| page.chart(&format!("difference-{i}")).unwrap().y_to)
        .collect();
    assert!(
        tops.iter().all(|t| *t == tops[0] && t.is_some()),
        "{tops:?}"
    );
}

/// The "at least" chart spans every target the verdict names: on the
/// advantage page ("plus five is best from 2 to 10; ... from 12 to 25")
/// every line runs from 2 to 25, plus five at 100 % below its lowest
/// value 6 and the d20s at 0 % above their highest value 20.
#[test]
fn the_at_least_chart_spans_every_target_the_verdict_names() {
    let yaml = "rolls:\n  advantage: 2d20kh1\n  normal: d20\n  disadvantage: 2d20kl1\n  \
                plus five: d20+5\n";
    assert!(verdict_of(yaml).contains("plus five is best from 12 to 25"));
    assert!(verdict_of(yaml).contains("from 2 to 10"));
    let page = page_of(yaml);
    let chart = page.chart("at-least").unwrap();
    assert_eq!(chart.x_range, Some((1.0, 25.0)));
    for series in &chart.series {
        let xs: Vec<f64> = series.points.iter().map(|p| p.0).collect();
        for target in 2..=25 {
            assert!(
                xs.contains(&(target as f64)),
                "{} lacks {target}",
                series.name
            );
        }
        assert_eq!(series.titles.len(), series.points.len());
    }
    let plus_five = &chart.series[3];
    assert_eq!(plus_five.points[0], (2.0, 1.0));
    assert_eq!(plus_five.titles[0], "plus five: 2 or more: 100\u{a0}%");
    let normal = &chart.series[1];
    assert_eq!(normal.points.last(), Some(&(25.0, 0.0)));
    assert_eq!(normal.points[20], (21.0, 0.0));
    // 11 or more: 1/2 on a d20, exactly as the tables say.
    assert_eq!(normal.points[10], (11.0, 0.5));
}

/// A roll alone names no target: its chart keeps its own values.
#[test]
fn one_roll_draws_only_its_own_values() {
    let chart = page_of("rolls:\n  plus five: d20+5\n")
        .chart("at-least")
        .unwrap()
        .clone();
    assert_eq!(chart.x_range, Some((6.0, 25.0)));
    assert_eq!(chart.series[0].points.len(), 20);
}

/// 100d6 is drawn where its mass is, and the chart says what it leaves
/// out: the tails cut are the widest each holding at most one in a
/// million, checked against the exact "at most" and "at least" columns.
#[test]
fn axes_cover_the_mass_and_say_what_they_leave_out() {
    let page = page_of("rolls:\n  many: 100d6\n");
    let chart = page.chart("roll-1").unwrap();
    let (lo, hi) = chart.x_range.unwrap();
    assert!(
        (250.0..300.0).contains(&lo) && (400.0..450.0).contains(&hi),
        "{lo} {hi}"
    );
    let table = page.table("roll-1").unwrap();
    let column = |value: f64, col: usize| {
        let row = table
            .rows
            .iter()
            .find(|r| r[0].shown == value.to_string())
            .unwrap();
        crate::engine::parse_fraction(&row[col].exact).unwrap()
    };
    let million = Exact::new(1.into(), 1_000_000.into());
    // P(X <= lo - 1) <= 1e-6 < P(X <= lo); the same from the top.
    assert!(column(lo - 1.0, 4) <= million && column(lo, 4) > million);
    assert!(column(hi + 1.0, 3) <= million && column(hi, 3) > million);
    let left_out = column(lo - 1.0, 4) + column(hi + 1.0, 3);
    assert_eq!(
        chart.note.as_deref().unwrap(),
        format!(
            "Not drawn: values below {lo} and above {hi}, together {} of rolls.",
            format::percent(&left_out)
        )
    );
    let at_least = page.chart("at-least").unwrap();
    assert_eq!(at_least.x_range, Some((lo, hi)));
    assert!(at_least
        .note
        .as_deref()
        .unwrap()
        .contains("within 0.0001\u{a0}%"));
}

/// The opening answer fits the question: rolls that are alternatives
/// for one check (different expressions) are compared target by
/// target; the same expression twice is a duel; rolls that never meet
/// are each described. Head to head leads only when asked or a duel.
#[test]
fn the_verdict_answers_the_page_question() {
    let targets = verdict_of("rolls:\n  advantage: 2d20kh1\n  plus five: 1d20+5\n");
    assert!(
        targets.starts_with("To roll at least a target number: "),
        "{targets}"
    );
    let duel = verdict_of("rolls:\n  first seat: 2d6\n  second seat: 2d6\n");
    assert!(
        duel.starts_with("Head to head, first seat and second seat are even"),
        "{duel}"
    );
    let spread = verdict_of("question: distribution\nrolls:\n  pool: 5d10>=7\n  sum: 3d6\n");
    assert_eq!(
        spread,
        "Rolled once each: pool averages 2 (from 0 to 5) and sum averages 10.5 (from 3 to 18)."
    );
    for text in [&targets, &spread] {
        assert!(!text.contains("head to head") && !text.contains("Head to head"));
    }
}

/// 2d20kh1 against 1d20+5, by enumeration of their 400 and 20
/// outcomes: the table gives each target's chances and marks the best
/// in words, ties as ties; the sentence's stretches break exactly where
/// the winner changes.
#[test]
fn targets_side_by_side_with_the_best_and_the_crossovers() {
    let page = page_of("rolls:\n  advantage: 2d20kh1\n  plus five: 1d20+5\n");
    let reach = |values: &[i64], t: i64| {
        let hits = values.iter().filter(|&&v| v >= t).count();
        Exact::new(hits.into(), values.len().into())
    };
    let advantage: Vec<i64> = (1..=20)
        .flat_map(|a| (1..=20).map(move |b| i64::max(a, b)))
        .collect();
    let plus_five: Vec<i64> = (6..=25).collect();
    let table = page.table("targets").unwrap();
    assert_eq!(table.columns, ["target", "advantage", "plus five", "best"]);
    let mut winners = Vec::new();
    for row in &table.rows {
        let t: i64 = row[0].shown.parse().unwrap();
        let (a, b) = (reach(&advantage, t), reach(&plus_five, t));
        assert_eq!(row[1], cells::percent(&a), "{t}");
        assert_eq!(row[2], cells::percent(&b), "{t}");
        let best = match a.cmp(&b) {
            std::cmp::Ordering::Greater => "advantage",
            std::cmp::Ordering::Less => "plus five",
            std::cmp::Ordering::Equal => "tie: all",
        };
        assert_eq!(row[3].shown, best, "{t}");
        winners.push((t, best));
    }
    assert_eq!(winners.first().unwrap().0, 2);
    assert_eq!(winners.last().unwrap().0, 25);
    // By enumeration, +5 is never behind and ties only at 11 (75 %).
    let ties: Vec<i64> = winners
        .iter()
        .filter(|w| w.1 == "tie: all")
        .map(|w| w.0)
        .collect();
    assert_eq!(ties, [11]);
    assert!(winners.iter().all(|w| w.1 != "advantage"));
    assert_eq!(
        page.verdict().unwrap(),
        "To roll at least a target number: plus five is best from 2 to 10; they tie at 11; \
         plus five is best from 12 to 25; each target's chances are in the table below."
    );
    // Three rolls: a tie of two of them is named.
    let page = page_of("rolls:\n  a: d6\n  b: d6\n  c: d4\n");
    let row = &page.table("targets").unwrap().rows[0];
    assert_eq!(
        (row[0].shown.as_str(), row[4].shown.as_str()),
        ("2", "tie: a and b")
    );
    assert!(page
        .verdict()
        .unwrap()
        .contains("a and b tie for best from 2 to 6"));
}

/// Every place an exploding roll is shown says where explosions stop
/// and how often that cut a chain short: the verdict, its section,
/// its facts and its table's caption.
#[test]
fn exploding_rolls_say_where_explosions_stop() {
    let page = page_of("explode_depth: 2\nrolls:\n  boom: 1d4!!\n  flat: d6\n");
    // Three 4s in a row: 1/64.
    assert!(
        page.verdict().unwrap().ends_with(
            "Explosions stop after 2 extra rolls per die: a chain was cut short in \
             1.5625\u{a0}% of rolls of boom."
        ),
        "{:?}",
        page.verdict()
    );
    let texts: Vec<&str> = page
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        texts.contains(
            &"Explosions stop after 2 extra rolls per die: a chain was cut short (its last roll \
          would have exploded again) in 1.5625\u{a0}% of rolls (exactly 1/64), so the highest \
          values also stand for the longer chains cut there."
        ),
        "{texts:?}"
    );
    assert_eq!(
        texts.iter().filter(|t| t.starts_with("Explosions")).count(),
        1
    );
    assert_eq!(
        page.table("roll-1").unwrap().caption,
        "boom (1d4!!): every value, explosions stopping after 2 extra rolls"
    );
    assert_eq!(
        page.table("roll-2").unwrap().caption,
        "flat (d6): every value"
    );
    let shown = format!("{:?}", page.blocks);
    assert!(
        shown.contains("1 to 12, explosions stopping after 2 extra rolls"),
        "{shown}"
    );
}
