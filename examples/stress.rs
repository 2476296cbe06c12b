//! `stress`: thousands of colliders of every kind, moving fast, with the sweep's cost on
//! screen.
//!
//! ```sh
//! cargo run --release --example stress --features debug-draw            # 10,000 colliders
//! cargo run --release --example stress --features debug-draw -- 50000   # any number
//! ```
//!
//! | control | action |
//! |---|---|
//! | `P` | draw swept paths on / off (off at start) |
//! | `C` | draw contacts on / off (off at start; each flashes for one frame) |
//! | `D` | draw colliders on / off (off: drawing costs next to nothing) |
//! | `Space` | pause / resume |
//! | `Esc` | quit (a summary is logged) |
//!
//! N colliders (the first argument: 10,000 by default, at most 200,000), a quarter each of
//! points, segments (half of them turning), circles and boxes, start at random places and move
//! in straight lines at random speeds from 60 to 3,000 units/s: the fastest cover several
//! times their own size in one tick (1/64 s). A collider that leaves the arena comes back on
//! the other side with `Teleport`, so the wrap is not swept. The arena grows with N (the
//! density stays the same) and the camera shows all of it right of the overlay, so the shapes
//! get small on screen as N grows.
//!
//! The overlay shows, four times a second, the median over the last second of each phase of
//! the sweep per tick (from `SweepStats`: prepare, gather and broad phase, narrow phase,
//! report, and the whole sweep), the candidate and touching pairs, the collision events per
//! second of real time (counted with a `MessageReader<CollisionEvent>`), fixed ticks per
//! second, the share of real time spent sweeping, and the frame time.
//!
//! A frame runs at most 4 ticks: when frames are slow (the sweep cannot keep up, or the
//! renderer cannot), the scene runs in slow motion, with fewer than 64 ticks per second,
//! instead of each frame running more ticks and taking longer still (Bevy's default allows
//! 16). The compute task pool, where the narrow phase runs, gets every core (Bevy's default
//! leaves it one thread on a two-core machine). `SweepDebugPlugin` draws the colliders and, on
//! request, the swept paths and the contacts (each for one frame, in translucent orange:
//! there is about one contact per two colliders each tick, too many to draw by default).
//!
//! On exit one line is logged for scripts, with the medians over the whole run and the event
//! rate: `stress: 10000 colliders, 640 ticks, sweep median 3.210 ms (prepare 0.100, broad
//! …, narrow …, report …), events 41234/s (644 per tick), frame median 33.3 ms`.
//! `EXAMPLE_SECONDS` and `EXAMPLE_SCREENSHOTS` script a run (see `scripts/play_examples.sh`);
//! they count the scene's time, which runs slower than real time in slow motion.

#[path = "support/demo.rs"]
mod demo;
#[path = "support/scripted.rs"]
mod scripted;

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, available_parallelism};
use bevy_sweep::prelude::*;
use core::f32::consts::{FRAC_PI_2, TAU};
use core::num::IntErrorKind;
use core::time::Duration;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use scripted::ScriptedRun;
use std::collections::VecDeque;

/// Colliders when no number is given.
const DEFAULT_COUNT: usize = 10_000;
/// The most colliders accepted (a larger number is lowered to it): beyond it the debug
/// drawing alone would need hundreds of megabytes of vertex buffers.
const MAX_COUNT: usize = 200_000;
/// Arena area per collider, in square units: the density is the same at every N.
const AREA_PER_COLLIDER: f32 = 24.0 * 24.0;
/// The arena's width over its height: it fills the window right of the overlay.
const ARENA_ASPECT: f32 = 1.4;
/// The smallest arena (for a handful of colliders), in units.
const MIN_ARENA: Vec2 = Vec2::new(400.0, 320.0);
/// The window's size in pixels.
const WINDOW: UVec2 = UVec2::new(1280, 720);
/// The part of the window's width left of the arena, for the overlay.
const PANEL: f32 = 0.28;
/// The most fixed ticks one frame runs. When frames are slower than 4 ticks (62.5 ms), the
/// scene slows down instead of every frame running more ticks (Bevy's default allows 16).
const TICKS_PER_FRAME: u32 = 4;
/// Room shown around the arena, in units. A collider is drawn where its last sweep ended,
/// which can be one tick's motion (up to 47 units) past the edge before it wraps, plus its
/// size.
const MARGIN: f32 = 64.0;
/// Phases of [`Tick::phases`], in order, as the overlay names them.
const PHASES: [&str; 5] = ["prepare", "broad", "narrow", "report", "total"];

