//! No heap allocation per tick in steady state: a counting global allocator watches the
//! sweep's systems (from before `SweepSystems::Prepare` to after `SweepSystems::Report`) in a
//! busy scene of every shape (polylines among them) that repeats itself, once its buffers
//! have grown to their working size.
//!
//! Its own test binary: the global allocator and the compute task pool belong to the process.

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use bevy_sweep::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;
use common::fixed_tick_app;

/// Counts allocations (and reallocations) while `COUNTING` is set.
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on unchanged to the system allocator; the counters are
// atomics and do not allocate.
#[expect(unsafe_code, reason = "a global allocator is an unsafe trait")]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Ticks in one period of the scene: every velocity flips after this many ticks, so the
/// scene goes back and forth through the same states.
const PERIOD: u32 = 24;

#[derive(Resource, Default)]
struct Ticks(u32);

fn flip(mut ticks: ResMut<Ticks>, mut movers: Query<(&mut Velocity, &mut AngularVelocity)>) {
    ticks.0 += 1;
    if ticks.0.is_multiple_of(PERIOD / 2) {
        for (mut v, mut w) in &mut movers {
            v.0 = -v.0;
            w.0 = -w.0;
        }
    }
}

fn app(parallel: bool) -> App {
    let mut app = fixed_tick_app((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: TaskPoolOptions::with_num_threads(4),
        }),
        SweepPlugin {
            parallel,
            ..default()
        },
    ));
    app.init_resource::<Ticks>()
        .add_systems(FixedUpdate, flip)
        .add_systems(
            FixedPostUpdate,
            (
                (|| COUNTING.store(true, Ordering::SeqCst)).before(SweepSystems::Prepare),
                (|| COUNTING.store(false, Ordering::SeqCst)).after(SweepSystems::Report),
            ),
        )
        // One system at a time, so that only the sweep's systems run while counting.
        .edit_schedule(FixedPostUpdate, |schedule| {
            schedule.set_executor(SingleThreadedExecutor::new());
        });
    // An observer, so that the trigger path runs too.
    app.add_observer(|contact: On<CollisionEvent>| {
        std::hint::black_box(contact.event());
    });
    let mut rng = ChaCha8Rng::seed_from_u64(0x9e37_79b9);
    let mut next = move || rng.random_range(-1.0f32..1.0);
    // Every shape moves: the basic four, the rounded polygons, and polylines, whose edges'
    // contacts are merged per pair of colliders.
    for i in 0..3000 {
        let position = Vec2::new(next() * 200.0, next() * 200.0);
        let collider = match i % 8 {
            0 => Collider::point(),
            1 => Collider::segment(Vec2::new(-3.0, 0.0), Vec2::new(3.0, next())),
            2 => Collider::circle(0.5 + next().abs() * 2.0),
            3 => Collider::aabb(Vec2::new(0.5 + next().abs(), 0.5 + next().abs())),
            4 => Collider::rectangle(Vec2::new(0.5 + next().abs(), 0.5 + next().abs())),
            5 => Collider::capsule(Vec2::new(-2.0, 0.0), Vec2::new(2.0, next()), 0.5),
            6 => Collider::convex_polygon(&[
                Vec2::new(-1.5, -1.0),
                Vec2::new(1.5, -1.0),
                Vec2::new(2.0, 0.5),
                Vec2::new(0.0, 1.5),
                Vec2::new(-2.0, 0.5),
            ])
            .expect("convex"),
            _ => Collider::polyline(&[
                Vec2::new(-4.0, 0.0),
                Vec2::new(-2.0, next()),
                Vec2::new(0.0, -1.0),
                Vec2::new(2.0, next()),
                Vec2::new(4.0, 0.0),
            ])
            .expect("finite points"),
        };
        app.world_mut().spawn((
            collider,
            Transform::from_translation(position.extend(0.0)),
            Velocity(Vec2::new(next(), next()) * 300.0),
            AngularVelocity(next() * 4.0),
        ));
    }
    // Still walls and a still polyline, which rest: swept colliders meet resting ones.
    for k in 0..40 {
        let x = -200.0 + 10.0 * k as f32;
        app.world_mut().spawn((
            Collider::aabb(Vec2::new(1.0, 30.0)),
            Transform::from_xyz(x, 0.0, 0.0),
        ));
    }
    let hills: Vec<Vec2> = (0..100)
        .map(|k| {
            Vec2::new(
                -200.0 + 4.0 * k as f32,
                if k % 2 == 0 { -50.0 } else { -46.0 },
            )
        })
        .collect();
    app.world_mut()
        .spawn(Collider::polyline(&hills).expect("finite points"));
    app
}

/// Allocations in the sweep's systems over one period, after two periods of warm-up.
fn allocations_per_period(parallel: bool) -> (usize, usize, usize) {
    let mut app = app(parallel);
    for _ in 0..2 * PERIOD {
        app.update();
    }
    let (mut events, mut chunks) = (0, 0);
    ALLOCATIONS.store(0, Ordering::SeqCst);
    for _ in 0..PERIOD {
        app.update();
        let stats = app.world().resource::<SweepStats>();
        events += stats.events;
        chunks += stats.parallel_tasks();
    }
    (ALLOCATIONS.load(Ordering::SeqCst), events, chunks)
}

#[test]
fn a_tick_allocates_nothing_in_steady_state() {
    let (allocations, events, _) = allocations_per_period(false);
    assert!(events > 200, "the scene should be busy: {events} events");
    assert_eq!(allocations, 0, "allocations in {PERIOD} serial ticks");
    // In parallel, only the tasks of the narrow phase's chunks are allocated (by Bevy's
    // executor): a few per chunk, never per pair.
    let (allocations, events, chunks) = allocations_per_period(true);
    assert!(events > 200);
    assert!(chunks >= PERIOD as usize, "the parallel path should run");
    assert!(
        allocations <= 4 * chunks,
        "{allocations} allocations in {PERIOD} parallel ticks of {chunks} chunks"
    );
}
