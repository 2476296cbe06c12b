//! Answers as exact as the contacts: movers that answer their hits (`Response::Bounce`,
//! `Slide`, `Stop` and `KinematicCharacter`s), of every shape that can answer, at 10 to 1,000
//! units a tick among worlds of separate 16-unit tiles, held after every tick to an oracle
//! written apart from the crate:
//!
//! 1. never inside a solid at the end of a tick (characters keep their `skin` off it);
//! 2. never past a wall: a wall of tiles spawned between ticks right in front of a fast mover,
//!    like the walls of the closed worlds, is never crossed;
//! 3. never stopped by a seam: sliding or walking along a level floor of tiles, a mover goes
//!    exactly its speed times the tick each tick, at its height;
//! 4. restitution 1 keeps the speed: off axis-aligned faces, exactly.
//!
//! The oracle is plain `f64` geometry from the documented shapes, not the crate's queries or
//! kernels: each mover's shape is rebuilt at the pose its `Transform` has at the end of the
//! tick as a convex core (1 to 8 points) grown by a radius (circles, capsules). Its depth in a
//! tile (an AABB) is, when the core meets the tile, the separating-axis penetration of the core
//! (axes x, y and the core's edge normals: the least push out either way) plus the radius;
//! else the radius less their exact distance (core vertices to the box, box corners to core
//! edges). Positive is inside, 0 touching, negative apart.
//!
//! The last five tests are the smallest cases of what these checks found wrong in the crate
//! (each failed before its fix; what it gave is in its doc).

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;

use bevy::math::DVec2;
use bevy::prelude::*;
use bevy_sweep::prelude::*;
use common::{TICK, app, tick};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The tile size.
const T: f64 = 16.0;
/// How deep a mover may end up in a solid (f32 rounding; touching is 0).
const TOL: f64 = 1e-3;
const SKIN: f64 = KinematicCharacter::DEFAULT_SKIN as f64;

/// A mover's shape as the oracle sees it (local frame).
#[derive(Clone, Debug)]
enum Shape {
    Point,
    Circle(f64),
    Aabb(DVec2),
    Rect(DVec2),
    Capsule(DVec2, DVec2, f64),
    Polygon(Vec<DVec2>),
    Segment(DVec2, DVec2),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Bounce,
    Slide,
    Stop,
    Character,
}
const KINDS: [Kind; 4] = [Kind::Bounce, Kind::Slide, Kind::Stop, Kind::Character];

/// Every shape that answers hits, each within 7 units of its origin.
fn shapes() -> Vec<Shape> {
    let d = DVec2::new;
    vec![
        Shape::Point,
        Shape::Circle(6.0),
        Shape::Aabb(d(6.0, 5.0)),
        Shape::Rect(d(5.0, 4.0)),
        Shape::Capsule(d(-3.0, 0.0), d(3.0, 0.0), 3.5),
        Shape::Polygon(vec![d(-5.0, -4.0), d(5.0, -4.0), d(4.0, 3.0), d(-2.0, 5.0)]),
        Shape::Segment(d(-6.0, -2.0), d(6.0, 2.0)),
    ]
}

impl Shape {
    fn collider(&self) -> Collider {
        let f = |p: &DVec2| p.as_vec2();
        match self {
            Shape::Point => Collider::point(),
            Shape::Circle(r) => Collider::circle(*r as f32),
            Shape::Aabb(h) => Collider::aabb(f(h)),
            Shape::Rect(h) => Collider::rectangle(f(h)),
            Shape::Capsule(a, b, r) => Collider::capsule(f(a), f(b), *r as f32),
            Shape::Polygon(p) => Collider::convex_polygon(&p.iter().map(f).collect::<Vec<_>>())
                .expect("a convex polygon"),
            Shape::Segment(a, b) => Collider::segment(f(a), f(b)),
        }
    }

