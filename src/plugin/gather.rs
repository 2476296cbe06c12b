//! Each collider's motion in this tick: where it starts (new and teleported colliders), the
//! velocities, and the gather of every collider's path in world space.

use super::SweepSettings;
use super::broad::inflate;
use super::components::{
    AngularVelocity, Body, Collider, CollisionLayers, SweptPath, Teleport, Velocity, world_plane,
    world_plane_from,
};
use super::contacts::{Contacts, SkipReason, SkippedColliders, SweepStats};
use super::state::{Colliders, Entry, Motion, RESTING, Tick};
use crate::broad::usable as usable_bounds;
use crate::geometry::robust::orient2d;
use crate::narrow::{ConvexVertices, Shape, ShapePath};
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::prelude::*;
use bevy::math::{Affine2, Vec2, bounding::Aabb2d};
use bevy::platform::time::Instant;
use bevy::tasks::ComputeTaskPool;
use bevy::time::Time;
use bevy::transform::components::Transform;
use bevy::utils::Parallel;

/// Marks a resting collider: still for two ticks and unchanged, kept in the broad phase
/// without being swept again (see [`Colliders`]). The gather visits such colliders only when
/// something they depend on changes.
///
/// Stored in tables like the other components (not in a sparse set, which would be cheaper to
/// insert and remove): a filter on a sparse-set component makes Bevy iterate the gather's
/// query entity by entity through archetypes instead of along tables, which made the gather
/// of 100,000 moving colliders twice as slow. Colliders start and stop resting far less often
/// than they are gathered.
#[derive(Component)]
pub(crate) struct Resting;

/// Where this tick's motion starts for new and teleported colliders: where they are now.
pub(crate) fn prepare(
    mut commands: Commands,
    mut tick: ResMut<Tick>,
    mut colliders: Query<
        (Entity, Ref<Collider>, &mut SweptPath, Has<Teleport>),
        Or<(Without<Resting>, With<Teleport>, Changed<Collider>)>,
    >,
    transforms: Query<(&Transform, Option<&ChildOf>)>,
) {
    tick.started = Some(Instant::now());
    for (entity, collider, mut swept, teleport) in &mut colliders {
        if teleport {
            commands.entity(entity).try_remove::<Teleport>();
        }
        // New, re-inserted (the entity may have moved while it had no collider) or
        // teleported: start from here.
        if collider.is_added() {
            swept.warned = false;
        }
        // A new or changed shape is checked again (a polygon's convexity is not checked
        // every tick).
        if collider.is_changed() {
            swept.shape_problem = None;
        }
        if swept.previous_world.is_none() || teleport || collider.is_added() {
            let world = world_plane(entity, &transforms).ok();
            swept.previous_world = world.map(Into::into);
            swept.fresh = true;
        }
    }
}

/// Moves transforms by their velocities over the tick. Non-finite velocities are left out
/// (the collider is then reported in [`SkippedColliders`]).
pub(crate) fn integrate(
    time: Res<Time>,
    mut movers: Query<
        (&mut Transform, Option<&Velocity>, Option<&AngularVelocity>),
        Or<(With<Velocity>, With<AngularVelocity>)>,
    >,
) {
    let dt = time.delta_secs();
    for (mut transform, velocity, angular) in &mut movers {
        if let Some(&Velocity(v)) = velocity
            && v.is_finite()
            && v != Vec2::ZERO
        {
            transform.translation += (v * dt).extend(0.0);
        }
        if let Some(&AngularVelocity(w)) = angular
            && w.is_finite()
            && w != 0.0
        {
            transform.rotate_z(w * dt);
        }
    }
}

/// Why a collider cannot be swept this tick, if it cannot.
#[inline(always)]
fn problem(
    shape_problem: Option<SkipReason>,
    world: Result<Affine2, SkipReason>,
    velocity: Option<&Velocity>,
    angular: Option<&AngularVelocity>,
) -> Result<Affine2, SkipReason> {
    if let Some(reason) = shape_problem {
        return Err(reason);
    }
    if velocity.is_some_and(|v| !v.0.is_finite()) {
        return Err(SkipReason::NonFiniteVelocity);
    }
    if angular.is_some_and(|w| !w.0.is_finite()) {
        return Err(SkipReason::NonFiniteAngularVelocity);
    }
    world
}

