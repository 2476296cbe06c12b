//! Segment–circle intersection, robust for long segments and small circles.

use crate::geometry::CircleHits;
use crate::geometry::robust::{all_finite, circle_power, orient2d};
use bevy_math::Vec2;
use core::cmp::Ordering;

/// The parameters `t` in `[0, 1]` where the segment `start → end` meets the boundary of the
/// circle of `radius` around `center`, ascending.
///
/// In other words, the roots in `[0, 1]` of `|start + t·(end − start) − center|² = radius²`.
///
/// # Behavior
/// - A tangent segment touches once; a segment wholly inside the circle has no root.
/// - Whether an endpoint lies exactly on the circle is decided from an error-free expansion of
///   `|p − c|² − r²`, so such endpoints give exactly `t = 0` or `t = 1`, and whether each end is
///   inside or outside fixes how many roots lie in between.
/// - A zero-length segment on the boundary gives `[0]`; `radius = 0` is a point (the `t` where
///   the segment passes through `center`). A negative or non-finite radius, or any non-finite
///   coordinate, gives no root.
///
/// # Precision
/// The textbook form computes the discriminant as `b² − 4ac` with `c = |p0 − c|² − r²`;
/// when the segment is long and the circle small, `b²` and `4ac` are huge and nearly equal and
/// the difference is noise (the well-known failure with far-apart points). Here the
/// discriminant is `|d|²·r² − cross(d, p0 − c)²` (Lagrange's identity), which involves only the
/// circle's size and the line's distance from its centre, with the cross product evaluated
/// without cancellation; and the two roots come from `q = −(b + sign(b)·√Δ)` as `q/a` and `c/q`,
/// never from subtracting nearly equal numbers. All of it runs in `f64`.
///
/// # Example
/// ```
/// use bevy_math::Vec2;
/// use bevy_sweep::geometry::intersect_segment_circle;
///
/// // Through a unit circle at the origin, from x = −2 to x = 2.
/// let hits = intersect_segment_circle(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0), Vec2::ZERO, 1.0);
/// assert_eq!(hits.as_slice(), &[0.25, 0.75]);
/// // Tangent at the top: one root.
/// let tangent = intersect_segment_circle(Vec2::new(-1.0, 1.0), Vec2::new(1.0, 1.0), Vec2::ZERO, 1.0);
/// assert_eq!(tangent.as_slice(), &[0.5]);
/// ```
#[doc(alias = "line_circle")]
#[must_use]
pub fn intersect_segment_circle(start: Vec2, end: Vec2, center: Vec2, radius: f32) -> CircleHits {
    if !(all_finite([start, end, center]) && radius >= 0.0 && radius.is_finite()) {
        return CircleHits::new();
    }
    let powers = (
        circle_power(start, center, radius),
        circle_power(end, center, radius),
    );
    intersect_with_powers(start, end, center, radius, powers)
}

/// [`intersect_segment_circle`] of finite input, given the [`circle_power`]s of `start` and
/// `end` (for a caller that needs them too).
pub(crate) fn intersect_with_powers(
    start: Vec2,
    end: Vec2,
    center: Vec2,
    radius: f32,
    (c, c_end): (f64, f64),
) -> CircleHits {
    let r = f64::from(radius);
    // g(t) = |start + t·d − center|² − r² = a·t² + 2b·t + c, with g(0) = c and g(1) = c_end
    // evaluated with exact signs: whether each end is inside, on or outside the circle.
    let (dx, dy) = (
        f64::from(end.x) - f64::from(start.x),
        f64::from(end.y) - f64::from(start.y),
    );
    let (fx, fy) = (
        f64::from(start.x) - f64::from(center.x),
        f64::from(start.y) - f64::from(center.y),
    );
    let a = dx * dx + dy * dy;
    if a == 0.0 {
        return if c == 0.0 {
            CircleHits::one(0.0)
        } else {
            CircleHits::new()
        };
    }
    let b = fx * dx + fy * dy;
    match (c.total_cmp(&0.0), c_end.total_cmp(&0.0)) {
        // Both ends strictly inside the disk: the segment never reaches the circle (convexity).
        (Ordering::Less, Ordering::Less) => CircleHits::new(),
        (Ordering::Equal, Ordering::Equal) => CircleHits::two(0.0, 1.0),
        (Ordering::Equal, Ordering::Less) => CircleHits::one(0.0),
        (Ordering::Less, Ordering::Equal) => CircleHits::one(1.0),
        // Starts on the circle and ends outside: the other root, −2b/a, is inside (0, 1) when
        // the segment first heads into the disk.
        (Ordering::Equal, Ordering::Greater) => {
            if b < 0.0 {
                CircleHits::two(0.0, to_unit(-2.0 * b / a))
            } else {
                CircleHits::one(0.0)
            }
        }
        // Ends on the circle, starts outside: the other root is c/a (product of the roots).
        (Ordering::Greater, Ordering::Equal) => {
            // g(t) = a·(t − other)·(t − 1): inside the disk between the two roots.
            let other = c / a;
            if other < 1.0 {
                CircleHits::two(to_unit(other), 1.0)
            } else {
                CircleHits::one(1.0)
            }
        }
        // One end strictly inside, one strictly outside: exactly one crossing in (0, 1).
        (Ordering::Less, Ordering::Greater) | (Ordering::Greater, Ordering::Less) => {
            let roots = roots(
                a,
                b,
                c,
                discriminant(a, b, c, r, start, end, center).max(0.0),
            );
            // The root in range is the one between the two ends; pick the nearer to it.
            let pick = if (0.0..=1.0).contains(&roots[0]) {
                roots[0]
            } else {
                roots[1]
            };
            CircleHits::one(to_unit(pick))
        }
        // Both ends strictly outside: zero or two crossings, both between the ends, exactly when
        // the closest approach lies between them and within the radius.
        (Ordering::Greater, Ordering::Greater) => {
            let vertex = -b / a;
            if !(0.0 < vertex && vertex < 1.0) {
                return CircleHits::new();
            }
            let disc = discriminant(a, b, c, r, start, end, center);
            match disc.total_cmp(&0.0) {
                Ordering::Less => CircleHits::new(),
                Ordering::Equal => CircleHits::one(vertex as f32),
                Ordering::Greater => {
                    let [t0, t1] = roots(a, b, c, disc);
                    CircleHits::two(to_unit(t0), to_unit(t1))
                }
            }
        }
    }
}

