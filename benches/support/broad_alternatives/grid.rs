//! A hierarchical spatial hash: level `L` has square cells of side `base · 2^L`, and a box
//! lives on the first level whose cells are at least as large as the box, where it covers at
//! most 2 × 2 cells.
//!
//! Pairs on one level are found in the cells they share; a box also looks up the cells it
//! covers on every coarser level in use. A pair is reported only from the cell that holds
//! the lower corner of the two boxes' intersection, so it is reported exactly once without a
//! set of seen pairs. Cells are hashed into a table of about as many buckets as entries and sorted
//! into it by counting, so the whole call is linear in the boxes plus the pairs that share a
//! cell, and empty space costs nothing.

use super::{overlap, usable};
use bevy_math::bounding::Aabb2d;

/// One cell of one level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cell {
    x: i32,
    y: i32,
    level: u32,
}

/// A box in a cell.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    cell: Cell,
    index: u32,
}

/// Marks a box that overlaps nothing (non-finite or inside out).
const UNUSED: u32 = u32::MAX;

#[derive(Debug, Default)]
pub(super) struct Grid {
    /// Scratch for the median box size.
    extents: Vec<f32>,
    /// The level of each box, or [`UNUSED`].
    levels: Vec<u32>,
    /// The levels that hold at least one box, ascending.
    occupied: Vec<u32>,
    entries: Vec<Entry>,
    /// `entries` grouped by bucket.
    sorted: Vec<Entry>,
    /// Where each bucket starts in `sorted` (one more element than buckets).
    starts: Vec<u32>,
}

/// The side of the cells of `level`.
fn cell_size(base: f64, level: u32) -> f64 {
    base * 2f64.powi(level as i32)
}

/// The cell of a point on a level with cells of side `size` (monotonic in each coordinate,
/// which is all that correctness needs; far-away coordinates saturate).
fn cell_of(x: f32, y: f32, size: f64, level: u32) -> Cell {
    Cell {
        x: (f64::from(x) / size).floor() as i32,
        y: (f64::from(y) / size).floor() as i32,
        level,
    }
}

fn hash(cell: Cell) -> u32 {
    let mut h = (cell.x as u32)
        .wrapping_mul(0x9E37_79B1)
        .wrapping_add((cell.y as u32).wrapping_mul(0x85EB_CA77))
        .wrapping_add(cell.level.wrapping_mul(0xC2B2_AE3D));
    h ^= h >> 16;
    h = h.wrapping_mul(0x7FEB_352D);
    h ^ (h >> 15)
}

