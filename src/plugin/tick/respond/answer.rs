//! One responder's answer: its path from hit to hit over the tick, and the push out of
//! what it overlaps at the end.

use super::{Answer, Ask, MOST_HITS, Obstacles};
use crate::narrow::{
    PathKey, Penetration, Shape, ShapePath, Witness, as_convex, contact_intervals_of_valid,
    contact_normal, material_motion, on_exits, ordered, path_key, penetration_through, witness,
};
use crate::plugin::answer::{Answering, answer_velocity};
use crate::plugin::character::Piece;
use crate::plugin::tick::entries::{Slot, restrict};
use crate::plugin::tick::shapes::{inflate, wholly_beyond};
use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use bevy::math::bounding::Aabb2d;

/// One responder's real path over the tick, if it hits something or must be pushed out:
/// its trip among the solids alone.
pub(super) fn answer(i: u32, ask: &Ask, world: Obstacles) -> Option<Answer> {
    let mut trip = Trip::new(ask);
    while let Some((when, hit)) = trip.next_block(ask, world) {
        if !trip.hit_solid(ask, when, &hit) {
            break;
        }
    }
    trip.finish(i, ask, world)
}

/// What a responder hit: a solid (its entry), or another mover (its place in the list of
/// movers of the tick).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Met {
    Solid(Slot),
    Mover(u32),
}

/// A responder's path from hit to hit, as far as it has been followed: the pieces between
/// its hits, the normals it was answered along, each hit (the piece that meets the solid,
/// the solid, when), and its velocities as answered. It moves on from `start` at `t` with
/// `velocity` to the end of the tick, unless it has `stopped` (too many hits, or an answer
/// not finite): then it stays at `start`.
#[derive(Clone, Debug)]
pub(super) struct Trip {
    /// Its velocity along its straight path, over the whole tick.
    straight: Vec2,
    /// Its velocity along its path as answered, and the same answered from its `Velocity`
    /// (which the path follows up to rounding).
    pub(super) velocity: Vec2,
    pub(super) user: Vec2,
    /// When it is, how far off its straight path, and its shape then.
    pub(super) t: f32,
    offset: Vec2,
    pub(super) start: Shape,
    pub(super) pieces: Vec<Piece>,
    pub(super) normals: Vec<Vec2>,
    pub(super) contacts: Vec<(usize, Slot, f32)>,
    /// The last hit answered: what it met, and the normal.
    pub(super) last: Option<(Met, Vec2)>,
    /// It stays where it is to the end of the tick.
    pub(super) stopped: bool,
}

impl Trip {
    /// A responder's trip before its first hit.
    pub(super) fn new(ask: &Ask) -> Self {
        let dt = ask.duration;
        let straight = if dt > 0.0 {
            ask.path.displacement(None) / dt
        } else {
            Vec2::ZERO
        };
        Self {
            straight,
            velocity: straight,
            user: ask.velocity,
            t: 0.0,
            offset: Vec2::ZERO,
            start: ask.path.at(0.0),
            pieces: Vec::new(),
            normals: Vec::new(),
            contacts: Vec::new(),
            last: None,
            stopped: false,
        }
    }

    /// Where it would be at the end of the tick, going on as it goes now.
    fn end(&self, ask: &Ask) -> Shape {
        if self.stopped {
            return self.start;
        }
        ask.path.at(1.0).translated(
            self.offset + (self.velocity - self.straight) * (1.0 - self.t) * ask.duration,
        )
    }

    /// Its path from `t` to the end of the tick (still if it has stopped); `None` if it
    /// cannot be swept.
    pub(super) fn rest(&self, ask: &Ask) -> Option<ShapePath> {
        if self.stopped {
            return Some(ShapePath::still(self.start));
        }
        ShapePath::between(self.start, self.end(ask)).filter(ShapePath::is_valid)
    }

    /// Stays where it is for the rest of the tick.
    pub(super) fn stop(&mut self) {
        if !self.stopped {
            self.pieces.push(([self.t, 1.0], self.start, self.start));
            self.stopped = true;
        }
    }

    /// Its next contact with a solid that blocks it, and when in the tick; `None` if none
    /// (or it has stopped: too many hits, or a path that cannot be swept, ends its trip).
    pub(super) fn next_block(&mut self, ask: &Ask, world: Obstacles) -> Option<(f32, Hit)> {
        // Too many hits: it stays where it is for the rest of the tick.
        if self.normals.len() >= MOST_HITS {
            self.stop();
        }
        if self.stopped || self.t >= 1.0 {
            return None;
        }
        let Some(sub) = self.rest(ask) else {
            self.stop();
            return None;
        };
        let last = match self.last {
            Some((Met::Solid(slot), n)) => Some((slot, n)),
            _ => None,
        };
        let hit = first_block(ask, &sub, self.t, last, world)?;
        Some((self.t + hit.s * (1.0 - self.t), hit))
    }

