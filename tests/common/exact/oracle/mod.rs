//! Exact oracle for the contact intervals of two moving 2D shapes during one step.
//!
//! # What it computes
//! Each shape's vertices (a point, a segment's two endpoints, a circle's or box's centre)
//! move linearly, `p(t) = p0 + t (p1 - p0)` for `t` in `[0, 1]`, evaluated exactly from the
//! exact values of the `f32` inputs. [`contact_intervals`] returns the set of times at which
//! the two closed shapes share a point, as closed intervals. [`convex_contact_intervals`]
//! does the same for rounded convex polygons (a point, segment or convex polygon core grown
//! by a radius; every vertex moving linearly), with the formula of [`convex_formula`].
//!
//! # Method (semi-algebraic, one dimension)
//! 1. **Formula.** For each pair the static contact test is written as a Boolean formula
//!    ([`Formula`]) whose atoms are sign conditions `p(t) ⋚ 0` on polynomials in `t`
//!    (degree 1 or 2; one atom of degree 4 for a disk against a segment's interior). Every
//!    formula is a textbook characterisation, see each `*_formula` function: no division,
//!    no square root, no tolerance. All inputs are first multiplied by one power of two
//!    that makes them integers (every atom is homogeneous in lengths, so no sign changes),
//!    so the atoms have exact integer coefficients.
//! 2. **Critical times.** Atoms are grouped by their square-free parts. Each group's roots
//!    in `(0, 1)` are isolated with a Sturm sequence and exact bisection on dyadic times (a
//!    midpoint that is a root is kept exactly). These, `0` and `1` are the candidate times.
//!    Enclosures are refined until strictly separated; two candidates that are the same
//!    number (common roots of different groups) are merged after an exact test (an exact
//!    time by evaluation, two roots by a sign change of their gcd on the overlap), and the
//!    merged root records every atom that vanishes there.
//! 3. **Evaluation.** Between two consecutive candidates no atom changes sign, so the
//!    formula is evaluated once at a dyadic sample inside each gap. At an exact candidate it
//!    is evaluated directly. At an irrational (or non-dyadic) root `α`, an atom vanishes iff
//!    it is recorded as vanishing there (every root of every atom is a candidate, and equal
//!    candidates were merged); otherwise its sign at `α` equals its sign on the gap to the
//!    left of `α` (continuity, no root in between). So every decision, including tangent
//!    grazes (double roots) and equal roots of different atoms, is exact; no certified
//!    enclosure or tolerance decides anything.
//! 4. **Merge.** Consecutive true candidates and gaps form the closed intervals. Only the
//!    reported endpoints are approximated: an irrational root is refined to an interval of
//!    width `2^-50` and its midpoint converted to `f64` (error far below `1e-9`). If two
//!    distinct intervals round to touching or overlapping `f64` endpoints they are merged,
//!    so the output is always sorted and disjoint.
//!
//! The contact set is closed (compact shapes moving continuously); the oracle asserts it.
//! It is written from the documented semantics only, independently of the code under test,
//! and is deliberately slow and simple.

use core::cmp::Ordering;
use core::ops::{Add, Mul, Neg, Sub};

use bevy_math::Vec2;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// World-space motion of one shape during a step; every vertex moves linearly from [0] to [1]
/// as time goes 0 -> 1.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Path {
    /// A point.
    Point([Vec2; 2]),
    /// The segment from a(t) to b(t).
    Segment {
        /// First endpoint.
        a: [Vec2; 2],
        /// Second endpoint.
        b: [Vec2; 2],
    },
    /// Closed disk; radius > 0.
    Circle {
        /// Centre.
        center: [Vec2; 2],
        /// Radius, positive.
        radius: f32,
    },
    /// Closed axis-aligned box `center(t) ± half_extents`; `half_extents > 0`.
    Aabb {
        /// Centre.
        center: [Vec2; 2],
        /// Half extents, positive.
        half_extents: Vec2,
    },
}

impl Path {
    /// Every `f32` in the path.
    fn values(&self) -> Vec<f32> {
        let xy = |ps: &[Vec2]| ps.iter().flat_map(|p| [p.x, p.y]).collect::<Vec<f32>>();
        match self {
            Self::Point(p) => xy(p),
            Self::Segment { a, b } => xy(&[a[0], a[1], b[0], b[1]]),
            Self::Circle { center, radius } => [xy(center), vec![*radius]].concat(),
            Self::Aabb {
                center,
                half_extents,
            } => [xy(center), xy(&[*half_extents])].concat(),
        }
    }
}

/// The closed time intervals within [0, 1] during which the two shapes' closed point sets
/// intersect (touching counts), sorted ascending and disjoint; an instant contact is [t, t].
///
/// Panics on non-finite input, a radius that is not positive or a half extent that is not
/// positive.
pub(crate) fn contact_intervals(a: &Path, b: &Path) -> Vec<[f64; 2]> {
    let values: Vec<f32> = [a, b].iter().flat_map(|p| p.values()).collect();
    let scale = Scale::new(&values);
    let formula = contact_formula(&Shape::of(a, &scale), &Shape::of(b, &scale));
    contact_set(&formula)
}

