//! The Wedge (Hoffmann): twenty-four cards in five rows, a middle row that the Wedge drives
//! out, building down in alternate colours, aces up in suit, one pass through the stock. The
//! book's diagram is lost, so the layout is a parameter (`Layout`), rebuilt from the worked
//! example by `examples/wedge_layouts`. Rules, decisions, the reconstruction and the
//! encoding: `docs/rules/wedge.md`.

use crate::card::{format_stack, whole_suits, Card, Suit, ACE, KING};
use crate::foundations::SuitFoundations;
use crate::game::{Game, OptionKind, OptionValues, Tally, VariantOption};
use crate::key::KeyWriter;
use crate::links::{Links, FIRST_MARKER};
use crate::talon::Talon;

/// Positions 1 to 24, numbered row by row; indices here are one less.
pub const POSITIONS: usize = 24;
/// Each row's first index and length: 4, 5, 6, 5 and 4 cards.
pub const ROWS: [(usize, usize); 5] = [(0, 4), (4, 5), (9, 6), (15, 5), (20, 4)];
/// The middle row (positions 10 to 15); the Wedge is dealt to its right end.
const MIDDLE: usize = 9;
const MIDDLE_LEN: usize = 6;
const POSITION_16: usize = 15;
const POSITION_21: usize = 20;
/// Shifts that bring the Wedge from 15 to 21: five along the middle row, then down to 16 and
/// to 21. After the last the board is split in two parts.
pub const SHIFTS: u8 = 7;
const LAYOUT_CARDS: usize = POSITIONS;
const STOCK_MAX: usize = 52 - LAYOUT_CARDS;
/// The positions of the board outside the middle row, which hold piles.
const BOARD: u32 = ((1 << POSITIONS) - 1) & !(((1 << MIDDLE_LEN) - 1) << MIDDLE);
const UPPER_PART: u32 = (1 << MIDDLE) - 1;
const LOWER_PART: u32 = ((1 << POSITIONS) - 1) & !((1 << (MIDDLE + MIDDLE_LEN)) - 1);
/// The upper row of each part (rows 1 and 4): after the split only a king comes into a
/// vacancy there from the board.
const UPPER_ROWS: u32 = 0b1111 | 0b11111 << POSITION_16;

/// An empty position's top in the key (card indices run to 51).
const NO_CARD: u64 = 63;

/// What lies beneath a card that is not on another card.
const BASE: u8 = FIRST_MARKER;
const IN_MIDDLE: u8 = FIRST_MARKER + 1;
const IN_WASTE: u8 = FIRST_MARKER + 2;
const IN_STOCK: u8 = FIRST_MARKER + 3;
const HOME: u8 = FIRST_MARKER + 4;

/// The lost diagram as parameters: where each row lies, which row of each part is in front,
/// what the middle row lies over, the B positions, and two readings of the first stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// Each row's left edge, in half card widths from the middle row's.
    pub offsets: [i8; 5],
    /// The row of the upper part (0 or 1) that lies in front of the other where they overlap.
    pub upper_front: usize,
    /// The row of the lower part (3 or 4) that lies in front of the other.
    pub lower_front: usize,
    /// Whether the middle row lies over the upper part's cards it overlaps.
    pub middle_over_upper: bool,
    /// Whether the middle row lies over the lower part's cards it overlaps.
    pub middle_over_lower: bool,
    /// The positions marked B (bit `i` is position `i + 1`).
    pub fixed: u32,
    /// Whether the upper part's uncovered cards may be played before the split.
    pub upper_open_before_split: bool,
    /// Whether the king rule for vacancies in rows 1 and 4 holds before the split as well.
    pub kings_only_before_split: bool,
}

/// The layout we adopt (`docs/rules/wedge.md`): rows 1, 3, 4 and 5 flush left, row 2 one
/// card to the right; the front rows 2 and 5; the middle row over the upper part; B at 1 and 9.
pub const ADOPTED: Layout = Layout {
    offsets: [0, 2, 0, 0, 0],
    upper_front: 1,
    lower_front: 4,
    middle_over_upper: true,
    middle_over_lower: false,
    fixed: 1 << 0 | 1 << 8,
    upper_open_before_split: true,
    kings_only_before_split: false,
};

