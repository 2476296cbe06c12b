//! Property tests of the geometry kernels against the exact oracle in `oracle.rs`.
//!
//! Every kernel gets three generators: (a) random coordinates of mixed magnitude in about
//! `[-1000, 1000]`, (b) a grid of halves in `[-8, 8]` (exact touches, corners, collinear
//! and tangent cases), (c) adversarial values (`1e-7`, `1e7`, `1e20`, subnormals, ulp
//! nudges of touching constructions, zero-length segments, zero-size and inverted
//! boxes). A deterministic test feeds non-finite and extreme values into every kernel.
//!
//! Every failure message prints the input both as `{:?}` and as `f32::from_bits(..)`
//! so it can be pasted back as a reproducer.

use bevy_math::{Vec2, bounding::Aabb2d};
use bevy_sweep::geometry::{
    SegmentBatch, SegmentClip, SegmentIntersection, clip_segment_aabb,
    clip_segment_aabb_cohen_sutherland, clip_segment_aabb_liang_barsky, clip_segment_aabb_sectors,
    clip_segment_aabb_slab, clip_segments_aabb, intersect_segment_circle,
    intersect_segment_segment, sweep_point_segment,
};
use num_traits::Signed;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

use super::oracle::{self, Demand, Expected, Q, SegSeg, describe_expected, q, qf};
// `v` names the flat input slices here.
use crate::common::v as v2;

// ---------------------------------------------------------------------------------------
// Case counts. Measured in a debug `cargo test --test lib kernels::` on 2 cores: the
// whole suite (26 tests: 12k scalar clip cases and 900 batches, 12k segment-segment, 9k
// circle and 9k sweep cases, plus the hostile runs) takes about 25-30 s; the exact
// oracle dominates.
// ---------------------------------------------------------------------------------------

const CLIP_CASES: u32 = 4000;
const BATCH_CASES: u32 = 300;
const SEGSEG_CASES: u32 = 4000;
const CIRCLE_CASES: u32 = 3000;
const SWEEP_CASES: u32 = 3000;
const HOSTILE_RANDOM: usize = 3000;

/// Case counts per property, and a fixed seed so that CI runs are reproducible. Set
/// `PROPTEST_RNG_SEED=<u64>` to explore other inputs (proptest reads it into its defaults).
fn config(cases: u32) -> ProptestConfig {
    let defaults = ProptestConfig::with_cases(cases);
    let rng_seed = if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
        defaults.rng_seed
    } else {
        proptest::test_runner::RngSeed::Fixed(0x5eed_b5ee_d000_0003)
    };
    ProptestConfig {
        // Do not write regression files next to the sources; messages carry the bits.
        failure_persistence: None,
        rng_seed,
        ..defaults
    }
}

// ---------------------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------------------

fn fx(x: f32) -> String {
    format!("f32::from_bits({:#010x}) /* {x:?} */", x.to_bits())
}

fn fv(v: Vec2) -> String {
    format!("Vec2::new({}, {})", fx(v.x), fx(v.y))
}

fn fbox(b: &Aabb2d) -> String {
    format!("Aabb2d {{ min: {}, max: {} }}", fv(b.min), fv(b.max))
}

fn fq(x: &Q) -> String {
    format!("{:.12e}", oracle::approx(x))
}

// ---------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------

/// Whether finite `x` is within `tol` of the exact `exact`.
fn close(x: f32, exact: &Q, tol: f64) -> bool {
    x.is_finite() && (q(x) - exact).abs() <= qf(tol)
}

fn in_unit(x: f32) -> bool {
    (0.0..=1.0).contains(&x)
}

/// Order-preserving injective assignment of `reports` (ascending) to `expected`
/// (ascending) such that every `Required` entry gets a report and every report is
/// accepted by its entry. At most two of each, so brute force is fine.
fn assign<R>(reports: &[R], expected: &[Expected], accept: &dyn Fn(&R, &Expected) -> bool) -> bool {
    fn go<R>(
        i: usize,
        j: usize,
        reports: &[R],
        expected: &[Expected],
        accept: &dyn Fn(&R, &Expected) -> bool,
    ) -> bool {
        if i == reports.len() {
            return expected[j..].iter().all(|e| e.demand == Demand::Optional);
        }
        for (k, entry) in expected.iter().enumerate().skip(j) {
            if accept(&reports[i], entry) && go(i + 1, k + 1, reports, expected, accept) {
                return true;
            }
            if entry.demand != Demand::Optional {
                return false; // a Required entry cannot be skipped
            }
        }
        false
    }
    go(0, 0, reports, expected, accept)
}

/// Why an assignment failed, for the message: reports no entry accepts (clearly false),
/// and Required entries no report satisfies (missed, or time / along off).
fn diagnose<R>(
    reports: &[R],
    expected: &[Expected],
    accept: &dyn Fn(&R, &Expected) -> bool,
) -> String {
    let mut notes = Vec::new();
    for (i, r) in reports.iter().enumerate() {
        if !expected.iter().any(|e| accept(r, e)) {
            notes.push(format!(
                "report #{i} matches no allowed root (false contact)"
            ));
        }
    }
    for e in expected.iter().filter(|e| e.demand != Demand::Optional) {
        if !reports.iter().any(|r| accept(r, e)) {
            notes.push(format!(
                "required root at {:.9e} ({}) not reported within tolerance",
                e.at.approx(),
                e.why
            ));
        }
    }
    if notes.is_empty() {
        "count or order mismatch".to_owned()
    } else {
        notes.join("; ")
    }
}

/// Applies `k` ulp steps (`k > 0` up, `k < 0` down).
fn nudge(x: f32, k: i8) -> f32 {
    let mut x = x;
    for _ in 0..k.unsigned_abs() {
        x = if k > 0 { x.next_up() } else { x.next_down() };
    }
    x
}

fn nudge_vec(v: Vec2, kx: i8, ky: i8) -> Vec2 {
    v2(nudge(v.x, kx), nudge(v.y, ky))
}

