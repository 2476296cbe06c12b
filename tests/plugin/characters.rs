//! Kinematic characters and move-and-slide in headless Apps: landing, walking slopes,
//! standing still, walls, steps, platforms, getting out of solids; hand-worked expectations.

use crate::common::*;
use bevy::math::Isometry2d;
use bevy::prelude::*;
use bevy_sweep::prelude::*;

const GRAVITY: f32 = 900.0;

fn gravity(mut characters: Query<&mut Velocity, With<KinematicCharacter>>, time: Res<Time>) {
    for mut v in &mut characters {
        v.0.y -= GRAVITY * time.delta_secs();
    }
}

/// An App with gravity on the characters (added in `FixedUpdate`, before the sweep).
fn world() -> App {
    let mut app = app();
    app.add_systems(FixedUpdate, gravity);
    app
}

fn hero(app: &mut App, at: Vec2, character: KinematicCharacter) -> Entity {
    app.world_mut()
        .spawn((
            Collider::capsule(v(0.0, -6.0), v(0.0, 6.0), 4.0),
            Transform::from_translation(at.extend(0.0)),
            character,
        ))
        .id()
}

fn solid(app: &mut App, collider: Collider, at: Vec2) -> Entity {
    app.world_mut()
        .spawn((collider, Transform::from_translation(at.extend(0.0))))
        .id()
}

fn place(app: &App, e: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(e)
        .unwrap()
        .translation
        .truncate()
}

fn state(app: &App, e: Entity) -> CharacterState {
    *app.world().get::<CharacterState>(e).unwrap()
}

fn set_velocity(app: &mut App, e: Entity, velocity: Vec2) {
    app.world_mut().get_mut::<Velocity>(e).unwrap().0 = velocity;
}

/// It falls, lands (`Started` with the floor, once), stands `skin` above it without its
/// velocity building up, and jumping off ends the contact.
#[test]
fn lands_stands_and_jumps() {
    let mut app = world();
    let skin = KinematicCharacter::default().skin;
    let me = hero(&mut app, v(0.0, 40.0), KinematicCharacter::default());
    let floor = solid(&mut app, Collider::aabb(v(200.0, 5.0)), v(0.0, -5.0));
    let mut events = Vec::new();
    for _ in 0..60 {
        events.extend(
            tick(&mut app)
                .into_iter()
                .filter(|e| e.entity == me || e.other == me),
        );
    }
    let kinds: Vec<_> = events.iter().map(|e| seen_from(e, me).kind).collect();
    assert_eq!(
        kinds,
        vec![CollisionKind::Started],
        "one landing: {events:?}"
    );
    assert_eq!(seen_from(&events[0], me).other, floor);
    let s = state(&app, me);
    assert!(s.grounded && s.ground_entity == Some(floor));
    assert_vec_close(s.ground_normal.unwrap(), v(0.0, 1.0), 1e-5, "ground normal");
    assert_close(
        place(&app, me).y,
        10.0 + skin,
        1e-3,
        "standing skin above the floor",
    );
    // Gravity of one tick, taken off again by the floor: it does not build up.
    let vy = app.world().get::<Velocity>(me).unwrap().0.y;
    assert!(vy.abs() <= GRAVITY * TICK + 1e-3, "velocity built up: {vy}");
    set_velocity(&mut app, me, v(0.0, 400.0));
    let left: Vec<_> = tick(&mut app)
        .into_iter()
        .filter(|e| e.entity == me || e.other == me)
        .map(|e| seen_from(&e, me).kind)
        .collect();
    assert_eq!(
        left,
        vec![CollisionKind::Ended],
        "jumping off ends the contact"
    );
    assert!(!state(&app, me).grounded);
}

/// Standing on a walkable slope it does not drift; walking down it, it stays on the ground
/// every tick; on a slope steeper than `max_slope` it slides down.
#[test]
fn slopes_walkable_and_not() {
    // A 30° slope down to the right, then a 60° one.
    let mut app = world();
    let t30 = 30f32.to_radians().tan();
    let hill = solid(
        &mut app,
        Collider::polyline(&[v(-300.0, 300.0 * t30), v(300.0, -300.0 * t30)]).unwrap(),
        Vec2::ZERO,
    );
    let me = hero(&mut app, v(0.0, 30.0), KinematicCharacter::default());
    for _ in 0..40 {
        tick(&mut app);
    }
    assert!(state(&app, me).grounded);
    assert_eq!(state(&app, me).ground_entity, Some(hill));
    let standing = place(&app, me);
    for _ in 0..60 {
        tick(&mut app);
    }
    assert_vec_close(place(&app, me), standing, 1e-3, "no drift standing on 30°");
    // Walk right (down the slope) at 300 units/s: grounded every tick.
    for _ in 0..30 {
        let vy = app.world().get::<Velocity>(me).unwrap().0.y;
        set_velocity(&mut app, me, v(300.0, vy));
        tick(&mut app);
        assert!(
            state(&app, me).grounded,
            "left the ground walking down at {}",
            place(&app, me)
        );
    }
    assert!(place(&app, me).x > standing.x + 100.0, "it walked");

    let mut app = world();
    let t60 = 60f32.to_radians().tan();
    solid(
        &mut app,
        Collider::polyline(&[v(-100.0, 100.0 * t60), v(100.0, -100.0 * t60)]).unwrap(),
        Vec2::ZERO,
    );
    let me = hero(&mut app, v(0.0, 30.0), KinematicCharacter::default());
    for _ in 0..20 {
        tick(&mut app);
    }
    let before = place(&app, me);
    for _ in 0..20 {
        tick(&mut app);
    }
    let after = place(&app, me);
    assert!(!state(&app, me).grounded, "60° is not ground");
    assert!(
        after.x > before.x + 1.0 && after.y < before.y - 1.0,
        "slides down: {before} {after}"
    );
}

