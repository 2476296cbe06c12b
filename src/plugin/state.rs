//! What the plugin keeps: the colliders and the broad phase over them, from tick to tick (what
//! [`SweepQuery`](super::SweepQuery) reads), and the scratch of one tick.

use super::components::CollisionLayers;
use super::events::CollisionEvent;
use crate::broad::{BroadPhase, BroadPhaseMethod, order_key, sort_by_high_half};
use crate::narrow::ShapePath;
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::math::bounding::Aabb2d;
use bevy::platform::time::Instant;

/// One collider's motion in this tick (or one edge of a polyline's).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) entity: Entity,
    pub(crate) path: ShapePath,
    pub(crate) layers: CollisionLayers,
    /// The [`Body`](super::Body) the collider belongs to, if any.
    pub(crate) body: Option<Entity>,
    /// Which edge of a polyline this is (`chain`); `0` otherwise.
    pub(crate) part: u32,
    /// One edge of a polyline: its contacts are merged with its other edges' per pair of
    /// colliders.
    pub(crate) chain: bool,
    /// The motion starts where the last tick's ended, with the same shape: contacts at its
    /// start are those at the end of the last tick (the same exact tests decide both).
    pub(crate) continues: bool,
}

impl Entry {
    /// What the collider belongs to: its body, else itself. Pairs of one owner are never
    /// tested.
    #[inline]
    pub(crate) fn owner(&self) -> Entity {
        self.body.unwrap_or(self.entity)
    }
}

/// Colliders and the broad phase over their swept bounds.
#[derive(Default)]
pub(crate) struct Group {
    /// In the order gathered.
    pub(crate) bodies: Vec<Entry>,
    /// Their swept bounds: in the order gathered, then (after [`sort`](Self::sort)) in order
    /// of left edge.
    pub(crate) bounds: Vec<Aabb2d>,
    /// The boxes in order of left edge: the edge's key in the high half, the body in the low
    /// half (box `k` is body `keys[k] as u32`).
    keys: Vec<u64>,
    scratch: Vec<u64>,
    moved: Vec<Aabb2d>,
    /// The broad phase over `bounds` (indices into the sorted boxes).
    pub(crate) broad: BroadPhase,
}

impl Group {
    pub(crate) fn clear(&mut self) {
        self.bodies.clear();
        self.bounds.clear();
    }

    pub(crate) fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Puts the bounds in order of their left edges, ties by gather order, and keeps in
    /// `keys` which body each came from. The bodies stay where the gather put them (moving
    /// them costs more than reading the few that candidate pairs need).
    pub(crate) fn sort(&mut self) {
        self.keys.clear();
        self.keys.extend(
            (0u64..)
                .zip(&self.bounds)
                .map(|(i, b)| (u64::from(order_key(b.min.x)) << 32) | i),
        );
        sort_by_high_half(&mut self.keys, &mut self.scratch);
        self.moved.clear();
        let bounds = &self.bounds;
        self.moved
            .extend(self.keys.iter().map(|&k| bounds[k as u32 as usize]));
        core::mem::swap(&mut self.bounds, &mut self.moved);
    }

    /// [`sort`](Self::sort)s, then builds the structure the queries use (without pairs).
    pub(crate) fn sort_and_build(&mut self, method: BroadPhaseMethod) {
        self.sort();
        self.broad.set_method(method);
        self.broad.build_in_order(&self.bounds);
    }

    /// The body of the broad phase's box `sorted`.
    pub(crate) fn body(&self, sorted: usize) -> &Entry {
        &self.bodies[self.keys[sorted] as u32 as usize]
    }
}

/// Every collider as the last tick left it, and the broad phase over them.
///
/// Colliders that stood still for two ticks without changing are *resting*: they keep
/// their place in `resting`, which is rebuilt only when one of them starts to move, changes
/// or goes, and pairs of two of them are never tested (their contact cannot change). The
/// others are swept each tick, in `moving`.
#[derive(Resource, Default)]
pub(crate) struct Colliders {
    pub(crate) moving: Group,
    pub(crate) resting: Group,
    /// The entities of `resting`.
    pub(crate) resting_entities: EntityHashSet,
}

