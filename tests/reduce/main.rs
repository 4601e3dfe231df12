//! Reduce on a real Vulkan device (lavapipe in CI), exact against the CPU reference
//! (`vkalgo::reduce::reference`): every key type and operation over the sort's distributions and
//! special values, counts around the tiles and the grid, the record layer (indirect counts,
//! offsets, tunings, a reused scratch), bad input, and the C ABI.

mod bad_input;
mod c_abi;
#[path = "../common/mod.rs"]
mod common;
mod host;
mod record;

use common::*;
use vkalgo::reduce::reference;
use vkalgo::{
    Context, ElementCount, Error, GpuBuffer, KeyType, MemoryLocation, ReduceArgs, ReduceDesc, ReduceOp,
    ReduceTuning, SortKey,
};

/// Keys for a reduce test: the distribution's words as keys, the type's special values spread
/// in; for float sums multiples of 0.75 in [-1.5, 1.5] (every partial sum of up to a few
/// million of them is exact, so any order gives the reference's result).
fn keys_for<K: TestKey>(n: usize, dist: &Distribution, op: ReduceOp, rng: &mut Rng) -> Vec<K> {
    let float = matches!(K::KEY_TYPE, KeyType::F32 | KeyType::F64);
    if float && op == ReduceOp::Sum {
        return (0..n)
            .map(|i| K::from_small(6 + (dist.1(rng, i) % 5) as u64))
            .collect();
    }
    keys_with_specials(n, dist, rng)
}

/// The bits of a key (keys compare by bits: NaNs and signed zeros exactly).
fn bits<K: SortKey>(k: K) -> Vec<u8> {
    bytemuck::bytes_of(&k).to_vec()
}
