//! The narrow phase of a tick: when each candidate pair touches.

use super::SweepSettings;
use super::broad::run_parts;
use super::contacts::SweepStats;
use super::state::{Colliders, Entry, Tick};
use crate::geometry::robust::expansions;
use crate::narrow::{PointBoxBatch, contact_intervals_of_valid};
use bevy::ecs::prelude::*;
use bevy::platform::time::Instant;

/// Contact intervals of every candidate pair, part by part (in parallel when allowed): pairs
/// of a point and a box eight at a time with SIMD, the others one by one.
pub(crate) fn narrow_phase(
    settings: Res<SweepSettings>,
    colliders: Res<Colliders>,
    mut tick: ResMut<Tick>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    let tick = &mut *tick;
    let count = tick.part_count;
    let parts = &tick.parts[..count];
    let solve = |p: usize, solved: &mut super::state::Solved| {
        solved.clear();
        let pairs = &parts[p];
        let mut exact = 0;
        for (k, (a, b)) in (0u32..).zip(pairs) {
            if point_and_box(a, b) {
                continue;
            }
            let before = expansions();
            // Every body's path is valid (checked in the gather).
            let intervals = contact_intervals_of_valid(&colliders.path(a), &colliders.path(b));
            exact += usize::from(expansions() != before);
            if !intervals.is_empty() {
                solved.push(k, &intervals);
            }
        }
        // The point–box pairs of the part, eight at a time. (The batch reaches exact
        // arithmetic only through the scalar clip's rare fallback; counted per expansion,
        // an upper bound on the pairs.)
        let before = expansions();
        let mut batched = 0;
        PointBoxBatch::default().intervals_of(
            (0..)
                .zip(pairs)
                .filter(|(_, (a, b))| point_and_box(a, b))
                .inspect(|_| batched += 1)
                .map(|(k, (a, b))| (k, colliders.path(a), colliders.path(b))),
            |k, interval| solved.push(k as u32, &[interval]),
        );
        solved.exact = exact + (expansions() - before) as usize;
        solved.batched = batched;
    };
    let parallel = run_parts(&settings, &mut tick.solved[..count], solve);
    let solved = &tick.solved[..count];
    stats.touching_pairs = solved.iter().map(|s| s.touching.len()).sum();
    stats.exact_pairs = solved.iter().map(|s| s.exact).sum();
    stats.batched_pairs = solved.iter().map(|s| s.batched).sum();
    stats.parallel_tasks += parallel;
    stats.narrow_phase_time = began.elapsed();
}

/// A pair of a point and a box, in either order.
fn point_and_box(a: &Entry, b: &Entry) -> bool {
    (a.path.is_point() && b.path.is_aabb()) || (a.path.is_aabb() && b.path.is_point())
}
