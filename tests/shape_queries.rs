//! `SweepQuery::cast_shape`, `project_point`, `shape_hits` and `any_hit` against geometry
//! computed here, in `f64`: every shape is a convex core (one to eight points) grown by a
//! radius, or a chain of segments, and distances between them are computed from
//! point-segment distances and segment crossings, without the crate's kernels.

use bevy::math::{DVec2, Isometry2d, Rot2};
use bevy::prelude::*;
use bevy_sweep::prelude::*;
use core::f64::consts::PI;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;
use common::{app, tick, with_query};

// ---------------------------------------------------------------------------------------
// Geometry in f64.

/// A convex polygon of 1 to 8 vertices (a point, a segment, a polygon) grown by `radius`.
#[derive(Clone, Debug)]
struct Convex {
    core: Vec<DVec2>,
    radius: f64,
}

/// A collider in world space: one convex part, or a polyline's edges.
#[derive(Clone, Debug)]
struct Solid(Vec<Convex>);

fn point_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    closest_on_segment(p, a, b).distance(p)
}

fn closest_on_segment(p: DVec2, a: DVec2, b: DVec2) -> DVec2 {
    let ab = b - a;
    let l2 = ab.length_squared();
    let t = if l2 == 0.0 {
        0.0
    } else {
        ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
    };
    a + ab * t
}

fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// Distance between two closed segments: zero if they cross, else the least distance from
/// an endpoint of one to the other (which is also zero where they touch).
fn segment_segment(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    let (d1, d2) = (orient(c, d, a), orient(c, d, b));
    let (d3, d4) = (orient(a, b, c), orient(a, b, d));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    point_segment(a, c, d)
        .min(point_segment(b, c, d))
        .min(point_segment(c, a, b))
        .min(point_segment(d, a, b))
}

fn edges(core: &[DVec2]) -> Vec<(DVec2, DVec2)> {
    match core.len() {
        1 => vec![(core[0], core[0])],
        2 => vec![(core[0], core[1])],
        n => (0..n).map(|i| (core[i], core[(i + 1) % n])).collect(),
    }
}

/// `p` inside or on the convex polygon `core` (3 or more vertices, either winding).
fn inside(p: DVec2, core: &[DVec2]) -> bool {
    let n = core.len();
    let sides: Vec<f64> = (0..n)
        .map(|i| orient(core[i], core[(i + 1) % n], p))
        .collect();
    sides.iter().all(|&s| s >= 0.0) || sides.iter().all(|&s| s <= 0.0)
}

fn core_distance(a: &[DVec2], b: &[DVec2]) -> f64 {
    let contains = |outer: &[DVec2], inner: &[DVec2]| {
        outer.len() >= 3 && inner.iter().any(|&p| inside(p, outer))
    };
    if contains(a, b) || contains(b, a) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for &(p, q) in &edges(a) {
        for &(r, s) in &edges(b) {
            best = best.min(segment_segment(p, q, r, s));
        }
    }
    best
}

/// How deep two convex cores that meet overlap: the least overlap of their projections on
/// the normals of their edges (the separating axes of two convex polygons, segments and
/// points included).
fn core_depth(a: &[DVec2], b: &[DVec2]) -> f64 {
    let project = |core: &[DVec2], n: DVec2| {
        core.iter()
            .map(|p| p.dot(n))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            })
    };
    let mut depth = f64::INFINITY;
    for core in [a, b] {
        for (s, e) in edges(core) {
            let Some(n) = (e - s).perp().try_normalize() else {
                continue;
            };
            let ((a0, a1), (b0, b1)) = (project(a, n), project(b, n));
            depth = depth.min((a1 - b0).min(b1 - a0));
        }
    }
    if depth.is_finite() {
        depth.max(0.0)
    } else {
        0.0
    }
}

/// The signed gap between two rounded convex shapes: their distance apart, or minus how
/// deep they overlap; `<= 0` where they touch or overlap.
fn gap(a: &Convex, b: &Convex) -> f64 {
    let apart = core_distance(&a.core, &b.core);
    let signed = if apart > 0.0 {
        apart
    } else {
        -core_depth(&a.core, &b.core)
    };
    signed - a.radius - b.radius
}

impl Solid {
    fn gap(&self, shape: &Convex) -> f64 {
        self.0
            .iter()
            .map(|part| gap(part, shape))
            .fold(f64::INFINITY, f64::min)
    }

    /// Distance from `p` (0 inside).
    fn distance_to(&self, p: DVec2) -> f64 {
        self.gap(&Convex {
            core: vec![p],
            radius: 0.0,
        })
        .max(0.0)
    }
}

fn rotate(v: DVec2, angle: f64) -> DVec2 {
    DVec2::from_angle(angle).rotate(v)
}

/// A still collider: what is spawned, and its geometry.
struct Placed {
    collider: Collider,
    transform: Transform,
    solid: Solid,
}

fn d(v: Vec2) -> DVec2 {
    v.as_dvec2()
}

