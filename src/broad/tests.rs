//! The strips against all pairs by brute force, on scenes chosen to break them.

use super::*;
use bevy_math::Vec2;
use core::ops::ControlFlow;

/// A small deterministic generator (the tests need no dependency for this).
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.unit()
    }
}

fn brute_force(bounds: &[Aabb2d], filter: impl Fn(u32, u32) -> bool) -> Vec<(u32, u32)> {
    let mut pairs = Vec::new();
    for i in 0..bounds.len() {
        for j in i + 1..bounds.len() {
            let (a, b) = (&bounds[i], &bounds[j]);
            if usable(a) && usable(b) && overlap(a, b) && filter(i as u32, j as u32) {
                pairs.push((i as u32, j as u32));
            }
        }
    }
    pairs
}

fn check(name: &str, bounds: &[Aabb2d]) {
    let filter = |i: u32, j: u32| !(i + 2 * j).is_multiple_of(11);
    let expected = brute_force(bounds, filter);
    {
        let mut broad = BroadPhase::new();
        let mut pairs = vec![(7, 7)]; // replaced, not appended to
        // Twice: the second call reuses the first call's buffers.
        for _ in 0..2 {
            broad.find_pairs(bounds, filter, &mut pairs);
            let mut sorted = pairs.clone();
            sorted.sort_unstable();
            assert_eq!(sorted.len(), pairs.len());
            sorted.dedup();
            assert_eq!(sorted.len(), pairs.len(), "{name}: repeats a pair");
            assert!(pairs.iter().all(|&(i, j)| i < j), "{name}");
            assert_eq!(sorted, expected, "{name}");
        }
    }
    // The plugin's way in: the usable boxes, in order of lower x edge, searched in parts.
    #[cfg(feature = "plugin")]
    {
        let mut in_order: Vec<Aabb2d> = bounds.iter().copied().filter(usable).collect();
        in_order.sort_by(|a, b| a.min.x.total_cmp(&b.min.x));
        let expected = brute_force(&in_order, filter);
        let mut broad = BroadPhase::new();
        for parts in [1, 3] {
            let mut pairs = Vec::new();
            broad.build_in_order(&in_order);
            for part in 0..parts {
                broad.pairs_in_part(part, parts, |i, j| {
                    if filter(i, j) {
                        pairs.push((i, j));
                    }
                });
            }
            let mut sorted = pairs.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), pairs.len(), "{name}: in {parts} parts");
            assert_eq!(sorted, expected, "{name}: in {parts} parts");
        }
    }
}

fn boxed(center: Vec2, half: Vec2) -> Aabb2d {
    Aabb2d::new(center, half)
}

#[test]
fn uniform_scene() {
    let mut r = Lcg(1);
    let bounds: Vec<_> = (0..2000)
        .map(|_| {
            let c = Vec2::new(r.range(-300.0, 300.0), r.range(-300.0, 300.0));
            boxed(c, Vec2::new(r.range(0.0, 6.0), r.range(0.0, 6.0)))
        })
        .collect();
    check("uniform", &bounds);
}

#[test]
fn integer_grid_with_touching_edges() {
    let mut r = Lcg(2);
    let bounds: Vec<_> = (0..600)
        .map(|_| {
            let min = Vec2::new((r.unit() * 40.0).floor(), (r.unit() * 40.0).floor());
            let size = Vec2::new((r.unit() * 6.0).floor(), (r.unit() * 6.0).floor());
            Aabb2d {
                min,
                max: min + size,
            }
        })
        .collect();
    check("touching", &bounds);
}

#[test]
fn everything_in_one_corner_and_a_few_far_away() {
    let mut r = Lcg(3);
    let mut bounds: Vec<_> = (0..1500)
        .map(|_| {
            let c = Vec2::new(r.range(0.0, 20.0), r.range(0.0, 20.0));
            boxed(c, Vec2::splat(r.range(0.1, 1.0)))
        })
        .collect();
    bounds.push(boxed(Vec2::new(1e6, -1e6), Vec2::ONE));
    bounds.push(boxed(Vec2::new(-1e7, 3e5), Vec2::splat(2e5)));
    check("corner", &bounds);
}

