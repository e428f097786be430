//! The solver: searches over positions with a transposition table, one module per order
//! (`depth_first`, `best_first`, `portfolio`, `beam`, `layered`), sharing the table, the
//! budgets and the expansion of a position here.
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

mod adaptive;
mod beam;
mod best_first;
mod depth_first;
mod layered;
mod portfolio;
mod rollout;
mod sat;

use crate::game::{Game, Layer};
use crate::table::{KeySet, Offer, Table};
use beam::beam;
pub use beam::FIRST_BEAM_WIDTH;
use layered::layered;
use portfolio::{portfolio, Search};
pub use rollout::{ROLLOUT_LEVEL, ROLLOUT_NODES};
use std::cmp::Reverse;
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
    /// hardest deals. For a game that gives formulas, a deal they leave unknown then goes to
    /// the SAT search (`Sat`, within as many conflicts as the node budget).
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
    /// The beam guided by the game's second heuristic (`Game::other_heuristic`), for games
    /// that have one: the two heuristics lead the beam to different wins, so a pass over the
    /// deals one leaves unknown wins many of them at a fraction of a deeper pass's cost.
    BeamSecond,
    /// The beam guided by the game's third heuristic, for games that have one: each finds
    /// wins the other beams miss.
    BeamThird,
    /// The beam guided by the game's fourth heuristic.
    BeamFourth,
    /// The beam guided by the game's fifth heuristic.
    BeamFifth,
    /// Nested rollouts: from each position every move is judged by a walk to the end of
    /// play after it, each step of the walk judged the same way one level down, the lowest
    /// level following the game's heuristic with random nudges (`--rollout-level`, default
    /// 2; `--beam-salt` seeds the nudges). Walks repeat until a win or the node budget (10M
    /// positions played where none is given): a win-finder that proves no loss (but for a deal
    /// with no move at all), for
    /// the deals whose wins the heuristic's beams rank too low to keep. Its nodes count the
    /// positions it plays, not distinct positions: it keeps no table.
    Rollout,
    /// Nested rollouts whose moves are drawn by a policy that each level adapts toward the
    /// best line found below it (Rosin's Nested Rollout Policy Adaptation, the game's
    /// heuristic biasing each draw): a move's weight is shared by every position it is
    /// played from, so later lines learn from earlier ones. Levels and salts as for `Rollout`;
    /// a win-finder that proves no loss (but for a deal with no move at all).
    AdaptiveRollout,
    /// Depth-first within layers (`Game::layer`), the layers in order of rank: a layer's
    /// table is dropped once it is searched, so only one layer's positions (and the entries
    /// waiting for later layers) are held at a time. For proofs that no longer fit in memory
    /// whole; a win is found only once every layer of lower rank is searched.
    Layered,
    /// The game as satisfiability problems (`Game::formula`), decided by the CaDiCaL SAT
    /// solver, for games that give them: a model is a won game, whose line the checker
    /// replays; every case unsatisfiable proves the deal lost. `--max-nodes` bounds each
    /// case's conflicts.
    Sat,
    /// The deal under each narrower variant (`Game::narrower`: one whose every line of play
    /// is a line here), each by its own default order within the budget; the first win, which
    /// the checker replays under this variant, is the answer. It finds wins only (a loss there
    /// says nothing here): for the wins a variant's own search misses.
    Narrower,
    /// The deal under each wider variant (`Game::wider`: one under which every line of play
    /// here can be played), depth-first within the budget each; the first loss there, a whole
    /// graph searched, is the answer, since no line here can win either. It proves losses only
    /// (a win there says nothing here): for the losses whose graph is too large here.
    Wider,
}

impl Order {
    /// The name `--search` takes.
    pub fn name(self) -> String {
        clap::ValueEnum::to_possible_value(&self)
            .expect("every order is named")
            .get_name()
            .to_string()
    }

    /// Whether this order is one of the nested rollouts, which take a level and a salt.
    pub fn rolls_out(self) -> bool {
        matches!(self, Order::Rollout | Order::AdaptiveRollout)
    }

