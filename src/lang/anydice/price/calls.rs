//! The estimate's prices of calls: user functions (kept by their
//! arguments' shapes), the library, and dice expanded into cases.

use super::*;

impl Estimator {
    pub(super) fn call(&mut self, call: &Call) -> Shape {
        if self.depth >= self.settings.max_depth {
            return Shape::Die(None);
        }
        if self.depth >= DEPTH {
            self.cut = true;
            return Shape::Die(None);
        }
        let key = &call.key;
        let mut args = Vec::new();
        for part in &call.parts {
            if let CallPart::Argument(e) = part {
                args.push(self.expression(e));
            }
        }
        if let Some(function) = self.functions.get(key).cloned() {
            return self.invoke(
                &function.types,
                args,
                &mut |e, bound| e.body(key, &function, &function.params, bound),
                true,
            );
        }
        let Some(builtin) = library::find(key) else {
            // Refused by the run.
            return Shape::Number(0, 0);
        };
        self.invoke(
            builtin.types,
            args,
            &mut |e, bound| e.builtin(key, builtin, bound),
            false,
        )
    }

    /// A user function's body for these arguments, priced once.
    pub(super) fn body(
        &mut self,
        key: &str,
        function: &Function,
        params: &[(Name, Type)],
        bound: &[Shape],
    ) -> Shape {
        let seen = self
            .free_variables(key)
            .iter()
            .map(|name| self.variable(name).cloned())
            .collect();
        let memo = (
            key.to_string(),
            bound.to_vec(),
            seen,
            self.depth,
            self.settings,
        );
        if let Some((steps, shape)) = self.memo.get(&memo).cloned() {
            self.steps += steps;
            self.tick(1);
            return shape;
        }
        let before = self.steps;
        self.frames.enter();
        for (i, (name, _)) in params.iter().enumerate() {
            if params[..i].iter().all(|(n, _)| n != name) {
                self.assign(name, bound[i].clone());
            }
        }
        let flow = self.block(&function.body);
        self.frames.leave();
        let result = match (flow.result, flow.surely) {
            (Some(r), true) => r,
            (r, _) => join_maybe(r, Some(Shape::Die(None))).expect("a shape"),
        };
        if !self.over {
            self.memo
                .insert(memo, (self.steps - before, result.clone()));
        }
        result
    }

    /// The names `key`'s body reads, and those of every function it
    /// calls, found once.
    pub(super) fn free_variables(&mut self, key: &str) -> Rc<[String]> {
        if let Some(names) = self.free.get(key) {
            return names.clone();
        }
        let mut names = std::collections::BTreeSet::new();
        let (mut todo, mut done) = (vec![key.to_string()], std::collections::HashSet::new());
        while let Some(k) = todo.pop() {
            if !done.insert(k.clone()) {
                continue;
            }
            if let Some(f) = self.functions.get(&k) {
                // Its parameters are its own, whatever the callers hold.
                let mut own = std::collections::BTreeSet::new();
                reads(&f.body, &mut own, &mut todo);
                for part in &f.name {
                    if let NamePart::Parameter(p, _) = part {
                        own.remove(&**p);
                    }
                }
                names.extend(own);
            }
        }
        let names: Rc<[String]> = names.into_iter().collect();
        self.free.insert(key.to_string(), names.clone());
        names
    }

