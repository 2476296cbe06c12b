//! Exact rational oracle for the geometry kernels.
//!
//! Every finite `f32` is a dyadic rational, so every decision below is made with exact
//! arithmetic (`BigRational`, or `BigInt` on an exactly scaled integer image of the
//! inputs) on the exact values of the inputs: nothing is rounded and no floating-point
//! shortcut is taken for a decision. The only approximation is the enclosure of
//! irrational roots (circle and sweep), kept as exact dyadic intervals `[lo, hi]` of
//! width at most `2.5 * 2^-64` that provably contain the true root (see [`int_roots`]).
//!
//! The oracle is deliberately simple and slow; it is written from the documented
//! semantics only, not from the kernels' source.
//!
//! Thresholds compared as rationals (`1e-7` on a time, ...) are the exact values of the
//! `f64` literals (`1e-7` is really `1e-7 + 4e-24`); thresholds compared on integers
//! (relative discriminant `1e-9`, along bands `1e-6` / `1e-4`, residual `1e-5`) are exact
//! powers of ten. Either way that is irrelevant for bands that only separate "clear"
//! from "ambiguous" cases.

use bevy_math::{Vec2, bounding::Aabb2d};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Exact rational number.
pub(crate) type Q = BigRational;

/// The exact value of a finite `f32`. Panics on non-finite input (callers filter first).
pub(crate) fn q(x: f32) -> Q {
    Q::from_float(f64::from(x)).expect("q() needs a finite f32")
}

/// The exact value of a finite `f64` constant (tolerances, bands).
pub(crate) fn qf(x: f64) -> Q {
    Q::from_float(x).expect("qf() needs a finite f64")
}

/// Nearest-ish `f64` of a rational, for human-readable messages only (never for decisions).
pub(crate) fn approx(x: &Q) -> f64 {
    x.to_f64().unwrap_or(f64::NAN)
}

/// Whether every coordinate of every point is finite.
pub(crate) fn all_finite(points: &[Vec2]) -> bool {
    points.iter().all(|p| p.x.is_finite() && p.y.is_finite())
}

/// An exact 2D vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct QVec {
    /// x coordinate.
    pub(crate) x: Q,
    /// y coordinate.
    pub(crate) y: Q,
}

impl QVec {
    /// The exact value of a finite `Vec2`.
    pub(crate) fn of(v: Vec2) -> Self {
        Self {
            x: q(v.x),
            y: q(v.y),
        }
    }

    fn sub(&self, o: &Self) -> Self {
        Self {
            x: &self.x - &o.x,
            y: &self.y - &o.y,
        }
    }

    fn add(&self, o: &Self) -> Self {
        Self {
            x: &self.x + &o.x,
            y: &self.y + &o.y,
        }
    }

    fn scale(&self, s: &Q) -> Self {
        Self {
            x: &self.x * s,
            y: &self.y * s,
        }
    }

    fn dot(&self, o: &Self) -> Q {
        &self.x * &o.x + &self.y * &o.y
    }

    fn cross(&self, o: &Self) -> Q {
        &self.x * &o.y - &self.y * &o.x
    }

    fn is_zero(&self) -> bool {
        self.x.is_zero() && self.y.is_zero()
    }

    /// Approximate coordinates for messages.
    pub(crate) fn approx(&self) -> (f64, f64) {
        (approx(&self.x), approx(&self.y))
    }
}

fn qmin(a: &Q, b: &Q) -> Q {
    if a <= b { a.clone() } else { b.clone() }
}

fn qmax(a: &Q, b: &Q) -> Q {
    if a >= b { a.clone() } else { b.clone() }
}

// ---------------------------------------------------------------------------------------
// Segment vs AABB
// ---------------------------------------------------------------------------------------

/// Exact clip of the segment `start + t (end - start)`, `t` in `[0, 1]`, against the
/// CLOSED box `[min, max]`: `Some((entry, exit))` with the first and last `t` inside, or
/// `None` when the segment misses (or the box is inverted on some axis, or any input is
/// not finite).
///
/// Per axis the set of `t` with `min <= s + t d <= max` is the whole line (`d == 0` and
/// `s` inside), empty (`d == 0` and `s` outside), or the closed interval between
/// `(min - s) / d` and `(max - s) / d`; the answer is the intersection of both axes'
/// sets with `[0, 1]`.
pub(crate) fn clip(start: Vec2, end: Vec2, aabb: &Aabb2d) -> Option<(Q, Q)> {
    if !all_finite(&[start, end, aabb.min, aabb.max]) {
        return None;
    }
    let s = QVec::of(start);
    let d = QVec::of(end).sub(&s);
    let (min, max) = (QVec::of(aabb.min), QVec::of(aabb.max));
    let mut lo = Q::zero();
    let mut hi = Q::one();
    for (s_i, d_i, min_i, max_i) in [(&s.x, &d.x, &min.x, &max.x), (&s.y, &d.y, &min.y, &max.y)] {
        if min_i > max_i {
            return None;
        }
        if d_i.is_zero() {
            if s_i < min_i || s_i > max_i {
                return None;
            }
        } else {
            let t0 = (min_i - s_i) / d_i;
            let t1 = (max_i - s_i) / d_i;
            lo = qmax(&lo, &qmin(&t0, &t1));
            hi = qmin(&hi, &qmax(&t0, &t1));
        }
    }
    (lo <= hi).then_some((lo, hi))
}

// ---------------------------------------------------------------------------------------
// Segment vs segment
// ---------------------------------------------------------------------------------------

/// Exact result of a segment–segment query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SegSeg {
    /// No common point.
    None,
    /// Exactly one common point `a0 + t (a1 - a0) = b0 + u (b1 - b0)`.
    Point {
        /// Parameter on the first segment.
        t: Q,
        /// Parameter on the second segment.
        u: Q,
        /// The common point.
        point: QVec,
    },
    /// Collinear overlap of positive length: `t[0] < t[1]` on the first segment and the
    /// matching parameters `u` on the second.
    Overlap {
        /// Ascending parameters on the first segment.
        t: [Q; 2],
        /// Matching parameters on the second segment.
        u: [Q; 2],
    },
}

