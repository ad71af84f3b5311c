//! The estimate's prices of operations on shapes: sums, dice, arithmetic,
//! comparisons and picked places, each from the run's own formula.

use super::*;

impl Estimator {
    /// The price of a die spreading over `spread` values ([`Work::spread`]).
    pub(super) fn spread(&mut self, spread: f64) {
        self.charge(spread.min(work::MAX_SPREAD));
    }

    pub(super) fn sum_pool(&mut self, groups: &[(Option<DieShape>, u64)]) -> Option<DieShape> {
        let mut total = DieShape::constant(0, 0);
        for (die, count) in groups {
            let die = die.as_ref()?;
            if *count == 0 {
                continue;
            }
            self.sum_price(die, *count);
            let n = i128::from(*count);
            let next = DieShape {
                lo: clamp(i128::from(total.lo) + i128::from(die.lo) * n),
                hi: clamp(i128::from(total.hi) + i128::from(die.hi) * n),
                width: total.width + (die.width - 1).saturating_mul(*count),
                faces: 0,
                support: None,
                bits: total.bits + die.bits.saturating_mul(*count),
            };
            let support: Option<Rc<[i64]>> = match (&total.support, &die.support) {
                (Some(t), Some(d)) if *count <= 64 && !self.over => {
                    let mut sums = t.to_vec();
                    for _ in 0..*count {
                        sums = self.sums(&sums, d);
                        if sums.len() > SUPPORT || self.over {
                            break;
                        }
                    }
                    (sums.len() <= SUPPORT).then(|| Rc::from(sums))
                }
                _ => None,
            };
            self.spread(next.spread());
            total = DieShape {
                faces: support.as_ref().map_or(next.width, |s| s.len() as u64),
                support,
                ..next
            };
        }
        Some(total)
    }

    /// The price of summing `count` dice like `die` ([`ops::sum_pool`]).
    pub(super) fn sum_price(&mut self, die: &DieShape, count: u64) {
        self.charge(work::pool_sum_price(die.width as f64, count as f64));
    }

