//! The Queens (Cadogan): a key of 32 cards that feeds only the foundations and sends its queens
//! (with thirteen cards each) under the stock, eight foundations up in suit from their kings
//! (king, ace, two, ..., queen), a shutter of seven piles married down in suit and refilled at
//! once from the stock, and new stocks paid for by the queens put on the talon. Rules,
//! decisions and encoding: `docs/rules/queens.md`.

use crate::card::{format_stack, whole_suits_of_packs, Card, Suit, ACE, KING, PACK};
use crate::game::{Game, OptionKind, OptionValues, Tally, VariantOption};
use crate::key::KeyWriter;
use crate::relaxation::{self, Stacks};
use crate::solver::Order;
use crate::talon::Talon;

const QUEEN: u8 = 12;
/// Cadogan's key; `--key-cards` deals fewer.
const KEY: usize = 32;
/// Cards a queen on the key takes with her (herself included) under the stock.
const KEY_PAYMENT: usize = 14;
/// Cards of the talon each queen put on it in a pass buys for a new stock.
const TALON_PAYMENT: usize = 3;
const SHUTTER: usize = 7;
/// Two foundations for each suit: `2 * suit` and `2 * suit + 1`.
const FOUNDATIONS: usize = 8;
/// Stock and talon together at their fullest: the deal's cards after a key of none, before
/// the shutter is laid (97 at most once it is).
const ROW: usize = 2 * PACK;

/// A shutter pile: its bottom card and how many cards lie on it, married down in suit, so its
/// top card follows from the two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Pile {
    len: u8,
    bottom: Option<Card>,
}

impl Pile {
    fn top(self) -> Option<Card> {
        self.bottom
            .map(|b| Card::new(b.suit(), b.rank() + 1 - self.len))
    }

