//! The multimap through the host layer, against the model.

use super::*;

/// Every layout and bucket size: adversarial batches (thousands of one key, a pair stored a
/// hundred times, absent keys, the largest storable key, u64 keys differing only in high
/// bits), counted and retrieved exactly, in two batches and after a clear.
#[test]
fn every_layout_against_the_model() {
    let ctx = context();
    let mut seed = 1;
    for_every_layout!(ctx, |K, V, packed, bucket| {
        against_the_model::<K, V>(&ctx, packed, bucket, seed);
        seed += 1;
    });
}

fn against_the_model<K: HashTestKey, V: HashTestValue>(
    ctx: &Context,
    packed: Option<bool>,
    bucket: u32,
    seed: u64,
) {
    let what = format!("{:?}/{:?} packed {packed:?} bucket {bucket}", K::TYPE, V::TYPE);
    let mm = multimap::<K, V>(ctx, 6000, packed, bucket);
    let mut model = MultimapModel::new();
    let mut rng = Rng(seed);
    let (keys, values, hot, absent) = adversarial::<K, V>(&mut rng, 2000);
    let half = keys.len() / 2;
    insert_all(&mm, &mut model, &keys[..half], &values[..half]);
    let queries = queries_of(&keys, hot, &absent);
    check_queries::<K, V>(&mm, &model, &queries, &format!("{what}, first half"));
    insert_all(&mm, &mut model, &keys[half..], &values[half..]);
    assert_eq!(model.count(hot.to_u64()), 2000);
    check_queries::<K, V>(&mm, &model, &queries, &what);
    // The same batch again: every pair twice.
    insert_all(&mm, &mut model, &keys[..500], &values[..500]);
    check_queries::<K, V>(&mm, &model, &queries, &format!("{what}, again"));
    mm.clear().unwrap();
    model.clear();
    check_queries::<K, V>(&mm, &model, &queries, &format!("{what}, cleared"));
    insert_all(&mm, &mut model, &keys[..300], &values[..300]);
    check_queries::<K, V>(&mm, &model, &queries, &format!("{what}, after the clear"));
}

