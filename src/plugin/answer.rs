//! How a mover answers a hit: the one place for it, used by the respond phase (responders),
//! the characters and [`SweepQuery::move_and_slide`](crate::prelude::SweepQuery::move_and_slide).
//!
//! | answer | what it does | used by |
//! |---|---|---|
//! | [`answer_velocity`] | a velocity bounced, slid or stopped at a contact, against a moving solid | responders |
//! | [`clip`] | a velocity without the part into a surface | characters, [`MoveAndSlideOutput::clip_velocity`](crate::prelude::MoveAndSlideOutput::clip_velocity) |
//! | [`walkable`] | whether a surface is ground one can stand on | characters, move-and-slide |
//! | [`along_surface`] | how a motion that hits a surface goes on along it | characters, move-and-slide |
//! | [`push_out`] | the way out of the solids a shape overlaps | responders, move-and-slide |
//!
//! Each takes what it needs as arguments and reads nothing else. The velocity answers are
//! computed in `f64` about a normal made unit in `f64`, and rounded once: a bounce of
//! restitution 1 off a surface whose normal is exact (an axis-aligned face, a segment along
//! an axis) mirrors the velocity exactly, and elsewhere changes the speed by the final
//! rounding alone (half an ulp of each coordinate, either way).

use crate::narrow::Penetration;
use bevy::math::{DVec2, Vec2};

/// How a responder answers a hit on a solid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Answering {
    /// The normal part of the relative velocity reversed and scaled by the restitution.
    Bounce(f32),
    /// The normal part of the relative velocity removed.
    Slide,
    /// All of the relative velocity removed: it moves with the solid.
    Stop,
}

/// `velocity` answered at a contact of unit normal `normal` (from the solid towards the
/// mover) with a solid whose contact point moves at `solid`: with `w = velocity - solid`,
///
/// - `Bounce(e)`: `velocity - (1 + e) (w·n) n`,
/// - `Slide`: `velocity - (w·n) n`,
/// - `Stop`: `solid`,
///
/// where only a `w·n < 0` (moving into the solid) is answered. `None` if the answer is not
/// finite (the caller stops the mover there).
#[must_use]
pub(crate) fn answer_velocity(
    velocity: Vec2,
    solid: Vec2,
    normal: Vec2,
    how: Answering,
) -> Option<Vec2> {
    let (v, u) = (velocity.as_dvec2(), solid.as_dvec2());
    let n = unit(normal)?;
    let relative = v - u;
    let into = relative.dot(n).min(0.0);
    let answered = match how {
        Answering::Bounce(restitution) => v - (1.0 + f64::from(restitution)) * into * n,
        Answering::Slide => v - into * n,
        Answering::Stop => u,
    };
    let answered = answered.as_vec2();
    answered.is_finite().then_some(answered)
}

/// `velocity` without the part that points into a surface of unit normal `normal`: what a
/// character keeps after it is stopped by the surface.
#[must_use]
pub(crate) fn clip(velocity: Vec2, normal: Vec2) -> Vec2 {
    let Some(n) = unit(normal) else {
        return velocity;
    };
    let v = velocity.as_dvec2();
    (v - v.dot(n).min(0.0) * n).as_vec2()
}

/// `true` if a surface of unit normal `normal` is ground to stand on: no steeper than
/// `max_slope` (radians) from `up`, to rounding.
#[must_use]
pub(crate) fn walkable(normal: Vec2, up: Vec2, max_slope: f32) -> bool {
    normal.dot(up) >= bevy::math::ops::cos(max_slope) - 1e-6
}

/// What a surface is to a motion that slides along it: [`along_surface`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Surface {
    /// Ground to stand on: the progress across `up` is kept along the slope.
    Walkable,
    /// Steeper than the steepest ground: a wall, however it leans. Sliding along it never
    /// gains more height than the motion itself had.
    Steep,
    /// No ground is told from walls: the part into the surface is removed, nothing more.
    Any,
}

