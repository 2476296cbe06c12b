//! The systems of one tick, and the resources they keep between ticks.

use super::SweepSettings;
use super::broad::inflate;
use super::components::{
    AngularVelocity, Collider, CollisionLayers, MISSING_TRANSFORM, SweptPath, Teleport, Velocity,
    world_plane, world_plane_from,
};
use super::events::{CollisionEvent, CollisionKind, Touch, transitions};
use crate::broad::{BroadPhase, order_key, sort_by_high_half, usable as usable_bounds};
use crate::geometry::robust::expansions;
use crate::narrow::{
    Intervals, PointBoxBatch, Shape, ShapePath, Witness, contact_intervals_of_valid, witness,
};
use bevy::ecs::prelude::*;
use bevy::math::{Affine2, Vec2, bounding::Aabb2d};
use bevy::platform::collections::HashMap;
use bevy::platform::collections::hash_map::Entry;
use bevy::platform::time::Instant;
use bevy::tasks::ComputeTaskPool;
use bevy::time::Time;
use bevy::transform::components::Transform;
use core::time::Duration;

/// Pairs of colliders in contact at the end of the last tick (a contact that has
/// [`Started`](CollisionKind::Started) and not yet [`Ended`](CollisionKind::Ended)).
#[derive(Resource, Default, Debug)]
pub struct Contacts {
    pairs: HashMap<(Entity, Entity), Record>,
}

#[derive(Clone, Copy, Debug)]
struct Record {
    state: Touch,
    /// The last event of the pair, seen from the first entity: the place of an `Ended` sent
    /// when one of them disappears.
    last: CollisionEvent,
    tick: u64,
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
    fn key(a: Entity, b: Entity) -> (Entity, Entity) {
        (a.min(b), a.max(b))
    }

    /// `true` if `a` and `b` are in contact (in either order).
    #[must_use]
    pub fn contains(&self, a: Entity, b: Entity) -> bool {
        self.pairs
            .get(&Self::key(a, b))
            .is_some_and(|r| r.state == Touch::Touching)
    }

    /// Every pair in contact, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = Contact> + '_ {
        self.pairs
            .iter()
            .filter(|(_, r)| r.state == Touch::Touching)
            .map(|(&(entity, other), r)| Contact {
                entity,
                other,
                started: r.last,
            })
    }

    /// Every entity in contact with `entity`.
    pub fn touching(&self, entity: Entity) -> impl Iterator<Item = Entity> + '_ {
        self.iter().filter_map(move |c| {
            if c.entity == entity {
                Some(c.other)
            } else if c.other == entity {
                Some(c.entity)
            } else {
                None
            }
        })
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
}

/// Colliders the plugin could not sweep in the last tick, with the reason: a non-finite
/// transform or velocity, a size that is not positive, a zero-length segment, coordinates so
/// close to `f32::MAX` that the swept bounds overflow.
///
/// A skipped collider takes part in no contact (its contacts end); every other pair is
/// unaffected. The plugin logs one warning naming the entity when it starts being skipped
/// (or the reason changes), not every tick. When the input becomes usable again the
/// collider starts afresh from where it is, as if teleported.
#[derive(Resource, Default, Debug)]
pub struct SkippedColliders {
    reasons: HashMap<Entity, &'static str>,
}

impl SkippedColliders {
    /// Why `entity` was skipped in the last tick, if it was.
    #[must_use]
    pub fn reason(&self, entity: Entity) -> Option<&'static str> {
        self.reasons.get(&entity).copied()
    }

    /// Every skipped entity and why.
    pub fn iter(&self) -> impl Iterator<Item = (Entity, &'static str)> + '_ {
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

    fn record(&mut self, entity: Entity, reason: &'static str) {
        if self.reasons.insert(entity, reason) != Some(reason) {
            log::warn!("bevy_sweep: skipping collider {entity}: {reason}");
        }
    }
}

/// What the last tick did, for profiling and for checking a scene (read it after
/// [`SweepSystems::Report`](super::SweepSystems::Report) or in `Update`). Non-exhaustive:
/// later versions may count more.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SweepStats {
    /// Colliders swept.
    pub colliders: usize,
    /// Colliders skipped as unusable (see [`SkippedColliders`]).
    pub skipped: usize,
    /// Pairs whose swept bounds overlap and whose layers interact (the broad phase's output).
    pub candidate_pairs: usize,
    /// Pairs that touched at some moment of the tick.
    pub touching_pairs: usize,
    /// Events sent (messages; observers get each twice, once per entity).
    pub events: usize,
    /// Candidate pairs of a point and a box, which the narrow phase solves eight at a time
    /// with SIMD ([`PointBoxBatch`]).
    pub batched_pairs: usize,
    /// Candidate pairs whose contact could not be decided by floating-point arithmetic with
    /// an error bound and needed exact (expansion) arithmetic: shapes within rounding of a
    /// touch. Normally a tiny share of [`candidate_pairs`](Self::candidate_pairs).
    pub exact_pairs: usize,
    /// Chunks the narrow phase ran in parallel on the compute task pool (0: it ran serially).
    pub parallel_chunks: usize,
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
    /// collider's motion and the pairs whose swept bounds overlap.
    pub broad_phase_time: Duration,
    /// Time of [`SweepSystems::NarrowPhase`](super::SweepSystems::NarrowPhase): the exact
    /// contact intervals of the candidate pairs.
    pub narrow_phase_time: Duration,
    /// Time of [`SweepSystems::Report`](super::SweepSystems::Report): events, observers and
    /// [`Contacts`].
    pub report_time: Duration,
}

