//! The slab test (Kay & Kajiya, 1986), branch-free apart from its zero-direction guard.

use super::{Estimate, clip_with};
use crate::geometry::SegmentClip;
use bevy_math::{Vec2, bounding::Aabb2d};

/// [`clip_segment_aabb`](super::clip_segment_aabb) by intersecting the box's two slabs.
///
/// The segment is inside the `x` slab for `t` between `(min.x − sx)/dx` and `(max.x − sx)/dx`
/// (in either order), and likewise for `y`; the clip is the intersection of those two ranges
/// and `[0, 1]`. Multiplying by `1/d` instead of dividing keeps it to two divisions.
///
/// A zero direction component needs care: `1/0 = ∞`, and a segment lying exactly on the
/// slab's edge line computes `0 · ∞ = NaN`, which a branch-free `min`/`max` would silently
/// turn into "outside". Such an axis is decided by comparing the coordinate instead.
///
/// Frame, parameters, closed boundaries and degenerate cases are exactly as for
/// [`clip_segment_aabb`](super::clip_segment_aabb), and the results are the same as the other
/// clippers'; see [`clip_segment_aabb`](super::clip_segment_aabb) for exactness.
#[doc(alias = "ray_aabb")]
#[inline]
#[must_use]
pub fn clip_segment_aabb_slab(start: Vec2, end: Vec2, aabb: &Aabb2d) -> Option<SegmentClip> {
    clip_with(start, end, aabb, estimate)
}

#[inline]
fn estimate(start: Vec2, end: Vec2, aabb: &Aabb2d) -> Estimate {
    let d = end - start;
    let inv = d.recip();
    // A subnormal direction overflows its reciprocal to ∞, and then `0 · ∞` would be NaN.
    if (d.x != 0.0 && inv.x.is_infinite()) || (d.y != 0.0 && inv.y.is_infinite()) {
        return Estimate::Unsure;
    }
    let t_min = (aabb.min - start) * inv;
    let t_max = (aabb.max - start) * inv;
    let (near_x, far_x) = slab(d.x, start.x, aabb.min.x, aabb.max.x, t_min.x, t_max.x);
    let (near_y, far_y) = slab(d.y, start.y, aabb.min.y, aabb.max.y, t_min.y, t_max.y);
    Estimate::Interval {
        lo: near_x.max(near_y).max(0.0),
        hi: far_x.min(far_y).min(1.0),
    }
}

/// The parameter range inside one slab; `(−∞, ∞)` or `(∞, −∞)` for an axis the segment does
/// not move along.
#[inline]
fn slab(d: f32, s: f32, min: f32, max: f32, t_min: f32, t_max: f32) -> (f32, f32) {
    if d == 0.0 {
        if s >= min && s <= max {
            (f32::NEG_INFINITY, f32::INFINITY)
        } else {
            (f32::INFINITY, f32::NEG_INFINITY)
        }
    } else {
        (t_min.min(t_max), t_min.max(t_max))
    }
}
