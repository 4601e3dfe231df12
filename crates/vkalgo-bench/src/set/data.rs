//! The set benchmark's data: the cases' values, the CPU reference of the operations, whole
//! bitmaps and their Roaring serialization.

use super::*;

pub(super) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

/// Sorted distinct values of a case.
pub(super) fn case_values(case: &str, n: usize, seed: u64) -> Vec<u32> {
    let mut r = xorshift(seed);
    let mut v: Vec<u32> = match case {
        "sparse" => (0..n).map(|_| (r() >> 32) as u32).collect(),
        "dense" => (0..n).map(|_| ((r() >> 32) % (2 * n as u64)) as u32).collect(),
        // n / k chunks spread over the universe (the same in both sets), about k random values
        // each: pairs of arrays of one block (k = 32) or two (k = 136).
        "arrays" | "long-arrays" => {
            let k = if case == "arrays" { 32 } else { 136 };
            (0..n)
                .map(|i| ((((i / k) as u32).wrapping_mul(61) & 0xFFFF) << 16) | ((r() >> 48) as u32))
                .collect()
        }
        _ => {
            let mut v = Vec::with_capacity(n + 4096);
            while v.len() < n {
                let start = (r() >> 32) as u32;
                let len = 1 + (r() % 4096) as u32;
                v.extend((0..len).map(|i| start.wrapping_add(i)));
            }
            v
        }
    };
    v.sort_unstable();
    v.dedup();
    v
}

pub(super) fn merge(a: &[u32], b: &[u32], op: SetOp) -> Vec<u32> {
    let (mut i, mut j, mut out) = (0, 0, Vec::with_capacity(a.len() + b.len()));
    while i < a.len() || j < b.len() {
        if j == b.len() || (i < a.len() && a[i] < b[j]) {
            if op != SetOp::And {
                out.push(a[i]);
            }
            i += 1;
        } else if i == a.len() || b[j] < a[i] {
            if matches!(op, SetOp::Or | SetOp::Xor) {
                out.push(b[j]);
            }
            j += 1;
        } else {
            if matches!(op, SetOp::And | SetOp::Or) {
                out.push(a[i]);
            }
            i += 1;
            j += 1;
        }
    }
    out
}

/// The range of the `range_cardinality` row (bench/croaring_set.py times the same one).
pub(super) const RANGE: (u64, u64) = ((1 << 30) + 12_345, 3 * (1 << 30) + 6_789);

/// Words of a chunk's bitmap (u64).
pub(super) const CHUNK_WORDS: usize = 1024;
/// Chunks of the universe.
pub(super) const ALL_CHUNKS: usize = 65536;

/// A random bitmap of the first `chunks` chunks, every chunk about half full.
pub(super) fn half_full_bitmap(chunks: usize, seed: u64) -> Vec<u64> {
    let mut r = xorshift(seed);
    (0..chunks * CHUNK_WORDS).map(|_| r()).collect()
}

/// The Roaring portable serialization of consecutive chunk bitmaps from chunk 0 on, as
/// vkalgo writes it.
pub(super) fn serialize_bitmaps(words: &[u64]) -> Vec<u8> {
    reference::serialize_bitmaps(words.chunks(CHUNK_WORDS).enumerate().map(|(c, w)| (c as u16, w)))
}