#[test]
fn a_few_huge_boxes_among_small_ones() {
    let mut r = Lcg(4);
    let mut bounds: Vec<_> = (0..1500)
        .map(|_| {
            let c = Vec2::new(r.range(-500.0, 500.0), r.range(-500.0, 500.0));
            boxed(c, Vec2::splat(r.range(0.5, 3.0)))
        })
        .collect();
    for k in 0..5 {
        let c = Vec2::new(r.range(-500.0, 500.0), r.range(-500.0, 500.0));
        bounds.insert(k * 300, boxed(c, Vec2::splat(r.range(50.0, 400.0))));
    }
    check("huge", &bounds);
}

#[test]
fn long_thin_segments_in_one_column() {
    let mut r = Lcg(5);
    let bounds: Vec<_> = (0..1500)
        .map(|k| {
            let c = Vec2::new(r.range(-5.0, 5.0), r.range(-800.0, 800.0));
            if k % 3 == 0 {
                // Long and flat: every one of them shares the column's x-range.
                boxed(c, Vec2::new(r.range(50.0, 200.0), 0.0))
            } else {
                boxed(c, Vec2::new(0.0, r.range(0.0, 4.0)))
            }
        })
        .collect();
    check("column", &bounds);
}

#[test]
fn points_duplicates_and_bad_boxes() {
    let mut r = Lcg(6);
    let mut bounds: Vec<_> = (0..800)
        .map(|_| {
            // Zero-size boxes on a coarse lattice: many share a position.
            let c = Vec2::new((r.unit() * 20.0).floor(), (r.unit() * 20.0).floor());
            boxed(c, Vec2::ZERO)
        })
        .collect();
    bounds.extend([boxed(Vec2::new(3.0, 3.0), Vec2::ONE); 5]);
    bounds.push(Aabb2d {
        min: Vec2::new(f32::NAN, 0.0),
        max: Vec2::ONE,
    });
    bounds.push(Aabb2d {
        min: Vec2::ZERO,
        max: Vec2::new(f32::INFINITY, 1.0),
    });
    bounds.push(Aabb2d {
        min: Vec2::new(5.0, 5.0),
        max: Vec2::new(4.0, 6.0), // inside out
    });
    bounds.push(Aabb2d {
        min: Vec2::splat(-3e38),
        max: Vec2::splat(3e38), // finite, but its size is not
    });
    bounds.push(boxed(Vec2::new(1e30, -1e30), Vec2::splat(1e-30)));
    bounds.push(boxed(Vec2::new(1e30, -1e30), Vec2::splat(1e-30)));
    check("points", &bounds);
}

#[test]
fn empty_and_single() {
    check("empty", &[]);
    check("one", &[boxed(Vec2::ZERO, Vec2::ONE)]);
    check(
        "two",
        &[
            boxed(Vec2::ZERO, Vec2::ONE),
            boxed(Vec2::new(2.0, 2.0), Vec2::ONE),
        ],
    );
}

#[test]
fn random_scenes_of_mixed_scales() {
    for seed in 0..40 {
        let mut r = Lcg(100 + seed);
        let n = 1 + (r.unit() * 300.0) as usize;
        let scale = 10f32.powf(r.range(-3.0, 4.0));
        let bounds: Vec<_> = (0..n)
            .map(|_| {
                let c = Vec2::new(r.range(-100.0, 100.0), r.range(-100.0, 100.0)) * scale;
                let half = Vec2::new(r.unit().powi(4), r.unit().powi(4)) * 60.0 * scale;
                boxed(c, half)
            })
            .collect();
        check(&format!("seed {seed}"), &bounds);
    }
}

