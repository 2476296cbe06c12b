//! The components a user puts on entities.

use super::contacts::SkipReason;
use super::state::Motion;
use crate::geometry::robust::orient2d;
use crate::narrow::{ConvexPath, ConvexShape, ConvexVertices, Shape, ShapePath};
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

    /// `true` for a point, segment, circle or axis-aligned box (swept by their own solvers).
    pub(crate) fn is_basic(&self) -> bool {
        matches!(
            self,
            Collider::Point
                | Collider::Segment { .. }
                | Collider::Circle { .. }
                | Collider::Aabb { .. }
        )
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

    /// A basic shape's pose (a still [`Motion`]) in the [plane part](plane_of) of its world
    /// transform; `None` for the other shapes. The one place its arithmetic is written.
    #[inline(always)]
    pub(crate) fn pose_in(&self, plane: &Affine2) -> Option<Motion> {
        let center = plane.translation;
        let (x, y) = (plane.matrix2.x_axis, plane.matrix2.y_axis);
        // As `Affine3A::transform_point3` of `p.extend(0.0)` computes it, less the third
        // column's zero.
        let place = |p: Vec2| x * p.x + y * p.y + center;
        Some(match *self {
            Collider::Point => Motion::Point([center; 2]),
            Collider::Segment { a, b } => Motion::Segment {
                a: [place(a); 2],
                b: [place(b); 2],
            },
            Collider::Circle { radius } => Motion::Circle {
                center: [center; 2],
                radius: radius * x.length().max(y.length()),
            },
            Collider::Aabb { half_extents } => Motion::Aabb {
                center: [center; 2],
                half_extents: half_extents * Vec2::new(x.length(), y.length()),
            },
            _ => return None,
        })
    }

    /// The shape in world space in the [plane part](plane_of) of its world transform.
    #[inline(always)]
    pub(crate) fn shape_in(&self, plane: &Affine2) -> Shape {
        if let Some(pose) = self.pose_in(plane).and_then(|pose| pose.basic()) {
            return pose.end();
        }
        let center = plane.translation;
        let (x, y) = (plane.matrix2.x_axis, plane.matrix2.y_axis);
        let place = |p: Vec2| x * p.x + y * p.y + center;
        let convex = |vertices: &[Vec2], radius: f32| {
            let mut placed = [Vec2::ZERO; ConvexPath::MAX_VERTICES];
            for (q, &p) in placed.iter_mut().zip(vertices) {
                *q = place(p);
            }
            let count = vertices.len().min(ConvexPath::MAX_VERTICES);
            ConvexShape::new(&placed[..count], radius).map_or(Shape::Point(center), Shape::Convex)
        };
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
            // No one shape; the gather sweeps its edges (`edges_in`).
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

/// Linear velocity in units per second. With
/// [`SweepPlugin::integrate_velocity`](super::SweepPlugin::integrate_velocity) (the default),
/// the plugin moves the [`Transform`] by it every tick, before sweeping: world units for a
/// root entity, the parent's frame for a child (its `Transform` is relative to the parent).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
pub struct Velocity(pub Vec2);

/// Angular velocity in radians per second, counter-clockwise, about the entity's origin.
/// Integrated like [`Velocity`]; it turns every shape but circles and axis-aligned boxes.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
pub struct AngularVelocity(pub f32);

/// Which pairs are tested at all: `a` and `b` are swept against each other only if
/// `a.memberships & b.filters != 0` and `b.memberships & a.filters != 0`.
///
/// The default is member of every layer, interacting with every layer.
///
/// ```
/// use bevy_sweep::prelude::*;
///
/// const PLAYER: u32 = 1 << 0;
/// const ENEMY: u32 = 1 << 1;
/// const BULLET: u32 = 1 << 2;
/// // Bullets hit enemies, and nothing else.
/// let bullet = CollisionLayers::new(BULLET, ENEMY);
/// let enemy = CollisionLayers::new(ENEMY, PLAYER | BULLET);
/// let player = CollisionLayers::new(PLAYER, ENEMY);
/// assert!(bullet.interacts_with(&enemy));
/// assert!(!bullet.interacts_with(&player));
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
pub struct CollisionLayers {
    /// The layers this collider belongs to.
    pub memberships: u32,
    /// The layers this collider interacts with.
    pub filters: u32,
}

impl CollisionLayers {
    /// Member of every layer, interacting with every layer.
    pub const ALL: Self = Self {
        memberships: u32::MAX,
        filters: u32::MAX,
    };
    /// Member of no layer and interacting with none: never tested.
    pub const NONE: Self = Self {
        memberships: 0,
        filters: 0,
    };

    /// Layers from bit masks.
    #[must_use]
    pub const fn new(memberships: u32, filters: u32) -> Self {
        Self {
            memberships,
            filters,
        }
    }

    /// `true` if a pair with these two layer sets is tested (the relation is symmetric).
    #[must_use]
    pub const fn interacts_with(&self, other: &Self) -> bool {
        self.memberships & other.filters != 0 && other.memberships & self.filters != 0
    }
}

impl Default for CollisionLayers {
    fn default() -> Self {
        Self::ALL
    }
}

/// Insert on a collider that was moved discontinuously (respawned, warped): the next tick
/// takes its new place as the start of its motion, so the jump is not swept, sweeps that
/// tick's own motion from there as usual, and removes the marker.
///
/// Contacts the collider had before the jump end (with [`CollisionKind::Ended`] at time 0)
/// if it no longer touches the other collider at its new place.
///
/// The marker acts on the collider it is on: when you move a parent discontinuously, insert
/// it on the child colliders too.
///
/// [`CollisionKind::Ended`]: super::CollisionKind::Ended
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
pub struct Teleport;

/// This tick's motion of a collider in world space, written by the plugin: what was swept,
/// for drawing and debugging ([`path`](Self::path), [`polyline_edges`](Self::polyline_edges)).
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Component, Debug, Default, Clone)]
pub struct SweptPath {
    /// The motion swept in the last tick (a basic shape's; a rounded polygon's is in
    /// `convex`); `None` before the first tick, while the collider is skipped as unusable,
    /// and for a polyline.
    ///
    /// Kept small (every tick reads and writes it for every collider): a polygon's vertex
    /// paths, three times the size of a basic shape's motion, are stored apart.
    #[reflect(ignore)]
    pub(crate) motion: Option<Motion>,
    /// A rounded polygon's motion (allocated once, for polygons only, and reused).
    #[reflect(ignore)]
    pub(crate) convex: Option<Box<ConvexVertices>>,
    /// Where the motion starts afresh, for a collider whose motion restarts this tick
    /// ([`fresh`](Self::fresh)): where it was when the tick began, at `previous_world`.
    /// Otherwise the motion starts where the last one ended, the end of `path`.
    /// The plane part of its world transform then (to rebuild the start when the collider's
    /// kind changes).
    #[reflect(ignore)]
    pub(crate) previous_world: Option<PackedPlane>,
    /// The plugin's tick in which `path` was written (an entity left out of a tick keeps the
    /// path of the last tick it was swept in).
    #[reflect(ignore)]
    pub(crate) tick: u64,
    /// Set when the motion starts afresh this tick (a new, re-inserted or teleported
    /// collider): it is not the continuation of the last tick's.
    #[reflect(ignore)]
    pub(crate) fresh: bool,
    /// How many ticks in a row (up to 2) the collider's motion was still and continued the
    /// last tick's.
    #[reflect(ignore)]
    pub(crate) still_for: u8,
    /// Resting in the last tick: still for two ticks, unchanged, kept in the broad phase
    /// without being swept again.
    #[reflect(ignore)]
    pub(crate) resting: bool,
    /// A warning was given about this collider's shape (once per collider and shape): an
    /// axis-aligned box on a rotated transform, a polyline with repeated points.
    #[reflect(ignore)]
    pub(crate) warned: bool,
    /// The [`Body`] the collider belonged to in the last tick.
    #[reflect(ignore)]
    pub(crate) body: Option<Entity>,
    /// Why the collider's shape cannot be swept ([`Collider::problem`]), checked when it is
    /// new or changed; `None` until then.
    #[reflect(ignore)]
    pub(crate) shape_problem: Option<Option<SkipReason>>,
    /// A polyline's world plane at the start of the last tick's motion (its end is
    /// `previous_world`).
    #[reflect(ignore)]
    pub(crate) chain_start: Option<PackedPlane>,
}