// ---------------------------------------------------------------------------------------
// Checks (shared by the properties and the deterministic tests)
// ---------------------------------------------------------------------------------------

fn clip_pair(c: Option<&SegmentClip>) -> Option<(f32, f32)> {
    c.map(|c| (c.entry, c.exit))
}

/// One clip result against the exact answer.
fn check_clip_result(
    name: &str,
    got: Option<(f32, f32)>,
    exact: Option<&(Q, Q)>,
    input: &dyn Fn() -> String,
) -> Result<(), String> {
    let exact_s = || exact.map(|(e, x)| format!("[{}, {}]", fq(e), fq(x)));
    let fail = |why: &str| {
        Err(format!(
            "{name}: {why}\n  got   {got:?}\n  exact {:?}\n  input {}",
            exact_s(),
            input()
        ))
    };
    match (got, exact) {
        (None, None) => Ok(()),
        (Some(_), None) => fail("Some, but the exact answer is a miss"),
        (None, Some(_)) => fail("None, but the exact answer is a hit"),
        (Some((entry, exit)), Some((e, x))) => {
            if !(in_unit(entry) && in_unit(exit) && entry <= exit) {
                fail("entry/exit not 0 <= entry <= exit <= 1")
            } else if !close(entry, e, 4e-6) || !close(exit, x, 4e-6) {
                fail("entry/exit off by more than 4e-6")
            } else {
                Ok(())
            }
        }
    }
}

/// All four scalar clip variants against the oracle and against each other.
fn check_clip(start: Vec2, end: Vec2, aabb: &Aabb2d) -> Result<(), String> {
    let input = || {
        format!(
            "start = {}, end = {}, aabb = {}",
            fv(start),
            fv(end),
            fbox(aabb)
        )
    };
    let exact = oracle::clip(start, end, aabb);
    let results = [
        ("clip_segment_aabb", clip_segment_aabb(start, end, aabb)),
        (
            "clip_segment_aabb_liang_barsky",
            clip_segment_aabb_liang_barsky(start, end, aabb),
        ),
        (
            "clip_segment_aabb_slab",
            clip_segment_aabb_slab(start, end, aabb),
        ),
        (
            "clip_segment_aabb_cohen_sutherland",
            clip_segment_aabb_cohen_sutherland(start, end, aabb),
        ),
        (
            "clip_segment_aabb_sectors",
            clip_segment_aabb_sectors(start, end, aabb),
        ),
    ];
    for (name, got) in &results {
        check_clip_result(name, clip_pair(got.as_ref()), exact.as_ref(), &input)?;
    }
    check_clips_agree(
        &results
            .iter()
            .map(|(n, r)| ((*n).to_owned(), clip_pair(r.as_ref())))
            .collect::<Vec<_>>(),
        &input,
    )
}

/// Pairwise agreement of several clip results (hit/miss equal, entry/exit within 4e-6).
fn check_clips_agree(
    results: &[(String, Option<(f32, f32)>)],
    input: &dyn Fn() -> String,
) -> Result<(), String> {
    let (first_name, first) = &results[0];
    for (name, other) in &results[1..] {
        let agree = match (first, other) {
            (None, None) => true,
            (Some((e0, x0)), Some((e1, x1))) => {
                (f64::from(*e0) - f64::from(*e1)).abs() <= 4e-6
                    && (f64::from(*x0) - f64::from(*x1)).abs() <= 4e-6
            }
            _ => false,
        };
        if !agree {
            return Err(format!(
                "clip variants disagree: {first_name} = {first:?}, {name} = {other:?}\n  input {}",
                input()
            ));
        }
    }
    Ok(())
}

/// A batch of segments against one box: every lane against `clip_segment_aabb` and the
/// oracle; the output slice is pre-filled with hits so stale lanes are caught.
fn check_batch(segments: &[(Vec2, Vec2)], aabb: &Aabb2d) -> Result<(), String> {
    let input = || {
        let segs: Vec<String> = segments
            .iter()
            .map(|(s, e)| format!("({}, {})", fv(*s), fv(*e)))
            .collect();
        format!(
            "aabb = {}, segments ({}) = [{}]",
            fbox(aabb),
            segs.len(),
            segs.join(", ")
        )
    };
    let sx: Vec<f32> = segments.iter().map(|(s, _)| s.x).collect();
    let sy: Vec<f32> = segments.iter().map(|(s, _)| s.y).collect();
    let ex: Vec<f32> = segments.iter().map(|(_, e)| e.x).collect();
    let ey: Vec<f32> = segments.iter().map(|(_, e)| e.y).collect();
    let unit = Aabb2d {
        min: Vec2::ZERO,
        max: Vec2::ONE,
    };
    let stale = || clip_segment_aabb(Vec2::splat(0.5), Vec2::splat(0.5), &unit);
    if stale().is_none() {
        return Err("clip_segment_aabb misses a point inside the unit box".to_owned());
    }
    let mut out: Vec<Option<SegmentClip>> = segments.iter().map(|_| stale()).collect();
    let batch = SegmentBatch {
        start_x: &sx,
        start_y: &sy,
        end_x: &ex,
        end_y: &ey,
    };
    if let Err(e) = clip_segments_aabb(batch, aabb, &mut out) {
        return Err(format!(
            "clip_segments_aabb: Err({e:?}) on equal lengths\n  input {}",
            input()
        ));
    }
    for (lane, ((start, end), got)) in segments.iter().zip(&out).enumerate() {
        let lane_input = || format!("lane {lane} of {}\n  {}", segments.len(), input());
        let exact = oracle::clip(*start, *end, aabb);
        let scalar = clip_segment_aabb(*start, *end, aabb);
        check_clip_result(
            "clip_segments_aabb",
            clip_pair(got.as_ref()),
            exact.as_ref(),
            &lane_input,
        )?;
        check_clips_agree(
            &[
                ("clip_segments_aabb".to_owned(), clip_pair(got.as_ref())),
                ("clip_segment_aabb".to_owned(), clip_pair(scalar.as_ref())),
            ],
            &lane_input,
        )?;
    }
    Ok(())
}

