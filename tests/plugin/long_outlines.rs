//! Level geometry at the size games draw it: outlines thousands of units long with a point
//! every few units, crates exactly one tile wide on seams, push-out of concave polygons.

use crate::common::*;
use bevy::math::Isometry2d;
use bevy::prelude::*;
use bevy_sweep::prelude::*;

/// A bar `length` long and 10 tall whose flat top (y = 0) has a point every 8 units: a floor
/// drawn in an editor.
fn editor_bar(length: f32) -> Vec<Vec2> {
    let steps = (length / 8.0) as i32;
    let mut bar = vec![v(-100.0, -10.0), v(-100.0 + 8.0 * steps as f32, -10.0)];
    bar.extend((0..=steps).rev().map(|i| v(-100.0 + 8.0 * i as f32, 0.0)));
    bar
}

/// A floor `length` long whose top (y = 0) is flat with a point every 16 units and whose
/// bottom is a saw, so no point of the top is collinear with its neighbours' ends below.
fn saw_floor(length: f32) -> Vec<Vec2> {
    let steps = (length / 16.0) as i32;
    let mut outline: Vec<Vec2> = (0..=steps)
        .map(|i| {
            v(
                -100.0 + 16.0 * i as f32,
                if i % 2 == 0 { -12.0 } else { -3.0 },
            )
        })
        .collect();
    outline.extend((0..=steps).rev().map(|i| v(-100.0 + 16.0 * i as f32, 0.0)));
    outline
}

/// Movers of every shape that can answer, their bottoms 3 below their origins.
fn sliders() -> Vec<Collider> {
    vec![
        Collider::circle(3.0),
        Collider::aabb(v(3.0, 3.0)),
        Collider::rectangle(v(3.0, 3.0)),
        Collider::capsule(v(-2.0, 0.0), v(2.0, 0.0), 3.0),
        Collider::convex_polygon(&[v(-3.0, -3.0), v(3.0, -3.0), v(3.0, 3.0), v(-4.0, 0.0)])
            .unwrap(),
    ]
}

/// Slides `shape` along the top of `floor` pressed down at 50 units/s and pushed right at
/// `speed` for `ticks` ticks; returns how far it went, and its height at the end.
fn slide(floor: &[Vec2], shape: &Collider, speed: f32, ticks: usize) -> (f32, f32) {
    let mut app = app();
    app.world_mut().spawn((
        Collider::polygon(floor).expect("a simple outline"),
        Transform::default(),
    ));
    let mover = app
        .world_mut()
        .spawn((
            shape.clone(),
            Transform::from_xyz(-80.0, 3.0, 0.0),
            Velocity(v(speed, -50.0)),
            Response::Slide,
        ))
        .id();
    for _ in 0..ticks {
        app.world_mut().get_mut::<Velocity>(mover).unwrap().0 = v(speed, -50.0);
        tick(&mut app);
    }
    let t = app.world().get::<Transform>(mover).unwrap().translation;
    (t.x + 80.0, t.y)
}

#[test]
fn sliders_keep_their_speed_along_long_editor_floors() {
    for length in [1_000.0, 12_000.0] {
        for floor in [editor_bar(length), saw_floor(length)] {
            for shape in sliders() {
                let (went, height) = slide(&floor, &shape, 300.0, 40);
                assert_close(
                    went,
                    300.0 * TICK * 40.0,
                    1e-2,
                    &format!("{length} long, {shape:?}: distance"),
                );
                assert_close(height, 3.0, 1e-2, &format!("{length} long, {shape:?}"));
            }
        }
    }
}

/// A crate exactly one tile wide, pushed along a floor of tiles so that both its bottom
/// corners land on seams at the end of a tick, stays on the floor and keeps its speed.
#[test]
fn a_crate_one_tile_wide_stays_on_a_floor_of_tiles() {
    let floors: Vec<(&str, Vec<(Collider, Vec2)>)> = vec![
        (
            "tiles",
            (0..200)
                .map(|i| {
                    (
                        Collider::aabb(v(8.0, 8.0)),
                        v(-400.0 + 16.0 * i as f32, -8.0),
                    )
                })
                .collect(),
        ),
        (
            "a compound",
            vec![(
                Collider::compound(
                    &(0..200)
                        .map(|i| {
                            (
                                Isometry2d::from_xy(-400.0 + 16.0 * i as f32, -8.0),
                                Collider::rectangle(v(8.0, 8.0)),
                            )
                        })
                        .collect::<Vec<_>>(),
                )
                .unwrap(),
                Vec2::ZERO,
            )],
        ),
        (
            "a merged tile grid",
            bevy_sweep::tiles::TileGrid::from_fn(200, 2, |c| c.y == 1 || c.x % 7 != 0)
                .unwrap()
                .colliders(v(16.0, 16.0))
                .into_iter()
                .map(|(c, t)| (c, t.translation.truncate() + v(-408.0, -32.0)))
                .collect(),
        ),
    ];
    for (name, floor) in &floors {
        for speed in [1_000.0_f32, 960.0, 10.0] {
            for shape in [
                Collider::rectangle(v(8.0, 6.0)),
                Collider::aabb(v(8.0, 6.0)),
            ] {
                let mut app = app();
                for (c, at) in floor {
                    app.world_mut()
                        .spawn((c.clone(), Transform::from_translation(at.extend(0.0))));
                }
                // Both bottom corners on seams at the start.
                let mover = app
                    .world_mut()
                    .spawn((
                        shape.clone(),
                        Transform::from_xyz(0.0, 6.0, 0.0),
                        Velocity(v(speed, 0.0)),
                        Response::Slide,
                    ))
                    .id();
                for k in 0..60 {
                    {
                        let mut vel = app.world_mut().get_mut::<Velocity>(mover).unwrap();
                        vel.0 = v(speed, vel.0.y - 900.0 * TICK);
                    }
                    tick(&mut app);
                    let t = app.world().get::<Transform>(mover).unwrap().translation;
                    let vel = app.world().get::<Velocity>(mover).unwrap().0;
                    assert!(
                        (t.y - 6.0).abs() < 1e-3 && vel.y.abs() < 1e-3 && vel.x == speed,
                        "{name}, {shape:?} at {speed}: tick {k} at {t}, velocity {vel}"
                    );
                }
            }
        }
    }
}

