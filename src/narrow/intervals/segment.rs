//! The pairs with a segment: point, segment, circle and box against a moving segment.

use super::moments::{Moments, NEAR, assemble, distance_to_segment, scale};
use super::{Intervals, box_interval, disk_interval, hull, relative, stays_out};
use crate::geometry::robust::{circle_power, cross_of_motions, orient2d};
use crate::geometry::{
    clip_segment_aabb, intersect_segment_circle, intersect_segment_segment, sweep_point_segment,
};
use crate::narrow::polynomial::{Poly, roots_in_unit};
use crate::narrow::shape::lerp;
use bevy_math::{DVec2, Vec2, bounding::Aabb2d};

fn segments_touch(a: Vec2, b: Vec2, c: Vec2, d: Vec2, tolerance: f64) -> bool {
    intersect_segment_segment(a, b, c, d).is_some()
        || [
            distance_to_segment(a, c, d),
            distance_to_segment(b, c, d),
            distance_to_segment(c, a, b),
            distance_to_segment(d, a, b),
        ]
        .into_iter()
        .any(|x| x <= tolerance)
}

pub(super) fn point_segment(p: [Vec2; 2], a: [Vec2; 2], b: [Vec2; 2]) -> Intervals {
    let on_at = |i: usize| intersect_segment_segment(a[i], b[i], p[i], p[i]).is_some();
    let (on0, on1) = (on_at(0), on_at(1));
    if orient2d(a[0], b[0], p[0]) == 0.0
        && orient2d(a[1], b[1], p[1]) == 0.0
        && cross_of_motions(b, p, a) == 0.0
    {
        return point_on_its_line(p, a, b, on0, on1);
    }
    let tolerance = f64::from(NEAR * scale(&[p, a, b]));
    let near_at = |t: f32| distance_to_segment(lerp(p, t), lerp(a, t), lerp(b, t)) <= tolerance;
    let mut out = Intervals::default();
    for sweep in sweep_point_segment(a, b, p) {
        let t = sweep.time;
        // The ends are decided by the exact static test.
        if (t == 0.0 && !on0) || (t == 1.0 && !on1) {
            continue;
        }
        out.push([t, t]);
    }
    if on0 && out.first().is_none_or(|i| i[0] > 0.0) {
        out.push_front([0.0, 0.0]);
    }
    if on1 {
        match out.last_mut() {
            Some(last) if last[1] == 1.0 => {}
            // The kernel reports only the start of a stretch on the segment: a point still on
            // it at the end, and all the way since, slid along it.
            Some(last) if near_at(last[0] + 0.5 * (1.0 - last[0])) => last[1] = 1.0,
            _ => out.push([1.0, 1.0]),
        }
    }
    out
}

/// A point on the segment's line during the whole step (the cross product is identically
/// zero): it is on the segment while it is between the endpoints, so contact begins and ends
/// only where it meets an endpoint.
fn point_on_its_line(p: [Vec2; 2], a: [Vec2; 2], b: [Vec2; 2], on0: bool, on1: bool) -> Intervals {
    let mut moments = Moments::<16>::default();
    for end in [a, b] {
        if let Some([first, last]) = box_interval(relative(p, end), Vec2::ZERO) {
            moments.push(first);
            moments.push(last);
        }
    }
    let tolerance = f64::from(NEAR * scale(&[p, a, b]));
    assemble(
        moments,
        on0,
        on1,
        |_| true,
        |t| distance_to_segment(lerp(p, t), lerp(a, t), lerp(b, t)) <= tolerance,
    )
}

/// The sweeps of endpoints that [stay out](stays_out) of the other segment's hull are
/// skipped: they cannot meet it.
pub(super) fn segment_segment(s: [[Vec2; 2]; 2], r: [[Vec2; 2]; 2]) -> Intervals {
    let [a, b] = s;
    let [c, d] = r;
    let mut moments = Moments::<16>::default();
    let tolerance = segment_pair_margin([a, b, c, d]);
    let (ab, cd) = (hull(&[a, b]), hull(&[c, d]));
    for (seg, hull, point) in [
        ((a, b), ab, c),
        ((a, b), ab, d),
        ((c, d), cd, a),
        ((c, d), cd, b),
    ] {
        if stays_out(point, &hull, tolerance) {
            continue;
        }
        for sweep in sweep_point_segment(seg.0, seg.1, point) {
            moments.push(sweep.time);
        }
    }
    // Collinear segments sliding along each other separate when two endpoints meet (the
    // sweeps report only when an endpoint starts to lie on the other segment).
    for (p, q) in [(a, c), (a, d), (b, c), (b, d)] {
        if let Some([first, last]) = box_interval(relative(p, q), Vec2::ZERO) {
            moments.push(first);
            moments.push(last);
        }
    }
    let touch_at = |i: usize| intersect_segment_segment(a[i], b[i], c[i], d[i]).is_some();
    let tolerance = f64::from(tolerance);
    assemble(
        moments,
        touch_at(0),
        touch_at(1),
        |_| true,
        |t| segments_touch(lerp(a, t), lerp(b, t), lerp(c, t), lerp(d, t), tolerance),
    )
}

