//! FreeCell, the reference game: eight columns, up to four cells, four foundations, single-card
//! moves (a "supermove" is only a shortcut for single moves, so it changes no verdict).
//! Rules and encoding: `docs/rules/freecell.md`.

use crate::card::{Card, Suit, PACK};
use crate::game::{Game, Layer, LayerKeyer, OptionKind, OptionValues, Tally, VariantOption};
use crate::key::{get_field, set_field, truncated, KeyWriter};

const COLUMNS: usize = 8;
const MAX_CELLS: usize = 4;
/// Seven dealt cards plus twelve built on a king.
const MAX_HEIGHT: usize = 19;
const FILLER: Card = Card::from_index(0);

/// Slots above a column's height always hold `FILLER`, so derived equality is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FreeCell {
    columns: [[Card; MAX_HEIGHT]; COLUMNS],
    heights: [u8; COLUMNS],
    cells: [Option<Card>; MAX_CELLS],
    cell_count: u8,
    /// Cards on each suit's foundation (the rank of its top card).
    foundations: [u8; 4],
    /// Cards dealt: a reduced deal (tests) is won when all of them are home.
    cards: u8,
    /// The transposition key, kept up to date by `play` (a move changes one field of it).
    key: LinkKey,
    /// A bit per card still lying as dealt (its key field `AS_DEALT`), for `layer`: a card
    /// that moves never lies as dealt again.
    as_dealt: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Place {
    Column(u8),
    Cell(u8),
    Foundation,
}

impl Place {
    /// The place in four bits: columns 0-7, cells 8-11, the foundations 12.
    fn code(self) -> u16 {
        match self {
            Place::Column(c) => u16::from(c),
            Place::Cell(i) => 8 + u16::from(i),
            Place::Foundation => 12,
        }
    }

    fn from_code(code: u16) -> Place {
        match code {
            0..8 => Place::Column(code as u8),
            8..12 => Place::Cell(code as u8 - 8),
            _ => Place::Foundation,
        }
    }
}

/// A legal move takes one card. The search also moves a run of `cards` cards from column to
/// column at once (a "supermove"), as many as the free cells and empty columns let single moves
/// carry; it unfolds into those single moves, so solutions hold single-card moves only. Two
/// bytes (from, to and cards, four bits each): the search's path holds millions of moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    fn new(from: Place, to: Place, cards: u8) -> Move {
        debug_assert!((1..16).contains(&cards), "a run of {cards} cards");
        Move(from.code() | to.code() << 4 | u16::from(cards) << 8)
    }

    fn single(from: Place, to: Place) -> Move {
        Move::new(from, to, 1)
    }

    pub fn from(self) -> Place {
        Place::from_code(self.0 & 15)
    }

    pub fn to(self) -> Place {
        Place::from_code(self.0 >> 4 & 15)
    }

    pub fn cards(self) -> u8 {
        (self.0 >> 8) as u8
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Move")
            .field("from", &self.from())
            .field("to", &self.to())
            .field("cards", &self.cards())
            .finish()
    }
}

/// Three bits per card saying what lies beneath it. A card only ever moves onto a card one
/// rank higher of the other colour, a column's bottom, a cell or home; whatever else lies
/// beneath a card lay there at the deal. So these six cases name the card beneath exactly,
/// given the deal (the key is only ever compared with keys of the same deal).
type LinkKey = [u64; 3];
/// Beneath it is the card it was dealt on, which is none of the cases below.
const AS_DEALT: u64 = 0;
/// Beneath it is the one-higher card of the other colour with the lower suit index (`+ 1`:
/// the higher suit index).
const ON_HIGHER: u64 = 1;
const ON_COLUMN_BASE: u64 = 3;
const IN_CELL: u64 = 4;
const HOME: u64 = 5;

/// The cards whose key field says they lie as dealt, a bit each.
fn as_dealt_in(key: &LinkKey) -> u64 {
    (0..PACK)
        .filter(|&i| get_field(key, i, KEY_FIELD_BITS) == AS_DEALT)
        .fold(0u64, |mask, i| mask | 1 << i)
}

/// The code of a card lying on `beneath` in a column.
fn on_card_code(card: Card, beneath: Card) -> u64 {
    if card.goes_down_alternate_on(beneath) {
        // The other colour's two suits are clubs and spades, or diamonds and hearts; spades
        // and hearts have the higher index.
        ON_HIGHER + u64::from(beneath.suit().index() >= 2)
    } else {
        AS_DEALT
    }
}

/// How many cards single moves carry from column to column through `cells` free cells and
/// `columns` empty columns.
fn carry(cells: usize, columns: usize) -> usize {
    (cells + 1) << columns
}

impl FreeCell {
    fn top(&self, column: usize) -> Option<Card> {
        let h = self.heights[column] as usize;
        (h > 0).then(|| self.columns[column][h - 1])
    }

