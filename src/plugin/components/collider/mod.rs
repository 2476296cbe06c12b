//! [`Collider`]: the shapes, their checks, and where they lie in the world.

use super::polygon::decompose;
use super::{CollisionLayers, SweptPath, Warned};
use crate::geometry::robust::orient2d;
use crate::narrow::ConvexPath;
use crate::plugin::SkipReason;
use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::prelude::*;
use bevy::math::{Isometry2d, Vec2};
use bevy::reflect::prelude::*;
use bevy::transform::components::Transform;

mod convert;
mod elements;
mod placed;

pub use convert::UnusableShape;

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
/// | polygon | level outlines, concave props: any simple polygon | [`polygon`](Self::polygon) |
/// | compound | several shapes as one collider, each at its pose | [`compound`](Self::compound) |
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
#[require(Transform, CollisionLayers, SweptPath, Warned)]
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
        vertices: Checked<Vec<Vec2>>,
    },
    /// An open chain of segments through `points` (local space): edge `i` runs from point
    /// `i` to point `i + 1`. Build it with [`Collider::polyline`].
    Polyline {
        /// Two or more points.
        points: Checked<Vec<Vec2>>,
    },
    /// A simple polygon of any number of points, convex or not (local space): edge `i` runs
    /// from point `i` to the next, the last back to point `0`. It is swept as strictly
    /// convex pieces that share its points; build it with [`Collider::polygon`], which checks
    /// the points and cuts the pieces.
    Polygon {
        /// The points, in order around the polygon (either winding).
        points: Checked<Vec<Vec2>>,
        /// The convex pieces, as indices into `points` in the polygon's winding, each of 3
        /// to [`ConvexPath::MAX_VERTICES`](crate::narrow::ConvexPath::MAX_VERTICES) points.
        pieces: Checked<Vec<Vec<u32>>>,
    },
    /// Several shapes as one collider, each part at its pose in the collider's frame. Build
    /// it with [`Collider::compound`].
    Compound {
        /// The parts and their poses, none of them a compound.
        parts: Checked<Vec<(Isometry2d, Collider)>>,
    },
}

/// A shape's data as its [`Collider`] constructor checked it: read it as the value inside
/// (it dereferences to it, so `vertices.len()`, `points[0]` and `parts.iter()` work), but
/// build it only through the constructors ([`Collider::convex_polygon`],
/// [`Collider::polyline`], [`Collider::polygon`], [`Collider::compound`]), which check it.
///
/// ```
/// use bevy::math::Vec2;
/// use bevy_sweep::prelude::*;
///
/// let ground = Collider::polyline(&[Vec2::ZERO, Vec2::X, Vec2::ONE]).unwrap();
/// if let Collider::Polyline { points } = &ground {
///     assert_eq!(points.len(), 3);
///     let owned: Vec<Vec2> = points.to_vec();
///     assert_eq!(owned[2], Vec2::ONE);
/// }
/// ```
///
/// (A collider edited through reflection or deserialized is checked by the plugin when it
/// is swept, as every collider is: one that is not usable is skipped with its
/// [`SkipReason`].)
#[derive(Reflect, Clone, PartialEq)]
#[reflect(where T: Clone)]
#[cfg_attr(
    feature = "serialize",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct Checked<T>(
    T,
    /// The fingerprint of the collider its constructor checked, if one did (not kept by
    /// reflection or serde): a polygon with it is not cut again to be checked.
    #[reflect(ignore)]
    #[cfg_attr(feature = "serialize", serde(skip))]
    Seal,
);

/// [`Checked`]'s record that a constructor checked the collider: the collider's
/// fingerprint then (`0`: none did). It is no part of the value: any two are equal.
#[derive(Clone, Copy, Default)]
struct Seal(u64);

impl PartialEq for Seal {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T: core::fmt::Debug> core::fmt::Debug for Checked<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Checked").field(&self.0).finish()
    }
}

