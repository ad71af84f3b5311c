//! Runs an AnyDice program once with every die rolled by the seeded
//! [`Sampler`]: the simulator `fairdice verify` sets beside the exact
//! interpreter of `lang::anydice` (it reads the same syntax tree, and runs
//! it by the rules of `docs/reference.md`, "AnyDice programs", never
//! through the exact distributions).
//!
//! In AnyDice a die is a distribution, so every *use* of a die is a roll of
//! its own: `X: d6  output X + X` is 2d6. Here an expression gives one
//! [`Sample`], tagged with its type; a die bound to a name (an assignment,
//! a `:d` or untyped parameter) is kept as a [`Thunk`], the expression and
//! the context it saw, and rolled again at every use. A die passed to a
//! `:n` parameter is rolled once for that call (its sum), to `:s` as the
//! collection's rolls in the position order; a call whose result is the
//! empty die drops that case, which here is rejection: the call's rolled
//! arguments are rolled again, up to [`MAX_RETRIES`] times (then the call
//! is the empty die). Recursion is cut at `maximum function depth` as the
//! exact interpreter cuts it: a call at that depth is the empty die.

mod carried;
mod library;
pub(crate) mod sample;

pub(crate) use carried::carried;

use super::Sampler;
use crate::lang::anydice::ops::{self, Fail};
use crate::lang::anydice::syntax::{
    Binary, Call, CallPart, Expr, Function, Part, Piece, Setting, Statement, Type,
};
use crate::lang::anydice::Settings;
use sample::Sample;
use std::collections::HashMap;
use std::rc::Rc;

/// The most times a call's rolled arguments are rolled again when its
/// result is the empty die (a case its function drops): past it the call
/// is taken for one that never gives a value, the empty die.
pub(crate) const MAX_RETRIES: u32 = 100_000;

/// The most steps (expressions evaluated, dice rolled) one run may take.
pub(crate) const MAX_STEPS: u64 = 10_000_000;

/// What one run of a program showed: per `output`, in order, its value
/// (`None` for the empty die or an output not asked for), and its name when
/// the run can tell it (a `named` text whose variables are numbers or
/// sequences).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Shown {
    pub value: Option<i64>,
    pub name: Option<String>,
}

/// What a run did.
pub(crate) struct Run {
    pub outputs: Vec<Shown>,
    pub steps: u64,
}

/// Runs `program` once. `wanted(i)` says whether output `i` (from 0) is
/// rolled: the others are not evaluated (an output changes nothing else).
pub(crate) fn run(
    program: &[Statement],
    wanted: &dyn Fn(usize) -> bool,
    sampler: &mut Sampler,
) -> Result<Run, Fail> {
    let mut functions = HashMap::new();
    // Functions may be called before the line that defines them.
    for statement in program {
        if let Statement::Function(f) = statement {
            functions.insert(f.key(), &**f);
        }
    }
    let mut machine = Machine {
        ctx: Ctx {
            env: None,
            functions: Rc::new(functions),
            settings: Settings::default(),
            depth: 0,
        },
        sampler,
        steps: 0,
        outputs: Vec::new(),
        wanted,
    };
    for statement in program {
        machine.statement(statement)?;
    }
    Ok(Run {
        outputs: machine.outputs,
        steps: machine.steps,
    })
}

/// What an expression sees: the variables, the functions, the settings and
/// the depth of calls.
#[derive(Clone)]
struct Ctx<'p> {
    env: Env<'p>,
    functions: Rc<HashMap<String, &'p Function>>,
    settings: Settings,
    depth: u32,
}

/// The variables, newest first: a function's own shadow its callers' until
/// it returns, when the list is cut back to what the caller saw.
type Env<'p> = Option<Rc<Binding<'p>>>;

struct Binding<'p> {
    name: &'p str,
    value: Stored<'p>,
    next: Env<'p>,
}

/// What a name holds: a number or sequence, or a die to roll at each use.
#[derive(Clone)]
enum Stored<'p> {
    Value(Sample),
    Thunk(Rc<Thunk<'p>>),
}

