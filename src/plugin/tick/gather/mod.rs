//! **Gather**: every collider's motion in this tick, in world space.
//!
//! Reads: each collider's [`Collider`], [`CollisionLayers`], velocities, transform (composed
//! with its ancestors'), [`Body`] and [`SweptPath`] (where its last motion ended), and which
//! colliders rest ([`Resting`]).
//! Writes: [`Motions`] (the swept colliders' entries and swept bounds, those that come to
//! rest and those that wake), each collider's [`SweptPath`], [`SkippedColliders`] (a warning
//! for each new reason), and [`SweepStats`]' `gather_time`, `skipped` and `gather_tasks`.
//!
//! A resting collider is visited only when something it depends on changes.

use super::entries::{Entries, Entry};
use super::parts::threads;
use super::shapes::EVENT_SKIN;
use crate::SweepSettings;
use crate::narrow::Shape;
use crate::plugin::components::placement::world_plane_from;
use crate::plugin::components::{ShapeCheck, Warned};
use crate::plugin::{
    AngularVelocity, Body, Collider, ColliderDisabled, CollisionLayers, KinematicCharacter, Mass,
    OneWay, Response, Sensor, SkipReason, SkippedColliders, SweepStats, SweptPath, Velocity,
};
use bevy::ecs::prelude::*;
use bevy::ecs::system::NonSendMarker;
use bevy::math::{Affine2, bounding::Aabb2d};
use bevy::platform::time::Instant;
use bevy::tasks::ComputeTaskPool;
use bevy::time::Time;
use bevy::transform::components::Transform;
use bevy::utils::Parallel;

mod motion;

use motion::{comes_to_rest, motion, plane_in_range};

/// Marks a resting collider: still for two ticks and unchanged, kept in the broad phase
/// without being swept again. The gather visits such colliders only when something they
/// depend on changes. An index of [`SweptPath`]'s record of rest for the gather's query
/// (an archetype filter), inserted and removed by the rest phase alone.
///
/// Stored in tables like the other components (not in a sparse set, which would be cheaper to
/// insert and remove): a filter on a sparse-set component makes Bevy iterate the gather's
/// query entity by entity through archetypes instead of along tables, which made the gather
/// of 100,000 moving colliders twice as slow. Colliders start and stop resting far less often
/// than they are gathered.
#[derive(Component)]
pub(crate) struct Resting;

/// The gather's hand-off: every collider's motion in this tick.
#[derive(Resource, Default)]
pub(crate) struct Motions {
    /// The colliders swept this tick (a polyline's edges each their own entry).
    pub(crate) entries: Entries,
    /// Their swept bounds, in the same order.
    pub(crate) bounds: Vec<Aabb2d>,
    /// The colliders that come to rest this tick, with their bounds (not in `entries`: the
    /// resting group takes them from this tick on).
    pub(crate) resting: Entries,
    pub(crate) resting_bounds: Vec<Aabb2d>,
    /// Resting colliders that move or changed: swept again from this tick on.
    pub(crate) woken: Vec<Entity>,
    /// The tick's duration, in seconds.
    pub(crate) duration: f32,
}

