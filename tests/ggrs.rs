//! Rollback netcode with `bevy_ggrs`, proven by its own `SyncTestSession`, which rolls the
//! game back 7 frames and re-simulates it at every frame and compares the checksums (the
//! game's `Transform`s and counts, and the sweep's state that `SweepRollbackPlugin` adds).
//!
//! The game is the `netplay` example's arena (`examples/netplay/arena.rs`), played by two
//! scripted players: characters walking, jumping and landing on a floor of tiles and a
//! one-way platform, bouncing balls thrown and despawned with a plain `despawn()` (which
//! `bevy_ggrs` brings back under new ids on a rollback), coins (sensors) that teleport when
//! picked up, and a door that moves while it is switched off and on.
//!
//! Its own test binary (feature `ggrs`): its apps are the first to create Bevy's global
//! compute task pool, with four threads even on a two-core machine.

#[path = "../examples/netplay/arena.rs"]
mod arena;
#[allow(
    dead_code,
    unused_imports,
    reason = "each test binary uses some of the shared helpers"
)]
mod common;

use arena::{BotClock, Config, Tally, add_arena, read_bot_inputs};
use bevy::app::{TaskPoolOptions, TaskPoolPlugin, TaskPoolThreadAssignmentPolicy};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_ggrs::ggrs::{PlayerType, SessionBuilder};
use bevy_ggrs::prelude::*;
use bevy_ggrs::{Checksum, GgrsSchedule, ReadInputs};
use bevy_sweep::prelude::*;
use core::time::Duration;

/// How far back each frame is rolled and re-simulated.
const CHECK_DISTANCE: usize = 7;

/// The frames each run plays.
const FRAMES: usize = 1_200;

/// The frames at which `SyncTest` found a mismatch.
#[derive(Resource, Default)]
struct Mismatches(Vec<i32>);

/// An app with a two-player `SyncTestSession`, four compute threads, the arena and `sweep`
/// (what the sweep runs with), stepped one `bevy_ggrs` frame per update.
fn synctest_app(sweep: impl Plugin) -> App {
    let exactly = |n: usize| TaskPoolThreadAssignmentPolicy {
        min_threads: n,
        max_threads: n,
        percent: 1.0,
        on_thread_spawn: None,
        on_thread_destroy: None,
    };
    let task_pool_options = TaskPoolOptions {
        min_total_threads: 6,
        max_total_threads: 6,
        io: exactly(1),
        async_compute: exactly(1),
        compute: exactly(4),
    };
    let session = SessionBuilder::<Config>::new()
        .with_num_players(2)
        .expect("two players")
        .with_check_distance(CHECK_DISTANCE)
        .add_player(PlayerType::Local, 0)
        .expect("player 0")
        .add_player(PlayerType::Local, 1)
        .expect("player 1")
        .start_synctest_session()
        .expect("a sync test session");
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin { task_pool_options }))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / arena::FPS as f64,
        )))
        .add_plugins(GgrsPlugin::<Config>::default())
        .insert_resource(Session::SyncTest(session))
        .init_resource::<BotClock>()
        .init_resource::<Mismatches>()
        .add_systems(ReadInputs, read_bot_inputs)
        .add_observer(
            |mismatch: On<SyncTestMismatch>, mut found: ResMut<Mismatches>| {
                found.0.push(mismatch.event().current_frame);
            },
        );
    add_arena(&mut app, sweep);
    app
}

/// Plays up to [`FRAMES`] frames (stopping at the first mismatch, after which a sync test
/// does not go on); returns the frames with a mismatch, the last checksum and the tally.
fn play(mut app: App) -> (Vec<i32>, u128, Tally) {
    for _ in 0..FRAMES {
        app.update();
        if !app.world().resource::<Mismatches>().0.is_empty() {
            break;
        }
    }
    let world = app.world();
    (
        world.resource::<Mismatches>().0.clone(),
        world.resource::<Checksum>().0,
        *world.resource::<Tally>(),
    )
}

/// 1,200 frames, each rolled back 7 frames and re-simulated: no mismatch, on the main
/// thread alone and on four compute threads, and the same final checksum on both. The game
/// did what it is there to do: balls thrown and despawned, coins picked up (teleported), the
/// door switched off and on while it moved.
#[test]
fn the_arena_passes_bevy_ggrs_sync_test_on_one_and_four_threads() {
    let serial = play(synctest_app(SweepRollbackPlugin {
        parallel: false,
        ..default()
    }));
    let parallel = play(synctest_app(SweepRollbackPlugin::default()));
    for (run, (mismatches, _, _)) in [("serial", &serial), ("four threads", &parallel)] {
        assert!(mismatches.is_empty(), "{run}: mismatches at {mismatches:?}");
    }
    assert_eq!(serial.1, parallel.1, "the final checksums differ");
    assert_ne!(serial.1, 0);
    let tally = serial.2;
    assert!(tally.thrown > 50 && tally.gone > 40, "balls: {tally:?}");
    assert!(tally.coins.iter().sum::<u32>() > 0, "coins: {tally:?}");
    assert!(tally.switches >= 20, "door: {tally:?}");
    assert_eq!(serial.2.coins, parallel.2.coins);
}

/// The same game with a plain `SweepPlugin` in `GgrsSchedule`: the sweep runs in the rolled
/// back schedule, but its state is not rolled back with the world. The sync test finds the
/// mismatch: the test can fail.
#[test]
fn without_the_sweeps_state_the_sync_test_fails() {
    let (mismatches, _, _) = play(synctest_app(SweepPlugin::new(GgrsSchedule)));
    assert!(
        !mismatches.is_empty(),
        "no mismatch found in {FRAMES} frames"
    );
}

/// A `SweepPlugin` left in its default schedule beside `bevy_ggrs` is warned about once, by
/// name of the problem; `SweepRollbackPlugin` is not.
#[test]
fn a_sweep_outside_ggrs_schedule_is_warned_about() {
    common::warnings::keep_warnings();
    let text = "but bevy_ggrs is in the app";
    let before = common::warnings::warnings_with(text).len();
    let mut app = synctest_app(SweepPlugin::default());
    app.update();
    assert_eq!(common::warnings::warnings_with(text).len(), before + 1);
    let mut app = synctest_app(SweepRollbackPlugin::default());
    app.update();
    assert_eq!(common::warnings::warnings_with(text).len(), before + 1);
}

/// A rollback to a frame whose sweep state was never saved (here, the saved states thrown
/// away) is warned about and does not panic; the game goes on.
#[test]
fn a_rollback_to_a_frame_never_saved_is_warned_about() {
    common::warnings::keep_warnings();
    let text = "no sweep state was saved for frame";
    let before = common::warnings::warnings_with(text).len();
    let mut app = synctest_app(SweepRollbackPlugin::default());
    for _ in 0..30 {
        app.update();
    }
    app.world_mut()
        .insert_resource(bevy_ggrs::GgrsSnapshots::<SweepState>::default());
    app.update();
    assert!(common::warnings::warnings_with(text).len() > before);
    for _ in 0..10 {
        app.update();
    }
}
