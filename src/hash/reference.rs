//! CPU model of a hash map's observable behaviour: the ground truth of the tests and the
//! benchmark. Keys and values are held as u64 whatever the map's types.
//!
//! The GPU leaves one thing open: of duplicate keys in one insert batch, which value is stored.
//! The model keeps the candidates of such a key until a lookup (or retrieve_all) shows the
//! value, checks that it is one of them, and pins it.

use std::collections::HashMap;

/// What a map must contain after a sequence of operations.
#[derive(Clone, Debug, Default)]
pub struct HashModel {
    entries: HashMap<u64, u64>,
    /// Keys inserted several times in one batch: the values any of which may be stored.
    open: HashMap<u64, Vec<u64>>,
}

impl HashModel {
    /// An empty model.
    pub fn new() -> Self {
        Self::default()
    }

    /// Applies an insert batch. `stored[i]` says whether occurrence `i` was stored (the GPU's
    /// per-key status; all true when no key failed). Of several stored occurrences of one key,
    /// any value may have won.
    pub fn insert(&mut self, keys: &[u64], values: &[u64], stored: &[bool]) {
        assert!(keys.len() == values.len() && keys.len() == stored.len());
        let mut batch: HashMap<u64, Vec<u64>> = HashMap::new();
        for ((&k, &v), &s) in keys.iter().zip(values).zip(stored) {
            if s {
                batch.entry(k).or_default().push(v);
            }
        }
        for (k, mut candidates) in batch {
            self.entries.insert(k, candidates[0]);
            candidates.sort_unstable();
            candidates.dedup();
            if candidates.len() > 1 {
                self.open.insert(k, candidates);
            } else {
                self.open.remove(&k);
            }
        }
    }

    /// Applies an erase batch; returns how many entries it removed.
    pub fn erase(&mut self, keys: &[u64]) -> u64 {
        let mut n = 0;
        for k in keys {
            if self.entries.remove(k).is_some() {
                self.open.remove(k);
                n += 1;
            }
        }
        n
    }

    /// Removes everything.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.open.clear();
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the model is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether `key` is present.
    pub fn contains(&self, key: u64) -> bool {
        self.entries.contains_key(&key)
    }

    /// The keys present (any order).
    pub fn keys(&self) -> Vec<u64> {
        self.entries.keys().copied().collect()
    }

    /// Checks one lookup result against the model (an absent key must come back not found
    /// with value 0); pins the value of an open key.
    pub fn check_find(&mut self, key: u64, found: bool, value: u64) -> Result<(), String> {
        match self.entries.get(&key).copied() {
            None if found => Err(format!("key {key:#x}: found (value {value:#x}) but absent")),
            None if value != 0 => Err(format!("key {key:#x}: absent but value {value:#x} instead of 0")),
            None => Ok(()),
            Some(expected) if !found => Err(format!("key {key:#x}: not found, expected {expected:#x}")),
            Some(expected) => match self.open.get(&key) {
                Some(candidates) if candidates.contains(&value) => {
                    self.entries.insert(key, value);
                    self.open.remove(&key);
                    Ok(())
                }
                Some(candidates) => Err(format!(
                    "key {key:#x}: value {value:#x} is none of the batch's values {candidates:x?}"
                )),
                None if value == expected => Ok(()),
                None => Err(format!("key {key:#x}: value {value:#x}, expected {expected:#x}")),
            },
        }
    }

    /// Checks a retrieve_all result (each live entry exactly once, in any order).
    pub fn check_entries(&mut self, keys: &[u64], values: &[u64]) -> Result<(), String> {
        if keys.len() != self.entries.len() {
            return Err(format!(
                "retrieve_all: {} entries, expected {}",
                keys.len(),
                self.entries.len()
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for (&k, &v) in keys.iter().zip(values) {
            if !seen.insert(k) {
                return Err(format!("retrieve_all: key {k:#x} twice"));
            }
            self.check_find(k, true, v)?;
        }
        Ok(())
    }
}

/// murmur3's 32-bit finalizer, a bijection of u32: the hash of u32 keys in
/// glsl/public/vkalgo_hash_map.glsl (`vkalgo_hash_fmix32`).
pub fn fmix32(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// murmur3's 64-bit finalizer: the hash of u64 keys (`vkalgo_hash_fmix64`).
pub fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The first bucket and the step of `key`'s probe sequence in a map of `buckets` buckets, as
/// glsl/public/vkalgo_hash_map.glsl computes them (`key64`: a u64-key map). The sequence is
/// `first`, `first + step`, `first + 2 step`, ... modulo `buckets`.
pub fn probe_start(key: u64, key64: bool, buckets: u32) -> (u32, u32) {
    let (x, y) = if key64 {
        let h = fmix64(key);
        ((h >> 32) as u32, h as u32)
    } else {
        (fmix32(key as u32), fmix32(key as u32 ^ 0x9e37_79b9))
    };
    let range = |h: u32, n: u32| ((h as u64 * n as u64) >> 32) as u32;
    (range(x, buckets), 1 + range(y, buckets.max(2) - 1))
}
