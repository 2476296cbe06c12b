//! What answering hits costs (group `respond`):
//!
//! - `balls/10000` and `balls_plain/10000`: 10,000 balls (radius 2, 500–5,000 units/s) in an
//!   arena of 2,000 still tiles (its border and walls inside it), bouncing
//!   ([`Response::Bounce`]), and the same scene without `Response` (the balls pass through
//!   the tiles and wrap at the arena's edge): the ratio is the cost of the answers.
//!   Since movers answer each other, the balls of `balls` also bounce off each other;
//!   `balls_apart/10000` is the same scene with the balls in layers that leave each other out.
//! - `gas/10000` and `gas_apart/10000`: 10,000 balls of radii 1 to 3 (masses as their areas),
//!   restitution 1, in a closed box, meeting each other, and the same balls in layers that
//!   leave each other out: the ratio is the cost of movers answering each other.
//! - `pile/2000`: 2,000 sliding crates (8 units square) under gravity, settled in a pit 400
//!   wide: a tick once the pile rests.
//! - `characters/1000`: 1,000 [`KinematicCharacter`]s walking both ways under gravity over
//!   polyline hills (2,001 points) with 500 tiles on them, each turning back at the ends (and
//!   at another character in its way).
//! - `move_and_slide/capsule`: one [`SweepQuery::move_and_slide`] of a capsule among a
//!   1,000-point polyline and 500 boxes, from 64 places in turn (walking into slopes and
//!   boxes under gravity).
//!
//! `taskset -c 0 cargo bench --bench respond` (one core). With `RESPOND_PROBE=<scene>:<ticks>`
//! (`balls`, `balls_apart`, `balls_plain`, `gas`, `gas_apart`, `pile`, `characters`) it runs
//! that many ticks of one scene and nothing else, for a profiler.

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

/// Layers that meet everything but each other: movers in them pass through each other.
const APART: CollisionLayers = CollisionLayers::from_bits(1, !1);

fn balls(bounce: bool, meet: bool) -> App {
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
        if !meet {
            ball.insert(APART);
        }
        placed += 1;
    }
    for _ in 0..5 {
        app.update();
    }
    app
}

/// A gas: 10,000 balls of radii 1 to 3 (masses as their areas), restitution 1, at 100 to
/// 1,000 units/s, in a closed box 1,600 wide, spawned apart from each other.
fn gas(meet: bool) -> App {
    let mut app = app();
    let half = 800.0;
    for (center, extent) in [
        (Vec2::new(-half - 10.0, 0.0), Vec2::new(10.0, half + 20.0)),
        (Vec2::new(half + 10.0, 0.0), Vec2::new(10.0, half + 20.0)),
        (Vec2::new(0.0, -half - 10.0), Vec2::new(half + 20.0, 10.0)),
        (Vec2::new(0.0, half + 10.0), Vec2::new(half + 20.0, 10.0)),
    ] {
        app.world_mut().spawn((
            Collider::aabb(extent),
            Transform::from_translation(center.extend(0.0)),
        ));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(0x6a5);
    // On a grid of cells 16 wide, one ball each: never spawned inside each other.
    let cells = (2.0 * half / 16.0) as usize;
    let mut free: Vec<usize> = (0..cells * cells).collect();
    for _ in 0..10_000 {
        let cell = free.swap_remove(rng.random_range(0..free.len()));
        let at = Vec2::new(
            -half + 8.0 + 16.0 * (cell % cells) as f32,
            -half + 8.0 + 16.0 * (cell / cells) as f32,
        );
        let radius = rng.random_range(1.0..3.0_f32);
        let velocity = Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU))
            * rng.random_range(100.0..1_000.0);
        let mut ball = app.world_mut().spawn((
            Collider::circle(radius),
            Transform::from_translation(at.extend(0.0)),
            Velocity(velocity),
            Response::Bounce { restitution: 1.0 },
            Mass(radius * radius),
        ));
        if !meet {
            ball.insert(APART);
        }
    }
    for _ in 0..5 {
        app.update();
    }
    app
}

