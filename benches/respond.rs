//! What answering hits costs (group `respond`):
//!
//! - `balls/10000` and `balls_plain/10000`: 10,000 balls (radius 2, 500–5,000 units/s) in an
//!   arena of 2,000 still tiles (its border and walls inside it), bouncing
//!   ([`Response::Bounce`]), and the same scene without `Response` (the balls pass through
//!   the tiles and wrap at the arena's edge): the ratio is the cost of the answers.
//! - `characters/1000`: 1,000 [`KinematicCharacter`]s walking both ways under gravity over
//!   polyline hills (2,001 points) with 500 tiles on them, each turning back at the ends.
//! - `move_and_slide/capsule`: one [`SweepQuery::move_and_slide`] of a capsule among a
//!   1,000-point polyline and 500 boxes, from 64 places in turn (walking into slopes and
//!   boxes under gravity).
//!
//! `taskset -c 0 cargo bench --bench respond` (one core). With `RESPOND_PROBE=<scene>:<ticks>`
//! (`balls`, `balls_plain`, `characters`) it runs that many ticks of one scene and nothing
//! else, for a profiler.

use bevy::ecs::system::SystemState;
use bevy::math::Isometry2d;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sweep::prelude::*;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "support/slide_scene.rs"]
mod slide_scene;

use slide_scene::{TILE, hill, slide_geometry};

const HALF: f32 = 1000.0;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SweepPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.update();
    app
}

/// The arena's 2,000 tiles: its border (500) and 1,500 in short walls inside it.
fn tiles(rng: &mut ChaCha8Rng) -> Vec<Vec2> {
    let mut tiles = Vec::new();
    let per_side = 125;
    for k in 0..per_side {
        let t = -HALF + (k as f32 + 0.5) * (2.0 * HALF / per_side as f32);
        tiles.extend([
            Vec2::new(t, -HALF),
            Vec2::new(t, HALF),
            Vec2::new(-HALF, t),
            Vec2::new(HALF, t),
        ]);
    }
    while tiles.len() < 2_000 {
        let start = Vec2::new(
            rng.random_range(-HALF + 50.0..HALF - 250.0),
            rng.random_range(-HALF + 50.0..HALF - 250.0),
        );
        let across = rng.random_bool(0.5);
        for k in 0..10 {
            let step = 2.0 * TILE * k as f32;
            tiles.push(
                start
                    + if across {
                        Vec2::new(step, 0.0)
                    } else {
                        Vec2::new(0.0, step)
                    },
            );
        }
    }
    tiles.truncate(2_000);
    tiles
}

/// Balls leaving the arena (those that do not bounce) come back on the other side.
fn wrap(mut commands: Commands, mut balls: Query<(Entity, &mut Transform), With<Velocity>>) {
    for (entity, mut transform) in &mut balls {
        let p = transform.translation.truncate();
        if p.abs().max_element() > HALF {
            transform.translation = (-p * 0.99).extend(0.0);
            commands.entity(entity).insert(Teleport);
        }
    }
}

fn balls(bounce: bool) -> App {
    let mut app = app();
    app.add_systems(FixedUpdate, wrap);
    let mut rng = ChaCha8Rng::seed_from_u64(0xba11);
    let tiles = tiles(&mut rng);
    for &tile in &tiles {
        app.world_mut().spawn((
            Collider::aabb(Vec2::splat(TILE)),
            Transform::from_translation(tile.extend(0.0)),
        ));
    }
    let mut placed = 0;
    while placed < 10_000 {
        let p = Vec2::new(
            rng.random_range(-HALF + 20.0..HALF - 20.0),
            rng.random_range(-HALF + 20.0..HALF - 20.0),
        );
        // Not inside a tile.
        if tiles
            .iter()
            .any(|t| (p - *t).abs().max_element() < TILE + 3.0)
        {
            continue;
        }
        let velocity = Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU))
            * rng.random_range(500.0..5_000.0);
        let mut ball = app.world_mut().spawn((
            Collider::circle(2.0),
            Transform::from_translation(p.extend(0.0)),
            Velocity(velocity),
        ));
        if bounce {
            ball.insert(Response::Bounce { restitution: 1.0 });
        }
        placed += 1;
    }
    for _ in 0..5 {
        app.update();
    }
    app
}

const HILLS: f32 = 10_000.0;

/// Characters walk and fall; at the ends they turn back.
fn walk(time: Res<Time>, mut characters: Query<(&Transform, &mut Velocity, &CharacterState)>) {
    let dt = time.delta_secs();
    for (transform, mut velocity, state) in &mut characters {
        let x = transform.translation.x;
        if x.abs() > HILLS - 200.0 && velocity.0.x * x > 0.0 {
            velocity.0.x = -velocity.0.x;
        }
        if !state.grounded {
            velocity.0.y -= 900.0 * dt;
        }
    }
}

