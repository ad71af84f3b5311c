//! The parser's tests: what each text reads as, and every error's column
//! and message. Apart because they are a quarter of the module.

use super::*;
use crate::engine::pool::Condition;
use crate::lang::dice::{KeepRule, Reroll};

fn pool(text: &str) -> Pool {
    match parse(text).unwrap().node {
        Node::Pool(pool) => pool,
        other => panic!("{text}: {other:?}"),
    }
}

fn error(text: &str) -> (usize, String) {
    let error = parse(text).unwrap_err();
    (error.span.start + 1, error.message)
}

#[test]
fn reads_dice_and_their_modifiers() {
    let p = pool("4d6ro1kh3");
    assert_eq!((p.count, &p.die), (4, &Die::Standard(6)));
    assert_eq!(
        p.reroll.unwrap().rule,
        Reroll {
            until: false,
            condition: Condition::Eq(1)
        }
    );
    assert_eq!(p.keep[0].rule, KeepRule::KeepHighest(3));
    let p = pool("5d10!>=9kh3");
    assert_eq!(p.explode.unwrap().rule, Some(Condition::Ge(9)));
    let p = pool("3d6!");
    assert_eq!(p.explode.unwrap().rule, None);
    assert_eq!(p.explosion, Explosion::Pool);
    assert_eq!(pool("3d6!!").explosion, Explosion::Compound);
    let p = pool("3d6!p>=5");
    assert_eq!(p.explosion, Explosion::Penetrate);
    assert_eq!(p.explode.unwrap().rule, Some(Condition::Ge(5)));
    assert_eq!(pool("6d10!10>=8").successes.unwrap().rule, Condition::Ge(8));
    let p = pool("2d6rr<3");
    assert_eq!(
        p.reroll.unwrap().rule,
        Reroll {
            until: true,
            condition: Condition::Lt(3)
        }
    );
    let p = pool("8d10>=7");
    assert_eq!(p.successes.unwrap().rule, Condition::Ge(7));
    assert_eq!(pool("d%").die, Die::Standard(100));
    assert_eq!(pool("4dF").die, Die::Fudge);
    assert_eq!(pool("3d{0,0,1,1,2}").die, Die::Custom(vec![0, 0, 1, 1, 2]));
    assert_eq!(pool("d{-2, 5}").die, Die::Custom(vec![-2, 5]));
    assert_eq!(pool("2d20kl").keep[0].rule, KeepRule::KeepLowest(1));
    // Modifiers in any order.
    assert_eq!(
        pool("4d6kh3ro1"),
        Pool {
            ..pool("4d6kh3ro1")
        }
    );
    assert_eq!(
        pool("4d6kh3ro1").reroll.unwrap().rule.condition,
        Condition::Eq(1)
    );
}

#[test]
fn reads_arithmetic_with_precedence() {
    let e = parse("1 + 2 * 3").unwrap();
    match e.node {
        Node::Binary(BinaryOp::Add, left, right) => {
            assert_eq!(left.node, Node::Number(1));
            assert!(matches!(right.node, Node::Binary(BinaryOp::Multiply, _, _)));
        }
        other => panic!("{other:?}"),
    }
    let e = parse("-d6 - -2").unwrap();
    assert!(matches!(e.node, Node::Binary(BinaryOp::Subtract, _, _)));
    let e = parse("max(2d20kh1, 1d20) % 3").unwrap();
    assert!(matches!(e.node, Node::Binary(BinaryOp::Modulo, _, _)));
    let e = parse("(1d6)").unwrap();
    assert_eq!(e.span, Span { start: 0, end: 5 });
    assert!(parse("d6%3").is_ok());
    assert!(parse("d%%3").is_ok());
}

#[test]
fn errors_name_the_column_and_what_was_expected() {
    assert_eq!(error("d0").0, 1);
    assert!(error("d0").1.contains("at least one face"));
    assert_eq!(error("(1d6 + 2").0, 1);
    assert!(error("(1d6 + 2").1.contains("unbalanced `(`"));
    assert_eq!(error("1d6)").0, 4);
    assert!(error("1d6)").1.contains("unbalanced `)`"));
    assert_eq!(error("3d6 +").0, 6);
    assert!(error("3d6 +").1.contains("found the end"));
    assert_eq!(error("3dx").0, 3);
    assert_eq!(error("4d6kx").0, 4);
    assert!(error("4d6kx").1.contains("unknown modifier"));
    assert!(error("foo(1)").1.contains("unknown name `foo`"));
    assert!(error("abs(1, 2)").1.contains("exactly one"));
    assert!(error("").1.contains("empty"));
    assert!(error("0d6").1.contains("at least one die"));
    assert!(error("99999999999999999999").1.contains("too large"));
    assert!(error("d{1,}").1.contains("expected a face"));
    assert!(error("2d6rr").1.contains("expected a condition"));
    assert!(error("2d6>").1.contains("expected a number"));
}

fn keeps(text: &str) -> Vec<KeepRule> {
    pool(text).keep.iter().map(|k| k.rule).collect()
}

fn compare(text: &str) -> (Comparison, Node, Node) {
    match parse(text).unwrap().node {
        Node::Compare(c, a, b) => (c, a.node, b.node),
        other => panic!("{text}: {other:?}"),
    }
}

