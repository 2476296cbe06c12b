//! How colliders move: [`Velocity`], [`AngularVelocity`], [`Teleport`], and the plugin's
//! record of each collider's motion, [`SweptPath`].

use super::Collider;
use crate::narrow::{ConvexVertices, Shape, ShapePath};
use crate::plugin::SkipReason;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::prelude::*;
use bevy::ecs::world::DeferredWorld;
use bevy::math::{Affine2, Vec2};
use bevy::reflect::prelude::*;

/// Linear velocity in units per second. With
/// [`SweepPlugin::integrate_velocity`](crate::SweepPlugin::integrate_velocity) (the default),
/// the plugin moves the [`Transform`](bevy::transform::components::Transform) by it every
/// tick, before sweeping: world units for a root entity, the parent's frame for a child (its
/// `Transform` is relative to the parent).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Velocity(pub Vec2);

/// Angular velocity in radians per second, counter-clockwise, about the entity's origin.
/// Integrated like [`Velocity`]; it turns every shape but circles and axis-aligned boxes.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct AngularVelocity(pub f32);

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
/// [`CollisionKind::Ended`]: crate::prelude::CollisionKind::Ended
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Teleport;

/// This tick's motion of a collider in world space, written by the plugin: what was swept,
/// for drawing and debugging ([`path`](Self::path), [`polyline_edges`](Self::polyline_edges)),
/// and what the next tick's motion starts from.
///
/// Every collider keeps one: removed from a collider, it is put back (with one warning) and
/// the collider starts afresh where it is. To switch a collider off, insert
/// [`ColliderDisabled`](crate::prelude::ColliderDisabled).
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Component, Debug, Default, Clone)]
#[component(on_remove = put_back)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct SweptPath {
    /// The motion swept in the last tick it was swept in; `None` before the first tick,
    /// while the collider is skipped as unusable, and for a polyline. A polygon's vertex
    /// paths are on the heap, allocated once per collider and reused: kept inline they
    /// would make this component, which every tick reads and writes for every collider,
    /// several times larger.
    #[reflect(ignore)]
    pub(crate) path: Option<ShapePath<Box<ConvexVertices>>>,
    /// The plane part of the collider's world transform where the last motion ended (a
    /// polyline's motion, and a fresh motion's start, are rebuilt from it).
    #[reflect(ignore)]
    pub(crate) previous_world: Option<PackedPlane>,
    /// A polyline's world plane at the start of the last tick's motion (its end is
    /// `previous_world`).
    #[reflect(ignore)]
    pub(crate) chain_start: Option<PackedPlane>,
    /// Set when the motion starts afresh this tick (a new, re-inserted or teleported
    /// collider): it is not the continuation of the last tick's.
    #[reflect(ignore)]
    pub(crate) fresh: bool,
    /// The collider's motion has had a start since it was spawned (a fresh start in the
    /// prepare phase, or a sweep). A record restored from before that (a state saved
    /// before the collider's first tick, as netcode's first frame is) starts it where it is
    /// at the next prepare phase, as a new collider starts. (A state serialized before
    /// the flag existed reads as started, as those states were restored.)
    #[reflect(ignore)]
    #[cfg_attr(feature = "serialize", serde(default = "started_by_default"))]
    pub(crate) started: bool,
    /// How many ticks in a row (up to 2) the collider's motion was still.
    #[reflect(ignore)]
    pub(crate) still_for: u8,
    /// Resting in the last tick: still for two ticks, unchanged, kept in the broad phase
    /// without being swept again. The one record of whether a collider rests, written by
    /// the gather alone; the `Resting` marker (a filter for the gather's query) and the
    /// resting group's members (`RestingColliders`) are indexes of it, which the rest phase
    /// keeps from the gather's list of the colliders that come to rest and that wake.
    #[reflect(ignore)]
    pub(crate) resting: bool,
    /// The [`Collider::fingerprint`] of the shape last checked: a shape written again
    /// unchanged is not a new shape.
    #[reflect(ignore)]
    pub(crate) shape_key: u64,
    /// Put back by [`SweepState::restore`](crate::SweepState::restore) since the last tick:
    /// its motion goes on from the state, even on a collider just spawned (a restore into a
    /// new app).
    #[reflect(ignore)]
    pub(crate) restored: bool,
    /// Switched off ([`ColliderDisabled`](crate::prelude::ColliderDisabled)) since it was
    /// last swept: switched on again, it starts afresh where it is.
    #[reflect(ignore)]
    pub(crate) switched_off: bool,
    /// Whether the collider's shape can be swept ([`Collider::problem`]), checked when it is
    /// new or changed.
    #[reflect(ignore)]
    pub(crate) shape_check: ShapeCheck,
}

/// What the check of a collider's shape found: kept in the [`SweptPath`], since whether a
/// changed shape was checked decides how its motion goes on (and so is rolled back with it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum ShapeCheck {
    /// New or changed since it was last checked.
    #[default]
    Unchecked,
    /// It can be swept.
    Usable,
    /// It cannot, for this reason.
    Unusable(SkipReason),
}

