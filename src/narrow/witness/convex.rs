//! Where two rounded convex polygons touch at one moment, and on which of their features.

use super::Feature;
use crate::narrow::ConvexPath;
use crate::narrow::shape::{ConvexShape, Shape};
use bevy_math::Vec2;

/// A point on a polygon's core and the feature it lies on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Spot {
    pub(super) point: Vec2,
    pub(super) feature: Feature,
}

/// The closest points of two rounded polygons' cores, on their features, and the normal
/// from `b` towards `a` where the geometry gives one.
#[derive(Clone, Copy, Debug)]
pub(super) struct Closest {
    pub(super) on_a: Spot,
    pub(super) on_b: Spot,
    pub(super) normal: Option<Vec2>,
}

/// A basic shape as a rounded polygon at one moment (a box's corners counter-clockwise from
/// the lowest-left, as [`ConvexVertices`](crate::narrow::ConvexVertices) orders them).
pub(crate) fn as_convex(shape: &Shape) -> ConvexShape {
    let make = |vertices: &[Vec2], radius: f32| ConvexShape::new(vertices, radius);
    match *shape {
        Shape::Point(p) => make(&[p], 0.0),
        Shape::Segment(a, b) => make(&[a, b], 0.0),
        Shape::Circle { center, radius } => make(&[center], radius),
        Shape::Aabb {
            center,
            half_extents: h,
        } => make(
            &[
                center - h,
                center + Vec2::new(h.x, -h.y),
                center + h,
                center + Vec2::new(-h.x, h.y),
            ],
            0.0,
        ),
        Shape::Convex(convex) => Some(convex),
    }
    .unwrap_or(ConvexShape {
        vertices: [Vec2::ZERO; ConvexPath::MAX_VERTICES],
        len: 1,
        radius: 0.0,
    })
}

/// The edges of a polygon as `(index, start, end)`: none for one vertex, one for two, the
/// closed loop for more.
pub(super) fn edges(shape: &ConvexShape) -> impl Iterator<Item = (u32, Vec2, Vec2)> + '_ {
    let v = shape.vertices();
    let n = v.len();
    let count = match n {
        0 | 1 => 0,
        2 => 1,
        _ => n,
    };
    (0..count).map(move |i| (i as u32, v[i], v[(i + 1) % n]))
}

/// Twice the signed area: positive for counter-clockwise vertices.
fn winding(shape: &ConvexShape) -> f32 {
    let v = shape.vertices();
    (0..v.len())
        .map(|i| v[i].perp_dot(v[(i + 1) % v.len()]))
        .sum()
}

/// The outward unit normal of edge `(s, e)` of a polygon of three or more vertices.
pub(super) fn outward(shape: &ConvexShape, s: Vec2, e: Vec2) -> Option<Vec2> {
    if shape.vertices().len() < 3 {
        return None;
    }
    let n = (e - s).perp().try_normalize()?;
    // Counter-clockwise: the outside is on the right of each edge.
    Some(if winding(shape) > 0.0 { -n } else { n })
}

/// The point of edge `index` (`s` to `e`) nearest `p`, as a feature: a vertex at either end.
fn on_edge(shape: &ConvexShape, index: u32, s: Vec2, e: Vec2, p: Vec2) -> Spot {
    let d = e - s;
    let len2 = d.length_squared();
    let along = if len2 > 0.0 {
        ((p - s).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let n = shape.vertices().len() as u32;
    let feature = if along == 0.0 {
        Feature::Vertex(index)
    } else if along == 1.0 {
        Feature::Vertex((index + 1) % n)
    } else {
        Feature::Edge { index, along }
    };
    Spot {
        point: s + d * along,
        feature,
    }
}

/// `true` if `p` is inside or on the polygon (three or more vertices).
#[cfg_attr(
    not(feature = "plugin"),
    allow(dead_code, reason = "used by the plugin")
)]
fn holds(shape: &ConvexShape, p: Vec2) -> bool {
    let (mut left, mut right) = (false, false);
    for (_, s, e) in edges(shape) {
        let o = (e - s).perp_dot(p - s);
        left |= o > 0.0;
        right |= o < 0.0;
    }
    shape.vertices().len() >= 3 && left != right
}

