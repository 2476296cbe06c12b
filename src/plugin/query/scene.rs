//! What a query searches ([`Scene`]), and the searches every query is made of: what a ray
//! meets, what a moving shape hits first, how deep a shape is in something, what touches a
//! shape.
//!
//! A scene is the colliders at one moment of a tick: where the last tick left them (the
//! queries' [`Snapshot`](crate::plugin::tick::publish::Snapshot), which [`SweepQuery`]
//! reads), or where they start this tick (which the characters walk through, inside the
//! tick, so that a wall spawned in their way this tick stops them).
//!
//! [`SweepQuery`]: super::SweepQuery

use super::{CastOptions, PenetrationHit, QueryFilter, RayHit, ShapeCastHit};
use crate::narrow::{
    ALL_EDGES, Shape, ShapePath, Witness, as_convex, beyond_along, contact_intervals,
    contact_normal, on_exits, penetration, penetration_through, project, witness,
};
use crate::plugin::components::Composites;
use crate::plugin::tick::entries::{BoxIndex, Entries, Entry};
use crate::plugin::tick::shapes::wholly_beyond;
use bevy::ecs::entity::{EntityHashMap, EntityHashSet};
use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use bevy::math::bounding::Aabb2d;
use core::ops::ControlFlow;

/// One group of entries a query searches, with the broad phase's index over them (or over
/// some of them).
#[derive(Clone, Copy)]
pub(crate) struct Searched<'a> {
    entries: &'a Entries,
    index: &'a BoxIndex,
    /// The entry each of the index's boxes is, where the index covers some of the entries
    /// (box `k` is entry `subset[index.entry(k)]`); `None` where box `k` is entry
    /// `index.entry(k)`.
    subset: Option<&'a [u32]>,
}

impl<'a> Searched<'a> {
    pub(crate) fn new(
        entries: &'a Entries,
        index: &'a BoxIndex,
        subset: Option<&'a [u32]>,
    ) -> Self {
        Self {
            entries,
            index,
            subset,
        }
    }

    /// The entry of the index's box `k`.
    #[inline]
    fn slot(&self, k: u32) -> usize {
        let i = self.index.entry(k);
        match self.subset {
            Some(subset) => subset[i as usize] as usize,
            None => i as usize,
        }
    }

    #[inline]
    fn entry(&self, k: u32) -> &'a Entry {
        &self.entries.list[self.slot(k)]
    }
}

/// The colliders at one moment, as the queries search them: groups of entries with their
/// indices, which moment of their paths is seen, and the one-way colliders' directions.
#[derive(Clone, Copy)]
pub(crate) struct Scene<'a> {
    pub(crate) groups: [Searched<'a>; 2],
    /// The moment of each path seen: `1` where the tick left it, `0` where it started.
    pub(crate) moment: f32,
    /// Each [`OneWay`](crate::prelude::OneWay) collider's direction in the world.
    pub(crate) one_way: &'a EntityHashMap<Vec2>,
    /// The shapes that name composite colliders' features, where hits name them (`None`
    /// within the tick, whose walks ask no hit's feature).
    pub(crate) composites: Option<&'a Composites>,
}

/// A contact a cast finds: when it starts, with which entry, on which of the cast's paths,
/// the entry's shape standing still, and its one-way direction if it has one.
struct Candidate<'a> {
    t: f32,
    body: &'a Entry,
    path: usize,
    target: ShapePath,
    one_way: Option<Vec2>,
}

/// Whether a collider blocks a mover.
enum Blocks {
    No,
    Yes,
    /// Only motion against this direction.
    OneWay(Vec2),
}

impl<'a> Scene<'a> {
    /// Box `k` of `group`'s shape at the scene's moment.
    #[inline]
    fn shape(&self, group: &Searched, k: u32) -> Shape {
        let path = group.entries.path(group.slot(k));
        if self.moment == 1.0 {
            path.end()
        } else {
            path.at(self.moment)
        }
    }

    /// Box `k` of `group` standing still at the scene's moment.
    #[inline]
    fn target(&self, group: &Searched, k: u32) -> ShapePath {
        ShapePath::still(self.shape(group, k))
    }

