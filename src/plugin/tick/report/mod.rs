//! **Report**: an event for every contact, in a fixed order, and the contact state kept
//! between ticks.
//!
//! Reads: [`ContactSpans`], the entries' paths ([`Paths`], [`RestingColliders`]), which
//! colliders rest and which woke ([`RestingColliders`]), the tick's duration
//! ([`Motions`]), the composite colliders ([`Composites`]), where the last tick left the
//! colliders ([`Snapshot`]), and [`Contacts`] as the last tick left it.
//! Writes: [`ReportBuffers`] (the events in order), [`Contacts`], the [`TickCount`], and
//! [`SweepStats`]' `events`, `report_time` and `report_tasks`. Then [`send_events`] sends
//! the events as [`CollisionEvent`] messages, and [`trigger_observers`], the one exclusive
//! step, triggers them on their entities.
//!
//! It runs in two steps. Each touching pair's *outcome* (its events, and what becomes of its
//! record) is a pure value of its contact intervals and its record before the tick, worked
//! out part by part in parallel. One serial *commit* then applies the outcomes to
//! [`Contacts`] in a fixed order, and ends the contacts of the pairs that were not swept.

mod ended;
mod order;
mod outcome;

use super::entries::{Entry, Slot, TickEntries};
use super::gather::Motions;
use super::narrow::ContactSpans;
use super::publish::Snapshot;
use super::respond::Paths;
use super::rest::RestingColliders;
use crate::SweepSettings;
use crate::narrow::Witness;
use crate::plugin::components::Composites;
use crate::plugin::{CollisionEvent, CollisionKind, Contacts, SweepStats};
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::ecs::system::{NonSendMarker, SystemParam};
use bevy::math::Vec2;
use bevy::platform::time::Instant;
use outcome::Outcomes;

/// The report's hand-off, written by [`report`] alone: the tick's events and their order,
/// which [`send_events`] and [`trigger_observers`] deliver; and the buffers that work them
/// out, kept from tick to tick to reuse their allocations (but for scratch that one tick grew
/// far beyond a busy scene's needs, freed after use). Nothing in it outlives the tick.
#[derive(Resource, Default)]
pub(crate) struct ReportBuffers {
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

/// How many ticks the report has committed: the contacts' records are marked with the tick
/// of their last change. Kept by the report, saved and restored with the
/// [`SweepState`](crate::SweepState).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TickCount(pub(crate) u64);

/// What the report reads besides its own buffers: the tick's entries, their contact
/// intervals and composite shapes, and where the last tick left the colliders.
#[derive(SystemParam)]
pub(crate) struct ReportInputs<'w> {
    settings: Res<'w, SweepSettings>,
    motions: Res<'w, Motions>,
    paths: Res<'w, Paths>,
    resting: Res<'w, RestingColliders>,
    spans: Res<'w, ContactSpans>,
    composites: Res<'w, Composites>,
    snapshot: Res<'w, Snapshot>,
}

/// Turns this tick's contact intervals into events, commits them to [`Contacts`], and puts
/// the events in order.
pub(crate) fn report(
    _main_thread: NonSendMarker,
    input: ReportInputs,
    mut tick: ResMut<TickCount>,
    mut contacts: ResMut<Contacts>,
    mut report: ResMut<ReportBuffers>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    let entries = TickEntries {
        swept: input.paths.entries(&input.motions),
        resting: &input.resting.group.entries,
    };
    let cx = EventContext {
        duration: input.motions.duration,
        composites: &input.composites,
    };
    stats.report_tasks = report.outcomes(&input.settings, &input.spans, entries, &contacts, cx);
    tick.0 += 1;
    let last = TickEntries {
        swept: &input.snapshot.swept.entries,
        resting: &input.snapshot.resting.entries,
    };
    report.commit(tick.0, entries, last, &input.resting, &mut contacts, cx);
    report.order_events();
    stats.events = report.order.len();
    stats.report_time = began.elapsed();
}

/// Sends the tick's events as [`CollisionEvent`] messages, in order.
pub(crate) fn send_events(
    _main_thread: NonSendMarker,
    report: Res<ReportBuffers>,
    mut messages: MessageWriter<CollisionEvent>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    if !report.order.is_empty() {
        messages.write_batch(report.in_order().copied());
    }
    stats.report_time += began.elapsed();
}

/// Triggers each of the tick's events on both its entities, in order: the one step that
/// needs the whole world (observers may do anything).
pub(crate) fn trigger_observers(world: &mut World) {
    let began = Instant::now();
    world.resource_scope(|world, mut report: Mut<ReportBuffers>| report.trigger(world));
    world.resource_mut::<SweepStats>().report_time += began.elapsed();
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
