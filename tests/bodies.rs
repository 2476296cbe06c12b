//! Bodies (`Body`), transform hierarchies under them, `CollidingEntities`, and shapes built
//! from bad input. Expected values come from hand geometry, or from overlap tests of circles
//! and boxes written here in `f64`.

use bevy::ecs::entity::EntityHashSet;
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy_sweep::prelude::*;
use core::f32::consts::FRAC_PI_2;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;
use common::{TICK, app, assert_close, tick};

/// The events between `a` and `b`, seen from `a`.
fn between(events: &[CollisionEvent], a: Entity, b: Entity) -> Vec<CollisionEvent> {
    events
        .iter()
        .filter_map(|e| e.seen_from(a).filter(|e| e.other == b))
        .collect()
}

fn set(entities: &[Entity]) -> EntityHashSet {
    entities.iter().copied().collect()
}

/// The colliders `Contacts::touching` lists for `entity`, checked to be listed once each.
fn touching(app: &App, entity: Entity) -> EntityHashSet {
    let listed: Vec<Entity> = app
        .world()
        .resource::<Contacts>()
        .touching(entity)
        .collect();
    let unique = set(&listed);
    assert_eq!(
        unique.len(),
        listed.len(),
        "Contacts::touching({entity}) lists a collider twice: {listed:?}"
    );
    unique
}

fn colliding(app: &App, entity: Entity) -> EntityHashSet {
    app.world()
        .get::<CollidingEntities>(entity)
        .expect("CollidingEntities was inserted")
        .iter()
        .collect()
}

// ---------------------------------------------------------------------------------------
// 1. Bodies.

/// A capsule from x = -1.5 to 1.5 (core -1 to 1, radius 0.5) under `parent`.
fn capsule_under(world: &mut World, parent: Entity) -> Entity {
    world
        .spawn((
            Collider::capsule(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5),
            ChildOf(parent),
        ))
        .id()
}

/// A rectangle from x = 1 to 3 and y = -0.5 to 0.5 under `parent`: it overlaps the capsule
/// of [`capsule_under`] on x from 1 to 1.5.
fn rectangle_under(world: &mut World, parent: Entity) -> Entity {
    world
        .spawn((
            Collider::rectangle(Vec2::new(1.0, 0.5)),
            Transform::from_xyz(2.0, 0.0, 0.0),
            ChildOf(parent),
        ))
        .id()
}

/// A wall in no body whose left face is at x = 19.5, thick enough that nothing in these
/// tests comes out of it.
fn thick_wall(world: &mut World) -> Entity {
    world
        .spawn((
            Collider::aabb(Vec2::new(50.0, 10.0)),
            Transform::from_xyz(69.5, 0.0, 0.0),
        ))
        .id()
}

#[test]
fn colliders_of_one_body_never_collide_while_it_moves_and_turns() {
    let mut app = app();
    let world = app.world_mut();
    let motion = (Velocity(Vec2::new(40.0, -25.0)), AngularVelocity(3.0));
    let body = world.spawn((Body, Transform::default(), motion)).id();
    let capsule = capsule_under(world, body);
    let rectangle = rectangle_under(world, body);
    // The same shapes and motion, far away, but each collider in a body of its own.
    let start = Transform::from_xyz(100.0, 0.0, 0.0);
    let first = world.spawn((Body, start, motion)).id();
    let second = world.spawn((Body, start, motion)).id();
    let other_capsule = capsule_under(world, first);
    let other_rectangle = rectangle_under(world, second);

    let mut control = Vec::new();
    let mut last_path = None;
    for k in 0..40 {
        let events = tick(&mut app);
        assert!(
            between(&events, capsule, rectangle).is_empty(),
            "tick {k}: colliders of one body reported: {events:?}"
        );
        let contacts = app.world().resource::<Contacts>();
        assert!(!contacts.contains(capsule, rectangle), "tick {k}");
        assert!(touching(&app, capsule).is_empty(), "tick {k}");
        assert!(touching(&app, body).is_empty(), "tick {k}");
        control.extend(between(&events, other_capsule, other_rectangle));
        // Both colliders are swept every tick, along the body's motion.
        assert!(app.world().resource::<SkippedColliders>().is_empty());
        let path = app
            .world()
            .get::<SweptPath>(rectangle)
            .and_then(|s| s.path())
            .expect("the rectangle is swept");
        assert_ne!(Some(path), last_path, "tick {k}: the rectangle moved");
        last_path = Some(path);
    }
    // The body did move and turn: 40 ticks of its velocities.
    let transform = app.world().get::<Transform>(body).expect("transform");
    let moved = Vec2::new(40.0, -25.0) * 40.0 * TICK;
    assert!(transform.translation.truncate().distance(moved) < 1e-3);
    let (_, _, angle) = transform.rotation.to_euler(EulerRot::XYZ);
    assert_close(angle, 3.0 * 40.0 * TICK, 1e-3, "the body's angle");

    // In two bodies, the same two shapes touch from the start and go on touching.
    assert_eq!(control.len(), 1, "{control:?}");
    assert_eq!(control[0].kind, CollisionKind::Started);
    assert_eq!(control[0].time_of_impact, 0.0);
    assert_eq!(control[0].body, Some(first));
    assert_eq!(control[0].other_body, Some(second));
    assert!(
        app.world()
            .resource::<Contacts>()
            .contains(other_capsule, other_rectangle)
    );
}

