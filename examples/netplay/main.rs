//! Rollback netcode with `bevy_ggrs`: two players, each a `KinematicCharacter`, run, jump
//! and throw bouncing balls in a small arena (a one-way platform, a floor of tiles, a door
//! that moves and is switched off and on, coins that jump elsewhere when picked up). The
//! sweep is rolled back with the game by one plugin, `SweepRollbackPlugin`.
//!
//! | mode | command |
//! |---|---|
//! | both players on this keyboard, rolled back 7 frames and re-simulated every frame (`bevy_ggrs`'s sync test) | `cargo run --example netplay --features ggrs,debug-draw -- --synctest` |
//! | one player of a game between two processes over UDP | `… -- --local-port 7001 --remote 127.0.0.1:7002 --player 0` and `… -- --local-port 7002 --remote 127.0.0.1:7001 --player 1` |
//!
//! Controls: `A`/`D` or the arrows to run, `W`/`Space`/`Up` to jump, `F` or the left mouse
//! button to throw. Options: `--bot` plays a scripted player instead of the keyboard
//! (`--seed N` picks another script),
//! `--input-delay N` delays local inputs by `N` frames (2 by default; 0 makes every change
//! of the remote player's input a rollback),
//! `--frames N` quits once frame `N` is confirmed and prints its checksum (`netplay: frame N
//! checksum …`), `--headless` runs without a window.

#![expect(
    clippy::print_stderr,
    reason = "a bad command line is told on the terminal, before the app (and its log) starts"
)]

#[path = "arena.rs"]
mod arena;
#[path = "../support/demo.rs"]
mod demo;
#[path = "../support/scripted.rs"]
mod scripted;

use arena::{Config, JUMP, LEFT, RIGHT, THROW, Tally, add_arena, bot_input};
use bevy::app::ScheduleRunnerPlugin;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_ggrs::ggrs::{DesyncDetection, PlayerType, SessionBuilder, UdpNonBlockingSocket};
use bevy_ggrs::prelude::*;
use bevy_ggrs::{
    AdvanceWorld, Checksum, ChecksumPlugin, ConfirmedFrameCount, LoadWorld, LocalInputs,
    LocalPlayers, ReadInputs, RollbackFrameCount, SaveWorld,
};
use bevy_sweep::prelude::*;
use core::time::Duration;
use demo::Hud;
use scripted::ScriptedRun;
use std::collections::BTreeMap;
use std::net::SocketAddr;

/// How far the sync test rolls back and re-simulates each frame.
const CHECK_DISTANCE: usize = 7;

/// The command line.
#[derive(Resource, Clone, Debug, Default)]
struct Options {
    synctest: bool,
    local_port: Option<u16>,
    remote: Option<SocketAddr>,
    player: usize,
    bot: bool,
    seed: u32,
    frames: Option<i32>,
    headless: bool,
    input_delay: usize,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        input_delay: 2,
        ..default()
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--synctest" => options.synctest = true,
            "--bot" => options.bot = true,
            "--headless" => options.headless = true,
            "--local-port" => {
                options.local_port = Some(value(&arg)?.parse().map_err(|e| format!("{e}"))?);
            }
            "--remote" => options.remote = Some(value(&arg)?.parse().map_err(|e| format!("{e}"))?),
            "--player" => options.player = value(&arg)?.parse().map_err(|e| format!("{e}"))?,
            "--seed" => options.seed = value(&arg)?.parse().map_err(|e| format!("{e}"))?,
            "--input-delay" => {
                options.input_delay = value(&arg)?.parse().map_err(|e| format!("{e}"))?;
            }
            "--frames" => options.frames = Some(value(&arg)?.parse().map_err(|e| format!("{e}"))?),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if !options.synctest && (options.local_port.is_none() || options.remote.is_none()) {
        return Err("give --synctest, or --local-port and --remote".into());
    }
    if options.player > 1 {
        return Err("--player is 0 or 1".into());
    }
    Ok(options)
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(problem) => {
            eprintln!("netplay: {problem}\n(see the docs at the top of examples/netplay/main.rs)");
            std::process::exit(2);
        }
    };
    let session = match session(&options) {
        Ok(session) => session,
        Err(problem) => {
            eprintln!("netplay: no session: {problem}");
            std::process::exit(1);
        }
    };
    let mut app = App::new();
    if options.headless {
        app.add_plugins((
            MinimalPlugins.set(ScheduleRunnerPlugin::run_loop(Duration::from_secs_f64(
                1.0 / 240.0,
            ))),
            bevy::log::LogPlugin::default(),
        ));
    } else {
        app.add_plugins((
            DefaultPlugins.set(demo::window("netplay", (1280, 720))),
            SweepDebugPlugin,
            ScriptedRun,
        ))
        .insert_resource(ClearColor(Color::srgb(0.05, 0.07, 0.10)))
        .add_systems(Startup, |mut commands: Commands| {
            commands.spawn(Camera2d);
            commands.spawn(demo::hud(20.0, Vec2::new(12.0, 8.0)));
        })
        .add_systems(Update, hud);
    }
    app.add_plugins(GgrsPlugin::<Config>::default())
        .insert_resource(session)
        .insert_resource(options)
        .init_resource::<Checksums>()
        .add_systems(ReadInputs, read_inputs)
        .add_systems(
            SaveWorld,
            // (After the frame's checksum is summed up.)
            keep_checksum.after(ChecksumPlugin::update),
        )
        .add_systems(LoadWorld, |mut c: ResMut<Checksums>| c.rollbacks += 1)
        .add_systems(AdvanceWorld, |mut c: ResMut<Checksums>| c.simulated += 1)
        .add_systems(Update, (watch_session, finish))
        .add_observer(|mismatch: On<SyncTestMismatch>| {
            error!("netplay: sync test mismatch: {:?}", mismatch.event());
            std::process::exit(1);
        });
    add_arena(&mut app, SweepRollbackPlugin::default());
    app.run();
}

