//! What the phases of a tick hand each other about colliders: each collider's motion as an
//! [`Entry`], the entries of a group with their polygons' vertex paths ([`Entries`]), the
//! broad phase's index over their boxes ([`BoxIndex`]), and how a pair names its two
//! entries ([`Slot`]).

use crate::broad::{BroadPhase, order_key, sort_by_high_half};
use crate::narrow::{ConvexVertices, ShapePath, Witness, witness};
use crate::plugin::CollisionLayers;
use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use bevy::math::bounding::Aabb2d;

/// Where a polygon's vertex paths are: their index in the table of the entries' group.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct ConvexIndex(u32);

/// One collider's motion in a tick (or one edge of a polyline's), as the broad phase keeps
/// it: a polygon's vertex paths are in its group's table ([`Entries::convex`]), so that an
/// entry stays within a cache line whatever its shape.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Entry {
    pub(crate) entity: Entity,
    pub(crate) path: ShapePath<ConvexIndex>,
    pub(crate) layers: CollisionLayers,
    /// The [`Body`](crate::prelude::Body) the collider belongs to, if any.
    pub(crate) body: Option<Entity>,
    /// Which element of a composite collider this is (or which piece of a responder's
    /// path), in the low 24 bits; the entry's eight flags (`CHAIN`, `CONTINUES`,
    /// `RESPONDER`, `SENSOR`, `ONE_WAY`, `PIECE`, `PASSED`, `HOLDS`) in the top bits.
    flags: u32,
}

// Every pair reads two entries: keep each within a cache line.
const _: () = assert!(size_of::<Entry>() <= 64);

/// [`Entry::flags`]: the entry is one edge of a polyline.
const CHAIN: u32 = 1 << 31;
/// [`Entry::flags`]: the motion continues the last tick's.
const CONTINUES: u32 = 1 << 30;
/// [`Entry::flags`]: the collider answers hits ([`Response`](crate::prelude::Response) or
/// [`KinematicCharacter`](crate::prelude::KinematicCharacter)): it blocks no other responder.
const RESPONDER: u32 = 1 << 29;
/// [`Entry::flags`]: a [`Sensor`](crate::prelude::Sensor): it blocks nothing.
const SENSOR: u32 = 1 << 28;
/// [`Entry::flags`]: a [`OneWay`](crate::prelude::OneWay) collider.
const ONE_WAY: u32 = 1 << 27;
/// [`Entry::flags`]: one piece of a responder's path, between two of its hits: its low bits
/// are the piece's number, and its window is in [`Entries::windows`].
const PIECE: u32 = 1 << 26;
/// [`Entry::flags`]: a piece of a responder's path that is not its last: the queries, which
/// see where the tick left each collider, skip it.
const PASSED: u32 = 1 << 25;
/// [`Entry::flags`]: a responder that slides or stops: it keeps its contacts with solids
/// while rounding places it a hair off them (see [`Entry::held_with`]).
const HOLDS: u32 = 1 << 24;
/// The bits of the edge (or piece) number.
const EDGE: u32 = (1 << 24) - 1;

impl Entry {
    /// An entry without its path (set by [`Entries::push`]): the edge of a polyline
    /// (`Some`), and whether the motion starts where the last tick's ended, with the same
    /// shape (contacts at its start are those at the end of the last tick, which the same
    /// exact tests decided).
    pub(crate) fn new(
        entity: Entity,
        layers: CollisionLayers,
        body: Option<Entity>,
        edge: Option<u32>,
        continues: bool,
    ) -> Self {
        Self {
            entity,
            path: ShapePath::Point([Vec2::ZERO; 2]),
            layers,
            body,
            flags: edge.map_or(0, |e| CHAIN | (e & EDGE)) | if continues { CONTINUES } else { 0 },
        }
    }

    /// The same entry, marked with what it does to hits: answers them (and keeps its
    /// contacts, sliding or stopped), blocks nothing, blocks one way.
    #[must_use]
    pub(crate) fn with_role(
        self,
        responder: bool,
        holds: bool,
        sensor: bool,
        one_way: bool,
    ) -> Self {
        let flag = |on: bool, bit: u32| if on { bit } else { 0 };
        Self {
            flags: self.flags
                | flag(responder, RESPONDER)
                | flag(responder && holds, HOLDS)
                | flag(sensor, SENSOR)
                | flag(one_way, ONE_WAY),
            ..self
        }
    }

    /// A responder that slides or stops, against a solid: its contact is found with its
    /// shape grown by a hair ([`hold_margin`]), so that sliding along the solid, placed by `f32`
    /// arithmetic a rounding error off it or into it, it stays in contact.
    #[inline]
    pub(crate) fn held_with(&self, other: &Entry) -> bool {
        self.flags & HOLDS != 0 && other.blocks()
    }

