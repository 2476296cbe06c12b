//! The plugin in headless Apps (`MinimalPlugins`, one fixed tick per update).

mod batch;
mod characters;
mod convex;
#[cfg(feature = "debug-draw")]
mod debug_draw;
mod fresh;
mod lifecycle;
mod long_outlines;
mod movers;
mod pairs;
mod polygons;
mod query;
mod reflections;
mod responders;
mod resting;
mod seams;
mod shapes;
mod sliding_oracle;
mod switching;
mod tiles;
mod translating;
mod worlds;

// The exact oracle and its event rules, which the tests below reach as `super::oracle` and
// `super::rules` (see `tests/common/exact/mod.rs` for why it is not in `mod common`).
#[path = "../common/exact/mod.rs"]
#[allow(dead_code, reason = "the tick check is the churn soak's")]
mod exact;
use exact::{oracle, rules};