/// A collider at `center` turned by `angle`, its geometry computed from the local shape.
fn placed(collider: Collider, center: Vec2, angle: f32) -> Placed {
    let (c, a) = (d(center), f64::from(angle));
    let at = |p: Vec2| c + rotate(d(p), a);
    let convex = |core: Vec<DVec2>, radius: f64| Solid(vec![Convex { core, radius }]);
    let solid = match &collider {
        Collider::Point => convex(vec![c], 0.0),
        Collider::Segment { a, b } => convex(vec![at(*a), at(*b)], 0.0),
        Collider::Circle { radius } => convex(vec![c], f64::from(*radius)),
        Collider::Aabb { half_extents: h } => {
            assert_eq!(angle, 0.0, "a box never turns");
            let h = d(*h);
            convex(
                [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                    .map(|(x, y)| c + DVec2::new(x * h.x, y * h.y))
                    .to_vec(),
                0.0,
            )
        }
        Collider::Rectangle { half_extents: h } => convex(
            [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .map(|(x, y)| at(Vec2::new(x * h.x, y * h.y)))
                .to_vec(),
            0.0,
        ),
        Collider::Capsule { a, b, radius } => convex(vec![at(*a), at(*b)], f64::from(*radius)),
        Collider::ConvexPolygon { vertices } => {
            convex(vertices.iter().map(|&p| at(p)).collect(), 0.0)
        }
        Collider::Polyline { points } => Solid(
            points
                .windows(2)
                .filter(|w| w[0] != w[1])
                .map(|w| Convex {
                    core: vec![at(w[0]), at(w[1])],
                    radius: 0.0,
                })
                .collect(),
        ),
        Collider::Polygon { points, pieces } => Solid(
            pieces
                .iter()
                .map(|piece| Convex {
                    core: piece.iter().map(|&i| at(points[i as usize])).collect(),
                    radius: 0.0,
                })
                .collect(),
        ),
        Collider::Compound { .. } => unreachable!("not generated"),
    };
    Placed {
        collider,
        transform: Transform::from_translation(center.extend(0.0))
            .with_rotation(Quat::from_rotation_z(angle)),
        solid,
    }
}

/// `n` points in strictly convex position: on an ellipse, at sorted angles at least a
/// tenth of a turn / n apart.
fn random_convex(rng: &mut ChaCha8Rng, n: usize) -> Vec<Vec2> {
    let (rx, ry) = (rng.random_range(0.8..3.0), rng.random_range(0.8..3.0));
    let phase = rng.random_range(0.0..2.0 * PI);
    let step = 2.0 * PI / n as f64;
    let mut points: Vec<Vec2> = (0..n)
        .map(|k| {
            let angle = phase + step * (k as f64 + rng.random_range(-0.4..0.4));
            DVec2::new(rx * angle.cos(), ry * angle.sin()).as_vec2()
        })
        .collect();
    if rng.random_bool(0.5) {
        points.reverse();
    }
    points
}

/// A random still collider of any kind but a point, somewhere in `[-span, span]²`.
fn random_placed(rng: &mut ChaCha8Rng, span: f32, kind: usize) -> Placed {
    let center = Vec2::new(rng.random_range(-span..span), rng.random_range(-span..span));
    let angle = rng.random_range(-3.0..3.0);
    let size = |rng: &mut ChaCha8Rng| rng.random_range(0.3..2.5);
    match kind % 7 {
        0 => placed(Collider::circle(size(rng)), center, 0.0),
        1 => placed(Collider::aabb(Vec2::new(size(rng), size(rng))), center, 0.0),
        2 => placed(
            Collider::rectangle(Vec2::new(size(rng), size(rng))),
            center,
            angle,
        ),
        3 => {
            let n = rng.random_range(3..=8);
            let vertices = random_convex(rng, n);
            let polygon = Collider::convex_polygon(&vertices).expect("convex position");
            placed(polygon, center, angle)
        }
        4 => placed(
            Collider::capsule(
                Vec2::new(-size(rng), 0.0),
                Vec2::new(size(rng), rng.random_range(-1.0..1.0)),
                size(rng) * 0.5,
            ),
            center,
            angle,
        ),
        5 => placed(
            Collider::segment(
                Vec2::new(-size(rng) * 2.0, rng.random_range(-1.0..1.0)),
                Vec2::new(size(rng) * 2.0, rng.random_range(-1.0..1.0)),
            ),
            center,
            angle,
        ),
        _ => {
            let n = rng.random_range(2..9);
            let points: Vec<Vec2> = (0..n)
                .map(|k| Vec2::new(k as f32 * 1.5 - 6.0, rng.random_range(-2.0..2.0)))
                .collect();
            placed(Collider::polyline(&points).expect("finite"), center, angle)
        }
    }
}

fn spawn_all(app: &mut App, scene: &[Placed]) -> Vec<Entity> {
    scene
        .iter()
        .map(|p| {
            app.world_mut()
                .spawn((p.collider.clone(), p.transform))
                .id()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Shape casts: the model of motion is the crate's (each vertex on a straight line from its
// place at the start pose to its place at the end pose; the radius stays).

/// A shape to cast, in local space: its core's vertices and radius.
#[derive(Clone, Debug)]
struct Cast {
    collider: Collider,
    core: Vec<Vec2>,
    radius: f64,
}

fn cast_circle(radius: f32) -> Cast {
    Cast {
        collider: Collider::circle(radius),
        core: vec![Vec2::ZERO],
        radius: f64::from(radius),
    }
}

fn cast_rectangle(h: Vec2) -> Cast {
    Cast {
        collider: Collider::rectangle(h),
        core: [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(x, y)| Vec2::new(x * h.x, y * h.y))
            .to_vec(),
        radius: 0.0,
    }
}

fn cast_capsule(a: Vec2, b: Vec2, radius: f32) -> Cast {
    Cast {
        collider: Collider::capsule(a, b, radius),
        core: vec![a, b],
        radius: f64::from(radius),
    }
}

fn cast_polygon(vertices: &[Vec2]) -> Cast {
    Cast {
        collider: Collider::convex_polygon(vertices).expect("convex"),
        core: vertices.to_vec(),
        radius: 0.0,
    }
}

/// The cast shape's vertices at a pose.
fn posed(core: &[Vec2], pose: Isometry2d) -> Vec<DVec2> {
    let (cos, sin) = (f64::from(pose.rotation.cos), f64::from(pose.rotation.sin));
    core.iter()
        .map(|&p| {
            let p = d(p);
            DVec2::new(cos * p.x - sin * p.y, sin * p.x + cos * p.y) + d(pose.translation)
        })
        .collect()
}

/// The cast shape between two poses, as a function of time.
struct Motion {
    from: Vec<DVec2>,
    to: Vec<DVec2>,
    radius: f64,
    /// The fastest vertex's speed. No point of the core moves faster: each is a convex
    /// combination of the vertices with fixed weights. So the core's distance to a still
    /// set, and the gap, change no faster than this.
    speed: f64,
}

impl Motion {
    fn new(cast: &Cast, start: Isometry2d, end: Isometry2d) -> Self {
        let (from, to) = (posed(&cast.core, start), posed(&cast.core, end));
        let speed = from
            .iter()
            .zip(&to)
            .map(|(a, b)| a.distance(*b))
            .fold(0.0, f64::max);
        Self {
            from,
            to,
            radius: cast.radius,
            speed,
        }
    }

    fn at(&self, t: f64) -> Convex {
        Convex {
            core: self
                .from
                .iter()
                .zip(&self.to)
                .map(|(a, b)| a.lerp(*b, t))
                .collect(),
            radius: self.radius,
        }
    }

    /// The first of the samples `k / SAMPLES` (`k` in `0..=SAMPLES`) at which the shape
    /// touches `target`. Every sample is decided; those that cannot touch are skipped by a
    /// bound: the gap shrinks by at most `speed` per unit of time (the core's distance to a
    /// still set changes no faster than its fastest point moves).
    fn first_touch(&self, target: &Solid) -> Option<usize> {
        let n = SAMPLES as f64;
        let mut k = 0;
        while k <= SAMPLES {
            let t = k as f64 / n;
            let g = target.gap(&self.at(t));
            if g <= 0.0 {
                return Some(k);
            }
            if self.speed == 0.0 {
                return None;
            }
            // Every sample before t + g / speed is apart; stay a little on the safe side.
            let skip = ((t + 0.999 * g / self.speed) * n).floor();
            k = (k + 1).max(skip.min(n + 1.0) as usize);
        }
        None
    }
}

const SAMPLES: usize = 100_000;

/// Checks one cast against the scene: the hit collider, its time, normal and point.
/// Returns whether something was hit.
fn check_cast(
    app: &mut App,
    scene: &[Placed],
    entities: &[Entity],
    cast: &Cast,
    start: Isometry2d,
    end: Isometry2d,
    filter: &QueryFilter,
    accepted: impl Fn(usize) -> bool,
) -> bool {
    let motion = Motion::new(cast, start, end);
    let got = with_query(app, |q| q.cast_shape(&cast.collider, start, end, filter));
    let firsts: Vec<(usize, usize)> = (0..scene.len())
        .filter(|&i| accepted(i))
        .filter_map(|i| Some((motion.first_touch(&scene[i].solid)?, i)))
        .collect();
    let what = format!("{:?} from {start:?} to {end:?}", cast.collider);
    let Some(&(k, _)) = firsts.iter().min() else {
        // Nothing touched at any sample: a hit must be a graze between samples.
        if let Some(hit) = got {
            let i = entities
                .iter()
                .position(|&e| e == hit.entity)
                .expect("ours");
            let g = scene[i].solid.gap(&motion.at(f64::from(hit.time)));
            assert!(g.abs() < 1e-3, "{what}: hit {hit:?} but no sample touches");
        }
        return got.is_some();
    };
    let hit = got.unwrap_or_else(|| panic!("{what}: missed, but sample {k} touches"));
    let time = f64::from(hit.time);
    let n = SAMPLES as f64;
    assert!(
        (k.max(1) - 1) as f64 / n - 1e-4 <= time && time <= k as f64 / n + 1e-4,
        "{what}: time {time}, first touching sample {k} of {SAMPLES}: {hit:?}"
    );
    // The nearest along the way, where another one does not touch within two samples of
    // it; at time 0, ties go to the smaller entity.
    let close: Vec<Entity> = firsts
        .iter()
        .filter(|&&(j, _)| if k == 0 { j == 0 } else { j <= k + 2 })
        .map(|&(_, i)| entities[i])
        .collect();
    if k == 0 {
        assert_eq!(hit.time, 0.0, "{what}: touching at the start");
        let deep: Vec<Entity> = firsts
            .iter()
            .filter(|&&(j, i)| j == 0 && scene[i].solid.gap(&motion.at(0.0)) < -1e-4)
            .map(|&(_, i)| entities[i])
            .collect();
        if deep.len() == close.len() {
            assert_eq!(Some(hit.entity), deep.iter().min().copied(), "{what}");
        }
    } else if close.len() == 1 {
        assert_eq!(hit.entity, close[0], "{what}");
    } else {
        assert!(
            close.contains(&hit.entity),
            "{what}: {hit:?} not in {close:?}"
        );
    }
    let i = entities
        .iter()
        .position(|&e| e == hit.entity)
        .expect("ours");
    let target = &scene[i].solid;
    let shape = motion.at(time);
    // The point is on both shapes.
    let on = |s: &Solid, p: Vec2| s.distance_to(d(p));
    let cast_now = Solid(vec![shape.clone()]);
    assert!((hit.normal.length() - 1.0).abs() < 1e-4, "{what}: {hit:?}");
    // Touching at the start, the shapes may overlap deeply: where they "touch" is then only
    // loosely defined (see `a_cast_starting_across_a_box_reports_time_zero`).
    if k > 0 {
        let (off_collider, off_shape) = (on(target, hit.point), on(&cast_now, hit.point));
        assert!(
            off_collider < 1e-3 && off_shape < 1e-3,
            "{what}: {hit:?} off the collider by {off_collider}, off the shape by {off_shape}"
        );
        // The normal points from the collider towards the shape: moving the shape along it
        // separates them, by about the distance moved.
        let step = 1e-2;
        let moved = Convex {
            core: shape
                .core
                .iter()
                .map(|&p| p + d(hit.normal) * step)
                .collect(),
            radius: shape.radius,
        };
        let apart = target.gap(&moved);
        assert!(
            apart > 0.3 * step,
            "{what}: {hit:?}: moving along the normal leaves a gap of {apart}"
        );
    }
    true
}

fn iso(x: f32, y: f32, angle: f32) -> Isometry2d {
    Isometry2d::new(Vec2::new(x, y), Rot2::radians(angle))
}

#[test]
fn a_translating_circle_meets_walls_and_boxes_at_the_analytic_time() {
    let mut app = app();
    let world = app.world_mut();
    // Along y = 0 from x = 0 to 40: a wall at x = 10 (layer 1), a box with its face at
    // x = 14 (layer 2), a square turned 45° with a corner at x = 25 - √2 (layer 4).
    let wall = world
        .spawn((
            Collider::segment(Vec2::new(10.0, -1.0), Vec2::new(10.0, 1.0)),
            CollisionLayers::new(1, u32::MAX),
        ))
        .id();
    let block = world
        .spawn((
            Collider::aabb(Vec2::new(1.0, 2.0)),
            Transform::from_xyz(15.0, 0.0, 0.0),
            CollisionLayers::new(2, u32::MAX),
        ))
        .id();
    let diamond = world
        .spawn((
            Collider::rectangle(Vec2::ONE),
            Transform::from_xyz(25.0, 0.0, 0.0)
                .with_rotation(Quat::from_rotation_z(core::f32::consts::FRAC_PI_4)),
            CollisionLayers::new(4, u32::MAX),
        ))
        .id();
    tick(&mut app);
    let ball = Collider::circle(1.0);
    let (start, end) = (iso(0.0, 0.0, 0.0), iso(40.0, 0.0, 0.0));
    let cast = |app: &mut App, filter: QueryFilter| {
        with_query(app, |q| q.cast_shape(&ball, start, end, &filter))
    };
    let all = QueryFilter::default();
    let expect = |hit: Option<ShapeCastHit>, entity: Entity, x: f32, what: &str| {
        let hit = hit.unwrap_or_else(|| panic!("{what}: no hit"));
        assert_eq!(hit.entity, entity, "{what}: {hit:?}");
        // The centre is at x when the front (x + 1) touches.
        let time = (x - 1.0) / 40.0;
        assert!(
            (hit.time - time).abs() < 1e-5,
            "{what}: {hit:?}, expected {time}"
        );
        assert!(
            hit.point.distance(Vec2::new(x, 0.0)) < 1e-4,
            "{what}: {hit:?}"
        );
        assert!(hit.normal.distance(Vec2::NEG_X) < 1e-5, "{what}: {hit:?}");
    };
    expect(cast(&mut app, all.clone()), wall, 10.0, "everything");
    expect(
        cast(&mut app, all.clone().excluding(wall)),
        block,
        14.0,
        "not the wall",
    );
    expect(
        cast(&mut app, all.clone().with_layers(2)),
        block,
        14.0,
        "layer 2",
    );
    expect(
        cast(&mut app, all.clone().with_layers(6)),
        block,
        14.0,
        "layers 2 and 3",
    );
    let corner = 25.0 - core::f32::consts::SQRT_2;
    expect(
        cast(&mut app, all.clone().with_layers(4)),
        diamond,
        corner,
        "layer 3",
    );
    expect(
        cast(&mut app, all.clone().with_layers(5).excluding(wall)),
        diamond,
        corner,
        "layer 1 and 3, not the wall",
    );
    assert_eq!(cast(&mut app, all.clone().with_layers(8)), None, "layer 4");
    assert_eq!(
        cast(&mut app, all.clone().with_layers(1).excluding(wall)),
        None,
        "layer 1 without the wall"
    );
    // Backwards, away from everything: nothing.
    let away = with_query(&mut app, |q| {
        q.cast_shape(&ball, start, iso(-40.0, 0.0, 1.0), &all)
    });
    assert_eq!(away, None);

    // Along y = 2.5, over the wall: the box's corner (14, 2) is met when the centre is
    // 1 from it, at x = 14 - √0.75, with the normal from the corner to the centre.
    let hit = with_query(&mut app, |q| {
        q.cast_shape(&ball, iso(0.0, 2.5, 0.0), iso(40.0, 2.5, 0.0), &all)
    })
    .expect("the box's corner");
    let x = 14.0 - 0.75f32.sqrt();
    assert_eq!(hit.entity, block);
    assert!((hit.time - x / 40.0).abs() < 1e-5, "{hit:?}");
    assert!(hit.point.distance(Vec2::new(14.0, 2.0)) < 1e-4, "{hit:?}");
    // A box's corner has a cone of outward normals, from (-1, 0) to (0, 1) here; the crate
    // gives the corner's diagonal where the contact direction (-√0.75, 0.5) is not clearly
    // off one face (see `outward` in src/narrow/witness.rs). Any normal of the cone points
    // from the box towards the ball.
    assert!((hit.normal.length() - 1.0).abs() < 1e-5, "{hit:?}");
    assert!(hit.normal.x <= 1e-6 && hit.normal.y >= -1e-6, "{hit:?}");
    let centre = Vec2::new(x, 2.5);
    let along = centre + hit.normal * 0.01;
    assert!(
        along.distance(Vec2::new(14.0, 2.0)) > 1.0 + 0.003,
        "{hit:?}: moving along the normal does not separate"
    );

    // Starting inside the box: time 0, whichever way it goes.
    for end in [
        iso(15.0, -30.0, 0.0),
        iso(-20.0, 0.0, 0.0),
        iso(15.0, 0.0, 0.0),
    ] {
        let hit = with_query(&mut app, |q| {
            q.cast_shape(&ball, iso(15.0, 0.0, 0.0), end, &all)
        })
        .expect("inside");
        assert_eq!((hit.entity, hit.time), (block, 0.0), "{hit:?}");
        assert!((hit.normal.length() - 1.0).abs() < 1e-4, "{hit:?}");
    }
    // An unusable shape or pose: nothing.
    let bad = Collider::circle(-1.0);
    assert_eq!(
        with_query(&mut app, |q| q.cast_shape(&bad, start, end, &all)),
        None
    );
    assert_eq!(
        with_query(&mut app, |q| q.cast_shape(
            &ball,
            start,
            iso(f32::NAN, 0.0, 0.0),
            &all
        )),
        None
    );
}

#[test]
fn shape_casts_match_dense_sampling_in_random_scenes() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xCA57);
    let (mut hits, mut misses, mut at_start) = (0, 0, 0);
    for world in 0..6 {
        let mut app = app();
        // Still colliders of every kind, some overlapping each other.
        let scene: Vec<Placed> = (0..9)
            .map(|k| random_placed(&mut rng, 12.0, k + world))
            .collect();
        let entities = spawn_all(&mut app, &scene);
        // Every third on layer 2, the others on layer 1, for the filter.
        for (i, &e) in entities.iter().enumerate() {
            let layer = if i % 3 == 0 { 2 } else { 1 };
            app.world_mut()
                .entity_mut(e)
                .insert(CollisionLayers::new(layer, u32::MAX));
        }
        tick(&mut app);
        for c in 0..48 {
            let cast = match c % 4 {
                0 => cast_circle(rng.random_range(0.2..1.5)),
                1 => cast_rectangle(Vec2::new(
                    rng.random_range(0.2..2.0),
                    rng.random_range(0.2..2.0),
                )),
                2 => cast_capsule(
                    Vec2::new(rng.random_range(-2.0..0.0), 0.0),
                    Vec2::new(rng.random_range(0.0..2.0), rng.random_range(-1.0..1.0)),
                    rng.random_range(0.2..1.0),
                ),
                _ => {
                    let n = rng.random_range(3..=8);
                    cast_polygon(&random_convex(&mut rng, n))
                }
            };
            let from = if rng.random_bool(0.15) {
                // From a collider's place: often touching it at the start.
                scene[rng.random_range(0..scene.len())]
                    .transform
                    .translation
                    .truncate()
            } else {
                Vec2::new(rng.random_range(-20.0..20.0), rng.random_range(-20.0..20.0))
            };
            let to = Vec2::new(rng.random_range(-20.0..20.0), rng.random_range(-20.0..20.0));
            let (a0, a1) = (rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0));
            // Turns of up to about half a turn between the poses.
            let a1 = a0 + (a1 - a0) * 0.5;
            let (start, end) = (iso(from.x, from.y, a0), iso(to.x, to.y, a1));
            let (filter, accepted): (QueryFilter, Box<dyn Fn(usize) -> bool>) = match c % 3 {
                0 => (QueryFilter::default(), Box::new(|_| true)),
                1 => {
                    let skip = rng.random_range(0..scene.len());
                    (
                        QueryFilter::default().excluding(entities[skip]),
                        Box::new(move |i| i != skip),
                    )
                }
                _ => (
                    QueryFilter::default().with_layers(2),
                    Box::new(|i| i % 3 == 0),
                ),
            };
            let touches_at_start = {
                let m = Motion::new(&cast, start, end);
                (0..scene.len()).any(|i| accepted(i) && scene[i].solid.gap(&m.at(0.0)) <= 0.0)
            };
            let hit = check_cast(
                &mut app, &scene, &entities, &cast, start, end, &filter, accepted,
            );
            match (hit, touches_at_start) {
                (true, true) => at_start += 1,
                (true, false) => hits += 1,
                (false, _) => misses += 1,
            }
        }
    }
    assert!(
        hits > 60 && misses > 20 && at_start > 5,
        "{hits} {misses} {at_start}"
    );
}

#[test]
fn a_cast_starting_across_a_box_reports_time_zero() {
    // A thin bar, turned a little, laid across a wide flat box: the two cross like a plus
    // sign, with no corner of either inside the other.
    let mut app = app();
    let slab = app
        .world_mut()
        .spawn(Collider::aabb(Vec2::new(3.0, 0.5)))
        .id();
    tick(&mut app);
    let scene = [placed(Collider::aabb(Vec2::new(3.0, 0.5)), Vec2::ZERO, 0.0)];
    let bar = cast_rectangle(Vec2::new(0.2, 2.0));
    let (start, end) = (iso(0.0, 0.0, 0.3), iso(8.0, 1.0, 0.3));
    let hit = with_query(&mut app, |q| {
        q.cast_shape(&bar.collider, start, end, &QueryFilter::default())
    })
    .expect("overlapping at the start");
    assert_eq!((hit.entity, hit.time), (slab, 0.0), "{hit:?}");
    assert!((hit.normal.length() - 1.0).abs() < 1e-4, "{hit:?}");
    let motion = Motion::new(&bar, start, end);
    let cast_now = Solid(vec![motion.at(0.0)]);
    let off_slab = scene[0].solid.distance_to(d(hit.point));
    let off_bar = cast_now.distance_to(d(hit.point));
    // The two overlap in a small parallelogram around the origin; the point reported should
    // lie at least in one of the two shapes.
    assert!(
        off_slab < 1e-3 || off_bar < 1e-3,
        "{hit:?}: {off_slab} {off_bar}"
    );
}

#[test]
fn a_polygon_corner_landing_on_a_segment() {
    // A triangle, corner down, falls onto a level segment: its corner (0, -1) + (0, 3 - 4t)
    // touches (0, 0) at t = 1/2, from above.
    let mut app = app();
    let floor = app
        .world_mut()
        .spawn(Collider::segment(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0)))
        .id();
    tick(&mut app);
    let triangle = cast_polygon(&[
        Vec2::new(0.0, -1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(-1.0, 1.0),
    ]);
    let hit = with_query(&mut app, |q| {
        q.cast_shape(
            &triangle.collider,
            iso(0.0, 3.0, 0.0),
            iso(0.0, -1.0, 0.0),
            &QueryFilter::default(),
        )
    })
    .expect("the floor");
    assert_eq!((hit.entity, hit.time), (floor, 0.5), "{hit:?}");
    assert!((hit.normal.length() - 1.0).abs() < 1e-5, "{hit:?}");
    assert!(hit.point.distance(Vec2::ZERO) < 1e-5, "{hit:?}");
    assert!(hit.normal.distance(Vec2::Y) < 1e-5, "{hit:?}");
}

#[test]
fn a_box_cast_flat_against_a_wall() {
    // A 2 × 1 rectangle slides along y = 0 into a tall wall whose face is at x = 19.5: the
    // faces meet flat when the centre is at 18.5.
    let mut app = app();
    let wall = app
        .world_mut()
        .spawn((
            Collider::aabb(Vec2::new(5.0, 10.0)),
            Transform::from_xyz(24.5, 0.0, 0.0),
        ))
        .id();
    tick(&mut app);
    let brick = cast_rectangle(Vec2::new(1.0, 0.5));
    let hit = with_query(&mut app, |q| {
        q.cast_shape(
            &brick.collider,
            iso(0.0, 0.0, 0.0),
            iso(20.0, 0.0, 0.0),
            &QueryFilter::default(),
        )
    })
    .expect("the wall");
    assert_eq!(hit.entity, wall);
    assert!((hit.time - 18.5 / 20.0).abs() < 1e-5, "{hit:?}");
    assert!(hit.normal.distance(Vec2::NEG_X) < 1e-5, "{hit:?}");
    assert!((hit.point.x - 19.5).abs() < 1e-4, "{hit:?}");
    assert!(hit.point.y.abs() <= 0.5 + 1e-4, "{hit:?}");

    // The other way round, higher up: a tall rectangle slides into a small box whose face
    // is at x = 40 (y from 49.5 to 50.5); the faces meet flat when its centre is at 39.
    let pin = app
        .world_mut()
        .spawn((
            Collider::aabb(Vec2::new(0.5, 0.5)),
            Transform::from_xyz(40.5, 50.0, 0.0),
        ))
        .id();
    tick(&mut app);
    let plank = cast_rectangle(Vec2::new(1.0, 10.0));
    let hit = with_query(&mut app, |q| {
        q.cast_shape(
            &plank.collider,
            iso(30.0, 50.0, 0.0),
            iso(40.0, 50.0, 0.0),
            &QueryFilter::default(),
        )
    })
    .expect("the small box");
    assert_eq!(hit.entity, pin);
    assert!((hit.time - 0.9).abs() < 1e-5, "{hit:?}");
    assert!(hit.normal.distance(Vec2::NEG_X) < 1e-5, "{hit:?}");
    assert!((hit.point.x - 40.0).abs() < 1e-4, "{hit:?}");
    assert!((hit.point.y - 50.0).abs() <= 0.5 + 1e-4, "{hit:?}");
}

#[test]
fn a_turning_bar_is_cast_with_its_vertices_on_straight_lines() {
    // A bar turned a quarter turn in place, past a small disk: sampled as everything else,
    // with a hand check that the turn matters (without it, nothing would be hit).
    let mut app = app();
    let disk = app
        .world_mut()
        .spawn((Collider::circle(0.5), Transform::from_xyz(1.5, 2.0, 0.0)))
        .id();
    tick(&mut app);
    let scene = [placed(Collider::circle(0.5), Vec2::new(1.5, 2.0), 0.0)];
    let bar = cast_rectangle(Vec2::new(3.0, 0.2));
    let (start, end) = (
        iso(0.0, 0.0, 0.0),
        iso(0.0, 0.0, core::f32::consts::FRAC_PI_2),
    );
    assert!(check_cast(
        &mut app,
        &scene,
        &[disk],
        &bar,
        start,
        end,
        &QueryFilter::default(),
        |_| true
    ));
    // Not turning: the bar stays clear of the disk (its top at 0.2, the disk's bottom 1.5).
    let still = with_query(&mut app, |q| {
        q.cast_shape(&bar.collider, start, start, &QueryFilter::default())
    });
    assert_eq!(still, None);
}

// ---------------------------------------------------------------------------------------
// project_point.

fn random_scene(rng: &mut ChaCha8Rng, count: usize) -> Vec<Placed> {
    let mut scene: Vec<Placed> = (0..count).map(|k| random_placed(rng, 15.0, k)).collect();
    // Always one polyline.
    scene.push(random_placed(rng, 15.0, 6));
    scene
}

#[test]
fn project_point_finds_the_nearest_collider_and_point() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x9E0);
    let mut inside_seen = 0;
    for _ in 0..8 {
        let mut app = app();
        let count = rng.random_range(1..16);
        let scene = random_scene(&mut rng, count);
        let entities = spawn_all(&mut app, &scene);
        tick(&mut app);
        for q in 0..150 {
            let query = if q % 5 == 0 {
                // Inside (or on) a collider: at its placed origin.
                scene[rng.random_range(0..scene.len())]
                    .transform
                    .translation
                    .truncate()
            } else {
                Vec2::new(rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0))
            };
            let got = with_query(&mut app, |sq| {
                sq.project_point(query, &QueryFilter::default())
            })
            .expect("a collider is there");
            let mut distances: Vec<(f64, Entity)> = scene
                .iter()
                .zip(&entities)
                .map(|(p, &e)| (p.solid.distance_to(d(query)), e))
                .collect();
            distances.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let best = distances[0].0;
            let tolerance = 1e-3 * best + 1e-5;
            let what = format!("{query}: {got:?}, brute force {distances:?}");
            assert!(
                (f64::from(got.distance) - best).abs() <= tolerance,
                "{what}"
            );
            // The nearest collider (either of two within the tolerance).
            let near: Vec<Entity> = distances
                .iter()
                .filter(|x| x.0 <= best + 2.0 * tolerance)
                .map(|x| x.1)
                .collect();
            assert!(near.contains(&got.entity), "{what}");
            let i = entities
                .iter()
                .position(|&e| e == got.entity)
                .expect("ours");
            // The point is on that collider, at the distance from the query point.
            assert!(scene[i].solid.distance_to(d(got.point)) < 1e-4, "{what}");
            assert!(
                (f64::from(got.point.distance(query)) - best).abs() <= tolerance + 1e-5,
                "{what}"
            );
            // Strictly inside: distance 0, the point itself.
            let depth = -scene
                .iter()
                .map(|p| {
                    p.solid.gap(&Convex {
                        core: vec![d(query)],
                        radius: 0.0,
                    })
                })
                .fold(f64::INFINITY, f64::min);
            if depth > 1e-4 {
                inside_seen += 1;
                assert_eq!(got.distance, 0.0, "{what}");
                assert_eq!(got.point, query, "{what}");
            }
        }
        // Not finite: nothing.
        for bad in [
            Vec2::NAN,
            Vec2::new(0.0, f32::NAN),
            Vec2::new(f32::INFINITY, 0.0),
        ] {
            let got = with_query(&mut app, |sq| {
                sq.project_point(bad, &QueryFilter::default())
            });
            assert_eq!(got, None, "{bad}");
        }
        // Without the nearest: the second nearest.
        let query = Vec2::new(3.0, -4.0);
        let mut distances: Vec<(f64, Entity)> = scene
            .iter()
            .zip(&entities)
            .map(|(p, &e)| (p.solid.distance_to(d(query)), e))
            .collect();
        distances.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        if distances.len() >= 3 && distances[2].0 - distances[1].0 > 1e-2 {
            let filter = QueryFilter::default().excluding(distances[0].1);
            let got = with_query(&mut app, |sq| sq.project_point(query, &filter)).expect("some");
            assert_eq!(got.entity, distances[1].1);
            assert!(
                (f64::from(got.distance) - distances[1].0).abs() < 1e-3 * distances[1].0 + 1e-5
            );
        }
    }
    assert!(inside_seen > 40, "{inside_seen}");
}

