//! A set of numbers below a known bound (the layered search's in-layer numbers) in a few bytes
//! each: a slot keeps only the bits of a number that its shard and its place do not already say.
//!
//! FreeCell deal 982 (two cells) has layers of hundreds of millions of positions, and 7-byte
//! slots (a number's 56 bits below its shard's) at two-thirds full took 10.7 bytes a number.
//! Here a number is spread by a bijection of its `B` bits (the bound's), the top 8 pick the
//! shard, and the rest, `w`, its home slot `w * slots / 2^(B-8)` (rounded down); a slot keeps
//! `w` less the least `w` of its home ("the remainder", about `B - 8 - log2(slots)` bits) and
//! how far the number lies past its home ("the shift", `SHIFT_BITS`, its zero marking an empty
//! slot). Slots are packed bit to bit. For that deal's layer of rank 48 (54-bit numbers, 278M
//! of them): about 27 + 6 bits a slot.
//!
//! Probing is linear and Robin Hood (a number being placed takes the slot of one nearer its own
//! home, which moves on), so shifts stay small even in a crowded shard; a number that would lie
//! further than a shift can say goes to the shard's overflow, a hash set of whole numbers. A
//! look-up stops at an empty slot or at a number nearer its home than the sought one would be,
//! and looks in the overflow only after a run of slots as long as the longest shift. Growth
//! and the memory budget as for `KeySet` (`fit`).

use crate::table::{fit, prefetch, Fit, Offer, Table};
use ahash::HashSet;

/// The shard: the spread number's top bits.
const SHARD_BITS: u32 = 8;
/// Bits of a slot's shift field: shifts `0..=MAX_SHIFT` stored as `shift + 1`, 0 empty.
const SHIFT_BITS: u32 = 6;
const MAX_SHIFT: u64 = (1 << SHIFT_BITS) - 2;
/// The fewest bits a number is spread over, so that every shard has a range of its own.
const LEAST_BITS: u32 = 16;
/// Up to this many numbers a set holds them whole in one hash set: the shards' own fields take
/// about as much room as that many numbers whole, and the layered search has many small sets.
const SMALL: usize = 1024;
/// Bytes a hash set of numbers takes a place (the number and a control byte).
const WHOLE_BYTES: u64 = 9;

pub struct NumberSet {
    /// `B`: every number is below 2^B.
    bits: u32,
    /// The numbers while they are few (`SMALL`); empty once there are shards.
    few: HashSet<u64>,
    /// None while the numbers are few, then `2^SHARD_BITS`.
    shards: Vec<NumberShard>,
    len: usize,
    bytes: u64,
    /// The longest shift a slot keeps (`MAX_SHIFT`; smaller in tests, to fill the overflow).
    max_shift: u64,
}

struct NumberShard {
    /// The slots, packed, and one word more so a slot can always be read as two words.
    words: Vec<u64>,
    slots: usize,
    /// Bits of a slot's remainder at this many slots.
    remainder_bits: u32,
    len: usize,
    /// Numbers (their `w`) that would lie too far from home; boxed, as most shards have none.
    overflow: Option<Box<HashSet<u64>>>,
}

/// A number's place in the set: its shard and its value within the shard.
#[derive(Clone, Copy)]
struct Place {
    shard: usize,
    within: u64,
}

impl NumberSet {
    /// A set for numbers below `bound`.
    pub fn below(bound: u64) -> Self {
        let bits = (64 - bound.saturating_sub(1).leading_zeros()).max(LEAST_BITS);
        NumberSet {
            bits,
            few: HashSet::default(),
            shards: Vec::new(),
            len: 0,
            bytes: 0,
            max_shift: MAX_SHIFT,
        }
    }

    /// Bits of a shard's value `w`.
    fn within_bits(&self) -> u32 {
        self.bits - SHARD_BITS
    }

    /// A number past the bound would share its place with one below it: never take one.
    fn check_bound(&self, number: u64) {
        assert!(
            self.bits == 64 || number >> self.bits == 0,
            "a number past the bound"
        );
    }

    fn place(&self, number: u64) -> Place {
        self.check_bound(number);
        let spread = spread(number, self.bits);
        let within_bits = self.within_bits();
        Place {
            shard: (spread >> within_bits) as usize,
            within: spread & low_bits(within_bits),
        }
    }

