//! One full fixed tick of the plugin (prepare, integrate, broad phase, narrow phase, report)
//! for 1,000, 10,000 and 100,000 mixed colliders in a headless App, in three scenes:
//!
//! - `mixed`: spread uniformly over the arena;
//! - `clustered`: nine in ten in a corner a tenth of the arena wide (100× less area, so 90×
//!   denser), with colliders and speeds a tenth as large: the uniform scene at a smaller
//!   scale, beside a sparse one, with about as many overlaps per collider;
//! - `crowded`: nine in ten in a corner a twentieth of the arena wide (360× denser), also a
//!   tenth as large and fast: 3.6× the uniform scene's overlaps per collider (and of
//!   candidate pairs and events).
//! - `shapes`: the uniform scene with half its colliders turning rectangles, capsules and
//!   convex polygons of 5-8 vertices, and a still polyline of 1,000 points across the
//!   arena: the cost of the new shapes against `mixed`, which has the old ones only.
//!
//! Then the scenes shaped like games of `benches/support/scenes.rs`, which the avian2d
//! comparison runs too: `bullet_hell` (10,000 colliders), `tilemap` (50,000 still tiles and
//! 500 movers) and `still_walls` (10,000 colliders among still and sliding segments); and
//! `level_per_tile` against `level_merged`: a 256 × 256 tile level (about 20,000 solid tiles)
//! with 1,000 fast movers, one collider per tile or merged by `bevy_sweep::tiles`.
//!
//! `mixed_observed` is the uniform 10,000 with a global observer of every event, and
//! `mixed_responders` the same with one mover in ten bouncing (`Response::Bounce`), answered
//! on its real path by the respond phase, each at a speed it keeps (bounces off solids moving
//! towards it would otherwise speed it up without end).
//!
//! Then `SweepQuery` (group `query`): all hits of a ray across the uniform arena and a first
//! hit, and all hits of a laser along a row of 2,000 tiles. Then merging tile grids (group
//! `tiles`): the level's grid, and 100,000 solid tiles in random blocks.
//!
//! `cargo bench --bench tick`. The per-collider time should stay about flat from 1,000 to
//! 100,000 colliders (near-linear scaling). The compute pool gets every core the process may
//! use ([`every_core`]): `taskset -c 0 cargo bench --bench tick` measures one core, a plain
//! run all of them.

use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sweep::prelude::*;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "support/scenes.rs"]
mod scenes;

#[path = "support/pool.rs"]
mod pool;
use pool::every_core;

use scenes::{Kind, Scene};

/// The square a collider stays in (`low..high` on both axes): the arena, or the corner of a
/// clustered or crowded collider, so that the scene stays as it is however long it runs.
#[derive(Component)]
struct Home(f32, f32);

/// Colliders leaving their square reappear on the other side (teleported, not swept).
fn wrap(mut commands: Commands, mut movers: Query<(Entity, &mut Transform, &Home)>) {
    for (entity, mut transform, &Home(low, high)) in &mut movers {
        let p = transform.translation.truncate();
        if p.cmplt(Vec2::splat(low)).any() || p.cmpgt(Vec2::splat(high)).any() {
            let side = high - low;
            let wrapped = Vec2::new(
                (p.x - low).rem_euclid(side) + low,
                (p.y - low).rem_euclid(side) + low,
            );
            transform.translation = wrapped.extend(0.0);
            commands.entity(entity).insert(Teleport);
        }
    }
}

/// Where the colliders are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    Uniform,
    /// Nine in ten in a corner a tenth of the arena wide, a tenth as large and fast.
    Clustered,
    /// Nine in ten in a corner a twentieth of the arena wide, a tenth as large and fast.
    Crowded,
    /// As `Uniform`, with half the colliders of the new shapes (turning rectangles,
    /// capsules and polygons) and a still polyline of 1,000 points across the arena.
    Shapes,
}

