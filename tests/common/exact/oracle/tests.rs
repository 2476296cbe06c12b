//! The exact oracle's own tests: hand-computed contact intervals for every pair of shapes,
//! polynomial and root-isolation basics, extreme magnitudes, rounded convex polygons against
//! the basic shapes, and random pairs checked for symmetry and against sampled `f64`
//! geometry.
//!
//! Self-contained (only `super`, the oracle, and external crates): the oracle is also
//! included by `#[path]` in the churn soak and the avian2d comparison, and this module with
//! it.

use super::{
    Dy, Formula, PVec, Poly, Rel, Scale, atom, contact_set, point_polygon_formula, sign_changes,
};
// Through the re-export the other tests use.
use super::{Path, contact_intervals, convex_contact_intervals};
use bevy_math::{DVec2, Vec2};
use num_bigint::BigInt;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn still(p: Vec2) -> [Vec2; 2] {
    [p, p]
}

fn point(p0: Vec2, p1: Vec2) -> Path {
    Path::Point([p0, p1])
}

fn seg(a: [Vec2; 2], b: [Vec2; 2]) -> Path {
    Path::Segment { a, b }
}

fn still_seg(a: Vec2, b: Vec2) -> Path {
    seg(still(a), still(b))
}

fn circle(c0: Vec2, c1: Vec2, radius: f32) -> Path {
    Path::Circle {
        center: [c0, c1],
        radius,
    }
}

fn aabb(c0: Vec2, c1: Vec2, h: Vec2) -> Path {
    Path::Aabb {
        center: [c0, c1],
        half_extents: h,
    }
}

fn unit_box() -> Path {
    aabb(Vec2::ZERO, Vec2::ZERO, Vec2::ONE)
}

fn unit_circle() -> Path {
    circle(Vec2::ZERO, Vec2::ZERO, 1.0)
}

/// Checks both argument orders against hand-computed intervals (1e-12).
#[track_caller]
fn check(a: &Path, b: &Path, expected: &[[f64; 2]]) {
    for (x, y) in [(a, b), (b, a)] {
        let got = contact_intervals(x, y);
        let close = got.len() == expected.len()
            && got
                .iter()
                .zip(expected)
                .all(|(g, e)| (g[0] - e[0]).abs() < 1e-12 && (g[1] - e[1]).abs() < 1e-12);
        assert!(
            close,
            "{x:?} vs {y:?}:\n   got {got:?}\n  want {expected:?}"
        );
    }
}

#[test]
fn polynomial_basics() {
    let p = |c: &[i64]| Poly::new(c.iter().map(|&x| BigInt::from(x)).collect());
    let half = Dy::mid(&Dy::int(0), &Dy::int(1));
    let quarter = Dy::mid(&Dy::int(0), &half);
    assert!(quarter < half && half == Dy::mid(&quarter, &Dy::mid(&half, &Dy::int(1))));
    // (t - 1)^2 (t - 2) -> square-free (t - 1)(t - 2) = t^2 - 3t + 2.
    let cubic = p(&[-2, 5, -4, 1]);
    assert_eq!(cubic.squarefree(), p(&[2, -3, 1]));
    assert_eq!((-&cubic).squarefree(), p(&[2, -3, 1]));
    assert_eq!(cubic.gcd(&p(&[3, -3])), p(&[-1, 1]));
    assert_eq!(cubic.pdiv(&p(&[2, -3, 1])), (p(&[-1, 1]), p(&[])));
    // Pseudo-remainders are positive multiples: t^2 mod (-2t + 1) = 1/4 -> 1 (times 4).
    assert_eq!(p(&[0, 0, 1]).pdiv(&p(&[1, -2])).1, p(&[1]));
    // 4t^2 - 1: zero at 1/2, negative at 1/4; one root in (0, 1); deflates to 2t + 1.
    let f = p(&[-1, 0, 4]);
    assert!(f.sign_at(&half).is_eq() && f.sign_at(&quarter).is_lt());
    let chain = f.sturm();
    assert_eq!(
        sign_changes(&chain, &Dy::int(0)) - sign_changes(&chain, &Dy::int(1)),
        1
    );
    assert_eq!(f.deflate(&half), p(&[1, 2]));
}

#[test]
fn equal_irrational_roots_of_different_atoms() {
    // f = 2t^2 - 1 and g = f (4t - 1) share the root 1/sqrt(2); "f = 0 and g = 0" holds
    // there only, which needs the exact merge of the two candidates.
    let p = |c: &[i64]| Poly::new(c.iter().map(|&x| BigInt::from(x)).collect());
    let f = p(&[-1, 0, 2]);
    let g = &f * &p(&[-1, 4]);
    let root = 0.5f64.sqrt();
    let both = Formula::All(vec![atom(f.clone(), Rel::Zero), atom(g.clone(), Rel::Zero)]);
    let got = contact_set(&both);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!((got[0][0] - root).abs() < 1e-15 && got[0][0] == got[0][1]);
    // g <= 0 on [1/4, 1/sqrt(2)]; g >= 0 and f <= 0 on [0, 1/4] and at 1/sqrt(2).
    assert_eq!(
        contact_set(&atom(g.clone(), Rel::NonPositive)),
        vec![[0.25, got[0][0]]]
    );
    let mixed = Formula::All(vec![atom(g, Rel::NonNegative), atom(f, Rel::NonPositive)]);
    assert_eq!(contact_set(&mixed), vec![[0.0, 0.25], got[0]]);
}

#[test]
fn extreme_magnitudes() {
    // Huge and subnormal coordinates are exact too.
    let huge = 2f32.powi(100);
    check(
        &point(v(-huge, 0.0), v(huge, 0.0)),
        &still_seg(v(0.0, -1.0), v(0.0, 1.0)),
        &[[0.5, 0.5]],
    );
    let tiny = f32::from_bits(1);
    check(
        &point(v(-tiny, 0.0), v(tiny, 0.0)),
        &still_seg(v(0.0, -tiny), v(0.0, tiny)),
        &[[0.5, 0.5]],
    );
    check(
        &circle(v(-3.0 * tiny, 0.0), v(tiny, 0.0), tiny),
        &aabb(Vec2::ZERO, Vec2::ZERO, v(huge, tiny)),
        &[[0.0, 1.0]],
    );
    check(
        &circle(v(-3.0 * huge, 0.0), v(huge, 0.0), huge),
        &point(Vec2::ZERO, Vec2::ZERO),
        &[[0.5, 1.0]],
    );
}

