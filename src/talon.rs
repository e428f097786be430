//! The stock and its waste. Cards reach the waste only from the stock, in stock order, and
//! leave either pile only from its top, so together they are always a subsequence of the
//! stock as dealt: one row of cards in stock order, a bit for each card still there, and the
//! index where the stock begins (those before it are the waste). Turning the waste over to
//! deal again keeps that order, so a redeal is just a move of that index back to 0. The rarer
//! changes of order (cards put under the stock, the waste's bottom cards made a new stock)
//! rebuild the row.

use crate::bits::{Bits128, Ones};
use crate::card::{format_stack, Card};

/// The most cards a talon holds (two packs less the smallest layout).
const MAX: usize = 128;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Talon<const N: usize> {
    /// The stock as dealt, its next card first.
    cards: [Card; N],
    /// Bit `i`: card `i` is still in the stock or the waste.
    present: Bits128,
    /// Present cards at indices below this are the waste (its top the highest); the rest are
    /// the stock (its next card the lowest). Always one above the waste's top card, or 0.
    split: u8,
}

impl<const N: usize> Talon<N> {
    /// A full stock of `stock` (next card first), empty waste.
    pub fn new(stock: &[Card]) -> Talon<N> {
        assert!(
            N <= MAX && stock.len() <= N,
            "a talon holds at most {N} cards"
        );
        let mut cards = [Card::from_index(0); N];
        cards[..stock.len()].copy_from_slice(stock);
        Talon {
            cards,
            present: Bits128::from(low_bits(stock.len())),
            split: 0,
        }
    }

    fn stock_bits(&self) -> u128 {
        self.present.get() & !low_bits(self.split as usize)
    }

    fn waste_bits(&self) -> u128 {
        self.present.get() & low_bits(self.split as usize)
    }

    /// The next card of the stock.
    pub fn stock_top(&self) -> Option<Card> {
        let bits = self.stock_bits();
        (bits != 0).then(|| self.cards[bits.trailing_zeros() as usize])
    }

    /// The top card of the waste.
    pub fn waste_top(&self) -> Option<Card> {
        let bits = self.waste_bits();
        (bits != 0).then(|| self.cards[127 - bits.leading_zeros() as usize])
    }

    pub fn stock_len(&self) -> usize {
        self.stock_bits().count_ones() as usize
    }

    pub fn waste_len(&self) -> usize {
        self.waste_bits().count_ones() as usize
    }

    /// Turns the next stock card onto the waste.
    pub fn deal_to_waste(&mut self) -> Card {
        let bits = self.stock_bits();
        assert!(bits != 0, "deal from an empty stock");
        let index = bits.trailing_zeros();
        self.split = index as u8 + 1;
        self.cards[index as usize]
    }

    /// Turns the next `count` stock cards onto the waste, as `count` single turns would (a
    /// search move that deals on to the card it plays).
    pub fn deal_several(&mut self, count: usize) {
        if count == 0 {
            return;
        }
        let mut bits = self.stock_bits();
        for _ in 1..count {
            bits &= bits.wrapping_sub(1);
        }
        assert!(
            bits != 0,
            "deal {count} from a stock of {}",
            self.stock_len()
        );
        self.split = bits.trailing_zeros() as u8 + 1;
    }

    /// Takes the next stock card away (to the layout or a foundation).
    pub fn take_stock_top(&mut self) -> Card {
        let bits = self.stock_bits();
        assert!(bits != 0, "take from an empty stock");
        let index = bits.trailing_zeros();
        self.present.set(self.present.get() & !(1u128 << index));
        self.cards[index as usize]
    }

    /// Takes the waste's top card away.
    pub fn take_waste_top(&mut self) -> Card {
        let bits = self.waste_bits();
        assert!(bits != 0, "take from an empty waste");
        let index = 127 - bits.leading_zeros();
        self.present.set(self.present.get() & !(1u128 << index));
        // Keep the split just above the waste's new top (0 when it is empty), so that equal
        // stocks and wastes are equal values however they were reached.
        let rest = self.waste_bits();
        self.split = if rest == 0 {
            0
        } else {
            128 - rest.leading_zeros() as u8
        };
        self.cards[index as usize]
    }

