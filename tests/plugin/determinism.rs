//! The same scene gives byte-identical event streams: run twice, and serial against the
//! narrow phase on several threads.

use super::harness::*;
use bevy::prelude::*;
use bevy_sweep::prelude::*;

/// A busy scene of every kind of collider, from a fixed seed.
fn populate(app: &mut App) {
    let mut state = 0x2545_f491_u32;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state as f32 / u32::MAX as f32) * 2.0 - 1.0
    };
    for i in 0..600 {
        let position = Vec2::new(next() * 60.0, next() * 60.0);
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
}

/// Every event of 20 ticks, as bytes (the Debug form prints every float exactly enough to
/// tell any two apart: Rust prints the shortest representation that round-trips).
fn run(plugin: SweepPlugin) -> (String, usize) {
    let mut app = app_with(plugin);
    populate(&mut app);
    let mut stream = String::new();
    let mut count = 0;
    for t in 0..20 {
        for e in tick(&mut app) {
            stream.push_str(&format!("{t} {e:?}\n"));
            count += 1;
        }
    }
    (stream, count)
}

#[test]
fn same_scene_same_events_serial_or_parallel() {
    let (first, count) = run(SweepPlugin::default());
    assert!(count > 200, "the scene should be busy, got {count} events");
    let (second, _) = run(SweepPlugin::default());
    assert_eq!(first, second, "two runs differ");
    let threads = bevy::tasks::ComputeTaskPool::get().thread_num();
    let (serial, _) = run(SweepPlugin {
        parallel: false,
        ..default()
    });
    assert_eq!(first, serial, "serial and {threads}-thread runs differ");
}