/// Walking into a 60° ramp (steeper than the default `max_slope` of 45°) under gravity, it
/// never gains height, whatever shape the ramp is part of: a convex polygon, a concave
/// polygon, a polyline.
#[test]
fn never_climbs_a_face_steeper_than_max_slope() {
    let t60 = 60f32.to_radians().tan();
    // The ramp's foot at x = 20 on a floor at y = 0, rising to the right.
    let ramp = [v(20.0, 0.0), v(120.0, 0.0), v(120.0, 100.0 * t60)];
    let concave = [
        v(-200.0, -20.0),
        v(300.0, -20.0),
        v(300.0, 100.0 * t60),
        v(120.0, 100.0 * t60),
        v(20.0, 0.0),
        v(-200.0, 0.0),
    ];
    let shapes = [
        (
            "a convex polygon",
            Collider::convex_polygon(&ramp).unwrap(),
            true,
        ),
        (
            "a concave polygon",
            Collider::polygon(&concave).unwrap(),
            false,
        ),
        (
            "a polyline",
            Collider::polyline(&[v(-200.0, 0.0), v(20.0, 0.0), v(120.0, 100.0 * t60)]).unwrap(),
            false,
        ),
    ];
    for (name, shape, needs_floor) in shapes {
        let mut app = world();
        solid(&mut app, shape, Vec2::ZERO);
        if needs_floor {
            solid(&mut app, Collider::aabb(v(110.0, 10.0)), v(-90.0, -10.0));
        }
        let skin = KinematicCharacter::default().skin;
        let me = hero(&mut app, v(0.0, 10.0 + skin), KinematicCharacter::default());
        let mut highest = f32::MIN;
        for k in 0..120 {
            let vy = app.world().get::<Velocity>(me).unwrap().0.y;
            set_velocity(&mut app, me, v(150.0, vy));
            tick(&mut app);
            let at = place(&app, me);
            if k > 10 {
                assert!(
                    at.y <= highest.max(10.0 + skin) + 1e-3,
                    "{name}: tick {k} climbed to {at}"
                );
            }
            highest = highest.max(at.y);
        }
        assert!(place(&app, me).x > 10.0, "{name}: it walked to the ramp");
    }
}

/// Spawned standing on a moving platform, it is carried from its first tick.
#[test]
fn a_platform_carries_it_from_the_first_tick() {
    let mut app = world();
    let skin = KinematicCharacter::default().skin;
    let me = hero(&mut app, v(0.0, 12.0 + skin), KinematicCharacter::default());
    let platform = app
        .world_mut()
        .spawn((
            Collider::aabb(v(40.0, 2.0)),
            Transform::from_xyz(0.0, 0.0, 0.0),
            Velocity(v(100.0, 0.0)),
        ))
        .id();
    for k in 1..=10 {
        tick(&mut app);
        let (p, q) = (place(&app, me), place(&app, platform));
        assert_close(p.x - q.x, 0.0, 1e-3, &format!("tick {k}: carried along"));
    }
}

/// Walking into a wall it stops there and stays, without jitter, in the corner of the floor
/// and the wall.
#[test]
fn rests_in_a_corner() {
    let mut app = world();
    let me = hero(&mut app, v(0.0, 12.0), KinematicCharacter::default());
    solid(&mut app, Collider::aabb(v(200.0, 5.0)), v(0.0, -5.0));
    solid(&mut app, Collider::aabb(v(5.0, 100.0)), v(50.0, 100.0));
    let mut places = Vec::new();
    for _ in 0..60 {
        let vy = app.world().get::<Velocity>(me).unwrap().0.y;
        set_velocity(&mut app, me, v(500.0, vy));
        tick(&mut app);
        places.push(place(&app, me));
    }
    let skin = KinematicCharacter::default().skin;
    let last = places[places.len() - 20..].to_vec();
    for p in &last {
        assert_vec_close(*p, last[0], 1e-4, "no jitter in the corner");
    }
    assert_close(last[0].x, 45.0 - 4.0 - skin, 1e-2, "skin from the wall");
    assert!(state(&app, me).grounded && state(&app, me).on_wall);
}