/// Gravity on the crates.
fn fall(time: Res<Time>, mut crates: Query<&mut Velocity, With<Response>>) {
    for mut velocity in &mut crates {
        velocity.0.y -= 900.0 * time.delta_secs();
    }
}

/// 2,000 sliding crates dropped in rows into a pit 400 wide, settled for 600 ticks.
fn pile() -> App {
    let mut app = app();
    app.add_systems(FixedUpdate, fall);
    for (center, extent) in [
        (Vec2::new(0.0, -10.0), Vec2::new(220.0, 10.0)),
        (Vec2::new(-210.0, 600.0), Vec2::new(10.0, 600.0)),
        (Vec2::new(210.0, 600.0), Vec2::new(10.0, 600.0)),
    ] {
        app.world_mut().spawn((
            Collider::aabb(extent),
            Transform::from_translation(center.extend(0.0)),
        ));
    }
    // 40 crates a row, 50 rows, a little apart, each row shifted by half a crate.
    for k in 0..2_000 {
        let (row, column) = (k / 40, k % 40);
        let x = -195.0 + 9.8 * column as f32 + if row % 2 == 0 { 0.0 } else { 2.0 };
        let y = 5.0 + 10.0 * row as f32;
        app.world_mut().spawn((
            Collider::aabb(Vec2::splat(4.0)),
            Transform::from_xyz(x, y, 0.0),
            Velocity(Vec2::ZERO),
            Response::Slide,
        ));
    }
    for _ in 0..600 {
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
    let crowded = ticks.iter().map(|s| s.crowded).sum::<usize>() / ticks.len();
    let spent = ticks.iter().map(|s| s.out_of_hits).sum::<usize>() / ticks.len();
    let events = ticks.iter().map(|s| s.events).sum::<usize>() / ticks.len();
    ticks.sort_by_key(|s| s.respond_time);
    let respond = ticks[15].respond_time;
    ticks.sort_by_key(|s| s.character_time);
    let characters = ticks[15].character_time;
    ticks.sort_by_key(SweepStats::elapsed);
    eprintln!(
        "respond/{name}: per tick {hits} hits answered, {events} events, {crowded} movers \
         followed together, {spent} out of hits; median characters' moves {characters:?}, \
         respond phase {respond:?}, whole sweep {:?}",
        ticks[15].elapsed()
    );
}

fn respond(c: &mut Criterion) {
    let mut group = c.benchmark_group("respond");
    group
        .sample_size(20)
        .warm_up_time(core::time::Duration::from_secs(1))
        .measurement_time(core::time::Duration::from_secs(3));
    let scenes: [(&str, fn() -> App); 5] = [
        ("balls", || balls(true, true)),
        ("balls_apart", || balls(true, false)),
        ("balls_plain", || balls(false, false)),
        ("gas", || gas(true)),
        ("gas_apart", || gas(false)),
    ];
    for (name, scene) in scenes {
        let mut app = None;
        group.throughput(Throughput::Elements(10_000));
        group.bench_function(BenchmarkId::new(name, 10_000), |b| {
            let app = app.get_or_insert_with(scene);
            b.iter(|| app.update());
        });
        if let Some(app) = &mut app {
            report(name, app);
        }
    }
    let mut app = None;
    group.throughput(Throughput::Elements(2_000));
    group.bench_function(BenchmarkId::new("pile", 2_000), |b| {
        let app = app.get_or_insert_with(pile);
        b.iter(|| app.update());
    });
    if let Some(app) = &mut app {
        report("pile", app);
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
            "balls" => balls(true, true),
            "balls_apart" => balls(true, false),
            "balls_plain" => balls(false, false),
            "gas" => gas(true),
            "gas_apart" => gas(false),
            "pile" => pile(),
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
