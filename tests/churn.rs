//! Churn soak: colliders of every kind spawned, despawned, teleported, re-layered, reshaped,
//! started and stopped every tick (so that many come to rest and wake again), each tick held
//! to the exact oracle (every contact and no other, each `Started`, `Ended` and `Crossed` at
//! its exact time), and the whole stream of events identical with 1, 2 and 4 compute threads.
//! Among them bounce, slide and stop responders and kinematic characters, whose piecewise
//! paths the pair oracle leaves out (they have their own, `tests/responders_oracle.rs`):
//! their events are in the compared streams, and no tick moves one further than its speed
//! and a push out of what it overlaps allow.
//!
//! `cargo test --test churn` runs the size CI runs (1,200 colliders, 100 ticks). The full
//! soak, 10,000 colliders for 2,000 ticks (about half an hour on two cores):
//!
//! ```sh
//! CHURN_COLLIDERS=10000 CHURN_TICKS=2000 cargo test --release --test churn
//! ```
//!
//! A test binary of its own without the test harness (`harness = false`): each run needs a
//! compute pool of a chosen size, and Bevy's pool is global to the process, so this runs the
//! scene itself with 4 threads and checks it against the oracle, then runs itself again with
//! 1 and 2 threads, and serially (`CHURN_THREADS`, 0 for serially), and compares their
//! streams with its own. (With one compute thread the sweep still runs its parts on two
//! threads on a machine of two cores or more, the main thread working on them too; on two
//! cores the 1- and 2-thread runs then make the same parts, and the serial run keeps one
//! part covered.)

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;
#[path = "common/exact/mod.rs"]
#[allow(
    dead_code,
    unused_imports,
    reason = "the oracle serves other tests too, and its own tests are compiled here, not run"
)]
mod exact;

use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use bevy_sweep::prelude::*;
use common::{recording_app, task_pools};
use exact::oracle_check::{Check, States, check_tick};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hasher};

/// The size of the run, from the environment.
#[derive(Clone, Copy, Debug)]
struct Size {
    colliders: usize,
    ticks: usize,
}

impl Size {
    fn from_env() -> Self {
        let read = |name: &str, default: usize| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.replace('_', "").parse().ok())
                .unwrap_or(default)
        };
        Self {
            colliders: read("CHURN_COLLIDERS", 1_200),
            ticks: read("CHURN_TICKS", 100),
        }
    }
}

/// A headless app whose compute pool has exactly `threads` threads (0: one thread, and the
/// sweep runs serially).
fn app(threads: usize) -> App {
    let plugin = SweepPlugin {
        parallel: threads > 0,
        ..default()
    };
    let threads = threads.max(1);
    recording_app((MinimalPlugins.set(task_pools(threads)), plugin))
}

/// The scene and its churn, from one seed.
struct Scene {
    rng: ChaCha8Rng,
    /// Half the side of the arena.
    half: f32,
    alive: Vec<Entity>,
}

/// The layer sets a collider is given: everything, two groups that meet each other but not
/// themselves, and nothing.
const LAYERS: [CollisionLayers; 4] = [
    CollisionLayers::ALL,
    CollisionLayers::from_bits(1, 2),
    CollisionLayers::from_bits(2, 1),
    CollisionLayers::NONE,
];