/// With a step height it walks up a ledge lower than it; without, it is stopped.
#[test]
fn steps_up_low_ledges_only() {
    for (step_height, climbs) in [(0.0, false), (6.0, true)] {
        let mut app = world();
        let me = hero(
            &mut app,
            v(0.0, 11.0),
            KinematicCharacter {
                step_height,
                ..default()
            },
        );
        solid(&mut app, Collider::aabb(v(200.0, 5.0)), v(0.0, -5.0));
        // A ledge 4 units high from x = 30 on.
        solid(&mut app, Collider::aabb(v(100.0, 2.0)), v(130.0, 2.0));
        for _ in 0..60 {
            let vy = app.world().get::<Velocity>(me).unwrap().0.y;
            set_velocity(&mut app, me, v(200.0, vy));
            tick(&mut app);
        }
        let p = place(&app, me);
        if climbs {
            assert!(p.x > 60.0 && p.y > 13.9, "stepped up: {p}");
            assert!(state(&app, me).grounded);
        } else {
            assert!(p.x < 30.0, "stopped at the ledge: {p}");
        }
    }
}

/// Standing on a moving platform it moves with it, and stays on it.
#[test]
fn rides_a_moving_platform() {
    let mut app = world();
    let me = hero(&mut app, v(0.0, 12.0), KinematicCharacter::default());
    let platform = app
        .world_mut()
        .spawn((
            Collider::aabb(v(40.0, 2.0)),
            Transform::from_xyz(0.0, 0.0, 0.0),
            Velocity(v(64.0, 32.0)),
        ))
        .id();
    // It lands on it in the first ticks, then rides.
    for _ in 0..8 {
        tick(&mut app);
    }
    let start = place(&app, me) - place(&app, platform);
    for _ in 0..64 {
        tick(&mut app);
        assert!(state(&app, me).grounded, "on it");
    }
    let (p, q) = (place(&app, me), place(&app, platform));
    assert_close(p.x - q.x, start.x, 1e-2, "moved along with it");
    assert_close(
        p.y - q.y,
        2.0 + 10.0 + KinematicCharacter::default().skin,
        0.05,
        "on top",
    );
}

/// Spawned inside a box, it is pushed out the shortest way, not thrown.
#[test]
fn spawned_inside_is_pushed_out_the_shortest_way() {
    let mut app = world();
    // Its bottom 3 units into a floor whose top is at 0.
    let me = hero(&mut app, v(0.0, 7.0), KinematicCharacter::default());
    solid(&mut app, Collider::aabb(v(200.0, 5.0)), v(0.0, -5.0));
    for _ in 0..3 {
        tick(&mut app);
    }
    let p = place(&app, me);
    assert_close(p.x, 0.0, 1e-3, "straight up");
    assert!((10.0..10.5).contains(&p.y), "out, on the floor: {p}");
    assert!(state(&app, me).grounded);
}

/// Two walls that close in on it never throw it away or fail a tick.
#[test]
fn a_crusher_never_throws_it() {
    let mut app = world();
    let me = hero(&mut app, v(0.0, 12.0), KinematicCharacter::default());
    solid(&mut app, Collider::aabb(v(200.0, 5.0)), v(0.0, -5.0));
    for (x, vx) in [(-20.0, 100.0), (20.0, -100.0)] {
        app.world_mut().spawn((
            Collider::aabb(v(5.0, 30.0)),
            Transform::from_xyz(x, 30.0, 0.0),
            Velocity(v(vx, 0.0)),
        ));
    }
    for _ in 0..30 {
        tick(&mut app);
        let p = place(&app, me);
        assert!(p.is_finite() && p.length() < 100.0, "thrown to {p}");
    }
}

/// Unusable settings are replaced by the defaults.
#[test]
fn bad_settings_fall_back_to_the_defaults() {
    let mut app = world();
    let me = hero(
        &mut app,
        v(0.0, 30.0),
        KinematicCharacter {
            skin: f32::NAN,
            max_slope: 3.0,
            ..default()
        },
    );
    solid(&mut app, Collider::aabb(v(200.0, 5.0)), v(0.0, -5.0));
    for _ in 0..40 {
        tick(&mut app);
    }
    assert!(state(&app, me).grounded);
    assert_close(
        place(&app, me).y,
        10.0 + KinematicCharacter::DEFAULT_SKIN,
        1e-3,
        "default skin",
    );
}

