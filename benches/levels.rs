//! Level geometry at the size games draw it (group `levels`): outlines of 50,000 points (a
//! comb, a star with long spikes, a spiral band) cut, spawned and ticked; a point raining
//! through the star; and 100 characters with 1,000 bullets on a 20,000-unit level outline
//! of 5,000 points.
//!
//! `cargo bench --bench levels`; `taskset -c 0 cargo bench --bench levels` on one core.
//! `TASK_POOL=default` gives the app Bevy's default task pool (as a game has it); without
//! it, the compute pool gets every core the process may use.
//!
//! Each timed tick's stats (candidate pairs, events) are printed beside criterion's
//! timings, so a number can be read with what the tick did.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sweep::prelude::*;
use criterion::{BenchmarkId, Criterion, criterion_main};

#[path = "support/pool.rs"]
mod pool;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(pool::every_core()),
        SweepPlugin::default(),
    ))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.update();
    app
}

/// A comb of `teeth` teeth 100 tall and 1 wide, 4 apart, on a bar 10 thick: `4 * teeth + 2`
/// points.
pub fn comb(teeth: usize) -> Vec<Vec2> {
    let width = 4.0 * teeth as f32;
    let mut points = vec![Vec2::new(0.0, -10.0), Vec2::new(width, -10.0)];
    for k in (0..teeth).rev() {
        let x = 4.0 * k as f32;
        points.extend([
            Vec2::new(x + 3.0, 0.0),
            Vec2::new(x + 3.0, 100.0),
            Vec2::new(x + 2.0, 100.0),
            Vec2::new(x + 2.0, 0.0),
        ]);
    }
    points
}

/// A star of `n` points whose spikes reach 10,000 from a core of radius 1,000.
pub fn star(n: usize) -> Vec<Vec2> {
    (0..n)
        .map(|i| {
            let r = if i % 2 == 0 { 10_000.0 } else { 1_000.0 };
            Vec2::from_angle(i as f32 / n as f32 * core::f32::consts::TAU) * r
        })
        .collect()
}

/// A band 20 wide wound in a spiral of ten turns 40 apart: `n` points, out along one side
/// and back along the other.
pub fn spiral(n: usize) -> Vec<Vec2> {
    let half = n / 2;
    let at = |k: usize, offset: f32| {
        let turn = k as f32 / half as f32 * 10.0 * core::f32::consts::TAU;
        let r = 100.0 + 40.0 * turn / core::f32::consts::TAU + offset;
        Vec2::from_angle(turn) * r
    };
    let mut points: Vec<Vec2> = (0..half).map(|k| at(k, 10.0)).collect();
    points.extend((0..half).rev().map(|k| at(k, -10.0)));
    points
}

/// A level outline `length` wide with `n` points: hills along the top, a flat bottom.
pub fn hills(length: f32, n: usize) -> Vec<Vec2> {
    let top = n - 2;
    let mut points: Vec<Vec2> = (0..top)
        .map(|i| {
            let x = i as f32 / (top - 1) as f32 * length;
            Vec2::new(x, (x * 0.01).sin() * 120.0 + (x * 0.093).sin() * 9.0)
        })
        .collect();
    points.extend([Vec2::new(length, -400.0), Vec2::new(0.0, -400.0)]);
    points.reverse();
    points
}

#[allow(
    clippy::print_stderr,
    reason = "the bench reports what its ticks did beside criterion's timings"
)]
fn stats(name: &str, app: &App) {
    let s = app.world().resource::<SweepStats>();
    eprintln!(
        "levels/{name}: {} candidate pairs, {} touching, {} events, {} resting",
        s.candidate_pairs, s.touching_pairs, s.events, s.resting
    );
}

/// Teleports a raining point back above the star once it is below it.
#[derive(Component)]
struct Rain;

fn rain(mut commands: Commands, mut drops: Query<(Entity, &mut Transform), With<Rain>>) {
    for (entity, mut t) in &mut drops {
        if t.translation.y < -12_000.0 {
            t.translation.y = 12_000.0;
            t.translation.x = (t.translation.x * 7.31 + 1_234.5) % 9_000.0;
            // Back to the top without sweeping the jump.
            commands.entity(entity).insert(Teleport);
        }
    }
}

/// Keeps the level's movers on it: characters fall by gravity and walk back at its ends,
/// bullets that leave it come back in at the other end, above the hills.
#[derive(Component)]
struct OnLevel;

