//! Movers that meet each other, answered in the order of their moments.
//!
//! Each responder's trip among the solids alone is found first, in parallel
//! ([`answer`](super::answer::answer)). Movers whose trips come near no other mover's keep
//! them. The others (a *crowd*) are followed together, as event-driven simulation does
//! (hard-sphere molecular dynamics): each mover's next hit on a solid, and the first
//! meeting of each pair near each other, sit in a priority queue by their moment. The first
//! is answered; the movers it answered are swept again from there, against the solids and
//! against each other; the events of those movers planned before are dropped (each mover
//! has a version, and an event holds the versions it was planned with). A crowd whose
//! movers' paths end near a mover outside it takes that mover in, and is followed again
//! from the start of the tick, until no mover outside comes near.
//!
//! Simultaneous events are answered in an order that depends only on the movers' paths:
//! their moment, then where each mover's path starts and ends (and only for movers on the
//! very same path, their entities).
//!
//! Two movers that can be pushed exchange momentum ([`exchange`]); a mover that cannot
//! (a `Stop`, a character, an infinite [`Mass`](crate::prelude::Mass)) is to one that can a
//! solid moving with its velocity, and two that cannot each answer the other by their own
//! rule, as a solid moving with its velocity less the part that goes into them: they are
//! not pushed, so two characters walking into each other both stop.

use super::answer::{Met, Trip};
use super::{Answer, Ask, MOST_HITS, Obstacles, Push};
use crate::narrow::{
    PathKey, ShapePath, contact_intervals_of_valid, contact_normal, path_key, witness,
};
use crate::plugin::answer::answer_velocity;
use crate::plugin::tick::entries::BoxIndex;
use crate::plugin::tick::shapes::inflate;
use bevy::ecs::entity::Entity;
use bevy::math::bounding::{Aabb2d, BoundingVolume, IntersectsVolume};
use bevy::math::{DVec2, Vec2};
use core::cmp::Reverse;
use std::collections::BinaryHeap;

/// Two movers met: their entries, and when.
pub(super) type Meeting = (u32, u32, f32);

/// Answers the movers that meet each other: `answers[k]` is `asks[k]`'s trip among the
/// solids alone (`None` if it hit nothing and was not pushed), and is replaced for every
/// mover of a crowd. Returns the meetings answered, in order.
pub(super) fn meet(
    asks: &[(u32, Ask)],
    answers: &mut [Option<Answer>],
    bounds: &[Aabb2d],
    world: Obstacles,
) -> Vec<Meeting> {
    let mut meetings = Vec::new();
    if asks.len() < 2 {
        return meetings;
    }
    // Where each mover goes in the tick, as its trip among the solids has it.
    let reach = |k: usize, answers: &[Option<Answer>]| match &answers[k] {
        Some(answer) => answer
            .pieces
            .iter()
            .filter_map(|&(_, start, end)| ShapePath::between(start, end))
            .map(|path| inflate(path.swept_bounds()))
            .reduce(|a, b| a.merge(&b))
            .unwrap_or(bounds[asks[k].0 as usize]),
        None => bounds[asks[k].0 as usize],
    };
    let solo: Vec<Aabb2d> = (0..asks.len()).map(|k| reach(k, answers)).collect();
    let mut index = BoxIndex::default();
    index.build(&solo);
    let mut crowd = vec![false; asks.len()];
    for k in 0..asks.len() {
        index.broad.query(&solo[k], |n| {
            let n = index.entry(n) as usize;
            if n != k && may_meet(&asks[k].1, &asks[n].1) {
                crowd[k] = true;
                crowd[n] = true;
            }
        });
    }
    loop {
        let members: Vec<usize> = (0..asks.len()).filter(|&k| crowd[k]).collect();
        if members.is_empty() {
            return meetings;
        }
        let mut run = Crowd::new(asks, &members, world);
        run.follow();
        meetings.clear();
        meetings.extend(
            run.met
                .iter()
                .map(|&(a, b, when)| (asks[members[a]].0, asks[members[b]].0, when)),
        );
        for (m, trip) in run.trips.into_iter().enumerate() {
            let k = members[m];
            answers[k] = trip.finish(asks[k].0, &asks[k].1, world);
        }
        // A mover outside the crowd that a crowd's mover now comes near joins it.
        let mut grown = false;
        for &k in &members {
            let now = reach(k, answers);
            index.broad.query(&now, |n| {
                let n = index.entry(n) as usize;
                if !crowd[n] && solo[n].intersects(&now) && may_meet(&asks[k].1, &asks[n].1) {
                    crowd[n] = true;
                    grown = true;
                }
            });
        }
        if !grown {
            return meetings;
        }
    }
}