/// The colour of contacts when `C` turns them on (translucent: they are many).
const CONTACTS: Color = Color::srgba(1.0, 0.35, 0.2, 0.3);

fn main() {
    let (count, complaint) = collider_count(std::env::args().nth(1).as_deref());
    // Bevy gives one thread each to the I/O and async pools and what is left to the compute
    // pool, where the narrow phase runs: on two cores, one thread. Give it every core.
    let mut pools = TaskPoolOptions::default();
    pools.compute.min_threads = available_parallelism();
    App::new()
        .add_plugins((
            DefaultPlugins
                .set(demo::window("stress", WINDOW))
                .set(TaskPoolPlugin {
                    task_pool_options: pools,
                }),
            SweepPlugin {
                // Sizes the debug drawing: points are crosses 6 units wide, normals 15 long.
                length_unit: 30.0,
                ..default()
            },
            SweepDebugPlugin,
            ScriptedRun,
        ))
        // Cheap drawing: the colliders only. Contacts, when turned on, are drawn for the frame
        // that sees them, translucent.
        .insert_gizmo_config(
            SweepGizmos {
                path_color: None,
                contact_color: None,
                contact_lifetime: 0.0,
                ..default()
            },
            GizmoConfig::default(),
        )
        .insert_resource(ClearColor(Color::srgb(0.04, 0.05, 0.08)))
        .insert_resource(Arena {
            count,
            size: arena_size(count),
            complaint,
        })
        .init_resource::<Samples>()
        .init_resource::<Frames>()
        .add_systems(Startup, (setup, spawn_colliders))
        .add_systems(
            Update,
            (
                demo::quit_on_esc,
                controls,
                count_frames,
                overlay.after(count_frames),
                outline,
            ),
        )
        .add_systems(FixedPostUpdate, (measure, wrap).after(SweepSystems::Report))
        .add_systems(Last, log_summary)
        .run();
}

/// The scene: how many colliders, in how large an arena.
#[derive(Resource)]
struct Arena {
    /// Colliders, a quarter of each kind.
    count: usize,
    /// Width and height in units, centred on the origin.
    size: Vec2,
    /// What was wrong with the command line, if anything (logged at start).
    complaint: Option<String>,
}

/// One tick's measurements.
#[derive(Clone, Copy)]
struct Tick {
    /// Real time of the frame that ran the tick, seconds.
    at: f64,
    /// Milliseconds of each of [`PHASES`].
    phases: [f32; 5],
    /// From [`SweepStats`].
    candidate_pairs: usize,
    /// From [`SweepStats`].
    touching_pairs: usize,
    /// Collision events read.
    events: usize,
}

/// The measured ticks.
#[derive(Resource, Default)]
struct Samples {
    /// The ticks of the last second of real time, oldest first.
    recent: VecDeque<Tick>,
    /// Each phase's time in every tick of the run, for the summary.
    run: Vec<[f32; 5]>,
    /// Events in the whole run.
    events: u64,
    /// Real time of the first measured tick, seconds.
    first: Option<f64>,
    /// Real time of the last measured tick, seconds.
    last: f64,
}

/// Frame times in milliseconds.
#[derive(Resource, Default)]
struct Frames {
    /// The last [`Frames::RECENT`] frames.
    recent: VecDeque<f32>,
    /// Every frame of the run.
    run: Vec<f32>,
}

impl Frames {
    const RECENT: usize = 30;
}

/// The overlay's text.
#[derive(Component)]
struct Overlay;

