//! A bounding-volume hierarchy rebuilt per call: the boxes are split at the median of their
//! centres along the longer side of the centres' bounds until four or fewer remain, then
//! every box walks the tree for the boxes after it.

use super::{overlap, usable};
use bevy_math::{Vec2, bounding::Aabb2d};

/// Boxes per leaf at most.
const LEAF: usize = 4;

#[derive(Clone, Copy, Debug)]
struct Node {
    bounds: Aabb2d,
    /// Leaf: the first item. Inner node: the index of the first child (the second follows).
    first: u32,
    /// Leaf: the number of items; 0 for an inner node.
    count: u32,
}

#[derive(Debug, Default)]
pub(super) struct Bvh {
    nodes: Vec<Node>,
    /// Box indices, grouped by leaf.
    items: Vec<u32>,
    /// Work stack for building (node, first item, end item) and for queries (node).
    build: Vec<(u32, u32, u32)>,
    stack: Vec<u32>,
}

fn union(a: Aabb2d, b: &Aabb2d) -> Aabb2d {
    Aabb2d {
        min: a.min.min(b.min),
        max: a.max.max(b.max),
    }
}

const EMPTY: Aabb2d = Aabb2d {
    min: Vec2::MAX,
    max: Vec2::MIN,
};

impl Bvh {
    pub(super) fn find_pairs(
        &mut self,
        bounds: &[Aabb2d],
        filter: &impl Fn(u32, u32) -> bool,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        self.build_tree(bounds);
        if self.items.is_empty() {
            return;
        }
        for &i in &self.items {
            let a = &bounds[i as usize];
            self.stack.clear();
            self.stack.push(0);
            while let Some(n) = self.stack.pop() {
                let node = self.nodes[n as usize];
                if !overlap(a, &node.bounds) {
                    continue;
                }
                if node.count == 0 {
                    self.stack.extend([node.first, node.first + 1]);
                    continue;
                }
                let leaf = &self.items[node.first as usize..(node.first + node.count) as usize];
                for &j in leaf {
                    if j > i && overlap(a, &bounds[j as usize]) && filter(i, j) {
                        pairs.push((i, j));
                    }
                }
            }
        }
    }

    fn build_tree(&mut self, bounds: &[Aabb2d]) {
        self.nodes.clear();
        self.items.clear();
        self.items.extend(
            bounds
                .iter()
                .enumerate()
                .filter(|(_, b)| usable(b))
                .map(|(i, _)| i as u32),
        );
        if self.items.is_empty() {
            return;
        }
        let centre = |i: u32| (bounds[i as usize].min + bounds[i as usize].max) * 0.5;
        self.nodes.push(Node {
            bounds: EMPTY,
            first: 0,
            count: 0,
        });
        self.build.clear();
        self.build.push((0, 0, self.items.len() as u32));
        while let Some((n, start, end)) = self.build.pop() {
            let items = &mut self.items[start as usize..end as usize];
            let (mut all, mut centres) = (EMPTY, EMPTY);
            for &i in items.iter() {
                all = union(all, &bounds[i as usize]);
                let c = centre(i);
                centres = union(centres, &Aabb2d { min: c, max: c });
            }
            let node = &mut self.nodes[n as usize];
            node.bounds = all;
            if items.len() <= LEAF {
                node.first = start;
                node.count = end - start;
                continue;
            }
            let spread = centres.max - centres.min;
            let axis = usize::from(spread.y > spread.x);
            let middle = items.len() / 2;
            items.select_nth_unstable_by(middle, |&a, &b| {
                centre(a)[axis].total_cmp(&centre(b)[axis]).then(a.cmp(&b))
            });
            let first = self.nodes.len() as u32;
            self.nodes[n as usize].first = first;
            for _ in 0..2 {
                self.nodes.push(Node {
                    bounds: EMPTY,
                    first: 0,
                    count: 0,
                });
            }
            let split = start + middle as u32;
            self.build.push((first, start, split));
            self.build.push((first + 1, split, end));
        }
    }
}