#[test]
fn events_name_the_body_of_each_side() {
    let mut app = app();
    let world = app.world_mut();
    // 640 units/s: 10 units a tick.
    let body = world
        .spawn((Body, Transform::default(), Velocity(Vec2::new(640.0, 0.0))))
        .id();
    let capsule = capsule_under(world, body);
    let rectangle = rectangle_under(world, body);
    let wall = thick_wall(world);
    // Tick 1 moves the body from 0 to 10: nothing.
    let events = tick(&mut app);
    assert!(events.is_empty(), "{events:?}");
    // Tick 2, from 10 to 20: the rectangle's front (10 + 3 at the start) meets 19.5 at 0.65,
    // the capsule's (10 + 1.5) at 0.8.
    let events = tick(&mut app);
    assert_eq!(events.len(), 2, "{events:?}");
    for (collider, time) in [(rectangle, 0.65), (capsule, 0.8)] {
        let hits = between(&events, collider, wall);
        assert_eq!(hits.len(), 1, "{events:?}");
        let hit = hits[0];
        assert_eq!(hit.entity, collider);
        assert_eq!(hit.kind, CollisionKind::Started);
        assert_eq!(hit.body, Some(body), "{hit:?}");
        assert_eq!(hit.other_body, None, "{hit:?}");
        assert_close(hit.time_of_impact, time, 1e-4, "time of impact");
        assert!(hit.normal.distance(Vec2::NEG_X) < 1e-4, "{hit:?}");
        // From the wall's side, the bodies swap.
        let seen = hit.seen_from(wall).expect("about the wall");
        assert_eq!((seen.body, seen.other_body), (None, Some(body)));
    }
    assert!(between(&events, capsule, rectangle).is_empty());
}

#[test]
fn a_collider_that_is_its_own_body_names_itself() {
    let mut app = app();
    let world = app.world_mut();
    let ball = world
        .spawn((Collider::circle(1.0), Body, Velocity(Vec2::new(640.0, 0.0))))
        .id();
    // A child of the ball through its centre: same body, never reported against the ball.
    let blade = world
        .spawn((
            Collider::segment(Vec2::new(0.0, -2.0), Vec2::new(0.0, 2.0)),
            ChildOf(ball),
        ))
        .id();
    let wall = thick_wall(world);
    // A ball of another body that overlaps the blade's tip from the start.
    let other = world
        .spawn((
            Collider::circle(0.5),
            Body,
            Transform::from_xyz(0.0, 2.2, 0.0),
            Velocity(Vec2::new(640.0, 0.0)),
        ))
        .id();
    let mut events = tick(&mut app);
    events.extend(tick(&mut app));
    assert!(between(&events, ball, blade).is_empty(), "{events:?}");
    // The ball's front (x + 1) meets 19.5 in tick 2 at 0.85, the blade (x) at 0.95.
    let hit = between(&events, ball, wall);
    assert_eq!(hit.len(), 1, "{events:?}");
    assert_eq!((hit[0].body, hit[0].other_body), (Some(ball), None));
    assert_close(hit[0].time_of_impact, 0.85, 1e-4, "ball");
    let hit = between(&events, blade, wall);
    assert_eq!(hit.len(), 1, "{events:?}");
    assert_eq!((hit[0].body, hit[0].other_body), (Some(ball), None));
    assert_close(hit[0].time_of_impact, 0.95, 1e-4, "blade");
    // Two bodies: the blade and the other ball touch, each named with its own body.
    let hit = between(&events, blade, other);
    assert_eq!(hit.len(), 1, "{events:?}");
    assert_eq!(hit[0].time_of_impact, 0.0);
    assert_eq!((hit[0].body, hit[0].other_body), (Some(ball), Some(other)));
    assert!(between(&events, ball, other).is_empty(), "{events:?}");
}

