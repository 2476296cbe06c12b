//! Moving segment against moving point: the cross-product quadratic.

use super::quadratic::roots_in_unit;
use crate::geometry::robust::{
    PLAIN_ACCURACY, all_finite, cross_of_motions, dot_accurate, dot_of_motions, orient2d,
};
use crate::geometry::{Sweep, Sweeps};
use bevy_math::Vec2;

/// Every moment in the step at which a moving point lies on a moving segment.
///
/// During the step, time runs from 0 to 1 and everything moves linearly: the segment's first
/// endpoint from `start_path[0]` to `start_path[1]`, its second endpoint from `end_path[0]` to
/// `end_path[1]`, and the point from `point_path[0]` to `point_path[1]`, all in one frame
/// (usually world space, positions at the start and end of the tick). The segment may
/// translate, rotate, stretch or collapse: its endpoints move independently.
///
/// # Method
/// Relative to the point, the endpoints are `A(t) = a0 + t·(a1 − a0)` and `B(t)` likewise
/// (subtracting the point's motion turns "moving point" into "point at the origin"). The
/// origin is on the line through `A` and `B` exactly when `cross(A, B) = 0`, a
/// quadratic in `t`; and it is then on the closed segment exactly when `A·B <= 0`, with
/// `along = A·(A − B) / |A − B|²`.
///
/// The quadratic's values at `t = 0` and `t = 1` are orientation determinants of the input
/// points, evaluated with exact signs, so a contact at the very start or end of the step is
/// found exactly and a sign change inside the step is never lost; see
/// `roots_in_unit` in `sweep/quadratic.rs` for the rest.
///
/// # Behavior
/// - At most two sweeps, ascending by time: a segment can pass over a point, and pass back.
/// - The degenerate coefficient cases all work: pure translation (linear in `t`), a still
///   segment and point (constant), a double root (the segment grazes the point and turns back:
///   one sweep), and a segment that collapses to a point (`along = 0`).
/// - Where the point stays on the segment for a whole interval (a still segment through a still
///   point, or a segment sliding along its own line over the point), the start of that interval
///   is reported, once. A segment turning over within its own line can hold the point, lose it
///   past one endpoint and catch it again with the other: the start of each interval is
///   reported.
/// - Touching an endpoint counts (`along` 0 or 1).
/// - Non-finite input gives no sweep.
///
/// # Precision
/// Whether the point is on the segment at the very start or end of the step is decided
/// exactly, and so is the number of sign changes of the cross product in between. Inside the
/// step, times come from a cancellation-free quadratic in `f64` and are accurate to about
/// `2^-50` of the step. Its leading coefficient is computed from the motions, so its error
/// bound scales with how far things move, not where they are: a segment that stands still or
/// translates gives a coefficient of (nearly) zero with a tiny bound, and the roots are then
/// those of a straight line unless the point is within that bound of a touch, where the
/// coefficient is summed exactly;
/// `along`, and whether the point is between the endpoints, are then evaluated at that time. So
/// they are reliable while the point moves, relative to the endpoints, less than about `2^24`
/// times the segment's length per step (a 1-unit segment and a point 16 million units apart a
/// tick later), with coordinates up to `2^24`; beyond that, for instance a segment that shrinks
/// from `10^20` units to a point within one step, a contact at the moment of collapse can be
/// misjudged. The tests compare with an exact oracle inside that domain and check only
/// "no panic, no NaN, in range" outside it.
///
/// # Example
/// The *simple* motion: a vertical segment moving right through a still point.
/// ```
/// use bevy_math::Vec2;
/// use bevy_sweep::geometry::sweep_point_segment;
///
/// let sweeps = sweep_point_segment(
///     [Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0)], // first endpoint: (0, 0) -> (4, 0)
///     [Vec2::new(0.0, 4.0), Vec2::new(4.0, 4.0)], // second endpoint: (0, 4) -> (4, 4)
///     [Vec2::new(1.0, 1.0), Vec2::new(1.0, 1.0)], // the point stays at (1, 1)
/// );
/// let hit = sweeps.first().unwrap();
/// assert_eq!((hit.time, hit.along), (0.25, 0.25));
/// ```
#[doc(alias = "toi")]
#[doc(alias = "time_of_impact")]
#[doc(alias = "line_sweeps_point")]
#[must_use]
pub fn sweep_point_segment(
    start_path: [Vec2; 2],
    end_path: [Vec2; 2],
    point_path: [Vec2; 2],
) -> Sweeps {
    let [p0, p1] = start_path;
    let [q0, q1] = end_path;
    let [c0, c1] = point_path;
    if !all_finite([p0, p1, q0, q1, c0, c1]) {
        return Sweeps::new();
    }
    let rel = |p: Vec2, c: Vec2| {
        [
            f64::from(p.x) - f64::from(c.x),
            f64::from(p.y) - f64::from(c.y),
        ]
    };
    let motion = Motion {
        a0: rel(p0, c0),
        a1: rel(p1, c1),
        b0: rel(q0, c0),
        b1: rel(q1, c1),
    };

    // cross(A(t), B(t)) at both ends, with exact signs.
    let f0 = orient2d(c0, p0, q0);
    let f1 = orient2d(c1, p1, q1);
    // Its leading coefficient, `cross(da, db)`, is `cross(m, e)` with `m` the first
    // endpoint's motion relative to the point and `e` how much the segment's own vector
    // changes (`da = m`, `db = m + e`). Computed from the motions rather than the positions,
    // its error bound scales with the motions: a segment that stands still or translates
    // has `e = 0` and a tiny bound, where the positions' bound would be large.
    let (mut k2, mut k2_error) = leading_coefficient(start_path, end_path, point_path);
    match leading_coefficient_use(f0, f1, k2, k2_error) {
        Use::AsComputed => {}
        // The same sign at both ends and the chord decides: no root (the common miss of a
        // still or translating segment, answered before anything else is computed).
        Use::Chord if f0 != 0.0 && f1 != 0.0 => return Sweeps::new(),
        Use::Chord => (k2, k2_error) = (0.0, 0.0),
        Use::Exact => {
            // Within rounding of a touch that depends on it: sum it exactly.
            k2 = cross_of_motions(start_path, end_path, point_path);
            k2_error = k2.abs() * f64::EPSILON;
        }
    }

    let mut sweeps = Sweeps::new();
    if f0 == 0.0 && f1 == 0.0 && k2.abs() <= k2_error {
        // Collinear for the whole step: on the segment while A·B <= 0, from the start of
        // each such stretch.
        let (starts, n) = motion.overlap_starts(start_path, end_path, point_path);
        for &t in &starts[..n] {
            sweeps.push(motion.sweep_at(t).unwrap_or(Sweep {
                time: t as f32,
                along: 0.0,
            }));
        }
        return sweeps;
    }
    // The middle coefficient directly: cross(a0, db) + cross(da, b0).
    let (a0, b0) = (motion.a0, motion.b0);
    let (da, db) = (motion.da(), motion.db());
    let k1 = cross(a0, db) + cross(da, b0);
    let k1_error = product_error([0.0; 2], a0, motion.b0, motion.b1)
        + product_error(motion.a0, motion.a1, [0.0; 2], b0);
    let (roots, n) = roots_in_unit(k2, f0, f1, k2_error, (k1, k1_error));
    // Distinct roots stay distinct sweeps even if they round to the same `f32` time.
    for &t in &roots[..n] {
        if let Some(sweep) = motion.sweep_at(t) {
            sweeps.push(sweep);
        }
    }
    sweeps
}

