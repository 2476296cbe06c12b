//! **Report**: an event for every contact, in a fixed order, and the contact state kept
//! between ticks.
//!
//! Reads: [`ContactSpans`], the entries' paths ([`Motions`], [`RestingColliders`]), which
//! colliders rest and which woke ([`RestingColliders`]), and [`Contacts`] as the last tick
//! left it.
//! Writes: [`CollisionEvent`] messages and observer triggers, [`Contacts`], and
//! [`SweepStats`]' `events`, `report_time` and `report_tasks`.
//!
//! It runs in two steps. Each touching pair's *outcome* (its events, and what becomes of its
//! record) is a pure value of its contact intervals and its record before the tick, worked
//! out part by part in parallel. One serial *commit* then applies the outcomes to
//! [`Contacts`] in a fixed order, and ends the contacts of the pairs that were not swept.

use super::entries::{Entry, Slot, TickEntries};
use super::gather::Motions;
use super::narrow::{ContactSpans, SpanPart, Touching};
use super::parts::{reset, run_parts};
use super::publish::Snapshot;
use super::rest::RestingColliders;
use crate::SweepSettings;
use crate::broad::{order_key, sort_by_high_half};
use crate::narrow::{ShapePath, Witness, witness};
use crate::plugin::components::Composites;
use crate::plugin::contacts::Record;
use crate::plugin::events::{Touch, transitions};
use crate::plugin::{CollisionEvent, CollisionKind, Contacts, SweepStats};
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use bevy::platform::time::Instant;

/// The report's buffers, kept from tick to tick to reuse their allocations.
#[derive(Resource, Default)]
pub(crate) struct ReportBuffers {
    /// The plugin's tick count.
    tick: u64,
    /// The outcomes of each part of the touching pairs (parts beyond `count` are spare
    /// buffers).
    outcomes: Vec<Outcomes>,
    count: usize,
    /// The events of the commit (contacts ended at the tick's start).
    ended: Vec<CollisionEvent>,
    /// The events' order: time keys (high halves) and indices (low halves), sorted; and
    /// where each part's events start among the indices.
    order: Vec<u64>,
    scratch: Vec<u64>,
    /// Scratch: a run of equal times' order keys.
    run_keys: Vec<((u32, u64, u64, CollisionKind), u64)>,
    starts: Vec<u32>,
    /// Events to trigger on observed entities.
    targets: Vec<CollisionEvent>,
    /// The colliders that woke this tick, as a set.
    woken: EntityHashSet,
    /// Each entity's entry in this tick and in the last, by entity index (filled only in a
    /// tick that needs it).
    slots: Vec<(Entity, Slot)>,
    last_slots: Vec<(Entity, Slot)>,
}

/// The outcomes of one part of the touching pairs: their events, and the changes to their
/// records.
#[derive(Default)]
struct Outcomes {
    events: Vec<CollisionEvent>,
    changes: Vec<Change>,
    /// Scratch: one pair's events, as kinds and times.
    kinds: Vec<(CollisionKind, f32)>,
}

/// What becomes of a touching pair's record.
#[derive(Clone, Copy)]
struct Change {
    /// The pair, smaller entity first.
    a: Slot,
    b: Slot,
    /// Whether the record was read: a pair that touches at the tick's start, or whose
    /// motion does not continue the last tick's. One that was not read was not in contact at
    /// the end of the last tick, unless the solvers' rounding disagreed with itself at the
    /// shared moment.
    read: bool,
    update: Update,
}

#[derive(Clone, Copy)]
enum Update {
    /// The record, in this slot, goes on as it was.
    Keep(u32),
    /// The pair is no longer in contact.
    Remove,
    /// The record's state becomes this, with this last event.
    Set(Touch, Last),
}

/// A record's last event after the tick.
#[derive(Clone, Copy)]
enum Last {
    /// The part's event with this number.
    Event(u32),
    /// The one it has, in this slot (a contact that changes state without an event).
    Kept(u32),
}

