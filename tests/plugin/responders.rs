//! Colliders that answer hits: bounce, slide, stop, sensors and one-way platforms, in
//! headless Apps (checked against hand-worked positions and times).

use crate::common::*;
use bevy::prelude::*;
use bevy_sweep::prelude::*;

fn spawn_box(app: &mut App, center: Vec2, half: Vec2) -> Entity {
    app.world_mut()
        .spawn((
            Collider::aabb(half),
            Transform::from_translation(center.extend(0.0)),
        ))
        .id()
}

/// A ball of radius 1 at `at` with `velocity`, answering hits with `response`.
fn ball(app: &mut App, at: Vec2, velocity: Vec2, response: Response) -> Entity {
    app.world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_translation(at.extend(0.0)),
            Velocity(velocity),
            response,
        ))
        .id()
}

/// An elastic bounce.
const BOUNCE: Response = Response::Bounce { restitution: 1.0 };

fn place(app: &App, entity: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(entity)
        .unwrap()
        .translation
        .truncate()
}

fn velocity(app: &App, entity: Entity) -> Vec2 {
    app.world().get::<Velocity>(entity).unwrap().0
}

/// A ball at 10⁶ units/s between two walls 1 unit thick: it bounces where the walls are
/// (about 16 times a tick), ends each tick where the unfolded straight line says, and never
/// leaves.
#[test]
fn a_fast_ball_bounces_between_walls_and_never_leaves() {
    let mut app = app();
    let speed = 1.0e6;
    let ball = ball(&mut app, Vec2::ZERO, v(speed, 0.0), BOUNCE);
    let walls = [
        spawn_box(&mut app, v(-500.5, 0.0), v(0.5, 50.0)),
        spawn_box(&mut app, v(500.5, 0.0), v(0.5, 50.0)),
    ];
    // The ball's centre lives in [-499, 499].
    let (mut position, mut heading) = (0.0_f64, 1.0_f64);
    for _ in 0..20 {
        let events = tick(&mut app);
        let mut to_go = f64::from(speed) * f64::from(TICK);
        let mut bounces = 0;
        while to_go > 0.0 {
            let room = (499.0 * heading - position) * heading;
            if room >= to_go {
                position += heading * to_go;
                to_go = 0.0;
            } else {
                (position, heading) = (499.0 * heading, -heading);
                to_go -= room;
                bounces += 1;
            }
        }
        let x = place(&app, ball).x;
        assert!(x.abs() <= 499.0 + 1e-3, "the ball left the walls: {x}");
        assert_close(x, position as f32, 0.05, "where the ball ends the tick");
        assert_close(
            velocity(&app, ball).x,
            speed * heading as f32,
            1.0,
            "its velocity",
        );
        let crossed = events
            .iter()
            .filter(|e| e.kind == CollisionKind::Crossed && walls.contains(&e.other))
            .count()
            + events
                .iter()
                .filter(|e| e.kind == CollisionKind::Crossed && walls.contains(&e.entity))
                .count();
        assert_eq!(crossed, bounces, "one instant contact per bounce");
    }
}

/// The bounce happens at the exact moment and place, with the mirrored velocity.
#[test]
fn a_bounce_is_at_the_moment_of_contact() {
    let mut app = app();
    // 640 units/s: 10 units a tick. The wall's face is at x = 5, the ball's radius 1: contact
    // at x = 4, 0.4 of the tick in; it then goes back 6 units to x = -2.
    let ball = ball(&mut app, Vec2::ZERO, v(640.0, 0.0), BOUNCE);
    let wall = spawn_box(&mut app, v(6.0, 0.0), v(1.0, 10.0));
    let events = tick(&mut app);
    assert_vec_close(place(&app, ball), v(-2.0, 0.0), 1e-3, "where the ball ends");
    assert_vec_close(velocity(&app, ball), v(-640.0, 0.0), 1e-2, "its velocity");
    let hit: Vec<_> = events
        .iter()
        .filter(|e| e.entity == ball || e.other == ball)
        .map(|e| seen_from(e, ball))
        .collect();
    assert_eq!(hit.len(), 1, "{hit:?}");
    assert_eq!(hit[0].kind, CollisionKind::Crossed);
    assert_eq!(hit[0].other, wall);
    assert_close(hit[0].time_of_impact, 0.4, 1e-4, "the moment of the bounce");
    assert_vec_close(hit[0].point, v(5.0, 0.0), 1e-3, "the place of the bounce");
    assert_vec_close(
        hit[0].normal,
        v(-1.0, 0.0),
        1e-5,
        "the normal, towards the ball",
    );
}

