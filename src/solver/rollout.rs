//! Nested rollouts (`Order::Rollout`): a win-finder that judges a move by where play goes
//! after it, not by the heuristic of the position the move reaches.
//!
//! A rollout plays from a position to its end, each time the child the game's heuristic
//! likes best after a random nudge, never into a position the line has already stood on. A
//! nested walk of level n (Cazenave's Nested Monte Carlo Search) goes from a position: at
//! each step it plays every move, walks at level n - 1 from each child, keeps the line that
//! ended best so far, and takes that line's next move; level 0 is a rollout. Walks from the
//! deal repeat, each with fresh nudges from one seeded stream, until one wins or the node
//! budget is spent: the search proves no loss, but for a deal with no move at all.

use super::*;
use ahash::{AHashMap, AHashSet};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::hash_map::Entry;
use std::ops::Range;

/// The nesting used where none is given: on 30 random deals of each game's unknown ones
/// (README, How it searches), level 2 won more than level 1 (Terrace) and no fewer than level
/// 3 (General Sedgewick, the Queens) at the same budget; Terrace's rung takes level 3.
pub const ROLLOUT_LEVEL: u32 = 2;

/// The node budget where none is given: the walks never end on a lost deal by themselves.
pub const ROLLOUT_NODES: u64 = 10_000_000;

/// How far a random nudge may lift a child's score in a rollout. A card home is worth about
/// 20 in these games' heuristics, so a nudge overturns only a small preference.
const NUDGE: i32 = 24;

/// The best line a walk found from where it began.
struct Line<M> {
    score: i32,
    moves: Vec<M>,
    won: bool,
}

impl<M> Line<M> {
    fn won(moves: Vec<M>) -> Self {
        Line {
            score: i32::MAX,
            moves,
            won: true,
        }
    }
}

/// The node budget ran out during a walk.
pub(super) struct Spent;

/// A move, the child it reaches and the child's key.
pub(super) type Child<G> = (<G as Game>::Move, G, <G as Game>::Key);

/// The moves of the positions the walks expanded lately, for games whose moves are costly
/// (`Game::COSTLY_MOVES`): nested walks expand the same positions over and over (the Queens'
/// seed 41391, rollouts of level 2: 500k expansions of 46k positions), and a position's
/// moves, its safe move and the game's relaxations included, depend on it alone; so do the
/// keys of the children they reach, kept too once a walk has played them (the Queens' key
/// packs every card of the talon, and took a quarter of the rollouts' time). Past
/// `EXPANSIONS_KEPT` positions it starts afresh. The walks, their node counts and their
/// verdicts are those without it; only the time changes. Positions are found by their keys
/// (the walks have them at hand, and a key hashes faster than a position) and then compared
/// whole, since positions alike under the game's symmetries share a key but not their moves.
pub(super) struct Expansions<G: Game> {
    /// Each position kept, with where its moves lie in `moves`.
    kept: AHashMap<G::Key, (G, u32, u32)>,
    /// The kept positions' moves, one after another (so that keeping a position allocates
    /// nothing of its own), each with its child's key once played; for other games, the
    /// moves of the position expanded last.
    moves: Vec<(G::Move, Option<G::Key>)>,
    /// Room for working out a position's moves.
    room: Vec<G::Move>,
    /// Bytes the positions kept and their moves took at most.
    pub(super) peak_bytes: u64,
}

/// Positions `Expansions` keeps at most, and moves (a position alike to a kept one under the
/// symmetries replaces it, its moves added after the others).
const EXPANSIONS_KEPT: usize = 1 << 16;
const MOVES_KEPT: usize = 64 * EXPANSIONS_KEPT;

impl<G: Game> Expansions<G> {
    pub(super) fn new() -> Self {
        Expansions {
            kept: AHashMap::new(),
            moves: Vec::new(),
            room: Vec::new(),
            peak_bytes: 0,
        }
    }

