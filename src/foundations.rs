//! Four foundations, one per suit, each built up in suit from a base rank (the ace in most
//! games), wrapping from king to ace, thirteen cards each.

use crate::card::{Card, Rank, Suit, KING};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SuitFoundations {
    /// Cards on each suit's foundation.
    counts: [u8; 4],
    base: Rank,
}

impl SuitFoundations {
    pub fn new(base: Rank) -> SuitFoundations {
        SuitFoundations {
            counts: [0; 4],
            base,
        }
    }

    /// Counts a suit as complete from the start: reduced test deals leave whole suits out.
    pub fn complete_suit(&mut self, suit: Suit) {
        self.counts[suit.index()] = KING;
    }

    pub fn base(&self) -> Rank {
        self.base
    }

    /// How far `rank` lies above the base, counting up with the wrap: the base is 0.
    pub fn offset(&self, rank: Rank) -> u8 {
        (rank + KING - self.base) % KING
    }

    /// Whether `card` is the next card its suit's foundation takes.
    pub fn accepts(&self, card: Card) -> bool {
        self.counts[card.suit().index()] == self.offset(card.rank())
    }

    pub fn add(&mut self, card: Card) {
        debug_assert!(self.accepts(card));
        self.counts[card.suit().index()] += 1;
    }

    pub fn is_home(&self, card: Card) -> bool {
        self.offset(card.rank()) < self.counts[card.suit().index()]
    }

    /// The top card of a suit's foundation.
    pub fn top(&self, suit: Suit) -> Option<Card> {
        let count = self.counts[suit.index()];
        (count > 0).then(|| Card::new(suit, (self.base + count - 2) % KING + 1))
    }

    /// How badly a stack will unwind: the pairs of its cards (given top card first) where the
    /// upper card comes more than `slack` steps later in its foundation than the lower one in
    /// its own. Such an upper card cannot go home before the card beneath is needed, so it
    /// must be moved elsewhere first. The games' heuristics count these in their stacks that
    /// are not built in order (a waste, a post, a pile built regardless of suit).
    pub fn inversions(&self, stack: impl Iterator<Item = Card>, slack: u8) -> i32 {
        let mut above = [0i32; KING as usize];
        let mut count = 0;
        for card in stack {
            let offset = self.offset(card.rank()) as usize;
            let later = (offset + slack as usize + 1).min(KING as usize);
            count += above[later..].iter().sum::<i32>();
            above[offset] += 1;
        }
        count
    }

    pub fn cards_home(&self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum()
    }

    pub fn is_complete(&self) -> bool {
        self.counts.iter().all(|&c| c == KING)
    }

    /// The foundations in a line, e.g. `AC 5D -H -S` (a suit not started shows as `-`).
    pub fn describe(&self) -> String {
        Suit::ALL
            .iter()
            .map(|&suit| {
                self.top(suit)
                    .map_or(format!("-{}", suit.letter()), |c| c.to_string())
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> Card {
        Card::parse(text).unwrap()
    }

    #[test]
    fn foundations_wrap_from_king_to_ace_above_their_base() {
        let mut f = SuitFoundations::new(5);
        assert!(f.accepts(card("5H")) && !f.accepts(card("4H")) && !f.accepts(card("AH")));
        for rank in [5, 6, 7, 8, 9, 10, 11, 12, 13] {
            f.add(Card::new(Suit::HEARTS, rank));
        }
        assert!(f.accepts(card("AH")) && f.is_home(card("KH")) && !f.is_home(card("AH")));
        for rank in 1..=4 {
            f.add(Card::new(Suit::HEARTS, rank));
        }
        assert_eq!(f.top(Suit::HEARTS), Some(card("4H")));
        assert!(
            !f.accepts(card("5H")),
            "a complete foundation takes nothing"
        );
        assert_eq!(f.describe(), "-C -D 4H -S");
        assert_eq!(SuitFoundations::new(1).top(Suit::CLUBS), None);
    }

    #[test]
    fn inversions_count_later_cards_lying_above_earlier_ones() {
        let aces_up = SuitFoundations::new(1);
        let stack = |text: &str| text.split(' ').map(card).collect::<Vec<_>>().into_iter();
        // Top first: the 9S over the AH comes 8 steps later, over the 2C 7 steps later.
        assert_eq!(aces_up.inversions(stack("9S 2C AH"), 4), 2);
        assert_eq!(aces_up.inversions(stack("AH 2C 9S"), 4), 0);
        assert_eq!(aces_up.inversions(stack("9S 2C AH"), 0), 3);
        // From base 9, the ace is the sixth step: an ace over a 9 counts, a 9 over an ace not.
        let nines_up = SuitFoundations::new(9);
        assert_eq!(nines_up.inversions(stack("AS 9D"), 4), 1);
        assert_eq!(nines_up.inversions(stack("9D AS"), 4), 0);
    }
}
