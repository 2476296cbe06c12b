//! What the plugin keeps: the colliders and the broad phase over them, from tick to tick (what
//! [`SweepQuery`](super::SweepQuery) reads), and the scratch of one tick.

use super::components::CollisionLayers;
use super::events::CollisionEvent;
use crate::broad::{BroadPhase, BroadPhaseMethod, order_key, sort_by_high_half};
use crate::narrow::{ConvexVertices, ShapePath};
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use bevy::math::bounding::Aabb2d;
use bevy::platform::time::Instant;

/// A collider's motion as the broad phase keeps it: the basic shapes inline, a rounded
/// polygon's vertex paths in its group's table ([`Group::convex`]). Inline, they would make
/// every entry, and every candidate pair (which copies two), about three times larger,
/// which slowed the ticks of scenes without a polygon by a fifth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Motion {
    Point([Vec2; 2]),
    Segment {
        a: [Vec2; 2],
        b: [Vec2; 2],
    },
    Circle {
        center: [Vec2; 2],
        radius: f32,
    },
    Aabb {
        center: [Vec2; 2],
        half_extents: Vec2,
    },
    /// A rounded polygon: its index in its group's table, with [`RESTING`] set for the
    /// resting group's.
    Convex(u32),
}

/// Marks a [`Motion::Convex`] index into the resting group's table.
pub(crate) const RESTING: u32 = 1 << 31;

impl Motion {
    /// `path`, a rounded polygon's put in `table` (whose indices are tagged with `tag`).
    pub(crate) fn new(path: &ShapePath, table: &mut Vec<ConvexVertices>, tag: u32) -> Self {
        match *path {
            ShapePath::Point(p) => Motion::Point(p),
            ShapePath::Segment { a, b } => Motion::Segment { a, b },
            ShapePath::Circle { center, radius } => Motion::Circle { center, radius },
            ShapePath::Aabb {
                center,
                half_extents,
            } => Motion::Aabb {
                center,
                half_extents,
            },
            ShapePath::Convex(convex) => {
                table.push(convex);
                Motion::Convex((table.len() - 1) as u32 | tag)
            }
        }
    }

    /// A basic shape's motion as a [`ShapePath`]; `None` for a rounded polygon (whose
    /// vertex paths are elsewhere).
    #[inline]
    pub(crate) fn basic(&self) -> Option<ShapePath> {
        Some(match *self {
            Motion::Point(p) => ShapePath::Point(p),
            Motion::Segment { a, b } => ShapePath::Segment { a, b },
            Motion::Circle { center, radius } => ShapePath::Circle { center, radius },
            Motion::Aabb {
                center,
                half_extents,
            } => ShapePath::Aabb {
                center,
                half_extents,
            },
            Motion::Convex(_) => return None,
        })
    }

    /// The motion from where `start` ends to where `end` ends, sizes from `end`; `None` for
    /// two kinds of shape (and for polygons, which take [`ShapePath::between`]).
    #[inline(always)]
    pub(crate) fn between(start: &Self, end: &Self) -> Option<Self> {
        Some(match (*start, *end) {
            (Motion::Point([_, p]), Motion::Point([_, q])) => Motion::Point([p, q]),
            (Motion::Segment { a: a0, b: b0 }, Motion::Segment { a, b }) => Motion::Segment {
                a: [a0[1], a[1]],
                b: [b0[1], b[1]],
            },
            (Motion::Circle { center: c0, .. }, Motion::Circle { center, radius }) => {
                Motion::Circle {
                    center: [c0[1], center[1]],
                    radius,
                }
            }
            (
                Motion::Aabb { center: c0, .. },
                Motion::Aabb {
                    center,
                    half_extents,
                },
            ) => Motion::Aabb {
                center: [c0[1], center[1]],
                half_extents,
            },
            _ => return None,
        })
    }

    /// [`ShapePath::swept_bounds`] of a basic shape's motion.
    #[inline(always)]
    pub(crate) fn swept_bounds(&self) -> Aabb2d {
        let ([p, q], grow) = match *self {
            Motion::Point(p) => (p, Vec2::ZERO),
            Motion::Segment { a, b } => (
                [
                    a[0].min(a[1]).min(b[0].min(b[1])),
                    a[0].max(a[1]).max(b[0].max(b[1])),
                ],
                Vec2::ZERO,
            ),
            Motion::Circle { center, radius } => (center, Vec2::splat(radius)),
            Motion::Aabb {
                center,
                half_extents,
            } => (center, half_extents),
            Motion::Convex(_) => ([Vec2::ZERO; 2], Vec2::ZERO),
        };
        Aabb2d {
            min: p.min(q) - grow,
            max: p.max(q) + grow,
        }
    }