    pub(super) fn builtin(
        &mut self,
        key: &str,
        builtin: &library::Builtin,
        bound: &[Shape],
    ) -> Shape {
        // Numbers and sequences only, all known: the library's own answer
        // (it does no priced work on them).
        if builtin.types.iter().all(|t| *t != Type::Die) {
            if let Some(values) = bound.iter().map(Shape::known).collect::<Option<Vec<_>>>() {
                let mut free = Work::new(0.0);
                return (builtin.run)(&values, &self.settings, &mut free)
                    .map_or(Shape::Number(0, 0), Shape::of);
            }
        }
        let number = |s: &Shape| s.number();
        match key {
            "absolute _" => {
                let (lo, hi) = number(&bound[0]);
                let (a, b) = (lo.unsigned_abs(), hi.unsigned_abs());
                let low = if lo <= 0 && hi >= 0 { 0 } else { a.min(b) };
                Shape::Number(
                    low.min(i64::MAX as u64) as i64,
                    a.max(b).min(i64::MAX as u64) as i64,
                )
            }
            "_ contains _" => Shape::Number(0, 1),
            "count _ in _" => {
                // Each of the sequence's numbers counts the values equal
                // to it: at most the most times a value is written.
                let most = match &bound[0] {
                    Shape::Sequence(Seq { items: Some(v), .. }) => {
                        let mut v = v.to_vec();
                        v.sort_unstable();
                        v.chunk_by(|a, b| a == b)
                            .map(<[i64]>::len)
                            .max()
                            .unwrap_or(0) as u64
                    }
                    Shape::Sequence(s) => s.len.1,
                    _ => 1,
                };
                let len = match &bound[1] {
                    Shape::Sequence(s) => s.len.1,
                    _ => 1,
                };
                Shape::Number(0, clamp(i128::from(most) * i128::from(len)))
            }
            "maximum of _" => match self.as_die(&bound[0]) {
                Some(d) => Shape::Number(d.hi, d.hi),
                None => Shape::Number(0, 0),
            },
            "reverse _" | "sort _" => bound[0].clone(),
            "highest of _ and _" | "lowest of _ and _" => {
                let (a, b) = (number(&bound[0]), number(&bound[1]));
                if key.starts_with("highest") {
                    Shape::Number(a.0.max(b.0), a.1.max(b.1))
                } else {
                    Shape::Number(a.0.min(b.0), a.1.min(b.1))
                }
            }
            "explode _" => {
                let Some(die) = self.as_die(&bound[0]) else {
                    return Shape::Die(None);
                };
                let depth = self.settings.explode_depth;
                let rolls = i128::from(depth) + 1;
                let hi = clamp(i128::from(die.hi) * rolls);
                let lo = clamp(i128::from(die.lo) * rolls).min(die.lo);
                let spread = die.spread() * rolls as f64;
                self.spread(spread);
                self.charge(work::explosion_price(
                    die.width as f64,
                    spread,
                    depth as f64,
                ));
                let bits = die.bits.saturating_mul(rolls as u64);
                // Each explosion adds the highest value again.
                let support = die.support.as_ref().and_then(|faces| {
                    let mut values = Vec::new();
                    for k in 0..=i128::from(depth) {
                        let base = i128::from(die.hi) * k;
                        values.extend(
                            faces
                                .iter()
                                .filter(|&&v| v != die.hi || k == i128::from(depth))
                                .map(|&v| clamp(base + i128::from(v))),
                        );
                        if values.len() > SUPPORT {
                            return None;
                        }
                    }
                    DieShape::of_values(values, bits)
                });
                Shape::Die(Some(
                    support.unwrap_or_else(|| DieShape::dense(lo, hi, bits)),
                ))
            }
            // highest, lowest, middle N of dice: places picked from the
            // collection, as the library turns them into `@`.
            _ => {
                let mut groups = Vec::new();
                for v in &bound[1..] {
                    match v {
                        Shape::Pool(p) => groups.extend(p.iter().cloned()),
                        Shape::Die(d) => groups.push((d.clone(), 1)),
                        other => {
                            let (lo, hi) = other.number();
                            groups.push((Some(DieShape::constant(lo, hi)), 1))
                        }
                    }
                }
                if groups.iter().any(|(d, _)| d.is_none()) {
                    return Shape::Die(None);
                }
                let size = pool_size(&groups) as i64;
                let (lo, hi) = number(&bound[0]);
                let n = if lo == hi { lo } else { hi };
                if n <= 0 {
                    return Shape::Number(0, 0);
                }
                let from_lowest = if key.starts_with("middle") {
                    if n >= size {
                        return Shape::Die(self.sum_pool(&groups));
                    }
                    let drop = (size - n + 1) / 2;
                    drop + 1..=drop + n
                } else if key.starts_with("highest") {
                    (size - n).max(0) + 1..=size
                } else {
                    1..=n.min(size)
                };
                let places: Vec<i64> = from_lowest
                    .map(|p| match self.settings.highest_first {
                        true => size + 1 - p,
                        false => p,
                    })
                    .collect();
                self.pool_at(&Seq::known(places), &groups)
            }
        }
    }

