//! Unusable colliders are warned about once, by name, not every tick.
//!
//! Its own test binary: it installs a global logger that counts warnings.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sweep::prelude::*;
use std::sync::Mutex;

static WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Counter;

impl log::Log for Counter {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::Level::Warn
    }

    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            WARNINGS.lock().unwrap().push(record.args().to_string());
        }
    }

    fn flush(&self) {}
}

#[test]
fn one_warning_per_unusable_collider_naming_it() {
    log::set_logger(&Counter).unwrap();
    log::set_max_level(log::LevelFilter::Warn);
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SweepPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.update();
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
    let warnings = WARNINGS.lock().unwrap().clone();
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
        WARNINGS.lock().unwrap().len(),
        2,
        "same reason text: no new warning"
    );
    *app.world_mut().get_mut::<Collider>(flat).unwrap() = Collider::aabb(Vec2::ZERO);
    app.update();
    assert_eq!(
        WARNINGS.lock().unwrap().len(),
        3,
        "a different reason is reported"
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
    let warnings = WARNINGS.lock().unwrap().clone();
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
}
