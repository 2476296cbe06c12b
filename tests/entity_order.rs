//! The same world with its entities numbered differently gives the same contacts, at the
//! same times and places.
//!
//! The world of every shape of `tests/common/every_shape_world.rs` is spawned twice: in
//! its order, and reversed, after unrelated entities were spawned (and half of them
//! despawned), with an unrelated entity between every few and children spawned before their
//! parents: every collider has another `Entity`, and pairs come in the other order. Each
//! tick, with the plugin on the main thread and on four compute threads, the two worlds'
//! events and `Contacts` (each contact named by the scene's stable ids, seen from the
//! smaller id) must be the same contacts, bit for bit in every field: pairs, kinds, times,
//! bodies, places, normals, features, `along`s and relative velocities. Every
//! `CollidingEntities`, and where each character and responder is and how it moves, must be
//! bit-equal too.
//!
//! What follows the numbering too is the order of the messages: by time, then by `Entity`
//! (see `same_moment_events_come_in_entity_order`), and which of a pair is `entity`.
//!
//! Its own test binary, so that its apps are the first to create Bevy's global compute task
//! pool, with four threads even on a two-core machine.

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;

use bevy::prelude::*;
use bevy_sweep::prelude::*;
use common::every_shape_world::{Order, Scene, app};
use common::{assert_well_formed, tick};
use core::fmt::Debug;

/// How many ticks each run lasts.
const TICKS: u32 = 48;

/// A contact as the scene names it: entities and bodies by their
/// [`Id`](common::every_shape_world::Id), seen from the smaller id.
#[derive(Clone, Copy, Debug)]
#[allow(dead_code, reason = "compared whole, every field, through `Debug`")]
struct Named {
    entity: u32,
    other: u32,
    kind: CollisionKind,
    time_of_impact: f32,
    point: Vec2,
    normal: Vec2,
    relative_velocity: Vec2,
    along: Option<f32>,
    other_along: Option<f32>,
    feature: Option<Feature>,
    other_feature: Option<Feature>,
    body: Option<u32>,
    other_body: Option<u32>,
}

impl Named {
    fn new(scene: &Scene, event: &CollisionEvent) -> Self {
        let (a, b) = (scene.id(event.entity), scene.id(event.other));
        let e = common::seen_from(event, if a <= b { event.entity } else { event.other });
        // Turned round, a zero becomes `-0.0`: the same number.
        let z = |v: Vec2| v + Vec2::ZERO;
        Self {
            entity: a.min(b),
            other: a.max(b),
            kind: e.kind,
            time_of_impact: e.time_of_impact,
            point: e.point,
            normal: z(e.normal),
            relative_velocity: z(e.relative_velocity),
            along: e.along,
            other_along: e.other_along,
            feature: e.feature,
            other_feature: e.other_feature,
            body: e.body.map(|b| scene.id(b)),
            other_body: e.other_body.map(|b| scene.id(b)),
        }
    }

    /// What sorts a set of them: the pair, the kind, the time.
    fn key(&self) -> (u32, u32, CollisionKind, u32) {
        (
            self.entity,
            self.other,
            self.kind,
            self.time_of_impact.to_bits(),
        )
    }
}

/// What one tick left in one world, named by ids.
struct Frame {
    /// The events, in the order sent, each as sent: (entity, other, kind, time).
    sent: Vec<(u32, u32, CollisionKind, f32)>,
    /// The events, named and sorted.
    events: Vec<Named>,
    /// `Contacts`, each pair by its starting event, named and sorted.
    contacts: Vec<Named>,
    /// Each `CollidingEntities`: its owner and what it touches, sorted.
    touching: Vec<(u32, Vec<u32>)>,
    /// Where each character and responder is, and how it moves and stands.
    movers: Vec<String>,
}

/// Totals over a run, to check that it exercised what it should.
#[derive(Default, Debug)]
struct Totals {
    events: usize,
    crossed: usize,
    /// Pairs that started and ended in one tick (bullets through things).
    through: usize,
    /// Ticks whose events include two or more at one moment.
    ties: usize,
    contacts: usize,
    resting: usize,
    grounded: usize,
    /// Character ticks standing on something that moves.
    riding: usize,
}

