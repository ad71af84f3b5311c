//! The estimate's walk over statements and expressions: blocks, branches,
//! loops, settings and sequences, as the run takes them.

use super::*;

impl Estimator {
    pub(super) fn tick(&mut self, n: u64) {
        self.ticks += n;
        if self.ticks > MAX_TICKS {
            self.over = true;
        }
    }

    pub(super) fn charge(&mut self, steps: f64) {
        self.steps += steps.max(0.0);
        if steps > self.dearest.0 {
            self.dearest = (steps, self.at.clone());
        }
    }

    pub(super) fn assign(&mut self, name: &Name, value: Shape) {
        self.frames.assign(name, value);
    }

    pub(super) fn variable(&self, name: &str) -> Option<&Shape> {
        self.frames.variable(name)
    }

    pub(super) fn block(&mut self, statements: &[Statement]) -> Flow {
        let mut result = None;
        for statement in statements {
            if self.over {
                break;
            }
            let flow = self.statement(statement);
            result = join_maybe(result, flow.result);
            if flow.surely {
                return Flow {
                    result,
                    surely: true,
                };
            }
        }
        Flow {
            result,
            surely: false,
        }
    }

    pub(super) fn statement(&mut self, statement: &Statement) -> Flow {
        let next = Flow {
            result: None,
            surely: false,
        };
        match statement {
            Statement::Output { value, .. } => {
                let v = self.expression(value);
                self.shown(&v);
            }
            Statement::Assign(name, value) => {
                let v = self.expression(value);
                self.assign(name, v);
            }
            Statement::Function(f) => {
                self.functions.insert(f.key(), f.clone());
            }
            Statement::If {
                branches,
                otherwise,
            } => return self.branches(branches, otherwise.as_deref()),
            Statement::Loop {
                variable,
                over,
                body,
                at,
            } => {
                let outer = self.at.replace(("a loop".to_string(), *at));
                let flow = self.looped(variable, over, body);
                self.at = outer;
                return flow;
            }
            Statement::Set { setting, value, .. } => self.set(setting, value),
            Statement::Result(value) => {
                return Flow {
                    result: Some(self.expression(value)),
                    surely: true,
                }
            }
        }
        next
    }

    /// An `if` chain: a known condition picks its branch; an unknown one
    /// follows both ways, keeps the dearer price and either way's values.
    pub(super) fn branches(
        &mut self,
        branches: &[(Expr, Vec<Statement>, Place)],
        otherwise: Option<&[Statement]>,
    ) -> Flow {
        let Some(((condition, body, _), rest)) = branches.split_first() else {
            return match otherwise {
                Some(body) => self.block(body),
                None => Flow {
                    result: None,
                    surely: false,
                },
            };
        };
        let (lo, hi) = match self.expression(condition) {
            Shape::Number(lo, hi) => (lo, hi),
            _ => (i64::MIN, i64::MAX),
        };
        if lo == 0 && hi == 0 {
            return self.branches(rest, otherwise);
        }
        if lo > 0 || hi < 0 {
            return self.block(body);
        }
        let (frames, before) = (self.frames.clone(), self.steps);
        let narrowed = self.narrowed(condition);
        if let Some((name, yes, _)) = &narrowed {
            self.assign(name, Shape::Number(yes.0, yes.1));
        }
        let taken = self.block(body);
        let (taken_frames, taken_steps) = (std::mem::replace(&mut self.frames, frames), self.steps);
        self.steps = before;
        if let Some((name, _, no)) = narrowed {
            self.assign(&name, Shape::Number(no.0, no.1));
        }
        let other = self.branches(rest, otherwise);
        self.steps = self.steps.max(taken_steps);
        self.frames.merge(taken_frames, join);
        Flow {
            result: join_maybe(taken.result, other.result),
            surely: taken.surely && other.surely,
        }
    }