    /// Binds the arguments as the run does and prices the body: once, or
    /// for each case of a die passed to a number or sequence parameter,
    /// with the price of mixing the cases.
    pub(super) fn invoke(
        &mut self,
        types: &[Type],
        args: Vec<Shape>,
        body: &mut dyn FnMut(&mut Estimator, &[Shape]) -> Shape,
        own_frame: bool,
    ) -> Shape {
        let mut bound = Vec::with_capacity(args.len());
        let mut expanded: Vec<(usize, Cases)> = Vec::new();
        let mut weight_bits = 0u64;
        for (i, (kind, arg)) in types.iter().zip(args).enumerate() {
            match (kind, arg) {
                (Type::Any, arg) => bound.push(arg),
                (Type::Number, Shape::Sequence(s)) => {
                    let (lo, hi) = s.sum();
                    bound.push(Shape::Number(lo, hi))
                }
                (Type::Number, n @ Shape::Number(..)) => bound.push(n),
                (Type::Number, die) => {
                    let Some(d) = self.as_die(&die) else {
                        return Shape::Die(None);
                    };
                    bound.push(Shape::Number(0, 0));
                    weight_bits += d.bits.saturating_sub(bits_of(d.faces)).max(1);
                    expanded.push((i, cases(&d, |v| Shape::Number(v, v))));
                }
                (Type::Die, Shape::Number(lo, hi)) => {
                    bound.push(Shape::Die(Some(DieShape::constant(lo, hi))))
                }
                (Type::Die, Shape::Sequence(s)) => {
                    let (lo, hi) = s.sum();
                    bound.push(Shape::Die(Some(DieShape::constant(lo, hi))))
                }
                (Type::Die, die) => bound.push(die),
                (Type::Sequence, Shape::Number(lo, hi)) => bound.push(Shape::Sequence(Seq {
                    items: (lo == hi).then(|| Rc::from(vec![lo])),
                    len: (1, 1),
                    values: (lo, hi),
                })),
                (Type::Sequence, s @ Shape::Sequence(_)) => bound.push(s),
                (Type::Sequence, Shape::Die(None)) => return Shape::Die(None),
                (Type::Sequence, Shape::Die(Some(d))) => {
                    bound.push(Shape::Sequence(Seq::known(Vec::new())));
                    weight_bits += d.bits.saturating_sub(bits_of(d.faces)).max(1);
                    expanded.push((i, cases(&d, |v| Shape::Sequence(Seq::known(vec![v])))));
                }
                (Type::Sequence, Shape::Pool(p)) => {
                    if p.iter().any(|(d, _)| d.is_none()) {
                        return Shape::Die(None);
                    }
                    let rolls = self.listing(&p);
                    let size = pool_size(&p);
                    weight_bits += p
                        .iter()
                        .filter_map(|(d, n)| d.as_ref().map(|d| d.bits.saturating_mul(*n)))
                        .sum::<u64>();
                    bound.push(Shape::Sequence(Seq::known(Vec::new())));
                    if let Some(each) = sorted_rolls(&p, self.settings.highest_first && size > 1) {
                        let each = each
                            .into_iter()
                            .map(|r| Shape::Sequence(Seq::known(r)))
                            .collect();
                        expanded.push((i, Cases::Each(each)));
                        continue;
                    }
                    let dice = || p.iter().filter_map(|(d, _)| d.as_ref());
                    let values = (
                        dice().map(|d| d.lo).min().unwrap_or(0),
                        dice().map(|d| d.hi).max().unwrap_or(0),
                    );
                    expanded.push((
                        i,
                        Cases::All(
                            Shape::Sequence(Seq {
                                items: None,
                                len: (size, size),
                                values,
                            }),
                            rolls,
                        ),
                    ));
                }
            }
        }
        let enter = own_frame || !expanded.is_empty();
        if enter {
            self.depth += 1;
        }
        let result = if expanded.is_empty() {
            body(self, &bound)
        } else {
            self.cases(&mut bound, &expanded, weight_bits, body)
        };
        if enter {
            self.depth -= 1;
        }
        result
    }

