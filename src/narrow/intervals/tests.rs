//! Hand-computed contact intervals for each pair; the plugin tests compare every pair with an
//! exact rational oracle on random input.

use super::*;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn still<const N: usize>(p: Vec2) -> [Vec2; 2] {
    [p; 2]
}

fn point(from: Vec2, to: Vec2) -> ShapePath {
    ShapePath::Point([from, to])
}

fn wall() -> ShapePath {
    ShapePath::Segment {
        a: still::<2>(v(0.0, -1.0)),
        b: still::<2>(v(0.0, 1.0)),
    }
}

fn unit_box(center: Vec2) -> ShapePath {
    ShapePath::Aabb {
        center: [center; 2],
        half_extents: Vec2::ONE,
    }
}

fn assert_intervals(a: &ShapePath, b: &ShapePath, expected: &[[f32; 2]]) {
    for (x, y) in [(a, b), (b, a)] {
        let got = contact_intervals(x, y);
        assert_eq!(got.len(), expected.len(), "{x:?} vs {y:?}: {got:?}");
        for (g, e) in got.iter().zip(expected) {
            assert!(
                (g[0] - e[0]).abs() < 1e-5 && (g[1] - e[1]).abs() < 1e-5,
                "{x:?} vs {y:?}: {got:?}, expected {expected:?}"
            );
        }
    }
}

#[test]
fn point_pairs() {
    let p = point(v(-5.0, 0.0), v(15.0, 0.0));
    assert_intervals(&p, &wall(), &[[0.25, 0.25]]);
    assert_intervals(&p, &point(v(0.0, 0.0), v(0.0, 0.0)), &[[0.25, 0.25]]);
    assert_intervals(&p, &point(v(0.0, 1.0), v(0.0, 1.0)), &[]);
    assert_intervals(&p, &unit_box(Vec2::ZERO), &[[0.2, 0.3]]);
    let disk = ShapePath::Circle {
        center: still::<2>(Vec2::ZERO),
        radius: 1.0,
    };
    assert_intervals(&p, &disk, &[[0.2, 0.3]]);
    // Two points moving together, coincident the whole step.
    let q = point(v(1.0, 1.0), v(2.0, 2.0));
    assert_intervals(&q, &q, &[[0.0, 1.0]]);
}

#[test]
fn solids_against_solids() {
    let disk = |x0: f32, x1: f32| ShapePath::Circle {
        center: [v(x0, 0.0), v(x1, 0.0)],
        radius: 1.0,
    };
    // Centres 2 apart at x = -7 + 20t: t = 0.25 and 0.45.
    assert_intervals(&disk(-7.0, 13.0), &disk(0.0, 0.0), &[[0.25, 0.45]]);
    // Box of half 1 moving through a box of half 1: |x| <= 2.
    let moving_box = ShapePath::Aabb {
        center: [v(-7.0, 0.0), v(13.0, 0.0)],
        half_extents: Vec2::ONE,
    };
    assert_intervals(&moving_box, &unit_box(Vec2::ZERO), &[[0.25, 0.45]]);
    // Circle past a box corner: centre on y = x + 2 line? Use a diagonal approach to the
    // corner (1, 1): centre from (4, 4) to (1, 1) touches when 3√2·(1 − t)... distance to the
    // corner √2·(4 − 3t − 1) = 1 → t = 1 − 1/(3√2).
    let circle = ShapePath::Circle {
        center: [v(4.0, 4.0), v(1.0, 1.0)],
        radius: 1.0,
    };
    let t = 1.0 - 1.0 / (3.0 * core::f32::consts::SQRT_2);
    assert_intervals(&circle, &unit_box(Vec2::ZERO), &[[t, 1.0]]);
    // Both moving the same way, touching all step.
    let a = ShapePath::Aabb {
        center: [v(0.0, 0.0), v(5.0, 5.0)],
        half_extents: Vec2::ONE,
    };
    let b = ShapePath::Aabb {
        center: [v(2.0, 0.0), v(7.0, 5.0)],
        half_extents: Vec2::ONE,
    };
    assert_intervals(&a, &b, &[[0.0, 1.0]]);
}

