//! Colliders that stand still come to rest: kept in the broad phase without being swept
//! again, never paired with each other, their contacts kept, and woken by any change. (The
//! churn soak, `tests/churn.rs`, holds many of them to the exact oracle while they rest and
//! wake.)

use crate::common::*;
use bevy::prelude::*;
use bevy_sweep::prelude::*;

fn stats(app: &App) -> SweepStats {
    *app.world().resource::<SweepStats>()
}

/// Two overlapping boxes and a wall, all still.
fn still_scene(app: &mut App) -> (Entity, Entity, Entity) {
    let a = app
        .world_mut()
        .spawn((Collider::aabb(Vec2::ONE), Transform::IDENTITY))
        .id();
    let b = app
        .world_mut()
        .spawn((
            Collider::aabb(Vec2::ONE),
            Transform::from_xyz(1.5, 0.0, 0.0),
        ))
        .id();
    let wall = app
        .world_mut()
        .spawn((
            Collider::segment(Vec2::new(0.0, -10.0), Vec2::new(0.0, 10.0)),
            Transform::from_xyz(20.0, 0.0, 0.0),
        ))
        .id();
    (a, b, wall)
}

#[test]
fn still_colliders_come_to_rest_and_keep_their_contact() {
    let mut app = app();
    let (a, b, _) = still_scene(&mut app);
    // The first tick finds the overlap.
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].kind, CollisionKind::Started);
    assert_eq!(stats(&app).candidate_pairs, 1);
    // Still for two ticks: at rest, never paired again, the contact kept.
    for t in 0..10 {
        assert!(tick(&mut app).is_empty(), "tick {t}");
        let s = stats(&app);
        assert_eq!(
            (s.resting, s.colliders, s.candidate_pairs),
            (3, 3, 0),
            "tick {t}"
        );
        assert!(
            app.world().resource::<Contacts>().contains(a, b),
            "tick {t}"
        );
    }
    assert_eq!(app.world().resource::<Contacts>().len(), 1);
}

#[test]
fn a_resting_collider_that_moves_ends_its_contact_when_it_leaves() {
    let mut app = app();
    let (a, b, _) = still_scene(&mut app);
    for _ in 0..4 {
        tick(&mut app);
    }
    assert_eq!(stats(&app).resting, 3);
    let resting = |app: &App, e: Entity| app.world().get::<SweptPath>(e).unwrap().is_resting();
    assert!(resting(&app, a) && resting(&app, b));
    // `b` leaves to the right at 0.4 a tick: the boxes (half size 1, centres 1.5 apart) stop
    // touching when the centres are 2 apart, a quarter of the way through the second tick.
    app.world_mut()
        .entity_mut(b)
        .insert(Velocity(Vec2::new(0.4 / TICK, 0.0)));
    let first = tick(&mut app);
    assert!(first.is_empty(), "{first:?}");
    assert_eq!(stats(&app).resting, 2, "b woke");
    assert!(resting(&app, a) && !resting(&app, b));
    let second = tick(&mut app);
    assert_eq!(second.len(), 1, "{second:?}");
    let ended = seen_from(&second[0], b);
    assert_eq!((ended.kind, ended.other), (CollisionKind::Ended, a));
    assert_close(ended.time_of_impact, 0.25, 1e-5, "time");
    assert_vec_close(ended.normal, Vec2::X, 1e-6, "normal");
    assert!(!app.world().resource::<Contacts>().contains(a, b));
}

#[test]
fn despawning_or_relayering_a_resting_collider_ends_its_contacts() {
    for despawn in [true, false] {
        let mut app = app();
        let (a, b, _) = still_scene(&mut app);
        for _ in 0..4 {
            tick(&mut app);
        }
        if despawn {
            app.world_mut().despawn(b);
        } else {
            app.world_mut().entity_mut(b).insert(CollisionLayers::NONE);
        }
        let events = tick(&mut app);
        assert_eq!(events.len(), 1, "despawn {despawn}: {events:?}");
        let ended = seen_from(&events[0], a);
        assert_eq!(
            (ended.kind, ended.other, ended.time_of_impact),
            (CollisionKind::Ended, b, 0.0),
            "despawn {despawn}"
        );
        assert!(app.world().resource::<Contacts>().is_empty());
        assert!(tick(&mut app).is_empty(), "despawn {despawn}");
    }
}

#[test]
fn a_bullet_crosses_a_resting_wall_and_a_ray_hits_it() {
    let mut app = app();
    let (_, _, wall) = still_scene(&mut app);
    for _ in 0..4 {
        tick(&mut app);
    }
    assert_eq!(stats(&app).resting, 3);
    // At 10,000 units a second from x = 0 at y = 5: 156.25 units a tick, reaching the wall
    // (x = 20) 0.128 of the way through the tick.
    let bullet = app
        .world_mut()
        .spawn((
            Collider::point(),
            Transform::from_xyz(0.0, 5.0, 0.0),
            Velocity(Vec2::new(10_000.0, 0.0)),
        ))
        .id();
    let events = tick(&mut app);
    let crossing: Vec<CollisionEvent> = events
        .iter()
        .filter(|e| e.entity == bullet || e.other == bullet)
        .map(|e| seen_from(e, bullet))
        .collect();
    assert_eq!(crossing.len(), 1, "{events:?}");
    assert_eq!(
        (crossing[0].kind, crossing[0].other),
        (CollisionKind::Crossed, wall)
    );
    assert_close(crossing[0].time_of_impact, 20.0 / 156.25, 1e-6, "time");
    assert_eq!(stats(&app).resting, 3, "the wall rests through it");
    let mut state = bevy::ecs::system::SystemState::<SweepQuery>::new(app.world_mut());
    let query = state.get(app.world()).unwrap();
    let hit = query
        .cast_ray(
            Vec2::new(10.0, -3.0),
            Dir2::X,
            100.0,
            &QueryFilter::default(),
        )
        .expect("the ray hits the resting wall");
    assert_eq!(hit.entity, wall);
    assert_close(hit.distance, 10.0, 1e-5, "distance");
}

/// A child collider follows its parent: it never rests, so that its parent's motion is seen.
#[test]
fn child_colliders_do_not_rest() {
    let mut app = app();
    let parent = app.world_mut().spawn(Transform::IDENTITY).id();
    let child = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(5.0, 0.0, 0.0),
            ChildOf(parent),
        ))
        .id();
    let target = app
        .world_mut()
        .spawn((Collider::circle(1.0), Transform::from_xyz(5.0, 10.0, 0.0)))
        .id();
    for _ in 0..4 {
        assert!(tick(&mut app).is_empty());
    }
    assert_eq!(stats(&app).resting, 1, "only the root target rests");
    // Moving the parent moves the child onto the target.
    app.world_mut()
        .entity_mut(parent)
        .insert(Transform::from_xyz(0.0, 10.0, 0.0));
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    let started = seen_from(&events[0], child);
    assert_eq!(
        (started.kind, started.other),
        (CollisionKind::Started, target)
    );
}
