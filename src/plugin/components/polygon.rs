//! A simple polygon cut into strictly convex pieces, exactly: the checks that it is simple,
//! an ear-clipping triangulation and a Hertel–Mehlhorn merge, every decision an exact
//! orientation test ([`orient2d`]).
//!
//! The pieces use only the polygon's own points (no point is added), so in any frame the
//! pieces placed by one transform meet exactly where the polygon's points are placed, and
//! their union is the polygon.

use crate::geometry::robust::orient2d;
use crate::narrow::ConvexPath;
use bevy::math::Vec2;
use core::cmp::Ordering;

/// The most vertices a piece has.
const MAX_PIECE: usize = ConvexPath::MAX_VERTICES;

/// `points` cut into strictly convex pieces of 3 to [`ConvexPath::MAX_VERTICES`] points, each
/// a list of indices into `points` in the polygon's own winding; `None` unless `points` are
/// 3 or more finite, distinct points whose boundary does not touch or cross itself (which
/// also rules out a zero area). The same points give the same pieces.
pub(crate) fn decompose(points: &[Vec2]) -> Option<Vec<Vec<u32>>> {
    if !is_simple(points) {
        return None;
    }
    let n = points.len();
    let counter_clockwise = winding(points) == Ordering::Greater;
    // Work counter-clockwise; give the pieces back in the polygon's winding.
    let order: Vec<u32> = if counter_clockwise {
        (0..n as u32).collect()
    } else {
        (0..n as u32).rev().collect()
    };
    let triangles = triangulate(points, order)?;
    let mut pieces = merge(points, triangles);
    if !counter_clockwise {
        for piece in &mut pieces {
            piece.reverse();
        }
    }
    Some(pieces)
}

/// `true` for 3 or more finite, distinct points whose closed boundary is simple: two edges
/// meet only where they share a point, and two neighbours only there.
pub(crate) fn is_simple(points: &[Vec2]) -> bool {
    let n = points.len();
    if n < 3 || n > u32::MAX as usize / 2 || points.iter().any(|p| !p.is_finite()) {
        return false;
    }
    let mut sorted: Vec<(i32, i32)> = points.iter().map(|p| key(*p)).collect();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return false;
    }
    let edge = |i: usize| (points[i], points[(i + 1) % n]);
    // Neighbouring edges fold back onto each other if they are collinear and their far ends
    // lie on one side of the shared point.
    for i in 0..n {
        let (a, b, c) = (points[i], points[(i + 1) % n], points[(i + 2) % n]);
        if orient2d(a, b, c) == 0.0 && same_side_on_line(a, b, c) {
            return false;
        }
    }
    // The other pairs, found by sweeping their boxes along x.
    let mut by_left: Vec<(f32, usize)> = (0..n)
        .map(|i| {
            let (a, b) = edge(i);
            (a.x.min(b.x), i)
        })
        .collect();
    by_left.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    for (k, &(_, i)) in by_left.iter().enumerate() {
        let (a, b) = edge(i);
        let right = a.x.max(b.x);
        let (low, high) = (a.y.min(b.y), a.y.max(b.y));
        for &(left, j) in &by_left[k + 1..] {
            if left > right {
                break;
            }
            let neighbours = (i + 1) % n == j || (j + 1) % n == i;
            let (c, d) = edge(j);
            if neighbours || c.y.max(d.y) < low || c.y.min(d.y) > high {
                continue;
            }
            if segments_meet(a, b, c, d) {
                return false;
            }
        }
    }
    true
}

/// A point's place in a total order of its coordinates.
fn key(p: Vec2) -> (i32, i32) {
    let k = |x: f32| {
        let bits = x.to_bits() as i32;
        // `+0.0` and `-0.0` are one point.
        if x == 0.0 {
            0
        } else if bits < 0 {
            i32::MIN - bits
        } else {
            bits
        }
    };
    (k(p.x), k(p.y))
}