    /// How many boxes the scene holds.
    fn len(&self) -> usize {
        self.groups.iter().map(|g| g.index.len()).sum()
    }

    // ------------------------------------------------------------------------------------
    // Rays and segments.

    /// The first collider the segment from `a` to `b` touches, going from `a`.
    pub(crate) fn first_on_segment(
        &self,
        a: Vec2,
        b: Vec2,
        filter: &QueryFilter,
    ) -> Option<RayHit> {
        // The best hit so far: when, which collider, and where it is.
        let mut best: Option<(f32, Entity, usize, u32)> = None;
        let ray = ShapePath::Point([a, b]);
        for (g, group) in self.groups.iter().enumerate() {
            group.index.broad.query_segment(a, b, |i, entered| {
                if best.is_some_and(|(t, ..)| t < entered) {
                    return ControlFlow::Break(());
                }
                // Ties go to the smaller entity, as in `all_on_segment`.
                let entity = group.entry(i).entity;
                if let Some(t) = self.first_touch(&ray, group, i, filter)
                    && best.is_none_or(|(bt, be, ..)| (t, entity) < (bt, be))
                {
                    best = Some((t, entity, g, i));
                }
                ControlFlow::Continue(())
            });
        }
        best.map(|(t, _, g, i)| self.hit(&ray, &self.groups[g], i, t, [a, b]))
    }

    /// Every collider the segment from `a` to `b` touches, each once with its first hit,
    /// nearest to `a` first, into `hits` (cleared).
    pub(crate) fn all_on_segment(
        &self,
        a: Vec2,
        b: Vec2,
        filter: &QueryFilter,
        hits: &mut Vec<RayHit>,
    ) {
        hits.clear();
        let ray = ShapePath::Point([a, b]);
        // The broad phase visits the plane in rows, in order along the segment, and finds a
        // box in a row at most once, and again in a later row only if it found it in every
        // row visited in between (a box spans consecutive rows, and every row between two
        // that meet it meets it too). So each group's hits are kept in three parts: the hits
        // found before the last row, those of the last row not found again yet
        // (`last_row..this_row`), and those of this row (`this_row..`). A collider hit
        // already can only be in the middle part, and moves to this row's part when it is
        // found again. Checking only that part keeps a laser through many colliders linear,
        // where checking every hit so far was quadratic. (A collider is in one group only.)
        // The boxes hit, beside `hits` (a polyline has one box per edge).
        let mut boxes: Vec<u32> = Vec::new();
        for group in &self.groups {
            let (mut row, mut this_row, mut last_row) = (None, hits.len(), hits.len());
            group
                .index
                .broad
                .query_segment_in_rows(a, b, |i, _, visited| {
                    if row != Some(visited) {
                        (row, last_row, this_row) = (Some(visited), this_row, hits.len());
                    }
                    if let Some(j) = boxes[last_row..this_row].iter().position(|&k| k == i) {
                        this_row -= 1;
                        hits.swap(last_row + j, this_row);
                        boxes.swap(last_row + j, this_row);
                    } else if let Some(t) = self.first_touch(&ray, group, i, filter) {
                        hits.push(self.hit(&ray, group, i, t, [a, b]));
                        boxes.push(i);
                    }
                    ControlFlow::Continue(())
                });
            boxes.clear();
            boxes.resize(hits.len(), u32::MAX);
        }
        hits.sort_by(|x, y| {
            x.distance
                .total_cmp(&y.distance)
                .then(x.entity.cmp(&y.entity))
        });
        // A polyline hit on several edges: its first hit only.
        if hits.len() > 1 {
            let mut seen = EntityHashSet::default();
            hits.retain(|h| seen.insert(h.entity));
        }
    }

    /// When (as a fraction of the way) the moving point `ray` first touches box `k` of
    /// `group`.
    fn first_touch(
        &self,
        ray: &ShapePath,
        group: &Searched,
        k: u32,
        filter: &QueryFilter,
    ) -> Option<f32> {
        if !filter.accepts(group.entry(k)) {
            return None;
        }
        contact_intervals(ray, &self.target(group, k))
            .first()
            .map(|i| i[0])
    }

