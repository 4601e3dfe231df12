//! The CPU reference the tests compare every GPU multisplit with: a stable counting sort by
//! bucket id.

use crate::sort::SortKey;

/// The BITS bucket of `key`: `(ordered bits >> bit_offset) & (m - 1)`.
pub fn bits_bucket<K: SortKey>(key: K, bucket_count: u32, bit_offset: u32) -> u32 {
    ((key.ordered_bits() >> bit_offset) as u32) & (bucket_count - 1)
}

/// The SPLITTERS bucket of `key`: the number of splitters `<=` key in the sort's key order.
pub fn splitters_bucket<K: SortKey>(key: K, splitters: &[K]) -> u32 {
    let k = key.ordered_bits();
    splitters.partition_point(|s| s.ordered_bits() <= k) as u32
}

/// Stable counting sort of `keys` (and `values`) by `buckets[i]` (every id `< m`); returns the
/// `m + 1` bucket offsets.
pub fn multisplit<K: Copy, V: Copy>(
    keys: &mut [K],
    values: Option<&mut [V]>,
    buckets: &[u32],
    bucket_count: u32,
) -> Vec<u64> {
    let m = bucket_count as usize;
    let mut offsets = vec![0u64; m + 1];
    for &b in buckets {
        assert!((b as usize) < m, "bucket {b} >= {m}");
        offsets[b as usize + 1] += 1;
    }
    for b in 0..m {
        offsets[b + 1] += offsets[b];
    }
    let mut next: Vec<u64> = offsets[..m].to_vec();
    let mut order = vec![0usize; keys.len()];
    for (i, &b) in buckets.iter().enumerate() {
        order[next[b as usize] as usize] = i;
        next[b as usize] += 1;
    }
    let split: Vec<K> = order.iter().map(|&i| keys[i]).collect();
    keys.copy_from_slice(&split);
    if let Some(values) = values {
        let split: Vec<V> = order.iter().map(|&i| values[i]).collect();
        values.copy_from_slice(&split);
    }
    offsets
}
