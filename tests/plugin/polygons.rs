//! Level geometry (DESIGN §10): concave polygons and compounds, one collider each. A point
//! through a polygon's notch touches nothing, its inside is inside, every event names the
//! polygon's own edges and vertices (never a diagonal of its pieces), and a compound's
//! events name its parts. Random motions are checked against an oracle that never cuts the
//! polygon: the crossings of each motion with its boundary.

use crate::common::*;
use bevy::math::Isometry2d;
use bevy::prelude::*;
use bevy_sweep::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A U, 60 wide and 50 tall, with a notch 20 wide from `y = 20` up (edge 4 is the notch's
/// floor, edges 3 and 5 its sides).
pub(super) fn cup() -> Vec<Vec2> {
    [
        (0.0, 0.0),
        (60.0, 0.0),
        (60.0, 50.0),
        (40.0, 50.0),
        (40.0, 20.0),
        (20.0, 20.0),
        (20.0, 50.0),
        (0.0, 50.0),
    ]
    .map(|(x, y)| v(x, y))
    .to_vec()
}

fn spawn(app: &mut App, bundle: impl Bundle) -> Entity {
    app.world_mut().spawn(bundle).id()
}

/// The events seen from `entity`, in order.
fn seen(events: &[CollisionEvent], entity: Entity) -> Vec<CollisionEvent> {
    events.iter().filter_map(|e| e.seen_from(entity)).collect()
}

#[test]
fn a_concave_polygon_is_cut_into_convex_pieces() {
    let Some(Collider::Polygon { points, pieces }) = Collider::polygon(&cup()) else {
        panic!("a U is no convex polygon");
    };
    assert_eq!(points.to_vec(), cup());
    assert_eq!(pieces.len(), 3, "{pieces:?}");
    // Convex polygons of up to 8 points stay one piece; more are cut.
    let round = |n: usize| -> Vec<Vec2> {
        (0..n)
            .map(|i| Vec2::from_angle(i as f32 / n as f32 * core::f32::consts::TAU) * 40.0)
            .collect()
    };
    assert!(matches!(
        Collider::polygon(&round(8)),
        Some(Collider::ConvexPolygon { .. })
    ));
    assert!(matches!(
        Collider::polygon(&round(64)),
        Some(Collider::Polygon { .. })
    ));
    // Unusable polygons are refused, never a panic.
    let bow_tie = [v(0.0, 0.0), v(2.0, 2.0), v(2.0, 0.0), v(0.0, 2.0)];
    for bad in [
        &bow_tie[..],
        &[v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)],
        &[v(0.0, 0.0), v(1.0, 1.0)],
        &[],
        &[v(0.0, 0.0), v(1.0, 0.0), v(f32::NAN, 1.0), v(0.0, 1.0)],
    ] {
        assert!(Collider::polygon(bad).is_none(), "{bad:?}");
    }
}

#[test]
fn a_point_through_the_notch_touches_nothing_until_the_floor() {
    let mut app = app();
    let cup = spawn(
        &mut app,
        (Collider::polygon(&cup()).unwrap(), Transform::default()),
    );
    // Down the middle of the notch: 70 units a tick, from y = 100.
    let point = spawn(
        &mut app,
        (
            Collider::point(),
            Transform::from_xyz(30.0, 100.0, 0.0),
            Velocity(v(0.0, -70.0 / TICK)),
        ),
    );
    assert!(
        tick(&mut app).is_empty(),
        "down to y = 30, inside the notch"
    );
    // From y = 30 to y = -40: onto the notch's floor at y = 20, through the bottom bar, and
    // out through the bottom (edge 0) at y = 0.
    let events = seen(&tick(&mut app), point);
    assert_eq!(events.len(), 2, "{events:?}");
    let out = events[1];
    assert_eq!((out.kind, out.other), (CollisionKind::Ended, cup));
    assert_close(
        out.time_of_impact,
        30.0 / 70.0,
        1e-5,
        "time through the bottom",
    );
    assert!(
        matches!(out.other_feature, Some(Feature::Edge { index: 0, .. })),
        "{out:?}"
    );
    let e = events[0];
    assert_eq!((e.kind, e.other), (CollisionKind::Started, cup));
    assert_close(
        e.time_of_impact,
        10.0 / 70.0,
        1e-5,
        "time on the notch's floor",
    );
    assert_vec_close(e.point, v(30.0, 20.0), 1e-3, "point");
    assert_vec_close(e.normal, v(0.0, 1.0), 1e-5, "normal");
    match e.other_feature {
        Some(Feature::Edge { index: 4, along }) => assert_close(along, 0.5, 1e-5, "along"),
        other => panic!("the notch's floor is edge 4: {other:?}"),
    }
}

