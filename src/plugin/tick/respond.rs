//! **Respond**: the real paths of the colliders that answer hits.
//!
//! Reads: [`Motions`] (every collider's motion in this tick) and [`RestingColliders`]; the
//! responders' [`Response`] or [`KinematicCharacter`]; the [`OneWay`] colliders' directions.
//! Writes: [`Motions`] (a responder that hits something has its one entry replaced by the
//! pieces of its real path, each over its window of the tick), the responders' `Transform`,
//! [`Velocity`] and [`SweptPath`], the one-way directions the queries read
//! ([`Responders::one_way`]), and [`SweepStats`]' `respond_time` and `answered_hits`.
//!
//! A responder moves along its straight path until its first contact with a solid (one that
//! blocks: not a sensor, not a responder, layers interacting), found by the same exact
//! kernels as every contact, against the solid's own motion over the rest of the tick. There
//! its velocity is answered, and it goes on from that place and moment. Each responder's
//! path depends only on the solids, never on another responder, so the paths are found in
//! parallel and in any order. The pieces then go through the broad and narrow phases like
//! any entry: sensors and other responders see the real path, and the report merges a
//! pair's contacts over the pieces as it merges a polyline's edges.

use super::entries::{BoxIndex, Entry, Slot, TickEntries, restrict};
use super::gather::{EVENT_SKIN, Motions, inflate};
use super::parts::run_parts;
use super::rest::RestingColliders;
use crate::SweepSettings;
use crate::narrow::{
    ConvexShape, Shape, ShapePath, as_convex, contact_intervals_of_valid, material_motion,
    penetration, witness,
};
use crate::plugin::components::placement::world_plane;
use crate::plugin::{KinematicCharacter, OneWay, Response, SweepStats, SweptPath, Velocity};
use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::prelude::*;
use bevy::ecs::system::NonSendMarker;
use bevy::math::bounding::Aabb2d;
use bevy::math::{Affine2, Vec2};
use bevy::platform::time::Instant;
use bevy::transform::components::Transform;

/// The most hits a responder answers in one tick; past them it stays where the last left it
/// for the rest of the tick (its velocity is still answered next tick).
const MOST_HITS: usize = 32;
/// How many times the end of a responder's path is pushed out of the solids it overlaps.
const PUSHES: usize = 4;

/// The respond phase's state: the index over the solids of this tick, the one-way
/// directions, and each responder's answer.
#[derive(Resource, Default)]
pub(crate) struct Responders {
    /// The swept entries that block (by slot), their bounds, and the index over them.
    solids: Vec<u32>,
    bounds: Vec<Aabb2d>,
    index: BoxIndex,
    /// The responders' entries.
    movers: Vec<u32>,
    /// Each part's answers.
    parts: Vec<Vec<Answer>>,
    /// Each [`OneWay`] collider's direction in the world at the end of the tick.
    pub(crate) one_way: EntityHashMap<Vec2>,
    /// The hits answered in this tick: the piece that meets the solid, the solid, when, and
    /// whether it bounced. The narrow phase adds them to the pairs' contacts: the place of a
    /// bounce is computed in `f32`, and may be a rounding error short of the solid (or into
    /// it, which the kernels see as a contact of a few ulps of time: a bounce is an instant).
    pub(crate) hits: Vec<(Slot, Slot, f32, bool)>,
}

/// How the tick went for one responder that hit something.
#[derive(Clone, Debug)]
struct Answer {
    /// Its entry.
    entry: u32,
    /// The pieces of its path: each window of the tick and the shapes at its ends.
    pieces: Vec<([f32; 2], Shape, Shape)>,
    /// How far it ends from where its straight path ended.
    moved: Vec2,
    /// Its velocity after the tick.
    velocity: Vec2,
    /// It hit something (else it was only pushed out).
    hit: bool,
    /// The normals of the surfaces that stopped it.
    normals: Vec<Vec2>,
    /// Each hit: the piece that meets the solid, the solid, and when.
    contacts: Vec<(usize, Slot, f32)>,
    /// It bounces (its hits are instants).
    bounces: bool,
}

/// How a responder answers, as the phase needs it.
#[derive(Clone, Copy)]
enum Answering {
    Bounce(f32),
    Slide,
    Stop,
}

