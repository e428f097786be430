//! Terrace (Cadogan): a Terrace of thirteen cards that feeds only the foundations, eight
//! foundations up in alternate colours from a base rank chosen among three cards, a valley of
//! nine piles built down in alternate colours, and one pass through the stock. Rules,
//! decisions and encoding: `docs/rules/terrace.md`.

use crate::alternate_pile::{goes_on, AlternatePile};
use crate::card::{format_stack, rank_text, Card, Suit, KING, PACK};
#[cfg(test)]
use crate::foundations::inversions;
use crate::foundations::{AlternateFoundations, OffsetCounts};
use crate::game::{family_hash, Game, OptionKind, OptionValues, Tally, VariantOption};
use crate::key::KeyWriter;
use crate::solver::Order;
use crate::talon::Talon;
use std::cell::RefCell;

/// Cadogan's Terrace; `--terrace-cards` deals fewer.
const TERRACE: usize = 13;
/// Cards turned up for the choice of base.
const TURNED: usize = 3;
const VALLEY: usize = 9;
/// Cards laid out after the Terrace: the three turned cards and seven more.
const BELOW_TERRACE: usize = TURNED + VALLEY - 2;
const FOUNDATIONS: usize = 8;
/// What a card in the waste costs the heuristic, against 20 for a card home: the waste is
/// one stack, each card dealt onto it buries the ones before (seeds 0-299 within 100k
/// positions, with families: 182 won at 24, 144 at 2, 158 at 6, 179 at 20, 182 at 30).
const WASTE_CARD: i32 = 24;
const WASTE_INVERSION: i32 = 6;
const INVERSION_SLACK: u8 = 4;
/// How many steps apart two waste cards may lie before they count as an inversion, in the
/// order `Terrace::waste_inversions` keeps their counts.
const INVERSION_SLACKS: [u8; 2] = [INVERSION_SLACK, 0];
/// The heuristics' weights, first to fifth: what a waste card costs, and which slack of
/// `INVERSION_SLACKS` its inversions take. The first is the measure the passes are tuned by;
/// each other leads the beam to wins the rest miss (`heuristic`, `other_heuristic`,
/// `docs/rules/terrace.md`). The third on charge the waste less: some wins hold many cards in
/// the waste for a while (seed 4068's, up to 11), and a beam that charges 24 a card never
/// keeps the positions on their way.
const HEURISTIC_WEIGHTS: [(i32, usize); 5] =
    [(WASTE_CARD, 0), (WASTE_CARD, 1), (6, 0), (6, 1), (12, 0)];
