//! Sort and sweep in horizontal strips: the plane is cut into rows about two median boxes
//! tall, each box goes into the rows it spans, and each row is sorted and swept on x.
//!
//! A row holds only the boxes near one height, so the sweep compares a box with its true
//! neighbours instead of with everything that shares its x-range, and everything a row needs
//! sits together in memory. The boxes are sorted by lower x edge once (a radix sort) and dealt
//! into their rows in that order (a counting sort): both linear. A pair is reported only from
//! the row holding the higher of the two boxes' lower edges, so it is reported once.

use super::radix::order_key;
use super::radix::sort_by_high_half;
use super::{overlap, usable};
use bevy_math::bounding::Aabb2d;

/// A box in a row: its bounds copied so a row's sweep reads contiguous memory.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
struct Entry {
    bounds: Aabb2d,
    index: u32,
    /// The row of the box's lower edge: a pair belongs to the row of the higher of its two.
    row: u32,
}

/// Entries may be at most this many times the boxes; beyond it the rows grow taller.
const MAX_ENTRIES_PER_BOX: usize = 6;

/// The most boxes whose sizes and heights choose the rows.
const SAMPLE: usize = 1024;

#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub(super) struct Strips {
    extents: Vec<f32>,
    /// Scratch for the percentiles of the lower edges.
    heights: Vec<f32>,
    /// The rows each usable box spans, `(first, last)`, in order of lower x edge.
    spans: Vec<(u32, u32)>,
    /// Where each row starts in `sorted` (one more element than rows).
    starts: Vec<u32>,
    /// Every row's entries, each row sorted by lower x edge.
    sorted: Vec<Entry>,
    /// The widest box of each row (in `f64`: the difference of two `f32`s, rounded up).
    widths: Vec<f64>,
    layout: Option<Rows>,
    /// The bounds of every box of the last build (`None` if there was none): a query outside
    /// it finds nothing (without it, one far above or below every box would search the
    /// first or last row, which hold everything beyond the rows).
    extent: Option<Aabb2d>,
    /// Scratch of [`build`](Self::build): the usable boxes in order of lower x edge, the
    /// edge as an ordered integer in the high half, the box in the low half
    /// ([`build_in_order`](Self::build_in_order) needs none).
    keys: Vec<u64>,
    scratch: Vec<u64>,
}

/// The rows: the first row's lower edge, their height, their number.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
struct Rows {
    bottom: f64,
    /// One over the rows' height.
    scale: f64,
    count: usize,
}

impl Rows {
    /// The row of height `y` (monotonic; clamped to the rows there are).
    #[inline]
    fn of(&self, y: f32) -> usize {
        // Truncation is the floor where `y` is at least `bottom`; below it the difference is
        // negative and clamps to row 0 (the cast saturates, and takes NaN to 0). A signed
        // cast is one instruction; an unsigned one takes several.
        let row = ((f64::from(y) - self.bottom) * self.scale) as i64;
        row.clamp(0, self.count as i64 - 1) as usize
    }
}

impl Strips {
    pub(super) fn find_pairs(
        &mut self,
        bounds: &[Aabb2d],
        filter: &impl Fn(u32, u32) -> bool,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        self.build(bounds);
        self.pairs(&mut |i, j| {
            if filter(i, j) {
                pairs.push((i, j));
            }
        });
    }

    /// Calls `found` with every overlapping pair of the last build, each from the row of the
    /// higher lower edge.
    fn pairs(&self, found: &mut impl FnMut(u32, u32)) {
        self.pairs_in_rows(0..self.row_count(), found);
    }

    /// The number of rows of the last build.
    pub(super) fn row_count(&self) -> usize {
        self.layout.map_or(0, |rows| rows.count)
    }

    /// Where each row's entries start (one more than rows): how many boxes rows hold.
    #[cfg(feature = "plugin")]
    pub(super) fn row_starts(&self) -> &[u32] {
        &self.starts
    }

    /// [`pairs`](Self::pairs) of the rows `rows` only: each pair is found in exactly one row,
    /// so ranges of rows split the work without overlap.
    pub(super) fn pairs_in_rows(
        &self,
        rows: core::ops::Range<usize>,
        found: &mut impl FnMut(u32, u32),
    ) {
        if self.layout.is_none() {
            return;
        }
        for r in rows {
            let row = &self.sorted[self.starts[r] as usize..self.starts[r + 1] as usize];
            for (k, a) in row.iter().enumerate() {
                for b in &row[k + 1..] {
                    if b.bounds.min.x > a.bounds.max.x {
                        break;
                    }
                    // The row of the higher lower edge is the higher of the two rows (the
                    // row of a height is monotonic).
                    if overlap(&a.bounds, &b.bounds) && a.row.max(b.row) as usize == r {
                        let (i, j) = (a.index.min(b.index), a.index.max(b.index));
                        found(i, j);
                    }
                }
            }
        }
    }

