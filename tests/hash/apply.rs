//! Insert-or-apply (group-by) against a CPU model: every layout, both claims of u32/u32 maps,
//! both bucket sizes, every operation; hot keys (one key in every lane), long runs of one key,
//! few and many distinct keys, values that wrap, keys present before the call, full tables, the
//! record layer's statuses and indirect counts, and bad input.

use super::*;
use std::collections::HashMap as Model;

/// `op` applied to `a` and `b` as unsigned values of `bits` bits.
fn combine(op: ReduceOp, a: u64, b: u64, bits: u32) -> u64 {
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    op.apply_u64(a, b) & mask
}

/// The model after an insert-or-apply of `keys`/`values` with `op` where `stored(key)` says
/// whether the key found a slot.
fn model_apply(model: &mut Model<u64, u64>, keys: &[u64], values: &[u64], op: ReduceOp, bits: u32) {
    for (&k, &v) in keys.iter().zip(values) {
        model
            .entry(k)
            .and_modify(|s| *s = combine(op, *s, v, bits))
            .or_insert(v);
    }
}

/// The map's entries equal the model's.
fn check_entries<K: HashTestKey, V: HashTestValue>(map: &HashMap, model: &Model<u64, u64>, what: &str) {
    let (keys, values): (Vec<K>, Vec<V>) = map.retrieve_all().unwrap();
    assert_eq!(keys.len(), model.len(), "{what}: entries");
    for (k, v) in keys.iter().zip(&values) {
        assert_eq!(model.get(&k.to_u64()), Some(&v.to_u64()), "{what}: key {k:?}");
    }
    assert_eq!(map.size().unwrap(), model.len() as u64, "{what}: size");
}

/// Batches of keys with `distinct` distinct keys from `pool` (one hot key takes half of the
/// batch when `hot`), values random with every fourth the type's largest (sums wrap).
fn batch<K: HashTestKey, V: HashTestValue>(
    rng: &mut Rng,
    pool: &[K],
    n: usize,
    distinct: usize,
    hot: bool,
) -> (Vec<K>, Vec<V>) {
    let max = if std::mem::size_of::<V>() == 8 {
        u64::MAX
    } else {
        u32::MAX as u64
    };
    let keys = (0..n)
        .map(|i| {
            if hot && i % 2 == 0 {
                pool[0]
            } else {
                pool[(rng.next_u64() % distinct as u64) as usize]
            }
        })
        .collect();
    let values = (0..n)
        .map(|_| match rng.next_u32() % 4 {
            0 => V::from_u64(max),
            1 => V::from_u64(rng.next_u64() % 16),
            _ => V::from_u64(rng.next_u64()),
        })
        .collect();
    (keys, values)
}

fn group_by<K: HashTestKey, V: HashTestValue>(
    ctx: &Context,
    packed: Option<bool>,
    bucket_bytes: Option<u32>,
    seed: u64,
) {
    let bits = 8 * std::mem::size_of::<V>() as u32;
    let mut rng = Rng(seed);
    let pool: Vec<K> = (0..3000).map(|_| K::random(&mut rng)).collect();
    for op in ReduceOp::ALL {
        let what = format!(
            "{:?}/{:?} packed {packed:?} bucket {bucket_bytes:?} {op:?}",
            K::TYPE,
            V::TYPE
        );
        let map = HashMap::new(
            ctx,
            &HashMapDesc {
                packed_insert: packed,
                bucket_bytes,
                ..desc::<K, V>(4096)
            },
        )
        .unwrap();
        let mut model = Model::new();
        // Keys present before any apply: plain inserts.
        let (keys, values) = batch::<K, V>(&mut rng, &pool[100..], 300, 200, false);
        map.insert(&dedup(&keys), &values[..dedup(&keys).len()]).unwrap();
        for (k, v) in dedup(&keys).iter().zip(&values) {
            model.insert(k.to_u64(), v.to_u64());
        }
        // One key only, few keys with a hot one, many keys, and a batch of many tiles per
        // workgroup of the shared-memory kernel's grid (u32/u32).
        for (n, distinct, hot) in [
            (5000, 1, false),
            (3000, 40, true),
            (6000, 2500, false),
            (7, 3, false),
            (70_000, 3000, true),
        ] {
            let (keys, values) = batch::<K, V>(&mut rng, &pool, n, distinct, hot);
            map.insert_or_apply(&keys, &values, op).unwrap();
            let k64: Vec<u64> = keys.iter().map(|k| k.to_u64()).collect();
            let v64: Vec<u64> = values.iter().map(|v| v.to_u64()).collect();
            model_apply(&mut model, &k64, &v64, op, bits);
            check_entries::<K, V>(&map, &model, &format!("{what} n {n} distinct {distinct}"));
        }
        // Long runs of one key, the key changing between runs (the shared-memory kernel's
        // per-lane runs, flushed at each change and at the end).
        let keys: Vec<K> = [(1, 3000), (2, 1500), (1, 4000), (3, 37), (2, 2600)]
            .into_iter()
            .flat_map(|(i, len)| std::iter::repeat(pool[i]).take(len))
            .collect();
        let (_, values) = batch::<K, V>(&mut rng, &pool, keys.len(), 1, false);
        map.insert_or_apply(&keys, &values, op).unwrap();
        let k64: Vec<u64> = keys.iter().map(|k| k.to_u64()).collect();
        let v64: Vec<u64> = values.iter().map(|v| v.to_u64()).collect();
        model_apply(&mut model, &k64, &v64, op, bits);
        check_entries::<K, V>(&map, &model, &format!("{what} runs of one key"));
    }
}

