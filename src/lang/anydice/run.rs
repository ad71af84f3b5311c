//! Runs a program's statements: variables in frames (a function sees its
//! callers' variables and its own shadow them until it returns, as
//! AnyDice's documentation says), functions found by their words, and a
//! die passed where a number or a sequence is expected expanded case by
//! case into a weighted mixture.

use super::library;
use super::ops::{self, Fail};
use super::syntax::*;
use super::value::{Die, Value};
use super::work::Work;
use super::{Output, Place, Problem, Report, Settings};
use crate::engine::Outcomes;
use crate::hash::FnvMap;
use num_bigint::BigUint;
use num_traits::Zero;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::Arc;

/// AnyDice's warning when recursion is cut.
pub(crate) const DEPTH_WARNING: &str =
    "The maximum function depth was exceeded, results are truncated.";

pub(crate) struct Machine {
    frames: Frames<Value>,
    functions: FnvMap<String, Arc<Function>>,
    pub settings: Settings,
    depth: u32,
    outputs: Vec<Output>,
    warnings: BTreeSet<String>,
    pub work: Work,
}

/// Variables in frames, the program's first: a name is found in the
/// newest frame that holds it; assigning writes to the newest frame. The
/// run keeps values in them, the price shapes. A frame is a short list
/// searched in order (a function's holds its parameters and a few more):
/// a call hashes nothing, and binding a name copies no text.
#[derive(Debug, Clone)]
pub(crate) struct Frames<T>(Vec<Vec<(Name, T)>>);

impl<T> Default for Frames<T> {
    fn default() -> Self {
        Frames(vec![Vec::new()])
    }
}

/// Whether two names are the same: by address first, as the reader
/// shares one text for every use of a name.
fn same(a: &str, b: &str) -> bool {
    std::ptr::eq(a, b) || a == b
}

impl<T> Frames<T> {
    pub(crate) fn assign(&mut self, name: &Name, value: T) {
        let frame = self.0.last_mut().expect("the program's frame");
        match frame.iter_mut().find(|(n, _)| same(n, name)) {
            Some((_, old)) => *old = value,
            None => frame.push((name.clone(), value)),
        }
    }

    pub(crate) fn variable(&self, name: &str) -> Option<&T> {
        self.0
            .iter()
            .rev()
            .find_map(|f| f.iter().find(|(n, _)| same(n, name)).map(|(_, v)| v))
    }

    /// A function's own frame, newest until [`Frames::leave`].
    pub(crate) fn enter(&mut self) {
        self.0.push(Vec::new());
    }

    pub(crate) fn leave(&mut self) {
        self.0.pop();
    }

    /// Every variable of `other` (these frames as another branch left
    /// them) joined into this one's by `join`.
    pub(crate) fn merge(&mut self, other: Frames<T>, join: impl Fn(T, T) -> T) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            for (name, value) in theirs {
                match mine.iter().position(|(n, _)| same(n, &name)) {
                    Some(i) => {
                        let (_, old) = mine.swap_remove(i);
                        mine.push((name, join(old, value)));
                    }
                    None => mine.push((name, value)),
                }
            }
        }
    }
}

/// How a block ended: by running out, or by a function's `result:`.
enum Flow {
    Next,
    Result(Value),
}

type Run<T> = Result<T, Problem>;

/// A failure of an operation, placed.
fn at(place: Place) -> impl Fn(Fail) -> Problem {
    move |message| Problem::new(place, message)
}

impl Machine {
    pub(crate) fn new(work: Work) -> Machine {
        Machine {
            frames: Frames::default(),
            functions: FnvMap::default(),
            settings: Settings::default(),
            depth: 0,
            outputs: Vec::new(),
            warnings: BTreeSet::new(),
            work,
        }
    }

    pub(crate) fn run(mut self, program: &[Statement]) -> Run<Report> {
        // Functions may be called before the line that defines them.
        for statement in program {
            if let Statement::Function(f) = statement {
                self.functions.insert(f.key(), f.clone());
            }
        }
        for statement in program {
            self.statement(statement)?;
        }
        Ok(Report {
            outputs: self.outputs,
            warnings: self.warnings.into_iter().collect(),
            steps: self.work.spent(),
        })
    }

    fn block(&mut self, statements: &[Statement]) -> Run<Flow> {
        for statement in statements {
            if let Flow::Result(value) = self.statement(statement)? {
                return Ok(Flow::Result(value));
            }
        }
        Ok(Flow::Next)
    }

