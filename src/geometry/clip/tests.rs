//! Table tests shared by the four clippers: Liang–Barsky's cases and the closed-boundary ones
//! (corner touches, segments along an edge, zero-length segments, zero-size boxes).

use super::*;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

type Clipper = fn(Vec2, Vec2, &Aabb2d) -> Option<SegmentClip>;
/// `Some((entry, exit))` or `None`.
type Expected = Option<(f32, f32)>;

const CLIPPERS: [(&str, Clipper); 5] = [
    ("liang_barsky", clip_segment_aabb_liang_barsky),
    ("slab", clip_segment_aabb_slab),
    ("cohen_sutherland", clip_segment_aabb_cohen_sutherland),
    ("sectors", clip_segment_aabb_sectors),
    ("batch", batch_of_one),
];

/// The batch form on a batch of nine copies (so the SIMD path runs, plus one scalar remainder).
fn batch_of_one(start: Vec2, end: Vec2, aabb: &Aabb2d) -> Option<SegmentClip> {
    let (sx, sy, ex, ey) = ([start.x; 9], [start.y; 9], [end.x; 9], [end.y; 9]);
    let mut out = [None; 9];
    clip_segments_aabb(
        SegmentBatch {
            start_x: &sx,
            start_y: &sy,
            end_x: &ex,
            end_y: &ey,
        },
        aabb,
        &mut out,
    )
    .unwrap();
    assert!(
        out.iter().all(|o| *o == out[0]),
        "SIMD lanes and the scalar remainder differ: {out:?}"
    );
    out[0]
}

/// The box [0, 4] × [0, 2].
fn unit() -> Aabb2d {
    Aabb2d {
        min: v(0., 0.),
        max: v(4., 2.),
    }
}

#[test]
fn table() {
    #[rustfmt::skip]
    let cases: &[(&str, Vec2, Vec2, Expected)] = &[
        ("wholly inside", v(1., 1.), v(3., 1.5), Some((0.0, 1.0))),
        ("enters", v(-4., 1.), v(2., 1.), Some((4.0 / 6.0, 1.0))),
        ("exits", v(2., 1.), v(2., 5.), Some((0.0, 0.25))),
        ("traverses", v(-2., 1.), v(6., 1.), Some((0.25, 0.75))),
        ("traverses diagonally", v(-1., -1.), v(3., 3.), Some((0.25, 0.75))),
        ("touches a corner", v(3., 3.), v(5., 1.), Some((0.5, 0.5))),
        ("passes through a corner", v(-1., -1.), v(1., 1.), Some((0.5, 1.0))),
        ("through two opposite corners", v(-4., -2.), v(8., 4.), Some((1.0 / 3.0, 2.0 / 3.0))),
        ("starts at a corner, leaves", v(4., 2.), v(6., 3.), Some((0.0, 0.0))),
        ("ends at a corner", v(6., 3.), v(4., 2.), Some((1.0, 1.0))),
        ("lies along an edge", v(1., 0.), v(3., 0.), Some((0.0, 1.0))),
        ("runs along an edge past both corners", v(-2., 2.), v(6., 2.), Some((0.25, 0.75))),
        ("ends on an edge", v(2., 5.), v(2., 2.), Some((1.0, 1.0))),
        ("starts on an edge heading out", v(2., 2.), v(2., 5.), Some((0.0, 0.0))),
        ("outside heading toward", v(-4., 1.), v(-2., 1.), None),
        ("outside heading away", v(-2., 1.), v(-4., 1.), None),
        ("outside beside a corner", v(3., 3.5), v(5., 1.5), None),
        ("parallel to an axis, outside", v(-1., 3.), v(5., 3.), None),
        ("vertical, outside", v(5., -1.), v(5., 3.), None),
        ("vertical through", v(1., -1.), v(1., 3.), Some((0.25, 0.75))),
        ("zero length inside", v(1., 1.), v(1., 1.), Some((0.0, 1.0))),
        ("zero length on a corner", v(4., 2.), v(4., 2.), Some((0.0, 1.0))),
        ("zero length outside", v(5., 1.), v(5., 1.), None),
    ];
    for &(name, start, end, expected) in cases {
        for (algorithm, clip) in CLIPPERS {
            let got = clip(start, end, &unit()).map(|c| (c.entry, c.exit));
            assert_eq!(got, expected, "{algorithm}: {name} ({start} -> {end})");
        }
    }
}

