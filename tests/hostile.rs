//! Inputs at the edges of the range: each is handled right or refused with a
//! [`SkipReason`] and one warning, the same way for every shape. Every expected outcome
//! here is worked out by hand in its comment.
//!
//! Its own test binary: it installs a global logger that keeps the warnings
//! (`common::warnings`).

use bevy::math::Isometry2d;
use bevy::prelude::*;
use bevy_sweep::prelude::*;

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;
use common::warnings::{keep_warnings, warnings_with};
use common::{assert_close, assert_well_formed, seen_from, tick, v, with_query};

/// One collider of each of the eight shapes, about a unit in size.
fn every_shape() -> Vec<Collider> {
    vec![
        Collider::point(),
        Collider::segment(v(-1.0, 0.0), v(1.0, 0.0)),
        Collider::circle(1.0),
        Collider::aabb(v(1.0, 1.0)),
        Collider::rectangle(v(1.0, 0.5)),
        Collider::capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.5),
        Collider::convex_polygon(&[v(-1.0, -1.0), v(1.0, -1.0), v(0.0, 1.0)]).unwrap(),
        Collider::polyline(&[v(-1.0, 0.0), v(0.0, 1.0), v(1.0, 0.0)]).unwrap(),
    ]
}

fn reason(app: &App, entity: Entity) -> Option<SkipReason> {
    app.world().resource::<SkippedColliders>().reason(entity)
}

/// A polyline scaled to zero was dropped with no reason, and its `Started` came a tick late
/// when its scale came back. Now: refused as degenerate (its contact ends at time 0), and
/// back at scale 1 it touches again from time 0 of that very tick.
#[test]
fn a_polyline_scaled_to_zero_is_refused_and_comes_back_at_once() {
    let mut app = common::app();
    let line = app
        .world_mut()
        .spawn(Collider::polyline(&[v(-10.0, 0.0), v(0.0, 0.0), v(10.0, 0.0)]).unwrap())
        .id();
    // A disk of radius 1 centred 0.5 above the line: they overlap.
    let disk = app
        .world_mut()
        .spawn((Collider::circle(1.0), Transform::from_xyz(3.0, 0.5, 0.0)))
        .id();
    let events = tick(&mut app);
    assert_eq!(events.len(), 1);
    assert_eq!(
        (events[0].kind, events[0].time_of_impact),
        (CollisionKind::Started, 0.0)
    );

    app.world_mut().get_mut::<Transform>(line).unwrap().scale = Vec3::ZERO;
    let events = tick(&mut app);
    assert_eq!(reason(&app, line), Some(SkipReason::DegenerateInWorld));
    assert_eq!(events.len(), 1, "{events:?}");
    let ended = seen_from(&events[0], disk);
    assert_eq!(
        (ended.kind, ended.other, ended.time_of_impact),
        (CollisionKind::Ended, line, 0.0)
    );

    app.world_mut().get_mut::<Transform>(line).unwrap().scale = Vec3::ONE;
    let events = tick(&mut app);
    assert_eq!(reason(&app, line), None);
    assert_eq!(
        events.len(),
        1,
        "the contact starts in the tick the scale comes back"
    );
    assert_eq!(
        (events[0].kind, events[0].time_of_impact),
        (CollisionKind::Started, 0.0)
    );
}

