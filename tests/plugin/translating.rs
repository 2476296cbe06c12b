//! Pairs with a segment that stands still or translates, which the narrow phase solves in
//! closed form, against the exact oracle: random pairs near the origin and at coordinates
//! around 3,000 (where a translating segment is rigid only up to a rounding of `1e-4`), and
//! pairs placed to touch exactly at the start or the end of the tick.

use super::oracle::contact_intervals as exact;
use super::rules::to_oracle;
use crate::common::intervals_close;
use bevy::prelude::*;
use bevy_sweep::narrow::{ShapePath, contact_intervals};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A segment of half length `half` at `angle` around a centre moving `from → to`, built as the
/// plugin builds it: its rotated offsets plus the translation, rounded to `f32` at each end.
fn segment(from: Vec2, to: Vec2, angle: f32, half: f32) -> ShapePath {
    let offset = Vec2::from_angle(angle) * half;
    ShapePath::Segment {
        a: [from - offset, to - offset],
        b: [from + offset, to + offset],
    }
}

fn shape(kind: u8, from: Vec2, to: Vec2, rng: &mut ChaCha8Rng) -> ShapePath {
    match kind {
        0 => ShapePath::Point([from, to]),
        1 => segment(
            from,
            to,
            rng.random_range(0.0..core::f32::consts::TAU),
            rng.random_range(0.5..20.0),
        ),
        2 => ShapePath::Circle {
            center: [from, to],
            radius: rng.random_range(0.5..20.0),
        },
        _ => ShapePath::Aabb {
            center: [from, to],
            half_extents: Vec2::new(rng.random_range(0.5..20.0), rng.random_range(0.5..20.0)),
        },
    }
}

/// Same contact intervals as the oracle, each end within `1e-5` (as the plugin's oracle tests
/// ask of every pair).
#[track_caller]
fn check(a: &ShapePath, b: &ShapePath, what: &str) -> usize {
    let got = contact_intervals(a, b);
    let want = exact(&to_oracle(a), &to_oracle(b));
    assert!(
        intervals_close(&got, &want, 1e-5),
        "{what}: {a:?} vs {b:?}\n   got {got:?}\n  want {want:?}"
    );
    want.len()
}

#[test]
fn translating_pairs_match_the_exact_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7a5e_0c1e);
    let mut touching = 0;
    for kind in 0..4u8 {
        for offset in [0.0, 3000.0] {
            for _ in 0..150 {
                let base = Vec2::new(offset, -offset);
                let from =
                    base + Vec2::new(rng.random_range(-5.0..5.0), rng.random_range(-5.0..5.0));
                let to = if rng.random_bool(0.3) {
                    from
                } else {
                    from + Vec2::new(rng.random_range(-4.0..4.0), rng.random_range(-4.0..4.0))
                };
                let s = segment(
                    from,
                    to,
                    rng.random_range(0.0..core::f32::consts::TAU),
                    rng.random_range(1.0..30.0),
                );
                let start =
                    base + Vec2::new(rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0));
                let end =
                    start + Vec2::new(rng.random_range(-60.0..60.0), rng.random_range(-60.0..60.0));
                let other = shape(kind, start, end, &mut rng);
                touching += usize::from(check(&s, &other, "random") > 0);
            }
        }
    }
    assert!(touching > 300, "only {touching} of 1,200 pairs touch");
}

/// Contacts that begin or end exactly at the tick's ends: a box and a circle resting on a
/// still wall at the start and moving off, or arriving against it exactly at the end, and a
/// point reaching it exactly then; and the same with a translating wall.
#[test]
fn contacts_at_the_ends_of_the_tick_match_the_exact_oracle() {
    for wall_motion in [Vec2::ZERO, Vec2::new(0.5, 0.25)] {
        let wall = ShapePath::Segment {
            a: [Vec2::new(0.0, -4.0), Vec2::new(0.0, -4.0) + wall_motion],
            b: [Vec2::new(0.0, 4.0), Vec2::new(0.0, 4.0) + wall_motion],
        };
        let w = wall_motion;
        let cases = [
            // Touching at the start, leaving.
            ShapePath::Aabb {
                center: [Vec2::new(-1.0, 0.0), Vec2::new(-3.0, 1.0) + w],
                half_extents: Vec2::ONE,
            },
            ShapePath::Circle {
                center: [Vec2::new(1.0, 2.0), Vec2::new(5.0, 2.0) + w],
                radius: 1.0,
            },
            // Overlapping at the start, leaving.
            ShapePath::Aabb {
                center: [Vec2::new(0.5, 0.0), Vec2::new(-3.0, 0.0) + w],
                half_extents: Vec2::ONE,
            },
            // Arriving exactly at the end.
            ShapePath::Aabb {
                center: [Vec2::new(-5.0, 3.0), Vec2::new(-1.0, 3.0) + w],
                half_extents: Vec2::ONE,
            },
            ShapePath::Circle {
                center: [Vec2::new(6.0, -1.0), Vec2::new(2.0, -1.0) + w],
                radius: 2.0,
            },
            ShapePath::Point([Vec2::new(-2.0, 1.5), Vec2::new(0.0, 1.5) + w]),
            // Crossing during the tick, for comparison.
            ShapePath::Circle {
                center: [Vec2::new(-6.0, 0.0), Vec2::new(6.0, 0.0) + w],
                radius: 1.0,
            },
            ShapePath::Segment {
                a: [Vec2::new(-3.0, -1.0), Vec2::new(3.0, -1.0) + w],
                b: [Vec2::new(-2.0, 1.0), Vec2::new(4.0, 1.0) + w],
            },
        ];
        for other in cases {
            assert!(
                check(&wall, &other, "at an end") > 0,
                "{other:?} should touch"
            );
            check(&other, &wall, "at an end, swapped");
        }
    }
}