    /// Offers a number to the shards.
    fn offer_to_shards(&mut self, number: u64, room: u64) -> Offer {
        let place = self.place(number);
        let within_bits = self.within_bits();
        let max_shift = self.max_shift;
        let shard = &self.shards[place.shard];
        if let Found::Held = shard.find(place.within, within_bits, max_shift) {
            return Offer::Present;
        }
        let before = shard.bytes();
        match fit(
            shard.len,
            shard.slots,
            self.bytes,
            |s| self.shard_bytes(s),
            room,
        ) {
            // Only an overflow takes the set past its room: then it takes nothing more.
            Fit::Put if self.bytes > room => return Offer::Full,
            Fit::Put => {}
            Fit::Grow(grown) => self.shards[place.shard].grow(grown, within_bits, max_shift),
            Fit::Full => return Offer::Full,
        }
        let shard = &mut self.shards[place.shard];
        shard.insert(place.within, within_bits, max_shift);
        self.bytes = self.bytes + shard.bytes() - before;
        self.len += 1;
        Offer::New
    }

    /// Moves the few numbers held whole into shards.
    fn shard(&mut self) {
        self.shards = (0..1 << SHARD_BITS).map(|_| NumberShard::new()).collect();
        self.bytes = (self.shards.len() * size_of::<NumberShard>()) as u64;
        self.len = 0;
        for number in std::mem::take(&mut self.few) {
            self.offer_to_shards(number, u64::MAX);
        }
    }

    /// Bytes of a shard with this many slots.
    fn shard_bytes(&self, slots: usize) -> u64 {
        let width = remainder_bits(slots, self.within_bits()) + SHIFT_BITS;
        words_for(slots, width) as u64 * 8
    }
}

impl Default for NumberSet {
    /// A set for any 64-bit number.
    fn default() -> Self {
        Self::below(u64::MAX)
    }
}

impl Table for NumberSet {
    type Key = u64;

    fn prefetch(&self, number: &u64) {
        if self.shards.is_empty() {
            return;
        }
        let place = self.place(*number);
        let shard = &self.shards[place.shard];
        if shard.slots > 0 {
            let home = shard.home(place.within, self.within_bits());
            prefetch(&shard.words[shard.bit(home) / 64]);
        }
    }

    fn contains(&self, number: &u64) -> bool {
        let place = self.place(*number);
        if self.shards.is_empty() {
            return self.few.contains(number);
        }
        let shard = &self.shards[place.shard];
        matches!(
            shard.find(place.within, self.within_bits(), self.max_shift),
            Found::Held
        )
    }

    /// As `KeySet` offers a key.
    fn offer(&mut self, number: u64, room: u64) -> Offer {
        if !self.shards.is_empty() {
            return self.offer_to_shards(number, room);
        }
        self.check_bound(number);
        if self.few.contains(&number) {
            return Offer::Present;
        }
        if self.few.len() < SMALL {
            if self.bytes > room {
                return Offer::Full;
            }
            self.few.insert(number);
            self.bytes = self.few.capacity() as u64 * WHOLE_BYTES;
            self.len += 1;
            return Offer::New;
        }
        self.shard();
        self.offer_to_shards(number, room)
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Bytes of the numbers held whole, or of the shards: their fields, slots and overflows.
    fn bytes(&self) -> u64 {
        self.bytes
    }
}

/// What a look-up found.
enum Found {
    Held,
    Absent,
}

impl NumberShard {
    fn new() -> Self {
        NumberShard {
            words: Vec::new(),
            slots: 0,
            remainder_bits: 0,
            len: 0,
            overflow: None,
        }
    }

    fn width(&self) -> u32 {
        self.remainder_bits + SHIFT_BITS
    }

    fn bytes(&self) -> u64 {
        let overflow = self
            .overflow
            .as_ref()
            .map_or(0, |set| set.capacity() as u64);
        (self.words.len() * 8) as u64 + overflow * WHOLE_BYTES
    }

    /// The first bit of slot `slot`.
    fn bit(&self, slot: usize) -> usize {
        slot * self.width() as usize
    }

    /// The home slot of value `within` (of `within_bits` bits).
    fn home(&self, within: u64, within_bits: u32) -> usize {
        ((u128::from(within) * self.slots as u128) >> within_bits) as usize
    }

    /// The least value whose home is `home`.
    fn least(&self, home: usize, within_bits: u32) -> u64 {
        let slots = self.slots as u128;
        ((home as u128) << within_bits).div_ceil(slots) as u64
    }

    /// Slot `slot`'s remainder and shift, or `None` when it is empty.
    fn get(&self, slot: usize) -> Option<(u64, u64)> {
        let bit = self.bit(slot);
        let (word, offset) = (bit / 64, bit % 64);
        let pair = u128::from(self.words[word]) | u128::from(self.words[word + 1]) << 64;
        let field = (pair >> offset) as u64 & low_bits(self.width());
        let shift = field & low_bits(SHIFT_BITS);
        (shift != 0).then(|| (field >> SHIFT_BITS, shift - 1))
    }