#[test]
fn point_point() {
    let origin = point(Vec2::ZERO, Vec2::ZERO);
    check(&point(v(-1.0, 0.0), v(1.0, 0.0)), &origin, &[[0.5, 0.5]]);
    check(&origin, &origin, &[[0.0, 1.0]]);
    check(
        &point(v(0.0, 0.0), v(1.0, 1.0)),
        &point(v(0.0, 0.0), v(1.0, 1.0)),
        &[[0.0, 1.0]],
    );
    // Parallel, never equal.
    check(
        &point(v(0.0, 0.0), v(1.0, 0.0)),
        &point(v(0.0, 1.0), v(1.0, 1.0)),
        &[],
    );
    // Meet exactly at t = 1; leave exactly at t = 0.
    check(
        &point(v(0.0, 0.0), v(1.0, 0.0)),
        &point(v(2.0, 0.0), v(1.0, 0.0)),
        &[[1.0, 1.0]],
    );
    check(&point(v(0.0, 0.0), v(1.0, 0.0)), &origin, &[[0.0, 0.0]]);
    // Paths cross, but at different times.
    check(
        &point(v(-1.0, 0.0), v(1.0, 0.0)),
        &point(v(0.0, -1.0), v(0.0, 3.0)),
        &[],
    );
}

#[test]
fn point_segment() {
    let vertical = still_seg(v(0.0, -1.0), v(0.0, 1.0));
    check(
        &point(v(-5.0, 0.0), v(15.0, 0.0)),
        &vertical,
        &[[0.25, 0.25]],
    );
    // Sliding along the segment's own line.
    let horizontal = still_seg(v(-1.0, 0.0), v(1.0, 0.0));
    check(
        &point(v(-2.0, 0.0), v(2.0, 0.0)),
        &horizontal,
        &[[0.25, 0.75]],
    );
    // Through an endpoint exactly; beside it by the smallest subnormal.
    let right = still_seg(v(0.0, 0.0), v(2.0, 0.0));
    check(&point(v(0.0, -1.0), v(0.0, 1.0)), &right, &[[0.5, 0.5]]);
    let x = 0.0f32.next_down();
    check(&point(v(x, -1.0), v(x, 1.0)), &right, &[]);
    // Ends on it at t = 1; starts on it and leaves at t = 0.
    check(&point(v(1.0, -1.0), v(1.0, 0.0)), &right, &[[1.0, 1.0]]);
    check(&point(v(1.0, 0.0), v(1.0, 1.0)), &right, &[[0.0, 0.0]]);
    // "Raise": one endpoint fixed, the other moving up through the point's line.
    let raise = seg(still(v(0.0, 0.0)), [v(2.0, -2.0), v(2.0, 2.0)]);
    check(&point(v(1.0, 0.0), v(1.0, 0.0)), &raise, &[[0.5, 0.5]]);
    // A segment turning about its centre crossed twice by a moving point.
    let turning = seg([v(-4.0, 0.0), v(0.0, -4.0)], [v(4.0, 0.0), v(0.0, 4.0)]);
    check(
        &point(v(3.25, 0.75), v(-0.75, 0.75)),
        &turning,
        &[[0.25, 0.25], [0.75, 0.75]],
    );
    // Quadratic cross with a non-dyadic rational root: b = (2 - 2t, 2t), p = (1/2, 3t - 1)
    // gives -6t^2 + 7t - 2 = 0 at t = 1/2 (p = b / 2) and t = 2/3 (p = 3b / 4).
    let sweeping = seg(still(Vec2::ZERO), [v(2.0, 0.0), v(0.0, 2.0)]);
    check(
        &point(v(0.5, -1.0), v(0.5, 2.0)),
        &sweeping,
        &[[0.5, 0.5], [2.0 / 3.0, 2.0 / 3.0]],
    );
    // A segment collapsing to the origin at t = 1/2 and flipping: always contains the
    // origin; contains (1/2, 0) while |1 - 2t| >= 1/2; the point crossing its line at the
    // collapse still touches it.
    let collapsing = seg([v(-1.0, 0.0), v(1.0, 0.0)], [v(1.0, 0.0), v(-1.0, 0.0)]);
    check(&point(Vec2::ZERO, Vec2::ZERO), &collapsing, &[[0.0, 1.0]]);
    check(
        &point(v(0.5, 0.0), v(0.5, 0.0)),
        &collapsing,
        &[[0.0, 0.25], [0.75, 1.0]],
    );
    check(
        &point(v(0.0, -1.0), v(0.0, 1.0)),
        &collapsing,
        &[[0.5, 0.5]],
    );
    check(&point(v(0.0, 1.0), v(0.0, 1.0)), &collapsing, &[]);
    // A zero-length segment for the whole step is a point.
    let dot = still_seg(v(1.0, 1.0), v(1.0, 1.0));
    check(&point(v(0.0, 0.0), v(2.0, 2.0)), &dot, &[[0.5, 0.5]]);
    check(&point(v(0.0, 0.0), v(2.0, 2.1)), &dot, &[]);
}

#[test]
fn point_circle() {
    let c = unit_circle();
    check(&point(v(-5.0, 0.0), v(5.0, 0.0)), &c, &[[0.4, 0.6]]);
    // Tangent graze; missing it by one ulp.
    check(&point(v(-5.0, 1.0), v(5.0, 1.0)), &c, &[[0.5, 0.5]]);
    let y = 1.0f32.next_up();
    check(&point(v(-5.0, y), v(5.0, y)), &c, &[]);
    // Irrational: x = -2 + 4t, x^2 <= 3/4.
    let r = 0.75f64.sqrt();
    check(
        &point(v(-2.0, 0.5), v(2.0, 0.5)),
        &c,
        &[[(2.0 - r) / 4.0, (2.0 + r) / 4.0]],
    );
    // The circle arrives at a still point at t = 1; a point leaves the rim at t = 0.
    check(
        &circle(v(-3.0, 0.0), v(-1.0, 0.0), 1.0),
        &point(Vec2::ZERO, Vec2::ZERO),
        &[[1.0, 1.0]],
    );
    check(&point(v(1.0, 0.0), v(2.0, 0.0)), &c, &[[0.0, 0.0]]);
    check(&point(v(0.5, 0.0), v(-0.5, 0.0)), &c, &[[0.0, 1.0]]);
}

#[test]
fn point_box() {
    let b = unit_box();
    check(&point(v(-5.0, 0.0), v(15.0, 0.0)), &b, &[[0.2, 0.3]]);
    // Along the top edge.
    check(
        &point(v(-3.0, 1.0), v(3.0, 1.0)),
        &b,
        &[[1.0 / 3.0, 2.0 / 3.0]],
    );
    // Touching the corner (1, 1) only.
    check(&point(v(0.0, 2.0), v(2.0, 0.0)), &b, &[[0.5, 0.5]]);
    // Leaving the edge at t = 0; leaving the inside.
    check(&point(v(1.0, 0.0), v(2.0, 0.0)), &b, &[[0.0, 0.0]]);
    check(&point(v(0.0, 0.0), v(4.0, 0.0)), &b, &[[0.0, 0.25]]);
    // A moving flat box over a still point: |3 - 6t| <= 1/2.
    check(
        &aabb(v(0.0, 3.0), v(0.0, -3.0), v(1.0, 0.5)),
        &point(Vec2::ZERO, Vec2::ZERO),
        &[[5.0 / 12.0, 7.0 / 12.0]],
    );
}

