//! Spatial queries against the colliders: what a ray, a segment or a shape touches now.
//!
//! [`SweepQuery`] is the public face: it turns its arguments into shapes in the world and
//! asks the [`Scene`] of the colliders where the last tick left them ([`scene`] holds the
//! searches, [`slide`] move-and-slide).

mod scene;
mod slide;

pub(crate) use scene::{Scene, Searched};

use super::answer::clip;
use super::components::placement::plane_of_isometry;
use super::components::{Collider, Composites, LayerMask};
use super::tick::entries::Entry;
use super::tick::publish::Snapshot;
use crate::narrow::{Feature, Shape, ShapePath, contact_intervals, witness};
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::ecs::system::SystemParam;
use bevy::math::{Affine2, Isometry2d};
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
    pub(crate) fn accepts(&self, entry: &Entry) -> bool {
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
    composites: Res<'w, Composites>,
}

impl SweepQuery<'_> {
    /// The colliders where the last tick left them, as the searches read them.
    fn scene(&self) -> Scene<'_> {
        let snapshot = &*self.snapshot;
        Scene {
            groups: snapshot
                .groups()
                .map(|group| Searched::new(&group.entries, &group.index, None)),
            moment: 1.0,
            one_way: &snapshot.one_way,
            composites: Some(&self.composites),
        }
    }

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
        let placed = Placed::new(shape, &plane_of_isometry(pose))?;
        self.scene().deepest(placed.shapes(), filter, false, &[])
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
        match Placed::new(shape, &plane_of_isometry(start)) {
            Some(placed) => self.scene().slide(
                placed.shapes(),
                start.translation,
                motion,
                config,
                filter,
                &[],
            ),
            None => MoveAndSlideOutput {
                translation: start.translation,
                hits: Vec::new(),
                remaining: motion,
                pushed: Vec2::ZERO,
            },
        }
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
        // A collider does not touch itself.
        if a == b {
            return None;
        }
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
        self.scene().nearest(point, filter)
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
        let Some(placed) = Placed::new(shape, &plane_of_isometry(pose)) else {
            return;
        };
        let several = placed.shapes().len() > 1;
        let scene = self.scene();
        for &probe in placed.shapes() {
            scene.touching(&ShapePath::still(probe), filter, |entry| {
                // (A polyline's edges are boxes of their own, and a polyline query has
                // several probes: each collider is listed once.)
                if !((several || entry.merged()) && hits.contains(&entry.entity)) {
                    hits.push(entry.entity);
                }
                ControlFlow::Continue(())
            });
        }
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
        let Some(placed) = Placed::new(shape, &plane_of_isometry(pose)) else {
            return false;
        };
        let scene = self.scene();
        let mut any = false;
        for &probe in placed.shapes() {
            scene.touching(&ShapePath::still(probe), filter, |_| {
                any = true;
                ControlFlow::Break(())
            });
            if any {
                break;
            }
        }
        any
    }
}

/// A collider's shape placed in the world: one shape, or a composite's elements.
pub(crate) enum Placed {
    One([Shape; 1]),
    Edges(Vec<Shape>),
}

impl Placed {
    /// `shape` in the plane `plane`; `None` if the shape is unusable (see
    /// [`Collider::problem`]), or the plane is not finite or its origin lies beyond
    /// [`COORDINATE_RANGE`](crate::COORDINATE_RANGE).
    pub(crate) fn new(shape: &Collider, plane: &Affine2) -> Option<Self> {
        if shape.problem().is_some() || !plane.is_finite() || !within_range(plane.translation) {
            return None;
        }
        if shape.is_composite() {
            let mut elements = Vec::new();
            shape.for_each_element(plane, &mut |_, element| {
                if element.is_valid() {
                    elements.push(element);
                }
            });
            return (!elements.is_empty()).then_some(Placed::Edges(elements));
        }
        let one = shape.shape_in(plane);
        one.is_valid().then_some(Placed::One([one]))
    }

    pub(crate) fn shapes(&self) -> &[Shape] {
        match self {
            Placed::One(one) => one,
            Placed::Edges(edges) => edges,
        }
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

/// `true` if `p` is finite and within [`COORDINATE_RANGE`](crate::COORDINATE_RANGE) on each
/// axis: a query beyond it finds nothing.
pub(crate) fn within_range(p: Vec2) -> bool {
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
        self.hits.iter().fold(velocity, |v, h| clip(v, h.normal))
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
