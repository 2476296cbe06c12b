//! The same scene through `bevy_sweep` and avian2d 0.7, for the side-by-side comparison.
//!
//! One seed gives `N` colliders (a mix of points, short segments, circles and boxes) with
//! positions, velocities and angular velocities; [`sweep_app`] and [`avian_app`] build a
//! headless [`App`] from the same [`Scene`] in which every `app.update()` is exactly one
//! fixed tick of 1/64 s. Colliders move several times their own size per tick in a square
//! arena of constant density (400 square units per collider) and wrap at its edges.
//!
//! Contacts are counted per tick as sets of unordered pairs of scene indices ([`Pair`]):
//! [`sweep_contacts`] for `bevy_sweep` (every pair with an event in the tick, plus the pairs
//! still in contact) and [`avian_contacts`] for avian (the pairs its contact graph marks as
//! touching after the step, plus its `CollisionStart` messages). [`brute`] checks contacts
//! independently with a dense scan of distances over the tick.

pub mod brute;

use avian2d::prelude as av;
use bevy::app::{FixedPostUpdate, FixedUpdate, TaskPoolOptions, TaskPoolPlugin};
use bevy::ecs::message::Messages;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sweep::narrow::ShapePath;
use bevy_sweep::prelude as bs;

/// The fixed tick: 1/64 s (Bevy's default fixed timestep, set explicitly).
pub const TICK_SECONDS: f64 = 1.0 / 64.0;

/// Area of the arena per collider, in square units: the density is the same at every `N`.
pub const AREA_PER_COLLIDER: f32 = 400.0;

/// Radius of the circle that stands for a point in avian2d, which has no point collider.
pub const AVIAN_POINT_RADIUS: f32 = 1.0e-3;

#[path = "../../../benches/support/scenes.rs"]
mod scenes;

pub use scenes::{Kind, MOVERS, Scene, Spec, TERRAIN};

/// The seed every scene of the comparison is made from (mixed with `N`; the tick bench uses
/// it too).
pub const SEED: u64 = 0x5eed_a1a2;

/// The index of a collider in its [`Scene`], the same in both apps.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Body(pub u32);

/// Scene index → entity, in the order spawned.
#[derive(Resource, Clone, Debug, Default)]
pub struct Bodies {
    /// `entities[i]` is the entity of collider `i`.
    pub entities: Vec<Entity>,
    /// The inverse.
    pub index: HashMap<Entity, u32>,
}

impl Bodies {
    fn push(&mut self, entity: Entity) {
        self.index.insert(entity, self.entities.len() as u32);
        self.entities.push(entity);
    }
}

/// Half the side of the arena; colliders leaving it reappear on the other side.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Arena(pub f32);

/// Scene indices of the colliders that wrapped in the last tick.
#[derive(Resource, Clone, Debug, Default)]
pub struct Wrapped(pub HashSet<u32>);

/// Present in an avian app that also runs `bevy_sweep` as a referee.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Referee;

impl Arena {
    /// Where `p` wraps to, if it is outside.
    #[must_use]
    pub fn wrap(self, p: Vec2) -> Option<Vec2> {
        let h = self.0;
        (p.x.abs() > h || p.y.abs() > h).then(|| {
            Vec2::new(
                (p.x + h).rem_euclid(2.0 * h) - h,
                (p.y + h).rem_euclid(2.0 * h) - h,
            )
        })
    }
}

fn transform(spec: &Spec) -> Transform {
    Transform::from_translation(spec.position.extend(0.0))
        .with_rotation(Quat::from_rotation_z(spec.angle))
}

fn sweep_collider(kind: Kind) -> bs::Collider {
    match kind {
        Kind::Point => bs::Collider::point(),
        Kind::Segment { half_length } => {
            bs::Collider::segment(Vec2::new(-half_length, 0.0), Vec2::new(half_length, 0.0))
        }
        Kind::Circle { radius } => bs::Collider::circle(radius),
        Kind::Box { half_extents } => bs::Collider::aabb(half_extents),
        Kind::Rectangle { half_extents } => bs::Collider::rectangle(half_extents),
        Kind::Capsule {
            half_length,
            radius,
        } => bs::Collider::capsule(
            Vec2::new(-half_length, 0.0),
            Vec2::new(half_length, 0.0),
            radius,
        ),
    }
}