    /// Edge `index` of this polyline's entry: the same collider, with the same role (a
    /// sensor's or one-way collider's edges are a sensor's and a one-way collider's).
    #[must_use]
    pub(crate) fn edge_of(self, index: u32) -> Self {
        Self {
            flags: (self.flags & !EDGE) | CHAIN | (index & EDGE),
            ..self
        }
    }

    /// Piece `number` of this responder's path; `last` if the path ends with it.
    #[must_use]
    pub(crate) fn piece(self, number: u32, last: bool) -> Self {
        let bits = (self.flags & !(EDGE | CHAIN | PASSED))
            | PIECE
            | (number & EDGE)
            | if last { 0 } else { PASSED };
        Self {
            flags: bits,
            ..self
        }
    }

    /// One edge of a polyline: its contacts are merged with its other edges' per pair of
    /// colliders.
    #[inline]
    pub(crate) fn chain(&self) -> bool {
        self.flags & CHAIN != 0
    }

    /// One edge of a polyline or one piece of a responder's path: its contacts are merged
    /// with the other edges' or pieces' per pair of colliders.
    #[inline]
    pub(crate) fn merged(&self) -> bool {
        self.flags & (CHAIN | PIECE) != 0
    }

    /// Which edge of a polyline this is, or which piece of a responder's path (`0` for
    /// others): what orders the merged contacts' sources.
    #[inline]
    pub(crate) fn edge(&self) -> u32 {
        self.flags & EDGE
    }

    /// The polyline edge this is, if it is one.
    #[inline]
    pub(crate) fn edge_index(&self) -> Option<u32> {
        self.chain().then(|| self.edge())
    }

    /// A piece of a responder's path (its window is in [`Entries::windows`]).
    #[inline]
    pub(crate) fn is_piece(&self) -> bool {
        self.flags & PIECE != 0
    }

    /// A [`Sensor`](crate::prelude::Sensor): it reports contacts and blocks nothing.
    #[inline]
    pub(crate) fn sensor(&self) -> bool {
        self.flags & SENSOR != 0
    }

    /// A piece of a responder's path that is not its last.
    #[inline]
    pub(crate) fn passed(&self) -> bool {
        self.flags & PASSED != 0
    }

    /// The collider answers hits.
    #[inline]
    pub(crate) fn responder(&self) -> bool {
        self.flags & RESPONDER != 0
    }

    /// The collider blocks one way only.
    #[inline]
    pub(crate) fn one_way(&self) -> bool {
        self.flags & ONE_WAY != 0
    }

    /// `true` if this collider can stop a responder (or a query's mover): it is no sensor
    /// and no responder. (Whether their layers interact is the caller's test.)
    #[inline]
    pub(crate) fn blocks(&self) -> bool {
        self.flags & (SENSOR | RESPONDER) == 0
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

    /// `true` if a pair of these two is tested: their layers interact and they are not parts
    /// of one body (two edges of one polyline, two colliders under one
    /// [`Body`](crate::prelude::Body)).
    #[inline]
    pub(crate) fn interacts_with(&self, other: &Entry) -> bool {
        self.layers.interacts_with(&other.layers) && self.owner() != other.owner()
    }
}

/// A group's entries and their polygons' vertex paths.
#[derive(Clone, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Entries {
    pub(crate) list: Vec<Entry>,
    /// The vertex paths of the entries' polygons ([`ConvexIndex`]).
    pub(crate) convex: Vec<ConvexVertices>,
    /// The window of the tick (`[start, end]`, fractions of it) each entry's path runs over,
    /// by entry: the whole tick but for a piece of a responder's path. Empty while there is
    /// no piece; shorter than the entries where the rest run over the whole tick.
    pub(crate) windows: Vec<[f32; 2]>,
}

impl Entries {
    pub(crate) fn clear(&mut self) {
        self.list.clear();
        self.convex.clear();
        self.windows.clear();
    }

    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// Adds `entry` moving along `path` (a polygon's vertex paths go to the table).
    #[inline]
    pub(crate) fn push<C: AsRef<ConvexVertices>>(&mut self, entry: Entry, path: &ShapePath<C>) {
        let convex = &mut self.convex;
        let path = path.map_convex_ref(|vertices| {
            convex.push(*vertices.as_ref());
            ConvexIndex((convex.len() - 1) as u32)
        });
        self.list.push(Entry { path, ..entry });
    }