impl Scene {
    fn new(size: Size) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(0xc4_0a2e),
            // 100 square units per collider: a crowded arena, where many pairs meet.
            half: (size.colliders as f32 * 100.0).sqrt() / 2.0,
            alive: Vec::new(),
        }
    }

    fn place(&mut self) -> Vec2 {
        let h = self.half;
        Vec2::new(self.rng.random_range(-h..h), self.rng.random_range(-h..h))
    }

    fn collider(&mut self) -> Collider {
        let r = &mut self.rng;
        match r.random_range(0..10) {
            // One in five of the shapes beyond the first four.
            6 => Collider::rectangle(Vec2::new(
                r.random_range(0.3..2.5),
                r.random_range(0.3..2.5),
            )),
            7 => Collider::capsule(
                Vec2::new(r.random_range(-2.0..0.0), 0.0),
                Vec2::new(r.random_range(0.0..2.0), r.random_range(-1.0..1.0)),
                r.random_range(0.2..1.0),
            ),
            8 => {
                let n = r.random_range(3..=8);
                let radius = r.random_range(0.5..2.5);
                let phase = r.random_range(0.0..1.0);
                let vertices: Vec<Vec2> = (0..n)
                    .map(|k| {
                        Vec2::from_angle(phase + k as f32 * core::f32::consts::TAU / n as f32)
                            * radius
                    })
                    .collect();
                Collider::convex_polygon(&vertices).unwrap_or(Collider::circle(radius))
            }
            9 => {
                let points: Vec<Vec2> = (0..r.random_range(2..8))
                    .map(|k| Vec2::new(k as f32 * 1.5 - 5.0, r.random_range(-1.5..1.5)))
                    .collect();
                Collider::polyline(&points).unwrap_or(Collider::point())
            }
            0 | 4 => Collider::point(),
            1 => Collider::segment(
                Vec2::new(r.random_range(-4.0..-0.5), r.random_range(-2.0..2.0)),
                Vec2::new(r.random_range(0.5..4.0), r.random_range(-2.0..2.0)),
            ),
            2 | 5 => Collider::circle(r.random_range(0.3..2.5)),
            _ => Collider::aabb(Vec2::new(
                r.random_range(0.3..2.5),
                r.random_range(0.3..2.5),
            )),
        }
    }

    /// A velocity of up to 640 units per second (10 per tick), or none (a third of them).
    fn velocity(&mut self) -> Option<Velocity> {
        let r = &mut self.rng;
        r.random_bool(2.0 / 3.0).then(|| {
            Velocity(
                Vec2::from_angle(r.random_range(0.0..core::f32::consts::TAU))
                    * r.random_range(5.0..640.0),
            )
        })
    }

    fn spawn(&mut self, world: &mut World) {
        // One in twenty answers hits: a ball that bounces, slides or stops, or a character.
        if self.rng.random_bool(0.05) {
            let place = self.place();
            let velocity = Velocity(
                Vec2::from_angle(self.rng.random_range(0.0..core::f32::consts::TAU))
                    * self.rng.random_range(50.0..640.0),
            );
            let mut entity = world.spawn((
                Transform::from_translation(place.extend(0.0)),
                LAYERS[self.rng.random_range(0..3)],
                velocity,
            ));
            match self.rng.random_range(0..4) {
                0 => entity.insert((Collider::circle(0.5), Response::Bounce { restitution: 0.9 })),
                1 => entity.insert((Collider::circle(0.7), Response::Slide)),
                2 => entity.insert((Collider::point(), Response::Stop)),
                _ => entity.insert((
                    Collider::capsule(Vec2::new(0.0, -0.6), Vec2::new(0.0, 0.6), 0.4),
                    KinematicCharacter::default(),
                )),
            };
            self.alive.push(entity.id());
            return;
        }
        let (collider, place) = (self.collider(), self.place());
        let layers = LAYERS[self.rng.random_range(0..3)];
        let mut entity = world.spawn((
            collider.clone(),
            Transform::from_translation(place.extend(0.0)),
            layers,
        ));
        if let Some(v) = self.velocity() {
            entity.insert(v);
        }
        let turns = !matches!(
            collider,
            Collider::Point | Collider::Circle { .. } | Collider::Aabb { .. }
        );
        if turns && self.rng.random_bool(0.5) {
            entity.insert(AngularVelocity(self.rng.random_range(-4.0..4.0)));
        }
        self.alive.push(entity.id());
    }

    /// A random living collider.
    fn pick(&mut self) -> Option<Entity> {
        (!self.alive.is_empty()).then(|| self.alive[self.rng.random_range(0..self.alive.len())])
    }

    /// One tick's churn, about half a percent of the colliders for each kind of change; and
    /// colliders leaving the arena wrap round (teleported).
    fn churn(&mut self, world: &mut World, colliders: usize) {
        let count = (colliders / 200).max(1);
        for _ in 0..count {
            // (Responders stay: the pair oracle, which leaves them out, must know them to
            // leave out their last events too.)
            if let Some(e) = self.pick()
                && world.get::<Response>(e).is_none()
                && world.get::<KinematicCharacter>(e).is_none()
            {
                world.despawn(e);
                self.alive.retain(|&a| a != e);
            }
            self.spawn(world);
            if let Some(e) = self.pick() {
                let place = self.place();
                world
                    .entity_mut(e)
                    .insert((Transform::from_translation(place.extend(0.0)), Teleport));
            }
            if let Some(e) = self.pick() {
                let layers = LAYERS[self.rng.random_range(0..4)];
                world.entity_mut(e).insert(layers);
            }
            if let Some(e) = self.pick() {
                // Start or stop: a stopped collider comes to rest two ticks later.
                if world.get::<Velocity>(e).is_some() {
                    world.entity_mut(e).remove::<(Velocity, AngularVelocity)>();
                } else if let Some(v) = self.velocity() {
                    world.entity_mut(e).insert(v);
                }
            }
            if self.rng.random_bool(0.5)
                && let Some(e) = self.pick()
            {
                let collider = self.collider();
                world.entity_mut(e).insert(collider);
            }
        }
        let h = self.half;
        for &e in &self.alive {
            let p = world
                .get::<Transform>(e)
                .map_or(Vec2::ZERO, |t| t.translation.truncate());
            if p.x.abs() > h || p.y.abs() > h {
                let wrapped = Vec2::new(
                    (p.x + h).rem_euclid(2.0 * h) - h,
                    (p.y + h).rem_euclid(2.0 * h) - h,
                );
                world
                    .entity_mut(e)
                    .insert((Transform::from_translation(wrapped.extend(0.0)), Teleport));
            }
        }
    }
}