/// How a motion `left` that hits a surface of unit normal `normal` goes on along it: the
/// part into the surface removed; on [walkable](Surface::Walkable) ground, the progress
/// across `up` kept along the slope (so that a motion straight down, gravity, does not slide
/// down it); on a [steep](Surface::Steep) face, no more rise than `left` had (pushed into a
/// 60° ramp, a character is stopped as by a wall, not carried up it).
#[must_use]
pub(crate) fn along_surface(left: Vec2, normal: Vec2, surface: Surface, up: Vec2) -> Vec2 {
    let into = left.dot(normal);
    if into >= 0.0 {
        return left;
    }
    if surface == Surface::Steep {
        let slid = left - into * normal;
        if slid.dot(up) > left.dot(up).max(0.0) {
            // The face's normal laid flat across `up`: the motion keeps its own rise (or
            // fall) and loses what goes into the face.
            return match (normal - normal.dot(up) * up).try_normalize() {
                Some(flat) => left - left.dot(flat).min(0.0) * flat,
                None => slid,
            };
        }
        return slid;
    }
    if surface == Surface::Walkable {
        let across = up.perp();
        // The ground's direction, going the way `across` does.
        let mut tangent = normal.perp();
        if tangent.dot(across) < 0.0 {
            tangent = -tangent;
        }
        let progress = left.dot(across);
        let rate = tangent.dot(across);
        if rate > 1e-6 {
            return tangent * (progress / rate);
        }
    }
    left - into * normal
}

/// How many times a shape is pushed out of the deepest solid it overlaps, for a shape
/// between several.
const PUSHES: usize = 4;

/// How far a shape whose reference point is at `at` moves out of the solids it overlaps, the
/// shortest way out of the deepest each time (at most [`PUSHES`] times, `budget` in all):
/// `deepest(moved)` is the deepest overlap once moved by `moved`. Each push goes a little
/// past the depth, so that rounding leaves the shape outside.
#[must_use]
pub(crate) fn push_out(
    at: Vec2,
    mut budget: f32,
    mut deepest: impl FnMut(Vec2) -> Option<Penetration>,
) -> Vec2 {
    let mut moved = Vec2::ZERO;
    for _ in 0..PUSHES {
        let Some(p) = deepest(moved) else {
            break;
        };
        let step = (p.depth + push_margin(at + moved, p.depth)).min(budget);
        if step.is_nan() || step <= 0.0 {
            break;
        }
        budget -= step;
        moved += p.direction * step;
    }
    moved
}

/// How far past an overlap of `depth` a shape at `at` is pushed: `2^-22` of its coordinates
/// and the depth (a few ulps of them), and `1e-7`.
pub(crate) fn push_margin(at: Vec2, depth: f32) -> f32 {
    (at.abs().max_element() + depth) * (1.0 / (1 << 22) as f32) + 1e-7
}

