//! Exact continuous 2D collision detection for [Bevy](https://bevyengine.org).
//!
//! Fast things tunnel: a bullet that moves 40 pixels a tick passes through a 4-pixel wall
//! when collisions are tested only where things *are* at each tick. `bevy_sweep` tests where
//! they *went*. Every fixed tick, each collider's motion over the tick is swept against the
//! others, and every contact inside the tick is reported with its exact moment, place and
//! normal, at any speed. It detects and reports, and moves only what you ask to answer hits
//! (bounce, slide, stop, walk), keeping it out of solids.
//!
//! The crate is two layers:
//! - the **plugin** (cargo feature `plugin`, on by default): colliders as components, a sweep
//!   every fixed tick, collision events, spatial queries, diagnostics and (feature
//!   `debug-draw`) gizmos;
//! - the **geometry** beneath it, usable alone (`default-features = false`, on `bevy_math`
//!   only): [`geometry`] (static kernels), [`narrow`] (contacts of two moving shapes over a
//!   step) and [`broad`] (which of many moving boxes overlap).
//!
#![cfg_attr(feature = "plugin", doc = include_str!("docs/plugin.md"))]
//! ## The geometry
//!
//! [`geometry`] holds pure functions on `bevy_math` types: which part of a segment is in a
//! box (Liang–Barsky 1984, the slab test, Cohen–Sutherland outcodes, a nine-region lookup;
//! eight segments at a time with SIMD), where two segments meet, where a segment meets a
//! circle, and when a moving point lies on a moving segment (the roots of a quadratic in
//! time). [`narrow::contact_intervals`] gives every interval of a step during which two moving
//! shapes ([`narrow::ShapePath`]) touch, and [`narrow::witness`] where and with which normal;
//! [`narrow::convex_contact_intervals`] serves any rounded convex polygon.
//!
//! ```
//! use bevy_math::Vec2;
//! use bevy_sweep::narrow::{ShapePath, contact_intervals};
//!
//! // A point crossing a still segment in one step: one instant, half-way.
//! let bullet = ShapePath::Point([Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)]);
//! let wall = ShapePath::still(bevy_sweep::narrow::Shape::Segment(Vec2::NEG_Y, Vec2::Y));
//! assert_eq!(&contact_intervals(&bullet, &wall)[..], &[[0.5, 0.5]]);
//! ```
//!
//! Contacts are decided exactly: each kernel computes in floating point with a certified
//! error bound, and the rare input within rounding of a touch is decided by exact
//! floating-point expansions in the manner of Shewchuk's robust predicates. Parameters
//! (times, places) are accurate to a few `f32` ulps. Touching counts as contact; NaN or
//! infinite input never panics and gives no contact.
//!
//! The design (the motion model, one geometry beneath every shape, exactness, testing) is in
//! the repository's `docs/design.md`, the measurements in `docs/benchmarks.md`.
#![forbid(unsafe_code)]
// The geometry's docs link to the plugin that uses it; without the plugin those links have
// nothing to point at (docs.rs builds the default features, where they resolve).
#![cfg_attr(
    not(feature = "plugin"),
    allow(
        rustdoc::broken_intra_doc_links,
        reason = "links from the geometry to the plugin"
    )
)]

pub mod broad;
pub mod geometry;
pub mod narrow;
pub mod tiles;

/// The coordinate range the crate promises exact results in: every coordinate of every
/// shape, and of every point of its motion in a tick, within `±2^24` (16,777,216) units of
/// the origin on each axis, where an `f32` still resolves a unit and each coordinate
/// difference the kernels take in `f64` is exact.
///
/// The plugin refuses a collider that reaches beyond it
/// ([`SkipReason::OutOfRange`](crate::prelude::SkipReason::OutOfRange), one warning), and the
/// queries find nothing for an input beyond it.
pub const COORDINATE_RANGE: f32 = 16_777_216.0;

#[cfg(feature = "plugin")]
mod plugin;

#[cfg(feature = "plugin")]
pub use plugin::{
    MAX_HIERARCHY_DEPTH, MAX_SCALE, MIN_SCALE, SweepDiagnosticsPlugin, SweepPlugin, SweepSettings,
    SweepState, SweepSystems,
};

/// Components, events and resources of the plugin.
#[cfg(feature = "plugin")]
pub mod components {
    pub use crate::plugin::{
        AngularVelocity, Body, CharacterState, Checked, Collider, ColliderDisabled,
        CollidingEntities, CollisionLayer, CollisionLayers, KinematicCharacter, LayerMask, Mass,
        OneWay, Response, Sensor, SweptPath, Teleport, UnusableShape, Velocity,
    };
}

/// Events and the contact state.
#[cfg(feature = "plugin")]
pub mod events {
    pub use crate::narrow::{Feature, PartFeature};
    pub use crate::plugin::{
        CollisionEvent, CollisionKind, Contact, Contacts, SkipReason, SkippedColliders, SweepStats,
    };
}

/// Spatial queries: [`SweepQuery`](query::SweepQuery).
#[cfg(feature = "plugin")]
pub mod query {
    pub use crate::plugin::{
        CastOptions, ContactNow, MoveAndSlideConfig, MoveAndSlideHit, MoveAndSlideOutput,
        PenetrationHit, PointProjection, QueryFilter, RayHit, ShapeCastHit, SweepQuery,
    };
}

/// Everything a game needs: `use bevy_sweep::prelude::*;`.
#[cfg(feature = "plugin")]
pub mod prelude {
    pub use crate::components::*;
    #[cfg(feature = "debug-draw")]
    pub use crate::debug::{SweepDebugPlugin, SweepGizmos};
    pub use crate::events::*;
    #[cfg(feature = "ggrs")]
    pub use crate::ggrs::SweepRollbackPlugin;
    pub use crate::query::*;
    pub use crate::{SweepDiagnosticsPlugin, SweepPlugin, SweepSettings, SweepState, SweepSystems};
}

#[cfg(feature = "debug-draw")]
pub mod debug;

#[cfg(feature = "ggrs")]
pub mod ggrs;

#[cfg(feature = "tilemap")]
pub mod tilemap;

#[cfg(feature = "tiled")]
pub mod tiled;

#[cfg(feature = "ldtk")]
pub mod ldtk;

/// The README's examples, compiled and run as doc tests.
#[cfg(all(doctest, feature = "plugin"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The guide's Rust examples (`docs/guide.md`), compiled and run as doc tests.
#[cfg(all(doctest, feature = "plugin"))]
#[doc = include_str!("../docs/guide.md")]
pub struct GuideDoctests;
