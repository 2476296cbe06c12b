//! Tile levels as few colliders: a [`TileGrid`] of solid and empty cells, merged into
//! rectangles ([`TileGrid::merged`]) and, with the plugin, into colliders
//! ([`TileGrid::colliders`]).
//!
//! One collider per tile is how tile games start, and it costs: a 256 × 256 level has tens
//! of thousands of tiles, each a collider the broad phase keeps and each tile seam a place
//! where two colliders meet. Merged, the same level is a few hundred rectangles covering
//! exactly the same cells (the sweep answers a shape sliding across the seams between them
//! without catching, as it does between separate tiles).
//!
//! ```
//! use bevy::math::{URect, UVec2, Vec2};
//! use bevy_sweep::tiles::TileGrid;
//!
//! // A floor three cells thick and a wall, 8 × 6 cells; row 0 is the bottom.
//! let grid = TileGrid::from_fn(8, 6, |cell| cell.y < 3 || cell.x == 7).expect("a small grid");
//! let rects = grid.merged();
//! assert_eq!(rects, vec![URect::new(0, 0, 8, 3), URect::new(7, 3, 8, 6)]);
//! # #[cfg(feature = "plugin")]
//! # {
//! // 16-unit tiles: two colliders, with the grid's corner (cell (0, 0)'s lower left) at the
//! // origin of the entity they are spawned under.
//! let colliders = grid.colliders(Vec2::splat(16.0));
//! assert_eq!(colliders.len(), 2);
//! # }
//! ```

#[cfg(feature = "plugin")]
use bevy_math::Vec2;
use bevy_math::{URect, UVec2};

/// The most cells a [`TileGrid`] holds: `2^28` (a 16,384 × 16,384 grid, 256 MiB of cells).
pub const MAX_TILE_CELLS: u64 = 1 << 28;

/// A rectangular grid of cells, each solid or empty. Cell `(x, y)` is column `x` and row
/// `y`; which way rows run (up, as here, or down, as in the files of Tiled and of `LDtk`)
/// is the caller's: [`colliders`](Self::colliders) puts row 0 at the bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileGrid {
    size: UVec2,
    /// Row by row, from row 0.
    solid: Vec<bool>,
}

impl TileGrid {
    /// An empty grid of `width` × `height` cells; `None` if it would hold more than
    /// [`MAX_TILE_CELLS`].
    #[must_use]
    pub fn new(width: u32, height: u32) -> Option<Self> {
        let cells = u64::from(width) * u64::from(height);
        if cells > MAX_TILE_CELLS {
            return None;
        }
        Some(Self {
            size: UVec2::new(width, height),
            solid: vec![false; usize::try_from(cells).ok()?],
        })
    }

    /// A grid of `width` × `height` cells, each solid where `solid` says so (asked once per
    /// cell, row by row); `None` if it would hold more than [`MAX_TILE_CELLS`].
    #[must_use]
    pub fn from_fn(width: u32, height: u32, mut solid: impl FnMut(UVec2) -> bool) -> Option<Self> {
        let mut grid = Self::new(width, height)?;
        for y in 0..height {
            for x in 0..width {
                let cell = UVec2::new(x, y);
                if solid(cell) {
                    grid.set(cell, true);
                }
            }
        }
        Some(grid)
    }

    /// The grid's size in cells (width, height).
    #[must_use]
    pub fn size(&self) -> UVec2 {
        self.size
    }

    fn index(&self, cell: UVec2) -> Option<usize> {
        (cell.x < self.size.x && cell.y < self.size.y)
            .then(|| cell.y as usize * self.size.x as usize + cell.x as usize)
    }

    /// Makes `cell` solid or empty. A cell outside the grid changes nothing, and `false`
    /// says so.
    pub fn set(&mut self, cell: UVec2, solid: bool) -> bool {
        match self.index(cell) {
            Some(i) => {
                self.solid[i] = solid;
                true
            }
            None => false,
        }
    }

    /// Whether `cell` is solid (a cell outside the grid is not).
    #[must_use]
    pub fn is_solid(&self, cell: UVec2) -> bool {
        self.index(cell).is_some_and(|i| self.solid[i])
    }

    /// How many cells are solid.
    #[must_use]
    pub fn solid_count(&self) -> usize {
        self.solid.iter().filter(|&&s| s).count()
    }

