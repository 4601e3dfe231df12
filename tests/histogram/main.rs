//! Histogram on a real Vulkan device (lavapipe in CI), exact against the CPU reference
//! (`vkalgo::histogram::reference`, on the multisplit's reference bucket functions): every
//! bucket-function kind and key type, bucket counts from 1 to the multisplit's largest, skewed
//! data, counts around the tiles and the grid, the record layer (indirect counts, offsets,
//! tunings, shared and global counts, out-of-range ids), bad input, and the C ABI.

mod bad_input;
mod c_abi;
#[path = "../common/mod.rs"]
mod common;
mod host;
mod record;

use common::*;
use vkalgo::histogram::reference;
use vkalgo::split::{BucketFn, MAX_BUCKETS, STATUS_BAD_BUCKET};
use vkalgo::{
    Bucketing, Context, ElementCount, Error, GpuBuffer, HistogramArgs, HistogramDesc, HistogramTuning,
    KeyType, MemoryLocation,
};

/// `m - 1` sorted splitters drawn from `keys` (or from the distribution where there are too
/// few keys).
fn splitters_for<K: TestKey>(keys: &[K], m: u32, rng: &mut Rng) -> Vec<K> {
    let mut s: Vec<K> = (0..m as usize - 1)
        .map(|i| {
            if keys.is_empty() {
                K::from_word(rng.next_u32(), i)
            } else {
                keys[(rng.next_u64() % keys.len() as u64) as usize]
            }
        })
        .collect();
    s.sort_by_key(|k| k.ordered_bits());
    s
}

/// Asserts the GPU histogram of `keys` by `bucketing` equals the reference.
fn check<K: TestKey>(ctx: &Context, keys: &[K], bucketing: &Bucketing<K>, what: &str) {
    let got = ctx
        .histogram(keys, bucketing)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let want = reference::histogram(keys, bucketing).expect("a reference");
    assert_eq!(got.len(), want.len(), "{what}: length");
    if got != want {
        let first = got.iter().zip(&want).position(|(a, b)| a != b).unwrap();
        panic!(
            "{what} ({:?}, n {}): bucket {first}: {} != {}",
            K::KEY_TYPE,
            keys.len(),
            got[first],
            want[first]
        );
    }
}
