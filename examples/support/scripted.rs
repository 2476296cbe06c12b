//! Scripted runs of the examples (used by `scripts/play_examples.sh`), from two environment
//! variables: `EXAMPLE_SECONDS=n` quits after `n` seconds, and
//! `EXAMPLE_SCREENSHOTS=t1:a.png,t2:b.png` saves screenshots at those times (in seconds of
//! real time: a paused or slowed game clock does not delay them).
//! Without them an example runs as usual.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

/// Adds the scripted exit and screenshots.
pub struct ScriptedRun;

#[derive(Resource)]
struct Script {
    seconds: Option<f32>,
    /// Screenshots still to take: (time, path), in time order.
    screenshots: Vec<(f32, String)>,
}

impl Plugin for ScriptedRun {
    fn build(&self, app: &mut App) {
        let mut screenshots: Vec<(f32, String)> = std::env::var("EXAMPLE_SCREENSHOTS")
            .unwrap_or_default()
            .split(',')
            .filter_map(|item| {
                let (time, path) = item.split_once(':')?;
                Some((time.trim().parse().ok()?, path.trim().to_string()))
            })
            .collect();
        screenshots.sort_by(|a, b| a.0.total_cmp(&b.0));
        let seconds = std::env::var("EXAMPLE_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok());
        app.insert_resource(Script {
            seconds,
            screenshots,
        })
        .add_systems(Update, run_script);
    }
}

fn run_script(
    mut commands: Commands,
    time: Res<Time<Real>>,
    mut script: ResMut<Script>,
    mut exit: MessageWriter<AppExit>,
) {
    let now = time.elapsed_secs();
    while script.screenshots.first().is_some_and(|(at, _)| now >= *at) {
        let (_, path) = script.screenshots.remove(0);
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path));
    }
    if script.seconds.is_some_and(|seconds| now > seconds) {
        exit.write(AppExit::Success);
    }
}