/// Turns this tick's contact intervals into events, commits them to [`Contacts`], and sends
/// and triggers the events in order.
pub(crate) fn report(world: &mut World) {
    let began = Instant::now();
    world.resource_scope(|world, mut report: Mut<ReportBuffers>| {
        world.resource_scope(|world, mut contacts: Mut<Contacts>| {
            let settings = *world.resource::<SweepSettings>();
            let (motions, resting) = (
                world.resource::<Motions>(),
                world.resource::<RestingColliders>(),
            );
            let spans = world.resource::<ContactSpans>();
            let entries = TickEntries {
                swept: &motions.entries,
                resting: &resting.group.entries,
            };
            let cx = EventContext {
                duration: motions.duration,
                composites: world.resource::<Composites>(),
            };
            let tasks = report.outcomes(&settings, spans, entries, &contacts, cx);
            let snapshot = world.resource::<Snapshot>();
            let last = TickEntries {
                swept: &snapshot.swept.entries,
                resting: &snapshot.resting.entries,
            };
            report.commit(entries, last, resting, &mut contacts, cx);
            report.order_events();
            let mut stats = world.resource_mut::<SweepStats>();
            stats.report_tasks = tasks;
        });
        report.deliver(world);
    });
    let mut stats = world.resource_mut::<SweepStats>();
    stats.report_time = began.elapsed();
}

impl ReportBuffers {
    /// The tick count.
    pub(crate) fn tick(&self) -> u64 {
        self.tick
    }

    /// Makes the tick count at least `tick` (after a restore from another app).
    pub(crate) fn catch_up(&mut self, tick: u64) {
        self.tick = self.tick.max(tick);
    }

    /// Works out every touching pair's outcome, part by part (in parallel when allowed).
    fn outcomes(
        &mut self,
        settings: &SweepSettings,
        spans: &ContactSpans,
        entries: TickEntries,
        contacts: &Contacts,
        cx: EventContext<'_>,
    ) -> usize {
        let parts = spans.parts();
        self.count = parts.len();
        reset(&mut self.outcomes, parts.len(), |o| {
            o.events.clear();
            o.changes.clear();
        });
        run_parts(settings, &mut self.outcomes[..parts.len()], |p, out| {
            let part = &parts[p];
            // The records are looked up a block at a time, before the block's outcomes are
            // worked out: the lookups miss the cache, and side by side the misses overlap.
            const BLOCK: usize = 16;
            for block in part.touching.chunks(BLOCK) {
                let mut records = [Lookup::default(); BLOCK];
                for (record, touching) in records.iter_mut().zip(block) {
                    *record = Lookup::of(part, touching, entries, contacts);
                }
                for (record, touching) in records.iter().zip(block) {
                    out.outcome(part, touching, *record, entries, cx);
                }
            }
        })
    }

    /// Applies the outcomes to [`Contacts`] in order, then ends the contacts of the pairs
    /// not swept in this tick.
    fn commit(
        &mut self,
        entries: TickEntries,
        last: TickEntries,
        resting: &RestingColliders,
        contacts: &mut Contacts,
        cx: EventContext<'_>,
    ) {
        self.tick += 1;
        let tick = self.tick;
        self.woken.clear();
        self.woken.extend(resting.woken.iter().copied());
        contacts.begin_tick(&self.woken);
        self.ended.clear();
        for out in &self.outcomes[..self.count] {
            for change in &out.changes {
                let ended = apply(change, &out.events, entries, contacts, tick, cx);
                self.ended.extend(ended);
            }
        }
        let ended = &mut self.ended;
        let mut now = Places::new(entries, &mut self.slots);
        let mut before = Places::new(last, &mut self.last_slots);
        contacts.close_tick(tick, &resting.entities, |record| {
            ended.push(ended_unswept(record, &mut now, &mut before, cx));
        });
    }

    /// Puts in `order` every event of the tick (in the low halves: the parts' events
    /// numbered one after another, then the commit's) in the order of their
    /// [keys](CollisionEvent::order_key), ties by number: a radix sort by time, then the few
    /// runs of equal times by the rest of the key. Sorting numbers rather than events moves
    /// far fewer bytes.
    fn order_events(&mut self) {
        self.order.clear();
        self.starts.clear();
        let mut number = 0u64;
        let lists = self.outcomes[..self.count]
            .iter()
            .map(|o| o.events.as_slice())
            .chain([self.ended.as_slice()]);
        for events in lists {
            self.starts.push(number as u32);
            self.order.extend(events.iter().map(|e| {
                number += 1;
                (u64::from(order_key(e.time_of_impact)) << 32) | (number - 1)
            }));
        }
        sort_by_high_half(&mut self.order, &mut self.scratch);
        let (outcomes, ended, starts) = (&self.outcomes, &self.ended, &self.starts);
        let keys = &mut self.run_keys;
        for run in self.order.chunk_by_mut(|a, b| a >> 32 == b >> 32) {
            if run.len() > 1 {
                // Each event's key read once (a run may hold millions: a pile spawned at
                // one point starts every contact at time 0).
                keys.clear();
                keys.extend(run.iter().map(|&k| {
                    let e = event_at(outcomes, ended, starts, k as u32);
                    (e.order_key(), k)
                }));
                keys.sort_unstable_by_key(|&(key, k)| (key, k as u32));
                for (slot, &(_, k)) in run.iter_mut().zip(keys.iter()) {
                    *slot = k;
                }
            }
        }
    }

