//! The data of the hash benchmark's multimap case, as bench/cuda/cuco_bench.cu's `multimap`
//! makes it, and the counts and values its queries must get.

use super::unique_keys;

/// The case's data: pair i is (keys[i % distinct], i); query q is keys[q] for even q (present)
/// and keys[distinct + q] for odd q (absent); and the counts the queries must get.
pub(super) struct Pairs {
    pub(super) distinct: u64,
    pub(super) pair_keys: Vec<u32>,
    pub(super) queries: Vec<u32>,
    pub(super) counts: Vec<u32>,
}

impl Pairs {
    /// cuco_bench's generator for `n` pairs of `mult` values per key.
    pub(super) fn new(n: u64, mult: u64) -> Pairs {
        let distinct = (n / mult).max(1);
        let keys = unique_keys(2 * distinct as usize, 0x1b87_3593);
        let pair_keys = (0..n).map(|i| keys[(i % distinct) as usize]).collect();
        let present = |q: u64| q % 2 == 0;
        let queries = (0..distinct)
            .map(|q| keys[if present(q) { q } else { distinct + q } as usize])
            .collect();
        let counts = (0..distinct)
            .map(|q| match present(q) {
                true => (n / distinct + u64::from(q < n % distinct)) as u32,
                false => 0,
            })
            .collect();
        Pairs {
            distinct,
            pair_keys,
            queries,
            counts,
        }
    }

    /// How many values the queries get in all.
    pub(super) fn total(&self) -> u64 {
        self.counts.iter().map(|&c| c as u64).sum()
    }

    /// The values retrieved for query `q`, sorted: the indices of the pairs of its key.
    pub(super) fn values_of(&self, q: u64) -> Vec<u32> {
        let step = self.distinct as usize;
        let n = self.pair_keys.len();
        match q % 2 {
            0 => (q as usize..n).step_by(step).map(|i| i as u32).collect(),
            _ => Vec::new(),
        }
    }
}
