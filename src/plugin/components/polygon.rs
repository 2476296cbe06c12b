//! A simple polygon cut into strictly convex pieces, exactly: the checks that it is simple,
//! an ear-clipping triangulation and a Hertel–Mehlhorn merge, every decision an exact
//! orientation test ([`orient2d`]).
//!
//! The pieces use only the polygon's own points (no point is added), so in any frame the
//! pieces placed by one transform meet exactly where the polygon's points are placed, and
//! their union is the polygon.

mod ears;

use crate::geometry::robust::orient2d;
use crate::narrow::ConvexPath;
use bevy::math::Vec2;
use core::cmp::Ordering;
use ears::triangulate;

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
mod tests;
