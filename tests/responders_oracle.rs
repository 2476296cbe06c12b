//! Bouncing responders (`Response::Bounce`) against an oracle written apart from the crate's
//! tick code, in `f64`, from the documented rules alone:
//!
//! - a responder moves along its velocity until its first contact with a solid, answers it
//!   at that moment with `v' = v - (1 + e) (w·n) n` (`w = v - u`, `u` the solid's velocity at
//!   the contact, `n` the contact normal towards the responder), and goes on for the rest of
//!   the tick;
//! - each bounce is one `Crossed` event between the responder and the solid, at its moment,
//!   place and normal;
//! - a solid moves linearly from its pose at the start of the tick to its pose at the end
//!   (a turning one: each vertex on a straight line between the two poses);
//! - at the end of every tick the responder is outside every solid.
//!
//! The oracle finds contacts by *conservative advancement* on signed distance functions: the
//! gap between the ball and a solid shrinks at most as fast as the ball moves plus the
//! fastest vertex of the solid, so stepping the time by `gap / that bound` never steps over
//! a contact, and stops when the gap is below 1e-9 units: an iterative search, not the
//! closed-form sweeps of the crate's kernels.
//!
//! The oracle restarts each tick from the App's state (the ball's place and velocity, every
//! solid's pose before and after the tick, read from the `Transform`s), so that errors do not
//! accumulate over ticks.

use bevy::math::DVec2;
use bevy::prelude::*;
use bevy_sweep::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;
use common::{TICK, app, tick, v};

/// The tick, in seconds.
const DT: f64 = TICK as f64;

// ---------------------------------------------------------------------------------------
// Tolerances.
//
// The App computes in `f32`: a coordinate of up to ~250 units carries an ulp of ~1.5e-5, so
// every place the crate computes is off by some 1e-5 units, and a normal at a corner (the
// direction from the corner to the ball's centre, over a radius of 1 to 4) by up to ~1e-5
// radians. The oracle keeps only ticks whose every hit approaches the solid at a normal speed
// of at least 20 units/s and 5 % of the relative speed (`GRAZE_SPEED`, `GRAZE_FRACTION`), so a
// place error of 1e-5 units is a time error of at most 1e-5 / (20 × DT) ≈ 3e-5 of a tick. A
// later bounce in the same tick inherits the earlier ones' errors: a normal off by 1e-5
// radians turns a ball that travels up to 80 units a tick by that much, 1e-3 units at the end
// of the tick. The largest differences measured where the App agrees with the oracle (the
// summary the random-world test prints): 5e-6 of a tick, 6e-5 units at a bounce, 4e-4 units
// at the end of a tick, 1.1e-5 of the speed; the tolerances below leave ten times that or
// more.

/// How far the moment of a bounce may be from the oracle's, in ticks.
const TIME_TOLERANCE: f64 = 1e-4;
/// How far the place of a bounce and the ball's place at the end of the tick may be from the
/// oracle's, in units.
const PLACE_TOLERANCE: f64 = 1e-2;
/// How far the normal of a bounce may be from the oracle's (unit vectors).
const NORMAL_TOLERANCE: f64 = 1e-3;
/// How far the velocity at the end of the tick may be from the oracle's, relative to the
/// speed (a normal off by 1e-5 changes the velocity by ~2e-5 of the speed per bounce).
const VELOCITY_TOLERANCE: f64 = 1e-3;
/// How far inside a solid the ball may end a tick (`f32` rounding of its place).
const OVERLAP_TOLERANCE: f64 = 1e-3;

// Degenerate cases the random worlds skip (the end-of-tick check (c) is made all the same):
/// Two hits closer in time than this (a ball into a corner between two solids, whose order
/// the rounding decides), or a hit this close to the start or the end of the tick (which the
/// rounding can put in the tick next to it).
const CLOSE_HITS: f64 = 1e-4;
/// A passing ball that comes closer than this to a solid without touching it: the rounding
/// may make it touch.
const NEAR_MISS: f64 = 1e-3;
/// A hit whose normal relative speed is below `GRAZE_FRACTION` of the relative speed or
/// `GRAZE_SPEED` units/s: its moment is ill-conditioned.
const GRAZE_FRACTION: f64 = 0.05;
const GRAZE_SPEED: f64 = 20.0;

// ---------------------------------------------------------------------------------------
// The oracle's geometry: signed distance of a point to a solid at a moment of the tick.

/// A solid's shape and its motion in the tick, in world space.
#[derive(Clone, Copy, Debug)]
enum Geom {
    /// An axis-aligned box whose centre moves from `c0` to `c1`.
    Aabb { c0: DVec2, c1: DVec2, half: DVec2 },
    /// A still circle.
    Circle { center: DVec2, radius: f64 },
    /// A still segment.
    Segment { a: DVec2, b: DVec2 },
    /// A convex quadrilateral whose corners move each on a straight line from `q0` to `q1`
    /// (a rectangle, still or turning).
    Quad { q0: [DVec2; 4], q1: [DVec2; 4] },
}

/// The nearest point of a solid to a point.
#[derive(Clone, Copy, Debug)]
struct Near {
    /// Signed distance (negative inside).
    distance: f64,
    /// The nearest point on the solid's boundary.
    point: DVec2,
    /// How far that point of the solid moves in the whole tick (its velocity × the tick).
    motion: DVec2,
}

fn closest_on_segment(p: DVec2, a: DVec2, b: DVec2) -> (DVec2, f64) {
    let ab = b - a;
    let along = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
    (a + ab * along, along)
}

