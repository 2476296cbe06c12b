//! The same scene gives byte-identical event streams: run twice, and with the narrow phase
//! serial against parallel on several compute threads.
//!
//! Its own test binary, so that its Apps are the first to create Bevy's global compute task
//! pool, with more than one thread even on a two-core machine.

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use bevy_sweep::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;
use common::{recording_app, tick};

fn app(plugin: SweepPlugin) -> App {
    recording_app((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: TaskPoolOptions::with_num_threads(4),
        }),
        plugin,
    ))
}

/// A busy scene of every kind of collider, from a fixed seed.
fn populate(app: &mut App) {
    let mut rng = ChaCha8Rng::seed_from_u64(0x2545_f491);
    let mut next = move || rng.random_range(-1.0f32..1.0);
    for i in 0..1200 {
        let position = Vec2::new(next() * 50.0, next() * 50.0);
        let velocity = Vec2::new(next(), next()) * 400.0;
        let collider = match i % 4 {
            0 => Collider::point(),
            1 => Collider::segment(Vec2::new(-2.0, 0.0), Vec2::new(2.0, next())),
            2 => Collider::circle(0.5 + next().abs()),
            _ => Collider::aabb(Vec2::new(0.5 + next().abs(), 0.5 + next().abs())),
        };
        app.world_mut().spawn((
            collider,
            Transform::from_translation(position.extend(0.0)),
            Velocity(velocity),
            AngularVelocity(next() * 6.0),
        ));
    }
    // A box with many points around it, solved in SIMD batches.
    app.world_mut().spawn((
        Collider::aabb(Vec2::splat(10.0)),
        Transform::from_xyz(200.0, 0.0, 0.0),
    ));
    for _ in 0..64 {
        let position = Vec2::new(200.0 + next() * 15.0, next() * 15.0);
        app.world_mut().spawn((
            Collider::point(),
            Transform::from_translation(position.extend(0.0)),
            Velocity(Vec2::new(next(), next()) * 100.0),
        ));
    }
}

/// Every event of 15 ticks as text (Rust prints the shortest decimal that round-trips, so
/// two different floats never print the same), the parallel chunks the ticks used, and the
/// pairs they solved in batches.
fn run(plugin: SweepPlugin) -> (String, usize, usize, usize) {
    let mut app = app(plugin);
    populate(&mut app);
    let (mut stream, mut count, mut chunks, mut batched) = (String::new(), 0, 0, 0);
    for t in 0..15 {
        let events = tick(&mut app);
        chunks += app.world().resource::<SweepStats>().parallel_tasks();
        batched += app.world().resource::<SweepStats>().batched_pairs;
        for e in events {
            stream.push_str(&format!("{t} {e:?}\n"));
            count += 1;
        }
    }
    (stream, count, chunks, batched)
}

#[test]
fn same_scene_same_events_serial_or_parallel() {
    let (first, count, chunks, batched) = run(SweepPlugin::default());
    let threads = ComputeTaskPool::get().thread_num();
    assert!(
        threads > 1,
        "the compute pool should have several threads, has {threads}"
    );
    assert!(
        chunks > 15,
        "the narrow phase should have run in parallel ({chunks} chunks)"
    );
    assert!(count > 500, "the scene should be busy, got {count} events");
    assert!(
        batched > 100,
        "points near the box should be batched ({batched} pairs)"
    );
    let (second, ..) = run(SweepPlugin::default());
    assert_eq!(first, second, "two runs differ");
    let (serial, _, serial_chunks, _) = run(SweepPlugin {
        parallel: false,
        ..default()
    });
    assert_eq!(serial_chunks, 0);
    assert_eq!(first, serial, "serial and {threads}-thread runs differ");
}

/// With `enhanced-determinism`, the turns the tick integrates (`Transform::rotate_z`, a
/// quaternion of the half angle's sine and cosine) and the slopes characters test come from
/// libm, the same bits on every platform, not from the platform's own maths library.
#[cfg(feature = "enhanced-determinism")]
#[test]
fn transcendental_functions_on_the_tick_path_are_libms() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x11b3);
    for _ in 0..20_000 {
        let angle = rng.random_range(-40.0f32..40.0);
        let turn = Quat::from_rotation_z(angle);
        let half = angle * 0.5;
        assert_eq!(turn.z.to_bits(), libm::sinf(half).to_bits(), "sin({half})");
        assert_eq!(turn.w.to_bits(), libm::cosf(half).to_bits(), "cos({half})");
        assert_eq!(
            ops::tan(angle).to_bits(),
            libm::tanf(angle).to_bits(),
            "tan({angle})"
        );
        assert_eq!(ops::cos(angle).to_bits(), libm::cosf(angle).to_bits());
    }
}
