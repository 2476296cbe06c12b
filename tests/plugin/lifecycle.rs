//! Contacts over time: turning segments, pairing, despawns, layers, teleports, bad input.

use crate::common::*;
use bevy::prelude::*;
use bevy_sweep::prelude::*;

/// The *raise* and *dive* motions: a segment whose endpoints move independently (set through the
/// collider's local endpoints between ticks) against a still point. The number of crossings
/// in the tick is compared with a dense scan of the cross product's sign.
#[test]
fn turning_segments_cross_a_point_the_right_number_of_times() {
    let raise = ([v(0., 0.), v(4., 0.)], [v(4., -2.), v(4., 2.)]);
    let dive = ([v(0., 4.), v(4., 0.)], [v(4., 0.), v(4., 4.)]);
    let cases = [
        ("raise", raise, v(3.0, 0.5), 0),
        ("raise", raise, v(2.0, -0.5), 1),
        ("raise", raise, v(3.5, 0.2), 2),
        ("dive", dive, v(3.5, 2.0), 2),
        ("dive", dive, v(-1.0, 2.0), 0),
    ];
    for (name, (a, b), p, expected) in cases {
        let mut app = app();
        let segment = app.world_mut().spawn(Collider::segment(a[0], b[0])).id();
        let point = app
            .world_mut()
            .spawn((
                Collider::point(),
                Transform::from_translation(p.extend(0.0)),
            ))
            .id();
        assert!(
            tick(&mut app).is_empty(),
            "{name}: nothing moves in the first tick"
        );
        *app.world_mut().get_mut::<Collider>(segment).unwrap() = Collider::segment(a[1], b[1]);
        let events = tick(&mut app);
        assert_well_formed(&events);
        let crossed: Vec<_> = events
            .iter()
            .map(|e| seen_from(e, segment))
            .filter(|e| e.kind == CollisionKind::Crossed && e.other == point)
            .collect();
        // Dense scan: the point is on the segment's line between its endpoints where the
        // sign of the cross product changes.
        let n = 100_000;
        let side = |t: f32| {
            let (s, e) = (a[0].lerp(a[1], t), b[0].lerp(b[1], t));
            let along = (p - s).dot(e - s) / (e - s).length_squared();
            ((e - s).perp_dot(p - s) > 0.0, (0.0..=1.0).contains(&along))
        };
        let dense = (0..n)
            .filter(|&i| {
                let (x, y) = (side(i as f32 / n as f32), side((i + 1) as f32 / n as f32));
                x.0 != y.0 && (x.1 || y.1)
            })
            .count();
        assert_eq!(dense, expected, "{name} {p}: the scan itself");
        assert_eq!(crossed.len(), expected, "{name} {p}: {events:?}");
        for e in &crossed {
            assert!(e.along.is_some(), "the segment's along is reported");
        }
    }
    // Dive through (3.5, 2): horizontal at t = 1/2, then again at t = 3/4.
    let mut app = app();
    let segment = app
        .world_mut()
        .spawn(Collider::segment(dive.0[0], dive.1[0]))
        .id();
    app.world_mut()
        .spawn((Collider::point(), Transform::from_xyz(3.5, 2.0, 0.0)));
    tick(&mut app);
    *app.world_mut().get_mut::<Collider>(segment).unwrap() =
        Collider::segment(dive.0[1], dive.1[1]);
    let times: Vec<f32> = tick(&mut app).iter().map(|e| e.time_of_impact).collect();
    assert_eq!(times, vec![0.5, 0.75]);
}