    /// Every sum of a value of `a` and one of `b`.
    pub(super) fn sums(&mut self, a: &[i64], b: &[i64]) -> Vec<i64> {
        self.tick((a.len() * b.len() / 64) as u64);
        let mut out: Vec<i64> = a
            .iter()
            .flat_map(|x| b.iter().map(move |y| x.saturating_add(*y)))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    pub(super) fn as_die(&mut self, value: &Shape) -> Option<DieShape> {
        match value {
            Shape::Number(lo, hi) => Some(DieShape::constant(*lo, *hi)),
            Shape::Sequence(s) => {
                let (lo, hi) = s.sum();
                Some(DieShape::constant(lo, hi))
            }
            Shape::Die(d) => d.clone(),
            Shape::Pool(p) => self.sum_pool(p),
        }
    }

    pub(super) fn die_of_faces(&mut self, s: &Seq) -> Option<DieShape> {
        let d = match &s.items {
            Some(items) => DieShape::of_values(items.to_vec(), bits_of(items.len() as u64))?,
            None if s.len.1 == 0 => return None,
            None => DieShape {
                faces: s.len.1.min(span_width(s.values.0, s.values.1)),
                bits: bits_of(s.len.1),
                ..DieShape::dense(s.values.0, s.values.1, 1)
            },
        };
        self.spread(d.spread());
        Some(d)
    }

    pub(super) fn shown(&mut self, value: &Shape) {
        match value {
            Shape::Sequence(s) => {
                self.die_of_faces(s);
            }
            other => {
                self.as_die(other);
            }
        }
    }

    pub(super) fn faces_of(&mut self, value: &Shape) -> Option<DieShape> {
        match value {
            Shape::Number(0, 0) => Some(DieShape::constant(0, 0)),
            Shape::Number(lo, hi) => {
                let most = lo.unsigned_abs().max(hi.unsigned_abs());
                self.spread(most as f64);
                let (a, b) = if *lo >= 1 {
                    (1, *hi)
                } else if *hi <= -1 {
                    (*lo, -1)
                } else {
                    (*lo.min(&0), *hi.max(&0))
                };
                let mut d = DieShape::dense(a, b, bits_of(most));
                if lo != hi {
                    d.width = most;
                    d.faces = most;
                }
                self.spread(d.spread());
                Some(d)
            }
            Shape::Sequence(s) => self.die_of_faces(s),
            Shape::Die(d) => d.clone(),
            Shape::Pool(p) => self.sum_pool(p),
        }
    }

    pub(super) fn unary(&mut self, op: Unary, value: Shape) -> Shape {
        let value = match value {
            Shape::Sequence(s) if matches!(op, Unary::Minus | Unary::Not) => {
                let (lo, hi) = s.sum();
                Shape::Number(lo, hi)
            }
            other => other,
        };
        match (op, value) {
            (Unary::Plus, v) => v,
            (Unary::Length, v) => match v {
                Shape::Number(lo, hi) => {
                    let digits = |n: i64| n.unsigned_abs().to_string().len() as i64;
                    if lo == hi {
                        Shape::Number(digits(lo), digits(lo))
                    } else {
                        Shape::Number(1, digits(lo).max(digits(hi)))
                    }
                }
                Shape::Sequence(s) => Shape::Number(s.len.0 as i64, s.len.1 as i64),
                Shape::Die(d) => {
                    let n = i64::from(d.is_some());
                    Shape::Number(n, n)
                }
                Shape::Pool(p) => {
                    let n = pool_size(&p) as i64;
                    Shape::Number(n, n)
                }
            },
            (Unary::Die, v) => match v {
                Shape::Die(_) | Shape::Pool(_) => v,
                faces => Shape::Die(self.faces_of(&faces)),
            },
            (Unary::Minus, Shape::Number(lo, hi)) => {
                Shape::Number(clamp(-i128::from(hi)), clamp(-i128::from(lo)))
            }
            (Unary::Not, Shape::Number(lo, hi)) => match (lo, hi) {
                (0, 0) => Shape::Number(1, 1),
                _ if lo > 0 || hi < 0 => Shape::Number(0, 0),
                _ => Shape::Number(0, 1),
            },
            (Unary::Minus, Shape::Pool(p)) => Shape::Pool(
                p.iter()
                    .map(|(d, n)| {
                        let d = d.as_ref().map(|d| {
                            self.spread(d.spread());
                            d.negated()
                        });
                        (d, *n)
                    })
                    .collect(),
            ),
            (op, v) => {
                let Some(die) = self.as_die(&v) else {
                    return Shape::Die(None);
                };
                self.charge(die.width as f64);
                Shape::Die(Some(match op {
                    Unary::Minus => {
                        self.spread(die.spread());
                        die.negated()
                    }
                    _ => DieShape {
                        lo: i64::from(die.hi < 0 || die.lo > 0 || die.lo == die.hi),
                        hi: i64::from(die.lo <= 0 && die.hi >= 0),
                        width: die.width.min(2),
                        faces: die.faces.min(2),
                        support: None,
                        bits: die.bits,
                    },
                }))
            }
        }
    }

    pub(super) fn binary(&mut self, op: Binary, a: &Shape, b: &Shape) -> Shape {
        // Known numbers and sequences: the run's own operator, which does
        // no priced work on them.
        if let (Some(x), Some(y)) = (a.known(), b.known()) {
            let mut free = Work::new(0.0);
            return ops::binary(op, &x, &y, &mut free).map_or(Shape::Number(0, 0), Shape::of);
        }
        if op.is_comparison() {
            self.comparison(op, a, b)
        } else {
            self.arithmetic(op, a, b)
        }
    }

    pub(super) fn arithmetic(&mut self, op: Binary, a: &Shape, b: &Shape) -> Shape {
        let (ea, eb) = (a.is_empty(), b.is_empty());
        if ea && eb {
            return Shape::Die(None);
        }
        let zero = Shape::Number(0, 0);
        let (a, b) = match op {
            Binary::Add | Binary::Subtract | Binary::Or if ea => {
                if matches!(b, Shape::Pool(_)) {
                    return b.clone();
                }
                (&zero, b)
            }
            Binary::Add | Binary::Subtract | Binary::Or if eb => {
                if matches!(a, Shape::Pool(_)) {
                    return a.clone();
                }
                (a, &zero)
            }
            _ if ea || eb => return Shape::Die(None),
            _ => (a, b),
        };
        if matches!(a, Shape::Number(..) | Shape::Sequence(_))
            && matches!(b, Shape::Number(..) | Shape::Sequence(_))
        {
            let (lo, hi) = interval(op, a.number(), b.number());
            return Shape::Number(lo, hi);
        }
        let (Some(x), Some(y)) = (self.as_die(a), self.as_die(b)) else {
            return Shape::Die(None);
        };
        Shape::Die(Some(self.combine(op, &x, &y)))
    }

    pub(super) fn comparison(&mut self, op: Binary, a: &Shape, b: &Shape) -> Shape {
        let a = match a {
            Shape::Pool(p) => Shape::Die(self.sum_pool(p)),
            other => other.clone(),
        };
        let b = match b {
            Shape::Pool(p) => Shape::Die(self.sum_pool(p)),
            other => other.clone(),
        };
        if a.is_empty() || b.is_empty() {
            return Shape::Die(None);
        }
        match (&a, &b) {
            (Shape::Sequence(_), Shape::Sequence(_)) => Shape::Number(0, 1),
            (Shape::Sequence(s), Shape::Number(..)) | (Shape::Number(..), Shape::Sequence(s)) => {
                Shape::Number(0, s.len.1 as i64)
            }
            (Shape::Number(..), Shape::Number(..)) => {
                let (lo, hi) = interval(op, a.number(), b.number());
                Shape::Number(lo, hi)
            }
            _ => {
                let (Some(x), Some(y)) = (self.as_die(&a), self.as_die(&b)) else {
                    return Shape::Die(None);
                };
                Shape::Die(Some(self.combine(op, &x, &y)))
            }
        }
    }

    /// `x op y` value by value: the run's price, and the die it makes.
    pub(super) fn combine(&mut self, op: Binary, x: &DieShape, y: &DieShape) -> DieShape {
        let bits = x.bits + y.bits;
        self.charge(work::counts_price(
            x.width as f64 * y.width as f64,
            bits as f64,
        ));
        let exact = match (&x.support, &y.support) {
            (Some(a), Some(b)) if a.len() * b.len() <= 1 << 14 => {
                self.tick((a.len() * b.len() / 64) as u64);
                let values: Vec<i64> = if op == Binary::Add {
                    self.sums(a, b)
                } else {
                    a.iter()
                        .flat_map(|p| b.iter().filter_map(move |q| numbers(op, *p, *q, true).ok()))
                        .collect()
                };
                DieShape::of_values(values, bits)
            }
            _ => None,
        };
        let d = exact.unwrap_or_else(|| {
            let (lo, hi) = interval(op, (x.lo, x.hi), (y.lo, y.hi));
            let span = span_width(lo, hi);
            let width = match op {
                Binary::Add | Binary::Subtract => x.width + y.width - 1,
                _ => x.width.saturating_mul(y.width),
            }
            .min(span);
            DieShape {
                lo,
                hi,
                width,
                faces: x.faces.saturating_mul(y.faces).min(width),
                support: None,
                bits,
            }
        });
        self.spread(d.spread());
        d
    }

    pub(super) fn dice(&mut self, count: &Shape, faces: &Shape) -> Shape {
        let count = match count {
            Shape::Sequence(s) => {
                let (lo, hi) = s.sum();
                Shape::Number(lo, hi)
            }
            Shape::Pool(p) => Shape::Die(self.sum_pool(p)),
            other => other.clone(),
        };
        match count {
            Shape::Number(lo, hi) => {
                if lo == 1 && hi == 1 {
                    if let Shape::Pool(_) = faces {
                        return faces.clone();
                    }
                }
                let die = self.faces_of(faces);
                // An unknown count: the dearer end.
                let n = if lo.unsigned_abs() > hi.unsigned_abs() {
                    lo
                } else {
                    hi
                };
                self.roll_n(n, die)
            }
            Shape::Die(None) => Shape::Pool(vec![(None, 1)]),
            Shape::Die(Some(counts)) => {
                let Some(die) = self.faces_of(faces) else {
                    return Shape::Pool(vec![(None, 1)]);
                };
                let ns: Vec<i64> = counts.cases().unwrap_or_else(|| {
                    let step = (counts.width / 256).max(1);
                    (0..counts.width.min(256))
                        .map(|i| clamp(i128::from(counts.lo) + i128::from(i * step)))
                        .collect()
                });
                let scale = counts.faces as f64 / ns.len() as f64;
                let before = self.steps;
                // Each count's dice, summed: the price alone (their values
                // are the mixture's, below).
                for &n in &ns {
                    if n < 0 {
                        self.spread(die.spread());
                    }
                    if n != 0 {
                        self.sum_price(&die, n.unsigned_abs());
                        self.spread(die.spread() * n.unsigned_abs() as f64);
                    }
                }
                self.steps = before + (self.steps - before) * scale.max(1.0);
                let (lo, hi) = interval(Binary::Multiply, (counts.lo, counts.hi), (die.lo, die.hi));
                let most = counts.lo.unsigned_abs().max(counts.hi.unsigned_abs());
                Shape::Die(Some(DieShape::dense(
                    lo.min(0),
                    hi.max(0),
                    die.bits.saturating_mul(most) + counts.bits,
                )))
            }
            Shape::Sequence(_) | Shape::Pool(_) => unreachable!("summed above"),
        }
    }

    pub(super) fn roll_n(&mut self, n: i64, die: Option<DieShape>) -> Shape {
        match (n, die) {
            (_, None) => Shape::Die(None),
            (0, _) => Shape::Number(0, 0),
            (n, Some(d)) if n < 0 => {
                self.spread(d.spread());
                Shape::Pool(vec![(Some(d.negated()), n.unsigned_abs())])
            }
            (n, d) => Shape::Pool(vec![(d, n as u64)]),
        }
    }

    pub(super) fn at(&mut self, places: &Shape, value: &Shape) -> Shape {
        if let (Some(p), Some(v)) = (places.known(), value.known()) {
            let mut free = Work::new(0.0);
            return ops::at(&p, &v, self.settings.highest_first, &mut free)
                .map_or(Shape::Number(0, 0), Shape::of);
        }
        let picked = match places {
            Shape::Number(lo, hi) => Seq {
                items: (lo == hi).then(|| Rc::from(vec![*lo])),
                len: (1, 1),
                values: (*lo, *hi),
            },
            Shape::Sequence(s) => s.clone(),
            // Refused by the run.
            _ => return Shape::Number(0, 0),
        };
        match value {
            Shape::Number(..) => {
                let k = picked.len.1.min(19) as i64 * 9;
                Shape::Number(-k, k)
            }
            Shape::Sequence(s) => {
                let k = i128::from(picked.len.1);
                Shape::Number(
                    clamp((i128::from(s.values.0) * k).min(0)),
                    clamp((i128::from(s.values.1) * k).max(0)),
                )
            }
            Shape::Die(None) => Shape::Die(None),
            Shape::Die(d) => self.pool_at(&picked, &[(d.clone(), 1)]),
            Shape::Pool(p) => self.pool_at(&picked, p),
        }
    }

    pub(super) fn pool_at(&mut self, places: &Seq, groups: &[(Option<DieShape>, u64)]) -> Shape {
        let size = pool_size(groups);
        let (reach, total) = match &places.items {
            Some(items) => {
                let within: Vec<u64> = items
                    .iter()
                    .filter(|&&p| p >= 1 && p as u64 <= size)
                    .map(|&p| p as u64)
                    .collect();
                (
                    within.iter().copied().max().unwrap_or(0),
                    within.len() as u64,
                )
            }
            None => (
                size.min(places.values.1.max(0) as u64),
                places.len.1.min(size.max(1) * 64),
            ),
        };
        if total == 0 {
            return Shape::Number(0, 0);
        }
        if groups.iter().any(|(d, _)| d.is_none()) {
            return Shape::Die(None);
        }
        let bits = groups
            .iter()
            .map(|(d, n)| d.as_ref().map_or(0, |d| d.bits.saturating_mul(*n)))
            .sum();
        let lo = groups
            .iter()
            .filter_map(|(d, _)| d.as_ref())
            .map(|d| d.lo)
            .min();
        let hi = groups
            .iter()
            .filter_map(|(d, _)| d.as_ref())
            .map(|d| d.hi)
            .max();
        let (lo, hi) = (lo.unwrap_or(0), hi.unwrap_or(0));
        let t = i128::from(total);
        let (lo, hi) = (clamp(i128::from(lo) * t), clamp(i128::from(hi) * t));
        let spread = (i128::from(hi) - i128::from(lo)) as f64;
        if let [(Some(die), count)] = groups {
            self.charge(work::pick_price(
                die.width as f64,
                reach as f64,
                *count as f64,
                die.spread() * total as f64,
            ));
            self.spread(spread);
            if total == 1 && die.support.is_some() {
                return Shape::Die(Some(DieShape {
                    bits,
                    ..die.clone()
                }));
            }
            return Shape::Die(Some(DieShape::dense(lo, hi, bits)));
        }
        self.listing(groups);
        self.spread(spread);
        Shape::Die(Some(DieShape::dense(lo, hi, bits)))
    }

    /// The price of listing a collection's sorted rolls, and how many
    /// there are ([`ops::sorted_rolls`]).
    pub(super) fn listing(&mut self, groups: &[(Option<DieShape>, u64)]) -> f64 {
        let size = pool_size(groups) as f64;
        let mut rolls = 1.0;
        for (die, count) in groups {
            let Some(die) = die else {
                return 0.0;
            };
            let sorted = sorted_roll_count(*count, die.faces as usize);
            self.charge(work::listing_price(rolls, sorted, size));
            rolls *= sorted;
        }
        rolls
    }
}
