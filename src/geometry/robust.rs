//! Exact and error-bounded arithmetic for predicates on `f32` input.
//!
//! Every finite `f32` is a dyadic rational, and the product of two of them is exact in `f64`
//! (24 + 24 significand bits fit in 53, and the exponent range of `f64` holds every product).
//! That makes the classic 2D orientation determinant exact with very little machinery: it is a
//! sum of six exact `f64` products, and a sum of `f64`s is summed exactly by an *expansion*
//! (Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
//! Predicates", 1997). The fast path evaluates the determinant once in `f64` and only falls back
//! to the expansion when Shewchuk's error bound cannot certify the sign.

use bevy_math::Vec2;
use core::cell::Cell;
use core::cmp::Ordering;

std::thread_local! {
    /// Expansions started on this thread: how often a float filter could not certify a sign.
    static EXPANSIONS: Cell<u64> = const { Cell::new(0) };
}

/// How many exact expansions this thread has started so far. The difference across a
/// computation says whether it needed exact arithmetic (the plugin counts the candidate
/// pairs that did, in `SweepStats::exact_pairs`).
#[inline]
#[cfg_attr(
    not(feature = "plugin"),
    allow(dead_code, reason = "used by the plugin")
)]
pub(crate) fn expansions() -> u64 {
    EXPANSIONS.with(Cell::get)
}

/// Unit roundoff of `f64`: `2^-53`.
const F64_EPS: f64 = f64::EPSILON / 2.0;

/// Shewchuk's first-stage error bound for the orientation determinant, `(3 + 16ε)ε`.
const ORIENT_ERR_BOUND: f64 = (3.0 + 16.0 * F64_EPS) * F64_EPS;

/// Relative error accepted from a plain `f64` evaluation before falling back to an expansion:
/// `2^-30`, far below one `f32` ulp of any quantity derived from it.
pub(crate) const PLAIN_ACCURACY: f64 = 1.0 / (1u64 << 30) as f64;

/// `a + b` as an unevaluated sum `s + err` with `s = fl(a + b)` (Knuth's two-sum).
#[inline]
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bv = s - a;
    let av = s - bv;
    (s, (a - av) + (b - bv))
}

/// Splits `a` into two halves of at most 26 significant bits each (Veltkamp).
#[inline]
fn split(a: f64) -> (f64, f64) {
    const SPLITTER: f64 = 134_217_729.0; // 2^27 + 1
    let c = SPLITTER * a;
    let hi = c - (c - a);
    (hi, a - hi)
}

/// `a · b` as an unevaluated sum `p + err` with `p = fl(a · b)` (Dekker's two-product, without
/// relying on a hardware FMA so results are identical on every target).
#[inline]
pub(crate) fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let err = al * bl - (((p - ah * bh) - al * bh) - ah * bl);
    (p, err)
}

/// A nonoverlapping expansion of at most `N` components, smallest magnitude first.
#[derive(Clone, Copy)]
pub(crate) struct Expansion<const N: usize> {
    parts: [f64; N],
    len: usize,
}

impl<const N: usize> Expansion<N> {
    /// The empty sum (counted in [`expansions`]).
    #[inline]
    pub(crate) fn new() -> Self {
        EXPANSIONS.with(|n| n.set(n.get() + 1));
        Self {
            parts: [0.0; N],
            len: 0,
        }
    }

    /// Adds one `f64` exactly (Shewchuk's Grow-Expansion).
    ///
    /// # Panics
    /// Panics if more than `N` terms are added (a bug in the caller, never in user input).
    #[inline]
    pub(crate) fn add(&mut self, b: f64) {
        let mut q = b;
        for part in &mut self.parts[..self.len] {
            let (s, err) = two_sum(q, *part);
            *part = err;
            q = s;
        }
        self.parts[self.len] = q;
        self.len += 1;
    }

    /// Adds an exact product `a · b`.
    #[inline]
    pub(crate) fn add_product(&mut self, a: f64, b: f64) {
        let (p, err) = two_product(a, b);
        self.add(err);
        self.add(p);
    }

