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
mod tests {
    use super::{
        Dy, Formula, PVec, Poly, Rel, Scale, atom, contact_set, point_polygon_formula, sign_changes,
    };
    // Through the re-export the other tests use.
    use super::{Path, contact_intervals, convex_contact_intervals};
    use bevy_math::{DVec2, Vec2};
    use num_bigint::BigInt;
    use std::time::Instant;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    fn still(p: Vec2) -> [Vec2; 2] {
        [p, p]
    }

    fn point(p0: Vec2, p1: Vec2) -> Path {
        Path::Point([p0, p1])
    }

    fn seg(a: [Vec2; 2], b: [Vec2; 2]) -> Path {
        Path::Segment { a, b }
    }

    fn still_seg(a: Vec2, b: Vec2) -> Path {
        seg(still(a), still(b))
    }

    fn circle(c0: Vec2, c1: Vec2, radius: f32) -> Path {
        Path::Circle {
            center: [c0, c1],
            radius,
        }
    }

    fn aabb(c0: Vec2, c1: Vec2, h: Vec2) -> Path {
        Path::Aabb {
            center: [c0, c1],
            half_extents: h,
        }
    }

    fn unit_box() -> Path {
        aabb(Vec2::ZERO, Vec2::ZERO, Vec2::ONE)
    }

    fn unit_circle() -> Path {
        circle(Vec2::ZERO, Vec2::ZERO, 1.0)
    }

    /// Checks both argument orders against hand-computed intervals (1e-12).
    #[track_caller]
    fn check(a: &Path, b: &Path, expected: &[[f64; 2]]) {
        for (x, y) in [(a, b), (b, a)] {
            let got = contact_intervals(x, y);
            let close = got.len() == expected.len()
                && got
                    .iter()
                    .zip(expected)
                    .all(|(g, e)| (g[0] - e[0]).abs() < 1e-12 && (g[1] - e[1]).abs() < 1e-12);
            assert!(
                close,
                "{x:?} vs {y:?}:\n   got {got:?}\n  want {expected:?}"
            );
        }
    }

    #[test]
    fn polynomial_basics() {
        let p = |c: &[i64]| Poly::new(c.iter().map(|&x| BigInt::from(x)).collect());
        let half = Dy::mid(&Dy::int(0), &Dy::int(1));
        let quarter = Dy::mid(&Dy::int(0), &half);
        assert!(quarter < half && half == Dy::mid(&quarter, &Dy::mid(&half, &Dy::int(1))));
        // (t - 1)^2 (t - 2) -> square-free (t - 1)(t - 2) = t^2 - 3t + 2.
        let cubic = p(&[-2, 5, -4, 1]);
        assert_eq!(cubic.squarefree(), p(&[2, -3, 1]));
        assert_eq!((-&cubic).squarefree(), p(&[2, -3, 1]));
        assert_eq!(cubic.gcd(&p(&[3, -3])), p(&[-1, 1]));
        assert_eq!(cubic.pdiv(&p(&[2, -3, 1])), (p(&[-1, 1]), p(&[])));
        // Pseudo-remainders are positive multiples: t^2 mod (-2t + 1) = 1/4 -> 1 (times 4).
        assert_eq!(p(&[0, 0, 1]).pdiv(&p(&[1, -2])).1, p(&[1]));
        // 4t^2 - 1: zero at 1/2, negative at 1/4; one root in (0, 1); deflates to 2t + 1.
        let f = p(&[-1, 0, 4]);
        assert!(f.sign_at(&half).is_eq() && f.sign_at(&quarter).is_lt());
        let chain = f.sturm();
        assert_eq!(
            sign_changes(&chain, &Dy::int(0)) - sign_changes(&chain, &Dy::int(1)),
            1
        );
        assert_eq!(f.deflate(&half), p(&[1, 2]));
    }

    #[test]
    fn equal_irrational_roots_of_different_atoms() {
        // f = 2t^2 - 1 and g = f (4t - 1) share the root 1/sqrt(2); "f = 0 and g = 0" holds
        // there only, which needs the exact merge of the two candidates.
        let p = |c: &[i64]| Poly::new(c.iter().map(|&x| BigInt::from(x)).collect());
        let f = p(&[-1, 0, 2]);
        let g = &f * &p(&[-1, 4]);
        let root = 0.5f64.sqrt();
        let both = Formula::All(vec![atom(f.clone(), Rel::Zero), atom(g.clone(), Rel::Zero)]);
        let got = contact_set(&both);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!((got[0][0] - root).abs() < 1e-15 && got[0][0] == got[0][1]);
        // g <= 0 on [1/4, 1/sqrt(2)]; g >= 0 and f <= 0 on [0, 1/4] and at 1/sqrt(2).
        assert_eq!(
            contact_set(&atom(g.clone(), Rel::NonPositive)),
            vec![[0.25, got[0][0]]]
        );
        let mixed = Formula::All(vec![atom(g, Rel::NonNegative), atom(f, Rel::NonPositive)]);
        assert_eq!(contact_set(&mixed), vec![[0.0, 0.25], got[0]]);
    }

    #[test]
    fn extreme_magnitudes() {
        // Huge and subnormal coordinates are exact too.
        let huge = 2f32.powi(100);
        check(
            &point(v(-huge, 0.0), v(huge, 0.0)),
            &still_seg(v(0.0, -1.0), v(0.0, 1.0)),
            &[[0.5, 0.5]],
        );
        let tiny = f32::from_bits(1);
        check(
            &point(v(-tiny, 0.0), v(tiny, 0.0)),
            &still_seg(v(0.0, -tiny), v(0.0, tiny)),
            &[[0.5, 0.5]],
        );
        check(
            &circle(v(-3.0 * tiny, 0.0), v(tiny, 0.0), tiny),
            &aabb(Vec2::ZERO, Vec2::ZERO, v(huge, tiny)),
            &[[0.0, 1.0]],
        );
        check(
            &circle(v(-3.0 * huge, 0.0), v(huge, 0.0), huge),
            &point(Vec2::ZERO, Vec2::ZERO),
            &[[0.5, 1.0]],
        );
    }

    #[test]
    fn point_point() {
        let origin = point(Vec2::ZERO, Vec2::ZERO);
        check(&point(v(-1.0, 0.0), v(1.0, 0.0)), &origin, &[[0.5, 0.5]]);
        check(&origin, &origin, &[[0.0, 1.0]]);
        check(
            &point(v(0.0, 0.0), v(1.0, 1.0)),
            &point(v(0.0, 0.0), v(1.0, 1.0)),
            &[[0.0, 1.0]],
        );
        // Parallel, never equal.
        check(
            &point(v(0.0, 0.0), v(1.0, 0.0)),
            &point(v(0.0, 1.0), v(1.0, 1.0)),
            &[],
        );
        // Meet exactly at t = 1; leave exactly at t = 0.
        check(
            &point(v(0.0, 0.0), v(1.0, 0.0)),
            &point(v(2.0, 0.0), v(1.0, 0.0)),
            &[[1.0, 1.0]],
        );
        check(&point(v(0.0, 0.0), v(1.0, 0.0)), &origin, &[[0.0, 0.0]]);
        // Paths cross, but at different times.
        check(
            &point(v(-1.0, 0.0), v(1.0, 0.0)),
            &point(v(0.0, -1.0), v(0.0, 3.0)),
            &[],
        );
    }

