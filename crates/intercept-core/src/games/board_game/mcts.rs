//! A Monte Carlo tree search player for Intercept (UCT): a budget of playouts per turn, each walking the tree
//! by the UCB1 rule, adding one new turn, and playing on up to a depth with the ball-forward policy
//! ([`forward`]); a game not yet won there is scored by how near each side's goal the ball lies ([`lean`]).
//!
//! With tens of legal turns per position and a budget of a few hundred playouts, plain UCT would try each
//! root turn about once. So each node's turns are ranked by the greedy player's aim
//! ([`Aims`](super::players::Aims)) and a node widens progressively ([`widened`]): the search looks hardest at
//! the turns a greedy player likes and checks them against the replies, which is what greedy lacks.
//!
//! [`Mcts`] implements [`Player`]; its tree lives only for one choice. A turn that wins at once is taken
//! without a search, since a won game needs no statistics.

use std::cell::Cell as Slot;

use crate::chance::Chance;

use super::evaluation::Weights;
use super::players::{Aims, Player};
use super::position::{Colour, Position};
use super::turns::{Turn, Variant, can_score, scores, turns_into};

/// UCT with `budget` playouts per turn.
#[derive(Clone, Copy, Debug)]
pub struct Mcts {
    pub budget: u32,
    /// Turns per playout before it is scored by [`Mcts::leaf`].
    pub depth: u32,
    pub variant: Variant,
    /// How a playout the depth cuts short is scored.
    pub leaf: Leaf,
}

/// How a playout that ends without a goal is scored, for White.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Leaf {
    /// By where the ball lies between the goals ([`lean`]): the `mcts` player's.
    Lean,
    /// By the evaluation's chance that White wins from there ([`Weights::win_chance`]): the `expert` player's.
    Evaluation(Weights),
}

/// One node: the position after its turn, and the results of the playouts through it, counted for the
/// side that played the turn into it. Its turns live in the tree's arena, listed when the node is added (its
/// playout's first turn is drawn from them), ranked when the search first stands on it, and taken best ranked
/// first, one more each time the node widens.
#[derive(Clone, Copy)]
struct Node {
    position: Position,
    /// The turn into it, in its parent's stretch of the arena (the root: [`NIL`]).
    turn: u32,
    /// The node's turns in the arena, once listed: `turns..turns + len`.
    turns: u32,
    len: u32,
    listed: bool,
    /// Whether its turns' rank keys are set.
    ranked: bool,
    /// The rank key of the last turn expanded (none yet: `None`).
    last: Option<u64>,
    children: u32,
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
    visits: u32,
    score: f64,
}

/// The `expert` player's playout depth: short playouts, since the evaluation reads the position at their end.
pub const EXPERT_DEPTH: u32 = 2;

/// No node: the end of a list of children.
const NIL: u32 = u32::MAX;

/// A search's tree and buffers, kept by the thread from search to search so a search allocates nothing once
/// they have grown.
#[derive(Default)]
struct Tree {
    nodes: Vec<Node>,
    /// Every node's turns, and each turn's rank key (lower first).
    turns: Vec<Turn>,
    keys: Vec<u64>,
    /// The turns of the position a playout is at.
    scratch: Vec<Turn>,
    /// The nodes a playout passes through, root first.
    path: Vec<u32>,
}

thread_local! {
    static TREES: Slot<Tree> = Slot::new(Tree::default());
}

impl Player for Mcts {
    fn choose<C: Chance>(&self, p: &Position, turns: &[Turn], chance: &mut C) -> usize {
        self.search(p, turns, chance).index
    }
}

/// What a search found: the turn (an index into the turns searched), the mean score of the playouts through
/// it for the side to move, its playouts and the search's playouts in all.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Found {
    pub index: usize,
    /// The side to move's mean playout score through the turn: a playout won counts 1, lost 0, and one the
    /// depth cuts short by the search's [`Leaf`]: for `mcts` [`lean`]'s share by where the ball lies (0.5 +
    /// (row − 7)/13 for White on the 13×13 board when the ball is in line with the goals), for the expert
    /// the evaluation's chance where the playout stops. It says where short playouts end, not how likely a
    /// win is from here; 1 for a turn that wins at once, found without playouts.
    pub score: f64,
    pub visits: u32,
    pub playouts: u32,
}

