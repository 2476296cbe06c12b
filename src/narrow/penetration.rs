//! How deep one shape is inside another, and the shortest way out.

use super::shape::Shape;
use super::witness::Feature;
use super::witness::as_convex;
use bevy_math::{DVec2, Vec2};

/// How far, and which way, to move a shape out of another by the shortest translation
/// ([`penetration`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration {
    /// How far to move, in world units, `> 0`.
    pub depth: f32,
    /// Which way to move (unit).
    pub direction: Vec2,
}

/// How deep `a` is inside `b`: the shortest translation of `a` that leaves the two only
/// touching, as a depth and a unit direction. `None` if they do not overlap (touching is not
/// overlapping) or a shape is not [valid](Shape::is_valid).
///
/// Both shapes are rounded convex polygons (every [`Shape`] is one), so the shortest way out
/// is along a normal of an edge of either, or along the line between a vertex of each (where
/// the rounded corners meet): those directions are all tried, in `f64`. Two thin shapes
/// (points, segments) never overlap in this sense: they only touch.
///
/// ```
/// use bevy_math::Vec2;
/// use bevy_sweep::narrow::{Shape, penetration};
///
/// let ball = Shape::Circle { center: Vec2::new(0.0, 0.8), radius: 1.0 };
/// let floor = Shape::Aabb { center: Vec2::new(0.0, -1.0), half_extents: Vec2::new(10.0, 1.0) };
/// let out = penetration(&ball, &floor).unwrap();
/// assert!((out.depth - 0.2).abs() < 1e-6 && out.direction == Vec2::Y);
/// ```
#[must_use]
pub fn penetration(a: &Shape, b: &Shape) -> Option<Penetration> {
    penetration_through(a, b, ALL_EDGES).map(|(way, _)| way)
}

/// Every edge of a shape is one a penetration may leave it through ([`penetration_through`]).
pub(crate) const ALL_EDGES: u8 = u8::MAX;

/// How far `a` must move along the unit direction `d` to lie wholly beyond `b` along it (the
/// two rounded polygons' supports along `d`); `0` if it already does.
#[cfg_attr(
    not(feature = "plugin"),
    allow(dead_code, reason = "used by the plugin")
)]
pub(crate) fn beyond_along(a: &Shape, b: &Shape, d: Vec2) -> f32 {
    let (ca, cb) = (as_convex(a), as_convex(b));
    let d = d.as_dvec2();
    let reach = cb
        .vertices()
        .iter()
        .map(|q| q.as_dvec2().dot(d))
        .fold(f64::NEG_INFINITY, f64::max);
    let back = ca
        .vertices()
        .iter()
        .map(|p| p.as_dvec2().dot(d))
        .fold(f64::INFINITY, f64::min);
    ((reach - back + f64::from(ca.radius()) + f64::from(cb.radius())).max(0.0)) as f32
}

/// `true` if a contact at `feature` of a shape of `vertices` vertices is on its `exits`
/// (bit `i`: the edge from vertex `i` to the next): inside such an edge, or at a vertex
/// both of whose edges are. A one-way concave polygon blocks only there: on its outline.
#[cfg_attr(
    not(feature = "plugin"),
    allow(dead_code, reason = "used by the plugin")
)]
pub(crate) fn on_exits(feature: Option<Feature>, exits: u8, vertices: usize) -> bool {
    if exits == ALL_EDGES || vertices < 3 {
        return true;
    }
    let exit = |i: u32| exits & (1 << (i % 8)) != 0;
    match feature {
        Some(Feature::Edge { index, .. }) => exit(index),
        Some(Feature::Vertex(i)) => exit(i) && exit((i + vertices as u32 - 1) % vertices as u32),
        _ => true,
    }
}

