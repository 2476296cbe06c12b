//! Every tick can be replayed: saved with `SweepState::save` (and the game's own components)
//! after any tick, and restored, the sweep sends the same events, bit for bit, tick after
//! tick, and leaves the same contacts, `CollidingEntities`, characters and transforms as the
//! first time (and the same resting colliders, but for the first tick after a restore, in
//! which none rests: `SweepState` leaves the resting group out).
//!
//! The world of every shape of `tests/common/every_shape_world.rs` (still colliders that
//! rest, drifting and fast-turning ones, bullets that cross several colliders inside a tick,
//! bodies with child colliders, a polyline terrain with kinematic characters walking and
//! jumping on it, a moving platform, responders, a sensor, a moving door switched off and on
//! with a ball bouncing off it) runs to tick [`SAVED_AT`] and is
//! saved, runs [`REPLAYED`] more ticks, is rewound and runs them again: with the plugin on the
//! main thread and on four compute threads, the two giving the same ticks too. Then as
//! rollback netcode does it: saved at every one of those ticks, played ahead one to four
//! ticks, rewound and played again. Also restored into a fresh app (built and spawned the
//! same way, never run), and, with the `serialize` feature, from the state written as RON
//! and read back.
//!
//! The game's components are written back as a rollback crate writes them: every one,
//! whether it changed or not. A rewind that restores them and not the sweep's state gives
//! other events from the first tick on: the replay's checks can fail.
//!
//! Its own test binary, so that its apps are the first to create Bevy's global compute task
//! pool, with four threads even on a two-core machine.

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;

use bevy::prelude::*;
use bevy_sweep::prelude::*;
use common::every_shape_world::{self, Id, Order, Scene, app};
use common::{assert_well_formed, tick};
use core::fmt::Debug;

/// The tick after which the world is saved.
const SAVED_AT: u32 = 20;

/// How many ticks are played, then replayed, after it.
const REPLAYED: u32 = 20;

/// The game's own state of one entity, which a game's rollback saves beside the sweep's:
/// every component the scene, its script or the plugin's answers change.
struct Own {
    entity: Entity,
    transform: Transform,
    velocity: Option<Velocity>,
    angular: Option<AngularVelocity>,
    collider: Option<Collider>,
    layers: Option<CollisionLayers>,
    teleport: bool,
    disabled: bool,
}

fn save_own(world: &mut World) -> Vec<Own> {
    world
        .query_filtered::<(
            Entity,
            &Transform,
            Option<&Velocity>,
            Option<&AngularVelocity>,
            Option<&Collider>,
            Option<&CollisionLayers>,
            Has<Teleport>,
            Has<ColliderDisabled>,
        ), With<Id>>()
        .iter(world)
        .map(
            |(entity, transform, velocity, angular, collider, layers, teleport, disabled)| Own {
                entity,
                transform: *transform,
                velocity: velocity.copied(),
                angular: angular.copied(),
                collider: collider.cloned(),
                layers: layers.copied(),
                teleport,
                disabled,
            },
        )
        .collect()
}

/// Writes the game's components back, as a game's rollback does: every one, changed or not.
fn restore_own(world: &mut World, own: &[Own]) {
    fn put<T: Component>(entity: &mut EntityWorldMut, value: Option<T>) {
        match value {
            Some(value) => {
                entity.insert(value);
            }
            None => {
                entity.remove::<T>();
            }
        }
    }
    for saved in own {
        let mut entity = world.entity_mut(saved.entity);
        entity.insert(saved.transform);
        put(&mut entity, saved.velocity);
        put(&mut entity, saved.angular);
        put(&mut entity, saved.collider.clone());
        put(&mut entity, saved.layers);
        put(&mut entity, saved.teleport.then_some(Teleport));
        put(&mut entity, saved.disabled.then_some(ColliderDisabled));
    }
}

/// What one tick left, every float to the bit (Rust prints the shortest decimal that reads
/// back as the same float, and `-0.0` as such: two values print alike only if they are
/// equal).
#[derive(PartialEq)]
struct Frame {
    /// The events, in the order sent, every field.
    events: Vec<String>,
    /// `Contacts`, sorted.
    contacts: Vec<String>,
    /// Each entity's transform and velocity, and each character's state, by entity.
    bodies: Vec<String>,
    /// The colliders resting, sorted.
    resting: Vec<Entity>,
    /// Each `CollidingEntities`, sorted.
    touching: Vec<String>,
}

