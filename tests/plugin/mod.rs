//! The plugin in headless Apps (`MinimalPlugins`, one fixed tick per update).

mod determinism;
mod harness;
mod lifecycle;
mod pairs;
