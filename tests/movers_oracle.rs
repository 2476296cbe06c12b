//! Balls that answer each other (DESIGN §11) against an event-driven oracle written apart
//! from the crate's tick code, in `f64`, from the documented rules alone:
//!
//! - two balls (`Response::Bounce`, finite `Mass`, 1 by default) that meet exchange momentum
//!   along the contact normal `n` at the exact moment they touch, each keeping its tangential
//!   velocity: `j = (1 + e) (w·n) / (1/m_a + 1/m_b)`, `w` their relative velocity, `e` the
//!   larger of their restitutions;
//! - a ball that meets a still wall reverses its normal velocity times its restitution;
//! - within a tick the hits are answered in time order, and an answered ball goes on from
//!   that place and moment for the rest of the tick;
//! - each ball–ball meeting and each ball–wall bounce is one `CollisionEvent` of the pair, at
//!   its moment (a bounce is `Crossed`; a contact that lasts would be `Started`: both count as
//!   a hit here, `Ended` does not).
//!
//! The oracle is the textbook event-driven simulation of hard disks: find the earliest next
//! contact of any pair (the smaller root of `|Δp + Δv t| = r_a + r_b` for a pair that
//! approaches, a linear equation for a wall), move every disk to it, answer it, repeat until
//! the tick ends. It starts from the very `f32` values given to the App, widened to `f64`.
//!
//! Each scene is checked two ways:
//!
//! 1. **Free run**: the oracle runs alone from the spawned state and, like the App, keeps its
//!    places and velocities in `f32` between ticks (it rounds its exact state at the end of
//!    each tick: the App's `Transform` and `Velocity` are `f32`, and a ball that flies free
//!    for a tick, `p + v/64`, is rounded once by both). Over the scene's first [`HITS`] hits,
//!    the App's hits (its events, sorted by tick then `time_of_impact`) must be the oracle's:
//!    the same pairs, in the same order, at the same moments; and at the end of every tick
//!    before the last of them, every ball's velocity must be the oracle's.
//! 2. **Tick by tick**: before every tick a second oracle is restarted from the App's
//!    `Transform`s and `Velocity`s, and that tick's hits and final velocities must be its own.
//!    This holds the App to the rules for as long as a scene runs, whatever chaos later does
//!    to the free run.
//!
//! Hard disks are chaotic: every hit multiplies the rounding of the places by some `distance
//! / radius`, so after a few dozen hits of a gas the `f32` rounding, not the rules, decides
//! which pair meets next. The oracle measures where that happens instead of guessing it: it
//! runs copies of itself whose start is rounded at random as the App's places are, compares
//! the App only with the hits on which all the copies agree, and sizes the tolerances by how
//! far the copies spread (see "Tolerances" below). On the 48 gases this cuts the free run
//! at 14 to 91 hits (some 2,500 in all); the tick-by-tick check goes on for every tick of
//! every scene (some 4,800 hits of the gases), and the cradles and pairs, on which rounding
//! changes little, compare whole.
//!
//! And in every tick: momentum is kept (in ticks without a wall hit), and kinetic energy too
//! where every restitution is 1 (a wall bounce with restitution 1 keeps it), to
//! [`CONSERVATION_TOLERANCE`]; no two balls overlap, and no ball is in a wall, by more than
//! `f32` rounding of their places.
//!
//! Ties: the oracle stops (and the comparison with it) at the first moment where the App's
//! rounding, not the rules, may decide what happens (see [`Ambiguity`]): one ball hit twice
//! closer in time than the rounding can move a hit (at least [`TIE`] of a tick: a ball pinched
//! between two others or a wall, whose hits come ever faster, the "inelastic collapse" that
//! the App answers as one group), a pair passing within [`GRAZE`] of touching, a hit at a
//! grazing angle, a ball hit more than 32 times in a tick. Hits of *different* balls at
//! (nearly) the same moment commute: the comparison takes them in either order. Exact ties
//! that are chains (a row of touching balls hit at one end, where each hit makes the next)
//! are answered one after the other, as the rules say, in their own test.
//!
//! The scenes: 48 random gases of 10 to 40 balls (radii 0.5 to 3, masses 0.2 to 5) in a
//! closed box, at 1 to 1e5 units/s, restitution 1 or random in [0, 1]; Newton's cradles of 2
//! to 7 balls with small gaps (each hit its own moment) in the open and in a box, restitution
//! 1 and 0.8; head-on and glancing pairs of random radii, masses and restitutions, and
//! DESIGN §11's two head-on examples; pairs that meet twice in one tick (one goes off a wall
//! and back); rows of touching balls hit by one or two touching strikers (a chain at one
//! moment: the velocities only); two balls past the 32-hit cap.
//!
//! The tests print what they compared (`cargo test --release --test movers_oracle --
//! --nocapture`): how many hits, the largest differences relative to their tolerances, and
//! where and why each comparison stopped.

use bevy::math::DVec2;
use bevy::prelude::*;
use bevy_sweep::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;
use common::{TICK, app, tick};

/// The tick, in seconds.
const DT: f64 = TICK as f64;

/// The hits of each scene compared with the free-running oracle.
const HITS: usize = 100;

/// How many hits a mover answers a tick (DESIGN §11); the scenes stay below it (the oracle
/// stops past it).
const MAX_HITS_PER_TICK: usize = 32;

/// `f32`'s relative rounding: half an ulp, relative.
const EPS32: f64 = f32::EPSILON as f64 / 2.0;

// ---------------------------------------------------------------------------------------
// Tolerances.
//
// The App keeps places and velocities in `f32`: a coordinate `x` is known to `EPS32 |x|`,
// and so is every place it computes inside a tick (where two balls are when they meet).
// Those errors are not small after a few hits: a normal off by `δ` turns the exchanged
// velocity by `δ`, which moves the next contact of both balls by `δ` times the distance they
// travel to it, which changes the next normal by that over the radii, and so on: the
// dynamics of hard disks is chaotic, every hit multiplies the errors by some `distance /
// radius`. How much depends on the scene, so the oracle measures it: besides the exact run
// it runs `COPIES` copies whose start is rounded at random by as much as the App's places and
// velocities are (`perturbed`). Then
//
// - it compares only the hits on whose pairs and order all its copies agree (beyond, the
//   App's rounding, not the rules, may decide what happens next): on random gases at up to
//   1e5 units/s, hundreds of hits in the free run and most whole ticks in the restarted run;
// - a hit's moment may be off by `SENSITIVITY` times the largest difference between the exact
//   run and its copies, plus the rounding of one place (`EPS32 X` with `X` the largest
//   coordinate, which moves a contact at normal speed `u` by `EPS32 X / (u DT)` of a tick)
//   times 16 (both balls, both coordinates, and the hits of the tick before it), plus 1e-6
//   of a tick (the rounding of `time_of_impact` itself) ([`time_tolerance`]);
// - a velocity may be off by `SENSITIVITY` times the copies' largest difference, and never
//   less than 1e-5 of the fastest ball's speed ([`velocity_tolerance`]): more than `f32`
//   rounding of the answers, which are computed in `f64` (a few `EPS32`, 6e-8), and of a
//   normal off by `EPS32 X` over radii of at least 0.5 when nothing amplifies it (1e-6 on
//   the boxes here). A wrong restitution, mass, normal, moment or order is off by far more,
//   where the copies agree to within `f32` rounding.
//
// `SENSITIVITY` is 16: the copies are rounded once at the start, the App once at every place
// and velocity it computes and keeps (some four to eight roundings of a size each, which the
// chaos amplifies alike), and a dozen copies may all happen to round in directions that the
// chaos amplifies less than the App's. (With four copies a few hits at 1e5 units/s came out
// of the copies' spread: the spread of a few random roundings is a noisy measure.)
//
// At the end of a tick, touching balls and walls may overlap by the rounding of two places,
// each computed as a start plus a motion of up to `M = speed × DT` inside the tick:
// [`overlap_tolerance`] allows `8 EPS32 (X + M)`.

