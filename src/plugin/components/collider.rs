//! [`Collider`]: the shapes, their checks, and where they lie in the world.

use super::placement::{plane_of, plane_of_root};
use super::{CollisionLayers, SweptPath};
use crate::geometry::robust::orient2d;
use crate::narrow::{ConvexPath, ConvexShape, ConvexVertices, Shape, ShapePath};
use crate::plugin::SkipReason;
use bevy::ecs::prelude::*;
use bevy::math::{Affine2, Affine3A, Vec2};
use bevy::reflect::prelude::*;
use bevy::transform::components::Transform;

/// A collision shape, in the entity's local space (its [`Transform`]).
///
/// | shape | for | constructor |
/// |---|---|---|
/// | point | bullets, particles, a cursor | [`point`](Self::point) |
/// | segment | blades, lasers, thin walls, lines to cut | [`segment`](Self::segment) |
/// | circle | balls, round characters, explosions | [`circle`](Self::circle) |
/// | axis-aligned box | tiles, still crates, walls that never turn | [`aabb`](Self::aabb) |
/// | rectangle | crates, doors, platforms and sprites that turn | [`rectangle`](Self::rectangle) |
/// | capsule | characters (smooth on steps and corners), thick bullets | [`capsule`](Self::capsule) |
/// | convex polygon | props, rocks, ramps: up to 8 vertices | [`convex_polygon`](Self::convex_polygon) |
/// | polyline | terrain, level outlines: any number of points | [`polyline`](Self::polyline) |
///
/// Vertices (segment endpoints, rectangle corners, capsule ends, polygon and polyline
/// points) follow the whole transform (translation, rotation and scale), so a turning or
/// stretching entity turns and stretches its shape. Circles and boxes follow the
/// translation; a circle's radius (and a capsule's) is scaled by the larger of `|scale.x|`
/// and `|scale.y|`, a box's half extents by `|scale.x|` and `|scale.y|`, and a box never
/// rotates.
///
/// Within a tick each vertex moves on a straight line, so a turning polygon is, at each
/// moment, the polygon turned and slightly shrunk (by `cos(θ/2)` at the middle of a tick in
/// which it turns by `θ`); contacts are exact for that motion. Keep turns below half a turn
/// per tick.
///
/// Inserting a `Collider` also inserts a [`Transform`], a [`CollisionLayers`] (all layers) and
/// the plugin's [`SweptPath`] if the entity lacks them.
///
/// Colliders are read in their transform's frame composed with their parents' transforms
/// ([`ChildOf`]), so children collide in world space.
///
/// ```
/// use bevy::math::Vec2;
/// use bevy_sweep::prelude::*;
///
/// let blade = Collider::segment(Vec2::new(-20.0, 0.0), Vec2::new(20.0, 0.0));
/// let ball = Collider::circle(8.0);
/// let crate_box = Collider::aabb(Vec2::new(16.0, 16.0));
/// let cursor = Collider::point();
/// let door = Collider::rectangle(Vec2::new(4.0, 32.0));
/// let hero = Collider::capsule(Vec2::new(0.0, -8.0), Vec2::new(0.0, 8.0), 6.0);
/// let rock = Collider::convex_polygon(&[
///     Vec2::new(-10.0, -6.0),
///     Vec2::new(12.0, -4.0),
///     Vec2::new(2.0, 9.0),
/// ])
/// .expect("three points in convex position");
/// let ground = Collider::polyline(&[
///     Vec2::new(-100.0, 0.0),
///     Vec2::new(0.0, -10.0),
///     Vec2::new(100.0, 5.0),
/// ])
/// .expect("two or more finite points");
/// # let _ = (blade, ball, crate_box, cursor, door, hero, rock, ground);
/// ```
#[derive(Component, Reflect, Clone, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq, Clone)]
#[require(Transform, CollisionLayers, SweptPath)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum Collider {
    /// A single point at the entity's origin.
    Point,
    /// The segment from `a` to `b` (local space).
    Segment {
        /// First endpoint (`along = 0`).
        a: Vec2,
        /// Second endpoint (`along = 1`).
        b: Vec2,
    },
    /// A disk around the entity's origin.
    Circle {
        /// Radius, `> 0`, in local units (scaled by the transform).
        radius: f32,
    },
    /// An axis-aligned box around the entity's origin.
    Aabb {
        /// Half the size on each axis, `> 0`, in local units (scaled by the transform).
        half_extents: Vec2,
    },
    /// A box around the entity's origin that turns with it. Its corners are vertices `0` to
    /// `3`: `(-x, -y)`, `(x, -y)`, `(x, y)`, `(-x, y)` of the half extents; edge `0` is the
    /// bottom, `1` the right side, `2` the top, `3` the left side (in local space).
    Rectangle {
        /// Half the size on each local axis, `> 0`, in local units (scaled by the
        /// transform).
        half_extents: Vec2,
    },
    /// The segment from `a` to `b` grown by `radius` (local space).
    Capsule {
        /// First end of the core segment (`along = 0`).
        a: Vec2,
        /// Second end (`along = 1`).
        b: Vec2,
        /// Radius, `> 0`, in local units (scaled by the transform).
        radius: f32,
    },
    /// A convex polygon of 3 to 8 vertices (local space), in the order given; build it with
    /// [`Collider::convex_polygon`], which checks them.
    ConvexPolygon {
        /// The vertices, in order around the polygon (either winding).
        vertices: Vec<Vec2>,
    },
    /// An open chain of segments through `points` (local space): edge `i` runs from point
    /// `i` to point `i + 1`. Build it with [`Collider::polyline`].
    Polyline {
        /// Two or more points.
        points: Vec<Vec2>,
    },
}