impl<T> core::ops::Deref for Checked<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<'a, T> IntoIterator for &'a Checked<Vec<T>> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T> Checked<T> {
    /// The value, checked when it was built.
    #[must_use]
    pub fn into_inner(self) -> T {
        self.0
    }

    /// `value`, checked by the caller (a constructor).
    fn new(value: T) -> Self {
        Self(value, Seal(0))
    }
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
            Collider::Polygon { points: p, pieces } => {
                points(p);
                for piece in pieces {
                    mix(u32::MAX);
                    piece.iter().for_each(|&i| mix(i));
                }
                8
            }
            Collider::Compound { parts } => {
                for (pose, part) in parts {
                    let (t, r) = (pose.translation, pose.rotation);
                    [t.x, t.y, r.cos, r.sin]
                        .iter()
                        .for_each(|v| mix(v.to_bits()));
                    let inner = part.fingerprint();
                    mix(inner as u32);
                    mix((inner >> 32) as u32);
                }
                9
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
    /// unless there are 3 to [`ConvexPath::MAX_VERTICES`](crate::narrow::ConvexPath::MAX_VERTICES) (8) finite points in strictly
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
            vertices: Checked::new(points.to_vec()),
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
            points: Checked::new(points.to_vec()),
        })
    }

    /// The simple polygon through `points`, convex or not, with any number of points, in
    /// order around it (either winding); `None` with fewer than 3 points, a point that is not
    /// finite, two equal points, or a boundary that touches or crosses itself (which rules
    /// out a zero area too).
    ///
    /// It is exact like every other shape, and one collider: its inside is inside (a point
    /// that enters it is `Started` once, and `Ended` when it leaves), a point through a notch
    /// touches nothing, and an event's [`Feature`](crate::narrow::Feature) names the polygon's own edge or vertex,
    /// numbered as `points` are. It is swept as strictly convex pieces of at most 8 corners
    /// cut along diagonals between its points (an exact constrained Delaunay triangulation,
    /// merged while the pieces stay convex); no contact is ever placed on a diagonal. A point
    /// where the outline runs straight on is no corner of a piece, so a floor drawn with a
    /// point every few units is as few pieces as its corners make, and a slider along it
    /// meets one face. Strictly convex points within 8 give a [`Collider::ConvexPolygon`],
    /// one piece. The cut costs `n log n` in the points (`docs/benchmarks.md` has its
    /// times for outlines of 50,000 points): cut large outlines once, and clone the
    /// collider. A polygon built through reflection or deserialized is checked by the plugin
    /// as this checks it (an outline that is not simple, or pieces that are not this cut,
    /// are skipped with [`SkipReason::NotSimple`]).
    ///
    /// Like a polyline, a polygon of more than one piece cannot answer hits (a
    /// [`Response`](crate::prelude::Response) or
    /// [`KinematicCharacter`](crate::prelude::KinematicCharacter) on it is warned about);
    /// everything that answers hits meets it as a solid.
    ///
    /// ```
    /// use bevy::math::Vec2;
    /// use bevy_sweep::prelude::*;
    ///
    /// let v = Vec2::new;
    /// // A U-shaped level piece: three convex pieces, one collider.
    /// let cup = [v(0.0, 0.0), v(6.0, 0.0), v(6.0, 5.0), v(4.0, 5.0), v(4.0, 2.0), v(2.0, 2.0), v(2.0, 5.0), v(0.0, 5.0)];
    /// assert!(Collider::polygon(&cup).is_some());
    /// // A round one of 32 points.
    /// let round: Vec<Vec2> = (0..32).map(|i| Vec2::from_angle(i as f32 / 32.0 * std::f32::consts::TAU) * 10.0).collect();
    /// assert!(Collider::polygon(&round).is_some());
    /// // A bow tie crosses itself; two points are no polygon.
    /// assert!(Collider::polygon(&[v(0.0, 0.0), v(2.0, 2.0), v(2.0, 0.0), v(0.0, 2.0)]).is_none());
    /// assert!(Collider::polygon(&[v(0.0, 0.0), v(1.0, 0.0)]).is_none());
    /// ```
    #[must_use]
    pub fn polygon(points: &[Vec2]) -> Option<Self> {
        if let Some(convex) = Self::convex_polygon(points) {
            return Some(convex);
        }
        let pieces = decompose(points)?;
        if pieces.len() > MAX_ELEMENTS as usize {
            return None;
        }
        let mut polygon = Collider::Polygon {
            points: Checked::new(points.to_vec()),
            pieces: Checked::new(pieces),
        };
        // Sealed: the plugin need not cut it again to check it.
        let seal = Seal(polygon.fingerprint());
        if let Collider::Polygon { pieces, .. } = &mut polygon {
            pieces.1 = seal;
        }
        Some(polygon)
    }

    /// Several shapes as one collider, each part at its pose in the collider's frame (the
    /// entity's transform places the whole); `None` if `parts` is empty, a part is unusable
    /// (see [`problem`](Self::problem)), a part is itself a compound, or a pose is not
    /// finite or its rotation zero. Each pose's rotation is normalised (a `Rot2` of any
    /// nonzero length turns its part, never scales it); a compound edited through
    /// reflection or deserialized with a rotation off unit length by more than `1e-4` is
    /// skipped with [`SkipReason::NonUnitRotation`].
    ///
    /// Events name the compound's entity, and their [`Feature`](crate::narrow::Feature) is a
    /// [`Feature::Part`](crate::narrow::Feature::Part): which part, and where on it. Parts never collide with each other.
    /// A part's pose turns it as the entity's transform would, but for an axis-aligned box
    /// ([`Collider::aabb`]), which never turns: use a [`Collider::rectangle`] part for a box
    /// that turns. Like a polyline, a compound cannot answer hits.
    ///
    /// ```
    /// use bevy::math::{Isometry2d, Vec2};
    /// use bevy_sweep::prelude::*;
    ///
    /// // A table: a top and two legs.
    /// let table = Collider::compound(&[
    ///     (Isometry2d::from_xy(0.0, 10.0), Collider::rectangle(Vec2::new(20.0, 2.0))),
    ///     (Isometry2d::from_xy(-18.0, 0.0), Collider::rectangle(Vec2::new(2.0, 8.0))),
    ///     (Isometry2d::from_xy(18.0, 0.0), Collider::rectangle(Vec2::new(2.0, 8.0))),
    /// ]);
    /// assert!(table.is_some());
    /// assert!(Collider::compound(&[]).is_none());
    /// assert!(Collider::compound(&[(Isometry2d::IDENTITY, Collider::circle(-1.0))]).is_none());
    /// ```
    #[must_use]
    pub fn compound(parts: &[(Isometry2d, Collider)]) -> Option<Self> {
        // A rotation is a direction: made unit length, so that it never scales its part.
        let parts = parts
            .iter()
            .map(|(pose, part)| {
                let mut pose = *pose;
                let length = pose.rotation.length();
                if length.is_finite() && length > 0.0 {
                    pose.rotation = pose.rotation.normalize();
                }
                (pose, part.clone())
            })
            .collect();
        let shape = Collider::Compound {
            parts: Checked::new(parts),
        };
        shape.problem().is_none().then_some(shape)
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
            Collider::Polyline { ref points } if points.len() > MAX_ELEMENTS as usize => {
                Some(SkipReason::TooManyElements)
            }
            Collider::Polygon { ref points, .. } if points.iter().any(|p| !p.is_finite()) => {
                Some(SkipReason::NonFiniteShape)
            }
            Collider::Polygon {
                ref points,
                ref pieces,
            } if pieces.len() > MAX_ELEMENTS as usize => Some(SkipReason::TooManyElements),
            Collider::Polygon {
                ref points,
                ref pieces,
            } if !pieces_are_convex(points, pieces) => Some(SkipReason::NotConvex),
            Collider::Polygon {
                ref points,
                ref pieces,
            } if pieces.1.0 != self.fingerprint()
                && decompose(points).as_deref() != Some(&pieces[..]) =>
            {
                Some(SkipReason::NotSimple)
            }
            Collider::Compound { ref parts } => compound_problem(parts),
            _ => None,
        }
    }

    /// `true` for a polyline (swept edge by edge, without one [`Shape`](crate::narrow::Shape)).
    #[must_use]
    pub fn is_polyline(&self) -> bool {
        matches!(self, Collider::Polyline { .. })
    }

    /// `true` for a shape swept as several elements, each its own [`Shape`](crate::narrow::Shape) with its own
    /// place in the broad phase: a polyline's edges, a polygon's convex pieces, a compound's
    /// parts.
    #[must_use]
    pub fn is_composite(&self) -> bool {
        matches!(
            self,
            Collider::Polyline { .. } | Collider::Polygon { .. } | Collider::Compound { .. }
        )
    }
}

