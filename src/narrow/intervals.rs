//! When two moving shapes touch: closed time intervals within one step.

use super::shape::{ConvexVertices, ShapePath};
use super::translating::translating;
use crate::geometry::clip_segment_aabb;
use crate::geometry::intersect_with_powers;
use crate::geometry::robust::{all_finite, circle_power};
use bevy_math::{DVec2, Vec2, bounding::Aabb2d};
use core::ops::{Deref, DerefMut};

/// The contact intervals of one pair in one step (see [`contact_intervals`]): closed,
/// ascending, disjoint `[first, last]` times within `[0, 1]`, stored inline (no heap
/// allocation). Read it as a slice of `[f32; 2]`.
#[derive(Clone, Copy, Default)]
pub struct Intervals {
    items: [[f32; 2]; Intervals::CAPACITY],
    len: u8,
}

impl Intervals {
    /// The most intervals a pair can have in one step: for the four basic shapes the
    /// moments at which contact can change are at most sixteen, plus the two ends of the
    /// step, and each interval holds at least one of them.
    pub const CAPACITY: usize = 18;

    /// One interval.
    pub(crate) fn single(interval: [f32; 2]) -> Self {
        let mut out = Self::default();
        out.push(interval);
        out
    }

    /// Appends an interval. Past [`CAPACITY`](Self::CAPACITY) (which only a pair of convex
    /// polygons of many vertices could reach, see [`convex_contact_intervals`]) the last
    /// interval is widened instead, so that no contact is ever dropped.
    fn push(&mut self, interval: [f32; 2]) {
        if usize::from(self.len) < Self::CAPACITY {
            self.items[usize::from(self.len)] = interval;
            self.len += 1;
        } else {
            let last = &mut self.items[Self::CAPACITY - 1];
            last[1] = last[1].max(interval[1]);
        }
    }

    /// Puts an interval first (the others move up).
    fn push_front(&mut self, interval: [f32; 2]) {
        self.push(interval);
        self.items[..usize::from(self.len)].rotate_right(1);
    }
}

impl Deref for Intervals {
    type Target = [[f32; 2]];
    fn deref(&self) -> &[[f32; 2]] {
        &self.items[..usize::from(self.len)]
    }
}

impl DerefMut for Intervals {
    fn deref_mut(&mut self) -> &mut [[f32; 2]] {
        &mut self.items[..usize::from(self.len)]
    }
}