    /// The exact sign of the sum.
    #[inline]
    pub(crate) fn sign(&self) -> Ordering {
        // Components are nonoverlapping and ordered by magnitude, so the largest nonzero one
        // decides the sign.
        self.parts[..self.len]
            .iter()
            .rev()
            .find(|p| **p != 0.0)
            .map_or(Ordering::Equal, |p| p.total_cmp(&0.0))
    }

    /// The sum rounded to `f64` with its exact sign: exactly zero only if the sum is.
    #[inline]
    pub(crate) fn signed_approximation(&self) -> f64 {
        match self.sign() {
            Ordering::Equal => 0.0,
            sign => {
                let value = self.approximate();
                // Summing a nonoverlapping expansion keeps its sign; the guard makes the
                // contract independent of that argument.
                if value.total_cmp(&0.0) == sign {
                    value
                } else if sign == Ordering::Greater {
                    f64::MIN_POSITIVE
                } else {
                    -f64::MIN_POSITIVE
                }
            }
        }
    }

    /// The sum rounded to `f64`, with a relative error of a few units in the last place.
    #[inline]
    pub(crate) fn approximate(&self) -> f64 {
        // Smallest first: each addition then loses at most one rounding of the running total.
        self.parts[..self.len].iter().fold(0.0, |acc, p| acc + p)
    }
}

/// `cross(b − a, c − a)` for `f32` points: twice the signed area of the triangle `a, b, c`.
///
/// Positive when `c` lies to the left of the directed line `a → b` (counter-clockwise),
/// negative to the right, and **exactly** zero when the three points are collinear. The sign is
/// always exact; the magnitude has a relative error below `2^-30`. Input must be finite.
#[inline]
pub(crate) fn orient2d(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    let (ax, ay) = (f64::from(a.x), f64::from(a.y));
    let (bx, by) = (f64::from(b.x), f64::from(b.y));
    let (cx, cy) = (f64::from(c.x), f64::from(c.y));
    let left = (bx - ax) * (cy - ay);
    let right = (by - ay) * (cx - ax);
    let det = left - right;
    let bound = ORIENT_ERR_BOUND * (left.abs() + right.abs());
    // (A zero bound means both products are exactly zero, as for two equal points: a
    // difference of two `f32`s is zero in `f64` only if they are equal.)
    if det.abs() * PLAIN_ACCURACY >= bound {
        return det;
    }
    orient2d_exact(ax, ay, bx, by, cx, cy)
}

/// The exact orientation determinant of `f32`-valued points given as `f64`.
///
/// Expands `(bx − ax)(cy − ay) − (by − ay)(cx − ax)` into six products of input coordinates,
/// each exact in `f64`, and sums them exactly.
#[cold]
fn orient2d_exact(ax: f64, ay: f64, bx: f64, by: f64, cx: f64, cy: f64) -> f64 {
    let mut sum = Expansion::<6>::new();
    // bx·cy − bx·ay − ax·cy − by·cx + by·ax + ay·cx  (the ax·ay terms cancel)
    for term in [
        bx * cy,
        -(bx * ay),
        -(ax * cy),
        -(by * cx),
        by * ax,
        ay * cx,
    ] {
        sum.add(term);
    }
    sum.signed_approximation()
}

/// `x·y + z·w` for `f64` values, accurate to a few ulps even under cancellation; its sign is
/// exact. Plain `f64` when its error bound allows, an expansion otherwise.
#[inline]
fn sum_of_products(x: f64, y: f64, z: f64, w: f64) -> f64 {
    let (p, q) = (x * y, z * w);
    let plain = p + q;
    // Two product roundings and one sum rounding, each at most ε/2 of its magnitude.
    if plain.abs() * PLAIN_ACCURACY > 2.0 * F64_EPS * (p.abs() + q.abs()) {
        return plain;
    }
    let mut sum = Expansion::<4>::new();
    sum.add_product(x, y);
    sum.add_product(z, w);
    sum.approximate()
}

/// `a.x·b.x + a.y·b.y` for `f64` vectors, accurate to a few ulps even under cancellation; its
/// sign is exact.
#[inline]
pub(crate) fn dot_accurate(ax: f64, ay: f64, bx: f64, by: f64) -> f64 {
    sum_of_products(ax, bx, ay, by)
}

