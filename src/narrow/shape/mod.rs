//! The shapes the solvers take: a shape at one moment ([`Shape`], [`ConvexShape`]), its
//! motion over a step ([`ShapePath`]), and a rounded convex polygon's vertex paths
//! ([`ConvexPath`], [`ConvexVertices`]). Data and its own geometry only: the solvers
//! ([`intervals`](super::intervals), [`witness`](mod@super::witness), …) read these, and these
//! read no solver.

mod convex;
mod path;

pub(crate) use convex::Pose;
pub use convex::{ConvexPath, ConvexVertices};
pub use path::ShapePath;
pub(crate) use path::lerp;

use bevy_math::{Vec2, bounding::Aabb2d};

/// One shape, in world space, at one moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A single point.
    Point(Vec2),
    /// The closed segment between two points.
    Segment(Vec2, Vec2),
    /// A closed disk.
    Circle {
        /// Centre.
        center: Vec2,
        /// Radius, `> 0`.
        radius: f32,
    },
    /// A closed axis-aligned box `center ± half_extents`.
    Aabb {
        /// Centre.
        center: Vec2,
        /// Half the size on each axis, `> 0`.
        half_extents: Vec2,
    },
    /// A convex polygon of one to [`ConvexPath::MAX_VERTICES`] vertices grown by a radius:
    /// a capsule (two vertices and a radius), an oriented box, a convex polygon.
    Convex(ConvexShape),
}

impl Shape {
    /// The same shape moved by `by`.
    ///
    /// ```
    /// use bevy_math::Vec2;
    /// use bevy_sweep::narrow::Shape;
    ///
    /// let ball = Shape::Circle { center: Vec2::ZERO, radius: 1.0 };
    /// assert_eq!(ball.translated(Vec2::X), Shape::Circle { center: Vec2::X, radius: 1.0 });
    /// ```
    #[must_use]
    pub fn translated(self, by: Vec2) -> Shape {
        match self {
            Shape::Point(p) => Shape::Point(p + by),
            Shape::Segment(a, b) => Shape::Segment(a + by, b + by),
            Shape::Circle { center, radius } => Shape::Circle {
                center: center + by,
                radius,
            },
            Shape::Aabb {
                center,
                half_extents,
            } => Shape::Aabb {
                center: center + by,
                half_extents,
            },
            Shape::Convex(mut c) => {
                for v in &mut c.vertices[..c.len as usize] {
                    *v += by;
                }
                Shape::Convex(c)
            }
        }
    }
}

/// A rounded convex polygon at one moment, its vertices stored inline: one to
/// [`ConvexPath::MAX_VERTICES`] vertices in order around the polygon (either winding) grown
/// by `radius`.
///
/// ```
/// use bevy_math::Vec2;
/// use bevy_sweep::narrow::ConvexShape;
///
/// let capsule = ConvexShape::new(&[Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0)], 0.5).unwrap();
/// assert_eq!((capsule.vertices().len(), capsule.radius()), (2, 0.5));
/// assert!(ConvexShape::new(&[], 1.0).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConvexShape {
    pub(crate) vertices: [Vec2; ConvexPath::MAX_VERTICES],
    pub(crate) len: u8,
    pub(crate) radius: f32,
}

impl ConvexShape {
    /// The polygon of `vertices` (in order around it) grown by `radius`; `None` with no
    /// vertex or more than [`ConvexPath::MAX_VERTICES`]. Convexity is the caller's promise
    /// ([`Collider::convex_polygon`](crate::prelude::Collider::convex_polygon) checks it).
    #[must_use]
    pub fn new(vertices: &[Vec2], radius: f32) -> Option<Self> {
        if vertices.is_empty() || vertices.len() > ConvexPath::MAX_VERTICES {
            return None;
        }
        let mut inline = [Vec2::ZERO; ConvexPath::MAX_VERTICES];
        inline[..vertices.len()].copy_from_slice(vertices);
        Some(Self {
            vertices: inline,
            len: vertices.len() as u8,
            radius,
        })
    }

    /// The vertices, in order around the polygon.
    #[must_use]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices[..usize::from(self.len)]
    }

    /// How far the shape extends beyond its core polygon.
    #[must_use]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    fn bounds(&self) -> Aabb2d {
        let (min, max) = self
            .vertices()
            .iter()
            .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(min, max), &v| {
                (min.min(v), max.max(v))
            });
        let grow = Vec2::splat(self.radius);
        Aabb2d {
            min: min - grow,
            max: max + grow,
        }
    }

    fn is_valid(&self) -> bool {
        self.vertices().iter().all(|v| v.is_finite())
            && self.radius.is_finite()
            && self.radius >= 0.0
    }
}

impl Shape {
    /// The smallest box containing the shape.
    #[must_use]
    pub fn bounds(&self) -> Aabb2d {
        match *self {
            Shape::Point(p) => Aabb2d { min: p, max: p },
            Shape::Segment(a, b) => Aabb2d {
                min: a.min(b),
                max: a.max(b),
            },
            Shape::Circle { center, radius } => Aabb2d {
                min: center - Vec2::splat(radius),
                max: center + Vec2::splat(radius),
            },
            Shape::Aabb {
                center,
                half_extents,
            } => Aabb2d {
                min: center - half_extents,
                max: center + half_extents,
            },
            Shape::Convex(convex) => convex.bounds(),
        }
    }

    /// `true` if every coordinate is finite and every size is positive (and finite). A
    /// segment whose ends coincide is valid (it is a point).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        match *self {
            Shape::Point(p) => p.is_finite(),
            Shape::Segment(a, b) => a.is_finite() && b.is_finite(),
            Shape::Circle { center, radius } => {
                center.is_finite() && radius.is_finite() && radius > 0.0
            }
            Shape::Aabb {
                center,
                half_extents,
            } => {
                center.is_finite()
                    && half_extents.is_finite()
                    && half_extents.cmpgt(Vec2::ZERO).all()
            }
            Shape::Convex(convex) => convex.is_valid(),
        }
    }

    /// A representative point: the point, the segment's midpoint, the centre, the mean of a
    /// polygon's vertices.
    #[must_use]
    pub fn center(&self) -> Vec2 {
        match *self {
            Shape::Point(p) => p,
            Shape::Segment(a, b) => a.midpoint(b),
            Shape::Circle { center, .. } | Shape::Aabb { center, .. } => center,
            Shape::Convex(convex) => convex.vertices().iter().sum::<Vec2>() / f32::from(convex.len),
        }
    }
}
