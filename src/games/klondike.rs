//! Klondike, as Blake and Gent solved it ("thoughtful" play: every card known): seven columns of
//! face-down cards under face-up runs built down in alternate colours, any face-up run moved
//! whole onto a card or (king-based) into a space, four foundations up in suit from the ace,
//! a stock dealt one or three cards at a time to a waste with no limit on redeals, and cards
//! worried back from the foundations to the columns. Here as the public yardstick for the
//! machinery the Harp shares. Rules, decisions, the safe-move argument and the encoding:
//! `docs/rules/klondike.md`.

use crate::alternate_pile::AlternatePile;
use crate::bits::Ones;
use crate::card::{format_cards, whole_suits_of_packs, Card, Suit, KING, PACK};
use crate::column::{self, Column, FaceDown};
use crate::foundations::SuitFoundations;
use crate::game::{Game, OptionKind, OptionValues, Tally, VariantOption};
use crate::key::KeyWriter;
use crate::solver::Order;
use crate::talon::Talon;

const COLUMNS: usize = 7;
/// The layout: 1 + 2 + ... + 7 cards.
const LAYOUT: usize = COLUMNS * (COLUMNS + 1) / 2;
/// Face-down cards of the last column, the most any column holds.
const MOST_DOWN: usize = COLUMNS - 1;
/// The layout's face-down cards: 0 + 1 + ... + 6.
const FACE_DOWN: usize = COLUMNS * (COLUMNS - 1) / 2;
/// The pack less the layout.
const STOCK_MAX: usize = 52 - LAYOUT;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Klondike {
    columns: [Column; COLUMNS],
    /// Each column's face-down cards as dealt, the lowest first; the first `down` are still
    /// face down.
    face_down: FaceDown<COLUMNS, FACE_DOWN>,
    talon: Talon<STOCK_MAX>,
    foundations: SuitFoundations,
    /// Cards turned from the stock at a time.
    draw: u8,
    /// Whether a foundation's top card may come back to the columns.
    worry: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    Column(u8),
    Waste,
    Home,
}

/// A card, with every card on it, from one place to another: from a column, `card` and every
/// card on it (a face-up run); from the waste its top card, except in the solver's search
/// moves, where it may be any talon card that dealing on (and turning the waste over) brings to
/// the top, the deals folded into the move; from home a foundation's top card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shift {
    pub card: Card,
    pub from: Place,
    pub to: Place,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Shift(Shift),
    /// The next `draw` stock cards (fewer if fewer are left) onto the waste.
    Deal,
    /// The waste turned over as the new stock, once the stock is out.
    Redeal,
    /// The search's move (never a player's single move) that waits for its use: a worry back,
    /// a run moved off a face-up card, or (drawing one) a talon card played to a column, made
    /// only together with a move that needs it (see `Waiting`). A winning line can always be
    /// put in that form (`docs/rules/klondike.md`).
    Paired(Shift, Shift),
}

/// What a paired move waits for besides a move onto the card it leaves on top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Waiting {
    /// A run moved off this card: also a move that plays it.
    Uncovered,
    /// A card of this suit worried back: also the worry of the card beneath it.
    Worried(Suit),
    /// A talon card played onto a column (drawing one): nothing else.
    Played,
}

/// Each column's top card by `Card::rank_colour`, and the spaces: a bit per column.
#[derive(Clone, Copy, Default)]
struct Tops {
    onto: [u8; 32],
    spaces: u8,
}

impl Tops {
    /// Where `card` may go in the columns, in column order, not back to `from`: onto a card one
    /// rank higher of the other colour or, a king, into a space (only the first space when
    /// `one_space`: spaces are alike).
    fn targets(&self, card: Card, from: Option<usize>, one_space: bool) -> Ones {
        let mut targets = if card.rank() == KING {
            match self.spaces {
                spaces if one_space => spaces & spaces.wrapping_neg(),
                spaces => spaces,
            }
        } else {
            self.onto[card.alternate_base() as usize]
        };
        if let Some(from) = from {
            targets &= !(1 << from);
        }
        Ones(u128::from(targets))
    }
}

/// The two cards each card goes on in the columns (one rank higher, the other colour), a bit
/// each by index; none for a king.
const PARENTS: [u64; PACK] = {
    let mut parents = [0; PACK];
    let mut index = 0;
    while index < PACK {
        let (suit, rank) = (index / 13, index % 13 + 1);
        if rank < KING as usize {
            // Clubs and spades (0, 3) are black, diamonds and hearts (1, 2) red.
            let others = if suit == 0 || suit == 3 {
                [1, 2]
            } else {
                [0, 3]
            };
            parents[index] = 1 << (others[0] * 13 + rank) | 1 << (others[1] * 13 + rank);
        }
        index += 1;
    }
    parents
};

