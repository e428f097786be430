//! The Gate (Hoffmann): two posts of five cards, two bars of four (or three) piles built down in
//! alternate colours, aces up in suit, one pass through the stock, and fills of every vacancy
//! in dealing order. Rules, decisions and encoding: `docs/rules/gate.md`.

use crate::card::{format_stack, whole_suits, Card, Suit, ACE};
use crate::foundations::SuitFoundations;
use crate::game::{Game, OptionKind, OptionValues, Tally, VariantOption};
use crate::links::{Links, FIRST_MARKER};
use crate::talon::Talon;

const POST_CARDS: u8 = 5;
/// Piles in dealing order: the left post, the bar positions (top bar then lower bar, left to
/// right), the right post. With three-card bars, positions 7 and 8 are never used.
const PILES: usize = 10;
const LEFT_POST: usize = 0;
const RIGHT_POST: usize = 9;
/// The longest stock: 52 cards less the 16 of the three-card-bar layout.
const STOCK_MAX: usize = 36;

/// How many ranks higher a card may lie over another in a post or the waste before it counts
/// as an inversion (see `heuristic`).
const INVERSION_SLACK: u8 = 4;

/// What lies beneath a card that is not on another card.
const BAR_BOTTOM: u8 = FIRST_MARKER;
const LEFT_POST_TOP: u8 = FIRST_MARKER + 1;
const RIGHT_POST_TOP: u8 = FIRST_MARKER + 2;
const IN_WASTE: u8 = FIRST_MARKER + 3;
const IN_STOCK: u8 = FIRST_MARKER + 4;
const HOME: u8 = FIRST_MARKER + 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gate {
    /// Every card's place: the piles (a post's cards lie from its top card down to its lowest,
    /// the available one), the stock, the waste and home. It is also the key.
    links: Links,
    /// The available card of each pile: a post's lowest card, a bar position's top card.
    tops: [Option<Card>; PILES],
    heights: [u8; PILES],
    bar_positions: u8,
    talon: Talon<STOCK_MAX>,
    foundations: SuitFoundations,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    Pile(u8),
    Waste,
    Home,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// `card` (with, from a bar, the cards built on it) from one place to another.
    Shift { card: Card, from: Place, to: Place },
    /// Every vacancy filled in dealing order, from the stock and then from the waste's top.
    Fill,
    /// The next stock card onto the waste (only while no position is vacant).
    Deal,
}

impl Gate {
    fn is_post(pile: usize) -> bool {
        pile == LEFT_POST || pile == RIGHT_POST
    }

    fn bars(&self) -> std::ops::RangeInclusive<usize> {
        1..=self.bar_positions as usize
    }

    /// The piles in dealing order (the order of every fill).
    fn dealing_order(&self) -> impl Iterator<Item = usize> {
        std::iter::once(LEFT_POST)
            .chain(self.bars())
            .chain(std::iter::once(RIGHT_POST))
    }

    fn vacancies(&self, pile: usize) -> u8 {
        let capacity = if Gate::is_post(pile) { POST_CARDS } else { 1 };
        capacity.saturating_sub(self.heights[pile])
    }

    fn any_vacancy(&self) -> bool {
        self.dealing_order().any(|pile| self.vacancies(pile) > 0)
    }

    /// Puts one card on a pile: onto its top card, or as its first card.
    fn push(&mut self, pile: usize, card: Card) {
        let bottom = match pile {
            LEFT_POST => LEFT_POST_TOP,
            RIGHT_POST => RIGHT_POST_TOP,
            _ => BAR_BOTTOM,
        };
        self.links.lay(card, self.tops[pile], bottom);
        self.tops[pile] = Some(card);
        self.heights[pile] += 1;
    }

