//! Real roots of a polynomial of degree at most 4 on `[0, 1]`, by isolation.
//!
//! The roots of `p'` split `[0, 1]` into pieces on which `p` is monotone; each piece holds at
//! most one root, found inside a bracket on the sign, which cannot miss it and cannot converge
//! to the wrong one: Newton steps while they stay in the bracket and shrink fast, bisection
//! otherwise. The roots of `p'` come the same way from `p''`, down to a linear polynomial.
//! A root of even multiplicity (a tangency) does not change sign: it is a root of `p'` where
//! `|p|` is within the evaluation error, and is accepted there.

/// Coefficients, lowest degree first: `c[0] + c[1]·t + c[2]·t² + …`.
pub(crate) type Poly = [f64; 5];

/// The roots of `p` in `[0, 1]`, ascending, at most 4. `tolerance` is the absolute error of
/// evaluating `p` (a value within it counts as zero at a turning point). A polynomial that
/// is within `tolerance` of zero everywhere has no isolated roots and gives none.
///
/// A polynomial that keeps one sign on `[0, 1]` by more than `tolerance` is recognised at
/// once from its Bernstein coefficients (its values lie between the smallest and the
/// largest), which is the common case: a circle that stays on one side of a segment's line,
/// or overlaps it all step. The answer is the same as isolating: none of the values the
/// isolation would look at could come within `tolerance` of zero.
pub(crate) fn roots_in_unit(p: &Poly, tolerance: f64) -> ([f64; 4], usize) {
    isolate(p, tolerance, true)
}

/// `true` if `p` stays above `tolerance`, or below `-tolerance`, on all of `[0, 1]`, with
/// room for the rounding of its Bernstein coefficients and of any evaluation.
fn keeps_its_sign(p: &Poly, tolerance: f64) -> bool {
    let [c0, c1, c2, c3, c4] = *p;
    // The Bernstein coefficients of degree 4: `b_i = Σ_{j ≤ i} C(i, j) / C(4, j) · c_j`.
    let b = [
        c0,
        c0 + c1 / 4.0,
        c0 + c1 / 2.0 + c2 / 6.0,
        c0 + 0.75 * c1 + c2 / 2.0 + c3 / 4.0,
        c0 + c1 + c2 + c3 + c4,
    ];
    let magnitude: f64 = p.iter().map(|c| c.abs()).sum();
    // Each coefficient and each Horner evaluation is off by a few units of `ε·magnitude`.
    let margin = tolerance + 32.0 * f64::EPSILON * magnitude;
    let (low, high) = b
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    low > margin || high < -margin
}

/// [`roots_in_unit`], with or without the sign shortcut (at every level of derivatives).
fn isolate(p: &Poly, tolerance: f64, shortcut: bool) -> ([f64; 4], usize) {
    if shortcut && keeps_its_sign(p, tolerance) {
        return ([0.0; 4], 0);
    }
    let mut roots = [0.0; 4];
    let mut count = 0;
    let degree = (0..5).rev().find(|&i| p[i] != 0.0).unwrap_or(0);
    let magnitude: f64 = p.iter().map(|c| c.abs()).sum();
    if degree == 0 || magnitude <= tolerance {
        return (roots, 0);
    }
    if degree == 1 {
        let t = -p[0] / p[1];
        if (0.0..=1.0).contains(&t) {
            roots[0] = t;
            count = 1;
        }
        return (roots, count);
    }
    // Turning points from the derivative, whose evaluation error is about as large
    // relative to its coefficients.
    let derivative: Poly = [p[1], 2.0 * p[2], 3.0 * p[3], 4.0 * p[4], 0.0];
    let (turning, turns) = isolate(&derivative, tolerance * 4.0, shortcut);
    let mut breaks = [0.0; 6];
    breaks[0] = 0.0;
    breaks[1..=turns].copy_from_slice(&turning[..turns]);
    breaks[turns + 1] = 1.0;
    let breaks = &breaks[..turns + 2];

    let mut push = |t: f64| {
        if count < 4 && (count == 0 || t - roots[count - 1] > 1e-12) {
            roots[count] = t;
            count += 1;
        }
    };
    for window in breaks.windows(2) {
        let (lo, hi) = (window[0], window[1]);
        let (f_lo, f_hi) = (eval(p, lo), eval(p, hi));
        if f_lo.abs() <= tolerance {
            push(lo);
        } else if f_hi.abs() > tolerance && (f_lo < 0.0) != (f_hi < 0.0) {
            // A quadratic's root in closed form where it falls in the bracket (it does but
            // for rounding); otherwise, and for higher degrees, refined.
            let closed = (degree == 2)
                .then(|| quadratic_root_in(p, lo, hi))
                .flatten();
            push(closed.unwrap_or_else(|| refine(p, &derivative, lo, hi, f_lo < 0.0)));
        }
    }
    if eval(p, 1.0).abs() <= tolerance {
        push(1.0);
    }
    (roots, count)
}

