//! Pools and their modifiers: `4d6`, `d{1,1,2}`, `dF` and what follows a
//! die (`kh3`, `ro1`, `!>=5`, `>=7`, `f1`). Apart from the expression
//! grammar because a pool is a small language of its own, and the larger.

use super::{did_you_mean, set_once, Parser, MODIFIERS};
use crate::analyses::dice_lang::{
    words, Die, Explosion, Expr, KeepRule, LangError, Modifier, Node, Pool, Reroll, Span,
};
use crate::engine::pool::Condition;

impl Parser {
    /// A pool from its `d` on; `count` is `None` for a bare `d6`.
    pub(super) fn pool(&mut self, start: usize, count: Option<u64>) -> Result<Expr, LangError> {
        let die_start = self.at;
        self.at += 1; // the `d` (or `D`)
        let die = match self.peek() {
            Some('F' | 'f') => {
                self.at += 1;
                Die::Fudge
            }
            Some('%') => {
                self.at += 1;
                Die::Standard(100)
            }
            Some('{') => {
                self.at += 1;
                self.faces()?
            }
            Some(c) if c.is_ascii_digit() => {
                let sides_start = self.at;
                let sides = self.integer()?;
                if sides == 0 {
                    return Err(LangError::new(
                        self.span_from(die_start),
                        "d0 has no faces: a die needs at least one face, as in d6",
                    ));
                }
                let sides = u64::try_from(sides)
                    .map_err(|_| LangError::new(self.span_from(sides_start), "too many faces"))?;
                Die::Standard(sides)
            }
            _ => {
                return Err(self.error_here(format!(
                "expected the die after `d`: a number of faces (d6), F, % or {{faces}}, found {}",
                self.found()
            )))
            }
        };
        let die_span = self.span_from(die_start);
        let mut pool = Pool {
            rolled: None,
            count: count.unwrap_or(1),
            count_written: count.is_some(),
            die,
            die_span,
            reroll: None,
            explode: None,
            explosion: Explosion::Pool,
            keep: Vec::new(),
            successes: None,
            failures: None,
        };
        self.modifiers(&mut pool)?;
        Ok(Expr {
            node: Node::Pool(pool),
            span: self.span_from(start),
        })
    }

    fn faces(&mut self) -> Result<Die, LangError> {
        let mut faces = Vec::new();
        loop {
            self.skip_spaces();
            if !self.peek().is_some_and(|c| c == '-' || c.is_ascii_digit()) {
                return Err(self.error_here(format!(
                    "expected a face (a whole number) in {{...}}, found {}",
                    self.found()
                )));
            }
            faces.push(self.signed_integer()?);
            self.skip_spaces();
            if self.eat(',') {
                continue;
            }
            if self.eat('}') {
                return Ok(Die::Custom(faces));
            }
            return Err(self.error_here(format!(
                "expected `,` or `}}` in the faces, found {}",
                self.found()
            )));
        }
    }