fn cross(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

impl Geom {
    fn near(&self, p: DVec2, s: f64) -> Near {
        match *self {
            Geom::Aabb { c0, c1, half } => {
                let c = c0.lerp(c1, s);
                let d = p - c;
                let q = d.abs() - half;
                let (distance, point) = if q.x > 0.0 || q.y > 0.0 {
                    let point = c + d.clamp(-half, half);
                    (p.distance(point), point)
                } else if q.x > q.y {
                    (q.x, DVec2::new(c.x + half.x.copysign(d.x), p.y))
                } else {
                    (q.y, DVec2::new(p.x, c.y + half.y.copysign(d.y)))
                };
                Near {
                    distance,
                    point,
                    motion: c1 - c0,
                }
            }
            Geom::Circle { center, radius } => {
                let d = p - center;
                Near {
                    distance: d.length() - radius,
                    point: center + d.normalize() * radius,
                    motion: DVec2::ZERO,
                }
            }
            Geom::Segment { a, b } => {
                let (point, _) = closest_on_segment(p, a, b);
                Near {
                    distance: p.distance(point),
                    point,
                    motion: DVec2::ZERO,
                }
            }
            Geom::Quad { q0, q1 } => {
                let q: [DVec2; 4] = core::array::from_fn(|i| q0[i].lerp(q1[i], s));
                let winding = cross(q[1] - q[0], q[2] - q[0]).signum();
                let mut inside = true;
                let mut best = (f64::INFINITY, DVec2::ZERO, DVec2::ZERO);
                for i in 0..4 {
                    let j = (i + 1) % 4;
                    if cross(q[j] - q[i], p - q[i]) * winding < 0.0 {
                        inside = false;
                    }
                    let (point, along) = closest_on_segment(p, q[i], q[j]);
                    let distance = p.distance(point);
                    if distance < best.0 {
                        // The material point at `along` on the edge moves with the
                        // interpolated motion of the edge's two corners.
                        let motion = (q1[i] - q0[i]).lerp(q1[j] - q0[j], along);
                        best = (distance, point, motion);
                    }
                }
                Near {
                    distance: if inside { -best.0 } else { best.0 },
                    point: best.1,
                    motion: best.2,
                }
            }
        }
    }

    /// An upper bound of how far any point of the solid moves in the tick: the distance to
    /// it changes at most that fast (per tick).
    fn speed_bound(&self) -> f64 {
        match *self {
            Geom::Aabb { c0, c1, .. } => c0.distance(c1),
            Geom::Circle { .. } | Geom::Segment { .. } => 0.0,
            Geom::Quad { q0, q1 } => (0..4).map(|i| q0[i].distance(q1[i])).fold(0.0, f64::max),
        }
    }
}

// ---------------------------------------------------------------------------------------
// The oracle's bouncing ball.

/// One bounce the oracle predicts.
#[derive(Clone, Copy, Debug)]
struct Hit {
    /// The moment, as a fraction of the tick.
    time: f64,
    /// Which solid (index into the solids given).
    solid: usize,
    point: DVec2,
    normal: DVec2,
}

#[derive(Clone, Debug)]
struct Outcome {
    hits: Vec<Hit>,
    /// The ball's centre at the end of the tick.
    end: DVec2,
    /// Its velocity at the end of the tick (units/s).
    velocity: DVec2,
}

/// Why the oracle declines a tick as too close to a degenerate case to compare.
type Skip = &'static str;

/// The first moment in `[t0, 1]` at which a ball of `radius` at `p` at `t0`, moving at
/// `velocity` (units/s), touches `geom`, by conservative advancement. `just_hit`: the ball
/// bounced off this solid at `t0`, and is leaving it.
fn first_contact(
    geom: &Geom,
    p: DVec2,
    velocity: DVec2,
    radius: f64,
    t0: f64,
    just_hit: bool,
) -> Result<Option<f64>, Skip> {
    let bound = velocity.length() * DT + geom.speed_bound() + 1e-12;
    let gap = |t: f64| geom.near(p + velocity * (DT * (t - t0)), t).distance - radius;
    // Leaving a solid just bounced off, the gap grows from 0: start a little later (a second
    // hit on it within `CLOSE_HITS` is a degenerate case anyway).
    let start = if just_hit { t0 + CLOSE_HITS } else { t0 };
    if start >= 1.0 {
        return Ok(None);
    }
    let mut t = start;
    let mut previous = f64::INFINITY;
    let mut closest = f64::INFINITY;
    for step in 0..200_000 {
        let g = gap(t);
        if g <= 1e-9 {
            if just_hit && step == 0 {
                return Err("the ball does not leave the solid it bounced off");
            }
            return Ok(Some(t));
        }
        // The smallest gap on the way towards the solid (the first sample may be small on
        // the way away from it).
        if step > 0 && g < previous {
            closest = closest.min(g);
        }
        previous = g;
        // The gap cannot reach zero before `t + g / bound`.
        t += g / bound;
        if t > 1.0 {
            return if closest < NEAR_MISS {
                Err("a near miss")
            } else {
                Ok(None)
            };
        }
    }
    Err("conservative advancement does not converge")
}

/// One tick of a ball of `radius` and `restitution` from `start` at `velocity` among
/// `solids`: its bounces, in order, and where it ends.
fn simulate(
    start: DVec2,
    velocity: DVec2,
    radius: f64,
    restitution: f64,
    solids: &[Geom],
) -> Result<Outcome, Skip> {
    let (mut p, mut vel, mut t) = (start, velocity, 0.0);
    let mut last: Option<usize> = None;
    let mut hits = Vec::new();
    loop {
        let mut first: Option<(f64, usize)> = None;
        let mut second = f64::INFINITY;
        for (j, geom) in solids.iter().enumerate() {
            if let Some(tj) = first_contact(geom, p, vel, radius, t, last == Some(j))? {
                match first {
                    Some((t1, _)) if t1 <= tj => second = second.min(tj),
                    _ => {
                        second = second.min(first.map_or(f64::INFINITY, |f| f.0));
                        first = Some((tj, j));
                    }
                }
            }
        }
        let Some((time, j)) = first else {
            return Ok(Outcome {
                hits,
                end: p + vel * (DT * (1.0 - t)),
                velocity: vel,
            });
        };
        if second - time < CLOSE_HITS {
            return Err("two hits at nearly the same moment");
        }
        if time - t < CLOSE_HITS {
            return Err("two hits in a row at nearly the same moment, or a hit at the start");
        }
        if time > 1.0 - CLOSE_HITS {
            return Err("a hit at the very end of the tick");
        }
        let at = p + vel * (DT * (time - t));
        let near = solids[j].near(at, time);
        let normal = (at - near.point).normalize();
        let w = vel - near.motion / DT;
        let wn = w.dot(normal);
        if wn > -(GRAZE_FRACTION * w.length()).max(GRAZE_SPEED) {
            return Err("a grazing hit");
        }
        vel -= (1.0 + restitution) * wn * normal;
        p = at;
        t = time;
        last = Some(j);
        hits.push(Hit {
            time,
            solid: j,
            point: near.point,
            normal,
        });
        if hits.len() > 32 {
            return Err("more than 32 hits in a tick");
        }
    }
}

// ---------------------------------------------------------------------------------------
// The App's side: solids, their poses, and the ball.

/// A solid as spawned (local shape; the pose is read from its `Transform` each tick).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    Aabb(DVec2),
    Circle(f64),
    /// Endpoints in local space (the transform is a translation).
    Segment(DVec2, DVec2),
    /// Half extents of a rectangle, which turns with its transform.
    Rectangle(DVec2),
}

