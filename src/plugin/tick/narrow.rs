//! **Narrow phase**: when, inside the tick, each candidate pair touches.
//!
//! Reads: [`CandidatePairs`] (pairs whose layers do not interact, or of one body, are left
//! out here), the paths of their entries ([`Paths`], [`RestingColliders`]), and the hits
//! the responders answered ([`Paths::hits`]).
//! Writes: [`ContactSpans`] (the touching pairs, each with its contact intervals, a polyline
//! once per collider it touches, its edges' intervals merged) and [`SweepStats`]'
//! `touching_pairs`, `exact_pairs`, `batched_pairs`, `narrow_phase_time` and
//! `narrow_phase_tasks`.

use super::broad::CandidatePairs;
use super::entries::{Entry, Slot, TickEntries, hold_margin};
use super::gather::Motions;
use super::parts::{reset, run_parts};
use super::respond::Paths;
use super::rest::RestingColliders;
use super::shapes::grown;
use crate::SweepSettings;
use crate::geometry::robust::expansions;
use crate::narrow::{PointBoxBatch, ShapePath, contact_intervals_of_valid, point_box_relative};
use crate::plugin::SweepStats;
use bevy::ecs::prelude::*;
use bevy::ecs::system::NonSendMarker;
use bevy::math::Vec2;
use bevy::platform::time::Instant;

/// The narrow phase's hand-off: every pair that touches in this tick, with when.
#[derive(Resource, Default)]
pub(crate) struct ContactSpans {
    /// One part per part of the candidate pairs, then one of the polylines' merged contacts
    /// (parts beyond `count` are spare buffers).
    pub(crate) parts: Vec<SpanPart>,
    pub(crate) count: usize,
    /// Scratch of the merge: the touching pairs with a polyline edge, from every part.
    chains: Vec<ChainPair>,
}

impl ContactSpans {
    /// This tick's parts.
    pub(crate) fn parts(&self) -> &[SpanPart] {
        &self.parts[..self.count]
    }
}

/// The touching pairs of one part.
#[derive(Default)]
pub(crate) struct SpanPart {
    pub(crate) touching: Vec<Touching>,
    /// The contact intervals of the touching pairs (and of the sources).
    pub(crate) spans: Vec<[f32; 2]>,
    /// The edge pairs a polyline's merged contact is made of.
    pub(crate) sources: Vec<Source>,
    /// The touching pairs with a polyline edge, left to the merge.
    chains: Vec<ChainPair>,
    /// Scratch: the part's pairs of a point and a box, for the SIMD batch.
    point_box: Vec<(u32, ([Vec2; 2], Vec2))>,
    /// Pairs that needed exact arithmetic, and pairs of a point and a box (in SIMD batches).
    exact: usize,
    batched: usize,
}

impl SpanPart {
    fn clear(&mut self) {
        self.touching.clear();
        self.spans.clear();
        self.sources.clear();
        self.chains.clear();
        self.exact = 0;
        self.batched = 0;
    }

    /// The intervals of a range of `spans`.
    #[inline]
    pub(crate) fn spans(&self, (first, count): (u32, u32)) -> &[[f32; 2]] {
        &self.spans[first as usize..(first + count) as usize]
    }

    /// The edge pairs of a polyline's contact (none for a pair of two colliders).
    #[inline]
    pub(crate) fn sources(&self, touching: &Touching) -> &[Source] {
        let (first, count) = touching.sources;
        &self.sources[first as usize..(first + count) as usize]
    }

    /// Adds a touching pair of `entries`, smaller entity first: with an edge of a polyline
    /// to the merge, the others as they are.
    fn push(&mut self, entries: TickEntries, a: Slot, b: Slot, intervals: &[[f32; 2]]) {
        let (ea, eb) = (entries.entry(a), entries.entry(b));
        let (a, b, ea, eb) = if eb.entity < ea.entity {
            (b, a, eb, ea)
        } else {
            (a, b, ea, eb)
        };
        let spans = (self.spans.len() as u32, intervals.len() as u32);
        self.spans.extend_from_slice(intervals);
        if ea.merged() || eb.merged() {
            self.chains.push(ChainPair::new(a, b, ea, eb, spans));
        } else {
            self.touching.push(Touching {
                a,
                b,
                spans,
                sources: (0, 0),
            });
        }
    }
}

/// A touching pair, smaller entity first, and when it touches.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Touching {
    pub(crate) a: Slot,
    pub(crate) b: Slot,
    /// Its contact intervals in its part's `spans`: first and count.
    pub(crate) spans: (u32, u32),
    /// For a polyline's contact, the edge pairs it merges in its part's `sources`.
    pub(crate) sources: (u32, u32),
}

