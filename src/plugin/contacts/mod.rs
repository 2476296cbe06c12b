//! [`Contacts`]: the pairs in contact between ticks, kept by the report's serial commit.

mod neighbours;

use super::events::{CollisionEvent, Touch};
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::ecs::reflect::ReflectResource;
use bevy::platform::collections::HashMap;
use bevy::platform::collections::hash_map::Entry;
use bevy::reflect::prelude::*;
use neighbours::{Links, Neighbours};

/// Pairs of colliders in contact at the end of the last tick (a contact that has
/// [`Started`](super::CollisionKind::Started) and not yet [`Ended`](super::CollisionKind::Ended)).
///
/// Written by the plugin at the end of each tick ([`SweepSystems::Report`](crate::SweepSystems::Report));
/// reading it changes nothing. Each contact keeps the event that started it; where a lasting
/// pair touches now (its point and normal after the last tick) is
/// [`SweepQuery::contact`](crate::prelude::SweepQuery::contact). Reflected without its contents (an inspector shows the
/// resource, not its tables): read it through its methods.
#[derive(Resource, Clone, Default, Debug, Reflect)]
#[reflect(Resource, Default, Debug, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Contacts {
    /// Each pair's record: its slot in `records`, and its state (kept here too, so that the
    /// report reads a pair's state in one lookup).
    #[reflect(ignore)]
    index: HashMap<(Entity, Entity), (u32, Touch)>,
    /// The records; a freed slot is reused.
    #[reflect(ignore)]
    records: Vec<Record>,
    /// The tick each record was last swept in, by slot (apart from the records, so that
    /// marking and checking it reads little).
    #[reflect(ignore)]
    seen: Vec<u64>,
    #[reflect(ignore)]
    free: Vec<u32>,
    /// The slots of the pairs swept in the last tick (with a collider that was not resting).
    #[reflect(ignore)]
    active: Vec<u32>,
    /// The slots of the pairs of two resting colliders (still, unchanged, not swept): their
    /// contact cannot change until one of them moves, changes or goes.
    #[reflect(ignore)]
    resting: Vec<u32>,
    /// Scratch: the slots swept in the tick being committed.
    #[reflect(ignore)]
    next_active: Vec<u32>,
    /// For each collider in contact, the colliders it touches; for each [`Body`] with one,
    /// the colliders its own touch (once per contact, so a collider may be there twice).
    ///
    /// [`Body`]: super::Body
    #[reflect(ignore)]
    neighbours: Neighbours,
    /// Entities (colliders and bodies) whose contacts changed in the last tick (an entity
    /// may be there several times).
    #[reflect(ignore)]
    changed: Vec<Entity>,
}

/// The contact state of a pair between ticks.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Record {
    key: (Entity, Entity),
    pub(crate) state: Touch,
    /// The last event of the pair, seen from the first entity: the place of an `Ended` sent
    /// when one of them disappears.
    pub(crate) last: CollisionEvent,
    /// Its nodes in the neighbour lists while in contact.
    links: Links,
}

/// One contact in [`Contacts`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// One entity of the pair (the smaller).
    pub entity: Entity,
    /// The other entity.
    pub other: Entity,
    /// The event that started the contact.
    pub started: CollisionEvent,
}

impl Contacts {
    /// The key of a pair: smaller entity first.
    fn key(a: Entity, b: Entity) -> (Entity, Entity) {
        (a.min(b), a.max(b))
    }

    /// `true` if `a` and `b` are in contact (in either order).
    #[must_use]
    pub fn contains(&self, a: Entity, b: Entity) -> bool {
        self.lookup(&Self::key(a, b))
            .is_some_and(|(_, state)| state == Touch::Touching)
    }