/// What one thread of the gather finds.
#[derive(Default)]
pub(crate) struct Gathered {
    swept: Entries,
    bounds: Vec<Aabb2d>,
    resting: Entries,
    resting_bounds: Vec<Aabb2d>,
    woken: Vec<Entity>,
    /// Colliders that cannot be swept, and why; and those that can again.
    skipped: Vec<(Entity, SkipReason)>,
    usable_again: Vec<Entity>,
    /// Warnings to give about colliders (each once).
    warnings: Vec<(Entity, &'static str)>,
    /// Scratch: a composite shape's elements at the start of its motion.
    elements: Vec<(u32, Shape)>,
}

impl Gathered {
    fn clear(&mut self) {
        self.swept.clear();
        self.bounds.clear();
        self.resting.clear();
        self.resting_bounds.clear();
        self.woken.clear();
        self.skipped.clear();
        self.usable_again.clear();
        self.warnings.clear();
    }
}

/// The gather's query: every collider and what its motion depends on.
type ColliderData = (
    Entity,
    &'static Collider,
    &'static mut SweptPath,
    &'static mut Warned,
    &'static CollisionLayers,
    Option<&'static Velocity>,
    Option<&'static AngularVelocity>,
    Option<(&'static Transform, Option<&'static ChildOf>)>,
    Has<Body>,
    Roles,
);

/// What a collider does to hits: answers them, as a character (swept grown by its skin), or
/// blocks nothing, or blocks one way.
type Roles = (
    Option<&'static Response>,
    Option<&'static KinematicCharacter>,
    Has<Sensor>,
    Has<OneWay>,
    Option<&'static Mass>,
);

/// A resting collider something it depends on changed for: its transform (or whether it has
/// one), its shape, its layers, its parent, or its motion restarting (teleported). (One
/// switched off is not visited: the rest finds it gone.)
type Woken = (
    With<Resting>,
    Without<ColliderDisabled>,
    Or<(
        Changed<Transform>,
        Without<Transform>,
        Changed<Collider>,
        Changed<CollisionLayers>,
        Changed<SweptPath>,
        Added<ChildOf>,
        Added<Body>,
    )>,
);

/// What decides whether a still collider may rest: whether its transform, shape or layers
/// changed since the last tick. Read only for colliders that stood still (fetching change
/// ticks for every collider would cost the gather a few nanoseconds each).
type Changes = (
    Ref<'static, Transform>,
    Ref<'static, Collider>,
    Ref<'static, CollisionLayers>,
);

/// What a collider's place, body and rest are read from.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Lookup<'w, 's> {
    transforms: Query<'w, 's, (&'static Transform, Option<&'static ChildOf>)>,
    bodies: Query<'w, 's, (Has<Body>, Option<&'static ChildOf>)>,
    changes: Query<'w, 's, Changes>,
}

impl Lookup<'_, '_> {
    /// The nearest entity with a [`Body`] among `entity` and its ancestors.
    fn body_above(&self, mut entity: Entity) -> Option<Entity> {
        // Deeper than this, the gather refuses the collider (`HierarchyTooDeep`).
        for _ in 0..crate::MAX_HIERARCHY_DEPTH {
            let (body, parent) = self.bodies.get(entity).ok()?;
            if body {
                return Some(entity);
            }
            entity = parent?.parent();
        }
        None
    }

