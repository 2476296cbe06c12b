//! The neighbour lists of [`Contacts`](super::Contacts): for each entity, the colliders it
//! touches, as doubly linked lists in one table.

use crate::plugin::events::CollisionEvent;
use bevy::ecs::prelude::*;

/// A contact's nodes in the neighbour lists: its two colliders', and its bodies' (`NONE`
/// where a side has no body of its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub(super) struct Links([u32; 4]);

impl Links {
    pub(super) const NONE: Self = Self([NONE; 4]);
}

/// Lists of entities per entity, as doubly linked lists in one table whose free slots are
/// reused: contacts coming and going allocate nothing once the table has grown to the most
/// at once, and a contact leaves its lists in constant time (each contact knows its nodes).
/// Each list's head is found by the entity's index, without hashing.
#[derive(Clone, Default, Debug)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub(super) struct Neighbours {
    /// The first node of each entity's list, by entity index (a head is the entity's only if
    /// the entity matches).
    heads: Vec<(Entity, u32)>,
    nodes: Vec<Node>,
    /// The first free node, chained through their `next`.
    free: u32,
}

/// One entry of an entity's list: `to` touches `of`.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
struct Node {
    of: Entity,
    to: Entity,
    previous: u32,
    next: u32,
}

const NONE: u32 = u32::MAX;

impl Neighbours {
    /// The first node of `entity`'s list (`NONE` if empty).
    fn head(&self, entity: Entity) -> u32 {
        match self.heads.get(entity.index_u32() as usize) {
            Some(&(e, node)) if e == entity => node,
            _ => NONE,
        }
    }

    fn set_head(&mut self, entity: Entity, node: u32) {
        let i = entity.index_u32() as usize;
        if self.heads.len() <= i {
            self.heads.resize(i + 1, (Entity::PLACEHOLDER, NONE));
        }
        self.heads[i] = (entity, node);
    }

    /// The lists a contact is in: each collider's, and each side's body's (if it has one of
    /// its own).
    fn sides(event: &CollisionEvent) -> [Option<(Entity, Entity)>; 4] {
        [
            Some((event.entity, event.other)),
            Some((event.other, event.entity)),
            event
                .body
                .filter(|&b| b != event.entity)
                .map(|b| (b, event.other)),
            event
                .other_body
                .filter(|&b| b != event.other)
                .map(|b| (b, event.entity)),
        ]
    }

    /// Adds an event's contact to the lists of its colliders and bodies (marked changed).
    pub(super) fn link(&mut self, event: &CollisionEvent, changed: &mut Vec<Entity>) -> Links {
        Links(Self::sides(event).map(|side| match side {
            Some((of, to)) => {
                changed.push(of);
                self.add(of, to)
            }
            None => NONE,
        }))
    }

    /// Removes a contact's nodes from their lists (its colliders and bodies marked changed).
    pub(super) fn unlink(
        &mut self,
        links: Links,
        event: &CollisionEvent,
        changed: &mut Vec<Entity>,
    ) {
        for (side, node) in Self::sides(event).into_iter().zip(links.0) {
            if let Some((of, _)) = side {
                changed.push(of);
            }
            if node != NONE {
                self.remove(node);
            }
        }
    }

    /// Makes room for `additional` more nodes.
    pub(super) fn reserve(&mut self, additional: usize) {
        self.nodes.reserve(additional);
    }

    fn add(&mut self, of: Entity, to: Entity) -> u32 {
        if self.nodes.is_empty() {
            self.free = NONE;
        }
        let next = self.head(of);
        let node = Node {
            of,
            to,
            previous: NONE,
            next,
        };
        let id = if self.free == NONE {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        } else {
            let id = self.free;
            self.free = self.nodes[id as usize].next;
            self.nodes[id as usize] = node;
            id
        };
        if next != NONE {
            self.nodes[next as usize].previous = id;
        }
        self.set_head(of, id);
        id
    }

    fn remove(&mut self, id: u32) {
        let Node {
            of, previous, next, ..
        } = self.nodes[id as usize];
        if previous == NONE {
            self.set_head(of, next);
        } else {
            self.nodes[previous as usize].next = next;
        }
        if next != NONE {
            self.nodes[next as usize].previous = previous;
        }
        self.nodes[id as usize].next = self.free;
        self.free = id;
    }

    pub(super) fn of(&self, entity: Entity) -> impl Iterator<Item = Entity> + '_ {
        let mut node = self.head(entity);
        core::iter::from_fn(move || {
            let &Node { to, next, .. } = self.nodes.get(node as usize)?;
            node = next;
            Some(to)
        })
    }
}
