//! Moving against moving: when does a moving point lie on a moving segment?

mod point_segment;
pub(crate) mod quadratic;

pub use point_segment::sweep_point_segment;