/// Groups the colliders on this entity and on its descendants into one body: a character
/// made of a capsule and a feet sensor, a ship made of a hull and its turrets.
///
/// - Contacts between two colliders of one body are never tested nor reported.
/// - Events carry each side's body ([`CollisionEvent::body`](super::CollisionEvent::body))
///   beside its collider.
/// - A collider belongs to the nearest `Body` among itself and its ancestors ([`ChildOf`]);
///   transform hierarchies work as they do without bodies.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// fn spawn_hero(mut commands: Commands) {
///     commands.spawn((Body, Transform::default(), Velocity(Vec2::X * 100.0)))
///         .with_children(|hero| {
///             hero.spawn(Collider::capsule(Vec2::new(0.0, -8.0), Vec2::new(0.0, 8.0), 6.0));
///             // The feet sensor overlaps the capsule; the two are never reported.
///             hero.spawn((Collider::rectangle(Vec2::new(4.0, 1.0)), Transform::from_xyz(0.0, -14.0, 0.0)));
///         });
/// }
/// # let mut app = App::new();
/// # app.add_systems(Startup, spawn_hero);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
pub struct Body;

/// The colliders touching this entity, kept up to date by the plugin after each tick
/// (opt-in: insert it where you need it). On a collider, the colliders it touches; on a
/// [`Body`], the colliders its own colliders touch.
///
/// The plugin updates it in time proportional to the contacts that changed, so it costs
/// nothing on an entity whose contacts stay as they are.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// fn hurt_on_touch(players: Query<&CollidingEntities, With<Body>>) {
///     for touching in &players {
///         if !touching.is_empty() {
///             info!("touching {} colliders", touching.len());
///         }
///     }
/// }
/// # let mut app = App::new();
/// # app.add_systems(Update, hurt_on_touch);
/// ```
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Component, Debug, Default, Clone)]
pub struct CollidingEntities(#[reflect(ignore)] pub(crate) bevy::ecs::entity::EntityHashSet);

impl CollidingEntities {
    /// `true` if `entity`'s collider touches this one.
    #[must_use]
    pub fn contains(&self, entity: Entity) -> bool {
        self.0.contains(&entity)
    }

    /// The touching colliders, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = Entity> + '_ {
        self.0.iter().copied()
    }

    /// How many colliders touch this one.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// `true` if nothing touches it.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// An [`Affine2`] stored without its 16-byte alignment: 24 bytes instead of 32, so that
/// [`SweptPath`], which every tick reads and writes for every collider, stays small.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PackedPlane([f32; 6]);

impl From<Affine2> for PackedPlane {
    fn from(plane: Affine2) -> Self {
        Self(plane.to_cols_array())
    }
}

impl From<PackedPlane> for Affine2 {
    fn from(packed: PackedPlane) -> Self {
        Affine2::from_cols_array(&packed.0)
    }
}

impl SweptPath {
    /// Forget the previous place: the next tick starts from where the collider is then.
    pub(crate) fn restart(&mut self) {
        self.motion = None;
        self.previous_world = None;
        self.chain_start = None;
        self.still_for = 0;
    }

    /// The motion swept in the last tick it was swept in; `None` before the first tick,
    /// while the collider is skipped as unusable, and for a polyline (see
    /// [`polyline_edges`](Self::polyline_edges)).
    #[must_use]
    pub fn path(&self) -> Option<ShapePath> {
        match self.motion? {
            Motion::Convex(_) => self.convex.as_deref().map(|c| ShapePath::Convex(*c)),
            motion => motion.basic(),
        }
    }

    /// Whether the collider rested in the last tick: still for two ticks with nothing
    /// changed, kept in the broad phase without being swept again (see the
    /// [`SweepPlugin`](crate::SweepPlugin) docs). Its contacts are kept and send no events.
    #[must_use]
    pub fn is_resting(&self) -> bool {
        self.resting
    }

    /// Where the last motion ended.
    pub(crate) fn end(&self) -> Option<Shape> {
        match self.motion? {
            Motion::Convex(_) => self.convex.as_deref().map(|c| Shape::Convex(c.at(1.0))),
            motion => motion.basic().map(|p| p.end()),
        }
    }

    /// Stores the motion swept (a polygon's into the storage it already has).
    pub(crate) fn set_path(&mut self, path: Option<&ShapePath>) {
        self.motion = path.map(|path| match path {
            ShapePath::Convex(convex) => {
                match &mut self.convex {
                    Some(stored) => **stored = *convex,
                    None => self.convex = Some(Box::new(*convex)),
                }
                Motion::Convex(0)
            }
            path => Motion::new(path, &mut Vec::new(), 0),
        });
    }

    /// Every path swept in the last tick it was swept in: the collider's one
    /// [`path`](Self::path), or a polyline's edges' ([`polyline_edges`](Self::polyline_edges)).
    pub fn paths<'a>(&'a self, collider: &'a Collider) -> impl Iterator<Item = ShapePath> + 'a {
        self.path()
            .into_iter()
            .chain(self.polyline_edges(collider).map(|(_, path)| path))
    }

    /// A polyline's motion in the last tick it was swept in, edge by edge: each edge's index
    /// and its path (`path` is `None` for a polyline). Empty for the other shapes, and
    /// before the first tick.
    pub fn polyline_edges<'a>(
        &'a self,
        collider: &'a Collider,
    ) -> impl Iterator<Item = (u32, ShapePath)> + 'a {
        let planes = self
            .chain_start
            .zip(self.previous_world)
            .filter(|_| collider.is_polyline())
            .map(|(start, end)| (Affine2::from(start), Affine2::from(end)));
        planes.into_iter().flat_map(move |(start, end)| {
            let ends: Vec<_> = collider.edges_in(&end).collect();
            collider
                .edges_in(&start)
                .zip(ends)
                .map(|((i, a0, b0), (_, a1, b1))| {
                    (
                        i,
                        ShapePath::Segment {
                            a: [a0, a1],
                            b: [b0, b1],
                        },
                    )
                })
                .collect::<Vec<_>>()
        })
    }
}

