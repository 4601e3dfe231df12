//! The CPU reference the tests compare every GPU sort with: a stable sort on the masked
//! order-preserving key bits.

use super::SortKey;

/// The sort key the GPU orders by: the order-preserving bits in `[begin_bit, end_bit)`
/// (`end_bit` 0: the full width), complemented when descending.
pub fn rank_key<K: SortKey>(key: K, begin_bit: u32, end_bit: u32, descending: bool) -> u64 {
    let width = K::KEY_TYPE.bits();
    let end = if end_bit == 0 { width } else { end_bit };
    let bits = if descending {
        !key.ordered_bits() & (u64::MAX >> (64 - width))
    } else {
        key.ordered_bits()
    };
    let span = end - begin_bit;
    let mask = if span >= 64 { u64::MAX } else { (1u64 << span) - 1 };
    (bits >> begin_bit) & mask
}

/// The permutation a stable sort applies: `result[i]` is the input index of output element i.
pub fn sort_permutation<K: SortKey>(
    keys: &[K],
    begin_bit: u32,
    end_bit: u32,
    descending: bool,
) -> Vec<usize> {
    let ranks: Vec<u64> = keys
        .iter()
        .map(|&k| rank_key(k, begin_bit, end_bit, descending))
        .collect();
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&i| ranks[i]); // stable
    order
}

/// Stable CPU sort of keys (and values, when given) as the GPU sorts them.
pub fn sort_pairs<K: SortKey, V: Copy>(
    keys: &mut [K],
    values: Option<&mut [V]>,
    begin_bit: u32,
    end_bit: u32,
    descending: bool,
) {
    let order = sort_permutation(keys, begin_bit, end_bit, descending);
    let sorted: Vec<K> = order.iter().map(|&i| keys[i]).collect();
    keys.copy_from_slice(&sorted);
    if let Some(values) = values {
        let sorted: Vec<V> = order.iter().map(|&i| values[i]).collect();
        values.copy_from_slice(&sorted);
    }
}
