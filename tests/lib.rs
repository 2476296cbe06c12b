//! One integration test binary: `kernels` checks the geometry kernels against an exact
//! rational oracle on random, grid-aligned and adversarial input.

mod kernels;
mod plugin;
