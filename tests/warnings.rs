//! Unusable colliders are warned about once, by name, not every tick.
//!
//! Its own test binary: it installs a global logger that counts warnings.

use bevy::prelude::*;
use bevy_sweep::prelude::*;

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;
use common::app;
use common::warnings::{keep_warnings, warnings as kept};

#[test]
fn one_warning_per_unusable_collider_naming_it() {
    keep_warnings();
    let mut app = app();
    let nan = app
        .world_mut()
        .spawn((Collider::point(), Transform::from_xyz(f32::NAN, 0.0, 0.0)))
        .id();
    let flat = app
        .world_mut()
        .spawn((Collider::circle(0.0), Transform::IDENTITY))
        .id();
    for _ in 0..10 {
        app.update();
    }
    let warnings = kept();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    for entity in [nan, flat] {
        assert_eq!(
            warnings
                .iter()
                .filter(|w| w.contains(&entity.to_string()))
                .count(),
            1,
            "{entity}: {warnings:?}"
        );
    }
    // A new problem on the same collider is a new warning.
    *app.world_mut().get_mut::<Collider>(flat).unwrap() = Collider::circle(-2.0);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(
        kept().len(),
        2,
        "same reason (a size not positive): no new warning"
    );
    *app.world_mut().get_mut::<Collider>(flat).unwrap() = Collider::aabb(Vec2::ZERO);
    app.update();
    assert_eq!(kept().len(), 2, "still a size not positive");
    *app.world_mut().get_mut::<Collider>(flat).unwrap() = Collider::segment(Vec2::X, Vec2::X);
    app.update();
    let warnings = kept();
    assert_eq!(warnings.len(), 3, "a different reason is reported");
    assert!(
        warnings[2].contains(&SkipReason::ZeroLengthSegment.to_string()),
        "{warnings:?}"
    );

    // An axis-aligned box on a rotated transform works (the rotation is ignored) and is
    // warned about once, by name; one on an unrotated transform is not.
    let turned = app
        .world_mut()
        .spawn((
            Collider::aabb(Vec2::ONE),
            Transform::from_rotation(Quat::from_rotation_z(0.3)),
        ))
        .id();
    let straight = app
        .world_mut()
        .spawn((
            Collider::aabb(Vec2::ONE),
            Transform::from_xyz(50.0, 0.0, 0.0),
        ))
        .id();
    // A half turn (off-axis entries of rounding size) and a mirror leave the box as it is.
    let half_turn = app
        .world_mut()
        .spawn((
            Collider::aabb(Vec2::ONE),
            Transform::from_xyz(-50.0, 0.0, 0.0)
                .with_rotation(Quat::from_rotation_z(core::f32::consts::PI)),
        ))
        .id();
    let mirrored = app
        .world_mut()
        .spawn((
            Collider::aabb(Vec2::ONE),
            Transform::from_xyz(0.0, 50.0, 0.0).with_scale(Vec3::new(-1.0, 1.0, 1.0)),
        ))
        .id();
    for _ in 0..5 {
        app.update();
    }
    let warnings = kept();
    assert_eq!(warnings.len(), 4, "{warnings:?}");
    assert!(
        warnings[3].contains(&turned.to_string()) && warnings[3].contains("rotat"),
        "{warnings:?}"
    );
    for quiet in [straight, half_turn, mirrored] {
        assert!(
            !warnings.iter().any(|w| w.contains(&quiet.to_string())),
            "{quiet}: {warnings:?}"
        );
    }
    let skipped = app.world().resource::<SkippedColliders>();
    assert!(skipped.reason(turned).is_none(), "still swept, not skipped");

    // The new shapes' bad input: a capsule without a radius, a rectangle of zero width, a
    // polygon built by hand from points that are not convex are skipped, each warned about
    // once by name; a polyline with a repeated point keeps its other edges and is warned
    // about once.
    let before = kept().len();
    let thin = app
        .world_mut()
        .spawn((
            Collider::capsule(Vec2::ZERO, Vec2::X, 0.0),
            Transform::from_xyz(100.0, 0.0, 0.0),
        ))
        .id();
    let flat_rectangle = app
        .world_mut()
        .spawn((
            Collider::rectangle(Vec2::new(0.0, 1.0)),
            Transform::from_xyz(200.0, 0.0, 0.0),
        ))
        .id();
    let dart = app
        .world_mut()
        .spawn((
            common::unchecked_convex_polygon(vec![
                Vec2::ZERO,
                Vec2::new(4.0, 0.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(0.0, 4.0),
            ]),
            Transform::from_xyz(300.0, 0.0, 0.0),
        ))
        .id();
    let repeated = app
        .world_mut()
        .spawn((
            Collider::polyline(&[Vec2::ZERO, Vec2::ZERO, Vec2::new(0.0, 10.0)]).unwrap(),
            Transform::from_xyz(400.0, 0.0, 0.0),
        ))
        .id();
    // A point crossing the polyline's remaining edge.
    let dot = app
        .world_mut()
        .spawn((
            Collider::point(),
            Transform::from_xyz(395.0, 5.0, 0.0),
            Velocity(Vec2::new(640.0, 0.0)),
        ))
        .id();
    let mut crossed = 0;
    app.add_observer(move |contact: On<CollisionEvent>| {
        assert!(contact.entity == dot || contact.other == dot);
    });
    for _ in 0..5 {
        app.update();
        crossed += app.world().resource::<SweepStats>().events;
    }
    one_warning_each(
        &kept()[before..],
        &[
            (thin, "radius"),
            (flat_rectangle, "half extent"),
            (dart, "convex"),
            (repeated, "repeated"),
        ],
    );
    let skipped = app.world().resource::<SkippedColliders>();
    for (entity, reason) in [
        (thin, SkipReason::NonPositiveSize),
        (flat_rectangle, SkipReason::NonPositiveSize),
        (dart, SkipReason::NotConvex),
    ] {
        assert_eq!(skipped.reason(entity), Some(reason), "{entity}");
    }
    assert!(
        skipped.reason(repeated).is_none(),
        "a polyline with edges left"
    );
    assert_eq!(crossed, 1, "the point crosses the remaining edge once");

    // Responders' bad input: a bounce with a negative restitution is skipped with its
    // reason; a Response without a Velocity, a character with an unusable skin and max slope
    // are each warned about once, by name, and go on (the character with the defaults).
    let before = kept().len();
    let negative = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(500.0, 0.0, 0.0),
            Velocity(Vec2::X),
            Response::Bounce { restitution: -1.0 },
        ))
        .id();
    let unmoved = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(600.0, 0.0, 0.0),
            Response::Slide,
        ))
        .id();
    let sloppy = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(700.0, 0.0, 0.0),
            KinematicCharacter {
                skin: -1.0,
                max_slope: f32::NAN,
                ..default()
            },
        ))
        .id();
    for _ in 0..5 {
        app.update();
    }
    one_warning_each(
        &kept()[before..],
        &[
            (negative, "restitution"),
            (unmoved, "Velocity"),
            (sloppy, "skin"),
        ],
    );
    let skipped = app.world().resource::<SkippedColliders>();
    assert_eq!(
        skipped.reason(negative),
        Some(SkipReason::InvalidRestitution)
    );
    assert!(skipped.reason(unmoved).is_none() && skipped.reason(sloppy).is_none());
}

/// `warnings` are one for each of `expected`: naming its entity and saying its word.
fn one_warning_each(warnings: &[String], expected: &[(Entity, &str)]) {
    assert_eq!(warnings.len(), expected.len(), "{warnings:?}");
    for &(entity, word) in expected {
        let about: Vec<_> = warnings
            .iter()
            .filter(|w| w.contains(&entity.to_string()))
            .collect();
        assert_eq!(about.len(), 1, "{entity}: {warnings:?}");
        assert!(about[0].contains(word), "{entity}: {warnings:?}");
    }
}