/// The keys without repeats, in first-seen order.
fn dedup<K: HashTestKey>(keys: &[K]) -> Vec<K> {
    let mut seen = std::collections::HashSet::new();
    keys.iter().copied().filter(|k| seen.insert(k.to_u64())).collect()
}

#[test]
fn group_by_every_layout_and_operation() {
    let ctx = context();
    group_by::<u32, u32>(&ctx, Some(true), None, 1);
    group_by::<u32, u32>(&ctx, Some(false), Some(64), 2);
    group_by::<u32, u64>(&ctx, None, None, 3);
    group_by::<u64, u32>(&ctx, None, Some(64), 4);
    group_by::<u64, u64>(&ctx, None, None, 5);
}

/// A table too small for the batch's keys: TableFull; every stored key holds op over all of its
/// batch values (all occurrences of a key share its fate), the size is exact, and the keys
/// held before keep their combined values.
#[test]
fn full_table_keeps_what_it_held() {
    let ctx = context();
    for packed in [Some(true), Some(false)] {
        let map = packed_map(&ctx, packed, 64);
        let mut rng = Rng(9);
        let pool: Vec<u32> = (0..500).map(|_| u32::random(&mut rng)).collect();
        map.insert(&pool[..10], &[5u32; 10]).unwrap();
        let (keys, values) = batch::<u32, u32>(&mut rng, &pool, 4000, 500, true);
        match map.insert_or_apply(&keys, &values, ReduceOp::Sum) {
            Err(Error::TableFull(_)) => {}
            other => panic!("packed {packed:?}: expected TableFull, got {other:?}"),
        }
        let mut full = Model::new();
        for k in &pool[..10] {
            full.insert(*k as u64, 5u64);
        }
        let k64: Vec<u64> = keys.iter().map(|&k| k as u64).collect();
        let v64: Vec<u64> = values.iter().map(|&v| v as u64).collect();
        model_apply(&mut full, &k64, &v64, ReduceOp::Sum, 32);
        let (got_k, got_v): (Vec<u32>, Vec<u32>) = map.retrieve_all().unwrap();
        assert_eq!(map.size().unwrap(), got_k.len() as u64);
        assert_eq!(
            got_k.len() as u64,
            map.capacity(),
            "packed {packed:?}: every slot used"
        );
        for (k, v) in got_k.iter().zip(&got_v) {
            assert_eq!(
                full.get(&(*k as u64)),
                Some(&(*v as u64)),
                "packed {packed:?}: key {k}"
            );
        }
        for k in &pool[..10] {
            assert!(
                got_k.contains(k),
                "packed {packed:?}: key {k} held before was lost"
            );
        }
    }
}

/// The record layer without statuses (u32 maps: the shared-memory kernel) into a table too
/// small: the failure counter counts every occurrence of a key left out (all occurrences of a
/// key share its fate), keys combined in shared memory included.
#[test]
fn failure_count_without_statuses() {
    let ctx = context();
    for packed in [Some(true), Some(false)] {
        let map = packed_map(&ctx, packed, 64);
        let mut rng = Rng(10);
        let pool: Vec<u32> = (0..300).map(|_| u32::random(&mut rng)).collect();
        // Runs of one key (a subgroup's lanes equal), then keys drawn from the pool.
        let mut keys = vec![pool[0]; 700];
        keys.extend((0..3300).map(|_| pool[rng.next_u32() as usize % pool.len()]));
        keys.extend([u32::MAX, u32::MAX - 1]);
        let values: Vec<u32> = (0..keys.len() as u32).collect();
        let rec = record_insert(
            &ctx,
            &map,
            &keys,
            &values,
            RecordOptions {
                apply: Some(ReduceOp::Sum),
                no_statuses: true,
                ..Default::default()
            },
        );
        let (got_k, _): (Vec<u32>, Vec<u32>) = map.retrieve_all().unwrap();
        let stored: std::collections::HashSet<u32> = got_k.into_iter().collect();
        assert_eq!(
            stored.len() as u64,
            map.capacity(),
            "packed {packed:?}: every slot used"
        );
        let left_out = keys.iter().filter(|k| !stored.contains(k)).count() as u32;
        assert!(
            left_out > 700,
            "packed {packed:?}: the test leaves out keys ({left_out})"
        );
        assert_eq!(rec.failed, left_out, "packed {packed:?}: failed");
    }
}