    /// The hit of the moving point `ray` on box `k` of `group` at `t`.
    fn hit(&self, ray: &ShapePath, group: &Searched, k: u32, t: f32, [a, b]: [Vec2; 2]) -> RayHit {
        let entry = group.entry(k);
        let w = witness(ray, &self.target(group, k), t, false);
        RayHit {
            entity: entry.entity,
            distance: (b - a).length() * t,
            point: w.point,
            normal: w.normal,
            along: w.along_b,
            feature: match self.composites {
                Some(names) => {
                    names.feature(entry.entity, entry.edge_index(), w.feature_b, w.along_b)
                }
                None => w.feature_b,
            },
        }
    }

    // ------------------------------------------------------------------------------------
    // Moving shapes.

    /// The first hit of any of `paths` (the pieces of one moving shape), leaving out `skip`
    /// besides what `filter` does (without building a set for a few entities); and whether
    /// the shape touches (or overlaps) a collider that blocks at the start, hit or not.
    pub(crate) fn cast_paths(
        &self,
        paths: &[ShapePath],
        options: &CastOptions,
        filter: &QueryFilter,
        skip: &[Entity],
    ) -> (Option<ShapeCastHit>, bool) {
        // Every contact's start, then the first that is a hit, in order of time (ties to the
        // smaller entity): only those up to it are asked whether they block.
        let mut found: Vec<Candidate<'a>> = Vec::new();
        let mut touched = false;
        for (k, path) in paths.iter().enumerate() {
            let bounds = path.swept_bounds();
            for group in &self.groups {
                group.index.broad.query(&bounds, |i| {
                    let body = group.entry(i);
                    if !filter.accepts(body) || skip.contains(&body.entity) {
                        return;
                    }
                    let target = self.target(group, i);
                    let one_way = if options.blocking_only {
                        match self.blocks(body, path, &target) {
                            Blocks::No => return,
                            Blocks::Yes => None,
                            Blocks::OneWay(d) => Some(d),
                        }
                    } else {
                        None
                    };
                    for &[t, _] in contact_intervals(path, &target).iter() {
                        touched |= t == 0.0 && one_way.is_none() && body.blocks();
                        found.push(Candidate {
                            t,
                            body,
                            path: k,
                            target,
                            one_way,
                        });
                    }
                });
            }
        }
        found.sort_by(|x, y| x.t.total_cmp(&y.t).then(x.body.entity.cmp(&y.body.entity)));
        let hit = found.iter().find_map(|c| {
            let path = &paths[c.path];
            let flush = |at: Vec2, near: f32| self.solids_at(at, near, filter, skip, c.body);
            let exits = match (c.one_way, self.composites) {
                (Some(_), Some(composites)) => {
                    composites.exits(c.body.entity, c.body.chain().then(|| c.body.edge()))
                }
                _ => ALL_EDGES,
            };
            let (w, normal) =
                blocking_normal(path, &c.target, c.t, options, (c.one_way, exits), flush)?;
            Some(ShapeCastHit {
                entity: c.body.entity,
                time: c.t,
                point: w.point,
                normal,
            })
        });
        (hit, touched)
    }

    /// Whether `body` blocks a mover on `path` (for moves that only blocking colliders stop).
    fn blocks(&self, body: &Entry, path: &ShapePath, target: &ShapePath) -> Blocks {
        if !body.blocks() {
            return Blocks::No;
        }
        if !body.one_way() {
            return Blocks::Yes;
        }
        match self.one_way.get(&body.entity) {
            Some(&d) if wholly_beyond(&path.at(0.0), &target.at(0.0), d) => Blocks::OneWay(d),
            _ => Blocks::No,
        }
    }