/// Where the segment `a b` first meets the closed box, as a fraction of the way (slab test in
/// `f64`), if it does.
fn segment_box(a: Vec2, b: Vec2, bx: &Aabb2d) -> Option<f64> {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for axis in 0..2 {
        let (p, d) = (f64::from(a[axis]), f64::from(b[axis]) - f64::from(a[axis]));
        let (lo, hi) = (f64::from(bx.min[axis]), f64::from(bx.max[axis]));
        if d == 0.0 {
            if p < lo || p > hi {
                return None;
            }
        } else {
            let (ta, tb) = ((lo - p) / d, (hi - p) / d);
            t0 = t0.max(ta.min(tb));
            t1 = t1.min(ta.max(tb));
        }
    }
    (t0 <= t1).then_some(t0)
}

#[test]
fn box_and_segment_queries_find_what_brute_force_finds() {
    let mut r = Lcg(77);
    let mut bounds: Vec<_> = (0..1500)
        .map(|k| {
            let c = Vec2::new(r.range(-400.0, 400.0), r.range(-400.0, 400.0));
            let half = if k % 100 == 0 {
                Vec2::splat(r.range(30.0, 120.0))
            } else {
                Vec2::new(r.range(0.0, 5.0), r.range(0.0, 5.0))
            };
            boxed(c, half)
        })
        .collect();
    bounds.push(Aabb2d {
        min: Vec2::new(f32::NAN, 0.0),
        max: Vec2::ONE,
    });
    {
        let mut broad = BroadPhase::new();
        broad.find_pairs(&bounds, |_, _| true, &mut Vec::new());
        for _ in 0..300 {
            let c = Vec2::new(r.range(-500.0, 500.0), r.range(-500.0, 500.0));
            let query = boxed(c, Vec2::new(r.range(0.0, 60.0), r.range(0.0, 60.0)));
            let mut found = Vec::new();
            broad.query(&query, |i| found.push(i));
            found.sort_unstable();
            let expected: Vec<u32> = (0..bounds.len() as u32)
                .filter(|&i| usable(&bounds[i as usize]) && overlap(&bounds[i as usize], &query))
                .collect();
            assert_eq!(found, expected, "{query:?}");

            // A segment: every box it meets is found, never after the segment has met it.
            let a = Vec2::new(r.range(-500.0, 500.0), r.range(-500.0, 500.0));
            let b = match r.unit() {
                x if x < 0.2 => Vec2::new(r.range(-500.0, 500.0), a.y), // horizontal
                x if x < 0.3 => Vec2::new(a.x, r.range(-500.0, 500.0)), // vertical
                x if x < 0.35 => a,                                     // a point
                _ => Vec2::new(r.range(-500.0, 500.0), r.range(-500.0, 500.0)),
            };
            let mut seen = Vec::new();
            broad.query_segment(a, b, |i, t| {
                let hit = segment_box(a, b, &bounds[i as usize]);
                if let Some(first) = hit
                    && !seen.contains(&i)
                {
                    // Rows are visited in order along the segment: a box found for the first
                    // time is not met before the row is entered (allowing rounding).
                    assert!(first + 1e-4 >= f64::from(t), "{first} < {t}");
                }
                seen.push(i);
                ControlFlow::Continue(())
            });
            for (i, bx) in bounds.iter().enumerate() {
                if usable(bx) && segment_box(a, b, bx).is_some() {
                    assert!(seen.contains(&(i as u32)), "{a} {b} misses {bx:?}");
                }
            }
        }
    }
}