impl core::fmt::Debug for Intervals {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Intervals {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<const N: usize> PartialEq<[[f32; 2]; N]> for Intervals {
    fn eq(&self, other: &[[f32; 2]; N]) -> bool {
        **self == other[..]
    }
}

impl PartialEq<[[f32; 2]]> for Intervals {
    fn eq(&self, other: &[[f32; 2]]) -> bool {
        **self == *other
    }
}

impl<'a> IntoIterator for &'a Intervals {
    type Item = &'a [f32; 2];
    type IntoIter = core::slice::Iter<'a, [f32; 2]>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Every moment of the step at which the two closed shapes touch or overlap.
///
/// The result is a list of closed time intervals `[first, last]` within `[0, 1]`, ascending
/// and disjoint. A contact of one instant (a point passing through a segment, a graze) is
/// `[t, t]`; shapes that touch during the whole step give `[[0.0, 1.0]]`. Both shapes move
/// under the linear-per-vertex model of [`ShapePath`]. The answer is symmetric in `a` and `b`.
///
/// # Accuracy
/// - Whether the shapes touch at the start (`0`) and end (`1`) of the step is decided by the
///   exact static kernels on the given coordinates (for pairs without a segment, on their
///   coordinates relative to each other, rounded once to `f32`), so the end of one step and
///   the start of the next agree.
/// - Inside the step, times are accurate to a few `f32` ulps within the domain documented on
///   [`sweep_point_segment`](crate::geometry::sweep_point_segment), or to the time the
///   contact point takes to move a few ulps of the coordinates towards the other shape,
///   whichever is longer: some solvers round points
///   they derive (a box's corners, paths relative to each other) to `f32`, which matters
///   where the shapes meet slowly or at a glancing angle. Contacts that only graze (a tangency, a point sliding along a segment) are
///   decided within rounding: they may be reported as an instant or missed by a
///   rounding-sized margin, and a point that slides along a segment's own line and leaves it
///   mid-step is reported as an instant contact where it started sliding.
///
/// Invalid paths (see [`ShapePath::is_valid`]) give no contact.
///
/// # Example
/// A point crossing a still vertical segment a quarter of the way through the step:
/// ```
/// use bevy_math::Vec2;
/// use bevy_sweep::narrow::{ShapePath, contact_intervals};
///
/// let point = ShapePath::Point([Vec2::new(-5.0, 0.0), Vec2::new(15.0, 0.0)]);
/// let wall = ShapePath::Segment {
///     a: [Vec2::new(0.0, -1.0); 2],
///     b: [Vec2::new(0.0, 1.0); 2],
/// };
/// assert_eq!(contact_intervals(&point, &wall), [[0.25, 0.25]]);
/// ```
#[must_use]
pub fn contact_intervals(a: &ShapePath, b: &ShapePath) -> Intervals {
    if !a.is_valid() || !b.is_valid() {
        return Intervals::default();
    }
    contact_intervals_of_valid(a, b)
}

/// [`contact_intervals`] of two paths known to be valid (the plugin's, checked once per
/// tick rather than once per pair).
pub(crate) fn contact_intervals_of_valid(a: &ShapePath, b: &ShapePath) -> Intervals {
    debug_assert!(a.is_valid() && b.is_valid());
    let (a, b) = if a.rank() <= b.rank() { (a, b) } else { (b, a) };
    // Rounded polygons (the highest rank): the general solver.
    if let ShapePath::Convex(convex) = b {
        return convex_contact_intervals(&ConvexVertices::from(a).path(), &convex.path());
    }
    // The segment solvers collect and test many candidate moments; most candidate pairs of
    // a busy scene are nowhere near each other at any one moment, and a few operations
    // prove it. (The other pairs are solved exactly in about as few.)
    let has_segment =
        matches!(a, ShapePath::Segment { .. }) || matches!(b, ShapePath::Segment { .. });
    if has_segment {
        // Pairs that do not turn, in closed form where it can be certified (which answers
        // most pairs that are apart, too, at once).
        if let Some(answer) = translating(a, b) {
            return answer.map(Intervals::single).unwrap_or_default();
        }
        if disks_stay_apart(a, b) {
            return Intervals::default();
        }
    }
    solve(a, b)
}

/// A disk that holds the shape throughout the step: the path of its centre and its radius,
/// in `f64`. A segment's centre is the midpoint of its endpoints, which moves linearly
/// because they do; its half length at any moment is at most the larger of its half
/// lengths at the ends (the endpoints' difference moves linearly, and length is convex).
fn bounding_disk(path: &ShapePath) -> ([DVec2; 2], f64) {
    match *path {
        ShapePath::Point(p) => (p.map(Vec2::as_dvec2), 0.0),
        ShapePath::Segment { a, b } => {
            let (a, b) = (a.map(Vec2::as_dvec2), b.map(Vec2::as_dvec2));
            let half = (a[0] - b[0]).length().max((a[1] - b[1]).length()) / 2.0;
            ([a[0].midpoint(b[0]), a[1].midpoint(b[1])], half)
        }
        ShapePath::Circle { center, radius } => (center.map(Vec2::as_dvec2), f64::from(radius)),
        ShapePath::Aabb {
            center,
            half_extents,
        } => (center.map(Vec2::as_dvec2), half_extents.as_dvec2().length()),
        // Solved by the general solver, which has its own.
        ShapePath::Convex(_) => ([DVec2::ZERO; 2], f64::INFINITY),
    }
}

/// `true` if the two shapes' [bounding disks](bounding_disk) stay apart throughout the step
/// by far more than rounding, so the shapes cannot touch.
///
/// The disks' centres move linearly, so their distance is smallest at one moment, found in
/// closed form in `f64`. The margin, `2^-12` of the disks' radii plus `2^-14` of the
/// largest coordinate, is 64 times the solvers' own tolerance
/// ([`NEAR`](moments::NEAR), `2^-20` of the scene) and far above the rounding of the `f32`
/// positions inside the step, so a pair the solvers would call touching is never left out
/// (tested on pairs placed to touch within a few rounding steps).
fn disks_stay_apart(a: &ShapePath, b: &ShapePath) -> bool {
    let (c, r) = bounding_disk(a);
    let (d, s) = bounding_disk(b);
    moving_disks_stay_apart((c, r), (d, s))
}

/// [`disks_stay_apart`] for two disks given by their centres' paths and radii.
fn moving_disks_stay_apart((c, r): ([DVec2; 2], f64), (d, s): ([DVec2; 2], f64)) -> bool {
    let (start, end) = (c[0] - d[0], c[1] - d[1]);
    let motion = end - start;
    let length2 = motion.length_squared();
    let t = if length2 > 0.0 {
        (-start.dot(motion) / length2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let closest = (start + motion * t).length();
    let scale = [c[0], c[1], d[0], d[1]]
        .into_iter()
        .fold(r + s, |m: f64, p| m.max(p.abs().max_element() + r + s));
    let reach = (r + s) * (1.0 + 1.0 / 4096.0) + scale / 16384.0;
    closest > reach
}

/// [`contact_intervals_of_valid`] of two paths in rank order, without the shortcuts: the
/// general solver.
pub(super) fn solve(a: &ShapePath, b: &ShapePath) -> Intervals {
    match (*a, *b) {
        (ShapePath::Point(p), ShapePath::Point(q)) => one(box_interval(relative(p, q), Vec2::ZERO)),
        (ShapePath::Point(p), ShapePath::Segment { a, b }) => point_segment(p, a, b),
        (ShapePath::Point(p), ShapePath::Circle { center, radius }) => {
            one(disk_interval(relative(p, center), radius))
        }
        (
            ShapePath::Point(p),
            ShapePath::Aabb {
                center,
                half_extents,
            },
        ) => one(box_interval(relative(p, center), half_extents)),
        (ShapePath::Segment { a, b }, ShapePath::Segment { a: c, b: d }) => {
            segment_segment([a, b], [c, d])
        }
        (ShapePath::Segment { a, b }, ShapePath::Circle { center, radius }) => {
            segment_circle([a, b], center, radius)
        }
        (
            ShapePath::Segment { a, b },
            ShapePath::Aabb {
                center,
                half_extents,
            },
        ) => segment_box([a, b], center, half_extents),
        (
            ShapePath::Circle { center: c, radius },
            ShapePath::Circle {
                center: d,
                radius: s,
            },
        ) => one(disk_interval(relative(c, d), radius + s)),
        (
            ShapePath::Circle { center: c, radius },
            ShapePath::Aabb {
                center,
                half_extents,
            },
        ) => one(rounded_box_interval(
            relative(c, center),
            half_extents,
            radius,
        )),
        (
            ShapePath::Aabb {
                center: c,
                half_extents: h,
            },
            ShapePath::Aabb {
                center: d,
                half_extents: k,
            },
        ) => one(box_interval(relative(c, d), h + k)),
        // Ranks put every pair in one of the orders above.
        _ => Intervals::default(),
    }
}

fn one(interval: Option<[f32; 2]>) -> Intervals {
    let mut out = Intervals::default();
    if let Some(i) = interval {
        out.push(i);
    }
    out
}

/// `p − q` at the start and at the end: the path of `p` seen from `q`. The same rounding at
/// the end of one step and the start of the next.
fn relative(p: [Vec2; 2], q: [Vec2; 2]) -> [Vec2; 2] {
    [p[0] - q[0], p[1] - q[1]]
}

/// When the path is in the closed box `±half` around the origin.
fn box_interval(path: [Vec2; 2], half: Vec2) -> Option<[f32; 2]> {
    let aabb = Aabb2d {
        min: -half,
        max: half,
    };
    clip_segment_aabb(path[0], path[1], &aabb).map(|clip| [clip.entry, clip.exit])
}

/// When the path is in the closed disk of `radius` around `center`.
fn disk_interval_at(path: [Vec2; 2], center: Vec2, radius: f32) -> Option<[f32; 2]> {
    // (A relative path may overflow.)
    if !all_finite([path[0], path[1], center]) {
        return None;
    }
    let powers = (
        circle_power(path[0], center, radius),
        circle_power(path[1], center, radius),
    );
    let (inside0, inside1) = (powers.0 <= 0.0, powers.1 <= 0.0);
    // A disk is convex: a path that starts and ends in it stays in it.
    if inside0 && inside1 {
        return Some([0.0, 1.0]);
    }
    let hits = intersect_with_powers(path[0], path[1], center, radius, powers);
    let (first, last) = (hits.first(), hits.as_slice().last().copied());
    match (inside0, inside1) {
        (true, true) => Some([0.0, 1.0]),
        (true, false) => Some([0.0, last.unwrap_or(0.0)]),
        (false, true) => Some([first.unwrap_or(1.0), 1.0]),
        (false, false) => first.zip(last).map(|(f, l)| [f, l]),
    }
}

fn disk_interval(path: [Vec2; 2], radius: f32) -> Option<[f32; 2]> {
    disk_interval_at(path, Vec2::ZERO, radius)
}

/// When the path is in the box `±half` grown by `radius` with round corners: the union of
/// two grown boxes and four corner disks, which is convex, so one interval.
///
/// A point outside both boxes lies beyond one corner on both axes, and is in the shape
/// exactly when it is in that corner's disk; so a corner's disk is tested only if the path
/// goes beyond that corner on both axes (otherwise the boxes hold all of the disk it meets).
fn rounded_box_interval(path: [Vec2; 2], half: Vec2, radius: f32) -> Option<[f32; 2]> {
    let boxes = [
        box_interval(path, half + Vec2::new(radius, 0.0)),
        box_interval(path, half + Vec2::new(0.0, radius)),
    ];
    let corners = [
        Vec2::ONE,
        -Vec2::ONE,
        Vec2::new(1.0, -1.0),
        Vec2::new(-1.0, 1.0),
    ]
    .into_iter()
    .filter(|&sign| goes_beyond(path, half, sign))
    .map(|sign| disk_interval_at(path, sign * half, radius));
    boxes
        .into_iter()
        .chain(corners)
        .flatten()
        .reduce(|u, i| [u[0].min(i[0]), u[1].max(i[1])])
}

/// `true` if the path goes beyond the corner `sign * half` of the box `±half` on both axes
/// at some moment (`sign` has entries `±1`): the only way it can meet that corner's disk
/// outside the box grown along each axis.
fn goes_beyond(path: [Vec2; 2], half: Vec2, sign: Vec2) -> bool {
    let far = (sign * path[0]).max(sign * path[1]);
    far.cmpgt(half).all()
}

/// The box around every position on the given paths.
fn hull(paths: &[[Vec2; 2]]) -> Aabb2d {
    paths.iter().fold(
        Aabb2d {
            min: Vec2::INFINITY,
            max: Vec2::NEG_INFINITY,
        },
        |hull, p| Aabb2d {
            min: hull.min.min(p[0]).min(p[1]),
            max: hull.max.max(p[0]).max(p[1]),
        },
    )
}

/// `true` if the point's path stays out of `hull` grown by `margin` on every side: it is
/// never on a segment whose endpoints' paths lie in the hull (which holds the segment at
/// every moment). Exact comparisons; the margin covers the sweeps' rounding.
fn stays_out(point: [Vec2; 2], hull: &Aabb2d, margin: f32) -> bool {
    let (low, high) = (point[0].min(point[1]), point[0].max(point[1]));
    (low.cmpgt(hull.max + margin) | high.cmplt(hull.min - margin)).any()
}

mod convex;
mod moments;
mod segment;
pub use convex::convex_contact_intervals;
use segment::{point_segment, segment_box, segment_circle, segment_segment};

// What the tests reach through `super::*`.
#[cfg(test)]
use {
    super::polynomial::{Poly, roots_in_unit},
    crate::geometry::sweep_point_segment,
    moments::distance_to_segment,
    segment::{foot_stays_off, segment_box_margin, segment_pair_margin},
};

#[cfg(test)]
mod tests;