/// `Δ/4 = b² − a·c = |d|²·r² − cross(d, f)²` (Lagrange's identity), from whichever form is
/// more accurate here. The first loses everything when the start is far from a small circle
/// (`b²` and `a·c` huge and nearly equal); the second when the start is near the circle and
/// the line nearly tangent (`|d|²r²` and `cross²` nearly equal, while `c` is tiny and exact).
/// The cross product is the orientation of the centre against the segment, so its sign, and
/// with it the "passes exactly through the centre" case of a zero radius, is exact.
#[inline]
fn discriminant(a: f64, b: f64, c: f64, r: f64, start: Vec2, end: Vec2, center: Vec2) -> f64 {
    let cross = orient2d(start, end, center);
    let lagrange = a * r * r - cross * cross;
    // Sizes of the terms each form subtracts: its rounding error is proportional to them.
    let lagrange_error = a * r * r + cross * cross;
    let textbook_error = b * b + (a * c).abs();
    if textbook_error < lagrange_error {
        b * b - a * c
    } else {
        lagrange
    }
}

/// Both roots of `a·t² + 2b·t + c` for `disc = b² − a·c >= 0`, ascending, without cancellation.
#[inline]
fn roots(a: f64, b: f64, c: f64, disc: f64) -> [f64; 2] {
    let q = -(b + disc.sqrt().copysign(b));
    if q == 0.0 {
        // b = 0 and disc = 0: a double root at 0.
        return [0.0, 0.0];
    }
    let (r0, r1) = (q / a, c / q);
    if r0 <= r1 { [r0, r1] } else { [r1, r0] }
}

/// A root known to lie in `[0, 1]`, rounded to `f32` and kept there.
#[inline]
fn to_unit(t: f64) -> f32 {
    (t as f32).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn table() {
        #[rustfmt::skip]
        let cases: [(Vec2, Vec2, Vec2, f32, &[f32]); 14] = [
            // through the middle
            (v(-2., 0.), v(2., 0.), Vec2::ZERO, 1., &[0.25, 0.75]),
            // tangent at the top
            (v(-1., 1.), v(1., 1.), Vec2::ZERO, 1., &[0.5]),
            // misses above
            (v(-1., 1.5), v(1., 1.5), Vec2::ZERO, 1., &[]),
            // wholly inside
            (v(-0.5, 0.), v(0.5, 0.), Vec2::ZERO, 1., &[]),
            // starts inside, leaves
            (v(0., 0.), v(2., 0.), Vec2::ZERO, 1., &[0.5]),
            // starts outside, ends inside
            (v(-2., 0.), v(0., 0.), Vec2::ZERO, 1., &[0.5]),
            // stops short of the circle
            (v(-4., 0.), v(-2., 0.), Vec2::ZERO, 1., &[]),
            // ends exactly on the circle
            (v(-3., 0.), v(-1., 0.), Vec2::ZERO, 1., &[1.0]),
            // starts exactly on the circle and crosses the disk
            (v(-1., 0.), v(3., 0.), Vec2::ZERO, 1., &[0.0, 0.5]),
            // starts on the circle heading away
            (v(1., 0.), v(3., 0.), Vec2::ZERO, 1., &[0.0]),
            // a chord: both ends on the circle
            (v(-1., 0.), v(1., 0.), Vec2::ZERO, 1., &[0.0, 1.0]),
            // zero-length segment on the boundary
            (v(0., 5.), v(0., 5.), v(0., 2.), 3., &[0.0]),
            // radius 0: passes through the point
            (v(0., 0.), v(4., 4.), v(1., 1.), 0., &[0.25]),
            // negative radius is invalid
            (v(-2., 0.), v(2., 0.), Vec2::ZERO, -1., &[]),
        ];
        for (s, e, c, r, expected) in cases {
            let got = intersect_segment_circle(s, e, c, r);
            assert_eq!(
                got.as_slice(),
                expected,
                "segment {s}->{e}, circle {c} r {r}"
            );
        }
    }

    #[test]
    fn long_segment_small_circle() {
        // The textbook form's failure: points far apart. A 2·10^4-long segment through a circle
        // of radius 10^-2 whose centre sits 0.006 off the axis: the chord is 0.016 long, so the
        // roots are 0.5 ± 0.008/2e4. The textbook discriminant is the difference of two numbers
        // near 4·10^8·10^8 and is pure noise in f32.
        let s = v(-1.0e4, 0.0);
        let e = v(1.0e4, 0.0);
        let c = v(0.0, 0.006);
        let hits = intersect_segment_circle(s, e, c, 0.01);
        assert_eq!(hits.len(), 2, "{hits:?}");
        let half_chord = 0.008 / 2.0e4;
        for (got, want) in hits.iter().zip([0.5 - half_chord, 0.5 + half_chord]) {
            assert!((f64::from(got) - want).abs() < 1e-7, "{got} vs {want}");
        }
        // Moved to just outside: the naive discriminant would still see a hit or miss at random.
        assert!(intersect_segment_circle(s, e, v(0.0, 0.0101), 0.01).is_empty());
    }
}
