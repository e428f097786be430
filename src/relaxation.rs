//! A relaxed game that proves positions lost. A card is *locked* when it can leave its place
//! only by going home; a game says which of its cards are (a key that feeds only the
//! foundations, a talon card nothing can take but a foundation, ...). A locked card must go
//! home before anything beneath it in its stack can move. Relax everything else: every card
//! goes home whenever a foundation takes it and no locked card lies above it in its stack.
//! Any line of the real game sends cards home in an order the relaxed game allows, so if the
//! relaxed game cannot send every card home, neither can the real one.
//!
//! Playing the relaxed game out needs almost no search: sending a card home only frees more
//! cards and lets foundations grow. The exception is cards that are alike on the foundations
//! (the two copies of a card in two packs) but lie in different places: when fewer
//! foundations take them than there are such cards left, the first to go takes a foundation
//! the others must then wait for, and if one of the others is locked with cards beneath it,
//! which goes first decides what is freed first. Only then are the orders tried. The games'
//! rules documents give the proof for their own locks.

use crate::card::Card;
use ahash::AHashSet;

/// Cards in play at most (two packs).
pub const MOST: usize = 104;
/// Kinds of card at most (`Row::kind`).
pub const KINDS: usize = 52;
/// Cards of one kind at most (a `Row` may make any four cards alike).
const COPIES: usize = 4;
/// No locked card lies above the card (or: no such card).
const NONE: u8 = u8::MAX;

/// How a game's foundations take cards, as far as the relaxed game needs to know. A
/// foundation takes one kind at a time, so a card home takes a place only from its own kind.
pub trait Row: Copy {
    /// Cards of one kind (below `KINDS`) are alike to the foundations: each takes any of them.
    fn kind(&self, card: Card) -> usize;
    /// A foundation that takes a card of `kind` now.
    fn taker(&self, kind: usize) -> Option<usize>;
    /// How many foundations take a card of `kind` now.
    fn open(&self, kind: usize) -> usize;
    /// Puts a card of `kind` on foundation `f`; the kind that foundation takes next, if any.
    fn grow(&mut self, f: usize, kind: usize) -> Option<usize>;
    /// The kind a foundation takes just before it takes `kind` (none for a first card).
    fn below(&self, kind: usize) -> Option<usize>;
}

/// Sets of cards home the play-out tries before it gives up and calls the position not stuck
/// (it claims "stuck" only after trying every order that matters). A cap too low costs twice:
/// at 4,096, the Queens' seed 617316 was stuck at the deal but, given up on, searched 10k
/// positions at 172 a second, each giving up again; at 65,536 it is proven lost in 16 ms.
const ORDERS_TRIED: usize = 65536;

/// The cards not home, stack by stack, each with the nearest locked card above it.
pub struct Stacks {
    cards: [Card; MOST],
    blocker: [u8; MOST],
    len: usize,
}

impl Default for Stacks {
    fn default() -> Self {
        Stacks {
            cards: [Card::from_index(0); MOST],
            blocker: [NONE; MOST],
            len: 0,
        }
    }
}

impl Stacks {
    /// Adds a stack's cards, uppermost first, each with whether it is locked.
    pub fn push(&mut self, cards: impl IntoIterator<Item = (Card, bool)>) {
        let mut blocker = NONE;
        for (card, locked) in cards {
            self.cards[self.len] = card;
            self.blocker[self.len] = blocker;
            if locked {
                blocker = self.len as u8;
            }
            self.len += 1;
        }
    }

    /// Whether some card cannot go home in the relaxed game, from foundations `row`.
    pub fn stuck<R: Row>(&self, row: R) -> bool {
        // With nothing locked every card is free, and all go home.
        self.blocker[..self.len].iter().any(|&b| b != NONE) && !self.all_go_home(row)
    }

    /// Plays the relaxed game out: whether every card goes home.
    pub fn all_go_home<R: Row>(&self, row: R) -> bool {
        let mut play = Playout {
            kinds: [0; MOST],
            blocks: [false; MOST],
            copies: [[NONE; COPIES]; KINDS],
            failed: AHashSet::new(),
        };
        for i in 0..self.len {
            let kind = row.kind(self.cards[i]);
            play.kinds[i] = kind as u8;
            let copies = &mut play.copies[kind];
            let slot = copies
                .iter()
                .position(|&c| c == NONE)
                .expect("at most four alike");
            copies[slot] = i as u8;
            if self.blocker[i] != NONE {
                play.blocks[self.blocker[i] as usize] = true;
            }
        }
        self.play_out(0, row, &mut play, None)
    }

    /// The foundation that takes card `i` now, if it is free to go.
    fn taker<R: Row>(&self, home: u128, row: &R, play: &Playout, i: usize) -> Option<usize> {
        let blocker = self.blocker[i];
        if home >> i & 1 == 1 || (blocker != NONE && home >> blocker & 1 == 0) {
            return None;
        }
        row.taker(play.kinds[i] as usize)
    }