/// What a responder needs to know to find its path.
struct Ask {
    entry: Entry,
    path: ShapePath,
    answering: Answering,
    duration: f32,
    /// Its `Velocity`.
    velocity: Vec2,
    /// How far a push out of a solid may go in one tick.
    max_push: f32,
    /// An overlap no deeper than this is not pushed out of.
    tolerance: f32,
    /// A character: it has moved against the still solids already (move-and-slide), and
    /// answers only those that move.
    character: bool,
}

/// The world a responder moves in: the tick's entries, the solids' index, the resting index,
/// and the one-way directions.
#[derive(Clone, Copy)]
struct World<'a> {
    entries: TickEntries<'a>,
    solids: &'a [u32],
    index: &'a BoxIndex,
    resting: &'a BoxIndex,
    one_way: &'a EntityHashMap<Vec2>,
}

/// A responder's parts the phase reads and writes.
type Mover = (
    &'static mut Transform,
    &'static mut Velocity,
    &'static mut SweptPath,
    Option<&'static Response>,
    Option<&'static KinematicCharacter>,
);

/// Finds the responders' real paths and puts their pieces in [`Motions`].
#[allow(clippy::too_many_arguments, reason = "a system's parameters")]
pub(crate) fn respond(
    _main_thread: NonSendMarker,
    settings: Res<SweepSettings>,
    mut motions: ResMut<Motions>,
    resting: Res<RestingColliders>,
    mut responders: ResMut<Responders>,
    mut queries: ParamSet<(
        (
            Query<(Entity, &OneWay)>,
            Query<(&Transform, Option<&ChildOf>)>,
        ),
        Query<Mover>,
    )>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    let state = &mut *responders;
    state.movers.clear();
    state.hits.clear();
    state.movers.extend(
        (0u32..)
            .zip(&motions.entries.list)
            .filter(|(_, e)| e.responder())
            .map(|(i, _)| i),
    );
    {
        let (one_way, transforms) = queries.p0();
        one_way_directions(&mut state.one_way, &one_way, &transforms);
    }
    let mut movers = queries.p1();
    if state.movers.is_empty() {
        stats.respond_time = began.elapsed();
        stats.answered_hits = 0;
        return;
    }
    state.solids.clear();
    state.bounds.clear();
    for (i, e) in (0u32..).zip(&motions.entries.list) {
        if e.blocks() {
            state.solids.push(i);
            state.bounds.push(motions.bounds[i as usize]);
        }
    }
    state.index.build(&state.bounds);
    let duration = motions.duration;
    let asks: Vec<(u32, Ask)> = state
        .movers
        .iter()
        .filter_map(|&i| {
            let entry = motions.entries.list[i as usize];
            let (_, velocity, _, response, character) = movers.get(entry.entity).ok()?;
            let (answering, max_push, tolerance) = match (character, response) {
                (Some(c), _) => {
                    let c = c.sanitized().0;
                    // Swept grown by a little more than its skin: it stands overlapping
                    // by that little.
                    (
                        Answering::Slide,
                        c.max_push,
                        c.skin * (EVENT_SKIN - 1.0) * 2.0,
                    )
                }
                (None, Some(Response::Bounce { restitution })) => {
                    (Answering::Bounce(*restitution), f32::INFINITY, 0.0)
                }
                (None, Some(Response::Slide)) => (Answering::Slide, f32::INFINITY, 0.0),
                (None, Some(Response::Stop)) => (Answering::Stop, f32::INFINITY, 0.0),
                (None, None) => return None,
            };
            Some((
                i,
                Ask {
                    entry,
                    path: motions.entries.path(i as usize),
                    answering,
                    duration,
                    velocity: velocity.0,
                    max_push,
                    tolerance,
                    character: character.is_some(),
                },
            ))
        })
        .collect();
    let count = (asks.len() / 64).clamp(1, 32);
    state
        .parts
        .resize_with(count.max(state.parts.len()), Vec::new);
    let Responders {
        solids,
        index,
        parts,
        one_way,
        hits: hits_found,
        ..
    } = &mut *state;
    let world = World {
        entries: TickEntries {
            swept: &motions.entries,
            resting: &resting.group.entries,
        },
        solids,
        index,
        resting: &resting.group.index,
        one_way,
    };
    let asks = &asks;
    run_parts(&settings, &mut parts[..count], |p, out| {
        out.clear();
        let range = asks.len() * p / count..asks.len() * (p + 1) / count;
        out.extend(
            asks[range]
                .iter()
                .filter_map(|(i, ask)| answer(*i, ask, world)),
        );
    });
    let mut hits = 0;
    for answer in parts[..count].iter().flatten() {
        hits += answer.normals.len();
        let entry = motions.entries.list[answer.entry as usize];
        let slots = put_pieces(&mut motions, answer);
        for &(piece, solid, time) in &answer.contacts {
            if let Some(Some(slot)) = slots.get(piece) {
                hits_found.push((Slot::swept(*slot), solid, time, answer.bounces));
            }
        }
        let Ok((mut transform, mut velocity, mut swept, response, character)) =
            movers.get_mut(entry.entity)
        else {
            continue;
        };
        transform.translation += answer.moved.extend(0.0);
        if let Some(plane) = swept.previous_world {
            let mut plane = Affine2::from(plane);
            plane.translation += answer.moved;
            swept.previous_world = Some(plane.into());
        }
        if let Some(&(_, start, end)) = answer.pieces.last()
            && let Some(path) = ShapePath::between(start, end)
        {
            swept.set_path(&path);
        }
        if answer.hit {
            velocity.0 = if character.is_some() {
                // A character loses the part of its velocity into what stopped it.
                answer
                    .normals
                    .iter()
                    .fold(velocity.0, |v, n| v - v.dot(*n).min(0.0) * *n)
            } else if response == Some(&Response::Stop) {
                Vec2::ZERO
            } else {
                answer.velocity
            };
        }
    }
    stats.respond_time = began.elapsed();
    stats.answered_hits = hits;
}