/// A slow ball rolls through a row of boxes over many ticks: each box gives one `Started`
/// and, ticks later, one `Ended`, and `Contacts` knows in between.
#[test]
fn started_and_ended_pair_up_over_many_ticks() {
    let mut app = app();
    let ball = app
        .world_mut()
        .spawn((
            Collider::circle(0.5),
            Transform::from_xyz(-3.0, 0.0, 0.0),
            Velocity(v(64.0, 0.0)), // one unit per tick
        ))
        .id();
    let boxes: Vec<Entity> = (0..5)
        .map(|i| {
            app.world_mut()
                .spawn((
                    Collider::aabb(v(1.0, 1.0)),
                    Transform::from_xyz(i as f32 * 5.0, 0.0, 0.0),
                ))
                .id()
        })
        .collect();
    let mut open: Option<Entity> = None;
    let mut started = 0;
    for tick_number in 0..30 {
        let events = tick(&mut app);
        assert_well_formed(&events);
        for e in events.iter().map(|e| seen_from(e, ball)) {
            match e.kind {
                CollisionKind::Started => {
                    assert_eq!(open, None, "tick {tick_number}: {e:?}");
                    open = Some(e.other);
                    started += 1;
                    assert_vec_close(e.normal, Vec2::NEG_X, 1e-5, "started from the left");
                }
                CollisionKind::Ended => {
                    assert_eq!(open, Some(e.other), "tick {tick_number}: {e:?}");
                    open = None;
                    assert_vec_close(e.normal, Vec2::X, 1e-5, "ended to the right");
                }
                CollisionKind::Crossed => panic!("a ball through a box is not an instant: {e:?}"),
            }
        }
        let contacts = app.world().resource::<Contacts>();
        match open {
            Some(other) => {
                assert!(contacts.contains(ball, other));
                assert_eq!(contacts.touching(ball).collect::<Vec<_>>(), vec![other]);
            }
            None => assert!(contacts.is_empty()),
        }
    }
    assert_eq!(started, boxes.len());
    assert_eq!(open, None);
}

#[test]
fn passing_through_a_box_within_one_tick_starts_and_ends() {
    let mut app = app();
    let bullet = app
        .world_mut()
        .spawn((
            Collider::point(),
            Transform::from_xyz(-10.0, 0.5, 0.0),
            Velocity(v(20.0 * 64.0, 0.0)), // -10 → +10 in one tick
        ))
        .id();
    let wall = app
        .world_mut()
        .spawn((Collider::aabb(v(1.0, 4.0)), Transform::IDENTITY))
        .id();
    let events: Vec<_> = tick(&mut app)
        .iter()
        .map(|e| seen_from(e, bullet))
        .collect();
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0].kind, CollisionKind::Started);
    assert_eq!(events[1].kind, CollisionKind::Ended);
    assert_close(events[0].time_of_impact, 0.45, 1e-6, "entry");
    assert_close(events[1].time_of_impact, 0.55, 1e-6, "exit");
    assert_vec_close(events[0].point, v(-1.0, 0.5), 1e-5, "entry point");
    assert_vec_close(events[1].point, v(1.0, 0.5), 1e-5, "exit point");
    assert!(events.iter().all(|e| e.other == wall));
    assert!(app.world().resource::<Contacts>().is_empty());
}

#[derive(Resource, Default)]
struct Observed(Vec<CollisionEvent>);

#[test]
fn despawning_ends_contacts_and_observers_see_both_sides() {
    let mut app = app();
    app.init_resource::<Observed>();
    let ball = app
        .world_mut()
        .spawn((Collider::circle(1.0), Transform::IDENTITY))
        .observe(|contact: On<CollisionEvent>, mut seen: ResMut<Observed>| {
            seen.0.push(*contact.event());
        })
        .id();
    let floor = app
        .world_mut()
        .spawn((
            Collider::aabb(v(5.0, 1.0)),
            Transform::from_xyz(0.0, -1.5, 0.0),
        ))
        .id();
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "spawned overlapping: {events:?}");
    assert_eq!(events[0].kind, CollisionKind::Started);
    assert_eq!(events[0].time_of_impact, 0.0);
    assert!(app.world().resource::<Contacts>().contains(floor, ball));
    // Touching contacts stay silent.
    for _ in 0..3 {
        assert!(tick(&mut app).is_empty());
    }
    app.world_mut().despawn(floor);
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    let ended = seen_from(&events[0], ball);
    assert_eq!(ended.kind, CollisionKind::Ended);
    assert_eq!(ended.other, floor);
    assert!(
        app.world().get_entity(ended.entity).is_ok(),
        "the survivor can be read"
    );
    assert!(app.world().resource::<Contacts>().is_empty());
    // The observer on the ball saw Started and Ended, each with itself as `entity`.
    let seen = &app.world().resource::<Observed>().0;
    let kinds: Vec<_> = seen.iter().map(|e| (e.entity, e.kind)).collect();
    assert_eq!(
        kinds,
        vec![(ball, CollisionKind::Started), (ball, CollisionKind::Ended)]
    );
    assert!(tick(&mut app).is_empty());
}