    fn statement(&mut self, statement: &Statement) -> Run<Flow> {
        match statement {
            Statement::Output {
                value,
                name,
                at: place,
            } => {
                let shown = self.expression(value, *place)?;
                let die = ops::shown(&shown, &mut self.work).map_err(at(*place))?;
                let name = match name {
                    Some(pieces) => self.name(pieces, *place)?,
                    None => format!("output {}", self.outputs.len() + 1),
                };
                self.outputs.push(Output {
                    name,
                    outcomes: die.0.map(Rc::unwrap_or_clone),
                });
            }
            Statement::Assign(name, value) => {
                let value = self.expression(value, Place::default())?;
                self.assign(name, value);
            }
            Statement::Function(f) => {
                self.functions.insert(f.key(), f.clone());
            }
            Statement::If {
                branches,
                otherwise,
            } => {
                for (condition, body, place) in branches {
                    if self.truth(condition, *place)? {
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
                at: place,
            } => {
                let values = match self.expression(over, *place)? {
                    Value::Sequence(s) => s,
                    Value::Number(n) => Rc::from([n]),
                    other => {
                        return Err(Problem::new(
                            *place,
                            format!("a loop runs over a sequence ({{1..6}}), not over {}: to go through a die's values, write a function with a number parameter (:n)", other.kind()),
                        ))
                    }
                };
                for &value in values.iter() {
                    self.work.charge(1.0, "a loop").map_err(at(*place))?;
                    self.assign(variable, Value::Number(value));
                    if let Flow::Result(v) = self.block(body)? {
                        return Ok(Flow::Result(v));
                    }
                }
            }
            Statement::Set {
                setting,
                value,
                at: place,
            } => self.set(setting, value, *place)?,
            Statement::Result(value) => {
                return Ok(Flow::Result(self.expression(value, Place::default())?));
            }
        }
        Ok(Flow::Next)
    }

    fn set(&mut self, setting: &str, value: &Setting, place: Place) -> Run<()> {
        let number = match value {
            Setting::Value(e) if Settings::takes_number(setting) => {
                match self.expression(e, place)? {
                    Value::Number(n) => Some(n),
                    _ => None,
                }
            }
            _ => None,
        };
        let text = match value {
            Setting::Text(t) => Some(t.as_str()),
            Setting::Value(_) => None,
        };
        self.settings
            .set(setting, number, text)
            .map_err(|message| Problem::new(place, message))
    }

    fn assign(&mut self, name: &Name, value: Value) {
        self.frames.assign(name, value);
    }

    fn variable(&self, name: &str) -> Option<&Value> {
        self.frames.variable(name)
    }

    fn name(&self, pieces: &[Piece], place: Place) -> Run<String> {
        let mut out = String::new();
        for piece in pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Variable(v) => match self.variable(v) {
                    Some(value) => out.push_str(&value.label()),
                    None => {
                        return Err(Problem::new(
                            place,
                            format!("the name refers to [{v}], which has no value here: give {v} a value before this output, or write the text without brackets"),
                        ))
                    }
                },
            }
        }
        Ok(out)
    }

    fn truth(&mut self, condition: &Expr, place: Place) -> Run<bool> {
        match self.expression(condition, place)? {
            Value::Number(n) => Ok(n != 0),
            other => Err(Problem::new(
                place,
                format!(
                    "Boolean values can only be numbers, but you provided \"{}\": to test each value of a die, pass it to a function with a number parameter (:n)",
                    other.label()
                ),
            )),
        }
    }

    fn expression(&mut self, e: &Expr, place: Place) -> Run<Value> {
        self.work
            .charge(1.0, "running the program")
            .map_err(at(place))?;
        Ok(match e {
            Expr::Number(n) => Value::Number(*n),
            Expr::Variable(name, place) => self.variable(name).cloned().ok_or_else(|| {
                Problem::new(
                    *place,
                    format!("{name} has no value yet: give it one first ({name}: 3d6)"),
                )
            })?,
            Expr::Sequence(parts) => Value::Sequence(self.sequence(parts, place)?.into()),
            Expr::Unary(op, operand) => {
                let v = self.expression(operand, place)?;
                ops::unary(*op, v, &mut self.work).map_err(at(place))?
            }
            Expr::Binary(op, a, b, place) => {
                let x = self.expression(a, *place)?;
                let y = self.expression(b, *place)?;
                match op {
                    Binary::At => ops::at(&x, &y, self.settings.highest_first, &mut self.work),
                    Binary::Dice => ops::dice(&x, &y, &mut self.work),
                    _ => ops::binary(*op, &x, &y, &mut self.work),
                }
                .map_err(at(*place))?
            }
            Expr::Call(call, place) => self.call(call, *place)?,
        })
    }