#[test]
fn segment_segment() {
    // A vertical segment sweeping over a horizontal one.
    let horizontal = still_seg(v(-1.0, 0.0), v(1.0, 0.0));
    let sweeping = seg([v(-2.0, -1.0), v(2.0, -1.0)], [v(-2.0, 1.0), v(2.0, 1.0)]);
    check(&sweeping, &horizontal, &[[0.25, 0.75]]);
    // Parallel, meeting along their length for an instant.
    let falling = seg([v(0.0, 1.0), v(0.0, -1.0)], [v(1.0, 1.0), v(1.0, -1.0)]);
    check(
        &falling,
        &still_seg(v(0.0, 0.0), v(1.0, 0.0)),
        &[[0.5, 0.5]],
    );
    // Collinear sliding.
    let sliding = seg([v(0.0, 0.0), v(4.0, 0.0)], [v(1.0, 0.0), v(5.0, 0.0)]);
    check(
        &sliding,
        &still_seg(v(2.0, 0.0), v(3.0, 0.0)),
        &[[0.25, 0.75]],
    );
    // Endpoint meets endpoint for an instant (not parallel).
    let passing = seg([v(-1.0, 1.0), v(1.0, -1.0)], [v(-2.0, 1.0), v(0.0, -1.0)]);
    check(
        &passing,
        &still_seg(v(0.0, 0.0), v(1.0, 1.0)),
        &[[0.5, 0.5]],
    );
    // Collapsing segment against x = 1/2.
    let collapsing = seg([v(-1.0, 0.0), v(1.0, 0.0)], [v(1.0, 0.0), v(-1.0, 0.0)]);
    check(
        &collapsing,
        &still_seg(v(0.5, -1.0), v(0.5, 1.0)),
        &[[0.0, 0.25], [0.75, 1.0]],
    );
    // Two zero-length segments passing through each other.
    let dot = seg([v(0.0, 0.0), v(2.0, 2.0)], [v(0.0, 0.0), v(2.0, 2.0)]);
    check(&dot, &still_seg(v(1.0, 1.0), v(1.0, 1.0)), &[[0.5, 0.5]]);
    // Leaving at t = 0, arriving at t = 1.
    let leaving = seg([v(0.0, 0.0), v(0.0, 1.0)], [v(0.0, 1.0), v(0.0, 2.0)]);
    check(&leaving, &horizontal, &[[0.0, 0.0]]);
    let arriving = seg([v(0.0, 3.0), v(0.0, 1.0)], [v(0.0, 2.0), v(0.0, 0.0)]);
    check(&arriving, &horizontal, &[[1.0, 1.0]]);
    // Crossing X for the whole step.
    check(
        &still_seg(v(-1.0, -1.0), v(1.0, 1.0)),
        &seg([v(-1.0, 1.0), v(-1.0, 1.0)], [v(1.0, -1.0), v(1.0, -1.0)]),
        &[[0.0, 1.0]],
    );
}

#[test]
fn segment_circle() {
    let c = unit_circle();
    // A circle falling through a still segment: |3 - 6t| <= 1.
    check(
        &circle(v(0.0, 3.0), v(0.0, -3.0), 1.0),
        &still_seg(v(-1.0, 0.0), v(1.0, 0.0)),
        &[[1.0 / 3.0, 2.0 / 3.0]],
    );
    // Interior tangent graze of a turning segment: a = (-2 + u, 1 + u), b = (2 + u,
    // 1 - u), u = t - 1/2, gives cross^2 - |b - a|^2 = 12 u^2 + 4 u^4 (double root).
    let turning = seg([v(-2.5, 0.5), v(-1.5, 1.5)], [v(1.5, 1.5), v(2.5, 0.5)]);
    check(&turning, &c, &[[0.5, 0.5]]);
    // Lifted by 2^-20: no contact.
    let e = 1.0 / 1_048_576.0;
    let lifted = seg(
        [v(-2.5, 0.5 + e), v(-1.5, 1.5 + e)],
        [v(1.5, 1.5 + e), v(2.5, 0.5 + e)],
    );
    check(&lifted, &c, &[]);
    // Graze at an endpoint.
    check(
        &circle(v(-5.0, 1.0), v(5.0, 1.0), 1.0),
        &still_seg(v(0.0, -1.0), v(0.0, 0.0)),
        &[[0.5, 0.5]],
    );
    // A zero-length segment grazing the circle; a segment collapsing on the rim.
    check(
        &seg([v(-5.0, 1.0), v(5.0, 1.0)], [v(-5.0, 1.0), v(5.0, 1.0)]),
        &c,
        &[[0.5, 0.5]],
    );
    let collapsing = seg([v(1.0, -1.0), v(1.0, 1.0)], [v(1.0, 1.0), v(1.0, -1.0)]);
    check(&collapsing, &c, &[[0.0, 1.0]]);
    // A unit segment at y = 1/2 sliding through: irrational entry and exit.
    let r = 0.75f64.sqrt();
    check(
        &seg([v(-6.0, 0.5), v(4.0, 0.5)], [v(-5.0, 0.5), v(5.0, 0.5)]),
        &c,
        &[[(5.0 - r) / 10.0, (6.0 + r) / 10.0]],
    );
    // Arriving on the top of the circle at t = 1.
    check(
        &seg([v(-1.0, 3.0), v(-1.0, 1.0)], [v(1.0, 3.0), v(1.0, 1.0)]),
        &c,
        &[[1.0, 1.0]],
    );
}

#[test]
fn segment_box() {
    let b = unit_box();
    // Sliding over the top edge for the whole step.
    check(
        &seg([v(-3.0, 1.0), v(-2.0, 1.0)], [v(3.0, 1.0), v(4.0, 1.0)]),
        &b,
        &[[0.0, 1.0]],
    );
    // Falling onto and into the box: y = 3 - 4t in [-1, 1].
    check(
        &seg([v(-0.5, 3.0), v(-0.5, -1.0)], [v(0.5, 3.0), v(0.5, -1.0)]),
        &b,
        &[[0.5, 1.0]],
    );
    // Turning about (0, 3) down onto the corner (1, 1), reached exactly at t = 1.
    check(
        &seg(still(v(0.0, 3.0)), [v(3.0, 3.0), v(3.0, -3.0)]),
        &b,
        &[[1.0, 1.0]],
    );
    // Diagonal touching the corner at t = 0 and moving away.
    check(
        &seg([v(-1.0, 3.0), v(0.0, 4.0)], [v(3.0, -1.0), v(4.0, 0.0)]),
        &b,
        &[[0.0, 0.0]],
    );
    // Diagonal crossing with both endpoints outside: x + y = -3 + 6t in [-2, 2].
    check(
        &seg([v(-3.0, 0.0), v(0.0, 3.0)], [v(0.0, -3.0), v(3.0, 0.0)]),
        &b,
        &[[1.0 / 6.0, 5.0 / 6.0]],
    );
    // A zero-length segment through the box.
    check(
        &seg([v(-5.0, 0.0), v(15.0, 0.0)], [v(-5.0, 0.0), v(15.0, 0.0)]),
        &b,
        &[[0.2, 0.3]],
    );
    // Passing beside the corner: x + y = 2 + 1/1024 never reaches it.
    let e = 1.0 / 1024.0;
    check(
        &seg(
            [v(-1.0, 3.0 + e), v(-1.0, 3.0 + e)],
            [v(3.0, -1.0 + e), v(3.0, -1.0 + e)],
        ),
        &b,
        &[],
    );
}

