//! A simple polygon cut into strictly convex pieces, exactly: the checks that it is simple, a
//! constrained Delaunay triangulation of its points, and a Hertel–Mehlhorn merge that lets
//! pieces run on past the points of a straight stretch of the outline, every decision an
//! exact orientation test ([`orient2d`]).
//!
//! The pieces use only the polygon's own points (no point is added), so in any frame the
//! pieces placed by one transform meet exactly where the polygon's points are placed, and
//! their union is the polygon. The Delaunay triangles are the ones of the polygon's own
//! points closest to equilateral, so a triangle spans about the edges that made it: no fan
//! of slivers from one far corner (what ear clipping made of an editor's long floors).

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
///
/// A point where the outline runs straight on (its neighbours and it on one line) is no
/// corner of a piece: a piece's edge runs along the whole straight stretch, so a floor drawn
/// with a point every few units is as few pieces as its corners make.
pub(crate) fn decompose(points: &[Vec2]) -> Option<Vec<Vec<u32>>> {
    if !distinct_finite_points(points) {
        return None;
    }
    let n = points.len();
    // For a simple polygon, its winding; for another, whatever the turn there is (the
    // triangulation then refuses it).
    let counter_clockwise = winding(points) == Ordering::Greater;
    // Work counter-clockwise; give the pieces back in the polygon's winding.
    let order: Vec<u32> = if counter_clockwise {
        (0..n as u32).collect()
    } else {
        (0..n as u32).rev().collect()
    };
    let triangles = if points.iter().all(|p| within_triangulation(*p)) {
        // The triangulation is also the test that the outline is simple.
        constrained_delaunay(points, &order)?
    } else {
        // Coordinates the triangulation cannot take (nonzero and below 2^-142): ear
        // clipping, which takes every finite point, after the sweep that tests the outline.
        if !is_simple(points) {
            return None;
        }
        triangulate(points, order)?
    };
    let mut pieces = merge(points, triangles);
    if !counter_clockwise {
        for piece in &mut pieces {
            piece.reverse();
        }
    }
    Some(pieces)
}

/// `true` if spade's triangulation takes `p` (coordinates zero or of at least 2^-142 in size;
/// every finite `f32` is below its upper bound).
fn within_triangulation(p: Vec2) -> bool {
    let ok = |x: f32| x == 0.0 || f64::from(x.abs()) >= spade::MIN_ALLOWED_VALUE;
    ok(p.x) && ok(p.y)
}

