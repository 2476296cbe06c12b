//! The tick's events in order, and their delivery to observers.

use super::{Outcomes, ReportBuffers};
use crate::broad::{order_key, sort_by_high_half};
use crate::plugin::CollisionEvent;
use bevy::ecs::prelude::*;

impl ReportBuffers {
    /// Puts in `order` every event of the tick (in the low halves: the parts' events
    /// numbered one after another, then the commit's) in the order of their
    /// [keys](CollisionEvent::order_key), ties by number: a radix sort by time, then the few
    /// runs of equal times by the rest of the key. Sorting numbers rather than events moves
    /// far fewer bytes.
    pub(super) fn order_events(&mut self) {
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
        // Scratch that one tick grew far beyond a busy scene's needs (a pile spawned at one
        // point: millions of events in one run of equal times) is given back now, before the
        // events are sent, rather than held for the app's life.
        release_if_over(&mut self.run_keys, 1 << 16);
        release_if_over(&mut self.scratch, 1 << 20);
    }

    /// The tick's events, in order.
    pub(super) fn in_order(&self) -> impl Iterator<Item = &CollisionEvent> {
        let (outcomes, ended, starts) = (&self.outcomes, &self.ended, &self.starts);
        self.order
            .iter()
            .map(move |&k| event_at(outcomes, ended, starts, k as u32))
    }

    /// Triggers each event on both of its entities, skipping the work when nothing observes
    /// [`CollisionEvent`], and triggering only on observed entities when only entity
    /// observers exist.
    pub(super) fn trigger(&mut self, world: &mut World) {
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

/// Frees `buffer` if it has room for more than `entries` (its contents are not needed once
/// the events are in order). A scene with that many events in every tick allocates the
/// buffer again each tick.
fn release_if_over<T>(buffer: &mut Vec<T>, entries: usize) {
    if buffer.capacity() > entries {
        *buffer = Vec::new();
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