#[test]
fn circle_circle() {
    let c = unit_circle();
    check(&circle(v(-5.0, 0.0), v(5.0, 0.0), 1.0), &c, &[[0.3, 0.7]]);
    check(&circle(v(-5.0, 2.0), v(5.0, 2.0), 1.0), &c, &[[0.5, 0.5]]);
    check(&circle(v(-5.0, 0.0), v(-2.0, 0.0), 1.0), &c, &[[1.0, 1.0]]);
    check(&circle(v(2.0, 0.0), v(4.0, 0.0), 1.0), &c, &[[0.0, 0.0]]);
    let moving = circle(v(0.0, 0.0), v(3.0, 3.0), 1.0);
    check(
        &moving,
        &circle(v(1.0, 0.0), v(4.0, 3.0), 0.5),
        &[[0.0, 1.0]],
    );
    // |x| <= sqrt(3) with x = -5 + 10t; radii 1/2 and 3/2.
    let s = 3f64.sqrt();
    check(
        &circle(v(-5.0, 1.0), v(5.0, 1.0), 0.5),
        &circle(Vec2::ZERO, Vec2::ZERO, 1.5),
        &[[(5.0 - s) / 10.0, (5.0 + s) / 10.0]],
    );
}

#[test]
fn circle_box() {
    let b = unit_box();
    check(&circle(v(-5.0, 0.0), v(5.0, 0.0), 1.0), &b, &[[0.3, 0.7]]);
    // Passing at y = 1.5: corners give |x| <= 1 + sqrt(3/4).
    let w = 1.0 + 0.75f64.sqrt();
    check(
        &circle(v(-5.0, 1.5), v(5.0, 1.5), 1.0),
        &b,
        &[[(5.0 - w) / 10.0, (5.0 + w) / 10.0]],
    );
    // Tangent to the rounded corner at (5, 5) + (3, 4): centre (8, 9) at t = 1/2.
    check(
        &circle(v(4.0, 12.0), v(12.0, 6.0), 5.0),
        &aabb(Vec2::ZERO, Vec2::ZERO, v(5.0, 5.0)),
        &[[0.5, 0.5]],
    );
    // Rolling on the top face; leaving the side face at t = 0.
    check(&circle(v(-0.5, 2.0), v(0.5, 2.0), 1.0), &b, &[[0.0, 1.0]]);
    check(&circle(v(2.0, 0.0), v(3.0, 0.0), 1.0), &b, &[[0.0, 0.0]]);
    // Corner-on approach along the diagonal: |c - (1, 1)| <= 1 with c = (s, s),
    // s = 4 - 4t: s = 1 + sqrt(1/2).
    let s = 1.0 + 0.5f64.sqrt();
    check(
        &circle(v(4.0, 4.0), v(0.0, 0.0), 1.0),
        &b,
        &[[(4.0 - s) / 4.0, 1.0]],
    );
}

#[test]
fn box_box() {
    let b = unit_box();
    check(
        &aabb(v(-5.0, 0.0), v(5.0, 0.0), Vec2::ONE),
        &b,
        &[[0.3, 0.7]],
    );
    check(
        &aabb(v(1.0, 3.0), v(3.0, 1.0), Vec2::ONE),
        &b,
        &[[0.5, 0.5]],
    );
    check(
        &aabb(v(-1.0, 2.0), v(1.0, 2.0), Vec2::ONE),
        &b,
        &[[0.0, 1.0]],
    );
    check(
        &aabb(v(-5.0, 0.0), v(-2.0, 0.0), Vec2::ONE),
        &b,
        &[[1.0, 1.0]],
    );
    check(
        &aabb(v(-4.0, 2.25), v(4.0, 2.25), v(0.5, 2.0)),
        &aabb(Vec2::ZERO, Vec2::ZERO, v(1.5, 0.25)),
        &[[0.25, 0.75]],
    );
    check(&aabb(v(-4.0, 2.5), v(4.0, 2.5), Vec2::ONE), &b, &[]);
}

// -----------------------------------------------------------------------------------
// Random pairs: symmetry, shape of the output, and an independent f64 sanity check.
// -----------------------------------------------------------------------------------

/// Random paths, from a seeded `ChaCha8Rng`.
struct Random(ChaCha8Rng);

impl Random {
    fn new(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0.random_range(0..n)
    }

    /// A multiple of 1/2 in [-3, 3], or a fully random value there (1 in 4).
    fn coord(&mut self) -> f32 {
        if self.below(4) == 0 {
            self.0.random_range(-3.0..=3.0)
        } else {
            self.below(13) as f32 * 0.5 - 3.0
        }
    }

    fn point(&mut self) -> Vec2 {
        Vec2::new(self.coord(), self.coord())
    }

    /// Still (1 in 4) or moving.
    fn motion(&mut self) -> [Vec2; 2] {
        let p = self.point();
        if self.below(4) == 0 {
            [p, p]
        } else {
            [p, self.point()]
        }
    }

    fn size(&mut self) -> f32 {
        [0.5, 1.0, 1.5][self.below(3) as usize]
    }

    fn path(&mut self, kind: usize) -> Path {
        match kind {
            0 => Path::Point(self.motion()),
            1 => {
                let a = self.motion();
                // Sometimes share an endpoint motion, or collapse.
                let b = match self.below(6) {
                    0 => a,
                    1 => [a[1], a[0]],
                    _ => self.motion(),
                };
                Path::Segment { a, b }
            }
            2 => Path::Circle {
                center: self.motion(),
                radius: self.size(),
            },
            _ => Path::Aabb {
                center: self.motion(),
                half_extents: Vec2::new(self.size(), self.size()),
            },
        }
    }
}

/// A shape at one time, in `f64`.
enum Placed {
    Point(DVec2),
    Segment(DVec2, DVec2),
    Disk(DVec2, f64),
    Rect(DVec2, DVec2),
}

fn lerp(p: [Vec2; 2], t: f64) -> DVec2 {
    let (a, b) = (p[0].as_dvec2(), p[1].as_dvec2());
    a + (b - a) * t
}

fn place(path: &Path, t: f64) -> Placed {
    match *path {
        Path::Point(p) => Placed::Point(lerp(p, t)),
        Path::Segment { a, b } => Placed::Segment(lerp(a, t), lerp(b, t)),
        Path::Circle { center, radius } => Placed::Disk(lerp(center, t), f64::from(radius)),
        Path::Aabb {
            center,
            half_extents,
        } => Placed::Rect(lerp(center, t), half_extents.as_dvec2()),
    }
}

fn point_segment_distance(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let d = b - a;
    let s = if d.length_squared() > 0.0 {
        ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + d * s)
}