impl Collider {
    /// A hash of the shape's kind and every number in it, bit for bit: equal shapes have
    /// equal fingerprints (and different ones, different fingerprints but by a 2^-64 chance).
    pub(crate) fn fingerprint(&self) -> u64 {
        // FNV-1a over 32-bit words.
        let mut hash = 0xcbf2_9ce4_8422_2325_u64;
        let mut mix = |word: u32| {
            hash = (hash ^ u64::from(word)).wrapping_mul(0x0000_0100_0000_01b3);
        };
        let mut points = |points: &[Vec2]| {
            for p in points {
                mix(p.x.to_bits());
                mix(p.y.to_bits());
            }
        };
        let kind = match self {
            Collider::Point => 0,
            Collider::Segment { a, b } => {
                points(&[*a, *b]);
                1
            }
            Collider::Circle { radius } => {
                points(&[Vec2::splat(*radius)]);
                2
            }
            Collider::Aabb { half_extents } => {
                points(&[*half_extents]);
                3
            }
            Collider::Rectangle { half_extents } => {
                points(&[*half_extents]);
                4
            }
            Collider::Capsule { a, b, radius } => {
                points(&[*a, *b, Vec2::splat(*radius)]);
                5
            }
            Collider::ConvexPolygon { vertices } => {
                points(vertices);
                6
            }
            Collider::Polyline { points: p } => {
                points(p);
                7
            }
        };
        // The kind last, so that two kinds with the same numbers differ.
        mix(kind);
        hash
    }

    /// A point at the entity's origin (a cursor, a bullet, a particle).
    #[must_use]
    pub const fn point() -> Self {
        Collider::Point
    }

    /// A segment from `a` to `b` in local space.
    #[must_use]
    pub const fn segment(a: Vec2, b: Vec2) -> Self {
        Collider::Segment { a, b }
    }

    /// A disk of `radius` around the entity's origin.
    #[must_use]
    pub const fn circle(radius: f32) -> Self {
        Collider::Circle { radius }
    }

    /// An axis-aligned box of `half_extents` around the entity's origin. It never turns:
    /// the transform's scale sizes it, its rotation is ignored, and the plugin warns once,
    /// naming the entity, when it finds one on a rotated transform.
    #[must_use]
    pub const fn aabb(half_extents: Vec2) -> Self {
        Collider::Aabb { half_extents }
    }