/// `|p − c|² − r²` for `f32` input: the power of `p` with respect to the circle. Negative
/// inside, zero exactly on the circle, positive outside.
///
/// The sign is always exact; the magnitude has a relative error below `2^-30`. Like
/// [`orient2d`], it expands into products of input coordinates, each exact in `f64`,
/// (`px² − 2·px·cx + cx² + py² − 2·py·cy + cy² − r²`) when the plain evaluation cannot be
/// certified. Input must be finite.
#[inline]
pub(crate) fn circle_power(p: Vec2, c: Vec2, r: f32) -> f64 {
    let (px, py, cx, cy) = (
        f64::from(p.x),
        f64::from(p.y),
        f64::from(c.x),
        f64::from(c.y),
    );
    let (dx, dy) = (px - cx, py - cy);
    let r2 = f64::from(r) * f64::from(r);
    let d2 = dx * dx + dy * dy;
    let plain = d2 - r2;
    // Each difference rounds once, each square and sum once more: within 5u(d² + r²).
    if plain.abs() * PLAIN_ACCURACY > 4.0 * f64::EPSILON * (d2 + r2) {
        return plain;
    }
    let mut sum = Expansion::<7>::new();
    for term in [
        px * px,
        -2.0 * px * cx,
        cx * cx,
        py * py,
        -2.0 * py * cy,
        cy * cy,
        -r2,
    ] {
        sum.add(term);
    }
    sum.signed_approximation()
}

/// `cross(a1 − a0, b1 − b0)` for `a_i = p_i − c_i` and `b_i = q_i − c_i`, `f32` points: how the
/// directions of two moving offsets change together over a step. Exact sign, magnitude within
/// a few ulps.
///
/// Each component of `a1 − a0` is a signed sum of four input coordinates, so the cross product
/// is a signed sum of 32 products of input coordinates, each exact in `f64`; they are summed
/// exactly. Costly (about a thousand flops), so callers use it only when the plain value's
/// error bound is too large.
#[cold]
pub(crate) fn cross_of_motions(p: [Vec2; 2], q: [Vec2; 2], c: [Vec2; 2]) -> f64 {
    product_of_motions(p, q, c, |u, v| [(u.x, v.y), (-u.y, v.x)])
}

/// `dot(a1 − a0, b1 − b0)`, as [`cross_of_motions`]: exact sign, magnitude within a few ulps.
#[cold]
pub(crate) fn dot_of_motions(p: [Vec2; 2], q: [Vec2; 2], c: [Vec2; 2]) -> f64 {
    product_of_motions(p, q, c, |u, v| [(u.x, v.x), (u.y, v.y)])
}

/// The exact sum over the 16 pairs of terms of `a1 − a0` and `b1 − b0` (see
/// [`cross_of_motions`]) of `terms(u, v)`: two signed products of coordinates each.
#[inline]
fn product_of_motions(
    p: [Vec2; 2],
    q: [Vec2; 2],
    c: [Vec2; 2],
    terms: impl Fn(Vec2, Vec2) -> [(f32, f32); 2],
) -> f64 {
    // (point, sign) terms of a1 − a0 = p1 − c1 − p0 + c0, and of b1 − b0 likewise.
    let a = [(p[1], 1.0), (c[1], -1.0), (p[0], -1.0), (c[0], 1.0)];
    let b = [(q[1], 1.0), (c[1], -1.0), (q[0], -1.0), (c[0], 1.0)];
    let mut sum = Expansion::<32>::new();
    for (u, su) in a {
        for (v, sv) in b {
            let s: f64 = su * sv;
            for (x, y) in terms(u, v) {
                sum.add(s * f64::from(x) * f64::from(y));
            }
        }
    }
    sum.signed_approximation()
}

