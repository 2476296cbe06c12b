//! The broad phase: which pairs of boxes overlap.
//!
//! Each tick the plugin bounds every collider's motion with one box (its swept bounds) and
//! asks which boxes overlap; only those pairs reach the exact narrow phase.
//! [`SweepQuery`](crate::query::SweepQuery) answers its queries from the same structure
//! ([`BroadPhase::query`], [`BroadPhase::query_segment`]).
//!
//! [`BroadPhase`] sorts and sweeps in horizontal strips: the plane is cut into rows about two
//! median boxes tall, each box goes into the rows it spans, and each row is swept on x. A row
//! holds only the boxes near one height, so a box is compared with its true neighbours
//! instead of with everything that shares its x-range, and everything a row needs sits
//! together in memory. Building the rows costs two linear passes: one radix sort of all the
//! boxes by their left edge, then a counting sort into rows, which keeps that order.
//!
//! Sort and sweep on one axis, a hierarchical spatial hash and a bounding-volume hierarchy
//! were measured against it on the same scenes (`cargo bench --bench broad`, where they
//! live now): the strips were faster on every scene, by 2.4× to 77×, and the only one to
//! grow near-linearly. The numbers, and why, are in the repository's `docs/design.md`.
//!
//! The plugin hands the strips its swept colliders' boxes already in order of left edge
//! (it sorts them with their colliders' indices), and searches the rows in parallel parts.
//! Resting colliders (still and unchanged) have strips of their own, rebuilt only when one
//! of them comes to rest, starts to move, changes or goes, and queried by each swept
//! collider's box; two resting colliders are never paired.

mod radix;
mod strips;

#[cfg(feature = "plugin")]
pub(crate) use radix::{order_key, sort_by_high_half};

use bevy_math::bounding::Aabb2d;
use core::ops::ControlFlow;

/// Finds the pairs of overlapping boxes, keeping its buffers from call to call (after the
/// first calls, a call allocates only when the scene grows).
///
/// ```
/// use bevy_math::{Vec2, bounding::Aabb2d};
/// use bevy_sweep::broad::BroadPhase;
///
/// let boxes = [
///     Aabb2d::new(Vec2::new(0.0, 0.0), Vec2::splat(1.0)),
///     Aabb2d::new(Vec2::new(1.5, 0.0), Vec2::splat(1.0)), // overlaps the first
///     Aabb2d::new(Vec2::new(9.0, 0.0), Vec2::splat(1.0)), // alone
/// ];
/// let mut broad = BroadPhase::default();
/// let mut pairs = Vec::new();
/// broad.find_pairs(&boxes, |_, _| true, &mut pairs);
/// assert_eq!(pairs, [(0, 1)]);
/// ```
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct BroadPhase {
    strips: strips::Strips,
}

impl BroadPhase {
    /// An empty broad phase.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Replaces `pairs` with every pair `(i, j)`, `i < j`, of indices into `bounds` whose
    /// closed boxes overlap (touching edges count) and for which `filter(i, j)` is true, each
    /// pair once, and keeps the boxes for queries.
    ///
    /// Boxes with a non-finite coordinate overlap nothing.
    pub fn find_pairs(
        &mut self,
        bounds: &[Aabb2d],
        filter: impl Fn(u32, u32) -> bool,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        pairs.clear();
        debug_assert!(u32::try_from(bounds.len()).is_ok());
        self.strips.find_pairs(bounds, &filter, pairs);
    }

    /// Builds the rows over boxes that are all usable (finite, not inside out) and already in
    /// order of lower x edge, as the plugin hands them over (the strips skip their sort),
    /// without finding their pairs.
    #[cfg(feature = "plugin")]
    pub(crate) fn build_in_order(&mut self, bounds: &[Aabb2d]) {
        self.strips.build_in_order(bounds);
    }

    /// After [`build_in_order`](Self::build_in_order): the pairs of the boxes of a part of the
    /// plane, `part` of `parts` (consecutive rows with about equal shares of the boxes), each
    /// pair in exactly one part, so that the parts can be searched in parallel.
    #[cfg(feature = "plugin")]
    pub(crate) fn pairs_in_part(&self, part: usize, parts: usize, mut found: impl FnMut(u32, u32)) {
        self.strips
            .pairs_in_rows(self.part_rows(part, parts), &mut found);
    }

    /// Makes this the same as `other` (for the plugin's snapshot), reusing its buffers.
    #[cfg(feature = "plugin")]
    pub(crate) fn copy_from(&mut self, other: &Self) {
        self.strips.copy_from(&other.strips);
    }

    /// The rows of part `part` of `parts`: consecutive rows holding about `1/parts` of the
    /// entries each.
    #[cfg(feature = "plugin")]
    fn part_rows(&self, part: usize, parts: usize) -> core::ops::Range<usize> {
        let starts = self.strips.row_starts();
        let count = self.strips.row_count();
        let Some(&total) = starts.get(count) else {
            return 0..0;
        };
        let row_at = |share: usize| {
            let entry = (u64::from(total) * share as u64 / parts as u64) as u32;
            starts[..count].partition_point(|&s| s < entry)
        };
        let first = if part == 0 { 0 } else { row_at(part) };
        let end = if part + 1 >= parts {
            count
        } else {
            row_at(part + 1)
        };
        first..end.max(first)
    }