/// The leading coefficient `cross(m, e)` of the cross quadratic (see [`sweep_point_segment`]),
/// and a bound on its error.
///
/// Each motion (`p1 − p0`, …) is one rounding off, and `m` and `e` one more each, so each
/// component of `m` is within `2u·M` of the truth (`u = 2^-53`, `M` the sum of the two
/// motions' magnitudes it is the difference of), likewise `e`; each product and the
/// difference add one rounding: the error is within `6u·(Mx·Ey + My·Ex)`, and `4ε = 8u`
/// covers it with the higher-order terms.
#[inline]
fn leading_coefficient(p: [Vec2; 2], q: [Vec2; 2], c: [Vec2; 2]) -> (f64, f64) {
    let d = |x: [Vec2; 2], i: usize| f64::from(x[1][i]) - f64::from(x[0][i]);
    let (dp, dq, dc) = ([d(p, 0), d(p, 1)], [d(q, 0), d(q, 1)], [d(c, 0), d(c, 1)]);
    let m = [dp[0] - dc[0], dp[1] - dc[1]];
    let e = [dq[0] - dp[0], dq[1] - dp[1]];
    let size = |a: [f64; 2], b: [f64; 2], i: usize| a[i].abs() + b[i].abs();
    let (mx, my) = (size(dp, dc, 0), size(dp, dc, 1));
    let (ex, ey) = (size(dq, dp, 0), size(dq, dp, 1));
    (cross(m, e), 4.0 * f64::EPSILON * (mx * ey + my * ex))
}

