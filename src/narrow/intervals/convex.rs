//! The general solver: rounded convex polygons, vertex against edge.
//!
//! One model holds every shape a 2D game is made of (as in `Box2D` v3): a convex polygon of
//! one to [`ConvexPath::MAX_VERTICES`] vertices grown by a radius. One vertex is a point
//! (radius 0) or a circle; two are a segment or a capsule; four an oriented box, which a
//! radius rounds. The two shapes touch while the distance between their cores is at most
//! the sum of their radii.
//!
//! The distance between two convex polygons that are apart is the distance from a vertex
//! of one to an edge (or a vertex) of the other, and two that meet have a vertex of one on
//! an edge of the other at the moment they first meet. So contact can begin or end only
//! when a vertex of one comes within the summed radius `R` of an edge or vertex of the
//! other:
//! - `R = 0`: a vertex on an edge ([`sweep_point_segment`], a quadratic in time), or on a
//!   vertex (two linear paths meeting);
//! - `R > 0`: a vertex at distance `R` from an edge's interior (the quartic of the
//!   segment–circle solver) or from a vertex (a quadratic).
//!
//! Between two consecutive such moments contact does not change, and one test at the
//! midpoint says which; whether the shapes touch at the start and end of the step is decided
//! by the exact static kernels, as for the other pairs.
//!
//! The cores must stay convex during the step. They do under any motion of a transform
//! whose linear part stays invertible: with every vertex moving linearly between two poses
//! of the same convex polygon, the polygon at each moment is the image of the first pose
//! by the affine map interpolated between the two, and `(1 − t)·I + t·R(θ)` is a rotation
//! and a scaling for any turn `θ` below half a turn.

use super::moments::{Moments, NEAR, assemble, distance_to_segment, scale};
use super::segment::{segment_meets_disk, tangent_moments};
use super::{
    Intervals, box_interval, disk_interval, hull, moving_disks_stay_apart, relative, stays_out,
};
use crate::geometry::robust::orient2d;
use crate::geometry::{intersect_segment_segment, sweep_point_segment};
use crate::narrow::shape::{ConvexPath, Pose};
use bevy_math::{DVec2, Vec2};

impl Pose {
    /// The edges as segments; a point is one edge of length zero.
    fn edges(&self) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        let n = self.len;
        let count = if n <= 2 { 1 } else { n };
        (0..count).map(move |i| (self.points[i], self.points[(i + 1) % n]))
    }

    /// `true` if `p` is in the closed polygon (three or more vertices): its orientations
    /// against the edges never have opposite signs (either winding), and one is not zero
    /// (a polygon collapsed to a point holds no other point). Exact.
    fn holds(&self, p: Vec2) -> bool {
        if self.len < 3 {
            return false;
        }
        let (mut left, mut right) = (false, false);
        for (a, b) in self.edges() {
            let o = orient2d(a, b, p);
            left |= o > 0.0;
            right |= o < 0.0;
        }
        left != right
    }

    /// The bounding box of the vertices (exact: comparisons only).
    fn bounds(&self) -> (Vec2, Vec2) {
        self.points()
            .iter()
            .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), &p| {
                (lo.min(p), hi.max(p))
            })
    }

    /// `true` if the two cores share a point (exact on these coordinates). Edges whose
    /// bounding boxes are apart cannot meet and are not tested (an exact shortcut).
    fn cores_meet(&self, other: &Pose) -> bool {
        let ((lo, hi), (other_lo, other_hi)) = (self.bounds(), other.bounds());
        if lo.cmpgt(other_hi).any() || other_lo.cmpgt(hi).any() {
            return false;
        }
        let overlap = |a: Vec2, b: Vec2, c: Vec2, d: Vec2| {
            !(a.min(b).cmpgt(c.max(d)).any() || c.min(d).cmpgt(a.max(b)).any())
        };
        self.edges().any(|(a, b)| {
            other.edges().any(|(c, d)| {
                overlap(a, b, c, d) && intersect_segment_segment(a, b, c, d).is_some()
            })
        }) || self.holds(other.points[0])
            || other.holds(self.points[0])
    }

    /// `true` if a vertex of one is within `radius` of an edge of the other.
    fn within(&self, other: &Pose, radius: f32) -> bool {
        let near = |p: &Pose, q: &Pose| {
            p.points()
                .iter()
                .any(|&v| q.edges().any(|(a, b)| segment_meets_disk(a, b, v, radius)))
        };
        near(self, other) || near(other, self)
    }

    /// The distance between the cores in `f64` (zero where they meet).
    fn distance(&self, other: &Pose) -> f64 {
        if self.cores_meet(other) {
            return 0.0;
        }
        let one_way = |p: &Pose, q: &Pose| {
            p.points()
                .iter()
                .flat_map(|&v| q.edges().map(move |(a, b)| distance_to_segment(v, a, b)))
                .fold(f64::INFINITY, f64::min)
        };
        one_way(self, other).min(one_way(other, self))
    }
}

