//! A world of every shape, for the tests that replay it (`tests/rollback.rs`) and renumber
//! it (`tests/entity_order.rs`): still colliders of every kind that come to rest, drifting
//! and turning ones, bullets that cross things inside a tick, bodies with child colliders, a
//! polyline terrain with kinematic characters walking and jumping on it, a moving platform,
//! bouncing, sliding and stopping responders, a sensor, and `CollidingEntities` here and there.
//!
//! The scene is a list of [`Spec`]s built from a fixed seed; [`Scene::spawn`] spawns it in a
//! chosen [`Order`], each entity with its stable [`Id`]. [`Scene::script`] is the game's own
//! changes before each tick (wrapping what leaves the arena with a `Teleport`, stopping and
//! starting movers, reshaping, re-layering and nudging still colliders), and [`walk`] the
//! characters' controller (gravity, jumps): both depend only on the tick's number and on each
//! entity's own state, never on the order of entities.

use bevy::prelude::*;
use bevy_sweep::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// Half the side of the arena: what leaves it is wrapped round (teleported).
pub(crate) const HALF: f32 = 50.0;

/// The layer sets colliders are given: everything, and two groups that meet each other but
/// not themselves; the script also gives some nothing.
const LAYERS: [CollisionLayers; 4] = [
    CollisionLayers::ALL,
    CollisionLayers::from_bits(1, 2),
    CollisionLayers::from_bits(2, 1),
    CollisionLayers::NONE,
];

/// The characters' layer: they meet each other and what is in every layer (the terrain,
/// the platform, some still colliders, the bodies, the responders, the sensor), not the
/// drifting colliders and bullets, which would push them about.
const WALKERS: CollisionLayers = CollisionLayers::from_bits(4, 4);

/// An entity's stable name in the scene, whatever its `Entity`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Id(pub(crate) u32);

/// What a collider does besides colliding.
#[derive(Clone, Copy, Debug)]
enum Role {
    Plain,
    /// Still: rests (the script nudges, reshapes and re-layers some).
    Still,
    /// Drifting: the script stops and starts some.
    Drifting,
    Bullet,
    Character,
    Responder(Response),
    Sensor,
    Platform,
    /// A door that moves up and down and is switched off and on ([`ColliderDisabled`]) as it
    /// goes.
    Door,
}

/// One entity of the scene.
#[derive(Clone, Debug)]
struct Spec {
    collider: Option<Collider>,
    at: Transform,
    velocity: Option<Vec2>,
    angular: Option<f32>,
    layers: CollisionLayers,
    body: bool,
    /// The index of its parent (which comes before it in the list).
    parent: Option<usize>,
    role: Role,
    colliding: bool,
}

impl Spec {
    fn new(collider: Collider, at: Vec2, role: Role) -> Self {
        Self {
            collider: Some(collider),
            at: Transform::from_translation(at.extend(0.0)),
            velocity: None,
            angular: None,
            layers: CollisionLayers::ALL,
            body: false,
            parent: None,
            role,
            colliding: false,
        }
    }
}

/// The order the scene's entities are spawned in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// As listed, parents before their children.
    Forward,
    /// Reversed, after unrelated entities spawned and half of them despawned (Bevy 0.19 does
    /// not hand their indices out again at once: the scene's are shifted, every generation
    /// is the first), with an unrelated entity between every few, and children spawned
    /// before their parents (their `ChildOf` inserted once all exist).
    Scrambled,
}

/// The scene as spawned in one world.
pub(crate) struct Scene {
    specs: Vec<Spec>,
    /// Each spec's entity, by [`Id`].
    pub(crate) entities: Vec<Entity>,
    /// Each entity's [`Id`].
    ids: HashMap<Entity, u32>,
}