/// How many randomly rounded copies of the oracle measure its sensitivity to rounding.
const COPIES: usize = 12;

/// How many times its copies' spread the App may be off the exact oracle.
const SENSITIVITY: f64 = 16.0;

/// How far (in ticks) a hit at normal speed `approach` may be from the oracle's, with `extent`
/// the largest coordinate and `spread` how far the oracle's rounded copies put it.
fn time_tolerance(extent: f64, approach: f64, spread: f64) -> f64 {
    rounding_time(extent, approach) + SENSITIVITY * spread
}

/// How far (in ticks) the rounding of the places, with `extent` the largest coordinate, may
/// move a hit at normal speed `approach`, and the rounding of `time_of_impact`.
fn rounding_time(extent: f64, approach: f64) -> f64 {
    16.0 * EPS32 * extent / (approach * DT) + 1e-6
}

/// How far a velocity may be from the oracle's, with `speed` the fastest ball's and `spread`
/// how far the oracle's rounded copies put it.
fn velocity_tolerance(speed: f64, spread: f64) -> f64 {
    (SENSITIVITY * spread).max(1e-5 * speed)
}

/// How far two balls, or a ball and a wall, may overlap at the end of a tick.
fn overlap_tolerance(extent: f64, speed: f64) -> f64 {
    8.0 * EPS32 * (extent + speed * DT)
}

/// Momentum (relative to `Σ m |v|`) and kinetic energy (relative): the App computes the
/// impulses in `f64` and rounds each velocity to `f32` (`EPS32`), some 40 balls at most.
const CONSERVATION_TOLERANCE: f64 = 1e-5;

// ---------------------------------------------------------------------------------------
// The oracle.

#[derive(Clone, Copy, Debug)]
struct Disk {
    p: DVec2,
    v: DVec2,
    r: f64,
    m: f64,
    e: f64,
}

/// The inner face of a wall: a disk's centre must keep `sign (p[axis] - at) >= r`.
#[derive(Clone, Copy, Debug)]
struct Wall {
    axis: usize,
    at: f64,
    sign: f64,
}

impl Wall {
    /// The wall's normal, towards the inside.
    fn normal(&self) -> DVec2 {
        let mut n = DVec2::ZERO;
        n[self.axis] = self.sign;
        n
    }
}

/// One hit: disk `a` with disk `b`, or with wall `b - disks.len()`.
#[derive(Clone, Copy, Debug)]
struct Hit {
    /// When, in ticks since the scene began (tick `k` spans `[k, k + 1]`).
    time: f64,
    a: usize,
    b: usize,
    /// The normal speed of approach (units/s; NaN for the App's hits).
    approach: f64,
}

#[derive(Clone, Debug)]
struct Oracle {
    disks: Vec<Disk>,
    walls: Vec<Wall>,
    /// Hits of one disk at the same moment are a causal chain, not a tie (a cradle of
    /// touching balls): see [`TIE`].
    chains: bool,
    /// The last tick run had a hit closer to its end than the rounding can move it, which
    /// the App may answer in the tick or in the next.
    edge: bool,
}

/// A moment at which the rounding of the App may decide what happens, which the oracle's
/// exact answer then cannot predict.
#[derive(Clone, Debug)]
struct Ambiguity {
    time: f64,
    what: String,
}

/// How close (in ticks) two hits of one disk may come before their order is the rounding's
/// to decide, at least: a hit whose moment the rounding of a place moves by more
/// ([`rounding_time`]) is as close. (A ball pinched between two others or a wall meets them
/// in turn ever faster, in a series the App answers as one group once its hits come together:
/// the oracle stops at the first two hits that come that close.)
const TIE: f64 = 1e-5;
/// How close (relative to `r_a + r_b`) a pair may pass without touching before the rounding
/// may make it touch; a hit whose normal speed is this small a part of the relative speed is
/// as ill-conditioned.
const GRAZE: f64 = 1e-4;

fn pair_name(n: usize, a: usize, b: usize) -> String {
    if b < n {
        format!("ball {a} – ball {b}")
    } else {
        format!("ball {a} – wall {}", b - n)
    }
}

impl Oracle {
    /// When (in seconds from now) disks `i` and `j` first touch while approaching, if they do.
    fn disk_time(&self, i: usize, j: usize) -> Option<f64> {
        let (a, b) = (&self.disks[i], &self.disks[j]);
        let (dp, dv, r) = (b.p - a.p, b.v - a.v, a.r + b.r);
        let bb = dp.dot(dv);
        if bb >= 0.0 {
            return None; // not approaching
        }
        let c = dp.length_squared() - r * r;
        if c <= 0.0 {
            return Some(0.0); // touching (or overlapping by rounding) and approaching
        }
        let disc = bb * bb - dv.length_squared() * c;
        // The smaller root of dv² t² + 2 bb t + c, without cancellation.
        (disc >= 0.0).then(|| c / (-bb + disc.sqrt()))
    }

    /// When disk `i` reaches wall `k` while moving into it, if it does.
    fn wall_time(&self, i: usize, k: usize) -> Option<f64> {
        let (d, w) = (&self.disks[i], &self.walls[k]);
        let speed = w.sign * d.v[w.axis];
        if speed >= 0.0 {
            return None;
        }
        let gap = w.sign * (d.p[w.axis] - w.at) - d.r;
        Some((gap / -speed).max(0.0))
    }

    /// The normal speed of approach of disk `a` and disk (or wall) `b` when they meet in `t`
    /// seconds.
    fn approach(&self, t: f64, a: usize, b: usize) -> f64 {
        let n = self.disks.len();
        let da = &self.disks[a];
        if b < n {
            let db = &self.disks[b];
            let (dp, dv) = (db.p - da.p, db.v - da.v);
            -dv.dot((dp + dv * t).normalize())
        } else {
            let w = &self.walls[b - n];
            -w.sign * da.v[w.axis]
        }
    }

    /// How far apart a pair passes at its closest, if that is strictly inside the next `span`
    /// seconds and within `GRAZE` of touching without touching.
    fn near_miss(&self, i: usize, j: usize, span: f64) -> Option<f64> {
        let (a, b) = (&self.disks[i], &self.disks[j]);
        let (dp, dv, r) = (b.p - a.p, b.v - a.v, a.r + b.r);
        let t = -dp.dot(dv) / dv.length_squared();
        if !(t > 0.0 && t < span) {
            return None;
        }
        let gap = (dp + dv * t).length() - r;
        (gap >= 0.0 && gap < GRAZE * r).then_some(gap)
    }