pub(super) fn segment_circle(s: [[Vec2; 2]; 2], center: [Vec2; 2], radius: f32) -> Intervals {
    let [a, b] = s;
    let mut moments = Moments::<16>::default();
    for end in [a, b] {
        if let Some([first, last]) = disk_interval(relative(end, center), radius) {
            moments.push(first);
            moments.push(last);
        }
    }
    let (roots, n) = tangent_moments(a, b, center, radius);
    for &t in &roots[..n] {
        moments.push(t as f32);
    }
    let r = f64::from(radius);
    let touch_exact = |i: usize| segment_meets_disk(a[i], b[i], center[i], radius);
    let tolerance = f64::from(NEAR * scale(&[a, b, center]).max(radius));
    let near =
        |t: f32| distance_to_segment(lerp(center, t), lerp(a, t), lerp(b, t)) <= r + tolerance;
    assemble(moments, touch_exact(0), touch_exact(1), near, near)
}

/// `true` if the closed segment `a b` meets the closed disk of `radius` around `center`:
/// an endpoint in the disk, or the segment crossing its circle (the exact kernels), or,
/// for a tangent the kernels round away, within `radius` in `f64`.
///
/// The distance in `f64` decides first, and the exact kernels only where it is within its
/// own rounding of `radius` (most calls are far from a touch). The answer is the same: an
/// endpoint in the disk, or a segment crossing the circle, is within `radius` of the centre,
/// which the `f64` distance (a few `2^-52` of the coordinates off) cannot put `2^-40` of the
/// scene beyond it.
pub(super) fn segment_meets_disk(a: Vec2, b: Vec2, center: Vec2, radius: f32) -> bool {
    let (distance, r) = (distance_to_segment(center, a, b), f64::from(radius));
    if distance <= r {
        return true;
    }
    let scale = [a, b, center]
        .iter()
        .fold(r, |m, p| m.max(f64::from(p.abs().max_element())));
    if distance > r + scale / (1u64 << 40) as f64 {
        return false;
    }
    circle_power(a, center, radius) <= 0.0
        || circle_power(b, center, radius) <= 0.0
        || !intersect_segment_circle(a, b, center, radius).is_empty()
}

/// Moments at which the circle is tangent to the moving segment's line with the foot of the
/// tangency on the segment: roots of `cross(b − a, c − a)² − r²·|b − a|²`, degree 4 in time.
pub(super) fn tangent_moments(
    a: [Vec2; 2],
    b: [Vec2; 2],
    c: [Vec2; 2],
    radius: f32,
) -> ([f64; 4], usize) {
    let f = |p: [Vec2; 2]| (p[0].as_dvec2(), p[1].as_dvec2() - p[0].as_dvec2());
    let ((a0, da), (b0, db), (c0, dc)) = (f(a), f(b), f(c));
    let (d0, dd) = (b0 - a0, db - da);
    let (e0, de) = (c0 - a0, dc - da);
    let q = [
        d0.perp_dot(e0),
        d0.perp_dot(de) + dd.perp_dot(e0),
        dd.perp_dot(de),
    ];
    let l = [d0.dot(d0), 2.0 * d0.dot(dd), dd.dot(dd)];
    if foot_stays_off(e0, de, d0, dd, l) {
        return ([0.0; 4], 0);
    }
    let r2 = f64::from(radius) * f64::from(radius);
    let g: Poly = [
        q[0] * q[0] - r2 * l[0],
        2.0 * q[0] * q[1] - r2 * l[1],
        q[1] * q[1] + 2.0 * q[0] * q[2] - r2 * l[2],
        2.0 * q[1] * q[2],
        q[2] * q[2],
    ];
    let q_size = q.iter().map(|x| x.abs()).sum::<f64>();
    let l_size = l.iter().map(|x| x.abs()).sum::<f64>();
    let tolerance = 64.0 * f64::EPSILON * (q_size * q_size + r2 * l_size);
    let (roots, n) = roots_in_unit(&g, tolerance);
    let mut out = [0.0; 4];
    let mut m = 0;
    for &t in &roots[..n] {
        let d = d0 + dd * t;
        let e = e0 + de * t;
        let len2 = d.length_squared();
        let foot = if len2 > 0.0 { e.dot(d) / len2 } else { -1.0 };
        if (-1e-6..=1.0 + 1e-6).contains(&foot) {
            out[m] = t;
            m += 1;
        }
    }
    // Times are f64 here; the caller narrows them to f32 moments.
    (out, m)
}

