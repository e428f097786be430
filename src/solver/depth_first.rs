//! The depth-first search (`Order::DepthFirst`, `Order::DepthFirstPlain`), which the layered
//! search also runs within each layer.

use super::*;
use crate::chunked::ChunkedStack;

/// The depth-first search keeps the positions of the top `RECENT` frames of its path, where
/// it mostly comes and goes, and of every `CHECKPOINT`-th frame below; returning further down
/// than `RECENT`, it replays the moves above the nearest checkpoint (fewer than `CHECKPOINT`
/// plays, about one per return), so a long path costs a frame and a 64th of a position per
/// level: a depth-first path can be a hundred million positions long (FreeCell deal 982 with
/// two cells), and a position is 50 times the size of a frame.
const CHECKPOINT: usize = 64;
const RECENT: usize = 64;

/// Depth-first search with the same table and pruning; children in heuristic order when
/// `sorted`, else in the game's own order.
///
/// The path is a stack of frames, one per position on it, each a run of `moves`: at the run's
/// `start` the move last tried from it (the one that led to the frame above), then the moves
/// still to try, the next one last. So the path's moves need no room of their own, a frame is
/// its start alone, and trying a move pops it off the end. Positions left with no move to
/// try get no frame.
pub(super) struct DepthFirst<G: Game, Y: Keying<G> = GameKeys> {
    deal: G,
    sorted: bool,
    pub(super) keying: Y,
    pub(super) visited: Visited<G, Y::Table>,
    moves: ChunkedStack<G::Move>,
    /// Where each frame's run of `moves` starts.
    frames: ChunkedStack<u32>,
    /// The positions of frames 0, CHECKPOINT, 2 * CHECKPOINT, ... of the path.
    checkpoints: ChunkedStack<G>,
    /// The positions of the top frames: frame `i`'s at `recent[i % RECENT]`, for every frame
    /// from `recent_from` up; pushing a frame overwrites the one `RECENT` below. It grows
    /// with the path, so a search of a few positions (a small layer's) holds a few.
    recent: Vec<G>,
    recent_from: usize,
    room: Room<G, Y::Key>,
    /// For the layered search: a child outside the keying's layer is not entered but handed
    /// out here with its game key (a vector, so that the position's room is on the heap, made
    /// once), and the search pauses.
    pub(super) crossing: Vec<(G, G::Key)>,
    /// A budget that `expand` found overrun while entering a frame's children: the search
    /// stops with it at its next step.
    stopped: Option<Exhausted>,
}

impl<G: Game> DepthFirst<G> {
    pub(super) fn new(deal: &G, budget: Budget, sorted: bool) -> Self {
        let keying = GameKeys { within: None };
        DepthFirst::keyed(deal, sorted, keying, Visited::new(deal, budget))
    }
}

impl<G: Game, Y: Keying<G>> DepthFirst<G, Y> {
    /// A search from `start`, whose key `visited` already holds.
    pub(super) fn keyed(start: &G, sorted: bool, keying: Y, visited: Visited<G, Y::Table>) -> Self {
        let mut search = DepthFirst {
            deal: *start,
            sorted,
            keying,
            visited,
            moves: ChunkedStack::new(),
            frames: ChunkedStack::new(),
            checkpoints: ChunkedStack::new(),
            recent: Vec::new(),
            recent_from: 0,
            room: Room::new(),
            crossing: Vec::new(),
            stopped: None,
        };
        search.push(*start, 0);
        search
    }

    /// Starts again from `position`, keeping the table, once the search before has ended.
    pub(super) fn restart(&mut self, position: G) {
        debug_assert!(self.frames.is_empty() && self.checkpoints.is_empty());
        self.moves.truncate(0);
        self.deal = position;
        self.recent_from = 0;
        self.push(position, 0);
    }

    /// What the search holds besides its table.
    pub(super) fn held_bytes(&self) -> u64 {
        self.frames.bytes()
            + self.checkpoints.bytes()
            + self.moves.bytes()
            + self.room.bytes()
            + (self.recent.capacity() * size_of::<G>()) as u64
    }