    #[test]
    fn point_segment() {
        let vertical = still_seg(v(0.0, -1.0), v(0.0, 1.0));
        check(
            &point(v(-5.0, 0.0), v(15.0, 0.0)),
            &vertical,
            &[[0.25, 0.25]],
        );
        // Sliding along the segment's own line.
        let horizontal = still_seg(v(-1.0, 0.0), v(1.0, 0.0));
        check(
            &point(v(-2.0, 0.0), v(2.0, 0.0)),
            &horizontal,
            &[[0.25, 0.75]],
        );
        // Through an endpoint exactly; beside it by the smallest subnormal.
        let right = still_seg(v(0.0, 0.0), v(2.0, 0.0));
        check(&point(v(0.0, -1.0), v(0.0, 1.0)), &right, &[[0.5, 0.5]]);
        let x = 0.0f32.next_down();
        check(&point(v(x, -1.0), v(x, 1.0)), &right, &[]);
        // Ends on it at t = 1; starts on it and leaves at t = 0.
        check(&point(v(1.0, -1.0), v(1.0, 0.0)), &right, &[[1.0, 1.0]]);
        check(&point(v(1.0, 0.0), v(1.0, 1.0)), &right, &[[0.0, 0.0]]);
        // "Raise": one endpoint fixed, the other moving up through the point's line.
        let raise = seg(still(v(0.0, 0.0)), [v(2.0, -2.0), v(2.0, 2.0)]);
        check(&point(v(1.0, 0.0), v(1.0, 0.0)), &raise, &[[0.5, 0.5]]);
        // A segment turning about its centre crossed twice by a moving point.
        let turning = seg([v(-4.0, 0.0), v(0.0, -4.0)], [v(4.0, 0.0), v(0.0, 4.0)]);
        check(
            &point(v(3.25, 0.75), v(-0.75, 0.75)),
            &turning,
            &[[0.25, 0.25], [0.75, 0.75]],
        );
        // Quadratic cross with a non-dyadic rational root: b = (2 - 2t, 2t), p = (1/2, 3t - 1)
        // gives -6t^2 + 7t - 2 = 0 at t = 1/2 (p = b / 2) and t = 2/3 (p = 3b / 4).
        let sweeping = seg(still(Vec2::ZERO), [v(2.0, 0.0), v(0.0, 2.0)]);
        check(
            &point(v(0.5, -1.0), v(0.5, 2.0)),
            &sweeping,
            &[[0.5, 0.5], [2.0 / 3.0, 2.0 / 3.0]],
        );
        // A segment collapsing to the origin at t = 1/2 and flipping: always contains the
        // origin; contains (1/2, 0) while |1 - 2t| >= 1/2; the point crossing its line at the
        // collapse still touches it.
        let collapsing = seg([v(-1.0, 0.0), v(1.0, 0.0)], [v(1.0, 0.0), v(-1.0, 0.0)]);
        check(&point(Vec2::ZERO, Vec2::ZERO), &collapsing, &[[0.0, 1.0]]);
        check(
            &point(v(0.5, 0.0), v(0.5, 0.0)),
            &collapsing,
            &[[0.0, 0.25], [0.75, 1.0]],
        );
        check(
            &point(v(0.0, -1.0), v(0.0, 1.0)),
            &collapsing,
            &[[0.5, 0.5]],
        );
        check(&point(v(0.0, 1.0), v(0.0, 1.0)), &collapsing, &[]);
        // A zero-length segment for the whole step is a point.
        let dot = still_seg(v(1.0, 1.0), v(1.0, 1.0));
        check(&point(v(0.0, 0.0), v(2.0, 2.0)), &dot, &[[0.5, 0.5]]);
        check(&point(v(0.0, 0.0), v(2.0, 2.1)), &dot, &[]);
    }

    #[test]
    fn point_circle() {
        let c = unit_circle();
        check(&point(v(-5.0, 0.0), v(5.0, 0.0)), &c, &[[0.4, 0.6]]);
        // Tangent graze; missing it by one ulp.
        check(&point(v(-5.0, 1.0), v(5.0, 1.0)), &c, &[[0.5, 0.5]]);
        let y = 1.0f32.next_up();
        check(&point(v(-5.0, y), v(5.0, y)), &c, &[]);
        // Irrational: x = -2 + 4t, x^2 <= 3/4.
        let r = 0.75f64.sqrt();
        check(
            &point(v(-2.0, 0.5), v(2.0, 0.5)),
            &c,
            &[[(2.0 - r) / 4.0, (2.0 + r) / 4.0]],
        );
        // The circle arrives at a still point at t = 1; a point leaves the rim at t = 0.
        check(
            &circle(v(-3.0, 0.0), v(-1.0, 0.0), 1.0),
            &point(Vec2::ZERO, Vec2::ZERO),
            &[[1.0, 1.0]],
        );
        check(&point(v(1.0, 0.0), v(2.0, 0.0)), &c, &[[0.0, 0.0]]);
        check(&point(v(0.5, 0.0), v(-0.5, 0.0)), &c, &[[0.0, 1.0]]);
    }

    #[test]
    fn point_box() {
        let b = unit_box();
        check(&point(v(-5.0, 0.0), v(15.0, 0.0)), &b, &[[0.2, 0.3]]);
        // Along the top edge.
        check(
            &point(v(-3.0, 1.0), v(3.0, 1.0)),
            &b,
            &[[1.0 / 3.0, 2.0 / 3.0]],
        );
        // Touching the corner (1, 1) only.
        check(&point(v(0.0, 2.0), v(2.0, 0.0)), &b, &[[0.5, 0.5]]);
        // Leaving the edge at t = 0; leaving the inside.
        check(&point(v(1.0, 0.0), v(2.0, 0.0)), &b, &[[0.0, 0.0]]);
        check(&point(v(0.0, 0.0), v(4.0, 0.0)), &b, &[[0.0, 0.25]]);
        // A moving flat box over a still point: |3 - 6t| <= 1/2.
        check(
            &aabb(v(0.0, 3.0), v(0.0, -3.0), v(1.0, 0.5)),
            &point(Vec2::ZERO, Vec2::ZERO),
            &[[5.0 / 12.0, 7.0 / 12.0]],
        );
    }