/// The closest features of the two cores (vertex of one against edge or vertex of the other),
/// or, where the cores overlap, the features along the axis of least overlap.
///
/// Where several pairs of features are (within rounding) as close as the closest, as when
/// two faces meet flat, the contact point is the mean of theirs: the middle of the stretch
/// where they touch.
pub(super) fn closest(a: &ConvexShape, b: &ConvexShape) -> Closest {
    // The first of the closest vertex–feature pairs, as `min_by` keeps.
    let mut closest: Option<(f32, Spot, Spot)> = None;
    vertex_feature_pairs(a, b, |d, x, y| {
        if closest.is_none_or(|(best, _, _)| d.total_cmp(&best).is_lt()) {
            closest = Some((d, x, y));
        }
    });
    let Some((best, on_a, on_b)) = closest else {
        let spot = |shape: &ConvexShape| Spot {
            point: shape.vertices().first().copied().unwrap_or(Vec2::ZERO),
            feature: Feature::Vertex(0),
        };
        return Closest {
            on_a: spot(a),
            on_b: spot(b),
            normal: None,
        };
    };
    // Cores that overlap (not only touch): the axis of least overlap.
    if overlap(a, b)
        && let Some(deep) = least_overlap(a, b)
    {
        return deep;
    }
    // Pairs as close as the closest, within rounding of the shapes' size: their mean.
    let size = a
        .vertices()
        .iter()
        .chain(b.vertices())
        .fold(0.0_f32, |m, v| m.max(v.abs().max_element()));
    let slack = (best.sqrt() + 8.0 * f32::EPSILON * size).powi(2);
    let (mut sum_a, mut sum_b, mut n) = (Vec2::ZERO, Vec2::ZERO, 0.0);
    // Among them, the one touching a face (an edge's inside, a segment's too) names the
    // features: two faces meeting flat touch face to face, not at the corner found first.
    let is_edge = |spot: &Spot| matches!(spot.feature, Feature::Edge { .. });
    let (mut on_a, mut on_b) = (on_a, on_b);
    let mut rank = 0;
    vertex_feature_pairs(a, b, |d, x, y| {
        if d <= slack {
            sum_a += x.point;
            sum_b += y.point;
            n += 1.0;
            let r = if is_edge(&y) && b.vertices().len() >= 2 {
                2
            } else {
                u8::from(is_edge(&x) && a.vertices().len() >= 2)
            };
            if r > rank {
                (rank, on_a, on_b) = (r, x, y);
            }
        }
    });
    let (mean_a, mean_b) = if n > 0.0 {
        (sum_a / n, sum_b / n)
    } else {
        (on_a.point, on_b.point)
    };
    // Cores apart by more than rounding: the direction between them. Touching (within
    // rounding, where that direction is noise): the touched features' normals.
    let normal = if best.sqrt() > 16.0 * f32::EPSILON * size {
        (on_a.point - on_b.point).try_normalize()
    } else {
        None
    };
    Closest {
        on_a: Spot {
            point: mean_a,
            ..on_a
        },
        on_b: Spot {
            point: mean_b,
            ..on_b
        },
        normal,
    }
}

/// Each vertex of one core against every edge (or the single vertex) of the other, in a
/// fixed order: `visit(squared distance, spot on a, spot on b)`. Walked twice by [`closest`]
/// (for the closest, then for those as close) rather than kept: each pair is a few flops to
/// make again, and a buffer for the largest shapes (128 pairs) cost more to fill than the
/// search.
#[inline]
fn vertex_feature_pairs(a: &ConvexShape, b: &ConvexShape, mut visit: impl FnMut(f32, Spot, Spot)) {
    for (p, q, swapped) in [(a, b, false), (b, a, true)] {
        for (i, &v) in (0u32..).zip(p.vertices()) {
            let vertex = Spot {
                point: v,
                feature: Feature::Vertex(i),
            };
            let mut pair = |spot: Spot| {
                let d = v.distance_squared(spot.point);
                if swapped {
                    visit(d, spot, vertex);
                } else {
                    visit(d, vertex, spot);
                }
            };
            if q.vertices().len() == 1 {
                pair(Spot {
                    point: q.vertices()[0],
                    feature: Feature::Vertex(0),
                });
            } else {
                for (j, s, e) in edges(q) {
                    pair(on_edge(q, j, s, e, v));
                }
            }
        }
    }
}

