//! Sort and sweep in horizontal strips: the plane is cut into rows about two median boxes
//! tall, each box goes into the rows it spans, and each row is sorted and swept on x.
//!
//! A row holds only the boxes near one height, so the sweep compares a box with its true
//! neighbours instead of with everything that shares its x-range, and everything a row needs
//! sits together in memory. Rows are filled by a counting sort (linear); sorting within a
//! row costs `O(k log k)` for `k` boxes per row. A pair is reported only from the row holding
//! the higher of the two boxes' lower edges, so it is reported once.

use super::sap::order_key;
use super::{overlap, usable};
use bevy_math::bounding::Aabb2d;

/// A box in a row: its bounds copied so a row's sweep reads contiguous memory.
#[derive(Clone, Copy, Debug)]
struct Entry {
    bounds: Aabb2d,
    index: u32,
}

/// Entries may be at most this many times the boxes; beyond it the rows grow taller.
const MAX_ENTRIES_PER_BOX: usize = 6;

#[derive(Debug, Default)]
pub(super) struct Strips {
    extents: Vec<f32>,
    /// Scratch for the percentiles of the lower edges.
    heights: Vec<f32>,
    /// Where each row starts in `entries` (one more element than rows).
    starts: Vec<u32>,
    entries: Vec<Entry>,
    /// The entries, each row sorted by lower x edge.
    sorted: Vec<Entry>,
    /// The widest box of each row (in `f64`: the difference of two `f32`s, rounded up).
    widths: Vec<f64>,
    layout: Option<Rows>,
    /// One row's sort keys: the lower x edge as an ordered integer, and the entry.
    keys: Vec<u64>,
}

/// The rows: the first row's lower edge, their height, their number.
#[derive(Clone, Copy, Debug)]
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
        // `y` is at least `bottom`, so truncation is the floor; the cast saturates.
        (((f64::from(y) - self.bottom) * self.scale) as usize).min(self.count - 1)
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
        let Some(rows) = self.layout else {
            return;
        };
        for r in 0..rows.count {
            let row = &self.sorted[self.starts[r] as usize..self.starts[r + 1] as usize];
            for (k, a) in row.iter().enumerate() {
                for b in &row[k + 1..] {
                    if b.bounds.min.x > a.bounds.max.x {
                        break;
                    }
                    if overlap(&a.bounds, &b.bounds)
                        && rows.of(a.bounds.min.y.max(b.bounds.min.y)) == r
                    {
                        let (i, j) = (a.index.min(b.index), a.index.max(b.index));
                        if filter(i, j) {
                            pairs.push((i, j));
                        }
                    }
                }
            }
        }
    }

    /// Fills the rows: each sorted by lower x edge, with the widest box of each.
    pub(super) fn build(&mut self, bounds: &[Aabb2d]) {
        self.layout = self.rows(bounds);
        self.sorted.clear();
        self.widths.clear();
        let Some(rows) = self.layout else {
            return;
        };
        // Counting sort into rows.
        self.starts.clear();
        self.starts.resize(rows.count + 1, 0);
        for b in bounds.iter().filter(|b| usable(b)) {
            for r in rows.of(b.min.y)..=rows.of(b.max.y) {
                self.starts[r + 1] += 1;
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
        };
        self.entries.clear();
        self.entries.resize(total, blank);
        // `starts[r]` now advances through row `r`; it is restored below.
        for (i, b) in bounds.iter().enumerate().filter(|(_, b)| usable(b)) {
            for r in rows.of(b.min.y)..=rows.of(b.max.y) {
                self.entries[self.starts[r] as usize] = Entry {
                    bounds: *b,
                    index: i as u32,
                };
                self.starts[r] += 1;
            }
        }
        for r in (1..=rows.count).rev() {
            self.starts[r] = self.starts[r - 1];
        }
        self.starts[0] = 0;
        // Sort each row by lower x edge (as integer keys, the fastest sort there is).
        for r in 0..rows.count {
            let row = &self.entries[self.starts[r] as usize..self.starts[r + 1] as usize];
            self.keys.clear();
            self.keys.extend(
                row.iter()
                    .enumerate()
                    .map(|(k, e)| (u64::from(order_key(e.bounds.min.x)) << 32) | k as u64),
            );
            self.keys.sort_unstable();
            self.sorted
                .extend(self.keys.iter().map(|&k| row[k as u32 as usize]));
            self.widths.push(
                row.iter()
                    .map(|e| (f64::from(e.bounds.max.x) - f64::from(e.bounds.min.x)).next_up())
                    .fold(0.0, f64::max),
            );
        }
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
    /// [`MAX_ENTRIES_PER_BOX`] entries each. `None` if no box is usable.
    fn rows(&mut self, bounds: &[Aabb2d]) -> Option<Rows> {
        self.extents.clear();
        self.heights.clear();
        for b in bounds.iter().filter(|b| usable(b)) {
            let size = b.max - b.min;
            self.extents.push(size.x.max(size.y));
            self.heights.push(b.min.y);
        }
        let n = self.extents.len();
        if n == 0 {
            return None;
        }
        let median = f64::from(*self.extents.select_nth_unstable_by(n / 2, f32::total_cmp).1);
        // The rows cover the lower edges from the 1st to the 99th percentile; the first and
        // last rows take everything beyond, so a few far-away boxes do not stretch the rows.
        let (low, high) = (n / 100, n - 1 - n / 100);
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
            let entries: usize = bounds
                .iter()
                .filter(|b| usable(b))
                .map(|b| rows.of(b.max.y) - rows.of(b.min.y) + 1)
                .sum();
            if entries <= MAX_ENTRIES_PER_BOX * n || count == 1 {
                return Some(rows);
            }
            height *= 2.0;
        }
    }
}
