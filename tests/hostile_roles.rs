//! A hostile probe of the roles a collider plays (`Response`, `KinematicCharacter`,
//! `Sensor`, `OneWay`, `Body`, `ColliderDisabled`) on every shape, scaled, mirrored, turned
//! and parented, looking for wrong answers, panics, hangs and values that are not finite.
//!
//! What is covered:
//! - responders of seven shapes (not the polyline) in three poses, with every `Response`,
//!   against solids of all eight shapes in ten poses (scale 1, 2, 0.5, (2, 0.5), mirrored,
//!   a half turn by scale (-1, -1), turned, turned and stretched, and two kinds of child of
//!   a moved, turned or stretched parent), slowly and at 400 units a tick;
//! - sensors and one-way colliders of all eight shapes in the same ten poses, against
//!   responders, characters and the queries (`move_and_slide`, `cast_shape`,
//!   `cast_shape_with`);
//! - characters of seven shapes in six poses standing on floors of all eight shapes in four
//!   poses;
//! - bodies (nested, with children of every shape), colliders of every shape and pose
//!   switched off and on, children of parents that move or turn, roles that cannot answer
//!   (warned once, by name), every role scaled to zero, and a ball at 100,000 units/s in a
//!   box of every shape.
//!
//! The expected outcomes come from the documented rules, worked out by an independent model
//! of where each collider lies (below, in `f64`): a circle's and a capsule's radius scaled by
//! the larger of `|scale.x|` and `|scale.y|`, a box's half extents by each, a box never
//! turning, every vertex following the whole transform composed with its parents'. From it:
//! the signed distance between two shapes (the gap, or minus the depth of their overlap), and
//! the exact moment a translating shape first touches another (sphere tracing along the
//! motion). The hand-worked cases say their numbers in their comments. The wrong answers the
//! big tables find are each kept at their smallest in a test of its own, at the end.
//!
//! Many cases share one App: each case has its own collision layer (32 to an App), so its
//! colliders meet only each other.
//!
//! Its own test binary: it installs a global logger that keeps the warnings
//! (`common::warnings`).

use std::collections::HashMap;

use bevy::math::{DAffine2, DVec2, Isometry2d};
use bevy::prelude::*;
use bevy_sweep::prelude::*;

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;
use common::warnings::{keep_warnings, warnings_with};
use common::{TICK, assert_close, assert_vec_close, assert_well_formed, seen_from, tick, v};

// ---------------------------------------------------------------------------------------
// Shapes, poses and an independent model of where they lie.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Point,
    Segment,
    Circle,
    Aabb,
    Rectangle,
    Capsule,
    Polygon,
    Polyline,
}

const KINDS: [Kind; 8] = [
    Kind::Point,
    Kind::Segment,
    Kind::Circle,
    Kind::Aabb,
    Kind::Rectangle,
    Kind::Capsule,
    Kind::Polygon,
    Kind::Polyline,
];

/// A solid of about two units, none of them symmetric, and a point on or in it (local) to
/// aim at.
fn solid(kind: Kind) -> (Collider, Vec2) {
    match kind {
        Kind::Point => (Collider::point(), Vec2::ZERO),
        Kind::Segment => (Collider::segment(v(-1.5, 0.2), v(1.5, -0.2)), Vec2::ZERO),
        Kind::Circle => (Collider::circle(1.0), Vec2::ZERO),
        Kind::Aabb => (Collider::aabb(v(1.5, 1.0)), v(0.2, -0.1)),
        Kind::Rectangle => (Collider::rectangle(v(1.5, 0.75)), v(0.3, 0.2)),
        Kind::Capsule => (
            Collider::capsule(v(-1.0, 0.3), v(1.0, -0.3), 0.6),
            v(0.2, 0.1),
        ),
        Kind::Polygon => (
            Collider::convex_polygon(&[
                v(-1.5, -1.0),
                v(1.5, -1.0),
                v(1.6, 0.4),
                v(0.2, 1.4),
                v(-1.2, 0.8),
            ])
            .unwrap(),
            v(0.1, 0.0),
        ),
        // Aimed at the middle of edge 1.
        Kind::Polyline => (
            Collider::polyline(&[v(-2.0, -0.5), v(-0.5, 0.8), v(0.7, 0.6), v(2.0, -0.7)]).unwrap(),
            v(0.1, 0.7),
        ),
    }
}

/// A mover of about a unit or two, with its origin on or in it.
fn mover(kind: Kind) -> Collider {
    match kind {
        Kind::Point => Collider::point(),
        Kind::Segment => Collider::segment(v(-1.0, -0.15), v(1.0, 0.15)),
        Kind::Circle => Collider::circle(1.0),
        Kind::Aabb => Collider::aabb(v(1.0, 0.6)),
        Kind::Rectangle => Collider::rectangle(v(1.0, 0.5)),
        Kind::Capsule => Collider::capsule(v(-0.6, 0.0), v(0.6, 0.0), 0.5),
        Kind::Polygon => {
            Collider::convex_polygon(&[v(-1.0, -0.8), v(1.0, -0.6), v(0.1, 1.0)]).unwrap()
        }
        Kind::Polyline => Collider::polyline(&[v(-1.0, 0.0), v(0.0, 0.5), v(1.0, 0.0)]).unwrap(),
    }
}

/// A translation, a turn about z and a scale: one `Transform` in the plane.
#[derive(Clone, Copy, Debug)]
struct Frame {
    at: Vec2,
    angle: f32,
    scale: Vec2,
}

const fn frame(x: f32, y: f32, angle: f32, sx: f32, sy: f32) -> Frame {
    Frame {
        at: Vec2::new(x, y),
        angle,
        scale: Vec2::new(sx, sy),
    }
}

impl Frame {
    fn transform(self) -> Transform {
        Transform::from_translation(self.at.extend(0.0))
            .with_rotation(Quat::from_rotation_z(self.angle))
            .with_scale(self.scale.extend(1.0))
    }

    /// Scale, then turn, then translate (what a `Transform` does in the plane).
    fn affine(self) -> DAffine2 {
        DAffine2::from_scale_angle_translation(
            self.scale.as_dvec2(),
            f64::from(self.angle),
            self.at.as_dvec2(),
        )
    }

    fn at(self, at: Vec2) -> Self {
        Self { at, ..self }
    }
}

/// Where a collider is put: its own transform, under a parent's or not.
#[derive(Clone, Copy, Debug)]
struct Pose {
    name: &'static str,
    parent: Option<Frame>,
    own: Frame,
}

impl Pose {
    const fn root(name: &'static str, own: Frame) -> Self {
        Self {
            name,
            parent: None,
            own,
        }
    }

    const fn child(name: &'static str, parent: Frame, own: Frame) -> Self {
        Self {
            name,
            parent: Some(parent),
            own,
        }
    }

    fn world(&self) -> DAffine2 {
        self.parent.map_or(DAffine2::IDENTITY, Frame::affine) * self.own.affine()
    }
}

/// Every transform a solid is probed in.
const SOLID_POSES: [Pose; 10] = [
    Pose::root("scale 1", frame(0.0, 0.0, 0.0, 1.0, 1.0)),
    Pose::root("scale 2", frame(0.5, -0.25, 0.0, 2.0, 2.0)),
    Pose::root("scale 0.5", frame(-0.5, 0.25, 0.0, 0.5, 0.5)),
    Pose::root("scale (2, 0.5)", frame(0.0, 0.5, 0.0, 2.0, 0.5)),
    Pose::root("mirrored, scale (-1, 1)", frame(0.25, 0.0, 0.0, -1.0, 1.0)),
    Pose::root(
        "scale (-1, -1), a half turn",
        frame(0.0, -0.5, 0.0, -1.0, -1.0),
    ),
    Pose::root("turned 0.7", frame(0.0, 0.0, 0.7, 1.0, 1.0)),
    Pose::root(
        "turned 0.7, scale (2, 0.5)",
        frame(-0.25, 0.0, 0.7, 2.0, 0.5),
    ),
    Pose::child(
        "child at (1, 0.5) turned -0.2 of a parent at (3, -2) turned 0.5 and scaled 2",
        frame(3.0, -2.0, 0.5, 2.0, 2.0),
        frame(1.0, 0.5, -0.2, 1.0, 1.0),
    ),
    Pose::child(
        "child at (0.5, 0.25) scaled (1.5, 1) of a parent at (-1, 1) scaled (2, 0.5)",
        frame(-1.0, 1.0, 0.0, 2.0, 0.5),
        frame(0.5, 0.25, 0.0, 1.5, 1.0),
    ),
];

/// The transforms a mover is probed in (its translation is its start).
const MOVER_POSES: [(&str, Frame); 3] = [
    ("scale 1", frame(0.0, 0.0, 0.0, 1.0, 1.0)),
    ("scale 0.5", frame(0.0, 0.0, 0.0, 0.5, 0.5)),
    (
        "turned 0.4, scale (-2, 0.5)",
        frame(0.0, 0.0, 0.4, -2.0, 0.5),
    ),
];

/// One convex piece of a shape: the convex hull of `core` grown by `radius`.
#[derive(Clone, Debug)]
struct Piece {
    core: Vec<DVec2>,
    radius: f64,
}

/// A shape in the world: the union of its pieces (one, or a polyline's edges).
#[derive(Clone, Debug)]
struct Geo(Vec<Piece>);

impl Geo {
    fn point(p: DVec2) -> Self {
        Self(vec![Piece {
            core: vec![p],
            radius: 0.0,
        }])
    }

    /// The shape grown by `by` (a character's skin).
    fn grown(mut self, by: f64) -> Self {
        for piece in &mut self.0 {
            piece.radius += by;
        }
        self
    }
}

/// Where `collider` lies under the world transform `m`, by the documented rules.
fn geo(collider: &Collider, m: DAffine2) -> Geo {
    let (sx, sy) = (m.matrix2.x_axis.length(), m.matrix2.y_axis.length());
    let at = |p: &Vec2| m.transform_point2(p.as_dvec2());
    let one = |core: Vec<DVec2>, radius: f64| Geo(vec![Piece { core, radius }]);
    match collider {
        Collider::Point => one(vec![m.translation], 0.0),
        Collider::Segment { a, b } => one(vec![at(a), at(b)], 0.0),
        Collider::Circle { radius } => one(vec![m.translation], f64::from(*radius) * sx.max(sy)),
        Collider::Aabb { half_extents } => {
            let h = DVec2::new(
                f64::from(half_extents.x) * sx,
                f64::from(half_extents.y) * sy,
            );
            let c = m.translation;
            let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
            one(
                corners
                    .iter()
                    .map(|&(x, y)| c + DVec2::new(x * h.x, y * h.y))
                    .collect(),
                0.0,
            )
        }
        Collider::Rectangle { half_extents: h } => {
            let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
            one(
                corners
                    .iter()
                    .map(|&(x, y)| at(&Vec2::new(x * h.x, y * h.y)))
                    .collect(),
                0.0,
            )
        }
        Collider::Capsule { a, b, radius } => {
            one(vec![at(a), at(b)], f64::from(*radius) * sx.max(sy))
        }
        Collider::ConvexPolygon { vertices } => one(vertices.iter().map(at).collect(), 0.0),
        Collider::Polyline { points } => Geo(points
            .windows(2)
            .map(|w| Piece {
                core: vec![at(&w[0]), at(&w[1])],
                radius: 0.0,
            })
            .collect()),
        Collider::Polygon { points, pieces } => Geo(pieces
            .iter()
            .map(|piece| Piece {
                core: piece.iter().map(|&i| at(&points[i as usize])).collect(),
                radius: 0.0,
            })
            .collect()),
        Collider::Compound { .. } => unreachable!("not generated"),
    }
}