#[test]
fn layers_decide_which_pairs_are_tested() {
    let mut app = app();
    let a = app
        .world_mut()
        .spawn((Collider::circle(1.0), CollisionLayers::new(0b01, 0b01)))
        .id();
    let b = app
        .world_mut()
        .spawn((Collider::circle(1.0), CollisionLayers::new(0b10, 0b10)))
        .id();
    assert!(tick(&mut app).is_empty(), "different layers never touch");
    *app.world_mut().get_mut::<CollisionLayers>(b).unwrap() = CollisionLayers::new(0b10, 0b01);
    assert!(tick(&mut app).is_empty(), "a's filter still excludes b");
    *app.world_mut().get_mut::<CollisionLayers>(a).unwrap() = CollisionLayers::new(0b01, 0b10);
    let events = tick(&mut app);
    assert_eq!(events.len(), 1);
    assert_eq!(
        (events[0].kind, events[0].time_of_impact),
        (CollisionKind::Started, 0.0)
    );
    *app.world_mut().get_mut::<CollisionLayers>(a).unwrap() = CollisionLayers::NONE;
    let events = tick(&mut app);
    assert_eq!(events.len(), 1);
    assert_eq!(
        (events[0].kind, events[0].time_of_impact),
        (CollisionKind::Ended, 0.0)
    );
}

#[test]
fn teleport_is_not_swept_but_moves_by_other_code_are() {
    let mut app = app();
    let wall = app
        .world_mut()
        .spawn(Collider::segment(v(0.0, -5.0), v(0.0, 5.0)))
        .id();
    let jumper = app
        .world_mut()
        .spawn((Collider::point(), Transform::from_xyz(-3.0, 0.0, 0.0)))
        .id();
    tick(&mut app);
    // Moved by other code, no marker: swept from -3 to 3, through the wall at t = 1/2.
    app.world_mut()
        .get_mut::<Transform>(jumper)
        .unwrap()
        .translation
        .x = 3.0;
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].kind, CollisionKind::Crossed);
    assert_eq!(events[0].time_of_impact, 0.5);
    assert_eq!(seen_from(&events[0], jumper).other, wall);
    // Teleported back: the jump is not swept, and the marker is removed.
    app.world_mut()
        .get_mut::<Transform>(jumper)
        .unwrap()
        .translation
        .x = -3.0;
    app.world_mut().entity_mut(jumper).insert(Teleport);
    assert!(tick(&mut app).is_empty());
    assert!(app.world().get::<Teleport>(jumper).is_none());
    // With a velocity in the teleport tick, that tick's own motion is still swept.
    app.world_mut()
        .get_mut::<Transform>(jumper)
        .unwrap()
        .translation
        .x = 3.0;
    app.world_mut()
        .entity_mut(jumper)
        .insert((Teleport, Velocity(v(-6.0 * 64.0, 0.0))));
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].time_of_impact, 0.5);
}

