//! Where two rounded convex polygons touch at one moment, and on which of their features.

use super::Feature;
use crate::narrow::path::{ConvexShape, Shape};
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
pub(super) fn as_convex(shape: &Shape) -> ConvexShape {
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
        vertices: [Vec2::ZERO; 8],
        len: 1,
        radius: 0.0,
    })
}

/// The edges of a polygon as `(index, start, end)`: none for one vertex, one for two, the
/// closed loop for more.
fn edges(shape: &ConvexShape) -> impl Iterator<Item = (u32, Vec2, Vec2)> + '_ {
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
fn outward(shape: &ConvexShape, s: Vec2, e: Vec2) -> Option<Vec2> {
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
pub(super) fn closest(a: &ConvexShape, b: &ConvexShape) -> Closest {
    // Vertex of `p` against every edge (or the single vertex) of `q`.
    let mut best: Option<(f32, Spot, Spot, bool)> = None;
    for (p, q, swapped) in [(a, b, false), (b, a, true)] {
        for (i, &v) in (0u32..).zip(p.vertices()) {
            let vertex = Spot {
                point: v,
                feature: Feature::Vertex(i),
            };
            let spots: &mut dyn Iterator<Item = Spot> = if q.vertices().len() == 1 {
                &mut core::iter::once(Spot {
                    point: q.vertices()[0],
                    feature: Feature::Vertex(0),
                })
            } else {
                &mut edges(q).map(|(j, s, e)| on_edge(q, j, s, e, v))
            };
            for spot in spots {
                let d = v.distance_squared(spot.point);
                if best.is_none_or(|(bd, ..)| d < bd) {
                    best = Some((d, vertex, spot, swapped));
                }
            }
        }
    }
    let (distance2, vertex, spot, swapped) = best.unwrap_or((
        0.0,
        Spot {
            point: a.vertices()[0],
            feature: Feature::Vertex(0),
        },
        Spot {
            point: b.vertices()[0],
            feature: Feature::Vertex(0),
        },
        false,
    ));
    let (on_a, on_b) = if swapped {
        (spot, vertex)
    } else {
        (vertex, spot)
    };
    // Cores that overlap (more than at one point of their boundaries): the axis of least
    // overlap among the edges' normals.
    let inside = a.vertices().iter().any(|&v| holds(b, v) && distance2 > 0.0)
        || b.vertices().iter().any(|&v| holds(a, v) && distance2 > 0.0)
        || (distance2 == 0.0 && (a.vertices().len() >= 3 || b.vertices().len() >= 3));
    if inside && let Some(deep) = least_overlap(a, b) {
        return deep;
    }
    let normal = if distance2 > 0.0 {
        (on_a.point - on_b.point).try_normalize()
    } else {
        None
    };
    Closest { on_a, on_b, normal }
}

/// The separating axis along which the two cores overlap least, from `b` towards `a`, with
/// the deepest vertex of the other polygon along it; `None` if neither has an area.
fn least_overlap(a: &ConvexShape, b: &ConvexShape) -> Option<Closest> {
    // `(depth, normal from b to a, edge owner is b, edge index)`.
    let mut best: Option<(f32, Vec2, bool, u32)> = None;
    for (owner, other, owner_is_b) in [(b, a, true), (a, b, false)] {
        for (j, s, e) in edges(owner) {
            let Some(n) = outward(owner, s, e) else {
                continue;
            };
            // How far the other polygon reaches inside this edge's line.
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
    let (_, normal, owner_is_b, j) = best?;
    let (owner, other) = if owner_is_b { (b, a) } else { (a, b) };
    let v = owner.vertices();
    let (s, e) = (v[j as usize], v[(j as usize + 1) % v.len()]);
    let towards_owner = if owner_is_b { normal } else { -normal };
    // The other's vertex deepest past the edge, and its foot on the edge.
    let (k, &deepest) = (0u32..).zip(other.vertices()).max_by(|x, y| {
        (s - *x.1)
            .dot(towards_owner)
            .total_cmp(&(s - *y.1).dot(towards_owner))
    })?;
    let vertex = Spot {
        point: deepest,
        feature: Feature::Vertex(k),
    };
    let foot = on_edge(owner, j, s, e, deepest);
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
    }
}

/// The point of `shape` nearest `p` (`p` itself inside or on it) and the distance to it.
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