/// For collinear `a`, `b`, `c`: `true` if `a` and `c` lie on the same side of `b` (the two
/// segments `ab` and `bc` overlap).
fn same_side_on_line(a: Vec2, b: Vec2, c: Vec2) -> bool {
    let side = |p: Vec2| {
        let x = p.x.partial_cmp(&b.x).unwrap_or(Ordering::Equal);
        if x == Ordering::Equal {
            p.y.partial_cmp(&b.y).unwrap_or(Ordering::Equal)
        } else {
            x
        }
    };
    side(a) == side(c)
}

/// `true` if the closed segments `ab` and `cd` share a point (exact).
pub(crate) fn segments_meet(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let sign = |v: f64| (v > 0.0) as i8 - (v < 0.0) as i8;
    let (o1, o2) = (sign(orient2d(a, b, c)), sign(orient2d(a, b, d)));
    let (o3, o4) = (sign(orient2d(c, d, a)), sign(orient2d(c, d, b)));
    if o1 * o2 > 0 || o3 * o4 > 0 {
        return false;
    }
    if o1 != 0 || o2 != 0 || o3 != 0 || o4 != 0 {
        return true;
    }
    // All four on one line: their boxes overlap.
    let overlap = |p: f32, q: f32, r: f32, s: f32| p.min(q) <= r.max(s) && r.min(s) <= p.max(q);
    overlap(a.x, b.x, c.x, d.x) && overlap(a.y, b.y, c.y, d.y)
}

/// The winding of a simple polygon: the turn at its lowest (then leftmost) point, which is
/// strictly convex, so never zero.
pub(crate) fn winding(points: &[Vec2]) -> Ordering {
    let n = points.len();
    let lowest = (0..n)
        .min_by(|&i, &j| {
            let (p, q) = (points[i], points[j]);
            p.y.total_cmp(&q.y).then(p.x.total_cmp(&q.x))
        })
        .unwrap_or(0);
    let turn = orient2d(
        points[(lowest + n - 1) % n],
        points[lowest],
        points[(lowest + 1) % n],
    );
    turn.partial_cmp(&0.0).unwrap_or(Ordering::Equal)
}

/// Cuts the counter-clockwise simple polygon `order` (indices into `points`) into triangles,
/// each counter-clockwise, by clipping ears: a strictly convex corner whose closed triangle
/// holds no other point of what is left (then no edge crosses it either: an edge entering
/// the triangle would have to end inside it, edges never cross). A polygon of four or more
/// points always has such an ear (Meisters' two-ears theorem, which holds with straight
/// corners too, for ears chosen among strictly convex corners).
fn triangulate(points: &[Vec2], order: Vec<u32>) -> Option<Vec<[u32; 3]>> {
    let mut triangles = Vec::with_capacity(order.len().saturating_sub(2));
    // What is left of the polygon, as a cycle: the next and previous of each index.
    let m = order.len();
    let mut next: Vec<usize> = (0..m).map(|k| (k + 1) % m).collect();
    let mut prev: Vec<usize> = (0..m).map(|k| (k + m - 1) % m).collect();
    let at = |k: usize| points[order[k] as usize];
    let mut near = Buckets::new(
        &order
            .iter()
            .map(|&i| points[i as usize])
            .collect::<Vec<_>>(),
    );
    let mut left = m;
    let mut k = 0;
    // Corners tried since the last ear: a whole round without one cannot happen for a
    // simple polygon, and ends the loop rather than spin (a guard, never taken).
    let mut tried = 0;
    while left > 3 && tried <= left {
        let (u, w) = (prev[k], next[k]);
        if is_ear(&near, [at(u), at(k), at(w)], [u, k, w]) {
            triangles.push([order[u], order[k], order[w]]);
            next[u] = w;
            prev[w] = u;
            near.remove(k);
            left -= 1;
            tried = 0;
            // On round the polygon, not back: clipping every other corner as it goes keeps
            // the triangles small (going back makes fans of ever larger triangles, whose
            // boxes hold most of the points left).
            k = w;
        } else {
            tried += 1;
            k = w;
        }
    }
    debug_assert!(left == 3, "a simple polygon always has an ear");
    (left == 3 && orient2d(at(prev[k]), at(k), at(next[k])) > 0.0).then(|| {
        triangles.push([order[prev[k]], order[k], order[next[k]]]);
        triangles
    })
}

