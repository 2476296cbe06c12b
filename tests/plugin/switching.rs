//! Named layers, `ColliderDisabled`, filters that know bodies, and what the queries see of a
//! collider spawned since the last tick.

use crate::common::{app, seen_from, tick, v, with_query};
use bevy::math::Isometry2d;
use bevy::prelude::*;
use bevy_sweep::prelude::*;

#[derive(CollisionLayer)]
enum Layer {
    Player,
    Ground,
    Enemy,
    Bullet,
}

#[test]
fn a_derived_layer_is_one_bit_per_variant_in_order() {
    assert_eq!(
        [Layer::Player, Layer::Ground, Layer::Enemy, Layer::Bullet].map(|l| l.to_bits()),
        [0b0001, 0b0010, 0b0100, 0b1000]
    );
    assert_eq!(Layer::all_bits(), 0b1111);
    assert_eq!(
        CollisionLayers::new(Layer::Player, [Layer::Ground, Layer::Enemy]),
        CollisionLayers::from_bits(0b0001, 0b0110)
    );
    assert_eq!(
        CollisionLayers::new(0b0001, 0b0110),
        CollisionLayers::from_bits(0b0001, 0b0110),
        "raw masks still work"
    );
    assert_eq!(
        LayerMask::from([Layer::Ground]) | LayerMask::from(Layer::Bullet),
        LayerMask(0b1010)
    );

    // 32 variants fill the mask.
    #[derive(CollisionLayer)]
    #[rustfmt::skip]
    enum Many {
        L0, L1, L2, L3, L4, L5, L6, L7, L8, L9, L10, L11, L12, L13, L14, L15,
        L16, L17, L18, L19, L20, L21, L22, L23, L24, L25, L26, L27, L28, L29, L30, L31,
    }
    use Many::*;
    #[rustfmt::skip]
    let all = [
        L0, L1, L2, L3, L4, L5, L6, L7, L8, L9, L10, L11, L12, L13, L14, L15,
        L16, L17, L18, L19, L20, L21, L22, L23, L24, L25, L26, L27, L28, L29, L30, L31,
    ];
    for (n, layer) in all.iter().enumerate() {
        assert_eq!(layer.to_bits(), 1 << n);
    }
    assert_eq!(Many::all_bits(), u32::MAX);
    assert_eq!(LayerMask::from(all), LayerMask::ALL);
}

#[test]
fn named_layers_decide_what_a_bullet_hits() {
    let mut app = app();
    let player = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(0.0, 0.0, 0.0),
            CollisionLayers::new(Layer::Player, [Layer::Ground, Layer::Enemy]),
        ))
        .id();
    let enemy = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(6.0, 0.0, 0.0),
            CollisionLayers::new(Layer::Enemy, [Layer::Player, Layer::Bullet]),
        ))
        .id();
    // A bullet fired through the player and on into the enemy, in one tick.
    let bullet = app
        .world_mut()
        .spawn((
            Collider::point(),
            Transform::from_xyz(-4.0, 0.0, 0.0),
            Velocity(Vec2::new(12.0 * 64.0, 0.0)),
            CollisionLayers::new(Layer::Bullet, [Layer::Enemy, Layer::Ground]),
        ))
        .id();
    let events = tick(&mut app);
    let others: Vec<(Entity, CollisionKind)> = events
        .iter()
        .map(|e| seen_from(e, bullet))
        .map(|e| (e.other, e.kind))
        .collect();
    assert_eq!(
        others,
        [
            (enemy, CollisionKind::Started),
            (enemy, CollisionKind::Ended)
        ],
        "the bullet hits the enemy only, never the player ({player})"
    );
    // The queries take the names too.
    let enemies_only = QueryFilter::default().with_layers(Layer::Enemy);
    let hit = with_query(&mut app, |q| {
        q.cast_ray(v(-10.0, 0.0), Dir2::X, 30.0, &enemies_only)
    });
    assert_eq!(hit.map(|h| h.entity), Some(enemy));
}

/// A box resting on a floor, both still: `Started` once, then silence.
fn box_on_floor(app: &mut App) -> (Entity, Entity) {
    let floor = app
        .world_mut()
        .spawn(Collider::segment(v(-10.0, 0.0), v(10.0, 0.0)))
        .id();
    let crate_ = app
        .world_mut()
        .spawn((
            Collider::aabb(v(1.0, 1.0)),
            Transform::from_xyz(0.0, 1.0, 0.0),
        ))
        .id();
    let events = tick(app);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].kind, CollisionKind::Started);
    (floor, crate_)
}