fn characters() -> App {
    let mut app = app();
    app.add_systems(FixedUpdate, walk);
    let mut rng = ChaCha8Rng::seed_from_u64(0xc4a2);
    let points: Vec<Vec2> = (0..=2_000)
        .map(|k| {
            let x = -HILLS + k as f32 * 10.0;
            Vec2::new(x, hill(x))
        })
        .collect();
    app.world_mut()
        .spawn(Collider::polyline(&points).expect("finite points"));
    for _ in 0..500 {
        let x = rng.random_range(-HILLS + 300.0..HILLS - 300.0);
        app.world_mut().spawn((
            Collider::aabb(Vec2::splat(TILE)),
            Transform::from_xyz(x, hill(x) + TILE - 3.0, 0.0),
        ));
    }
    for k in 0..1_000 {
        let x = -HILLS + 400.0 + k as f32 * (2.0 * HILLS - 800.0) / 1_000.0;
        let speed = rng.random_range(100.0..300.0) * if k % 2 == 0 { 1.0 } else { -1.0 };
        app.world_mut().spawn((
            Collider::capsule(Vec2::new(0.0, -6.0), Vec2::new(0.0, 6.0), 5.0),
            Transform::from_xyz(x, hill(x) + 40.0, 0.0),
            Velocity(Vec2::new(speed, 0.0)),
            KinematicCharacter {
                step_height: 6.0,
                ..default()
            },
        ));
    }
    for _ in 0..60 {
        app.update();
    }
    app
}

/// Prints what a scene's tick holds: the sweep's phases and the hits answered.
#[expect(
    clippy::print_stderr,
    reason = "the bench reports how busy its worlds are beside criterion's timings"
)]
fn report(name: &str, app: &mut App) {
    let mut ticks: Vec<SweepStats> = (0..31)
        .map(|_| {
            app.update();
            *app.world().resource::<SweepStats>()
        })
        .collect();
    let hits = ticks.iter().map(|s| s.answered_hits).sum::<usize>() / ticks.len();
    let events = ticks.iter().map(|s| s.events).sum::<usize>() / ticks.len();
    ticks.sort_by_key(|s| s.respond_time);
    let respond = ticks[15].respond_time;
    ticks.sort_by_key(|s| s.character_time);
    let characters = ticks[15].character_time;
    ticks.sort_by_key(SweepStats::elapsed);
    eprintln!(
        "respond/{name}: per tick {hits} hits answered, {events} events; median characters' \
         moves {characters:?}, respond phase {respond:?}, whole sweep {:?}",
        ticks[15].elapsed()
    );
}

fn respond(c: &mut Criterion) {
    let mut group = c.benchmark_group("respond");
    group
        .sample_size(20)
        .warm_up_time(core::time::Duration::from_secs(1))
        .measurement_time(core::time::Duration::from_secs(3));
    for (name, bounce) in [("balls", true), ("balls_plain", false)] {
        let mut app = None;
        group.throughput(Throughput::Elements(12_000));
        group.bench_function(BenchmarkId::new(name, 10_000), |b| {
            let app = app.get_or_insert_with(|| balls(bounce));
            b.iter(|| app.update());
        });
        if let Some(app) = &mut app {
            report(name, app);
        }
    }
    let mut app = None;
    group.throughput(Throughput::Elements(1_000));
    group.bench_function(BenchmarkId::new("characters", 1_000), |b| {
        let app = app.get_or_insert_with(characters);
        b.iter(|| app.update());
    });
    if let Some(app) = &mut app {
        report("characters", app);
    }
    let mut world = None;
    group.throughput(Throughput::Elements(1));
    group.bench_function(BenchmarkId::new("move_and_slide", "capsule"), |b| {
        let (app, starts) = world.get_or_insert_with(slide_world);
        let mut state = SystemState::<SweepQuery>::new(app.world_mut());
        let query = state.get(app.world()).expect("the plugin is added");
        let capsule = Collider::capsule(Vec2::new(0.0, -6.0), Vec2::new(0.0, 6.0), 5.0);
        let config = MoveAndSlideConfig {
            max_slope: Some(core::f32::consts::FRAC_PI_4),
            ..default()
        };
        let filter = QueryFilter::default();
        let mut k = 0;
        b.iter(|| {
            k = (k + 1) % starts.len();
            let (start, motion) = starts[k];
            query.move_and_slide(
                &capsule,
                Isometry2d::from_translation(start),
                motion,
                &config,
                &filter,
            )
        });
    });
    group.finish();
}

/// The world of the `move_and_slide` bench ([`slide_geometry`]), and its starts.
fn slide_world() -> (App, Vec<(Vec2, Vec2)>) {
    let mut app = app();
    let (points, boxes, starts) = slide_geometry();
    app.world_mut()
        .spawn(Collider::polyline(&points).expect("finite points"));
    for at in boxes {
        app.world_mut().spawn((
            Collider::aabb(Vec2::splat(TILE)),
            Transform::from_translation(at.extend(0.0)),
        ));
    }
    app.update();
    (app, starts)
}

/// Runs the group with criterion's settings from the command line, or a probe.
fn benches() {
    if let Ok(spec) = std::env::var("RESPOND_PROBE") {
        let (name, ticks) = spec.split_once(':').unwrap_or((&spec, "100"));
        let mut app = match name {
            "balls" => balls(true),
            "balls_plain" => balls(false),
            "characters" => characters(),
            _ => panic!("no scene {name}"),
        };
        for _ in 0..ticks.parse().expect("RESPOND_PROBE=<scene>:<ticks>") {
            app.update();
        }
        return;
    }
    let mut criterion = Criterion::default().configure_from_args();
    respond(&mut criterion);
}

criterion_main!(benches);