/// A capsule scaled to zero became a point that kept its contacts, while a circle scaled to
/// zero was skipped. Now every shape scaled to zero, below 2^-32 or above 2^32 on an axis, is
/// refused the same way (a point included: the scale, not the shape, is wrong), and the
/// contact it had with a big box around it ends.
#[test]
fn every_shape_with_a_scale_out_of_range_is_refused_alike() {
    for scale in [
        Vec3::ZERO,
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::splat(1e-30),
        Vec3::splat(1e30),
    ] {
        let mut app = common::app();
        // The shapes meet the box, not each other.
        app.world_mut().spawn((
            Collider::aabb(v(50.0, 50.0)),
            CollisionLayers::new(0b01, 0b10),
        ));
        let shapes: Vec<Entity> = every_shape()
            .into_iter()
            .map(|c| {
                app.world_mut()
                    .spawn((c, CollisionLayers::new(0b10, 0b01)))
                    .id()
            })
            .collect();
        let events = tick(&mut app);
        assert_eq!(events.len(), shapes.len(), "each starts touching the box");
        for &shape in &shapes {
            app.world_mut().get_mut::<Transform>(shape).unwrap().scale = scale;
        }
        let events = tick(&mut app);
        assert_well_formed(&events);
        for &shape in &shapes {
            assert_eq!(
                reason(&app, shape),
                Some(SkipReason::DegenerateInWorld),
                "{shape} at scale {scale}"
            );
        }
        assert!(
            events.iter().all(|e| e.kind == CollisionKind::Ended),
            "scale {scale}: {events:?}"
        );
        assert_eq!(
            events.len(),
            shapes.len(),
            "scale {scale}: every contact ends"
        );
        assert!(tick(&mut app).is_empty());
    }
}

/// Shapes out at 1.8e19 were accepted, and their events carried NaN. The promised range is
/// ±2^24 on each axis: inside, a shape near its edge gives well-formed events; beyond, every
/// shape is refused, as is one whose motion leaves the range during a tick.
#[test]
fn coordinates_beyond_the_range_are_refused() {
    keep_warnings();
    let edge = bevy_sweep::COORDINATE_RANGE;
    assert_eq!(edge, 16_777_216.0);
    let mut app = common::app();
    let far: Vec<Entity> = every_shape()
        .into_iter()
        .map(|c| {
            app.world_mut()
                .spawn((c, Transform::from_xyz(1.8e19, 0.0, 0.0)))
                .id()
        })
        .collect();
    // Inside, by the edge: a disk and a point crossing it.
    let near = edge - 64.0;
    app.world_mut()
        .spawn((Collider::circle(8.0), Transform::from_xyz(near, 0.0, 0.0)));
    let bullet = app
        .world_mut()
        .spawn((
            Collider::point(),
            Transform::from_xyz(near - 16.0, 0.0, 0.0),
            Velocity(v(32.0 * 64.0, 0.0)),
        ))
        .id();
    // Leaving the range during the tick: from 16 inside to 48 beyond.
    let leaving = app
        .world_mut()
        .spawn((
            Collider::point(),
            Transform::from_xyz(edge - 16.0, 100.0, 0.0),
            Velocity(v(64.0 * 64.0, 0.0)),
        ))
        .id();
    let events = tick(&mut app);
    assert_well_formed(&events);
    for &entity in far.iter().chain([&leaving]) {
        assert_eq!(
            reason(&app, entity),
            Some(SkipReason::OutOfRange),
            "{entity}"
        );
    }
    // The bullet enters the disk at x = near - 8 (t = 8/32) and leaves at near + 8 (t = 24/32).
    let seen: Vec<(CollisionKind, f32)> = events
        .iter()
        .map(|e| seen_from(e, bullet))
        .map(|e| (e.kind, e.time_of_impact))
        .collect();
    assert_eq!(
        seen,
        [(CollisionKind::Started, 0.25), (CollisionKind::Ended, 0.75)]
    );
    assert_eq!(events[0].normal, Vec2::NEG_X);
    assert!(!warnings_with("beyond 2^24").is_empty());
    // The queries find nothing beyond the range, and the disk inside it.
    with_query(&mut app, |q| {
        let all = QueryFilter::default();
        assert_eq!(q.project_point(v(1.8e19, 0.0), &all), None);
        let at_disk = q.project_point(v(near, 20.0), &all).expect("the disk");
        assert_close(at_disk.distance, 12.0, 1e-3, "distance to the disk");
    });
}