    /// Replaces entry `i` with `entry` moving along `path`, a path of the same kind (a
    /// polygon's vertex paths are written where the old ones were).
    pub(crate) fn replace(&mut self, i: usize, entry: Entry, path: &ShapePath) {
        let old = self.list[i].path;
        let mut new = Entry { path: old, ..entry };
        match (old, path) {
            (ShapePath::Convex(ConvexIndex(k)), ShapePath::Convex(vertices)) => {
                self.convex[k as usize] = *vertices;
            }
            _ => new.path = path.map_convex_ref(|_| ConvexIndex(0)),
        }
        self.list[i] = new;
    }

    /// Entry `i`'s path, its polygon's vertex paths read from the table.
    #[inline]
    pub(crate) fn path(&self, i: usize) -> ShapePath {
        self.resolve(&self.list[i])
    }

    /// `entry`'s path (an entry of this group), its polygon's vertex paths read from the
    /// table.
    #[inline]
    pub(crate) fn resolve(&self, entry: &Entry) -> ShapePath {
        entry
            .path
            .map_convex_ref(|&ConvexIndex(i)| self.convex[i as usize])
    }

    /// Moves `other`'s entries to the end of these (its polygons' indices shifted).
    pub(crate) fn append(&mut self, other: &mut Entries) {
        if self.list.is_empty() && self.convex.is_empty() {
            // Nothing to shift: take its buffers (and leave it these, empty).
            core::mem::swap(self, other);
            return;
        }
        let offset = self.convex.len() as u32;
        if other.convex.is_empty() {
            self.list.append(&mut other.list);
            return;
        }
        self.list.extend(other.list.drain(..).map(|entry| {
            Entry {
                path: entry
                    .path
                    .map_convex_ref(|&ConvexIndex(i)| ConvexIndex(i + offset)),
                ..entry
            }
        }));
        self.convex.append(&mut other.convex);
    }

    /// Makes these the same as `other`, reusing their buffers.
    pub(crate) fn copy_from(&mut self, other: &Self) {
        self.list.clone_from(&other.list);
        self.convex.clone_from(&other.convex);
        self.windows.clone_from(&other.windows);
    }

    /// The window of the tick entry `i`'s path runs over (the whole tick but for a piece).
    #[inline]
    pub(crate) fn window(&self, i: usize) -> [f32; 2] {
        self.windows.get(i).copied().unwrap_or([0.0, 1.0])
    }

    /// Sets the window of entry `i`'s path.
    pub(crate) fn set_window(&mut self, i: usize, window: [f32; 2]) {
        if self.windows.len() < self.list.len() {
            self.windows.resize(self.list.len(), [0.0, 1.0]);
        }
        self.windows[i] = window;
    }
}

/// The broad phase's index over a group's boxes: the boxes in order of their left edges,
/// which entry each is, and the strips over them.
#[derive(Clone, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct BoxIndex {
    /// The boxes in order of left edge: the edge's key in the high half, the entry in the
    /// low half (box `k` is entry `keys[k] as u32`).
    keys: Vec<u64>,
    scratch: Vec<u64>,
    /// The boxes, in order of left edge.
    pub(crate) sorted: Vec<Aabb2d>,
    /// The strips over `sorted`.
    pub(crate) broad: BroadPhase,
}

impl BoxIndex {
    /// Sorts the entries' boxes (`bounds[i]` is entry `i`'s) by left edge, ties by entry,
    /// and builds the strips over them. The entries stay where they are: in a sparse scene,
    /// moving them all costs more than reading the two of each candidate pair (they are in
    /// the gather's order, scattered in space, so either read misses the cache; measured at
    /// 100,000 colliders, copying them in the index's order cost 4.5 ms a tick).
    pub(crate) fn build(&mut self, bounds: &[Aabb2d]) {
        self.keys.clear();
        self.keys.extend(
            (0u64..)
                .zip(bounds)
                .map(|(i, b)| (u64::from(order_key(b.min.x)) << 32) | i),
        );
        sort_by_high_half(&mut self.keys, &mut self.scratch);
        self.sorted.clear();
        self.sorted
            .extend(self.keys.iter().map(|&k| bounds[k as u32 as usize]));
        self.broad.build_in_order(&self.sorted);
    }

    /// The entry of sorted box `k`.
    #[inline]
    pub(crate) fn entry(&self, k: u32) -> u32 {
        self.keys[k as usize] as u32
    }

    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// Makes this the same as `other` for queries, reusing its buffers.
    pub(crate) fn copy_from(&mut self, other: &Self) {
        self.keys.clone_from(&other.keys);
        self.sorted.clone_from(&other.sorted);
        self.broad.copy_from(&other.broad);
    }
}