/// The closed time intervals within [0, 1] during which the two rounded convex polygons
/// share a point (touching counts), sorted ascending and disjoint; an instant contact is
/// [t, t].
///
/// Each slice lists a shape's vertices, each as `[position at t = 0, position at t = 1]`,
/// moving linearly. With `n` vertices the core is a point (`n = 1`), a segment (`n = 2`) or
/// the closed convex polygon with those vertices in order, either winding (`n >= 3`; the
/// caller guarantees convex position at every time, as rigid motions keep it). The shape is
/// its core grown by its radius (the Minkowski sum with a closed disk; radius 0 is the bare
/// core), so the shapes touch at `t` iff the distance between the cores is at most
/// `a_radius + b_radius`. See [`convex_formula`] for the characterisation.
///
/// Panics on non-finite input, a negative radius or an empty slice.
pub(crate) fn convex_contact_intervals(
    a: &[[Vec2; 2]],
    a_radius: f32,
    b: &[[Vec2; 2]],
    b_radius: f32,
) -> Vec<[f64; 2]> {
    for (vertices, radius) in [(a, a_radius), (b, b_radius)] {
        assert!(
            !vertices.is_empty(),
            "a convex shape needs at least one vertex"
        );
        assert!(
            radius.is_finite() && radius >= 0.0,
            "radius must be finite and non-negative, got {radius}"
        );
    }
    // One scale for every coordinate and both radii, so that each is an exact integer and
    // their sum, formed below in integers, is the exact sum of the two `f32` values.
    let values: Vec<f32> = a
        .iter()
        .chain(b)
        .flat_map(|p| [p[0].x, p[0].y, p[1].x, p[1].y])
        .chain([a_radius, b_radius])
        .collect();
    let scale = Scale::new(&values);
    let core = |vertices: &[[Vec2; 2]]| -> Vec<PVec> {
        vertices.iter().map(|&p| PVec::moving(p, &scale)).collect()
    };
    let reach = scale.int(a_radius) + scale.int(b_radius);
    contact_set(&convex_formula(&core(a), &core(b), &reach))
}

// ---------------------------------------------------------------------------------------
// Exact integers, dyadic times and integer polynomials in t
// ---------------------------------------------------------------------------------------

/// Exact integer.
type Z = BigInt;

/// Exact rational (only to read `f32` inputs and print times).
type Q = BigRational;

/// The exact value of a finite `f32`.
fn q(x: f32) -> Q {
    assert!(
        x.is_finite(),
        "the contact oracle needs finite input, got {x}"
    );
    Q::from_float(f64::from(x)).expect("finite")
}

/// `gcd(|a|, |b|)`.
fn zgcd(a: &Z, b: &Z) -> Z {
    let (mut a, mut b) = (a.abs(), b.abs());
    while !b.is_zero() {
        let r = &a % &b;
        a = b;
        b = r;
    }
    a
}

/// The exact power of two that makes every `f32` input of one query an integer. Every
/// atom below is homogeneous in lengths, so multiplying all lengths by one positive
/// constant multiplies each atom by a positive constant: signs, hence answers, are
/// unchanged.
struct Scale {
    factor: Q,
}

impl Scale {
    fn new(values: &[f32]) -> Self {
        let bits = values
            .iter()
            .map(|&x| q(x).denom().bits() - 1)
            .max()
            .unwrap_or(0);
        let bits = usize::try_from(bits).expect("fits");
        Self {
            factor: Q::from_integer(Z::one() << bits),
        }
    }

    fn int(&self, x: f32) -> Z {
        let v = q(x) * &self.factor;
        assert!(v.is_integer(), "scaling must give an integer");
        v.to_integer()
    }
}

/// A dyadic rational `n / 2^k`. Every time the oracle evaluates anything at is one: 0, 1
/// and midpoints of such.
#[derive(Clone, Debug)]
struct Dy {
    n: Z,
    k: usize,
}

impl Dy {
    fn int(n: i64) -> Self {
        Self {
            n: Z::from(n),
            k: 0,
        }
    }

    /// `(a + b) / 2`.
    fn mid(a: &Self, b: &Self) -> Self {
        let k = a.k.max(b.k);
        Self {
            n: (&a.n << (k - a.k)) + (&b.n << (k - b.k)),
            k: k + 1,
        }
    }

    /// Whether `hi - lo <= 2^-bits`.
    fn within(lo: &Self, hi: &Self, bits: usize) -> bool {
        let k = lo.k.max(hi.k);
        let width = (&hi.n << (k - hi.k)) - (&lo.n << (k - lo.k));
        (width << bits) <= (Z::one() << k)
    }

    fn to_f64(&self) -> f64 {
        Q::new(self.n.clone(), Z::one() << self.k)
            .to_f64()
            .expect("a time in [0, 1]")
    }
}

impl Ord for Dy {
    fn cmp(&self, o: &Self) -> Ordering {
        let k = self.k.max(o.k);
        (&self.n << (k - self.k)).cmp(&(&o.n << (k - o.k)))
    }
}

impl PartialOrd for Dy {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl PartialEq for Dy {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o).is_eq()
    }
}

impl Eq for Dy {}

/// A polynomial in `t` with integer coefficients, lowest degree first, without trailing
/// zeros (the zero polynomial has no coefficient).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Poly(Vec<Z>);

impl Poly {
    fn new(mut coefficients: Vec<Z>) -> Self {
        while coefficients.last().is_some_and(Zero::is_zero) {
            coefficients.pop();
        }
        Self(coefficients)
    }

    fn constant(c: Z) -> Self {
        Self::new(vec![c])
    }

    /// `c0 + c1 t`.
    fn linear(c0: Z, c1: Z) -> Self {
        Self::new(vec![c0, c1])
    }

