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

/// The lower pool: positions 17 to 20 and 22 to 24, the lower part less the shifting column
/// (16 and 21). Three pairs, 22 over 17, 23 over 18, 24 over 19, and 20 alone.
const POOL_BACKS: [usize; 3] = [16, 17, 18];
const POOL_FRONTS: [usize; 3] = [21, 22, 23];
const POOL_SINGLE: usize = 19;
const POOL: u32 = 0b111 << 16 | 1 << POOL_SINGLE | 0b111 << 21;
/// The pool's places in the order the pool view fills them: the uncovered places first.
const POOL_ORDER: [usize; 7] = [19, 21, 22, 23, 16, 17, 18];

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
    /// Whether the lower pool plays as one before the split (`Geometry::pool_plays_as_one`).
    pub pool: bool,
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
            pool: false,
        };
        geometry.pool = geometry.pool_plays_as_one();
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

    /// Whether, before the split, the lower pool (`POOL`) is three pairs, each back covered
    /// by its front alone, and a single position, with nothing outside the pool over or under
    /// a pool position, no B among them, no middle row over them and no king rule: then every
    /// uncovered run of the pool may go into any vacancy of it, and the arrangement of its
    /// runs is the player's to change while one place is vacant.
    fn pool_plays_as_one(&self) -> bool {
        let pairs = (0..3).all(|i| {
            self.covered_by[POOL_BACKS[i]] == 1 << POOL_FRONTS[i]
                && self.covered_by[POOL_FRONTS[i]] == 0
        });
        let apart = (0..POSITIONS).all(|p| {
            let inside = POOL >> p & 1 == 1;
            let over = self.covered_by[p];
            if inside {
                over & !POOL == 0
            } else {
                over & POOL == 0
            }
        });
        pairs
            && apart
            && self.covered_by[POOL_SINGLE] == 0
            && self.middle_covers.iter().all(|covers| covers & POOL == 0)
            && self.layout.fixed & POOL == 0
            && !self.layout.kings_only_before_split
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
    /// How the search sees the lower pool; the rules' view is always `Pool::Exact`.
    pool: Pool,
}

/// Hashed by its key, which is a function of the position and so agrees with equality, and
/// costs a fraction of hashing every field (the solver's line shortening hashes thousands).
impl std::hash::Hash for Wedge {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// A position's index (position number less one).
    Pile(u8),
    Stock,
    Waste,
    Home,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// `card`, with whatever is built on it, from one place to another.
    Shift { card: Card, from: Place, to: Place },
    /// The next stock card onto the waste.
    Deal,
    /// Search moves of the pool view only (never legal moves; `realize` turns a line of them
    /// into legal moves). `Shift`, and the run moved fills the pool's last vacancy in front of
    /// the run it came from, which it covers.
    Pinned { card: Card, from: Place, to: Place },
    /// `Shift` played with the pool's runs in arrangement `arrangement` (an index into
    /// `Wedge::arrangements`): the move that splits the board, after which placings matter.
    Arranged {
        card: Card,
        from: Place,
        to: Place,
        arrangement: u16,
    },
}

/// How the solver sees the lower pool (`POOL`) before the split: a position of the pool view
/// stands for every position with the same cards everywhere else and the same runs in the
/// pool, placed as the view allows. Proof that the view keeps every verdict:
/// `docs/rules/wedge.md`, "The pool view".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Pool {
    /// The pool as placed: the rules' view, and the solver's after the split or where the
    /// layout has no pool.
    Exact,
    /// A place of the pool is vacant: any arrangement of its runs (each reaches each).
    Free,
    /// Every place is filled: the arrangements in which the first `pinned` pairs hold the
    /// runs shown there, back and front, and the runs shown in the next `required` uncovered
    /// places (of 20 and the fronts of the other pairs, in that order) are uncovered.
    Full { pinned: u8, required: u8 },
}