    /// Which of the game's heuristics (1 for `Game::heuristic`, 2 and on for
    /// `Game::other_heuristic`) guides this order, where it is a beam.
    pub fn beam_heuristic(self) -> Option<usize> {
        match self {
            Order::Beam => Some(1),
            Order::BeamSecond => Some(2),
            Order::BeamThird => Some(3),
            Order::BeamFourth => Some(4),
            Order::BeamFifth => Some(5),
            _ => None,
        }
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
    /// Where given, the rollouts' nudges are seeded by it (`Order::Rollout`), and the beam
    /// breaks ties between equally scored positions at a cut by a hash
    /// of this salt and the order the positions were found, not by that order alone: each
    /// salt keeps other positions and so finds other wins, and a deal that one beam leaves
    /// unknown is often won by the same beam with another salt (docs/rules/harp.md).
    pub beam_salt: Option<u64>,
    /// Where given, the beam widens no further: a run this wide (or wider) that finds no win
    /// ends the search, however much of the node budget is left (the beam stops on its own
    /// only before a run that budget could not carry): a pass that means one run of a width
    /// says so, and its deals cost that run only.
    pub max_beam_width: Option<usize>,
    /// The nested rollouts' level (`Order::Rollout`; `rollout::ROLLOUT_LEVEL` if none).
    pub rollout_level: Option<u32>,
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Exhausted {
    Nodes,
    Memory,
    /// The layered search's temporary file could not grow (`Origins`).
    Disk,
    /// `--search narrower`: no narrower variant was won.
    Narrower,
    /// `--search wider`: every wider variant was won (none proven lost).
    Wider,
    /// The beam's widest run (`--max-beam-width`) found no win.
    BeamWidth,
    /// The node budget left could not carry the beam's next run, twice as wide.
    NextBeamRun,
    /// `--search sat`: the SAT solver spent its conflicts (`--max-nodes`) on a case.
    Conflicts,
    /// `--search sat`: the game gives no formula for this position.
    NoFormula,
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
            Exhausted::Wider => "every wider variant was won (--search wider proves losses only)",
            Exhausted::BeamWidth => "the beam's widest run found no win (--max-beam-width)",
            Exhausted::NoFormula => "the game gives no formula for this position (--search sat)",
            Exhausted::Conflicts => {
                "the SAT solver's conflict budget spent on a case (--max-nodes, with --search sat)"
            }
            Exhausted::NextBeamRun => {
                "the node budget left could not carry the beam's next, wider run (--max-nodes)"
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
    /// Positions entered in the table (each distinct position counts once; a search that
    /// finished has expanded every one of them).
    pub nodes: u64,
    /// Cases put to the SAT solver (`Order::Sat`, or the portfolio's last resort); a loss
    /// with any is proven by formulas, not by the positions.
    pub formulas: u64,
    /// Positions held in the table at the end (its peak, since nothing is removed); for the
    /// layered search, the most held at once (a layer's table and the entries waiting).
    pub table_entries: usize,
    /// Bytes held by the table and the search stack at their largest.
    pub peak_bytes: u64,
}

/// How a search names positions in its table: by the game's key, or within one layer of the
/// layered search by a shorter key that tells that layer's positions apart.
trait Keying<G: Game> {
    type Key: Copy;
    type Table: Table<Key = Self::Key>;

    /// The position's table key, or `None` when it lies outside what this search covers
    /// (another layer): such a position is handed out, never entered or looked up.
    fn of(&self, position: &G) -> Option<Self::Key>;

    /// Whether `of` gives the position a key, without making it.
    fn covers(&self, position: &G) -> bool;
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
        self.covers(position).then(|| position.key())
    }

    fn covers(&self, position: &G) -> bool {
        self.within.is_none_or(|layer| position.layer() == layer)
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

/// Appends the moves to try from `position`: its safe move alone if it has one, else its
/// search moves, the most promising first; and enters at once every child they reach that is
/// in the search's part of the graph, dropping the moves to children already entered. (A
/// child is entered when found, not when its turn comes: `play_children` has just fetched its
/// table slot, so the look-up costs one wait for memory, not two, and its key is made once;
/// when its turn comes it is played again but not looked up. Every child entered is searched
/// before the search can answer "lost", since its move stays on the path's stack until
/// tried.) `children` is room for the children (`play_children`). Stops, naming the budget,
/// when one would be overrun.
fn expand<G: Game, Y: Keying<G>>(
    position: &G,
    sorted: bool,
    keying: &Y,
    visited: &mut Visited<G, Y::Table>,
    other_bytes: u64,
    room: &mut Room<G, Y::Key>,
) -> Result<(), Exhausted> {
    let Room {
        fresh: moves,
        children,
        scored,
    } = room;
    let start = moves.len();
    match position.safe_move() {
        Some(mv) => moves.push(mv),
        None => position.search_moves(moves),
    }
    play_children(position, &moves[start..], keying, &visited.table, children);
    scored.clear();
    for (mv, child, key) in children.iter() {
        if !child.is_won() {
            if let Some(key) = key {
                match visited.admit(*key, other_bytes) {
                    Admission::New => {}
                    Admission::Seen => continue,
                    Admission::Stop(why) => return Err(why),
                }
            }
        }
        scored.push((if sorted { child.heuristic() } else { 0 }, *mv));
    }
    // Stable, so the game's own order breaks ties.
    if sorted {
        scored.sort_by_key(|&(score, _)| Reverse(score));
    }
    moves.truncate(start);
    moves.extend(scored.iter().map(|&(_, mv)| mv));
    Ok(())
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
        Order::BeamSecond | Order::BeamThird | Order::BeamFourth | Order::BeamFifth => {
            let n = order.beam_heuristic().expect("a beam order");
            return beam(deal, budget, move |position: &G| {
                position.other_heuristic(n)
            });
        }
        Order::Layered => return layered(deal, budget),
        Order::Rollout => return rollout::rollout(deal, budget, G::heuristic),
        Order::AdaptiveRollout => return adaptive::adaptive_rollout(deal, budget, G::heuristic),
        Order::Sat => return sat::satisfiability(deal, budget),
        // A position alone has no variants to try: `GameEntry::solve` deals the narrower and
        // the wider ones.
        Order::Narrower | Order::Wider => {
            return Outcome {
                verdict: Verdict::Unknown,
                exhausted: Some(if order == Order::Narrower {
                    Exhausted::Narrower
                } else {
                    Exhausted::Wider
                }),
                moves: Vec::new(),
                nodes: 0,
                formulas: 0,
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
            formulas: 0,
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
        formulas: 0,
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