/// What kind of solid, for the counts of what was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Wall,
    Box,
    Circle,
    Segment,
    Rectangle,
    TurningRectangle,
    MovingBox,
}

#[derive(Clone, Copy, Debug)]
struct Solid {
    entity: Entity,
    shape: Shape,
    kind: Kind,
    /// A moving box's lane: its centre stays within `[lo, hi]` (its velocity is flipped
    /// before a tick that would take it out).
    lane: Option<(DVec2, DVec2)>,
}

/// A place and a rotation about z, in `f64`.
#[derive(Clone, Copy, Debug)]
struct Pose {
    center: DVec2,
    cos: f64,
    sin: f64,
}

impl Pose {
    fn place(&self, local: DVec2) -> DVec2 {
        self.center
            + DVec2::new(
                self.cos * local.x - self.sin * local.y,
                self.sin * local.x + self.cos * local.y,
            )
    }
}

fn pose(app: &App, entity: Entity) -> Pose {
    let t = app.world().get::<Transform>(entity).unwrap();
    let (z, w) = (f64::from(t.rotation.z), f64::from(t.rotation.w));
    Pose {
        center: DVec2::new(f64::from(t.translation.x), f64::from(t.translation.y)),
        // A rotation about z: (0, 0, sin θ/2, cos θ/2).
        cos: w * w - z * z,
        sin: 2.0 * w * z,
    }
}

fn d(p: Vec2) -> DVec2 {
    DVec2::new(f64::from(p.x), f64::from(p.y))
}

/// The oracle's shape of `shape`, moving from pose `a` to pose `b` in the tick.
fn geom(shape: Shape, a: Pose, b: Pose) -> Geom {
    match shape {
        Shape::Aabb(half) => Geom::Aabb {
            c0: a.center,
            c1: b.center,
            half,
        },
        Shape::Circle(radius) => {
            assert_eq!(a.center, b.center, "circles stand still here");
            Geom::Circle {
                center: b.center,
                radius,
            }
        }
        Shape::Segment(p, q) => {
            assert_eq!(a.center, b.center, "segments stand still here");
            Geom::Segment {
                a: b.place(p),
                b: b.place(q),
            }
        }
        Shape::Rectangle(h) => {
            let corners = [
                DVec2::new(-h.x, -h.y),
                DVec2::new(h.x, -h.y),
                DVec2::new(h.x, h.y),
                DVec2::new(-h.x, h.y),
            ];
            Geom::Quad {
                q0: corners.map(|c| a.place(c)),
                q1: corners.map(|c| b.place(c)),
            }
        }
    }
}

fn spawn_solid(app: &mut App, shape: Shape, center: Vec2, angle: f32) -> Entity {
    let transform =
        Transform::from_translation(center.extend(0.0)).with_rotation(Quat::from_rotation_z(angle));
    let f = |p: DVec2| Vec2::new(p.x as f32, p.y as f32);
    let collider = match shape {
        Shape::Aabb(h) => Collider::aabb(f(h)),
        Shape::Circle(r) => Collider::circle(r as f32),
        Shape::Segment(a, b) => Collider::segment(f(a), f(b)),
        Shape::Rectangle(h) => Collider::rectangle(f(h)),
    };
    app.world_mut().spawn((collider, transform)).id()
}

#[derive(Clone, Copy, Debug)]
struct Ball {
    entity: Entity,
    radius: f64,
    restitution: f64,
}

fn spawn_ball(app: &mut App, center: Vec2, velocity: Vec2, radius: f32, restitution: f32) -> Ball {
    let entity = app
        .world_mut()
        .spawn((
            Collider::circle(radius),
            Transform::from_translation(center.extend(0.0)),
            Velocity(velocity),
            Response::Bounce { restitution },
            // The balls meet the solids, not each other: the oracle follows each alone.
            CollisionLayers::from_bits(1, !1),
        ))
        .id();
    Ball {
        entity,
        radius: f64::from(radius),
        restitution: f64::from(restitution),
    }
}

fn ball_state(app: &App, ball: &Ball) -> (DVec2, DVec2) {
    let place = app
        .world()
        .get::<Transform>(ball.entity)
        .unwrap()
        .translation;
    let velocity = app.world().get::<Velocity>(ball.entity).unwrap().0;
    (d(place.truncate()), d(velocity))
}

// ---------------------------------------------------------------------------------------
// One tick of the App, checked against the oracle.

#[derive(Default, Debug)]
struct Stats {
    ticks: usize,
    compared: usize,
    hits: BTreeMap<Kind, usize>,
    /// Ball-ticks compared by what the oracle's bounces hit (an axis-aligned box's corner
    /// apart).
    labels: BTreeMap<String, usize>,
    skipped: BTreeMap<Skip, usize>,
    /// Each failure's category and message.
    failures: Vec<(String, String)>,
    // The largest differences from the oracle among the comparisons that passed.
    worst_time: f64,
    worst_place: f64,
    worst_end: f64,
    worst_velocity: f64,
}

impl Stats {
    fn fail(&mut self, category: String, message: String) {
        self.failures.push((category, message));
    }
}

