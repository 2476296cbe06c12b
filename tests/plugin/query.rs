//! `SweepQuery`: rays, segments and shapes against the colliders where the last tick left
//! them, against closed forms and against testing every collider.

use crate::common::{app, app_with, tick, with_query};
use bevy::math::Isometry2d;
use bevy::prelude::*;
use bevy_sweep::narrow::{Shape, ShapePath, contact_intervals};
use bevy_sweep::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Where the colliders are now, from their transforms.
fn world_shapes(app: &App, colliders: &[Entity]) -> Vec<(Entity, Shape)> {
    let world = app.world();
    colliders
        .iter()
        .map(|&e| {
            let shape = world
                .get::<Collider>(e)
                .expect("collider")
                .world_shape(world.get::<Transform>(e).expect("transform"))
                .expect("not a polyline");
            (e, shape)
        })
        .collect()
}

/// Every shape the segment from `a` to `b` touches, by testing each: nearest first, ties by
/// entity (the order `segment_hits` promises).
fn hits_by_testing_each(shapes: &[(Entity, Shape)], a: Vec2, b: Vec2) -> Vec<Entity> {
    let ray = ShapePath::Point([a, b]);
    let mut hits: Vec<(f32, Entity)> = shapes
        .iter()
        .filter_map(|&(e, s)| {
            let first = contact_intervals(&ray, &ShapePath::still(s)).first()?[0];
            Some((first * (b - a).length(), e))
        })
        .collect();
    hits.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    hits.into_iter().map(|(_, e)| e).collect()
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-4 * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn a_ray_hits_the_nearest_collider_exactly() {
    let mut app = app();
    let world = app.world_mut();
    // Along +x from the origin: a box whose face is at x = 8, a vertical segment at x = 12,
    // a circle whose left edge is at x = 17, and a box off the ray.
    let boxed = world
        .spawn((
            Collider::aabb(Vec2::new(1.0, 2.0)),
            Transform::from_xyz(9.0, 0.5, 0.0),
        ))
        .id();
    let wall = world
        .spawn((
            Collider::segment(Vec2::new(0.0, -3.0), Vec2::new(0.0, 1.0)),
            Transform::from_xyz(12.0, 0.0, 0.0),
            CollisionLayers::new(2, u32::MAX),
        ))
        .id();
    let disk = world
        .spawn((Collider::circle(3.0), Transform::from_xyz(20.0, 0.0, 0.0)))
        .id();
    world.spawn((
        Collider::aabb(Vec2::ONE),
        Transform::from_xyz(10.0, 9.0, 0.0),
    ));
    tick(&mut app);

    with_query(&mut app, |query| {
        let all = QueryFilter::default();
        let hit = query
            .cast_ray(Vec2::ZERO, Dir2::X, 100.0, &all)
            .expect("the box is in the way");
        assert_eq!(hit.entity, boxed);
        assert!(close(hit.distance, 8.0), "{hit:?}");
        assert!(hit.point.distance(Vec2::new(8.0, 0.0)) < 1e-4, "{hit:?}");
        assert!(hit.normal.distance(Vec2::NEG_X) < 1e-4, "{hit:?}");
        assert_eq!(hit.along, None);

        // Too short to reach anything; then past the box with it excluded.
        assert_eq!(query.cast_ray(Vec2::ZERO, Dir2::X, 7.9, &all), None);
        let hit = query
            .cast_ray(Vec2::ZERO, Dir2::X, 100.0, &all.clone().excluding(boxed))
            .expect("the wall");
        assert_eq!(hit.entity, wall);
        assert!(close(hit.distance, 12.0), "{hit:?}");
        // The wall runs from y = -3 to 1: the ray meets it three quarters of the way.
        assert!(close(hit.along.expect("a segment"), 0.75), "{hit:?}");
        // Layers: only layer 1 (the default membership) leaves the wall out.
        let hit = query
            .cast_ray(
                Vec2::ZERO,
                Dir2::X,
                100.0,
                &all.clone().with_layers(1).excluding(boxed),
            )
            .expect("the disk");
        assert_eq!(hit.entity, disk);
        assert!(close(hit.distance, 17.0), "{hit:?}");
        // A set left out: past the box and the wall, on every layer.
        let past_both = all.clone().with_excluded_entities([boxed, wall]);
        let hit = query
            .cast_ray(Vec2::ZERO, Dir2::X, 100.0, &past_both)
            .expect("the disk");
        assert_eq!(hit.entity, disk);
        let past_all = past_both.excluding(disk);
        assert_eq!(query.cast_ray(Vec2::ZERO, Dir2::X, 100.0, &past_all), None);

        // All hits, nearest first, each once.
        let mut hits = Vec::new();
        query.ray_hits(Vec2::ZERO, Dir2::X, 100.0, &all, &mut hits);
        let order: Vec<Entity> = hits.iter().map(|h| h.entity).collect();
        assert_eq!(order, [boxed, wall, disk]);
        // From inside the disk: distance 0.
        let hit = query
            .cast_ray(Vec2::new(20.0, 0.0), Dir2::Y, 50.0, &all)
            .expect("inside");
        assert_eq!((hit.entity, hit.distance), (disk, 0.0));

        // Shapes now.
        let mut found = Vec::new();
        query.point_hits(Vec2::new(9.5, 2.0), &all, &mut found);
        assert_eq!(found, [boxed]);
        let at = |x: f32, y: f32| Isometry2d::from_translation(Vec2::new(x, y));
        query.shape_hits(&Collider::circle(2.5), at(14.5, 0.0), &all, &mut found);
        found.sort();
        let mut expected = vec![wall, disk];
        expected.sort();
        assert_eq!(found, expected);
        let line = Collider::segment(Vec2::new(0.0, 9.0), Vec2::new(20.0, 9.0));
        assert!(query.any_hit(&line, Isometry2d::IDENTITY, &all));
        assert!(!query.any_hit(&Collider::point(), at(-5.0, -5.0), &all));
    });
}

#[test]
fn bad_query_input_finds_nothing_and_never_panics() {
    let mut app = app();
    app.world_mut()
        .spawn((Collider::circle(1.0), Transform::IDENTITY));
    tick(&mut app);
    with_query(&mut app, |query| {
        let all = QueryFilter::default();
        let mut hits = Vec::new();
        // A zero or NaN direction cannot be a `Dir2`.
        assert!(Dir2::new(Vec2::ZERO).is_err() && Dir2::new(Vec2::new(f32::NAN, 0.0)).is_err());
        for (origin, direction, distance) in [
            (Vec2::new(f32::INFINITY, 0.0), Dir2::X, 10.0),
            (Vec2::new(-5.0, 0.0), Dir2::X, -1.0),
            (Vec2::new(-5.0, 0.0), Dir2::X, f32::NAN),
            // Beyond the coordinate range: nothing is there.
            (Vec2::new(-2e7, 0.0), Dir2::X, 1e8),
        ] {
            assert_eq!(query.cast_ray(origin, direction, distance, &all), None);
            query.ray_hits(origin, direction, distance, &all, &mut hits);
            assert!(hits.is_empty());
        }
        for (a, b) in [
            (Vec2::new(f32::NAN, 0.0), Vec2::X),
            (Vec2::new(-3e38, 0.0), Vec2::new(3e38, 0.0)),
        ] {
            assert_eq!(query.cast_segment(a, b, &all), None);
            query.segment_hits(a, b, &all, &mut hits);
            assert!(hits.is_empty());
        }
        let mut found = vec![Entity::PLACEHOLDER];
        query.shape_hits(
            &Collider::circle(0.0),
            Isometry2d::IDENTITY,
            &all,
            &mut found,
        );
        assert!(found.is_empty());
        found.push(Entity::PLACEHOLDER);
        let nowhere = Isometry2d::from_translation(Vec2::new(f32::NAN, 0.0));
        query.shape_hits(&Collider::circle(1.0), nowhere, &all, &mut found);
        assert!(found.is_empty());
        assert!(!query.any_hit(&Collider::circle(1.0), nowhere, &all));
        query.point_hits(Vec2::new(f32::NAN, 0.0), &all, &mut found);
        assert!(found.is_empty());
    });
}

/// Random worlds: every query answer equals testing every collider one by one.
#[test]
fn queries_match_testing_every_collider() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x1234_5678);
    let mut next = move || rng.random_range(-1.0f32..1.0);
    {
        let mut app = app_with(SweepPlugin::default());
        let mut colliders = Vec::new();
        for i in 0..400 {
            let collider = match i % 4 {
                0 => Collider::point(),
                1 => Collider::segment(Vec2::new(-3.0, next()), Vec2::new(3.0, next() * 4.0)),
                2 => Collider::circle(0.3 + next().abs() * 2.0),
                _ => Collider::aabb(Vec2::new(0.3 + next().abs() * 3.0, 0.3 + next().abs())),
            };
            let transform = Transform::from_xyz(next() * 100.0, next() * 100.0, 0.0)
                .with_rotation(Quat::from_rotation_z(next() * 3.0));
            let entity = app
                .world_mut()
                .spawn((
                    collider,
                    transform,
                    Velocity(Vec2::new(next(), next()) * 200.0),
                ))
                .id();
            colliders.push(entity);
        }
        tick(&mut app);
        tick(&mut app);
        let shapes = world_shapes(&app, &colliders);
        for _ in 0..150 {
            let origin = Vec2::new(next(), next()) * 130.0;
            let direction = Dir2::new(Vec2::new(next(), next())).unwrap_or(Dir2::X);
            let length = next().abs() * 250.0;
            let end = origin + direction * length;
            let expected = hits_by_testing_each(&shapes, origin, end);
            let radius = next().abs() * 10.0 + 0.1;
            let probe = Shape::Circle {
                center: origin,
                radius,
            };
            let mut touching: Vec<Entity> = shapes
                .iter()
                .filter(|(_, s)| {
                    !contact_intervals(&ShapePath::still(probe), &ShapePath::still(*s)).is_empty()
                })
                .map(|(e, _)| *e)
                .collect();
            touching.sort();
            with_query(&mut app, |query| {
                let all = QueryFilter::default();
                let first = query.cast_ray(origin, direction, length, &all);
                assert_eq!(
                    first.map(|h| h.entity),
                    expected.first().copied(),
                    "ray from {origin} to {end}"
                );
                let mut hits = Vec::new();
                query.ray_hits(origin, direction, length, &all, &mut hits);
                let got: Vec<Entity> = hits.iter().map(|h| h.entity).collect();
                assert_eq!(got, expected, "ray from {origin} to {end}");
                let mut found = Vec::new();
                let pose = Isometry2d::from_translation(origin);
                query.shape_hits(&Collider::circle(radius), pose, &all, &mut found);
                found.sort();
                assert_eq!(found, touching, "{probe:?}");
            });
        }
    }
}

