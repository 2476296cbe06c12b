//! The shapes beyond the first four in the plugin: turning rectangles, capsules, convex
//! polygons and polylines, against each other and the basic shapes. Random worlds are held
//! to the exact oracle pair by pair and tick by tick (a polyline's edges merged per pair of
//! colliders), bullets at 10⁶ units/s against each new shape are checked for time and
//! place, and events name the feature touched.

use super::rules::{exact_union, expected_events};
use crate::common::*;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_sweep::narrow::ShapePath;
use bevy_sweep::prelude::*;
use core::f32::consts::PI;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A regular polygon of `n` vertices and circumradius `r`, turned by `phase`.
fn regular(n: usize, r: f32, phase: f32) -> Vec<Vec2> {
    (0..n)
        .map(|k| Vec2::from_angle(phase + k as f32 * 2.0 * PI / n as f32) * r)
        .collect()
}

/// Any collider: the four basic shapes and the four new ones. Axis-aligned boxes have
/// half extents and positions on a grid of 1/8 so that their corners, which the general
/// solver reads rounded to `f32`, are exact at the start.
fn random_collider(rng: &mut ChaCha8Rng) -> Collider {
    let size = |rng: &mut ChaCha8Rng| rng.random_range(0.3..2.5);
    match rng.random_range(0..9) {
        0 => Collider::point(),
        1 => Collider::segment(
            Vec2::new(rng.random_range(-3.0..0.0), rng.random_range(-3.0..3.0)),
            Vec2::new(rng.random_range(0.0..3.0), rng.random_range(-3.0..3.0)),
        ),
        2 => Collider::circle(size(rng)),
        3 => Collider::aabb(Vec2::new(
            rng.random_range(2..16) as f32 / 8.0,
            rng.random_range(2..16) as f32 / 8.0,
        )),
        4 | 5 => Collider::rectangle(Vec2::new(size(rng), size(rng))),
        6 => Collider::capsule(
            Vec2::new(-size(rng), 0.0),
            Vec2::new(size(rng), rng.random_range(-1.0..1.0)),
            size(rng) / 2.0,
        ),
        7 => {
            let n = rng.random_range(3..=8);
            let mut vertices = regular(n, size(rng) + 0.5, rng.random_range(0.0..PI));
            if rng.random_bool(0.5) {
                vertices.reverse();
            }
            Collider::convex_polygon(&vertices).expect("a regular polygon is convex")
        }
        _ => {
            let n = rng.random_range(2..12);
            let points: Vec<Vec2> = (0..n)
                .map(|k| Vec2::new(k as f32 * 1.5 - 6.0, rng.random_range(-2.0..2.0)))
                .collect();
            Collider::polyline(&points).expect("finite points")
        }
    }
}

/// A collider's motion in the last tick: its path, or a polyline's edges' paths.
fn paths_of(app: &App, entity: Entity) -> Vec<ShapePath> {
    let world = app.world();
    let swept = world.get::<SweptPath>(entity).expect("swept");
    let collider = world.get::<Collider>(entity).expect("collider");
    swept.paths(collider).collect()
}