    /// A box of `half_extents` around the entity's origin that turns with its transform (an
    /// oriented box). See [`Collider::Rectangle`] for how its corners and edges are numbered.
    #[must_use]
    pub const fn rectangle(half_extents: Vec2) -> Self {
        Collider::Rectangle { half_extents }
    }

    /// The segment from `a` to `b` grown by `radius`: a stadium (`a == b` gives a disk).
    #[must_use]
    pub const fn capsule(a: Vec2, b: Vec2, radius: f32) -> Self {
        Collider::Capsule { a, b, radius }
    }

    /// The convex polygon with these vertices, in order around it (either winding); `None`
    /// unless there are 3 to [`ConvexPath::MAX_VERTICES`] (8) finite points in strictly
    /// convex position (no three on a line, no repeated point, every point on the same side
    /// of every edge it is not on).
    ///
    /// ```
    /// use bevy::math::Vec2;
    /// use bevy_sweep::prelude::*;
    ///
    /// let v = Vec2::new;
    /// assert!(Collider::convex_polygon(&[v(0.0, 0.0), v(2.0, 0.0), v(0.0, 2.0)]).is_some());
    /// // Clockwise is fine too.
    /// assert!(Collider::convex_polygon(&[v(0.0, 0.0), v(0.0, 2.0), v(2.0, 0.0)]).is_some());
    /// // Collinear, too few, not convex:
    /// assert!(Collider::convex_polygon(&[v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)]).is_none());
    /// assert!(Collider::convex_polygon(&[v(0.0, 0.0), v(1.0, 0.0)]).is_none());
    /// let dart = [v(0.0, 0.0), v(4.0, 0.0), v(1.0, 1.0), v(0.0, 4.0)];
    /// assert!(Collider::convex_polygon(&dart).is_none());
    /// ```
    #[must_use]
    pub fn convex_polygon(points: &[Vec2]) -> Option<Self> {
        is_strictly_convex(points).then(|| Collider::ConvexPolygon {
            vertices: points.to_vec(),
        })
    }

    /// The open chain of segments through `points`; `None` with fewer than 2 points or a
    /// point that is not finite. Each edge takes its own place in the broad phase, so a long
    /// polyline costs what its edges near other colliders cost. An edge between two equal
    /// points is left out (the plugin warns once, naming the entity).
    ///
    /// ```
    /// use bevy::math::Vec2;
    /// use bevy_sweep::prelude::*;
    ///
    /// let hills: Vec<Vec2> = (0..1000).map(|i| Vec2::new(i as f32, (i as f32 * 0.1).sin())).collect();
    /// assert!(Collider::polyline(&hills).is_some());
    /// assert!(Collider::polyline(&[Vec2::ZERO]).is_none());
    /// assert!(Collider::polyline(&[Vec2::ZERO, Vec2::NAN]).is_none());
    /// ```
    #[must_use]
    pub fn polyline(points: &[Vec2]) -> Option<Self> {
        (points.len() >= 2 && points.iter().all(|p| p.is_finite())).then(|| Collider::Polyline {
            points: points.to_vec(),
        })
    }

