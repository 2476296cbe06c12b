//! No ghost collisions: a shape moving along a surface made of separate colliders that meet
//! edge to edge (tiles, boxes of different sizes with level tops, polylines joined end to
//! end, walls of stacked tiles, the pieces of one concave polygon, the parts of one
//! compound) keeps its speed across every seam, for every shape, for
//! responders, characters and move-and-slide; each tile touched is still reported.

use crate::common::*;
use bevy::math::Isometry2d;
use bevy::prelude::*;
use bevy_sweep::prelude::*;

/// Gravity, and a push to the right at 300 units/s, on every mover, before the sweep.
fn push_right(mut movers: Query<&mut Velocity, Without<Pushed>>) {
    for mut v in &mut movers {
        v.0.y -= 900.0 * TICK;
        v.0.x = 300.0;
    }
}

/// Pressed left into a wall at 100 units/s, and falling.
fn press_left(mut movers: Query<&mut Velocity, With<Pushed>>) {
    for mut v in &mut movers {
        v.0.y -= 900.0 * TICK;
        v.0.x = -100.0;
    }
}

#[derive(Component)]
struct Pushed;

/// Every shape a mover can have, its bottom 6 below its origin (a polyline cannot answer).
fn movers() -> Vec<Collider> {
    vec![
        Collider::aabb(v(6.0, 6.0)),
        Collider::rectangle(v(6.0, 6.0)),
        Collider::convex_polygon(&[v(-6.0, -6.0), v(6.0, -6.0), v(6.0, 6.0), v(-7.0, 0.0)])
            .unwrap(),
        Collider::segment(v(-6.0, -6.0), v(6.0, -6.0)),
        Collider::point(),
        Collider::circle(6.0),
        Collider::capsule(v(-3.0, 0.0), v(3.0, 0.0), 6.0),
    ]
}

/// The bottom of each mover's shape below its origin.
fn bottom(shape: &Collider) -> f32 {
    if matches!(shape, Collider::Point) {
        0.0
    } else {
        6.0
    }
}

/// Floors with their tops at `y = 0`, from x = -40 on: tiles of 16 (boxes, oriented boxes,
/// segments), boxes of different widths, and polylines joined end to end.
fn floors() -> Vec<(&'static str, Vec<(Collider, Vec2)>)> {
    let tiles = |collider: Collider, half: f32| -> Vec<(Collider, Vec2)> {
        (0..60)
            .map(|i| (collider.clone(), v(-40.0 + 16.0 * i as f32, -half)))
            .collect()
    };
    let mut uneven = Vec::new();
    let mut x = -48.0;
    for (k, width) in [16.0_f32, 7.0, 33.0, 1.0, 12.5, 3.0]
        .iter()
        .cycle()
        .take(90)
        .enumerate()
    {
        let depth = 2.0 + (k % 4) as f32 * 3.0;
        uneven.push((
            Collider::aabb(v(width / 2.0, depth / 2.0)),
            v(x + width / 2.0, -depth / 2.0),
        ));
        x += width;
    }
    let lines = (0..60)
        .map(|i| {
            let x = -48.0 + 16.0 * i as f32;
            (
                Collider::polyline(&[v(x, 0.0), v(x + 8.0, 0.0), v(x + 16.0, 0.0)]).unwrap(),
                Vec2::ZERO,
            )
        })
        .collect();
    // One polygon whose top is flat, with a point every 16 units, and whose bottom is a
    // saw: its pieces' diagonals end on the top, between seams of its own.
    let mut outline: Vec<Vec2> = (0..=60)
        .map(|i| {
            v(
                -48.0 + 16.0 * i as f32,
                if i % 2 == 0 { -12.0 } else { -3.0 },
            )
        })
        .collect();
    outline.extend((0..=60).rev().map(|i| v(-48.0 + 16.0 * i as f32, 0.0)));
    let polygon = vec![(Collider::polygon(&outline).unwrap(), Vec2::ZERO)];
    // One compound of tiles side by side.
    let parts: Vec<(Isometry2d, Collider)> = (0..60)
        .map(|i| {
            (
                Isometry2d::from_xy(-40.0 + 16.0 * i as f32, -8.0),
                Collider::rectangle(v(8.0, 8.0)),
            )
        })
        .collect();
    let compound = vec![(Collider::compound(&parts).unwrap(), Vec2::ZERO)];
    vec![
        ("boxes", tiles(Collider::aabb(v(8.0, 8.0)), 8.0)),
        ("a polygon", polygon),
        ("a compound", compound),
        (
            "oriented boxes",
            tiles(Collider::rectangle(v(8.0, 8.0)), 8.0),
        ),
        (
            "segments",
            tiles(Collider::segment(v(-8.0, 0.0), v(8.0, 0.0)), 0.0),
        ),
        ("uneven boxes", uneven),
        ("polylines", lines),
    ]
}

fn spawn_floor(app: &mut App, floor: &[(Collider, Vec2)]) -> Vec<Entity> {
    floor
        .iter()
        .map(|(c, at)| {
            app.world_mut()
                .spawn((c.clone(), Transform::from_translation(at.extend(0.0))))
                .id()
        })
        .collect()
}

