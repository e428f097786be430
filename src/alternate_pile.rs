//! A pile built down in alternate colours one card at a time on whatever card was laid first
//! (Terrace's valley; the face-up run of a Harp column, which never reaches the wrap). Every
//! card above the bottom one is one rank lower than the card beneath it, wrapping from ace to
//! king, and of the other colour, so the pile is its bottom card, its height and one bit per
//! card for which suit of its colour it is: no heap, and 18 bytes whatever its height, or 4
//! for a pile of at most 16 cards (`AlternatePile<2>`, a column's run).

use crate::bits::Bits;
use crate::card::{Card, Suit, KING};

/// A pile of at most `8 * BYTES` cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AlternatePile<const BYTES: usize = 16> {
    len: u8,
    bottom: u8,
    /// Bit `i`: the card at height `i` (0 the bottom) is a heart or a spade rather than a
    /// diamond or a club. Two packs hold 104 cards, so a pile never outgrows 128 bits.
    suits: Bits<BYTES>,
}

/// Whether the suit is the first (`false`) or second (`true`) of its colour.
fn high_suit(suit: Suit) -> bool {
    suit == Suit::HEARTS || suit == Suit::SPADES
}

/// The suit of that colour, the first or second (`high_suit`): clubs 0, diamonds 1, hearts 2,
/// spades 3.
fn suit_of(red: bool, high: bool) -> Suit {
    const SUITS: [[Suit; 2]; 2] = [[Suit::CLUBS, Suit::SPADES], [Suit::DIAMONDS, Suit::HEARTS]];
    SUITS[usize::from(red)][usize::from(high)]
}

impl<const BYTES: usize> AlternatePile<BYTES> {
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The card at `height` (0 the bottom).
    pub fn card(&self, height: usize) -> Card {
        debug_assert!(height < self.len());
        let bottom = Card::from_index(self.bottom as usize);
        // One rank lower per card; only a pile past the ace wraps (a column's run never).
        let mut rank = bottom.rank() as isize - height as isize;
        if rank < 1 {
            rank = (rank - 1).rem_euclid(KING as isize) + 1;
        }
        let red = bottom.is_red() != (height % 2 == 1);
        let high = self.suits.get() >> height & 1 == 1;
        Card::new(suit_of(red, high), rank as u8)
    }

    /// The card laid first, read as stored (no rank worked out).
    pub fn bottom(&self) -> Option<Card> {
        (self.len > 0).then(|| Card::from_index(self.bottom as usize))
    }

    pub fn top(&self) -> Option<Card> {
        (self.len > 0).then(|| self.card(self.len() - 1))
    }

    /// Whether `card` may go on the pile: any card on an empty pile (the game says when),
    /// otherwise one rank lower than the top, wrapping (a king on an ace), the other colour.
    pub fn takes(&self, card: Card) -> bool {
        self.top()
            .is_none_or(|top| card.rank() % KING + 1 == top.rank() && card.is_red() != top.is_red())
    }

    pub fn push(&mut self, card: Card) {
        debug_assert!(self.takes(card));
        if self.len == 0 {
            self.bottom = card.index() as u8;
        }
        self.suits
            .set(self.suits.get() | u128::from(high_suit(card.suit())) << self.len);
        self.len += 1;
    }

    pub fn pop(&mut self) -> Card {
        let card = self.top().expect("a card to take");
        self.len -= 1;
        self.suits.set(self.suits.get() & !(1u128 << self.len));
        if self.len == 0 {
            self.bottom = 0;
        }
        card
    }

    /// Takes off the cards from `height` up, as a pile of their own (Klondike moves a
    /// face-up run whole); from the height above the top, an empty pile.
    pub fn split_off(&mut self, height: usize) -> Self {
        debug_assert!(height <= self.len());
        if height == self.len() {
            return Self::default();
        }
        let upper = AlternatePile {
            len: self.len - height as u8,
            bottom: self.card(height).index() as u8,
            suits: Bits::from(self.suits.get() >> height),
        };
        self.len = height as u8;
        self.suits.set(self.suits.get() & ((1u128 << height) - 1));
        if height == 0 {
            self.bottom = 0;
        }
        upper
    }