/// The constrained Delaunay triangulation of the polygon `order` (indices into `points`),
/// counter-clockwise if it is simple: its triangles inside the polygon, each
/// counter-clockwise, as indices into `points`. `None` unless the polygon is simple and
/// counter-clockwise.
///
/// This is also the test that the outline is simple, exactly (spade's predicates are exact,
/// and `f32` coordinates are exact in `f64`): if every edge of the outline is an edge of the
/// triangulation (a plane graph: its edges meet only at shared ends, and none passes
/// through a point), its points are distinct, and the faces left of its edges are inside
/// and those right of them outside, the outline is a simple closed curve, counter-clockwise.
/// Two crossing edges are a conflict of the triangulation's constraints; an edge through
/// another point, or two neighbours folded back onto each other, is no single edge of it.
/// Unlike a sweep over the edges' boxes, it costs `n log n` whatever the edges' lengths.
fn constrained_delaunay(points: &[Vec2], order: &[u32]) -> Option<Vec<[u32; 3]>> {
    use spade::handles::FixedVertexHandle;
    use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};
    let m = order.len();
    let vertices: Vec<Point2<f64>> = order
        .iter()
        .map(|&i| {
            let p = points[i as usize];
            Point2::new(f64::from(p.x), f64::from(p.y))
        })
        .collect();
    let edges: Vec<[usize; 2]> = (0..m).map(|k| [k, (k + 1) % m]).collect();
    let mut conflict = false;
    let cdt =
        ConstrainedDelaunayTriangulation::<Point2<f64>>::try_bulk_load_cdt(vertices, edges, |_| {
            conflict = true;
        })
        .ok()?;
    if conflict || cdt.num_vertices() != m || cdt.num_constraints() != m {
        return None;
    }
    let outline = |k: usize| {
        cdt.get_edge_from_neighbors(
            FixedVertexHandle::from_index(k),
            FixedVertexHandle::from_index((k + 1) % m),
        )
    };
    // The faces inside: the one left of the outline's first edge, and every face reached
    // from it without crossing the outline, depth first, so that each triangle is next to
    // one before it and the merge grows one piece at a time.
    let mut inside = vec![false; cdt.num_all_faces()];
    let mut stack = vec![outline(0)?.face().as_inner()?.fix()];
    let mut triangles = Vec::with_capacity(m.saturating_sub(2));
    while let Some(face) = stack.pop() {
        if core::mem::replace(&mut inside[face.index()], true) {
            continue;
        }
        let face = cdt.face(face);
        for edge in face.adjacent_edges() {
            if !cdt.is_constraint_edge(edge.fix().as_undirected())
                && let Some(next) = edge.rev().face().as_inner()
                && !inside[next.fix().index()]
            {
                stack.push(next.fix());
            }
        }
        let [a, b, c] = face.vertices().map(|v| order[v.fix().index()]);
        let at = |i: u32| points[i as usize];
        if orient2d(at(a), at(b), at(c)) <= 0.0 {
            return None;
        }
        triangles.push([a, b, c]);
    }
    // Every edge of the outline is an edge of the triangulation, inside on its left only;
    // and a triangulation of a simple polygon of `m` points has `m - 2` triangles.
    for k in 0..m {
        let edge = outline(k)?;
        let left = edge
            .face()
            .as_inner()
            .is_some_and(|f| inside[f.fix().index()]);
        let right = edge
            .rev()
            .face()
            .as_inner()
            .is_some_and(|f| inside[f.fix().index()]);
        if !left || right {
            return None;
        }
    }
    (triangles.len() == m - 2).then_some(triangles)
}

/// `true` for 3 or more finite points, no two equal (`+0.0` and `-0.0` are one coordinate),
/// and few enough to number with `u32`s.
fn distinct_finite_points(points: &[Vec2]) -> bool {
    let n = points.len();
    if n < 3 || n > u32::MAX as usize / 2 || points.iter().any(|p| !p.is_finite()) {
        return false;
    }
    let mut sorted: Vec<(i32, i32)> = points.iter().map(|p| key(*p)).collect();
    sorted.sort_unstable();
    !sorted.windows(2).any(|w| w[0] == w[1])
}