/// Contacts within rounding of a graze: a point, a circle, a box's corner or another segment's
/// end passing a segment's tip sideways, `gap` beyond it (or overlapping by `-gap`) half way
/// through the tick. The documented rule for grazes: where the gap is rounding-sized, a contact
/// that only grazes may be reported or missed (and passing a tip tangentially, a graze lasts
/// up to about `1e-4` of the tick); everything else matches the oracle. Most cases must match
/// it exactly.
#[test]
fn grazes_at_a_tip_match_the_exact_oracle_within_rounding() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x9a2e);
    let (mut exact_matches, mut cases) = (0, 0);
    for _ in 0..1200 {
        let k = 10f32.powf(rng.random_range(-1.0..2.5));
        let u = Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU));
        let origin = Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
            * [1.0, 3000.0][rng.random_range(0..2)];
        let gap = k * [0.0, 1e-7, -1e-7, 1e-6, -1e-6, 1e-5, 1e-3, 0.1][rng.random_range(0..8)];
        let h = k * rng.random_range(0.5..2.0);
        let velocity = if rng.random_bool(0.3) {
            Vec2::ZERO
        } else {
            Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * k
        };
        let wall = ShapePath::Segment {
            a: [origin - u * h, origin + velocity - u * h],
            b: [origin + u * h, origin + velocity + u * h],
        };
        let across = u.perp() * (k * rng.random_range(0.1..4.0));
        let near = origin + u * (h + gap);
        let moved = |p: Vec2| [p - across * 0.5, p + velocity + across * 0.5];
        let size = k * rng.random_range(0.1..2.0);
        let diagonal = Vec2::new(u.x.signum(), u.y.signum()) * size;
        let other = match rng.random_range(0..4) {
            0 => ShapePath::Point(moved(near)),
            1 => ShapePath::Circle {
                center: moved(near + u * size),
                radius: size,
            },
            // The box's corner nearest the tip on the segment's line: `u` along a diagonal,
            // up to rounding.
            2 => {
                let u = diagonal.normalize();
                let near = origin + u * (h + gap);
                ShapePath::Aabb {
                    center: [
                        near + diagonal - across * 0.5,
                        near + diagonal + velocity + across * 0.5,
                    ],
                    half_extents: diagonal.abs(),
                }
            }
            _ => ShapePath::Segment {
                a: moved(near),
                b: moved(near + u * size),
            },
        };
        let got = contact_intervals(&wall, &other);
        let want = exact(&to_oracle(&wall), &to_oracle(&other));
        cases += 1;
        let same = |g: &[f32; 2], w: &[f64; 2]| {
            (f64::from(g[0]) - w[0]).abs() < 1e-5 && (f64::from(g[1]) - w[1]).abs() < 1e-5
        };
        if got.len() == want.len() && got.iter().zip(&want).all(|(g, w)| same(g, w)) {
            exact_matches += 1;
            continue;
        }
        // Only grazes may differ.
        let long_got: Vec<&[f32; 2]> = got.iter().filter(|g| g[1] - g[0] >= 1e-3).collect();
        let long_want: Vec<&[f64; 2]> = want.iter().filter(|w| w[1] - w[0] >= 1e-3).collect();
        assert!(
            long_got.len() == long_want.len()
                && long_got.iter().zip(&long_want).all(|(g, w)| same(g, w))
                && gap.abs() <= 1e-5 * k,
            "{wall:?} vs {other:?} (gap {gap}):\n   got {got:?}\n  want {want:?}"
        );
    }
    assert!(
        exact_matches * 10 >= cases * 9,
        "{exact_matches} of {cases} match exactly"
    );
}
