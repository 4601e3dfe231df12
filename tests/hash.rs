//! GPU hash map on a real Vulkan device (lavapipe in CI), checked against the CPU model
//! (`vkalgo::hash::reference::HashModel`): random operation sequences with duplicates in
//! batches, loads past 0.9, every key/value layout, capacities that are not powers of two,
//! overfilled tables, reserved keys, the record layer (offsets, indirect counts, per-key
//! outputs), bad input through the Rust API and the C ABI, and lookups from a user shader
//! compiled at test time against glsl/public/vkalgo_hash_map.glsl.

mod common;
use common::*;
use vkalgo::ash::vk;
use vkalgo::hash::reference::HashModel;
use vkalgo::hash::{HashKey, HashValue};
use vkalgo::{
    BufferRange, Context, ElementCount, Error, GpuBuffer, HashEraseArgs, HashFindArgs, HashInsertArgs,
    HashKeyType, HashMap, HashMapDesc, HashRehashArgs, HashRetrieveArgs, HashSizeArgs, HashTuning,
    HashValueType, InsertStatus, MemoryLocation,
};

/// Key types with test helpers.
trait TestKey: HashKey {
    fn from_u64(x: u64) -> Self;
    /// A random storable key (every bit pattern except the two reserved ones).
    fn random(rng: &mut Rng) -> Self;
    const MAX: u64;
}

impl TestKey for u32 {
    fn from_u64(x: u64) -> Self {
        x as u32
    }
    fn random(rng: &mut Rng) -> Self {
        loop {
            let k = rng.next_u32();
            if !k.is_reserved() {
                return k;
            }
        }
    }
    const MAX: u64 = u32::MAX as u64;
}

impl TestKey for u64 {
    fn from_u64(x: u64) -> Self {
        x
    }
    fn random(rng: &mut Rng) -> Self {
        loop {
            // Low-entropy keys too: the high half often 0 or all ones.
            let k = match rng.next_u32() % 4 {
                0 => rng.next_u64() & 0xFFFF_FFFF,
                1 => rng.next_u64() | 0xFFFF_FFFF_0000_0000,
                _ => rng.next_u64(),
            };
            if !k.is_reserved() {
                return k;
            }
        }
    }
    const MAX: u64 = u64::MAX;
}

trait TestValue: HashValue {
    fn from_u64(x: u64) -> Self;
    fn to_u64(self) -> u64;
}

impl TestValue for u32 {
    fn from_u64(x: u64) -> Self {
        x as u32
    }
    fn to_u64(self) -> u64 {
        self as u64
    }
}

impl TestValue for u64 {
    fn from_u64(x: u64) -> Self {
        x
    }
    fn to_u64(self) -> u64 {
        self
    }
}

fn desc<K: TestKey, V: TestValue>(capacity: u64) -> HashMapDesc {
    HashMapDesc::new(K::TYPE, V::TYPE, capacity)
}

/// Inserts through the host layer with per-key status and applies the outcome to the model.
/// Returns how many keys failed.
fn insert<K: TestKey, V: TestValue>(map: &HashMap, model: &mut HashModel, keys: &[K], values: &[V]) -> usize {
    let mut status = vec![InsertStatus::Reserved; keys.len()];
    let result = map.insert_with_status(keys, values, &mut status);
    let failed = status.iter().filter(|s| !s.stored()).count();
    match result {
        Ok(()) => assert_eq!(failed, 0, "insert succeeded but {failed} keys report not stored"),
        Err(Error::TableFull(m)) => {
            assert!(failed > 0, "TableFull ({m}) but every status says stored");
            assert!(m.contains(&format!("{failed} of")), "{m}");
        }
        Err(e) => panic!("insert: {e}"),
    }
    // All occurrences of one key share its fate.
    let mut fate = std::collections::HashMap::new();
    for (k, s) in keys.iter().zip(&status) {
        assert_ne!(*s, InsertStatus::Reserved);
        let stored = s.stored();
        assert_eq!(
            *fate.entry(k.to_u64()).or_insert(stored),
            stored,
            "key {k:?}: mixed statuses"
        );
    }
    // A key already present is never reported Inserted; one new key is Inserted exactly once.
    let mut inserted = std::collections::HashSet::new();
    for (k, s) in keys.iter().zip(&status) {
        if *s == InsertStatus::Inserted {
            assert!(
                !model.contains(k.to_u64()),
                "key {k:?} was present but reports Inserted"
            );
            assert!(
                inserted.insert(k.to_u64()),
                "key {k:?} Inserted twice in one batch"
            );
        }
        if *s == InsertStatus::Full {
            assert!(!model.contains(k.to_u64()), "present key {k:?} reported Full");
        }
    }
    let keys64: Vec<u64> = keys.iter().map(|k| k.to_u64()).collect();
    let values64: Vec<u64> = values.iter().map(|v| v.to_u64()).collect();
    let stored: Vec<bool> = status.iter().map(|s| s.stored()).collect();
    model.insert(&keys64, &values64, &stored);
    failed
}

/// Looks keys up (find with found flags, and contains) and checks them against the model.
fn check_lookups<K: TestKey, V: TestValue>(map: &HashMap, model: &mut HashModel, keys: &[K], what: &str) {
    let mut values = vec![V::from_u64(0xDEAD_BEEF); keys.len()];
    let mut found = vec![false; keys.len()];
    map.find(keys, &mut values, Some(&mut found)).unwrap();
    for i in 0..keys.len() {
        if let Err(e) = model.check_find(keys[i].to_u64(), found[i], values[i].to_u64()) {
            panic!("{what}: find: {e}");
        }
    }
    let mut contained = vec![false; keys.len()];
    map.contains(keys, &mut contained).unwrap();
    assert!(contained == found, "{what}: contains disagrees with find");
    // find without found flags gives the same values.
    let mut values2 = vec![V::from_u64(1); keys.len()];
    map.find(keys, &mut values2, None).unwrap();
    assert!(values2 == values, "{what}: find without flags differs");
}

fn check_size(map: &HashMap, model: &HashModel, what: &str) {
    assert_eq!(map.size().unwrap(), model.len() as u64, "{what}: size");
}

fn check_retrieve<K: TestKey, V: TestValue>(map: &HashMap, model: &mut HashModel, what: &str) {
    let (keys, values): (Vec<K>, Vec<V>) = map.retrieve_all().unwrap();
    let k: Vec<u64> = keys.iter().map(|k| k.to_u64()).collect();
    let v: Vec<u64> = values.iter().map(|v| v.to_u64()).collect();
    if let Err(e) = model.check_entries(&k, &v) {
        panic!("{what}: {e}");
    }
}

/// A random operation sequence on one map, compared with the model after every step.
fn model_sequence<K: TestKey, V: TestValue>(
    ctx: &Context,
    capacity: u64,
    packed: Option<bool>,
    seed: u64,
    steps: usize,
) {
    // Odd seeds use 64-byte buckets, even ones the default (32).
    let bucket_bytes = (seed % 2 == 1).then_some(64);
    model_sequence_tuned::<K, V>(ctx, capacity, packed, bucket_bytes, None, seed, steps)
}

fn model_sequence_tuned<K: TestKey, V: TestValue>(
    ctx: &Context,
    capacity: u64,
    packed: Option<bool>,
    bucket_bytes: Option<u32>,
    tuning: Option<HashTuning>,
    seed: u64,
    steps: usize,
) {
    let what = format!(
        "{:?}/{:?} cap {capacity} packed {packed:?} bucket {bucket_bytes:?} {tuning:?} seed {seed}",
        K::TYPE,
        V::TYPE
    );
    let mut rng = Rng(seed);
    let mut map = HashMap::new(
        ctx,
        &HashMapDesc {
            packed_insert: packed,
            bucket_bytes,
            tuning,
            ..desc::<K, V>(capacity)
        },
    )
    .unwrap();
    assert_eq!(map.bucket_bytes(), bucket_bytes.unwrap_or(32), "{what}");
    assert!(map.capacity() >= capacity && map.capacity() % map.bucket_slots() as u64 == 0);
    let mut model = HashModel::new();
    // Keys come from a pool (so inserts overwrite and erases hit); `misses` never go in.
    let pool: Vec<K> = (0..(capacity * 3 / 2) as usize)
        .map(|_| K::random(&mut rng))
        .collect();
    let misses: Vec<K> = (0..64)
        .map(|_| K::random(&mut rng))
        .filter(|k| !pool.contains(k))
        .chain([
            K::from_u64(0),
            K::from_u64(K::MAX - 2),
            K::from_u64(K::MAX),
            K::from_u64(K::MAX - 1),
        ])
        .collect();
    let pick = |rng: &mut Rng, n: usize| -> Vec<K> {
        (0..n)
            .map(|_| pool[rng.next_u32() as usize % pool.len()])
            .collect()
    };
    let mut peak_load = 0.0f64;
    for step in 0..steps {
        let cap = map.capacity() as usize;
        let op = if step == steps / 2 {
            100
        } else {
            rng.next_u32() % 100
        };
        match op {
            // insert a batch (new keys, present keys, duplicates in the batch)
            0..=34 => {
                let n = 1 + rng.next_u32() as usize % (cap / 4).max(1);
                let mut keys = pick(&mut rng, n);
                for i in 0..n / 8 {
                    keys[(i * 7) % n] = keys[(i * 3) % n]; // duplicates
                }
                let values: Vec<V> = (0..n).map(|_| V::from_u64(rng.next_u64())).collect();
                insert(&map, &mut model, &keys, &values);
            }
            35..=49 => {
                let n = 1 + rng.next_u32() as usize % (cap / 6).max(1);
                let mut keys = pick(&mut rng, n);
                keys.push(misses[step % misses.len()]);
                let k64: Vec<u64> = keys.iter().map(|k| k.to_u64()).collect();
                let expected = model.erase(&k64);
                assert_eq!(map.erase(&keys).unwrap(), expected, "{what}: erase count");
            }
            50..=74 => {
                let n = 1 + rng.next_u32() as usize % cap.max(1);
                let mut keys = pick(&mut rng, n);
                keys.extend_from_slice(&misses);
                check_lookups::<K, V>(&map, &mut model, &keys, &what);
            }
            75..=82 => check_retrieve::<K, V>(&map, &mut model, &what),
            83..=92 => {
                let size = model.len() as u64;
                let new_capacity = match rng.next_u32() % 3 {
                    0 => map.capacity(),
                    1 => size + size / 8 + 1 + rng.next_u64() % 64,
                    _ => (capacity + rng.next_u64() % capacity).max(size + size / 8 + 1),
                };
                map.rehash(new_capacity).unwrap();
                assert_eq!(
                    map.stats().unwrap().tombstones,
                    0,
                    "{what}: tombstones after rehash"
                );
            }
            93..=95 => {
                map.clear().unwrap();
                model.clear();
            }
            96..=99 => {}
            // fill to ~0.95 load (counting tombstones as occupied) with new keys, then look up
            _ => {
                let stats = map.stats().unwrap();
                let occupied = stats.size + stats.tombstones;
                let target = (map.capacity() as f64 * 0.95) as u64;
                let n = target.saturating_sub(occupied) as usize;
                let mut keys = Vec::with_capacity(n);
                while keys.len() < n {
                    let k = K::random(&mut rng);
                    if !model.contains(k.to_u64()) && !misses.contains(&k) {
                        keys.push(k);
                    }
                }
                let values: Vec<V> = (0..n).map(|_| V::from_u64(rng.next_u64())).collect();
                insert(&map, &mut model, &keys, &values);
                let mut probe = pick(&mut rng, 500);
                probe.extend_from_slice(&keys);
                probe.extend_from_slice(&misses);
                check_lookups::<K, V>(&map, &mut model, &probe, &what);
            }
        }
        check_size(&map, &model, &format!("{what} step {step} op {op}"));
        let stats = map.stats().unwrap();
        peak_load = peak_load.max((stats.size + stats.tombstones) as f64 / map.capacity() as f64);
    }
    check_retrieve::<K, V>(&map, &mut model, &what);
    let all: Vec<K> = pool.iter().chain(&misses).copied().collect();
    check_lookups::<K, V>(&map, &mut model, &all, &what);
    assert!(peak_load >= 0.9, "{what}: peak load {peak_load:.3} < 0.9");
}