/// A value bound to a name (an assignment, a `:d` or untyped parameter):
/// its expression and the context it was bound in, evaluated at the first
/// use (an argument never read is never rolled, as AnyDice's cost would
/// not tell). A number or sequence (or the empty die) is kept from then
/// on; a die is rolled again at every use.
struct Thunk<'p> {
    expr: &'p Expr,
    ctx: Ctx<'p>,
    /// For a `:d` parameter: a number or sequence becomes a die that
    /// always shows it (its sum).
    as_die: bool,
    known: std::cell::RefCell<Option<Sample>>,
}

impl<'p> Thunk<'p> {
    fn bound(expr: &'p Expr, ctx: Ctx<'p>, as_die: bool) -> Stored<'p> {
        Stored::Thunk(Rc::new(Thunk {
            expr,
            ctx,
            as_die,
            known: std::cell::RefCell::new(None),
        }))
    }
}

struct Machine<'p, 's> {
    ctx: Ctx<'p>,
    sampler: &'s mut Sampler,
    steps: u64,
    outputs: Vec<Shown>,
    wanted: &'s dyn Fn(usize) -> bool,
}

enum Flow {
    Next,
    Result(Sample),
}

type Go<T> = Result<T, Fail>;

/// How a call binds one argument.
enum Bound<'p> {
    Stored(Stored<'p>),
    /// A die passed to `:n` or `:s`: this roll of it, rolled again if the
    /// call's result is the empty die.
    Rolled(Sample),
    /// The empty die where a number or sequence is expected: the call is
    /// the empty die.
    Empty,
}