/// `true` if every component of every point is finite.
#[inline]
pub(crate) fn all_finite<const N: usize>(points: [Vec2; N]) -> bool {
    points.iter().all(|p| p.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orient2d_signs_of_simple_triangles() {
        let o = Vec2::ZERO;
        // (point, expected sign) relative to the directed x axis
        let cases = [
            (Vec2::new(0.5, 1.0), Ordering::Greater),
            (Vec2::new(0.5, -1.0), Ordering::Less),
            (Vec2::new(7.0, 0.0), Ordering::Equal),
            (Vec2::new(-3.0, 0.0), Ordering::Equal),
        ];
        for (c, expected) in cases {
            let got = orient2d(o, Vec2::X, c).total_cmp(&0.0);
            assert_eq!(got, expected, "orient2d(0, x, {c:?})");
        }
    }

    #[test]
    fn orient2d_is_exact_where_plain_f64_fails() {
        // A point very close to the origin, tested against the line y = x through (1, 1) and
        // (3, 3). In f64, 1 − tiny rounds to 1, so the naive determinant cannot see a one-ulp
        // nudge of the tiny point; the exact one must.
        let (b, c) = (Vec2::ONE, Vec2::splat(3.0));
        for tiny in [
            1e-20_f32,
            3.7e-25,
            1e-30,
            f32::MIN_POSITIVE,
            f32::from_bits(7),
        ] {
            let on = Vec2::splat(tiny);
            assert_eq!(orient2d(b, c, on), 0.0, "on the line: {on:?}");
            let naive = |a: Vec2| {
                let d = |p: f32, q: f32| f64::from(p) - f64::from(q);
                d(c.x, b.x) * d(a.y, b.y) - d(c.y, b.y) * d(a.x, b.x)
            };
            let above = Vec2::new(tiny, tiny.next_up());
            assert!(orient2d(b, c, above) > 0.0, "one ulp above: {above:?}");
            let below = Vec2::new(tiny, tiny.next_down());
            assert!(orient2d(b, c, below) < 0.0, "one ulp below: {below:?}");
            if tiny < 1e-10 {
                assert_eq!(naive(above), 0.0, "the naive determinant should fail here");
            }
        }
    }

    #[test]
    fn orient2d_extreme_magnitudes() {
        let big = f32::MAX;
        let tiny = f32::from_bits(1); // smallest subnormal
        assert!(orient2d(Vec2::ZERO, Vec2::new(big, 0.0), Vec2::new(0.0, tiny)) > 0.0);
        assert!(orient2d(Vec2::new(-big, -big), Vec2::new(big, big), Vec2::ZERO) == 0.0);
        assert!(
            orient2d(
                Vec2::new(-big, -big),
                Vec2::new(big, big),
                Vec2::new(0.0, tiny)
            ) > 0.0
        );
    }

    #[test]
    fn expansion_sums_exactly() {
        let mut e = Expansion::<4>::new();
        for x in [1e300, 1.0, -1e300, -1.0] {
            e.add(x);
        }
        assert_eq!(e.sign(), Ordering::Equal);
        let mut e = Expansion::<3>::new();
        for x in [1e30, 1e-30, -1e30] {
            e.add(x);
        }
        assert_eq!(e.sign(), Ordering::Greater);
        assert_eq!(e.approximate(), 1e-30);
    }

    #[test]
    fn dot_and_circle_power_under_cancellation() {
        let a = 1.0 + f64::EPSILON;
        // (1+ε)·1 + 1·(ε−1)... as a dot product: (1+ε)(1−ε) − 1·1 = −ε², lost by the naive sum.
        assert_eq!(
            dot_accurate(a, 1.0, 2.0 - a, -1.0),
            -f64::EPSILON * f64::EPSILON
        );
        // A point one ulp outside a unit circle far from the origin: the difference 1e20 − c
        // is not exact in f64, the power's sign must be anyway.
        let c = Vec2::new(0.0, 1.0e20);
        let on = Vec2::new(0.0, 1.0e20 - 1.0e20 * f32::EPSILON);
        let r = (c.y - on.y).abs();
        assert_eq!(circle_power(on, c, r), 0.0);
        assert!(circle_power(Vec2::new(f32::from_bits(1), on.y), c, r) > 0.0);
        assert!(circle_power(Vec2::new(0.0, 1.0), Vec2::new(0.0, f32::from_bits(1)), 1.0) < 0.0);
    }
}