    /// Runs tick `k` (from `k` to `k + 1` in ticks), appending its hits; stops at the first
    /// moment the rounding may decide (see [`Ambiguity`]).
    fn run_tick(&mut self, k: usize, hits: &mut Vec<Hit>) -> Result<(), Ambiguity> {
        let n = self.disks.len();
        let mut answered = vec![0_usize; n];
        let mut last_hit_of: Vec<Option<f64>> = vec![None; n];
        let mut now = 0.0; // seconds into the tick
        self.edge = false;
        let extent = self
            .walls
            .iter()
            .map(|w| w.at.abs())
            .fold(extent(&self.disks), f64::max);
        loop {
            // The earliest contact (exact ties by index: see `TIE`), in the tick or after.
            let mut next: Option<(f64, usize, usize)> = None;
            let mut consider = |t: f64, a: usize, b: usize| {
                if next.is_none_or(|(best, _, _)| t < best) {
                    next = Some((t, a, b));
                }
            };
            for i in 0..n {
                for j in i + 1..n {
                    if let Some(t) = self.disk_time(i, j) {
                        consider(t, i, j);
                    }
                }
                for w in 0..self.walls.len() {
                    if let Some(t) = self.wall_time(i, w) {
                        consider(t, i, n + w);
                    }
                }
            }
            if let Some((t, a, b)) = next
                && (now + t - DT).abs() <= rounding_time(extent, self.approach(t, a, b)) * DT
            {
                self.edge = true;
            }
            let next = next.filter(|(t, _, _)| now + t <= DT);
            let step = next.map_or(DT - now, |(t, _, _)| t);
            for i in 0..n {
                for j in i + 1..n {
                    if next.is_some_and(|(_, a, b)| (a, b) == (i, j)) {
                        continue;
                    }
                    if let Some(gap) = self.near_miss(i, j, step) {
                        return Err(Ambiguity {
                            time: k as f64 + (now + step) / DT,
                            what: format!("balls {i} and {j} pass {gap:.1e} apart"),
                        });
                    }
                }
            }
            for d in &mut self.disks {
                d.p += d.v * step;
            }
            now += step;
            let Some((_, a, b)) = next else {
                return Ok(());
            };
            let time = k as f64 + now / DT;
            let (approach, relative);
            if b < n {
                let (da, db) = (self.disks[a], self.disks[b]);
                let normal = (db.p - da.p).normalize(); // from a to b
                let w = da.v - db.v;
                approach = w.dot(normal); // > 0
                relative = w.length();
                let e = da.e.max(db.e);
                let j = (1.0 + e) * approach / (1.0 / da.m + 1.0 / db.m);
                self.disks[a].v -= normal * (j / da.m);
                self.disks[b].v += normal * (j / db.m);
            } else {
                let wall = self.walls[b - n];
                let d = &mut self.disks[a];
                let normal = wall.normal();
                let vn = d.v.dot(normal); // < 0: into the wall
                approach = -vn;
                relative = d.v.length();
                d.v -= normal * ((1.0 + d.e) * vn);
            }
            if approach < GRAZE * relative {
                return Err(Ambiguity {
                    time,
                    what: format!(
                        "{} at a grazing angle ({:.1e})",
                        pair_name(n, a, b),
                        approach / relative
                    ),
                });
            }
            for x in [a, b] {
                if x >= n {
                    continue;
                }
                if let Some(before) = last_hit_of[x]
                    && time - before < TIE.max(rounding_time(extent, approach))
                    && !(self.chains && time == before)
                {
                    return Err(Ambiguity {
                        time,
                        what: format!(
                            "ball {x} is hit twice {:.1e} ticks apart ({})",
                            time - before,
                            pair_name(n, a, b)
                        ),
                    });
                }
                last_hit_of[x] = Some(time);
                answered[x] += 1;
                if answered[x] > MAX_HITS_PER_TICK {
                    // Past the cap the App leaves the ball where it is until the next tick.
                    return Err(Ambiguity {
                        time,
                        what: format!("ball {x} is hit more than {MAX_HITS_PER_TICK} times"),
                    });
                }
            }
            hits.push(Hit {
                time,
                a,
                b,
                approach,
            });
        }
    }