impl Mcts {
    /// The `expert` player: `budget` playouts of [`EXPERT_DEPTH`] turns, scored by the shipped evaluation.
    pub fn expert(budget: u32, variant: Variant) -> Mcts {
        Mcts { budget, depth: EXPERT_DEPTH, variant, leaf: Leaf::Evaluation(*Weights::shipped()) }
    }

    /// The search behind [`Player::choose`], with how it rates its choice; a winning turn is taken at once.
    pub fn search<C: Chance>(&self, p: &Position, turns: &[Turn], chance: &mut C) -> Found {
        self.search_line(p, turns, chance, 0).0
    }

    /// The search, and the line of play it expects: its turn, then at each node the most visited reply,
    /// while a reply has been tried more than once, up to `most` turns (the principal variation).
    pub fn search_line<C: Chance>(
        &self,
        p: &Position,
        turns: &[Turn],
        chance: &mut C,
        most: usize,
    ) -> (Found, Vec<Turn>) {
        if let Some(win) = turns.iter().position(|t| scores(p, t)) {
            let line = if most > 0 { vec![turns[win]] } else { Vec::new() };
            return (Found { index: win, score: 1.0, visits: 0, playouts: 0 }, line);
        }
        let mut tree = TREES.take();
        let order = self.candidates(p, turns, &mut tree.scratch);
        tree.nodes.clear();
        tree.turns.clear();
        tree.keys.clear();
        tree.nodes.push(Node::new(*p, NIL));
        // The root's turns are the candidates, ranked already: each one's key is its rank.
        tree.turns.extend(order.iter().map(|&i| turns[i]));
        tree.keys.extend(0..order.len() as u64);
        let root = &mut tree.nodes[0];
        (root.listed, root.ranked, root.len) = (true, true, order.len() as u32);
        for _ in 0..self.budget.max(1) {
            self.playout(&mut tree, chance);
        }
        let found = found(&tree, &order);
        let line = principal(&tree, most);
        TREES.set(tree);
        (found, line)
    }
}

/// The most visited child of node `at` (the last of equals): its rank among the children, and its id.
fn most_visited(tree: &Tree, at: usize) -> Option<(usize, usize)> {
    let (mut best, mut best_visits, mut rank) = (None, 0, 0);
    let mut c = tree.nodes[at].first_child;
    while c != NIL {
        let child = &tree.nodes[c as usize];
        if best.is_none() || child.visits >= best_visits {
            (best, best_visits) = (Some((rank, c as usize)), child.visits);
        }
        (c, rank) = (child.next_sibling, rank + 1);
    }
    best
}

/// The principal variation: from the root, the most visited child's turn, at most `most` of them, the
/// first always and later ones while their node has seen more than one playout.
fn principal(tree: &Tree, most: usize) -> Vec<Turn> {
    let (mut line, mut at) = (Vec::new(), 0);
    while line.len() < most {
        let Some((_, child)) = most_visited(tree, at) else { break };
        let node = &tree.nodes[child];
        if !line.is_empty() && node.visits < 2 {
            break;
        }
        line.push(tree.turns[node.turn as usize]);
        at = child;
    }
    line
}

/// The root's most visited child (the last of equals), as an index into the caller's turns, which the
/// root's turn `i` is `order[i]` of.
fn found(tree: &Tree, order: &[usize]) -> Found {
    let root = &tree.nodes[0];
    let best = most_visited(tree, 0).map(|(rank, c)| (rank, &tree.nodes[c]));
    let (visits, score, rank) = best.map_or((0, 0.0, 0), |(rank, c)| (c.visits, c.score, rank));
    let score = if visits > 0 { score / f64::from(visits) } else { 0.5 };
    Found { index: order[rank], score, visits, playouts: root.visits }
}

impl Node {
    fn new(position: Position, turn: u32) -> Node {
        Node {
            position,
            turn,
            turns: 0,
            len: 0,
            listed: false,
            ranked: false,
            last: None,
            children: 0,
            first_child: NIL,
            last_child: NIL,
            next_sibling: NIL,
            visits: 0,
            score: 0.0,
        }
    }
}

