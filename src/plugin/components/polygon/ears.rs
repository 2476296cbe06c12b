//! Ear clipping: a counter-clockwise simple polygon cut into triangles, with a grid of the
//! points left so that each ear test reads only the points near it.

use crate::geometry::robust::orient2d;
use bevy::math::Vec2;

/// Cuts the counter-clockwise simple polygon `order` (indices into `points`) into triangles,
/// each counter-clockwise, by clipping ears: a strictly convex corner whose closed triangle
/// holds no other point of what is left (then no edge crosses it either: an edge entering
/// the triangle would have to end inside it, edges never cross). A polygon of four or more
/// points always has such an ear (Meisters' two-ears theorem, which holds with straight
/// corners too, for ears chosen among strictly convex corners).
pub(super) fn triangulate(points: &[Vec2], order: Vec<u32>) -> Option<Vec<[u32; 3]>> {
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
