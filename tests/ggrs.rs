//! Rollback netcode with `bevy_ggrs`, proven by its own `SyncTestSession`, which rolls the
//! game back 7 frames and re-simulates it at every frame and compares the checksums (the
//! game's `Transform`s and counts, and the sweep's state that `SweepRollbackPlugin` adds).
//!
//! The game is the `netplay` example's arena (`examples/netplay/arena.rs`), played by two
//! scripted players: characters walking, jumping and landing on a floor of tiles and a
//! one-way platform, bouncing balls thrown and despawned with a plain `despawn()` (which
//! `bevy_ggrs` brings back under new ids on a rollback) that bounce off each other and off
//! the players, coins (sensors) that teleport when picked up, and a door that moves while it
//! is switched off and on.
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

use arena::{Config, Tally, add_arena, bot_input};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_ggrs::ggrs::{DesyncDetection, Message, NonBlockingSocket};
use bevy_ggrs::ggrs::{PlayerType, SessionBuilder};
use bevy_ggrs::prelude::*;
use bevy_ggrs::{
    Checksum, ChecksumPlugin, ConfirmedFrameCount, GgrsSchedule, LoadWorld, LocalInputs,
    LocalPlayers, ReadInputs, RollbackFrameCount, SaveWorld,
};
use bevy_sweep::prelude::*;
use core::time::Duration;
use std::collections::{BTreeMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// How far back each frame is rolled and re-simulated.
const CHECK_DISTANCE: usize = 7;

/// The frames each run plays.
const FRAMES: usize = 1_200;

/// The bots' script (its seed).
#[derive(Resource, Default)]
struct BotSeed(u32);

/// The scripted players' inputs (in `ReadInputs`).
fn read_bot_inputs(
    mut commands: Commands,
    players: Res<LocalPlayers>,
    frame: Res<RollbackFrameCount>,
    seed: Res<BotSeed>,
) {
    let inputs = players
        .0
        .iter()
        .map(|&handle| (handle, bot_input(handle, frame.0.max(0) as u32, seed.0)))
        .collect();
    commands.insert_resource(LocalInputs::<Config>(inputs));
}

/// The frames at which `SyncTest` found a mismatch.
#[derive(Resource, Default)]
struct Mismatches(Vec<i32>);

/// An app with `session`, four compute threads, the arena and `sweep` (what the sweep runs
/// with), stepped one `bevy_ggrs` frame per update; it keeps each frame's checksum and counts
/// the rollbacks.
fn game_app(session: Session<Config>, sweep: impl Plugin) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(common::task_pools(4)))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / arena::FPS as f64,
        )))
        .add_plugins(GgrsPlugin::<Config>::default())
        .insert_resource(session)
        .init_resource::<BotSeed>()
        .init_resource::<Mismatches>()
        .init_resource::<Checksums>()
        .add_systems(ReadInputs, read_bot_inputs)
        .add_systems(
            SaveWorld,
            // (After the frame's checksum is summed up.)
            keep_checksum.after(ChecksumPlugin::update),
        )
        .add_systems(
            LoadWorld,
            |frame: Res<RollbackFrameCount>, mut checksums: ResMut<Checksums>| {
                checksums.rollbacks += 1;
                checksums.earliest = Some(checksums.earliest.map_or(frame.0, |e| e.min(frame.0)));
            },
        )
        .add_observer(
            |mismatch: On<SyncTestMismatch>, mut found: ResMut<Mismatches>| {
                found.0.push(mismatch.event().current_frame);
            },
        );
    add_arena(&mut app, sweep);
    app
}

/// An app with a two-player `SyncTestSession` (see [`game_app`]).
fn synctest_app(sweep: impl Plugin) -> App {
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
    game_app(Session::SyncTest(session), sweep)
}

/// Each frame's checksum as last saved (a re-simulated frame's replaces the first), and the
/// rollbacks (not rolled back themselves).
#[derive(Resource, Default)]
struct Checksums {
    frames: BTreeMap<i32, u128>,
    rollbacks: u32,
    /// The earliest frame rolled back to.
    earliest: Option<i32>,
}