#[test]
fn bad_input_is_skipped_with_a_reason_and_the_rest_keeps_working() {
    let mut app = app();
    let bad = [
        app.world_mut()
            .spawn((Collider::circle(-1.0), Transform::IDENTITY))
            .id(),
        app.world_mut()
            .spawn((Collider::circle(0.0), Transform::IDENTITY))
            .id(),
        app.world_mut()
            .spawn(Collider::segment(Vec2::ONE, Vec2::ONE))
            .id(),
        app.world_mut()
            .spawn((Collider::aabb(v(1.0, 0.0)), Transform::IDENTITY))
            .id(),
        app.world_mut()
            .spawn((Collider::point(), Transform::from_xyz(f32::NAN, 0.0, 0.0)))
            .id(),
        app.world_mut()
            .spawn((Collider::point(), Velocity(v(f32::INFINITY, 0.0))))
            .id(),
        app.world_mut()
            .spawn((
                Collider::segment(Vec2::ZERO, Vec2::X),
                Transform::from_scale(Vec3::ZERO),
            ))
            .id(),
        app.world_mut()
            .spawn((Collider::circle(f32::NAN), Transform::IDENTITY))
            .id(),
        // A finite shape whose swept bounds, grown for rounding, overflow.
        app.world_mut()
            .spawn((Collider::point(), Transform::from_xyz(f32::MAX, 0.0, 0.0)))
            .id(),
    ];
    // A good pair right where the bad ones are.
    let good = app
        .world_mut()
        .spawn((
            Collider::point(),
            Transform::from_xyz(-2.0, 0.0, 0.0),
            Velocity(v(4.0 * 64.0, 0.0)),
        ))
        .id();
    let target = app
        .world_mut()
        .spawn((Collider::circle(1.0), Transform::IDENTITY))
        .id();
    let events = tick(&mut app);
    assert_well_formed(&events);
    let kinds: Vec<_> = events
        .iter()
        .map(|e| (seen_from(e, good).other, e.kind))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (target, CollisionKind::Started),
            (target, CollisionKind::Ended)
        ],
        "only the good pair reports: {events:?}"
    );
    let skipped = app.world().resource::<SkippedColliders>();
    let reasons = [
        SkipReason::NonPositiveSize,
        SkipReason::NonPositiveSize,
        SkipReason::ZeroLengthSegment,
        SkipReason::NonPositiveSize,
        SkipReason::NonFiniteTransform,
        SkipReason::NonFiniteVelocity,
        SkipReason::DegenerateInWorld,
        SkipReason::NonPositiveSize,
        SkipReason::OutOfRange,
    ];
    for (entity, reason) in bad.into_iter().zip(reasons) {
        assert_eq!(skipped.reason(entity), Some(reason), "{entity}");
    }
    assert_eq!(skipped.len(), bad.len());
    // Fixing one makes it usable again, from where it is.
    *app.world_mut().get_mut::<Collider>(bad[0]).unwrap() = Collider::circle(1.0);
    let events = tick(&mut app);
    assert_well_formed(&events);
    assert!(
        app.world()
            .resource::<SkippedColliders>()
            .reason(bad[0])
            .is_none()
    );
    // A NaN appearing on a collider in contact ends its contacts.
    assert!(app.world().resource::<Contacts>().contains(bad[0], target));
    app.world_mut()
        .get_mut::<Transform>(bad[0])
        .unwrap()
        .translation
        .y = f32::NAN;
    let events = tick(&mut app);
    assert!(
        events
            .iter()
            .any(|e| e.kind == CollisionKind::Ended && (e.entity == bad[0] || e.other == bad[0])),
        "{events:?}"
    );
    assert_well_formed(&events);
    // Despawning skipped colliders forgets them.
    for entity in bad {
        app.world_mut().despawn(entity);
    }
    tick(&mut app);
    assert!(app.world().resource::<SkippedColliders>().is_empty());
}

/// A system that despawns a collider between the broad and the narrow phase, and one that
/// adds a collider there: nothing panics and the next tick is consistent.
#[test]
fn colliders_added_and_removed_in_the_middle_of_a_tick() {
    #[derive(Resource)]
    struct Victim(Entity);
    let mut app = app();
    let victim = app
        .world_mut()
        .spawn((Collider::circle(1.0), Transform::IDENTITY))
        .id();
    app.world_mut()
        .spawn((Collider::circle(1.0), Transform::from_xyz(1.0, 0.0, 0.0)));
    app.insert_resource(Victim(victim));
    app.add_systems(
        FixedPostUpdate,
        (|mut commands: Commands, victim: Res<Victim>| {
            commands.entity(victim.0).despawn();
            commands.spawn((Collider::circle(1.0), Transform::from_xyz(0.5, 0.0, 0.0)));
        })
        .after(SweepSystems::BroadPhase)
        .before(SweepSystems::NarrowPhase)
        .run_if(
            |victim: Res<Victim>, colliders: Query<(), With<Collider>>| {
                colliders.contains(victim.0)
            },
        ),
    );
    let first = tick(&mut app);
    assert_well_formed(&first);
    let second = tick(&mut app);
    assert_well_formed(&second);
    // The victim's contact (reported in the first tick) has ended by the second.
    let contacts = app.world().resource::<Contacts>();
    assert!(
        contacts
            .iter()
            .all(|c| c.entity != victim && c.other != victim)
    );
}

/// Children collide in world space: a rotated child of a non-uniformly scaled parent is
/// sheared as Bevy's `GlobalTransform` would be.
#[test]
fn children_collide_in_world_space() {
    let mut app = app();
    let parent = app
        .world_mut()
        .spawn(Transform::from_xyz(10.0, 0.0, 0.0).with_scale(Vec3::new(2.0, 1.0, 1.0)))
        .id();
    // A unit segment along local x, turned 90° inside a parent stretched along x: in world
    // space it is vertical with length 1 (the parent's x stretch does not lengthen it).
    let child = app
        .world_mut()
        .spawn((
            Collider::segment(Vec2::ZERO, Vec2::X),
            Transform::from_rotation(Quat::from_rotation_z(core::f32::consts::FRAC_PI_2)),
            ChildOf(parent),
        ))
        .id();
    tick(&mut app);
    let path = app.world().get::<SweptPath>(child).unwrap().path().unwrap();
    let bevy_sweep::narrow::Shape::Segment(a, b) = path.at(1.0) else {
        panic!("{path:?}")
    };
    assert_vec_close(a, v(10.0, 0.0), 1e-5, "child origin");
    assert_vec_close(b, v(10.0, 1.0), 1e-5, "child endpoint");
}