#[test]
fn project_point_in_an_empty_world_finds_nothing() {
    let mut app = app();
    tick(&mut app);
    for point in [Vec2::ZERO, Vec2::new(1e6, -3.0), Vec2::NAN] {
        let got = with_query(&mut app, |q| {
            q.project_point(point, &QueryFilter::default())
        });
        assert_eq!(got, None);
    }
    // One collider, filtered out: nothing either.
    let e = app
        .world_mut()
        .spawn((Collider::circle(1.0), Transform::from_xyz(5.0, 0.0, 0.0)))
        .id();
    tick(&mut app);
    let filter = QueryFilter::default().excluding(e);
    assert_eq!(
        with_query(&mut app, |q| q.project_point(Vec2::ZERO, &filter)),
        None
    );
    let got = with_query(&mut app, |q| {
        q.project_point(Vec2::ZERO, &QueryFilter::default())
    })
    .expect("the circle");
    assert_eq!(got.entity, e);
    assert!((got.distance - 4.0).abs() < 1e-5 && got.point.distance(Vec2::X * 4.0) < 1e-5);
}

// ---------------------------------------------------------------------------------------
// shape_hits and any_hit.

#[test]
fn shape_hits_match_brute_force_for_rectangles_polygons_and_polylines() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5A1E);
    let (mut hit_sets, mut empty_sets) = (0, 0);
    for _ in 0..8 {
        let mut app = app();
        let count = rng.random_range(4..16);
        let scene = random_scene(&mut rng, count);
        let entities = spawn_all(&mut app, &scene);
        tick(&mut app);
        let mut hits = Vec::new();
        for q in 0..80 {
            // Near a collider half of the time, anywhere the other half.
            let center = if q % 4 < 2 {
                let near = scene[rng.random_range(0..scene.len())]
                    .transform
                    .translation;
                near.truncate()
                    + Vec2::new(rng.random_range(-4.0..4.0), rng.random_range(-4.0..4.0))
            } else {
                Vec2::new(rng.random_range(-18.0..18.0), rng.random_range(-18.0..18.0))
            };
            let angle = rng.random_range(-3.0..3.0);
            let probe = if q % 3 == 0 {
                placed(
                    Collider::rectangle(Vec2::new(
                        rng.random_range(0.2..4.0),
                        rng.random_range(0.2..4.0),
                    )),
                    center,
                    angle,
                )
            } else if q % 3 == 1 {
                let n = rng.random_range(3..=8);
                let vertices = random_convex(&mut rng, n);
                placed(
                    Collider::convex_polygon(&vertices).expect("convex"),
                    center,
                    angle,
                )
            } else {
                // A zigzag of 2 to 5 edges, 1 to 6 units each.
                let mut points = vec![Vec2::ZERO];
                for k in 0..rng.random_range(2..=5) {
                    let step = Vec2::from_angle(rng.random_range(-1.2..1.2) + k as f32 * 0.3);
                    points.push(points[k] + step * rng.random_range(1.0..6.0));
                }
                placed(Collider::polyline(&points).expect("finite"), center, angle)
            };
            let shape = &probe.collider;
            let pose = Isometry2d::new(center, Rot2::radians(angle));
            // The probe's pieces (a polyline's edges) against each collider's.
            let gaps: Vec<f64> = scene
                .iter()
                .map(|p| {
                    (probe.solid.0.iter())
                        .map(|piece| p.solid.gap(piece))
                        .fold(f64::INFINITY, f64::min)
                })
                .collect();
            // Leave out probes that graze a collider: rounding decides those.
            if gaps.iter().any(|g| g.abs() < 1e-4) {
                continue;
            }
            let mut expected: Vec<Entity> = (0..scene.len())
                .filter(|&i| gaps[i] < 0.0)
                .map(|i| entities[i])
                .collect();
            expected.sort();
            let filter = QueryFilter::default();
            with_query(&mut app, |sq| {
                sq.shape_hits(shape, pose, &filter, &mut hits);
            });
            let mut got = hits.clone();
            got.sort();
            let listed = got.len();
            got.dedup();
            assert_eq!(listed, got.len(), "a collider listed twice: {hits:?}");
            assert_eq!(got, expected, "probe {shape:?}: gaps {gaps:?}");
            let any = with_query(&mut app, |sq| sq.any_hit(shape, pose, &filter));
            assert_eq!(any, !expected.is_empty(), "probe {shape:?}");
            if expected.is_empty() {
                empty_sets += 1;
            } else {
                hit_sets += 1;
            }
            // Excluding one of them.
            if let Some(&first) = expected.first() {
                let filter = QueryFilter::default().excluding(first);
                with_query(&mut app, |sq| {
                    sq.shape_hits(shape, pose, &filter, &mut hits);
                });
                let mut got = hits.clone();
                got.sort();
                assert_eq!(got, expected[1..], "probe {shape:?} without {first}");
                let any = with_query(&mut app, |sq| sq.any_hit(shape, pose, &filter));
                assert_eq!(any, expected.len() > 1);
            }
        }
    }
    assert!(hit_sets > 100 && empty_sets > 50, "{hit_sets} {empty_sets}");
}