/// `true` if the corner `b` between `a` and `c` (the points left numbered `corner`) is an
/// ear: strictly convex, and no other point left lies in its closed triangle.
fn is_ear(near: &Buckets, [a, b, c]: [Vec2; 3], corner: [usize; 3]) -> bool {
    if orient2d(a, b, c) <= 0.0 {
        return false;
    }
    let (min, max) = (a.min(b).min(c), a.max(b).max(c));
    near.within(min, max).all(|(j, p)| {
        corner.contains(&j)
            || orient2d(a, b, p) < 0.0
            || orient2d(b, c, p) < 0.0
            || orient2d(c, a, p) < 0.0
    })
}

/// The points left of a polygon being cut, in a uniform grid over their box (about one
/// point per cell), so that an ear test reads only the points near its triangle: without
/// it, ear clipping reads every point left for each corner it tries.
struct Buckets {
    points: Vec<Vec2>,
    min: Vec2,
    /// Cells per unit, and cells per side.
    scale: f64,
    side: usize,
    cells: Vec<Vec<u32>>,
}

impl Buckets {
    fn new(points: &[Vec2]) -> Self {
        let (min, max) = points
            .iter()
            .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), &p| {
                (lo.min(p), hi.max(p))
            });
        let side = (points.len() as f64).sqrt().ceil().max(1.0) as usize;
        let extent = f64::from((max - min).max_element());
        let scale = if extent > 0.0 {
            side as f64 / extent
        } else {
            0.0
        };
        let mut buckets = Self {
            points: points.to_vec(),
            min,
            scale,
            side,
            cells: vec![Vec::new(); side * side],
        };
        for (j, &p) in points.iter().enumerate() {
            let (x, y) = buckets.cell(p);
            buckets.cells[y * side + x].push(j as u32);
        }
        buckets
    }

    /// The cell of `p`: monotonic in each coordinate (differences of `f32`s are exact in
    /// `f64`, and rounding a product keeps its order), so the cells from `min`'s to `max`'s
    /// hold every point of the box between.
    fn cell(&self, p: Vec2) -> (usize, usize) {
        let at = |v: f32, low: f32| {
            (((f64::from(v) - f64::from(low)) * self.scale)
                .floor()
                .max(0.0) as usize)
                .min(self.side - 1)
        };
        (at(p.x, self.min.x), at(p.y, self.min.y))
    }

    /// Takes point `j` out (clipped).
    fn remove(&mut self, j: usize) {
        let (x, y) = self.cell(self.points[j]);
        let cell = &mut self.cells[y * self.side + x];
        if let Some(at) = cell.iter().position(|&i| i as usize == j) {
            cell.swap_remove(at);
        }
    }

    /// The points left in the box from `min` to `max`, with their numbers.
    fn within(&self, min: Vec2, max: Vec2) -> impl Iterator<Item = (usize, Vec2)> + '_ {
        let ((x0, y0), (x1, y1)) = (self.cell(min), self.cell(max));
        (y0..=y1)
            .flat_map(move |y| (x0..=x1).map(move |x| y * self.side + x))
            .flat_map(move |c| self.cells[c].iter().map(|&j| j as usize))
            .filter(move |&j| {
                let p = self.points[j];
                p.cmpge(min).all() && p.cmple(max).all()
            })
            .map(move |j| (j, self.points[j]))
    }
}