impl Pool {
    /// The view in five bits of the key.
    fn code(self) -> u64 {
        match self {
            Pool::Exact => 0,
            Pool::Free => 1,
            Pool::Full { pinned, required } => 2 + 5 * pinned as u64 + required as u64,
        }
    }
}

/// A full pool view's constraints, by the runs' bottom cards, in fixed arrays: pinned pairs
/// (back, front) and runs required uncovered (a move may add two to the view's four).
#[derive(Clone, Copy)]
struct Constraints {
    pairs: [(Card, Card); 3],
    pair_count: usize,
    required: [Card; 6],
    required_count: usize,
}

impl Default for Constraints {
    fn default() -> Self {
        let card = Card::new(Suit::CLUBS, ACE);
        Constraints {
            pairs: [(card, card); 3],
            pair_count: 0,
            required: [card; 6],
            required_count: 0,
        }
    }
}

impl Constraints {
    fn pairs(&self) -> &[(Card, Card)] {
        &self.pairs[..self.pair_count]
    }

    fn required(&self) -> &[Card] {
        &self.required[..self.required_count]
    }

    fn pin(&mut self, back: Card, front: Card) {
        self.pairs[self.pair_count] = (back, front);
        self.pair_count += 1;
    }

    /// Whether an arrangement that puts each run (by bottom card) where `place_of` says keeps
    /// the pinned pairs together and the required runs uncovered.
    fn held_by(&self, place_of: impl Fn(Card) -> Option<usize>) -> bool {
        let uncovered = |p: usize| p == POOL_SINGLE || POOL_FRONTS.contains(&p);
        self.pairs().iter().all(|&(back, front)| {
            (0..3).any(|j| {
                place_of(back) == Some(POOL_BACKS[j]) && place_of(front) == Some(POOL_FRONTS[j])
            })
        }) && self
            .required()
            .iter()
            .all(|&run| place_of(run).is_some_and(uncovered))
    }

    fn require(&mut self, run: Card) {
        if !self.required().contains(&run) {
            self.required[self.required_count] = run;
            self.required_count += 1;
        }
    }
}

/// The pool's places in the order of `Wedge::arrangements`' permutations.
const POOL_PLACES: [usize; 7] = [16, 17, 18, 19, 21, 22, 23];