/// `true` if the two cores share more than boundary points: a vertex of one strictly inside
/// the other, or two edges crossing properly (each strictly on both sides of the other's
/// line).
fn overlap(a: &ConvexShape, b: &ConvexShape) -> bool {
    let strictly_inside = |p: &ConvexShape, q: &ConvexShape| {
        q.vertices().len() >= 3
            && p.vertices().iter().any(|&v| {
                let (mut left, mut right) = (false, false);
                for (_, s, e) in edges(q) {
                    let o = (e - s).perp_dot(v - s);
                    left |= o >= 0.0;
                    right |= o <= 0.0;
                }
                left != right
            })
    };
    let crossing = || {
        edges(a).any(|(_, p, q)| {
            edges(b).any(|(_, r, t)| {
                let side = |s: Vec2, e: Vec2, x: Vec2| (e - s).perp_dot(x - s);
                side(p, q, r) * side(p, q, t) < 0.0 && side(r, t, p) * side(r, t, q) < 0.0
            })
        })
    };
    strictly_inside(a, b) || strictly_inside(b, a) || crossing()
}

/// The separating axis along which the two cores overlap least, from `b` towards `a`, its
/// edge, the other's deepest vertex, and the middle of the overlap as the contact point;
/// `None` if no edge gives an axis.
fn least_overlap(a: &ConvexShape, b: &ConvexShape) -> Option<Closest> {
    // `(depth, normal from b to a, edge owner is b, edge index)`.
    let mut best: Option<(f32, Vec2, bool, u32)> = None;
    for (owner, other, owner_is_b) in [(b, a, true), (a, b, false)] {
        for (j, s, e) in edges(owner) {
            // A polygon's outward normal; a segment's both sides.
            let normals = match outward(owner, s, e) {
                Some(n) => [Some(n), None],
                None => match (e - s).perp().try_normalize() {
                    Some(n) => [Some(n), Some(-n)],
                    None => [None, None],
                },
            };
            for n in normals.into_iter().flatten() {
                // How far the other reaches past this edge's line, into the owner.
                let depth = other
                    .vertices()
                    .iter()
                    .map(|&v| (s - v).dot(n))
                    .fold(f32::NEG_INFINITY, f32::max);
                let normal = if owner_is_b { n } else { -n };
                if best.is_none_or(|(d, ..)| depth < d) {
                    best = Some((depth, normal, owner_is_b, j));
                }
            }
        }
    }
    let (_, normal, owner_is_b, j) = best?;
    let (owner, other) = if owner_is_b { (b, a) } else { (a, b) };
    let v = owner.vertices();
    let (s, e) = (v[j as usize], v[(j as usize + 1) % v.len()]);
    let inward = if owner_is_b { -normal } else { normal };
    let (k, &deepest) = (0u32..)
        .zip(other.vertices())
        .max_by(|x, y| (*x.1 - s).dot(inward).total_cmp(&(*y.1 - s).dot(inward)))?;
    let point = overlap_middle(a, b).unwrap_or(deepest);
    let vertex = Spot {
        point,
        feature: Feature::Vertex(k),
    };
    let foot = Spot {
        point,
        ..on_edge(owner, j, s, e, deepest)
    };
    let (on_a, on_b) = if owner_is_b {
        (vertex, foot)
    } else {
        (foot, vertex)
    };
    Some(Closest {
        on_a,
        on_b,
        normal: Some(normal),
    })
}