/// An edge pair of a polyline's contact: the place of an event at a moment is taken from the
/// edge pair that touches nearest that moment.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Source {
    pub(crate) a: Slot,
    pub(crate) b: Slot,
    pub(crate) spans: (u32, u32),
}

/// A touching pair with a polyline edge, before the merge.
#[derive(Clone, Copy, Debug)]
struct ChainPair {
    /// The two colliders, and the edges (of the sides that are polylines), which order the
    /// pairs the same way on any number of threads.
    key: (Entity, Entity, u32, u32),
    a: Slot,
    b: Slot,
    /// Its intervals in the spans of part `part`.
    part: u32,
    spans: (u32, u32),
}

impl ChainPair {
    fn new(a: Slot, b: Slot, ea: &Entry, eb: &Entry, spans: (u32, u32)) -> Self {
        Self {
            key: (ea.entity, eb.entity, ea.edge(), eb.edge()),
            a,
            b,
            part: 0,
            spans,
        }
    }
}

/// Solves every candidate pair, part by part (in parallel when allowed), then merges the
/// contacts of each polyline's edges with each collider.
pub(crate) fn narrow_phase(
    _main_thread: NonSendMarker,
    settings: Res<SweepSettings>,
    candidates: Res<CandidatePairs>,
    motions: Res<Motions>,
    paths: Res<Paths>,
    resting: Res<RestingColliders>,
    mut spans: ResMut<ContactSpans>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    let entries = TickEntries {
        swept: paths.entries(&motions),
        resting: &resting.group.entries,
    };
    let pairs = candidates.parts();
    let spans = &mut *spans;
    // A part per part of the pairs, one for the responders' bounces, one for their other
    // hits, one for the merge.
    spans.count = pairs.len() + 3;
    reset(&mut spans.parts, spans.count, SpanPart::clear);
    let tasks = run_parts(&settings, &mut spans.parts[..pairs.len()], |p, out| {
        solve(entries, &pairs[p], out);
    });
    for &(piece, solid, span, bounce) in &paths.hits {
        let part = pairs.len() + usize::from(!bounce);
        spans.parts[part].push(entries, piece, solid, &[span]);
    }
    spans.merge_chains(entries, pairs.len() as u32);
    let parts = spans.parts();
    stats.touching_pairs = parts.iter().map(|p| p.touching.len()).sum();
    stats.exact_pairs = parts.iter().map(|p| p.exact).sum();
    stats.batched_pairs = parts.iter().map(|p| p.batched).sum();
    stats.narrow_phase_time = began.elapsed();
    stats.narrow_phase_tasks = tasks;
}

/// The contact intervals of one part's pairs: the pairs of a point and a box eight at a time
/// with SIMD, the others one by one.
fn solve(entries: TickEntries, pairs: &[(Slot, Slot)], out: &mut SpanPart) {
    let before = expansions();
    out.point_box.clear();
    for (k, &(a, b)) in (0u32..).zip(pairs) {
        // Layers that do not interact, and parts of one body, are left out here rather than
        // in the broad phase, which then reads no entry.
        if !entries.entry(a).interacts_with(entries.entry(b)) {
            continue;
        }
        let (ea, eb) = (entries.entry(a), entries.entry(b));
        if ea.is_piece() || eb.is_piece() || ea.held_with(eb) || eb.held_with(ea) {
            solve_windowed(entries, a, b, out);
            continue;
        }
        let (pa, pb) = (entries.path(a), entries.path(b));
        if let Some(relative) = point_box_relative(&pa, &pb) {
            out.point_box.push((k, relative));
            continue;
        }
        // Every entry's path is valid (checked in the gather).
        let intervals = contact_intervals_of_valid(&pa, &pb);
        if !intervals.is_empty() {
            out.push(entries, a, b, &intervals);
        }
    }
    // (The batch reaches exact arithmetic only through the scalar clip's rare fallback;
    // counted per expansion, an upper bound on the pairs.)
    let point_box = core::mem::take(&mut out.point_box);
    PointBoxBatch::default().relative_intervals(
        point_box
            .iter()
            .map(|&(k, relative)| (k as usize, relative)),
        |k, interval| {
            let (a, b) = pairs[k];
            out.push(entries, a, b, &[interval]);
        },
    );
    out.batched = point_box.len();
    out.point_box = point_box;
    out.exact = (expansions() - before) as usize;
}