/// One collider's motion in this tick.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Body {
    pub(crate) entity: Entity,
    pub(crate) path: ShapePath,
    pub(crate) layers: CollisionLayers,
}

/// Scratch state of the current tick, kept to reuse its allocations (and read by
/// [`SweepQuery`](super::SweepQuery)).
#[derive(Resource, Default)]
pub struct TickState {
    started: Option<Instant>,
    tick: u64,
    duration: f32,
    /// In query order (pairs are put in entity order where it matters).
    pub(crate) bodies: Vec<Body>,
    bounds: Vec<Aabb2d>,
    /// The boxes in order of left edge: the edge's key in the high half, the body in the low
    /// half (the broad phase's box `k` is body `keys[k] as u32`).
    keys: Vec<u64>,
    scratch: Vec<u64>,
    moved_bounds: Vec<Aabb2d>,
    /// The broad phase over `bounds` (indices into `bodies`).
    pub(crate) broad: BroadPhase,
    /// The candidate pairs: the two bodies of each, copied when the broad phase reads them.
    /// The narrow phase and the report read them in order, where reading `bodies` by index
    /// would miss the cache at every pair in a large world.
    pairs: Vec<(Body, Body)>,
    /// Pairs that touch in this tick (by index into `pairs`), with when: those solved one by
    /// one in the order of `pairs`, then the batched ones (the report does not depend on this
    /// order).
    results: Vec<(u32, Intervals)>,
    batch: PointBoxBatch,
    /// Each parallel chunk's share of `results`.
    chunks: Vec<Vec<(u32, Intervals)>>,
    /// Events to trigger on observed entities.
    targets: Vec<CollisionEvent>,
    kinds: Vec<(CollisionKind, f32)>,
    events: Vec<CollisionEvent>,
    /// The events' times as order keys (high halves) and indices (low halves), sorted; and
    /// the events in that order.
    order: Vec<u64>,
    sorted: Vec<CollisionEvent>,
}

/// Where this tick's motion starts for new and teleported colliders: where they are now.
pub(crate) fn prepare(
    mut commands: Commands,
    mut state: ResMut<TickState>,
    mut colliders: Query<(Entity, Ref<Collider>, &mut SweptPath, Has<Teleport>)>,
    transforms: Query<(&Transform, Option<&ChildOf>)>,
) {
    state.started = Some(Instant::now());
    for (entity, collider, mut swept, teleport) in &mut colliders {
        if teleport {
            commands.entity(entity).try_remove::<Teleport>();
        }
        // New, re-inserted (the entity may have moved while it had no collider) or
        // teleported: start from here.
        if swept.previous.is_none() || teleport || collider.is_added() {
            let world = world_plane(entity, &transforms).ok();
            swept.previous = world.map(|w| collider.shape_in(&w)).filter(usable);
            swept.previous_world = world.map(Into::into);
        }
    }
}

/// Moves transforms by their velocities over the tick. Non-finite velocities are left out
/// (the collider is then reported in [`SkippedColliders`]).
pub(crate) fn integrate(
    time: Res<Time>,
    mut movers: Query<
        (&mut Transform, Option<&Velocity>, Option<&AngularVelocity>),
        Or<(With<Velocity>, With<AngularVelocity>)>,
    >,
) {
    let dt = time.delta_secs();
    for (mut transform, velocity, angular) in &mut movers {
        if let Some(&Velocity(v)) = velocity
            && v.is_finite()
            && v != Vec2::ZERO
        {
            transform.translation += (v * dt).extend(0.0);
        }
        if let Some(&AngularVelocity(w)) = angular
            && w.is_finite()
            && w != 0.0
        {
            transform.rotate_z(w * dt);
        }
    }
}