    /// Where in `moves` lie the moves to search from `position`, whose key is `key`: its
    /// safe move alone, if it has one.
    fn of(&mut self, position: &G, key: &G::Key) -> Range<usize> {
        let Expansions {
            kept,
            moves,
            room,
            peak_bytes,
        } = self;
        if !G::COSTLY_MOVES {
            work_out(position, room);
            moves.clear();
            moves.extend(room.iter().map(|&mv| (mv, None)));
            return 0..moves.len();
        }
        let full = kept.len() >= EXPANSIONS_KEPT || moves.len() >= MOVES_KEPT;
        if full && !kept.contains_key(key) {
            kept.clear();
            moves.clear();
        }
        let held = kept.len() + 1;
        let (slot, fresh) = match kept.entry(*key) {
            Entry::Occupied(entry) => (entry.into_mut(), false),
            Entry::Vacant(entry) => (entry.insert((*position, 0, 0)), true),
        };
        if fresh || slot.0 != *position {
            work_out(position, room);
            let start = moves.len() as u32;
            moves.extend(room.iter().map(|&mv| (mv, None)));
            *slot = (*position, start, moves.len() as u32);
            // The map's slots (each with its control byte) and the moves.
            let slots = held * (size_of::<(G::Key, (G, u32, u32))>() + 1);
            let bytes = slots + moves.len() * size_of::<(G::Move, Option<G::Key>)>();
            *peak_bytes = (*peak_bytes).max(bytes as u64);
        }
        slot.1 as usize..slot.2 as usize
    }
}

/// Puts into `room` the moves to search from `position`: its safe move alone, if it has one.
fn work_out<G: Game>(position: &G, room: &mut Vec<G::Move>) {
    room.clear();
    match position.safe_move() {
        Some(mv) => room.push(mv),
        None => position.search_moves(room),
    }
}

/// Puts into `children` the moves from `position`, whose key is `key` (its safe move alone,
/// if it has one), to positions the line has not stood on (`seen`), with the children they
/// reach; each child played counts one of `nodes`, up to `max_nodes`.
pub(super) fn expand<G: Game>(
    position: &G,
    key: &G::Key,
    seen: &AHashSet<G::Key>,
    expansions: &mut Expansions<G>,
    children: &mut Vec<Child<G>>,
    nodes: &mut u64,
    max_nodes: u64,
) -> Result<(), Spent> {
    children.clear();
    for i in expansions.of(position, key) {
        let (mv, known) = expansions.moves[i];
        let child = position.play(mv);
        *nodes += 1;
        if *nodes >= max_nodes {
            return Err(Spent);
        }
        let key = known.unwrap_or_else(|| child.key());
        if G::COSTLY_MOVES {
            expansions.moves[i].1 = Some(key);
        }
        if child.is_won() || !seen.contains(&key) {
            children.push((mv, child, key));
        }
    }
    Ok(())
}

struct Walker<G: Game, S> {
    score: S,
    nudges: ChaCha8Rng,
    nodes: u64,
    max_nodes: u64,
    expansions: Expansions<G>,
    /// Room for a rollout's children, reused from step to step (rollouts do not nest).
    rolled: Vec<Child<G>>,
    /// The most keys the walks' lines have held at once, for the memory figure.
    peak_keys: usize,
}

impl<G: Game, S: Fn(&G) -> i32> Walker<G, S> {
    /// `expand`, with the walker's expansions and its count of nodes.
    fn children(
        &mut self,
        position: &G,
        key: &G::Key,
        seen: &AHashSet<G::Key>,
        children: &mut Vec<Child<G>>,
    ) -> Result<(), Spent> {
        let expansions = &mut self.expansions;
        expand(
            position,
            key,
            seen,
            expansions,
            children,
            &mut self.nodes,
            self.max_nodes,
        )
    }

    /// Plays from `position` (whose key is `key`) to the end, the nudged best child each
    /// time. The keys it adds to `seen` stay there for the caller to take out (`forget`).
    fn roll_out(
        &mut self,
        position: G,
        key: G::Key,
        seen: &mut AHashSet<G::Key>,
        added: &mut Vec<G::Key>,
    ) -> Result<Line<G::Move>, Spent> {
        let (mut at, mut at_key) = (position, key);
        let mut moves = Vec::new();
        let mut children = std::mem::take(&mut self.rolled);
        let ended = loop {
            if at.is_won() {
                break Ok(Line::won(moves));
            }
            if let Err(spent) = self.children(&at, &at_key, seen, &mut children) {
                break Err(spent);
            }
            let nudged = children
                .iter()
                .max_by_key(|(_, child, _)| (self.score)(child) + self.nudges.gen_range(0..=NUDGE));
            let Some(&(mv, child, key)) = nudged else {
                self.peak_keys = self.peak_keys.max(seen.len());
                break Ok(Line {
                    score: (self.score)(&at),
                    moves,
                    won: false,
                });
            };
            seen.insert(key);
            added.push(key);
            moves.push(mv);
            (at, at_key) = (child, key);
        };
        self.rolled = children;
        ended
    }

