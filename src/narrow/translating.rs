//! Pairs with a segment that does not turn: a ray against a convex shape, in closed form.
//!
//! When neither shape turns, one moves relative to the other along a straight line, and the
//! two touch exactly while that line runs through their *configuration obstacle*: the
//! Minkowski difference of the shapes, a convex shape fixed in the frame of the first. For a
//! segment against a box it is a hexagon (three slabs), against a segment a parallelogram (two
//! slabs), against a circle a capsule (a rectangle and two disks), against a point the segment
//! itself (a slab of zero width). A ray enters a convex shape once and leaves it once: the
//! contact is one interval, found with a few divisions and square roots instead of the general
//! solver's candidate moments and midpoint tests.
//!
//! # Nearly rigid segments
//!
//! A segment on a translating transform is rigid only up to rounding: each endpoint is rounded
//! to `f32` at each end of the tick, so its vector changes by a few ulps, `e`. Nothing here
//! assumes `e = 0`: each slab is a condition `φ(t) >= 0` on a polynomial of the exact motion,
//! quadratic through products of the segment's vector (which moves by `e`) with a relative
//! position (which moves by the relative motion), and solved as such. The quadratic part is
//! tiny for a segment that does not turn, and the condition is used only where it is monotone
//! across the tick, so each slab is still entered or left once. The one quantity that is not a
//! polynomial, the segment's length (a capsule's width), is taken along the chord between its
//! lengths at the two ends of the tick, which it never exceeds and misses by at most
//! `|e|² / (8·length)`.
//!
//! # Certified, or left to the general solver
//!
//! Every condition is computed in `f64` from the `f32` input with a bound on its error: a
//! generous `2^-40` of the sizes of the products it sums (each carries a few `2^-53`
//! roundings), plus the chord's error. Shrinking and growing each condition by its bound gives
//! the contact interval of a shape a little smaller and a little larger than the obstacle, and
//! the true interval lies between them. An answer is given only where the two decide whether
//! the shapes touch at the start and at the end of the tick (so consecutive ticks agree, as
//! the exact static kernels would make them) and agree on each end of the contact to within
//! `2^-24` of the tick, away from the tick's own ends. A thin obstacle (a point against a
//! segment) has no inside to shrink to: a point crossing a segment is certified where it
//! crosses the segment's line once, within that margin, while certainly between its ends. A
//! graze, a contact at an end of the segment, parallel segments, a condition that is not
//! monotone (a segment that turns), a motion so slow that rounding blurs its times: these give
//! `None`, and the general solver, exact where it matters, decides.

use super::shape::ShapePath;
use bevy_math::{DVec2, Vec2};

/// The most the grown and shrunk answers may differ at either end of the contact, in fractions
/// of the tick, and the least distance from the tick's own ends of a contact's end that is not
/// at one: a few `f32` ulps of a time near 1.
const TIME_TOLERANCE: f64 = 1.0 / (1u64 << 24) as f64;

/// The error allowed each product summed into a condition, relative to its size: far above
/// the few `2^-53` roundings each carries, far below anything a game can see.
const ROUNDING: f64 = 1.0 / (1u64 << 40) as f64;

