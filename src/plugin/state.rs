//! [`SweepState`]: everything the sweep keeps from one tick to the next, saved and restored
//! as a value, for rollback.

use super::components::{Composites, Pending};
use super::tick::gather::Resting;
use super::tick::publish::Snapshot;
use super::tick::report::TickCount;
use super::tick::rest::RestingColliders;
use super::{
    CharacterState, Collider, CollidingEntities, Contacts, KinematicCharacter, SkippedColliders,
    SweptPath,
};
use bevy::ecs::prelude::*;

/// Everything the sweep keeps from one tick to the next, as one value: save it with the rest
/// of your world at a tick, restore it with the world, and the ticks that follow send the
/// same events, touch the same contacts and move the same characters as they did the first
/// time. This is what rollback netcode (`bevy_ggrs` and the like) needs of a collision crate.
///
/// It holds each collider's [`SweptPath`] (where its motion starts), each
/// [`CharacterState`] and [`CollidingEntities`], the [`Contacts`] and [`SkippedColliders`]
/// resources, and the colliders as the last tick left them for the queries (which the next
/// tick's characters and your systems ask), with the shapes that name a polygon's or a
/// compound's features (so that a query right after a restore names the features it named
/// at the save; shared, not copied, by each save). The broad phase's group of resting colliders is
/// not in it: after a restore they are swept again until they come to rest again, which
/// changes no event.
///
/// Your own components ([`Transform`](bevy::transform::components::Transform),
/// [`Velocity`](super::Velocity), [`Collider`], …) are yours to save and restore, before
/// this state or after it. The state names colliders by `Entity`, and a record naming no
/// collider is left out: when you restore, the colliders it names must exist (spawn the ones
/// despawned since before you restore it; despawn the ones spawned since). Rollback crates
/// differ here: `bevy_ggrs` brings a despawned entity back under a **new** `Entity` id and
/// gives a map from the old ids to the new ones; pass the state through
/// [`mapped`](Self::mapped) with that map before restoring it. With `bevy_ggrs`, the `ggrs`
/// feature's `SweepRollbackPlugin` does all of this.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SweepPlugin::default()));
/// let ball = app
///     .world_mut()
///     .spawn((Collider::circle(1.0), Velocity(Vec2::new(30.0, 0.0))))
///     .id();
/// app.update();
///
/// // Save at this tick: your components, and the sweep's state.
/// let saved_transform = *app.world().get::<Transform>(ball).unwrap();
/// let saved = SweepState::save(app.world_mut());
///
/// app.update(); // ... ticks that a correction from the network makes wrong
///
/// // Roll back: your components first, then the sweep's state; then tick again.
/// app.world_mut().entity_mut(ball).insert(saved_transform);
/// saved.restore(app.world_mut());
/// app.update();
/// ```
#[derive(Clone)]
#[must_use]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct SweepState {
    /// Each collider's `SweptPath`, by entity (in entity order).
    colliders: Vec<(Entity, SweptPath)>,
    characters: Vec<(Entity, CharacterState)>,
    colliding: Vec<(Entity, CollidingEntities)>,
    contacts: Contacts,
    skipped: SkippedColliders,
    /// The colliders as the last tick left them, which the queries read.
    snapshot: Snapshot,
    /// The shapes that name the composite colliders' features (in entity order), so that a
    /// query right after a restore names what it named at the save.
    composites: Vec<(Entity, std::sync::Arc<Collider>)>,
    /// The report's tick count: the contacts' records are marked with it.
    tick: u64,
}

impl core::fmt::Debug for SweepState {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SweepState")
            .field("colliders", &self.colliders.len())
            .field("characters", &self.characters.len())
            .field("contacts", &self.contacts.len())
            .field("skipped", &self.skipped.len())
            .field("tick", &self.tick)
            .finish_non_exhaustive()
    }
}

impl SweepState {
    /// The sweep's state now (between two ticks). Needs the [`SweepPlugin`](crate::SweepPlugin).
    pub fn save(world: &mut World) -> Self {
        fn all<C: Component + Clone>(world: &mut World) -> Vec<(Entity, C)> {
            let mut query = world.query::<(Entity, &C)>();
            let mut all: Vec<(Entity, C)> =
                query.iter(world).map(|(e, c)| (e, c.clone())).collect();
            all.sort_unstable_by_key(|(e, _)| *e);
            all
        }
        Self {
            colliders: all::<SweptPath>(world),
            characters: all::<CharacterState>(world),
            colliding: all::<CollidingEntities>(world),
            contacts: world.resource::<Contacts>().clone(),
            skipped: world.resource::<SkippedColliders>().clone(),
            snapshot: world.resource::<Snapshot>().clone(),
            composites: {
                let mut all: Vec<_> = world
                    .resource::<Composites>()
                    .0
                    .iter()
                    .map(|(e, c)| (*e, c.clone()))
                    .collect();
                all.sort_unstable_by_key(|(e, _)| *e);
                all
            },
            tick: world.resource::<TickCount>().0,
        }
    }