// ---------------------------------------------------------------------------------------
// 2. Transform hierarchies under a body.

#[test]
fn children_of_a_turned_scaled_moving_body_hit_a_wall_on_time() {
    let mut app = app();
    let world = app.world_mut();
    // Turned a quarter turn and scaled by 2: local (x, y) lands at 2 (-y, x).
    let body = world
        .spawn((
            Body,
            Transform::from_rotation(Quat::from_rotation_z(FRAC_PI_2))
                .with_scale(Vec3::new(2.0, 2.0, 1.0)),
            Velocity(Vec2::new(640.0, 0.0)),
        ))
        .id();
    // Centre (0, -1.5) lands at (3, 0); radius 0.5 scaled to 1: front at x + 4.
    let ball = world
        .spawn((
            Collider::circle(0.5),
            Transform::from_xyz(0.0, -1.5, 0.0),
            ChildOf(body),
        ))
        .id();
    // Centre (0, 1.5) lands at (-3, 0); half extents (0.25, 0.5) become 1 across x and 0.5
    // across y: front at x - 2.
    let plank = world
        .spawn((
            Collider::rectangle(Vec2::new(0.25, 0.5)),
            Transform::from_xyz(0.0, 1.5, 0.0),
            ChildOf(body),
        ))
        .id();
    let wall = thick_wall(world);
    // The body's origin moves 0 → 10 → 20 → 30. The ball meets the face at 19.5 when the
    // origin is at 15.5 (tick 2, 0.55); the plank when it is at 21.5 (tick 3, 0.15).
    let events = tick(&mut app);
    assert!(events.is_empty(), "{events:?}");
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    let hit = between(&events, ball, wall);
    assert_eq!(hit.len(), 1, "{events:?}");
    assert_eq!(hit[0].kind, CollisionKind::Started);
    assert_close(hit[0].time_of_impact, 0.55, 1e-4, "ball");
    assert!(
        hit[0].point.distance(Vec2::new(19.5, 0.0)) < 1e-3,
        "{hit:?}"
    );
    assert!(hit[0].normal.distance(Vec2::NEG_X) < 1e-4, "{hit:?}");
    assert_eq!(hit[0].body, Some(body));
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    let hit = between(&events, plank, wall);
    assert_eq!(hit.len(), 1, "{events:?}");
    assert_close(hit[0].time_of_impact, 0.15, 1e-4, "plank");
    // The plank's front face spans y in [-0.5, 0.5] at x = 19.5.
    assert_close(hit[0].point.x, 19.5, 1e-3, "plank contact x");
    assert!(hit[0].point.y.abs() <= 0.5 + 1e-3, "{hit:?}");
    assert!(hit[0].normal.distance(Vec2::NEG_X) < 1e-4, "{hit:?}");
    assert_eq!(hit[0].body, Some(body));
}

// ---------------------------------------------------------------------------------------
// 3. CollidingEntities.