/// The number of colliders from the first command-line argument, and a complaint if it was
/// not usable: not a number or 0 gives [`DEFAULT_COUNT`], more than [`MAX_COUNT`] gives
/// [`MAX_COUNT`]. `_` and `,` may group digits (`20_000`, `20,000`).
fn collider_count(argument: Option<&str>) -> (usize, Option<String>) {
    let Some(argument) = argument else {
        return (DEFAULT_COUNT, None);
    };
    let digits: String = argument
        .trim()
        .chars()
        .filter(|c| !matches!(c, '_' | ','))
        .collect();
    let expected = format!("expected a number of colliders from 1 to {MAX_COUNT}");
    match digits.parse::<usize>() {
        Ok(0) => (
            DEFAULT_COUNT,
            Some(format!("{expected}, got 0; using {DEFAULT_COUNT}")),
        ),
        Ok(n) if n <= MAX_COUNT => (n, None),
        Ok(_) => (
            MAX_COUNT,
            Some(format!("{expected}, got {argument}; using {MAX_COUNT}")),
        ),
        Err(e) if *e.kind() == IntErrorKind::PosOverflow => (
            MAX_COUNT,
            Some(format!("{expected}, got {argument}; using {MAX_COUNT}")),
        ),
        Err(_) => (
            DEFAULT_COUNT,
            Some(format!(
                "{expected}, got {argument:?}; using {DEFAULT_COUNT}"
            )),
        ),
    }
}

/// An arena of [`ARENA_ASPECT`] with [`AREA_PER_COLLIDER`] for each collider, at least
/// [`MIN_ARENA`].
fn arena_size(count: usize) -> Vec2 {
    let width = (count as f32 * AREA_PER_COLLIDER * ARENA_ASPECT).sqrt();
    Vec2::new(width, width / ARENA_ASPECT).max(MIN_ARENA)
}

/// The tick limit, the camera fitted to the arena, and the overlay.
fn setup(
    mut commands: Commands,
    arena: Res<Arena>,
    fixed: Res<Time<Fixed>>,
    mut clock: ResMut<Time<Virtual>>,
) {
    clock.set_max_delta(fixed.timestep() * TICKS_PER_FRAME);
    if let Some(complaint) = &arena.complaint {
        warn!("stress: {complaint}");
    }
    info!(
        "stress: {} colliders in a {:.0} x {:.0} arena, {} compute threads",
        arena.count,
        arena.size.x,
        arena.size.y,
        ComputeTaskPool::get().thread_num()
    );
    // The whole arena and its margin at the right of the window, the overlay's panel at the
    // left.
    let height = arena.size.y + 2.0 * MARGIN;
    let width = (height * WINDOW.x as f32 / WINDOW.y as f32)
        .max((arena.size.x + 2.0 * MARGIN) / (1.0 - PANEL));
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::AutoMin {
                min_width: width,
                min_height: height,
            },
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(arena.size.x / 2.0 + MARGIN - width / 2.0, 0.0, 0.0),
        // Thousands of one-pixel lines: multisampling would cost more than it shows.
        Msaa::Off,
    ));
    commands.spawn((
        Overlay,
        Text::new(""),
        TextFont {
            font_size: FontSize::Px(15.0),
            ..default()
        },
        Node {
            position_type: PositionType::Absolute,
            top: Val::Px(8.0),
            left: Val::Px(8.0),
            padding: UiRect::all(Val::Px(8.0)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.5)),
    ));
}

/// N colliders at random places, a quarter of each kind, from a fixed seed.
fn spawn_colliders(mut commands: Commands, arena: Res<Arena>) {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    let half = arena.size / 2.0;
    let colliders: Vec<_> = (0..arena.count)
        .map(|i| {
            let at = Vec2::new(
                rng.random_range(-half.x..half.x),
                rng.random_range(-half.y..half.y),
            );
            // From 60 to 3,000 units/s, as many slow as fast (log-uniform).
            let speed = 60.0 * 50.0_f32.powf(rng.random::<f32>());
            let velocity = Vec2::from_angle(rng.random_range(0.0..TAU)) * speed;
            let mut transform = Transform::from_translation(at.extend(0.0));
            let mut spin = 0.0;
            let collider = match i % 4 {
                0 => Collider::point(),
                1 => {
                    let half_length = rng.random_range(5.0..14.0);
                    transform.rotate_z(rng.random_range(-FRAC_PI_2..FRAC_PI_2));
                    if i % 8 == 1 {
                        spin = rng.random_range(2.0..12.0) * if i % 16 == 1 { 1.0 } else { -1.0 };
                    }
                    Collider::segment(Vec2::new(-half_length, 0.0), Vec2::new(half_length, 0.0))
                }
                2 => Collider::circle(rng.random_range(3.0..9.0)),
                _ => Collider::aabb(Vec2::new(
                    rng.random_range(3.0..9.0),
                    rng.random_range(3.0..9.0),
                )),
            };
            (
                collider,
                transform,
                Velocity(velocity),
                AngularVelocity(spin),
            )
        })
        .collect();
    commands.spawn_batch(colliders);
}