    fn sequence(&mut self, parts: &[Part], place: Place) -> Run<Vec<i64>> {
        let mut out = Vec::new();
        for part in parts {
            let value = self.expression(&part.value, place)?;
            let times = match &part.times {
                Some(t) => self.number(t, place, "a repetition count (:N)")?,
                None => 1,
            };
            let one: Vec<i64> = match &part.to {
                Some(to) => {
                    let from = self.number_of(value, place, "a range's start")?;
                    let to = self.number(to, place, "a range's end")?;
                    let len = if to >= from {
                        (to - from) as f64 + 1.0
                    } else {
                        0.0
                    };
                    self.work
                        .charge(len * times.max(0) as f64, "a long sequence")
                        .map_err(at(place))?;
                    if to >= from {
                        (from..=to).collect()
                    } else {
                        Vec::new()
                    }
                }
                None => match value {
                    Value::Number(n) => vec![n],
                    Value::Sequence(s) => s.to_vec(),
                    die => {
                        let Die(d) = ops::as_die(&die, &mut self.work).map_err(at(place))?;
                        d.map(|o| {
                            o.iter()
                                .filter(|(_, w)| !w.is_zero())
                                .map(|(v, _)| v)
                                .collect()
                        })
                        .unwrap_or_default()
                    }
                },
            };
            self.work
                .charge(one.len() as f64 * times.max(0) as f64, "a long sequence")
                .map_err(at(place))?;
            for _ in 0..times.max(0) {
                out.extend_from_slice(&one);
            }
        }
        Ok(out)
    }

    fn number(&mut self, e: &Expr, place: Place, what: &str) -> Run<i64> {
        let v = self.expression(e, place)?;
        self.number_of(v, place, what)
    }

    fn number_of(&mut self, v: Value, place: Place, what: &str) -> Run<i64> {
        match v {
            Value::Number(n) => Ok(n),
            Value::Sequence(s) => ops::sum(&s).map_err(at(place)),
            other => Err(Problem::new(
                place,
                format!("{what} must be a number, not {}", other.kind()),
            )),
        }
    }

    fn call(&mut self, call: &Call, place: Place) -> Run<Value> {
        if self.depth >= self.settings.max_depth {
            self.warnings.insert(DEPTH_WARNING.to_string());
            return Ok(Value::Die(Die::empty()));
        }
        let key = &call.key;
        let mut args = Vec::new();
        for part in &call.parts {
            if let CallPart::Argument(e) = part {
                args.push(self.expression(e, place)?);
            }
        }
        if let Some(function) = self.functions.get(key).cloned() {
            let params = &function.params;
            return self.invoke(
                &function.types,
                args,
                place,
                &mut |machine, bound| {
                    // A parameter named twice takes its first argument.
                    for (i, (name, _)) in params.iter().enumerate() {
                        if params[..i].iter().all(|(n, _)| n != name) {
                            machine.assign(name, bound[i].clone());
                        }
                    }
                    match machine.block(&function.body)? {
                        Flow::Result(v) => Ok(v),
                        Flow::Next => Ok(Value::Die(Die::empty())),
                    }
                },
                true,
            );
        }
        let Some(builtin) = library::find(key) else {
            return Err(Problem::new(
                place,
                format!("there is no function [{key}]: define it with \"function: {key} {{ ... }}\" (the words must match, each _ is a value){}", library::suggestion(key, self.functions.keys())),
            ));
        };
        let settings = self.settings;
        self.invoke(
            builtin.types,
            args,
            place,
            &mut |machine, bound| {
                (builtin.run)(bound, &settings, &mut machine.work).map_err(at(place))
            },
            false,
        )
    }

