//! Many segments against one box, eight at a time with `wide::f32x8`.

use super::{InputRange, SegmentClip, input_range};
use bevy_math::{Vec2, bounding::Aabb2d};
use core::fmt;
use wide::f32x8;

/// Segments as a structure of arrays: segment `i` runs from `(start_x[i], start_y[i])` to
/// `(end_x[i], end_y[i])`, in the same frame as the box they are clipped against. All four
/// slices must have the same length.
#[derive(Clone, Copy, Debug)]
pub struct SegmentBatch<'a> {
    /// `x` of each segment's start.
    pub start_x: &'a [f32],
    /// `y` of each segment's start.
    pub start_y: &'a [f32],
    /// `x` of each segment's end.
    pub end_x: &'a [f32],
    /// `y` of each segment's end.
    pub end_y: &'a [f32],
}

impl SegmentBatch<'_> {
    /// The number of segments, if all four slices agree on it.
    #[inline]
    #[must_use]
    pub fn len(&self) -> Option<usize> {
        let n = self.start_x.len();
        (self.start_y.len() == n && self.end_x.len() == n && self.end_y.len() == n).then_some(n)
    }

    /// `true` if the batch holds no segment (or its slices disagree).
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len().is_none_or(|n| n == 0)
    }
}

/// The slices given to [`clip_segments_aabb`] have different lengths; nothing was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchLengthError {
    /// Lengths of `start_x`, `start_y`, `end_x`, `end_y` and the output slice.
    pub lengths: [usize; 5],
}

impl fmt::Display for BatchLengthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [sx, sy, ex, ey, out] = self.lengths;
        write!(
            f,
            "segment batch slices differ in length: start_x {sx}, start_y {sy}, end_x {ex}, \
             end_y {ey}, output {out}"
        )
    }
}

impl core::error::Error for BatchLengthError {}

/// [`clip_segment_aabb`](super::clip_segment_aabb) for many segments against one box.
///
/// Writes the clip of segment `i` to `out[i]`. The slab test runs on eight segments at once
/// with `wide::f32x8` (SSE2 or AVX, whichever the build targets, on stable Rust); lanes it
/// cannot certify, and lanes with non-finite or huge input, take the scalar route, so every
/// result is identical in meaning to the scalar function: same contacts, same closed
/// boundaries, parameters within a few ulps.
///
/// # Errors
/// [`BatchLengthError`] if the four input slices and `out` do not all have the same length;
/// `out` is left untouched.
///
/// # Example
/// ```
/// use bevy_math::{Vec2, bounding::Aabb2d};
/// use bevy_sweep::geometry::{SegmentBatch, clip_segments_aabb};
///
/// let unit = Aabb2d { min: Vec2::ZERO, max: Vec2::ONE };
/// let batch = SegmentBatch {
///     start_x: &[-1.0, 2.0],
///     start_y: &[0.5, 2.0],
///     end_x: &[3.0, 3.0],
///     end_y: &[0.5, 3.0],
/// };
/// let mut out = [None; 2];
/// clip_segments_aabb(batch, &unit, &mut out).unwrap();
/// assert_eq!(out[0].map(|c| (c.entry, c.exit)), Some((0.25, 0.5)));
/// assert_eq!(out[1], None);
/// ```
#[doc(alias = "simd")]
pub fn clip_segments_aabb(
    segments: SegmentBatch<'_>,
    aabb: &Aabb2d,
    out: &mut [Option<SegmentClip>],
) -> Result<(), BatchLengthError> {
    let SegmentBatch {
        start_x,
        start_y,
        end_x,
        end_y,
    } = segments;
    let n = out.len();
    if segments.len() != Some(n) {
        return Err(BatchLengthError {
            lengths: [start_x.len(), start_y.len(), end_x.len(), end_y.len(), n],
        });
    }
    if !super::is_proper(aabb) {
        out.fill(None);
        return Ok(());
    }
    if input_range(aabb.min, aabb.max, aabb) != InputRange::Fast {
        for i in 0..n {
            out[i] = scalar(start_x[i], start_y[i], end_x[i], end_y[i], aabb);
        }
        return Ok(());
    }
    let bounds = [aabb.min.x, aabb.min.y, aabb.max.x, aabb.max.y].map(f32x8::splat);
    let chunks = n / 8;
    // Chunk iterators rather than `[start_x, ..].map(|v| load(&v[range]))`: that `map` was
    // not inlined, a call per chunk that took a fifth of the batch's time.
    let input = start_x
        .chunks_exact(8)
        .zip(start_y.chunks_exact(8))
        .zip(end_x.chunks_exact(8).zip(end_y.chunks_exact(8)));
    for (c, (((sx, sy), (ex, ey)), slots)) in input.zip(out.chunks_exact_mut(8)).enumerate() {
        clip8(
            [load(sx), load(sy), load(ex), load(ey)],
            bounds,
            0,
            slots,
            |lane| {
                let i = c * 8 + lane;
                scalar(start_x[i], start_y[i], end_x[i], end_y[i], aabb)
            },
        );
    }
    for i in chunks * 8..n {
        out[i] = scalar(start_x[i], start_y[i], end_x[i], end_y[i], aabb);
    }
    Ok(())
}