#[test]
fn a_disabled_collider_ends_its_contacts_and_is_not_found() {
    let mut app = app();
    let (floor, crate_) = box_on_floor(&mut app);
    for _ in 0..3 {
        assert!(tick(&mut app).is_empty(), "resting: no events");
    }
    let probe = |app: &mut App| {
        with_query(app, |q| {
            let mut found = Vec::new();
            q.point_hits(v(0.0, 1.0), &QueryFilter::default(), &mut found);
            found
        })
    };
    assert_eq!(probe(&mut app), [crate_]);
    assert!(with_query(&mut app, |q| q.contact(crate_, floor)).is_some());

    app.world_mut().entity_mut(crate_).insert(ColliderDisabled);
    // The queries stop finding it at once, before any tick.
    assert!(probe(&mut app).is_empty());
    assert!(with_query(&mut app, |q| q.contact(crate_, floor)).is_none());
    assert!(
        with_query(&mut app, |q| {
            q.cast_ray(v(0.0, 5.0), Dir2::NEG_Y, 10.0, &QueryFilter::default())
        })
        .is_some_and(|hit| hit.entity == floor)
    );
    // Its contact ends at the next tick, at time 0.
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    let ended = seen_from(&events[0], crate_);
    assert_eq!(
        (ended.kind, ended.other, ended.time_of_impact),
        (CollisionKind::Ended, floor, 0.0)
    );
    assert!(app.world().resource::<Contacts>().is_empty());
    assert!(probe(&mut app).is_empty());

    // While off, a bullet goes through it without an event.
    app.world_mut().spawn((
        Collider::point(),
        Transform::from_xyz(-5.0, 1.0, 0.0),
        Velocity(Vec2::new(10.0 * 64.0, 0.0)),
    ));
    assert!(tick(&mut app).is_empty());
    assert!(tick(&mut app).is_empty());
}

#[test]
fn a_collider_switched_on_again_starts_afresh_where_it_is() {
    let mut app = app();
    let (floor, crate_) = box_on_floor(&mut app);
    app.world_mut().entity_mut(crate_).insert(ColliderDisabled);
    tick(&mut app);
    // Moved far while off, across a wall at x = 20.
    let wall = app
        .world_mut()
        .spawn(Collider::segment(v(20.0, -50.0), v(20.0, 50.0)))
        .id();
    tick(&mut app);
    app.world_mut()
        .entity_mut(crate_)
        .insert(Transform::from_xyz(40.0, 1.0, 0.0));
    tick(&mut app);
    // Back on where it is now, overlapping a floor there: no sweep from the old place through
    // the wall; the new contact starts at time 0.
    let far_floor = app
        .world_mut()
        .spawn(Collider::segment(v(30.0, 0.0), v(50.0, 0.0)))
        .id();
    app.world_mut()
        .entity_mut(crate_)
        .remove::<ColliderDisabled>();
    let events = tick(&mut app);
    let seen: Vec<(Entity, CollisionKind, f32)> = events
        .iter()
        .map(|e| seen_from(e, crate_))
        .map(|e| (e.other, e.kind, e.time_of_impact))
        .collect();
    assert_eq!(
        seen,
        [(far_floor, CollisionKind::Started, 0.0)],
        "not the wall ({wall}) nor the old floor ({floor})"
    );
    let found = with_query(&mut app, |q| {
        let mut found = Vec::new();
        q.point_hits(v(40.0, 1.0), &QueryFilter::default(), &mut found);
        found
    });
    assert_eq!(found, [crate_]);
}

#[test]
fn a_skipped_collider_switched_off_is_no_longer_listed_as_skipped() {
    let mut app = app();
    let bad = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::default(),
            Velocity(Vec2::new(f32::NAN, 0.0)),
        ))
        .id();
    tick(&mut app);
    let reason = |app: &App| app.world().resource::<SkippedColliders>().reason(bad);
    assert_eq!(reason(&app), Some(SkipReason::NonFiniteVelocity));
    // Off: not swept because it is off, whatever its velocity.
    app.world_mut().entity_mut(bad).insert(ColliderDisabled);
    tick(&mut app);
    assert_eq!(reason(&app), None);
    assert!(app.world().resource::<SkippedColliders>().is_empty());
    // On again with the same velocity: skipped again, for the same reason.
    app.world_mut().entity_mut(bad).remove::<ColliderDisabled>();
    tick(&mut app);
    assert_eq!(reason(&app), Some(SkipReason::NonFiniteVelocity));
}