    /// Moves on along its path to `when` (a moment not before `t`).
    pub(super) fn advance(&mut self, ask: &Ask, when: f32) {
        if self.stopped || when <= self.t {
            return;
        }
        let Some(sub) = self.rest(ask) else {
            self.stop();
            return;
        };
        let at = sub.at((when - self.t) / (1.0 - self.t));
        self.go_to(ask, when, at);
    }

    /// Moves on to where it meets the solid of `hit`, at `when`.
    pub(super) fn arrive(&mut self, ask: &Ask, when: f32, hit: &Hit) {
        if self.stopped {
            return;
        }
        let Some(sub) = self.rest(ask) else {
            self.stop();
            return;
        };
        self.go_to(ask, when, sub.at(hit.s));
    }

    /// Moves on to `at`, its place on its path at `when`.
    fn go_to(&mut self, ask: &Ask, when: f32, at: Shape) {
        if when > self.t {
            self.pieces.push(([self.t, when], self.start, at));
        }
        self.offset += (self.velocity - self.straight) * (when - self.t) * ask.duration;
        (self.t, self.start) = (when, at);
    }

    /// Answers the hit on a solid at `when`; `false` if its trip ends there (an answer too
    /// large for `f32`, or the end of the tick).
    pub(super) fn hit_solid(&mut self, ask: &Ask, when: f32, hit: &Hit) -> bool {
        let dt = ask.duration;
        let Some(sub) = self.rest(ask) else {
            self.stop();
            return false;
        };
        self.go_to(ask, when, sub.at(hit.s));
        // The piece that meets the solid: the one that ends here, or at the very start, the
        // one that starts here.
        self.contacts
            .push((self.pieces.len().max(1) - 1, hit.slot, when));
        // The solid's velocity at the contact.
        let solid = if dt > 0.0 { hit.solid / dt } else { Vec2::ZERO };
        self.answered(ask, Met::Solid(hit.slot), hit.normal, [solid; 2])
    }

    /// Takes the answer to a hit at `t` along `normal`, against what moves at `other` (its
    /// velocity along its path, and as answered from its `Velocity`); `false` if its trip
    /// ends there.
    pub(super) fn answered(&mut self, ask: &Ask, met: Met, normal: Vec2, other: [Vec2; 2]) -> bool {
        let answer = |velocity, other| answer_velocity(velocity, other, normal, ask.answering);
        self.take(
            met,
            normal,
            answer(self.user, other[1]),
            answer(self.velocity, other[0]),
        )
    }

    /// Takes new velocities (its `Velocity`'s and its path's) after a hit with `met` along
    /// `normal`; `None` (an answer too large for `f32`, a restitution near its limit against
    /// a fast solid) stops it there. `false` if its trip ends there.
    pub(super) fn take(
        &mut self,
        met: Met,
        normal: Vec2,
        user: Option<Vec2>,
        velocity: Option<Vec2>,
    ) -> bool {
        self.normals.push(normal);
        self.last = Some((met, normal));
        let (Some(u), Some(v)) = (user, velocity) else {
            self.stop();
            return false;
        };
        (self.user, self.velocity) = (u, v);
        self.t < 1.0
    }

    /// The answer its trip makes: its pieces to the end of the tick and the push out of
    /// what it overlaps there; `None` if it hit nothing and is not pushed.
    pub(super) fn finish(mut self, i: u32, ask: &Ask, world: Obstacles) -> Option<Answer> {
        if !self.stopped && self.t < 1.0 {
            let end = self.end(ask);
            self.pieces.push(([self.t, 1.0], self.start, end));
        }
        let Trip {
            mut pieces,
            normals,
            contacts,
            user,
            ..
        } = self;
        let path = &ask.path;
        let hit = !normals.is_empty();
        // Where its straight path ended, and where its real one does.
        let straight_end = path.at(1.0);
        let mut end = pieces.last().map_or(straight_end, |p| p.2);
        let pushed = push_out(ask, &mut end, world);
        if !hit && !ask.walk.is_empty() {
            // Nothing that moves met a character: its path is its walk's pieces.
            pieces.clone_from(&ask.walk);
        } else if !hit && !pushed {
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
            stops: ask.answering == Answering::Stop,
        })
    }
}