/// Colliders that span many of the broad phase's rows (long segments, tall and wide boxes,
/// big circles) among many tiny ones that make the rows thin (about a unit tall: twice the
/// median collider), and rays at every angle, vertical and steep ones crossing dozens of
/// rows: every collider a ray touches is reported once, as testing every collider finds. A
/// collider met in several rows must not be reported twice, nor missed.
#[test]
fn colliders_spanning_many_rows_are_hit_once() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_f1e5);
    let mut app = app();
    let mut colliders = Vec::new();
    for i in 0..600 {
        let (collider, rotation) = match i % 10 {
            0 => (
                Collider::segment(Vec2::new(-30.0, 0.0), Vec2::new(30.0, 0.0)),
                rng.random_range(0.0..core::f32::consts::PI),
            ),
            1 => (
                Collider::aabb(Vec2::new(
                    rng.random_range(0.5..20.0),
                    rng.random_range(0.5..20.0),
                )),
                0.0,
            ),
            2 => (Collider::circle(rng.random_range(2.0..15.0)), 0.0),
            _ => (Collider::circle(0.25), 0.0),
        };
        let transform = Transform::from_xyz(
            rng.random_range(-60.0..60.0),
            rng.random_range(-60.0..60.0),
            0.0,
        )
        .with_rotation(Quat::from_rotation_z(rotation));
        colliders.push(app.world_mut().spawn((collider, transform)).id());
    }
    tick(&mut app);
    let shapes = world_shapes(&app, &colliders);
    let mut hits = Vec::new();
    for k in 0..300 {
        let a = Vec2::new(rng.random_range(-90.0..90.0), rng.random_range(-90.0..90.0));
        let b = match k % 3 {
            // Vertical and steep: through many rows.
            0 => Vec2::new(a.x, rng.random_range(-90.0..90.0)),
            1 => Vec2::new(a.x + rng.random_range(-5.0..5.0), -a.y),
            _ => Vec2::new(rng.random_range(-90.0..90.0), rng.random_range(-90.0..90.0)),
        };
        let expected = hits_by_testing_each(&shapes, a, b);
        with_query(&mut app, |query| {
            query.segment_hits(a, b, &QueryFilter::default(), &mut hits);
        });
        let got: Vec<Entity> = hits.iter().map(|h| h.entity).collect();
        assert_eq!(got, expected, "segment from {a} to {b}");
    }
}