    /// Every pair in contact, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = Contact> + '_ {
        self.active
            .iter()
            .chain(&self.resting)
            .map(|&slot| &self.records[slot as usize])
            .filter(|r| r.state == Touch::Touching)
            .map(|r| Contact {
                entity: r.key.0,
                other: r.key.1,
                started: r.last,
            })
    }

    /// Every collider in contact with `entity` (a collider, or a [`Body`] for its
    /// colliders' contacts), each once, in time proportional to its contacts.
    ///
    /// [`Body`]: super::Body
    pub fn touching(&self, entity: Entity) -> impl Iterator<Item = Entity> + '_ {
        let mut seen = EntityHashSet::default();
        self.neighbours.of(entity).filter(move |&e| seen.insert(e))
    }

    /// The number of pairs in contact.
    #[must_use]
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// `true` if no pair is in contact.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }

    /// Entities (colliders and bodies) whose contacts changed in the last tick (an entity
    /// may be there several times).
    pub(crate) fn changed(&self) -> &[Entity] {
        &self.changed
    }

    /// The slot and state of a pair's record (smaller entity first).
    #[inline]
    pub(crate) fn lookup(&self, key: &(Entity, Entity)) -> Option<(u32, Touch)> {
        self.index.get(key).copied()
    }

    /// The last event of the record in `slot`.
    #[inline]
    pub(crate) fn last(&self, slot: u32) -> CollisionEvent {
        self.records[slot as usize].last
    }

    /// Starts committing a tick: brings back the pairs of the resting colliders in `woken`,
    /// which no longer rest (they moved, changed or are gone), to be swept again or ended.
    pub(crate) fn begin_tick(&mut self, woken: &EntityHashSet) {
        self.changed.clear();
        self.next_active.clear();
        if woken.is_empty() || self.resting.is_empty() {
            return;
        }
        let (records, active) = (&self.records, &mut self.active);
        self.resting.retain(|&slot| {
            let (a, b) = records[slot as usize].key;
            let wake = woken.contains(&a) || woken.contains(&b);
            if wake {
                active.push(slot);
            }
            !wake
        });
    }

    /// Makes room for up to `additional` new records (what a tick's commit may add), so
    /// that a tick which starts many contacts at once grows each table once, to its size,
    /// rather than by doubling.
    pub(crate) fn reserve(&mut self, additional: usize) {
        let grow = additional.saturating_sub(self.free.len());
        if grow == 0 {
            return;
        }
        self.records.reserve(grow);
        self.seen.reserve(grow);
        self.next_active.reserve(additional);
        self.index.reserve(grow);
        self.neighbours.reserve(2 * grow);
    }

    /// Marks a pair's record swept in `tick`, unchanged.
    #[inline]
    pub(crate) fn keep(&mut self, slot: u32, tick: u64) {
        self.seen[slot as usize] = tick;
        self.next_active.push(slot);
    }

    /// Sets the record of a pair swept in `tick` (`None`: no contact); returns the state of
    /// the one it replaces. The index is probed once.
    pub(crate) fn set(
        &mut self,
        a: Entity,
        b: Entity,
        new: Option<(Touch, CollisionEvent)>,
        tick: u64,
    ) -> Option<Touch> {
        let key = Self::key(a, b);
        match self.index.entry(key) {
            Entry::Occupied(mut found) => {
                let slot = found.get().0;
                match new {
                    Some((state, _)) => {
                        found.insert((slot, state));
                    }
                    None => {
                        found.remove();
                    }
                }
                Some(self.replace(slot, new, tick))
            }
            Entry::Vacant(vacant) => {
                let (state, last) = new?;
                let slot = self
                    .free
                    .last()
                    .copied()
                    .unwrap_or(self.records.len() as u32);
                vacant.insert((slot, state));
                let links = if state == Touch::Touching {
                    self.neighbours.link(&last, &mut self.changed)
                } else {
                    Links::NONE
                };
                self.insert(
                    Record {
                        key,
                        state,
                        last,
                        links,
                    },
                    tick,
                );
                None
            }
        }
    }

    /// Replaces the record in `slot` (`None`: the contact is gone, and its slot is freed);
    /// returns the old state. The neighbour lists follow: a contact that
    /// begins or ends is linked or unlinked, and one whose sides' bodies changed (reparented,
    /// a `Body` added or removed above it) is linked again under the new bodies.
    fn replace(&mut self, slot: u32, new: Option<(Touch, CollisionEvent)>, tick: u64) -> Touch {
        self.seen[slot as usize] = tick;
        let record = &mut self.records[slot as usize];
        let old = record.state;
        let touching = new.filter(|(state, _)| *state == Touch::Touching);
        let moved = |last: &CollisionEvent, now: &CollisionEvent| {
            (last.body, last.other_body) != (now.body, now.other_body)
        };
        if record.links != Links::NONE && touching.is_none_or(|(_, now)| moved(&record.last, &now))
        {
            self.neighbours
                .unlink(record.links, &record.last, &mut self.changed);
            record.links = Links::NONE;
        }
        match new {
            Some((state, last)) => {
                (record.state, record.last) = (state, last);
                if touching.is_some() && record.links == Links::NONE {
                    record.links = self.neighbours.link(&last, &mut self.changed);
                }
                self.next_active.push(slot);
            }
            None => self.free.push(slot),
        }
        old
    }

    /// Adds a new record, in the last free slot if there is one (the index already names
    /// that slot).
    fn insert(&mut self, record: Record, tick: u64) {
        let slot = match self.free.pop() {
            Some(slot) => {
                self.records[slot as usize] = record;
                self.seen[slot as usize] = tick;
                slot
            }
            None => {
                self.records.push(record);
                self.seen.push(tick);
                (self.records.len() - 1) as u32
            }
        };
        self.next_active.push(slot);
    }

    /// Ends the commit of tick `tick`: the pairs swept in the last tick and not in this one
    /// rest if both their colliders do (`resting`); the others are left to `ended`, which
    /// sends an `Ended` for those in contact, and forgotten.
    pub(crate) fn close_tick(
        &mut self,
        tick: u64,
        resting: &EntityHashSet,
        mut ended: impl FnMut(&Record),
    ) {
        for k in 0..self.active.len() {
            let slot = self.active[k];
            if self.seen[slot as usize] == tick {
                continue;
            }
            let record = &self.records[slot as usize];
            let (a, b) = record.key;
            if resting.contains(&a) && resting.contains(&b) {
                self.resting.push(slot);
                continue;
            }
            if record.state == Touch::Touching {
                ended(record);
            }
            let key = record.key;
            let record = &mut self.records[slot as usize];
            if record.links != Links::NONE {
                self.neighbours
                    .unlink(record.links, &record.last, &mut self.changed);
                record.links = Links::NONE;
            }
            self.index.remove(&key);
            self.free.push(slot);
        }
        core::mem::swap(&mut self.active, &mut self.next_active);
        self.next_active.clear();
    }
}