/// Runs one tick and checks every ball: (a) its bounce events, (b) its place and velocity
/// at the end of the tick against the oracle's, (c) that it ends outside every solid.
/// Returns the tick's events.
fn check_tick(
    app: &mut App,
    solids: &[Solid],
    balls: &[Ball],
    label: &str,
    stats: &mut Stats,
) -> Vec<CollisionEvent> {
    // Flip the moving boxes that would leave their lanes.
    for solid in solids {
        if let Some((lo, hi)) = solid.lane {
            let c = pose(app, solid.entity).center;
            let mut vel = app.world_mut().get_mut::<Velocity>(solid.entity).unwrap();
            let next = c + d(vel.0) * DT;
            if next.cmplt(lo).any() || next.cmpgt(hi).any() {
                vel.0 = -vel.0;
            }
        }
    }
    let before: Vec<Pose> = solids.iter().map(|s| pose(app, s.entity)).collect();
    let starts: Vec<(DVec2, DVec2)> = balls.iter().map(|b| ball_state(app, b)).collect();
    let events = tick(app);
    stats.ticks += 1;
    let after: Vec<Pose> = solids.iter().map(|s| pose(app, s.entity)).collect();
    let geoms: Vec<Geom> = solids
        .iter()
        .zip(before.iter().zip(&after))
        .map(|(s, (a, b))| geom(s.shape, *a, *b))
        .collect();

    for (ball, &(start, velocity)) in balls.iter().zip(&starts) {
        let (end, end_velocity) = ball_state(app, ball);
        let context = || {
            format!(
                "{label}: ball {:?} (radius {}, restitution {}) from {start} at {velocity}",
                ball.entity, ball.radius, ball.restitution
            )
        };
        // (c) Outside every solid at the end of the tick.
        for (solid, g) in solids.iter().zip(&geoms) {
            let gap = g.near(end, 1.0).distance - ball.radius;
            if gap < -OVERLAP_TOLERANCE {
                stats.fail(
                    format!("ends the tick inside a {:?}", solid.kind),
                    format!(
                        "{}: ends the tick at {end}, {} inside {:?} {:?} ({g:?})",
                        context(),
                        -gap,
                        solid.kind,
                        solid.entity
                    ),
                );
            }
        }

        let expected = match simulate(start, velocity, ball.radius, ball.restitution, &geoms) {
            Ok(outcome) => outcome,
            Err(why) => {
                *stats.skipped.entry(why).or_default() += 1;
                continue;
            }
        };
        stats.compared += 1;
        // What the oracle's bounces hit, for the failure's category: the kind of solid, and
        // whether it is an axis-aligned box's corner.
        let mut labels: Vec<String> = expected
            .hits
            .iter()
            .map(|h| {
                let corner = matches!(geoms[h.solid], Geom::Aabb { .. })
                    && h.normal.x.abs().min(h.normal.y.abs()) > 1e-9;
                format!(
                    "{:?}{}",
                    solids[h.solid].kind,
                    if corner { " corner" } else { "" }
                )
            })
            .collect();
        labels.sort();
        labels.dedup();

        // (a) The ball's events with the solids: one `Crossed` per bounce, in order.
        let got: Vec<(CollisionEvent, usize)> = events
            .iter()
            .filter_map(|e| e.seen_from(ball.entity))
            .filter_map(|e| {
                solids
                    .iter()
                    .position(|s| s.entity == e.other)
                    .map(|j| (e, j))
            })
            .collect();
        let describe = |hits: &[Hit]| {
            hits.iter()
                .map(|h| {
                    format!(
                        "\n    t {:.6} {:?} point {} normal {}",
                        h.time, solids[h.solid].kind, h.point, h.normal
                    )
                })
                .collect::<String>()
        };
        let describe_got = || {
            got.iter()
                .map(|(e, j)| {
                    format!(
                        "\n    {:?} t {:.6} {:?} point {} normal {}",
                        e.kind, e.time_of_impact, solids[*j].kind, e.point, e.normal
                    )
                })
                .collect::<String>()
        };
        for label in &labels {
            *stats.labels.entry(label.clone()).or_default() += 1;
        }
        if got.len() != expected.hits.len() {
            let kinds: Vec<CollisionKind> = got.iter().map(|(e, _)| e.kind).collect();
            stats.fail(
                format!(
                    "{} events {kinds:?} for {} bounces on {labels:?}",
                    got.len(),
                    expected.hits.len()
                ),
                format!(
                    "{}: {} events with solids, the oracle has {} bounces\n  oracle:{}\n  \
                     got:{}",
                    context(),
                    got.len(),
                    expected.hits.len(),
                    describe(&expected.hits),
                    describe_got(),
                ),
            );
        } else {
            check_bounces(&expected.hits, &got, stats, || {
                (
                    format!("the bounces differ on {labels:?}"),
                    format!(
                        "{}: the bounces differ\n  oracle:{}\n  got:{}",
                        context(),
                        describe(&expected.hits),
                        describe_got()
                    ),
                )
            });
        }
        for hit in &expected.hits {
            *stats.hits.entry(solids[hit.solid].kind).or_default() += 1;
        }

        // (b) Where it ends, and how fast.
        let de = end.distance(expected.end);
        let dv = end_velocity.distance(expected.velocity) / expected.velocity.length().max(1.0);
        if de <= PLACE_TOLERANCE && dv <= VELOCITY_TOLERANCE {
            stats.worst_end = stats.worst_end.max(de);
            stats.worst_velocity = stats.worst_velocity.max(dv);
        } else {
            stats.fail(
                format!("the end of the tick differs after bounces on {labels:?}"),
                format!(
                    "{}: ends at {end} with velocity {end_velocity}; the oracle: at {} with {}\n  \
                     oracle bounces:{}",
                    context(),
                    expected.end,
                    expected.velocity,
                    describe(&expected.hits)
                ),
            );
        }
    }
    events
}

/// Compares a tick's bounces with the events of the same count; `failure` gives the
/// category and message of a failure.
fn check_bounces(
    hits: &[Hit],
    got: &[(CollisionEvent, usize)],
    stats: &mut Stats,
    failure: impl FnOnce() -> (String, String),
) {
    let mut ok = true;
    let (mut worst_time, mut worst_place) = (0.0_f64, 0.0_f64);
    for (hit, (event, j)) in hits.iter().zip(got) {
        let dt = (f64::from(event.time_of_impact) - hit.time).abs();
        let dp = d(event.point).distance(hit.point);
        let dn = d(event.normal).distance(hit.normal);
        worst_time = worst_time.max(dt);
        worst_place = worst_place.max(dp);
        if event.kind != CollisionKind::Crossed
            || *j != hit.solid
            || dt > TIME_TOLERANCE
            || dp > PLACE_TOLERANCE
            || dn > NORMAL_TOLERANCE
        {
            ok = false;
        }
    }
    if ok {
        stats.worst_time = stats.worst_time.max(worst_time);
        stats.worst_place = stats.worst_place.max(worst_place);
    } else {
        let (category, message) = failure();
        stats.fail(category, message);
    }
}

/// Fails with the count of each category of failure, and the first two of each.
#[track_caller]
fn assert_no_failures(stats: &Stats) {
    let mut categories: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (category, message) in &stats.failures {
        categories.entry(category).or_default().push(message);
    }
    let report: String = categories
        .iter()
        .map(|(category, messages)| {
            format!(
                "\n\n=== {} × {category}; the first ones:\n{}",
                messages.len(),
                messages[..messages.len().min(2)].join("\n")
            )
        })
        .collect();
    assert!(
        stats.failures.is_empty(),
        "{} failures{report}",
        stats.failures.len()
    );
}