    /// One case: its result as a die, and the price of mixing it in.
    pub(super) fn case(
        &mut self,
        bound: &[Shape],
        body: &mut dyn FnMut(&mut Estimator, &[Shape]) -> Shape,
    ) -> Option<DieShape> {
        let result = body(self, bound);
        let die = match &result {
            Shape::Sequence(s) => {
                let (lo, hi) = s.sum();
                Some(DieShape::constant(lo, hi))
            }
            other => self.as_die(other),
        };
        if let Some(d) = &die {
            self.charge(work::counts_price(
                d.width as f64 * 2.0,
                (d.bits * 2) as f64,
            ));
        }
        die
    }

    pub(super) fn cases(
        &mut self,
        bound: &mut [Shape],
        expanded: &[(usize, Cases)],
        weight_bits: u64,
        body: &mut dyn FnMut(&mut Estimator, &[Shape]) -> Shape,
    ) -> Shape {
        let count = |c: &Cases| match c {
            Cases::Each(v) => v.len() as f64,
            Cases::All(_, n) => *n,
        };
        let total: f64 = expanded.iter().map(|(_, c)| count(c)).product();
        self.charge(total);
        let each = expanded.iter().all(|(_, c)| matches!(c, Cases::Each(_)));
        // Every case while they are few, else cases spread evenly over
        // them, their mean price standing for each.
        let followed = if total <= FOLLOWED_CASES as f64 {
            total as usize
        } else {
            SAMPLES
        };
        let mut joined: Option<DieShape> = None;
        if each {
            let (before, mut done) = (self.steps, 0);
            for s in 0..followed {
                if self.over {
                    break;
                }
                done += 1;
                let mut k = if followed == total as usize {
                    s as f64
                } else {
                    (s as f64 * (total - 1.0) / (SAMPLES - 1) as f64).floor()
                };
                // The first expanded parameter varies fastest, as the run's.
                for (i, c) in expanded {
                    let n = count(c);
                    if let Cases::Each(values) = c {
                        bound[*i] = values[(k % n) as usize].clone();
                    }
                    k = (k / n).floor();
                }
                if let Some(d) = self.case(bound, body) {
                    joined = Some(joined.map_or(d.clone(), |j| j.join(&d)));
                }
            }
            // The cases not followed cost the mean of those followed.
            let spent = self.steps - before;
            self.steps = before + spent * total / done.max(1) as f64;
        } else {
            for (i, c) in expanded {
                bound[*i] = match c {
                    Cases::Each(values) => values
                        .iter()
                        .cloned()
                        .reduce(join)
                        .unwrap_or(Shape::Number(0, 0)),
                    Cases::All(shape, _) => shape.clone(),
                };
            }
            let before = self.steps;
            joined = self.case(bound, body);
            let one = self.steps - before;
            self.charge(one * (total - 1.0));
        }
        let Some(d) = joined else {
            return Shape::Die(None);
        };
        let bits = d.bits + weight_bits;
        let mixed = match d.support {
            Some(s) if each && followed == total as usize => {
                DieShape::of_values(s.to_vec(), bits).expect("a value")
            }
            _ => DieShape::dense(d.lo, d.hi, bits),
        };
        let parts = if each {
            total
        } else {
            total.min(mixed.width as f64)
        };
        self.charge(work::mixture_price(
            parts * d.width as f64,
            bits as f64 / 64.0,
        ));
        Shape::Die(Some(mixed))
    }
}