/// `true` if the foot of the point on the segment's line stays before its start, or beyond
/// its end, through the whole step, by more than the tolerance [`tangent_moments`] keeps
/// its roots with: no tangency can have its foot on the segment, and the quartic need not be
/// solved (its roots would all be left out).
///
/// The foot is `s = N / L` with `N = (c − a)·(b − a)` and `L = |b − a|²`, both quadratic in
/// time (`e`, `d` are `c − a` and `b − a` at the start and their changes; `l` is `L`'s
/// coefficients). `s < −k` throughout where `N + k·L` stays negative, and `s > 1 + k`
/// where `N − (1 + k)·L` stays positive: shown by the quadratics' Bernstein coefficients,
/// between which their values lie, with room for the rounding of every product.
pub(super) fn foot_stays_off(e: DVec2, de: DVec2, d: DVec2, dd: DVec2, l: [f64; 3]) -> bool {
    const KEEP: f64 = 1e-6;
    let n = [e.dot(d), e.dot(dd) + de.dot(d), de.dot(dd)];
    let bernstein = |c: [f64; 3]| [c[0], c[0] + 0.5 * c[1], c[0] + c[1] + c[2]];
    let size = n.iter().chain(&l).map(|x| x.abs()).sum::<f64>();
    let margin = 64.0 * f64::EPSILON * size;
    let before = bernstein([0, 1, 2].map(|i| n[i] + KEEP * l[i]));
    let beyond = bernstein([0, 1, 2].map(|i| n[i] - (1.0 + KEEP) * l[i]));
    before.iter().all(|&x| x < -margin) || beyond.iter().all(|&x| x > margin)
}

/// How far `segment_segment`'s tests reach beyond exact contact: the rounding allowance of
/// its midpoint tests, and the margin of its hulls.
pub(super) fn segment_pair_margin(paths: [[Vec2; 2]; 4]) -> f32 {
    NEAR * scale(&paths)
}

/// How far `segment_box`'s tests reach beyond exact contact (see [`segment_pair_margin`]):
/// paths of the segment's ends and of the box's centre, and the box's half extents.
pub(super) fn segment_box_margin(paths: [[Vec2; 2]; 3], half: Vec2) -> f32 {
    NEAR * scale(&paths).max(half.max_element())
}

/// The sweeps of corners that [stay out](stays_out) of the segment's hull are skipped: they
/// cannot meet it.
pub(super) fn segment_box(s: [[Vec2; 2]; 2], center: [Vec2; 2], half: Vec2) -> Intervals {
    let [a, b] = s;
    let mut moments = Moments::<16>::default();
    for end in [a, b] {
        if let Some([first, last]) = box_interval(relative(end, center), half) {
            moments.push(first);
            moments.push(last);
        }
    }
    let grow = segment_box_margin([a, b, center], half);
    // The corners meet the segment in the box's own frame: there a corner is exactly
    // `±half`, where in world space `center ± half` rounds to `f32` (an error that a slow,
    // glancing approach turns into a large one in time), and the endpoints' paths relative
    // to the centre are exact wherever they are near the box (Sterbenz).
    let (rel_a, rel_b) = (relative(a, center), relative(b, center));
    let ab = hull(&[rel_a, rel_b]);
    for sign in [
        Vec2::ONE,
        -Vec2::ONE,
        Vec2::new(1.0, -1.0),
        Vec2::new(-1.0, 1.0),
    ] {
        let corner = [sign * half; 2];
        if stays_out(corner, &ab, grow) {
            continue;
        }
        for sweep in sweep_point_segment(rel_a, rel_b, corner) {
            moments.push(sweep.time);
        }
    }
    let aabb_at = |c: Vec2, grow: f32| Aabb2d {
        min: c - half - Vec2::splat(grow),
        max: c + half + Vec2::splat(grow),
    };
    let touch_at = |i: usize| clip_segment_aabb(a[i], b[i], &aabb_at(center[i], 0.0)).is_some();
    assemble(
        moments,
        touch_at(0),
        touch_at(1),
        |_| true,
        |t| clip_segment_aabb(lerp(a, t), lerp(b, t), &aabb_at(lerp(center, t), grow)).is_some(),
    )
}