    /// `c t^s`.
    fn monomial(c: Z, s: usize) -> Self {
        let mut v = vec![Z::zero(); s];
        v.push(c);
        Self::new(v)
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// Degree; 0 for constants, including the zero polynomial.
    fn degree(&self) -> usize {
        self.0.len().saturating_sub(1)
    }

    /// The exact sign at `t = n / 2^k`: that of `sum c_i n^i 2^(k (d - i))`.
    fn sign_at(&self, t: &Dy) -> Ordering {
        let d = self.degree();
        let mut acc = Z::zero();
        for (i, c) in self.0.iter().enumerate().rev() {
            acc = acc * &t.n + (c << (t.k * (d - i)));
        }
        acc.cmp(&Z::zero())
    }

    fn derivative(&self) -> Self {
        Self::new(
            self.0
                .iter()
                .enumerate()
                .skip(1)
                .map(|(k, c)| c * Z::from(k))
                .collect(),
        )
    }

    fn scale(&self, s: &Z) -> Self {
        Self::new(self.0.iter().map(|c| c * s).collect())
    }

    /// Divided by the (positive) gcd of its coefficients: same signs everywhere.
    fn primitive(&self) -> Self {
        let content = self.0.iter().fold(Z::zero(), |g, c| zgcd(&g, c));
        if content.is_zero() {
            return self.clone();
        }
        Self::new(self.0.iter().map(|c| c / &content).collect())
    }

    /// [`primitive`](Self::primitive) with a positive leading coefficient: one
    /// representative per polynomial up to a non-zero factor.
    fn normalized(&self) -> Self {
        let p = self.primitive();
        if p.0.last().is_some_and(Signed::is_negative) {
            -&p
        } else {
            p
        }
    }

    /// Pseudo-division by a non-zero polynomial: `(quotient, remainder)` with
    /// `m self = quotient d + remainder` for some integer `m > 0` and
    /// `deg remainder < deg d` (so the remainder is a POSITIVE multiple of the rational one).
    fn pdiv(&self, d: &Self) -> (Self, Self) {
        let lead = d.0.last().expect("division by the zero polynomial");
        let (mag, sign) = (lead.abs(), lead.signum());
        let mut quotient = Self::new(Vec::new());
        let mut rest = self.clone();
        while !rest.is_zero() && rest.degree() >= d.degree() {
            let term = Self::monomial(
                &sign * rest.0.last().expect("non-zero"),
                rest.degree() - d.degree(),
            );
            quotient = &quotient.scale(&mag) + &term;
            rest = &rest.scale(&mag) - &(&term * d); // the leading term cancels exactly
        }
        (quotient, rest)
    }

    /// Greatest common divisor, normalized (zero iff both are zero).
    fn gcd(&self, other: &Self) -> Self {
        let (mut a, mut b) = (self.primitive(), other.primitive());
        while !b.is_zero() {
            let r = a.pdiv(&b).1.primitive();
            a = b;
            b = r;
        }
        a.normalized()
    }

    /// The normalized square-free part (same complex roots, each simple).
    fn squarefree(&self) -> Self {
        let g = self.gcd(&self.derivative());
        self.pdiv(&g).0.normalized()
    }

    /// `self / (t - r)` for a root `r`.
    fn deflate(&self, r: &Dy) -> Self {
        let (quotient, rest) = self.pdiv(&Self::linear(-&r.n, Z::one() << r.k));
        assert!(rest.is_zero(), "deflating by a non-root");
        quotient.primitive()
    }

    /// The Sturm sequence `f, f', -rem(f, f'), ...` (each up to a positive factor) of a
    /// square-free polynomial.
    fn sturm(&self) -> Vec<Self> {
        let mut chain = vec![self.clone(), self.derivative()];
        loop {
            let n = chain.len();
            let r = chain[n - 2].pdiv(&chain[n - 1]).1;
            if r.is_zero() {
                return chain;
            }
            chain.push((-&r).primitive());
        }
    }
}

impl Add for &Poly {
    type Output = Poly;
    fn add(self, o: &Poly) -> Poly {
        let n = self.0.len().max(o.0.len());
        let at = |p: &Poly, k: usize| p.0.get(k).cloned().unwrap_or_else(Z::zero);
        Poly::new((0..n).map(|k| at(self, k) + at(o, k)).collect())
    }
}

impl Neg for &Poly {
    type Output = Poly;
    fn neg(self) -> Poly {
        Poly::new(self.0.iter().map(|c| -c).collect())
    }
}

impl Sub for &Poly {
    type Output = Poly;
    fn sub(self, o: &Poly) -> Poly {
        self + &-o
    }
}

impl Mul for &Poly {
    type Output = Poly;
    fn mul(self, o: &Poly) -> Poly {
        if self.is_zero() || o.is_zero() {
            return Poly::new(Vec::new());
        }
        let mut c = vec![Z::zero(); self.0.len() + o.0.len() - 1];
        for (i, x) in self.0.iter().enumerate() {
            for (j, y) in o.0.iter().enumerate() {
                c[i + j] += x * y;
            }
        }
        Poly::new(c)
    }
}

/// Number of sign changes of a Sturm sequence at `t` (zeros skipped).
fn sign_changes(chain: &[Poly], t: &Dy) -> usize {
    let signs: Vec<Ordering> = chain
        .iter()
        .map(|p| p.sign_at(t))
        .filter(|s| s.is_ne())
        .collect();
    signs.windows(2).filter(|w| w[0] != w[1]).count()
}

/// A 2D point whose coordinates are polynomials in `t`.
#[derive(Clone, Debug)]
struct PVec {
    x: Poly,
    y: Poly,
}

impl PVec {
    /// `p0 + t (p1 - p0)`, exactly, in scaled units.
    fn moving(p: [Vec2; 2], scale: &Scale) -> Self {
        let (x0, y0) = (scale.int(p[0].x), scale.int(p[0].y));
        let (dx, dy) = (scale.int(p[1].x) - &x0, scale.int(p[1].y) - &y0);
        Self {
            x: Poly::linear(x0, dx),
            y: Poly::linear(y0, dy),
        }
    }

    fn sub(&self, o: &Self) -> Self {
        Self {
            x: &self.x - &o.x,
            y: &self.y - &o.y,
        }
    }

