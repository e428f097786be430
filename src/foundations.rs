//! Foundations built up from a base rank (the ace in most games), wrapping from king to ace,
//! thirteen cards each: one per suit built in suit (`SuitFoundations`), or any number built in
//! alternate colours regardless of suit (`AlternateFoundations`).

use crate::card::{Card, Rank, Suit, KING, PACK};

/// `OFFSETS[base][card]`: how far the card's rank lies above `base` (`offset_above`), looked
/// up rather than worked out with two divisions: the heuristics ask it for every card of
/// every stack of every position searched.
static OFFSETS: [[u8; PACK]; KING as usize + 1] = {
    let mut table = [[0; PACK]; KING as usize + 1];
    let mut base = 1;
    while base <= KING as usize {
        let mut card = 0;
        while card < PACK {
            table[base][card] = ((card % 13) + KING as usize - base + 1) as u8 % KING;
            card += 1;
        }
        base += 1;
    }
    table
};

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
        offset_above(self.base, rank)
    }

    /// How far `card`'s rank lies above the base: `offset(card.rank())`.
    fn card_offset(&self, card: Card) -> u8 {
        OFFSETS[self.base as usize][card.index()]
    }

    /// Whether `card` is the next card its suit's foundation takes.
    pub fn accepts(&self, card: Card) -> bool {
        self.counts[card.suit().index()] == self.card_offset(card)
    }

    pub fn add(&mut self, card: Card) {
        debug_assert!(self.accepts(card));
        self.counts[card.suit().index()] += 1;
    }

    pub fn is_home(&self, card: Card) -> bool {
        self.card_offset(card) < self.counts[card.suit().index()]
    }

    /// Cards on a suit's foundation.
    pub fn count(&self, suit: Suit) -> u8 {
        self.counts[suit.index()]
    }

    /// Takes a suit's top card back into play (Klondike lets a player "worry" it back).
    pub fn take_top(&mut self, suit: Suit) -> Card {
        let card = self.top(suit).expect("a card on the foundation");
        self.counts[suit.index()] -= 1;
        card
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
        inversions(stack.map(|card| self.card_offset(card)), slack)
    }

    /// The inversions `card` makes lying on a run of `beneath` cards, each a rank above the
    /// card over it (with the wrap), for each of `slacks`: General Sedgewick's cross piles,
    /// built down by rank alone, whose offsets climb a step a card from the top, so the count
    /// is arithmetic, not a walk down the pile.
    pub fn inversions_over_run<const N: usize>(
        &self,
        card: Card,
        beneath: usize,
        slacks: [u8; N],
    ) -> [i32; N] {
        let upper = self.card_offset(card) as usize;
        let (cycles, rest) = (beneath / KING as usize, beneath % KING as usize);
        slacks.map(|slack| {
            // The cards beneath lie at offsets upper + 1, upper + 2, ... (mod 13): each full
            // cycle of 13 holds every offset once, so `limit` below the card's less its
            // slack; the last `rest` reach offsets 0.. only past the wrap, at the
            // (13 - upper)-th card on.
            let limit = upper.saturating_sub(slack as usize);
            let partial = (rest + upper).saturating_sub(KING as usize - 1).min(limit);
            (cycles * limit + partial) as i32
        })
    }

    /// The inversions `card` makes lying on a stack whose cards are counted in `beneath`, for
    /// each of `slacks`: those more than that many steps before it (`inversions`).
    pub fn inversions_over_counted<const N: usize>(
        &self,
        card: Card,
        beneath: OffsetCounts,
        slacks: [u8; N],
    ) -> [i32; N] {
        beneath.under(self.card_offset(card), slacks)
    }

    /// A stack's cards counted by their offsets (`OffsetCounts`), with `card` added.
    pub fn count_in(&self, counts: &mut OffsetCounts, card: Card) {
        counts.add(self.card_offset(card));
    }

    /// A stack's cards counted by their offsets, with `card` taken away.
    pub fn count_out(&self, counts: &mut OffsetCounts, card: Card) {
        counts.remove(self.card_offset(card));
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

/// The pairs of a stack's cards (given by their offsets above the base, top card first) where
/// the upper card comes more than `slack` steps later than the one beneath: see
/// `SuitFoundations::inversions`.
pub fn inversions(offsets: impl Iterator<Item = u8>, slack: u8) -> i32 {
    // Byte `o` of `above` counts the cards seen so far at offset `o` (13 bytes; a stack holds
    // at most 104 cards, so no byte and no sum overflows). Multiplying by a one in every byte
    // gathers the sum of the bytes from `later` up into the top byte.
    const ONES: u128 = u128::MAX / 0xff;
    let mut above = 0u128;
    let mut count = 0;
    for offset in offsets {
        let later = offset as u32 + slack as u32 + 1;
        if later < KING as u32 {
            count += ((above >> (8 * later)).wrapping_mul(ONES) >> 120) as i32;
        }
        above += 1 << (8 * offset as u32);
    }
    count
}

/// How many cards of a stack lie at each offset above the base, four bits each (a pack has
/// four cards of an offset; two packs eight), so that the inversions a card makes over a long
/// stack (General Sedgewick's and Terrace's wastes) are counted without walking it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OffsetCounts(u64);

impl OffsetCounts {
    /// Counts one more card at `offset`.
    pub fn add(&mut self, offset: u8) {
        self.0 += 1 << (4 * offset);
    }

    /// Counts one card fewer at `offset`.
    pub fn remove(&mut self, offset: u8) {
        self.0 -= 1 << (4 * offset);
    }

    /// The inversions a card at offset `upper` makes over the cards counted (`inversions`),
    /// for each of `slacks`: those more than that many steps before it.
    pub fn under<const N: usize>(self, upper: u8, slacks: [u8; N]) -> [i32; N] {
        slacks.map(|slack| self.below(upper.saturating_sub(slack)))
    }

    /// The cards at offsets below `limit`.
    fn below(self, limit: u8) -> i32 {
        const NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
        let counted = self.0 & ((1u64 << (4 * u32::from(limit))) - 1);
        // Each byte the sum of two counts (at most 16), then all bytes summed into the top
        // one (at most 104).
        let bytes = (counted & NIBBLES) + (counted >> 4 & NIBBLES);
        (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as i32
    }
}

/// The inversions a card at offset `upper` makes over the cards beneath it (their offsets),
/// for each of `slacks`: those more than that many steps before it (`inversions`), all in one
/// walk down the stack.
pub fn inversions_over<const N: usize>(
    upper: u8,
    beneath: impl Iterator<Item = u8>,
    slacks: [u8; N],
) -> [i32; N] {
    let mut counts = [0; N];
    for lower in beneath {
        for (count, slack) in counts.iter_mut().zip(slacks) {
            *count += i32::from(lower + slack < upper);
        }
    }
    counts
}

/// How far `rank` lies above `base`, counting up with the wrap: the base is 0. (Read off
/// `OFFSETS` at the club of that rank.)
fn offset_above(base: Rank, rank: Rank) -> u8 {
    OFFSETS[base as usize][rank as usize - 1]
}

/// Foundations built up in alternate colours regardless of suit, each started by a card of the
/// base rank in the next empty place (Terrace's eight). Only colour and count matter to what a
/// foundation takes next, so two foundations with equal `state` are interchangeable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AlternateFoundations<const N: usize> {
    /// Each foundation's top card, in the order they were started.
    tops: [Option<Card>; N],
    /// How many foundations the deal holds cards for (13 cards each).
    len: u8,
    base: Rank,
}

impl<const N: usize> AlternateFoundations<N> {
    pub fn new(base: Rank, len: usize) -> Self {
        assert!(len <= N);
        AlternateFoundations {
            tops: [None; N],
            len: len as u8,
            base,
        }
    }

    pub fn base(&self) -> Rank {
        self.base
    }

    /// How many foundations the deal makes (13 cards each).
    pub fn places(&self) -> usize {
        self.len as usize
    }

    /// How far `rank` lies above the base, counting up with the wrap: the base is 0.
    pub fn offset(&self, rank: Rank) -> u8 {
        offset_above(self.base, rank)
    }

    pub fn top(&self, index: usize) -> Option<Card> {
        self.tops[index]
    }

    /// Cards on foundation `index`.
    pub fn count(&self, index: usize) -> u8 {
        self.tops[index].map_or(0, |top| offset_above(self.base, top.rank()) + 1)
    }

    /// What decides the foundation's future: its count and its top card's colour (5 bits).
    pub fn state(&self, index: usize) -> u8 {
        self.count(index) << 1 | self.tops[index].is_some_and(|c| c.is_red()) as u8
    }

    /// Whether foundation `index` takes `card` next: the next rank in the other colour, or a
    /// base card when it is the first empty foundation.
    pub fn accepts(&self, index: usize, card: Card) -> bool {
        match self.tops[index] {
            None => card.rank() == self.base && self.first_empty() == Some(index),
            Some(top) => {
                self.count(index) < KING
                    && offset_above(self.base, card.rank()) == self.count(index)
                    && card.is_red() != top.is_red()
            }
        }
    }

    fn first_empty(&self) -> Option<usize> {
        self.tops[..self.places()].iter().position(Option::is_none)
    }

    /// The foundations that take `card` next.
    pub fn takers(&self, card: Card) -> impl Iterator<Item = usize> + '_ {
        (0..self.places()).filter(move |&i| self.accepts(i, card))
    }

    pub fn add(&mut self, index: usize, card: Card) {
        debug_assert!(self.accepts(index, card));
        self.tops[index] = Some(card);
    }

    pub fn cards_home(&self) -> u32 {
        (0..self.places()).map(|i| self.count(i) as u32).sum()
    }

    pub fn is_complete(&self) -> bool {
        (0..self.places()).all(|i| self.count(i) == KING)
    }

    /// The foundations with their top cards replaced by `representative(top)` and put in order
    /// of `state`: one value for all positions that differ only in suits and foundation order.
    pub fn canonical(&self, representative: impl Fn(Card) -> Card) -> Self {
        let mut canonical = *self;
        let tops = &mut canonical.tops[..self.places()];
        for top in tops.iter_mut() {
            *top = top.map(&representative);
        }
        tops.sort_by_key(|top| top.map(|c| (offset_above(self.base, c.rank()), c.is_red())));
        canonical
    }

    /// The foundations in a line, e.g. `5H 7C -- --` (`--` for one not started).
    pub fn describe(&self) -> String {
        self.tops[..self.places()]
            .iter()
            .map(|top| top.map_or("--".to_string(), |c| c.to_string()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Two foundations per suit built up in suit from the ace (two packs). The two of a suit are
/// interchangeable, so each suit keeps only its higher and lower heights: which copy of a card
/// went to which foundation never matters. A card of rank `r` goes home exactly when a
/// foundation of its suit stands at `r - 1`, a condition on how many of each card are home.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TwinFoundations {
    /// Per suit: the higher and the lower foundation's height (cards on it).
    heights: [[u8; 2]; 4],
}

impl TwinFoundations {
    /// Counts a suit as complete from the start: reduced test deals leave whole suits out.
    pub fn complete_suit(&mut self, suit: Suit) {
        self.heights[suit.index()] = [KING; 2];
    }

    pub fn accepts(&self, card: Card) -> bool {
        self.heights[card.suit().index()].contains(&(card.rank() - 1))
    }

    pub fn add(&mut self, card: Card) {
        debug_assert!(self.accepts(card));
        let [high, low] = &mut self.heights[card.suit().index()];
        if *high == card.rank() - 1 {
            *high += 1;
        } else {
            *low += 1;
        }
    }

    /// How many copies of `card` are home (0, 1 or 2).
    pub fn copies_home(&self, card: Card) -> u8 {
        let [high, low] = self.heights[card.suit().index()];
        u8::from(high >= card.rank()) + u8::from(low >= card.rank())
    }

    /// Both foundations of the suit.
    pub fn heights(&self, suit: Suit) -> [u8; 2] {
        self.heights[suit.index()]
    }

    pub fn cards_home(&self) -> u32 {
        self.heights.iter().flatten().map(|&h| h as u32).sum()
    }

    pub fn is_complete(&self) -> bool {
        self.heights.iter().flatten().all(|&h| h == KING)
    }

    /// The eight tops in a line, the higher of each suit first (`-H` for an empty one).
    pub fn describe(&self) -> String {
        Suit::ALL
            .iter()
            .flat_map(|&suit| self.heights[suit.index()].map(move |h| (suit, h)))
            .map(|(suit, h)| match h {
                0 => format!("-{}", suit.letter()),
                _ => Card::new(suit, h).to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::card;

    /// Counting a stack by offsets gives every card's inversions over it as the walk does,
    /// for a whole pack piled in shuffled orders, under every base.
    #[test]
    fn inversions_over_counted_cards_are_those_over_the_stack() {
        for base in 1..=KING {
            let f = SuitFoundations::new(base);
            let pack = crate::deal::shuffled(u64::from(base), 1);
            let mut counts = OffsetCounts::default();
            for (i, &card) in pack.iter().enumerate() {
                let beneath = pack[..i].iter().rev().map(|c| f.offset(c.rank()));
                assert_eq!(
                    f.inversions_over_counted(card, counts, [0, 2, 4, 12]),
                    inversions_over(f.offset(card.rank()), beneath, [0, 2, 4, 12]),
                    "base {base}, card {i}"
                );
                f.count_in(&mut counts, card);
            }
            for &card in pack.iter().rev() {
                f.count_out(&mut counts, card);
            }
            assert_eq!(counts, OffsetCounts::default());
        }
    }

    /// A card over a run built down by rank (any suits, with the wrap, longer than a cycle)
    /// makes the inversions the walk down the run counts, under every base and slack.
    #[test]
    fn inversions_over_a_run_are_those_over_its_cards() {
        for base in 1..=KING {
            let f = SuitFoundations::new(base);
            for card in (0..PACK).map(Card::from_index) {
                // The run beneath, top first: a rank above the card, then above that, ...
                let offsets = (1..=60).map(|k| f.offset((card.rank() - 1 + k) % KING + 1));
                for beneath in 0..=60 {
                    assert_eq!(
                        f.inversions_over_run(card, beneath, [0, 2, 4, 12]),
                        inversions_over(
                            f.offset(card.rank()),
                            offsets.clone().take(beneath),
                            [0, 2, 4, 12]
                        ),
                        "base {base}, {card}, {beneath} beneath"
                    );
                }
            }
        }
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
    fn looked_up_offsets_agree_with_the_ranks() {
        for base in 1..=KING {
            let f = SuitFoundations::new(base);
            for index in 0..PACK {
                let card = Card::from_index(index);
                let counted_up = (card.rank() + KING - base) % KING;
                assert_eq!(f.card_offset(card), counted_up);
                assert_eq!(offset_above(base, card.rank()), counted_up);
            }
        }
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

    #[test]
    fn packed_inversion_count_agrees_with_counting_every_pair() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..2000 {
            // Up to two packs' worth, as a Terrace or Harp waste may hold.
            let len = rng.gen_range(0..=104);
            let offsets: Vec<u8> = (0..len).map(|_| rng.gen_range(0..KING)).collect();
            let slack = rng.gen_range(0..14u8);
            // Top first: a pair counts when the upper card is more than `slack` steps later.
            let pairs = (0..offsets.len())
                .flat_map(|upper| (upper + 1..offsets.len()).map(move |lower| (upper, lower)))
                .filter(|&(upper, lower)| offsets[upper] > offsets[lower] + slack)
                .count() as i32;
            assert_eq!(
                inversions(offsets.iter().copied(), slack),
                pairs,
                "{offsets:?} {slack}"
            );
        }
    }

    #[test]
    fn alternate_foundations_start_in_order_and_alternate_colours_with_the_wrap() {
        let mut f = AlternateFoundations::<8>::new(12, 3);
        assert!(f.accepts(0, card("QS")) && !f.accepts(1, card("QS")) && !f.accepts(0, card("KH")));
        f.add(0, card("QS"));
        assert!(
            f.accepts(1, card("QD")),
            "the next base card goes to the next place"
        );
        assert!(
            f.accepts(0, card("KH")) && !f.accepts(0, card("KC")),
            "the other colour"
        );
        f.add(0, card("KD"));
        assert!(
            f.accepts(0, card("AC")) && !f.accepts(0, card("2C")),
            "the king wraps to the ace"
        );
        assert_eq!(f.takers(card("AS")).collect::<Vec<_>>(), [0]);
        assert_eq!((f.count(0), f.state(0), f.cards_home()), (2, 5, 2));
        assert_eq!(f.describe(), "KD -- --");
        let mut full = AlternateFoundations::<8>::new(1, 1);
        for (rank, suit) in (1..=13).zip([Suit::SPADES, Suit::HEARTS].into_iter().cycle()) {
            full.add(0, Card::new(suit, rank));
        }
        assert!(full.is_complete() && !full.accepts(0, card("AH")));
    }

    #[test]
    fn twin_foundations_take_a_card_on_either_of_its_suit() {
        let card = |t: &str| Card::parse(t).unwrap();
        let mut twins = TwinFoundations::default();
        assert!(twins.accepts(card("AH")) && !twins.accepts(card("2H")));
        for text in ["AH", "2H", "AH", "3H"] {
            twins.add(card(text));
        }
        assert_eq!(twins.heights(Suit::HEARTS), [3, 1]);
        assert!(
            twins.accepts(card("4H")) && twins.accepts(card("2H")) && !twins.accepts(card("3H"))
        );
        assert_eq!(
            (twins.copies_home(card("AH")), twins.copies_home(card("2H"))),
            (2, 1)
        );
        assert_eq!(twins.cards_home(), 4);
        assert_eq!(twins.describe(), "-C -C -D -D 3H AH -S -S");
    }
}
