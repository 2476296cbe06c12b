//! The cut checked against the polygon: exact areas, and a winding-number oracle on a grid of
//! sample points, on known shapes, random stars and random blobs of grid cells.

use super::*;
use proptest::prelude::*;

/// Twice the signed area, exactly, of a polygon with small integer coordinates.
fn area2(points: &[Vec2]) -> i64 {
    let n = points.len();
    (0..n)
        .map(|i| {
            let (p, q) = (points[i], points[(i + 1) % n]);
            p.x as i64 * q.y as i64 - q.x as i64 * p.y as i64
        })
        .sum()
}

/// Where `p` is for the polygon, by its winding number (the oracle does not use the
/// pieces): `Some(true)` inside, `Some(false)` outside, `None` on the boundary.
fn inside(points: &[Vec2], p: Vec2) -> Option<bool> {
    let n = points.len();
    let mut winding = 0;
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        let o = orient2d(a, b, p);
        if o == 0.0 && segments_meet(a, b, p, p) {
            return None;
        }
        if a.y <= p.y && b.y > p.y && o > 0.0 {
            winding += 1;
        } else if a.y > p.y && b.y <= p.y && o < 0.0 {
            winding -= 1;
        }
    }
    Some(winding != 0)
}

/// Checks the pieces of `points` against the polygon: strictly convex, of 3 to 8
/// points, in the polygon's winding, areas adding up to the polygon's exactly, and every
/// sample point inside the polygon inside exactly one piece (and outside it, in none).
fn check(points: &[Vec2], pieces: &[Vec<u32>]) {
    let n = points.len() as u32;
    let sign = area2(points).signum();
    let mut total = 0;
    for piece in pieces {
        assert!((3..=MAX_PIECE).contains(&piece.len()), "{piece:?}");
        assert!(piece.iter().all(|&i| i < n));
        let placed: Vec<Vec2> = piece.iter().map(|&i| points[i as usize]).collect();
        let m = placed.len();
        for i in 0..m {
            let turn = orient2d(placed[i], placed[(i + 1) % m], placed[(i + 2) % m]);
            assert_eq!(
                turn.signum() as i64,
                sign,
                "not strictly convex: {placed:?}"
            );
        }
        total += area2(&placed);
    }
    assert_eq!(
        total,
        area2(points),
        "the pieces' areas add up to the polygon's"
    );
    let (min, max) = points
        .iter()
        .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), &p| {
            (lo.min(p), hi.max(p))
        });
    // Sample points on a grid offset by a quarter: never on the polygon's boundary (its
    // points are integers), but maybe on a diagonal, where the sample says nothing.
    let mut y = min.y - 0.75;
    while y <= max.y + 1.0 {
        let mut x = min.x - 0.75;
        while x <= max.x + 1.0 {
            let p = Vec2::new(x, y);
            let seen: Vec<Option<bool>> = pieces
                .iter()
                .map(|piece| {
                    let placed: Vec<Vec2> = piece.iter().map(|&i| points[i as usize]).collect();
                    inside(&placed, p)
                })
                .collect();
            let within = seen.iter().filter(|s| **s == Some(true)).count();
            let on_a_diagonal = seen.contains(&None);
            match inside(points, p).filter(|_| !on_a_diagonal) {
                Some(true) => assert_eq!(within, 1, "{p} in {within} pieces"),
                Some(false) => assert_eq!(within, 0, "{p} outside, in {within} pieces"),
                None => {}
            }
            x += 1.0;
        }
        y += 1.0;
    }
}

/// A simple polygon of integer points: a star around the origin, one point per angle,
/// each at its own radius (so with many reflex corners).
fn star(radii: &[u8]) -> Vec<Vec2> {
    let n = radii.len();
    (0..n)
        .map(|i| {
            let angle = core::f32::consts::TAU * i as f32 / n as f32;
            let r = 4.0 + f32::from(radii[i]);
            Vec2::new((angle.cos() * r).round(), (angle.sin() * r).round())
        })
        .collect()
}

