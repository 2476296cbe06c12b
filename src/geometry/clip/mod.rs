//! Segment against axis-aligned box: which part of a segment lies in a closed [`Aabb2d`].
//!
//! The four clippers and the batch form; see [`clip_segment_aabb`] for the comparison.

mod batch;
mod cohen_sutherland;
mod liang_barsky;
mod sectors;
mod slab;

pub use batch::{BatchLengthError, SegmentBatch, clip_segments_aabb};
pub(crate) use batch::{clip_centered, clip8_centered};
pub use cohen_sutherland::clip_segment_aabb_cohen_sutherland;
pub use liang_barsky::clip_segment_aabb_liang_barsky;
pub use sectors::clip_segment_aabb_sectors;
pub use slab::clip_segment_aabb_slab;

use super::SegmentClip;
use super::robust::orient2d;
use bevy_math::{Vec2, bounding::Aabb2d};

/// The part of the segment `start → end` inside the closed box `aabb`, if any.
///
/// All arguments are in the same frame (usually world space). The result's parameters are
/// fractions of the segment: the point `start + t·(end − start)` is in the box exactly for
/// `entry <= t <= exit`.
///
/// # Behavior
/// - Boundaries are closed: touching an edge or a corner is a contact (`entry == exit`), and a
///   segment lying along an edge is inside.
/// - A zero-length segment inside the box (or on its boundary) clips to `[0, 1]`; outside, to
///   `None`.
/// - A zero-size box (`min == max`) is a point or a segment and is hit when touched; a box
///   with `min > max` on an axis contains nothing.
/// - Non-finite input (NaN, ±∞) gives `None`.
///
/// This is [`clip_segment_aabb_slab`], the fastest of the four in `benches/kernels.rs`.
///
/// # Algorithms
/// Four algorithms from the literature compute the same [`SegmentClip`], so each can check the
/// others, and [`clip_segment_aabb`] is whichever the benchmarks show is fastest on uniform
/// data (see `docs/benchmarks.md` for the table):
///
/// | function | idea | source |
/// |---|---|---|
/// | [`clip_segment_aabb_liang_barsky`] | clip the parameter range against the four boundary half-planes | Liang & Barsky (1984) |
/// | [`clip_segment_aabb_slab`] | intersect the two axis slabs, branch-free | Kay & Kajiya (1986) |
/// | [`clip_segment_aabb_cohen_sutherland`] | region outcodes, trivial accept/reject, then clip | Cohen & Sutherland (1967) |
/// | [`clip_segment_aabb_sectors`] | a 9 × 9 sector lookup table picks the only edges worth testing | the nine-region idea of Nicholl, Lee & Nicholl (1987) |
/// | [`clip_segments_aabb`] | many segments against one box, eight lanes at a time | the slab test on `wide::f32x8` |
///
/// ## Exactness
///
/// Each algorithm runs in `f32`, and its answer is *certified*: when the entry and exit it
/// computed are further apart (or further the wrong way round) than its rounding error could
/// explain, the answer stands. Otherwise, which happens only for touches and near-touches at a
/// corner or along an edge, the contact question is decided exactly, by the separating axis
/// test with exact orientation predicates (see `robust.rs`), and the parameters are recomputed
/// in `f64`. So every algorithm reports a contact exactly when the real segment touches the
/// real closed box, for every finite input, and all of them agree on it. Entry and exit are
/// accurate to a few `f32` ulps.
///
/// # Example
/// ```
/// use bevy_math::{Vec2, bounding::Aabb2d};
/// use bevy_sweep::geometry::clip_segment_aabb;
///
/// let unit = Aabb2d { min: Vec2::ZERO, max: Vec2::ONE };
/// // Through the box from left to right.
/// let clip = clip_segment_aabb(Vec2::new(-1.0, 0.5), Vec2::new(3.0, 0.5), &unit).unwrap();
/// assert_eq!((clip.entry, clip.exit), (0.25, 0.5));
/// // Touching the top-right corner only.
/// let touch = clip_segment_aabb(Vec2::new(0.0, 2.0), Vec2::new(2.0, 0.0), &unit).unwrap();
/// assert_eq!((touch.entry, touch.exit), (0.5, 0.5));
/// // Passing just beside it.
/// assert!(clip_segment_aabb(Vec2::new(0.0, 2.0), Vec2::new(2.0, 0.1), &unit).is_none());
/// ```
#[doc(alias = "segment_aabb")]
#[doc(alias = "line_rectangle")]
#[inline]
#[must_use]
pub fn clip_segment_aabb(start: Vec2, end: Vec2, aabb: &Aabb2d) -> Option<SegmentClip> {
    clip_segment_aabb_slab(start, end, aabb)
}

/// What an algorithm's `f32` fast path found, before certification.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Estimate {
    /// Certainly no contact (decided by exact comparisons of the input).
    Miss,
    /// Certainly the whole segment (both endpoints in the closed box, compared exactly).
    Full,
    /// Entry and exit computed in `f32`; each within [`ESTIMATE_ERROR`] of the true value.
    Interval { lo: f32, hi: f32 },
    /// The fast path could not tell.
    Unsure,
}

/// Relative error bound of an estimated entry or exit: a quotient of two rounded differences,
/// possibly through a rounded reciprocal, is within `4u` (`u = 2^-24`); we allow four times that
/// so the band also covers the rounding of `hi − lo` itself.
const ESTIMATE_ERROR: f32 = 8.0 * f32::EPSILON;

