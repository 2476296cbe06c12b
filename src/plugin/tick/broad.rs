//! **Broad phase**: the pairs of colliders that may touch in this tick.
//!
//! Reads: the swept colliders' swept bounds ([`Paths`], which are [`Motions`]' where
//! nothing walked or hit anything) and [`RestingColliders`].
//! Writes: [`CandidatePairs`] (the pairs whose swept bounds overlap, in parts; and the index
//! over the swept colliders' boxes, which the queries' snapshot copies), and
//! [`SweepStats`]' `colliders`, `candidate_pairs`, `broad_phase_time` and
//! `broad_phase_tasks`.
//!
//! The swept colliders are paired with each other (the strips' rows, searched in parts) and
//! with the resting ones (each swept box a query into the resting index, in parts of the
//! swept boxes); two resting colliders are never paired. The parts come in a fixed order,
//! so the pairs do not depend on the threads.

use super::entries::{BoxIndex, Entries, Slot};
use super::gather::Motions;
use super::parts::{parts_for, reset, run_parts};
use super::respond::Paths;
use super::rest::RestingColliders;
use crate::SweepSettings;
use crate::plugin::SweepStats;
use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::prelude::*;
use bevy::ecs::system::NonSendMarker;
use bevy::math::bounding::{Aabb2d, BoundingVolume, IntersectsVolume};
use bevy::platform::time::Instant;

/// The broad phase's hand-off: the candidate pairs of this tick, in parts.
#[derive(Resource, Default)]
pub(crate) struct CandidatePairs {
    /// Each part's pairs (parts beyond `count` are spare buffers).
    pub(crate) parts: Vec<Vec<(Slot, Slot)>>,
    /// How many parts this tick has.
    pub(crate) count: usize,
    /// The index over the swept colliders' boxes.
    pub(crate) index: BoxIndex,
    /// The swept colliders with each large composite as one box, where there is one.
    grouped: Grouped,
}

/// The fewest elements of a composite collider that the pairing takes as one box: below
/// this, pairing its elements with each other (and leaving them out in the narrow phase)
/// costs less than an index of their own.
const LARGE: usize = 16;

/// The boxes the swept colliders are paired by when some are large composites: every other
/// entry's own box, and one box round each large composite, whose elements have an index
/// of their own. Two elements of one composite are then never paired (they never meet), and
/// a composite of 50,000 pieces whose boxes overlap (a star's core) costs the pairs of its
/// pieces with what is near them, not the pairs among them.
#[derive(Default)]
struct Grouped {
    /// What box `k` of [`index`](Self::index) is: an entry, or ([`COMPOSITE`]) a composite.
    what: Vec<u32>,
    boxes: Vec<Aabb2d>,
    index: BoxIndex,
    /// The large composites, each its elements' entries and an index over their boxes (the
    /// first `count` are this tick's).
    composites: Vec<Composite>,
    count: usize,
    /// Per entity of a composite element: its composite's number, or how many elements it
    /// has (while counting).
    by_entity: EntityHashMap<u32>,
}

/// [`Grouped::what`]: the box is a composite's, of this number.
const COMPOSITE: u32 = 1 << 31;

#[derive(Default)]
struct Composite {
    entries: Vec<u32>,
    boxes: Vec<Aabb2d>,
    index: BoxIndex,
    /// The box round all of its elements'.
    bounds: Option<Aabb2d>,
}

impl Grouped {
    /// Builds the boxes and indexes for `entries` (their boxes `bounds`); `false`, and
    /// nothing built, if no composite has [`LARGE`] elements.
    fn build(&mut self, entries: &Entries, bounds: &[Aabb2d]) -> bool {
        self.by_entity.clear();
        for entry in entries.list.iter().filter(|e| e.chain()) {
            *self.by_entity.entry(entry.entity).or_insert(0) += 1;
        }
        if !self
            .by_entity
            .values()
            .any(|&count| count as usize >= LARGE)
        {
            return false;
        }
        // Number the large composites in the order their first elements come.
        self.count = 0;
        for entry in entries.list.iter().filter(|e| e.chain()) {
            if let Some(number) = self.by_entity.get_mut(&entry.entity)
                && *number & COMPOSITE == 0
            {
                *number = if *number as usize >= LARGE {
                    self.count += 1;
                    COMPOSITE | (self.count as u32 - 1)
                } else {
                    // Small: its elements stay boxes of their own.
                    COMPOSITE | u32::MAX >> 1
                };
            }
        }
        if self.composites.len() < self.count {
            self.composites.resize_with(self.count, Composite::default);
        }
        for composite in &mut self.composites[..self.count] {
            composite.entries.clear();
            composite.boxes.clear();
            composite.bounds = None;
        }
        self.what.clear();
        self.boxes.clear();
        for (i, (entry, b)) in (0u32..).zip(entries.list.iter().zip(bounds)) {
            let number = entry
                .chain()
                .then(|| self.by_entity.get(&entry.entity).copied())
                .flatten()
                .map(|n| n & !COMPOSITE)
                .filter(|&n| (n as usize) < self.count);
            match number {
                Some(c) => {
                    let composite = &mut self.composites[c as usize];
                    composite.entries.push(i);
                    composite.boxes.push(*b);
                    composite.bounds = Some(match composite.bounds {
                        Some(all) => all.merge(b),
                        None => *b,
                    });
                }
                None => {
                    self.what.push(i);
                    self.boxes.push(*b);
                }
            }
        }
        for (c, composite) in (0u32..).zip(&mut self.composites[..self.count]) {
            composite.index.build(&composite.boxes);
            if let Some(all) = composite.bounds {
                self.what.push(COMPOSITE | c);
                self.boxes.push(all);
            }
        }
        self.index.build(&self.boxes);
        true
    }