    /// Calls `found` once with the index of every box of the last
    /// [`find_pairs`](Self::find_pairs) that overlaps `query`.
    ///
    /// ```
    /// use bevy_math::{Vec2, bounding::Aabb2d};
    /// use bevy_sweep::broad::BroadPhase;
    ///
    /// let boxes = [
    ///     Aabb2d::new(Vec2::new(0.0, 0.0), Vec2::splat(1.0)),
    ///     Aabb2d::new(Vec2::new(5.0, 5.0), Vec2::splat(1.0)),
    /// ];
    /// let mut broad = BroadPhase::default();
    /// broad.find_pairs(&boxes, |_, _| true, &mut Vec::new());
    /// let mut found = Vec::new();
    /// broad.query(&Aabb2d::new(Vec2::new(4.0, 4.0), Vec2::splat(0.5)), |i| found.push(i));
    /// assert_eq!(found, [1]);
    /// ```
    pub fn query(&self, query: &Aabb2d, mut found: impl FnMut(u32)) {
        if !usable(query) || !self.strips.extent().is_some_and(|all| overlap(&all, query)) {
            return;
        }
        let (Some(low), Some(high)) = (
            self.strips.row_of(query.min.y),
            self.strips.row_of(query.max.y),
        ) else {
            return;
        };
        for row in low..=high {
            self.strips.query_row(query, row, true, &mut found);
        }
    }

    /// Calls `found(index, t)` with every box of the last [`find_pairs`](Self::find_pairs)
    /// that may touch the segment from `a` to `b`, visiting the plane in order from `a`:
    /// `t` (in `[0, 1]`, from `a` to `b`) is where the segment enters the part of the plane
    /// being visited: every box that touches the segment before `t` has been found already.
    /// A box may be found more than once, in parts of the plane visited one after another
    /// (it spans consecutive rows, and every row between two that meet it meets it too).
    /// Return
    /// [`ControlFlow::Break`] to stop (for a first hit: once the best hit so far comes before
    /// `t`).
    pub fn query_segment(
        &self,
        a: bevy_math::Vec2,
        b: bevy_math::Vec2,
        mut found: impl FnMut(u32, f32) -> ControlFlow<()>,
    ) {
        self.query_segment_in_rows(a, b, |i, t, _| found(i, t));
    }

    /// [`query_segment`](Self::query_segment), also telling each box's row: the rows come
    /// in the order they are visited, each once, and every box of a row is found once in it.
    pub(crate) fn query_segment_in_rows(
        &self,
        a: bevy_math::Vec2,
        b: bevy_math::Vec2,
        mut found: impl FnMut(u32, f32, usize) -> ControlFlow<()>,
    ) {
        let Some((bottom, height, count)) = self.strips.layout() else {
            return;
        };
        if !(a.is_finite() && b.is_finite() && (b - a).is_finite()) {
            return;
        }
        // A segment that touches a box has its bounds (exact: minima and maxima) overlap
        // the box's, and so the bounds of every box.
        let ends = Aabb2d {
            min: a.min(b),
            max: a.max(b),
        };
        if !self.strips.extent().is_some_and(|all| overlap(&all, &ends)) {
            return;
        }
        let (Some(first), Some(last)) = (self.strips.row_of(a.y), self.strips.row_of(b.y)) else {
            return;
        };
        let dy = f64::from(b.y) - f64::from(a.y);
        // Where the segment is at height `y`, as a fraction of the way from `a` to `b`.
        let t_at = |y: f64| (y - f64::from(a.y)) / dy;
        let rows: &mut dyn Iterator<Item = usize> = if first <= last {
            &mut (first..=last)
        } else {
            &mut (last..=first).rev()
        };
        for row in rows {
            // The part of the segment within this row's band of heights.
            let (mut t0, mut t1) = (0.0f64, 1.0f64);
            if dy != 0.0 {
                let low = if row == 0 {
                    f64::NEG_INFINITY
                } else {
                    bottom + row as f64 * height
                };
                let high = if row + 1 == count {
                    f64::INFINITY
                } else {
                    bottom + (row + 1) as f64 * height
                };
                let (ta, tb) = (t_at(low), t_at(high));
                t0 = ta.min(tb).max(0.0);
                t1 = ta.max(tb).min(1.0);
            }
            // In f64, padded by a relative 2^-20 of the segment's own coordinates: the
            // piece's rounding must not separate it from a box the segment touches.
            let (da, db) = (a.as_dvec2(), b.as_dvec2());
            let at = |t: f64| da + (db - da) * t;
            let pad = bevy_math::DVec2::splat(
                da.abs().max(db.abs()).max_element() * PAD + f64::from(f32::MIN_POSITIVE),
            );
            let piece = Aabb2d {
                min: (at(t0).min(at(t1)) - pad).as_vec2(),
                max: (at(t0).max(at(t1)) + pad).as_vec2(),
            };
            let mut stop = false;
            self.strips.query_row(&piece, row, false, &mut |i| {
                if !stop && found(i, t0 as f32, row).is_break() {
                    stop = true;
                }
            });
            if stop {
                return;
            }
        }
    }
}

/// The relative padding of a segment query's pieces.
const PAD: f64 = 1.0 / (1u64 << 20) as f64;

/// `true` if the closed boxes overlap.
#[inline]
fn overlap(a: &Aabb2d, b: &Aabb2d) -> bool {
    a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y
}

/// `true` if every coordinate is finite and the box is not inside out.
#[inline]
pub(crate) fn usable(b: &Aabb2d) -> bool {
    b.min.is_finite() && b.max.is_finite() && b.min.x <= b.max.x && b.min.y <= b.max.y
}

#[cfg(test)]
mod tests;