fn observe(world: &mut World, events: &[CollisionEvent]) -> Frame {
    assert_well_formed(events);
    let mut contacts: Vec<String> = world
        .resource::<Contacts>()
        .iter()
        .map(|c| format!("{c:?}"))
        .collect();
    contacts.sort();
    let mut bodies: Vec<(Entity, String)> = world
        .query_filtered::<(
            Entity,
            &Transform,
            Option<&Velocity>,
            Option<&AngularVelocity>,
            Option<&CharacterState>,
        ), With<Id>>()
        .iter(world)
        .map(|(e, t, v, w, state)| (e, format!("{t:?} {v:?} {w:?} {state:?}")))
        .collect();
    bodies.sort_by_key(|&(e, _)| e);
    let mut resting: Vec<Entity> = world
        .query::<(Entity, &SweptPath)>()
        .iter(world)
        .filter(|(_, path)| path.is_resting())
        .map(|(e, _)| e)
        .collect();
    resting.sort();
    let mut touching: Vec<String> = world
        .query::<(Entity, &CollidingEntities)>()
        .iter(world)
        .map(|(e, c)| {
            let mut others: Vec<Entity> = c.iter().collect();
            others.sort();
            format!("{e}: {others:?}")
        })
        .collect();
    touching.sort();
    Frame {
        events: events.iter().map(|e| format!("{e:?}")).collect(),
        contacts,
        bodies: bodies
            .into_iter()
            .map(|(e, line)| format!("{e}: {line}"))
            .collect(),
        resting,
        touching,
    }
}

/// Plays ticks `from..to` of the scene (its script before each).
fn play(app: &mut App, scene: &Scene, from: u32, to: u32) -> Vec<Frame> {
    (from..to)
        .map(|t| {
            scene.script(app.world_mut(), t);
            let events = tick(app);
            observe(app.world_mut(), &events)
        })
        .collect()
}

/// The same list in both runs, or the first difference.
#[track_caller]
fn same<T: Debug + PartialEq>(what: &str, tick: u32, first: &[T], again: &[T], runs: &str) {
    if first == again {
        return;
    }
    let at = first
        .iter()
        .zip(again)
        .position(|(x, y)| x != y)
        .unwrap_or(first.len().min(again.len()));
    panic!(
        "tick {tick}: the {what} differ between {runs} ({} and {}); first difference at \
         {at}:\n  {:?}\n  {:?}",
        first.len(),
        again.len(),
        first.get(at),
        again.get(at)
    );
}

/// Two runs of ticks `from..` gave the same frames; `again` after a restore.
#[track_caller]
fn same_frames(first: &[Frame], again: &[Frame], from: u32, runs: &str, restored: bool) {
    assert_eq!(first.len(), again.len());
    for (k, (a, b)) in first.iter().zip(again).enumerate() {
        let t = from + k as u32;
        same("events", t, &a.events, &b.events, runs);
        same("contacts", t, &a.contacts, &b.contacts, runs);
        same(
            "transforms, velocities and characters",
            t,
            &a.bodies,
            &b.bodies,
            runs,
        );
        same("colliding entities", t, &a.touching, &b.touching, runs);
        // `SweepState` leaves out the broad phase's group of resting colliders: after a
        // restore every collider is swept again (no event changes) and rests again from
        // the tick after (in this scene, 312 rest at tick 20 in the first run, none in the
        // replay).
        if restored && k == 0 {
            assert!(
                b.resting.iter().all(|e| a.resting.binary_search(e).is_ok()),
                "tick {t}: colliders rest in {runs} that did not in the other"
            );
        } else {
            same("resting colliders", t, &a.resting, &b.resting, runs);
        }
    }
}

/// The scene run to [`SAVED_AT`], and saved there.
struct Saved {
    app: App,
    scene: Scene,
    own: Vec<Own>,
    state: SweepState,
}

fn run_and_save(parallel: bool) -> Saved {
    let mut app = app(parallel);
    let scene = Scene::spawn(app.world_mut(), Order::Forward);
    play(&mut app, &scene, 0, SAVED_AT);
    let world = app.world_mut();
    // What the saved state holds: resting colliders, contacts, characters on the ground.
    let resting = world
        .query::<&SweptPath>()
        .iter(world)
        .filter(|p| p.is_resting())
        .count();
    assert!(resting > 100, "{resting} colliders rest");
    let contacts = world.resource::<Contacts>().len();
    assert!(contacts > 50, "{contacts} contacts");
    let grounded = world
        .query::<&CharacterState>()
        .iter(world)
        .filter(|s| s.grounded)
        .count();
    assert!(grounded > 0, "no character stands");
    let own = save_own(world);
    let state = SweepState::save(world);
    Saved {
        app,
        scene,
        own,
        state,
    }
}