impl Mcts {
    /// The root's turns the search weighs, best ranked first: those after which the opponent cannot score
    /// at once, when there are any ("anti-decisive" turns). Widening from greedy's favourites, the search
    /// might otherwise never look at the one turn that parries a threat.
    fn candidates(&self, p: &Position, turns: &[Turn], scratch: &mut Vec<Turn>) -> Vec<usize> {
        let ranked = ranking(p, turns);
        let mut safe: Vec<usize> =
            ranked.iter().copied().filter(|&i| !can_score(&p.play(turns[i]), self.variant, scratch)).collect();
        if let Leaf::Evaluation(w) = &self.leaf {
            by_evaluation(w, p, turns, &mut safe, self.variant, scratch);
        }
        if safe.is_empty() { ranked } else { safe }
    }

    /// Lists node `at`'s turns in the arena, the first time it is asked: none once the game is won. Their
    /// rank keys wait (as 0) for [`Mcts::rank`].
    fn list(&self, tree: &mut Tree, at: usize) {
        let node = &tree.nodes[at];
        if node.listed {
            return;
        }
        let start = tree.turns.len();
        if node.position.winner().is_none() {
            turns_into(&node.position, self.variant, &mut tree.scratch);
            tree.turns.extend_from_slice(&tree.scratch);
            tree.keys.resize(tree.turns.len(), 0);
        }
        let node = &mut tree.nodes[at];
        (node.listed, node.turns, node.len) = (true, start as u32, (tree.turns.len() - start) as u32);
    }

    /// Lists node `at`'s turns and sets their rank keys, the first time the search stands on it.
    fn rank(&self, tree: &mut Tree, at: usize) {
        if tree.nodes[at].ranked {
            return;
        }
        self.list(tree, at);
        let node = &mut tree.nodes[at];
        node.ranked = true;
        let range = node.turns as usize..(node.turns + node.len) as usize;
        if range.is_empty() {
            return;
        }
        let aims = Aims::new(&node.position);
        for (i, (t, key)) in tree.turns[range.clone()].iter().zip(&mut tree.keys[range]).enumerate() {
            let (d, crowd) = aims.of(t);
            *key = u64::from(d) << 56 | u64::from(crowd) << 24 | i as u64;
        }
    }

    /// One playout: select, expand, simulate, back up.
    fn playout<C: Chance>(&self, tree: &mut Tree, chance: &mut C) {
        tree.path.clear();
        tree.path.push(0);
        let mut at = 0;
        self.rank(tree, at);
        while tree.nodes[at].len > 0 && tree.nodes[at].children as usize >= widened(&tree.nodes[at]) {
            at = select(tree, at);
            self.rank(tree, at);
            tree.path.push(at as u32);
        }
        if (tree.nodes[at].children as usize) < widened(&tree.nodes[at]) {
            at = expand(tree, at);
            tree.path.push(at as u32);
        }
        self.list(tree, at);
        let white = self.simulate(tree, at, chance);
        for &n in &tree.path {
            let node = &mut tree.nodes[n as usize];
            // The side that played into a node is the one not to move there.
            let mover = node.position.to_move.other();
            node.visits += 1;
            node.score += if mover == Colour::White { white } else { 1.0 - white };
        }
    }

    /// White's result of random play from node `at` (listed): 1 a White win, 0 a Black win, and in
    /// between, when the depth runs out, by how much nearer the ball is to Black's goal than to White's.
    fn simulate<C: Chance>(&self, tree: &mut Tree, at: usize, chance: &mut C) -> f64 {
        let node = &tree.nodes[at];
        let mut p = node.position;
        let listed = node.turns as usize..(node.turns + node.len) as usize;
        for ply in 0..self.depth {
            // A last turn that cannot move the ball leaves the result as it is: the ball moves only by
            // transfers (I-12, I-13), and only the ball's cell scores a playout.
            if p.winner().is_some() || (ply + 1 == self.depth && p.no_transfer()) {
                break;
            }
            // The first turn from the node's own list, the later ones from the scratch buffer.
            let turns = if ply == 0 {
                &tree.turns[listed.clone()]
            } else {
                turns_into(&p, self.variant, &mut tree.scratch);
                &tree.scratch
            };
            let i = forward(&p, turns, chance);
            p.play_in_place(turns[i]);
        }
        match (p.winner(), &self.leaf) {
            (Some(Colour::White), _) => 1.0,
            (Some(Colour::Black), _) => 0.0,
            (None, Leaf::Lean) => lean(&p),
            (None, Leaf::Evaluation(w)) => {
                let chance = w.win_chance(&p, self.variant, &mut tree.scratch);
                if p.to_move == Colour::White { chance } else { 1.0 - chance }
            }
        }
    }
}

