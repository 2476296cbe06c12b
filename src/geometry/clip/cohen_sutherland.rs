//! Cohen–Sutherland clipping (Cohen & Sutherland, 1967), returning parameters instead of
//! clipped points.

use super::{Estimate, clip_with};
use crate::geometry::SegmentClip;
use bevy_math::{Vec2, bounding::Aabb2d};

const LEFT: u8 = 1;
const RIGHT: u8 = 2;
const BOTTOM: u8 = 4;
const TOP: u8 = 8;

/// [`clip_segment_aabb`](super::clip_segment_aabb) by the Cohen–Sutherland algorithm.
///
/// Each endpoint gets a 4-bit *outcode* saying which sides of the box it lies beyond. Both codes
/// zero: the segment is inside (trivial accept). A bit common to both: it is wholly beyond that
/// side (trivial reject). Otherwise an outside endpoint is moved to the boundary it violates
/// and the test repeats, at most four times. Here the endpoints move along the parameter `t`
/// of the original segment, so the result is the same [`SegmentClip`] as the other clippers,
/// and the outcode of a moved endpoint is found by comparing parameters, not rounded
/// coordinates: a coordinate computed as `start + t·d` rounds relative to the coordinates'
/// size and can put a point that misses a corner onto the boundary.
///
/// Frame, parameters, closed boundaries and degenerate cases are exactly as for
/// [`clip_segment_aabb`](super::clip_segment_aabb), and the results are the same as the other
/// clippers'; see [`clip_segment_aabb`](super::clip_segment_aabb) for exactness.
#[doc(alias = "Cohen-Sutherland")]
#[doc(alias = "outcode")]
#[inline]
#[must_use]
pub fn clip_segment_aabb_cohen_sutherland(
    start: Vec2,
    end: Vec2,
    aabb: &Aabb2d,
) -> Option<SegmentClip> {
    clip_with(start, end, aabb, estimate)
}

/// Which sides of the box `p` lies strictly beyond.
#[inline]
fn outcode(p: Vec2, aabb: &Aabb2d) -> u8 {
    let mut code = 0;
    if p.x < aabb.min.x {
        code |= LEFT;
    } else if p.x > aabb.max.x {
        code |= RIGHT;
    }
    if p.y < aabb.min.y {
        code |= BOTTOM;
    } else if p.y > aabb.max.y {
        code |= TOP;
    }
    code
}

/// The outcode of `start + t·d`, decided by comparing `t` with the parameters at which the
/// segment crosses each boundary line.
#[inline]
fn outcode_at(start: Vec2, d: Vec2, t: f32, aabb: &Aabb2d) -> u8 {
    let axis = |s: f32, d: f32, min: f32, max: f32, below: u8, above: u8| {
        if d == 0.0 {
            // Never moves along this axis: the start's code holds all along.
            return if s < min {
                below
            } else if s > max {
                above
            } else {
                0
            };
        }
        let (t_min, t_max) = ((min - s) / d, (max - s) / d);
        let beyond_min = if d > 0.0 { t < t_min } else { t > t_min };
        let beyond_max = if d > 0.0 { t > t_max } else { t < t_max };
        if beyond_min {
            below
        } else if beyond_max {
            above
        } else {
            0
        }
    };
    axis(start.x, d.x, aabb.min.x, aabb.max.x, LEFT, RIGHT)
        | axis(start.y, d.y, aabb.min.y, aabb.max.y, BOTTOM, TOP)
}

fn estimate(start: Vec2, end: Vec2, aabb: &Aabb2d) -> Estimate {
    let (mut code0, mut code1) = (outcode(start, aabb), outcode(end, aabb));
    if code0 | code1 == 0 {
        return Estimate::Full;
    }
    if code0 & code1 != 0 {
        return Estimate::Miss;
    }
    let d = end - start;
    let (mut t0, mut t1) = (0.0_f32, 1.0_f32);
    // Each pass clears at least one bit for good, so four passes always suffice.
    for _ in 0..4 {
        if code0 | code1 == 0 {
            return Estimate::Interval { lo: t0, hi: t1 };
        }
        if code0 & code1 != 0 {
            // A rejection after clipping rests on rounded points: let the exact test decide.
            return Estimate::Unsure;
        }
        let clip_start = code0 != 0;
        let code = if clip_start { code0 } else { code1 };
        // Move to the first violated boundary; the clipped coordinate is then exactly on it.
        let (t, clipped_axis_bits) = if code & LEFT != 0 {
            ((aabb.min.x - start.x) / d.x, LEFT | RIGHT)
        } else if code & RIGHT != 0 {
            ((aabb.max.x - start.x) / d.x, LEFT | RIGHT)
        } else if code & BOTTOM != 0 {
            ((aabb.min.y - start.y) / d.y, BOTTOM | TOP)
        } else {
            ((aabb.max.y - start.y) / d.y, BOTTOM | TOP)
        };
        let new_code = outcode_at(start, d, t, aabb) & !clipped_axis_bits;
        if clip_start {
            (t0, code0) = (t, new_code);
        } else {
            (t1, code1) = (t, new_code);
        }
    }
    Estimate::Interval { lo: t0, hi: t1 }
}
