//! A terminal tour of the geometry kernels: draws a box, a few segments and a moving line as
//! text, and prints what each query reports. No window, no GPU: it builds in seconds.
//!
//! ```text
//! cargo run --example kernels_tour
//! ```
//!
//! | key | action |
//! |-----|--------|
//! | —   | none: it prints and exits |

#![expect(clippy::print_stdout, reason = "a terminal example prints its results")]

use bevy_math::{Vec2, bounding::Aabb2d};
use bevy_sweep::geometry::{
    SegmentIntersection, clip_segment_aabb, clip_segment_aabb_cohen_sutherland,
    clip_segment_aabb_liang_barsky, clip_segment_aabb_sectors, clip_segment_aabb_slab,
    intersect_segment_circle, intersect_segment_segment, sweep_point_segment,
};
use std::fmt::Write as _;

/// Canvas size in characters.
const WIDTH: usize = 61;
const HEIGHT: usize = 21;
/// World units shown: x in [-6, 6], y in [-4, 4].
const VIEW_MIN: Vec2 = Vec2::new(-6.0, -4.0);
const VIEW_MAX: Vec2 = Vec2::new(6.0, 4.0);

fn main() {
    let aabb = Aabb2d {
        min: Vec2::new(-2.0, -1.5),
        max: Vec2::new(2.0, 1.5),
    };
    let segments = [
        ("a: traverses", Vec2::new(-5.0, -3.0), Vec2::new(5.0, 2.0)),
        (
            "b: touches a corner",
            Vec2::new(1.0, 2.5),
            Vec2::new(3.0, 0.5),
        ),
        (
            "c: misses beside it",
            Vec2::new(1.5, 3.5),
            Vec2::new(5.0, 0.0),
        ),
        (
            "d: starts inside",
            Vec2::new(0.0, 0.0),
            Vec2::new(-4.0, 3.5),
        ),
    ];

    let mut canvas = Canvas::new();
    canvas.rect(&aabb);
    for (_, start, end) in segments {
        canvas.segment(start, end, '.');
        if let Some(clip) = clip_segment_aabb(start, end, &aabb) {
            let [entry, exit] = clip.points(start, end);
            canvas.segment(entry, exit, '=');
            canvas.put(entry, '>');
            canvas.put(exit, '<');
        }
    }
    for (name, start, _) in segments {
        canvas.put(start, name.chars().next().unwrap_or('?'));
    }
    println!(
        "Segment against box (`=` inside, `>` entry, `<` exit):\n{}",
        canvas.render()
    );

    println!(
        "{:<22} {:>16} {:>16} {:>16} {:>16}",
        "", "Liang-Barsky", "slab", "Cohen-Sutherland", "sectors"
    );
    for (name, start, end) in segments {
        let show = |c: Option<bevy_sweep::geometry::SegmentClip>| {
            c.map_or_else(
                || "miss".to_string(),
                |c| format!("[{:.3}, {:.3}]", c.entry, c.exit),
            )
        };
        println!(
            "{name:<22} {:>16} {:>16} {:>16} {:>16}",
            show(clip_segment_aabb_liang_barsky(start, end, &aabb)),
            show(clip_segment_aabb_slab(start, end, &aabb)),
            show(clip_segment_aabb_cohen_sutherland(start, end, &aabb)),
            show(clip_segment_aabb_sectors(start, end, &aabb)),
        );
    }

    let (a, c) = (segments[0], segments[2]);
    match intersect_segment_segment(a.1, a.2, c.1, c.2) {
        SegmentIntersection::Point { t, u, point } => {
            println!("\nSegments a and c cross at {point} (t = {t:.4} on a, u = {u:.4} on c)");
        }
        other => println!("\nSegments a and c: {other:?}"),
    }
    let hits = intersect_segment_circle(a.1, a.2, Vec2::new(3.0, 1.0), 1.2);
    println!(
        "Segment a meets the circle of radius 1.2 at (3, 1) at t = {:?}",
        hits.as_slice()
    );

    // The "raise" motion: the first end slides right while the second rises. Where a
    // still point sits decides whether the line sweeps it zero, one or two times.
    println!("\nA moving line sweeping still points (the \"raise\" motion):");
    let (start_path, end_path) = (
        [Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0)],
        [Vec2::new(4.0, -2.0), Vec2::new(4.0, 2.0)],
    );
    for point in [
        Vec2::new(3.0, 0.5),
        Vec2::new(2.0, -0.5),
        Vec2::new(3.5, 0.2),
    ] {
        let sweeps = sweep_point_segment(start_path, end_path, [point, point]);
        let mut line = format!("  point {point}: {} sweep(s)", sweeps.len());
        for s in sweeps {
            let _ = write!(line, "  [time {:.4}, along {:.4}]", s.time, s.along);
        }
        println!("{line}");
    }
}

/// A character grid over the world rectangle `VIEW_MIN..VIEW_MAX`, `y` up.
struct Canvas {
    cells: Vec<Vec<char>>,
}

impl Canvas {
    fn new() -> Self {
        Self {
            cells: vec![vec![' '; WIDTH]; HEIGHT],
        }
    }

    fn cell(p: Vec2) -> Option<(usize, usize)> {
        let f = (p - VIEW_MIN) / (VIEW_MAX - VIEW_MIN);
        let (col, row) = (
            (f.x * (WIDTH - 1) as f32).round(),
            ((1.0 - f.y) * (HEIGHT - 1) as f32).round(),
        );
        ((0.0..WIDTH as f32).contains(&col) && (0.0..HEIGHT as f32).contains(&row))
            .then_some((row as usize, col as usize))
    }

    fn put(&mut self, p: Vec2, c: char) {
        if let Some((row, col)) = Self::cell(p) {
            self.cells[row][col] = c;
        }
    }

    fn segment(&mut self, a: Vec2, b: Vec2, c: char) {
        let steps = 4 * WIDTH;
        for i in 0..=steps {
            self.put(a.lerp(b, i as f32 / steps as f32), c);
        }
    }

    fn rect(&mut self, aabb: &Aabb2d) {
        let corners = [
            aabb.min,
            Vec2::new(aabb.max.x, aabb.min.y),
            aabb.max,
            Vec2::new(aabb.min.x, aabb.max.y),
        ];
        for i in 0..4 {
            self.segment(corners[i], corners[(i + 1) % 4], '#');
        }
    }

    fn render(&self) -> String {
        self.cells
            .iter()
            .map(|row| row.iter().collect::<String>() + "\n")
            .collect()
    }
}
