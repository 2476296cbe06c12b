//! Moving shapes against each other over one step: when do they touch, and where.
//!
//! This is the narrow phase of [`SweepPlugin`](crate::prelude::SweepPlugin), usable on its own
//! (no ECS). A [`ShapePath`] is one shape's motion during a step under the *linear per vertex*
//! model: every vertex (a point, a segment endpoint, a circle's or box's centre) moves on a
//! straight line from where it was at the start of the step (`time = 0`) to where it is at the
//! end (`time = 1`). A segment whose endpoints move differently turns and stretches; circles and
//! boxes keep their size; boxes never rotate.
//!
//! [`contact_intervals`] answers, for two paths, every moment in the step at which the two
//! closed shapes touch or overlap, as closed time intervals (an instant contact, such as a
//! point passing through a segment, is an interval `[t, t]`). [`witness()`] then says where and
//! in which direction they touch at one of those moments.
//!
//! # How each pair is solved
//! | pair | reduction | kernel |
//! |---|---|---|
//! | point–point, point–box, box–box | relative motion against a box grown by the half extents (a point is a box of size 0) | [`clip_segment_aabb`](crate::geometry::clip_segment_aabb) |
//! | point–circle, circle–circle | relative motion against a disk of the summed radius | [`intersect_segment_circle`](crate::geometry::intersect_segment_circle) |
//! | circle–box | relative motion against the rounded box: two grown boxes, and the corner disks the path goes beyond on both axes | clip and circle |
//! | point–segment | the point on the moving segment | [`sweep_point_segment`](crate::geometry::sweep_point_segment) |
//! | segment–segment | contact starts and ends when an endpoint of one is on the other | four point–segment sweeps |
//! | segment–box | ... when an endpoint crosses the box boundary or a corner crosses the segment | two clips, four sweeps |
//! | segment–circle | ... when an endpoint crosses the circle, or the circle is tangent to the segment's interior (a quartic in time for a turning segment: its roots isolated between the roots of its derivatives, each refined by Newton steps kept inside its sign bracket) | circle, quartic |
//!
//! A pair with a segment that does not turn (a still wall, a sliding platform, a segment on a
//! translating transform) is first tried in closed form: relative to each other the shapes
//! move along a straight line, and they touch while it runs through a convex obstacle (the
//! segment grown by the other shape: a capsule, a hexagon, a parallelogram, or the segment
//! itself for a point), which a line enters once and leaves once. Its conditions are solved
//! in `f64` with error bounds, and only an answer they certify is taken (most pairs): a graze,
//! a contact at one of the tick's ends within rounding, parallel segments or a turning
//! segment go to the general solvers below.
//!
//! For the pairs with a segment, the moments at which contact can begin or end are found
//! first; between two such moments contact does not change, and one test at the midpoint
//! says which. Whether the shapes touch at the very start and end of the step is decided by
//! the exact static kernels, so consecutive steps agree about the shared moment. Before any
//! of that, a pair with a segment is dropped if the two shapes' bounding disks (each centre
//! moves linearly) stay apart all step by a margin far above rounding: a few operations
//! instead of a dozen sweeps for the many candidate pairs that never come close. Within a
//! pair, an endpoint or corner whose path stays out of the box around the other segment's
//! whole motion is not swept against it (it can never be on it).
//!
//! Pairs of a point and a box can also be solved together, whether they share the box
//! (bullets near a wall), the point (a bullet through a row of tiles) or nothing:
//! [`PointBoxBatch`] clips their relative paths eight at a time with SIMD, as the plugin does
//! for every point–box pair of a tick.
//!
//! Beneath these, one general solver takes any two *rounded convex polygons* (one to eight
//! vertices grown by a radius: a point, a circle, a segment, a capsule, an oriented or
//! rounded box, a convex polygon): [`convex_contact_intervals`]. Contact between two of them
//! can begin or end only when a vertex of one comes within the summed radius of an edge or
//! vertex of the other, so the same sweeps and quartic find its moments. It gives the basic
//! shapes' contacts too, at 1.4–25× their own solvers' cost per pair.

mod batch;
mod intervals;
mod penetration;
mod polynomial;
mod shape;
mod translating;
mod witness;

pub use batch::PointBoxBatch;
#[cfg(feature = "plugin")]
pub(crate) use batch::relative as point_box_relative;
#[cfg(feature = "plugin")]
pub(crate) use intervals::contact_intervals_of_valid;
pub use intervals::{Intervals, contact_intervals, convex_contact_intervals};
#[cfg_attr(
    not(feature = "plugin"),
    allow(unused_imports, reason = "used by the plugin")
)]
pub(crate) use penetration::{ALL_EDGES, beyond_along, on_exits, penetration_through};
pub use penetration::{Penetration, penetration};
pub use shape::{ConvexPath, ConvexShape, ConvexVertices, Shape, ShapePath};
#[cfg(feature = "plugin")]
pub(crate) use witness::project;
pub use witness::{Feature, PartFeature, Witness, witness};
#[cfg(feature = "plugin")]
pub(crate) use witness::{PathKey, as_convex, contact_normal, material_motion, ordered, path_key};