/// The record layer: statuses (one Inserted per new key, Updated for the rest, Reserved for
/// reserved keys, counted as failed), an indirect count below the maximum (nothing past it
/// written or applied), at an offset.
#[test]
fn record_layer_statuses_and_indirect_count() {
    let ctx = context();
    for packed in [Some(true), Some(false)] {
        let map = packed_map(&ctx, packed, 2000);
        map.insert(&[7u32], &[100u32]).unwrap();
        let mut keys: Vec<u32> = (0..1200)
            .map(|i| [7, 8, 9, u32::MAX, 10 + i % 300][i as usize % 5])
            .collect();
        keys[1] = u32::MAX - 1;
        let values: Vec<u32> = (0..1200).map(|i| i + 1).collect();
        let rec = record_insert(
            &ctx,
            &map,
            &keys,
            &values,
            RecordOptions {
                offset: 40,
                indirect: Some(1000),
                apply: Some(ReduceOp::Max),
                no_statuses: false,
            },
        );
        let live = &keys[..1000];
        let reserved = live.iter().filter(|&&k| k >= u32::MAX - 1).count() as u32;
        assert_eq!(
            rec.failed, reserved,
            "packed {packed:?}: failed = the reserved keys"
        );
        assert!(
            rec.status[1000..].iter().all(|&s| s == 0xA5A5_A5A5),
            "status written past the count"
        );
        let mut inserted = std::collections::HashSet::new();
        for (i, (&k, &s)) in live.iter().zip(&rec.status).enumerate() {
            let s = InsertStatus::from_code(s).unwrap();
            match s {
                InsertStatus::Reserved => assert!(k >= u32::MAX - 1, "key {k} at {i}"),
                InsertStatus::Inserted => assert!(k != 7 && inserted.insert(k), "key {k} at {i}"),
                InsertStatus::Updated => {}
                InsertStatus::Full => panic!("key {k} at {i}: Full"),
                _ => unreachable!(),
            }
        }
        let mut model = Model::from([(7u64, 100u64)]);
        let (k64, v64): (Vec<u64>, Vec<u64>) = live
            .iter()
            .zip(&values)
            .filter(|(&k, _)| k < u32::MAX - 1)
            .map(|(&k, &v)| (k as u64, v as u64))
            .unzip();
        assert_eq!(
            inserted.len(),
            k64.iter().collect::<std::collections::HashSet<_>>().len() - 1
        );
        model_apply(&mut model, &k64, &v64, ReduceOp::Max, 32);
        check_entries::<u32, u32>(&map, &model, &format!("packed {packed:?} record layer"));
    }
}

/// Bad input changes nothing: reserved keys, mismatched lengths, another key type.
#[test]
fn bad_input_changes_nothing() {
    let ctx = context();
    let map = HashMap::new(&ctx, &desc::<u64, u64>(100)).unwrap();
    map.insert(&[1u64, 2], &[10u64, 20]).unwrap();
    let cases: [(&str, Result<(), Error>); 3] = [
        (
            "reserved",
            map.insert_or_apply(&[1u64, u64::MAX], &[1u64, 1], ReduceOp::Sum),
        ),
        ("lengths", map.insert_or_apply(&[1u64, 2], &[1u64], ReduceOp::Sum)),
        ("key type", map.insert_or_apply(&[1u32], &[1u64], ReduceOp::Sum)),
    ];
    for (what, result) in cases {
        assert!(
            matches!(result, Err(Error::InvalidArgument(_))),
            "{what}: {result:?}"
        );
    }
    let model = Model::from([(1u64, 10u64), (2, 20)]);
    check_entries::<u64, u64>(&map, &model, "after bad input");
    assert!(ReduceOp::from_raw(3).is_err());
}
