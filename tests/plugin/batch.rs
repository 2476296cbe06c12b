//! Pairs of a point and a box: the plugin solves them as SIMD batches (`PointBoxBatch`),
//! whether they share the box or the point, and its events are those of the pair kernel, one
//! pair at a time.

use crate::common::*;
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use bevy_sweep::narrow::{PointBoxBatch, contact_intervals};
use bevy_sweep::prelude::*;

/// Six hundred bullets, each at its own speed and height, fired through a still wall two
/// units thick in one tick, and five that stop short of it; beside them, 300 pairs of
/// overlapping circles. More pairs than one parallel chunk: the batched pairs must be left
/// out of every chunk, and only they.
/// Bullets that reach the wall.
const PASSING: usize = 600;

#[test]
fn bullets_through_a_wall_are_batched_and_exact() {
    for parallel in [false, true] {
        let mut app = app_with(SweepPlugin {
            parallel,
            ..SweepPlugin::default()
        });
        let wall = app
            .world_mut()
            .spawn((Collider::aabb(Vec2::new(1.0, 62.0)), Transform::default()))
            .id();
        // Bullet `i` starts at x0 = -20 - i/40 and ends the tick at x = 30.
        let start = |i: usize| Vec2::new(-20.0 - i as f32 / 40.0, -60.0 + 0.2 * i as f32);
        let bullets: Vec<Entity> = (0..PASSING + 5)
            .map(|i| {
                let end_x = if i < PASSING { 30.0 } else { -1.5 };
                let velocity = Vec2::new((end_x - start(i).x) / TICK, 0.0);
                app.world_mut()
                    .spawn((
                        Collider::point(),
                        Transform::from_translation(start(i).extend(0.0)),
                        Velocity(velocity),
                    ))
                    .id()
            })
            .collect();
        // Pairs solved one by one, in the same chunks: still circles that overlap in pairs.
        let circles: Vec<Entity> = (0..600)
            .map(|k| {
                let x = 1000.0 + 5.0 * (k / 2) as f32 + 1.5 * (k % 2) as f32;
                app.world_mut()
                    .spawn((Collider::circle(1.0), Transform::from_xyz(x, 0.0, 0.0)))
                    .id()
            })
            .collect();
        let events = tick(&mut app);
        for pair in circles.chunks(2) {
            let theirs: Vec<CollisionKind> = events
                .iter()
                .filter(|e| pair.contains(&e.entity) || pair.contains(&e.other))
                .map(|e| e.kind)
                .collect();
            assert_eq!(theirs, [CollisionKind::Started], "circles {pair:?}");
        }
        assert_well_formed(&events);
        let stats = *app.world().resource::<SweepStats>();
        // Every bullet that reaches the wall is batched.
        const { assert!(PASSING >= PointBoxBatch::LANES) };
        assert_eq!(
            stats.batched_pairs, PASSING,
            "the bullets that reach the wall are batched: {stats:?}"
        );
        if parallel && ComputeTaskPool::get().thread_num() > 1 {
            assert!(stats.parallel_tasks() > 1, "{stats:?}");
        }
        let wall_path = app.world().get::<SweptPath>(wall).unwrap().path().unwrap();
        for (i, &bullet) in bullets.iter().enumerate() {
            let mine: Vec<CollisionEvent> = events
                .iter()
                .filter(|e| e.entity == bullet || e.other == bullet)
                .map(|e| seen_from(e, bullet))
                .collect();
            if i >= PASSING {
                assert!(mine.is_empty(), "bullet {i} stops short: {mine:?}");
                continue;
            }
            // In at x = -1, out at x = 1: closed form, and the pair kernel on the same paths.
            let x0 = start(i).x;
            let (enter, leave) = ((-1.0 - x0) / (30.0 - x0), (1.0 - x0) / (30.0 - x0));
            let path = app
                .world()
                .get::<SweptPath>(bullet)
                .unwrap()
                .path()
                .unwrap();
            let [[kernel_enter, kernel_leave]] = contact_intervals(&path, &wall_path)[..] else {
                panic!("bullet {i}: the pair kernel finds one contact");
            };
            let kinds: Vec<CollisionKind> = mine.iter().map(|e| e.kind).collect();
            assert_eq!(
                kinds,
                [CollisionKind::Started, CollisionKind::Ended],
                "bullet {i}"
            );
            assert!(mine.iter().all(|e| e.other == wall), "bullet {i}");
            let what = format!("bullet {i} (parallel: {parallel})");
            assert_close(mine[0].time_of_impact, enter, 1e-5, &what);
            assert_close(mine[1].time_of_impact, leave, 1e-5, &what);
            assert_close(mine[0].time_of_impact, kernel_enter, 2e-7, &what);
            assert_close(mine[1].time_of_impact, kernel_leave, 2e-7, &what);
            assert_vec_close(mine[0].point, Vec2::new(-1.0, start(i).y), 1e-3, &what);
            assert_vec_close(mine[1].point, Vec2::new(1.0, start(i).y), 1e-3, &what);
        }
    }
}

