//! The broad phases the crate measured against its strips and left out (see the
//! repository's `docs/design.md`): sort and sweep on one axis, a hierarchical spatial hash,
//! and a bounding-volume hierarchy. They live here, beside the bench that compares them,
//! and are checked against the crate's strips before they are timed.

mod bvh;
mod grid;
mod sap;

use bevy_math::bounding::Aabb2d;

/// A broad phase left out of the crate.
#[derive(Clone, Copy, Debug)]
pub enum Method {
    /// Sort and sweep on the axis along which the box centres spread most.
    SortAndSweep,
    /// A hierarchical spatial hash.
    Grid,
    /// A bounding-volume hierarchy rebuilt per call.
    Bvh,
}

/// One of the left-out methods, with its buffers kept from call to call.
#[derive(Default)]
pub struct Alternative {
    sap: sap::SortAndSweep,
    grid: grid::Grid,
    bvh: bvh::Bvh,
}

impl Alternative {
    /// Replaces `pairs` with every pair `(i, j)`, `i < j`, whose closed boxes overlap, as
    /// `bevy_sweep::broad::BroadPhase::find_pairs` does.
    pub fn find_pairs(&mut self, method: Method, bounds: &[Aabb2d], pairs: &mut Vec<(u32, u32)>) {
        pairs.clear();
        let all = |_: u32, _: u32| true;
        match method {
            Method::SortAndSweep => self.sap.find_pairs(bounds, &all, pairs),
            Method::Grid => self.grid.find_pairs(bounds, &all, pairs),
            Method::Bvh => self.bvh.find_pairs(bounds, &all, pairs),
        }
    }
}

/// `true` if the closed boxes overlap.
#[inline]
fn overlap(a: &Aabb2d, b: &Aabb2d) -> bool {
    a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y
}

/// `true` if every coordinate is finite and the box is not inside out.
#[inline]
fn usable(b: &Aabb2d) -> bool {
    b.min.is_finite() && b.max.is_finite() && b.min.x <= b.max.x && b.min.y <= b.max.y
}