    fn set(&mut self, slot: usize, remainder: u64, shift: u64) {
        let field = u128::from(remainder << SHIFT_BITS | (shift + 1));
        let bit = self.bit(slot);
        let (word, offset) = (bit / 64, bit % 64);
        let mask = u128::from(low_bits(self.width())) << offset;
        let mut pair = u128::from(self.words[word]) | u128::from(self.words[word + 1]) << 64;
        pair = (pair & !mask) | field << offset;
        self.words[word] = pair as u64;
        self.words[word + 1] = (pair >> 64) as u64;
    }

    /// Whether `within` is held: along its run of slots from home, then in the overflow.
    fn find(&self, within: u64, within_bits: u32, max_shift: u64) -> Found {
        if self.slots == 0 {
            return Found::Absent;
        }
        let home = self.home(within, within_bits);
        let remainder = within - self.least(home, within_bits);
        let mut slot = home;
        for shift in 0..=max_shift {
            match self.get(slot) {
                None => return Found::Absent,
                // Robin Hood: a number held further on would have taken this slot.
                Some((_, held)) if held < shift => return Found::Absent,
                Some((held, held_shift)) if held_shift == shift && held == remainder => {
                    return Found::Held
                }
                _ => {}
            }
            slot = (slot + 1) % self.slots;
        }
        match &self.overflow {
            Some(overflow) if overflow.contains(&within) => Found::Held,
            _ => Found::Absent,
        }
    }

    /// Places `within`, not held, in a shard with room for it.
    fn insert(&mut self, within: u64, within_bits: u32, max_shift: u64) {
        let home = self.home(within, within_bits);
        let mut remainder = within - self.least(home, within_bits);
        let mut shift = 0;
        let mut slot = home;
        loop {
            match self.get(slot) {
                None => {
                    self.set(slot, remainder, shift);
                    break;
                }
                Some((held, held_shift)) if held_shift < shift => {
                    self.set(slot, remainder, shift);
                    (remainder, shift) = (held, held_shift);
                }
                _ => {}
            }
            slot = (slot + 1) % self.slots;
            shift += 1;
            if shift > max_shift {
                // The number carried lies too far from its home to say so: whole, elsewhere.
                let home = (slot + self.slots - shift as usize % self.slots) % self.slots;
                let value = self.least(home, within_bits) + remainder;
                self.overflow.get_or_insert_default().insert(value);
                break;
            }
        }
        self.len += 1;
    }