    /// Binds arguments to parameter types and runs `body` once, or once per
    /// case of every die passed to a number or sequence parameter, mixing
    /// the results by their weights. A user function runs in a frame of
    /// its own, which every case shares.
    fn invoke(
        &mut self,
        types: &[Type],
        args: Vec<Value>,
        place: Place,
        body: &mut dyn FnMut(&mut Machine, &[Value]) -> Run<Value>,
        own_frame: bool,
    ) -> Run<Value> {
        let mut bound = Vec::with_capacity(args.len());
        let mut expanded: Vec<(usize, Vec<(Value, BigUint)>)> = Vec::new();
        for (i, (kind, arg)) in types.iter().zip(args).enumerate() {
            match (kind, arg) {
                (Type::Any, arg) => bound.push(arg),
                (Type::Number, Value::Sequence(s)) => {
                    bound.push(Value::Number(ops::sum(&s).map_err(at(place))?))
                }
                (Type::Number, n @ Value::Number(_)) => bound.push(n),
                (Type::Number, die) => {
                    let Die(Some(o)) = ops::as_die(&die, &mut self.work).map_err(at(place))? else {
                        return Ok(Value::Die(Die::empty()));
                    };
                    bound.push(Value::Number(0));
                    expanded.push((
                        i,
                        o.iter()
                            .filter(|(_, w)| !w.is_zero())
                            .map(|(v, w)| (Value::Number(v), w.clone()))
                            .collect(),
                    ));
                }
                (Type::Die, Value::Number(n)) => bound.push(Value::Die(Die::constant(n))),
                (Type::Die, Value::Sequence(s)) => {
                    bound.push(Value::Die(Die::constant(ops::sum(&s).map_err(at(place))?)))
                }
                (Type::Die, die) => bound.push(die),
                (Type::Sequence, Value::Number(n)) => bound.push(Value::Sequence(Rc::from([n]))),
                (Type::Sequence, s @ Value::Sequence(_)) => bound.push(s),
                (Type::Sequence, Value::Die(Die(None))) => return Ok(Value::Die(Die::empty())),
                (Type::Sequence, Value::Die(Die(Some(o)))) => {
                    bound.push(Value::Sequence(Rc::from([])));
                    expanded.push((
                        i,
                        o.iter()
                            .filter(|(_, w)| !w.is_zero())
                            .map(|(v, w)| (Value::Sequence(Rc::from([v])), w.clone()))
                            .collect(),
                    ));
                }
                (Type::Sequence, Value::Pool(p)) => {
                    if p.groups.iter().any(|(d, _)| d.is_empty()) {
                        return Ok(Value::Die(Die::empty()));
                    }
                    // One die's rolls come lowest first, as AnyDice walks them.
                    let highest_first = self.settings.highest_first && p.len() > 1;
                    let rolls =
                        ops::sorted_rolls(&p, highest_first, &mut self.work).map_err(at(place))?;
                    bound.push(Value::Sequence(Rc::from([])));
                    expanded.push((
                        i,
                        rolls
                            .into_iter()
                            .map(|(r, w)| (Value::Sequence(r), w))
                            .collect(),
                    ));
                }
            }
        }
        let enter = own_frame || !expanded.is_empty();
        if enter {
            self.depth += 1;
        }
        if own_frame {
            self.frames.enter();
        }
        let result = self.cases(&mut bound, expanded, place, body);
        if own_frame {
            self.frames.leave();
        }
        if enter {
            self.depth -= 1;
        }
        result
    }

    fn cases(
        &mut self,
        bound: &mut [Value],
        expanded: Vec<(usize, Vec<(Value, BigUint)>)>,
        place: Place,
        body: &mut dyn FnMut(&mut Machine, &[Value]) -> Run<Value>,
    ) -> Run<Value> {
        if expanded.is_empty() {
            return body(self, bound);
        }
        let cases: f64 = expanded.iter().map(|(_, c)| c.len() as f64).product();
        self.work
            .charge(cases, "expanding a die into its cases")
            .map_err(at(place))?;
        let mut mixture = Mixture::default();
        if let [(i, _)] = expanded.as_slice() {
            // One die expanded: its cases are moved in, not copied.
            let i = *i;
            for (value, weight) in expanded.into_iter().flat_map(|(_, values)| values) {
                bound[i] = value;
                let result = body(self, bound)?;
                self.mix_case(&mut mixture, &result, weight, place)?;
            }
            return self.mixed(mixture, place);
        }
        // The first expanded parameter varies fastest, as AnyDice's order.
        let mut index = vec![0usize; expanded.len()];
        loop {
            let mut weight = BigUint::from(1u32);
            for (j, (i, values)) in expanded.iter().enumerate() {
                bound[*i] = values[index[j]].0.clone();
                weight *= &values[index[j]].1;
            }
            let result = body(self, bound)?;
            self.mix_case(&mut mixture, &result, weight, place)?;
            let mut j = 0;
            loop {
                if j == index.len() {
                    return self.mixed(mixture, place);
                }
                index[j] += 1;
                if index[j] < expanded[j].1.len() {
                    break;
                }
                index[j] = 0;
                j += 1;
            }
        }
    }

