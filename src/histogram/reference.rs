//! The CPU reference of the histogram, which the tests compare the GPU's counts with: the
//! multisplit's reference bucket functions, counted.

use crate::sort::SortKey;
use crate::split::reference::{bits_bucket, splitters_bucket};
use crate::split::Bucketing;

/// The bucket counts of `keys` by `bucketing` (GLSL functions have no CPU form: `None`), or
/// `None` where some bucket id is `>= m`.
pub fn histogram<K: SortKey>(keys: &[K], bucketing: &Bucketing<K>) -> Option<Vec<u64>> {
    let buckets: Vec<u32> = match *bucketing {
        Bucketing::Bits {
            bucket_count,
            bit_offset,
        } => keys
            .iter()
            .map(|&k| bits_bucket(k, bucket_count, bit_offset))
            .collect(),
        Bucketing::Splitters(splitters) => keys.iter().map(|&k| splitters_bucket(k, splitters)).collect(),
        Bucketing::Ids { ids, .. } => ids.to_vec(),
        Bucketing::Glsl { .. } => return None,
    };
    count(&buckets, bucket_count(bucketing))
}

/// The counts of bucket ids `buckets` in `m` buckets, or `None` where some id is `>= m`.
pub fn count(buckets: &[u32], m: u32) -> Option<Vec<u64>> {
    let mut counts = vec![0u64; m as usize];
    for &b in buckets {
        *counts.get_mut(b as usize)? += 1;
    }
    Some(counts)
}

/// `m` of a bucketing.
fn bucket_count<K>(bucketing: &Bucketing<K>) -> u32 {
    match *bucketing {
        Bucketing::Bits { bucket_count, .. }
        | Bucketing::Ids { bucket_count, .. }
        | Bucketing::Glsl { bucket_count, .. } => bucket_count,
        Bucketing::Splitters(s) => s.len() as u32 + 1,
    }
}