#[test]
fn colliding_entities_follow_the_contacts() {
    let mut app = app();
    let world = app.world_mut();
    let disk = world
        .spawn((Collider::circle(2.0), CollidingEntities::default()))
        .id();
    // Overlaps the disk (its left face at 1.5 < 2).
    let block = world
        .spawn((
            Collider::aabb(Vec2::ONE),
            Transform::from_xyz(2.5, 0.0, 0.0),
        ))
        .id();
    // Through the disk at y = 1.2, above the block (whose top is at y = 1).
    let line = world
        .spawn(Collider::segment(Vec2::new(-5.0, 1.2), Vec2::new(5.0, 1.2)))
        .id();
    // Outside the disk (2.5 from its centre) and off the line.
    let dot = world
        .spawn((Collider::point(), Transform::from_xyz(0.0, 2.5, 0.0)))
        .id();
    // A small disk far away, crossed by two edges of a polyline.
    let far = world
        .spawn((Collider::circle(1.0), Transform::from_xyz(10.0, 0.0, 0.0)))
        .id();
    let zigzag = world
        .spawn(
            Collider::polyline(&[
                Vec2::new(8.5, -2.0),
                Vec2::new(10.0, 0.0),
                Vec2::new(11.5, -2.0),
            ])
            .expect("finite points"),
        )
        .id();
    tick(&mut app);
    let expected = set(&[block, line]);
    assert_eq!(colliding(&app, disk), expected);
    assert_eq!(touching(&app, disk), expected);
    assert_eq!(touching(&app, block), set(&[disk]));
    assert!(touching(&app, dot).is_empty());
    // Two edges touch the far disk: one collider, listed once.
    assert_eq!(touching(&app, far), set(&[zigzag]));
    assert_eq!(touching(&app, zigzag), set(&[far]));

    // Everything rests after a few ticks; then the block and the far disk get the component.
    for _ in 0..4 {
        tick(&mut app);
    }
    assert_eq!(colliding(&app, disk), expected);
    for e in [block, far, dot] {
        app.world_mut()
            .entity_mut(e)
            .insert(CollidingEntities::default());
    }
    tick(&mut app);
    assert_eq!(colliding(&app, block), set(&[disk]));
    assert_eq!(colliding(&app, far), set(&[zigzag]));
    assert!(colliding(&app, dot).is_empty());
    assert_eq!(colliding(&app, disk), expected);

    // The line leaves: the disk keeps the block only.
    app.world_mut()
        .entity_mut(line)
        .insert((Transform::from_xyz(0.0, 20.0, 0.0), Teleport));
    tick(&mut app);
    assert_eq!(colliding(&app, disk), set(&[block]));
    assert_eq!(touching(&app, disk), set(&[block]));
    // The block leaves too: both empty.
    app.world_mut()
        .entity_mut(block)
        .insert((Transform::from_xyz(40.0, 0.0, 0.0), Teleport));
    tick(&mut app);
    assert!(colliding(&app, disk).is_empty());
    assert!(colliding(&app, block).is_empty());
    assert!(touching(&app, disk).is_empty());
    // The line comes back by moving (swept) into the disk.
    app.world_mut()
        .entity_mut(line)
        .insert(Transform::from_xyz(0.0, -1.0, 0.0));
    tick(&mut app);
    assert_eq!(colliding(&app, disk), set(&[line]));
}

#[test]
fn colliding_entities_of_a_body_gather_its_colliders_contacts() {
    let mut app = app();
    let world = app.world_mut();
    let body = world
        .spawn((
            Body,
            Transform::from_xyz(30.0, 0.0, 0.0),
            CollidingEntities::default(),
        ))
        .id();
    let round = world
        .spawn((
            Collider::circle(1.0),
            ChildOf(body),
            CollidingEntities::default(),
        ))
        .id();
    let square = world
        .spawn((
            Collider::aabb(Vec2::ONE),
            Transform::from_xyz(5.0, 0.0, 0.0),
            ChildOf(body),
        ))
        .id();
    // Touches the round part only (centres 1.5 apart, radii 1 + 1).
    let ball = world
        .spawn((Collider::circle(1.0), Transform::from_xyz(28.5, 0.0, 0.0)))
        .id();
    // Through both parts: inside the round part at (30, 0.5), ends inside the square.
    let rod = world
        .spawn(Collider::segment(
            Vec2::new(30.0, 0.5),
            Vec2::new(35.0, 0.5),
        ))
        .id();
    // Near neither.
    world.spawn((Collider::circle(1.0), Transform::from_xyz(30.0, 5.0, 0.0)));
    tick(&mut app);
    assert_eq!(colliding(&app, body), set(&[ball, rod]));
    // The rod touches two colliders of the body: listed once.
    assert_eq!(touching(&app, body), set(&[ball, rod]));
    assert_eq!(colliding(&app, round), set(&[ball, rod]));
    assert_eq!(touching(&app, rod), set(&[round, square]));
    assert_eq!(touching(&app, ball), set(&[round]));
    assert_eq!(touching(&app, square), set(&[rod]));

    // The rod leaves the round part but still touches the square: the body keeps it.
    app.world_mut()
        .entity_mut(rod)
        .insert((Transform::from_xyz(3.5, 0.0, 0.0), Teleport));
    tick(&mut app);
    assert_eq!(touching(&app, rod), set(&[square]));
    assert_eq!(colliding(&app, body), set(&[ball, rod]));
    assert_eq!(colliding(&app, round), set(&[ball]));
    // The ball leaves, then the rod.
    app.world_mut()
        .entity_mut(ball)
        .insert((Transform::from_xyz(0.0, 0.0, 0.0), Teleport));
    tick(&mut app);
    assert_eq!(colliding(&app, body), set(&[rod]));
    app.world_mut()
        .entity_mut(rod)
        .insert((Transform::from_xyz(0.0, 30.0, 0.0), Teleport));
    tick(&mut app);
    assert!(colliding(&app, body).is_empty());
    assert!(colliding(&app, round).is_empty());
    assert!(touching(&app, body).is_empty());
}