/// [`penetration`], leaving `b` only through its edges in `exits` (bit `i`: the edge from
/// vertex `i` to the next): the way out of a concave polygon's piece goes through the
/// polygon's outline, never across a diagonal into the next piece. A direction leaves
/// through what `b` reaches furthest along it: an edge, which must be an exit, or a vertex,
/// both of whose edges must be. If no direction leaves through exits (a piece inside the
/// polygon, none of whose edges is on the outline), the shortest way across any edge.
///
/// Also how deep the two overlap (the shortest way across any edge, [`penetration`]'s
/// depth): of several pieces of one polygon, the one overlapped most is the one to leave
/// first (a shape a hair into a thin piece under a thick one's top face is pushed up
/// through that face, not down through the whole of the thin piece).
pub(crate) fn penetration_through(a: &Shape, b: &Shape, exits: u8) -> Option<(Penetration, f32)> {
    if !(a.is_valid() && b.is_valid()) {
        return None;
    }
    let (ca, cb) = (as_convex(a), as_convex(b));
    let wide = |v: &[Vec2]| -> ([DVec2; 8], usize) {
        let mut out = [DVec2::ZERO; 8];
        for (o, p) in out.iter_mut().zip(v) {
            *o = p.as_dvec2();
        }
        (out, v.len().min(8))
    };
    let ((pa, na), (pb, nb)) = (wide(ca.vertices()), wide(cb.vertices()));
    let (pa, pb) = (&pa[..na], &pb[..nb]);
    let radius = f64::from(ca.radius()) + f64::from(cb.radius());
    // How far `a` moves along `d` (unit) to be on the far side of `b`.
    let push = |d: DVec2| {
        let b_reach = pb
            .iter()
            .map(|q| q.dot(d))
            .fold(f64::NEG_INFINITY, f64::max);
        let a_back = pa.iter().map(|p| p.dot(d)).fold(f64::INFINITY, f64::min);
        b_reach - a_back + radius
    };
    // Whether the way out along `d` (unit) leaves `b` through its exits: what `b` reaches
    // furthest along `d`, an edge (two neighbours within rounding of the furthest) or a
    // vertex (both of its edges).
    let restricted = exits != ALL_EDGES && pb.len() >= 3;
    let scale = pb.iter().fold(1.0_f64, |m, q| m.max(q.abs().max_element()));
    let leaves = |d: DVec2| {
        if !restricted {
            return true;
        }
        let n = pb.len();
        let reach: Vec<f64> = pb.iter().map(|q| q.dot(d)).collect();
        let far = reach.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let at = |i: usize| reach[i] >= far - 1e-12 * scale;
        let exit = |i: usize| exits & (1 << (i % 8)) != 0;
        (0..n).filter(|&i| at(i)).all(|i| {
            let (before, after) = ((i + n - 1) % n, (i + 1) % n);
            match (at(before), at(after)) {
                (_, true) => exit(i),
                (true, false) => exit(before),
                (false, false) => exit(before) && exit(i),
            }
        })
    };
    let mut best: Option<(f64, DVec2)> = None;
    // The best way across any edge, for a piece with no way out through its exits.
    let mut any: Option<(f64, DVec2)> = None;
    // A direction that needs no push separates the two: no overlap (most pairs asked).
    let mut apart = false;
    let mut try_direction = |d: DVec2| {
        if apart {
            return;
        }
        if let Some(d) = d.try_normalize() {
            let t = push(d);
            apart = t <= 0.0;
            if any.is_none_or(|(bt, _)| t < bt) {
                any = Some((t, d));
            }
            if best.is_none_or(|(bt, _)| t < bt) && leaves(d) {
                best = Some((t, d));
            }
        }
    };
    for poly in [pa, pb] {
        let edges = match poly.len() {
            0 | 1 => 0,
            2 => 1,
            n => n,
        };
        for i in 0..edges {
            let n = (poly[(i + 1) % poly.len()] - poly[i]).perp();
            try_direction(n);
            try_direction(-n);
        }
    }
    for p in pa {
        for q in pb {
            try_direction(*p - *q);
        }
    }
    if apart {
        return None;
    }
    // Two concentric disks (or points): any direction is the shortest.
    let any = any.unwrap_or_else(|| (push(DVec2::X), DVec2::X));
    let (depth, direction) = best.unwrap_or(any);
    (depth > 0.0 && any.0 > 0.0).then(|| {
        let way = Penetration {
            depth: depth as f32,
            direction: direction.as_vec2(),
        };
        (way, any.0 as f32)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::{ConvexShape, ShapePath, contact_intervals};
    use core::f32::consts::TAU;

    /// `true` if the two touch or overlap, by the exact static kernels (another algorithm).
    fn touch(a: &Shape, b: &Shape) -> bool {
        !contact_intervals(&ShapePath::still(*a), &ShapePath::still(*b)).is_empty()
    }

    fn moved(s: &Shape, d: Vec2) -> Shape {
        match *s {
            Shape::Circle { center, radius } => Shape::Circle {
                center: center + d,
                radius,
            },
            Shape::Aabb {
                center,
                half_extents,
            } => Shape::Aabb {
                center: center + d,
                half_extents,
            },
            Shape::Convex(c) => {
                let v: Vec<Vec2> = c.vertices().iter().map(|&p| p + d).collect();
                Shape::Convex(ConvexShape::new(&v, c.radius()).unwrap())
            }
            Shape::Point(p) => Shape::Point(p + d),
            Shape::Segment(p, q) => Shape::Segment(p + d, q + d),
        }
    }

    fn shape(rng: &mut u64) -> Shape {
        let mut next = || {
            *rng ^= *rng << 13;
            *rng ^= *rng >> 7;
            *rng ^= *rng << 17;
            (*rng % 10_000) as f32 / 1000.0 - 5.0
        };
        let c = Vec2::new(next(), next());
        match (next() + 5.0) as u32 % 5 {
            0 => Shape::Circle {
                center: c,
                radius: next().abs() + 0.2,
            },
            1 => Shape::Aabb {
                center: c,
                half_extents: Vec2::new(next().abs() + 0.2, next().abs() + 0.2),
            },
            2 => Shape::Convex(
                ConvexShape::new(
                    &[c, c + Vec2::new(next(), next())],
                    next().abs() * 0.5 + 0.1,
                )
                .unwrap(),
            ),
            3 => Shape::Point(c),
            _ => {
                let (w, h) = (next().abs() + 0.3, next().abs() + 0.3);
                let (s, co) = next().sin_cos();
                let r = |p: Vec2| c + Vec2::new(co * p.x - s * p.y, s * p.x + co * p.y);
                let corners = [
                    r(Vec2::new(-w, -h)),
                    r(Vec2::new(w, -h)),
                    r(Vec2::new(w, h)),
                    r(Vec2::new(-w, h)),
                ];
                Shape::Convex(ConvexShape::new(&corners, 0.0).unwrap())
            }
        }
    }

    /// Held to the exact contact kernels on random pairs: moving `a` a little more than the
    /// answer leaves the two apart; moving it a little less, in any of 360 directions, does
    /// not; and no answer means they do not overlap (moving `a` a hair any way frees it).
    #[test]
    fn the_shortest_way_out_of_random_pairs() {
        let mut rng = 0x9E37_79B9_7F4A_7C15_u64;
        let mut overlapping = 0;
        for _ in 0..600 {
            let (a, b) = (shape(&mut rng), shape(&mut rng));
            let directions = (0..360).map(|k| {
                let t = TAU * k as f32 / 360.0;
                Vec2::new(t.cos(), t.sin())
            });
            match penetration(&a, &b) {
                None => {
                    // Apart, touching, or two thin shapes crossing: some small move frees it.
                    let free = directions.clone().any(|d| !touch(&moved(&a, d * 1e-3), &b));
                    assert!(free, "{a:?} {b:?}: no answer, but stuck");
                }
                Some(p) => {
                    overlapping += 1;
                    assert!(p.depth > 0.0 && (p.direction.length() - 1.0).abs() < 1e-5);
                    let out = moved(&a, p.direction * (p.depth * 1.001 + 1e-4));
                    assert!(!touch(&out, &b), "{a:?} {b:?}: {p:?} is not out");
                    if p.depth > 1e-2 {
                        for d in directions {
                            let short = moved(&a, d * p.depth * 0.99);
                            assert!(touch(&short, &b), "{a:?} {b:?}: {p:?}, {d} is shorter");
                        }
                    }
                }
            }
        }
        assert!(overlapping > 100, "only {overlapping} overlapping pairs");
    }
}