    /// The world core points and the radius around them, at `at` turned by `angle` (a box
    /// never turns).
    fn core(&self, at: DVec2, angle: f64) -> (Vec<DVec2>, f64) {
        let turn = DVec2::from_angle(angle);
        let place = |ps: &[DVec2]| ps.iter().map(|p| at + turn.rotate(*p)).collect();
        let corners = |h: DVec2| [-h, DVec2::new(h.x, -h.y), h, DVec2::new(-h.x, h.y)];
        match self {
            Shape::Point => (vec![at], 0.0),
            Shape::Circle(r) => (vec![at], *r),
            Shape::Aabb(h) => (corners(*h).iter().map(|p| at + *p).collect(), 0.0),
            Shape::Rect(h) => (place(&corners(*h)), 0.0),
            Shape::Capsule(a, b, r) => (place(&[*a, *b]), *r),
            Shape::Polygon(p) => (place(p), 0.0),
            Shape::Segment(a, b) => (place(&[*a, *b]), 0.0),
        }
    }
}

/// The edges of a core (none for a point, one for a segment).
fn edges(core: &[DVec2]) -> Vec<(DVec2, DVec2)> {
    match core.len() {
        1 => vec![],
        2 => vec![(core[0], core[1])],
        n => (0..n).map(|i| (core[i], core[(i + 1) % n])).collect(),
    }
}