    /// The pile's cards, bottom first.
    fn cards(self) -> impl DoubleEndedIterator<Item = Card> {
        self.bottom
            .into_iter()
            .flat_map(move |b| (0..self.len).map(move |i| Card::new(b.suit(), b.rank() - i)))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Queens {
    /// The key as dealt, its uppermost card last; the first `key_left` are still there.
    key: [Card; KEY],
    key_left: u8,
    shutter: [Pile; SHUTTER],
    talon: Talon<ROW>,
    /// Cards on each foundation: 0 (no king yet), 1 (the king), 2 (and the ace), ... 13.
    foundations: [u8; FOUNDATIONS],
    /// Queens put on the talon in this pass through the stock: each buys three talon cards.
    queens_on_talon: u8,
    /// Variant: the key's queens are sent away only while the key is dealt.
    key_queens_at_deal_only: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    Key,
    Shutter(u8),
    Stock,
    Talon,
    Home,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// An available card to a foundation (`to` is `Home`) or married onto a shutter pile.
    Shift { card: Card, from: Place, to: Place },
    /// The next stock card onto the talon.
    Deal,
    /// The stock is out: the talon's bottom cards, three for each queen put on it in this
    /// pass, become the new stock.
    Pay,
}

impl Queens {
    fn key_top(&self) -> Option<Card> {
        (self.key_left > 0).then(|| self.key[self.key_left as usize - 1])
    }

    /// The foundation that takes `card`, if one does: a king starts an empty one of its suit;
    /// another card goes on the one of its suit that holds the rank below (the king for an
    /// ace). When both of a suit's foundations would take it they are alike; the first is named.
    fn foundation_for(&self, card: Card) -> Option<usize> {
        let wanted = if card.rank() == KING { 0 } else { card.rank() };
        let first = 2 * card.suit().index();
        (first..first + 2).find(|&f| self.foundations[f] == wanted)
    }

    /// The cards that may move: the key's (home only), each shutter pile's top, the card
    /// turned from the stock and the talon's top.
    fn sources(&self) -> impl Iterator<Item = (Place, Card)> + '_ {
        let key = self.key_top().map(|c| (Place::Key, c));
        let shutter = (0..SHUTTER)
            .filter_map(|p| self.shutter[p].top().map(|c| (Place::Shutter(p as u8), c)));
        key.into_iter()
            .chain(shutter)
            .chain(self.talon.stock_top().map(|c| (Place::Stock, c)))
            .chain(self.talon.waste_top().map(|c| (Place::Talon, c)))
    }

    /// Appends the legal moves; with `one_of_each`, a pile exactly like an earlier one is
    /// neither a source nor a target (the piles are interchangeable).
    fn generate(&self, moves: &mut Vec<Move>, one_of_each: bool) {
        let repeated = |p: usize| one_of_each && self.shutter[..p].contains(&self.shutter[p]);
        let mut sources = [(Place::Key, Card::from_index(0)); SHUTTER + 3];
        let mut count = 0;
        for (from, card) in self.sources() {
            if !matches!(from, Place::Shutter(p) if repeated(p as usize)) {
                sources[count] = (from, card);
                count += 1;
            }
        }
        let sources = &sources[..count];
        for &(from, card) in sources {
            if self.foundation_for(card).is_some() {
                moves.push(Move::Shift {
                    card,
                    from,
                    to: Place::Home,
                });
            }
        }
        for to in 0..SHUTTER {
            let Some(top) = self.shutter[to].top() else {
                continue;
            };
            if repeated(to) {
                continue;
            }
            for &(from, card) in sources {
                let marries = card.suit() == top.suit() && card.rank() + 1 == top.rank();
                if marries && from != Place::Key && from != Place::Shutter(to as u8) {
                    moves.push(Move::Shift {
                        card,
                        from,
                        to: Place::Shutter(to as u8),
                    });
                }
            }
        }
        if self.talon.stock_len() > 0 {
            moves.push(Move::Deal);
        } else if self.queens_on_talon > 0 && self.talon.waste_len() > 0 {
            moves.push(Move::Pay);
        }
    }

    fn home(&mut self, card: Card) {
        let f = self
            .foundation_for(card)
            .expect("a foundation takes the card");
        self.foundations[f] += 1;
    }

    /// What the rules do by themselves, until none applies: a queen on top of the key goes
    /// under the stock with the thirteen cards beneath her; an available king goes up to a
    /// foundation; a shutter space takes the stock's next card.
    fn settle(&mut self, dealing: bool) {
        loop {
            let queen_on_top = self.key_top().is_some_and(|c| c.rank() == QUEEN);
            if queen_on_top && (dealing || !self.key_queens_at_deal_only) {
                // She and the cards beneath her, in key order from the top.
                let left = self.key_left as usize;
                let paid = KEY_PAYMENT.min(left);
                let mut cards = [Card::from_index(0); KEY_PAYMENT];
                for (slot, &card) in cards
                    .iter_mut()
                    .zip(self.key[left - paid..left].iter().rev())
                {
                    *slot = card;
                }
                self.talon.put_under_stock(&cards[..paid]);
                self.key_left -= paid as u8;
                continue;
            }
            let king = self.sources().find(|(_, c)| c.rank() == KING);
            if let Some((from, card)) = king {
                self.take(from);
                self.home(card);
                continue;
            }
            let space = self.shutter.iter().position(|p| p.len == 0);
            if let (Some(p), Some(_)) = (space, self.talon.stock_top()) {
                let card = self.talon.take_stock_top();
                self.shutter[p] = Pile {
                    len: 1,
                    bottom: Some(card),
                };
                continue;
            }
            return;
        }
    }

    /// Removes the available card at `from`.
    fn take(&mut self, from: Place) {
        match from {
            Place::Key => self.key_left -= 1,
            Place::Shutter(p) => {
                let pile = &mut self.shutter[p as usize];
                pile.len -= 1;
                if pile.len == 0 {
                    pile.bottom = None;
                }
            }
            Place::Stock => {
                self.talon.take_stock_top();
            }
            Place::Talon => {
                self.talon.take_waste_top();
            }
            Place::Home => unreachable!("cards never leave the foundations"),
        }
    }

    /// Whether both copies of the card of `suit` one rank below `rank` are home: then nothing
    /// can ever be married onto a card of that rank and suit.
    fn both_below_home(&self, suit: Suit, rank: u8) -> bool {
        let first = 2 * suit.index();
        rank == ACE
            || self.foundations[first..first + 2]
                .iter()
                .all(|&n| n > rank - 1)
    }

    /// The place a card takes in its foundation's order: the king first (0), then the ace
    /// (1) up to the queen (12); a foundation holding `n` cards takes the card of place `n`.
    fn place_in_foundation(card: Card) -> u8 {
        if card.rank() == KING {
            0
        } else {
            card.rank()
        }
    }

    /// Whether some cards cannot all go home even in a relaxed game, so the position is lost.
    /// A card is *locked* when it can leave its place only by going home: a key card no queen
    /// sends under the stock; a talon card above the payments' reach (`payment_reach`) that
    /// can never be married; a shutter card with a card beneath it that can never be married
    /// away. A locked card must go home before anything beneath it in its stack can move.
    /// Relax everything else: every card goes home whenever its foundation takes it and no
    /// locked card lies above it; what will later cover it, and the order of the stock, are
    /// forgotten. In that game sending a card home never hurts (it only makes more cards
    /// free, and the two copies of a card are the same card), so it is played out greedily;
    /// if a card is left, no line of the real game can send every card home. Proof in the
    /// rules document.
    fn locked_cards_stuck(&self) -> bool {
        self.locked_stacks().stuck(Row(self.foundations))
    }

    /// The key's cards a queen will send under the stock (bit `i` for `key[i]`), walked as the
    /// rules move the key; the others are locked. None under `--key-queens-at-deal-only`.
    fn key_cards_sent(&self) -> u32 {
        let mut sent = 0u32;
        let mut top = self.key_left as usize;
        while top > 0 {
            if self.key[top - 1].rank() == QUEEN && !self.key_queens_at_deal_only {
                let paid = KEY_PAYMENT.min(top);
                sent |= ((1u32 << paid) - 1) << (top - paid);
                top -= paid;
            } else {
                top -= 1;
            }
        }
        sent
    }

    /// How many of the talon's bottom cards any payment to come can reach: the least `r` with
    /// `r` = 3 × (the queens counted in this pass, in the stock, sent from the key, and among
    /// the talon's bottom `r` cards), or the whole talon. Every queen that can still be dealt
    /// onto the talon is one of those (a queen the payments never reach stays where she is,
    /// and one dealt later lies above every card a payment can reach while `r` is below the
    /// talon's length), and each buys three cards. `talon` is bottom card first.
    fn payment_reach(&self, talon: &[Card], sent: u32) -> usize {
        let is_queen = |c: &Card| c.rank() == QUEEN;
        let sent_queens = (0..self.key_left as usize)
            .filter(|&i| sent >> i & 1 == 1 && is_queen(&self.key[i]))
            .count();
        let counted = self.queens_on_talon as usize
            + self.talon.stock().filter(is_queen).count()
            + sent_queens;
        let mut reach = 0;
        loop {
            let queens = counted + talon[..reach].iter().filter(|c| is_queen(c)).count();
            let next = (TALON_PAYMENT * queens).min(talon.len());
            if next == reach {
                return reach;
            }
            reach = next;
        }
    }

    /// The cards not home in their stacks (the key, the talon, the shutter's piles, the
    /// stock), each marked locked or not, for `locked_cards_stuck`.
    fn locked_stacks(&self) -> Stacks {
        let mut stacks = Stacks::default();
        let mut talon = [Card::from_index(0); ROW];
        let mut talon_len = 0;
        for card in self.talon.waste() {
            talon[talon_len] = card;
            talon_len += 1;
        }
        let talon = &talon[..talon_len];
        let sent = self.key_cards_sent();
        let reach = self.payment_reach(talon, sent);

        // Copies of each card that can come onto the shutter: there now, or able to come
        // from the stock (in it, sent from the key, within the payments' reach).
        let mut can_reach_shutter = [0u8; PACK];
        let key = &self.key[..self.key_left as usize];
        let sent_cards = key
            .iter()
            .enumerate()
            .filter(|&(i, _)| sent >> i & 1 == 1)
            .map(|(_, &c)| c);
        for card in self
            .shutter
            .iter()
            .flat_map(|pile| pile.cards())
            .chain(self.talon.stock())
            .chain(sent_cards)
            .chain(talon[..reach].iter().copied())
        {
            can_reach_shutter[card.index()] += 1;
        }
        // The talon above the reach, from the top: a card can be married when a copy of the
        // card above it in suit can come onto the shutter, and then it can come there too.
        let mut talon_locked = [false; ROW];
        for (i, &card) in talon.iter().enumerate().skip(reach).rev() {
            let marriable = card.rank() < QUEEN
                && can_reach_shutter[Card::new(card.suit(), card.rank() + 1).index()] > 0;
            if marriable {
                can_reach_shutter[card.index()] += 1;
            }
            talon_locked[i] = !marriable;
        }

        // The key from the top: sent cards are free once the locked cards above are home.
        stacks.push(key.iter().rev().enumerate().map(|(from_top, &card)| {
            let i = key.len() - 1 - from_top;
            (card, sent >> i & 1 == 0)
        }));
        // The talon from the top; the cards within the reach are free.
        stacks.push(
            talon[reach..]
                .iter()
                .zip(&talon_locked[reach..])
                .rev()
                .map(|(&card, &locked)| (card, locked)),
        );
        stacks.push(talon[..reach].iter().map(|&card| (card, false)));
        // Each shutter pile from the top: a card with a card beneath it can be married away
        // only onto the other copy of that card.
        for pile in &self.shutter {
            let bottom = pile.bottom.map_or(0, |b| b.rank());
            stacks.push(pile.cards().rev().map(|card| {
                let beneath = card.rank() < bottom;
                let other_copy = beneath
                    && can_reach_shutter[Card::new(card.suit(), card.rank() + 1).index()] > 1;
                (card, beneath && !other_copy)
            }));
        }
        stacks.push(self.talon.stock().map(|card| (card, false)));
        stacks
    }

    fn place_name(place: Place) -> String {
        match place {
            Place::Key => "k".to_string(),
            Place::Shutter(p) => (p + 1).to_string(),
            Place::Stock => "s".to_string(),
            Place::Talon => "t".to_string(),
            Place::Home => "h".to_string(),
        }
    }

    fn foundation_text(&self, f: usize) -> String {
        let suit = Suit::ALL[f / 2];
        match self.foundations[f] {
            0 => "--".to_string(),
            1 => Card::new(suit, KING).to_string(),
            n => Card::new(suit, n - 1).to_string(),
        }
    }
}

/// The eight foundations, as the relaxed game of `Queens::locked_cards_stuck` sees them: a card
/// of a suit's next place goes on either of the suit's two that holds the place below.
#[derive(Clone, Copy)]
struct Row([u8; FOUNDATIONS]);

impl relaxation::Row for Row {
    /// The card itself: its suit and its place.
    fn kind(&self, card: Card) -> usize {
        card.index()
    }

