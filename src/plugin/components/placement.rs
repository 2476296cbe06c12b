//! Where a collider lies: the plane part of its world transform (its own composed with its
//! ancestors'), computed for a root entity without the third dimension.

use crate::plugin::SkipReason;
use bevy::ecs::prelude::*;
use bevy::math::{Affine2, Affine3A, Vec2};
use bevy::transform::components::Transform;

/// The plane part of a world transform: where the local x and y axes and the origin land in
/// the xy-plane. A collider's world shape depends on nothing else (its local shape lies in
/// the plane `z = 0`, and world z is dropped).
pub(crate) fn plane_of(world: &Affine3A) -> Affine2 {
    Affine2::from_cols(
        world.matrix3.x_axis.truncate(),
        world.matrix3.y_axis.truncate(),
        world.translation.truncate(),
    )
}

/// The plane transform of a pose (a compound part's, a query's shape's).
pub(crate) fn plane_of_isometry(pose: bevy::math::Isometry2d) -> Affine2 {
    let (sin, cos) = (pose.rotation.sin, pose.rotation.cos);
    Affine2::from_mat2_translation(
        bevy::math::Mat2::from_cols(Vec2::new(cos, sin), Vec2::new(-sin, cos)),
        pose.translation,
    )
}

/// [`plane_of`] `transform.compute_affine()`, computed with the same operations in the
/// same order (so to the same bits) but without the third dimension.
#[inline]
pub(crate) fn plane_of_root(transform: &Transform) -> Affine2 {
    // `Mat3A::from_quat`'s first two columns, less their z, scaled as
    // `Affine3A::from_scale_rotation_translation` scales them.
    let q = transform.rotation;
    let (x2, y2, z2) = (q.x + q.x, q.y + q.y, q.z + q.z);
    let (xx, xy, yy, zz, wz) = (q.x * x2, q.x * y2, q.y * y2, q.z * z2, q.w * z2);
    Affine2::from_cols(
        Vec2::new(1.0 - (yy + zz), xy + wz) * transform.scale.x,
        Vec2::new(xy - wz, 1.0 - (xx + zz)) * transform.scale.y,
        transform.translation.truncate(),
    )
}

/// [`plane_of_root`], if every part of the transform is finite.
#[inline]
fn root_plane(transform: &Transform) -> Result<Affine2, SkipReason> {
    let plane = plane_of_root(transform);
    // A non-finite rotation, x or y scale or position shows in the plane; z in neither.
    let finite =
        plane.is_finite() && transform.translation.z.is_finite() && transform.scale.z.is_finite();
    if finite {
        Ok(plane)
    } else {
        Err(SkipReason::NonFiniteTransform)
    }
}

/// Where an entity's collider lies: the [plane part](plane_of) of its [`Transform`]
/// composed with its ancestors' (an affine map, so a rotated child of a non-uniformly scaled
/// parent is sheared correctly); or why there is none.
pub(crate) fn world_plane(
    entity: Entity,
    transforms: &Query<(&Transform, Option<&ChildOf>)>,
) -> Result<Affine2, SkipReason> {
    let (transform, parent) = transforms
        .get(entity)
        .map_err(|_| SkipReason::MissingTransform)?;
    world_plane_from(transform, parent, transforms)
}

