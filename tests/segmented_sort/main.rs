//! Segmented sort on a real Vulkan device (lavapipe in CI), exact against the CPU reference
//! (`vkalgo::segmented_sort::reference`, stability included): every key and value type,
//! descending, bit ranges, segment layouts from one segment to all singletons (empty segments,
//! many tiny ones, few huge ones, power-law sizes, segments straddling the tiles and the small
//! limit), counts around the tiles, keys with special values, the record layer (indirect counts,
//! offsets into buffers, poison), bad input, and the C ABI.

mod bad_input;
mod c_abi;
#[path = "../common/mod.rs"]
mod common;
mod host;
mod record;

use common::*;
use vkalgo::segmented_sort::reference;
use vkalgo::{Context, SegmentedSortOptions, SortKey, SortValue};

/// A named segment layout: the offsets of `n` elements from the generator (the CPU drivers'
/// tile is 512, small segments up to 256).
pub type Layout = (&'static str, fn(&mut Rng, usize) -> Vec<u64>);

/// Offsets from segment sizes drawn by `size` until `n` elements are covered.
fn from_sizes(n: usize, rng: &mut Rng, mut size: impl FnMut(&mut Rng) -> usize) -> Vec<u64> {
    let mut offsets = vec![0u64];
    let mut at = 0usize;
    while at < n {
        at = (at + size(rng)).min(n);
        offsets.push(at as u64);
    }
    offsets
}

/// Segment layouts over the small limit, the tile and the merge rounds.
pub const LAYOUTS: &[Layout] = &[
    ("one segment", |_, n| vec![0, n as u64]),
    ("singletons", |_, n| (0..=n as u64).collect()),
    ("tiny (0..=64)", |r, n| {
        from_sizes(n, r, |r| (r.next_u32() % 65) as usize)
    }),
    // Longer than tiny but none large: the block pass's small parts alone.
    ("small (0..=256)", |r, n| {
        from_sizes(n, r, |r| (r.next_u32() % 257) as usize)
    }),
    ("few huge", |r, n| {
        let mut cuts: Vec<u64> = (0..3).map(|_| r.next_u64() % (n as u64 + 1)).collect();
        cuts.extend([0, n as u64]);
        cuts.sort();
        cuts
    }),
    ("power law", |r, n| {
        from_sizes(n, r, |r| {
            let bits = r.next_u32() % 16;
            (r.next_u32() as usize) & ((1usize << bits) - 1)
        })
    }),
    ("around the limits", |r, n| {
        const SIZES: [usize; 10] = [255, 256, 257, 511, 512, 513, 0, 1, 1023, 1025];
        from_sizes(n, r, |r| SIZES[r.next_u32() as usize % SIZES.len()])
    }),
    ("empty at both ends", |_, n| {
        let mut o = vec![0u64; 5];
        o.extend([n as u64 / 3, n as u64 / 3, 2 * n as u64 / 3]);
        o.extend([n as u64; 5]);
        o
    }),
];

/// Distinct values (their order shows stability).
pub trait TestValue: SortValue + PartialEq + std::fmt::Debug {
    fn of(i: usize) -> Self;
}
impl TestValue for u32 {
    fn of(i: usize) -> Self {
        i as u32 ^ 0x5A00_0000
    }
}
impl TestValue for u64 {
    fn of(i: usize) -> Self {
        (i as u64) << 33 | 0x1234
    }
}

/// The CPU reference of keys (and values) with `offsets` and `options`.
pub fn expected<K: SortKey, V: Copy>(
    keys: &[K],
    values: Option<&[V]>,
    offsets: &[u64],
    options: &SegmentedSortOptions,
) -> (Vec<K>, Option<Vec<V>>) {
    let mut k = keys.to_vec();
    let mut v = values.map(|v| v.to_vec());
    reference::segmented_sort_pairs(
        &mut k,
        v.as_deref_mut(),
        offsets,
        options.begin_bit,
        options.end_bit,
        options.descending,
    );
    (k, v)
}

/// Bit patterns of keys (exact comparison: NaN payloads and signed zeros included).
pub fn bits<K: SortKey>(keys: &[K]) -> Vec<u8> {
    bytemuck::cast_slice(keys).to_vec()
}

/// Sorts `keys` (and `values`) by the host call and checks them against the reference.
pub fn check_host<K: TestKey, V: TestValue>(
    ctx: &Context,
    keys: &[K],
    with_values: bool,
    offsets: &[u64],
    options: &SegmentedSortOptions,
    what: &str,
) {
    let values: Vec<V> = (0..keys.len()).map(V::of).collect();
    let (want_keys, want_values) = expected(keys, with_values.then_some(&values[..]), offsets, options);
    let mut got_keys = keys.to_vec();
    if with_values {
        let mut got_values = values.clone();
        ctx.segmented_sort_pairs_with(&mut got_keys, &mut got_values, offsets, options)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(Some(got_values), want_values, "{what}: values");
    } else {
        ctx.segmented_sort_keys_with(&mut got_keys, offsets, options)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
    }
    assert!(bits(&got_keys) == bits(&want_keys), "{what}: keys differ");
}
