//! A dice value as a scenario writes it: every kind reads its dice into
//! one [`Expression`], and asks it for the shape it needs (one die, a die
//! with faces 1 to k, a pool of identical dice), so there is one grammar
//! and one type, and a value of the wrong shape is refused where it stands.

use super::{
    check, parse_in, Die, Expr, LangError, Node, Notation, Pool, Span, DEFAULT_EXPLODE_DEPTH,
};
use crate::engine::IdenticalDice;
use serde::de::{self, DeserializeSeed, Deserializer};
use serde::Deserialize;
use std::fmt;

/// An expression with its text; read from YAML, it is parsed and its rules
/// checked at once, so a mistake is reported at the expression's line.
#[derive(Clone, PartialEq)]
pub struct Expression {
    /// As written.
    pub text: String,
    /// Its syntax tree.
    pub tree: Expr,
}

impl fmt::Debug for Expression {
    // The text alone keys the cache; the tree follows from it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.text)
    }
}

impl fmt::Display for Expression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text.trim())
    }
}

/// What [`Expression::pool`] and its kin ask for, as their errors say it.
pub(crate) const DICE: &str = "expected dice like \"d6\" or \"2d6\"";
pub(crate) const ONE_DIE: &str = "expected one die such as d6, dF, d% or d{1,2,3}";
pub(crate) const STANDARD_DIE: &str = "expected one die with faces 1 to k, such as \"d8\"";

impl Expression {
    /// Parse and check the rules (the price waits for the explosion depth).
    pub fn read(text: &str) -> Result<Self, LangError> {
        Self::read_in(text, Notation::Standard)
    }

    /// Read in a family's notation where families disagree.
    pub fn read_in(text: &str, notation: Notation) -> Result<Self, LangError> {
        let tree = parse_in(text, notation)?;
        check(&tree, DEFAULT_EXPLODE_DEPTH)?;
        Ok(Expression {
            text: text.to_string(),
            tree,
        })
    }

    /// One die of any faces (`d6`, `1d6`, `dF`, `d%`, `d{1,1,2}`), with at
    /// most `max_faces` faces, refused before any face is counted.
    pub(crate) fn one_die(&self, max_faces: u64) -> Result<&Die, LangError> {
        let pool = self.plain_dice(ONE_DIE)?;
        if pool.count != 1 {
            return Err(self.error(format!("{ONE_DIE}, found {} dice", pool.count)));
        }
        if pool.die.face_count() > max_faces {
            return Err(self.error(format!("a die here has at most {max_faces} faces")));
        }
        Ok(&pool.die)
    }

    /// The faces k of one die numbered 1 to k (`d8`, `1d8`), k at least 2.
    pub(crate) fn standard_die(&self) -> Result<u64, LangError> {
        let pool = self.plain_dice(STANDARD_DIE)?;
        let sides = self.sides(pool, STANDARD_DIE)?;
        if pool.count != 1 {
            return Err(self.error(format!(
                "`{self}` rolls {} dice: this kind reads a single die, such as \"d{sides}\"",
                pool.count
            )));
        }
        Ok(sides)
    }

    /// N identical dice numbered 1 to k, summed (`2d6`; a bare `d6` is one
    /// die, and [`Expression::count_written`] tells the two apart).
    pub fn pool(&self) -> Result<IdenticalDice, LangError> {
        let pool = self.plain_dice(DICE)?;
        let sides = self.sides(pool, DICE)?;
        Ok(IdenticalDice {
            count: pool.count,
            sides,
        })
    }

    /// N identical dice numbered 1 to k with N written (`2d6`, `1d6`): a
    /// bare `d6` is refused.
    pub(crate) fn counted_pool(&self) -> Result<IdenticalDice, LangError> {
        let dice = self.pool()?;
        if !self.count_written() {
            return Err(self.error(format!(
                "expected a fixed number of dice, such as \"2{self}\": write how many \
                 dice are rolled before the `d`"
            )));
        }
        Ok(dice)
    }

    /// Whether the value is dice with their count written (`2d6`, `1d6`),
    /// not a bare `d6` whose count a kind may choose.
    pub(crate) fn count_written(&self) -> bool {
        matches!(&self.tree.node, Node::Pool(pool) if pool.count_written)
    }

    /// The dice when the value is dice alone, with no modifier.
    fn plain_dice(&self, expected: &str) -> Result<&Pool, LangError> {
        let pool = match &self.tree.node {
            Node::Pool(pool) => pool,
            Node::Number(number) => {
                return Err(self.error(format!("{expected}, found the number {number}")))
            }
            _ => {
                return Err(self.error(format!(
                    "{expected}, found arithmetic: sums and functions of dice belong to \
                     the `dice` kind"
                )))
            }
        };
        match pool.first_modifier() {
            Some(span) => Err(LangError::new(
                span,
                format!(
                    "{expected}, without modifiers: this kind rolls the dice as they are, \
                     so drop `{}`",
                    span.text(&self.text)
                ),
            )),
            None => Ok(pool),
        }
    }

    /// The faces k of a pool's die numbered 1 to k, k at least 2.
    fn sides(&self, pool: &Pool, expected: &str) -> Result<u64, LangError> {
        match pool.die {
            Die::Standard(sides) if sides >= 2 => Ok(sides),
            Die::Standard(_) => Err(LangError::new(
                pool.die_span,
                "a die needs at least 2 faces, as in d2 or d6",
            )),
            _ => Err(LangError::new(
                pool.die_span,
                format!(
                    "{expected}: `{}` has faces other than 1 to k",
                    pool.die_span.text(&self.text)
                ),
            )),
        }
    }

    fn error(&self, message: String) -> LangError {
        LangError::new(self.tree.span, message)
    }
}