/// A random shape of any kind, up to about 2.5 units across.
fn shape(r: &mut ChaCha8Rng) -> Collider {
    match r.random_range(0..8) {
        0 => Collider::point(),
        1 => Collider::segment(
            Vec2::new(r.random_range(-3.0..-0.5), r.random_range(-1.5..1.5)),
            Vec2::new(r.random_range(0.5..3.0), r.random_range(-1.5..1.5)),
        ),
        2 => Collider::circle(r.random_range(0.3..2.0)),
        3 => Collider::aabb(Vec2::new(
            r.random_range(0.3..2.0),
            r.random_range(0.3..2.0),
        )),
        4 => Collider::rectangle(Vec2::new(
            r.random_range(0.3..2.0),
            r.random_range(0.3..2.0),
        )),
        5 => Collider::capsule(
            Vec2::new(r.random_range(-1.5..0.0), 0.0),
            Vec2::new(r.random_range(0.0..1.5), r.random_range(-1.0..1.0)),
            r.random_range(0.2..0.8),
        ),
        6 => {
            let n = r.random_range(3..=8);
            let radius = r.random_range(0.5..2.0);
            let phase = r.random_range(0.0..1.0);
            let vertices: Vec<Vec2> = (0..n)
                .map(|k| {
                    Vec2::from_angle(phase + k as f32 * core::f32::consts::TAU / n as f32) * radius
                })
                .collect();
            Collider::convex_polygon(&vertices).expect("a regular polygon is convex")
        }
        _ => {
            let points: Vec<Vec2> = (0..r.random_range(2..7))
                .map(|k| Vec2::new(k as f32 * 1.2 - 3.0, r.random_range(-1.0..1.0)))
                .collect();
            Collider::polyline(&points).expect("distinct points")
        }
    }
}

/// Whether a shape turns with its transform (an axis-aligned box is warned about when
/// rotated; points and circles look the same).
fn turns(collider: &Collider) -> bool {
    !matches!(
        collider,
        Collider::Point | Collider::Circle { .. } | Collider::Aabb { .. }
    )
}

/// The terrain's height at `x`.
fn ground(x: f32) -> f32 {
    -40.0 + 2.0 * (x * 0.2).sin() + (x * 0.07).cos()
}