/// Each one-way collider's direction in the world (turned with its transform).
fn one_way_directions(
    out: &mut EntityHashMap<Vec2>,
    one_way: &Query<(Entity, &OneWay)>,
    transforms: &Query<(&Transform, Option<&ChildOf>)>,
) {
    out.clear();
    for (entity, &OneWay(direction)) in one_way {
        let world = world_plane(entity, transforms)
            .ok()
            .and_then(|plane| (plane.matrix2 * *direction).try_normalize())
            .unwrap_or(*direction);
        out.insert(entity, world);
    }
}

/// Replaces entry `answer.entry` by the pieces of its path (the first in its place, the
/// others at the end), with their bounds; returns each piece's entry.
fn put_pieces(motions: &mut Motions, answer: &Answer) -> Vec<Option<u32>> {
    let mut slots = Vec::with_capacity(answer.pieces.len());
    let i = answer.entry as usize;
    let entry = motions.entries.list[i];
    let last = answer.pieces.len() - 1;
    for (k, &(window, start, end)) in answer.pieces.iter().enumerate() {
        let Some(path) = ShapePath::between(start, end).filter(ShapePath::is_valid) else {
            slots.push(None);
            continue;
        };
        let bounds = inflate(path.swept_bounds());
        let piece = entry.piece(k as u32, k == last);
        if k == 0 {
            motions.entries.replace(i, piece, &path);
            motions.entries.set_window(i, window);
            motions.bounds[i] = bounds;
            slots.push(Some(i as u32));
        } else {
            let at = motions.entries.len();
            slots.push(Some(at as u32));
            motions.entries.push(piece, &path);
            motions.entries.set_window(at, window);
            motions.bounds.push(bounds);
        }
    }
    slots
}