/// The keys of the table at the top.
fn controls(
    keys: Res<ButtonInput<KeyCode>>,
    mut store: ResMut<GizmoConfigStore>,
    mut time: ResMut<Time<Virtual>>,
) {
    let (_, drawing) = store.config_mut::<SweepGizmos>();
    // A part is drawn in its colour, or not at all (`None`): `xor` turns it on and off.
    let colors = SweepGizmos::default();
    if keys.just_pressed(KeyCode::KeyP) {
        drawing.path_color = drawing.path_color.xor(colors.path_color);
    }
    if keys.just_pressed(KeyCode::KeyC) {
        drawing.contact_color = drawing.contact_color.xor(Some(CONTACTS));
    }
    if keys.just_pressed(KeyCode::KeyD) {
        drawing.collider_color = drawing.collider_color.xor(colors.collider_color);
    }
    if keys.just_pressed(KeyCode::Space) {
        time.toggle();
    }
}

/// Brings back a collider that left the arena on the other side, after this tick's sweep.
/// `Teleport` makes the next tick start from the new place instead of sweeping the jump.
fn wrap(
    mut commands: Commands,
    arena: Res<Arena>,
    mut movers: Query<(Entity, &mut Transform), With<Velocity>>,
) {
    let half = arena.size / 2.0;
    for (entity, mut transform) in &mut movers {
        let at = transform.translation.truncate();
        if at.abs().cmpgt(half).any() {
            let back = (at + half).rem_euclid(arena.size) - half;
            transform.translation = back.extend(transform.translation.z);
            commands.entity(entity).insert(Teleport);
        }
    }
}

/// Records this tick's [`SweepStats`] and counts its collision events.
fn measure(
    stats: Res<SweepStats>,
    mut events: MessageReader<CollisionEvent>,
    time: Res<Time<Real>>,
    mut samples: ResMut<Samples>,
) {
    let ms = |d: Duration| d.as_secs_f32() * 1000.0;
    let tick = Tick {
        at: time.elapsed_secs_f64(),
        phases: [
            ms(stats.prepare_time),
            ms(stats.gather_time + stats.rest_time + stats.broad_phase_time),
            ms(stats.narrow_phase_time),
            ms(stats.report_time),
            ms(stats.elapsed()),
        ],
        candidate_pairs: stats.candidate_pairs,
        touching_pairs: stats.touching_pairs,
        events: events.read().count(),
    };
    let samples = &mut *samples;
    samples.first.get_or_insert(tick.at);
    samples.last = tick.at;
    samples.events += tick.events as u64;
    samples.run.push(tick.phases);
    samples.recent.push_back(tick);
    while samples
        .recent
        .front()
        .is_some_and(|oldest| oldest.at <= tick.at - 1.0)
    {
        samples.recent.pop_front();
    }
}

/// Records this frame's time.
fn count_frames(time: Res<Time<Real>>, mut frames: ResMut<Frames>) {
    let ms = time.delta_secs() * 1000.0;
    if ms > 0.0 {
        frames.run.push(ms);
        frames.recent.push_back(ms);
        if frames.recent.len() > Frames::RECENT {
            frames.recent.pop_front();
        }
    }
}

