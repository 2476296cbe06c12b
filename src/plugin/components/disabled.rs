//! [`ColliderDisabled`]: a collider switched off for a while.

use super::SweptPath;
use crate::plugin::tick::publish::Snapshot;
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
///   what it overlaps there starts a contact at time 0 of the next tick.
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
#[component(on_add = hide_from_queries, on_remove = start_afresh)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct ColliderDisabled;

/// The queries read where the last tick left each collider: take a collider switched off
/// since out of it at once.
fn hide_from_queries(mut world: DeferredWorld, context: HookContext) {
    if let Some(mut snapshot) = world.get_resource_mut::<Snapshot>() {
        snapshot.hide(context.entity);
    }
}

/// Switched on again: the next motion starts where the collider is, as after a [`Teleport`]
/// (its last place is forgotten). A [`SweepState`](crate::SweepState) restored afterwards
/// puts its saved motion back, so a rollback that removes the marker replays exactly.
fn start_afresh(mut world: DeferredWorld, context: HookContext) {
    if let Some(mut swept) = world.get_mut::<SweptPath>(context.entity) {
        swept.skip();
    }
}