    /// Sends the events as messages in order, and triggers each on both its entities.
    fn deliver(&mut self, world: &mut World) {
        let events = self.order.len();
        if events > 0 {
            let (outcomes, ended, starts) = (&self.outcomes, &self.ended, &self.starts);
            world.write_message_batch(
                self.order
                    .iter()
                    .map(|&k| *event_at(outcomes, ended, starts, k as u32)),
            );
            self.trigger_observers(world);
        }
        world.resource_mut::<SweepStats>().events = events;
    }

    /// Triggers each event on both of its entities, skipping the work when nothing observes
    /// [`CollisionEvent`], and triggering only on observed entities when only entity
    /// observers exist.
    fn trigger_observers(&mut self, world: &mut World) {
        let Some(key) = world.event_key::<CollisionEvent>() else {
            return;
        };
        let Some(observers) = world.observers().try_get_observers(key) else {
            return;
        };
        let everyone =
            !observers.global_observers().is_empty() || !observers.component_observers().is_empty();
        let watched = observers.entity_observers();
        if !everyone && watched.is_empty() {
            return;
        }
        let (outcomes, ended, starts) = (&self.outcomes, &self.ended, &self.starts);
        self.targets.clear();
        self.targets.extend(
            self.order
                .iter()
                .map(|&k| event_at(outcomes, ended, starts, k as u32))
                .flat_map(|e| [*e, e.flipped()])
                .filter(|e| everyone || watched.contains_key(&e.entity)),
        );
        for &e in &self.targets {
            if world.get_entity(e.entity).is_ok() {
                world.trigger(e);
            }
        }
    }
}

/// The event numbered `number` in [`ReportBuffers::order_events`]' numbering.
#[inline]
fn event_at<'a>(
    outcomes: &'a [Outcomes],
    ended: &'a [CollisionEvent],
    starts: &[u32],
    number: u32,
) -> &'a CollisionEvent {
    let part = starts.partition_point(|&s| s <= number) - 1;
    let local = (number - starts[part]) as usize;
    match outcomes.get(part) {
        Some(o) if part + 1 < starts.len() => &o.events[local],
        _ => &ended[local],
    }
}

/// A touching pair's record before the tick, as far as it was read.
#[derive(Clone, Copy, Default)]
struct Lookup {
    /// Whether the record was read: a pair that touches at the tick's start, a polyline's,
    /// or one whose motion does not continue the last tick's. One that was not read was not
    /// in contact at the end of the last tick, unless the solvers' rounding disagreed with
    /// itself at the shared moment.
    read: bool,
    /// Its slot and state, if it has one.
    record: Option<(u32, Touch)>,
}

impl Lookup {
    #[inline]
    fn of(part: &SpanPart, touching: &Touching, entries: TickEntries, contacts: &Contacts) -> Self {
        let (a, b) = (entries.entry(touching.a), entries.entry(touching.b));
        let chain = touching.sources.1 > 0;
        let read =
            chain || part.spans(touching.spans)[0][0] == 0.0 || !(a.continues() && b.continues());
        Self {
            read,
            record: read
                .then(|| contacts.lookup(&(a.entity, b.entity)))
                .flatten(),
        }
    }
}