/// Adds the child of `at` after its best ranked turn not yet expanded; returns the child.
fn expand(tree: &mut Tree, at: usize) -> usize {
    let node = tree.nodes[at];
    let range = node.turns as usize..(node.turns + node.len) as usize;
    let keys = &tree.keys[range.clone()];
    // The least key above the last one expanded: the ranking's next turn, without sorting them all.
    let next = (0..keys.len()).filter(|&k| node.last.is_none_or(|last| keys[k] > last)).min_by_key(|&k| keys[k]);
    let k = next.expect("a turn not yet expanded");
    let child = Node::new(node.position.play(tree.turns[range.start + k]), (range.start + k) as u32);
    let id = tree.nodes.len() as u32;
    tree.nodes.push(child);
    let parent = &mut tree.nodes[at];
    parent.last = Some(keys[k]);
    parent.children += 1;
    if parent.first_child == NIL {
        parent.first_child = id;
    } else {
        let last = parent.last_child as usize;
        tree.nodes[last].next_sibling = id;
    }
    tree.nodes[at].last_child = id;
    id as usize
}

/// The child of `at` with the highest UCB1 value (the last of equals).
fn select(tree: &Tree, at: usize) -> usize {
    let log_n = f64::from(tree.nodes[at].visits.max(1)).ln();
    let ucb = |n: &Node| n.score / f64::from(n.visits) + (2.0 * log_n / f64::from(n.visits)).sqrt();
    let (mut best, mut best_ucb) = (NIL, f64::NEG_INFINITY);
    let mut c = tree.nodes[at].first_child;
    while c != NIL {
        let child = &tree.nodes[c as usize];
        let u = ucb(child);
        if best == NIL || u.total_cmp(&best_ucb).is_ge() {
            (best, best_ucb) = (c, u);
        }
        c = child.next_sibling;
    }
    best as usize
}

/// 0.5 plus half the ball's lead towards Black's goal over White's, as a share of the board.
fn lean(p: &Position) -> f64 {
    let (Some(black_goal), Some(white_goal)) = (p.goal_of(Colour::Black), p.goal_of(Colour::White)) else {
        return 0.5;
    };
    let lead = f64::from(p.distance(p.ball, white_goal)) - f64::from(p.distance(p.ball, black_goal));
    0.5 + 0.5 * lead / f64::from(p.size)
}

/// The playout policy: a turn that brings the ball nearest the goal its side attacks (a winning transfer
/// first of all), ties drawn uniformly. Plain random playouts almost never score, so they tell a search
/// nothing about a position; this is greedy's first aim without its costlier second one.
///
/// One draw a ply: the ties are counted, then the drawn one found, as [`Greedy`](super::players::Greedy)
/// does. Only the transfers are measured: every list holds turns that leave the ball where it is (each
/// action is listed first without a transfer), so the nearest is never farther than now, and with no
/// transfer in the list (most plies of a playout) the draw is over the whole list. Greedy's pass, which
/// measures every turn, cost 4% more of a search's instructions here (callgrind).
fn forward<C: Chance>(p: &Position, turns: &[Turn], chance: &mut C) -> usize {
    let Some(goal) = p.target() else {
        return chance.uniform(turns.len());
    };
    let here = p.distance(p.ball, goal);
    let distance = |t: &Turn| t.ball_to.map_or(here, |to| p.distance(to, goal));
    let (mut best, mut farther, mut ties) = (here, 0, 0);
    for d in turns.iter().filter(|t| t.ball_to.is_some()).map(distance) {
        if d < best {
            (best, ties) = (d, 0);
        }
        ties += usize::from(d == best);
        farther += usize::from(d > here);
    }
    if best == here {
        // The turns that keep the ball where it is tie with the transfers that leave it as near.
        ties = turns.len() - farther;
    }
    let k = chance.uniform(ties);
    if ties == turns.len() {
        return k;
    }
    turns.iter().enumerate().filter(|(_, t)| distance(t) == best).nth(k).map(|(i, _)| i).expect("a nearest turn")
}

