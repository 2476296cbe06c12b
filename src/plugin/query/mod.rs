//! Spatial queries against the colliders: what a ray, a segment or a shape touches now.
//!
//! [`SweepQuery`] is the public face: it turns its arguments into shapes in the world and
//! asks the [`Scene`] of the colliders where the last tick left them ([`scene`] holds the
//! searches, [`slide`] move-and-slide). Its methods are grouped by kind: [`cast`] (rays,
//! segments and shapes moved), [`now`] (what touches at one pose) and [`slide`].

mod cast;
mod now;
mod scene;
mod slide;

pub use cast::{CastOptions, RayHit, ShapeCastHit};
pub use now::{ContactNow, PenetrationHit, PointProjection};
pub(crate) use scene::{Scene, Searched};
pub use slide::{MoveAndSlideConfig, MoveAndSlideHit, MoveAndSlideOutput};

use super::components::{Collider, Composites, LayerMask};
use super::tick::entries::Entry;
use super::tick::publish::Snapshot;
use crate::narrow::Shape;
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::ecs::system::SystemParam;
use bevy::math::{Affine2, Vec2};

/// Which colliders a query may hit: members of some layers, leaving out a set of entities
/// (colliders, and bodies with all their colliders).
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// # let mut world = World::new();
/// # let (shooter, gun) = (world.spawn_empty().id(), world.spawn_empty().id());
/// // Anything on layers 1 or 2 but the shooter and its gun.
/// let filter = QueryFilter::default()
///     .with_layers(0b11)
///     .with_excluded_entities([shooter, gun]);
/// assert!(filter.excluded.contains(&gun));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryFilter {
    /// Hit only colliders that are members of one of these layers (see
    /// [`CollisionLayers::memberships`](crate::prelude::CollisionLayers::memberships)). Default:
    /// every layer.
    pub layers: u32,
    /// Never hit these entities (for example, the shooter of a ray and its weapon). Default:
    /// none.
    pub excluded: EntityHashSet,
}

impl Default for QueryFilter {
    fn default() -> Self {
        Self {
            layers: u32::MAX,
            excluded: EntityHashSet::default(),
        }
    }
}

impl QueryFilter {
    /// Hits only members of `layers`: a [`CollisionLayer`](crate::prelude::CollisionLayer)
    /// value, an array of them, a [`LayerMask`] or a `u32` mask.
    #[must_use]
    pub fn with_layers(mut self, layers: impl Into<LayerMask>) -> Self {
        self.layers = layers.into().0;
        self
    }

    /// Never hits `entity` (besides the entities already left out): that collider, or, if
    /// `entity` has a [`Body`](crate::prelude::Body), every collider of that body.
    #[must_use]
    pub fn excluding(mut self, entity: Entity) -> Self {
        self.excluded.insert(entity);
        self
    }

    /// Never hits any of `entities` (besides the entities already left out).
    #[must_use]
    pub fn with_excluded_entities(mut self, entities: impl IntoIterator<Item = Entity>) -> Self {
        self.excluded.extend(entities);
        self
    }

    /// `true` if the query may hit `entry` (a collider where the last tick left it: not a
    /// piece of a responder's path that it went on from), neither it nor its body excluded.
    #[inline]
    pub(crate) fn accepts(&self, entry: &Entry) -> bool {
        !entry.passed()
            && entry.layers.memberships & self.layers != 0
            && (self.excluded.is_empty()
                || !(self.excluded.contains(&entry.entity)
                    || entry.body.is_some_and(|body| self.excluded.contains(&body))))
    }
}

