//! Many pairs of a moving point and a moving box at once: the point–box case of
//! [`contact_intervals`](super::contact_intervals), eight pairs at a time with SIMD.

use super::ShapePath;
use crate::geometry::{clip_centered, clip8_centered};
use bevy_math::Vec2;

/// Points against boxes, eight pairs at a time: what
/// [`contact_intervals`](super::contact_intervals) gives for each point–box pair (the same
/// contacts, times within a few ulps). A point meets a box when its path seen from the box's
/// centre enters the box's extents, so each pair is one segment clipped against one box
/// centred on the origin; the SIMD slab test of
/// [`clip_segments_aabb`](crate::geometry::clip_segments_aabb) clips eight of them at once,
/// each lane with its own segment and its own box. Pairs may share the box (bullets against
/// a wall: [`intervals`](Self::intervals)), the point (a bullet through a row of tiles), or
/// nothing ([`pair_intervals`](Self::pair_intervals)).
///
/// A point and a box meet during one interval at most. A batch allocates nothing: it gathers
/// eight pairs at a time on the stack.
///
/// This is how [`SweepPlugin`](crate::prelude::SweepPlugin) solves every point–box pair of
/// a tick.
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
#[derive(Clone, Copy, Debug, Default)]
pub struct PointBoxBatch {
    // Nothing yet: pairs are gathered eight at a time on the stack. The type is kept so that
    // buffers can be added without changing callers.
    _private: (),
}

impl PointBoxBatch {
    /// The number of lanes of the SIMD clip: pairs are solved eight at a time, and the last
    /// few one by one.
    pub const LANES: usize = 8;

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
        if !aabb.is_valid() {
            return;
        }
        self.pair_intervals(points.iter().map(|point| (*point, *aabb)), found);
    }

    /// Calls `found(i, [enter, leave])` for every pair `i` of a point and a box (in either
    /// order) that touch during the step, in order of `i`: the pairs may share a box, a
    /// point, or nothing. Pairs that are not a [`ShapePath::Point`] and a
    /// [`ShapePath::Aabb`], or hold an invalid path (see [`ShapePath::is_valid`]), touch
    /// nothing.
    ///
    /// # Example
    /// ```
    /// use bevy_math::Vec2;
    /// use bevy_sweep::narrow::{PointBoxBatch, ShapePath};
    ///
    /// // One fast bullet through a row of ten tiles, two units apart.
    /// let bullet = ShapePath::Point([Vec2::new(-1.0, 0.0), Vec2::new(19.0, 0.0)]);
    /// let tiles = (0..10).map(|i| {
    ///     let center = Vec2::new(2.0 * i as f32, 0.0);
    ///     ShapePath::Aabb { center: [center; 2], half_extents: Vec2::splat(0.5) }
    /// });
    /// let mut batch = PointBoxBatch::default();
    /// let mut hits = Vec::new();
    /// batch.pair_intervals(tiles.map(|tile| (bullet, tile)), |i, [enter, _]| hits.push((i, enter)));
    /// assert_eq!(hits.len(), 10);
    /// // Tile `i` spans x = 2i - 0.5 ..= 2i + 0.5: the bullet enters it at (2i + 0.5) / 20.
    /// for (i, enter) in hits {
    ///     assert!((enter - (2.0 * i as f32 + 0.5) / 20.0).abs() < 1e-6);
    /// }
    /// ```
    pub fn pair_intervals(
        &mut self,
        pairs: impl IntoIterator<Item = (ShapePath, ShapePath)>,
        found: impl FnMut(usize, [f32; 2]),
    ) {
        self.intervals_of(
            pairs
                .into_iter()
                .enumerate()
                .filter(|(_, (a, b))| a.is_valid() && b.is_valid())
                .map(|(i, (a, b))| (i, a, b)),
            found,
        );
    }

    /// [`pair_intervals`](Self::pair_intervals) for valid paths given with their own
    /// indices (pairs that are not a point and a box are skipped).
    pub(crate) fn intervals_of(
        &mut self,
        pairs: impl Iterator<Item = (usize, ShapePath, ShapePath)>,
        found: impl FnMut(usize, [f32; 2]),
    ) {
        self.relative_intervals(
            pairs.filter_map(|(i, a, b)| Some((i, relative(&a, &b)?))),
            found,
        );
    }

    /// The intervals of pairs given as the point's path seen from the box's centre and the
    /// box's half extents ([`relative`]), with their own indices.
    pub(crate) fn relative_intervals(
        &mut self,
        pairs: impl Iterator<Item = (usize, ([Vec2; 2], Vec2))>,
        mut found: impl FnMut(usize, [f32; 2]),
    ) {
        // Eight pairs at a time: the segments' start x, start y, end x, end y and the boxes'
        // half x, half y, a lane each; and which pair each lane is.
        let mut lanes = [[0.0f32; 8]; 6];
        let mut ids = [0usize; 8];
        let mut filled = 0;
        for (i, ([start, end], half)) in pairs {
            for (lane, value) in lanes
                .iter_mut()
                .zip([start.x, start.y, end.x, end.y, half.x, half.y])
            {
                lane[filled] = value;
            }
            ids[filled] = i;
            filled += 1;
            if filled == 8 {
                for (&i, clip) in ids.iter().zip(clip8_centered(&lanes)) {
                    if let Some(clip) = clip {
                        found(i, [clip.entry, clip.exit]);
                    }
                }
                filled = 0;
            }
        }
        // The last few one by one.
        for (lane, &i) in ids[..filled].iter().enumerate() {
            let [sx, sy, ex, ey, hx, hy] = lanes.map(|v| v[lane]);
            if let Some(clip) =
                clip_centered(Vec2::new(sx, sy), Vec2::new(ex, ey), Vec2::new(hx, hy))
            {
                found(i, [clip.entry, clip.exit]);
            }
        }
    }
}