fn avian_collider(kind: Kind) -> av::Collider {
    match kind {
        Kind::Point => av::Collider::circle(AVIAN_POINT_RADIUS),
        Kind::Segment { half_length } => {
            av::Collider::segment(Vec2::new(-half_length, 0.0), Vec2::new(half_length, 0.0))
        }
        Kind::Circle { radius } => av::Collider::circle(radius),
        Kind::Box { half_extents } | Kind::Rectangle { half_extents } => {
            av::Collider::rectangle(2.0 * half_extents.x, 2.0 * half_extents.y)
        }
        Kind::Capsule {
            half_length,
            radius,
        } => av::Collider::capsule_endpoints(
            radius,
            Vec2::new(-half_length, 0.0),
            Vec2::new(half_length, 0.0),
        ),
    }
}

/// Task pools whose compute pool has a thread for every core this process may run on (one
/// under `taskset -c 0`). Bevy's default keeps a thread each for IO and async tasks out of
/// the compute pool, which leaves a two-core machine a one-thread compute pool: avian2d would
/// run nothing in parallel, and bevy_sweep its parts on that thread and the main thread
/// only. The pools are global: the first app sets them for both libraries.
///
/// With `TASK_POOL=default` in the environment, Bevy's default pools instead: the app as a
/// user meets it (on a two-core machine, one compute thread beside an IO and an async one).
fn every_core() -> TaskPoolPlugin {
    if std::env::var("TASK_POOL").is_ok_and(|pool| pool == "default") {
        return TaskPoolPlugin::default();
    }
    let mut task_pool_options = TaskPoolOptions::default();
    task_pool_options.compute.min_threads =
        std::thread::available_parallelism().map_or(1, core::num::NonZero::get);
    TaskPoolPlugin { task_pool_options }
}

/// A headless app ticking once per `update()` (after a first update that starts the clock).
fn headless(scene: &Scene) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(every_core()))
        .insert_resource(Time::<Fixed>::from_seconds(TICK_SECONDS))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Arena(scene.half))
        .init_resource::<Wrapped>()
        .init_resource::<Bodies>();
    app
}

/// Finishes the plugins (as `App::run` would) and runs the first update, which starts the
/// clock and runs no tick.
fn start(app: &mut App) {
    app.finish();
    app.cleanup();
    app.update();
}

/// `bevy_sweep` wrap: move the collider and mark the jump as a teleport (not swept).
fn wrap_sweep(
    mut commands: Commands,
    arena: Res<Arena>,
    mut wrapped: ResMut<Wrapped>,
    mut movers: Query<(Entity, &Body, &mut Transform)>,
) {
    wrapped.0.clear();
    for (entity, body, mut transform) in &mut movers {
        if let Some(p) = arena.wrap(transform.translation.truncate()) {
            transform.translation = p.extend(0.0);
            commands.entity(entity).insert(bs::Teleport);
            wrapped.0.insert(body.0);
        }
    }
}

/// avian wrap: just set the position (avian sweeps velocities, not the jump). With a referee,
/// the jump is also marked as a teleport for it.
fn wrap_avian(
    mut commands: Commands,
    arena: Res<Arena>,
    referee: Option<Res<Referee>>,
    mut wrapped: ResMut<Wrapped>,
    mut movers: Query<(Entity, &Body, &mut av::Position, &mut Transform)>,
) {
    wrapped.0.clear();
    for (entity, body, mut position, mut transform) in &mut movers {
        if let Some(p) = arena.wrap(position.0) {
            position.0 = p;
            transform.translation = p.extend(0.0);
            if referee.is_some() {
                commands.entity(entity).insert(bs::Teleport);
            }
            wrapped.0.insert(body.0);
        }
    }
}

/// The scene in `bevy_sweep`: [`bs::SweepPlugin`] with its defaults; the colliders move by
/// [`bs::Velocity`] and [`bs::AngularVelocity`] (segments only).
pub fn sweep_app(scene: &Scene) -> App {
    let mut app = headless(scene);
    app.add_plugins(bs::SweepPlugin::default())
        .add_systems(FixedUpdate, wrap_sweep);
    start(&mut app);
    let mut bodies = Bodies::default();
    for (i, spec) in scene.specs.iter().enumerate() {
        let mut entity =
            app.world_mut()
                .spawn((Body(i as u32), sweep_collider(spec.kind), transform(spec)));
        // A still collider gets no velocity (and comes to rest).
        if !spec.is_still() {
            entity.insert(bs::Velocity(spec.velocity));
        }
        if spec.angular_velocity != 0.0 {
            entity.insert(bs::AngularVelocity(spec.angular_velocity));
        }
        if let Some((memberships, filters)) = spec.layers {
            entity.insert(bs::CollisionLayers::new(memberships, filters));
        }
        bodies.push(entity.id());
    }
    app.insert_resource(bodies);
    app
}