/// A circle or an axis-aligned box, in `f64`.
#[derive(Clone, Copy, Debug)]
enum Round {
    Disk(DVec2, f64),
    Box(DVec2, DVec2),
}

impl Round {
    /// Distance from `p` to the shape's core (its centre, or the box) minus its radius.
    fn gap_to_point(self, p: DVec2, grow: f64) -> f64 {
        match self {
            Round::Disk(c, r) => (p - c).length() - r - grow,
            Round::Box(c, h) => {
                let d = (p - c).abs() - h;
                let outside = d.max(DVec2::ZERO).length();
                let inside = d.x.max(d.y).min(0.0);
                outside + inside - grow
            }
        }
    }

    /// Signed gap between two shapes: `< 0` overlap, `> 0` apart.
    fn gap(self, other: Round) -> f64 {
        match (self, other) {
            (Round::Disk(c, r), s) | (s, Round::Disk(c, r)) => s.gap_to_point(c, r),
            (Round::Box(c, h), Round::Box(d, k)) => {
                let e = (c - d).abs() - h - k;
                if e.x > 0.0 || e.y > 0.0 {
                    e.max(DVec2::ZERO).length()
                } else {
                    e.x.max(e.y)
                }
            }
        }
    }
}

/// Random disks and boxes with no two within `1e-3` of touching.
fn random_rounds(rng: &mut ChaCha8Rng, count: usize) -> Vec<Round> {
    loop {
        let rounds: Vec<Round> = (0..count)
            .map(|_| {
                let c = DVec2::new(rng.random_range(-10.0..10.0), rng.random_range(-10.0..10.0));
                if rng.random_bool(0.5) {
                    Round::Disk(c, rng.random_range(0.5..3.0))
                } else {
                    Round::Box(
                        c,
                        DVec2::new(rng.random_range(0.3..3.0), rng.random_range(0.3..3.0)),
                    )
                }
            })
            .map(|r| match r {
                // Exact in f32.
                Round::Disk(c, r) => Round::Disk(c.as_vec2().as_dvec2(), r as f32 as f64),
                Round::Box(c, h) => Round::Box(c.as_vec2().as_dvec2(), h.as_vec2().as_dvec2()),
            })
            .collect();
        let clear = (0..count).all(|i| (0..i).all(|j| rounds[i].gap(rounds[j]).abs() > 1e-3));
        if clear {
            return rounds;
        }
    }
}

fn place(round: Round) -> (Collider, Transform) {
    match round {
        Round::Disk(c, r) => (
            Collider::circle(r as f32),
            Transform::from_translation(c.as_vec2().extend(0.0)),
        ),
        Round::Box(c, h) => (
            Collider::aabb(h.as_vec2()),
            Transform::from_translation(c.as_vec2().extend(0.0)),
        ),
    }
}

#[test]
fn colliding_entities_match_hand_geometry_in_random_scenes() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xB0D1E5);
    let mut overlaps_seen = 0;
    for _ in 0..6 {
        let mut app = app();
        let count = 14;
        let mut rounds = random_rounds(&mut rng, count);
        let entities: Vec<Entity> = rounds
            .iter()
            .map(|&r| {
                app.world_mut()
                    .spawn((place(r), CollidingEntities::default()))
                    .id()
            })
            .collect();
        for round in 0..5 {
            tick(&mut app);
            for i in 0..count {
                let expected: EntityHashSet = (0..count)
                    .filter(|&j| j != i && rounds[i].gap(rounds[j]) < 0.0)
                    .map(|j| entities[j])
                    .collect();
                overlaps_seen += expected.len();
                assert_eq!(
                    colliding(&app, entities[i]),
                    expected,
                    "round {round}, collider {i}: {:?}",
                    rounds[i]
                );
                assert_eq!(touching(&app, entities[i]), expected, "round {round}");
            }
            // Jump about half of them to new places.
            let new_places = random_rounds(&mut rng, count);
            let mut next = rounds.clone();
            for i in 0..count {
                if rng.random_bool(0.5) {
                    next[i] = new_places[i];
                }
            }
            // Keep the scene clear of near touches.
            let clear = (0..count).all(|i| (0..i).all(|j| next[i].gap(next[j]).abs() > 1e-3));
            if !clear {
                continue;
            }
            for i in 0..count {
                app.world_mut()
                    .entity_mut(entities[i])
                    .insert((place(next[i]), Teleport));
            }
            rounds = next;
        }
    }
    assert!(
        overlaps_seen > 50,
        "too few overlaps to test: {overlaps_seen}"
    );
}