/// What a layout means for play, worked out once: who covers whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    pub layout: Layout,
    /// For each position, the positions outside the middle row that lie over it.
    pub covered_by: [u32; POSITIONS],
    /// After `s` shifts, the positions the middle row still lies over.
    pub middle_covers: [u32; SHIFTS as usize + 1],
    /// After `s` shifts, the groups of (back, front) pairs of positions that play alike (see
    /// `Geometry::alike_pairs`), which the key takes in a standard order.
    pub alike: [AlikePairs; SHIFTS as usize + 1],
}

/// Groups of (back, front) pairs of positions, the pairs of a group playing alike: `pairs`
/// holds them group after group, and group `g` ends at `ends[g]`. Only groups of two or more
/// pairs are kept (one pair alone has nothing to trade with).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AlikePairs {
    pairs: [(u8, u8); POSITIONS / 2],
    ends: [u8; 4],
    groups: u8,
}

impl Layout {
    /// The row (0..5) and index within it of a position index.
    pub fn row_of(position: usize) -> (usize, usize) {
        let row = ROWS
            .iter()
            .rposition(|&(first, _)| first <= position)
            .expect("a position");
        (row, position - ROWS[row].0)
    }

    /// The left edge, in half card widths, of the card at `index` in `row`.
    fn left(&self, row: usize, index: usize) -> i32 {
        self.offsets[row] as i32 + 2 * index as i32
    }

    /// Whether a card of `row_a` at `index_a` overlaps one of `row_b` at `index_b`.
    pub fn overlaps(
        &self,
        (row_a, index_a): (usize, usize),
        (row_b, index_b): (usize, usize),
    ) -> bool {
        (self.left(row_a, index_a) - self.left(row_b, index_b)).abs() < 2
    }

    /// The positions of `row` that a card at `(row_over, index)` overlaps.
    fn overlapped(&self, over: (usize, usize), row: usize) -> u32 {
        let (first, len) = ROWS[row];
        (0..len)
            .filter(|&i| self.overlaps(over, (row, i)))
            .fold(0, |mask, i| mask | 1 << (first + i))
    }

    pub fn geometry(&self) -> Geometry {
        let mut covered_by = [0u32; POSITIONS];
        for (front, back) in [
            (self.upper_front, 1 - self.upper_front),
            (self.lower_front, 7 - self.lower_front),
        ] {
            let (first, len) = ROWS[front];
            for i in 0..len {
                let covers = self.overlapped((front, i), back);
                for (position, covered) in covered_by.iter_mut().enumerate() {
                    if covers >> position & 1 == 1 {
                        *covered |= 1 << (first + i);
                    }
                }
            }
        }
        let mut middle_covers = [0u32; SHIFTS as usize + 1];
        for (shifts, covers) in middle_covers.iter_mut().enumerate() {
            let left_in_row = MIDDLE_LEN.saturating_sub(shifts);
            for column in 0..left_in_row {
                let over = (2, column);
                if self.middle_over_upper {
                    *covers |= self.overlapped(over, 0) | self.overlapped(over, 1);
                }
                if self.middle_over_lower {
                    *covers |= self.overlapped(over, 3) | self.overlapped(over, 4);
                }
            }
        }
        let mut geometry = Geometry {
            layout: *self,
            covered_by,
            middle_covers,
            alike: [AlikePairs::default(); SHIFTS as usize + 1],
        };
        for shifts in 0..=SHIFTS {
            geometry.alike[shifts as usize] = geometry.alike_pairs(shifts);
        }
        geometry
    }
}