fn keep_checksum(
    frame: Res<RollbackFrameCount>,
    checksum: Res<Checksum>,
    mut checksums: ResMut<Checksums>,
) {
    checksums.frames.insert(frame.0, checksum.0);
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
    assert_eq!(tally.escaped, 0, "balls left the arena: {tally:?}");
    assert!(tally.coins.iter().sum::<u32>() > 0, "coins: {tally:?}");
    assert!(tally.switches >= 20, "door: {tally:?}");
    assert!(tally.bumps > 0, "no ball touched another: {tally:?}");
    assert_eq!(serial.2.coins, parallel.2.coins);
}

/// Other scripts (seeds 1 and 2: the players turn, jump and throw at other frames), on four
/// threads: no mismatch either, and no ball leaves the arena.
#[test]
fn other_scripts_pass_the_sync_test_too() {
    for seed in 1..=2 {
        let mut app = synctest_app(SweepRollbackPlugin::default());
        app.insert_resource(BotSeed(seed));
        let (mismatches, checksum, tally) = play(app);
        assert!(
            mismatches.is_empty(),
            "seed {seed}: mismatches at {mismatches:?}"
        );
        assert_ne!(checksum, 0);
        assert!(
            tally.thrown > 50 && tally.escaped == 0,
            "seed {seed}: {tally:?}"
        );
    }
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

/// The wire between two peers in this process: what each sends arrives in order, a few
/// rounds of the test's loop later (1 to 3, varying), as over a slow network. No ports.
/// (Not the same run every time: `ggrs` also sends on timers of real time, which shifts
/// the delays; the game, which the inputs alone decide, is the same.)
#[derive(Default)]
struct Wire {
    /// The test loop's round.
    round: u32,
    /// What is on the way to each peer: the round it arrives, the sender, the message.
    to: [VecDeque<(u32, SocketAddr, Message)>; 2],
    /// Messages sent so far (which sets each one's delay).
    sent: u32,
}

/// The peers' addresses on the wire (labels: nothing is bound).
fn address(peer: usize) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 7000 + peer as u16))
}

/// One peer's end of a [`Wire`].
struct WireSocket {
    wire: Arc<Mutex<Wire>>,
    me: usize,
}

impl NonBlockingSocket<SocketAddr> for WireSocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        let mut wire = self.wire.lock().expect("the wire");
        let to = usize::from(*addr == address(1));
        wire.sent += 1;
        let arrives = wire.round + 1 + wire.sent % 3;
        let arrives = wire.to[to]
            .back()
            .map_or(arrives, |last| last.0.max(arrives));
        wire.to[to].push_back((arrives, address(self.me), msg.clone()));
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let mut wire = self.wire.lock().expect("the wire");
        let round = wire.round;
        let inbox = &mut wire.to[self.me];
        let mut arrived = Vec::new();
        while inbox.front().is_some_and(|(at, _, _)| *at <= round) {
            let (_, from, msg) = inbox.pop_front().expect("a message");
            arrived.push((from, msg));
        }
        arrived
    }
}

/// How the peers of [`play_p2p`] ended: the frames both confirmed whose checksums differ,
/// the frames compared, each peer's rollbacks, whether `bevy_ggrs` reported a desync, and
/// each peer's tally.
struct P2pRun {
    differing: Vec<i32>,
    compared: usize,
    rollbacks: [u32; 2],
    /// The earliest frame either peer rolled back to.
    earliest: Option<i32>,
    desync_reported: bool,
    tallies: [Tally; 2],
    /// The first peer's checksums of the frames both confirmed.
    confirmed: BTreeMap<i32, u128>,
}

