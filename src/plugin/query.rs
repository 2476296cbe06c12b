//! Spatial queries against the colliders: what a ray, a segment or a shape touches now.

use super::components::{Collider, CollisionLayers};
use super::tick::entries::Group;
use super::tick::publish::Snapshot;
use super::tick::report::edge_feature;
use crate::narrow::{Feature, Shape, ShapePath, contact_intervals, project, witness};
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::ecs::system::SystemParam;
use bevy::math::{Affine2, Isometry2d, Mat2};
use bevy::math::{Dir2, Vec2};
use core::ops::ControlFlow;

/// Which colliders a query may hit: members of some layers, leaving out a set of entities.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// # let mut world = World::new();
/// # let (shooter, gun) = (world.spawn_empty().id(), world.spawn_empty().id());
/// // Anything on layers 1 or 2 but the shooter and its gun.
/// let filter = QueryFilter::default()
///     .with_layers(0b11)
///     .with_excluded_entities([shooter, gun]);
/// assert!(filter.excluded.contains(&gun));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryFilter {
    /// Hit only colliders that are members of one of these layers (see
    /// [`CollisionLayers::memberships`]). Default: every layer.
    pub layers: u32,
    /// Never hit these entities (for example, the shooter of a ray and its weapon). Default:
    /// none.
    pub excluded: EntityHashSet,
}

impl Default for QueryFilter {
    fn default() -> Self {
        Self {
            layers: u32::MAX,
            excluded: EntityHashSet::default(),
        }
    }
}

impl QueryFilter {
    /// Hits only members of `layers`.
    #[must_use]
    pub fn with_layers(mut self, layers: u32) -> Self {
        self.layers = layers;
        self
    }

    /// Never hits `entity` (besides the entities already left out).
    #[must_use]
    pub fn excluding(mut self, entity: Entity) -> Self {
        self.excluded.insert(entity);
        self
    }

    /// Never hits any of `entities` (besides the entities already left out).
    #[must_use]
    pub fn with_excluded_entities(mut self, entities: impl IntoIterator<Item = Entity>) -> Self {
        self.excluded.extend(entities);
        self
    }

    #[inline]
    fn accepts(&self, entity: Entity, layers: &CollisionLayers) -> bool {
        layers.memberships & self.layers != 0
            && (self.excluded.is_empty() || !self.excluded.contains(&entity))
    }
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

/// Spatial queries against every collider where the last tick left it: what a ray or a
/// segment hits first or at all, and which colliders a point, segment, circle or box touches.
///
/// A system parameter: add `query: SweepQuery` to a system. It reads the plugin's own broad
/// phase (built each tick over the colliders' swept bounds), so a query costs a few rows of
/// that structure plus one exact test per nearby collider, with no setup of its own. Hits
/// are exact: the same kernels as the sweep decide them.
///
/// Positions are those at the end of the last tick (the sweep's
/// [`SweepSystems::Report`](super::SweepSystems::Report)): moves made since, in `Update`, are
/// not seen until the next tick, and a collider despawned since may still be hit (check it
/// with `Query::get`).
///
/// # Examples
/// A laser sight: the first thing in front of the player, ignoring the player.
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// #[derive(Component)]
/// struct Player;
///
/// fn laser(query: SweepQuery, player: Single<(Entity, &Transform), With<Player>>) {
///     let (me, transform) = *player;
///     let origin = transform.translation.truncate();
///     let aim = Dir2::new((transform.rotation * Vec3::X).truncate()).unwrap_or(Dir2::X);
///     let filter = QueryFilter::default().excluding(me);
///     if let Some(hit) = query.cast_ray(origin, aim, 1000.0, &filter) {
///         info!("the laser stops at {} on {}", hit.point, hit.entity);
///     }
/// }
/// # bevy::ecs::system::assert_is_system(laser);
/// ```
/// Mouse picking: every collider under the cursor, within 4 units.
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::narrow::Shape;
/// use bevy_sweep::prelude::*;
///
/// fn pick(query: SweepQuery, mut picked: Local<Vec<Entity>>) {
///     let cursor = Vec2::new(10.0, 20.0); // from `Camera::viewport_to_world_2d`
///     let near = Shape::Circle { center: cursor, radius: 4.0 };
///     query.shape_hits(near, &QueryFilter::default(), &mut picked);
///     for entity in picked.iter() {
///         info!("under the cursor: {entity}");
///     }
/// }
/// # bevy::ecs::system::assert_is_system(pick);
/// ```
#[derive(SystemParam)]
pub struct SweepQuery<'w> {
    snapshot: Res<'w, Snapshot>,
}

