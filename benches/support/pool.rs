//! The task pools the benches give their apps (shared by `benches/tick.rs` and
//! `benches/levels.rs`).

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};

/// Task pools whose compute pool has a thread for every core this process may run on: one
/// under `taskset -c 0`, two on this machine. Bevy's default keeps a thread each for IO and
/// async tasks out of the compute pool, which leaves a two-core machine a one-thread compute
/// pool: the sweep's parts then run on it and on the main thread, and the gather on one.
///
/// With `TASK_POOL=default` in the environment, Bevy's default pools instead, as an app
/// meets them (on two cores, one compute thread beside an IO and an async one).
pub fn every_core() -> TaskPoolPlugin {
    if std::env::var("TASK_POOL").is_ok_and(|pool| pool == "default") {
        return TaskPoolPlugin::default();
    }
    let mut task_pool_options = TaskPoolOptions::default();
    task_pool_options.compute.min_threads =
        std::thread::available_parallelism().map_or(1, core::num::NonZero::get);
    TaskPoolPlugin { task_pool_options }
}