impl Contacts {
    /// The same contacts with every entity they name passed through `map` (entities a
    /// rollback brought back under other ids): each pair's key and last event, its place in
    /// the index, and the neighbour lists, rebuilt.
    pub(crate) fn map_entities(&mut self, map: &impl Fn(Entity) -> Entity) {
        let live: Vec<u32> = self.index.values().map(|&(slot, _)| slot).collect();
        self.index.clear();
        self.neighbours = Neighbours::default();
        for slot in live {
            let record = &mut self.records[slot as usize];
            let mut last = record.last;
            last.entity = map(last.entity);
            last.other = map(last.other);
            last.body = last.body.map(map);
            last.other_body = last.other_body.map(map);
            let key = Self::key(last.entity, last.other);
            // The last event is seen from the pair's first entity.
            if last.entity != key.0 {
                last = last.flipped();
            }
            record.key = key;
            record.last = last;
            record.links = if record.state == Touch::Touching {
                self.neighbours.link(&last, &mut self.changed)
            } else {
                Links::NONE
            };
            self.index.insert(key, (slot, record.state));
        }
        for entity in &mut self.changed {
            *entity = map(*entity);
        }
    }
}

impl Record {
    /// The pair, smaller entity first.
    pub(crate) fn key(&self) -> (Entity, Entity) {
        self.key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugin::CollisionKind;
    use bevy::math::Vec2;
    use bevy::platform::collections::HashMap;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn event(
        a: Entity,
        b: Entity,
        body: Option<Entity>,
        other_body: Option<Entity>,
    ) -> CollisionEvent {
        CollisionEvent {
            entity: a,
            other: b,
            kind: CollisionKind::Started,
            time_of_impact: 0.5,
            point: Vec2::ZERO,
            normal: Vec2::X,
            relative_velocity: Vec2::ZERO,
            along: None,
            other_along: None,
            feature: None,
            other_feature: None,
            body,
            other_body,
        }
    }

    /// Random ticks of contacts coming, going, changing bodies and resting, against a plain
    /// map of the pairs: what is in contact, what each entity and body touches, and the
    /// contacts ended because their pair was not swept.
    #[test]
    fn contacts_follow_a_plain_map_of_the_pairs() {
        let mut rng = ChaCha8Rng::seed_from_u64(0xc0_ffee);
        let mut world = World::new();
        let colliders: Vec<Entity> = (0..24).map(|_| world.spawn_empty().id()).collect();
        let bodies: Vec<Entity> = (0..3).map(|_| world.spawn_empty().id()).collect();
        let mut contacts = Contacts::default();
        // The model: each pair's state and last event.
        let mut model: HashMap<(Entity, Entity), (Touch, CollisionEvent)> = HashMap::default();
        for tick in 1..400u64 {
            let resting: EntityHashSet = colliders
                .iter()
                .copied()
                .filter(|_| rng.random_bool(0.3))
                .collect();
            contacts.begin_tick(&colliders.iter().copied().collect());
            // Pairs swept this tick; the others end, unless both their colliders rest.
            let mut swept = EntityHashSet::default();
            let mut seen = Vec::new();
            for _ in 0..rng.random_range(0..30) {
                let (i, j) = (rng.random_range(0..24), rng.random_range(0..24));
                let (a, b) = (
                    colliders[i].min(colliders[j]),
                    colliders[i].max(colliders[j]),
                );
                if a == b || seen.contains(&(a, b)) {
                    continue;
                }
                seen.push((a, b));
                let body = |rng: &mut ChaCha8Rng| {
                    rng.random_bool(0.3)
                        .then(|| bodies[rng.random_range(0..bodies.len())])
                };
                let new = match rng.random_range(0..4) {
                    0 => None,
                    1 => Some((
                        Touch::CrossedAtEnd,
                        event(a, b, body(&mut rng), body(&mut rng)),
                    )),
                    _ => Some((Touch::Touching, event(a, b, body(&mut rng), body(&mut rng)))),
                };
                let keep = rng.random_bool(0.3)
                    && new.is_some()
                    && model.get(&(a, b)).is_some_and(|r| r.0 == new.unwrap().0);
                match contacts.lookup(&(a, b)) {
                    Some((slot, _)) if keep => contacts.keep(slot, tick),
                    _ => {
                        let old = contacts.set(a, b, new, tick);
                        assert_eq!(old, model.get(&(a, b)).map(|r| r.0));
                        match new {
                            Some(record) => model.insert((a, b), record),
                            None => model.remove(&(a, b)),
                        };
                    }
                }
                swept.insert(a);
            }
            let mut ended = Vec::new();
            contacts.close_tick(tick, &resting, |record| ended.push(record.key()));
            let mut expected_ended = Vec::new();
            model.retain(|&(a, b), (state, _)| {
                if seen.contains(&(a, b)) || (resting.contains(&a) && resting.contains(&b)) {
                    return true;
                }
                if *state == Touch::Touching {
                    expected_ended.push((a, b));
                }
                false
            });
            ended.sort();
            expected_ended.sort();
            assert_eq!(ended, expected_ended, "tick {tick}");
            // What is in contact, pair by pair and entity by entity.
            let mut pairs: Vec<_> = contacts.iter().map(|c| (c.entity, c.other)).collect();
            let mut expected: Vec<_> = model
                .iter()
                .filter(|(_, (state, _))| *state == Touch::Touching)
                .map(|(&key, _)| key)
                .collect();
            pairs.sort();
            expected.sort();
            assert_eq!(pairs, expected, "tick {tick}");
            for &e in colliders.iter().chain(&bodies) {
                let mut touching: Vec<_> = contacts.touching(e).collect();
                let mut expected: Vec<_> = model
                    .values()
                    .filter(|(state, _)| *state == Touch::Touching)
                    .flat_map(|(_, last)| {
                        [
                            (last.entity == e || last.body == Some(e)).then_some(last.other),
                            (last.other == e || last.other_body == Some(e)).then_some(last.entity),
                        ]
                    })
                    .flatten()
                    .collect();
                touching.sort();
                expected.sort();
                expected.dedup();
                assert_eq!(touching, expected, "tick {tick}: {e}");
            }
        }
    }
}