/// The plane part of a world transform: where the local x and y axes and the origin land in
/// the xy-plane. A collider's world shape depends on nothing else (its local shape lies in
/// the plane `z = 0`, and world z is dropped).
pub(crate) fn plane_of(world: &Affine3A) -> Affine2 {
    Affine2::from_cols(
        world.matrix3.x_axis.truncate(),
        world.matrix3.y_axis.truncate(),
        world.translation.truncate(),
    )
}

/// [`plane_of`] `transform.compute_affine()`, computed with the same operations in the
/// same order (so to the same bits) but without the third dimension.
#[inline]
pub(crate) fn plane_of_root(transform: &Transform) -> Affine2 {
    // `Mat3A::from_quat`'s first two columns, less their z, scaled as
    // `Affine3A::from_scale_rotation_translation` scales them.
    let q = transform.rotation;
    let (x2, y2, z2) = (q.x + q.x, q.y + q.y, q.z + q.z);
    let (xx, xy, yy, zz, wz) = (q.x * x2, q.x * y2, q.y * y2, q.z * z2, q.w * z2);
    Affine2::from_cols(
        Vec2::new(1.0 - (yy + zz), xy + wz) * transform.scale.x,
        Vec2::new(xy - wz, 1.0 - (xx + zz)) * transform.scale.y,
        transform.translation.truncate(),
    )
}

