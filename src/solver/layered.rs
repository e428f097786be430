//! The layered search (`Order::Layered`): one layer's table at a time, for proofs that do not
//! fit in memory whole.

use super::depth_first::DepthFirst;
use super::*;
use crate::chunked::ChunkedStack;
use crate::game::LayerKeyer;
use crate::number_set::NumberSet;
use crate::origins::{Origin, Origins};
use std::collections::BTreeMap;
use std::hash::Hash;

/// One layer's positions by the game's in-layer key (`Game::layer_keyer`).
struct InLayerKeys<G> {
    layer: Layer,
    keyer: Box<dyn LayerKeyer<G>>,
}

impl<G: Game> Keying<G> for InLayerKeys<G> {
    type Key = u64;
    type Table = NumberSet;

    fn of(&self, position: &G) -> Option<u64> {
        self.covers(position).then(|| self.keyer.number(position))
    }

    fn covers(&self, position: &G) -> bool {
        position.layer() == self.layer
    }
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
pub(super) fn layered<G: Game>(deal: &G, budget: Budget) -> Outcome<G::Move> {
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
            formulas: 0,
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
        // A new layer's set holds some bytes before its first entry (a keyed set, its shards).
        let mut opened = 0;
        let later = self.waiting.entry(child.layer()).or_insert_with(|| {
            let waiting = Waiting::new(&child);
            opened = waiting.bytes();
            waiting
        });
        self.waiting_bytes += opened;
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