/// [`world_plane`] of an entity whose own transform and parent are at hand. A root entity
/// (the usual case) needs no 3D matrix.
#[inline]
pub(crate) fn world_plane_from(
    transform: &Transform,
    parent: Option<&ChildOf>,
    transforms: &Query<(&Transform, Option<&ChildOf>)>,
) -> Result<Affine2, SkipReason> {
    let Some(parent) = parent else {
        return root_plane(transform);
    };
    let mut world = transform.compute_affine();
    let mut parent = Some(parent.parent());
    // A hierarchy deeper than this is a cycle or a mistake; stop rather than loop.
    for _ in 0..crate::MAX_HIERARCHY_DEPTH {
        let Some(entity) = parent else {
            return if world.is_finite() {
                Ok(plane_of(&world))
            } else {
                Err(SkipReason::NonFiniteTransform)
            };
        };
        let (parent_transform, grandparent) = transforms
            .get(entity)
            .map_err(|_| SkipReason::MissingTransform)?;
        world = parent_transform.compute_affine() * world;
        parent = grandparent.map(ChildOf::parent);
    }
    Err(SkipReason::HierarchyTooDeep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::{ConvexShape, Shape};
    use crate::plugin::Collider;
    use bevy::math::{Quat, Vec3};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Random transforms: turned about z only, about any axis, with unnormalised rotations,
    /// with negative, tiny and huge scales, with exact zeros.
    fn transforms(count: usize) -> impl Iterator<Item = Transform> {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        (0..count).map(move |k| {
            let mut value = |range: f32| match rng.random_range(0..8) {
                0 => 0.0,
                1 => rng.random_range(-range..range) * 1e-20,
                2 => rng.random_range(-range..range) * 1e20,
                _ => rng.random_range(-range..range),
            };
            let translation = Vec3::new(value(1e3), value(1e3), value(1e3));
            let scale = Vec3::new(value(4.0), value(4.0), value(4.0));
            let rotation = match k % 3 {
                0 => Quat::from_rotation_z(value(7.0)),
                1 => Quat::from_xyzw(value(1.0), value(1.0), value(1.0), value(1.0)).normalize(),
                _ => Quat::from_xyzw(value(2.0), value(2.0), value(2.0), value(2.0)),
            };
            Transform {
                translation,
                rotation,
                scale,
            }
        })
    }

    /// The same bits, where both are numbers (a sum that is zero may differ in sign).
    fn same(a: Vec2, b: Vec2) -> bool {
        a.to_array().iter().zip(b.to_array()).all(|(&x, y)| {
            x.to_bits() == y.to_bits() || (x == 0.0 && y == 0.0) || x.is_nan() && y.is_nan()
        })
    }

    #[test]
    fn a_root_plane_is_the_projection_of_the_3d_transform() {
        for transform in transforms(20_000) {
            let plane = plane_of_root(&transform);
            let full = plane_of(&transform.compute_affine());
            assert!(
                same(plane.matrix2.x_axis, full.matrix2.x_axis)
                    && same(plane.matrix2.y_axis, full.matrix2.y_axis)
                    && same(plane.translation, full.translation),
                "{transform:?}: {plane:?} != {full:?}"
            );
        }
    }

    #[test]
    fn a_root_transform_with_any_part_not_finite_is_refused() {
        for transform in transforms(2_000) {
            // Refused where the plane part of the 3D transform overflows (some of these
            // rotations do); the third dimension's overflow does not matter.
            let finite = plane_of(&transform.compute_affine()).is_finite();
            assert_eq!(root_plane(&transform).is_ok(), finite, "{transform:?}");
            for part in 0..10 {
                for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                    let mut t = transform;
                    match part {
                        0..3 => t.translation[part] = bad,
                        3..7 => {
                            let mut q = t.rotation.to_array();
                            q[part - 3] = bad;
                            t.rotation = Quat::from_array(q);
                        }
                        _ => t.scale[part - 7] = bad,
                    }
                    assert!(root_plane(&t).is_err(), "{t:?}");
                }
            }
        }
    }

    #[test]
    fn shapes_in_the_plane_are_placed_as_in_3d() {
        let affine = |t: &Transform| t.compute_affine();
        for (k, transform) in transforms(20_000).enumerate() {
            let world = affine(&transform);
            let (a, b) = (Vec2::new(-3.0, 0.5), Vec2::new(2.25, -1.0));
            let collider = match k % 5 {
                0 => Collider::segment(a, b),
                1 => Collider::circle(1.5),
                2 => Collider::rectangle(Vec2::new(2.0, 0.75)),
                3 => Collider::capsule(a, b, 0.5),
                _ => Collider::aabb(Vec2::new(2.0, 0.75)),
            };
            let placed = |p: Vec2| world.transform_point3(p.extend(0.0)).truncate();
            let largest_scale = world
                .matrix3
                .x_axis
                .truncate()
                .length()
                .max(world.matrix3.y_axis.truncate().length());
            // The oracle: glam's own 3D maps, then dropped to the plane.
            let expected = match collider {
                Collider::Segment { a, b } => Shape::Segment(
                    world.transform_point3(a.extend(0.0)).truncate(),
                    world.transform_point3(b.extend(0.0)).truncate(),
                ),
                Collider::Circle { radius } => Shape::Circle {
                    center: world.translation.truncate(),
                    radius: radius
                        * world
                            .matrix3
                            .x_axis
                            .truncate()
                            .length()
                            .max(world.matrix3.y_axis.truncate().length()),
                },
                Collider::Aabb { half_extents } => Shape::Aabb {
                    center: world.translation.truncate(),
                    half_extents: half_extents
                        * Vec2::new(
                            world.matrix3.x_axis.truncate().length(),
                            world.matrix3.y_axis.truncate().length(),
                        ),
                },
                Collider::Point => Shape::Point(world.translation.truncate()),
                Collider::Rectangle { half_extents: h } => Shape::Convex(
                    ConvexShape::new(
                        &[(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                            .map(|(x, y)| placed(Vec2::new(x * h.x, y * h.y))),
                        0.0,
                    )
                    .expect("four vertices"),
                ),
                Collider::Capsule { a, b, radius } => Shape::Convex(
                    ConvexShape::new(&[placed(a), placed(b)], radius * largest_scale)
                        .expect("two vertices"),
                ),
                _ => unreachable!("not generated"),
            };
            let shape = collider.world_shape(&transform).expect("not a polyline");
            // Where the 3D map overflows in the third dimension, which the plane leaves
            // out, it has infinities and NaNs the plane does not: nothing to compare.
            let b = expected.bounds();
            if !(b.min.is_finite() && b.max.is_finite()) {
                continue;
            }
            let agree = match (shape, expected) {
                (Shape::Segment(p, q), Shape::Segment(r, s)) => same(p, r) && same(q, s),
                (
                    Shape::Circle { center, radius },
                    Shape::Circle {
                        center: c,
                        radius: r,
                    },
                ) => same(center, c) && same(Vec2::splat(radius), Vec2::splat(r)),
                (
                    Shape::Aabb {
                        center,
                        half_extents,
                    },
                    Shape::Aabb {
                        center: c,
                        half_extents: h,
                    },
                ) => same(center, c) && same(half_extents, h),
                (Shape::Convex(p), Shape::Convex(q)) => {
                    p.vertices().len() == q.vertices().len()
                        && p.vertices()
                            .iter()
                            .zip(q.vertices())
                            .all(|(&x, &y)| same(x, y))
                        && same(Vec2::splat(p.radius()), Vec2::splat(q.radius()))
                }
                _ => false,
            };
            assert!(
                agree,
                "{transform:?} {collider:?}: {shape:?} != {expected:?}"
            );
        }
    }
}