/// `cast_ray` with a finite `max_distance` of 2e19 or more (`f32::MAX` too) reported an
/// infinite distance. Every collider lies within the range, so a longer ray is cut at its
/// reach: the wall 10 units away is 10 units away.
#[test]
fn a_ray_of_any_length_reports_the_true_distance() {
    let mut app = common::app();
    let wall = app
        .world_mut()
        .spawn(Collider::segment(v(10.0, -5.0), v(10.0, 5.0)))
        .id();
    tick(&mut app);
    for max_distance in [2e19, 1e30, f32::MAX, f32::INFINITY] {
        let hit = with_query(&mut app, |q| {
            q.cast_ray(Vec2::ZERO, Dir2::X, max_distance, &QueryFilter::default())
        })
        .unwrap_or_else(|| panic!("{max_distance}: the wall"));
        assert_eq!(hit.entity, wall);
        assert_close(hit.distance, 10.0, 1e-3, "distance");
        assert_eq!(hit.normal, Vec2::NEG_X);
    }
}

/// A flat octagon (10 wide, 2·dy tall) far from the origin, a point falling through it at
/// x = +0.3 from its centre. The point enters through the top edge (vertices 1 and 2:
/// edge 1 spans x from 3.54 to 0) with the normal up, and leaves through the bottom edge
/// (vertices 6 and 7: edge 6) with the normal down, wherever the octagon is. Far out, the
/// octagon's thickness was a few ulps of its coordinates, and the Ended event named the top
/// edge and pointed up.
#[test]
fn a_thin_polygon_far_out_names_the_edges_crossed() {
    for x0 in [0.0, 1000.0, 1.0e5, 1.0e6] {
        for dy in [1e-4, 1e-3] {
            for speed in [128.0, 12_800.0] {
                let mut app = common::app();
                let octagon: Vec<Vec2> = (0..8)
                    .map(|i| {
                        let a = i as f32 * core::f32::consts::FRAC_PI_4;
                        v(5.0 * a.cos(), dy * a.sin())
                    })
                    .collect();
                let polygon = Collider::convex_polygon(&octagon).expect("convex");
                app.world_mut()
                    .spawn((polygon, Transform::from_xyz(x0, 0.0, 0.0)));
                let point = app
                    .world_mut()
                    .spawn((
                        Collider::point(),
                        Transform::from_xyz(x0 + 0.3, speed / 128.0, 0.0),
                        Velocity(v(0.0, -speed)),
                    ))
                    .id();
                let events = tick(&mut app);
                let case = format!("x0 {x0}, dy {dy}, speed {speed}");
                assert_eq!(events.len(), 2, "{case}: {events:?}");
                let (enter, leave) = (seen_from(&events[0], point), seen_from(&events[1], point));
                assert_eq!(enter.kind, CollisionKind::Started, "{case}");
                assert!(enter.normal.y > 0.99, "{case}: {enter:?}");
                assert!(
                    matches!(enter.other_feature, Some(Feature::Edge { index: 1, .. })),
                    "{case}: {enter:?}"
                );
                assert_eq!(leave.kind, CollisionKind::Ended, "{case}");
                assert!(leave.normal.y < -0.99, "{case}: {leave:?}");
                assert!(
                    matches!(leave.other_feature, Some(Feature::Edge { index: 6, .. })),
                    "{case}: {leave:?}"
                );
            }
        }
    }
}