/// Mismatched slice lengths must be an `Err`, never a panic.
fn check_batch_length_errors(n: usize) -> Result<(), String> {
    let unit = Aabb2d {
        min: Vec2::ZERO,
        max: Vec2::ONE,
    };
    let good = vec![0.5f32; n];
    let short = vec![0.5f32; n.saturating_sub(1)];
    let long = vec![0.5f32; n + 1];
    for bad in [&short, &long] {
        if bad.len() == n {
            continue;
        }
        for slot in 0..5 {
            let pick = |i: usize| {
                if i == slot {
                    bad.as_slice()
                } else {
                    good.as_slice()
                }
            };
            let batch = SegmentBatch {
                start_x: pick(0),
                start_y: pick(1),
                end_x: pick(2),
                end_y: pick(3),
            };
            let mut out: Vec<Option<SegmentClip>> = (0..pick(4).len()).map(|_| None).collect();
            if clip_segments_aabb(batch, &unit, &mut out).is_ok() {
                return Err(format!(
                    "clip_segments_aabb accepted mismatched lengths: n = {n}, slice #{slot} \
                     (0..4 = start_x, start_y, end_x, end_y, 4 = out) has length {}",
                    bad.len()
                ));
            }
        }
    }
    Ok(())
}

/// Segment–segment against the oracle: variant equal; t, u within 4e-6; point within
/// `1e-5 * (1 + max |coordinate|)`.
fn check_segseg(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> Result<(), String> {
    let got = intersect_segment_segment(a0, a1, b0, b1);
    let exact = oracle::segment_segment(a0, a1, b0, b1);
    let fail = |why: &str| {
        let exact_s = match &exact {
            SegSeg::None => "None".to_owned(),
            SegSeg::Point { t, u, point } => {
                format!(
                    "Point {{ t: {}, u: {}, point: {:?} }}",
                    fq(t),
                    fq(u),
                    point.approx()
                )
            }
            SegSeg::Overlap { t, u } => format!(
                "Overlap {{ t: [{}, {}], u: [{}, {}] }}",
                fq(&t[0]),
                fq(&t[1]),
                fq(&u[0]),
                fq(&u[1])
            ),
        };
        Err(format!(
            "intersect_segment_segment: {why}\n  got   {got:?}\n  exact {exact_s}\n  input a0 = {}, a1 = {}, b0 = {}, b1 = {}",
            fv(a0),
            fv(a1),
            fv(b0),
            fv(b1)
        ))
    };
    let magnitude = [a0, a1, b0, b1]
        .iter()
        .flat_map(|v| [v.x.abs(), v.y.abs()])
        .fold(0.0f32, f32::max);
    match (&got, &exact) {
        (SegmentIntersection::None, SegSeg::None) => Ok(()),
        (
            SegmentIntersection::Point { t, u, point },
            SegSeg::Point {
                t: et,
                u: eu,
                point: ep,
            },
        ) => {
            let point_tol = qf(1e-5) * (Q::from_integer(1.into()) + q(magnitude));
            let point_ok = |x: f32, e: &Q| x.is_finite() && (q(x) - e).abs() <= point_tol;
            if !(in_unit(*t) && in_unit(*u)) {
                fail("t or u outside [0, 1]")
            } else if !close(*t, et, 4e-6) || !close(*u, eu, 4e-6) {
                fail("t or u off by more than 4e-6")
            } else if !point_ok(point.x, &ep.x) || !point_ok(point.y, &ep.y) {
                fail("point off by more than 1e-5 * (1 + max |coordinate|)")
            } else {
                Ok(())
            }
        }
        (SegmentIntersection::Overlap { t, u }, SegSeg::Overlap { t: et, u: eu }) => {
            if !t.iter().chain(u.iter()).all(|x| in_unit(*x)) {
                fail("overlap parameters outside [0, 1]")
            } else if t[0] > t[1] {
                fail("overlap t not ascending")
            } else if !(0..2).all(|i| close(t[i], &et[i], 4e-6) && close(u[i], &eu[i], 4e-6)) {
                fail("overlap t or u off by more than 4e-6")
            } else {
                Ok(())
            }
        }
        _ => fail("wrong variant"),
    }
}

/// Segment–circle against the oracle's classification.
fn check_circle(start: Vec2, end: Vec2, center: Vec2, radius: f32) -> Result<(), String> {
    let hits = intersect_segment_circle(start, end, center, radius);
    let ts: Vec<f32> = hits.as_slice().to_vec();
    let iterated: Vec<f32> = hits.into_iter().collect();
    let case = oracle::circle(start, end, center, radius);
    let fail = |why: &str| {
        let bits: Vec<String> = ts
            .iter()
            .map(|t| format!("{:#010x}", t.to_bits()))
            .collect();
        Err(format!(
            "intersect_segment_circle: {why}\n  got   {ts:?} (bits {bits:?})\n  exact roots {:?}\n  expected {}\n  input start = {}, end = {}, center = {}, radius = {}",
            case.real_roots
                .iter()
                .map(oracle::Root::approx)
                .collect::<Vec<_>>(),
            describe_expected(&case.expected),
            fv(start),
            fv(end),
            fv(center),
            fx(radius)
        ))
    };
    if iterated != ts {
        return fail("iteration differs from as_slice");
    }
    if ts.len() > 2 || !ts.iter().all(|t| in_unit(*t)) || ts.windows(2).any(|w| w[0] > w[1]) {
        return fail("not at most 2 ascending values in [0, 1]");
    }
    let reported: Vec<Q> = ts.iter().map(|t| q(*t)).collect();
    let accept = |t: &Q, e: &Expected| match e.demand {
        Demand::Required { tol } => e.at.dist(t) <= qf(tol),
        Demand::Optional => e.at.dist(t) <= qf(1e-5) || case.near_root(t),
    };
    if assign(&reported, &case.expected, &accept) {
        Ok(())
    } else {
        fail(&format!(
            "reported roots do not match the exact ones: {}",
            diagnose(&reported, &case.expected, &accept)
        ))
    }
}

/// Sweep against the oracle's classification.
///
/// `along` tolerance for required sweeps: `|along - s(root)| <= 1e-4 + max |s(tau) - s(root)|`
/// over `tau` in {the reported f32 time, its two f32 neighbours}, where `s` is the exact
/// along-parameter of the point's projection at a time. The second term is how much the
/// exact along moves between the exact root and the times the reported `f32` can stand
/// for, so it scales with how fast the point slides along the segment (with a point
/// moving at 1e7 over a 1e-4 long segment, one ulp of time is 1e-3 of along).
/// Largest coordinate magnitude for which sweeps are compared with the oracle: `2^24`.
const SWEEP_DOMAIN: f32 = 16_777_216.0;

/// How many segment lengths the point moves relative to the segment's endpoints in the step,
/// at the shortest the segment is at `t = 0`, `t = 1` or any root of the exact quadratic
/// (approximate, `f64`: this only decides which cases are inside the documented domain).
fn relative_motion_per_length(
    start_path: [Vec2; 2],
    end_path: [Vec2; 2],
    point_path: [Vec2; 2],
    case: &oracle::SweepCase,
) -> f32 {
    let d = |p: [Vec2; 2]| p[1].as_dvec2() - p[0].as_dvec2();
    let (dp, dq, dc) = (d(start_path), d(end_path), d(point_path));
    let motion = (dp - dc).length().max((dq - dc).length());
    let length_at = |t: f64| {
        let at = |p: [Vec2; 2]| p[0].as_dvec2() * (1.0 - t) + p[1].as_dvec2() * t;
        (at(end_path) - at(start_path)).length()
    };
    let shortest = case
        .real_roots
        .iter()
        .map(oracle::Root::approx)
        .filter(|t| (0.0..=1.0).contains(t))
        .chain([0.0, 1.0])
        .map(length_at)
        .fold(f64::INFINITY, f64::min);
    if motion == 0.0 {
        0.0
    } else {
        (motion / shortest) as f32
    }
}

fn check_sweep(
    start_path: [Vec2; 2],
    end_path: [Vec2; 2],
    point_path: [Vec2; 2],
) -> Result<(), String> {
    let sweeps = sweep_point_segment(start_path, end_path, point_path);
    let got: Vec<(f32, f32)> = sweeps
        .as_slice()
        .iter()
        .map(|s| (s.time, s.along))
        .collect();
    let case = oracle::sweep(start_path, end_path, point_path);
    let fail = |why: &str| {
        let bits: Vec<String> = got
            .iter()
            .map(|(t, a)| format!("({:#010x}, {:#010x})", t.to_bits(), a.to_bits()))
            .collect();
        let alongs: Vec<f64> = case
            .expected
            .iter()
            .map(|e| oracle::approx(&case.along_or_zero(&e.at.lo)))
            .collect();
        Err(format!(
            "sweep_point_segment: {why}\n  got (time, along) {got:?} (bits {bits:?})\n  exact roots {:?} (identically zero: {}, discriminant ambiguous: {})\n  expected {} with along {alongs:?}\n  input start_path = [{}, {}], end_path = [{}, {}], point_path = [{}, {}]",
            case.real_roots
                .iter()
                .map(oracle::Root::approx)
                .collect::<Vec<_>>(),
            case.identically_zero,
            case.disc_ambiguous,
            describe_expected(&case.expected),
            fv(start_path[0]),
            fv(start_path[1]),
            fv(end_path[0]),
            fv(end_path[1]),
            fv(point_path[0]),
            fv(point_path[1]),
        ))
    };
    if sweeps.len() != got.len()
        || got.len() > 2
        || !got.iter().all(|(t, a)| in_unit(*t) && in_unit(*a))
        || got.windows(2).any(|w| w[0].0 > w[1].0)
    {
        return fail("not at most 2 sweeps ascending in time, with time and along in [0, 1]");
    }
    // Beyond the documented domain of `sweep_point_segment` ("# Precision": coordinates up to
    // 2^24, and the point moving less than about 2^24 segment lengths per step relative to
    // the segment), only the structural guarantees above are checked: no panic, no NaN, at
    // most two sweeps in order, in range.
    let in_domain = [start_path, end_path, point_path]
        .iter()
        .flatten()
        .all(|p| p.x.abs() <= SWEEP_DOMAIN && p.y.abs() <= SWEEP_DOMAIN)
        && relative_motion_per_length(start_path, end_path, point_path, &case) <= SWEEP_DOMAIN;
    if !in_domain {
        return Ok(());
    }
    // Largest |s(tau) - s(root)| over the reported f32 time and its two f32 neighbours.
    let along_slack = |time: f32, s_root: &Q| {
        [time.next_down().max(0.0), time, time.next_up().min(1.0)]
            .iter()
            .map(|tau| (case.along_or_zero(&q(*tau)) - s_root).abs())
            .max()
            .unwrap_or_else(|| qf(0.0))
    };
    let reported: Vec<(Q, f32, f32)> = got.iter().map(|(t, a)| (q(*t), *t, *a)).collect();
    let accept = |(t, time, along): &(Q, f32, f32), e: &Expected| match e.demand {
        Demand::Required { tol } => {
            let s_root = case.along_or_zero(&e.at.lo);
            e.at.dist(t) <= qf(tol)
                && (q(*along) - &s_root).abs() <= qf(1e-4) + along_slack(*time, &s_root)
        }
        Demand::Optional => case.plausible(t) && (e.at.dist(t) <= qf(1e-5) || case.disc_ambiguous),
    };
    if assign(&reported, &case.expected, &accept) {
        Ok(())
    } else {
        let mut why = diagnose(&reported, &case.expected, &accept);
        for e in &case.expected {
            if let Demand::Required { tol } = e.demand {
                for (t, time, along) in &reported {
                    if e.at.dist(t) <= qf(tol) {
                        let s_root = case.along_or_zero(&e.at.lo);
                        let _ = write!(
                            why,
                            "; at time {time:?}: along {along:?} vs exact {} (allowed deviation {})",
                            fq(&s_root),
                            fq(&(qf(1e-4) + along_slack(*time, &s_root)))
                        );
                    }
                }
            }
        }
        fail(&format!(
            "reported sweeps do not match the exact ones: {why}"
        ))
    }
}

// ---------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------

/// (a) Random coordinates of mixed magnitude in about `[-1000, 1000]`.
fn mixed() -> BoxedStrategy<f32> {
    prop_oneof![
        4 => -1000.0f32..=1000.0,
        2 => -10.0f32..=10.0,
        1 => -0.05f32..=0.05,
        1 => (-1000i16..=1000).prop_map(f32::from),
    ]
    .boxed()
}

/// (b) Halves in `[-8, 8]`.
fn grid() -> BoxedStrategy<f32> {
    (-16i16..=16).prop_map(|i| f32::from(i) * 0.5).boxed()
}

/// Extreme and special finite values for (c).
fn pool() -> Vec<f32> {
    vec![
        0.0,
        -0.0,
        1e-7,
        -1e-7,
        1e7,
        -1e7,
        1e20,
        -1e20,
        1.0,
        -1.0,
        0.5,
        -0.5,
        3.0,
        -3.0,
        0.1,
        -0.1,
        1000.0,
        -1000.0,
        1e-30,
        -1e-30,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x007f_ffff),
        16_777_216.0,
    ]
}

