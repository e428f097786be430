//! General Sedgewick (Cadogan): a cross of five piles built down regardless of suit, four
//! foundations up in suit from the rank of the sixth card dealt, and one pass through the
//! stock. Rules, decisions and encoding: `docs/rules/sedgewick.md`.

use crate::card::{format_stack, rank_text, whole_suits, Card, Rank, Suit, KING};
use crate::foundations::{OffsetCounts, SuitFoundations};
use crate::game::{Game, OptionKind, OptionValues, Tally, VariantOption};
use crate::links::{Links, FIRST_MARKER};
use crate::solver::Order;
use crate::talon::Talon;

const CROSS: usize = 5;
/// The stock: 52 cards less the cross and the first foundation card.
const STOCK_MAX: usize = 46;

/// How many steps later in its foundation a card may lie above another before it counts as an
/// inversion (see `heuristic` and `SuitFoundations::inversions`).
const INVERSION_SLACK: u8 = 4;
/// The slack of the second heuristic's inversions.
const SECOND_INVERSION_SLACK: u8 = 2;
/// Both slacks, in the order `Sedgewick::inversions` keeps their counts.
const INVERSION_SLACKS: [u8; 2] = [INVERSION_SLACK, SECOND_INVERSION_SLACK];

/// What lies beneath a card that is not on another card.
const CROSS_BOTTOM: u8 = FIRST_MARKER;
const IN_WASTE: u8 = FIRST_MARKER + 1;
const IN_STOCK: u8 = FIRST_MARKER + 2;
const HOME: u8 = FIRST_MARKER + 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sedgewick {
    /// Every card's place (the cross piles, stock, waste, home); also the key.
    links: Links,
    tops: [Option<Card>; CROSS],
    /// How many cards each cross pile holds: a pile is a run built down by rank from its
    /// bottom card, so with its height the inversions over it are counted without a walk.
    heights: [u8; CROSS],
    talon: Talon<STOCK_MAX>,
    foundations: SuitFoundations,
    /// Whether building down on the cross wraps (a king on an ace).
    wrap: bool,
    /// The inversions in the waste and the cross piles, with the first heuristic's slack and
    /// with the second's (`heuristic`, `other_heuristic`), kept up move by move: a move
    /// changes two stacks at most, and a heuristic is asked of every position.
    inversions: [i32; 2],
    /// The waste's cards counted by their offsets, so that a card dealt onto it or taken
    /// from it changes the inversion counts without a walk down the waste.
    waste_offsets: OffsetCounts,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    Pile(u8),
    Stock,
    Waste,
    Home,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// An available card from one place to another.
    Shift { card: Card, from: Place, to: Place },
    /// The next stock card onto the waste.
    Deal,
    /// The search's move (never a player's): a card moved from pile to pile that only waits,
    /// made together with a move that needs it (`Sedgewick::push_pairs`).
    Paired([(Card, Place, Place); 2]),
}

fn shift((card, from, to): (Card, Place, Place)) -> Move {
    Move::Shift { card, from, to }
}

impl Sedgewick {
    /// Whether `card` may be built on `base` on the cross: one rank lower, any suit.
    fn goes_on(&self, card: Card, base: Card) -> bool {
        card.rank() + 1 == base.rank() || (self.wrap && card.rank() == KING && base.rank() == 1)
    }

    /// The rank that may be built on a card of `rank`, if any.
    fn rank_below(&self, rank: Rank) -> Option<Rank> {
        match rank {
            1 if self.wrap => Some(KING),
            1 => None,
            _ => Some(rank - 1),
        }
    }

    /// Whether a card of `rank` going home can lose no win: each card of the rank below is
    /// home or next for its foundation (it can go home wherever it could be built on this
    /// one), and if any is not home, every card of the rank below that is (nothing could be
    /// built on it in turn). `docs/rules/sedgewick.md`, Safe moves.
    fn nothing_to_build_on(&self, rank: Rank) -> bool {
        let Some(below) = self.rank_below(rank) else {
            return true;
        };
        let all_home = |rank: Rank| {
            Suit::ALL
                .iter()
                .all(|&s| self.foundations.is_home(Card::new(s, rank)))
        };
        if all_home(below) {
            return true;
        }
        let next_or_home = Suit::ALL.iter().all(|&s| {
            let card = Card::new(s, below);
            self.foundations.is_home(card) || self.foundations.accepts(card)
        });
        next_or_home && self.rank_below(below).is_none_or(all_home)
    }

