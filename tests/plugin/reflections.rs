//! Exact reflections: `Bounce { restitution: 1.0 }` off a surface whose normal is exact (an
//! axis-aligned face, a segment along an axis) gives exactly the mirrored velocity; off a
//! turned surface the speed changes by rounding alone, with no drift, over thousands of
//! bounces.

use crate::common::*;
use bevy::prelude::*;
use bevy_sweep::prelude::*;

/// Every shape a ball can have (a polyline cannot answer), about 2 units across.
fn balls() -> Vec<Collider> {
    vec![
        Collider::circle(2.0),
        Collider::point(),
        Collider::aabb(v(2.0, 1.5)),
        Collider::rectangle(v(2.0, 1.5)),
        Collider::capsule(v(-1.0, 0.0), v(1.0, 0.0), 1.0),
        Collider::convex_polygon(&[v(-2.0, -1.0), v(1.5, -2.0), v(2.0, 1.0), v(-1.0, 2.0)])
            .unwrap(),
        Collider::segment(v(-2.0, -1.0), v(2.0, 1.0)),
    ]
}

/// The four walls of a box of half size `h` turned by `angle`, as `kind`: segments, boxes
/// or polylines, each reaching past the corners (so that a ball in a corner meets two faces,
/// not an end).
fn spawn_walls(app: &mut App, h: f32, angle: f32, kind: &str) {
    let turn = Transform::from_rotation(Quat::from_rotation_z(angle));
    for n in [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y] {
        let (face, along) = (n * h, n.perp() * (h + 50.0));
        let (collider, at) = match kind {
            "segments" => (Collider::segment(face - along, face + along), Vec2::ZERO),
            "boxes" => {
                let out = n * 5.0;
                let half = (along + out).abs();
                let collider = if angle == 0.0 {
                    Collider::aabb(half)
                } else {
                    Collider::rectangle(v(
                        if face.x != 0.0 { 5.0 } else { h + 50.0 },
                        if face.x != 0.0 { h + 50.0 } else { 5.0 },
                    ))
                };
                (collider, face + out)
            }
            _ => (
                Collider::polyline(&[face - along, face, face + along]).unwrap(),
                Vec2::ZERO,
            ),
        };
        let at = turn.transform_point(at.extend(0.0));
        let rotation = if kind == "boxes" && angle == 0.0 {
            Quat::IDENTITY
        } else {
            turn.rotation
        };
        app.world_mut().spawn((
            collider,
            Transform::from_translation(at).with_rotation(rotation),
        ));
    }
}

/// In an axis-aligned box, each velocity after each tick is the first one mirrored on each
/// axis, bit for bit, for every ball shape and every kind of wall, over hundreds of bounces.
#[test]
fn an_elastic_ball_in_an_axis_aligned_box_keeps_its_speed_exactly() {
    let start = v(23_456.0, 17_891.0);
    for kind in ["segments", "boxes", "polylines"] {
        for ball in balls() {
            let mut app = app();
            spawn_walls(&mut app, 500.0, 0.0, kind);
            let e = app
                .world_mut()
                .spawn((
                    ball.clone(),
                    Transform::from_xyz(13.0, -7.0, 0.0),
                    Velocity(start),
                    Response::Bounce { restitution: 1.0 },
                ))
                .id();
            let mut bounces = 0;
            let mut last = start;
            for k in 0..160 {
                tick(&mut app);
                let vel = app.world().get::<Velocity>(e).unwrap().0;
                assert_eq!(vel.abs(), start.abs(), "{kind}, {ball:?}: tick {k}");
                bounces += usize::from(vel.x != last.x) + usize::from(vel.y != last.y);
                last = vel;
                let at = app.world().get::<Transform>(e).unwrap().translation;
                assert!(
                    at.x.abs() <= 500.0 && at.y.abs() <= 500.0,
                    "{kind}, {ball:?}: out at {at}"
                );
            }
            assert!(bounces > 100, "{kind}, {ball:?}: {bounces} bounces");
        }
    }
}

/// In a box turned by 0.3 radians (normals that are not exact), a ball's speed changes by a
/// few ulps a bounce at most, and does not drift one way over thousands of bounces.
#[test]
fn an_elastic_ball_in_a_turned_box_keeps_its_speed_to_rounding() {
    let start = v(23_456.0, 17_891.0);
    let speed = start.length();
    let ulp = f32::EPSILON * speed;
    for kind in ["segments", "boxes", "polylines"] {
        let mut app = app();
        spawn_walls(&mut app, 150.0, 0.3, kind);
        let e = app
            .world_mut()
            .spawn((
                Collider::circle(2.0),
                Velocity(start),
                Response::Bounce { restitution: 1.0 },
            ))
            .id();
        let (mut bounces, mut last) = (0usize, start);
        for k in 0..640 {
            let answered = tick(&mut app)
                .iter()
                .filter(|e| e.kind == CollisionKind::Crossed)
                .count();
            let vel = app.world().get::<Velocity>(e).unwrap().0;
            let change = (vel.length() - last.length()).abs();
            assert!(
                change <= 4.0 * ulp * answered.max(1) as f32,
                "{kind}: tick {k}, {answered} bounces changed the speed by {change}"
            );
            bounces += answered;
            last = vel;
        }
        assert!(bounces > 1_000, "{kind}: {bounces} bounces");
        // A random walk of about an ulp a bounce: far below one ulp per bounce of drift.
        let drift = (last.length() - speed).abs();
        assert!(
            drift <= 4.0 * ulp * (bounces as f32).sqrt(),
            "{kind}: the speed drifted by {drift} over {bounces} bounces"
        );
    }
}
