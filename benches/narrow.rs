//! The narrow phase on the candidate pairs of the game-shaped scenes, by kind of pair.
//!
//! Each scene of `benches/support/scenes.rs` is moved through one tick of 1/64 s the way the
//! plugin moves it (each segment endpoint is its rotated local offset plus the translation,
//! rounded to `f32` at each end of the tick, so a translating segment is rigid only up to
//! rounding), the pairs whose swept bounds overlap are found with the crate's broad phase, and
//! [`contact_intervals`] is timed over them: all the scene's pairs in the broad phase's order,
//! then each kind of pair alone. Throughput is in pairs, so criterion's `elem/s` is one over
//! the cost per pair.
//!
//! Each kind of pair is also timed through the general solver for rounded convex polygons
//! ([`convex_contact_intervals`]), the shapes written as polygons (`<kind>_as_convex`).
//!
//! The scene `new_shapes` is the bullet hell with every third box a turning rectangle, every
//! third circle a turning capsule and the next a turning hexagon: its rows give the cost
//! per candidate pair of the new shapes beside the old. `bullet_hell_turning` has every box a
//! turning rectangle and every segment a turning capsule (`Scene::turning`).
//!
//! `cargo bench --bench narrow` (`-- bullet_hell/` for one scene).

use bevy::math::{Quat, Vec2, Vec3};
use bevy_sweep::broad::BroadPhase;
use bevy_sweep::narrow::{
    ConvexShape, ConvexVertices, Shape, ShapePath, contact_intervals, convex_contact_intervals,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use std::hint::black_box;

#[path = "support/scenes.rs"]
mod scenes;

use scenes::{Kind, Scene, Spec};

/// The fixed tick.
const TICK: f32 = 1.0 / 64.0;
/// The seed of the game-shaped scenes (the tick bench and the avian2d comparison use it too).
const SCENE_SEED: u64 = 0x5eed_a1a2;

/// A collider's motion through its first tick, as the plugin sweeps it.
fn path(spec: &Spec) -> ShapePath {
    let start = spec.position.extend(0.0);
    let end = start + (spec.velocity * TICK).extend(0.0);
    let turn = |time: f32| Quat::from_rotation_z(spec.angle + spec.angular_velocity * time);
    // World = rotation · local + translation, in `f32`, like the plugin's transform.
    let world = |local: Vec2, time: f32, at: Vec3| (turn(time) * local.extend(0.0) + at).truncate();
    match spec.kind {
        Kind::Point => ShapePath::Point([start.truncate(), end.truncate()]),
        Kind::Segment { half_length } => {
            let (a, b) = (Vec2::new(-half_length, 0.0), Vec2::new(half_length, 0.0));
            ShapePath::Segment {
                a: [world(a, 0.0, start), world(a, TICK, end)],
                b: [world(b, 0.0, start), world(b, TICK, end)],
            }
        }
        Kind::Circle { radius } => ShapePath::Circle {
            center: [start.truncate(), end.truncate()],
            radius,
        },
        Kind::Box { half_extents } => ShapePath::Aabb {
            center: [start.truncate(), end.truncate()],
            half_extents,
        },
        Kind::Rectangle { half_extents: h } => convex_path(
            spec,
            &[(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .map(|(x, y)| Vec2::new(x * h.x, y * h.y)),
            0.0,
        ),
        Kind::Capsule {
            half_length,
            radius,
        } => convex_path(
            spec,
            &[Vec2::new(-half_length, 0.0), Vec2::new(half_length, 0.0)],
            radius,
        ),
    }
}

/// A rounded polygon's motion through its first tick, turning as its spec says.
fn convex_path(spec: &Spec, local: &[Vec2], radius: f32) -> ShapePath {
    let start = spec.position.extend(0.0);
    let end = start + (spec.velocity * TICK).extend(0.0);
    let turn = |time: f32| Quat::from_rotation_z(spec.angle + spec.angular_velocity * time);
    let pose = |time: f32, at: Vec3| {
        let placed: Vec<Vec2> = local
            .iter()
            .map(|&v| (turn(time) * v.extend(0.0) + at).truncate())
            .collect();
        Shape::Convex(ConvexShape::new(&placed, radius).expect("1 to 8 vertices"))
    };
    ShapePath::between(pose(0.0, start), pose(TICK, end)).expect("same shape")
}

/// The new shapes in a scene: every third box a turning rectangle, every third circle a
/// turning capsule and the next a turning hexagon, at the same places and speeds; the other
/// colliders as they are.
fn with_new_shapes(i: usize, spec: &Spec) -> ShapePath {
    let start = spec.position.extend(0.0);
    let end = start + (spec.velocity * TICK).extend(0.0);
    let spin = if spec.angular_velocity == 0.0 {
        3.0
    } else {
        spec.angular_velocity
    };
    let turn = |time: f32| Quat::from_rotation_z(spec.angle + spin * time);
    let world = |local: Vec2, time: f32, at: Vec3| (turn(time) * local.extend(0.0) + at).truncate();
    let convex = |local: &[Vec2], radius: f32| {
        let pose = |time: f32, at: Vec3| {
            let placed: Vec<Vec2> = local.iter().map(|&v| world(v, time, at)).collect();
            Shape::Convex(ConvexShape::new(&placed, radius).expect("1 to 8 vertices"))
        };
        ShapePath::between(pose(0.0, start), pose(TICK, end)).expect("same shape")
    };
    match (spec.kind, i % 3) {
        (Kind::Box { half_extents: h }, 0) => convex(
            &[(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .map(|(x, y)| Vec2::new(x * h.x, y * h.y)),
            0.0,
        ),
        (Kind::Circle { radius }, 0) => convex(
            &[Vec2::new(-radius, 0.0), Vec2::new(radius, 0.0)],
            radius / 2.0,
        ),
        (Kind::Circle { radius }, 1) => {
            let hexagon: Vec<Vec2> = (0..6)
                .map(|k| Vec2::from_angle(k as f32 * core::f32::consts::FRAC_PI_3) * radius)
                .collect();
            convex(&hexagon, 0.0)
        }
        _ => path(spec),
    }
}

fn kind_name(path: &ShapePath) -> (u8, &'static str) {
    match path {
        ShapePath::Point(_) => (0, "point"),
        ShapePath::Segment { .. } => (1, "segment"),
        ShapePath::Circle { .. } => (2, "circle"),
        ShapePath::Aabb { .. } => (3, "box"),
        ShapePath::Convex(c) => match c.path().vertices.len() {
            2 => (4, "capsule"),
            4 => (5, "rectangle"),
            _ => (6, "polygon"),
        },
    }
}

/// The scene's candidate pairs (layers respected), in the broad phase's order, with each
/// collider's path made by `path`.
fn candidate_pairs(
    scene: &Scene,
    path: impl Fn(usize, &Spec) -> ShapePath,
) -> Vec<(ShapePath, ShapePath)> {
    let paths: Vec<ShapePath> = scene
        .specs
        .iter()
        .enumerate()
        .map(|(i, s)| path(i, s))
        .collect();
    let bounds: Vec<_> = paths.iter().map(ShapePath::swept_bounds).collect();
    let interacts = |i: u32, j: u32| {
        let layers = |k: u32| {
            scene.specs[k as usize]
                .layers
                .unwrap_or((u32::MAX, u32::MAX))
        };
        let ((ma, fa), (mb, fb)) = (layers(i), layers(j));
        ma & fb != 0 && mb & fa != 0
    };
    let mut pairs = Vec::new();
    BroadPhase::new().find_pairs(&bounds, interacts, &mut pairs);
    pairs
        .into_iter()
        .map(|(i, j)| (paths[i as usize], paths[j as usize]))
        .collect()
}

fn narrow(c: &mut Criterion) {
    let mut shapes = Scene::bullet_hell(10_000, SCENE_SEED);
    shapes.name = "new_shapes";
    let turning = Scene::bullet_hell(10_000, SCENE_SEED).turning(SCENE_SEED);
    for scene in [
        Scene::bullet_hell(10_000, SCENE_SEED),
        Scene::still_walls(10_000, SCENE_SEED),
        Scene::mixed(10_000, SCENE_SEED),
        shapes,
        turning,
    ] {
        let pairs = if scene.name == "new_shapes" {
            candidate_pairs(&scene, with_new_shapes)
        } else {
            candidate_pairs(&scene, |_, spec| path(spec))
        };
        let mut group = c.benchmark_group(format!("narrow/{}", scene.name));
        group
            .sample_size(20)
            .warm_up_time(core::time::Duration::from_millis(500))
            .measurement_time(core::time::Duration::from_secs(2));
        group.throughput(Throughput::Elements(pairs.len() as u64));
        group.bench_function("all", |b| {
            b.iter(|| {
                for (a, p) in &pairs {
                    black_box(contact_intervals(black_box(a), black_box(p)));
                }
            });
        });
        // Each kind of pair alone, smaller kind first.
        let mut kinds: Vec<((u8, u8), String, Vec<(ShapePath, ShapePath)>)> = Vec::new();
        for &(a, b) in &pairs {
            let ((ra, na), (rb, nb)) = (kind_name(&a), kind_name(&b));
            let key = (ra.min(rb), ra.max(rb));
            let name = if ra <= rb {
                format!("{na}_{nb}")
            } else {
                format!("{nb}_{na}")
            };
            match kinds.iter_mut().find(|k| k.0 == key) {
                Some(k) => k.2.push((a, b)),
                None => kinds.push((key, name, vec![(a, b)])),
            }
        }
        kinds.sort_by_key(|k| k.0);
        for (_, name, pairs) in &kinds {
            group.throughput(Throughput::Elements(pairs.len() as u64));
            group.bench_function(BenchmarkId::new(name, pairs.len()), |b| {
                b.iter(|| {
                    for (a, p) in pairs {
                        black_box(contact_intervals(black_box(a), black_box(p)));
                    }
                });
            });
            // The same pairs through the general solver, as rounded convex polygons: what a
            // pair of the new shapes costs, and what the basic shapes' own solvers save.
            let convex: Vec<_> = pairs
                .iter()
                .map(|(a, p)| (ConvexVertices::from(a), ConvexVertices::from(p)))
                .collect();
            group.bench_function(
                BenchmarkId::new(format!("{name}_as_convex"), pairs.len()),
                |b| {
                    b.iter(|| {
                        for (a, p) in &convex {
                            black_box(convex_contact_intervals(
                                black_box(&a.path()),
                                black_box(&p.path()),
                            ));
                        }
                    });
                },
            );
        }
        group.finish();
    }
}

/// Runs the groups with criterion's settings from the command line.
fn benches() {
    let mut criterion = Criterion::default().configure_from_args();
    narrow(&mut criterion);
}

criterion_main!(benches);