/// How avian is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AvianSetup {
    /// Kinematic sensors with swept CCD ([`av::SweptCcd::default()`], non-linear) and avian's
    /// default (unbounded) speculative margin.
    SweptCcd,
    /// The same with [`av::SpeculativeMargin::ZERO`]: contacts only where shapes overlap (or
    /// are within avian's contact tolerance) at the start of the step; swept CCD alone is left
    /// to catch the rest.
    SweptCcdNoSpeculation,
    /// Avian's default setup: kinematic sensors without swept CCD, with the default
    /// speculative margin.
    Default,
    /// `SweptCcd` on the moving bodies only (not on the static ones).
    SweptCcdMovers,
    /// `SweptCcd` on the fast bodies only (faster than [`FAST`]: in the bullet hells the
    /// bullets, not the drifting boxes and segments; in the mixed scene and among the
    /// tilemap's movers, every mover).
    SweptCcdFast,
}

/// The speed above which [`AvianSetup::SweptCcdFast`] gives a body `SweptCcd`, in units per
/// second: the bullet hell's bullets move at 500 to 20,000, its boxes and segments drift at
/// 100 to 300.
pub const FAST: f32 = 400.0;

impl AvianSetup {
    /// The setup the tick timings use: `AVIAN_SETUP=default` for [`AvianSetup::Default`],
    /// `AVIAN_SETUP=movers` for [`AvianSetup::SweptCcdMovers`], `AVIAN_SETUP=fast` for
    /// [`AvianSetup::SweptCcdFast`], else [`AvianSetup::SweptCcd`].
    pub fn for_timing() -> Self {
        match std::env::var("AVIAN_SETUP").as_deref() {
            Ok("default") => Self::Default,
            Ok("movers") => Self::SweptCcdMovers,
            Ok("fast") => Self::SweptCcdFast,
            _ => Self::SweptCcd,
        }
    }
}

/// The scene in avian2d 0.7: `PhysicsPlugins::default()`, zero gravity; every collider is a
/// `RigidBody::Kinematic` with `LinearVelocity`, `AngularVelocity`, `Sensor`, `SweptCcd`
/// and `CollisionEventsEnabled`. A point is a circle of radius [`AVIAN_POINT_RADIUS`].
///
/// With `referee`, `bevy_sweep` also runs in the same app without moving anything
/// (`integrate_velocity: false`): it takes each collider's pose before avian's step and
/// sweeps it to the pose avian leaves it in, so it reports the exact contacts of avian's own
/// motion (which avian's swept CCD changes: it stops kinematic bodies at their first time of
/// impact, sensors included).
pub fn avian_app(scene: &Scene, setup: AvianSetup, referee: bool) -> App {
    let mut app = headless(scene);
    app.add_plugins(av::PhysicsPlugins::default())
        .insert_resource(av::Gravity(Vec2::ZERO))
        .add_systems(FixedUpdate, wrap_avian);
    if referee {
        app.insert_resource(Referee)
            .add_plugins(bs::SweepPlugin {
                integrate_velocity: false,
                ..default()
            })
            .configure_sets(
                FixedPostUpdate,
                (
                    bs::SweepSystems::Prepare.before(av::PhysicsSystems::First),
                    bs::SweepSystems::BroadPhase.after(av::PhysicsSystems::Last),
                ),
            );
    }
    start(&mut app);
    let mut bodies = Bodies::default();
    for (i, spec) in scene.specs.iter().enumerate() {
        let mut entity = app.world_mut().spawn((
            Body(i as u32),
            // A still collider is a static body (what a game would use for a wall or a tile).
            if spec.is_still() {
                av::RigidBody::Static
            } else {
                av::RigidBody::Kinematic
            },
            avian_collider(spec.kind),
            av::Sensor,
            av::CollisionEventsEnabled,
            av::LinearVelocity(spec.velocity),
            av::AngularVelocity(spec.angular_velocity),
            transform(spec),
            av::Position(spec.position),
            av::Rotation::radians(spec.angle),
        ));
        let swept = match setup {
            AvianSetup::Default => false,
            AvianSetup::SweptCcdMovers => !spec.is_still(),
            AvianSetup::SweptCcdFast => spec.velocity.length() > FAST,
            AvianSetup::SweptCcd | AvianSetup::SweptCcdNoSpeculation => true,
        };
        if swept {
            entity.insert(av::SweptCcd::default());
        }
        if setup == AvianSetup::SweptCcdNoSpeculation {
            entity.insert(av::SpeculativeMargin::ZERO);
        }
        if let Some((memberships, filters)) = spec.layers {
            entity.insert(av::CollisionLayers::new(memberships, filters));
            if referee {
                entity.insert(bs::CollisionLayers::new(memberships, filters));
            }
        }
        if referee {
            entity.insert(sweep_collider(spec.kind));
        }
        bodies.push(entity.id());
    }
    app.insert_resource(bodies);
    app
}