impl Klondike {
    fn top(&self, column: usize) -> Option<Card> {
        self.columns[column].run.top()
    }

    /// Whether some card can never go home, so the position cannot be won. What must happen
    /// before what, followed from the position as it stands: a column's card is a top only
    /// once the card on it has left; a card leaves its place (stops lying where it lies) only
    /// by going home (a top, every lower card of its suit home first), by moving with what lies
    /// on it onto a card one rank higher of the other colour, other than the one it lies on,
    /// that is then a top, or, a king, into a space; a face-down card moves only once it has
    /// been a top. A talon card (or, worrying back, a home card) becomes a top only by going
    /// onto a top, or, a king, into a space; drawing three, a talon card out of reach comes
    /// within reach only once a card before it, or the card just after it, has been taken.
    /// Whatever these rules cannot bring about never happens. Argument:
    /// `docs/rules/klondike.md`, "Blocked cards".
    fn blocked(&self) -> bool {
        // Each column's cards, the lowest first: its face-down cards, then its run.
        let mut stacks = [[Card::from_index(0); MOST_DOWN + KING as usize]; COLUMNS];
        let mut heights = [0; COLUMNS];
        let mut in_columns = 0u64;
        // Bits by card index: cards that can be a column's top some time, cards that can leave
        // their place.
        let (mut can_top, mut can_leave) = (0u64, 0u64);
        for (c, column) in self.columns.iter().enumerate() {
            let down = column.down as usize;
            stacks[c][..down].copy_from_slice(&self.face_down.column(c)[..down]);
            for (h, card) in column.run.cards().enumerate() {
                stacks[c][down + h] = card;
            }
            heights[c] = down + column.run.len();
            for card in &stacks[c][..heights[c]] {
                in_columns |= 1 << card.index();
            }
            if let Some(top) = column.run.top() {
                can_top |= 1 << top.index();
            }
        }
        let mut home = Suit::ALL.map(|suit| self.foundations.count(suit));
        let home_cards = Suit::ALL
            .into_iter()
            .map(|suit| ((1u64 << home[suit.index()]) - 1) << (suit.index() * 13))
            .fold(0, |all, cards| all | cards);
        let talon_cards = !in_columns & !home_cards & ((1 << PACK) - 1);
        // Talon cards that can come to the waste's top some time: drawing one, all of them;
        // drawing three, those dealing on reaches now, and one after a card before it in the
        // talon, or the card just after it, has been taken away.
        let mut within_reach = talon_cards;
        let (mut talon_order, mut talon_len) = ([Card::from_index(0); STOCK_MAX], 0);
        if self.draw > 1 {
            let reach = self.talon_reach(true);
            within_reach = 0;
            for card in self.talon.in_order() {
                if reach >> talon_len & 1 == 1 {
                    within_reach |= 1 << card.index();
                }
                talon_order[talon_len] = card;
                talon_len += 1;
            }
        }
        let talon_order = &talon_order[..talon_len];
        // Home cards, worrying back, reach the columns only by being played there: onto a top,
        // or a king into a space.
        let worried = if self.worry { home_cards } else { 0 };
        // Whether `card` can go onto a top some time (one rank higher, the other colour, among
        // `can_top`), or is a king, which can go into a space.
        let parents_can_top =
            |can_top: u64, card: Card| card.rank() == KING || can_top & PARENTS[card.index()] != 0;
        loop {
            let before = (can_top, can_leave, home, within_reach);
            if within_reach & talon_cards != talon_cards {
                // Taken away: home, or onto a top.
                let can_go = |card: Card, within_reach: u64, can_top: u64, home: &[u8; 4]| {
                    within_reach >> card.index() & 1 == 1
                        && (card.rank() <= home[card.suit().index()] + 1
                            || parents_can_top(can_top, card))
                };
                let mut one_before = false;
                for (i, &card) in talon_order.iter().enumerate() {
                    let next = talon_order.get(i + 1).copied();
                    if one_before
                        || next.is_some_and(|next| can_go(next, within_reach, can_top, &home))
                    {
                        within_reach |= 1 << card.index();
                    }
                    one_before |= can_go(card, within_reach, can_top, &home);
                }
            }
            let played_in = (talon_cards & within_reach) | worried;
            for card in Ones(u128::from(played_in & !can_top)).map(Card::from_index) {
                if parents_can_top(can_top, card) {
                    can_top |= 1 << card.index();
                }
            }
            for (c, stack) in stacks.iter().enumerate() {
                let (cards, down) = (&stack[..heights[c]], self.columns[c].down as usize);
                for h in (0..cards.len()).rev() {
                    let (card, bit) = (cards[h], 1u64 << cards[h].index());
                    if h + 1 < cards.len() && can_leave >> cards[h + 1].index() & 1 == 1 {
                        can_top |= bit;
                    }
                    if can_leave & bit != 0 || (h < down && can_top & bit == 0) {
                        continue;
                    }
                    // Not back onto the card it lies on.
                    let lies_on = h
                        .checked_sub(1)
                        .map_or(0, |below| 1 << cards[below].index());
                    if card.rank() <= home[card.suit().index()]
                        || parents_can_top(can_top & !lies_on, card)
                    {
                        can_leave |= bit;
                    }
                }
            }
            for suit in Suit::ALL {
                let count = &mut home[suit.index()];
                while *count < KING
                    && (can_top | (talon_cards & within_reach))
                        >> Card::new(suit, *count + 1).index()
                        & 1
                        == 1
                {
                    *count += 1;
                }
            }
            let all_home = home.iter().all(|&count| count == KING);
            if all_home || (can_top, can_leave, home, within_reach) == before {
                return !all_home;
            }
        }
    }