#[test]
fn the_inside_is_inside_across_the_pieces() {
    let mut app = app();
    let cup = spawn(
        &mut app,
        (Collider::polygon(&cup()).unwrap(), Transform::default()),
    );
    // Along the bottom bar, through every piece: 80 units in one tick, from x = -10.
    let point = spawn(
        &mut app,
        (
            Collider::point(),
            Transform::from_xyz(-10.0, 10.0, 0.0),
            Velocity(v(80.0 / TICK, 0.0)),
        ),
    );
    let events = seen(&tick(&mut app), point);
    let kinds: Vec<_> = events.iter().map(|e| (e.kind, e.other)).collect();
    assert_eq!(
        kinds,
        [(CollisionKind::Started, cup), (CollisionKind::Ended, cup)],
        "{events:#?}"
    );
    assert_close(events[0].time_of_impact, 1.0 / 8.0, 1e-5, "enters");
    assert_close(events[1].time_of_impact, 7.0 / 8.0, 1e-5, "leaves");
    // In through the left side (edge 7, from (0, 50) down to (0, 0)), out through the
    // right side (edge 1, from (60, 0) up).
    match (events[0].other_feature, events[1].other_feature) {
        (
            Some(Feature::Edge { index: 7, along: a }),
            Some(Feature::Edge { index: 1, along: b }),
        ) => {
            assert_close(a, 0.8, 1e-5, "along the left side");
            assert_close(b, 0.2, 1e-5, "along the right side");
        }
        other => panic!("{other:?}"),
    }
    // Slowly, tick after tick, inside the polygon from one arm to the other: one `Started`
    // and nothing more.
    app.world_mut().entity_mut(point).despawn();
    let slow = spawn(
        &mut app,
        (
            Collider::point(),
            Transform::from_xyz(10.0, 40.0, 0.0),
            Velocity(v(0.0, -1.0 / TICK)),
        ),
    );
    let mut all = Vec::new();
    for k in 0..120 {
        if k == 30 {
            // Down the left arm, then right along the bar, then up the right arm.
            app.world_mut().get_mut::<Velocity>(slow).unwrap().0 = v(1.0 / TICK, 0.0);
        }
        if k == 70 {
            app.world_mut().get_mut::<Velocity>(slow).unwrap().0 = v(0.0, 1.0 / TICK);
        }
        all.extend(seen(&tick(&mut app), slow));
    }
    let at = app.world().get::<Transform>(slow).unwrap().translation;
    assert_vec_close(at.truncate(), v(50.0, 60.0), 1e-3, "where the walk ends");
    let kinds: Vec<_> = all.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [CollisionKind::Started, CollisionKind::Ended],
        "{all:#?}"
    );
    assert_close(
        all[1].time_of_impact,
        0.0,
        1e-5,
        "leaves through the top at y = 50",
    );
    assert!(
        matches!(all[1].other_feature, Some(Feature::Edge { index: 2, .. })),
        "{:?}",
        all[1]
    );
}

/// A simple polygon of random points around a centre, one per angle.
fn random_star(rng: &mut ChaCha8Rng) -> Vec<Vec2> {
    let n = rng.random_range(5..40);
    (0..n)
        .map(|i| {
            let angle =
                (i as f32 + rng.random_range(-0.3..0.3)) / n as f32 * core::f32::consts::TAU;
            Vec2::from_angle(angle) * rng.random_range(10.0..60.0)
        })
        .collect()
}