/// A point at 10^6 units/s into a box of half size 10: it comes from -x, so the normal of
/// `Started` (from the box towards the point) is -x, and of `Ended` +x. At x = 1e9 (beyond the
/// range) both are refused; at 1e7, inside, the normals are right (they were +x before).
#[test]
fn a_fast_point_far_out_gets_the_normal_of_the_side_it_enters() {
    for (x0, inside) in [(0.0, true), (1.0e6, true), (1.0e7, true), (1.0e9, false)] {
        let mut app = common::app();
        let boxed = app
            .world_mut()
            .spawn((
                Collider::aabb(v(10.0, 10.0)),
                Transform::from_xyz(x0, 0.0, 0.0),
            ))
            .id();
        let speed = 1.0e6;
        let point = app
            .world_mut()
            .spawn((
                Collider::point(),
                Transform::from_xyz(x0 - speed / 128.0, 0.0, 0.0),
                Velocity(v(speed, 0.0)),
            ))
            .id();
        let events = tick(&mut app);
        if !inside {
            assert!(events.is_empty());
            assert_eq!(reason(&app, boxed), Some(SkipReason::OutOfRange));
            assert_eq!(reason(&app, point), Some(SkipReason::OutOfRange));
            continue;
        }
        assert_eq!(events.len(), 2, "x0 {x0}: {events:?}");
        let (enter, leave) = (seen_from(&events[0], point), seen_from(&events[1], point));
        assert_eq!(
            (enter.kind, enter.normal),
            (CollisionKind::Started, Vec2::NEG_X),
            "x0 {x0}"
        );
        assert_eq!(
            (leave.kind, leave.normal),
            (CollisionKind::Ended, Vec2::X),
            "x0 {x0}"
        );
    }
}

/// A collider 101 levels below its root was skipped as `MissingTransform` (the walk stopped at
/// 64). Now it is placed: 101 parents each one unit right of the last put a wall at x = 101,
/// which a bullet from x = 96 to 106 crosses half-way. Deeper than 1,024 levels, it is
/// refused with its own reason.
#[test]
fn a_deep_hierarchy_is_followed_to_its_root() {
    let mut app = common::app();
    let spawn_chain = |app: &mut App, depth: usize, collider: Collider| {
        let mut parent = app.world_mut().spawn(Transform::IDENTITY).id();
        for _ in 1..depth {
            parent = app
                .world_mut()
                .spawn((Transform::from_xyz(1.0, 0.0, 0.0), ChildOf(parent)))
                .id();
        }
        app.world_mut()
            .spawn((
                collider,
                Transform::from_xyz(1.0, 0.0, 0.0),
                ChildOf(parent),
            ))
            .id()
    };
    let wall = spawn_chain(&mut app, 101, Collider::segment(v(0.0, -5.0), v(0.0, 5.0)));
    let too_deep = spawn_chain(&mut app, 1100, Collider::circle(1.0));
    let bullet = app
        .world_mut()
        .spawn((
            Collider::point(),
            Transform::from_xyz(96.0, 0.0, 0.0),
            Velocity(v(10.0 * 64.0, 0.0)),
        ))
        .id();
    let events = tick(&mut app);
    assert_eq!(reason(&app, wall), None);
    assert_eq!(reason(&app, too_deep), Some(SkipReason::HierarchyTooDeep));
    assert_eq!(events.len(), 1, "{events:?}");
    let hit = seen_from(&events[0], bullet);
    assert_eq!((hit.kind, hit.other), (CollisionKind::Crossed, wall));
    assert_close(hit.time_of_impact, 0.5, 1e-6, "crossing time");
}

/// Removing `SweptPath` from a collider left it out of every tick for good, silently. Now it
/// is put back with one warning, and the collider carries on: its contact with the floor
/// lasts (no event) and ends when it is lifted away.
#[test]
fn a_removed_swept_path_is_put_back() {
    keep_warnings();
    let mut app = common::app();
    app.world_mut()
        .spawn(Collider::segment(v(-10.0, 0.0), v(10.0, 0.0)));
    let crate_ = app
        .world_mut()
        .spawn((
            Collider::aabb(v(1.0, 1.0)),
            Transform::from_xyz(0.0, 1.0, 0.0),
        ))
        .id();
    assert_eq!(tick(&mut app).len(), 1);
    app.world_mut().entity_mut(crate_).remove::<SweptPath>();
    assert!(tick(&mut app).is_empty(), "the contact lasts");
    assert!(app.world().get::<SweptPath>(crate_).is_some(), "put back");
    assert_eq!(
        warnings_with(&format!("SweptPath was removed from collider {crate_}")).len(),
        1
    );
    app.world_mut()
        .get_mut::<Transform>(crate_)
        .unwrap()
        .translation
        .y = 5.0;
    let events = tick(&mut app);
    assert_eq!(events.len(), 1);
    assert_eq!(seen_from(&events[0], crate_).kind, CollisionKind::Ended);
}

