//! Liang–Barsky clipping (Liang & Barsky, 1984), with closed boundaries: a corner touch or a
//! segment along an edge is a contact.

use super::{Estimate, clip_with};
use crate::geometry::SegmentClip;
use bevy_math::{Vec2, bounding::Aabb2d};

/// [`clip_segment_aabb`](super::clip_segment_aabb) by the Liang–Barsky algorithm.
///
/// With `d = end − start`, each box side `k` gives an inequality `p_k·t <= q_k` on the
/// parameter: `p = (−dx, dx, −dy, dy)` and `q = (sx − min.x, max.x − sx, sy − min.y,
/// max.y − sy)`. Sides with `p_k < 0` are crossed entering, so the entry is the largest
/// `q_k / p_k` among them (and 0); sides with `p_k > 0` are crossed leaving, so the exit is the
/// smallest (and 1). A side with `p_k = 0` is parallel to the segment: `q_k < 0` means the
/// segment is wholly outside it, while `q_k = 0` (lying on the side's line) is inside, because
/// boundaries are closed.
///
/// Frame, parameters, closed boundaries and degenerate cases are exactly as for
/// [`clip_segment_aabb`](super::clip_segment_aabb), and the results are the same as the other
/// clippers'; see [`clip_segment_aabb`](super::clip_segment_aabb) for exactness.
#[doc(alias = "Liang-Barsky")]
#[inline]
#[must_use]
pub fn clip_segment_aabb_liang_barsky(
    start: Vec2,
    end: Vec2,
    aabb: &Aabb2d,
) -> Option<SegmentClip> {
    clip_with(start, end, aabb, estimate)
}

#[inline]
fn estimate(start: Vec2, end: Vec2, aabb: &Aabb2d) -> Estimate {
    let d = end - start;
    let sides = [
        (-d.x, start.x - aabb.min.x),
        (d.x, aabb.max.x - start.x),
        (-d.y, start.y - aabb.min.y),
        (d.y, aabb.max.y - start.y),
    ];
    let (mut lo, mut hi) = (0.0_f32, 1.0_f32);
    for (p, q) in sides {
        if p == 0.0 {
            // Exact: a rounded difference is negative exactly when the true one is.
            if q < 0.0 {
                return Estimate::Miss;
            }
        } else if p < 0.0 {
            lo = lo.max(q / p);
        } else {
            hi = hi.min(q / p);
        }
    }
    Estimate::Interval { lo, hi }
}
