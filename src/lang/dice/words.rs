//! Every roll said in words, on the page and in `fairdice roll`, so a
//! reader sees what was computed: "the number of dice of 8d10 showing 7 or
//! more", "1 when 1d20+5 is at least 15, else 0".

use super::{
    BinaryOp, Critical, Die, Explosion, Expr, Failure, Function, KeepRule, Modifier, Node, Pool,
    Rounding,
};
use crate::engine::pool::Condition;

/// What a roll of `expr` (written as `text`) measures.
pub(crate) fn describe(expr: &Expr, text: &str) -> String {
    match &expr.node {
        Node::Number(value) => value.to_string(),
        Node::Pool(pool) => describe_pool(pool, text),
        Node::Negate(inner) => format!("minus {}", describe(inner, text)),
        Node::Labelled(label, inner) => format!("{} ({label})", describe(inner, text)),
        Node::Group(_, pool) => describe_pool(pool, text),
        Node::Pairs(a, b) => format!(
            "the number of dice of {} beaten by {}, both sorted from the highest and paired \
             off, ties to {}",
            describe(b, text),
            describe(a, text),
            describe(b, text)
        ),
        Node::Compare(comparison, left, right) => format!(
            "1 when {} {} {}, else 0",
            side(left, text),
            comparison.words(),
            side(right, text)
        ),
        Node::Binary(op, left, right) => {
            let (a, b) = (describe(left, text), describe(right, text));
            match op {
                BinaryOp::Add => format!("{a} plus {b}"),
                BinaryOp::Subtract => format!("{a} minus {b}"),
                BinaryOp::Multiply => format!("{a} times {b}"),
                BinaryOp::Modulo => format!("the remainder of {a} divided by {b}"),
                BinaryOp::Divide(rounding) => format!(
                    "{a} divided by {b}, rounded {}",
                    match rounding {
                        Rounding::Floor => "down",
                        Rounding::Ceil => "up",
                        Rounding::Round => "to the nearest (halves away from zero)",
                    }
                ),
            }
        }
        Node::Call(function, arguments) => {
            let each: Vec<String> = arguments.iter().map(|a| describe(a, text)).collect();
            match function {
                Function::Max => format!("the highest of {}", list(&each, "and")),
                Function::Min => format!("the lowest of {}", list(&each, "and")),
                Function::Abs => format!("the size of {}", list(&each, "and")),
            }
        }
    }
}

/// A side of a comparison: its text when short, as a reader wrote it.
fn side(expr: &Expr, text: &str) -> String {
    match &expr.node {
        Node::Number(value) => value.to_string(),
        _ => format!("the total of {}", expr.span.text(text).trim()),
    }
}

/// "the total of 4d6 keeping the highest 3".
fn describe_pool(pool: &Pool, text: &str) -> String {
    let count = pool
        .rolled
        .as_ref()
        .map_or(pool.count.to_string(), |r| r.span.text(text).to_string());
    let dice = match pool.die {
        // A group: its die span covers the braces.
        Die::Standard(1) if pool.die_span.text(text).starts_with('{') => {
            pool.die_span.text(text).to_string()
        }
        _ => format!("{count}d{}", text_of_die(pool, text)),
    };
    let mut rules = Vec::new();
    if let Some(reroll) = pool.reroll {
        let how = if reroll.rule.until {
            "until it no longer does"
        } else {
            "once"
        };
        rules.push(format!(
            "rerolling a die showing {} {how}",
            condition(reroll.rule.condition)
        ));
    }
    if let Some(explode) = pool.explode {
        let when = explode.rule.map_or("the highest face".into(), |c| {
            format!("a face of {}", condition(c))
        });
        rules.push(match pool.explosion {
            Explosion::Pool if pool.explode_once => {
                format!("each die on {when} adding a new die, once")
            }
            Explosion::Pool => format!("each die on {when} adding a new die"),
            Explosion::Compound => format!("adding another roll to a die on {when}"),
            Explosion::Penetrate => {
                format!("adding another roll, one less, to a die on {when}")
            }
        });
    }
    if let Some(again) = pool.reroll_add {
        rules.push(format!(
            "adding one more die when any shows {}",
            condition(again.rule)
        ));
    }
    for (bound, word) in [(pool.floor, "least"), (pool.ceiling, "most")] {
        if let Some(bound) = bound {
            rules.push(format!("each die counting at {word} {}", bound.rule));
        }
    }
    for keep in &pool.keep {
        let written = keep.span.text(text);
        // `k3`: the families disagree, so say whose reading this is.
        let bare_k = written.len() > 1
            && written[..1].eq_ignore_ascii_case("k")
            && written[1..].bytes().all(|b| b.is_ascii_digit());
        rules.push(match keep.rule {
            KeepRule::KeepHighest(m) if bare_k => {
                format!("keeping the highest {m} (Roll20's {written}; Avrae's is k={m})")
            }
            KeepRule::KeepHighest(m) => format!("keeping the highest {m}"),
            KeepRule::KeepLowest(m) => format!("keeping the lowest {m}"),
            KeepRule::DropHighest(m) => format!("dropping the highest {m}"),
            KeepRule::DropLowest(m) => format!("dropping the lowest {m}"),
        });
    }
    for select in &pool.select {
        let shown: Vec<String> = select
            .rule
            .conditions
            .iter()
            .map(|&c| condition(c))
            .collect();
        rules.push(if select.rule.keep {
            format!("keeping only the dice showing {}", list(&shown, "or"))
        } else {
            format!("dropping the dice showing {}", list(&shown, "or"))
        });
    }
    for critical in &pool.criticals {
        rules.push(format!(
            "marking {} (Roll20's mark, which changes no total)",
            critical_words(critical.rule)
        ));
    }
    if pool.sorted.is_some() {
        rules.push("sorted (which changes no total)".to_string());
    }
    let rules = if rules.is_empty() {
        String::new()
    } else {
        format!(" {}", list(&rules, "and"))
    };
    let failing = |f: Modifier<Condition>| match pool.failure {
        Failure::Offset | Failure::Deduct => format!(", minus those showing {}", condition(f.rule)),
        Failure::Subtract => format!(
            ", each die showing {} counting minus its value",
            condition(f.rule)
        ),
    };
    // Foundry's `cs` and `cf` count; Roll20's mark. Say which was read.
    let read_as = match pool.successes {
        Some(s)
            if s.span
                .text(text)
                .get(..2)
                .is_some_and(|w| w.eq_ignore_ascii_case("cs") || w.eq_ignore_ascii_case("cf")) =>
        {
            " (Foundry's count; notation: roll20 reads Roll20's marks)"
        }
        _ => "",
    };
    match (pool.successes, pool.failures) {
        (Some(s), None) => format!(
            "the number of dice of {dice}{rules} showing {}{read_as}",
            condition(s.rule)
        ),
        (Some(s), Some(f)) => format!(
            "the number of dice of {dice}{rules} showing {}{}",
            condition(s.rule),
            failing(f)
        ),
        (None, Some(f)) if pool.failure == Failure::Deduct => format!(
            "the total of {dice}{rules}, each die showing {} counting -1",
            condition(f.rule)
        ),
        (None, Some(f)) => format!("the total of {dice}{rules}{}", failing(f)),
        _ if rules.is_empty() => dice,
        _ => format!("the total of {dice}{rules}"),
    }
}

