//! Real roots of `k2·t² + k1·t + k0` on `[0, 1]`, given exact signs at both ends.

/// Roots in `[0, 1]` of the quadratic through `f(0) = f0` and `f(1) = f1` with leading
/// coefficient `k2`, ascending, at most two.
///
/// `f0` and `f1` must have exact signs (they come from exact predicates); they fix the parity of
/// the number of roots, so a root at an end of the interval is reported exactly (`0` or `1`) and
/// a sign change is never lost to rounding. Only the case of equal signs at both ends, where the
/// roots may come in a pair or not at all, depends on the discriminant, which is compared against
/// its own error bound: a double root within rounding counts once (a graze is a contact).
/// The roots come from `q = −(h + sign(h)·√Δ)` as `q/k2` and `k0/q` (with `h = k1/2`), never by
/// subtracting nearly equal numbers (Numerical Recipes §5.6; Blinn, "How to Solve a Quadratic
/// Equation", 2005).
///
/// The caller handles `f0 == f1 == k2 == 0` (identically zero) itself.
#[inline(always)]
pub(crate) fn roots_in_unit(
    k2: f64,
    f0: f64,
    f1: f64,
    k2_error: f64,
    (k1_direct, k1_direct_error): (f64, f64),
) -> ([f64; 2], usize) {
    let k0 = f0;
    // The middle coefficient is f1 − f0 − k2, or the caller's direct evaluation, whichever is
    // more accurate: the difference cancels when the roots are tiny (f1 ≈ k2 ≫ k1).
    let derived_error = k2_error + 2.0 * f64::EPSILON * (f0.abs() + f1.abs() + k2.abs());
    let (k1, k1_error) = if k1_direct_error < derived_error {
        (k1_direct, k1_direct_error)
    } else {
        (f1 - f0 - k2, derived_error)
    };
    let mut out = ([0.0; 2], 0);
    let mut push = |t: f64| {
        let (roots, n) = &mut out;
        if *n == 0 || roots[*n - 1] != t {
            roots[*n] = t;
            *n += 1;
        }
    };
    let in_unit = |t: f64| (0.0..=1.0).contains(&t);
    let linear = k2.abs() <= k2_error;
    match (f0 == 0.0, f1 == 0.0) {
        (true, true) => {
            // Roots at both ends; k2 ≠ 0 here, so nothing in between.
            push(0.0);
            push(1.0);
        }
        (true, false) => {
            push(0.0);
            // f = t·(k2·t + k1): the other root is −k1/k2.
            if !linear {
                let other = -k1 / k2;
                if other > 0.0 && other < 1.0 {
                    push(other);
                }
            }
        }
        (false, true) => {
            // f = k2·(t − other)·(t − 1) with other = k0/k2 (product of the roots).
            if !linear {
                let other = k0 / k2;
                if other > 0.0 && other < 1.0 {
                    push(other);
                }
            }
            push(1.0);
        }
        (false, false) if (f0 < 0.0) != (f1 < 0.0) => {
            // One sign change: exactly one root inside.
            let t = if linear {
                f0 / (f0 - f1)
            } else {
                let [r0, r1] = pair(k2, k1, k0, (0.25 * k1 * k1 - k2 * k0).max(0.0));
                if in_unit(r0) { r0 } else { r1 }
            };
            push(t.clamp(0.0, 1.0));
        }
        (false, false) => {
            // Same sign at both ends: a pair of roots inside, or none. With the opposite sign to
            // k2 the interval lies between the roots, so none.
            if linear || (f0 > 0.0) != (k2 > 0.0) {
                return out;
            }
            let h = 0.5 * k1;
            let vertex = -h / k2;
            if !(vertex > 0.0 && vertex < 1.0) {
                return out;
            }
            let disc = h * h - k2 * k0;
            // Error of the discriminant: from the coefficients' own errors (h inherits k2's
            // and the roundings of f1 − f0 − k2) and from its own evaluation.
            let h_error = 0.5 * k1_error;
            let disc_error = 2.0 * h.abs() * h_error
                + k0.abs() * k2_error
                + 4.0 * f64::EPSILON * (h * h + (k2 * k0).abs());
            if disc < -disc_error {
                return out;
            }
            if disc <= disc_error {
                push(vertex);
                return out;
            }
            let [r0, r1] = pair(k2, k1, k0, disc);
            push(r0.clamp(0.0, 1.0));
            push(r1.clamp(0.0, 1.0));
        }
    }
    out
}

/// Both roots of `k2·t² + k1·t + k0` (`k2 ≠ 0`) for `disc = (k1/2)² − k2·k0 >= 0`, ascending.
#[inline]
fn pair(k2: f64, k1: f64, k0: f64, disc: f64) -> [f64; 2] {
    let h = 0.5 * k1;
    let q = -(h + disc.sqrt().copysign(h));
    if q == 0.0 {
        return [0.0, 0.0];
    }
    let (r0, r1) = (q / k2, k0 / q);
    if r0 <= r1 { [r0, r1] } else { [r1, r0] }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No direct middle coefficient: derive it from the end values.
    const NO_DIRECT: (f64, f64) = (0.0, f64::INFINITY);

    /// Roots through exact end values of `k2·(t − a)(t − b)`.
    fn through(k2: f64, a: f64, b: f64) -> Vec<f64> {
        let f = |t: f64| k2 * (t - a) * (t - b);
        let (roots, n) = roots_in_unit(k2, f(0.0), f(1.0), 0.0, NO_DIRECT);
        roots[..n].to_vec()
    }

    #[test]
    fn table() {
        // (k2, a, b, expected roots in [0, 1])
        let cases: [(f64, f64, f64, &[f64]); 9] = [
            (1.0, 0.25, 0.75, &[0.25, 0.75]),  // two inside
            (-3.0, 0.25, 0.75, &[0.25, 0.75]), // opening downwards
            (1.0, 0.5, 0.5, &[0.5]),           // double root: once
            (1.0, -0.5, 0.5, &[0.5]),          // one inside
            (1.0, 1.5, 2.5, &[]),              // both beyond
            (1.0, 0.0, 0.5, &[0.0, 0.5]),      // root at the start
            (1.0, 0.5, 1.0, &[0.5, 1.0]),      // root at the end
            (1.0, 0.0, 1.0, &[0.0, 1.0]),      // roots at both ends
            (2.0, -1.0, 2.0, &[]),             // both outside on either side, no sign change
        ];
        for (k2, a, b, expected) in cases {
            assert_eq!(through(k2, a, b), expected, "k2 {k2}, roots {a}, {b}");
        }
    }

    #[test]
    fn linear_and_constant() {
        // 2t − 1: root at 1/2.
        assert_eq!(
            roots_in_unit(0.0, -1.0, 1.0, 0.0, NO_DIRECT),
            ([0.5, 0.0], 1)
        );
        // constant 3: none.
        assert_eq!(roots_in_unit(0.0, 3.0, 3.0, 0.0, NO_DIRECT).1, 0);
        // t: root at 0 only.
        assert_eq!(
            roots_in_unit(0.0, 0.0, 1.0, 0.0, NO_DIRECT),
            ([0.0, 0.0], 1)
        );
    }

    #[test]
    fn no_cancellation_for_tiny_roots() {
        // (t − 1e-12)(t − 0.5): the textbook formula loses the small root entirely.
        let roots = through(1.0, 1e-12, 0.5);
        assert_eq!(roots.len(), 2);
        assert!((roots[0] - 1e-12).abs() < 1e-24, "{roots:?}");
    }
}