    /// Where each card may go in the columns, worked out once per position: every card that
    /// could move is matched against every column's top.
    fn tops(&self) -> Tops {
        let mut tops = Tops::default();
        for (c, column) in self.columns.iter().enumerate() {
            match column.run.top() {
                Some(card) => tops.onto[card.rank_colour() as usize] |= 1 << c,
                None => tops.spaces |= 1 << c,
            }
        }
        tops
    }

    /// The talon cards that can be played (the first so many of the array, in
    /// `Talon::in_order`): the waste's top, and with `whole_cycle` every card that dealing on
    /// brings to the top, in this pass or, the waste turned over, the next (the redeals are
    /// unlimited, so no later pass reaches more).
    fn reachable_talon(&self, whole_cycle: bool) -> ([Card; STOCK_MAX], usize) {
        let reach = self.talon_reach(whole_cycle);
        let (mut cards, mut reachable) = ([Card::from_index(0); STOCK_MAX], 0);
        for (_, card) in self
            .talon
            .in_order()
            .enumerate()
            .filter(|(i, _)| reach >> i & 1 == 1)
        {
            cards[reachable] = card;
            reachable += 1;
        }
        (cards, reachable)
    }

    /// Where the cards `reachable_talon` gives lie in `Talon::in_order`, a bit each.
    fn talon_reach(&self, whole_cycle: bool) -> u32 {
        let (waste, total) = (
            self.talon.waste_len(),
            self.talon.stock_len() + self.talon.waste_len(),
        );
        let mut reach = 0u32;
        if waste > 0 {
            reach |= 1 << (waste - 1);
        }
        if whole_cycle {
            let draw = self.draw as usize;
            for start in [waste, 0] {
                let mut dealt = start;
                while dealt < total {
                    dealt = (dealt + draw).min(total);
                    reach |= 1 << (dealt - 1);
                }
            }
        }
        reach
    }

    /// Appends the moves: a player's single moves, or the solver's search moves (deals folded
    /// into the talon card they bring up; one space of several; no run that is a whole column
    /// moved into a space; a worry, or a run moved off a face-up card, paired with each move
    /// that needs it).
    fn generate(&self, moves: &mut Vec<Move>, search: bool) {
        let shift = |card, from, to| Move::Shift(Shift { card, from, to });
        let tops = self.tops();
        // Home, from the columns and the talon.
        for from in 0..COLUMNS {
            if let Some(card) = self.top(from).filter(|&c| self.foundations.accepts(c)) {
                moves.push(shift(card, Place::Column(from as u8), Place::Home));
            }
        }
        let (talon, reachable) = self.reachable_talon(search);
        let talon = &talon[..reachable];
        for &card in talon.iter().filter(|&&c| self.foundations.accepts(c)) {
            moves.push(shift(card, Place::Waste, Place::Home));
        }
        // Runs between columns, longest first (they free the most).
        for from in 0..COLUMNS {
            let column = self.columns[from];
            for height in 0..column.run.len() {
                let card = column.run.card(height);
                let whole_column = height == 0 && column.down == 0;
                for to in tops.targets(card, Some(from), search) {
                    if search && whole_column && self.top(to).is_none() {
                        continue;
                    }
                    let run = Shift {
                        card,
                        from: Place::Column(from as u8),
                        to: Place::Column(to as u8),
                    };
                    if search && height > 0 {
                        // Off a face-up card: waits for a move that plays it or builds on it.
                        self.push_pairs(run, from, Waiting::Uncovered, talon, moves);
                    } else {
                        moves.push(Move::Shift(run));
                    }
                }
            }
        }
        for &card in talon {
            for to in tops.targets(card, None, search) {
                let played = Shift {
                    card,
                    from: Place::Waste,
                    to: Place::Column(to as u8),
                };
                if search && self.draw == 1 {
                    // Drawing one, it could wait in the talon for a move that builds on it.
                    self.push_pairs(played, to, Waiting::Played, talon, moves);
                } else {
                    moves.push(Move::Shift(played));
                }
            }
        }
        if self.worry {
            for suit in Suit::ALL {
                let Some(card) = self.foundations.top(suit) else {
                    continue;
                };
                for to in tops.targets(card, None, search) {
                    let worry = Shift {
                        card,
                        from: Place::Home,
                        to: Place::Column(to as u8),
                    };
                    if search {
                        // Waits for a move onto it, or the worry of the card beneath it.
                        self.push_pairs(worry, to, Waiting::Worried(suit), talon, moves);
                    } else {
                        moves.push(Move::Shift(worry));
                    }
                }
            }
        }
        if !search {
            if self.talon.stock_len() > 0 {
                moves.push(Move::Deal);
            } else if self.talon.waste_len() > 0 {
                moves.push(Move::Redeal);
            }
        }
    }

