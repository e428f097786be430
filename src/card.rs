//! Cards, suits, colours and the text notation `AS 2H TD QC`.
//!
//! A card is one byte: `suit * 13 + (rank - 1)`, suits in the order clubs, diamonds, hearts,
//! spades. Two-pack games hold each card twice; the two copies are the same `Card` value, which
//! is exactly what makes them interchangeable in every state key.

use std::fmt;

/// Number of distinct cards in a pack.
pub const PACK: usize = 52;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Suit(u8);

impl Suit {
    pub const CLUBS: Suit = Suit(0);
    pub const DIAMONDS: Suit = Suit(1);
    pub const HEARTS: Suit = Suit(2);
    pub const SPADES: Suit = Suit(3);
    pub const ALL: [Suit; 4] = [Suit::CLUBS, Suit::DIAMONDS, Suit::HEARTS, Suit::SPADES];

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn is_red(self) -> bool {
        self == Suit::DIAMONDS || self == Suit::HEARTS
    }

    pub fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self.index()]
    }

    fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::CLUBS),
            'D' => Some(Suit::DIAMONDS),
            'H' => Some(Suit::HEARTS),
            'S' => Some(Suit::SPADES),
            _ => None,
        }
    }
}

/// Ranks run 1 (ace) to 13 (king).
pub type Rank = u8;
pub const ACE: Rank = 1;
pub const KING: Rank = 13;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Card(u8);

/// Each card's rank by its index, read where a division by 13 would be: ranks are read in
/// every move of every game. 256 entries, so that no index needs a bounds check.
const RANKS: [Rank; 256] = {
    let mut ranks = [0; 256];
    let mut index = 0;
    while index < 256 {
        ranks[index] = (index % 13) as Rank + 1;
        index += 1;
    }
    ranks
};

impl Card {
    pub fn new(suit: Suit, rank: Rank) -> Card {
        debug_assert!((ACE..=KING).contains(&rank));
        Card(suit.0 * 13 + rank - 1)
    }

    /// The card with index `0..52` (clubs A..K, diamonds A..K, hearts A..K, spades A..K).
    pub const fn from_index(index: usize) -> Card {
        debug_assert!(index < PACK);
        Card(index as u8)
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn suit(self) -> Suit {
        Suit(self.0 / 13)
    }

    pub fn rank(self) -> Rank {
        RANKS[self.0 as usize]
    }

    /// A diamond or a heart: the indices 13 to 38.
    pub fn is_red(self) -> bool {
        self.0.wrapping_sub(13) < 26
    }

    /// True when `self` may be built on `base` going down in alternate colours.
    pub fn goes_down_alternate_on(self, base: Card) -> bool {
        self.alternate_base() == base.rank_colour()
    }

    /// Rank and colour in one number (twice the rank, one more if red), to compare with
    /// `alternate_base`.
    pub fn rank_colour(self) -> u8 {
        self.rank() << 1 | u8::from(self.is_red())
    }

    /// The `rank_colour` of the cards `self` goes on, building down in alternate colours
    /// (none for a king): worked out once, a card is matched against many bases by one
    /// comparison each.
    pub fn alternate_base(self) -> u8 {
        (self.rank() + 1) << 1 | u8::from(!self.is_red())
    }

    /// Parses one token: a rank (`A 2..9 T 10 J Q K`) then a suit (`C D H S`), any case.
    pub fn parse(token: &str) -> Option<Card> {
        let mut chars = token.chars();
        let suit = Suit::from_letter(chars.next_back()?)?;
        let rank = match chars.as_str().to_ascii_uppercase().as_str() {
            "A" => 1,
            "T" | "10" => 10,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            digit if digit.len() == 1 => match digit.as_bytes()[0] {
                b @ b'2'..=b'9' => b - b'0',
                _ => return None,
            },
            _ => return None,
        };
        Some(Card::new(suit, rank))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const RANKS: &[u8; 13] = b"A23456789TJQK";
        write!(
            f,
            "{}{}",
            RANKS[self.rank() as usize - 1] as char,
            self.suit().letter()
        )
    }
}

/// The unshuffled order of `packs` packs: for each pack, clubs A..K, diamonds, hearts, spades.
pub fn fresh_packs(packs: usize) -> Vec<Card> {
    (0..packs)
        .flat_map(|_| (0..PACK).map(Card::from_index))
        .collect()
}

/// The suits a one-pack deal holds, checking that it holds each of them whole and no card
/// twice. The command line always deals a full pack; tests deal reduced packs of whole suits.
pub fn whole_suits(order: &[Card]) -> Result<[bool; 4], String> {
    whole_suits_of_packs(order, 1)
}

/// The suits a deal of `packs` packs holds, checking that it holds every card of each of them
/// exactly `packs` times (and so no card more often than the packs hold).
pub fn whole_suits_of_packs(order: &[Card], packs: usize) -> Result<[bool; 4], String> {
    let mut copies = [0usize; PACK];
    for &card in order {
        copies[card.index()] += 1;
        if copies[card.index()] > packs {
            return Err(match packs {
                1 => format!("{card} is dealt twice"),
                _ => format!("{card} is dealt more than {packs} times"),
            });
        }
    }
    let mut present = [false; 4];
    for suit in Suit::ALL {
        let held: usize = (ACE..=KING)
            .map(|r| copies[Card::new(suit, r).index()])
            .sum();
        if held != 0 && held != KING as usize * packs {
            return Err(format!(
                "a deal must hold whole suits, {packs} of each card ({} cards for a full \
                 game), but it has {held} {} cards of {}",
                PACK * packs,
                suit.letter(),
                order.len()
            ));
        }
        present[suit.index()] = held != 0;
    }
    Ok(present)
}

/// A rank as cards write it (`A`, `2`..`9`, `T`, `J`, `Q`, `K`).
pub fn rank_text(rank: Rank) -> String {
    let text = Card::new(Suit::CLUBS, rank).to_string();
    text.trim_end_matches('C').to_string()
}

/// Writes a pile or stack of cards for a layout: space-separated, or `--` when empty.
pub fn format_stack(cards: &[Card]) -> String {
    if cards.is_empty() {
        "--".to_string()
    } else {
        format_cards(cards)
    }
}

/// Writes cards as space-separated tokens.
pub fn format_cards(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why a written deal was refused; every message names the token and its 1-based position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DealParseError {
    UnknownToken {
        position: usize,
        token: String,
    },
    TooManyCopies {
        position: usize,
        token: String,
        packs: usize,
    },
    WrongCount {
        found: usize,
        expected: usize,
    },
}

impl fmt::Display for DealParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealParseError::UnknownToken { position, token } => write!(
                f,
                "card {position} of the deal, '{token}', is not a card (write rank then suit, e.g. AS 10H TD QC)"
            ),
            DealParseError::TooManyCopies { position, token, packs } => write!(
                f,
                "card {position} of the deal, '{token}', appears more often than {packs} pack{} hold{}",
                if *packs == 1 { "" } else { "s" },
                if *packs == 1 { "s" } else { "" }
            ),
            DealParseError::WrongCount { found, expected } => write!(
                f,
                "the deal has {found} cards but this game deals {expected} (every card of the pack{} once{})",
                if *expected > PACK { "s" } else { "" },
                if *expected > PACK { " per pack" } else { "" }
            ),
        }
    }
}