    /// Fills the rows: each sorted by lower x edge, with the widest box of each.
    ///
    /// The usable boxes are sorted by lower x edge once, all together (a radix sort, linear),
    /// and then dealt into their rows in that order (a counting sort, which keeps it): every
    /// row comes out sorted without sorting any row. Each box is checked for usability once,
    /// and everything after the sort reads the boxes in that order.
    pub(super) fn build(&mut self, bounds: &[Aabb2d]) {
        let mut keys = core::mem::take(&mut self.keys);
        keys.clear();
        keys.extend(
            (0u32..)
                .zip(bounds)
                .filter(|(_, b)| usable(b))
                .map(|(i, b)| (u64::from(order_key(b.min.x)) << 32) | u64::from(i)),
        );
        sort_by_high_half(&mut keys, &mut self.scratch);
        self.fill(bounds, keys.len(), |k| keys[k] as u32);
        self.keys = keys;
    }

    /// [`build`](Self::build) of boxes that are all usable and already in order of lower x
    /// edge: no keys to make or sort.
    #[cfg(feature = "plugin")]
    pub(super) fn build_in_order(&mut self, bounds: &[Aabb2d]) {
        debug_assert!(bounds.iter().all(usable));
        debug_assert!(bounds.is_sorted_by(|a, b| a.min.x <= b.min.x));
        self.fill(bounds, bounds.len(), |k| k as u32);
    }

    /// The rest of the build, for `n` usable boxes whose `k`-th in order of lower x edge is
    /// `bounds[index(k)]`.
    fn fill(&mut self, bounds: &[Aabb2d], n: usize, index: impl Fn(usize) -> u32) {
        self.widths.clear();
        self.layout = self.rows(bounds, n, &index);
        let Some(rows) = self.layout else {
            self.sorted.clear();
            self.extent = None;
            return;
        };
        self.extent = (0..n)
            .map(|k| bounds[index(k) as usize])
            .reduce(|all, b| Aabb2d {
                min: all.min.min(b.min),
                max: all.max.max(b.max),
            });
        // Counting sort into rows: `starts[r + 1]` counts row `r`, then becomes where it
        // starts, then advances through it as it is filled (and is restored below).
        self.starts.clear();
        self.starts.resize(rows.count + 1, 0);
        for &(first, last) in &self.spans {
            for r in first..=last {
                self.starts[r as usize + 1] += 1;
            }
        }
        for r in 0..rows.count {
            self.starts[r + 1] += self.starts[r];
        }
        let total = self.starts[rows.count] as usize;
        let blank = Entry {
            bounds: Aabb2d {
                min: bevy_math::Vec2::ZERO,
                max: bevy_math::Vec2::ZERO,
            },
            index: 0,
            row: 0,
        };
        // Every entry below `total` is written below: only growth needs filling (clearing
        // first would write everything twice).
        self.sorted.resize(total, blank);
        self.widths.resize(rows.count, 0.0);
        // Local slices keep their pointers in registers through the stores below.
        let (sorted, starts, widths) = (
            &mut self.sorted[..],
            &mut self.starts[..],
            &mut self.widths[..],
        );
        for (k, &(first, last)) in self.spans.iter().enumerate() {
            let index = index(k);
            let bounds = bounds[index as usize];
            // Rounded to nearest here; each row's widest is rounded up once, below.
            let width = f64::from(bounds.max.x) - f64::from(bounds.min.x);
            for r in first as usize..=last as usize {
                sorted[starts[r] as usize] = Entry {
                    bounds,
                    index,
                    row: first,
                };
                starts[r] += 1;
                widths[r] = widths[r].max(width);
            }
        }
        // The next float above the largest rounded width is at least the largest exact one
        // (rounding to nearest moves a value by at most half a step).
        for width in &mut self.widths {
            *width = width.next_up();
        }
        for r in (1..=rows.count).rev() {
            self.starts[r] = self.starts[r - 1];
        }
        self.starts[0] = 0;
    }

    /// The bounds of every box of the last build.
    pub(super) fn extent(&self) -> Option<Aabb2d> {
        self.extent
    }