/// The oracle's crossings of the motion `p → q` with the polygon's boundary: when (a
/// fraction of the way), through which edge, and where along it, in `f64`.
fn crossings(points: &[Vec2], p: Vec2, q: Vec2) -> Vec<(f64, u32, f64)> {
    let n = points.len();
    let (p, q) = (p.as_dvec2(), q.as_dvec2());
    let mut found: Vec<(f64, u32, f64)> = (0..n)
        .filter_map(|i| {
            let (a, b) = (points[i].as_dvec2(), points[(i + 1) % n].as_dvec2());
            let (d, e) = (q - p, b - a);
            let denom = d.perp_dot(e);
            if denom == 0.0 {
                return None;
            }
            let t = (a - p).perp_dot(e) / denom;
            let s = (a - p).perp_dot(d) / denom;
            ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&s)).then_some((t, i as u32, s))
        })
        .collect();
    found.sort_by(|x, y| x.0.total_cmp(&y.0));
    found
}

/// The oracle's inside: the winding number of the polygon around `p`.
fn inside(points: &[Vec2], p: Vec2) -> bool {
    let n = points.len();
    let p = p.as_dvec2();
    let mut winding = 0;
    for i in 0..n {
        let (a, b) = (points[i].as_dvec2(), points[(i + 1) % n].as_dvec2());
        let side = (b - a).perp_dot(p - a);
        if a.y <= p.y && b.y > p.y && side > 0.0 {
            winding += 1;
        } else if a.y > p.y && b.y <= p.y && side < 0.0 {
            winding -= 1;
        }
    }
    winding != 0
}

/// Points fired through random star polygons: a `Started` at every crossing into the
/// polygon and an `Ended` at every crossing out, at the oracle's moments and places, each
/// naming the edge crossed (a vertex where it crosses at one), and nothing at the pieces'
/// diagonals.
#[test]
fn points_through_random_polygons_match_the_boundary_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x9017_90a1);
    let (mut checked, mut crossed) = (0, 0);
    for _ in 0..40 {
        let points = random_star(&mut rng);
        let Some(collider) = Collider::polygon(&points) else {
            continue;
        };
        let mut app = app();
        let polygon = spawn(&mut app, (collider, Transform::default()));
        let shots: Vec<(Entity, Vec2, Vec2)> = (0..40)
            .map(|_| {
                let from = v(rng.random_range(-80.0..80.0), rng.random_range(-80.0..80.0));
                let to = v(rng.random_range(-80.0..80.0), rng.random_range(-80.0..80.0));
                let e = spawn(
                    &mut app,
                    (
                        Collider::point(),
                        Transform::from_translation(from.extend(0.0)),
                        Velocity((to - from) / TICK),
                    ),
                );
                (e, from, to)
            })
            .collect();
        let events = tick(&mut app);
        assert_well_formed(&events);
        for (shot, from, to) in shots {
            let got = seen(&events, shot);
            let mut want = Vec::new();
            let mut now = inside(&points, from);
            if now {
                want.push((CollisionKind::Started, 0.0, None));
            }
            for (t, edge, along) in crossings(&points, from, to) {
                now = !now;
                let kind = if now {
                    CollisionKind::Started
                } else {
                    CollisionKind::Ended
                };
                want.push((kind, t, Some((edge, along))));
            }
            assert_eq!(
                got.len(),
                want.len(),
                "{points:?}: {from} → {to}: {got:#?} against {want:?}"
            );
            for (e, (kind, t, place)) in got.iter().zip(want) {
                assert_eq!((e.kind, e.other), (kind, polygon));
                assert_close(e.time_of_impact, t as f32, 1e-4, "time");
                let Some((edge, along)) = place else {
                    continue;
                };
                crossed += 1;
                let n = points.len() as u32;
                // Where it crosses, and what it names: the edge, or a vertex at its end.
                assert_vec_close(e.point, from.lerp(to, t as f32), 1e-2, "point");
                match e.other_feature {
                    Some(Feature::Edge { index, along: a }) => {
                        assert_eq!(index, edge, "{e:?}");
                        assert_close(a, along as f32, 1e-3, "along");
                    }
                    Some(Feature::Vertex(i)) => {
                        let near = if along < 0.5 { edge } else { (edge + 1) % n };
                        assert_eq!(i, near, "{e:?}");
                        assert!(!(1e-3..=1.0 - 1e-3).contains(&along), "{e:?} at {along}");
                    }
                    other => panic!("{other:?}"),
                }
            }
            checked += 1;
        }
    }
    assert!(
        checked > 1000 && crossed > 1000,
        "{checked} shots, {crossed} crossings"
    );
}