impl Geometry {
    /// The pairs of board positions that could trade their cards after `shifts` shifts without
    /// changing any rule, in groups that play alike. A pair is a front lying over a back and
    /// over nothing else, with nothing else over the back, the back over nothing, and neither
    /// a B position (in the adopted layout 2/5, 3/6, 4/7 and 16/21 to 19/24). A pair's cards
    /// move only between its back and front and elsewhere by the rules every position shares,
    /// so trading two alike pairs' cards maps every move of one position to a move of the
    /// other. Before the split a pair the middle row lies over, the shifting column (16 and
    /// 21) and, in a layout that closes it, the upper part play apart; pairs differ by which
    /// of their positions are in the king rule's rows only while that rule holds.
    fn alike_pairs(&self, shifts: u8) -> AlikePairs {
        let lying_over =
            |p: usize| (0..POSITIONS).filter(move |&q| self.covered_by[q] >> p & 1 == 1);
        let plain = |p: usize| BOARD >> p & 1 == 1 && self.layout.fixed >> p & 1 == 0;
        let split = shifts == SHIFTS;
        let kings = split || self.layout.kings_only_before_split;
        let apart = if split {
            0
        } else {
            let closed = if self.layout.upper_open_before_split {
                0
            } else {
                UPPER_PART
            };
            self.middle_covers[shifts as usize] | 1 << POSITION_16 | 1 << POSITION_21 | closed
        };
        let pairs: Vec<(u8, u8, u8)> = (0..POSITIONS)
            .filter_map(|back| {
                let over = self.covered_by[back];
                let front = over.trailing_zeros() as usize;
                let alike = over.count_ones() == 1
                    && plain(back)
                    && plain(front)
                    && self.covered_by[front] == 0
                    && lying_over(front).count() == 1
                    && lying_over(back).count() == 0
                    && (1 << back | 1 << front) & apart == 0;
                let kind = if kings {
                    (UPPER_ROWS >> back & 1) as u8 | ((UPPER_ROWS >> front & 1) as u8) << 1
                } else {
                    0
                };
                alike.then_some((back as u8, front as u8, kind))
            })
            .collect();
        let mut alike = AlikePairs::default();
        let mut count = 0;
        for kind in 0..4 {
            let group: Vec<_> = pairs.iter().filter(|pair| pair.2 == kind).collect();
            if group.len() < 2 {
                continue;
            }
            for &&(back, front, _) in &group {
                alike.pairs[count] = (back, front);
                count += 1;
            }
            alike.ends[alike.groups as usize] = count as u8;
            alike.groups += 1;
        }
        alike
    }

    /// The lower part's positions that nothing lies over: the five the book marks E.
    pub fn exposed_lower(&self) -> u32 {
        (0..POSITIONS)
            .filter(|&p| LOWER_PART >> p & 1 == 1)
            .filter(|&p| self.covered_by[p] == 0 && self.middle_covers[0] >> p & 1 == 0)
            .fold(0, |mask, p| mask | 1 << p)
    }
}