    #[test]
    fn segment_segment() {
        // A vertical segment sweeping over a horizontal one.
        let horizontal = still_seg(v(-1.0, 0.0), v(1.0, 0.0));
        let sweeping = seg([v(-2.0, -1.0), v(2.0, -1.0)], [v(-2.0, 1.0), v(2.0, 1.0)]);
        check(&sweeping, &horizontal, &[[0.25, 0.75]]);
        // Parallel, meeting along their length for an instant.
        let falling = seg([v(0.0, 1.0), v(0.0, -1.0)], [v(1.0, 1.0), v(1.0, -1.0)]);
        check(
            &falling,
            &still_seg(v(0.0, 0.0), v(1.0, 0.0)),
            &[[0.5, 0.5]],
        );
        // Collinear sliding.
        let sliding = seg([v(0.0, 0.0), v(4.0, 0.0)], [v(1.0, 0.0), v(5.0, 0.0)]);
        check(
            &sliding,
            &still_seg(v(2.0, 0.0), v(3.0, 0.0)),
            &[[0.25, 0.75]],
        );
        // Endpoint meets endpoint for an instant (not parallel).
        let passing = seg([v(-1.0, 1.0), v(1.0, -1.0)], [v(-2.0, 1.0), v(0.0, -1.0)]);
        check(
            &passing,
            &still_seg(v(0.0, 0.0), v(1.0, 1.0)),
            &[[0.5, 0.5]],
        );
        // Collapsing segment against x = 1/2.
        let collapsing = seg([v(-1.0, 0.0), v(1.0, 0.0)], [v(1.0, 0.0), v(-1.0, 0.0)]);
        check(
            &collapsing,
            &still_seg(v(0.5, -1.0), v(0.5, 1.0)),
            &[[0.0, 0.25], [0.75, 1.0]],
        );
        // Two zero-length segments passing through each other.
        let dot = seg([v(0.0, 0.0), v(2.0, 2.0)], [v(0.0, 0.0), v(2.0, 2.0)]);
        check(&dot, &still_seg(v(1.0, 1.0), v(1.0, 1.0)), &[[0.5, 0.5]]);
        // Leaving at t = 0, arriving at t = 1.
        let leaving = seg([v(0.0, 0.0), v(0.0, 1.0)], [v(0.0, 1.0), v(0.0, 2.0)]);
        check(&leaving, &horizontal, &[[0.0, 0.0]]);
        let arriving = seg([v(0.0, 3.0), v(0.0, 1.0)], [v(0.0, 2.0), v(0.0, 0.0)]);
        check(&arriving, &horizontal, &[[1.0, 1.0]]);
        // Crossing X for the whole step.
        check(
            &still_seg(v(-1.0, -1.0), v(1.0, 1.0)),
            &seg([v(-1.0, 1.0), v(-1.0, 1.0)], [v(1.0, -1.0), v(1.0, -1.0)]),
            &[[0.0, 1.0]],
        );
    }

    #[test]
    fn segment_circle() {
        let c = unit_circle();
        // A circle falling through a still segment: |3 - 6t| <= 1.
        check(
            &circle(v(0.0, 3.0), v(0.0, -3.0), 1.0),
            &still_seg(v(-1.0, 0.0), v(1.0, 0.0)),
            &[[1.0 / 3.0, 2.0 / 3.0]],
        );
        // Interior tangent graze of a turning segment: a = (-2 + u, 1 + u), b = (2 + u,
        // 1 - u), u = t - 1/2, gives cross^2 - |b - a|^2 = 12 u^2 + 4 u^4 (double root).
        let turning = seg([v(-2.5, 0.5), v(-1.5, 1.5)], [v(1.5, 1.5), v(2.5, 0.5)]);
        check(&turning, &c, &[[0.5, 0.5]]);
        // Lifted by 2^-20: no contact.
        let e = 1.0 / 1_048_576.0;
        let lifted = seg(
            [v(-2.5, 0.5 + e), v(-1.5, 1.5 + e)],
            [v(1.5, 1.5 + e), v(2.5, 0.5 + e)],
        );
        check(&lifted, &c, &[]);
        // Graze at an endpoint.
        check(
            &circle(v(-5.0, 1.0), v(5.0, 1.0), 1.0),
            &still_seg(v(0.0, -1.0), v(0.0, 0.0)),
            &[[0.5, 0.5]],
        );
        // A zero-length segment grazing the circle; a segment collapsing on the rim.
        check(
            &seg([v(-5.0, 1.0), v(5.0, 1.0)], [v(-5.0, 1.0), v(5.0, 1.0)]),
            &c,
            &[[0.5, 0.5]],
        );
        let collapsing = seg([v(1.0, -1.0), v(1.0, 1.0)], [v(1.0, 1.0), v(1.0, -1.0)]);
        check(&collapsing, &c, &[[0.0, 1.0]]);
        // A unit segment at y = 1/2 sliding through: irrational entry and exit.
        let r = 0.75f64.sqrt();
        check(
            &seg([v(-6.0, 0.5), v(4.0, 0.5)], [v(-5.0, 0.5), v(5.0, 0.5)]),
            &c,
            &[[(5.0 - r) / 10.0, (6.0 + r) / 10.0]],
        );
        // Arriving on the top of the circle at t = 1.
        check(
            &seg([v(-1.0, 3.0), v(-1.0, 1.0)], [v(1.0, 3.0), v(1.0, 1.0)]),
            &c,
            &[[1.0, 1.0]],
        );
    }

    #[test]
    fn segment_box() {
        let b = unit_box();
        // Sliding over the top edge for the whole step.
        check(
            &seg([v(-3.0, 1.0), v(-2.0, 1.0)], [v(3.0, 1.0), v(4.0, 1.0)]),
            &b,
            &[[0.0, 1.0]],
        );
        // Falling onto and into the box: y = 3 - 4t in [-1, 1].
        check(
            &seg([v(-0.5, 3.0), v(-0.5, -1.0)], [v(0.5, 3.0), v(0.5, -1.0)]),
            &b,
            &[[0.5, 1.0]],
        );
        // Turning about (0, 3) down onto the corner (1, 1), reached exactly at t = 1.
        check(
            &seg(still(v(0.0, 3.0)), [v(3.0, 3.0), v(3.0, -3.0)]),
            &b,
            &[[1.0, 1.0]],
        );
        // Diagonal touching the corner at t = 0 and moving away.
        check(
            &seg([v(-1.0, 3.0), v(0.0, 4.0)], [v(3.0, -1.0), v(4.0, 0.0)]),
            &b,
            &[[0.0, 0.0]],
        );
        // Diagonal crossing with both endpoints outside: x + y = -3 + 6t in [-2, 2].
        check(
            &seg([v(-3.0, 0.0), v(0.0, 3.0)], [v(0.0, -3.0), v(3.0, 0.0)]),
            &b,
            &[[1.0 / 6.0, 5.0 / 6.0]],
        );
        // A zero-length segment through the box.
        check(
            &seg([v(-5.0, 0.0), v(15.0, 0.0)], [v(-5.0, 0.0), v(15.0, 0.0)]),
            &b,
            &[[0.2, 0.3]],
        );
        // Passing beside the corner: x + y = 2 + 1/1024 never reaches it.
        let e = 1.0 / 1024.0;
        check(
            &seg(
                [v(-1.0, 3.0 + e), v(-1.0, 3.0 + e)],
                [v(3.0, -1.0 + e), v(3.0, -1.0 + e)],
            ),
            &b,
            &[],
        );
    }

