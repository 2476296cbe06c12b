//! Pure geometry kernels on `bevy_math` types: no ECS, no allocation, `f32` in and out.
//!
//! # Conventions
//! - **Frames.** Every argument of one call is in the same frame, usually world space; no
//!   function moves anything between frames. Positions are in your world's units (pixels or
//!   metres): nothing here depends on the scale.
//! - **Parameters.** `t`, `u`, `time` and `along` are fractions in `[0, 1]`: `t` of the way
//!   from a segment's start to its end, `time` of the way through a step during which things
//!   move linearly from their first to their second position.
//! - **Closed boundaries.** Touching an edge, a corner, an endpoint or a circle is a contact.
//! - **Bad input.** NaN or infinite coordinates never panic: they give no contact. Results
//!   never contain NaN.
//! - **Exactness.** Predicates are evaluated in `f64` with an error bound, and in exact
//!   expansion arithmetic where the bound cannot decide. Segment–box and segment–segment
//!   contact decisions are exact for all finite input; segment–circle and the sweep decide
//!   exactly what happens at the ends of the segment or step, and a graze within rounding of
//!   tangency may count as one touch or none (see each query's docs). Parameters are accurate
//!   to a few `f32` ulps.
//!
//! # Queries
//!
//! | query | shapes | result | algorithm |
//! |---|---|---|---|
//! | [`clip_segment_aabb`] (and four named algorithms) | segment, box | [`SegmentClip`] entry/exit | slab test; Liang–Barsky (1984), Cohen–Sutherland, the nine-sector lookup |
//! | [`clip_segments_aabb`] | many segments (SoA), one box | [`SegmentClip`] per segment | slab test, SIMD |
//! | [`intersect_segment_segment`] | segment, segment | [`SegmentIntersection`] | orientation predicates (Shewchuk) |
//! | [`intersect_segment_circle`] | segment, circle | [`CircleHits`] | cancellation-free quadratic |
//! | [`sweep_point_segment`] | moving segment, moving point | [`Sweeps`] | the cross-product quadratic of a point on a moving segment |

mod clip;
mod intersect;
mod results;
pub(crate) mod robust;
mod sweep;

pub use clip::{
    BatchLengthError, SegmentBatch, clip_segment_aabb, clip_segment_aabb_cohen_sutherland,
    clip_segment_aabb_liang_barsky, clip_segment_aabb_sectors, clip_segment_aabb_slab,
    clip_segments_aabb,
};
pub(crate) use clip::{clip_centered, clip8_centered};
pub(crate) use intersect::intersect_with_powers;
pub use intersect::{intersect_segment_circle, intersect_segment_segment};
pub use results::{CircleHits, SegmentClip, SegmentIntersection, Sweep, Sweeps, UpToTwo};
pub use sweep::sweep_point_segment;