/// The longest stock: two packs less the smallest layout (a Terrace of one card).
const STOCK_MAX: usize = 2 * PACK - 1 - BELOW_TERRACE;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Terrace {
    /// The Terrace as dealt (its first `terrace_len` places); the first `terrace_left` cards
    /// are still there, the last of them available.
    terrace: [Card; TERRACE],
    terrace_len: u8,
    terrace_left: u8,
    /// The three turned cards, until one is chosen as the base.
    turned: Option<[Card; TURNED]>,
    valley: [AlternatePile; VALLEY],
    talon: Talon<STOCK_MAX>,
    foundations: AlternateFoundations<FOUNDATIONS>,
    /// Whether a card from elsewhere is refused a foundation the Terrace's card could take.
    terrace_preference: bool,
    /// Whether a valley space may also be filled from the waste.
    fill_from_talon: bool,
    /// The waste's cards counted by their offsets above the base, and its inversions with
    /// each slack of `INVERSION_SLACKS`, kept up as cards are dealt onto it and taken off:
    /// the nested rollouts deal freely, and counting a long waste afresh for every child
    /// they score took a third of their time.
    waste_offsets: OffsetCounts,
    waste_inversions: [i32; 2],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    Terrace,
    Pile(u8),
    Stock,
    Waste,
    Home(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// One of the three turned cards becomes the first foundation.
    Base(u8),
    /// An available card from one place to another.
    Shift { card: Card, from: Place, to: Place },
    /// The next stock card onto the waste.
    Deal,
}

impl Terrace {
    /// The heuristics' measure: cards home (the Terrace's twice), less `waste_card` for each
    /// of the waste's cards and less its inversions (`waste_inversions`) with slack `slack`.
    fn score(&self, waste_card: i32, slack: usize) -> i32 {
        let terrace_home = i32::from(self.terrace_len - self.terrace_left);
        20 * self.foundations.cards_home() as i32 + 20 * terrace_home
            - waste_card * self.talon.waste_len() as i32
            - WASTE_INVERSION * self.waste_inversions[slack]
    }

    /// The waste's inversions with each slack, counted afresh: what `waste_inversions` keeps
    /// up move by move.
    #[cfg(test)]
    fn counted_waste_inversions(&self) -> [i32; 2] {
        let offsets = || {
            let waste = self.talon.waste().rev();
            waste.map(|c| self.foundations.offset(c.rank()))
        };
        INVERSION_SLACKS.map(|slack| inversions(offsets(), slack))
    }

    /// Counts `card` onto the waste's top (`sign` 1) or off it (-1).
    fn count_waste(&mut self, card: Card, sign: i32) {
        let offset = self.foundations.offset(card.rank());
        if sign < 0 {
            self.waste_offsets.remove(offset);
        }
        let under = self.waste_offsets.under(offset, INVERSION_SLACKS);
        for (kept, under) in self.waste_inversions.iter_mut().zip(under) {
            *kept += sign * under;
        }
        if sign > 0 {
            self.waste_offsets.add(offset);
        }
    }

    /// The `n`-th heuristic (from 1; the last beyond them): `score` by the `n`-th weights of
    /// `HEURISTIC_WEIGHTS`.
    fn weighted(&self, n: usize) -> i32 {
        let (waste_card, slack) = HEURISTIC_WEIGHTS[n.clamp(1, HEURISTIC_WEIGHTS.len()) - 1];
        self.score(waste_card, slack)
    }

    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        self.talon.stock_len()
    }

    fn terrace_top(&self) -> Option<Card> {
        (self.terrace_left > 0).then(|| self.terrace[self.terrace_left as usize - 1])
    }

    /// The available cards that may go elsewhere than home: the valley's tops, the next stock
    /// card and the waste's top.
    fn movable(&self) -> impl Iterator<Item = (Place, Card)> + '_ {
        let piles =
            (0..VALLEY).filter_map(|p| self.valley[p].top().map(|c| (Place::Pile(p as u8), c)));
        piles
            .chain(self.talon.stock_top().map(|card| (Place::Stock, card)))
            .chain(self.talon.waste_top().map(|card| (Place::Waste, card)))
    }

    /// Whether foundation `f` is closed to every card but the Terrace's, which could go there.
    fn reserved(&self, f: usize) -> bool {
        self.terrace_preference
            && self
                .terrace_top()
                .is_some_and(|t| self.foundations.accepts(f, t))
    }

    /// Appends the legal moves; with `one_of_each`, only one of the moves that lead to
    /// positions with the same key (interchangeable piles and foundations, equal shapes).
    fn generate(&self, moves: &mut Vec<Move>, one_of_each: bool) {
        if let Some(turned) = self.turned {
            // Two copies of one card are one choice (the same position follows, and the same
            // move text); two cards of one rank and colour lead to positions with one key.
            for i in 0..TURNED {
                let same_kind =
                    |c: Card| c.rank() == turned[i].rank() && c.is_red() == turned[i].is_red();
                let repeated = |c: Card| c == turned[i] || (one_of_each && same_kind(c));
                if !turned[..i].iter().any(|&c| repeated(c)) {
                    moves.push(Move::Base(i as u8));
                }
            }
            return;
        }
        // A pile shaped exactly like an earlier one (same height, same bottom rank and colour)
        // gives the same keys as the earlier one, as a source or as a target.
        let shapes = self.valley.map(|p| p.shape());
        let repeated = |p: usize| one_of_each && shapes[..p].contains(&shapes[p]);
        let mut movable = [(Place::Stock, Card::from_index(0)); VALLEY + 2];
        let mut count = 0;
        for (from, card) in self.movable() {
            if !matches!(from, Place::Pile(p) if repeated(p as usize)) {
                movable[count] = (from, card);
                count += 1;
            }
        }
        let movable = &movable[..count];
        let terrace = self.terrace_top().map(|c| (Place::Terrace, c));
        for &(from, card) in terrace.iter().chain(movable) {
            let mut states_seen = 0u64;
            for f in self.foundations.takers(card) {
                if from != Place::Terrace && self.reserved(f) {
                    continue;
                }
                let state = self.foundations.state(f);
                if one_of_each && states_seen >> state & 1 == 1 {
                    continue;
                }
                states_seen |= 1 << state;
                moves.push(Move::Shift {
                    card,
                    from,
                    to: Place::Home(f as u8),
                });
            }
        }
        for to in 0..VALLEY {
            let Some(top) = self.valley[to].top() else {
                continue;
            };
            if repeated(to) {
                continue;
            }
            for &(from, card) in movable {
                if from != Place::Pile(to as u8) && goes_on(card, top) {
                    moves.push(Move::Shift {
                        card,
                        from,
                        to: Place::Pile(to as u8),
                    });
                }
            }
        }
        let spaces = (0..VALLEY).filter(|&p| self.valley[p].is_empty());
        for to in spaces.take(if one_of_each { 1 } else { VALLEY }) {
            let fillers = self
                .talon
                .stock_top()
                .map(|c| (Place::Stock, c))
                .into_iter()
                .chain(
                    self.talon
                        .waste_top()
                        .filter(|_| self.fill_from_talon)
                        .map(|c| (Place::Waste, c)),
                );
            for (from, card) in fillers {
                moves.push(Move::Shift {
                    card,
                    from,
                    to: Place::Pile(to as u8),
                });
            }
        }
        if self.talon.stock_len() > 0 {
            moves.push(Move::Deal);
        }
    }

    /// `blocked`, remembered per thread: it reads only the Terrace, the talon and the
    /// foundations, which most moves (those within the valley) leave as they were, so many
    /// positions share one answer. An entry holds everything `blocked` reads, compared whole,
    /// so no two positions (of one deal or of two) can be taken for each other.
    fn blocked_memo(&self) -> bool {
        let inputs = BlockedInputs {
            terrace: self.terrace,
            terrace_left: self.terrace_left,
            talon: self.talon,
            foundations: self.foundations,
            fill_from_talon: self.fill_from_talon,
        };
        let (present, split) = self.talon.state();
        let states = (0..self.foundations.places())
            .fold(0u64, |h, i| h << 5 ^ u64::from(self.foundations.state(i)));
        let hash = (present as u64 ^ (present >> 64) as u64 ^ u64::from(split) << 56)
            .wrapping_add(states ^ u64::from(self.terrace_left) << 48)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = (hash >> (64 - BLOCKED_MEMO_BITS)) as usize;
        BLOCKED_MEMO.with_borrow_mut(|memo| {
            if memo.is_empty() {
                memo.resize(1 << BLOCKED_MEMO_BITS, None);
            }
            match memo[slot] {
                Some((seen, blocked)) if seen == inputs => blocked,
                _ => {
                    let blocked = self.blocked();
                    memo[slot] = Some((inputs, blocked));
                    blocked
                }
            }
        })
    }

    /// Whether the cards that can only go home cannot all go home, so the position is lost:
    /// the Terrace's, and the waste's cards that no card they could be built on can ever meet
    /// on the valley. Relax the rest: every other card goes home whenever a foundation of its
    /// family takes it. Can the foundations take the locked cards, each stack's in order
    /// (`ClearingSearch`)? Proof in the rules document.
    fn blocked(&self) -> bool {
        let f = &self.foundations;
        let terrace = &self.terrace[..self.terrace_left as usize];
        let copies = f.places() / 2;
        let counts = family_counts(f);
        // Waste cards, bottom first, each with how many of the cards it could be built on (of
        // the rank above and the other colour) might lie on the valley while it is there: not
        // home, not on the Terrace (which feeds only the foundations), not beneath it in the
        // waste.
        // Tables by rank and colour: where a card stands in them, and where the cards it could
        // be built on stand.
        let kind = |card: Card| (card.rank() as usize, card.is_red() as usize);
        let built_on = |card: Card| ((card.rank() % KING + 1) as usize, !card.is_red() as usize);
        let mut could_top = [[0i32; 2]; KING as usize + 1];
        for rank in 1..=KING {
            for red in [false, true] {
                let card = Card::new(if red { Suit::DIAMONDS } else { Suit::CLUBS }, rank);
                could_top[rank as usize][red as usize] =
                    (copies - copies_home(card, &counts, f)) as i32;
            }
        }
        for &card in terrace {
            let (rank, red) = kind(card);
            could_top[rank][red] -= 1;
        }
        let mut waste = [(Card::from_index(0), 0); STOCK_MAX];
        let mut waste_len = 0;
        for card in self.talon.waste() {
            let (rank, red) = built_on(card);
            waste[waste_len] = (card, could_top[rank][red]);
            waste_len += 1;
            let (rank, red) = kind(card);
            could_top[rank][red] -= 1;
        }
        CLEARING_SEARCH.with_borrow_mut(|search| {
            search.reset(copies as u8);
            for &card in terrace.iter().rev() {
                let (family, offset) = family_offset(card, f);
                search.push_terrace(family, offset);
            }
            // From the top down, a waste card is locked (it can go only home) when none of
            // those cards can lie on the valley: nor can a locked card above it, which leaves
            // the waste only for home. With `--fill-from-talon` a waste card can also fill a
            // space, so none is locked.
            let mut locked_above = [[0i32; 2]; KING as usize + 1];
            for &(card, could_take) in waste[..waste_len].iter().rev() {
                let (rank, red) = built_on(card);
                let locked = !self.fill_from_talon && could_take - locked_above[rank][red] <= 0;
                if locked {
                    let (rank, red) = kind(card);
                    locked_above[rank][red] += 1;
                }
                let (family, offset) = family_offset(card, f);
                search.push_waste(family, offset, locked);
            }
            !search.clears(&counts)
        })
    }

    fn place_name(place: Place) -> String {
        match place {
            Place::Terrace => "t".to_string(),
            Place::Pile(p) => (p + 1).to_string(),
            Place::Stock => "s".to_string(),
            Place::Waste => "w".to_string(),
            Place::Home(f) => format!("f{}", f + 1),
        }
    }

    /// Whether the deal holds whole sets of foundations: the same number of cards of every
    /// rank, half of them red, an even number of foundations' worth, no card more than twice.
    /// The command line always deals two full packs; tests deal reduced ones.
    fn check_cards(order: &[Card]) -> Result<usize, String> {
        let mut copies = [0u8; PACK];
        let mut by_rank = [[0usize; 2]; KING as usize + 1];
        for &card in order {
            copies[card.index()] += 1;
            if copies[card.index()] > 2 {
                return Err(format!("{card} is dealt more than twice"));
            }
            by_rank[card.rank() as usize][card.is_red() as usize] += 1;
        }
        let foundations = order.len() / KING as usize;
        let whole = (1..=KING as usize).all(|r| by_rank[r] == [foundations / 2; 2]);
        if !whole
            || foundations % 2 == 1
            || order.len() < TERRACE + BELOW_TERRACE
            || foundations > FOUNDATIONS
        {
            return Err(format!(
                "Terrace needs, for every rank, as many red cards as black and the same number \
                 of each rank (two packs: 104 cards); this deal has {}",
                order.len()
            ));
        }
        Ok(foundations)
    }
}