/// The scene's specs, from a fixed seed.
fn specs() -> Vec<Spec> {
    let mut r = ChaCha8Rng::seed_from_u64(0x0005_eed0_fa11);
    let mut specs = Vec::new();
    let place = |r: &mut ChaCha8Rng| {
        Vec2::new(
            r.random_range(-HALF + 3.0..HALF - 3.0),
            r.random_range(-34.0..HALF - 3.0),
        )
    };
    // The terrain: one polyline across the arena's bottom.
    let hills: Vec<Vec2> = (0..=40)
        .map(|k| {
            let x = -HALF + k as f32 * 2.5;
            Vec2::new(x, ground(x))
        })
        .collect();
    specs.push(Spec::new(
        Collider::polyline(&hills).expect("distinct points"),
        Vec2::ZERO,
        Role::Still,
    ));
    // Still colliders of every kind, many overlapping each other: they rest, with contacts.
    for _ in 0..260 {
        let collider = shape(&mut r);
        let mut spec = Spec::new(collider.clone(), place(&mut r), Role::Still);
        if turns(&collider) {
            spec.at.rotation = Quat::from_rotation_z(r.random_range(0.0..6.0));
        }
        spec.layers = LAYERS[r.random_range(0..3)];
        spec.colliding = r.random_bool(0.05);
        specs.push(spec);
    }
    // Drifting and turning colliders.
    for _ in 0..220 {
        let collider = shape(&mut r);
        let mut spec = Spec::new(collider.clone(), place(&mut r), Role::Drifting);
        spec.velocity = Some(
            Vec2::from_angle(r.random_range(0.0..core::f32::consts::TAU))
                * r.random_range(3.0..60.0),
        );
        if turns(&collider) && r.random_bool(0.6) {
            spec.angular = Some(r.random_range(-4.0..4.0));
        }
        // Not in the characters' way.
        spec.layers = LAYERS[r.random_range(1..3)];
        spec.colliding = r.random_bool(0.05);
        specs.push(spec);
    }
    // Bullets, 20 to 50 units a tick: each crosses several colliders inside one tick. Some
    // are thin segments and rectangles that spin fast as they go.
    for k in 0..40 {
        let collider = match k % 5 {
            0 | 1 => Collider::point(),
            2 => Collider::circle(0.2),
            3 => Collider::segment(Vec2::new(-0.8, 0.0), Vec2::new(0.8, 0.0)),
            _ => Collider::rectangle(Vec2::new(0.6, 0.15)),
        };
        let mut spec = Spec::new(collider.clone(), place(&mut r), Role::Bullet);
        spec.velocity = Some(
            Vec2::from_angle(r.random_range(0.0..core::f32::consts::TAU))
                * r.random_range(1_300.0..3_200.0),
        );
        if turns(&collider) {
            spec.angular = Some(r.random_range(15.0..30.0) * if k % 2 == 0 { 1.0 } else { -1.0 });
        }
        spec.layers = LAYERS[1 + k % 2];
        specs.push(spec);
    }
    // Bodies: a turning, drifting root (with a collider of its own or not) and its children.
    for k in 0..6 {
        let root = specs.len();
        let at = Vec2::new(-30.0 + k as f32 * 12.0, r.random_range(-10.0..25.0));
        let mut spec = Spec::new(Collider::circle(1.0), at, Role::Plain);
        if k % 2 == 1 {
            spec.collider = None;
        }
        spec.body = true;
        spec.velocity = Some(Vec2::new(
            r.random_range(-8.0..8.0),
            r.random_range(-8.0..8.0),
        ));
        spec.angular = Some(r.random_range(-2.0..2.0));
        spec.colliding = true;
        specs.push(spec);
        let children = [
            Collider::rectangle(Vec2::new(1.5, 0.4)),
            Collider::capsule(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.4),
            Collider::convex_polygon(&[
                Vec2::new(-1.0, -0.8),
                Vec2::new(1.0, -0.8),
                Vec2::new(0.0, 1.0),
            ])
            .expect("a triangle"),
            Collider::segment(Vec2::new(0.0, -1.5), Vec2::new(0.0, 1.5)),
        ];
        for (c, collider) in children.into_iter().enumerate() {
            let offset = Vec2::from_angle(c as f32 * core::f32::consts::FRAC_PI_2) * 2.5;
            let mut child = Spec::new(collider, offset, Role::Plain);
            child.parent = Some(root);
            child.colliding = c == 0;
            specs.push(child);
        }
    }
    // A platform moving left and right (the script turns it round), with a character on it.
    let mut platform = Spec::new(
        Collider::aabb(Vec2::new(6.0, 0.5)),
        Vec2::new(0.0, -30.0),
        Role::Platform,
    );
    platform.velocity = Some(Vec2::new(4.0, 0.0));
    specs.push(platform);
    // Characters: on the terrain, walking and jumping, and one on the platform.
    for (k, x) in [-30.0f32, -5.0, 25.0, 1.0].into_iter().enumerate() {
        let y = if k == 3 { -28.0 } else { ground(x) + 3.0 };
        let mut spec = Spec::new(
            Collider::capsule(Vec2::new(0.0, -0.6), Vec2::new(0.0, 0.6), 0.4),
            Vec2::new(x, y),
            Role::Character,
        );
        spec.velocity = Some(Vec2::new(if k % 2 == 0 { 6.0 } else { -6.0 }, 0.0));
        spec.colliding = true;
        spec.layers = WALKERS;
        specs.push(spec);
    }
    // Responders: balls that bounce, slide and stop.
    for (k, response) in [
        Response::Bounce { restitution: 0.9 },
        Response::Bounce { restitution: 1.0 },
        Response::Bounce { restitution: 0.5 },
        Response::Slide,
        Response::Slide,
        Response::Stop,
    ]
    .into_iter()
    .enumerate()
    {
        let collider = if k == 5 {
            Collider::point()
        } else {
            Collider::circle(0.6)
        };
        let mut spec = Spec::new(collider, place(&mut r), Role::Responder(response));
        spec.velocity = Some(
            Vec2::from_angle(r.random_range(0.0..core::f32::consts::TAU))
                * r.random_range(60.0..200.0),
        );
        spec.colliding = true;
        specs.push(spec);
    }
    // A sensor.
    let mut sensor = Spec::new(Collider::circle(8.0), Vec2::new(20.0, 20.0), Role::Sensor);
    sensor.colliding = true;
    specs.push(sensor);
    // A door moving up and down at 160 units/s and switched off and on as it goes, with a
    // ball bouncing between it and a wall 20 units away at 1,500 units/s (about a bounce a
    // tick: on the tick the door comes back on, the ball meets it moving).
    let mut door = Spec::new(
        Collider::rectangle(Vec2::new(0.5, 6.0)),
        Vec2::new(44.0, 10.0),
        Role::Door,
    );
    door.velocity = Some(Vec2::new(0.0, 160.0));
    door.colliding = true;
    specs.push(door);
    specs.push(Spec::new(
        Collider::aabb(Vec2::new(0.5, 8.0)),
        Vec2::new(24.0, 10.0),
        Role::Still,
    ));
    let mut ball = Spec::new(
        Collider::circle(0.5),
        Vec2::new(34.0, 10.0),
        Role::Responder(Response::Bounce { restitution: 1.0 }),
    );
    ball.velocity = Some(Vec2::new(1_500.0, 0.0));
    ball.colliding = true;
    specs.push(ball);
    specs
}

