//! A Monte Carlo tree search player for Intercept (UCT): a budget of playouts per turn, each walking the tree
//! by the UCB1 rule, adding one new turn, and finishing the game with random turns up to a depth, where a
//! game not yet won is scored by how near each side's goal the ball lies.
//!
//! [`Mcts`] implements [`Player`]; its tree lives only for one choice. A turn that wins at once is taken
//! without a search, since a won game needs no statistics.

use rand::{Rng, RngExt};

use super::players::Player;
use super::position::{Colour, Position};
use super::turns::{Turn, Variant};

/// UCT with `budget` playouts per turn.
#[derive(Clone, Copy, Debug)]
pub struct Mcts {
    pub budget: u32,
    /// Random turns per playout before it is scored by the ball's place.
    pub depth: u32,
    pub variant: Variant,
}

/// One node: the position after its turn, and the results of the playouts through it, counted for the
/// side that played the turn into it.
struct Node {
    position: Position,
    turns: Vec<Turn>,
    children: Vec<usize>,
    visits: u32,
    score: f64,
}

impl Player for Mcts {
    fn choose<R: Rng>(&self, p: &Position, turns: &[Turn], rng: &mut R) -> usize {
        if let Some(win) = turns.iter().position(|&t| p.play(t).winner() == Some(p.to_move)) {
            return win;
        }
        let root = Node { position: p.clone(), turns: turns.to_vec(), children: Vec::new(), visits: 0, score: 0.0 };
        let mut tree = vec![root];
        for _ in 0..self.budget.max(1) {
            self.playout(&mut tree, rng);
        }
        let root = &tree[0];
        // Child i was expanded from turn i.
        (0..root.children.len()).max_by_key(|&i| tree[root.children[i]].visits).unwrap_or(0)
    }
}

impl Mcts {
    fn node(&self, position: Position) -> Node {
        let turns = if position.winner().is_some() { Vec::new() } else { position.turns(self.variant) };
        Node { position, turns, children: Vec::new(), visits: 0, score: 0.0 }
    }

    /// One playout: select, expand, simulate, back up.
    fn playout<R: Rng>(&self, tree: &mut Vec<Node>, rng: &mut R) {
        let mut path = vec![0];
        let mut at = 0;
        while tree[at].children.len() == tree[at].turns.len() && !tree[at].turns.is_empty() {
            at = self.select(tree, at);
            path.push(at);
        }
        if tree[at].children.len() < tree[at].turns.len() {
            let turn = tree[at].turns[tree[at].children.len()];
            let child = self.node(tree[at].position.play(turn));
            tree.push(child);
            let id = tree.len() - 1;
            tree[at].children.push(id);
            path.push(id);
            at = id;
        }
        let white = self.simulate(&tree[at].position, rng);
        for &n in &path {
            let node = &mut tree[n];
            // The side that played into a node is the one not to move there.
            let mover = node.position.to_move.other();
            node.visits += 1;
            node.score += if mover == Colour::White { white } else { 1.0 - white };
        }
    }

    /// The child of `at` with the highest UCB1 value.
    fn select(&self, tree: &[Node], at: usize) -> usize {
        let log_n = f64::from(tree[at].visits.max(1)).ln();
        let ucb = |&c: &usize| {
            let n = &tree[c];
            n.score / f64::from(n.visits) + (2.0 * log_n / f64::from(n.visits)).sqrt()
        };
        let children = &tree[at].children;
        *children.iter().max_by(|a, b| ucb(a).total_cmp(&ucb(b))).expect("a child")
    }

    /// White's result of random play from `p`: 1 a White win, 0 a Black win, and in between, when the
    /// depth runs out, by how much nearer the ball is to Black's goal than to White's.
    fn simulate<R: Rng>(&self, p: &Position, rng: &mut R) -> f64 {
        let mut p = p.clone();
        for _ in 0..self.depth {
            if p.winner().is_some() {
                break;
            }
            let turns = p.turns(self.variant);
            p = p.play(turns[rng.random_range(0..turns.len())]);
        }
        match p.winner() {
            Some(Colour::White) => 1.0,
            Some(Colour::Black) => 0.0,
            None => lean(&p),
        }
    }
}

/// 0.5 plus half the ball's lead towards Black's goal over White's, as a share of the board.
fn lean(p: &Position) -> f64 {
    let (Some(black_goal), Some(white_goal)) = (p.goal_of(Colour::Black), p.goal_of(Colour::White)) else {
        return 0.5;
    };
    let lead = f64::from(p.distance(p.ball, white_goal)) - f64::from(p.distance(p.ball, black_goal));
    0.5 + 0.5 * lead / f64::from(p.size)
}
