//! Where a collider's shape lies: in the world, under a transform, in a plane.

use super::super::placement::{plane_of, plane_of_root};
use super::Collider;
use crate::narrow::{ConvexPath, ConvexShape, ConvexVertices, Shape, ShapePath};
use bevy::math::{Affine2, Affine3A, Vec2};
use bevy::transform::components::Transform;

impl Collider {
    /// The shape in world space for an entity whose world transform is `transform` (a root
    /// entity's [`Transform`]); `None` for a [composite](Self::is_composite) shape, which is
    /// no one shape (a polyline's edges are each a [`Shape::Segment`], a polygon's pieces
    /// each a [`Shape::Convex`]).
    #[must_use]
    pub fn world_shape(&self, transform: &Transform) -> Option<Shape> {
        (!self.is_composite()).then(|| self.shape_in(&plane_of_root(transform)))
    }

    /// The shape in world space under a world affine transform (a [`Transform`] composed
    /// with its ancestors', shear included); `None` for a [composite](Self::is_composite)
    /// shape.
    #[must_use]
    pub fn shape_under(&self, world: &Affine3A) -> Option<Shape> {
        (!self.is_composite()).then(|| self.shape_in(&plane_of(world)))
    }

    /// A point's, segment's, circle's or box's pose in the [plane part](plane_of) of its
    /// world transform, as a path that stands still (small, whatever `C`: the gather's hot
    /// path); `None` for the other shapes. Its arithmetic is [`shape_in`](Self::shape_in)'s.
    #[inline(always)]
    pub(crate) fn pose_in<C>(&self, plane: &Affine2) -> Option<ShapePath<C>> {
        let center = plane.translation;
        let (x, y) = (plane.matrix2.x_axis, plane.matrix2.y_axis);
        // As `Affine3A::transform_point3` of `p.extend(0.0)` computes it, less the third
        // column's zero.
        let place = |p: Vec2| x * p.x + y * p.y + center;
        Some(match *self {
            Collider::Point => ShapePath::Point([center; 2]),
            Collider::Segment { a, b } => ShapePath::Segment {
                a: [place(a); 2],
                b: [place(b); 2],
            },
            Collider::Circle { radius } => ShapePath::Circle {
                center: [center; 2],
                radius: radius * x.length().max(y.length()),
            },
            Collider::Aabb { half_extents } => ShapePath::Aabb {
                center: [center; 2],
                half_extents: half_extents * Vec2::new(x.length(), y.length()),
            },
            _ => return None,
        })
    }

    /// The shape in world space in the [plane part](plane_of) of its world transform: the
    /// one place its arithmetic is written. A [composite](Self::is_composite) shape, which is
    /// no one shape, gives a point (the gather sweeps its elements,
    /// [`for_each_element`](Self::for_each_element)).
    #[inline(always)]
    pub(crate) fn shape_in(&self, plane: &Affine2) -> Shape {
        let center = plane.translation;
        let (x, y) = (plane.matrix2.x_axis, plane.matrix2.y_axis);
        // As `Affine3A::transform_point3` of `p.extend(0.0)` computes it, less the third
        // column's zero.
        let place = |p: Vec2| x * p.x + y * p.y + center;
        let convex = |vertices: &[Vec2], radius: f32| {
            let mut placed = [Vec2::ZERO; ConvexPath::MAX_VERTICES];
            for (q, &p) in placed.iter_mut().zip(vertices) {
                *q = place(p);
            }
            let count = vertices.len().min(ConvexPath::MAX_VERTICES);
            ConvexShape::new(&placed[..count], radius).map_or(Shape::Point(center), Shape::Convex)
        };
        if let Some(pose) = self.pose_in::<ConvexVertices>(plane) {
            return pose.end();
        }
        match *self {
            Collider::Rectangle { half_extents: h } => convex(
                &[
                    Vec2::new(-h.x, -h.y),
                    Vec2::new(h.x, -h.y),
                    Vec2::new(h.x, h.y),
                    Vec2::new(-h.x, h.y),
                ],
                0.0,
            ),
            Collider::Capsule { a, b, radius } => {
                convex(&[a, b], radius * x.length().max(y.length()))
            }
            Collider::ConvexPolygon { ref vertices } => convex(vertices, 0.0),
            Collider::Polyline { ref points } | Collider::Polygon { ref points, .. } => {
                Shape::Point(points.first().map_or(center, |&p| place(p)))
            }
            // Placed by `pose_in`, or (a compound) by its parts.
            Collider::Compound { .. }
            | Collider::Point
            | Collider::Segment { .. }
            | Collider::Circle { .. }
            | Collider::Aabb { .. } => Shape::Point(center),
        }
    }
}