/// The root in `[lo, hi]` of the quadratic `p` (of degree 2), if the closed form puts one
/// there: `q = -(b + sign(b)·√Δ)/2`, roots `q/a` and `c/q`, with no cancellation.
fn quadratic_root_in(p: &Poly, lo: f64, hi: f64) -> Option<f64> {
    let [c, b, a, ..] = *p;
    let discriminant = b * b - 4.0 * a * c;
    if discriminant.is_nan() || discriminant < 0.0 {
        return None;
    }
    let q = -0.5 * (b + discriminant.sqrt().copysign(b));
    [q / a, c / q].into_iter().find(|t| *t >= lo && *t <= hi)
}

/// Horner evaluation.
pub(crate) fn eval(p: &Poly, t: f64) -> f64 {
    p.iter().rev().fold(0.0, |acc, &c| acc * t + c)
}

/// The sign change of a monotone `p` in `[lo, hi]` (`derivative` is `p'`), to the last bit:
/// Newton's method kept inside the bracket of the sign change, with a bisection wherever a
/// step would leave the bracket or not halve the step before last (as in *Numerical Recipes*'
/// `rtsafe`). A simple root takes a handful of evaluations instead of bisection's fifty.
fn refine(p: &Poly, derivative: &Poly, mut lo: f64, mut hi: f64, negative_at_lo: bool) -> f64 {
    let mut x = 0.5 * (lo + hi);
    let (mut step, mut step_before) = (hi - lo, hi - lo);
    for _ in 0..100 {
        let f = eval(p, x);
        if f == 0.0 {
            return x;
        }
        if (f < 0.0) == negative_at_lo {
            lo = x;
        } else {
            hi = x;
        }
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let slope = eval(derivative, x);
        let newton = x - f / slope;
        // (A NaN or infinite step fails the comparisons and bisects.)
        let next = if newton > lo && newton < hi && (2.0 * f).abs() <= (step_before * slope).abs() {
            newton
        } else {
            mid
        };
        step_before = step;
        step = next - x;
        if next == x {
            return x;
        }
        x = next;
    }
    x
}