    fn taker(&self, kind: usize) -> Option<usize> {
        let card = Card::from_index(kind);
        let first = 2 * card.suit().index();
        let place = Queens::place_in_foundation(card);
        (first..first + 2).find(|&f| self.0[f] == place)
    }

    fn open(&self, kind: usize) -> usize {
        let card = Card::from_index(kind);
        let first = 2 * card.suit().index();
        let place = Queens::place_in_foundation(card);
        self.0[first..first + 2]
            .iter()
            .filter(|&&n| n == place)
            .count()
    }

    fn grow(&mut self, f: usize, kind: usize) -> Option<usize> {
        self.0[f] += 1;
        let next = self.0[f];
        (next < KING).then(|| Card::new(Card::from_index(kind).suit(), next).index())
    }

    fn below(&self, kind: usize) -> Option<usize> {
        let card = Card::from_index(kind);
        let rank = match Queens::place_in_foundation(card) {
            0 => return None,
            1 => KING,
            place => place - 1,
        };
        Some(Card::new(card.suit(), rank).index())
    }
}

impl Game for Queens {
    type Move = Move;
    type Key = [u64; 11];

    const NAME: &'static str = "queens";
    const SUMMARY: &'static str =
        "The Queens (Cadogan): a 32-card key, kings as foundations, queens that buy new stocks";
    const PACKS: usize = 2;
    const OPTIONS: &'static [VariantOption] = &[
        VariantOption {
            name: "key-queens-at-deal-only",
            help: "a queen on top of the key is sent away only while the key is dealt",
            kind: OptionKind::Flag,
        },
        VariantOption {
            name: "key-cards",
            help: "cards in the key (Cadogan: 32; fewer make a reduced game)",
            kind: OptionKind::Number {
                min: 0,
                max: KEY as u32,
                default: KEY as u32,
            },
        },
    ];
    /// Wins lie deep, behind payments, and the locks prove most losses at the root: seeds
    /// 0-1999 within 100k positions, the beam wins 22 and proves 1,893 lost in 47 s, the
    /// portfolio 2 and 1,893 in 81 s.
    const SEARCH: Order = Order::Beam;
    /// Every position plays the locked cards' relaxed game out (`locked_cards_stuck`).
    const COSTLY_MOVES: bool = true;

