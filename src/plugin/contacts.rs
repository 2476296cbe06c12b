//! What the plugin tells between ticks: the pairs in contact, the colliders it could not
//! sweep, and what the last tick did.

use super::events::{CollisionEvent, Touch};
use bevy::ecs::entity::{EntityHashMap, EntityHashSet};
use bevy::ecs::prelude::*;
use bevy::ecs::reflect::ReflectResource;
use bevy::platform::collections::HashMap;
use bevy::reflect::prelude::*;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use core::time::Duration;

/// Pairs of colliders in contact at the end of the last tick (a contact that has
/// [`Started`](super::CollisionKind::Started) and not yet [`Ended`](super::CollisionKind::Ended)).
///
/// Reflected without its contents (an inspector shows the resource, not its tables): read
/// it through its methods.
#[derive(Resource, Default, Debug, Reflect)]
#[reflect(Resource, Default, Debug)]
pub struct Contacts {
    /// Pairs with a collider that moves (or did, or changed, in the last tick).
    #[reflect(ignore)]
    pairs: HashMap<(Entity, Entity), Record>,
    /// Pairs of two resting colliders (still, unchanged, not re-swept): their contact cannot
    /// change until one of them moves, changes or goes, which brings the pair back to
    /// `pairs`.
    #[reflect(ignore)]
    resting: HashMap<(Entity, Entity), Record>,
    /// For each collider in contact, the colliders it touches; for each [`Body`] with one,
    /// the colliders its own touch (once per contact, so a collider may be there twice).
    ///
    /// [`Body`]: super::Body
    #[reflect(ignore)]
    neighbours: Neighbours,
    /// Scratch: the last events of contacts ended by `close_tick`.
    #[reflect(ignore)]
    ended: Vec<CollisionEvent>,
    /// Entities whose contacts changed since the report last read this, kept while some
    /// entity has a [`CollidingEntities`](super::CollidingEntities) (`track`).
    #[reflect(ignore)]
    pub(crate) changed: EntityHashSet,
    #[reflect(ignore)]
    pub(crate) track: bool,
    /// `neighbours` is kept (from the first tick after it was `wanted`).
    #[reflect(ignore)]
    indexed: bool,
    #[reflect(ignore)]
    wanted: AtomicBool,
}

/// Lists of entities per entity, as linked lists in one table whose free slots are reused:
/// contacts coming and going allocate nothing once the table has grown to the most at once.
#[derive(Default, Debug)]
struct Neighbours {
    /// The first node of each entity's list.
    heads: EntityHashMap<u32>,
    /// `(entity, next node)`; `NONE` ends a list.
    nodes: Vec<(Entity, u32)>,
    /// The first free node, chained through their `next`.
    free: u32,
}

const NONE: u32 = u32::MAX;

impl Neighbours {
    fn add(&mut self, of: Entity, to: Entity) {
        if self.nodes.is_empty() {
            self.free = NONE;
        }
        let next = self.heads.get(&of).copied().unwrap_or(NONE);
        let node = if self.free == NONE {
            self.nodes.push((to, next));
            (self.nodes.len() - 1) as u32
        } else {
            let node = self.free;
            self.free = self.nodes[node as usize].1;
            self.nodes[node as usize] = (to, next);
            node
        };
        self.heads.insert(of, node);
    }

