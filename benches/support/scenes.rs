//! Scenes shaped like games, as plain data: what each collider is, where it starts and how it
//! moves. The tick bench (`benches/tick.rs`) and the avian2d comparison
//! (`comparisons/avian2d`) build their apps from the same [`Scene`], so both libraries see
//! the same colliders.
//!
//! - [`Scene::mixed`]: a quarter each of points, turning segments, circles and boxes, all fast
//!   (the comparison's first scene).
//! - [`Scene::bullet_hell`]: small fast circles and very fast points among long segments and
//!   large boxes that drift without turning.
//! - [`Scene::tilemap`]: a level of still tiles that touch their neighbours, and a few
//!   hundred fast movers.
//! - [`Scene::level`]: a 256 × 256 tile level (floors, hills, walls, platforms and blocks:
//!   about 20,000 solid tiles) with fast movers, as one collider per tile or merged by
//!   `bevy_sweep::tiles`.
//! - [`Scene::still_walls`]: fast points and circles among still walls and sliding platforms
//!   (segments that translate without turning).
//! - [`Scene::turning`]: a scene with its boxes as turning rectangles and its segments as
//!   turning capsules (the bullet hell's is `bullet_hell_turning`).
//!
//! Every arena is a square `[-half, half]²`; colliders leaving it reappear on the other side.

#![allow(dead_code, reason = "each includer uses its own part of the scenes")]

use bevy::math::Vec2;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What a collider is, in local space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A point.
    Point,
    /// A segment from `(-half_length, 0)` to `(half_length, 0)`.
    Segment {
        /// Half its length.
        half_length: f32,
    },
    /// A disk.
    Circle {
        /// Its radius.
        radius: f32,
    },
    /// An axis-aligned box (never rotates).
    Box {
        /// Half its size on each axis.
        half_extents: Vec2,
    },
    /// A box that turns with the collider (an oriented box).
    Rectangle {
        /// Half its size on each local axis.
        half_extents: Vec2,
    },
    /// The segment from `(-half_length, 0)` to `(half_length, 0)` grown by `radius`.
    Capsule {
        /// Half the length of its core.
        half_length: f32,
        /// Its radius.
        radius: f32,
    },
}

/// The level's layer: tiles are members of it and interact only with movers.
pub const TERRAIN: u32 = 1 << 0;
/// The movers' layer: they interact with everything.
pub const MOVERS: u32 = 1 << 1;

/// One collider of a scene: where it starts and how it moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    /// Its shape.
    pub kind: Kind,
    /// Where it starts (centre).
    pub position: Vec2,
    /// Its starting angle in radians (segments, rectangles and capsules; 0 for the others).
    pub angle: f32,
    /// World units per second; zero for a collider that never moves (spawned without a
    /// velocity).
    pub velocity: Vec2,
    /// Radians per second (segments, rectangles and capsules; 0 for the others, so boxes
    /// stay axis-aligned).
    pub angular_velocity: f32,
    /// `(memberships, filters)` bit masks, `None` for the default (every layer).
    pub layers: Option<(u32, u32)>,
}

impl Spec {
    /// A collider that never moves.
    #[must_use]
    pub fn is_still(&self) -> bool {
        self.velocity == Vec2::ZERO && self.angular_velocity == 0.0
    }
}

/// Colliders in a square arena `[-half, half]²`.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Its name in bench ids and tables.
    pub name: &'static str,
    /// Half the side of the arena.
    pub half: f32,
    /// The colliders; the index is the collider's identity in every app built from it.
    pub specs: Vec<Spec>,
}

/// A unit vector at a random angle.
fn direction(rng: &mut ChaCha8Rng) -> Vec2 {
    Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU))
}

fn moving(kind: Kind, position: Vec2, velocity: Vec2) -> Spec {
    Spec {
        kind,
        position,
        angle: 0.0,
        velocity,
        angular_velocity: 0.0,
        layers: None,
    }
}

