//! Where deals come from: a seeded shuffle, a Microsoft FreeCell deal number, or written cards.
//!
//! A deal is the order in which cards come off the pack; each game's setup takes them from the
//! front. Both generators are specified exactly (README, "Deals") so that anyone can regenerate
//! a deal without this program, and tests pin their output.

use crate::card::{fresh_packs, Card, Suit};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Names a deal the way the JSON contract does: `{"seed": N}`, `{"ms": N}` or `{"cards": "..."}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DealId {
    Seed(u64),
    Ms(u64),
    Cards(String),
}

impl DealId {
    /// The deal's cards for a game of `packs` packs.
    pub fn cards(&self, packs: usize) -> Result<Vec<Card>, String> {
        match self {
            DealId::Seed(seed) => Ok(shuffled(*seed, packs)),
            DealId::Ms(number) => {
                if packs != 1 {
                    return Err(format!(
                        "Microsoft deal numbers give one pack, but this game uses {packs}; use --seed or --deal"
                    ));
                }
                microsoft(*number)
            }
            DealId::Cards(text) => crate::card::parse_deal(text, packs).map_err(|e| e.to_string()),
        }
    }

    /// The deal number of a numbered deal (for ranges and ordering in batches).
    pub fn number(&self) -> Option<u64> {
        match self {
            DealId::Seed(n) | DealId::Ms(n) => Some(*n),
            DealId::Cards(_) => None,
        }
    }
}

impl fmt::Display for DealId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealId::Seed(n) => write!(f, "seed {n}"),
            DealId::Ms(n) => write!(f, "Microsoft deal {n}"),
            DealId::Cards(_) => write!(f, "written deal"),
        }
    }
}

/// The seeded shuffle: ChaCha8 keyed by the seed, then Fisher–Yates from the top.
///
/// Exactly: the 32-byte ChaCha key is the seed as 8 little-endian bytes followed by 24 zero
/// bytes; nonce (stream) 0, block counter from 0, 8 rounds; the keystream is read as
/// little-endian 32-bit words in order. Start from `fresh_packs(packs)`. For `i` from `n - 1`
/// down to 1: let `bound = i + 1`; draw words `x` until `x < 2^32 - (2^32 mod bound)`; swap
/// positions `i` and `x mod bound`. The result, from position 0, is the dealing order.
pub fn shuffled(seed: u64, packs: usize) -> Vec<Card> {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    let mut rng = ChaCha8Rng::from_seed(key);
    let mut cards = fresh_packs(packs);
    for i in (1..cards.len()).rev() {
        let bound = i as u64 + 1;
        let zone = (1u64 << 32) - (1u64 << 32) % bound;
        let x = loop {
            let x = rng.next_u32() as u64;
            if x < zone {
                break x;
            }
        };
        cards.swap(i, (x % bound) as usize);
    }
    cards
}

/// The highest Microsoft deal number the generator accepts (its LCG state has 31 bits).
pub const MS_MAX: u64 = (1 << 31) - 1;

/// Microsoft FreeCell deal `number`, in dealing order (card `i` goes to column `i mod 8`).
///
/// The public generator: `state = state * 214013 + 2531011 (mod 2^31)` seeded with the deal
/// number, each draw `(state >> 16) & 0x7fff`; cards 0..51 are `rank * 4 + suit` (ranks A..K,
/// suits clubs, diamonds, hearts, spades). For each of 52 deals, `j = draw mod left`, deal
/// `deck[j]`, then `deck[j] = deck[left - 1]` and `left -= 1`.
pub fn microsoft(number: u64) -> Result<Vec<Card>, String> {
    if !(1..=MS_MAX).contains(&number) {
        return Err(format!(
            "Microsoft deal numbers run from 1 to {MS_MAX}; {number} is outside"
        ));
    }
    let mut state = number as u32;
    let mut deck: Vec<u32> = (0..52).collect();
    let mut dealt = Vec::with_capacity(52);
    for left in (1..=52usize).rev() {
        state = state.wrapping_mul(214013).wrapping_add(2531011) & 0x7fff_ffff;
        let draw = (state >> 16) & 0x7fff;
        let j = draw as usize % left;
        let ms = deck[j];
        dealt.push(Card::new(Suit::ALL[(ms % 4) as usize], (ms / 4 + 1) as u8));
        deck[j] = deck[left - 1];
    }
    Ok(dealt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::format_cards;

    #[test]
    fn microsoft_deal_one_matches_the_published_layout() {
        let cards = microsoft(1).unwrap();
        assert_eq!(format_cards(&cards[..8]), "JD 2D 9H JC 5D 7H 7C 5H");
        assert_eq!(format_cards(&cards[48..]), "6S 9C 2H 6H");
    }

    #[test]
    fn microsoft_deal_617_matches_the_published_layout() {
        let cards = microsoft(617).unwrap();
        assert_eq!(format_cards(&cards[..8]), "7D AD 5C 3S 5S 8C 2D AH");
    }

    #[test]
    fn microsoft_range_is_checked() {
        assert!(microsoft(0).is_err());
        assert!(microsoft(MS_MAX).is_ok());
        assert!(microsoft(MS_MAX + 1).is_err());
    }

    #[test]
    fn seeded_shuffle_is_pinned() {
        // These strings are the contract: a change here breaks every published result.
        assert_eq!(format_cards(&shuffled(0, 1)[..8]), PINNED_SEED_0);
        assert_eq!(format_cards(&shuffled(1, 1)[..8]), PINNED_SEED_1);
        assert_eq!(
            format_cards(&shuffled(u64::MAX, 2)[..8]),
            PINNED_SEED_MAX_TWO_PACKS
        );
    }

    #[test]
    fn seeded_shuffle_is_a_permutation() {
        let mut cards = shuffled(42, 2);
        cards.sort();
        let mut fresh = fresh_packs(2);
        fresh.sort();
        assert_eq!(cards, fresh);
    }

    const PINNED_SEED_0: &str = "3S 9D 5C QH QC AS KD 8H";
    const PINNED_SEED_1: &str = "JC 8D 6S 5D 7H AC JD 9C";
    const PINNED_SEED_MAX_TWO_PACKS: &str = "3D 7H KC 3H 5C QD QH 9D";
}