    /// `first` (a move that waits) paired with each search move after it that needs it: one
    /// onto the top `first` leaves in column `column` (the worried card, the card uncovered, the
    /// talon card played), and as `waiting` says one that plays the uncovered card or the worry
    /// of the card beneath the worried one; or another move that waits, when one move could
    /// need both (`docs/rules/klondike.md`). `talon` is the talon cards the search reaches
    /// before `first` (less `first`'s own card, those it reaches after). When the safe move
    /// would send that top card home, only that: a shortest win does it at once, and never
    /// worries a card the safe move would send straight back (nor plays one from the talon,
    /// which the safe move would have sent home there).
    fn push_pairs(
        &self,
        first: Shift,
        column: usize,
        waiting: Waiting,
        talon: &[Card],
        moves: &mut Vec<Move>,
    ) {
        let start = moves.len();
        let after = self.play(Move::Shift(first));
        let top = after.top(column).expect("a move that waits leaves a top");
        let pair = |card, from, to| Move::Paired(first, Shift { card, from, to });
        let here = Place::Column(column as u8);
        if after.safe_home(top) {
            if waiting == Waiting::Uncovered {
                moves.push(pair(top, here, Place::Home));
            }
            return;
        }
        let after_tops = after.tops();
        // A pair plays a talon card first only drawing one, when every other card stays within
        // reach; a move from a column or home leaves the talon as it was.
        let talon = || talon.iter().copied().filter(|&c| c != first.card);
        // Onto the top: a run from another column, a talon card, a worry.
        for from in (0..COLUMNS).filter(|&f| f != column) {
            let source = after.columns[from];
            // (Not the run just moved off it: that would undo the move.)
            let fits = |c: &Card| c.goes_down_alternate_on(top) && *c != first.card;
            let height = source.height_of_rank(top.rank() - 1);
            if let Some(card) = height.map(|h| source.run.card(h)).filter(fits) {
                moves.push(pair(card, Place::Column(from as u8), here));
            }
        }
        for card in talon().filter(|c| c.goes_down_alternate_on(top)) {
            moves.push(pair(card, Place::Waste, here));
        }
        if after.worry {
            for card in Suit::ALL
                .into_iter()
                .filter_map(|s| after.foundations.top(s))
            {
                if card.goes_down_alternate_on(top) {
                    moves.push(pair(card, Place::Home, here));
                }
            }
        }
        match waiting {
            Waiting::Played => {}
            // The card beneath the worried one, worried anywhere.
            Waiting::Worried(suit) => {
                if let Some(card) = after.foundations.top(suit) {
                    for to in after_tops.targets(card, None, true) {
                        moves.push(pair(card, Place::Home, Place::Column(to as u8)));
                    }
                }
            }
            // The uncovered card played: home, or onto another column.
            Waiting::Uncovered => {
                if after.foundations.accepts(top) {
                    moves.push(pair(top, here, Place::Home));
                }
                let alone = after.columns[column].down == 0 && after.columns[column].run.len() == 1;
                for to in after_tops.targets(top, Some(column), true) {
                    if !(alone && after.top(to).is_none()) {
                        moves.push(pair(top, here, Place::Column(to as u8)));
                    }
                }
            }
        }
        // Another move that waits, when one move could need both: one takes the card the
        // other waits with (its uncovered card, or the card beneath a worried one) onto the
        // card the other leaves on top.
        let source = match waiting {
            Waiting::Uncovered => Some(top),
            Waiting::Worried(suit) => after.foundations.top(suit),
            Waiting::Played => None,
        };
        let alongside = |other_source: Option<Card>, other_top: Card| {
            source.is_some_and(|s| s.goes_down_alternate_on(other_top))
                || other_source.is_some_and(|s| s.goes_down_alternate_on(top))
        };
        let push_new = |moves: &mut Vec<Move>, card, from, to| {
            let paired = pair(card, from, to);
            if !moves[start..].contains(&paired) {
                moves.push(paired);
            }
        };
        // Only a card beneath of the rank one above `source` or one below `top` can be
        // alongside (a run holds each rank once: the higher rank lies lower).
        let wanted_ranks = {
            let over_source = source.map(|s| s.rank() + 1).filter(|&r| r <= KING);
            let under_top = top.rank() - 1;
            match over_source {
                Some(r) if r > under_top => [Some(r), Some(under_top)],
                Some(r) if r < under_top => [Some(under_top), Some(r)],
                _ => [Some(under_top), None],
            }
        };
        for from in (0..COLUMNS).filter(|&f| f != column) {
            let source_column = after.columns[from];
            let run = source_column.run;
            for height in wanted_ranks
                .into_iter()
                .flatten()
                .filter_map(|r| source_column.height_of_rank(r))
                .filter(|&h| h + 1 < run.len())
                .map(|h| h + 1)
            {
                let (beneath, card) = (run.card(height - 1), run.card(height));
                if alongside(Some(beneath), beneath) {
                    for to in after_tops.targets(card, Some(from), true) {
                        push_new(
                            moves,
                            card,
                            Place::Column(from as u8),
                            Place::Column(to as u8),
                        );
                    }
                }
            }
        }
        if after.worry {
            for suit in Suit::ALL {
                let Some(card) = after.foundations.top(suit) else {
                    continue;
                };
                let beneath = (card.rank() > 1).then(|| Card::new(suit, card.rank() - 1));
                if alongside(beneath, card) {
                    for to in after_tops.targets(card, None, true) {
                        push_new(moves, card, Place::Home, Place::Column(to as u8));
                    }
                }
            }
        }
        if after.draw == 1 {
            for card in talon().filter(|&c| alongside(None, c)) {
                for to in after_tops.targets(card, None, true) {
                    push_new(moves, card, Place::Waste, Place::Column(to as u8));
                }
            }
        }
    }