/// Issue 28, items 1 and 2: a comparison after a space or `)` compares
/// totals, at the lowest precedence; straight after a pool it counts.
#[test]
fn comparisons_of_totals_and_counts_of_dice() {
    let (c, left, right) = compare("1d20+5 >= 15");
    assert_eq!(c, Comparison::Ge);
    assert!(matches!(left, Node::Binary(BinaryOp::Add, _, _)));
    assert_eq!(right, Node::Number(15));
    assert_eq!(compare("(2d6)>=7").0, Comparison::Ge);
    assert_eq!(compare("2d6 >= 7").0, Comparison::Ge);
    assert_eq!(compare("d20 > d20").0, Comparison::Gt);
    assert_eq!(compare("2d20kh1 = 20").0, Comparison::Eq);
    assert_eq!(compare("3d6 != 10").0, Comparison::Ne);
    assert_eq!(compare("d6 == 3").0, Comparison::Eq);
    assert_eq!(compare("1+2<3*4").0, Comparison::Lt);
    assert_eq!(pool("8d10>=7").successes.unwrap().rule, Condition::Ge(7));
    assert!(parse("(d6 > 3) + (d6 > 3)").is_ok());
    assert!(error("d6 > 3 > 2").1.contains("unexpected `>`"));
}

/// Issue 28, items 3 and 8: Roll20's shorthands, any case, spaces and
/// Unicode operators; several keeps in order.
#[test]
fn shorthands_and_spellings() {
    assert_eq!(keeps("4d6k3"), [KeepRule::KeepHighest(3)]);
    assert_eq!(keeps("2d20k"), [KeepRule::KeepHighest(1)]);
    assert_eq!(keeps("4d6d1"), [KeepRule::DropLowest(1)]);
    assert_eq!(keeps("4D6KH3"), [KeepRule::KeepHighest(3)]);
    assert_eq!(keeps("4d6 kh3"), [KeepRule::KeepHighest(3)]);
    assert_eq!(
        pool("4d6 ro1  kh3").reroll.unwrap().rule.condition,
        Condition::Eq(1)
    );
    assert_eq!(
        keeps("4d6dl1dh1"),
        [KeepRule::DropLowest(1), KeepRule::DropHighest(1)]
    );
    assert_eq!(
        keeps("5d10kh3kl1"),
        [KeepRule::KeepHighest(3), KeepRule::KeepLowest(1)]
    );
    assert_eq!(pool("4DF").die, Die::Fudge);
    assert_eq!(
        parse("1d6 − 2").unwrap().node,
        parse("1d6 - 2").unwrap().node
    );
    assert_eq!(parse("2 × d6").unwrap().node, parse("2 * d6").unwrap().node);
    assert_eq!(error("d{−1, 1} − x").0, 12);
    let p = pool("10d10>=8f1");
    assert_eq!(p.failures.unwrap().rule, Condition::Eq(1));
    assert_eq!(pool("5d10>=6f<=2").failures.unwrap().rule, Condition::Le(2));
}

/// Issue 28, items 5 and 11: every refusal names the column and what
/// to write.
#[test]
fn refusals_say_what_to_write() {
    let (column, message) = error("4d6kx3");
    assert_eq!(column, 4);
    assert!(message.contains("unknown modifier `kx`"), "{message}");
    // No guess from spelling: kh3 is not what kx3 means anywhere.
    assert!(!message.contains("did you mean"), "{message}");
    assert!(
        message.contains("kh, kl, dh, dl, k, d, ph, pl, p, ro"),
        "{message}"
    );
    let (column, message) = error("4d6r1");
    assert_eq!(column, 4);
    assert!(
        message.contains("ro (as in ro1)") && message.contains("rr"),
        "{message}"
    );
    assert!(error("4d6 r<2").1.contains("reroll once"));
    assert!(error("d20adv").1.contains("write 2d20kh1"));
    assert!(error("d20dis").1.contains("write 2d20kl1"));
    let (column, message) = error("flor(d6 / 2)");
    assert_eq!(column, 1);
    assert!(
        message.contains("max, min, abs, floor, ceil, round or pairs")
            && !message.contains("did you mean"),
        "{message}"
    );
    let (column, message) = error("3d6 / 2");
    assert_eq!(column, 5);
    assert!(
        message.contains("floor(a / b)")
            && message.contains("ceil(a / b)")
            && message.contains("round(a / b)"),
        "{message}"
    );
    assert!(error("floor(d6)").1.contains("write floor(a / b)"));
    assert!(matches!(
        parse("pairs(3d6, 2d6!!)").unwrap().node,
        Node::Pairs(_, _)
    ));
    for bad in [
        "pairs(3d6kh2, 2d6)",
        "pairs(3d6)",
        "pairs(3d6, 2)",
        "pairs(2d6!, d6)",
    ] {
        assert!(error(bad).1.contains("as in pairs(3d6, 2d6)"), "{bad}");
    }
    assert!(error("max(d6 / 2, 1)").1.contains("bare `/`"));
    assert!(error("10d10f1").1.contains("as in 10d10>=8f1"));
    assert!(error("10d10>=8f1f2").1.contains("second"));
    let e = parse("floor((3d6 + 1) / 2)").unwrap();
    assert!(matches!(
        e.node,
        Node::Binary(BinaryOp::Divide(Rounding::Floor), _, _)
    ));
    assert_eq!(e.span, Span { start: 0, end: 20 });
    assert!(matches!(
        parse("round(d6 / 4)").unwrap().node,
        Node::Binary(BinaryOp::Divide(Rounding::Round), _, _)
    ));
}

#[test]
fn hostile_input_is_bounded() {
    let deep = "(".repeat(400) + "1" + &")".repeat(400);
    assert!(error(&deep).1.contains("nested"));
    let minus = "-".repeat(400) + "1";
    assert!(error(&minus).1.contains("nested"));
    let long = "1+".repeat(600) + "1";
    assert!(error(&long).1.contains("at most"));
    assert!(parse("é").is_err());
    assert!(parse("1d6 1d6").is_err());
}