/// A geometry shared by every position of a game, compared and hashed by its address: the
/// positions of one search all hold the same one, and hashing the whole of it per position
/// would triple the cost of hashing a position.
#[derive(Clone, Copy, Debug)]
pub struct Shared(&'static Geometry);

impl PartialEq for Shared {
    fn eq(&self, other: &Shared) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Shared {}

impl std::hash::Hash for Shared {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::ptr::hash(self.0, state)
    }
}

/// The positions the worked example allows for the second B card (the first is 1): the
/// `--second-b` variant. 9 is adopted.
pub const SECOND_B_CHOICES: [u32; 3] = [2, 9, 19];

/// The adopted layout with its second B card at each of `SECOND_B_CHOICES`.
static GEOMETRIES: std::sync::LazyLock<[Geometry; 3]> = std::sync::LazyLock::new(|| {
    SECOND_B_CHOICES.map(|position| {
        Layout {
            fixed: 1 | 1 << (position - 1),
            ..ADOPTED
        }
        .geometry()
    })
});

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wedge {
    /// What lies beneath each card: a card of its pile, or its pile's base, the middle row,
    /// the stock, the waste or home.
    links: Links,
    /// Each position's top card; the middle row's positions hold none (see `middle`).
    tops: [Option<Card>; POSITIONS],
    /// The middle row as dealt; after `shifts` shifts the first `shifts` have left it.
    middle: [Card; MIDDLE_LEN],
    shifts: u8,
    talon: Talon<STOCK_MAX>,
    foundations: SuitFoundations,
    geometry: Shared,
}

/// Hashed by its key, which is a function of the position and so agrees with equality, and
/// costs a fraction of hashing every field (the solver's line shortening hashes thousands).
impl std::hash::Hash for Wedge {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A position's index (position number less one).
    Pile(u8),
    Stock,
    Waste,
    Home,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// `card`, with whatever is built on it, from one place to another.
    Shift { card: Card, from: Place, to: Place },
    /// The next stock card onto the waste.
    Deal,
}

fn bits(mask: u32) -> impl Iterator<Item = usize> {
    (0..POSITIONS).filter(move |&p| mask >> p & 1 == 1)
}

impl Wedge {
    /// Lays out a deal on any layout (the layout search tries many; the game uses `ADOPTED`).
    pub fn with_geometry(geometry: &'static Geometry, order: &[Card]) -> Result<Wedge, String> {
        let suits = whole_suits(order)?;
        if order.len() < LAYOUT_CARDS {
            return Err(format!(
                "the Wedge lays out {LAYOUT_CARDS} cards; the deal has {}",
                order.len()
            ));
        }
        let mut middle = [order[MIDDLE]; MIDDLE_LEN];
        middle.copy_from_slice(&order[MIDDLE..MIDDLE + MIDDLE_LEN]);
        let mut game = Wedge {
            links: Links::all(HOME),
            tops: [None; POSITIONS],
            middle,
            shifts: 0,
            talon: Talon::new(&order[LAYOUT_CARDS..]),
            foundations: SuitFoundations::new(ACE),
            geometry: Shared(geometry),
        };
        for suit in Suit::ALL.into_iter().filter(|s| !suits[s.index()]) {
            game.foundations.complete_suit(suit);
        }
        for (position, &card) in order[..LAYOUT_CARDS].iter().enumerate() {
            if BOARD >> position & 1 == 1 {
                game.links.mark(card, BASE);
                game.tops[position] = Some(card);
            } else {
                game.links.mark(card, IN_MIDDLE);
            }
        }
        for &card in &order[LAYOUT_CARDS..] {
            game.links.mark(card, IN_STOCK);
        }
        Ok(game)
    }

    /// The top cards with the pairs of positions that play alike now (`Geometry::alike_pairs`)
    /// taken in a standard order: positions that differ only by which such pair holds which
    /// cards are the same for play, and share a key.
    fn canonical_tops(&self) -> [Option<Card>; POSITIONS] {
        let mut tops = self.tops;
        let alike = &self.geometry.0.alike[self.shifts as usize];
        let mut start = 0;
        for &end in &alike.ends[..alike.groups as usize] {
            let group = &alike.pairs[start..end as usize];
            start = end as usize;
            let mut contents = [(None, None); POSITIONS / 2];
            for (content, &(back, front)) in contents.iter_mut().zip(group) {
                *content = (self.tops[back as usize], self.tops[front as usize]);
            }
            let contents = &mut contents[..group.len()];
            contents.sort_unstable();
            for (&(back, front), &(back_top, front_top)) in group.iter().zip(contents.iter()) {
                tops[back as usize] = back_top;
                tops[front as usize] = front_top;
            }
        }
        tops
    }

    /// Whether the Wedge has reached 21 and the board is two parts.
    pub fn is_split(&self) -> bool {
        self.shifts == SHIFTS
    }

    /// The cards still in the middle row, left to right (the Wedge last).
    pub fn middle_row(&self) -> &[Card] {
        &self.middle[(self.shifts as usize).min(MIDDLE_LEN)..]
    }

    /// The cards at a position index, bottom first; a middle-row position shows its card.
    pub fn pile(&self, position: usize) -> Vec<Card> {
        if BOARD >> position & 1 == 1 {
            self.links.pile_bottom_up(self.tops[position])
        } else {
            self.middle_row()
                .get(position - MIDDLE)
                .into_iter()
                .copied()
                .collect()
        }
    }

    /// The position index of the pile (or middle-row place) that holds `card`.
    pub fn position_of(&self, card: Card) -> Option<usize> {
        (0..POSITIONS).find(|&p| self.pile(p).contains(&card))
    }

    pub fn is_vacant(&self, position: usize) -> bool {
        BOARD >> position & 1 == 1 && self.tops[position].is_none()
    }

    pub fn waste_len(&self) -> usize {
        self.talon.waste_len()
    }

    pub fn geometry(&self) -> &'static Geometry {
        self.geometry.0
    }

    fn occupied(&self) -> u32 {
        (0..POSITIONS)
            .filter(|&p| self.tops[p].is_some())
            .fold(0, |mask, p| mask | 1 << p)
    }

    /// The positions whose top card is available: occupied, with nothing lying over them.
    fn exposed(&self, occupied: u32) -> u32 {
        let layout = &self.geometry.0.layout;
        let mut closed = self.geometry.0.middle_covers[self.shifts as usize];
        if !self.is_split() && !layout.upper_open_before_split {
            closed |= UPPER_PART;
        }
        bits(occupied & !closed)
            .filter(|&p| self.geometry.0.covered_by[p] & occupied == 0)
            .fold(0, |mask, p| mask | 1 << p)
    }

    fn is_fixed(&self, position: usize) -> bool {
        self.geometry.0.layout.fixed >> position & 1 == 1
    }

    /// The cards of position `position` that may move with what lies on them, top first: the
    /// whole pile (it is one run down in alternate colours) less a B position's base.
    fn movable(&self, position: usize) -> impl Iterator<Item = Card> + '_ {
        let fixed = self.is_fixed(position);
        self.links
            .pile(self.tops[position])
            .filter(move |&card| !(fixed && self.links.below(card).is_none()))
    }

    /// The card of `position` that goes on `target`, if any: the pile is one run, so only the
    /// card one rank lower can.
    fn fitting(&self, position: usize, target: Card) -> Option<Card> {
        let top = self.tops[position]?;
        if top.rank() >= target.rank() {
            return None;
        }
        let depth = (target.rank() - 1 - top.rank()) as usize;
        self.movable(position)
            .nth(depth)
            .filter(|card| card.goes_down_alternate_on(target))
    }

    fn kings_only(&self, position: usize) -> bool {
        UPPER_ROWS >> position & 1 == 1
            && (self.is_split() || self.geometry.0.layout.kings_only_before_split)
    }

    fn talon_cards(&self) -> impl Iterator<Item = (Place, Card)> + '_ {
        let stock = self.talon.stock_top().map(|card| (Place::Stock, card));
        stock
            .into_iter()
            .chain(self.talon.waste_top().map(|card| (Place::Waste, card)))
    }

    /// The available single cards: exposed tops, the next stock card, the waste top.
    fn tops_available(&self, exposed: u32) -> impl Iterator<Item = (Place, Card)> + '_ {
        bits(exposed)
            .map(|p| (Place::Pile(p as u8), self.tops[p].expect("exposed")))
            .chain(self.talon_cards())
    }

    /// Whether nothing could ever be built on `card` again: the cards of the other colour one
    /// rank lower are home (an ace takes nothing).
    fn builders_home(&self, card: Card) -> bool {
        card.rank() == ACE
            || Suit::ALL
                .iter()
                .filter(|s| s.is_red() != card.is_red())
                .all(|&s| self.foundations.is_home(Card::new(s, card.rank() - 1)))
    }

    /// Whether the move takes the only card of position 21 away, which shifts the Wedge on.
    fn empties_21(&self, mv: Move) -> bool {
        matches!(mv, Move::Shift { card, from: Place::Pile(p), .. }
            if p as usize == POSITION_21 && self.links.below(card).is_none())
    }

    /// While position 21 is empty and the Wedge has not reached it, the middle row moves on:
    /// 16 drops to 21, 10 to 16, and 11 to 15 one place left.
    fn settle(&mut self) {
        while !self.is_split() && self.tops[POSITION_21].is_none() {
            self.tops[POSITION_21] = self.tops[POSITION_16];
            if (self.shifts as usize) < MIDDLE_LEN {
                let card = self.middle[self.shifts as usize];
                self.links.mark(card, BASE);
                self.tops[POSITION_16] = Some(card);
            } else {
                self.tops[POSITION_16] = None;
            }
            self.shifts += 1;
        }
    }

    fn place_name(place: Place) -> String {
        match place {
            Place::Pile(p) => (p + 1).to_string(),
            Place::Stock => "s".to_string(),
            Place::Waste => "w".to_string(),
            Place::Home => "h".to_string(),
        }
    }
}