/// Distance from a point to a placed shape, and how deep inside it the point is
/// (negative or zero when not strictly inside a disk or box).
fn distance_depth(p: DVec2, s: &Placed) -> (f64, f64) {
    match *s {
        Placed::Point(o) => (p.distance(o), 0.0),
        Placed::Segment(a, b) => (point_segment_distance(p, a, b), 0.0),
        Placed::Disk(c, r) => {
            let d = p.distance(c) - r;
            (d.max(0.0), -d)
        }
        Placed::Rect(c, h) => {
            let d = (p - c).abs() - h;
            (d.max(DVec2::ZERO).length(), -d.max_element())
        }
    }
}

/// Points on the shape's boundary (all of a point or segment), and a bound on the
/// distance from any boundary point to the nearest of them.
fn boundary_samples(s: &Placed, n: usize) -> (Vec<DVec2>, f64) {
    let along = |a: DVec2, b: DVec2| (0..=n).map(move |k| a.lerp(b, k as f64 / n as f64));
    match *s {
        Placed::Point(p) => (vec![p], 0.0),
        Placed::Segment(a, b) => (along(a, b).collect(), a.distance(b) / (2 * n) as f64),
        Placed::Disk(c, r) => {
            let step = std::f64::consts::TAU / n as f64;
            let pts = (0..n)
                .map(|k| c + r * DVec2::from_angle(k as f64 * step))
                .collect();
            (pts, r * step)
        }
        Placed::Rect(c, h) => {
            let k = [
                c + DVec2::new(-h.x, -h.y),
                c + DVec2::new(h.x, -h.y),
                c + DVec2::new(h.x, h.y),
                c + DVec2::new(-h.x, h.y),
            ];
            let pts = (0..4).flat_map(|i| along(k[i], k[(i + 1) % 4])).collect();
            (pts, h.max_element() / n as f64)
        }
    }
}

/// Checks one time against the intervals, with sampled geometry.
///
/// Sampled distance `est` satisfies `d <= est <= d + cover` for the true distance `d`
/// (disjoint convex sets are closest on their boundaries; intersecting ones have a
/// boundary point of one inside the other). So `est > cover + margin` proves no
/// contact, and a sample strictly inside the other shape proves contact.
fn sanity_at(a: &Path, b: &Path, got: &[[f64; 2]], t: f64) {
    let (pa, pb) = (place(a, t), place(b, t));
    let mut est = f64::INFINITY;
    let mut depth = f64::NEG_INFINITY;
    let mut cover: f64 = 0.0;
    for (from, to) in [(&pa, &pb), (&pb, &pa)] {
        let (samples, c) = boundary_samples(from, 200);
        cover = cover.max(c);
        for s in samples {
            let (d, k) = distance_depth(s, to);
            est = est.min(d);
            depth = depth.max(k);
        }
    }
    let near = |slack: f64| got.iter().any(|i| i[0] - slack <= t && t <= i[1] + slack);
    if est > cover + 1e-6 {
        assert!(
            !near(1e-9),
            "{a:?} vs {b:?}: apart by {est} at t = {t}, got {got:?}"
        );
    }
    if depth > 1e-6 {
        assert!(
            near(1e-9),
            "{a:?} vs {b:?}: overlap {depth} at t = {t}, got {got:?}"
        );
    }
    if near(0.0) {
        assert!(
            est <= cover + 1e-9,
            "{a:?} vs {b:?}: in contact at t = {t} but {est} apart"
        );
    }
}

#[test]
fn random_pairs_symmetric_and_sane() {
    let mut rng = Random::new(0x5eed_0b5e_55ed);
    let mut slowest = 0.0f64;
    for ka in 0..4 {
        for kb in ka..4 {
            for _ in 0..30 {
                let (a, b) = (rng.path(ka), rng.path(kb));
                let clock = Instant::now();
                let got = contact_intervals(&a, &b);
                slowest = slowest.max(clock.elapsed().as_secs_f64());
                let back = contact_intervals(&b, &a);
                assert_eq!(got.len(), back.len(), "{a:?} vs {b:?}: {got:?} / {back:?}");
                for (x, y) in got.iter().zip(&back) {
                    assert!((x[0] - y[0]).abs() < 1e-12 && (x[1] - y[1]).abs() < 1e-12);
                }
                for (k, i) in got.iter().enumerate() {
                    assert!(0.0 <= i[0] && i[0] <= i[1] && i[1] <= 1.0, "{got:?}");
                    if k > 0 {
                        assert!(got[k - 1][1] < i[0], "{got:?}");
                    }
                }
                let times = (0..=100)
                    .map(|k| f64::from(k) / 100.0)
                    .chain(got.iter().flat_map(|i| [i[0], 0.5 * (i[0] + i[1]), i[1]]));
                for t in times {
                    sanity_at(&a, &b, &got, t);
                }
            }
        }
    }
    assert!(slowest < 0.5, "slowest oracle call took {slowest} s");
}

// -----------------------------------------------------------------------------------
// Rounded convex polygons
// -----------------------------------------------------------------------------------

/// A shape for [`convex_contact_intervals`]: vertex motions and radius.
type Convex = (Vec<[Vec2; 2]>, f32);

/// The polygon `vertices` translated by `from` at t = 0 and by `to` at t = 1.
fn translating(vertices: &[Vec2], from: Vec2, to: Vec2, radius: f32) -> Convex {
    (
        vertices.iter().map(|&p| [p + from, p + to]).collect(),
        radius,
    )
}

fn still_convex(vertices: &[Vec2], radius: f32) -> Convex {
    translating(vertices, Vec2::ZERO, Vec2::ZERO, radius)
}

/// Vertex `k` moves from `start[k]` to `end[k]`.
fn between(start: &[Vec2], end: &[Vec2], radius: f32) -> Convex {
    let motions = start.iter().zip(end).map(|(&p, &q)| [p, q]).collect();
    (motions, radius)
}

fn convex(a: &Convex, b: &Convex) -> Vec<[f64; 2]> {
    convex_contact_intervals(&a.0, a.1, &b.0, b.1)
}

fn reversed(a: &Convex) -> Convex {
    (a.0.iter().rev().copied().collect(), a.1)
}

fn close(got: &[[f64; 2]], want: &[[f64; 2]], tolerance: f64) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| (g[0] - w[0]).abs() <= tolerance && (g[1] - w[1]).abs() <= tolerance)
}

/// Checks both argument orders and both windings against hand-computed intervals.
#[track_caller]
fn check_convex(a: &Convex, b: &Convex, expected: &[[f64; 2]], tolerance: f64) {
    for (x, y) in [(a, b), (b, a)] {
        for (x, y) in [(x.clone(), y.clone()), (reversed(x), reversed(y))] {
            let got = convex(&x, &y);
            assert!(
                close(&got, expected, tolerance),
                "{x:?} vs {y:?}:\n   got {got:?}\n  want {expected:?}"
            );
        }
    }
}

/// The square `[0, 1]^2`, counter-clockwise.
fn unit_square() -> Vec<Vec2> {
    vec![v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)]
}