    /// The talon's cards in the order a fresh pass meets them: the waste from its bottom, then
    /// the stock from its next card.
    pub fn in_order(&self) -> impl Iterator<Item = Card> + '_ {
        self.waste().chain(self.stock())
    }

    /// Takes away `card` (the first of it in `in_order`), leaving the cards before it as the
    /// waste and those after it as the stock: where the talon stands when a player deals on
    /// (turning the waste over when the stock runs out) until that card is the waste's top,
    /// and plays it. Playing the same card by any way of dealing leaves the same talon.
    pub fn take(&mut self, card: Card) -> Card {
        // The pass meets the row's present cards in index order: the waste's below the split
        // from its bottom up, then the stock's from its next card.
        let index = Ones(self.present.get())
            .find(|&i| self.cards[i] == card)
            .unwrap_or_else(|| panic!("{card} is not in the talon"));
        self.split = index as u8 + 1;
        self.take_waste_top()
    }

    /// Turns the waste over to be dealt again in the same order; the stock must be empty.
    pub fn turn_over(&mut self) {
        assert_eq!(self.stock_len(), 0, "the stock is not empty");
        self.split = 0;
    }

    /// Puts `cards` under the stock, the first of them to be dealt first.
    pub fn put_under_stock(&mut self, cards: &[Card]) {
        let waste = self.waste_len();
        let mut row = Row::<N>::new();
        self.waste().chain(self.stock()).for_each(|c| row.push(c));
        cards.iter().for_each(|&c| row.push(c));
        *self = row.talon(waste);
    }

    /// Makes the waste's bottom `count` cards (all of it if it holds fewer) the stock, dealt
    /// from the bottom card up; the stock must be empty.
    pub fn restock_from_waste_bottom(&mut self, count: usize) {
        assert_eq!(self.stock_len(), 0, "the stock is not empty");
        let count = count.min(self.waste_len());
        let mut row = Row::<N>::new();
        self.waste().skip(count).for_each(|c| row.push(c));
        self.waste().take(count).for_each(|c| row.push(c));
        *self = row.talon(self.waste_len() - count);
    }

    /// The same stock and waste with no gaps in the row: equal stocks and wastes give equal
    /// values, however they were reached.
    pub fn compacted(&self) -> Talon<N> {
        let mut talon = *self;
        talon.put_under_stock(&[]);
        talon
    }

    /// Which cards are still there and where the stock begins: with the stock as dealt fixed,
    /// this pair identifies the stock and the waste (a game's key packs it).
    pub fn state(&self) -> (u128, u8) {
        (self.present.get(), self.split)
    }

    /// The waste and the stock as two lines of a layout.
    pub fn describe(&self) -> String {
        let waste: Vec<Card> = self.waste().collect();
        let next = self
            .stock_top()
            .map_or(String::new(), |card| format!(", next {card}"));
        format!(
            "waste (top last): {}\nstock: {} cards{next}\n",
            format_stack(&waste),
            self.stock_len()
        )
    }

    /// The waste, bottom card first (`.rev()` for top first).
    pub fn waste(&self) -> impl DoubleEndedIterator<Item = Card> + '_ {
        Ones(self.waste_bits()).map(|i| self.cards[i])
    }

    /// The stock, next card first.
    pub fn stock(&self) -> impl Iterator<Item = Card> + '_ {
        Ones(self.stock_bits()).map(|i| self.cards[i])
    }
}

/// A row being rebuilt, on the stack.
struct Row<const N: usize> {
    cards: [Card; N],
    len: usize,
}

impl<const N: usize> Row<N> {
    fn new() -> Self {
        Row {
            cards: [Card::from_index(0); N],
            len: 0,
        }
    }

    fn push(&mut self, card: Card) {
        self.cards[self.len] = card;
        self.len += 1;
    }

    /// The talon whose first `waste` cards are the waste and the rest the stock.
    fn talon(&self, waste: usize) -> Talon<N> {
        let mut talon = Talon::new(&self.cards[..self.len]);
        talon.split = waste as u8;
        talon
    }
}

