use super::*;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A different algorithm: step time densely and look for the moments the point is on the
/// segment (a sign change of the cross product, or an exact zero, with the point between the
/// endpoints). Slow, obviously right, and resolution-limited: it can miss a graze that lasts
/// less than one step, so the cases below avoid those.
fn dense(
    start_path: [Vec2; 2],
    end_path: [Vec2; 2],
    point_path: [Vec2; 2],
    steps: u32,
) -> Vec<f64> {
    let at = |t: f64| {
        let lerp = |p: [Vec2; 2]| {
            let (a, b) = (p[0].as_dvec2(), p[1].as_dvec2());
            a + (b - a) * t
        };
        let c = lerp(point_path);
        (lerp(start_path) - c, lerp(end_path) - c)
    };
    let cross_at = |t: f64| {
        let (a, b) = at(t);
        a.perp_dot(b)
    };
    let on_segment = |t: f64| {
        let (a, b) = at(t);
        a.dot(b) <= 1e-9
    };
    let mut times = Vec::new();
    let mut prev = cross_at(0.0);
    if prev == 0.0 && on_segment(0.0) {
        times.push(0.0);
    }
    for i in 1..=steps {
        let t = f64::from(i) / f64::from(steps);
        let now = cross_at(t);
        if (now == 0.0 || (prev < 0.0) != (now < 0.0)) && prev != 0.0 {
            // Refine by bisection, then check the point is between the endpoints.
            let (mut lo, mut hi) = (t - 1.0 / f64::from(steps), t);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if (cross_at(mid) < 0.0) == (prev < 0.0) && cross_at(mid) != 0.0 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            if on_segment(hi) {
                times.push(hi);
            }
        }
        prev = now;
    }
    times
}

fn check_against_dense(
    name: &str,
    start_path: [Vec2; 2],
    end_path: [Vec2; 2],
    point_path: [Vec2; 2],
    expected: usize,
) {
    let got = sweep_point_segment(start_path, end_path, point_path);
    let want = dense(start_path, end_path, point_path, 100_000);
    assert_eq!(
        want.len(),
        expected,
        "{name}: the dense oracle disagrees with the case's design: {want:?}"
    );
    assert_eq!(got.len(), want.len(), "{name}: {got:?} vs dense {want:?}");
    for (sweep, t) in got.iter().zip(&want) {
        assert!(
            (f64::from(sweep.time) - t).abs() < 1e-6,
            "{name}: time {} vs dense {t}",
            sweep.time
        );
        assert!(
            (0.0..=1.0).contains(&sweep.along),
            "{name}: along {}",
            sweep.along
        );
    }
}

#[test]
fn seed_motions() {
    let still = |p: Vec2| [p, p];
    // Simple: both ends move together along the normal.
    check_against_dense(
        "simple",
        [v(0., 0.), v(4., 0.)],
        [v(0., 4.), v(4., 4.)],
        still(v(1., 1.)),
        1,
    );
    // Raise: the first end moves horizontally, the second vertically. Depending on where the
    // point is, the line sweeps it never, once or twice.
    let raise = ([v(0., 0.), v(4., 0.)], [v(4., -2.), v(4., 2.)]);
    check_against_dense("raise/0", raise.0, raise.1, still(v(3.0, 0.5)), 0);
    check_against_dense("raise/1", raise.0, raise.1, still(v(2.0, -0.5)), 1);
    check_against_dense("raise/2", raise.0, raise.1, still(v(3.5, 0.2)), 2);
    // Dive: the first end dives diagonally through the middle while the second rises.
    let dive = ([v(0., 4.), v(4., 0.)], [v(4., 0.), v(4., 4.)]);
    // Right of the diagonal the line passes twice: at t = 1/2 (horizontal, y = 2) and 3/4.
    check_against_dense("dive/2", dive.0, dive.1, still(v(3.5, 2.0)), 2);
    let s = sweep_point_segment(dive.0, dive.1, still(v(3.5, 2.0)));
    assert_eq!(
        s.as_slice(),
        &[
            Sweep {
                time: 0.5,
                along: 0.75
            },
            Sweep {
                time: 0.75,
                along: 0.5
            }
        ]
    );
    // Left of it, only the line's extension passes.
    check_against_dense("dive/0", dive.0, dive.1, still(v(-1.0, 2.0)), 0);
    check_against_dense("dive/0b", dive.0, dive.1, still(v(1.0, 1.0)), 0);
    // The point moves too (a mouse pointer): a swipe across a still segment.
    check_against_dense(
        "swipe",
        [v(0., 0.), v(0., 0.)],
        [v(0., 4.), v(0., 4.)],
        [v(-3., 1.), v(1., 3.)],
        1,
    );
}

#[test]
fn sideways_reports_the_start_of_the_interval() {
    // The segment slides along its own line over the point: on it for t in [2/3, 1].
    let sweeps = sweep_point_segment(
        [v(0., 0.), v(3., 0.)],
        [v(2., 0.), v(5., 0.)],
        [v(4., 0.), v(4., 0.)],
    );
    assert_eq!(sweeps.len(), 1, "{sweeps:?}");
    let s = sweeps.first().unwrap();
    assert!((s.time - 2.0 / 3.0).abs() < 1e-6 && s.along == 1.0, "{s:?}");
    // Beside the line: never.
    assert!(
        sweep_point_segment(
            [v(0., 0.), v(3., 0.)],
            [v(2., 0.), v(5., 0.)],
            [v(4., 1.), v(4., 1.)]
        )
        .is_empty()
    );
}