/// One responder's real path over the tick, if it hits something or must be pushed out.
fn answer(i: u32, ask: &Ask, world: World) -> Option<Answer> {
    let dt = ask.duration;
    let path = &ask.path;
    let straight = if dt > 0.0 {
        path.displacement(None) / dt
    } else {
        Vec2::ZERO
    };
    // Its velocity along its path, and the same answered from its `Velocity` (which the path
    // follows up to rounding).
    let mut velocity = straight;
    let mut user = ask.velocity;
    // When it is, how far off its straight path, and its shape then.
    let (mut t, mut offset) = (0.0_f32, Vec2::ZERO);
    let mut start = path.at(0.0);
    let mut pieces = Vec::new();
    let mut normals = Vec::new();
    let mut contacts = Vec::new();
    loop {
        // Too many hits: it stays where it is for the rest of the tick.
        if normals.len() >= MOST_HITS {
            pieces.push(([t, 1.0], start, start));
            break;
        }
        let end = path
            .at(1.0)
            .translated(offset + (velocity - straight) * (1.0 - t) * dt);
        let Some(sub) = ShapePath::between(start, end).filter(ShapePath::is_valid) else {
            pieces.push(([t, 1.0], start, start));
            break;
        };
        let Some(Hit {
            s,
            normal,
            solid,
            slot,
        }) = first_block(ask, &sub, t, world)
        else {
            pieces.push(([t, 1.0], start, end));
            break;
        };
        let when = t + s * (1.0 - t);
        let at = sub.at(s);
        if when > t {
            pieces.push(([t, when], start, at));
        }
        // The piece that meets the solid: the one that ends here, or at the very start, the
        // one that starts here.
        contacts.push((pieces.len().max(1) - 1, slot, when));
        offset += (velocity - straight) * (when - t) * dt;
        // The solid's velocity at the contact.
        let solid = if dt > 0.0 { solid / dt } else { Vec2::ZERO };
        let answered = |velocity: Vec2| {
            let relative = velocity - solid;
            let into = relative.dot(normal).min(0.0);
            match ask.answering {
                Answering::Bounce(restitution) => velocity - (1.0 + restitution) * into * normal,
                Answering::Slide => velocity - into * normal,
                // It moves with the solid: no velocity relative to it.
                Answering::Stop => velocity - relative,
            }
        };
        user = answered(user);
        velocity = answered(velocity);
        normals.push(normal);
        (t, start) = (when, at);
        if t >= 1.0 {
            break;
        }
    }
    let hit = !normals.is_empty();
    // Where its straight path ended, and where its real one does.
    let straight_end = path.at(1.0);
    let mut end = pieces.last().map_or(straight_end, |p| p.2);
    let pushed = push_out(ask, &mut end, world);
    if !hit && !pushed {
        return None;
    }
    if pieces.is_empty() {
        pieces.push(([0.0, 1.0], path.at(0.0), end));
    } else if let Some(last) = pieces.last_mut() {
        last.2 = end;
    }
    Some(Answer {
        entry: i,
        moved: center_of(&end) - center_of(&straight_end),
        pieces,
        velocity: user,
        hit,
        normals,
        contacts,
        bounces: matches!(ask.answering, Answering::Bounce(_)),
    })
}

/// A shape's reference point: what moves with its translation.
fn center_of(shape: &Shape) -> Vec2 {
    match *shape {
        Shape::Point(p) => p,
        Shape::Segment(a, _) => a,
        Shape::Circle { center, .. } | Shape::Aabb { center, .. } => center,
        Shape::Convex(c) => c.vertices()[0],
    }
}

/// The first contact that blocks a responder on `sub` (its path from `t` to the end of the
/// tick).
struct Hit {
    /// When, as a fraction of `sub`.
    s: f32,
    /// The normal, from the solid towards the responder.
    normal: Vec2,
    /// How far the solid's point at the contact moves over the whole tick.
    solid: Vec2,
    /// The solid's entry.
    slot: Slot,
}