impl Grid {
    pub(super) fn find_pairs(
        &mut self,
        bounds: &[Aabb2d],
        filter: &impl Fn(u32, u32) -> bool,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        let Some(base) = self.base_cell(bounds) else {
            return;
        };
        self.assign(bounds, base);
        self.sort_into_buckets();
        let mask = (self.starts.len() - 2) as u32;
        let bucket = |starts: &[u32], cell: Cell| {
            let h = (hash(cell) & mask) as usize;
            starts[h] as usize..starts[h + 1] as usize
        };
        // Pairs on one level: the boxes that share a cell.
        for h in 0..self.starts.len() - 1 {
            let entries = &self.sorted[self.starts[h] as usize..self.starts[h + 1] as usize];
            for (k, a) in entries.iter().enumerate() {
                for b in &entries[k + 1..] {
                    if a.cell != b.cell {
                        continue;
                    }
                    let size = cell_size(base, a.cell.level);
                    report(bounds, filter, pairs, a.index, b.index, a.cell, size);
                }
            }
        }
        // Pairs across levels: each box looks up the coarser levels in use.
        for (i, b) in bounds.iter().enumerate() {
            let level = self.levels[i];
            if level == UNUSED {
                continue;
            }
            for &coarser in self.occupied.iter().filter(|&&l| l > level) {
                let size = cell_size(base, coarser);
                let (low, high) = (
                    cell_of(b.min.x, b.min.y, size, coarser),
                    cell_of(b.max.x, b.max.y, size, coarser),
                );
                for y in low.y..=high.y {
                    for x in low.x..=high.x {
                        let cell = Cell {
                            x,
                            y,
                            level: coarser,
                        };
                        for e in &self.sorted[bucket(&self.starts, cell)] {
                            if e.cell == cell {
                                report(bounds, filter, pairs, i as u32, e.index, cell, size);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The side of the base level's cells: the median box size, or the scene's extent over
    /// `sqrt(n)` if most boxes are points. `None` if no box is usable.
    fn base_cell(&mut self, bounds: &[Aabb2d]) -> Option<f64> {
        self.extents.clear();
        let (mut low, mut high) = (bevy_math::Vec2::MAX, bevy_math::Vec2::MIN);
        for b in bounds.iter().filter(|b| usable(b)) {
            let size = b.max - b.min;
            self.extents.push(size.x.max(size.y));
            low = low.min(b.min);
            high = high.max(b.max);
        }
        if self.extents.is_empty() {
            return None;
        }
        let middle = self.extents.len() / 2;
        let median = f64::from(
            *self
                .extents
                .select_nth_unstable_by(middle, f32::total_cmp)
                .1,
        );
        let span = f64::from((high - low).max_element()) / (self.extents.len() as f64).sqrt();
        let base = if median > span * 1e-3 { median } else { span };
        Some(if base.is_normal() { base } else { 1.0 })
    }

    /// Gives each box its level and its entries.
    fn assign(&mut self, bounds: &[Aabb2d], base: f64) {
        self.levels.clear();
        self.occupied.clear();
        self.entries.clear();
        for (i, b) in bounds.iter().enumerate() {
            if !usable(b) {
                self.levels.push(UNUSED);
                continue;
            }
            let size = b.max - b.min;
            let extent = f64::from(size.x.max(size.y));
            // The first level whose cells are at least `extent`; a box on it spans at most
            // two cells per axis (three if the division rounds up).
            let level = if extent > base {
                (extent / base).log2().ceil().clamp(0.0, 2000.0) as u32
            } else {
                0
            };
            let cell = cell_size(base, level);
            self.levels.push(level);
            if let Err(at) = self.occupied.binary_search(&level) {
                self.occupied.insert(at, level);
            }
            let (low, high) = (
                cell_of(b.min.x, b.min.y, cell, level),
                cell_of(b.max.x, b.max.y, cell, level),
            );
            for y in low.y..=high.y {
                for x in low.x..=high.x {
                    self.entries.push(Entry {
                        cell: Cell { x, y, level },
                        index: i as u32,
                    });
                }
            }
        }
    }

    /// Counting sort of the entries by bucket into `sorted`, with `starts`.
    fn sort_into_buckets(&mut self) {
        let buckets = self.entries.len().next_power_of_two().max(2);
        let mask = (buckets - 1) as u32;
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        for e in &self.entries {
            self.starts[(hash(e.cell) & mask) as usize] += 1;
        }
        let mut total = 0;
        for count in &mut self.starts[..buckets] {
            total += *count;
            *count = total;
        }
        self.starts[buckets] = total;
        self.sorted.clear();
        self.sorted.resize(self.entries.len(), Entry::default());
        for e in self.entries.iter().rev() {
            let slot = &mut self.starts[(hash(e.cell) & mask) as usize];
            *slot -= 1;
            self.sorted[*slot as usize] = *e;
        }
    }
}

/// Pushes `(i, j)` if the boxes overlap, pass the filter, and `cell` holds the lower corner of
/// their intersection (the one cell that reports the pair).
fn report(
    bounds: &[Aabb2d],
    filter: &impl Fn(u32, u32) -> bool,
    pairs: &mut Vec<(u32, u32)>,
    i: u32,
    j: u32,
    cell: Cell,
    size: f64,
) {
    let (a, b) = (&bounds[i as usize], &bounds[j as usize]);
    if !overlap(a, b) {
        return;
    }
    let corner = a.min.max(b.min);
    if cell_of(corner.x, corner.y, size, cell.level) != cell {
        return;
    }
    let (i, j) = (i.min(j), i.max(j));
    if filter(i, j) {
        pairs.push((i, j));
    }
}