    /// Adds one case's result, of `weight`, to the mixture.
    fn mix_case(
        &mut self,
        mixture: &mut Mixture,
        result: &Value,
        weight: BigUint,
        place: Place,
    ) -> Run<()> {
        // A case that gives a number adds its weight to that number: no
        // die is made for it, and the mixture's scaling is skipped.
        let number = match result {
            Value::Number(n) => Some(*n),
            Value::Sequence(s) => Some(ops::sum(s).map_err(at(place))?),
            _ => None,
        };
        if let Some(n) = number {
            self.work.count_bits(weight.bits()).map_err(at(place))?;
            self.work
                .charge_counts(2.0, weight.bits(), "mixing a function's cases")
                .map_err(at(place))?;
            *mixture.numbers.entry(n).or_default() += weight;
        } else if let Die(Some(o)) = ops::as_die(result, &mut self.work).map_err(at(place))? {
            // Mixing scales every count by the others' totals.
            let bits = o.total().bits();
            mixture.widest = mixture.widest.max(bits);
            self.work
                .count_bits(bits + mixture.widest + weight.bits())
                .map_err(at(place))?;
            self.work
                .charge_counts(
                    o.width() as f64 * 2.0,
                    bits + mixture.widest,
                    "mixing a function's cases",
                )
                .map_err(at(place))?;
            // A case that gives a die already given (a variable's die,
            // shared) adds its weight to that die's.
            match mixture.given.entry(Rc::as_ptr(&o)) {
                Entry::Occupied(at) => mixture.parts[*at.get()].0 += weight,
                Entry::Vacant(at) => {
                    at.insert(mixture.parts.len());
                    mixture.parts.push((weight, o));
                }
            }
        }
        Ok(())
    }

    /// The die the cases make together.
    fn mixed(&mut self, mut mixture: Mixture, place: Place) -> Run<Value> {
        // Each number once, with its weights summed: a constant die's total
        // is 1, so the mixture's scale is unchanged.
        let parts = &mut mixture.parts;
        for (n, weight) in std::mem::take(&mut mixture.numbers) {
            parts.push((weight, Rc::new(Outcomes::constant(n))));
        }
        // Reducing the mixture takes a gcd of its counts, quadratic in
        // their length.
        let values: usize = parts.iter().map(|(_, o)| o.width()).sum();
        let words = parts
            .iter()
            .map(|(w, o)| w.bits() + o.total().bits())
            .max()
            .unwrap_or(0) as f64
            / 64.0;
        self.work
            .charge(
                super::work::mixture_price(values as f64, words),
                "mixing a function's cases",
            )
            .map_err(at(place))?;
        let refs: Vec<(BigUint, &Outcomes)> =
            parts.iter().map(|(w, o)| (w.clone(), &**o)).collect();
        Ok(Value::Die(Die::from(crate::engine::mix(&refs))))
    }
}

/// The cases of a function's call mixed so far: dice with their weights,
/// and numbers with their summed weights.
#[derive(Default)]
struct Mixture {
    parts: Vec<(BigUint, Rc<Outcomes>)>,
    numbers: BTreeMap<i64, BigUint>,
    /// Where each die in `parts` is, by its address: the die is held
    /// there, so no other die takes the address meanwhile.
    given: FnvMap<*const Outcomes, usize>,
    /// The widest total among the dice, in bits.
    widest: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name is found by its letters whether or not it shares the
    /// reader's text, in the newest frame that holds it; a branch's frames
    /// merge name by name.
    #[test]
    fn frames_find_names_by_letters_and_merge_branches() {
        let x: Name = "X".into();
        let other_x: Name = "X".into();
        let y: Name = "Y".into();
        let mut frames = Frames::default();
        frames.assign(&x, 1);
        frames.assign(&other_x, 2);
        assert_eq!(frames.variable("X"), Some(&2));
        frames.enter();
        assert_eq!(frames.variable(&x), Some(&2));
        frames.assign(&x, 3);
        frames.assign(&y, 4);
        assert_eq!(
            (frames.variable("X"), frames.variable("Y")),
            (Some(&3), Some(&4))
        );
        frames.leave();
        assert_eq!(
            (frames.variable("X"), frames.variable("Y")),
            (Some(&2), None)
        );
        let mut branch = frames.clone();
        branch.assign(&x, 10);
        branch.assign(&y, 20);
        frames.merge(branch, |a, b| a * 100 + b);
        assert_eq!(
            (frames.variable("X"), frames.variable("Y")),
            (Some(&210), Some(&20))
        );
    }
}
