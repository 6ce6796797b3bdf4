//! Polynomials with exact rational coefficients: built by interpolating exact values ([`Newton`]), and
//! their real roots isolated by Sturm sequences and narrowed by bisection on rationals ([`roots`]), so a
//! root is never missed or made up by rounding.

use num_traits::{One, Signed, Zero};

use crate::fraction::BigRational;

/// A polynomial, coefficients from the constant term up, with no trailing zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poly(Vec<BigRational>);

impl Poly {
    pub fn new(mut coefficients: Vec<BigRational>) -> Poly {
        while coefficients.last().is_some_and(Zero::is_zero) {
            coefficients.pop();
        }
        Poly(coefficients)
    }

    pub fn coefficients(&self) -> &[BigRational] {
        &self.0
    }

    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// The degree; 0 for the zero polynomial too.
    pub fn degree(&self) -> usize {
        self.0.len().saturating_sub(1)
    }

    pub fn eval(&self, x: &BigRational) -> BigRational {
        self.0.iter().rev().fold(BigRational::zero(), |acc, c| acc * x + c)
    }

    pub fn derivative(&self) -> Poly {
        let terms = self.0.iter().enumerate().skip(1);
        Poly::new(terms.map(|(i, c)| c * BigRational::from_integer(i.into())).collect())
    }

    /// `self - k * other`.
    pub fn minus_times(&self, k: &BigRational, other: &Poly) -> Poly {
        let n = self.0.len().max(other.0.len());
        let at = |p: &Poly, i: usize| p.0.get(i).cloned().unwrap_or_else(BigRational::zero);
        Poly::new((0..n).map(|i| at(self, i) - k * at(other, i)).collect())
    }

    pub fn times(&self, other: &Poly) -> Poly {
        if self.is_zero() || other.is_zero() {
            return Poly(Vec::new());
        }
        let mut out = vec![BigRational::zero(); self.0.len() + other.0.len() - 1];
        for (i, a) in self.0.iter().enumerate() {
            for (j, b) in other.0.iter().enumerate() {
                out[i + j] += a * b;
            }
        }
        Poly::new(out)
    }

    /// The remainder of dividing by `d` (not zero).
    fn rem(&self, d: &Poly) -> Poly {
        let lead = d.0.last().expect("a divisor is not zero");
        let mut r = self.clone();
        while !r.is_zero() && r.degree() >= d.degree() {
            let shift = r.degree() - d.degree();
            let k = r.0.last().expect("not zero") / lead;
            let mut shifted = vec![BigRational::zero(); shift];
            shifted.extend(d.0.iter().cloned());
            r = r.minus_times(&k, &Poly(shifted));
        }
        r
    }

    /// The polynomial scaled to a leading coefficient of 1 or -1: the same signs everywhere, smaller numbers.
    fn unit(&self) -> Poly {
        match self.0.last() {
            Some(lead) => {
                let scale = lead.abs();
                Poly(self.0.iter().map(|c| c / &scale).collect())
            }
            None => self.clone(),
        }
    }

    /// `sign(self(x))`: -1, 0 or 1.
    pub fn sign_at(&self, x: &BigRational) -> i8 {
        sign(&self.eval(x))
    }
}

fn sign(v: &BigRational) -> i8 {
    (v.is_positive() as i8) - (v.is_negative() as i8)
}

/// A polynomial built one exact value at a time in Newton's form: `c0 + c1 (x - x0) + c2 (x - x0)(x - x1) +
/// ...`. A value that lies on the polynomial so far adds a zero coefficient, which is how the caller knows
/// the degree has been found.
#[derive(Clone, Debug, Default)]
pub struct Newton {
    xs: Vec<BigRational>,
    cs: Vec<BigRational>,
}

impl Newton {
    /// The polynomial so far at `x`.
    pub fn eval(&self, x: &BigRational) -> BigRational {
        let mut acc = BigRational::zero();
        for i in (0..self.cs.len()).rev() {
            acc = acc * (x - &self.xs[i]) + &self.cs[i];
        }
        acc
    }

    /// Adds the value `y` at `x` (a point not added before); returns whether it lay on the polynomial so far.
    pub fn add(&mut self, x: BigRational, y: &BigRational) -> bool {
        let gap = y - self.eval(&x);
        let on = gap.is_zero() && !self.cs.is_empty();
        let product: BigRational = self.xs.iter().map(|xi| &x - xi).product();
        self.cs.push(gap / product);
        self.xs.push(x);
        on
    }

