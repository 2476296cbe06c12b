//! The contact normal between two basic shapes from their closest points: outward from a
//! solid shape, across a segment's interior, or along the motion.

use super::closest::Closest;
use crate::narrow::shape::Shape;
use bevy_math::Vec2;

/// Outward normal of a solid shape (circle or box) at a point on or in it, looking towards
/// `toward`; `None` for thin shapes.
fn outward(shape: &Shape, at: Vec2, toward: Vec2) -> Option<Vec2> {
    match *shape {
        Shape::Circle { center, .. } => (at - center)
            .try_normalize()
            .or_else(|| (toward - center).try_normalize()),
        Shape::Aabb {
            center,
            half_extents,
        } => {
            let q = at - center;
            let over = q.abs() - half_extents;
            let tolerance = half_extents.max_element() * 1e-5;
            let sign = Vec2::new(1f32.copysign(q.x), 1f32.copysign(q.y));
            Some(if over.x >= -tolerance && over.y >= -tolerance {
                // A corner: its diagonal, unless `toward` is clearly off one face.
                let off = toward - center - sign * half_extents;
                let off = Vec2::new(off.x * sign.x, off.y * sign.y);
                if off.x > 0.0 && off.y <= 0.0 {
                    Vec2::new(sign.x, 0.0)
                } else if off.y > 0.0 && off.x <= 0.0 {
                    Vec2::new(0.0, sign.y)
                } else {
                    sign * core::f32::consts::FRAC_1_SQRT_2
                }
            } else if over.x >= over.y {
                Vec2::new(sign.x, 0.0)
            } else {
                Vec2::new(0.0, sign.y)
            })
        }
        Shape::Point(_) | Shape::Segment(..) | Shape::Convex(_) => None,
    }
}

fn perp(shape: &Shape) -> Option<Vec2> {
    match *shape {
        Shape::Segment(s, e) => (e - s).perp().try_normalize(),
        _ => None,
    }
}

/// `true` for a parameter clearly inside the segment, not at an end or within rounding of
/// one (coordinates of size `scale` carry errors of a few ulps of `scale`).
fn is_interior(along: Option<f32>, segment: &Shape, scale: f32) -> bool {
    let Shape::Segment(s, e) = *segment else {
        return false;
    };
    let end = (8.0 * f32::EPSILON * scale / s.distance(e)).max(1e-4);
    along.is_some_and(|x| x > end && x < 1.0 - end)
}

/// Normal from `b` towards `a`.
pub(super) fn normal(
    a: &Shape,
    b: &Shape,
    closest: &Closest,
    relative_motion: Vec2,
    separating: bool,
    scale: f32,
) -> Option<Vec2> {
    if let (Shape::Circle { center, .. }, Shape::Circle { center: other, .. }) = (a, b) {
        // Centre to centre, however deep the overlap.
        if let Some(n) = (*center - *other).try_normalize() {
            return Some(n);
        }
    }
    // A disk against the inside of a segment: the segment's own normal, on the disk's side.
    // (Exact in direction whatever the segment's length, where the nearest point of a long
    // segment carries rounding of the order of its length.)
    let disk_side = |disk: &Shape, segment: &Shape, on: Vec2, along: Option<f32>| {
        let (Shape::Circle { center, .. }, Shape::Segment(..)) = (disk, segment) else {
            return None;
        };
        if !is_interior(along, segment, scale) {
            return None;
        }
        let n = perp(segment)?;
        match n.dot(*center - on) {
            side if side > 0.0 => Some(n),
            side if side < 0.0 => Some(-n),
            _ => None,
        }
    };
    if let Some(n) = disk_side(a, b, closest.on_b, closest.along_b) {
        return Some(n);
    }
    if let Some(n) = disk_side(b, a, closest.on_a, closest.along_a) {
        return Some(-n);
    }
    // A disk against a box: from the box's nearest point to the disk's centre (at a corner
    // too, where the box alone has no normal), unless the centre is inside the box.
    match (a, b) {
        (Shape::Circle { center, .. }, Shape::Aabb { .. }) => {
            if let Some(n) = (*center - closest.on_b).try_normalize() {
                return Some(n);
            }
        }
        (Shape::Aabb { .. }, Shape::Circle { center, .. }) => {
            if let Some(n) = (closest.on_a - *center).try_normalize() {
                return Some(n);
            }
        }
        _ => {}
    }
    // A box's corner against the inside of a segment: the segment's normal, on the box's side
    // (the box's own faces have no say at its corner).
    let corner_on_segment = |boxed: &Shape, on_box: Vec2, segment: &Shape, along: Option<f32>| {
        let Shape::Aabb {
            center,
            half_extents,
        } = *boxed
        else {
            return None;
        };
        let over = (on_box - center).abs() - half_extents;
        let tolerance = half_extents.max_element() * 1e-5;
        if !(over.x >= -tolerance && over.y >= -tolerance && is_interior(along, segment, scale)) {
            return None;
        }
        let n = perp(segment)?;
        match n.dot(center - on_box) {
            side if side > 0.0 => Some(n),
            side if side < 0.0 => Some(-n),
            _ => None,
        }
    };
    if let Some(n) = corner_on_segment(b, closest.on_b, a, closest.along_a) {
        return Some(-n);
    }
    if let Some(n) = corner_on_segment(a, closest.on_a, b, closest.along_b) {
        return Some(n);
    }
    if let Some(n) = outward(b, closest.on_b, a.center()) {
        return Some(n);
    }
    if let Some(n) = outward(a, closest.on_a, b.center()) {
        return Some(-n);
    }
    // Two thin features: the segment whose interior is touched gives the line, the motion
    // gives the side; a point or an endpoint against a point or an endpoint has only the
    // motion.
    let line = if is_interior(closest.along_b, b, scale) {
        perp(b)
    } else if is_interior(closest.along_a, a, scale) {
        perp(a)
    } else {
        None
    };
    let towards_a = if separating {
        relative_motion
    } else {
        -relative_motion
    };
    match line {
        Some(n) => {
            let side = n.dot(towards_a);
            if side < 0.0 {
                Some(-n)
            } else if side > 0.0 {
                Some(n)
            } else {
                // Sliding along the line: the side `a` is on, else either.
                let off = n.dot(a.center() - b.center());
                Some(if off < 0.0 { -n } else { n })
            }
        }
        None => towards_a.try_normalize(),
    }
}