// ---------------------------------------------------------------------------------------
// Random worlds.

/// An axis-aligned region (min, max).
type Region = (DVec2, DVec2);

fn apart(a: Region, b: Region, clearance: f64) -> bool {
    a.1.x + clearance <= b.0.x
        || b.1.x + clearance <= a.0.x
        || a.1.y + clearance <= b.0.y
        || b.1.y + clearance <= a.0.y
}

/// A closed arena of four walls around `[-w, w] × [-h, h]`, a few obstacles of every kind
/// whose regions of motion are at least `clearance` apart and from the walls (so that no
/// moving solid ever closes the gap to another solid below a ball's diameter: a ball cannot
/// be crushed), and two balls outside every obstacle's region (in layers that leave each
/// other out: they pass through each other).
fn random_world(app: &mut App, rng: &mut ChaCha8Rng) -> (Vec<Solid>, Vec<Ball>) {
    let w = rng.random_range(120.0..220.0_f32);
    let h = rng.random_range(100.0..180.0_f32);
    let thick = 20.0;
    let mut solids = Vec::new();
    for (center, half) in [
        (v(-w - thick, 0.0), v(thick, h + 2.0 * thick)),
        (v(w + thick, 0.0), v(thick, h + 2.0 * thick)),
        (v(0.0, -h - thick), v(w + 2.0 * thick, thick)),
        (v(0.0, h + thick), v(w + 2.0 * thick, thick)),
    ] {
        let shape = Shape::Aabb(d(half));
        solids.push(Solid {
            entity: spawn_solid(app, shape, center, 0.0),
            shape,
            kind: Kind::Wall,
            lane: None,
        });
    }
    let max_radius = 4.0;
    let clearance = 2.0 * max_radius + 20.0;
    let arena: Region = (
        DVec2::new(-f64::from(w), -f64::from(h)),
        DVec2::new(f64::from(w), f64::from(h)),
    );
    let inner: Region = (
        arena.0 + DVec2::splat(clearance),
        arena.1 - DVec2::splat(clearance),
    );
    let mut regions: Vec<Region> = Vec::new();
    let wanted = rng.random_range(3..=6);
    let mut attempts = 0;
    while regions.len() < wanted && attempts < 200 {
        attempts += 1;
        let kind = match rng.random_range(0..6) {
            0 => Kind::Box,
            1 => Kind::Circle,
            2 => Kind::Segment,
            3 => Kind::Rectangle,
            4 => Kind::TurningRectangle,
            _ => Kind::MovingBox,
        };
        let center = Vec2::new(rng.random_range(-w..w) * 0.8, rng.random_range(-h..h) * 0.8);
        let c = d(center);
        let size = |rng: &mut ChaCha8Rng| f64::from(rng.random_range(3.0..25.0_f32));
        let (shape, region, angle, lane, velocity) = match kind {
            Kind::Box => {
                let half = DVec2::new(size(rng), size(rng));
                (Shape::Aabb(half), (c - half, c + half), 0.0, None, None)
            }
            Kind::Circle => {
                let r = size(rng);
                (
                    Shape::Circle(r),
                    (c - DVec2::splat(r), c + DVec2::splat(r)),
                    0.0,
                    None,
                    None,
                )
            }
            Kind::Segment => {
                let angle = rng.random_range(0.0..core::f64::consts::PI);
                let half = (size(rng) + 5.0) * DVec2::new(angle.cos(), angle.sin());
                // Endpoints rounded to f32 as spawned.
                let half = d(Vec2::new(half.x as f32, half.y as f32));
                (
                    Shape::Segment(-half, half),
                    (c - half.abs(), c + half.abs()),
                    0.0,
                    None,
                    None,
                )
            }
            Kind::Rectangle | Kind::TurningRectangle => {
                let half = DVec2::new(size(rng), size(rng) * 0.5);
                let reach = DVec2::splat(half.length());
                (
                    Shape::Rectangle(half),
                    (c - reach, c + reach),
                    rng.random_range(-3.0..3.0_f32),
                    None,
                    None,
                )
            }
            Kind::MovingBox | Kind::Wall => {
                let half = DVec2::new(size(rng) * 0.6, size(rng) * 0.6);
                let axis = if rng.random_bool(0.5) {
                    DVec2::X
                } else {
                    DVec2::Y
                };
                let length = f64::from(rng.random_range(20.0..80.0_f32));
                let (lo, hi) = (c - axis * length * 0.5, c + axis * length * 0.5);
                let speed = rng.random_range(30.0..300.0_f32)
                    * if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                let velocity = Vec2::new(axis.x as f32, axis.y as f32) * speed;
                (
                    Shape::Aabb(half),
                    // The lane, with a tick's motion of slack on each side.
                    (lo - half - DVec2::splat(6.0), hi + half + DVec2::splat(6.0)),
                    0.0,
                    Some((lo, hi)),
                    Some(velocity),
                )
            }
        };
        let fits = region.0.cmpge(inner.0).all() && region.1.cmple(inner.1).all();
        if !fits || !regions.iter().all(|&r| apart(r, region, clearance)) {
            continue;
        }
        regions.push(region);
        let entity = spawn_solid(app, shape, center, angle);
        if kind == Kind::TurningRectangle {
            let spin =
                rng.random_range(1.0..12.0_f32) * if rng.random_bool(0.5) { 1.0 } else { -1.0 };
            app.world_mut()
                .entity_mut(entity)
                .insert(AngularVelocity(spin));
        }
        if let Some(velocity) = velocity {
            app.world_mut()
                .entity_mut(entity)
                .insert(Velocity(velocity));
        }
        solids.push(Solid {
            entity,
            shape,
            kind,
            lane,
        });
    }
    let mut balls = Vec::new();
    while balls.len() < 2 {
        let radius = rng.random_range(1.0..max_radius as f32);
        let margin = radius + 1.0;
        let center = Vec2::new(
            rng.random_range(-w + margin..w - margin),
            rng.random_range(-h + margin..h - margin),
        );
        let c = d(center);
        let reach = DVec2::splat(f64::from(margin));
        if !regions
            .iter()
            .all(|&r| apart(r, (c - reach, c + reach), 0.0))
        {
            continue;
        }
        let speed = rng.random_range(200.0..5000.0_f32);
        let heading = rng.random_range(0.0..core::f32::consts::TAU);
        let restitution = rng.random_range(0.5..=1.0_f32);
        balls.push(spawn_ball(
            app,
            center,
            Vec2::from_angle(heading) * speed,
            radius,
            restitution,
        ));
    }
    (solids, balls)
}