    /// The available cards that may move: the posts' lowest cards, the bars' tops, the waste top.
    fn sources(&self) -> impl Iterator<Item = (Place, Card)> + '_ {
        let piles = self
            .dealing_order()
            .filter_map(|p| self.tops[p].map(|card| (Place::Pile(p as u8), card)));
        piles.chain(self.talon.waste_top().map(|card| (Place::Waste, card)))
    }

    /// The card of bar pile `pile` that would fit on `target`, if any: the pile is one run
    /// down in alternate colours, so the card of the right rank is the only candidate.
    fn run_fitting(&self, pile: usize, target: Card) -> Option<Card> {
        let top = self.tops[pile]?;
        if top.rank() >= target.rank() {
            return None;
        }
        let depth = (target.rank() - 1 - top.rank()) as usize;
        self.links
            .pile(Some(top))
            .nth(depth)
            .filter(|card| card.goes_down_alternate_on(target))
    }

    /// Appends the legal moves; with `one_of_each`, a post card goes only into the first
    /// vacant bar position (the bar positions are interchangeable).
    fn generate(&self, moves: &mut Vec<Move>, one_of_each: bool) {
        for (from, card) in self.sources() {
            if self.foundations.accepts(card) {
                moves.push(Move::Shift {
                    card,
                    from,
                    to: Place::Home,
                });
            }
        }
        for to in self.bars() {
            let Some(target) = self.tops[to] else {
                continue;
            };
            for (from, card) in self.sources() {
                let card = match from {
                    Place::Pile(p) if p as usize == to => continue,
                    Place::Pile(p) if !Gate::is_post(p as usize) => {
                        match self.run_fitting(p as usize, target) {
                            Some(card) => card,
                            None => continue,
                        }
                    }
                    _ if card.goes_down_alternate_on(target) => card,
                    _ => continue,
                };
                moves.push(Move::Shift {
                    card,
                    from,
                    to: Place::Pile(to as u8),
                });
            }
        }
        let vacant_bars = self.bars().filter(|&b| self.heights[b] == 0);
        for to in vacant_bars.take(if one_of_each { 1 } else { PILES }) {
            for post in [LEFT_POST, RIGHT_POST] {
                if let Some(card) = self.tops[post] {
                    moves.push(Move::Shift {
                        card,
                        from: Place::Pile(post as u8),
                        to: Place::Pile(to as u8),
                    });
                }
            }
        }
        if self.any_vacancy() {
            if self.talon.stock_len() + self.talon.waste_len() > 0 {
                moves.push(Move::Fill);
            }
        } else if self.talon.stock_len() > 0 {
            moves.push(Move::Deal);
        }
    }

    /// Whether no card will ever need `card` in a bar: the two cards of the other colour one
    /// rank lower are home, or `card` is a two or an ace (an ace goes home, never on a two).
    fn builders_home(&self, card: Card) -> bool {
        card.rank() <= 2
            || Suit::ALL
                .iter()
                .filter(|s| s.is_red() != card.is_red())
                .all(|&s| self.foundations.is_home(Card::new(s, card.rank() - 1)))
    }

    /// The cards a fill would deal, in order.
    fn fill_cards(&self) -> Vec<Card> {
        let mut after = *self;
        after.fill();
        let mut cards = Vec::new();
        for pile in self.dealing_order() {
            let added = (after.heights[pile] - self.heights[pile]) as usize;
            let mut dealt: Vec<Card> = after.links.pile(after.tops[pile]).take(added).collect();
            dealt.reverse();
            cards.extend(dealt);
        }
        cards
    }

    fn fill(&mut self) {
        for pile in self.dealing_order() {
            for _ in 0..self.vacancies(pile) {
                let card = if self.talon.stock_len() > 0 {
                    self.talon.take_stock_top()
                } else if self.talon.waste_len() > 0 {
                    self.talon.take_waste_top()
                } else {
                    return;
                };
                self.push(pile, card);
            }
        }
    }

    fn place_name(place: Place) -> char {
        match place {
            Place::Pile(p) if p as usize == LEFT_POST => 'L',
            Place::Pile(p) if p as usize == RIGHT_POST => 'R',
            Place::Pile(p) => char::from(b'0' + p),
            Place::Waste => 'w',
            Place::Home => 'h',
        }
    }
}

impl Game for Gate {
    type Move = Move;
    type Key = [u64; 5];

