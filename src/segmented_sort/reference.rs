//! The CPU reference the tests compare every GPU segmented sort with: a stable sort of each
//! segment on the masked order-preserving key bits (the radix sort's reference order).

use crate::sort::reference::sort_pairs;
use crate::sort::SortKey;

/// Stable CPU sort of each segment `[offsets[s], offsets[s + 1])` of `keys` (and `values`, when
/// given) as the GPU sorts them: by the order-preserving key bits in `[begin_bit, end_bit)`
/// (`end_bit` 0: the full width), complemented when descending.
pub fn segmented_sort_pairs<K: SortKey, V: Copy>(
    keys: &mut [K],
    mut values: Option<&mut [V]>,
    offsets: &[u64],
    begin_bit: u32,
    end_bit: u32,
    descending: bool,
) {
    for w in offsets.windows(2) {
        let (a, b) = (w[0] as usize, w[1] as usize);
        let v = values.as_deref_mut().map(|v| &mut v[a..b]);
        sort_pairs(&mut keys[a..b], v, begin_bit, end_bit, descending);
    }
}

/// Whether `offsets` are valid for `count` elements: at least one, the first 0, the last
/// `count`, non-decreasing.
pub fn offsets_valid(offsets: &[u64], count: u64) -> bool {
    offsets.first() == Some(&0) && offsets.last() == Some(&count) && offsets.windows(2).all(|w| w[0] <= w[1])
}
