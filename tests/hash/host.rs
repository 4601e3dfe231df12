//! The hash map through the host layer, against the CPU model: random operation sequences,
//! high loads, overfilled tables, duplicates, reserved keys, tunings, contention, deep probes,
//! churn, keys past 2^31.

use super::*;

fn check_retrieve<K: HashTestKey, V: HashTestValue>(map: &HashMap, model: &mut HashModel, what: &str) {
    let (keys, values): (Vec<K>, Vec<V>) = map.retrieve_all().unwrap();
    let k: Vec<u64> = keys.iter().map(|k| k.to_u64()).collect();
    let v: Vec<u64> = values.iter().map(|v| v.to_u64()).collect();
    if let Err(e) = model.check_entries(&k, &v) {
        panic!("{what}: {e}");
    }
}

/// A random operation sequence on one map, compared with the model after every step.
fn model_sequence<K: HashTestKey, V: HashTestValue>(
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

fn model_sequence_tuned<K: HashTestKey, V: HashTestValue>(
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
}

/// Fill in batches to 0.97 load with no failure, and everything stays findable.
#[test]
fn high_load_batches_to_097() {
    let ctx = context();
    fn fill<K: HashTestKey, V: HashTestValue>(ctx: &Context, capacity: u64, seed: u64) {
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
}

/// A small table overfilled: the call returns TableFull, exactly the free slots are used
/// (small tables are scanned whole), stored keys stay findable, size stays exact; erased slots
/// of the full table are reused by later inserts (tombstones counted exactly).
#[test]
fn overfilling_a_small_table() {
    let ctx = context();
    fn overfill<K: HashTestKey, V: HashTestValue>(ctx: &Context, packed: Option<bool>, bucket_bytes: u32) {
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
        // Erase 10 of the full table: every bucket is full, so each freed slot is a
        // tombstone...
        let gone: Vec<K> = present[..10].to_vec();
        assert_eq!(map.erase(&gone).unwrap(), 10);
        model.erase(&gone.iter().map(|k| k.to_u64()).collect::<Vec<_>>());
        let stats = map.stats().unwrap();
        assert_eq!(stats.size, cap as u64 - 10);
        assert_eq!(stats.tombstones, 10, "{stats:?}");
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
        // Erase everything; fill again with other keys: every free slot is reused (the
        // tombstone count must then be exactly 0).
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
}

/// Many invocations inserting, then erasing, the same few keys at once: one slot per key, one
/// Inserted per key, exact size; one erase per key succeeds. With 32 x 4 tiles one invocation
/// holds the same key twice (keys 32 apart: its first and fourth key).
#[test]
fn heavy_contention_on_few_keys() {
    let ctx = context();
    let tiles = [
        None,
        Some(HashTuning {
            workgroup_size: 32,
            keys_per_invocation: 4,
        }),
    ];
    for (packed, tuning) in [Some(true), Some(false)]
        .into_iter()
        .flat_map(|p| tiles.map(|t| (p, t)))
    {
        let desc = HashMapDesc {
            packed_insert: packed,
            tuning,
            ..desc::<u32, u32>(1000)
        };
        let map = HashMap::new(&ctx, &desc).unwrap();
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
}

/// Tables of just under 4096 buckets (scanned whole) filled to 100%: the last keys sit
/// thousands of buckets deep in their probe sequences, failing keys walk all of them. Every
/// stored key must still be found, exactly the free slots get used, and absent keys walk the
/// whole table. Then single free slots, found anywhere in a probe sequence. (Also guards
/// lavapipe's cap on the loop iterations of an invocation.)
#[test]
fn deep_probe_sequences_at_full_load() {
    let ctx = context();
    fn run<K: HashTestKey, V: HashTestValue>(ctx: &Context, bucket_bytes: u32) {
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
}

/// Steady churn (issue 20): a map held at a live load of 0.8 or 0.9, where every round erases
/// 10% of the live keys (with duplicates and absent keys in the batch) and inserts as many new
/// keys (with duplicates in the batch and updates of present keys). Erased slots are reused,
/// so no round may fail (no TableFull) and no rehash is needed; size and contents are exact
/// every round, each key is stored once, and erased keys are gone.
fn churn<K: HashTestKey, V: HashTestValue>(
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