fn text_of_die(pool: &Pool, text: &str) -> String {
    let die = pool.die_span.text(text);
    match die.strip_prefix(['d', 'D']) {
        Some(rest) => rest.to_string(),
        // Roll and keep (`6k3`) writes no die: it is a d10.
        None => pool.die.name()[1..].to_string(),
    }
}

/// "a die showing 19 or more a critical success".
pub(crate) fn critical_words(mark: Critical) -> String {
    let what = if mark.success { "success" } else { "failure" };
    format!(
        "a die showing {} a critical {what}",
        condition(mark.condition)
    )
}

/// "7 or more", "below 3", "exactly 1".
pub(crate) fn condition(condition: Condition) -> String {
    match condition {
        Condition::Eq(x) => format!("{x}"),
        Condition::Lt(x) => format!("below {x}"),
        Condition::Le(x) => format!("{x} or less"),
        Condition::Gt(x) => format!("above {x}"),
        Condition::Ge(x) => format!("{x} or more"),
    }
}

/// "a, b and c" (or "or").
pub(crate) fn list<T: AsRef<str>>(items: &[T], conjunction: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => format!(
            "{} {conjunction} {}",
            rest.iter()
                .map(AsRef::as_ref)
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::describe;

    fn words(text: &str) -> String {
        describe(&parse(text).unwrap(), text)
    }

    #[test]
    fn every_roll_is_said_in_words() {
        assert_eq!(
            words("8d10>=7"),
            "the number of dice of 8d10 showing 7 or more"
        );
        assert_eq!(
            words("1d20+5 >= 15"),
            "1 when the total of 1d20+5 is at least 15, else 0"
        );
        assert_eq!(
            words("d20 > d20"),
            "1 when the total of d20 is above the total of d20, else 0"
        );
        assert_eq!(
            words("max(1d6, 4d6 dl1dh1) + 2"),
            "the highest of 1d6 and the total of 4d6 dropping the lowest 1 and dropping the \
             highest 1 plus 2"
        );
        assert_eq!(
            words("10d10>=8f1"),
            "the number of dice of 10d10 showing 8 or more, minus those showing 1"
        );
        assert_eq!(words("floor(3d6 / 2)"), "3d6 divided by 2, rounded down");
        assert_eq!(words("(1d4)d6"), "(1d4)d6");
        assert_eq!(
            words("{2d20, 1d20+5}kh1"),
            "the total of {2d20, 1d20+5} keeping the highest 1"
        );
        assert_eq!(
            words("5d6!kh2"),
            "the total of 5d6 each die on the highest face adding a new die and keeping the highest 2"
        );
        assert_eq!(
            words("2d6ro1!!"),
            "the total of 2d6 rerolling a die showing 1 once and adding another roll to a die \
             on the highest face"
        );
    }
}
