//! A small, stable content hash (64-bit FNV-1a), shared by the cargo build
//! script and the cache.
//!
//! It names files; it is not a security boundary: a cache entry also
//! stores the full key it was computed for and is ignored unless that key
//! matches exactly, so a collision costs a recomputation, never a wrong
//! result. Written here rather than taken from a crate because it must give
//! the same value in the build script and in every release, forever.

/// FNV-1a offset basis.
const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a prime.
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// An incremental FNV-1a hasher.
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(OFFSET)
    }
}

impl Fnv {
    /// Feed bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(PRIME);
        }
    }

    /// Feed a length-prefixed field, so that ("ab", "c") and ("a", "bc")
    /// hash differently.
    pub fn field(&mut self, bytes: &[u8]) {
        self.write(&(bytes.len() as u64).to_le_bytes());
        self.write(bytes);
    }

    /// The hash as 16 lowercase hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }

    /// The hash as a number.
    pub fn value(&self) -> u64 {
        self.0
    }
}

/// FNV as a `HashMap`'s hasher (bytes as FNV-1a, words a step each, and
/// the result mixed), for maps keyed by an AnyDice program's own names and
/// shapes, where SipHash's resistance to crafted keys costs more than the
/// lookup itself. Its values name nothing outside the process.
impl std::hash::Hasher for Fnv {
    /// Mixed (MurmurHash3's finalizer), so every bit of every word fed
    /// reaches the low bits a map's buckets are picked by.
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        Fnv::write(self, bytes);
    }
    /// A word in one step, where FNV-1a takes eight: a map's keys of
    /// numbers (a shape's faces) hash as fast as they compare. Maps only:
    /// [`Fnv::write`], which names files, is unchanged.
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(PRIME);
    }
    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }
}

/// A `HashMap` keyed through [`Fnv`].
pub type FnvMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<Fnv>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_published_fnv1a_values() {
        // Reference values of 64-bit FNV-1a.
        let hash = |text: &str| {
            let mut h = Fnv::default();
            h.write(text.as_bytes());
            h.hex()
        };
        assert_eq!(hash(""), "cbf29ce484222325");
        assert_eq!(hash("a"), "af63dc4c8601ec8c");
        assert_eq!(hash("foobar"), "85944171f73967e8");
    }

    #[test]
    fn fields_are_delimited() {
        let pair = |a: &str, b: &str| {
            let mut h = Fnv::default();
            h.field(a.as_bytes());
            h.field(b.as_bytes());
            h.hex()
        };
        assert_ne!(pair("ab", "c"), pair("a", "bc"));
    }

    /// As a map's hasher, numbers that differ only in their high bits (or
    /// only in their low) still fall in different buckets: 1,024 keys into
    /// 1,024 buckets fill about 63 % of them when spread at random.
    #[test]
    fn map_hashes_spread_every_bit() {
        use std::hash::{BuildHasher, BuildHasherDefault};
        let build = BuildHasherDefault::<Fnv>::default();
        for shift in [0, 20, 40, 54] {
            let buckets: std::collections::HashSet<u64> = (0..1024u64)
                .map(|k| build.hash_one(k << shift) & 1023)
                .collect();
            assert!(
                buckets.len() > 550,
                "keys << {shift}: {} buckets",
                buckets.len()
            );
        }
    }
}