/// (c) Adversarial scalars: pool values, their ulp neighbours, and some ordinary ones.
fn adversarial() -> BoxedStrategy<f32> {
    prop_oneof![
        3 => prop::sample::select(pool()),
        3 => (prop::sample::select(pool()), -3i8..=3).prop_map(|(x, k)| nudge(x, k)),
        1 => mixed(),
    ]
    .boxed()
}

fn vec_of(s: &BoxedStrategy<f32>) -> BoxedStrategy<Vec2> {
    (s.clone(), s.clone()).prop_map(|(x, y)| v2(x, y)).boxed()
}

/// Small ulp nudges, mostly zero.
fn nudges<const N: usize>() -> BoxedStrategy<[i8; N]> {
    prop::array::uniform::<_, N>(prop_oneof![6 => Just(0i8), 1 => -2i8..=2]).boxed()
}

/// Boxes: mostly proper, sometimes zero-size, zero-width or inverted.
fn aabb_of(s: &BoxedStrategy<f32>) -> BoxedStrategy<Aabb2d> {
    (s.clone(), s.clone(), s.clone(), s.clone(), 0u8..20)
        .prop_map(|(x0, y0, x1, y1, mode)| {
            let lo = v2(x0.min(x1), y0.min(y1));
            let hi = v2(x0.max(x1), y0.max(y1));
            match mode {
                0 => Aabb2d {
                    min: v2(x0, y0),
                    max: v2(x1, y1),
                },
                1 => Aabb2d { min: lo, max: lo },
                2 => Aabb2d {
                    min: lo,
                    max: v2(lo.x, hi.y),
                },
                3 => Aabb2d { min: hi, max: lo },
                _ => Aabb2d { min: lo, max: hi },
            }
        })
        .boxed()
}