/// A restitution of one half keeps half the normal speed.
#[test]
fn restitution_scales_the_normal_speed() {
    let mut app = app();
    let ball = ball(
        &mut app,
        Vec2::ZERO,
        v(640.0, 64.0),
        Response::Bounce { restitution: 0.5 },
    );
    spawn_box(&mut app, v(6.0, 0.0), v(1.0, 100.0));
    tick(&mut app);
    assert_vec_close(velocity(&app, ball), v(-320.0, 64.0), 1e-2, "velocity");
    // 0.4 of the tick to the wall (x = 4), then 0.6 at -320/s: 4 - 3 = 1.
    assert_vec_close(place(&app, ball), v(1.0, 1.0), 1e-3, "place");
}

/// Sliding along a floor under gravity: started once, never ended, no speed into the floor.
#[test]
fn a_slider_keeps_to_the_floor() {
    let mut app = app();
    let slider = ball(&mut app, v(0.0, 1.5), v(100.0, -64.0), Response::Slide);
    let floor = spawn_box(&mut app, v(0.0, -1.0), v(1000.0, 1.0));
    let mut kinds = Vec::new();
    for _ in 0..10 {
        for e in tick(&mut app) {
            if e.entity == slider || e.other == slider {
                kinds.push((e.kind, e.entity == floor || e.other == floor));
            }
        }
        // Gravity, as a game adds it.
        app.world_mut().get_mut::<Velocity>(slider).unwrap().0.y -= 64.0;
    }
    assert_eq!(
        kinds,
        vec![(CollisionKind::Started, true)],
        "one contact that lasts"
    );
    let p = place(&app, slider);
    assert_close(p.y, 1.0, 1e-3, "resting on the floor");
    // 0.5 units of the first tick's 1 unit down were falling: x moved 1.5625 units a tick.
    assert_close(p.x, 100.0 * TICK * 10.0, 1e-2, "slid at full speed");
}

/// Stop: the responder stays at the contact, and its velocity is zero.
#[test]
fn a_stopper_stays_at_the_contact() {
    let mut app = app();
    let dart = app
        .world_mut()
        .spawn((Collider::point(), Velocity(v(640.0, 0.0)), Response::Stop))
        .id();
    spawn_box(&mut app, v(6.0, 0.0), v(1.0, 10.0));
    tick(&mut app);
    assert_vec_close(place(&app, dart), v(5.0, 0.0), 1e-3, "at the wall's face");
    assert_eq!(velocity(&app, dart), Vec2::ZERO);
    tick(&mut app);
    assert_vec_close(place(&app, dart), v(5.0, 0.0), 1e-3, "still there");
}