    /// `self + (dx, dy)` for constants.
    fn offset(&self, dx: &Z, dy: &Z) -> Self {
        Self {
            x: &self.x + &Poly::constant(dx.clone()),
            y: &self.y + &Poly::constant(dy.clone()),
        }
    }

    fn dot(&self, o: &Self) -> Poly {
        &(&self.x * &o.x) + &(&self.y * &o.y)
    }

    fn cross(&self, o: &Self) -> Poly {
        &(&self.x * &o.y) - &(&self.y * &o.x)
    }

    fn norm2(&self) -> Poly {
        self.dot(self)
    }
}

// ---------------------------------------------------------------------------------------
// Formulas: Boolean combinations of polynomial sign conditions
// ---------------------------------------------------------------------------------------

/// The sign condition of an atom `p(t) REL 0`.
#[derive(Clone, Copy, Debug)]
enum Rel {
    Zero,
    NonPositive,
    Negative,
    NonNegative,
    Positive,
}

impl Rel {
    fn accepts(self, sign: Ordering) -> bool {
        match self {
            Self::Zero => sign.is_eq(),
            Self::NonPositive => sign.is_le(),
            Self::Negative => sign.is_lt(),
            Self::NonNegative => sign.is_ge(),
            Self::Positive => sign.is_gt(),
        }
    }
}

/// A Boolean formula over sign conditions of polynomials in `t`.
#[derive(Clone, Debug)]
enum Formula {
    Atom(Poly, Rel),
    All(Vec<Formula>),
    Any(Vec<Formula>),
}

impl Formula {
    /// Truth value, given the sign of every atom's polynomial at the time in question.
    fn holds(&self, sign: &dyn Fn(&Poly) -> Ordering) -> bool {
        match self {
            Self::Atom(p, rel) => rel.accepts(sign(p)),
            Self::All(parts) => parts.iter().all(|f| f.holds(sign)),
            Self::Any(parts) => parts.iter().any(|f| f.holds(sign)),
        }
    }

    /// Every distinct atom polynomial.
    fn atoms<'a>(&'a self, out: &mut Vec<&'a Poly>) {
        match self {
            Self::Atom(p, _) => {
                if !out.contains(&p) {
                    out.push(p);
                }
            }
            Self::All(parts) | Self::Any(parts) => parts.iter().for_each(|f| f.atoms(out)),
        }
    }
}

fn atom(p: Poly, rel: Rel) -> Formula {
    Formula::Atom(p, rel)
}

/// `-bound <= x <= bound`.
fn abs_le(x: &Poly, bound: &Z) -> Formula {
    let b = Poly::constant(bound.clone());
    Formula::All(vec![
        atom(x - &b, Rel::NonPositive),
        atom(x + &b, Rel::NonNegative),
    ])
}

/// `u` and `v` have strictly opposite signs.
fn opposite(u: &Poly, v: &Poly) -> Formula {
    Formula::Any(vec![
        Formula::All(vec![
            atom(u.clone(), Rel::Positive),
            atom(v.clone(), Rel::Negative),
        ]),
        Formula::All(vec![
            atom(u.clone(), Rel::Negative),
            atom(v.clone(), Rel::Positive),
        ]),
    ])
}

// ---------------------------------------------------------------------------------------
// The static contact tests, one per pair
// ---------------------------------------------------------------------------------------

/// A shape with polynomial coordinates.
enum Shape {
    Point(PVec),
    Segment(PVec, PVec),
    /// Centre and radius.
    Disk(PVec, Z),
    /// Centre and half extents.
    Rect(PVec, [Z; 2]),
}

impl Shape {
    fn of(path: &Path, scale: &Scale) -> Self {
        let moving = |p| PVec::moving(p, scale);
        match *path {
            Path::Point(p) => Self::Point(moving(p)),
            Path::Segment { a, b } => Self::Segment(moving(a), moving(b)),
            Path::Circle { center, radius } => {
                assert!(radius > 0.0, "radius must be positive, got {radius}");
                Self::Disk(moving(center), scale.int(radius))
            }
            Path::Aabb {
                center,
                half_extents: h,
            } => {
                assert!(
                    h.x > 0.0 && h.y > 0.0,
                    "half extents must be positive, got {h}"
                );
                Self::Rect(moving(center), [scale.int(h.x), scale.int(h.y)])
            }
        }
    }
}

/// The formula "the two shapes intersect", symmetric in its arguments.
fn contact_formula(a: &Shape, b: &Shape) -> Formula {
    use Shape::{Disk, Point, Rect, Segment};
    match (a, b) {
        (Point(p), Point(o)) => point_point_formula(p, o),
        (Point(p), Segment(s0, s1)) | (Segment(s0, s1), Point(p)) => {
            point_segment_formula(p, s0, s1)
        }
        (Point(p), Disk(c, r)) | (Disk(c, r), Point(p)) => point_disk_formula(p, c, &(r * r)),
        (Point(p), Rect(c, h)) | (Rect(c, h), Point(p)) => point_box_formula(p, c, h),
        (Segment(a0, a1), Segment(b0, b1)) => segment_segment_formula(a0, a1, b0, b1),
        (Segment(s0, s1), Disk(c, r)) | (Disk(c, r), Segment(s0, s1)) => {
            segment_disk_formula(s0, s1, c, r)
        }
        (Segment(s0, s1), Rect(c, h)) | (Rect(c, h), Segment(s0, s1)) => {
            segment_box_formula(s0, s1, c, h)
        }
        (Disk(c0, r0), Disk(c1, r1)) => disk_disk_formula(c0, r0, c1, r1),
        (Disk(c, r), Rect(bc, h)) | (Rect(bc, h), Disk(c, r)) => disk_box_formula(c, r, bc, h),
        (Rect(c0, h0), Rect(c1, h1)) => box_box_formula(c0, h0, c1, h1),
    }
}