impl Outcomes {
    /// One touching pair's events, and what becomes of its record.
    fn outcome(
        &mut self,
        part: &SpanPart,
        touching: &Touching,
        Lookup { read, record }: Lookup,
        entries: TickEntries,
        cx: EventContext<'_>,
    ) {
        let intervals = part.spans(touching.spans);
        self.kinds.clear();
        let prior = record.map_or(Touch::Apart, |(_, state)| state);
        let after = transitions(intervals, prior, &mut self.kinds);
        let change = |update| Change {
            a: touching.a,
            b: touching.b,
            read,
            update,
        };
        if let Some((slot, state)) = record
            && self.kinds.is_empty()
            && after == state
        {
            self.changes.push(change(Update::Keep(slot)));
            return;
        }
        let last = self.events_of(part, touching, entries, cx);
        let update = match (after, last, record) {
            (Touch::Apart, _, Some(_)) => Update::Remove,
            (Touch::Apart, _, None) | (_, None, None) => return,
            (state, Some(last), _) => Update::Set(state, Last::Event(last)),
            // A contact that goes on without an event of this tick keeps its last one.
            (state, None, Some((slot, _))) => Update::Set(state, Last::Kept(slot)),
        };
        self.changes.push(change(update));
    }

    /// The events of `kinds`, each placed where the pair touches at its moment; returns the
    /// number of the last that is not an `Ended`.
    fn events_of(
        &mut self,
        part: &SpanPart,
        touching: &Touching,
        entries: TickEntries,
        cx: EventContext<'_>,
    ) -> Option<u32> {
        let mut last = None;
        for &(kind, time) in &self.kinds {
            let (sa, sb) = source_at(part, touching, time);
            let separating = kind == CollisionKind::Ended;
            let w = entries.witness(sa, sb, time, separating);
            let e = event(entries.entry(sa), entries.entry(sb), kind, time, w, cx);
            if !separating {
                last = Some(self.events.len() as u32);
            }
            self.events.push(e);
        }
        last
    }
}

/// The pair of entries an event at `time` is taken from: the touching pair itself, or for
/// a polyline's contact the edge pair whose contact is nearest that moment (one holds it).
fn source_at(part: &SpanPart, touching: &Touching, time: f32) -> (Slot, Slot) {
    let distance = |spans: &[[f32; 2]]| {
        spans
            .iter()
            .map(|&[s, e]| (s - time).max(time - e).max(0.0))
            .fold(f32::INFINITY, f32::min)
    };
    part.sources(touching)
        .iter()
        .min_by(|x, y| distance(part.spans(x.spans)).total_cmp(&distance(part.spans(y.spans))))
        .map_or((touching.a, touching.b), |s| (s.a, s.b))
}

/// Applies one change to [`Contacts`]; returns the event of a contact it ends at the tick's
/// start, if any: a pair whose record was not read (it did not touch at this tick's start)
/// and that still held a contact from the last tick (where the solvers' rounding at the
/// shared moment disagreed) has that contact ended at time 0 first, so that `Started` and
/// `Ended` still pair up.
fn apply(
    change: &Change,
    events: &[CollisionEvent],
    entries: TickEntries,
    contacts: &mut Contacts,
    tick: u64,
    cx: EventContext<'_>,
) -> Option<CollisionEvent> {
    let (a, b) = (entries.entry(change.a), entries.entry(change.b));
    let new = match change.update {
        Update::Keep(slot) => {
            contacts.keep(slot, tick);
            return None;
        }
        Update::Remove => None,
        Update::Set(state, Last::Event(last)) => Some((state, events[last as usize])),
        Update::Set(state, Last::Kept(slot)) => Some((state, contacts.last(slot))),
    };
    let old = contacts.set(a.entity, b.entity, new, tick);
    match old {
        Some((Touch::Touching, _)) if !change.read => {
            let w = entries.witness(change.a, change.b, 0.0, true);
            Some(event(a, b, CollisionKind::Ended, 0.0, w, cx))
        }
        _ => None,
    }
}

