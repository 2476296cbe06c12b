//! Spatial queries against the colliders: what a ray, a segment or a shape touches now.

use super::components::{Collider, LayerMask};
use super::tick::entries::{Entry, Group};
use super::tick::publish::Snapshot;
use super::tick::report::edge_feature;
use super::tick::respond::wholly_beyond;
use crate::narrow::{Feature, Shape, ShapePath, contact_intervals, penetration, project, witness};
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::ecs::system::SystemParam;
use bevy::math::{Affine2, Isometry2d, Mat2};
use bevy::math::{Dir2, Vec2};
use core::ops::ControlFlow;

/// Which colliders a query may hit: members of some layers, leaving out a set of entities
/// (colliders, and bodies with all their colliders).
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
    /// [`CollisionLayers::memberships`](crate::prelude::CollisionLayers::memberships)). Default:
    /// every layer.
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
    /// Hits only members of `layers`: a [`CollisionLayer`](crate::prelude::CollisionLayer)
    /// value, an array of them, a [`LayerMask`] or a `u32` mask.
    #[must_use]
    pub fn with_layers(mut self, layers: impl Into<LayerMask>) -> Self {
        self.layers = layers.into().0;
        self
    }

    /// Never hits `entity` (besides the entities already left out): that collider, or, if
    /// `entity` has a [`Body`](crate::prelude::Body), every collider of that body.
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

    /// `true` if the query may hit `entry` (a collider where the last tick left it: not a
    /// piece of a responder's path that it went on from), neither it nor its body excluded.
    #[inline]
    fn accepts(&self, entry: &Entry) -> bool {
        !entry.passed()
            && entry.layers.memberships & self.layers != 0
            && (self.excluded.is_empty()
                || !(self.excluded.contains(&entry.entity)
                    || entry.body.is_some_and(|body| self.excluded.contains(&body))))
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
/// # What a query sees
/// Every collider as the last tick left it (at the sweep's
/// [`SweepSystems::Report`](super::SweepSystems::Report)):
/// - **A collider spawned since is not seen until a tick has run.** One spawned in `Update`
///   is found once a fixed tick has run since (in `Update`, usually the next frame's); one
///   spawned in `FixedUpdate` (before the sweep, in the same tick), from the sweep on. (The sweep has not placed it yet:
///   its world transform, its body and whether its shape is usable are decided by the tick.)
/// - Moves made since, in `Update`, are not seen until the next tick either.
/// - A collider despawned since may still be hit: check the entity with `Query::get`.
/// - A collider switched off with [`ColliderDisabled`](crate::prelude::ColliderDisabled) is
///   not found from the moment the marker is inserted.
/// - A query whose points or poses lie beyond [`COORDINATE_RANGE`](crate::COORDINATE_RANGE)
///   finds nothing (no collider is there: the plugin refuses them).
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
/// use bevy::math::Isometry2d;
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// fn pick(query: SweepQuery, mut picked: Local<Vec<Entity>>) {
///     let cursor = Vec2::new(10.0, 20.0); // from `Camera::viewport_to_world_2d`
///     let near = Collider::circle(4.0);
///     query.shape_hits(&near, Isometry2d::from_translation(cursor), &QueryFilter::default(), &mut picked);
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
        self.first_on_segment(origin, end, filter)
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
            self.all_on_segment(origin, end, filter, hits);
        }
    }

    /// The first collider the segment from `a` to `b` touches, going from `a`.
    #[must_use]
    pub fn cast_segment(&self, a: Vec2, b: Vec2, filter: &QueryFilter) -> Option<RayHit> {
        if !(within_range(a) && within_range(b)) {
            return None;
        }
        self.first_on_segment(a, b, filter)
    }

    /// [`cast_segment`](Self::cast_segment) of checked input.
    fn first_on_segment(&self, a: Vec2, b: Vec2, filter: &QueryFilter) -> Option<RayHit> {
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
        if within_range(a) && within_range(b) {
            self.all_on_segment(a, b, filter, hits);
        }
    }

    /// [`segment_hits`](Self::segment_hits) of checked input, into `hits` (cleared).
    fn all_on_segment(&self, a: Vec2, b: Vec2, filter: &QueryFilter, hits: &mut Vec<RayHit>) {
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
        self.cast_skipping(shape, start, end, options, filter, &[])
    }

    /// [`cast_shape_with`](Self::cast_shape_with), leaving out `skip` too.
    fn cast_skipping(
        &self,
        shape: &Collider,
        start: Isometry2d,
        end: Isometry2d,
        options: &CastOptions,
        filter: &QueryFilter,
        skip: &[Entity],
    ) -> Option<ShapeCastHit> {
        self.cast_touching(shape, start, end, options, filter, skip)
            .0
    }

    /// [`cast_skipping`](Self::cast_skipping), and whether the shape touches (or overlaps)
    /// something that blocks at the start.
    fn cast_touching(
        &self,
        shape: &Collider,
        start: Isometry2d,
        end: Isometry2d,
        options: &CastOptions,
        filter: &QueryFilter,
        skip: &[Entity],
    ) -> (Option<ShapeCastHit>, bool) {
        if shape.problem().is_some() {
            return (None, false);
        }
        let (p0, p1) = (plane_of_isometry(start), plane_of_isometry(end));
        let usable = |plane: &Affine2| plane.is_finite() && within_range(plane.translation);
        if !(usable(&p0) && usable(&p1)) {
            return (None, false);
        }
        if shape.is_polyline() {
            let paths: Vec<ShapePath> = shape
                .edges_in(&p0)
                .zip(shape.edges_in(&p1))
                .map(|((_, a0, b0), (_, a1, b1))| ShapePath::Segment {
                    a: [a0, a1],
                    b: [b0, b1],
                })
                .collect();
            return self.cast_paths(&paths, options, filter, skip);
        }
        match ShapePath::between(shape.shape_in(&p0), shape.shape_in(&p1))
            .filter(ShapePath::is_valid)
        {
            Some(path) => self.cast_paths(core::slice::from_ref(&path), options, filter, skip),
            None => (None, false),
        }
    }

    /// The first hit of any of `paths` (the pieces of one moving shape), leaving out `skip`
    /// besides what `filter` does (without building a set for a few entities); and whether
    /// the shape touches (or overlaps) a collider that blocks at the start, hit or not.
    fn cast_paths(
        &self,
        paths: &[ShapePath],
        options: &CastOptions,
        filter: &QueryFilter,
        skip: &[Entity],
    ) -> (Option<ShapeCastHit>, bool) {
        let mut best: Option<(f32, Entity, ShapePath, ShapePath)> = None;
        let mut touched = false;
        for path in paths {
            let bounds = path.swept_bounds();
            for group in self.snapshot.groups() {
                group.index.broad.query(&bounds, |i| {
                    let body = group.entry(i);
                    if !filter.accepts(body) || skip.contains(&body.entity) {
                        return;
                    }
                    let target = ShapePath::still(group.path(i).end());
                    let one_way = if options.blocking_only {
                        match self.blocks(body, path, &target) {
                            Blocks::No => return,
                            Blocks::Yes => None,
                            Blocks::OneWay(d) => Some(d),
                        }
                    } else {
                        None
                    };
                    for &[t, _] in contact_intervals(path, &target).iter() {
                        touched |= t == 0.0 && one_way.is_none() && body.blocks();
                        if best.is_some_and(|(bt, be, ..)| (bt, be) < (t, body.entity)) {
                            return;
                        }
                        let starts_touching = options.ignore_touching_leaving && t == 0.0;
                        if one_way.is_some() || starts_touching {
                            let w = witness(path, &target, t, false);
                            let motion = w.relative_motion;
                            let leaving = |n: Vec2| motion.dot(n) >= -1e-5 * motion.length();
                            // Moving against a one-way direction only; moving away from (or
                            // along) what it starts touching is no hit.
                            if one_way.is_some_and(leaving) || starts_touching && leaving(w.normal)
                            {
                                continue;
                            }
                        }
                        best = Some((t, body.entity, *path, target));
                        return;
                    }
                });
            }
        }
        let hit = best.map(|(time, entity, path, target)| {
            let w = witness(&path, &target, time, false);
            ShapeCastHit {
                entity,
                time,
                point: w.point,
                normal: w.normal,
            }
        });
        (hit, touched)
    }

    /// Whether `body` blocks a mover on `path` (for moves that only blocking colliders stop).
    fn blocks(&self, body: &Entry, path: &ShapePath, target: &ShapePath) -> Blocks {
        if !body.blocks() {
            return Blocks::No;
        }
        if !body.one_way() {
            return Blocks::Yes;
        }
        match self.snapshot.one_way.get(&body.entity) {
            Some(&d) if wholly_beyond(&path.at(0.0), &target.at(0.0), d) => Blocks::OneWay(d),
            _ => Blocks::No,
        }
    }

    /// The collider `shape` overlaps most deeply at `pose`, and the shortest way out of it;
    /// `None` if it overlaps none (touching is not overlapping) or the shape is unusable.
    /// Sensors and responders count like any collider; [`QueryFilter`] leaves out what it
    /// should not see.
    ///
    /// ```
    /// use bevy::math::Isometry2d;
    /// use bevy::prelude::*;
    /// use bevy_sweep::prelude::*;
    ///
    /// fn unstick(query: SweepQuery, mut hero: Single<&mut Transform, With<Collider>>) {
    ///     let body = Collider::circle(4.0);
    ///     let pose = Isometry2d::from_translation(hero.translation.truncate());
    ///     if let Some(p) = query.penetration(&body, pose, &QueryFilter::default()) {
    ///         hero.translation += (p.direction * p.depth).extend(0.0);
    ///     }
    /// }
    /// # bevy::ecs::system::assert_is_system(unstick);
    /// ```
    #[must_use]
    pub fn penetration(
        &self,
        shape: &Collider,
        pose: Isometry2d,
        filter: &QueryFilter,
    ) -> Option<PenetrationHit> {
        self.deepest(shape, pose, filter, false, &[])
    }

    /// The deepest overlap of `shape` at `pose`, of blocking colliders only if `blocking`.
    fn deepest(
        &self,
        shape: &Collider,
        pose: Isometry2d,
        filter: &QueryFilter,
        blocking: bool,
        skip: &[Entity],
    ) -> Option<PenetrationHit> {
        if shape.problem().is_some() || shape.is_polyline() {
            return None;
        }
        let plane = plane_of_isometry(pose);
        if !plane.is_finite() || !within_range(plane.translation) {
            return None;
        }
        let probe = shape.shape_in(&plane);
        let bounds = ShapePath::still(probe).swept_bounds();
        let mut best: Option<PenetrationHit> = None;
        for group in self.snapshot.groups() {
            group.index.broad.query(&bounds, |i| {
                let body = group.entry(i);
                if !filter.accepts(body)
                    || skip.contains(&body.entity)
                    || blocking && (!body.blocks() || body.one_way())
                {
                    return;
                }
                if let Some(p) = penetration(&probe, &group.path(i).end())
                    && best.is_none_or(|b| (p.depth, body.entity) > (b.depth, b.entity))
                {
                    best = Some(PenetrationHit {
                        entity: body.entity,
                        depth: p.depth,
                        direction: p.direction,
                    });
                }
            });
        }
        best
    }

    /// Moves `shape` from `start` by `motion`, sliding along what it hits, as a character
    /// controller does: each hit stops the part of the motion into the surface and the rest
    /// goes on along it, up to [`MoveAndSlideConfig::max_slides`] times. It keeps
    /// [`skin`](MoveAndSlideConfig::skin) away from what it hits, never stops at sensors or
    /// responders, and passes one-way platforms from below. A shape that starts inside
    /// something is first pushed out the shortest way
    /// ([`depenetrate`](MoveAndSlideConfig::depenetrate)).
    ///
    /// Exact like every query: at any speed it never passes through anything. The shape does
    /// not turn. [`KinematicCharacter`](crate::prelude::KinematicCharacter) runs this every
    /// tick for you; call it yourself to drive your own movement.
    ///
    /// ```
    /// use bevy::math::{Isometry2d, Vec2};
    /// use bevy::prelude::*;
    /// use bevy_sweep::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Player;
    ///
    /// fn walk(
    ///     query: SweepQuery,
    ///     time: Res<Time>,
    ///     mut player: Single<(Entity, &Collider, &mut Transform, &mut Velocity), With<Player>>,
    /// ) {
    ///     let (me, shape, ref mut transform, ref mut velocity) = *player;
    ///     let start = Isometry2d::from_translation(transform.translation.truncate());
    ///     let out = query.move_and_slide(
    ///         shape,
    ///         start,
    ///         velocity.0 * time.delta_secs(),
    ///         &MoveAndSlideConfig::default(),
    ///         &QueryFilter::default().excluding(me),
    ///     );
    ///     transform.translation = out.translation.extend(transform.translation.z);
    ///     // Lose the speed into the walls it hit.
    ///     velocity.0 = out.clip_velocity(velocity.0);
    /// }
    /// # bevy::ecs::system::assert_is_system(walk);
    /// ```
    #[must_use]
    pub fn move_and_slide(
        &self,
        shape: &Collider,
        start: Isometry2d,
        motion: Vec2,
        config: &MoveAndSlideConfig,
        filter: &QueryFilter,
    ) -> MoveAndSlideOutput {
        self.slide(shape, start, motion, config, filter, &[])
    }

    /// [`move_and_slide`](Self::move_and_slide), leaving out `skip` too.
    pub(crate) fn slide(
        &self,
        shape: &Collider,
        start: Isometry2d,
        motion: Vec2,
        config: &MoveAndSlideConfig,
        filter: &QueryFilter,
        skip: &[Entity],
    ) -> MoveAndSlideOutput {
        let mut out = MoveAndSlideOutput {
            translation: start.translation,
            hits: Vec::new(),
            remaining: motion,
            pushed: Vec2::ZERO,
        };
        if shape.problem().is_some() || !start.translation.is_finite() || !motion.is_finite() {
            return out;
        }
        let skin = if config.skin.is_finite() && config.skin >= 0.0 {
            config.skin
        } else {
            MoveAndSlideConfig::default().skin
        };
        let pose = |p: Vec2| Isometry2d::new(p, start.rotation);
        let mut at = start.translation;
        // Out of what it starts inside, the shortest way: `true` if it moved.
        let mut push_out = |at: &mut Vec2| {
            let before = *at;
            for _ in 0..4 {
                let Some(p) = self.deepest(shape, pose(*at), filter, true, skip) else {
                    break;
                };
                let margin = (at.abs().max_element() + p.depth) * (1.0 / (1 << 22) as f32);
                *at += p.direction * (p.depth + margin + 1e-7);
            }
            out.pushed += *at - before;
            *at != before
        };
        // Looked for only if the first cast finds it touching something at the start (a
        // shape inside something touches it): most moves start a skin away from everything.
        let mut depenetrate = config.depenetrate;
        if depenetrate && motion == Vec2::ZERO {
            push_out(&mut at);
        }
        let options = CastOptions {
            ignore_touching_leaving: true,
            blocking_only: true,
        };
        let walkable = |n: Vec2| {
            config
                .max_slope
                .is_some_and(|slope| n.dot(*config.up) >= bevy::math::ops::cos(slope) - 1e-6)
        };
        let mut remaining = motion;
        let mut last_normal: Option<Vec2> = None;
        let mut slides = 0;
        while slides < config.max_slides.max(1) {
            let length = remaining.length();
            if length.is_nan() || length <= 1e-9 * (1.0 + at.abs().max_element()) {
                remaining = Vec2::ZERO;
                break;
            }
            let to = at + remaining;
            let (hit, touched) =
                self.cast_touching(shape, pose(at), pose(to), &options, filter, skip);
            if depenetrate {
                depenetrate = false;
                if touched && push_out(&mut at) {
                    continue;
                }
            }
            slides += 1;
            let Some(hit) = hit else {
                at = to;
                remaining = Vec2::ZERO;
                break;
            };
            let direction = remaining / length;
            let approach = -direction.dot(hit.normal);
            // Stop `skin` short of the surface, measured along its normal.
            let back = if approach > 1e-3 {
                skin / approach
            } else {
                0.0
            };
            let go = (length * hit.time - back).max(0.0);
            at += direction * go;
            let left = remaining - direction * go;
            let ground = walkable(hit.normal);
            out.hits.push(MoveAndSlideHit {
                entity: hit.entity,
                point: hit.point,
                normal: hit.normal,
                walkable: ground,
            });
            remaining = slide(left, hit.normal, ground, *config.up);
            // Into the surface hit before: a crease, where it stops.
            if let Some(n) = last_normal
                && remaining.dot(n) < 0.0
                && n.dot(hit.normal) < 0.999
            {
                remaining = Vec2::ZERO;
                break;
            }
            last_normal = Some(hit.normal);
        }
        MoveAndSlideOutput {
            translation: at,
            remaining,
            ..out
        }
    }

    /// `true` if some blocking collider (not a sensor, not a responder) lies within
    /// `distance` of `shape` at `pose` in `direction`: the first such hit, if any.
    pub(crate) fn probe(
        &self,
        shape: &Collider,
        pose: Isometry2d,
        direction: Vec2,
        distance: f32,
        filter: &QueryFilter,
        skip: &[Entity],
    ) -> Option<(ShapeCastHit, f32)> {
        let end = Isometry2d::new(pose.translation + direction * distance, pose.rotation);
        let options = CastOptions {
            ignore_touching_leaving: false,
            blocking_only: true,
        };
        self.cast_skipping(shape, pose, end, &options, filter, skip)
            .map(|hit| (hit, hit.time * distance))
    }

    /// Where two colliders touch now (as the last tick left them): the contact point and the
    /// normal from `b` towards `a`. `None` if they do not touch, or either is not a collider
    /// the last tick swept or kept resting. A
    /// [`KinematicCharacter`](crate::prelude::KinematicCharacter) touches what is within its
    /// skin (it is swept grown by it).
    ///
    /// This is the *current* contact of a lasting pair (a crate resting on a moving
    /// platform, a character against a wall), where [`Contacts`](crate::prelude::Contacts)
    /// keeps the event that started it. It is computed on demand: a few exact tests, and on
    /// the first call after each tick a table of where each collider is.
    ///
    /// ```
    /// use bevy::prelude::*;
    /// use bevy_sweep::prelude::*;
    ///
    /// fn pressure(contacts: Res<Contacts>, query: SweepQuery) {
    ///     for contact in contacts.iter() {
    ///         if let Some(now) = query.contact(contact.entity, contact.other) {
    ///             info!("{} on {} at {}", contact.entity, contact.other, now.point);
    ///         }
    ///     }
    /// }
    /// # bevy::ecs::system::assert_is_system(pressure);
    /// ```
    #[must_use]
    pub fn contact(&self, a: Entity, b: Entity) -> Option<ContactNow> {
        let (ga, ra) = self.snapshot.entries_of(a)?;
        let (gb, rb) = self.snapshot.entries_of(b)?;
        let mut best: Option<ContactNow> = None;
        for i in ra {
            let pa = ShapePath::still(ga.entries.path(i).end());
            for j in rb.clone() {
                let pb = ShapePath::still(gb.entries.path(j).end());
                if contact_intervals(&pa, &pb).is_empty() {
                    continue;
                }
                let w = witness(&pa, &pb, 0.0, false);
                let found = ContactNow {
                    point: w.point,
                    normal: w.normal,
                };
                // A polyline's edges: the first that touches.
                best.get_or_insert(found);
            }
        }
        best
    }

    /// The collider nearest `point` and its point nearest it, with the distance (`0` when
    /// `point` is inside or on a collider). `None` if no collider passes the filter or the
    /// point is not finite or lies beyond [`COORDINATE_RANGE`](crate::COORDINATE_RANGE).
    /// Ties go to the smaller entity.
    #[must_use]
    pub fn project_point(&self, point: Vec2, filter: &QueryFilter) -> Option<PointProjection> {
        if !within_range(point) {
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
                    if !filter.accepts(body) {
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

    /// Every collider that touches or overlaps the collider shape `shape` at the pose `pose`
    /// now, into `hits` (cleared first), in no particular order, each once: mouse picking,
    /// area checks, what a trigger zone holds. Any shape can be the query, a polyline
    /// included. Nothing if the shape is unusable (see [`Collider::problem`]) or the pose is
    /// not finite.
    ///
    /// ```
    /// use bevy::math::{Isometry2d, Vec2};
    /// use bevy::prelude::*;
    /// use bevy_sweep::prelude::*;
    ///
    /// /// What an explosion at `at` reaches.
    /// fn blast(query: SweepQuery, mut reached: Local<Vec<Entity>>) {
    ///     let at = Vec2::new(120.0, 40.0);
    ///     let area = Collider::circle(64.0);
    ///     query.shape_hits(&area, Isometry2d::from_translation(at), &QueryFilter::default(), &mut reached);
    ///     for &entity in reached.iter() {
    ///         info!("{entity} is in the blast");
    ///     }
    /// }
    /// # let mut app = App::new();
    /// # app.add_plugins(SweepPlugin::default()).add_systems(Update, blast);
    /// ```
    pub fn shape_hits(
        &self,
        shape: &Collider,
        pose: Isometry2d,
        filter: &QueryFilter,
        hits: &mut Vec<Entity>,
    ) {
        hits.clear();
        let polyline = shape.is_polyline();
        self.each_probe(shape, pose, |probe| {
            let bounds = probe.swept_bounds();
            for group in self.snapshot.groups() {
                group.index.broad.query(&bounds, |i| {
                    let body = group.entry(i);
                    // (A polyline's edges are boxes of their own, and a polyline query has
                    // several probes: each collider is listed once.)
                    if touches_now(probe, group, i, filter)
                        && !((polyline || body.merged()) && hits.contains(&body.entity))
                    {
                        hits.push(body.entity);
                    }
                });
            }
            ControlFlow::Continue(())
        });
    }

    /// Every collider that contains or touches `point` now, into `hits` (cleared first).
    pub fn point_hits(&self, point: Vec2, filter: &QueryFilter, hits: &mut Vec<Entity>) {
        self.shape_hits(
            &Collider::Point,
            Isometry2d::from_translation(point),
            filter,
            hits,
        );
    }

    /// `true` if some collider touches or overlaps the collider shape `shape` at the pose
    /// `pose` now (`false` if the shape is unusable or the pose not finite).
    #[must_use]
    pub fn any_hit(&self, shape: &Collider, pose: Isometry2d, filter: &QueryFilter) -> bool {
        let mut any = false;
        self.each_probe(shape, pose, |probe| {
            for group in self.snapshot.groups() {
                group.index.broad.query(&probe.swept_bounds(), |i| {
                    any = any || touches_now(probe, group, i, filter);
                });
            }
            if any {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        any
    }

    /// Calls `f` with `shape` at `pose` as still paths (one, or a polyline's edges), while it
    /// continues; not at all if the shape is unusable or the pose not finite.
    fn each_probe(
        &self,
        shape: &Collider,
        pose: Isometry2d,
        mut f: impl FnMut(&ShapePath) -> ControlFlow<()>,
    ) {
        let plane = plane_of_isometry(pose);
        if shape.problem().is_some() || !plane.is_finite() || !within_range(plane.translation) {
            return;
        }
        if shape.is_polyline() {
            for (_, a, b) in shape.edges_in(&plane) {
                if f(&ShapePath::still(Shape::Segment(a, b))).is_break() {
                    return;
                }
            }
        } else {
            let probe = ShapePath::still(shape.shape_in(&plane));
            if probe.is_valid() {
                let _ = f(&probe);
            }
        }
    }
}

/// `true` if the probe touches box `i` of `group` where the last tick left it.
fn touches_now(probe: &ShapePath, group: &Group, i: u32, filter: &QueryFilter) -> bool {
    let entry = group.entry(i);
    filter.accepts(entry)
        && !contact_intervals(probe, &ShapePath::still(group.path(i).end())).is_empty()
}

/// When (as a fraction of the way) the moving point `ray` first touches box `i` of `group`.
fn first_touch(ray: &ShapePath, group: &Group, i: u32, filter: &QueryFilter) -> Option<f32> {
    let entry = group.entry(i);
    if !filter.accepts(entry) {
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
    // Every collider lies within the range: from an origin inside it, nothing is farther
    // than its diagonal, `2^24 · 2√2 < 2^26`. A longer ray (`f32::MAX`, infinity) is cut there.
    const REACH: f32 = 4.0 * crate::COORDINATE_RANGE;
    (within_range(origin) && max_distance >= 0.0)
        .then(|| origin + direction * max_distance.min(REACH))
}

/// `true` if `p` is finite and within [`COORDINATE_RANGE`](crate::COORDINATE_RANGE) on each
/// axis: a query beyond it finds nothing.
fn within_range(p: Vec2) -> bool {
    p.abs().cmple(Vec2::splat(crate::COORDINATE_RANGE)).all()
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

/// Whether a collider blocks a mover.
enum Blocks {
    No,
    Yes,
    /// Only motion against this direction.
    OneWay(Vec2),
}

/// How a motion that hits a surface goes on along it: the part into the surface removed;
/// on walkable ground, the horizontal progress kept along the slope (so that a motion
/// straight down, gravity, does not slide down it).
pub(crate) fn slide(left: Vec2, normal: Vec2, walkable: bool, up: Vec2) -> Vec2 {
    let into = left.dot(normal);
    if into >= 0.0 {
        return left;
    }
    if walkable {
        let across = up.perp();
        // The ground's direction, going the way `across` does.
        let mut tangent = normal.perp();
        if tangent.dot(across) < 0.0 {
            tangent = -tangent;
        }
        let progress = left.dot(across);
        let rate = tangent.dot(across);
        if rate > 1e-6 {
            return tangent * (progress / rate);
        }
    }
    left - into * normal
}

/// Where two colliders touch now ([`SweepQuery::contact`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactNow {
    /// The contact point, world space.
    pub point: Vec2,
    /// Unit normal, from the second collider towards the first.
    pub normal: Vec2,
}

/// The deepest overlap of a [`SweepQuery::penetration`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PenetrationHit {
    /// The collider overlapped.
    pub entity: Entity,
    /// How far the shape must move to only touch it, in world units.
    pub depth: f32,
    /// Which way it must move (unit).
    pub direction: Vec2,
}

/// How [`SweepQuery::move_and_slide`] moves a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveAndSlideConfig {
    /// The gap kept to what it hits, in world units (measured along the surface's normal).
    /// Default: `0.01`.
    pub skin: f32,
    /// How many hits it slides along at most; the motion left after them is dropped.
    /// Default: `4`.
    pub max_slides: usize,
    /// The steepest slope, in radians from `up`, on which a motion pressing down keeps its
    /// horizontal progress instead of sliding down (walkable ground); `None`: every surface
    /// is slid along the same way. Default: `None`.
    pub max_slope: Option<f32>,
    /// Which way is up (for `max_slope`). Default: `Dir2::Y`.
    pub up: Dir2,
    /// Push the shape out of what it starts inside first (the shortest way). Default:
    /// `true`.
    pub depenetrate: bool,
}

impl Default for MoveAndSlideConfig {
    fn default() -> Self {
        Self {
            skin: 0.01,
            max_slides: 4,
            max_slope: None,
            up: Dir2::Y,
            depenetrate: true,
        }
    }
}

/// A surface [`SweepQuery::move_and_slide`] hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveAndSlideHit {
    /// The collider hit.
    pub entity: Entity,
    /// Where, world space.
    pub point: Vec2,
    /// The surface's unit normal, towards the shape.
    pub normal: Vec2,
    /// No steeper than [`MoveAndSlideConfig::max_slope`].
    pub walkable: bool,
}

/// What [`SweepQuery::move_and_slide`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAndSlideOutput {
    /// Where the shape ends: the start's translation plus what it moved.
    pub translation: Vec2,
    /// Each surface it hit, in order.
    pub hits: Vec<MoveAndSlideHit>,
    /// The part of the motion it could not make (dropped after `max_slides` hits, or in a
    /// crease).
    pub remaining: Vec2,
    /// How far it was pushed out of what it started inside.
    pub pushed: Vec2,
}

impl MoveAndSlideOutput {
    /// `velocity` without the part that points into each surface hit: what a character
    /// keeps after the move.
    #[must_use]
    pub fn clip_velocity(&self, velocity: Vec2) -> Vec2 {
        self.hits
            .iter()
            .fold(velocity, |v, h| v - v.dot(h.normal).min(0.0) * h.normal)
    }
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