/// `p == o`.
fn point_point_formula(p: &PVec, o: &PVec) -> Formula {
    let d = p.sub(o);
    Formula::All(vec![atom(d.x, Rel::Zero), atom(d.y, Rel::Zero)])
}

/// `p` on the closed segment `[a, b]`: `cross(b - a, p - a) == 0` (on the line) and
/// `(p - a) . (p - b) <= 0` (between the endpoints). When `a == b` the cross is 0 and the
/// dot is `|p - a|^2`, so this is `p == a`, as it must be.
fn point_segment_formula(p: &PVec, a: &PVec, b: &PVec) -> Formula {
    let pa = p.sub(a);
    Formula::All(vec![
        atom(b.sub(a).cross(&pa), Rel::Zero),
        atom(pa.dot(&p.sub(b)), Rel::NonPositive),
    ])
}

/// `|p - c|^2 <= r^2`.
fn point_disk_formula(p: &PVec, c: &PVec, r2: &Z) -> Formula {
    atom(
        &p.sub(c).norm2() - &Poly::constant(r2.clone()),
        Rel::NonPositive,
    )
}

/// `|p.x - c.x| <= h.x` and `|p.y - c.y| <= h.y`.
fn point_box_formula(p: &PVec, c: &PVec, h: &[Z; 2]) -> Formula {
    let d = p.sub(c);
    Formula::All(vec![abs_le(&d.x, &h[0]), abs_le(&d.y, &h[1])])
}

/// Closed segments `[a, b]` and `[c, d]` intersect iff an endpoint of one lies on the other,
/// or they cross properly (each one's endpoints strictly on opposite sides of the other's
/// line). Proof of "only if": if they meet at `X` and no endpoint is on the other segment,
/// neither is a point and they are not collinear (a collinear overlap contains an
/// endpoint), and `X` is interior to both, so the crossing is proper.
fn segment_segment_formula(a: &PVec, b: &PVec, c: &PVec, d: &PVec) -> Formula {
    let side = |x: &PVec, y: &PVec, z: &PVec| y.sub(x).cross(&z.sub(x));
    Formula::Any(vec![
        point_segment_formula(c, a, b),
        point_segment_formula(d, a, b),
        point_segment_formula(a, c, d),
        point_segment_formula(b, c, d),
        Formula::All(vec![
            opposite(&side(a, b, c), &side(a, b, d)),
            opposite(&side(c, d, a), &side(c, d, b)),
        ]),
    ])
}

/// Distance from `c` to the closed segment `[a, b]` at most `r`: an endpoint is in the disk,
/// or the projection of `c` falls strictly inside the segment (`(c - a).(b - a) > 0` and
/// `(c - b).(a - b) > 0`, which also forces `a != b`) and the distance to the line is at
/// most `r`: `cross(b - a, c - a)^2 <= r^2 |b - a|^2` (degree 4 in `t`).
fn segment_disk_formula(a: &PVec, b: &PVec, c: &PVec, r: &Z) -> Formula {
    let r2 = r * r;
    let ab = b.sub(a);
    let line = ab.cross(&c.sub(a));
    Formula::Any(vec![
        point_disk_formula(a, c, &r2),
        point_disk_formula(b, c, &r2),
        Formula::All(vec![
            atom(c.sub(a).dot(&ab), Rel::Positive),
            atom(c.sub(b).dot(&a.sub(b)), Rel::Positive),
            atom(&(&line * &line) - &ab.norm2().scale(&r2), Rel::NonPositive),
        ]),
    ])
}

/// The box's four corners.
fn corners(c: &PVec, h: &[Z; 2]) -> [PVec; 4] {
    let (hx, hy) = (&h[0], &h[1]);
    [
        c.offset(&-hx, &-hy),
        c.offset(hx, &-hy),
        c.offset(hx, hy),
        c.offset(&-hx, hy),
    ]
}

/// Separating axis test of the closed segment `[a, b]` and the closed box: the projections
/// overlap on the x axis, on the y axis, and on the segment's normal (the segment projects
/// to one value, so some corner must be on each closed side of its line). The Minkowski
/// difference of a segment and a box is a convex polygon with edge normals among these
/// three axes, so this is exact. A zero-length segment makes every corner cross 0, leaving
/// the point-in-box test, as it must.
fn segment_box_formula(a: &PVec, b: &PVec, c: &PVec, h: &[Z; 2]) -> Formula {
    let lo = c.offset(&-&h[0], &-&h[1]);
    let hi = c.offset(&h[0], &h[1]);
    let axis = |a_i: &Poly, b_i: &Poly, lo_i: &Poly, hi_i: &Poly| {
        Formula::All(vec![
            Formula::Any(vec![
                atom(a_i - hi_i, Rel::NonPositive),
                atom(b_i - hi_i, Rel::NonPositive),
            ]),
            Formula::Any(vec![
                atom(a_i - lo_i, Rel::NonNegative),
                atom(b_i - lo_i, Rel::NonNegative),
            ]),
        ])
    };
    let ab = b.sub(a);
    let sides: Vec<Poly> = corners(c, h).iter().map(|k| ab.cross(&k.sub(a))).collect();
    Formula::All(vec![
        axis(&a.x, &b.x, &lo.x, &hi.x),
        axis(&a.y, &b.y, &lo.y, &hi.y),
        Formula::Any(
            sides
                .iter()
                .map(|s| atom(s.clone(), Rel::NonNegative))
                .collect(),
        ),
        Formula::Any(
            sides
                .iter()
                .map(|s| atom(s.clone(), Rel::NonPositive))
                .collect(),
        ),
    ])
}

