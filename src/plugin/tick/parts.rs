//! How a phase splits its work into parts for the compute task pool: parts in a fixed order,
//! so that results depend neither on the threads nor on how many parts there are.

use crate::SweepSettings;
use bevy::tasks::ComputeTaskPool;

/// The threads that run the sweep's parts: the compute pool's, and the main thread where a
/// core is left for it. The main thread runs the phases and works on their parts while it
/// waits for them (a multi-threaded pool's `scope` runs tasks on the thread that calls it).
/// Bevy's default pools leave a two-core machine one compute thread: with the main thread,
/// two. A pool with a thread for every core already fills them. Without the
/// `multi_threaded` feature the pool may be Bevy's single-threaded one, which runs every task
/// on the calling thread: only the pool's threads count. 1 where the sweep runs serially.
pub(crate) fn threads(settings: &SweepSettings) -> usize {
    match ComputeTaskPool::try_get() {
        Some(pool) if settings.parallel => {
            let pool = pool.thread_num().max(1);
            let main_thread = cfg!(all(feature = "multi_threaded", not(target_arch = "wasm32")));
            if main_thread && pool < cores() {
                pool + 1
            } else {
                pool
            }
        }
        _ => 1,
    }
}

/// The cores this process may run on (asked once).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// How many parts to split `work` items (boxes, pairs) into: a few per thread, so that a
/// thread that wakes late still finds work; one where nothing runs in parallel, and where
/// the work is too small to pay for a task.
pub(crate) fn parts_for(settings: &SweepSettings, work: usize) -> usize {
    /// Below this much work a part costs more to spawn than to run.
    const FEWEST: usize = 256;
    match threads(settings) {
        threads if threads > 1 && work > FEWEST => (4 * threads).min(work / FEWEST).max(2),
        _ => 1,
    }
}

/// Runs `task(i, output)` for each of `outputs`, in parallel on the compute task pool when
/// allowed and there are several; returns how many tasks ran in parallel (0: serially).
pub(crate) fn run_parts<T: Send>(
    settings: &SweepSettings,
    outputs: &mut [T],
    task: impl Fn(usize, &mut T) + Sync,
) -> usize {
    match ComputeTaskPool::try_get() {
        Some(pool) if threads(settings) > 1 && outputs.len() > 1 => {
            let task = &task;
            pool.scope(|scope| {
                for (i, output) in outputs.iter_mut().enumerate() {
                    scope.spawn(async move { task(i, output) });
                }
            });
            outputs.len()
        }
        _ => {
            for (i, output) in outputs.iter_mut().enumerate() {
                task(i, output);
            }
            0
        }
    }
}

/// Makes room for `count` parts, each cleared, keeping the buffers of the parts there were.
pub(crate) fn reset<T: Default>(parts: &mut Vec<T>, count: usize, clear: impl Fn(&mut T)) {
    if parts.len() < count {
        parts.resize_with(count, T::default);
    }
    for part in &mut parts[..count] {
        clear(part);
    }
}