    fn sources(&self) -> impl Iterator<Item = (Place, Card)> + '_ {
        self.sources_with(self.tops)
    }

    /// The available cards if the cross's tops were `tops`, the talon as it is.
    fn sources_with(
        &self,
        tops: [Option<Card>; CROSS],
    ) -> impl Iterator<Item = (Place, Card)> + '_ {
        let piles =
            (0..CROSS).filter_map(move |p| tops[p].map(|card| (Place::Pile(p as u8), card)));
        piles
            .chain(self.talon.stock_top().map(|card| (Place::Stock, card)))
            .chain(self.talon.waste_top().map(|card| (Place::Waste, card)))
    }

    /// Appends the legal moves, or with `search` the search's: a card goes only into the
    /// first space (the cross piles are interchangeable), and a move that only waits comes
    /// paired with the moves that need it (`push_pairs`).
    fn generate(&self, moves: &mut Vec<Move>, search: bool) {
        // The cards that can move, gathered once: every pile is tried against them.
        let mut sources = [(Place::Home, Card::from_index(0)); CROSS + 2];
        let mut count = 0;
        for source in self.sources() {
            sources[count] = source;
            count += 1;
        }
        let sources = &sources[..count];
        for &(from, card) in sources {
            if self.foundations.accepts(card) {
                moves.push(Move::Shift {
                    card,
                    from,
                    to: Place::Home,
                });
            }
        }
        for to in 0..CROSS {
            let Some(base) = self.tops[to] else { continue };
            for &(from, card) in sources {
                if from != Place::Pile(to as u8) && self.goes_on(card, base) {
                    let built = (card, from, Place::Pile(to as u8));
                    // From pile to pile, leaving a card: it only waits.
                    let waits = matches!(from, Place::Pile(_)) && self.links.below(card).is_some();
                    if search && waits {
                        self.push_pairs(built, moves);
                    } else {
                        moves.push(shift(built));
                    }
                }
            }
        }
        let spaces = (0..CROSS).filter(|&p| self.tops[p].is_none());
        for to in spaces.take(if search { 1 } else { CROSS }) {
            for &(from, card) in sources {
                if matches!(from, Place::Stock | Place::Waste) {
                    moves.push(Move::Shift {
                        card,
                        from,
                        to: Place::Pile(to as u8),
                    });
                }
            }
        }
        if self.talon.stock_len() > 0 {
            moves.push(Move::Deal);
        }
    }

    /// A card moved from pile to pile that leaves a card `y` beneath it only waits (it takes
    /// no space and frees none): a winning line can put it off until just before the first
    /// move that needs it, one that moves `y`, puts a card onto `y`, or puts one onto the
    /// moved card `x`. So the search makes it only paired with each such move, or with another
    /// such move when one move could need both. When the safe move would send `y` home, only
    /// that pair. Proof in `docs/rules/sedgewick.md`, "Moves that wait come paired".
    fn push_pairs(&self, waiting: (Card, Place, Place), moves: &mut Vec<Move>) {
        let (x, Place::Pile(from), Place::Pile(onto)) = waiting else {
            unreachable!("a move that waits goes from pile to pile")
        };
        // After the move only the two piles' tops differ: the foundations, the talon and
        // what lies beneath every other top are as they are now.
        let y = self
            .links
            .below(x)
            .expect("a move that waits leaves a card");
        let mut tops = self.tops;
        tops[from as usize] = Some(y);
        tops[onto as usize] = Some(x);
        let here = Place::Pile(from);
        let start = moves.len();
        let pair = |then| Move::Paired([waiting, then]);
        if self.foundations.accepts(y) {
            moves.push(pair((y, here, Place::Home)));
            if self.nothing_to_build_on(y.rank()) {
                return;
            }
        }
        for to in 0..CROSS as u8 {
            if to != from && tops[to as usize].is_some_and(|t| self.goes_on(y, t)) {
                moves.push(pair((y, here, Place::Pile(to))));
            }
        }
        for (source, card) in self.sources_with(tops) {
            if source != Place::Pile(onto) && self.goes_on(card, y) {
                moves.push(pair((card, source, here)));
            }
            if source != here && self.goes_on(card, x) {
                moves.push(pair((card, source, Place::Pile(onto))));
            }
        }
        for other in 0..CROSS as u8 {
            let Some(x2) = tops[other as usize] else {
                continue;
            };
            let Some(y2) = self.links.below(x2) else {
                continue;
            };
            if other == from || other == onto {
                continue;
            }
            let linked = self.goes_on(y, x2)
                || self.goes_on(y, y2)
                || self.goes_on(y2, x)
                || self.goes_on(y2, y);
            if !linked {
                continue;
            }
            for to in 0..CROSS as u8 {
                if to != other && tops[to as usize].is_some_and(|t| self.goes_on(x2, t)) {
                    let paired = pair((x2, Place::Pile(other), Place::Pile(to)));
                    if !moves[start..].contains(&paired) {
                        moves.push(paired);
                    }
                }
            }
        }
    }

    /// The heuristics' measure, given the inversions counted (`heuristic`).
    fn score(&self, inversions: i32) -> i32 {
        20 * self.foundations.cards_home() as i32
            - 2 * self.talon.waste_len() as i32
            - 12 * inversions
    }

    /// The inversions of the waste and the cross piles with the given slack, counted afresh:
    /// what `inversions` keeps up move by move.
    #[cfg(test)]
    fn counted_inversions(&self, slack: u8) -> i32 {
        let counted =
            |stack: &mut dyn Iterator<Item = Card>| self.foundations.inversions(stack, slack);
        let piles: i32 = (0..CROSS)
            .map(|p| counted(&mut self.links.pile(self.tops[p])))
            .sum();
        piles + counted(&mut self.talon.waste().rev())
    }

    /// The inversions `card` makes lying on the top `beneath` cards of a cross pile, with each
    /// heuristic's slack.
    fn inversions_over_pile(&self, card: Card, beneath: u8) -> [i32; 2] {
        self.foundations
            .inversions_over_run(card, beneath.into(), INVERSION_SLACKS)
    }

    /// The inversions `card` makes lying on the waste whose cards `beneath` counts.
    fn inversions_over_waste(&self, card: Card, beneath: OffsetCounts) -> [i32; 2] {
        self.foundations
            .inversions_over_counted(card, beneath, INVERSION_SLACKS)
    }

    /// Adds (`sign` 1) or takes away (-1) the inversions a card makes over a stack.
    fn count_inversions(&mut self, sign: i32, over: [i32; 2]) {
        for (kept, over) in self.inversions.iter_mut().zip(over) {
            *kept += sign * over;
        }
    }

    fn place_name(place: Place) -> char {
        match place {
            Place::Pile(p) => char::from(b'1' + p),
            Place::Stock => 's',
            Place::Waste => 'w',
            Place::Home => 'h',
        }
    }
}