/// How deep the core grown by `r` is in the box `lo..hi` (see the module docs).
fn depth(core: &[DVec2], r: f64, [lo, hi]: [DVec2; 2]) -> f64 {
    let (c, h) = ((lo + hi) / 2.0, (hi - lo) / 2.0);
    let normals = edges(core)
        .into_iter()
        .map(|(a, b)| (b - a).perp().normalize());
    let push = [DVec2::X, DVec2::Y]
        .into_iter()
        .chain(normals)
        .map(|axis| {
            let along = core.iter().map(|p| p.dot(axis));
            let (min, max) = along.fold((f64::MAX, f64::MIN), |(a, b), d| (a.min(d), b.max(d)));
            let (m, e) = (c.dot(axis), h.x * axis.x.abs() + h.y * axis.y.abs());
            (max - (m - e)).min(m + e - min)
        })
        .fold(f64::INFINITY, f64::min);
    if push >= 0.0 {
        return push + r;
    }
    let to_segment = |p: DVec2, (a, b): (DVec2, DVec2)| {
        let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
        p.distance(a + (b - a) * t)
    };
    let corners = [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
    let gap = (core.iter().map(|p| p.distance(p.clamp(lo, hi)))).chain(
        edges(core)
            .into_iter()
            .flat_map(|e| corners.map(|q| to_segment(q, e))),
    );
    r - gap.fold(f64::INFINITY, f64::min)
}

/// The bounds of a core grown by `r`.
fn extent(core: &[DVec2], r: f64) -> [DVec2; 2] {
    let lo = core.iter().fold(DVec2::MAX, |a, p| a.min(*p));
    let hi = core.iter().fold(DVec2::MIN, |a, p| a.max(*p));
    [lo - r, hi + r]
}

/// Spawns 16-unit tiles centred at `centres`; their bounds.
fn spawn_tiles(app: &mut App, centres: impl IntoIterator<Item = DVec2>) -> Vec<[DVec2; 2]> {
    let half = DVec2::splat(T / 2.0);
    let mut bounds = Vec::new();
    for c in centres {
        let at = Transform::from_translation(c.as_vec2().extend(0.0));
        app.world_mut().spawn((Collider::aabb(half.as_vec2()), at));
        bounds.push([c - half, c + half]);
    }
    bounds
}

/// The centre of the tile in column `col` and row `row` of a grid from (0, 0).
fn cell(col: usize, row: usize) -> DVec2 {
    DVec2::new(col as f64 + 0.5, row as f64 + 0.5) * T
}

/// Asserts that the bounds `lo..hi` are within `min..max`.
#[track_caller]
fn assert_within([lo, hi]: [DVec2; 2], min: DVec2, max: DVec2, case: &str) {
    let inside = lo.cmpge(min - TOL).all() && hi.cmple(max + TOL).all();
    assert!(inside, "{case}: out of {min}..{max}, at {lo}..{hi}");
}

/// What a walking character (or a pushed slider) wants each tick: this horizontal velocity,
/// and gravity (falls capped at 1,000 units a tick).
#[derive(Component, Clone, Copy, Debug)]
struct Walk {
    vx: f32,
    gravity: f32,
}

fn walk(mut movers: Query<(&mut Velocity, &Walk)>) {
    for (mut v, w) in &mut movers {
        v.0 = Vec2::new(w.vx, (v.0.y - w.gravity * TICK).max(-64_000.0));
    }
}

impl Kind {
    /// The gap it keeps to what it touches.
    fn skin(self) -> f64 {
        match self {
            Kind::Character => SKIN,
            _ => 0.0,
        }
    }
}

struct Mover {
    e: Entity,
    shape: Shape,
    kind: Kind,
}

/// Where a mover is: its translation, turn, core, radius and bounds.
type Place = (DVec2, f64, Vec<DVec2>, f64, [DVec2; 2]);

impl Mover {
    /// Spawns a mover of `kind` at `at` turned by `angle`.
    fn spawn(app: &mut App, shape: &Shape, kind: Kind, at: DVec2, angle: f32, v: Vec2) -> Self {
        let transform = Transform::from_translation(at.as_vec2().extend(0.0))
            .with_rotation(Quat::from_rotation_z(angle));
        // The movers meet the tiles, not each other: the oracle follows each alone.
        let mut e = app.world_mut().spawn((
            shape.collider(),
            transform,
            Velocity(v),
            CollisionLayers::from_bits(1, !1),
        ));
        match kind {
            Kind::Bounce => e.insert(Response::Bounce { restitution: 1.0 }),
            Kind::Slide => e.insert(Response::Slide),
            Kind::Stop => e.insert(Response::Stop),
            Kind::Character => e.insert(KinematicCharacter::default()),
        };
        let (e, shape) = (e.id(), shape.clone());
        Mover { e, shape, kind }
    }

    fn place(&self, app: &App) -> Place {
        let t = app.world().get::<Transform>(self.e).expect("a mover");
        let q = t.rotation.as_dquat();
        let (at, angle) = (t.translation.truncate().as_dvec2(), 2.0 * q.z.atan2(q.w));
        let (core, r) = self.shape.core(at, angle);
        let bounds = extent(&core, r);
        (at, angle, core, r, bounds)
    }

    fn velocity(&self, app: &App) -> Vec2 {
        app.world().get::<Velocity>(self.e).expect("a mover").0
    }

    fn set_velocity(&self, app: &mut App, v: Vec2) {
        *app.world_mut()
            .get_mut::<Velocity>(self.e)
            .expect("a mover") = Velocity(v);
    }

    /// Asserts that the mover is out of every tile: touching, or a skin off for a character.
    #[track_caller]
    fn assert_outside(&self, (_, _, core, r, [lo, hi]): &Place, tiles: &[[DVec2; 2]], case: &str) {
        let near = |[a, b]: &&[DVec2; 2]| a.cmple(*hi + 1.0).all() && b.cmpge(*lo - 1.0).all();
        for tile in tiles.iter().filter(near) {
            let (d, allowed) = (depth(core, *r, *tile), TOL - self.kind.skin());
            assert!(d <= allowed, "{case}: {d} deep in the tile {tile:?}");
        }
    }
}

/// A speed of 10 to 1,000 units a tick (even on a log scale), in units per second.
fn speed(rng: &mut ChaCha8Rng) -> f32 {
    64.0 * 10.0 * 100f32.powf(rng.random())
}

fn random_velocity(rng: &mut ChaCha8Rng) -> Vec2 {
    speed(rng) * Vec2::from_angle(rng.random_range(-3.2..3.2))
}

/// A turn for a shape that turns (none for a box), level a third of the time.
fn random_angle(rng: &mut ChaCha8Rng, shape: &Shape) -> f32 {
    match shape {
        Shape::Aabb(_) => 0.0,
        _ if rng.random_bool(0.3) => 0.0,
        _ => rng.random_range(-3.2..3.2),
    }
}

/// Random closed worlds of 40 x 20 tiles (side walls, a ceiling, ground stepping up and down
/// a tile, walls 1 to 4 tiles high on it), 14 movers of every shape and kind (characters walk,
/// turn round and jump), and full-height walls of tiles spawned right in front of the fastest
/// mover heading sideways: after every tick each mover is out of every tile, inside the world,
/// on the side of each spawned wall it was on, and a bouncing one keeps its speed (corners of
/// steps turn it: to rounding).
#[test]
fn movers_in_random_tile_worlds_stay_out_of_every_tile_and_behind_every_wall() {
    const W: usize = 40;
    const H: usize = 20;
    let mut walls_spawned = 0;
    for seed in 0..10 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut app = app();
        app.add_systems(FixedUpdate, walk);
        let (mut tiles, mut free, mut ground) = (Vec::new(), Vec::new(), 3usize);
        for col in 0..W {
            if rng.random_bool(0.3) {
                ground = (ground + 2 * usize::from(rng.random_bool(0.5)) - 1).clamp(1, 8);
            }
            let top = match col {
                0 | 39 => H,
                _ if rng.random_bool(0.15) => ground + rng.random_range(1..=4),
                _ => ground,
            };
            let rows = (0..top).chain(top.max(H - 1)..H);
            tiles.extend(spawn_tiles(&mut app, rows.map(|row| cell(col, row))));
            free.extend((top..H - 1).map(|row| cell(col, row)));
        }
        let (mut movers, mut speeds) = (Vec::new(), Vec::new());
        for shape in shapes().iter().cycle().take(14) {
            let (kind, angle) = (KINDS[rng.random_range(0..4)], random_angle(&mut rng, shape));
            let at = loop {
                let at = free[rng.random_range(0..free.len())]
                    + DVec2::new(rng.random_range(-0.75..0.75), rng.random_range(-0.75..0.75));
                let (core, r) = shape.core(at, f64::from(angle));
                if tiles.iter().all(|tile| depth(&core, r, *tile) < -0.1) {
                    break at;
                }
            };
            let v = random_velocity(&mut rng);
            let m = Mover::spawn(&mut app, shape, kind, at, angle, v);
            if kind == Kind::Character {
                let gravity = 500.0 * 400f32.powf(rng.random());
                app.world_mut()
                    .entity_mut(m.e)
                    .insert(Walk { vx: v.x, gravity });
            }
            movers.push(m);
            speeds.push(v.length());
        }
        // Each spawned wall: its x range, and for each mover whether it was left of it.
        let mut walls: Vec<(f64, f64, Vec<bool>)> = Vec::new();
        for k in 0..120 {
            // Between ticks: relaunch what stopped, jump, turn round.
            for m in &movers {
                let mut v = m.velocity(&app);
                if matches!(m.kind, Kind::Slide | Kind::Stop) && v.length() < 1.0 {
                    v = random_velocity(&mut rng);
                }
                if m.kind == Kind::Character {
                    let state = app.world().get::<CharacterState>(m.e).unwrap();
                    if state.grounded && rng.random_bool(0.1) {
                        v.y = speed(&mut rng);
                    }
                    let mut w = app.world_mut().get_mut::<Walk>(m.e).unwrap();
                    w.vx = if rng.random_bool(0.05) { -w.vx } else { w.vx };
                    v.x = w.vx;
                }
                m.set_velocity(&mut app, v);
            }
            // Now and then a wall right in front of the fastest mover sideways that has room.
            if k % 25 == 10 {
                let spans: Vec<_> = movers.iter().map(|m| m.place(&app).4).collect();
                let vx: Vec<_> = movers.iter().map(|m| m.velocity(&app).x).collect();
                let mut order: Vec<_> = (0..movers.len()).collect();
                order.sort_by(|&a, &b| vx[b].abs().total_cmp(&vx[a].abs()));
                let wall = order.into_iter().find_map(|i| {
                    let ([lo, hi], gap) = (spans[i], rng.random_range(0.25..2.0));
                    let x0 = [lo.x - gap - T, hi.x + gap][usize::from(vx[i] > 0.0)];
                    let clear = spans
                        .iter()
                        .all(|[a, b]| b.x < x0 - 0.1 || a.x > x0 + T + 0.1);
                    let inside = x0 > T && x0 + T < (W - 1) as f64 * T;
                    (vx[i].abs() >= 640.0 && clear && inside).then_some(x0)
                });
                if let Some(x0) = wall {
                    let rows = (0..H).map(|row| DVec2::new(x0 + T / 2.0, cell(0, row).y));
                    tiles.extend(spawn_tiles(&mut app, rows));
                    walls.push((x0, x0 + T, spans.iter().map(|[_, b]| b.x <= x0).collect()));
                    walls_spawned += 1;
                }
            }
            let before: Vec<_> = movers.iter().map(|m| m.place(&app).0).collect();
            tick(&mut app);
            for (i, m) in movers.iter().enumerate() {
                let place = m.place(&app);
                let (at, angle, _, _, [lo, hi]) = place;
                let v = m.velocity(&app);
                let case = format!(
                    "seed {seed}, {:?} {:?} turned {angle}, tick {k}: from {} to {at}, velocity {v}",
                    m.kind, m.shape, before[i]
                );
                m.assert_outside(&place, &tiles, &case);
                let world = DVec2::new((W - 1) as f64, (H - 1) as f64) * T;
                assert_within(place.4, DVec2::splat(T), world, &case);
                for (x0, x1, left) in &walls {
                    let kept = (left[i] && hi.x <= x0 + TOL) || (!left[i] && lo.x >= x1 - TOL);
                    assert!(kept, "{case}: past the wall {x0}..{x1}, at {lo}..{hi}");
                }
                let s = speeds[i];
                let kept = m.kind != Kind::Bounce || (v.length() - s).abs() <= 1e-4 * s;
                assert!(kept, "{case}: launched at {s}");
            }
        }
    }
    assert!(walls_spawned >= 10, "only {walls_spawned} walls spawned");
}