#[test]
fn convex_square_into_square() {
    // B = [0, 1] x [1/2, 3/2], still. A = [-3, -2] x [0, 1] moving right by 5: its x range
    // is [-3 + 5t, -2 + 5t]; the y ranges overlap, so contact iff -2 + 5t >= 0 and
    // -3 + 5t <= 1: t in [2/5, 4/5].
    let square = unit_square();
    let b = translating(&square, v(0.0, 0.5), v(0.0, 0.5), 0.0);
    let a = translating(&square, v(-3.0, 0.0), v(2.0, 0.0), 0.0);
    check_convex(&a, &b, &[[0.4, 0.8]], 1e-12);
    // Stopping half inside: -2 + 5t/2 >= 0 from t = 4/5 to the end.
    let stopping = translating(&square, v(-3.0, 0.0), v(-0.5, 0.0), 0.0);
    check_convex(&stopping, &b, &[[0.8, 1.0]], 1e-12);
    // Radii 1/4 + 1/4: the gap -(-2 + 5t), or -3 + 5t - 1, at most 1/2: t in [3/10, 9/10].
    let (ra, rb) = ((a.0.clone(), 0.25), (b.0.clone(), 0.25));
    check_convex(&ra, &rb, &[[0.3, 0.9]], 1e-12);
    // Passing above B by 1/2 + 2^-20 (y ranges [2 + 2^-20, 3 + 2^-20] and [1/2, 3/2]):
    // never touching; with radii 1/4 + 1/4 they touch only if the gap is <= 1/2.
    let e = 1.0 / 1_048_576.0;
    let above = translating(&square, v(-3.0, 2.0 + e), v(2.0, 2.0 + e), 0.25);
    check_convex(&above, &b, &[], 1e-12);
    check_convex(&above, &rb, &[], 1e-12);
    // Passing exactly 1/2 above with radii 1/4 + 1/4: touching while the x ranges
    // overlap (beyond them the distance is sqrt(g^2 + 1/4) > 1/2 for an x gap g > 0).
    let grazing = translating(&square, v(-3.0, 2.0), v(2.0, 2.0), 0.25);
    check_convex(&grazing, &rb, &[[0.4, 0.8]], 1e-12);
}

#[test]
fn convex_point_through_triangle() {
    // Triangle x >= 0, y >= 0, x + y <= 4; the point (-1 + 6t, 1) is inside for
    // 0 <= -1 + 6t <= 3: t in [1/6, 2/3].
    let triangle = still_convex(&[v(0.0, 0.0), v(4.0, 0.0), v(0.0, 4.0)], 0.0);
    let point = between(&[v(-1.0, 1.0)], &[v(5.0, 1.0)], 0.0);
    check_convex(&point, &triangle, &[[1.0 / 6.0, 2.0 / 3.0]], 1e-12);
    // Through the vertex (4, 0) only, at t = 1/2; beside it by 2^-20.
    let through = between(&[v(4.0, -1.0)], &[v(4.0, 1.0)], 0.0);
    check_convex(&through, &triangle, &[[0.5, 0.5]], 1e-12);
    let x = 4.0 + 1.0 / 1_048_576.0;
    let beside = between(&[v(x, -1.0)], &[v(x, 1.0)], 0.0);
    check_convex(&beside, &triangle, &[], 1e-12);
}

#[test]
fn convex_star_of_david() {
    // A = (0, 2), (-2, -1), (2, -1); B = -A. Still, they form a star: every vertex is
    // outside the other triangle (B's (2, 1) is right of A's side x = 2 - 2 (y + 1) / 3,
    // which is at x = 2/3 for y = 1; (0, -2) is below A's base y = -1; A's by symmetry),
    // and only their sides cross.
    let a_vertices = [v(0.0, 2.0), v(-2.0, -1.0), v(2.0, -1.0)];
    let b_vertices = [v(0.0, -2.0), v(2.0, 1.0), v(-2.0, 1.0)];
    let a = still_convex(&a_vertices, 0.0);
    check_convex(&a, &still_convex(&b_vertices, 0.0), &[[0.0, 1.0]], 1e-12);
    // The premise: the vertex tests alone find nothing.
    let scale = Scale::new(&[]);
    let core =
        |vs: &[Vec2]| -> Vec<PVec> { vs.iter().map(|&p| PVec::moving([p, p], &scale)).collect() };
    let (ca, cb) = (core(&a_vertices), core(&b_vertices));
    let vertices_only = Formula::Any(
        cb.iter()
            .map(|p| point_polygon_formula(p, &ca))
            .chain(ca.iter().map(|p| point_polygon_formula(p, &cb)))
            .collect(),
    );
    assert!(contact_set(&vertices_only).is_empty());
    // B sliding through A by h = -4 + 8t: they meet iff (h, 0) is in A - B = A + A = 2A,
    // the triangle (0, 4), (-4, -2), (4, -2), whose side x = 4 - 2 (y + 2) / 3 is at
    // x = 8/3 for y = 0: |-4 + 8t| <= 8/3, t in [1/6, 5/6], a star at t = 1/2.
    let b = translating(&b_vertices, v(-4.0, 0.0), v(4.0, 0.0), 0.0);
    check_convex(&a, &b, &[[1.0 / 6.0, 5.0 / 6.0]], 1e-12);
}

#[test]
fn convex_rotating_square_grazes_a_point() {
    // The square |x| + |y| <= 5 turned by the rotation (3/5, 4/5): each vertex moves
    // linearly, so at t the square is M D with M = [[a, -b], [b, a]], a = 1 - 2t/5,
    // b = 4t/5 (a turning, shrinking square: convex at every t). P = (4, 2) is in it iff
    // |x'| + |y'| <= 5 for (x', y') = M^-1 P = (4a + 2b, 2a - 4b) / (a^2 + b^2)
    // = (4, 2 - 4t) / (a^2 + b^2), i.e. 4 + |2 - 4t| <= 5 - 4t + 4t^2, i.e. with
    // u = t - 1/2: |u| <= u^2, only u = 0: the corner (5 - 2t, 4t) passes through P at
    // t = 1/2.
    let start = [v(5.0, 0.0), v(0.0, 5.0), v(-5.0, 0.0), v(0.0, -5.0)];
    let end = [v(3.0, 4.0), v(-4.0, 3.0), v(-3.0, -4.0), v(4.0, -3.0)];
    let square = between(&start, &end, 0.0);
    check_convex(
        &square,
        &still_convex(&[v(4.0, 2.0)], 0.0),
        &[[0.5, 0.5]],
        1e-12,
    );
    // Beyond the corner by 2^-10: missed.
    let beyond = still_convex(&[v(4.0 + 1.0 / 1024.0, 2.0)], 0.0);
    check_convex(&square, &beyond, &[], 1e-12);
}