    #[test]
    fn circle_circle() {
        let c = unit_circle();
        check(&circle(v(-5.0, 0.0), v(5.0, 0.0), 1.0), &c, &[[0.3, 0.7]]);
        check(&circle(v(-5.0, 2.0), v(5.0, 2.0), 1.0), &c, &[[0.5, 0.5]]);
        check(&circle(v(-5.0, 0.0), v(-2.0, 0.0), 1.0), &c, &[[1.0, 1.0]]);
        check(&circle(v(2.0, 0.0), v(4.0, 0.0), 1.0), &c, &[[0.0, 0.0]]);
        let moving = circle(v(0.0, 0.0), v(3.0, 3.0), 1.0);
        check(
            &moving,
            &circle(v(1.0, 0.0), v(4.0, 3.0), 0.5),
            &[[0.0, 1.0]],
        );
        // |x| <= sqrt(3) with x = -5 + 10t; radii 1/2 and 3/2.
        let s = 3f64.sqrt();
        check(
            &circle(v(-5.0, 1.0), v(5.0, 1.0), 0.5),
            &circle(Vec2::ZERO, Vec2::ZERO, 1.5),
            &[[(5.0 - s) / 10.0, (5.0 + s) / 10.0]],
        );
    }

    #[test]
    fn circle_box() {
        let b = unit_box();
        check(&circle(v(-5.0, 0.0), v(5.0, 0.0), 1.0), &b, &[[0.3, 0.7]]);
        // Passing at y = 1.5: corners give |x| <= 1 + sqrt(3/4).
        let w = 1.0 + 0.75f64.sqrt();
        check(
            &circle(v(-5.0, 1.5), v(5.0, 1.5), 1.0),
            &b,
            &[[(5.0 - w) / 10.0, (5.0 + w) / 10.0]],
        );
        // Tangent to the rounded corner at (5, 5) + (3, 4): centre (8, 9) at t = 1/2.
        check(
            &circle(v(4.0, 12.0), v(12.0, 6.0), 5.0),
            &aabb(Vec2::ZERO, Vec2::ZERO, v(5.0, 5.0)),
            &[[0.5, 0.5]],
        );
        // Rolling on the top face; leaving the side face at t = 0.
        check(&circle(v(-0.5, 2.0), v(0.5, 2.0), 1.0), &b, &[[0.0, 1.0]]);
        check(&circle(v(2.0, 0.0), v(3.0, 0.0), 1.0), &b, &[[0.0, 0.0]]);
        // Corner-on approach along the diagonal: |c - (1, 1)| <= 1 with c = (s, s),
        // s = 4 - 4t: s = 1 + sqrt(1/2).
        let s = 1.0 + 0.5f64.sqrt();
        check(
            &circle(v(4.0, 4.0), v(0.0, 0.0), 1.0),
            &b,
            &[[(4.0 - s) / 4.0, 1.0]],
        );
    }

    #[test]
    fn box_box() {
        let b = unit_box();
        check(
            &aabb(v(-5.0, 0.0), v(5.0, 0.0), Vec2::ONE),
            &b,
            &[[0.3, 0.7]],
        );
        check(
            &aabb(v(1.0, 3.0), v(3.0, 1.0), Vec2::ONE),
            &b,
            &[[0.5, 0.5]],
        );
        check(
            &aabb(v(-1.0, 2.0), v(1.0, 2.0), Vec2::ONE),
            &b,
            &[[0.0, 1.0]],
        );
        check(
            &aabb(v(-5.0, 0.0), v(-2.0, 0.0), Vec2::ONE),
            &b,
            &[[1.0, 1.0]],
        );
        check(
            &aabb(v(-4.0, 2.25), v(4.0, 2.25), v(0.5, 2.0)),
            &aabb(Vec2::ZERO, Vec2::ZERO, v(1.5, 0.25)),
            &[[0.25, 0.75]],
        );
        check(&aabb(v(-4.0, 2.5), v(4.0, 2.5), Vec2::ONE), &b, &[]);
    }

    // -----------------------------------------------------------------------------------
    // Random pairs: symmetry, shape of the output, and an independent f64 sanity check.
    // -----------------------------------------------------------------------------------

    /// `SplitMix64`.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        /// A multiple of 1/2 in [-3, 3], or a fully random value there (1 in 4).
        fn coord(&mut self) -> f32 {
            if self.below(4) == 0 {
                (self.next() >> 40) as f32 / (1u64 << 24) as f32 * 6.0 - 3.0
            } else {
                self.below(13) as f32 * 0.5 - 3.0
            }
        }

        fn point(&mut self) -> Vec2 {
            Vec2::new(self.coord(), self.coord())
        }

        /// Still (1 in 4) or moving.
        fn motion(&mut self) -> [Vec2; 2] {
            let p = self.point();
            if self.below(4) == 0 {
                [p, p]
            } else {
                [p, self.point()]
            }
        }

        fn size(&mut self) -> f32 {
            [0.5, 1.0, 1.5][self.below(3) as usize]
        }

