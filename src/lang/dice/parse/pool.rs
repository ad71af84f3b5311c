//! Pools and their modifiers: `4d6`, `d{1,1,2}`, `dF` and what follows a
//! die (`kh3`, `ro1`, `!>=5`, `>=7`, `f1`). Apart from the expression
//! grammar because a pool is a small language of its own, and the larger.

use super::{set_once, Parser, MODIFIERS};
use crate::engine::pool::Condition;
use crate::lang::dice::{
    words, Critical, Die, Explosion, Expr, Failure, KeepRule, LangError, Modifier, Node, Notation,
    Pool, Reroll, Select, Span,
};

impl Parser {
    /// A pool from its `d` on; `count` is `None` for a bare `d6`.
    pub(super) fn pool(&mut self, start: usize, count: Option<u64>) -> Result<Expr, LangError> {
        let die_start = self.at;
        self.at += 1; // the `d` (or `D`)
        let die = match self.peek() {
            Some('F' | 'f') => {
                self.at += 1;
                // Roll20's variants: `dF.1` has one minus, four blanks and
                // one plus; `dF.2` is the usual two of each, as `dF`.
                if self.eat_str(".1") {
                    Die::Custom(vec![-1, 0, 0, 0, 0, 1])
                } else {
                    self.eat_str(".2");
                    Die::Fudge
                }
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
        let mut pool = Pool::plain(count.unwrap_or(1), die, die_span);
        pool.count_written = count.is_some();
        pool.start = start;
        self.modifiers(&mut pool)?;
        written_order(&pool)?;
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
            if !self.modifier(pool, spaced)? {
                self.at = before;
                return Ok(());
            }
        }
    }

    /// One modifier at the cursor, read into `pool`; false when none
    /// starts there. Each family's letters are read as that family means
    /// them; where two disagree, the error names both.
    fn modifier(&mut self, pool: &mut Pool, spaced: bool) -> Result<bool, LangError> {
        let start = self.at;
        let next = self.peek().map(|c| c.to_ascii_lowercase());
        let after = self.chars.get(self.at + 1).map(char::to_ascii_lowercase);
        if self.eat_str("ro") || self.eat_str("rr") {
            let until = self.chars[start + 1].eq_ignore_ascii_case(&'r');
            let condition = self.condition(true)?;
            let rule = Reroll { until, condition };
            set_once(&mut pool.reroll, rule, self.span_from(start), "reroll")?;
        } else if self.eat_str("ra") {
            let condition = self.condition(true)?;
            set_once(
                &mut pool.reroll_add,
                condition,
                self.span_from(start),
                "reroll-and-add",
            )?;
        } else if next == Some('r') && self.word_ends(self.at + 1) {
            return Err(self.error_here(
                "`r` alone means reroll until in Roll20 and reroll once in Foundry: \
                 write ro (as in ro1) to reroll once, or rr (as in rr1) to reroll until \
                 the face no longer matches",
            ));
        } else if self.eat('!') {
            let explosion = if self.eat('!') {
                Explosion::Compound
            } else if self.eat_str("p") {
                Explosion::Penetrate
            } else {
                Explosion::Pool
            };
            self.explosion(pool, start, explosion, false)?;
        } else if next == Some('x') && (self.word_ends(self.at + 1) || after == Some('o')) {
            // Foundry: `x` explodes into the pool, `xo` once per die.
            self.at += 1;
            let once = self.eat_str("o");
            self.explosion(pool, start, Explosion::Pool, once)?;
        } else if next == Some('e') && (after.is_some_and(|c| "lh".contains(c))) {
            return Err(self.error_here(
                "Avrae's e explodes the dice showing a value: write e6, e>4 or e<2; \
                 exploding the highest or lowest dice (eh, el) is not computed",
            ));
        } else if next == Some('e') && self.is_condition_at(self.at + 1) {
            // Avrae: `e6`, `e>4` explode into the pool on those values.
            self.at += 1;
            let condition = self.condition(true)?;
            pool.explosion = Explosion::Pool;
            set_once(
                &mut pool.explode,
                Some(condition),
                self.span_from(start),
                "explode",
            )?;
        } else if let Some(floor) = self.clamp_word() {
            let value = self.clamp_value()?;
            let span = self.span_from(start);
            let slot = if floor {
                &mut pool.floor
            } else {
                &mut pool.ceiling
            };
            set_once(slot, value, span, if floor { "minimum" } else { "maximum" })?;
        } else if self.notation == Notation::Roll20 && (self.eat_str("cs") || self.eat_str("cf")) {
            // Roll20 marks the die; the total stands.
            let success = self.chars[start + 1].eq_ignore_ascii_case(&'s');
            let condition = self.condition(true)?;
            pool.criticals.push(Modifier {
                rule: Critical { success, condition },
                span: self.span_from(start),
            });
        } else if self.eat_str("cs") {
            let condition = self.condition(true)?;
            self.count(pool, start, condition)?;
        } else if self.eat_str("cf") {
            // Foundry counts the failures: the total is how many there are.
            let condition = self.condition(true)?;
            self.count(pool, start, condition)?;
        } else if self.eat_str("df") || self.eat_str("sf") {
            let failure = if self.chars[start].eq_ignore_ascii_case(&'d') {
                Failure::Deduct
            } else {
                Failure::Subtract
            };
            let condition = self.condition(true)?;
            pool.failure = failure;
            set_once(
                &mut pool.failures,
                condition,
                self.span_from(start),
                "failure",
            )?;
        } else if next == Some('s')
            && (self.word_ends(self.at + 1)
                || (after.is_some_and(|c| "ad".contains(c)) && self.word_ends(self.at + 2)))
        {
            // Sorting (`s`, `sa`, `sd`) shows the dice in order: no total
            // changes, and the words say so.
            self.at += if self.word_ends(self.at + 1) { 1 } else { 2 };
            pool.sorted = Some(self.span_from(start));
        } else if let Some(select) = self.select_kind() {
            let condition = self.condition(true)?;
            let span = self.span_from(start);
            match pool.select.last_mut() {
                // Avrae joins a run of one operator: `k5k6` keeps either.
                Some(last) if last.span.end == start && last.rule.keep == select => {
                    last.rule.conditions.push(condition);
                    last.span.end = span.end;
                }
                _ => pool.select.push(Modifier {
                    rule: Select {
                        keep: select,
                        conditions: vec![condition],
                    },
                    span,
                }),
            }
        } else if let Some(kind) = self.keep_kind() {
            let amount = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                u64::try_from(self.integer()?).unwrap_or(u64::MAX)
            } else {
                1
            };
            let rule = match kind {
                "kh" | "k" => KeepRule::KeepHighest(amount),
                "kl" => KeepRule::KeepLowest(amount),
                "dh" | "ph" => KeepRule::DropHighest(amount),
                _ => KeepRule::DropLowest(amount),
            };
            let span = self.span_from(start);
            if let Some(select) = pool.select.first() {
                return Err(LangError::new(
                    span,
                    format!(
                        "`{}` keeps or drops by value: fairdice computes that only after the \
                         keeps and drops by rank",
                        self.text_of(select.span)
                    ),
                ));
            }
            pool.keep.push(Modifier { rule, span });
        } else if !spaced && next.is_some_and(|c| "<>=".contains(c)) {
            let condition = self.condition(false)?;
            self.count(pool, start, condition)?;
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
            return Ok(false);
        }
        Ok(true)
    }