    fn card_at(&self, place: Place) -> Option<Card> {
        match place {
            Place::Column(c) => self.top(c as usize),
            Place::Cell(i) => self.cells[i as usize],
            Place::Foundation => None,
        }
    }

    fn goes_home(&self, card: Card) -> bool {
        self.foundations[card.suit().index()] + 1 == card.rank()
    }

    /// A card may go home now and never be needed on the board again: every card that could
    /// be built on it (the two of the other colour one rank lower) is home already, or is an
    /// ace, which can itself always go home instead. Proof in `docs/rules/freecell.md`.
    fn home_is_safe(&self, card: Card) -> bool {
        card.rank() <= 2
            || Suit::ALL
                .iter()
                .filter(|s| s.is_red() != card.is_red())
                .all(|s| self.foundations[s.index()] + 1 >= card.rank())
    }

    fn sources(&self) -> impl Iterator<Item = (Place, Card)> + '_ {
        let columns =
            (0..COLUMNS as u8).filter_map(|c| self.top(c as usize).map(|t| (Place::Column(c), t)));
        let cells = (0..self.cell_count)
            .filter_map(|i| self.cells[i as usize].map(|t| (Place::Cell(i), t)));
        columns.chain(cells)
    }

    /// The empty cells, by index.
    fn free_cells(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.cell_count).filter(|&i| self.cells[i as usize].is_none())
    }

    /// Cards at the top of `column` that lie in one run, each one lower and of the other
    /// colour than the card beneath it.
    fn run_length(&self, column: usize) -> usize {
        let cards = &self.columns[column][..self.heights[column] as usize];
        let mut length = cards.len().min(1);
        while length < cards.len()
            && cards[cards.len() - length].goes_down_alternate_on(cards[cards.len() - length - 1])
        {
            length += 1;
        }
        length
    }

    /// Search moves of whole runs (two cards or more) from a column onto the column whose top
    /// takes the run's lowest card, or into the first empty column, as many cards as single
    /// moves can carry. They reach no position single moves do not (each unfolds into single
    /// moves), but a search that judges positions sees a run's move as one step instead of a
    /// detour through the free cells.
    fn push_runs(&self, moves: &mut Vec<Move>) {
        let free_cells = self.free_cells().count();
        let empty_columns = self.heights.iter().filter(|&&h| h == 0).count();
        let first_empty = self.heights.iter().position(|&h| h == 0);
        for from in 0..COLUMNS {
            let (run, height) = (self.run_length(from), self.heights[from] as usize);
            if run < 2 {
                continue;
            }
            let top_rank = self.columns[from][height - 1].rank() as usize;
            for to in (0..COLUMNS).filter(|&to| to != from) {
                let sizes = match self.top(to) {
                    // The run's card one below the base, if it is of the other colour.
                    Some(base) => {
                        let cards = (base.rank() as usize).saturating_sub(top_rank);
                        let fits = (2..=run).contains(&cards)
                            && cards <= carry(free_cells, empty_columns)
                            && self.columns[from][height - cards].goes_down_alternate_on(base);
                        if fits {
                            cards..=cards
                        } else {
                            continue;
                        }
                    }
                    // A whole column into an empty one would only swap the two.
                    None if Some(to) == first_empty => {
                        2..=run
                            .min(carry(free_cells, empty_columns - 1))
                            .min(height - 1)
                    }
                    None => continue,
                };
                for cards in sizes {
                    moves.push(Move::new(
                        Place::Column(from as u8),
                        Place::Column(to as u8),
                        cards as u8,
                    ));
                }
            }
        }
    }

    /// Plays a single move and appends it to `steps`.
    fn step(&mut self, mv: Move, steps: &mut Vec<Move>) {
        steps.push(mv);
        *self = self.play(mv);
    }

    /// Moves the top `cards` cards of column `from` onto column `to` by single moves, through
    /// the free cells and the empty columns other than these two, playing them on `self` and
    /// appending them to `steps`: with `f` free cells, `f` cards wait in the cells while the
    /// lowest moves; with empty columns too, the upper part of the run is first carried to an
    /// empty column (by the same means, one empty column fewer), the rest to `to`, then the
    /// upper part onto it. So `(f + 1) * 2^e` cards can go with `e` empty columns.
    fn carry_run(&mut self, from: u8, to: u8, cards: usize, steps: &mut Vec<Move>) {
        let cells: Vec<u8> = self.free_cells().collect();
        if cards <= cells.len() + 1 {
            for &cell in &cells[..cards - 1] {
                self.step(Move::single(Place::Column(from), Place::Cell(cell)), steps);
            }
            self.step(Move::single(Place::Column(from), Place::Column(to)), steps);
            for &cell in cells[..cards - 1].iter().rev() {
                self.step(Move::single(Place::Cell(cell), Place::Column(to)), steps);
            }
            return;
        }
        let empty: Vec<u8> = (0..COLUMNS as u8)
            .filter(|&c| c != from && c != to && self.heights[c as usize] == 0)
            .collect();
        let park = *empty
            .first()
            .expect("a run no longer than single moves can carry");
        let upper = (cards - 1).min(carry(cells.len(), empty.len() - 1));
        self.carry_run(from, park, upper, steps);
        self.carry_run(from, to, cards - upper, steps);
        self.carry_run(park, to, upper, steps);
    }

    /// Appends the legal moves, the more promising first. With `one_of_each` set, moves whose
    /// results share a key with an earlier move's are left out: only the first empty column
    /// and the first free cell are offered, and a lone card is not moved to an empty column.
    fn generate(&self, moves: &mut Vec<Move>, one_of_each: bool) {
        for (from, card) in self.sources() {
            if self.goes_home(card) {
                moves.push(Move::single(from, Place::Foundation));
            }
        }
        // Builds on a column, from the cells first (that frees a cell).
        let from_cells = self.sources().filter(|(p, _)| matches!(p, Place::Cell(_)));
        let from_columns = self
            .sources()
            .filter(|(p, _)| matches!(p, Place::Column(_)));
        for (from, card) in from_cells.chain(from_columns) {
            for to in 0..COLUMNS as u8 {
                if Place::Column(to) != from
                    && self
                        .top(to as usize)
                        .is_some_and(|base| card.goes_down_alternate_on(base))
                {
                    moves.push(Move::single(from, Place::Column(to)));
                }
            }
        }
        if one_of_each {
            self.push_runs(moves);
        }
        let empty_columns = (0..COLUMNS as u8).filter(|&c| self.heights[c as usize] == 0);
        for to in empty_columns.take(if one_of_each { 1 } else { COLUMNS }) {
            for (from, _) in self.sources() {
                let lone = matches!(from, Place::Column(c) if self.heights[c as usize] == 1);
                if from != Place::Column(to) && !(one_of_each && lone) {
                    moves.push(Move::single(from, Place::Column(to)));
                }
            }
        }
        for cell in self
            .free_cells()
            .take(if one_of_each { 1 } else { MAX_CELLS })
        {
            for (from, _) in self
                .sources()
                .filter(|(p, _)| matches!(p, Place::Column(_)))
            {
                moves.push(Move::single(from, Place::Cell(cell)));
            }
        }
    }
}