/// `|c0 - c1|^2 <= (r0 + r1)^2`.
fn disk_disk_formula(c0: &PVec, r0: &Z, c1: &PVec, r1: &Z) -> Formula {
    let sum = r0 + r1;
    point_disk_formula(c0, c1, &(&sum * &sum))
}

/// The disk's centre lies in the box grown by `r` with rounded corners (the Minkowski sum
/// of box and disk): the union of the box widened by `r` in x, the box heightened by `r`
/// in y, and the four disks of radius `r` about the corners.
fn disk_box_formula(c: &PVec, r: &Z, bc: &PVec, h: &[Z; 2]) -> Formula {
    let d = c.sub(bc);
    let r2 = r * r;
    let mut parts = vec![
        Formula::All(vec![abs_le(&d.x, &(&h[0] + r)), abs_le(&d.y, &h[1])]),
        Formula::All(vec![abs_le(&d.x, &h[0]), abs_le(&d.y, &(&h[1] + r))]),
    ];
    parts.extend(corners(bc, h).iter().map(|k| point_disk_formula(k, c, &r2)));
    Formula::Any(parts)
}

/// `|c0 - c1| <= h0 + h1` on both axes.
fn box_box_formula(c0: &PVec, h0: &[Z; 2], c1: &PVec, h1: &[Z; 2]) -> Formula {
    let d = c0.sub(c1);
    Formula::All(vec![
        abs_le(&d.x, &(&h0[0] + &h1[0])),
        abs_le(&d.y, &(&h0[1] + &h1[1])),
    ])
}

/// The edges of a convex core given by its vertices: the point itself as a zero-length
/// edge (`n = 1`), the segment (`n = 2`, one edge, not two), or the `n` sides of the
/// polygon, the last from the last vertex back to the first (`n >= 3`). Their union is the
/// core for `n <= 2`, and the polygon's boundary for `n >= 3`; every vertex is an endpoint
/// of an edge.
fn core_edges(core: &[PVec]) -> Vec<(&PVec, &PVec)> {
    match core {
        [p] => vec![(p, p)],
        [p, q] => vec![(p, q)],
        _ => (0..core.len())
            .map(|i| (&core[i], &core[(i + 1) % core.len()]))
            .collect(),
    }
}

/// `p` in the closed convex polygon with the vertices `core` (`n >= 3`, in convex position
/// in either winding): the orientations `o_i = cross(v_{i+1} - v_i, p - v_i)` against all
/// its sides are all `>= 0` with one `> 0`, or all `<= 0` with one `< 0`.
///
/// Why this is exact: `sum_i o_i = sum_i cross(v_i, v_{i+1})`, twice the signed area, for
/// every `p` (the terms in `p` cancel, the sides summing to zero). With a positive area
/// (counter-clockwise) no `p` has all `o_i <= 0` and one `< 0`, every `p` with all
/// `o_i >= 0` has one `> 0`, and those `p` are exactly the polygon (the intersection of the
/// closed left half-planes of its sides, a zero-length side giving `o_i = 0`); a clockwise
/// polygon is the mirror case. With zero area (all vertices on a line, or all equal) the sum
/// is 0, so the test is never true; the core is then the union of its sides (a closed chain
/// through the extreme points covers their segment), and the side tests of
/// [`convex_formula`] see every point of it.
fn point_polygon_formula(p: &PVec, core: &[PVec]) -> Formula {
    let orientations: Vec<Poly> = core_edges(core)
        .iter()
        .map(|(a, b)| b.sub(a).cross(&p.sub(a)))
        .collect();
    let side = |all: Rel, one: Rel| {
        Formula::All(vec![
            Formula::All(orientations.iter().map(|o| atom(o.clone(), all)).collect()),
            Formula::Any(orientations.iter().map(|o| atom(o.clone(), one)).collect()),
        ])
    };
    Formula::Any(vec![
        side(Rel::NonNegative, Rel::Positive),
        side(Rel::NonPositive, Rel::Negative),
    ])
}

/// The distance between the convex cores `a` and `b` (see [`core_edges`]) is at most
/// `reach >= 0`: the cores share a point, or `reach > 0` and some vertex of one is within
/// `reach` of some edge of the other.
///
/// **The cores share a point** iff some edge of one meets some edge of the other
/// ([`segment_segment_formula`]) or some vertex of one lies in the other, a polygon with
/// `n >= 3` ([`point_polygon_formula`]; a vertex in a point or a segment, or in a polygon of
/// zero area, lies on one of its edges, which the edge tests see). "If" is clear. "Only if":
/// say they share a point `x` but no two edges meet. First, some edge `e` of one core meets
/// the other core `C`: either `x` is on an edge, or it is interior to both cores (a core of
/// zero area is the union of its edges); then a vertex `v` of the first one is in the second
/// (done), or the segment from `x` to `v`, inside the first core, leaves the second through
/// one of its edges, which so meets the first core. Now `e` misses the edges of `C`, so `C`
/// has positive area (else it is the union of its edges) and `e ∩ C` lies in the interior of
/// `C`: closed and open in the connected `e` and not empty, it is all of `e`, so `e`'s
/// endpoints, vertices, lie in `C`, which the vertex test sees.
///
/// **Distance.** If the cores are disjoint, let `x`, `y` be a closest pair, `d = |y - x|`
/// and `u = (y - x) / d`. Nearest points of disjoint convex sets lie on the two parallel
/// lines normal to `u` that separate them: `x` is in the face `F` of its core that maximises
/// `u . z`, `y` in the face `G` of the other that minimises it, each a vertex or a segment
/// with vertices for endpoints, and each within the union of its core's edges. `F` and `G`
/// lie on those lines, `d` apart, and their projections along `u` overlap (at `x`), so an
/// endpoint of one of them, a vertex `v`, projects into the other: `v` is at distance `d`
/// from a point of an edge of the other core. No point of one core is nearer than `d` to the
/// other, so `d` is the least distance from a vertex of one core to an edge of the other,
/// and [`segment_disk_formula`] decides each such distance against `reach` (zero-length edges
/// and the vertex-to-vertex case included). So the formula holds iff the distance between
/// the cores is at most `reach`: exactly, with integer polynomial atoms of degree at most 4
/// and no division, square root or tolerance.
fn convex_formula(a: &[PVec], b: &[PVec], reach: &Z) -> Formula {
    let (a_edges, b_edges) = (core_edges(a), core_edges(b));
    let mut parts = Vec::new();
    for (a0, a1) in &a_edges {
        for (b0, b1) in &b_edges {
            parts.push(segment_segment_formula(a0, a1, b0, b1));
        }
    }
    for (vertices, core) in [(a, b), (b, a)] {
        if core.len() >= 3 {
            parts.extend(vertices.iter().map(|p| point_polygon_formula(p, core)));
        }
    }
    if reach.is_positive() {
        for (vertices, edges) in [(a, &b_edges), (b, &a_edges)] {
            for p in vertices {
                for (e0, e1) in edges {
                    parts.push(segment_disk_formula(e0, e1, p, reach));
                }
            }
        }
    }
    Formula::Any(parts)
}