impl Pool {
    /// Where the first modifier was written, if any.
    fn first_modifier(&self) -> Option<Span> {
        [
            self.rolled.as_ref().map(|r| r.span),
            self.reroll.map(|m| m.span),
            self.explode.map(|m| m.span),
            self.keep.first().map(|m| m.span),
            self.successes.map(|m| m.span),
            self.failures.map(|m| m.span),
        ]
        .into_iter()
        .flatten()
        .min_by_key(|span| span.start)
    }
}

/// Read a dice value and give it its shape inside serde_yaml's visitor, so
/// an error keeps the value's line and column: `Shape(DICE,
/// Expression::pool)` reads `2d6` as [`IdenticalDice`] and refuses `4d6kh3`
/// where it stands. The first field says what was expected when the value
/// is not even an expression (empty for any expression).
#[derive(Clone, Copy)]
pub struct Shape<F>(pub &'static str, pub F);

impl<'de, T, F> DeserializeSeed<'de> for Shape<F>
where
    F: Fn(&Expression) -> Result<T, LangError>,
{
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<T, F> de::Visitor<'_> for Shape<F>
where
    F: Fn(&Expression) -> Result<T, LangError>,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("dice such as \"d6\", \"2d6\" or \"4d6dl1\"")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        let expression = Expression::read(text).map_err(|e| match self.0 {
            "" => E::custom(e.describe(text)),
            expected => E::custom(format!("{expected}, found {text:?}; {e}")),
        })?;
        (self.1)(&expression).map_err(|e| E::custom(e.describe(text)))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<T, E> {
        self.visit_str(&value.to_string())
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<T, E> {
        self.visit_str(&value.to_string())
    }
}

impl<'de> Deserialize<'de> for Expression {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Shape("", |expression: &Expression| Ok(expression.clone())).deserialize(deserializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Dist;
    use crate::lang::dice::evaluate;
    use num_bigint::BigUint;

    fn read(text: &str) -> Expression {
        Expression::read(text).unwrap()
    }

    /// The message as a scenario's author reads it.
    fn refusal<T: fmt::Debug>(
        text: &str,
        shape: impl Fn(&Expression) -> Result<T, LangError>,
    ) -> String {
        shape(&read(text)).unwrap_err().describe(text)
    }

    #[test]
    fn pools_are_read_with_their_count() {
        for (text, count, sides, written) in [
            ("2d6", 2, 6, true),
            ("d6", 1, 6, false),
            ("1d6", 1, 6, true),
            ("10D20", 10, 20, true),
            ("d%", 1, 100, false),
        ] {
            let dice = read(text);
            assert_eq!(
                dice.pool().unwrap(),
                IdenticalDice { count, sides },
                "{text}"
            );
            assert_eq!(dice.count_written(), written, "{text}");
        }
        assert_eq!(read("d8").standard_die().unwrap(), 8);
        assert_eq!(read("1d8").standard_die().unwrap(), 8);
        assert_eq!(read("dF").one_die(10).unwrap(), &Die::Fudge);
        assert_eq!(
            read("d{1,1,2}").one_die(10).unwrap(),
            &Die::Custom(vec![1, 1, 2])
        );
    }

    #[test]
    fn values_of_the_wrong_shape_are_refused_with_the_fix() {
        let keep = refusal("4d6kh3", |e| e.one_die(100).cloned());
        assert!(
            keep.contains("expected one die") && keep.contains("column 4"),
            "{keep}"
        );
        assert!(keep.contains("drop `kh3`"), "{keep}");
        let many = refusal("4d6", |e| e.one_die(100).cloned());
        assert!(many.contains("found 4 dice"), "{many}");
        let two = refusal("2d8", Expression::standard_die);
        assert!(
            two.contains("rolls 2 dice") && two.contains("\"d8\""),
            "{two}"
        );
        let fudge = refusal("dF", Expression::standard_die);
        assert!(fudge.contains("faces other than 1 to k"), "{fudge}");
        let number = refusal("6", Expression::pool);
        assert!(number.contains("expected dice like \"d6\"") && number.contains("number 6"));
        let sum = refusal("2d6 + 1", Expression::pool);
        assert!(sum.contains("`dice` kind"), "{sum}");
        let one_face = refusal("3d1", Expression::pool);
        assert!(one_face.contains("at least 2 faces") && one_face.contains("column 2"));
        let exploding = refusal("2d6!", Expression::pool);
        assert!(exploding.contains("drop `!`"), "{exploding}");
        let wide = refusal("d{1,2,3}", |e| e.one_die(2).cloned());
        assert!(wide.contains("at most 2 faces"), "{wide}");
    }

    /// The shapes mean what the dice language means: a pool read through
    /// [`Expression::pool`] rolls the same totals as the expression itself.
    #[test]
    fn shapes_agree_with_the_dice_language() {
        for count in 1..=4u64 {
            for sides in 2..=7u64 {
                let text = format!("{count}d{sides}");
                let dice = read(&text).pool().unwrap();
                let totals = Dist::dice(dice.count, dice.sides).unwrap();
                let language = evaluate(&read(&text).tree, DEFAULT_EXPLODE_DEPTH);
                let from_shape: Vec<(i64, BigUint)> = totals
                    .iter()
                    .map(|(total, ways)| (total as i64, ways.clone()))
                    .collect();
                let from_language: Vec<(i64, BigUint)> = language
                    .iter()
                    .map(|(value, ways)| (value, ways.clone()))
                    .collect();
                assert_eq!(from_shape, from_language, "{text}");
            }
        }
        for sides in 2..=12u64 {
            let text = format!("d{sides}");
            let die = read(&text).standard_die().unwrap();
            let faces = read(&text).one_die(100).unwrap().outcomes().unwrap();
            assert_eq!(faces.iter().count() as u64, die, "{text}");
        }
    }
}