    /// The polynomial in the ordinary form.
    pub fn poly(&self) -> Poly {
        let mut out = Poly(Vec::new());
        let mut basis = Poly(vec![BigRational::one()]);
        for (c, x) in self.cs.iter().zip(&self.xs) {
            out = out.minus_times(&-c, &basis);
            basis = basis.times(&Poly(vec![-x.clone(), BigRational::one()]));
        }
        out
    }
}

/// The Sturm sequence of `p`: the number of its sign changes at `a` less that at `b` counts the distinct
/// real roots of `p` in `(a, b]`.
pub struct Sturm(Vec<Poly>);

impl Sturm {
    pub fn of(p: &Poly) -> Sturm {
        let mut seq = vec![p.unit(), p.derivative().unit()];
        loop {
            let n = seq.len();
            if seq[n - 1].is_zero() {
                seq.pop();
                return Sturm(seq);
            }
            let r = seq[n - 2].rem(&seq[n - 1]);
            seq.push(Poly::new(r.0.iter().map(|c| -c).collect()).unit());
        }
    }

    fn changes(&self, x: &BigRational) -> usize {
        let signs: Vec<i8> = self.0.iter().map(|p| p.sign_at(x)).filter(|&s| s != 0).collect();
        signs.windows(2).filter(|w| w[0] != w[1]).count()
    }

    /// The distinct roots in `(a, b]`.
    pub fn count(&self, a: &BigRational, b: &BigRational) -> usize {
        self.changes(a).saturating_sub(self.changes(b))
    }
}

/// A real root known to lie in `(lo, hi]`, or exactly at `lo` when `lo == hi`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    pub lo: BigRational,
    pub hi: BigRational,
}

impl Root {
    pub fn exact(&self) -> Option<&BigRational> {
        (self.lo == self.hi).then_some(&self.lo)
    }

    pub fn mid(&self) -> BigRational {
        (&self.lo + &self.hi) / BigRational::from_integer(2.into())
    }

    pub fn width(&self) -> BigRational {
        &self.hi - &self.lo
    }
}

/// The distinct real roots of `p` (not zero) in `[a, b]`, in order, each in an interval at most `width`
/// wide that holds no other.
pub fn roots(p: &Poly, a: &BigRational, b: &BigRational, width: &BigRational) -> Vec<Root> {
    let sturm = Sturm::of(p);
    let mut out = Vec::new();
    if p.sign_at(a) == 0 {
        out.push(Root { lo: a.clone(), hi: a.clone() });
    }
    isolate(&sturm, a.clone(), b.clone(), &mut out);
    out.iter_mut().for_each(|r| narrow(p, &sturm, r, width));
    out
}

/// Splits `(a, b]` until each part holds one root, in order.
fn isolate(sturm: &Sturm, a: BigRational, b: BigRational, out: &mut Vec<Root>) {
    match sturm.count(&a, &b) {
        0 => {}
        1 => out.push(Root { lo: a, hi: b }),
        _ => {
            let m = (&a + &b) / BigRational::from_integer(2.into());
            isolate(sturm, a, m.clone(), out);
            isolate(sturm, m, b, out);
        }
    }
}

/// Halves `root`'s interval until it is at most `width` wide, or the root is found exactly.
fn narrow(p: &Poly, sturm: &Sturm, root: &mut Root, width: &BigRational) {
    while root.exact().is_none() && root.width() > *width {
        if p.sign_at(&root.hi) == 0 {
            root.lo = root.hi.clone();
            return;
        }
        let m = root.mid();
        if sturm.count(&root.lo, &m) == 1 {
            root.hi = m;
        } else {
            root.lo = m;
        }
    }
    // A root that is a simple fraction (2/3) is found exactly: the simplest fraction in the interval is
    // the only one worth trying, since any other in it has a larger denominator.
    if root.exact().is_none() {
        let q = simplest(&root.lo, &root.hi);
        if p.sign_at(&q) == 0 {
            (root.lo, root.hi) = (q.clone(), q);
        }
    }
}

