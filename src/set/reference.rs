//! CPU reference of the set operations (what the tests compare the GPU against), and the
//! conversions between sorted values and the Roaring chunk image.

use super::roaring::{self, Chunks, Container};
use crate::SetOp;
use std::collections::BTreeSet;

/// The set `op` of two sets.
pub fn op(a: &BTreeSet<u32>, b: &BTreeSet<u32>, op: SetOp) -> BTreeSet<u32> {
    match op {
        SetOp::And => a.intersection(b).copied().collect(),
        SetOp::Or => a.union(b).copied().collect(),
        SetOp::AndNot => a.difference(b).copied().collect(),
        SetOp::Xor => a.symmetric_difference(b).copied().collect(),
    }
}

/// How many values of `set` lie in `[begin, end)`.
pub fn range_cardinality(set: &BTreeSet<u32>, begin: u64, end: u64) -> u64 {
    if begin >= end || begin > u32::MAX as u64 {
        return 0;
    }
    let end = end.min(1 << 32);
    if end == 1 << 32 {
        set.range(begin as u32..).count() as u64
    } else {
        set.range(begin as u32..end as u32).count() as u64
    }
}

/// The chunks of ascending distinct values.
pub(crate) fn chunks_from_sorted(values: &[u32]) -> Chunks {
    let mut chunks = Chunks::new();
    let mut i = 0;
    while i < values.len() {
        let key = values[i] >> 16;
        let mut j = i;
        let mut bits = vec![0u64; 1024];
        while j < values.len() && values[j] >> 16 == key {
            let low = values[j] & 0xFFFF;
            bits[(low / 64) as usize] |= 1 << (low % 64);
            j += 1;
        }
        if let Some(c) = Container::from_bitmap(bits) {
            chunks.push((key as u16, c));
        }
        i = j;
    }
    chunks
}

/// The ascending values of chunks.
pub(crate) fn values_from_chunks(chunks: &Chunks) -> Vec<u32> {
    let mut out = Vec::new();
    for (key, c) in chunks {
        let hi = (*key as u32) << 16;
        match c {
            Container::Array(a) => out.extend(a.iter().map(|&v| hi | v as u32)),
            Container::Bitmap(b) => {
                for (i, &w) in b.iter().enumerate() {
                    let mut w = w;
                    while w != 0 {
                        out.push(hi | (i as u32 * 64 + w.trailing_zeros()));
                        w &= w - 1;
                    }
                }
            }
            Container::Full => out.extend((0..65536u32).map(|v| hi | v)),
            Container::Runs(runs) => {
                for &(first, last) in runs {
                    out.extend((first as u32..=last as u32).map(|v| hi | v));
                }
            }
        }
    }
    out
}

/// The portable Roaring serialization of a set (run containers where smaller), as
/// [`GpuSet::serialize`](super::GpuSet::serialize) writes it.
pub fn serialize(set: &BTreeSet<u32>) -> Vec<u8> {
    let values: Vec<u32> = set.iter().copied().collect();
    roaring::serialize(&chunks_from_sorted(&values))
}

/// Word-by-word `op` of two bitmaps of equal length.
pub fn op_bits(a: &[u64], b: &[u64], op: SetOp) -> Vec<u64> {
    let f = |x: u64, y: u64| match op {
        SetOp::And => x & y,
        SetOp::Or => x | y,
        SetOp::AndNot => x & !y,
        SetOp::Xor => x ^ y,
    };
    a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect()
}

/// A portable Roaring serialization whose chunks `0..chunks` are all run containers, chunk k
/// the runs `runs(k)` as (start, length), written as they are (unlike CRoaring, which picks
/// each container's kind): for tests of the reader on files of runs.
pub fn serialize_runs(chunks: u32, runs: impl Fn(u32) -> Vec<(u16, u32)>) -> Vec<u8> {
    assert!((1..=65536).contains(&chunks));
    let mut out = Vec::new();
    out.extend_from_slice(&(12347u32 | ((chunks - 1) << 16)).to_le_bytes());
    out.extend(std::iter::repeat(0xFFu8).take((chunks as usize).div_ceil(8)));
    for key in 0..chunks {
        let card: u32 = runs(key).iter().map(|r| r.1).sum();
        out.extend_from_slice(&(key as u16).to_le_bytes());
        out.extend_from_slice(&((card - 1) as u16).to_le_bytes());
    }
    if chunks >= 4 {
        // Offsets: from four containers on, even with run containers.
        let mut offset = (out.len() + 4 * chunks as usize) as u32;
        for key in 0..chunks {
            out.extend_from_slice(&offset.to_le_bytes());
            offset += 2 + 4 * runs(key).len() as u32;
        }
    }
    for key in 0..chunks {
        let r = runs(key);
        out.extend_from_slice(&(r.len() as u16).to_le_bytes());
        for (start, len) in r {
            out.extend_from_slice(&start.to_le_bytes());
            out.extend_from_slice(&((len - 1) as u16).to_le_bytes());
        }
    }
    out
}

/// The portable Roaring serialization of a set given as chunk bitmaps (the chunk's key and its
/// 1024 words: value v of the chunk is bit v % 64 of word v / 64; keys ascending), as
/// [`GpuSet::serialize`](super::GpuSet::serialize) writes that set (empty chunks left out).
pub fn serialize_bitmaps<'a>(chunks: impl IntoIterator<Item = (u16, &'a [u64])>) -> Vec<u8> {
    let chunks: Chunks = chunks
        .into_iter()
        .filter_map(|(key, bits)| Container::from_bitmap(bits.to_vec()).map(|c| (key, c)))
        .collect();
    roaring::serialize(&chunks)
}

/// Reads a portable Roaring serialization into sorted values (errors as
/// [`GpuSet::deserialize`](super::GpuSet::deserialize)).
pub fn deserialize(data: &[u8]) -> crate::Result<Vec<u32>> {
    Ok(values_from_chunks(&roaring::deserialize(data)?))
}