/// What the roots need of the leading coefficient `k2`, computed within `k2_error`.
enum Use {
    /// It is accurate enough (to `2^-30` of itself, or of the slope where there is one root).
    AsComputed,
    /// The roots are those of the chord through `f(0)` and `f(1)`: `k2` cannot matter.
    Chord,
    /// It must be summed exactly.
    Exact,
}

/// Whether the roots of `f` in `[0, 1]` need `k2` exactly, given `f0 = f(0)` and `f1 = f(1)`
/// with exact signs.
///
/// `f(t) = (1 − t)·f0 + t·f1 − k2·t·(1 − t)` is the chord bent by at most `|k2| / 4`. With
/// opposite signs at the ends there is one root whatever `k2` is, and an error `δ` in `k2`
/// moves it by at most `δ / (4·|f'|)`. With the same sign there is none while the chord stays
/// further than that bend from zero. With a root at one end, the other root (`1 − f1/k2` or
/// `f0/k2`) lies inside only if `|f1| < |k2|` (or `|f0| < |k2|`). With roots at both ends,
/// only whether `k2` is exactly zero matters (then `f` is identically zero).
#[inline]
fn leading_coefficient_use(f0: f64, f1: f64, k2: f64, k2_error: f64) -> Use {
    if k2_error <= k2.abs() * PLAIN_ACCURACY {
        return Use::AsComputed;
    }
    let bound = k2.abs() + k2_error;
    match (f0 == 0.0, f1 == 0.0) {
        (true, true) if k2.abs() > k2_error => Use::AsComputed,
        (true, false) if f1.abs() > bound => Use::Chord,
        (false, true) if f0.abs() > bound => Use::Chord,
        (false, false) if (f0 < 0.0) != (f1 < 0.0) => {
            if k2_error <= (f1 - f0).abs() * PLAIN_ACCURACY {
                Use::AsComputed
            } else {
                Use::Exact
            }
        }
        (false, false) if f0.abs().min(f1.abs()) > 0.25 * bound => Use::Chord,
        _ => Use::Exact,
    }
}

/// How far outside `[0, 1]` a computed `along` may fall and still count as on the segment:
/// `along` at a rounded root carries rounding error, and a contact at an endpoint must not be
/// lost to it (a graze at `1 + 2^-24` is reported, at the endpoint).
const ALONG_SLACK: f64 = 1.0 / (1u64 << 24) as f64;

/// The endpoints relative to the point, at the start and end of the step, in `f64`.
struct Motion {
    a0: [f64; 2],
    a1: [f64; 2],
    b0: [f64; 2],
    b1: [f64; 2],
}

impl Motion {
    fn da(&self) -> [f64; 2] {
        [self.a1[0] - self.a0[0], self.a1[1] - self.a0[1]]
    }

    fn db(&self) -> [f64; 2] {
        [self.b1[0] - self.b0[0], self.b1[1] - self.b0[1]]
    }

    fn at(&self, t: f64) -> ([f64; 2], [f64; 2]) {
        // (1 − t)·p + t·q rather than p + t·(q − p): exact at both ends, and no cancellation
        // when p is huge and q small.
        let s = 1.0 - t;
        let lerp = |p: [f64; 2], q: [f64; 2]| [s * p[0] + t * q[0], s * p[1] + t * q[1]];
        (lerp(self.a0, self.a1), lerp(self.b0, self.b1))
    }

    /// The sweep at time `t` if the (collinear) point is on the closed segment then.
    fn sweep_at(&self, t: f64) -> Option<Sweep> {
        let (a, b) = self.at(t);
        let ab = [b[0] - a[0], b[1] - a[1]];
        let len2 = ab[0] * ab[0] + ab[1] * ab[1];
        let along = if len2 == 0.0 {
            // Collapsed to a point: on it only if it is the point itself.
            if a != [0.0, 0.0] {
                return None;
            }
            0.0
        } else {
            -(a[0] * ab[0] + a[1] * ab[1]) / len2
        };
        (-ALONG_SLACK..=1.0 + ALONG_SLACK)
            .contains(&along)
            .then(|| Sweep {
                time: t as f32,
                along: along.clamp(0.0, 1.0) as f32,
            })
    }