#[test]
fn random_worlds_with_every_shape_match_the_exact_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0017);
    let (mut compared, mut events_seen) = (0usize, 0usize);
    let mut kinds_met: HashMap<(u8, u8), usize> = HashMap::default();
    let kind = |c: &Collider| match c {
        Collider::Point => 0,
        Collider::Segment { .. } => 1,
        Collider::Circle { .. } => 2,
        Collider::Aabb { .. } => 3,
        Collider::Rectangle { .. } => 4,
        Collider::Capsule { .. } => 5,
        Collider::ConvexPolygon { .. } => 6,
        Collider::Polyline { .. } => 7,
        // Not generated here (tests/plugin/polygons.rs has them).
        Collider::Polygon { .. } => 8,
        Collider::Compound { .. } => 9,
    };
    for world in 0..60 {
        let mut app = app();
        let count = rng.random_range(4..=9);
        let entities: Vec<Entity> = (0..count)
            .map(|_| {
                let collider = random_collider(&mut rng);
                let aabb = matches!(collider, Collider::Aabb { .. });
                let grid = |rng: &mut ChaCha8Rng| rng.random_range(-48..48) as f32 / 8.0;
                let position = Vec2::new(grid(&mut rng), grid(&mut rng));
                let velocity = Vec2::new(
                    rng.random_range(-300.0..300.0),
                    rng.random_range(-300.0..300.0),
                );
                let mut entity = app.world_mut().spawn((
                    collider,
                    Transform::from_translation(position.extend(0.0)),
                    Velocity(velocity),
                ));
                if !aabb && rng.random_bool(0.6) {
                    entity.insert(AngularVelocity(rng.random_range(-30.0..30.0)));
                }
                entity.id()
            })
            .collect();
        let mut state: HashMap<(Entity, Entity), (bool, bool)> = HashMap::default();
        for tick_number in 0..4 {
            let events = tick(&mut app);
            assert_well_formed(&events);
            events_seen += events.len();
            let paths: Vec<(Entity, Vec<ShapePath>, u8)> = entities
                .iter()
                .map(|&e| {
                    let k = kind(app.world().get::<Collider>(e).expect("collider"));
                    (e, paths_of(&app, e), k)
                })
                .collect();
            for (i, (ea, pa, ka)) in paths.iter().enumerate() {
                for (eb, pb, kb) in &paths[i + 1..] {
                    let key = ((*ea).min(*eb), (*ea).max(*eb));
                    let (touching, crossed) = state.entry(key).or_default();
                    let exact = exact_union(pa, pb);
                    let expected = expected_events(&exact, touching, crossed);
                    let got: Vec<&CollisionEvent> = events
                        .iter()
                        .filter(|e| (e.entity.min(e.other), e.entity.max(e.other)) == key)
                        .collect();
                    let context = || {
                        format!(
                            "world {world} tick {tick_number}: {ea:?} {pa:?}\n vs {eb:?} {pb:?}\n exact {exact:?}\n expected {expected:?}\n got {got:?}"
                        )
                    };
                    assert_eq!(got.len(), expected.len(), "{}", context());
                    for (g, x) in got.iter().zip(&expected) {
                        assert_eq!(g.kind, x.0, "{}", context());
                        assert!(
                            (f64::from(g.time_of_impact) - x.1).abs() < 1e-5,
                            "{}",
                            context()
                        );
                    }
                    if !exact.is_empty() {
                        *kinds_met
                            .entry(((*ka).min(*kb), (*ka).max(*kb)))
                            .or_default() += 1;
                    }
                    compared += 1;
                }
            }
            // Every event names the feature of a polygon or polyline side, and only there.
            for e in &events {
                for (entity, feature) in [(e.entity, e.feature), (e.other, e.other_feature)] {
                    let collider = app.world().get::<Collider>(entity).expect("collider");
                    let (polygonal, count) = match collider {
                        Collider::Rectangle { .. } => (true, 4),
                        Collider::ConvexPolygon { vertices } => (true, vertices.len() as u32),
                        Collider::Polyline { points } => (true, points.len() as u32),
                        _ => (false, 0),
                    };
                    assert_eq!(feature.is_some(), polygonal, "{e:?}");
                    match feature {
                        Some(Feature::Vertex(i)) => assert!(i < count, "{e:?}"),
                        Some(Feature::Edge { index, along }) => {
                            assert!(index < count && (0.0..=1.0).contains(&along), "{e:?}");
                        }
                        Some(Feature::Part { .. }) => panic!("no compound here: {e:?}"),
                        None => {}
                    }
                }
            }
        }
    }
    assert!(compared > 2000, "{compared} pair-ticks compared");
    assert!(events_seen > 300, "busy worlds: {events_seen} events");
    // Every new shape met every shape in contact somewhere.
    for a in 0..8u8 {
        for b in a.max(4)..8u8 {
            assert!(
                kinds_met.get(&(a, b)).copied().unwrap_or(0) > 0,
                "no contact between kinds {a} and {b}: {kinds_met:?}"
            );
        }
    }
}