impl Game for Wedge {
    type Move = Move;
    type Key = [u64; 7];

    const NAME: &'static str = "wedge";
    const SUMMARY: &'static str =
        "The Wedge (Hoffmann): five rows, the middle one driven out by the Wedge, then two parts";
    const PACKS: usize = 1;
    const OPTIONS: &'static [VariantOption] = &[VariantOption {
        name: "second-b",
        help: "the position of the second B card (never moved): 2, 9 or 19, the three the worked example allows",
        kind: OptionKind::Number {
            min: 2,
            max: 19,
            default: 9,
        },
    }];

    /// Positions 1 to 24 row by row, the rest the stock. Tests may deal a reduced pack of
    /// whole suits.
    fn deal(options: &OptionValues, order: &[Card]) -> Result<Self, String> {
        let second_b = options.get("second-b");
        let choice = SECOND_B_CHOICES
            .iter()
            .position(|&p| p == second_b)
            .ok_or_else(|| {
                format!("--second-b takes 2, 9 or 19 (the positions the worked example allows), not {second_b}")
            })?;
        Wedge::with_geometry(&GEOMETRIES[choice], order)
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        let occupied = self.occupied();
        let exposed = self.exposed(occupied);
        for (from, card) in self.tops_available(exposed) {
            if self.foundations.accepts(card) {
                moves.push(Move::Shift {
                    card,
                    from,
                    to: Place::Home,
                });
            }
        }
        for to in bits(exposed) {
            let target = self.tops[to].expect("exposed");
            for from in bits(exposed).filter(|&p| p != to) {
                if let Some(card) = self.fitting(from, target) {
                    moves.push(Move::Shift {
                        card,
                        from: Place::Pile(from as u8),
                        to: Place::Pile(to as u8),
                    });
                }
            }
            for (from, card) in self.talon_cards() {
                if card.goes_down_alternate_on(target) {
                    moves.push(Move::Shift {
                        card,
                        from,
                        to: Place::Pile(to as u8),
                    });
                }
            }
        }
        for to in bits(BOARD & !occupied) {
            let to_place = Place::Pile(to as u8);
            for (from, card) in self.talon_cards() {
                moves.push(Move::Shift {
                    card,
                    from,
                    to: to_place,
                });
            }
            let kings_only = self.kings_only(to);
            for from in bits(exposed) {
                for card in self.movable(from) {
                    if !kings_only || card.rank() == KING {
                        moves.push(Move::Shift {
                            card,
                            from: Place::Pile(from as u8),
                            to: to_place,
                        });
                    }
                }
            }
        }
        if self.talon.stock_len() > 0 {
            moves.push(Move::Deal);
        }
    }

    /// Cards home count most, then the Wedge's progress; against, cards waiting in the waste.
    fn heuristic(&self) -> i32 {
        20 * self.foundations.cards_home() as i32 + 8 * self.shifts as i32
            - 2 * self.talon.waste_len() as i32
    }

    /// An available card goes home when nothing could ever be built on it again, unless it is
    /// the last card of position 21 while the Wedge waits at 16 (that would split the board
    /// at once, and the split forbids moves). Proof in `docs/rules/wedge.md`.
    fn safe_move(&self) -> Option<Move> {
        let exposed = self.exposed(self.occupied());
        self.tops_available(exposed).find_map(|(from, card)| {
            let mv = Move::Shift {
                card,
                from,
                to: Place::Home,
            };
            let splits = self.shifts == SHIFTS - 1 && self.empties_21(mv);
            (self.foundations.accepts(card) && self.builders_home(card) && !splits).then_some(mv)
        })
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = *self;
        let Move::Shift { card, from, to } = mv else {
            let card = next.talon.deal_to_waste();
            next.links.mark(card, IN_WASTE);
            return next;
        };
        let run_top = match from {
            Place::Pile(p) => {
                let run_top = next.tops[p as usize].expect("a move from an empty position");
                next.tops[p as usize] = next.links.below(card);
                run_top
            }
            Place::Stock => next.talon.take_stock_top(),
            Place::Waste => next.talon.take_waste_top(),
            Place::Home => unreachable!("cards never leave the foundations"),
        };
        match to {
            Place::Home => {
                next.foundations.add(card);
                next.links.mark(card, HOME);
            }
            Place::Pile(t) => {
                next.links.lay(card, next.tops[t as usize], BASE);
                next.tops[t as usize] = Some(run_top);
            }
            Place::Stock | Place::Waste => unreachable!("nothing is moved onto the talon"),
        }
        next.settle();
        next
    }

    fn is_won(&self) -> bool {
        self.foundations.is_complete()
    }

    /// What lies beneath each card (the links), each board position's top card, and the
    /// shifts made: together they fix every pile, the middle row, and which cards remain in
    /// the stock and the waste (the stock's order is the deal's, so that fixes both). After
    /// the split the alike pairs of positions are taken in a standard order, so positions
    /// that differ only by which pair holds which cards share a key.
    fn key(&self) -> [u64; 7] {
        let links = self.links.words();
        let mut key = KeyWriter::<7>::new();
        for word in links {
            key.push(word, 64);
        }
        let tops = self.canonical_tops();
        for position in bits(BOARD) {
            key.push(tops[position].map_or(NO_CARD, |c| c.index() as u64), 6);
        }
        key.push(self.shifts as u64, 3);
        key.finish()
    }

    fn canonical(&self) -> Self {
        Wedge {
            tops: self.canonical_tops(),
            ..*self
        }
    }

    fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Shift { card, from, to } => format!(
                "{card} {}>{}",
                Wedge::place_name(from),
                Wedge::place_name(to)
            ),
            Move::Deal => format!("deal {}", self.talon.stock_top().expect("a stock card")),
        }
    }

    fn layout(&self) -> String {
        let exposed = self.exposed(self.occupied());
        let mut out = format!("foundations: {}\n", self.foundations.describe());
        out += &match self.middle_row() {
            [] => format!("middle row: gone ({} shifts)\n", self.shifts),
            row => format!(
                "middle row (10-{}): {} (the Wedge last)\n",
                10 + row.len() - 1,
                format_stack(row)
            ),
        };
        for position in (0..POSITIONS).filter(|&p| BOARD >> p & 1 == 1) {
            let mark = if self.is_fixed(position) { "B" } else { " " };
            let open = if exposed >> position & 1 == 1 {
                "  (open)"
            } else {
                ""
            };
            out += &format!(
                "{:>2}{mark} {}{open}\n",
                position + 1,
                format_stack(&self.pile(position))
            );
        }
        out + &self.talon.describe()
    }

    fn tally(&self) -> Tally {
        let occupied = self.occupied();
        let exposed = self.exposed(occupied);
        let covered: usize = bits(occupied)
            .map(|p| self.pile(p).len() - usize::from(exposed >> p & 1 == 1))
            .sum();
        let spaces = bits(BOARD & !occupied).count();
        Tally {
            home: self.foundations.cards_home() as u16,
            covered: (covered + self.middle_row().len() + self.talon.waste_len().saturating_sub(1))
                as u16,
            spaces: spaces as u16,
            stock: self.talon.stock_len() as u16,
        }
    }

    /// Hoffmann's advice (`docs/rules/wedge.md`, Strategies): drive the Wedge in first, and
    /// put cards out, though not one that may still be wanted "for building purposes".
    fn advice(&self, mv: Move) -> i8 {
        match mv {
            _ if !self.is_split() && self.empties_21(mv) => 2,
            Move::Shift {
                card,
                to: Place::Home,
                ..
            } if self.builders_home(card) => 2,
            _ => 0,
        }
    }
}