/// A responder sliding along each floor keeps its speed over every seam: its velocity is
/// 300 units/s to the right after every tick, and it moves 300 / 64 units each tick.
#[test]
fn a_sliding_responder_keeps_its_speed_over_every_seam() {
    for (name, floor) in floors() {
        for shape in movers() {
            let mut app = app();
            app.add_systems(FixedUpdate, push_right);
            let tiles = spawn_floor(&mut app, &floor);
            let mover = app
                .world_mut()
                .spawn((
                    shape.clone(),
                    Transform::from_xyz(0.0, bottom(&shape), 0.0),
                    Velocity(v(300.0, 0.0)),
                    Response::Slide,
                ))
                .id();
            let mut touched = std::collections::HashSet::new();
            let mut last = 0.0;
            for k in 0..120 {
                for e in tick(&mut app) {
                    if e.kind == CollisionKind::Started
                        && let Some(seen) = e.seen_from(mover)
                    {
                        touched.insert(seen.other);
                    }
                }
                let t = app.world().get::<Transform>(mover).unwrap().translation;
                let vel = app.world().get::<Velocity>(mover).unwrap().0;
                assert_eq!(
                    vel.x, 300.0,
                    "{name}, {shape:?}: tick {k} at {t}, velocity {vel}"
                );
                assert_close(
                    t.x - last,
                    300.0 * TICK,
                    1e-3,
                    &format!("{name}, {shape:?}: tick {k}"),
                );
                assert!(
                    (t.y - bottom(&shape)).abs() < 1e-3,
                    "{name}, {shape:?}: tick {k} at height {}",
                    t.y
                );
                last = t.x;
            }
            // About 560 units along: every tile under that stretch was touched.
            let crossed = tiles
                .iter()
                .zip(&floor)
                .filter(|(_, (_, at))| at.x > 8.0 && at.x < 540.0)
                .count();
            assert!(
                touched.len() >= crossed,
                "{name}, {shape:?}: {} tiles reported, {crossed} crossed",
                touched.len()
            );
        }
    }
}

/// A box pressed into a wall of stacked tiles while it falls slides down it at the speed
/// gravity gives, past every seam.
#[test]
fn a_box_pressed_into_a_wall_of_stacked_tiles_falls_freely() {
    for shape in [
        Collider::aabb(v(6.0, 6.0)),
        Collider::rectangle(v(6.0, 6.0)),
        Collider::segment(v(-6.0, -6.0), v(-6.0, 6.0)),
    ] {
        let mut app = app();
        app.add_systems(FixedUpdate, press_left);
        // The wall's face at x = 0, tiles of 16 stacked from y = -2000 to 16.
        for i in 0..126 {
            app.world_mut().spawn((
                Collider::aabb(v(8.0, 8.0)),
                Transform::from_xyz(-8.0, 8.0 - 16.0 * i as f32, 0.0),
            ));
        }
        let mover = app
            .world_mut()
            .spawn((
                shape.clone(),
                Transform::from_xyz(6.0, 0.0, 0.0),
                Velocity(v(-100.0, 0.0)),
                Response::Slide,
                Pushed,
            ))
            .id();
        for k in 1..=60 {
            tick(&mut app);
            let vel = app.world().get::<Velocity>(mover).unwrap().0;
            let expected = -900.0 * TICK * k as f32;
            assert_close(vel.y, expected, 1e-2, &format!("{shape:?}: tick {k} falls"));
            assert_eq!(vel.x, 0.0, "{shape:?}: pressed into the wall");
            let x = app.world().get::<Transform>(mover).unwrap().translation.x;
            assert!((x - 6.0).abs() < 1e-3, "{shape:?}: tick {k} at x = {x}");
        }
    }
}

/// Characters of every shape walk over the seams at their walking speed.
#[test]
fn characters_walk_over_the_seams() {
    for (name, floor) in floors() {
        for shape in movers() {
            if matches!(shape, Collider::Point | Collider::Segment { .. }) {
                continue;
            }
            let mut app = app();
            app.add_systems(FixedUpdate, push_right);
            spawn_floor(&mut app, &floor);
            let skin = KinematicCharacter::default().skin;
            let hero = app
                .world_mut()
                .spawn((
                    shape.clone(),
                    Transform::from_xyz(0.0, bottom(&shape) + skin, 0.0),
                    KinematicCharacter::default(),
                ))
                .id();
            let mut last = 0.0;
            for k in 0..120 {
                tick(&mut app);
                let t = app.world().get::<Transform>(hero).unwrap().translation;
                assert_close(
                    t.x - last,
                    300.0 * TICK,
                    1e-3,
                    &format!("{name}, {shape:?}: tick {k}"),
                );
                last = t.x;
            }
        }
    }
}

/// `move_and_slide` with no skin along a floor of tiles goes the whole way.
#[test]
fn move_and_slide_without_skin_slides_over_the_seams() {
    let mut app = app();
    for i in 0..20 {
        app.world_mut().spawn((
            Collider::aabb(v(8.0, 8.0)),
            Transform::from_xyz(-40.0 + 16.0 * i as f32, -8.0, 0.0),
        ));
    }
    tick(&mut app);
    for shape in movers() {
        let out = with_query(&mut app, |q| {
            q.move_and_slide(
                &shape,
                Isometry2d::from_translation(v(0.0, bottom(&shape))),
                v(200.0, -1.0),
                &MoveAndSlideConfig {
                    skin: 0.0,
                    ..default()
                },
                &QueryFilter::default(),
            )
        });
        assert_close(out.translation.x, 200.0, 1e-3, &format!("{shape:?}"));
        assert_close(
            out.translation.y,
            bottom(&shape),
            1e-3,
            &format!("{shape:?}"),
        );
    }
}