// ---------------------------------------------------------------------------------------
// 4. Bad input.

#[test]
fn convex_polygon_refuses_what_is_not_strictly_convex() {
    let v = Vec2::new;
    let refused: [(&str, Vec<Vec2>); 12] = [
        ("no point", vec![]),
        ("one point", vec![v(0.0, 0.0)]),
        ("two points", vec![v(0.0, 0.0), v(1.0, 0.0)]),
        ("collinear", vec![v(0.0, 0.0), v(1.0, 1.0), v(3.0, 3.0)]),
        (
            "a point on an edge",
            vec![v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(1.0, 2.0)],
        ),
        (
            "a repeated point",
            vec![v(0.0, 0.0), v(2.0, 0.0), v(2.0, 0.0), v(0.0, 2.0)],
        ),
        (
            "a repeated first point",
            vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 2.0), v(0.0, 0.0)],
        ),
        (
            "a dart",
            vec![v(0.0, 0.0), v(4.0, 0.0), v(1.0, 1.0), v(0.0, 4.0)],
        ),
        (
            "a pentagram",
            [0, 2, 4, 1, 3]
                .map(|k| Vec2::from_angle(k as f32 * 0.4 * core::f32::consts::PI))
                .to_vec(),
        ),
        ("NaN", vec![v(0.0, 0.0), v(1.0, 0.0), v(f32::NAN, 1.0)]),
        (
            "infinity",
            vec![v(0.0, 0.0), v(1.0, 0.0), v(0.0, f32::INFINITY)],
        ),
        (
            "nine points",
            (0..9)
                .map(|k| Vec2::from_angle(k as f32 * 2.0 * core::f32::consts::PI / 9.0))
                .collect(),
        ),
    ];
    for (what, points) in refused {
        assert!(
            Collider::convex_polygon(&points).is_none(),
            "{what}: {points:?}"
        );
    }
    let square = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
    let mut clockwise = square;
    clockwise.reverse();
    let octagon: Vec<Vec2> = (0..8)
        .map(|k| Vec2::from_angle(k as f32 * core::f32::consts::FRAC_PI_4) * 3.0)
        .collect();
    for points in [&square[..], &clockwise[..], &octagon[..]] {
        let polygon = Collider::convex_polygon(points).expect("convex");
        assert!(polygon.problem().is_none(), "{points:?}");
    }
    // A pentagon in convex order is accepted where the pentagram is not.
    let pentagon: Vec<Vec2> = (0..5)
        .map(|k| Vec2::from_angle(k as f32 * 0.4 * core::f32::consts::PI))
        .collect();
    assert!(Collider::convex_polygon(&pentagon).is_some());

    assert!(Collider::polyline(&[]).is_none());
    assert!(Collider::polyline(&[v(1.0, 2.0)]).is_none());
    assert!(Collider::polyline(&[v(0.0, 0.0), v(f32::NAN, 1.0)]).is_none());
    assert!(Collider::polyline(&[v(0.0, 0.0), v(1.0, 1.0), v(2.0, f32::NAN)]).is_none());
    assert!(Collider::polyline(&[v(f32::NEG_INFINITY, 0.0), v(1.0, 1.0)]).is_none());
    assert!(Collider::polyline(&[v(0.0, 0.0), v(1.0, 1.0)]).is_some());
}

