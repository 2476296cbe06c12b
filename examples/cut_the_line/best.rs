//! The best scores, one per mode, kept in a small file in the user's data directory:
//! `$XDG_DATA_HOME/cut_the_line/best_scores.ron` (or `~/.local/share/…`) on Linux,
//! `~/Library/Application Support/cut_the_line/…` on macOS, `%APPDATA%\cut_the_line\…` on
//! Windows; `CUT_THE_LINE_DATA_DIR` overrides the folder.
//!
//! A missing file starts from zero; a file that cannot be read or parsed starts from zero
//! with a warning (and is replaced at the next best score). A failed write is a warning: the
//! game goes on.
//!
//! [`BestScorePlugin`] keeps them in a running game: a round that ends records its score, and
//! so does quitting in the middle of a round (closing the window, `Ctrl-C`, `Q` on the pause
//! screen), so that a best score is never lost to the way the game was left.

use crate::rules::{Game, Mode, RoundOver, Screen};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Loads the best scores at start (unless a [`Best`] is already there: the tests give their
/// own), gives each round the best of its mode, and saves a new best when a round ends or the
/// game quits during one.
pub struct BestScorePlugin;

impl Plugin for BestScorePlugin {
    fn build(&self, app: &mut App) {
        // Read before anything runs: the title screen shows them.
        if !app.world().contains_resource::<Best>() {
            app.insert_resource(Best::load());
        }
        app.init_resource::<LastRound>()
            .add_systems(OnEnter(Screen::Playing), give_the_round_its_best)
            .add_systems(Update, record_best)
            // After the window's own exit systems, which turn a closed window into `AppExit`
            // in `Last`: the app stops at the end of that very frame.
            .add_systems(Last, keep_best_on_exit.after(bevy::window::ExitSystems));
    }
}

/// The best scores, and where they are kept (`None`: no data directory, kept for the run).
#[derive(Resource)]
pub struct Best {
    /// The best score of each mode.
    pub scores: BestScores,
    /// The file they are saved to.
    pub path: Option<PathBuf>,
}

impl Best {
    /// The best scores in the [`default_path`] (zero, with a warning logged, if they cannot
    /// be read).
    fn load() -> Self {
        let path = default_path();
        let scores = match &path {
            Some(path) => {
                let (scores, warning) = load(path);
                if let Some(warning) = warning {
                    warn!("{warning}");
                }
                scores
            }
            None => {
                warn!("no data directory (HOME, XDG_DATA_HOME, APPDATA): best scores are not kept");
                BestScores::default()
            }
        };
        Self { scores, path }
    }

    /// Records `score` for `mode` and saves the scores if it is a new best; `true` if it is.
    fn record(&mut self, mode: Mode, score: u32) -> bool {
        let better = self.scores.record(mode, score);
        if better && let Some(path) = &self.path {
            // A failed write loses only the record, never the game.
            if let Err(warning) = save(path, &self.scores) {
                warn!("{warning}");
            }
        }
        better
    }
}

/// The last round's result, and whether it set a new best.
#[derive(Resource, Default)]
pub struct LastRound(pub Option<RoundOver>, pub bool);

/// The HUD's best is the best of the mode in play.
fn give_the_round_its_best(best: Res<Best>, mode: Res<Mode>, mut game: ResMut<Game>) {
    game.best = best.scores.of(*mode);
}

/// A round that ended: its score may be a new best.
pub fn record_best(
    mut rounds: MessageReader<RoundOver>,
    mut best: ResMut<Best>,
    mut last: ResMut<LastRound>,
) {
    for round in rounds.read() {
        let better = best.record(round.mode, round.score);
        *last = LastRound(Some(*round), better);
    }
}

/// The game quits (the window closed, `Ctrl-C`, `Q` on the pause screen) during a round, in
/// play or paused: its score so far may be a new best.
fn keep_best_on_exit(
    mut exits: MessageReader<AppExit>,
    screen: Res<State<Screen>>,
    mode: Res<Mode>,
    game: Res<Game>,
    mut best: ResMut<Best>,
) {
    if exits.read().next().is_none() || !matches!(screen.get(), Screen::Playing | Screen::Paused) {
        return;
    }
    if best.record(*mode, game.score) {
        info!(
            "a new best for {} kept on quitting mid-round: {}",
            mode.name(),
            game.score
        );
    }
}

/// The best score of each mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BestScores {
    /// Classic (lives).
    pub classic: u32,
    /// Sixty seconds.
    pub sixty_seconds: u32,
}

impl BestScores {
    /// The best score of `mode`.
    pub fn of(&self, mode: Mode) -> u32 {
        match mode {
            Mode::Classic => self.classic,
            Mode::SixtySeconds => self.sixty_seconds,
        }
    }

    /// Records `score` for `mode`; `true` if it is a new best.
    pub fn record(&mut self, mode: Mode, score: u32) -> bool {
        let best = match mode {
            Mode::Classic => &mut self.classic,
            Mode::SixtySeconds => &mut self.sixty_seconds,
        };
        let better = score > *best;
        *best = (*best).max(score);
        better
    }
}

/// The file of the best scores, if a data directory can be found.
pub fn default_path() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let folder = if let Some(dir) = var("CUT_THE_LINE_DATA_DIR") {
        dir
    } else if cfg!(target_os = "windows") {
        var("APPDATA")?.join("cut_the_line")
    } else if cfg!(target_os = "macos") {
        var("HOME")?.join("Library/Application Support/cut_the_line")
    } else {
        var("XDG_DATA_HOME")
            .or_else(|| var("HOME").map(|home| home.join(".local/share")))?
            .join("cut_the_line")
    };
    Some(folder.join("best_scores.ron"))
}

/// Reads the best scores at `path`: zero if there is no file, zero and a warning (the
/// returned message) if it cannot be read or parsed.
pub fn load(path: &Path) -> (BestScores, Option<String>) {
    match std::fs::read_to_string(path) {
        Ok(text) => match ron::from_str(&text) {
            Ok(best) => (best, None),
            Err(error) => (
                BestScores::default(),
                Some(format!(
                    "the best scores in {} do not parse ({error}); starting from zero",
                    path.display()
                )),
            ),
        },
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => (BestScores::default(), None),
        Err(error) => (
            BestScores::default(),
            Some(format!(
                "cannot read the best scores in {} ({error}); starting from zero",
                path.display()
            )),
        ),
    }
}

/// Writes the best scores to `path` (creating its folder), through a temporary file so that
/// a failed write never leaves half a file.
pub fn save(path: &Path, best: &BestScores) -> Result<(), String> {
    let fail = |error: &dyn std::fmt::Display| {
        format!(
            "cannot save the best scores to {} ({error})",
            path.display()
        )
    };
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(|e| fail(&e))?;
    }
    let text = ron::ser::to_string_pretty(best, ron::ser::PrettyConfig::default())
        .map_err(|e| fail(&e))?;
    let temporary = path.with_extension("ron.tmp");
    std::fs::write(&temporary, text).map_err(|e| fail(&e))?;
    std::fs::rename(&temporary, path).map_err(|e| fail(&e))
}