impl Colliders {
    /// Both groups, moving first.
    pub(crate) fn groups(&self) -> [&Group; 2] {
        [&self.moving, &self.resting]
    }
}

/// The scratch of one tick, kept to reuse its allocations.
#[derive(Resource, Default)]
pub(crate) struct Tick {
    /// When the tick's sweep began.
    pub(crate) started: Option<Instant>,
    /// The plugin's tick count.
    pub(crate) number: u64,
    /// The tick's duration in seconds.
    pub(crate) duration: f32,
    /// The candidate pairs in parts, each found by one task: the two bodies of each, copied
    /// when the broad phase reads them, since the narrow phase and the report read them in
    /// order where reading the bodies by index would miss the cache at every pair.
    pub(crate) parts: Vec<Vec<(Entry, Entry)>>,
    /// How many of `parts` this tick uses.
    pub(crate) part_count: usize,
    /// Scratch of a broad phase that finds its pairs all at once.
    pub(crate) found: Vec<(u32, u32)>,
    /// The narrow phase's answers, one per part.
    pub(crate) solved: Vec<Solved>,
    /// The report's work, one per part.
    pub(crate) reported: Vec<Reported>,
    /// This tick's events, in order once sorted.
    pub(crate) events: Vec<CollisionEvent>,
    /// The events' times as order keys (high halves) and indices (low halves), sorted; and
    /// scratch for the sort and for the events in that order.
    pub(crate) order: Vec<u64>,
    pub(crate) scratch: Vec<u64>,
    pub(crate) sorted: Vec<CollisionEvent>,
    /// Events to trigger on observed entities.
    pub(crate) targets: Vec<CollisionEvent>,
}

impl Tick {
    /// Makes room for `count` parts, each cleared.
    pub(crate) fn start_parts(&mut self, count: usize) {
        if self.parts.len() < count {
            self.parts.resize_with(count, Vec::new);
            self.solved.resize_with(count, Solved::default);
            self.reported.resize_with(count, Reported::default);
        }
        self.part_count = count;
        for part in &mut self.parts[..count] {
            part.clear();
        }
    }

    /// This tick's parts of candidate pairs.
    pub(crate) fn parts(&self) -> &[Vec<(Entry, Entry)>] {
        &self.parts[..self.part_count]
    }
}

/// The narrow phase's answers for one part of the candidate pairs.
#[derive(Default)]
pub(crate) struct Solved {
    /// The pairs that touch: their index in the part, where their intervals start in `spans`
    /// and how many there are.
    pub(crate) touching: Vec<(u32, u32, u32)>,
    /// The contact intervals of the touching pairs.
    pub(crate) spans: Vec<[f32; 2]>,
    /// Pairs that needed exact arithmetic.
    pub(crate) exact: usize,
    /// Pairs of a point and a box, solved in SIMD batches.
    pub(crate) batched: usize,
}

impl Solved {
    pub(crate) fn clear(&mut self) {
        self.touching.clear();
        self.spans.clear();
        self.exact = 0;
        self.batched = 0;
    }

    /// Adds a touching pair.
    pub(crate) fn push(&mut self, index: u32, intervals: &[[f32; 2]]) {
        self.touching
            .push((index, self.spans.len() as u32, intervals.len() as u32));
        self.spans.extend_from_slice(intervals);
    }
}

/// The report's work on one part of the touching pairs: their events, and how their
/// contact records change.
#[derive(Default)]
pub(crate) struct Reported {
    pub(crate) events: Vec<CollisionEvent>,
    /// Records to change: the pair (smaller entity first), its state after this tick
    /// (`None`: no contact), and, if its record before this tick was not read, its index in
    /// the part (it was then not in contact at the end of the last tick, unless the solvers'
    /// rounding disagreed with itself at the shared moment).
    pub(crate) records: Vec<(
        (Entity, Entity),
        Option<super::contacts::Record>,
        Option<u32>,
    )>,
    /// Scratch: one pair's events, as kinds and times.
    pub(crate) kinds: Vec<(super::events::CollisionKind, f32)>,
}