type ClipInput = (Vec2, Vec2, Aabb2d);

fn corner_of(b: &Aabb2d, which: u8) -> Vec2 {
    match which % 4 {
        0 => b.min,
        1 => b.max,
        2 => v2(b.min.x, b.max.y),
        _ => v2(b.max.x, b.min.y),
    }
}

/// A segment related to a box: random, through / ending at a corner, ending on an edge
/// line, along an edge line, zero-length at a corner; then optional ulp nudges.
fn clip_inputs(s: &BoxedStrategy<f32>) -> BoxedStrategy<ClipInput> {
    (
        vec_of(s),
        vec_of(s),
        aabb_of(s),
        0u8..12,
        0u8..4,
        nudges::<8>(),
    )
        .prop_map(|(p, r, b, kind, corner, n)| {
            let c = corner_of(&b, corner);
            let (start, end) = match kind {
                0 => (p, p),
                1 => (p, c + (c - p)),
                2 => (p, c),
                3 => (p, v2(b.min.x, r.y)),
                4 => (v2(b.max.x, p.y), v2(b.max.x, r.y)),
                5 => (v2(p.x, b.min.y), v2(r.x, b.min.y)),
                6 => (c, c),
                7 => (c, r),
                _ => (p, r),
            };
            let aabb = Aabb2d {
                min: nudge_vec(b.min, n[4], n[5]),
                max: nudge_vec(b.max, n[6], n[7]),
            };
            (
                nudge_vec(start, n[0], n[1]),
                nudge_vec(end, n[2], n[3]),
                aabb,
            )
        })
        .boxed()
}

type SegSegInput = (Vec2, Vec2, Vec2, Vec2);

/// Segment pairs: random, touching end to end, T-junctions, collinear on a horizontal /
/// diagonal line, nearly parallel, zero-length; then optional ulp nudges.
fn segseg_inputs(s: &BoxedStrategy<f32>) -> BoxedStrategy<SegSegInput> {
    (
        vec_of(s),
        vec_of(s),
        vec_of(s),
        vec_of(s),
        prop::sample::select(pool()),
        0u8..14,
        nudges::<8>(),
    )
        .prop_map(|(a0, a1, b0, b1, tiny, kind, n)| {
            let (a0, a1, b0, b1) = match kind {
                0 => (a0, a1, a1, b1),
                1 => (a0, a1, (a0 + a1) * 0.5, b1),
                2 => (
                    v2(a0.x, a0.y),
                    v2(a1.x, a0.y),
                    v2(b0.x, a0.y),
                    v2(b1.x, a0.y),
                ),
                3 => (
                    v2(a0.x, a0.x),
                    v2(a1.x, a1.x),
                    v2(b0.x, b0.x),
                    v2(b1.x, b1.x),
                ),
                4 => (a0, a1, a0 + v2(tiny, 0.0), a1 + v2(tiny, 0.0)),
                5 => (a0, a1, a1 + v2(0.0, tiny), a0),
                6 => (a0, a0, b0, b1),
                7 => ((b0 + b1) * 0.5, (b0 + b1) * 0.5, b0, b1),
                8 => (a0, a0, a0, a0),
                9 => (
                    v2(a0.x, b0.x),
                    v2(a0.x, b1.x),
                    v2(a0.x, a1.y),
                    v2(a0.x, b1.y),
                ),
                _ => (a0, a1, b0, b1),
            };
            (
                nudge_vec(a0, n[0], n[1]),
                nudge_vec(a1, n[2], n[3]),
                nudge_vec(b0, n[4], n[5]),
                nudge_vec(b1, n[6], n[7]),
            )
        })
        .boxed()
}