#[test]
#[allow(clippy::print_stderr, reason = "a summary of what was checked")]
fn bouncing_balls_in_random_worlds_match_the_oracle() {
    let mut stats = Stats::default();
    for seed in 0..60_u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(0xb0_0c3 ^ seed);
        let mut app = app();
        let (solids, balls) = random_world(&mut app, &mut rng);
        for t in 0..64 {
            check_tick(
                &mut app,
                &solids,
                &balls,
                &format!("seed {seed} tick {t}"),
                &mut stats,
            );
        }
    }
    eprintln!(
        "{} ticks; {} ball-ticks compared; hits compared {:?}; ball-ticks with bounces on {:?}; \
         skipped {:?}; worst: time {:.2e}, point {:.2e}, end {:.2e}, velocity {:.2e}",
        stats.ticks,
        stats.compared,
        stats.hits,
        stats.labels,
        stats.skipped,
        stats.worst_time,
        stats.worst_place,
        stats.worst_end,
        stats.worst_velocity
    );
    assert_no_failures(&stats);
    // Not vacuous: most ball-ticks are compared, and every kind of solid was hit.
    let skipped: usize = stats.skipped.values().sum();
    assert!(skipped * 10 < stats.compared, "{stats:?}");
    for kind in [
        Kind::Wall,
        Kind::Box,
        Kind::Circle,
        Kind::Segment,
        Kind::Rectangle,
        Kind::TurningRectangle,
        Kind::MovingBox,
    ] {
        assert!(
            stats.hits.get(&kind).copied().unwrap_or(0) >= 10,
            "few hits on {kind:?}: {:?}",
            stats.hits
        );
    }
}

// ---------------------------------------------------------------------------------------
// A moving paddle.

/// The ball's events with `other`, seen from the ball.
fn events_with(events: &[CollisionEvent], ball: Entity, other: Entity) -> Vec<CollisionEvent> {
    events
        .iter()
        .filter_map(|e| e.seen_from(ball))
        .filter(|e| e.other == other)
        .collect()
}

#[track_caller]
fn assert_near(got: Vec2, want: DVec2, tolerance: f64, what: &str) {
    assert!(
        d(got).distance(want) <= tolerance,
        "{what}: got {got}, expected {want} (± {tolerance})"
    );
}

/// A paddle that moves answers with its velocity: rising into a falling ball, it sends it
/// back faster; catching up with a ball from behind, it throws it forward; retreating at half
/// the ball's speed, it stops the ball's fall. Hand-worked numbers, and the oracle each tick.
#[test]
fn a_moving_paddle_adds_its_velocity_to_the_bounce() {
    struct Case {
        ball_at: Vec2,
        ball_velocity: Vec2,
        paddle_half: Vec2,
        paddle_at: Vec2,
        paddle_velocity: Vec2,
        // Hand-worked: the moment, place and normal of the bounce, the ball's velocity after
        // it and its place at the end of the first tick.
        time: f64,
        point: DVec2,
        normal: DVec2,
        after: DVec2,
        end: DVec2,
    }
    let cases = [
        // Ball (radius 1) from y = 10 down at 640/s (10 a tick), 200/s sideways; paddle top
        // at y = 1 rising at 64/s (1 a tick, and 1 sideways). Contact: 9 - 10 s = 1 + s,
        // s = 8/11, the ball's centre at (25/11, 30/11). Relative normal velocity -704:
        // after the bounce +704 relative to the paddle, 768 up. The rest of the tick, 3/11,
        // rises 12 × 3/11: the ball ends at (3.125, 6).
        Case {
            ball_at: v(0.0, 10.0),
            ball_velocity: v(200.0, -640.0),
            paddle_half: v(20.0, 1.0),
            paddle_at: v(0.0, 0.0),
            paddle_velocity: v(64.0, 64.0),
            time: 8.0 / 11.0,
            point: DVec2::new(25.0 / 11.0, 19.0 / 11.0),
            normal: DVec2::Y,
            after: DVec2::new(200.0, 768.0),
            end: DVec2::new(3.125, 6.0),
        },
        // Ball at the origin at 100/s (1.5625 a tick); the paddle's right face at x = -4
        // moving at 640/s (10 a tick): -4 + 10 s = -1 + 1.5625 s, s = 16/45. Relative
        // velocity -540: the ball leaves at 640 + 540 = 1180/s, from x = 25/45, for 29/45
        // of a tick: x = 12.4375 at the end.
        Case {
            ball_at: v(0.0, 0.0),
            ball_velocity: v(100.0, 0.0),
            paddle_half: v(1.0, 5.0),
            paddle_at: v(-5.0, 0.0),
            paddle_velocity: v(640.0, 0.0),
            time: 16.0 / 45.0,
            point: DVec2::new(-4.0 + 160.0 / 45.0, 0.0),
            normal: DVec2::X,
            after: DVec2::new(1180.0, 0.0),
            end: DVec2::new(12.4375, 0.0),
        },
        // Ball (radius 1) from y = 4 down at 640/s (10 a tick) onto a paddle top at y = 1
        // sinking at 320/s (5 a tick): 3 - 10 s = 1 - 5 s, s = 2/5, the ball's centre at
        // y = 0. Relative normal velocity -320: after the bounce +320 relative to the
        // paddle, 0 in the world: the ball stops falling and stays at y = 0 while the
        // paddle sinks away.
        Case {
            ball_at: v(0.0, 4.0),
            ball_velocity: v(0.0, -640.0),
            paddle_half: v(20.0, 1.0),
            paddle_at: v(0.0, 0.0),
            paddle_velocity: v(0.0, -320.0),
            time: 0.4,
            point: DVec2::new(0.0, -1.0),
            normal: DVec2::Y,
            after: DVec2::new(0.0, 0.0),
            end: DVec2::new(0.0, 0.0),
        },
    ];
    for (k, case) in cases.iter().enumerate() {
        let mut app = app();
        let ball = spawn_ball(&mut app, case.ball_at, case.ball_velocity, 1.0, 1.0);
        let shape = Shape::Aabb(d(case.paddle_half));
        let paddle = spawn_solid(&mut app, shape, case.paddle_at, 0.0);
        app.world_mut()
            .entity_mut(paddle)
            .insert(Velocity(case.paddle_velocity));
        let solids = [Solid {
            entity: paddle,
            shape,
            kind: Kind::MovingBox,
            lane: None,
        }];
        let mut stats = Stats::default();
        let events = check_tick(
            &mut app,
            &solids,
            &[ball],
            &format!("paddle {k} tick 0"),
            &mut stats,
        );
        let hits = events_with(&events, ball.entity, paddle);
        assert_eq!(hits.len(), 1, "case {k}: {hits:?}");
        assert_eq!(hits[0].kind, CollisionKind::Crossed, "case {k}");
        assert!(
            (f64::from(hits[0].time_of_impact) - case.time).abs() <= 1e-5,
            "case {k}: the moment {} against {}",
            hits[0].time_of_impact,
            case.time
        );
        assert_near(
            hits[0].point,
            case.point,
            1e-4,
            &format!("case {k}: the place"),
        );
        assert_near(
            hits[0].normal,
            case.normal,
            1e-5,
            &format!("case {k}: the normal"),
        );
        let (end, velocity) = ball_state(&app, &ball);
        assert_near(
            Vec2::new(velocity.x as f32, velocity.y as f32),
            case.after,
            1e-2,
            &format!("case {k}: the velocity after the bounce"),
        );
        assert_near(
            Vec2::new(end.x as f32, end.y as f32),
            case.end,
            1e-3,
            &format!("case {k}: the place at the end of the tick"),
        );
        for t in 1..8 {
            check_tick(
                &mut app,
                &solids,
                &[ball],
                &format!("paddle {k} tick {t}"),
                &mut stats,
            );
        }
        assert_no_failures(&stats);
        assert!(stats.skipped.is_empty(), "case {k}: {:?}", stats.skipped);
        assert_eq!(stats.compared, 8, "case {k}");
    }
}

