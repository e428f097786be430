//! The transposition table: a set of positions' keys, grown within a memory budget.
//!
//! A table that grows by doubling holds its old slots and twice as many new ones while it
//! grows, so a table of 13 GiB cannot grow on a 24 GiB machine; and the standard tables all
//! fill and double at the same moments, so one split into shards stopped FreeCell deal 982
//! (two cells) once 52 of 64 shards had doubled and the next could not. Here the keys are
//! spread by hash over `SHARDS` open-addressing tables (linear probing, a control byte per
//! slot), each growing on its own: it doubles while the set stays within half its budget, and
//! beyond that grows by a quarter (a growth then holds a 64th of the set 2.25 times), and a
//! shard that may not grow within the budget goes on filling, more crowded, up to `CROWDED`
//! of its slots. So the set stops only when the budget is spent, keeping 65-81% of its slots
//! in use while it grows by quarters (about 26-32 bytes per entry for 21-byte slots; 40-81%
//! while it doubles). Doubling moves each key about once as the set grows, growing by
//! quarters about four times: a quarter of the Harp's time went to moving keys.
//!
//! `NumberSet` (its own module) holds the layered search's in-layer numbers in fewer bytes.

use ahash::RandomState;
use std::hash::Hash;

/// Shards: enough that one growth step is a small part of the whole (1/64), few enough that a
/// small search pays little for them.
const SHARD_BITS: u32 = 6;
const SHARDS: usize = 1 << SHARD_BITS;
/// A shard's first slots.
const FIRST_SLOTS: usize = 16;
/// A shard grows before it holds more than this share of its slots...
const GROW_AT: (usize, usize) = (13, 16);
/// ...and, when the budget forbids growing, fills up to this share before refusing keys.
const CROWDED: (usize, usize) = (15, 16);

/// Fixed seeds, so a search visits positions in the same order on every run.
const SEEDS: [u64; 4] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
];

/// One open-addressing table. `tags[i]` is 0 for an empty slot, else 0x80 and seven bits of
/// the key's hash, so most probes of other keys are settled without comparing keys.
struct Shard<K> {
    tags: Vec<u8>,
    /// Slot `i`'s key when `tags[i] != 0`; empty slots hold a copy of some key (there is no
    /// "no key" value for every key type).
    keys: Vec<K>,
    len: usize,
}

/// What a search's transposition table does: `KeySet` holds any key, `NumberSet` 64-bit
/// numbers in less room. (No `is_empty`: a search's table always holds its start.)
#[allow(clippy::len_without_is_empty)]
pub trait Table: Default {
    type Key: Copy;
    /// Starts loading the memory a look-up of `key` would wait for.
    fn prefetch(&self, key: &Self::Key);
    fn contains(&self, key: &Self::Key) -> bool;
    /// Adds `key` unless held, within `room` bytes (as `KeySet` does it).
    fn offer(&mut self, key: Self::Key, room: u64) -> Offer;
    fn len(&self) -> usize;
    fn bytes(&self) -> u64;
}

/// What became of a key offered to the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    New,
    Present,
    /// Not held, and no room: its shard is crowded and may not grow within the room given.
    Full,
}

pub struct KeySet<K> {
    shards: Vec<Shard<K>>,
    hasher: RandomState,
    len: usize,
    bytes: u64,
}

impl<K: Hash + Eq + Copy> KeySet<K> {
    pub fn new() -> Self {
        let [a, b, c, d] = SEEDS;
        KeySet {
            shards: (0..SHARDS)
                .map(|_| Shard {
                    tags: Vec::new(),
                    keys: Vec::new(),
                    len: 0,
                })
                .collect(),
            hasher: RandomState::with_seeds(a, b, c, d),
            len: 0,
            // The shards' own fields: the layered search keeps many small sets.
            bytes: (SHARDS * size_of::<Shard<K>>()) as u64,
        }
    }

    /// The key's shard (the hash's top bits), its first slot and its tag.
    fn place(&self, key: &K) -> (usize, u64, u8) {
        let hash = self.hasher.hash_one(key);
        let shard = (hash >> (64 - SHARD_BITS)) as usize;
        (shard, hash << SHARD_BITS, (hash as u8) | 0x80)
    }
}