/// [`plane_of_root`], if every part of the transform is finite.
#[inline]
fn root_plane(transform: &Transform) -> Result<Affine2, SkipReason> {
    let plane = plane_of_root(transform);
    // A non-finite rotation, x or y scale or position shows in the plane; z in neither.
    let finite =
        plane.is_finite() && transform.translation.z.is_finite() && transform.scale.z.is_finite();
    if finite {
        Ok(plane)
    } else {
        Err(SkipReason::NonFiniteTransform)
    }
}

/// Where an entity's collider lies: the [plane part](plane_of) of its [`Transform`]
/// composed with its ancestors' (an affine map, so a rotated child of a non-uniformly scaled
/// parent is sheared correctly); or why there is none.
pub(crate) fn world_plane(
    entity: Entity,
    transforms: &Query<(&Transform, Option<&ChildOf>)>,
) -> Result<Affine2, SkipReason> {
    let (transform, parent) = transforms
        .get(entity)
        .map_err(|_| SkipReason::MissingTransform)?;
    world_plane_from(transform, parent, transforms)
}

/// [`world_plane`] of an entity whose own transform and parent are at hand. A root entity
/// (the usual case) needs no 3D matrix.
#[inline]
pub(crate) fn world_plane_from(
    transform: &Transform,
    parent: Option<&ChildOf>,
    transforms: &Query<(&Transform, Option<&ChildOf>)>,
) -> Result<Affine2, SkipReason> {
    let Some(parent) = parent else {
        return root_plane(transform);
    };
    let mut world = transform.compute_affine();
    let mut parent = Some(parent.parent());
    // A hierarchy deeper than this is a cycle or a mistake; stop rather than loop.
    for _ in 0..64 {
        let Some(entity) = parent else {
            return if world.is_finite() {
                Ok(plane_of(&world))
            } else {
                Err(SkipReason::NonFiniteTransform)
            };
        };
        let (parent_transform, grandparent) = transforms
            .get(entity)
            .map_err(|_| SkipReason::MissingTransform)?;
        world = parent_transform.compute_affine() * world;
        parent = grandparent.map(ChildOf::parent);
    }
    Err(SkipReason::MissingTransform)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::math::{Quat, Vec3};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Random transforms: turned about z only, about any axis, with unnormalised rotations,
    /// with negative, tiny and huge scales, with exact zeros.
    fn transforms(count: usize) -> impl Iterator<Item = Transform> {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        (0..count).map(move |k| {
            let mut value = |range: f32| match rng.random_range(0..8) {
                0 => 0.0,
                1 => rng.random_range(-range..range) * 1e-20,
                2 => rng.random_range(-range..range) * 1e20,
                _ => rng.random_range(-range..range),
            };
            let translation = Vec3::new(value(1e3), value(1e3), value(1e3));
            let scale = Vec3::new(value(4.0), value(4.0), value(4.0));
            let rotation = match k % 3 {
                0 => Quat::from_rotation_z(value(7.0)),
                1 => Quat::from_xyzw(value(1.0), value(1.0), value(1.0), value(1.0)).normalize(),
                _ => Quat::from_xyzw(value(2.0), value(2.0), value(2.0), value(2.0)),
            };
            Transform {
                translation,
                rotation,
                scale,
            }
        })
    }

    /// The same bits, where both are numbers (a sum that is zero may differ in sign).
    fn same(a: Vec2, b: Vec2) -> bool {
        a.to_array().iter().zip(b.to_array()).all(|(&x, y)| {
            x.to_bits() == y.to_bits() || (x == 0.0 && y == 0.0) || x.is_nan() && y.is_nan()
        })
    }

    #[test]
    fn a_root_plane_is_the_projection_of_the_3d_transform() {
        for transform in transforms(20_000) {
            let plane = plane_of_root(&transform);
            let full = plane_of(&transform.compute_affine());
            assert!(
                same(plane.matrix2.x_axis, full.matrix2.x_axis)
                    && same(plane.matrix2.y_axis, full.matrix2.y_axis)
                    && same(plane.translation, full.translation),
                "{transform:?}: {plane:?} != {full:?}"
            );
        }
    }

    #[test]
    fn a_root_transform_with_any_part_not_finite_is_refused() {
        for transform in transforms(2_000) {
            // Refused where the plane part of the 3D transform overflows (some of these
            // rotations do); the third dimension's overflow does not matter.
            let finite = plane_of(&transform.compute_affine()).is_finite();
            assert_eq!(root_plane(&transform).is_ok(), finite, "{transform:?}");
            for part in 0..10 {
                for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                    let mut t = transform;
                    match part {
                        0..3 => t.translation[part] = bad,
                        3..7 => {
                            let mut q = t.rotation.to_array();
                            q[part - 3] = bad;
                            t.rotation = Quat::from_array(q);
                        }
                        _ => t.scale[part - 7] = bad,
                    }
                    assert!(root_plane(&t).is_err(), "{t:?}");
                }
            }
        }
    }

    #[test]
    fn shapes_in_the_plane_are_placed_as_in_3d() {
        let affine = |t: &Transform| t.compute_affine();
        for (k, transform) in transforms(20_000).enumerate() {
            let world = affine(&transform);
            let (a, b) = (Vec2::new(-3.0, 0.5), Vec2::new(2.25, -1.0));
            let collider = match k % 5 {
                0 => Collider::segment(a, b),
                1 => Collider::circle(1.5),
                2 => Collider::rectangle(Vec2::new(2.0, 0.75)),
                3 => Collider::capsule(a, b, 0.5),
                _ => Collider::aabb(Vec2::new(2.0, 0.75)),
            };
            let placed = |p: Vec2| world.transform_point3(p.extend(0.0)).truncate();
            let largest_scale = world
                .matrix3
                .x_axis
                .truncate()
                .length()
                .max(world.matrix3.y_axis.truncate().length());
            // The oracle: glam's own 3D maps, then dropped to the plane.
            let expected = match collider {
                Collider::Segment { a, b } => Shape::Segment(
                    world.transform_point3(a.extend(0.0)).truncate(),
                    world.transform_point3(b.extend(0.0)).truncate(),
                ),
                Collider::Circle { radius } => Shape::Circle {
                    center: world.translation.truncate(),
                    radius: radius
                        * world
                            .matrix3
                            .x_axis
                            .truncate()
                            .length()
                            .max(world.matrix3.y_axis.truncate().length()),
                },
                Collider::Aabb { half_extents } => Shape::Aabb {
                    center: world.translation.truncate(),
                    half_extents: half_extents
                        * Vec2::new(
                            world.matrix3.x_axis.truncate().length(),
                            world.matrix3.y_axis.truncate().length(),
                        ),
                },
                Collider::Point => Shape::Point(world.translation.truncate()),
                Collider::Rectangle { half_extents: h } => Shape::Convex(
                    ConvexShape::new(
                        &[(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                            .map(|(x, y)| placed(Vec2::new(x * h.x, y * h.y))),
                        0.0,
                    )
                    .expect("four vertices"),
                ),
                Collider::Capsule { a, b, radius } => Shape::Convex(
                    ConvexShape::new(&[placed(a), placed(b)], radius * largest_scale)
                        .expect("two vertices"),
                ),
                _ => unreachable!("not generated"),
            };
            let shape = collider.world_shape(&transform).expect("not a polyline");
            // Where the 3D map overflows in the third dimension, which the plane leaves
            // out, it has infinities and NaNs the plane does not: nothing to compare.
            let b = expected.bounds();
            if !(b.min.is_finite() && b.max.is_finite()) {
                continue;
            }
            let agree = match (shape, expected) {
                (Shape::Segment(p, q), Shape::Segment(r, s)) => same(p, r) && same(q, s),
                (
                    Shape::Circle { center, radius },
                    Shape::Circle {
                        center: c,
                        radius: r,
                    },
                ) => same(center, c) && same(Vec2::splat(radius), Vec2::splat(r)),
                (
                    Shape::Aabb {
                        center,
                        half_extents,
                    },
                    Shape::Aabb {
                        center: c,
                        half_extents: h,
                    },
                ) => same(center, c) && same(half_extents, h),
                (Shape::Convex(p), Shape::Convex(q)) => {
                    p.vertices().len() == q.vertices().len()
                        && p.vertices()
                            .iter()
                            .zip(q.vertices())
                            .all(|(&x, &y)| same(x, y))
                        && same(Vec2::splat(p.radius()), Vec2::splat(q.radius()))
                }
                _ => false,
            };
            assert!(
                agree,
                "{transform:?} {collider:?}: {shape:?} != {expected:?}"
            );
        }
    }
}