/// `true` if two movers answer each other: their layers interact, they are not of one
/// body, and neither is a sensor.
fn may_meet(a: &Ask, b: &Ask) -> bool {
    a.entry.interacts_with(&b.entry) && !a.entry.sensor() && !b.entry.sensor()
}

/// What happens next in a crowd.
#[derive(Clone, Copy)]
enum Event {
    /// A mover (with its version) hits a solid.
    Block(usize, u32, super::answer::Hit),
    /// Two movers (with their versions) meet, along a normal from the second towards the
    /// first.
    Meet([usize; 2], [u32; 2], Vec2),
}

/// The order of events: the moment (as ordered bits: moments are not negative), then the
/// movers' paths (and, for movers on one path, their entities), then the event's number.
type EventKey = (u32, (PathKey, Entity), (PathKey, Entity), usize);

/// A crowd of movers followed together through the tick.
struct Crowd<'a> {
    asks: Vec<&'a Ask>,
    world: Obstacles<'a>,
    /// Each mover's place in the order of simultaneous events.
    keys: Vec<(PathKey, Entity)>,
    trips: Vec<Trip>,
    versions: Vec<u32>,
    /// Each mover's path from where it is to the end of the tick, bounded; the bounds the
    /// index was built over; the movers whose path has left those.
    bounds: Vec<Aabb2d>,
    indexed: Vec<Aabb2d>,
    index: BoxIndex,
    outside: Vec<usize>,
    events: Vec<Event>,
    queue: BinaryHeap<Reverse<EventKey>>,
    /// The meetings answered: the movers and when.
    met: Vec<(usize, usize, f32)>,
}

impl<'a> Crowd<'a> {
    fn new(asks: &'a [(u32, Ask)], members: &[usize], world: Obstacles<'a>) -> Self {
        let asks: Vec<&Ask> = members.iter().map(|&k| &asks[k].1).collect();
        let trips: Vec<Trip> = asks.iter().map(|ask| Trip::new(ask)).collect();
        let bounds: Vec<Aabb2d> = asks
            .iter()
            .map(|ask| inflate(ask.path.swept_bounds()))
            .collect();
        let mut index = BoxIndex::default();
        index.build(&bounds);
        Self {
            keys: asks
                .iter()
                .map(|ask| (path_key(&ask.path), ask.entry.entity))
                .collect(),
            versions: vec![0; asks.len()],
            indexed: bounds.clone(),
            bounds,
            index,
            outside: Vec::new(),
            events: Vec::new(),
            queue: BinaryHeap::new(),
            met: Vec::new(),
            trips,
            asks,
            world,
        }
    }

    /// Follows the crowd to the end of the tick.
    fn follow(&mut self) {
        for m in 0..self.asks.len() {
            self.plan_block(m);
        }
        for m in 0..self.asks.len() {
            let mut near = Vec::new();
            self.near(m, &mut near);
            for n in near.into_iter().filter(|&n| n > m) {
                self.plan_meeting(m, n);
            }
        }
        while let Some(Reverse((when, .., event))) = self.queue.pop() {
            let when = f32::from_bits(when);
            match self.events[event] {
                Event::Block(m, version, hit) => {
                    if self.versions[m] == version {
                        self.trips[m].hit_solid(self.asks[m], when, &hit);
                        self.changed(&[m]);
                    }
                }
                Event::Meet([a, b], versions, normal) => {
                    if [self.versions[a], self.versions[b]] == versions {
                        let answered = self.answer_meeting(a, b, when, normal);
                        self.changed(&answered);
                    }
                }
            }
        }
    }

    /// The movers whose paths may come near mover `m`'s from where they are.
    fn near(&self, m: usize, out: &mut Vec<usize>) {
        let bounds = self.bounds[m];
        self.index.broad.query(&bounds, |k| {
            let n = self.index.entry(k) as usize;
            if n != m && self.bounds[n].intersects(&bounds) {
                out.push(n);
            }
        });
        out.extend(
            self.outside
                .iter()
                .copied()
                .filter(|&n| n != m && self.bounds[n].intersects(&bounds)),
        );
        out.sort_unstable();
        out.dedup();
    }

