//! The plugin's part of the shared helpers (only with the `plugin` feature): a headless App
//! that runs exactly one fixed tick per update and records its events, and the checks the
//! tests make of what it reports.

use bevy::app::{Plugins, TaskPoolOptions, TaskPoolPlugin, TaskPoolThreadAssignmentPolicy};
use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sweep::prelude::*;
/// Bevy's task pools with exactly `threads` compute threads (and one thread each for IO and
/// async compute), whatever the machine's cores. The pools are global: the first app of a
/// test binary sizes them for all.
pub(crate) fn task_pools(threads: usize) -> TaskPoolPlugin {
    let exactly = |n: usize| TaskPoolThreadAssignmentPolicy {
        min_threads: n,
        max_threads: n,
        percent: 1.0,
        on_thread_spawn: None,
        on_thread_destroy: None,
    };
    TaskPoolPlugin {
        task_pool_options: TaskPoolOptions {
            min_total_threads: threads + 2,
            max_total_threads: threads + 2,
            io: exactly(1),
            async_compute: exactly(1),
            compute: exactly(threads),
        },
    }
}

// ---------------------------------------------------------------------------------------
// A headless App that runs exactly one fixed tick per `tick()` and records the events.

/// The fixed tick's duration (Bevy's default, 64 Hz).
pub(crate) const TICK: f32 = 1.0 / 64.0;

/// Every message of the last tick, in the order sent.
#[derive(Resource, Default)]
pub(crate) struct Recorded(pub(crate) Vec<CollisionEvent>);

fn record(mut reader: MessageReader<CollisionEvent>, mut recorded: ResMut<Recorded>) {
    recorded.0.extend(reader.read().copied());
}

/// An App of `plugins` whose every update runs exactly one fixed tick. Nothing has run yet.
pub(crate) fn fixed_tick_app<M>(plugins: impl Plugins<M>) -> App {
    let mut app = App::new();
    app.add_plugins(plugins)
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app
}

/// A [`fixed_tick_app`] of `plugins` (which include a `SweepPlugin` in `FixedPostUpdate`) that
/// records every `CollisionEvent` for [`tick`], after its first update, which runs no fixed
/// tick.
pub(crate) fn recording_app<M>(plugins: impl Plugins<M>) -> App {
    let mut app = fixed_tick_app(plugins);
    app.init_resource::<Recorded>()
        .add_systems(FixedPostUpdate, record.after(SweepSystems::Report));
    // The very first update runs no fixed tick.
    app.update();
    app
}

/// A [`recording_app`] of `MinimalPlugins` and `plugin`.
pub(crate) fn app_with(plugin: SweepPlugin) -> App {
    recording_app((MinimalPlugins, plugin))
}

/// A [`recording_app`] of `MinimalPlugins` and the default `SweepPlugin`.
pub(crate) fn app() -> App {
    app_with(SweepPlugin::default())
}

/// Runs one fixed tick and returns its events.
pub(crate) fn tick(app: &mut App) -> Vec<CollisionEvent> {
    app.update();
    core::mem::take(&mut app.world_mut().resource_mut::<Recorded>().0)
}

/// Runs `f` with a `SweepQuery` on the app's world.
pub(crate) fn with_query<R>(app: &mut App, f: impl FnOnce(&SweepQuery) -> R) -> R {
    let mut state = SystemState::<SweepQuery>::new(app.world_mut());
    let query = state.get(app.world()).expect("the plugin is added");
    f(&query)
}

// ---------------------------------------------------------------------------------------
// Checks.

/// The event seen from `entity` ([`CollisionEvent::seen_from`]), which it must be about.
#[track_caller]
pub(crate) fn seen_from(event: &CollisionEvent, entity: Entity) -> CollisionEvent {
    event
        .seen_from(entity)
        .unwrap_or_else(|| panic!("{event:?} is not about {entity}"))
}

#[track_caller]
pub(crate) fn assert_close(got: f32, expected: f32, tolerance: f32, what: &str) {
    assert!(
        (got - expected).abs() <= tolerance,
        "{what}: got {got}, expected {expected} (± {tolerance})"
    );
}

#[track_caller]
pub(crate) fn assert_vec_close(got: Vec2, expected: Vec2, tolerance: f32, what: &str) {
    assert!(
        got.distance(expected) <= tolerance,
        "{what}: got {got}, expected {expected} (± {tolerance})"
    );
}

/// The same number of contact intervals as the exact `want`, each end strictly within
/// `tolerance` of its exact value.
pub(crate) fn intervals_close(got: &[[f32; 2]], want: &[[f64; 2]], tolerance: f64) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|(g, w)| {
            (f64::from(g[0]) - w[0]).abs() < tolerance && (f64::from(g[1]) - w[1]).abs() < tolerance
        })
}

/// Every field of every event is finite and in range.
#[track_caller]
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
