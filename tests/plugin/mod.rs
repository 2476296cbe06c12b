//! The plugin in headless Apps (`MinimalPlugins`, one fixed tick per update).

#[cfg(feature = "debug-draw")]
mod debug_draw;
mod batch;
mod harness;
mod lifecycle;
mod oracle;
mod pairs;
mod query;
mod worlds;