    /// A hash of what decides the ticks to come: where each collider's motion starts, which
    /// were switched off, where each character stands, each contact (where it started). It
    /// names no entity (a rollback crate may bring entities back under other ids, and gives
    /// those spawned again in a re-simulated frame other stable ids too), and is the same
    /// for the same state whatever the order of its parts. The resting colliders are not in
    /// it: a restore sweeps them again without changing any event.
    #[must_use]
    pub fn checksum(&self) -> u64 {
        fn part(f: impl FnOnce(&mut std::hash::DefaultHasher)) -> u64 {
            let mut hasher = std::hash::DefaultHasher::new();
            f(&mut hasher);
            std::hash::Hasher::finish(&hasher)
        }
        fn bits(h: &mut std::hash::DefaultHasher, values: &[f32]) {
            for v in values {
                std::hash::Hash::hash(&v.to_bits(), h);
            }
        }
        let mut total = 0_u64;
        for (_, swept) in &self.colliders {
            total = total.wrapping_add(part(|h| {
                std::hash::Hash::hash(&(0_u8, swept.fresh, swept.started, swept.switched_off), h);
                for plane in [swept.previous_world, swept.chain_start]
                    .into_iter()
                    .flatten()
                {
                    bits(h, &bevy::math::Affine2::from(plane).to_cols_array());
                }
                if let Some(path) = swept.path() {
                    let b = path.swept_bounds();
                    bits(h, &[b.min.x, b.min.y, b.max.x, b.max.y]);
                }
            }));
        }
        for (_, state) in &self.characters {
            total = total.wrapping_add(part(|h| {
                std::hash::Hash::hash(&(1_u8, state.grounded, state.grounded_ticks), h);
                let normal = state.ground_normal.unwrap_or_default();
                bits(h, &[normal.x, normal.y, state.moved.x, state.moved.y]);
            }));
        }
        for contact in self.contacts.iter() {
            total = total.wrapping_add(part(|h| {
                let e = &contact.started;
                std::hash::Hash::hash(&2_u8, h);
                // Seen from either side alike.
                bits(
                    h,
                    &[
                        e.time_of_impact,
                        e.point.x,
                        e.point.y,
                        e.normal.x.abs(),
                        e.normal.y.abs(),
                    ],
                );
            }));
        }
        total
    }

    /// The same state with every entity it names passed through `map`: for a rollback crate
    /// that brings a despawned entity back under another id (`bevy_ggrs` does), with the old
    /// ids mapped to the new ones. Entities `map` leaves alone are kept.
    pub fn mapped(mut self, map: impl Fn(Entity) -> Entity) -> Self {
        for (entity, _) in &mut self.colliders {
            *entity = map(*entity);
        }
        for (entity, state) in &mut self.characters {
            *entity = map(*entity);
            state.ground_entity = state.ground_entity.map(&map);
        }
        for (entity, colliding) in &mut self.colliding {
            *entity = map(*entity);
            colliding.0 = colliding.0.iter().map(|&e| map(e)).collect();
        }
        self.colliders.sort_unstable_by_key(|(e, _)| *e);
        self.characters.sort_unstable_by_key(|(e, _)| *e);
        self.colliding.sort_unstable_by_key(|(e, _)| *e);
        self.contacts.map_entities(&map);
        self.skipped.reasons = self
            .skipped
            .reasons
            .drain()
            .map(|(e, reason)| (map(e), reason))
            .collect();
        self.snapshot.map_entities(&map);
        for (entity, _) in &mut self.composites {
            *entity = map(*entity);
        }
        self.composites.sort_unstable_by_key(|(e, _)| *e);
        self
    }

    /// Puts the sweep back as it was when this state was saved. Restore your own components
    /// to the same moment (before or after: inserting or removing a
    /// [`ColliderDisabled`](super::ColliderDisabled) changes nothing this restores). The
    /// state names entities and does not map them: for entities brought back under new ids,
    /// restore [`mapped`](Self::mapped) first.
    pub fn restore(&self, world: &mut World) {
        // Onto the entities that are still what they were: a collider's record on a
        // collider, a character's state on a character, the colliding entities where they
        // are kept (an id that now names a plain entity gets nothing).
        fn put_back<C: Component + Clone, Is: Component>(world: &mut World, all: &[(Entity, C)]) {
            for (entity, component) in all {
                if let Ok(mut entity) = world.get_entity_mut(*entity)
                    && entity.contains::<Is>()
                {
                    entity.insert(component.clone());
                }
            }
        }
        for (entity, swept) in &self.colliders {
            if let Ok(mut entity) = world.get_entity_mut(*entity)
                && entity.contains::<Collider>()
            {
                entity.insert(SweptPath {
                    restored: true,
                    ..swept.clone()
                });
            }
        }
        // The colliders the prepare phase looks at: those whose record says they were off
        // (for being switched on again), and those saved before their motion had a start
        // (to start where they are then, as new colliders do).
        let pending = self
            .colliders
            .iter()
            .filter(|(e, swept)| {
                (swept.switched_off || !swept.started) && world.get::<Collider>(*e).is_some()
            })
            .map(|(e, _)| *e)
            .collect();
        world.insert_resource(Pending(pending));
        put_back::<_, KinematicCharacter>(world, &self.characters);
        put_back::<_, CollidingEntities>(world, &self.colliding);
        world.insert_resource(self.contacts.clone());
        world.insert_resource(self.skipped.clone());
        world.insert_resource(self.snapshot.clone());
        world.insert_resource(Composites(self.composites.iter().cloned().collect()));
        // Records are marked with the tick they were last swept in: the count must only grow.
        let mut count = world.resource_mut::<TickCount>();
        count.0 = count.0.max(self.tick);
        // The resting group is rebuilt: every collider is swept again until it rests again.
        world.insert_resource(RestingColliders::after_restore());
        let resting: Vec<Entity> = world
            .query_filtered::<Entity, With<Resting>>()
            .iter(world)
            .collect();
        for entity in resting {
            world.entity_mut(entity).remove::<Resting>();
        }
    }
}
