//! The transposition table: a set of positions' keys.
//!
//! One hash table grows by doubling, and while it doubles it holds the old slots and twice as
//! many new ones: a table of 13 GiB cannot grow on a 24 GiB machine. Here the keys are spread
//! over `SHARDS` tables by their hash, each growing on its own, so a growth step holds one
//! shard's slots twice, not the whole table's. The shards receive equal shares of the keys and
//! so fill at about the same moment: once the budget stops one full shard from growing, the
//! search stops, even if other shards have room (FreeCell deal 982 with two cells stopped so,
//! 52 of 64 shards grown). Shards that fill at different times would let the set use the
//! whole budget.

use ahash::{AHashSet, RandomState};
use std::hash::Hash;

/// Shards: enough that one growth step is a small part of the whole (1/64), few enough that a
/// small search pays little for them.
const SHARD_BITS: u32 = 6;
const SHARDS: usize = 1 << SHARD_BITS;

/// Fixed seeds for choosing a key's shard. The shards' own tables hash with their own keys,
/// so a shard's keys still spread over its slots.
const SHARD_SEEDS: [u64; 4] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
];

pub struct KeySet<K> {
    shards: Vec<AHashSet<K>>,
    chooser: RandomState,
    len: usize,
    bytes: u64,
}

impl<K: Hash + Eq + Copy> KeySet<K> {
    pub fn new() -> Self {
        let [a, b, c, d] = SHARD_SEEDS;
        KeySet {
            shards: (0..SHARDS).map(|_| AHashSet::default()).collect(),
            chooser: RandomState::with_seeds(a, b, c, d),
            len: 0,
            bytes: 0,
        }
    }

    fn shard(&self, key: &K) -> usize {
        (self.chooser.hash_one(key) >> (64 - SHARD_BITS)) as usize
    }

    pub fn contains(&self, key: &K) -> bool {
        self.shards[self.shard(key)].contains(key)
    }

    /// The bytes held while `key` is offered to `insert`, if that makes its shard grow: the
    /// whole set as it is plus the shard's new slots (the old ones are freed only once the
    /// keys moved). `None` when its shard has room. (A full shard grows even for a key it
    /// holds already; look it up first with `contains` to spare that.)
    pub fn bytes_while_growing_for(&self, key: &K) -> Option<u64> {
        let shard = &self.shards[self.shard(key)];
        (shard.len() == shard.capacity())
            .then(|| self.bytes + grown_slots(shard.capacity()) as u64 * slot_bytes::<K>())
    }

    /// Adds `key`; false if it was there already.
    pub fn insert(&mut self, key: K) -> bool {
        let index = self.shard(&key);
        let shard = &mut self.shards[index];
        let before = shard_bytes::<K>(shard.capacity());
        let added = shard.insert(key);
        // The standard table makes room before it looks: a full shard grows even for a key it
        // holds already.
        self.bytes = self.bytes - before + shard_bytes::<K>(shard.capacity());
        self.len += added as usize;
        added
    }

    /// Keys held. (No `is_empty`: a search's table always holds its deal.)
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Bytes of the shards' slots.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl<K: Hash + Eq + Copy> Default for KeySet<K> {
    fn default() -> Self {
        Self::new()
    }
}

/// Bytes per slot: the key plus the standard hash table's one control byte.
pub fn slot_bytes<K>() -> u64 {
    size_of::<K>() as u64 + 1
}

/// Slots of a shard that can hold `capacity` keys: the standard table keeps 1/8 of its slots
/// free (one of fewer than eight) and has a power of two of them.
fn slots(capacity: usize) -> usize {
    match capacity {
        0 => 0,
        1..8 => capacity + 1,
        _ => (capacity * 8 / 7).next_power_of_two(),
    }
}

/// Slots of a full shard after it grows: twice as many, four at first.
fn grown_slots(capacity: usize) -> usize {
    (2 * slots(capacity)).max(4)
}

fn shard_bytes<K>(capacity: usize) -> u64 {
    slots(capacity) as u64 * slot_bytes::<K>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_each_key_once_and_counts_its_bytes() {
        let mut set = KeySet::<[u64; 3]>::new();
        for i in 0..100_000u64 {
            let key = [i, i * 7, 1];
            let growing = set.bytes_while_growing_for(&key);
            let before = set.bytes();
            assert!(set.insert(key));
            match growing {
                Some(peak) => assert!(set.bytes() > before && peak >= set.bytes()),
                None => assert_eq!(set.bytes(), before),
            }
            // Offered again, it is refused, even when its shard is full and grows.
            assert!(!set.insert(key));
        }
        assert_eq!(set.len(), 100_000);
        assert!((0..100_000u64).all(|i| set.contains(&[i, i * 7, 1])));
        assert!(!set.contains(&[5, 35, 2]));
        let counted: u64 = set
            .shards
            .iter()
            .map(|shard| shard_bytes::<[u64; 3]>(shard.capacity()))
            .sum();
        assert_eq!(set.bytes(), counted);
        // The shards share the keys evenly: none holds twice its share.
        assert!(set.shards.iter().all(|s| s.len() < 2 * 100_000 / SHARDS));
    }
}