        fn path(&mut self, kind: usize) -> Path {
            match kind {
                0 => Path::Point(self.motion()),
                1 => {
                    let a = self.motion();
                    // Sometimes share an endpoint motion, or collapse.
                    let b = match self.below(6) {
                        0 => a,
                        1 => [a[1], a[0]],
                        _ => self.motion(),
                    };
                    Path::Segment { a, b }
                }
                2 => Path::Circle {
                    center: self.motion(),
                    radius: self.size(),
                },
                _ => Path::Aabb {
                    center: self.motion(),
                    half_extents: Vec2::new(self.size(), self.size()),
                },
            }
        }
    }

    /// A shape at one time, in `f64`.
    enum Placed {
        Point(DVec2),
        Segment(DVec2, DVec2),
        Disk(DVec2, f64),
        Rect(DVec2, DVec2),
    }

    fn lerp(p: [Vec2; 2], t: f64) -> DVec2 {
        let (a, b) = (p[0].as_dvec2(), p[1].as_dvec2());
        a + (b - a) * t
    }

    fn place(path: &Path, t: f64) -> Placed {
        match *path {
            Path::Point(p) => Placed::Point(lerp(p, t)),
            Path::Segment { a, b } => Placed::Segment(lerp(a, t), lerp(b, t)),
            Path::Circle { center, radius } => Placed::Disk(lerp(center, t), f64::from(radius)),
            Path::Aabb {
                center,
                half_extents,
            } => Placed::Rect(lerp(center, t), half_extents.as_dvec2()),
        }
    }

    fn point_segment_distance(p: DVec2, a: DVec2, b: DVec2) -> f64 {
        let d = b - a;
        let s = if d.length_squared() > 0.0 {
            ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        p.distance(a + d * s)
    }

    /// Distance from a point to a placed shape, and how deep inside it the point is
    /// (negative or zero when not strictly inside a disk or box).
    fn distance_depth(p: DVec2, s: &Placed) -> (f64, f64) {
        match *s {
            Placed::Point(o) => (p.distance(o), 0.0),
            Placed::Segment(a, b) => (point_segment_distance(p, a, b), 0.0),
            Placed::Disk(c, r) => {
                let d = p.distance(c) - r;
                (d.max(0.0), -d)
            }
            Placed::Rect(c, h) => {
                let d = (p - c).abs() - h;
                (d.max(DVec2::ZERO).length(), -d.max_element())
            }
        }
    }

    /// Points on the shape's boundary (all of a point or segment), and a bound on the
    /// distance from any boundary point to the nearest of them.
    fn boundary_samples(s: &Placed, n: usize) -> (Vec<DVec2>, f64) {
        let along = |a: DVec2, b: DVec2| (0..=n).map(move |k| a.lerp(b, k as f64 / n as f64));
        match *s {
            Placed::Point(p) => (vec![p], 0.0),
            Placed::Segment(a, b) => (along(a, b).collect(), a.distance(b) / (2 * n) as f64),
            Placed::Disk(c, r) => {
                let step = std::f64::consts::TAU / n as f64;
                let pts = (0..n)
                    .map(|k| c + r * DVec2::from_angle(k as f64 * step))
                    .collect();
                (pts, r * step)
            }
            Placed::Rect(c, h) => {
                let k = [
                    c + DVec2::new(-h.x, -h.y),
                    c + DVec2::new(h.x, -h.y),
                    c + DVec2::new(h.x, h.y),
                    c + DVec2::new(-h.x, h.y),
                ];
                let pts = (0..4).flat_map(|i| along(k[i], k[(i + 1) % 4])).collect();
                (pts, h.max_element() / n as f64)
            }
        }
    }

    /// Checks one time against the intervals, with sampled geometry.
    ///
    /// Sampled distance `est` satisfies `d <= est <= d + cover` for the true distance `d`
    /// (disjoint convex sets are closest on their boundaries; intersecting ones have a
    /// boundary point of one inside the other). So `est > cover + margin` proves no
    /// contact, and a sample strictly inside the other shape proves contact.
    fn sanity_at(a: &Path, b: &Path, got: &[[f64; 2]], t: f64) {
        let (pa, pb) = (place(a, t), place(b, t));
        let mut est = f64::INFINITY;
        let mut depth = f64::NEG_INFINITY;
        let mut cover: f64 = 0.0;
        for (from, to) in [(&pa, &pb), (&pb, &pa)] {
            let (samples, c) = boundary_samples(from, 200);
            cover = cover.max(c);
            for s in samples {
                let (d, k) = distance_depth(s, to);
                est = est.min(d);
                depth = depth.max(k);
            }
        }
        let near = |slack: f64| got.iter().any(|i| i[0] - slack <= t && t <= i[1] + slack);
        if est > cover + 1e-6 {
            assert!(
                !near(1e-9),
                "{a:?} vs {b:?}: apart by {est} at t = {t}, got {got:?}"
            );
        }
        if depth > 1e-6 {
            assert!(
                near(1e-9),
                "{a:?} vs {b:?}: overlap {depth} at t = {t}, got {got:?}"
            );
        }
        if near(0.0) {
            assert!(
                est <= cover + 1e-9,
                "{a:?} vs {b:?}: in contact at t = {t} but {est} apart"
            );
        }
    }

    #[test]
    fn random_pairs_symmetric_and_sane() {
        let mut rng = Rng(0x5eed_0b5e_55ed);
        let mut slowest = 0.0f64;
        for ka in 0..4 {
            for kb in ka..4 {
                for _ in 0..30 {
                    let (a, b) = (rng.path(ka), rng.path(kb));
                    let clock = Instant::now();
                    let got = contact_intervals(&a, &b);
                    slowest = slowest.max(clock.elapsed().as_secs_f64());
                    let back = contact_intervals(&b, &a);
                    assert_eq!(got.len(), back.len(), "{a:?} vs {b:?}: {got:?} / {back:?}");
                    for (x, y) in got.iter().zip(&back) {
                        assert!((x[0] - y[0]).abs() < 1e-12 && (x[1] - y[1]).abs() < 1e-12);
                    }
                    for (k, i) in got.iter().enumerate() {
                        assert!(0.0 <= i[0] && i[0] <= i[1] && i[1] <= 1.0, "{got:?}");
                        if k > 0 {
                            assert!(got[k - 1][1] < i[0], "{got:?}");
                        }
                    }
                    let times = (0..=100)
                        .map(|k| f64::from(k) / 100.0)
                        .chain(got.iter().flat_map(|i| [i[0], 0.5 * (i[0] + i[1]), i[1]]));
                    for t in times {
                        sanity_at(&a, &b, &got, t);
                    }
                }
            }
        }
        assert!(slowest < 0.5, "slowest oracle call took {slowest} s");
    }

    // -----------------------------------------------------------------------------------
    // Rounded convex polygons
    // -----------------------------------------------------------------------------------

    /// A shape for [`convex_contact_intervals`]: vertex motions and radius.
    type Convex = (Vec<[Vec2; 2]>, f32);

    /// The polygon `vertices` translated by `from` at t = 0 and by `to` at t = 1.
    fn translating(vertices: &[Vec2], from: Vec2, to: Vec2, radius: f32) -> Convex {
        (
            vertices.iter().map(|&p| [p + from, p + to]).collect(),
            radius,
        )
    }

    fn still_convex(vertices: &[Vec2], radius: f32) -> Convex {
        translating(vertices, Vec2::ZERO, Vec2::ZERO, radius)
    }

    /// Vertex `k` moves from `start[k]` to `end[k]`.
    fn between(start: &[Vec2], end: &[Vec2], radius: f32) -> Convex {
        let motions = start.iter().zip(end).map(|(&p, &q)| [p, q]).collect();
        (motions, radius)
    }

    fn convex(a: &Convex, b: &Convex) -> Vec<[f64; 2]> {
        convex_contact_intervals(&a.0, a.1, &b.0, b.1)
    }

    fn reversed(a: &Convex) -> Convex {
        (a.0.iter().rev().copied().collect(), a.1)
    }

    fn close(got: &[[f64; 2]], want: &[[f64; 2]], tolerance: f64) -> bool {
        got.len() == want.len()
            && got
                .iter()
                .zip(want)
                .all(|(g, w)| (g[0] - w[0]).abs() <= tolerance && (g[1] - w[1]).abs() <= tolerance)
    }

    /// Checks both argument orders and both windings against hand-computed intervals.
    #[track_caller]
    fn check_convex(a: &Convex, b: &Convex, expected: &[[f64; 2]], tolerance: f64) {
        for (x, y) in [(a, b), (b, a)] {
            for (x, y) in [(x.clone(), y.clone()), (reversed(x), reversed(y))] {
                let got = convex(&x, &y);
                assert!(
                    close(&got, expected, tolerance),
                    "{x:?} vs {y:?}:\n   got {got:?}\n  want {expected:?}"
                );
            }
        }
    }

    /// The square `[0, 1]^2`, counter-clockwise.
    fn unit_square() -> Vec<Vec2> {
        vec![v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)]
    }

    #[test]
    fn convex_square_into_square() {
        // B = [0, 1] x [1/2, 3/2], still. A = [-3, -2] x [0, 1] moving right by 5: its x range
        // is [-3 + 5t, -2 + 5t]; the y ranges overlap, so contact iff -2 + 5t >= 0 and
        // -3 + 5t <= 1: t in [2/5, 4/5].
        let square = unit_square();
        let b = translating(&square, v(0.0, 0.5), v(0.0, 0.5), 0.0);
        let a = translating(&square, v(-3.0, 0.0), v(2.0, 0.0), 0.0);
        check_convex(&a, &b, &[[0.4, 0.8]], 1e-12);
        // Stopping half inside: -2 + 5t/2 >= 0 from t = 4/5 to the end.
        let stopping = translating(&square, v(-3.0, 0.0), v(-0.5, 0.0), 0.0);
        check_convex(&stopping, &b, &[[0.8, 1.0]], 1e-12);
        // Radii 1/4 + 1/4: the gap -(-2 + 5t), or -3 + 5t - 1, at most 1/2: t in [3/10, 9/10].
        let (ra, rb) = ((a.0.clone(), 0.25), (b.0.clone(), 0.25));
        check_convex(&ra, &rb, &[[0.3, 0.9]], 1e-12);
        // Passing above B by 1/2 + 2^-20 (y ranges [2 + 2^-20, 3 + 2^-20] and [1/2, 3/2]):
        // never touching; with radii 1/4 + 1/4 they touch only if the gap is <= 1/2.
        let e = 1.0 / 1_048_576.0;
        let above = translating(&square, v(-3.0, 2.0 + e), v(2.0, 2.0 + e), 0.25);
        check_convex(&above, &b, &[], 1e-12);
        check_convex(&above, &rb, &[], 1e-12);
        // Passing exactly 1/2 above with radii 1/4 + 1/4: touching while the x ranges
        // overlap (beyond them the distance is sqrt(g^2 + 1/4) > 1/2 for an x gap g > 0).
        let grazing = translating(&square, v(-3.0, 2.0), v(2.0, 2.0), 0.25);
        check_convex(&grazing, &rb, &[[0.4, 0.8]], 1e-12);
    }

    #[test]
    fn convex_point_through_triangle() {
        // Triangle x >= 0, y >= 0, x + y <= 4; the point (-1 + 6t, 1) is inside for
        // 0 <= -1 + 6t <= 3: t in [1/6, 2/3].
        let triangle = still_convex(&[v(0.0, 0.0), v(4.0, 0.0), v(0.0, 4.0)], 0.0);
        let point = between(&[v(-1.0, 1.0)], &[v(5.0, 1.0)], 0.0);
        check_convex(&point, &triangle, &[[1.0 / 6.0, 2.0 / 3.0]], 1e-12);
        // Through the vertex (4, 0) only, at t = 1/2; beside it by 2^-20.
        let through = between(&[v(4.0, -1.0)], &[v(4.0, 1.0)], 0.0);
        check_convex(&through, &triangle, &[[0.5, 0.5]], 1e-12);
        let x = 4.0 + 1.0 / 1_048_576.0;
        let beside = between(&[v(x, -1.0)], &[v(x, 1.0)], 0.0);
        check_convex(&beside, &triangle, &[], 1e-12);
    }

    #[test]
    fn convex_star_of_david() {
        // A = (0, 2), (-2, -1), (2, -1); B = -A. Still, they form a star: every vertex is
        // outside the other triangle (B's (2, 1) is right of A's side x = 2 - 2 (y + 1) / 3,
        // which is at x = 2/3 for y = 1; (0, -2) is below A's base y = -1; A's by symmetry),
        // and only their sides cross.
        let a_vertices = [v(0.0, 2.0), v(-2.0, -1.0), v(2.0, -1.0)];
        let b_vertices = [v(0.0, -2.0), v(2.0, 1.0), v(-2.0, 1.0)];
        let a = still_convex(&a_vertices, 0.0);
        check_convex(&a, &still_convex(&b_vertices, 0.0), &[[0.0, 1.0]], 1e-12);
        // The premise: the vertex tests alone find nothing.
        let scale = Scale::new(&[]);
        let core = |vs: &[Vec2]| -> Vec<PVec> {
            vs.iter().map(|&p| PVec::moving([p, p], &scale)).collect()
        };
        let (ca, cb) = (core(&a_vertices), core(&b_vertices));
        let vertices_only = Formula::Any(
            cb.iter()
                .map(|p| point_polygon_formula(p, &ca))
                .chain(ca.iter().map(|p| point_polygon_formula(p, &cb)))
                .collect(),
        );
        assert!(contact_set(&vertices_only).is_empty());
        // B sliding through A by h = -4 + 8t: they meet iff (h, 0) is in A - B = A + A = 2A,
        // the triangle (0, 4), (-4, -2), (4, -2), whose side x = 4 - 2 (y + 2) / 3 is at
        // x = 8/3 for y = 0: |-4 + 8t| <= 8/3, t in [1/6, 5/6], a star at t = 1/2.
        let b = translating(&b_vertices, v(-4.0, 0.0), v(4.0, 0.0), 0.0);
        check_convex(&a, &b, &[[1.0 / 6.0, 5.0 / 6.0]], 1e-12);
    }

    #[test]
    fn convex_rotating_square_grazes_a_point() {
        // The square |x| + |y| <= 5 turned by the rotation (3/5, 4/5): each vertex moves
        // linearly, so at t the square is M D with M = [[a, -b], [b, a]], a = 1 - 2t/5,
        // b = 4t/5 (a turning, shrinking square: convex at every t). P = (4, 2) is in it iff
        // |x'| + |y'| <= 5 for (x', y') = M^-1 P = (4a + 2b, 2a - 4b) / (a^2 + b^2)
        // = (4, 2 - 4t) / (a^2 + b^2), i.e. 4 + |2 - 4t| <= 5 - 4t + 4t^2, i.e. with
        // u = t - 1/2: |u| <= u^2, only u = 0: the corner (5 - 2t, 4t) passes through P at
        // t = 1/2.
        let start = [v(5.0, 0.0), v(0.0, 5.0), v(-5.0, 0.0), v(0.0, -5.0)];
        let end = [v(3.0, 4.0), v(-4.0, 3.0), v(-3.0, -4.0), v(4.0, -3.0)];
        let square = between(&start, &end, 0.0);
        check_convex(
            &square,
            &still_convex(&[v(4.0, 2.0)], 0.0),
            &[[0.5, 0.5]],
            1e-12,
        );
        // Beyond the corner by 2^-10: missed.
        let beyond = still_convex(&[v(4.0 + 1.0 / 1024.0, 2.0)], 0.0);
        check_convex(&square, &beyond, &[], 1e-12);
    }

    #[test]
    fn convex_rounded_square_reaches_a_point() {
        // The square [-1, 1]^2 with radius 1, centre (-5 + 5t, 0) (stopping at the origin).
        let core = [v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)];
        let rounded = |radius| translating(&core, v(-5.0, 0.0), Vec2::ZERO, radius);
        // The point (0, 1/2) faces the right side: distance 4 - 5t <= 1 from t = 3/5 on.
        let face = still_convex(&[v(0.0, 0.5)], 0.0);
        check_convex(&rounded(1.0), &face, &[[0.6, 1.0]], 1e-12);
        // The point (0, 3/2) meets the rounded corner (1, 1) first: (4 - 5t)^2 + 1/4 <= 1,
        // t >= (4 - sqrt(3/4)) / 5 (where 5 - 5t = 1 + sqrt(3/4) > 1, so beyond the side).
        let corner = still_convex(&[v(0.0, 1.5)], 0.0);
        let t = (4.0 - 0.75f64.sqrt()) / 5.0;
        check_convex(&rounded(1.0), &corner, &[[t, 1.0]], 1e-9);
        // The same with the radius split 1/2 + 1/2 between the shapes; with none, the bare
        // square never reaches (0, 3/2).
        let half = still_convex(&[v(0.0, 1.5)], 0.5);
        check_convex(&rounded(0.5), &half, &[[t, 1.0]], 1e-9);
        check_convex(&rounded(0.0), &corner, &[], 1e-12);
    }

    #[test]
    fn convex_radius_sum_is_exact() {
        // 0.1f32 + 0.2f32 rounds in f32; the oracle adds them exactly (in f64 the sum of
        // these two 24-bit significands is exact), and the time error of the rounded sum,
        // about 4e-9, is far above the tolerance. A point (-1 + 2t, 0) with radius 0.1f32
        // against the origin with radius 0.2f32: |-1 + 2t| <= r, t in [(1 - r)/2, (1 + r)/2].
        let r = f64::from(0.1f32) + f64::from(0.2f32);
        assert_ne!(
            f64::from(0.1f32 + 0.2f32),
            r,
            "the test needs a rounded f32 sum"
        );
        let moving = between(&[v(-1.0, 0.0)], &[v(1.0, 0.0)], 0.1);
        let origin = still_convex(&[Vec2::ZERO], 0.2);
        check_convex(
            &moving,
            &origin,
            &[[(1.0 - r) / 2.0, (1.0 + r) / 2.0]],
            1e-12,
        );
    }

    #[test]
    fn convex_degenerate_cores() {
        // A polygon with a repeated vertex, and a triangle collapsing to the segment
        // [(0, 0), (2, 0)] at t = 1/2 (its third vertex (1, 1 - 2t) crosses that line): the
        // point (1, -1/2) is inside for 1 - 2t <= -1/2, from t = 3/4 on.
        let repeated = still_convex(&[v(0.0, 0.0), v(4.0, 0.0), v(4.0, 0.0), v(0.0, 4.0)], 0.0);
        let point = between(&[v(-1.0, 1.0)], &[v(5.0, 1.0)], 0.0);
        check_convex(&point, &repeated, &[[1.0 / 6.0, 2.0 / 3.0]], 1e-12);
        let flipping = between(
            &[v(0.0, 0.0), v(2.0, 0.0), v(1.0, 1.0)],
            &[v(0.0, 0.0), v(2.0, 0.0), v(1.0, -1.0)],
            0.0,
        );
        let below = still_convex(&[v(1.0, -0.5)], 0.0);
        check_convex(&flipping, &below, &[[0.75, 1.0]], 1e-12);
        // A point off the collapsed triangle's line is never "inside" it at t = 1/2; a point
        // on its segment is touched then only: (1, -1/2 + t) reaches (1, 0) at t = 1/2,
        // while the apex (1, 1 - 2t) is above it before and below it after.
        let rising = between(&[v(1.0, -0.5)], &[v(1.0, 0.5)], 0.0);
        check_convex(&flipping, &rising, &[[0.5, 0.5]], 1e-12);
        // A polygon with all its vertices at one point is that point.
        let dot = still_convex(&[v(1.0, 1.0); 3], 0.0);
        check_convex(
            &dot,
            &between(&[v(0.0, 0.0)], &[v(2.0, 2.0)], 0.0),
            &[[0.5, 0.5]],
            1e-12,
        );
        check_convex(&dot, &still_convex(&[v(3.0, 3.0)], 0.0), &[], 1e-12);
    }

    #[test]
    #[should_panic(expected = "non-negative")]
    fn convex_negative_radius_panics() {
        convex_contact_intervals(&[still(Vec2::ZERO)], -1.0, &[still(Vec2::ONE)], 0.0);
    }

    #[test]
    #[should_panic(expected = "at least one vertex")]
    fn convex_empty_shape_panics() {
        convex_contact_intervals(&[], 0.0, &[still(Vec2::ONE)], 0.0);
    }

    #[test]
    #[should_panic(expected = "finite")]
    fn convex_non_finite_input_panics() {
        convex_contact_intervals(&[still(v(f32::NAN, 0.0))], 0.0, &[still(Vec2::ONE)], 0.0);
    }

    /// An old path as a rounded convex polygon: a point, a segment, a circle (a point with
    /// a radius) or a box (its four corners, which must be exact in `f32`).
    fn as_convex(path: &Path) -> Convex {
        match *path {
            Path::Point(p) => (vec![p], 0.0),
            Path::Segment { a, b } => (vec![a, b], 0.0),
            Path::Circle { center, radius } => (vec![center], radius),
            Path::Aabb {
                center,
                half_extents: h,
            } => {
                let corners = [v(-h.x, -h.y), v(h.x, -h.y), v(h.x, h.y), v(-h.x, h.y)];
                let motions = corners
                    .iter()
                    .map(|&k| {
                        center.map(|c| {
                            let p = c + k;
                            assert!(
                                p.as_dvec2() == c.as_dvec2() + k.as_dvec2(),
                                "a corner must be exact"
                            );
                            p
                        })
                    })
                    .collect();
                (motions, 0.0)
            }
        }
    }

    /// The same intervals from [`contact_intervals`] and [`convex_contact_intervals`], in
    /// both argument orders; where just one shape has a radius, also with the radius moved
    /// to the other shape (the distance between the cores is what counts).
    #[track_caller]
    fn check_against_paths(a: &Path, b: &Path) {
        let want = contact_intervals(a, b);
        let (ca, cb) = (as_convex(a), as_convex(b));
        let mut pairs = vec![(ca.clone(), cb.clone())];
        if (ca.1 == 0.0) != (cb.1 == 0.0) {
            let r = ca.1 + cb.1;
            pairs.push(((ca.0.clone(), r), (cb.0.clone(), 0.0)));
            pairs.push(((ca.0.clone(), 0.0), (cb.0.clone(), r)));
        }
        for (x, y) in pairs {
            for (x, y) in [(&x, &y), (&y, &x)] {
                let got = convex(x, y);
                assert!(
                    close(&got, &want, 1e-12),
                    "{a:?} vs {b:?} as {x:?} vs {y:?}:\n   got {got:?}\n  want {want:?}"
                );
            }
        }
    }

    #[test]
    fn convex_matches_the_old_shapes() {
        // Points, segments and circles (kinds 0, 1, 2 of the random paths).
        let mut rng = Rng(0xc0_4e_e5);
        for ka in 0..3 {
            for kb in ka..3 {
                for _ in 0..25 {
                    check_against_paths(&rng.path(ka), &rng.path(kb));
                }
            }
        }
    }

    /// A multiple of 1/256 in [-3, 3], so that a box's corners are exact in `f32`.
    fn grid_coord(rng: &mut Rng) -> f32 {
        (rng.below(1537) as f32 - 768.0) / 256.0
    }

    fn grid_point(rng: &mut Rng) -> Vec2 {
        v(grid_coord(rng), grid_coord(rng))
    }

    /// Still (1 in 4) or moving, on the grid.
    fn grid_motion(rng: &mut Rng) -> [Vec2; 2] {
        let p = grid_point(rng);
        if rng.below(4) == 0 {
            [p, p]
        } else {
            [p, grid_point(rng)]
        }
    }

    #[test]
    fn convex_boxes_match_aabbs() {
        let mut rng = Rng(0xb0_c5_e5);
        for kind in 0..4 {
            for _ in 0..12 {
                let (ha, hb) = (v(rng.size(), rng.size()), v(rng.size(), rng.size()));
                let a = aabb_path(grid_motion(&mut rng), ha);
                let b = match kind {
                    0 => Path::Point(grid_motion(&mut rng)),
                    1 => Path::Segment {
                        a: grid_motion(&mut rng),
                        b: grid_motion(&mut rng),
                    },
                    2 => Path::Circle {
                        center: grid_motion(&mut rng),
                        radius: hb.x,
                    },
                    _ => aabb_path(grid_motion(&mut rng), hb),
                };
                check_against_paths(&a, &b);
            }
        }
    }

    fn aabb_path(center: [Vec2; 2], half_extents: Vec2) -> Path {
        Path::Aabb {
            center,
            half_extents,
        }
    }

    /// The separation of two convex polygons (`n >= 3`) at one time, in `f64`: their
    /// distance when apart, else minus the least overlap along a side's normal (separating
    /// axis test, independent of the oracle's formula).
    fn polygon_separation(a: &[DVec2], b: &[DVec2]) -> f64 {
        let mut best = f64::NEG_INFINITY;
        for poly in [a, b] {
            for (p, q) in poly.iter().zip(poly.iter().cycle().skip(1)) {
                let side = *q - *p;
                let axis = side.perp() / side.length();
                let range = |ps: &[DVec2]| {
                    ps.iter()
                        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                            (lo.min(axis.dot(*x)), hi.max(axis.dot(*x)))
                        })
                };
                let ((alo, ahi), (blo, bhi)) = (range(a), range(b));
                best = best.max((blo - ahi).max(alo - bhi));
            }
        }
        if best <= 0.0 {
            return best;
        }
        let mut distance = f64::INFINITY;
        for (ps, qs) in [(a, b), (b, a)] {
            for &p in ps {
                for (&q0, &q1) in qs.iter().zip(qs.iter().cycle().skip(1)) {
                    distance = distance.min(point_segment_distance(p, q0, q1));
                }
            }
        }
        distance
    }

    /// A random convex polygon (`n >= 3`, integer vertices that are multiples of 5) turning
    /// by a rotation with rational cosine and sine while its origin moves: vertex `w` moves
    /// from `c0 + w` to `c1 + R w`, so at `t` the polygon is `c(t) + ((1 - t) I + t R) w`, a
    /// similar copy (a scaled rotation, never singular for these rotations): convex.
    fn turning_polygon(rng: &mut Rng) -> Convex {
        const SHAPES: [&[[f32; 2]]; 5] = [
            &[[0.0, 0.0], [2.0, 0.0], [0.0, 1.0]],
            &[[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]],
            &[
                [0.0, -2.0],
                [2.0, -1.0],
                [1.0, 2.0],
                [-1.0, 2.0],
                [-2.0, -1.0],
            ],
            &[
                [2.0, 0.0],
                [1.0, 2.0],
                [-1.0, 2.0],
                [-2.0, 0.0],
                [-1.0, -2.0],
                [1.0, -2.0],
            ],
            &[[0.0, 0.0], [3.0, 0.0], [3.0, 1.0]],
        ];
        // (cos, sin) times 5: none is a half turn, where (1 - t) I + t R vanishes at t = 1/2.
        const TURNS: [[f32; 2]; 5] = [[5.0, 0.0], [3.0, 4.0], [4.0, -3.0], [-3.0, 4.0], [0.0, 5.0]];
        let shape = SHAPES[rng.below(5) as usize];
        let [c, s] = TURNS[rng.below(5) as usize];
        let mut centre = || v(rng.below(61) as f32 - 30.0, rng.below(61) as f32 - 30.0);
        let (c0, c1) = (centre(), centre());
        let motions = shape
            .iter()
            .map(|&[x, y]| {
                let w = v(5.0 * x, 5.0 * y);
                [c0 + w, c1 + v(c * x - s * y, s * x + c * y)]
            })
            .collect();
        (motions, [0.0, 0.5, 2.0][rng.below(3) as usize])
    }

    #[test]
    fn convex_turning_polygons_sane() {
        let mut rng = Rng(0x0007_0000_000e_5a7e);
        let mut slowest = 0.0f64;
        let (mut touching, mut apart) = (0, 0);
        for _ in 0..60 {
            let (a, b) = (turning_polygon(&mut rng), turning_polygon(&mut rng));
            let clock = Instant::now();
            let got = convex(&a, &b);
            slowest = slowest.max(clock.elapsed().as_secs_f64());
            let back = convex(&b, &a);
            assert!(close(&got, &back, 1e-12), "{got:?} / {back:?}");
            for (k, i) in got.iter().enumerate() {
                assert!(0.0 <= i[0] && i[0] <= i[1] && i[1] <= 1.0, "{got:?}");
                assert!(k == 0 || got[k - 1][1] < i[0], "{got:?}");
            }
            let reach = f64::from(a.1) + f64::from(b.1);
            let at = |shape: &Convex, t: f64| -> Vec<DVec2> {
                shape.0.iter().map(|&m| lerp(m, t)).collect()
            };
            let times = (0..=128)
                .map(|k| f64::from(k) / 128.0)
                .chain(got.iter().flat_map(|i| [i[0], 0.5 * (i[0] + i[1]), i[1]]));
            for t in times {
                let gap = polygon_separation(&at(&a, t), &at(&b, t)) - reach;
                let near = got.iter().any(|i| i[0] - 1e-9 <= t && t <= i[1] + 1e-9);
                assert!(
                    near || gap > -1e-6,
                    "{a:?} vs {b:?}: in contact by {gap} at t = {t}, got {got:?}"
                );
                assert!(
                    !near || gap < 1e-6,
                    "{a:?} vs {b:?}: apart by {gap} at t = {t}, got {got:?}"
                );
            }
            if got.is_empty() {
                apart += 1;
            } else {
                touching += 1;
            }
        }
        assert!(
            touching >= 10 && apart >= 5,
            "{touching} touching, {apart} apart"
        );
        assert!(slowest < 2.0, "slowest oracle call took {slowest} s");
    }
}
