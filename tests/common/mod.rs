//! Helpers shared by the integration test binaries, each of which includes this module with
//! `mod common;`: a headless App that runs exactly one fixed tick per update and records the
//! events of each, and the small checks the tests make of what it reports.
//!
//! (The exact oracle, `tests/plugin/oracle.rs`, and the event rules and tick check in
//! `tests/support/` are included by `#[path]` where they are used, as the avian2d comparison
//! includes them too.)

use bevy::math::Vec2;

#[cfg(feature = "plugin")]
mod app;
#[cfg(feature = "plugin")]
pub(crate) mod warnings;
#[cfg(feature = "plugin")]
pub(crate) use app::*;

/// `Vec2::new`, short enough for tables of points.
pub(crate) fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}
