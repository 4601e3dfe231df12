//! The CPU reference of the hash multimap: every pair kept, per key, as a multiset of values.
//! The tests compare the GPU's counts and retrieves with it exactly (values as sorted
//! multisets per query: the GPU gives them in no particular order).

use std::collections::HashMap;

/// What a multimap holds: the values of each key, duplicates included (keys and values
/// widened to u64).
#[derive(Clone, Debug, Default)]
pub struct MultimapModel {
    values: HashMap<u64, Vec<u64>>,
    len: u64,
}

impl MultimapModel {
    /// An empty model.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stores every pair `keys[i] -> values[i]`.
    pub fn insert(&mut self, keys: &[u64], values: &[u64]) {
        assert_eq!(keys.len(), values.len(), "one value per key");
        for (&k, &v) in keys.iter().zip(values) {
            self.values.entry(k).or_default().push(v);
        }
        self.len += keys.len() as u64;
    }

    /// Pairs stored.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every pair.
    pub fn clear(&mut self) {
        self.values.clear();
        self.len = 0;
    }

    /// The number of pairs with key `key`.
    pub fn count(&self, key: u64) -> u64 {
        self.values.get(&key).map_or(0, |v| v.len() as u64)
    }

    /// The values of `key`, sorted.
    pub fn sorted_values(&self, key: u64) -> Vec<u64> {
        let mut v = self.values.get(&key).cloned().unwrap_or_default();
        v.sort_unstable();
        v
    }

    /// Checks a count of `keys` against the model.
    pub fn check_counts(&self, keys: &[u64], counts: &[u64]) -> Result<(), String> {
        if keys.len() != counts.len() {
            return Err(format!("{} keys but {} counts", keys.len(), counts.len()));
        }
        for (i, (&k, &c)) in keys.iter().zip(counts).enumerate() {
            if c != self.count(k) {
                return Err(format!(
                    "query {i} (key {k:#x}): count {c}, expected {}",
                    self.count(k)
                ));
            }
        }
        Ok(())
    }

    /// Checks a retrieve of `keys`: `offsets` (one more than keys, from 0) are the exclusive
    /// prefix of the keys' counts, and each query's values are its values as a multiset.
    pub fn check_retrieve(&self, keys: &[u64], offsets: &[u64], values: &[u64]) -> Result<(), String> {
        if offsets.len() != keys.len() + 1 || offsets[0] != 0 {
            return Err(format!(
                "{} offsets for {} keys, first {:?}",
                offsets.len(),
                keys.len(),
                offsets.first()
            ));
        }
        if offsets[keys.len()] != values.len() as u64 {
            return Err(format!(
                "total {} but {} values",
                offsets[keys.len()],
                values.len()
            ));
        }
        for (i, &k) in keys.iter().enumerate() {
            let (a, b) = (offsets[i], offsets[i + 1]);
            if b < a || b - a != self.count(k) {
                return Err(format!(
                    "query {i} (key {k:#x}): range {a}..{b}, expected {} values",
                    self.count(k)
                ));
            }
            let mut got = values[a as usize..b as usize].to_vec();
            got.sort_unstable();
            if got != self.sorted_values(k) {
                return Err(format!("query {i} (key {k:#x}): values differ from the model's"));
            }
        }
        Ok(())
    }

    /// Checks the values retrieved for `key` from a multimap that refused some pairs (table
    /// full): `got` must be a sub-multiset of the model's values of the key.
    pub fn check_sub_multiset(&self, key: u64, got: &[u64]) -> Result<(), String> {
        let mut want = self.sorted_values(key);
        for v in got {
            match want.binary_search(v) {
                Ok(at) => {
                    want.remove(at);
                }
                Err(_) => {
                    return Err(format!(
                        "key {key:#x}: value {v:#x} was never inserted (or too often)"
                    ))
                }
            }
        }
        Ok(())
    }
}
