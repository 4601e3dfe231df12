//! Merges, merge sorts and segmented merges through the host layer: every key type, order and
//! payload, both paths around the tiles, stability, float specials, the 2^21-2^22 case.

use super::*;

/// Merges on the GPU (keys only and with `value_type` values that name each element's run and
/// index) and compares exactly with the CPU's stable merge.
fn check_merge<K: TestKey>(
    ctx: &Context,
    a: &[K],
    b: &[K],
    value_type: ValueType,
    options: &MergeOptions,
    what: &str,
) {
    let (want_keys, _) = reference::merge::<K, u32>(a, None, b, None, options.descending);
    match value_type {
        ValueType::None => {
            let mut out = vec![K::from_small(3); a.len() + b.len()];
            ctx.merge_with(a, b, &mut out, options)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(bits(&out) == bits(&want_keys), "{what}: keys differ");
        }
        ValueType::U32 => {
            let av: Vec<u32> = (0..a.len() as u32).collect();
            let bv: Vec<u32> = (0..b.len() as u32).map(|j| j | 0x8000_0000).collect();
            check_pairs(ctx, a, &av, b, &bv, options, what);
        }
        ValueType::U64 => {
            let av: Vec<u64> = (0..a.len() as u64).map(|i| i << 33 | 5).collect();
            let bv: Vec<u64> = (0..b.len() as u64).map(|j| j << 33 | 1 << 32 | 9).collect();
            check_pairs(ctx, a, &av, b, &bv, options, what);
        }
        other => panic!("{what}: no check for {other:?}"),
    }
}

fn check_pairs<K: TestKey, V: SortValue + PartialEq + std::fmt::Debug>(
    ctx: &Context,
    a: &[K],
    av: &[V],
    b: &[K],
    bv: &[V],
    options: &MergeOptions,
    what: &str,
) {
    let (want_keys, want_values) = reference::merge(a, Some(av), b, Some(bv), options.descending);
    let want_values = want_values.unwrap();
    let total = a.len() + b.len();
    let mut out_keys = vec![K::from_small(3); total];
    let mut out_values = vec![V::zeroed(); total];
    ctx.merge_pairs_with(a, av, b, bv, &mut out_keys, &mut out_values, options)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    if bits(&out_keys) != bits(&want_keys) || out_values != want_values {
        let first = (0..total)
            .find(|&i| bits(&out_keys[i..=i]) != bits(&want_keys[i..=i]) || out_values[i] != want_values[i]);
        panic!(
            "{what}: |a|={} |b|={} first difference at {first:?}: got {:?} want {:?}",
            a.len(),
            b.len(),
            first.map(|i| (out_keys[i], out_values[i])),
            first.map(|i| (want_keys[i], want_values[i]))
        );
    }
}

fn every_order_and_payload<K: TestKey>(ctx: &Context, seed: u64) {
    let tile = tile_of(ctx, K::KEY_TYPE);
    let sizes = [
        (0, 0),
        (0, 5),
        (6, 0),
        (1, 1),
        (tile - 1, tile + 1),
        (tile, tile),
        (3, 2 * tile + 5),
        (1, 3000),
        (2900, 2),
        (777, 1234),
    ];
    let mut rng = Rng(seed);
    for descending in [false, true] {
        for value_type in [ValueType::None, ValueType::U32, ValueType::U64] {
            for (i, &(m, n)) in sizes.iter().enumerate() {
                let domain = if i % 3 == 2 { 0 } else { 16 };
                let a = sorted_run::<K>(&mut rng, m, domain, descending);
                let b = sorted_run::<K>(&mut rng, n, domain, descending);
                let options = MergeOptions {
                    descending,
                    ..Default::default()
                };
                let what = format!(
                    "{:?} {} {:?} ({m}, {n})",
                    K::KEY_TYPE,
                    if descending { "desc" } else { "asc" },
                    value_type
                );
                check_merge(ctx, &a, &b, value_type, &options, &what);
            }
        }
    }
}

