//! The exact oracle and what holds the plugin to it: [`oracle`], the exact contact intervals
//! of two moving shapes (with its own tests); [`rules`], the documented event rules applied to
//! one pair's intervals; [`oracle_check`], one tick of a running app held to both.
//!
//! Not part of `mod common`, which every test binary includes: the oracle's own tests would
//! run in each. The plugin's tests (`tests/plugin/mod.rs`) and the churn soak include this
//! module by `#[path]`; the avian2d comparison includes its three files, side by side.

pub(crate) mod oracle;
pub(crate) mod oracle_check;
pub(crate) mod rules;