/// `normal` made unit in `f64` (exactly itself for an axis); `None` if it has no direction.
pub(crate) fn unit(normal: Vec2) -> Option<DVec2> {
    let n = normal.as_dvec2();
    let length = n.length();
    (length > 0.0 && length.is_finite()).then(|| n / length)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Off an axis-aligned surface, a bounce of restitution 1 is the exact mirror image.
    #[test]
    fn an_elastic_bounce_off_an_axis_is_exact() {
        for (v, n) in [
            (Vec2::new(23_456.0, 17_891.0), Vec2::NEG_X),
            (Vec2::new(-0.1, 3.3e7), Vec2::NEG_Y),
            (Vec2::new(1e-30, -7.77), Vec2::Y),
        ] {
            let out = answer_velocity(v, Vec2::ZERO, n, Answering::Bounce(1.0)).unwrap();
            let mirrored = if n.x != 0.0 {
                Vec2::new(-v.x, v.y)
            } else {
                Vec2::new(v.x, -v.y)
            };
            assert_eq!(out, mirrored, "{v} off {n}");
        }
    }

    /// Off a turned surface the speed changes by rounding alone, either way: over many
    /// bounces it does not drift.
    #[test]
    fn an_elastic_bounce_keeps_the_speed_to_rounding() {
        let mut v = Vec2::new(23_456.0, 17_891.0);
        let speed = f64::from(v.length());
        let (mut worst, mut total) = (0.0_f64, 0.0_f64);
        for k in 0..10_000 {
            let angle = k as f32 * 0.7;
            let n = Vec2::new(angle.cos(), angle.sin());
            let before = f64::from(v.length());
            v = answer_velocity(v, Vec2::ZERO, -v.signum() * n.abs(), Answering::Bounce(1.0))
                .unwrap();
            let change = f64::from(v.length()) - before;
            worst = worst.max(change.abs());
            total += change;
        }
        let ulp = f64::from(f32::EPSILON) * speed;
        assert!(worst <= 2.0 * ulp, "a bounce changed the speed by {worst}");
        // A random walk of 10,000 steps of about an ulp: far below 10,000 ulps of drift.
        assert!(
            total.abs() <= 400.0 * ulp,
            "drift {total} over 10,000 bounces"
        );
    }

    #[test]
    fn slide_stop_and_clip() {
        let v = Vec2::new(3.0, -4.0);
        assert_eq!(
            answer_velocity(v, Vec2::ZERO, Vec2::Y, Answering::Slide),
            Some(Vec2::new(3.0, 0.0))
        );
        // A floor rising at 2 under a mover falling at 4: it rises with it.
        assert_eq!(
            answer_velocity(v, Vec2::new(0.0, 2.0), Vec2::Y, Answering::Slide),
            Some(Vec2::new(3.0, 2.0))
        );
        assert_eq!(
            answer_velocity(v, Vec2::new(1.0, 2.0), Vec2::Y, Answering::Stop),
            Some(Vec2::new(1.0, 2.0))
        );
        // Moving away is not answered.
        assert_eq!(
            answer_velocity(v, Vec2::ZERO, Vec2::NEG_Y, Answering::Bounce(0.5)),
            Some(v)
        );
        assert_eq!(clip(v, Vec2::Y), Vec2::new(3.0, 0.0));
        assert_eq!(clip(v, Vec2::NEG_Y), v);
        // A restitution too large for `f32` gives no answer rather than an infinity.
        assert_eq!(
            answer_velocity(v, Vec2::ZERO, Vec2::Y, Answering::Bounce(f32::MAX)),
            None
        );
    }

    #[test]
    fn walkable_and_along() {
        let up = Vec2::Y;
        let slope = Vec2::new(-1.0, 1.0).normalize();
        assert!(walkable(slope, up, core::f32::consts::FRAC_PI_4));
        assert!(!walkable(slope, up, 0.7));
        // Pressing down on walkable ground keeps the progress across, along the slope.
        let on = along_surface(Vec2::new(1.0, -1.0), slope, Surface::Walkable, up);
        assert!((on - Vec2::new(1.0, 1.0)).length() < 1e-6, "{on}");
        // On a wall, the part into it is removed.
        for surface in [Surface::Steep, Surface::Any] {
            assert_eq!(
                along_surface(Vec2::new(-2.0, 1.0), Vec2::X, surface, up),
                Vec2::new(0.0, 1.0)
            );
        }
        // Pushed right and falling into a 60° ramp that rises to the right: slid along it,
        // the motion would climb; on a steep face it keeps its fall and loses its push.
        let ramp = Vec2::new(-(3.0_f32.sqrt()), 1.0).normalize();
        let push = Vec2::new(150.0, -14.0);
        assert!(along_surface(push, ramp, Surface::Any, up).y > 0.0);
        let steep = along_surface(push, ramp, Surface::Steep, up);
        assert!(steep.x.abs() < 1e-4 && steep.y == -14.0, "{steep}");
        // Jumping into it, it rises no more than the jump did.
        let jump = along_surface(Vec2::new(150.0, 400.0), ramp, Surface::Steep, up);
        assert!(jump.y <= 400.0, "{jump}");
    }

    #[test]
    fn push_out_goes_past_the_depth_within_the_budget() {
        let mut calls = 0;
        let moved = push_out(Vec2::new(10.0, 0.0), f32::INFINITY, |moved| {
            calls += 1;
            (moved.y < 2.0).then_some(Penetration {
                depth: 2.0 - moved.y,
                direction: Vec2::Y,
            })
        });
        assert!(moved.y > 2.0 && moved.y < 2.0 + 1e-5, "{moved}");
        assert_eq!(calls, 2);
        let held = push_out(Vec2::ZERO, 0.5, |_| {
            Some(Penetration {
                depth: 2.0,
                direction: Vec2::Y,
            })
        });
        assert_eq!(held, Vec2::new(0.0, 0.5));
    }
}