/// A pair of a point and a box (in either order) as the batch takes it: the point's path
/// seen from the box's centre (rounded as the pair kernel rounds it) and the box's half
/// extents; `None` for another pair.
#[inline]
pub(crate) fn relative(a: &ShapePath, b: &ShapePath) -> Option<([Vec2; 2], Vec2)> {
    let ((
        ShapePath::Point(p),
        ShapePath::Aabb {
            center,
            half_extents,
        },
    )
    | (
        ShapePath::Aabb {
            center,
            half_extents,
        },
        ShapePath::Point(p),
    )) = (a, b)
    else {
        return None;
    };
    Some(([p[0] - center[0], p[1] - center[1]], *half_extents))
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

    /// The batch found the contacts `expected` (from the pair kernel): the same pairs, at
    /// times within four ulps.
    fn assert_agree(found: &[(usize, [f32; 2])], expected: &[(usize, [f32; 2])], scene: usize) {
        assert_eq!(
            found.iter().map(|f| f.0).collect::<Vec<_>>(),
            expected.iter().map(|e| e.0).collect::<Vec<_>>(),
            "scene {scene}: the same pairs touch"
        );
        for ((i, got), (_, want)) in found.iter().zip(expected) {
            assert!(
                close(got[0], want[0], 4) && close(got[1], want[1], 4),
                "scene {scene}, pair {i}: {got:?} vs {want:?}"
            );
        }
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
            assert_agree(&found, &expected, scene);
        }
    }

    /// Pairs that share nothing (each point with its own box, in either order), batched and
    /// one by one: the same pairs touch, at times a few ulps apart. Mixed in: pairs that are
    /// not a point and a box, and invalid paths, which touch nothing.
    #[test]
    fn pairs_agree_with_the_pair_kernel() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x9a1c);
        let mut batch = PointBoxBatch::default();
        let mut found = Vec::new();
        for scene in 0..300 {
            let integer = scene % 4 == 0;
            let coordinate = |rng: &mut ChaCha8Rng| {
                let v: f32 = rng.random_range(-4.0..4.0);
                if integer { v.round() } else { v * 10.0 }
            };
            let pairs: Vec<(ShapePath, ShapePath)> = (0..rng.random_range(0..40))
                .map(|k| {
                    let point = ShapePath::Point([
                        Vec2::new(coordinate(&mut rng), coordinate(&mut rng)),
                        Vec2::new(coordinate(&mut rng), coordinate(&mut rng)),
                    ]);
                    let half = if integer {
                        Vec2::new(1.0, 2.0)
                    } else {
                        Vec2::new(rng.random_range(0.1..10.0), rng.random_range(0.1..10.0))
                    };
                    let aabb = ShapePath::Aabb {
                        center: [
                            Vec2::new(coordinate(&mut rng), coordinate(&mut rng)),
                            Vec2::new(coordinate(&mut rng), coordinate(&mut rng)),
                        ],
                        half_extents: half,
                    };
                    match k % 13 {
                        0 => (aabb, point),
                        1 => (point, point),
                        2 => (point, ShapePath::Point([Vec2::NAN, Vec2::ZERO])),
                        3 => (
                            point,
                            ShapePath::Aabb {
                                center: [Vec2::ZERO; 2],
                                half_extents: Vec2::new(-1.0, 1.0),
                            },
                        ),
                        _ => (point, aabb),
                    }
                })
                .collect();
            found.clear();
            batch.pair_intervals(pairs.iter().copied(), |i, interval| {
                found.push((i, interval));
            });
            let expected: Vec<(usize, [f32; 2])> = pairs
                .iter()
                .enumerate()
                .filter(|(_, (a, b))| {
                    matches!(
                        (a, b),
                        (ShapePath::Point(_), ShapePath::Aabb { .. })
                            | (ShapePath::Aabb { .. }, ShapePath::Point(_))
                    )
                })
                .filter_map(|(i, (a, b))| contact_intervals(a, b).first().map(|&t| (i, t)))
                .collect();
            assert_agree(&found, &expected, scene);
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
