//! Packing small fields into a fixed-size transposition-table key.

/// Writes fields of a few bits each, one after another, into `N` 64-bit words.
pub struct KeyWriter<const N: usize> {
    words: [u64; N],
    bit: usize,
}

impl<const N: usize> KeyWriter<N> {
    pub fn new() -> Self {
        KeyWriter {
            words: [0; N],
            bit: 0,
        }
    }

    /// Appends the low `bits` bits of `value`. Panics (in debug builds) if the key overflows or
    /// the value does not fit: a silently truncated key would merge different positions.
    pub fn push(&mut self, value: u64, bits: usize) {
        debug_assert!(
            bits <= 64 && (bits == 64 || value >> bits == 0),
            "value {value} exceeds {bits} bits"
        );
        assert!(self.bit + bits <= 64 * N, "key of {N} words overflowed");
        let (word, offset) = (self.bit / 64, self.bit % 64);
        self.words[word] |= value << offset;
        if offset + bits > 64 {
            self.words[word + 1] |= value >> (64 - offset);
        }
        self.bit += bits;
    }

    pub fn finish(self) -> [u64; N] {
        self.words
    }
}

/// Overwrites field `index` of a key made of equal `bits`-wide fields (as `KeyWriter` packs
/// them), so a move that changes one field updates the key without rebuilding it.
pub fn set_field<const N: usize>(words: &mut [u64; N], index: usize, bits: usize, value: u64) {
    let (bit, mask) = (index * bits, (1u64 << bits) - 1);
    debug_assert!(value <= mask);
    let (word, offset) = (bit / 64, bit % 64);
    words[word] = (words[word] & !(mask << offset)) | (value << offset);
    if offset + bits > 64 {
        let high_bits = offset + bits - 64;
        let high_mask = (1u64 << high_bits) - 1;
        words[word + 1] = (words[word + 1] & !high_mask) | (value >> (64 - offset));
    }
}

/// Reads field `index` of a key made of equal `bits`-wide fields.
pub fn get_field<const N: usize>(words: &[u64; N], index: usize, bits: usize) -> u64 {
    let (bit, mask) = (index * bits, (1u64 << bits) - 1);
    let (word, offset) = (bit / 64, bit % 64);
    let low = words[word] >> offset;
    let high = if offset + bits > 64 {
        words[word + 1] << (64 - offset)
    } else {
        0
    };
    (low | high) & mask
}

/// The first `BYTES` bytes of a key's words, little-endian: a key whose fields fill only part
/// of its last word is stored in fewer bytes (the table's slots shrink with it). Panics (in
/// debug builds) if a dropped byte is not zero: the short key must say all the long one says.
pub fn truncated<const N: usize, const BYTES: usize>(words: &[u64; N]) -> [u8; BYTES] {
    let mut bytes = [0u8; BYTES];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = (words[i / 8] >> (8 * (i % 8))) as u8;
    }
    debug_assert!(
        (BYTES..8 * N).all(|i| (words[i / 8] >> (8 * (i % 8))) as u8 == 0),
        "key bytes beyond {BYTES} are not zero"
    );
    bytes
}

impl<const N: usize> Default for KeyWriter<N> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setting_a_field_equals_writing_it() {
        let values = |changed: Option<(usize, u64)>| {
            let mut writer = KeyWriter::<5>::new();
            for i in 0..52usize {
                let v = match changed {
                    Some((j, v)) if j == i => v,
                    _ => (i as u64 * 7) % 55,
                };
                writer.push(v, 6);
            }
            writer.finish()
        };
        for index in 0..52 {
            for value in [0, 1, 54, 63] {
                let mut words = values(None);
                set_field(&mut words, index, 6, value);
                assert_eq!(
                    words,
                    values(Some((index, value))),
                    "field {index} = {value}"
                );
            }
        }
    }

    /// A key of `count` fields of `bits` bits, field `i` holding `value(i)`.
    fn written<const N: usize>(count: u64, bits: usize, value: fn(u64) -> u64) -> [u64; N] {
        let mut writer = KeyWriter::<N>::new();
        for i in 0..count {
            writer.push(value(i), bits);
        }
        writer.finish()
    }

    #[test]
    fn a_truncated_key_keeps_every_field() {
        let words: [u64; 3] = written(52, 3, |i| i % 6);
        let bytes: [u8; 20] = truncated(&words);
        let mut padded = [0u8; 24];
        padded[..20].copy_from_slice(&bytes);
        let back: [u64; 3] = std::array::from_fn(|w| {
            u64::from_le_bytes(padded[8 * w..8 * w + 8].try_into().unwrap())
        });
        assert_eq!(back, words);
    }

    #[test]
    fn fields_cross_word_boundaries_without_loss() {
        let words: [u64; 2] = written(20, 6, |i| i % 64);
        let read = |i: usize| -> u64 {
            let bit = i * 6;
            let low = words[bit / 64] >> (bit % 64);
            let high = if bit % 64 + 6 > 64 {
                words[bit / 64 + 1] << (64 - bit % 64)
            } else {
                0
            };
            (low | high) & 63
        };
        for i in 0..20 {
            assert_eq!(read(i), i as u64 % 64);
        }
    }
}