    /// The deepest overlap of any of `shapes` (the pieces of one shape), with blocking
    /// colliders only if `blocking`; `None` if they overlap none (touching is not
    /// overlapping).
    pub(crate) fn deepest(
        &self,
        shapes: &[Shape],
        filter: &QueryFilter,
        blocking: bool,
        skip: &[Entity],
    ) -> Option<PenetrationHit> {
        // The hit, how deep the shape overlaps its collider (by which they are ranked), and
        // the shape.
        let mut best: Option<(PenetrationHit, f32, Shape)> = None;
        for probe in shapes {
            let bounds = ShapePath::still(*probe).swept_bounds();
            for group in &self.groups {
                group.index.broad.query(&bounds, |i| {
                    let body = group.entry(i);
                    if !filter.accepts(body)
                        || skip.contains(&body.entity)
                        || blocking && (!body.blocks() || body.one_way())
                    {
                        return;
                    }
                    // Out of a concave polygon's piece through the outline only.
                    let exits = self.composites.map_or(ALL_EDGES, |c| {
                        c.exits(body.entity, body.chain().then(|| body.edge()))
                    });
                    if let Some((p, overlap)) =
                        penetration_through(probe, &self.shape(group, i), exits)
                        && best
                            .as_ref()
                            .is_none_or(|(b, o, _)| (overlap, body.entity) > (*o, b.entity))
                    {
                        let hit = PenetrationHit {
                            entity: body.entity,
                            depth: p.depth,
                            direction: p.direction,
                        };
                        best = Some((hit, overlap, *probe));
                    }
                });
            }
        }
        let (mut hit, _, probe) = best?;
        hit.depth = self.through_whole(&probe, hit);
        Some(hit)
    }

    /// How far the push `hit` of `probe` out of one piece of a polygon (or element of any
    /// composite) goes on along its direction, so that it leaves the whole collider: a shape
    /// wider than a thin part of the polygon, pushed out of one piece through the outline,
    /// would still overlap the piece beyond it, whose way out is back (a push to and fro).
    /// On along the same way past each piece it still overlaps, a few pieces at most.
    fn through_whole(&self, probe: &Shape, hit: PenetrationHit) -> f32 {
        let mut depth = hit.depth;
        if self
            .composites
            .is_none_or(|c| !c.0.contains_key(&hit.entity))
        {
            return depth;
        }
        for _ in 0..8 {
            let moved = probe.translated(hit.direction * depth);
            let bounds = ShapePath::still(moved).swept_bounds();
            // Rounding's share: a few ulps of the coordinates (placed by `f32` arithmetic,
            // the shape may end a hair inside the next piece along the outline).
            let rounding = bounds
                .min
                .abs()
                .max(bounds.max.abs())
                .max_element()
                .max(1.0)
                * (1.0 / (1 << 18) as f32);
            let mut more = 0.0_f32;
            for group in &self.groups {
                group.index.broad.query(&bounds, |i| {
                    if group.entry(i).entity == hit.entity {
                        let piece = self.shape(group, i);
                        if penetration(&moved, &piece).is_some_and(|p| p.depth > rounding) {
                            more = more.max(beyond_along(&moved, &piece, hit.direction));
                        }
                    }
                });
            }
            if more <= 0.0 {
                break;
            }
            depth += more;
        }
        depth
    }

    /// The blocking colliders (not one-way) within `near` of `at` that `filter` accepts,
    /// but `skip` and the entry `except`, as shapes: what a corner of that entry there may be
    /// flush with.
    fn solids_at(
        &self,
        at: Vec2,
        near: f32,
        filter: &QueryFilter,
        skip: &[Entity],
        except: &Entry,
    ) -> Vec<Shape> {
        let bounds = Aabb2d {
            min: at - Vec2::splat(near),
            max: at + Vec2::splat(near),
        };
        let mut found = Vec::new();
        for group in &self.groups {
            group.index.broad.query(&bounds, |i| {
                let entry = group.entry(i);
                if !core::ptr::eq(entry, except)
                    && entry.blocks()
                    && !entry.one_way()
                    && filter.accepts(entry)
                    && !skip.contains(&entry.entity)
                {
                    found.push(self.shape(group, i));
                }
            });
        }
        found
    }

    // ------------------------------------------------------------------------------------
    // Shapes standing still.