#[test]
fn segment_pairs() {
    // A vertical segment moving right through a still point, box, circle and segment.
    let blade = ShapePath::Segment {
        a: [v(-10.0, -1.0), v(10.0, -1.0)],
        b: [v(-10.0, 1.0), v(10.0, 1.0)],
    };
    assert_intervals(&blade, &point(v(5.0, 0.0), v(5.0, 0.0)), &[[0.75, 0.75]]);
    assert_intervals(&blade, &unit_box(v(5.0, 0.0)), &[[0.7, 0.8]]);
    let disk = ShapePath::Circle {
        center: still::<2>(v(5.0, 0.0)),
        radius: 1.0,
    };
    assert_intervals(&blade, &disk, &[[0.7, 0.8]]);
    let other = ShapePath::Segment {
        a: still::<2>(v(4.0, 0.0)),
        b: still::<2>(v(6.0, 0.0)),
    };
    assert_intervals(&blade, &other, &[[0.7, 0.8]]);
    // A horizontal segment sliding over a circle's top: tangent while its x-range covers 0,
    // from t = 1/6 (right end reaches x = 0) to t = 1/2 (left end leaves it).
    let rail = ShapePath::Segment {
        a: [v(-3.0, 1.0), v(3.0, 1.0)],
        b: [v(-1.0, 1.0), v(5.0, 1.0)],
    };
    let origin_disk = ShapePath::Circle {
        center: still::<2>(Vec2::ZERO),
        radius: 1.0,
    };
    assert_intervals(&rail, &origin_disk, &[[1.0 / 6.0, 0.5]]);
}

#[test]
fn turning_segment_grazes_a_circle_once() {
    // Segment from (-4, 2) with its far end swinging down from (4, 2) to (4, -6): it turns
    // and stretches through the circle of radius 1 at (2, 0). It first touches when the
    // circle is tangent to its interior (the quartic) and last touches when it is tangent
    // on the other side; compared with a dense scan of the static distance.
    let swing = ShapePath::Segment {
        a: still::<2>(v(-4.0, 2.0)),
        b: [v(4.0, 2.0), v(4.0, -6.0)],
    };
    let disk = ShapePath::Circle {
        center: still::<2>(v(2.0, 0.0)),
        radius: 1.0,
    };
    let got = contact_intervals(&swing, &disk);
    assert_eq!(got.len(), 1, "{got:?}");
    // Dense check of the first contact with the static distance.
    let touching: Vec<f32> = (0..=100_000)
        .map(|i| i as f32 / 100_000.0)
        .filter(|&t| {
            let Shape::Segment(a, b) = swing.at(t) else {
                unreachable!()
            };
            distance_to_segment(v(2.0, 0.0), a, b) <= 1.0
        })
        .collect();
    let (first, last) = (touching[0], touching[touching.len() - 1]);
    assert!((got[0][0] - first).abs() < 2e-5, "{got:?} vs {first}");
    assert!((got[0][1] - last).abs() < 2e-5, "{got:?} vs {last}");
    assert!(last < 1.0, "the swing passes the circle and leaves it");
}

#[test]
fn raise_motion_crosses_twice() {
    // The "raise" motion: one endpoint still, the other rising so the segment sweeps up
    // through a point and, as it stretches, back down across it.
    let seg = ShapePath::Segment {
        a: still::<2>(v(0.0, 0.0)),
        b: [v(10.0, -5.0), v(2.0, 5.0)],
    };
    let p = point(v(4.0, 1.0), v(4.0, 1.0));
    let got = contact_intervals(&seg, &p);
    // Dense sign changes of the cross product with the point between the endpoints.
    let side = |t: f32| {
        let Shape::Segment(a, b) = seg.at(t) else {
            unreachable!()
        };
        (b - a).perp_dot(v(4.0, 1.0) - a) > 0.0
    };
    let changes = (0..10_000)
        .filter(|&i| side(i as f32 / 1e4) != side((i + 1) as f32 / 1e4))
        .count();
    assert!(changes >= 1);
    assert!(got.iter().all(|i| i[0] == i[1]), "{got:?}");
    assert!(got.len() <= changes, "{got:?} vs {changes} sign changes");
}

#[test]
fn invalid_paths_never_touch() {
    let bad = ShapePath::Circle {
        center: still::<2>(Vec2::ZERO),
        radius: -1.0,
    };
    assert!(contact_intervals(&bad, &point(Vec2::ZERO, Vec2::ZERO)).is_empty());
    let nan = point(v(f32::NAN, 0.0), Vec2::ZERO);
    assert!(contact_intervals(&nan, &wall()).is_empty());
}