    /// Why this collider cannot be swept, if it cannot: a zero-length segment, a size that is
    /// not positive, a coordinate that is not finite, a polygon not strictly convex, a
    /// polyline without an edge.
    #[must_use]
    #[inline]
    pub fn problem(&self) -> Option<SkipReason> {
        match *self {
            Collider::Segment { a, b } if !a.is_finite() || !b.is_finite() => {
                Some(SkipReason::NonFiniteShape)
            }
            Collider::Segment { a, b } if a == b => Some(SkipReason::ZeroLengthSegment),
            Collider::Circle { radius } if !(radius.is_finite() && radius > 0.0) => {
                Some(SkipReason::NonPositiveSize)
            }
            Collider::Aabb { half_extents }
                if !(half_extents.is_finite() && half_extents.cmpgt(Vec2::ZERO).all()) =>
            {
                Some(SkipReason::NonPositiveSize)
            }
            Collider::Rectangle { half_extents }
                if !(half_extents.is_finite() && half_extents.cmpgt(Vec2::ZERO).all()) =>
            {
                Some(SkipReason::NonPositiveSize)
            }
            Collider::Capsule { a, b, .. } if !a.is_finite() || !b.is_finite() => {
                Some(SkipReason::NonFiniteShape)
            }
            Collider::Capsule { radius, .. } if !(radius.is_finite() && radius > 0.0) => {
                Some(SkipReason::NonPositiveSize)
            }
            Collider::ConvexPolygon { ref vertices } if !is_strictly_convex(vertices) => {
                Some(SkipReason::NotConvex)
            }
            Collider::Polyline { ref points } if points.iter().any(|p| !p.is_finite()) => {
                Some(SkipReason::NonFiniteShape)
            }
            Collider::Polyline { ref points } if !points.windows(2).any(|w| w[0] != w[1]) => {
                Some(SkipReason::NoEdge)
            }
            _ => None,
        }
    }

    /// `true` for a polyline (swept edge by edge, without one [`Shape`]).
    #[must_use]
    pub fn is_polyline(&self) -> bool {
        matches!(self, Collider::Polyline { .. })
    }

    /// A polyline's edges in world space under the [plane part](plane_of) of its world
    /// transform, with their indices; edges between equal points are left out. Empty for
    /// the other shapes.
    pub(crate) fn edges_in<'a>(
        &'a self,
        plane: &'a Affine2,
    ) -> impl Iterator<Item = (u32, Vec2, Vec2)> + 'a {
        let points: &[Vec2] = match self {
            Collider::Polyline { points } => points,
            _ => &[],
        };
        (0u32..)
            .zip(points.windows(2))
            .filter(|(_, w)| w[0] != w[1])
            .map(move |(i, w)| {
                (
                    i,
                    plane.transform_point2(w[0]),
                    plane.transform_point2(w[1]),
                )
            })
    }

    /// The shape in world space for an entity whose world transform is `transform` (a root
    /// entity's [`Transform`]); `None` for a polyline, which is no one shape (each of its
    /// edges is a [`Shape::Segment`]).
    #[must_use]
    pub fn world_shape(&self, transform: &Transform) -> Option<Shape> {
        (!self.is_polyline()).then(|| self.shape_in(&plane_of_root(transform)))
    }

    /// The shape in world space under a world affine transform (a [`Transform`] composed
    /// with its ancestors', shear included); `None` for a polyline.
    #[must_use]
    pub fn shape_under(&self, world: &Affine3A) -> Option<Shape> {
        (!self.is_polyline()).then(|| self.shape_in(&plane_of(world)))
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
    /// one place its arithmetic is written. A polyline, which is no one shape, gives its
    /// first point (the gather sweeps its edges, [`edges_in`](Self::edges_in)).
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
            Collider::Polyline { ref points } => {
                Shape::Point(points.first().map_or(center, |&p| place(p)))
            }
            // Placed by `pose_in`.
            Collider::Point
            | Collider::Segment { .. }
            | Collider::Circle { .. }
            | Collider::Aabb { .. } => Shape::Point(center),
        }
    }
}

/// `true` for 3 to [`ConvexPath::MAX_VERTICES`] finite points in strictly convex position:
/// every point strictly on one side of each edge it is not on, the same side for every edge
/// (exact orientation tests; either winding).
fn is_strictly_convex(points: &[Vec2]) -> bool {
    let n = points.len();
    if !(3..=ConvexPath::MAX_VERTICES).contains(&n) || points.iter().any(|p| !p.is_finite()) {
        return false;
    }
    let side = |o: f64| (o > 0.0) as i8 - (o < 0.0) as i8;
    let sign = side(orient2d(points[0], points[1], points[2]));
    sign != 0
        && (0..n).all(|i| {
            let (s, e) = (points[i], points[(i + 1) % n]);
            (0..n)
                .filter(|&k| k != i && k != (i + 1) % n)
                .all(|k| side(orient2d(s, e, points[k])) == sign)
        })
}
