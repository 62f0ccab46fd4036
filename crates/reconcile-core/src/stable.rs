//! Hashing and seeded randomness that give the same numbers on every platform
//! and with every future build, unlike `std`'s hasher or an RNG crate, whose
//! algorithms may change between releases. Storage keys, oscillation checks
//! and replayable simulation seeds depend on that.
//!
//! Both are hand-written on purpose: each is a few lines, fully specified.

/// SplitMix64's output function: a bijective avalanche of all 64 bits.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The SplitMix64 generator (Steele, Lea and Flood, 2014).
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// SplitMix64's state increment, the golden ratio in 64 bits.
    pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(Self::GOLDEN_GAMMA);
        mix64(self.state)
    }
}

/// 64-bit FNV-1a over the bytes written.
#[derive(Debug, Clone)]
pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl StableHasher {
    pub fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Plain FNV-1a of what was written (names storage keys, which must not change).
    pub fn fnv1a(&self) -> u64 {
        self.0
    }

    /// FNV-1a with a final avalanche ([`mix64`]), for hashes that are summed
    /// or compared in bulk, where FNV's weak high bits would collide.
    pub fn finish(&self) -> u64 {
        mix64(self.0)
    }
}

/// FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hasher = StableHasher::default();
    hasher.write(bytes);
    hasher.fnv1a()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_its_published_output() {
        // The published first outputs of SplitMix64 seeded with 0.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn fnv1a_matches_its_published_vectors() {
        // From the FNV reference test suite (draft-eastlake-fnv).
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
