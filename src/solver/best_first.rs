//! The best-first search (`Order::BestFirst`).

use super::*;

/// A frontier entry of the best-first search: the best score first, the newest (highest node
/// number) among equals. The position lies apart, at `slot` of `BestFirst::positions`: the
/// heap moves its entries as it sifts, and a position is hundreds of bytes.
struct Open {
    score: i32,
    node: u32,
    slot: u32,
}

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        (self.score, self.node) == (other.score, other.node)
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Open {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.score, self.node).cmp(&(other.score, other.node))
    }
}

/// Best-first search. Every position entered in the table is pushed on the frontier once and
/// expanded once when popped, so when the frontier empties without a win, every position
/// reachable in the (safe-move pruned) graph has been expanded: "lost" is proven.
pub(super) struct BestFirst<G: Game> {
    deal: G,
    pub(super) visited: Visited<G>,
    /// For each position entered: the position it was reached from, and the move.
    parents: Vec<(u32, Option<G::Move>)>,
    frontier: std::collections::BinaryHeap<Open>,
    /// The frontier's positions by slot; a slot freed when its position leaves the frontier
    /// (`free_slots`) takes the next one pushed.
    positions: Vec<G>,
    free_slots: Vec<u32>,
    /// The position being expanded (its node number), its moves, and the next one to try.
    expanding: Option<(u32, G)>,
    moves: Vec<G::Move>,
    next_move: usize,
}

impl<G: Game> BestFirst<G> {
    pub(super) fn new(deal: &G, budget: Budget) -> Self {
        let mut frontier = std::collections::BinaryHeap::new();
        frontier.push(Open {
            score: deal.heuristic(),
            node: 0,
            slot: 0,
        });
        BestFirst {
            deal: *deal,
            visited: Visited::new(deal, budget),
            parents: vec![(0, None)],
            frontier,
            positions: vec![*deal],
            free_slots: Vec::new(),
            expanding: None,
            moves: Vec::new(),
            next_move: 0,
        }
    }

    /// What the search holds besides its table.
    pub(super) fn held_bytes(&self) -> u64 {
        (self.parents.capacity() * size_of::<(u32, Option<G::Move>)>()
            + self.frontier.capacity() * size_of::<Open>()
            + self.positions.capacity() * size_of::<G>()
            + self.free_slots.capacity() * size_of::<u32>()) as u64
    }

    pub(super) fn run(&mut self, until: u64, elsewhere: u64) -> Option<Outcome<G::Move>> {
        loop {
            let (node, position) = match self.expanding {
                Some(expanding) => expanding,
                None => {
                    let Some(Open { node, slot, .. }) = self.frontier.pop() else {
                        let held = self.held_bytes();
                        return Some(self.visited.outcome(Verdict::Lost, None, Vec::new(), held));
                    };
                    let position = self.positions[slot as usize];
                    self.free_slots.push(slot);
                    self.moves.clear();
                    match position.safe_move() {
                        Some(mv) => self.moves.push(mv),
                        None => position.search_moves(&mut self.moves),
                    }
                    self.next_move = 0;
                    self.expanding = Some((node, position));
                    (node, position)
                }
            };
            while self.next_move < self.moves.len() {
                if self.visited.nodes >= until {
                    return None;
                }
                let mv = self.moves[self.next_move];
                self.next_move += 1;
                let child = position.play(mv);
                if child.is_won() {
                    let line = line_through(&self.parents, node, mv);
                    let held = self.held_bytes();
                    let moves = shorten(&self.deal, &line);
                    return Some(self.visited.outcome(Verdict::Won, None, moves, held));
                }
                // The frontier and parents may double as well as the table.
                match self
                    .visited
                    .admit(child.key(), elsewhere + 2 * self.held_bytes())
                {
                    Admission::Seen => continue,
                    Admission::Stop(why) => {
                        let held = self.held_bytes();
                        return Some(self.visited.stopped(why, held));
                    }
                    Admission::New => {}
                }
                let id = self.parents.len() as u32;
                self.parents.push((node, Some(mv)));
                let slot = match self.free_slots.pop() {
                    Some(slot) => {
                        self.positions[slot as usize] = child;
                        slot
                    }
                    None => {
                        self.positions.push(child);
                        self.positions.len() as u32 - 1
                    }
                };
                self.frontier.push(Open {
                    score: child.heuristic(),
                    node: id,
                    slot,
                });
            }
            self.expanding = None;
        }
    }
}