/// [`clip_segments_aabb`] for eight segments, each against its own box centred on the origin:
/// lane `i` against the box `±(half_x[i], half_y[i])`. This is how a moving point meets a moving box
/// (the point's path seen from the box's centre), so point–box pairs can be clipped eight
/// at a time whatever they share: one box (bullets against a wall), one point (a bullet
/// through a row of tiles), or nothing. A lane whose box is not proper (a negative or NaN
/// half extent) touches nothing, as in the scalar function.
///
/// `lanes` holds, a lane each, the segments' `start_x`, `start_y`, `end_x`, `end_y` and the
/// boxes' `half_x`, `half_y`. Lanes the fast path cannot certify take [`clip_centered`].
#[inline]
pub(crate) fn clip8_centered(lanes: &[[f32; 8]; 6]) -> [Option<SegmentClip>; 8] {
    let [sx, sy, ex, ey, hx, hy] = lanes.map(f32x8::new);
    let limit = f32x8::splat(super::FAST_PATH_LIMIT);
    // Boxes that are not proper, or too large for the fast path (NaN fails both), take the
    // scalar route.
    let fast =
        hx.simd_ge(f32x8::ZERO) & hy.simd_ge(f32x8::ZERO) & hx.simd_lt(limit) & hy.simd_lt(limit);
    let mut out = [None; 8];
    clip8(
        [sx, sy, ex, ey],
        [-hx, -hy, hx, hy],
        !fast.to_bitmask() & 0xff,
        &mut out,
        |lane| {
            let [sx, sy, ex, ey, hx, hy] = lanes.map(|v| v[lane]);
            clip_centered(Vec2::new(sx, sy), Vec2::new(ex, ey), Vec2::new(hx, hy))
        },
    );
    out
}

/// The scalar clip of the segment against the box `±half`.
#[inline]
pub(crate) fn clip_centered(start: Vec2, end: Vec2, half: Vec2) -> Option<SegmentClip> {
    super::clip_segment_aabb(
        start,
        end,
        &Aabb2d {
            min: -half,
            max: half,
        },
    )
}

#[inline]
fn load(s: &[f32]) -> f32x8 {
    f32x8::new(s.try_into().expect("chunks are 8 long"))
}

#[inline]
fn scalar(sx: f32, sy: f32, ex: f32, ey: f32, aabb: &Aabb2d) -> Option<SegmentClip> {
    super::clip_segment_aabb(Vec2::new(sx, sy), Vec2::new(ex, ey), aabb)
}