#[test]
fn zero_size_and_inverted_boxes() {
    let point_box = Aabb2d {
        min: v(1., 1.),
        max: v(1., 1.),
    };
    let flat_box = Aabb2d {
        min: v(0., 1.),
        max: v(4., 1.),
    };
    let inverted = Aabb2d {
        min: v(2., 0.),
        max: v(0., 2.),
    };
    #[rustfmt::skip]
    let cases: &[(&str, Aabb2d, Vec2, Vec2, Expected)] = &[
        ("through a point box", point_box, v(0., 0.), v(2., 2.), Some((0.5, 0.5))),
        ("beside a point box", point_box, v(0., 0.), v(2., 2.1), None),
        ("across a flat box", flat_box, v(2., 0.), v(2., 4.), Some((0.25, 0.25))),
        ("along a flat box", flat_box, v(-4., 1.), v(8., 1.), Some((1.0 / 3.0, 2.0 / 3.0))),
        ("inverted box is empty", inverted, v(-1., 1.), v(3., 1.), None),
        ("inverted box, zero length", inverted, v(1., 1.), v(1., 1.), None),
    ];
    for &(name, aabb, start, end, expected) in cases {
        for (algorithm, clip) in CLIPPERS {
            let got = clip(start, end, &aabb).map(|c| (c.entry, c.exit));
            assert_eq!(got, expected, "{algorithm}: {name}");
        }
    }
}

#[test]
fn non_finite_and_huge_input() {
    let hostile = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
    for bad in hostile {
        for (algorithm, clip) in CLIPPERS {
            assert_eq!(
                clip(v(bad, 0.), v(1., 1.), &unit()),
                None,
                "{algorithm}: start {bad}"
            );
            assert_eq!(
                clip(v(1., 1.), v(1., bad), &unit()),
                None,
                "{algorithm}: end {bad}"
            );
            let aabb = Aabb2d {
                min: v(0., 0.),
                max: v(bad, 2.),
            };
            assert_eq!(
                clip(v(1., 1.), v(2., 1.), &aabb),
                None,
                "{algorithm}: box {bad}"
            );
        }
    }
    // Huge but finite: a segment spanning nearly all of f32 through a small box.
    let (start, end) = (v(-f32::MAX, 1.0), v(f32::MAX, 1.0));
    for (algorithm, clip) in CLIPPERS {
        let c = clip(start, end, &unit()).unwrap_or_else(|| panic!("{algorithm}: missed"));
        assert!(c.entry == 0.5 && c.exit == 0.5, "{algorithm}: {c:?}");
    }
    // A subnormal direction: 1/d overflows, and the start sits on the left edge.
    let tiny = f32::from_bits(1);
    for (algorithm, clip) in CLIPPERS {
        let got = clip(v(0.0, 1.0), v(tiny, 1.0), &unit());
        assert_eq!(got, Some(SegmentClip::FULL), "{algorithm}");
    }
}

#[test]
fn corner_nudged_by_one_ulp() {
    // A diagonal through the corner (4, 2) touches; moved up by one ulp it misses.
    let aabb = unit();
    let through = (v(3., 3.), v(5., 1.));
    for (algorithm, clip) in CLIPPERS {
        assert!(
            clip(through.0, through.1, &aabb).is_some(),
            "{algorithm}: corner touch"
        );
        let above = (v(3., 3.0_f32.next_up()), v(5., 1.0_f32.next_up()));
        assert!(
            clip(above.0, above.1, &aabb).is_none(),
            "{algorithm}: one ulp above the corner"
        );
        let below = (v(3., 3.0_f32.next_down()), v(5., 1.0_f32.next_down()));
        assert!(
            clip(below.0, below.1, &aabb).is_some(),
            "{algorithm}: one ulp inside the corner"
        );
    }
}

