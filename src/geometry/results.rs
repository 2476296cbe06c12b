//! Named, `Copy` results of the geometry queries.

use bevy_math::Vec2;

/// The part of a segment inside a closed axis-aligned box, as segment parameters.
///
/// In other words, the point `start + t·(end − start)` lies in the box exactly for
/// `entry <= t <= exit`, with `0 <= entry <= exit <= 1`. A touch at a corner, or a segment
/// ending on an edge, has `entry == exit`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentClip {
    /// First parameter at which the segment is in the box (`0` if it starts inside).
    pub entry: f32,
    /// Last parameter at which the segment is in the box (`1` if it ends inside).
    pub exit: f32,
}

impl SegmentClip {
    /// The whole segment: `entry = 0`, `exit = 1`.
    pub const FULL: Self = Self {
        entry: 0.0,
        exit: 1.0,
    };

    /// `true` if the segment starts in the box (`entry == 0`).
    #[inline]
    #[must_use]
    pub fn starts_inside(&self) -> bool {
        self.entry == 0.0
    }

    /// `true` if the segment ends in the box (`exit == 1`).
    #[inline]
    #[must_use]
    pub fn ends_inside(&self) -> bool {
        self.exit == 1.0
    }

    /// The world-space entry and exit points of the segment `start → end`.
    #[inline]
    #[must_use]
    pub fn points(&self, start: Vec2, end: Vec2) -> [Vec2; 2] {
        [start.lerp(end, self.entry), start.lerp(end, self.exit)]
    }
}

/// How two segments meet; see [`intersect_segment_segment`](super::intersect_segment_segment).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SegmentIntersection {
    /// No common point.
    None,
    /// Exactly one common point: `a0 + t·(a1 − a0) = b0 + u·(b1 − b0) = point`.
    Point {
        /// Parameter on the first segment, in `[0, 1]`.
        t: f32,
        /// Parameter on the second segment, in `[0, 1]`.
        u: f32,
        /// The common point, in the same frame as the input.
        point: Vec2,
    },
    /// Collinear segments sharing a piece of positive length.
    ///
    /// `t[0] < t[1]` are the ends of the shared piece on the first segment, and `u[i]` is the
    /// parameter of the same point on the second segment (so `u` descends when the segments
    /// run in opposite directions).
    Overlap {
        /// Parameters on the first segment, ascending.
        t: [f32; 2],
        /// The matching parameters on the second segment.
        u: [f32; 2],
    },
}

impl SegmentIntersection {
    /// `true` unless the segments are disjoint.
    #[inline]
    #[must_use]
    pub fn is_some(&self) -> bool {
        !matches!(self, Self::None)
    }
}

/// At most two results of a query, in ascending order: the roots of a segment–circle query
/// ([`CircleHits`]) or the moments of a sweep ([`Sweeps`]).
///
/// Iterable, with [`len`](Self::len) and [`as_slice`](Self::as_slice); `Copy`, no allocation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UpToTwo<T> {
    items: [T; 2],
    len: u8,
}

impl<T: Copy + Default> UpToTwo<T> {
    /// No result.
    #[inline]
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// One result.
    #[inline]
    pub(crate) fn one(item: T) -> Self {
        let mut out = Self::new();
        out.push(item);
        out
    }

    /// Two results, in order. They may compare equal (two roots that round to the same `f32`
    /// are still two crossings), and both are kept.
    #[inline]
    pub(crate) fn two(first: T, second: T) -> Self {
        Self {
            items: [first, second],
            len: 2,
        }
    }

    /// Appends a result; ignores it if two are already held. Results must be pushed in order.
    #[inline]
    pub(crate) fn push(&mut self, item: T) {
        if let Some(slot) = self.items.get_mut(usize::from(self.len)) {
            *slot = item;
            self.len += 1;
        }
    }

    /// The results, in order.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }

    /// How many results (0, 1 or 2).
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// `true` if there is no result.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first result, if any.
    #[inline]
    #[must_use]
    pub fn first(&self) -> Option<T> {
        self.as_slice().first().copied()
    }

    /// Iterates over the results, in order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.as_slice().iter().copied()
    }
}

impl<T> IntoIterator for UpToTwo<T> {
    type Item = T;
    type IntoIter = core::iter::Take<core::array::IntoIter<T, 2>>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(usize::from(self.len))
    }
}

/// Up to two ascending parameters `t` in `[0, 1]` where a segment meets a circle's boundary;
/// see [`intersect_segment_circle`](super::intersect_segment_circle).
pub type CircleHits = UpToTwo<f32>;

/// Up to two [`Sweep`]s, ascending by time; see
/// [`sweep_point_segment`](super::sweep_point_segment).
pub type Sweeps = UpToTwo<Sweep>;

/// A moment at which a moving point lies on a moving segment.
#[doc(alias = "toi")]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sweep {
    /// When, as a fraction of the step in `[0, 1]`.
    pub time: f32,
    /// Where on the segment at that moment, in `[0, 1]`: `0` at the first endpoint, `1` at the
    /// second (and `0` if the segment has collapsed to a point).
    pub along: f32,
}