    /// Whether no letter stands at `at`: a modifier's word ends there.
    fn word_ends(&self, at: usize) -> bool {
        !self.chars.get(at).is_some_and(char::is_ascii_alphabetic)
    }

    /// The explosion from its letters on: its condition, if written.
    fn explosion(
        &mut self,
        pool: &mut Pool,
        start: usize,
        explosion: Explosion,
        once: bool,
    ) -> Result<(), LangError> {
        pool.explosion = explosion;
        pool.explode_once = once;
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
        )
    }

    /// A count of the dice meeting `condition` (`>=7`, Foundry's `cs>=7`).
    fn count(
        &mut self,
        pool: &mut Pool,
        start: usize,
        condition: Condition,
    ) -> Result<(), LangError> {
        let span = self.span_from(start);
        if pool.successes.is_some() {
            return Err(LangError::new(
                span,
                "a pool takes one count: this is the second (Foundry counts only the \
                 last of cs and cf, so write one)",
            ));
        }
        pool.successes = Some(Modifier {
            rule: condition,
            span,
        });
        Ok(())
    }

    /// `mi`/`min` (true) or `ma`/`max` (false) before a number.
    fn clamp_word(&mut self) -> Option<bool> {
        for (word, floor) in [("min", true), ("max", false), ("mi", true), ("ma", false)] {
            let at = self.at;
            if self.eat_str(word) {
                if self.peek().is_some_and(|c| c == '-' || c.is_ascii_digit()) {
                    return Some(floor);
                }
                self.at = at;
            }
        }
        None
    }

    fn clamp_value(&mut self) -> Result<i64, LangError> {
        self.signed_integer()
    }

    /// Avrae's keep (`k<3`, `k>3`) or drop (`p1`, `p<3`) by value: true
    /// for a keep. `k3` stays Roll20's and Foundry's keep of the highest 3.
    fn select_kind(&mut self) -> Option<bool> {
        let next = self.peek().map(|c| c.to_ascii_lowercase());
        let after = self.chars.get(self.at + 1).copied();
        let comparison = after.is_some_and(|c| "<>=".contains(c));
        match next {
            Some('k') if comparison => {}
            Some('p') if comparison || after.is_some_and(|c| c.is_ascii_digit()) => {}
            _ => return None,
        }
        self.at += 1;
        Some(next == Some('k'))
    }

    /// Whether a condition (`5`, `<3`, `>=5`) starts at `at`.
    fn is_condition_at(&self, at: usize) -> bool {
        self.chars
            .get(at)
            .is_some_and(|c| c.is_ascii_digit() || "<>=".contains(*c))
    }

    /// The word at the cursor is no modifier: list them, with a hint only
    /// where it keeps the meaning (advantage, a keep without its number).
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
        // No guess from spelling: a suggestion must mean what was written
        // in some family, and a near word (kj3 → kh3) means nothing there.
        let hint = match word.as_str() {
            "adv" | "advantage" => "; for advantage write 2d20kh1 (the higher of two d20)",
            "dis" | "disadv" | "disadvantage" => {
                "; for disadvantage write 2d20kl1 (the lower of two d20)"
            }
            "d" | "k" | "kh" | "kl" | "dh" | "dl" | "ph" | "pl" if number.is_empty() => {
                "; a keep or drop says how many dice, as in 4d6d1 or 4d6kh3"
            }
            _ => "",
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

    /// `kh`, `kl`, `dh`, `dl`, Avrae's `ph`, `pl` (drop highest, lowest),
    /// or the shorthands `k` (keep highest) and `d` before a number (drop
    /// lowest), as Roll20 writes them.
    fn keep_kind(&mut self) -> Option<&'static str> {
        if let Some(kind) = ["kh", "kl", "dh", "dl", "ph", "pl"]
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
        // Roll20's `>` and `<` include the number itself.
        let roll20 = self.notation == Notation::Roll20;
        let make: fn(i64) -> Condition = if self.eat_str("<=") {
            Condition::Le
        } else if self.eat_str(">=") {
            Condition::Ge
        } else if self.eat('<') {
            if roll20 {
                Condition::Le
            } else {
                Condition::Lt
            }
        } else if self.eat('>') {
            if roll20 {
                Condition::Ge
            } else {
                Condition::Gt
            }
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

/// The orders fairdice computes, the others refused where they stand: a
/// die's value is held (`mi`, `ma`) after its rerolls and explosions and
/// before keeps by value; Avrae's `ra` stands alone, or with `mi` and `ma`.
fn written_order(pool: &Pool) -> Result<(), LangError> {
    for clamp in [pool.floor, pool.ceiling].into_iter().flatten() {
        let after = [
            pool.reroll.map(|m| m.span),
            pool.explode.map(|m| m.span),
            pool.reroll_add.map(|m| m.span),
        ];
        if after
            .into_iter()
            .flatten()
            .any(|s| s.start > clamp.span.start)
        {
            return Err(LangError::new(
                clamp.span,
                "mi, ma, min and max hold each die's final value: write them after rerolls \
                 and explosions",
            ));
        }
        if pool.select.iter().any(|s| s.span.start < clamp.span.start) {
            return Err(LangError::new(
                clamp.span,
                "mi, ma, min and max hold a die's value before any keep or drop by value: \
                 write them first",
            ));
        }
    }
    if let Some(ra) = pool.reroll_add {
        let others = [
            pool.reroll.map(|m| m.span),
            pool.explode.map(|m| m.span),
            pool.keep.first().map(|m| m.span),
            pool.select.first().map(|m| m.span),
            pool.successes.map(|m| m.span),
            pool.failures.map(|m| m.span),
        ];
        if others.into_iter().flatten().next().is_some() {
            return Err(LangError::new(
                ra.span,
                "ra (Avrae) is computed alone or with mi and ma, not with other rerolls, \
                 explosions, keeps or counts",
            ));
        }
    }
    Ok(())
}