#[test]
fn batch_rejects_mismatched_lengths() {
    let mut out = [None; 2];
    let err = clip_segments_aabb(
        SegmentBatch {
            start_x: &[0.0, 1.0],
            start_y: &[0.0],
            end_x: &[0.0, 1.0],
            end_y: &[0.0, 1.0],
        },
        &unit(),
        &mut out,
    )
    .unwrap_err();
    assert_eq!(err.lengths, [2, 1, 2, 2, 2]);
    assert!(err.to_string().contains("start_y 1"), "{err}");
}

/// Segments each against its own box around the origin, in SIMD lanes, against the scalar
/// clipper one by one: the same contacts, parameters within a few ulps. Random boxes and
/// segments, segments that graze or end on an edge or a corner (integers), still segments,
/// and lanes whose box is flat, inverted, NaN or huge, mixed with good lanes.
#[test]
fn centered_boxes_agree_with_the_scalar_clip() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0xce47);
    let close = |a: f32, b: f32| a == b || a.to_bits().abs_diff(b.to_bits()) <= 4;
    for round in 0..400 {
        let n = rng.random_range(0..30);
        let integer = round % 3 == 0;
        let coordinate = |rng: &mut rand_chacha::ChaCha8Rng| {
            let c: f32 = rng.random_range(-4.0..4.0);
            if integer { c.round() } else { c * 10.0 }
        };
        let mut columns: [Vec<f32>; 6] = Default::default();
        for k in 0..n {
            let start = v(coordinate(&mut rng), coordinate(&mut rng));
            let end = if k % 5 == 0 {
                start
            } else {
                v(coordinate(&mut rng), coordinate(&mut rng))
            };
            let half = match (round + k) % 11 {
                0 => v(0.0, 2.0),
                1 => v(-1.0, 2.0),
                2 => v(f32::NAN, 1.0),
                3 => v(1.0, 1e38),
                _ if integer => v(rng.random_range(0..4) as f32, rng.random_range(1..4) as f32),
                _ => v(rng.random_range(0.1..20.0), rng.random_range(0.1..20.0)),
            };
            for (column, value) in columns
                .iter_mut()
                .zip([start.x, start.y, end.x, end.y, half.x, half.y])
            {
                column.push(value);
            }
        }
        let [sx, sy, ex, ey, hx, hy] = &columns;
        // Eight lanes at a time, the rest one by one (as `PointBoxBatch` does).
        let mut out = Vec::new();
        for chunk in (0..n / 8).map(|c| c * 8..c * 8 + 8) {
            let lanes = columns
                .each_ref()
                .map(|column| <[f32; 8]>::try_from(&column[chunk.clone()]).unwrap());
            out.extend(clip8_centered(&lanes));
        }
        for k in out.len()..n {
            out.push(clip_centered(
                v(sx[k], sy[k]),
                v(ex[k], ey[k]),
                v(hx[k], hy[k]),
            ));
        }
        for k in 0..n {
            let half = v(hx[k], hy[k]);
            let aabb = Aabb2d {
                min: -half,
                max: half,
            };
            let want = clip_segment_aabb(v(sx[k], sy[k]), v(ex[k], ey[k]), &aabb);
            match (out[k], want) {
                (None, None) => {}
                (Some(got), Some(want)) => assert!(
                    close(got.entry, want.entry) && close(got.exit, want.exit),
                    "round {round}, lane {k}: {got:?} vs {want:?}"
                ),
                (got, want) => panic!("round {round}, lane {k}: {got:?} vs {want:?}"),
            }
        }
    }
}