    /// From `home` (a bit per card) and the foundations it leaves, with card `first` sent
    /// home if one is given (else every card looked at): cards go home, each looked at again
    /// only when it is freed or a foundation comes to want its kind (a card the cards sent
    /// do not touch stays as it was when last looked at; the orders tried look at every card).
    fn play_out<R: Row>(
        &self,
        mut home: u128,
        mut row: R,
        play: &mut Playout,
        first: Option<(usize, usize)>,
    ) -> bool {
        let mut pending = Pending {
            cards: [0; (2 + COPIES) * MOST],
            count: 0,
        };
        match first {
            Some((i, f)) => self.send(i, f, &mut home, &mut row, play, &mut pending),
            None => (0..self.len).for_each(|i| pending.push(i as u8)),
        }
        while let Some(i) = pending.pop() {
            let Some(f) = self.taker(home, &row, play, i) else {
                continue;
            };
            let kind = play.kinds[i] as usize;
            let alike = play.copies[kind];
            let waiting = alike
                .iter()
                .filter(|&&j| j != NONE && home >> j & 1 == 0)
                .count();
            let blocking_alike = alike.iter().any(|&j| {
                j != NONE && j as usize != i && home >> j & 1 == 0 && play.blocks[j as usize]
            });
            if blocking_alike && row.open(kind) < waiting {
                continue;
            }
            self.send(i, f, &mut home, &mut row, play, &mut pending);
        }
        if home.count_ones() as usize == self.len {
            return true;
        }
        // What can still go waits for cards alike to it: try the orders that matter.
        let tried = self.kinds_to_try(home, &row, play);
        if tried == 0 || !play.failed.insert(home) {
            return false;
        }
        if play.failed.len() > ORDERS_TRIED {
            return true;
        }
        (0..self.len).any(|i| {
            let kind = play.kinds[i] as usize;
            tried >> kind & 1 == 1
                && self
                    .taker(home, &row, play, i)
                    .is_some_and(|f| self.play_out(home, row, play, Some((i, f))))
        })
    }

    /// Sends card `i` home to foundation `f`: the cards it frees and the cards its foundation
    /// takes next are to be looked at.
    fn send<R: Row>(
        &self,
        i: usize,
        f: usize,
        home: &mut u128,
        row: &mut R,
        play: &Playout,
        pending: &mut Pending,
    ) {
        *home |= 1 << i;
        let freed = (i + 1..self.len).take_while(|&j| self.blocker[j] as usize == i);
        freed.for_each(|j| pending.push(j as u8));
        if let Some(next) = row.grow(f, play.kinds[i] as usize) {
            let copies = play.copies[next].into_iter().filter(|&j| j != NONE);
            copies.for_each(|j| pending.push(j));
        }
    }

    /// The kinds (a bit each) whose free cards are the choices worth trying from `home` (none
    /// if no card can go): a set of kinds closed under what holds their cards back, the one
    /// with fewest free cards.
    /// Any order that sends every card home has a first card of those kinds; nothing of the
    /// set goes before it, so it is free now (its locked card above and the card its
    /// foundation takes before it are of the set), and sending it first keeps the order good
    /// (a card home takes a foundation only from cards of its own kind, and of those it is the
    /// first). So some order that starts with a free card of the set sends every card home.
    fn kinds_to_try<R: Row>(&self, home: u128, row: &R, play: &Playout) -> u64 {
        let free = |i: usize| home >> i & 1 == 0 && self.taker(home, row, play, i).is_some();
        let mut free_cards = [0u8; KINDS];
        let mut free_kinds = 0u64;
        for i in (0..self.len).filter(|&i| free(i)) {
            free_cards[play.kinds[i] as usize] += 1;
            free_kinds |= 1 << play.kinds[i];
        }
        let mut best = (usize::MAX, free_kinds);
        let mut starts = free_kinds;
        while starts != 0 && best.0 > 1 {
            let mut kinds = starts & starts.wrapping_neg();
            starts &= starts - 1;
            let mut grown = 0u64;
            while kinds != grown {
                let kind = (kinds & !grown).trailing_zeros() as usize;
                grown |= 1 << kind;
                for j in play.copies[kind].iter().map(|&j| j as usize) {
                    if j == NONE as usize || home >> j & 1 == 1 || free(j) {
                        continue;
                    }
                    let blocker = self.blocker[j];
                    if blocker != NONE && home >> blocker & 1 == 0 {
                        kinds |= 1 << play.kinds[blocker as usize];
                    } else if let Some(below) = row.below(kind) {
                        kinds |= 1 << below;
                    }
                }
            }
            let mut tried = kinds & free_kinds;
            let mut choices = 0;
            while tried != 0 {
                choices += free_cards[tried.trailing_zeros() as usize] as usize;
                tried &= tried - 1;
            }
            if choices < best.0 {
                best = (choices, kinds);
            }
        }
        best.1
    }

    /// How many cards the stacks hold.
    #[cfg(test)]
    pub fn count(&self) -> usize {
        self.len
    }

    /// Card `i` and the index of the nearest locked card above it, if any: for tests that
    /// play the relaxed game plainly.
    #[cfg(test)]
    pub fn card(&self, i: usize) -> (Card, Option<usize>) {
        let blocker = self.blocker[i];
        (self.cards[i], (blocker != NONE).then_some(blocker as usize))
    }
}

/// Cards to look at in a play-out: each card once at the start, once when freed, and with its
/// kind's other cards each time a foundation comes to want that kind, so (2 + COPIES) times
/// the cards at most.
struct Pending {
    cards: [u8; (2 + COPIES) * MOST],
    count: usize,
}

impl Pending {
    fn push(&mut self, card: u8) {
        self.cards[self.count] = card;
        self.count += 1;
    }

    fn pop(&mut self) -> Option<usize> {
        self.count = self.count.checked_sub(1)?;
        Some(self.cards[self.count] as usize)
    }
}

/// What `Stacks::all_go_home` works out once and carries through its search.
struct Playout {
    /// Each card's kind (`Row::kind`).
    kinds: [u8; MOST],
    /// Whether a card is locked with cards beneath it that wait for it.
    blocks: [bool; MOST],
    /// The indices of each kind's cards.
    copies: [[u8; COPIES]; KINDS],
    /// Sets of cards home from which not every card goes home.
    failed: AHashSet<u128>,
}