    /// A condition comparing a variable with a known number: the
    /// variable's range where it holds, and where it does not.
    pub(super) fn narrowed(&self, condition: &Expr) -> Option<(Name, Range, Range)> {
        let Expr::Binary(op, a, b, _) = condition else {
            return None;
        };
        let known = |e: &Expr| match e {
            Expr::Number(n) => Some(*n),
            Expr::Variable(v, _) => match self.variable(v) {
                Some(Shape::Number(lo, hi)) if lo == hi => Some(*lo),
                _ => None,
            },
            _ => None,
        };
        let (name, n, op) = match (a.as_ref(), b.as_ref()) {
            (Expr::Variable(v, _), other) if known(other).is_some() => (v, known(other)?, *op),
            (other, Expr::Variable(v, _)) if known(other).is_some() => {
                use Binary::*;
                let flipped = match op {
                    Less => Greater,
                    Greater => Less,
                    AtMost => AtLeast,
                    AtLeast => AtMost,
                    other => *other,
                };
                (v, known(other)?, flipped)
            }
            _ => return None,
        };
        let Some(Shape::Number(lo, hi)) = self.variable(name) else {
            return None;
        };
        let (lo, hi) = (*lo, *hi);
        use Binary::*;
        // Not `n`: the range without it where it is an end.
        let without = match n {
            _ if n == lo => (lo.saturating_add(1), hi),
            _ if n == hi => (lo, hi.saturating_sub(1)),
            _ => (lo, hi),
        };
        let (yes, no) = match op {
            Equal => ((n, n), without),
            NotEqual => (without, (n, n)),
            Less => ((lo, n.saturating_sub(1)), (n, hi)),
            AtMost => ((lo, n), (n.saturating_add(1), hi)),
            Greater => ((n.saturating_add(1), hi), (lo, n)),
            AtLeast => ((n, hi), (lo, n.saturating_sub(1))),
            _ => return None,
        };
        let within = |(a, b): (i64, i64)| (a.max(lo), b.min(hi));
        let (yes, no) = (within(yes), within(no));
        (yes.0 <= yes.1 && no.0 <= no.1).then(|| (name.clone(), yes, no))
    }

    pub(super) fn looped(&mut self, variable: &Name, over: &Expr, body: &[Statement]) -> Flow {
        let (items, len, values) = match self.expression(over) {
            Shape::Number(lo, hi) => ((lo == hi).then(|| vec![lo]), 1, Shape::Number(lo, hi)),
            Shape::Sequence(s) => (
                s.items.as_ref().map(|i| i.to_vec()),
                s.len.1,
                Shape::Number(s.values.0, s.values.1),
            ),
            // Refused by the run at once.
            _ => return self.block(&[]),
        };
        let mut result = None;
        let (start, mut done, mut last) = (self.steps, 0u64, 0.0f64);
        while done < len && !self.over {
            let before = self.steps;
            self.charge(1.0);
            let value = match &items {
                Some(items) => Shape::Number(items[done as usize], items[done as usize]),
                None => values.clone(),
            };
            self.assign(variable, value);
            let flow = self.block(body);
            result = join_maybe(result, flow.result);
            if flow.surely {
                return Flow {
                    result,
                    surely: true,
                };
            }
            done += 1;
            last = self.steps - before;
            if done >= TURNS as u64 {
                break;
            }
        }
        // The turns not followed (past TURNS, or past the estimate's own
        // bound) are priced as the dearer of the last and the mean.
        if done > 0 && done < len {
            let mean = (self.steps - start) / done as f64;
            self.charge(last.max(mean) * (len - done) as f64);
        }
        Flow {
            result,
            surely: false,
        }
    }

    /// A setting as the run makes it ([`Settings::set`]); one the run
    /// would refuse changes nothing here.
    pub(super) fn set(&mut self, setting: &str, value: &Setting) {
        let (number, text) = match value {
            Setting::Value(e) => match self.expression(e) {
                Shape::Number(lo, hi) if lo == hi => (Some(lo), None),
                _ => (None, None),
            },
            Setting::Text(t) => (None, Some(t.as_str())),
        };
        let _ = self.settings.set(setting, number, text);
    }

