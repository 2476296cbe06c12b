//! Each touching pair's outcome (its events, and what becomes of its record), worked out in
//! parallel; and the serial commit that applies the outcomes to [`Contacts`].

use super::ended::{Places, ended_unswept};
use super::{EventContext, ReportBuffers, event};
use crate::SweepSettings;
use crate::plugin::CollisionEvent;
use crate::plugin::CollisionKind;
use crate::plugin::Contacts;
use crate::plugin::events::{Touch, transitions};
use crate::plugin::tick::entries::{Slot, TickEntries};
use crate::plugin::tick::narrow::{ContactSpans, SpanPart, Touching};
use crate::plugin::tick::parts::{reset, run_parts};
use crate::plugin::tick::rest::RestingColliders;

/// The outcomes of one part of the touching pairs: their events, and the changes to their
/// records.
#[derive(Default)]
pub(super) struct Outcomes {
    /// The part's events, in the order they were found.
    pub(super) events: Vec<CollisionEvent>,
    changes: Vec<Change>,
    /// Scratch: one pair's events, as kinds and times.
    kinds: Vec<(CollisionKind, f32)>,
    /// Scratch: a polyline's contact's sources, by when they touch.
    sources: SourceIndex,
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

impl ReportBuffers {
    /// Works out every touching pair's outcome, part by part (in parallel when allowed).
    pub(super) fn outcomes(
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
            // Room up front for a change and an event per touching pair (a pair that starts
            // or ends a contact has one event, a lasting one none), so that a tick which
            // starts millions of contacts at once (a pile spawned at one point) grows these
            // buffers once rather than by doubling. A settled scene holds room for as many
            // events as it has touching pairs.
            out.events.reserve(part.touching.len());
            out.changes.reserve(part.touching.len());
            // The records are looked up a block at a time, before the block's outcomes are
            // worked out: the lookups miss the cache, and side by side the misses overlap.
            const BLOCK: usize = 16;
            for block in part.touching.chunks(BLOCK) {
                let mut records = [PriorRecord::default(); BLOCK];
                for (record, touching) in records.iter_mut().zip(block) {
                    *record = PriorRecord::of(part, touching, entries, contacts);
                }
                for (record, touching) in records.iter().zip(block) {
                    out.outcome(part, touching, *record, entries, cx);
                }
            }
        })
    }

    /// Applies the outcomes to [`Contacts`] in order, then ends the contacts of the pairs
    /// not swept in this tick.
    pub(super) fn commit(
        &mut self,
        tick: u64,
        entries: TickEntries,
        last: TickEntries,
        resting: &RestingColliders,
        contacts: &mut Contacts,
        cx: EventContext<'_>,
    ) {
        self.woken.clear();
        self.woken.extend(resting.woken.iter().copied());
        contacts.begin_tick(&self.woken);
        // At most this many new records (a change that sets a last event may also replace a
        // record).
        let new = self.outcomes[..self.count]
            .iter()
            .flat_map(|out| &out.changes)
            .filter(|change| matches!(change.update, Update::Set(_, Last::Event(_))))
            .count();
        contacts.reserve(new);
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
}

/// A touching pair's record before the tick, as far as it was read.
#[derive(Clone, Copy, Default)]
struct PriorRecord {
    /// Whether the record was read: a pair that touches at the tick's start, a polyline's,
    /// or one whose motion does not continue the last tick's. One that was not read was not
    /// in contact at the end of the last tick, unless the solvers' rounding disagreed with
    /// itself at the shared moment.
    read: bool,
    /// Its slot and state, if it has one.
    record: Option<(u32, Touch)>,
}

