//! One full fixed tick of the plugin (prepare, integrate, broad phase, narrow phase, report)
//! for 1,000 and 10,000 mixed colliders at the same density, in a headless App.
//!
//! `cargo bench --bench tick`. The per-collider time should stay about flat from 1,000 to
//! 10,000 colliders (near-linear scaling).

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sweep::prelude::*;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Half the side of the square arena: about 400 square units per collider.
#[derive(Resource)]
struct Arena(f32);

/// Colliders leaving the arena reappear on the other side (teleported, not swept).
fn wrap(
    mut commands: Commands,
    arena: Res<Arena>,
    mut movers: Query<(Entity, &mut Transform), With<Velocity>>,
) {
    for (entity, mut transform) in &mut movers {
        let p = transform.translation.truncate();
        if p.x.abs() > arena.0 || p.y.abs() > arena.0 {
            let wrapped = Vec2::new(
                (p.x + arena.0).rem_euclid(2.0 * arena.0) - arena.0,
                (p.y + arena.0).rem_euclid(2.0 * arena.0) - arena.0,
            );
            transform.translation = wrapped.extend(0.0);
            commands.entity(entity).insert(Teleport);
        }
    }
}

fn world(count: usize) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SweepPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .add_systems(FixedUpdate, wrap);
    let half = (count as f32).sqrt() * 10.0;
    app.insert_resource(Arena(half));
    app.update();
    let mut rng = ChaCha8Rng::seed_from_u64(count as u64);
    for i in 0..count {
        let position = Vec2::new(rng.random_range(-half..half), rng.random_range(-half..half));
        let velocity = Vec2::new(
            rng.random_range(-300.0..300.0),
            rng.random_range(-300.0..300.0),
        );
        let collider = match i % 4 {
            0 => Collider::point(),
            1 => Collider::segment(Vec2::new(-4.0, 0.0), Vec2::new(4.0, 0.0)),
            2 => Collider::circle(rng.random_range(1.0..3.0)),
            _ => Collider::aabb(Vec2::new(
                rng.random_range(1.0..3.0),
                rng.random_range(1.0..3.0),
            )),
        };
        let mut entity = app.world_mut().spawn((
            collider,
            Transform::from_translation(position.extend(0.0)),
            Velocity(velocity),
        ));
        if i % 4 == 1 {
            entity.insert(AngularVelocity(rng.random_range(-3.0..3.0)));
        }
    }
    // Settle: the first ticks report every overlap of the random placement.
    for _ in 0..5 {
        app.update();
    }
    app
}

#[expect(
    clippy::print_stderr,
    reason = "the bench reports how busy its worlds are beside criterion's timings"
)]
fn tick(c: &mut Criterion) {
    let mut group = c.benchmark_group("tick");
    group.sample_size(30);
    for count in [1_000, 10_000] {
        let mut app = world(count);
        group.throughput(Throughput::Elements(count as u64));
        group.bench_function(BenchmarkId::new("mixed", count), |b| {
            b.iter(|| app.update());
        });
        let events = app.world().resource::<Messages<CollisionEvent>>().len();
        let pairs = app.world().resource::<Contacts>().len();
        eprintln!("tick/mixed/{count}: {events} messages buffered, {pairs} pairs in contact");
    }
    // The cost of observer delivery: the same 10,000-collider world with one global
    // observer of `CollisionEvent` (every event triggered twice).
    let mut app = world(10_000);
    app.add_observer(|contact: On<CollisionEvent>| {
        std::hint::black_box(contact.event());
    });
    group.throughput(Throughput::Elements(10_000));
    group.bench_function(BenchmarkId::new("mixed_observed", 10_000), |b| {
        b.iter(|| app.update());
    });
    group.finish();
}

/// Runs the group with criterion's settings from the command line.
fn benches() {
    let mut criterion = Criterion::default().configure_from_args();
    tick(&mut criterion);
}

criterion_main!(benches);