/// One bullet through a row of forty still tiles in one tick (forty tests that share the
/// bullet's path), beside a point that passes a box: every point–box pair is batched, and the
/// bullet enters and leaves each tile in turn, at the times of the closed form and of the pair
/// kernel.
#[test]
fn a_bullet_through_a_row_of_tiles_is_batched_and_exact() {
    const TILES: usize = 40;
    let mut app = app_with(SweepPlugin::default());
    // Tile `k` spans x = 3k - 1 ..= 3k + 1.
    let tiles: Vec<Entity> = (0..TILES)
        .map(|k| {
            app.world_mut()
                .spawn((
                    Collider::aabb(Vec2::ONE),
                    Transform::from_xyz(3.0 * k as f32, 0.5, 0.0),
                ))
                .id()
        })
        .collect();
    // From x = -5 to x = 3 * TILES + 5 in one tick.
    let (x0, x1) = (-5.0, 3.0 * TILES as f32 + 5.0);
    let bullet = app
        .world_mut()
        .spawn((
            Collider::point(),
            Transform::from_xyz(x0, 0.0, 0.0),
            Velocity(Vec2::new((x1 - x0) / TICK, 0.0)),
        ))
        .id();
    // A point that passes a box's corner: a candidate pair (their bounds overlap) with no
    // contact. The box spans y = 499 ..= 501; the point is at y >= 502.5 while x <= 1.
    app.world_mut().spawn((
        Collider::aabb(Vec2::ONE),
        Transform::from_xyz(0.0, 500.0, 0.0),
    ));
    app.world_mut().spawn((
        Collider::point(),
        Transform::from_xyz(0.5, 503.0, 0.0),
        Velocity(Vec2::new(2.5, -2.5) / TICK),
    ));
    let events = tick(&mut app);
    assert_well_formed(&events);
    let stats = *app.world().resource::<SweepStats>();
    assert_eq!(stats.batched_pairs, TILES + 1, "{stats:?}");
    let bullet_path = app
        .world()
        .get::<SweptPath>(bullet)
        .unwrap()
        .path()
        .unwrap();
    let mine: Vec<CollisionEvent> = events
        .iter()
        .filter(|e| e.entity == bullet || e.other == bullet)
        .map(|e| seen_from(e, bullet))
        .collect();
    assert_eq!(mine.len(), 2 * TILES, "{mine:?}");
    for (k, &tile) in tiles.iter().enumerate() {
        let theirs: Vec<&CollisionEvent> = mine.iter().filter(|e| e.other == tile).collect();
        let kinds: Vec<CollisionKind> = theirs.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [CollisionKind::Started, CollisionKind::Ended],
            "tile {k}"
        );
        let centre = 3.0 * k as f32;
        let (enter, leave) = (
            (centre - 1.0 - x0) / (x1 - x0),
            (centre + 1.0 - x0) / (x1 - x0),
        );
        let tile_path = app.world().get::<SweptPath>(tile).unwrap().path().unwrap();
        let [[kernel_enter, kernel_leave]] = contact_intervals(&bullet_path, &tile_path)[..] else {
            panic!("tile {k}: the pair kernel finds one contact");
        };
        let what = format!("tile {k}");
        assert_close(theirs[0].time_of_impact, enter, 1e-5, &what);
        assert_close(theirs[1].time_of_impact, leave, 1e-5, &what);
        assert_close(theirs[0].time_of_impact, kernel_enter, 2e-7, &what);
        assert_close(theirs[1].time_of_impact, kernel_leave, 2e-7, &what);
        assert_vec_close(theirs[0].point, Vec2::new(centre - 1.0, 0.0), 1e-3, &what);
        assert_vec_close(theirs[1].point, Vec2::new(centre + 1.0, 0.0), 1e-3, &what);
    }
}
