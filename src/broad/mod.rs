//! The broad phase: which pairs of boxes overlap.
//!
//! Each tick the plugin bounds every collider's motion with one box (its swept bounds) and
//! asks [`BroadPhase::find_pairs`] which boxes overlap; only those pairs reach the exact
//! narrow phase. [`SweepQuery`](crate::query::SweepQuery) answers its queries from the same
//! structure ([`BroadPhase::query`], [`BroadPhase::query_segment`]). Four methods are here,
//! behind one interface, so that they can be measured on the same scenes:
//!
//! - [`BroadPhaseMethod::SortAndSweep`]: sort the boxes by their lower edge on the axis along
//!   which the centres spread most, then compare each box with those that start before it
//!   ends. `O(n log n)` plus the pairs that overlap on that one axis, which in 2D grows like
//!   `n^1.5` for a uniform scene and like `n^2` when everything shares a column.
//! - [`BroadPhaseMethod::Grid`]: a hierarchical spatial hash. The base cell is sized from the
//!   median box; a box lives in the first level whose cells are at least as large as it, so it
//!   covers at most 2 × 2 cells, and also looks up the coarser levels. Empty space costs
//!   nothing (cells are hashed), a few huge boxes sit alone on their coarse levels, and
//!   the work is linear in the boxes plus the pairs that share a cell.
//! - [`BroadPhaseMethod::Bvh`]: a bounding-volume hierarchy rebuilt every tick (median split
//!   on the longer axis, four boxes per leaf), then one query per box: `O(n log n)`.
//! - [`BroadPhaseMethod::Strips`]: cut the plane into rows about two median boxes tall, put
//!   each box in the rows it spans (a counting sort), sort each row by lower x edge and sweep
//!   it. A row holds only the boxes near one height, so a box is compared with its true
//!   neighbours instead of everything that shares its x-range.
//!
//! All four give the same pairs (checked against all pairs by brute force in the tests, on
//! uniform, clustered, long, huge, degenerate and non-finite boxes); the order of the pairs
//! differs between methods but is deterministic for one method.
//!
//! # Which one the plugin uses, and why
//!
//! [`BroadPhaseMethod::Strips`], the default of
//! [`SweepPlugin::broad_phase`](crate::SweepPlugin). `cargo bench --bench broad`, one run
//! pinned to one core (`taskset -c 0`) of a shared two-core x86-64 machine (noisy, so read
//! the ratios), median ms per call over boxes shaped like a tick's swept bounds, given
//! in random order (400 square units per box; "clustered": nine in ten boxes in a corner a
//! tenth of the arena wide; "long segments": a third are flat boxes 40–400 units long; "huge
//! boxes": one in a thousand a tenth of the arena wide). The other methods' times include
//! building the strips for the queries (see [`BroadPhase::find_pairs`]), a few percent of
//! theirs.
//!
//! | scene | boxes | pairs | sort and sweep | **strips** | grid | BVH |
//! |---|---:|---:|---:|---:|---:|---:|
//! | uniform | 1,000 | 283 | 0.156 | **0.050** | 0.168 | 0.377 |
//! | uniform | 10,000 | 2,857 | 2.74 | **0.604** | 3.26 | 5.93 |
//! | uniform | 100,000 | 28,934 | 81.8 | **8.86** | 57.0 | 85.4 |
//! | clustered | 10,000 | 63,644 | 7.74 | **1.72** | 9.37 | 10.5 |
//! | clustered | 100,000 | 650,512 | 321 | **22.7** | 151 | 129 |
//! | long segments | 10,000 | 18,935 | 2.72 | **1.14** | 25.8 | 12.4 |
//! | long segments | 100,000 | 193,396 | 1,110 | **14.4** | 462 | 157 |
//! | huge boxes | 10,000 | 3,787 | 2.83 | **0.564** | 3.68 | 6.20 |
//! | huge boxes | 100,000 | 127,057 | 92.5 | **11.3** | 82.8 | 101 |
//!
//! Strips win every scene, by 2.4× to 77×, and grow near-linearly (10× the boxes: 11–20× the
//! time, where the pairs grow 10–34×). Sort and sweep on one axis degrades as `n^1.5` and
//! worse in a shared column. The hashed grid and the BVH do linear and `n log n` work, but
//! every lookup lands somewhere else in memory: on this machine that costs more than
//! sweeping short rows that stay in cache.
//!
//! The strips cost two linear passes before the sweep: one radix sort of all the boxes by
//! their left edge, then a counting sort into rows, which keeps that order, so no row is ever
//! sorted on its own. The plugin makes the first pass itself: each tick it radix-sorts only
//! the swept colliders' boxes by left edge, keeping for each box the index of its collider
//! (the colliders' own data stays in the order they were gathered in, which costs less than
//! moving it), hands the sorted boxes over, and searches the rows in parallel parts. Resting
//! colliders (still and unchanged) have strips of their own, rebuilt only when one of them
//! comes to rest, starts to move, changes or goes, and queried by each swept collider's box;
//! two resting colliders are never paired.
//!
mod bvh;
mod grid;
mod radix;
mod sap;
mod strips;

#[cfg(feature = "plugin")]
pub(crate) use radix::sort_by_high_half;
#[cfg(feature = "plugin")]
pub(crate) use sap::order_key;

use bevy_math::bounding::Aabb2d;
use core::ops::ControlFlow;

/// How [`BroadPhase`] finds overlapping boxes. See the [module docs](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "plugin", derive(bevy::reflect::Reflect))]
pub enum BroadPhaseMethod {
    /// Sort and sweep on the axis of greatest spread.
    SortAndSweep,
    /// Sort and sweep within horizontal strips (the default).
    #[default]
    Strips,
    /// A hierarchical spatial hash.
    Grid,
    /// A bounding-volume hierarchy rebuilt per call.
    Bvh,
}