impl SweepQuery<'_> {
    /// The first collider the ray from `origin` in `direction` touches within `max_distance`
    /// (world units).
    /// `None` if it touches nothing, or if the input is not usable (a non-finite origin, a
    /// negative or NaN distance, an end that overflows). Build the direction with
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
        self.cast_segment(origin, end, filter)
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
            self.segment_hits(origin, end, filter, hits);
        }
    }

    /// The first collider the segment from `a` to `b` touches, going from `a`.
    #[must_use]
    pub fn cast_segment(&self, a: Vec2, b: Vec2, filter: &QueryFilter) -> Option<RayHit> {
        // The best hit so far: when, which collider, and where it is.
        let mut best: Option<(f32, Entity, &Group, u32)> = None;
        let ray = ShapePath::Point([a, b]);
        for group in self.snapshot.groups() {
            group.index.broad.query_segment(a, b, |i, entered| {
                if best.is_some_and(|(t, ..)| t < entered) {
                    return ControlFlow::Break(());
                }
                // Ties go to the smaller entity, as in `segment_hits`.
                let entity = group.entry(i).entity;
                if let Some(t) = first_touch(&ray, group, i, filter)
                    && best.is_none_or(|(bt, be, ..)| (t, entity) < (bt, be))
                {
                    best = Some((t, entity, group, i));
                }
                ControlFlow::Continue(())
            });
        }
        best.map(|(t, _, group, i)| hit(&ray, group, i, t, [a, b]))
    }

    /// Every collider the segment from `a` to `b` touches, each once with its first hit,
    /// nearest to `a` first, into `hits` (cleared first).
    pub fn segment_hits(&self, a: Vec2, b: Vec2, filter: &QueryFilter, hits: &mut Vec<RayHit>) {
        hits.clear();
        let ray = ShapePath::Point([a, b]);
        // The broad phase visits the plane in rows, in order along the segment, and finds a
        // box in a row at most once, and again in a later row only if it found it in every
        // row visited in between (a box spans consecutive rows, and every row between two
        // that meet it meets it too). So each group's hits are kept in three parts: the hits
        // found before the last row, those of the last row not found again yet
        // (`last_row..this_row`), and those of this row (`this_row..`). A collider hit
        // already can only be in the middle part, and moves to this row's part when it is
        // found again. Checking only that part keeps a laser through many colliders linear,
        // where checking every hit so far was quadratic. (A collider is in one group only.)
        // The boxes hit, beside `hits` (a polyline has one box per edge).
        let mut boxes: Vec<u32> = Vec::new();
        for group in self.snapshot.groups() {
            let (mut row, mut this_row, mut last_row) = (None, hits.len(), hits.len());
            group
                .index
                .broad
                .query_segment_in_rows(a, b, |i, _, visited| {
                    if row != Some(visited) {
                        (row, last_row, this_row) = (Some(visited), this_row, hits.len());
                    }
                    if let Some(j) = boxes[last_row..this_row].iter().position(|&k| k == i) {
                        this_row -= 1;
                        hits.swap(last_row + j, this_row);
                        boxes.swap(last_row + j, this_row);
                    } else if let Some(t) = first_touch(&ray, group, i, filter) {
                        hits.push(hit(&ray, group, i, t, [a, b]));
                        boxes.push(i);
                    }
                    ControlFlow::Continue(())
                });
            boxes.clear();
            boxes.resize(hits.len(), u32::MAX);
        }
        hits.sort_by(|x, y| {
            x.distance
                .total_cmp(&y.distance)
                .then(x.entity.cmp(&y.entity))
        });
        // A polyline hit on several edges: its first hit only.
        if hits.len() > 1 {
            let mut seen = EntityHashSet::default();
            hits.retain(|h| seen.insert(h.entity));
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
        if shape.problem().is_some() {
            return None;
        }
        let (p0, p1) = (plane_of_isometry(start), plane_of_isometry(end));
        if !(p0.is_finite() && p1.is_finite()) {
            return None;
        }
        let paths: Vec<ShapePath> = if shape.is_polyline() {
            shape
                .edges_in(&p0)
                .zip(shape.edges_in(&p1))
                .map(|((_, a0, b0), (_, a1, b1))| ShapePath::Segment {
                    a: [a0, a1],
                    b: [b0, b1],
                })
                .collect()
        } else {
            ShapePath::between(shape.shape_in(&p0), shape.shape_in(&p1))
                .filter(ShapePath::is_valid)
                .into_iter()
                .collect()
        };
        let mut best: Option<(f32, Entity, ShapePath, ShapePath)> = None;
        for path in &paths {
            let bounds = path.swept_bounds();
            for group in self.snapshot.groups() {
                group.index.broad.query(&bounds, |i| {
                    let body = group.entry(i);
                    if !filter.accepts(body.entity, &body.layers) {
                        return;
                    }
                    let target = ShapePath::still(group.path(i).end());
                    if let Some(&[t, _]) = contact_intervals(path, &target).first()
                        && best.is_none_or(|(bt, be, ..)| (t, body.entity) < (bt, be))
                    {
                        best = Some((t, body.entity, *path, target));
                    }
                });
            }
        }
        best.map(|(time, entity, path, target)| {
            let w = witness(&path, &target, time, false);
            ShapeCastHit {
                entity,
                time,
                point: w.point,
                normal: w.normal,
            }
        })
    }

    /// The collider nearest `point` and its point nearest it, with the distance (`0` when
    /// `point` is inside or on a collider). `None` if no collider passes the filter or the
    /// point is not finite. Ties go to the smaller entity.
    #[must_use]
    pub fn project_point(&self, point: Vec2, filter: &QueryFilter) -> Option<PointProjection> {
        if !point.is_finite() {
            return None;
        }
        let entries: usize = self.snapshot.groups().iter().map(|g| g.len()).sum();
        let any = entries > 0;
        // Boxes of growing size around the point: a collider outside one of half size `h`
        // is farther than `h`, so the nearest found within `h` is the nearest of all.
        let mut half = 1.0_f32.max(point.abs().max_element() * 1e-4);
        while any && half.is_finite() {
            let window = bevy::math::bounding::Aabb2d {
                min: point - Vec2::splat(half),
                max: point + Vec2::splat(half),
            };
            let mut best: Option<PointProjection> = None;
            let mut visited = 0;
            for group in self.snapshot.groups() {
                group.index.broad.query(&window, |i| {
                    visited += 1;
                    let body = group.entry(i);
                    if !filter.accepts(body.entity, &body.layers) {
                        return;
                    }
                    let (on, distance) = project(&group.path(i).end(), point);
                    if best.is_none_or(|b| (distance, body.entity) < (b.distance, b.entity)) {
                        best = Some(PointProjection {
                            entity: body.entity,
                            point: on,
                            distance,
                        });
                    }
                });
            }
            if let Some(best) = best
                && best.distance <= half
            {
                return Some(best);
            }
            // The window holds every collider and none passed the filter.
            if best.is_none() && visited >= entries {
                return None;
            }
            half *= 4.0;
        }
        None
    }

    /// Every collider that touches or overlaps `shape` now, into `hits` (cleared first), in
    /// no particular order, each once. Nothing if the shape is not usable (non-finite, a
    /// radius or half extent that is not positive). Any shape can be the query, a rounded
    /// polygon included (build one with [`Collider::world_shape`]).
    pub fn shape_hits(&self, shape: Shape, filter: &QueryFilter, hits: &mut Vec<Entity>) {
        hits.clear();
        let probe = ShapePath::still(shape);
        if !probe.is_valid() {
            return;
        }
        let bounds = probe.swept_bounds();
        for group in self.snapshot.groups() {
            group.index.broad.query(&bounds, |i| {
                let body = group.entry(i);
                // (A polyline's edges are boxes of their own: it is listed once.)
                if touches_now(&probe, group, i, filter)
                    && !(body.chain() && hits.contains(&body.entity))
                {
                    hits.push(body.entity);
                }
            });
        }
    }

    /// Every collider that contains or touches `point` now, into `hits` (cleared first).
    pub fn point_hits(&self, point: Vec2, filter: &QueryFilter, hits: &mut Vec<Entity>) {
        self.shape_hits(Shape::Point(point), filter, hits);
    }

    /// `true` if some collider touches or overlaps `shape` now.
    #[must_use]
    pub fn any_hit(&self, shape: Shape, filter: &QueryFilter) -> bool {
        let probe = ShapePath::still(shape);
        if !probe.is_valid() {
            return false;
        }
        let mut any = false;
        for group in self.snapshot.groups() {
            group.index.broad.query(&probe.swept_bounds(), |i| {
                any = any || touches_now(&probe, group, i, filter);
            });
        }
        any
    }
}