/// What `Terrace::blocked` reads of a position (the valley plays no part).
#[derive(Clone, Copy, PartialEq, Eq)]
struct BlockedInputs {
    terrace: [Card; TERRACE],
    terrace_left: u8,
    talon: Talon<STOCK_MAX>,
    foundations: AlternateFoundations<FOUNDATIONS>,
    fill_from_talon: bool,
}

/// The memo holds `2^BLOCKED_MEMO_BITS` answers, one per slot, the latest kept. A wide beam
/// expands a position's children a layer after the position itself, thousands of positions
/// later, so the memo must outlast a layer to serve them (about 5 MB a thread).
const BLOCKED_MEMO_BITS: u32 = 15;

thread_local! {
    static BLOCKED_MEMO: RefCell<Vec<Option<(BlockedInputs, bool)>>> = const { RefCell::new(Vec::new()) };
    /// The clearing search's room, reused: made afresh for each position it would be 43 KB zeroed.
    static CLEARING_SEARCH: RefCell<ClearingSearch> = RefCell::new(ClearingSearch::new());
}

/// Each family's foundation counts, started foundations first (0 for the rest).
fn family_counts(f: &AlternateFoundations<FOUNDATIONS>) -> [[u8; FOUNDATIONS / 2]; 2] {
    let mut counts = [[0u8; FOUNDATIONS / 2]; 2];
    let mut started = [0; 2];
    for i in 0..f.places() {
        let Some(top) = f.top(i) else { continue };
        let family = family_offset(top, f).0;
        counts[family][started[family]] = f.count(i);
        started[family] += 1;
    }
    counts
}