    /// Rounds every place and velocity to `f32`, as the App keeps them between ticks.
    fn round_to_f32(&mut self) {
        let round = |v: DVec2| DVec2::new(v.x as f32 as f64, v.y as f32 as f64);
        for d in &mut self.disks {
            d.p = round(d.p);
            d.v = round(d.v);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Scenes: the same balls in the App and in the oracle.

struct Scene {
    name: String,
    app: App,
    balls: Vec<Entity>,
    walls: Vec<Entity>,
    oracle: Oracle,
}

#[derive(Clone, Copy, Debug)]
struct BallSpec {
    p: Vec2,
    v: Vec2,
    r: f32,
    m: f32,
    e: f32,
}

fn d(v: Vec2) -> DVec2 {
    DVec2::new(f64::from(v.x), f64::from(v.y))
}

/// Spawns `balls` and, with `half` given, a closed box of four walls whose inner faces are at
/// `±half` (integers, so that the faces are exact in `f32`).
fn scene(name: String, balls: &[BallSpec], half: Option<Vec2>) -> Scene {
    let mut app = app();
    let mut entities = Vec::new();
    let mut disks = Vec::new();
    for b in balls {
        let mut entity = app.world_mut().spawn((
            Collider::circle(b.r),
            Transform::from_translation(b.p.extend(0.0)),
            Velocity(b.v),
            Response::Bounce { restitution: b.e },
        ));
        // Without `Mass`, the mass is 1.
        if b.m != 1.0 {
            entity.insert(Mass(b.m));
        }
        entities.push(entity.id());
        disks.push(Disk {
            p: d(b.p),
            v: d(b.v),
            r: f64::from(b.r),
            m: f64::from(b.m),
            e: f64::from(b.e),
        });
    }
    let mut walls = Vec::new();
    let mut faces = Vec::new();
    if let Some(half) = half {
        assert_eq!(half, half.round(), "{name}: the faces must be exact");
        let thick = (half.max_element() * 0.25).max(1.0).round();
        for axis in 0..2 {
            for sign in [1.0_f32, -1.0] {
                // The wall on the side `-sign` of the axis, its inner face at `-sign half`,
                // long enough to close the corners.
                let mut center = Vec2::ZERO;
                center[axis] = -sign * (half[axis] + thick);
                let mut size = Vec2::ZERO;
                size[axis] = thick;
                size[1 - axis] = half[1 - axis] + 2.0 * thick;
                walls.push(
                    app.world_mut()
                        .spawn((
                            Collider::aabb(size),
                            Transform::from_translation(center.extend(0.0)),
                        ))
                        .id(),
                );
                faces.push(Wall {
                    axis,
                    at: f64::from(-sign * half[axis]),
                    sign: f64::from(sign),
                });
            }
        }
    }
    Scene {
        name,
        app,
        balls: entities,
        walls,
        oracle: Oracle {
            disks,
            walls: faces,
            chains: false,
            edge: false,
        },
    }
}

/// The App's balls, as the oracle's disks.
fn app_disks(scene: &Scene) -> Vec<Disk> {
    let world = scene.app.world();
    scene
        .balls
        .iter()
        .zip(&scene.oracle.disks)
        .map(|(&e, disk)| Disk {
            p: d(world.get::<Transform>(e).unwrap().translation.truncate()),
            v: d(world.get::<Velocity>(e).unwrap().0),
            ..*disk
        })
        .collect()
}

/// The hits among a tick's events (`Crossed` or `Started`; the walls' contacts with each
/// other at the corners of the box are none), in the oracle's numbering, at
/// `tick + time_of_impact`, sorted by time.
fn app_hits(scene: &Scene, events: &[CollisionEvent], tick: usize) -> Vec<Hit> {
    let n = scene.balls.len();
    let index: HashMap<Entity, usize> = scene
        .balls
        .iter()
        .chain(&scene.walls)
        .enumerate()
        .map(|(i, &e)| (e, i))
        .collect();
    let mut hits: Vec<Hit> = events
        .iter()
        .filter(|e| e.kind != CollisionKind::Ended && (index[&e.entity] < n || index[&e.other] < n))
        .map(|e| {
            let (a, b) = (index[&e.entity], index[&e.other]);
            Hit {
                time: tick as f64 + f64::from(e.time_of_impact),
                a: a.min(b),
                b: a.max(b),
                approach: f64::NAN,
            }
        })
        .collect();
    hits.sort_by(|x, y| x.time.total_cmp(&y.time));
    hits
}

// ---------------------------------------------------------------------------------------
// Running a scene.

#[derive(Default, Debug)]
struct Stats {
    scenes: usize,
    ticks: usize,
    /// Hits compared with the free run, and with the restarted oracle.
    free_hits: usize,
    tick_hits: usize,
    /// Ticks whose velocities were compared with the restarted oracle, and those that were
    /// not (ill-conditioned: see `COPIES`).
    ticks_compared: usize,
    ticks_not_compared: usize,
    // The largest differences measured, each relative to its tolerance.
    worst_free_time: f64,
    worst_free_velocity: f64,
    worst_tick_time: f64,
    worst_tick_velocity: f64,
    worst_overlap: f64,
    // The largest drifts measured.
    worst_momentum: f64,
    worst_energy: f64,
    failures: Vec<String>,
    notes: Vec<String>,
}

/// Matches the `oracle`'s hits, in order, with `app`'s: each with the App's hit of the same
/// pair within `tolerance(k, hit)` of its time, no App hit left unmatched before it by more
/// than that (hits closer in time than their tolerance may come in either order: as a tie
/// that shares a ball stops the oracle, they are hits of different balls). Returns the index
/// in `app` of each matched hit, up to the first that has none, and then why.
fn match_hits(
    n: usize,
    app: &[Hit],
    oracle: &[Hit],
    tolerance: impl Fn(usize, &Hit) -> f64,
) -> (Vec<usize>, Option<String>) {
    let mut used = vec![false; app.len()];
    let mut matched = Vec::new();
    for (k, o) in oracle.iter().enumerate() {
        let tol = tolerance(k, o);
        let Some(first) = used.iter().position(|u| !u) else {
            let why = format!(
                "hit #{k}: the oracle has {} at {:.7} (tick {}, time_of_impact {:.7}); the App \
                 has no more hits",
                pair_name(n, o.a, o.b),
                o.time,
                o.time.floor(),
                o.time.fract()
            );
            return (matched, Some(why));
        };
        let same = (first..app.len()).find(|&i| {
            !used[i] && (app[i].a, app[i].b) == (o.a, o.b) && (app[i].time - o.time).abs() <= tol
        });
        // An App hit left before it must be as late to within the tolerance, or one of a
        // later oracle hit of the same pair within that one's.
        let later = |f: usize| {
            oracle[k + 1..].iter().enumerate().any(|(j, l)| {
                (l.a, l.b) == (app[f].a, app[f].b)
                    && (app[f].time - l.time).abs() <= tolerance(k + 1 + j, l)
            })
        };
        match same {
            Some(i) if (first..i).all(|f| used[f] || app[f].time >= o.time - tol || later(f)) => {
                used[i] = true;
                matched.push(i);
            }
            _ => {
                let a = app[first];
                let why = format!(
                    "hit #{k}: the oracle has {} at {:.7} (± {tol:.1e}; normal speed {:.4e}); \
                     the App has {} at {:.7} ({:+.1e} ticks from the oracle's)",
                    pair_name(n, o.a, o.b),
                    o.time,
                    o.approach,
                    pair_name(n, a.a, a.b),
                    a.time,
                    a.time - o.time
                );
                return (matched, Some(why));
            }
        }
    }
    (matched, None)
}

fn fastest(disks: &[Disk]) -> f64 {
    disks.iter().map(|d| d.v.length()).fold(0.0, f64::max)
}

/// The largest coordinate (or radius) of the disks.
fn extent(disks: &[Disk]) -> f64 {
    disks
        .iter()
        .map(|d| d.p.abs().max_element().max(d.r))
        .fold(0.0, f64::max)
}

fn momentum(disks: &[Disk]) -> (DVec2, f64) {
    disks.iter().fold((DVec2::ZERO, 0.0), |(p, s), d| {
        (p + d.v * d.m, s + d.v.length() * d.m)
    })
}

fn energy(disks: &[Disk]) -> f64 {
    disks.iter().map(|d| 0.5 * d.m * d.v.length_squared()).sum()
}

/// The oracle with every place moved by up to `EPS32 extent` along each axis and every
/// velocity scaled and turned by up to `EPS32`: the rounding the App's places and velocities
/// carry.
fn perturbed(oracle: &Oracle, extent: f64, rng: &mut ChaCha8Rng) -> Oracle {
    let mut copy = oracle.clone();
    let size = EPS32 * extent;
    for d in &mut copy.disks {
        d.p += DVec2::new(
            rng.random_range(-size..=size),
            rng.random_range(-size..=size),
        );
        let turn = DVec2::from_angle(rng.random_range(-EPS32..=EPS32));
        d.v = turn.rotate(d.v) * (1.0 + rng.random_range(-EPS32..=EPS32));
    }
    copy
}

/// How the exact oracle's hits and velocities move when its start is rounded: the number of
/// its first hits on whose pairs and order every copy agrees (the horizon), how far each of
/// those hits moves in time, and how far each velocity at the end moves (`None` if the copies
/// do not agree on all the hits, or one stops at an ambiguity).
struct Sensitivity {
    horizon: usize,
    time: Vec<f64>,
    velocity: Option<Vec<f64>>,
}

/// Hits of the copies within this many ticks of the exact oracle's count as the same when
/// the copies are matched with it (only the order matters there).
const AGREE: f64 = 1e-2;

fn sensitivity(
    n: usize,
    exact: &[Hit],
    exact_end: &[Disk],
    copies: &[(Vec<Hit>, Vec<Disk>, bool)],
) -> Sensitivity {
    let mut s = Sensitivity {
        horizon: exact.len(),
        time: vec![0.0; exact.len()],
        velocity: Some(vec![0.0; n]),
    };
    for (hits, end, stopped) in copies {
        let (matched, why) = match_hits(n, hits, exact, |_, _| AGREE);
        s.horizon = s.horizon.min(matched.len());
        for (k, &i) in matched.iter().enumerate() {
            s.time[k] = s.time[k].max((hits[i].time - exact[k].time).abs());
        }
        if why.is_some() || *stopped || hits.len() != exact.len() {
            s.velocity = None;
        }
        if let Some(velocity) = &mut s.velocity {
            for (b, (c, e)) in end.iter().zip(exact_end).enumerate() {
                velocity[b] = velocity[b].max(c.v.distance(e.v));
            }
        }
    }
    s
}

/// Compares the App's velocities at the end of a tick with the oracle's; returns the largest
/// difference relative to its tolerance, and why it fails if it does.
fn compare_velocities(
    got: &[Disk],
    want: &[Disk],
    spread: &[f64],
    speed: f64,
) -> (f64, Option<String>) {
    let mut worst = (0.0, None);
    for (b, (g, w)) in got.iter().zip(want).enumerate() {
        let tolerance = velocity_tolerance(speed, spread[b]);
        let off = g.v.distance(w.v);
        if off / tolerance > worst.0 {
            worst.0 = off / tolerance;
        }
        if off > tolerance && worst.1.is_none() {
            worst.1 = Some(format!(
                "ball {b}'s velocity is {}, the oracle's {} ({:.1e} of the speed {speed:.3e}; \
                 tolerance {:.1e}, the oracle's own spread {:.1e})",
                g.v,
                w.v,
                off / speed,
                tolerance / speed,
                spread[b] / speed
            ));
        }
    }
    worst
}

/// One run of the free oracle: its hits, its disks at the end of each tick, and whether it
/// stopped at an ambiguity (when).
struct FreeRun {
    oracle: Oracle,
    hits: Vec<Hit>,
    ends: Vec<Vec<Disk>>,
    /// Whether each tick had a hit at its very end (see `Oracle::edge`).
    edges: Vec<bool>,
    stopped: Option<Ambiguity>,
}

impl FreeRun {
    fn new(oracle: Oracle) -> Self {
        Self {
            oracle,
            hits: Vec::new(),
            ends: Vec::new(),
            edges: Vec::new(),
            stopped: None,
        }
    }

    fn run_tick(&mut self, k: usize) {
        if self.stopped.is_none() {
            self.stopped = self.oracle.run_tick(k, &mut self.hits).err();
            self.oracle.round_to_f32();
        }
        self.ends.push(self.oracle.disks.clone());
        self.edges.push(self.oracle.edge);
    }
}

/// Runs the scene until the App and the free oracle have each made `HITS` hits (or
/// `max_ticks` ticks have run), checking everything; returns it.
fn run(mut scene: Scene, max_ticks: usize, stats: &mut Stats) -> Scene {
    stats.scenes += 1;
    let n = scene.balls.len();
    let elastic = scene.oracle.disks.iter().all(|d| d.e == 1.0);
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    let scene_extent = scene
        .oracle
        .walls
        .iter()
        .map(|w| w.at.abs())
        .fold(extent(&scene.oracle.disks), f64::max);
    let mut free = FreeRun::new(scene.oracle.clone());
    let mut free_copies: Vec<FreeRun> = (0..COPIES)
        .map(|_| FreeRun::new(perturbed(&scene.oracle, scene_extent, &mut rng)))
        .collect();
    let mut app_all = Vec::new();
    let mut extents = Vec::new();
    let mut app_ends = Vec::new();
    for k in 0..max_ticks {
        if (free.hits.len() >= HITS || free.stopped.is_some()) && app_all.len() >= HITS {
            break;
        }
        stats.ticks += 1;
        let before = app_disks(&scene);
        let start = Oracle {
            disks: before.clone(),
            ..scene.oracle.clone()
        };
        let mut exact = start.clone();
        let mut want = Vec::new();
        let exact_stopped = exact.run_tick(k, &mut want);
        let extent = extent(&before).max(extent(&exact.disks));
        let copies: Vec<(Vec<Hit>, Vec<Disk>, bool)> = (0..COPIES)
            .map(|_| {
                let mut copy = perturbed(&start, extent, &mut rng);
                let mut hits = Vec::new();
                let stopped = copy.run_tick(k, &mut hits).is_err();
                (hits, copy.disks, stopped)
            })
            .collect();
        free.run_tick(k);
        for copy in &mut free_copies {
            copy.run_tick(k);
        }

        let events = tick(&mut scene.app);
        let got = app_hits(&scene, &events, k);
        let after = app_disks(&scene);
        let extent = extent.max(self::extent(&after));
        app_all.extend(got.iter().copied());
        extents.push(extent);
        app_ends.push(after.clone());
        let label = format!("{} tick {k}", scene.name);

        // (2) This tick against the restarted oracle, up to where rounding may change it.
        let spread = sensitivity(n, &want, &exact.disks, &copies);
        let tolerance = |k: usize, h: &Hit| time_tolerance(extent, h.approach, spread.time[k]);
        // A hit at the very end of the tick may be the App's in this tick or the next.
        let before_edge = if exact.edge {
            want.iter()
                .take_while(|h| (k + 1) as f64 - h.time > rounding_time(extent, h.approach))
                .count()
        } else {
            want.len()
        };
        let compared = &want[..spread.horizon.min(before_edge)];
        stats.tick_hits += compared.len();
        let (matched, why) = match_hits(n, &got, compared, tolerance);
        for (j, &i) in matched.iter().enumerate() {
            let off = (got[i].time - compared[j].time).abs() / tolerance(j, &compared[j]);
            stats.worst_tick_time = stats.worst_tick_time.max(off);
        }
        let conditioned = exact_stopped.is_ok() && !exact.edge && spread.horizon == want.len();
        if let Some(why) = why {
            stats
                .failures
                .push(format!("{label} (restarted oracle): {why}"));
        } else if conditioned && got.len() != want.len() {
            stats.failures.push(format!(
                "{label} (restarted oracle): the App has {} more hits than the oracle's {}: {:?}",
                got.len() - want.len(),
                want.len(),
                &got[want.len()..]
            ));
        }
        match (&exact_stopped, &spread.velocity) {
            (Ok(()), Some(velocity)) if conditioned => {
                stats.ticks_compared += 1;
                let speed = fastest(&before).max(fastest(&exact.disks));
                let (worst, why) = compare_velocities(&after, &exact.disks, velocity, speed);
                stats.worst_tick_velocity = stats.worst_tick_velocity.max(worst);
                if let Some(why) = why {
                    stats
                        .failures
                        .push(format!("{label} (restarted oracle): {why}"));
                }
            }
            _ => {
                stats.ticks_not_compared += 1;
                let why = match &exact_stopped {
                    Err(why) => why.what.clone(),
                    Ok(()) if exact.edge => "a hit at the end of the tick".to_string(),
                    Ok(()) => format!(
                        "the oracle's rounded copies disagree with it after its first {} of {} \
                         hits",
                        spread.horizon,
                        want.len()
                    ),
                };
                stats
                    .notes
                    .push(format!("{label}: velocities not compared: {why}"));
            }
        }

        // (3) Conservation and overlap.
        let (p0, scale) = momentum(&before);
        let (p1, _) = momentum(&after);
        if !got.iter().any(|h| h.b >= n) {
            let drift = p1.distance(p0) / scale.max(f64::MIN_POSITIVE);
            stats.worst_momentum = stats.worst_momentum.max(drift);
            if drift > CONSERVATION_TOLERANCE {
                stats.failures.push(format!(
                    "{label}: momentum {p0} became {p1} ({drift:.1e} of Σ m|v|)"
                ));
            }
        }
        if elastic {
            let (e0, e1) = (energy(&before), energy(&after));
            let drift = (e1 - e0).abs() / e0;
            stats.worst_energy = stats.worst_energy.max(drift);
            if drift > CONSERVATION_TOLERANCE {
                stats.failures.push(format!(
                    "{label}: kinetic energy {e0} became {e1} ({drift:.1e})"
                ));
            }
        }
        let overlap_tolerance = overlap_tolerance(extent, fastest(&before).max(fastest(&after)));
        for i in 0..n {
            let a = &after[i];
            for (j, b) in after.iter().enumerate().skip(i + 1) {
                let overlap = a.r + b.r - a.p.distance(b.p);
                stats.worst_overlap = stats.worst_overlap.max(overlap / overlap_tolerance);
                if overlap > overlap_tolerance {
                    stats.failures.push(format!(
                        "{label}: balls {i} and {j} overlap by {overlap:.2e} (at {} and {})",
                        a.p, b.p
                    ));
                }
            }
            for (w, wall) in scene.oracle.walls.iter().enumerate() {
                let overlap = a.r - wall.sign * (a.p[wall.axis] - wall.at);
                stats.worst_overlap = stats.worst_overlap.max(overlap / overlap_tolerance);
                if overlap > overlap_tolerance {
                    stats.failures.push(format!(
                        "{label}: ball {i} is {overlap:.2e} inside wall {w} (at {})",
                        a.p
                    ));
                }
            }
        }
    }

    // (1) The free run: its first HITS hits, up to the first ambiguous moment and to where
    // the rounding of its start changes them.
    let horizon = free.stopped.as_ref().map_or(f64::INFINITY, |a| a.time);
    let count = free
        .hits
        .iter()
        .take(HITS)
        .take_while(|h| h.time < horizon - TIE)
        .count();
    let want = &free.hits[..count];
    let last = free.ends.len() - 1;
    let copies: Vec<(Vec<Hit>, Vec<Disk>, bool)> = free_copies
        .iter()
        .map(|c| (c.hits.clone(), c.ends[last].clone(), c.stopped.is_some()))
        .collect();
    let spread = sensitivity(n, want, &free.ends[last], &copies);
    // Say why fewer than HITS hits were compared, unless the scene had no more.
    let why = if spread.horizon < count {
        Some("the rounding of its start changes the next".to_string())
    } else {
        free.stopped
            .as_ref()
            .filter(|_| count < HITS)
            .map(|a| format!("{} at {:.6}", a.what, a.time))
    };
    if let Some(why) = why {
        stats.notes.push(format!(
            "{}: free run compared over its first {} hits: {why}",
            scene.name, spread.horizon
        ));
    }
    let want = &want[..spread.horizon];
    let until = want.last().map_or(0.0, |h| h.time);
    let extent = extents.iter().copied().fold(0.0, f64::max);
    let tolerance = |k: usize, h: &Hit| time_tolerance(extent, h.approach, spread.time[k]);
    let got: Vec<Hit> = app_all
        .iter()
        .copied()
        .filter(|h| {
            want.last()
                .is_some_and(|w| h.time <= w.time + tolerance(want.len() - 1, w))
        })
        .collect();
    stats.free_hits += want.len();
    let (matched, why) = match_hits(n, &got, want, tolerance);
    for (j, &i) in matched.iter().enumerate() {
        let off = (got[i].time - want[j].time).abs() / tolerance(j, &want[j]);
        stats.worst_free_time = stats.worst_free_time.max(off);
    }
    if let Some(why) = why {
        stats
            .failures
            .push(format!("{} (free run): {why}", scene.name));
    } else if let Some(last) = want.last() {
        // An App hit that the oracle does not have, before its last hit compared (those
        // just after it may be the oracle's next ones).
        let before = last.time - tolerance(want.len() - 1, last);
        if let Some(extra) = (0..got.len()).find(|i| !matched.contains(i) && got[*i].time < before)
        {
            let h = got[extra];
            stats.failures.push(format!(
                "{} (free run): the App has a hit the oracle does not: {} at {:.7}",
                scene.name,
                pair_name(n, h.a, h.b),
                h.time
            ));
        }
    }
    // The velocities at the end of every tick wholly before the last hit compared.
    for (k, after) in app_ends.iter().enumerate() {
        if (k + 1) as f64 > until {
            break;
        }
        if free.edges[k] {
            // A hit at the end of the tick may be the App's in this tick or the next.
            continue;
        }
        let exact = &free.ends[k];
        let mut velocity = vec![0.0_f64; n];
        for copy in &free_copies {
            for (b, (c, e)) in copy.ends[k].iter().zip(exact).enumerate() {
                velocity[b] = velocity[b].max(c.v.distance(e.v));
            }
        }
        let (worst, why) = compare_velocities(after, exact, &velocity, fastest(exact));
        stats.worst_free_velocity = stats.worst_free_velocity.max(worst);
        if let Some(why) = why {
            stats
                .failures
                .push(format!("{} (free run) tick {k}: {why}", scene.name));
            break;
        }
    }
    scene
}

#[allow(clippy::print_stderr, reason = "a summary of what was checked")]
fn report(what: &str, stats: &Stats) {
    eprintln!(
        "{what}: {} scenes, {} ticks; hits compared: {} with the free run, {} tick by tick \
         (velocities of {} ticks compared, {} not); worst, relative to the tolerance: free run \
         time {:.2} velocity {:.2}, tick by tick time {:.2} velocity {:.2}, overlap {:.2}; \
         momentum {:.1e}, energy {:.1e}",
        stats.scenes,
        stats.ticks,
        stats.free_hits,
        stats.tick_hits,
        stats.ticks_compared,
        stats.ticks_not_compared,
        stats.worst_free_time,
        stats.worst_free_velocity,
        stats.worst_tick_time,
        stats.worst_tick_velocity,
        stats.worst_overlap,
        stats.worst_momentum,
        stats.worst_energy,
    );
    for note in &stats.notes {
        eprintln!("  note: {note}");
    }
    for failure in &stats.failures {
        eprintln!("  FAILED: {failure}");
    }
    assert!(
        stats.failures.is_empty(),
        "{what}: {} failures, the first: {}",
        stats.failures.len(),
        stats.failures[0]
    );
}

// ---------------------------------------------------------------------------------------
// The scenes.

/// The speeds of the scenes: 1 to 1e5 units/s.
const SPEEDS: [f32; 6] = [1.0, 10.0, 100.0, 1e3, 1e4, 1e5];

/// A gas of 10 to 40 balls of radii 0.5 to 3 and masses 0.2 to 5, at speeds of `0.3 speed` to
/// `speed` in random directions, in a closed box. The balls start on a jittered grid at least
/// `gap` apart: a ball meets another about every `gap` it travels, so `gap` grows with the
/// speed (a hit every one or two ticks) up to 60 units (beyond, the box would be so large
/// that `f32` places lose what the test checks: at 1e5 units/s a ball then meets some 20
/// others and walls a tick).
fn gas(seed: u64, speed: f32, elastic: bool) -> Scene {
    let mut rng = ChaCha8Rng::seed_from_u64(0x6a5 ^ seed);
    let n: usize = rng.random_range(10..=40);
    let gap = (speed * TICK * rng.random_range(0.5..2.0)).clamp(0.05, 60.0);
    let cols = (n as f32).sqrt().ceil() as usize;
    let rows = n.div_ceil(cols);
    let cell = 6.0 + gap;
    let half = (Vec2::new(cols as f32, rows as f32) * cell / 2.0 + gap).ceil();
    let mut balls = Vec::new();
    for i in 0..n {
        let r: f32 = rng.random_range(0.5..3.0);
        let (col, row) = (i % cols, i / cols);
        let center = Vec2::new(
            (col as f32 + 0.5 - cols as f32 / 2.0) * cell,
            (row as f32 + 0.5 - rows as f32 / 2.0) * cell,
        );
        let room = cell / 2.0 - r - gap / 2.0;
        let jitter = Vec2::new(
            rng.random_range(-room..=room),
            rng.random_range(-room..=room),
        );
        let angle: f32 = rng.random_range(0.0..core::f32::consts::TAU);
        balls.push(BallSpec {
            p: center + jitter,
            v: Vec2::from_angle(angle) * speed * rng.random_range(0.3..1.0),
            r,
            m: rng.random_range(0.2..5.0),
            e: if elastic {
                1.0
            } else {
                rng.random_range(0.0..=1.0)
            },
        });
    }
    scene(
        format!(
            "gas seed {seed} ({n} balls, speed {speed}, {})",
            if elastic { "e = 1" } else { "e random" }
        ),
        &balls,
        Some(half),
    )
}

#[test]
fn gases_match_the_oracle() {
    let mut stats = Stats::default();
    for seed in 0..48_u64 {
        let speed = SPEEDS[seed as usize % SPEEDS.len()];
        let elastic = (seed / SPEEDS.len() as u64).is_multiple_of(2);
        run(gas(seed, speed, elastic), 2000, &mut stats);
    }
    report("gases", &stats);
}

/// A Newton's cradle on the x axis: `count` equal balls of radius `r` in a row, `gap` apart,
/// and a striker of the same kind `gap` to their left moving right at `speed`; `boxed`, in a
/// box that leaves some room at each end: the balls pass the speed along the row, off the
/// wall and back, for ever. On one axis every normal is exact, and nothing is chaotic: the
/// whole free run compares.
fn cradle(count: usize, r: f32, gap: f32, speed: f32, e: f32, boxed: bool) -> Scene {
    let pitch = 2.0 * r + gap;
    let room = (speed * TICK * 2.0).max(0.25);
    // The row and the striker, centred; the box leaves `room` beyond them at each end.
    let half = Vec2::new(
        ((count as f32 + 1.0) * pitch / 2.0 + room).ceil(),
        (r + 1.0).ceil(),
    );
    let left = -(count as f32 - 2.0) * pitch / 2.0;
    let mut balls: Vec<BallSpec> = (0..count)
        .map(|i| BallSpec {
            p: Vec2::new(left + i as f32 * pitch, 0.0),
            v: Vec2::ZERO,
            r,
            m: 1.0,
            e,
        })
        .collect();
    balls.push(BallSpec {
        p: Vec2::new(left - pitch, 0.0),
        v: Vec2::new(speed, 0.0),
        r,
        m: 1.0,
        e,
    });
    scene(
        format!(
            "cradle of {count} (radius {r}, gap {gap}, speed {speed}, e = {e}{})",
            if boxed { ", in a box" } else { "" }
        ),
        &balls,
        boxed.then_some(half),
    )
}

#[test]
fn newtons_cradles_match_the_oracle() {
    let mut stats = Stats::default();
    for (i, &speed) in SPEEDS.iter().enumerate() {
        // The gap: the hits along the row are `gap / speed` apart, well above what the
        // rounding of a place can move them (`TIE`).
        let gap = 0.05 * (1.0 + speed * TICK / 50.0);
        for count in [2, 4, 7] {
            let r = [0.5, 1.0, 2.5][(i + count) % 3];
            for e in [1.0, 0.8] {
                run(cradle(count, r, gap, speed, e, false), 200, &mut stats);
            }
        }
        // In a box: the pulse comes back off the wall into a row that now touches (each
        // ball stopped where it met the next), a chain at one moment, which stops the
        // comparison: the first pass and the wall.
        run(cradle(5, 1.0, gap, speed, 1.0, true), 400, &mut stats);
    }
    report("cradles", &stats);
}

/// Two balls that meet in the open: `b` moves towards `a` (or `a` is hit by it), their
/// centres `offset` (a fraction of `r_a + r_b`) apart across the line of motion, meeting some
/// 2.4 ticks after the start.
fn pair(rng: &mut ChaCha8Rng, speed: f32, offset: f32) -> Scene {
    let ra: f32 = rng.random_range(0.5..3.0);
    let rb: f32 = rng.random_range(0.5..3.0);
    let va = Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU))
        * speed
        * rng.random_range(0.0..1.0);
    let direction = Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU));
    let vb = va + direction * speed;
    // Where they meet (the contact at time `t`), then back to the start.
    let t = rng.random_range(2.1..2.9) * TICK;
    let across = direction.perp() * offset * (ra + rb);
    let along = -direction * ((ra + rb) * (1.0 - offset * offset).sqrt());
    let meet_a = Vec2::new(rng.random_range(-5.0..5.0), rng.random_range(-5.0..5.0));
    let meet_b = meet_a + along + across;
    let (ma, mb) = (rng.random_range(0.2..5.0), rng.random_range(0.2..5.0));
    let (ea, eb) = (rng.random_range(0.0..=1.0), rng.random_range(0.0..=1.0));
    let balls = [
        BallSpec {
            p: meet_a - va * t,
            v: va,
            r: ra,
            m: ma,
            e: ea,
        },
        BallSpec {
            p: meet_b - vb * t,
            v: vb,
            r: rb,
            m: mb,
            e: eb,
        },
    ];
    scene(
        format!("pair (speed {speed}, offset {offset})"),
        &balls,
        None,
    )
}