#[test]
fn merge_every_key_type_order_and_payload() {
    let ctx = context();
    every_order_and_payload::<u32>(&ctx, 1);
    every_order_and_payload::<i32>(&ctx, 2);
    every_order_and_payload::<f32>(&ctx, 3);
    every_order_and_payload::<u64>(&ctx, 4);
    every_order_and_payload::<i64>(&ctx, 5);
    every_order_and_payload::<f64>(&ctx, 6);
}

#[test]
fn merge_both_paths_around_tiles() {
    let ctx = context();
    let plan = ctx
        .merge_plan(&MergeDesc::new(KeyType::U32, ValueType::U32, 1 << 20, 1 << 20))
        .unwrap();
    let tile = plan.tile_size() as usize;
    let small = plan.small_limit() as usize;
    let mut rng = Rng(11);
    // Each path with the default tuning, and the GPUs' tuning of 4-byte keys (512 x 7) around
    // its own tile, with values and without (keys alone merge two tiles per workgroup: odd
    // and even tile counts).
    let pairs_tuning = MergeTuning {
        workgroup_size: 512,
        items_per_thread: 7,
        lookback_spins: 0,
    };
    for (path, tuning) in [
        (MergePath::Auto, None),
        (MergePath::Fused, None),
        (MergePath::Partitioned, None),
        (MergePath::Partitioned, Some(pairs_tuning)),
    ] {
        let tile = tuning.map_or(tile, |t| (t.workgroup_size * t.items_per_thread) as usize);
        for (m, n) in [
            (1, 0),
            (tile / 2, tile / 2 - 1),
            (tile / 2, tile / 2),
            (tile / 2, tile / 2 + 1),
            (small / 2, small / 2),
            (small / 2, small / 2 + 1),
            (2 * tile, 1),
            (5 * tile + 1, 2),
            (4000, 5000),
        ] {
            let a = sorted_run::<u32>(&mut rng, m, 40, false);
            let b = sorted_run::<u32>(&mut rng, n, 40, false);
            let options = MergeOptions {
                path,
                tuning,
                ..Default::default()
            };
            for value_type in [ValueType::U32, ValueType::None] {
                check_merge(
                    &ctx,
                    &a,
                    &b,
                    value_type,
                    &options,
                    &format!("{path:?} {tuning:?} {value_type:?} ({m}, {n})"),
                );
            }
        }
    }
    // Other tunings: the smallest workgroup with one and with many outputs per invocation.
    for (workgroup_size, items_per_thread) in [(32, 1), (32, 32), (128, 4)] {
        let options = MergeOptions {
            tuning: Some(MergeTuning {
                workgroup_size,
                items_per_thread,
                lookback_spins: 0,
            }),
            path: MergePath::Partitioned,
            ..Default::default()
        };
        let a = sorted_run::<u64>(&mut rng, 3001, 30, true);
        let b = sorted_run::<u64>(&mut rng, 2999, 30, true);
        let options = MergeOptions {
            descending: true,
            ..options
        };
        check_merge(
            &ctx,
            &a,
            &b,
            ValueType::U64,
            &options,
            &format!("{workgroup_size}x{items_per_thread}"),
        );
    }
}

fn stability_cases<K: TestKey>(ctx: &Context, rng: &mut Rng) {
    let tile = tile_of(ctx, K::KEY_TYPE);
    for descending in [false, true] {
        let options = MergeOptions {
            descending,
            ..Default::default()
        };
        let what = |case: &str| format!("{:?} desc={descending}: {case}", K::KEY_TYPE);
        let same = vec![K::from_small(5); 2 * tile + 3];
        check_merge(
            ctx,
            &same,
            &same[..tile + 1],
            ValueType::U32,
            &options,
            &what("all keys equal"),
        );
        let a = sorted_run::<K>(rng, 1500, 8, descending);
        check_merge(ctx, &a, &a, ValueType::U64, &options, &what("identical runs"));
        let (lo, hi) = if descending { (9, 1) } else { (1, 9) };
        let low: Vec<K> = sorted_run::<K>(rng, tile + 7, 1, descending)
            .iter()
            .map(|_| K::from_small(lo))
            .collect();
        let high: Vec<K> = vec![K::from_small(hi); 2 * tile - 3];
        check_merge(
            ctx,
            &low,
            &high,
            ValueType::U32,
            &options,
            &what("all of A first"),
        );
        check_merge(
            ctx,
            &high,
            &low,
            ValueType::U32,
            &options,
            &what("all of B first"),
        );
        check_merge(
            ctx,
            &high,
            &low,
            ValueType::None,
            &options,
            &what("all of B first, keys"),
        );
    }
}