/// An unordered pair of scene indices, smaller first.
pub type Pair = (u32, u32);

fn pair(bodies: &Bodies, a: Entity, b: Entity) -> Option<Pair> {
    let (i, j) = (*bodies.index.get(&a)?, *bodies.index.get(&b)?);
    Some((i.min(j), i.max(j)))
}

/// The pairs `bevy_sweep` says touched at some moment of the last tick: every pair with a
/// `Started`, `Crossed` or `Ended` event in it, and every pair still in contact. Drains the
/// event messages.
///
/// An `Ended` at time 0 is left out: it is sent for a contact that ended exactly at the
/// start of the tick, which is the end of the previous one (counted there), and for a contact
/// broken by a jump (a wrap at the arena's edge, marked [`bs::Teleport`]), which did not touch
/// in this tick at all.
pub fn sweep_contacts(app: &mut App) -> HashSet<Pair> {
    let world = app.world_mut();
    let events: Vec<bs::CollisionEvent> = world
        .resource_mut::<Messages<bs::CollisionEvent>>()
        .drain()
        .collect();
    let bodies = world.resource::<Bodies>();
    let contacts = world.resource::<bs::Contacts>();
    events
        .iter()
        .filter(|e| !(e.kind == bs::CollisionKind::Ended && e.time_of_impact == 0.0))
        .filter_map(|e| pair(bodies, e.entity, e.other))
        .chain(
            contacts
                .iter()
                .filter_map(|c| pair(bodies, c.entity, c.other)),
        )
        .collect()
}

/// The pairs avian says are in contact after the last step: touching pairs of its contact
/// graph (awake and sleeping) and its `CollisionStart` messages. Drains the messages.
pub fn avian_contacts(app: &mut App) -> HashSet<Pair> {
    let world = app.world_mut();
    let started: Vec<av::CollisionStart> = world
        .resource_mut::<Messages<av::CollisionStart>>()
        .drain()
        .collect();
    world.resource_mut::<Messages<av::CollisionEnd>>().clear();
    let bodies = world.resource::<Bodies>();
    let graph = world.resource::<av::ContactGraph>();
    graph
        .iter_active_touching()
        .chain(graph.iter_sleeping_touching())
        .filter_map(|p| pair(bodies, p.collider1, p.collider2))
        .chain(
            started
                .iter()
                .filter_map(|e| pair(bodies, e.collider1, e.collider2)),
        )
        .collect()
}

/// The paths `bevy_sweep` swept in the last tick, by scene index (`None` before the first
/// tick).
#[must_use]
pub fn swept_paths(app: &App) -> Vec<Option<ShapePath>> {
    let world = app.world();
    let bodies = world.resource::<Bodies>();
    bodies
        .entities
        .iter()
        .map(|&e| world.get::<bs::SweptPath>(e).and_then(|p| p.path()))
        .collect()
}

/// Where avian's colliders are, by scene index.
#[must_use]
pub fn avian_positions(app: &App) -> Vec<Vec2> {
    let world = app.world();
    let bodies = world.resource::<Bodies>();
    bodies
        .entities
        .iter()
        .map(|&e| world.get::<av::Position>(e).map_or(Vec2::NAN, |p| p.0))
        .collect()
}

/// The median of `samples` (sorted in place); 0 for none.
#[must_use]
pub fn median(samples: &mut [f64]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples.sort_by(f64::total_cmp);
    let n = samples.len();
    if n % 2 == 1 {
        samples[n / 2]
    } else {
        0.5 * (samples[n / 2 - 1] + samples[n / 2])
    }
}