/// Why a collider cannot be swept this tick, if it cannot.
fn problem(
    collider: &Collider,
    world: Result<Affine2, &'static str>,
    velocity: Option<&Velocity>,
    angular: Option<&AngularVelocity>,
) -> Result<Shape, &'static str> {
    if let Some(reason) = collider.problem() {
        return Err(reason);
    }
    if velocity.is_some_and(|v| !v.0.is_finite()) {
        return Err("Velocity is not finite");
    }
    if angular.is_some_and(|w| !w.0.is_finite()) {
        return Err("AngularVelocity is not finite");
    }
    let shape = collider.shape_in(&world?);
    if usable(&shape) {
        Ok(shape)
    } else {
        Err("its world-space shape is degenerate or not finite (check the scale)")
    }
}

/// `true` if the shape can be swept: [valid](Shape::is_valid), and a segment's ends apart.
fn usable(shape: &Shape) -> bool {
    shape.is_valid() && !matches!(*shape, Shape::Segment(a, b) if a == b)
}

/// Collects every collider's motion in this tick and the pairs whose swept bounds overlap.
pub(crate) fn broad_phase(
    time: Res<Time>,
    settings: Res<SweepSettings>,
    mut state: ResMut<TickState>,
    mut skipped: ResMut<SkippedColliders>,
    mut stats: ResMut<SweepStats>,
    mut colliders: Query<(
        Entity,
        &Collider,
        &mut SweptPath,
        &CollisionLayers,
        Option<&Velocity>,
        Option<&AngularVelocity>,
        Option<(&Transform, Option<&ChildOf>)>,
    )>,
    transforms: Query<(&Transform, Option<&ChildOf>)>,
) {
    let began = Instant::now();
    let prepare_time = state.started.map(|t| began - t).unwrap_or_default();
    let state = &mut *state;
    state.tick += 1;
    state.duration = time.delta_secs();
    state.bodies.clear();
    state.bounds.clear();
    for (entity, collider, mut swept, layers, velocity, angular, transform) in &mut colliders {
        let world = transform.map_or(Err(MISSING_TRANSFORM), |(t, parent)| {
            world_plane_from(t, parent, &transforms)
        });
        let motion = problem(collider, world, velocity, angular).and_then(|end| {
            // The start: where it was (a usable shape: `previous` is only ever set to one);
            // if its kind of shape changed since, the new shape where it was.
            let path = swept
                .previous
                .and_then(|previous| ShapePath::between(previous, end))
                .or_else(|| {
                    let start = collider.shape_in(&swept.previous_world?.into());
                    ShapePath::between(start, end).filter(ShapePath::is_valid)
                })
                .unwrap_or_else(|| ShapePath::still(end));
            let bounds = inflate(path.swept_bounds());
            if usable_bounds(&bounds) {
                Ok((end, path, bounds))
            } else {
                Err("its swept bounds overflow (coordinates too close to f32::MAX)")
            }
        });
        let (end, path, bounds) = match motion {
            Ok(motion) => motion,
            Err(reason) => {
                skipped.record(entity, reason);
                swept.path = None;
                swept.restart();
                continue;
            }
        };
        if !skipped.reasons.is_empty() && skipped.reasons.remove(&entity).is_some() {
            log::info!("bevy_sweep: collider {entity} is usable again");
        }
        let swept = swept.into_inner();
        swept.path = Some(path);
        swept.tick = state.tick;
        swept.previous = Some(end);
        swept.previous_world = world.ok().map(Into::into);
        state.bodies.push(Body {
            entity,
            path,
            layers: *layers,
        });
        state.bounds.push(bounds);
    }
    skipped.reasons.retain(|&e, _| colliders.contains(e));
    order_by_left_edge(state);
    state.broad.set_method(settings.broad_phase);
    let (bodies, keys) = (&state.bodies, &state.keys);
    let pairs = &mut state.pairs;
    pairs.clear();
    // Every box is usable (checked above) and in order. Each pair's bodies are read once,
    // for their layers and to keep a copy for the narrow phase and the report.
    state.broad.find_pairs_in_order(&state.bounds, |i, j| {
        let (a, b) = (
            &bodies[keys[i as usize] as u32 as usize],
            &bodies[keys[j as usize] as u32 as usize],
        );
        if a.layers.interacts_with(&b.layers) {
            pairs.push((*a, *b));
        }
    });
    *stats = SweepStats {
        colliders: state.bodies.len(),
        skipped: skipped.len(),
        candidate_pairs: state.pairs.len(),
        prepare_time,
        broad_phase_time: began.elapsed(),
        ..SweepStats::default()
    };
}