/// Two peers (one player each, input delay 0, desync detection every frame) over a
/// [`Wire`], each with the sweep that `sweep` makes, played until both have confirmed
/// `frames` frames.
fn play_p2p<P: Plugin>(sweep: impl Fn() -> P, frames: i32) -> P2pRun {
    let wire = Arc::new(Mutex::new(Wire::default()));
    let mut peers: Vec<App> = (0..2)
        .map(|me| {
            let mut builder = SessionBuilder::<Config>::new()
                .with_num_players(2)
                .expect("two players")
                .with_input_delay(0)
                .with_max_prediction_window(8)
                .with_desync_detection_mode(DesyncDetection::On { interval: 1 });
            for handle in 0..2 {
                let player = if handle == me {
                    PlayerType::Local
                } else {
                    PlayerType::Remote(address(handle))
                };
                builder = builder.add_player(player, handle).expect("a player");
            }
            let socket = WireSocket {
                wire: wire.clone(),
                me,
            };
            let session = builder.start_p2p_session(socket).expect("a P2P session");
            game_app(Session::P2P(session), sweep())
        })
        .collect();
    let mut desync_reported = false;
    for _ in 0..20 * frames {
        wire.lock().expect("the wire").round += 1;
        for peer in &mut peers {
            peer.update();
            let mut session = peer.world_mut().resource_mut::<Session<Config>>();
            if let Session::P2P(session) = session.as_mut() {
                desync_reported |= session
                    .events()
                    .any(|event| matches!(event, GgrsEvent::DesyncDetected { .. }));
            }
        }
        let confirmed = |peer: &App| peer.world().resource::<ConfirmedFrameCount>().0;
        if peers.iter().all(|peer| confirmed(peer) >= frames) {
            break;
        }
    }
    let [a, b] = [0, 1].map(|i| peers[i].world().resource::<Checksums>());
    let mut differing = Vec::new();
    let mut compared = 0;
    for (frame, checksum) in a.frames.range(..=frames) {
        if let Some(other) = b.frames.get(frame) {
            compared += 1;
            if checksum != other {
                differing.push(*frame);
            }
        }
    }
    P2pRun {
        differing,
        compared,
        rollbacks: [a.rollbacks, b.rollbacks],
        earliest: a.earliest.into_iter().chain(b.earliest).min(),
        desync_reported,
        tallies: [0, 1].map(|i| *peers[i].world().resource::<Tally>()),
        confirmed: a.frames.range(..=frames).map(|(f, c)| (*f, *c)).collect(),
    }
}

/// Two peers over a slow wire, with input delay 0: each predicts the other's inputs and
/// rolls back when a prediction was wrong, dozens of times. Every frame both confirmed has
/// the same checksum on both, and `bevy_ggrs`'s own desync detection finds nothing. The
/// bots play by the frame number, so it is the game a sync test plays: the same checksum at
/// every frame there too.
#[test]
fn two_peers_roll_back_and_agree_on_every_frame() {
    let frames = 600;
    let run = play_p2p(SweepRollbackPlugin::default, frames);
    assert!(
        run.compared >= frames as usize,
        "{} frames compared",
        run.compared
    );
    assert!(
        run.differing.is_empty(),
        "checksums differ at {:?}",
        run.differing
    );
    assert!(!run.desync_reported, "bevy_ggrs reported a desync");
    assert!(
        run.rollbacks.iter().all(|&r| r >= 20),
        "rollbacks: {:?}",
        run.rollbacks
    );
    // Frame 0 rolled back to as well, before the sweep's first tick (the bots' first
    // inputs are not the default, so the first prediction is wrong).
    assert_eq!(run.earliest, Some(0), "the earliest rollback");
    assert_eq!(run.tallies[0], run.tallies[1]);
    assert!(run.tallies[0].thrown > 20, "{:?}", run.tallies[0]);
    assert_eq!(run.tallies[0].escaped, 0, "{:?}", run.tallies[0]);
    let mut alone = synctest_app(SweepRollbackPlugin::default());
    while alone.world().resource::<RollbackFrameCount>().0 <= frames {
        alone.update();
    }
    let reference = &alone.world().resource::<Checksums>().frames;
    let other: Vec<i32> = run
        .confirmed
        .iter()
        .filter(|(frame, checksum)| reference.get(frame) != Some(checksum))
        .map(|(frame, _)| *frame)
        .collect();
    assert!(
        other.is_empty(),
        "the sync test's checksums differ at {other:?}"
    );
}

/// The same with a plain `SweepPlugin` in `GgrsSchedule`: the peers part ways, and both the
/// per-frame comparison and `bevy_ggrs` find it (the test above can fail).
#[test]
fn two_peers_without_the_sweeps_state_part_ways() {
    let run = play_p2p(|| SweepPlugin::new(GgrsSchedule), 600);
    assert!(!run.differing.is_empty(), "no frame differs");
    assert!(run.desync_reported, "bevy_ggrs reported no desync");
}
