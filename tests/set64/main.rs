//! GPU sets of u64 ([`GpuSet64`]) on a real Vulkan device (lavapipe in CI), every result
//! compared exactly with a CPU model (`BTreeSet<u64>`): values around the 2^32 boundaries
//! (high keys 0, 1 and 2^32 - 1), 0 and 2^64 - 1, many high keys of one value each, dense and
//! full chunks, runs, empty operands, operations where one side lacks a key; the Roaring64
//! format (round trips, malformed input, the exchange with CRoaring through pyroaring's
//! `BitMap64`, damaged files against CRoaring's reader) and the C ABI.

mod c_abi;
#[path = "../common/mod.rs"]
mod common;
mod fuzz;
mod host;
mod interchange;
mod malformed;
mod ops;

use common::*;
use std::collections::BTreeSet;
use vkalgo::set64::reference;
use vkalgo::{Error, GpuSet64, SetOp};

fn model_of(values: &[u64]) -> BTreeSet<u64> {
    values.iter().copied().collect()
}

/// The high keys of a model's values, ascending.
fn high_keys_of(model: &BTreeSet<u64>) -> Vec<u32> {
    let keys: BTreeSet<u32> = model.iter().map(|&v| (v >> 32) as u32).collect();
    keys.into_iter().collect()
}

/// Compares everything observable of `set` with `model`: values, cardinality, emptiness,
/// high keys (no empty 32-bit set kept), minimum, maximum, the serialization (against the
/// reference writer) and its size.
fn check(set: &GpuSet64, model: &BTreeSet<u64>, what: &str) {
    let got = set.to_vec().unwrap();
    let want: Vec<u64> = model.iter().copied().collect();
    assert_eq!(got.len(), want.len(), "{what}: to_vec length");
    assert!(
        got == want,
        "{what}: values differ (first difference at {:?})",
        got.iter().zip(&want).position(|(a, b)| a != b)
    );
    assert_eq!(
        set.cardinality().unwrap(),
        want.len() as u64,
        "{what}: cardinality"
    );
    assert_eq!(set.is_empty(), want.is_empty(), "{what}: is_empty");
    assert_eq!(set.high_keys(), high_keys_of(model), "{what}: high keys");
    assert_eq!(set.minimum().unwrap(), want.first().copied(), "{what}: minimum");
    assert_eq!(set.maximum().unwrap(), want.last().copied(), "{what}: maximum");
    let bytes = set.serialize().unwrap();
    assert!(bytes == reference::serialize(model), "{what}: serialization");
    assert_eq!(
        set.serialized_size().unwrap(),
        bytes.len() as u64,
        "{what}: serialized size"
    );
}

/// Values at and around the edges of the 2^32 boundaries: high keys 0, 1, 2 and 2^32 - 1, the
/// values 0 and 2^64 - 1, the last value below 2^32 and the first above.
fn edge_values() -> Vec<u64> {
    let mut v = vec![0, 1, 65535, 65536, u32::MAX as u64 - 1, u32::MAX as u64];
    v.extend([1 << 32, (1 << 32) + 1, (2 << 32) - 1, 2 << 32, (2 << 32) + 65536]);
    v.extend([u64::MAX - (1 << 32) + 1, u64::MAX - 65536, u64::MAX - 1, u64::MAX]);
    v
}

/// A mix of the data the issue names: edge values, many high keys of one value each, a dense
/// chunk (a bitmap), a full chunk, runs crossing 2^32, sparse values under a few keys.
fn mixed_values(rng: &mut Rng, keys: u32) -> Vec<u64> {
    let mut v = edge_values();
    // Many high keys of one value each.
    v.extend((0..keys).map(|i| ((rng.next_u32() | 1) as u64) << 32 | (i as u64 * 7919)));
    // A dense chunk of high key 1 (a bitmap), and a full chunk of high key 2^32 - 1.
    v.extend((0..9000).map(|_| (1 << 32) | (5 << 16) | (rng.next_u32() as u64 & 0xFFFF)));
    v.extend((0..65536u64).map(|i| (u32::MAX as u64) << 32 | (9 << 16) | i));
    // Runs crossing 2^32 and 2^33.
    v.extend((1u64 << 32) - 3000..(1u64 << 32) + 3000);
    v.extend((2u64 << 32) - 70..(2u64 << 32) + 70);
    // Sparse values of a few high keys.
    v.extend((0..3000).map(|_| (rng.next_u64() % 4) << 32 | rng.next_u32() as u64));
    v
}