impl Answer {
    /// The answer of a responder that nothing answered, but that is moved at the end of the
    /// tick: its straight path, or a character's walk.
    pub(super) fn unanswered(i: u32, ask: &Ask) -> Self {
        let pieces = if ask.walk.is_empty() {
            vec![([0.0, 1.0], ask.path.at(0.0), ask.path.at(1.0))]
        } else {
            ask.walk.clone()
        };
        Self {
            entry: i,
            pieces,
            moved: Vec2::ZERO,
            velocity: ask.velocity,
            hit: false,
            normals: Vec::new(),
            contacts: Vec::new(),
            bounces: matches!(ask.answering, Answering::Bounce(_)),
            stops: ask.answering == Answering::Stop,
        }
    }

    /// Where it ends the tick.
    pub(super) fn end(&self) -> Option<Shape> {
        self.pieces.last().map(|p| p.2)
    }

    /// Moves where it ends the tick by `by`, and then out of the solids it overlaps there.
    pub(super) fn shift(&mut self, by: Vec2, ask: &Ask, world: Obstacles) {
        let Some(last) = self.pieces.last_mut() else {
            return;
        };
        let before = last.2;
        let mut end = before.translated(by);
        push_out(ask, &mut end, world);
        last.2 = end;
        self.moved += center_of(&end) - center_of(&before);
    }
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
#[derive(Clone, Copy)]
pub(super) struct Hit {
    /// When, as a fraction of `sub`.
    s: f32,
    /// The normal, from the solid towards the responder.
    pub(super) normal: Vec2,
    /// How far the solid's point at the contact moves over the whole tick.
    pub(super) solid: Vec2,
    /// The solid's entry.
    pub(super) slot: Slot,
}

/// The first contact of `sub` (the responder's path from `t` on) with a solid that blocks
/// it: moving into the solid (a contact it starts in while moving away or along is not one,
/// nor one with `last`, the solid it was just answered at, along whose normal it leaves),
/// and for a one-way solid, moving against its direction having started the tick wholly on
/// its side.
fn first_block(
    ask: &Ask,
    sub: &ShapePath,
    t: f32,
    last: Option<(Slot, Vec2)>,
    world: Obstacles,
) -> Option<Hit> {
    let bounds = inflate(sub.swept_bounds());
    // Rounding's share of a motion over the path: a few ulps of its coordinates (of its whole
    // path in the tick, where its start on `sub`, a place at an answered hit, was computed).
    let whole = ask.path.swept_bounds();
    let largest = |b: Aabb2d| b.min.abs().max(b.max.abs()).max_element();
    let probe = Probe {
        ask,
        sub,
        t,
        last,
        world,
        noise: largest(bounds).max(largest(whole)) * (1.0 / (1 << 21) as f32),
        // How far it goes on `sub`: a contact within `noise` of its start is where it starts.
        reach: (bounds.max - bounds.min).max_element(),
    };
    let mut best: Option<(HitKey, Hit)> = None;
    world.index.broad.query(&bounds, |k| {
        probe.consider(
            Slot::swept(world.solids[world.index.entry(k) as usize]),
            &mut best,
        );
    });
    if !ask.character {
        world.resting.broad.query(&bounds, |k| {
            probe.consider(Slot::resting(world.resting.entry(k)), &mut best);
        });
    }
    best.map(|(_, hit)| hit)
}

/// One search for a responder's first block: its path from `t` on (`sub`), the solid it
/// was last answered at, and rounding's share of its motion (`noise`) against how far it
/// goes (`reach`).
struct Probe<'a> {
    ask: &'a Ask,
    sub: &'a ShapePath,
    t: f32,
    last: Option<(Slot, Vec2)>,
    world: Obstacles<'a>,
    noise: f32,
    reach: f32,
}

