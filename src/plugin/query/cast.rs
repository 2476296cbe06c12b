//! Casts: what a ray, a segment or a shape moved from one pose to another hits first, or
//! at all.

use super::{Placed, QueryFilter, SweepQuery, within_range};
use crate::narrow::{Feature, ShapePath};
use crate::plugin::components::Collider;
use crate::plugin::components::placement::plane_of_isometry;
use bevy::ecs::prelude::*;
use bevy::math::{Dir2, Isometry2d, Vec2};

impl SweepQuery<'_> {
    /// The first collider the ray from `origin` in `direction` touches within `max_distance`
    /// (world units; `f32::MAX` or `f32::INFINITY` for no limit: every collider is within
    /// [`COORDINATE_RANGE`](crate::COORDINATE_RANGE)).
    /// `None` if it touches nothing, or if the input is not usable (an origin that is not
    /// finite or lies beyond the coordinate range, a negative or NaN distance). Build the
    /// direction with
    /// `Dir2::new(v)` (which refuses a zero or non-finite vector), `Dir2::X`, or
    /// `Dir2::from_xy_unchecked` for a vector known to be unit.
    #[must_use]
    pub fn cast_ray(
        &self,
        origin: Vec2,
        direction: Dir2,
        max_distance: f32,
        filter: &QueryFilter,
    ) -> Option<RayHit> {
        let end = ray_end(origin, direction, max_distance)?;
        self.scene().first_on_segment(origin, end, filter)
    }

    /// Every collider the ray touches within `max_distance`, each once with its first hit,
    /// nearest first, into `hits` (cleared first).
    pub fn ray_hits(
        &self,
        origin: Vec2,
        direction: Dir2,
        max_distance: f32,
        filter: &QueryFilter,
        hits: &mut Vec<RayHit>,
    ) {
        hits.clear();
        if let Some(end) = ray_end(origin, direction, max_distance) {
            self.scene().all_on_segment(origin, end, filter, hits);
        }
    }

    /// The first collider the segment from `a` to `b` touches, going from `a`.
    #[must_use]
    pub fn cast_segment(&self, a: Vec2, b: Vec2, filter: &QueryFilter) -> Option<RayHit> {
        if !(within_range(a) && within_range(b)) {
            return None;
        }
        self.scene().first_on_segment(a, b, filter)
    }

    /// Every collider the segment from `a` to `b` touches, each once with its first hit,
    /// nearest to `a` first, into `hits` (cleared first).
    pub fn segment_hits(&self, a: Vec2, b: Vec2, filter: &QueryFilter, hits: &mut Vec<RayHit>) {
        hits.clear();
        if within_range(a) && within_range(b) {
            self.scene().all_on_segment(a, b, filter, hits);
        }
    }

    /// The first collider that the shape `shape` touches when moved from the pose `start`
    /// to the pose `end` (translating and turning, each vertex on a straight line as the
    /// plugin's colliders move in a tick), and where: thick bullets, ground checks,
    /// move-and-slide. A shape already touching a collider at `start` hits it at time 0.
    ///
    /// Exact like the plugin's contacts. `None` if nothing is hit or the shape is unusable
    /// (see [`Collider::problem`]). Ties go to the smaller entity.
    ///
    /// ```
    /// use bevy::math::{Isometry2d, Vec2};
    /// use bevy::prelude::*;
    /// use bevy_sweep::prelude::*;
    ///
    /// fn ground_check(query: SweepQuery) {
    ///     let feet = Collider::capsule(Vec2::new(-4.0, 0.0), Vec2::new(4.0, 0.0), 2.0);
    ///     let (from, to) = (Vec2::new(0.0, 50.0), Vec2::new(0.0, 40.0));
    ///     if let Some(hit) = query.cast_shape(
    ///         &feet,
    ///         Isometry2d::from_translation(from),
    ///         Isometry2d::from_translation(to),
    ///         &QueryFilter::default(),
    ///     ) {
    ///         info!("ground at {} after {:.0}% of the way", hit.point, hit.time * 100.0);
    ///     }
    /// }
    /// # let mut app = App::new();
    /// # app.add_plugins(SweepPlugin::default()).add_systems(Update, ground_check);
    /// ```
    #[must_use]
    pub fn cast_shape(
        &self,
        shape: &Collider,
        start: Isometry2d,
        end: Isometry2d,
        filter: &QueryFilter,
    ) -> Option<ShapeCastHit> {
        self.cast_shape_with(shape, start, end, &CastOptions::default(), filter)
    }

    /// [`cast_shape`](Self::cast_shape) with [`CastOptions`]: leave out what the shape
    /// starts touching while it moves away from it or along it (so that a shape resting on
    /// a floor can slide along it), and colliders that do not block (sensors, responders,
    /// one-way platforms passed from below).
    ///
    /// ```
    /// use bevy::math::{Isometry2d, Vec2};
    /// use bevy::prelude::*;
    /// use bevy_sweep::prelude::*;
    ///
    /// fn walk(query: SweepQuery) {
    ///     let feet = Collider::circle(4.0);
    ///     // Standing on the floor: moving along it is not a hit at time 0.
    ///     let options = CastOptions { ignore_touching_leaving: true, blocking_only: true };
    ///     let hit = query.cast_shape_with(
    ///         &feet,
    ///         Isometry2d::from_translation(Vec2::new(0.0, 4.0)),
    ///         Isometry2d::from_translation(Vec2::new(10.0, 4.0)),
    ///         &options,
    ///         &QueryFilter::default(),
    ///     );
    ///     assert!(hit.is_none_or(|h| h.time > 0.0));
    /// }
    /// # let mut app = App::new();
    /// # app.add_plugins(SweepPlugin::default()).add_systems(Update, walk);
    /// ```
    #[must_use]
    pub fn cast_shape_with(
        &self,
        shape: &Collider,
        start: Isometry2d,
        end: Isometry2d,
        options: &CastOptions,
        filter: &QueryFilter,
    ) -> Option<ShapeCastHit> {
        let (from, to) = (
            Placed::new(shape, &plane_of_isometry(start))?,
            Placed::new(shape, &plane_of_isometry(end))?,
        );
        let paths: Vec<ShapePath> = from
            .shapes()
            .iter()
            .zip(to.shapes())
            .filter_map(|(&a, &b)| ShapePath::between(a, b))
            .collect();
        self.scene().cast_paths(&paths, options, filter, &[]).0
    }
}