    /// Makes these rows the same as `other`'s for queries (not for another build), reusing
    /// their buffers.
    #[cfg(feature = "plugin")]
    pub(super) fn copy_from(&mut self, other: &Self) {
        self.starts.clone_from(&other.starts);
        self.sorted.clone_from(&other.sorted);
        self.widths.clone_from(&other.widths);
        self.layout = other.layout;
        self.extent = other.extent;
    }

    /// The rows of the last [`build`](Self::build): `(bottom, height, count)`, or `None` if
    /// no box was usable. Row `r` covers heights `[bottom + r·height, bottom + (r+1)·height)`,
    /// the first row also everything below and the last everything above.
    pub(super) fn layout(&self) -> Option<(f64, f64, usize)> {
        self.layout.map(|r| (r.bottom, 1.0 / r.scale, r.count))
    }

    /// The row of height `y`.
    pub(super) fn row_of(&self, y: f32) -> Option<usize> {
        self.layout.map(|rows| rows.of(y))
    }

    /// Calls `found` with every box of row `row` that overlaps `query`; with `once`, only if
    /// the row holds the higher of the two lower edges (so that a query spanning several rows
    /// finds each box once).
    pub(super) fn query_row(
        &self,
        query: &Aabb2d,
        row: usize,
        once: bool,
        found: &mut impl FnMut(u32),
    ) {
        let Some(rows) = self.layout else {
            return;
        };
        if row >= rows.count {
            return;
        }
        let entries = &self.sorted[self.starts[row] as usize..self.starts[row + 1] as usize];
        // Boxes that start further left than the widest box of the row cannot reach it.
        let reach = (f64::from(query.min.x) - self.widths[row]).next_down();
        let first = entries.partition_point(|e| f64::from(e.bounds.min.x) < reach);
        for e in &entries[first..] {
            if e.bounds.min.x > query.max.x {
                break;
            }
            if overlap(&e.bounds, query)
                && (!once || rows.of(e.bounds.min.y.max(query.min.y)) == row)
            {
                found(e.index);
            }
        }
    }

    /// Rows about two median boxes tall, made taller if the boxes would need more than
    /// [`MAX_ENTRIES_PER_BOX`] entries each, and the rows each box spans (into `spans`, in
    /// order). `None` if there is no box.
    fn rows(&mut self, bounds: &[Aabb2d], n: usize, index: &impl Fn(usize) -> u32) -> Option<Rows> {
        if n == 0 {
            return None;
        }
        // The sizes and heights of an evenly spaced sample: the rows need only rough values,
        // and selecting from all of a large scene's boxes costs more than the rest of the
        // build.
        self.extents.clear();
        self.heights.clear();
        for k in (0..n).step_by(n.div_ceil(SAMPLE)) {
            let b = &bounds[index(k) as usize];
            let size = b.max - b.min;
            self.extents.push(size.x.max(size.y));
            self.heights.push(b.min.y);
        }
        let m = self.extents.len();
        let median = f64::from(*self.extents.select_nth_unstable_by(m / 2, f32::total_cmp).1);
        // The rows cover the lower edges from the 1st to the 99th percentile; the first and
        // last rows take everything beyond, so a few far-away boxes do not stretch the rows.
        let (low, high) = (m / 100, m - 1 - m / 100);
        let bottom = *self.heights.select_nth_unstable_by(low, f32::total_cmp).1;
        let top = *self.heights.select_nth_unstable_by(high, f32::total_cmp).1;
        let span = f64::from(top) - f64::from(bottom);
        // At most four rows per box (tiny boxes, points): rows are never thinner than that.
        let mut height = (2.0 * median).max(span / (4 * n) as f64);
        if !height.is_normal() {
            height = 1.0;
        }
        loop {
            let count = ((span / height).floor() as usize).min(4 * n) + 1;
            let rows = Rows {
                bottom: f64::from(bottom),
                scale: 1.0 / height,
                count,
            };
            self.spans.clear();
            self.spans.extend((0..n).map(|k| {
                let b = &bounds[index(k) as usize];
                (rows.of(b.min.y) as u32, rows.of(b.max.y) as u32)
            }));
            let entries: usize = self
                .spans
                .iter()
                .map(|&(first, last)| (last - first) as usize + 1)
                .sum();
            if entries <= MAX_ENTRIES_PER_BOX * n || count == 1 {
                return Some(rows);
            }
            height *= 2.0;
        }
    }
}