    /// `true` if nothing a still collider's rest depends on changed since the last tick.
    fn unchanged(&self, entity: Entity) -> bool {
        self.changes
            .get(entity)
            .is_ok_and(|(transform, collider, layers)| {
                !transform.is_changed() && !collider.is_changed() && !layers.is_changed()
            })
    }
}

/// Collects every collider's motion in this tick into [`Motions`], on every thread of the
/// compute pool when allowed: the resting colliders only if something they depend on
/// changed, the others all.
pub(crate) fn gather(
    _main_thread: NonSendMarker,
    time: Res<Time>,
    settings: Res<SweepSettings>,
    mut motions: ResMut<Motions>,
    mut skipped: ResMut<SkippedColliders>,
    mut queries: ParamSet<(
        Query<ColliderData, (Without<Resting>, Without<ColliderDisabled>)>,
        Query<ColliderData, Woken>,
        Query<(), (With<Collider>, Without<ColliderDisabled>)>,
    )>,
    lookup: Lookup,
    mut gathered: Local<Parallel<Gathered>>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    let dt = time.delta_secs();
    for local in gathered.iter_mut() {
        local.clear();
    }
    let reasons = &skipped.reasons;
    let was_skipped = |entity| !reasons.is_empty() && reasons.contains_key(&entity);
    for item in &mut queries.p1() {
        gather_one(
            item,
            &lookup,
            was_skipped,
            dt,
            &mut gathered.borrow_local_mut(),
        );
    }
    let mut swept = queries.p0();
    // Bevy's parallel iteration makes a batch for each of the compute pool's threads (the
    // main thread helps run them), and runs serially on a one-thread pool.
    let batches = ComputeTaskPool::get().thread_num();
    let parallel = threads(&settings) > 1 && batches > 1;
    if parallel {
        swept.par_iter_mut().for_each_init(
            || gathered.borrow_local_mut(),
            |local, item| gather_one(item, &lookup, was_skipped, dt, local),
        );
    } else {
        let mut local = gathered.borrow_local_mut();
        for item in &mut swept {
            gather_one(item, &lookup, was_skipped, dt, &mut local);
        }
    }
    motions.join(&mut gathered, time.delta_secs());
    publish_skipped(&mut gathered, &mut skipped, &queries.p2());
    stats.skipped = skipped.len();
    stats.gather_time = began.elapsed();
    stats.gather_tasks = if parallel { batches } else { 0 };
}

impl Motions {
    /// Joins the threads' findings (their order does not matter: pairs are found by place,
    /// and events come out sorted).
    fn join(&mut self, gathered: &mut Parallel<Gathered>, duration: f32) {
        self.entries.clear();
        self.bounds.clear();
        self.resting.clear();
        self.resting_bounds.clear();
        self.woken.clear();
        self.duration = duration;
        for local in gathered.iter_mut() {
            self.entries.append(&mut local.swept);
            if self.bounds.is_empty() {
                core::mem::swap(&mut self.bounds, &mut local.bounds);
            }
            self.bounds.append(&mut local.bounds);
            self.resting.append(&mut local.resting);
            self.resting_bounds.append(&mut local.resting_bounds);
            self.woken.append(&mut local.woken);
        }
    }
}

/// One collider's motion, swept (into `local`), and whether it rests from now on.
#[inline(always)]
fn gather_one(
    (entity, collider, swept, warned, layers, velocity, angular, transform, has_body, roles): (
        Entity,
        &Collider,
        Mut<SweptPath>,
        Mut<Warned>,
        &CollisionLayers,
        Option<&Velocity>,
        Option<&AngularVelocity>,
        Option<(&Transform, Option<&ChildOf>)>,
        bool,
        (
            Option<&Response>,
            Option<&KinematicCharacter>,
            bool,
            bool,
            Option<&Mass>,
        ),
    ),
    lookup: &Lookup,
    was_skipped: impl Fn(Entity) -> bool,
    dt: f32,
    local: &mut Gathered,
) {
    let swept = swept.into_inner();
    // Nothing watches the warnings given: no change to mark.
    let mut warned = warned;
    let warned = warned.bypass_change_detection();
    if begin_visit(swept) {
        local.woken.push(entity);
    }
    // Its shape's own problem is checked when the shape is new or changed (`prepare`).
    let reshaped = swept.shape_check == ShapeCheck::Unchecked;
    let world = transform.map_or(Err(SkipReason::MissingTransform), |(t, parent)| {
        world_plane_from(t, parent, &lookup.transforms)
    });
    let (response, character, sensor, one_way, mass) = roles;
    let root = transform.is_some_and(|(_, parent)| parent.is_none());
    let answers = response.is_some() || character.is_some();
    let responder = answers && root && !collider.is_composite() && velocity.is_some();
    if answers && !responder && !warned.response {
        warned.response = true;
        local.warnings.push((entity, CANNOT_ANSWER));
    }
    // A character is swept grown by its skin (and a little more, so that standing at the
    // skin's distance is touching beyond rounding): within it counts as touching.
    let grow = character
        .filter(|_| responder)
        .map_or(0.0, |c| c.sanitized().0.skin * EVENT_SKIN);
    let motion = problem(collider, swept, velocity, angular, (response, mass))
        .and(world)
        .and_then(plane_in_range)
        .and_then(|world| motion(collider, world, swept, reshaped, grow));
    let motion = match motion {
        Ok(motion) => motion,
        Err(reason) => {
            local.skipped.push((entity, reason));
            swept.skip();
            return;
        }
    };
    if was_skipped(entity) {
        local.usable_again.push(entity);
    }
    let turn = angular.map_or(0.0, |w| w.0 * dt);
    for warning in warnings(collider, motion.world, turn, warned) {
        local.warnings.push((entity, warning));
    }
    // A responder never rests: it answers what hits it, which only a swept collider does.
    swept.resting = !responder && comes_to_rest(swept, &motion, root) && lookup.unchanged(entity);
    swept.fresh = false;
    let body = if has_body {
        Some(entity)
    } else {
        transform.and_then(|(_, parent)| lookup.body_above(parent?.parent()))
    };
    let holds = matches!(response, Some(Response::Slide | Response::Stop));
    let entry = Entry::new(entity, *layers, body, None, motion.continues)
        .with_role(responder, holds, sensor, one_way);
    motion.push(collider, swept, entry, local);
}

/// Starts a collider's visit by the gather: its motion has a start, and a record restored
/// as switched off onto a collider that is on starts afresh where it is. Returns whether it
/// rested: a resting collider is visited only when something it depends on changed, and its
/// entry in the resting group is replaced, whether it rests on or is swept again.
#[inline(always)]
fn begin_visit(swept: &mut SweptPath) -> bool {
    swept.restored = false;
    swept.started = true;
    if swept.switched_off {
        swept.skip();
        swept.switched_off = false;
    }
    swept.resting
}

/// The warnings to give about a collider swept in the world plane `world`, turning by
/// `turn` radians in the tick, each once per collider: its shape's (see [`warning`]), and a
/// turn of more than half a turn by a shape that turns.
#[inline(always)]
fn warnings(
    collider: &Collider,
    world: Affine2,
    turn: f32,
    warned: &mut Warned,
) -> impl Iterator<Item = &'static str> {
    let shape = warning(collider, world, &mut warned.shape);
    let turns = !matches!(
        collider,
        Collider::Point | Collider::Circle { .. } | Collider::Aabb { .. }
    );
    let fast = turns && !warned.turn && turn.abs() > core::f32::consts::PI;
    warned.turn |= fast;
    shape.into_iter().chain(fast.then_some(FAST_TURN))
}