/// Spatial queries against every collider where the last tick left it: what a ray or a
/// segment hits first or at all, and which colliders a point, segment, circle or box touches.
///
/// A system parameter: add `query: SweepQuery` to a system. It reads the plugin's own broad
/// phase (built each tick over the colliders' swept bounds), so a query costs a few rows of
/// that structure plus one exact test per nearby collider, with no setup of its own. Hits
/// are exact: the same kernels as the sweep decide them.
///
/// # What a query sees
/// Every collider as the last tick left it (at the sweep's
/// [`SweepSystems::Report`](super::SweepSystems::Report)):
/// - **A collider spawned since is not seen until a tick has run.** One spawned in `Update`
///   is found once a fixed tick has run since (in `Update`, usually the next frame's); one
///   spawned in `FixedUpdate` (before the sweep, in the same tick), from the sweep on. (The sweep has not placed it yet:
///   its world transform, its body and whether its shape is usable are decided by the tick.)
/// - Moves made since, in `Update`, are not seen until the next tick either.
/// - A collider despawned since may still be hit: check the entity with `Query::get`.
/// - A collider switched off with [`ColliderDisabled`](crate::prelude::ColliderDisabled) is
///   not found from the moment the marker is inserted.
/// - A query whose points or poses lie beyond [`COORDINATE_RANGE`](crate::COORDINATE_RANGE)
///   finds nothing (no collider is there: the plugin refuses them).
///
/// # Examples
/// A laser sight: the first thing in front of the player, ignoring the player.
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// #[derive(Component)]
/// struct Player;
///
/// fn laser(query: SweepQuery, player: Single<(Entity, &Transform), With<Player>>) {
///     let (me, transform) = *player;
///     let origin = transform.translation.truncate();
///     let aim = Dir2::new((transform.rotation * Vec3::X).truncate()).unwrap_or(Dir2::X);
///     let filter = QueryFilter::default().excluding(me);
///     if let Some(hit) = query.cast_ray(origin, aim, 1000.0, &filter) {
///         info!("the laser stops at {} on {}", hit.point, hit.entity);
///     }
/// }
/// # bevy::ecs::system::assert_is_system(laser);
/// ```
/// Mouse picking: every collider under the cursor, within 4 units.
/// ```
/// use bevy::math::Isometry2d;
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// fn pick(query: SweepQuery, mut picked: Local<Vec<Entity>>) {
///     let cursor = Vec2::new(10.0, 20.0); // from `Camera::viewport_to_world_2d`
///     let near = Collider::circle(4.0);
///     query.shape_hits(&near, Isometry2d::from_translation(cursor), &QueryFilter::default(), &mut picked);
///     for entity in picked.iter() {
///         info!("under the cursor: {entity}");
///     }
/// }
/// # bevy::ecs::system::assert_is_system(pick);
/// ```
#[derive(SystemParam)]
pub struct SweepQuery<'w> {
    snapshot: Res<'w, Snapshot>,
    composites: Res<'w, Composites>,
}

impl SweepQuery<'_> {
    /// The colliders where the last tick left them, as the searches read them.
    fn scene(&self) -> Scene<'_> {
        let snapshot = &*self.snapshot;
        Scene {
            groups: snapshot
                .groups()
                .map(|group| Searched::new(&group.entries, &group.index, None)),
            moment: 1.0,
            one_way: &snapshot.one_way,
            composites: Some(&self.composites),
        }
    }
}

/// A collider's shape placed in the world: one shape, or a composite's elements.
pub(crate) enum Placed {
    One([Shape; 1]),
    Edges(Vec<Shape>),
}

impl Placed {
    /// `shape` in the plane `plane`; `None` if the shape is unusable (see
    /// [`Collider::problem`]), or the plane is not finite or its origin lies beyond
    /// [`COORDINATE_RANGE`](crate::COORDINATE_RANGE).
    pub(crate) fn new(shape: &Collider, plane: &Affine2) -> Option<Self> {
        if shape.problem().is_some() || !plane.is_finite() || !within_range(plane.translation) {
            return None;
        }
        if shape.is_composite() {
            let mut elements = Vec::new();
            shape.for_each_element(plane, &mut |_, element| {
                if element.is_valid() {
                    elements.push(element);
                }
            });
            return (!elements.is_empty()).then_some(Placed::Edges(elements));
        }
        let one = shape.shape_in(plane);
        one.is_valid().then_some(Placed::One([one]))
    }

    pub(crate) fn shapes(&self) -> &[Shape] {
        match self {
            Placed::One(one) => one,
            Placed::Edges(edges) => edges,
        }
    }
}

/// `true` if `p` is finite and within [`COORDINATE_RANGE`](crate::COORDINATE_RANGE) on each
/// axis: a query beyond it finds nothing.
pub(crate) fn within_range(p: Vec2) -> bool {
    p.abs().cmple(Vec2::splat(crate::COORDINATE_RANGE)).all()
}
