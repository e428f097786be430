//! 128 bits held as 16 bytes. A `u128` field aligns its struct to 16 bytes, so a pile or a
//! talon holding one padded every position that holds them (a Harp position 608 bytes against
//! 328 without).

/// A `u128` without its alignment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits128([u8; 16]);

impl Bits128 {
    pub fn get(self) -> u128 {
        u128::from_le_bytes(self.0)
    }

    pub fn set(&mut self, bits: u128) {
        self.0 = bits.to_le_bytes();
    }
}

impl From<u128> for Bits128 {
    fn from(bits: u128) -> Self {
        Bits128(bits.to_le_bytes())
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
    }
}