impl<'p> Machine<'p, '_> {
    fn step(&mut self, steps: u64) -> Go<()> {
        self.steps += steps;
        if self.steps > MAX_STEPS {
            return Err(format!(
                "one run took more than {MAX_STEPS} steps (expressions and dice)"
            ));
        }
        Ok(())
    }

    fn block(&mut self, statements: &'p [Statement]) -> Go<Flow> {
        for statement in statements {
            if let Flow::Result(value) = self.statement(statement)? {
                return Ok(Flow::Result(value));
            }
        }
        Ok(Flow::Next)
    }

    fn statement(&mut self, statement: &'p Statement) -> Go<Flow> {
        match statement {
            Statement::Output { value, name, .. } => {
                let index = self.outputs.len();
                let value = match (self.wanted)(index) {
                    true => self.expression(value)?.shown(self.sampler)?,
                    false => None,
                };
                let name = name.as_ref().and_then(|pieces| self.name(pieces));
                self.outputs.push(Shown { value, name });
            }
            Statement::Assign(name, value) => {
                let stored = self.bind(value)?;
                self.assign(name, stored);
            }
            Statement::Function(f) => {
                Rc::make_mut(&mut self.ctx.functions).insert(f.key(), &**f);
            }
            Statement::If {
                branches,
                otherwise,
            } => {
                for (condition, body, _) in branches {
                    if self.truth(condition)? {
                        return self.block(body);
                    }
                }
                if let Some(body) = otherwise {
                    return self.block(body);
                }
            }
            Statement::Loop {
                variable,
                over,
                body,
                ..
            } => {
                let values = match self.expression(over)? {
                    Sample::Sequence(s) => s,
                    Sample::Number(n) => vec![n],
                    other => return Err(format!("a loop over {}", other.kind())),
                };
                for value in values {
                    self.assign(variable, Stored::Value(Sample::Number(value)));
                    if let Flow::Result(v) = self.block(body)? {
                        return Ok(Flow::Result(v));
                    }
                }
            }
            Statement::Set { setting, value, .. } => self.set(setting, value)?,
            Statement::Result(value) => return Ok(Flow::Result(self.expression(value)?)),
        }
        Ok(Flow::Next)
    }

    fn set(&mut self, setting: &str, value: &'p Setting) -> Go<()> {
        let number = match value {
            Setting::Value(e) if Settings::takes_number(setting) => match self.expression(e)? {
                Sample::Number(n) => Some(n),
                _ => None,
            },
            _ => None,
        };
        let text = match value {
            Setting::Text(t) => Some(t.as_str()),
            Setting::Value(_) => None,
        };
        self.ctx.settings.set(setting, number, text)
    }

    /// A value to bind to a name: evaluated at its first use, a die rolled
    /// again at each use (see [`Thunk`]).
    fn bind(&mut self, e: &'p Expr) -> Go<Stored<'p>> {
        Ok(Thunk::bound(e, self.ctx.clone(), false))
    }

    fn assign(&mut self, name: &'p str, value: Stored<'p>) {
        let next = self.ctx.env.take();
        self.ctx.env = Some(Rc::new(Binding { name, value, next }));
    }

    fn variable(&self, name: &str) -> Option<Stored<'p>> {
        let mut at = self.ctx.env.as_deref();
        while let Some(binding) = at {
            if binding.name == name {
                return Some(binding.value.clone());
            }
            at = binding.next.as_deref();
        }
        None
    }

    /// A stored value, a die rolled afresh in the context it was bound in.
    fn value(&mut self, stored: &Stored<'p>) -> Go<Sample> {
        match stored {
            Stored::Value(v) => Ok(v.clone()),
            Stored::Thunk(thunk) => {
                if let Some(known) = thunk.known.borrow().as_ref() {
                    return Ok(known.clone());
                }
                let value = self.within(thunk, |m| m.expression(thunk.expr))?;
                Ok(match value {
                    Sample::Die(_) | Sample::Pool(_) => value,
                    // The same in every use (the empty die too).
                    other => {
                        let other = match other {
                            Sample::Number(n) if thunk.as_die => Sample::Die(n),
                            Sample::Sequence(s) if thunk.as_die => Sample::Die(ops::sum(&s)?),
                            other => other,
                        };
                        *thunk.known.borrow_mut() = Some(other.clone());
                        other
                    }
                })
            }
        }
    }

    /// `f` run in the context `thunk` was bound in, then the caller's again.
    fn within<T>(&mut self, thunk: &Thunk<'p>, f: impl FnOnce(&mut Self) -> T) -> T {
        let caller = std::mem::replace(&mut self.ctx, thunk.ctx.clone());
        let out = f(self);
        self.ctx = caller;
        out
    }

    /// The name AnyDice gives an output, when its variables are numbers or
    /// sequences (a die's label needs its faces: not told).
    fn name(&self, pieces: &[Piece]) -> Option<String> {
        let mut out = String::new();
        for piece in pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Variable(v) => match self.variable(v)? {
                    Stored::Value(Sample::Number(n)) => out.push_str(&n.to_string()),
                    Stored::Value(Sample::Sequence(s)) if s.is_empty() => out.push_str("{}"),
                    Stored::Value(Sample::Sequence(_)) => out.push_str("{?}"),
                    _ => return None,
                },
            }
        }
        Some(out)
    }

    fn truth(&mut self, condition: &'p Expr) -> Go<bool> {
        match self.expression(condition)? {
            Sample::Number(n) => Ok(n != 0),
            other => Err(format!("a condition that is {}", other.kind())),
        }
    }

    fn expression(&mut self, e: &'p Expr) -> Go<Sample> {
        self.step(1)?;
        Ok(match e {
            Expr::Number(n) => Sample::Number(*n),
            Expr::Variable(name, _) => match self.variable(name) {
                Some(stored) => self.value(&stored)?,
                None => return Err(format!("{name} has no value yet")),
            },
            Expr::Sequence(parts) => Sample::Sequence(self.sequence(parts)?),
            Expr::Unary(op, operand) => {
                let v = self.expression(operand)?;
                self.step(1)?;
                sample::unary(*op, v, self.sampler)?
            }
            Expr::Binary(op, a, b, _) => {
                let x = self.expression(a)?;
                let y = self.expression(b)?;
                match op {
                    Binary::At => sample::at(&x, &y, self.ctx.settings.highest_first)?,
                    Binary::Dice => self.dice(x, y, b)?,
                    _ => sample::binary(*op, x, y)?,
                }
            }
            Expr::Call(call, _) => self.call(call)?,
        })
    }

    fn sequence(&mut self, parts: &'p [Part]) -> Go<Vec<i64>> {
        let mut out = Vec::new();
        for part in parts {
            let value = self.expression(&part.value)?;
            let times = match &part.times {
                Some(t) => self.number(t)?,
                None => 1,
            };
            let one: Vec<i64> = match &part.to {
                Some(to) => {
                    let from = number_of(&value)?;
                    let to = self.number(to)?;
                    self.step((to.saturating_sub(from)).clamp(0, 1 << 40) as u64)?;
                    (from..=to).collect()
                }
                None => match value {
                    Sample::Number(n) => vec![n],
                    Sample::Sequence(s) => s,
                    // The values a die can show: its distribution's, which
                    // a roll does not tell.
                    _ => return Err(
                        "a die inside a sequence ({d6}) lists the values it can show, which rolling does not tell".into(),
                    ),
                },
            };
            for _ in 0..times.max(0) {
                self.step(one.len() as u64)?;
                out.extend_from_slice(&one);
            }
        }
        Ok(out)
    }

    fn number(&mut self, e: &'p Expr) -> Go<i64> {
        let v = self.expression(e)?;
        number_of(&v)
    }

    /// `count d faces`: each die of the collection rolled on its own, a
    /// die as faces rolled again for each (its expression evaluated anew).
    fn dice(&mut self, count: Sample, faces: Sample, faces_expr: &'p Expr) -> Go<Sample> {
        let count = match count {
            Sample::Sequence(s) => Sample::Number(ops::sum(&s)?),
            Sample::Pool(_) | Sample::Empty(Some(_)) => {
                count.as_die()?.map_or(Sample::Empty(None), Sample::Die)
            }
            other => other,
        };
        match count {
            Sample::Number(1) if matches!(faces, Sample::Pool(_)) => Ok(faces),
            Sample::Number(n) => self.roll_n(n, faces, faces_expr),
            Sample::Empty(_) => Ok(Sample::Empty(Some(1))),
            // A rolled number of dice: their sum.
            Sample::Die(n) => Ok(match self.roll_n(n, faces, faces_expr)? {
                Sample::Empty(_) => Sample::Empty(Some(1)),
                rolled => rolled.as_die()?.map_or(Sample::Empty(None), Sample::Die),
            }),
            Sample::Sequence(_) | Sample::Pool(_) => unreachable!("summed above"),
        }
    }

    /// `n` dice like `d faces`, lowest first; a negative `n` is `-n` dice
    /// of the negated die, `0` the number 0 as a die.
    fn roll_n(&mut self, n: i64, faces: Sample, faces_expr: &'p Expr) -> Go<Sample> {
        let again = faces.is_die();
        let Some(first) = sample::face(&faces, self.sampler)? else {
            return Ok(Sample::Empty(None));
        };
        if n == 0 {
            return Ok(Sample::Die(0));
        }
        self.step(n.unsigned_abs())?;
        let mut rolls = Vec::with_capacity(n.unsigned_abs().min(1 << 20) as usize);
        rolls.push(first);
        for _ in 1..n.unsigned_abs() {
            let roll = match again {
                true => {
                    let faces = self.expression(faces_expr)?;
                    sample::face(&faces, self.sampler)?
                }
                false => sample::face(&faces, self.sampler)?,
            };
            rolls.push(roll.ok_or("a die that is empty in one roll and not in another")?);
        }
        rolls.sort_unstable();
        Ok(Sample::Pool(match n < 0 {
            true => sample::negated(&rolls)?,
            false => rolls,
        }))
    }

    fn call(&mut self, call: &'p Call) -> Go<Sample> {
        if self.ctx.depth >= self.ctx.settings.max_depth {
            return Ok(Sample::Empty(None));
        }
        let key = &call.key;
        let exprs: Vec<&'p Expr> = call
            .parts
            .iter()
            .filter_map(|p| match p {
                CallPart::Argument(e) => Some(e),
                CallPart::Word(_) => None,
            })
            .collect();
        if let Some(&function) = self.ctx.functions.get(key) {
            let params = &function.params;
            return self.invoke(&function.types, &exprs, true, &mut |machine, bound| {
                // A parameter named twice takes its first argument.
                for (i, (name, _)) in params.iter().enumerate() {
                    if params[..i].iter().all(|(n, _)| n != name) {
                        machine.assign(name, bound[i].clone());
                    }
                }
                Ok(match machine.block(&function.body)? {
                    Flow::Result(v) => v,
                    Flow::Next => Sample::Empty(None),
                })
            });
        }
        let Some(builtin) = crate::lang::anydice::library::find(key) else {
            return Err(format!("there is no function [{key}]"));
        };
        let settings = self.ctx.settings;
        self.invoke(builtin.types, &exprs, false, &mut |machine, bound| {
            machine.builtin(key, bound, &settings)
        })
    }

    /// Binds the arguments to the parameter types and runs `body`; a die
    /// passed to a number or sequence parameter is rolled for the call, and
    /// the whole is rolled again while the result is the empty die (the
    /// exact mixture drops those cases). A user function's assignments
    /// last until it returns.
    fn invoke(
        &mut self,
        types: &[Type],
        exprs: &[&'p Expr],
        own_frame: bool,
        body: &mut dyn FnMut(&mut Self, &[Stored<'p>]) -> Go<Sample>,
    ) -> Go<Sample> {
        let caller = self.ctx.clone();
        let mut bound = Vec::with_capacity(exprs.len());
        let mut rolled = Vec::new();
        for (i, (&kind, &e)) in types.iter().zip(exprs).enumerate() {
            if matches!(kind, Type::Any | Type::Die) {
                bound.push(Thunk::bound(e, caller.clone(), kind == Type::Die));
                continue;
            }
            let arg = self.expression(e)?;
            match self.bound(kind, arg, e, &caller)? {
                Bound::Stored(s) => bound.push(s),
                Bound::Rolled(s) => {
                    rolled.push(i);
                    bound.push(Stored::Value(s));
                }
                Bound::Empty => return Ok(Sample::Empty(None)),
            }
        }
        let enter = u32::from(own_frame || !rolled.is_empty());
        for _ in 0..MAX_RETRIES {
            self.ctx.depth += enter;
            let result = body(self, &bound);
            self.ctx.env = caller.env.clone();
            self.ctx.depth = caller.depth;
            let result = result?;
            if rolled.is_empty() {
                return Ok(result);
            }
            // A case of the mixture: a die's roll (sequences and
            // collections summed), or none, and the arguments rolled again.
            if let Some(v) = result.as_die()? {
                return Ok(Sample::Die(v));
            }
            for &i in &rolled {
                let arg = self.expression(exprs[i])?;
                match self.bound(types[i], arg, exprs[i], &caller)? {
                    Bound::Rolled(s) | Bound::Stored(Stored::Value(s)) => {
                        bound[i] = Stored::Value(s)
                    }
                    _ => {
                        return Err(
                            "an argument that is a die in one roll and not in another".into()
                        )
                    }
                }
            }
        }
        Ok(Sample::Empty(None))
    }

    /// How `arg` (the value of `e`) binds to a parameter of type `kind`.
    fn bound(&mut self, kind: Type, arg: Sample, e: &'p Expr, caller: &Ctx<'p>) -> Go<Bound<'p>> {
        Ok(match (kind, arg) {
            (Type::Number | Type::Sequence, Sample::Empty(_)) => Bound::Empty,
            (Type::Any | Type::Die, _) => {
                Bound::Stored(Thunk::bound(e, caller.clone(), kind == Type::Die))
            }
            (Type::Number, Sample::Sequence(s)) => {
                Bound::Stored(Stored::Value(Sample::Number(ops::sum(&s)?)))
            }
            (Type::Number, n @ Sample::Number(_)) => Bound::Stored(Stored::Value(n)),
            (Type::Number, die) => Bound::Rolled(Sample::Number(
                die.as_die()?.expect("the empty die was answered above"),
            )),
            (Type::Sequence, Sample::Number(n)) => {
                Bound::Stored(Stored::Value(Sample::Sequence(vec![n])))
            }
            (Type::Sequence, s @ Sample::Sequence(_)) => Bound::Stored(Stored::Value(s)),
            (Type::Sequence, Sample::Die(v)) => Bound::Rolled(Sample::Sequence(vec![v])),
            // One die's roll comes as it is; a collection's in the position
            // order.
            (Type::Sequence, Sample::Pool(mut rolls)) => {
                if self.ctx.settings.highest_first && rolls.len() > 1 {
                    rolls.reverse();
                }
                Bound::Rolled(Sample::Sequence(rolls))
            }
        })
    }
}

fn number_of(v: &Sample) -> Go<i64> {
    v.number()
        .unwrap_or_else(|| Err(format!("a number expected, not {}", v.kind())))
}