    /// Moves the values into `slots` new slots.
    fn grow(&mut self, slots: usize, within_bits: u32, max_shift: u64) {
        let mut held = Vec::with_capacity(self.len);
        for slot in 0..self.slots {
            if let Some((remainder, shift)) = self.get(slot) {
                let home = (slot + self.slots - shift as usize) % self.slots;
                held.push(self.least(home, within_bits) + remainder);
            }
        }
        held.extend(
            self.overflow
                .take()
                .into_iter()
                .flat_map(|set| set.into_iter()),
        );
        self.slots = slots;
        self.remainder_bits = remainder_bits(slots, within_bits);
        self.words = vec![0; words_for(slots, self.width())];
        self.len = 0;
        for within in held {
            self.insert(within, within_bits, max_shift);
        }
    }
}

/// Bits of a remainder in a shard of `slots` slots: the values sharing a home slot number at
/// most 2^within_bits / slots, rounded up.
fn remainder_bits(slots: usize, within_bits: u32) -> u32 {
    let most = (1u128 << within_bits).div_ceil(slots as u128) as u64;
    64 - (most - 1).leading_zeros()
}

/// Words holding `slots` slots of `width` bits, and one more.
fn words_for(slots: usize, width: u32) -> usize {
    (slots * width as usize).div_ceil(64) + 1
}

fn low_bits(bits: u32) -> u64 {
    if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

/// A bijection of the numbers below 2^bits that spreads nearby ones apart (SplitMix64's
/// finaliser taken modulo 2^bits: a shift-xor within the bits, or a multiplication by an odd
/// number modulo 2^bits, can each be undone).
pub(crate) fn spread(number: u64, bits: u32) -> u64 {
    let mask = low_bits(bits);
    let shift = |of: u32| (bits * of / 64).max(1);
    let mut z = number;
    z = (z ^ (z >> shift(30))).wrapping_mul(0xbf58_476d_1ce4_e5b9) & mask;
    z = (z ^ (z >> shift(27))).wrapping_mul(0x94d0_49bb_1331_11eb) & mask;
    z ^ (z >> shift(31))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn spreading_is_a_bijection_of_the_bits() {
        for bits in [16, 17] {
            let spread: std::collections::HashSet<u64> =
                (0..1 << bits).map(|n| super::spread(n, bits)).collect();
            assert_eq!(spread.len(), 1 << bits);
            assert!(spread.iter().all(|&s| s >> bits == 0));
        }
    }

    /// Offers random numbers below `bound` (and the bound's extremes) to a set and to a
    /// `std` set, checking every answer against it; a set in `room` bytes and keeping shifts
    /// up to `max_shift`. Returns the set.
    fn against_std(bound: u64, count: usize, room: u64, max_shift: u64) -> NumberSet {
        let mut set = NumberSet::below(bound);
        set.max_shift = max_shift;
        let mut held = std::collections::HashSet::new();
        let mut rng = ChaCha8Rng::seed_from_u64(bound ^ max_shift);
        let extremes = [0, 1, bound - 1, bound - 2, bound / 2];
        let numbers: Vec<u64> = (0..count)
            .map(|i| match i % 3 {
                0 => rng.gen_range(0..bound),
                // Neighbours and repeats.
                1 => rng.gen_range(0..bound.min(4 * count as u64)),
                _ => extremes[i % extremes.len()],
            })
            .collect();
        for &n in &numbers {
            let answer = set.offer(n, room);
            match answer {
                Offer::New => assert!(held.insert(n), "{n} held twice"),
                Offer::Present => assert!(held.contains(&n), "{n} said held"),
                Offer::Full => assert!(!held.contains(&n), "{n} refused but held"),
            }
            assert_eq!(set.contains(&n), held.contains(&n), "{n}");
            if max_shift == MAX_SHIFT {
                assert!(set.bytes() <= room, "{} bytes in {room}", set.bytes());
            }
        }
        assert_eq!(set.len(), held.len());
        assert!(held.iter().all(|n| set.contains(n)));
        let shards: u64 = set.shards.iter().map(NumberShard::bytes).sum();
        let fields = (set.shards.len() * size_of::<NumberShard>()) as u64;
        let few = set.few.capacity() as u64 * WHOLE_BYTES;
        assert_eq!(set.bytes(), fields + shards + few);
        set
    }

    #[test]
    #[should_panic(expected = "past the bound")]
    fn a_number_past_the_bound_is_refused_loudly() {
        NumberSet::below(1 << 20).contains(&(1 << 20));
    }

    #[test]
    fn holds_each_number_once_whatever_the_bound() {
        for bound in [2, 1000, 1 << 16, (1 << 20) + 7, 1 << 40, 3 << 59, u64::MAX] {
            against_std(bound, 60_000, u64::MAX, MAX_SHIFT);
        }
    }

    #[test]
    fn a_crowded_set_holds_its_numbers_and_then_refuses() {
        let set = against_std(1 << 61, 200_000, 1 << 18, MAX_SHIFT);
        assert!(set.len() < 200_000 / 2, "the room was spent");
        // Crowded shards: 15 in 16 slots taken, so most of the room holds numbers.
        let slots: usize = set.shards.iter().map(|shard| shard.slots).sum();
        assert!(set.len() * 16 > slots * 14, "{} of {slots}", set.len());
    }

    #[test]
    fn numbers_too_far_from_home_go_to_the_overflow_and_are_found_there() {
        for max_shift in [0, 1, 3] {
            let set = against_std(1 << 40, 50_000, u64::MAX, max_shift);
            let overflow: usize = set
                .shards
                .iter()
                .filter_map(|shard| shard.overflow.as_ref().map(|set| set.len()))
                .sum();
            assert!(overflow > 100, "{overflow} in the overflow");
            let crowded = against_std(1 << 40, 50_000, 1 << 16, max_shift);
            assert!(crowded.len() > 1000);
        }
    }

    #[test]
    fn a_slot_keeps_about_the_bits_its_place_does_not_say() {
        let mut set = NumberSet::below(1 << 40);
        for i in 0..1_000_000u64 {
            set.offer(i * 0x9e37_79b9 % (1 << 40), u64::MAX);
        }
        // 256 shards of 4096..8192 slots: 32 - 12 = 20 remainder bits and the shift's 6.
        let widths: Vec<u32> = set.shards.iter().map(NumberShard::width).collect();
        assert!(widths.iter().all(|&w| w <= 26), "{widths:?}");
        // Against 7 bytes a slot, at the same load, before.
        let slots: usize = set.shards.iter().map(|shard| shard.slots).sum();
        assert!(set.bytes() * 2 < slots as u64 * 7, "{} bytes", set.bytes());
        assert!(set.shards.iter().all(|shard| shard.overflow.is_none()));
    }
}