/// Runs the scene with `threads` compute threads; returns a digest of every event of every
/// tick, and checks each tick against the oracle if asked.
fn run(size: Size, threads: usize, mut check: Option<&mut Check>) -> u64 {
    let mut app = app(threads);
    assert_eq!(
        ComputeTaskPool::get().thread_num(),
        threads.max(1),
        "the compute pool's size"
    );
    let mut scene = Scene::new(size);
    for _ in 0..size.colliders {
        scene.spawn(app.world_mut());
    }
    let (mut digest, mut line) = (DefaultHasher::new(), String::new());
    let mut states = States::default();
    let mut answering = app
        .world_mut()
        .query_filtered::<(Entity, &Transform, &Velocity), (
            Or<(With<Response>, With<KinematicCharacter>)>,
            Without<Teleport>,
        )>();
    for tick in 0..size.ticks {
        if tick > 0 {
            scene.churn(app.world_mut(), size.colliders);
        }
        let before: Vec<(Entity, Vec2, f32)> = answering
            .iter(app.world())
            .map(|(e, t, v)| (e, t.translation.truncate(), v.0.length()))
            .collect();
        let events = common::tick(&mut app);
        // Never thrown: a tick moves a responder no further than its speed carries it, and
        // a push out of what it overlaps (a few units in this scene). Bounces off moving
        // solids speed it up (a ball caught between two that close in, many times a tick):
        // its speed is the larger of its speeds before and after the tick.
        for (e, at, speed) in before {
            if let Ok((_, t, v)) = answering.get(app.world(), e) {
                let moved = t.translation.truncate().distance(at);
                let after = v.0.length();
                assert!(
                    moved.is_finite() && moved <= speed.max(after) * common::TICK + 12.0,
                    "tick {tick}: responder {e} moved {moved} at {speed} units/s"
                );
            }
        }
        for e in &events {
            line.clear();
            // Rust prints the shortest decimal that round-trips: two floats print alike only
            // if they are equal.
            let _ = write!(line, "{tick} {e:?}");
            digest.write(line.as_bytes());
        }
        if let Some(check) = check.as_deref_mut() {
            check_tick(app.world_mut(), tick, &events, &mut states, check);
        }
    }
    digest.finish()
}

#[expect(
    clippy::print_stdout,
    reason = "a test without the harness reports what it did"
)]
fn main() {
    let size = Size::from_env();
    if let Ok(threads) = std::env::var("CHURN_THREADS") {
        let threads = threads.parse().expect("CHURN_THREADS is a number");
        println!("digest {:016x}", run(size, threads, None));
        return;
    }
    let mut check = Check::default();
    let digest = run(size, 4, Some(&mut check));
    println!(
        "churn: {} colliders, {} ticks, 4 threads: {} pair-ticks held to the exact oracle, {} events, {} missed, {} extra; {} resting collider-ticks",
        size.colliders,
        size.ticks,
        check.pairs,
        check.events,
        check.missed,
        check.extra,
        check.resting
    );
    assert!(
        check.missed == 0 && check.extra == 0,
        "the events differ from the exact oracle's:\n{}",
        check.first_failure.unwrap_or_default()
    );
    assert!(
        check.events > size.ticks * 10,
        "the scene should be busy: {check:?}"
    );
    assert!(
        check.resting > size.ticks * size.colliders / 20,
        "colliders should come to rest: {check:?}"
    );
    for threads in [0, 1, 2] {
        let name = match threads {
            0 => "serial".to_string(),
            n => format!("{n}-thread"),
        };
        let output = std::process::Command::new(std::env::current_exe().expect("this test's path"))
            .env("CHURN_THREADS", threads.to_string())
            .env("CHURN_COLLIDERS", size.colliders.to_string())
            .env("CHURN_TICKS", size.ticks.to_string())
            .output()
            .expect("the test runs itself");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "the {name} run failed: {stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let theirs = stdout
            .lines()
            .find_map(|l| l.strip_prefix("digest "))
            .and_then(|d| u64::from_str_radix(d, 16).ok())
            .expect("the run prints its digest");
        assert_eq!(
            theirs, digest,
            "the {name} run's events differ from the 4-thread run's"
        );
        println!("churn: the {name} run's events are the 4-thread run's");
    }
}
