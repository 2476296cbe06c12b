//! The answer of a group of movers that touch at one moment: their normal velocities answered
//! together, at that moment, so that a stack, a pile or a cradle is answered at once rather
//! than by an endless train of ever smaller hits between pairs, each a hit of its own (the
//! *inelastic collapse* of event-driven simulation).
//!
//! Each contact `c` between bodies `a` and `b` (a mover, or a solid: a body of no inverse
//! mass, moving at its own velocity) of unit normal `n` (from `b` towards `a`) has a relative
//! normal velocity `n·(v_a − v_b)`, negative where they move into each other. The answer is
//! sequential impulses, in `f64`:
//!
//! 1. in sweeps over the contacts in their order (fixed by the bodies' data), each contact
//!    moving in takes the pair's impulse `j = (1 + e)(w·n)/(1/m_a + 1/m_b)`, as if it were
//!    alone; until a sweep finds no contact moving in faster than `2^-20` of the group's
//!    speed. With `e = 1` each step keeps energy: a cradle passes the first ball's speed to
//!    the last, as a train of hits would. With `e < 1` the steps shrink geometrically, as the
//!    train of hits would, but here they are steps of one answer, not hits: a stack falling
//!    onto the floor comes to rest in one answer.
//! 2. a group that has not settled after 64 sweeps (a ball elastic between two walls it
//!    touches both, which would bounce between them for ever) is finished inelastically:
//!    projected Gauss–Seidel on the impulses (contact dynamics in Moreau's line) finds the
//!    least change that leaves no contact moving in, with no restitution (complementarity:
//!    only contacts pressed take an impulse), in at most 4,096 sweeps.
use crate::plugin::answer::unit;
use bevy::math::{DVec2, Vec2};

/// One body of a group: its velocity and inverse mass (`0`: it is not pushed).
#[derive(Clone, Copy, Debug)]
pub(super) struct Body {
    pub(super) velocity: DVec2,
    pub(super) inverse_mass: f64,
}

/// One contact of a group: bodies `a` and `b`, the normal from `b` towards `a`, and the
/// restitution.
#[derive(Clone, Copy, Debug)]
pub(super) struct Contact {
    pub(super) a: usize,
    pub(super) b: usize,
    pub(super) normal: Vec2,
    pub(super) restitution: f32,
}

/// The most sweeps of sequential impulses before a group is finished inelastically, and the
/// most sweeps of that finish.
const SEQUENTIAL_SWEEPS: usize = 64;
const MOST_SWEEPS: usize = 4096;

/// Solves the group: the bodies' velocities after their contacts are answered together.
/// Returns each contact's impulse; `None` if an answer is not finite (then nothing is
/// changed).
pub(super) fn solve(bodies: &mut [Body], contacts: &[Contact]) -> Option<Vec<f64>> {
    let normals: Vec<Option<DVec2>> = contacts.iter().map(|c| unit(c.normal)).collect();
    let speed = bodies
        .iter()
        .map(|b| b.velocity.length())
        .fold(0.0, f64::max);
    let tolerance = speed * (1.0 / (1u64 << 20) as f64);
    let mut out = bodies.to_vec();
    let mut impulses = vec![0.0_f64; contacts.len()];
    // Sequential impulses, in sweeps over the contacts in order.
    let mut settled = false;
    for _ in 0..SEQUENTIAL_SWEEPS {
        let mut moved = false;
        for (k, c) in contacts.iter().enumerate() {
            let Some(n) = normals[k] else { continue };
            let (ia, ib) = (out[c.a].inverse_mass, out[c.b].inverse_mass);
            let into = relative(&out, c, n);
            if ia + ib <= 0.0 || into >= -tolerance {
                continue;
            }
            let j = -(1.0 + f64::from(c.restitution)) * into / (ia + ib);
            impulses[k] += j;
            out[c.a].velocity += j * ia * n;
            out[c.b].velocity -= j * ib * n;
            moved = true;
        }
        if !moved {
            settled = true;
            break;
        }
    }
    if !settled {
        finish_inelastically(&mut out, contacts, &normals, &mut impulses, tolerance);
    }
    if out.iter().any(|b| !b.velocity.as_vec2().is_finite()) {
        return None;
    }
    bodies.copy_from_slice(&out);
    Some(impulses)
}

/// The relative normal velocity of contact `c` (along unit `n`): negative moving in.
fn relative(bodies: &[Body], c: &Contact, n: DVec2) -> f64 {
    n.dot(bodies[c.a].velocity - bodies[c.b].velocity)
}