    /// Takes out of `seen` the keys a walk added after the first `kept` of `added`.
    fn forget(seen: &mut AHashSet<G::Key>, added: &mut Vec<G::Key>, kept: usize) {
        for key in added.drain(kept..) {
            seen.remove(&key);
        }
    }

    /// The nested walk of `level` from `position` (whose key is `key`), whose line so far is
    /// `seen`. Every key it adds to `seen` is also pushed on `added`, so that the caller can
    /// take them out again: each walk below sees the line it starts from and nothing of the
    /// walks before it.
    fn walk(
        &mut self,
        level: u32,
        position: G,
        key: G::Key,
        seen: &mut AHashSet<G::Key>,
        added: &mut Vec<G::Key>,
    ) -> Result<Line<G::Move>, Spent> {
        if level == 0 {
            return self.roll_out(position, key, seen, added);
        }
        let (mut at, mut at_key) = (position, key);
        let mut played: Vec<G::Move> = Vec::new();
        // The best line found from `at` on.
        let mut best: Option<Line<G::Move>> = None;
        loop {
            if at.is_won() {
                return Ok(Line::won(played));
            }
            let mut children = Vec::new();
            self.children(&at, &at_key, seen, &mut children)?;
            for (mv, child, key) in children {
                let kept = added.len();
                seen.insert(key);
                added.push(key);
                let walked = self.walk(level - 1, child, key, seen, added);
                Self::forget(seen, added, kept);
                let mut line = walked?;
                line.moves.insert(0, mv);
                if line.won {
                    played.extend(line.moves);
                    return Ok(Line::won(played));
                }
                if best.as_ref().is_none_or(|b| line.score > b.score) {
                    best = Some(line);
                }
            }
            // The best line's next move, unless the line ends here (no move leads on).
            let Some(line) = best.as_mut().filter(|line| !line.moves.is_empty()) else {
                return Ok(Line {
                    score: best.map_or((self.score)(&at), |b| b.score),
                    moves: played,
                    won: false,
                });
            };
            let mv = line.moves.remove(0);
            at = at.play(mv);
            at_key = at.key();
            seen.insert(at_key);
            added.push(at_key);
            played.push(mv);
        }
    }
}

/// Nested walks of `level` from the deal, scored by `score`, until one wins or the node
/// budget is spent; the salt (`Budget::beam_salt`, 0 if none) seeds the nudges.
pub(super) fn rollout<G: Game>(
    deal: &G,
    budget: Budget,
    score: impl Fn(&G) -> i32,
) -> Outcome<G::Move> {
    let level = budget.rollout_level.unwrap_or(ROLLOUT_LEVEL);
    let mut walker = Walker {
        score,
        nudges: ChaCha8Rng::seed_from_u64(budget.beam_salt.unwrap_or(0)),
        nodes: 0,
        max_nodes: budget.max_nodes.unwrap_or(ROLLOUT_NODES),
        expansions: Expansions::new(),
        rolled: Vec::new(),
        peak_keys: 0,
    };
    loop {
        let key = deal.key();
        let mut seen = std::iter::once(key).collect();
        let before = walker.nodes;
        let walked = walker.walk(level, *deal, key, &mut seen, &mut Vec::new());
        let (verdict, exhausted, moves) = match walked {
            Ok(line) if line.won => (Verdict::Won, None, shorten(deal, &line.moves)),
            // A walk that played nothing found no move from the deal: its whole graph is the
            // deal, and it is lost.
            Ok(_) if walker.nodes == before => (Verdict::Lost, None, Vec::new()),
            Ok(_) => continue,
            Err(Spent) => (Verdict::Unknown, Some(Exhausted::Nodes), Vec::new()),
        };
        // The set and the list of keys added hold each key about three times over.
        let key_bytes = 3 * size_of::<G::Key>() as u64;
        return Outcome {
            verdict,
            exhausted,
            moves,
            nodes: walker.nodes,
            formulas: 0,
            table_entries: 0,
            peak_bytes: walker.peak_keys as u64 * key_bytes + walker.expansions.peak_bytes,
        };
    }
}