/// `move_and_slide`: a capsule pressed into a wall slides along it, keeps the skin, and
/// stops in a corner; a shape inside something is pushed out first.
#[test]
fn move_and_slide_slides_and_keeps_the_skin() {
    let mut app = app();
    let wall = solid(&mut app, Collider::aabb(v(5.0, 100.0)), v(15.0, 0.0));
    solid(&mut app, Collider::aabb(v(100.0, 5.0)), v(0.0, 55.0));
    tick(&mut app);
    let shape = Collider::circle(4.0);
    let config = MoveAndSlideConfig::default();
    let out = with_query(&mut app, |q| {
        q.move_and_slide(
            &shape,
            Isometry2d::from_translation(v(0.0, 0.0)),
            v(20.0, 20.0),
            &config,
            &QueryFilter::default(),
        )
    });
    assert_eq!(out.hits[0].entity, wall);
    assert_vec_close(out.hits[0].normal, v(-1.0, 0.0), 1e-5, "the wall's normal");
    assert_close(
        out.translation.x,
        10.0 - 4.0 - config.skin,
        1e-3,
        "skin from the wall",
    );
    assert_close(out.translation.y, 20.0, 1e-3, "slid the whole way up");
    // Into the corner of the wall and the ceiling (its bottom at y = 50).
    let out = with_query(&mut app, |q| {
        q.move_and_slide(
            &shape,
            Isometry2d::from_translation(v(0.0, 0.0)),
            v(100.0, 100.0),
            &config,
            &QueryFilter::default(),
        )
    });
    assert_vec_close(
        out.translation,
        v(6.0 - config.skin, 46.0 - config.skin),
        1e-3,
        "in the corner",
    );
    assert_eq!(out.clip_velocity(v(3.0, 5.0)), Vec2::ZERO);
    // Starting 2 units inside the wall: pushed out to the left, then moves.
    let out = with_query(&mut app, |q| {
        q.move_and_slide(
            &shape,
            Isometry2d::from_translation(v(8.0, 0.0)),
            v(0.0, -10.0),
            &config,
            &QueryFilter::default(),
        )
    });
    assert!(
        (out.pushed.x + 2.0).abs() < 1e-3 && out.pushed.y == 0.0,
        "{out:?}"
    );
    assert_close(out.translation.y, -10.0, 1e-4, "then moved");
}

/// `cast_shape_with`: a shape resting on a floor moves along it or off it, but not into it;
/// sensors and responders are left out with `blocking_only`.
#[test]
fn casts_can_leave_what_they_touch() {
    let mut app = app();
    let floor = solid(&mut app, Collider::aabb(v(100.0, 5.0)), v(0.0, -5.0));
    app.world_mut().spawn((
        Collider::aabb(v(2.0, 20.0)),
        Transform::from_xyz(20.0, 10.0, 0.0),
        Sensor,
    ));
    tick(&mut app);
    let ball = Collider::circle(1.0);
    let from = Isometry2d::from_translation(v(0.0, 1.0));
    let cast = |app: &mut App, to: Vec2, options: CastOptions| {
        with_query(app, |q| {
            q.cast_shape_with(
                &ball,
                from,
                Isometry2d::from_translation(to),
                &options,
                &QueryFilter::default(),
            )
        })
    };
    let leaving = CastOptions {
        ignore_touching_leaving: true,
        blocking_only: false,
    };
    let plain = cast(&mut app, v(10.0, 1.0), CastOptions::default()).unwrap();
    assert_eq!(
        (plain.entity, plain.time),
        (floor, 0.0),
        "a plain cast hits at once"
    );
    assert!(
        cast(&mut app, v(10.0, 1.0), leaving).is_none(),
        "along the floor"
    );
    assert!(
        cast(&mut app, v(0.0, 9.0), leaving).is_none(),
        "off the floor"
    );
    assert_eq!(
        cast(&mut app, v(3.0, -1.0), leaving).map(|h| h.time),
        Some(0.0),
        "into it"
    );
    // Through the sensor: hit without `blocking_only`, not with it.
    assert!(cast(&mut app, v(30.0, 1.0), leaving).is_some());
    let blocking = CastOptions {
        ignore_touching_leaving: true,
        blocking_only: true,
    };
    assert!(cast(&mut app, v(30.0, 1.0), blocking).is_none());
    // The penetration query.
    let p = with_query(&mut app, |q| {
        q.penetration(
            &ball,
            Isometry2d::from_translation(v(0.0, 0.5)),
            &QueryFilter::default(),
        )
    })
    .unwrap();
    assert_eq!(p.entity, floor);
    assert_close(p.depth, 0.5, 1e-5, "depth");
    assert_vec_close(p.direction, v(0.0, 1.0), 1e-5, "direction");
}