    /// Removes one `to` from `of`'s list.
    fn remove(&mut self, of: Entity, to: Entity) {
        let Some(&head) = self.heads.get(&of) else {
            return;
        };
        let (mut previous, mut node) = (NONE, head);
        while node != NONE {
            let (entity, next) = self.nodes[node as usize];
            if entity == to {
                if previous == NONE {
                    if next == NONE {
                        self.heads.remove(&of);
                    } else {
                        self.heads.insert(of, next);
                    }
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
        let mut node = self.heads.get(&entity).copied().unwrap_or(NONE);
        core::iter::from_fn(move || {
            let (e, next) = *self.nodes.get(node as usize)?;
            node = next;
            Some(e)
        })
    }
}

/// The contact state of a pair between ticks.
#[derive(Debug)]
pub(crate) struct Record {
    pub(crate) state: Touch,
    /// The last event of the pair, seen from the first entity: the place of an `Ended` sent
    /// when one of them disappears.
    pub(crate) last: CollisionEvent,
    /// The tick the pair was last swept in: set through a shared reference by the report's
    /// parallel tasks for a contact that simply goes on.
    pub(crate) tick: AtomicU64,
}

impl Record {
    pub(crate) fn new(state: Touch, last: CollisionEvent, tick: u64) -> Self {
        Self {
            state,
            last,
            tick: AtomicU64::new(tick),
        }
    }

    /// Marks the record swept in `tick`.
    pub(crate) fn refresh(&self, tick: u64) {
        self.tick.store(tick, Ordering::Relaxed);
    }
}

impl Clone for Record {
    fn clone(&self) -> Self {
        Self::new(self.state, self.last, self.tick.load(Ordering::Relaxed))
    }
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
    pub(crate) fn key(a: Entity, b: Entity) -> (Entity, Entity) {
        (a.min(b), a.max(b))
    }

    /// `true` if `a` and `b` are in contact (in either order).
    #[must_use]
    pub fn contains(&self, a: Entity, b: Entity) -> bool {
        let key = Self::key(a, b);
        self.pairs
            .get(&key)
            .or_else(|| self.resting.get(&key))
            .is_some_and(|r| r.state == Touch::Touching)
    }

    /// Every pair in contact, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = Contact> + '_ {
        self.pairs
            .iter()
            .chain(&self.resting)
            .filter(|(_, r)| r.state == Touch::Touching)
            .map(|(&(entity, other), r)| Contact {
                entity,
                other,
                started: r.last,
            })
    }

    /// Every collider in contact with `entity` (a collider, or a [`Body`] for its
    /// colliders' contacts), each once, in time proportional to its contacts.
    ///
    /// The per-entity index behind it is built on first use: the first call scans every
    /// pair, and the plugin keeps the index from the next tick on (an app that never asks
    /// pays nothing for it).
    ///
    /// [`Body`]: super::Body
    pub fn touching(&self, entity: Entity) -> impl Iterator<Item = Entity> + '_ {
        let mut seen = EntityHashSet::default();
        if !self.indexed {
            self.wanted.store(true, Ordering::Relaxed);
        }
        let indexed = self.indexed.then(|| self.neighbours.of(entity));
        let scanned = (!self.indexed).then(|| {
            self.iter().filter_map(move |c| {
                if c.entity == entity || c.started.body == Some(entity) {
                    Some(c.other)
                } else if c.other == entity || c.started.other_body == Some(entity) {
                    Some(c.entity)
                } else {
                    None
                }
            })
        });
        indexed
            .into_iter()
            .flatten()
            .chain(scanned.into_iter().flatten())
            .filter(move |&e| seen.insert(e))
    }

    /// Starts keeping the per-entity index if it is wanted ([`touching`](Self::touching)
    /// was called, or an entity has a [`CollidingEntities`](super::CollidingEntities)) and
    /// not kept yet: built from every pair in contact.
    pub(crate) fn index_if_wanted(&mut self) {
        if self.indexed || !(self.track || *self.wanted.get_mut()) {
            return;
        }
        self.indexed = true;
        let lasts: Vec<CollisionEvent> = self
            .pairs
            .values()
            .chain(self.resting.values())
            .filter(|r| r.state == Touch::Touching)
            .map(|r| r.last)
            .collect();
        for last in &lasts {
            self.link(last, true);
        }
    }

    /// The number of pairs in contact.
    #[must_use]
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// `true` if no pair is in contact.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The record of a pair swept this tick.
    pub(crate) fn record(&self, key: &(Entity, Entity)) -> Option<&Record> {
        self.pairs.get(key)
    }

    /// Sets the record of a pair swept this tick (`None`: no contact); returns the one it
    /// replaces.
    pub(crate) fn set(&mut self, key: (Entity, Entity), record: Option<Record>) -> Option<Record> {
        let now = record
            .as_ref()
            .filter(|r| r.state == Touch::Touching)
            .map(|r| r.last);
        let old = match record {
            Some(record) => self.pairs.insert(key, record),
            None => self.pairs.remove(&key),
        };
        let was = old
            .as_ref()
            .filter(|r| r.state == Touch::Touching)
            .map(|r| r.last);
        match (was, now) {
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

    /// Adds (or removes) the contact of an event's two colliders, and of their bodies, to
    /// (from) the neighbour lists.
    fn link(&mut self, event: &CollisionEvent, add: bool) {
        if !self.indexed {
            return;
        }
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
            if self.track {
                self.changed.insert(of);
            }
            if add {
                self.neighbours.add(of, to);
            } else {
                self.neighbours.remove(of, to);
            }
        }
    }

    /// Brings back the pairs of the resting colliders in `woken`, which no longer rest (they
    /// move, changed or are gone): their pairs are swept again, or ended.
    pub(crate) fn wake(&mut self, woken: &EntityHashSet) {
        if woken.is_empty() || self.resting.is_empty() {
            return;
        }
        let pairs = &mut self.pairs;
        self.resting.retain(|&(a, b), record| {
            let wake = woken.contains(&a) || woken.contains(&b);
            if wake {
                pairs.insert((a, b), record.clone());
            }
            !wake
        });
    }

    /// The pairs not swept in tick `tick`: those of two resting colliders rest; the others
    /// are left to `ended`, which sends an `Ended` for those in contact, and forgotten.
    pub(crate) fn close_tick(
        &mut self,
        tick: u64,
        resting: &EntityHashSet,
        mut ended: impl FnMut((Entity, Entity), &Record),
    ) {
        let rest = &mut self.resting;
        let mut unlinked = core::mem::take(&mut self.ended);
        self.pairs.retain(|&(a, b), record| {
            if *record.tick.get_mut() == tick {
                return true;
            }
            if resting.contains(&a) && resting.contains(&b) {
                rest.insert((a, b), record.clone());
            } else if record.state == Touch::Touching {
                ended((a, b), record);
                unlinked.push(record.last);
            }
            false
        });
        for last in unlinked.drain(..) {
            self.link(&last, false);
        }
        self.ended = unlinked;
    }
}

/// Colliders the plugin could not sweep in the last tick, each with its [`SkipReason`] (a
/// missing or non-finite transform, a non-finite velocity, a size that is not positive, a
/// zero-length segment, a polygon that is not convex, …).
///
/// A skipped collider takes part in no contact (its contacts end); every other pair is
/// unaffected. The plugin logs one warning naming the entity when it starts being skipped
/// (or the reason changes), not every tick. When the input becomes usable again the
/// collider starts afresh from where it is, as if teleported.
#[derive(Resource, Default, Debug, Reflect)]
#[reflect(Resource, Default, Debug)]
pub struct SkippedColliders {
    pub(crate) reasons: HashMap<Entity, SkipReason>,
}

/// Why the plugin could not sweep a collider (see [`SkippedColliders`]). Its `Display` is the
/// sentence of the warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
#[reflect(Debug, PartialEq, Hash, Clone)]
#[non_exhaustive]
pub enum SkipReason {
    /// The entity, or one of its ancestors, has no `Transform`.
    MissingTransform,
    /// Its world transform (its own composed with its ancestors') is not finite.
    NonFiniteTransform,
    /// Its [`Velocity`](super::Velocity) is not finite.
    NonFiniteVelocity,
    /// Its [`AngularVelocity`](super::AngularVelocity) is not finite.
    NonFiniteAngularVelocity,
    /// A point of its shape (a segment's or capsule's endpoint, a polyline point) is not
    /// finite.
    NonFiniteShape,
    /// A segment whose two endpoints are equal.
    ZeroLengthSegment,
    /// A radius or half extent that is not a positive finite number.
    NonPositiveSize,
    /// A polygon that is not 3 to 8 finite points in strictly convex position (build it with
    /// [`Collider::convex_polygon`](super::Collider::convex_polygon), which checks).
    NotConvex,
    /// A polyline without an edge of positive length.
    NoEdge,
    /// Its shape in the world is degenerate or not finite (a zero or huge scale).
    DegenerateInWorld,
    /// Its swept bounds overflow: coordinates too close to `f32::MAX`.
    Overflow,
}

impl core::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::MissingTransform => "its transform or a parent's is missing",
            Self::NonFiniteTransform => "its world transform is not finite",
            Self::NonFiniteVelocity => "its Velocity is not finite",
            Self::NonFiniteAngularVelocity => "its AngularVelocity is not finite",
            Self::NonFiniteShape => "a point of its shape is not finite",
            Self::ZeroLengthSegment => "its segment has zero length",
            Self::NonPositiveSize => "a radius or half extent is not a positive finite number",
            Self::NotConvex => {
                "its polygon is not 3 to 8 finite points in strictly convex position \
                 (use Collider::convex_polygon)"
            }
            Self::NoEdge => "its polyline has no edge of positive length",
            Self::DegenerateInWorld => {
                "its world-space shape is degenerate or not finite (check the scale)"
            }
            Self::Overflow => "its swept bounds overflow (coordinates too close to f32::MAX)",
        })
    }
}