/// Coordinates at least this large (`2^125`) skip the `f32` fast path: differences of smaller
/// ones cannot overflow, so a fast path never meets `∞ − ∞` or `0 · ∞`.
const FAST_PATH_LIMIT: f32 = 4.253_53e37;

/// How the input can be processed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InputRange {
    /// Every coordinate is finite and below [`FAST_PATH_LIMIT`] in magnitude.
    Fast,
    /// Finite, but some coordinate is huge: take the `f64` path.
    Large,
    /// Some coordinate is NaN or infinite.
    NonFinite,
}

/// Classifies the four points of a segment/box query.
#[inline]
pub(crate) fn input_range(start: Vec2, end: Vec2, aabb: &Aabb2d) -> InputRange {
    let coords = [
        start.x, start.y, end.x, end.y, aabb.min.x, aabb.min.y, aabb.max.x, aabb.max.y,
    ];
    // `abs() < LIMIT` is false for NaN and ±∞, so one pass covers the common case.
    if coords.iter().all(|c| c.abs() < FAST_PATH_LIMIT) {
        InputRange::Fast
    } else if coords.iter().all(|c| c.is_finite()) {
        InputRange::Large
    } else {
        InputRange::NonFinite
    }
}

/// `true` unless the box is inverted (`min > max` on an axis: it contains no point) or NaN.
#[inline]
pub(crate) fn is_proper(aabb: &Aabb2d) -> bool {
    aabb.min.x <= aabb.max.x && aabb.min.y <= aabb.max.y
}

/// Runs an algorithm's fast path on valid input and certifies its answer.
#[inline]
pub(crate) fn clip_with(
    start: Vec2,
    end: Vec2,
    aabb: &Aabb2d,
    fast_path: impl FnOnce(Vec2, Vec2, &Aabb2d) -> Estimate,
) -> Option<SegmentClip> {
    if !is_proper(aabb) {
        return None;
    }
    match input_range(start, end, aabb) {
        InputRange::Fast => certify(start, end, aabb, fast_path(start, end, aabb)),
        InputRange::Large => clip_exactly(start, end, aabb),
        InputRange::NonFinite => None,
    }
}

/// Turns an [`Estimate`] into a certain answer, deciding exactly where the estimate is too close
/// to call.
#[inline]
pub(crate) fn certify(
    start: Vec2,
    end: Vec2,
    aabb: &Aabb2d,
    estimate: Estimate,
) -> Option<SegmentClip> {
    match estimate {
        Estimate::Miss => None,
        Estimate::Full => Some(SegmentClip::FULL),
        Estimate::Interval { lo, hi } => {
            // `lo` and `hi` lie in [0, 1] unless a boundary ruled the segment out, in which case
            // one of them is ±∞; the band is relative to the clamped size. NaN falls through
            // to the exact decision.
            let band = ESTIMATE_ERROR * lo.max(hi).min(1.0) + f32::MIN_POSITIVE;
            let hit = hi - lo > band;
            let miss = lo - hi > band;
            if !(hit || miss) {
                return clip_exactly(start, end, aabb);
            }
            hit.then_some(SegmentClip {
                entry: lo,
                exit: hi,
            })
        }
        Estimate::Unsure => clip_exactly(start, end, aabb),
    }
}

/// The exact decision and `f64` parameters, for input the fast paths cannot certify.
#[cold]
#[inline(never)]
pub(crate) fn clip_exactly(start: Vec2, end: Vec2, aabb: &Aabb2d) -> Option<SegmentClip> {
    touches(start, end, aabb).then(|| parameters_f64(start, end, aabb))
}

/// `true` if the closed segment and the closed box share a point, decided exactly.
///
/// Separating axis test: two convex sets are disjoint exactly when a separating line exists,
/// and for a segment and a box it is parallel to an axis (the bounding boxes are disjoint) or
/// to the segment (all four corners strictly on one side of it). Input must be finite.
pub(crate) fn touches(start: Vec2, end: Vec2, aabb: &Aabb2d) -> bool {
    let (lo, hi) = (start.min(end), start.max(end));
    let bounds_overlap = lo.x <= aabb.max.x
        && hi.x >= aabb.min.x
        && lo.y <= aabb.max.y
        && hi.y >= aabb.min.y
        && aabb.min.x <= aabb.max.x
        && aabb.min.y <= aabb.max.y;
    if !bounds_overlap {
        return false;
    }
    let corners = [
        aabb.min,
        Vec2::new(aabb.max.x, aabb.min.y),
        aabb.max,
        Vec2::new(aabb.min.x, aabb.max.y),
    ];
    let sides = corners.map(|c| orient2d(start, end, c));
    !(sides.iter().all(|&s| s > 0.0) || sides.iter().all(|&s| s < 0.0))
}

/// Entry and exit in `f64`, for a segment known to touch the box.
fn parameters_f64(start: Vec2, end: Vec2, aabb: &Aabb2d) -> SegmentClip {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for axis in 0..2 {
        let s = f64::from(start[axis]);
        let d = f64::from(end[axis]) - s;
        if d != 0.0 {
            let t_min = (f64::from(aabb.min[axis]) - s) / d;
            let t_max = (f64::from(aabb.max[axis]) - s) / d;
            lo = lo.max(t_min.min(t_max));
            hi = hi.min(t_min.max(t_max));
        }
    }
    if lo > hi {
        // The segment touches (decided exactly), so this is rounding at a corner.
        let mid = 0.5 * (lo + hi);
        (lo, hi) = (mid, mid);
    }
    SegmentClip {
        entry: lo as f32,
        exit: hi as f32,
    }
}

#[cfg(test)]
mod tests;