    /// Each collider that touches or overlaps `probe` (a shape standing still), once per box
    /// of it found near.
    pub(crate) fn touching(
        &self,
        probe: &ShapePath,
        filter: &QueryFilter,
        mut found: impl FnMut(&Entry) -> ControlFlow<()>,
    ) {
        let bounds = probe.swept_bounds();
        for group in &self.groups {
            let mut flow = ControlFlow::Continue(());
            group.index.broad.query(&bounds, |i| {
                let entry = group.entry(i);
                if flow.is_continue()
                    && filter.accepts(entry)
                    && !contact_intervals(probe, &self.target(group, i)).is_empty()
                {
                    flow = found(entry);
                }
            });
            if flow.is_break() {
                return;
            }
        }
    }

    /// The collider nearest `point`, its point nearest it and the distance, searched in boxes
    /// of growing size around the point.
    pub(crate) fn nearest(
        &self,
        point: Vec2,
        filter: &QueryFilter,
    ) -> Option<super::PointProjection> {
        let entries = self.len();
        let any = entries > 0;
        // Boxes of growing size around the point: a collider outside one of half size `h`
        // is farther than `h`, so the nearest found within `h` is the nearest of all.
        let mut half = 1.0_f32.max(point.abs().max_element() * 1e-4);
        while any && half.is_finite() {
            let window = Aabb2d {
                min: point - Vec2::splat(half),
                max: point + Vec2::splat(half),
            };
            let mut best: Option<super::PointProjection> = None;
            let mut visited = 0;
            for group in &self.groups {
                group.index.broad.query(&window, |i| {
                    visited += 1;
                    let body = group.entry(i);
                    if !filter.accepts(body) {
                        return;
                    }
                    let (on, distance) = project(&self.shape(group, i), point);
                    if best.is_none_or(|b| (distance, body.entity) < (b.distance, b.entity)) {
                        best = Some(super::PointProjection {
                            entity: body.entity,
                            point: on,
                            distance,
                        });
                    }
                });
            }
            if let Some(best) = best
                && best.distance <= half
            {
                return Some(best);
            }
            // The window holds every collider and none passed the filter.
            if best.is_none() && visited >= entries {
                return None;
            }
            half *= 4.0;
        }
        None
    }
}

/// Whether the shape on `path`, touching `target` at `t`, hits it: the contact's witness and
/// normal if it does. It passes a one-way collider it does not move against, and what it
/// starts touching while it moves away from it or along it (with
/// [`CastOptions::ignore_touching_leaving`]). For moves that only blocking colliders stop, a
/// graze along a surface is no hit either; and at a sharp corner of the collider, the
/// normals are those of the union of the colliders flush there (`neighbours`) and of the
/// shape's own corner: it passes if one lets it on (the next tile, level with the floor it
/// slides on), and hits along the one that opposes it least if none does.
fn blocking_normal(
    path: &ShapePath,
    target: &ShapePath,
    t: f32,
    options: &CastOptions,
    (one_way, exits): (Option<Vec2>, u8),
    neighbours: impl FnOnce(Vec2, f32) -> Vec<Shape>,
) -> Option<(Witness, Vec2)> {
    let w = witness(path, target, t, false);
    // A one-way concave polygon blocks on its outline only (`exits`: its piece's edges on
    // the outline), never on a diagonal inside it.
    if one_way.is_some()
        && !on_exits(
            w.feature_b,
            exits,
            as_convex(&target.at(t)).vertices().len(),
        )
    {
        return None;
    }
    let starts_touching = options.ignore_touching_leaving && t == 0.0;
    if !(one_way.is_some() || starts_touching || options.blocking_only) {
        return Some((w, w.normal));
    }
    let motion = w.relative_motion;
    let leaving = |n: Vec2| motion.dot(n) >= -1e-5 * motion.length();
    // Moving against a one-way direction only.
    if one_way.is_some_and(leaving) {
        return None;
    }
    let (normal, _) = if options.blocking_only {
        contact_normal(
            &path.at(t),
            &target.at(t),
            w.point,
            w.normal,
            motion,
            neighbours,
        )
    } else {
        (w.normal, false)
    };
    // A graze (moving along the surface) stops nothing that only blocking colliders stop.
    if (starts_touching || options.blocking_only) && leaving(normal) {
        return None;
    }
    Some((w, normal))
}
