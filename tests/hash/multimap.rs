//! The hash multimap (`vkalgo::HashMultimap`) against its CPU reference
//! (`vkalgo::hash::multimap::reference::MultimapModel`): every key/value layout and bucket
//! size, adversarial data (thousands of one key, duplicate pairs, absent keys, the largest
//! storable key, u64 keys differing only in high bits), nearly full and full tables, exact and
//! short retrieve room, the record layer (indirect counts, u32 offsets from vkalgo's scan, u64
//! offsets, capacity cuts), bad input from Rust and C, and walks from a user shader.

mod bad_input;
mod c_abi;
mod host;
mod record;
mod user_shader;

use super::*;
use vkalgo::hash::multimap::reference::MultimapModel;
use vkalgo::{
    HashMultimap, HashMultimapCountArgs, HashMultimapInsertArgs, HashMultimapOffsets,
    HashMultimapRetrieveArgs, HashMultimapTags,
};

/// Every key/value layout with its packed-insert choices: (key, value, packed).
const LAYOUTS: [(HashKeyType, HashValueType, Option<bool>); 5] = [
    (HashKeyType::U32, HashValueType::U32, Some(true)),
    (HashKeyType::U32, HashValueType::U32, Some(false)),
    (HashKeyType::U32, HashValueType::U64, None),
    (HashKeyType::U64, HashValueType::U32, None),
    (HashKeyType::U64, HashValueType::U64, None),
];

/// A multimap of `capacity` slots with the given insert and bucket size.
fn multimap<K: HashTestKey, V: HashTestValue>(
    ctx: &Context,
    capacity: u64,
    packed: Option<bool>,
    bucket_bytes: u32,
) -> HashMultimap {
    let desc = HashMapDesc {
        packed_insert: packed,
        bucket_bytes: Some(bucket_bytes),
        ..desc::<K, V>(capacity)
    };
    let mm = ctx.hash_multimap(&desc).unwrap();
    assert_eq!(mm.bucket_bytes(), bucket_bytes);
    assert_eq!(
        mm.packed_insert(),
        packed.unwrap_or(ctx.profile().int64_atomics)
            && K::TYPE == HashKeyType::U32
            && V::TYPE == HashValueType::U32
    );
    mm
}

fn to64<K: HashTestKey>(keys: &[K]) -> Vec<u64> {
    keys.iter().map(|k| k.to_u64()).collect()
}

fn values64<V: HashTestValue>(values: &[V]) -> Vec<u64> {
    values.iter().map(|v| v.to_u64()).collect()
}

/// Inserts through the host layer (expected to succeed) and into the model.
fn insert_all<K: HashTestKey, V: HashTestValue>(
    mm: &HashMultimap,
    model: &mut MultimapModel,
    keys: &[K],
    values: &[V],
) {
    mm.insert(keys, values).unwrap();
    model.insert(&to64(keys), &values64(values));
}

/// Counts and retrieves `queries` through the host layer and compares both with the model.
fn check_queries<K: HashTestKey, V: HashTestValue>(
    mm: &HashMultimap,
    model: &MultimapModel,
    queries: &[K],
    what: &str,
) {
    let mut counts = vec![u32::MAX; queries.len()];
    mm.count(queries, &mut counts).unwrap();
    let counts64: Vec<u64> = counts.iter().map(|&c| c as u64).collect();
    let q = to64(queries);
    model
        .check_counts(&q, &counts64)
        .unwrap_or_else(|e| panic!("{what}: count: {e}"));
    let (offsets, values): (Vec<u64>, Vec<V>) = mm.retrieve(queries).unwrap();
    model
        .check_retrieve(&q, &offsets, &values64(&values))
        .unwrap_or_else(|e| panic!("{what}: retrieve: {e}"));
    assert_eq!(mm.size().unwrap(), model.len(), "{what}: size");
}