fn world(count: usize, layout: Layout) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins.set(every_core()), SweepPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .add_systems(FixedUpdate, wrap);
    let half = (count as f32).sqrt() * 10.0;
    app.update();
    let mut rng = ChaCha8Rng::seed_from_u64(count as u64);
    for i in 0..count {
        // The arena is `2 * half` wide; the corner a tenth or a twentieth of that.
        let corner = match layout {
            _ if i % 10 == 0 => None,
            Layout::Uniform | Layout::Shapes => None,
            Layout::Clustered => Some(0.2 * half),
            Layout::Crowded => Some(0.1 * half),
        };
        let clustered = corner.is_some();
        let (low, high) = corner.map_or((-half, half), |width| (-half, -half + width));
        let position = Vec2::new(rng.random_range(low..high), rng.random_range(low..high));
        let size = if clustered { 0.1 } else { 1.0 };
        let velocity = Vec2::new(
            rng.random_range(-300.0..300.0),
            rng.random_range(-300.0..300.0),
        ) * size;
        let kind = if layout == Layout::Shapes {
            i % 8
        } else {
            i % 4
        };
        let collider = match kind {
            0 => Collider::point(),
            1 => Collider::segment(Vec2::new(-4.0, 0.0) * size, Vec2::new(4.0, 0.0) * size),
            2 => Collider::circle(rng.random_range(1.0..3.0) * size),
            3 => Collider::aabb(
                Vec2::new(rng.random_range(1.0..3.0), rng.random_range(1.0..3.0)) * size,
            ),
            4 | 7 => Collider::rectangle(
                Vec2::new(rng.random_range(1.0..3.0), rng.random_range(1.0..3.0)) * size,
            ),
            5 => Collider::capsule(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0), 1.0),
            _ => {
                let radius = rng.random_range(1.5..3.0);
                let n = 5 + i % 4;
                let vertices: Vec<Vec2> = (0..n)
                    .map(|k| {
                        Vec2::from_angle(k as f32 * core::f32::consts::TAU / n as f32) * radius
                    })
                    .collect();
                Collider::convex_polygon(&vertices).expect("a regular polygon")
            }
        };
        let mut entity = app.world_mut().spawn((
            collider,
            Transform::from_translation(position.extend(0.0)),
            Velocity(velocity),
            Home(low, high),
        ));
        if kind % 4 == 1 || kind >= 4 {
            entity.insert(AngularVelocity(rng.random_range(-3.0..3.0)));
        }
    }
    if layout == Layout::Shapes {
        // Terrain: a still zigzag of 1,000 points across the arena.
        let points: Vec<Vec2> = (0..1000)
            .map(|k| {
                let x = -half + 2.0 * half * k as f32 / 999.0;
                Vec2::new(x, if k % 2 == 0 { -4.0 } else { 4.0 })
            })
            .collect();
        app.world_mut().spawn((
            Collider::polyline(&points).expect("finite points"),
            Transform::IDENTITY,
        ));
    }
    // Settle: the first ticks report every overlap of the random placement.
    for _ in 0..5 {
        app.update();
    }
    app
}

/// The seed of the game-shaped scenes (the avian2d comparison uses the same).
const SCENE_SEED: u64 = 0x5eed_a1a2;

/// A headless app of a game-shaped scene: still colliders get no velocity, the others wrap
/// at the arena's edges (teleported).
fn scene_app(scene: &Scene) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins.set(every_core()), SweepPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .add_systems(FixedUpdate, wrap);
    app.update();
    for spec in &scene.specs {
        let collider = match spec.kind {
            Kind::Point => Collider::point(),
            Kind::Segment { half_length } => {
                Collider::segment(Vec2::new(-half_length, 0.0), Vec2::new(half_length, 0.0))
            }
            Kind::Circle { radius } => Collider::circle(radius),
            Kind::Box { half_extents } => Collider::aabb(half_extents),
            Kind::Rectangle { half_extents } => Collider::rectangle(half_extents),
            Kind::Capsule {
                half_length,
                radius,
            } => Collider::capsule(
                Vec2::new(-half_length, 0.0),
                Vec2::new(half_length, 0.0),
                radius,
            ),
        };
        let transform = Transform::from_translation(spec.position.extend(0.0))
            .with_rotation(Quat::from_rotation_z(spec.angle));
        let mut entity = app.world_mut().spawn((collider, transform));
        if let Some((memberships, filters)) = spec.layers {
            entity.insert(CollisionLayers::new(memberships, filters));
        }
        if !spec.is_still() {
            entity.insert((Velocity(spec.velocity), Home(-scene.half, scene.half)));
        }
        if spec.angular_velocity != 0.0 {
            entity.insert(AngularVelocity(spec.angular_velocity));
        }
    }
    for _ in 0..5 {
        app.update();
    }
    app
}