    /// Calls `found` with the pairs of entries of the paired boxes `i` and `j` whose own
    /// boxes overlap (`bounds`: every entry's box).
    fn pairs(&self, i: u32, j: u32, bounds: &[Aabb2d], mut found: impl FnMut(u32, u32)) {
        let (a, b) = (self.what[i as usize], self.what[j as usize]);
        match (a & COMPOSITE != 0, b & COMPOSITE != 0) {
            (false, false) => found(a, b),
            (true, false) => self.within(a & !COMPOSITE, &bounds[b as usize], |e| found(e, b)),
            (false, true) => self.within(b & !COMPOSITE, &bounds[a as usize], |e| found(a, e)),
            (true, true) => {
                let (c, d) = (a & !COMPOSITE, b & !COMPOSITE);
                let first = &self.composites[c as usize];
                let Some(around) = self.composites[d as usize].bounds else {
                    return;
                };
                for (&e, b) in first.entries.iter().zip(&first.boxes) {
                    if b.intersects(&around) {
                        self.within(d, b, |f| found(e, f));
                    }
                }
            }
        }
    }

    /// Calls `found` with each element of composite `c` whose box overlaps `query`.
    fn within(&self, c: u32, query: &Aabb2d, mut found: impl FnMut(u32)) {
        let composite = &self.composites[c as usize];
        composite.index.broad.query(query, |k| {
            found(composite.entries[composite.index.entry(k) as usize]);
        });
    }
}

impl CandidatePairs {
    /// This tick's parts.
    pub(crate) fn parts(&self) -> &[Vec<(Slot, Slot)>] {
        &self.parts[..self.count]
    }
}

/// Finds the candidate pairs of this tick, part by part (in parallel when allowed).
pub(crate) fn broad_phase(
    _main_thread: NonSendMarker,
    settings: Res<SweepSettings>,
    motions: Res<Motions>,
    paths: Res<Paths>,
    resting: Res<RestingColliders>,
    mut candidates: ResMut<CandidatePairs>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    let CandidatePairs {
        parts,
        count,
        index,
        grouped,
    } = &mut *candidates;
    let bounds = paths.bounds(&motions);
    index.build(bounds);
    let n = index.len();
    // Large composites (a moving polygon of many pieces) are one box each where the swept
    // colliders are paired, so that their own elements are never paired with each other.
    let grouping = grouped.build(paths.entries(&motions), bounds);
    let pairing = if grouping { &grouped.index } else { &*index };
    // Parts of the pairs among the swept colliders (their rows), then parts of their
    // queries into the resting index.
    let among = parts_for(&settings, pairing.len());
    let across = if resting.group.len() == 0 {
        0
    } else {
        parts_for(&settings, n)
    };
    *count = among + across;
    reset(parts, *count, Vec::clear);
    let (index, resting, grouped) = (&*index, &resting.group, &*grouped);
    let tasks = run_parts(&settings, &mut parts[..*count], |p, pairs| {
        if p < among && grouping {
            pairing.broad.pairs_in_part(p, among, |i, j| {
                grouped.pairs(pairing.entry(i), pairing.entry(j), bounds, |a, b| {
                    pairs.push((Slot::swept(a), Slot::swept(b)));
                });
            });
        } else if p < among {
            index.broad.pairs_in_part(p, among, |i, j| {
                pairs.push((Slot::swept(index.entry(i)), Slot::swept(index.entry(j))));
            });
        } else {
            let part = p - among;
            for k in n * part / across..n * (part + 1) / across {
                let slot = Slot::swept(index.entry(k as u32));
                resting.index.broad.query(&index.sorted[k], |r| {
                    pairs.push((slot, Slot::resting(resting.index.entry(r))));
                });
            }
        }
    });
    stats.colliders = n + resting.len();
    stats.candidate_pairs = candidates.parts().iter().map(Vec::len).sum();
    stats.broad_phase_time = began.elapsed();
    stats.broad_phase_tasks = tasks;
}