    /// For a segment collinear with the point all step long (given as the sweep's paths):
    /// the start of each stretch of the step during which the point is between the
    /// endpoints, i.e. `g(t) = A(t)·B(t) <= 0`, ascending.
    ///
    /// The roots of `g` are the moments the point meets an endpoint. With the exact signs of
    /// `g` at both ends and the roots between them, the sign of `g` on each gap follows:
    /// a quadratic changes sign at each of two distinct roots, and a root reported once
    /// between ends of one sign touches zero without crossing. A point can be on the segment
    /// at the start, leave it past an endpoint and meet the other endpoint later (a segment
    /// flipping through the point): two stretches.
    fn overlap_starts(&self, p: [Vec2; 2], q: [Vec2; 2], c: [Vec2; 2]) -> ([f64; 2], usize) {
        let g0 = dot_accurate(self.a0[0], self.a0[1], self.b0[0], self.b0[1]);
        let g1 = dot_accurate(self.a1[0], self.a1[1], self.b1[0], self.b1[1]);
        let (mut g2, mut g2_error) = leading_dot(p, q, c);
        match leading_coefficient_use(g0, g1, g2, g2_error) {
            Use::AsComputed => {}
            Use::Chord => (g2, g2_error) = (0.0, 0.0),
            Use::Exact => {
                g2 = dot_of_motions(p, q, c);
                g2_error = g2.abs() * f64::EPSILON;
            }
        }
        let (da, db) = (self.da(), self.db());
        let g1_direct = dot(self.a0, db) + dot(da, self.b0);
        let g1_error = product_error([0.0; 2], self.a0, self.b0, self.b1)
            + product_error(self.a0, self.a1, [0.0; 2], self.b0);
        let (roots, n) = roots_in_unit(g2, g0, g1, g2_error, (g1_direct, g1_error));
        let inside: ([f64; 2], usize) = roots[..n].iter().filter(|&&t| t > 0.0 && t < 1.0).fold(
            ([0.0; 2], 0),
            |(mut r, k), &t| {
                r[k] = t;
                (r, k + 1)
            },
        );
        let (inside, m) = (&inside.0[..inside.1], inside.1);
        let mut starts = ([0.0; 2], 0);
        let mut push = |t: f64| {
            starts.0[starts.1] = t;
            starts.1 += 1;
        };
        if g0 <= 0.0 {
            push(0.0);
        }
        if g0 < 0.0 {
            // Off the segment after the first root; back on at the second, or at the end.
            if m == 2 {
                push(inside[1]);
            } else if m == 1 && g1 == 0.0 {
                push(1.0);
            }
        } else if g0 > 0.0 {
            // On from the first root (for a while or an instant); a quadratic cannot come back.
            if let Some(&t) = roots[..n].first() {
                push(t);
            }
        } else if m == 1 {
            // On at the start; `g` is positive up to the other root if it ends negative.
            if g1 < 0.0 {
                push(inside[0]);
            }
        } else if g1 == 0.0 && g2 < 0.0 {
            // Roots at both ends only, and positive between: on at each end.
            push(1.0);
        }
        starts
    }
}

/// The leading coefficient `dot(m, m + e)` of `A(t)·B(t)` (see [`leading_coefficient`]) and
/// a bound on its error.
#[inline]
fn leading_dot(p: [Vec2; 2], q: [Vec2; 2], c: [Vec2; 2]) -> (f64, f64) {
    let d = |x: [Vec2; 2], i: usize| f64::from(x[1][i]) - f64::from(x[0][i]);
    let (dp, dq, dc) = ([d(p, 0), d(p, 1)], [d(q, 0), d(q, 1)], [d(c, 0), d(c, 1)]);
    let (da, db) = (
        [dp[0] - dc[0], dp[1] - dc[1]],
        [dq[0] - dc[0], dq[1] - dc[1]],
    );
    let size = |a: [f64; 2], b: [f64; 2], i: usize| a[i].abs() + b[i].abs();
    let error = 4.0
        * f64::EPSILON
        * (size(dp, dc, 0) * size(dq, dc, 0) + size(dp, dc, 1) * size(dq, dc, 1));
    (dot(da, db), error)
}

#[inline]
fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

#[inline]
fn cross(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

/// An error bound for `cross(a1 − a0, b1 − b0)` or `dot(a1 − a0, b1 − b0)` computed in
/// `f64` from the rounded endpoint differences: each component of a difference is within
/// `2u·(|a0| + |a1|)` of the truth, and each product adds one rounding (`u = 2^-53`).
#[inline]
fn product_error(a0: [f64; 2], a1: [f64; 2], b0: [f64; 2], b1: [f64; 2]) -> f64 {
    let m = |p: [f64; 2], q: [f64; 2], i: usize| p[i].abs() + q[i].abs();
    let (ax, ay, bx, by) = (m(a0, a1, 0), m(a0, a1, 1), m(b0, b1, 0), m(b0, b1, 1));
    4.0 * f64::EPSILON * (ax * by + ay * bx + ax * bx + ay * by)
}

#[cfg(test)]
mod tests;