/// A table: a top (part 0) and two legs (parts 1 and 2).
pub(super) fn table() -> Collider {
    Collider::compound(&[
        (
            Isometry2d::from_xy(0.0, 10.0),
            Collider::rectangle(v(20.0, 2.0)),
        ),
        (
            Isometry2d::from_xy(-18.0, 0.0),
            Collider::rectangle(v(2.0, 8.0)),
        ),
        (
            Isometry2d::from_xy(18.0, 0.0),
            Collider::rectangle(v(2.0, 8.0)),
        ),
    ])
    .unwrap()
}

#[test]
fn a_compound_names_its_parts() {
    let mut app = app();
    let table = spawn(&mut app, (table(), Transform::from_xyz(100.0, 0.0, 0.0)));
    // Through both legs, left to right, 60 units in one tick.
    let low = spawn(
        &mut app,
        (
            Collider::point(),
            Transform::from_xyz(70.0, 0.0, 0.0),
            Velocity(v(60.0 / TICK, 0.0)),
        ),
    );
    // Onto the top, from above.
    let high = spawn(
        &mut app,
        (
            Collider::point(),
            Transform::from_xyz(100.0, 30.0, 0.0),
            Velocity(v(0.0, -20.0 / TICK)),
        ),
    );
    let events = tick(&mut app);
    assert!(events.iter().all(|e| e.entity != e.other));
    let low = seen(&events, low);
    let summary: Vec<_> = low
        .iter()
        .map(|e| {
            assert_eq!(e.other, table);
            let Some(Feature::Part { part, feature }) = e.other_feature else {
                panic!("{e:?}");
            };
            (e.kind, part, feature.map(Feature::from))
        })
        .collect();
    // A rectangle's edge 3 is its left side, edge 1 its right side.
    let edge = |index: u32| move |f: Option<Feature>| matches!(f, Some(Feature::Edge { index: i, .. }) if i == index);
    let expected = [
        (CollisionKind::Started, 1, 10.0 / 60.0, 3),
        (CollisionKind::Ended, 1, 14.0 / 60.0, 1),
        (CollisionKind::Started, 2, 46.0 / 60.0, 3),
        (CollisionKind::Ended, 2, 50.0 / 60.0, 1),
    ];
    assert_eq!(summary.len(), expected.len(), "{low:#?}");
    for ((got, e), (kind, part, time, side)) in summary.iter().zip(&low).zip(expected) {
        assert_eq!((got.0, got.1), (kind, part), "{e:?}");
        assert!(edge(side)(got.2), "{e:?}");
        assert_close(e.time_of_impact, time, 1e-5, "time");
    }
    let high = seen(&events, high);
    assert_eq!(high.len(), 1, "{high:?}");
    assert_close(high[0].time_of_impact, 18.0 / 20.0, 1e-5, "onto the top");
    match high[0].other_feature {
        Some(Feature::Part {
            part: 0,
            feature: Some(PartFeature::Edge { index: 2, along }),
        }) => assert_close(along, 0.5, 1e-5, "along the top"),
        other => panic!("the top's edge 2: {other:?}"),
    }
}

