//! The `Ended` events of the contacts whose pairs were not swept in this tick.

use super::{EventContext, event};
use crate::narrow::{ShapePath, witness};
use crate::plugin::CollisionEvent;
use crate::plugin::CollisionKind;
use crate::plugin::contacts::Record;
use crate::plugin::tick::entries::{Entry, Slot, TickEntries};
use bevy::ecs::prelude::*;

/// The `Ended` event of a contact whose pair was not swept in this tick (its colliders no
/// longer rest together: apart, despawned, skipped, or no longer tested). Its contact ended
/// at the start of this tick, where the two were then: each where this tick's motion starts,
/// or, for one not swept in this tick (despawned, skipped, no longer a collider), where the
/// last tick left it. A polyline's contact, and one whose colliders neither tick has, keep
/// the place of the contact's last event.
pub(super) fn ended_unswept(
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
pub(super) struct Places<'a> {
    entries: TickEntries<'a>,
    table: &'a mut Vec<(Entity, Slot)>,
}

impl<'a> Places<'a> {
    pub(super) fn new(entries: TickEntries<'a>, table: &'a mut Vec<(Entity, Slot)>) -> Self {
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