/// Bits per card in the key.
const KEY_FIELD_BITS: usize = 3;
/// The key's fields fit in 20 of its 24 bytes, and the table stores only those.
const KEY_BYTES: usize = (PACK * KEY_FIELD_BITS).div_ceil(8);

impl FreeCell {
    /// The key built from the whole position (at the deal, and to check `play`'s updates).
    fn key_from_scratch(&self) -> LinkKey {
        let mut beneath = [HOME; PACK];
        for column in 0..COLUMNS {
            let cards = &self.columns[column][..self.heights[column] as usize];
            for (i, &card) in cards.iter().enumerate() {
                beneath[card.index()] = if i == 0 {
                    ON_COLUMN_BASE
                } else {
                    on_card_code(card, cards[i - 1])
                };
            }
        }
        for card in self.cells.iter().flatten() {
            beneath[card.index()] = IN_CELL;
        }
        let mut key = KeyWriter::<3>::new();
        for value in beneath {
            key.push(value, KEY_FIELD_BITS);
        }
        key.finish()
    }
}

/// A card free to move within a layer, for the in-layer key: the one-higher cards it may lie
/// on in the layer (their key codes); it may also lie at a column's base or in a cell.
#[derive(Clone, Copy)]
struct FreeCard {
    card: usize,
    higher: [u8; 2],
    highers: u8,
}

impl FreeCard {
    /// Its digit when it lies on a one-higher card (`code`); the radix is `highers` (at least 1).
    fn digit(&self, code: u64) -> u64 {
        let found = self.higher[..self.highers as usize]
            .iter()
            .position(|&open| u64::from(open) == code);
        // A place outside the layer's would merge positions: never answer with it.
        found.expect("a card lies on a place closed in its layer") as u64
    }

    fn radix(&self) -> u64 {
        u64::from(self.highers.max(1))
    }
}

/// The in-layer key of one layer (`Game::layer_keyer`). Of the cards free to move in the
/// layer, no more lie at a column's base than there are columns whose base no fixed card
/// holds, and no more in a cell than there are cells: the number is the rank of the set of
/// those at a base, then of those in a cell (each among the sets of its size or less), then
/// the digit of each other card, which one-higher card it lies on. Numbering the places of
/// each card independently (four each) took 61 bits for a layer of deal 982 that this takes
/// in 52: most of those numbers had more cards in the cells or at the bases than there is room.
struct LayerNumbers {
    free: Vec<FreeCard>,
    /// The layer's key fields: those of the cards not free to move, the free ones' zero.
    fixed: LinkKey,
    /// How many sets of free cards in a cell the layer has room for.
    cell_sets: u64,
    /// How many numbers the digits of the cards on one-higher cards take.
    digit_count: u64,
    count: u64,
}

