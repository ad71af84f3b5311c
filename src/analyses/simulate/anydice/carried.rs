//! What the replay cannot follow: in the exact interpreter (and in
//! AnyDice) the cases of one call (a die passed to a `:n` or `:s`
//! parameter, case by case) share the function's own variables, so a
//! variable one case sets is seen by the cases after it. The replay runs
//! each call as one case with fresh variables. A function that reads a
//! variable of its own before it surely sets it (corpus program 7f1:
//! `if REROLL { REROLL: 0 ... }`) may see such a carried value, and is
//! named as not replayed rather than compared.

use crate::lang::anydice::syntax::{Expr, Piece, Statement, Type};
use std::collections::BTreeSet;

/// The first function of `program` that may read a variable carried from
/// an earlier case of its call, as "[key] reads NAME": one with a number or
/// sequence parameter (a call of it may go case by case) that reads a
/// variable it also sets, before it surely has.
pub(crate) fn carried(program: &[Statement]) -> Option<String> {
    program.iter().find_map(|statement| {
        let Statement::Function(f) = statement else {
            return None;
        };
        if !f
            .params
            .iter()
            .any(|(_, t)| matches!(t, Type::Number | Type::Sequence))
        {
            return None;
        }
        let mut set = BTreeSet::new();
        sets(&f.body, &mut set);
        let mut surely: BTreeSet<&str> = f.params.iter().map(|(n, _)| &**n).collect();
        let mut early = None;
        walk(&f.body, &set, &mut surely, &mut early);
        early.map(|name| format!("[{}] reads {name}", f.key()))
    })
}

/// The names `statements` assign, at any depth.
fn sets<'p>(statements: &'p [Statement], out: &mut BTreeSet<&'p str>) {
    for statement in statements {
        match statement {
            Statement::Assign(name, _) => {
                out.insert(name);
            }
            Statement::If {
                branches,
                otherwise,
            } => {
                for (_, body, _) in branches {
                    sets(body, out);
                }
                if let Some(body) = otherwise {
                    sets(body, out);
                }
            }
            Statement::Loop { body, .. } => sets(body, out),
            _ => {}
        }
    }
}

/// Walks `statements` in order, `surely` holding the names set on every
/// path so far; the first read of a name in `set` outside `surely` goes to
/// `early`.
fn walk<'p>(
    statements: &'p [Statement],
    set: &BTreeSet<&str>,
    surely: &mut BTreeSet<&'p str>,
    early: &mut Option<String>,
) {
    let seen = |name: &str, surely: &BTreeSet<&str>, early: &mut Option<String>| {
        if early.is_none() && set.contains(name) && !surely.contains(name) {
            *early = Some(name.to_string());
        }
    };
    let read = |e: &Expr, surely: &BTreeSet<&str>, early: &mut Option<String>| {
        e.visit(&mut |name| seen(name, surely, early), &mut |_| {})
    };
    for statement in statements {
        match statement {
            Statement::Assign(name, value) => {
                read(value, surely, early);
                surely.insert(name);
            }
            Statement::Output { value, name, .. } => {
                read(value, surely, early);
                for piece in name.iter().flatten() {
                    if let Piece::Variable(v) = piece {
                        seen(v, surely, early);
                    }
                }
            }
            Statement::Result(value) => read(value, surely, early),
            Statement::If {
                branches,
                otherwise,
            } => {
                for (condition, body, _) in branches {
                    read(condition, surely, early);
                    walk(body, set, &mut surely.clone(), early);
                }
                if let Some(body) = otherwise {
                    walk(body, set, &mut surely.clone(), early);
                }
            }
            Statement::Loop {
                variable,
                over,
                body,
                ..
            } => {
                read(over, surely, early);
                let mut inside = surely.clone();
                inside.insert(variable);
                walk(body, set, &mut inside, early);
            }
            Statement::Set { .. } | Statement::Function(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::anydice::read;

    fn check(program: &str) -> Option<String> {
        carried(&read(program).unwrap())
    }

    #[test]
    fn a_variable_read_before_the_function_sets_it_is_carried() {
        // Corpus program 7f1: the second case sees REROLL: 0 from the first.
        let rerolled = "function: skillroll DIE:n {\n if DIE < 3 {\n  if REROLL {\n   REROLL: 0\n   result: [skillroll 1d6]\n  }\n  else { result: 0 }\n }\n else { result: 1 }\n}\nREROLL: 1\noutput [skillroll 1d6]\n";
        assert_eq!(
            check(rerolled).as_deref(),
            Some("[skillroll _] reads REROLL")
        );
        // Set in one branch, read after it: not surely set.
        let branch = "function: f X:n {\n if X > 3 { Y: 1 }\n result: Y\n}\nY: 0\noutput [f d6]\n";
        assert_eq!(check(branch).as_deref(), Some("[f _] reads Y"));
    }

    #[test]
    fn variables_set_first_parameters_and_dice_parameters_are_not() {
        // Set before any read (ddf7's counter), or a parameter.
        assert_eq!(
            check("function: dupes in D:s {\n N: 0\n loop X over {2..#D} {\n  if (X-1)@D = X@D { N: N + 1 }\n }\n result: N\n}\noutput [dupes in 8d10]\n"),
            None
        );
        // Read but never set in the function: the caller's, alike in
        // every case.
        assert_eq!(
            check("T: 4\nfunction: f X:n { result: X >= T }\noutput [f d6]\n"),
            None
        );
        // A die parameter never goes case by case.
        assert_eq!(
            check("function: f X:d {\n if Y { Y: 0 }\n result: X\n}\nY: 1\noutput [f d6]\n"),
            None
        );
    }
}