/// Removing the `Collider` or the `CollisionLayers` (the entity stays) ends its contacts where
/// the collider was when it was last swept, not where the contact started nor where it was a
/// tick earlier.
#[test]
fn removing_a_collider_ends_its_contacts_where_it_last_was() {
    for remove_layers in [false, true] {
        let mut app = app();
        let ball = app
            .world_mut()
            .spawn((
                Collider::circle(1.0),
                Transform::IDENTITY,
                Velocity(v(1.0 / TICK, 0.0)),
            ))
            .id();
        let floor = app
            .world_mut()
            .spawn((
                Collider::aabb(v(50.0, 1.0)),
                Transform::from_xyz(0.0, -2.0, 0.0),
            ))
            .id();
        // The ball slides along the floor's top, one unit per tick: x = 1, 2, 3, 4.
        let started = tick(&mut app);
        assert_eq!(started.len(), 1, "{started:?}");
        for _ in 0..3 {
            assert!(tick(&mut app).is_empty(), "a sliding contact stays silent");
        }
        if remove_layers {
            app.world_mut().entity_mut(ball).remove::<CollisionLayers>();
        } else {
            app.world_mut().entity_mut(ball).remove::<Collider>();
        }
        let events = tick(&mut app);
        let what = if remove_layers { "layers" } else { "collider" };
        assert_eq!(events.len(), 1, "{what}: {events:?}");
        let ended = seen_from(&events[0], ball);
        assert_eq!((ended.kind, ended.other), (CollisionKind::Ended, floor));
        assert_eq!(ended.time_of_impact, 0.0);
        assert_vec_close(ended.point, v(4.0, -1.0), 1e-4, what);
        assert!(app.world().resource::<Contacts>().is_empty());
    }
}

/// A collider removed, moved, and inserted again starts afresh where it is.
#[test]
fn reinserted_colliders_do_not_sweep_the_time_they_were_away() {
    let mut app = app();
    let wall = app
        .world_mut()
        .spawn(Collider::segment(v(0.0, -5.0), v(0.0, 5.0)))
        .id();
    let ghost = app
        .world_mut()
        .spawn((Collider::point(), Transform::from_xyz(-3.0, 0.0, 0.0)))
        .id();
    tick(&mut app);
    app.world_mut().entity_mut(ghost).remove::<Collider>();
    tick(&mut app);
    app.world_mut()
        .get_mut::<Transform>(ghost)
        .unwrap()
        .translation
        .x = 3.0;
    app.world_mut().entity_mut(ghost).insert(Collider::point());
    assert!(
        tick(&mut app).is_empty(),
        "the move while away is not swept"
    );
    // And it is swept again from there.
    app.world_mut()
        .get_mut::<Transform>(ghost)
        .unwrap()
        .translation
        .x = -3.0;
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(seen_from(&events[0], ghost).other, wall);
}

/// A collider that changes kind between ticks is still swept over that tick's motion.
#[test]
fn changing_kind_keeps_the_motion() {
    let mut app = app();
    app.world_mut()
        .spawn(Collider::segment(v(0.0, -5.0), v(0.0, 5.0)));
    let shifter = app
        .world_mut()
        .spawn((Collider::point(), Transform::from_xyz(-3.0, 0.0, 0.0)))
        .id();
    tick(&mut app);
    app.world_mut()
        .entity_mut(shifter)
        .insert(Collider::circle(0.5));
    app.world_mut()
        .get_mut::<Transform>(shifter)
        .unwrap()
        .translation
        .x = 3.0;
    let events: Vec<_> = tick(&mut app)
        .iter()
        .map(|e| seen_from(e, shifter))
        .collect();
    let kinds: Vec<_> = events.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [CollisionKind::Started, CollisionKind::Ended],
        "{events:?}"
    );
    assert_close(
        events[0].time_of_impact,
        2.5 / 6.0,
        1e-6,
        "touches at x = -0.5",
    );
}