/// A basic shape's motion in this tick, without leaving its compact form ([`Motion`]):
/// the gather's hot path.
#[inline(always)]
fn basic_motion(
    collider: &Collider,
    world: Affine2,
    swept: &SweptPath,
    fresh: bool,
) -> Result<Swept, SkipReason> {
    let end = match collider.pose_in(&world) {
        Some(end) if end.is_usable() => end,
        _ => return Err(SkipReason::DegenerateInWorld),
    };
    let previous = swept.previous_world.map(Affine2::from);
    // The start: where the last motion ended, or where a fresh one starts (a usable shape
    // either way); if its kind of shape changed since, the new shape where it was.
    let start = if fresh {
        match previous.and_then(|w| collider.pose_in(&w)) {
            Some(start) if start.is_usable() => Some(start),
            _ => None,
        }
    } else {
        swept.motion.filter(|m| !matches!(m, Motion::Convex(_)))
    };
    let continued = start.and_then(|start| Motion::between(&start, &end));
    let continues = continued.is_some() && !fresh;
    let path = continued
        .or_else(|| {
            let start = collider.pose_in(&previous?)?;
            Motion::between(&start, &end).filter(|path| path.is_usable())
        })
        .unwrap_or(end);
    let bounds = inflate(path.swept_bounds());
    if !usable_bounds(&bounds) {
        return Err(SkipReason::Overflow);
    }
    Ok(Swept {
        path: Some((path, bounds)),
        start: None,
        still: path.is_still(),
        continues,
    })
}

/// `true` if a polygon's vertices turn the other way round at the end of the path than at
/// its start (its transform was mirrored): between the two it would pass through a line.
fn flips(path: &ShapePath) -> bool {
    let ShapePath::Convex(convex) = path else {
        return false;
    };
    let v = convex.path().vertices;
    if v.len() < 3 {
        return false;
    }
    let area = |end: usize| {
        (0..v.len())
            .map(|i| v[i][end].perp_dot(v[(i + 1) % v.len()][end]))
            .sum::<f32>()
    };
    area(0) * area(1) < 0.0
}

/// A rounded polygon's motion in this tick; its vertex paths are stored in `swept`.
fn convex_motion(
    collider: &Collider,
    world: Affine2,
    swept: &mut SweptPath,
    fresh: bool,
) -> Result<Swept, SkipReason> {
    let end = collider.shape_in(&world);
    if !usable(&end) {
        return Err(SkipReason::DegenerateInWorld);
    }
    let previous = swept.previous_world.map(Affine2::from);
    // Where this polygon stands in the last tick's world transform, for a motion that
    // starts afresh (`fresh`: a new, teleported or edited polygon) or that cannot continue
    // the last one (it was another kind of shape).
    let rigid_start = || previous.map(|w| collider.shape_in(&w)).filter(usable);
    let start = if fresh { rigid_start() } else { swept.end() };
    // A polygon mirrored since (a flipped sprite) would pass through a line: it jumps.
    let continued = start
        .and_then(|start| ShapePath::between(start, end))
        .filter(|path| !flips(path));
    let continues = continued.is_some() && !fresh;
    let path = continued
        .or_else(|| {
            ShapePath::between(rigid_start()?, end).filter(|path| path.is_valid() && !flips(path))
        })
        .unwrap_or_else(|| ShapePath::still(end));
    let bounds = inflate(path.swept_bounds());
    if !usable_bounds(&bounds) {
        return Err(SkipReason::Overflow);
    }
    let still = is_still(&path);
    swept.set_path(Some(&path));
    Ok(Swept {
        path: Some((Motion::Convex(0), bounds)),
        start: None,
        still,
        continues,
    })
}

/// `true` if the shape can be swept: [valid](Shape::is_valid), a segment's ends apart, a
/// polygon not flattened (by a zero scale).
fn usable(shape: &Shape) -> bool {
    shape.is_valid()
        && match *shape {
            Shape::Segment(a, b) => a != b,
            Shape::Convex(convex) => match *convex.vertices() {
                [p, q, r, ..] => orient2d(p, q, r) != 0.0,
                _ => true,
            },
            _ => true,
        }
}