/// The warnings given about a collider, each once per collider. Kept beside its
/// [`SweptPath`] rather than in it: they change no event, and a rollback need not restore
/// them (a collider brought back by one is warned about anew, at most once).
#[derive(Component, Clone, Copy, Debug, Default)]
pub(crate) struct Warned {
    /// About its shape (once per collider and shape): an axis-aligned box on a rotated
    /// transform, a polyline with repeated points.
    pub(crate) shape: bool,
    /// About how it answers hits (a [`Response`](super::Response) without [`Velocity`], on a
    /// child or a composite shape).
    pub(crate) response: bool,
    /// About turning more than half a turn in a tick.
    pub(crate) turn: bool,
}

/// A [`SweptPath`] removed from a collider that keeps its [`Collider`] is put back, empty: the
/// collider starts afresh where it is (rather than being left out of every tick for good).
fn put_back(mut world: DeferredWorld, context: HookContext) {
    let entity = context.entity;
    world.commands().queue(move |world: &mut World| {
        if let Ok(mut collider) = world.get_entity_mut(entity)
            && collider.contains::<Collider>()
            && !collider.contains::<SweptPath>()
        {
            collider.insert(SweptPath::default());
            log::warn!(
                "bevy_sweep: SweptPath was removed from collider {entity}: every collider keeps \
                 one, so it is put back and the collider starts afresh where it is (to switch \
                 a collider off, insert ColliderDisabled)"
            );
        }
    });
}

/// An [`Affine2`] stored without its 16-byte alignment: 24 bytes instead of 32, so that
/// [`SweptPath`], which every tick reads and writes for every collider, stays small.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
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
    /// The collider cannot be swept: its previous place is forgotten, and the next tick in
    /// which it can starts from where it is then.
    pub(crate) fn skip(&mut self) {
        self.path = None;
        self.previous_world = None;
        self.chain_start = None;
        self.still_for = 0;
        self.resting = false;
        self.fresh = false;
    }

    /// The motion swept in the last tick it was swept in; `None` before the first tick,
    /// while the collider is skipped as unusable, and for a polyline (see
    /// [`polyline_edges`](Self::polyline_edges)).
    #[must_use]
    pub fn path(&self) -> Option<ShapePath> {
        let path = self.path.as_ref()?;
        Some(path.map_convex_ref(|convex| **convex))
    }

    /// Whether the collider rested in the last tick: still for two ticks with nothing
    /// changed, kept in the broad phase without being swept again (see the
    /// [`SweepPlugin`](crate::SweepPlugin) docs). Its contacts are kept and send no events.
    #[must_use]
    pub fn is_resting(&self) -> bool {
        self.resting
    }

    /// Where the last motion ended (read off the stored path, without copying a polygon's
    /// vertex paths).
    pub(crate) fn end(&self) -> Option<Shape> {
        let path = self.path.as_ref()?;
        Some(path.end_with(|convex| Shape::Convex(convex.at(1.0))))
    }

    /// Keeps the motion swept (a polygon's in the storage it already has).
    #[inline]
    pub(crate) fn set_path(&mut self, path: &ShapePath) {
        match (&mut self.path, path) {
            (Some(ShapePath::Convex(stored)), ShapePath::Convex(convex)) => **stored = *convex,
            (stored, path) => *stored = Some(path.map_convex_ref(|&c| Box::new(c))),
        }
    }

    /// Every path swept in the last tick it was swept in: the collider's one
    /// [`path`](Self::path), or a composite shape's elements'
    /// ([`polyline_edges`](Self::polyline_edges)).
    pub fn paths<'a>(&'a self, collider: &'a Collider) -> impl Iterator<Item = ShapePath> + 'a {
        self.path()
            .into_iter()
            .chain(self.polyline_edges(collider).map(|(_, path)| path))
    }

    /// A [composite](Collider::is_composite) shape's motion in the last tick it was swept
    /// in, element by element: each element's number and its path (a polyline's edges, a
    /// polygon's convex pieces, a compound's parts; `path` is `None` for these shapes).
    /// Empty for the other shapes, and before the first tick.
    pub fn polyline_edges<'a>(
        &'a self,
        collider: &'a Collider,
    ) -> impl Iterator<Item = (u32, ShapePath)> + 'a {
        let planes = self
            .chain_start
            .zip(self.previous_world)
            .filter(|_| collider.is_composite())
            .map(|(start, end)| (Affine2::from(start), Affine2::from(end)));
        planes.into_iter().flat_map(move |(start, end)| {
            let mut paths = Vec::new();
            collider.element_pairs([&start, &end], &mut Vec::new(), &mut |k, from, to| {
                let path = ShapePath::between(from, to).unwrap_or_else(|| ShapePath::still(to));
                if path.is_valid() {
                    paths.push((k, path));
                }
            });
            paths
        })
    }
}

/// What a serialized [`SweptPath`] without `started` reads as.
#[cfg(feature = "serialize")]
fn started_by_default() -> bool {
    true
}