impl Scene {
    /// Spawns the scene into `world` in `order`.
    pub(crate) fn spawn(world: &mut World, order: Order) -> Self {
        let specs = specs();
        let mut entities = vec![Entity::PLACEHOLDER; specs.len()];
        match order {
            Order::Forward => {
                for i in 0..specs.len() {
                    entities[i] = spawn_one(world, &specs, i, &entities, true);
                }
            }
            Order::Scrambled => {
                // Unrelated entities, half of them despawned.
                let pads: Vec<Entity> = (0..97u32)
                    .map(|k| {
                        let mut pad = world.spawn_empty();
                        if k % 3 == 0 {
                            pad.insert(Transform::from_xyz(k as f32, 0.0, 0.0));
                        }
                        pad.id()
                    })
                    .collect();
                for pad in pads.into_iter().step_by(2) {
                    world.despawn(pad);
                }
                // Children before parents: the list reversed.
                for i in (0..specs.len()).rev() {
                    if i % 7 == 3 {
                        world.spawn(Name::new("unrelated"));
                    }
                    entities[i] = spawn_one(world, &specs, i, &entities, false);
                }
                for (i, spec) in specs.iter().enumerate() {
                    if let Some(parent) = spec.parent {
                        world
                            .entity_mut(entities[i])
                            .insert(ChildOf(entities[parent]));
                    }
                }
            }
        }
        let ids = entities
            .iter()
            .enumerate()
            .map(|(i, &e)| (e, i as u32))
            .collect();
        Self {
            specs,
            entities,
            ids,
        }
    }

    /// The [`Id`] of one of the scene's entities.
    #[track_caller]
    pub(crate) fn id(&self, entity: Entity) -> u32 {
        *self
            .ids
            .get(&entity)
            .unwrap_or_else(|| panic!("{entity} is not in the scene"))
    }

    /// The game's changes before tick `tick` (counted from 0): what left the arena wraps
    /// round (teleported, with its children), the door turns round every 6 ticks and is
    /// switched off and on, the platform turns round every 40 ticks, one
    /// in 97 drifting colliders stops or starts each tick, and still colliders are nudged
    /// (every 8 ticks), reshaped (every 10) and re-layered (every 10).
    pub(crate) fn script(&self, world: &mut World, tick: u32) {
        for (i, spec) in self.specs.iter().enumerate() {
            let entity = self.entities[i];
            let id = i as u32;
            if spec.parent.is_none() && !matches!(spec.role, Role::Still) {
                let p = world
                    .get::<Transform>(entity)
                    .expect("a transform")
                    .translation;
                if p.x.abs() > HALF || p.y.abs() > HALF {
                    let wrapped = Vec2::new(
                        (p.x + HALF).rem_euclid(2.0 * HALF) - HALF,
                        (p.y + HALF).rem_euclid(2.0 * HALF) - HALF,
                    );
                    let mut e = world.entity_mut(entity);
                    e.get_mut::<Transform>().expect("a transform").translation =
                        wrapped.extend(p.z);
                    e.insert(Teleport);
                    let children: Vec<Entity> = e
                        .get::<Children>()
                        .map(|c| c.iter().collect())
                        .unwrap_or_default();
                    for child in children {
                        world.entity_mut(child).insert(Teleport);
                    }
                }
            }
            match spec.role {
                Role::Door => {
                    // Turns round every 6 ticks; off for 3 ticks in every 7.
                    if tick % 6 == 3 {
                        world.get_mut::<Velocity>(entity).expect("a velocity").0 *= -1.0;
                    }
                    let mut e = world.entity_mut(entity);
                    match tick % 7 {
                        2 => {
                            e.insert(ColliderDisabled);
                        }
                        5 => {
                            e.remove::<ColliderDisabled>();
                        }
                        _ => {}
                    }
                }
                Role::Platform if tick % 40 == 20 => {
                    world.get_mut::<Velocity>(entity).expect("a velocity").0 *= -1.0;
                }
                Role::Drifting if (id + tick).is_multiple_of(97) => {
                    let moving = world
                        .get::<Velocity>(entity)
                        .is_some_and(|v| v.0 != Vec2::ZERO);
                    let (v, w) = if moving {
                        // Stopped: it comes to rest two ticks later.
                        (Vec2::ZERO, 0.0)
                    } else {
                        (Vec2::from_angle(id as f32 + tick as f32) * 25.0, 1.0)
                    };
                    let mut e = world.entity_mut(entity);
                    e.insert(Velocity(v));
                    if spec.collider.as_ref().is_some_and(turns) {
                        e.insert(AngularVelocity(w));
                    }
                }
                Role::Still if id > 0 => {
                    if (id + tick).is_multiple_of(8) && id.is_multiple_of(11) {
                        world
                            .get_mut::<Transform>(entity)
                            .expect("a transform")
                            .translation
                            .x += 0.3;
                    }
                    if tick % 10 == 5 && id % 37 == (tick / 10) % 37 {
                        let radius = 0.4 + (tick % 3) as f32 * 0.5;
                        world.entity_mut(entity).insert(Collider::circle(radius));
                    }
                    if tick % 10 == 3 && id % 29 == (tick / 10) % 29 {
                        world
                            .entity_mut(entity)
                            .insert(LAYERS[(tick as usize / 10 + id as usize) % 4]);
                    }
                }
                _ => {}
            }
        }
    }
}

