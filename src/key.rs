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

impl<const N: usize> Default for KeyWriter<N> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_cross_word_boundaries_without_loss() {
        let mut writer = KeyWriter::<2>::new();
        for i in 0..20u64 {
            writer.push(i % 64, 6);
        }
        let words = writer.finish();
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
