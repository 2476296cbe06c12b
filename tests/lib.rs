//! One integration test binary: `kernels` checks the geometry kernels against an exact
//! rational oracle on random, grid-aligned and adversarial input.

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;
mod kernels;
#[cfg(feature = "plugin")]
mod plugin;