    /// The solid cells as few rectangles, in cells (`min` inclusive, `max` exclusive): they
    /// cover every solid cell and no empty one, and never overlap.
    ///
    /// Row by row from row 0, each run of solid cells (as wide as it goes) grows up over
    /// the rows where the run is the same, from the same cell to the same cell. A level's
    /// floors, ceilings and walls come out as one rectangle each, and there are never more
    /// rectangles than runs of solid cells in the rows (a checkerboard has one per cell). The
    /// same grid always gives the same rectangles in the same order, and the work is linear
    /// in the number of cells.
    #[must_use]
    pub fn merged(&self) -> Vec<URect> {
        let (width, height) = (self.size.x as usize, self.size.y as usize);
        let solid = |x: usize, y: usize| self.solid[y * width + x];
        let mut covered = vec![false; self.solid.len()];
        let mut rects = Vec::new();
        for y in 0..height {
            let mut x = 0;
            while x < width {
                if !solid(x, y) || covered[y * width + x] {
                    x += 1;
                    continue;
                }
                let mut end = x + 1;
                while end < width && solid(end, y) {
                    end += 1;
                }
                // The same run in the row above: solid from `x` to `end`, and not beyond.
                let same = |row: usize| {
                    (x == 0 || !solid(x - 1, row))
                        && (end == width || !solid(end, row))
                        && (x..end).all(|i| solid(i, row))
                };
                let mut top = y + 1;
                while top < height && same(top) {
                    top += 1;
                }
                for row in y..top {
                    covered[row * width + x..row * width + end].fill(true);
                }
                // (Every bound fits a u32: the grid's sides do.)
                rects.push(URect::new(x as u32, y as u32, end as u32, top as u32));
                x = end;
            }
        }
        rects
    }