/// The fraction with the smallest denominator in `(lo, hi]` (`0 <= lo < hi`), by continued fractions.
pub fn simplest(lo: &BigRational, hi: &BigRational) -> BigRational {
    if hi.is_integer() || hi.floor() > *lo {
        let whole = lo.floor() + BigRational::one();
        return if whole <= *hi { whole } else { hi.clone() };
    }
    // Both in (n, n + 1): n + 1 / (the simplest in [1 / (hi - n), 1 / (lo - n)), found the same way).
    let n = lo.floor();
    let (a, b) = ((hi - &n).recip(), if *lo == n { None } else { Some((lo - &n).recip()) });
    let inner = match b {
        Some(b) => simplest_from(&a, &b),
        None => a.ceil(),
    };
    n + inner.recip()
}

/// The fraction with the smallest denominator in `[lo, hi)`.
fn simplest_from(lo: &BigRational, hi: &BigRational) -> BigRational {
    if lo.is_integer() || lo.ceil() < *hi {
        return lo.ceil();
    }
    let n = lo.floor();
    let (a, b) = ((hi - &n).recip(), (lo - &n).recip());
    n + simplest(&a, &b).recip()
}

/// A point strictly between two neighbouring roots (`left` before `right`), narrowing `right` if they touch.
pub fn between(p: &Poly, left: &Root, right: &mut Root) -> BigRational {
    let sturm = Sturm::of(p);
    while right.lo <= left.hi {
        let m = right.mid();
        if sturm.count(&right.lo, &m) == 0 {
            right.lo = m;
        } else {
            right.hi = m;
        }
    }
    (&left.hi + &right.lo) / BigRational::from_integer(2.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::solve::r;

    fn poly(cs: &[i64]) -> Poly {
        Poly::new(cs.iter().map(|&c| r(c, 1)).collect())
    }

    #[test]
    fn interpolation_finds_the_polynomial_and_its_degree() {
        let p = poly(&[1, -3, 0, 2]);
        let mut n = Newton::default();
        let on: Vec<bool> = (0..7).map(|i| n.add(r(i, 7), &p.eval(&r(i, 7)))).collect();
        assert_eq!(on, [false, false, false, false, true, true, true]);
        assert_eq!(n.poly(), p);
    }

    #[test]
    fn sturm_counts_and_isolates_roots() {
        // (x - 1/4)(x - 1/2)(x - 3/4), and x^2 - 2 with its root sqrt 2.
        let p = poly(&[-3, 22, -48, 32]);
        let roots = roots(&p, &r(0, 1), &r(1, 1), &r(1, 1000));
        let exact: Vec<_> = roots.iter().map(|x| x.exact().cloned()).collect();
        assert_eq!(exact, [Some(r(1, 4)), Some(r(1, 2)), Some(r(3, 4))]);
        let two = poly(&[-2, 0, 1]);
        let root = &super::roots(&two, &r(0, 1), &r(2, 1), &r(1, 1_000_000))[0];
        assert!(root.lo.clone() * root.lo.clone() < r(2, 1) && root.hi.clone() * root.hi.clone() >= r(2, 1));
        assert!(root.width() <= r(1, 1_000_000));
    }

    #[test]
    fn the_simplest_fraction_in_an_interval() {
        assert_eq!(simplest(&r(66, 100), &r(67, 100)), r(2, 3));
        assert_eq!(simplest(&r(0, 1), &r(1, 2)), r(1, 2));
        assert_eq!(simplest(&r(1, 3), &r(3, 2)), r(1, 1));
        assert_eq!(simplest(&r(3, 10), &r(1, 3)), r(1, 3));
        assert_eq!(simplest(&r(38, 100), &r(39, 100)), r(5, 13));
        // x^2 - 2 has no fraction for a root; 3x - 2 has 2/3.
        let third = roots(&poly(&[-2, 3]), &r(0, 1), &r(1, 1), &r(1, 1_000_000));
        assert_eq!(third[0].exact(), Some(&r(2, 3)));
    }

    #[test]
    fn a_double_root_is_found_and_points_between_roots_are_strict() {
        let p = poly(&[1, -2, 1]); // (x - 1)^2
        assert_eq!(roots(&p, &r(0, 1), &r(2, 1), &r(1, 100))[0].exact(), Some(&r(1, 1)));
        let q = poly(&[0, -1, 1]); // x (x - 1), roots at both ends
        let mut found = roots(&q, &r(0, 1), &r(1, 1), &r(1, 100));
        let (left, right) = found.split_at_mut(1);
        let m = between(&q, &left[0], &mut right[0]);
        assert!(m > r(0, 1) && m < r(1, 1));
    }
}