#[test]
fn head_on_and_glancing_pairs_match_the_oracle() {
    let mut stats = Stats::default();
    let mut rng = ChaCha8Rng::seed_from_u64(0x9a1);
    for &speed in &SPEEDS {
        for offset in [0.0, 0.3, 0.7, 0.95] {
            for _ in 0..3 {
                let speed = speed * rng.random_range(1.0..2.0);
                run(pair(&mut rng, speed, offset), 6, &mut stats);
            }
        }
    }
    // DESIGN §11's two examples, on the x axis: equal balls head-on swap velocities; a ball of
    // mass 1 meeting a still ball of mass 3 at speed v leaves at -v/2, the other at v/2.
    for &speed in &SPEEDS {
        let ball = |x: f32, v: f32, m: f32| BallSpec {
            p: Vec2::new(x, 0.0),
            v: Vec2::new(v, 0.0),
            r: 1.0,
            m,
            e: 1.0,
        };
        let reach = speed * TICK * 2.5;
        let mut swap = run(
            scene(
                format!("equal balls head-on at {speed}"),
                &[
                    ball(-1.0 - reach / 2.0, speed, 1.0),
                    ball(1.0 + reach / 2.0, -speed / 2.0, 1.0),
                ],
                None,
            ),
            6,
            &mut stats,
        );
        let v = app_disks(&swap).iter().map(|d| d.v.x).collect::<Vec<_>>();
        let want = [-f64::from(speed) / 2.0, f64::from(speed)];
        for (got, want) in v.iter().zip(want) {
            assert!(
                (got - want).abs() <= 1e-6 * want.abs(),
                "{}: {v:?}",
                swap.name
            );
        }
        tick(&mut swap.app);
        let mut heavy = run(
            scene(
                format!("mass 1 into a still mass 3 at {speed}"),
                &[ball(-1.0 - reach, speed, 1.0), ball(1.0, 0.0, 3.0)],
                None,
            ),
            6,
            &mut stats,
        );
        let v = app_disks(&heavy).iter().map(|d| d.v.x).collect::<Vec<_>>();
        let want = [-f64::from(speed) / 2.0, f64::from(speed) / 2.0];
        for (got, want) in v.iter().zip(want) {
            assert!(
                (got - want).abs() <= 1e-6 * want.abs(),
                "{}: {v:?}",
                heavy.name
            );
        }
        tick(&mut heavy.app);
    }
    report("pairs", &stats);
}