/// Clips eight segments (`input`: start x, start y, end x, end y) against eight boxes
/// (`bounds`: min x, min y, max x, max y) into `out`; the lanes in the bitmask `scalar_lanes`,
/// and those the fast path cannot certify, are decided by `scalar(lane)`.
#[inline]
fn clip8(
    input: [f32x8; 4],
    bounds: [f32x8; 4],
    scalar_lanes: u32,
    out: &mut [Option<SegmentClip>],
    scalar: impl Fn(usize) -> Option<SegmentClip>,
) {
    let zero = f32x8::ZERO;
    // A subnormal direction overflows its reciprocal, and `0 · ∞` is NaN.
    let tiny = |d: f32x8| d.abs().simd_lt(f32x8::splat(f32::MIN_POSITIVE)) & d.simd_ne(zero);
    let [sx, sy, ex, ey] = input;
    let [min_x, min_y, max_x, max_y] = bounds;
    let limit = f32x8::splat(super::FAST_PATH_LIMIT);
    // Lanes outside the fast range (NaN, ±∞, huge) go to the scalar route below.
    let in_range = sx.abs().simd_lt(limit)
        & sy.abs().simd_lt(limit)
        & ex.abs().simd_lt(limit)
        & ey.abs().simd_lt(limit);
    let (dx, dy) = (ex - sx, ey - sy);
    let (near_x, far_x) = slab(dx, sx, min_x, max_x);
    let (near_y, far_y) = slab(dy, sy, min_y, max_y);
    let lo = near_x.fast_max(near_y).fast_max(zero);
    let hi = far_x.fast_min(far_y).fast_min(f32x8::ONE);
    let band = f32x8::splat(super::ESTIMATE_ERROR) * lo.fast_max(hi).fast_min(f32x8::ONE)
        + f32x8::splat(f32::MIN_POSITIVE);
    let hit = (hi - lo).simd_gt(band);
    let miss = (lo - hi).simd_gt(band);
    // Lanes too close to call are decided exactly by the scalar route.
    let scalar_lanes =
        scalar_lanes | (!in_range | tiny(dx) | tiny(dy) | !(hit | miss)).to_bitmask();
    let (lo, hi, hit) = (lo.to_array(), hi.to_array(), hit.to_bitmask());
    // Every lane's fast answer first, written straight into its slot: `Some` in all eight,
    // without a branch, then `None` over the misses, one pass per miss. Merging the fast and
    // the scalar answers per lane (`if scalar { .. } else { .. }`) made the compiler build
    // each `Option` on the stack with 4-byte stores and copy it on with an 8-byte load that
    // cannot be forwarded from them, a stall that took about 60% of the batch's time
    // (`perf annotate`, `clip/mostly_inside`); and `then_some` per lane compiles to a branch
    // per lane, which random data mispredicts.
    for (lane, slot) in out.iter_mut().enumerate() {
        *slot = Some(SegmentClip {
            entry: lo[lane],
            exit: hi[lane],
        });
    }
    let mut misses = !hit & 0xff;
    while misses != 0 {
        out[misses.trailing_zeros() as usize] = None;
        misses &= misses - 1;
    }
    // Then the few uncertified lanes again.
    if scalar_lanes != 0 {
        for (lane, slot) in out.iter_mut().enumerate() {
            if scalar_lanes & (1 << lane) != 0 {
                *slot = scalar(lane);
            }
        }
    }
}

/// The parameter range inside one slab, per lane; see the scalar
/// [`clip_segment_aabb_slab`](super::clip_segment_aabb_slab) for the zero-direction guard.
#[inline]
fn slab(d: f32x8, s: f32x8, min: f32x8, max: f32x8) -> (f32x8, f32x8) {
    let inv = f32x8::ONE / d;
    let t_min = (min - s) * inv;
    let t_max = (max - s) * inv;
    let near = t_min.fast_min(t_max);
    let far = t_min.fast_max(t_max);
    let parallel = d.simd_eq(f32x8::ZERO);
    let inside = s.simd_ge(min) & s.simd_le(max);
    let inf = f32x8::splat(f32::INFINITY);
    let (still_near, still_far) = (inside.select(-inf, inf), inside.select(inf, -inf));
    (
        parallel.select(still_near, near),
        parallel.select(still_far, far),
    )
}