impl<K: Hash + Eq + Copy> Table for KeySet<K> {
    type Key = K;

    /// Starts loading, without waiting, the first slot `key` would be looked up in. A search
    /// that prefetches a batch of keys before offering them waits for memory once per batch
    /// rather than once per key: the slots of a large table are almost never in cache.
    fn prefetch(&self, key: &K) {
        let (shard, position, _) = self.place(key);
        let shard = &self.shards[shard];
        if let Some(slot) = shard.first_slot(position) {
            prefetch(&shard.tags[slot]);
            prefetch(&shard.keys[slot]);
        }
    }

    fn contains(&self, key: &K) -> bool {
        let (shard, position, tag) = self.place(key);
        self.shards[shard].find(position, tag, key).is_ok()
    }

    /// Adds `key` unless it is held already. `room` is the most bytes the set may hold, while
    /// growing too: a shard that would outgrow it fills its slots more densely instead, and
    /// when it is crowded the key is refused (`Offer::Full`).
    fn offer(&mut self, key: K, room: u64) -> Offer {
        let (index, position, tag) = self.place(&key);
        let shard = &self.shards[index];
        let empty_slot = match shard.find(position, tag, &key) {
            Ok(_) => return Offer::Present,
            Err(slot) => slot,
        };
        match fit(
            shard.len,
            shard.tags.len(),
            self.bytes,
            |slots| slots as u64 * slot_bytes::<K>(),
            room,
        ) {
            Fit::Put => {
                self.shards[index].put(
                    empty_slot.expect("a shard within its load has room"),
                    tag,
                    key,
                );
            }
            Fit::Grow(grown) => {
                self.bytes += (grown - shard.tags.len()) as u64 * slot_bytes::<K>();
                let hasher = &self.hasher;
                let shard = &mut self.shards[index];
                shard.grow(grown, key, |k| {
                    let hash = hasher.hash_one(k);
                    (hash << SHARD_BITS, (hash as u8) | 0x80)
                });
                let slot = shard.find(position, tag, &key).expect_err("a new key");
                shard.put(slot.expect("a grown shard has room"), tag, key);
            }
            Fit::Full => return Offer::Full,
        }
        self.len += 1;
        Offer::New
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Bytes of the shards: their fields and slots.
    fn bytes(&self) -> u64 {
        self.bytes
    }
}

/// What a shard holding `len` keys in `slots` slots does with one more, in a set of `bytes`
/// bytes with `room` to grow in.
pub(crate) enum Fit {
    Put,
    /// Grow to this many slots first.
    Grow(usize),
    Full,
}

/// `shard_bytes` gives the bytes of a shard of so many slots.
pub(crate) fn fit(
    len: usize,
    slots: usize,
    bytes: u64,
    shard_bytes: impl Fn(usize) -> u64,
    room: u64,
) -> Fit {
    let load = |(num, den): (usize, usize)| (len + 1) * den <= slots * num;
    // While it grows the shard holds its old slots and its new ones.
    let fits = |grown: usize, room: u64| bytes + shard_bytes(grown) <= room;
    let doubled = (2 * slots).max(FIRST_SLOTS);
    let grown = (slots + slots / 4).max(FIRST_SLOTS);
    if load(GROW_AT) {
        Fit::Put
    } else if fits(doubled, room / 2) {
        Fit::Grow(doubled)
    } else if fits(grown, room) {
        Fit::Grow(grown)
    } else if load(CROWDED) {
        Fit::Put
    } else {
        Fit::Full
    }
}

impl<K: Hash + Eq + Copy> Default for KeySet<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Eq + Copy> Shard<K> {
    /// Where a key with this `position` is first looked for; `None` when the shard has no slots.
    fn first_slot(&self, position: u64) -> Option<usize> {
        let slots = self.tags.len();
        (slots > 0).then(|| ((u128::from(position) * slots as u128) >> 64) as usize)
    }

    /// The slot holding `key` (`Ok`), or else the empty slot where it would go (`Err`; `None`
    /// when the shard has no slots or every slot is taken). `position` is the hash's bits below
    /// the shard's, scaled onto the slots.
    fn find(&self, position: u64, tag: u8, key: &K) -> Result<usize, Option<usize>> {
        let slots = self.tags.len();
        let Some(mut slot) = self.first_slot(position) else {
            return Err(None);
        };
        for _ in 0..slots {
            match self.tags[slot] {
                0 => return Err(Some(slot)),
                t if t == tag && self.keys[slot] == *key => return Ok(slot),
                _ => {}
            }
            slot += 1;
            if slot == slots {
                slot = 0;
            }
        }
        Err(None)
    }

