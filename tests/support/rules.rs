//! Shared by the tests that hold the plugin to the exact oracle: paths in the oracle's form,
//! and the documented event rules applied to one pair's exact contact intervals. Included by
//! `#[path]` beside the oracle (`super::oracle`) in each test binary that uses it.

use super::oracle::Path;
use bevy_sweep::narrow::ShapePath;
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
