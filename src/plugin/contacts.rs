//! [`Contacts`]: the pairs in contact between ticks, kept by the report's serial commit.

use super::events::{CollisionEvent, Touch};
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::ecs::reflect::ReflectResource;
use bevy::platform::collections::HashMap;
use bevy::reflect::prelude::*;

/// Pairs of colliders in contact at the end of the last tick (a contact that has
/// [`Started`](super::CollisionKind::Started) and not yet [`Ended`](super::CollisionKind::Ended)).
///
/// Written by the plugin at the end of each tick ([`SweepSystems::Report`](crate::SweepSystems::Report));
/// reading it changes nothing. Reflected without its contents (an inspector shows the
/// resource, not its tables): read it through its methods.
#[derive(Resource, Default, Debug, Reflect)]
#[reflect(Resource, Default, Debug)]
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
pub(crate) struct Record {
    key: (Entity, Entity),
    pub(crate) state: Touch,
    /// The last event of the pair, seen from the first entity: the place of an `Ended` sent
    /// when one of them disappears.
    pub(crate) last: CollisionEvent,
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

    /// Marks a pair's record swept in `tick`, unchanged.
    #[inline]
    pub(crate) fn keep(&mut self, slot: u32, tick: u64) {
        self.seen[slot as usize] = tick;
        self.next_active.push(slot);
    }

    /// Sets the record of a pair swept in `tick` (`None`: no contact); returns the state and
    /// last event of the one it replaces.
    pub(crate) fn set(
        &mut self,
        a: Entity,
        b: Entity,
        new: Option<(Touch, CollisionEvent)>,
        tick: u64,
    ) -> Option<(Touch, CollisionEvent)> {
        let key = Self::key(a, b);
        let old = match (self.index.get(&key).map(|&(slot, _)| slot), new) {
            (Some(slot), new) => Some(self.replace(key, slot, new, tick)),
            (None, Some((state, last))) => {
                self.insert(Record { key, state, last }, tick);
                None
            }
            (None, None) => None,
        };
        let touching = |r: Option<(Touch, CollisionEvent)>| {
            r.filter(|(state, _)| *state == Touch::Touching)
                .map(|(_, last)| last)
        };
        match (touching(old), touching(new)) {
            (None, Some(last)) => self.link(&last, true),
            (Some(last), None) => self.link(&last, false),
            // Still touching, but a side's body changed (reparented, a `Body` added or
            // removed above it): relinked under the new bodies.
            (Some(old), Some(new)) if (old.body, old.other_body) != (new.body, new.other_body) => {
                self.link(&old, false);
                self.link(&new, true);
            }
            _ => {}
        }
        old
    }

    /// Replaces the record in `slot` (`None`: the contact is gone); returns the old state and
    /// last event.
    fn replace(
        &mut self,
        key: (Entity, Entity),
        slot: u32,
        new: Option<(Touch, CollisionEvent)>,
        tick: u64,
    ) -> (Touch, CollisionEvent) {
        self.seen[slot as usize] = tick;
        let record = &mut self.records[slot as usize];
        let old = (record.state, record.last);
        match new {
            Some((state, last)) => {
                (record.state, record.last) = (state, last);
                self.index.insert(key, (slot, state));
                self.next_active.push(slot);
            }
            None => {
                self.index.remove(&key);
                self.free.push(slot);
            }
        }
        old
    }

    /// Adds a new record, in a free slot if there is one.
    fn insert(&mut self, record: Record, tick: u64) {
        let (key, state) = (record.key, record.state);
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
        self.index.insert(key, (slot, state));
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
            let touching = record.state == Touch::Touching;
            if touching {
                ended(record);
            }
            let (key, last) = (record.key, record.last);
            if touching {
                self.link(&last, false);
            }
            self.index.remove(&key);
            self.free.push(slot);
        }
        core::mem::swap(&mut self.active, &mut self.next_active);
        self.next_active.clear();
    }

    /// Adds (or removes) the contact of an event's two colliders, and of their bodies, to
    /// (from) the neighbour lists.
    fn link(&mut self, event: &CollisionEvent, add: bool) {
        let sides = [(event.entity, event.other), (event.other, event.entity)]
            .into_iter()
            .chain(
                event
                    .body
                    .filter(|&b| b != event.entity)
                    .map(|b| (b, event.other)),
            )
            .chain(
                event
                    .other_body
                    .filter(|&b| b != event.other)
                    .map(|b| (b, event.entity)),
            );
        for (of, to) in sides {
            self.changed.push(of);
            if add {
                self.neighbours.add(of, to);
            } else {
                self.neighbours.remove(of, to);
            }
        }
    }
}

impl Record {
    /// The pair, smaller entity first.
    pub(crate) fn key(&self) -> (Entity, Entity) {
        self.key
    }
}

/// Lists of entities per entity, as linked lists in one table whose free slots are reused:
/// contacts coming and going allocate nothing once the table has grown to the most at once.
/// Each list's head is found by the entity's index, without hashing.
#[derive(Default, Debug)]
struct Neighbours {
    /// The first node of each entity's list, by entity index (a head is the entity's only if
    /// the entity matches).
    heads: Vec<(Entity, u32)>,
    /// `(entity, next node)`; `NONE` ends a list.
    nodes: Vec<(Entity, u32)>,
    /// The first free node, chained through their `next`.
    free: u32,
}

const NONE: u32 = u32::MAX;

impl Neighbours {
    /// The first node of `entity`'s list (`NONE` if empty).
    fn head(&self, entity: Entity) -> u32 {
        match self.heads.get(entity.index_u32() as usize) {
            Some(&(e, node)) if e == entity => node,
            _ => NONE,
        }
    }

    fn set_head(&mut self, entity: Entity, node: u32) {
        let i = entity.index_u32() as usize;
        if self.heads.len() <= i {
            self.heads.resize(i + 1, (Entity::PLACEHOLDER, NONE));
        }
        self.heads[i] = (entity, node);
    }

    fn add(&mut self, of: Entity, to: Entity) {
        if self.nodes.is_empty() {
            self.free = NONE;
        }
        let next = self.head(of);
        let node = if self.free == NONE {
            self.nodes.push((to, next));
            (self.nodes.len() - 1) as u32
        } else {
            let node = self.free;
            self.free = self.nodes[node as usize].1;
            self.nodes[node as usize] = (to, next);
            node
        };
        self.set_head(of, node);
    }

    /// Removes one `to` from `of`'s list.
    fn remove(&mut self, of: Entity, to: Entity) {
        let (mut previous, mut node) = (NONE, self.head(of));
        while node != NONE {
            let (entity, next) = self.nodes[node as usize];
            if entity == to {
                if previous == NONE {
                    self.set_head(of, next);
                } else {
                    self.nodes[previous as usize].1 = next;
                }
                self.nodes[node as usize].1 = self.free;
                self.free = node;
                return;
            }
            (previous, node) = (node, next);
        }
    }

    fn of(&self, entity: Entity) -> impl Iterator<Item = Entity> + '_ {
        let mut node = self.head(entity);
        core::iter::from_fn(move || {
            let (e, next) = *self.nodes.get(node as usize)?;
            node = next;
            Some(e)
        })
    }
}
