//! [`ColliderDisabled`]: a collider switched off for a while.

use super::SweptPath;
use crate::plugin::tick::publish::Snapshot;
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::prelude::*;
use bevy::ecs::world::DeferredWorld;
use bevy::reflect::prelude::*;

/// Switches a collider off without removing it: while the marker is on, the collider is not
/// swept, answers no hit and is found by no [`SweepQuery`](crate::prelude::SweepQuery).
///
/// - Its contacts end at the next tick, each with an
///   [`Ended`](crate::prelude::CollisionKind::Ended) event at time 0, as when it is
///   despawned.
/// - The queries stop finding it as soon as the marker is inserted.
/// - Its [`Transform`](bevy::transform::components::Transform) still moves by its
///   [`Velocity`](crate::prelude::Velocity) (a disabled
///   [`KinematicCharacter`](crate::prelude::KinematicCharacter) moves by it through
///   everything).
/// - Removing the marker starts the collider afresh where it is then, as a
///   [`Teleport`](crate::prelude::Teleport) does: where it went while off is not swept, and
///   what it overlaps there starts a contact at time 0 of the next tick. Its record (in its
///   [`SweptPath`]) says it was off, so a rollback that removes or inserts the marker and
///   restores the sweep's state, in either order, replays the tick exactly.
/// - A disabled [`KinematicCharacter`](crate::prelude::KinematicCharacter)'s
///   [`CharacterState`](crate::prelude::CharacterState) keeps what the last tick it was on
///   wrote.
///
/// The marker acts on the collider it is on, not on a [`Body`](crate::prelude::Body)'s
/// children.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// /// A trap door that opens and closes: open, nothing rests on it or hits it.
/// fn toggle(mut commands: Commands, keys: Res<ButtonInput<KeyCode>>, doors: Query<(Entity, Has<ColliderDisabled>), With<Collider>>) {
///     if keys.just_pressed(KeyCode::KeyE) {
///         for (door, open) in &doors {
///             if open {
///                 commands.entity(door).remove::<ColliderDisabled>();
///             } else {
///                 commands.entity(door).insert(ColliderDisabled);
///             }
///         }
///     }
/// }
/// # App::new().add_systems(Update, toggle);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
#[component(on_add = switch_off)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct ColliderDisabled;

/// Switched off: the queries, which read where the last tick left each collider, stop finding
/// it at once, and its record says it was off, so that when the marker goes the next tick
/// starts it afresh where it is.
///
/// The record is the collider's [`SweptPath`], part of what a rollback saves and restores,
/// and marking it is the same whenever it is done: removing the marker changes nothing at
/// once. (A hook that forgot the collider's place on removal ran when a rollback crate
/// removed the marker, before or after the sweep's state was restored, and the replay then
/// swept the collider differently from the first run.)
fn switch_off(mut world: DeferredWorld, context: HookContext) {
    let entity = context.entity;
    if let Some(mut snapshot) = world.get_resource_mut::<Snapshot>() {
        snapshot.hide(entity);
    }
    if let Some(mut swept) = world.get_mut::<SweptPath>(entity) {
        swept.switched_off = true;
    }
    if let Some(mut off) = world.get_resource_mut::<Pending>() {
        off.0.insert(entity);
    }
}

/// The colliders the prepare phase looks at besides the new, changed and teleported ones:
/// those whose [`SweptPath`] says they were switched off (for being switched on again), and
/// those restored from a state saved before their motion had a start (to start where they
/// are, as new colliders do). Rebuilt from the records by a
/// [`SweepState`](crate::SweepState) restore.
#[derive(Resource, Default)]
pub(crate) struct Pending(pub(crate) EntityHashSet);