    /// The movers in `answered` changed course: their planned events are dropped, and their
    /// next ones planned.
    fn changed(&mut self, answered: &[usize]) {
        for &m in answered {
            self.versions[m] += 1;
            self.bounds[m] = self.trips[m]
                .rest(self.asks[m])
                .map_or(self.bounds[m], |p| inflate(p.swept_bounds()));
            if !self.indexed[m].contains(&self.bounds[m]) && !self.outside.contains(&m) {
                self.outside.push(m);
            }
        }
        let mut near = Vec::new();
        for &m in answered {
            self.plan_block(m);
            near.clear();
            self.near(m, &mut near);
            for &n in &near {
                // A pair of two answered movers is planned once.
                if !answered.contains(&n) || n > m {
                    self.plan_meeting(m, n);
                }
            }
        }
    }

    fn push(&mut self, when: f32, first: usize, second: usize, event: Event) {
        let key = (
            when.to_bits(),
            self.keys[first],
            self.keys[second],
            self.events.len(),
        );
        self.events.push(event);
        self.queue.push(Reverse(key));
    }

    /// Plans mover `m`'s next hit on a solid.
    fn plan_block(&mut self, m: usize) {
        if let Some((when, hit)) = self.trips[m].next_block(self.asks[m], self.world) {
            self.push(when, m, m, Event::Block(m, self.versions[m], hit));
        }
    }

    /// Plans the first meeting of movers `m` and `n` from where they are, if they meet.
    fn plan_meeting(&mut self, m: usize, n: usize) {
        if !may_meet(self.asks[m], self.asks[n]) {
            return;
        }
        // The pair in a fixed order, whatever the order they were found in.
        let (a, b) = if self.keys[m] <= self.keys[n] {
            (m, n)
        } else {
            (n, m)
        };
        let (ta, tb) = (&self.trips[a], &self.trips[b]);
        let from = ta.t.max(tb.t);
        if from >= 1.0 {
            return;
        }
        let (Some(pa), Some(pb)) = (
            rest_from(ta, self.asks[a], from),
            rest_from(tb, self.asks[b], from),
        ) else {
            return;
        };
        let (last_a, last_b) = (ta.last, tb.last);
        let bounds = inflate(pa.swept_bounds()).merge(&inflate(pb.swept_bounds()));
        let largest = bounds.min.abs().max(bounds.max.abs()).max_element();
        let noise = largest * (1.0 / (1 << 21) as f32);
        let reach = (bounds.max - bounds.min).max_element();
        for &[s, _] in contact_intervals_of_valid(&pa, &pb).iter() {
            let w = witness(&pa, &pb, s, false);
            // Leaving the mover it was just answered with, the side it is on is the one it
            // was answered on.
            let normal = match (last_a, last_b) {
                (Some((Met::Mover(o), n)), _) if o as usize == b && s * reach <= noise => n,
                (_, Some((Met::Mover(o), n))) if o as usize == a && s * reach <= noise => -n,
                _ => {
                    contact_normal(
                        &pa.at(s),
                        &pb.at(s),
                        w.point,
                        w.normal,
                        w.relative_motion,
                        |_, _| Vec::new(),
                    )
                    .0
                }
            };
            let relative = w.relative_motion;
            if relative.dot(normal) < -(1e-5 * relative.length() + noise) {
                let when = from + s * (1.0 - from);
                let versions = [self.versions[a], self.versions[b]];
                self.push(when, a, b, Event::Meet([a, b], versions, normal));
                return;
            }
        }
    }