/// A wall of tiles spawned between ticks right ahead of a mover (0.01 to 2 units) is never
/// passed, by every shape and kind at 10, 100 and 1,000 units a tick; it stops a `Stop` or
/// `Slide` mover on its face, and turns a bounce back at exactly the speed it came.
#[test]
fn a_wall_spawned_right_ahead_of_a_mover_is_never_passed() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let cases = shapes()
        .into_iter()
        .flat_map(|s| KINDS.map(|k| (s.clone(), k)));
    for ((shape, kind), per_tick) in
        cases.flat_map(|c| [10.0, 100.0, 1000.0].map(|s| (c.clone(), s)))
    {
        let mut app = app();
        let angle = random_angle(&mut rng, &shape);
        let v = Vec2::new(per_tick * 64.0, 0.0);
        let m = Mover::spawn(&mut app, &shape, kind, DVec2::ZERO, angle, v);
        tick(&mut app);
        let (at, _, _, _, [lo, hi]) = m.place(&app);
        let face = hi.x + [0.01, 0.3, 2.0][rng.random_range(0..3)];
        let rows = (-5..5).map(|i| DVec2::new(face + 8.0, at.y + 16.0 * f64::from(i)));
        let tiles = spawn_tiles(&mut app, rows);
        for k in 0..4 {
            if kind == Kind::Character {
                m.set_velocity(&mut app, v);
            }
            tick(&mut app);
            let place = m.place(&app);
            let (now, angle, _, _, [_, front]) = place;
            let got = m.velocity(&app);
            let case = format!(
                "{kind:?} {shape:?} turned {angle} at {per_tick} units a tick: over {}..{} at \
                 {at}, a wall spawned at x = {face}; tick {k}: at {now}, velocity {got}",
                lo.x, hi.x
            );
            m.assert_outside(&place, &tiles, &case);
            let front = front.x;
            assert!(
                front <= face - kind.skin() + TOL,
                "{case}: past the wall, front {front}"
            );
            if k == 0 && matches!(kind, Kind::Stop | Kind::Slide) {
                assert!(
                    (front - face).abs() <= TOL,
                    "{case}: short of the wall, front {front}"
                );
            }
            if k == 0 && kind == Kind::Bounce {
                assert_eq!(got, -v, "{case}: bounced");
            }
        }
    }
}

