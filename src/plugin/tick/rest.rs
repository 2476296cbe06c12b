//! **Rest**: the resting colliders, kept in the broad phase from tick to tick without being
//! swept again.
//!
//! Reads: from [`Motions`], the colliders that come to rest this tick and the resting ones
//! that were visited (they moved or changed); which resting colliders are gone.
//! Writes: [`RestingColliders`] (their entries and index, rebuilt only when one comes, wakes
//! or goes, and those that woke or went this tick, whose contacts the report brings back),
//! the [`Resting`] markers, and [`SweepStats`]' `resting` and `rest_time`.

use super::entries::{Entries, Group};
use super::gather::{Motions, Resting};
use crate::plugin::{Collider, ColliderDisabled, CollisionLayers, SweepStats, SweptPath};
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::ecs::system::NonSendMarker;
use bevy::math::bounding::Aabb2d;
use bevy::platform::time::Instant;

/// The rest's hand-off: every resting collider, and which stopped resting this tick.
#[derive(Resource, Default)]
pub(crate) struct RestingColliders {
    /// Their entries and the broad phase's index over them.
    pub(crate) group: Group,
    /// Their swept bounds (still), in the order of the entries.
    bounds: Vec<Aabb2d>,
    /// The group's members, for lookups by entity (the report's, for the contacts between
    /// two resting colliders): an index of [`SweptPath`]'s
    /// record of rest, kept with the group.
    pub(crate) entities: EntityHashSet,
    /// Colliders that rested until this tick and no longer do as they did: moved, changed,
    /// skipped or gone. Their contacts with other resting colliders are swept again, or end.
    pub(crate) woken: Vec<Entity>,
    /// The group changed this tick (the queries' snapshot copies it then).
    pub(crate) changed: bool,
    /// Emptied by a [`SweepState`](crate::SweepState) restore since the last tick: the
    /// queries' snapshot, restored with the resting colliders of its day, must take the
    /// group as it now is (a collider despawned since the restore is gone from it).
    pub(crate) restored: bool,
    /// Scratch for the rebuild.
    kept: Entries,
    kept_bounds: Vec<Aabb2d>,
}

/// Every collider that rests, and only those, with the marker and in the group (one switched
/// off no longer does).
type StillResting = (
    With<Resting>,
    Without<ColliderDisabled>,
    With<Collider>,
    With<SweptPath>,
    With<CollisionLayers>,
);

/// Takes the colliders that came to rest into the resting group and drops those that woke
/// or went, rebuilding the group's index only when something changed.
pub(crate) fn rest(
    _main_thread: NonSendMarker,
    mut commands: Commands,
    motions: Res<Motions>,
    mut resting: ResMut<RestingColliders>,
    still_resting: Query<(), StillResting>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    let resting = &mut *resting;
    resting.woken.clear();
    resting.woken.extend_from_slice(&motions.woken);
    // Resting colliders gone since the last tick (despawned, switched off, or no longer
    // colliders).
    if still_resting.iter().len() != resting.entities.len() {
        let woken: EntityHashSet = motions.woken.iter().copied().collect();
        resting.woken.extend(
            resting
                .entities
                .iter()
                .filter(|&&e| !woken.contains(&e) && !still_resting.contains(e)),
        );
    }
    resting.changed = core::mem::take(&mut resting.restored)
        || !resting.woken.is_empty()
        || !motions.resting.list.is_empty();
    if resting.changed {
        update_markers(&mut commands, &motions, resting);
        resting.rebuild(&motions);
    }
    stats.resting = resting.group.len();
    stats.rest_time = began.elapsed();
}

/// Inserts the [`Resting`] marker on the colliders that came to rest, and removes it from
/// those that woke (and do not rest again at once).
fn update_markers(commands: &mut Commands, motions: &Motions, resting: &RestingColliders) {
    let coming: EntityHashSet = motions.resting.list.iter().map(|e| e.entity).collect();
    for &entity in &resting.woken {
        if !coming.contains(&entity)
            && let Ok(mut entity) = commands.get_entity(entity)
        {
            entity.try_remove::<Resting>();
        }
    }
    for &entity in &coming {
        if !resting.entities.contains(&entity) {
            commands.entity(entity).try_insert(Resting);
        }
    }
}

impl RestingColliders {
    /// None, after a restore: the colliders are swept again until they rest again.
    pub(crate) fn after_restore() -> Self {
        Self {
            restored: true,
            ..Self::default()
        }
    }

    /// The group without the woken colliders, with those that came to rest; its index
    /// rebuilt.
    fn rebuild(&mut self, motions: &Motions) {
        for entity in &self.woken {
            self.entities.remove(entity);
        }
        self.kept.clear();
        self.kept_bounds.clear();
        for (i, entry) in self.group.entries.list.iter().enumerate() {
            if self.entities.contains(&entry.entity) {
                self.kept.push(*entry, &self.group.entries.resolve(entry));
                self.kept_bounds.push(self.bounds[i]);
            }
        }
        for (i, entry) in motions.resting.list.iter().enumerate() {
            self.entities.insert(entry.entity);
            self.kept.push(*entry, &motions.resting.path(i));
            self.kept_bounds.push(motions.resting_bounds[i]);
        }
        core::mem::swap(&mut self.kept, &mut self.group.entries);
        core::mem::swap(&mut self.kept_bounds, &mut self.bounds);
        self.group.index.build(&self.bounds);
    }
}