#[test]
fn a_compound_of_every_kind_of_part() {
    let mut app = app();
    let parts = [
        (Isometry2d::from_xy(0.0, 0.0), Collider::circle(5.0)),
        (
            Isometry2d::from_xy(100.0, 0.0),
            Collider::polygon(&cup()).unwrap(),
        ),
        (
            Isometry2d::from_xy(200.0, 0.0),
            Collider::polyline(&[v(0.0, -10.0), v(0.0, 10.0), v(10.0, 20.0)]).unwrap(),
        ),
        (
            Isometry2d::new(v(300.0, 0.0), Rot2::degrees(90.0)),
            Collider::segment(v(-10.0, 0.0), v(10.0, 0.0)),
        ),
    ];
    let compound = spawn(
        &mut app,
        (
            Collider::compound(&parts).unwrap(),
            Transform::from_xyz(0.0, 0.0, 0.0),
        ),
    );
    // One point through each part, left to right, at y = 1.
    let shooter = |app: &mut App, x: f32| {
        spawn(
            app,
            (
                Collider::point(),
                Transform::from_xyz(x - 20.0, 1.0, 0.0),
                Velocity(v(30.0 / TICK, 0.0)),
            ),
        )
    };
    let shots = [0.0, 100.0, 200.0, 300.0].map(|x| shooter(&mut app, x));
    let events = tick(&mut app);
    let first = |shot: Entity| {
        seen(&events, shot)
            .first()
            .copied()
            .unwrap_or_else(|| panic!("no event: {events:#?}"))
    };
    // The circle: its part, nothing more to name.
    let e = first(shots[0]);
    assert_eq!(
        (e.other, e.other_feature),
        (
            compound,
            Some(Feature::Part {
                part: 0,
                feature: None
            })
        )
    );
    // The polygon: its own left side, edge 7.
    let e = first(shots[1]);
    assert!(
        matches!(
            e.other_feature,
            Some(Feature::Part {
                part: 1,
                feature: Some(PartFeature::Edge { index: 7, .. })
            })
        ),
        "{e:?}"
    );
    // The polyline: its first edge.
    let e = first(shots[2]);
    assert!(
        matches!(
            e.other_feature,
            Some(Feature::Part {
                part: 2,
                feature: Some(PartFeature::Edge { index: 0, .. })
            })
        ),
        "{e:?}"
    );
    assert_eq!(e.kind, CollisionKind::Crossed);
    // The segment, turned upright by its pose: crossed at x = 300.
    let e = first(shots[3]);
    assert_eq!(
        (e.kind, e.other_feature),
        (
            CollisionKind::Crossed,
            Some(Feature::Part {
                part: 3,
                feature: None
            })
        )
    );
    assert_close(e.point.x, 300.0, 1e-4, "the upright segment");
    assert!(
        Collider::compound(&[(Isometry2d::IDENTITY, Collider::compound(&parts).unwrap())])
            .is_none()
    );
}

#[test]
fn queries_name_polygon_edges_and_compound_parts() {
    let mut app = app();
    let cup = spawn(
        &mut app,
        (Collider::polygon(&cup()).unwrap(), Transform::default()),
    );
    let desk = spawn(&mut app, (table(), Transform::from_xyz(200.0, 0.0, 0.0)));
    tick(&mut app);
    with_query(&mut app, |query| {
        let filter = QueryFilter::default();
        // Down into the notch: its floor.
        let hit = query
            .cast_ray(v(30.0, 100.0), Dir2::NEG_Y, f32::MAX, &filter)
            .unwrap();
        assert_eq!(hit.entity, cup);
        assert_close(hit.distance, 80.0, 1e-4, "distance");
        assert!(
            matches!(hit.feature, Some(Feature::Edge { index: 4, .. })),
            "{hit:?}"
        );
        // From the right into the table's right leg.
        let hit = query
            .cast_ray(v(300.0, 0.0), Dir2::NEG_X, f32::MAX, &filter)
            .unwrap();
        assert_eq!(hit.entity, desk);
        assert_close(hit.point.x, 220.0, 1e-4, "the right leg");
        assert!(
            matches!(
                hit.feature,
                Some(Feature::Part {
                    part: 2,
                    feature: Some(PartFeature::Edge { index: 1, .. })
                })
            ),
            "{hit:?}"
        );
        // A point in the notch is in nothing; one in an arm is in the polygon.
        let mut hits = Vec::new();
        query.point_hits(v(30.0, 30.0), &filter, &mut hits);
        assert!(hits.is_empty());
        query.point_hits(v(10.0, 45.0), &filter, &mut hits);
        assert_eq!(hits, [cup]);
        // A box cast as a compound shape.
        let hit = query
            .cast_shape(
                &table(),
                Isometry2d::from_xy(30.0, 200.0),
                Isometry2d::from_xy(30.0, 0.0),
                &filter,
            )
            .unwrap();
        assert_eq!(hit.entity, cup);
        // The table's legs reach 8 below its centre: they land on the arms' tops at 50.
        assert_close(hit.time * 200.0, 200.0 - 58.0, 1e-3, "lands on the arms");
    });
}