    /// Answers the meeting of movers `a` and `b` at `when`, along `normal` (from `b`
    /// towards `a`); returns the movers it answered.
    fn answer_meeting(&mut self, a: usize, b: usize, when: f32, normal: Vec2) -> Vec<usize> {
        let (ask_a, ask_b) = (self.asks[a], self.asks[b]);
        let push = |m: usize| {
            if self.trips[m].stopped {
                Push::Never
            } else {
                self.asks[m].push
            }
        };
        // Each one's velocity along its path and its `Velocity`, as it moves now.
        let moving = |m: usize| {
            let trip = &self.trips[m];
            if trip.stopped {
                [Vec2::ZERO; 2]
            } else {
                [trip.velocity, trip.user]
            }
        };
        let (va, vb) = (moving(a), moving(b));
        // The new velocities of those answered (path's, `Velocity`'s).
        let mut answers: Vec<(usize, Vec2, [Option<Vec2>; 2])> = Vec::with_capacity(2);
        match (push(a), push(b)) {
            (
                Push::Pushed {
                    mass: ma,
                    restitution: ea,
                },
                Push::Pushed {
                    mass: mb,
                    restitution: eb,
                },
            ) => {
                let e = ea.max(eb);
                let [pa, pb] = [0, 1].map(|k| exchange([va[k], vb[k]], [ma, mb], e, normal));
                answers.push((a, normal, [pa.map(|p| p[0]), pb.map(|p| p[0])]));
                answers.push((b, -normal, [pa.map(|p| p[1]), pb.map(|p| p[1])]));
            }
            (Push::Pushed { .. }, Push::Never) => {
                answers.push((
                    a,
                    normal,
                    [0, 1].map(|k| answer_velocity(va[k], vb[k], normal, ask_a.answering)),
                ));
            }
            (Push::Never, Push::Pushed { .. }) => {
                answers.push((
                    b,
                    -normal,
                    [0, 1].map(|k| answer_velocity(vb[k], va[k], -normal, ask_b.answering)),
                ));
            }
            (Push::Never, Push::Never) => {
                for (m, n, mine, other) in [(a, normal, va, vb), (b, -normal, vb, va)] {
                    if self.trips[m].stopped {
                        continue;
                    }
                    let answering = self.asks[m].answering;
                    answers.push((
                        m,
                        n,
                        [0, 1].map(|k| {
                            answer_velocity(mine[k], unpushing(other[k], n), n, answering)
                        }),
                    ));
                }
            }
        }
        self.met.push((a, b, when));
        let mut answered = Vec::with_capacity(2);
        for (m, n, [path, user]) in answers {
            let other = if m == a { b } else { a };
            let trip = &mut self.trips[m];
            trip.advance(self.asks[m], when);
            trip.take(Met::Mover(other as u32), n, user, path);
            if trip.normals.len() >= MOST_HITS {
                trip.stop();
            }
            answered.push(m);
        }
        answered
    }
}

/// A trip's path from `from` (not before its `t`) to the end of the tick.
fn rest_from(trip: &Trip, ask: &Ask, from: f32) -> Option<ShapePath> {
    let rest = trip.rest(ask)?;
    if trip.stopped || from <= trip.t {
        return Some(rest);
    }
    let start = rest.at((from - trip.t) / (1.0 - trip.t));
    ShapePath::between(start, rest.end()).filter(ShapePath::is_valid)
}

/// What a mover that is not pushed sees of another that is not pushed either: its velocity
/// `u` less the part that goes into it (along `normal`, towards the mover), which would
/// push it.
fn unpushing(u: Vec2, normal: Vec2) -> Vec2 {
    let n = normal.normalize_or_zero();
    u - u.dot(n).max(0.0) * n
}

/// Two pushable movers' velocities `v` after they meet along `normal` (from the second
/// towards the first), with masses `m` and restitution `e`: the impulse
/// `j = (1 + e) (w·n) / (1/m_a + 1/m_b)` along the normal, `w` their relative velocity,
/// computed in `f64` and rounded once. `None` if the answer is not finite.
fn exchange(v: [Vec2; 2], m: [f64; 2], e: f32, normal: Vec2) -> Option<[Vec2; 2]> {
    let n = normal.as_dvec2();
    let length = n.length();
    if !(length > 0.0 && length.is_finite()) {
        return Some(v);
    }
    let n = n / length;
    let [a, b]: [DVec2; 2] = v.map(Vec2::as_dvec2);
    let into = (a - b).dot(n).min(0.0);
    let j = (1.0 + f64::from(e)) * into / (1.0 / m[0] + 1.0 / m[1]);
    let out = [(a - j / m[0] * n).as_vec2(), (b + j / m[1] * n).as_vec2()];
    out.iter().all(|v| v.is_finite()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Equal masses meeting head-on elastically swap velocities; a mass of 1 meeting a
    /// still mass of 3 leaves at −v/2 and the other at v/2.
    #[test]
    fn the_exchange_keeps_momentum_and_energy() {
        let v = Vec2::new(640.0, 0.0);
        let [a, b] = exchange([v, -v], [1.0, 1.0], 1.0, Vec2::NEG_X).unwrap();
        assert_eq!((a, b), (-v, v));
        let [a, b] = exchange([v, Vec2::ZERO], [1.0, 3.0], 1.0, Vec2::NEG_X).unwrap();
        assert_eq!((a, b), (-v / 2.0, v / 2.0));
        // Moving apart: nothing changes.
        assert_eq!(
            exchange([-v, v], [1.0, 1.0], 1.0, Vec2::NEG_X),
            Some([-v, v])
        );
    }
}