/// `true` for 3 or more finite, distinct points whose closed boundary is simple: two edges
/// meet only where they share a point, and two neighbours only there.
pub(crate) fn is_simple(points: &[Vec2]) -> bool {
    if !distinct_finite_points(points) {
        return false;
    }
    let n = points.len();
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
/// while the union stays convex and within [`MAX_PIECE`] corners, in a fixed order (Hertel
/// and Mehlhorn's: at most four times the fewest convex pieces, before the limit on corners),
/// and gives each piece back by its corners alone.
///
/// A point where a piece runs straight on is no corner: the merge goes on across it (a
/// straight stretch of the outline with a point every few units, or a point of a
/// neighbouring piece on a diagonal), and the piece given back leaves it out. It lies
/// exactly on the line between the corners either side (the test is exact), so the pieces'
/// union is still exactly the polygon.
pub(crate) fn merge(points: &[Vec2], triangles: Vec<[u32; 3]>) -> Vec<Vec<u32>> {
    use std::collections::HashMap;
    // The pieces as rings of half-edges: three per triangle to start with (half-edge
    // `3p + i` runs from corner `i` of triangle `p` to the next), each ring linked both
    // ways, so that two pieces join in constant time however many points they have (a
    // straight stretch of thousands of points is one piece's edge).
    let h = triangles.len() * 3;
    let from: Vec<u32> = triangles.iter().flatten().copied().collect();
    let to: Vec<u32> = triangles.iter().flat_map(|t| [t[1], t[2], t[0]]).collect();
    let ring = |e: usize, step: usize| (e / 3 * 3 + (e % 3 + step) % 3) as u32;
    let mut next: Vec<u32> = (0..h).map(|e| ring(e, 1)).collect();
    let mut prev: Vec<u32> = (0..h).map(|e| ring(e, 2)).collect();
    let mut alive = vec![true; h];
    // Which piece each triangle is now part of (union-find), and each piece's corners.
    let mut parent: Vec<u32> = (0..triangles.len() as u32).collect();
    let mut corners = vec![3_usize; triangles.len()];
    let twin: HashMap<(u32, u32), u32> = (0..h as u32)
        .map(|e| ((from[e as usize], to[e as usize]), e))
        .collect();
    // The diagonals, each once, in the order of the triangles: each triangle's edges to the
    // triangles before it (so that, for triangles each next to one before it, a piece grows
    // one triangle at a time).
    let diagonals: Vec<(usize, usize)> = (0..h)
        .filter_map(|e| {
            let t = *twin.get(&(to[e], from[e]))? as usize;
            (t / 3 < e / 3).then_some((e, t))
        })
        .collect();
    let at = |v: u32| points[v as usize];
    let turn = |a: u32, b: u32, c: u32| orient2d(at(a), at(b), at(c));
    for (e, t) in diagonals {
        let (p, q) = (root(&mut parent, e / 3), root(&mut parent, t / 3));
        if p == q {
            continue;
        }
        // `e` runs a → b in one piece, `t` b → a in the other; around them, x → a → b → w
        // and z → b → a → y.
        let (a, b) = (from[e], to[e]);
        let (x, w) = (from[prev[e] as usize], to[next[e] as usize]);
        let (z, y) = (from[prev[t] as usize], to[next[t] as usize]);
        let (at_a, at_b) = (turn(x, a, y), turn(z, b, w));
        if at_a < 0.0 || at_b < 0.0 {
            continue;
        }
        // Only the corners at `a` and `b` change.
        let was = [turn(x, a, b), turn(a, b, w), turn(b, a, y), turn(z, b, a)]
            .iter()
            .filter(|&&o| o > 0.0)
            .count();
        let now = usize::from(at_a > 0.0) + usize::from(at_b > 0.0);
        let joined = corners[p] + corners[q] + now - was;
        if joined > MAX_PIECE {
            continue;
        }
        let (pe, ne, pt, nt) = (prev[e], next[e], prev[t], next[t]);
        next[pe as usize] = nt;
        prev[nt as usize] = pe;
        next[pt as usize] = ne;
        prev[ne as usize] = pt;
        alive[e] = false;
        alive[t] = false;
        parent[q] = p as u32;
        corners[p] = joined;
    }
    // Each piece once, from its first half-edge, by its corners alone.
    let mut seen = vec![false; h];
    let mut pieces = Vec::new();
    for first in 0..h {
        if !alive[first] || seen[first] {
            continue;
        }
        let mut piece = Vec::new();
        let mut e = first;
        loop {
            seen[e] = true;
            if turn(from[prev[e] as usize], from[e], to[e]) > 0.0 {
                piece.push(from[e]);
            }
            e = next[e] as usize;
            if e == first {
                break;
            }
        }
        pieces.push(piece);
    }
    pieces
}

/// The piece triangle `p` is part of: the root of its tree in `parent` (paths halved on the
/// way).
fn root(parent: &mut [u32], mut p: usize) -> usize {
    while parent[p] as usize != p {
        let up = parent[parent[p] as usize];
        parent[p] = up;
        p = up as usize;
    }
    p
}

#[cfg(test)]
mod tests;