/// A ball bouncing in the notch never leaves it nor enters the polygon; a polygon squashed
/// to nothing at run time is skipped with a reason, and comes back when it is whole again.
#[test]
fn a_ball_bounces_in_the_notch_and_a_flat_polygon_is_skipped() {
    let mut app = app();
    let cup = spawn(
        &mut app,
        (Collider::polygon(&cup()).unwrap(), Transform::default()),
    );
    let ball = spawn(
        &mut app,
        (
            Collider::circle(2.0),
            Transform::from_xyz(27.0, 40.0, 0.0),
            Velocity(v(700.0, -900.0)),
            Response::Bounce { restitution: 1.0 },
        ),
    );
    for k in 0..200 {
        tick(&mut app);
        let p = app.world().get::<Transform>(ball).unwrap().translation;
        if p.y < 52.0 {
            assert!(
                (22.0 - 1e-3..=38.0 + 1e-3).contains(&p.x) && p.y >= 22.0 - 1e-3,
                "tick {k}: the ball at {p} is in the wall"
            );
        }
    }
    app.world_mut().get_mut::<Transform>(cup).unwrap().scale = Vec3::new(0.0, 1.0, 1.0);
    tick(&mut app);
    let skipped = app.world().resource::<SkippedColliders>();
    assert_eq!(skipped.reason(cup), Some(SkipReason::DegenerateInWorld));
    app.world_mut().get_mut::<Transform>(cup).unwrap().scale = Vec3::ONE;
    tick(&mut app);
    assert_eq!(app.world().resource::<SkippedColliders>().reason(cup), None);
}

/// Bevy's primitives convert into the colliders their constructors make; unusable polygons
/// and polylines are refused.
#[test]
fn bevy_primitives_convert() {
    use bevy::math::primitives::{
        Capsule2d, Circle, ConvexPolygon, Polygon, Polyline2d, Rectangle, RegularPolygon,
        Segment2d, Triangle2d,
    };
    assert_eq!(Collider::from(Circle::new(2.5)), Collider::circle(2.5));
    assert_eq!(
        Collider::from(Rectangle::from_size(v(6.0, 4.0))),
        Collider::rectangle(v(3.0, 2.0))
    );
    assert_eq!(
        Collider::from(Capsule2d::new(1.5, 10.0)),
        Collider::capsule(v(0.0, -5.0), v(0.0, 5.0), 1.5)
    );
    assert_eq!(
        Collider::from(Segment2d::new(v(1.0, 2.0), v(3.0, -4.0))),
        Collider::segment(v(1.0, 2.0), v(3.0, -4.0))
    );
    let triangle = [v(0.0, 0.0), v(4.0, 0.0), v(1.0, 3.0)];
    assert_eq!(
        Collider::try_from(Triangle2d::new(triangle[0], triangle[1], triangle[2])),
        Ok(Collider::polygon(&triangle).unwrap())
    );
    assert!(Collider::try_from(Triangle2d::new(v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0))).is_err());
    assert_eq!(
        Collider::try_from(Polygon::new(cup())),
        Ok(Collider::polygon(&cup()).unwrap())
    );
    let octagon = RegularPolygon::new(10.0, 12);
    let vertices: Vec<Vec2> = octagon.vertices(0.0).into_iter().collect();
    assert_eq!(
        Collider::try_from(octagon),
        Ok(Collider::polygon(&vertices).unwrap())
    );
    let square = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)];
    assert_eq!(
        Collider::try_from(ConvexPolygon::new(square).unwrap()),
        Ok(Collider::convex_polygon(&square).unwrap())
    );
    assert_eq!(
        Collider::try_from(Polyline2d::new(cup())),
        Ok(Collider::polyline(&cup()).unwrap())
    );
    assert_eq!(
        Collider::try_from(Polyline2d::new([v(1.0, 1.0)])),
        Err(UnusableShape)
    );
}