#[test]
fn a_polyline_crossed_on_many_edges_is_listed_once() {
    let mut app = app();
    // A zigzag between y = -1 and y = 1 every unit of x, from x = 0 to 20.
    let points: Vec<Vec2> = (0..=20)
        .map(|k| Vec2::new(k as f32, if k % 2 == 0 { -1.0 } else { 1.0 }))
        .collect();
    let zigzag = app
        .world_mut()
        .spawn(Collider::polyline(&points).expect("finite"))
        .id();
    let other = app
        .world_mut()
        .spawn((Collider::circle(0.5), Transform::from_xyz(10.0, 0.0, 0.0)))
        .id();
    tick(&mut app);
    // A long thin rectangle along the zigzag, turned a little: it crosses every edge.
    let long = Collider::rectangle(Vec2::new(9.0, 0.1));
    let turned = Isometry2d::new(Vec2::new(10.0, 0.0), Rot2::radians(0.02));
    let mut hits = Vec::new();
    with_query(&mut app, |q| {
        q.shape_hits(&long, turned, &QueryFilter::default(), &mut hits);
    });
    hits.sort();
    let mut expected = vec![zigzag, other];
    expected.sort();
    assert_eq!(hits, expected);
    // A convex polygon across three edges, away from the circle.
    let triangle = Collider::convex_polygon(&[
        Vec2::new(-2.0, -0.2),
        Vec2::new(2.0, -0.2),
        Vec2::new(0.0, 0.3),
    ])
    .expect("convex");
    let at = |x: f32, y: f32| Isometry2d::from_translation(Vec2::new(x, y));
    with_query(&mut app, |q| {
        q.shape_hits(&triangle, at(3.0, 0.0), &QueryFilter::default(), &mut hits);
    });
    assert_eq!(hits, vec![zigzag]);
    assert!(with_query(&mut app, |q| q.any_hit(
        &triangle,
        at(3.0, 0.0),
        &QueryFilter::default()
    )));
    // Between two teeth, under the zigzag's top corner: nothing.
    let gap = Collider::rectangle(Vec2::new(0.1, 0.1));
    let mut hits = Vec::new();
    with_query(&mut app, |q| {
        q.shape_hits(&gap, at(1.0, 0.5), &QueryFilter::default(), &mut hits);
    });
    // (1, 0.5) is 0.5 below the corner (1, 1), 0.5 / √5 ≈ 0.22 from each of its edges; the
    // square reaches 0.1 √2 ≈ 0.14 from its centre.
    assert!(hits.is_empty(), "{hits:?}");
    assert!(!with_query(&mut app, |q| q.any_hit(
        &gap,
        at(1.0, 0.5),
        &QueryFilter::default()
    )));
    // A polyline query across the zigzag's teeth: the zigzag once, and the circle.
    let across = Collider::polyline(&[
        Vec2::new(0.5, 0.0),
        Vec2::new(5.0, 0.0),
        Vec2::new(10.0, 0.2),
    ])
    .expect("finite");
    with_query(&mut app, |q| {
        q.shape_hits(
            &across,
            Isometry2d::IDENTITY,
            &QueryFilter::default(),
            &mut hits,
        );
    });
    hits.sort();
    assert_eq!(hits, expected);
}
