//! The report of a tick: events for every contact, in a fixed order, and the contact state
//! kept between ticks.

use super::SweepSettings;
use super::broad::run_parts;
use super::components::SweptPath;
use super::contacts::{Contacts, Record, SweepStats};
use super::events::{CollisionEvent, CollisionKind, Touch, transitions};
use super::state::{Body, Colliders, Reported, Tick};
use crate::broad::{order_key, sort_by_high_half};
use crate::narrow::{ShapePath, Witness, witness};
use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use bevy::platform::time::Instant;

fn event(
    entity: Entity,
    other: Entity,
    kind: CollisionKind,
    time: f32,
    witness: Witness,
    duration: f32,
) -> CollisionEvent {
    let velocity = if duration > 0.0 {
        witness.relative_motion / duration
    } else {
        Vec2::ZERO
    };
    CollisionEvent {
        entity,
        other,
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
fn part_events(tick: &Tick, p: usize, contacts: &Contacts, out: &mut Reported) {
    out.events.clear();
    out.records.clear();
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
            if solved.spans[first as usize][0] == 0.0 || !(a.continues && b.continues) {
                *record = contacts.record(&(a.entity, b.entity));
            }
        }
        for (&record, &(k, first, count)) in records.iter().zip(block) {
            let (a, b) = ordered(&pairs[k as usize]);
            let intervals = &solved.spans[first as usize..(first + count) as usize];
            let read = intervals[0][0] == 0.0 || !(a.continues && b.continues);
            kinds.clear();
            let after = transitions(intervals, record.map_or(Touch::Apart, |r| r.state), kinds);
            let mut last = record.map(|r| r.last);
            for &(kind, time) in kinds.iter() {
                let w = witness(&a.path, &b.path, time, kind == CollisionKind::Ended);
                let e = event(a.entity, b.entity, kind, time, w, duration);
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
fn ordered(pair: &(Body, Body)) -> (&Body, &Body) {
    if pair.1.entity < pair.0.entity {
        (&pair.1, &pair.0)
    } else {
        (&pair.0, &pair.1)
    }
}

/// Writes the records of part `p` into `contacts`. A pair whose record was not read (it did
/// not touch at this tick's start) and that still held a contact from the last tick (where
/// the solvers' rounding at the shared moment disagreed) has that contact ended at time 0
/// first, so that `Started` and `Ended` still pair up.
fn apply(tick: &mut Tick, p: usize, contacts: &mut Contacts) {
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
            let w = witness(&a.path, &b.path, 0.0, true);
            part.events
                .push(event(key.0, key.1, CollisionKind::Ended, 0.0, w, duration));
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
        let path = swept.path?;
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
                ea,
                eb,
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
            let count = tick.part_count;
            let mut reported = core::mem::take(&mut tick.reported);
            {
                let (tick, contacts) = (&*tick, &*contacts);
                spawned = run_parts(&settings, &mut reported[..count], |p, out| {
                    part_events(tick, p, contacts, out);
                });
            }
            tick.reported = reported;
            tick.events.clear();
            for p in 0..count {
                apply(tick, p, &mut contacts);
                tick.events.append(&mut tick.reported[p].events);
            }
            ended_events(world, tick, &mut contacts, world.resource::<Colliders>());
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