/// Retrieve into the caller's arrays: room for exactly the total works; one value less is
/// refused naming the total, the offsets written (their last is the room needed) and the
/// values untouched.
#[test]
fn retrieve_room_exact_and_one_short() {
    let ctx = context();
    let mm = multimap::<u64, u32>(&ctx, 500, None, 32);
    let mut model = MultimapModel::new();
    let keys: Vec<u64> = (0..300).map(|i| (i % 37) << 40).collect();
    let values: Vec<u32> = (0..300).collect();
    insert_all(&mm, &mut model, &keys, &values);
    let queries: Vec<u64> = vec![0, 5 << 40, 99, 36 << 40, 0];
    let total: u64 = queries.iter().map(|&q| model.count(q)).sum();
    let mut offsets = vec![0u64; queries.len() + 1];
    let mut out = vec![0xDEADu32; total as usize];
    assert_eq!(mm.retrieve_into(&queries, &mut offsets, &mut out).unwrap(), total);
    model.check_retrieve(&queries, &offsets, &values64(&out)).unwrap();
    let mut offsets2 = vec![0u64; queries.len() + 1];
    let mut short = vec![0xDEADu32; total as usize - 1];
    match mm.retrieve_into(&queries, &mut offsets2, &mut short) {
        Err(Error::InvalidArgument(m)) => assert!(m.contains(&format!("{total} values")), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(offsets2, offsets);
    assert!(short.iter().all(|&v| v == 0xDEAD), "values written on error");
    // Wrong offset counts are refused before anything.
    let mut bad = vec![7u64; queries.len()];
    assert!(matches!(
        mm.retrieve_into(&queries, &mut bad, &mut out),
        Err(Error::InvalidArgument(_))
    ));
    assert!(bad.iter().all(|&o| o == 7));
}

/// Count 0 everywhere: empty inserts, counts and retrieves are fine and change nothing.
#[test]
fn empty_batches() {
    let ctx = context();
    let mm = multimap::<u32, u64>(&ctx, 100, None, 32);
    mm.insert::<u32, u64>(&[], &[]).unwrap();
    mm.count::<u32>(&[], &mut []).unwrap();
    let (offsets, values): (Vec<u64>, Vec<u64>) = mm.retrieve::<u32, u64>(&[]).unwrap();
    assert_eq!((offsets, values), (vec![0], vec![]));
    let mut offsets = [9u64];
    assert_eq!(
        mm.retrieve_into::<u32, u64>(&[], &mut offsets, &mut []).unwrap(),
        0
    );
    assert_eq!(offsets, [0]);
    assert_eq!(mm.size().unwrap(), 0);
    // Keys that are absent: zero counts, an empty retrieve.
    let (offsets, values): (Vec<u64>, Vec<u64>) = mm.retrieve(&[1u32, 2, 3]).unwrap();
    assert_eq!((offsets, values), (vec![0, 0, 0, 0], vec![]));
}

/// Tables of up to 4096 buckets are walked whole: a nearly full table takes every last free
/// slot; a full one refuses further pairs with TableFull (exactly the free slots are used), the
/// size stays exact and every stored pair stays retrievable.
#[test]
fn nearly_full_and_full_tables() {
    let ctx = context();
    fn fill<K: HashTestKey, V: HashTestValue>(ctx: &Context, packed: Option<bool>, bucket: u32, seed: u64) {
        let what = format!("{:?}/{:?} packed {packed:?} bucket {bucket}", K::TYPE, V::TYPE);
        let mm = multimap::<K, V>(ctx, 100, packed, bucket);
        let cap = mm.capacity() as usize;
        let mut model = MultimapModel::new();
        let mut rng = Rng(seed);
        let pool: Vec<K> = (0..12).map(|_| K::random(&mut rng)).collect();
        let pick = |rng: &mut Rng, n: usize| -> (Vec<K>, Vec<V>) {
            let keys = (0..n)
                .map(|_| pool[rng.next_u32() as usize % pool.len()])
                .collect();
            let values = (0..n).map(|_| V::from_u64(rng.next_u64() % 5)).collect();
            (keys, values)
        };
        // To one free slot, then the last one.
        let (keys, values) = pick(&mut rng, cap - 1);
        insert_all(&mm, &mut model, &keys, &values);
        let (keys, values) = pick(&mut rng, 1);
        insert_all(&mm, &mut model, &keys, &values);
        check_queries::<K, V>(&mm, &model, &pool, &format!("{what}: full"));
        // Full: nothing more goes in, nothing is lost.
        let (keys, values) = pick(&mut rng, 7);
        match mm.insert(&keys, &values) {
            Err(Error::TableFull(m)) => assert!(m.contains("7 of 7"), "{what}: {m}"),
            other => panic!("{what}: {other:?}"),
        }
        check_queries::<K, V>(&mm, &model, &pool, &format!("{what}: after TableFull"));
        // Nearly full, and a batch larger than the room: the room is used, the rest refused.
        mm.clear().unwrap();
        model.clear();
        let (keys, values) = pick(&mut rng, cap - 4);
        insert_all(&mm, &mut model, &keys, &values);
        let (keys, values) = pick(&mut rng, 10);
        match mm.insert(&keys, &values) {
            Err(Error::TableFull(m)) => assert!(m.contains("6 of 10"), "{what}: {m}"),
            other => panic!("{what}: {other:?}"),
        }
        assert_eq!(mm.size().unwrap(), cap as u64, "{what}");
        let before = model.clone();
        model.insert(&to64(&keys), &values64(&values)); // an upper bound of what is stored
        let (offsets, got): (Vec<u64>, Vec<V>) = mm.retrieve(&pool).unwrap();
        let got = values64(&got);
        for (i, k) in pool.iter().enumerate() {
            let mine = &got[offsets[i] as usize..offsets[i + 1] as usize];
            model.check_sub_multiset(k.to_u64(), mine).unwrap();
            // Everything stored before the failing batch is still there.
            let mut rest = mine.to_vec();
            for v in before.sorted_values(k.to_u64()) {
                let at = rest
                    .iter()
                    .position(|&x| x == v)
                    .unwrap_or_else(|| panic!("{what}: pair lost"));
                rest.swap_remove(at);
            }
        }
        assert_eq!(
            offsets[pool.len()],
            cap as u64,
            "{what}: every slot holds a pool pair"
        );
    }
    for bucket in [32, 64] {
        fill::<u32, u32>(&ctx, Some(false), bucket, 1);
        if ctx.profile().int64_atomics {
            fill::<u32, u32>(&ctx, Some(true), bucket, 2);
            fill::<u32, u64>(&ctx, None, bucket, 3);
            fill::<u64, u32>(&ctx, None, bucket, 4);
            fill::<u64, u64>(&ctx, None, bucket, 5);
        }
    }
}

/// The context stays alive while a multimap holds it.
#[test]
fn keeps_its_context_alive() {
    let ctx = Context::with_options(&test_options()).unwrap();
    let mm = ctx
        .hash_multimap(&HashMapDesc::new(HashKeyType::U32, HashValueType::U32, 64))
        .unwrap();
    drop(ctx);
    mm.insert(&[1u32, 1, 2], &[10u32, 11, 20]).unwrap();
    let mut counts = [0u32; 3];
    mm.count(&[1u32, 2, 3], &mut counts).unwrap();
    assert_eq!(counts, [2, 1, 0]);
    assert_no_validation_messages(mm.context());
}

/// Inserts from another thread while this one retrieves: every retrieve is one consistent
/// snapshot (the host retrieve starts over when the multimap changed between its count and
/// its retrieve): each key's range holds only its own values, and every batch is in it whole
/// or not at all.
#[test]
fn retrieves_stay_consistent_under_concurrent_inserts() {
    let ctx = context();
    let mm = multimap::<u32, u32>(&ctx, 20_000, None, 32);
    let keys: Vec<u32> = (0..10).collect();
    const BATCHES: u32 = 60;
    // Batch b stores (k, k * 1_000_000 + b * 100 + j) for every key k and j < 2.
    let batch = |b: u32| -> (Vec<u32>, Vec<u32>) {
        let mut k = Vec::new();
        let mut v = Vec::new();
        for key in 0..10u32 {
            for j in 0..2 {
                k.push(key);
                v.push(key * 1_000_000 + b * 100 + j);
            }
        }
        (k, v)
    };
    std::thread::scope(|s| {
        s.spawn(|| {
            for b in 0..BATCHES {
                let (k, v) = batch(b);
                mm.insert(&k, &v).unwrap();
            }
        });
        for _ in 0..40 {
            let (offsets, values): (Vec<u64>, Vec<u32>) = mm.retrieve(&keys).unwrap();
            let mut seen: Option<Vec<u32>> = None;
            for (i, &key) in keys.iter().enumerate() {
                let mine = &values[offsets[i] as usize..offsets[i + 1] as usize];
                assert!(
                    mine.iter().all(|&v| v / 1_000_000 == key),
                    "key {key}: another key's value"
                );
                let mut batches: Vec<u32> = mine.iter().map(|&v| (v % 1_000_000) / 100).collect();
                batches.sort_unstable();
                assert!(
                    batches.chunks(2).all(|c| c.len() == 2 && c[0] == c[1]),
                    "a batch split"
                );
                batches.dedup();
                assert_eq!(
                    *seen.get_or_insert_with(|| batches.clone()),
                    batches,
                    "keys of different states"
                );
            }
        }
    });
    assert_eq!(mm.size().unwrap(), BATCHES as u64 * 20);
}

/// Several keys per invocation (the GPU default is 2; CPU drivers take 1) and other workgroup
/// sizes: the same results, partial tiles included.
#[test]
fn tunings() {
    let ctx = context();
    fn run<K: HashTestKey, V: HashTestValue>(ctx: &Context, tuning: HashTuning, seed: u64) {
        let what = format!("{:?}/{:?} {tuning:?}", K::TYPE, V::TYPE);
        let desc = HashMapDesc {
            tuning: Some(tuning),
            ..desc::<K, V>(3000)
        };
        let mm = ctx.hash_multimap(&desc).unwrap();
        assert_eq!(mm.tuning(), tuning);
        let mut model = MultimapModel::new();
        let mut rng = Rng(seed);
        let (keys, values, hot, absent) = adversarial::<K, V>(&mut rng, 300);
        insert_all(&mm, &mut model, &keys, &values);
        let queries = queries_of(&keys, hot, &absent);
        check_queries::<K, V>(&mm, &model, &queries, &what);
        check_queries::<K, V>(&mm, &model, &queries[..queries.len() - 1], &what);
    }
    for (i, (workgroup_size, keys_per_invocation)) in [(64, 2), (32, 8), (128, 3)].into_iter().enumerate() {
        let tuning = HashTuning {
            workgroup_size,
            keys_per_invocation,
        };
        run::<u32, u32>(&ctx, tuning, 40 + i as u64);
        if ctx.profile().int64_atomics {
            run::<u64, u64>(&ctx, tuning, 50 + i as u64);
        }
    }
}