#[test]
fn merge_stability_equal_keys_and_disjoint_runs() {
    let ctx = context();
    let mut rng = Rng(21);
    stability_cases::<u32>(&ctx, &mut rng);
    stability_cases::<i32>(&ctx, &mut rng);
    stability_cases::<f32>(&ctx, &mut rng);
    stability_cases::<u64>(&ctx, &mut rng);
    stability_cases::<i64>(&ctx, &mut rng);
    stability_cases::<f64>(&ctx, &mut rng);
}

fn float_specials<K: TestKey>(ctx: &Context, rng: &mut Rng) {
    let specials = K::specials();
    for descending in [false, true] {
        let mut run = |n: usize| {
            let mut keys: Vec<K> = (0..n)
                .map(|_| specials[rng.next_u64() as usize % specials.len()])
                .collect();
            sort_pairs::<K, u32>(&mut keys, None, 0, 0, descending);
            keys
        };
        let a = run(700);
        let b = run(900);
        let options = MergeOptions {
            descending,
            ..Default::default()
        };
        let what = format!("{:?} specials desc={descending}", K::KEY_TYPE);
        check_merge(ctx, &a, &b, ValueType::U32, &options, &what);
        check_merge(ctx, &a, &b, ValueType::None, &options, &what);
    }
}

#[test]
fn merge_float_specials() {
    let ctx = context();
    let mut rng = Rng(31);
    float_specials::<f32>(&ctx, &mut rng);
    float_specials::<f64>(&ctx, &mut rng);
}

/// 2^21 + 2^21 once, with tunings whose tile counts give the partition kernel every width of
/// boundary search on lavapipe (src/merge/tuning.rs partition_lanes): 32 x 1 (131,072 tiles: a
/// binary search per boundary, within its workgroup's window), 32 x 5 (26,215 tiles: clusters
/// of 2), the default 64 x 7 (9,363 tiles: 4) and 32 x 32 (4,096 tiles: 8); and two set
/// operations of the deduplicated runs.
#[test]
fn large_merge_once() {
    let ctx = context();
    let mut rng = Rng(41);
    let n = 1 << 21;
    let a = sorted_run::<u32>(&mut rng, n, 0, false);
    let b = sorted_run::<u32>(&mut rng, n, 1 << 20, false);
    for tuning in [Some((32, 1)), Some((32, 5)), None, Some((32, 32))] {
        let options = MergeOptions {
            path: MergePath::Partitioned,
            tuning: tuning.map(|(workgroup_size, items_per_thread)| MergeTuning {
                workgroup_size,
                items_per_thread,
                lookback_spins: 0,
            }),
            ..Default::default()
        };
        check_merge(
            &ctx,
            &a,
            &b,
            ValueType::U32,
            &options,
            &format!("2^21 + 2^21 pairs {tuning:?}"),
        );
    }
    let mut sa = a.clone();
    sa.dedup();
    let mut sb = b.clone();
    sb.dedup();
    for op in [SetOp::And, SetOp::Xor] {
        let want = reference::set_op(op, &sa, &sb);
        let got = ctx.sorted_set_op(op, &sa, &sb).unwrap();
        assert!(
            got == want,
            "2^21 + 2^21 {op:?}: got {} keys, want {}",
            got.len(),
            want.len()
        );
    }
}

