//! The report of a tick: events for every contact, in a fixed order, and the contact state
//! kept between ticks.

use super::SweepSettings;
use super::broad::run_parts;
use super::components::{CollidingEntities, SweptPath};
use super::contacts::{Contacts, Record, SweepStats};
use super::events::{CollisionEvent, CollisionKind, Touch, transitions};
use super::state::{Colliders, Entry, Reported, Tick};
use crate::broad::{order_key, sort_by_high_half};
use crate::narrow::{Feature, ShapePath, Witness, witness};
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use bevy::platform::time::Instant;

/// Who one side of an event is: its collider, its body, and which edge of a polyline.
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
            edge: entry.chain().then_some(entry.part()),
        }
    }
}

/// A polyline edge's contact as a feature of the polyline: the edge and where along it, or
/// the point at either end.
pub(crate) fn edge_feature(edge: u32, along: Option<f32>) -> Feature {
    match along.unwrap_or(0.5) {
        0.0 => Feature::Vertex(edge),
        1.0 => Feature::Vertex(edge + 1),
        along => Feature::Edge { index: edge, along },
    }
}

fn event(
    a: impl Into<Side>,
    b: impl Into<Side>,
    kind: CollisionKind,
    time: f32,
    witness: Witness,
    duration: f32,
) -> CollisionEvent {
    let (a, b): (Side, Side) = (a.into(), b.into());
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
        feature: a
            .edge
            .map(|e| edge_feature(e, witness.along_a))
            .or(witness.feature_a),
        other_feature: b
            .edge
            .map(|e| edge_feature(e, witness.along_b))
            .or(witness.feature_b),
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

/// The events of the touching pairs of part `p`, from their contact intervals and their
/// records before this tick; and the records to change.
///
/// A contact that goes on from the last tick touches at this tick's start: only then, or
/// when a collider's motion does not continue the last tick's (teleported, new, reshaped), is
/// the record read at all. A contact that simply goes on is marked swept in place; the others
/// are left to [`apply`] (new contacts, ended ones, changed states).
fn part_events(
    tick: &Tick,
    colliders: &Colliders,
    p: usize,
    contacts: &Contacts,
    out: &mut Reported,
) {
    out.events.clear();
    out.records.clear();
    out.chains.clear();
    let (number, duration) = (tick.number, tick.duration);
    let (pairs, solved) = (&tick.parts[p], &tick.solved[p]);
    let kinds = &mut out.kinds;
    // The pairs seen from their smaller entity (contact intervals are symmetric), and their
    // records. The records are looked up a block at a time, before the block's events are
    // worked out: the lookups miss the cache, and side by side the misses overlap.
    const BLOCK: usize = 16;
    for block in solved.touching.chunks(BLOCK) {
        let mut records: [Option<&Record>; BLOCK] = [None; BLOCK];
        for (record, &(k, first, _)) in records.iter_mut().zip(block) {
            let (a, b) = ordered(&pairs[k as usize]);
            if solved.spans[first as usize][0] == 0.0 || !(a.continues() && b.continues()) {
                *record = contacts.record(&(a.entity, b.entity));
            }
        }
        for (&record, &(k, first, count)) in records.iter().zip(block) {
            let (a, b) = ordered(&pairs[k as usize]);
            // Polyline edges: merged per pair of colliders in `chain_events`.
            if a.chain() || b.chain() {
                out.chains.push((k, first, count));
                continue;
            }
            let intervals = &solved.spans[first as usize..(first + count) as usize];
            let read = intervals[0][0] == 0.0 || !(a.continues() && b.continues());
            kinds.clear();
            let after = transitions(intervals, record.map_or(Touch::Apart, |r| r.state), kinds);
            let mut last = record.map(|r| r.last);
            for &(kind, time) in kinds.iter() {
                let (pa, pb) = (colliders.path(a), colliders.path(b));
                let w = witness(&pa, &pb, time, kind == CollisionKind::Ended);
                let e = event(a, b, kind, time, w, duration);
                out.events.push(e);
                if kind != CollisionKind::Ended {
                    last = Some(e);
                }
            }
            match record {
                Some(record) if kinds.is_empty() && after == record.state => {
                    record.refresh(number);
                }
                _ => {
                    let new = match (after, last) {
                        (Touch::Apart, _) | (_, None) => None,
                        (state, Some(last)) => Some(Record::new(state, last, number)),
                    };
                    if new.is_some() || record.is_some() {
                        out.records
                            .push(((a.entity, b.entity), new, (!read).then_some(k)));
                    }
                }
            }
        }
    }
}

/// A pair's two bodies, the smaller entity first.
#[inline]
fn ordered(pair: &(Entry, Entry)) -> (&Entry, &Entry) {
    if pair.1.entity < pair.0.entity {
        (&pair.1, &pair.0)
    } else {
        (&pair.0, &pair.1)
    }
}

/// The events of the touching pairs with a polyline edge: a polyline is one collider, so
/// the contact intervals of its edges with one other collider are merged, and each event's
/// place is taken from an edge that touches at its time.
fn chain_events(tick: &mut Tick, colliders: &Colliders, contacts: &mut Contacts) {
    let (number, duration) = (tick.number, tick.duration);
    // (pair of entities, part, index in part, first interval, count)
    let mut found: Vec<((Entity, Entity), usize, u32, u32, u32)> = Vec::new();
    for (p, reported) in tick.reported[..tick.part_count].iter().enumerate() {
        for &(k, first, count) in &reported.chains {
            let (a, b) = ordered(&tick.parts[p][k as usize]);
            found.push(((a.entity, b.entity), p, k, first, count));
        }
    }
    if found.is_empty() {
        return;
    }
    found.sort_unstable_by_key(|f| (f.0, f.1, f.2));
    let mut merged: Vec<[f32; 2]> = Vec::new();
    let mut kinds = Vec::new();
    for group in found.chunk_by(|x, y| x.0 == y.0) {
        let key = group[0].0;
        let spans = |&(_, p, _, first, count): &((Entity, Entity), usize, u32, u32, u32)| {
            &tick.solved[p].spans[first as usize..(first + count) as usize]
        };
        merged.clear();
        merged.extend(group.iter().flat_map(spans).copied());
        merged.sort_unstable_by(|x, y| x[0].total_cmp(&y[0]));
        // Contact passing from one edge to the next through their shared vertex ends on one
        // and starts on the other at the same moment, up to the two solvers' rounding: a gap
        // of a few ulps of time is no gap.
        let mut union: Vec<[f32; 2]> = Vec::with_capacity(merged.len());
        for &[s, e] in &merged {
            match union.last_mut() {
                Some(last) if s <= last[1] + 4.0 * f32::EPSILON => last[1] = last[1].max(e),
                _ => union.push([s, e]),
            }
        }
        let record = contacts.record(&key);
        kinds.clear();
        let after = transitions(&union, record.map_or(Touch::Apart, |r| r.state), &mut kinds);
        let mut last = record.map(|r| r.last);
        let refresh =
            record.is_some() && kinds.is_empty() && after == record.map_or(after, |r| r.state);
        if refresh && let Some(record) = record {
            record.refresh(number);
            continue;
        }
        for &(kind, time) in &kinds {
            // The edge pair whose contact is nearest this moment (one holds it).
            let distance = |f: &((Entity, Entity), usize, u32, u32, u32)| {
                spans(f)
                    .iter()
                    .map(|&[s, e]| (s - time).max(time - e).max(0.0))
                    .fold(f32::INFINITY, f32::min)
            };
            let Some(&(_, p, k, ..)) = group
                .iter()
                .min_by(|x, y| distance(x).total_cmp(&distance(y)))
            else {
                continue;
            };
            let (a, b) = ordered(&tick.parts[p][k as usize]);
            let (pa, pb) = (colliders.path(a), colliders.path(b));
            let w = witness(&pa, &pb, time, kind == CollisionKind::Ended);
            let e = event(a, b, kind, time, w, duration);
            tick.events.push(e);
            if kind != CollisionKind::Ended {
                last = Some(e);
            }
        }
        let new = match (after, last) {
            (Touch::Apart, _) | (_, None) => None,
            (state, Some(last)) => Some(Record::new(state, last, number)),
        };
        if new.is_some() || contacts.record(&key).is_some() {
            contacts.set(key, new);
        }
    }
}

/// Keeps [`CollidingEntities`] up to date: those of the entities whose contacts changed in
/// this tick, and those inserted since the last.
pub(crate) fn colliding_entities(
    mut contacts: ResMut<Contacts>,
    mut queries: ParamSet<(
        Query<&mut CollidingEntities>,
        Query<Entity, Added<CollidingEntities>>,
    )>,
    mut added: Local<Vec<Entity>>,
) {
    let mut changed = core::mem::take(&mut contacts.changed);
    added.clear();
    added.extend(&queries.p1());
    let mut colliding = queries.p0();
    contacts.track = !colliding.is_empty();
    contacts.index_if_wanted();
    if contacts.track {
        for entity in changed.iter().chain(added.iter()).copied() {
            let Ok(mut set) = colliding.get_mut(entity) else {
                continue;
            };
            let now: EntityHashSet = contacts.touching(entity).collect();
            // Changed only if it changed (several contacts may have come and gone).
            if set.0 != now {
                set.0 = now;
            }
        }
    }
    changed.clear();
    contacts.changed = changed;
}

/// Writes the records of part `p` into `contacts`. A pair whose record was not read (it did
/// not touch at this tick's start) and that still held a contact from the last tick (where
/// the solvers' rounding at the shared moment disagreed) has that contact ended at time 0
/// first, so that `Started` and `Ended` still pair up.
fn apply(tick: &mut Tick, colliders: &Colliders, p: usize, contacts: &mut Contacts) {
    let (number, duration) = (tick.number, tick.duration);
    let part = &mut tick.reported[p];
    for (key, record, unread) in part.records.drain(..) {
        let old = contacts.set(key, record);
        if let (Some(k), Some(mut old)) = (unread, old)
            && old.state == Touch::Touching
            && *old.tick.get_mut() != number
        {
            let pair = &tick.parts[p][k as usize];
            let (a, b) = if pair.0.entity == key.0 {
                (&pair.0, &pair.1)
            } else {
                (&pair.1, &pair.0)
            };
            let w = witness(&colliders.path(a), &colliders.path(b), 0.0, true);
            part.events
                .push(event(a, b, CollisionKind::Ended, 0.0, w, duration));
        }
    }
}

/// The `Ended` events of the contacts not swept this tick whose colliders no longer rest
/// together: apart, despawned, skipped, or no longer tested. Their contact ended at the
/// start of this tick.
fn ended_events(world: &World, tick: &mut Tick, contacts: &mut Contacts, colliders: &Colliders) {
    let (number, duration) = (tick.number, tick.duration);
    // This tick's path of a collider. One left out of this tick (its `Collider` or
    // `CollisionLayers` removed, or resting) keeps the path of the last tick it was swept in:
    // it stands still where that tick left it, the start of this one.
    let path = |e: Entity| {
        let swept = world.get::<SweptPath>(e)?;
        let path = swept.path()?;
        Some(if swept.tick == number {
            path
        } else {
            ShapePath::still(path.at(1.0))
        })
    };
    let events = &mut tick.events;
    contacts.close_tick(number, &colliders.resting_entities, |(ea, eb), record| {
        let ended = match (path(ea), path(eb)) {
            (Some(pa), Some(pb)) => event(
                Side {
                    entity: ea,
                    body: record.last.body,
                    edge: None,
                },
                Side {
                    entity: eb,
                    body: record.last.other_body,
                    edge: None,
                },
                CollisionKind::Ended,
                0.0,
                witness(&pa, &pb, 0.0, true),
                duration,
            ),
            _ => CollisionEvent {
                kind: CollisionKind::Ended,
                time_of_impact: 0.0,
                ..record.last
            },
        };
        events.push(ended);
    });
}

/// Puts in `tick.order` the indices of `tick.events` (in the low halves) in the order of
/// their [keys](CollisionEvent::order_key), ties by index. Sorting indices rather than events
/// moves far fewer bytes: a radix sort by time, then the few runs of equal times by the rest
/// of the key.
fn order_events(tick: &mut Tick) {
    let events = &tick.events;
    tick.order.clear();
    tick.order.extend(
        (0u64..)
            .zip(events)
            .map(|(i, e)| (u64::from(order_key(e.time_of_impact)) << 32) | i),
    );
    sort_by_high_half(&mut tick.order, &mut tick.scratch);
    for run in tick.order.chunk_by_mut(|a, b| a >> 32 == b >> 32) {
        if run.len() > 1 {
            run.sort_unstable_by_key(|&k| (events[k as u32 as usize].order_key(), k as u32));
        }
    }
}

/// Turns contact intervals into events (part by part, in parallel when allowed), sends and
/// triggers them in order, and updates [`Contacts`].
pub(crate) fn report(world: &mut World) {
    let began = Instant::now();
    let settings = *world.resource::<SweepSettings>();
    world.resource_scope(|world, mut tick: Mut<Tick>| {
        let tick = &mut *tick;
        let mut spawned = 0;
        world.resource_scope(|world, mut contacts: Mut<Contacts>| {
            let colliders = world.resource::<Colliders>();
            let count = tick.part_count;
            let mut reported = core::mem::take(&mut tick.reported);
            {
                let (tick, contacts) = (&*tick, &*contacts);
                spawned = run_parts(&settings, &mut reported[..count], |p, out| {
                    part_events(tick, colliders, p, contacts, out);
                });
            }
            tick.reported = reported;
            tick.events.clear();
            for p in 0..count {
                apply(tick, colliders, p, &mut contacts);
                tick.events.append(&mut tick.reported[p].events);
            }
            chain_events(tick, colliders, &mut contacts);
            ended_events(world, tick, &mut contacts, colliders);
        });
        order_events(tick);
        tick.sorted.clear();
        let (events, order) = (&tick.events, &tick.order);
        tick.sorted
            .extend(order.iter().map(|&k| events[k as u32 as usize]));
        core::mem::swap(&mut tick.events, &mut tick.sorted);
        if !tick.events.is_empty() {
            world.write_message_batch(tick.events.iter().copied());
            trigger_observers(world, &tick.events, &mut tick.targets);
        }
        let mut stats = world.resource_mut::<SweepStats>();
        stats.events = tick.events.len();
        stats.parallel_tasks += spawned;
        stats.report_time = began.elapsed();
        stats.elapsed = tick.started.take().map(|t| t.elapsed()).unwrap_or_default();
    });
}

/// Triggers each event on both of its entities, skipping the work when nothing observes
/// [`CollisionEvent`], and triggering only on observed entities when only entity observers
/// exist.
fn trigger_observers(
    world: &mut World,
    events: &[CollisionEvent],
    targets: &mut Vec<CollisionEvent>,
) {
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
    targets.clear();
    targets.extend(
        events
            .iter()
            .flat_map(|e| [*e, e.flipped()])
            .filter(|e| everyone || watched.contains_key(&e.entity)),
    );
    for &e in targets.iter() {
        if world.get_entity(e.entity).is_ok() {
            world.trigger(e);
        }
    }
}