/// Merges counter-clockwise triangles across their shared edges (diagonals of the polygon)
/// while the union stays strictly convex and within [`MAX_PIECE`] points, in a fixed order
/// (Hertel and Mehlhorn's: at most four times the fewest convex pieces, before the limit on
/// points).
pub(crate) fn merge(points: &[Vec2], triangles: Vec<[u32; 3]>) -> Vec<Vec<u32>> {
    use std::collections::HashMap;
    let mut pieces: Vec<Option<Vec<u32>>> = triangles.iter().map(|t| Some(t.to_vec())).collect();
    // Which piece holds each directed edge.
    let mut owner: HashMap<(u32, u32), usize> = HashMap::new();
    for (p, t) in triangles.iter().enumerate() {
        for i in 0..3 {
            owner.insert((t[i], t[(i + 1) % 3]), p);
        }
    }
    // The diagonals, each once, in the order the triangles were cut.
    let diagonals: Vec<(u32, u32)> = triangles
        .iter()
        .flat_map(|t| (0..3).map(move |i| (t[i], t[(i + 1) % 3])))
        .filter(|&(a, b)| owner.contains_key(&(b, a)) && a < b)
        .collect();
    for (a, b) in diagonals {
        let (Some(&p), Some(&q)) = (owner.get(&(a, b)), owner.get(&(b, a))) else {
            continue;
        };
        if p == q {
            continue;
        }
        let (Some(first), Some(second)) = (&pieces[p], &pieces[q]) else {
            continue;
        };
        let Some(joined) = join(first, second, a, b) else {
            continue;
        };
        if joined.len() > MAX_PIECE || !strictly_convex_at(points, &joined, &[a, b]) {
            continue;
        }
        for i in 0..joined.len() {
            owner.insert((joined[i], joined[(i + 1) % joined.len()]), p);
        }
        owner.remove(&(a, b));
        owner.remove(&(b, a));
        pieces[p] = Some(joined);
        pieces[q] = None;
    }
    pieces.into_iter().flatten().collect()
}

/// The union of two counter-clockwise pieces across their shared edge: `first` holds
/// `a → b`, `second` holds `b → a`.
fn join(first: &[u32], second: &[u32], a: u32, b: u32) -> Option<Vec<u32>> {
    let i = first.iter().position(|&v| v == b)?;
    let j = second.iter().position(|&v| v == a)?;
    // `first` from `b` round to `a`, then `second` from `a` (exclusive) round to `b`
    // (exclusive).
    let mut joined: Vec<u32> = (0..first.len())
        .map(|k| first[(i + k) % first.len()])
        .collect();
    joined.extend((1..second.len() - 1).map(|k| second[(j + k) % second.len()]));
    Some(joined)
}

