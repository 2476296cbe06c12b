//! A headless App that runs exactly one fixed tick per `tick()` and records the events.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sweep::prelude::*;

/// Every message of the last tick, in the order sent.
#[derive(Resource, Default)]
pub(crate) struct Recorded(pub(crate) Vec<CollisionEvent>);

fn record(mut reader: MessageReader<CollisionEvent>, mut recorded: ResMut<Recorded>) {
    recorded.0.extend(reader.read().copied());
}

/// The fixed tick's duration (Bevy's default, 64 Hz).
pub(crate) const TICK: f32 = 1.0 / 64.0;

pub(crate) fn app_with(plugin: SweepPlugin) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, plugin))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .init_resource::<Recorded>()
        .add_systems(FixedPostUpdate, record.after(SweepSystems::Report));
    // The very first update runs no fixed tick.
    app.update();
    app
}

pub(crate) fn app() -> App {
    app_with(SweepPlugin::default())
}

/// Runs one fixed tick and returns its events.
pub(crate) fn tick(app: &mut App) -> Vec<CollisionEvent> {
    app.update();
    core::mem::take(&mut app.world_mut().resource_mut::<Recorded>().0)
}

/// The event seen from `entity` (flipped if `entity` is its `other`).
pub(crate) fn seen_from(event: &CollisionEvent, entity: Entity) -> CollisionEvent {
    if event.entity == entity {
        *event
    } else {
        assert_eq!(event.other, entity, "{event:?} is not about {entity}");
        event.flipped()
    }
}

pub(crate) fn assert_close(got: f32, expected: f32, tolerance: f32, what: &str) {
    assert!(
        (got - expected).abs() <= tolerance,
        "{what}: got {got}, expected {expected} (± {tolerance})"
    );
}

pub(crate) fn assert_vec_close(got: Vec2, expected: Vec2, tolerance: f32, what: &str) {
    assert!(
        got.distance(expected) <= tolerance,
        "{what}: got {got}, expected {expected} (± {tolerance})"
    );
}

/// Every field of every event is finite and in range.
pub(crate) fn assert_well_formed(events: &[CollisionEvent]) {
    for e in events {
        assert!((0.0..=1.0).contains(&e.time_of_impact), "{e:?}");
        assert!(
            e.point.is_finite() && e.relative_velocity.is_finite(),
            "{e:?}"
        );
        assert!((e.normal.length() - 1.0).abs() < 1e-4, "{e:?}");
        for along in [e.along, e.other_along].into_iter().flatten() {
            assert!((0.0..=1.0).contains(&along), "{e:?}");
        }
    }
    // Sent by time, then entities, then kind.
    let key = |e: &CollisionEvent| (e.entity.to_bits(), e.other.to_bits(), e.kind);
    for w in events.windows(2) {
        assert!(
            w[0].time_of_impact < w[1].time_of_impact
                || (w[0].time_of_impact == w[1].time_of_impact && key(&w[0]) <= key(&w[1])),
            "messages out of order: {w:?}"
        );
    }
}