// ---------------------------------------------------------------------------------------
// Solving a formula over t in [0, 1]
// ---------------------------------------------------------------------------------------

/// Bits to which two overlapping root enclosures are refined before they are compared
/// exactly (a speed trade-off only).
const COMPARE_BITS: usize = 32;

/// Bits of the reported irrational times.
const REPORT_BITS: usize = 50;

/// A candidate time.
#[derive(Clone, Debug)]
enum Moment {
    /// Known exactly.
    Exact(Dy),
    /// The only root of the square-free `poly` in the open interval `(lo, hi)`; `poly` is
    /// non-zero at `lo` and `hi`, with opposite signs. It is a root of exactly the atoms
    /// numbered in `zero_atoms` (the ones whose square-free part has it as a root).
    Root {
        id: usize,
        poly: Poly,
        zero_atoms: Vec<usize>,
        lo: Dy,
        hi: Dy,
        lo_sign: Ordering,
    },
}

impl Moment {
    fn lo(&self) -> &Dy {
        match self {
            Self::Exact(t) => t,
            Self::Root { lo, .. } => lo,
        }
    }

    fn hi(&self) -> &Dy {
        match self {
            Self::Exact(t) => t,
            Self::Root { hi, .. } => hi,
        }
    }

    fn within(&self, bits: usize) -> bool {
        Dy::within(self.lo(), self.hi(), bits)
    }

    /// Halves the isolating interval (a midpoint that is the root makes it exact).
    fn refine(&mut self) {
        let Self::Root {
            poly,
            lo,
            hi,
            lo_sign,
            ..
        } = self
        else {
            return;
        };
        let mid = Dy::mid(lo, hi);
        match poly.sign_at(&mid) {
            Ordering::Equal => *self = Self::Exact(mid),
            s if s == *lo_sign => *lo = mid,
            _ => *hi = mid,
        }
    }

    /// Whether this is a root lying exactly at `t`.
    fn is_root_at(&self, t: &Dy) -> bool {
        match self {
            Self::Exact(x) => x == t,
            Self::Root { poly, lo, hi, .. } => lo < t && t < hi && poly.sign_at(t).is_eq(),
        }
    }

    /// Whether two roots, with overlapping enclosures, are the same number: their common
    /// factor `g` then has a root in the overlap. Conversely such a root is a root of each
    /// polynomial in its own enclosure, hence both. `g` divides both polynomials, so it is
    /// non-zero at the overlap's ends (each an end of one enclosure) and has at most one,
    /// simple, root inside: a strict sign change decides.
    fn same_root(&self, other: &Self) -> bool {
        let (
            Self::Root {
                poly: f,
                lo: l1,
                hi: h1,
                ..
            },
            Self::Root {
                poly: g,
                lo: l2,
                hi: h2,
                ..
            },
        ) = (self, other)
        else {
            return false;
        };
        let (lo, hi) = (l1.max(l2), h1.min(h2));
        if lo >= hi {
            return false;
        }
        let common = f.gcd(g);
        common.degree() > 0 && common.sign_at(lo) == common.sign_at(hi).reverse()
    }

    /// A close `f64` (within `2^-REPORT_BITS` for a root).
    fn value(&self) -> f64 {
        let mut m = self.clone();
        while !m.within(REPORT_BITS) {
            m.refine();
        }
        Dy::mid(m.lo(), m.hi()).to_f64()
    }
}

/// Roots in `(lo, hi)` of the square-free `f` (non-zero at both ends), with Sturm chain.
fn isolate(
    f: &Poly,
    chain: &[Poly],
    (lo, hi): (&Dy, &Dy),
    zero_atoms: &[usize],
    out: &mut Vec<Moment>,
) {
    match sign_changes(chain, lo) - sign_changes(chain, hi) {
        0 => {}
        1 => out.push(Moment::Root {
            id: out.len(),
            poly: f.clone(),
            zero_atoms: zero_atoms.to_vec(),
            lo: lo.clone(),
            hi: hi.clone(),
            lo_sign: f.sign_at(lo),
        }),
        _ => {
            let mid = Dy::mid(lo, hi);
            if f.sign_at(&mid).is_eq() {
                let g = f.deflate(&mid);
                let g_chain = g.sturm();
                out.push(Moment::Exact(mid.clone()));
                isolate(&g, &g_chain, (lo, &mid), zero_atoms, out);
                isolate(&g, &g_chain, (&mid, hi), zero_atoms, out);
            } else {
                isolate(f, chain, (lo, &mid), zero_atoms, out);
                isolate(f, chain, (&mid, hi), zero_atoms, out);
            }
        }
    }
}