/// How many cards of `card`'s rank and colour are home: one on each foundation of its family
/// past its offset (`counts` from `family_counts`).
fn copies_home(
    card: Card,
    counts: &[[u8; FOUNDATIONS / 2]; 2],
    f: &AlternateFoundations<FOUNDATIONS>,
) -> usize {
    let (family, offset) = family_offset(card, f);
    counts[family].iter().filter(|&&c| c > offset).count()
}

/// A card's family (1 for red: the colour of the base card of the foundations it can join,
/// which is its own colour flipped when its offset above the base is odd) and its offset.
/// Building on the valley keeps a family except across the base rank.
fn family_offset(card: Card, f: &AlternateFoundations<FOUNDATIONS>) -> (usize, u8) {
    let offset = f.offset(card.rank());
    ((card.is_red() != (offset % 2 == 1)) as usize, offset)
}

/// `Terrace::blocked`'s search: whether the foundations can take the locked cards, the
/// Terrace's and the waste's each in their stack's order, when a foundation at count v may
/// also take a free card of its family and offset v (one neither on the Terrace, nor in the
/// waste at or beneath a locked card not yet home) whenever more such cards are free or home
/// than the family's foundations already past v hold. Free cards need never go home early (the
/// free cards only grow as locked cards go home, and a foundation held back leaves more of
/// them to the others), so the search picks which stack's next locked card goes next and
/// which foundation of its family at or below its offset takes it, climbs that foundation
/// with free cards to exactly the offset and lays the card on it.
struct ClearingSearch {
    /// The Terrace's cards as (family, offset), uppermost first.
    terrace: [(u8, u8); TERRACE],
    terrace_len: usize,
    /// `terrace_from[t][family][v]`: the Terrace's cards of that family and offset `v` from
    /// its `t`-th uppermost on (filled in by `clears`), so counting free cards is a lookup.
    terrace_from: [[[u8; KING as usize]; 2]; TERRACE + 1],
    /// The locked waste cards as (family, offset), uppermost first.
    waste: [(u8, u8); STOCK_MAX],
    waste_len: usize,
    /// `beneath[u][family][v]`: the waste cards of that family and offset at or beneath the
    /// locked waste card `u`, which cannot leave before it goes home (`beneath[waste_len]`
    /// counts none).
    beneath: [[[u8; KING as usize]; 2]; STOCK_MAX + 1],
    /// Cards of each family and offset, and so each family's foundations (4 in two full
    /// packs; a reduced deal has fewer, and the missing ones count as complete).
    copies: u8,
    /// Failed states, `t << 40 | u << 32 | the sorted counts`, plus one (0: an empty slot).
    failed: [u64; FAILED_SLOTS],
    /// The slots of `failed` in use, the first `held` of them: a reset empties only those.
    used: [u16; FAILED_SLOTS],
    held: usize,
}

/// Failed states the search remembers; past three quarters of them it gives up and calls
/// the cards clear (it claims "stuck" only after a whole search).
const FAILED_SLOTS: usize = 4096;