/// The `Ended` event of a contact whose pair was not swept in this tick (its colliders no
/// longer rest together: apart, despawned, skipped, or no longer tested). Its contact ended
/// at the start of this tick, where the two were then: each where this tick's motion starts,
/// or, for one not swept in this tick (despawned, skipped, no longer a collider), where the
/// last tick left it. A polyline's contact, and one whose colliders neither tick has, keep
/// the place of the contact's last event.
fn ended_unswept(
    record: &Record,
    now: &mut Places,
    before: &mut Places,
    cx: EventContext<'_>,
) -> CollisionEvent {
    let (ea, eb) = record.key();
    let mut place = |e| {
        now.find(e).or_else(|| {
            before
                .find(e)
                .map(|(entry, path)| (entry, ShapePath::still(path.end())))
        })
    };
    let at_start = place(ea).zip(place(eb)).and_then(|((a, pa), (b, pb))| {
        (!a.chain() && !b.chain()).then(|| {
            let w = witness(&pa, &pb, 0.0, true);
            event(a, b, CollisionKind::Ended, 0.0, w, cx)
        })
    });
    at_start.unwrap_or(CollisionEvent {
        kind: CollisionKind::Ended,
        time_of_impact: 0.0,
        ..record.last
    })
}

/// Each entity's entry among some entries (a tick's, swept and resting), found through a
/// table by entity index that is filled on first use (most ticks end no contact this way).
struct Places<'a> {
    entries: TickEntries<'a>,
    table: &'a mut Vec<(Entity, Slot)>,
}

impl<'a> Places<'a> {
    fn new(entries: TickEntries<'a>, table: &'a mut Vec<(Entity, Slot)>) -> Self {
        table.clear();
        Self { entries, table }
    }

    /// `entity`'s entry and path, if it has one (a polyline: one of its edges).
    fn find(&mut self, entity: Entity) -> Option<(&'a Entry, ShapePath)> {
        if self.table.is_empty() {
            self.fill();
        }
        match self.table.get(entity.index_u32() as usize) {
            Some(&(e, slot)) if e == entity => {
                Some((self.entries.entry(slot), self.entries.path(slot)))
            }
            _ => None,
        }
    }

    fn fill(&mut self) {
        let all = (0u32..)
            .zip(&self.entries.swept.list)
            // A responder's path: its first piece, where the tick starts.
            .filter(|(_, e)| !e.is_piece() || e.edge() == 0)
            .map(|(i, e)| (e.entity, Slot::swept(i)))
            .chain(
                (0u32..)
                    .zip(&self.entries.resting.list)
                    .map(|(i, e)| (e.entity, Slot::resting(i))),
            );
        for (e, slot) in all {
            let i = e.index_u32() as usize;
            if self.table.len() <= i {
                self.table.resize(i + 1, (Entity::PLACEHOLDER, slot));
            }
            self.table[i] = (e, slot);
        }
        // Filled, even if no entity is there.
        if self.table.is_empty() {
            self.table.push((Entity::PLACEHOLDER, Slot::swept(0)));
        }
    }
}

/// Who one side of an event is: its collider, its body, and which element of a composite
/// shape (a polyline's edge, a polygon's piece, a compound's part).
#[derive(Clone, Copy)]
struct Side {
    entity: Entity,
    body: Option<Entity>,
    edge: Option<u32>,
}

impl From<&Entry> for Side {
    fn from(entry: &Entry) -> Self {
        Self {
            entity: entry.entity,
            body: entry.body,
            edge: entry.edge_index(),
        }
    }
}

/// What the events of a tick are made with: the tick's duration (for velocities), and the
/// shapes that name the features of composite colliders.
#[derive(Clone, Copy)]
pub(crate) struct EventContext<'a> {
    pub(crate) duration: f32,
    pub(crate) composites: &'a Composites,
}

/// The event of a contact between `a` and `b` at `time`, placed by `witness`.
fn event(
    a: impl Into<Side>,
    b: impl Into<Side>,
    kind: CollisionKind,
    time: f32,
    witness: Witness,
    cx: EventContext<'_>,
) -> CollisionEvent {
    let (a, b): (Side, Side) = (a.into(), b.into());
    let duration = cx.duration;
    let velocity = if duration > 0.0 {
        witness.relative_motion / duration
    } else {
        Vec2::ZERO
    };
    CollisionEvent {
        entity: a.entity,
        other: b.entity,
        body: a.body,
        other_body: b.body,
        feature: cx
            .composites
            .feature(a.entity, a.edge, witness.feature_a, witness.along_a),
        other_feature: cx
            .composites
            .feature(b.entity, b.edge, witness.feature_b, witness.along_b),
        kind,
        time_of_impact: time,
        point: witness.point,
        normal: witness.normal,
        relative_velocity: if velocity.is_finite() {
            velocity
        } else {
            Vec2::ZERO
        },
        along: witness.along_a,
        other_along: witness.along_b,
    }
}