use super::super::shape::Shape;

#[test]
fn sliding_along_a_line_starts_and_ends_at_the_endpoints() {
    // A horizontal segment of length 2 moving right along its own line over a still point at
    // the origin: centre x = -5 + 20t, contact while |x| <= 1.
    let rod = ShapePath::Segment {
        a: [v(-6.0, 0.0), v(14.0, 0.0)],
        b: [v(-4.0, 0.0), v(16.0, 0.0)],
    };
    assert_intervals(&rod, &point(Vec2::ZERO, Vec2::ZERO), &[[0.2, 0.3]]);
    // Over a still collinear segment of length 2 around the origin: |x| <= 2.
    let track = ShapePath::Segment {
        a: still::<2>(v(-1.0, 0.0)),
        b: still::<2>(v(1.0, 0.0)),
    };
    assert_intervals(&rod, &track, &[[0.15, 0.35]]);
}

#[test]
fn near_misses_within_rounding_are_not_contacts() {
    // A still segment one ulp above a box's top face: apart at both ends and throughout.
    let above = 1.0 + f32::EPSILON;
    let rail = ShapePath::Segment {
        a: still::<2>(v(-2.0, above)),
        b: still::<2>(v(2.0, above)),
    };
    assert_intervals(&rail, &unit_box(Vec2::ZERO), &[]);
    // Two parallel still segments an ulp apart.
    let other = ShapePath::Segment {
        a: still::<2>(v(-2.0, 1.0)),
        b: still::<2>(v(2.0, 1.0)),
    };
    assert_intervals(&rail, &other, &[]);
    // A circle an ulp-scale distance from a still segment's line.
    let disk = ShapePath::Circle {
        center: still::<2>(Vec2::ZERO),
        radius: 1.0 - f32::EPSILON,
    };
    assert_intervals(&other, &disk, &[]);
}

/// A pair with at least one segment, placed so that the two bounding disks of
/// [`disks_stay_apart`] touch exactly when the shapes do: the segment points along a
/// direction `u` at the other shape's nearest point (a point, a circle's rim, a box corner,
/// another segment's end), from a gap a few rounding steps either side of zero (or a clear
/// one). Three ways of moving, each tight where the disks are closest:
/// - head on: the gap closes along `u` at a random rate, or opens;
/// - grazing: the other shape passes sideways across the segment's line, closest to the
///   segment's tip half way through the step;
/// - stretching: the segment grows during the step (its disk has the larger half length)
///   and reaches the still other shape, if at all, at the end.
///
/// Sizes and positions span six orders of magnitude; some segments also turn a little.
fn disks_touch_when_shapes_do(rng: &mut impl rand::Rng) -> (ShapePath, ShapePath) {
    let k = 10f32.powf(rng.random_range(-2.0..4.0));
    let mut u = Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU));
    let origin = Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
        * k
        * [1.0, 100.0, 1000.0][rng.random_range(0..3)];
    let gap =
        k * [0.0, 1e-7, -1e-7, 1e-6, -1e-6, 1e-5, 1e-3, 0.1, 1.0, 5.0][rng.random_range(0..10)];
    let velocity = Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * k;
    let kind = rng.random_range(0..4);
    // The box's corner nearest the segment lies on the segment's line: `u` along a diagonal.
    let size = rng.random_range(0.1..2.0) * k;
    let diagonal = Vec2::new(u.x.signum(), u.y.signum()) * size;
    if kind == 2 {
        u = diagonal.normalize();
    }
    let h = k * rng.random_range(0.5..2.0);
    let (mode, other_motion, h_end) = match rng.random_range(0..3) {
        0 => {
            let closing = rng.random_range(-1.0..3.0);
            ("head on", -u * (gap * closing), h)
        }
        1 => {
            let across = u.perp() * (k * rng.random_range(0.1..4.0));
            ("grazing", across, h)
        }
        _ => ("stretching", Vec2::ZERO, h * rng.random_range(1.0..1.5)),
    };
    let turn = if rng.random_bool(0.3) {
        rng.random_range(-0.01..0.01)
    } else {
        0.0
    };
    let end = Vec2::from_angle(turn).rotate(u) * h_end;
    let segment = ShapePath::Segment {
        a: [origin - u * h, origin + velocity - end],
        b: [origin + u * h, origin + velocity + end],
    };
    // Where the other shape's nearest point is half way through a grazing pass, else at
    // the start: `gap` beyond the segment's tip (at the end, for a stretching segment).
    let near = origin + u * (h_end + gap);
    let moved = |p: Vec2| {
        let start = if mode == "grazing" {
            p - other_motion * 0.5
        } else {
            p
        };
        [start, start + velocity + other_motion]
    };
    let other = match kind {
        0 => ShapePath::Point(moved(near)),
        1 => {
            let radius = k * rng.random_range(0.1..2.0);
            ShapePath::Circle {
                center: moved(near + u * radius),
                radius,
            }
        }
        2 => ShapePath::Aabb {
            center: moved(near + diagonal),
            half_extents: diagonal.abs(),
        },
        _ => {
            let h2 = k * rng.random_range(0.5..2.0);
            let center = near + u * h2;
            ShapePath::Segment {
                a: moved(center - u * h2),
                b: moved(center + u * h2),
            }
        }
    };
    (segment, other)
}