/// Why the collider cannot be swept this tick whatever its place, if it cannot: its shape's
/// own problem (checked when the shape is new or changed, not every tick), a velocity that
/// is not finite.
#[inline(always)]
fn problem(
    collider: &Collider,
    swept: &mut SweptPath,
    velocity: Option<&Velocity>,
    angular: Option<&AngularVelocity>,
    (response, mass): (Option<&Response>, Option<&Mass>),
) -> Result<(), SkipReason> {
    if swept.shape_check == ShapeCheck::Unchecked {
        swept.shape_check = collider
            .problem()
            .map_or(ShapeCheck::Usable, ShapeCheck::Unusable);
    }
    if let ShapeCheck::Unusable(reason) = swept.shape_check {
        return Err(reason);
    }
    if velocity.is_some_and(|v| !v.0.is_finite()) {
        return Err(SkipReason::NonFiniteVelocity);
    }
    if angular.is_some_and(|w| !w.0.is_finite()) {
        return Err(SkipReason::NonFiniteAngularVelocity);
    }
    if response.is_some_and(Response::invalid) {
        return Err(SkipReason::InvalidRestitution);
    }
    if mass.is_some_and(Mass::invalid) {
        return Err(SkipReason::InvalidMass);
    }
    Ok(())
}

/// A warning about a shape the plugin takes other than the user may expect, given once per
/// collider: an axis-aligned box on a turned transform (a half turn or a mirror leaves it as
/// it is, and rounding leaves off-axis entries of a few `1e-8`), a polyline with repeated
/// points. Looked for until given (the flag is cleared when the collider is inserted anew or
/// becomes another kind of shape).
fn warning(collider: &Collider, world: Affine2, warned: &mut bool) -> Option<&'static str> {
    let warnable = matches!(collider, Collider::Aabb { .. } | Collider::Polyline { .. });
    if !warnable {
        *warned = false;
        return None;
    }
    if *warned {
        return None;
    }
    let warning = match collider {
        Collider::Aabb { .. } if turns(world.matrix2) => ROTATED_AABB,
        Collider::Polyline { points } if points.windows(2).any(|w| w[0] == w[1]) => REPEATED_POINTS,
        _ => return None,
    };
    *warned = true;
    Some(warning)
}

/// Warnings given once per collider.
const CANNOT_ANSWER: &str = "has a Response or KinematicCharacter but cannot answer hits \
                             (it needs a Velocity, no parent, and a shape other than a \
                             polyline, a polygon of several pieces or a compound): it is \
                             swept without answering them";
const ROTATED_AABB: &str = "is an axis-aligned box (Collider::aabb) on a rotated transform: \
                            the box does not turn, its rotation is ignored";
const FAST_TURN: &str = "turns more than half a turn in a tick (|AngularVelocity| × the tick's \
                         duration > π): each point of it is swept on a straight line between \
                         the tick's two poses, so the turn in between is not followed";
const REPEATED_POINTS: &str = "is a polyline with repeated consecutive points: the edges \
                               between them are left out";

/// `true` if the linear map turns the axes (beyond rounding): an off-axis entry larger than
/// `1e-5` of its column.
fn turns(m: bevy::math::Mat2) -> bool {
    m.x_axis.y.abs() > 1e-5 * m.x_axis.length() || m.y_axis.x.abs() > 1e-5 * m.y_axis.length()
}

/// Writes what the gather found about skipped colliders into [`SkippedColliders`] (a
/// warning for each new reason), logs its warnings, and forgets the skipped colliders that
/// are no longer colliders or are switched off.
pub(crate) fn publish_skipped(
    gathered: &mut Parallel<Gathered>,
    skipped: &mut SkippedColliders,
    colliders: &Query<(), (With<Collider>, Without<ColliderDisabled>)>,
) {
    for local in gathered.iter_mut() {
        for &(entity, reason) in &local.skipped {
            skipped.record(entity, reason);
        }
        for &entity in &local.usable_again {
            skipped.usable_again(entity);
        }
        for &(entity, warning) in &local.warnings {
            log::warn!("bevy_sweep: collider {entity} {warning}");
        }
    }
    skipped.reasons.retain(|&e, _| colliders.contains(e));
}