/// Sliders (`Response::Slide`, pushed sideways and pressed down each tick) and walking
/// characters of every shape, turned or not, each along its own level floor of 16-unit tiles
/// at 10 to 1,000 units a tick, pressed down by up to their speed: each tick each goes exactly
/// its speed times the tick along (to 1e-3), at its height (on the floor; a skin above it for
/// a character, which lands in its first tick and stands at its skin from the next).
#[test]
fn sliders_and_walkers_keep_their_speed_over_every_seam() {
    for seed in 0..3 {
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed);
        let mut app = app();
        app.add_systems(FixedUpdate, walk);
        let mut lanes = Vec::new();
        let pairs = shapes()
            .into_iter()
            .flat_map(|s| [(s.clone(), Kind::Slide), (s, Kind::Character)]);
        for (lane, (shape, kind)) in pairs.enumerate() {
            // A floor with its top at y, from x = -4,000 to 4,000.
            let y = 100.0 * lane as f64;
            let floor = (0..500).map(|i| cell(i, 0) + DVec2::new(-4000.0, y - T));
            spawn_tiles(&mut app, floor);
            let per_tick = (speed(&mut rng) / 4.0).round() / 16.0;
            let press = 0.01 * (100.0 * per_tick).powf(rng.random());
            let walking = Walk {
                vx: per_tick * 64.0,
                gravity: press * 64.0 * 64.0,
            };
            let angle = random_angle(&mut rng, &shape);
            let (core, r) = shape.core(DVec2::ZERO, f64::from(angle));
            let ([lo, _], height) = (extent(&core, r), y + kind.skin());
            let at = DVec2::new(-3980.0 - lo.x, height + 0.01 - lo.y);
            let v = Vec2::new(walking.vx, 0.0);
            let m = Mover::spawn(&mut app, &shape, kind, at, angle, v);
            app.world_mut().entity_mut(m.e).insert(walking);
            lanes.push((m, walking, height));
        }
        let mut last: Vec<f64> = lanes.iter().map(|(m, ..)| m.place(&app).0.x).collect();
        for k in 0..40 {
            tick(&mut app);
            for (i, (m, walking, height)) in lanes.iter().enumerate() {
                let (per_tick, press) = (walking.vx * TICK, walking.gravity * TICK * TICK);
                let (at, angle, _, _, [lo, _]) = m.place(&app);
                if at.x > 3900.0 {
                    continue;
                }
                let case = format!(
                    "seed {seed}, {:?} {:?} turned {angle} at {per_tick} units a tick pressed by \
                     {press} a tick: tick {k} from x = {} to {at}, velocity {}",
                    m.kind,
                    m.shape,
                    last[i],
                    m.velocity(&app)
                );
                let went = at.x - last[i];
                assert!(
                    (went - f64::from(per_tick)).abs() <= TOL,
                    "{case}: went {went}"
                );
                let landing = k == 0 && m.kind == Kind::Character;
                assert!(
                    (lo.y - height).abs() <= TOL || landing,
                    "{case}: bottom at {}",
                    lo.y
                );
                last[i] = at.x;
            }
        }
    }
}

