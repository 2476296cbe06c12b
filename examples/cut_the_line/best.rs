//! The best scores, one per mode, kept in a small file in the user's data directory:
//! `$XDG_DATA_HOME/cut_the_line/best_scores.ron` (or `~/.local/share/…`) on Linux,
//! `~/Library/Application Support/cut_the_line/…` on macOS, `%APPDATA%\cut_the_line\…` on
//! Windows; `CUT_THE_LINE_DATA_DIR` overrides the folder.
//!
//! A missing file starts from zero; a file that cannot be read or parsed starts from zero
//! with a warning (and is replaced at the next best score). A failed write is a warning: the
//! game goes on.

use crate::rules::Mode;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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