/// Re-ranks the root's candidates `order` (best first by greedy's aim) by the evaluation of the position
/// each leaves, the opponent's chance lowest first, greedy's rank breaking ties. With a node widening by
/// the square root of its visits the root weighs only its first few candidates, so their order decides
/// what the search can find: at 150 playouts against `mcts` at 150, ranking by greedy's aim won 13 of 30
/// games and ranking by the evaluation 26 (seed 3, turn limit 1,000).
fn by_evaluation(
    w: &Weights,
    p: &Position,
    turns: &[Turn],
    order: &mut Vec<usize>,
    v: Variant,
    scratch: &mut Vec<Turn>,
) {
    let mut keyed: Vec<(f64, usize)> =
        order.iter().enumerate().map(|(rank, &i)| (w.win_chance(&p.play(turns[i]), v, scratch), rank)).collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    *order = keyed.into_iter().map(|(_, rank)| order[rank]).collect();
}

/// The indices of `turns`, best first by the greedy player's aim ([`super::players::Aims`]), so the search
/// widens from the turns a good player would look at first.
fn ranking(p: &Position, turns: &[Turn]) -> Vec<usize> {
    let aims = Aims::new(p);
    let mut keyed: Vec<_> = turns.iter().enumerate().map(|(i, t)| (aims.of(t), i)).collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// How fast a node widens: children per square root of its visits. Measured against the greedy player at
/// 100 playouts, depth 8, 20 games: 0.5 won 20 and lost none, 1 won 13 and lost 2, 2 won 1 and lost 18.
const WIDEN: f64 = 0.5;

/// Progressive widening: a node visited n times may have 1 + √n children. With tens of legal turns a node
/// and a budget of hundreds of playouts, plain UCT would try each root turn once and learn nothing.
fn widened(node: &Node) -> usize {
    (1 + (f64::from(node.visits).sqrt() * WIDEN) as usize).min(node.len as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::Sampler;
    use crate::games::board_game::players::goal_distance;
    use crate::stats::wilson;

    /// Positions of seeded random games where the policy has a choice to make among transfers: some turn
    /// moves the ball, and the side to move has a goal to aim at.
    fn transfer_positions() -> Vec<Position> {
        let (v, mut out) = (Variant::default(), Vec::new());
        for game in 0..20 {
            let (mut chance, mut p) = (Sampler::at_trial(8, 1, game), Position::start());
            for _ in 0..150 {
                if p.winner().is_some() {
                    break;
                }
                let turns = p.turns(v);
                if p.target().is_some() && turns.iter().any(|t| t.ball_to.is_some()) {
                    out.push(p);
                }
                p.play_in_place(turns[chance.uniform(turns.len())]);
            }
        }
        out
    }

    /// The playout policy's one draw a ply picks each of the turns that leave the ball nearest the goal
    /// with chance 1/ties and never another: each turn's share of 4,000 draws holds the exact chance within
    /// its 99.999% Wilson interval, at positions where the transfers bring the ball nearer and where they
    /// do not.
    #[test]
    fn forward_draws_each_nearest_turn_equally() {
        let (mut nearer, mut level) = (0, 0);
        for p in transfer_positions().iter().step_by(7).take(12) {
            let turns = p.turns(Variant::default());
            let distance = |t: &Turn| goal_distance(p, t);
            let best = turns.iter().map(distance).min().expect("a turn");
            let ties = turns.iter().filter(|t| distance(t) == best).count() as u64;
            let mut counts = vec![0u64; turns.len()];
            for k in 0..4000 {
                counts[forward(p, &turns, &mut Sampler::at_trial(3, 1, k))] += 1;
            }
            for (t, &n) in turns.iter().zip(&counts) {
                let exact = if distance(t) == best { 1.0 / ties as f64 } else { 0.0 };
                let ci = wilson(n, 4000, 4.42);
                assert!(ci.low <= exact && exact <= ci.high, "{n} of 4000 for a chance of {exact}\n{p}");
            }
            if best < p.distance(p.ball, p.target().expect("a goal")) { nearer += 1 } else { level += 1 }
        }
        assert!(nearer > 0 && level > 0, "{nearer} positions with a nearer transfer, {level} without");
    }
}