/// The contact interval of a pair in rank order (see `contact_intervals_of_valid`) that has a
/// segment: `Some(None)` for certainly no contact, `Some(Some(interval))` for certainly that
/// one, `None` where the general solver must decide.
pub(super) fn translating(a: &ShapePath, b: &ShapePath) -> Option<Option<[f32; 2]>> {
    match (*a, *b) {
        (ShapePath::Point(p), ShapePath::Segment { a, b }) => {
            // The segment itself, in its own frame: across it nothing, along it its length.
            let s = Moving::segment(a, b);
            let p = Moving::point(p).minus(&s.start);
            let across = s.d.cross(&p);
            let side = across.at_least_zero();
            let line = side.and(across.neg().at_least_zero());
            // Never on the segment's line in the tick: no contact (most pairs).
            if line.misses_tick() {
                return Some(None);
            }
            let along = s.d.dot(&p);
            let within = along
                .at_least_zero()
                .and(s.d.dot(&s.d).minus(&along).at_least_zero());
            // A point crossing the segment's line once, certainly inside the segment then
            // and away from the tick's ends: an instant contact.
            let [early, late] = if side.entry[0].is_finite() {
                side.entry
            } else {
                side.exit
            };
            if early.is_finite()
                && late - early <= TIME_TOLERANCE
                && early >= TIME_TOLERANCE
                && late <= 1.0 - TIME_TOLERANCE
                && within.entry[1] <= early
                && within.exit[0] >= late
            {
                let at = (0.5 * (early + late)) as f32;
                return Some(Some([at, at]));
            }
            // Otherwise only "no contact" can be certified (the obstacle is thin).
            decide(line.and(within).interval())
        }
        (
            ShapePath::Segment { a, b },
            ShapePath::Segment {
                a: other_a,
                b: other_b,
            },
        ) => {
            // `other`'s start relative to this one's is in the parallelogram `[0, s] − [0, r]`
            // while they touch: `q = σ·s − ρ·r` with `σ = cross(q, r) / D` and
            // `ρ = cross(q, s) / D`, `D = cross(s, r)`, both in `[0, 1]`.
            let (s, r) = (Moving::segment(a, b), Moving::segment(other_a, other_b));
            let q = r.start.minus(&s.start);
            let det = s.d.cross(&r.d);
            let sign = det.sign_over_tick()?;
            let (sigma, rho) = (q.cross(&r.d).times(sign), q.cross(&s.d).times(sign));
            let det = det.times(sign);
            let first = sigma.at_least_zero().and(det.minus(&sigma).at_least_zero());
            if first.misses_tick() {
                return Some(None);
            }
            let span = first
                .and(rho.at_least_zero())
                .and(det.minus(&rho).at_least_zero());
            decide(span.interval())
        }
        (ShapePath::Segment { a, b }, ShapePath::Circle { center, radius }) => {
            // The capsule: the rectangle beside the segment, and a disk at each end.
            let s = Moving::segment(a, b);
            let p = Moving::point(center).minus(&s.start);
            let r = f64::from(radius);
            let across = s.d.cross(&p);
            let width = s.length_chord().times(r);
            let band = width
                .minus(&across)
                .at_least_zero()
                .and(width.plus(&across).at_least_zero());
            // The band beside the segment's line holds the whole capsule: a circle that never
            // enters it never touches (most pairs).
            if band.misses_tick() {
                return Some(None);
            }
            let along = s.d.dot(&p);
            let side = band
                .and(along.at_least_zero())
                .and(s.d.dot(&s.d).minus(&along).at_least_zero());
            decide(side.interval().or(disk(&p, r)).or(disk(&p.minus(&s.d), r)))
        }
        (
            ShapePath::Segment { a, b },
            ShapePath::Aabb {
                center,
                half_extents,
            },
        ) => {
            // The box's centre while the box meets the segment: in the hexagon of the segment
            // grown by the box. Its two axis slabs reach from the box's half size beyond the
            // segment's start to as far beyond its end, and its slab across the segment is as
            // wide as the box reaches across it.
            let s = Moving::segment(a, b);
            let p = Moving::point(center).minus(&s.start);
            let h = half_extents.as_dvec2();
            let (dx, dy) = (s.d.x(), s.d.y());
            // `min(0, d) = (d − |d|) / 2` and `max(0, d) = (d + |d|) / 2`.
            let axis = |p: Poly, d: Poly, h: f64| {
                let size = d.abs_over_tick();
                let low = d.minus(&size).times(0.5).plus_constant(-h);
                let high = d.plus(&size).times(0.5).plus_constant(h);
                p.minus(&low)
                    .at_least_zero()
                    .and(high.minus(&p).at_least_zero())
            };
            // The box's reach across the segment: `hx·|dy| + hy·|dx|`.
            let reach = dy
                .abs_over_tick()
                .times(h.x)
                .plus(&dx.abs_over_tick().times(h.y));
            let across = s.d.cross(&p);
            let band = reach
                .minus(&across)
                .at_least_zero()
                .and(reach.plus(&across).at_least_zero());
            // A box that never reaches the segment's line never touches it (most pairs).
            if band.misses_tick() {
                return Some(None);
            }
            let span = band.and(axis(p.x(), dx, h.x)).and(axis(p.y(), dy, h.y));
            decide(span.interval())
        }
        _ => None,
    }
}

/// A polynomial of degree at most two in the time, `c[0] + c[1]·t + c[2]·t²`, with the size
/// of the products that went into it (for its rounding error).
#[derive(Clone, Copy, Debug)]
struct Poly {
    c: [f64; 3],
    size: f64,
}

impl Poly {
    fn constant(x: f64) -> Self {
        Self {
            c: [x, 0.0, 0.0],
            size: x.abs(),
        }
    }

    fn plus(&self, other: &Self) -> Self {
        Self {
            c: [
                self.c[0] + other.c[0],
                self.c[1] + other.c[1],
                self.c[2] + other.c[2],
            ],
            size: self.size + other.size,
        }
    }

