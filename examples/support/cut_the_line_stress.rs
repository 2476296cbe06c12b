//! `cut_the_line`'s stress mode, for measuring, never seen by a player: with
//! `CUT_THE_LINE_LINES=n` the game goes straight into play, keeps `n` lines on screen, never
//! ends the round, and logs on exit the median frame time and the sweep's time per tick (its
//! own samples, and Bevy's diagnostics). Without the variable the plugin adds nothing.
//!
//! ```sh
//! CUT_THE_LINE_LINES=200 EXAMPLE_SECONDS=15 cargo run --release --example cut_the_line
//! ```

use crate::rules::{self, FIELD, Game, Line, Screen, WaveBook};
use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy_sweep::prelude::*;

/// See the [module docs](self).
pub struct StressPlugin;

impl Plugin for StressPlugin {
    fn build(&self, app: &mut App) {
        let lines = std::env::var("CUT_THE_LINE_LINES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        if lines == 0 {
            return;
        }
        app.add_plugins((
            SweepDiagnosticsPlugin,
            FrameTimeDiagnosticsPlugin::default(),
        ))
        .insert_resource(Stress { lines, ..default() })
        .add_systems(Startup, |mut next: ResMut<NextState<Screen>>| {
            next.set(Screen::Playing);
        })
        .add_systems(
            FixedUpdate,
            keep_lines_in_play.run_if(in_state(Screen::Playing)),
        )
        .add_systems(Last, (measure, log_measurements).chain());
    }
}

#[derive(Resource, Default)]
struct Stress {
    lines: usize,
    frame_ms: Vec<f32>,
    sweep_ms: Vec<f32>,
    on_screen: Vec<usize>,
}

fn keep_lines_in_play(
    mut commands: Commands,
    stress: Res<Stress>,
    mut game: ResMut<Game>,
    book: Option<Res<WaveBook>>,
    lines: Query<(), With<Line>>,
) {
    game.lives = 99;
    game.time_left = 99.0;
    let Some(wave) = book.and_then(|b| b.waves.last().cloned()) else {
        return;
    };
    for _ in lines.iter().count()..stress.lines {
        // Anywhere on screen, not only at the edges, so that all of them are in view.
        let at = Vec2::new(
            (game.random() * 2.0 - 1.0) * FIELD.x,
            (game.random() * 2.0 - 1.0) * FIELD.y,
        );
        commands
            .spawn(rules::new_line(&mut game, &wave, 1.0))
            .insert(Transform::from_translation(at.extend(0.0)));
    }
}

fn measure(
    mut stress: ResMut<Stress>,
    time: Res<Time<Real>>,
    stats: Res<SweepStats>,
    lines: Query<&Transform, With<Line>>,
) {
    let frame = time.delta_secs() * 1000.0;
    let sweep = stats.elapsed().as_secs_f32() * 1000.0;
    let count = lines
        .iter()
        .filter(|t| t.translation.truncate().abs().cmple(FIELD).all())
        .count();
    stress.frame_ms.push(frame);
    stress.sweep_ms.push(sweep);
    stress.on_screen.push(count);
}

fn log_measurements(
    mut exits: MessageReader<AppExit>,
    stress: Res<Stress>,
    diagnostics: Res<DiagnosticsStore>,
) {
    if exits.read().next().is_none() {
        return;
    }
    let median = |values: &[f32]| {
        let mut v = values.to_vec();
        v.sort_by(f32::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    // Skip the first second of start-up frames.
    let skip = stress.frame_ms.len().min(30);
    let frames = &stress.frame_ms[skip..];
    let sweeps = &stress.sweep_ms[skip..];
    let lines = &stress.on_screen[skip..];
    info!(
        "stress: {} frames, lines on screen median {}, frame time median {:.2} ms, sweep per tick median {:.3} ms (max {:.3} ms)",
        frames.len(),
        lines.get(lines.len() / 2).copied().unwrap_or(0),
        median(frames),
        median(sweeps),
        sweeps.iter().copied().fold(0.0, f32::max)
    );
    // The same from Bevy's diagnostics (averages over their recent history).
    let average = |path| {
        diagnostics
            .get(path)
            .and_then(|d| d.average())
            .unwrap_or(f64::NAN)
    };
    info!(
        "diagnostics: frame_time average {:.2} ms, bevy_sweep/sweep_time average {:.3} ms",
        average(&FrameTimeDiagnosticsPlugin::FRAME_TIME),
        average(&SweepDiagnosticsPlugin::SWEEP_TIME)
    );
}