/// The middle value (0 for none).
fn median(values: impl IntoIterator<Item = f32>) -> f32 {
    let mut values: Vec<f32> = values.into_iter().collect();
    values.sort_by(f32::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

/// The overlay's text, four times a second.
fn overlay(
    time: Res<Time<Real>>,
    clock: Res<Time<Virtual>>,
    arena: Res<Arena>,
    samples: Res<Samples>,
    frames: Res<Frames>,
    store: Res<GizmoConfigStore>,
    mut next: Local<f64>,
    mut overlay: Query<&mut Text, With<Overlay>>,
) {
    let now = time.elapsed_secs_f64();
    if now < *next {
        return;
    }
    *next = now + 0.25;
    let Ok(mut text) = overlay.single_mut() else {
        return;
    };
    let recent = &samples.recent;
    let (_, drawing) = store.config::<SweepGizmos>();
    let mut lines = vec![
        format!(
            "stress: {} colliders{}",
            arena.count,
            if clock.is_paused() { ", PAUSED" } else { "" }
        ),
        "points, segments, circles, boxes".into(),
        format!(
            "arena {:.0} x {:.0}, {} compute threads",
            arena.size.x,
            arena.size.y,
            ComputeTaskPool::get().thread_num(),
        ),
        String::new(),
        "sweep per tick, ms".into(),
        "(median of the last second)".into(),
    ];
    for (k, name) in PHASES.iter().enumerate() {
        lines.push(format!(
            "  {name:<8}{:>9.3}",
            median(recent.iter().map(|t| t.phases[k]))
        ));
    }
    // Rates need a full second of ticks.
    let full = samples
        .first
        .is_some_and(|first| samples.last - first >= 1.0);
    let events: usize = recent.iter().map(|t| t.events).sum();
    let busy: f32 = recent.iter().map(|t| t.phases[4]).sum::<f32>() / 10.0;
    let (events_per_second, ticks_per_second, busy) = if full {
        (
            events.to_string(),
            recent.len().to_string(),
            format!("{busy:.0}%"),
        )
    } else {
        ("..".into(), "..".into(), "..".into())
    };
    let frame = median(frames.recent.iter().copied());
    lines.extend([
        String::new(),
        format!(
            "pairs   {} candidate",
            median(recent.iter().map(|t| t.candidate_pairs as f32))
        ),
        format!(
            "        {} touching",
            median(recent.iter().map(|t| t.touching_pairs as f32))
        ),
        format!("events  {events_per_second} per s"),
        format!(
            "        {:.0} per tick",
            events as f32 / recent.len().max(1) as f32
        ),
        format!("ticks   {ticks_per_second} per s (64: real time)"),
        format!("sweep   {busy} of the time"),
        format!(
            "frame   {frame:.1} ms, {:.1} fps",
            1000.0 / frame.max(0.001)
        ),
        String::new(),
        format!("P paths: {}", on_off(drawing.path_color.is_some())),
        format!("C contacts: {}", on_off(drawing.contact_color.is_some())),
        format!("D colliders: {}", on_off(drawing.collider_color.is_some())),
        "Space pause, Esc quit".into(),
    ]);
    **text = lines.join("\n");
}

fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

/// The arena's edge, where colliders wrap around.
fn outline(mut gizmos: Gizmos, arena: Res<Arena>) {
    gizmos.rect_2d(
        Isometry2d::IDENTITY,
        arena.size,
        Color::srgba(1.0, 1.0, 1.0, 0.2),
    );
}

/// On exit, one line for scripts: the medians of the whole run and the event rate.
fn log_summary(
    mut exits: MessageReader<AppExit>,
    arena: Res<Arena>,
    samples: Res<Samples>,
    frames: Res<Frames>,
) {
    if exits.read().next().is_none() {
        return;
    }
    let phase = |k: usize| median(samples.run.iter().map(|p| p[k]));
    let ticks = samples.run.len();
    let seconds = samples.first.map_or(0.0, |first| samples.last - first);
    let per_second = if seconds > 0.0 {
        samples.events as f64 / seconds
    } else {
        0.0
    };
    info!(
        "stress: {} colliders, {ticks} ticks, sweep median {:.3} ms (prepare {:.3}, broad {:.3}, \
         narrow {:.3}, report {:.3}), events {per_second:.0}/s ({:.0} per tick), frame median \
         {:.1} ms",
        arena.count,
        phase(4),
        phase(0),
        phase(1),
        phase(2),
        phase(3),
        samples.events as f64 / ticks.max(1) as f64,
        median(frames.run.iter().copied()),
    );
}