    fn neg(&self) -> Self {
        Self {
            c: self.c.map(|x| -x),
            size: self.size,
        }
    }

    fn minus(&self, other: &Self) -> Self {
        self.plus(&other.neg())
    }

    fn plus_constant(&self, x: f64) -> Self {
        self.plus(&Self::constant(x))
    }

    fn times(&self, x: f64) -> Self {
        Self {
            c: self.c.map(|c| c * x),
            size: self.size * x.abs(),
        }
    }

    fn at(&self, t: f64) -> f64 {
        (self.c[2] * t + self.c[1]) * t + self.c[0]
    }

    /// A bound on the error of its values for `|t| <= 1.5`.
    fn error(&self) -> f64 {
        ROUNDING * self.size
    }

    /// `1.0` or `-1.0` if it keeps that sign, away from zero by more than its error, across
    /// the tick (a linear part dominating a small quadratic one); `None` otherwise.
    fn sign_over_tick(&self) -> Option<f64> {
        let [c0, c1, c2] = self.c;
        // Its extremes on [0, 1] are at the ends unless the vertex is inside.
        let mut low = c0.min(self.at(1.0));
        let mut high = c0.max(self.at(1.0));
        if c2 != 0.0 {
            let vertex = -c1 / (2.0 * c2);
            if vertex > 0.0 && vertex < 1.0 {
                low = low.min(self.at(vertex));
                high = high.max(self.at(vertex));
            }
        }
        let error = self.error();
        if low > error {
            Some(1.0)
        } else if high < -error {
            Some(-1.0)
        } else {
            None
        }
    }

    /// `|self|` across the tick: itself or its negation where it keeps a sign, else zero with
    /// an error as large as it gets (it stays within its error of zero, or crosses it).
    fn abs_over_tick(&self) -> Self {
        match self.sign_over_tick() {
            Some(sign) => self.times(sign),
            None => Self {
                c: [0.0; 3],
                size: self.size + self.c.iter().map(|c| c.abs()).sum::<f64>() / ROUNDING,
            },
        }
    }

    /// When `self >= 0` near the tick, its root known within the error of the values.
    ///
    /// Where the linear part dominates (`|c1| > 8·|c2|`), the slope keeps its sign and stays
    /// above `0.47·|c1|` over `[-1.1, 2.1]`, and a root in `[-0.5, 1.5]` lies within `0.28` of
    /// the linear one, `-c0 / c1`: one Newton step from there, and what is left of the value
    /// at the step's end counts in the blur. Elsewhere (a segment that turns) only a sign kept
    /// across the whole tick is an answer.
    fn at_least_zero(&self) -> Span {
        let [c0, c1, c2] = self.c;
        let error = self.error();
        // (Also taken for NaN, which compares false.)
        let dominates = c1.abs() > 8.0 * c2.abs();
        if !dominates {
            return match self.sign_over_tick() {
                Some(sign) if sign > 0.0 => Span::ALWAYS,
                Some(_) => Span::NEVER,
                None => Span::UNSURE,
            };
        }
        let linear = -c0 / c1;
        let root = if c2 == 0.0 {
            linear
        } else {
            linear - self.at(linear) / (c1 + 2.0 * c2 * linear)
        };
        let residual = if c2 == 0.0 { 0.0 } else { self.at(root).abs() };
        let blur = (error + residual) / (0.47 * c1.abs()) + ROUNDING * root.abs();
        let (early, late) = (root - blur, root + blur);
        if c1 > 0.0 {
            Span {
                entry: [early, late],
                exit: [f64::INFINITY; 2],
            }
        } else {
            Span {
                entry: [f64::NEG_INFINITY; 2],
                exit: [early, late],
            }
        }
    }
}

/// A vector moving linearly: `v0 + t·v1`.
#[derive(Clone, Copy, Debug)]
struct Moving {
    v0: DVec2,
    v1: DVec2,
}

impl Moving {
    fn point(path: [Vec2; 2]) -> Self {
        let (p0, p1) = (path[0].as_dvec2(), path[1].as_dvec2());
        Self {
            v0: p0,
            v1: p1 - p0,
        }
    }

    fn segment(a: [Vec2; 2], b: [Vec2; 2]) -> Segment {
        let (start, end) = (Self::point(a), Self::point(b));
        Segment {
            d: end.minus(&start),
            start,
        }
    }

    fn minus(&self, other: &Self) -> Self {
        Self {
            v0: self.v0 - other.v0,
            v1: self.v1 - other.v1,
        }
    }