/// An `AngularVelocity` of 10^6 rad/s turns about 2,500 times a tick (at 64 ticks a second):
/// the sweep follows each point on a straight line between the tick's two poses, and says so
/// once, by name. Slower than half a turn a tick: no warning.
#[test]
fn turning_more_than_half_a_turn_a_tick_is_warned_about_once() {
    keep_warnings();
    let mut app = common::app();
    let spinner = app
        .world_mut()
        .spawn((Collider::rectangle(v(2.0, 0.5)), AngularVelocity(1.0e6)))
        .id();
    let calm = app
        .world_mut()
        .spawn((
            Collider::rectangle(v(2.0, 0.5)),
            Transform::from_xyz(10.0, 0.0, 0.0),
            AngularVelocity(3.0 * 64.0), // 3 rad a tick: under π
        ))
        .id();
    for _ in 0..5 {
        tick(&mut app);
    }
    let half_turn = warnings_with("half a turn");
    assert_eq!(
        half_turn
            .iter()
            .filter(|w| w.contains(&format!("collider {spinner} ")))
            .count(),
        1,
        "{half_turn:?}"
    );
    assert!(
        !half_turn
            .iter()
            .any(|w| w.contains(&format!("collider {calm} "))),
        "{half_turn:?}"
    );
    assert_eq!(reason(&app, spinner), None, "warned, not refused");
}

// ---------------------------------------------------------------------------------------
// The answers to hits, at the edges (a hostile probe's findings, each fixed or refused).

fn place(app: &App, e: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(e)
        .unwrap()
        .translation
        .truncate()
}

fn velocity(app: &App, e: Entity) -> Vec2 {
    app.world().get::<Velocity>(e).unwrap().0
}

/// A sensor polyline blocks nothing, and a one-way polyline blocks only from its side, as a
/// sensor segment and a one-way box do: its edges keep its role.
#[test]
fn a_polyline_keeps_its_role() {
    let line = || Collider::polyline(&[v(-50.0, 0.0), v(0.0, 0.0), v(50.0, 0.0)]).unwrap();
    let mut app = common::app();
    let sensor = app.world_mut().spawn((line(), Sensor)).id();
    // A ball falls through the sensor line, and so does a character.
    let ball = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(-20.0, 10.0, 0.0),
            Velocity(v(0.0, -640.0)),
            Response::Bounce { restitution: 1.0 },
        ))
        .id();
    let hero = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(20.0, 10.0, 0.0),
            Velocity(v(0.0, -640.0)),
            KinematicCharacter::default(),
        ))
        .id();
    let mut crossed = 0;
    for _ in 0..4 {
        crossed += tick(&mut app)
            .iter()
            .filter(|e| e.entity == sensor || e.other == sensor)
            .count();
    }
    assert!(
        place(&app, ball).y < -10.0,
        "the ball passed: {}",
        place(&app, ball)
    );
    assert!(
        place(&app, hero).y < -10.0,
        "the character passed: {}",
        place(&app, hero)
    );
    assert!(crossed >= 2, "the sensor reports both");
    let out = with_query(&mut app, |q| {
        q.move_and_slide(
            &Collider::circle(1.0),
            Isometry2d::from_translation(v(0.0, 5.0)),
            v(0.0, -10.0),
            &MoveAndSlideConfig::default(),
            &QueryFilter::default(),
        )
    });
    assert_eq!(
        out.translation,
        v(0.0, -5.0),
        "move-and-slide passes a sensor"
    );

    // One way, up: a ball from below goes through, a ball from above bounces.
    let mut app = common::app();
    app.world_mut().spawn((line(), OneWay(Dir2::Y)));
    let up = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(-20.0, -10.0, 0.0),
            Velocity(v(0.0, 640.0)),
            Response::Bounce { restitution: 1.0 },
        ))
        .id();
    let down = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(20.0, 5.0, 0.0),
            Velocity(v(0.0, -640.0)),
            Response::Bounce { restitution: 1.0 },
        ))
        .id();
    tick(&mut app);
    tick(&mut app);
    assert!(
        place(&app, up).y > 5.0,
        "from below it passes: {}",
        place(&app, up)
    );
    assert_eq!(velocity(&app, up), v(0.0, 640.0));
    assert!(
        place(&app, down).y >= 1.0,
        "from above it bounces: {}",
        place(&app, down)
    );
    assert_eq!(velocity(&app, down), v(0.0, 640.0));
}