/// Projected Gauss–Seidel, without restitution: impulses (kept non-negative in all, on top of
/// those in `impulses`) until no contact moves in faster than `tolerance`.
fn finish_inelastically(
    out: &mut [Body],
    contacts: &[Contact],
    normals: &[Option<DVec2>],
    impulses: &mut [f64],
    tolerance: f64,
) {
    let mut extra = vec![0.0_f64; contacts.len()];
    for _ in 0..MOST_SWEEPS {
        let mut largest = 0.0_f64;
        for (k, c) in contacts.iter().enumerate() {
            let Some(n) = normals[k] else { continue };
            let (ia, ib) = (out[c.a].inverse_mass, out[c.b].inverse_mass);
            let stiffness = ia + ib;
            if stiffness <= 0.0 {
                continue;
            }
            let change = -relative(out, c, n) / stiffness;
            let impulse = (extra[k] + change).max(0.0);
            let step = impulse - extra[k];
            extra[k] = impulse;
            out[c.a].velocity += step * ia * n;
            out[c.b].velocity -= step * ib * n;
            largest = largest.max(step.abs() * stiffness);
        }
        if largest <= tolerance {
            break;
        }
    }
    for (i, e) in impulses.iter_mut().zip(extra) {
        *i += e;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(vx: f64, vy: f64, mass: f64) -> Body {
        Body {
            velocity: DVec2::new(vx, vy),
            inverse_mass: 1.0 / mass,
        }
    }

    /// One contact is the pair's impulse, exactly.
    #[test]
    fn one_contact_is_the_pairs_impulse() {
        let mut bodies = [body(640.0, 3.0, 1.0), body(0.0, -5.0, 3.0)];
        let contact = Contact {
            a: 0,
            b: 1,
            normal: Vec2::NEG_X,
            restitution: 1.0,
        };
        assert!(solve(&mut bodies, &[contact]).is_some());
        // To `f64` rounding, which the rounding to `f32` takes away.
        assert_eq!(bodies[0].velocity.as_vec2(), Vec2::new(-320.0, 3.0));
        assert_eq!(bodies[1].velocity.as_vec2(), Vec2::new(320.0, -5.0));
    }

    /// A cradle of five touching balls, the first hit: the last leaves with its speed.
    #[test]
    fn a_cradle_passes_the_speed_along() {
        let mut bodies: Vec<Body> = (0..5).map(|_| body(0.0, 0.0, 1.0)).collect();
        bodies[0].velocity = DVec2::new(128.0, 0.0);
        let contacts: Vec<Contact> = (0..4)
            .map(|k| Contact {
                a: k,
                b: k + 1,
                normal: Vec2::NEG_X,
                restitution: 1.0,
            })
            .collect();
        assert!(solve(&mut bodies, &contacts).is_some());
        let speeds: Vec<f64> = bodies.iter().map(|b| b.velocity.x).collect();
        assert_eq!(speeds, vec![0.0, 0.0, 0.0, 0.0, 128.0]);
    }

    /// An elastic ball touching two walls at once would bounce between them for ever: it is
    /// stopped along both.
    #[test]
    fn an_elastic_ball_between_two_walls_is_stopped() {
        let wall = Body {
            velocity: DVec2::ZERO,
            inverse_mass: 0.0,
        };
        let mut bodies = [body(64.0, 5.0, 1.0), wall, wall];
        let contacts = [
            Contact {
                a: 0,
                b: 1,
                normal: Vec2::NEG_X,
                restitution: 1.0,
            },
            Contact {
                a: 0,
                b: 2,
                normal: Vec2::X,
                restitution: 1.0,
            },
        ];
        assert!(solve(&mut bodies, &contacts).is_some());
        assert_eq!(bodies[0].velocity.as_vec2(), Vec2::new(0.0, 5.0));
    }

    /// A stack of crates falling together onto a floor (a body that is not pushed) stops at
    /// once; the same stack resting (no one moving into another) is left alone.
    #[test]
    fn a_falling_stack_stops_at_once() {
        let n = 10;
        let mut bodies: Vec<Body> = (0..n).map(|_| body(0.0, -14.0, 1.0)).collect();
        bodies.push(Body {
            velocity: DVec2::ZERO,
            inverse_mass: 0.0,
        });
        // Crate 0 on the floor (body n), crate k on crate k - 1.
        let contacts: Vec<Contact> = (0..n)
            .map(|k| Contact {
                a: k,
                b: if k == 0 { n } else { k - 1 },
                normal: Vec2::Y,
                restitution: 0.0,
            })
            .collect();
        assert!(solve(&mut bodies, &contacts).is_some());
        for b in &bodies[..n] {
            // To the solver's tolerance, 2^-20 of the group's speed at each contact, added up
            // along the stack.
            assert!(
                b.velocity.length() <= n as f64 * 14.0 / f64::from(1u32 << 20),
                "{b:?}"
            );
        }
        // Moving up and apart: nothing to answer.
        let mut apart: Vec<Body> = (0..n).map(|k| body(0.0, k as f64, 1.0)).collect();
        apart.push(Body {
            velocity: DVec2::ZERO,
            inverse_mass: 0.0,
        });
        let before: Vec<DVec2> = apart.iter().map(|b| b.velocity).collect();
        assert_eq!(solve(&mut apart, &contacts), Some(vec![0.0; n]));
        assert!(apart.iter().zip(&before).all(|(b, v)| b.velocity == *v));
    }
}