    /// `true` if nothing moves.
    #[inline(always)]
    pub(crate) fn is_still(&self) -> bool {
        match *self {
            Motion::Point(p) => p[0] == p[1],
            Motion::Segment { a, b } => a[0] == a[1] && b[0] == b[1],
            Motion::Circle { center, .. } | Motion::Aabb { center, .. } => center[0] == center[1],
            Motion::Convex(_) => false,
        }
    }

    /// `true` if the shape at both ends can be swept: every coordinate finite, every size
    /// positive and finite, a segment's ends apart.
    #[inline(always)]
    pub(crate) fn is_usable(&self) -> bool {
        let finite = |[p, q]: [Vec2; 2]| p.is_finite() && q.is_finite();
        match *self {
            Motion::Point(p) => finite(p),
            Motion::Segment { a, b } => finite(a) && finite(b) && a[0] != b[0] && a[1] != b[1],
            Motion::Circle { center, radius } => {
                finite(center) && radius.is_finite() && radius > 0.0
            }
            Motion::Aabb {
                center,
                half_extents,
            } => finite(center) && half_extents.is_finite() && half_extents.cmpgt(Vec2::ZERO).all(),
            Motion::Convex(_) => false,
        }
    }

    /// `true` for a point or an axis-aligned box (the pairs solved in SIMD batches).
    pub(crate) fn is_point(&self) -> bool {
        matches!(self, Motion::Point(_))
    }

    /// `true` for an axis-aligned box.
    pub(crate) fn is_aabb(&self) -> bool {
        matches!(self, Motion::Aabb { .. })
    }
}

/// One collider's motion in this tick (or one edge of a polyline's).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) entity: Entity,
    /// Its motion (read it as a [`ShapePath`] with [`Colliders::path`]).
    pub(crate) path: Motion,
    pub(crate) layers: CollisionLayers,
    /// The [`Body`](super::Body) the collider belongs to, if any.
    pub(crate) body: Option<Entity>,
    /// Which edge of a polyline this is, and two flags ([`Entry::chain`],
    /// [`Entry::continues`]) in the top bits: packed so that an entry takes 64 bytes, and
    /// a candidate pair (two entries, copied for every pair) one cache line pair.
    pub(crate) flags: u32,
}

// Two entries are copied for every candidate pair: keep a pair within two cache lines.
const _: () = assert!(size_of::<Entry>() <= 64);

/// [`Entry::flags`]: the entry is one edge of a polyline.
const CHAIN: u32 = 1 << 31;
/// [`Entry::flags`]: the motion continues the last tick's.
const CONTINUES: u32 = 1 << 30;

impl Entry {
    /// The flags of an entry: the edge of a polyline (`Some`), and whether the motion
    /// starts where the last tick's ended, with the same shape (contacts at its start are
    /// those at the end of the last tick, which the same exact tests decided).
    pub(crate) fn flags(edge: Option<u32>, continues: bool) -> u32 {
        edge.map_or(0, |e| CHAIN | (e & !(CHAIN | CONTINUES)))
            | if continues { CONTINUES } else { 0 }
    }

    /// One edge of a polyline: its contacts are merged with its other edges' per pair of
    /// colliders.
    #[inline]
    pub(crate) fn chain(&self) -> bool {
        self.flags & CHAIN != 0
    }

    /// Which edge of a polyline this is (`0` for other shapes).
    #[inline]
    pub(crate) fn part(&self) -> u32 {
        self.flags & !(CHAIN | CONTINUES)
    }

    /// The motion continues the last tick's.
    #[inline]
    pub(crate) fn continues(&self) -> bool {
        self.flags & CONTINUES != 0
    }

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
    /// The rounded polygons' vertex paths ([`Motion::Convex`]).
    pub(crate) convex: Vec<ConvexVertices>,
}

impl Group {
    pub(crate) fn clear(&mut self) {
        self.bodies.clear();
        self.bounds.clear();
        self.convex.clear();
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

    /// An entry's motion as a [`ShapePath`].
    #[inline]
    pub(crate) fn path(&self, entry: &Entry) -> ShapePath {
        match entry.path {
            Motion::Convex(index) => {
                let table = if index & RESTING != 0 {
                    &self.resting.convex
                } else {
                    &self.moving.convex
                };
                table
                    .get((index & !RESTING) as usize)
                    .map_or(ShapePath::Point([Vec2::ZERO; 2]), |&c| ShapePath::Convex(c))
            }
            motion => motion.basic().unwrap_or(ShapePath::Point([Vec2::ZERO; 2])),
        }
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
    /// The touching pairs with a polyline edge, left to the merge of each polyline's edges
    /// (as in [`Solved::touching`]).
    pub(crate) chains: Vec<(u32, u32, u32)>,
    /// Scratch: one pair's events, as kinds and times.
    pub(crate) kinds: Vec<(super::events::CollisionKind, f32)>,
}
