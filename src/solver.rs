//! The exhaustive solver: depth-first search over positions with a transposition table.
//!
//! Soundness rests on three facts. (1) Every position reached is stored in the table and is
//! never expanded twice; a depth-first search with a visited set finds a path to a won
//! position exactly when one exists, so a finished search with no win proves "lost". (2) Keys
//! are exact (no hashing down to a fingerprint), so two different positions are never merged,
//! and a key identifies positions only up to the game's declared symmetries. (3) Where the game
//! offers a safe move, only that move is tried: the game guarantees it keeps every win and makes
//! irreversible progress, so by induction on (progress left, distance to a win) the pruned
//! graph still reaches a win from every winnable position. Budgets stop the search early with
//! "unknown", never with "lost".

use crate::chunked::ChunkedStack;
use crate::game::{Game, Layer, LayerKeyer};
use crate::number_set::NumberSet;
use crate::origins::{Origin, Origins};
use crate::table::{KeySet, Offer, Table};
use ahash::AHashSet;
use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::hash::Hash;
use std::marker::PhantomData;
use std::mem::size_of;

/// The order in which the search visits positions. Both visit every reachable position before
/// they answer "lost"; they differ in how soon they find a win and in memory.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Default,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// The three orders below in turn, each going on from where it stopped, with turns that
    /// double each round, until one answers. Each is a complete search, so the first "lost" is
    /// a proof; the orders get stuck on different deals, so taking turns cuts the cost of the
    /// hardest deals.
    #[default]
    Portfolio,
    /// Always expand the most promising position seen so far (by the game's heuristic).
    /// Not trapped in a large winless subtree; holds the frontier's positions in memory.
    BestFirst,
    /// Depth-first, children in heuristic order; memory is the table and one path.
    DepthFirst,
    /// Depth-first, children in the game's own move order (no heuristic).
    DepthFirstPlain,
    /// Beam search: layer by layer from the deal, keeping only the most promising positions
    /// of each layer (by the game's heuristic, one of each family where the game groups
    /// positions: `Game::family`), the beam doubling in width after each run
    /// that ends without a win. A win-finder for games whose wins lie deep: a run that cut no
    /// layer has seen every position, so it proves "lost" too, but usually the budget ends
    /// it first.
    Beam,
    /// The beam guided by the game's second heuristic (`Game::second_heuristic`), for games
    /// that have one: the two heuristics lead the beam to different wins, so a pass over the
    /// deals one leaves unknown wins many of them at a fraction of a deeper pass's cost.
    BeamSecond,
    /// Depth-first within layers (`Game::layer`), the layers in order of rank: a layer's
    /// table is dropped once it is searched, so only one layer's positions (and the entries
    /// waiting for later layers) are held at a time. For proofs that no longer fit in memory
    /// whole; a win is found only once every layer of lower rank is searched.
    Layered,
    /// The deal under each narrower variant (`Game::narrower`: one whose every line of play
    /// is a line here), each by its own default order within the budget; the first win, which
    /// the checker replays under this variant, is the answer. It finds wins only (a loss there
    /// says nothing here): for the wins a variant's own search misses.
    Narrower,
}