/// The outline of the solid cells of a grid (cells as unit squares, one connected blob
/// without holes), traced counter-clockwise, straight points kept.
fn blob_outline(cells: &[(i32, i32)]) -> Option<Vec<Vec2>> {
    use std::collections::{HashMap, HashSet};
    let set: HashSet<(i32, i32)> = cells.iter().copied().collect();
    // Directed boundary edges, the solid on their left.
    let mut edges: HashMap<(i32, i32), Vec<(i32, i32)>> = HashMap::new();
    for &(x, y) in &set {
        let sides = [
            ((x, y), (x + 1, y), (x, y - 1)),
            ((x + 1, y), (x + 1, y + 1), (x + 1, y)),
            ((x + 1, y + 1), (x, y + 1), (x, y + 1)),
            ((x, y + 1), (x, y), (x - 1, y)),
        ];
        for (a, b, neighbour) in sides {
            if !set.contains(&neighbour) {
                edges.entry(a).or_default().push(b);
            }
        }
    }
    // Simple only if no corner is shared by two outlines.
    if edges.values().any(|v| v.len() != 1) {
        return None;
    }
    let start = *edges.keys().min()?;
    let mut outline = vec![start];
    let mut at = edges[&start][0];
    while at != start {
        outline.push(at);
        at = edges[&at][0];
        if outline.len() > edges.len() {
            return None;
        }
    }
    (outline.len() == edges.len()).then(|| {
        outline
            .iter()
            .map(|&(x, y)| Vec2::new(x as f32, y as f32))
            .collect()
    })
}

#[test]
fn shapes_that_are_not_simple_polygons_are_refused() {
    let v = Vec2::new;
    let bow_tie = [v(0.0, 0.0), v(2.0, 2.0), v(2.0, 0.0), v(0.0, 2.0)];
    let flat = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)];
    let folded = [v(0.0, 0.0), v(2.0, 0.0), v(1.0, 0.0), v(1.0, 1.0)];
    let repeated = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)];
    let pinched = [
        v(0.0, 0.0),
        v(2.0, 0.0),
        v(1.0, 1.0),
        v(2.0, 2.0),
        v(0.0, 2.0),
        v(1.0, 1.0),
    ];
    let touching = [
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(4.0, 4.0),
        v(2.0, 0.0),
        v(0.0, 4.0),
    ];
    for bad in [&bow_tie[..], &flat, &folded, &repeated, &pinched, &touching] {
        assert!(decompose(bad).is_none(), "{bad:?}");
    }
    assert!(decompose(&[v(0.0, 0.0), v(1.0, 0.0)]).is_none());
    assert!(decompose(&[v(0.0, 0.0), v(1.0, 0.0), v(f32::NAN, 1.0)]).is_none());
    assert!(decompose(&[v(0.0, 0.0), v(1.0, 0.0), v(0.0, f32::INFINITY)]).is_none());
}

#[test]
fn known_shapes() {
    let v = Vec2::new;
    let l_shape = [
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(4.0, 1.0),
        v(1.0, 1.0),
        v(1.0, 4.0),
        v(0.0, 4.0),
    ];
    let u_shape = [
        v(0.0, 0.0),
        v(6.0, 0.0),
        v(6.0, 5.0),
        v(4.0, 5.0),
        v(4.0, 2.0),
        v(2.0, 2.0),
        v(2.0, 5.0),
        v(0.0, 5.0),
    ];
    // A square with a point in the middle of its bottom side, and a 20-gon.
    let straight = [
        v(0.0, 0.0),
        v(2.0, 0.0),
        v(4.0, 0.0),
        v(4.0, 4.0),
        v(0.0, 4.0),
    ];
    let round: Vec<Vec2> = star(&[30; 20]);
    for shape in [&l_shape[..], &u_shape, &straight, &round] {
        for points in [shape.to_vec(), shape.iter().rev().copied().collect()] {
            let pieces = decompose(&points).expect("a simple polygon");
            check(&points, &pieces);
        }
    }
    // An L is two convex pieces; a U three. A round 20-gon's Delaunay triangles are no fan
    // from one point, so the merge leaves a few more pieces than the fewest (3: 8 + 8 + 6
    // points), each of them local.
    assert_eq!(decompose(&l_shape).map(|p| p.len()), Some(2));
    assert_eq!(decompose(&u_shape).map(|p| p.len()), Some(3));
    assert!(decompose(&round).is_some_and(|p| p.len() <= 6));
}

