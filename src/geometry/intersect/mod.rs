//! Where two static shapes meet: segment against segment, and segment against circle.

mod segment_circle;
mod segment_segment;

pub use segment_circle::intersect_segment_circle;
pub(crate) use segment_circle::intersect_with_powers;
pub use segment_segment::intersect_segment_segment;