impl LayerNumbers {
    /// The numbering of a layer with these free cards, with room for `bases` of them at a
    /// column's base and `cells` in a cell; `None` when there are more than 2^64 numbers.
    fn new(free: Vec<FreeCard>, fixed: LinkKey, bases: usize, cells: usize) -> Option<Self> {
        let digit_count = free
            .iter()
            .try_fold(1u64, |count, free| count.checked_mul(free.radix()))?;
        let cell_sets = subsets_up_to(free.len(), cells);
        let count = subsets_up_to(free.len(), bases)
            .checked_mul(cell_sets)?
            .checked_mul(digit_count)?;
        Some(LayerNumbers {
            free,
            fixed,
            cell_sets,
            digit_count,
            count,
        })
    }
}

impl LayerKeyer<FreeCell> for LayerNumbers {
    fn number(&self, position: &FreeCell) -> u64 {
        let (mut bases, mut cells) = (SetRank::default(), SetRank::default());
        let mut digits = 0u64;
        for (i, free) in self.free.iter().enumerate() {
            let code = get_field(&position.key, free.card, KEY_FIELD_BITS);
            let digit = match code {
                ON_COLUMN_BASE => {
                    bases.add(i);
                    0
                }
                IN_CELL => {
                    cells.add(i);
                    0
                }
                _ => free.digit(code),
            };
            digits = digits * free.radix() + digit;
        }
        let cards = self.free.len();
        let sets = bases.rank(cards) * self.cell_sets + cells.rank(cards);
        sets * self.digit_count + digits
    }

    fn key(&self, number: u64) -> [u8; KEY_BYTES] {
        let cards = self.free.len();
        let (sets, mut digits) = (number / self.digit_count, number % self.digit_count);
        let bases = subset_unrank(sets / self.cell_sets, cards);
        let cells = subset_unrank(sets % self.cell_sets, cards);
        let mut key = self.fixed;
        for (i, free) in self.free.iter().enumerate().rev() {
            let digit = digits % free.radix();
            digits /= free.radix();
            let code = if bases.contains(&i) {
                ON_COLUMN_BASE
            } else if cells.contains(&i) {
                IN_CELL
            } else {
                u64::from(free.higher[digit as usize])
            };
            set_field(&mut key, free.card, KEY_FIELD_BITS, code);
        }
        truncated(&key)
    }

    fn count(&self) -> u64 {
        self.count
    }
}

/// The most items of a set the in-layer numbers rank (a column's base each).
const MOST_IN_SET: usize = COLUMNS;