/// A finite restitution beyond `Response::MAX_RESTITUTION` (`f32::MAX`, `1e30`, `1.5`) is
/// refused like a negative one: the ball is skipped with its reason and one warning, and its
/// velocity is never made infinite or NaN.
#[test]
fn a_restitution_beyond_the_range_is_refused() {
    keep_warnings();
    let text = "its Response::Bounce restitution is outside";
    for restitution in [f32::MAX, 1.0e30, 1.5] {
        let before = warnings_with(text).len();
        let mut app = common::app();
        app.world_mut().spawn((
            Collider::aabb(v(1.0, 50.0)),
            Transform::from_xyz(10.0, 0.0, 0.0),
        ));
        let ball = app
            .world_mut()
            .spawn((
                Collider::circle(1.0),
                Velocity(v(640.0, 0.0)),
                Response::Bounce { restitution },
            ))
            .id();
        for _ in 0..4 {
            tick(&mut app);
            assert_eq!(velocity(&app, ball), v(640.0, 0.0), "{restitution}");
        }
        assert_eq!(
            reason(&app, ball),
            Some(SkipReason::InvalidRestitution),
            "{restitution}"
        );
        assert_eq!(
            warnings_with(text).len(),
            before + 1,
            "{restitution}: one warning"
        );
    }
    // The largest allowed is elastic, and taken.
    let mut app = common::app();
    app.world_mut().spawn((
        Collider::aabb(v(1.0, 50.0)),
        Transform::from_xyz(10.0, 0.0, 0.0),
    ));
    let ball = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Velocity(v(640.0, 0.0)),
            Response::Bounce {
                restitution: Response::MAX_RESTITUTION,
            },
        ))
        .id();
    tick(&mut app);
    assert_eq!(velocity(&app, ball), v(-640.0, 0.0));
}

/// A scaled character moves as the shape the sweep sees: at scale 2 a circle of radius 4 is
/// one of radius 8, and it lands, is grounded and stops falling `skin` above the floor; at
/// scale 0.5 it stands `skin` above it, not 7 units up.
#[test]
fn a_scaled_character_stands_on_the_floor() {
    for scale in [2.0_f32, 0.5] {
        let mut app = common::app();
        app.add_systems(
            FixedUpdate,
            |mut characters: Query<&mut Velocity, With<KinematicCharacter>>| {
                for mut v in &mut characters {
                    v.0.y -= 900.0 * common::TICK;
                }
            },
        );
        app.world_mut().spawn((
            Collider::aabb(v(100.0, 5.0)),
            Transform::from_xyz(0.0, -5.0, 0.0),
        ));
        let hero = app
            .world_mut()
            .spawn((
                Collider::circle(4.0),
                Transform::from_xyz(0.0, 30.0, 0.0).with_scale(Vec3::splat(scale)),
                KinematicCharacter::default(),
            ))
            .id();
        for _ in 0..60 {
            tick(&mut app);
        }
        let state = *app.world().get::<CharacterState>(hero).unwrap();
        let skin = KinematicCharacter::default().skin;
        assert!(state.grounded, "scale {scale}: {state:?}");
        assert_close(
            place(&app, hero).y,
            4.0 * scale + skin,
            1e-3,
            "standing height",
        );
        assert_eq!(velocity(&app, hero), Vec2::ZERO, "scale {scale}");
    }
}

