//! The plugin in headless Apps (`MinimalPlugins`, one fixed tick per update).

mod batch;
mod characters;
mod convex;
#[cfg(feature = "debug-draw")]
mod debug_draw;
mod fresh;
mod lifecycle;
mod oracle;
mod pairs;
mod polygons;
mod query;
mod reflections;
mod responders;
mod resting;
#[path = "../support/rules.rs"]
mod rules;
mod seams;
mod shapes;
mod switching;
mod tiles;
mod translating;
mod worlds;