/// Entries with their index: the resting colliders, and each half of the queries' snapshot.
#[derive(Clone, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Group {
    pub(crate) entries: Entries,
    pub(crate) index: BoxIndex,
}

impl Group {
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Makes this the same as `other`, reusing its buffers.
    pub(crate) fn copy_from(&mut self, other: &Self) {
        self.entries.copy_from(&other.entries);
        self.index.copy_from(&other.index);
    }
}

/// An entry of this tick: one of the swept colliders' (in [`Paths`](super::respond::Paths)), or,
/// with the top bit set, one of the resting colliders'.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Slot(u32);

const RESTING: u32 = 1 << 31;

impl Slot {
    pub(crate) fn swept(i: u32) -> Self {
        Self(i)
    }

    pub(crate) fn resting(i: u32) -> Self {
        Self(i | RESTING)
    }

    #[inline]
    fn parts(self) -> (bool, usize) {
        (self.0 & RESTING != 0, (self.0 & !RESTING) as usize)
    }
}

/// This tick's entries, swept and resting, read by slot.
#[derive(Clone, Copy)]
pub(crate) struct TickEntries<'a> {
    pub(crate) swept: &'a Entries,
    pub(crate) resting: &'a Entries,
}

impl<'a> TickEntries<'a> {
    #[inline]
    fn group(&self, slot: Slot) -> (&'a Entries, usize) {
        match slot.parts() {
            (false, i) => (self.swept, i),
            (true, i) => (self.resting, i),
        }
    }

    #[inline]
    pub(crate) fn entry(&self, slot: Slot) -> &'a Entry {
        let (group, i) = self.group(slot);
        &group.list[i]
    }

    #[inline]
    pub(crate) fn path(&self, slot: Slot) -> ShapePath {
        let (group, i) = self.group(slot);
        group.path(i)
    }

    /// The window of the tick that `slot`'s path runs over.
    #[inline]
    pub(crate) fn window(&self, slot: Slot) -> [f32; 2] {
        let (group, i) = self.group(slot);
        group.window(i)
    }

    /// The paths of a pair over the part of the tick both cover, and that part: the whole
    /// tick but for a piece of a responder's path. `None` if they cover no common moment.
    #[inline]
    pub(crate) fn pair(&self, a: Slot, b: Slot) -> Option<(ShapePath, ShapePath, [f32; 2])> {
        let (pa, pb) = (self.path(a), self.path(b));
        let (wa, wb) = (self.window(a), self.window(b));
        if wa == [0.0, 1.0] && wb == [0.0, 1.0] {
            return Some((pa, pb, wa));
        }
        let w = [wa[0].max(wb[0]), wa[1].min(wb[1])];
        (w[0] <= w[1]).then(|| (restrict(&pa, wa, w), restrict(&pb, wb, w), w))
    }

    /// Where the pair touches at `time` (of the tick), as [`witness`] says, its relative
    /// motion over the whole tick.
    pub(crate) fn witness(&self, a: Slot, b: Slot, time: f32, separating: bool) -> Witness {
        match self.pair(a, b) {
            Some((pa, pb, [0.0, 1.0])) => witness(&pa, &pb, time, separating),
            Some((pa, pb, w)) => {
                let span = w[1] - w[0];
                let s = if span > 0.0 {
                    ((time - w[0]) / span).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let mut found = witness(&pa, &pb, s, separating);
                if span > 0.0 {
                    found.relative_motion /= span;
                }
                found
            }
            // Pieces that share no moment are never paired.
            None => witness(&self.path(a), &self.path(b), time, separating),
        }
    }
}

/// How much a sliding or stopped responder is grown for its contacts with solids: `2^-18` of
/// its largest coordinate (about 64 ulps of it), at least `2^-18`.
pub(crate) fn hold_margin(path: &ShapePath) -> f32 {
    let b = path.swept_bounds();
    b.min.abs().max(b.max.abs()).max_element().max(1.0) * (1.0 / (1 << 18) as f32)
}

/// `path`, which runs over the window `own` of the tick, over the part `window` of it (each
/// vertex still on a straight line: the shapes at the window's ends, joined).
pub(crate) fn restrict(path: &ShapePath, own: [f32; 2], window: [f32; 2]) -> ShapePath {
    if own == window {
        return *path;
    }
    let span = own[1] - own[0];
    let at = |t: f32| {
        if span > 0.0 {
            path.at(((t - own[0]) / span).clamp(0.0, 1.0))
        } else {
            path.at(0.0)
        }
    };
    ShapePath::between(at(window[0]), at(window[1])).unwrap_or(*path)
}
