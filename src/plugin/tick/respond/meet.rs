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
//! Movers that can be pushed and touch at one moment are answered as one group, their normal
//! velocities together ([`group`]): two alone exchange momentum; a mover that cannot
//! (a `Stop`, a character, an infinite [`Mass`](crate::prelude::Mass)) is to one that can a
//! solid moving with its velocity, and two that cannot each answer the other by their own
//! rule, as a solid moving with its velocity less the part that goes into them: they are
//! not pushed, so two characters walking into each other both stop.

use super::answer::{Met, Trip};
use super::group;
use super::{Answer, Ask, MOST_HITS, Obstacles, Push};
use crate::narrow::{
    PathKey, Shape, ShapePath, contact_intervals_of_valid, contact_normal, path_key, penetration,
    witness,
};
use crate::plugin::answer::{answer_velocity, push_margin};
use crate::plugin::tick::entries::{BoxIndex, Slot, restrict};
use crate::plugin::tick::shapes::inflate;
use bevy::ecs::entity::Entity;
use bevy::math::Vec2;
use bevy::math::bounding::{Aabb2d, BoundingVolume, IntersectsVolume};
use core::cmp::Reverse;
use std::collections::BinaryHeap;

/// Two movers met: their entries, and when.
pub(super) type Meeting = (u32, u32, f32);

/// Answers the movers that meet each other: `answers[k]` is `asks[k]`'s trip among the
/// solids alone (`None` if it hit nothing and was not pushed), and is replaced for every
/// mover of a crowd. Returns the meetings answered, in order, and how many movers were
/// followed together.
pub(super) fn meet(
    asks: &[(u32, Ask)],
    answers: &mut [Option<Answer>],
    bounds: &[Aabb2d],
    world: Obstacles,
) -> (Vec<Meeting>, usize) {
    let mut meetings = Vec::new();
    if asks.len() < 2 {
        return (meetings, 0);
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
    // Movers whose trips among the solids touch each other at some moment: only they may
    // answer each other (trips that come near but never touch keep what they found alone).
    let mut crowd = vec![false; asks.len()];
    for k in 0..asks.len() {
        index.broad.query(&solo[k], |n| {
            let n = index.entry(n) as usize;
            if n > k && may_meet(&asks[k].1, &asks[n].1) && trips_touch(asks, answers, k, n) {
                crowd[k] = true;
                crowd[n] = true;
            }
        });
    }
    loop {
        let members: Vec<usize> = (0..asks.len()).filter(|&k| crowd[k]).collect();
        if members.is_empty() {
            return (meetings, 0);
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
        // A mover outside the crowd whose trip a crowd's mover's trip now touches joins it.
        let mut grown = false;
        for &k in &members {
            let now = reach(k, answers);
            index.broad.query(&now, |n| {
                let n = index.entry(n) as usize;
                if !crowd[n]
                    && solo[n].intersects(&now)
                    && may_meet(&asks[k].1, &asks[n].1)
                    && trips_touch(asks, answers, k, n)
                {
                    crowd[n] = true;
                    grown = true;
                }
            });
        }
        if !grown {
            separate(asks, answers, &members, world);
            return (meetings, members.len());
        }
    }
}

/// Pushes the crowd's movers that end the tick inside each other apart, the shortest way
/// ([`penetration`]), each by its share of their inverse masses (one that is not pushed
/// does not move, unless neither is: then each goes half), a few times over for movers
/// between several; then out of the solids. Their velocities are left as they are: movers
/// spawned inside each other are separated, not thrown.
fn separate(
    asks: &[(u32, Ask)],
    answers: &mut [Option<Answer>],
    members: &[usize],
    world: Obstacles,
) {
    // In an order of their data, so that shifts add up alike whatever the spawn order.
    let mut members = members.to_vec();
    members.sort_by_cached_key(|&k| (path_key(&asks[k].1.path), asks[k].1.entry.entity));
    let inverse_mass = |ask: &Ask| match ask.push {
        Push::Pushed { mass, .. } => (1.0 / mass) as f32,
        Push::Never => 0.0,
    };
    let mut index = BoxIndex::default();
    for _ in 0..SEPARATIONS {
        let ends: Vec<Shape> = members
            .iter()
            .map(|&k| {
                answers[k]
                    .as_ref()
                    .and_then(Answer::end)
                    .unwrap_or_else(|| asks[k].1.path.at(1.0))
            })
            .collect();
        let bounds: Vec<Aabb2d> = ends
            .iter()
            .map(|s| inflate(ShapePath::still(*s).swept_bounds()))
            .collect();
        index.build(&bounds);
        let mut shifts = vec![Vec2::ZERO; members.len()];
        for i in 0..members.len() {
            index.broad.query(&bounds[i], |k| {
                let j = index.entry(k) as usize;
                let (a, b) = (&asks[members[i]].1, &asks[members[j]].1);
                if j <= i || !may_meet(a, b) {
                    return;
                }
                let Some(p) = penetration(&ends[i], &ends[j]) else {
                    return;
                };
                if p.depth <= a.tolerance.max(b.tolerance) {
                    return;
                }
                let (ia, ib) = (inverse_mass(a), inverse_mass(b));
                let (wa, wb) = if ia + ib > 0.0 {
                    (ia / (ia + ib), ib / (ia + ib))
                } else {
                    (0.5, 0.5)
                };
                let at = bounds[i].max.abs().max(bounds[i].min.abs());
                let step = p.depth + push_margin(at, p.depth);
                shifts[i] += p.direction * step * wa;
                shifts[j] -= p.direction * step * wb;
            });
        }
        if shifts.iter().all(|s| *s == Vec2::ZERO) {
            break;
        }
        for (&k, shift) in members.iter().zip(shifts) {
            if shift != Vec2::ZERO {
                let (i, ask) = (asks[k].0, &asks[k].1);
                answers[k]
                    .get_or_insert_with(|| Answer::unanswered(i, ask))
                    .shift(shift, ask, world);
            }
        }
    }
}

/// The most times movers that end inside each other are pushed apart.
const SEPARATIONS: usize = 4;

/// The pieces of mover `k`'s trip among the solids alone: its answer's, or its straight
/// path.
fn pieces_of<'a>(
    asks: &[(u32, Ask)],
    answers: &'a [Option<Answer>],
    k: usize,
) -> std::borrow::Cow<'a, [super::Piece]> {
    match &answers[k] {
        Some(answer) => std::borrow::Cow::Borrowed(&answer.pieces),
        None => {
            let path = &asks[k].1.path;
            std::borrow::Cow::Owned(vec![([0.0, 1.0], path.at(0.0), path.at(1.0))])
        }
    }
}