/// The process's resident memory now, in bytes (Linux; 0 elsewhere).
fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

/// Prints how much resident memory building a level's app took (a rough figure: the
/// allocator keeps freed memory, and the app's own parts are in it too).
#[expect(
    clippy::print_stderr,
    reason = "a bench reports what criterion does not measure on stderr"
)]
fn level_memory(name: &str, count: usize, before: u64) {
    let grown = resident_bytes().saturating_sub(before);
    eprintln!(
        "tick/{name}/{count}: building the app took {:.1} MiB of resident memory",
        grown as f64 / (1 << 20) as f64
    );
}

/// Merging tile grids into rectangles (`TileGrid::merged`): the 256 × 256 level of the tick
/// bench, and a 400 × 400 grid with 100,000 solid tiles in random blocks.
fn tiles(c: &mut Criterion) {
    let mut group = c.benchmark_group("tiles");
    group
        .sample_size(20)
        .warm_up_time(core::time::Duration::from_secs(1))
        .measurement_time(core::time::Duration::from_secs(3));
    let level = Scene::level_grid(SCENE_SEED);
    group.throughput(Throughput::Elements(level.solid_count() as u64));
    group.bench_function(BenchmarkId::new("merge_level", level.solid_count()), |b| {
        b.iter(|| level.merged());
    });
    let mut rng = ChaCha8Rng::seed_from_u64(SCENE_SEED);
    let mut big = bevy_sweep::tiles::TileGrid::new(400, 400).expect("a 400 × 400 grid");
    while big.solid_count() < 100_000 {
        let (w, h) = (rng.random_range(1..=12_u32), rng.random_range(1..=12_u32));
        let (x0, y0) = (rng.random_range(0..400 - w), rng.random_range(0..400 - h));
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                big.set(UVec2::new(x, y), true);
            }
        }
    }
    group.throughput(Throughput::Elements(big.solid_count() as u64));
    group.bench_function(BenchmarkId::new("merge_blocks", big.solid_count()), |b| {
        b.iter(|| big.merged());
    });
    report_merge("level", &level);
    report_merge("blocks", &big);
    group.finish();
}

/// How many rectangles a grid merges into.
#[expect(
    clippy::print_stderr,
    reason = "a bench reports what criterion does not measure on stderr"
)]
fn report_merge(name: &str, grid: &bevy_sweep::tiles::TileGrid) {
    eprintln!(
        "tiles/{name}: {} solid tiles merged into {} rectangles",
        grid.solid_count(),
        grid.merged().len()
    );
}

/// Prints how busy the world is and the median time of each phase over 31 more ticks (the
/// plugin's own [`SweepStats`]; the rest of `app.update()` is Bevy's and the bench's `wrap`).
#[expect(
    clippy::print_stderr,
    reason = "the bench reports how busy its worlds are beside criterion's timings"
)]
fn report(name: &str, count: usize, app: &mut App) {
    let mut updates = Vec::new();
    let mut ticks: Vec<SweepStats> = (0..31)
        .map(|_| {
            let began = std::time::Instant::now();
            app.update();
            updates.push(began.elapsed());
            *app.world().resource::<SweepStats>()
        })
        .collect();
    updates.sort();
    let mut median = |phase: fn(&SweepStats) -> core::time::Duration| {
        ticks.sort_by_key(phase);
        phase(&ticks[ticks.len() / 2])
    };
    let (prepare, gather, broad, narrow, report, elapsed) = (
        median(|s| s.prepare_time),
        median(|s| s.gather_time),
        median(|s| s.broad_phase_time),
        median(|s| s.narrow_phase_time),
        median(|s| s.report_time),
        median(SweepStats::elapsed),
    );
    let mean = |count: fn(&SweepStats) -> usize| {
        ticks.iter().map(count).sum::<usize>() as f64 / ticks.len() as f64
    };
    let (pairs, exact) = (mean(|s| s.candidate_pairs), mean(|s| s.exact_pairs));
    eprintln!(
        "tick/{name}/{count}: per tick {pairs:.0} candidate pairs ({:.3}% exact), {:.0} \
         touching, {:.0} batched, {:.0} events, {:.0} resting; median over 31 ticks: prepare \
         {prepare:?}, broad {broad:?} (gather {gather:?}), narrow {narrow:?} ({:.0} ns per \
         candidate pair), report {report:?}, \
         whole sweep {elapsed:?}, whole app.update() {:?}",
        100.0 * exact / pairs.max(1.0),
        mean(|s| s.touching_pairs),
        mean(|s| s.batched_pairs),
        mean(|s| s.events),
        mean(|s| s.resting),
        narrow.as_nanos() as f64 / pairs.max(1.0),
        updates[15],
    );
}