/// A row of balls that touch (centres exactly `2 r` apart in `f32`), hit by `strikers`
/// touching balls moving at `speed`: the hits along the row come at one moment, a chain in
/// which each hit makes the next (the oracle answers them one after the other, as the rules
/// say: `chains`). The classic answer: the last `strikers` balls of the row leave at `speed`,
/// the others stand still.
fn touching_cradle(count: usize, strikers: usize, speed: f32) -> (Scene, Vec<f32>) {
    let r = 1.0_f32;
    let start = speed * TICK * 1.5 + 0.25;
    let mut balls = Vec::new();
    for i in 0..strikers {
        balls.push(BallSpec {
            p: Vec2::new(-(start + 2.0 * r * (i + 1) as f32).round(), 0.0),
            v: Vec2::new(speed, 0.0),
            r,
            m: 1.0,
            e: 1.0,
        });
    }
    for i in 0..count {
        balls.push(BallSpec {
            p: Vec2::new(2.0 * r * i as f32, 0.0),
            v: Vec2::ZERO,
            r,
            m: 1.0,
            e: 1.0,
        });
    }
    let want = (0..strikers + count)
        .map(|i| if i >= count { speed } else { 0.0 })
        .collect();
    let mut scene = scene(
        format!("{strikers} into a touching row of {count} at {speed}"),
        &balls,
        None,
    );
    scene.oracle.chains = true;
    (scene, want)
}