/// The U of the issue: 60 wide, 50 tall, a notch 20 wide from y = 20 up.
fn cup() -> Vec<Vec2> {
    [
        (0.0, 0.0),
        (60.0, 0.0),
        (60.0, 50.0),
        (40.0, 50.0),
        (40.0, 20.0),
        (20.0, 20.0),
        (20.0, 50.0),
        (0.0, 50.0),
    ]
    .map(|(x, y)| v(x, y))
    .to_vec()
}

/// Polygons and compounds built through reflection (a scene file, an inspector) are checked
/// as the constructors check them: a bow tie, a U whose pieces leave out an arm, and a
/// compound part turned by a rotation of length 1,000 are skipped with their reasons, and
/// send no event; the same shapes from the constructors are swept.
#[test]
fn reflected_polygons_and_compounds_are_checked() {
    let Some(Collider::Polygon { pieces, .. }) = Collider::polygon(&cup()) else {
        panic!("a U is cut into pieces");
    };
    let bow_tie = vec![v(0.0, 0.0), v(20.0, 20.0), v(20.0, 0.0), v(0.0, 20.0)];
    let cases = [
        (
            unchecked_polygon(bow_tie, vec![vec![0, 1, 2]]),
            SkipReason::NotSimple,
        ),
        (
            unchecked_polygon(cup(), pieces[..pieces.len() - 1].to_vec()),
            SkipReason::NotSimple,
        ),
        (
            unchecked_compound(vec![(
                Isometry2d::new(
                    v(30.0, 10.0),
                    Rot2 {
                        cos: 1000.0,
                        sin: 0.0,
                    },
                ),
                Collider::rectangle(v(30.0, 10.0)),
            )]),
            SkipReason::NonUnitRotation,
        ),
    ];
    for (shape, reason) in cases {
        let mut app = app();
        let level = app
            .world_mut()
            .spawn((shape.clone(), Transform::default()))
            .id();
        app.world_mut().spawn((
            Collider::circle(2.0),
            Transform::from_xyz(10.0, 80.0, 0.0),
            Velocity(v(0.0, -6000.0)),
        ));
        let events = tick(&mut app);
        assert_eq!(
            app.world().resource::<SkippedColliders>().reason(level),
            Some(reason),
            "{shape:?}"
        );
        assert!(events.is_empty(), "{events:?}");
    }
    // From the constructors: a compound with that rotation is turned, not scaled.
    let compound = Collider::compound(&[(
        Isometry2d::new(
            v(30.0, 10.0),
            Rot2 {
                cos: 1000.0,
                sin: 0.0,
            },
        ),
        Collider::rectangle(v(30.0, 10.0)),
    )])
    .expect("a rotation of any length is a direction");
    for shape in [Collider::polygon(&cup()).unwrap(), compound] {
        let mut app = app();
        let level = app
            .world_mut()
            .spawn((shape.clone(), Transform::default()))
            .id();
        app.world_mut().spawn((
            Collider::circle(2.0),
            Transform::from_xyz(10.0, 80.0, 0.0),
            Velocity(v(0.0, -6000.0)),
        ));
        let events = tick(&mut app);
        assert_eq!(
            app.world().resource::<SkippedColliders>().reason(level),
            None
        );
        // The ball meets the top at y = 50 (the U's arm, or the rectangle 20 tall).
        let hit = events
            .first()
            .unwrap_or_else(|| panic!("the ball meets {shape:?}"));
        let y = 80.0 - 6000.0 * TICK * hit.time_of_impact;
        assert!(
            (y - 52.0).abs() < 1e-2 || (y - 22.0).abs() < 1e-2,
            "met at {y}"
        );
    }
}
