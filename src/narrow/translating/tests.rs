//! The closed forms against the general solver, on pairs built the way the plugin builds
//! them (a segment's endpoints are its rotated offsets plus the translation, rounded to `f32`
//! at each end of the tick, so a translating segment is rigid only up to rounding). The plugin
//! tests compare the whole narrow phase with an exact rational oracle.

use super::super::intervals::solve;
use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A segment of half length `half` at `angle` around a centre moving `from → to`.
fn segment(from: Vec2, to: Vec2, angle: f32, half: f32) -> ShapePath {
    let offset = Vec2::from_angle(angle) * half;
    ShapePath::Segment {
        a: [from - offset, to - offset],
        b: [from + offset, to + offset],
    }
}

fn other(kind: u8, from: Vec2, to: Vec2, rng: &mut ChaCha8Rng, grid: bool) -> ShapePath {
    let size = |rng: &mut ChaCha8Rng| {
        if grid {
            f32::from(rng.random_range(1u8..=8)) * 0.5
        } else {
            rng.random_range(0.5..20.0)
        }
    };
    match kind {
        0 => ShapePath::Point([from, to]),
        1 => {
            let angle = if grid {
                f32::from(rng.random_range(0u8..4)) * core::f32::consts::FRAC_PI_2
            } else {
                rng.random_range(0.0..core::f32::consts::TAU)
            };
            segment(from, to, angle, size(rng))
        }
        2 => ShapePath::Circle {
            center: [from, to],
            radius: size(rng),
        },
        _ => ShapePath::Aabb {
            center: [from, to],
            half_extents: v(size(rng), size(rng)),
        },
    }
}

/// A segment that stands still or translates, and a shape of `kind` moving near it, at
/// coordinates around `offset`; on a half-unit grid (touches at the ends of the tick, along
/// edges, through corners) or anywhere.
fn pair(rng: &mut ChaCha8Rng, kind: u8, offset: f32, grid: bool) -> (ShapePath, ShapePath) {
    let coordinate = |rng: &mut ChaCha8Rng, range: f32| {
        if grid {
            f32::from(rng.random_range(-16i8..=16)) * 0.5 * range / 8.0
        } else {
            rng.random_range(-range..range)
        }
    };
    let base = v(offset, -offset);
    let from = base + v(coordinate(rng, 10.0), coordinate(rng, 10.0));
    let still = rng.random_bool(0.3);
    let to = if still {
        from
    } else {
        from + v(coordinate(rng, 4.0), coordinate(rng, 4.0))
    };
    let angle = if grid {
        f32::from(rng.random_range(0u8..8)) * core::f32::consts::FRAC_PI_4
    } else {
        rng.random_range(0.0..core::f32::consts::TAU)
    };
    let s = segment(
        from,
        to,
        angle,
        if grid {
            4.0
        } else {
            rng.random_range(1.0..30.0)
        },
    );
    let start = base + v(coordinate(rng, 30.0), coordinate(rng, 30.0));
    let end = start + v(coordinate(rng, 60.0), coordinate(rng, 60.0));
    (s, other(kind, start, end, rng, grid))
}

/// The closed form's answer, where it gives one, is the general solver's: no contact where it
/// finds none, and otherwise one interval with the same ends within `tolerance` (the general
/// solver's midpoint tests may stretch a contact that begins a few `1e-8` into the tick back
/// to its start; the plugin tests hold both to the exact oracle).
#[track_caller]
fn check(a: &ShapePath, b: &ShapePath, tolerance: f32) -> bool {
    let (a, b) = if a.rank() <= b.rank() { (a, b) } else { (b, a) };
    let Some(answer) = translating(a, b) else {
        return false;
    };
    let general = solve(a, b);
    match answer {
        None => assert!(general.is_empty(), "{a:?} {b:?}: none, general {general:?}"),
        Some([first, last]) => {
            assert_eq!(
                general.len(),
                1,
                "{a:?} {b:?}: [{first}, {last}], general {general:?}"
            );
            let [g0, g1] = general[0];
            assert!(
                (first - g0).abs() <= tolerance && (last - g1).abs() <= tolerance,
                "{a:?} {b:?}: [{first}, {last}], general {general:?}"
            );
        }
    }
    true
}