/// Adversarial pairs: `hot` copies of one key (distinct values), a duplicated pair, a pool of
/// keys each several times, the largest storable key, and (u64 keys) keys that differ only in
/// their high bits. Returns (keys, values, the hot key, keys that are never inserted).
fn adversarial<K: HashTestKey, V: HashTestValue>(rng: &mut Rng, hot: usize) -> (Vec<K>, Vec<V>, K, Vec<K>) {
    let hot_key = K::random(rng);
    let mut keys = vec![hot_key; hot];
    let mut values: Vec<V> = (0..hot as u64).map(V::from_u64).collect();
    let pair_key = K::random(rng);
    let pair_value = V::from_u64(rng.next_u64());
    keys.extend(std::iter::repeat(pair_key).take(100));
    values.extend(std::iter::repeat(pair_value).take(100));
    let pool: Vec<K> = (0..200).map(|_| K::random(rng)).collect();
    for i in 0..1000 {
        keys.push(pool[rng.next_u32() as usize % pool.len()]);
        values.push(V::from_u64(if i % 3 == 0 { 7 } else { rng.next_u64() }));
    }
    let largest = K::from_u64(K::MAX - 2); // the reserved keys minus one
    keys.extend([largest; 5]);
    values.extend((0..5).map(|i| V::from_u64(i * 0x1_0000_0001)));
    let base = rng.next_u64() & 0xFFFF_FFFF;
    let high: Vec<K> = if K::MAX == u64::MAX {
        [0u64, 1 << 32, 1 << 40, 1 << 63, 0xFFFF_FFFE_0000_0000]
            .iter()
            .map(|h| K::from_u64(base | h))
            .collect()
    } else {
        vec![K::from_u64(base)]
    };
    for (i, &k) in high.iter().enumerate() {
        keys.extend([k; 3]);
        values.extend((0..3).map(|j| V::from_u64((i * 3 + j) as u64)));
    }
    // Shuffle so that the hot key's copies meet the others in every workgroup.
    for i in (1..keys.len()).rev() {
        let j = rng.next_u64() as usize % (i + 1);
        keys.swap(i, j);
        values.swap(i, j);
    }
    let inserted: std::collections::HashSet<u64> = to64(&keys).into_iter().collect();
    let mut absent: Vec<K> = (0..50)
        .map(|_| K::random(rng))
        .filter(|k| !inserted.contains(&k.to_u64()))
        .collect();
    absent.push(K::from_u64(0));
    absent.push(K::from_u64(base ^ 1));
    absent.retain(|k| !inserted.contains(&k.to_u64()));
    (keys, values, hot_key, absent)
}

/// Queries over everything inserted and the absent keys, each twice (the same key twice in
/// one batch), the hot key first.
fn queries_of<K: HashTestKey>(keys: &[K], hot: K, absent: &[K]) -> Vec<K> {
    let mut distinct: Vec<K> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for &k in std::iter::once(&hot).chain(keys).chain(absent) {
        if seen.insert(k.to_u64()) {
            distinct.push(k);
        }
    }
    let mut q = distinct.clone();
    q.extend(distinct.iter().rev());
    q
}

/// A host-visible buffer holding `bytes` bytes of poison, for the record-layer tests.
fn poisoned_bytes(ctx: &Context, bytes: u64) -> GpuBuffer {
    let mut buf = GpuBuffer::new(ctx, bytes, MemoryLocation::CpuToGpu, "multimap test").unwrap();
    buf.mapped().unwrap().fill(0xA5);
    buf
}

/// Writes `data` at byte `at` of a host-visible buffer.
fn put<T: bytemuck::Pod>(buf: &mut GpuBuffer, at: u64, data: &[T]) {
    let bytes: &[u8] = bytemuck::cast_slice(data);
    buf.mapped().unwrap()[at as usize..at as usize + bytes.len()].copy_from_slice(bytes);
}

/// Reads `n` elements at byte `at` of a host-visible buffer.
fn get<T: bytemuck::Pod>(buf: &mut GpuBuffer, at: u64, n: usize) -> Vec<T> {
    let size = n * std::mem::size_of::<T>();
    let mut out = vec![T::zeroed(); n];
    bytemuck::cast_slice_mut::<T, u8>(&mut out)
        .copy_from_slice(&buf.mapped().unwrap()[at as usize..at as usize + size]);
    out
}

/// Runs `f` for every layout and both bucket sizes, skipping u64 layouts on devices without
/// 64-bit atomics.
macro_rules! for_every_layout {
    ($ctx:expr, |$K:ident, $V:ident, $packed:ident, $bucket:ident| $body:block) => {
        for (key, value, $packed) in LAYOUTS {
            let wide = key == HashKeyType::U64 || value == HashValueType::U64;
            if (wide || $packed == Some(true)) && !$ctx.profile().int64_atomics {
                continue;
            }
            for $bucket in [32u32, 64] {
                match (key, value) {
                    (HashKeyType::U32, HashValueType::U32) => {
                        type $K = u32;
                        type $V = u32;
                        $body
                    }
                    (HashKeyType::U32, HashValueType::U64) => {
                        type $K = u32;
                        type $V = u64;
                        $body
                    }
                    (HashKeyType::U64, HashValueType::U32) => {
                        type $K = u64;
                        type $V = u32;
                        $body
                    }
                    _ => {
                        type $K = u64;
                        type $V = u64;
                        $body
                    }
                }
            }
        }
    };
}
use for_every_layout;