/// Exact segment–segment intersection with the documented semantics (closed segments;
/// a zero-length segment has parameter 0; collinear end-to-end contact is a `Point`).
pub(crate) fn segment_segment(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> SegSeg {
    if !all_finite(&[a0, a1, b0, b1]) {
        return SegSeg::None;
    }
    let (a0, a1, b0, b1) = (QVec::of(a0), QVec::of(a1), QVec::of(b0), QVec::of(b1));
    let d = a1.sub(&a0);
    let e = b1.sub(&b0);
    let w = b0.sub(&a0);
    let unit = |x: &Q| !x.is_negative() && x <= &Q::one();
    match (d.is_zero(), e.is_zero()) {
        (true, true) => {
            if a0 == b0 {
                SegSeg::Point {
                    t: Q::zero(),
                    u: Q::zero(),
                    point: a0,
                }
            } else {
                SegSeg::None
            }
        }
        (true, false) => {
            // The point a0 against segment b.
            let rel = a0.sub(&b0);
            let u = rel.dot(&e) / e.dot(&e);
            if e.cross(&rel).is_zero() && unit(&u) {
                SegSeg::Point {
                    t: Q::zero(),
                    u,
                    point: a0,
                }
            } else {
                SegSeg::None
            }
        }
        (false, true) => {
            // The point b0 against segment a.
            let t = w.dot(&d) / d.dot(&d);
            if d.cross(&w).is_zero() && unit(&t) {
                SegSeg::Point {
                    t,
                    u: Q::zero(),
                    point: b0,
                }
            } else {
                SegSeg::None
            }
        }
        (false, false) => {
            let denom = d.cross(&e);
            if !denom.is_zero() {
                // a0 + t d = b0 + u e  <=>  t d - u e = w.
                let t = w.cross(&e) / &denom;
                let u = w.cross(&d) / &denom;
                if unit(&t) && unit(&u) {
                    let point = a0.add(&d.scale(&t));
                    SegSeg::Point { t, u, point }
                } else {
                    SegSeg::None
                }
            } else if !w.cross(&d).is_zero() {
                SegSeg::None // parallel, distinct lines
            } else {
                // Collinear: project b's endpoints on a.
                let dd = d.dot(&d);
                let tb0 = w.dot(&d) / &dd;
                let tb1 = b1.sub(&a0).dot(&d) / &dd;
                let lo = qmax(&Q::zero(), &qmin(&tb0, &tb1));
                let hi = qmin(&Q::one(), &qmax(&tb0, &tb1));
                let ee = e.dot(&e);
                let u_of = |t: &Q| a0.add(&d.scale(t)).sub(&b0).dot(&e) / &ee;
                if lo > hi {
                    SegSeg::None
                } else if lo == hi {
                    SegSeg::Point {
                        u: u_of(&lo),
                        point: a0.add(&d.scale(&lo)),
                        t: lo,
                    }
                } else {
                    SegSeg::Overlap {
                        u: [u_of(&lo), u_of(&hi)],
                        t: [lo, hi],
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Exact integer images and roots of quadratics
// ---------------------------------------------------------------------------------------
//
// Circle and sweep work on integers: all inputs are multiplied by one power of two that
// makes every one of them an integer (the geometry is scale-invariant in t and along),
// and times are dyadic rationals `n / 2^k` (every f32, every root enclosure end), so
// polynomials are evaluated exactly as integers without any gcd. (`BigRational` on
// enclosures with huge denominators was far too slow in a debug build.)

/// Bits of absolute precision of irrational root enclosures.
const ROOT_BITS: usize = 64;

/// `10^k` (decimal bands are compared exactly: `x <= 1e-6 * y` is `10^6 x <= y`).
fn ten_pow(k: u32) -> BigInt {
    BigInt::from(10u32).pow(k)
}

/// Splits a dyadic rational `t = n / 2^k` (every finite `f32`, every enclosure end).
fn dyadic(t: &Q) -> (BigInt, usize) {
    let k = usize::try_from(t.denom().bits() - 1).expect("denominator fits");
    assert_eq!(t.denom(), &(BigInt::one() << k), "not a dyadic rational");
    (t.numer().clone(), k)
}

/// `floor(a / b)` for `b != 0`.
fn div_floor(a: &BigInt, b: &BigInt) -> BigInt {
    let quotient = a / b;
    let rest = a - &quotient * b;
    if !rest.is_zero() && (rest.is_negative() != b.is_negative()) {
        quotient - 1
    } else {
        quotient
    }
}

/// `ceil(a / b)` for `b != 0`.
fn div_ceil(a: &BigInt, b: &BigInt) -> BigInt {
    -div_floor(&-a, b)
}

/// An exact 2D integer vector (an input scaled by `2^shift`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct IVec {
    x: BigInt,
    y: BigInt,
}

impl IVec {
    fn sub(&self, o: &Self) -> Self {
        Self {
            x: &self.x - &o.x,
            y: &self.y - &o.y,
        }
    }

    fn add(&self, o: &Self) -> Self {
        Self {
            x: &self.x + &o.x,
            y: &self.y + &o.y,
        }
    }

    /// `self * 2^k`.
    fn shl(&self, k: usize) -> Self {
        Self {
            x: &self.x << k,
            y: &self.y << k,
        }
    }

    fn mul(&self, n: &BigInt) -> Self {
        Self {
            x: &self.x * n,
            y: &self.y * n,
        }
    }

    fn dot(&self, o: &Self) -> BigInt {
        &self.x * &o.x + &self.y * &o.y
    }

    fn cross(&self, o: &Self) -> BigInt {
        &self.x * &o.y - &self.y * &o.x
    }

    fn is_zero(&self) -> bool {
        self.x.is_zero() && self.y.is_zero()
    }

    fn norm1(&self) -> BigInt {
        self.x.abs() + self.y.abs()
    }
}

/// Multiplies a set of finite `f32` by the smallest power of two that makes all of them
/// integers (exact).
struct Scaler {
    factor: Q,
}

impl Scaler {
    fn new(values: &[f32]) -> Self {
        let shift = values
            .iter()
            .map(|&v| q(v).denom().bits() - 1)
            .max()
            .unwrap_or(0);
        let shift = usize::try_from(shift).expect("shift fits");
        Self {
            factor: Q::from_integer(BigInt::one() << shift),
        }
    }

    fn int(&self, x: f32) -> BigInt {
        let scaled = q(x) * &self.factor;
        assert!(scaled.is_integer(), "scaling must give an integer");
        scaled.to_integer()
    }

    fn vec(&self, v: Vec2) -> IVec {
        IVec {
            x: self.int(v.x),
            y: self.int(v.y),
        }
    }
}

/// `(a t^2 + b t + c) * 4^k` at `t = n / 2^k`: exact, same sign as the polynomial.
fn eval2_scaled(coef: &[BigInt; 3], t: &Q) -> (BigInt, usize) {
    let [a, b, c] = coef;
    let (n, k) = dyadic(t);
    (a * &n * &n + ((b * &n) << k) + (c << (2 * k)), k)
}

/// A real number known to lie in the exact rational interval `[lo, hi]`
/// (`lo == hi` when it is known exactly).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Root {
    /// Lower bound.
    pub(crate) lo: Q,
    /// Upper bound.
    pub(crate) hi: Q,
}

impl Root {
    fn exact(x: Q) -> Self {
        Self {
            lo: x.clone(),
            hi: x,
        }
    }

    /// Encloses `x / den` for every `x` in `[x_lo, x_hi]` (`den != 0`), where the `x` are
    /// already multiplied by `2^bits`: `[floor, ceil] / 2^bits`.
    fn enclose(x_lo: &BigInt, x_hi: &BigInt, den: &BigInt, bits: usize) -> Self {
        let (a, b) = if den.is_positive() {
            (x_lo, x_hi)
        } else {
            (x_hi, x_lo)
        };
        let scale = BigInt::one() << bits;
        Self {
            lo: Q::new(div_floor(a, den), scale.clone()),
            hi: Q::new(div_ceil(b, den), scale),
        }
    }

    /// Whether the value is known exactly and equals `x`.
    fn is_exactly(&self, x: &Q) -> bool {
        &self.lo == x && &self.hi == x
    }

    /// Upper bound on the distance from `x` to the enclosed real number.
    pub(crate) fn dist(&self, x: &Q) -> Q {
        if x < &self.lo {
            &self.hi - x
        } else if x > &self.hi {
            x - &self.lo
        } else {
            &self.hi - &self.lo
        }
    }

    /// Whether the enclosed number certainly lies in `[a, b]`.
    fn surely_within(&self, a: &Q, b: &Q) -> bool {
        &self.lo >= a && &self.hi <= b
    }

    /// Whether the enclosed number certainly lies outside `[a, b]`.
    fn surely_outside(&self, a: &Q, b: &Q) -> bool {
        &self.hi < a || &self.lo > b
    }

    /// Whether the enclosure meets the open interval `(a, b)`.
    fn meets_open(&self, a: &Q, b: &Q) -> bool {
        &self.hi > a && &self.lo < b
    }

    /// Approximate value for messages.
    pub(crate) fn approx(&self) -> f64 {
        approx(&self.lo)
    }
}

/// [`int_roots_bits`] with `ROOT_BITS` bits.
pub(crate) fn int_roots(a: &BigInt, b: &BigInt, c: &BigInt) -> Vec<Root> {
    int_roots_bits(a, b, c, ROOT_BITS)
}

/// The real roots of `a t^2 + b t + c` (integers, not all zero), ascending, each as an
/// exact enclosure of width at most `2.5 * 2^-bits` (exact when the root is a dyadic
/// rational, in particular for 0 and 1). A double root is listed once. Linear case
/// (`a == 0`): the single root `-c / b`, or none when `b == 0`. The number and order of
/// the roots do not depend on `bits`.
///
/// With `a > 0` (normalized) the roots are `(-b -+ sqrt(D)) / (2a)`, `D = b^2 - 4ac`;
/// `s = floor(sqrt(D 4^K))` gives `s <= sqrt(D) 2^K < s + 1` (equality iff `s^2 = D 4^K`).
pub(crate) fn int_roots_bits(a: &BigInt, b: &BigInt, c: &BigInt, bits: usize) -> Vec<Root> {
    let (a, b, c) = if a.is_negative() {
        (-a, -b, -c)
    } else {
        (a.clone(), b.clone(), c.clone())
    };
    if a.is_zero() {
        if b.is_zero() {
            return Vec::new();
        }
        let x = -(c << bits);
        return vec![Root::enclose(&x, &x, &b, bits)];
    }
    let disc = &b * &b - ((&a * &c) << 2usize);
    let two_a = &a << 1usize;
    let minus_b = -(&b << bits);
    if disc.is_negative() {
        Vec::new()
    } else if disc.is_zero() {
        vec![Root::enclose(&minus_b, &minus_b, &two_a, bits)]
    } else {
        let m = &disc << (2 * bits);
        let s = m.sqrt();
        let extra = if &s * &s == m {
            BigInt::zero()
        } else {
            BigInt::one()
        };
        vec![
            Root::enclose(&(&minus_b - &s - &extra), &(&minus_b - &s), &two_a, bits),
            Root::enclose(&(&minus_b + &s), &(&minus_b + &s + &extra), &two_a, bits),
        ]
    }
}

/// What a kernel must do about one root.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Demand {
    /// Must be reported, with the reported time within `tol` of the root.
    Required {
        /// Absolute tolerance on the reported parameter.
        tol: f64,
    },
    /// May be reported (ambiguous band); a report matched to it must be a near-root.
    Optional,
}

/// One root with its demand.
#[derive(Clone, Debug)]
pub(crate) struct Expected {
    /// Where the root is.
    pub(crate) at: Root,
    /// Whether it must be reported.
    pub(crate) demand: Demand,
    /// Why (for messages).
    pub(crate) why: &'static str,
}

impl Expected {
    fn new(at: Root, demand: Demand, why: &'static str) -> Self {
        Self { at, demand, why }
    }
}

/// Human-readable summary of expectations.
pub(crate) fn describe_expected(expected: &[Expected]) -> String {
    let parts: Vec<String> = expected
        .iter()
        .map(|e| format!("{:?}@{:.9e} ({})", e.demand, e.at.approx(), e.why))
        .collect();
    format!("[{}]", parts.join(", "))
}

/// A band constant as an exact rational (the `f64` value of the literal).
fn band(x: f64) -> Q {
    qf(x)
}

/// Sort expectations by position.
fn sorted(mut v: Vec<Expected>) -> Vec<Expected> {
    v.sort_by(|a, b| a.at.lo.cmp(&b.at.lo));
    v
}

/// Whether `|residual| <= 10^-5 * scale` for a residual scaled by `4^k`.
fn residual_small(residual: &BigInt, k: usize, scale: &BigInt) -> bool {
    residual.abs() * ten_pow(5) <= scale << (2 * k)
}

// ---------------------------------------------------------------------------------------
// Segment vs circle
// ---------------------------------------------------------------------------------------

/// Exact description of a segment–circle query.
///
/// With `f = start - center` and `d = end - start`, the segment point at `t` is on the
/// circle's boundary iff `res(t) = a t^2 + 2 h t + c = 0` with `a = |d|^2`, `h = f . d`,
/// `c = |f|^2 - r^2`; the reduced discriminant is `h^2 - a c = |d|^2 r^2 - cross(d, f)^2`.
/// (All of it on the integer image of the inputs.)
#[derive(Clone, Debug)]
pub(crate) struct CircleCase {
    /// Expected roots in `[0, 1]`, sorted (Required / Optional); anything not listed is
    /// forbidden. Empty for non-finite input or negative radius.
    pub(crate) expected: Vec<Expected>,
    /// All real roots of the unconstrained quadratic.
    pub(crate) real_roots: Vec<Root>,
    /// Coefficients `[a, 2h, c]`; `None` when no contact is possible at all.
    coef: Option<[BigInt; 3]>,
    /// Scale of the residual: `(|f|_1 + |d|_1 + r)^2`.
    scale: BigInt,
}

impl CircleCase {
    fn none() -> Self {
        Self {
            expected: Vec::new(),
            real_roots: Vec::new(),
            coef: None,
            scale: BigInt::zero(),
        }
    }

    /// Whether a reported (dyadic) `t` is a near-root: within `1e-5` of a real root of the
    /// unconstrained quadratic, or with exact residual `|res(t)| <= 1e-5 * scale`.
    pub(crate) fn near_root(&self, t: &Q) -> bool {
        let Some(coef) = &self.coef else {
            return false;
        };
        if self.real_roots.iter().any(|r| r.dist(t) <= band(1e-5)) {
            return true;
        }
        let (residual, k) = eval2_scaled(coef, t);
        residual_small(&residual, k, &self.scale)
    }
}

/// Classifies a segment–circle query (see the module docs and the precision contract):
/// * non-finite input or negative radius: no roots at all;
/// * zero-length segment: `[0]` exactly when the point is on the boundary, otherwise
///   (the discriminant is 0, hence "ambiguous") an optional near-root;
/// * an endpoint exactly on the boundary: Required within `1e-7` of `0` / `1`;
/// * reduced discriminant within relative `1e-9` of 0 (`|h^2 - a c| <= 1e-9 a r^2`):
///   two Optional slots at the (pseudo-)roots;
/// * otherwise each root is Required (within `2e-6`) if surely in `[1e-7, 1 - 1e-7]`,
///   forbidden if surely outside `[-1e-7, 1 + 1e-7]`, Optional in between.
pub(crate) fn circle(start: Vec2, end: Vec2, center: Vec2, radius: f32) -> CircleCase {
    if !all_finite(&[start, end, center]) || !radius.is_finite() || radius < 0.0 {
        return CircleCase::none();
    }
    let scaler = Scaler::new(&[start.x, start.y, end.x, end.y, center.x, center.y, radius]);
    let (s, e, c0) = (scaler.vec(start), scaler.vec(end), scaler.vec(center));
    let r = scaler.int(radius);
    let f = s.sub(&c0);
    let d = e.sub(&s);
    let a = d.dot(&d);
    let h = f.dot(&d);
    let c = f.dot(&f) - &r * &r;
    let two_h = &h << 1usize;
    let scale = {
        let sum = f.norm1() + d.norm1() + &r;
        &sum * &sum
    };
    let mut case = CircleCase {
        expected: Vec::new(),
        real_roots: Vec::new(),
        coef: Some([a.clone(), two_h.clone(), c.clone()]),
        scale,
    };
    let zero = Q::zero();
    let one = Q::one();
    if a.is_zero() {
        case.expected = if c.is_zero() {
            case.real_roots = vec![Root::exact(zero.clone())];
            vec![Expected::new(
                Root::exact(zero),
                Demand::Required { tol: 1e-7 },
                "zero-length segment exactly on the boundary",
            )]
        } else {
            // Residual is the constant c: plausible only if |c| is tiny relative to scale.
            vec![Expected::new(
                Root::exact(zero),
                Demand::Optional,
                "zero-length segment (degenerate discriminant)",
            )]
        };
        return case;
    }
    case.real_roots = int_roots(&a, &two_h, &c);
    let disc = &h * &h - &a * &c;
    let disc_ambiguous = disc.abs() * ten_pow(9) <= &a * &r * &r;
    let start_exact = c.is_zero();
    let end_exact = (&a + &two_h + &c).is_zero();
    let endpoint_required = |root: &Root| {
        (start_exact && root.is_exactly(&zero)) || (end_exact && root.is_exactly(&one))
    };
    let mut expected = Vec::new();
    if disc_ambiguous {
        let slots: Vec<Root> = match case.real_roots.len() {
            0 => {
                let x = -(&h << ROOT_BITS);
                vec![Root::enclose(&x, &x, &a, ROOT_BITS); 2]
            }
            1 => vec![case.real_roots[0].clone(); 2],
            _ => case.real_roots.clone(),
        };
        let mut required_done = false;
        for root in slots {
            if endpoint_required(&root) && !required_done {
                required_done = true;
                expected.push(Expected::new(
                    root,
                    Demand::Required { tol: 1e-7 },
                    "endpoint exactly on the circle",
                ));
            } else {
                expected.push(Expected::new(root, Demand::Optional, "near-tangent"));
            }
        }
    } else {
        for root in &case.real_roots {
            if endpoint_required(root) {
                expected.push(Expected::new(
                    root.clone(),
                    Demand::Required { tol: 1e-7 },
                    "endpoint exactly on the circle",
                ));
            } else if root.surely_within(&band(1e-7), &(&one - band(1e-7))) {
                expected.push(Expected::new(
                    root.clone(),
                    Demand::Required { tol: 2e-6 },
                    "clear root",
                ));
            } else if !root.surely_outside(&-band(1e-7), &(&one + band(1e-7))) {
                expected.push(Expected::new(
                    root.clone(),
                    Demand::Optional,
                    "root within 1e-7 of an endpoint",
                ));
            }
        }
    }
    case.expected = sorted(expected);
    case
}

// ---------------------------------------------------------------------------------------
// Point vs moving segment (sweep)
// ---------------------------------------------------------------------------------------

/// Exact description of a sweep query.
///
/// `A(t) = P(t) - C(t) = a0 + t ad`, `B(t) = Q(t) - C(t) = b0 + t bd`; the point is on
/// the closed segment iff `cross(A, B) = c2 t^2 + c1 t + c0 = 0` and `A . B <= 0`.
/// `along(t) = (|A|^2 - A . B) / |B - A|^2` (0 when the segment has collapsed).
/// (All of it on the integer image of the inputs.)
#[derive(Clone, Debug)]
pub(crate) struct SweepCase {
    /// Expected sweeps, sorted; anything not listed is forbidden.
    pub(crate) expected: Vec<Expected>,
    /// Whether `cross(A, B)` is identically zero.
    pub(crate) identically_zero: bool,
    /// Whether the discriminant of the cross quadratic is within relative `1e-9` of 0.
    pub(crate) disc_ambiguous: bool,
    /// Real roots of the cross quadratic (empty when identically zero).
    pub(crate) real_roots: Vec<Root>,
    /// Vertex of the cross quadratic when the discriminant is ambiguous.
    vertex: Option<Root>,
    a0: IVec,
    ad: IVec,
    b0: IVec,
    bd: IVec,
    /// `[c2, c1, c0]`.
    coef: [BigInt; 3],
    /// Residual scale `(|a0|_1 + |ad|_1)(|b0|_1 + |bd|_1)`.
    scale: BigInt,
    finite: bool,
}

/// Where the point is relative to the segment at a time, for classification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Along {
    /// Surely inside `[1e-6, 1 - 1e-6]`.
    Inside,
    /// Surely outside `[-1e-6, 1 + 1e-6]` (or collapsed segment away from the point).
    Outside,
    /// Anything else.
    Unclear,
}

impl SweepCase {
    /// `A(t) 2^k`, `B(t) 2^k` for `t = n / 2^k`.
    fn a_b(&self, t: &Q) -> (IVec, IVec) {
        let (n, k) = dyadic(t);
        (
            self.a0.shl(k).add(&self.ad.mul(&n)),
            self.b0.shl(k).add(&self.bd.mul(&n)),
        )
    }

    /// `(|A|^2 - A . B, |B - A|^2)` at `t`, both scaled by the same positive factor.
    fn along_parts(&self, t: &Q) -> (BigInt, BigInt, bool) {
        let (a, b) = self.a_b(t);
        let seg = b.sub(&a);
        (a.dot(&a) - a.dot(&b), seg.dot(&seg), a.is_zero())
    }

    /// Whether `A(t) . B(t) <= 0` (exact).
    pub(crate) fn dot_nonpositive(&self, t: &Q) -> bool {
        let (a, b) = self.a_b(t);
        !a.dot(&b).is_positive()
    }

    /// Exact along-parameter of the point's projection on the segment's line at time `t`;
    /// `None` when the segment has collapsed to a point at `t`.
    pub(crate) fn along(&self, t: &Q) -> Option<Q> {
        let (num, len2, _) = self.along_parts(t);
        (!len2.is_zero()).then(|| Q::new(num, len2))
    }

    /// `along`, with the documented convention 0 for a collapsed segment.
    pub(crate) fn along_or_zero(&self, t: &Q) -> Q {
        self.along(t).unwrap_or_else(Q::zero)
    }

    fn along_class_at(&self, t: &Q) -> Along {
        let (num, len2, a_zero) = self.along_parts(t);
        if len2.is_zero() {
            return if a_zero {
                Along::Unclear
            } else {
                Along::Outside
            };
        }
        let m = ten_pow(6);
        let scaled = &num * &m;
        if scaled >= len2 && scaled <= (&m - 1) * &len2 {
            Along::Inside
        } else if scaled < -&len2 || scaled > (&m + 1) * &len2 {
            Along::Outside
        } else {
            Along::Unclear
        }
    }

    /// Whether an enclosure is tight enough for the along-parameter: exact, or the along at
    /// both ends within `1e-9` of each other.
    fn settled(&self, root: &Root) -> bool {
        if root.lo == root.hi {
            return true;
        }
        let (n1, l1, _) = self.along_parts(&root.lo);
        let (n2, l2, _) = self.along_parts(&root.hi);
        !l1.is_zero() && !l2.is_zero() && (&n1 * &l2 - &n2 * &l1).abs() * ten_pow(9) <= &l1 * &l2
    }

    /// Computes an enclosure with `make(bits)` at `ROOT_BITS` bits, then doubles the
    /// bits until it is [`settled`](Self::settled) or 4096 bits. The along-parameter can
    /// change very fast near a root (a point moving at 1e20 per unit time, or a segment
    /// collapsing there), so a 64-bit enclosure is not always enough to know it.
    fn settle(&self, make: &dyn Fn(usize) -> Root) -> Root {
        let mut bits = ROOT_BITS;
        let mut root = make(bits);
        while bits < 4096 && !self.settled(&root) {
            bits *= 2;
            root = make(bits);
        }
        root
    }

    fn along_class(&self, root: &Root) -> Along {
        let lo = self.along_class_at(&root.lo);
        let hi = self.along_class_at(&root.hi);
        if lo == hi { lo } else { Along::Unclear }
    }

    /// Whether `along(t)` is within `[-1e-4, 1 + 1e-4]` (or the segment has collapsed).
    fn along_plausible(&self, t: &Q) -> bool {
        let (num, len2, _) = self.along_parts(t);
        let m = ten_pow(4);
        let scaled = &num * &m;
        len2.is_zero() || (scaled >= -&len2 && scaled <= (&m + 1) * &len2)
    }

    /// Whether a reported time `t` is not clearly false: within `1e-5` of a real root of
    /// the cross quadratic (or, when the discriminant is ambiguous, of its vertex) whose
    /// along is in `[-1e-4, 1 + 1e-4]`; or (when the discriminant is ambiguous) exact
    /// residual `|cross(t)| <= 1e-5 * scale` with a plausible along at `t`; or, in the
    /// identically-zero case, within `1e-5` of an expected entry.
    pub(crate) fn plausible(&self, t: &Q) -> bool {
        if !self.finite {
            return false;
        }
        if self.identically_zero {
            return self.expected.iter().any(|e| e.at.dist(t) <= band(1e-5));
        }
        if self
            .real_roots
            .iter()
            .chain(&self.vertex)
            .any(|r| r.dist(t) <= band(1e-5) && self.along_plausible(&r.lo))
        {
            return true;
        }
        self.disc_ambiguous && {
            let (residual, k) = eval2_scaled(&self.coef, t);
            residual_small(&residual, k, &self.scale) && self.along_plausible(t)
        }
    }
}

/// Classifies a sweep query (see [`SweepCase`] and the precision contract):
/// * non-finite input: no sweeps;
/// * identically-zero cross: one sweep at the start of each stretch of `[0, 1]` where
///   `A . B <= 0` (Required within `1e-7` at `t = 0`, within `2e-6` at a root of `A . B`;
///   Optional if that root is within `1e-6` of 1 or the discriminant of `A . B` is within
///   relative `1e-9` of 0, where a touch of zero may or may not count);
/// * otherwise per root of the cross quadratic: exact root 0 with the point on the
///   segment: Required within `1e-7`; exact root 1 with the point on the segment and no
///   other root in `(1 - 1e-6, 1)`: Required within `1e-7`; discriminant ambiguous:
///   Optional (two slots); else Required (`2e-6`) when surely in `[1e-6, 1 - 1e-6]` with
///   along surely in `[1e-6, 1 - 1e-6]`, forbidden when surely outside
///   `[-1e-6, 1 + 1e-6]` in time or along, Optional otherwise.
pub(crate) fn sweep(
    start_path: [Vec2; 2],
    end_path: [Vec2; 2],
    point_path: [Vec2; 2],
) -> SweepCase {
    let finite = all_finite(&start_path) && all_finite(&end_path) && all_finite(&point_path);
    let zero_vec = || IVec {
        x: BigInt::zero(),
        y: BigInt::zero(),
    };
    let mut case = SweepCase {
        expected: Vec::new(),
        identically_zero: false,
        disc_ambiguous: false,
        real_roots: Vec::new(),
        vertex: None,
        a0: zero_vec(),
        ad: zero_vec(),
        b0: zero_vec(),
        bd: zero_vec(),
        coef: [BigInt::zero(), BigInt::zero(), BigInt::zero()],
        scale: BigInt::zero(),
        finite,
    };
    if !finite {
        return case;
    }
    let all: Vec<f32> = [start_path, end_path, point_path]
        .iter()
        .flatten()
        .flat_map(|v| [v.x, v.y])
        .collect();
    let scaler = Scaler::new(&all);
    let [p0, p1] = start_path.map(|v| scaler.vec(v));
    let [q0, q1] = end_path.map(|v| scaler.vec(v));
    let [c0p, c1p] = point_path.map(|v| scaler.vec(v));
    case.a0 = p0.sub(&c0p);
    case.ad = p1.sub(&c1p).sub(&case.a0);
    case.b0 = q0.sub(&c0p);
    case.bd = q1.sub(&c1p).sub(&case.b0);
    let (a0, ad, b0, bd) = (&case.a0, &case.ad, &case.b0, &case.bd);
    let k0 = a0.cross(b0);
    let k1 = a0.cross(bd) + ad.cross(b0);
    let k2 = ad.cross(bd);
    case.scale = (a0.norm1() + ad.norm1()) * (b0.norm1() + bd.norm1());
    let zero = Q::zero();
    let one = Q::one();
    if k0.is_zero() && k1.is_zero() && k2.is_zero() {
        case.identically_zero = true;
        // A . B = d0 + d1 t + d2 t^2
        let d0 = a0.dot(b0);
        let d1 = a0.dot(bd) + ad.dot(b0);
        let d2 = ad.dot(bd);
        let mut expected = Vec::new();
        if !d0.is_positive() {
            expected.push(Expected::new(
                Root::exact(zero.clone()),
                Demand::Required { tol: 1e-7 },
                "identically zero cross, on the segment at t = 0",
            ));
        }
        // Relative discriminant test, times 4: |d1^2 - 4 d2 d0| <= 1e-9 (d1^2 + 4|d2 d0|).
        let four_d2d0 = (&d2 * &d0) << 2usize;
        let dot_ambiguous =
            (&d1 * &d1 - &four_d2d0).abs() * ten_pow(9) <= &d1 * &d1 + four_d2d0.abs();
        // Refine until no enclosure contains 0 (unless the root is 0 exactly), so that the
        // sign of every root is known.
        let mut min_bits = ROOT_BITS;
        let mut roots = int_roots(&d2, &d1, &d0);
        while min_bits < 4096
            && roots
                .iter()
                .any(|r| !r.is_exactly(&zero) && r.lo <= zero && r.hi >= zero)
        {
            min_bits *= 2;
            roots = int_roots_bits(&d2, &d1, &d0, min_bits);
        }
        let root_at = |i: usize| {
            case.settle(&|bits| int_roots_bits(&d2, &d1, &d0, bits.max(min_bits)).swap_remove(i))
        };
        let demand_at = |root: &Root| {
            if dot_ambiguous || !root.surely_within(&zero, &(&one - band(1e-6))) {
                Demand::Optional
            } else {
                Demand::Required { tol: 2e-6 }
            }
        };
        if dot_ambiguous {
            // A near-double root (or none): `A . B` touches zero there, which may count as the
            // start of a stretch or not; one optional slot if it is near (0, 1].
            let candidate = match (roots.is_empty(), d2.is_zero()) {
                (false, _) => Some(root_at(0)),
                (true, false) => Some(case.settle(&|bits| {
                    let x = -(&d1 << bits);
                    Root::enclose(&x, &x, &(&d2 << 1usize), bits)
                })),
                (true, true) => None,
            };
            if let Some(root) = candidate.filter(|r| {
                !r.is_exactly(&zero) && !r.surely_outside(&-band(1e-6), &(&one + band(1e-6)))
            }) {
                expected.push(Expected::new(
                    root,
                    Demand::Optional,
                    "identically zero cross, near-double root of A.B",
                ));
            }
        } else {
            // Every root in (0, 1] before which `A . B` is positive starts a stretch: the sign
            // just before it, at a rational point between it and the root before (or 0).
            let d_at = |t: &Q| {
                let c = |x: &BigInt| Q::from_integer(x.clone());
                c(&d0) + c(&d1) * t + c(&d2) * t * t
            };
            let mut before = zero.clone();
            for (i, root) in roots.iter().enumerate() {
                if root.hi <= zero {
                    continue;
                }
                if root.surely_outside(&zero, &(&one + band(1e-6))) {
                    break;
                }
                let just_before = (&before + &root.lo) / Q::from_integer(BigInt::from(2));
                if d_at(&just_before).is_positive() {
                    let root = root_at(i);
                    expected.push(Expected::new(
                        root.clone(),
                        demand_at(&root),
                        "identically zero cross, start of a stretch with A.B <= 0",
                    ));
                }
                before = root.hi.clone();
            }
        }
        case.expected = sorted(expected);
        return case;
    }
    // A linear (or constant) cross has an exact rational root (or none): never ambiguous.
    let four_k2k0 = (&k2 * &k0) << 2usize;
    case.disc_ambiguous =
        !k2.is_zero() && (&k1 * &k1 - &four_k2k0).abs() * ten_pow(9) <= &k1 * &k1 + four_k2k0.abs();
    case.real_roots = (0..int_roots(&k2, &k1, &k0).len())
        .map(|i| case.settle(&|bits| int_roots_bits(&k2, &k1, &k0, bits).swap_remove(i)))
        .collect();
    case.vertex = (case.disc_ambiguous).then(|| {
        case.settle(&|bits| {
            let x = -(&k1 << bits);
            Root::enclose(&x, &x, &(&k2 << 1usize), bits)
        })
    });
    let vertex = case.vertex.clone();
    case.coef = [k2, k1, k0];
    let roots = case.real_roots.clone();
    let near_one = (&one - band(1e-6), one.clone());
    let mut expected = Vec::new();
    let required_endpoint = |root: &Root, expected: &mut Vec<Expected>| -> bool {
        if root.is_exactly(&zero) && case.dot_nonpositive(&zero) {
            expected.push(Expected::new(
                root.clone(),
                Demand::Required { tol: 1e-7 },
                "on the segment exactly at t = 0",
            ));
            return true;
        }
        if root.is_exactly(&one)
            && case.dot_nonpositive(&one)
            && !roots
                .iter()
                .any(|o| o != root && o.meets_open(&near_one.0, &near_one.1))
        {
            expected.push(Expected::new(
                root.clone(),
                Demand::Required { tol: 1e-7 },
                "on the segment exactly at t = 1",
            ));
            return true;
        }
        false
    };
    if case.disc_ambiguous {
        let slots: Vec<Root> = match (roots.len(), vertex) {
            (0, Some(v)) => vec![v; 2],
            (0, None) => Vec::new(),
            (1, _) => vec![roots[0].clone(); 2],
            _ => roots.clone(),
        };
        let mut required_done = false;
        for root in slots {
            if required_done || !required_endpoint(&root, &mut expected) {
                expected.push(Expected::new(root, Demand::Optional, "near-double root"));
            } else {
                required_done = true;
            }
        }
    } else {
        for root in &roots {
            if required_endpoint(root, &mut expected) {
                continue;
            }
            let time_in = root.surely_within(&band(1e-6), &(&one - band(1e-6)));
            let time_out = root.surely_outside(&-band(1e-6), &(&one + band(1e-6)));
            let along = case.along_class(root);
            if time_out || along == Along::Outside {
                continue; // forbidden
            }
            if time_in && along == Along::Inside {
                expected.push(Expected::new(
                    root.clone(),
                    Demand::Required { tol: 2e-6 },
                    "clear sweep",
                ));
            } else {
                expected.push(Expected::new(
                    root.clone(),
                    Demand::Optional,
                    "sweep near t = 0/1 or near a segment endpoint",
                ));
            }
        }
    }
    case.expected = sorted(expected);
    case
}

// ---------------------------------------------------------------------------------------
// Self-tests of the oracle (hand-computed answers).
// ---------------------------------------------------------------------------------------

fn qi(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn unit_box() -> Aabb2d {
    Aabb2d {
        min: Vec2::ZERO,
        max: Vec2::ONE,
    }
}

#[test]
fn oracle_clip_closed_boundaries() {
    let b = unit_box();
    // Ends exactly on the left edge: a contact at t = 1 (an open box would say None).
    assert_eq!(
        clip(Vec2::new(-1.0, 0.5), Vec2::new(0.0, 0.5), &b),
        Some((Q::one(), Q::one()))
    );
    // Runs along the top edge.
    assert_eq!(
        clip(Vec2::new(-1.0, 1.0), Vec2::new(2.0, 1.0), &b),
        Some((qi(1, 3), qi(2, 3)))
    );
    // Touches the corner only.
    assert_eq!(
        clip(Vec2::new(-1.0, 3.0), Vec2::new(2.0, 0.0), &b),
        Some((qi(2, 3), qi(2, 3)))
    );
    // Misses the corner by one ulp: the line through (-1, 3) and (2, tiny) passes x = 1 at
    // y = 1 + 2 tiny / 3 > 1.
    assert_eq!(
        clip(Vec2::new(-1.0, 3.0), Vec2::new(2.0, 0.0f32.next_up()), &b),
        None
    );
    // Zero-length inside / on the boundary / outside.
    assert_eq!(
        clip(Vec2::splat(0.5), Vec2::splat(0.5), &b),
        Some((Q::zero(), Q::one()))
    );
    assert_eq!(
        clip(Vec2::new(1.0, 0.3), Vec2::new(1.0, 0.3), &b),
        Some((Q::zero(), Q::one()))
    );
    assert_eq!(clip(Vec2::splat(1.5), Vec2::splat(1.5), &b), None);
    // Zero-size box is hit when touched.
    let point_box = Aabb2d {
        min: Vec2::splat(1.0),
        max: Vec2::splat(1.0),
    };
    assert_eq!(
        clip(Vec2::ZERO, Vec2::splat(4.0), &point_box),
        Some((qi(1, 4), qi(1, 4)))
    );
    // Inverted box holds nothing, even for a segment crossing its "interior".
    let inverted = Aabb2d {
        min: Vec2::new(1.0, 0.0),
        max: Vec2::new(0.0, 1.0),
    };
    assert_eq!(
        clip(Vec2::new(-1.0, 0.5), Vec2::new(2.0, 0.5), &inverted),
        None
    );
    // Non-finite.
    assert_eq!(
        clip(Vec2::new(f32::NAN, 0.5), Vec2::new(2.0, 0.5), &b),
        None
    );
}

#[test]
fn oracle_segment_segment_cases() {
    let v = Vec2::new;
    // Proper crossing.
    assert_eq!(
        segment_segment(v(0.0, 0.0), v(2.0, 2.0), v(0.0, 2.0), v(2.0, 0.0)),
        SegSeg::Point {
            t: qi(1, 2),
            u: qi(1, 2),
            point: QVec::of(v(1.0, 1.0))
        }
    );
    // T-junction at b's endpoint (closed).
    assert_eq!(
        segment_segment(v(0.0, 0.0), v(2.0, 0.0), v(1.0, 0.0), v(1.0, 5.0)),
        SegSeg::Point {
            t: qi(1, 2),
            u: Q::zero(),
            point: QVec::of(v(1.0, 0.0))
        }
    );
    // Collinear end to end: a Point.
    assert_eq!(
        segment_segment(v(0.0, 0.0), v(1.0, 0.0), v(1.0, 0.0), v(3.0, 0.0)),
        SegSeg::Point {
            t: Q::one(),
            u: Q::zero(),
            point: QVec::of(v(1.0, 0.0))
        }
    );
    // Collinear overlap, opposite direction: u descending.
    assert_eq!(
        segment_segment(v(0.0, 0.0), v(4.0, 0.0), v(3.0, 0.0), v(1.0, 0.0)),
        SegSeg::Overlap {
            t: [qi(1, 4), qi(3, 4)],
            u: [Q::one(), Q::zero()]
        }
    );
    // Collinear, disjoint; parallel distinct.
    assert_eq!(
        segment_segment(v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0)),
        SegSeg::None
    );
    assert_eq!(
        segment_segment(v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0), v(1.0, 1.0)),
        SegSeg::None
    );
    // Zero-length on the other segment; both zero-length and equal.
    assert_eq!(
        segment_segment(v(1.0, 1.0), v(1.0, 1.0), v(0.0, 0.0), v(4.0, 4.0)),
        SegSeg::Point {
            t: Q::zero(),
            u: qi(1, 4),
            point: QVec::of(v(1.0, 1.0))
        }
    );
    assert_eq!(
        segment_segment(v(1.0, 1.0), v(1.0, 1.0), v(1.0, 1.0), v(1.0, 1.0)),
        SegSeg::Point {
            t: Q::zero(),
            u: Q::zero(),
            point: QVec::of(v(1.0, 1.0))
        }
    );
    // Just misses by an ulp.
    assert_eq!(
        segment_segment(
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(1.0, 0.0f32.next_up()),
            v(1.0, 5.0)
        ),
        SegSeg::None
    );
}

#[test]
fn oracle_roots() {
    let b = |x: i64| BigInt::from(x);
    // t^2 - 3t + 2 = (t - 1)(t - 2): exact.
    let roots = int_roots(&b(1), &b(-3), &b(2));
    assert_eq!(roots, vec![Root::exact(Q::one()), Root::exact(qi(2, 1))]);
    // -4t^2 + 1: roots -1/2, 1/2 (negative leading coefficient).
    let roots = int_roots(&b(-4), &b(0), &b(1));
    assert_eq!(roots, vec![Root::exact(qi(-1, 2)), Root::exact(qi(1, 2))]);
    // t^2 - 2: irrational, enclosures tight and on the right sides.
    let roots = int_roots(&b(1), &b(0), &b(-2));
    assert_eq!(roots.len(), 2);
    for (root, sign) in roots.iter().zip([-1.0, 1.0]) {
        assert!((root.approx() - sign * 2f64.sqrt()).abs() < 1e-15);
        assert!(root.lo < root.hi);
        assert!(&root.hi - &root.lo <= Q::new(b(3), BigInt::one() << ROOT_BITS));
        let two = qi(2, 1);
        let (lo2, hi2) = (&root.lo * &root.lo, &root.hi * &root.hi);
        assert!(
            (lo2 - &two) * (hi2 - &two) < Q::zero(),
            "sign change inside"
        );
    }
    // 3t - 1 (linear, non-dyadic 1/3).
    let roots = int_roots(&b(0), &b(3), &b(-1));
    assert!(roots[0].lo < qi(1, 3) && qi(1, 3) < roots[0].hi);
    // Double root, no root, nothing.
    assert_eq!(int_roots(&b(4), &b(-4), &b(1)), vec![Root::exact(qi(1, 2))]);
    assert!(int_roots(&b(1), &b(0), &b(1)).is_empty());
    assert!(int_roots(&b(0), &b(0), &b(1)).is_empty());
}

#[test]
fn oracle_circle_cases() {
    let v = Vec2::new;
    let demands = |c: &CircleCase| {
        c.expected
            .iter()
            .map(|e| (e.demand.clone(), e.at.approx()))
            .collect::<Vec<_>>()
    };
    // Straight through the centre: 0.25 and 0.75 (rational).
    let c = circle(v(-2.0, 0.0), v(2.0, 0.0), Vec2::ZERO, 1.0);
    assert_eq!(
        demands(&c),
        vec![
            (Demand::Required { tol: 2e-6 }, 0.25),
            (Demand::Required { tol: 2e-6 }, 0.75)
        ]
    );
    // Tangent: exact discriminant 0, ambiguous band, both slots at 0.5.
    let c = circle(v(-2.0, 1.0), v(2.0, 1.0), Vec2::ZERO, 1.0);
    assert_eq!(
        demands(&c),
        vec![(Demand::Optional, 0.5), (Demand::Optional, 0.5)]
    );
    // Start exactly on the circle: t = 0 required exactly.
    let c = circle(v(3.0, 4.0), v(10.0, 4.0), Vec2::ZERO, 5.0);
    assert_eq!(demands(&c), vec![(Demand::Required { tol: 1e-7 }, 0.0)]);
    // Ends exactly on the circle from inside.
    let c = circle(Vec2::ZERO, v(3.0, 4.0), Vec2::ZERO, 5.0);
    assert_eq!(demands(&c), vec![(Demand::Required { tol: 1e-7 }, 1.0)]);
    // Ends one ulp short of the circle: the root 1 + 6e-8 is in the endpoint band.
    let c = circle(Vec2::ZERO, v(1.0f32.next_down(), 0.0), Vec2::ZERO, 1.0);
    assert_eq!(c.expected.len(), 1);
    assert_eq!(c.expected[0].demand, Demand::Optional);
    // Ends well short: nothing.
    let c = circle(Vec2::ZERO, v(0.5, 0.0), Vec2::ZERO, 1.0);
    assert!(c.expected.is_empty());
    // Negative radius / zero-length on boundary / radius 0 through the centre.
    assert!(
        circle(v(-2.0, 0.0), v(2.0, 0.0), Vec2::ZERO, -1.0)
            .expected
            .is_empty()
    );
    let c = circle(v(1.0, 0.0), v(1.0, 0.0), Vec2::ZERO, 1.0);
    assert_eq!(demands(&c), vec![(Demand::Required { tol: 1e-7 }, 0.0)]);
    let c = circle(v(-1.0, 0.0), v(3.0, 0.0), Vec2::ZERO, 0.0);
    assert_eq!(
        c.real_roots,
        vec![Root::exact(qi(1, 4))],
        "radius 0: the point where the segment passes the centre"
    );
    // An irrational clear root: x^2 + 0.25 = 1 => x = sqrt(3)/2, t = (x + 1) / 2.
    let c = circle(v(-1.0, 0.5), v(1.0, 0.5), Vec2::ZERO, 1.0);
    assert_eq!(c.expected.len(), 2);
    assert!((c.expected[1].at.approx() - (0.75f64.sqrt() + 1.0) / 2.0).abs() < 1e-15);
}

#[test]
fn oracle_sweep_cases() {
    let v = Vec2::new;
    let demands = |c: &SweepCase| {
        c.expected
            .iter()
            .map(|e| (e.demand.clone(), e.at.approx()))
            .collect::<Vec<_>>()
    };
    let still = |p: Vec2| [p, p];
    // Still segment (0,0)-(2,0); point moving up through (1,0): t = 0.5, along 0.5.
    let c = sweep(
        still(v(0.0, 0.0)),
        still(v(2.0, 0.0)),
        [v(1.0, -1.0), v(1.0, 1.0)],
    );
    assert_eq!(demands(&c), vec![(Demand::Required { tol: 2e-6 }, 0.5)]);
    assert_eq!(c.along(&qi(1, 2)), Some(qi(1, 2)));
    // Passing exactly through the endpoint (along 0): ambiguous band, Optional.
    let c = sweep(
        still(v(0.0, 0.0)),
        still(v(2.0, 0.0)),
        [v(0.0, -1.0), v(0.0, 1.0)],
    );
    assert_eq!(demands(&c), vec![(Demand::Optional, 0.5)]);
    // Passing beside the segment: forbidden.
    let c = sweep(
        still(v(0.0, 0.0)),
        still(v(2.0, 0.0)),
        [v(3.0, -1.0), v(3.0, 1.0)],
    );
    assert!(c.expected.is_empty());
    // Point ending exactly on the segment at t = 1 (closed in time).
    let c = sweep(
        still(v(0.0, 0.0)),
        still(v(2.0, 0.0)),
        [v(1.0, -1.0), v(1.0, 0.0)],
    );
    assert_eq!(demands(&c), vec![(Demand::Required { tol: 1e-7 }, 1.0)]);
    // Still segment through a still point: identically zero, one sweep at t = 0.
    let c = sweep(still(v(0.0, 0.0)), still(v(2.0, 0.0)), still(v(1.0, 0.0)));
    assert!(c.identically_zero);
    assert_eq!(demands(&c), vec![(Demand::Required { tol: 1e-7 }, 0.0)]);
    // Segment sliding along its line onto the point: first contact at t = 0.25.
    let c = sweep(
        [v(-3.0, 0.0), v(1.0, 0.0)],
        [v(-2.0, 0.0), v(2.0, 0.0)],
        still(v(-1.0, 0.0)),
    );
    assert!(c.identically_zero);
    assert_eq!(demands(&c), vec![(Demand::Required { tol: 2e-6 }, 0.25)]);
    // Sliding the other way, never reaching it.
    let c = sweep(
        [v(1.0, 0.0), v(2.0, 0.0)],
        [v(2.0, 0.0), v(3.0, 0.0)],
        still(v(0.0, 0.0)),
    );
    assert!(c.expected.is_empty());
    // Rotating segment (quadratic cross): segment from origin rotating, point fixed.
    // P = (0,0) fixed, Q: (1,0) -> (0,1); point (0.25, 0.25): on it at t = 0.5, along 0.5.
    let c = sweep(
        still(Vec2::ZERO),
        [v(1.0, 0.0), v(0.0, 1.0)],
        still(v(0.25, 0.25)),
    );
    assert_eq!(demands(&c), vec![(Demand::Required { tol: 2e-6 }, 0.5)]);
    assert_eq!(c.along(&qi(1, 2)), Some(qi(1, 2)));
    // Both endpoints moving: P (0,-1) -> (0,1), Q (2,-1) -> (2,1) crosses a still point
    // (1, 0) at t = 0.5 (translation: linear cross).
    let c = sweep(
        [v(0.0, -1.0), v(0.0, 1.0)],
        [v(2.0, -1.0), v(2.0, 1.0)],
        still(v(1.0, 0.0)),
    );
    assert_eq!(demands(&c), vec![(Demand::Required { tol: 2e-6 }, 0.5)]);
}
