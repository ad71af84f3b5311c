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

/// FNV-1a as a `HashMap`'s hasher, for small maps keyed by short trusted
/// names (an AnyDice program's variables), where SipHash's resistance to
/// crafted keys costs more than the lookup itself.
impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        Fnv::write(self, bytes);
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
}