/// `true` if the trips among the solids of movers `k` and `n` touch at some moment (each
/// piece against the other's over the part of the tick both cover, by the exact kernels).
fn trips_touch(asks: &[(u32, Ask)], answers: &[Option<Answer>], k: usize, n: usize) -> bool {
    let (a, b) = (pieces_of(asks, answers, k), pieces_of(asks, answers, n));
    a.iter().any(|&(wa, sa, ea)| {
        b.iter().any(|&(wb, sb, eb)| {
            let window = [wa[0].max(wb[0]), wa[1].min(wb[1])];
            if window[0] > window[1] {
                return false;
            }
            let (Some(pa), Some(pb)) = (ShapePath::between(sa, ea), ShapePath::between(sb, eb))
            else {
                // A piece that cannot be swept: taken as touching.
                return true;
            };
            let (pa, pb) = (restrict(&pa, wa, window), restrict(&pb, wb, window));
            if !pa.is_valid() || !pb.is_valid() {
                return true;
            }
            !contact_intervals_of_valid(&pa, &pb).is_empty()
        })
    })
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
    /// Whether each mover is in `outside`.
    is_outside: Vec<bool>,
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
            is_outside: vec![false; bounds.len()],
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
                    if self.versions[m] != version {
                        continue;
                    }
                    let ask = self.asks[m];
                    if self.pushed(m).is_none() {
                        self.trips[m].hit_solid(ask, when, &hit);
                        self.changed(&[m]);
                        continue;
                    }
                    self.trips[m].arrive(ask, when, &hit);
                    let velocity = if ask.duration > 0.0 {
                        hit.solid / ask.duration
                    } else {
                        Vec2::ZERO
                    };
                    let first = Link {
                        a: Party::Mover(m),
                        b: Party::Solid(hit.slot, velocity),
                        normal: hit.normal,
                    };
                    let answered = self.answer_group(when, first);
                    self.changed(&answered);
                }
                Event::Meet([a, b], versions, normal) => {
                    if [self.versions[a], self.versions[b]] != versions {
                        continue;
                    }
                    let answered = if self.pushed(a).is_none() && self.pushed(b).is_none() {
                        self.answer_unpushed(a, b, when, normal)
                    } else {
                        let first = Link {
                            a: Party::Mover(a),
                            b: Party::Mover(b),
                            normal,
                        };
                        self.answer_group(when, first)
                    };
                    self.changed(&answered);
                }
            }
        }
    }

    /// The movers whose paths may come near mover `m`'s from where they are.
    fn near(&self, m: usize, out: &mut Vec<usize>) {
        self.near_bounds(self.bounds[m], out);
        out.retain(|&n| n != m);
    }

    /// The movers whose paths from where they are may come into `bounds`.
    fn near_bounds(&self, bounds: Aabb2d, out: &mut Vec<usize>) {
        self.index.broad.query(&bounds, |k| {
            let n = self.index.entry(k) as usize;
            if self.bounds[n].intersects(&bounds) {
                out.push(n);
            }
        });
        out.extend(
            self.outside
                .iter()
                .copied()
                .filter(|&n| self.bounds[n].intersects(&bounds)),
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
            if !self.is_outside[m] && !self.indexed[m].contains(&self.bounds[m]) {
                self.is_outside[m] = true;
                self.outside.push(m);
            }
        }
        // The short list of movers out of their boxes is read by every search: when it is no
        // longer short, the index is built again over where the movers go now.
        if self.outside.len() > 32 + self.asks.len() / 32 {
            self.indexed.clone_from(&self.bounds);
            self.index.build(&self.indexed);
            self.outside.clear();
            self.is_outside.fill(false);
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
        let (a, b) = self.ordered(m, n);
        let (ta, tb) = (&self.trips[a], &self.trips[b]);
        if let Some((when, normal)) = meeting([(ta, self.asks[a], a), (tb, self.asks[b], b)]) {
            let versions = [self.versions[a], self.versions[b]];
            self.push(when, a, b, Event::Meet([a, b], versions, normal));
        }
    }

    /// The pair in a fixed order, whatever the order they were found in.
    fn ordered(&self, m: usize, n: usize) -> (usize, usize) {
        if self.keys[m] <= self.keys[n] {
            (m, n)
        } else {
            (n, m)
        }
    }

    /// Answers the meeting at `when` of movers `a` and `b` that are not pushed, along
    /// `normal` (from `b` towards `a`): each by its own rule, against the other's velocity
    /// less the part that would push it. Returns the movers it answered.
    fn answer_unpushed(&mut self, a: usize, b: usize, when: f32, normal: Vec2) -> Vec<usize> {
        let (va, vb) = (self.moving(a), self.moving(b));
        self.met.push((a, b, when));
        let mut answered = Vec::with_capacity(2);
        for (m, other, n, mine, theirs) in [(a, b, normal, va, vb), (b, a, -normal, vb, va)] {
            if self.trips[m].stopped {
                continue;
            }
            let answering = self.asks[m].answering;
            let [path, user] =
                [0, 1].map(|k| answer_velocity(mine[k], unpushing(theirs[k], n), n, answering));
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

    /// Mover `m`'s velocity along its path and its `Velocity`, as it moves now.
    fn moving(&self, m: usize) -> [Vec2; 2] {
        let trip = &self.trips[m];
        if trip.stopped {
            [Vec2::ZERO; 2]
        } else {
            [trip.velocity, trip.user]
        }
    }

    /// How mover `m` answers now: pushed (with its inverse mass and restitution), or not.
    fn pushed(&self, m: usize) -> Option<(f64, f32)> {
        match self.asks[m].push {
            Push::Pushed { mass, restitution } if !self.trips[m].stopped => {
                Some((1.0 / mass, restitution))
            }
            _ => None,
        }
    }

    /// A party's place in the order of a group's contacts.
    fn party_key(&self, party: Party) -> PartyKey {
        match party {
            Party::Mover(m) => (self.keys[m].0, self.keys[m].1, 0),
            Party::Solid(slot, _) => {
                let solid = self.world.entries.entry(slot);
                (
                    path_key(&self.world.entries.path(slot)),
                    solid.entity,
                    solid.edge(),
                )
            }
        }
    }

    /// Answers, at `when`, the group of movers that touch there, grown from the contact
    /// `first` (a pushed mover's hit on a solid, or a meeting of movers one of which is
    /// pushed): the contacts the answer would press on at that same moment are taken in,
    /// until there are none, and the normal velocities of all are answered together
    /// ([`group::solve`]). Returns the movers whose velocities it changed.
    fn answer_group(&mut self, when: f32, first: Link) -> Vec<usize> {
        let mut links = vec![first];
        let mut solved;
        let mut rounds = 0;
        loop {
            rounds += 1;
            solved = self.solve_group(&links);
            let Some((movers, velocities, _)) = &solved else {
                break;
            };
            if rounds > MOST_ROUNDS {
                break;
            }
            // The contacts the answer would press on at this same moment.
            let mut found: Vec<Link> = Vec::new();
            let trials: Vec<(usize, Trip)> = movers
                .iter()
                .zip(velocities)
                .filter(|(m, _)| self.pushed(**m).is_some())
                .map(|(&m, &v)| (m, self.trial(m, when, v)))
                .collect();
            let trial_of = |n: usize| trials.iter().find(|(m, _)| *m == n).map(|(_, t)| t);
            let mut near = Vec::new();
            for (m, trip) in &trials {
                let (m, ask) = (*m, self.asks[*m]);
                let mut trip = trip.clone();
                if let Some((at, hit)) = trip.next_block(ask, self.world)
                    && at <= when
                {
                    let velocity = if ask.duration > 0.0 {
                        hit.solid / ask.duration
                    } else {
                        Vec2::ZERO
                    };
                    found.push(Link {
                        a: Party::Mover(m),
                        b: Party::Solid(hit.slot, velocity),
                        normal: hit.normal,
                    });
                }
                near.clear();
                if let Some(rest) = trip.rest(ask) {
                    self.near_bounds(inflate(rest.swept_bounds()), &mut near);
                }
                for &n in &near {
                    if n == m || !may_meet(ask, self.asks[n]) {
                        continue;
                    }
                    let (a, b) = self.ordered(m, n);
                    let at = |k: usize| trial_of(k).unwrap_or(&self.trips[k]);
                    if let Some((at_when, normal)) =
                        meeting([(at(a), self.asks[a], a), (at(b), self.asks[b], b)])
                        && at_when <= when
                    {
                        found.push(Link {
                            a: Party::Mover(a),
                            b: Party::Mover(b),
                            normal,
                        });
                    }
                }
            }
            found.retain(|l| !links.iter().any(|k| k.parties() == l.parties()));
            if found.is_empty() {
                break;
            }
            found.sort_by_key(|l| (self.party_key(l.a), self.party_key(l.b)));
            found.dedup_by(|x, y| x.parties() == y.parties());
            links.extend(found);
            links.sort_by_key(|l| (self.party_key(l.a), self.party_key(l.b)));
        }
        let Some((movers, velocities, pressed)) = solved else {
            // An answer not finite: the movers stop where they are.
            let stopped: Vec<usize> = links
                .iter()
                .flat_map(|l| l.parties())
                .filter_map(|p| match p {
                    Party::Mover(m) if self.pushed(m).is_some() => Some(m),
                    _ => None,
                })
                .collect();
            for &m in &stopped {
                self.trips[m].advance(self.asks[m], when);
                self.trips[m].stop();
            }
            return stopped;
        };
        let mut answered = Vec::new();
        for (&m, &[path, user]) in movers.iter().zip(&velocities) {
            if self.pushed(m).is_none() || [path, user] == self.moving(m) {
                continue;
            }
            // What it is answered along: its first contact pressed.
            let Some((met, normal)) = links.iter().zip(&pressed).find_map(|(l, &p)| {
                if !p {
                    return None;
                }
                match (l.a, l.b) {
                    (Party::Mover(a), Party::Mover(b)) if a == m => {
                        Some((Met::Mover(b as u32), l.normal))
                    }
                    (Party::Mover(a), Party::Mover(b)) if b == m => {
                        Some((Met::Mover(a as u32), -l.normal))
                    }
                    (Party::Mover(a), Party::Solid(slot, _)) if a == m => {
                        Some((Met::Solid(slot), l.normal))
                    }
                    _ => None,
                }
            }) else {
                continue;
            };
            let (trip, ask) = (&mut self.trips[m], self.asks[m]);
            trip.advance(ask, when);
            trip.take(met, normal, Some(user), Some(path));
            if trip.normals.len() >= MOST_HITS {
                trip.stop();
            }
            answered.push(m);
        }
        // The contacts pressed are the hits of the pairs.
        for (l, &p) in links.iter().zip(&pressed) {
            if !p {
                continue;
            }
            match (l.a, l.b) {
                (Party::Mover(a), Party::Mover(b)) => self.met.push((a, b, when)),
                (Party::Mover(a), Party::Solid(slot, _)) if answered.contains(&a) => {
                    let trip = &mut self.trips[a];
                    trip.contacts
                        .push((trip.pieces.len().max(1) - 1, slot, when));
                }
                _ => {}
            }
        }
        answered
    }

    /// Mover `m`'s trip moved on to `when` and going on with `velocity` (its path's and its
    /// `Velocity`'s): what it would meet if so answered.
    fn trial(&self, m: usize, when: f32, [path, user]: [Vec2; 2]) -> Trip {
        let mut trip = self.trips[m].clone();
        trip.advance(self.asks[m], when);
        (trip.velocity, trip.user) = (path, user);
        trip
    }

    /// The group of `links` solved: its movers (in the order of their keys), each one's
    /// velocities after (its path's and its `Velocity`'s), and which links were pressed;
    /// `None` if an answer is not finite.
    #[allow(clippy::type_complexity, reason = "three lists of one group")]
    fn solve_group(&self, links: &[Link]) -> Option<(Vec<usize>, Vec<[Vec2; 2]>, Vec<bool>)> {
        let mut movers: Vec<usize> = links
            .iter()
            .flat_map(|l| l.parties())
            .filter_map(|p| match p {
                Party::Mover(m) => Some(m),
                Party::Solid(..) => None,
            })
            .collect();
        movers.sort_by_key(|&m| self.keys[m]);
        movers.dedup();
        let place = |m: usize| movers.iter().position(|&k| k == m).unwrap_or(0);
        let mut out = vec![[Vec2::ZERO; 2]; movers.len()];
        let mut pressed = vec![false; links.len()];
        for k in 0..2 {
            let mut bodies: Vec<group::Body> = movers
                .iter()
                .map(|&m| group::Body {
                    velocity: self.moving(m)[k].as_dvec2(),
                    inverse_mass: self.pushed(m).map_or(0.0, |p| p.0),
                })
                .collect();
            let contacts: Vec<group::Contact> = links
                .iter()
                .map(|l| {
                    let (a, e_a) = match l.a {
                        Party::Mover(m) => (place(m), self.pushed(m).map_or(0.0, |p| p.1)),
                        Party::Solid(..) => (0, 0.0),
                    };
                    let (b, e_b) = match l.b {
                        Party::Mover(m) => (place(m), self.pushed(m).map_or(0.0, |p| p.1)),
                        Party::Solid(_, velocity) => {
                            bodies.push(group::Body {
                                velocity: velocity.as_dvec2(),
                                inverse_mass: 0.0,
                            });
                            (bodies.len() - 1, 0.0)
                        }
                    };
                    group::Contact {
                        a,
                        b,
                        normal: l.normal,
                        restitution: e_a.max(e_b),
                    }
                })
                .collect();
            let impulses = group::solve(&mut bodies, &contacts)?;
            for (o, b) in out.iter_mut().zip(&bodies) {
                o[k] = b.velocity.as_vec2();
            }
            if k == 0 {
                for (p, i) in pressed.iter_mut().zip(&impulses) {
                    *p = *i > 0.0;
                }
            }
        }
        Some((movers, out, pressed))
    }
}

/// A party to a contact of a group: a mover of the crowd, or a solid (its entry, and the
/// velocity of its point at the contact).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Party {
    Mover(usize),
    Solid(Slot, Vec2),
}

/// A party's place in the order of a group's contacts: its path's key, entity and edge.
type PartyKey = (PathKey, Entity, u32);

/// One contact of a group: parties `a` (a mover) and `b`, and the normal from `b` towards
/// `a`.
#[derive(Clone, Copy, Debug)]
struct Link {
    a: Party,
    b: Party,
    normal: Vec2,
}

impl Link {
    fn parties(&self) -> [Party; 2] {
        [self.a, self.b]
    }
}

/// The most times a group is grown by the contacts its answer would press on.
const MOST_ROUNDS: usize = 64;

/// The first meeting of two movers (each its trip, ask and place in the crowd, in the
/// crowd's order) from the later of their moments: when, and the normal from the second
/// towards the first. `None` if they do not move into each other in the rest of the tick.
fn meeting([(ta, ask_a, a), (tb, ask_b, b)]: [(&Trip, &Ask, usize); 2]) -> Option<(f32, Vec2)> {
    let from = ta.t.max(tb.t);
    if from >= 1.0 {
        return None;
    }
    let pa = rest_from(ta, ask_a, from)?;
    let pb = rest_from(tb, ask_b, from)?;
    let bounds = inflate(pa.swept_bounds()).merge(&inflate(pb.swept_bounds()));
    let largest = bounds.min.abs().max(bounds.max.abs()).max_element();
    let noise = largest * (1.0 / (1 << 21) as f32);
    let reach = (bounds.max - bounds.min).max_element();
    for &[s, _] in contact_intervals_of_valid(&pa, &pb).iter() {
        let w = witness(&pa, &pb, s, false);
        // Leaving the mover it was just answered with, the side it is on is the one it was
        // answered on.
        let normal = match (ta.last, tb.last) {
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
            return Some((from + s * (1.0 - from), normal));
        }
    }
    None
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