/// Puts the bounds in order of their left edges, ties by query order, and keeps in `keys`
/// which body each came from (the low halves). The broad phase finds the boxes sorted; the
/// bodies stay where the gather put them (moving them costs more than reading the few that
/// candidate pairs need).
fn order_by_left_edge(state: &mut TickState) {
    state.keys.clear();
    state.keys.extend(
        (0u64..)
            .zip(&state.bounds)
            .map(|(i, b)| (u64::from(order_key(b.min.x)) << 32) | i),
    );
    sort_by_high_half(&mut state.keys, &mut state.scratch);
    let (keys, bounds) = (&state.keys, &state.bounds);
    state.moved_bounds.clear();
    state
        .moved_bounds
        .extend(keys.iter().map(|&k| bounds[k as u32 as usize]));
    core::mem::swap(&mut state.bounds, &mut state.moved_bounds);
}

impl TickState {
    /// The body of the broad phase's box `sorted`.
    pub(crate) fn body(&self, sorted: usize) -> &Body {
        &self.bodies[self.keys[sorted] as u32 as usize]
    }
}

/// Contact intervals of every candidate pair: point–box pairs eight at a time with SIMD,
/// the others one by one, in parallel when allowed.
pub(crate) fn narrow_phase(
    settings: Res<SweepSettings>,
    mut state: ResMut<TickState>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    let state = &mut *state;
    // The pairs `pairs`, the first of which is pair `offset`; returns how many needed exact
    // arithmetic.
    let solve = |offset: usize, pairs: &[(Body, Body)], out: &mut Vec<(u32, Intervals)>| {
        out.clear();
        let mut exact = 0;
        out.extend(
            (offset as u32..)
                .zip(pairs)
                .filter(|(_, (a, b))| !point_and_box(a, b))
                .filter_map(|(k, (a, b))| {
                    let before = expansions();
                    // Every body's path is valid (checked in the broad phase).
                    let intervals = contact_intervals_of_valid(&a.path, &b.path);
                    exact += usize::from(expansions() != before);
                    (!intervals.is_empty()).then_some((k, intervals))
                }),
        );
        exact
    };
    // Pairs per task: a few tasks for every thread, so that a thread that wakes late still
    // finds work, and never so few pairs that a task costs more to spawn than to run.
    const FEWEST: usize = 128;
    const MOST: usize = 1024;
    match ComputeTaskPool::try_get() {
        Some(pool) if settings.parallel && pool.thread_num() > 1 && state.pairs.len() > FEWEST => {
            let chunk = state
                .pairs
                .len()
                .div_ceil(4 * pool.thread_num())
                .clamp(FEWEST, MOST);
            // Each chunk fills its own buffer (kept between ticks); the buffers are joined in
            // chunk order, so the result does not depend on the number of threads.
            let count = state.pairs.len().div_ceil(chunk);
            if state.chunks.len() < count {
                state.chunks.resize_with(count, Vec::new);
            }
            stats.parallel_chunks = count;
            let exact = pool.scope(|scope| {
                for (c, (pairs, out)) in
                    state.pairs.chunks(chunk).zip(&mut state.chunks).enumerate()
                {
                    scope.spawn(async move { solve(c * chunk, pairs, out) });
                }
            });
            stats.exact_pairs = exact.into_iter().sum();
            state.results.clear();
            for out in &state.chunks[..count] {
                state.results.extend_from_slice(out);
            }
        }
        _ => stats.exact_pairs = solve(0, &state.pairs, &mut state.results),
    }
    // The point–box pairs, after the others (the report does not depend on the order of
    // pairs).
    let (pairs, results) = (&state.pairs, &mut state.results);
    let mut batched = 0;
    let before = expansions();
    state.batch.intervals_of(
        (0..)
            .zip(pairs)
            .filter(|(_, (a, b))| point_and_box(a, b))
            .inspect(|_| batched += 1)
            .map(|(k, (a, b))| (k, a.path, b.path)),
        |k, interval| results.push((k as u32, Intervals::single(interval))),
    );
    stats.batched_pairs = batched;
    // (The batch reaches exact arithmetic only through the scalar clip's rare fallback;
    // counted once per fallback, an upper bound on the pairs.)
    stats.exact_pairs += (expansions() - before) as usize;
    stats.touching_pairs = state.results.len();
    stats.narrow_phase_time = began.elapsed();
}

