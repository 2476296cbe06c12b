//! The nine-sector (9-region) lookup table: decide from the endpoints' sectors which box edges can
//! possibly be crossed, and test only those.

use super::{Estimate, clip_with};
use crate::geometry::SegmentClip;
use bevy_math::{Vec2, bounding::Aabb2d};

/// Box edges, as bits.
const L: u8 = 1; // x = min.x
const R: u8 = 2; // x = max.x
const B: u8 = 4; // y = min.y
const T: u8 = 8; // y = max.y
/// "Already inside": entry 0 (or exit 1) without testing any edge.
const IN: u8 = 16;
/// "Cannot touch".
const NO: u8 = 0;

/// `SECTOR_TABLE[from][to] = (entry edges, exit edges)`.
///
/// Sectors around the box (`y` up, as in Bevy), the box itself being sector 4, boundaries
/// included in it:
/// ```text
/// 0 | 1 | 2
/// --+---+--
/// 3 | 4 | 5
/// --+---+--
/// 6 | 7 | 8
/// ```
/// Entering from a side sector can only cross the edge facing it; from a corner sector, one of
/// the two edges at that corner. Leaving towards a sector is symmetric. Endpoints beyond the
/// same side can never touch the box (`NO`). The unit test `table_matches_outcode_rule`
/// re-derives every entry from that rule.
#[rustfmt::skip]
const SECTOR_TABLE: [[(u8, u8); 9]; 9] = [
    // to:  0              1              2              3              4              5              6              7              8
    /* 0 */ [(NO, NO),     (NO, NO),      (NO, NO),      (NO, NO),      (T|L, IN),     (T|L, R),      (NO, NO),      (T|L, B),      (T|L, B|R)],
    /* 1 */ [(NO, NO),     (NO, NO),      (NO, NO),      (T, L),        (T, IN),       (T, R),        (T, B|L),      (T, B),        (T, B|R)],
    /* 2 */ [(NO, NO),     (NO, NO),      (NO, NO),      (T|R, L),      (T|R, IN),     (NO, NO),      (T|R, B|L),    (T|R, B),      (NO, NO)],
    /* 3 */ [(NO, NO),     (L, T),        (L, T|R),      (NO, NO),      (L, IN),       (L, R),        (NO, NO),      (L, B),        (L, B|R)],
    /* 4 */ [(IN, T|L),    (IN, T),       (IN, T|R),     (IN, L),       (IN, IN),      (IN, R),       (IN, B|L),     (IN, B),       (IN, B|R)],
    /* 5 */ [(R, T|L),     (R, T),        (NO, NO),      (R, L),        (R, IN),       (NO, NO),      (R, B|L),      (R, B),        (NO, NO)],
    /* 6 */ [(NO, NO),     (B|L, T),      (B|L, T|R),    (NO, NO),      (B|L, IN),     (B|L, R),      (NO, NO),      (NO, NO),      (NO, NO)],
    /* 7 */ [(B, T|L),     (B, T),        (B, T|R),      (B, L),        (B, IN),       (B, R),        (NO, NO),      (NO, NO),      (NO, NO)],
    /* 8 */ [(B|R, T|L),   (B|R, T),      (NO, NO),      (B|R, L),      (B|R, IN),     (NO, NO),      (NO, NO),      (NO, NO),      (NO, NO)],
];

/// [`clip_segment_aabb`](super::clip_segment_aabb) using the 9-sector lookup table.
///
/// Finds the sectors of both endpoints with four comparisons each, then looks up which edges
/// could be crossed on the way in and on the way out. Segments wholly inside (`4 → 4`) or
/// beyond one side (e.g. `0 → 2`) cost no arithmetic at all; otherwise only the listed edges
/// are intersected, one division each. The idea (the regions of Nicholl, Lee & Nicholl, 1987)
/// promises a win when most segments are wholly inside or outside; `benches/kernels.rs`
/// measures that claim.
///
/// Frame, parameters, closed boundaries and degenerate cases are exactly as for
/// [`clip_segment_aabb`](super::clip_segment_aabb), and the results are the same as the other
/// clippers'; see [`clip_segment_aabb`](super::clip_segment_aabb) for exactness.
#[doc(alias = "9-sector")]
#[inline]
#[must_use]
pub fn clip_segment_aabb_sectors(start: Vec2, end: Vec2, aabb: &Aabb2d) -> Option<SegmentClip> {
    clip_with(start, end, aabb, estimate)
}

