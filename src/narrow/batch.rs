//! Many moving points against one moving box at once: the point–box case of
//! [`contact_intervals`](super::contact_intervals), eight points at a time with SIMD.

use super::ShapePath;
use crate::geometry::{SegmentBatch, SegmentClip, clip_segments_aabb};
use bevy_math::bounding::Aabb2d;

/// Points against one box, eight at a time: what [`contact_intervals`](super::contact_intervals)
/// gives for each point–box pair (the same contacts, times within a few ulps), with the
/// relative paths clipped by the SIMD kernel [`clip_segments_aabb`].
///
/// A point and a box meet during one interval at most. The buffers are kept between calls,
/// so a batch reused from tick to tick allocates only when it grows.
///
/// This is how [`SweepPlugin`](crate::prelude::SweepPlugin) solves a box shared by many
/// points (bullets against a wall): see [`PointBoxBatch::MIN_POINTS`].
///
/// # Example
/// ```
/// use bevy_math::Vec2;
/// use bevy_sweep::narrow::{PointBoxBatch, ShapePath, contact_intervals};
///
/// let wall = ShapePath::Aabb { center: [Vec2::ZERO; 2], half_extents: Vec2::new(1.0, 10.0) };
/// // Ten bullets flying right, one row apart, from x = -11 to x = 9.
/// let bullets: Vec<ShapePath> = (0..10)
///     .map(|i| {
///         let y = i as f32 - 5.0;
///         ShapePath::Point([Vec2::new(-11.0, y), Vec2::new(9.0, y)])
///     })
///     .collect();
/// let mut batch = PointBoxBatch::default();
/// let mut hits = Vec::new();
/// batch.intervals(&bullets, &wall, |i, interval| hits.push((i, interval)));
/// assert_eq!(hits.len(), 10);
/// for (i, [enter, leave]) in hits {
///     // From x = -1 (half way) to x = 1 (six tenths of the way), as the pair kernel says.
///     assert!((enter - 0.5).abs() < 1e-6 && (leave - 0.6).abs() < 1e-6);
///     let [[e, l]] = contact_intervals(&bullets[i], &wall)[..] else { panic!() };
///     assert!((enter - e).abs() < 1e-6 && (leave - l).abs() < 1e-6);
/// }
/// ```
#[derive(Debug, Default)]
pub struct PointBoxBatch {
    start_x: Vec<f32>,
    start_y: Vec<f32>,
    end_x: Vec<f32>,
    end_y: Vec<f32>,
    /// Which of `points` each lane is.
    lanes: Vec<u32>,
    clips: Vec<Option<SegmentClip>>,
}

impl PointBoxBatch {
    /// The fewest points against one box that the plugin solves as a batch (one full SIMD
    /// register); fewer are solved one by one.
    pub const MIN_POINTS: usize = 8;

    /// Calls `found(i, [enter, leave])` for every `points[i]` that touches `aabb` during the
    /// step, in order of `i`. Paths that are not [`ShapePath::Point`], and invalid paths
    /// (see [`ShapePath::is_valid`]), touch nothing; so does everything if `aabb` is not a
    /// valid [`ShapePath::Aabb`].
    pub fn intervals(
        &mut self,
        points: &[ShapePath],
        aabb: &ShapePath,
        found: impl FnMut(usize, [f32; 2]),
    ) {
        self.intervals_of(points.iter().copied().enumerate(), aabb, found);
    }