impl Probe<'_> {
    /// Keeps in `best` the first contact with the solid in `slot` that blocks, if it comes
    /// before the one kept.
    fn consider(&self, slot: Slot, best: &mut Option<(HitKey, Hit)>) {
        let (mover, path, world, t) = (&self.ask.entry, &self.ask.path, self.world, self.t);
        let solid = world.entries.entry(slot);
        if !solid.blocks() || !mover.interacts_with(solid) {
            return;
        }
        let full = world.entries.path(slot);
        if self.ask.character && full.is_still() {
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
        for &[s, _] in contact_intervals_of_valid(self.sub, &along).iter() {
            if best.as_ref().is_some_and(|b| b.0.0 < s) {
                return;
            }
            let w = witness(self.sub, &along, s, false);
            // A one-way concave polygon blocks on its outline only: inside it, a mover meets
            // its pieces' diagonals, and passes them.
            if direction.is_some() {
                let exits = world
                    .composites
                    .exits(solid.entity, solid.chain().then(|| solid.edge()));
                let vertices = as_convex(&along.at(s)).vertices().len();
                if !on_exits(w.feature_b, exits, vertices) {
                    continue;
                }
            }
            let relative = w.relative_motion;
            let (free, corner) = self.normal_at(slot, s, &along, &w);
            // Into the solid, beyond rounding (sliding along it is not, nor moving with it:
            // a relative motion of a few ulps of the coordinates is rounding's).
            // For a one-way solid, against its direction too.
            let into = relative.dot(free) < -(1e-5 * relative.length() + self.noise)
                && direction.is_none_or(|d| relative.dot(d) < 0.0);
            if !into {
                continue;
            }
            // Blocked at two corners, it is answered along the normal that opposes its
            // motion least: the smallest change that lets it on (a box landing at a seam
            // lands on the floor, not on the corner's diagonal). Contacts with one normal
            // come first; then, whatever the entities' numbers, by the normal and by where
            // the solid is; then by entity and edge.
            let key = (
                s,
                corner,
                ordered(free),
                path_key(&full),
                solid.entity,
                solid.edge(),
            );
            if best.as_ref().is_none_or(|b| key < b.0) {
                let hit = Hit {
                    s,
                    normal: free,
                    solid: material_motion(&full, w.feature_b, w.along_b),
                    slot,
                };
                *best = Some((key, hit));
            }
            return;
        }
    }

    /// The normal the contact with `slot` at `s` of `sub` is answered along, and whether it
    /// was a choice among a corner's. At a sharp corner of the solid, the normals the solid
    /// and those flush with it there allow, and the one that lets the motion on if one does.
    /// Leaving the solid it was just answered at, the side it is on is the one it was
    /// answered on (a point on a thin segment has no side of its own, and its place at the
    /// answer, rounded, may be a few ulps across the line).
    fn normal_at(&self, slot: Slot, s: f32, along: &ShapePath, w: &Witness) -> (Vec2, bool) {
        match self.last {
            Some((hit, n)) if hit == slot && s * self.reach <= self.noise => (n, false),
            _ => {
                let when = self.t + s * (1.0 - self.t);
                let mover = &self.ask.entry;
                contact_normal(
                    &self.sub.at(s),
                    &along.at(s),
                    w.point,
                    w.normal,
                    w.relative_motion,
                    |at, near| self.world.solids_at(mover, slot, when, at, near),
                )
            }
        }
    }
}

/// How a responder's hits at one moment are ordered: the moment, whether the contact's
/// normal was a choice, the normal, where the solid is, the solid's entity and edge.
type HitKey = (f32, bool, (i32, i32), PathKey, Entity, u32);

/// Pushes `end` out of the solids it overlaps at the end of the tick, along the shortest way
/// (at most `max_push`, and a few times over, for a shape between several); one-way solids
/// are left out (a mover may be inside one while it passes through). Returns whether it
/// moved.
fn push_out(ask: &Ask, end: &mut Shape, world: Obstacles) -> bool {
    let mover = &ask.entry;
    let start = *end;
    let deepest = |moved: Vec2| {
        let shape = start.translated(moved);
        let bounds = inflate(ShapePath::still(shape).swept_bounds());
        let mut deepest: Option<(Penetration, f32, Entity)> = None;
        let mut consider = |slot: Slot| {
            let solid = world.entries.entry(slot);
            if !solid.blocks() || solid.one_way() || !mover.interacts_with(solid) || solid.passed()
            {
                return;
            }
            let there = world.entries.path(slot).end();
            // Out of a concave polygon's piece through the outline only.
            let exits = world
                .composites
                .exits(solid.entity, solid.chain().then(|| solid.edge()));
            if let Some((p, overlap)) = penetration_through(&shape, &there, exits)
                && overlap > ask.tolerance
                && deepest.is_none_or(|(_, o, e)| (overlap, solid.entity) > (o, e))
            {
                deepest = Some((p, overlap, solid.entity));
            }
        };
        world.index.broad.query(&bounds, |k| {
            consider(Slot::swept(world.solids[world.index.entry(k) as usize]));
        });
        world.resting.broad.query(&bounds, |k| {
            consider(Slot::resting(world.resting.entry(k)));
        });
        deepest.map(|(p, ..)| p)
    };
    let moved = crate::plugin::answer::push_out(center_of(&start), ask.max_push, deepest);
    *end = start.translated(moved);
    moved != Vec2::ZERO
}