fn segment_distance(q: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 0.0 {
        ((q - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (q - (a + ab * t)).length()
}

/// The convex hull, counter-clockwise, without collinear points (one or two points when
/// it has no area).
fn hull(mut p: Vec<DVec2>) -> Vec<DVec2> {
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() <= 2 {
        return p;
    }
    let turn = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut lower: Vec<DVec2> = Vec::new();
    for &q in &p {
        while lower.len() >= 2 && turn(lower[lower.len() - 2], lower[lower.len() - 1], q) <= 0.0 {
            lower.pop();
        }
        lower.push(q);
    }
    let mut upper: Vec<DVec2> = Vec::new();
    for &q in p.iter().rev() {
        while upper.len() >= 2 && turn(upper[upper.len() - 2], upper[upper.len() - 1], q) <= 0.0 {
            upper.pop();
        }
        upper.push(q);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// The signed distance from `q` to the hull `h`: negative inside.
fn hull_distance(h: &[DVec2], q: DVec2) -> f64 {
    match h.len() {
        1 => (q - h[0]).length(),
        2 => segment_distance(q, h[0], h[1]),
        n => {
            let mut inside = true;
            let (mut to_line, mut to_edge) = (f64::INFINITY, f64::INFINITY);
            for i in 0..n {
                let (a, b) = (h[i], h[(i + 1) % n]);
                let e = b - a;
                let outward = DVec2::new(e.y, -e.x).normalize();
                let d = (q - a).dot(outward);
                if d > 0.0 {
                    inside = false;
                }
                to_line = to_line.min(-d);
                to_edge = to_edge.min(segment_distance(q, a, b));
            }
            if inside { -to_line } else { to_edge }
        }
    }
}

/// The hull of `b - a` (their Minkowski difference) and the sum of their radii: `b` and `a`
/// moved by `d` touch when `d` is on the difference grown by the radii.
fn difference(a: &Piece, b: &Piece) -> (Vec<DVec2>, f64) {
    let points = b
        .core
        .iter()
        .flat_map(|&pb| a.core.iter().map(move |&pa| pb - pa))
        .collect();
    (hull(points), a.radius + b.radius)
}

/// The gap between two shapes, or minus the depth of their overlap.
fn signed_distance(a: &Geo, b: &Geo) -> f64 {
    let mut best = f64::INFINITY;
    for pa in &a.0 {
        for pb in &b.0 {
            let (h, r) = difference(pa, pb);
            best = best.min(hull_distance(&h, DVec2::ZERO) - r);
        }
    }
    best
}

/// When `mover`, moving by `w` per tick, first touches the still `solid`, in ticks, if it
/// does within `limit`: sphere tracing along the motion in each piece's Minkowski
/// difference.
fn first_touch(mover: &Geo, w: DVec2, solid: &Geo, limit: f64) -> Option<f64> {
    let speed = w.length();
    let mut best: Option<f64> = None;
    for pa in &mover.0 {
        for pb in &solid.0 {
            let (h, r) = difference(pa, pb);
            let gap = |t: f64| hull_distance(&h, w * t) - r;
            let (mut t, mut d) = (0.0, gap(0.0));
            let mut steps = 0;
            while d > 1e-10 && t <= limit && steps < 200_000 {
                t += d / speed;
                d = gap(t);
                steps += 1;
            }
            if t <= limit && d <= 1e-7 {
                best = Some(best.map_or(t, |b| b.min(t)));
            }
        }
    }
    best
}

/// How far `n` is from being an outward normal where `mover` (moved by `w t`) touches
/// `solid`: `|h(n) + r - q·n|` in the Minkowski difference of the pieces that touch there.
fn normal_error(mover: &Geo, w: DVec2, t: f64, solid: &Geo, n: DVec2) -> f64 {
    let q = w * t;
    let mut nearest = (f64::INFINITY, f64::INFINITY);
    for pa in &mover.0 {
        for pb in &solid.0 {
            let (h, r) = difference(pa, pb);
            let gap = (hull_distance(&h, q) - r).abs();
            let support = h.iter().map(|p| p.dot(n)).fold(f64::NEG_INFINITY, f64::max);
            let error = (support + r - q.dot(n)).abs();
            if gap < nearest.0 {
                nearest = (gap, error);
            }
        }
    }
    nearest.1
}

/// The velocity a responder keeps after a hit with normal `n` on a still solid.
fn answer(response: Response, v: Vec2, n: Vec2) -> Vec2 {
    let into = v.dot(n);
    if into >= 0.0 {
        return v;
    }
    match response {
        Response::Bounce { restitution } => v - (1.0 + restitution) * into * n,
        Response::Slide => v - into * n,
        Response::Stop => Vec2::ZERO,
    }
}

// ---------------------------------------------------------------------------------------
// Cases that share an App, and the run that checks them.

/// Absolute tolerance in world units (the coordinates stay within a few thousand units).
const TOL: f64 = 2e-3;

const SKIN: f32 = KinematicCharacter::DEFAULT_SKIN;

/// The `i`-th case's own layer in its App.
fn layer(i: usize) -> CollisionLayers {
    let bit = 1u32 << (i % 32);
    CollisionLayers::from_bits(bit, bit)
}

fn place(app: &App, e: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(e)
        .unwrap()
        .translation
        .truncate()
}

fn velocity(app: &App, e: Entity) -> Vec2 {
    app.world().get::<Velocity>(e).unwrap().0
}

/// Spawns `bundle` (a collider without a `Transform`) in `pose`, under a new parent if the
/// pose has one; returns the collider's entity.
fn spawn_posed(app: &mut App, pose: &Pose, bundle: impl Bundle) -> Entity {
    match pose.parent {
        None => app.world_mut().spawn((bundle, pose.own.transform())).id(),
        Some(parent) => {
            let parent = app.world_mut().spawn(parent.transform()).id();
            app.world_mut()
                .spawn((bundle, pose.own.transform(), ChildOf(parent)))
                .id()
        }
    }
}

/// The world transform of a collider entity spawned by [`spawn_posed`] (its own composed
/// with its parent's), from its components.
fn solid_world(app: &App, e: Entity) -> DAffine2 {
    let of = |t: &Transform| {
        DAffine2::from_scale_angle_translation(
            t.scale.truncate().as_dvec2(),
            f64::from(t.rotation.to_euler(EulerRot::ZYX).0),
            t.translation.truncate().as_dvec2(),
        )
    };
    let own = of(app.world().get::<Transform>(e).unwrap());
    match app.world().get::<ChildOf>(e) {
        Some(parent) => of(app.world().get::<Transform>(parent.parent()).unwrap()) * own,
        None => own,
    }
}

#[derive(Clone, Copy, Debug)]
enum Role {
    Answers(Response),
    Character,
}

/// A mover sent at a solid: what it is, where it starts, how it moves, and whether the solid
/// should stop it.
struct Probe {
    name: String,
    mover: Entity,
    solid: Entity,
    shape: Collider,
    start: Frame,
    velocity: Vec2,
    role: Role,
    solid_geo: Geo,
    /// For a segment or polyline solid: the inverse of its world transform and its points
    /// (local), to tell its two sides apart.
    thin: Option<(DAffine2, Vec<Vec2>)>,
    blocked: bool,
}

impl Probe {
    /// Spawns the mover (the solid is spawned already).
    fn new(
        app: &mut App,
        name: String,
        (shape, start, velocity, role): (Collider, Frame, Vec2, Role),
        (solid, solid_geo, blocked): (Entity, Geo, bool),
        layers: CollisionLayers,
    ) -> Self {
        let thin = match app.world().get::<Collider>(solid) {
            Some(Collider::Segment { a, b }) => Some(vec![*a, *b]),
            Some(Collider::Polyline { points }) => Some(points.to_vec()),
            _ => None,
        }
        .map(|points| (solid_world(app, solid).inverse(), points));
        let mut mover =
            app.world_mut()
                .spawn((shape.clone(), start.transform(), Velocity(velocity), layers));
        match role {
            Role::Answers(response) => mover.insert(response),
            Role::Character => mover.insert(KinematicCharacter::default()),
        };
        let mover = mover.id();
        Self {
            name,
            mover,
            solid,
            shape,
            start,
            velocity,
            role,
            solid_geo,
            thin,
            blocked,
        }
    }

    /// Which side of its thin solid (a segment or an x-monotone polyline, in its own frame)
    /// the mover's origin is at `at`, if it is over the solid and not on it.
    fn side(&self, at: Vec2) -> Option<bool> {
        let (inverse, points) = self.thin.as_ref()?;
        let p = inverse.transform_point2(at.as_dvec2());
        let edge = points.windows(2).find(|w| {
            let (a, b) = (f64::from(w[0].x), f64::from(w[1].x));
            a.min(b) <= p.x && p.x <= a.max(b)
        })?;
        let (a, b) = (edge[0].as_dvec2(), edge[1].as_dvec2());
        let y = a.y + (b.y - a.y) * (p.x - a.x) / (b.x - a.x);
        ((p.y - y).abs() > 1e-3).then_some(p.y > y)
    }

    fn per_tick(&self) -> DVec2 {
        self.velocity.as_dvec2() * f64::from(TICK)
    }

    /// How far it keeps from what it touches (a character's skin).
    fn skin(&self) -> f64 {
        match self.role {
            Role::Answers(_) => 0.0,
            Role::Character => f64::from(SKIN),
        }
    }

    fn geo_at(&self, at: DVec2) -> Geo {
        geo(&self.shape, self.start.at(at.as_vec2()).affine())
    }
}

/// The start and velocity of a mover sent at `aim` along `dir` (unit), from `distance` away,
/// at `per_tick` units a tick.
fn approach(aim: DVec2, dir: DVec2, distance: f64, per_tick: f64) -> (Vec2, Vec2) {
    (
        (aim - dir * distance).as_vec2(),
        (dir * per_tick / f64::from(TICK)).as_vec2(),
    )
}

/// Runs `ticks` ticks, checking the probes after each (finite, and a blocked one never
/// inside its solid), then each probe's first contact with its solid (its moment against
/// the model's, its point on both shapes, its normal a normal of both there, its kind) and
/// what it did (a blocked responder's answer, a passing mover's straight path). Returns what
/// was wrong, each naming its probe.
fn run(app: &mut App, probes: &[Probe], ticks: usize) -> Vec<String> {
    let mut wrong = Vec::new();
    let index: HashMap<Entity, usize> = probes
        .iter()
        .enumerate()
        .map(|(i, p)| (p.mover, i))
        .collect();
    let mut seen: Vec<Vec<(usize, CollisionEvent)>> = vec![Vec::new(); probes.len()];
    let mut ends: Vec<Vec<Vec2>> = vec![Vec::new(); probes.len()];
    for k in 0..ticks {
        let events = tick(app);
        assert_well_formed(&events);
        for e in &events {
            for (me, other) in [(e.entity, e.other), (e.other, e.entity)] {
                if let Some(&i) = index.get(&me)
                    && probes[i].solid == other
                {
                    seen[i].push((k, seen_from(e, me)));
                }
            }
        }
        for (p, ends) in probes.iter().zip(&mut ends) {
            let (at, vel) = (place(app, p.mover), velocity(app, p.mover));
            ends.push(at);
            if !at.is_finite() || !vel.is_finite() {
                wrong.push(format!(
                    "{}: after tick {k} at {at} with velocity {vel}",
                    p.name
                ));
                continue;
            }
            if p.blocked {
                let gap = signed_distance(&p.geo_at(at.as_dvec2()), &p.solid_geo);
                if gap < p.skin() - TOL {
                    wrong.push(format!(
                        "{}: after tick {k} at {at}, {gap:.5} from the solid (inside or \
                         within the skin)",
                        p.name
                    ));
                }
            }
        }
    }
    for ((p, seen), ends) in probes.iter().zip(&seen).zip(&ends) {
        check_probe(app, p, seen, ends, &mut wrong);
    }
    wrong
}

fn check_probe(
    app: &App,
    p: &Probe,
    seen: &[(usize, CollisionEvent)],
    ends: &[Vec2],
    wrong: &mut Vec<String>,
) {
    let name = &p.name;
    let ticks = ends.len();
    let w = p.per_tick();
    let speed = w.length();
    let start = p.start.at.as_dvec2();
    let (at, vel) = (place(app, p.mover), velocity(app, p.mover));
    // The answer's normal may be taken a little before the contact: on a small round shape
    // at 400 units a tick that turns it by up to a few thousandths.
    let tolerance = 5e-3 * p.velocity.length() + 1e-3;
    if !p.blocked {
        let end = (start + w * ticks as f64).as_vec2();
        if vel.distance(p.velocity) > tolerance || f64::from(at.distance(end)) > TOL {
            wrong.push(format!(
                "{name}: should pass; ends at {at} (not {end}) with velocity {vel} (not {})",
                p.velocity
            ));
        }
    }
    let mover0 = p.geo_at(start).grown(p.skin());
    let Some(t) = first_touch(&mover0, w, &p.solid_geo, ticks as f64) else {
        assert!(
            !p.blocked,
            "{name}: set up to reach its solid, but does not"
        );
        return;
    };
    // Never through a thin solid: the mover's origin stays on the side it touched it from.
    if p.blocked
        && let Some(from) = p.side((start + w * t).as_vec2())
    {
        for (k, &end) in ends.iter().enumerate().skip(t as usize) {
            if p.side(end) == Some(!from) {
                wrong.push(format!(
                    "{name}: after tick {k} at {end}, through the solid"
                ));
                break;
            }
        }
    }
    let Role::Answers(response) = p.role else {
        // A character's contacts are checked on their own, in
        // `a_character_reports_its_contacts_along_its_real_path`.
        return;
    };
    let Some(&(k, first)) = seen.first() else {
        wrong.push(format!(
            "{name}: no contact reported; the model touches at {t:.5} ticks"
        ));
        return;
    };
    let t_event = k as f64 + f64::from(first.time_of_impact);
    // Off along the surface is no error: the time's error is measured along the normal.
    let closing = w.dot(first.normal.as_dvec2()).abs().max(0.05 * speed);
    if (t_event - t).abs() * closing > TOL {
        wrong.push(format!(
            "{name}: first contact ({:?}) at {t_event:.5} ticks, the model's at {t:.5}",
            first.kind
        ));
    }
    let then = p.geo_at(start + w * t_event);
    let point = Geo::point(first.point.as_dvec2());
    let (on_solid, on_mover) = (
        signed_distance(&point, &p.solid_geo),
        signed_distance(&point, &then),
    );
    if on_solid.abs() > TOL || on_mover.abs() > TOL {
        wrong.push(format!(
            "{name}: contact point {} is {on_solid:.5} from the solid and {on_mover:.5} from \
             the mover",
            first.point
        ));
    }
    let normal_off = normal_error(&mover0, w, t_event, &p.solid_geo, first.normal.as_dvec2());
    if normal_off > TOL {
        wrong.push(format!(
            "{name}: contact normal {} is no normal there (off by {normal_off:.5})",
            first.normal
        ));
    }
    let kind_ok = match (p.blocked, response) {
        (true, Response::Bounce { .. }) => first.kind == CollisionKind::Crossed,
        (true, Response::Stop) => first.kind == CollisionKind::Started,
        _ => first.kind != CollisionKind::Ended,
    };
    if !kind_ok {
        wrong.push(format!("{name}: first contact is {:?}", first.kind));
    }
    let hits = seen
        .iter()
        .filter(|(_, e)| e.kind != CollisionKind::Ended)
        .count();
    // One contact with a polyline may be several hits, on several edges.
    if !p.blocked || hits != 1 || p.thin.as_ref().is_some_and(|(_, points)| points.len() > 2) {
        return;
    }
    // One hit: the answer, then a straight path.
    let answered = answer(response, p.velocity, first.normal);
    let after = answered.as_dvec2() * f64::from(TICK);
    let left = ticks as f64 - t_event;
    let end = (start + w * t_event + after * left).as_vec2();
    if vel.distance(answered) > tolerance
        || f64::from(at.distance(end)) > TOL + 5e-3 * after.length() * left
    {
        wrong.push(format!(
            "{name}: after its one hit (normal {}) ends at {at} (not {end}) with velocity \
             {vel} (not {answered})",
            first.normal
        ));
    }
}

#[track_caller]
fn assert_none_wrong(what: &str, wrong: &[String]) {
    assert!(
        wrong.is_empty(),
        "{what}: {} wrong, the first {}:\n{}",
        wrong.len(),
        wrong.len().min(40),
        wrong
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Four directions to come from, cycled through by case.
fn direction(i: usize) -> DVec2 {
    [
        DVec2::new(0.0, -1.0),
        DVec2::new(0.6, -0.8),
        DVec2::new(1.0, 0.0),
        DVec2::new(-0.8, 0.6),
    ][i % 4]
}

/// Slow (16 units a tick, from 40 away) or fast (400 a tick, from 600 away), by case.
fn speed(i: usize) -> (f64, f64) {
    if (i / 4).is_multiple_of(2) {
        (40.0, 16.0)
    } else {
        (600.0, 400.0)
    }
}

// ---------------------------------------------------------------------------------------
// Responders.

/// A responder of every shape but the polyline (at scale 1, halved, and turned, mirrored
/// and stretched), answering with each `Response`, sent at a solid of every shape in every
/// pose, at 16 and at 400 units a tick, from four directions. Expected of each: it never ends
/// a tick inside the solid; its first contact is at the moment the model says, at a point on
/// both shapes, with a normal of both there, `Crossed` for a bounce and `Started` for a stop;
/// after its one hit its velocity is `v - (1 + e)(v·n)n` (a bounce), `v - (v·n)n` (a slide)
/// or zero (a stop), and it goes on in a straight line from the contact. (What it finds wrong
/// is kept at its smallest in `a_fast_point_ball_bounces_off_a_box_and_a_segment`,
/// `a_fast_box_is_answered_by_a_point`, `a_box_corner_on_a_slanted_segment_takes_the_segments_normal`,
/// `a_fast_triangle_bounces_off_a_box_by_the_boxs_normal`, `a_fast_segment_slides_down_a_slope`
/// and `a_stopped_box_stays_in_contact_with_the_point_it_stopped_on`.)
#[test]
fn responders_of_every_shape_answer_solids_of_every_shape_and_pose() {
    let bounce = |restitution| Response::Bounce { restitution };
    let mut specs = Vec::new();
    for kind in KINDS.into_iter().filter(|&k| k != Kind::Polyline) {
        let responses = match kind {
            Kind::Circle => vec![bounce(1.0), bounce(0.5), Response::Slide, Response::Stop],
            Kind::Segment | Kind::Capsule => vec![Response::Slide],
            Kind::Aabb => vec![Response::Stop],
            Kind::Rectangle => vec![bounce(0.5)],
            _ => vec![bounce(1.0)],
        };
        for response in responses {
            for (pose_name, pose) in MOVER_POSES {
                for solid_kind in KINDS {
                    for solid_pose in SOLID_POSES {
                        // Two points meet only by chance.
                        if kind != Kind::Point || solid_kind != Kind::Point {
                            specs.push((kind, response, pose_name, pose, solid_kind, solid_pose));
                        }
                    }
                }
            }
        }
    }
    let mut wrong = Vec::new();
    for (c, chunk) in specs.chunks(32).enumerate() {
        let mut app = common::app();
        let mut probes = Vec::new();
        for (j, &(kind, response, pose_name, pose, solid_kind, solid_pose)) in
            chunk.iter().enumerate()
        {
            let i = c * 32 + j;
            let (shape, aim) = solid(solid_kind);
            let world = solid_pose.world();
            let solid_geo = geo(&shape, world);
            let solid = spawn_posed(&mut app, &solid_pose, (shape, layer(j)));
            let aim = world.transform_point2(aim.as_dvec2());
            let dir = direction(i);
            let (distance, per_tick) = speed(i);
            let (start, vel) = approach(aim, dir, distance, per_tick);
            let name = format!(
                "a {kind:?} {response:?} ({pose_name}) at {per_tick} units a tick along {dir} \
                 into a {solid_kind:?} ({})",
                solid_pose.name
            );
            probes.push(Probe::new(
                &mut app,
                name,
                (mover(kind), pose.at(start), vel, Role::Answers(response)),
                (solid, solid_geo, true),
                layer(j),
            ));
        }
        wrong.extend(run(&mut app, &probes, 5));
    }
    assert_none_wrong("responders", &wrong);
}

// ---------------------------------------------------------------------------------------
// Sensors and one-way colliders.

/// The world direction of a local one in `pose` (its linear part applied, made unit).
fn turned(pose: &Pose, local: DVec2) -> DVec2 {
    pose.world().matrix2.mul_vec2(local).normalize()
}

/// The checks of the queries against one solid, each naming the case: a disk of radius 1 sent
/// from `from` to `to` with `move_and_slide`, `cast_shape` and `cast_shape_with` (blocking
/// only). `blocks`: whether the solid should stop it.
fn query_checks(
    app: &mut App,
    name: &str,
    (solid, solid_geo): (Entity, &Geo),
    (from, to): (DVec2, DVec2),
    filter: &QueryFilter,
    blocks: bool,
) -> Vec<String> {
    let disk = Collider::circle(1.0);
    let (a, b) = (from.as_vec2(), to.as_vec2());
    let (slid, plain, blocking) = common::with_query(app, |q| {
        let slid = q.move_and_slide(
            &disk,
            Isometry2d::from_translation(a),
            b - a,
            &MoveAndSlideConfig::default(),
            filter,
        );
        let options = CastOptions {
            ignore_touching_leaving: false,
            blocking_only: true,
        };
        let (start, end) = (
            Isometry2d::from_translation(a),
            Isometry2d::from_translation(b),
        );
        (
            slid,
            q.cast_shape(&disk, start, end, filter),
            q.cast_shape_with(&disk, start, end, &options, filter),
        )
    });
    let mut wrong = Vec::new();
    if !slid.translation.is_finite() {
        wrong.push(format!(
            "{name}: move_and_slide ends at {}",
            slid.translation
        ));
        return wrong;
    }
    let hit = slid.hits.iter().any(|h| h.entity == solid);
    if plain.is_none_or(|h| h.entity != solid) {
        wrong.push(format!("{name}: cast_shape misses it: {plain:?}"));
    }
    if blocks {
        let disk_there = geo(
            &disk,
            DAffine2::from_translation(slid.translation.as_dvec2()),
        );
        let gap = signed_distance(&disk_there, solid_geo);
        let skin = f64::from(MoveAndSlideConfig::default().skin);
        if !hit || gap < skin - TOL {
            wrong.push(format!(
                "{name}: move_and_slide should stop a skin from it; ends at {} ({gap:.5} \
                 from it), hits {:?}",
                slid.translation, slid.hits
            ));
        }
        if blocking.is_none_or(|h| h.entity != solid) {
            wrong.push(format!(
                "{name}: cast_shape_with (blocking only) misses it: {blocking:?}"
            ));
        }
    } else {
        if hit || slid.translation.distance(b) > 1e-4 {
            wrong.push(format!(
                "{name}: move_and_slide should pass it; ends at {} (not {b}), hits {:?}",
                slid.translation, slid.hits
            ));
        }
        if blocking.is_some_and(|h| h.entity == solid) {
            wrong.push(format!(
                "{name}: cast_shape_with (blocking only) stops at it: {blocking:?}"
            ));
        }
    }
    wrong
}

/// A sensor of every shape in every pose blocks nothing: responders of four shapes (bouncing,
/// sliding, stopping) and characters of two shapes pass through it on a straight line with
/// their velocity unchanged, their first contact reported at the moment, place and normal the
/// model says; `move_and_slide` passes it; `cast_shape_with` (blocking only) does not see it,
/// plain `cast_shape` does.
#[test]
fn sensors_of_every_shape_and_pose_block_nothing() {
    let bounce = Role::Answers(Response::Bounce { restitution: 1.0 });
    let movers = [
        (Kind::Circle, bounce),
        (Kind::Rectangle, Role::Answers(Response::Slide)),
        (Kind::Capsule, Role::Answers(Response::Stop)),
        (Kind::Point, bounce),
        (Kind::Circle, Role::Character),
        (Kind::Polygon, Role::Character),
    ];
    let mut specs = Vec::new();
    for kind in KINDS {
        for pose in SOLID_POSES {
            for (mover_kind, role) in movers {
                if kind != Kind::Point || mover_kind != Kind::Point {
                    specs.push((kind, pose, mover_kind, role));
                }
            }
        }
    }
    let mut wrong = Vec::new();
    for (c, chunk) in specs.chunks(32).enumerate() {
        let mut app = common::app();
        let mut probes = Vec::new();
        let mut queries = Vec::new();
        for (j, &(kind, pose, mover_kind, role)) in chunk.iter().enumerate() {
            let i = c * 32 + j;
            let (shape, aim) = solid(kind);
            let world = pose.world();
            let solid_geo = geo(&shape, world);
            let solid = spawn_posed(&mut app, &pose, (shape, layer(j), Sensor));
            let aim = world.transform_point2(aim.as_dvec2());
            let dir = direction(i);
            let (distance, per_tick) = speed(i);
            let (start, vel) = approach(aim, dir, distance, per_tick);
            let name = format!(
                "a {mover_kind:?} {role:?} at {per_tick} units a tick along {dir} through a \
                 {kind:?} sensor ({})",
                pose.name
            );
            queries.push((name.clone(), solid, solid_geo.clone(), aim, dir));
            probes.push(Probe::new(
                &mut app,
                name,
                (
                    mover(mover_kind),
                    frame(0.0, 0.0, 0.3, 1.0, 1.0).at(start),
                    vel,
                    role,
                ),
                (solid, solid_geo, false),
                layer(j),
            ));
        }
        wrong.extend(run(&mut app, &probes, 5));
        for (j, (name, solid, solid_geo, aim, dir)) in queries.into_iter().enumerate() {
            let filter = QueryFilter::default()
                .with_layers(layer(j).memberships)
                .excluding(probes[j].mover);
            let ends = (aim - dir * 20.0, aim + dir * 20.0);
            wrong.extend(query_checks(
                &mut app,
                &name,
                (solid, &solid_geo),
                ends,
                &filter,
                false,
            ));
        }
    }
    assert_none_wrong("sensors", &wrong);
}

/// A one-way collider of every shape in every pose, `OneWay(Dir2::Y)`: its direction turns
/// with it, so in the world it is the pose's image of local +y (down for the half turn made
/// by scale (-1, -1)). From the side it points to, coming against it (at an angle), a bouncing
/// ball and a sliding box are answered as by any solid and a character stops a skin away;
/// from behind, a ball, a stopping polygon and a character pass on a straight line with
/// their velocity unchanged. `move_and_slide` is stopped from its side and passes from behind.
/// Contacts are reported either way. (What it finds wrong is kept at its smallest in
/// `a_ball_bounces_off_a_round_one_way_by_the_contact_normal` and
/// `a_box_sliding_along_a_tilted_one_way_stays_out_of_it`.)
#[test]
fn one_way_colliders_of_every_shape_and_pose_block_from_their_side_only() {
    let bounce = Role::Answers(Response::Bounce { restitution: 1.0 });
    let movers = [
        (Kind::Circle, bounce, true),
        (Kind::Circle, bounce, false),
        (Kind::Rectangle, Role::Answers(Response::Slide), true),
        (Kind::Polygon, Role::Answers(Response::Stop), false),
        (Kind::Circle, Role::Character, true),
        (Kind::Capsule, Role::Character, false),
    ];
    let mut specs = Vec::new();
    for kind in KINDS {
        for pose in SOLID_POSES {
            for mover in movers {
                specs.push((kind, pose, mover));
            }
        }
    }
    let mut wrong = Vec::new();
    for (c, chunk) in specs.chunks(32).enumerate() {
        let mut app = common::app();
        let mut probes = Vec::new();
        let mut queries = Vec::new();
        for (j, &(kind, pose, (mover_kind, role, front))) in chunk.iter().enumerate() {
            let i = c * 32 + j;
            let (shape, aim) = solid(kind);
            let world = pose.world();
            let solid_geo = geo(&shape, world);
            let solid = spawn_posed(&mut app, &pose, (shape, layer(j), OneWay(Dir2::Y)));
            let aim = world.transform_point2(aim.as_dvec2());
            let up = turned(&pose, DVec2::Y);
            let along = if front { -up } else { up };
            let motion = (along + up.perp() * 0.3).normalize();
            let (distance, per_tick) = speed(i);
            let (start, vel) = approach(aim, motion, distance, per_tick);
            let side = if front { "its side" } else { "behind" };
            let name = format!(
                "a {mover_kind:?} {role:?} at {per_tick} units a tick from {side} (along \
                 {motion}) at a {kind:?} one-way ({}) pointing {up}",
                pose.name
            );
            if j % 6 < 2 {
                queries.push((name.clone(), solid, solid_geo.clone(), aim, up, front));
            }
            probes.push(Probe::new(
                &mut app,
                name,
                (
                    mover(mover_kind),
                    frame(0.0, 0.0, 0.0, 1.0, 1.0).at(start),
                    vel,
                    role,
                ),
                (solid, solid_geo, front),
                layer(j),
            ));
        }
        wrong.extend(run(&mut app, &probes, 5));
        for (name, solid, solid_geo, aim, up, front) in queries {
            let j = probes.iter().position(|p| p.solid == solid).unwrap();
            let filter = QueryFilter::default()
                .with_layers(layer(j).memberships)
                .excluding(probes[j].mover);
            let from = if front {
                aim + up * 20.0
            } else {
                aim - up * 20.0
            };
            let ends = (from, from + (aim - from) * 2.0);
            let name = format!("{name}, queried");
            wrong.extend(query_checks(
                &mut app,
                &name,
                (solid, &solid_geo),
                ends,
                &filter,
                front,
            ));
        }
    }
    assert_none_wrong("one-way colliders", &wrong);
}

// ---------------------------------------------------------------------------------------
// Characters.

const GRAVITY: f32 = 900.0;

fn gravity(mut characters: Query<&mut Velocity, With<KinematicCharacter>>, time: Res<Time>) {
    for mut velocity in &mut characters {
        velocity.0.y -= GRAVITY * time.delta_secs();
    }
}

/// A wide floor, and where its top is at local x = 0 (for a point, the point).
fn floor(kind: Kind) -> (Collider, Vec2) {
    match kind {
        Kind::Point => (Collider::point(), Vec2::ZERO),
        Kind::Segment => (Collider::segment(v(-20.0, 0.0), v(20.0, 0.0)), Vec2::ZERO),
        Kind::Circle => (Collider::circle(30.0), v(0.0, 30.0)),
        Kind::Aabb => (Collider::aabb(v(20.0, 2.0)), v(0.0, 2.0)),
        Kind::Rectangle => (Collider::rectangle(v(20.0, 2.0)), v(0.0, 2.0)),
        Kind::Capsule => (
            Collider::capsule(v(-20.0, 0.0), v(20.0, 0.0), 2.0),
            v(0.0, 2.0),
        ),
        Kind::Polygon => (
            Collider::convex_polygon(&[v(-20.0, -4.0), v(20.0, -4.0), v(16.0, 0.0), v(-16.0, 0.0)])
                .unwrap(),
            Vec2::ZERO,
        ),
        Kind::Polyline => (
            Collider::polyline(&[v(-20.0, 1.0), v(-10.0, 0.0), v(10.0, 0.0), v(20.0, 1.0)])
                .unwrap(),
            Vec2::ZERO,
        ),
    }
}

/// A character's shape, about three units tall.
fn character(kind: Kind) -> Collider {
    match kind {
        Kind::Point => Collider::point(),
        Kind::Segment => Collider::segment(v(-1.5, 0.0), v(1.5, 0.0)),
        Kind::Circle => Collider::circle(1.5),
        Kind::Aabb => Collider::aabb(v(1.0, 1.5)),
        Kind::Rectangle => Collider::rectangle(v(1.0, 1.5)),
        Kind::Capsule => Collider::capsule(v(0.0, -1.0), v(0.0, 1.0), 1.0),
        Kind::Polygon => Collider::convex_polygon(&[
            v(-1.0, -1.5),
            v(1.0, -1.5),
            v(1.3, 0.5),
            v(0.0, 1.6),
            v(-1.3, 0.5),
        ])
        .unwrap(),
        Kind::Polyline => Collider::polyline(&[v(-1.0, 0.0), v(1.0, 0.0)]).unwrap(),
    }
}

const CHARACTER_POSES: [(&str, Frame); 6] = [
    ("scale 1", frame(0.0, 0.0, 0.0, 1.0, 1.0)),
    ("scale 2", frame(0.0, 0.0, 0.0, 2.0, 2.0)),
    ("scale 0.5", frame(0.0, 0.0, 0.0, 0.5, 0.5)),
    ("scale (2, 0.5)", frame(0.0, 0.0, 0.0, 2.0, 0.5)),
    ("mirrored, scale (-1, 1)", frame(0.0, 0.0, 0.0, -1.0, 1.0)),
    ("turned 0.3", frame(0.0, 0.0, 0.3, 1.0, 1.0)),
];

/// Floors turned at most 0.2 rad: walkable.
const FLOOR_POSES: [Pose; 4] = [
    Pose::root("scale 1", frame(0.0, 0.0, 0.0, 1.0, 1.0)),
    Pose::root(
        "turned 0.2, scale (2, 0.5)",
        frame(1.0, -1.0, 0.2, 2.0, 0.5),
    ),
    Pose::root("mirrored, scale (-0.5, 1)", frame(0.0, 0.5, 0.0, -0.5, 1.0)),
    Pose::child(
        "child turned 0.05 of a parent at (5, -3) turned 0.1 and scaled 2",
        frame(5.0, -3.0, 0.1, 2.0, 2.0),
        frame(0.0, 0.0, 0.05, 1.0, 1.0),
    ),
];

/// A character of every shape but the polyline, in six poses, dropped (at 200 units/s, with
/// gravity) onto a floor of every shape in four poses, turned up to 0.25 rad (walkable), 4
/// units above where it lands. Expected of each: it is never nearer the floor than `skin` at
/// the end of a tick; it lands (one `Started` with the floor, no `Ended`), is grounded on that
/// floor, stands `skin` from it, does not drift over the last six ticks, and its velocity
/// does not build up (at most one tick of gravity).
#[test]
fn characters_of_every_shape_and_pose_stand_on_floors_of_every_shape_and_pose() {
    let mut specs = Vec::new();
    for kind in KINDS.into_iter().filter(|&k| k != Kind::Polyline) {
        for (pose_name, pose) in CHARACTER_POSES {
            // A point looks the same in every pose.
            if kind == Kind::Point && pose_name != "scale 1" {
                continue;
            }
            for floor_kind in KINDS {
                for floor_pose in FLOOR_POSES {
                    specs.push((kind, pose_name, pose, floor_kind, floor_pose));
                }
            }
        }
    }
    let skin = f64::from(SKIN);
    let mut wrong = Vec::new();
    for chunk in specs.chunks(32) {
        let mut app = common::app();
        app.add_systems(FixedUpdate, gravity);
        let mut cases = Vec::new();
        for (j, &(kind, pose_name, pose, floor_kind, floor_pose)) in chunk.iter().enumerate() {
            let (shape, top) = floor(floor_kind);
            let world = floor_pose.world();
            let floor_geo = geo(&shape, world);
            let floor = spawn_posed(&mut app, &floor_pose, (shape, layer(j)));
            let top = world.transform_point2(top.as_dvec2());
            let body = character(kind);
            let high = top + DVec2::new(0.0, 100.0);
            let grown = geo(&body, pose.at(high.as_vec2()).affine()).grown(skin);
            let fall = first_touch(&grown, DVec2::new(0.0, -1.0), &floor_geo, 200.0)
                .expect("setup: above the floor");
            let start = (high + DVec2::new(0.0, 4.0 - fall)).as_vec2();
            let me = app
                .world_mut()
                .spawn((
                    body.clone(),
                    pose.at(start).transform(),
                    Velocity(v(0.0, -200.0)),
                    KinematicCharacter::default(),
                    layer(j),
                ))
                .id();
            let name = format!(
                "a {kind:?} character ({pose_name}) on a {floor_kind:?} floor ({})",
                floor_pose.name
            );
            cases.push((name, me, body, pose, floor, floor_geo));
        }
        let mut events = Vec::new();
        let mut halfway = Vec::new();
        for k in 0..12 {
            let tick_events = tick(&mut app);
            assert_well_formed(&tick_events);
            events.extend(tick_events);
            for (name, me, body, pose, _, floor_geo) in &cases {
                let (at, vel) = (place(&app, *me), velocity(&app, *me));
                if !at.is_finite() || !vel.is_finite() {
                    wrong.push(format!("{name}: after tick {k} at {at}, velocity {vel}"));
                    continue;
                }
                let gap = signed_distance(&geo(body, pose.at(at).affine()), floor_geo);
                if gap < skin - TOL {
                    wrong.push(format!(
                        "{name}: after tick {k} at {at}, {gap:.5} from the floor"
                    ));
                }
            }
            if k == 5 {
                halfway = cases.iter().map(|c| place(&app, c.1)).collect();
            }
        }
        for ((name, me, body, pose, floor, floor_geo), then) in cases.iter().zip(halfway) {
            let (me, floor) = (*me, *floor);
            let at = place(&app, me);
            let state = *app.world().get::<CharacterState>(me).unwrap();
            let gap = signed_distance(&geo(body, pose.at(at).affine()), floor_geo);
            let kinds: Vec<CollisionKind> = events
                .iter()
                .filter(|e| {
                    (e.entity, e.other) == (me, floor) || (e.other, e.entity) == (me, floor)
                })
                .map(|e| e.kind)
                .collect();
            let speed = velocity(&app, me).length();
            if !state.grounded
                || state.ground_entity != Some(floor)
                || (gap - skin).abs() > TOL
                || at.distance(then) > 1e-3
                || speed > GRAVITY * TICK + 1e-3
                || kinds != [CollisionKind::Started]
            {
                wrong.push(format!(
                    "{name}: ends at {at} ({then} six ticks before), {gap:.5} from the floor, \
                     at {speed} units/s, contacts {kinds:?}, {state:?}"
                ));
            }
        }
    }
    assert_none_wrong("characters", &wrong);
}

// ---------------------------------------------------------------------------------------
// Bodies.

/// A body: a root with a circle, children of all eight shapes (scaled, mirrored, turned), a
/// grandchild under a scaled entity without a collider, and a nested body (a rectangle with a
/// circle child), all overlapping. The root is moved 5 units and turned 0.05 rad each tick, by
/// hand, through walls of every shape. Expected: no event, contact or `CollidingEntities`
/// entry ever pairs two colliders of the outer body, or two of the inner one; each inner
/// collider that overlaps an outer one (by the model) starts touching it at time 0 of the
/// first tick and never stops; every event names each side's body; every wall is touched; a
/// query excluding the outer body finds none of its colliders, one excluding the inner body
/// none of its, and one excluding nothing finds them all.
#[test]
fn a_body_never_reports_contacts_inside_itself() {
    let mut app = common::app();
    let root = app
        .world_mut()
        .spawn((Body, Collider::circle(1.0), CollidingEntities::default()))
        .id();
    let parts = [
        (Collider::point(), frame(0.5, 0.0, 0.0, 1.0, 1.0)),
        (
            Collider::segment(v(-1.0, 0.0), v(1.0, 0.0)),
            frame(0.0, 0.5, 0.3, 2.0, 2.0),
        ),
        (Collider::aabb(v(1.0, 1.0)), frame(-0.5, 0.0, 0.0, 1.5, 0.5)),
        (
            Collider::rectangle(v(1.0, 0.5)),
            frame(0.3, -0.3, 0.6, 1.0, 1.0),
        ),
        (
            Collider::capsule(v(-1.0, 0.2), v(1.0, 0.0), 0.4),
            frame(0.0, 0.0, 0.0, -1.0, 1.0),
        ),
        (mover(Kind::Polygon), frame(0.2, 0.2, 0.0, 0.5, 0.5)),
        (
            Collider::polyline(&[v(-1.0, -1.0), v(0.0, 1.0), v(1.0, -1.0)]).unwrap(),
            frame(0.0, 0.0, 0.0, 1.0, 1.0),
        ),
    ];
    // Each collider with its world transform at the start.
    let mut outer = vec![(root, Collider::circle(1.0), DAffine2::IDENTITY)];
    for (shape, at) in parts {
        let e = app
            .world_mut()
            .spawn((shape.clone(), at.transform(), ChildOf(root)))
            .id();
        outer.push((e, shape, at.affine()));
    }
    let middle = frame(0.4, 0.4, 0.0, 2.0, 2.0);
    let middle_entity = app
        .world_mut()
        .spawn((middle.transform(), ChildOf(root)))
        .id();
    let grandchild = frame(0.1, 0.0, 0.0, 1.0, 1.0);
    let e = app
        .world_mut()
        .spawn((
            Collider::circle(0.5),
            grandchild.transform(),
            ChildOf(middle_entity),
        ))
        .id();
    outer.push((
        e,
        Collider::circle(0.5),
        middle.affine() * grandchild.affine(),
    ));
    let inner_at = frame(0.0, 0.2, 0.0, 1.0, 1.0);
    let inner_root = app
        .world_mut()
        .spawn((
            Body,
            Collider::rectangle(v(1.0, 1.0)),
            inner_at.transform(),
            ChildOf(root),
        ))
        .id();
    let inner_child = frame(0.3, 0.0, 0.0, 1.0, 1.0);
    let e = app
        .world_mut()
        .spawn((
            Collider::circle(0.7),
            inner_child.transform(),
            ChildOf(inner_root),
        ))
        .id();
    let inner = [
        (
            inner_root,
            Collider::rectangle(v(1.0, 1.0)),
            inner_at.affine(),
        ),
        (
            e,
            Collider::circle(0.7),
            inner_at.affine() * inner_child.affine(),
        ),
    ];
    let walls: Vec<Entity> = KINDS
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            let shape = match kind {
                Kind::Point => Collider::point(),
                Kind::Segment => Collider::segment(v(0.0, -10.0), v(0.0, 10.0)),
                Kind::Circle => Collider::circle(3.0),
                Kind::Aabb => Collider::aabb(v(1.0, 10.0)),
                Kind::Rectangle => Collider::rectangle(v(1.0, 10.0)),
                Kind::Capsule => Collider::capsule(v(0.0, -10.0), v(0.0, 10.0), 0.5),
                Kind::Polygon => Collider::convex_polygon(&[
                    v(-1.0, -10.0),
                    v(1.0, -10.0),
                    v(1.5, 10.0),
                    v(-1.5, 10.0),
                ])
                .unwrap(),
                Kind::Polyline => {
                    Collider::polyline(&[v(0.0, -10.0), v(1.0, 0.0), v(0.0, 10.0)]).unwrap()
                }
            };
            let at = frame(15.0 + 8.0 * i as f32, 0.0, 0.2 * (i % 2) as f32, 1.0, 1.0);
            app.world_mut().spawn((shape, at.transform())).id()
        })
        .collect();
    let body_of: HashMap<Entity, Option<Entity>> = outer
        .iter()
        .map(|o| (o.0, Some(root)))
        .chain(inner.iter().map(|i| (i.0, Some(inner_root))))
        .chain(walls.iter().map(|&w| (w, None)))
        .collect();
    // The pairs across the two bodies that overlap from the start, and those that never touch.
    let mut overlapping = Vec::new();
    let mut apart = Vec::new();
    for (a, shape_a, at_a) in &outer {
        for (b, shape_b, at_b) in &inner {
            let gap = signed_distance(&geo(shape_a, *at_a), &geo(shape_b, *at_b));
            if gap < -0.01 {
                overlapping.push((*a, *b));
            } else if gap > 0.01 {
                apart.push((*a, *b));
            }
        }
    }
    assert!(overlapping.len() >= 4, "setup: the bodies overlap");
    let pair = |e: &CollisionEvent, (a, b): (Entity, Entity)| {
        (e.entity, e.other) == (a, b) || (e.entity, e.other) == (b, a)
    };
    let mut all = Vec::new();
    for k in 0..16 {
        {
            let mut transform = app.world_mut().get_mut::<Transform>(root).unwrap();
            transform.translation.x += 5.0;
            transform.rotate_z(0.05);
        }
        let events = tick(&mut app);
        assert_well_formed(&events);
        for e in &events {
            assert!(
                body_of[&e.entity].is_none() || body_of[&e.entity] != body_of[&e.other],
                "tick {k}: a contact inside one body: {e:?}"
            );
            assert_eq!(
                (e.body, e.other_body),
                (body_of[&e.entity], body_of[&e.other]),
                "tick {k}: the bodies of {e:?}"
            );
        }
        if k == 0 {
            for &(a, b) in &overlapping {
                assert!(
                    events.iter().any(|e| pair(e, (a, b))
                        && e.kind == CollisionKind::Started
                        && e.time_of_impact == 0.0),
                    "{a} and {b} of two bodies overlap from the start: {events:?}"
                );
            }
        }
        for contact in app.world().resource::<Contacts>().iter() {
            assert!(
                body_of[&contact.entity].is_none()
                    || body_of[&contact.entity] != body_of[&contact.other],
                "tick {k}: a contact inside one body in Contacts: {contact:?}"
            );
        }
        let touching = app.world().get::<CollidingEntities>(root).unwrap();
        for (o, ..) in &outer {
            assert!(
                !touching.contains(*o),
                "tick {k}: the body's CollidingEntities holds its own {o}"
            );
        }
        all.extend(events);
    }
    for &(a, b) in &overlapping {
        assert!(
            !all.iter()
                .any(|e| pair(e, (a, b)) && e.kind != CollisionKind::Started),
            "{a} and {b} move together: their contact never ends"
        );
    }
    for &(a, b) in &apart {
        assert!(
            !all.iter().any(|e| pair(e, (a, b))),
            "{a} and {b} never touch"
        );
    }
    for (i, &wall) in walls.iter().enumerate() {
        assert!(
            all.iter().any(|e| e.entity == wall || e.other == wall),
            "the {:?} wall is passed through without a contact",
            KINDS[i]
        );
    }
    let at = place(&app, root);
    let found = |app: &mut App, filter: QueryFilter| {
        let mut hits = Vec::new();
        common::with_query(app, |q| {
            q.shape_hits(
                &Collider::circle(10.0),
                Isometry2d::from_translation(at),
                &filter,
                &mut hits,
            );
        });
        hits
    };
    let everything = found(&mut app, QueryFilter::default());
    let no_outer = found(&mut app, QueryFilter::default().excluding(root));
    let no_inner = found(&mut app, QueryFilter::default().excluding(inner_root));
    for (o, ..) in &outer {
        assert!(everything.contains(o), "{o} of the outer body is found");
        assert!(
            !no_outer.contains(o),
            "{o} of the excluded outer body is found"
        );
        assert!(no_inner.contains(o), "{o} of the outer body is found");
    }
    for (i, ..) in &inner {
        assert!(everything.contains(i), "{i} of the inner body is found");
        assert!(
            !no_inner.contains(i),
            "{i} of the excluded inner body is found"
        );
        assert!(
            no_outer.contains(i),
            "{i} of the inner body, not excluded, is found"
        );
    }
}

/// The body of `Body`'s own example: a root without a collider, with a `Velocity` of 100
/// units/s along x, and a circle of radius 1 as its child. The root moves 1.5625 units a tick,
/// and the child with it: a still point at (4, 0) is reached when the circle's centre is at
/// x = 3, at 1.92 ticks (the second tick, 0.92 into it).
#[test]
fn a_body_root_without_a_collider_moves_by_its_velocity() {
    let mut app = common::app();
    let hero = app
        .world_mut()
        .spawn((Body, Transform::default(), Velocity(Vec2::X * 100.0)))
        .id();
    let circle = app
        .world_mut()
        .spawn((Collider::circle(1.0), ChildOf(hero)))
        .id();
    let dot = app
        .world_mut()
        .spawn((Collider::point(), Transform::from_xyz(4.0, 0.0, 0.0)))
        .id();
    let first = tick(&mut app);
    assert!(first.is_empty(), "{first:?}");
    assert_close(place(&app, hero).x, 1.5625, 1e-5, "the root after a tick");
    let second = tick(&mut app);
    assert_eq!(second.len(), 1, "{second:?}");
    let e = seen_from(&second[0], circle);
    assert_eq!(
        (e.kind, e.other, e.body),
        (CollisionKind::Started, dot, Some(hero))
    );
    assert_close(
        e.time_of_impact,
        0.92,
        1e-4,
        "when the circle reaches the point",
    );
}

// ---------------------------------------------------------------------------------------
// Switched off.

/// A collider of every shape in every pose, touching a sensor disk at rest, is switched off
/// with `ColliderDisabled`. Expected: from that moment no query finds it (`point_hits`,
/// `shape_hits`, `any_hit`, `cast_ray`, `cast_shape`, `project_point`, `penetration`,
/// `move_and_slide`); the next tick ends its contact with the disk (`Ended` at time 0, its
/// only event); while off, a ball sent at it passes straight through with its velocity, and
/// moving it (or its parent) 30 units onto another sensor disk sends nothing; switched on
/// again there, its contact with that disk starts at time 0 of the next tick, nothing is
/// sent about where it went while off, and the queries find it there.
#[test]
fn a_disabled_collider_of_every_shape_and_pose_is_not_hit_and_ends_its_contacts() {
    let specs: Vec<(Kind, Pose)> = KINDS
        .iter()
        .flat_map(|&k| SOLID_POSES.iter().map(move |&p| (k, p)))
        .collect();
    let moved = Vec2::new(0.0, 30.0);
    for chunk in specs.chunks(32) {
        let mut app = common::app();
        let mut cases = Vec::new();
        for (j, &(kind, pose)) in chunk.iter().enumerate() {
            let (shape, aim) = solid(kind);
            let world = pose.world();
            let aim = world.transform_point2(aim.as_dvec2()).as_vec2();
            let solid = spawn_posed(&mut app, &pose, (shape, layer(j)));
            let mut disk = |at: Vec2| {
                app.world_mut()
                    .spawn((
                        Collider::circle(0.5),
                        Transform::from_translation(at.extend(0.0)),
                        Sensor,
                        layer(j),
                    ))
                    .id()
            };
            let (here, there) = (disk(aim), disk(aim + moved));
            let name = format!("a {kind:?} ({})", pose.name);
            cases.push((name, j, solid, aim, here, there));
        }
        let of = |events: &[CollisionEvent], solid: Entity| -> Vec<CollisionEvent> {
            events
                .iter()
                .filter(|e| e.entity == solid || e.other == solid)
                .map(|e| seen_from(e, solid))
                .collect()
        };
        let events = tick(&mut app);
        assert_well_formed(&events);
        for (name, _, solid, _, here, _) in &cases {
            let got: Vec<_> = of(&events, *solid)
                .iter()
                .map(|e| (e.kind, e.other, e.time_of_impact))
                .collect();
            assert_eq!(
                got,
                [(CollisionKind::Started, *here, 0.0)],
                "{name}: touches the disk"
            );
            app.world_mut().entity_mut(*solid).insert(ColliderDisabled);
        }
        // Switched off: no query finds it.
        for (name, j, solid, aim, here, there) in &cases {
            let (solid, aim) = (*solid, *aim);
            let filter = QueryFilter::default()
                .with_layers(layer(*j).memberships)
                .with_excluded_entities([*here, *there]);
            let disk = Collider::circle(2.0);
            let pose = Isometry2d::from_translation(aim);
            let (from, to) = (aim - Vec2::X * 5.0, aim + Vec2::X * 5.0);
            let found = common::with_query(&mut app, |q| {
                let mut found = Vec::new();
                let mut hits = Vec::new();
                q.point_hits(aim, &filter, &mut hits);
                found.extend(hits.iter().map(|&e| ("point_hits", e)));
                q.shape_hits(&disk, pose, &filter, &mut hits);
                found.extend(hits.iter().map(|&e| ("shape_hits", e)));
                if q.any_hit(&disk, pose, &filter) {
                    found.push(("any_hit", solid));
                }
                found.extend(
                    q.cast_ray(from, Dir2::X, 10.0, &filter)
                        .map(|h| ("cast_ray", h.entity)),
                );
                let (a, b) = (
                    Isometry2d::from_translation(from),
                    Isometry2d::from_translation(to),
                );
                found.extend(
                    q.cast_shape(&disk, a, b, &filter)
                        .map(|h| ("cast_shape", h.entity)),
                );
                found.extend(
                    q.project_point(aim, &filter)
                        .map(|h| ("project_point", h.entity)),
                );
                found.extend(
                    q.penetration(&disk, pose, &filter)
                        .map(|h| ("penetration", h.entity)),
                );
                let slid =
                    q.move_and_slide(&disk, a, to - from, &MoveAndSlideConfig::default(), &filter);
                found.extend(slid.hits.iter().map(|h| ("move_and_slide", h.entity)));
                if slid.translation.distance(to) > 1e-4 {
                    found.push(("move_and_slide stopped", solid));
                }
                found
            });
            assert!(
                found.iter().all(|&(_, e)| e != solid),
                "{name}, switched off, is found: {found:?}"
            );
        }
        // A ball at it, through it.
        let balls: Vec<Entity> = cases
            .iter()
            .map(|(_, j, _, aim, ..)| {
                app.world_mut()
                    .spawn((
                        Collider::circle(0.5),
                        Transform::from_translation((*aim - Vec2::X * 20.0).extend(0.0)),
                        Velocity(Vec2::X * 1280.0),
                        Response::Bounce { restitution: 1.0 },
                        layer(*j),
                    ))
                    .id()
            })
            .collect();
        let events = tick(&mut app);
        assert_well_formed(&events);
        for (name, _, solid, _, here, _) in &cases {
            let got: Vec<_> = of(&events, *solid)
                .iter()
                .map(|e| (e.kind, e.other, e.time_of_impact))
                .collect();
            assert_eq!(
                got,
                [(CollisionKind::Ended, *here, 0.0)],
                "{name}: switched off, its contact ends"
            );
            let mover = app
                .world()
                .get::<ChildOf>(*solid)
                .map_or(*solid, ChildOf::parent);
            app.world_mut()
                .get_mut::<Transform>(mover)
                .unwrap()
                .translation += moved.extend(0.0);
        }
        let events = tick(&mut app);
        assert_well_formed(&events);
        for ((name, _, solid, aim, ..), ball) in cases.iter().zip(&balls) {
            assert_eq!(of(&events, *solid), [], "{name}: switched off and moved");
            let end = *aim + Vec2::X * 20.0;
            assert!(
                place(&app, *ball).distance(end) < 1e-3
                    && velocity(&app, *ball) == Vec2::X * 1280.0,
                "{name}: switched off, a ball passes it: at {}, velocity {}",
                place(&app, *ball),
                velocity(&app, *ball)
            );
            app.world_mut()
                .entity_mut(*solid)
                .remove::<ColliderDisabled>();
        }
        let events = tick(&mut app);
        assert_well_formed(&events);
        for (name, j, solid, aim, _, there) in &cases {
            let got: Vec<_> = of(&events, *solid)
                .iter()
                .map(|e| (e.kind, e.other, e.time_of_impact))
                .collect();
            assert_eq!(
                got,
                [(CollisionKind::Started, *there, 0.0)],
                "{name}: switched on where it went"
            );
            let filter = QueryFilter::default().with_layers(layer(*j).memberships);
            let mut hits = Vec::new();
            let near = Isometry2d::from_translation(*aim + moved);
            common::with_query(&mut app, |q| {
                q.shape_hits(&Collider::circle(0.25), near, &filter, &mut hits);
            });
            assert!(
                hits.contains(solid),
                "{name}: switched on, found where it is: {hits:?}"
            );
        }
    }
}

/// Switched off, a bouncing ball and a character move by their velocity through a wall and a
/// floor (10 units a tick, 3 ticks: 30 units), with nothing sent and their velocity kept; the
/// character's state keeps what its last tick on wrote (the default: it never ran).
#[test]
fn a_disabled_responder_and_character_move_through_everything() {
    let mut app = common::app();
    app.world_mut().spawn(Collider::aabb(v(1.0, 10.0)));
    app.world_mut().spawn((
        Collider::aabb(v(10.0, 1.0)),
        Transform::from_xyz(30.0, -20.0, 0.0),
    ));
    let ball = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(-10.0, 0.0, 0.0),
            Velocity(v(640.0, 0.0)),
            Response::Bounce { restitution: 1.0 },
            ColliderDisabled,
        ))
        .id();
    let hero = app
        .world_mut()
        .spawn((
            Collider::capsule(v(0.0, -1.0), v(0.0, 1.0), 1.0),
            Transform::from_xyz(30.0, -10.0, 0.0),
            Velocity(v(0.0, -640.0)),
            KinematicCharacter::default(),
            ColliderDisabled,
        ))
        .id();
    for _ in 0..3 {
        assert_eq!(tick(&mut app), []);
    }
    assert_vec_close(place(&app, ball), v(20.0, 0.0), 1e-4, "the ball");
    assert_eq!(velocity(&app, ball), v(640.0, 0.0));
    assert_vec_close(place(&app, hero), v(30.0, -40.0), 1e-4, "the character");
    assert_eq!(velocity(&app, hero), v(0.0, -640.0));
    assert_eq!(
        *app.world().get::<CharacterState>(hero).unwrap(),
        CharacterState::default()
    );
}

// ---------------------------------------------------------------------------------------
// Parents that move.

/// A child collider of every shape, under a parent turned 0.5 and scaled 2 or scaled
/// (2, 0.5), rests for three ticks; then only the parent's `Transform` moves, 20 units along
/// x in one tick, carrying the child across a still sensor disk (radius 0.5) 10 units ahead
/// of it. Expected: nothing in the three ticks at rest; in the fourth, `Started` and `Ended`
/// with the disk at the moments the model says (the disk going back 20 units relative to the
/// child); then the queries find the child where the parent took it.
#[test]
fn a_child_is_swept_with_its_parent_after_resting() {
    let mut app = common::app();
    let mut cases = Vec::new();
    for (j, (kind, pose)) in KINDS
        .iter()
        .flat_map(|&k| [SOLID_POSES[8], SOLID_POSES[9]].map(|p| (k, p)))
        .enumerate()
    {
        let (shape, aim) = solid(kind);
        let world = pose.world();
        let solid_geo = geo(&shape, world);
        let child = spawn_posed(&mut app, &pose, (shape, layer(j)));
        let aim = world.transform_point2(aim.as_dvec2());
        let at = (aim + DVec2::new(10.0, 0.0)).as_vec2();
        let disk = app
            .world_mut()
            .spawn((
                Collider::circle(0.5),
                Transform::from_translation(at.extend(0.0)),
                Sensor,
                layer(j),
            ))
            .id();
        let disk_geo = geo(
            &Collider::circle(0.5),
            DAffine2::from_translation(at.as_dvec2()),
        );
        let w = DVec2::new(-20.0, 0.0);
        let enters = first_touch(&disk_geo, w, &solid_geo, 1.0).expect("setup: it is crossed");
        let moved = geo(
            &Collider::circle(0.5),
            DAffine2::from_translation(at.as_dvec2() + w),
        );
        let leaves = 1.0 - first_touch(&moved, -w, &solid_geo, 1.0).expect("setup: crossed");
        let name = format!("a {kind:?} ({})", pose.name);
        cases.push((name, child, disk, aim, enters, leaves));
    }
    for k in 0..3 {
        let events = tick(&mut app);
        assert_eq!(events, [], "tick {k}: at rest");
    }
    for (_, child, ..) in &cases {
        let parent = app.world().get::<ChildOf>(*child).unwrap().parent();
        app.world_mut()
            .get_mut::<Transform>(parent)
            .unwrap()
            .translation
            .x += 20.0;
    }
    let events = tick(&mut app);
    assert_well_formed(&events);
    for (name, child, disk, aim, enters, leaves) in &cases {
        let got: Vec<(CollisionKind, f32)> = events
            .iter()
            .filter(|e| e.entity == *child || e.other == *child)
            .map(|e| seen_from(e, *disk))
            .map(|e| (e.kind, e.time_of_impact))
            .collect();
        let near = |got: f32, want: f64| (f64::from(got) - want).abs() * 20.0 < TOL;
        assert!(
            got.len() == 2
                && got[0].0 == CollisionKind::Started
                && near(got[0].1, *enters)
                && got[1].0 == CollisionKind::Ended
                && near(got[1].1, *leaves),
            "{name}, carried by its parent across the disk: {got:?}, expected Started at \
             {enters:.5} and Ended at {leaves:.5}"
        );
        let mut hits = Vec::new();
        let there = Isometry2d::from_translation((*aim + DVec2::new(20.0, 0.0)).as_vec2());
        common::with_query(&mut app, |q| {
            q.shape_hits(
                &Collider::circle(0.25),
                there,
                &QueryFilter::default(),
                &mut hits,
            );
        });
        assert!(
            hits.contains(child),
            "{name}: found where its parent took it: {hits:?}"
        );
    }
}

/// A wall (a rectangle 2 wide and 20 tall) is the child of a parent at x = 30 that moves
/// 10 units a tick towards a bouncing ball (radius 1) at the origin going 10 units a tick at
/// it; the parent starts moving in the second tick. With the parent turned 0.5 and scaled 2,
/// and the child turned -0.5 (the same wall, 4 wide and 40 tall), likewise. In the second
/// tick the ball goes from 10 to 20 and the wall from 30 to 20: they meet when
/// 30 - 10s - h = 10 + 10s + 1 (h the wall's half width), at s = (19 - h) / 20 = 0.9 (or
/// 0.85); the wall's velocity counts, `v' = v - 2((v - u)·n)n` = (640, 0) - 2 (1280) (1, 0) =
/// (-1920, 0), and at the end of the tick the ball is at 19 - 30·0.1 = 16 (or
/// 18.5 - 30·0.15 = 14).
#[test]
fn a_ball_bounces_off_a_wall_moved_by_its_parent() {
    for (parent_at, child_at, half, at_hit, end) in [
        (
            frame(30.0, 0.0, 0.0, 1.0, 1.0),
            frame(0.0, 0.0, 0.0, 1.0, 1.0),
            1.0,
            0.9,
            16.0,
        ),
        (
            frame(30.0, 0.0, 0.5, 2.0, 2.0),
            frame(0.0, 0.0, -0.5, 1.0, 1.0),
            2.0,
            0.85,
            14.0,
        ),
    ] {
        let mut app = common::app();
        let parent = app.world_mut().spawn(parent_at.transform()).id();
        let wall = app
            .world_mut()
            .spawn((
                Collider::rectangle(v(1.0, 10.0)),
                child_at.transform(),
                ChildOf(parent),
            ))
            .id();
        let ball = app
            .world_mut()
            .spawn((
                Collider::circle(1.0),
                Velocity(v(640.0, 0.0)),
                Response::Bounce { restitution: 1.0 },
            ))
            .id();
        assert_eq!(tick(&mut app), []);
        app.world_mut()
            .get_mut::<Transform>(parent)
            .unwrap()
            .translation
            .x -= 10.0;
        let events = tick(&mut app);
        let case = format!("a wall of half width {half}");
        assert_eq!(events.len(), 1, "{case}: {events:?}");
        let hit = seen_from(&events[0], ball);
        assert_eq!(
            (hit.kind, hit.other),
            (CollisionKind::Crossed, wall),
            "{case}"
        );
        assert_close(hit.time_of_impact, at_hit, 1e-4, &case);
        assert_vec_close(hit.normal, v(-1.0, 0.0), 1e-4, &case);
        assert_vec_close(velocity(&app, ball), v(-1920.0, 0.0), 1e-2, &case);
        assert_vec_close(place(&app, ball), v(end, 0.0), 1e-3, &case);
    }
}

/// A resting ball (radius 1, velocity zero) and a rectangle wall 2 wide as the child of a
/// parent at x = 30; all rest for three ticks, then the parent moves 10 units a tick towards
/// the ball. The wall's face (at 29 - 10s over the moving ticks) meets the ball's side (1) at
/// s = 2.8: in the third moving tick, 0.8 into it. A bounce: `v' = 0 - 2((0 - u)·n)n` with
/// u = (-640, 0), n = (-1, 0): (-1280, 0), and the ball ends that tick at -20·0.2 = -4. A stop
/// instead is pushed: its velocity stays zero and it ends against the wall (at -2), and the
/// next tick it is pushed on to -12.
#[test]
fn a_resting_ball_is_hit_by_a_wall_its_parent_moves() {
    for response in [Response::Bounce { restitution: 1.0 }, Response::Stop] {
        let mut app = common::app();
        let parent = app
            .world_mut()
            .spawn(Transform::from_xyz(30.0, 0.0, 0.0))
            .id();
        let wall = app
            .world_mut()
            .spawn((Collider::rectangle(v(1.0, 10.0)), ChildOf(parent)))
            .id();
        let ball = app
            .world_mut()
            .spawn((Collider::circle(1.0), Velocity(Vec2::ZERO), response))
            .id();
        for _ in 0..3 {
            assert_eq!(tick(&mut app), []);
        }
        let mut events = Vec::new();
        for k in 0..3 {
            app.world_mut()
                .get_mut::<Transform>(parent)
                .unwrap()
                .translation
                .x -= 10.0;
            let got = tick(&mut app);
            assert_well_formed(&got);
            events.extend(got.into_iter().map(|e| (k, e)));
        }
        let case = format!("{response:?}");
        let (k, hit) = events
            .first()
            .copied()
            .unwrap_or_else(|| panic!("{case}: not hit"));
        let hit = seen_from(&hit, ball);
        assert_eq!((k, hit.other), (2, wall), "{case}: {events:?}");
        assert_close(hit.time_of_impact, 0.8, 1e-4, &case);
        if let Response::Bounce { .. } = response {
            assert_eq!(hit.kind, CollisionKind::Crossed, "{case}");
            assert_vec_close(velocity(&app, ball), v(-1280.0, 0.0), 1e-2, &case);
            assert_vec_close(place(&app, ball), v(-4.0, 0.0), 1e-3, &case);
        } else {
            assert_eq!(velocity(&app, ball), Vec2::ZERO, "{case}");
            assert_vec_close(place(&app, ball), v(-2.0, 0.0), 1e-3, &case);
            app.world_mut()
                .get_mut::<Transform>(parent)
                .unwrap()
                .translation
                .x -= 10.0;
            tick(&mut app);
            assert_vec_close(place(&app, ball), v(-12.0, 0.0), 1e-3, &case);
        }
    }
}

/// A parent without a collider turns 0.15 rad a tick (set by hand) with two arms as children
/// (rectangles 20 long, at ±10 along its x; one scaled (1, 2)), sweeping through three
/// responders at rest (velocity zero): a bouncing ball, a sliding ball and a stopping ball.
/// Expected: at the end of every tick each ball is outside both arms (as they are at the
/// end of the tick), nothing is NaN, and each ball has been hit (it moved).
#[test]
fn a_turning_parent_never_leaves_a_ball_inside_its_arms() {
    let mut app = common::app();
    let parent = app.world_mut().spawn(Transform::default()).id();
    let arms = [
        frame(10.0, 0.0, 0.0, 1.0, 1.0),
        frame(-10.0, 0.0, 0.0, 1.0, 2.0),
    ];
    let arm = Collider::rectangle(v(10.0, 0.5));
    for at in arms {
        app.world_mut()
            .spawn((arm.clone(), at.transform(), ChildOf(parent)));
    }
    let polar = |r: f32, a: f32| v(r * a.cos(), r * a.sin());
    let balls: Vec<(Entity, Vec2)> = [
        (Response::Bounce { restitution: 1.0 }, polar(12.0, 0.5)),
        (Response::Slide, polar(6.0, 0.8)),
        (Response::Stop, polar(15.0, core::f32::consts::PI + 0.6)),
    ]
    .into_iter()
    .map(|(response, at)| {
        let e = app
            .world_mut()
            .spawn((
                Collider::circle(1.0),
                Transform::from_translation(at.extend(0.0)),
                Velocity(Vec2::ZERO),
                response,
            ))
            .id();
        (e, at)
    })
    .collect();
    for k in 1..=20 {
        let angle = 0.15 * k as f32;
        app.world_mut()
            .get_mut::<Transform>(parent)
            .unwrap()
            .rotation = Quat::from_rotation_z(angle);
        let events = tick(&mut app);
        assert_well_formed(&events);
        let turned = frame(0.0, 0.0, angle, 1.0, 1.0).affine();
        for &(ball, _) in &balls {
            let at = place(&app, ball);
            assert!(
                at.is_finite() && velocity(&app, ball).is_finite(),
                "tick {k}: {ball} at {at}"
            );
            let ball_geo = geo(
                &Collider::circle(1.0),
                DAffine2::from_translation(at.as_dvec2()),
            );
            for a in arms {
                let gap = signed_distance(&ball_geo, &geo(&arm, turned * a.affine()));
                assert!(
                    gap >= -TOL,
                    "tick {k}: {ball} at {at} is {gap} inside an arm"
                );
            }
        }
    }
    for (ball, start) in balls {
        assert!(
            place(&app, ball).distance(start) > 1.0,
            "{ball} was never hit"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Where a role cannot be played.

/// Answering roles where they cannot answer: a bouncing polyline, a sliding child, a
/// stopping circle without a `Velocity`, a character polyline and a character child. Each
/// moving one starts 20 units before a wall and moves 10 units a tick (a child in its
/// parent's frame). Expected: each is warned about once, by name, over ten ticks (a polyline
/// saying "polyline", one without a velocity "Velocity"); nothing panics; the moving ones are
/// swept without answering, through the wall (20 units past it after four ticks, their
/// velocity kept), their contacts with it reported.
#[test]
fn roles_that_cannot_answer_are_warned_about_once_and_swept() {
    keep_warnings();
    let mut app = common::app();
    // Entity numbers no other test of this binary reaches, so that the warnings naming these
    // are theirs.
    app.world_mut()
        .spawn_batch((0..100_000).map(|_| ()))
        .for_each(drop);
    let line = || Collider::polyline(&[v(-1.0, -1.0), v(0.0, 1.0), v(1.0, -1.0)]).unwrap();
    let lane = |app: &mut App, y: f32| {
        app.world_mut()
            .spawn((
                Collider::aabb(v(1.0, 3.0)),
                Transform::from_xyz(0.0, y, 0.0),
            ))
            .id()
    };
    let go = Velocity(v(640.0, 0.0));
    let mut movers = Vec::new();
    let wall = lane(&mut app, 0.0);
    let polyline = app
        .world_mut()
        .spawn((
            line(),
            Transform::from_xyz(-20.0, 0.0, 0.0),
            go,
            Response::Bounce { restitution: 1.0 },
        ))
        .id();
    movers.push(("a bouncing polyline", polyline, wall, "polyline"));
    let wall = lane(&mut app, 10.0);
    let parent = app
        .world_mut()
        .spawn(Transform::from_xyz(0.0, 10.0, 0.0))
        .id();
    let child = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(-20.0, 0.0, 0.0),
            go,
            Response::Slide,
            ChildOf(parent),
        ))
        .id();
    movers.push(("a sliding child", child, wall, ""));
    let wall = lane(&mut app, 30.0);
    let character_line = app
        .world_mut()
        .spawn((
            line(),
            Transform::from_xyz(-20.0, 30.0, 0.0),
            go,
            KinematicCharacter::default(),
        ))
        .id();
    movers.push(("a character polyline", character_line, wall, "polyline"));
    let wall = lane(&mut app, 40.0);
    let parent = app
        .world_mut()
        .spawn(Transform::from_xyz(0.0, 40.0, 0.0))
        .id();
    let character_child = app
        .world_mut()
        .spawn((
            Collider::capsule(v(0.0, -1.0), v(0.0, 1.0), 0.5),
            Transform::from_xyz(-20.0, 0.0, 0.0),
            go,
            KinematicCharacter::default(),
            ChildOf(parent),
        ))
        .id();
    movers.push(("a character child", character_child, wall, ""));
    let still = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(0.0, 20.0, 0.0),
            Response::Stop,
        ))
        .id();
    let mut events = Vec::new();
    for k in 0..10 {
        let got = tick(&mut app);
        assert_well_formed(&got);
        events.extend(got);
        if k == 3 {
            for &(name, e, _, _) in &movers {
                let (at, vel) = (place(&app, e), velocity(&app, e));
                assert!(
                    at.is_finite() && vel == go.0,
                    "{name}: at {at}, velocity {vel}"
                );
                // A character refused is not moved at all (see the report): only the
                // responders are held to being swept through.
                if !name.contains("character") {
                    assert_vec_close(at, v(20.0, at.y), 1e-3, name);
                }
            }
        }
    }
    for &(name, e, wall, _) in movers.iter().filter(|m| !m.0.contains("character")) {
        assert!(
            events
                .iter()
                .any(|c| (c.entity, c.other) == (e, wall) || (c.entity, c.other) == (wall, e)),
            "{name}: its contacts with the wall it passes are reported"
        );
    }
    for (name, e, word) in movers
        .iter()
        .map(|&(name, e, _, word)| (name, e, word))
        .chain([("a stopping circle without a Velocity", still, "Velocity")])
    {
        let about = warnings_with(&e.to_string());
        assert_eq!(about.len(), 1, "{name} ({e}): {about:?}");
        assert!(about[0].contains(word), "{name} ({e}): {about:?}");
    }
    assert_eq!(
        place(&app, still),
        v(0.0, 20.0),
        "without a Velocity it stays"
    );
}

// ---------------------------------------------------------------------------------------
// Fast, crowded.

/// A ball (radius 0.5) at 100,000 units/s (1,562.5 units a tick: dozens of hits a tick, 32
/// of them answered) in a box of walls of four shapes (a segment, a rectangle, a capsule, a
/// polyline) with still obstacles of the other four inside (an axis-aligned box, a circle, a
/// point, a polygon), all children of a parent at (5, -3) turned 0.3 and scaled (2, 1.5).
/// Expected: at the end of every tick the ball is inside the box and outside every wall and
/// obstacle, its speed is kept (restitution 1, nothing moves), nothing is NaN, and the events
/// are well formed.
#[test]
fn a_fast_ball_in_a_box_of_every_shape_stays_inside() {
    let mut app = common::app();
    let parent_at = frame(5.0, -3.0, 0.3, 2.0, 1.5);
    let parent = app.world_mut().spawn(parent_at.transform()).id();
    let pieces = [
        (
            Collider::segment(v(-10.0, -12.0), v(-10.0, 12.0)),
            Vec2::ZERO,
        ),
        (Collider::rectangle(v(1.0, 12.0)), v(11.0, 0.0)),
        (
            Collider::capsule(v(-12.0, -11.0), v(12.0, -11.0), 1.0),
            Vec2::ZERO,
        ),
        (
            Collider::polyline(&[v(-12.0, 10.0), v(0.0, 10.5), v(12.0, 10.0)]).unwrap(),
            Vec2::ZERO,
        ),
        (Collider::aabb(v(1.0, 1.0)), v(4.0, 3.0)),
        (Collider::circle(1.0), v(-4.0, -4.0)),
        (Collider::point(), Vec2::ZERO),
        (mover(Kind::Polygon), v(5.0, -5.0)),
    ];
    let mut geos = Vec::new();
    for (shape, at) in pieces {
        let own = frame(at.x, at.y, 0.0, 1.0, 1.0);
        geos.push(geo(&shape, parent_at.affine() * own.affine()));
        app.world_mut()
            .spawn((shape, own.transform(), ChildOf(parent)));
    }
    let start = parent_at
        .affine()
        .transform_point2(DVec2::new(-5.0, 5.0))
        .as_vec2();
    let speed = 100_000.0;
    let ball = app
        .world_mut()
        .spawn((
            Collider::circle(0.5),
            Transform::from_translation(start.extend(0.0)),
            Velocity(v(0.6, 0.8) * speed),
            Response::Bounce { restitution: 1.0 },
        ))
        .id();
    let inverse = parent_at.affine().inverse();
    for k in 0..15 {
        let events = tick(&mut app);
        assert_well_formed(&events);
        let (at, vel) = (place(&app, ball), velocity(&app, ball));
        assert!(
            at.is_finite() && vel.is_finite(),
            "tick {k}: at {at}, {vel}"
        );
        let local = inverse.transform_point2(at.as_dvec2());
        assert!(
            local.x.abs() <= 10.0 && (-10.0..=10.5).contains(&local.y),
            "tick {k}: out of the box at {at} ({local} in the box's frame)"
        );
        let ball_geo = geo(
            &Collider::circle(0.5),
            DAffine2::from_translation(at.as_dvec2()),
        );
        for (i, g) in geos.iter().enumerate() {
            let gap = signed_distance(&ball_geo, g);
            assert!(gap >= -TOL, "tick {k}: at {at}, {gap} inside piece {i}");
        }
        assert_close(vel.length(), speed, speed * 1e-4, "its speed");
    }
}

// ---------------------------------------------------------------------------------------
// The wrong answers the matrices above found, each at its smallest.

/// Spawns a responder and a still solid at the origin; returns the responder.
fn one_on_one(
    app: &mut App,
    shape: Collider,
    at: Vec2,
    v: Vec2,
    role: impl Bundle,
    solid: impl Bundle,
) -> Entity {
    app.world_mut().spawn(solid);
    app.world_mut()
        .spawn((
            shape,
            Transform::from_translation(at.extend(0.0)),
            Velocity(v),
            role,
        ))
        .id()
}

/// A point ball falling at 25,600 units/s (400 a tick) onto a box (half extents (1.5, 1)),
/// axis-aligned or not, from y = 120.5 touches its top (y = 1) at 119.5 / 400 = 0.29875 of
/// the first tick and bounces: `Crossed` with normal (0, 1), velocity (0, 25,600), and at the
/// end of the tick it is at 1 + 400 · 0.70125 = 281.5. Onto a segment at y = 1 from y = 399:
/// at 398 / 400 = 0.995, ending at 1 + 400 · 0.005 = 3. (It passed through each, unanswered.)
#[test]
fn a_fast_point_ball_bounces_off_a_box_and_a_segment() {
    for (what, solid, from, at, end) in [
        (
            "an axis-aligned box",
            Collider::aabb(v(1.5, 1.0)),
            120.5,
            0.29875,
            281.5,
        ),
        (
            "a rectangle",
            Collider::rectangle(v(1.5, 1.0)),
            120.5,
            0.29875,
            281.5,
        ),
        (
            "a segment",
            Collider::segment(v(-1.5, 1.0), v(1.5, 1.0)),
            399.0,
            0.995,
            3.0,
        ),
    ] {
        let mut app = common::app();
        let ball = one_on_one(
            &mut app,
            Collider::point(),
            v(0.0, from),
            v(0.0, -25_600.0),
            Response::Bounce { restitution: 1.0 },
            solid,
        );
        let events = tick(&mut app);
        let got: Vec<_> = events
            .iter()
            .map(|e| seen_from(e, ball))
            .map(|e| (e.kind, e.time_of_impact, e.normal))
            .collect();
        assert_eq!(got.len(), 1, "{what}: {got:?}");
        assert_eq!(got[0].0, CollisionKind::Crossed, "{what}: {got:?}");
        assert_close(got[0].1, at, 1e-5, what);
        assert_eq!(velocity(&app, ball), v(0.0, 25_600.0), "{what}");
        assert_vec_close(place(&app, ball), v(0.0, end), 1e-3, what);
    }
}

/// A box falling at 25,600 units/s from y = 150 onto a still point at the origin: its bottom
/// (half height 0.5) reaches the point at 149.5 / 400 = 0.37375 of the first tick. Bouncing
/// (a rectangle): `Crossed`, velocity (0, 25,600), at 0.5 + 400 · 0.62625 = 251 at the end
/// of the tick. Stopping (an axis-aligned box): velocity zero, at 0.5. (Both passed through
/// the point, unanswered.)
#[test]
fn a_fast_box_is_answered_by_a_point() {
    for (what, shape, response, end, after) in [
        (
            "a bouncing rectangle",
            Collider::rectangle(v(1.0, 0.5)),
            Response::Bounce { restitution: 1.0 },
            251.0,
            25_600.0,
        ),
        (
            "a stopping box",
            Collider::aabb(v(1.0, 0.5)),
            Response::Stop,
            0.5,
            0.0,
        ),
    ] {
        let mut app = common::app();
        let mover = one_on_one(
            &mut app,
            shape,
            v(0.0, 150.0),
            v(0.0, -25_600.0),
            response,
            Collider::point(),
        );
        let events = tick(&mut app);
        assert!(!events.is_empty(), "{what}: no contact");
        let first = seen_from(&events[0], mover);
        assert_close(first.time_of_impact, 0.37375, 1e-5, what);
        assert_eq!(first.normal, v(0.0, 1.0), "{what}");
        assert_vec_close(velocity(&app, mover), v(0.0, after), 1e-2, what);
        assert_vec_close(place(&app, mover), v(0.0, end), 1e-3, what);
    }
}

/// An axis-aligned box (half extents (1, 0.5)) falling at 10 units a tick from y = 10 onto a
/// segment from (-4, -1) to (4, 1) (slope 1/4) first touches it with its bottom-right corner
/// (1, y - 0.5) on the segment's inside (at y = 0.25): y = 0.75, at 0.925 of the tick. The
/// contact's normal is the segment's, n = (-1, 4) / √17 = (-0.24254, 0.97014), and the bounce
/// `v - 2(v·n)n` = (-301.18, 564.71), as a rectangle in the same place gets. (The box got
/// the normal of its own face, (0, 1), and bounced straight up.)
#[test]
fn a_box_corner_on_a_slanted_segment_takes_the_segments_normal() {
    for (what, shape) in [
        ("a rectangle", Collider::rectangle(v(1.0, 0.5))),
        ("an axis-aligned box", Collider::aabb(v(1.0, 0.5))),
    ] {
        let mut app = common::app();
        let ball = one_on_one(
            &mut app,
            shape,
            v(0.0, 10.0),
            v(0.0, -640.0),
            Response::Bounce { restitution: 1.0 },
            Collider::segment(v(-4.0, -1.0), v(4.0, 1.0)),
        );
        let events = tick(&mut app);
        assert_eq!(events.len(), 1, "{what}: {events:?}");
        let hit = seen_from(&events[0], ball);
        assert_close(hit.time_of_impact, 0.925, 1e-5, what);
        assert_vec_close(hit.point, v(1.0, 0.25), 1e-4, what);
        assert_vec_close(hit.normal, v(-0.242_535_6, 0.970_142_5), 1e-5, what);
        assert_vec_close(velocity(&app, ball), v(-301.176_5, 564.705_9), 1e-2, what);
    }
}

/// A triangle ((-0.5, -0.4), (0.5, -0.3), (0, 0.5)) falling at 25,600 units/s from y = 599.9
/// onto an axis-aligned box (half extents (1.5, 1)) touches its top with vertex 0 when
/// y = 1.4: at (599.9 - 1.4) / 400 = 1.49625 ticks, the second tick, 0.49625 into it. The
/// normal is the box's face's, (0, 1) (so the event says), and the bounce sends it straight
/// back up, (0, 25,600), ending the tick at 1.4 + 400 · 0.50375 = 202.9. (It bounced off
/// its own edge's normal instead, to (-5,069, 25,093).) From y = 600 it was right.
#[test]
fn a_fast_triangle_bounces_off_a_box_by_the_boxs_normal() {
    let mut app = common::app();
    let triangle = Collider::convex_polygon(&[v(-0.5, -0.4), v(0.5, -0.3), v(0.0, 0.5)]).unwrap();
    let ball = one_on_one(
        &mut app,
        triangle,
        v(0.0, 599.9),
        v(0.0, -25_600.0),
        Response::Bounce { restitution: 1.0 },
        Collider::aabb(v(1.5, 1.0)),
    );
    assert_eq!(tick(&mut app), []);
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    let hit = seen_from(&events[0], ball);
    assert_eq!(
        (hit.kind, hit.normal),
        (CollisionKind::Crossed, v(0.0, 1.0))
    );
    assert_close(hit.time_of_impact, 0.49625, 1e-5, "the bounce");
    assert_vec_close(
        velocity(&app, ball),
        v(0.0, 25_600.0),
        1e-2,
        "after the bounce",
    );
    assert_vec_close(
        place(&app, ball),
        v(0.0, 202.9),
        1e-2,
        "at the end of the tick",
    );
}

/// A segment from (-0.5, -0.075) to (0.5, 0.075) sliding, falling at 25,600 units/s from
/// y = 201 onto a segment from (-1.5, 0.2) to (1.5, -0.2): its left end reaches the slope
/// (y = 0.2 - 0.4 / 3 = 0.0667 at x = -0.5) when y = 0.14167, at 0.50215 of the tick, with
/// the slope's normal n = (0.4, 3) / 3.02655 = (0.13216, 0.99123). Sliding keeps
/// `v - (v·n)n` = (3,353.7, -447.2): down the slope, to the right, as it does at 16 units a
/// tick. (It slid up the slope instead, at (-3,616, 482.1).)
#[test]
fn a_fast_segment_slides_down_a_slope() {
    let mut app = common::app();
    let slider = one_on_one(
        &mut app,
        Collider::segment(v(-0.5, -0.075), v(0.5, 0.075)),
        v(0.0, 201.0),
        v(0.0, -25_600.0),
        Response::Slide,
        Collider::segment(v(-1.5, 0.2), v(1.5, -0.2)),
    );
    let events = tick(&mut app);
    assert!(!events.is_empty(), "no contact");
    let hit = seen_from(&events[0], slider);
    assert_close(hit.time_of_impact, 0.502_146, 1e-5, "the landing");
    assert_vec_close(
        hit.normal,
        v(0.132_164, 0.991_228),
        1e-5,
        "the slope's normal",
    );
    assert_vec_close(
        velocity(&app, slider),
        v(3_353.71, -447.16),
        0.5,
        "sliding down the slope",
    );
}

/// A box (half extents (1, 0.6)) that stops, falling at 16 units a tick from y = 40 onto a
/// still point at the origin, reaches it when y = 0.6, at 39.4 / 16 = 2.4625 ticks (the third
/// tick, 0.4625 into it). It stays at the contact with its velocity zero, so, as the docs say
/// of a stop, the contact is `Started` and lasts (in `Contacts`). (It was `Crossed`, an
/// instant, and not in `Contacts`: the box was left a hair above the point.)
#[test]
fn a_stopped_box_stays_in_contact_with_the_point_it_stopped_on() {
    let mut app = common::app();
    let dot = app.world_mut().spawn(Collider::point()).id();
    let stopper = app
        .world_mut()
        .spawn((
            Collider::aabb(v(1.0, 0.6)),
            Transform::from_xyz(0.0, 40.0, 0.0),
            Velocity(v(0.0, -1024.0)),
            Response::Stop,
        ))
        .id();
    assert_eq!(tick(&mut app), []);
    assert_eq!(tick(&mut app), []);
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    let hit = seen_from(&events[0], stopper);
    assert_close(hit.time_of_impact, 0.4625, 1e-5, "the stop");
    assert_eq!(velocity(&app, stopper), Vec2::ZERO);
    assert_close(place(&app, stopper).y, 0.6, 1e-5, "where it stopped");
    assert_eq!(hit.kind, CollisionKind::Started, "a stop's contact lasts");
    assert!(app.world().resource::<Contacts>().contains(stopper, dot));
}

/// A ball (radius 1) falling at 10 units a tick from (1.2, 10) onto a circle (radius 1) at
/// the origin touches it when their centres are 2 apart: at (1.2, 1.6), 0.84 into the tick,
/// with the normal (0.6, 0.8). The bounce is `v - 2(v·n)n` = (614.4, 179.2), whether the circle
/// is a plain solid or a one-way one pointing up (the ball comes from its side, against its
/// direction: it blocks like a solid). (Off the one-way circle it bounced straight up, to
/// (0, 640), as off a flat floor.)
#[test]
fn a_ball_bounces_off_a_round_one_way_by_the_contact_normal() {
    for one_way in [false, true] {
        let mut app = common::app();
        let circle = app.world_mut().spawn(Collider::circle(1.0)).id();
        if one_way {
            app.world_mut().entity_mut(circle).insert(OneWay(Dir2::Y));
        }
        let ball = app
            .world_mut()
            .spawn((
                Collider::circle(1.0),
                Transform::from_xyz(1.2, 10.0, 0.0),
                Velocity(v(0.0, -640.0)),
                Response::Bounce { restitution: 1.0 },
            ))
            .id();
        let events = tick(&mut app);
        let case = format!("one-way: {one_way}");
        assert_eq!(events.len(), 1, "{case}: {events:?}");
        let hit = seen_from(&events[0], ball);
        assert_close(hit.time_of_impact, 0.84, 1e-5, &case);
        assert_vec_close(hit.normal, v(0.6, 0.8), 1e-5, &case);
        assert_vec_close(velocity(&app, ball), v(614.4, 179.2), 1e-2, &case);
    }
}

/// A box (a rectangle, half extents (1, 0.5)) sliding, sent at 16 units a tick along
/// (-0.28735, -0.95783) from 40 units away at a segment from (-3, 0.1) to (3, -0.1) (its normal
/// n = (0.2, 6) / 6.00333 = (0.03332, 0.99944)). It lands on it in the third tick and slides
/// along it: `v - (v·n)n` = (-261.26, 8.71), never inside it at the end of a tick, whether the
/// segment is a plain solid or a one-way one pointing up (it comes from that side). (On the
/// one-way segment it slid flat, (-294.24, 0), into the rising segment, ending the third tick
/// 0.07 deep in it.)
#[test]
fn a_box_sliding_along_a_tilted_one_way_stays_out_of_it() {
    let dir = v(-0.287_347_9, -0.957_826_3);
    let segment = Collider::segment(v(-3.0, 0.1), v(3.0, -0.1));
    let segment_geo = geo(&segment, DAffine2::IDENTITY);
    let shape = Collider::rectangle(v(1.0, 0.5));
    for one_way in [false, true] {
        let mut app = common::app();
        let solid = app.world_mut().spawn(segment.clone()).id();
        if one_way {
            app.world_mut().entity_mut(solid).insert(OneWay(Dir2::Y));
        }
        let slider = app
            .world_mut()
            .spawn((
                shape.clone(),
                Transform::from_translation((-dir * 40.0).extend(0.0)),
                Velocity(dir * 1024.0),
                Response::Slide,
            ))
            .id();
        let case = format!("one-way: {one_way}");
        for k in 0..3 {
            tick(&mut app);
            let at = place(&app, slider);
            let gap = signed_distance(
                &geo(&shape, DAffine2::from_translation(at.as_dvec2())),
                &segment_geo,
            );
            assert!(
                gap >= -TOL,
                "{case}: after tick {k} at {at}, {gap} inside the segment"
            );
        }
        assert_vec_close(velocity(&app, slider), v(-261.26, 8.71), 0.05, &case);
    }
}

/// A character's contacts are those of its real path, within its skin (DESIGN, section 7:
/// characters are responders, whose contacts along their real path are reported with their
/// moments). A circle character (radius 1, skin 0.05) falling at 16 units a tick from
/// y = 10 onto a box whose top is at y = 1 is within its skin of it at y = 2.05: 7.95 / 16 =
/// 0.496875 into the first tick, when it lands; it is `Started` then. (It was `Started` at
/// 0.9998, the end of the tick.) One going (-6, -2) a tick from (3, 3.05) lands on the box
/// at (0, 2.05), half-way through the first tick, and walks off its edge (x = -1.5) in the same
/// tick: `Started` at 0.5, then `Ended`. (Nothing at all was reported.)
#[test]
fn a_character_reports_its_contacts_along_its_real_path() {
    for (what, start, velocity, landing) in [
        ("falling", v(0.0, 10.0), v(0.0, -1024.0), 0.496_875),
        (
            "landing and walking off",
            v(3.0, 3.05),
            v(-384.0, -128.0),
            0.5,
        ),
    ] {
        let mut app = common::app();
        let floor = app.world_mut().spawn(Collider::aabb(v(1.5, 1.0))).id();
        let hero = app
            .world_mut()
            .spawn((
                Collider::circle(1.0),
                Transform::from_translation(start.extend(0.0)),
                Velocity(velocity),
                KinematicCharacter::default(),
            ))
            .id();
        let mut events = tick(&mut app);
        events.extend(tick(&mut app));
        let got: Vec<(CollisionKind, f32)> = events
            .iter()
            .map(|e| seen_from(e, hero))
            .filter(|e| e.other == floor)
            .map(|e| (e.kind, e.time_of_impact))
            .collect();
        assert!(!got.is_empty(), "{what}: no contact");
        assert_eq!(got[0].0, CollisionKind::Started, "{what}: {got:?}");
        assert_close(got[0].1, landing, 1e-3, what);
    }
}

/// Every role on a circle scaled to zero (a sensor, a one-way, a bouncing, sliding and
/// stopping responder with a velocity, a character, a collider of a body, one switched off):
/// each is refused as `DegenerateInWorld` (the one switched off is not swept at all), nothing
/// panics, no velocity or transform becomes NaN, and a ball in the same world still bounces
/// off a wall: from (-10, 0) at 10 units a tick it meets the wall's face (x = -1) with its
/// side (radius 1) at 0.8 into the first tick and ends it at -2 - 10 · 0.2 = -4, going back.
#[test]
fn every_role_on_a_collider_scaled_to_zero_is_refused_alike() {
    let mut app = common::app();
    let flat = |x: f32| Transform::from_xyz(x, 50.0, 0.0).with_scale(Vec3::ZERO);
    let go = Velocity(v(0.0, -640.0));
    let body = app.world_mut().spawn((Body, Transform::default())).id();
    let e = |app: &mut App, bundle: (Transform, Velocity)| {
        app.world_mut().spawn((Collider::circle(1.0), bundle)).id()
    };
    let sensor = e(&mut app, (flat(0.0), Velocity(Vec2::ZERO)));
    app.world_mut().entity_mut(sensor).insert(Sensor);
    let one_way = e(&mut app, (flat(10.0), Velocity(Vec2::ZERO)));
    app.world_mut().entity_mut(one_way).insert(OneWay(Dir2::Y));
    let mut refused = vec![("a sensor", sensor), ("a one-way", one_way)];
    for (name, response) in [
        (
            "a bouncing responder",
            Response::Bounce { restitution: 1.0 },
        ),
        ("a sliding responder", Response::Slide),
        ("a stopping responder", Response::Stop),
    ] {
        let x = 20.0 + 10.0 * refused.len() as f32;
        let r = e(&mut app, (flat(x), go));
        app.world_mut().entity_mut(r).insert(response);
        refused.push((name, r));
    }
    let character = e(&mut app, (flat(80.0), go));
    app.world_mut()
        .entity_mut(character)
        .insert(KinematicCharacter::default());
    refused.push(("a character", character));
    let member = e(&mut app, (flat(90.0), Velocity(Vec2::ZERO)));
    app.world_mut().entity_mut(member).insert(ChildOf(body));
    refused.push(("a collider of a body", member));
    let off = e(&mut app, (flat(100.0), go));
    app.world_mut().entity_mut(off).insert(ColliderDisabled);
    // Under them all, a floor they would fall onto.
    app.world_mut().spawn((
        Collider::aabb(v(200.0, 1.0)),
        Transform::from_xyz(50.0, 30.0, 0.0),
    ));
    app.world_mut().spawn(Collider::aabb(v(1.0, 10.0)));
    let ball = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(-10.0, 0.0, 0.0),
            Velocity(v(640.0, 0.0)),
            Response::Bounce { restitution: 1.0 },
        ))
        .id();
    let events = tick(&mut app);
    assert_well_formed(&events);
    assert_vec_close(place(&app, ball), v(-4.0, 0.0), 1e-4, "the ball");
    assert_eq!(velocity(&app, ball), v(-640.0, 0.0));
    for _ in 0..5 {
        assert_well_formed(&tick(&mut app));
    }
    let skipped = app.world().resource::<SkippedColliders>();
    for &(name, e) in &refused {
        assert_eq!(
            skipped.reason(e),
            Some(SkipReason::DegenerateInWorld),
            "{name}"
        );
    }
    for &(name, e) in refused.iter().chain(&[("one switched off", off)]) {
        let (at, vel) = (place(&app, e), velocity(&app, e));
        assert!(
            at.is_finite() && vel.is_finite(),
            "{name}: at {at}, velocity {vel}"
        );
    }
}
