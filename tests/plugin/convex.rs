//! The general solver for rounded convex polygons
//! ([`convex_contact_intervals`]) against two other routes: the exact oracle's formula for
//! polygons, and, for the four basic shapes written as polygons, their own solvers.
//!
//! Shapes are rigid (each pose is the shape turned and moved, rounded to `f32`, as the
//! plugin builds it from a transform), on random, grid-aligned and adversarial cases:
//! grazes at a corner, contact exactly at the start or end of the tick, a pass-through
//! inside one tick, and pure rotation about a vertex.

use super::oracle::convex_contact_intervals as exact;
use crate::common::intervals_close;
use bevy::prelude::*;
use bevy_sweep::narrow::{
    ConvexPath, ConvexVertices, ShapePath, contact_intervals, convex_contact_intervals,
};
use core::f32::consts::{FRAC_PI_2, PI, TAU};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A shape in local space: its core's vertices and its radius.
#[derive(Clone, Debug)]
struct Local {
    vertices: Vec<Vec2>,
    radius: f32,
}

impl Local {
    fn polygon(vertices: &[Vec2], radius: f32) -> Self {
        Self {
            vertices: vertices.to_vec(),
            radius,
        }
    }

    /// The vertices' paths from one pose (angle, position) to another.
    fn moving(&self, from: (f32, Vec2), to: (f32, Vec2)) -> Vec<[Vec2; 2]> {
        let place = |(angle, at): (f32, Vec2), v: Vec2| Vec2::from_angle(angle).rotate(v) + at;
        self.vertices
            .iter()
            .map(|&v| [place(from, v), place(to, v)])
            .collect()
    }
}

/// A random shape of every kind the general solver serves: point, disk, segment, capsule,
/// triangle, oriented box, rounded box, regular polygon of 5–8 vertices.
fn random_shape(rng: &mut ChaCha8Rng) -> Local {
    let size = |rng: &mut ChaCha8Rng| rng.random_range(0.5..12.0);
    match rng.random_range(0..8) {
        0 => Local::polygon(&[Vec2::ZERO], 0.0),
        1 => Local::polygon(&[Vec2::ZERO], size(rng)),
        2 | 3 => {
            let half = size(rng);
            let radius = if rng.random_bool(0.5) {
                0.0
            } else {
                size(rng) / 3.0
            };
            Local::polygon(&[Vec2::new(-half, 0.0), Vec2::new(half, 0.0)], radius)
        }
        4 => {
            let s = size(rng);
            Local::polygon(
                &[Vec2::new(-s, -s), Vec2::new(s, -s * 0.5), Vec2::new(0.0, s)],
                0.0,
            )
        }
        5 | 6 => {
            let h = Vec2::new(size(rng), size(rng));
            let radius = if rng.random_bool(0.5) {
                0.0
            } else {
                size(rng) / 4.0
            };
            Local::polygon(
                &[
                    Vec2::new(-h.x, -h.y),
                    Vec2::new(h.x, -h.y),
                    Vec2::new(h.x, h.y),
                    Vec2::new(-h.x, h.y),
                ],
                radius,
            )
        }
        _ => {
            let n = rng.random_range(5..=8);
            let r = size(rng);
            let vertices: Vec<Vec2> = (0..n)
                .map(|i| Vec2::from_angle(TAU * i as f32 / n as f32) * r)
                .collect();
            Local::polygon(&vertices, 0.0)
        }
    }
}

/// Same contact intervals as the oracle, each end within `1e-5` (as the other pairs' oracle
/// tests ask). Returns how many intervals there were.
#[track_caller]
fn check(a: &[[Vec2; 2]], ra: f32, b: &[[Vec2; 2]], rb: f32, what: &str) -> usize {
    let got = convex_contact_intervals(
        &ConvexPath {
            vertices: a,
            radius: ra,
        },
        &ConvexPath {
            vertices: b,
            radius: rb,
        },
    );
    let want = exact(a, ra, b, rb);
    assert!(
        intervals_close(&got, &want, 1e-5),
        "{what}:\n  a {a:?} r {ra}\n  b {b:?} r {rb}\n   got {got:?}\n  want {want:?}"
    );
    want.len()
}

fn random_pose(rng: &mut ChaCha8Rng, spread: f32) -> (f32, Vec2) {
    (
        rng.random_range(0.0..TAU),
        Vec2::new(
            rng.random_range(-spread..spread),
            rng.random_range(-spread..spread),
        ),
    )
}

/// The pose after a step: moved by up to `reach` and turned by less than half a turn
/// (sometimes not at all).
fn next_pose(rng: &mut ChaCha8Rng, (angle, at): (f32, Vec2), reach: f32) -> (f32, Vec2) {
    let turn = if rng.random_bool(0.3) {
        0.0
    } else {
        rng.random_range(-2.5..2.5)
    };
    let motion = Vec2::new(
        rng.random_range(-reach..reach),
        rng.random_range(-reach..reach),
    );
    (angle + turn, at + motion)
}