    /// The most the search may hold while it enters one more frame: the frame, perhaps a
    /// checkpoint, and a few hundred moves at most.
    fn held_bytes_growing(&self) -> u64 {
        self.held_bytes()
            + self.frames.growth(1)
            + self.checkpoints.growth(1)
            + self.moves.growth(1 << 10)
    }

    /// The moves from the deal to the top frame's last tried move.
    pub(super) fn line(&self) -> Vec<G::Move> {
        (0..self.frames.len())
            .map(|i| self.moves.get(self.frames.get(i) as usize))
            .collect()
    }

    pub(super) fn run(&mut self, until: u64, elsewhere: u64) -> Option<Outcome<G::Move>> {
        while let Some(start) = self.frames.last() {
            if let Some(why) = self.stopped.take() {
                let held = self.held_bytes();
                return Some(self.visited.stopped(why, held));
            }
            if self.moves.len() == start as usize + 1 {
                self.moves.truncate(start as usize);
                self.frames.pop();
                self.return_to_top();
                continue;
            }
            if self.visited.nodes >= until {
                return None;
            }
            let mv = self.moves.pop().expect("a move still to try");
            self.moves.set(start as usize, mv);
            let top = self.frames.len() - 1;
            let child = self.recent[top % RECENT].play(mv);
            if child.is_won() {
                let held = self.held_bytes();
                let moves = shorten(&self.deal, &self.line());
                return Some(self.visited.outcome(Verdict::Won, None, moves, held));
            }
            if !self.keying.covers(&child) {
                self.crossing.push((child, child.key()));
                return None;
            }
            // Entered already, by `expand`, when its frame was pushed.
            self.push(child, elsewhere);
        }
        let held = self.held_bytes();
        // The deal's own children may have overrun a budget, leaving no frame.
        if let Some(why) = self.stopped.take() {
            return Some(self.visited.stopped(why, held));
        }
        Some(self.visited.outcome(Verdict::Lost, None, Vec::new(), held))
    }

    /// Enters a new frame for `position` (the deal, or the child reached by the top frame's
    /// last tried move), unless it has no move to try.
    /// `elsewhere`: bytes held outside this search (as for `run`).
    fn push(&mut self, position: G, elsewhere: u64) {
        self.room.fresh.clear();
        let other_bytes = elsewhere + self.held_bytes_growing();
        if let Err(why) = expand(
            &position,
            self.sorted,
            &self.keying,
            &mut self.visited,
            other_bytes,
            &mut self.room,
        ) {
            self.stopped = Some(why);
            return;
        }
        let Some(&first) = self.room.fresh.first() else {
            return;
        };
        let start = self.moves.len() as u32;
        // The first slot stands for the move to be tried; the best move goes last.
        self.moves.push(first);
        for &mv in self.room.fresh.iter().rev() {
            self.moves.push(mv);
        }
        let depth = self.frames.len();
        if depth.is_multiple_of(CHECKPOINT) {
            self.checkpoints.push(position);
        }
        match self.recent.get_mut(depth % RECENT) {
            Some(slot) => *slot = position,
            None => self.recent.push(position),
        }
        self.recent_from = self.recent_from.max((depth + 1).saturating_sub(RECENT));
        self.frames.push(start);
    }

    /// After a frame is popped: drops its checkpoint, and brings the new top frame's position
    /// back among the recent ones, replaying it from the checkpoint below, if it has left.
    fn return_to_top(&mut self) {
        if self.frames.len().is_multiple_of(CHECKPOINT) {
            self.checkpoints.pop();
        }
        let Some(top) = self.frames.len().checked_sub(1) else {
            return;
        };
        if top < self.recent_from {
            let base = top - top % CHECKPOINT;
            self.recent[base % RECENT] = self.checkpoints.get(base / CHECKPOINT);
            for i in base + 1..=top {
                let via = self.moves.get(self.frames.get(i - 1) as usize);
                self.recent[i % RECENT] = self.recent[(i - 1) % RECENT].play(via);
            }
            self.recent_from = base;
        }
    }
}
