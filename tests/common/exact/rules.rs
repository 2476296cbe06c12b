//! Shared by the tests that hold the plugin to the exact oracle: paths in the oracle's form,
//! and the documented event rules applied to one pair's exact contact intervals. Beside the
//! oracle (`super::oracle`), in `tests/common/exact/` and in the avian2d comparison.

use super::oracle::{self, Path};
use bevy_sweep::narrow::{ConvexVertices, ShapePath};
use bevy_sweep::prelude::CollisionKind;

/// A path in the oracle's form.
pub(crate) fn to_oracle(path: &ShapePath) -> Path {
    match *path {
        ShapePath::Point(p) => Path::Point(p),
        ShapePath::Segment { a, b } => Path::Segment { a, b },
        ShapePath::Circle { center, radius } => Path::Circle { center, radius },
        ShapePath::Aabb {
            center,
            half_extents,
        } => Path::Aabb {
            center,
            half_extents,
        },
        ShapePath::Convex(_) => unreachable!("rounded polygons go to the convex oracle"),
    }
}

/// The oracle's exact contact intervals of two shapes' paths in one tick: the basic pairs by
/// their own formulas, any pair with a rounded polygon by the polygon formula.
pub(crate) fn exact_pair(a: &ShapePath, b: &ShapePath) -> Vec<[f64; 2]> {
    let basic = |p: &ShapePath| !matches!(p, ShapePath::Convex(_));
    if basic(a) && basic(b) {
        return oracle::contact_intervals(&to_oracle(a), &to_oracle(b));
    }
    let (ca, cb) = (ConvexVertices::from(a), ConvexVertices::from(b));
    let (pa, pb) = (ca.path(), cb.path());
    oracle::convex_contact_intervals(pa.vertices, pa.radius, pb.vertices, pb.radius)
}

/// The exact contact intervals of two colliders made of several paths (a polyline's edges;
/// one path for the other shapes): the union of every pair's, sorted and merged where they
/// meet.
pub(crate) fn exact_union(a: &[ShapePath], b: &[ShapePath]) -> Vec<[f64; 2]> {
    let mut intervals: Vec<[f64; 2]> = a
        .iter()
        .flat_map(|p| b.iter().flat_map(move |q| exact_pair(p, q)))
        .collect();
    intervals.sort_by(|x, y| x[0].total_cmp(&y[0]));
    let mut out: Vec<[f64; 2]> = Vec::new();
    for [s, e] in intervals {
        match out.last_mut() {
            Some(last) if s <= last[1] => last[1] = last[1].max(e),
            _ => out.push([s, e]),
        }
    }
    out
}

/// The documented event rules, applied to one pair's exact contact intervals in one tick.
/// `touching` is whether the pair was in a reported contact at the end of the last tick;
/// `crossed_at_end` whether an instant contact was reported exactly at its end.
pub(crate) fn expected_events(
    intervals: &[[f64; 2]],
    touching: &mut bool,
    crossed_at_end: &mut bool,
) -> Vec<(CollisionKind, f64)> {
    let mut out = Vec::new();
    let from_start = intervals.first().filter(|i| i[0] == 0.0);
    if *touching && from_start.is_none() {
        out.push((CollisionKind::Ended, 0.0));
        *touching = false;
    }
    let was_crossed = core::mem::take(crossed_at_end);
    for (k, &[s, e]) in intervals.iter().enumerate() {
        let continued = k == 0 && s == 0.0 && (*touching || was_crossed);
        if continued {
            if was_crossed && e > 0.0 {
                out.push((CollisionKind::Started, 0.0));
                *touching = true;
            }
            if *touching && e < 1.0 {
                out.push((CollisionKind::Ended, e));
                *touching = false;
            }
        } else if s == e {
            out.push((CollisionKind::Crossed, s));
            *crossed_at_end = s == 1.0;
        } else {
            out.push((CollisionKind::Started, s));
            *touching = true;
            if e < 1.0 {
                out.push((CollisionKind::Ended, e));
                *touching = false;
            }
        }
    }
    out
}