#[test]
fn random_rigid_polygons_match_the_exact_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xc0_4e7);
    let mut touching = 0;
    for case in 0..400 {
        let (a, b) = (random_shape(&mut rng), random_shape(&mut rng));
        let (fa, fb) = (random_pose(&mut rng, 15.0), random_pose(&mut rng, 15.0));
        let (ta, tb) = (next_pose(&mut rng, fa, 30.0), next_pose(&mut rng, fb, 30.0));
        touching += check(
            &a.moving(fa, ta),
            a.radius,
            &b.moving(fb, tb),
            b.radius,
            &format!("case {case}"),
        );
    }
    // The cases must exercise contact, not only misses.
    assert!(touching > 100, "only {touching} contact intervals");
}

#[test]
fn grid_aligned_polygons_match_the_exact_oracle() {
    // Integer coordinates and quarter turns: vertices land exactly on edges and on each
    // other, edges lie along each other.
    let mut rng = ChaCha8Rng::seed_from_u64(0x9_41d);
    let square = Local::polygon(
        &[
            Vec2::new(-2.0, -2.0),
            Vec2::new(2.0, -2.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(-2.0, 2.0),
        ],
        0.0,
    );
    let triangle = Local::polygon(
        &[
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(0.0, 4.0),
        ],
        0.0,
    );
    let segment = Local::polygon(&[Vec2::new(-3.0, 0.0), Vec2::new(3.0, 0.0)], 0.0);
    let point = Local::polygon(&[Vec2::ZERO], 0.0);
    let shapes = [square, triangle, segment, point];
    let grid = |rng: &mut ChaCha8Rng| {
        Vec2::new(
            rng.random_range(-6..=6) as f32,
            rng.random_range(-6..=6) as f32,
        )
    };
    let mut touching = 0;
    for case in 0..400 {
        let a = &shapes[rng.random_range(0..shapes.len())];
        let b = &shapes[rng.random_range(0..shapes.len())];
        let quarter = |rng: &mut ChaCha8Rng| FRAC_PI_2 * rng.random_range(0..4) as f32;
        // Quarter turns only at the ends, with no turn in between, so every vertex is on
        // the grid at both ends.
        let (qa, qb) = (quarter(&mut rng), quarter(&mut rng));
        let (fa, fb) = ((qa, grid(&mut rng)), (qb, grid(&mut rng)));
        let (ta, tb) = ((qa, grid(&mut rng)), (qb, grid(&mut rng)));
        let rounded = |p: Vec<[Vec2; 2]>| -> Vec<[Vec2; 2]> {
            p.into_iter().map(|v| v.map(|x| x.round())).collect()
        };
        touching += check(
            &rounded(a.moving(fa, ta)),
            0.0,
            &rounded(b.moving(fb, tb)),
            0.0,
            &format!("grid case {case}"),
        );
    }
    assert!(touching > 100, "only {touching} contact intervals");
}

#[test]
fn adversarial_polygon_contacts_match_the_exact_oracle() {
    let square = [
        Vec2::new(-1.0, -1.0),
        Vec2::new(1.0, -1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(-1.0, 1.0),
    ];
    let still = |ps: &[Vec2]| ps.iter().map(|&p| [p, p]).collect::<Vec<_>>();
    let shifted = |ps: &[Vec2], from: Vec2, to: Vec2| {
        ps.iter().map(|&p| [p + from, p + to]).collect::<Vec<_>>()
    };

    // A square grazing a point at its corner mid-step: the corner passes exactly through
    // (3, 3) at t = 0.5.
    let graze = shifted(&square, Vec2::new(0.0, 2.0), Vec2::new(4.0, 2.0));
    assert_eq!(
        check(
            &graze,
            0.0,
            &still(&[Vec2::new(3.0, 3.0)]),
            0.0,
            "corner graze"
        ),
        1
    );
    // Touching exactly at the end of the step (edge on edge), and exactly at the start.
    let arriving = shifted(&square, Vec2::new(-4.0, 0.3), Vec2::new(-2.0, 0.3));
    assert_eq!(
        check(&arriving, 0.0, &still(&square), 0.0, "touch at end"),
        1
    );
    let leaving = shifted(&square, Vec2::new(-2.0, 0.3), Vec2::new(-4.0, 0.3));
    assert_eq!(
        check(&leaving, 0.0, &still(&square), 0.0, "touch at start"),
        1
    );
    // A rounded square arriving exactly at distance 1 at the end.
    let near = shifted(&square, Vec2::new(-6.0, 0.0), Vec2::new(-3.0, 0.0));
    assert_eq!(check(&near, 1.0, &still(&square), 0.0, "rounded at end"), 1);

    // Pass-through inside one tick: a triangle crossing a thin still segment at speed.
    let triangle = [
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(1.0, 2.0),
    ];
    let through = shifted(&triangle, Vec2::new(-1e4, 0.0), Vec2::new(1e4, 0.0));
    let wall = still(&[Vec2::new(0.0, -5.0), Vec2::new(0.0, 5.0)]);
    assert_eq!(check(&through, 0.0, &wall, 0.0, "pass-through"), 1);

    // Pure rotation about a vertex: a bar turning a quarter turn about its end at the
    // origin sweeps over a point at distance 3.
    let bar = Local::polygon(
        &[
            Vec2::new(0.0, -0.5),
            Vec2::new(5.0, -0.5),
            Vec2::new(5.0, 0.5),
            Vec2::new(0.0, 0.5),
        ],
        0.0,
    );
    let turning = bar.moving((0.0, Vec2::ZERO), (FRAC_PI_2, Vec2::ZERO));
    let target = Vec2::from_angle(PI / 4.0) * 3.0;
    assert_eq!(check(&turning, 0.0, &still(&[target]), 0.0, "rotation"), 1);
    // ... and a square turning about its corner, which touches another square's corner
    // all step and nothing more.
    let corner_first = square.map(|v| v + Vec2::ONE);
    let pivot = Local::polygon(&corner_first, 0.0).moving((0.0, Vec2::ONE), (1.0, Vec2::ONE));
    assert_eq!(pivot[0], [Vec2::ONE; 2]);
    assert_eq!(check(&pivot, 0.0, &still(&square), 0.0, "corner pivot"), 1);
}

/// A fast bullet never passes a turning rectangle, a capsule or a polygon unseen, and its
/// time of impact is where the geometry says.
#[test]
fn bullets_at_a_million_units_per_second_hit_every_shape() {
    // 10^6 units/s at 64 ticks/s: 15,625 units in one step, from x = -7812.5 to 7812.5.
    let step = 1e6 / 64.0;
    let bullet = [[Vec2::new(-step / 2.0, 0.25), Vec2::new(step / 2.0, 0.25)]];
    let rectangle = Local::polygon(
        &[
            Vec2::new(-2.0, -8.0),
            Vec2::new(2.0, -8.0),
            Vec2::new(2.0, 8.0),
            Vec2::new(-2.0, 8.0),
        ],
        0.0,
    );
    let capsule = Local::polygon(&[Vec2::new(0.0, -6.0), Vec2::new(0.0, 6.0)], 1.5);
    let hexagon = Local::polygon(
        &(0..6)
            .map(|i| Vec2::from_angle(TAU * i as f32 / 6.0) * 3.0)
            .collect::<Vec<_>>(),
        0.0,
    );
    for (name, shape) in [
        ("rectangle", rectangle),
        ("capsule", capsule),
        ("hexagon", hexagon),
    ] {
        // Turning by 0.4 rad during the step around the origin.
        let path = shape.moving((0.0, Vec2::ZERO), (0.4, Vec2::ZERO));
        let hits = convex_contact_intervals(
            &ConvexPath {
                vertices: &bullet,
                radius: 0.0,
            },
            &ConvexPath {
                vertices: &path,
                radius: shape.radius,
            },
        );
        assert_eq!(hits.len(), 1, "{name}: {hits:?}");
        // The bullet is within a few units of the origin while t is within 1e-3 of 0.5.
        assert!((hits[0][0] - 0.5).abs() < 1e-3, "{name}: {hits:?}");
        assert!(hits[0][1] > hits[0][0], "{name}: {hits:?}");
        check(&bullet, 0.0, &path, shape.radius, name);
    }
}

/// The basic shapes written as polygons (a point, a disk, a segment, an axis-aligned box's
/// four corners) give what their own solvers give.
#[test]
fn basic_shapes_as_polygons_match_their_own_solvers() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xba_51c);
    let mut touching = 0;
    for case in 0..600 {
        let pick = |rng: &mut ChaCha8Rng| {
            let from = Vec2::new(rng.random_range(-8.0..8.0), rng.random_range(-8.0..8.0));
            let to = from + Vec2::new(rng.random_range(-12.0..12.0), rng.random_range(-12.0..12.0));
            match rng.random_range(0..4) {
                0 => ShapePath::Point([from, to]),
                1 => {
                    let (d0, d1) = (
                        Vec2::from_angle(rng.random_range(0.0..TAU)) * rng.random_range(0.5..6.0),
                        Vec2::from_angle(rng.random_range(0.0..TAU)) * rng.random_range(0.5..6.0),
                    );
                    ShapePath::Segment {
                        a: [from - d0, to - d1],
                        b: [from + d0, to + d1],
                    }
                }
                2 => ShapePath::Circle {
                    center: [from, to],
                    radius: rng.random_range(0.5..6.0),
                },
                _ => ShapePath::Aabb {
                    center: [from, to],
                    half_extents: Vec2::new(rng.random_range(0.5..6.0), rng.random_range(0.5..6.0)),
                },
            }
        };
        let (a, b) = (pick(&mut rng), pick(&mut rng));
        let want = contact_intervals(&a, &b);
        let (pa, pb) = (ConvexVertices::from(&a), ConvexVertices::from(&b));
        let got = convex_contact_intervals(&pa.path(), &pb.path());
        let close = got.len() == want.len()
            && got
                .iter()
                .zip(want.iter())
                .all(|(g, w)| (g[0] - w[0]).abs() < 1e-5 && (g[1] - w[1]).abs() < 1e-5);
        assert!(
            close,
            "case {case}: {a:?} vs {b:?}\n  got {got:?}\n want {want:?}"
        );
        touching += want.len();
    }
    assert!(touching > 150, "only {touching} contact intervals");
}