impl PriorRecord {
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
        PriorRecord { read, record }: PriorRecord,
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
        self.sources.build(part, touching);
        for &(kind, time) in &self.kinds {
            let (sa, sb) = self.sources.at(part, touching, time);
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

/// The contact intervals of a polyline's contact's sources (its edge pairs), by start: which
/// source touches nearest a moment, found without reading them all (a point raining through
/// a star of thousands of spikes crosses hundreds of them in a tick, each an event).
#[derive(Default)]
struct SourceIndex {
    /// Every source's intervals as (start, end, the source's number), by start.
    spans: Vec<(f32, f32, u32)>,
    /// The latest end among `spans[..=i]`.
    reach: Vec<f32>,
}

impl SourceIndex {
    fn build(&mut self, part: &SpanPart, touching: &Touching) {
        self.spans.clear();
        self.reach.clear();
        for (k, source) in (0u32..).zip(part.sources(touching)) {
            self.spans
                .extend(part.spans(source.spans).iter().map(|&[s, e]| (s, e, k)));
        }
        self.spans.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        let mut reach = f32::NEG_INFINITY;
        self.reach.extend(self.spans.iter().map(|&(_, e, _)| {
            reach = reach.max(e);
            reach
        }));
    }

    /// The pair of entries an event at `time` is taken from: the touching pair itself, or
    /// for a polyline's contact the edge pair whose contact is nearest that moment (one
    /// holds it; of equally near ones, the first found).
    fn at(&self, part: &SpanPart, touching: &Touching, time: f32) -> (Slot, Slot) {
        let mut best: Option<(f32, u32)> = None;
        let take = |best: &mut Option<(f32, u32)>, d: f32, k: u32| {
            if best.is_none_or(|(bd, bk)| d < bd || (d == bd && k < bk)) {
                *best = Some((d, k));
            }
        };
        // Those that start by `time`, latest start first, while one could still be as near.
        let started = self.spans.partition_point(|&(s, _, _)| s <= time);
        for i in (0..started).rev() {
            if best.is_some_and(|(bd, _)| self.reach[i] < time - bd) {
                break;
            }
            let (_, e, k) = self.spans[i];
            take(&mut best, (time - e).max(0.0), k);
        }
        // Those that start after it, earliest first.
        for &(s, _, k) in &self.spans[started..] {
            if best.is_some_and(|(bd, _)| s - time > bd) {
                break;
            }
            take(&mut best, s - time, k);
        }
        part.sources(touching)
            .get(best.map_or(0, |(_, k)| k as usize))
            .map_or((touching.a, touching.b), |s| (s.a, s.b))
    }
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
        Some(Touch::Touching) if !change.read => {
            let w = entries.witness(change.a, change.b, 0.0, true);
            Some(event(a, b, CollisionKind::Ended, 0.0, w, cx))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugin::tick::narrow::Source;
    use proptest::prelude::*;

    /// The nearest source read the slow way: every source, the first of equally near ones.
    fn nearest_by_reading_all(part: &SpanPart, touching: &Touching, time: f32) -> (Slot, Slot) {
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

    proptest! {
        /// On random sources (overlapping, touching, instants, several intervals each, on a
        /// coarse grid of moments so that ties are common), the index names the source the
        /// slow reading does.
        #[test]
        fn the_index_finds_the_source_reading_all_finds(
            sources in prop::collection::vec(
                prop::collection::vec((0u8..=16, 0u8..=4), 1..4), 0..24),
            times in prop::collection::vec(0u8..=20, 1..16),
        ) {
            let mut part = SpanPart::default();
            for (k, intervals) in (0u32..).zip(&sources) {
                let first = part.spans.len() as u32;
                part.spans.extend(intervals.iter().map(|&(s, l)| {
                    let s = f32::from(s) / 16.0;
                    [s, (s + f32::from(l) / 16.0).min(1.0)]
                }));
                part.sources.push(Source {
                    a: Slot::swept(k),
                    b: Slot::resting(k),
                    spans: (first, intervals.len() as u32),
                });
            }
            let touching = Touching {
                a: Slot::swept(u32::MAX >> 2),
                b: Slot::swept(u32::MAX >> 3),
                spans: (0, 0),
                sources: (0, part.sources.len() as u32),
            };
            let mut index = SourceIndex::default();
            index.build(&part, &touching);
            for t in times {
                let time = f32::from(t) / 20.0;
                prop_assert_eq!(
                    index.at(&part, &touching, time),
                    nearest_by_reading_all(&part, &touching, time),
                    "at {}", time
                );
            }
        }
    }
}