#[test]
fn touching_cradles_pass_the_speed_along() {
    for &speed in &SPEEDS {
        for (count, strikers) in [(2, 1), (3, 1), (5, 1), (3, 2), (5, 2)] {
            let (mut scene, want) = touching_cradle(count, strikers, speed);
            let n = scene.balls.len();
            let mut oracle = scene.oracle.clone();
            let before = app_disks(&scene);
            let mut hits = Vec::new();
            for k in 0..3 {
                oracle
                    .run_tick(k, &mut hits)
                    .unwrap_or_else(|a| panic!("{}: {a:?}", scene.name));
                tick(&mut scene.app);
            }
            let after = app_disks(&scene);
            // The oracle itself: the classic answer.
            for (i, d) in oracle.disks.iter().enumerate() {
                assert!(
                    (d.v.x - f64::from(want[i])).abs() <= 1e-9 * f64::from(speed) && d.v.y == 0.0,
                    "{}: the oracle's ball {i} leaves at {}",
                    scene.name,
                    d.v
                );
            }
            let (worst, why) =
                compare_velocities(&after, &oracle.disks, &vec![0.0; n], f64::from(speed));
            assert!(
                why.is_none(),
                "{} ({} hits in the oracle: {:?}): {}; the App's velocities: {:?}",
                scene.name,
                hits.len(),
                hits.iter()
                    .map(|h| pair_name(n, h.a, h.b))
                    .collect::<Vec<_>>(),
                why.unwrap_or_default(),
                after.iter().map(|d| d.v).collect::<Vec<_>>()
            );
            assert!(worst <= 1.0);
            let (p0, scale) = momentum(&before);
            let (p1, _) = momentum(&after);
            assert!(
                p1.distance(p0) <= CONSERVATION_TOLERANCE * scale,
                "{}",
                scene.name
            );
            let (e0, e1) = (energy(&before), energy(&after));
            assert!(
                (e1 - e0).abs() <= CONSERVATION_TOLERANCE * e0,
                "{}",
                scene.name
            );
            let tolerance = overlap_tolerance(extent(&after), f64::from(speed));
            for (i, a) in after.iter().enumerate() {
                for b in &after[i + 1..] {
                    assert!(
                        a.p.distance(b.p) >= a.r + b.r - tolerance,
                        "{}: overlap {after:?}",
                        scene.name
                    );
                }
            }
        }
    }
}