    /// The columns with the runs lying on each two face-up cards of one rank and colour (twins)
    /// in one order: the run whose lowest card has the lower suit index on the twin with the
    /// lower suit index, and a run alone on that twin. Positions that differ only in which of
    /// two twins holds which run are equally winnable, within as many moves of a win (not
    /// counting a run moved from one twin to the other), so the key takes them for one
    /// (`docs/rules/klondike.md`, Twin runs). Twins from the kings down, so that putting in order
    /// the runs on two twins moves only lower cards, whose twins come later.
    fn twin_runs_in_order(&self) -> [Column; COLUMNS] {
        let mut columns = self.columns;
        let mut to_order = self.twins_holding_runs();
        while to_order != 0 {
            // The highest first: the kings' twins, then the queens', ...
            let rank_colour = 31 - to_order.leading_zeros();
            to_order &= !(1 << rank_colour);
            let (rank, red) = ((rank_colour >> 1) as u8, rank_colour & 1 == 1);
            let low_suit = if red { Suit::DIAMONDS } else { Suit::CLUBS };
            // Where each twin lies, its column and height: the twin of the lower suit first.
            let mut places = [(0, 0); 2];
            for (c, column) in columns.iter().enumerate() {
                let Some(h) = column.height_of_rank(rank) else {
                    continue;
                };
                // The colour changes with each card up the run.
                if column
                    .run
                    .bottom()
                    .is_some_and(|b| (b.is_red() != (h % 2 == 1)) == red)
                {
                    let suit = column.run.card(h).suit();
                    places[usize::from(suit != low_suit)] = (c, h);
                }
            }
            let [(c1, h1), (c2, h2)] = places;
            let on = |c: usize, h: usize| {
                (h + 1 < columns[c].run.len()).then(|| columns[c].run.card(h + 1))
            };
            let out_of_order = match (on(c1, h1), on(c2, h2)) {
                (None, Some(_)) => true,
                (Some(a), Some(b)) => a.suit().index() > b.suit().index(),
                _ => false,
            };
            if out_of_order {
                let run1 = columns[c1].run.split_off(h1 + 1);
                let run2 = columns[c2].run.split_off(h2 + 1);
                columns[c1].run.append(run2);
                columns[c2].run.append(run1);
            }
        }
        columns
    }