impl ClearingSearch {
    fn new() -> ClearingSearch {
        ClearingSearch {
            terrace: [(0, 0); TERRACE],
            terrace_len: 0,
            terrace_from: [[[0; KING as usize]; 2]; TERRACE + 1],
            waste: [(0, 0); STOCK_MAX],
            waste_len: 0,
            beneath: [[[0; KING as usize]; 2]; STOCK_MAX + 1],
            copies: 0,
            failed: [0; FAILED_SLOTS],
            used: [0; FAILED_SLOTS],
            held: 0,
        }
    }

    /// Empties the search for foundations holding `copies` cards of each family and offset,
    /// clearing only what the last search wrote.
    fn reset(&mut self, copies: u8) {
        for waiting in &mut self.beneath[..self.waste_len] {
            *waiting = [[0; KING as usize]; 2];
        }
        for &slot in &self.used[..self.held] {
            self.failed[slot as usize] = 0;
        }
        self.terrace_len = 0;
        self.waste_len = 0;
        self.copies = copies;
        self.held = 0;
    }

    fn push_terrace(&mut self, family: usize, offset: u8) {
        self.terrace[self.terrace_len] = (family as u8, offset);
        self.terrace_len += 1;
    }

    /// The next waste card, from the top down: every card from the first locked one down
    /// waits for each locked card above it (itself, if locked, included).
    fn push_waste(&mut self, family: usize, offset: u8, locked: bool) {
        if locked {
            self.waste[self.waste_len] = (family as u8, offset);
            self.waste_len += 1;
        }
        for waiting in &mut self.beneath[..self.waste_len] {
            waiting[family][offset as usize] += 1;
        }
    }

    /// Whether foundations holding `counts` (each family's, as `family_counts` gives them)
    /// can take the locked cards in order.
    fn clears(&mut self, counts: &[[u8; FOUNDATIONS / 2]; 2]) -> bool {
        let copies = usize::from(self.copies);
        self.terrace_from[self.terrace_len] = [[0; KING as usize]; 2];
        for t in (0..self.terrace_len).rev() {
            self.terrace_from[t] = self.terrace_from[t + 1];
            let (family, offset) = self.terrace[t];
            self.terrace_from[t][family as usize][offset as usize] += 1;
        }
        let mut start = [[KING; FOUNDATIONS / 2]; 2];
        for (family, counts) in counts.iter().enumerate() {
            start[family][..copies].copy_from_slice(&counts[..copies]);
        }
        self.search(0, 0, start)
    }

    fn slot(key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize % FAILED_SLOTS
    }

    fn has_failed(&self, key: u64) -> bool {
        let mut slot = ClearingSearch::slot(key);
        while self.failed[slot] != 0 {
            if self.failed[slot] == key {
                return true;
            }
            slot = (slot + 1) % FAILED_SLOTS;
        }
        false
    }

    /// Records a failed state; false once the table is too full to go on.
    fn remember(&mut self, key: u64) -> bool {
        let mut slot = ClearingSearch::slot(key);
        while self.failed[slot] != 0 {
            slot = (slot + 1) % FAILED_SLOTS;
        }
        self.failed[slot] = key;
        self.used[self.held] = slot as u16;
        self.held += 1;
        self.held < FAILED_SLOTS * 3 / 4
    }

    /// `t` of the Terrace's cards and `u` of the waste's locked cards are home; `counts`
    /// holds each family's foundations' counts (a missing foundation counts as complete).
    fn search(&mut self, t: usize, u: usize, mut counts: [[u8; FOUNDATIONS / 2]; 2]) -> bool {
        if t == self.terrace_len && u == self.waste_len {
            return true;
        }
        for family in &mut counts {
            family.sort_unstable();
        }
        let packed = counts
            .iter()
            .flatten()
            .fold(0u64, |k, &c| k << 4 | u64::from(c));
        let key = ((t as u64) << 40 | (u as u64) << 32 | packed) + 1;
        if self.has_failed(key) {
            return false;
        }
        let missing = FOUNDATIONS / 2 - usize::from(self.copies);
        // Free cards of a family and offset `v` (or home ones): not on the Terrace from `t`
        // on, nor waiting in the waste for its locked card `u`.
        let free = |s: &Self, family: usize, v: u8| {
            usize::from(s.copies)
                - usize::from(s.terrace_from[t][family][v as usize])
                - usize::from(s.beneath[u][family][v as usize])
        };
        let nexts = [
            (t < self.terrace_len).then(|| (self.terrace[t], t + 1, u)),
            (u < self.waste_len).then(|| (self.waste[u], t, u + 1)),
        ];
        for ((family, target), next_t, next_u) in nexts.into_iter().flatten() {
            let family = family as usize;
            let own = counts[family];
            for i in 0..own.len() {
                if own[i] > target || own[..i].contains(&own[i]) {
                    continue;
                }
                let mut climbed = own;
                let free_to_climb = (own[i]..target).all(|v| {
                    let past = climbed.iter().filter(|&&c| c > v).count() - missing;
                    climbed[i] = v + 1;
                    free(self, family, v) > past
                });
                if free_to_climb {
                    climbed[i] = target + 1;
                    let mut next = counts;
                    next[family] = climbed;
                    if self.search(next_t, next_u, next) {
                        return true;
                    }
                }
            }
        }
        // Past the table's room the search gives up: the cards count as clear.
        !self.remember(key)
    }
}