/// Save, restore, despawn the floor: the floor is gone for the character and for the
/// queries from the next tick on.
#[test]
fn a_collider_despawned_right_after_a_restore_is_gone() {
    let mut app = common::app();
    app.add_systems(
        FixedUpdate,
        |mut characters: Query<&mut Velocity, With<KinematicCharacter>>| {
            for mut v in &mut characters {
                v.0.y -= 900.0 * common::TICK;
            }
        },
    );
    let floor = app
        .world_mut()
        .spawn((
            Collider::aabb(v(100.0, 5.0)),
            Transform::from_xyz(0.0, -5.0, 0.0),
        ))
        .id();
    let hero = app
        .world_mut()
        .spawn((
            Collider::circle(4.0),
            Transform::from_xyz(0.0, 10.0, 0.0),
            KinematicCharacter::default(),
        ))
        .id();
    for _ in 0..30 {
        tick(&mut app);
    }
    assert!(app.world().get::<CharacterState>(hero).unwrap().grounded);
    let saved = SweepState::save(app.world_mut());
    saved.restore(app.world_mut());
    app.world_mut().despawn(floor);
    for _ in 0..30 {
        tick(&mut app);
    }
    assert!(!app.world().get::<CharacterState>(hero).unwrap().grounded);
    assert!(
        place(&app, hero).y < -50.0,
        "it fell: {}",
        place(&app, hero)
    );
    let hit = with_query(&mut app, |q| {
        q.cast_ray(
            v(0.0, 50.0),
            Dir2::NEG_Y,
            200.0,
            &QueryFilter::default().excluding(hero),
        )
    });
    assert_eq!(hit, None);
}

/// A move-and-slide whose motion ends beyond the coordinate range stops at the wall in its
/// way (1.6e7, 2e7, infinity-sized), and with nothing in the way stops at the range's edge.
#[test]
fn move_and_slide_towards_beyond_the_range_stops_at_the_wall() {
    let mut app = common::app();
    app.world_mut().spawn((
        Collider::aabb(v(1.0, 50.0)),
        Transform::from_xyz(16.0, 0.0, 0.0),
    ));
    tick(&mut app);
    let slide = |app: &mut App, motion: Vec2| {
        with_query(app, |q| {
            q.move_and_slide(
                &Collider::circle(1.0),
                Isometry2d::IDENTITY,
                motion,
                &MoveAndSlideConfig::default(),
                &QueryFilter::default(),
            )
        })
    };
    for x in [1.6e7_f32, 2.0e7, 1.0e30] {
        let out = slide(&mut app, v(x, 0.0));
        assert!(
            out.translation.x <= 14.0 && out.translation.x > 13.9,
            "{x}: {out:?}"
        );
        assert_eq!(out.hits.len(), 1, "{x}");
    }
    let out = slide(&mut app, v(-2.0e7, 0.0));
    assert!(
        out.translation.x >= -bevy_sweep::COORDINATE_RANGE
            && out.translation.x < -0.99 * bevy_sweep::COORDINATE_RANGE,
        "{out:?}"
    );
    assert!(out.remaining.x < 0.0, "what is beyond is left: {out:?}");
}