/// The most elements (a polyline's edges, a polygon's pieces, a compound's parts' elements)
/// one collider has: the entries' element numbers have 24 bits.
pub(crate) const MAX_ELEMENTS: u32 = (1 << 24) - 1;

/// `true` if every piece is 3 to [`ConvexPath::MAX_VERTICES`](crate::narrow::ConvexPath::MAX_VERTICES) indices of `points` in strictly
/// convex position (a polygon built otherwise than by [`Collider::polygon`] is checked this
/// far).
fn pieces_are_convex(points: &[Vec2], pieces: &[Vec<u32>]) -> bool {
    !pieces.is_empty()
        && pieces.iter().all(|piece| {
            let placed: Option<Vec<Vec2>> = piece
                .iter()
                .map(|&i| points.get(i as usize).copied())
                .collect();
            placed.is_some_and(|p| is_strictly_convex(&p))
        })
}

/// How far from 1 the length of a compound part's rotation may be: a unit rotation rounded
/// (a few ulps) or normalised in `f32` is well within; a rotation this far off would scale
/// its part by that much.
const ROTATION_SLACK: f32 = 1e-4;

/// Why a compound's parts cannot be swept, if they cannot: none, a pose that is not finite,
/// a part that is a compound or cannot be swept itself, too many elements.
fn compound_problem(parts: &[(Isometry2d, Collider)]) -> Option<SkipReason> {
    if parts.is_empty() {
        return Some(SkipReason::EmptyCompound);
    }
    let mut elements = 0u64;
    for (pose, part) in parts {
        let turn = Vec2::new(pose.rotation.cos, pose.rotation.sin);
        if !pose.translation.is_finite() || !turn.is_finite() {
            return Some(SkipReason::NonFiniteShape);
        }
        if (turn.length() - 1.0).abs() > ROTATION_SLACK {
            return Some(SkipReason::NonUnitRotation);
        }
        if matches!(part, Collider::Compound { .. }) {
            return Some(SkipReason::NestedCompound);
        }
        if let Some(reason) = part.problem() {
            return Some(reason);
        }
        elements += u64::from(part.element_count());
    }
    (elements > u64::from(MAX_ELEMENTS)).then_some(SkipReason::TooManyElements)
}

/// The colliders whose events are named through their shape (polygons cut into pieces,
/// compounds), by entity: a copy of each one's [`Collider`] (shared, so that a rollback's
/// save of them costs a count each), kept by the prepare phase from the colliders added,
/// changed and removed, read by the report and the queries, and saved and restored with the
/// [`SweepState`](crate::prelude::SweepState).
#[derive(Resource, Default, Clone)]
pub(crate) struct Composites(pub(crate) EntityHashMap<std::sync::Arc<Collider>>);

/// `true` for 3 to [`ConvexPath::MAX_VERTICES`](crate::narrow::ConvexPath::MAX_VERTICES) finite points in strictly convex position:
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