fn merge_sort_for<K: TestKey>(ctx: &Context, rng: &mut Rng) {
    let tile = ctx
        .merge_sort_plan(&MergeSortDesc::new(K::KEY_TYPE, ValueType::U32, 1 << 20))
        .unwrap()
        .tile_size() as usize;
    for descending in [false, true] {
        let options = MergeOptions {
            descending,
            ..Default::default()
        };
        for n in [0, 1, 2, tile - 1, tile, tile + 1, 5 * tile + 3, 20000] {
            let specials = K::specials();
            let keys: Vec<K> = (0..n)
                .map(|i| {
                    let r = rng.next_u64();
                    if i % 7 == 0 && !specials.is_empty() {
                        specials[r as usize % specials.len()]
                    } else {
                        K::from_small(r % 20)
                    }
                })
                .collect();
            let values: Vec<u32> = (0..n as u32).collect();
            let mut want = keys.clone();
            let mut want_values = values.clone();
            sort_pairs(&mut want, Some(&mut want_values), 0, 0, descending);
            let mut got = keys.clone();
            let mut got_values = values.clone();
            ctx.merge_sort_pairs_with(&mut got, &mut got_values, &options)
                .unwrap();
            let what = format!("{:?} n={n} desc={descending}", K::KEY_TYPE);
            assert!(bits(&got) == bits(&want), "{what}: keys");
            assert_eq!(got_values, want_values, "{what}: values");
            let mut got = keys.clone();
            ctx.merge_sort_with(&mut got, &options).unwrap();
            assert!(bits(&got) == bits(&want), "{what}: keys only");
        }
    }
}

#[test]
fn merge_sort_every_key_type() {
    let ctx = context();
    let mut rng = Rng(71);
    merge_sort_for::<u32>(&ctx, &mut rng);
    merge_sort_for::<i32>(&ctx, &mut rng);
    merge_sort_for::<f32>(&ctx, &mut rng);
    merge_sort_for::<u64>(&ctx, &mut rng);
    merge_sort_for::<i64>(&ctx, &mut rng);
    merge_sort_for::<f64>(&ctx, &mut rng);
    // 8-byte values.
    let mut keys: Vec<u32> = (0..9000).map(|_| rng.next_u32() % 100).collect();
    let mut values: Vec<u64> = (0..9000u64).map(|i| i << 35 | 3).collect();
    let mut want = keys.clone();
    let mut want_values = values.clone();
    sort_pairs(&mut want, Some(&mut want_values), 0, 0, false);
    ctx.merge_sort_pairs_with(&mut keys, &mut values, &MergeOptions::default())
        .unwrap();
    assert_eq!((keys, values), (want, want_values));
}

#[test]
fn segmented_merge_of_many_runs() {
    let ctx = context();
    let mut rng = Rng(81);
    let tile = tile_of(&ctx, KeyType::F32);
    for runs in [1usize, 2, 3, 7, 33, 100] {
        for descending in [false, true] {
            // Run lengths from 0 to about two tiles, some empty.
            let lengths: Vec<usize> = (0..runs)
                .map(|_| match rng.next_u32() % 4 {
                    0 => 0,
                    1 => (rng.next_u32() % 5) as usize,
                    _ => (rng.next_u32() as usize) % (2 * tile + 3),
                })
                .collect();
            let mut keys: Vec<f32> = Vec::new();
            let mut offsets = vec![0u32];
            for &len in &lengths {
                keys.extend(sorted_run::<f32>(&mut rng, len, 10, descending));
                offsets.push(keys.len() as u32);
            }
            let values: Vec<u64> = (0..keys.len() as u64).collect();
            let mut want = keys.clone();
            let mut want_values = values.clone();
            sort_pairs(&mut want, Some(&mut want_values), 0, 0, descending);
            let options = MergeOptions {
                descending,
                ..Default::default()
            };
            let mut got = keys.clone();
            let mut got_values = values.clone();
            ctx.segmented_merge(&mut got, Some(&mut got_values), &offsets, &options)
                .unwrap();
            let what = format!("{runs} runs, {} keys, desc={descending}", keys.len());
            assert!(bits(&got) == bits(&want), "{what}: keys");
            assert_eq!(got_values, want_values, "{what}: values");
            let mut got = keys.clone();
            ctx.segmented_merge::<f32, u32>(&mut got, None, &offsets, &options)
                .unwrap();
            assert!(bits(&got) == bits(&want), "{what}: keys only");
        }
    }
}