#[test]
fn a_moving_disabled_collider_ends_its_contact_and_despawns_quietly() {
    let mut app = app();
    let zone = app.world_mut().spawn(Collider::circle(10.0)).id();
    let mover = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(-5.0, 0.0, 0.0),
            Velocity(Vec2::new(64.0, 0.0)),
        ))
        .id();
    let events = tick(&mut app);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].kind, CollisionKind::Started);
    app.world_mut().entity_mut(mover).insert(ColliderDisabled);
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    let ended = seen_from(&events[0], mover);
    assert_eq!((ended.kind, ended.other), (CollisionKind::Ended, zone));
    // It kept moving by its velocity while off.
    let x = app.world().get::<Transform>(mover).unwrap().translation.x;
    assert_eq!(x, -3.0);
    app.world_mut().entity_mut(mover).despawn();
    assert!(tick(&mut app).is_empty());
}

#[test]
fn a_disabled_character_moves_by_its_velocity_through_walls() {
    let mut app = app();
    app.world_mut()
        .spawn(Collider::segment(v(2.0, -10.0), v(2.0, 10.0)));
    let hero = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            KinematicCharacter::default(),
            Velocity(Vec2::new(64.0 * 2.0, 0.0)),
            ColliderDisabled,
        ))
        .id();
    for _ in 0..3 {
        assert!(tick(&mut app).is_empty());
    }
    let x = app.world().get::<Transform>(hero).unwrap().translation.x;
    assert_eq!(x, 6.0, "through the wall at x = 2");
}

#[test]
fn excluding_a_body_excludes_its_child_colliders() {
    let mut app = app();
    // A ship (a body) with two child colliders along x, and a lone rock behind it.
    let ship = app
        .world_mut()
        .spawn((Body, Transform::from_xyz(10.0, 0.0, 0.0)))
        .id();
    let hull = app
        .world_mut()
        .spawn((Collider::circle(1.0), ChildOf(ship)))
        .id();
    let gun = app
        .world_mut()
        .spawn((
            Collider::aabb(v(0.5, 0.5)),
            Transform::from_xyz(3.0, 0.0, 0.0),
            ChildOf(ship),
        ))
        .id();
    let rock = app
        .world_mut()
        .spawn((Collider::circle(1.0), Transform::from_xyz(20.0, 0.0, 0.0)))
        .id();
    // A plain parent (not a body) with a child collider.
    let group = app
        .world_mut()
        .spawn(Transform::from_xyz(30.0, 0.0, 0.0))
        .id();
    let pebble = app
        .world_mut()
        .spawn((Collider::circle(1.0), ChildOf(group)))
        .id();
    tick(&mut app);
    let hits = |app: &mut App, filter: QueryFilter| {
        with_query(app, |q| {
            let mut hits = Vec::new();
            q.ray_hits(v(0.0, 0.0), Dir2::X, 100.0, &filter, &mut hits);
            hits.iter().map(|h| h.entity).collect::<Vec<_>>()
        })
    };
    assert_eq!(
        hits(&mut app, QueryFilter::default()),
        [hull, gun, rock, pebble]
    );
    // The body: every collider of it.
    assert_eq!(
        hits(&mut app, QueryFilter::default().excluding(ship)),
        [rock, pebble]
    );
    // One collider: that collider only.
    assert_eq!(
        hits(&mut app, QueryFilter::default().excluding(gun)),
        [hull, rock, pebble]
    );
    // A parent that is not a body groups nothing.
    assert_eq!(
        hits(&mut app, QueryFilter::default().excluding(group)),
        [hull, gun, rock, pebble]
    );
    // Shape queries and casts too.
    let found = with_query(&mut app, |q| {
        let mut found = Vec::new();
        let filter = QueryFilter::default().with_excluded_entities([ship]);
        let wide = Collider::aabb(v(40.0, 2.0));
        q.shape_hits(&wide, Isometry2d::IDENTITY, &filter, &mut found);
        found.sort();
        found
    });
    let mut expected = vec![rock, pebble];
    expected.sort();
    assert_eq!(found, expected);
    let cast = with_query(&mut app, |q| {
        q.cast_shape(
            &Collider::circle(0.5),
            Isometry2d::from_translation(v(0.0, 0.0)),
            Isometry2d::from_translation(v(50.0, 0.0)),
            &QueryFilter::default().excluding(ship),
        )
    });
    assert_eq!(cast.map(|h| h.entity), Some(rock));
}

#[test]
fn queries_see_a_new_collider_once_a_tick_has_run() {
    let mut app = app();
    tick(&mut app);
    let wall = app
        .world_mut()
        .spawn(Collider::segment(v(5.0, -5.0), v(5.0, 5.0)))
        .id();
    let ray = |app: &mut App| {
        with_query(app, |q| {
            q.cast_ray(v(0.0, 0.0), Dir2::X, 10.0, &QueryFilter::default())
                .map(|h| h.entity)
        })
    };
    assert_eq!(ray(&mut app), None, "spawned since the last tick: not yet");
    tick(&mut app);
    assert_eq!(ray(&mut app), Some(wall));
}