/// Spawns spec `i`; with `with_parent`, as a child of its parent (already spawned).
fn spawn_one(
    world: &mut World,
    specs: &[Spec],
    i: usize,
    entities: &[Entity],
    with_parent: bool,
) -> Entity {
    let spec = &specs[i];
    let mut e = world.spawn((Id(i as u32), spec.at, spec.layers));
    if let Some(collider) = &spec.collider {
        e.insert(collider.clone());
    }
    if let Some(v) = spec.velocity {
        e.insert(Velocity(v));
    }
    if let Some(w) = spec.angular {
        e.insert(AngularVelocity(w));
    }
    if spec.body {
        e.insert(Body);
    }
    if spec.colliding {
        e.insert(CollidingEntities::default());
    }
    match spec.role {
        Role::Character => {
            e.insert(KinematicCharacter::default());
        }
        Role::Responder(response) => {
            e.insert(response);
        }
        Role::Sensor => {
            e.insert(Sensor);
        }
        _ => {}
    }
    if with_parent && let Some(parent) = spec.parent {
        e.insert(ChildOf(entities[parent]));
    }
    e.id()
}

/// The characters' controller, in `FixedUpdate`: gravity, a jump after standing 10 ticks,
/// and walking back towards the middle when stopped or far out.
pub(crate) fn walk(
    time: Res<Time>,
    mut characters: Query<(&Transform, &mut Velocity, &CharacterState), With<KinematicCharacter>>,
) {
    let dt = time.delta_secs();
    for (transform, mut velocity, state) in &mut characters {
        velocity.0.y -= 30.0 * dt;
        if state.grounded && state.grounded_ticks == 10 {
            velocity.0.y = 6.0;
        }
        let x = transform.translation.x;
        if velocity.0.x == 0.0 || state.on_wall || (x.abs() > 40.0 && velocity.0.x * x > 0.0) {
            velocity.0.x = if x > 0.0 { -6.0 } else { 6.0 };
        }
    }
}

/// The compute threads of the apps: Bevy's pool is global to the process, and every app of
/// a test binary that uses this asks for the same size, so whichever is built first sets it.
pub(crate) const THREADS: usize = 4;

/// A recording app (see `tests/common`) whose compute pool has exactly [`THREADS`] threads,
/// with the plugin on all of them (`parallel`) or on the main thread alone (the same path as
/// a one-thread pool: the sweep splits no work when it may use one thread), and the
/// characters' controller [`walk`]. Nothing is spawned yet.
pub(crate) fn app(parallel: bool) -> App {
    let mut app = super::recording_app((
        MinimalPlugins.set(super::task_pools(THREADS)),
        SweepPlugin {
            parallel,
            ..default()
        },
    ));
    app.add_systems(FixedUpdate, walk);
    assert_eq!(
        bevy::tasks::ComputeTaskPool::get().thread_num(),
        THREADS,
        "the compute pool's size"
    );
    app
}