/// A point bullet at 10⁶ units/s crosses a target that turns fast on the spot: the plugin
/// reports the contact, at the time and place the exact oracle gives for the same paths.
#[test]
fn a_bullet_at_a_million_units_per_second_never_passes_a_turning_shape_unseen() {
    let targets = [
        ("rectangle", Collider::rectangle(Vec2::new(3.0, 0.5))),
        (
            "capsule",
            Collider::capsule(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0), 0.25),
        ),
        (
            "hexagon",
            Collider::convex_polygon(&regular(6, 2.0, 0.3)).expect("convex"),
        ),
        (
            "polyline",
            Collider::polyline(&[
                Vec2::new(-3.0, -1.0),
                Vec2::new(-1.0, 1.0),
                Vec2::new(1.0, -1.0),
                Vec2::new(3.0, 1.0),
            ])
            .expect("finite"),
        ),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(0xb011e7);
    for (name, target) in targets {
        for shot in 0..40 {
            let mut app = app();
            let dt = 1.0 / 64.0;
            // Crosses the target's place in mid-flight, at a random height and angle.
            let y = rng.random_range(-0.9..0.9);
            let angle = rng.random_range(-0.4..0.4_f32);
            let direction = Vec2::from_angle(angle);
            let speed = 1.0e6;
            let start = Vec2::new(0.0, y) - direction * speed * dt * rng.random_range(0.2..0.8);
            let turn = rng.random_range(-60.0..60.0);
            let bullet = app
                .world_mut()
                .spawn((
                    Collider::point(),
                    Transform::from_translation(start.extend(0.0)),
                    Velocity(direction * speed),
                ))
                .id();
            let wall = app
                .world_mut()
                .spawn((
                    target.clone(),
                    Transform::from_rotation(Quat::from_rotation_z(rng.random_range(0.0..PI))),
                    AngularVelocity(turn),
                ))
                .id();
            let events = tick(&mut app);
            let exact = exact_union(&paths_of(&app, bullet), &paths_of(&app, wall));
            let what = format!("{name} shot {shot}: exact {exact:?}, events {events:?}");
            let Some(&[first, _]) = exact.first() else {
                // Missed by the geometry itself (a corner turned out of the way).
                assert!(events.is_empty(), "{what}");
                continue;
            };
            let hit = events
                .iter()
                .map(|e| seen_from(e, bullet))
                .find(|e| e.kind != CollisionKind::Ended)
                .unwrap_or_else(|| panic!("unseen: {what}"));
            assert_close(hit.time_of_impact, first as f32, 1e-6, &what);
            // The place: where the bullet is at that moment (its path is a line).
            let ShapePath::Point([p, q]) = paths_of(&app, bullet)[0] else {
                panic!("a point's path");
            };
            let at = p.lerp(q, first as f32);
            // 1e-6 of the tick is 16 units of travel at this speed; a millionth of the path
            // plus a few ulps of it is the tolerance on the place.
            let tolerance = speed * dt * 2e-6 + 1e-3;
            assert_vec_close(hit.point, at, tolerance, &what);
            if name == "polyline" {
                assert!(
                    matches!(
                        hit.other_feature,
                        Some(Feature::Edge { index: 0..3, .. } | Feature::Vertex(0..4))
                    ),
                    "{what}"
                );
            }
        }
    }
}