/// Points where the outline runs straight on are no corners of pieces: a square with 200
/// points on its outline is one piece, and a bar 12,000 long with a point every 8 units on
/// its top (a floor drawn in an editor) is one piece, not a fan of slivers.
#[test]
fn straight_points_are_no_corners() {
    let v = Vec2::new;
    let mut square = Vec::new();
    for side in 0..4 {
        for k in 0..50 {
            let t = k as f32 * 2.0;
            square.push(match side {
                0 => v(t, 0.0),
                1 => v(100.0, t),
                2 => v(100.0 - t, 100.0),
                _ => v(0.0, 100.0 - t),
            });
        }
    }
    let mut bar = vec![v(-100.0, -10.0), v(11_900.0, -10.0)];
    bar.extend((0..=1500).rev().map(|i| v(-100.0 + 8.0 * i as f32, 0.0)));
    for shape in [square, bar] {
        for points in [shape.clone(), shape.iter().rev().copied().collect()] {
            let pieces = decompose(&points).expect("a simple polygon");
            check(&points, &pieces);
            assert_eq!(pieces.len(), 1, "{pieces:?}");
            assert_eq!(pieces[0].len(), 4);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Random stars, either winding: pieces check out and do not depend on the call.
    #[test]
    fn stars_are_cut_exactly(radii in prop::collection::vec(0_u8..40, 3..40), flip in any::<bool>()) {
        let mut points = star(&radii);
        if flip {
            points.reverse();
        }
        // Rounding may make a star not simple (two points equal); then it is refused.
        if let Some(pieces) = decompose(&points) {
            check(&points, &pieces);
            prop_assert_eq!(Some(pieces), decompose(&points));
        } else {
            prop_assert!(!is_simple(&points));
        }
    }

    /// The triangulation's test that an outline is simple agrees with the sweep over the
    /// edges' boxes (a different algorithm), on random points of a small grid: most cross
    /// themselves, touch, fold back or repeat a point, a few are simple.
    #[test]
    fn the_cut_refuses_exactly_the_outlines_that_are_not_simple(
        coordinates in prop::collection::vec((0_u8..6, 0_u8..6), 3..9),
    ) {
        let points: Vec<Vec2> = coordinates
            .iter()
            .map(|&(x, y)| Vec2::new(f32::from(x), f32::from(y)))
            .collect();
        let pieces = decompose(&points);
        prop_assert_eq!(pieces.is_some(), is_simple(&points), "{:?}", points);
        if let Some(pieces) = pieces {
            check(&points, &pieces);
        }
    }

    /// Random blobs of grid cells (many straight corners and notches).
    #[test]
    fn blobs_are_cut_exactly(steps in prop::collection::vec(0_u8..4, 1..40)) {
        let mut cells = vec![(0, 0)];
        let mut at = (0, 0);
        for s in steps {
            at = match s {
                0 => (at.0 + 1, at.1),
                1 => (at.0 - 1, at.1),
                2 => (at.0, at.1 + 1),
                _ => (at.0, at.1 - 1),
            };
            if !cells.contains(&at) {
                cells.push(at);
            }
        }
        if let Some(outline) = blob_outline(&cells) {
            let pieces = decompose(&outline).expect("a simple outline");
            check(&outline, &pieces);
        }
    }
}