/// The first contact of `sub` (the responder's path from `t` on) with a solid that blocks
/// it: moving into the solid (a contact it starts in while moving away or along is not one),
/// and for a one-way solid, moving against its direction having started the tick wholly on
/// its side. Ties go to the smaller entity, then edge.
fn first_block(ask: &Ask, sub: &ShapePath, t: f32, world: World) -> Option<Hit> {
    let (mover, path) = (&ask.entry, &ask.path);
    let bounds = inflate(sub.swept_bounds());
    // Rounding's share of a motion over the path: a few ulps of its coordinates.
    let noise = bounds.min.abs().max(bounds.max.abs()).max_element() * (1.0 / (1 << 21) as f32);
    let mut best: Option<(f32, Entity, u32, Hit)> = None;
    let mut consider = |slot: Slot| {
        let solid = world.entries.entry(slot);
        if !solid.blocks() || !mover.interacts_with(solid) {
            return;
        }
        let full = world.entries.path(slot);
        if ask.character && full.is_still() {
            return;
        }
        let along = restrict(&full, world.entries.window(slot), [t, 1.0]);
        let direction = if solid.one_way() {
            let Some(&d) = world.one_way.get(&solid.entity) else {
                return;
            };
            // Only a mover that started the tick wholly on its side.
            if !wholly_beyond(&path.at(0.0), &full.at(0.0), d) {
                return;
            }
            Some(d)
        } else {
            None
        };
        for &[s, _] in contact_intervals_of_valid(sub, &along).iter() {
            if best.as_ref().is_some_and(|b| b.0 < s) {
                return;
            }
            let w = witness(sub, &along, s, false);
            let relative = w.relative_motion;
            let normal = direction.unwrap_or(w.normal);
            // Into the solid, beyond rounding (sliding along it is not, nor moving with it:
            // a relative motion of a few ulps of the coordinates is rounding's).
            let into = relative.dot(normal) < -(1e-5 * relative.length() + noise)
                && direction.is_none_or(|d| relative.dot(d) < 0.0);
            if !into {
                continue;
            }
            let key = (s, solid.entity, solid.edge());
            if best.as_ref().is_none_or(|b| key < (b.0, b.1, b.2)) {
                let moves = material_motion(&full, w.feature_b, w.along_b);
                let hit = Hit {
                    s,
                    normal,
                    solid: moves,
                    slot,
                };
                best = Some((s, solid.entity, solid.edge(), hit));
            }
            return;
        }
    };
    world.index.broad.query(&bounds, |k| {
        consider(Slot::swept(world.solids[world.index.entry(k) as usize]));
    });
    if !ask.character {
        world.resting.broad.query(&bounds, |k| {
            consider(Slot::resting(world.resting.entry(k)));
        });
    }
    best.map(|(.., hit)| hit)
}

/// `true` if `mover` lies wholly on the side of `solid` that `d` points to (to rounding).
pub(crate) fn wholly_beyond(mover: &Shape, solid: &Shape, d: Vec2) -> bool {
    let reach = |shape: &Shape, sign: f32| {
        let c: ConvexShape = as_convex(shape);
        c.vertices()
            .iter()
            .map(|v| sign * v.dot(d))
            .fold(f32::NEG_INFINITY, f32::max)
            + c.radius()
    };
    let top = reach(solid, 1.0);
    let bottom = -reach(mover, -1.0);
    let scale = top.abs().max(bottom.abs()).max(1.0);
    bottom >= top - 1e-4 * scale
}

/// Pushes `end` out of the solids it overlaps at the end of the tick, along the shortest way
/// (at most `max_push`, and a few times over, for a shape between several); one-way solids
/// are left out (a mover may be inside one while it passes through). Returns whether it
/// moved.
fn push_out(ask: &Ask, end: &mut Shape, world: World) -> bool {
    let mover = &ask.entry;
    let mut moved = false;
    let mut budget = ask.max_push;
    for _ in 0..PUSHES {
        let still = ShapePath::still(*end);
        let bounds = inflate(still.swept_bounds());
        let mut deepest: Option<(f32, Vec2, Entity)> = None;
        let mut consider = |slot: Slot| {
            let solid = world.entries.entry(slot);
            if !solid.blocks() || solid.one_way() || !mover.interacts_with(solid) || solid.passed()
            {
                return;
            }
            let there = world.entries.path(slot).end();
            if let Some(p) = penetration(end, &there)
                && p.depth > ask.tolerance
                && deepest.is_none_or(|(d, _, e)| (p.depth, solid.entity) > (d, e))
            {
                deepest = Some((p.depth, p.direction, solid.entity));
            }
        };
        world.index.broad.query(&bounds, |k| {
            consider(Slot::swept(world.solids[world.index.entry(k) as usize]));
        });
        world.resting.broad.query(&bounds, |k| {
            consider(Slot::resting(world.resting.entry(k)));
        });
        let Some((depth, direction, _)) = deepest else {
            break;
        };
        // A little past the depth, so that rounding leaves it outside.
        let c = center_of(end);
        let margin = (c.abs().max_element() + depth) * (1.0 / (1 << 22) as f32) + 1e-7;
        let step = (depth + margin).min(budget);
        if step.is_nan() || step <= 0.0 {
            break;
        }
        budget -= step;
        *end = end.translated(direction * step);
        moved = true;
    }
    moved
}