// ---------------------------------------------------------------------------------------
// A turning rectangle.

/// A bar turning at 6 rad/s counter-clockwise: a ball dropped on its right arm, which rises
/// under it, comes back faster than it fell; then balls in an arena around the bar, against
/// the oracle tick by tick.
#[test]
#[allow(clippy::print_stderr, reason = "a summary of what was checked")]
fn a_turning_rectangle_matches_the_oracle() {
    let bar = Shape::Rectangle(DVec2::new(30.0, 3.0));
    let spin = 6.0;

    // One ball, one bounce.
    let mut app = app();
    let entity = spawn_solid(&mut app, bar, v(0.0, 0.0), 0.0);
    app.world_mut()
        .entity_mut(entity)
        .insert(AngularVelocity(spin));
    let solids = [Solid {
        entity,
        shape: bar,
        kind: Kind::TurningRectangle,
        lane: None,
    }];
    let ball = spawn_ball(&mut app, v(20.0, 30.0), v(0.0, -1500.0), 2.0, 1.0);
    let mut stats = Stats::default();
    let mut bounces = Vec::new();
    for t in 0..6 {
        let events = check_tick(
            &mut app,
            &solids,
            &[ball],
            &format!("one ball tick {t}"),
            &mut stats,
        );
        bounces.extend(events_with(&events, ball.entity, entity));
    }
    assert!(stats.skipped.is_empty(), "{:?}", stats.skipped);
    assert_eq!(bounces.len(), 1, "{bounces:?}");
    // The bar turned: 6 ticks of 6/64 rad.
    let turned = pose(&app, entity);
    assert!(
        (turned.sin.atan2(turned.cos) - 6.0 * f64::from(spin) * DT).abs() < 1e-4,
        "{turned:?}"
    );
    // The arm under the ball, about 20 units from the axis, rises at about 120/s: the
    // ball comes back at about 1500 + 2 × 120.
    let (_, velocity) = ball_state(&app, &ball);
    if velocity.y <= 1600.0 {
        stats.fail(
            "one ball: no faster".into(),
            format!("one ball: it comes back at {velocity}, no faster than it fell (1500)"),
        );
    }

    // An arena with eight balls around the bar.
    let mut app = common::app();
    let mut rng = ChaCha8Rng::seed_from_u64(0x7e_57);
    let entity = spawn_solid(&mut app, bar, v(0.0, 0.0), 0.3);
    app.world_mut()
        .entity_mut(entity)
        .insert(AngularVelocity(-spin));
    let mut solids = vec![Solid {
        entity,
        shape: bar,
        kind: Kind::TurningRectangle,
        lane: None,
    }];
    let (w, h) = (70.0, 60.0);
    for (center, half) in [
        (v(-w - 10.0, 0.0), v(10.0, h + 20.0)),
        (v(w + 10.0, 0.0), v(10.0, h + 20.0)),
        (v(0.0, -h - 10.0), v(w + 20.0, 10.0)),
        (v(0.0, h + 10.0), v(w + 20.0, 10.0)),
    ] {
        let shape = Shape::Aabb(d(half));
        solids.push(Solid {
            entity: spawn_solid(&mut app, shape, center, 0.0),
            shape,
            kind: Kind::Wall,
            lane: None,
        });
    }
    let mut balls = Vec::new();
    while balls.len() < 8 {
        let center = Vec2::new(rng.random_range(-65.0..65.0), rng.random_range(-55.0..55.0));
        if center.length() < 36.0 {
            continue;
        }
        let speed = rng.random_range(200.0..3000.0_f32);
        let heading = rng.random_range(0.0..core::f32::consts::TAU);
        balls.push(spawn_ball(
            &mut app,
            center,
            Vec2::from_angle(heading) * speed,
            rng.random_range(1.0..3.0),
            rng.random_range(0.5..=1.0),
        ));
    }
    for t in 0..64 {
        check_tick(
            &mut app,
            &solids,
            &balls,
            &format!("arena tick {t}"),
            &mut stats,
        );
    }
    eprintln!(
        "turning bar: {} ball-ticks compared; hits {:?}; skipped {:?}; worst: time {:.2e}, \
         point {:.2e}, end {:.2e}, velocity {:.2e}",
        stats.compared,
        stats.hits,
        stats.skipped,
        stats.worst_time,
        stats.worst_place,
        stats.worst_end,
        stats.worst_velocity
    );
    assert_no_failures(&stats);
    let skipped: usize = stats.skipped.values().sum();
    assert!(skipped * 10 < stats.compared, "{stats:?}");
    assert!(
        stats
            .hits
            .get(&Kind::TurningRectangle)
            .copied()
            .unwrap_or(0)
            >= 20,
        "{:?}",
        stats.hits
    );
}

// ---------------------------------------------------------------------------------------
// A corner.