impl Order {
    /// The name `--search` takes.
    pub fn name(self) -> String {
        clap::ValueEnum::to_possible_value(&self)
            .expect("every order is named")
            .get_name()
            .to_string()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Budget {
    /// Stop after this many positions expanded.
    pub max_nodes: Option<u64>,
    /// Stop before the transposition table and search stack would grow past this many bytes.
    pub max_memory: Option<u64>,
    /// The beam search's first width (`FIRST_BEAM_WIDTH` unless given). Its runs are the same
    /// on every search of a deal, so a retry within a larger budget may start where an earlier
    /// pass's budget ran out rather than spend a third of its own on the narrower runs again,
    /// or off the earlier pass's widths altogether, for runs that pass never made.
    pub first_beam_width: Option<usize>,
}

impl Budget {
    /// The beam's first width where it is not the usual one: what a deal's record keeps, so
    /// that a retry can tell a beam whose runs have other widths from the one already run.
    pub fn unusual_beam_width(&self) -> Option<usize> {
        self.first_beam_width
            .filter(|&width| width != FIRST_BEAM_WIDTH)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Won,
    Lost,
    Unknown,
}

impl Verdict {
    pub fn letter(self) -> char {
        match self {
            Verdict::Won => 'w',
            Verdict::Lost => 'l',
            Verdict::Unknown => 'u',
        }
    }

    pub fn from_letter(c: char) -> Option<Verdict> {
        match c {
            'w' => Some(Verdict::Won),
            'l' => Some(Verdict::Lost),
            'u' => Some(Verdict::Unknown),
            _ => None,
        }
    }
}

/// Which budget ended a search that found no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exhausted {
    Nodes,
    Memory,
    /// The layered search's temporary file could not grow (`Origins`).
    Disk,
    /// `--search narrower`: no narrower variant was won.
    Narrower,
}

impl Exhausted {
    pub fn describe(self) -> &'static str {
        match self {
            Exhausted::Nodes => "node budget spent (--max-nodes)",
            Exhausted::Memory => "memory budget spent (--max-memory)",
            Exhausted::Disk => {
                "the layered search's temporary file could not grow (free space in TMPDIR)"
            }
            Exhausted::Narrower => {
                "no narrower variant was won (--search narrower finds wins only)"
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct Outcome<M> {
    pub verdict: Verdict,
    pub exhausted: Option<Exhausted>,
    /// For a win, the moves from the deal to the won position.
    pub moves: Vec<M>,
    /// Positions expanded (each distinct position counts once).
    pub nodes: u64,
    /// Positions held in the table at the end (its peak, since nothing is removed); for the
    /// layered search, the most held at once (a layer's table and the entries waiting).
    pub table_entries: usize,
    /// Bytes held by the table and the search stack at their largest.
    pub peak_bytes: u64,
}

/// The depth-first search keeps the positions of the top `RECENT` frames of its path, where
/// it mostly comes and goes, and of every `CHECKPOINT`-th frame below; returning further down
/// than `RECENT`, it replays the moves above the nearest checkpoint (fewer than `CHECKPOINT`
/// plays, about one per return), so a long path costs a frame and a 64th of a position per
/// level: a depth-first path can be a hundred million positions long (FreeCell deal 982 with
/// two cells), and a position is 50 times the size of a frame.
const CHECKPOINT: usize = 64;
const RECENT: usize = 64;

/// How a search names positions in its table: by the game's key, or within one layer of the
/// layered search by a shorter key that tells that layer's positions apart.
trait Keying<G: Game> {
    type Key: Copy;
    type Table: Table<Key = Self::Key>;

    /// The position's table key, or `None` when it lies outside what this search covers
    /// (another layer): such a position is handed out, never entered or looked up.
    fn of(&self, position: &G) -> Option<Self::Key>;
}

/// The game's own key (`Game::key`), within one layer when `within` names one.
#[derive(Clone, Copy)]
struct GameKeys {
    within: Option<Layer>,
}

impl<G: Game> Keying<G> for GameKeys {
    type Key = G::Key;
    type Table = KeySet<G::Key>;

    fn of(&self, position: &G) -> Option<G::Key> {
        match self.within {
            Some(layer) if position.layer() != layer => None,
            _ => Some(position.key()),
        }
    }
}

/// One layer's positions by the game's in-layer key (`Game::layer_keyer`).
struct InLayerKeys<G> {
    layer: Layer,
    keyer: Box<dyn LayerKeyer<G>>,
}

impl<G: Game> Keying<G> for InLayerKeys<G> {
    type Key = u64;
    type Table = NumberSet;

    fn of(&self, position: &G) -> Option<u64> {
        (position.layer() == self.layer).then(|| self.keyer.number(position))
    }
}

/// A child played by `play_children`: the move, the position, its table key (`None` outside
/// the search's part of the graph).
type Child<G, K> = (<G as Game>::Move, G, Option<K>);

/// Plays each of `moves` from `position` into `children` with its table key, and asks for each
/// key's table slot to be fetched: the searches look the children up only after all are
/// played, so their waits for memory overlap.
fn play_children<G: Game, Y: Keying<G>>(
    position: &G,
    moves: &[G::Move],
    keying: &Y,
    table: &Y::Table,
    children: &mut Vec<Child<G, Y::Key>>,
) {
    children.clear();
    for &mv in moves {
        let child = position.play(mv);
        let key = keying.of(&child);
        if let Some(key) = &key {
            table.prefetch(key);
        }
        children.push((mv, child, key));
    }
}

/// Appends the moves to try from `position`: its safe move alone if it has one, else those of
/// its search moves that reach a position not yet in the table, the most promising first.
/// `children` is room for the children (`play_children`).
fn expand<G: Game, Y: Keying<G>>(
    position: &G,
    sorted: bool,
    keying: &Y,
    table: &Y::Table,
    room: &mut Room<G, Y::Key>,
) {
    let Room {
        fresh: moves,
        children,
        scored,
    } = room;
    if let Some(mv) = position.safe_move() {
        moves.push(mv);
        return;
    }
    let start = moves.len();
    position.search_moves(moves);
    play_children(position, &moves[start..], keying, table, children);
    scored.clear();
    // Moves to positions already in the table would be skipped anyway: drop them unscored.
    scored.extend(
        children
            .iter()
            .filter(|(_, child, key)| child.is_won() || key.is_none_or(|key| !table.contains(&key)))
            .map(|(mv, child, _)| (child.heuristic(), *mv)),
    );
    // Stable, so the game's own order breaks ties.
    if sorted {
        scored.sort_by_key(|&(score, _)| Reverse(score));
    }
    moves.truncate(start);
    moves.extend(scored.iter().map(|&(_, mv)| mv));
}

/// Room that `expand` reuses from position to position: the moves found, the children played
/// and their scores.
struct Room<G: Game, K> {
    fresh: Vec<G::Move>,
    children: Vec<Child<G, K>>,
    scored: Vec<(i32, G::Move)>,
}

impl<G: Game, K> Room<G, K> {
    fn new() -> Self {
        Room {
            fresh: Vec::new(),
            children: Vec::new(),
            scored: Vec::new(),
        }
    }

    fn bytes(&self) -> u64 {
        (self.fresh.capacity() * size_of::<G::Move>()
            + self.scored.capacity() * size_of::<(i32, G::Move)>()
            + self.children.capacity() * size_of::<Child<G, K>>()) as u64
    }
}

/// Shortens a winning line: from each position, jump to the furthest later position of the
/// line that one legal move reaches. Positions are compared exactly, so every move's text
/// still describes the position it is played from.
pub fn shorten<G: Game>(deal: &G, line: &[G::Move]) -> Vec<G::Move> {
    let mut positions = vec![*deal];
    for &mv in line {
        positions.push(positions[positions.len() - 1].play(mv));
    }
    let index: ahash::AHashMap<G, usize> =
        positions.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    let mut shorter = Vec::with_capacity(line.len());
    let (mut at, mut moves) = (0, Vec::new());
    while at + 1 < positions.len() {
        let (mut best, mut best_move) = (at + 1, line[at]);
        moves.clear();
        positions[at].legal_moves(&mut moves);
        for &mv in &moves {
            if let Some(&j) = index.get(&positions[at].play(mv)) {
                if j > best {
                    (best, best_move) = (j, mv);
                }
            }
        }
        shorter.push(best_move);
        at = best;
    }
    shorter
}

/// Solves from `deal.search_start()`: a winning line is of search moves from there, which
/// `Game::realize` turns into legal moves from `deal`.
pub fn solve<G: Game>(deal: &G, order: Order, budget: Budget) -> Outcome<G::Move> {
    let start = deal.search_start();
    let deal = &start;
    if let Some(won) = won_already(deal) {
        return won;
    }
    let mut search = match order {
        Order::Portfolio => return portfolio(deal, budget),
        Order::Beam => return beam(deal, budget, G::heuristic),
        Order::BeamSecond => return beam(deal, budget, G::second_heuristic),
        Order::Layered => return layered(deal, budget),
        // A position alone has no variants to try: `GameEntry::solve` deals the narrower ones.
        Order::Narrower => {
            return Outcome {
                verdict: Verdict::Unknown,
                exhausted: Some(Exhausted::Narrower),
                moves: Vec::new(),
                nodes: 0,
                table_entries: 0,
                peak_bytes: 0,
            }
        }
        exhaustive => Search::new(exhaustive, deal, budget),
    };
    search
        .run(u64::MAX, 0)
        .expect("a search with no pause point runs to an answer")
}

/// The portfolio's first turn for each order, in positions; each round doubles it.
const FIRST_TURN_NODES: u64 = 10_000;

/// The three orders take turns, each going on from where it stopped, with turns that double
/// each round, until one answers. Each is a complete search, so a "lost" from any of them is
/// a proof. They share a node budget (their positions add up); under a memory budget each
/// counts what the other two hold.
fn portfolio<G: Game>(deal: &G, budget: Budget) -> Outcome<G::Move> {
    let each = Budget {
        max_nodes: None,
        first_beam_width: None,
        max_memory: budget.max_memory,
    };
    const ORDERS: [Order; 3] = [Order::BestFirst, Order::DepthFirst, Order::DepthFirstPlain];
    let mut searches: Vec<Search<G>> = Vec::with_capacity(ORDERS.len());
    let mut turn = FIRST_TURN_NODES;
    loop {
        for (i, order) in ORDERS.into_iter().enumerate() {
            if searches.len() == i {
                searches.push(Search::new(order, deal, each));
            }
            let others = || searches.iter().enumerate().filter(move |&(j, _)| j != i);
            let spent_elsewhere: u64 = others().map(|(_, s)| s.nodes()).sum();
            let entries_elsewhere: usize = others().map(|(_, s)| s.entries()).sum();
            let elsewhere: u64 = others().map(|(_, s)| s.bytes()).sum();
            let allowed = budget
                .max_nodes
                .map_or(u64::MAX, |max| max.saturating_sub(spent_elsewhere));
            let search = &mut searches[i];
            let until = search.nodes().saturating_add(turn).min(allowed);
            if let Some(mut outcome) = search.run(until, elsewhere) {
                outcome.nodes += spent_elsewhere;
                outcome.table_entries += entries_elsewhere;
                outcome.peak_bytes += elsewhere;
                return outcome;
            }
            if search.nodes() >= allowed {
                return Outcome {
                    verdict: Verdict::Unknown,
                    exhausted: Some(Exhausted::Nodes),
                    moves: Vec::new(),
                    nodes: searches.iter().map(Search::nodes).sum(),
                    table_entries: searches.iter().map(Search::entries).sum(),
                    peak_bytes: searches.iter().map(Search::bytes).sum(),
                };
            }
        }
        turn = turn.saturating_mul(2);
    }
}

/// A search that can stop once it has entered a given number of positions, and go on later
/// from where it stopped.
#[allow(clippy::large_enum_variant)] // one per search, never in a collection
enum Search<G: Game> {
    Best(BestFirst<G>),
    Depth(DepthFirst<G>),
}

impl<G: Game> Search<G> {
    /// One of the three exhaustive orders.
    fn new(order: Order, deal: &G, budget: Budget) -> Self {
        match order {
            Order::BestFirst => Search::Best(BestFirst::new(deal, budget)),
            Order::DepthFirst => Search::Depth(DepthFirst::new(deal, budget, true)),
            Order::DepthFirstPlain => Search::Depth(DepthFirst::new(deal, budget, false)),
            Order::Portfolio
            | Order::Beam
            | Order::BeamSecond
            | Order::Layered
            | Order::Narrower => {
                unreachable!("{order:?} is not one search")
            }
        }
    }

    /// Searches until an answer, a budget spent (both `Some`), or `until` positions entered
    /// (`None`: call again to go on). `elsewhere` is memory held by other searches, counted
    /// against the memory budget.
    fn run(&mut self, until: u64, elsewhere: u64) -> Option<Outcome<G::Move>> {
        match self {
            Search::Best(search) => search.run(until, elsewhere),
            Search::Depth(search) => search.run(until, elsewhere),
        }
    }

    fn visited(&self) -> &Visited<G> {
        match self {
            Search::Best(search) => &search.visited,
            Search::Depth(search) => &search.visited,
        }
    }

    fn nodes(&self) -> u64 {
        self.visited().nodes
    }

    fn entries(&self) -> usize {
        self.visited().table.len()
    }

    /// The table's bytes and the rest of what the search holds.
    fn bytes(&self) -> u64 {
        let held = match self {
            Search::Best(search) => search.held_bytes(),
            Search::Depth(search) => search.held_bytes(),
        };
        self.visited().bytes() + held
    }
}

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

/// The transposition table and the budget, shared by both search orders.
struct Visited<G: Game, T = KeySet<<G as Game>::Key>> {
    table: T,
    nodes: u64,
    budget: Budget,
    game: PhantomData<G>,
}

/// What became of a position offered to the table.
enum Admission {
    New,
    Seen,
    Stop(Exhausted),
}

impl<G: Game> Visited<G> {
    fn new(deal: &G, budget: Budget) -> Self {
        let mut table = KeySet::new();
        table.offer(deal.key(), u64::MAX);
        Visited::holding(table, 1, budget)
    }
}

impl<G: Game, T: Table> Visited<G, T> {
    /// A table already holding some keys, with `nodes` positions entered so far.
    fn holding(table: T, nodes: u64, budget: Budget) -> Self {
        Visited {
            table,
            nodes,
            budget,
            game: PhantomData,
        }
    }

    /// Enters a position's key, unless it is there already or a budget would be overrun.
    /// `other_bytes` is the most the search holds besides the table until its next admission
    /// (its vectors may grow meanwhile).
    fn admit(&mut self, key: T::Key, other_bytes: u64) -> Admission {
        let room = self
            .budget
            .max_memory
            .map_or(u64::MAX, |max| max.saturating_sub(other_bytes));
        match self.table.offer(key, room) {
            Offer::Present => return Admission::Seen,
            Offer::Full => return Admission::Stop(Exhausted::Memory),
            Offer::New => {}
        }
        self.nodes += 1;
        // The rest of the search grows between the table's growths.
        if self.table.bytes() > room {
            return Admission::Stop(Exhausted::Memory);
        }
        if self.budget.max_nodes.is_some_and(|max| self.nodes >= max) {
            return Admission::Stop(Exhausted::Nodes);
        }
        Admission::New
    }

    fn bytes(&self) -> u64 {
        self.table.bytes()
    }

    /// The outcome of a search that a budget stopped.
    fn stopped(&self, why: Exhausted, other_bytes: u64) -> Outcome<G::Move> {
        self.outcome(Verdict::Unknown, Some(why), Vec::new(), other_bytes)
    }

    /// The outcome; nothing shrinks during a search, so the final sizes are the peaks.
    fn outcome(
        &self,
        verdict: Verdict,
        exhausted: Option<Exhausted>,
        moves: Vec<G::Move>,
        other_bytes: u64,
    ) -> Outcome<G::Move> {
        Outcome {
            verdict,
            exhausted,
            moves,
            nodes: self.nodes,
            table_entries: self.table.len(),
            peak_bytes: self.bytes() + other_bytes,
        }
    }
}

/// The outcome for a deal that is won before any move.
fn won_already<G: Game>(deal: &G) -> Option<Outcome<G::Move>> {
    deal.is_won().then(|| Outcome {
        verdict: Verdict::Won,
        exhausted: None,
        moves: Vec::new(),
        nodes: 1,
        table_entries: 1,
        peak_bytes: 0,
    })
}

/// The moves from the deal to the position entered as `node`, then `last`, read back through
/// `parents` (for each position entered: the one it was reached from, and the move).
fn line_through<M: Copy>(parents: &[(u32, Option<M>)], node: u32, last: M) -> Vec<M> {
    let mut line = vec![last];
    let mut at = node;
    while let (parent, Some(via)) = parents[at as usize] {
        line.push(via);
        at = parent;
    }
    line.reverse();
    line
}

/// Best-first search. Every position entered in the table is pushed on the frontier once and
/// expanded once when popped, so when the frontier empties without a win, every position
/// reachable in the (safe-move pruned) graph has been expanded: "lost" is proven.
struct BestFirst<G: Game> {
    deal: G,
    visited: Visited<G>,
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
    fn new(deal: &G, budget: Budget) -> Self {
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
    fn held_bytes(&self) -> u64 {
        (self.parents.capacity() * size_of::<(u32, Option<G::Move>)>()
            + self.frontier.capacity() * size_of::<Open>()
            + self.positions.capacity() * size_of::<G>()
            + self.free_slots.capacity() * size_of::<u32>()) as u64
    }

    fn run(&mut self, until: u64, elsewhere: u64) -> Option<Outcome<G::Move>> {
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

/// Depth-first search with the same table and pruning; children in heuristic order when
/// `sorted`, else in the game's own order.
///
/// The path is a stack of frames, one per position on it, each a run of `moves`: at the run's
/// `start` the move last tried from it (the one that led to the frame above), then the moves
/// still to try, the next one last. So the path's moves need no room of their own, a frame is
/// its start alone, and trying a move pops it off the end. Positions left with no move to
/// try get no frame.
struct DepthFirst<G: Game, Y: Keying<G> = GameKeys> {
    deal: G,
    sorted: bool,
    keying: Y,
    visited: Visited<G, Y::Table>,
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
    crossing: Vec<(G, G::Key)>,
}

impl<G: Game> DepthFirst<G> {
    fn new(deal: &G, budget: Budget, sorted: bool) -> Self {
        let keying = GameKeys { within: None };
        DepthFirst::keyed(deal, sorted, keying, Visited::new(deal, budget))
    }
}

impl<G: Game, Y: Keying<G>> DepthFirst<G, Y> {
    /// A search from `start`, whose key `visited` already holds.
    fn keyed(start: &G, sorted: bool, keying: Y, visited: Visited<G, Y::Table>) -> Self {
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
        };
        search.push(*start);
        search
    }

    /// Starts again from `position`, keeping the table, once the search before has ended.
    fn restart(&mut self, position: G) {
        debug_assert!(self.frames.is_empty() && self.checkpoints.is_empty());
        self.moves.truncate(0);
        self.deal = position;
        self.recent_from = 0;
        self.push(position);
    }

    /// What the search holds besides its table.
    fn held_bytes(&self) -> u64 {
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
    fn line(&self) -> Vec<G::Move> {
        (0..self.frames.len())
            .map(|i| self.moves.get(self.frames.get(i) as usize))
            .collect()
    }

    fn run(&mut self, until: u64, elsewhere: u64) -> Option<Outcome<G::Move>> {
        while let Some(start) = self.frames.last() {
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
            let Some(key) = self.keying.of(&child) else {
                self.crossing.push((child, child.key()));
                return None;
            };
            match self
                .visited
                .admit(key, elsewhere + self.held_bytes_growing())
            {
                Admission::Seen => continue,
                Admission::Stop(why) => {
                    let held = self.held_bytes();
                    return Some(self.visited.stopped(why, held));
                }
                Admission::New => {}
            }
            self.push(child);
        }
        let held = self.held_bytes();
        Some(self.visited.outcome(Verdict::Lost, None, Vec::new(), held))
    }

    /// Enters a new frame for `position` (the deal, or the child reached by the top frame's
    /// last tried move), unless it has no move to try.
    fn push(&mut self, position: G) {
        self.room.fresh.clear();
        expand(
            &position,
            self.sorted,
            &self.keying,
            &self.visited.table,
            &mut self.room,
        );
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

/// The first beam width; each run that ends without a win doubles it.
const FIRST_BEAM_WIDTH: usize = 8;

fn beam<G: Game>(deal: &G, budget: Budget, score: fn(&G) -> i32) -> Outcome<G::Move> {
    let mut spent = 0u64;
    let mut width = budget.first_beam_width.unwrap_or(FIRST_BEAM_WIDTH).max(1);
    loop {
        let run = Budget {
            max_nodes: budget.max_nodes.map(|max| max.saturating_sub(spent)),
            ..budget
        };
        let (mut outcome, cut) = beam_run(deal, run, width, score);
        outcome.nodes += spent;
        if outcome.verdict == Verdict::Won || outcome.exhausted.is_some() || !cut {
            return outcome;
        }
        spent = outcome.nodes;
        width = width.saturating_mul(2);
    }
}

/// One beam search of the given width, positions ranked by `score`; also says whether it cut
/// any layer. A run that cut
/// none expanded every position of every layer, that is, searched the whole graph breadth
/// first, so its "lost" is a proof; after a cut run the verdict is only that no win was found.
fn beam_run<G: Game>(
    deal: &G,
    budget: Budget,
    width: usize,
    score: fn(&G) -> i32,
) -> (Outcome<G::Move>, bool) {
    let mut visited = Visited::new(deal, budget);
    // For each position entered: the position it was reached from, and the move.
    let mut parents: Vec<(u32, Option<G::Move>)> = vec![(0, None)];
    let mut layer: Vec<(u32, G)> = vec![(0, *deal)];
    let mut next: Vec<(i32, u32, G)> = Vec::new();
    let mut moves = Vec::new();
    // The keys of the children a position's moves reach, with the moves, in order.
    let mut keys: Vec<(G::Move, G::Key)> = Vec::new();
    let mut cut = false;
    let mut families: AHashSet<u64> = AHashSet::new();
    // The places of `next`'s positions, best first; never longer than `next`.
    let mut ranking: Vec<(Reverse<i32>, u32)> = Vec::new();
    let held = |parents: &Vec<(u32, Option<G::Move>)>, next: &Vec<(i32, u32, G)>| {
        (parents.capacity() * size_of::<(u32, Option<G::Move>)>()
            + next.capacity() * (size_of::<(i32, u32, G)>() + size_of::<(Reverse<i32>, u32)>())
            + width * size_of::<(u32, G)>()) as u64
    };
    while !layer.is_empty() {
        next.clear();
        for &(node, position) in &layer {
            moves.clear();
            match position.safe_move() {
                Some(mv) => moves.push(mv),
                None => position.search_moves(&mut moves),
            }
            // The children are played straight into `next` (a position is hundreds of bytes,
            // so it is copied no more than it must be), their table slots fetched, and then
            // looked up in turn: those seen before are dropped, the others close ranks.
            let start = next.len();
            keys.clear();
            for &mv in &moves {
                let child = position.play(mv);
                let key = child.key();
                visited.table.prefetch(&key);
                keys.push((mv, key));
                next.push((0, 0, child));
            }
            let mut kept = start;
            for (i, &(mv, key)) in keys.iter().enumerate() {
                let child = &next[start + i].2;
                if child.is_won() {
                    let moves = shorten(deal, &line_through(&parents, node, mv));
                    let bytes = held(&parents, &next);
                    return (visited.outcome(Verdict::Won, None, moves, bytes), cut);
                }
                match visited.admit(key, 2 * held(&parents, &next)) {
                    Admission::Seen => continue,
                    Admission::Stop(why) => {
                        let bytes = held(&parents, &next);
                        let outcome =
                            visited.outcome(Verdict::Unknown, Some(why), Vec::new(), bytes);
                        return (outcome, cut);
                    }
                    Admission::New => {}
                }
                let id = parents.len() as u32;
                parents.push((node, Some(mv)));
                let score = score(child);
                if kept != start + i {
                    next[kept].2 = next[start + i].2;
                }
                next[kept].0 = score;
                next[kept].1 = id;
                kept += 1;
            }
            next.truncate(kept);
        }
        layer.clear();
        if next.len() > width {
            // The best first, and among equals the earlier found; the positions stay where
            // they are and only their places are sorted (a position is hundreds of bytes).
            ranking.clear();
            ranking.extend(
                next.iter()
                    .enumerate()
                    .map(|(i, &(score, _, _))| (Reverse(score), i as u32)),
            );
            ranking.sort_unstable();
            families.clear();
            for &(_, i) in &ranking {
                let (_, id, position) = next[i as usize];
                if position
                    .family()
                    .is_none_or(|family| families.insert(family))
                {
                    layer.push((id, position));
                    if layer.len() == width {
                        break;
                    }
                }
            }
            cut = true;
        } else {
            layer.extend(next.iter().map(|&(_, id, position)| (id, position)));
        }
    }
    let bytes = held(&parents, &next);
    (visited.outcome(Verdict::Lost, None, Vec::new(), bytes), cut)
}

/// Entries of a layer not yet searched: positions that a search of an earlier layer reached
/// by a move out of its own, each with its number among the layered search's entries (and
/// `origins`), in the order reached (in chunks: a vector doubling would hold a growing layer's
/// entries twice over). The set of them becomes the layer's table when its turn comes.
enum Waiting<G: Game> {
    /// By the layer's in-layer numbers (`Game::layer_keyer`).
    Numbered {
        keyer: Box<dyn LayerKeyer<G>>,
        numbers: NumberSet,
        entries: ChunkedStack<NumberedEntry>,
    },
    /// By the game's keys (`Game::rebuild` rebuilds them).
    Keyed {
        keys: KeySet<G::Key>,
        entries: ChunkedStack<(G::Key, u32)>,
    },
}

impl<G: Game> Waiting<G> {
    /// No entries yet for `position`'s layer.
    fn new(position: &G) -> Self {
        match position.layer_keyer() {
            Some(keyer) => Waiting::Numbered {
                numbers: NumberSet::below(keyer.count()),
                keyer,
                entries: ChunkedStack::new(),
            },
            None => Waiting::Keyed {
                keys: KeySet::new(),
                entries: ChunkedStack::new(),
            },
        }
    }

    fn bytes(&self) -> u64 {
        match self {
            Waiting::Numbered {
                numbers, entries, ..
            } => numbers.bytes() + entries.bytes(),
            Waiting::Keyed { keys, entries } => keys.bytes() + entries.bytes(),
        }
    }

    /// Adds `position` (whose key is `key`) as entry `entry` unless it is there already,
    /// within `room` bytes for the set: the mark its origin keeps, if it is new.
    fn offer(&mut self, position: &G, key: G::Key, entry: u32, room: u64) -> Result<u64, Offer> {
        match self {
            Waiting::Numbered {
                keyer,
                numbers,
                entries,
            } => {
                let number = keyer.number(position);
                match numbers.offer(number, room) {
                    Offer::New => {
                        entries.push(NumberedEntry::new(number, entry));
                        Ok(blend(number, position.layer()))
                    }
                    other => Err(other),
                }
            }
            Waiting::Keyed { keys, entries } => match keys.offer(key, room) {
                Offer::New => {
                    entries.push((key, entry));
                    Ok(key_hash(&key))
                }
                other => Err(other),
            },
        }
    }
}

/// An entry of a numbered layer: its in-layer number and its entry number, in 12 bytes (a
/// tuple would take 16).
#[derive(Clone, Copy)]
struct NumberedEntry([u32; 3]);

impl NumberedEntry {
    fn new(number: u64, entry: u32) -> Self {
        NumberedEntry([number as u32, (number >> 32) as u32, entry])
    }

    fn number(self) -> u64 {
        u64::from(self.0[0]) | u64::from(self.0[1]) << 32
    }

    fn entry(self) -> u32 {
        self.0[2]
    }
}

/// A layer's entries in the order reached, for its search.
trait Entries<G: Game, Y> {
    fn len(&self) -> usize;
    fn bytes(&self) -> u64;
    /// Entry `i`'s position, rebuilt from the deal, and its entry number.
    fn get(&self, i: usize, deal: &G, keying: &Y) -> (G, u32);
}

impl<G: Game> Entries<G, GameKeys> for ChunkedStack<(G::Key, u32)> {
    fn len(&self) -> usize {
        ChunkedStack::len(self)
    }

    fn bytes(&self) -> u64 {
        ChunkedStack::bytes(self)
    }

    fn get(&self, i: usize, deal: &G, _: &GameKeys) -> (G, u32) {
        let (key, entry) = ChunkedStack::get(self, i);
        (rebuilt(deal, &key), entry)
    }
}

impl<G: Game> Entries<G, InLayerKeys<G>> for ChunkedStack<NumberedEntry> {
    fn len(&self) -> usize {
        ChunkedStack::len(self)
    }

    fn bytes(&self) -> u64 {
        ChunkedStack::bytes(self)
    }

    fn get(&self, i: usize, deal: &G, keying: &InLayerKeys<G>) -> (G, u32) {
        let entry = ChunkedStack::get(self, i);
        let key = keying.keyer.key(entry.number());
        (rebuilt(deal, &key), entry.entry())
    }
}

/// A fixed hash of a key, the same on every run: how the layered search remembers where an
/// entry of a layer without in-layer keys came from without holding its key.
fn key_hash<K: Hash>(key: &K) -> u64 {
    let [a, b, c, d] = [
        0x9e37_79b9_7f4a_7c15,
        0xbf58_476d_1ce4_e5b9,
        0x94d0_49bb,
        0x2545_f491,
    ];
    ahash::RandomState::with_seeds(a, b, c, d).hash_one(key)
}

/// The mark by which an entry's origin names it (`Waiting::offer`): where its layer has
/// in-layer numbers, its number blended with its layer's hash (so that `winning_line` tells
/// entries of different layers apart), else its key's hash.
fn mark<G: Game>(position: &G, key: &G::Key) -> u64 {
    position.layer_keyer().map_or_else(
        || key_hash(key),
        |keyer| blend(keyer.number(position), position.layer()),
    )
}

/// An in-layer number blended with its layer's hash.
fn blend(number: u64, layer: Layer) -> u64 {
    number ^ key_hash(&layer)
}

/// The layered search (`Order::Layered`). Layers are searched in order of rank, each
/// depth-first from its entries with a table of its own, dropped when the layer is done:
/// every move leaves a layer only for one of higher rank (`Game::layer`), so nothing searched
/// later can reach a layer already done, and every reachable position is entered exactly once,
/// as in the depth-first search. So "lost" is a proof as there. A layer's table, and the
/// entries waiting for it, hold the game's in-layer keys where it has them
/// (`Game::layer_keyer`), else its keys.
///
/// For a win's line it keeps, for each entry, the entry whose layer's search reached it and
/// its mark (`Origins`, on disk), and follows the chain from the deal (`winning_line`).
fn layered<G: Game>(deal: &G, budget: Budget) -> Outcome<G::Move> {
    if !G::LAYERED {
        return DepthFirst::new(deal, budget, true)
            .run(u64::MAX, 0)
            .expect("a search with no pause point runs to an answer");
    }
    let mut layers = Layers::new(deal, budget);
    while let Some((layer, waiting)) = layers.waiting.pop_first() {
        layers.waiting_bytes -= waiting.bytes();
        let outcome = match waiting {
            Waiting::Numbered {
                keyer,
                numbers,
                entries,
            } => layers.search(deal, InLayerKeys { layer, keyer }, numbers, entries),
            Waiting::Keyed { keys, entries } => {
                let keying = GameKeys {
                    within: Some(layer),
                };
                layers.search(deal, keying, keys, entries)
            }
        };
        if let Some(outcome) = outcome {
            return outcome;
        }
    }
    layers.stop(Verdict::Lost, None)
}

/// The position with this key, rebuilt from the deal.
fn rebuilt<G: Game>(deal: &G, key: &G::Key) -> G {
    deal.rebuild(key)
        .unwrap_or_else(|| panic!("{}: a key that rebuild cannot rebuild", G::NAME))
}

/// What the layered search holds from layer to layer.
struct Layers<G: Game> {
    budget: Budget,
    /// Every entry's origin, by entry number (the deal's first); they only ever grow in number.
    origins: Origins,
    waiting: BTreeMap<Layer, Waiting<G>>,
    waiting_bytes: u64,
    /// How many entries wait.
    waiting_entries: usize,
    nodes: u64,
    peak_bytes: u64,
    peak_entries: usize,
}

impl<G: Game> Layers<G> {
    /// The deal waits as the one entry of its layer.
    fn new(deal: &G, budget: Budget) -> Self {
        let mut layers = Layers {
            budget,
            origins: Origins::new(),
            waiting: BTreeMap::new(),
            waiting_bytes: 0,
            waiting_entries: 1,
            nodes: 1,
            peak_bytes: 0,
            peak_entries: 0,
        };
        let mut first = Waiting::new(deal);
        let mark = first
            .offer(deal, deal.key(), 0, u64::MAX)
            .unwrap_or_else(|_| unreachable!("an empty set takes the deal"));
        layers.origins.push(Origin {
            from: u32::MAX,
            mark,
        });
        layers.waiting_bytes = first.bytes();
        layers.waiting.insert(deal.layer(), first);
        layers
    }

    fn stop(&self, verdict: Verdict, exhausted: Option<Exhausted>) -> Outcome<G::Move> {
        Outcome {
            verdict,
            exhausted,
            moves: Vec::new(),
            nodes: self.nodes,
            table_entries: self.peak_entries,
            peak_bytes: self.peak_bytes,
        }
    }

    /// Searches one layer from each of its entries in turn, its table already holding them
    /// all: `None` once the layer is done (every move out of it waiting in its own layer), or
    /// the answer (a win, or a budget spent).
    fn search<Y: Keying<G>>(
        &mut self,
        deal: &G,
        keying: Y,
        table: Y::Table,
        entries: impl Entries<G, Y>,
    ) -> Option<Outcome<G::Move>> {
        let mut next = 0;
        self.waiting_entries -= entries.len();
        let (start, mut entry) = entries.get(next, deal, &keying);
        let visited = Visited::holding(table, self.nodes, self.budget);
        let mut search = DepthFirst::keyed(&start, true, keying, visited);
        loop {
            let elsewhere = self.waiting_bytes + self.origins.bytes() + entries.bytes();
            let held = search.visited.bytes() + search.held_bytes() + elsewhere;
            self.peak_bytes = self.peak_bytes.max(held);
            self.peak_entries = self
                .peak_entries
                .max(search.visited.table.len() + self.waiting_entries);
            let outcome = search.run(u64::MAX, elsewhere);
            self.nodes = search.visited.nodes;
            let Some(outcome) = outcome else {
                let (child, key) = search
                    .crossing
                    .pop()
                    .expect("a paused layer hands out a move");
                match self.wait(child, key, entry, held) {
                    Some(exhausted) => return Some(self.stop(Verdict::Unknown, Some(exhausted))),
                    None => {
                        search.visited.nodes = self.nodes;
                        continue;
                    }
                }
            };
            match outcome.verdict {
                Verdict::Won => {
                    let mut won = self.stop(Verdict::Won, None);
                    won.moves = shorten(deal, &winning_line(deal, &mut self.origins, entry));
                    return Some(won);
                }
                Verdict::Unknown => return Some(self.stop(Verdict::Unknown, outcome.exhausted)),
                Verdict::Lost => {}
            }
            // This entry's part of the layer is searched: on to the next entry.
            next += 1;
            if next == entries.len() {
                return None;
            }
            let position;
            (position, entry) = entries.get(next, deal, &search.keying);
            search.restart(position);
        }
    }

    /// Puts a position that a move out of the layer reached (from entry `from`'s search)
    /// among its layer's entries, unless it is there already; says which budget it spent,
    /// if one. `held` is what the layer's search holds.
    fn wait(&mut self, child: G, key: G::Key, from: u32, held: u64) -> Option<Exhausted> {
        let room = self
            .budget
            .max_memory
            .map_or(u64::MAX, |max| max.saturating_sub(held));
        let later = self
            .waiting
            .entry(child.layer())
            .or_insert_with(|| Waiting::new(&child));
        let before = later.bytes();
        // Entries are numbered in 32 bits (`u32::MAX` marks the deal's origin): past that
        // many the search stops as if its position budget were spent.
        let Some(entry) = u32::try_from(self.origins.len())
            .ok()
            .filter(|&entry| entry < u32::MAX)
        else {
            return Some(Exhausted::Nodes);
        };
        match later.offer(&child, key, entry, before.saturating_add(room)) {
            Ok(mark) => {
                if !self.origins.push(Origin { from, mark }) {
                    return Some(Exhausted::Disk);
                }
            }
            Err(Offer::Full) => return Some(Exhausted::Memory),
            Err(_) => return None,
        }
        self.waiting_entries += 1;
        let grown = later.bytes() - before;
        self.waiting_bytes += grown;
        self.nodes += 1;
        if self.budget.max_memory.is_some_and(|max| held + grown > max) {
            return Some(Exhausted::Memory);
        }
        if self.budget.max_nodes.is_some_and(|max| self.nodes >= max) {
            return Some(Exhausted::Nodes);
        }
        None
    }
}

/// The moves from the deal to a win that the layered search found from entry `entry`: through
/// the chain of entries it came from, a depth-first search of each one's layer finds the move
/// out to the next (by its mark), and from the last, the win. The entries are replayed
/// as they were reached (the search itself held them rebuilt from keys, their piles in
/// another order). A mark that matched another position (a hash can) would only break the chain, never
/// give a line that does not win, and every line is replayed before it is trusted.
fn winning_line<G: Game>(deal: &G, origins: &mut Origins, entry: u32) -> Vec<G::Move> {
    let mut chain = vec![entry];
    loop {
        let from = origins.get(chain[chain.len() - 1] as usize).from;
        if from == u32::MAX {
            break;
        }
        chain.push(from);
    }
    chain.reverse();
    let mut line = Vec::new();
    let mut position = *deal;
    let marks: Vec<u64> = chain[1..]
        .iter()
        .map(|&next| origins.get(next as usize).mark)
        .collect();
    for next in marks.into_iter().map(Some).chain([None]) {
        let keying = GameKeys {
            within: Some(position.layer()),
        };
        let visited = Visited::new(&position, Budget::default());
        let mut search = DepthFirst::keyed(&position, true, keying, visited);
        loop {
            match search.run(u64::MAX, 0) {
                None => {
                    let (child, key) = search
                        .crossing
                        .pop()
                        .expect("a paused layer hands out a move");
                    if Some(mark(&child, &key)) == next {
                        line.extend(search.line());
                        position = child;
                        break;
                    }
                }
                Some(outcome) if outcome.verdict == Verdict::Won => {
                    line.extend(outcome.moves);
                    return line;
                }
                Some(_) => panic!("{}: the layered search's chain of entries broke", G::NAME),
            }
        }
    }
    panic!("{}: the layered search's win was not found again", G::NAME)
}