fn keep_on_level(
    mut commands: Commands,
    mut movers: Query<
        (
            Entity,
            &mut Transform,
            &mut Velocity,
            Has<KinematicCharacter>,
        ),
        With<OnLevel>,
    >,
) {
    for (entity, mut t, mut v, character) in &mut movers {
        if character {
            v.0.y -= 900.0 / 64.0;
            if (t.translation.x < 50.0 && v.0.x < 0.0)
                || (t.translation.x > 19_950.0 && v.0.x > 0.0)
            {
                v.0.x = -v.0.x;
            }
        } else if !(0.0..=20_000.0).contains(&t.translation.x) || t.translation.y < -400.0 {
            t.translation.x = t.translation.x.rem_euclid(20_000.0);
            t.translation.y = 250.0;
            commands.entity(entity).insert(Teleport);
        }
    }
}

fn outlines(c: &mut Criterion) {
    let mut group = c.benchmark_group("levels");
    group
        .sample_size(10)
        .warm_up_time(core::time::Duration::from_secs(1))
        .measurement_time(core::time::Duration::from_secs(4));
    for (name, points) in [
        ("comb", comb(12_500)),
        ("star", star(50_000)),
        ("spiral", spiral(50_000)),
    ] {
        let n = points.len();
        let shape = Collider::polygon(&points).expect("a simple outline");
        group.bench_function(BenchmarkId::new(format!("cut_{name}"), n), |b| {
            b.iter(|| Collider::polygon(core::hint::black_box(&points)));
        });
        // Spawned alone, and its first tick.
        group.bench_function(BenchmarkId::new(format!("first_tick_{name}"), n), |b| {
            b.iter_batched(
                || {
                    let mut app = app();
                    app.world_mut().spawn((shape.clone(), Transform::default()));
                    app
                },
                |mut app| {
                    app.update();
                    app
                },
                criterion::BatchSize::PerIteration,
            );
        });
        // Still, and moving at 1 unit/s with nothing near.
        for moving in [false, true] {
            let mut app = app();
            let mut entity = app.world_mut().spawn((shape.clone(), Transform::default()));
            if moving {
                entity.insert(Velocity(Vec2::new(1.0, 0.0)));
            }
            for _ in 0..3 {
                app.update();
            }
            let id = format!("{}_tick_{name}", if moving { "moving" } else { "still" });
            group.bench_function(BenchmarkId::new(&id, n), |b| b.iter(|| app.update()));
            stats(&id, &app);
        }
    }
    // A point raining through the star at 60,000 units/s.
    {
        let mut app = app();
        app.add_systems(FixedUpdate, rain);
        app.world_mut().spawn((
            Collider::polygon(&star(50_000)).expect("a simple star"),
            Transform::default(),
        ));
        app.world_mut().spawn((
            Collider::point(),
            Transform::from_xyz(37.0, 12_000.0, 0.0),
            Velocity(Vec2::new(0.0, -60_000.0)),
            Rain,
        ));
        for _ in 0..3 {
            app.update();
        }
        group.bench_function(BenchmarkId::new("rain_through_star", 50_000), |b| {
            b.iter(|| app.update());
        });
        stats("rain_through_star", &app);
    }
    // 100 characters walking and 1,000 bullets flying over a level 20,000 wide.
    {
        let mut app = app();
        app.add_systems(FixedUpdate, keep_on_level);
        let level = hills(20_000.0, 5_000);
        app.world_mut().spawn((
            Collider::polygon(&level).expect("a simple outline"),
            Transform::default(),
        ));
        for i in 0..100 {
            let x = 100.0 + 198.0 * i as f32;
            app.world_mut().spawn((
                Collider::capsule(Vec2::new(0.0, -6.0), Vec2::new(0.0, 6.0), 6.0),
                Transform::from_xyz(x, 300.0, 0.0),
                KinematicCharacter::default(),
                Velocity(Vec2::new(if i % 2 == 0 { 150.0 } else { -150.0 }, 0.0)),
                OnLevel,
            ));
        }
        for i in 0..1_000 {
            let x = 20.0 * i as f32;
            app.world_mut().spawn((
                Collider::point(),
                Transform::from_xyz(x, 200.0 + (i % 7) as f32 * 10.0, 0.0),
                Velocity(Vec2::new(if i % 2 == 0 { 900.0 } else { -900.0 }, -30.0)),
                OnLevel,
            ));
        }
        for _ in 0..3 {
            app.update();
        }
        group.bench_function(BenchmarkId::new("characters_and_bullets", 5_000), |b| {
            b.iter(|| app.update());
        });
        stats("characters_and_bullets", &app);
    }
}

fn benches() {
    let mut criterion = Criterion::default().configure_from_args();
    outlines(&mut criterion);
}

criterion_main!(benches);