/// `movers` fast movers anywhere in `[-half, half]²`, in turn points at 1,000–4,000 units/s
/// and circles of radius 4 at 500–2,000 units/s, in random directions, on the movers' layer
/// (the tile levels' movers).
fn push_fast_movers(specs: &mut Vec<Spec>, movers: usize, half: f32, rng: &mut ChaCha8Rng) {
    for i in 0..movers {
        let position = Vec2::new(rng.random_range(-half..half), rng.random_range(-half..half));
        let dir = direction(rng);
        let (kind, speed) = if i % 2 == 0 {
            (Kind::Point, rng.random_range(1000.0..4000.0))
        } else {
            (
                Kind::Circle { radius: 4.0 },
                rng.random_range(500.0..2000.0),
            )
        };
        specs.push(Spec {
            layers: Some((MOVERS, TERRAIN | MOVERS)),
            ..moving(kind, position, dir * speed)
        });
    }
}

impl Scene {
    /// `count` colliders, 400 square units of arena each: a quarter each of points, segments
    /// of length 8 (turning at up to 3 rad/s), circles of radius 1–3 and boxes of half size
    /// 1–3; speeds from 640 to 1,920 units per second (10 to 30 units per tick) in random
    /// directions.
    #[must_use]
    pub fn mixed(count: usize, seed: u64) -> Self {
        let half = (count as f32 * 400.0).sqrt() / 2.0;
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ count as u64);
        let specs = (0..count)
            .map(|i| {
                let position =
                    Vec2::new(rng.random_range(-half..half), rng.random_range(-half..half));
                let velocity = direction(&mut rng) * rng.random_range(640.0..1920.0);
                match i % 4 {
                    0 => moving(Kind::Point, position, velocity),
                    1 => Spec {
                        angle: rng.random_range(0.0..core::f32::consts::TAU),
                        angular_velocity: rng.random_range(-3.0..3.0),
                        ..moving(Kind::Segment { half_length: 4.0 }, position, velocity)
                    },
                    2 => moving(
                        Kind::Circle {
                            radius: rng.random_range(1.0..3.0),
                        },
                        position,
                        velocity,
                    ),
                    _ => moving(
                        Kind::Box {
                            half_extents: Vec2::new(
                                rng.random_range(1.0..3.0),
                                rng.random_range(1.0..3.0),
                            ),
                        },
                        position,
                        velocity,
                    ),
                }
            })
            .collect();
        Self {
            name: "mixed",
            half,
            specs,
        }
    }

    /// A bullet hell: `count` colliders in a 4,000 × 4,000 arena (10,000 is the scene of
    /// record). Four in ten are circles of radius 2 at 500–5,000 units/s, one in ten points at
    /// 1,000–20,000 units/s; three in ten are segments 20–200 long and two in ten boxes of half
    /// size 5–50, drifting at 100–300 units/s without turning.
    #[must_use]
    pub fn bullet_hell(count: usize, seed: u64) -> Self {
        let half = 2000.0;
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ count as u64 ^ 0xb011e7);
        let specs = (0..count)
            .map(|i| {
                let position =
                    Vec2::new(rng.random_range(-half..half), rng.random_range(-half..half));
                let dir = direction(&mut rng);
                match i % 10 {
                    0..4 => moving(
                        Kind::Circle { radius: 2.0 },
                        position,
                        dir * rng.random_range(500.0..5000.0),
                    ),
                    4 => moving(
                        Kind::Point,
                        position,
                        dir * rng.random_range(1000.0..20_000.0),
                    ),
                    5..8 => Spec {
                        angle: rng.random_range(0.0..core::f32::consts::TAU),
                        ..moving(
                            Kind::Segment {
                                half_length: rng.random_range(10.0..100.0),
                            },
                            position,
                            dir * rng.random_range(100.0..300.0),
                        )
                    },
                    _ => moving(
                        Kind::Box {
                            half_extents: Vec2::new(
                                rng.random_range(5.0..50.0),
                                rng.random_range(5.0..50.0),
                            ),
                        },
                        position,
                        dir * rng.random_range(100.0..300.0),
                    ),
                }
            })
            .collect();
        Self {
            name: "bullet_hell",
            half,
            specs,
        }
    }

    /// A tilemap level: `tiles` still 16 × 16 boxes on a square grid of 16-unit cells (each
    /// touching its neighbours: a solid level), a few columns of cells left empty as
    /// corridors, and `movers` fast movers through it (half points at 1,000–4,000 units/s,
    /// half circles of radius 4 at 500–2,000). Tiles are on the [`TERRAIN`] layer and interact
    /// only with [`MOVERS`], as level geometry usually does.
    #[must_use]
    pub fn tilemap(tiles: usize, movers: usize, seed: u64) -> Self {
        const CELL: f32 = 16.0;
        // Square grid with one column in eight left empty: `side` columns hold
        // `side·7/8` tiles each.
        let side = ((tiles as f32 * 8.0 / 7.0).sqrt().ceil() as usize).max(1);
        let half = side as f32 * CELL / 2.0;
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (tiles + movers) as u64 ^ 0x711e);
        let mut specs = Vec::with_capacity(tiles + movers);
        'grid: for column in 0..side {
            if column % 8 == 4 {
                continue;
            }
            for row in 0..side {
                if specs.len() == tiles {
                    break 'grid;
                }
                let position = Vec2::new(
                    -half + (column as f32 + 0.5) * CELL,
                    -half + (row as f32 + 0.5) * CELL,
                );
                specs.push(Spec {
                    layers: Some((TERRAIN, MOVERS)),
                    ..moving(
                        Kind::Box {
                            half_extents: Vec2::splat(CELL / 2.0),
                        },
                        position,
                        Vec2::ZERO,
                    )
                });
            }
        }
        push_fast_movers(&mut specs, movers, half, &mut rng);
        Self {
            name: "tilemap",
            half,
            specs,
        }
    }

    /// `movers` fast movers alone (as in [`tilemap`](Self::tilemap)) in a square arena of
    /// half size `half`, for scenes whose other colliders a bench spawns itself.
    #[must_use]
    pub fn movers(movers: usize, half: f32, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ movers as u64 ^ 0x30ce);
        let mut specs = Vec::with_capacity(movers);
        push_fast_movers(&mut specs, movers, half, &mut rng);
        Self {
            name: "movers",
            half,
            specs,
        }
    }

    /// The solid cells of a 256 × 256 platformer level (row 0 at the bottom), about 20,000
    /// of them: hilly ground, two-cell floors every 32 rows with gaps, walls every 64
    /// columns with doorways, and random blocks of 1–6 × 1–3 cells.
    #[must_use]
    pub fn level_grid(seed: u64) -> bevy_sweep::tiles::TileGrid {
        const SIDE: u32 = 256;
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x1e7e1);
        let mut grid = bevy_sweep::tiles::TileGrid::from_fn(SIDE, SIDE, |c| {
            let (x, y) = (c.x as f32, c.y);
            let ground = 14.0 + 6.0 * (x / 17.0).sin() + 3.0 * (x / 5.0).cos();
            let floor = y % 32 < 2 && y > 24 && (c.x + y) % 40 >= 7;
            let wall = c.x % 64 < 2 && y % 32 >= 8;
            (y as f32) < ground || floor || wall
        })
        .expect("a 256 × 256 grid");
        while grid.solid_count() < 20_000 {
            let (w, h) = (rng.random_range(1..=6), rng.random_range(1..=3));
            let (x0, y0) = (rng.random_range(0..SIDE - w), rng.random_range(0..SIDE - h));
            for y in y0..y0 + h {
                for x in x0..x0 + w {
                    grid.set(bevy::math::UVec2::new(x, y), true);
                }
            }
        }
        grid
    }

    /// [`level_grid`](Self::level_grid) as colliders (16-unit tiles, centred on the origin):
    /// one box per tile, or (`merged`) one per rectangle of `TileGrid::merged`; and `movers`
    /// fast points and circles (1,000–4,000 and 500–2,000 units/s) anywhere.
    #[must_use]
    pub fn level(merged: bool, movers: usize, seed: u64) -> Self {
        const CELL: f32 = 16.0;
        let grid = Self::level_grid(seed);
        let half = grid.size().x as f32 * CELL / 2.0;
        let rects: Vec<bevy::math::URect> = if merged {
            grid.merged()
        } else {
            let size = grid.size();
            (0..size.y)
                .flat_map(|y| (0..size.x).map(move |x| bevy::math::UVec2::new(x, y)))
                .filter(|&c| grid.is_solid(c))
                .map(|c| bevy::math::URect::from_corners(c, c + 1))
                .collect()
        };
        let mut specs: Vec<Spec> = rects
            .iter()
            .map(|r| {
                let (min, max) = (r.min.as_vec2() * CELL, r.max.as_vec2() * CELL);
                Spec {
                    layers: Some((TERRAIN, MOVERS)),
                    ..moving(
                        Kind::Box {
                            half_extents: (max - min) / 2.0,
                        },
                        (min + max) / 2.0 - half,
                        Vec2::ZERO,
                    )
                }
            })
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ movers as u64 ^ 0x1e7e1);
        push_fast_movers(&mut specs, movers, half, &mut rng);
        Self {
            name: if merged {
                "level_merged"
            } else {
                "level_per_tile"
            },
            half,
            specs,
        }
    }

    /// Still walls and sliding platforms: `count` colliders in a 4,000 × 4,000 arena. Two in
    /// ten are still walls (segments 50–400 long at any angle, no velocity), one in ten
    /// platforms (segments 50–200 long, level or upright, sliding along an axis at 50–200
    /// units/s without turning); four in ten are circles of radius 2–8 at 500–3,000 units/s and
    /// three in ten points at 1,000–10,000 units/s.
    #[must_use]
    pub fn still_walls(count: usize, seed: u64) -> Self {
        let half = 2000.0;
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ count as u64 ^ 0x5a11);
        let specs = (0..count)
            .map(|i| {
                let position =
                    Vec2::new(rng.random_range(-half..half), rng.random_range(-half..half));
                let dir = direction(&mut rng);
                match i % 10 {
                    0..2 => Spec {
                        angle: rng.random_range(0.0..core::f32::consts::TAU),
                        ..moving(
                            Kind::Segment {
                                half_length: rng.random_range(25.0..200.0),
                            },
                            position,
                            Vec2::ZERO,
                        )
                    },
                    2 => {
                        let upright = rng.random_bool(0.5);
                        let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                        let speed = rng.random_range(50.0..200.0) * sign;
                        Spec {
                            angle: if upright {
                                core::f32::consts::FRAC_PI_2
                            } else {
                                0.0
                            },
                            ..moving(
                                Kind::Segment {
                                    half_length: rng.random_range(25.0..100.0),
                                },
                                position,
                                if rng.random_bool(0.5) {
                                    Vec2::new(speed, 0.0)
                                } else {
                                    Vec2::new(0.0, speed)
                                },
                            )
                        }
                    }
                    3..7 => moving(
                        Kind::Circle {
                            radius: rng.random_range(2.0..8.0),
                        },
                        position,
                        dir * rng.random_range(500.0..3000.0),
                    ),
                    _ => moving(
                        Kind::Point,
                        position,
                        dir * rng.random_range(1000.0..10_000.0),
                    ),
                }
            })
            .collect();
        Self {
            name: "still_walls",
            half,
            specs,
        }
    }

    /// The same scene with its boxes as rectangles of the same half extents at a random
    /// starting angle, and its segments as capsules of radius 2 along them (their place and
    /// angle), each turning at a rate drawn uniformly from −3 to 3 rad/s (places, speeds and the other colliders as
    /// they are). Named after the scene, `_turning`.
    #[must_use]
    pub fn turning(&self, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7u64.rotate_left(40));
        let specs = self
            .specs
            .iter()
            .map(|spec| {
                match spec.kind {
                    Kind::Box { half_extents } => Spec {
                        kind: Kind::Rectangle { half_extents },
                        angle: rng.random_range(0.0..core::f32::consts::TAU),
                        angular_velocity: rng.random_range(-3.0..3.0),
                        ..*spec
                    },
                    // Along the segment: its place and angle.
                    Kind::Segment { half_length } => Spec {
                        kind: Kind::Capsule {
                            half_length,
                            radius: 2.0,
                        },
                        angular_velocity: rng.random_range(-3.0..3.0),
                        ..*spec
                    },
                    _ => *spec,
                }
            })
            .collect();
        let name = match self.name {
            "bullet_hell" => "bullet_hell_turning",
            "still_walls" => "still_walls_turning",
            _ => "turning",
        };
        Scene {
            name,
            half: self.half,
            specs,
        }
    }

    /// Where `p` wraps to, if it is outside the arena.
    #[must_use]
    pub fn wrap(&self, p: Vec2) -> Option<Vec2> {
        let h = self.half;
        (p.x.abs() > h || p.y.abs() > h).then(|| {
            Vec2::new(
                (p.x + h).rem_euclid(2.0 * h) - h,
                (p.y + h).rem_euclid(2.0 * h) - h,
            )
        })
    }
}