/// A pair with a responder: solved over the part of the tick both cover (a piece of a
/// responder's path covers a window of it), its intervals taken back to the tick's time. A
/// sliding or stopped responder against a solid is grown by a hair ([`hold_margin`]) first.
fn solve_windowed(entries: TickEntries, a: Slot, b: Slot, out: &mut SpanPart) {
    let Some((mut pa, mut pb, [w0, w1])) = entries.pair(a, b) else {
        return;
    };
    let (ea, eb) = (entries.entry(a), entries.entry(b));
    let hold = |path: &ShapePath| {
        let by = hold_margin(path);
        ShapePath::between(grown(path.at(0.0), by), grown(path.at(1.0), by)).unwrap_or(*path)
    };
    if ea.held_with(eb) {
        pa = hold(&pa);
    } else if eb.held_with(ea) {
        pb = hold(&pb);
    }
    let mut intervals = contact_intervals_of_valid(&pa, &pb);
    if intervals.is_empty() {
        return;
    }
    let span = w1 - w0;
    for interval in intervals.iter_mut() {
        *interval = [w0 + interval[0] * span, (w0 + interval[1] * span).min(w1)];
    }
    out.push(entries, a, b, &intervals);
}

impl ContactSpans {
    /// Merges the contacts of a polyline's edges with one other collider (a polyline is one
    /// collider) into the last part: their intervals united, where a gap of a few ulps of
    /// time is no gap (contact passing from one edge to the next through their shared vertex
    /// ends on one and starts on the other at the same moment, up to the two solvers'
    /// rounding), and the edge pairs kept as the sources of the contact's places.
    fn merge_chains(&mut self, entries: TickEntries, bounces: u32) {
        let last = self.count - 1;
        let (parts, merged) = self.parts.split_at_mut(last);
        let merged = &mut merged[0];
        self.chains.clear();
        for (p, part) in (0u32..).zip(parts.iter()) {
            self.chains
                .extend(part.chains.iter().map(|&c| ChainPair { part: p, ..c }));
        }
        self.chains.sort_unstable_by_key(|c| c.key);
        for group in self
            .chains
            .chunk_by(|x, y| (x.key.0, x.key.1) == (y.key.0, y.key.1))
        {
            let sources = (merged.sources.len() as u32, group.len() as u32);
            for c in group {
                let spans = parts[c.part as usize].spans(c.spans);
                let own = (merged.spans.len() as u32, spans.len() as u32);
                merged.spans.extend_from_slice(spans);
                merged.sources.push(Source {
                    a: c.a,
                    b: c.b,
                    spans: own,
                });
            }
            // The union of the sources' intervals, in order of their starts.
            let first = merged.spans.len();
            for s in &merged.sources[sources.0 as usize..] {
                let (from, count) = s.spans;
                for k in from..from + count {
                    let span = merged.spans[k as usize];
                    merged.spans.push(span);
                }
            }
            merged.spans[first..].sort_unstable_by(|x, y| x[0].total_cmp(&y[0]));
            let united = unite(&mut merged.spans[first..]);
            merged.spans.truncate(first + united);
            // A responder's bounce is an instant: its place, computed in `f32`, may overlap
            // the solid by a rounding error, which the kernels see as a contact of a few ulps
            // of time, or more where it comes in slowly. A short contact around an answered
            // bounce is that bounce.
            let piece = |slot| entries.entry(slot).is_piece();
            if group.iter().any(|c| piece(c.a) || piece(c.b)) {
                let parts = &*parts;
                let bounced = |span: &[f32; 2]| {
                    group.iter().filter(|c| c.part == bounces).find_map(|c| {
                        let [t, _] = parts[c.part as usize].spans(c.spans)[0];
                        (span[0] <= t && t <= span[1]).then_some(t)
                    })
                };
                for span in &mut merged.spans[first..] {
                    if span[1] - span[0] <= BOUNCE
                        && let Some(t) = bounced(span)
                    {
                        *span = [t, t];
                    } else if span[1] - span[0] <= INSTANT {
                        span[1] = span[0];
                    }
                }
            }
            merged.touching.push(Touching {
                a: group[0].a,
                b: group[0].b,
                spans: (first as u32, united as u32),
                sources,
            });
        }
    }
}

/// A contact of a responder's piece no longer than this (a fraction of the tick, about a
/// hundred ulps of time) is an instant: the rounding of its place at a bounce.
const INSTANT: f32 = 1e-5;

/// A contact no longer than this (a fraction of the tick) around one of a responder's
/// answered bounces is that bounce.
const BOUNCE: f32 = 1e-3;

/// Unites sorted intervals in place, a gap of a few ulps of time being no gap; returns how
/// many there are.
fn unite(spans: &mut [[f32; 2]]) -> usize {
    let mut n = 0;
    for k in 0..spans.len() {
        let [s, e] = spans[k];
        if n > 0 && s <= spans[n - 1][1] + 4.0 * f32::EPSILON {
            spans[n - 1][1] = spans[n - 1][1].max(e);
        } else {
            spans[n] = [s, e];
            n += 1;
        }
    }
    n
}