/// Every permutation of the seven pool places (indices into `POOL_PLACES`), in
/// lexicographic order.
static PERMUTATIONS: std::sync::LazyLock<Vec<[u8; 7]>> = std::sync::LazyLock::new(|| {
    (0..5040)
        .map(|mut index: usize| {
            let mut left: Vec<u8> = (0..7).collect();
            let mut order = [0; 7];
            for (i, slot) in order.iter_mut().enumerate() {
                let block = (1..7 - i).product::<usize>();
                *slot = left.remove(index / block);
                index %= block;
            }
            order
        })
        .collect()
});

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
            pool: Pool::Exact,
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
            let whole = &alike.pairs[start..end as usize];
            start = end as usize;
            // The pool view places the pool's runs itself, by what it stands for.
            let mut kept = [(0, 0); POSITIONS / 2];
            let mut count = 0;
            for &(back, front) in whole {
                if self.pool == Pool::Exact || POOL >> back & 1 == 0 {
                    kept[count] = (back, front);
                    count += 1;
                }
            }
            let group = &kept[..count];
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

    /// The moves legal when the positions in `exposed` are the uncovered ones (the rules'
    /// view passes the real ones; the pool view more).
    fn moves_with(&self, exposed: u32, moves: &mut Vec<Move>) {
        let occupied = self.occupied();
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

    /// The position after a move, its places taken as they are (the search's pool moves
    /// count as the shifts they carry).
    fn play_exact(&self, mv: Move) -> Wedge {
        let mut next = *self;
        let (card, from, to) = match mv {
            Move::Deal => {
                let card = next.talon.deal_to_waste();
                next.links.mark(card, IN_WASTE);
                return next;
            }
            Move::Shift { card, from, to }
            | Move::Pinned { card, from, to }
            | Move::Arranged { card, from, to, .. } => (card, from, to),
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
        self.moves_with(self.exposed(self.occupied()), moves);
    }

    /// The solver's moves: the legal ones, or the pool view's (`search_moves_pooled`).
    fn search_moves(&self, moves: &mut Vec<Move>) {
        if self.pool == Pool::Exact {
            self.legal_moves(moves);
        } else {
            self.search_moves_pooled(moves);
        }
    }

    fn search_start(&self) -> Self {
        self.pooled()
    }

    fn realize(start: &Self, line: &[Move]) -> Vec<Move> {
        realize_pooled(start, line)
    }

    /// Cards home count most, then the Wedge's progress; against, cards waiting in the waste.
    fn heuristic(&self) -> i32 {
        20 * self.foundations.cards_home() as i32 + 8 * self.shifts as i32
            - 2 * self.talon.waste_len() as i32
    }

    /// An available card goes home when nothing could ever be built on it again, unless it is
    /// the last card of position 21 while the Wedge waits at 16 (that would split the board
    /// at once, and the split forbids moves). Proof in `docs/rules/wedge.md`.
    /// In the pool view, a pool run counts as available only if it is uncovered in every
    /// arrangement the view stands for.
    fn safe_move(&self) -> Option<Move> {
        let exposed = (self.exposed(self.occupied()) & !POOL) | self.pool_exposure().0;
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
        if self.pool == Pool::Exact {
            self.play_exact(mv)
        } else {
            self.play_pooled(mv)
        }
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
        key.push(self.pool.code(), 5);
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
            Move::Shift { card, from, to }
            | Move::Pinned { card, from, to }
            | Move::Arranged { card, from, to, .. } => format!(
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

/// The pool view (`Pool`): the solver's positions before the split, and how a line of them
/// becomes legal moves again.
impl Wedge {
    /// The pool view of this position: itself after the split, where the layout has no pool,
    /// or if it is a view already.
    fn pooled(&self) -> Wedge {
        if !self.geometry.0.pool || self.is_split() || self.pool != Pool::Exact {
            return *self;
        }
        let mut view = *self;
        if self.pool_count() < POOL_PLACES.len() {
            view.arrange_free();
        } else {
            let bottom = |p| self.bottom(p).expect("a full pool");
            let mut constraints = Constraints::default();
            for i in 0..3 {
                constraints.pin(bottom(POOL_BACKS[i]), bottom(POOL_FRONTS[i]));
            }
            view.arrange_full(&constraints);
        }
        view
    }

    fn pool_count(&self) -> usize {
        (self.occupied() & POOL).count_ones() as usize
    }

    /// The first card of the pile at `position`, the one lying on the position itself.
    fn bottom(&self, position: usize) -> Option<Card> {
        self.links.pile(self.tops[position]).last()
    }

    /// The pool's runs as (bottom card, top card), ordered by bottom card; and how many.
    fn pool_runs(&self) -> ([(Card, Card); 7], usize) {
        let mut runs = [(Card::new(Suit::CLUBS, ACE), Card::new(Suit::CLUBS, ACE)); 7];
        let mut count = 0;
        for p in bits(POOL) {
            if let (Some(bottom), Some(top)) = (self.bottom(p), self.tops[p]) {
                runs[count] = (bottom, top);
                count += 1;
            }
        }
        runs[..count].sort_unstable_by_key(|run| run.0.index());
        (runs, count)
    }

    /// Places the pool's runs in the standard arrangement of the view `Pool::Free`.
    fn arrange_free(&mut self) {
        let (runs, count) = self.pool_runs();
        for p in bits(POOL) {
            self.tops[p] = None;
        }
        for (&(_, top), &place) in runs[..count].iter().zip(&POOL_ORDER) {
            self.tops[place] = Some(top);
        }
        self.pool = Pool::Free;
    }

    /// Places a full pool's runs in the standard arrangement of the view `Pool::Full` with
    /// the constraints given (pinned pairs, required runs).
    fn arrange_full(&mut self, constraints: &Constraints) {
        let (runs, count) = self.pool_runs();
        debug_assert_eq!(count, POOL_PLACES.len());
        let top = |bottom: Card| {
            runs.iter()
                .find(|run| run.0 == bottom)
                .expect("a pool run")
                .1
        };
        let mut pairs = constraints.pairs;
        let pinned = constraints.pair_count;
        pairs[..pinned].sort_unstable_by_key(|&(back, front)| (back.index(), front.index()));
        let in_pair = |card: Card| {
            pairs[..pinned]
                .iter()
                .any(|&(back, front)| card == back || card == front)
        };
        // With three pairs pinned, 20's run is uncovered in every arrangement: no requirement.
        let required = |card: Card| pinned < 3 && constraints.required().contains(&card);
        let free = |card: &Card| !in_pair(*card);
        let bottoms = runs.map(|run| run.0);
        let needed = bottoms.iter().filter(|&&c| free(&c) && required(c)).count();
        let uncovered = bottoms
            .iter()
            .filter(|&&c| free(&c) && required(c))
            .chain(bottoms.iter().filter(|&&c| free(&c) && !required(c)));
        let places = std::iter::once(POOL_SINGLE)
            .chain(POOL_FRONTS[pinned..].iter().copied())
            .chain(POOL_BACKS[pinned..].iter().copied());
        for (i, &(back, front)) in pairs[..pinned].iter().enumerate() {
            self.tops[POOL_BACKS[i]] = Some(top(back));
            self.tops[POOL_FRONTS[i]] = Some(top(front));
        }
        for (place, &bottom) in places.zip(uncovered) {
            self.tops[place] = Some(top(bottom));
        }
        self.pool = Pool::Full {
            pinned: pinned as u8,
            required: needed as u8,
        };
    }

    /// A full view's constraints as bottom cards: the pinned pairs and the required runs
    /// (none for the other views).
    fn pool_constraints(&self) -> Constraints {
        let mut constraints = Constraints::default();
        let Pool::Full { pinned, required } = self.pool else {
            return constraints;
        };
        let bottom = |p: usize| self.bottom(p).expect("a full pool");
        for i in 0..pinned as usize {
            constraints.pin(bottom(POOL_BACKS[i]), bottom(POOL_FRONTS[i]));
        }
        std::iter::once(POOL_SINGLE)
            .chain(POOL_FRONTS[pinned as usize..].iter().copied())
            .take(required as usize)
            .for_each(|p| constraints.require(bottom(p)));
        constraints
    }

    /// The pool places whose runs are uncovered in every arrangement the view stands for;
    /// those whose runs may be uncovered at the cost of one more requirement; and how many
    /// more requirements there is room for.
    fn pool_exposure(&self) -> (u32, u32, usize) {
        let filled = self.occupied() & POOL;
        match self.pool {
            Pool::Exact => (self.exposed(self.occupied()) & POOL, 0, 0),
            Pool::Free => (filled, 0, 0),
            Pool::Full { pinned, required } => {
                let (pinned, required) = (pinned as usize, required as usize);
                let fronts = POOL_FRONTS[..pinned].iter().fold(0, |m, &p| m | 1 << p);
                let backs = POOL_BACKS[..pinned].iter().fold(0, |m, &p| m | 1 << p);
                let mut sure = std::iter::once(POOL_SINGLE)
                    .chain(POOL_FRONTS[pinned..].iter().copied())
                    .take(required)
                    .fold(fronts, |m, p| m | 1 << p);
                if pinned == 3 {
                    sure |= 1 << POOL_SINGLE;
                }
                let room = (4 - pinned).saturating_sub(required);
                let room = if pinned == 3 { 0 } else { room };
                (sure, filled & !sure & !backs, room)
            }
        }
    }

    /// The pool view's search moves: the moves of every arrangement it stands for, less those
    /// that only rearrange the pool (a whole run into a vacancy of it) and those that would
    /// need more runs uncovered than the arrangements allow; a card into the pool's first
    /// vacancy stands for all (they lead to the same view); the move that fills the last one
    /// with part of a pool run comes twice (`Move::Pinned`); and the move that splits the
    /// board comes once for each arrangement (`Move::Arranged`).
    fn search_moves_pooled(&self, moves: &mut Vec<Move>) {
        let occupied = self.occupied();
        let (sure, optional, room) = self.pool_exposure();
        let start = moves.len();
        self.moves_with((self.exposed(occupied) & !POOL) | sure | optional, moves);
        let vacant = POOL & !occupied;
        let last_fill = vacant.count_ones() == 1;
        let splitting = self.shifts == SHIFTS - 1;
        let in_pool = |place: Place| match place {
            Place::Pile(p) if POOL >> p & 1 == 1 => Some(p as usize),
            _ => None,
        };
        let mut kept = start;
        let mut pinned = Vec::new();
        for i in start..moves.len() {
            let mv = moves[i];
            if let Move::Shift { card, from, to } = mv {
                if splitting && self.empties_21(mv) {
                    continue;
                }
                let (source, target) = (in_pool(from), in_pool(to));
                if let Some(t) = target.filter(|&t| vacant >> t & 1 == 1) {
                    if t != vacant.trailing_zeros() as usize
                        || (source.is_some() && self.links.below(card).is_none())
                    {
                        continue;
                    }
                    if last_fill && source.is_some() {
                        pinned.push(Move::Pinned { card, from, to });
                    }
                }
                let uses = source.map_or(0, |p| 1u32 << p) | target.map_or(0, |p| 1 << p);
                if (uses & optional).count_ones() as usize > room {
                    continue;
                }
            }
            moves[kept] = mv;
            kept += 1;
        }
        moves.truncate(kept);
        moves.extend(pinned);
        if splitting {
            self.arranged_moves(moves);
        }
    }

    /// For each arrangement the view stands for, the moves that empty 21 and so split the
    /// board: those that go outside the pool in every arrangement, onto a pool run where it
    /// is uncovered, into each vacancy of the pool.
    fn arranged_moves(&self, moves: &mut Vec<Move>) {
        let (sure, optional, _) = self.pool_exposure();
        let mut candidates = Vec::new();
        self.moves_with(
            (self.exposed(self.occupied()) & !POOL) | sure | optional,
            &mut candidates,
        );
        candidates.retain(|&mv| self.empties_21(mv));
        let first_vacancy = (POOL & !self.occupied()).trailing_zeros() as usize;
        for (arrangement, member) in self.arrangements() {
            let member_occupied = member.occupied();
            let uncovered = member.exposed(member_occupied);
            for &candidate in &candidates {
                let Move::Shift { card, from, to } = candidate else {
                    continue;
                };
                let arranged = |to: usize| Move::Arranged {
                    card,
                    from,
                    to: Place::Pile(to as u8),
                    arrangement,
                };
                match to {
                    Place::Pile(t) if POOL >> t & 1 == 1 => match self.tops[t as usize] {
                        Some(top) => {
                            if let Some(place) =
                                bits(uncovered & POOL).find(|&p| member.tops[p] == Some(top))
                            {
                                moves.push(arranged(place));
                            }
                        }
                        None if t as usize == first_vacancy => {
                            moves.extend(bits(POOL & !member_occupied).map(arranged));
                        }
                        None => {}
                    },
                    _ => moves.push(Move::Arranged {
                        card,
                        from,
                        to,
                        arrangement,
                    }),
                }
            }
        }
    }

    /// The arrangements the view stands for, as positions of the rules' view, each with its
    /// index in `PERMUTATIONS` (the `i`th run by bottom card goes to place `order[i]`). Of
    /// the orders that place the runs alike only the first counts, and of arrangements that
    /// differ by trading the pairs' contents only the one with the pairs in order (after the
    /// split they share a key).
    fn arrangements(&self) -> impl Iterator<Item = (u16, Wedge)> + '_ {
        let (runs, count) = self.pool_runs();
        let constraints = self.pool_constraints();
        (0..5040u16).filter_map(move |index| {
            let order = &PERMUTATIONS[index as usize];
            if !order[count..].windows(2).all(|pair| pair[0] < pair[1]) {
                return None;
            }
            let place = |run: usize| POOL_PLACES[order[run] as usize];
            let held = constraints.held_by(|bottom| {
                runs[..count]
                    .iter()
                    .position(|run| run.0 == bottom)
                    .map(place)
            });
            // The runs are in bottom-card order, so a run's index orders pairs as its cards do.
            let mut run_at = [count; POSITIONS];
            for run in 0..count {
                run_at[place(run)] = run;
            }
            let content = |j: usize| (run_at[POOL_BACKS[j]], run_at[POOL_FRONTS[j]]);
            let in_order = content(0) <= content(1) && content(1) <= content(2);
            (held && in_order).then(|| (index, self.arrangement(index)))
        })
    }

    /// The view's runs placed by permutation `index` (see `arrangements`), in the rules' view.
    fn arrangement(&self, index: u16) -> Wedge {
        let (runs, count) = self.pool_runs();
        let order = &PERMUTATIONS[index as usize];
        let mut member = *self;
        member.pool = Pool::Exact;
        for p in bits(POOL) {
            member.tops[p] = None;
        }
        for (&(_, top), &slot) in runs[..count].iter().zip(order) {
            member.tops[POOL_PLACES[slot as usize]] = Some(top);
        }
        member
    }

    /// Whether `position` (of the rules' view) is one of those this position stands for.
    fn stands_for(&self, position: &Wedge) -> bool {
        if self.pool == Pool::Exact {
            return self.key() == position.key();
        }
        let outside = |w: &Wedge| {
            let mut tops = w.tops;
            for p in bits(POOL) {
                tops[p] = None;
            }
            tops
        };
        let pool_tops = |w: &Wedge| {
            let mut tops: Vec<usize> = bits(POOL)
                .filter_map(|p| w.tops[p])
                .map(|c| c.index())
                .collect();
            tops.sort_unstable();
            tops
        };
        if self.links != position.links
            || self.shifts != position.shifts
            || self.talon != position.talon
            || self.foundations != position.foundations
            || outside(self) != outside(position)
            || pool_tops(self) != pool_tops(position)
        {
            return false;
        }
        self.pool_constraints()
            .held_by(|bottom| bits(POOL).find(|&p| position.bottom(p) == Some(bottom)))
    }

    /// The view after a search move (see `Pool` for what each view stands for).
    fn play_pooled(&self, mv: Move) -> Wedge {
        let (card, from, to, pin) = match mv {
            Move::Deal => return self.play_exact(mv),
            Move::Shift { card, from, to } => (card, from, to, false),
            Move::Pinned { card, from, to } => (card, from, to, true),
            Move::Arranged {
                card,
                from,
                to,
                arrangement,
            } => {
                let member = self.arrangement(arrangement);
                return member.play_exact(Move::Shift { card, from, to });
            }
        };
        let run_at = |place: Place| match place {
            Place::Pile(p) if POOL >> p & 1 == 1 => self.bottom(p as usize),
            _ => None,
        };
        let (source, target) = (run_at(from), run_at(to));
        let mut constraints = self.pool_constraints();
        let mut next = self.play_exact(Move::Shift { card, from, to });
        if next.is_split() {
            next.pool = Pool::Exact;
        } else if next.pool_count() < POOL_PLACES.len() {
            next.arrange_free();
        } else {
            // From a full view: the runs used now need to be uncovered. From a free one (the
            // last vacancy filled): nothing, or the run the card came from, uncovered or pinned.
            match source {
                Some(run) if pin => constraints.pin(run, card),
                Some(run) => constraints.require(run),
                None => {}
            }
            if let Some(run) = target {
                constraints.require(run);
            }
            next.arrange_full(&constraints);
        }
        next
    }

    /// The positions one whole-run move within the pool after another reaches from this one
    /// (itself first), each with the moves that reach it: the arrangements of a pool with a
    /// vacancy, which the pool view does not tell apart.
    fn rearrangements(&self) -> Vec<(Vec<Move>, Wedge)> {
        let mut found = vec![(Vec::new(), *self)];
        let mut seen = std::collections::HashSet::from([self.key()]);
        let mut legal = Vec::new();
        let mut at = 0;
        while at < found.len() {
            let (path, position) = found[at].clone();
            legal.clear();
            position.legal_moves(&mut legal);
            for &mv in &legal {
                let Move::Shift {
                    card,
                    from: Place::Pile(f),
                    to: Place::Pile(t),
                } = mv
                else {
                    continue;
                };
                let whole_run = position.links.below(card).is_none();
                if POOL >> f & POOL >> t & 1 == 1 && whole_run && position.is_vacant(t as usize) {
                    let next = position.play_exact(mv);
                    if seen.insert(next.key()) {
                        let mut longer = path.clone();
                        longer.push(mv);
                        found.push((longer, next));
                    }
                }
            }
            at += 1;
        }
        found
    }
}

/// The legal moves that play a line of the pool view from `start`: at each step, after
/// rearranging the pool if the view has a vacancy there, a legal move to a position the next
/// view stands for; with backtracking, since a choice of arrangement may only fail later.
fn realize_pooled(start: &Wedge, line: &[Move]) -> Vec<Move> {
    let view = start.search_start();
    if view == *start {
        return line.to_vec();
    }
    let mut views = vec![view];
    for &mv in line {
        views.push(views[views.len() - 1].play(mv));
    }
    let mut tried = std::collections::HashSet::new();
    let mut steps = Vec::new();
    // One frame per view reached: the arrangements of its position still to try, and the
    // legal moves of the arrangement being tried; a frame's moves start at `mark` in `steps`.
    struct Frame {
        arranged: Vec<(Vec<Move>, Wedge)>,
        next_arranged: usize,
        legal: Vec<Move>,
        next_legal: usize,
        mark: usize,
    }
    let frame = |view: &Wedge, position: Wedge, mark: usize| Frame {
        arranged: if view.pool == Pool::Free {
            position.rearrangements()
        } else {
            vec![(Vec::new(), position)]
        },
        next_arranged: 0,
        legal: Vec::new(),
        next_legal: 0,
        mark,
    };
    let mut frames = vec![frame(&views[0], *start, 0)];
    while frames.len() < views.len() {
        let at = frames.len() - 1;
        let top = frames.last_mut().expect("a frame");
        if top.next_legal == top.legal.len() {
            if top.next_arranged == top.arranged.len() {
                frames.pop();
                assert!(
                    !frames.is_empty(),
                    "every line of the pool view is played by legal moves"
                );
                continue;
            }
            top.next_arranged += 1;
            top.legal.clear();
            top.arranged[top.next_arranged - 1]
                .1
                .legal_moves(&mut top.legal);
            top.next_legal = 0;
            continue;
        }
        let mv = top.legal[top.next_legal];
        top.next_legal += 1;
        let (path, arranged) = &top.arranged[top.next_arranged - 1];
        let next = arranged.play_exact(mv);
        if !views[at + 1].stands_for(&next) || !tried.insert((at + 1, next.key())) {
            continue;
        }
        steps.truncate(top.mark);
        steps.extend(path);
        steps.push(mv);
        let mark = steps.len();
        frames.push(frame(&views[at + 1], next, mark));
    }
    steps
}