#[test]
fn convex_rounded_square_reaches_a_point() {
    // The square [-1, 1]^2 with radius 1, centre (-5 + 5t, 0) (stopping at the origin).
    let core = [v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)];
    let rounded = |radius| translating(&core, v(-5.0, 0.0), Vec2::ZERO, radius);
    // The point (0, 1/2) faces the right side: distance 4 - 5t <= 1 from t = 3/5 on.
    let face = still_convex(&[v(0.0, 0.5)], 0.0);
    check_convex(&rounded(1.0), &face, &[[0.6, 1.0]], 1e-12);
    // The point (0, 3/2) meets the rounded corner (1, 1) first: (4 - 5t)^2 + 1/4 <= 1,
    // t >= (4 - sqrt(3/4)) / 5 (where 5 - 5t = 1 + sqrt(3/4) > 1, so beyond the side).
    let corner = still_convex(&[v(0.0, 1.5)], 0.0);
    let t = (4.0 - 0.75f64.sqrt()) / 5.0;
    check_convex(&rounded(1.0), &corner, &[[t, 1.0]], 1e-9);
    // The same with the radius split 1/2 + 1/2 between the shapes; with none, the bare
    // square never reaches (0, 3/2).
    let half = still_convex(&[v(0.0, 1.5)], 0.5);
    check_convex(&rounded(0.5), &half, &[[t, 1.0]], 1e-9);
    check_convex(&rounded(0.0), &corner, &[], 1e-12);
}

#[test]
fn convex_radius_sum_is_exact() {
    // 0.1f32 + 0.2f32 rounds in f32; the oracle adds them exactly (in f64 the sum of
    // these two 24-bit significands is exact), and the time error of the rounded sum,
    // about 4e-9, is far above the tolerance. A point (-1 + 2t, 0) with radius 0.1f32
    // against the origin with radius 0.2f32: |-1 + 2t| <= r, t in [(1 - r)/2, (1 + r)/2].
    let r = f64::from(0.1f32) + f64::from(0.2f32);
    assert_ne!(
        f64::from(0.1f32 + 0.2f32),
        r,
        "the test needs a rounded f32 sum"
    );
    let moving = between(&[v(-1.0, 0.0)], &[v(1.0, 0.0)], 0.1);
    let origin = still_convex(&[Vec2::ZERO], 0.2);
    check_convex(
        &moving,
        &origin,
        &[[(1.0 - r) / 2.0, (1.0 + r) / 2.0]],
        1e-12,
    );
}

#[test]
fn convex_degenerate_cores() {
    // A polygon with a repeated vertex, and a triangle collapsing to the segment
    // [(0, 0), (2, 0)] at t = 1/2 (its third vertex (1, 1 - 2t) crosses that line): the
    // point (1, -1/2) is inside for 1 - 2t <= -1/2, from t = 3/4 on.
    let repeated = still_convex(&[v(0.0, 0.0), v(4.0, 0.0), v(4.0, 0.0), v(0.0, 4.0)], 0.0);
    let point = between(&[v(-1.0, 1.0)], &[v(5.0, 1.0)], 0.0);
    check_convex(&point, &repeated, &[[1.0 / 6.0, 2.0 / 3.0]], 1e-12);
    let flipping = between(
        &[v(0.0, 0.0), v(2.0, 0.0), v(1.0, 1.0)],
        &[v(0.0, 0.0), v(2.0, 0.0), v(1.0, -1.0)],
        0.0,
    );
    let below = still_convex(&[v(1.0, -0.5)], 0.0);
    check_convex(&flipping, &below, &[[0.75, 1.0]], 1e-12);
    // A point off the collapsed triangle's line is never "inside" it at t = 1/2; a point
    // on its segment is touched then only: (1, -1/2 + t) reaches (1, 0) at t = 1/2,
    // while the apex (1, 1 - 2t) is above it before and below it after.
    let rising = between(&[v(1.0, -0.5)], &[v(1.0, 0.5)], 0.0);
    check_convex(&flipping, &rising, &[[0.5, 0.5]], 1e-12);
    // A polygon with all its vertices at one point is that point.
    let dot = still_convex(&[v(1.0, 1.0); 3], 0.0);
    check_convex(
        &dot,
        &between(&[v(0.0, 0.0)], &[v(2.0, 2.0)], 0.0),
        &[[0.5, 0.5]],
        1e-12,
    );
    check_convex(&dot, &still_convex(&[v(3.0, 3.0)], 0.0), &[], 1e-12);
}

#[test]
#[should_panic(expected = "non-negative")]
fn convex_negative_radius_panics() {
    convex_contact_intervals(&[still(Vec2::ZERO)], -1.0, &[still(Vec2::ONE)], 0.0);
}

#[test]
#[should_panic(expected = "at least one vertex")]
fn convex_empty_shape_panics() {
    convex_contact_intervals(&[], 0.0, &[still(Vec2::ONE)], 0.0);
}

#[test]
#[should_panic(expected = "finite")]
fn convex_non_finite_input_panics() {
    convex_contact_intervals(&[still(v(f32::NAN, 0.0))], 0.0, &[still(Vec2::ONE)], 0.0);
}

/// An old path as a rounded convex polygon: a point, a segment, a circle (a point with
/// a radius) or a box (its four corners, which must be exact in `f32`).
fn as_convex(path: &Path) -> Convex {
    match *path {
        Path::Point(p) => (vec![p], 0.0),
        Path::Segment { a, b } => (vec![a, b], 0.0),
        Path::Circle { center, radius } => (vec![center], radius),
        Path::Aabb {
            center,
            half_extents: h,
        } => {
            let corners = [v(-h.x, -h.y), v(h.x, -h.y), v(h.x, h.y), v(-h.x, h.y)];
            let motions = corners
                .iter()
                .map(|&k| {
                    center.map(|c| {
                        let p = c + k;
                        assert!(
                            p.as_dvec2() == c.as_dvec2() + k.as_dvec2(),
                            "a corner must be exact"
                        );
                        p
                    })
                })
                .collect();
            (motions, 0.0)
        }
    }
}

/// The same intervals from [`contact_intervals`] and [`convex_contact_intervals`], in
/// both argument orders; where just one shape has a radius, also with the radius moved
/// to the other shape (the distance between the cores is what counts).
#[track_caller]
fn check_against_paths(a: &Path, b: &Path) {
    let want = contact_intervals(a, b);
    let (ca, cb) = (as_convex(a), as_convex(b));
    let mut pairs = vec![(ca.clone(), cb.clone())];
    if (ca.1 == 0.0) != (cb.1 == 0.0) {
        let r = ca.1 + cb.1;
        pairs.push(((ca.0.clone(), r), (cb.0.clone(), 0.0)));
        pairs.push(((ca.0.clone(), 0.0), (cb.0.clone(), r)));
    }
    for (x, y) in pairs {
        for (x, y) in [(&x, &y), (&y, &x)] {
            let got = convex(x, y);
            assert!(
                close(&got, &want, 1e-12),
                "{a:?} vs {b:?} as {x:?} vs {y:?}:\n   got {got:?}\n  want {want:?}"
            );
        }
    }
}

