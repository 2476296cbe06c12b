//! Bevy's primitives as colliders.

use super::Collider;
use bevy::ecs::prelude::*;
use bevy::math::{Vec2, primitives};

/// A Bevy primitive that makes no usable collider: a polygon or triangle that
/// [`Collider::polygon`] refuses (fewer than 3 points, a point that is not finite, two equal
/// points, a boundary that touches or crosses itself), or a polyline that
/// [`Collider::polyline`] refuses (fewer than 2 points, a point that is not finite).
///
/// Bevy's primitives as colliders, in the primitive's own frame: [`Circle`](primitives::Circle),
/// [`Rectangle`](primitives::Rectangle) (a box that turns), [`Capsule2d`](primitives::Capsule2d)
/// (upright, as Bevy draws it) and [`Segment2d`](primitives::Segment2d) convert with `From`;
/// polygons, triangles and polylines with `TryFrom`, which checks them as
/// [`Collider::polygon`] and [`Collider::polyline`] do.
///
/// ```
/// use bevy::math::{Vec2, primitives::{Capsule2d, Circle, Polygon, Rectangle}};
/// use bevy_sweep::prelude::*;
///
/// assert_eq!(Collider::from(Circle::new(3.0)), Collider::circle(3.0));
/// assert_eq!(Collider::from(Rectangle::new(4.0, 2.0)), Collider::rectangle(Vec2::new(2.0, 1.0)));
/// let hero = Collider::from(Capsule2d::new(6.0, 16.0));
/// assert_eq!(hero, Collider::capsule(Vec2::new(0.0, -8.0), Vec2::new(0.0, 8.0), 6.0));
/// let bow_tie = Polygon::new([Vec2::ZERO, Vec2::ONE, Vec2::X, Vec2::Y]);
/// assert_eq!(Collider::try_from(bow_tie), Err(UnusableShape));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnusableShape;

impl core::fmt::Display for UnusableShape {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(
            "the shape makes no usable collider (too few points, a point that is not \
             finite, or a polygon that is not simple)",
        )
    }
}

impl core::error::Error for UnusableShape {}

impl From<primitives::Circle> for Collider {
    fn from(circle: primitives::Circle) -> Self {
        Collider::circle(circle.radius)
    }
}

impl From<primitives::Rectangle> for Collider {
    fn from(rectangle: primitives::Rectangle) -> Self {
        Collider::rectangle(rectangle.half_size)
    }
}

impl From<primitives::Capsule2d> for Collider {
    fn from(capsule: primitives::Capsule2d) -> Self {
        let half = Vec2::new(0.0, capsule.half_length);
        Collider::capsule(-half, half, capsule.radius)
    }
}

impl From<primitives::Segment2d> for Collider {
    fn from(segment: primitives::Segment2d) -> Self {
        Collider::segment(segment.vertices[0], segment.vertices[1])
    }
}

/// `TryFrom` for Bevy's polygon primitives: [`Collider::polygon`] through their vertices.
macro_rules! polygon_from {
    ($($primitive:ident: |$p:ident| $vertices:expr;)*) => {$(
        impl TryFrom<primitives::$primitive> for Collider {
            type Error = UnusableShape;
            fn try_from($p: primitives::$primitive) -> Result<Self, UnusableShape> {
                Collider::polygon($vertices).ok_or(UnusableShape)
            }
        }
    )*};
}

polygon_from! {
    Triangle2d: |triangle| &triangle.vertices;
    ConvexPolygon: |polygon| polygon.vertices();
    Polygon: |polygon| &polygon.vertices;
}

impl TryFrom<primitives::RegularPolygon> for Collider {
    type Error = UnusableShape;
    fn try_from(polygon: primitives::RegularPolygon) -> Result<Self, UnusableShape> {
        let vertices: Vec<Vec2> = polygon.vertices(0.0).into_iter().collect();
        Collider::polygon(&vertices).ok_or(UnusableShape)
    }
}

impl TryFrom<primitives::Polyline2d> for Collider {
    type Error = UnusableShape;
    fn try_from(polyline: primitives::Polyline2d) -> Result<Self, UnusableShape> {
        Collider::polyline(&polyline.vertices).ok_or(UnusableShape)
    }
}