type CircleInput = (Vec2, Vec2, Vec2, f32);

/// Circles: random; segments on the tangent lines `y = cy + r` / `x = cx - r`; endpoints
/// on the circle (`c + (r, 0)`, Pythagorean `c + (3k, 4k)` with `r = 5k`); through the
/// centre; zero-length; negative radius; then optional ulp nudges.
fn circle_inputs(
    s: &BoxedStrategy<f32>,
    radius: &BoxedStrategy<f32>,
) -> BoxedStrategy<CircleInput> {
    (
        vec_of(s),
        vec_of(s),
        vec_of(s),
        radius.clone(),
        0u8..14,
        nudges::<7>(),
    )
        .prop_map(|(p, e, c, r, kind, n)| {
            let (p, e, c, r) = match kind {
                0 => (v2(p.x, c.y + r), v2(e.x, c.y + r), c, r),
                1 => (v2(c.x - r, p.y), v2(c.x - r, e.y), c, r),
                2 => (c + v2(r, 0.0), e, c, r),
                3 => (p, c + v2(0.0, -r), c, r),
                4 => (c + v2(3.0, 4.0) * r, e, c, 5.0 * r),
                5 => (p, c + v2(-4.0, 3.0) * r, c, 5.0 * r),
                6 => (p, c + (c - p), c, r),
                7 => (p, p, c, r),
                8 => (c + v2(0.0, r), c + v2(0.0, r), c, r),
                9 => (p, e, c, -r.abs()),
                10 => (p, e, c, 0.0),
                _ => (p, e, c, r),
            };
            (
                nudge_vec(p, n[0], n[1]),
                nudge_vec(e, n[2], n[3]),
                nudge_vec(c, n[4], n[5]),
                nudge(r, n[6]),
            )
        })
        .boxed()
}

type SweepInput = ([Vec2; 2], [Vec2; 2], [Vec2; 2]);

/// Sweeps: random; still segment with a moving point; translating segment; everything
/// on one horizontal / diagonal line (identically-zero cross); point starting or ending
/// on the segment; point passing through an endpoint; rotation about an endpoint; then
/// optional ulp nudges.
fn sweep_inputs(s: &BoxedStrategy<f32>) -> BoxedStrategy<SweepInput> {
    (
        [vec_of(s), vec_of(s)],
        [vec_of(s), vec_of(s)],
        [vec_of(s), vec_of(s)],
        0u8..16,
        nudges::<12>(),
    )
        .prop_map(|(sp, ep, pp, kind, n)| {
            let still = |v: Vec2| [v, v];
            let (sp, ep, pp) = match kind {
                0 => (still(sp[0]), still(ep[0]), pp),
                1 => {
                    let shift = pp[1] - pp[0];
                    ([sp[0], sp[0] + shift], [ep[0], ep[0] + shift], still(pp[0]))
                }
                2 => {
                    let y = sp[0].y;
                    let flat = |v: [Vec2; 2]| [v2(v[0].x, y), v2(v[1].x, y)];
                    (flat(sp), flat(ep), flat(pp))
                }
                3 => {
                    let diag = |v: [Vec2; 2]| [v2(v[0].x, v[0].x), v2(v[1].x, v[1].x)];
                    (diag(sp), diag(ep), diag(pp))
                }
                4 => (still(sp[0]), still(ep[0]), [pp[0], (sp[0] + ep[0]) * 0.5]),
                5 => (still(sp[0]), still(ep[0]), [(sp[0] + ep[0]) * 0.5, pp[1]]),
                6 => (still(sp[0]), still(ep[0]), [sp[0] + (sp[0] - pp[0]), pp[0]]),
                7 => (still(sp[0]), ep, still((sp[0] + ep[1]) * 0.5)),
                8 => (still(sp[0]), still(ep[0]), still(pp[0])),
                9 => (sp, ep, [sp[0], pp[1]]),
                10 => (sp, ep, [pp[0], ep[1]]),
                _ => (sp, ep, pp),
            };
            (
                [nudge_vec(sp[0], n[0], n[1]), nudge_vec(sp[1], n[2], n[3])],
                [nudge_vec(ep[0], n[4], n[5]), nudge_vec(ep[1], n[6], n[7])],
                [nudge_vec(pp[0], n[8], n[9]), nudge_vec(pp[1], n[10], n[11])],
            )
        })
        .boxed()
}

fn mixed_radius() -> BoxedStrategy<f32> {
    prop_oneof![3 => 0.0f32..=1000.0, 2 => 0.0f32..=10.0, 1 => 0.0f32..=0.05].boxed()
}

fn grid_radius() -> BoxedStrategy<f32> {
    (0i16..=10).prop_map(|i| f32::from(i) * 0.5).boxed()
}

fn adversarial_radius() -> BoxedStrategy<f32> {
    adversarial().prop_map(f32::abs).boxed()
}

fn fail_case(r: Result<(), String>) -> Result<(), TestCaseError> {
    r.map_err(TestCaseError::fail)
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(CLIP_CASES))]

    #[test]
    fn clip_random((start, end, aabb) in clip_inputs(&mixed())) {
        fail_case(check_clip(start, end, &aabb))?;
    }

    #[test]
    fn clip_grid((start, end, aabb) in clip_inputs(&grid())) {
        fail_case(check_clip(start, end, &aabb))?;
    }

    #[test]
    fn clip_adversarial((start, end, aabb) in clip_inputs(&adversarial())) {
        fail_case(check_clip(start, end, &aabb))?;
    }
}