/// Random and grid pairs of every kind, near the origin and at coordinates around 3,000 (where
/// a translating segment's rounding is a few ten-thousandths): every answer agrees with the
/// general solver, and the closed forms decide most pairs.
#[test]
fn agrees_with_the_general_solver() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7a5e);
    for kind in 0..4u8 {
        for (offset, grid) in [(0.0, false), (0.0, true), (3000.0, false), (3000.0, true)] {
            let (mut decided, mut touching, mut n) = (0, 0, 0);
            for _ in 0..4000 {
                let (a, b) = pair(&mut rng, kind, offset, grid);
                let touches = !super::super::contact_intervals(&a, &b).is_empty();
                touching += usize::from(touches);
                // The general solver rounds some positions to `f32` (a box's corners, paths
                // relative to each other): at 3,000 that is `1e-4` units, and its times carry
                // that over the speed across (the exact oracle of the plugin tests holds the
                // closed forms to `1e-6` there).
                if check(&a, &b, if offset == 0.0 { 2e-6 } else { 1e-4 }) {
                    decided += 1;
                }
                n += 1;
            }
            // On the grid many contacts begin or end exactly at the tick's ends or graze, and
            // are left to the general solver; elsewhere nearly all are decided.
            let least = if grid { n / 2 } else { n * 9 / 10 };
            assert!(
                decided >= least,
                "kind {kind} at {offset} (grid {grid}): {decided} of {n} decided, {touching} touching"
            );
        }
    }
}

#[test]
fn hand_computed() {
    let still = |p: Vec2| [p, p];
    let wall = ShapePath::Segment {
        a: still(v(0.0, -10.0)),
        b: still(v(0.0, 10.0)),
    };
    // (case, mover, expected answer)
    let cases: [(&str, ShapePath, Option<Option<[f32; 2]>>); 7] = [
        (
            "a circle through a wall",
            ShapePath::Circle {
                center: [v(-10.0, 0.0), v(10.0, 0.0)],
                radius: 2.0,
            },
            Some(Some([0.4, 0.6])),
        ),
        (
            "a circle round the wall's end",
            ShapePath::Circle {
                center: [v(-10.0, 13.0), v(10.0, 13.0)],
                radius: 2.0,
            },
            Some(None),
        ),
        (
            "a box against the wall, leaving it",
            ShapePath::Aabb {
                center: [v(-1.0, 0.0), v(-5.0, 0.0)],
                half_extents: v(2.0, 2.0),
            },
            Some(Some([0.0, 0.25])),
        ),
        (
            "a crossing segment",
            ShapePath::Segment {
                a: [v(-8.0, -1.0), v(8.0, -1.0)],
                b: [v(-4.0, 1.0), v(12.0, 1.0)],
            },
            Some(Some([0.25, 0.5])),
        ),
        // A point crossing the wall: an instant.
        (
            "a point through the wall",
            ShapePath::Point([v(-1.0, 0.0), v(1.0, 0.0)]),
            Some(Some([0.5, 0.5])),
        ),
        // A point reaching the wall's end exactly: left to the general solver.
        (
            "a point through the wall's end",
            ShapePath::Point([v(-1.0, 10.0), v(1.0, 10.0)]),
            None,
        ),
        // A parallel segment: left to the general solver too.
        (
            "a parallel segment",
            ShapePath::Segment {
                a: [v(-1.0, -1.0), v(1.0, -1.0)],
                b: [v(-1.0, 1.0), v(1.0, 1.0)],
            },
            None,
        ),
    ];
    for (case, mover, expected) in cases {
        let (a, b) = if mover.rank() <= wall.rank() {
            (mover, wall)
        } else {
            (wall, mover)
        };
        let got = translating(&a, &b);
        match (got, expected) {
            (Some(Some(g)), Some(Some(e))) => assert!(
                (g[0] - e[0]).abs() < 1e-6 && (g[1] - e[1]).abs() < 1e-6,
                "{case}: {g:?}, expected {e:?}"
            ),
            _ => assert_eq!(got, expected, "{case}"),
        }
    }
}

/// A segment that turns is left to the general solver.
#[test]
fn turning_segments_are_not_decided() {
    let turning = ShapePath::Segment {
        a: [v(-5.0, 0.0), v(0.0, -5.0)],
        b: [v(5.0, 0.0), v(0.0, 5.0)],
    };
    let circle = ShapePath::Circle {
        center: [v(3.0, 3.0), v(3.0, 3.0)],
        radius: 1.0,
    };
    assert_eq!(translating(&turning, &circle), None);
}