/// Roots in the open `(0, 1)` of the square-free `f` (0 and 1 are always candidates).
fn roots_in_unit(f: &Poly, zero_atoms: &[usize], out: &mut Vec<Moment>) {
    let mut f = f.clone();
    for end in [Dy::int(0), Dy::int(1)] {
        if f.sign_at(&end).is_eq() {
            f = f.deflate(&end);
        }
    }
    if f.degree() > 0 {
        let chain = f.sturm();
        isolate(&f, &chain, (&Dy::int(0), &Dy::int(1)), zero_atoms, out);
    }
}

/// What to do about two overlapping neighbours `i`, `i + 1`.
enum Fix {
    /// Drop this one: it equals its neighbour.
    Drop(usize),
    /// Drop `i + 1` after adding its vanishing atoms to `i`'s.
    Merge,
    /// Refine both (refining an exact one does nothing).
    Refine,
}

/// Sorts the candidates, merges equal ones and refines the others until their enclosures
/// are strictly separated. Terminates: distinct numbers separate under refinement, and
/// equal ones are found equal exactly (an exact time against a root by evaluation, two
/// roots by [`Moment::same_root`] once both are narrow).
fn separate(moments: &mut Vec<Moment>) {
    let mut distinct: Vec<(usize, usize)> = Vec::new();
    'restart: loop {
        moments.sort_by(|a, b| a.lo().cmp(b.lo()));
        for i in 0..moments.len() - 1 {
            let (a, b) = (&moments[i], &moments[i + 1]);
            if a.hi() < b.lo() {
                continue;
            }
            let fix = match (a, b) {
                (Moment::Exact(_), Moment::Exact(_)) => Fix::Drop(i + 1),
                (Moment::Exact(t), _) if b.is_root_at(t) => Fix::Drop(i + 1),
                (_, Moment::Exact(t)) if a.is_root_at(t) => Fix::Drop(i),
                (Moment::Root { id: x, .. }, Moment::Root { id: y, .. }) => {
                    let pair = (*x.min(y), *x.max(y));
                    if !a.within(COMPARE_BITS)
                        || !b.within(COMPARE_BITS)
                        || distinct.contains(&pair)
                    {
                        Fix::Refine
                    } else if a.same_root(b) {
                        Fix::Merge
                    } else {
                        distinct.push(pair);
                        Fix::Refine
                    }
                }
                _ => Fix::Refine,
            };
            match fix {
                Fix::Drop(k) => {
                    moments.remove(k);
                }
                Fix::Merge => {
                    let gone = moments.remove(i + 1);
                    if let (
                        Moment::Root { zero_atoms, .. },
                        Moment::Root {
                            zero_atoms: more, ..
                        },
                    ) = (&mut moments[i], gone)
                    {
                        zero_atoms.extend(more);
                    }
                }
                Fix::Refine => {
                    moments[i].refine();
                    moments[i + 1].refine();
                }
            }
            continue 'restart;
        }
        return;
    }
}

/// The closed set `{t in [0, 1] : formula(t)}` as sorted disjoint closed intervals.
fn contact_set(formula: &Formula) -> Vec<[f64; 2]> {
    let mut atoms = Vec::new();
    formula.atoms(&mut atoms);
    // Atoms with the same roots share one square-free polynomial.
    let mut groups: Vec<(Poly, Vec<usize>)> = Vec::new();
    for (i, p) in atoms.iter().enumerate() {
        if p.degree() == 0 {
            continue;
        }
        let key = p.squarefree();
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    let mut moments = vec![Moment::Exact(Dy::int(0)), Moment::Exact(Dy::int(1))];
    for (f, members) in &groups {
        roots_in_unit(f, members, &mut moments);
    }
    separate(&mut moments);

    let gaps: Vec<Dy> = moments
        .windows(2)
        .map(|w| Dy::mid(w[0].hi(), w[1].lo()))
        .collect();
    let in_gap: Vec<bool> = gaps
        .iter()
        .map(|s| formula.holds(&|p: &Poly| p.sign_at(s)))
        .collect();
    let at_moment: Vec<bool> = moments
        .iter()
        .enumerate()
        .map(|(k, m)| match m {
            Moment::Exact(t) => formula.holds(&|p: &Poly| p.sign_at(t)),
            Moment::Root { zero_atoms, .. } => {
                // Not the first moment (that is exactly 0), so there is a gap on the left.
                let left = &gaps[k - 1];
                formula.holds(&|p: &Poly| {
                    if zero_atoms.iter().any(|&i| atoms[i] == p) {
                        Ordering::Equal
                    } else {
                        p.sign_at(left)
                    }
                })
            }
        })
        .collect();

    let mut out: Vec<[f64; 2]> = Vec::new();
    let mut start: Option<usize> = None;
    for k in 0..moments.len() {
        if at_moment[k] {
            start.get_or_insert(k);
        }
        let continues = k + 1 < moments.len() && in_gap[k];
        if continues {
            assert!(
                at_moment[k] && at_moment[k + 1],
                "oracle bug: the contact set is not closed"
            );
        } else if let Some(s) = start.take() {
            let interval = [moments[s].value(), moments[k].value()];
            match out.last_mut() {
                Some(last) if interval[0] <= last[1] => last[1] = last[1].max(interval[1]),
                _ => out.push(interval),
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Self-tests
// ---------------------------------------------------------------------------------------

#[cfg(test)]
mod tests;