/// The session the options ask for: a two-player sync test, or one player of two over UDP
/// (with `bevy_ggrs`'s input delay, prediction and desync detection).
fn session(options: &Options) -> Result<Session<Config>, Box<dyn std::error::Error>> {
    let builder = SessionBuilder::<Config>::new().with_num_players(2)?;
    if options.synctest {
        let session = builder
            .with_check_distance(CHECK_DISTANCE)
            .add_player(PlayerType::Local, 0)?
            .add_player(PlayerType::Local, 1)?
            .start_synctest_session()?;
        return Ok(Session::SyncTest(session));
    }
    let (Some(port), Some(remote)) = (options.local_port, options.remote) else {
        return Err("no port or remote address".into());
    };
    let mut builder = builder
        .with_input_delay(options.input_delay)
        .with_max_prediction_window(8)
        .with_desync_detection_mode(DesyncDetection::On { interval: 10 });
    for handle in 0..2 {
        let player = if handle == options.player {
            PlayerType::Local
        } else {
            PlayerType::Remote(remote)
        };
        builder = builder.add_player(player, handle)?;
    }
    let socket = UdpNonBlockingSocket::bind_to_port(port)?;
    Ok(Session::P2P(builder.start_p2p_session(socket)?))
}

/// The local players' inputs: the keyboard and mouse (a sync test gives both players the
/// same), or the bots'.
fn read_inputs(
    mut commands: Commands,
    players: Res<LocalPlayers>,
    options: Res<Options>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    frame: Res<RollbackFrameCount>,
) {
    let pressed = |codes: &[KeyCode]| {
        keys.as_ref()
            .is_some_and(|k| k.any_pressed(codes.iter().copied()))
    };
    let mut inputs = HashMap::new();
    for &handle in &players.0 {
        let input = if options.bot {
            bot_input(handle, frame.0.max(0) as u32, options.seed)
        } else {
            let mut input = 0;
            if pressed(&[KeyCode::KeyA, KeyCode::ArrowLeft]) {
                input |= LEFT;
            }
            if pressed(&[KeyCode::KeyD, KeyCode::ArrowRight]) {
                input |= RIGHT;
            }
            if pressed(&[KeyCode::KeyW, KeyCode::Space, KeyCode::ArrowUp]) {
                input |= JUMP;
            }
            if pressed(&[KeyCode::KeyF])
                || mouse.as_ref().is_some_and(|m| m.pressed(MouseButton::Left))
            {
                input |= THROW;
            }
            input
        };
        inputs.insert(handle, input);
    }
    commands.insert_resource(LocalInputs::<Config>(inputs));
}

/// Each frame's checksum and tally, as last saved (a re-simulated frame's replace the
/// first), and how often the session rolled back and simulated frames: what is simulated
/// beyond the last frame was simulated again after a rollback. (Not rolled back itself.)
#[derive(Resource, Default)]
struct Checksums {
    frames: BTreeMap<i32, (u128, Tally)>,
    rollbacks: u32,
    simulated: u32,
}

fn keep_checksum(
    frame: Res<RollbackFrameCount>,
    checksum: Res<Checksum>,
    tally: Res<Tally>,
    mut checksums: ResMut<Checksums>,
) {
    checksums.frames.insert(frame.0, (checksum.0, *tally));
}

/// Logs the session's events; a desync between the peers ends the game with an error.
fn watch_session(mut session: ResMut<Session<Config>>) {
    if let Session::P2P(session) = session.as_mut() {
        for event in session.events() {
            match event {
                GgrsEvent::DesyncDetected { .. } => {
                    error!("netplay: the peers desynchronised: {event:?}");
                    std::process::exit(1);
                }
                GgrsEvent::Disconnected { .. } | GgrsEvent::NetworkInterrupted { .. } => {
                    warn!("netplay: {event:?}");
                }
                _ => info!("netplay: {event:?}"),
            }
        }
    }
}

/// With `--frames N`: once frame `N` is confirmed (every peer's inputs for it are in, so it
/// is never re-simulated again; in a sync test, its checksums compared), prints its checksum and the tally at that frame, and quits.
/// The bots play by the frame number, so the same seed gives the same line on both peers,
/// and (with input delay 0) in a sync test too.
fn finish(
    options: Res<Options>,
    frame: Res<RollbackFrameCount>,
    confirmed: Res<ConfirmedFrameCount>,
    checksums: Res<Checksums>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(last) = options.frames else {
        return;
    };
    // (A sync test confirms a frame once it is `CHECK_DISTANCE` frames behind, when it has
    // been re-simulated and its checksums compared.)
    if confirmed.0 < last {
        return;
    }
    let Some((checksum, tally)) = checksums.frames.get(&last) else {
        return;
    };
    let again = checksums.simulated.saturating_sub(frame.0.max(0) as u32);
    info!(
        "netplay: frame {last} checksum {checksum:032x}; coins {:?}, balls thrown {}, gone \
         {}, escaped {}, door switched {} times; {} rollbacks, {again} frames simulated again",
        tally.coins, tally.thrown, tally.gone, tally.escaped, tally.switches, checksums.rollbacks
    );
    exit.write(AppExit::Success);
}

/// The score line.
fn hud(tally: Res<Tally>, frame: Res<RollbackFrameCount>, mut text: Single<&mut Text, With<Hud>>) {
    text.0 = format!(
        "frame {}   coins {} : {}   balls {}   (run: A/D, jump: W/Space, throw: F/click)",
        frame.0, tally.coins[0], tally.coins[1], tally.thrown
    );
}