/// Deeply overlapping circles: the normal still points from `other`'s centre to `entity`'s.
#[test]
fn deep_overlap_normals_point_between_centres() {
    let mut app = app();
    let big = app
        .world_mut()
        .spawn((Collider::circle(10.0), Transform::from_xyz(0.5, 0.0, 0.0)))
        .id();
    app.world_mut()
        .spawn((Collider::circle(1.0), Transform::IDENTITY));
    let events = tick(&mut app);
    assert_eq!(events.len(), 1);
    assert_vec_close(seen_from(&events[0], big).normal, Vec2::X, 1e-6, "normal");
}

/// The sweep's cost and counts reach Bevy's diagnostics store, whichever of the two plugins
/// is added first.
#[test]
fn diagnostics_are_published() {
    let mut after = app();
    after.add_plugins(SweepDiagnosticsPlugin);
    diagnostics_of(after);
    diagnostics_of(recording_app((
        MinimalPlugins,
        SweepDiagnosticsPlugin,
        SweepPlugin::default(),
    )));
    // Added first, with the sweep in `Update` and no fixed tick ever due: the measurements
    // must follow the sweep into its schedule.
    let mut update = App::new();
    update
        .add_plugins((
            MinimalPlugins,
            SweepDiagnosticsPlugin,
            SweepPlugin::new(Update),
        ))
        .insert_resource(Time::<Fixed>::from_hz(0.001))
        .init_resource::<Recorded>();
    update.update();
    diagnostics_of(update);
}

fn diagnostics_of(mut app: App) {
    use bevy::diagnostic::DiagnosticsStore;
    app.world_mut()
        .spawn((Collider::circle(1.0), Transform::IDENTITY));
    // (Moving: two colliders that stand still come to rest, and are not paired again.)
    app.world_mut().spawn((
        Collider::point(),
        Transform::from_xyz(0.5, 0.0, 0.0),
        Velocity(Vec2::new(0.0, 1.0)),
    ));
    tick(&mut app);
    tick(&mut app);
    let store = app.world().resource::<DiagnosticsStore>();
    let value = |path: &bevy::diagnostic::DiagnosticPath| store.get(path).and_then(|d| d.value());
    assert_eq!(value(&SweepDiagnosticsPlugin::COLLIDERS), Some(2.0));
    assert_eq!(value(&SweepDiagnosticsPlugin::CANDIDATE_PAIRS), Some(1.0));
    let total = value(&SweepDiagnosticsPlugin::SWEEP_TIME).unwrap_or(0.0);
    assert!(total > 0.0);
    // The phases are parts of the whole.
    let phases: f64 = [
        SweepDiagnosticsPlugin::PREPARE_TIME,
        SweepDiagnosticsPlugin::BROAD_PHASE_TIME,
        SweepDiagnosticsPlugin::NARROW_PHASE_TIME,
        SweepDiagnosticsPlugin::REPORT_TIME,
    ]
    .iter()
    .map(|path| value(path).expect("every phase is published"))
    .sum();
    assert!(
        phases > 0.0 && phases <= total * (1.0 + 1e-9),
        "{phases} of {total}"
    );
}

/// `SweepPlugin::new(schedule)` runs the sweep in that schedule: in `Update`, a collider
/// moved between two updates is swept and its contact reported in the second, with no fixed
/// tick involved.
#[test]
fn the_plugin_runs_in_the_schedule_it_is_given() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SweepPlugin::new(Update)))
        .insert_resource(Time::<Fixed>::from_hz(0.001));
    let wall = app
        .world_mut()
        .spawn((
            Collider::segment(v(0.0, -5.0), v(0.0, 5.0)),
            Transform::IDENTITY,
        ))
        .id();
    let dot = app
        .world_mut()
        .spawn((Collider::point(), Transform::from_xyz(-2.0, 0.0, 0.0)))
        .id();
    app.update();
    app.world_mut()
        .get_mut::<Transform>(dot)
        .expect("transform")
        .translation
        .x = 2.0;
    app.update();
    let events: Vec<CollisionEvent> = app
        .world_mut()
        .resource_mut::<Messages<CollisionEvent>>()
        .drain()
        .collect();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].kind, CollisionKind::Crossed);
    assert_eq!(events[0].seen_from(dot).map(|e| e.other), Some(wall));
    assert_eq!(events[0].time_of_impact, 0.5);
}