/// [`disks_stay_apart`] leaves out only pairs that the solvers find apart: on random pairs
/// placed to touch within a few rounding steps (where the disks are tangent just as the
/// shapes are), in both orders.
#[test]
fn the_disk_shortcut_never_drops_a_contact() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0xd15c);
    let (mut left_out, mut touching) = (0, 0);
    for case in 0..40_000 {
        let (a, b) = disks_touch_when_shapes_do(&mut rng);
        let (a, b) = if case % 2 == 0 { (a, b) } else { (b, a) };
        let (first, second) = if a.rank() <= b.rank() {
            (&a, &b)
        } else {
            (&b, &a)
        };
        let exact = solve(first, second);
        touching += usize::from(!exact.is_empty());
        if disks_stay_apart(&a, &b) {
            left_out += 1;
            assert!(
                exact.is_empty(),
                "left out a touching pair: {a:?} {b:?}: {:?}",
                &exact[..]
            );
        }
    }
    // Both ways are exercised: pairs left out, and pairs that touch.
    assert!(
        left_out > 2_000 && touching > 5_000,
        "{left_out} left out, {touching} touching"
    );
}

/// A coordinate for [`skipped_pieces_cannot_touch`]: small integers and halves (exact
/// touches at hull edges, corners on lines), or a random float.
fn grid_or_float(rng: &mut impl rand::Rng, grid: bool) -> f32 {
    if grid {
        rng.random_range(-8..=8) as f32 * 0.5
    } else {
        rng.random_range(-4.0..4.0)
    }
}