fn low_bits(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace()
            .map(|t| Card::parse(t).unwrap())
            .collect()
    }

    #[test]
    fn stock_and_waste_keep_their_order() {
        let mut talon = Talon::<8>::new(&cards("AS 2S 3S 4S 5S"));
        assert_eq!(talon.stock_top(), Card::parse("AS"));
        assert_eq!(talon.waste_top(), None);
        talon.deal_to_waste();
        talon.deal_to_waste();
        assert_eq!(talon.waste_top(), Card::parse("2S"));
        assert_eq!(talon.take_stock_top(), Card::parse("3S").unwrap());
        assert_eq!(talon.take_waste_top(), Card::parse("2S").unwrap());
        talon.deal_to_waste();
        assert_eq!(talon.waste().collect::<Vec<_>>(), cards("AS 4S"));
        assert_eq!(talon.stock().collect::<Vec<_>>(), cards("5S"));
        assert_eq!((talon.stock_len(), talon.waste_len()), (1, 2));
        talon.deal_to_waste();
        assert_eq!(talon.stock_top(), None);
        assert_eq!(talon.waste_top(), Card::parse("5S"));
    }

    #[test]
    fn several_cards_dealt_at_once_are_as_many_single_deals() {
        let mut talon = Talon::<8>::new(&cards("AS 2S 3S 4S 5S 6S"));
        talon.deal_to_waste();
        talon.take_stock_top();
        for count in 0..=4 {
            let mut one_by_one = talon;
            (0..count).for_each(|_| {
                one_by_one.deal_to_waste();
            });
            let mut at_once = talon;
            at_once.deal_several(count);
            assert_eq!(at_once, one_by_one, "{count} cards");
        }
    }

    #[test]
    fn cards_put_under_the_stock_and_a_restock_from_the_waste_keep_their_order() {
        let mut talon = Talon::<8>::new(&cards("AS 2S 3S"));
        talon.deal_to_waste();
        talon.take_stock_top();
        talon.put_under_stock(&cards("QH JH"));
        assert_eq!(talon.waste().collect::<Vec<_>>(), cards("AS"));
        assert_eq!(talon.stock().collect::<Vec<_>>(), cards("3S QH JH"));
        for _ in 0..3 {
            talon.deal_to_waste();
        }
        talon.restock_from_waste_bottom(2);
        assert_eq!(talon.waste().collect::<Vec<_>>(), cards("QH JH"));
        assert_eq!(talon.stock().collect::<Vec<_>>(), cards("AS 3S"));
        assert_eq!(talon.stock_top(), Card::parse("AS"));
        assert_eq!(talon.waste_top(), Card::parse("JH"));
        talon.deal_to_waste();
        talon.deal_to_waste();
        // More than the waste holds: all of it.
        talon.restock_from_waste_bottom(9);
        assert_eq!(talon.stock().collect::<Vec<_>>(), cards("QH JH AS 3S"));
        assert_eq!(talon.waste_len(), 0);
    }

    #[test]
    fn a_card_played_from_the_stock_or_turned_and_played_from_the_waste_leaves_one_value() {
        let mut direct = Talon::<8>::new(&cards("AS 2S 3S 4S"));
        direct.deal_to_waste();
        let mut turned = direct;
        direct.take_stock_top();
        turned.deal_to_waste();
        turned.take_waste_top();
        assert_eq!(direct, turned);
    }

    #[test]
    fn taking_a_card_from_the_pass_is_dealing_on_to_it_and_playing_it() {
        let mut dealt = Talon::<8>::new(&cards("AS 2S 3S 4S 5S 6S"));
        dealt.deal_to_waste();
        dealt.deal_to_waste();
        dealt.take_waste_top();
        // Waste AS, stock 3S 4S 5S 6S: the 5S is the fourth card of the pass.
        assert_eq!(
            dealt.in_order().collect::<Vec<_>>(),
            cards("AS 3S 4S 5S 6S")
        );
        let mut taken = dealt;
        assert_eq!(
            taken.take(Card::parse("5S").unwrap()),
            Card::parse("5S").unwrap()
        );
        for _ in 0..3 {
            dealt.deal_to_waste();
        }
        dealt.take_waste_top();
        assert_eq!(taken, dealt);
        // The first card of the pass leaves the waste empty.
        let mut first = Talon::<8>::new(&cards("AS 2S"));
        first.take(Card::parse("AS").unwrap());
        assert_eq!(
            (first.waste_len(), first.stock().collect::<Vec<_>>()),
            (0, cards("2S"))
        );
    }
}