/// A sensor never blocks; it sees the real, bounced path, not the straight one.
#[test]
fn sensors_see_the_real_path_and_never_block() {
    let mut app = app();
    let ball = ball(&mut app, Vec2::ZERO, v(640.0, 0.0), BOUNCE);
    // A sensor on the way, one behind the wall (on the straight path only), one on the
    // way back.
    let on_the_way = app
        .world_mut()
        .spawn((
            Collider::aabb(v(0.5, 5.0)),
            Transform::from_xyz(2.0, 0.0, 0.0),
            Sensor,
        ))
        .id();
    let behind = app
        .world_mut()
        .spawn((
            Collider::aabb(v(0.5, 5.0)),
            Transform::from_xyz(9.0, 0.0, 0.0),
            Sensor,
        ))
        .id();
    spawn_box(&mut app, v(6.0, 0.0), v(1.0, 10.0));
    let events = tick(&mut app);
    let with = |other: Entity| {
        events
            .iter()
            .filter(|e| {
                (e.entity, e.other) == (ball, other) || (e.other, e.entity) == (ball, other)
            })
            .map(|e| seen_from(e, ball))
            .collect::<Vec<_>>()
    };
    assert!(
        with(behind).is_empty(),
        "the straight path is not swept: {:?}",
        with(behind)
    );
    // The ball (radius 1) overlaps the sensor [1.5, 2.5] from x = 0.5 to 3.5 on the way and
    // on the way back: in at 0.05 of the tick, out at 0.35, in again at 0.45, out at 0.75.
    let seen = with(on_the_way);
    let kinds: Vec<_> = seen
        .iter()
        .map(|e| (e.kind, (e.time_of_impact * 100.0).round()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (CollisionKind::Started, 5.0),
            (CollisionKind::Ended, 35.0),
            (CollisionKind::Started, 45.0),
            (CollisionKind::Ended, 75.0),
        ]
    );
    assert_vec_close(
        place(&app, ball),
        v(-2.0, 0.0),
        1e-3,
        "it bounced off the wall",
    );
}

/// A one-way platform lets a ball up through it and stops it coming down.
#[test]
fn one_way_platforms_block_only_from_their_side() {
    let mut app = app();
    let ball = ball(&mut app, v(0.0, -5.0), v(0.0, 640.0), Response::Slide);
    app.world_mut().spawn((
        Collider::aabb(v(10.0, 0.5)),
        Transform::from_xyz(0.0, 0.0, 0.0),
        OneWay(Dir2::Y),
    ));
    tick(&mut app);
    assert_close(place(&app, ball).y, 5.0, 1e-3, "through the platform");
    app.world_mut().get_mut::<Velocity>(ball).unwrap().0 = v(0.0, -640.0);
    tick(&mut app);
    assert_close(place(&app, ball).y, 1.5, 1e-3, "landed on it");
    assert_eq!(velocity(&app, ball), Vec2::ZERO);
}

/// A moving solid's velocity counts: a ball bounces off a rising paddle faster.
#[test]
fn a_rising_paddle_sends_the_ball_back_faster() {
    let mut app = app();
    let ball = ball(&mut app, v(0.0, 10.0), v(0.0, -640.0), BOUNCE);
    app.world_mut().spawn((
        Collider::aabb(v(10.0, 1.0)),
        Transform::from_xyz(0.0, 0.0, 0.0),
        Velocity(v(0.0, 64.0)),
    ));
    tick(&mut app);
    // Relative speed 704 down; after the bounce 704 up relative to the paddle: 768 up.
    assert_vec_close(velocity(&app, ball), v(0.0, 768.0), 0.1, "velocity");
}

/// An invalid restitution skips the collider with its reason; nothing panics.
#[test]
fn an_invalid_restitution_is_refused() {
    let mut app = app();
    let ball = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Velocity(v(10.0, 0.0)),
            Response::Bounce {
                restitution: f32::NAN,
            },
        ))
        .id();
    tick(&mut app);
    let skipped = app.world().resource::<SkippedColliders>();
    assert_eq!(skipped.reason(ball), Some(SkipReason::InvalidRestitution));
}

