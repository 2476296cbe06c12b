//! When two moving shapes touch: closed time intervals within one step.

use super::polynomial::{Poly, roots_in_unit};
use super::shape::{ConvexVertices, ShapePath, lerp};
use super::translating::translating;
use crate::geometry::intersect_with_powers;
use crate::geometry::robust::{all_finite, circle_power, cross_of_motions, orient2d};
use crate::geometry::{
    clip_segment_aabb, intersect_segment_circle, intersect_segment_segment, sweep_point_segment,
};
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
///   [`sweep_point_segment`], or to the time the contact point takes to move a few ulps of
///   the coordinates towards the other shape, whichever is longer: some solvers round points
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
/// largest coordinate, is 64 times the solvers' own tolerance ([`NEAR`], `2^-20` of the
/// scene) and far above the rounding of the `f32` positions inside the step, so a pair the
/// solvers would call touching is never left out (tested on pairs placed to touch within a
/// few rounding steps).
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

/// Candidate moments inside the step, inline: at most 16 for the pairs of the four basic
/// shapes (segment–segment needs 8 from sweeps and 8 from endpoint meetings, segment–box
/// 12); the convex solver keeps more. Moments past the capacity are dropped, so a solver's
/// capacity must hold every moment it can find.
struct Moments<const N: usize> {
    times: [f32; N],
    len: usize,
}

impl<const N: usize> Default for Moments<N> {
    fn default() -> Self {
        Self {
            times: [0.0; N],
            len: 0,
        }
    }
}

impl<const N: usize> Moments<N> {
    fn push(&mut self, t: f32) {
        debug_assert!(
            self.len < N || !(t > 0.0 && t < 1.0),
            "moments past capacity"
        );
        if self.len < N && t > 0.0 && t < 1.0 {
            self.times[self.len] = t;
            self.len += 1;
        }
    }

    /// The moments in ascending order, without repeats.
    fn sorted(&mut self) -> &[f32] {
        let times = &mut self.times[..self.len];
        times.sort_unstable_by(f32::total_cmp);
        let mut n = 0;
        for i in 0..times.len() {
            if n == 0 || times[i] != times[n - 1] {
                times[n] = times[i];
                n += 1;
            }
        }
        &self.times[..n]
    }
}

/// The contact intervals from the moments at which contact may change.
///
/// `touching_at_start`/`_end` decide the ends of the step; `at_moment` decides each candidate
/// moment, `in_between` each open stretch between consecutive moments (tested at its
/// midpoint: contact cannot change inside it). The closed-set closure makes a moment next to
/// a touching stretch touching.
fn assemble<const N: usize>(
    mut moments: Moments<N>,
    touching_at_start: bool,
    touching_at_end: bool,
    at_moment: impl Fn(f32) -> bool,
    in_between: impl Fn(f32) -> bool,
) -> Intervals {
    let times = moments.sorted();
    let count = times.len() + 2;
    let time = |i: usize| match i {
        0 => 0.0,
        _ if i == count - 1 => 1.0,
        _ => times[i - 1],
    };
    // The moments: exact at the ends, `at_moment` inside.
    let at = |i: usize| match i {
        0 => touching_at_start,
        _ if i == count - 1 => touching_at_end,
        _ => at_moment(time(i)),
    };
    let mut out = Intervals::default();
    let mut open: Option<f32> = None;
    let (mut at_here, mut gap_before) = (at(0), false);
    for i in 0..count {
        let t = time(i);
        // A stretch between two moments touches throughout or not at all, and contact
        // cannot begin inside it, so a touching stretch has a touching moment at one end:
        // the midpoint test (which allows rounding) only confirms a stretch next to a
        // touching moment. A stretch next to the start or the end of the step, which the
        // exact tests found apart, cannot touch (its closure would hold that end): there the
        // midpoint test's rounding allowance found a near miss (a contact that ends a few
        // `1e-5` before the step does).
        let (gap_after, at_next) = if i + 1 < count {
            let (next, at_next) = (time(i + 1), at(i + 1));
            let ends_apart = (i == 0 && !touching_at_start) || (i + 2 == count && !touching_at_end);
            let gap = !ends_apart && (at_here || at_next) && in_between(t + 0.5 * (next - t));
            (gap, at_next)
        } else {
            (false, false)
        };
        let here = at_here || gap_before || gap_after;
        if here && open.is_none() {
            open = Some(t);
        }
        if here
            && !gap_after
            && let Some(start) = open.take()
        {
            out.push([start, t]);
        }
        (at_here, gap_before) = (at_next, gap_after);
    }
    out
}

/// Largest coordinate magnitude involved, for tolerances relative to the scene's scale.
fn scale(points: &[[Vec2; 2]]) -> f32 {
    points
        .iter()
        .flat_map(|p| [p[0].abs().max_element(), p[1].abs().max_element()])
        .fold(f32::MIN_POSITIVE, f32::max)
}

/// Distance from `p` to the closed segment `a b`, in `f64`.
fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f64 {
    let (p, a, b) = (p.as_dvec2(), a.as_dvec2(), b.as_dvec2());
    let d = b - a;
    let len2 = d.length_squared();
    let s = if len2 > 0.0 {
        ((p - a).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + d * s - p).length()
}

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

/// A relative tolerance for "within rounding" tests inside the step: `2^-20` of the scene.
const NEAR: f32 = 1.0 / (1 << 20) as f32;

fn point_segment(p: [Vec2; 2], a: [Vec2; 2], b: [Vec2; 2]) -> Intervals {
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
fn segment_segment(s: [[Vec2; 2]; 2], r: [[Vec2; 2]; 2]) -> Intervals {
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

fn segment_circle(s: [[Vec2; 2]; 2], center: [Vec2; 2], radius: f32) -> Intervals {
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
fn segment_meets_disk(a: Vec2, b: Vec2, center: Vec2, radius: f32) -> bool {
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
fn tangent_moments(a: [Vec2; 2], b: [Vec2; 2], c: [Vec2; 2], radius: f32) -> ([f64; 4], usize) {
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
fn foot_stays_off(e: DVec2, de: DVec2, d: DVec2, dd: DVec2, l: [f64; 3]) -> bool {
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
fn segment_pair_margin(paths: [[Vec2; 2]; 4]) -> f32 {
    NEAR * scale(&paths)
}

/// How far `segment_box`'s tests reach beyond exact contact (see [`segment_pair_margin`]):
/// paths of the segment's ends and of the box's centre, and the box's half extents.
fn segment_box_margin(paths: [[Vec2; 2]; 3], half: Vec2) -> f32 {
    NEAR * scale(&paths).max(half.max_element())
}

/// The sweeps of corners that [stay out](stays_out) of the segment's hull are skipped: they
/// cannot meet it.
fn segment_box(s: [[Vec2; 2]; 2], center: [Vec2; 2], half: Vec2) -> Intervals {
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

mod convex;
pub use convex::convex_contact_intervals;

#[cfg(test)]
mod tests;