    /// The product `f` of two moving vectors: `f` gives the value of one product of
    /// vectors and the size of its terms.
    fn product(&self, other: &Self, f: impl Fn(DVec2, DVec2) -> (f64, f64)) -> Poly {
        let (c0, s0) = f(self.v0, other.v0);
        let (c1a, s1a) = f(self.v0, other.v1);
        let (c1b, s1b) = f(self.v1, other.v0);
        let (c2, s2) = f(self.v1, other.v1);
        Poly {
            c: [c0, c1a + c1b, c2],
            // For `|t| <= 1.5`.
            size: s0 + 1.5 * (s1a + s1b) + 2.25 * s2,
        }
    }

    fn cross(&self, other: &Self) -> Poly {
        self.product(other, |u, w| {
            (u.perp_dot(w), (u.x * w.y).abs() + (u.y * w.x).abs())
        })
    }

    fn dot(&self, other: &Self) -> Poly {
        self.product(other, |u, w| {
            (u.dot(w), (u.x * w.x).abs() + (u.y * w.y).abs())
        })
    }

    fn coordinate(&self, i: usize) -> Poly {
        Poly {
            c: [self.v0[i], self.v1[i], 0.0],
            size: self.v0[i].abs() + 1.5 * self.v1[i].abs(),
        }
    }

    fn x(&self) -> Poly {
        self.coordinate(0)
    }

    fn y(&self) -> Poly {
        self.coordinate(1)
    }
}

/// A segment's first endpoint and its vector (to the second), both moving linearly.
struct Segment {
    start: Moving,
    d: Moving,
}

impl Segment {
    /// The chord of the segment's length between the start and the end of the tick: never
    /// below the length (which is convex in time), and above it by at most `|e|² / (8·ℓ)`
    /// for a vector changing by `e` of smallest length `ℓ`; that excess is in its error.
    fn length_chord(&self) -> Poly {
        let (l0, l1) = (self.d.v0.length(), (self.d.v0 + self.d.v1).length());
        let e = self.d.v1.length();
        let shortest = (l0.min(l1) - e).max(f64::MIN_POSITIVE);
        let excess = e * e / (8.0 * shortest);
        Poly {
            c: [l0, l1 - l0, 0.0],
            size: l0 + 1.5 * l1 + excess / ROUNDING,
        }
    }
}

/// When the grown and the shrunk obstacle hold the ray: the grown interval is
/// `[entry[0], exit[1]]` and the shrunk one `[entry[1], exit[0]]`; either may be empty
/// (first after last).
#[derive(Clone, Copy, Debug)]
struct Span {
    entry: [f64; 2],
    exit: [f64; 2],
}

impl Span {
    /// Always in, grown and shrunk.
    const ALWAYS: Self = Self {
        entry: [f64::NEG_INFINITY; 2],
        exit: [f64::INFINITY; 2],
    };
    /// Never in, grown or shrunk.
    const NEVER: Self = Self {
        entry: [f64::INFINITY; 2],
        exit: [f64::NEG_INFINITY; 2],
    };
    /// The grown always in, the shrunk never.
    const UNSURE: Self = Self {
        entry: [f64::NEG_INFINITY, f64::INFINITY],
        exit: [f64::NEG_INFINITY, f64::INFINITY],
    };

    /// In both (the intersection of convex shapes).
    fn and(self, other: Self) -> Self {
        Self {
            entry: [
                self.entry[0].max(other.entry[0]),
                self.entry[1].max(other.entry[1]),
            ],
            exit: [
                self.exit[0].min(other.exit[0]),
                self.exit[1].min(other.exit[1]),
            ],
        }
    }

    /// `true` if even the grown obstacle is not met within the tick: certainly no contact.
    fn misses_tick(&self) -> bool {
        self.entry[0] > self.exit[1] || self.exit[1] < 0.0 || self.entry[0] > 1.0
    }

    /// The grown and shrunk intervals.
    fn interval(self) -> Hull {
        Hull {
            grown: [self.entry[0], self.exit[1]],
            shrunk: [self.entry[1], self.exit[0]],
        }
    }
}

/// The grown and shrunk contact intervals as `[first, last]` (empty when first > last).
#[derive(Clone, Copy, Debug)]
struct Hull {
    grown: [f64; 2],
    shrunk: [f64; 2],
}