    pub(super) fn expression(&mut self, e: &Expr) -> Shape {
        if self.over {
            return Shape::Number(0, 0);
        }
        self.tick(1);
        self.charge(1.0);
        match e {
            Expr::Number(n) => Shape::Number(*n, *n),
            Expr::Variable(name, _) => self.variable(name).cloned().unwrap_or(Shape::Number(0, 0)),
            Expr::Sequence(parts) => Shape::Sequence(self.sequence(parts)),
            Expr::Unary(op, operand) => {
                let v = self.expression(operand);
                self.unary(*op, v)
            }
            Expr::Binary(op, a, b, place) => {
                let x = self.expression(a);
                let y = self.expression(b);
                let what = match op {
                    Binary::At => "picking dice (@)",
                    Binary::Dice => "dice (d)",
                    _ => "an operation on dice",
                };
                let outer = self.at.replace((what.to_string(), *place));
                let v = match op {
                    Binary::At => self.at(&x, &y),
                    Binary::Dice => self.dice(&x, &y),
                    _ => self.binary(*op, &x, &y),
                };
                self.at = outer;
                v
            }
            Expr::Call(call, place) => {
                let outer = self
                    .at
                    .replace((format!("the call [{}]", call.key), *place));
                let v = self.call(call);
                self.at = outer;
                v
            }
        }
    }

    pub(super) fn sequence(&mut self, parts: &[Part]) -> Seq {
        let mut out = Seq::known(Vec::new());
        for part in parts {
            let value = self.expression(&part.value);
            let times = match &part.times {
                Some(t) => {
                    let (lo, hi) = self.expression(t).number();
                    (lo.max(0) as u64, hi.max(0) as u64)
                }
                None => (1, 1),
            };
            let one = match &part.to {
                Some(to) => {
                    let (from, to) = (value.number(), self.expression(to).number());
                    let len = |a: i64, b: i64| (i128::from(b) - i128::from(a) + 1).max(0) as u64;
                    let lens = (len(from.1, to.0), len(from.0, to.1));
                    self.charge(lens.1 as f64 * times.1 as f64);
                    if from.0 == from.1 && to.0 == to.1 && lens.1 as usize <= ITEMS {
                        Seq::known((from.0..=to.0).collect())
                    } else {
                        Seq {
                            items: None,
                            len: lens,
                            values: (from.0, to.1),
                        }
                    }
                }
                None => match value {
                    Shape::Number(lo, hi) if lo == hi => Seq::known(vec![lo]),
                    Shape::Number(lo, hi) => Seq {
                        items: None,
                        len: (1, 1),
                        values: (lo, hi),
                    },
                    Shape::Sequence(s) => s,
                    die => match self.as_die(&die) {
                        None => Seq::known(Vec::new()),
                        Some(d) => match d.cases() {
                            Some(values) => Seq::known(values),
                            None => Seq {
                                items: None,
                                len: (1, d.faces),
                                values: (d.lo, d.hi),
                            },
                        },
                    },
                },
            };
            self.charge(one.len.1 as f64 * times.1 as f64);
            let repeated = match (&one.items, times.0 == times.1) {
                (Some(items), true) if items.len() * times.0 as usize <= ITEMS => {
                    Seq::known(items.repeat(times.0 as usize))
                }
                _ => Seq {
                    items: None,
                    len: (
                        one.len.0.saturating_mul(times.0),
                        one.len.1.saturating_mul(times.1),
                    ),
                    values: one.values,
                },
            };
            out = match (&out.items, &repeated.items) {
                (Some(a), Some(b)) if a.len() + b.len() <= ITEMS => {
                    Seq::known(a.iter().chain(b.iter()).copied().collect())
                }
                _ if out.len.1 == 0 => repeated,
                _ if repeated.len.1 == 0 => out,
                _ => Seq {
                    items: None,
                    len: (
                        out.len.0.saturating_add(repeated.len.0),
                        out.len.1.saturating_add(repeated.len.1),
                    ),
                    values: (
                        out.values.0.min(repeated.values.0),
                        out.values.1.max(repeated.values.1),
                    ),
                },
            };
        }
        out
    }
}