#[test]
fn model_random_sequences_every_layout() {
    let ctx = context();
    // Capacities that are not powers of two (they round up to 4 * prime slots).
    for seed in 0..3 {
        model_sequence::<u32, u32>(&ctx, 3001 + seed * 1000, None, 1 + seed * 10, 60);
        model_sequence::<u32, u32>(&ctx, 1000 + seed * 77, Some(false), 2 + seed * 10, 60);
        model_sequence::<u32, u64>(&ctx, 2222 + seed, None, 3 + seed * 10, 60);
        model_sequence::<u64, u32>(&ctx, 1777 + seed * 3, None, 4 + seed * 10, 60);
        model_sequence::<u64, u64>(&ctx, 4099 + seed * 100, None, 5 + seed * 10, 60);
    }
    // Tiny maps: 8 slots (2 buckets) and 12 (3 buckets).
    model_sequence::<u32, u32>(&ctx, 5, None, 8, 60);
    model_sequence::<u64, u64>(&ctx, 9, None, 9, 60);
    // Bigger than 4 * PROBE_LIMIT slots: bounded probing, not whole-table scans.
    model_sequence::<u32, u32>(&ctx, 40_000, None, 6, 16);
    model_sequence::<u64, u64>(&ctx, 20_011, None, 7, 12);
    assert_no_validation_messages(&ctx);
}

/// Fill in batches to 0.97 load with no failure, and everything stays findable.
#[test]
fn high_load_batches_to_097() {
    let ctx = context();
    fn fill<K: TestKey, V: TestValue>(ctx: &Context, capacity: u64, seed: u64) {
        let bucket_bytes = if seed % 2 == 1 { 32 } else { 64 };
        let map = HashMap::new(
            ctx,
            &HashMapDesc {
                bucket_bytes: Some(bucket_bytes),
                ..desc::<K, V>(capacity)
            },
        )
        .unwrap();
        let mut model = HashModel::new();
        let mut rng = Rng(seed);
        let target = (map.capacity() as f64 * 0.97) as usize;
        let batch = map.capacity() as usize / 20;
        let mut keys_all = Vec::new();
        while model.len() < target {
            let n = batch.min(target - model.len());
            let mut keys = Vec::with_capacity(n);
            while keys.len() < n {
                let k = K::random(&mut rng);
                if !model.contains(k.to_u64()) && !keys.contains(&k) {
                    keys.push(k);
                }
            }
            let values: Vec<V> = keys.iter().map(|k| V::from_u64(k.to_u64() ^ 0x5555)).collect();
            let failed = insert(&map, &mut model, &keys, &values);
            assert_eq!(
                failed,
                0,
                "load {:.3}",
                model.len() as f64 / map.capacity() as f64
            );
            keys_all.extend(keys);
        }
        check_size(&map, &model, "0.97");
        keys_all.extend((0..1000).map(|_| K::random(&mut rng)));
        check_lookups::<K, V>(&map, &mut model, &keys_all, "0.97");
        check_retrieve::<K, V>(&map, &mut model, "0.97");
    }
    fill::<u32, u32>(&ctx, 100_000, 11);
    fill::<u32, u32>(&ctx, 100_000, 12);
    fill::<u64, u64>(&ctx, 30_000, 13);
    fill::<u64, u64>(&ctx, 30_000, 14);
    fill::<u32, u64>(&ctx, 9_000, 15);
    assert_no_validation_messages(&ctx);
}

