//! Bits held as bytes. A `u128` field aligns its struct to 16 bytes, so a pile or a talon
//! holding one padded every position that holds them (a Harp position was 608 bytes against
//! 328 without); and a pile that never holds more than 13 cards needs two bytes, not sixteen.

/// The low `8 * BYTES` bits of a `u128`, without its alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits<const BYTES: usize>([u8; BYTES]);

/// 128 bits: a talon's presence bits, a pile that may hold up to 104 cards.
pub type Bits128 = Bits<16>;

impl<const BYTES: usize> Bits<BYTES> {
    pub fn get(self) -> u128 {
        let mut bytes = [0; 16];
        bytes[..BYTES].copy_from_slice(&self.0);
        u128::from_le_bytes(bytes)
    }

    pub fn set(&mut self, bits: u128) {
        debug_assert!(
            BYTES == 16 || bits >> (8 * BYTES) == 0,
            "bits beyond {BYTES} bytes"
        );
        self.0.copy_from_slice(&bits.to_le_bytes()[..BYTES]);
    }
}

impl<const BYTES: usize> Default for Bits<BYTES> {
    fn default() -> Self {
        Bits([0; BYTES])
    }
}

/// The indices of a `u128`'s set bits, lowest first (`.rev()` for highest first): a walk
/// that costs a step per set bit, not per bit.
#[derive(Clone, Copy, Debug)]
pub struct Ones(pub u128);

impl Iterator for Ones {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let index = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            index
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.0.count_ones() as usize;
        (len, Some(len))
    }
}

impl DoubleEndedIterator for Ones {
    fn next_back(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let index = 127 - self.0.leading_zeros() as usize;
            self.0 &= !(1 << index);
            index
        })
    }
}

impl ExactSizeIterator for Ones {}

impl<const BYTES: usize> From<u128> for Bits<BYTES> {
    fn from(bits: u128) -> Self {
        let mut held = Bits::default();
        held.set(bits);
        held
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_read_back_as_set_and_align_to_one_byte() {
        for bits in [
            0,
            1,
            1 << 64,
            u128::MAX,
            0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
        ] {
            let mut held = Bits128::default();
            held.set(bits);
            assert_eq!(held.get(), bits);
            assert_eq!(Bits128::from(bits), held);
        }
        assert_eq!(std::mem::align_of::<Bits128>(), 1);
        let mut two = Bits::<2>::default();
        two.set(0xbeef);
        assert_eq!((two.get(), size_of::<Bits<2>>()), (0xbeef, 2));
    }

    #[test]
    fn ones_walk_the_set_bits_from_either_end() {
        let bits = 1 | 1 << 5 | 1 << 64 | 1 << 127;
        assert_eq!(Ones(bits).collect::<Vec<_>>(), [0, 5, 64, 127]);
        assert_eq!(Ones(bits).rev().collect::<Vec<_>>(), [127, 64, 5, 0]);
        let mut both = Ones(bits);
        assert_eq!(
            (both.next(), both.next_back(), both.len()),
            (Some(0), Some(127), 2)
        );
        assert_eq!(Ones(0).next(), None);
    }
}
