//! Shortest legal sea paths from one place ([`Paths`]): Dijkstra's search over the places ships may be on,
//! each move counting the spaces of the place it enters (N-8.3: hexes entered, the start counting 0, a box
//! its spaces). A port's hex is land: a path may start or end there, never pass through it.
//!
//! Ties are broken one fixed way, so a path never depends on anything but the map: places are settled in
//! order of distance, then of index (hexes row by row from the top-left, then boxes), and a place keeps the
//! first settled place that reached it at its least distance as the one it is entered from.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{HexMap, Node};

/// The distance of a place no legal path reaches.
pub const UNREACHED: u32 = u32::MAX;

/// Every place's least distance from one start, and the place each is entered from on its shortest path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paths {
    pub from: Node,
    dist: Vec<u32>,
    came_from: Vec<Node>,
}

impl Paths {
    pub(super) fn from(map: &HexMap, from: Node, closed: &[Node]) -> Paths {
        let n = map.nodes();
        let mut paths = Paths { from, dist: vec![UNREACHED; n], came_from: vec![UNREACHED; n] };
        if (from as usize) >= n || !map.passable(from, closed) {
            return paths;
        }
        paths.dist[from as usize] = 0;
        let mut queue = BinaryHeap::from([Reverse((0u32, from))]);
        while let Some(Reverse((d, node))) = queue.pop() {
            // A port is where a path starts or ends: ships do not sail on through a port's land.
            if d > paths.dist[node as usize] || (node != from && map.is_port(node)) {
                continue;
            }
            for &(next, cost) in map.steps(node) {
                let through = d + cost;
                if through < paths.dist[next as usize] && map.passable(next, closed) {
                    paths.dist[next as usize] = through;
                    paths.came_from[next as usize] = node;
                    queue.push(Reverse((through, next)));
                }
            }
        }
        paths
    }

    /// The least spaces entered from the start to `to`, if a legal path reaches it.
    pub fn distance(&self, to: Node) -> Option<u32> {
        self.dist.get(to as usize).copied().filter(|d| *d != UNREACHED)
    }

    /// The places of the shortest path from the start to `to`, both included, if one reaches it.
    pub fn path(&self, to: Node) -> Option<Vec<Node>> {
        self.distance(to)?;
        let mut path = vec![to];
        let mut at = to;
        while at != self.from {
            at = self.came_from[at as usize];
            path.push(at);
        }
        path.reverse();
        Some(path)
    }
}
