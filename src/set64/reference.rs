//! CPU reference of the 64-bit sets (what the tests compare the GPU against), and the
//! Roaring64 format on the host alone: the writer and the reader [`GpuSet64`](super::GpuSet64)
//! uses, without a device (for tests of the reader on damaged files).

use super::roaring64;
use crate::set::chunks_of_sorted;
use crate::SetOp;
use std::collections::BTreeSet;

/// The set `op` of two sets.
pub fn op(a: &BTreeSet<u64>, b: &BTreeSet<u64>, op: SetOp) -> BTreeSet<u64> {
    match op {
        SetOp::And => a.intersection(b).copied().collect(),
        SetOp::Or => a.union(b).copied().collect(),
        SetOp::AndNot => a.difference(b).copied().collect(),
        SetOp::Xor => a.symmetric_difference(b).copied().collect(),
    }
}

/// The Roaring64 portable serialization of a set, as
/// [`GpuSet64::serialize`](super::GpuSet64::serialize) writes it.
pub fn serialize(set: &BTreeSet<u64>) -> Vec<u8> {
    let mut buckets = Vec::new();
    let values: Vec<u64> = set.iter().copied().collect();
    let mut i = 0;
    while i < values.len() {
        let key = (values[i] >> 32) as u32;
        let n = values[i..].partition_point(|&v| (v >> 32) as u32 == key);
        let lows: Vec<u32> = values[i..i + n].iter().map(|&v| v as u32).collect();
        buckets.push((key, chunks_of_sorted(&lows)));
        i += n;
    }
    roaring64::serialize(&buckets)
}

/// Reads a Roaring64 portable serialization that is all of `data` into sorted values, with the
/// checks and errors of [`GpuSet64::deserialize`](super::GpuSet64::deserialize).
pub fn deserialize(data: &[u8]) -> crate::Result<Vec<u64>> {
    Ok(values_of(&roaring64::deserialize(data)?))
}

/// Reads the Roaring64 portable serialization at the start of `data` into sorted values, and
/// the bytes it takes, as
/// [`GpuSet64::deserialize_prefix`](super::GpuSet64::deserialize_prefix).
pub fn deserialize_prefix(data: &[u8]) -> crate::Result<(Vec<u64>, usize)> {
    let (buckets, read) = roaring64::deserialize_prefix(data)?;
    Ok((values_of(&buckets), read))
}

/// The ascending values of buckets (high key and chunks).
fn values_of(buckets: &[(u32, crate::set::roaring::Chunks)]) -> Vec<u64> {
    let mut out = Vec::new();
    for (key, chunks) in buckets {
        let base = (*key as u64) << 32;
        out.extend(
            crate::set::reference::values_from_chunks(chunks)
                .into_iter()
                .map(|low| base | low as u64),
        );
    }
    out
}