    /// The key first (its last card uppermost), then the shutter's seven positions in order,
    /// a king turned while dealing them going up to the foundations and the position taking
    /// the next card, then the stock, next card first. Tests may deal both copies of fewer
    /// suits.
    fn deal(options: &OptionValues, order: &[Card]) -> Result<Self, String> {
        whole_suits_of_packs(order, 2)?;
        let key_len = options.get("key-cards") as usize;
        if order.len() < key_len + SHUTTER {
            return Err(format!(
                "The Queens lays out {} cards; the deal has {}",
                key_len + SHUTTER,
                order.len()
            ));
        }
        let mut key = [Card::from_index(0); KEY];
        key[..key_len].copy_from_slice(&order[..key_len]);
        let mut game = Queens {
            key,
            key_left: key_len as u8,
            shutter: [Pile::default(); SHUTTER],
            talon: Talon::new(&order[key_len..]),
            foundations: [0; FOUNDATIONS],
            queens_on_talon: 0,
            key_queens_at_deal_only: options.flag("key-queens-at-deal-only"),
        };
        for suit in Suit::ALL {
            if !order.contains(&Card::new(suit, KING)) {
                game.foundations[2 * suit.index()..2 * suit.index() + 2].fill(KING);
            }
        }
        game.settle(true);
        Ok(game)
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves, false);
    }

    /// Nothing when the key can never be cleared (the position is lost).
    fn search_moves(&self, moves: &mut Vec<Move>) {
        if !self.locked_cards_stuck() {
            self.generate(moves, true);
        }
    }

    /// Cards home count most; cards still in the key and cards waiting in the talon count
    /// against ("it is all important to get rid of the key"); a queen put on the talon in
    /// this pass counts as much as a card home, for the three cards she buys in the next
    /// stock (seeds 0-1999 within 100k positions, beam: 22 won against 7 without).
    fn heuristic(&self) -> i32 {
        let home: i32 = self.foundations.iter().map(|&n| i32::from(n)).sum();
        20 * home - 6 * i32::from(self.key_left) - 2 * self.talon.waste_len() as i32
            + 20 * i32::from(self.queens_on_talon)
    }

    /// A shutter card goes home when a card lies beneath it (so no space is refilled) and
    /// both copies of the card that could be married onto it are home. Proof in the rules
    /// document.
    fn safe_move(&self) -> Option<Move> {
        (0..SHUTTER).find_map(|p| {
            let pile = self.shutter[p];
            let card = pile.top()?;
            let safe = pile.len >= 2
                && self.foundation_for(card).is_some()
                && self.both_below_home(card.suit(), card.rank());
            safe.then_some(Move::Shift {
                card,
                from: Place::Shutter(p as u8),
                to: Place::Home,
            })
        })
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = *self;
        match mv {
            Move::Shift { card, from, to } => {
                next.take(from);
                match to {
                    Place::Home => next.home(card),
                    Place::Shutter(p) => next.shutter[p as usize].len += 1,
                    _ => unreachable!("cards go home or onto the shutter"),
                }
            }
            Move::Deal => {
                if next.talon.deal_to_waste().rank() == QUEEN {
                    next.queens_on_talon += 1;
                }
            }
            Move::Pay => {
                next.talon
                    .restock_from_waste_bottom(TALON_PAYMENT * next.queens_on_talon as usize);
                next.queens_on_talon = 0;
            }
        }
        next.settle(false);
        next
    }

    fn is_won(&self) -> bool {
        self.foundations.iter().all(|&n| n == KING)
    }

    /// The key's length, the queens counted, each suit's two foundations sorted, the shutter
    /// piles sorted, then the talon and the stock card by card (suits and ranks only: the two
    /// copies of a card are one card here). 701 bits at most.
    fn key(&self) -> [u64; 11] {
        let mut key = KeyWriter::<11>::new();
        key.push(u64::from(self.key_left), 6);
        key.push(u64::from(self.queens_on_talon), 4);
        let mut foundations = self.foundations;
        for pair in foundations.chunks_mut(2) {
            pair.sort_unstable();
        }
        for n in foundations {
            key.push(u64::from(n), 4);
        }
        let mut shutter = self.shutter;
        shutter.sort_unstable();
        for pile in shutter {
            let bottom = pile.bottom.map_or(0, |c| c.index() as u64);
            key.push(u64::from(pile.len) << 6 | bottom, 10);
        }
        key.push(self.talon.waste_len() as u64, 7);
        for card in self.talon.waste().chain(self.talon.stock()) {
            key.push(card.index() as u64, 6);
        }
        key.finish()
    }

    /// Shutter piles sorted, each suit's foundations sorted, the talon without gaps.
    fn canonical(&self) -> Self {
        let mut canonical = *self;
        canonical.shutter.sort_unstable();
        for pair in canonical.foundations.chunks_mut(2) {
            pair.sort_unstable();
        }
        canonical.talon = self.talon.compacted();
        canonical
    }

    /// `5H s-3` (a card from the key `k`, a shutter pile 1-7, the stock `s` or the talon `t`,
    /// to a shutter pile or home `h`), `deal 8C`, `pay 6` (the cards bought).
    fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Shift { card, from, to } => format!(
                "{card} {}-{}",
                Queens::place_name(from),
                Queens::place_name(to)
            ),
            Move::Deal => format!("deal {}", self.talon.stock_top().expect("a stock card")),
            Move::Pay => format!(
                "pay {}",
                (TALON_PAYMENT * self.queens_on_talon as usize).min(self.talon.waste_len())
            ),
        }
    }

    fn layout(&self) -> String {
        let foundations: Vec<String> = (0..FOUNDATIONS).map(|f| self.foundation_text(f)).collect();
        let mut out = format!("foundations: {}\n", foundations.join(" "));
        out += &format!(
            "key (top last): {}\n",
            format_stack(&self.key[..self.key_left as usize])
        );
        for (p, pile) in self.shutter.iter().enumerate() {
            let cards: Vec<Card> = pile.cards().collect();
            out += &format!("shutter {} (bottom up): {}\n", p + 1, format_stack(&cards));
        }
        out += &format!(
            "queens put on the talon this pass: {}\n",
            self.queens_on_talon
        );
        out + &self.talon.describe().replace("waste", "talon")
    }

    fn tally(&self) -> Tally {
        let shutter: usize = self
            .shutter
            .iter()
            .map(|p| p.len.saturating_sub(1) as usize)
            .sum();
        Tally {
            home: self.foundations.iter().map(|&n| u16::from(n)).sum(),
            covered: (usize::from(self.key_left.saturating_sub(1))
                + shutter
                + self.talon.waste_len().saturating_sub(1)) as u16,
            spaces: self.shutter.iter().filter(|p| p.len == 0).count() as u16,
            stock: self.talon.stock_len() as u16,
        }
    }

    /// Cadogan's advice (`docs/rules/queens.md`, Strategies): the key's card first ("always
    /// first look to see if a card from the key is available ... and play that in
    /// preference, as it is all important to get rid of the key").
    fn advice(&self, mv: Move) -> i8 {
        match mv {
            Move::Shift {
                from: Place::Key, ..
            } => 2,
            Move::Shift {
                to: Place::Home, ..
            } => 1,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::shuffled;
    use std::collections::HashSet;

    /// The key alone relaxed and played out plainly, every suit at once: the key moves as the
    /// rules move it (a queen on top goes with the cards beneath her), and a card not in the
    /// key (or taken from it by a queen, once she has gone) goes home whenever a foundation
    /// takes it. `free` counts the copies of each card so available.
    struct KeyOnly<'a> {
        key: &'a [Card],
        deal_only: bool,
        seen: HashSet<(usize, [u8; FOUNDATIONS])>,
    }

    impl KeyOnly<'_> {
        fn clears(
            &mut self,
            left: usize,
            foundations: [u8; FOUNDATIONS],
            free: [u8; PACK],
        ) -> bool {
            if left == 0 {
                return true;
            }
            // What is free follows from the key's length and the foundations.
            if !self.seen.insert((left, foundations)) {
                return false;
            }
            let top = self.key[left - 1];
            if top.rank() == QUEEN && !self.deal_only {
                let paid = KEY_PAYMENT.min(left);
                let mut free = free;
                for card in &self.key[left - paid..left] {
                    free[card.index()] += 1;
                }
                return self.clears(left - paid, foundations, free);
            }
            (0..FOUNDATIONS).any(|f| {
                let n = foundations[f];
                if n == KING {
                    return false;
                }
                let wanted = Card::new(Suit::ALL[f / 2], if n == 0 { KING } else { n });
                let mut grown = foundations;
                grown[f] += 1;
                let mut fewer = free;
                (top == wanted && self.clears(left - 1, grown, free))
                    || (free[wanted.index()] > 0 && {
                        fewer[wanted.index()] -= 1;
                        self.clears(left, grown, fewer)
                    })
            })
        }
    }

    fn key_alone_clears(game: &Queens) -> bool {
        let key = &game.key[..game.key_left as usize];
        let mut free = [2u8; PACK];
        for card in key {
            free[card.index()] -= 1;
        }
        for (f, &n) in game.foundations.iter().enumerate() {
            for place in 0..n {
                let rank = if place == 0 { KING } else { place };
                free[Card::new(Suit::ALL[f / 2], rank).index()] -= 1;
            }
        }
        let mut relaxed = KeyOnly {
            key,
            deal_only: game.key_queens_at_deal_only,
            seen: HashSet::new(),
        };
        relaxed.clears(key.len(), game.foundations, free)
    }

    /// Every order of the relaxed game tried, with nothing played at once: whether some order
    /// sends every card home. `None` past `budget` sets of cards home.
    fn some_order_goes_home(
        relaxed: &Stacks,
        home: u128,
        foundations: [u8; FOUNDATIONS],
        failed: &mut HashSet<u128>,
        budget: usize,
    ) -> Option<bool> {
        if home.count_ones() as usize == relaxed.count() {
            return Some(true);
        }
        if failed.len() > budget {
            return None;
        }
        if !failed.insert(home) {
            return Some(false);
        }
        for i in 0..relaxed.count() {
            let (card, blocker) = relaxed.card(i);
            let free = blocker.is_none_or(|b| home >> b & 1 == 1);
            if home >> i & 1 == 1 || !free {
                continue;
            }
            let place = if card.rank() == KING { 0 } else { card.rank() };
            let first = 2 * card.suit().index();
            for f in first..first + 2 {
                if foundations[f] == place {
                    let mut grown = foundations;
                    grown[f] += 1;
                    match some_order_goes_home(relaxed, home | 1 << i, grown, failed, budget) {
                        Some(false) => {}
                        other => return other,
                    }
                }
            }
        }
        Some(false)
    }

    /// Positions along random lines of two-suit deals with keys of 12 to 32 cards (so queens
    /// send cards away and lock the cards beneath them in their turn), either reading of the
    /// key's queens, until the position is lost or `steps` moves are made.
    fn along_random_lines(mut visit: impl FnMut(u64, &Queens)) {
        for seed in 0..300u64 {
            let suits = [
                Suit::ALL[seed as usize % 4],
                Suit::ALL[(seed as usize + 1) % 4],
            ];
            let order: Vec<Card> = shuffled(seed, 2)
                .into_iter()
                .filter(|c| suits.contains(&c.suit()))
                .collect();
            let mut options = OptionValues::defaults(Queens::OPTIONS);
            options
                .set(Queens::OPTIONS, "key-cards", 12 + (seed % 21) as u32)
                .unwrap();
            options
                .set(
                    Queens::OPTIONS,
                    "key-queens-at-deal-only",
                    (seed % 4 == 1) as u32,
                )
                .unwrap();
            let mut position = Queens::deal(&options, &order).unwrap();
            let mut moves = Vec::new();
            for step in 0..80u64 {
                visit(seed, &position);
                moves.clear();
                position.legal_moves(&mut moves);
                if moves.is_empty() || position.locked_cards_stuck() {
                    break;
                }
                let pick = (seed.wrapping_mul(0x9E37_79B9) ^ step.wrapping_mul(7919)) as usize;
                position = position.play(moves[pick % moves.len()]);
            }
        }
    }

    #[test]
    fn the_relaxed_game_played_out_agrees_with_every_order_tried() {
        let (mut stuck, mut clear, mut skipped) = (0, 0, 0);
        along_random_lines(|seed, position| {
            let relaxed = position.locked_stacks();
            let mut failed = HashSet::new();
            let Some(every) =
                some_order_goes_home(&relaxed, 0, position.foundations, &mut failed, 200_000)
            else {
                skipped += 1;
                return;
            };
            assert_eq!(
                relaxed.all_go_home(Row(position.foundations)),
                every,
                "seed {seed}\n{}",
                position.layout()
            );
            if every {
                clear += 1;
            } else {
                stuck += 1;
            }
        });
        eprintln!("{stuck} stuck, {clear} clear, {skipped} too large");
        assert!(stuck > 150 && clear > 1000, "{stuck} stuck, {clear} clear");
    }

    #[test]
    fn every_key_stuck_alone_is_stuck_with_the_talon_and_shutter_locked_too() {
        // The talon's and the shutter's locks only add to the key's: what the key alone
        // cannot clear stays stuck, and some positions are stuck only with them.
        let (mut by_key, mut only_with_locks) = (0, 0);
        along_random_lines(|seed, position| {
            let key_clears = key_alone_clears(position);
            let stuck = position.locked_cards_stuck();
            assert!(key_clears || stuck, "seed {seed}\n{}", position.layout());
            by_key += usize::from(!key_clears);
            only_with_locks += usize::from(key_clears && stuck);
        });
        eprintln!("{by_key} stuck by the key, {only_with_locks} only with the other locks");
        // 273 and 14.
        assert!(
            by_key > 150 && only_with_locks > 5,
            "{by_key}, {only_with_locks}"
        );
    }
}