/// Parses a deal: the cards in dealing order, separated by whitespace or commas; `#` starts
/// a comment that runs to the end of its line.
pub fn parse_deal(text: &str, packs: usize) -> Result<Vec<Card>, DealParseError> {
    let mut copies = [0usize; PACK];
    let mut cards = Vec::with_capacity(packs * PACK);
    let tokens = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .flat_map(|line| line.split(|c: char| c.is_whitespace() || c == ','))
        .filter(|t| !t.is_empty());
    for (i, token) in tokens.enumerate() {
        let position = i + 1;
        let card = Card::parse(token).ok_or_else(|| DealParseError::UnknownToken {
            position,
            token: token.to_string(),
        })?;
        copies[card.index()] += 1;
        if copies[card.index()] > packs {
            return Err(DealParseError::TooManyCopies {
                position,
                token: token.to_string(),
                packs,
            });
        }
        cards.push(card);
    }
    if cards.len() != packs * PACK {
        return Err(DealParseError::WrongCount {
            found: cards.len(),
            expected: packs * PACK,
        });
    }
    Ok(cards)
}

/// The card a unit test names (`"7D"`).
#[cfg(test)]
pub(crate) fn card(text: &str) -> Card {
    Card::parse(text).expect("a card's name")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_colours_read_fast_are_the_suits_and_ranks() {
        for suit in Suit::ALL {
            for rank in ACE..=KING {
                let card = Card::new(suit, rank);
                assert_eq!((card.rank(), card.suit()), (rank, suit));
                assert_eq!(card.is_red(), suit.is_red(), "{card}");
                let base = card.alternate_base();
                assert_eq!(base >> 1, rank + 1);
                assert_eq!(base & 1 == 1, !suit.is_red());
            }
        }
    }

    #[test]
    fn notation_round_trips_and_accepts_ten_and_any_case() {
        for card in fresh_packs(1) {
            assert_eq!(Card::parse(&card.to_string()), Some(card));
        }
        assert_eq!(Card::parse("10h"), Card::parse("TH"));
        assert_eq!(Card::parse("qc").unwrap().to_string(), "QC");
        for bad in ["", "1S", "11S", "AX", "A", "S", "KSS"] {
            assert_eq!(Card::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn colours_and_building() {
        let (nine_h, ten_s, ten_d) = (
            Card::parse("9H").unwrap(),
            Card::parse("TS").unwrap(),
            Card::parse("TD").unwrap(),
        );
        assert!(nine_h.goes_down_alternate_on(ten_s));
        assert!(!nine_h.goes_down_alternate_on(ten_d));
        assert!(!ten_s.goes_down_alternate_on(nine_h));
    }

    #[test]
    fn deal_parsing_names_the_bad_token() {
        let mut text = format_cards(&fresh_packs(1));
        assert_eq!(parse_deal(&text, 1).unwrap(), fresh_packs(1));
        assert_eq!(
            parse_deal(&text, 2),
            Err(DealParseError::WrongCount {
                found: 52,
                expected: 104
            })
        );
        text = text.replacen("5C", "ZZ", 1);
        assert_eq!(
            parse_deal(&text, 1),
            Err(DealParseError::UnknownToken {
                position: 5,
                token: "ZZ".into()
            })
        );
        let dup = format_cards(&fresh_packs(1)).replacen("2C", "AC", 1);
        assert_eq!(
            parse_deal(&dup, 1),
            Err(DealParseError::TooManyCopies {
                position: 2,
                token: "AC".into(),
                packs: 1
            })
        );
        let commented = format!("# a deal\n{}  # all of it\n", format_cards(&fresh_packs(1)));
        assert_eq!(parse_deal(&commented, 1).unwrap(), fresh_packs(1));
        let commas = format_cards(&fresh_packs(2)).replace(' ', ",");
        assert_eq!(parse_deal(&commas, 2).unwrap().len(), 104);
    }
}
