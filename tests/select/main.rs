//! Select on a real Vulkan device (lavapipe in CI), exact against the CPU reference
//! (`vkalgo::select::reference`): every key and value type, the three modes over adversarial
//! data (all kept, none kept, alternating, runs of equal keys, signed zeros and NaN bit
//! patterns), counts around the tiles, both paths, the record layer (indirect counts, offsets),
//! GLSL predicates, bad input, and the C ABI.

mod bad_input;
mod c_abi;
#[path = "../common/mod.rs"]
mod common;
mod host;
mod record;

use common::*;
use vkalgo::ash::vk;
use vkalgo::select::reference;
use vkalgo::{
    Context, ElementCount, Error, GpuBuffer, KeyType, MemoryLocation, SelectArgs, SelectDesc, SelectMode,
    SelectPath, SelectTuning, Selection, SortKey, SortValue, ValueType,
};

/// Counts around the CPU drivers' tile (256 x 4) and a few tiles of it.
const COUNTS: &[usize] = &[0, 1, 2, 255, 1023, 1024, 1025, 2047, 2048, 2049, 4097, 70_001];

/// A named flag pattern: the flag of element `i` from the generator.
type FlagPattern = (&'static str, fn(&mut Rng, usize) -> u8);

/// Flag patterns: every flag set (with values other than 1), none, alternating, random, runs.
const FLAG_PATTERNS: &[FlagPattern] = &[
    ("all", |_, i| [1, 0x80, 0xFF, 2][i % 4]),
    ("none", |_, _| 0),
    ("alternating", |_, i| (i % 2) as u8),
    ("random", |r, _| (r.next_u32() % 3 == 0) as u8 * 7),
    ("runs", |_, i| ((i / 300) % 2) as u8),
];

/// Flags of `n` elements by `pattern`.
fn flags_for(n: usize, pattern: usize, rng: &mut Rng) -> Vec<u8> {
    (0..n).map(|i| FLAG_PATTERNS[pattern].1(rng, i)).collect()
}

/// Keys with runs of equal keys (lengths 1 to 5), the type's special values (signed zeros,
/// NaN bit patterns) among them, and runs of distinct-bit values that compare equal.
fn unique_keys<K: TestKey>(n: usize, rng: &mut Rng) -> Vec<K> {
    let specials = K::specials();
    let mut keys = Vec::with_capacity(n);
    while keys.len() < n {
        let pick = rng.next_u32();
        let k = if !specials.is_empty() && pick % 4 == 0 {
            specials[(pick as usize / 4) % specials.len()]
        } else {
            K::from_small((pick % 7) as u64)
        };
        for _ in 0..1 + rng.next_u32() % 5 {
            keys.push(k);
        }
    }
    keys.truncate(n);
    keys
}

/// Values `0..n` as `V` (distinct, so their order shows stability).
trait TestValue: SortValue + PartialEq + std::fmt::Debug {
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

/// A GLSL predicate per key type with its Rust equivalent (reading the params).
/// A GLSL predicate's source and its Rust equivalent on a key and the params.
type Predicate<K> = (&'static str, fn(K, [u32; 4]) -> bool);

fn predicate<K: TestKey>() -> Predicate<K> {
    fn raw<K: SortKey>(k: K) -> u64 {
        let mut b = [0u8; 8];
        b[..std::mem::size_of::<K>()].copy_from_slice(bytemuck::bytes_of(&k));
        u64::from_le_bytes(b)
    }
    match K::KEY_TYPE {
        KeyType::U32 => (
            "bool vkalgo_select(uint k) { return k % vkalgo_params.x == vkalgo_params.y; }",
            |k, p| raw(k) as u32 % p[0] == p[1],
        ),
        KeyType::I32 => (
            "bool vkalgo_select(int k) { return k < int(vkalgo_params.x); }",
            |k, p| (raw(k) as u32 as i32) < p[0] as i32,
        ),
        KeyType::F32 => (
            "bool vkalgo_select(float k) { return k > float(vkalgo_params.x); }",
            |k, p| f32::from_bits(raw(k) as u32) > p[0] as f32,
        ),
        KeyType::U64 => (
            "bool vkalgo_select(uint64_t k) { return (k >> 32) % uint64_t(vkalgo_params.x) == 0ul; }",
            |k, p| (raw(k) >> 32) % p[0] as u64 == 0,
        ),
        KeyType::I64 => (
            "bool vkalgo_select(int64_t k) { return k < int64_t(vkalgo_params.x); }",
            |k, p| (raw(k) as i64) < p[0] as i64,
        ),
        _ => (
            "bool vkalgo_select(double k) { return k > double(vkalgo_params.x); }",
            |k, p| f64::from_bits(raw(k)) > p[0] as f64,
        ),
    }
}

/// The bits of keys (keys compare by bits: NaNs and signed zeros exactly).
fn bits<K: SortKey>(keys: &[K]) -> Vec<u8> {
    bytemuck::cast_slice(keys).to_vec()
}

/// The reference's kept keys and values of `keys` under `selection` (`pred` for IF).
fn expected<K: TestKey, V: TestValue>(
    keys: &[K],
    selection: &Selection,
    pred: impl Fn(K) -> bool,
) -> (Vec<K>, Vec<V>) {
    let keep = reference::kept(keys, selection, pred);
    let values: Vec<V> = (0..keys.len()).map(V::of).collect();
    (reference::select(keys, &keep), reference::select(&values, &keep))
}