/// Plays the [`REPLAYED`] ticks after the save, rewinds to it and plays them again, and
/// checks that the two runs are the same and exercised the scene; returns the first run.
fn replay(parallel: bool) -> Vec<Frame> {
    let Saved {
        mut app,
        scene,
        own,
        state,
    } = run_and_save(parallel);
    let mut parallel_tasks = 0;
    let first: Vec<Frame> = (SAVED_AT..SAVED_AT + REPLAYED)
        .map(|t| {
            let frame = play(&mut app, &scene, t, t + 1).remove(0);
            parallel_tasks += app.world().resource::<SweepStats>().parallel_tasks();
            frame
        })
        .collect();
    if parallel {
        assert!(
            parallel_tasks > REPLAYED as usize * 4,
            "the sweep should have run on several threads ({parallel_tasks} tasks)"
        );
    } else {
        assert_eq!(parallel_tasks, 0, "the sweep should have run serially");
    }
    let events: usize = first.iter().map(|f| f.events.len()).sum();
    assert!(events > 1_000, "the scene should be busy: {events} events");

    restore_own(app.world_mut(), &own);
    state.restore(app.world_mut());
    let again = play(&mut app, &scene, SAVED_AT, SAVED_AT + REPLAYED);
    same_frames(
        &first,
        &again,
        SAVED_AT,
        "the first run and the replay",
        true,
    );

    // The same rewind without the sweep's state: the sweep goes on from where the last
    // tick left it, and the very first tick's events differ.
    restore_own(app.world_mut(), &own);
    let stale = play(&mut app, &scene, SAVED_AT, SAVED_AT + 1);
    assert!(
        stale[0].events != first[0].events,
        "rewinding the game's components alone replayed the same events: the test cannot \
         tell whether the sweep's state is restored"
    );
    first
}

#[test]
fn every_tick_replays_serially() {
    replay(false);
}

#[test]
fn every_tick_replays_on_four_threads() {
    replay(true);
}

/// Rollback as netcode does it: at each tick of [`REPLAYED`], saved, played one to four
/// ticks ahead, rewound and played again; then rewound once more and on to the next tick.
/// The game's components are written back before the sweep's state at even ticks and after
/// it at odd ones (rollback crates do it either way; the door the scene switches off and on
/// as it moves is written back with them).
fn roll_back_at_every_tick(parallel: bool) {
    let Saved { mut app, scene, .. } = run_and_save(parallel);
    let rewind = |world: &mut World, own: &[Own], state: &SweepState, t: u32| {
        if t.is_multiple_of(2) {
            restore_own(world, own);
            state.restore(world);
        } else {
            state.restore(world);
            restore_own(world, own);
        }
    };
    for t in SAVED_AT..SAVED_AT + REPLAYED {
        let own = save_own(app.world_mut());
        let state = SweepState::save(app.world_mut());
        let ahead = 1 + t % 4;
        let first = play(&mut app, &scene, t, t + ahead);
        rewind(app.world_mut(), &own, &state, t);
        let again = play(&mut app, &scene, t, t + ahead);
        let runs = format!("the first run and the replay restored before tick {t}");
        same_frames(&first, &again, t, &runs, true);
        rewind(app.world_mut(), &own, &state, t + 1);
        play(&mut app, &scene, t, t + 1);
    }
}

#[test]
fn every_tick_rolls_back_serially() {
    roll_back_at_every_tick(false);
}

#[test]
fn every_tick_rolls_back_on_four_threads() {
    roll_back_at_every_tick(true);
}

/// Rolled back to before the first tick (netcode's first frame, which a late remote input
/// rewinds to): the colliders spawned then have no motion yet, and the replay starts them
/// where they are, as the first run did (a moving collider's first motion is swept, the door
/// switched off in its first tick keeps where it was spawned). Both restore orders; the
/// sweep's checksum is the first run's too.
#[test]
fn a_rollback_to_before_the_first_tick_replays_it() {
    for order in 0..2 {
        let mut app = app(false);
        let scene = Scene::spawn(app.world_mut(), Order::Forward);
        let own = save_own(app.world_mut());
        let state = SweepState::save(app.world_mut());
        let first = play(&mut app, &scene, 0, 4);
        let checksum = SweepState::save(app.world_mut()).checksum();
        let events: usize = first.iter().map(|f| f.events.len()).sum();
        assert!(
            events > 100,
            "the first ticks should be busy: {events} events"
        );
        if order == 0 {
            restore_own(app.world_mut(), &own);
            state.restore(app.world_mut());
        } else {
            state.restore(app.world_mut());
            restore_own(app.world_mut(), &own);
        }
        let again = play(&mut app, &scene, 0, 4);
        let runs = format!("the first run and the replay from before it (order {order})");
        same_frames(&first, &again, 0, &runs, true);
        assert_eq!(
            SweepState::save(app.world_mut()).checksum(),
            checksum,
            "the sweep's checksum after {runs}"
        );
    }
}