/// A ball that hits a box on its corner bounces along the corner's normal: the direction
/// from the corner to the ball's centre at the contact, whatever the box (axis-aligned,
/// a rectangle, a moving axis-aligned box).
#[test]
fn a_ball_off_a_corner_bounces_along_the_direction_from_the_corner() {
    // Ball (radius 1) at (-5, 1.6) at 640/s (10 a tick) towards the corner (-1, 1) of a box
    // of half extents (1, 1): it touches the corner when (x + 1)² + 0.6² = 1, x = -1.8,
    // 0.32 of the tick in; normal (-0.8, 0.6). Elastic: v' = v - 2 (v·n) n =
    // (640, 0) - 2 (-512) (-0.8, 0.6) = (-179.2, 614.4), for the 0.68 of the tick left:
    // it ends at (-1.8 - 1.904, 1.6 + 6.528).
    let cases: [(&str, Shape, Option<Vec2>); 3] = [
        ("an axis-aligned box", Shape::Aabb(DVec2::ONE), None),
        ("a rectangle", Shape::Rectangle(DVec2::ONE), None),
        // Moving down at 64/s: the oracle alone says where.
        (
            "a moving axis-aligned box",
            Shape::Aabb(DVec2::ONE),
            Some(v(0.0, -64.0)),
        ),
    ];
    let mut stats = Stats::default();
    for (name, shape, moving) in cases {
        let mut app = app();
        let ball = spawn_ball(&mut app, v(-5.0, 1.6), v(640.0, 0.0), 1.0, 1.0);
        let entity = spawn_solid(&mut app, shape, v(0.0, 0.0), 0.0);
        if let Some(velocity) = moving {
            app.world_mut()
                .entity_mut(entity)
                .insert(Velocity(velocity));
        }
        let solids = [Solid {
            entity,
            shape,
            kind: if moving.is_some() {
                Kind::MovingBox
            } else {
                Kind::Box
            },
            lane: None,
        }];
        let events = check_tick(&mut app, &solids, &[ball], name, &mut stats);
        let hits = events_with(&events, ball.entity, entity);
        if moving.is_none() {
            let (end, velocity) = ball_state(&app, &ball);
            let normals: Vec<Vec2> = hits.iter().map(|e| e.normal).collect();
            let wanted = (
                DVec2::new(-0.8, 0.6),
                DVec2::new(-179.2, 614.4),
                DVec2::new(-3.704, 8.128),
            );
            if hits.len() != 1
                || d(hits[0].normal).distance(wanted.0) > 1e-4
                || velocity.distance(wanted.1) > 0.1
                || end.distance(wanted.2) > 1e-3
            {
                stats.fail(
                    format!("{name}: by hand"),
                    format!(
                        "{name}: normals {normals:?} (expected {}), velocity {velocity} (expected \
                     {}), end {end} (expected {})",
                        wanted.0, wanted.1, wanted.2
                    ),
                );
            }
        }
    }
    assert_no_failures(&stats);
    assert!(stats.skipped.is_empty(), "{:?}", stats.skipped);
}

// ---------------------------------------------------------------------------------------
// The oracle alone.

/// The oracle against hand-worked cases, and its refusals of degenerate ones.
#[test]
fn the_oracle_itself() {
    let wall = |center: DVec2, half: DVec2| Geom::Aabb {
        c0: center,
        c1: center,
        half,
    };
    // A ball (radius 1) at 10,000 units/s between walls whose faces are at x = ±10: its
    // centre lives in [-9, 9] and goes 156.25 a tick; unfolded, it bounces every 18 units.
    let walls = [
        wall(DVec2::new(-20.0, 0.0), DVec2::new(10.0, 100.0)),
        wall(DVec2::new(20.0, 0.0), DVec2::new(10.0, 100.0)),
    ];
    let out = simulate(DVec2::ZERO, DVec2::new(1e4, 0.0), 1.0, 1.0, &walls).unwrap();
    // 9 to the first wall, then every 18: 9 + 8 × 18 = 153 < 156.25 < 171.
    assert_eq!(out.hits.len(), 9);
    for (k, hit) in out.hits.iter().enumerate() {
        let travelled = 9.0 + 18.0 * k as f64;
        assert!((hit.time - travelled / 156.25).abs() < 1e-9, "{hit:?}");
        assert_eq!(hit.solid, 1 - k % 2);
        let side = if k % 2 == 0 { 1.0 } else { -1.0 };
        assert!(hit.point.distance(DVec2::new(10.0 * side, 0.0)) < 1e-6);
        assert!(hit.normal.distance(DVec2::new(-side, 0.0)) < 1e-9);
    }
    // The ninth bounce (at x = 9) sends it left for 3.25 units.
    assert!(out.end.distance(DVec2::new(5.75, 0.0)) < 1e-6, "{out:?}");
    assert!(out.velocity.distance(DVec2::new(-1e4, 0.0)) < 1e-9);

    // Into the corner of two walls, both at once.
    let corner = [
        wall(DVec2::new(20.0, 0.0), DVec2::new(10.0, 100.0)),
        wall(DVec2::new(0.0, 20.0), DVec2::new(100.0, 10.0)),
    ];
    let v1 = DVec2::new(1152.0, 1152.0);
    assert_eq!(
        simulate(DVec2::ZERO, v1, 1.0, 1.0, &corner).unwrap_err(),
        "two hits at nearly the same moment"
    );
    // Nearly along a wall.
    let floor = [wall(DVec2::new(0.0, 12.0), DVec2::new(100.0, 10.0))];
    let v2 = DVec2::new(2000.0, 80.0);
    assert_eq!(
        simulate(DVec2::ZERO, v2, 1.0, 1.0, &floor).unwrap_err(),
        "a grazing hit"
    );
    // Passing a circle 5e-4 away.
    let post = [Geom::Circle {
        center: DVec2::new(5.0, 2.0005),
        radius: 1.0,
    }];
    let v3 = DVec2::new(640.0, 0.0);
    assert_eq!(
        simulate(DVec2::ZERO, v3, 1.0, 1.0, &post).unwrap_err(),
        "a near miss"
    );
    // 2e-3 away it passes.
    let post = [Geom::Circle {
        center: DVec2::new(5.0, 2.002),
        radius: 1.0,
    }];
    let out = simulate(DVec2::ZERO, v3, 1.0, 1.0, &post).unwrap();
    assert!(out.hits.is_empty() && out.end.distance(DVec2::new(10.0, 0.0)) < 1e-12);
}