/// A pair of a point and a box, in either order.
fn point_and_box(a: &Body, b: &Body) -> bool {
    matches!(
        (&a.path, &b.path),
        (ShapePath::Point(_), ShapePath::Aabb { .. })
            | (ShapePath::Aabb { .. }, ShapePath::Point(_))
    )
}

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

/// This tick's events of every touching pair and of every contact that ended since the last
/// tick, into `state.events`; updates `contacts`.
fn pair_events(world: &World, state: &mut TickState, contacts: &mut Contacts) {
    let (tick, duration) = (state.tick, state.duration);
    state.events.clear();
    for (k, intervals) in &state.results {
        let pair = &state.pairs[*k as usize];
        let (mut a, mut b) = (&pair.0, &pair.1);
        // Each pair is seen from its smaller entity (contact intervals are symmetric).
        if b.entity < a.entity {
            core::mem::swap(&mut a, &mut b);
        }
        // One lookup per pair: read the record, then write it back or remove it.
        let entry = contacts.pairs.entry((a.entity, b.entity));
        let record = match &entry {
            Entry::Occupied(occupied) => Some(*occupied.get()),
            Entry::Vacant(_) => None,
        };
        state.kinds.clear();
        let after = transitions(
            intervals,
            record.map_or(Touch::Apart, |r| r.state),
            &mut state.kinds,
        );
        let mut last = record.map(|r| r.last);
        for &(kind, time) in &state.kinds {
            let w = witness(&a.path, &b.path, time, kind == CollisionKind::Ended);
            let e = event(a.entity, b.entity, kind, time, w, duration);
            state.events.push(e);
            if kind != CollisionKind::Ended {
                last = Some(e);
            }
        }
        match (after, last) {
            (Touch::Apart, _) | (_, None) => {
                if let Entry::Occupied(occupied) = entry {
                    occupied.remove();
                }
            }
            (state, Some(last)) => {
                entry.insert(Record { state, last, tick });
            }
        }
    }
    // Pairs in contact last tick with no contact now: apart, despawned, skipped, or no
    // longer tested. Their contact ended at the start of this tick.
    // This tick's path of a collider. One left out of this tick (its `Collider` or
    // `CollisionLayers` removed) keeps the path of the last tick it was swept in: it stands
    // still where that tick left it, the start of this one.
    let path = |e: Entity| {
        let swept = world.get::<SweptPath>(e)?;
        let path = swept.path?;
        Some(if swept.tick == tick {
            path
        } else {
            ShapePath::still(path.at(1.0))
        })
    };
    let events = &mut state.events;
    contacts.pairs.retain(|&(ea, eb), record| {
        if record.tick == tick {
            return true;
        }
        if record.state == Touch::Touching {
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
        }
        false
    });
}

/// Puts in `state.order` the indices of `state.events` (in the low halves) in the order of
/// their [keys](CollisionEvent::order_key), ties by index. Sorting indices rather than events
/// moves far fewer bytes: a radix sort by time, then the few runs of equal times by the rest
/// of the key.
fn order_events(state: &mut TickState) {
    let events = &state.events;
    state.order.clear();
    state.order.extend(
        (0u64..)
            .zip(events)
            .map(|(i, e)| (u64::from(order_key(e.time_of_impact)) << 32) | i),
    );
    sort_by_high_half(&mut state.order, &mut state.scratch);
    for run in state.order.chunk_by_mut(|a, b| a >> 32 == b >> 32) {
        if run.len() > 1 {
            run.sort_unstable_by_key(|&k| (events[k as u32 as usize].order_key(), k as u32));
        }
    }
}

/// Turns contact intervals into events, sends and triggers them, updates [`Contacts`].
pub(crate) fn report(world: &mut World) {
    let began = Instant::now();
    world.resource_scope(|world, mut state: Mut<TickState>| {
        let state = &mut *state;
        world.resource_scope(|world, mut contacts: Mut<Contacts>| {
            pair_events(world, state, &mut contacts);
        });
        order_events(state);
        state.sorted.clear();
        state
            .sorted
            .extend(state.order.iter().map(|&k| state.events[k as u32 as usize]));
        core::mem::swap(&mut state.events, &mut state.sorted);
        if !state.events.is_empty() {
            world.write_message_batch(state.events.iter().copied());
            trigger_observers(world, &state.events, &mut state.targets);
        }
        let mut stats = world.resource_mut::<SweepStats>();
        stats.events = state.events.len();
        stats.report_time = began.elapsed();
        stats.elapsed = state
            .started
            .take()
            .map(|t| t.elapsed())
            .unwrap_or_default();
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