    /// The twins both face up in the columns with a run on one or both, a bit each by
    /// `Card::rank_colour`: the only ones whose runs `twin_runs_in_order` may move. Moving runs
    /// between twins keeps this set (the same cards face up, each run whole).
    fn twins_holding_runs(&self) -> u32 {
        let (mut once, mut twice, mut holding) = (0u32, 0u32, 0u32);
        for run in self.columns.iter().map(|column| &column.run) {
            let Some(bottom) = run.bottom() else {
                continue;
            };
            let (mut rank_colour, mut cards) = (bottom.rank_colour(), 0u32);
            for _ in 0..run.len() {
                cards |= 1 << rank_colour;
                // One rank lower, the other colour (a column's run never goes below the ace).
                rank_colour = (rank_colour ^ 1).wrapping_sub(2);
            }
            // Every card of the run holds one but its top, the lowest rank.
            holding |= cards & (cards - 1);
            twice |= once & cards;
            once |= cards;
        }
        twice & holding
    }

    /// Whether the safe move may send `card` (a column's top) home: see `safe_move`.
    fn safe_home(&self, card: Card) -> bool {
        if !self.foundations.accepts(card) {
            return false;
        }
        let rank = card.rank();
        let height = |suit: Suit| self.foundations.count(suit);
        let (mut other_colour, mut same_colour) = (u8::MAX, u8::MAX);
        for suit in Suit::ALL.into_iter().filter(|&s| s != card.suit()) {
            let lowest = if suit.is_red() == card.is_red() {
                &mut same_colour
            } else {
                &mut other_colour
            };
            *lowest = (*lowest).min(height(suit));
        }
        let kept_apart = other_colour + 2 >= rank && same_colour + 3 >= rank;
        let nothing_builds_on_it = !self.worry && other_colour + 1 >= rank;
        kept_apart || nothing_builds_on_it
    }

    fn place_name(place: Place) -> String {
        match place {
            Place::Column(c) => (c + 1).to_string(),
            Place::Waste => "w".to_string(),
            Place::Home => "h".to_string(),
        }
    }

    fn cards_down(&self) -> usize {
        self.columns.iter().map(|c| c.down as usize).sum()
    }
}

impl Game for Klondike {
    type Move = Move;
    type Key = [u64; 4];

