//! The broad phase of a tick: which pairs of colliders may touch.

use super::SweepSettings;
use super::contacts::SweepStats;
use super::state::{Colliders, Entry, Tick};
use bevy::ecs::prelude::*;
use bevy::math::bounding::Aabb2d;
use bevy::platform::time::Instant;
use bevy::tasks::ComputeTaskPool;

/// The box grown by a relative `2^-20` of its coordinates (and the smallest normal number), so
/// that rounding in computing it can never separate shapes that touch exactly.
pub(crate) fn inflate(aabb: Aabb2d) -> Aabb2d {
    const GROW: f32 = 1.0 / (1 << 20) as f32;
    let pad = |v: bevy::math::Vec2| v.abs() * GROW + bevy::math::Vec2::splat(f32::MIN_POSITIVE);
    Aabb2d {
        min: aabb.min - pad(aabb.min),
        max: aabb.max + pad(aabb.max),
    }
}

/// How many parts to split parallel work into: a few per thread, so that a thread that wakes
/// late still finds work; one where nothing runs in parallel.
pub(crate) fn parts_for(settings: &SweepSettings, work: usize) -> usize {
    /// Below this much work (boxes, pairs) a part costs more to spawn than to run.
    const FEWEST: usize = 256;
    match ComputeTaskPool::try_get() {
        Some(pool) if settings.parallel && pool.thread_num() > 1 && work > FEWEST => {
            (4 * pool.thread_num()).min(work / FEWEST).max(2)
        }
        _ => 1,
    }
}

/// Runs `task(i, output)` for each of `outputs`, in parallel on the compute task pool when
/// allowed and there are several; returns how many tasks ran in parallel (0: serially).
pub(crate) fn run_parts<T: Send>(
    settings: &SweepSettings,
    outputs: &mut [T],
    task: impl Fn(usize, &mut T) + Sync,
) -> usize {
    match ComputeTaskPool::try_get() {
        Some(pool) if settings.parallel && pool.thread_num() > 1 && outputs.len() > 1 => {
            let task = &task;
            pool.scope(|scope| {
                for (i, output) in outputs.iter_mut().enumerate() {
                    scope.spawn(async move { task(i, output) });
                }
            });
            outputs.len()
        }
        _ => {
            for (i, output) in outputs.iter_mut().enumerate() {
                task(i, output);
            }
            0
        }
    }
}

/// The candidate pairs of this tick: the swept colliders with each other, and with the
/// resting ones (resting colliders are never paired with each other). The rows of the strips
/// and the swept colliders' queries into the resting group are split into parts searched in
/// parallel; the parts come in a fixed order, so the pairs do not depend on the threads.
pub(crate) fn broad_phase(
    settings: Res<SweepSettings>,
    mut tick: ResMut<Tick>,
    mut colliders: ResMut<Colliders>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    let tick = &mut *tick;
    let colliders = &mut *colliders;
    let moving = &mut colliders.moving;
    moving.sort();
    moving.broad.set_method(settings.broad_phase);
    let in_parts = moving.broad.finds_pairs_in_parts();
    // Parts of the pairs among the swept colliders (their rows), then parts of their queries
    // into the resting group.
    let among = if in_parts {
        moving.broad.build_in_order(&moving.bounds);
        parts_for(&settings, moving.len())
    } else {
        1
    };
    let across = if colliders.resting.len() == 0 {
        0
    } else {
        parts_for(&settings, moving.len())
    };
    tick.start_parts(among + across);
    let mut parts = core::mem::take(&mut tick.parts);
    if !in_parts {
        // Another method than the strips finds its pairs all at once, into the first part.
        let (pairs, moving) = (&mut parts[0], &mut colliders.moving);
        let mut found = core::mem::take(&mut tick.found);
        found.clear();
        moving
            .broad
            .find_pairs_in_order(&moving.bounds, |i, j| found.push((i, j)));
        for &(i, j) in &found {
            push_pair(pairs, moving.body(i as usize), moving.body(j as usize));
        }
        tick.found = found;
    }
    let (moving, resting) = (&colliders.moving, &colliders.resting);
    let parallel = run_parts(&settings, &mut parts[..among + across], |p, pairs| {
        if p < among {
            if in_parts {
                moving.broad.pairs_in_part(p, among, |i, j| {
                    push_pair(pairs, moving.body(i as usize), moving.body(j as usize));
                });
            }
        } else {
            let (part, n) = (p - among, moving.len());
            for k in n * part / across..n * (part + 1) / across {
                let body = moving.body(k);
                resting.broad.query(&moving.bounds[k], |r| {
                    push_pair(pairs, body, resting.body(r as usize));
                });
            }
        }
    });
    tick.parts = parts;
    stats.candidate_pairs = tick.parts().iter().map(Vec::len).sum();
    stats.parallel_tasks += parallel;
    stats.broad_phase_time = stats.gather_time + began.elapsed();
}

/// Keeps a pair of colliders if their layers interact and they are not parts of one body
/// (two edges of one polyline, two colliders under one [`Body`](super::Body)).
#[inline]
fn push_pair(pairs: &mut Vec<(Entry, Entry)>, a: &Entry, b: &Entry) {
    if a.layers.interacts_with(&b.layers) && a.owner() != b.owner() {
        pairs.push((*a, *b));
    }
}
