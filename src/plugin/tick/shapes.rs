//! Geometry the phases share: shapes grown by a character's skin, swept bounds padded
//! against rounding, whether a shape can be swept, and a composite shape's element paths.

use super::entries::{Entries, Entry};
use crate::geometry::robust::orient2d;
use crate::narrow::{ConvexShape, Shape, ShapePath, as_convex, contact_intervals_of_valid};
use crate::plugin::Collider;
use bevy::math::bounding::Aabb2d;
use bevy::math::{Affine2, Vec2};

/// How much of its skin a character is swept grown by.
pub(crate) const EVENT_SKIN: f32 = 1.0 + 1.0 / 32.0;

/// `shape` grown by `by` (a character's skin): a point becomes a disk, a segment a capsule, a
/// box a rounded box, a rounded polygon rounder.
#[inline]
pub(crate) fn grown(shape: Shape, by: f32) -> Shape {
    if by <= 0.0 {
        return shape;
    }
    let rounded = |vertices: &[Vec2], radius: f32| {
        ConvexShape::new(vertices, radius + by).map_or(shape, Shape::Convex)
    };
    match shape {
        Shape::Point(center) => Shape::Circle { center, radius: by },
        Shape::Segment(a, b) => rounded(&[a, b], 0.0),
        Shape::Circle { center, radius } => Shape::Circle {
            center,
            radius: radius + by,
        },
        Shape::Aabb {
            center,
            half_extents: h,
        } => rounded(
            &[
                center - h,
                center + Vec2::new(h.x, -h.y),
                center + h,
                center + Vec2::new(-h.x, h.y),
            ],
            0.0,
        ),
        Shape::Convex(c) => rounded(c.vertices(), c.radius()),
    }
}

/// The box grown by a relative `2^-20` of its coordinates (and the smallest normal number), so
/// that rounding in computing it can never separate shapes that touch exactly.
#[inline]
pub(crate) fn inflate(aabb: Aabb2d) -> Aabb2d {
    const GROW: f32 = 1.0 / (1 << 20) as f32;
    let pad = |v: Vec2| v.abs() * GROW + Vec2::splat(f32::MIN_POSITIVE);
    Aabb2d {
        min: aabb.min - pad(aabb.min),
        max: aabb.max + pad(aabb.max),
    }
}

/// `true` if a polygon's vertices turn the other way round at the end of the path than at
/// its start (its transform was mirrored): between the two it would pass through a line.
#[inline]
pub(crate) fn flips(path: &ShapePath) -> bool {
    let ShapePath::Convex(convex) = path else {
        return false;
    };
    let v = convex.path().vertices;
    if v.len() < 3 {
        return false;
    }
    let area = |end: usize| {
        (0..v.len())
            .map(|i| v[i][end].perp_dot(v[(i + 1) % v.len()][end]))
            .sum::<f32>()
    };
    area(0) * area(1) < 0.0
}

/// `true` if the shape can be swept: [valid](Shape::is_valid), a segment's ends apart, a
/// polygon not flattened (by a zero scale).
#[inline]
pub(crate) fn usable(shape: &Shape) -> bool {
    shape.is_valid()
        && match *shape {
            Shape::Segment(a, b) => a != b,
            Shape::Convex(convex) => match *convex.vertices() {
                [p, q, r, ..] => orient2d(p, q, r) != 0.0,
                _ => true,
            },
            _ => true,
        }
}

/// A composite shape's elements, each its own entry in the broad phase, moving from `start`
/// to `end`: a polyline's edges (one that collapses to a point at either end, under a zero
/// scale, is left out), a polygon's pieces, a compound's parts (one unusable at either end
/// left out). `scratch` holds the elements at the start.
pub(crate) fn push_elements(
    collider: &Collider,
    [start, end]: [&Affine2; 2],
    entry: Entry,
    entries: &mut Entries,
    bounds: &mut Vec<Aabb2d>,
    scratch: &mut Vec<(u32, Shape)>,
) {
    if collider.is_polyline() {
        for ((i, a0, b0), (_, a1, b1)) in collider.edges_in(start).zip(collider.edges_in(end)) {
            if a0 == b0 || a1 == b1 {
                continue;
            }
            let path = ShapePath::Segment {
                a: [a0, a1],
                b: [b0, b1],
            };
            entries.push(entry.edge_of(i), &path);
            bounds.push(inflate(path.swept_bounds()));
        }
        return;
    }
    collider.element_pairs([start, end], scratch, &mut |k, from, to| {
        if !usable(&from) || !usable(&to) {
            return;
        }
        // A piece mirrored since the last tick would pass through a line: it jumps.
        let path = ShapePath::between(from, to)
            .filter(|path| !flips(path))
            .unwrap_or_else(|| ShapePath::still(to));
        entries.push(entry.edge_of(k), &path);
        bounds.push(inflate(path.swept_bounds()));
    });
}

/// `true` if `mover` lies wholly on the side of `solid` that `d` points to (to rounding): no
/// part of it is in the solid's shadow cast against `d` (the solid moved back along `-d` past
/// the mover touches it at most where it starts). On a tilted platform whose direction is
/// not its surface's normal, a mover standing on its lower end is on its side, though the
/// platform's upper end reaches higher along `d`.
pub(crate) fn wholly_beyond(mover: &Shape, solid: &Shape, d: Vec2) -> bool {
    let extent = |shape: &Shape| {
        let c: ConvexShape = as_convex(shape);
        let along = c.vertices().iter().map(|v| v.dot(d));
        let (low, high) = along.fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), x| {
            (l.min(x), h.max(x))
        });
        (low - c.radius(), high + c.radius())
    };
    let ((ml, mh), (sl, sh)) = (extent(mover), extent(solid));
    if !(ml.is_finite() && mh.is_finite() && sl.is_finite() && sh.is_finite()) {
        return false;
    }
    // Wholly above its top, or wholly below its bottom: nothing more to ask.
    let scale = ml.abs().max(mh.abs()).max(sl.abs()).max(sh.abs()).max(1.0);
    if ml >= sh - 1e-4 * scale {
        return true;
    }
    if mh < sl {
        return false;
    }
    let reach = mh.max(sh) - ml.min(sl) + 1.0;
    let Some(shadow) = ShapePath::between(*solid, solid.translated(-d * reach)) else {
        return false;
    };
    // Touching the solid (standing on it) is on its side, to rounding.
    let touch = 1e-4 * scale / reach;
    contact_intervals_of_valid(&ShapePath::still(*mover), &shadow)
        .iter()
        .all(|&[start, end]| start == 0.0 && end <= touch)
}