impl Game for Sedgewick {
    type Move = Move;
    type Key = [u64; 5];

    const NAME: &'static str = "sedgewick";
    const SUMMARY: &'static str =
        "General Sedgewick (Cadogan): a cross built down in any suit, foundations from the sixth card";
    const PACKS: usize = 1;
    const OPTIONS: &'static [VariantOption] = &[VariantOption {
        name: "no-wrap",
        help: "building on the cross stops at the ace (no king on an ace)",
        kind: OptionKind::Flag,
    }];
    /// Wins lie deep and losses are out of reach: seeds 0-199 within 200k positions, the beam
    /// wins 180 in 7.3 s, the portfolio 130 in 24.8 s.
    const SEARCH: Order = Order::Beam;
    const HEURISTICS: usize = 2;

    /// The wrap only adds moves (a king onto an ace): `--no-wrap` is narrower.
    fn narrower(options: &OptionValues) -> Vec<OptionValues> {
        options.with_fewer_moves(Self::OPTIONS, &[], &["no-wrap"])
    }

    /// So the standard rules are wider than `--no-wrap`.
    fn wider(options: &OptionValues) -> Vec<OptionValues> {
        options.with_more_moves(Self::OPTIONS, &[], &["no-wrap"])
    }

    /// Five cards to the cross, the sixth to the first foundation, the rest the stock. Tests
    /// may deal a reduced pack of whole suits.
    fn deal(options: &OptionValues, order: &[Card]) -> Result<Self, String> {
        let suits = whole_suits(order)?;
        if order.len() < CROSS + 1 {
            return Err(format!(
                "General Sedgewick lays out {} cards; the deal has {}",
                CROSS + 1,
                order.len()
            ));
        }
        let first_foundation = order[CROSS];
        let mut game = Sedgewick {
            links: Links::all(HOME),
            tops: [None; CROSS],
            heights: [0; CROSS],
            talon: Talon::new(&order[CROSS + 1..]),
            foundations: SuitFoundations::new(first_foundation.rank()),
            wrap: !options.flag("no-wrap"),
            // Single cards on the cross and an empty waste.
            inversions: [0; 2],
            waste_offsets: OffsetCounts::default(),
        };
        for suit in Suit::ALL.into_iter().filter(|s| !suits[s.index()]) {
            game.foundations.complete_suit(suit);
        }
        for (pile, &card) in order[..CROSS].iter().enumerate() {
            game.links.mark(card, CROSS_BOTTOM);
            game.tops[pile] = Some(card);
            game.heights[pile] = 1;
        }
        game.foundations.add(first_foundation);
        for &card in &order[CROSS + 1..] {
            game.links.mark(card, IN_STOCK);
        }
        Ok(game)
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves, false);
    }

    fn search_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves, true);
    }

    /// Cards home count most. Against: cards waiting in the waste, and above all inversions in
    /// the waste and the cross piles (an upper card that must be moved out of the way, not
    /// played home, to free the card beneath: `SuitFoundations::inversions`).
    /// Wins in this game come late, in one long run to the foundations; this measure of how
    /// well the stacks will unwind is what guides the search to them (seeds 0..119 within 500k
    /// positions: 88 won by the portfolio and 85 by best-first alone, against 71 and 60 when
    /// only home cards and the waste counted).
    fn heuristic(&self) -> i32 {
        self.score(self.inversions[0])
    }

    /// The first heuristic with inversions counted from two steps apart instead of four: it
    /// leads the beam to other wins (of 150 deals the beam left unknown within 500k, 27 to 29
    /// won within 500k, where the beam within 2M wins about a third; `docs/rules/sedgewick.md`).
    /// (General Sedgewick has two heuristics: this is the second, whatever `n`.)
    fn other_heuristic(&self, _n: usize) -> i32 {
        self.score(self.inversions[1])
    }

    /// Positions with the same cards home, as many cards in the stock and in the waste, and
    /// the same ranks on top of the cross (in any order) are one family: the beam keeps the
    /// best of them, spending its width on positions that differ in more than which suit lies
    /// where (seeds 0-999 within 200k positions: 899 won against 767 without families).
    fn family(&self) -> Option<u64> {
        let mut tops = self.tops.map(|top| top.map_or(0, |card| card.rank()));
        tops.sort_unstable();
        let counts = Suit::ALL.map(|suit| self.foundations.count(suit));
        // Nine fields of 4 bits (ranks and counts up to 13), two of 6 (up to 46 cards).
        let small = tops.into_iter().chain(counts);
        let family = small.fold(0, |family, field| family << 4 | u64::from(field));
        let family = family << 6 | self.talon.stock_len() as u64;
        Some(family << 6 | self.talon.waste_len() as u64)
    }

    /// A card goes home when no card could want to be built on it: every card of the rank
    /// below is home or is the next its foundation takes, and the cards of the rank below
    /// that (which could be built on those) are all home. Proof in `docs/rules/sedgewick.md`.
    fn safe_move(&self) -> Option<Move> {
        self.sources().find_map(|(from, card)| {
            (self.foundations.accepts(card) && self.nothing_to_build_on(card.rank())).then_some(
                Move::Shift {
                    card,
                    from,
                    to: Place::Home,
                },
            )
        })
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = *self;
        next.play_in_place(mv);
        next
    }

    /// `play` without copying the position (over a hundred bytes) twice more: the beam plays
    /// each child where it will lie.
    fn play_in_place(&mut self, mv: Move) {
        let Move::Shift { card, from, to } = mv else {
            if let Move::Paired([first, then]) = mv {
                self.play_in_place(shift(first));
                self.play_in_place(shift(then));
                return;
            }
            let card = self.talon.deal_to_waste();
            self.links.mark(card, IN_WASTE);
            self.count_inversions(1, self.inversions_over_waste(card, self.waste_offsets));
            self.foundations.count_in(&mut self.waste_offsets, card);
            return;
        };
        // The card leaves its place before the foundations or another pile change, so the
        // counts over where it lay are taken from the position as it was.
        match from {
            Place::Pile(p) => {
                self.tops[p as usize] = self.links.below(card);
                self.heights[p as usize] -= 1;
                let below = self.heights[p as usize];
                self.count_inversions(-1, self.inversions_over_pile(card, below));
            }
            Place::Stock => {
                self.talon.take_stock_top();
            }
            Place::Waste => {
                self.talon.take_waste_top();
                self.foundations.count_out(&mut self.waste_offsets, card);
                self.count_inversions(-1, self.inversions_over_waste(card, self.waste_offsets));
            }
            Place::Home => unreachable!("cards never leave the foundations"),
        }
        match to {
            Place::Home => {
                self.foundations.add(card);
                self.links.mark(card, HOME);
            }
            Place::Pile(t) => {
                let below = self.heights[t as usize];
                self.count_inversions(1, self.inversions_over_pile(card, below));
                self.links.lay(card, self.tops[t as usize], CROSS_BOTTOM);
                self.tops[t as usize] = Some(card);
                self.heights[t as usize] += 1;
            }
            Place::Stock | Place::Waste => unreachable!("nothing is moved onto the talon"),
        }
    }

    fn is_won(&self) -> bool {
        self.foundations.is_complete()
    }

    /// Each card's place (what lies beneath it); it forgets which arm of the cross holds which
    /// pile, since all five are alike.
    fn key(&self) -> [u64; 5] {
        self.links.words()
    }

    /// The cross piles sorted by their top cards.
    fn canonical(&self) -> Self {
        let mut piles: [(Option<Card>, u8); CROSS] =
            std::array::from_fn(|p| (self.tops[p], self.heights[p]));
        piles.sort();
        let mut canonical = *self;
        canonical.tops = piles.map(|(top, _)| top);
        canonical.heights = piles.map(|(_, height)| height);
        canonical
    }

    fn tally(&self) -> Tally {
        let covered: usize = self
            .heights
            .iter()
            .map(|&height| usize::from(height.saturating_sub(1)))
            .sum();
        Tally {
            home: self.foundations.cards_home() as u16,
            covered: (covered + self.talon.waste_len().saturating_sub(1)) as u16,
            spaces: self.tops.iter().filter(|t| t.is_none()).count() as u16,
            stock: self.talon.stock_len() as u16,
        }
    }

    /// Cadogan's advice (`docs/rules/sedgewick.md`, Strategies): play foundation cards, and
    /// build the cross's packets in suit, "as they are then ready to be played on to the
    /// foundations".
    fn advice(&self, mv: Move) -> i8 {
        match mv {
            Move::Shift {
                to: Place::Home, ..
            } => 2,
            Move::Shift {
                card,
                to: Place::Pile(p),
                ..
            } if self.tops[p as usize].is_some_and(|base| base.suit() == card.suit()) => 1,
            _ => 0,
        }
    }

    fn unfold(&self, mv: Move, steps: &mut Vec<Move>) {
        match mv {
            Move::Paired(shifts) => steps.extend(shifts.map(shift)),
            _ => steps.push(mv),
        }
    }

    fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Paired([first, then]) => format!(
                "{}, {}",
                self.move_text(shift(first)),
                self.play(shift(first)).move_text(shift(then))
            ),
            Move::Shift { card, from, to } => format!(
                "{card} {}{}",
                Sedgewick::place_name(from),
                Sedgewick::place_name(to)
            ),
            Move::Deal => format!("deal {}", self.talon.stock_top().expect("a stock card")),
        }
    }

    fn layout(&self) -> String {
        let mut out = format!(
            "foundations (base {}): {}\n",
            rank_text(self.foundations.base()),
            self.foundations.describe()
        );
        for pile in 0..CROSS {
            let cards = self.links.pile_bottom_up(self.tops[pile]);
            out += &format!("cross {} (bottom up): {}\n", pile + 1, format_stack(&cards));
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

    /// The inversion counts kept move by move (with both slacks) are the counts of every
    /// stack's pairs, and the piles' heights kept are theirs, along random games (moves into
    /// every space, building, the waste growing and shrinking).
    #[test]
    fn kept_inversions_are_the_stacks_inversions() {
        let options = OptionValues::defaults(Sedgewick::OPTIONS);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut moves = Vec::new();
        let mut nonzero = 0;
        for seed in 0..200 {
            let mut position = Sedgewick::deal(&options, &shuffled(seed, 1)).expect("a deal");
            for _ in 0..120 {
                let counted = INVERSION_SLACKS.map(|slack| position.counted_inversions(slack));
                assert_eq!(position.inversions, counted, "seed {seed}");
                let heights = position
                    .tops
                    .map(|top| position.links.pile(top).count() as u8);
                assert_eq!(position.heights, heights, "seed {seed}");
                nonzero += usize::from(position.inversions[0] > 0);
                moves.clear();
                position.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                position = position.play(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(nonzero > 5000, "{nonzero}");
    }
}
