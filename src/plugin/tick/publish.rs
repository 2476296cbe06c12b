//! **Publish**: what the tick leaves for the rest of the app to read.
//!
//! Reads: the tick's entries ([`Paths`]), the index over them ([`CandidatePairs`]), the
//! resting colliders ([`RestingColliders`]), the one-way directions ([`Solids`]), and the
//! entities whose contacts changed ([`Contacts`]).
//! Writes: the [`Snapshot`] that [`SweepQuery`](crate::query::SweepQuery) reads (the tick's
//! entries and index copied into the snapshot's own buffers, which keep their allocations;
//! the resting group copied when it changed), and [`CollidingEntities`].

use super::broad::CandidatePairs;
use super::entries::Group;
use super::gather::Motions;
use super::respond::Paths;
use super::respond::Solids;
use super::rest::RestingColliders;
use crate::plugin::{CollidingEntities, CollisionLayers, Contacts};
use bevy::ecs::entity::{EntityHashMap, EntityHashSet};
use bevy::ecs::prelude::*;
use bevy::ecs::system::NonSendMarker;
use bevy::math::Vec2;
use std::sync::OnceLock;

/// Every collider where the last tick left it, and the broad phase's index over them: what
/// the queries read, published whole at the end of each tick.
#[derive(Resource, Clone, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Snapshot {
    /// The colliders swept in the last tick.
    pub(crate) swept: Group,
    /// The resting colliders.
    pub(crate) resting: Group,
    /// Each [`OneWay`](crate::prelude::OneWay) collider's direction in the world.
    pub(crate) one_way: EntityHashMap<Vec2>,
    /// Each collider's entries (group, first, count: a polyline's edges are consecutive),
    /// built on the first query that needs it after each tick.
    #[cfg_attr(feature = "serialize", serde(skip))]
    places: OnceLock<EntityHashMap<(u8, u32, u32)>>,
}

impl Snapshot {
    /// Both groups, swept first.
    pub(crate) fn groups(&self) -> [&Group; 2] {
        [&self.swept, &self.resting]
    }

    /// `entity`'s entries where the last tick left it: its group and their indices (a
    /// polyline's edges; for a responder, the last piece of its path).
    pub(crate) fn entries_of(&self, entity: Entity) -> Option<(&Group, core::ops::Range<usize>)> {
        let places = self.places.get_or_init(|| {
            let mut places = EntityHashMap::default();
            for (g, group) in (0u8..).zip(self.groups()) {
                for (i, entry) in (0u32..).zip(&group.entries.list) {
                    if entry.passed() {
                        continue;
                    }
                    places
                        .entry(entry.entity)
                        .and_modify(|(_, first, count): &mut (u8, u32, u32)| {
                            if *first + *count == i {
                                *count += 1;
                            }
                        })
                        .or_insert((g, i, 1));
                }
            }
            places
        });
        let &(g, first, count) = places.get(&entity)?;
        let group = self.groups()[g as usize];
        Some((group, first as usize..(first + count) as usize))
    }
}

impl Snapshot {
    /// The same colliders with every entity they name passed through `map` (a rollback's
    /// entities brought back under other ids).
    pub(crate) fn map_entities(&mut self, map: &impl Fn(Entity) -> Entity) {
        for group in [&mut self.swept, &mut self.resting] {
            for entry in &mut group.entries.list {
                entry.entity = map(entry.entity);
                entry.body = entry.body.map(map);
            }
        }
        self.one_way = self.one_way.drain().map(|(e, d)| (map(e), d)).collect();
        self.places = OnceLock::new();
    }

    /// Takes a collider switched off since the last tick
    /// ([`ColliderDisabled`](crate::prelude::ColliderDisabled)) out of what the queries find:
    /// its entries no longer belong to any layer, nor are they found by entity. (The next
    /// tick leaves it out altogether.)
    pub(crate) fn hide(&mut self, entity: Entity) {
        let Some((group, range)) = self
            .entries_of(entity)
            .map(|(group, range)| (core::ptr::eq(group, &self.swept), range))
        else {
            return;
        };
        let group = if group {
            &mut self.swept
        } else {
            &mut self.resting
        };
        for entry in &mut group.entries.list[range] {
            entry.layers = CollisionLayers::NONE;
        }
        // Nor is it found by entity (`SweepQuery::contact`).
        if let Some(places) = self.places.get_mut() {
            places.remove(&entity);
        }
    }
}

/// Publishes the tick's colliders to the queries: a copy, so that nothing the tick hands
/// on is written back.
pub(crate) fn publish(
    _main_thread: NonSendMarker,
    mut snapshot: ResMut<Snapshot>,
    motions: Res<Motions>,
    paths: Res<Paths>,
    candidates: Res<CandidatePairs>,
    resting: Res<RestingColliders>,
    solids: Res<Solids>,
) {
    let snapshot = &mut *snapshot;
    snapshot.one_way.clone_from(&solids.one_way);
    snapshot.places = OnceLock::new();
    snapshot.swept.entries.copy_from(paths.entries(&motions));
    snapshot.swept.index.copy_from(&candidates.index);
    if resting.changed {
        snapshot.resting.copy_from(&resting.group);
    }
}

/// Keeps [`CollidingEntities`] up to date: those of the entities whose contacts changed in
/// this tick, and those inserted since the last.
pub(crate) fn colliding_entities(
    _main_thread: NonSendMarker,
    contacts: Res<Contacts>,
    mut queries: ParamSet<(
        Query<&mut CollidingEntities>,
        Query<Entity, Added<CollidingEntities>>,
    )>,
    mut added: Local<Vec<Entity>>,
    mut now: Local<EntityHashSet>,
) {
    added.clear();
    added.extend(&queries.p1());
    let mut colliding = queries.p0();
    if colliding.is_empty() {
        return;
    }
    for entity in contacts.changed().iter().chain(added.iter()).copied() {
        let Ok(mut set) = colliding.get_mut(entity) else {
            continue;
        };
        now.clear();
        now.extend(contacts.touching(entity));
        // Changed only if it changed (several contacts may have come and gone).
        if set.0 != *now {
            set.0.clone_from(&now);
        }
    }
}