/// Every moment of the step at which two rounded convex polygons touch or overlap: closed
/// time intervals, as [`contact_intervals`](super::contact_intervals) gives for the basic
/// shapes, with the same accuracy.
///
/// This is the one general solver beneath every shape: it accepts the basic shapes too
/// (a point is one vertex, a circle one vertex and a radius, a segment two vertices, a box
/// four), and gives their contacts within rounding of their own solvers.
///
/// Each polygon must stay convex during the step (true of any motion of a rigid shape that
/// turns less than half a turn in the step; see the module docs). Invalid paths (see
/// [`ConvexPath::is_valid`]) give no contact.
///
/// # Example
/// A square of side 2 moving right by 4 meets a still triangle whose tip is 1 to its right
/// a quarter of the way through the step:
/// ```
/// use bevy_math::{DVec2, Vec2};
/// use bevy_sweep::narrow::{ConvexPath, convex_contact_intervals};
///
/// let square = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
///     .map(|(x, y)| [Vec2::new(x, y), Vec2::new(x + 4.0, y)]);
/// let triangle = [(2.0, 0.0), (4.0, -1.0), (4.0, 1.0)].map(|(x, y)| [Vec2::new(x, y); 2]);
/// let hits = convex_contact_intervals(
///     &ConvexPath { vertices: &square, radius: 0.0 },
///     &ConvexPath { vertices: &triangle, radius: 0.0 },
/// );
/// assert_eq!(hits[0][0], 0.25);
/// ```
#[must_use]
pub fn convex_contact_intervals(a: &ConvexPath, b: &ConvexPath) -> Intervals {
    if !a.is_valid() || !b.is_valid() {
        return Intervals::default();
    }
    // Most candidate pairs are nowhere near each other: a few operations prove it.
    if moving_disks_stay_apart(bounding_disk(a), bounding_disk(b)) {
        return Intervals::default();
    }
    // Vertex–vertex meetings (2 moments each) and vertex–edge ones both ways (at most 2 for
    // a sweep, 4 for a quartic): room for as many as this pair can have, in one of three
    // sizes (a buffer for the most any pair can have, 640, costs a few hundred bytes of
    // zeroing to every pair of small shapes).
    let edges = |p: &ConvexPath| p.edges().count();
    let (na, nb) = (a.vertices.len(), b.vertices.len());
    let most = 2 * na * nb + 4 * (na * edges(b) + nb * edges(a));
    if most <= 64 {
        solve(a, b, Moments::<64>::default())
    } else if most <= 192 {
        solve(a, b, Moments::<192>::default())
    } else {
        const MOST: usize = ConvexPath::MAX_VERTICES * ConvexPath::MAX_VERTICES * (2 + 2 * 4);
        solve(a, b, Moments::<MOST>::default())
    }
}

/// [`convex_contact_intervals`] of two valid paths that may touch, with room for `N`
/// moments.
fn solve<const N: usize>(a: &ConvexPath, b: &ConvexPath, mut moments: Moments<N>) -> Intervals {
    let radius = a.radius + b.radius;
    let size = scale(a.vertices).max(scale(b.vertices)).max(radius);
    let margin = NEAR * size;
    for (p, q) in [(a, b), (b, a)] {
        for (i, j) in q.edges() {
            let (e0, e1) = (q.vertices[i], q.vertices[j]);
            let edge_hull = hull(&[e0, e1]);
            for &v in p.vertices {
                if stays_out(v, &edge_hull, margin + radius) {
                    continue;
                }
                if radius == 0.0 {
                    for sweep in sweep_point_segment(e0, e1, v) {
                        moments.push(sweep.time);
                    }
                } else {
                    let (roots, n) = tangent_moments(e0, e1, v, radius);
                    for &t in &roots[..n] {
                        moments.push(t as f32);
                    }
                }
            }
        }
    }
    for &v in a.vertices {
        for &w in b.vertices {
            let meeting = if radius == 0.0 {
                box_interval(relative(v, w), Vec2::ZERO)
            } else {
                disk_interval(relative(v, w), radius)
            };
            if let Some([first, last]) = meeting {
                moments.push(first);
                moments.push(last);
            }
        }
    }

    let touch_exact = |t: f32| {
        let (p, q) = (Pose::at(a, t), Pose::at(b, t));
        p.cores_meet(&q) || (radius > 0.0 && p.within(&q, radius))
    };
    let tolerance = f64::from(radius) + f64::from(margin);
    let near = |t: f32| Pose::at(a, t).distance(&Pose::at(b, t)) <= tolerance;
    // Without a radius every moment is a vertex on an edge or on a vertex: a contact. With
    // one, a root of the quartic may be a near miss it could not tell from a tangency, so
    // each is confirmed, as the segment–circle solver does.
    assemble(
        moments,
        touch_exact(0.0),
        touch_exact(1.0),
        |t| radius == 0.0 || near(t),
        near,
    )
}

/// A disk that holds the shape throughout the step: the path of its vertices' mean (which
/// moves linearly because they do) and its radius in `f64`. A vertex's distance from the
/// mean is convex in time, so its largest value is at one end of the step.
fn bounding_disk(path: &ConvexPath) -> ([DVec2; 2], f64) {
    let n = path.vertices.len() as f64;
    let mean = |end: usize| {
        path.vertices
            .iter()
            .fold(DVec2::ZERO, |sum, v| sum + v[end].as_dvec2())
            / n
    };
    let center = [mean(0), mean(1)];
    let reach = path.vertices.iter().fold(0.0_f64, |far, v| {
        far.max(v[0].as_dvec2().distance(center[0]))
            .max(v[1].as_dvec2().distance(center[1]))
    });
    (center, reach + f64::from(path.radius))
}