impl SkippedColliders {
    /// Why `entity` was skipped in the last tick, if it was.
    #[must_use]
    pub fn reason(&self, entity: Entity) -> Option<SkipReason> {
        self.reasons.get(&entity).copied()
    }

    /// Every skipped entity and why.
    pub fn iter(&self) -> impl Iterator<Item = (Entity, SkipReason)> + '_ {
        self.reasons.iter().map(|(&e, &r)| (e, r))
    }

    /// The number of skipped colliders.
    #[must_use]
    pub fn len(&self) -> usize {
        self.reasons.len()
    }

    /// `true` if no collider was skipped.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.reasons.is_empty()
    }

    pub(crate) fn record(&mut self, entity: Entity, reason: SkipReason) {
        if self.reasons.insert(entity, reason) != Some(reason) {
            log::warn!("bevy_sweep: skipping collider {entity}: {reason}");
        }
    }

    pub(crate) fn usable_again(&mut self, entity: Entity) {
        if self.reasons.remove(&entity).is_some() {
            log::info!("bevy_sweep: collider {entity} is usable again");
        }
    }
}

/// What the last tick did, for profiling and for checking a scene (read it after
/// [`SweepSystems::Report`](super::SweepSystems::Report) or in `Update`). Non-exhaustive:
/// later versions may count more.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource, Default, Debug, PartialEq, Clone)]
#[non_exhaustive]
pub struct SweepStats {
    /// Entries in the broad phase in the tick, swept and resting: one per collider, and one
    /// per edge of a polyline.
    pub colliders: usize,
    /// Entries resting (colliders, polyline edges): still for two ticks without a change,
    /// kept in the broad phase without being swept again. Pairs of two of them are never
    /// tested.
    pub resting: usize,
    /// Colliders skipped as unusable (see [`SkippedColliders`]).
    pub skipped: usize,
    /// Pairs whose swept bounds overlap and whose layers interact (the broad phase's output).
    pub candidate_pairs: usize,
    /// Pairs that touched at some moment of the tick.
    pub touching_pairs: usize,
    /// Events sent (messages; observers get each twice, once per entity).
    pub events: usize,
    /// Candidate pairs of a point and a box, which the narrow phase solves eight at a time
    /// with SIMD ([`PointBoxBatch`](crate::narrow::PointBoxBatch)).
    pub batched_pairs: usize,
    /// Candidate pairs whose contact could not be decided by floating-point arithmetic with
    /// an error bound and needed exact (expansion) arithmetic: shapes within rounding of a
    /// touch. Normally a tiny share of [`candidate_pairs`](Self::candidate_pairs).
    pub exact_pairs: usize,
    /// Tasks the tick ran in parallel on the compute task pool (0: it ran serially).
    pub parallel_tasks: usize,
    /// Wall-clock time of the whole sweep, from the start of
    /// [`SweepSystems::Prepare`](super::SweepSystems::Prepare) to the end of
    /// [`SweepSystems::Report`](super::SweepSystems::Report) (including anything you ordered
    /// in between).
    pub elapsed: Duration,
    /// Time of [`SweepSystems::Prepare`](super::SweepSystems::Prepare) and
    /// [`SweepSystems::Integrate`](super::SweepSystems::Integrate): new and teleported
    /// colliders, velocities.
    pub prepare_time: Duration,
    /// Time of [`SweepSystems::BroadPhase`](super::SweepSystems::BroadPhase): every
    /// collider's motion (the gather) and the pairs whose swept bounds overlap.
    pub broad_phase_time: Duration,
    /// The gather's part of [`broad_phase_time`](Self::broad_phase_time): each collider's
    /// motion in world space.
    pub gather_time: Duration,
    /// Time of [`SweepSystems::NarrowPhase`](super::SweepSystems::NarrowPhase): the exact
    /// contact intervals of the candidate pairs.
    pub narrow_phase_time: Duration,
    /// Time of [`SweepSystems::Report`](super::SweepSystems::Report): events, observers and
    /// [`Contacts`].
    pub report_time: Duration,
}
