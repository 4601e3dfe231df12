//! The CPU side of the checks on scoped threads: random data, copies, the reference sort, the
//! first difference.

use std::time::Instant;

/// `dst.copy_from_slice(src)` on several threads.
pub fn par_copy(dst: &mut [u8], src: &[u8], threads: usize) {
    let per = dst.len().div_ceil(threads).max(1 << 20);
    std::thread::scope(|s| {
        for (d, c) in dst.chunks_mut(per).zip(src.chunks(per)) {
            s.spawn(move || d.copy_from_slice(c));
        }
    });
}

/// A bijective mix of a u32 (xorshift-multiply steps, each invertible).
pub fn mix32(mut x: u32) -> u32 {
    x = x.wrapping_mul(0x9E37_79B1);
    x ^= x >> 16;
    x = x.wrapping_mul(0x85EB_CA6B);
    x ^= x >> 13;
    x = x.wrapping_mul(0xC2B2_AE35);
    x ^ (x >> 16)
}

/// A pseudo-random u32 of element `i` (splitmix64 finalizer of i and the seed).
pub fn random_at(i: u64, seed: u64) -> u32 {
    let mut z = i.wrapping_add(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as u32
}

/// `n` pseudo-random u32 (element i is random_at(i, seed)), generated on several threads.
pub fn par_random(n: u64, seed: u64, threads: usize) -> Vec<u32> {
    let mut v = vec![0u32; n as usize];
    let per = (n as usize).div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (c, chunk) in v.chunks_mut(per).enumerate() {
            s.spawn(move || {
                let first = (c * per) as u64;
                for (j, x) in chunk.iter_mut().enumerate() {
                    *x = random_at(first + j as u64, seed);
                }
            });
        }
    });
    v
}

/// `keys` sorted ascending: bucketed on several threads by `top(key)` (0..256, monotonic in
/// the key), then each bucket sorted with the standard library.
pub fn cpu_sort<T>(keys: &[T], top: fn(T) -> usize, threads: usize) -> Vec<T>
where
    T: Copy + Ord + Send + Sync + Default,
{
    let per = keys.len().div_ceil(threads).max(1);
    // Each thread splits its part of the input into 256 buckets.
    let parts: Vec<Vec<Vec<T>>> = std::thread::scope(|s| {
        let handles: Vec<_> = keys
            .chunks(per)
            .map(|chunk| {
                s.spawn(move || {
                    let mut buckets: Vec<Vec<T>> = (0..256)
                        .map(|_| Vec::with_capacity(chunk.len() / 256 * 11 / 10))
                        .collect();
                    for &k in chunk {
                        buckets[top(k)].push(k);
                    }
                    buckets
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut out = vec![T::default(); keys.len()];
    // The output slice of every bucket, dealt round-robin to the threads.
    let mut slices: Vec<Vec<(usize, &mut [T])>> = (0..threads).map(|_| Vec::new()).collect();
    let mut rest: &mut [T] = &mut out;
    for b in 0..256 {
        let len: usize = parts.iter().map(|p| p[b].len()).sum();
        let (head, tail) = rest.split_at_mut(len);
        slices[b % threads].push((b, head));
        rest = tail;
    }
    let parts = &parts;
    std::thread::scope(|s| {
        for mine in slices {
            s.spawn(move || {
                for (b, slice) in mine {
                    let mut at = 0;
                    for p in parts {
                        slice[at..at + p[b].len()].copy_from_slice(&p[b]);
                        at += p[b].len();
                    }
                    slice.sort_unstable();
                }
            });
        }
    });
    out
}

/// The first index where `a` and `b` differ (several threads), or None.
pub fn first_difference(a: &[u32], b: &[u32], threads: usize) -> Option<usize> {
    if a.len() != b.len() {
        return Some(a.len().min(b.len()));
    }
    let per = a.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = a
            .chunks(per)
            .zip(b.chunks(per))
            .enumerate()
            .map(|(c, (x, y))| {
                s.spawn(move || x.iter().zip(y).position(|(p, q)| p != q).map(|i| c * per + i))
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().unwrap()).min()
    })
}

pub fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}