proptest! {
    #![proptest_config(config(BATCH_CASES))]

    #[test]
    fn clip_batch_random(
        segs in prop::collection::vec(clip_inputs(&mixed()), 0..40),
        aabb in aabb_of(&mixed()),
    ) {
        let segs: Vec<(Vec2, Vec2)> = segs.into_iter().map(|(s, e, _)| (s, e)).collect();
        fail_case(check_batch(&segs, &aabb))?;
        fail_case(check_batch_length_errors(segs.len()))?;
    }

    #[test]
    fn clip_batch_grid(
        segs in prop::collection::vec(clip_inputs(&grid()), 0..40),
        aabb in aabb_of(&grid()),
    ) {
        let segs: Vec<(Vec2, Vec2)> = segs.into_iter().map(|(s, e, _)| (s, e)).collect();
        fail_case(check_batch(&segs, &aabb))?;
    }

    #[test]
    fn clip_batch_adversarial(
        (segs, aabb) in (1usize..40).prop_flat_map(|n| {
            // Segments built around one box (corner / edge constructions) share it.
            (prop::collection::vec(clip_inputs(&adversarial()), n), 0..n)
        }).prop_map(|(v, k)| {
            let aabb = v[k].2;
            (v.into_iter().map(|(s, e, _)| (s, e)).collect::<Vec<_>>(), aabb)
        }),
    ) {
        fail_case(check_batch(&segs, &aabb))?;
    }
}

proptest! {
    #![proptest_config(config(SEGSEG_CASES))]

    #[test]
    fn segseg_random((a0, a1, b0, b1) in segseg_inputs(&mixed())) {
        fail_case(check_segseg(a0, a1, b0, b1))?;
    }

    #[test]
    fn segseg_grid((a0, a1, b0, b1) in segseg_inputs(&grid())) {
        fail_case(check_segseg(a0, a1, b0, b1))?;
    }

    #[test]
    fn segseg_adversarial((a0, a1, b0, b1) in segseg_inputs(&adversarial())) {
        fail_case(check_segseg(a0, a1, b0, b1))?;
    }
}

proptest! {
    #![proptest_config(config(CIRCLE_CASES))]

    #[test]
    fn circle_random((s, e, c, r) in circle_inputs(&mixed(), &mixed_radius())) {
        fail_case(check_circle(s, e, c, r))?;
    }

    #[test]
    fn circle_grid((s, e, c, r) in circle_inputs(&grid(), &grid_radius())) {
        fail_case(check_circle(s, e, c, r))?;
    }

    #[test]
    fn circle_adversarial((s, e, c, r) in circle_inputs(&adversarial(), &adversarial_radius())) {
        fail_case(check_circle(s, e, c, r))?;
    }
}

proptest! {
    #![proptest_config(config(SWEEP_CASES))]

    #[test]
    fn sweep_random((sp, ep, pp) in sweep_inputs(&mixed())) {
        fail_case(check_sweep(sp, ep, pp))?;
    }

    #[test]
    fn sweep_grid((sp, ep, pp) in sweep_inputs(&grid())) {
        fail_case(check_sweep(sp, ep, pp))?;
    }

    #[test]
    fn sweep_adversarial((sp, ep, pp) in sweep_inputs(&adversarial())) {
        fail_case(check_sweep(sp, ep, pp))?;
    }
}

// ---------------------------------------------------------------------------------------
// Deterministic tests
// ---------------------------------------------------------------------------------------

/// Non-finite and extreme values.
fn hostile_values() -> Vec<f32> {
    vec![
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        -f32::MAX,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        -f32::from_bits(1),
        f32::from_bits(0x007f_ffff),
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1e20,
        -1e20,
        3e38,
    ]
}

fn clip_flat(v: &[f32]) -> Result<(), String> {
    check_clip(
        v2(v[0], v[1]),
        v2(v[2], v[3]),
        &Aabb2d {
            min: v2(v[4], v[5]),
            max: v2(v[6], v[7]),
        },
    )
}

fn batch_flat(v: &[f32]) -> Result<(), String> {
    let aabb = Aabb2d {
        min: v2(v[4], v[5]),
        max: v2(v[6], v[7]),
    };
    // Nine lanes: the hostile one in every position of a full chunk and the remainder.
    let hostile = (v2(v[0], v[1]), v2(v[2], v[3]));
    let calm = (v2(-1.0, 0.25), v2(2.0, 0.75));
    let lanes: Vec<(Vec2, Vec2)> = (0..9)
        .map(|i| if i % 4 == 0 { hostile } else { calm })
        .collect();
    check_batch(&lanes, &aabb)
}

fn segseg_flat(v: &[f32]) -> Result<(), String> {
    check_segseg(
        v2(v[0], v[1]),
        v2(v[2], v[3]),
        v2(v[4], v[5]),
        v2(v[6], v[7]),
    )
}

fn circle_flat(v: &[f32]) -> Result<(), String> {
    check_circle(v2(v[0], v[1]), v2(v[2], v[3]), v2(v[4], v[5]), v[6])
}

fn sweep_flat(v: &[f32]) -> Result<(), String> {
    check_sweep(
        [v2(v[0], v[1]), v2(v[2], v[3])],
        [v2(v[4], v[5]), v2(v[6], v[7])],
        [v2(v[8], v[9]), v2(v[10], v[11])],
    )
}

