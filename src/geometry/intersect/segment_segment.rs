//! Segment–segment intersection, decided with exact orientation predicates.

use crate::geometry::SegmentIntersection;
use crate::geometry::robust::{all_finite, orient2d};
use bevy_math::Vec2;

/// How the segments `a0 → a1` and `b0 → b1` meet.
///
/// In other words, finds `t, u` in `[0, 1]` with `a0 + t·(a1 − a0) = b0 + u·(b1 − b0)`.
/// All points are in one frame (usually world space).
///
/// # Behavior
/// - [`SegmentIntersection::Point`] for a single common point: crossing, touching at an
///   endpoint or in the middle, and collinear segments touching end to end.
/// - [`SegmentIntersection::Overlap`] for collinear segments sharing a piece of positive length:
///   `t` ascending on the first segment, `u` the matching parameters on the second
///   (descending when it runs the other way).
/// - A zero-length segment meets the other at its own parameter 0; two equal points meet at
///   `t = u = 0`.
/// - Whether the segments meet, touch or overlap is decided exactly (orientation signs from
///   [Shewchuk]'s predicates, extended to exact `f32` input); `t` and `u` are then accurate to
///   about one `f32` ulp, and exactly 0 or 1 where an endpoint is the contact.
/// - Non-finite input gives [`SegmentIntersection::None`].
///
/// The textbook formula `ua = cross(b1 − b0, a0 − b0) / cross(a1 − a0, b1 − b0)` is the same
/// parameter; writing it as `d0 / (d0 − d1)` with the two endpoints' signed distances `d0, d1`
/// (which have opposite signs there) avoids cancellation.
///
/// [Shewchuk]: https://www.cs.cmu.edu/~quake/robust.html
///
/// # Example
/// ```
/// use bevy_math::Vec2;
/// use bevy_sweep::geometry::{SegmentIntersection, intersect_segment_segment};
///
/// let hit = intersect_segment_segment(Vec2::ZERO, Vec2::new(4.0, 4.0), Vec2::new(0.0, 4.0), Vec2::new(4.0, 0.0));
/// assert_eq!(hit, SegmentIntersection::Point { t: 0.5, u: 0.5, point: Vec2::new(2.0, 2.0) });
/// ```
#[doc(alias = "line_line")]
#[must_use]
pub fn intersect_segment_segment(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> SegmentIntersection {
    if !all_finite([a0, a1, b0, b1]) {
        return SegmentIntersection::None;
    }
    // Signed areas: where each endpoint lies relative to the other segment's line.
    let (da0, da1) = (orient2d(b0, b1, a0), orient2d(b0, b1, a1));
    let (db0, db1) = (orient2d(a0, a1, b0), orient2d(a0, a1, b1));
    if da0 == 0.0 && da1 == 0.0 && db0 == 0.0 && db1 == 0.0 {
        return collinear(a0, a1, b0, b1);
    }
    if same_strict_side(da0, da1) || same_strict_side(db0, db1) {
        return SegmentIntersection::None;
    }
    let t = crossing(da0, da1);
    let u = crossing(db0, db1);
    let point = match (t, u) {
        (0.0, _) => a0,
        (1.0, _) => a1,
        (_, 0.0) => b0,
        (_, 1.0) => b1,
        _ => lerp64(a0, a1, t),
    };
    SegmentIntersection::Point {
        t: t as f32,
        u: u as f32,
        point,
    }
}

#[inline]
fn same_strict_side(d0: f64, d1: f64) -> bool {
    (d0 > 0.0 && d1 > 0.0) || (d0 < 0.0 && d1 < 0.0)
}

/// Where a segment whose ends have signed distances `d0, d1` (not both zero, not of the same
/// sign) crosses the line: exactly 0 or 1 at a touching endpoint.
#[inline]
fn crossing(d0: f64, d1: f64) -> f64 {
    if d0 == 0.0 {
        0.0
    } else if d1 == 0.0 {
        1.0
    } else {
        (d0 / (d0 - d1)).clamp(0.0, 1.0)
    }
}

/// `a + t·(b − a)` computed in `f64`.
#[inline]
fn lerp64(a: Vec2, b: Vec2, t: f64) -> Vec2 {
    let at = |a: f32, b: f32| (f64::from(a) + t * (f64::from(b) - f64::from(a))) as f32;
    Vec2::new(at(a.x, b.x), at(a.y, b.y))
}

/// An endpoint of the shared piece, known by which input point it is where possible.
#[derive(Clone, Copy)]
struct End {
    t: f64,
    u: f64,
    point: Vec2,
}

/// The four points lie on one line (or a segment is degenerate).
fn collinear(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> SegmentIntersection {
    let a_is_point = a0 == a1;
    let b_is_point = b0 == b1;
    match (a_is_point, b_is_point) {
        (true, true) => {
            return if a0 == b0 {
                SegmentIntersection::Point {
                    t: 0.0,
                    u: 0.0,
                    point: a0,
                }
            } else {
                SegmentIntersection::None
            };
        }
        (true, false) => {
            return match parameter_within(b0, b1, a0) {
                Some(u) => SegmentIntersection::Point {
                    t: 0.0,
                    u: u as f32,
                    point: a0,
                },
                None => SegmentIntersection::None,
            };
        }
        (false, true) => {
            return match parameter_within(a0, a1, b0) {
                Some(t) => SegmentIntersection::Point {
                    t: t as f32,
                    u: 0.0,
                    point: b0,
                },
                None => SegmentIntersection::None,
            };
        }
        (false, false) => {}
    }
    // Order points along the line by the coordinate in which `a` moves most, signed so that
    // `a` runs forwards. On a common line distinct points differ in it, so comparisons are exact.
    let axis = dominant_axis(a1 - a0);
    let sign = if a1[axis] > a0[axis] { 1.0 } else { -1.0 };
    let key = |p: Vec2| sign * p[axis];
    let (ka0, ka1, kb0, kb1) = (key(a0), key(a1), key(b0), key(b1));
    let (kb_lo, b_lo, u_lo) = if kb0 <= kb1 {
        (kb0, b0, 0.0)
    } else {
        (kb1, b1, 1.0)
    };
    let (kb_hi, b_hi, u_hi) = if kb0 <= kb1 {
        (kb1, b1, 1.0)
    } else {
        (kb0, b0, 0.0)
    };
    if kb_hi < ka0 || kb_lo > ka1 {
        return SegmentIntersection::None;
    }
    let first = if ka0 >= kb_lo {
        let u = if ka0 == kb_lo {
            u_lo
        } else {
            parameter(b0, b1, a0)
        };
        End {
            t: 0.0,
            u,
            point: a0,
        }
    } else {
        End {
            t: parameter(a0, a1, b_lo),
            u: u_lo,
            point: b_lo,
        }
    };
    let last = if ka1 <= kb_hi {
        let u = if ka1 == kb_hi {
            u_hi
        } else {
            parameter(b0, b1, a1)
        };
        End {
            t: 1.0,
            u,
            point: a1,
        }
    } else {
        End {
            t: parameter(a0, a1, b_hi),
            u: u_hi,
            point: b_hi,
        }
    };
    if first.point == last.point {
        SegmentIntersection::Point {
            t: first.t as f32,
            u: first.u as f32,
            point: first.point,
        }
    } else {
        SegmentIntersection::Overlap {
            t: [first.t as f32, last.t as f32],
            u: [first.u as f32, last.u as f32],
        }
    }
}

/// 0 for `x`, 1 for `y`: the axis of the larger component.
#[inline]
fn dominant_axis(v: Vec2) -> usize {
    usize::from(v.y.abs() > v.x.abs())
}

/// The parameter of `p` on the segment `p0 → p1`, for a point `p` on its line (and `p0 ≠ p1`).
/// Uses the dominant axis, so it is one correctly rounded `f64` quotient of exact differences.
#[inline]
fn parameter(p0: Vec2, p1: Vec2, p: Vec2) -> f64 {
    let axis = dominant_axis(p1 - p0);
    let num = f64::from(p[axis]) - f64::from(p0[axis]);
    let den = f64::from(p1[axis]) - f64::from(p0[axis]);
    (num / den).clamp(0.0, 1.0)
}

/// The parameter of a collinear point `p` on `p0 → p1`, if it lies within the closed segment.
fn parameter_within(p0: Vec2, p1: Vec2, p: Vec2) -> Option<f64> {
    let axis = dominant_axis(p1 - p0);
    let (lo, hi) = (p0[axis].min(p1[axis]), p0[axis].max(p1[axis]));
    (lo..=hi).contains(&p[axis]).then(|| {
        if p == p0 {
            0.0
        } else if p == p1 {
            1.0
        } else {
            parameter(p0, p1, p)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use SegmentIntersection as I;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn table() {
        #[rustfmt::skip]
        let cases = [
            // proper crossing (an X)
            ((v(0., 0.), v(4., 4.)), (v(0., 4.), v(4., 0.)), I::Point { t: 0.5, u: 0.5, point: v(2., 2.) }),
            // parallel, apart
            ((v(0., 0.), v(4., 0.)), (v(0., 1.), v(4., 1.)), I::None),
            // lines cross beyond the end of b
            ((v(0., 0.), v(4., 4.)), (v(0., 4.), v(1., 3.)), I::None),
            // T-junction: b ends on the middle of a
            ((v(0., 0.), v(4., 0.)), (v(2., 3.), v(2., 0.)), I::Point { t: 0.5, u: 1.0, point: v(2., 0.) }),
            // endpoints touch at an angle
            ((v(0., 0.), v(2., 0.)), (v(2., 0.), v(3., 5.)), I::Point { t: 1.0, u: 0.0, point: v(2., 0.) }),
            // collinear, touching end to end
            ((v(0., 0.), v(2., 0.)), (v(2., 0.), v(5., 0.)), I::Point { t: 1.0, u: 0.0, point: v(2., 0.) }),
            // collinear, end to end but reversed
            ((v(0., 0.), v(2., 0.)), (v(5., 0.), v(2., 0.)), I::Point { t: 1.0, u: 1.0, point: v(2., 0.) }),
            // collinear, disjoint
            ((v(0., 0.), v(2., 0.)), (v(3., 0.), v(5., 0.)), I::None),
            // collinear overlap, same direction
            ((v(0., 0.), v(4., 0.)), (v(2., 0.), v(6., 0.)), I::Overlap { t: [0.5, 1.0], u: [0.0, 0.5] }),
            // collinear overlap, opposite direction: u descends
            ((v(0., 0.), v(4., 0.)), (v(6., 0.), v(2., 0.)), I::Overlap { t: [0.5, 1.0], u: [1.0, 0.5] }),
            // b inside a, vertical
            ((v(1., 0.), v(1., 8.)), (v(1., 2.), v(1., 4.)), I::Overlap { t: [0.25, 0.5], u: [0.0, 1.0] }),
            // identical segments
            ((v(0., 0.), v(1., 1.)), (v(0., 0.), v(1., 1.)), I::Overlap { t: [0.0, 1.0], u: [0.0, 1.0] }),
            // zero-length a on b
            ((v(1., 1.), v(1., 1.)), (v(0., 0.), v(4., 4.)), I::Point { t: 0.0, u: 0.25, point: v(1., 1.) }),
            // zero-length a off b (collinear extension)
            ((v(5., 5.), v(5., 5.)), (v(0., 0.), v(4., 4.)), I::None),
            // zero-length b on a's endpoint
            ((v(0., 0.), v(4., 4.)), (v(4., 4.), v(4., 4.)), I::Point { t: 1.0, u: 0.0, point: v(4., 4.) }),
            // two equal points
            ((v(3., 3.), v(3., 3.)), (v(3., 3.), v(3., 3.)), I::Point { t: 0.0, u: 0.0, point: v(3., 3.) }),
            // two different points
            ((v(3., 3.), v(3., 3.)), (v(3., 4.), v(3., 4.)), I::None),
        ];
        for ((a0, a1), (b0, b1), expected) in cases {
            assert_eq!(
                intersect_segment_segment(a0, a1, b0, b1),
                expected,
                "a {a0}->{a1}, b {b0}->{b1}"
            );
        }
    }

    #[test]
    fn near_parallel_miss_by_one_ulp() {
        // b runs along a's line but its start is one ulp above: the lines cross far away.
        let a0 = v(0.0, 0.0);
        let a1 = v(1000.0, 1000.0);
        let b0 = v(10.0, 10.0_f32.next_up());
        let b1 = v(990.0, 990.0);
        assert_eq!(
            intersect_segment_segment(a0, a1, b0, b1),
            I::Point {
                t: 0.99,
                u: 1.0,
                point: b1
            }
        );
        let b1_above = v(990.0, 990.0_f32.next_up());
        assert_eq!(intersect_segment_segment(a0, a1, b0, b1_above), I::None);
    }

    #[test]
    fn non_finite_is_none() {
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(
                intersect_segment_segment(v(bad, 0.), v(1., 1.), v(0., 1.), v(1., 0.)),
                I::None
            );
        }
    }
}
