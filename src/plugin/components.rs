//! The components a user puts on entities.

use crate::narrow::{Shape, ShapePath};
use bevy::ecs::prelude::*;
use bevy::math::{Affine3A, Vec2};
use bevy::reflect::prelude::*;
use bevy::transform::components::Transform;

/// A collision shape, in the entity's local space (its [`Transform`]).
///
/// Segment endpoints follow the whole transform (translation, rotation and scale), so a
/// turning or stretching entity turns and stretches its segment. Circles and boxes follow the
/// translation; a circle's radius is scaled by the larger of `|scale.x|` and `|scale.y|`, a
/// box's half extents by `|scale.x|` and `|scale.y|`, and a box never rotates.
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
/// # let _ = (blade, ball, crate_box, cursor);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
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
        /// Radius, `> 0`.
        radius: f32,
    },
    /// An axis-aligned box around the entity's origin.
    Aabb {
        /// Half the size on each axis, `> 0`.
        half_extents: Vec2,
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

    /// An axis-aligned box of `half_extents` around the entity's origin.
    #[must_use]
    pub const fn aabb(half_extents: Vec2) -> Self {
        Collider::Aabb { half_extents }
    }

    /// Why this collider cannot be swept, if it cannot: a zero-length segment, a size that is
    /// not positive, a coordinate that is not finite.
    #[must_use]
    pub fn problem(&self) -> Option<&'static str> {
        match *self {
            Collider::Segment { a, b } if !a.is_finite() || !b.is_finite() => {
                Some("segment endpoint is not finite")
            }
            Collider::Segment { a, b } if a == b => Some("segment has zero length"),
            Collider::Circle { radius } if !(radius.is_finite() && radius > 0.0) => {
                Some("circle radius is not a positive finite number")
            }
            Collider::Aabb { half_extents }
                if !(half_extents.is_finite() && half_extents.cmpgt(Vec2::ZERO).all()) =>
            {
                Some("box half extents are not positive finite numbers")
            }
            _ => None,
        }
    }

    /// The shape in world space for an entity whose world transform is `transform` (a root
    /// entity's [`Transform`]).
    #[must_use]
    pub fn world_shape(&self, transform: &Transform) -> Shape {
        self.shape_under(&transform.compute_affine())
    }

    /// The shape in world space under a world affine transform (a [`Transform`] composed
    /// with its ancestors', shear included).
    #[must_use]
    pub fn shape_under(&self, world: &Affine3A) -> Shape {
        let center = world.translation.truncate();
        let axis_scale = Vec2::new(
            world.matrix3.x_axis.truncate().length(),
            world.matrix3.y_axis.truncate().length(),
        );
        match *self {
            Collider::Point => Shape::Point(center),
            Collider::Segment { a, b } => Shape::Segment(
                world.transform_point3(a.extend(0.0)).truncate(),
                world.transform_point3(b.extend(0.0)).truncate(),
            ),
            Collider::Circle { radius } => Shape::Circle {
                center,
                radius: radius * axis_scale.max_element(),
            },
            Collider::Aabb { half_extents } => Shape::Aabb {
                center,
                half_extents: half_extents * axis_scale,
            },
        }
    }
}

/// Linear velocity in units per second. With
/// [`SweepPlugin::integrate_velocity`](super::SweepPlugin::integrate_velocity) (the default),
/// the plugin moves the [`Transform`] by it every tick, before sweeping: world units for a
/// root entity, the parent's frame for a child (its `Transform` is relative to the parent).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
pub struct Velocity(pub Vec2);

/// Angular velocity in radians per second, counter-clockwise, about the entity's origin.
/// Integrated like [`Velocity`]; it turns segments (circles and boxes do not rotate).
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

/// This tick's motion of a collider in world space, written by the plugin (read it, do not
/// write it): what was swept, for drawing and debugging.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, Default, Clone)]
pub struct SweptPath {
    /// The motion swept in the last tick; `None` before the first tick and while the
    /// collider is skipped as unusable.
    #[reflect(ignore)]
    pub path: Option<ShapePath>,
    /// Where the collider was at the end of the last tick: the start of the next motion.
    #[reflect(ignore)]
    pub(crate) previous: Option<Shape>,
    /// Its world transform then (to rebuild the start when the collider's kind changes).
    #[reflect(ignore)]
    pub(crate) previous_world: Option<Affine3A>,
    /// The plugin's tick in which `path` was written (an entity left out of a tick keeps the
    /// path of the last tick it was swept in).
    #[reflect(ignore)]
    pub(crate) tick: u64,
}

impl SweptPath {
    /// Forget the previous place: the next tick starts from where the collider is then.
    pub(crate) fn restart(&mut self) {
        self.previous = None;
        self.previous_world = None;
    }
}

/// The world transform of an entity: its [`Transform`] composed with its ancestors', as an
/// affine map (so a rotated child of a non-uniformly scaled parent is sheared correctly).
pub(crate) fn world_transform(
    entity: Entity,
    transforms: &Query<(&Transform, Option<&ChildOf>)>,
) -> Option<Affine3A> {
    let (transform, parent) = transforms.get(entity).ok()?;
    world_transform_from(transform, parent, transforms)
}

/// [`world_transform`] of an entity whose own transform and parent are at hand.
pub(crate) fn world_transform_from(
    transform: &Transform,
    parent: Option<&ChildOf>,
    transforms: &Query<(&Transform, Option<&ChildOf>)>,
) -> Option<Affine3A> {
    let mut world = transform.compute_affine();
    let mut parent = parent.map(ChildOf::parent);
    // A hierarchy deeper than this is a cycle or a mistake; stop rather than loop.
    for _ in 0..64 {
        let Some(entity) = parent else {
            return Some(world);
        };
        let (parent_transform, grandparent) = transforms.get(entity).ok()?;
        world = parent_transform.compute_affine() * world;
        parent = grandparent.map(ChildOf::parent);
    }
    None
}

/// `true` if every part of the world transform is finite.
pub(crate) fn transform_is_finite(world: &Affine3A) -> bool {
    world.is_finite()
}