fn observe(app: &mut App, scene: &Scene, events: &[CollisionEvent], totals: &mut Totals) -> Frame {
    assert_well_formed(events);
    let mut named: Vec<Named> = events.iter().map(|e| Named::new(scene, e)).collect();
    named.sort_by_key(Named::key);
    let world = app.world_mut();
    let mut contacts: Vec<Named> = world
        .resource::<Contacts>()
        .iter()
        .map(|c| Named::new(scene, &c.started))
        .collect();
    contacts.sort_by_key(Named::key);
    let mut touching: Vec<(u32, Vec<u32>)> = world
        .query::<(Entity, &CollidingEntities)>()
        .iter(world)
        .map(|(e, c)| {
            let mut ids: Vec<u32> = c.iter().map(|o| scene.id(o)).collect();
            ids.sort_unstable();
            (scene.id(e), ids)
        })
        .collect();
    touching.sort();
    let mut movers: Vec<(u32, String)> = world
        .query_filtered::<(Entity, &Transform, &Velocity, Option<&CharacterState>), Or<(
            With<KinematicCharacter>,
            With<Response>,
        )>>()
        .iter(world)
        .map(|(e, t, v, state)| {
            let state = state.map(|s| {
                (
                    s.grounded,
                    s.ground_normal,
                    s.ground_entity.map(|g| scene.id(g)),
                    s.on_wall,
                    s.moved,
                    s.grounded_ticks,
                )
            });
            if let Some((true, _, ground, ..)) = state {
                totals.grounded += 1;
                if ground.is_some_and(|g| {
                    world
                        .get::<Velocity>(scene.entities[g as usize])
                        .is_some_and(|v| v.0 != Vec2::ZERO)
                }) {
                    totals.riding += 1;
                }
            }
            let id = scene.id(e);
            let line = format!(
                "{id}: {:?} {:?} {:?} {state:?}",
                t.translation, t.rotation, v.0
            );
            (id, line)
        })
        .collect();
    movers.sort_by_key(|&(id, _)| id);
    totals.events += events.len();
    totals.crossed += named
        .iter()
        .filter(|e| e.kind == CollisionKind::Crossed)
        .count();
    totals.through += named
        .windows(2)
        .filter(|w| {
            (w[0].entity, w[0].other) == (w[1].entity, w[1].other)
                && w[0].kind == CollisionKind::Started
                && w[1].kind == CollisionKind::Ended
                && w[0].time_of_impact > 0.0
        })
        .count();
    totals.ties += usize::from(
        events
            .windows(2)
            .any(|w| w[0].time_of_impact == w[1].time_of_impact),
    );
    totals.contacts += contacts.len();
    totals.resting += world.resource::<SweepStats>().resting;
    Frame {
        sent: events
            .iter()
            .map(|e| {
                (
                    scene.id(e.entity),
                    scene.id(e.other),
                    e.kind,
                    e.time_of_impact,
                )
            })
            .collect(),
        events: named,
        contacts,
        touching,
        movers: movers.into_iter().map(|(_, line)| line).collect(),
    }
}

/// Runs the scene spawned in `order` for [`TICKS`] ticks.
fn run(order: Order, parallel: bool) -> (Vec<Frame>, Totals) {
    let mut app = app(parallel);
    let scene = Scene::spawn(app.world_mut(), order);
    let mut totals = Totals::default();
    let mut parallel_tasks = 0;
    let frames = (0..TICKS)
        .map(|t| {
            scene.script(app.world_mut(), t);
            let events = tick(&mut app);
            parallel_tasks += app.world().resource::<SweepStats>().parallel_tasks();
            observe(&mut app, &scene, &events, &mut totals)
        })
        .collect();
    if parallel {
        assert!(
            parallel_tasks > TICKS as usize * 4,
            "the sweep should have run on several threads ({parallel_tasks} tasks)"
        );
    } else {
        assert_eq!(parallel_tasks, 0, "the sweep should have run serially");
    }
    (frames, totals)
}

/// The same list, every float to the bit (Rust prints the shortest decimal that reads back
/// as the same float, and `-0.0` as such: two values print alike only if they are equal).
#[track_caller]
fn same<T: Debug>(what: &str, tick: usize, a: &[T], b: &[T]) {
    let (a, b): (Vec<String>, Vec<String>) = (
        a.iter().map(|x| format!("{x:?}")).collect(),
        b.iter().map(|x| format!("{x:?}")).collect(),
    );
    if a == b {
        return;
    }
    let first = a.iter().zip(&b).position(|(x, y)| x != y);
    let at = first.unwrap_or(a.len().min(b.len()));
    panic!(
        "tick {tick}: the {what} differ ({} in the forward world, {} in the renumbered one); \
         first difference at {at}:\n  forward:    {:?}\n  renumbered: {:?}",
        a.len(),
        b.len(),
        a.get(at),
        b.get(at)
    );
}