/// `true` if the counter-clockwise `piece` turns strictly left at the points `at`.
fn strictly_convex_at(points: &[Vec2], piece: &[u32], at: &[u32]) -> bool {
    let n = piece.len();
    at.iter().all(|&v| {
        let Some(i) = piece.iter().position(|&p| p == v) else {
            return false;
        };
        let p = |k: usize| points[piece[k] as usize];
        orient2d(p((i + n - 1) % n), p(i), p((i + 1) % n)) > 0.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Twice the signed area, exactly, of a polygon with small integer coordinates.
    fn area2(points: &[Vec2]) -> i64 {
        let n = points.len();
        (0..n)
            .map(|i| {
                let (p, q) = (points[i], points[(i + 1) % n]);
                p.x as i64 * q.y as i64 - q.x as i64 * p.y as i64
            })
            .sum()
    }

    /// Where `p` is for the polygon, by its winding number (the oracle does not use the
    /// pieces): `Some(true)` inside, `Some(false)` outside, `None` on the boundary.
    fn inside(points: &[Vec2], p: Vec2) -> Option<bool> {
        let n = points.len();
        let mut winding = 0;
        for i in 0..n {
            let (a, b) = (points[i], points[(i + 1) % n]);
            let o = orient2d(a, b, p);
            if o == 0.0 && segments_meet(a, b, p, p) {
                return None;
            }
            if a.y <= p.y && b.y > p.y && o > 0.0 {
                winding += 1;
            } else if a.y > p.y && b.y <= p.y && o < 0.0 {
                winding -= 1;
            }
        }
        Some(winding != 0)
    }

    /// Checks the pieces of `points` against the polygon: strictly convex, of 3 to 8
    /// points, in the polygon's winding, areas adding up to the polygon's exactly, and every
    /// sample point inside the polygon inside exactly one piece (and outside it, in none).
    fn check(points: &[Vec2], pieces: &[Vec<u32>]) {
        let n = points.len() as u32;
        let sign = area2(points).signum();
        let mut total = 0;
        for piece in pieces {
            assert!((3..=MAX_PIECE).contains(&piece.len()), "{piece:?}");
            assert!(piece.iter().all(|&i| i < n));
            let placed: Vec<Vec2> = piece.iter().map(|&i| points[i as usize]).collect();
            let m = placed.len();
            for i in 0..m {
                let turn = orient2d(placed[i], placed[(i + 1) % m], placed[(i + 2) % m]);
                assert_eq!(
                    turn.signum() as i64,
                    sign,
                    "not strictly convex: {placed:?}"
                );
            }
            total += area2(&placed);
        }
        assert_eq!(
            total,
            area2(points),
            "the pieces' areas add up to the polygon's"
        );
        let (min, max) = points
            .iter()
            .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), &p| {
                (lo.min(p), hi.max(p))
            });
        // Sample points on a grid offset by a quarter: never on the polygon's boundary (its
        // points are integers), but maybe on a diagonal, where the sample says nothing.
        let mut y = min.y - 0.75;
        while y <= max.y + 1.0 {
            let mut x = min.x - 0.75;
            while x <= max.x + 1.0 {
                let p = Vec2::new(x, y);
                let seen: Vec<Option<bool>> = pieces
                    .iter()
                    .map(|piece| {
                        let placed: Vec<Vec2> = piece.iter().map(|&i| points[i as usize]).collect();
                        inside(&placed, p)
                    })
                    .collect();
                let within = seen.iter().filter(|s| **s == Some(true)).count();
                let on_a_diagonal = seen.contains(&None);
                match inside(points, p).filter(|_| !on_a_diagonal) {
                    Some(true) => assert_eq!(within, 1, "{p} in {within} pieces"),
                    Some(false) => assert_eq!(within, 0, "{p} outside, in {within} pieces"),
                    None => {}
                }
                x += 1.0;
            }
            y += 1.0;
        }
    }

    /// A simple polygon of integer points: a star around the origin, one point per angle,
    /// each at its own radius (so with many reflex corners).
    fn star(radii: &[u8]) -> Vec<Vec2> {
        let n = radii.len();
        (0..n)
            .map(|i| {
                let angle = core::f32::consts::TAU * i as f32 / n as f32;
                let r = 4.0 + f32::from(radii[i]);
                Vec2::new((angle.cos() * r).round(), (angle.sin() * r).round())
            })
            .collect()
    }

    /// The outline of the solid cells of a grid (cells as unit squares, one connected blob
    /// without holes), traced counter-clockwise, straight points kept.
    fn blob_outline(cells: &[(i32, i32)]) -> Option<Vec<Vec2>> {
        use std::collections::{HashMap, HashSet};
        let set: HashSet<(i32, i32)> = cells.iter().copied().collect();
        // Directed boundary edges, the solid on their left.
        let mut edges: HashMap<(i32, i32), Vec<(i32, i32)>> = HashMap::new();
        for &(x, y) in &set {
            let sides = [
                ((x, y), (x + 1, y), (x, y - 1)),
                ((x + 1, y), (x + 1, y + 1), (x + 1, y)),
                ((x + 1, y + 1), (x, y + 1), (x, y + 1)),
                ((x, y + 1), (x, y), (x - 1, y)),
            ];
            for (a, b, neighbour) in sides {
                if !set.contains(&neighbour) {
                    edges.entry(a).or_default().push(b);
                }
            }
        }
        // Simple only if no corner is shared by two outlines.
        if edges.values().any(|v| v.len() != 1) {
            return None;
        }
        let start = *edges.keys().min()?;
        let mut outline = vec![start];
        let mut at = edges[&start][0];
        while at != start {
            outline.push(at);
            at = edges[&at][0];
            if outline.len() > edges.len() {
                return None;
            }
        }
        (outline.len() == edges.len()).then(|| {
            outline
                .iter()
                .map(|&(x, y)| Vec2::new(x as f32, y as f32))
                .collect()
        })
    }

    #[test]
    fn shapes_that_are_not_simple_polygons_are_refused() {
        let v = Vec2::new;
        let bow_tie = [v(0.0, 0.0), v(2.0, 2.0), v(2.0, 0.0), v(0.0, 2.0)];
        let flat = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)];
        let folded = [v(0.0, 0.0), v(2.0, 0.0), v(1.0, 0.0), v(1.0, 1.0)];
        let repeated = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)];
        let pinched = [
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(1.0, 1.0),
            v(2.0, 2.0),
            v(0.0, 2.0),
            v(1.0, 1.0),
        ];
        let touching = [
            v(0.0, 0.0),
            v(4.0, 0.0),
            v(4.0, 4.0),
            v(2.0, 0.0),
            v(0.0, 4.0),
        ];
        for bad in [&bow_tie[..], &flat, &folded, &repeated, &pinched, &touching] {
            assert!(decompose(bad).is_none(), "{bad:?}");
        }
        assert!(decompose(&[v(0.0, 0.0), v(1.0, 0.0)]).is_none());
        assert!(decompose(&[v(0.0, 0.0), v(1.0, 0.0), v(f32::NAN, 1.0)]).is_none());
        assert!(decompose(&[v(0.0, 0.0), v(1.0, 0.0), v(0.0, f32::INFINITY)]).is_none());
    }

    #[test]
    fn known_shapes() {
        let v = Vec2::new;
        let l_shape = [
            v(0.0, 0.0),
            v(4.0, 0.0),
            v(4.0, 1.0),
            v(1.0, 1.0),
            v(1.0, 4.0),
            v(0.0, 4.0),
        ];
        let u_shape = [
            v(0.0, 0.0),
            v(6.0, 0.0),
            v(6.0, 5.0),
            v(4.0, 5.0),
            v(4.0, 2.0),
            v(2.0, 2.0),
            v(2.0, 5.0),
            v(0.0, 5.0),
        ];
        // A square with a point in the middle of its bottom side, and a 20-gon.
        let straight = [
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(4.0, 0.0),
            v(4.0, 4.0),
            v(0.0, 4.0),
        ];
        let round: Vec<Vec2> = star(&[30; 20]);
        for shape in [&l_shape[..], &u_shape, &straight, &round] {
            for points in [shape.to_vec(), shape.iter().rev().copied().collect()] {
                let pieces = decompose(&points).expect("a simple polygon");
                check(&points, &pieces);
            }
        }
        // An L is two convex pieces; a U three; a convex 20-gon three (8 + 8 + 6 points,
        // sharing two diagonals).
        assert_eq!(decompose(&l_shape).map(|p| p.len()), Some(2));
        assert_eq!(decompose(&u_shape).map(|p| p.len()), Some(3));
        assert!(decompose(&round).is_some_and(|p| p.len() <= 4));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// Random stars, either winding: pieces check out and do not depend on the call.
        #[test]
        fn stars_are_cut_exactly(radii in prop::collection::vec(0_u8..40, 3..40), flip in any::<bool>()) {
            let mut points = star(&radii);
            if flip {
                points.reverse();
            }
            // Rounding may make a star not simple (two points equal); then it is refused.
            if let Some(pieces) = decompose(&points) {
                check(&points, &pieces);
                prop_assert_eq!(Some(pieces), decompose(&points));
            } else {
                prop_assert!(!is_simple(&points));
            }
        }

        /// Random blobs of grid cells (many straight corners and notches).
        #[test]
        fn blobs_are_cut_exactly(steps in prop::collection::vec(0_u8..4, 1..40)) {
            let mut cells = vec![(0, 0)];
            let mut at = (0, 0);
            for s in steps {
                at = match s {
                    0 => (at.0 + 1, at.1),
                    1 => (at.0 - 1, at.1),
                    2 => (at.0, at.1 + 1),
                    _ => (at.0, at.1 - 1),
                };
                if !cells.contains(&at) {
                    cells.push(at);
                }
            }
            if let Some(outline) = blob_outline(&cells) {
                let pieces = decompose(&outline).expect("a simple outline");
                check(&outline, &pieces);
            }
        }
    }
}