/// What the solvers skip could not have touched: an endpoint's or a corner's path that
/// [stays out](stays_out) of a segment's hull (grown by the solvers' own margins,
/// [`segment_pair_margin`] and [`segment_box_margin`]) never lies on the segment (its sweep finds nothing), and the disk of a rounded
/// box's corner that the path does not [go beyond](goes_beyond) adds nothing to the interval
/// found. On shapes placed on a grid of halves (so endpoints and corners meet hull
/// edges exactly) and at random; each skip is exercised thousands of times. (The solvers'
/// answers themselves are held to the exact oracle in `tests/plugin`.)
#[test]
fn skipped_pieces_cannot_touch() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0xfa5);
    // Skips tested, of each kind: endpoint, corner, corner disk.
    let mut skipped = [0; 3];
    for case in 0..60_000 {
        let grid = case % 3 != 0;
        let mut path = || {
            let mut p = || v(grid_or_float(&mut rng, grid), grid_or_float(&mut rng, grid));
            [p(), p()]
        };
        let (a, b, c, d) = (path(), path(), path(), path());
        let half = v(
            grid_or_float(&mut rng, grid).abs() + 0.5,
            grid_or_float(&mut rng, grid).abs() + 0.5,
        );
        let radius = grid_or_float(&mut rng, grid).abs() + 0.5;
        let what = || format!("{a:?} {b:?} {c:?} {d:?} {half:?} {radius}");

        // Segment against segment: `segment_segment`'s hulls and margin.
        let margin = segment_pair_margin([a, b, c, d]);
        for (seg, point) in [((a, b), c), ((a, b), d), ((c, d), a), ((c, d), b)] {
            if stays_out(point, &hull(&[seg.0, seg.1]), margin) {
                skipped[0] += 1;
                assert!(
                    sweep_point_segment(seg.0, seg.1, point).is_empty(),
                    "endpoint {point:?} on {seg:?}: {}",
                    what()
                );
            }
        }
        // Segment against a box centred on `c`: `segment_box`'s frame, hull and margin.
        let grow = segment_box_margin([a, b, c], half);
        let (rel_a, rel_b) = (relative(a, c), relative(b, c));
        let signs = [
            Vec2::ONE,
            -Vec2::ONE,
            Vec2::new(1.0, -1.0),
            Vec2::new(-1.0, 1.0),
        ];
        for sign in signs {
            let corner = [sign * half; 2];
            if stays_out(corner, &hull(&[rel_a, rel_b]), grow) {
                skipped[1] += 1;
                assert!(
                    sweep_point_segment(rel_a, rel_b, corner).is_empty(),
                    "corner {sign:?}: {}",
                    what()
                );
            }
        }
        // A point against a rounded box: the interval found holds every disk skipped.
        let found = rounded_box_interval(a, half, radius);
        for sign in signs {
            if goes_beyond(a, half, sign) {
                continue;
            }
            let Some(disk) = disk_interval_at(a, sign * half, radius) else {
                continue;
            };
            skipped[2] += 1;
            // (Within rounding of the times: where the disk meets a grown box's side both
            // intervals end at the same moment, computed two ways.)
            assert!(
                found.is_some_and(|f| f[0] <= disk[0] + 1e-6 && disk[1] <= f[1] + 1e-6),
                "disk {sign:?} {disk:?} outside {found:?}: {}",
                what()
            );
        }
    }
    assert!(skipped.iter().all(|&n| n > 5_000), "{skipped:?}");
}

/// The foot filter of the tangency quartic leaves out only quartics whose every root would be
/// left out for its foot: on random segments turning and stretching against random points,
/// every time the filter says the foot stays off the segment, the roots of the quartic
/// (solved anyway, as without the filter) all have their feet off it.
#[test]
fn the_foot_filter_leaves_out_only_roots_that_would_be_dropped() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0xf007);
    let (mut filtered, mut roots_seen) = (0, 0);
    for _ in 0..100_000 {
        let mut p = || v(rng.random_range(-10.0..10.0), rng.random_range(-10.0..10.0));
        let (a, b, c) = ([p(), p()], [p(), p()], [p(), p()]);
        let radius = rng.random_range(0.01f32..3.0);
        let f = |p: [Vec2; 2]| (p[0].as_dvec2(), p[1].as_dvec2() - p[0].as_dvec2());
        let ((a0, da), (b0, db), (c0, dc)) = (f(a), f(b), f(c));
        let (d0, dd, e0, de) = (b0 - a0, db - da, c0 - a0, dc - da);
        let l = [d0.dot(d0), 2.0 * d0.dot(dd), dd.dot(dd)];
        if !foot_stays_off(e0, de, d0, dd, l) {
            continue;
        }
        filtered += 1;
        // The quartic without the filter, and the feet of its roots.
        let q = [
            d0.perp_dot(e0),
            d0.perp_dot(de) + dd.perp_dot(e0),
            dd.perp_dot(de),
        ];
        let r2 = f64::from(radius) * f64::from(radius);
        let g: Poly = [
            q[0] * q[0] - r2 * l[0],
            2.0 * q[0] * q[1] - r2 * l[1],
            q[1] * q[1] + 2.0 * q[0] * q[2] - r2 * l[2],
            2.0 * q[1] * q[2],
            q[2] * q[2],
        ];
        let (roots, n) = roots_in_unit(&g, 0.0);
        for &t in &roots[..n] {
            roots_seen += 1;
            let (d, e) = (d0 + dd * t, e0 + de * t);
            let foot = e.dot(d) / d.length_squared();
            assert!(
                !(-1e-6..=1.0 + 1e-6).contains(&foot),
                "{a:?} {b:?} {c:?} r {radius}: a root at {t} has its foot at {foot}"
            );
        }
    }
    assert!(
        filtered > 2_000 && roots_seen > 1_000,
        "{filtered} filtered, {roots_seen} roots"
    );
}