impl Hull {
    /// In either, for the parts of a rounded shape (a capsule's rectangle and end disks).
    ///
    /// Each part's intervals are taken within `[-0.5, 1.5]`, around the tick: beyond it a
    /// segment's motion is extrapolated and means nothing. The grown union's hull holds the
    /// true contact interval because the grown parts do. The shrunk union lies within it
    /// where it is one interval; two apart (possible only for a segment that does not quite
    /// keep its shape, or a graze) leave the shrunk union empty and the answer to the
    /// general solver.
    fn or(self, other: Self) -> Self {
        let within = |x: [f64; 2]| [x[0].max(-0.5), x[1].min(1.5)];
        let (grown, other_grown) = (within(self.grown), within(other.grown));
        let (shrunk, other_shrunk) = (within(self.shrunk), within(other.shrunk));
        let empty = |x: [f64; 2]| x[0] > x[1];
        let hull = |x: [f64; 2], y: [f64; 2]| match (empty(x), empty(y)) {
            (false, false) => [x[0].min(y[0]), x[1].max(y[1])],
            (false, true) => x,
            _ => y,
        };
        let apart = !empty(shrunk)
            && !empty(other_shrunk)
            && (shrunk[1] < other_shrunk[0] || other_shrunk[1] < shrunk[0]);
        Self {
            grown: hull(grown, other_grown),
            shrunk: if apart {
                [f64::INFINITY, f64::NEG_INFINITY]
            } else {
                hull(shrunk, other_shrunk)
            },
        }
    }
}

/// When the point moving along `p` (relative to the disk's centre) is within `radius` of it,
/// for the radius grown and shrunk by the error of the computation.
fn disk(p: &Moving, radius: f64) -> Hull {
    let (p0, v) = (p.v0, p.v1);
    let (a, b, c0) = (v.length_squared(), p0.dot(v), p0.length_squared());
    // Rounding of `a`, `b`, `c` and the discriminant, as a change of the radius that covers
    // it: the discriminant changes by `2·a·r·δr` for `δr`, and its own error is a few ulps of
    // `b² + a·(|p0|² + r²)`, with `b² <= a·|p0|²`.
    let size = c0 + radius * radius + 1.5 * (p0.abs().dot(v.abs())) + 2.25 * a;
    let slack = ROUNDING * size / radius.max(f64::MIN_POSITIVE) + ROUNDING * radius;
    let at_radius = |r: f64| -> [f64; 2] {
        const EMPTY: [f64; 2] = [f64::INFINITY, f64::NEG_INFINITY];
        let c = c0 - r * r;
        if a == 0.0 {
            return if c <= 0.0 {
                [f64::NEG_INFINITY, f64::INFINITY]
            } else {
                EMPTY
            };
        }
        let disc = b * b - a * c;
        if disc < 0.0 {
            return EMPTY;
        }
        // The roots without cancellation: `q / a` and `c / q`.
        let q = -(b + disc.sqrt().copysign(b));
        if q == 0.0 {
            return [0.0, 0.0];
        }
        let (t0, t1) = (q / a, c / q);
        [t0.min(t1), t0.max(t1)]
    };
    Hull {
        grown: at_radius(radius + slack),
        shrunk: if slack < radius {
            at_radius(radius - slack)
        } else {
            [f64::INFINITY, f64::NEG_INFINITY]
        },
    }
}

/// The certified answer from the grown and shrunk contact intervals (see the module docs),
/// within the tick `[0, 1]`.
fn decide(hull: Hull) -> Option<Option<[f32; 2]>> {
    let Hull { grown, shrunk } = hull;
    // The grown obstacle never meets the ray within the tick: no contact.
    if grown[0] > grown[1] || grown[1] < 0.0 || grown[0] > 1.0 {
        return Some(None);
    }
    if shrunk[0] > shrunk[1] || shrunk[1] < 0.0 || shrunk[0] > 1.0 {
        // Meeting the grown obstacle only: a graze, or a thin obstacle.
        return None;
    }
    let holds = |t: f64| shrunk[0] <= t && t <= shrunk[1];
    let misses = |t: f64| t < grown[0] || t > grown[1];
    let first = if holds(0.0) {
        0.0
    } else if misses(0.0) && grown[0] >= TIME_TOLERANCE && shrunk[0] - grown[0] <= TIME_TOLERANCE {
        0.5 * (grown[0] + shrunk[0])
    } else {
        return None;
    };
    let last = if holds(1.0) {
        1.0
    } else if misses(1.0)
        && grown[1] <= 1.0 - TIME_TOLERANCE
        && grown[1] - shrunk[1] <= TIME_TOLERANCE
    {
        0.5 * (grown[1] + shrunk[1])
    } else {
        return None;
    };
    let (first, last) = (first as f32, last as f32);
    Some(Some([first, last.max(first)]))
}

#[cfg(test)]
mod tests;
