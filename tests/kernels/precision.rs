//! Where plain `f32` is not enough: the textbook formulas, evaluated in `f32`, against
//! the exact oracle, next to this crate's kernels on the same inputs.
//!
//! This is the measurement behind the kernels' use of `f64` and exact predicates near
//! boundaries. Run `cargo test --test lib precision -- --nocapture` to see the table.

use super::oracle;
use bevy_math::{Vec2, bounding::Aabb2d};
use bevy_sweep::geometry::{clip_segment_aabb, intersect_segment_circle};
use num_traits::Float;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Liang–Barsky (1984) as usually written (with closed comparisons, so that touching counts),
/// with every step rounded in the float type `F` (inputs converted exactly).
fn textbook_clip<F: Float>(start: Vec2, end: Vec2, aabb: &Aabb2d) -> bool {
    let [sx, sy, ex, ey] = exact::<F, 4>([start.x, start.y, end.x, end.y]);
    let [x0, y0, x1, y1] = exact::<F, 4>([aabb.min.x, aabb.min.y, aabb.max.x, aabb.max.y]);
    let (dx, dy) = (ex - sx, ey - sy);
    let sides = [(-dx, sx - x0), (dx, x1 - sx), (-dy, sy - y0), (dy, y1 - sy)];
    let (mut u1, mut u2) = (F::zero(), F::one());
    for (p, q) in sides {
        if p == F::zero() {
            if q < F::zero() {
                return false;
            }
        } else if p < F::zero() {
            u1 = u1.max(q / p);
        } else {
            u2 = u2.min(q / p);
        }
    }
    u1 <= u2
}

/// The textbook circle–line test (discriminant `b² − 4ac`), rounded in `F`: how many roots
/// in `[0, 1]`.
fn textbook_circle_roots<F: Float>(start: Vec2, end: Vec2, center: Vec2, radius: f32) -> usize {
    let [sx, sy, ex, ey, cx, cy, r] =
        exact::<F, 7>([start.x, start.y, end.x, end.y, center.x, center.y, radius]);
    let (x1, y1) = (sx - cx, sy - cy);
    let (dx, dy) = (ex - cx - x1, ey - cy - y1);
    let two = F::one() + F::one();
    let a = dx * dx + dy * dy;
    let b = two * (x1 * dx + y1 * dy);
    let c = x1 * x1 + y1 * y1 - r * r;
    let delta = b * b - two * two * a * c;
    let in_unit = |t: F| t >= F::zero() && t <= F::one();
    if a == F::zero() || delta < F::zero() {
        0
    } else if delta == F::zero() {
        usize::from(in_unit(-b / (two * a)))
    } else {
        let s = delta.sqrt();
        usize::from(in_unit((-b + s) / (two * a))) + usize::from(in_unit((-b - s) / (two * a)))
    }
}

/// `f32` values converted exactly to `F` (`f32` or `f64`).
fn exact<F: Float, const N: usize>(values: [f32; N]) -> [F; N] {
    values.map(|v| F::from(v).expect("f32 converts exactly to f32 and f64"))
}

/// Grid-aligned input (many exact touches) or adversarial input (mixed magnitudes, nudges).
fn value(rng: &mut ChaCha8Rng, adversarial: bool) -> f32 {
    if !adversarial {
        return f32::from(rng.random_range(-16_i8..=16)) * 0.5;
    }
    let base = [0.0, 1.0, -1.0, 3.0, 0.1, 1e-7, 1e7, 1234.5][rng.random_range(0..8)];
    match rng.random_range(0..3) {
        0 => base,
        1 => f32::next_up(base),
        _ => f32::next_down(base),
    }
}

fn point(rng: &mut ChaCha8Rng, adversarial: bool) -> Vec2 {
    Vec2::new(value(rng, adversarial), value(rng, adversarial))
}

#[derive(Default)]
struct Tally {
    cases: usize,
    textbook_wrong: usize,
    textbook_f64_wrong: usize,
    ours_wrong: usize,
}

#[test]
#[expect(
    clippy::print_stderr,
    reason = "the table is this test's measurement output"
)]
fn textbook_f32_fails_where_the_kernels_do_not() {
    const CASES: usize = 3000;
    let mut report = String::new();
    let mut totals = Vec::new();
    for (set, adversarial) in [("grid", false), ("adversarial", true)] {
        let mut rng = ChaCha8Rng::seed_from_u64(0x0070_7265_6369_7369);
        let mut clip = Tally::default();
        let mut circle = Tally::default();
        for _ in 0..CASES {
            let (s, e) = (point(&mut rng, adversarial), point(&mut rng, adversarial));
            let (a, b) = (point(&mut rng, adversarial), point(&mut rng, adversarial));
            let aabb = Aabb2d {
                min: a.min(b),
                max: a.max(b),
            };
            let exact = oracle::clip(s, e, &aabb).is_some();
            clip.cases += 1;
            clip.textbook_wrong += usize::from(textbook_clip::<f32>(s, e, &aabb) != exact);
            clip.textbook_f64_wrong += usize::from(textbook_clip::<f64>(s, e, &aabb) != exact);
            clip.ours_wrong += usize::from(clip_segment_aabb(s, e, &aabb).is_some() != exact);

            // Circle: only cases the oracle calls clear (no root in an ambiguous band).
            let center = point(&mut rng, adversarial);
            let radius = value(&mut rng, adversarial).abs();
            let case = oracle::circle(s, e, center, radius);
            let clear = case
                .expected
                .iter()
                .all(|x| matches!(x.demand, oracle::Demand::Required { .. }));
            if clear {
                let want = case.expected.len();
                circle.cases += 1;
                circle.textbook_wrong +=
                    usize::from(textbook_circle_roots::<f32>(s, e, center, radius) != want);
                circle.textbook_f64_wrong +=
                    usize::from(textbook_circle_roots::<f64>(s, e, center, radius) != want);
                circle.ours_wrong +=
                    usize::from(intersect_segment_circle(s, e, center, radius).len() != want);
            }
        }
        for (kernel, t) in [
            ("segment vs box: hit or miss", &clip),
            ("segment vs circle: root count", &circle),
        ] {
            report.push_str(&format!(
                "| {set} | {kernel} | {} | {} | {} | {} |\n",
                t.cases, t.textbook_wrong, t.textbook_f64_wrong, t.ours_wrong
            ));
        }
        totals.push((set, clip, circle));
    }
    eprintln!(
        "| input | question | cases | textbook f32 wrong | textbook f64 wrong | bevy_sweep wrong |\n|---|---|---:|---:|---:|---:|\n{report}"
    );
    for (set, clip, circle) in &totals {
        assert_eq!(
            clip.ours_wrong, 0,
            "{set}: clip_segment_aabb disagrees with the oracle\n{report}"
        );
        assert_eq!(
            circle.ours_wrong, 0,
            "{set}: intersect_segment_circle disagrees with the oracle\n{report}"
        );
    }
    // The measurement must show something: if the textbook versions never failed, these inputs
    // would not exercise the boundaries the exact paths exist for.
    let textbook_failures: usize = totals
        .iter()
        .map(|(_, c, k)| c.textbook_wrong + k.textbook_wrong)
        .sum();
    assert!(
        textbook_failures > 0,
        "the textbook f32 formulas never failed on these inputs\n{report}"
    );
}