/// A `snap_to_ground` beyond the coordinate range is warned about once and replaced by the
/// default: the character stands, grounded every tick.
#[test]
fn a_huge_snap_to_ground_is_warned_about_and_grounded_holds() {
    keep_warnings();
    let mut app = common::app();
    app.world_mut().spawn((
        Collider::aabb(v(100.0, 5.0)),
        Transform::from_xyz(0.0, -5.0, 0.0),
    ));
    let skin = KinematicCharacter::default().skin;
    let hero = app
        .world_mut()
        .spawn((
            Collider::circle(4.0),
            Transform::from_xyz(0.0, 4.0 + skin, 0.0),
            Velocity(v(0.0, -1.0)),
            KinematicCharacter {
                snap_to_ground: 2.0e7,
                ..default()
            },
        ))
        .id();
    tick(&mut app);
    for k in 0..20 {
        app.world_mut().get_mut::<Velocity>(hero).unwrap().0 = v(10.0, -14.0);
        tick(&mut app);
        let state = app.world().get::<CharacterState>(hero).unwrap();
        assert!(state.grounded, "tick {k}");
    }
    assert_eq!(warnings_with(&format!("character {hero} ")).len(), 1);
}

/// A collider does not touch itself.
#[test]
fn a_collider_does_not_touch_itself() {
    let mut app = common::app();
    let a = app.world_mut().spawn(Collider::circle(1.0)).id();
    tick(&mut app);
    assert_eq!(with_query(&mut app, |q| q.contact(a, a)), None);
}

/// A polyline as the query shape overlaps what its edges cut into, and move-and-slide pushes
/// a polyline out of a wall it starts inside.
#[test]
fn a_polyline_query_shape_finds_its_overlap_and_is_pushed_out() {
    let mut app = common::app();
    let wall = app
        .world_mut()
        .spawn((
            Collider::aabb(v(5.0, 5.0)),
            Transform::from_xyz(0.0, 0.0, 0.0),
        ))
        .id();
    tick(&mut app);
    let zigzag = Collider::polyline(&[v(-1.0, 0.0), v(0.0, 1.0), v(1.0, 0.0)]).unwrap();
    let at = Isometry2d::from_translation(v(3.0, 0.0));
    let deep = with_query(&mut app, |q| {
        q.penetration(&zigzag, at, &QueryFilter::default())
    });
    let deep = deep.expect("inside the wall");
    assert_eq!(deep.entity, wall);
    assert_close(deep.depth, 3.0, 1e-4, "out to the right");
    let out = with_query(&mut app, |q| {
        q.move_and_slide(
            &zigzag,
            at,
            Vec2::ZERO,
            &MoveAndSlideConfig::default(),
            &QueryFilter::default(),
        )
    });
    assert!(out.translation.x >= 6.0 - 1e-4, "{out:?}");
    let after = Isometry2d::from_translation(out.translation);
    assert_eq!(
        with_query(&mut app, |q| q.penetration(
            &zigzag,
            after,
            &QueryFilter::default()
        )),
        None
    );
}

/// A state restored into an app whose entities with the saved ids are plain entities (not
/// colliders, not characters) puts nothing on them.
#[test]
fn a_restore_onto_plain_entities_puts_nothing_on_them() {
    let mut app = common::app();
    let saved_ids: Vec<Entity> = (0..4)
        .map(|k| {
            app.world_mut()
                .spawn((
                    Collider::circle(1.0),
                    Transform::from_xyz(10.0 * k as f32, 0.0, 0.0),
                    KinematicCharacter::default(),
                ))
                .id()
        })
        .collect();
    tick(&mut app);
    let state = SweepState::save(app.world_mut());
    let mut fresh = common::app();
    let plain: Vec<Entity> = (0..8)
        .map(|_| fresh.world_mut().spawn_empty().id())
        .collect();
    assert!(saved_ids.iter().all(|e| plain.contains(e)), "the same ids");
    state.restore(fresh.world_mut());
    for e in plain {
        let entity = fresh.world().entity(e);
        assert!(!entity.contains::<SweptPath>(), "{e}");
        assert!(!entity.contains::<CharacterState>(), "{e}");
    }
}