    /// [`intervals`](Self::intervals) for points given with their own indices.
    pub(crate) fn intervals_of(
        &mut self,
        points: impl Iterator<Item = (usize, ShapePath)>,
        aabb: &ShapePath,
        mut found: impl FnMut(usize, [f32; 2]),
    ) {
        let ShapePath::Aabb {
            center,
            half_extents,
        } = *aabb
        else {
            return;
        };
        if !aabb.is_valid() {
            return;
        }
        for v in [
            &mut self.start_x,
            &mut self.start_y,
            &mut self.end_x,
            &mut self.end_y,
        ] {
            v.clear();
        }
        self.lanes.clear();
        for (i, path) in points {
            let ShapePath::Point(p) = path else {
                continue;
            };
            if !path.is_valid() {
                continue;
            }
            // The point's path seen from the box's centre, rounded as the pair kernel does.
            let (start, end) = (p[0] - center[0], p[1] - center[1]);
            self.start_x.push(start.x);
            self.start_y.push(start.y);
            self.end_x.push(end.x);
            self.end_y.push(end.y);
            self.lanes.push(i as u32);
        }
        self.clips.clear();
        self.clips.resize(self.lanes.len(), None);
        let segments = SegmentBatch {
            start_x: &self.start_x,
            start_y: &self.start_y,
            end_x: &self.end_x,
            end_y: &self.end_y,
        };
        let bounds = Aabb2d {
            min: -half_extents,
            max: half_extents,
        };
        // The five buffers were filled together: the lengths agree.
        if clip_segments_aabb(segments, &bounds, &mut self.clips).is_err() {
            return;
        }
        for (&i, clip) in self.lanes.iter().zip(&self.clips) {
            if let Some(clip) = clip {
                found(i as usize, [clip.entry, clip.exit]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::contact_intervals;
    use bevy_math::Vec2;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Within `ulps` steps of `f32` of each other (times are in `[0, 1]`).
    fn close(a: f32, b: f32, ulps: u32) -> bool {
        a == b || (a.to_bits().abs_diff(b.to_bits()) <= ulps)
    }

    /// Every point against every box, batched and one by one: the same pairs touch, at times
    /// a few ulps apart. Random paths, paths that graze or end exactly on an edge or corner
    /// (integer coordinates), still points, far-away coordinates, and invalid input.
    #[test]
    fn batches_agree_with_the_pair_kernel() {
        let mut rng = ChaCha8Rng::seed_from_u64(0xba7c);
        let mut batch = PointBoxBatch::default();
        let mut found = Vec::new();
        for scene in 0..300 {
            let scale = [1.0f32, 100.0, 1e5][scene % 3];
            let integer = scene % 4 == 0;
            let coordinate = |rng: &mut ChaCha8Rng| {
                let v: f32 = rng.random_range(-4.0..4.0);
                if integer { v.round() } else { v * scale }
            };
            let center = [
                Vec2::new(coordinate(&mut rng), coordinate(&mut rng)),
                Vec2::new(coordinate(&mut rng), coordinate(&mut rng)),
            ];
            let half = if integer {
                Vec2::new(1.0, 2.0)
            } else {
                Vec2::new(rng.random_range(0.1..2.0), rng.random_range(0.1..2.0)) * scale
            };
            let aabb = ShapePath::Aabb {
                center,
                half_extents: half,
            };
            let n = rng.random_range(0..40);
            let mut points: Vec<ShapePath> = (0..n)
                .map(|k| {
                    let start = Vec2::new(coordinate(&mut rng), coordinate(&mut rng));
                    let end = if k % 7 == 0 {
                        start
                    } else {
                        Vec2::new(coordinate(&mut rng), coordinate(&mut rng))
                    };
                    ShapePath::Point([start, end])
                })
                .collect();
            if scene % 10 == 0 && n > 2 {
                points[1] = ShapePath::Point([Vec2::NAN, Vec2::ZERO]);
                points[2] = ShapePath::Circle {
                    center: [Vec2::ZERO; 2],
                    radius: 1.0,
                };
            }
            found.clear();
            batch.intervals(&points, &aabb, |i, interval| found.push((i, interval)));
            let expected: Vec<(usize, [f32; 2])> = points
                .iter()
                .enumerate()
                .filter(|(_, p)| matches!(p, ShapePath::Point(_)))
                .filter_map(|(i, p)| contact_intervals(p, &aabb).first().map(|&t| (i, t)))
                .collect();
            assert_eq!(
                found.iter().map(|f| f.0).collect::<Vec<_>>(),
                expected.iter().map(|e| e.0).collect::<Vec<_>>(),
                "scene {scene}: the same points touch"
            );
            for ((i, got), (_, want)) in found.iter().zip(&expected) {
                assert!(
                    close(got[0], want[0], 4) && close(got[1], want[1], 4),
                    "scene {scene}, point {i}: {got:?} vs {want:?}"
                );
            }
        }
    }

    /// An invalid box, or a path that is not a box, touches nothing.
    #[test]
    fn invalid_boxes_touch_nothing() {
        let points = [ShapePath::Point([Vec2::ZERO, Vec2::ONE]); 9];
        let mut batch = PointBoxBatch::default();
        for aabb in [
            ShapePath::Aabb {
                center: [Vec2::ZERO; 2],
                half_extents: Vec2::new(0.0, 1.0),
            },
            ShapePath::Aabb {
                center: [Vec2::NAN, Vec2::ZERO],
                half_extents: Vec2::ONE,
            },
            ShapePath::Circle {
                center: [Vec2::ZERO; 2],
                radius: 1.0,
            },
        ] {
            batch.intervals(&points, &aabb, |i, t| {
                panic!("{aabb:?}: point {i} at {t:?}")
            });
        }
    }
}
