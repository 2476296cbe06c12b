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

/// Up to two ascending parameters in `[0, 1]`; the roots of a segment query.
///
/// Iterable, with [`len`](Self::len) and [`as_slice`](Self::as_slice).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CircleHits {
    t: [f32; 2],
    len: u8,
}

impl CircleHits {
    /// No roots.
    pub const NONE: Self = Self {
        t: [0.0; 2],
        len: 0,
    };

    /// One root.
    #[inline]
    pub(crate) const fn one(t: f32) -> Self {
        Self {
            t: [t, 0.0],
            len: 1,
        }
    }

    /// Two distinct roots, ascending. They may be equal once rounded to `f32` (a segment that
    /// enters and leaves within one ulp of `t`): both are kept, since they are two crossings.
    #[inline]
    pub(crate) fn two(t0: f32, t1: f32) -> Self {
        debug_assert!(t0 <= t1, "roots out of order: {t0} > {t1}");
        Self {
            t: [t0, t1],
            len: 2,
        }
    }

    /// The roots, ascending.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[f32] {
        &self.t[..usize::from(self.len)]
    }

    /// How many roots (0, 1 or 2).
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// `true` if there is no root.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first root, if any.
    #[inline]
    #[must_use]
    pub fn first(&self) -> Option<f32> {
        self.as_slice().first().copied()
    }

    /// Iterates over the roots, ascending.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = f32> + '_ {
        self.as_slice().iter().copied()
    }
}

impl IntoIterator for CircleHits {
    type Item = f32;
    type IntoIter = core::iter::Take<core::array::IntoIter<f32, 2>>;

    fn into_iter(self) -> Self::IntoIter {
        self.t.into_iter().take(usize::from(self.len))
    }
}

/// A moment at which a moving point lies on a moving segment.
#[doc(alias = "toi")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep {
    /// When, as a fraction of the step in `[0, 1]`.
    pub time: f32,
    /// Where on the segment at that moment, in `[0, 1]`: `0` at the first endpoint, `1` at the
    /// second (and `0` if the segment has collapsed to a point).
    pub along: f32,
}

/// Up to two [`Sweep`]s, ascending by time.
///
/// Iterable, with [`len`](Self::len) and [`as_slice`](Self::as_slice).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sweeps {
    items: [Sweep; 2],
    len: u8,
}

impl Default for Sweep {
    fn default() -> Self {
        Self {
            time: 0.0,
            along: 0.0,
        }
    }
}

impl Sweeps {
    /// No sweep.
    pub const NONE: Self = Self {
        items: [Sweep {
            time: 0.0,
            along: 0.0,
        }; 2],
        len: 0,
    };

    /// Appends a sweep; ignores it if two are already held. Times must be pushed ascending.
    #[inline]
    pub(crate) fn push(&mut self, sweep: Sweep) {
        if let Some(slot) = self.items.get_mut(usize::from(self.len)) {
            *slot = sweep;
            self.len += 1;
        }
    }

    /// The sweeps, ascending by time.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[Sweep] {
        &self.items[..usize::from(self.len)]
    }

    /// How many sweeps (0, 1 or 2).
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// `true` if the point never lies on the segment during the step.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The earliest sweep, if any.
    #[inline]
    #[must_use]
    pub fn first(&self) -> Option<Sweep> {
        self.as_slice().first().copied()
    }

    /// Iterates over the sweeps, ascending by time.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = Sweep> + '_ {
        self.as_slice().iter().copied()
    }
}

impl IntoIterator for Sweeps {
    type Item = Sweep;
    type IntoIter = core::iter::Take<core::array::IntoIter<Sweep, 2>>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(usize::from(self.len))
    }
}