/// Past 32 hits in a tick a mover stays where its last answer left it until the next tick
/// (DESIGN §11): two balls at 1e5 units/s in a box 14 by 8, where the oracle has a ball hit
/// more than 32 times in the first tick, answer at most 32 hits each (the events with a
/// normal speed are at most 64), end every tick outside each other and the walls, and keep
/// their energy (restitution 1).
#[test]
fn past_the_cap_balls_stay_outside_everything() {
    let balls = [
        BallSpec {
            p: Vec2::new(-3.0, 0.0),
            v: Vec2::new(100_000.0, 3_000.0),
            r: 1.0,
            m: 1.0,
            e: 1.0,
        },
        BallSpec {
            p: Vec2::new(3.0, 0.5),
            v: Vec2::new(-70_000.0, -1_000.0),
            r: 1.5,
            m: 2.0,
            e: 1.0,
        },
    ];
    let mut scene = scene(
        "two balls at the cap".to_string(),
        &balls,
        Some(Vec2::new(7.0, 4.0)),
    );
    let mut oracle = scene.oracle.clone();
    let mut hits = Vec::new();
    assert!(
        oracle
            .run_tick(0, &mut hits)
            .is_err_and(|a| a.what.contains("more than")),
        "the oracle hits a ball more than {MAX_HITS_PER_TICK} times in the first tick"
    );
    let e0 = energy(&app_disks(&scene));
    for k in 0..20 {
        let events = tick(&mut scene.app);
        // Each hit (with a normal speed: a ball that stopped at its cap may touch a wall
        // or be met by the other ball) is answered by one of the balls at least: at most
        // 32 each.
        let speed = fastest(&app_disks(&scene));
        let real = events
            .iter()
            .filter(|e| e.kind != CollisionKind::Ended)
            .filter(|e| scene.balls.contains(&e.entity) || scene.balls.contains(&e.other))
            .filter(|e| e.relative_velocity.dot(e.normal).abs() > 1e-3 * speed as f32)
            .count();
        assert!(
            real <= 2 * MAX_HITS_PER_TICK,
            "tick {k}: {real} hits answered by two balls"
        );
        let after = app_disks(&scene);
        let tolerance = overlap_tolerance(7.0, speed.max(fastest(&after)));
        let (a, b) = (&after[0], &after[1]);
        assert!(
            a.p.distance(b.p) >= a.r + b.r - tolerance,
            "tick {k}: the balls overlap by {:.2e}: {after:?}",
            a.r + b.r - a.p.distance(b.p)
        );
        for d in &after {
            for wall in &scene.oracle.walls {
                assert!(
                    wall.sign * (d.p[wall.axis] - wall.at) >= d.r - tolerance,
                    "tick {k}: a ball is in a wall: {after:?}"
                );
            }
        }
        let e1 = energy(&after);
        assert!(
            (e1 - e0).abs() <= CONSERVATION_TOLERANCE * e0,
            "tick {k}: energy {e0} became {e1}"
        );
    }
}

/// Two balls that meet twice in one tick: `a` moving right at `speed` hits `b`, which goes
/// off the right wall and back into `a` within the same tick. On the x axis, in a box.
fn twice_in_a_tick(speed: f32, mb: f32, e: f32) -> Scene {
    let r = 1.0_f32;
    let half = Vec2::new((4.0 * r + speed * TICK).ceil() + 2.0, 2.0);
    // `a` reaches `b` an eighth of a tick in, `b` the wall another eighth later.
    let gap = speed * TICK / 8.0;
    let b = half.x - r - gap;
    let a = b - 2.0 * r - gap;
    let ball = |x: f32, v: f32, m: f32| BallSpec {
        p: Vec2::new(x, 0.0),
        v: Vec2::new(v, 0.0),
        r,
        m,
        e,
    };
    scene(
        format!("a pair that meets twice in a tick (speed {speed}, masses 1 and {mb}, e = {e})"),
        &[ball(a, speed, 1.0), ball(b, 0.0, mb)],
        Some(half),
    )
}

#[test]
fn a_pair_that_meets_twice_in_a_tick_matches_the_oracle() {
    let mut stats = Stats::default();
    for &speed in &SPEEDS {
        for (mb, e) in [(1.0, 1.0), (1.0, 0.5), (0.5, 1.0), (0.5, 0.8)] {
            run(twice_in_a_tick(speed, mb, e), 3, &mut stats);
        }
    }
    report("pairs that meet twice in a tick", &stats);
}