    /// Lays `other` on the pile, its bottom card first.
    pub fn append(&mut self, other: Self) {
        if other.is_empty() {
            return;
        }
        debug_assert!(self.takes(other.card(0)));
        if self.is_empty() {
            *self = other;
            return;
        }
        self.suits
            .set(self.suits.get() | other.suits.get() << self.len);
        self.len += other.len;
    }

    /// The cards, bottom first.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        (0..self.len()).map(|h| self.card(h))
    }

    /// The pile exactly, in 23 bits, for a pile of at most 13 cards (a run from a king down,
    /// as in the Harp's columns): height, bottom card and suit bits.
    pub fn code(&self) -> u32 {
        debug_assert!(self.len <= KING);
        u32::from(self.len) | u32::from(self.bottom) << 4 | (self.suits.get() as u32) << 10
    }

    /// What decides the pile's future when suits do not matter: its height and its bottom
    /// card's rank and colour (12 bits).
    pub fn shape(&self) -> u16 {
        if self.len == 0 {
            return 0;
        }
        let bottom = Card::from_index(self.bottom as usize);
        u16::from(self.len) << 5 | u16::from(bottom.rank()) << 1 | u16::from(bottom.is_red())
    }

    /// The pile with every card replaced by the first suit of its colour.
    pub fn without_suits(&self) -> Self {
        let mut plain = Self::default();
        if self.len > 0 {
            let bottom = Card::from_index(self.bottom as usize);
            let suit = if bottom.is_red() {
                Suit::DIAMONDS
            } else {
                Suit::CLUBS
            };
            plain.bottom = Card::new(suit, bottom.rank()).index() as u8;
            plain.len = self.len;
        }
        plain
    }
}

/// Whether `card` may be laid on `top`: one rank lower, wrapping (a king on an ace), the other
/// colour.
pub fn goes_on(card: Card, top: Card) -> bool {
    card.rank() % KING + 1 == top.rank() && card.is_red() != top.is_red()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::card;

    #[test]
    fn a_pile_keeps_its_cards_and_builds_down_in_alternate_colours_with_the_wrap() {
        let mut pile: AlternatePile = AlternatePile::default();
        assert!(pile.takes(card("2H")));
        for text in ["2H", "AS", "KD", "QC"] {
            pile.push(card(text));
        }
        assert!(
            pile.takes(card("JD"))
                && pile.takes(card("JH"))
                && !pile.takes(card("JS"))
                && !pile.takes(card("TH"))
        );
        let cards: Vec<String> = pile.cards().map(|c| c.to_string()).collect();
        assert_eq!(cards, ["2H", "AS", "KD", "QC"]);
        assert_eq!(pile.pop(), card("QC"));
        assert_eq!(pile.top(), Some(card("KD")));
        assert_eq!(pile.shape(), 3 << 5 | 2 << 1 | 1);
        assert_eq!(pile.without_suits().top(), Some(card("KD")));
        assert_eq!(pile.without_suits().card(0), card("2D"));
        while !pile.is_empty() {
            pile.pop();
        }
        assert_eq!(pile, AlternatePile::default());
    }

    #[test]
    fn a_pile_split_and_laid_back_is_the_same_pile() {
        // A column's run: two bytes of suit bits.
        let mut pile: AlternatePile<2> = AlternatePile::default();
        for text in ["KS", "QH", "JC", "TD", "9S"] {
            pile.push(card(text));
        }
        let whole = pile;
        let upper = pile.split_off(2);
        let texts = |p: &AlternatePile<2>| p.cards().map(|c| c.to_string()).collect::<Vec<_>>();
        assert_eq!(texts(&pile), ["KS", "QH"]);
        assert_eq!(texts(&upper), ["JC", "TD", "9S"]);
        pile.append(upper);
        assert_eq!(pile, whole);
        let all = pile.split_off(0);
        assert_eq!((pile, all), (AlternatePile::default(), whole));
    }
}