#[test]
fn unusable_shapes_are_skipped_with_a_reason_and_the_rest_works() {
    let mut app = app();
    let world = app.world_mut();
    let bad: Vec<(Entity, SkipReason)> = [
        (
            Collider::capsule(Vec2::ZERO, Vec2::X, 0.0),
            SkipReason::NonPositiveSize,
        ),
        (
            Collider::capsule(Vec2::ZERO, Vec2::X, f32::NAN),
            SkipReason::NonPositiveSize,
        ),
        (
            Collider::capsule(Vec2::ZERO, Vec2::X, -1.0),
            SkipReason::NonPositiveSize,
        ),
        (
            Collider::rectangle(Vec2::new(0.0, 1.0)),
            SkipReason::NonPositiveSize,
        ),
        (
            Collider::rectangle(Vec2::new(1.0, -1.0)),
            SkipReason::NonPositiveSize,
        ),
        (
            Collider::polyline(&[Vec2::ONE, Vec2::ONE, Vec2::ONE]).expect("finite"),
            SkipReason::NoEdge,
        ),
        (
            common::unchecked_convex_polygon(vec![Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)]),
            SkipReason::NotConvex,
        ),
    ]
    .into_iter()
    .map(|(collider, name)| {
        // Each moves through a disk at the origin.
        let e = world
            .spawn((
                collider,
                Transform::from_xyz(-3.0, 0.0, 0.0),
                Velocity(Vec2::new(64.0 * 6.0, 0.0)),
            ))
            .id();
        (e, name)
    })
    .collect();
    let disk = world.spawn(Collider::circle(1.0)).id();
    // A good pair beside them: a ball passes into a wall in the first tick.
    let ball = world
        .spawn((
            Collider::circle(0.5),
            Transform::from_xyz(0.0, 10.0, 0.0),
            Velocity(Vec2::new(64.0 * 4.0, 0.0)),
        ))
        .id();
    let wall = world
        .spawn(Collider::segment(Vec2::new(2.5, 8.0), Vec2::new(2.5, 12.0)))
        .id();
    for k in 0..3 {
        let events = tick(&mut app);
        let skipped = app.world().resource::<SkippedColliders>();
        for &(e, reason) in &bad {
            assert_eq!(skipped.reason(e), Some(reason), "{e}");
            assert!(
                events.iter().all(|ev| ev.entity != e && ev.other != e),
                "{events:?}"
            );
        }
        assert_eq!(
            skipped.len(),
            bad.len(),
            "{:?}",
            skipped.iter().collect::<Vec<_>>()
        );
        assert!(skipped.reason(disk).is_none() && skipped.reason(ball).is_none());
        // The ball (front at 0.5 + 4t) meets the wall at x = 2.5 half-way through tick 1.
        if k == 0 {
            let mut hit = between(&events, ball, wall);
            hit.retain(|e| e.kind == CollisionKind::Started);
            assert_eq!(hit.len(), 1, "{events:?}");
            assert_close(hit[0].time_of_impact, 0.5, 1e-4, "ball");
        }
    }
}

#[test]
fn a_polyline_with_repeated_points_collides_on_its_other_edges() {
    let mut app = app();
    let world = app.world_mut();
    let v = Vec2::new;
    let line = world
        .spawn(
            Collider::polyline(&[
                v(-5.0, 0.0),
                v(-5.0, 0.0),
                v(0.0, 0.0),
                v(0.0, 0.0),
                v(5.0, 0.0),
                v(5.0, 0.0),
            ])
            .expect("finite points"),
        )
        .id();
    // Two points fall through y = 0, at x = -2.5 (edge 1) and 2.5 (edge 3), 2 units a tick
    // from y = 1: half-way through the first tick. A third falls at x = 7, past the end.
    let fall = Velocity(Vec2::new(0.0, -128.0));
    let dots: Vec<Entity> = [-2.5, 2.5, 7.0]
        .map(|x| {
            world
                .spawn((Collider::point(), Transform::from_xyz(x, 1.0, 0.0), fall))
                .id()
        })
        .to_vec();
    let events = tick(&mut app);
    assert!(app.world().resource::<SkippedColliders>().is_empty());
    for &dot in &dots[..2] {
        let hit = between(&events, dot, line);
        assert_eq!(hit.len(), 1, "{events:?}");
        assert_eq!(hit[0].kind, CollisionKind::Crossed);
        assert_close(hit[0].time_of_impact, 0.5, 1e-4, "crossing");
        assert!(hit[0].point.y.abs() < 1e-4, "{hit:?}");
    }
    assert!(between(&events, dots[2], line).is_empty(), "{events:?}");
    assert_eq!(events.len(), 2, "{events:?}");
}