/// The sector of `p`, 0 to 8.
#[inline]
fn sector(p: Vec2, aabb: &Aabb2d) -> usize {
    let col = if p.x < aabb.min.x {
        0
    } else if p.x > aabb.max.x {
        2
    } else {
        1
    };
    let row = if p.y > aabb.max.y {
        0
    } else if p.y < aabb.min.y {
        2
    } else {
        1
    };
    row * 3 + col
}

#[inline]
fn estimate(start: Vec2, end: Vec2, aabb: &Aabb2d) -> Estimate {
    let (entry_edges, exit_edges) = SECTOR_TABLE[sector(start, aabb)][sector(end, aabb)];
    match (entry_edges, exit_edges) {
        (NO, _) | (_, NO) => return Estimate::Miss,
        (IN, IN) => return Estimate::Full,
        _ => {}
    }
    let d = end - start;
    // The usual form casts a ray at each listed edge and checks that the hit lies within the edge.
    // Here the parameters of the listed edges are combined as in Liang–Barsky instead: the
    // entry is the latest entering crossing (the start lies beyond exactly those edges), the
    // exit the earliest leaving one. Same edges, same divisions, but every comparison is
    // between parameters, whose rounding error is relative to the parameter; the usual
    // coordinate check rounds relative to the coordinates, and can accept a segment that
    // misses a box corner by far more than an ulp of `t`.
    let mut lo = 0.0_f32;
    let mut hi = 1.0_f32;
    for edge in [L, R, B, T] {
        if entry_edges & edge != 0 {
            lo = lo.max(crossing(start, d, aabb, edge));
        }
        if exit_edges & edge != 0 {
            hi = hi.min(crossing(start, d, aabb, edge));
        }
    }
    Estimate::Interval { lo, hi }
}

/// The parameter at which the segment `start + t·d` crosses the line of the given edge. The
/// table only lists edges the segment crosses, so the direction is nonzero along that axis.
#[inline]
fn crossing(start: Vec2, d: Vec2, aabb: &Aabb2d, edge: u8) -> f32 {
    match edge {
        L => (aabb.min.x - start.x) / d.x,
        R => (aabb.max.x - start.x) / d.x,
        B => (aabb.min.y - start.y) / d.y,
        _ => (aabb.max.y - start.y) / d.y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outcode-style bits of the sides a sector lies beyond.
    fn beyond(sector: usize) -> u8 {
        let (row, col) = (sector / 3, sector % 3);
        let x = [L, 0, R][col];
        let y = [T, 0, B][row];
        x | y
    }

    #[test]
    fn table_matches_outcode_rule() {
        for (from, row) in SECTOR_TABLE.iter().enumerate() {
            for (to, entry) in row.iter().enumerate() {
                let (a, b) = (beyond(from), beyond(to));
                let expected = if a & b != 0 {
                    (NO, NO)
                } else {
                    (if a == 0 { IN } else { a }, if b == 0 { IN } else { b })
                };
                assert_eq!(*entry, expected, "sector {from} -> {to}");
            }
        }
    }

    #[test]
    fn seed_examples() {
        // Worked examples of the lookup, on the box [0, 3]²: sector 0 → 1 needs no raycast, 4 → 7
        // only the bottom edge, 6 → 5 the left/bottom corner edges and the right edge.
        let aabb = Aabb2d::new(Vec2::splat(1.5), Vec2::splat(1.5));
        let at = |s: usize| Vec2::new([-1.0, 1.5, 4.0][s % 3], [4.0, 1.5, -1.0][s / 3]);
        assert_eq!(sector(at(0), &aabb), 0);
        assert_eq!(SECTOR_TABLE[0][1], (NO, NO));
        assert!(clip_segment_aabb_sectors(at(0), at(1), &aabb).is_none());
        assert_eq!(SECTOR_TABLE[4][7], (IN, B));
        let c = clip_segment_aabb_sectors(at(4), at(7), &aabb).unwrap();
        assert_eq!((c.entry, c.exit), (0.0, 0.6));
        assert_eq!(SECTOR_TABLE[6][5], (B | L, R));
        let c = clip_segment_aabb_sectors(at(6), at(5), &aabb).unwrap();
        // From (-1, -1) to (4, 1.5): passes below the corner, enters through the bottom edge
        // at (1, 0) (t = 0.4) and leaves through the right edge at (3, 1) (t = 0.8).
        assert_eq!((c.entry, c.exit), (0.4, 0.8));
    }
}