/// The same contacts under both numberings, bit for bit: the same pairs, kinds, times,
/// bodies and places, and the same witnesses (normal, features, `along`s, relative
/// velocity). The witness is worked out from the pair's two shapes taken in an order of
/// their own (by kind, then where they start), not in the order the pair comes in, which
/// follows the numbering.
#[track_caller]
fn same_contacts(what: &str, tick: usize, a: &[Named], b: &[Named]) {
    same(what, tick, a, b);
}

/// The two numberings give the same frames, and the run exercised every part of the scene.
fn renumbered_world_same_contacts(parallel: bool) {
    let (forward, totals) = run(Order::Forward, parallel);
    let (renumbered, renumbered_totals) = run(Order::Scrambled, parallel);
    for (t, (a, b)) in forward.iter().zip(&renumbered).enumerate() {
        same_contacts("events", t, &a.events, &b.events);
        same_contacts("contacts", t, &a.contacts, &b.contacts);
        same("colliding entities", t, &a.touching, &b.touching);
        same("characters and responders", t, &a.movers, &b.movers);
    }
    assert_eq!(totals.events, renumbered_totals.events);
    // The scene exercised what it should (about a third to half of what a run gives).
    assert!(totals.events > 5_000, "{totals:?}");
    assert!(totals.crossed > 500, "{totals:?}");
    assert!(totals.through > 1_000, "{totals:?}");
    assert!(totals.ties > TICKS as usize / 2, "{totals:?}");
    assert!(totals.contacts > 2_000, "{totals:?}");
    assert!(totals.resting > 5_000, "{totals:?}");
    assert!(totals.grounded > 20, "{totals:?}");
    assert!(totals.riding > 5, "{totals:?}");
}

#[test]
fn renumbered_world_same_contacts_serial() {
    renumbered_world_same_contacts(false);
}

#[test]
fn renumbered_world_same_contacts_on_four_threads() {
    renumbered_world_same_contacts(true);
}

/// Events at the same moment are sent in the order of their `entity`'s `Entity` (then
/// `other`'s, then the kind: `Entity`'s order, which in Bevy 0.19 runs against the index,
/// `2v0 < 1v0`), not in an order of their own: the two numberings send them in different
/// orders (35 of the 48 ticks here). Which entity of a pair is `entity` follows the numbering
/// too (12,655 of the 12,952 events here are turned round).
#[test]
fn same_moment_events_come_in_entity_order() {
    let (forward, _) = run(Order::Forward, false);
    let (renumbered, _) = run(Order::Scrambled, false);
    // `run` checked (with `assert_well_formed`) that each tick's messages are sorted by
    // time, then `entity`, then `other` (by `Entity::to_bits`), then kind.
    let (mut reordered, mut turned) = (0, 0);
    for (a, b) in forward.iter().zip(&renumbered) {
        let pair = |&(e, o, kind, time): &(u32, u32, CollisionKind, f32)| {
            (e.min(o), e.max(o), kind, time.to_bits())
        };
        let (a_pairs, b_pairs): (Vec<_>, Vec<_>) = (
            a.sent.iter().map(pair).collect(),
            b.sent.iter().map(pair).collect(),
        );
        if a_pairs != b_pairs {
            reordered += 1;
            // Only events at one moment change places.
            let times = |s: &[(u32, u32, CollisionKind, f32)]| -> Vec<u32> {
                s.iter().map(|e| e.3.to_bits()).collect()
            };
            assert_eq!(times(&a.sent), times(&b.sent));
        }
        turned += a
            .sent
            .iter()
            .zip(&b.sent)
            .filter(|(x, y)| pair(x) == pair(y) && x.0 != y.0)
            .count();
    }
    assert!(
        reordered > 0,
        "the events at one moment came in the same order under both numberings"
    );
    assert!(
        turned > 0,
        "each pair's event named the same entity first under both numberings"
    );
}