    /// The solid cells as colliders: one axis-aligned box (with its transform) per rectangle
    /// of [`merged`](Self::merged), for tiles of `tile_size` units. Cell `(x, y)` covers
    /// `x·w .. (x+1)·w` and `y·h .. (y+1)·h` of the frame they are spawned in (row 0 at the
    /// bottom; the grid's corner at its origin): spawn them as children of the level's
    /// entity to place, scale or flip the level. Empty if `tile_size` is not finite and
    /// positive on both axes.
    ///
    /// Boxes do not turn: for a level that turns, build [`Collider::rectangle`]s from
    /// [`merged`](Self::merged) instead.
    ///
    /// [`Collider::rectangle`]: crate::prelude::Collider::rectangle
    #[cfg(feature = "plugin")]
    #[must_use]
    pub fn colliders(
        &self,
        tile_size: Vec2,
    ) -> Vec<(
        crate::prelude::Collider,
        bevy::transform::components::Transform,
    )> {
        if !(tile_size.is_finite() && tile_size.cmpgt(Vec2::ZERO).all()) {
            return Vec::new();
        }
        self.merged()
            .into_iter()
            .map(|rect| {
                let (min, max) = (
                    rect.min.as_vec2() * tile_size,
                    rect.max.as_vec2() * tile_size,
                );
                (
                    crate::prelude::Collider::aabb((max - min) / 2.0),
                    bevy::transform::components::Transform::from_translation(
                        ((min + max) / 2.0).extend(0.0),
                    ),
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The oracle: every cell covered exactly as often as it is solid (once or never), by
    /// rectangles inside the grid that are not empty.
    fn check_cover(grid: &TileGrid, rects: &[URect]) {
        let size = grid.size();
        let mut count = vec![0_u32; (size.x * size.y) as usize];
        for rect in rects {
            assert!(
                rect.min.cmplt(rect.max).all(),
                "an empty rectangle {rect:?}"
            );
            assert!(rect.max.cmple(size).all(), "{rect:?} outside {size}");
            for y in rect.min.y..rect.max.y {
                for x in rect.min.x..rect.max.x {
                    count[(y * size.x + x) as usize] += 1;
                }
            }
        }
        for y in 0..size.y {
            for x in 0..size.x {
                let expected = u32::from(grid.is_solid(UVec2::new(x, y)));
                assert_eq!(
                    count[(y * size.x + x) as usize],
                    expected,
                    "cell ({x}, {y})"
                );
            }
        }
    }

    /// The runs of solid cells, row by row: what merging rows alone gives; the greedy merge
    /// never gives more rectangles.
    fn row_runs(grid: &TileGrid) -> usize {
        let size = grid.size();
        (0..size.y)
            .map(|y| {
                (0..size.x)
                    .filter(|&x| {
                        grid.is_solid(UVec2::new(x, y))
                            && (x == 0 || !grid.is_solid(UVec2::new(x - 1, y)))
                    })
                    .count()
            })
            .sum()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        /// Random grids, sparse to full: the rectangles cover exactly the solid cells, no
        /// more than the row runs, and the same grid gives the same rectangles.
        #[test]
        fn merged_rectangles_cover_exactly_the_solid_cells(
            width in 1_u32..24,
            height in 1_u32..24,
            fill in 0.0_f64..1.0,
            seed in any::<u64>(),
        ) {
            let mut state = seed | 1;
            let grid = TileGrid::from_fn(width, height, |_| {
                // xorshift64: a fixed stream from the seed.
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state % 1000) as f64 / 1000.0 < fill
            })
            .expect("a small grid");
            let rects = grid.merged();
            check_cover(&grid, &rects);
            prop_assert!(rects.len() <= row_runs(&grid));
            prop_assert_eq!(rects, grid.merged());
        }
    }

    #[test]
    fn awkward_grids() {
        // Empty, full, one cell, a checkerboard, a frame with a hole, one row, one column.
        let cases: Vec<(TileGrid, Option<usize>)> = vec![
            (TileGrid::new(10, 7).unwrap(), Some(0)),
            (TileGrid::from_fn(10, 7, |_| true).unwrap(), Some(1)),
            (TileGrid::from_fn(1, 1, |_| true).unwrap(), Some(1)),
            (
                TileGrid::from_fn(9, 9, |c| (c.x + c.y) % 2 == 0).unwrap(),
                Some(41),
            ),
            (
                TileGrid::from_fn(9, 9, |c| c.x == 0 || c.y == 0 || c.x == 8 || c.y == 8).unwrap(),
                Some(4),
            ),
            (
                TileGrid::from_fn(50, 1, |c| c.x % 3 != 0).unwrap(),
                Some(17),
            ),
            (TileGrid::from_fn(1, 50, |c| c.y != 25).unwrap(), Some(2)),
            (TileGrid::new(0, 5).unwrap(), Some(0)),
        ];
        for (grid, expected) in cases {
            let rects = grid.merged();
            check_cover(&grid, &rects);
            if let Some(n) = expected {
                assert_eq!(rects.len(), n, "{grid:?}");
            }
        }
    }

    #[test]
    fn out_of_the_grid() {
        assert!(TileGrid::new(1 << 20, 1 << 8).is_some_and(|g| g.size().x == 1 << 20));
        assert!(TileGrid::new(1 << 14, (1 << 14) + 1).is_none());
        assert!(TileGrid::new(u32::MAX, u32::MAX).is_none());
        let mut grid = TileGrid::new(4, 4).unwrap();
        assert!(!grid.set(UVec2::new(4, 0), true));
        assert!(!grid.set(UVec2::new(0, u32::MAX), true));
        assert!(!grid.is_solid(UVec2::new(9, 9)));
        assert_eq!(grid.solid_count(), 0);
    }

    #[cfg(feature = "plugin")]
    #[test]
    fn colliders_cover_the_cells_in_units() {
        use crate::prelude::Collider;
        let grid = TileGrid::from_fn(6, 4, |c| c.y == 0 || (c.x == 5 && c.y < 3)).unwrap();
        let colliders = grid.colliders(Vec2::new(16.0, 8.0));
        assert_eq!(colliders.len(), 2);
        let (floor, at) = &colliders[0];
        assert_eq!(
            *floor,
            Collider::Aabb {
                half_extents: Vec2::new(48.0, 4.0)
            }
        );
        assert_eq!(at.translation.truncate(), Vec2::new(48.0, 4.0));
        let (wall, at) = &colliders[1];
        assert_eq!(
            *wall,
            Collider::Aabb {
                half_extents: Vec2::new(8.0, 8.0)
            }
        );
        assert_eq!(at.translation.truncate(), Vec2::new(88.0, 16.0));
        for bad in [Vec2::ZERO, Vec2::new(16.0, -1.0), Vec2::new(f32::NAN, 1.0)] {
            assert!(grid.colliders(bad).is_empty(), "{bad}");
        }
    }
}