fn tick(c: &mut Criterion) {
    let mut group = c.benchmark_group("tick");
    group
        .sample_size(20)
        .warm_up_time(core::time::Duration::from_secs(1))
        .measurement_time(core::time::Duration::from_secs(3));
    for (name, layout) in [
        ("mixed", Layout::Uniform),
        ("clustered", Layout::Clustered),
        ("crowded", Layout::Crowded),
        ("shapes", Layout::Shapes),
    ] {
        for count in [1_000, 10_000, 100_000] {
            // Built on first use, so that a filtered run builds only the worlds it measures.
            let mut app = None;
            group.throughput(Throughput::Elements(count as u64));
            group.bench_function(BenchmarkId::new(name, count), |b| {
                let app = app.get_or_insert_with(|| world(count, layout));
                b.iter(|| app.update());
            });
            if let Some(app) = &mut app {
                report(name, count, app);
            }
        }
    }
    let bullet_hell = Scene::bullet_hell(10_000, SCENE_SEED);
    for scene in [
        bullet_hell.turning(SCENE_SEED),
        bullet_hell,
        Scene::tilemap(50_000, 500, SCENE_SEED),
        Scene::still_walls(10_000, SCENE_SEED),
    ] {
        let (name, count) = (scene.name, scene.specs.len());
        let mut app = None;
        group.throughput(Throughput::Elements(count as u64));
        group.bench_function(BenchmarkId::new(name, count), |b| {
            let app = app.get_or_insert_with(|| scene_app(&scene));
            b.iter(|| app.update());
        });
        if let Some(app) = &mut app {
            report(name, count, app);
        }
    }
    // A 256 × 256 tile level (about 20,000 solid tiles) with 1,000 fast movers: one collider
    // per tile against the tiles merged into rectangles (`bevy_sweep::tiles`).
    for merged in [false, true] {
        let scene = Scene::level(merged, 1_000, SCENE_SEED);
        let (name, count) = (scene.name, scene.specs.len());
        let mut app = None;
        group.throughput(Throughput::Elements(count as u64));
        group.bench_function(BenchmarkId::new(name, count), |b| {
            let app = app.get_or_insert_with(|| {
                let before = resident_bytes();
                let app = scene_app(&scene);
                level_memory(name, count, before);
                app
            });
            b.iter(|| app.update());
        });
        if let Some(app) = &mut app {
            report(name, count, app);
        }
    }
    // The cost of observer delivery: the same 10,000-collider world with one global
    // observer of `CollisionEvent` (every event triggered twice).
    let mut app = None;
    group.throughput(Throughput::Elements(10_000));
    group.bench_function(BenchmarkId::new("mixed_observed", 10_000), |b| {
        let app = app.get_or_insert_with(|| {
            let mut app = world(10_000, Layout::Uniform);
            app.add_observer(|contact: On<CollisionEvent>| {
                std::hint::black_box(contact.event());
            });
            app
        });
        b.iter(|| app.update());
    });
    // Answering hits: the same 10,000-collider world with one mover in ten a bouncing
    // responder, which the respond phase answers on its real path (and whose pieces the
    // broad and narrow phases sweep).
    let mut app = None;
    group.throughput(Throughput::Elements(10_000));
    group.bench_function(BenchmarkId::new("mixed_responders", 10_000), |b| {
        let app = app.get_or_insert_with(responders_app);
        b.iter(|| app.update());
    });
    if let Some(app) = &mut app {
        report("mixed_responders", 10_000, app);
    }
    group.finish();
}