/// `true` if the path does not move.
fn is_still(path: &ShapePath) -> bool {
    match *path {
        ShapePath::Point(p) => p[0] == p[1],
        ShapePath::Segment { a, b } => a[0] == a[1] && b[0] == b[1],
        ShapePath::Circle { center, .. } | ShapePath::Aabb { center, .. } => center[0] == center[1],
        ShapePath::Convex(ref convex) => convex.path().vertices.iter().all(|v| v[0] == v[1]),
    }
}

/// What the gather finds, per thread.
#[derive(Default)]
pub(crate) struct Gathered {
    /// The colliders swept this tick, and their swept bounds.
    bodies: Vec<Entry>,
    bounds: Vec<Aabb2d>,
    /// Colliders that cannot be swept, and why; and those that can again.
    skipped: Vec<(Entity, SkipReason)>,
    usable_again: Vec<Entity>,
    /// Colliders that start resting, and resting ones that stop.
    start_resting: Vec<Entity>,
    stop_resting: Vec<Entity>,
    /// The rounded polygons' vertex paths of `bodies` ([`Motion::Convex`], indexed in
    /// this vector until joined).
    convex: Vec<ConvexVertices>,
    /// Warnings to give about colliders (each once).
    warnings: Vec<(Entity, &'static str)>,
}

/// The gather's query: every collider and what its motion depends on.
type ColliderData = (
    Entity,
    &'static Collider,
    &'static mut SweptPath,
    &'static CollisionLayers,
    Option<&'static Velocity>,
    Option<&'static AngularVelocity>,
    Option<(&'static Transform, Option<&'static ChildOf>)>,
    Has<Body>,
);

/// What a collider's place and body are read from: the transforms and parents above it.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Lookup<'w, 's> {
    transforms: Query<'w, 's, (&'static Transform, Option<&'static ChildOf>)>,
    bodies: Query<'w, 's, (Has<Body>, Option<&'static ChildOf>)>,
}

impl Lookup<'_, '_> {
    /// The nearest entity with a [`Body`] among `entity` and its ancestors.
    fn body_above(&self, mut entity: Entity) -> Option<Entity> {
        // A hierarchy deeper than this is a cycle or a mistake.
        for _ in 0..64 {
            let (body, parent) = self.bodies.get(entity).ok()?;
            if body {
                return Some(entity);
            }
            entity = parent?.parent();
        }
        None
    }
}

/// What decides whether a still collider may rest: whether its transform, shape or layers
/// changed since the last tick. Read only for colliders that stood still (fetching change
/// ticks for every collider would cost the gather a few nanoseconds each).
type Changes = (
    Ref<'static, Transform>,
    Ref<'static, Collider>,
    Ref<'static, CollisionLayers>,
);

/// A resting collider something it depends on changed for: its transform (or whether it has
/// one), its shape, its layers, its parent, or its motion restarting (teleported).
type Woken = (
    With<Resting>,
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

/// Collects every collider's motion in this tick, on every core when allowed: the resting
/// ones stay where they are in the broad phase (only those whose transform, shape or layers
/// changed are visited), the others are swept.
pub(crate) fn gather(
    mut commands: Commands,
    time: Res<Time>,
    settings: Res<SweepSettings>,
    mut tick: ResMut<Tick>,
    mut colliders: ResMut<Colliders>,
    mut skipped: ResMut<SkippedColliders>,
    mut contacts: ResMut<Contacts>,
    mut stats: ResMut<SweepStats>,
    mut queries: ParamSet<(
        Query<ColliderData, Without<Resting>>,
        Query<ColliderData, Woken>,
        Query<(Entity, &Collider, &SweptPath, &CollisionLayers)>,
    )>,
    resting: Query<
        (),
        (
            With<Resting>,
            With<Collider>,
            With<SweptPath>,
            With<CollisionLayers>,
        ),
    >,
    changes: Query<Changes>,
    lookup: Lookup,
    mut gathered: Local<Parallel<Gathered>>,
) {
    let began = Instant::now();
    let prepare_time = tick.started.map(|t| began - t).unwrap_or_default();
    tick.number += 1;
    tick.duration = time.delta_secs();
    let number = tick.number;
    for local in gathered.iter_mut() {
        local.bodies.clear();
        local.bounds.clear();
        local.skipped.clear();
        local.usable_again.clear();
        local.start_resting.clear();
        local.stop_resting.clear();
        local.warnings.clear();
        local.convex.clear();
    }
    // Resting colliders gone since the last tick (despawned, or no longer colliders).
    // (Counted in entities: a resting polyline has an entry per edge.)
    let gone = resting.iter().len() != colliders.resting_entities.len();
    let reasons = &skipped.reasons;
    {
        let mut woken = queries.p1();
        let mut local = gathered.borrow_local_mut();
        for item in &mut woken {
            gather_one(item, number, &lookup, &changes, reasons, &mut local);
        }
    }
    let threads = ComputeTaskPool::try_get().map_or(1, |pool| pool.thread_num());
    let mut moving = queries.p0();
    let colliders = &mut *colliders;
    colliders.moving.clear();
    if settings.parallel && threads > 1 {
        moving.par_iter_mut().for_each_init(
            || gathered.borrow_local_mut(),
            |local, item| gather_one(item, number, &lookup, &changes, reasons, local),
        );
    } else {
        // One thread: straight into the moving group.
        let mut local = gathered.borrow_local_mut();
        core::mem::swap(&mut local.bodies, &mut colliders.moving.bodies);
        core::mem::swap(&mut local.bounds, &mut colliders.moving.bounds);
        core::mem::swap(&mut local.convex, &mut colliders.moving.convex);
        for item in &mut moving {
            gather_one(item, number, &lookup, &changes, reasons, &mut local);
        }
        core::mem::swap(&mut local.bodies, &mut colliders.moving.bodies);
        core::mem::swap(&mut local.bounds, &mut colliders.moving.bounds);
        core::mem::swap(&mut local.convex, &mut colliders.moving.convex);
    }

    // Join the threads' findings (their order does not matter: pairs are found by place,
    // and events come out sorted).
    let mut changed = gone;
    for local in gathered.iter_mut() {
        // The thread's polygons go after those already joined.
        let offset = colliders.moving.convex.len() as u32;
        if offset > 0 && !local.convex.is_empty() {
            for entry in &mut local.bodies {
                if let Motion::Convex(index) = &mut entry.path {
                    *index += offset;
                }
            }
        }
        colliders.moving.convex.append(&mut local.convex);
        colliders.moving.bodies.append(&mut local.bodies);
        colliders.moving.bounds.append(&mut local.bounds);
        for &(entity, reason) in &local.skipped {
            skipped.record(entity, reason);
        }
        for &entity in &local.usable_again {
            skipped.usable_again(entity);
        }
        for &entity in &local.start_resting {
            commands.entity(entity).insert(Resting);
        }
        for &entity in &local.stop_resting {
            commands.entity(entity).try_remove::<Resting>();
        }
        for &(entity, warning) in &local.warnings {
            log::warn!("bevy_sweep: collider {entity} {warning}");
        }
        changed |= !local.start_resting.is_empty() || !local.stop_resting.is_empty();
    }
    let all = queries.p2();
    skipped.reasons.retain(|&e, _| all.contains(e));
    // A collider started or stopped resting, or a resting one is gone: rebuild the resting
    // group, and bring back the contacts of those that left it.
    if changed {
        rest(colliders, &mut contacts, &all, settings.broad_phase);
    }
    *stats = SweepStats {
        colliders: colliders.moving.len() + colliders.resting.len(),
        resting: colliders.resting.len(),
        skipped: skipped.len(),
        prepare_time,
        gather_time: began.elapsed(),
        ..SweepStats::default()
    };
}

/// One collider's motion, swept (into `local`), and whether it rests from now on.
#[inline(always)]
fn gather_one(
    (entity, collider, swept, layers, velocity, angular, transform, has_body): (
        Entity,
        &Collider,
        Mut<SweptPath>,
        &CollisionLayers,
        Option<&Velocity>,
        Option<&AngularVelocity>,
        Option<(&Transform, Option<&ChildOf>)>,
        bool,
    ),
    tick: u64,
    lookup: &Lookup,
    changes: &Query<Changes>,
    skipped: &bevy::platform::collections::HashMap<Entity, SkipReason>,
    local: &mut Gathered,
) {
    let was_resting = swept.resting;
    let fresh = swept.fresh;
    let world = transform
        .as_ref()
        .map_or(Err(SkipReason::MissingTransform), |(t, parent)| {
            world_plane_from(t, *parent, &lookup.transforms)
        });
    let swept = swept.into_inner();
    // The shape's own problem, checked when it is new or changed (`prepare`).
    let reshaped = swept.shape_problem.is_none();
    let shape_problem = *swept
        .shape_problem
        .get_or_insert_with(|| collider.problem());
    let motion =
        problem(shape_problem, world, velocity, angular).and_then(|world| match collider {
            Collider::Polyline { .. } => {
                chain(collider, swept.previous_world.map(Into::into), world, fresh)
            }
            basic if basic.is_basic() => basic_motion(basic, world, swept, fresh),
            // A polygon whose points changed starts afresh where it stands.
            convex => convex_motion(convex, world, swept, fresh || reshaped),
        });
    let motion = match motion {
        Ok(motion) => motion,
        Err(reason) => {
            local.skipped.push((entity, reason));
            swept.resting = false;
            swept.fresh = false;
            swept.restart();
            if was_resting {
                local.stop_resting.push(entity);
            }
            return;
        }
    };
    if !skipped.is_empty() && skipped.contains_key(&entity) {
        local.usable_again.push(entity);
    }
    // A shape the plugin takes other than the user may expect, warned about once: an
    // axis-aligned box on a turned transform (a half turn or a mirror leaves it as it is,
    // and rounding leaves off-axis entries of a few `1e-8`), a polyline with repeated points.
    // Looked for until given (the flag is cleared when the collider is inserted anew or
    // becomes another kind of shape).
    let warnable = matches!(collider, Collider::Aabb { .. } | Collider::Polyline { .. });
    if !warnable {
        swept.warned = false;
    } else if !swept.warned {
        let warning = match collider {
            Collider::Aabb { .. } if world.is_ok_and(|w| turns(w.matrix2)) => Some(ROTATED_AABB),
            Collider::Polyline { points } if points.windows(2).any(|w| w[0] == w[1]) => {
                Some(REPEATED_POINTS)
            }
            _ => None,
        };
        if let Some(warning) = warning {
            swept.warned = true;
            local.warnings.push((entity, warning));
        }
    }
    swept.still_for = if motion.still {
        (swept.still_for + 1).min(2)
    } else {
        0
    };
    // Still this tick and the last (so every pair with it was tested while it stood still,
    // and its contacts settled), and nothing it depends on changed since the last tick: a
    // root collider (a parent's motion would not show in its own transform) whose motion
    // continues, and whose transform, shape and layers are as they were. It rests from here.
    swept.resting = swept.still_for == 2
        && !fresh
        && transform.is_some_and(|(_, parent)| parent.is_none())
        && changes
            .get(entity)
            .is_ok_and(|(transform, collider, layers)| {
                !transform.is_changed() && !collider.is_changed() && !layers.is_changed()
            });
    match (was_resting, swept.resting) {
        (false, true) => local.start_resting.push(entity),
        (true, false) => local.stop_resting.push(entity),
        _ => {}
    }
    let body = if has_body {
        Some(entity)
    } else {
        transform.and_then(|(_, parent)| lookup.body_above(parent?.parent()))
    };
    swept.motion = motion.path.map(|(path, _)| path);
    swept.tick = tick;
    swept.fresh = false;
    swept.previous_world = world.ok().map(Into::into);
    swept.chain_start = motion.start.map(Into::into);
    swept.body = body;
    if swept.resting {
        return;
    }
    let entry = Entry {
        entity,
        path: Motion::Point([Vec2::ZERO; 2]),
        layers: *layers,
        body,
        flags: Entry::flags(None, motion.continues),
    };
    if let Some((path, bounds)) = motion.path {
        let path = match (path, swept.convex.as_deref()) {
            (Motion::Convex(_), Some(&vertices)) => {
                local.convex.push(vertices);
                Motion::Convex((local.convex.len() - 1) as u32)
            }
            (path, _) => path,
        };
        local.bodies.push(Entry { path, ..entry });
        local.bounds.push(bounds);
    } else if let (Ok(end), Some(start)) = (world, motion.start) {
        push_edges(
            collider,
            &start,
            &end,
            entry,
            &mut local.bodies,
            &mut local.bounds,
        );
    }
}

/// This tick's motion of one collider: its path and swept bounds (none for a polyline,
/// whose edges are swept one by one), whether it stands still, and whether it continues
/// the last tick's.
struct Swept {
    /// The motion (a polygon's vertex paths are in its `SweptPath`) and its swept bounds.
    path: Option<(Motion, Aabb2d)>,
    /// A polyline's plane at the start of the tick.
    start: Option<Affine2>,
    still: bool,
    continues: bool,
}

/// A polyline's motion: from where its transform was at the end of the last tick (or at
/// the start of this one, for a fresh one) to where it is.
fn chain(
    collider: &Collider,
    previous: Option<Affine2>,
    world: Affine2,
    fresh: bool,
) -> Result<Swept, SkipReason> {
    let start = previous.unwrap_or(world);
    let bounds = collider
        .edges_in(&start)
        .chain(collider.edges_in(&world))
        .fold(None::<Aabb2d>, |b, (_, p, q)| {
            let edge = Aabb2d {
                min: p.min(q),
                max: p.max(q),
            };
            Some(b.map_or(edge, |b| Aabb2d {
                min: b.min.min(edge.min),
                max: b.max.max(edge.max),
            }))
        });
    match bounds {
        Some(b) if usable_bounds(&inflate(b)) => Ok(Swept {
            path: None,
            start: Some(start),
            still: start == world,
            continues: previous.is_some() && !fresh,
        }),
        Some(_) => Err(SkipReason::Overflow),
        None => Err(SkipReason::DegenerateInWorld),
    }
}

/// A polyline's edges, each its own entry in the broad phase, moving from `start` to `end`
/// (an edge that collapses to a point at either end, under a zero scale, is left out).
fn push_edges(
    collider: &Collider,
    start: &Affine2,
    end: &Affine2,
    entry: Entry,
    bodies: &mut Vec<Entry>,
    bounds: &mut Vec<Aabb2d>,
) {
    for ((i, a0, b0), (_, a1, b1)) in collider.edges_in(start).zip(collider.edges_in(end)) {
        if a0 == b0 || a1 == b1 {
            continue;
        }
        let path = ShapePath::Segment {
            a: [a0, a1],
            b: [b0, b1],
        };
        bodies.push(Entry {
            path: Motion::Segment {
                a: [a0, a1],
                b: [b0, b1],
            },
            flags: Entry::flags(Some(i), entry.continues()),
            ..entry
        });
        bounds.push(inflate(path.swept_bounds()));
    }
}

/// Warnings given once per collider.
const ROTATED_AABB: &str = "is an axis-aligned box (Collider::aabb) on a rotated transform: \
                            the box does not turn, its rotation is ignored";
const REPEATED_POINTS: &str = "is a polyline with repeated consecutive points: the edges \
                               between them are left out";

/// `true` if the linear map turns the axes (beyond rounding): an off-axis entry larger than
/// `1e-5` of its column.
fn turns(m: bevy::math::Mat2) -> bool {
    m.x_axis.y.abs() > 1e-5 * m.x_axis.length() || m.y_axis.x.abs() > 1e-5 * m.y_axis.length()
}

/// Rebuilds the resting group from the colliders that rest now, and wakes the contacts of
/// those that stopped resting.
fn rest(
    colliders: &mut Colliders,
    contacts: &mut Contacts,
    all: &Query<(Entity, &Collider, &SweptPath, &CollisionLayers)>,
    method: crate::broad::BroadPhaseMethod,
) {
    let resting = &mut colliders.resting;
    resting.clear();
    let mut entities = EntityHashSet::default();
    for (entity, collider, swept, layers) in all {
        if !swept.resting {
            continue;
        }
        let entry = Entry {
            entity,
            path: Motion::Point([Vec2::ZERO; 2]),
            layers: *layers,
            body: swept.body,
            flags: Entry::flags(None, true),
        };
        if let Some(path) = swept.path() {
            let motion = Motion::new(&path, &mut resting.convex, RESTING);
            resting.bodies.push(Entry {
                path: motion,
                ..entry
            });
            resting.bounds.push(inflate(path.swept_bounds()));
        } else if let Some(world) = swept.previous_world {
            // A polyline: its edges where it stands.
            let world = world.into();
            push_edges(
                collider,
                &world,
                &world,
                entry,
                &mut resting.bodies,
                &mut resting.bounds,
            );
        } else {
            continue;
        }
        entities.insert(entity);
    }
    resting.sort_and_build(method);
    let woken: EntityHashSet = colliders
        .resting_entities
        .iter()
        .filter(|e| !entities.contains(*e))
        .copied()
        .collect();
    contacts.wake(&woken);
    colliders.resting_entities = entities;
}