    fn put(&mut self, slot: usize, tag: u8, key: K) {
        self.tags[slot] = tag;
        self.keys[slot] = key;
        self.len += 1;
    }

    /// Moves the keys into `slots` new slots; `filler` stands in the empty ones, `place`
    /// gives a key's position and tag.
    fn grow(&mut self, slots: usize, filler: K, place: impl Fn(&K) -> (u64, u8)) {
        let tags = std::mem::replace(&mut self.tags, vec![0; slots]);
        let keys = std::mem::replace(&mut self.keys, vec![filler; slots]);
        self.len = 0;
        for (tag, key) in tags.into_iter().zip(keys) {
            if tag != 0 {
                let (position, tag) = place(&key);
                let slot = self
                    .find(position, tag, &key)
                    .expect_err("keys are distinct");
                self.put(slot.expect("a grown shard has room"), tag, key);
            }
        }
    }
}

/// Asks the processor to bring `value`'s cache line in; a hint only, with no effect on what
/// the program computes.
#[inline]
pub(crate) fn prefetch<T>(value: &T) {
    prefetch_line((value as *const T).cast());
}

/// Asks for every cache line of `value` (a position of a few hundred bytes); a hint only.
#[inline]
pub(crate) fn prefetch_whole<T>(value: &T) {
    let start = (value as *const T).cast::<u8>();
    // From the line the value starts in, so a value that starts partway into a line has its
    // last line fetched too.
    let first = start.wrapping_sub(start as usize % 64);
    let lines = (start as usize % 64 + size_of::<T>()).div_ceil(64);
    for line in 0..lines {
        prefetch_line(first.wrapping_add(64 * line));
    }
}

#[inline]
fn prefetch_line(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch reads nothing the program sees and cannot fault, whatever the
        // address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// Bytes per slot: the key plus its control byte.
fn slot_bytes<K>() -> u64 {
    size_of::<K>() as u64 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u64) -> [u64; 3] {
        [i, i * 7, 1]
    }

    #[test]
    fn holds_each_key_once_and_counts_its_bytes() {
        let mut set = KeySet::<[u64; 3]>::new();
        for i in 0..100_000u64 {
            assert_eq!(set.offer(key(i), u64::MAX), Offer::New);
            assert_eq!(set.offer(key(i), u64::MAX), Offer::Present);
        }
        assert_eq!(set.len(), 100_000);
        assert!((0..100_000u64).all(|i| set.contains(&key(i))));
        assert!(!set.contains(&[5, 35, 2]));
        let slots: usize = set.shards.iter().map(|s| s.tags.len()).sum();
        let fields = SHARDS * size_of::<Shard<[u64; 3]>>();
        assert_eq!(
            set.bytes(),
            fields as u64 + slots as u64 * slot_bytes::<[u64; 3]>()
        );
        // Every shard keeps to its load; none holds twice its share.
        for shard in &set.shards {
            assert!(shard.len * GROW_AT.1 <= shard.tags.len() * GROW_AT.0);
            assert!(shard.len < 2 * 100_000 / SHARDS);
        }
    }

    #[test]
    fn fills_the_room_it_is_given_and_then_refuses_new_keys() {
        let room = 1 << 20;
        let mut set = KeySet::<[u64; 3]>::new();
        let mut i = 0;
        while set.offer(key(i), room) == Offer::New {
            assert!(set.bytes() <= room);
            i += 1;
        }
        // Refused keys are not held, held ones are still found, and nothing grew.
        let bytes = set.bytes();
        assert!(!set.contains(&key(i)));
        assert_eq!(set.offer(key(0), room), Offer::Present);
        assert_eq!(set.bytes(), bytes);
        // Most of the room holds keys: more than 3/4 of what it could hold.
        let most = room / slot_bytes::<[u64; 3]>();
        assert!(set.len() as u64 * 4 > most * 3, "{} of {most}", set.len());
    }
}