/// `SweepQuery` in the uniform worlds after their ticks: every collider a ray across the
/// whole arena hits (corner to corner: tens of colliders, each in one or more of the broad
/// phase's rows), and the first one a ray from the centre hits; then every tile a laser
/// along a row of 2,000 tiles hits.
#[expect(
    clippy::print_stderr,
    reason = "the bench reports how many colliders its rays hit beside criterion's timings"
)]
fn query(c: &mut Criterion) {
    let mut group = c.benchmark_group("query");
    group
        .sample_size(20)
        .warm_up_time(core::time::Duration::from_secs(1))
        .measurement_time(core::time::Duration::from_secs(3));
    for count in [10_000, 100_000] {
        let mut app = None;
        let half = (count as f32).sqrt() * 10.0;
        let (a, b) = (Vec2::splat(-half), Vec2::new(half, 0.9 * half));
        let all = QueryFilter::default();
        let (mut hits, mut ran) = (Vec::new(), false);
        group.bench_function(BenchmarkId::new("ray_hits_across", count), |bench| {
            let app = app.get_or_insert_with(|| world(count, Layout::Uniform));
            let mut state = SystemState::<SweepQuery>::new(app.world_mut());
            let query = state.get(app.world()).expect("the plugin is added");
            bench.iter(|| query.segment_hits(a, b, &all, &mut hits));
            ran = true;
        });
        if ran {
            eprintln!("query/ray_hits_across/{count}: {} hits", hits.len());
        }
        group.bench_function(BenchmarkId::new("cast_ray", count), |bench| {
            let app = app.get_or_insert_with(|| world(count, Layout::Uniform));
            let mut state = SystemState::<SweepQuery>::new(app.world_mut());
            let query = state.get(app.world()).expect("the plugin is added");
            let aim = Dir2::new(Vec2::new(1.0, 0.3)).expect("not zero");
            bench.iter(|| query.cast_ray(Vec2::ZERO, aim, half, &all));
        });
    }
    // A laser along a row of 2,000 tiles: every tile is hit. The tiles are all in one of the
    // broad phase's rows, so this measures the search for hits already found within a row
    // (it was over every hit so far, quadratic), not the dedup across rows.
    let mut tiles = App::new();
    tiles
        .add_plugins((MinimalPlugins.set(every_core()), SweepPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    for i in 0..2_000 {
        tiles.world_mut().spawn((
            Collider::aabb(Vec2::splat(0.9)),
            Transform::from_xyz(2.0 * i as f32, 0.0, 0.0),
        ));
    }
    for _ in 0..3 {
        tiles.update();
    }
    let mut state = SystemState::<SweepQuery>::new(tiles.world_mut());
    let query = state.get(tiles.world()).expect("the plugin is added");
    let (a, b) = (Vec2::new(-5.0, 0.1), Vec2::new(4_005.0, 0.3));
    let (mut hits, mut ran) = (Vec::new(), false);
    group.bench_function(BenchmarkId::new("ray_hits_along_tiles", 2_000), |bench| {
        bench.iter(|| query.segment_hits(a, b, &QueryFilter::default(), &mut hits));
        ran = true;
    });
    if ran {
        eprintln!("query/ray_hits_along_tiles/2000: {} hits", hits.len());
    }
    group.finish();
}

/// `TICK_PROBE=<scene>:<ticks>` runs that many ticks of one scene (`mixed`,
/// `mixed_responders`, `shapes`, `bullet_hell`, `bullet_hell_turning`, `tilemap` or
/// `still_walls`, 10,000 colliders; `bullet_hell_1k`, 1,000) after building it, and nothing
/// else: a fixed amount of work for `perf stat` (two runs with different tick counts give the
/// instructions and cycles of one tick without the building, where criterion's timings on a
/// shared machine vary by 10–20%). `TICK_PROBE_STATS=<n>` prints the stats of every `n`th
/// tick.
fn probe(spec: &str) {
    let (name, ticks) = spec.split_once(':').unwrap_or((spec, "100"));
    let ticks: usize = ticks.parse().expect("TICK_PROBE=<scene>:<ticks>");
    if let Some(count) = name.strip_prefix("pile") {
        pile(
            count.parse().expect("TICK_PROBE=pile<colliders>:<ticks>"),
            ticks,
        );
        return;
    }
    let mut app = match name {
        "mixed" => world(10_000, Layout::Uniform),
        "mixed_100k" => world(100_000, Layout::Uniform),
        "mixed_responders" => responders_app(),
        "shapes" => world(10_000, Layout::Shapes),
        "bullet_hell" => scene_app(&Scene::bullet_hell(10_000, SCENE_SEED)),
        "bullet_hell_1k" => scene_app(&Scene::bullet_hell(1_000, SCENE_SEED)),
        "bullet_hell_turning" => {
            scene_app(&Scene::bullet_hell(10_000, SCENE_SEED).turning(SCENE_SEED))
        }
        "tilemap" => scene_app(&Scene::tilemap(50_000, 500, SCENE_SEED)),
        "still_walls" => scene_app(&Scene::still_walls(10_000, SCENE_SEED)),
        _ => panic!("no scene {name}"),
    };
    let every = std::env::var("TICK_PROBE_STATS").ok().map(|every| {
        every
            .parse::<usize>()
            .expect("TICK_PROBE_STATS=<every so many ticks>")
    });
    for tick in 0..ticks {
        app.update();
        if let Some(every) = every
            && tick % every.max(1) == 0
        {
            print_stats(tick, app.world().resource::<SweepStats>());
        }
    }
}

/// One line of a tick's [`SweepStats`], for `TICK_PROBE_STATS=<every so many ticks>`: how a
/// scene's work changes over its ticks.
#[expect(
    clippy::print_stderr,
    reason = "the probe reports the ticks' stats for a person or a script to read"
)]
fn print_stats(tick: usize, s: &SweepStats) {
    eprintln!(
        "tick {tick}: {} candidate pairs, {} events, {} answered hits; respond {:?}, \
         broad {:?}, narrow {:?}, report {:?}",
        s.candidate_pairs,
        s.events,
        s.answered_hits,
        s.respond_time,
        s.broad_phase_time,
        s.narrow_phase_time,
        s.report_time
    );
}