    pub(super) fn modifiers(&mut self, pool: &mut Pool) -> Result<(), LangError> {
        loop {
            // After a space, only a letter modifier or `!` (not `!=`)
            // belongs to the pool: `2d6 >= 7` compares the total.
            let before = self.at;
            self.skip_spaces();
            let next = self.peek().map(|c| c.to_ascii_lowercase());
            let spaced = self.at > before;
            let after = self.chars.get(self.at + 1).copied();
            if spaced
                && !(next.is_some_and(|c| c.is_ascii_alphabetic())
                    || (next == Some('!') && after != Some('=')))
            {
                self.at = before;
                return Ok(());
            }
            let start = self.at;
            if self.eat_str("ro") || self.eat_str("rr") {
                let until = self.chars[start + 1].eq_ignore_ascii_case(&'r');
                let condition = self.condition(true)?;
                let rule = Reroll { until, condition };
                set_once(&mut pool.reroll, rule, self.span_from(start), "reroll")?;
            } else if next == Some('r') && !after.is_some_and(|c| c.is_ascii_alphabetic()) {
                return Err(self.error_here(
                    "`r` alone means reroll until in Roll20 and reroll once in Foundry: \
                     write ro (as in ro1) to reroll once, or rr (as in rr1) to reroll until \
                     the face no longer matches",
                ));
            } else if self.eat('!') {
                pool.explosion = if self.eat('!') {
                    Explosion::Compound
                } else if self.eat_str("p") {
                    Explosion::Penetrate
                } else {
                    Explosion::Pool
                };
                let condition = if self.is_condition_at(self.at) {
                    Some(self.condition(true)?)
                } else {
                    None
                };
                set_once(
                    &mut pool.explode,
                    condition,
                    self.span_from(start),
                    "explode",
                )?;
            } else if let Some(kind) = self.keep_kind() {
                let amount = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    u64::try_from(self.integer()?).unwrap_or(u64::MAX)
                } else {
                    1
                };
                let rule = match kind {
                    "kh" | "k" => KeepRule::KeepHighest(amount),
                    "kl" => KeepRule::KeepLowest(amount),
                    "dh" => KeepRule::DropHighest(amount),
                    _ => KeepRule::DropLowest(amount),
                };
                let span = self.span_from(start);
                pool.keep.push(Modifier { rule, span });
            } else if !spaced && next.is_some_and(|c| "<>=".contains(c)) {
                let condition = self.condition(false)?;
                set_once(
                    &mut pool.successes,
                    condition,
                    self.span_from(start),
                    "count",
                )?;
            } else if next == Some('f') && self.is_condition_at(self.at + 1) {
                self.at += 1;
                let condition = self.condition(true)?;
                let span = self.span_from(start);
                if pool.successes.is_none() {
                    return Err(LangError::new(
                        span,
                        "f counts failures against successes: write the success count first, \
                         as in 10d10>=8f1",
                    ));
                }
                set_once(&mut pool.failures, condition, span, "failure")?;
            } else if next.is_some_and(|c| c.is_ascii_alphanumeric()) {
                return Err(self.unknown_modifier());
            } else {
                self.at = before;
                return Ok(());
            }
        }
    }

    /// Whether a condition (`5`, `<3`, `>=5`) starts at `at`.
    fn is_condition_at(&self, at: usize) -> bool {
        self.chars
            .get(at)
            .is_some_and(|c| c.is_ascii_digit() || "<>=".contains(*c))
    }

    /// The word at the cursor is no modifier: list them, and suggest the
    /// nearest with the number that follows ("did you mean kh3?").
    fn unknown_modifier(&self) -> LangError {
        let start = self.at;
        let mut end = start;
        while self.chars.get(end).is_some_and(char::is_ascii_alphabetic) {
            end += 1;
        }
        let word: String = self.chars[start..end].iter().collect();
        let word = word.to_ascii_lowercase();
        let mut digits = end;
        while self.chars.get(digits).is_some_and(char::is_ascii_digit) {
            digits += 1;
        }
        let number: String = self.chars[end..digits].iter().collect();
        let hint = match word.as_str() {
            "adv" | "advantage" => "; for advantage write 2d20kh1 (the higher of two d20)".into(),
            "dis" | "disadv" | "disadvantage" => {
                "; for disadvantage write 2d20kl1 (the lower of two d20)".into()
            }
            _ => did_you_mean(&word, &MODIFIERS, &number),
        };
        LangError::new(
            Span {
                start,
                end: end.max(start + 1),
            },
            format!(
                "unknown modifier `{word}`: expected {}, ! or a condition such as >=5{hint}",
                words::list(&MODIFIERS, "or")
            ),
        )
    }

    /// `kh`, `kl`, `dh`, `dl`, or the shorthands `k` (keep highest) and
    /// `d` before a number (drop lowest), as Roll20 writes them.
    fn keep_kind(&mut self) -> Option<&'static str> {
        if let Some(kind) = ["kh", "kl", "dh", "dl"]
            .into_iter()
            .find(|kind| self.eat_str(kind))
        {
            return Some(kind);
        }
        let next = self.chars.get(self.at + 1);
        let word_ends = !next.is_some_and(char::is_ascii_alphabetic);
        if self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'k')) && word_ends {
            self.at += 1;
            return Some("k");
        }
        if self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'d'))
            && next.is_some_and(char::is_ascii_digit)
        {
            self.at += 1;
            return Some("dl");
        }
        None
    }

    /// `X`, `=X`, `<X`, `<=X`, `>X`, `>=X`; a bare number only where
    /// `bare` allows it (after ro, rr and !).
    fn condition(&mut self, bare: bool) -> Result<Condition, LangError> {
        let make: fn(i64) -> Condition = if self.eat_str("<=") {
            Condition::Le
        } else if self.eat_str(">=") {
            Condition::Ge
        } else if self.eat('<') {
            Condition::Lt
        } else if self.eat('>') {
            Condition::Gt
        } else if self.eat('=') {
            Condition::Eq
        } else if bare && self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Ok(Condition::Eq(self.integer()?));
        } else {
            return Err(self.error_here(format!(
                "expected a condition such as 1, <3 or >=5, found {}",
                self.found()
            )));
        };
        if !self.peek().is_some_and(|c| c == '-' || c.is_ascii_digit()) {
            return Err(self.error_here(format!(
                "expected a number after the comparison, found {}",
                self.found()
            )));
        }
        Ok(make(self.signed_integer()?))
    }
}