impl Game for Terrace {
    type Move = Move;
    type Key = [u64; 4];

    const NAME: &'static str = "terrace";
    const SUMMARY: &'static str =
        "Terrace (Cadogan): a Terrace of thirteen that feeds the foundations, alternate colours from a chosen base";
    const PACKS: usize = 2;
    const OPTIONS: &'static [VariantOption] = &[
        VariantOption {
            name: "terrace-cards",
            help: "cards in the Terrace (Cadogan's 13; PySolFC's relative deals 11)",
            kind: OptionKind::Number {
                min: 1,
                max: TERRACE as u32,
                default: TERRACE as u32,
            },
        },
        VariantOption {
            name: "no-terrace-preference",
            help:
                "a card may go to a foundation the Terrace's card could take (advice, not a rule)",
            kind: OptionKind::Flag,
        },
        VariantOption {
            name: "fill-from-talon",
            help: "a valley space may also be filled from the waste, not only from the stock",
            kind: OptionKind::Flag,
        },
    ];
    /// Wins lie deep and losses are out of reach: seeds 0-99 within 100k positions, the beam
    /// wins 26 in 14.9 s, the portfolio 11 in 29.1 s.
    const SEARCH: Order = Order::Beam;
    const HEURISTICS: usize = HEURISTIC_WEIGHTS.len();
    const COSTLY_MOVES: bool = true;

    /// Lifting the preference rule and letting the waste fill spaces only add moves, so the
    /// variants with either turned off are narrower.
    fn narrower(options: &OptionValues) -> Vec<OptionValues> {
        options.with_fewer_moves(
            Self::OPTIONS,
            &["no-terrace-preference", "fill-from-talon"],
            &[],
        )
    }

    /// So the variants with either turned on are wider.
    fn wider(options: &OptionValues) -> Vec<OptionValues> {
        options.with_more_moves(
            Self::OPTIONS,
            &["no-terrace-preference", "fill-from-talon"],
            &[],
        )
    }

    /// Thirteen cards to the Terrace (the last dealt on top), three turned up for the choice
    /// of base, seven to the valley (its piles 3 to 9; the two turned cards not chosen become
    /// piles 1 and 2); the rest is the stock.
    fn deal(options: &OptionValues, order: &[Card]) -> Result<Self, String> {
        let foundations = Terrace::check_cards(order)?;
        let terrace_len = options.get("terrace-cards") as usize;
        let mut terrace = [Card::from_index(0); TERRACE];
        terrace[..terrace_len].copy_from_slice(&order[..terrace_len]);
        let mut turned = [Card::from_index(0); TURNED];
        turned.copy_from_slice(&order[terrace_len..terrace_len + TURNED]);
        let layout = terrace_len + BELOW_TERRACE;
        let mut valley = [AlternatePile::default(); VALLEY];
        for (pile, &card) in valley[2..]
            .iter_mut()
            .zip(&order[terrace_len + TURNED..layout])
        {
            pile.push(card);
        }
        Ok(Terrace {
            terrace,
            terrace_len: terrace_len as u8,
            terrace_left: terrace_len as u8,
            turned: Some(turned),
            valley,
            talon: Talon::new(&order[layout..]),
            foundations: AlternateFoundations::new(1, foundations),
            terrace_preference: !options.flag("no-terrace-preference"),
            fill_from_talon: options.flag("fill-from-talon"),
            waste_offsets: OffsetCounts::default(),
            waste_inversions: [0; 2],
        })
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves, false);
    }

    /// Nothing when a Terrace card can never go home (the position is lost).
    fn search_moves(&self, moves: &mut Vec<Move>) {
        if self.turned.is_none() && self.blocked_memo() {
            return;
        }
        self.generate(moves, true);
    }

    /// Cards home count most, the Terrace's doubly ("the success of the game depends entirely
    /// on detaching cards from the Terrace"); cards waiting in the waste count against.
    fn heuristic(&self) -> i32 {
        self.weighted(1)
    }

    /// The first heuristic with other weights (`HEURISTIC_WEIGHTS`). The second counts every
    /// inversion in the waste, however few steps apart (of 200 deals among seeds 1000-2000
    /// the beam leaves unknown within 100k positions, it wins 46 within 100k, where the beam
    /// within 300k wins about a third, at three times the cost). The third charges a waste
    /// card 6, not 24 (of 40 random deals the other beams left unknown, one run of width
    /// 1,024 within 2M won 3 with it, none with the first); the fourth does both; the fifth
    /// charges 12. Each wins deals the others leave (`docs/rules/terrace.md`).
    fn other_heuristic(&self, n: usize) -> i32 {
        self.weighted(n)
    }

    /// Positions with the foundations in the same states, as many cards left on the Terrace,
    /// in the stock and in the waste, the same ranks and colours on top of the valley (in any
    /// order), and the same next stock card and waste top, are one family: the beam keeps the
    /// best of them, spending its width on positions that differ in what can be played next
    /// rather than in what lies beneath (seeds 0-299 within 100k positions: 182 won against
    /// 164 without families).
    fn family(&self) -> Option<u64> {
        let f = &self.foundations;
        let mut states: [u8; FOUNDATIONS] = std::array::from_fn(|i| f.state(i));
        states.sort_unstable();
        let kind = |card: Option<Card>| {
            card.map_or(0, |c| u64::from(c.rank()) << 1 | u64::from(c.is_red()))
        };
        let mut tops = self.valley.map(|pile| kind(pile.top()));
        tops.sort_unstable();
        let counts = [
            u64::from(self.terrace_left),
            self.talon.stock_len() as u64,
            self.talon.waste_len() as u64,
            kind(self.talon.waste_top()),
            kind(self.talon.stock_top()),
        ];
        let fields = states.into_iter().map(u64::from).chain(counts).chain(tops);
        Some(family_hash(fields))
    }

    /// An available card goes home when every copy of the card that could be built on it in
    /// the valley (one rank lower, the other colour) is home already. Not the Terrace's card
    /// while the preference rule holds and another lies beneath it (uncovering that one early
    /// would close foundations to other cards sooner). Proof in the rules document.
    fn safe_move(&self) -> Option<Move> {
        if self.turned.is_some() {
            return None;
        }
        let f = &self.foundations;
        let counts = family_counts(f);
        let terrace = self
            .terrace_top()
            .filter(|_| !self.terrace_preference || self.terrace_left == 1)
            .map(|card| (Place::Terrace, card));
        terrace
            .into_iter()
            .chain(self.movable())
            .find_map(|(from, card)| {
                let below = if card.rank() == 1 {
                    KING
                } else {
                    card.rank() - 1
                };
                let builder = Card::new(
                    if card.is_red() {
                        Suit::CLUBS
                    } else {
                        Suit::DIAMONDS
                    },
                    below,
                );
                if copies_home(builder, &counts, f) < f.places() / 2 {
                    return None;
                }
                let to = f
                    .takers(card)
                    .find(|&t| from == Place::Terrace || !self.reserved(t))?;
                Some(Move::Shift {
                    card,
                    from,
                    to: Place::Home(to as u8),
                })
            })
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = *self;
        match mv {
            Move::Base(chosen) => {
                let turned = next.turned.take().expect("a base to choose");
                let base = turned[chosen as usize];
                next.foundations =
                    AlternateFoundations::new(base.rank(), self.foundations.places());
                next.foundations.add(0, base);
                let others = (0..TURNED).filter(|&i| i != chosen as usize);
                for (pile, i) in others.enumerate() {
                    next.valley[pile].push(turned[i]);
                }
            }
            Move::Deal => {
                let card = next.talon.deal_to_waste();
                next.count_waste(card, 1);
            }
            Move::Shift { card, from, to } => {
                match from {
                    Place::Terrace => next.terrace_left -= 1,
                    Place::Pile(p) => {
                        next.valley[p as usize].pop();
                    }
                    Place::Stock => {
                        next.talon.take_stock_top();
                    }
                    Place::Waste => {
                        next.talon.take_waste_top();
                        next.count_waste(card, -1);
                    }
                    Place::Home(_) => unreachable!("cards never leave the foundations"),
                }
                match to {
                    Place::Home(f) => next.foundations.add(f as usize, card),
                    Place::Pile(p) => next.valley[p as usize].push(card),
                    _ => unreachable!("cards go home or to the valley"),
                }
            }
        }
        next
    }

    fn is_won(&self) -> bool {
        self.turned.is_none() && self.foundations.is_complete()
    }

    /// Suits never matter in Terrace (building and foundations go by rank and colour), and
    /// the valley's piles and the foundations are each interchangeable: the key holds each
    /// pile's shape and each foundation's state, sorted, with the talon and the Terrace as
    /// they stand (256 bits).
    fn key(&self) -> [u64; 4] {
        let mut piles = self.valley.map(|p| p.shape());
        piles.sort_unstable();
        let mut foundations = [0u8; FOUNDATIONS];
        for (f, state) in foundations
            .iter_mut()
            .enumerate()
            .take(self.foundations.places())
        {
            *state = self.foundations.state(f);
        }
        foundations.sort_unstable();
        let (present, split) = self.talon.state();
        let mut key = KeyWriter::<4>::new();
        key.push(present as u64, 64);
        key.push((present >> 64) as u64, STOCK_MAX - 64);
        key.push(u64::from(split), 7);
        key.push(u64::from(self.terrace_left), 4);
        key.push(u64::from(self.turned.is_some()), 1);
        for state in foundations {
            key.push(u64::from(state), 5);
        }
        for shape in piles {
            key.push(u64::from(shape), 12);
        }
        key.finish()
    }

    /// The valley and the foundations without suits (each card the first suit of its colour),
    /// the piles and the foundations sorted.
    fn canonical(&self) -> Self {
        let mut canonical = *self;
        if self.turned.is_some() {
            return canonical;
        }
        canonical.valley = self.valley.map(|p| p.without_suits());
        canonical.valley.sort_by_key(|p| p.shape());
        canonical.foundations = self.foundations.canonical(|card| {
            let suit = if card.is_red() {
                Suit::DIAMONDS
            } else {
                Suit::CLUBS
            };
            Card::new(suit, card.rank())
        });
        canonical
    }

    fn tally(&self) -> Tally {
        let valley: usize = self.valley.iter().map(|p| p.len().saturating_sub(1)).sum();
        let spaces = if self.turned.is_some() {
            0
        } else {
            self.valley.iter().filter(|p| p.is_empty()).count()
        };
        Tally {
            home: self.foundations.cards_home() as u16,
            covered: (usize::from(self.terrace_left.saturating_sub(1))
                + valley
                + self.talon.waste_len().saturating_sub(1)) as u16,
            spaces: spaces as u16,
            stock: self.stock_len() as u16,
        }
    }

    /// Cadogan's advice (`docs/rules/terrace.md`, Strategies): a base one rank below the
    /// Terrace's available card; cards from the Terrace in preference; and no card from
    /// elsewhere to a foundation when an equally suitable card of the Terrace is soon to be
    /// released (one of the next three beneath its available card).
    fn advice(&self, mv: Move) -> i8 {
        let top = self.terrace_top();
        match mv {
            Move::Base(i) => {
                let base = self.turned.expect("turned cards")[i as usize];
                match top {
                    Some(t) if base.rank() % KING + 1 == t.rank() => 2,
                    Some(t) if base.rank() < t.rank() => 1,
                    _ => 0,
                }
            }
            Move::Shift {
                from: Place::Terrace,
                ..
            } => 3,
            Move::Shift {
                card,
                to: Place::Home(_),
                ..
            } => {
                let left = self.terrace_left as usize;
                let soon = &self.terrace[left.saturating_sub(4)..left.saturating_sub(1)];
                let equal = |c: &Card| c.rank() == card.rank() && c.is_red() == card.is_red();
                if soon.iter().any(equal) {
                    -1
                } else {
                    1
                }
            }
            _ => 0,
        }
    }

    fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Base(i) => format!("base {}", self.turned.expect("turned cards")[i as usize]),
            Move::Shift { card, from, to } => format!(
                "{card} {}-{}",
                Terrace::place_name(from),
                Terrace::place_name(to)
            ),
            Move::Deal => format!("deal {}", self.talon.stock_top().expect("a stock card")),
        }
    }

    fn layout(&self) -> String {
        let terrace = &self.terrace[..self.terrace_left as usize];
        let mut out = format!("terrace (available last): {}\n", format_stack(terrace));
        match self.turned {
            Some(turned) => {
                out += &format!("turned (choose a base): {}\n", format_stack(&turned));
            }
            None => {
                out += &format!(
                    "foundations (base {}): {}\n",
                    rank_text(self.foundations.base()),
                    self.foundations.describe()
                );
            }
        }
        for (p, pile) in self.valley.iter().enumerate() {
            let cards: Vec<Card> = pile.cards().collect();
            out += &format!("valley {} (bottom up): {}\n", p + 1, format_stack(&cards));
        }
        out + &self.talon.describe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::shuffled;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The memo answers as `blocked` does along random games of several deals played in turn
    /// (one thread's memo serves every deal it searches), blocked positions among them.
    #[test]
    fn blocked_memo_answers_as_blocked() {
        let options = OptionValues::defaults(Terrace::OPTIONS);
        let deals: Vec<Terrace> = (0..6)
            .map(|seed| Terrace::deal(&options, &shuffled(seed, 2)).expect("a deal"))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut moves = Vec::new();
        let mut answers = [0; 2];
        for round in 0..120 {
            let mut position = deals[round % deals.len()];
            for _ in 0..150 {
                if position.turned.is_none() {
                    let blocked = position.blocked();
                    assert_eq!(position.blocked_memo(), blocked);
                    answers[blocked as usize] += 1;
                }
                moves.clear();
                position.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                position = position.play(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(answers[0] > 1000 && answers[1] > 100, "{answers:?}");
    }

    /// The waste's inversions kept move by move are those counted afresh, along random games
    /// that deal often (so the waste grows long) under every base the deals turn up.
    #[test]
    fn waste_inversions_kept_are_those_counted() {
        let options = OptionValues::defaults(Terrace::OPTIONS);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut moves = Vec::new();
        let mut longest = 0;
        for seed in 0..40 {
            let mut position = Terrace::deal(&options, &shuffled(seed, 2)).expect("a deal");
            for _ in 0..200 {
                assert_eq!(
                    position.waste_inversions,
                    position.counted_waste_inversions()
                );
                longest = longest.max(position.talon.waste_len());
                moves.clear();
                position.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let dealt = moves.iter().position(|&mv| mv == Move::Deal);
                let mv = match dealt {
                    Some(i) if rng.gen_bool(0.5) => moves[i],
                    _ => moves[rng.gen_range(0..moves.len())],
                };
                position = position.play(mv);
            }
        }
        assert!(longest > 30, "the waste reached only {longest} cards");
    }
}