/// `count` colliders of every shape piled at one point (every pair touches), and the time of
/// each of their first `ticks` ticks: what a pair in contact costs in time and memory (read
/// the peak memory with `/usr/bin/time -v`).
#[expect(
    clippy::print_stderr,
    reason = "the probe reports the ticks' times for a script to read"
)]
fn pile(count: usize, ticks: usize) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins.set(every_core()), SweepPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.update();
    let v = Vec2::new;
    for i in 0..count {
        let collider = match i % 8 {
            0 => Collider::point(),
            1 => Collider::segment(v(-3.0, 0.0), v(3.0, 1.0)),
            2 => Collider::circle(2.0),
            3 => Collider::aabb(v(2.0, 1.0)),
            4 => Collider::rectangle(v(2.0, 1.0)),
            5 => Collider::capsule(v(-2.0, 0.0), v(2.0, 0.0), 1.0),
            6 => Collider::convex_polygon(&[v(-2.0, -1.0), v(2.0, -1.0), v(0.0, 2.0)])
                .expect("convex"),
            _ => Collider::polyline(&[v(-3.0, 0.0), v(0.0, 1.0), v(3.0, 0.0)])
                .expect("finite points"),
        };
        let angle = i as f32 * 0.001;
        app.world_mut().spawn((
            collider,
            Transform::from_rotation(Quat::from_rotation_z(angle)),
        ));
    }
    for tick in 0..ticks {
        let began = std::time::Instant::now();
        app.update();
        let stats = *app.world().resource::<SweepStats>();
        eprintln!(
            "pile {count}: tick {tick}: {:.3} s, {} candidate pairs, {} touching, {} events",
            began.elapsed().as_secs_f64(),
            stats.candidate_pairs,
            stats.touching_pairs,
            stats.events
        );
    }
}

/// A responder's speed, kept from tick to tick.
#[derive(Component)]
struct Speed(f32);

/// Gives each responder back its own speed after its bounces: a bounce off a solid that
/// moves towards it speeds it up, and without this the scene's responders grow faster
/// tick after tick (and hit more, and cost more), so that a timing would depend on how
/// many ticks it ran.
fn hold_speed(mut responders: Query<(&mut Velocity, &Speed)>) {
    for (mut velocity, speed) in &mut responders {
        velocity.0 = velocity.0.normalize_or_zero() * speed.0;
    }
}

/// The uniform 10,000 with one mover in ten a bouncing responder at a speed it keeps (as a
/// breakout ball does), after five ticks.
fn responders_app() -> App {
    let mut app = world(10_000, Layout::Uniform);
    let movers: Vec<(Entity, f32)> = app
        .world_mut()
        .query::<(Entity, &Velocity)>()
        .iter(app.world())
        .step_by(10)
        .map(|(entity, velocity)| (entity, velocity.0.length()))
        .collect();
    for (mover, speed) in movers {
        app.world_mut()
            .entity_mut(mover)
            .insert((Response::Bounce { restitution: 1.0 }, Speed(speed)));
    }
    app.add_systems(FixedPostUpdate, hold_speed.after(SweepSystems::Report));
    for _ in 0..5 {
        app.update();
    }
    app
}