/// Found by review: a long segment far from the origin, past small boxes near it (rounding
/// in the segment's pieces scales with its ends), and a query box touching a box exactly at
/// the box's right edge (the row's widest box must not round down).
#[test]
fn queries_near_rounding_limits() {
    let bounds = [
        Aabb2d {
            min: Vec2::ZERO,
            max: Vec2::ONE,
        },
        Aabb2d {
            min: Vec2::splat(10.0),
            max: Vec2::splat(11.0),
        },
        Aabb2d {
            min: Vec2::splat(4.03),
            max: Vec2::splat(4.03),
        },
        Aabb2d {
            min: Vec2::new(-(2f32.powi(-30)), 20.0),
            max: Vec2::new(1.0, 21.0),
        },
    ];
    {
        let mut broad = BroadPhase::new();
        broad.find_pairs(&bounds, |_, _| true, &mut Vec::new());
        let mut seen = Vec::new();
        broad.query_segment(Vec2::splat(-1e6), Vec2::splat(1e6), |i, _| {
            seen.push(i);
            ControlFlow::Continue(())
        });
        for i in [0, 1, 2] {
            assert!(seen.contains(&i), "the diagonal misses box {i}: {seen:?}");
        }
        let mut found = Vec::new();
        let touching = Aabb2d {
            min: Vec2::new(1.0, 20.0),
            max: Vec2::new(2.0, 21.0),
        };
        broad.query(&touching, |i| found.push(i));
        assert_eq!(found, [3]);
        // Segments whose length overflows find nothing, and do not panic.
        broad.query_segment(Vec2::new(-3e38, 0.0), Vec2::new(3e38, 0.0), |_, _| {
            panic!("an unusable segment found a box")
        });
    }
}

/// What `SweepQuery`'s all-hits query relies on: rows arrive each once, in order along the
/// segment, a box at most once in a row, and a box's rows one after another (found in a
/// row, not found in the next visited, never found again). On thin rows with boxes spanning
/// dozens of them, boxes far beyond the rows' range (the first and last rows reach to
/// infinity), and huge coordinates.
#[test]
fn segment_queries_meet_each_box_in_consecutive_rows() {
    let mut r = Lcg(0x0f_f1e5);
    for scale in [1.0f32, 1e6, 1e-3] {
        let mut bounds: Vec<_> = (0..2000)
            .map(|k| {
                let c = Vec2::new(r.range(-100.0, 100.0), r.range(-100.0, 100.0)) * scale;
                let half = match k % 10 {
                    0 => Vec2::new(r.range(0.1, 30.0), r.range(0.1, 30.0)),
                    _ => Vec2::splat(r.range(0.0, 0.3)),
                } * scale;
                boxed(c, half)
            })
            .collect();
        // Beyond the 1st and 99th percentiles of the lower edges: in the first and last rows.
        bounds.push(boxed(
            Vec2::new(0.0, -1e4) * scale,
            Vec2::splat(5.0) * scale,
        ));
        bounds.push(boxed(
            Vec2::new(0.0, 1e4) * scale,
            Vec2::new(5.0, 9e3) * scale,
        ));
        let mut broad = BroadPhase::default();
        broad.find_pairs(&bounds, |_, _| true, &mut Vec::new());
        let rows = broad.strips.layout().expect("boxes").2;
        assert!(rows > 200, "rows are thin: {rows}");
        for k in 0..300 {
            let a = Vec2::new(r.range(-150.0, 150.0), r.range(-150.0, 150.0)) * scale;
            let b = match k % 4 {
                0 => Vec2::new(a.x, r.range(-150.0, 150.0) * scale),
                1 => Vec2::new(a.x + r.range(-5.0, 5.0) * scale, -a.y * 100.0),
                _ => Vec2::new(r.range(-150.0, 150.0), r.range(-150.0, 150.0)) * scale,
            };
            // Per box: the visit (the how-many-th row) it was last found in.
            let mut last_visit = vec![None; bounds.len()];
            let mut visits = Vec::new();
            broad.query_segment_in_rows(a, b, |i, _, row| {
                if visits.last() != Some(&row) {
                    assert!(
                        !visits.contains(&row),
                        "row {row} visited twice: {visits:?}"
                    );
                    visits.push(row);
                }
                let visit = visits.len();
                match last_visit[i as usize] {
                    Some(v) if v == visit => panic!("box {i} twice in row {row}"),
                    Some(v) if v + 1 != visit => {
                        panic!("box {i} found in visit {v}, then again in visit {visit}")
                    }
                    _ => last_visit[i as usize] = Some(visit),
                }
                ControlFlow::Continue(())
            });
            assert!(
                visits.is_sorted() || visits.is_sorted_by(|x, y| x >= y),
                "rows out of order: {visits:?}"
            );
        }
    }
}