/// C(n, k) for every `n` up to a pack and `k` up to `MOST_IN_SET + 1`.
const BINOMIALS: [[u64; MOST_IN_SET + 2]; PACK + 2] = {
    let mut table = [[0; MOST_IN_SET + 2]; PACK + 2];
    let mut n = 0;
    while n < PACK + 2 {
        table[n][0] = 1;
        let mut k = 1;
        while k < MOST_IN_SET + 2 && k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
};

fn binomial(n: usize, k: usize) -> u64 {
    BINOMIALS[n][k]
}

/// How many sets of at most `most` of `n` items there are.
fn subsets_up_to(n: usize, most: usize) -> u64 {
    (0..=most.min(n)).map(|k| binomial(n, k)).sum()
}

/// The rank of a set of items (indices below `n`, added in ascending order) among all sets of
/// them: the smaller sets first, and those of one size in colex order.
#[derive(Default)]
struct SetRank {
    size: usize,
    colex: u64,
}

impl SetRank {
    fn add(&mut self, item: usize) {
        self.size += 1;
        self.colex += binomial(item, self.size);
    }

    fn rank(&self, n: usize) -> u64 {
        subsets_up_to(n, self.size) - binomial(n, self.size) + self.colex
    }
}

/// The set of a rank (`SetRank::rank`'s inverse).
fn subset_unrank(mut rank: u64, n: usize) -> Vec<usize> {
    let mut size = 0;
    while rank >= binomial(n, size) {
        rank -= binomial(n, size);
        size += 1;
    }
    let mut set = vec![0; size];
    for i in (0..size).rev() {
        let mut item = i;
        while binomial(item + 1, i + 1) <= rank {
            item += 1;
        }
        rank -= binomial(item, i + 1);
        set[i] = item;
    }
    set
}

impl FreeCell {
    /// The cards beneath a card that still lies as dealt. Such a card stays for the whole
    /// layer, so the card beneath it stays too: these are the layer's, not the position's.
    fn pinned(&self) -> u64 {
        let mut pinned = 0u64;
        for column in 0..COLUMNS {
            let cards = &self.columns[column][..self.heights[column] as usize];
            for pair in cards.windows(2) {
                if self.as_dealt & (1 << pair[1].index()) != 0 {
                    pinned |= 1 << pair[0].index();
                }
            }
        }
        pinned
    }

    /// The cards free to move within this position's layer, and the one-higher cards each
    /// may lie on: every card but those home, those as dealt and those pinned beneath one as
    /// dealt (all three fixed by the layer). A free card lies in a cell, at a column's base,
    /// or on one of the two one-higher cards of the other colour that is not home and not
    /// pinned (nothing else can lie on a pinned card: a card as dealt lies on it).
    fn free_cards(&self) -> Vec<FreeCard> {
        let pinned = self.pinned();
        let fixed = |card: Card| {
            let bit = 1 << card.index();
            (self.as_dealt | pinned) & bit != 0
                || get_field(&self.key, card.index(), KEY_FIELD_BITS) == HOME
        };
        let mut free = Vec::new();
        for card in (0..PACK).map(Card::from_index).filter(|&card| !fixed(card)) {
            let mut open = FreeCard {
                card: card.index(),
                higher: [0; 2],
                highers: 0,
            };
            if card.rank() < 13 {
                let mut higher = Suit::ALL
                    .into_iter()
                    .filter(|s| s.is_red() != card.is_red());
                for code in [ON_HIGHER, ON_HIGHER + 1] {
                    let suit = higher.next().expect("two suits of the other colour");
                    let beneath = Card::new(suit, card.rank() + 1).index();
                    if get_field(&self.key, beneath, KEY_FIELD_BITS) != HOME
                        && pinned & (1 << beneath) == 0
                    {
                        open.higher[open.highers as usize] = code as u8;
                        open.highers += 1;
                    }
                }
            }
            free.push(open);
        }
        free
    }
}

impl Game for FreeCell {
    type Move = Move;
    type Key = [u8; KEY_BYTES];

    const NAME: &'static str = "freecell";
    const SUMMARY: &'static str =
        "FreeCell: 8 columns, free cells, single-card moves (the reference game with public answers)";
    const PACKS: usize = 1;
    const LAYERED: bool = true;
    const OPTIONS: &'static [VariantOption] = &[VariantOption {
        name: "cells",
        help: "number of free cells",
        kind: OptionKind::Number {
            min: 0,
            max: 4,
            default: 4,
        },
    }];

    /// Card `i` goes to column `i mod 8`, as Microsoft deals. Any set of distinct cards may be
    /// dealt (tests use reduced packs); the command line always gives a full pack.
    fn deal(options: &OptionValues, order: &[Card]) -> Result<Self, String> {
        if order.len() > PACK {
            return Err(format!(
                "FreeCell deals at most {PACK} cards, not {}",
                order.len()
            ));
        }
        let mut game = FreeCell {
            columns: [[FILLER; MAX_HEIGHT]; COLUMNS],
            heights: [0; COLUMNS],
            cells: [None; MAX_CELLS],
            cell_count: options.get("cells") as u8,
            foundations: [0; 4],
            cards: order.len() as u8,
            key: [0; 3],
            as_dealt: 0,
        };
        for (i, &card) in order.iter().enumerate() {
            let column = i % COLUMNS;
            game.columns[column][game.heights[column] as usize] = card;
            game.heights[column] += 1;
        }
        game.key = game.key_from_scratch();
        game.as_dealt = as_dealt_in(&game.key);
        Ok(game)
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves, false);
    }

    fn search_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves, true);
    }

    fn unfold(&self, mv: Move, steps: &mut Vec<Move>) {
        match (mv.from(), mv.to()) {
            (Place::Column(from), Place::Column(to)) if mv.cards() > 1 => {
                let mut position = *self;
                position.carry_run(from, to, mv.cards() as usize, steps);
            }
            _ => steps.push(mv),
        }
    }

    /// Cards home count most; then free cells and empty columns; a card lying on one it could
    /// not have been built on, and cards above the next card each suit needs, count against.
    fn heuristic(&self) -> i32 {
        let home: i32 = self.foundations.iter().map(|&f| f as i32).sum();
        let free_cells = self.free_cells().count() as i32;
        let mut score = 40 * home + 6 * free_cells;
        for column in 0..COLUMNS {
            let cards = &self.columns[column][..self.heights[column] as usize];
            if cards.is_empty() {
                score += 12;
            }
            for (i, card) in cards.iter().enumerate() {
                if i > 0 && !card.goes_down_alternate_on(cards[i - 1]) {
                    score -= 6;
                }
                if self.goes_home(*card) {
                    score -= 5 * (cards.len() - 1 - i) as i32;
                }
            }
        }
        score
    }

    /// Cards only ever go home and leave the card they were dealt on, never come back: the
    /// layer is the foundations and which cards still lie as dealt, ranked by how many cards
    /// have gone home or left.
    fn layer(&self) -> Layer {
        debug_assert_eq!(self.as_dealt, as_dealt_in(&self.key));
        let as_dealt = self.as_dealt;
        let home: u32 = self.foundations.iter().map(|&f| u32::from(f)).sum();
        let foundations = self
            .foundations
            .iter()
            .fold(0u128, |packed, &f| packed << 4 | u128::from(f));
        Layer {
            rank: home + PACK as u32 - as_dealt.count_ones(),
            id: foundations << PACK | u128::from(as_dealt),
        }
    }

    /// Follows the links up from each column's base; a card as dealt lies on the card it lay
    /// on in `self`, the deal.
    fn rebuild(&self, key: &[u8; KEY_BYTES]) -> Option<Self> {
        let mut words: LinkKey = [0; 3];
        for (i, &byte) in key.iter().enumerate() {
            words[i / 8] |= u64::from(byte) << (8 * (i % 8));
        }
        let mut dealt = [false; PACK];
        let mut dealt_on = [None; PACK];
        for column in 0..COLUMNS {
            let cards = &self.columns[column][..self.heights[column] as usize];
            for (i, &card) in cards.iter().enumerate() {
                dealt[card.index()] = true;
                if i > 0 {
                    dealt_on[card.index()] = Some(cards[i - 1]);
                }
            }
        }
        let mut position = FreeCell {
            columns: [[FILLER; MAX_HEIGHT]; COLUMNS],
            heights: [0; COLUMNS],
            cells: [None; MAX_CELLS],
            cell_count: self.cell_count,
            foundations: [0; 4],
            cards: self.cards,
            key: words,
            as_dealt: as_dealt_in(&words),
        };
        let mut above = [None; PACK];
        let (mut bases, mut cells) = (0, 0);
        for index in (0..PACK).filter(|&i| dealt[i]) {
            let card = Card::from_index(index);
            let beneath = match get_field(&words, index, KEY_FIELD_BITS) {
                HOME => {
                    position.foundations[card.suit().index()] += 1;
                    continue;
                }
                IN_CELL => {
                    *position.cells.get_mut(cells)? = Some(card);
                    cells += 1;
                    continue;
                }
                ON_COLUMN_BASE => {
                    position.columns.get_mut(bases)?[0] = card;
                    position.heights[bases] = 1;
                    bases += 1;
                    continue;
                }
                AS_DEALT => dealt_on[index]?,
                code => {
                    // The other colour's suits, the lower index first (`on_card_code`).
                    let mut suits = Suit::ALL
                        .into_iter()
                        .filter(|s| s.is_red() != card.is_red());
                    let suit = if code == ON_HIGHER {
                        suits.next()
                    } else {
                        suits.next_back()
                    };
                    Card::new(suit?, card.rank() + 1)
                }
            };
            above[beneath.index()] = Some(card);
        }
        for column in 0..bases {
            let mut top = position.columns[column][0];
            while let Some(card) = above[top.index()] {
                let height = position.heights[column] as usize;
                *position.columns[column].get_mut(height)? = card;
                position.heights[column] += 1;
                top = card;
            }
        }
        (position.key_from_scratch() == words).then_some(position)
    }

    /// The free cards' places in the layer as one number (`LayerNumbers`); `None` when
    /// there are more than 64 bits of them.
    fn layer_keyer(&self) -> Option<Box<dyn LayerKeyer<Self>>> {
        let free = self.free_cards();
        let mut fixed = self.key;
        for card in &free {
            set_field(&mut fixed, card.card, KEY_FIELD_BITS, 0);
        }
        let fixed_bases = (0..PACK)
            .filter(|&card| {
                free.iter().all(|f| f.card != card)
                    && get_field(&self.key, card, KEY_FIELD_BITS) == ON_COLUMN_BASE
            })
            .count();
        let cells = usize::from(self.cell_count);
        let numbers = LayerNumbers::new(free, fixed, COLUMNS - fixed_bases, cells)?;
        Some(Box::new(numbers))
    }

    /// A layer is a family: positions with the same cards home and the same cards still as
    /// dealt, differing only in where the moved cards lie. The beam keeps the best of each,
    /// so its width goes to positions that differ in what has been done rather than in how the
    /// cells and runs are shuffled (two-cell deals 17760 and 19671, unknown to the beam within
    /// 150M positions and more without families, are won in 0.44M and 16.8M).
    fn family(&self) -> Option<u64> {
        let id = self.layer().id;
        // The id's 68 bits folded into 64 (two families that share a value by chance are
        // merged, which changes only what the beam keeps).
        Some((id as u64) ^ ((id >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    /// Of several safe cards, the lowest by index: the choice depends on the cards alone, not
    /// on which column or cell holds them, so positions with one key have the same children's
    /// keys (the layered search relies on it to find its lines again).
    fn safe_move(&self) -> Option<Move> {
        self.sources()
            .filter(|&(_, card)| self.goes_home(card) && self.home_is_safe(card))
            .min_by_key(|&(_, card)| card.index())
            .map(|(from, _)| Move::single(from, Place::Foundation))
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = *self;
        if let (Place::Column(from), Place::Column(to), 2..) = (mv.from(), mv.to(), mv.cards()) {
            let (from, to, cards) = (from as usize, to as usize, mv.cards() as usize);
            let (start, base) = (
                self.heights[from] as usize - cards,
                self.heights[to] as usize,
            );
            for i in 0..cards {
                next.columns[to][base + i] = self.columns[from][start + i];
                next.columns[from][start + i] = FILLER;
            }
            next.heights[from] -= mv.cards();
            next.heights[to] += mv.cards();
            // Only the run's lowest card lies on something new.
            let lowest = self.columns[from][start];
            let beneath = match base {
                0 => ON_COLUMN_BASE,
                _ => on_card_code(lowest, self.columns[to][base - 1]),
            };
            set_field(&mut next.key, lowest.index(), KEY_FIELD_BITS, beneath);
            next.as_dealt &= !(1 << lowest.index());
            return next;
        }
        let card = match mv.from() {
            Place::Column(c) => {
                next.heights[c as usize] -= 1;
                let slot = &mut next.columns[c as usize][next.heights[c as usize] as usize];
                std::mem::replace(slot, FILLER)
            }
            Place::Cell(i) => next.cells[i as usize]
                .take()
                .expect("move from an empty cell"),
            Place::Foundation => unreachable!("cards never leave the foundations"),
        };
        let beneath = match mv.to() {
            Place::Column(c) => {
                let height = next.heights[c as usize] as usize;
                next.columns[c as usize][height] = card;
                next.heights[c as usize] += 1;
                if height == 0 {
                    ON_COLUMN_BASE
                } else {
                    on_card_code(card, next.columns[c as usize][height - 1])
                }
            }
            Place::Cell(i) => {
                next.cells[i as usize] = Some(card);
                IN_CELL
            }
            Place::Foundation => {
                next.foundations[card.suit().index()] += 1;
                HOME
            }
        };
        set_field(&mut next.key, card.index(), KEY_FIELD_BITS, beneath);
        next.as_dealt &= !(1 << card.index());
        next
    }

    fn is_won(&self) -> bool {
        self.foundations.iter().map(|&f| f as u32).sum::<u32>() == self.cards as u32
    }

    /// For each card, what lies beneath it; the order of columns and of cells is forgotten, so
    /// positions that differ only by permuting them share a key. Kept up to date by `play`.
    fn key(&self) -> [u8; KEY_BYTES] {
        debug_assert_eq!(self.key, self.key_from_scratch());
        truncated(&self.key)
    }

    /// Columns sorted by their cards (bottom first), cells sorted, empty ones last.
    fn canonical(&self) -> Self {
        let mut canonical = *self;
        let mut columns: Vec<&[Card]> = (0..COLUMNS)
            .map(|c| &self.columns[c][..self.heights[c] as usize])
            .collect();
        columns.sort();
        for (c, cards) in columns.iter().enumerate() {
            canonical.columns[c] = [FILLER; MAX_HEIGHT];
            canonical.columns[c][..cards.len()].copy_from_slice(cards);
            canonical.heights[c] = cards.len() as u8;
        }
        canonical
            .cells
            .sort_by_key(|cell| cell.map_or(u8::MAX as usize, |c| c.index()));
        canonical
    }

    fn tally(&self) -> Tally {
        let nonempty = self.heights.iter().filter(|&&h| h > 0).count();
        let cards: usize = self.heights.iter().map(|&h| h as usize).sum();
        let free_cells = self.free_cells().count();
        Tally {
            home: self.foundations.iter().map(|&f| f as u16).sum(),
            covered: (cards - nonempty) as u16,
            spaces: (COLUMNS - nonempty + free_cells) as u16,
            stock: 0,
        }
    }

    /// FreeCell has no book among our sources; `book` plays the common advice to keep the
    /// free cells free (`docs/rules/freecell.md`).
    fn advice(&self, mv: Move) -> i8 {
        match (mv.from(), mv.to()) {
            (_, Place::Cell(_)) => -1,
            (Place::Cell(_), _) => 1,
            _ => 0,
        }
    }

    fn move_text(&self, mv: Move) -> String {
        let name = |place: Place| match place {
            Place::Column(c) => char::from(b'1' + c),
            Place::Cell(i) => char::from(b'a' + i),
            Place::Foundation => 'h',
        };
        let card = self.card_at(mv.from()).expect("a move names a card");
        if let (Place::Column(from), 2..) = (mv.from(), mv.cards()) {
            // A search move only (solutions are unfolded): the run's lowest card and how many
            // lie on it.
            let lowest =
                self.columns[from as usize][(self.heights[from as usize] - mv.cards()) as usize];
            return format!(
                "{lowest}+{} {}{}",
                mv.cards() - 1,
                name(mv.from()),
                name(mv.to())
            );
        }
        format!("{card} {}{}", name(mv.from()), name(mv.to()))
    }

    fn layout(&self) -> String {
        let mut out = String::from("cells:");
        for i in 0..self.cell_count as usize {
            out += &self.cells[i].map_or(" --".to_string(), |c| format!(" {c}"));
        }
        out += "   foundations:";
        for suit in Suit::ALL {
            let rank = self.foundations[suit.index()];
            out += &if rank == 0 {
                format!(" -{}", suit.letter())
            } else {
                format!(" {}", Card::new(suit, rank))
            };
        }
        out.push('\n');
        let rows = *self.heights.iter().max().unwrap_or(&0) as usize;
        for row in 0..rows {
            let line: Vec<String> = (0..COLUMNS)
                .map(|c| {
                    if row < self.heights[c] as usize {
                        self.columns[c][row].to_string()
                    } else {
                        "  ".to_string()
                    }
                })
                .collect();
            out += line.join(" ").trim_end();
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::shuffled;

    #[test]
    fn sets_rank_in_order_and_unrank_back() {
        for (n, most) in [(0, 2), (5, 2), (12, 8), (40, 4)] {
            let count = subsets_up_to(n, most);
            for rank in (0..count).step_by((count as usize / 500).max(1)) {
                let set = subset_unrank(rank, n);
                assert!(set.len() <= most && set.windows(2).all(|w| w[0] < w[1]));
                assert!(set.iter().all(|&item| item < n));
                let mut ranked = SetRank::default();
                set.iter().for_each(|&item| ranked.add(item));
                assert_eq!(ranked.rank(n), rank, "{set:?}");
            }
        }
        assert_eq!(binomial(52, 8), 752_538_150);
        assert_eq!(subsets_up_to(5, 2), 1 + 5 + 10);
    }

    /// The key `play` keeps up to date equals the key built from the whole position, along
    /// random games (each move chosen by a simple generator from the seed); and within a deal,
    /// positions share a key only when they are the same up to the order of columns and cells.
    /// A move of a random game: picked from `moves` by a linear congruential generator.
    fn pick(state: &mut u64, moves: &[Move]) -> Move {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        moves[(*state >> 33) as usize % moves.len()]
    }

    /// Every run the search moves unfolds into single moves, each legal where it is played,
    /// that end in exactly the position the run's move gives; along random games with two
    /// cells and with four.
    #[test]
    fn runs_unfold_into_legal_single_moves() {
        let (mut moves, mut legal, mut steps) = (Vec::new(), Vec::new(), Vec::new());
        let mut runs = 0;
        for cells in [2, 4] {
            let mut options = OptionValues::defaults(FreeCell::OPTIONS);
            options.set(FreeCell::OPTIONS, "cells", cells).unwrap();
            for seed in 0..100u64 {
                let mut position = FreeCell::deal(&options, &shuffled(seed, 1)).unwrap();
                let mut state = seed;
                for _ in 0..200 {
                    moves.clear();
                    position.search_moves(&mut moves);
                    for &mv in moves.iter().filter(|mv| mv.cards() > 1) {
                        runs += 1;
                        steps.clear();
                        position.unfold(mv, &mut steps);
                        assert!(steps.len() >= mv.cards() as usize);
                        let mut walked = position;
                        for &step in &steps {
                            legal.clear();
                            walked.legal_moves(&mut legal);
                            assert!(legal.contains(&step), "seed {seed}: {step:?} refused");
                            walked = walked.play(step);
                        }
                        assert_eq!(walked, position.play(mv), "seed {seed}: {mv:?}");
                    }
                    if moves.is_empty() {
                        break;
                    }
                    position = position.play(pick(&mut state, &moves));
                }
            }
        }
        assert!(runs > 1000, "only {runs} runs tried");
    }

    #[test]
    fn incremental_key_matches_the_key_from_scratch() {
        let mut moves = Vec::new();
        for seed in 0..200u64 {
            let mut seen = std::collections::HashMap::new();
            let mut position = FreeCell::deal(
                &OptionValues::defaults(FreeCell::OPTIONS),
                &shuffled(seed, 1),
            )
            .unwrap();
            let mut state = seed;
            for _ in 0..300 {
                moves.clear();
                position.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                position = position.play(pick(&mut state, &moves));
                assert_eq!(position.key, position.key_from_scratch(), "seed {seed}");
                let canonical = *seen.entry(position.key).or_insert(position.canonical());
                assert_eq!(
                    canonical,
                    position.canonical(),
                    "seed {seed}: two positions, one key"
                );
            }
        }
    }
}
