//! Level geometry at the size games draw it: outlines thousands of units long with a point
//! every few units, crates exactly one tile wide on seams, push-out of concave polygons.

use super::polygons::{cup, table};
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

/// `p` turned `quarters` quarter turns counterclockwise, exactly.
fn quarter_turn(p: Vec2, quarters: u32) -> Vec2 {
    (0..quarters % 4).fold(p, |p, _| v(-p.y, p.x))
}

/// A crate exactly one tile wide, pushed along a floor of tiles so that both its bottom
/// corners land on seams at the end of a tick, stays on the floor and keeps its speed: on
/// the floor, on the left and right walls and on the ceiling (the whole scene and its
/// gravity turned by quarter turns; the turned rectangle crate's rotation is a quaternion,
/// so its corners are on the seams to rounding).
#[test]
fn a_crate_one_tile_wide_stays_on_a_floor_of_tiles() {
    let grid = bevy_sweep::tiles::TileGrid::from_fn(200, 2, |c| c.y == 1 || c.x % 7 != 0).unwrap();
    for quarters in 0..4 {
        let turn = |p: Vec2| quarter_turn(p, quarters);
        let odd = |h: Vec2| if quarters % 2 == 1 { v(h.y, h.x) } else { h };
        let floors: Vec<(&str, Vec<(Collider, Vec2)>)> = vec![
            (
                "tiles",
                (0..200)
                    .map(|i| {
                        (
                            Collider::aabb(v(8.0, 8.0)),
                            turn(v(-400.0 + 16.0 * i as f32, -8.0)),
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
                                let at = turn(v(-400.0 + 16.0 * i as f32, -8.0));
                                (
                                    Isometry2d::from_xy(at.x, at.y),
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
                grid.merged()
                    .into_iter()
                    .map(|rect| {
                        let (min, max) = (rect.min.as_vec2() * 16.0, rect.max.as_vec2() * 16.0);
                        (
                            Collider::aabb(odd((max - min) / 2.0)),
                            turn((min + max) / 2.0 + v(-408.0, -32.0)),
                        )
                    })
                    .collect(),
            ),
        ];
        let (along, up) = (turn(v(1.0, 0.0)), turn(v(0.0, 1.0)));
        for (name, floor) in &floors {
            for speed in [1_000.0_f32, 960.0, 10.0] {
                for (shape, rotation) in [
                    (
                        Collider::rectangle(v(8.0, 6.0)),
                        Quat::from_rotation_z(core::f32::consts::FRAC_PI_2 * quarters as f32),
                    ),
                    (Collider::aabb(odd(v(8.0, 6.0))), Quat::IDENTITY),
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
                            Transform::from_translation(turn(v(0.0, 6.0)).extend(0.0))
                                .with_rotation(rotation),
                            Velocity(along * speed),
                            Response::Slide,
                        ))
                        .id();
                    // The quaternion's rounding puts a turned rectangle's corners a few
                    // ulps off the seams.
                    let exact = quarters == 0 || rotation == Quat::IDENTITY;
                    let tolerance = if exact { 0.0 } else { 1e-3 * speed };
                    for k in 0..60 {
                        {
                            let mut vel = app.world_mut().get_mut::<Velocity>(mover).unwrap();
                            let fall = vel.0.dot(up) - 900.0 * TICK;
                            vel.0 = along * speed + up * fall;
                        }
                        tick(&mut app);
                        let t = app.world().get::<Transform>(mover).unwrap().translation;
                        let vel = app.world().get::<Velocity>(mover).unwrap().0;
                        let (height, fall, went) =
                            (t.truncate().dot(up), vel.dot(up), vel.dot(along));
                        assert!(
                            (height - 6.0).abs() < 1e-3
                                && fall.abs() < 1e-3
                                && (went - speed).abs() <= tolerance,
                            "{name} turned {quarters} quarters, {shape:?} at {speed}: \
                             tick {k} at {t}, velocity {vel}"
                        );
                    }
                }
            }
        }
    }
}

/// One tick of a ball of radius 2 falling from (10, 80) at 6,000 units/s onto `shape` at
/// the origin: the app, the shape's entity, the tick's events.
fn ball_onto(shape: &Collider) -> (App, Entity, Vec<CollisionEvent>) {
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
    (app, level, events)
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
    // A part turned by a rotation of length 1,000 (which would scale it 1,000 times).
    let scaled = (
        Isometry2d::new(
            v(30.0, 10.0),
            Rot2 {
                cos: 1000.0,
                sin: 0.0,
            },
        ),
        Collider::rectangle(v(30.0, 10.0)),
    );
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
            unchecked_compound(vec![scaled.clone()]),
            SkipReason::NonUnitRotation,
        ),
    ];
    for (shape, reason) in cases {
        let (app, level, events) = ball_onto(&shape);
        assert_eq!(
            app.world().resource::<SkippedColliders>().reason(level),
            Some(reason),
            "{shape:?}"
        );
        assert!(events.is_empty(), "{events:?}");
    }
    // From the constructors: a compound with that rotation is turned, not scaled.
    let compound = Collider::compound(&[scaled]).expect("a rotation of any length is a direction");
    for shape in [Collider::polygon(&cup()).unwrap(), compound] {
        let (app, level, events) = ball_onto(&shape);
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

/// A comb of `teeth` teeth 100 tall and 1 wide, 4 apart, on a bar 10 thick: `4 * teeth + 2`
/// points (the bench's comb).
fn comb(teeth: usize) -> Vec<Vec2> {
    let width = 4.0 * teeth as f32;
    let mut points = vec![v(0.0, -10.0), v(width, -10.0)];
    for k in (0..teeth).rev() {
        let x = 4.0 * k as f32;
        points.extend([
            v(x + 3.0, 0.0),
            v(x + 3.0, 100.0),
            v(x + 2.0, 100.0),
            v(x + 2.0, 0.0),
        ]);
    }
    points
}

/// A moving outline of many pieces is never paired with itself: alone, it makes no
/// candidate pair; a point falling onto a tooth meets it, one falling between two teeth
/// reaches the bar, and two combs that cross meet.
#[test]
fn a_moving_outline_never_pairs_its_own_pieces() {
    let mut app = app();
    let teeth = comb(50);
    let moving = app
        .world_mut()
        .spawn((
            Collider::polygon(&teeth).unwrap(),
            Transform::default(),
            Velocity(v(2.0, 0.0)),
        ))
        .id();
    for _ in 0..3 {
        tick(&mut app);
    }
    assert_eq!(app.world().resource::<SweepStats>().candidate_pairs, 0);
    // Onto the tooth from x = 42 to 43, and between teeth (x = 45) onto the bar at y = 0.
    let (on_tooth, between) = (
        app.world_mut()
            .spawn((
                Collider::point(),
                Transform::from_xyz(42.6, 130.0, 0.0),
                Velocity(v(0.0, -3000.0)),
            ))
            .id(),
        app.world_mut()
            .spawn((
                Collider::point(),
                Transform::from_xyz(45.1, 130.0, 0.0),
                Velocity(v(0.0, -3000.0)),
            ))
            .id(),
    );
    let mut first = std::collections::HashMap::new();
    for _ in 0..4 {
        for e in tick(&mut app) {
            if let Some(e) = e.seen_from(moving)
                && e.kind == CollisionKind::Started
            {
                first.entry(e.other).or_insert(e.point);
            }
        }
    }
    let y = |e: Entity| first.get(&e).map(|p: &Vec2| p.y);
    assert!(
        y(on_tooth).is_some_and(|y| (y - 100.0).abs() < 1e-3),
        "{first:?}"
    );
    assert!(y(between).is_some_and(|y| y.abs() < 1e-3), "{first:?}");
    // A second comb, turned upside down and moving into the first: they meet.
    let other = app.world_mut().spawn((
        Collider::polygon(&teeth).unwrap(),
        Transform::from_xyz(200.5, 240.0, 0.0)
            .with_rotation(Quat::from_rotation_z(core::f32::consts::PI)),
        Velocity(v(0.0, -1000.0)),
    ));
    let other = other.id();
    let mut met = false;
    for _ in 0..4 {
        met |= tick(&mut app)
            .iter()
            .any(|e| e.seen_from(moving).is_some_and(|e| e.other == other));
    }
    assert!(met, "two combs that cross meet");
}

/// The 50,000-point comb of the issue is built, spawned, moved and ticked in the plain
/// test build (its timing is `benches/levels.rs`'s).
#[test]
fn a_comb_of_50000_points_is_cut_moved_and_ticked() {
    let points = comb(12_500);
    assert_eq!(points.len(), 50_002);
    let shape = Collider::polygon(&points).expect("a simple outline");
    let Collider::Polygon { pieces, .. } = &shape else {
        panic!("a comb is no convex polygon");
    };
    // Each tooth is one piece, and the bar under them one more.
    assert_eq!(pieces.len(), 12_501);
    let mut app = app();
    let comb = app
        .world_mut()
        .spawn((shape, Transform::default(), Velocity(v(1.0, 0.0))))
        .id();
    let drop = app
        .world_mut()
        .spawn((
            Collider::circle(0.25),
            Transform::from_xyz(40_002.5, 130.0, 0.0),
            Velocity(v(0.0, -3000.0)),
        ))
        .id();
    let mut met = false;
    for _ in 0..3 {
        met |= tick(&mut app)
            .iter()
            .any(|e| e.seen_from(drop).is_some_and(|e| e.other == comb));
    }
    assert_eq!(
        app.world().resource::<SkippedColliders>().reason(comb),
        None
    );
    assert!(met, "a drop onto a tooth far along meets it");
}

/// Restored into a fresh app (mapped onto its entities), the queries before the next tick
/// name the features they named at the save: the U's notch floor, a compound's part.
#[test]
fn queries_right_after_a_restore_name_the_same_features() {
    let spawn = |app: &mut App| {
        let world = app.world_mut();
        // Something first, so that the fresh app's entities are not the first app's ids.
        world.spawn_empty();
        (
            world
                .spawn((Collider::polygon(&cup()).unwrap(), Transform::default()))
                .id(),
            world
                .spawn((table(), Transform::from_xyz(200.0, 0.0, 0.0)))
                .id(),
        )
    };
    let ask = |app: &mut App| {
        with_query(app, |query| {
            let filter = QueryFilter::default();
            let notch = query.cast_ray(v(30.0, 100.0), Dir2::NEG_Y, f32::MAX, &filter);
            let leg = query.cast_ray(v(300.0, 0.0), Dir2::NEG_X, f32::MAX, &filter);
            (notch.and_then(|h| h.feature), leg.and_then(|h| h.feature))
        })
    };
    let mut first = app();
    let (cup_a, table_a) = spawn(&mut first);
    tick(&mut first);
    let saved = SweepState::save(first.world_mut());
    let asked = ask(&mut first);
    assert!(
        matches!(asked.0, Some(Feature::Edge { index: 4, .. })),
        "{asked:?}"
    );
    assert!(
        matches!(asked.1, Some(Feature::Part { part: 2, .. })),
        "{asked:?}"
    );
    let mut fresh = app();
    fresh.world_mut().spawn_empty();
    let (cup_b, table_b) = spawn(&mut fresh);
    assert_ne!(cup_a, cup_b);
    saved
        .mapped(|e| match e {
            e if e == cup_a => cup_b,
            e if e == table_a => table_b,
            e => e,
        })
        .restore(fresh.world_mut());
    assert_eq!(ask(&mut fresh), asked);
}

/// Push-out of a concave polygon goes through its outline, never across a diagonal of its
/// pieces: a ball of radius 1 at (2, 2) in the U is 3 deep (out through the left side or
/// the bottom), not 1 across a diagonal; the `unstick` recipe (pushed out along
/// `penetration`, a few times, for a shape between several pieces) frees every place on a
/// grid over the U; and a sliding ball spawned inside is left outside.
#[test]
fn push_out_of_a_concave_polygon_goes_through_its_outline() {
    let mut world = app();
    world
        .world_mut()
        .spawn((Collider::polygon(&cup()).unwrap(), Transform::default()));
    tick(&mut world);
    let ball = Collider::circle(1.0);
    let filter = QueryFilter::default();
    with_query(&mut world, |query| {
        let out = query
            .penetration(&ball, Isometry2d::from_xy(2.0, 2.0), &filter)
            .expect("inside the U");
        assert_close(out.depth, 3.0, 1e-4, "out through the side or the bottom");
        assert!(
            out.direction == Vec2::NEG_X || out.direction == Vec2::NEG_Y,
            "{out:?}"
        );
        let mut stuck = Vec::new();
        for i in 0..=60 {
            for j in 0..=50 {
                let mut at = v(i as f32 + 0.25, j as f32 + 0.25);
                for _ in 0..4 {
                    match query.penetration(&ball, Isometry2d::from_translation(at), &filter) {
                        Some(p) => at += p.direction * p.depth,
                        None => break,
                    }
                }
                // Free: nothing overlaps it beyond rounding.
                if query
                    .penetration(&ball, Isometry2d::from_translation(at), &filter)
                    .is_some_and(|p| p.depth > 1e-3)
                {
                    stuck.push(at);
                }
            }
        }
        assert!(
            stuck.is_empty(),
            "{} places left inside: {stuck:?}",
            stuck.len()
        );
    });
    for at in [v(18.0, 18.0), v(10.0, 10.0), v(2.0, 2.0)] {
        let mut app = app();
        app.world_mut()
            .spawn((Collider::polygon(&cup()).unwrap(), Transform::default()));
        let mover = app
            .world_mut()
            .spawn((
                Collider::circle(1.0),
                Transform::from_translation(at.extend(0.0)),
                Velocity(Vec2::ZERO),
                Response::Slide,
            ))
            .id();
        for _ in 0..3 {
            tick(&mut app);
        }
        let end = app
            .world()
            .get::<Transform>(mover)
            .unwrap()
            .translation
            .truncate();
        let left = with_query(&mut app, |query| {
            let others = QueryFilter::default().excluding(mover);
            query.penetration(&ball, Isometry2d::from_translation(end), &others)
        });
        assert!(
            left.is_none_or(|p| p.depth < 1e-3),
            "spawned at {at}: at {end}, still {left:?} inside"
        );
    }
}

/// A one-way concave polygon judges by its outline: a ball inside it moving down falls out
/// of its bottom untouched by the diagonals between its pieces, and one falling onto the top
/// of an arm from above bounces there.
#[test]
fn a_one_way_concave_platform_blocks_from_above_on_its_outline_only() {
    for (start, blocked) in [
        (v(8.0, 30.0), false),
        (v(8.0, 70.0), true),
        (v(18.5, 18.5), false),
    ] {
        let mut app = app();
        app.world_mut().spawn((
            Collider::polygon(&cup()).unwrap(),
            Transform::default(),
            OneWay(Dir2::Y),
        ));
        let ball = app
            .world_mut()
            .spawn((
                Collider::circle(1.0),
                Transform::from_translation(start.extend(0.0)),
                Velocity(v(0.0, -640.0)),
                Response::Bounce { restitution: 1.0 },
            ))
            .id();
        for _ in 0..12 {
            tick(&mut app);
        }
        let at = app.world().get::<Transform>(ball).unwrap().translation;
        let vel = app.world().get::<Velocity>(ball).unwrap().0;
        assert_eq!(vel.x, 0.0, "from {start}: deflected to {vel}");
        if blocked {
            assert!(
                vel.y > 0.0 && at.y > 51.0 - 1e-3,
                "from {start}: at {at}, {vel}"
            );
        } else {
            assert!(vel.y < 0.0 && at.y < -1.0, "from {start}: at {at}, {vel}");
        }
    }
}

/// A character that jumps into a one-way concave platform without clearing it falls back
/// through it: it never stands inside it, and lands on the floor below; one that jumps up
/// through the platform's floor into its notch lands on the notch's floor, and one that
/// clears an arm lands on its top: the real top faces.
#[test]
fn a_character_never_stands_inside_a_one_way_concave_platform() {
    let skin = KinematicCharacter::default().skin;
    // Where it jumps, how fast, and the height it ends standing at (its centre).
    for (x, jump, lands) in [
        (-20.0, 400.0, 10.0),
        (-20.0, 330.0, 10.0),
        (20.0, 400.0, 10.0),
        (20.0, 440.0, 100.0),
        (0.0, 380.0, 70.0),
    ] {
        let mut app = app();
        let floor = app
            .world_mut()
            .spawn((
                Collider::aabb(v(200.0, 10.0)),
                Transform::from_xyz(0.0, -10.0, 0.0),
            ))
            .id();
        // The U, 60 wide and 50 tall, its bottom at y = 40.
        let platform = app
            .world_mut()
            .spawn((
                Collider::polygon(&cup()).unwrap(),
                Transform::from_xyz(-30.0, 40.0, 0.0),
                OneWay(Dir2::Y),
            ))
            .id();
        let hero = app
            .world_mut()
            .spawn((
                Collider::capsule(v(0.0, -6.0), v(0.0, 6.0), 4.0),
                Transform::from_xyz(x, 10.0 + skin, 0.0),
                KinematicCharacter::default(),
                Velocity(v(0.0, jump)),
            ))
            .id();
        for k in 0..150 {
            {
                let mut vel = app.world_mut().get_mut::<Velocity>(hero).unwrap();
                vel.0.y -= 900.0 * TICK;
            }
            tick(&mut app);
            let state = *app.world().get::<CharacterState>(hero).unwrap();
            let at = app.world().get::<Transform>(hero).unwrap().translation;
            let inside = with_query(&mut app, |q| {
                q.penetration(
                    &Collider::capsule(v(0.0, -6.0), v(0.0, 6.0), 4.0),
                    Isometry2d::from_translation(at.truncate()),
                    &QueryFilter::default().excluding(hero),
                )
            });
            assert!(
                !(state.grounded && state.ground_entity == Some(platform) && inside.is_some()),
                "jumping {jump} at x = {x}: tick {k} standing inside at {at}"
            );
        }
        let state = *app.world().get::<CharacterState>(hero).unwrap();
        let at = app.world().get::<Transform>(hero).unwrap().translation;
        let under = if lands > 10.0 { platform } else { floor };
        assert!(
            state.grounded
                && state.ground_entity == Some(under)
                && (at.y - lands - skin).abs() < 1e-2,
            "jumping {jump} at x = {x}: ends at {at}, {state:?}"
        );
    }
}

/// Sliders pressed onto an editor bar turned 30° (its points rounded to `f32`, so its
/// straight top is straight only to rounding: each point a real corner of a few ulps) keep
/// their speed along it, tick by tick.
#[test]
fn sliders_keep_their_speed_on_faces_straight_only_to_rounding() {
    let angle = core::f32::consts::FRAC_PI_6;
    let turn = Vec2::from_angle(angle);
    let mut faults = Vec::new();
    for length in [1_000.0, 12_000.0, 100_000.0] {
        let floor: Vec<Vec2> = editor_bar(length).iter().map(|&p| turn.rotate(p)).collect();
        for (shape, rotation) in [
            (
                Collider::rectangle(v(3.0, 3.0)),
                Quat::from_rotation_z(angle),
            ),
            (
                Collider::capsule(v(-2.0, 0.0), v(2.0, 0.0), 3.0),
                Quat::from_rotation_z(angle),
            ),
            (Collider::circle(3.0), Quat::IDENTITY),
        ] {
            for speed in [10.0_f32, 300.0, 885.0] {
                let mut app = app();
                app.world_mut().spawn((
                    Collider::polygon(&floor).expect("a simple outline"),
                    Transform::default(),
                ));
                let (along, up) = (turn, turn.perp());
                let push = along * speed - up * 50.0;
                let mover = app
                    .world_mut()
                    .spawn((
                        shape.clone(),
                        Transform::from_translation(turn.rotate(v(-80.0, 3.0)).extend(0.0))
                            .with_rotation(rotation),
                        Velocity(push),
                        Response::Slide,
                    ))
                    .id();
                let ticks = ((length - 200.0) / (speed * TICK)).min(120.0) as usize;
                let mut last = turn.rotate(v(-80.0, 3.0));
                for k in 0..ticks {
                    app.world_mut().get_mut::<Velocity>(mover).unwrap().0 = push;
                    tick(&mut app);
                    let at = app
                        .world()
                        .get::<Transform>(mover)
                        .unwrap()
                        .translation
                        .truncate();
                    let went = (at - last).dot(along);
                    let height = at.dot(up);
                    let tolerance = 1e-3 * speed * TICK + at.abs().max_element() * 1e-5;
                    if (went - speed * TICK).abs() > tolerance || (height - 3.0).abs() > 1e-2 {
                        faults.push(format!(
                            "{length} long, {shape:?} at {speed}: tick {k} at {at} went {went} \
                             of {}, height {height}",
                            speed * TICK
                        ));
                        break;
                    }
                    last = at;
                }
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}