/// Every hostile value in every single slot of a base input that has a contact, then
/// random mixes of hostile and ordinary values. Collects up to 8 failures.
fn hostile_run(name: &str, base: &[f32], check: fn(&[f32]) -> Result<(), String>, seed: u64) {
    let hostile = hostile_values();
    let mut failures = Vec::new();
    let mut total = 0usize;
    let mut record = |v: &[f32]| {
        let r = std::panic::catch_unwind(|| check(v)).unwrap_or_else(|_| {
            let bits: Vec<String> = v.iter().map(|x| format!("{:#010x}", x.to_bits())).collect();
            Err(format!("{name}: PANIC on input {v:?} (bits {bits:?})"))
        });
        if let Err(e) = r {
            total += 1;
            if failures.len() < 8 {
                failures.push(e);
            }
        }
    };
    record(base);
    for slot in 0..base.len() {
        for &h in &hostile {
            let mut v = base.to_vec();
            v[slot] = h;
            record(&v);
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..HOSTILE_RANDOM {
        let v: Vec<f32> = base
            .iter()
            .map(|&b| match rng.random_range(0..4) {
                0 => b,
                1 => f32::from(rng.random_range(-8i8..=8)),
                _ => hostile[rng.random_range(0..hostile.len())],
            })
            .collect();
        record(&v);
    }
    assert!(
        failures.is_empty(),
        "{name}: {total} failure(s) on hostile input (first {}):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn hostile_clip() {
    hostile_run(
        "clip",
        &[-1.0, 0.25, 2.0, 0.75, 0.0, 0.0, 1.0, 1.0],
        clip_flat,
        1,
    );
}

#[test]
fn hostile_clip_batch() {
    hostile_run(
        "clip batch",
        &[-1.0, 0.25, 2.0, 0.75, 0.0, 0.0, 1.0, 1.0],
        batch_flat,
        2,
    );
    for n in 0..20 {
        if let Err(e) = check_batch_length_errors(n) {
            panic!("{e}");
        }
    }
}

#[test]
fn hostile_segseg() {
    hostile_run(
        "segment-segment",
        &[0.0, 0.0, 2.0, 2.0, 0.0, 2.0, 2.0, 0.0],
        segseg_flat,
        3,
    );
}

#[test]
fn hostile_circle() {
    hostile_run(
        "circle",
        &[-2.0, 0.5, 2.0, 0.5, 0.0, 0.0, 1.0],
        circle_flat,
        4,
    );
}

#[test]
fn hostile_sweep() {
    hostile_run(
        "sweep",
        &[0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 2.0, 0.0, 1.0, -1.0, 1.0, 1.0],
        sweep_flat,
        5,
    );
}

/// Hand-picked exact cases whose answer is pinned by the semantics (all arithmetic on
/// these small values is exact), beyond what the ambiguity bands of the precision
/// contract would force.
#[test]
fn exact_semantics_examples() {
    let v = Vec2::new;
    let unit = Aabb2d {
        min: Vec2::ZERO,
        max: Vec2::ONE,
    };
    // Clip: ending exactly on an edge is a contact at t = 1.
    let c = clip_segment_aabb(v(-1.0, 0.5), v(0.0, 0.5), &unit).map(|c| (c.entry, c.exit));
    assert_eq!(c, Some((1.0, 1.0)), "segment ending on the left edge");
    // Clip: zero-length on the boundary is [0, 1].
    let c = clip_segment_aabb(v(1.0, 0.5), v(1.0, 0.5), &unit).map(|c| (c.entry, c.exit));
    assert_eq!(c, Some((0.0, 1.0)), "zero-length segment on the right edge");
    // Circle: tangent -> exactly once at 0.5.
    let hits = intersect_segment_circle(v(-2.0, 1.0), v(2.0, 1.0), Vec2::ZERO, 1.0);
    assert_eq!(hits.as_slice(), &[0.5], "exact tangent reported once");
    // Circle: radius 0, passing through the centre at t = 0.25.
    let hits = intersect_segment_circle(v(-1.0, 0.0), v(3.0, 0.0), Vec2::ZERO, 0.0);
    assert_eq!(hits.as_slice(), &[0.25], "radius 0 through the centre");
    // Circle: zero-length segment on the boundary.
    let hits = intersect_segment_circle(v(3.0, 4.0), v(3.0, 4.0), Vec2::ZERO, 5.0);
    assert_eq!(
        hits.as_slice(),
        &[0.0],
        "zero-length segment on the boundary"
    );
    // Circle: negative radius.
    let hits = intersect_segment_circle(v(-2.0, 0.0), v(2.0, 0.0), Vec2::ZERO, -1.0);
    assert!(hits.as_slice().is_empty(), "negative radius");
    // Segment-segment: both zero-length and equal.
    assert!(
        matches!(
            intersect_segment_segment(v(1.0, 1.0), v(1.0, 1.0), v(1.0, 1.0), v(1.0, 1.0)),
            SegmentIntersection::Point { t: 0.0, u: 0.0, .. }
        ),
        "two equal points"
    );
    // Sweep: point passing exactly through the segment's endpoint (along 0).
    let s = sweep_point_segment(
        [v(0.0, 0.0), v(0.0, 0.0)],
        [v(2.0, 0.0), v(2.0, 0.0)],
        [v(0.0, -1.0), v(0.0, 1.0)],
    );
    let got: Vec<(f32, f32)> = s.as_slice().iter().map(|s| (s.time, s.along)).collect();
    assert_eq!(got, vec![(0.5, 0.0)], "point through the first endpoint");
    // Sweep: still segment through a still point: one sweep at time 0.
    let s = sweep_point_segment(
        [v(0.0, 0.0), v(0.0, 0.0)],
        [v(2.0, 0.0), v(2.0, 0.0)],
        [v(0.5, 0.0), v(0.5, 0.0)],
    );
    let got: Vec<(f32, f32)> = s.as_slice().iter().map(|s| (s.time, s.along)).collect();
    assert_eq!(got, vec![(0.0, 0.25)], "still point on a still segment");
    // Sweep: segment collapsed onto the point at t = 0: along = 0.
    let s = sweep_point_segment(
        [v(1.0, 1.0), v(0.0, 0.0)],
        [v(1.0, 1.0), v(2.0, 0.0)],
        [v(1.0, 1.0), v(5.0, 5.0)],
    );
    let first = s.as_slice().first().map(|s| (s.time, s.along));
    assert_eq!(
        first,
        Some((0.0, 0.0)),
        "collapsed segment on the point at t = 0"
    );
}