/// The end of a ray, if its input is usable.
fn ray_end(origin: Vec2, direction: Dir2, max_distance: f32) -> Option<Vec2> {
    // Every collider lies within the range: from an origin inside it, nothing is farther
    // than its diagonal, `2^24 · 2√2 < 2^26`. A longer ray (`f32::MAX`, infinity) is cut there.
    const REACH: f32 = 4.0 * crate::COORDINATE_RANGE;
    (within_range(origin) && max_distance >= 0.0)
        .then(|| origin + direction * max_distance.min(REACH))
}

/// Where a ray (or a segment cast) first touches a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The collider.
    pub entity: Entity,
    /// Distance from the ray's origin to the hit along the ray, in world units (`0` if the
    /// origin is inside or on the collider).
    pub distance: f32,
    /// The hit point.
    pub point: Vec2,
    /// Unit normal of the collider's surface at the hit, facing the ray's origin (for a thin
    /// collider, a point or a segment, the side the ray comes from).
    pub normal: Vec2,
    /// Where along the collider the hit is, if it is a segment, a capsule (along its core) or
    /// a polyline (along the edge `feature` names): `0` at the first endpoint, `1` at the
    /// second.
    pub along: Option<f32>,
    /// The vertex or edge hit, if the collider is a polygon or a polyline.
    pub feature: Option<Feature>,
}

/// What [`SweepQuery::cast_shape_with`] leaves out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CastOptions {
    /// Leave out a collider the shape touches at the start while it moves away from it or
    /// along it (its contact point moves out of or along the surface), so that a shape
    /// resting against a wall or on a floor can move along it or off it. It still hits a
    /// collider it starts touching and moves into. Default: `false` (a shape that starts
    /// touching a collider hits it at time 0, as [`SweepQuery::cast_shape`] does).
    pub ignore_touching_leaving: bool,
    /// Leave out what does not block a mover: [`Sensor`](crate::prelude::Sensor)s, responders
    /// ([`Response`](crate::prelude::Response),
    /// [`KinematicCharacter`](crate::prelude::KinematicCharacter)), and a
    /// [`OneWay`](crate::prelude::OneWay) collider unless the shape starts wholly on its side
    /// and moves against its direction. Default: `false`.
    pub blocking_only: bool,
}

/// The first hit of a [`SweepQuery::cast_shape`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastHit {
    /// The collider hit.
    pub entity: Entity,
    /// When, as a fraction of the way from the start pose to the end pose, in `[0, 1]`.
    pub time: f32,
    /// Where the shapes touch, world space.
    pub point: Vec2,
    /// Unit normal, from the hit collider towards the cast shape.
    pub normal: Vec2,
}