/// The mean of the vertices of the two cores' intersection (each core clipped by the other's
/// edges' half-planes), a point in both; `None` if it is empty.
fn overlap_middle(a: &ConvexShape, b: &ConvexShape) -> Option<Vec2> {
    // Clip the one with more vertices by the other, which must have an area to clip with.
    let (clipped, by) = if b.vertices().len() >= 3 {
        (a, b)
    } else {
        (b, a)
    };
    if by.vertices().len() < 3 {
        // Two thin cores crossing: their crossing point.
        let (p, q) = (clipped.vertices()[0], *clipped.vertices().last()?);
        let (r, t) = (by.vertices()[0], *by.vertices().last()?);
        let d = (q - p).perp_dot(t - r);
        if d == 0.0 {
            return None;
        }
        let u = (r - p).perp_dot(t - r) / d;
        return Some(p + (q - p) * u);
    }
    let inside_sign = winding(by).signum();
    let mut polygon = Clipped::new(clipped.vertices());
    let closed = polygon.len >= 3;
    for (_, s, e) in edges(by) {
        let side = |x: Vec2| (e - s).perp_dot(x - s) * inside_sign;
        let mut next = Clipped::default();
        let n = polygon.len;
        let points = &polygon.points;
        let pairs = if closed { n } else { n.saturating_sub(1) };
        if !closed && n == 1 && side(points[0]) >= 0.0 {
            next.push(points[0]);
        }
        for i in 0..pairs {
            let (x, y) = (points[i], points[(i + 1) % n]);
            let (sx, sy) = (side(x), side(y));
            if sx >= 0.0 {
                next.push(x);
            }
            if (sx < 0.0) != (sy < 0.0) {
                next.push(x + (y - x) * (sx / (sx - sy)));
            }
            if !closed && i + 1 == pairs && sy >= 0.0 {
                next.push(y);
            }
        }
        polygon = next;
        if polygon.len == 0 {
            return None;
        }
    }
    let points = &polygon.points[..polygon.len];
    Some(points.iter().sum::<Vec2>() / points.len() as f32)
}

/// A polygon being clipped, inline: a convex polygon of at most
/// [`ConvexPath::MAX_VERTICES`] vertices clipped by as many half-planes gains at most one
/// vertex per half-plane.
struct Clipped {
    points: [Vec2; 2 * ConvexPath::MAX_VERTICES],
    len: usize,
}

impl Default for Clipped {
    fn default() -> Self {
        Self {
            points: [Vec2::ZERO; 2 * ConvexPath::MAX_VERTICES],
            len: 0,
        }
    }
}

impl Clipped {
    fn new(vertices: &[Vec2]) -> Self {
        let mut clipped = Self::default();
        for &v in vertices {
            clipped.push(v);
        }
        clipped
    }

    /// Adds a vertex (past the capacity, which convex input never reaches, it is dropped).
    fn push(&mut self, p: Vec2) {
        if let Some(slot) = self.points.get_mut(self.len) {
            *slot = p;
            self.len += 1;
        }
    }
}

/// The outward normal of the polygon at a feature its core touches with zero distance: the
/// edge's, or the mean of the two edges' at a vertex. `None` without an area.
pub(super) fn feature_normal(shape: &ConvexShape, feature: Feature) -> Option<Vec2> {
    let v = shape.vertices();
    let n = v.len();
    if n < 3 {
        return None;
    }
    let edge = |i: usize| outward(shape, v[i], v[(i + 1) % n]);
    match feature {
        Feature::Edge { index, .. } => edge(index as usize),
        Feature::Vertex(i) => {
            let i = i as usize;
            (edge((i + n - 1) % n)? + edge(i)?).try_normalize()
        }
        // The witness names a polygon's own features only.
        Feature::Part { .. } => None,
    }
}

/// How far the material point at `feature` moves during the step, given each vertex's
/// displacement.
pub(super) fn feature_motion(moves: &[Vec2], feature: Feature) -> Vec2 {
    let n = moves.len();
    match feature {
        Feature::Vertex(i) => moves.get(i as usize).copied().unwrap_or(Vec2::ZERO),
        Feature::Edge { index, along } => {
            let i = index as usize;
            if i < n {
                moves[i].lerp(moves[(i + 1) % n], along)
            } else {
                Vec2::ZERO
            }
        }
        Feature::Part { .. } => Vec2::ZERO,
    }
}

/// The point of `shape` nearest `p` (`p` itself inside or on it) and the distance to it.
#[cfg_attr(
    not(feature = "plugin"),
    allow(dead_code, reason = "used by the plugin")
)]
pub(crate) fn project(shape: &Shape, p: Vec2) -> (Vec2, f32) {
    let convex = as_convex(shape);
    let v = convex.vertices();
    if v.len() >= 3 && holds(&convex, p) {
        return (p, 0.0);
    }
    let core = if v.len() == 1 {
        v[0]
    } else {
        edges(&convex)
            .map(|(i, s, e)| on_edge(&convex, i, s, e, p).point)
            .min_by(|x, y| x.distance_squared(p).total_cmp(&y.distance_squared(p)))
            .unwrap_or(v[0])
    };
    let distance = core.distance(p);
    let radius = convex.radius();
    if distance <= radius {
        (p, 0.0)
    } else {
        (core + (p - core) * (radius / distance), distance - radius)
    }
}