/// A lasting contact's place now: a ball rolling along a platform that slides under it
/// touches it where the ball is, tick after tick, while `Contacts` keeps where it started.
#[test]
fn the_current_contact_of_a_lasting_pair() {
    let mut app = app();
    let ball = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(0.0, 1.0, 0.0),
            Velocity(v(32.0, 0.0)),
        ))
        .id();
    let platform = app
        .world_mut()
        .spawn((
            Collider::aabb(v(100.0, 1.0)),
            Transform::from_xyz(0.0, -1.0, 0.0),
            Velocity(v(64.0, 0.0)),
        ))
        .id();
    for k in 1..=10 {
        tick(&mut app);
        let now = with_query(&mut app, |q| q.contact(ball, platform)).expect("touching");
        let x = 32.0 * TICK * k as f32;
        assert_vec_close(now.point, v(x, 0.0), 1e-4, "the contact under the ball");
        assert_vec_close(
            now.normal,
            v(0.0, 1.0),
            1e-6,
            "from the platform to the ball",
        );
        let flipped = with_query(&mut app, |q| q.contact(platform, ball)).unwrap();
        assert_vec_close(flipped.normal, v(0.0, -1.0), 1e-6, "the other way round");
    }
    let contacts = app.world().resource::<Contacts>();
    let started = contacts.iter().next().unwrap().started;
    assert_close(
        started.point.x,
        0.0,
        1e-4,
        "Contacts keeps where it started",
    );
    // Apart: no contact.
    app.world_mut().get_mut::<Velocity>(ball).unwrap().0 = v(0.0, 640.0);
    tick(&mut app);
    assert!(with_query(&mut app, |q| q.contact(ball, platform)).is_none());
}

/// A ball spawned inside a box is pushed out the shortest way, not thrown; moving out of a
/// box it starts in is allowed.
#[test]
fn a_ball_that_starts_inside_is_pushed_out_not_thrown() {
    let mut app = app();
    // 0.5 into the top of a box whose top is at 0, at rest.
    let stuck = ball(&mut app, v(0.0, 0.5), Vec2::ZERO, BOUNCE);
    // Half inside the box's left face, leaving it.
    let leaving = ball(&mut app, v(-20.0, -5.0), v(-64.0, 0.0), BOUNCE);
    spawn_box(&mut app, v(0.0, -10.0), v(20.0, 10.0));
    tick(&mut app);
    let p = place(&app, stuck);
    assert!((p - v(0.0, 1.0)).length() < 1e-3, "pushed straight up: {p}");
    assert_eq!(velocity(&app, stuck), Vec2::ZERO, "not thrown");
    assert_vec_close(
        place(&app, leaving),
        v(-21.0, -5.0),
        1e-3,
        "moved out freely",
    );
    assert_eq!(velocity(&app, leaving), v(-64.0, 0.0));
}

/// A slider on a long slope under gravity stays in contact: one `Started`, no flicker of
/// `Ended`/`Started` as rounding places it a hair off the slope (a sliding responder is
/// grown by 2^-18 of its coordinates for its contacts with solids).
#[test]
fn a_slider_on_a_slope_keeps_its_contact() {
    let mut app = app();
    let slope = app
        .world_mut()
        .spawn(
            Collider::polyline(&[v(-3000.0, 3000.0 * 0.577_35), v(3000.0, -3000.0 * 0.577_35)])
                .unwrap(),
        )
        .id();
    let slider = ball(&mut app, v(0.0, 5.0), v(0.0, -64.0), Response::Slide);
    let mut kinds = Vec::new();
    for _ in 0..60 {
        for e in tick(&mut app) {
            if e.entity == slider || e.other == slider {
                kinds.push(e.kind);
            }
        }
        app.world_mut().get_mut::<Velocity>(slider).unwrap().0.y -= 64.0;
    }
    assert_eq!(kinds, vec![CollisionKind::Started], "{kinds:?}");
    assert!(app.world().resource::<Contacts>().contains(slider, slope));
    // It slid far down the slope, on it.
    let p = place(&app, slider);
    assert!(p.x > 500.0, "{p}");
    assert_close(p.dot(v(0.5, 0.866_025_4)), 1.0, 1e-2, "on the slope");
}