/// Concave polygons against convex ones of the same size: 400 still U-shapes (8 points, cut
/// into 3 convex pieces) or octagons (8 points, one piece), each 40 units across, on a grid
/// of 100-unit cells, with 2,000 fast points and circles moving through them.
fn polygons(c: &mut Criterion) {
    let mut group = c.benchmark_group("polygons");
    group
        .sample_size(20)
        .warm_up_time(core::time::Duration::from_secs(1))
        .measurement_time(core::time::Duration::from_secs(3));
    for concave in [true, false] {
        let name = if concave { "concave" } else { "convex" };
        let mut app = None;
        group.bench_function(BenchmarkId::new(name, 2_400), |b| {
            let app = app.get_or_insert_with(|| polygon_app(concave));
            b.iter(|| app.update());
        });
        if let Some(app) = &mut app {
            report(name, 2_400, app);
        }
    }
    // The cut itself, of 1,000 and 10,000 points: stars (half of the corners reflex, every
    // edge nearly radial) and terrain outlines (a saw-toothed top over a flat bottom).
    for n in [1_000, 10_000] {
        let star: Vec<Vec2> = (0..n)
            .map(|i| {
                let r = if i % 2 == 0 { 1_000.0 } else { 600.0 };
                Vec2::from_angle(i as f32 / n as f32 * core::f32::consts::TAU) * r
            })
            .collect();
        assert!(Collider::polygon(&star).is_some(), "a simple star");
        group.bench_function(BenchmarkId::new("cut_star", n), |b| {
            b.iter(|| Collider::polygon(core::hint::black_box(&star)));
        });
        // A terrain outline: a saw-toothed top along x over a flat bottom.
        let mut terrain: Vec<Vec2> = (0..n - 2)
            .map(|i| Vec2::new(i as f32 * 4.0, if i % 2 == 0 { 0.0 } else { 30.0 }))
            .collect();
        terrain.extend([
            Vec2::new((n - 3) as f32 * 4.0, -50.0),
            Vec2::new(0.0, -50.0),
        ]);
        terrain.reverse();
        assert!(Collider::polygon(&terrain).is_some(), "a simple outline");
        group.bench_function(BenchmarkId::new("cut_terrain", n), |b| {
            b.iter(|| Collider::polygon(core::hint::black_box(&terrain)));
        });
    }
}

/// The world of [`polygons`].
fn polygon_app(concave: bool) -> App {
    let mut app = scene_app(&Scene::movers(2_000, 1_000.0, SCENE_SEED));
    let cup = [
        (-20.0, -20.0),
        (20.0, -20.0),
        (20.0, 20.0),
        (8.0, 20.0),
        (8.0, -6.0),
        (-8.0, -6.0),
        (-8.0, 20.0),
        (-20.0, 20.0),
    ]
    .map(|(x, y)| Vec2::new(x, y));
    let octagon: Vec<Vec2> = (0..8)
        .map(|i| Vec2::from_angle((i as f32 + 0.5) * core::f32::consts::TAU / 8.0) * 20.0)
        .collect();
    let shape = if concave {
        Collider::polygon(&cup)
    } else {
        Collider::polygon(&octagon)
    }
    .expect("a simple polygon");
    for i in 0..20 {
        for j in 0..20 {
            let at = Vec2::new(-950.0 + 100.0 * i as f32, -950.0 + 100.0 * j as f32);
            app.world_mut().spawn((
                shape.clone(),
                Transform::from_translation(at.extend(0.0)),
                CollisionLayers::new(scenes::TERRAIN, scenes::MOVERS),
            ));
        }
    }
    for _ in 0..5 {
        app.update();
    }
    app
}

/// Runs the groups with criterion's settings from the command line, or one probe
/// (`TICK_PROBE`).
fn benches() {
    if let Ok(spec) = std::env::var("TICK_PROBE") {
        probe(&spec);
        return;
    }
    let mut criterion = Criterion::default().configure_from_args();
    tick(&mut criterion);
    query(&mut criterion);
    tiles(&mut criterion);
    polygons(&mut criterion);
}

criterion_main!(benches);