#[test]
fn convex_matches_the_old_shapes() {
    // Points, segments and circles (kinds 0, 1, 2 of the random paths).
    let mut rng = Random::new(0xc0_4e_e5);
    for ka in 0..3 {
        for kb in ka..3 {
            for _ in 0..25 {
                check_against_paths(&rng.path(ka), &rng.path(kb));
            }
        }
    }
}

/// A multiple of 1/256 in [-3, 3], so that a box's corners are exact in `f32`.
fn grid_coord(rng: &mut Random) -> f32 {
    (rng.below(1537) as f32 - 768.0) / 256.0
}

fn grid_point(rng: &mut Random) -> Vec2 {
    v(grid_coord(rng), grid_coord(rng))
}

/// Still (1 in 4) or moving, on the grid.
fn grid_motion(rng: &mut Random) -> [Vec2; 2] {
    let p = grid_point(rng);
    if rng.below(4) == 0 {
        [p, p]
    } else {
        [p, grid_point(rng)]
    }
}

#[test]
fn convex_boxes_match_aabbs() {
    let mut rng = Random::new(0xb0_c5_e5);
    for kind in 0..4 {
        for _ in 0..12 {
            let (ha, hb) = (v(rng.size(), rng.size()), v(rng.size(), rng.size()));
            let a = aabb_path(grid_motion(&mut rng), ha);
            let b = match kind {
                0 => Path::Point(grid_motion(&mut rng)),
                1 => Path::Segment {
                    a: grid_motion(&mut rng),
                    b: grid_motion(&mut rng),
                },
                2 => Path::Circle {
                    center: grid_motion(&mut rng),
                    radius: hb.x,
                },
                _ => aabb_path(grid_motion(&mut rng), hb),
            };
            check_against_paths(&a, &b);
        }
    }
}

fn aabb_path(center: [Vec2; 2], half_extents: Vec2) -> Path {
    Path::Aabb {
        center,
        half_extents,
    }
}

/// The separation of two convex polygons (`n >= 3`) at one time, in `f64`: their
/// distance when apart, else minus the least overlap along a side's normal (separating
/// axis test, independent of the oracle's formula).
fn polygon_separation(a: &[DVec2], b: &[DVec2]) -> f64 {
    let mut best = f64::NEG_INFINITY;
    for poly in [a, b] {
        for (p, q) in poly.iter().zip(poly.iter().cycle().skip(1)) {
            let side = *q - *p;
            let axis = side.perp() / side.length();
            let range = |ps: &[DVec2]| {
                ps.iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                        (lo.min(axis.dot(*x)), hi.max(axis.dot(*x)))
                    })
            };
            let ((alo, ahi), (blo, bhi)) = (range(a), range(b));
            best = best.max((blo - ahi).max(alo - bhi));
        }
    }
    if best <= 0.0 {
        return best;
    }
    let mut distance = f64::INFINITY;
    for (ps, qs) in [(a, b), (b, a)] {
        for &p in ps {
            for (&q0, &q1) in qs.iter().zip(qs.iter().cycle().skip(1)) {
                distance = distance.min(point_segment_distance(p, q0, q1));
            }
        }
    }
    distance
}

/// A random convex polygon (`n >= 3`, integer vertices that are multiples of 5) turning
/// by a rotation with rational cosine and sine while its origin moves: vertex `w` moves
/// from `c0 + w` to `c1 + R w`, so at `t` the polygon is `c(t) + ((1 - t) I + t R) w`, a
/// similar copy (a scaled rotation, never singular for these rotations): convex.
fn turning_polygon(rng: &mut Random) -> Convex {
    const SHAPES: [&[[f32; 2]]; 5] = [
        &[[0.0, 0.0], [2.0, 0.0], [0.0, 1.0]],
        &[[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]],
        &[
            [0.0, -2.0],
            [2.0, -1.0],
            [1.0, 2.0],
            [-1.0, 2.0],
            [-2.0, -1.0],
        ],
        &[
            [2.0, 0.0],
            [1.0, 2.0],
            [-1.0, 2.0],
            [-2.0, 0.0],
            [-1.0, -2.0],
            [1.0, -2.0],
        ],
        &[[0.0, 0.0], [3.0, 0.0], [3.0, 1.0]],
    ];
    // (cos, sin) times 5: none is a half turn, where (1 - t) I + t R vanishes at t = 1/2.
    const TURNS: [[f32; 2]; 5] = [[5.0, 0.0], [3.0, 4.0], [4.0, -3.0], [-3.0, 4.0], [0.0, 5.0]];
    let shape = SHAPES[rng.below(5) as usize];
    let [c, s] = TURNS[rng.below(5) as usize];
    let mut centre = || v(rng.below(61) as f32 - 30.0, rng.below(61) as f32 - 30.0);
    let (c0, c1) = (centre(), centre());
    let motions = shape
        .iter()
        .map(|&[x, y]| {
            let w = v(5.0 * x, 5.0 * y);
            [c0 + w, c1 + v(c * x - s * y, s * x + c * y)]
        })
        .collect();
    (motions, [0.0, 0.5, 2.0][rng.below(3) as usize])
}

#[test]
fn convex_turning_polygons_sane() {
    let mut rng = Random::new(0x0007_0000_000e_5a7e);
    let mut slowest = 0.0f64;
    let (mut touching, mut apart) = (0, 0);
    for _ in 0..60 {
        let (a, b) = (turning_polygon(&mut rng), turning_polygon(&mut rng));
        let clock = Instant::now();
        let got = convex(&a, &b);
        slowest = slowest.max(clock.elapsed().as_secs_f64());
        let back = convex(&b, &a);
        assert!(close(&got, &back, 1e-12), "{got:?} / {back:?}");
        for (k, i) in got.iter().enumerate() {
            assert!(0.0 <= i[0] && i[0] <= i[1] && i[1] <= 1.0, "{got:?}");
            assert!(k == 0 || got[k - 1][1] < i[0], "{got:?}");
        }
        let reach = f64::from(a.1) + f64::from(b.1);
        let at = |shape: &Convex, t: f64| -> Vec<DVec2> {
            shape.0.iter().map(|&m| lerp(m, t)).collect()
        };
        let times = (0..=128)
            .map(|k| f64::from(k) / 128.0)
            .chain(got.iter().flat_map(|i| [i[0], 0.5 * (i[0] + i[1]), i[1]]));
        for t in times {
            let gap = polygon_separation(&at(&a, t), &at(&b, t)) - reach;
            let near = got.iter().any(|i| i[0] - 1e-9 <= t && t <= i[1] + 1e-9);
            assert!(
                near || gap > -1e-6,
                "{a:?} vs {b:?}: in contact by {gap} at t = {t}, got {got:?}"
            );
            assert!(
                !near || gap < 1e-6,
                "{a:?} vs {b:?}: apart by {gap} at t = {t}, got {got:?}"
            );
        }
        if got.is_empty() {
            apart += 1;
        } else {
            touching += 1;
        }
    }
    assert!(
        touching >= 10 && apart >= 5,
        "{touching} touching, {apart} apart"
    );
    assert!(slowest < 2.0, "slowest oracle call took {slowest} s");
}