    const NAME: &'static str = "klondike";
    const SUMMARY: &'static str =
        "Klondike, thoughtful, redeals unlimited (the published yardstick for the Harp's machinery)";
    /// The beam wins more within a budget than the portfolio, in less time: seeds 1000-1199
    /// within 200k positions leave 23 unknown against 34 drawing three, 10 against 20 drawing
    /// one (docs/rules/klondike.md, Search guidance).
    const SEARCH: Order = Order::Beam;
    const PACKS: usize = 1;
    const OPTIONS: &'static [VariantOption] = &[
        VariantOption {
            name: "draw",
            help: "cards turned from the stock at a time",
            kind: OptionKind::Number {
                min: 1,
                max: 3,
                default: 3,
            },
        },
        VariantOption {
            name: "no-worry",
            help: "cards never come back from the foundations",
            kind: OptionKind::Flag,
        },
    ];

    /// Worrying back only adds moves: `--no-worry` is narrower. Drawing one, so is drawing
    /// three, each deal of three played as deals of one (`widened`): the standard game, whose
    /// search finds some wins drawing one's misses.
    fn narrower(options: &OptionValues) -> Vec<OptionValues> {
        let mut narrower = options.with_fewer_moves(Self::OPTIONS, &[], &["no-worry"]);
        if options.get("draw") == 1 {
            let mut drawing_three = options.clone();
            drawing_three
                .set(Self::OPTIONS, "draw", 3)
                .expect("the game's own option");
            narrower.push(drawing_three);
        }
        narrower
    }

    /// Worrying back allowed, and drawing one card: drawing one plays any line drawing two or
    /// three plays, each deal as that many deals of one (the same cards turned, the same one
    /// on top), and a redeal as a redeal. Drawing one first: its graphs are the smaller.
    fn wider(options: &OptionValues) -> Vec<OptionValues> {
        let worrying = options.with_more_moves(Self::OPTIONS, &[], &["no-worry"]);
        let mut wider = Vec::new();
        if options.get("draw") > 1 {
            for variant in std::iter::once(options).chain(&worrying) {
                let mut drawing_one = variant.clone();
                drawing_one
                    .set(Self::OPTIONS, "draw", 1)
                    .expect("the game's own option");
                wider.push(drawing_one);
            }
        }
        wider.extend(worrying);
        wider
    }

    /// Rows across: seven cards, the first face up; then six on columns 2 to 7, the first face
    /// up; ... then one on column 7, face up. The rest is the stock, its next card first.
    /// Tests may deal reduced packs of whole suits (at least the 28 of the layout).
    fn deal(options: &OptionValues, order: &[Card]) -> Result<Self, String> {
        let suits = whole_suits_of_packs(order, 1)?;
        if order.len() < LAYOUT {
            return Err(format!(
                "Klondike lays out {LAYOUT} cards; the deal has {}",
                order.len()
            ));
        }
        let mut game = Klondike {
            columns: [Column::default(); COLUMNS],
            face_down: FaceDown::new(std::array::from_fn(|c| c)),
            talon: Talon::new(&order[LAYOUT..]),
            foundations: SuitFoundations::new(1),
            draw: options.get("draw") as u8,
            worry: !options.flag("no-worry"),
        };
        for suit in Suit::ALL.into_iter().filter(|s| !suits[s.index()]) {
            game.foundations.complete_suit(suit);
        }
        let mut cards = order.iter();
        for row in 0..COLUMNS {
            for column in row..COLUMNS {
                let card = *cards.next().expect("the layout's cards");
                if column == row {
                    game.columns[column].run.push(card);
                } else {
                    game.face_down.set(column, row, card);
                    game.columns[column].down += 1;
                }
            }
        }
        Ok(game)
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves, false);
    }

    /// None from a blocked position (`blocked`: it cannot be won).
    fn search_moves(&self, moves: &mut Vec<Move>) {
        if !self.blocked() {
            self.generate(moves, true);
        }
    }

    /// A deal turns as many cards one at a time drawing one, the same cards in the same order.
    fn widened(&self, mv: Move, wider: &Self, steps: &mut Vec<Move>) {
        let deals = match mv {
            Move::Deal if wider.draw != self.draw => {
                debug_assert_eq!(wider.draw, 1, "only drawing one plays every other draw");
                (self.draw as usize).min(self.talon.stock_len())
            }
            _ => 1,
        };
        steps.extend(std::iter::repeat_n(mv, deals));
    }

    /// A pair: its two moves, each unfolded. A talon card below the waste's top: deal on,
    /// turning the waste over when the stock is out, until it is the top; then play it.
    fn unfold(&self, mv: Move, steps: &mut Vec<Move>) {
        if let Move::Paired(first, then) = mv {
            self.unfold(Move::Shift(first), steps);
            return self
                .play(Move::Shift(first))
                .unfold(Move::Shift(then), steps);
        }
        if let Move::Shift(Shift {
            card,
            from: Place::Waste,
            ..
        }) = mv
        {
            let mut position = *self;
            let mut dealt = 0;
            while position.talon.waste_top() != Some(card) {
                let step = if position.talon.stock_len() > 0 {
                    Move::Deal
                } else {
                    Move::Redeal
                };
                steps.push(step);
                position = position.play(step);
                dealt += 1;
                assert!(dealt <= 2 * STOCK_MAX + 2, "{card} is not in the talon");
            }
        }
        steps.push(mv);
    }

    /// Cards home count most; face-down cards count against.
    fn heuristic(&self) -> i32 {
        10 * self.foundations.cards_home() as i32 - 6 * self.cards_down() as i32
    }

    /// Positions with the same foundations, as many cards face down in each column and as
    /// many cards in the talon are one family: the beam keeps the best of each, so its width
    /// goes to positions that differ in progress rather than in where the face-up runs lie
    /// (of the 53 deals drawing three unknown within 6M positions, the beam within 2M wins 9
    /// with families, none without).
    fn family(&self) -> Option<u64> {
        let counts = Suit::ALL.map(|suit| self.foundations.count(suit));
        let family = counts.iter().fold(0u64, |f, &c| f << 4 | u64::from(c));
        let family = self
            .columns
            .iter()
            .fold(family, |f, column| f << 3 | u64::from(column.down));
        Some(family << 7 | (self.talon.stock_len() + self.talon.waste_len()) as u64)
    }

    /// A column's top card goes home when every card that could ever need it in the columns
    /// can be sent home in its stead: both foundations of the other colour stand at least two
    /// below it and the other foundation of its colour at least three below; or, with nothing
    /// worried back, when both cards that could be built on it are home. Proof in
    /// `docs/rules/klondike.md`. Drawing one card at a time, a talon card goes home by the same
    /// test (as a search move, the deals folded in): every talon card stays within reach
    /// whatever is taken out. Drawing three, talon cards are never sent by this rule: taking
    /// one out regroups the deals.
    fn safe_move(&self) -> Option<Move> {
        let from_columns = (0..COLUMNS).find_map(|from| {
            let card = self.top(from).filter(|&c| self.safe_home(c))?;
            Some((card, Place::Column(from as u8)))
        });
        let from_talon = || {
            (self.draw == 1)
                .then(|| self.talon.in_order().find(|&c| self.safe_home(c)))
                .flatten()
                .map(|card| (card, Place::Waste))
        };
        let (card, from) = from_columns.or_else(from_talon)?;
        Some(Move::Shift(Shift {
            card,
            from,
            to: Place::Home,
        }))
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = *self;
        let (card, from, to) = match mv {
            Move::Deal => {
                next.talon
                    .deal_several((self.draw as usize).min(self.talon.stock_len()));
                return next;
            }
            Move::Redeal => {
                next.talon.turn_over();
                return next;
            }
            Move::Shift(Shift { card, from, to }) => (card, from, to),
            Move::Paired(first, then) => {
                return self.play(Move::Shift(first)).play(Move::Shift(then));
            }
        };
        // Take the card (and what lies on it) up.
        let mut lifted = AlternatePile::default();
        match from {
            Place::Column(f) => {
                let f = f as usize;
                let column = &mut next.columns[f];
                let height = column
                    .height_of_rank(card.rank())
                    .filter(|&h| column.run.card(h) == card)
                    .expect("the card is in the column's run");
                lifted = column.run.split_off(height);
                column.turn_up(next.face_down.column(f));
            }
            Place::Waste => {
                next.talon.take(card);
                lifted.push(card);
            }
            Place::Home => {
                lifted.push(next.foundations.take_top(card.suit()));
            }
        }
        match to {
            Place::Home => next.foundations.add(card),
            Place::Column(t) => next.columns[t as usize].run.append(lifted),
            Place::Waste => unreachable!("nothing is moved onto the waste"),
        }
        next
    }

    fn is_won(&self) -> bool {
        self.foundations.is_complete()
    }

    /// Each column (face-down count and run, the runs on twins put in order first; the columns
    /// with nothing face down, which differ only in their runs, in sorted order), then the
    /// talon's cards still there and where the stock begins. The foundations follow from the
    /// rest: every card not in a column or the talon is home, and each suit's home cards run up
    /// from its ace. Drawing one card at a time, every talon card can be reached whatever the
    /// split, so the split is left out. 7 x 26 + 24 + 5 = 211 bits.
    fn key(&self) -> [u64; 4] {
        let codes = column::sorted_codes(&self.twin_runs_in_order());
        let mut key = KeyWriter::<4>::new();
        for code in codes {
            // At most six cards face down: the code's fourth bit is always clear.
            debug_assert!(code & 0x8 == 0);
            key.push(code & 0x7 | code >> 4 << 3, 26);
        }
        let (present, split) = self.talon.state();
        key.push(present as u64, STOCK_MAX);
        // Drawing three, a waste of a multiple of three cards, or no stock, plays as a fresh
        // pass: each is dealt to from the other without a card moving.
        let fresh = self.draw == 1
            || self.talon.stock_len() == 0
            || self.talon.waste_len().is_multiple_of(self.draw as usize);
        let split = if fresh { 0 } else { split };
        key.push(split as u64, 5);
        key.finish()
    }

    /// The columns with nothing face down put in the order their codes sort in.
    fn canonical(&self) -> Self {
        Self {
            columns: column::sorted_columns(&self.columns),
            ..*self
        }
    }

    fn tally(&self) -> Tally {
        column::tally(
            &self.columns,
            &self.talon,
            self.foundations.cards_home() as usize,
        )
    }

    fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Shift(Shift { card, from, to }) => {
                let dealt_to = match from {
                    Place::Waste if self.talon.waste_top() != Some(card) => {
                        format!("deal on to {card}, ")
                    }
                    _ => String::new(),
                };
                format!(
                    "{dealt_to}{card} {}>{}",
                    Klondike::place_name(from),
                    Klondike::place_name(to)
                )
            }
            Move::Deal => {
                let turned: Vec<Card> = self.talon.stock().take(self.draw as usize).collect();
                format!("deal {}", format_cards(&turned))
            }
            Move::Redeal => "redeal".to_string(),
            Move::Paired(first, then) => {
                let first = Move::Shift(first);
                let after = self.play(first);
                format!(
                    "{}, {}",
                    self.move_text(first),
                    after.move_text(Move::Shift(then))
                )
            }
        }
    }

    fn layout(&self) -> String {
        let foundations = format!("foundations: {}\n", self.foundations.describe());
        foundations + &column::describe(&self.columns, &self.face_down) + &self.talon.describe()
    }
}