#[test]
fn one_and_four_threads_play_the_same_ticks() {
    let (serial, parallel) = (replay(false), replay(true));
    same_frames(
        &serial,
        &parallel,
        SAVED_AT,
        "one thread and four threads",
        false,
    );
}

/// The saved state restored into another app, built and spawned the same way (so that its
/// entities are the same) and never run: the replay is the same as the first run.
#[test]
fn replays_in_a_fresh_app() {
    let Saved {
        mut app,
        scene,
        own,
        state,
    } = run_and_save(false);
    let first = play(&mut app, &scene, SAVED_AT, SAVED_AT + REPLAYED);
    let mut fresh = every_shape_world::app(false);
    let fresh_scene = Scene::spawn(fresh.world_mut(), Order::Forward);
    assert_eq!(fresh_scene.entities, scene.entities, "the same entities");
    restore_own(fresh.world_mut(), &own);
    state.restore(fresh.world_mut());
    let again = play(&mut fresh, &fresh_scene, SAVED_AT, SAVED_AT + REPLAYED);
    same_frames(
        &first,
        &again,
        SAVED_AT,
        "the first run and the replay in a fresh app",
        true,
    );
}

/// The saved state written as RON text and read back replays the same.
#[cfg(feature = "serialize")]
#[test]
fn replays_from_a_serialized_state() {
    let Saved {
        mut app,
        scene,
        own,
        state,
    } = run_and_save(false);
    let text = ron::to_string(&state).expect("the state serializes");
    let read: SweepState = ron::from_str(&text).expect("the state deserializes");
    let first = play(&mut app, &scene, SAVED_AT, SAVED_AT + REPLAYED);
    restore_own(app.world_mut(), &own);
    read.restore(app.world_mut());
    let again = play(&mut app, &scene, SAVED_AT, SAVED_AT + REPLAYED);
    same_frames(
        &first,
        &again,
        SAVED_AT,
        "the first run and the replay from RON",
        true,
    );
}

/// A state restored with its entities mapped to those a rollback crate brought back under
/// new ids (`SweepState::mapped`, as `bevy_ggrs` needs): a floor despawned and spawned again
/// under another id keeps its contact with the ball on it (no event), `Contacts` and
/// `CollidingEntities` name the new floor, and the ball's character-free motion goes on.
/// Restored without the mapping, the old contact ends and a new one starts.
#[test]
fn a_state_mapped_to_new_ids_goes_on_as_if_nothing_happened() {
    let run = |mapped: bool| {
        // (The scene's app, which sizes the compute pool that every test here shares.)
        let mut app = app(false);
        let floor = app
            .world_mut()
            .spawn((
                Collider::aabb(Vec2::new(50.0, 1.0)),
                CollidingEntities::default(),
            ))
            .id();
        let ball = app
            .world_mut()
            .spawn((
                Collider::circle(1.0),
                Transform::from_xyz(0.0, 2.0, 0.0),
                Velocity(Vec2::new(16.0, 0.0)),
                CollidingEntities::default(),
            ))
            .id();
        for _ in 0..5 {
            tick(&mut app);
        }
        assert!(app.world().resource::<Contacts>().contains(ball, floor));
        let state = SweepState::save(app.world_mut());
        app.world_mut().despawn(floor);
        let again = app
            .world_mut()
            .spawn((
                Collider::aabb(Vec2::new(50.0, 1.0)),
                CollidingEntities::default(),
            ))
            .id();
        assert_ne!(again, floor);
        let state = if mapped {
            state.mapped(|e| if e == floor { again } else { e })
        } else {
            state
        };
        state.restore(app.world_mut());
        let events = tick(&mut app);
        let contacts = app.world().resource::<Contacts>();
        let touching = app.world().get::<CollidingEntities>(ball).unwrap();
        (
            events.len(),
            contacts.contains(ball, again),
            touching.contains(again),
        )
    };
    assert_eq!(run(true), (0, true, true));
    let (events, ..) = run(false);
    assert!(events > 0, "without the mapping, the contact starts again");
}