/// A small table overfilled: the call returns TableFull, exactly the free slots are used
/// (small tables are scanned whole), stored keys stay findable, size stays exact; erased slots
/// of the full table are reused by later inserts (tombstones counted exactly).
#[test]
fn overfilling_a_small_table() {
    let ctx = context();
    fn overfill<K: TestKey, V: TestValue>(ctx: &Context, packed: Option<bool>, bucket_bytes: u32) {
        let mut map = HashMap::new(
            ctx,
            &HashMapDesc {
                packed_insert: packed,
                bucket_bytes: Some(bucket_bytes),
                ..desc::<K, V>(50)
            },
        )
        .unwrap();
        let cap = map.capacity() as usize;
        // 50 rounded up: slots per bucket times the next prime of ceil(50 / slots).
        let expected = match map.bucket_slots() {
            2 => 2 * 29,
            4 => 4 * 13,
            8 => 8 * 7,
            other => panic!("{other} slots per bucket"),
        };
        assert_eq!(cap, expected);
        let mut model = HashModel::new();
        let mut rng = Rng(99);
        let mut keys: Vec<K> = Vec::new();
        while keys.len() < 80 {
            let k = K::random(&mut rng);
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        let values: Vec<V> = (0..80).map(|i| V::from_u64(i)).collect();
        assert!(matches!(map.insert(&keys[..10], &values[..10]), Ok(())));
        model.insert(
            &keys[..10].iter().map(|k| k.to_u64()).collect::<Vec<_>>(),
            &(0..10).collect::<Vec<u64>>(),
            &[true; 10],
        );
        let failed = insert(&map, &mut model, &keys, &values);
        assert_eq!(failed, 80 - cap, "exactly the free slots are used");
        check_size(&map, &model, "overfilled");
        assert_eq!(model.len(), cap);
        check_lookups::<K, V>(&map, &mut model, &keys, "overfilled");
        check_retrieve::<K, V>(&map, &mut model, "overfilled");
        // Updating present keys of a full table works.
        let present: Vec<K> = keys
            .iter()
            .filter(|k| model.contains(k.to_u64()))
            .take(20)
            .copied()
            .collect();
        let new_values: Vec<V> = (0..20).map(|i| V::from_u64(1000 + i)).collect();
        assert_eq!(insert(&map, &mut model, &present, &new_values), 0);
        check_lookups::<K, V>(&map, &mut model, &present, "updated");
        // Erase 10 of the full table: every bucket is full, so a freed slot is a tombstone
        // unless no key passed its bucket (overflow counter 0)...
        let gone: Vec<K> = present[..10].to_vec();
        assert_eq!(map.erase(&gone).unwrap(), 10);
        model.erase(&gone.iter().map(|k| k.to_u64()).collect::<Vec<_>>());
        let stats = map.stats().unwrap();
        assert_eq!(stats.size, cap as u64 - 10);
        assert!(stats.tombstones <= 10, "{stats:?}");
        check_lookups::<K, V>(&map, &mut model, &keys, "after erase");
        // ...and inserts reuse them: 10 new keys fit, the 11th to 20th do not.
        let absent: Vec<K> = keys
            .iter()
            .filter(|k| !model.contains(k.to_u64()))
            .take(20)
            .copied()
            .collect();
        let absent_values: Vec<V> = (0..20).map(|i| V::from_u64(2000 + i)).collect();
        assert_eq!(insert(&map, &mut model, &absent[..10], &absent_values[..10]), 0);
        let stats = map.stats().unwrap();
        assert_eq!((stats.size, stats.tombstones), (cap as u64, 0));
        assert_eq!(insert(&map, &mut model, &absent[10..], &absent_values[10..]), 10);
        check_size(&map, &model, "tombstones reused");
        check_lookups::<K, V>(&map, &mut model, &keys, "tombstones reused");
        check_retrieve::<K, V>(&map, &mut model, "tombstones reused");
        // Erase everything (the counters fall back to 0 and the tombstones of their buckets
        // become EMPTY); fill again with other keys: every free slot is reused (the tombstone
        // count must then be exactly 0).
        let all_keys: Vec<K> = model.keys().into_iter().map(K::from_u64).collect();
        assert_eq!(map.erase(&all_keys).unwrap(), cap as u64);
        model.erase(&all_keys.iter().map(|k| k.to_u64()).collect::<Vec<_>>());
        let stats = map.stats().unwrap();
        assert_eq!(stats.size, 0);
        assert!(stats.tombstones <= cap as u64, "{stats:?}");
        check_lookups::<K, V>(&map, &mut model, &keys, "all erased");
        let again: Vec<K> = keys.iter().rev().take(cap).copied().collect();
        let again_values: Vec<V> = (0..cap as u64).map(|i| V::from_u64(3000 + i)).collect();
        assert_eq!(insert(&map, &mut model, &again, &again_values), 0);
        let stats = map.stats().unwrap();
        assert_eq!((stats.size, stats.tombstones), (cap as u64, 0));
        check_lookups::<K, V>(&map, &mut model, &keys, "refilled");
        check_retrieve::<K, V>(&map, &mut model, "refilled");
        // A rehash to the same capacity keeps everything.
        map.rehash(cap as u64).unwrap();
        assert_eq!(map.stats().unwrap().tombstones, 0);
        check_size(&map, &model, "after rehash");
        check_lookups::<K, V>(&map, &mut model, &keys, "after rehash");
        // A rehash into fewer slots than keys is refused; the map is unchanged.
        assert!(matches!(
            map.rehash(cap as u64 - 20),
            Err(Error::InvalidArgument(_))
        ));
        check_lookups::<K, V>(&map, &mut model, &keys, "after refused rehash");
    }
    for bucket_bytes in [32, 64] {
        overfill::<u32, u32>(&ctx, None, bucket_bytes);
        overfill::<u32, u32>(&ctx, Some(false), bucket_bytes);
        overfill::<u32, u64>(&ctx, None, bucket_bytes);
        overfill::<u64, u32>(&ctx, None, bucket_bytes);
        overfill::<u64, u64>(&ctx, None, bucket_bytes);
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn duplicates_in_one_batch_store_one_of_their_values() {
    let ctx = context();
    let map = HashMap::new(&ctx, &desc::<u32, u32>(4096)).unwrap();
    let mut model = HashModel::new();
    // 64 keys, each 40 times with different values, shuffled.
    let mut rng = Rng(5);
    let mut keys: Vec<u32> = (0..64u32)
        .flat_map(|k| std::iter::repeat(k * 977 + 3).take(40))
        .collect();
    for i in (1..keys.len()).rev() {
        keys.swap(i, rng.next_u32() as usize % (i + 1));
    }
    let values: Vec<u32> = (0..keys.len() as u32).collect();
    insert(&map, &mut model, &keys, &values);
    assert_eq!(map.size().unwrap(), 64);
    let uniq: Vec<u32> = (0..64u32).map(|k| k * 977 + 3).collect();
    check_lookups::<u32, u32>(&map, &mut model, &uniq, "duplicates");
    // Again, now every occurrence is an update.
    let mut status = vec![InsertStatus::Full; keys.len()];
    map.insert_with_status(&keys, &values, &mut status).unwrap();
    assert!(status.iter().all(|&s| s == InsertStatus::Updated));
    assert_eq!(map.size().unwrap(), 64);
    assert_no_validation_messages(&ctx);
}

#[test]
fn reserved_keys() {
    let ctx = context();
    // Host layer: the whole batch is refused before any GPU work.
    let map = HashMap::new(&ctx, &desc::<u32, u32>(100)).unwrap();
    map.insert(&[1u32, 2], &[10u32, 20]).unwrap();
    for bad in [u32::MAX, u32::MAX - 1] {
        match map.insert(&[5u32, bad, 6], &[1u32, 2, 3]) {
            Err(Error::InvalidArgument(m)) => assert!(m.contains("reserved"), "{m}"),
            other => panic!("reserved key {bad:#x}: {other:?}"),
        }
    }
    assert_eq!(map.size().unwrap(), 2);
    let mut found = vec![true; 4];
    map.contains(&[5u32, 6, u32::MAX, u32::MAX - 1], &mut found)
        .unwrap();
    assert_eq!(found, vec![false; 4]);
    assert_eq!(map.erase(&[u32::MAX, u32::MAX - 1]).unwrap(), 0);
    let map64 = HashMap::new(&ctx, &desc::<u64, u64>(100)).unwrap();
    for bad in [u64::MAX, u64::MAX - 1] {
        assert!(matches!(
            map64.insert(&[bad], &[1u64]),
            Err(Error::InvalidArgument(_))
        ));
    }
    map64
        .insert(&[u64::MAX - 2, u32::MAX as u64, 0], &[1u64, 2, 3])
        .unwrap();
    let mut values = vec![0u64; 3];
    map64
        .find(&[u64::MAX - 2, u32::MAX as u64, 0], &mut values, None)
        .unwrap();
    assert_eq!(values, vec![1, 2, 3]);
    // Record layer: reserved keys are skipped and reported; the others are inserted.
    let keys = [7u32, u32::MAX, 8, u32::MAX - 1];
    let rec = record_insert(&ctx, &map, &keys, &[70u32, 1, 80, 2], RecordOptions::default());
    assert_eq!(
        rec.status,
        vec![
            InsertStatus::Inserted as u32,
            InsertStatus::Reserved as u32,
            InsertStatus::Inserted as u32,
            InsertStatus::Reserved as u32
        ]
    );
    assert_eq!(rec.failed, 2);
    assert_eq!(map.size().unwrap(), 4);
    assert_no_validation_messages(&ctx);
}

#[derive(Clone, Copy, Default)]
struct RecordOptions {
    offset: u64,
    indirect: Option<u32>,
}

struct Recorded {
    status: Vec<u32>,
    failed: u32,
}

/// Records an insert through the record layer (host-visible buffers at an offset, optionally
/// an indirect count), with status output and failure counter.
fn record_insert<K: TestKey, V: TestValue>(
    ctx: &Context,
    map: &HashMap,
    keys: &[K],
    values: &[V],
    opt: RecordOptions,
) -> Recorded {
    let n = keys.len() as u64;
    let (kb, vb) = (std::mem::size_of::<K>() as u64, std::mem::size_of::<V>() as u64);
    let off = opt.offset;
    let mut buf = GpuBuffer::new(
        ctx,
        4 * off + n * (kb + vb + 4) + 64,
        MemoryLocation::CpuToGpu,
        "t",
    )
    .unwrap();
    let (k_at, v_at) = (off, 2 * off + n * kb);
    let s_at = 3 * off + n * (kb + vb);
    let c_at = s_at + n * 4 + off;
    {
        let m = buf.mapped().unwrap();
        m.fill(0xA5);
        m[k_at as usize..(k_at + n * kb) as usize].copy_from_slice(bytemuck::cast_slice(keys));
        m[v_at as usize..(v_at + n * vb) as usize].copy_from_slice(bytemuck::cast_slice(values));
        m[c_at as usize..c_at as usize + 4].copy_from_slice(&0u32.to_le_bytes());
        m[c_at as usize + 8..c_at as usize + 12].copy_from_slice(&opt.indirect.unwrap_or(0).to_le_bytes());
    }
    let args = HashInsertArgs {
        keys: buf.sub_range(k_at, n * kb),
        values: buf.sub_range(v_at, n * vb),
        count: match opt.indirect {
            Some(_) => ElementCount::Indirect(buf.sub_range(c_at + 8, 4)),
            None => ElementCount::Direct(n),
        },
        max_count: n,
        status: Some(buf.sub_range(s_at, n * 4)),
        failed_count: Some(buf.sub_range(c_at, 4)),
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        map.record_insert(cmd, &args)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap();
    let m = buf.mapped().unwrap();
    let status: Vec<u32> = bytemuck::cast_slice(&m[s_at as usize..(s_at + n * 4) as usize]).to_vec();
    let failed = u32::from_le_bytes(m[c_at as usize..c_at as usize + 4].try_into().unwrap());
    Recorded { status, failed }
}

/// The record layer end to end: offsets, indirect counts below the maximum (nothing past the
/// count is written), find/contains/erase outputs, size, retrieve_all into a too-small output,
/// and the record-layer rehash with a swap.
#[test]
fn record_layer() {
    let ctx = context();
    let mut map = HashMap::new(&ctx, &desc::<u64, u32>(5000)).unwrap();
    let mut model = HashModel::new();
    let mut rng = Rng(77);
    let keys: Vec<u64> = (0..3000).map(|_| u64::random(&mut rng)).collect();
    let values: Vec<u32> = (0..3000).map(|_| rng.next_u32()).collect();
    // Indirect count 2000 of max 3000, at a 24-byte offset.
    let rec = record_insert(
        &ctx,
        &map,
        &keys,
        &values,
        RecordOptions {
            offset: 24,
            indirect: Some(2000),
        },
    );
    assert!(rec.status[..2000].iter().all(|&s| s <= 1));
    assert!(
        rec.status[2000..].iter().all(|&s| s == 0xA5A5_A5A5),
        "status written past the count"
    );
    assert_eq!(rec.failed, 0);
    let k64: Vec<u64> = keys[..2000].to_vec();
    let v64: Vec<u64> = values[..2000].iter().map(|&v| v as u64).collect();
    model.insert(&k64, &v64, &[true; 2000]);
    check_size(&map, &model, "indirect insert");

    // find + erase + size + retrieve through the record layer in one command buffer.
    let n = keys.len() as u64;
    let mut buf = GpuBuffer::new(&ctx, 1 << 20, MemoryLocation::CpuToGpu, "t").unwrap();
    let (k_at, v_at, f_at, e_at, c_at, s_at) = (16u64, 65536u64, 131072u64, 196608u64, 262144u64, 262160u64);
    let (rk_at, rv_at) = (327680u64, 393216u64);
    {
        let m = buf.mapped().unwrap();
        m.fill(0xA5);
        m[k_at as usize..(k_at + n * 8) as usize].copy_from_slice(bytemuck::cast_slice(&keys));
        m[c_at as usize..c_at as usize + 4].copy_from_slice(&2500u32.to_le_bytes());
    }
    let erase_n = 500u64; // erase keys[1000..1500]
    let find = HashFindArgs {
        keys: buf.sub_range(k_at, n * 8),
        values: Some(buf.sub_range(v_at, n * 4)),
        found: Some(buf.sub_range(f_at, n * 4)),
        count: ElementCount::Indirect(buf.sub_range(c_at, 4)),
        max_count: n,
    };
    let erase = HashEraseArgs {
        keys: buf.sub_range(k_at + 1000 * 8, erase_n * 8),
        erased: Some(buf.sub_range(e_at, erase_n * 4)),
        count: ElementCount::Direct(erase_n),
        max_count: 0,
    };
    let retrieve = HashRetrieveArgs {
        keys: buf.sub_range(rk_at, 100 * 8),
        values: Some(buf.sub_range(rv_at, 100 * 4)),
        capacity: 100,
        count_out: buf.sub_range(s_at + 4, 4),
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(&ctx, cmd);
        map.record_find(cmd, &find)?;
        map.record_barrier(cmd);
        map.record_erase(cmd, &erase)?;
        map.record_barrier(cmd);
        map.record_size(
            cmd,
            &HashSizeArgs {
                out: buf.sub_range(s_at, 4),
            },
        )?;
        map.record_retrieve_all(cmd, &retrieve)?;
        compute_to_host(&ctx, cmd);
        Ok(())
    })
    .unwrap();
    let m = buf.mapped().unwrap();
    let words = |at: u64, len: u64| -> Vec<u32> {
        bytemuck::cast_slice(&m[at as usize..(at + len * 4) as usize]).to_vec()
    };
    let (vals, found) = (words(v_at, n), words(f_at, n));
    for i in 0..2500 {
        model
            .check_find(keys[i], found[i] == 1, vals[i] as u64)
            .unwrap_or_else(|e| panic!("record find {i}: {e}"));
    }
    assert!(vals[2500..]
        .iter()
        .chain(&found[2500..])
        .all(|&w| w == 0xA5A5_A5A5));
    let erased = words(e_at, erase_n);
    assert!(erased.iter().all(|&e| e == 1));
    model.erase(&keys[1000..1500]);
    assert_eq!(words(s_at, 1)[0], model.len() as u32, "record_size");
    assert_eq!(words(s_at + 4, 1)[0], model.len() as u32, "retrieve count_out");
    let got_keys: Vec<u64> = bytemuck::cast_slice(&m[rk_at as usize..rk_at as usize + 800]).to_vec();
    let got_values = words(rv_at, 100);
    for (k, v) in got_keys.iter().zip(&got_values) {
        model.check_find(*k, true, *v as u64).unwrap();
    }
    assert!(m[rk_at as usize + 800..rk_at as usize + 808]
        .iter()
        .all(|&b| b == 0xA5));
    check_size(&map, &model, "record ops");

    // Record-layer rehash into a bigger map, then swap.
    let mut bigger = HashMap::new(&ctx, &desc::<u64, u32>(20_000)).unwrap();
    ctx.submit_and_wait(|cmd| unsafe {
        map.record_rehash_into(
            cmd,
            &HashRehashArgs {
                dst: &bigger,
                failed_count: None,
            },
        )
    })
    .unwrap();
    std::mem::swap(&mut map, &mut bigger);
    drop(bigger);
    assert_eq!(map.capacity(), 20_014); // 2 slots per 32-byte bucket, 10007 buckets
    assert_eq!(map.stats().unwrap().tombstones, 0);
    check_size(&map, &model, "record rehash");
    check_lookups::<u64, u32>(&map, &mut model, &keys, "record rehash");
    assert_no_validation_messages(&ctx);
}

#[test]
fn larger_batches() {
    let ctx = context();
    let n = 1usize << 19;
    let map = HashMap::new(&ctx, &desc::<u32, u32>(2 * n as u64)).unwrap();
    let mut rng = Rng(123);
    let mut seen = std::collections::HashSet::new();
    let keys: Vec<u32> = std::iter::from_fn(|| Some(u32::random(&mut rng)))
        .filter(|k| seen.insert(*k))
        .take(2 * n)
        .collect();
    let values: Vec<u32> = keys.iter().map(|k| k.wrapping_mul(3)).collect();
    map.insert(&keys[..n], &values[..n]).unwrap();
    assert_eq!(map.size().unwrap(), n as u64);
    let mut out = vec![0u32; 2 * n];
    let mut found = vec![false; 2 * n];
    map.find(&keys, &mut out, Some(&mut found)).unwrap();
    assert!(found[..n].iter().all(|&f| f) && !found[n..].iter().any(|&f| f));
    assert!(out[..n] == values[..n] && out[n..].iter().all(|&v| v == 0));
    assert_eq!(map.erase(&keys[..n / 2]).unwrap(), (n / 2) as u64);
    assert_eq!(map.size().unwrap(), (n - n / 2) as u64);
    assert_no_validation_messages(&ctx);
}

#[test]
fn bad_input_rust_api() {
    let ctx = context();
    for capacity in [0u64, (1 << 31) + 1] {
        assert!(matches!(
            HashMap::new(&ctx, &desc::<u32, u32>(capacity)),
            Err(Error::InvalidArgument(_))
        ));
    }
    let mut map = HashMap::new(&ctx, &desc::<u32, u32>(1000)).unwrap();
    map.insert(&[1u32, 2, 3], &[4u32, 5, 6]).unwrap();
    // Wrong types and lengths.
    assert!(matches!(
        map.insert(&[1u64], &[1u32]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        map.insert(&[1u32], &[1u64]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        map.insert(&[1u32, 2], &[1u32]),
        Err(Error::InvalidArgument(_))
    ));
    let mut v = vec![0u32; 1];
    assert!(matches!(
        map.find(&[1u32, 2], &mut v, None),
        Err(Error::InvalidArgument(_))
    ));
    let mut f = vec![false; 1];
    assert!(matches!(
        map.contains(&[1u64], &mut f),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(map.erase(&[1u64]), Err(Error::InvalidArgument(_))));
    let (mut k2, mut v2) = (vec![0u32; 2], vec![0u32; 2]);
    match map.retrieve_all_into(&mut k2, &mut v2) {
        Err(Error::InvalidArgument(m)) => assert!(m.contains("holds 3 entries"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(k2, vec![0, 0]);
    assert!(matches!(map.rehash(0), Err(Error::InvalidArgument(_))));
    assert!(matches!(map.rehash(2), Err(Error::InvalidArgument(_))));
    let mut status = vec![InsertStatus::Full; 1];
    assert!(matches!(
        map.insert_with_status(&[9u32, 10], &[1u32, 2], &mut status),
        Err(Error::InvalidArgument(_))
    ));

    // Record layer.
    let buf = GpuBuffer::new(&ctx, 1 << 16, MemoryLocation::GpuOnly, "bad").unwrap();
    let good = HashInsertArgs {
        keys: buf.sub_range(0, 400),
        values: buf.sub_range(1024, 400),
        count: ElementCount::Direct(100),
        max_count: 0,
        status: Some(buf.sub_range(4096, 400)),
        failed_count: Some(buf.sub_range(8192, 4)),
    };
    let null = BufferRange::new(vk::Buffer::null(), 0, 400);
    let other = HashMap::new(&ctx, &desc::<u32, u64>(10)).unwrap();
    let cases: Vec<(&str, HashInsertArgs)> = vec![
        (
            "keys too small",
            HashInsertArgs {
                keys: buf.sub_range(0, 396),
                ..good
            },
        ),
        (
            "values misaligned",
            HashInsertArgs {
                values: buf.sub_range(1026, 400),
                ..good
            },
        ),
        ("null keys", HashInsertArgs { keys: null, ..good }),
        (
            "status overlaps keys",
            HashInsertArgs {
                status: Some(buf.sub_range(200, 400)),
                ..good
            },
        ),
        (
            "failed overlaps status",
            HashInsertArgs {
                failed_count: Some(buf.sub_range(4096, 4)),
                ..good
            },
        ),
        (
            "count over u32",
            HashInsertArgs {
                count: ElementCount::Direct(1 << 32),
                ..good
            },
        ),
        (
            "indirect max over the ranges",
            HashInsertArgs {
                count: ElementCount::Indirect(buf.sub_range(12288, 4)),
                max_count: 101,
                ..good
            },
        ),
        (
            "indirect count misaligned",
            HashInsertArgs {
                count: ElementCount::Indirect(buf.sub_range(12290, 4)),
                max_count: 100,
                ..good
            },
        ),
        (
            "count buffer overlaps status",
            HashInsertArgs {
                count: ElementCount::Indirect(buf.sub_range(4096, 4)),
                max_count: 100,
                ..good
            },
        ),
    ];
    ctx.submit_and_wait(|cmd| {
        for (what, args) in &cases {
            match unsafe { map.record_insert(cmd, args) } {
                Err(Error::InvalidArgument(m)) => assert!(!m.is_empty(), "{what}"),
                other => panic!("{what}: expected InvalidArgument, got {other:?}"),
            }
        }
        assert!(matches!(
            unsafe { map.record_insert(vk::CommandBuffer::null(), &good) },
            Err(Error::InvalidArgument(_))
        ));
        let find = HashFindArgs {
            keys: buf.sub_range(0, 400),
            values: Some(buf.sub_range(100, 400)),
            found: None,
            count: ElementCount::Direct(100),
            max_count: 0,
        };
        assert!(matches!(
            unsafe { map.record_find(cmd, &find) },
            Err(Error::InvalidArgument(_))
        ));
        let retrieve = HashRetrieveArgs {
            keys: buf.sub_range(0, 40),
            values: None,
            capacity: 11,
            count_out: buf.sub_range(8192, 4),
        };
        assert!(matches!(
            unsafe { map.record_retrieve_all(cmd, &retrieve) },
            Err(Error::InvalidArgument(_))
        ));
        assert!(matches!(
            unsafe {
                map.record_rehash_into(
                    cmd,
                    &HashRehashArgs {
                        dst: &other,
                        failed_count: None,
                    },
                )
            },
            Err(Error::InvalidArgument(_))
        ));
        assert!(matches!(
            unsafe {
                map.record_rehash_into(
                    cmd,
                    &HashRehashArgs {
                        dst: &map,
                        failed_count: None,
                    },
                )
            },
            Err(Error::InvalidArgument(_))
        ));
        Ok(())
    })
    .unwrap();
    // The map and the context stay usable, the contents unchanged.
    let mut values = vec![0u32; 3];
    map.find(&[1u32, 2, 3], &mut values, None).unwrap();
    assert_eq!(values, vec![4, 5, 6]);
    assert_eq!(map.size().unwrap(), 3);
    assert_no_validation_messages(&ctx);
}

/// The C ABI from Rust: round trip, bad input, retrieve_all reporting the needed count.
#[test]
fn c_abi() {
    use std::ptr::{null, null_mut};
    use vkalgo_ffi::hash::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    unsafe {
        let mut ctx = null_mut();
        assert_eq!(
            vkalgo_context_create_default(&mut ctx),
            VkalgoResult::VkalgoSuccess
        );
        let invalid = VkalgoResult::VkalgoErrorInvalidArgument;
        let desc = VkalgoHashMapDesc {
            key_type: VKALGO_KEY_U32,
            value_type: VKALGO_VALUE_U32,
            capacity: 100,
            ..Default::default()
        };
        let mut map = null_mut();
        assert_eq!(vkalgo_hash_map_create(null_mut(), &desc, &mut map), invalid);
        assert_eq!(vkalgo_hash_map_create(ctx, null(), &mut map), invalid);
        assert_eq!(vkalgo_hash_map_create(ctx, &desc, null_mut()), invalid);
        for (k, v, c) in [
            (VKALGO_KEY_I32, VKALGO_VALUE_U32, 100),
            (VKALGO_KEY_F64, VKALGO_VALUE_U32, 100),
            (VkalgoKeyType(7), VKALGO_VALUE_U32, 100),
            (VKALGO_KEY_U32, VKALGO_VALUE_NONE, 100),
            (VKALGO_KEY_U32, VkalgoValueType(9), 100),
            (VKALGO_KEY_U32, VKALGO_VALUE_U32, 0),
        ] {
            let d = VkalgoHashMapDesc {
                key_type: k,
                value_type: v,
                capacity: c,
                ..Default::default()
            };
            assert_eq!(
                vkalgo_hash_map_create(ctx, &d, &mut map),
                invalid,
                "{k:?} {v:?} {c}"
            );
            assert!(map.is_null());
            let msg = std::ffi::CStr::from_ptr(vkalgo_last_error_message());
            assert!(!msg.to_bytes().is_empty());
        }
        assert_eq!(
            vkalgo_hash_map_create(ctx, &desc, &mut map),
            VkalgoResult::VkalgoSuccess
        );
        let keys = [1u32, 2, 3, 2];
        let values = [10u32, 20, 30, 21];
        let kp = keys.as_ptr() as *const _;
        let vp = values.as_ptr() as *const _;
        assert_eq!(vkalgo_hash_map_insert_host(null_mut(), kp, vp, 4), invalid);
        assert_eq!(vkalgo_hash_map_insert_host(map, null(), vp, 4), invalid);
        assert_eq!(vkalgo_hash_map_insert_host(map, kp, null(), 4), invalid);
        assert_eq!(
            vkalgo_hash_map_insert_host(map, null(), null(), 0),
            VkalgoResult::VkalgoSuccess
        );
        let reserved = [5u32, u32::MAX];
        assert_eq!(
            vkalgo_hash_map_insert_host(map, reserved.as_ptr() as *const _, vp, 2),
            invalid
        );
        assert_eq!(
            vkalgo_hash_map_insert_host(map, kp, vp, 4),
            VkalgoResult::VkalgoSuccess
        );
        let mut size = 0u64;
        assert_eq!(
            vkalgo_hash_map_size_host(map, &mut size),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(size, 3);
        assert_eq!(vkalgo_hash_map_size_host(map, null_mut()), invalid);
        assert_eq!(vkalgo_hash_map_size_host(null_mut(), &mut size), invalid);
        let mut out = [0u32; 4];
        let mut found = [7u8; 4];
        let q = [1u32, 2, 3, 4];
        let qp = q.as_ptr() as *const _;
        assert_eq!(
            vkalgo_hash_map_find_host(map, qp, null_mut(), found.as_mut_ptr(), 4),
            invalid
        );
        assert_eq!(
            vkalgo_hash_map_find_host(map, qp, out.as_mut_ptr() as *mut _, found.as_mut_ptr(), 4),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(found, [1, 1, 1, 0]);
        assert!(out[0] == 10 && (out[1] == 20 || out[1] == 21) && out[2] == 30 && out[3] == 0);
        assert_eq!(
            vkalgo_hash_map_find_host(map, qp, out.as_mut_ptr() as *mut _, null_mut(), 4),
            VkalgoResult::VkalgoSuccess
        );
        // retrieve_all: too small reports the needed count.
        let (mut rk, mut rv) = ([0u32; 8], [0u32; 8]);
        let mut count = 0usize;
        let (rkp, rvp) = (rk.as_mut_ptr() as *mut _, rv.as_mut_ptr() as *mut _);
        assert_eq!(
            vkalgo_hash_map_retrieve_all_host(map, rkp, rvp, 2, &mut count),
            invalid
        );
        assert_eq!(count, 3);
        assert_eq!(rk, [0; 8]);
        assert_eq!(
            vkalgo_hash_map_retrieve_all_host(map, rkp, rvp, 8, null_mut()),
            invalid
        );
        assert_eq!(
            vkalgo_hash_map_retrieve_all_host(map, null_mut(), rvp, 8, &mut count),
            invalid
        );
        assert_eq!(
            vkalgo_hash_map_retrieve_all_host(map, rkp, rvp, 8, &mut count),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(count, 3);
        let mut got: Vec<(u32, u32)> = rk[..3].iter().copied().zip(rv[..3].iter().copied()).collect();
        got.sort();
        assert!(got[0] == (1, 10) && got[1].0 == 2 && got[2] == (3, 30));
        // erase, tombstones, rehash, capacity.
        assert_eq!(vkalgo_hash_map_erase_host(map, null(), 1), invalid);
        assert_eq!(
            vkalgo_hash_map_erase_host(map, qp, 1),
            VkalgoResult::VkalgoSuccess
        );
        let mut stats = VkalgoHashMapStats::default();
        assert_eq!(
            vkalgo_hash_map_stats_host(map, &mut stats),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(stats.tombstones, 0); // the key's bucket held EMPTY slots: it became EMPTY, no tombstone
        assert_eq!(vkalgo_hash_map_rehash_host(map, 1), invalid);
        assert_eq!(vkalgo_hash_map_rehash_host(map, 0), invalid);
        assert_eq!(vkalgo_hash_map_rehash_host(null_mut(), 10), invalid);
        assert_eq!(
            vkalgo_hash_map_rehash_host(map, 1000),
            VkalgoResult::VkalgoSuccess
        );
        let mut cap = 0u64;
        assert_eq!(
            vkalgo_hash_map_capacity(map, &mut cap),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(cap, 1004); // 4 slots per 32-byte bucket, 251 buckets
        assert_eq!(
            vkalgo_hash_map_size_host(map, &mut size),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(size, 2);
        // insert with status on an overfilled table: TABLE_FULL and the statuses.
        let small_desc = VkalgoHashMapDesc {
            key_type: VKALGO_KEY_U64,
            value_type: VKALGO_VALUE_U64,
            capacity: 8,
            ..Default::default()
        };
        let mut small = null_mut();
        assert_eq!(
            vkalgo_hash_map_create(ctx, &small_desc, &mut small),
            VkalgoResult::VkalgoSuccess
        );
        let mut cap_small = 0u64;
        vkalgo_hash_map_capacity(small, &mut cap_small);
        assert_eq!(cap_small, 10); // 2 slots per 32-byte bucket, 5 buckets
        let k12: Vec<u64> = (100..112).collect();
        let mut status = [9u32; 12];
        let r = vkalgo_hash_map_insert_status_host(
            small,
            k12.as_ptr() as *const _,
            k12.as_ptr() as *const _,
            status.as_mut_ptr(),
            12,
        );
        assert_eq!(r, VkalgoResult::VkalgoErrorTableFull);
        assert_eq!(
            status
                .iter()
                .filter(|&&s| s == VKALGO_HASH_STATUS_INSERTED.0)
                .count(),
            10
        );
        assert_eq!(
            status.iter().filter(|&&s| s == VKALGO_HASH_STATUS_FULL.0).count(),
            2
        );
        assert_eq!(
            vkalgo_hash_map_insert_host(small, k12.as_ptr() as *const _, k12.as_ptr() as *const _, 12),
            VkalgoResult::VkalgoErrorTableFull
        );
        // A misaligned u64 array is refused.
        let bytes = [0u8; 24];
        assert_eq!(
            vkalgo_hash_map_erase_host(small, bytes.as_ptr().add(1) as *const _, 1),
            invalid
        );
        let mut view = VkalgoHashMapDeviceView::default();
        assert_eq!(
            vkalgo_hash_map_device_view(small, &mut view),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(
            (
                view.key_bits,
                view.value_bits,
                view.slot_bytes,
                view.bucket_slots,
                view.num_buckets
            ),
            (64, 64, 16, 2, 5)
        );
        vkalgo_hash_map_destroy(small);
        vkalgo_hash_map_destroy(map);
        vkalgo_hash_map_destroy(null_mut());
        vkalgo_context_destroy(ctx);
    }
}

/// A user shader compiled at test time against glsl/public/vkalgo_hash_map.glsl looks keys up
/// through the map's device view; its results must match the model.
#[test]
fn lookups_from_a_user_shader() {
    let ctx = context();
    fn run<K: TestKey, V: TestValue>(ctx: &Context, seed: u64) {
        for bucket_bytes in [32, 64] {
            run_bucket::<K, V>(ctx, seed, bucket_bytes);
        }
    }
    fn run_bucket<K: TestKey, V: TestValue>(ctx: &Context, seed: u64, bucket_bytes: u32) {
        let desc = HashMapDesc {
            bucket_bytes: Some(bucket_bytes),
            ..desc::<K, V>(3000)
        };
        let map = HashMap::new(ctx, &desc).unwrap();
        assert_eq!(
            map.device_view().bucket_slots as u64 * map.slot_bytes(),
            bucket_bytes as u64
        );
        let mut model = HashModel::new();
        let mut rng = Rng(seed);
        let keys: Vec<K> = (0..2600).map(|_| K::random(&mut rng)).collect();
        let values: Vec<V> = (0..2600).map(|_| V::from_u64(rng.next_u64())).collect();
        insert(&map, &mut model, &keys[..2000], &values[..2000]);
        map.erase(&keys[..100]).unwrap();
        model.erase(&keys[..100].iter().map(|k| k.to_u64()).collect::<Vec<_>>());
        let mut query = keys.clone(); // 100 erased, 1900 present, 600 absent
        query.push(K::from_u64(K::MAX));
        query.push(K::from_u64(K::MAX - 1));
        let n = query.len();
        let (value_out, found_out, contains_out) = user_shader_lookup::<K, V>(ctx, &map, &query);
        for i in 0..n {
            model
                .check_find(query[i].to_u64(), found_out[i] == 1, value_out[i].to_u64())
                .unwrap_or_else(|e| panic!("user shader {:?}/{:?}: {e}", K::TYPE, V::TYPE));
            assert_eq!(contains_out[i], found_out[i], "contains vs find at {i}");
        }
    }
    run::<u32, u32>(&ctx, 1);
    run::<u32, u64>(&ctx, 2);
    run::<u64, u32>(&ctx, 3);
    run::<u64, u64>(&ctx, 4);
    assert_no_validation_messages(&ctx);
}

/// tests/shaders/user_lookup.comp, a caller's shader using the public GLSL include, compiled by
/// `cargo xtask shaders` for (64-bit keys, 64-bit values).
fn user_shader_spirv(key64: bool, value64: bool) -> Vec<u32> {
    let bytes: &[u8] = match (key64, value64) {
        (false, false) => include_bytes!("shaders/user_lookup_k32_v32.spv"),
        (false, true) => include_bytes!("shaders/user_lookup_k32_v64.spv"),
        (true, false) => include_bytes!("shaders/user_lookup_k64_v32.spv"),
        (true, true) => include_bytes!("shaders/user_lookup_k64_v64.spv"),
    };
    ash::util::read_spv(&mut std::io::Cursor::new(bytes)).unwrap()
}

/// Runs the user shader for the map's types on `query`: (values, found, contains).
fn user_shader_lookup<K: TestKey, V: TestValue>(
    ctx: &Context,
    map: &HashMap,
    query: &[K],
) -> (Vec<V>, Vec<u32>, Vec<u32>) {
    let spirv = user_shader_spirv(K::TYPE == HashKeyType::U64, V::TYPE == HashValueType::U64);
    let n = query.len() as u64;
    let (kb, vb) = (std::mem::size_of::<K>() as u64, std::mem::size_of::<V>() as u64);
    let mut keys = GpuBuffer::new(ctx, n * kb, MemoryLocation::CpuToGpu, "user keys").unwrap();
    keys.mapped().unwrap()[..(n * kb) as usize].copy_from_slice(bytemuck::cast_slice(query));
    let mut outs = GpuBuffer::new(ctx, n * (vb + 8) + 64, MemoryLocation::GpuToCpu, "user outputs").unwrap();
    let (v_at, f_at, c_at) = (0u64, n * vb, n * vb + n * 4);
    #[repr(C)]
    #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    struct Push {
        view: vkalgo::HashMapDeviceView,
        keys: u64,
        values_out: u64,
        found_out: u64,
        contains_out: u64,
        count: u32,
        pad: u32,
    }
    let push = Push {
        view: map.device_view(),
        keys: keys.address(),
        values_out: outs.address() + v_at,
        found_out: outs.address() + f_at,
        contains_out: outs.address() + c_at,
        count: n as u32,
        pad: 0,
    };
    let d = ctx.device();
    unsafe {
        let module = d
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&spirv), None)
            .unwrap();
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .size(std::mem::size_of::<Push>() as u32)];
        let layout = d
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges),
                None,
            )
            .unwrap();
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let pipeline = d
            .create_compute_pipelines(
                vk::PipelineCache::null(),
                &[vk::ComputePipelineCreateInfo::default()
                    .stage(stage)
                    .layout(layout)],
                None,
            )
            .unwrap()[0];
        ctx.submit_and_wait(|cmd| {
            // The map was written by earlier submissions (fence-ordered); the keys by the host.
            host_to_compute(ctx, cmd);
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
            d.cmd_push_constants(
                cmd,
                layout,
                vk::ShaderStageFlags::COMPUTE,
                0,
                bytemuck::bytes_of(&push),
            );
            d.cmd_dispatch(cmd, (n as u32).div_ceil(64), 1, 1);
            compute_to_host(ctx, cmd);
            Ok(())
        })
        .unwrap();
        d.destroy_pipeline(pipeline, None);
        d.destroy_pipeline_layout(layout, None);
        d.destroy_shader_module(module, None);
    }
    let m = outs.mapped().unwrap();
    let values: Vec<V> = bytemuck::cast_slice(&m[v_at as usize..f_at as usize]).to_vec();
    let found: Vec<u32> = bytemuck::cast_slice(&m[f_at as usize..c_at as usize]).to_vec();
    let contains: Vec<u32> = bytemuck::cast_slice(&m[c_at as usize..(c_at + n * 4) as usize]).to_vec();
    (values, found, contains)
}

/// Other kernel tunings (workgroup size x keys per invocation) give the same results; invalid
/// ones are refused.
#[test]
fn tunings() {
    let ctx = context();
    let valid = [(32, 1), (64, 3), (128, 8), (512, 2)];
    for (i, (workgroup_size, keys_per_invocation)) in valid.into_iter().enumerate() {
        let tuning = Some(HashTuning {
            workgroup_size,
            keys_per_invocation,
        });
        // Small enough that a key probing every bucket stays under lavapipe's loop cap with 8
        // keys per invocation (see HashTuning::for_device).
        model_sequence_tuned::<u32, u32>(&ctx, 2000, None, None, tuning, 100 + i as u64, 30);
        model_sequence_tuned::<u64, u64>(&ctx, 1000, None, Some(64), tuning, 200 + i as u64, 20);
    }
    for (workgroup_size, keys_per_invocation) in [(100, 1), (16, 1), (2048, 1), (256, 0), (256, 9)] {
        let desc = HashMapDesc {
            tuning: Some(HashTuning {
                workgroup_size,
                keys_per_invocation,
            }),
            ..desc::<u32, u32>(100)
        };
        assert!(
            matches!(HashMap::new(&ctx, &desc), Err(Error::InvalidArgument(_))),
            "{workgroup_size}x{keys_per_invocation}"
        );
    }
    assert_no_validation_messages(&ctx);
}

/// Many invocations inserting, then erasing, the same few keys at once: one slot per key, one
/// Inserted per key, exact size; one erase per key succeeds.
#[test]
fn heavy_contention_on_few_keys() {
    let ctx = context();
    for packed in [Some(true), Some(false)] {
        let map = HashMap::new(
            &ctx,
            &HashMapDesc {
                packed_insert: packed,
                ..desc::<u32, u32>(1000)
            },
        )
        .unwrap();
        let mut model = HashModel::new();
        let keys: Vec<u32> = (0..200_000u32).map(|i| i % 3).collect();
        let values: Vec<u32> = (0..200_000u32).collect();
        insert(&map, &mut model, &keys, &values);
        assert_eq!(map.size().unwrap(), 3);
        check_lookups::<u32, u32>(&map, &mut model, &[0, 1, 2, 3], "contention");
        let mut rng = Rng(4);
        let many: Vec<u32> = (0..100_000).map(|_| rng.next_u32() % 5).collect();
        assert_eq!(map.erase(&many).unwrap(), 3);
        // The three keys' buckets held EMPTY slots: no tombstones.
        let stats = map.stats().unwrap();
        assert_eq!((stats.size, stats.tombstones), (0, 0));
    }
    let map = HashMap::new(&ctx, &desc::<u64, u64>(100)).unwrap();
    let mut model = HashModel::new();
    let keys: Vec<u64> = (0..100_000u64).map(|i| (i % 2) << 40).collect();
    let values: Vec<u64> = (0..100_000u64).map(|i| i << 33).collect();
    insert(&map, &mut model, &keys, &values);
    check_lookups::<u64, u64>(&map, &mut model, &[0, 1 << 40, 7], "contention u64");
    assert_no_validation_messages(&ctx);
}

/// Tables of just under 4096 buckets (scanned whole) filled to 100%: the last keys sit
/// thousands of buckets deep in their probe sequences, failing keys walk all of them. Every
/// stored key must still be found, exactly the free slots get used, and absent keys walk the
/// whole table. Then single free slots, found anywhere in a probe sequence. (Also guards
/// lavapipe's cap on the loop iterations of an invocation.)
#[test]
fn deep_probe_sequences_at_full_load() {
    let ctx = context();
    fn run<K: TestKey, V: TestValue>(ctx: &Context, bucket_bytes: u32) {
        let slot_bytes = if K::TYPE == HashKeyType::U32 && V::TYPE == HashValueType::U32 {
            8
        } else {
            16
        };
        let slots = bucket_bytes as u64 / slot_bytes;
        let desc = HashMapDesc {
            bucket_bytes: Some(bucket_bytes),
            ..desc::<K, V>(4093 * slots) // 4093 is prime
        };
        let map = HashMap::new(ctx, &desc).unwrap();
        assert_eq!(map.num_buckets(), 4093);
        let cap = map.capacity() as usize;
        let mut model = HashModel::new();
        let mut rng = Rng(bucket_bytes as u64 + slots);
        let mut seen = std::collections::HashSet::new();
        let keys: Vec<K> = std::iter::from_fn(|| Some(K::random(&mut rng)))
            .filter(|k| seen.insert(k.to_u64()))
            .take(cap + cap / 10)
            .collect();
        let values: Vec<V> = keys.iter().map(|k| V::from_u64(k.to_u64() ^ 0xABCD)).collect();
        // Fill in a few batches so the last ones probe deep.
        let mut failed = 0;
        for chunk in 0..4 {
            let (a, b) = (chunk * keys.len() / 4, (chunk + 1) * keys.len() / 4);
            failed += insert(&map, &mut model, &keys[a..b], &values[a..b]);
        }
        assert_eq!(
            failed,
            keys.len() - cap,
            "{bucket_bytes}: the table fills exactly"
        );
        check_size(&map, &model, "full");
        check_lookups::<K, V>(&map, &mut model, &keys, "full table");
        check_retrieve::<K, V>(&map, &mut model, "full table");
        // One free slot in the whole table: erase one key, insert one new key. The new key's
        // walk reaches anywhere in its probe sequence (up to all 4093 buckets), which on CPU
        // drivers must stay under their per-invocation loop cap (HashTuning::for_device).
        let stored: Vec<K> = keys
            .iter()
            .copied()
            .filter(|k| model.contains(k.to_u64()))
            .collect();
        let absent: Vec<K> = keys
            .iter()
            .copied()
            .filter(|k| !model.contains(k.to_u64()))
            .collect();
        for round in 0..24 {
            let what = format!("{bucket_bytes}-byte buckets, one free slot, round {round}");
            let gone = [stored[round * 37]];
            assert_eq!(map.erase(&gone).unwrap(), 1, "{what}");
            model.erase(&[gone[0].to_u64()]);
            let new = [absent[round]];
            let value = [V::from_u64(new[0].to_u64() ^ 0xABCD)];
            assert_eq!(
                insert(&map, &mut model, &new, &value),
                0,
                "{what}: the free slot is found"
            );
            check_lookups::<K, V>(
                &map,
                &mut model,
                &[new[0], gone[0], stored[round * 37 + 1]],
                &what,
            );
        }
        check_size(&map, &model, "after single-slot rounds");
        check_lookups::<K, V>(&map, &mut model, &keys, "after single-slot rounds");
    }
    run::<u32, u32>(&ctx, 64);
    run::<u32, u32>(&ctx, 32);
    run::<u64, u64>(&ctx, 64);
    run::<u64, u32>(&ctx, 32);
    assert_no_validation_messages(&ctx);
}

/// Steady churn (issue 20): a map held at a live load of 0.8 or 0.9, where every round erases
/// 10% of the live keys (with duplicates and absent keys in the batch) and inserts as many new
/// keys (with duplicates in the batch and updates of present keys). Erased slots are reused,
/// so no round may fail (no TableFull) and no rehash is needed; size and contents are exact
/// every round, each key is stored once, and erased keys are gone.
fn churn<K: TestKey, V: TestValue>(
    ctx: &Context,
    capacity: u64,
    load: f64,
    packed: Option<bool>,
    bucket_bytes: u32,
    rounds: usize,
    seed: u64,
) {
    let what = format!(
        "churn {:?}/{:?} cap {capacity} load {load} packed {packed:?} bucket {bucket_bytes}",
        K::TYPE,
        V::TYPE
    );
    let map = HashMap::new(
        ctx,
        &HashMapDesc {
            packed_insert: packed,
            bucket_bytes: Some(bucket_bytes),
            ..desc::<K, V>(capacity)
        },
    )
    .unwrap();
    let cap = map.capacity() as usize;
    let live_target = (cap as f64 * load) as usize;
    let mut rng = Rng(seed);
    let mut model = HashModel::new();
    let mut used = std::collections::HashSet::new();
    let mut fresh = |rng: &mut Rng, n: usize| -> Vec<K> {
        let mut keys = Vec::with_capacity(n);
        while keys.len() < n {
            let k = K::random(rng);
            if used.insert(k.to_u64()) {
                keys.push(k);
            }
        }
        keys
    };
    // Fill to the load in 4 batches.
    let initial = fresh(&mut rng, live_target);
    for chunk in initial.chunks(live_target.div_ceil(4)) {
        let values: Vec<V> = chunk.iter().map(|_| V::from_u64(rng.next_u64())).collect();
        assert_eq!(insert(&map, &mut model, chunk, &values), 0, "{what}: fill");
    }
    let mut live: Vec<u64> = model.keys();
    let per_round = (live_target / 10).max(1);
    let mut erased_all: Vec<K> = Vec::new();
    for round in 0..rounds {
        let what = format!("{what} round {round}");
        // Erase 10% of the live keys (random), some twice, plus absent keys.
        let mut gone = Vec::with_capacity(per_round + 8);
        for _ in 0..per_round {
            let i = rng.next_u32() as usize % live.len();
            gone.push(live.swap_remove(i));
        }
        let mut batch: Vec<K> = gone.iter().map(|&k| K::from_u64(k)).collect();
        for i in 0..per_round / 16 {
            batch.push(batch[(i * 5) % per_round]);
        }
        batch.extend(fresh(&mut rng, 3)); // never inserted
        let expected = model.erase(&batch.iter().map(|k| k.to_u64()).collect::<Vec<_>>());
        assert_eq!(expected, per_round as u64);
        // (The host erase returns the size difference: the size stays exact.)
        assert_eq!(map.erase(&batch).unwrap(), expected, "{what}: erased");
        // Insert 10% new keys, some twice with different values, plus updates of present keys.
        let new_keys = fresh(&mut rng, per_round);
        let mut keys = new_keys.clone();
        for i in 0..per_round / 16 {
            keys.push(new_keys[(i * 7) % per_round]);
        }
        for _ in 0..per_round / 16 {
            keys.push(K::from_u64(live[rng.next_u32() as usize % live.len()]));
        }
        let values: Vec<V> = keys.iter().map(|_| V::from_u64(rng.next_u64())).collect();
        assert_eq!(
            insert(&map, &mut model, &keys, &values),
            0,
            "{what}: insert failed"
        );
        live.extend(new_keys.iter().map(|k| k.to_u64()));
        assert_eq!(model.len(), live.len());
        // Exact size and contents every round (retrieve_all also catches a key stored twice).
        let stats = map.stats().unwrap();
        assert_eq!(stats.size, model.len() as u64, "{what}: size");
        assert!(
            stats.size + stats.tombstones <= map.capacity(),
            "{what}: {stats:?}"
        );
        check_retrieve::<K, V>(&map, &mut model, &what);
        erased_all.extend(gone.iter().map(|&k| K::from_u64(k)));
        if round % 16 == 15 || round + 1 == rounds {
            // Lookups: erased keys (some re-inserted? no: fresh keys are never reused), the
            // latest batch, absent keys.
            let mut probe: Vec<K> = erased_all.iter().rev().take(4 * per_round).copied().collect();
            probe.extend_from_slice(&keys);
            probe.extend(fresh(&mut rng, 16));
            check_lookups::<K, V>(&map, &mut model, &probe, &what);
        }
    }
    let stats = map.stats().unwrap();
    assert_eq!(stats.size, live_target as u64, "{what}: final size");
}

#[test]
fn churn_reuses_erased_slots_every_layout() {
    let ctx = context();
    // Capacities that are not powers of two; 50 rounds = 5 times the live keys replaced.
    for (i, load) in [0.8, 0.9].into_iter().enumerate() {
        let s = i as u64 * 100;
        churn::<u32, u32>(&ctx, 2003, load, Some(true), 32, 50, s + 1);
        churn::<u32, u32>(&ctx, 1501, load, Some(false), 64, 50, s + 2);
        churn::<u32, u64>(&ctx, 1201, load, None, 32, 50, s + 3);
        churn::<u64, u32>(&ctx, 999, load, None, 64, 50, s + 4);
        churn::<u64, u64>(&ctx, 1333, load, None, 32, 50, s + 5);
    }
    // Larger than 4 * PROBE_LIMIT slots: bounded probing, not whole-table scans.
    churn::<u32, u32>(&ctx, 20_011, 0.9, None, 32, 16, 6);
    assert_no_validation_messages(&ctx);
}

/// Maximum capacity and batch size (64-bit addressing, issue 20): refused past the documented
/// maxima with InvalidArgument, before anything is allocated or recorded.
#[test]
fn documented_maxima() {
    let ctx = context();
    use vkalgo::hash::{max_capacity, MAX_BATCH, MAX_SLOTS};
    assert_eq!(MAX_SLOTS, 1 << 31);
    assert_eq!(MAX_BATCH, u32::MAX as u64);
    for (k, v, bucket, slots) in [
        (HashKeyType::U32, HashValueType::U32, 32, 4u64),
        (HashKeyType::U32, HashValueType::U32, 64, 8),
        (HashKeyType::U64, HashValueType::U64, 32, 2),
        (HashKeyType::U64, HashValueType::U32, 64, 4),
    ] {
        let desc = HashMapDesc {
            bucket_bytes: Some(bucket),
            ..HashMapDesc::new(k, v, max_capacity(slots) + 1)
        };
        assert!(matches!(
            HashMap::new(&ctx, &desc),
            Err(Error::InvalidArgument(_))
        ));
    }
    let map = HashMap::new(&ctx, &desc::<u32, u32>(100)).unwrap();
    let n = MAX_BATCH + 1;
    // Counts past MAX_BATCH (direct, or an indirect count's max_count) are refused.
    let keys = GpuBuffer::new(&ctx, 64, MemoryLocation::GpuOnly, "k").unwrap();
    let r = keys.sub_range(0, 64);
    ctx.submit_and_wait(|cmd| unsafe {
        for count in [
            ElementCount::Direct(n),
            ElementCount::Indirect(keys.sub_range(0, 4)),
        ] {
            let e = map.record_insert(
                cmd,
                &HashInsertArgs {
                    keys: r,
                    values: r,
                    count,
                    max_count: n,
                    status: None,
                    failed_count: None,
                },
            );
            assert!(matches!(e, Err(Error::InvalidArgument(_))), "{e:?}");
            let e = map.record_find(
                cmd,
                &HashFindArgs {
                    keys: r,
                    values: Some(r),
                    found: None,
                    count,
                    max_count: n,
                },
            );
            assert!(matches!(e, Err(Error::InvalidArgument(_))), "{e:?}");
            let e = map.record_erase(
                cmd,
                &HashEraseArgs {
                    keys: r,
                    erased: None,
                    count,
                    max_count: n,
                },
            );
            assert!(matches!(e, Err(Error::InvalidArgument(_))), "{e:?}");
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(map.size().unwrap(), 0);
    assert_no_validation_messages(&ctx);
}

/// 64-bit addressing (issue 20), for the GPU machine (about 35 GiB of device memory and 60 GiB
/// of host memory; `cargo test --release --test hash -- --ignored past_2_31`): one insert batch
/// of 2^31 + 5 keys (2^30 distinct keys, each twice or three times with the same value) into a
/// map of the largest u32/u32 capacity (2^31 - 12 slots), a find of all 2^31 + 5 (every value
/// checked, also at indices >= 2^31), and an erase batch of 2^31 + 5 keys whose only storable
/// keys sit at indices >= 2^31.
#[test]
// Ignored here: no CI or development machine has the memory; the GPU machine runs it
// (bench/gpu_hash.sh), as the attribute says.
#[ignore = "needs about 35 GiB of device and 60 GiB of host memory: the GPU machine (bench/gpu_hash.sh runs it)"]
fn past_2_31_keys_in_one_batch() {
    let ctx = context();
    let map = HashMap::new(&ctx, &desc::<u32, u32>(vkalgo::hash::max_capacity(4))).unwrap();
    assert_eq!(map.capacity(), 2_147_483_636);
    let distinct = 1usize << 30;
    let len = (1usize << 31) + 5;
    // Key j: an odd multiplier is a bijection on u32; j < 2^30 never gives a reserved key
    // after the mask below (the top bit is cleared).
    let key = |j: usize| (j as u32).wrapping_mul(0x9E37_79B1) & 0x7FFF_FFFF;
    let value = |k: u32| k ^ 0x5A5A_5A5A;
    let keys: Vec<u32> = (0..len).map(|i| key(i % distinct)).collect();
    let values: Vec<u32> = keys.iter().map(|&k| value(k)).collect();
    map.insert(&keys, &values).unwrap();
    assert_eq!(map.size().unwrap(), distinct as u64);
    let mut got = vec![0u32; len];
    let mut found = vec![false; len];
    map.find(&keys, &mut got, Some(&mut found)).unwrap();
    let wrong = (0..len).filter(|&i| !found[i] || got[i] != values[i]).count();
    assert_eq!(wrong, 0, "find: {wrong} of {len} keys wrong");
    assert!(found[len - 1] && got[len - 1] == value(key(4)));
    drop((got, found, values));
    // Erase: reserved keys everywhere (skipped) except the last 5 indices (>= 2^31).
    let mut erase = keys;
    erase[..1 << 31].fill(u32::MAX);
    assert_eq!(map.erase(&erase).unwrap(), 5);
    drop(erase);
    let probe: Vec<u32> = (0..10).map(key).collect();
    let mut got = vec![0u32; 10];
    let mut found = vec![false; 10];
    map.find(&probe, &mut got, Some(&mut found)).unwrap();
    assert_eq!(
        found,
        [false, false, false, false, false, true, true, true, true, true]
    );
    assert_eq!(map.size().unwrap(), distinct as u64 - 5);
}

/// Counts no batch may have are refused from the count alone, before anything is allocated,
/// read or written: INVALID_ARGUMENT, never an abort or a panic (the arrays here are far shorter
/// than the counts, so a call that read them would fail under a sanitizer or crash).
#[test]
fn c_abi_absurd_counts_are_refused_before_allocating() {
    use std::ptr::{null_mut, NonNull};
    use vkalgo_ffi::hash::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    unsafe {
        let mut ctx = null_mut();
        assert_eq!(
            vkalgo_context_create_default(&mut ctx),
            VkalgoResult::VkalgoSuccess
        );
        let desc = VkalgoHashMapDesc {
            key_type: VKALGO_KEY_U32,
            value_type: VKALGO_VALUE_U32,
            capacity: 64,
            ..Default::default()
        };
        let mut map = null_mut();
        assert_eq!(
            vkalgo_hash_map_create(ctx, &desc, &mut map),
            VkalgoResult::VkalgoSuccess
        );
        let mut keys = [7u32; 4];
        let mut values = [9u32; 4];
        let mut found = [2u8; 4];
        let mut status = [5u32; 4];
        let k = keys.as_mut_ptr().cast::<std::ffi::c_void>();
        let v = values.as_mut_ptr().cast::<std::ffi::c_void>();
        let dangling = NonNull::<u64>::dangling().as_ptr().cast::<std::ffi::c_void>();
        let counts = [vkalgo::hash::MAX_BATCH as usize + 1, usize::MAX / 2, usize::MAX];
        for count in counts {
            let invalid = VkalgoResult::VkalgoErrorInvalidArgument;
            assert_eq!(
                vkalgo_hash_map_find_host(map, k, v, found.as_mut_ptr(), count),
                invalid,
                "find {count}"
            );
            assert_eq!(
                vkalgo_hash_map_contains_host(map, k, found.as_mut_ptr(), count),
                invalid,
                "contains {count}"
            );
            assert_eq!(
                vkalgo_hash_map_insert_status_host(map, k, v, status.as_mut_ptr(), count),
                invalid,
                "insert_status {count}"
            );
            assert_eq!(
                vkalgo_hash_map_insert_host(map, k, v, count),
                invalid,
                "insert {count}"
            );
            assert_eq!(
                vkalgo_hash_map_erase_host(map, dangling, count),
                invalid,
                "erase {count}"
            );
            let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message()).to_string_lossy();
            assert!(!message.contains("panic"), "{message}");
        }
        assert_eq!((keys, values, found, status), ([7; 4], [9; 4], [2; 4], [5; 4]));
        let mut size = u64::MAX;
        assert_eq!(
            vkalgo_hash_map_size_host(map, &mut size),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(size, 0, "nothing was inserted");
        vkalgo_hash_map_destroy(map);
        vkalgo_context_destroy(ctx);
    }
}

/// The C record-layer rehash and the map's counts: a map with tombstones moved into a larger
/// one through `vkalgo_hash_map_record_rehash_into` on a command buffer of the caller's (here
/// the test's context, the C context made over its device and queue), every live key found
/// there with its value and no erased key, tombstones gone; bad arguments refused.
#[test]
fn c_abi_record_rehash_into_and_stats() {
    use std::ffi::c_void;
    use std::ptr::{null, null_mut};
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::hash::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    // The test makes one host call at a time: the queue needs no lock beyond the call order.
    unsafe extern "C" fn no_lock(_user_data: *mut c_void, _lock: u32) {}
    let ctx = context();
    unsafe {
        let entry = vkalgo::ash::Entry::load().unwrap();
        let queue = ctx.device().get_device_queue(ctx.queue_family_index(), 0);
        let desc = VkalgoExternalContextDesc {
            instance: VkInstance(ctx.instance().handle().as_raw() as *mut c_void),
            physical_device: VkPhysicalDevice(ctx.physical_device().as_raw() as *mut c_void),
            device: VkDevice(ctx.device().handle().as_raw() as *mut c_void),
            queue_family_index: ctx.queue_family_index(),
            queue: VkQueue(queue.as_raw() as *mut c_void),
            get_instance_proc_addr: Some(std::mem::transmute::<
                vk::PFN_vkGetInstanceProcAddr,
                unsafe extern "system" fn(VkInstance, *const std::ffi::c_char) -> *const c_void,
            >(entry.static_fn().get_instance_proc_addr)),
            pipeline_cache: VkPipelineCache(0),
            flags: if ctx.profile().int64_atomics {
                VKALGO_CONTEXT_INT64_ATOMICS_ENABLED
            } else {
                0
            },
            timeout_ns: 0,
            queue_lock: Some(no_lock),
            queue_lock_user_data: null_mut(),
            pipeline_cache_data: null(),
            pipeline_cache_data_size: 0,
            ..Default::default()
        };
        let mut cctx = null_mut();
        assert_eq!(
            vkalgo_context_create_external(&desc, &mut cctx),
            VkalgoResult::VkalgoSuccess
        );
        let map_desc = |capacity| VkalgoHashMapDesc {
            key_type: VKALGO_KEY_U32,
            value_type: VKALGO_VALUE_U32,
            capacity,
            ..Default::default()
        };
        let (mut src, mut dst, mut other) = (null_mut(), null_mut(), null_mut());
        assert_eq!(
            vkalgo_hash_map_create(cctx, &map_desc(600), &mut src),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(
            vkalgo_hash_map_create(cctx, &map_desc(2000), &mut dst),
            VkalgoResult::VkalgoSuccess
        );
        let wide = VkalgoHashMapDesc {
            value_type: VKALGO_VALUE_U64,
            ..map_desc(100)
        };
        let skip = !ctx.profile().int64_atomics; // u64 values need 64-bit atomics
        if !skip {
            assert_eq!(
                vkalgo_hash_map_create(cctx, &wide, &mut other),
                VkalgoResult::VkalgoSuccess
            );
        }
        let keys: Vec<u32> = (0..500u32).map(|i| i.wrapping_mul(2_654_435_761) >> 2).collect();
        let values: Vec<u32> = (0..500).collect();
        assert_eq!(
            vkalgo_hash_map_insert_host(src, keys.as_ptr().cast(), values.as_ptr().cast(), 500),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(
            vkalgo_hash_map_erase_host(src, keys.as_ptr().cast(), 200),
            VkalgoResult::VkalgoSuccess
        );
        let mut stats = VkalgoHashMapStats {
            next: null_mut(),
            size: 0,
            tombstones: 0,
            capacity: 0,
        };
        assert_eq!(
            vkalgo_hash_map_stats_host(src, &mut stats),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(stats.size, 300);
        let mut capacity = 0;
        assert_eq!(
            vkalgo_hash_map_capacity(src, &mut capacity),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(stats.capacity, capacity);
        let src_tombstones = stats.tombstones;

        let args = |dst| VkalgoHashRehashArgs {
            next: null(),
            dst,
            failed_count: VkalgoBufferRange {
                buffer: VkBuffer(0),
                offset: 0,
                size: 0,
            },
        };
        // Bad arguments: refused before anything is recorded.
        let invalid = VkalgoResult::VkalgoErrorInvalidArgument;
        let refused = ctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            assert_eq!(vkalgo_hash_map_record_rehash_into(src, c, null()), invalid);
            assert_eq!(vkalgo_hash_map_record_rehash_into(src, c, &args(null())), invalid);
            assert_eq!(vkalgo_hash_map_record_rehash_into(null(), c, &args(dst)), invalid);
            assert_eq!(
                vkalgo_hash_map_record_rehash_into(src, c, &args(src)),
                invalid,
                "onto itself"
            );
            let with_next = VkalgoHashRehashArgs {
                next: &stats as *const _ as *const c_void,
                ..args(dst)
            };
            assert_eq!(vkalgo_hash_map_record_rehash_into(src, c, &with_next), invalid);
            if !skip {
                assert_eq!(
                    vkalgo_hash_map_record_rehash_into(src, c, &args(other)),
                    invalid,
                    "types"
                );
            }
            Ok(())
        });
        refused.unwrap();
        let mut dst_stats = stats;
        assert_eq!(
            vkalgo_hash_map_stats_host(dst, &mut dst_stats),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(dst_stats.size, 0, "nothing moved by the refused calls");

        ctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            assert_eq!(
                vkalgo_hash_map_record_rehash_into(src, c, &args(dst)),
                VkalgoResult::VkalgoSuccess
            );
            Ok(())
        })
        .unwrap();
        assert_eq!(
            vkalgo_hash_map_stats_host(dst, &mut dst_stats),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(
            (dst_stats.size, dst_stats.tombstones),
            (300, 0),
            "src had {src_tombstones} tombstones"
        );
        let mut found_values = vec![u32::MAX; 500];
        let mut found = vec![9u8; 500];
        assert_eq!(
            vkalgo_hash_map_find_host(
                dst,
                keys.as_ptr().cast(),
                found_values.as_mut_ptr().cast(),
                found.as_mut_ptr(),
                500
            ),
            VkalgoResult::VkalgoSuccess
        );
        for i in 0..500 {
            assert_eq!(found[i], (i >= 200) as u8, "key {i}");
            if i >= 200 {
                assert_eq!(found_values[i], i as u32, "key {i}");
            }
        }
        let mut bad = VkalgoHashMapStats {
            next: &mut dst_stats as *mut _ as *mut c_void,
            ..dst_stats
        };
        assert_eq!(
            vkalgo_hash_map_stats_host(dst, &mut bad),
            invalid,
            "next must be NULL"
        );
        assert_eq!(vkalgo_hash_map_stats_host(dst, null_mut()), invalid);
        vkalgo_hash_map_destroy(other);
        vkalgo_hash_map_destroy(dst);
        vkalgo_hash_map_destroy(src);
        vkalgo_context_destroy(cctx);
    }
    assert_no_validation_messages(&ctx);
}