/// Balls of every shape, turned or not, bouncing with restitution 1 at 10 to 1,000 units a
/// tick in a closed box of 24 x 16 separate tiles: after every tick each is inside the box
/// and out of every tile, and each part of its velocity has kept its size exactly (every
/// face is axis-aligned, seams included).
#[test]
fn balls_in_a_closed_box_of_tiles_keep_their_speed_exactly() {
    let (w, h) = (24, 16);
    let border = (0..w).flat_map(|c| (0..h).map(move |r| (c, r)));
    let border: Vec<_> = border
        .filter(|&(c, r)| c % (w - 1) == 0 || r % (h - 1) == 0)
        .collect();
    for seed in 0..4 {
        let mut rng = ChaCha8Rng::seed_from_u64(200 + seed);
        let mut app = app();
        let tiles = spawn_tiles(&mut app, border.iter().map(|&(c, r)| cell(c, r)));
        let mut balls = Vec::new();
        for shape in shapes().iter().cycle().take(14) {
            let angle = random_angle(&mut rng, shape);
            let at = DVec2::new(rng.random_range(30.0..350.0), rng.random_range(30.0..220.0));
            let v = random_velocity(&mut rng);
            balls.push((Mover::spawn(&mut app, shape, Kind::Bounce, at, angle, v), v));
        }
        for k in 0..150 {
            let before: Vec<_> = balls.iter().map(|(m, _)| m.place(&app).0).collect();
            tick(&mut app);
            for (i, (m, v)) in balls.iter().enumerate() {
                let place = m.place(&app);
                let (at, angle, ..) = place;
                let got = m.velocity(&app);
                let case = format!(
                    "seed {seed}, {:?} turned {angle} launched at {v}, tick {k}: from {} to \
                     {at}, velocity {got}",
                    m.shape, before[i]
                );
                m.assert_outside(&place, &tiles, &case);
                let inner = DVec2::new((w - 1) as f64, (h - 1) as f64) * T;
                assert_within(place.4, DVec2::splat(T), inner, &case);
                assert_eq!(got.abs(), v.abs(), "{case}: the speed changed");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Reproductions of what the checks above found wrong in the crate (each fails today).

/// An app with 16-unit tiles centred at `tiles`, and one mover.
fn scene(tiles: &[[f64; 2]], shape: Shape, kind: Kind, at: [f64; 2], v: [f32; 2]) -> (App, Mover) {
    let mut app = app();
    spawn_tiles(&mut app, tiles.iter().map(|&c| DVec2::from(c)));
    let m = Mover::spawn(&mut app, &shape, kind, DVec2::from(at), 0.0, Vec2::from(v));
    (app, m)
}

/// A seam does not turn a bounce: a circle bouncing with restitution 1 off a flat wall of two
/// stacked tiles (face x = 16, seam y = 64), 0.001 below the seam, comes straight back at
/// (640, 0). (It was turned by the upper tile's corner: (639.99994, -0.2132).)
#[test]
fn a_seam_does_not_turn_a_bounce_off_a_flat_wall_of_tiles() {
    let tiles = [[8.0, 56.0], [8.0, 72.0]];
    let circle = Shape::Circle(6.0);
    let (mut app, ball) = scene(&tiles, circle, Kind::Bounce, [30.0, 63.999], [-640.0, 0.0]);
    tick(&mut app);
    // Got (639.99994, -0.21321614): the normal of the corner (16, 64), not of the face.
    let case = "circle of 6 from (30, 63.999) at (-640, 0)";
    assert_eq!(ball.velocity(&app), Vec2::new(640.0, 0.0), "{case}");
}

/// A seam does not lift a slide: a circle sliding onto a floor of tiles (top y = 0, seams every
/// 16 from x = -4,000), 0.01 above it, lands and slides on at (15084, 0). (A seam kicked it up:
/// y = 6.00528, velocity (15084, 0.614).)
#[test]
fn a_seam_does_not_lift_a_circle_sliding_onto_a_floor_of_tiles() {
    let tiles: Vec<_> = (0..20)
        .map(|i| [-3992.0 + 16.0 * f64::from(i), -8.0])
        .collect();
    let v = [15084.0, -4.8896];
    let (mut app, ball) = scene(&tiles, Shape::Circle(6.0), Kind::Slide, [-3978.0, 6.01], v);
    tick(&mut app);
    // Got y = 6.00528, velocity (15084, 0.61377).
    let (now, got) = (ball.place(&app).0, ball.velocity(&app));
    let case = format!("circle of 6 from (-3978, 6.01) at {v:?}: at {now}, velocity {got}");
    let landed = (now.y - 6.0).abs() <= TOL && got == Vec2::new(15084.0, 0.0);
    assert!(landed, "{case}");
}

/// A seam does not throw a slide up: a slanted segment sliding with its lower end on a floor of
/// tiles (top y = 0) meets the next tile's corner (32, 0), level with the floor, and slides on
/// to (40, 0). (It was thrown up at 45°: (33.6, 3.2), velocity (128, 256).)
#[test]
fn a_seam_does_not_throw_up_a_segment_sliding_on_its_end() {
    let tiles = [[24.0, -8.0], [40.0, -8.0], [56.0, -8.0]];
    let blade = Shape::Segment(DVec2::new(-10.0, 5.0), DVec2::ZERO);
    let (mut app, blade) = scene(&tiles, blade, Kind::Slide, [30.0, 0.0], [640.0, 0.0]);
    tick(&mut app);
    // Got (33.6, 3.2), velocity (128, 256).
    let (now, got) = (blade.place(&app).0, blade.velocity(&app));
    let case = format!("its end from (30, 0) at (640, 0): at {now}, velocity {got}");
    assert!(now.distance(DVec2::new(40.0, 0.0)) <= TOL, "{case}");
}

/// A point moving along the seam between the two stacked tiles of a wall (face x = 12, seam
/// y = 0) stops at the wall (or bounces back), whatever answers it. (It went through: x = 10,
/// 20, 30, 40.)
#[test]
fn a_point_does_not_go_through_a_wall_of_tiles_along_a_seam() {
    for kind in KINDS {
        let tiles = [[20.0, 8.0], [20.0, -8.0]];
        let (mut app, bullet) = scene(&tiles, Shape::Point, kind, [0.0, 0.0], [640.0, 0.0]);
        for k in 0..4 {
            tick(&mut app);
            let now = bullet.place(&app).0;
            let case = format!("{kind:?} point from (0, 0) at (640, 0): tick {k} at {now}");
            assert!(now.x <= 12.0 + TOL, "{case}");
        }
    }
}

/// A slanted segment character falling at 10 units a tick beside a wall (face x = 16) onto
/// the corner (23, 16) of a step comes to rest on the corner, its skin off it. (It ended its
/// first tick 2.2 units inside the step.)
#[test]
fn a_character_falling_onto_a_corner_beside_a_wall_rests_on_it() {
    let shape = Shape::Segment(DVec2::new(-6.0, -2.0), DVec2::new(6.0, 2.0));
    let mut app = app();
    let tiles = spawn_tiles(&mut app, [0, 1, 2, 3, 4, 5].map(|row| cell(0, row)));
    let tiles = [tiles, spawn_tiles(&mut app, [DVec2::new(31.0, 8.0)])].concat();
    let (at, kind) = (DVec2::new(20.7, 30.0), Kind::Character);
    let hero = Mover::spawn(&mut app, &shape, kind, at, 0.44, Vec2::ZERO);
    for k in 0..4 {
        hero.set_velocity(&mut app, Vec2::new(0.0, -640.0));
        tick(&mut app);
        let place = hero.place(&app);
        let case = format!(
            "segment from {at} turned 0.44: tick {k}, ends {:?}",
            place.2
        );
        hero.assert_outside(&place, &tiles, &case);
    }
}