/// `true` if the probe touches box `i` of `group` where the last tick left it.
fn touches_now(probe: &ShapePath, group: &Group, i: u32, filter: &QueryFilter) -> bool {
    let entry = group.entry(i);
    filter.accepts(entry.entity, &entry.layers)
        && !contact_intervals(probe, &ShapePath::still(group.path(i).end())).is_empty()
}

/// When (as a fraction of the way) the moving point `ray` first touches box `i` of `group`.
fn first_touch(ray: &ShapePath, group: &Group, i: u32, filter: &QueryFilter) -> Option<f32> {
    let entry = group.entry(i);
    if !filter.accepts(entry.entity, &entry.layers) {
        return None;
    }
    let target = ShapePath::still(group.path(i).end());
    contact_intervals(ray, &target).first().map(|i| i[0])
}

/// The hit of the moving point `ray` on box `i` of `group` at `t`.
fn hit(ray: &ShapePath, group: &Group, i: u32, t: f32, [a, b]: [Vec2; 2]) -> RayHit {
    let entry = group.entry(i);
    let target = ShapePath::still(group.path(i).end());
    let w = witness(ray, &target, t, false);
    RayHit {
        entity: entry.entity,
        distance: (b - a).length() * t,
        point: w.point,
        normal: w.normal,
        along: w.along_b,
        feature: match entry.edge_index() {
            Some(edge) => Some(edge_feature(edge, w.along_b)),
            None => w.feature_b,
        },
    }
}

/// The plane transform of a pose.
fn plane_of_isometry(pose: Isometry2d) -> Affine2 {
    let (sin, cos) = (pose.rotation.sin, pose.rotation.cos);
    Affine2::from_mat2_translation(
        Mat2::from_cols(Vec2::new(cos, sin), Vec2::new(-sin, cos)),
        pose.translation,
    )
}

/// The end of a ray, if its input is usable.
fn ray_end(origin: Vec2, direction: Dir2, max_distance: f32) -> Option<Vec2> {
    let end = origin + direction * max_distance;
    (origin.is_finite() && max_distance >= 0.0 && end.is_finite()).then_some(end)
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

/// The nearest point of a collider to a point ([`SweepQuery::project_point`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointProjection {
    /// The collider.
    pub entity: Entity,
    /// Its point nearest the query point (the query point itself when inside).
    pub point: Vec2,
    /// How far the query point is from the collider, in world units (`0` inside or on it).
    pub distance: f32,
}