/// A point entering a convex shape of positive area gives `Started` then `Ended`; through a
/// polyline's edge, `Crossed`; a polyline's edges meeting at a vertex are one contact.
#[test]
fn points_enter_areas_and_cross_polylines() {
    let mut app = app();
    let dt = 1.0 / 64.0;
    // A point moving right by 16 units per tick through a square rectangle (x in [4, 8])
    // and a vertical polyline at x = 12 with a kink.
    let point = app
        .world_mut()
        .spawn((
            Collider::point(),
            Transform::from_xyz(0.0, 0.0, 0.0),
            Velocity(Vec2::new(16.0 / dt, 0.0)),
        ))
        .id();
    let square = app
        .world_mut()
        .spawn((
            Collider::rectangle(Vec2::splat(2.0)),
            Transform::from_xyz(6.0, 0.0, 0.0),
        ))
        .id();
    let line = app
        .world_mut()
        .spawn((
            Collider::polyline(&[
                Vec2::new(12.0, -5.0),
                Vec2::new(12.0, 0.0),
                Vec2::new(13.0, 5.0),
            ])
            .expect("finite"),
            Transform::IDENTITY,
        ))
        .id();
    let events: Vec<CollisionEvent> = tick(&mut app).iter().map(|e| seen_from(e, point)).collect();
    let with = |other: Entity| -> Vec<(CollisionKind, f32)> {
        events
            .iter()
            .filter(|e| e.other == other)
            .map(|e| (e.kind, e.time_of_impact))
            .collect()
    };
    assert_eq!(
        with(square),
        [(CollisionKind::Started, 0.25), (CollisionKind::Ended, 0.5)],
        "{events:?}"
    );
    // Through the vertex shared by edges 0 and 1: one instant contact, not two.
    assert_eq!(with(line), [(CollisionKind::Crossed, 0.75)], "{events:?}");
    let crossing = events.iter().find(|e| e.other == line).expect("crossed");
    assert_eq!(
        crossing.other_feature,
        Some(Feature::Vertex(1)),
        "{crossing:?}"
    );
    let entering = events.iter().find(|e| e.other == square).expect("entered");
    // The square's left side, edge 3 (local corners counter-clockwise from (-x, -y)).
    assert!(
        matches!(entering.other_feature, Some(Feature::Edge { index: 3, along }) if (along - 0.5).abs() < 1e-6),
        "{entering:?}"
    );
    assert_vec_close(entering.normal, Vec2::NEG_X, 1e-6, "normal from the square");
    assert_vec_close(
        entering.point,
        Vec2::new(4.0, 0.0),
        1e-5,
        "point on the side",
    );
}

/// A sprite flip (the rectangle's `scale.x` from 1 to -1) mirrors its vertices: the plugin
/// takes it as a jump, not as a motion through a flat line, so a circle resting on its top
/// keeps its contact; an edited polygon starts afresh where it stands.
#[test]
fn a_mirrored_rectangle_keeps_its_contacts() {
    let mut app = app();
    let plank = app
        .world_mut()
        .spawn((
            Collider::rectangle(Vec2::new(4.0, 1.0)),
            Transform::IDENTITY,
        ))
        .id();
    let ball = app
        .world_mut()
        .spawn((Collider::circle(1.0), Transform::from_xyz(1.0, 1.5, 0.0)))
        .id();
    let started = tick(&mut app);
    assert_eq!(started.len(), 1, "{started:?}");
    assert_eq!(started[0].kind, CollisionKind::Started);
    for _ in 0..3 {
        assert!(tick(&mut app).is_empty());
    }
    app.world_mut()
        .get_mut::<Transform>(plank)
        .expect("transform")
        .scale
        .x = -1.0;
    for k in 0..3 {
        let events = tick(&mut app);
        assert!(events.is_empty(), "tick {k} after the flip: {events:?}");
    }
    assert!(app.world().resource::<Contacts>().contains(plank, ball));
    // The same plank edited into a narrower one, which no longer reaches the ball's centre
    // column but still touches it: no event; then one the ball does not touch: Ended.
    *app.world_mut()
        .get_mut::<Collider>(plank)
        .expect("collider") = Collider::convex_polygon(&[
        Vec2::new(-4.0, -1.0),
        Vec2::new(0.5, -1.0),
        Vec2::new(0.5, 1.0),
        Vec2::new(-4.0, 1.0),
    ])
    .expect("convex");
    let events = tick(&mut app);
    assert!(events.is_empty(), "{events:?}");
    *app.world_mut()
        .get_mut::<Collider>(plank)
        .expect("collider") = Collider::rectangle(Vec2::new(4.0, 0.25));
    let events = tick(&mut app);
    assert_eq!(
        events.iter().map(|e| e.kind).collect::<Vec<_>>(),
        [CollisionKind::Ended],
        "{events:?}"
    );
}
