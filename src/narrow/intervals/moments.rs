//! Candidate moments inside the step, their assembly into contact intervals, and the
//! tolerances of the "within rounding" tests between them.

use super::Intervals;
use bevy_math::Vec2;

/// Candidate moments inside the step, inline: at most 16 for the pairs of the four basic
/// shapes (segment–segment needs 8 from sweeps and 8 from endpoint meetings, segment–box
/// 12); the convex solver keeps more. Moments past the capacity are dropped, so a solver's
/// capacity must hold every moment it can find.
pub(super) struct Moments<const N: usize> {
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
    pub(super) fn push(&mut self, t: f32) {
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
    pub(super) fn sorted(&mut self) -> &[f32] {
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
pub(super) fn assemble<const N: usize>(
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
pub(super) fn scale(points: &[[Vec2; 2]]) -> f32 {
    points
        .iter()
        .flat_map(|p| [p[0].abs().max_element(), p[1].abs().max_element()])
        .fold(f32::MIN_POSITIVE, f32::max)
}

/// Distance from `p` to the closed segment `a b`, in `f64`.
pub(super) fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f64 {
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

/// A relative tolerance for "within rounding" tests inside the step: `2^-20` of the scene.
pub(super) const NEAR: f32 = 1.0 / (1 << 20) as f32;
