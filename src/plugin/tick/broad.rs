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

use super::entries::{BoxIndex, Slot};
use super::gather::Motions;
use super::parts::{parts_for, reset, run_parts};
use super::respond::Paths;
use super::rest::RestingColliders;
use crate::SweepSettings;
use crate::plugin::SweepStats;
use bevy::ecs::prelude::*;
use bevy::ecs::system::NonSendMarker;
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
    } = &mut *candidates;
    index.build(paths.bounds(&motions));
    let n = index.len();
    // Parts of the pairs among the swept colliders (their rows), then parts of their
    // queries into the resting index.
    let among = parts_for(&settings, n);
    let across = if resting.group.len() == 0 {
        0
    } else {
        parts_for(&settings, n)
    };
    *count = among + across;
    reset(parts, *count, Vec::clear);
    let (index, resting) = (&*index, &resting.group);
    let tasks = run_parts(&settings, &mut parts[..*count], |p, pairs| {
        if p < among {
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