#[test]
fn degenerate_coefficients() {
    let still = |p: Vec2| [p, p];
    // Still segment through a still point: on it from the start.
    let s = sweep_point_segment(still(v(0., 0.)), still(v(2., 2.)), still(v(1., 1.)));
    assert_eq!(
        s.as_slice(),
        &[Sweep {
            time: 0.0,
            along: 0.5
        }]
    );
    // Still segment, still point off it: constant nonzero, never.
    assert!(sweep_point_segment(still(v(0., 0.)), still(v(2., 2.)), still(v(1., 0.))).is_empty());
    // Pure translation onto the point exactly at the end of the step: time 1, exactly.
    let s = sweep_point_segment(
        [v(0., 0.), v(1., 0.)],
        [v(0., 2.), v(1., 2.)],
        still(v(1., 1.)),
    );
    assert_eq!(
        s.as_slice(),
        &[Sweep {
            time: 1.0,
            along: 0.5
        }]
    );
    // Collapse: both endpoints meet on the point at t = 1/2 and go on.
    let s = sweep_point_segment(
        [v(-1., 0.), v(1., 0.)],
        [v(1., 0.), v(-1., 0.)],
        still(v(0., 0.)),
    );
    assert_eq!(s.first().map(|s| s.time), Some(0.0), "{s:?}");
    // Collapse off the point's line: the segment shrinks to (0, 1) and passes the origin? No:
    // it stays on y = 1 while the point is at the origin.
    assert!(
        sweep_point_segment(
            [v(-1., 1.), v(1., 1.)],
            [v(1., 1.), v(-1., 1.)],
            still(v(0., 0.))
        )
        .is_empty()
    );
    // A still first end and a tip moving (2, -1) -> (2, 1): the tip itself passes the point
    // at t = 1/2, so along = 1.
    let s = sweep_point_segment(still(v(0., 0.)), [v(2., -1.), v(2., 1.)], still(v(2., 0.)));
    assert_eq!(
        s.as_slice(),
        &[Sweep {
            time: 0.5,
            along: 1.0
        }]
    );
}

#[test]
fn touches_at_the_start() {
    // The point sits on the first endpoint at t = 0 and the segment moves away.
    let s = sweep_point_segment(
        [v(0., 0.), v(0., 1.)],
        [v(1., 0.), v(1., 1.)],
        [v(0., 0.), v(0., 0.)],
    );
    assert_eq!(
        s.as_slice(),
        &[Sweep {
            time: 0.0,
            along: 0.0
        }]
    );
}

#[test]
fn random_scenes_match_the_dense_oracle() {
    // A small LCG keeps the test dependency-free; scenes where the dense search could miss a
    // short graze (a pair of roots closer than 1e-3) are skipped.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 40) as f32 / (1u64 << 24) as f32) * 8.0 - 4.0
    };
    let mut checked = 0;
    for _ in 0..300 {
        let sp = [v(next(), next()), v(next(), next())];
        let ep = [v(next(), next()), v(next(), next())];
        let pp = [v(next(), next()), v(next(), next())];
        let want = dense(sp, ep, pp, 20_000);
        if want.windows(2).any(|w| w[1] - w[0] < 1e-3) {
            continue;
        }
        let got = sweep_point_segment(sp, ep, pp);
        assert_eq!(
            got.len(),
            want.len(),
            "{sp:?} {ep:?} {pp:?}: {got:?} vs {want:?}"
        );
        for (s, t) in got.iter().zip(&want) {
            assert!(
                (f64::from(s.time) - t).abs() < 1e-5,
                "{sp:?} {ep:?} {pp:?}: {got:?} vs {want:?}"
            );
        }
        checked += 1;
    }
    assert!(checked > 250, "only {checked} scenes checked");
}

#[test]
fn collinear_stretches_each_report_their_start() {
    let still = |p: Vec2| [p, p];
    // (case, first endpoint's path, second endpoint's path, point's path, expected sweeps)
    let cases: [(&str, [Vec2; 2], [Vec2; 2], [Vec2; 2], &[(f32, f32)]); 4] = [
        // The segment flips through the point: on it from the start until the point passes
        // the still endpoint (t = 1/4), off while the segment turns over, and on again when
        // the moving endpoint catches up with it (t = 3/4).
        (
            "flip",
            still(v(0., 0.)),
            [v(-1., 0.), v(1., 0.)],
            [v(-0.25, 0.), v(0.75, 0.)],
            &[(0.0, 0.25), (0.75, 1.0)],
        ),
        // The same, caught up with exactly at the end of the step.
        (
            "flip, back on at the end",
            still(v(0., 0.)),
            [v(-1., 0.), v(1., 0.)],
            [v(-0.5, 0.), v(1., 0.)],
            &[(0.0, 0.5), (1.0, 1.0)],
        ),
        // On the still endpoint at the start only, then off, then on again at 2/3.
        (
            "on an endpoint, then again",
            still(v(0., 0.)),
            [v(-1., 0.), v(1., 0.)],
            [v(0., 0.), v(0.5, 0.)],
            &[(0.0, 0.0), (2.0 / 3.0, 1.0)],
        ),
        // The segment slides along its line onto the point and stays: one stretch.
        (
            "sideways",
            [v(0., 0.), v(3., 0.)],
            [v(2., 0.), v(5., 0.)],
            still(v(4., 0.)),
            &[(2.0 / 3.0, 1.0)],
        ),
    ];
    for (case, start_path, end_path, point_path, expected) in cases {
        let got: Vec<(f32, f32)> = sweep_point_segment(start_path, end_path, point_path)
            .iter()
            .map(|s| (s.time, s.along))
            .collect();
        assert_eq!(got.len(), expected.len(), "{case}: {got:?}");
        for (g, e) in got.iter().zip(expected) {
            assert!(
                (g.0 - e.0).abs() < 1e-6 && (g.1 - e.1).abs() < 1e-6,
                "{case}: got {got:?}, expected {expected:?}"
            );
        }
    }
}