    const NAME: &'static str = "gate";
    const SUMMARY: &'static str =
        "The Gate (Hoffmann): two posts and two bars, one pass through the stock, fills in dealing order";
    const PACKS: usize = 1;
    const OPTIONS: &'static [VariantOption] = &[VariantOption {
        name: "bars",
        help: "piles in each bar (3 is Hoffmann's harder form)",
        kind: OptionKind::Number {
            min: 3,
            max: 4,
            default: 4,
        },
    }];

    /// Left post top to bottom, top bar and lower bar left to right, right post top to
    /// bottom; the rest is the stock. Tests may deal a reduced pack of whole suits.
    fn deal(options: &OptionValues, order: &[Card]) -> Result<Self, String> {
        let per_bar = options.get("bars") as u8;
        let bar_positions = 2 * per_bar;
        let layout = (2 * POST_CARDS + bar_positions) as usize;
        let suits = whole_suits(order)?;
        if order.len() < layout {
            return Err(format!(
                "the Gate lays out {layout} cards; the deal has {}",
                order.len()
            ));
        }
        let mut game = Gate {
            links: Links::all(HOME),
            tops: [None; PILES],
            heights: [0; PILES],
            bar_positions,
            talon: Talon::new(&order[layout..]),
            foundations: SuitFoundations::new(ACE),
        };
        for suit in Suit::ALL.into_iter().filter(|s| !suits[s.index()]) {
            game.foundations.complete_suit(suit);
        }
        let piles: Vec<usize> = game.dealing_order().collect();
        let mut cards = order.iter();
        for pile in piles {
            for _ in 0..game.vacancies(pile) {
                game.push(pile, *cards.next().expect("layout counted"));
            }
        }
        for &card in cards {
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

    /// Cards home count most. Against: cards waiting in the waste, and inversions in the waste
    /// and the posts (an upper card, or a post card below another, that must be moved away
    /// before the card it covers can go home: `SuitFoundations::inversions`); the bars are
    /// built in order and have none. On 40 hard three-bar deals the inversions raised the
    /// wins found within 1M positions from 15 to 36.
    fn heuristic(&self) -> i32 {
        let inversions = |stack| self.foundations.inversions(stack, INVERSION_SLACK);
        let inversions = inversions(self.links.pile(self.tops[LEFT_POST]))
            + inversions(self.links.pile(self.tops[RIGHT_POST]))
            + self
                .foundations
                .inversions(self.talon.waste().rev(), INVERSION_SLACK);
        20 * self.foundations.cards_home() as i32
            - 2 * self.talon.waste_len() as i32
            - 6 * inversions
    }

    /// A bar's top card goes home when a card lies beneath it (so no vacancy opens) and every
    /// card that could be built on it is home already (or is an ace, which can go home
    /// itself). Proof in `docs/rules/gate.md`.
    fn safe_move(&self) -> Option<Move> {
        self.bars().find_map(|pile| {
            let card = self.tops[pile]?;
            let safe = self.heights[pile] >= 2
                && self.foundations.accepts(card)
                && self.builders_home(card);
            safe.then_some(Move::Shift {
                card,
                from: Place::Pile(pile as u8),
                to: Place::Home,
            })
        })
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = *self;
        match mv {
            Move::Fill => next.fill(),
            Move::Deal => {
                let card = next.talon.deal_to_waste();
                next.links.mark(card, IN_WASTE);
            }
            Move::Shift { card, from, to } => {
                // The run moved: `card` and what lies on it, whose top is the source's top.
                let (run_top, run_len) = match from {
                    Place::Pile(p) => {
                        let p = p as usize;
                        let run_top = next.tops[p].expect("a move from an empty pile");
                        let run_len = next.links.pile(Some(run_top)).position(|c| c == card);
                        let run_len = run_len.expect("the card is in the pile") as u8 + 1;
                        next.tops[p] = next.links.below(card);
                        next.heights[p] -= run_len;
                        (run_top, run_len)
                    }
                    Place::Waste => (next.talon.take_waste_top(), 1),
                    Place::Home => unreachable!("cards never leave the foundations"),
                };
                match to {
                    Place::Home => {
                        next.foundations.add(card);
                        next.links.mark(card, HOME);
                    }
                    Place::Pile(t) => {
                        let t = t as usize;
                        next.links.lay(card, next.tops[t], BAR_BOTTOM);
                        next.tops[t] = Some(run_top);
                        next.heights[t] += run_len;
                    }
                    Place::Waste => unreachable!("nothing is moved onto the waste"),
                }
            }
        }
        next
    }

    fn is_won(&self) -> bool {
        self.foundations.is_complete()
    }

    /// Each card's place (what lies beneath it); it forgets which bar position holds which
    /// pile, the one symmetry of the game (see `docs/rules/gate.md`).
    fn key(&self) -> [u64; 5] {
        self.links.words()
    }

    /// The bar positions sorted by their top cards.
    fn canonical(&self) -> Self {
        let mut canonical = *self;
        let mut bars: Vec<(Option<Card>, u8)> = self
            .bars()
            .map(|b| (self.tops[b], self.heights[b]))
            .collect();
        bars.sort();
        for (b, (top, height)) in self.bars().zip(bars) {
            canonical.tops[b] = top;
            canonical.heights[b] = height;
        }
        canonical
    }

    fn tally(&self) -> Tally {
        let piles: Vec<usize> = self.dealing_order().collect();
        let covered: usize = piles
            .iter()
            .map(|&p| self.heights[p].saturating_sub(1) as usize)
            .sum();
        Tally {
            home: self.foundations.cards_home() as u16,
            covered: (covered + self.talon.waste_len().saturating_sub(1)) as u16,
            spaces: piles.iter().map(|&p| self.vacancies(p) as u16).sum(),
            stock: self.talon.stock_len() as u16,
        }
    }

    /// Hoffmann's advice (`docs/rules/gate.md`, Strategies): aces out at once; a bar card
    /// kept back from the foundations while a card of the other colour one rank lower is
    /// still out ("the 4 of diamonds ... may be imperatively needed for a black 3"); a post
    /// card moved into a bar first when the card it uncovers can then be played.
    fn advice(&self, mv: Move) -> i8 {
        let Move::Shift { card, from, to } = mv else {
            return 0;
        };
        match (from, to) {
            (_, Place::Home) if card.rank() == ACE => 2,
            (Place::Pile(p), Place::Home) if !Gate::is_post(p as usize) => {
                if self.builders_home(card) {
                    1
                } else {
                    -1
                }
            }
            (_, Place::Home) => 1,
            (Place::Pile(p), Place::Pile(_)) if Gate::is_post(p as usize) => {
                let playable = |next: Card| {
                    self.foundations.accepts(next)
                        || next.goes_down_alternate_on(card)
                        || self
                            .bars()
                            .filter_map(|b| self.tops[b])
                            .any(|top| next.goes_down_alternate_on(top))
                };
                i8::from(self.links.below(card).is_some_and(playable))
            }
            _ => 0,
        }
    }

    fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Shift { card, from, to } => {
                format!("{card} {}{}", Gate::place_name(from), Gate::place_name(to))
            }
            Move::Fill => {
                let cards: Vec<String> = self.fill_cards().iter().map(Card::to_string).collect();
                format!("fill {}", cards.join(" "))
            }
            Move::Deal => format!("deal {}", self.talon.stock_top().expect("a stock card")),
        }
    }

    fn layout(&self) -> String {
        let pile_text = |pile: usize| format_stack(&self.links.pile_bottom_up(self.tops[pile]));
        let per_bar = self.bar_positions as usize / 2;
        let bar_line = |first: usize| {
            (first..first + per_bar)
                .map(|b| format!("{b}: {}", pile_text(b)))
                .collect::<Vec<_>>()
                .join("   ")
        };
        format!(
            "foundations: {}\n\
             left post  L (top down): {}\n\
             top bar:    {}\n\
             lower bar:  {}\n\
             right post R (top down): {}\n{}",
            self.foundations.describe(),
            pile_text(LEFT_POST),
            bar_line(1),
            bar_line(1 + per_bar),
            pile_text(RIGHT_POST),
            self.talon.describe(),
        )
    }
}