/// The sign change of a monotone `p` in `[lo, hi]`, to the last bit, by bisection alone: what
/// [`refine`] is tested against.
#[cfg(test)]
fn bisect(p: &Poly, mut lo: f64, mut hi: f64, negative_at_lo: bool) -> f64 {
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if (eval(p, mid) < 0.0) == negative_at_lo {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_roots(roots: &[f64]) -> Poly {
        let mut p: Poly = [1.0, 0.0, 0.0, 0.0, 0.0];
        for &r in roots {
            // multiply by (t - r)
            let mut next = [0.0; 5];
            for i in 0..5 {
                next[i] -= r * p[i];
                if i + 1 < 5 {
                    next[i + 1] += p[i];
                }
            }
            p = next;
        }
        p
    }

    #[test]
    fn finds_simple_and_double_roots() {
        let cases: &[(&[f64], &[f64])] = &[
            (&[0.25, 0.75], &[0.25, 0.75]),
            (&[0.1, 0.2, 0.3, 0.4], &[0.1, 0.2, 0.3, 0.4]),
            (&[0.5, 0.5], &[0.5]),
            (&[0.3, 0.3, 0.8, 2.0], &[0.3, 0.8]),
            (&[-1.0, 2.0], &[]),
            (&[0.0, 1.0], &[0.0, 1.0]),
            (&[0.6], &[0.6]),
        ];
        for (roots, expected) in cases {
            let p = from_roots(roots);
            let (found, n) = roots_in_unit(&p, 1e-14);
            assert_eq!(n, expected.len(), "{roots:?}: {:?}", &found[..n]);
            for (f, e) in found[..n].iter().zip(expected.iter()) {
                assert!((f - e).abs() < 1e-6, "{roots:?}: {f} vs {e}");
            }
        }
    }

    /// The sign shortcut never changes an answer: random polynomials of degree 1 to 4 with
    /// roots inside, at the ends of and outside `[0, 1]`, double roots, and small offsets
    /// that make roots graze or vanish, at scales from `1e-12` to `1e12`. Many keep one sign
    /// (the shortcut answers), many do not.
    #[test]
    fn the_sign_shortcut_gives_what_isolation_gives() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0xb3e2);
        let (mut shortcut, mut isolated) = (0, 0);
        for _ in 0..100_000 {
            let degree = rng.random_range(1..=4);
            let mut roots = Vec::new();
            for _ in 0..degree {
                let r = match rng.random_range(0..5) {
                    0 => rng.random_range(-2.0..3.0),
                    1 => rng.random_range(0.0..1.0),
                    2 => [0.0, 1.0][rng.random_range(0..2)],
                    3 => roots.last().copied().unwrap_or(0.5),
                    _ => rng.random_range(1.0..10.0),
                };
                roots.push(r);
            }
            let scale = 10f64.powi(rng.random_range(-12..=12));
            let mut p = from_roots(&roots).map(|c| c * scale);
            p[0] += scale * [0.0, 1e-15, -1e-15, 1e-9, -1e-3, 0.5][rng.random_range(0..6)];
            let tolerance = scale * [0.0, 1e-15, 1e-12][rng.random_range(0..3)];
            let expected = isolate(&p, tolerance, false);
            if keeps_its_sign(&p, tolerance) {
                shortcut += 1;
                assert_eq!(expected.1, 0, "{p:?}: {:?}", &expected.0[..expected.1]);
            } else {
                isolated += 1;
            }
            let found = roots_in_unit(&p, tolerance);
            assert_eq!(found.0[..found.1], expected.0[..expected.1], "{p:?}");
        }
        assert!(
            shortcut > 20_000 && isolated > 20_000,
            "{shortcut} / {isolated}"
        );
    }

    /// Newton inside the bracket finds the root bisection finds: to 1e-12 (relative, or
    /// absolute near 0), or, where the polynomial is flat enough for rounding to blur the
    /// sign change (near double roots), at a point where it is zero within its evaluation
    /// error. On the monotone pieces of random polynomials of degree 1 to 4 with simple,
    /// double and nearly double roots, at scales from `1e-12` to `1e12`.
    #[test]
    fn newton_in_the_bracket_agrees_with_bisection() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x2ef1);
        let mut pieces = 0;
        for _ in 0..50_000 {
            let degree = rng.random_range(1..=4);
            let mut roots = Vec::new();
            for _ in 0..degree {
                let r = match rng.random_range(0..4) {
                    0 => rng.random_range(-1.0..2.0),
                    1 => rng.random_range(0.0..1.0),
                    2 => roots.last().copied().unwrap_or(0.5) + rng.random_range(-1e-6..1e-6),
                    _ => roots.last().copied().unwrap_or(0.25),
                };
                roots.push(r);
            }
            let scale = 10f64.powi(rng.random_range(-12..=12));
            let mut p = from_roots(&roots).map(|c| c * scale);
            p[0] += scale * [0.0, 1e-15, -1e-12, 1e-6, -1e-3][rng.random_range(0..5)];
            let derivative: Poly = [p[1], 2.0 * p[2], 3.0 * p[3], 4.0 * p[4], 0.0];
            let (turning, turns) = isolate(&derivative, 0.0, true);
            let mut breaks = vec![0.0];
            breaks.extend_from_slice(&turning[..turns]);
            breaks.push(1.0);
            let magnitude: f64 = p.iter().map(|c| c.abs()).sum();
            for w in breaks.windows(2) {
                let (lo, hi) = (w[0], w[1]);
                let (f_lo, f_hi) = (eval(&p, lo), eval(&p, hi));
                if f_lo == 0.0 || f_hi == 0.0 || (f_lo < 0.0) == (f_hi < 0.0) {
                    continue;
                }
                pieces += 1;
                let r = refine(&p, &derivative, lo, hi, f_lo < 0.0);
                let b = bisect(&p, lo, hi, f_lo < 0.0);
                assert!((lo..=hi).contains(&r), "{p:?} [{lo}, {hi}]: {r}");
                assert!(
                    (r - b).abs() <= 1e-12 * b.abs().max(1e-3)
                        || eval(&p, r).abs() <= 64.0 * f64::EPSILON * magnitude,
                    "{p:?} [{lo}, {hi}]: newton {r}, bisection {b}"
                );
            }
        }
        assert!(pieces > 50_000, "{pieces}");
    }

    #[test]
    fn zero_polynomial_has_no_isolated_roots() {
        assert_eq!(roots_in_unit(&[0.0; 5], 0.0).1, 0);
        assert_eq!(roots_in_unit(&[1e-20, 0.0, 1e-20, 0.0, 0.0], 1e-15).1, 0);
    }
}