/// Finds the pairs of overlapping boxes, keeping its buffers from call to call (after the
/// first calls, a call allocates only when the scene grows).
///
/// ```
/// use bevy_math::{Vec2, bounding::Aabb2d};
/// use bevy_sweep::broad::{BroadPhase, BroadPhaseMethod};
///
/// let boxes = [
///     Aabb2d::new(Vec2::new(0.0, 0.0), Vec2::splat(1.0)),
///     Aabb2d::new(Vec2::new(1.5, 0.0), Vec2::splat(1.0)), // overlaps the first
///     Aabb2d::new(Vec2::new(9.0, 0.0), Vec2::splat(1.0)), // alone
/// ];
/// let mut broad = BroadPhase::new(BroadPhaseMethod::Grid);
/// let mut pairs = Vec::new();
/// broad.find_pairs(&boxes, |_, _| true, &mut pairs);
/// assert_eq!(pairs, [(0, 1)]);
/// ```
#[derive(Debug, Default)]
pub struct BroadPhase {
    method: BroadPhaseMethod,
    sap: sap::SortAndSweep,
    strips: strips::Strips,
    grid: grid::Grid,
    bvh: bvh::Bvh,
    /// The pairs of [`find_pairs_in_order`](Self::find_pairs_in_order) by another method
    /// than the strips (kept to reuse its allocation).
    #[cfg_attr(
        not(feature = "plugin"),
        allow(dead_code, reason = "used by the plugin")
    )]
    found: Vec<(u32, u32)>,
}

impl BroadPhase {
    /// A broad phase using `method`.
    #[must_use]
    pub fn new(method: BroadPhaseMethod) -> Self {
        Self {
            method,
            ..Self::default()
        }
    }

    /// The method in use.
    #[must_use]
    pub fn method(&self) -> BroadPhaseMethod {
        self.method
    }

    /// Switches the method (the buffers of the old one are kept).
    pub fn set_method(&mut self, method: BroadPhaseMethod) {
        self.method = method;
    }

    /// Replaces `pairs` with every pair `(i, j)`, `i < j`, of indices into `bounds` whose
    /// closed boxes overlap (touching edges count) and for which `filter(i, j)` is true, each
    /// pair once.
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
        match self.method {
            BroadPhaseMethod::SortAndSweep => self.sap.find_pairs(bounds, &filter, pairs),
            BroadPhaseMethod::Strips => self.strips.find_pairs(bounds, &filter, pairs),
            BroadPhaseMethod::Grid => self.grid.find_pairs(bounds, &filter, pairs),
            BroadPhaseMethod::Bvh => self.bvh.find_pairs(bounds, &filter, pairs),
        }
        // The queries below always use the strips; the default method builds them anyway.
        if self.method != BroadPhaseMethod::Strips {
            self.strips.build(bounds);
        }
    }

    /// [`find_pairs`](Self::find_pairs) of boxes that are all usable (finite, not inside
    /// out) and already in order of lower x edge, as the plugin hands them over: the strips
    /// skip their sort. Calls `found(i, j)` with each pair instead of collecting them, so
    /// that the caller can filter and keep what it needs of both boxes while it reads them.
    #[cfg_attr(
        not(feature = "plugin"),
        allow(dead_code, reason = "used by the plugin")
    )]
    pub(crate) fn find_pairs_in_order(
        &mut self,
        bounds: &[Aabb2d],
        mut found: impl FnMut(u32, u32),
    ) {
        if self.method == BroadPhaseMethod::Strips {
            self.strips.find_pairs_in_order(bounds, &mut found);
            return;
        }
        let mut pairs = core::mem::take(&mut self.found);
        self.find_pairs(bounds, |_, _| true, &mut pairs);
        for &(i, j) in &pairs {
            found(i, j);
        }
        self.found = pairs;
    }

    /// Builds the structure the queries use over boxes that are all usable and in order of
    /// lower x edge, without finding their pairs (for boxes never paired with each other).
    #[cfg_attr(
        not(feature = "plugin"),
        allow(dead_code, reason = "used by the plugin")
    )]
    pub(crate) fn build_in_order(&mut self, bounds: &[Aabb2d]) {
        self.strips.build_in_order(bounds);
    }

    /// `true` if [`pairs_in_part`](Self::pairs_in_part) can find the pairs (the strips):
    /// other methods find them all at once, with
    /// [`find_pairs_in_order`](Self::find_pairs_in_order).
    #[cfg_attr(
        not(feature = "plugin"),
        allow(dead_code, reason = "used by the plugin")
    )]
    pub(crate) fn finds_pairs_in_parts(&self) -> bool {
        self.method == BroadPhaseMethod::Strips
    }

    /// After [`build_in_order`](Self::build_in_order), with the strips: the pairs of the boxes
    /// of a part of the plane, `part` of `parts` (consecutive rows with about equal shares of
    /// the boxes), each pair in exactly one part, so that the parts can be searched in
    /// parallel.
    #[cfg_attr(
        not(feature = "plugin"),
        allow(dead_code, reason = "used by the plugin")
    )]
    pub(crate) fn pairs_in_part(&self, part: usize, parts: usize, mut found: impl FnMut(u32, u32)) {
        debug_assert!(self.finds_pairs_in_parts());
        self.strips
            .pairs_in_rows(self.part_rows(part, parts), &mut found);
    }

    /// The rows of part `part` of `parts`: consecutive rows holding about `1/parts` of the
    /// entries each.
    #[cfg_attr(
        not(feature = "plugin"),
        allow(dead_code, reason = "used by the plugin")
    )]
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
        if !usable(query) {
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
