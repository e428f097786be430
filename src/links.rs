//! Piles of a one-pack game as links: for each card, what lies beneath it. This one map is
//! both the position's piles (a pile is its top card followed down the links) and its
//! transposition key: it forgets the order of interchangeable piles, so positions that differ
//! only by permuting them share a key, and a move that shifts a run of cards changes one link.

use crate::card::{Card, PACK};
use crate::key::{get_field, set_field};

/// Bits per card: values 0..=51 name the card beneath; the game gives 52..=63 its own meanings
/// (the bottom of a kind of pile, the stock, the waste, home).
const BITS: usize = 6;

/// The first value that is not a card.
pub const FIRST_MARKER: u8 = PACK as u8;

/// What lies beneath each of the 52 cards, packed six bits per card (40 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Links([u64; 5]);

/// What a link says lies beneath a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Beneath {
    Card(Card),
    Marker(u8),
}

impl Links {
    /// Every card marked `marker`.
    pub fn all(marker: u8) -> Links {
        let mut links = Links::default();
        for index in 0..PACK {
            links.set_raw(index, marker);
        }
        links
    }

    fn beneath(&self, card: Card) -> Beneath {
        let value = get_field(&self.0, card.index(), BITS) as u8;
        if value < FIRST_MARKER {
            Beneath::Card(Card::from_index(value as usize))
        } else {
            Beneath::Marker(value)
        }
    }

    /// The card beneath `card` in its pile: the pile's top once `card` and whatever lies on it
    /// are taken off (`None` when that empties the pile).
    pub fn below(&self, card: Card) -> Option<Card> {
        match self.beneath(card) {
            Beneath::Card(below) => Some(below),
            Beneath::Marker(_) => None,
        }
    }

    /// Lays `card` (alone, or the lowest card of a run) on the pile whose top is `top`, or
    /// as the first card of an empty pile, whose bottom is marked `bottom`.
    pub fn lay(&mut self, card: Card, top: Option<Card>, bottom: u8) {
        match top {
            Some(top) => self.place_on(card, top),
            None => self.mark(card, bottom),
        }
    }

    /// Puts `card` on `below`.
    pub fn place_on(&mut self, card: Card, below: Card) {
        self.set_raw(card.index(), below.index() as u8);
    }

    /// What the link of `card` holds: the index of the card beneath, or the game's marker.
    pub fn value(&self, card: Card) -> u8 {
        get_field(&self.0, card.index(), BITS) as u8
    }

    pub fn mark(&mut self, card: Card, marker: u8) {
        debug_assert!(marker >= FIRST_MARKER);
        self.set_raw(card.index(), marker);
    }

    fn set_raw(&mut self, index: usize, value: u8) {
        set_field(&mut self.0, index, BITS, value as u64);
    }

    /// The cards of the pile whose top is `top`, from the top down.
    pub fn pile(&self, top: Option<Card>) -> impl Iterator<Item = Card> + '_ {
        std::iter::successors(top, |&card| match self.beneath(card) {
            Beneath::Card(below) => Some(below),
            Beneath::Marker(_) => None,
        })
    }

    /// The cards of the pile whose top is `top`, from the bottom up.
    pub fn pile_bottom_up(&self, top: Option<Card>) -> Vec<Card> {
        let mut cards: Vec<Card> = self.pile(top).collect();
        cards.reverse();
        cards
    }

    pub fn words(&self) -> [u64; 5] {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pile_reads_back_from_its_links() {
        let cards: Vec<Card> = [0, 17, 51, 33].into_iter().map(Card::from_index).collect();
        let mut links = Links::all(60);
        links.mark(cards[0], 52);
        for pair in cards.windows(2) {
            links.place_on(pair[1], pair[0]);
        }
        let down: Vec<Card> = links.pile(Some(cards[3])).collect();
        assert_eq!(down, [cards[3], cards[2], cards[1], cards[0]]);
        assert_eq!(links.below(cards[1]), Some(cards[0]));
        assert_eq!(links.below(cards[0]), None);
        assert_eq!(links.beneath(Card::from_index(5)), Beneath::Marker(60));
    }
}
