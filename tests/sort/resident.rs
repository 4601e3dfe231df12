//! The resident (one-workgroup) kernel: every type, value width and size, ties with the
//! pads, bit ranges, the record layer, stage layouts.

use super::*;

/// The resident limit of an Auto plan of (key, value) types: the capacity of the
/// shared-memory-resident single-workgroup kernel (independent of max_count).
fn resident_capacity(ctx: &Context, key_type: KeyType, value_type: ValueType) -> usize {
    let plan = ctx
        .sort_plan(&SortDesc::new(key_type, value_type, 1 << 20))
        .expect("plan");
    plan.resident_limit() as usize
}

/// Keys of one type for the resident-kernel cases: random with the type's special values mixed
/// in, all equal (stability: the values must keep their input order), or few distinct.
fn resident_keys<K: Copy>(
    data: usize,
    n: usize,
    rng: &mut Rng,
    random: impl Fn(&mut Rng) -> K,
    specials: &[K],
) -> Vec<K> {
    match data {
        0 => mixed(n, rng, random, specials),
        1 => vec![specials[0]; n],
        _ => {
            let few: Vec<K> = (0..3).map(|_| random(rng)).collect();
            (0..n).map(|_| few[rng.next_u32() as usize % 3]).collect()
        }
    }
}

/// Sorts `keys` with the given value width (none, u32, u64: the values are the input indices,
/// so stability shows) and checks against the CPU sort.
fn resident_check<K: SortKey + PartialEq + std::fmt::Debug>(
    ctx: &Context,
    keys: &[K],
    value_type: ValueType,
    options: &SortOptions,
    what: &str,
) {
    match value_type {
        ValueType::None => check_keys(ctx, keys, options, what),
        ValueType::U32 => check_pairs(ctx, keys, options, what),
        ValueType::U64 => check_wide_pairs(ctx, keys, options, what),
        other => panic!("{what}: no check for {other:?}"),
    }
}

/// One resident case of any key type (`data` as in [`resident_keys`]).
fn resident_case(
    ctx: &Context,
    key_type: KeyType,
    value_type: ValueType,
    n: usize,
    data: usize,
    options: &SortOptions,
    rng: &mut Rng,
) {
    let what = format!(
        "{key_type:?} -> {value_type:?} n={n} data={data} [{},{}) desc={} {:?}",
        options.begin_bit, options.end_bit, options.descending, options.path
    );
    match key_type {
        KeyType::U32 => {
            let keys = resident_keys(data, n, rng, |r| r.next_u32(), &[7, 0, u32::MAX, 1 << 31]);
            resident_check(ctx, &keys, value_type, options, &what);
        }
        KeyType::I32 => {
            let specials = [-5, i32::MIN, i32::MAX, -1, 0, 1];
            let keys = resident_keys(data, n, rng, |r| r.next_u32() as i32, &specials);
            resident_check(ctx, &keys, value_type, options, &what);
        }
        KeyType::F32 => {
            let mut specials = special_f32();
            specials.rotate_left(1); // all-equal keys of -0.0
            let keys = resident_keys(data, n, rng, |r| f32::from_bits(r.next_u32()), &specials);
            resident_check(ctx, &keys, value_type, options, &what);
        }
        KeyType::U64 => {
            let specials = [1 << 40, 0, u64::MAX, 1 << 32, (1 << 32) - 1, 1 << 63];
            let keys = resident_keys(data, n, rng, |r| r.next_u64(), &specials);
            resident_check(ctx, &keys, value_type, options, &what);
        }
        KeyType::I64 => {
            let specials = [-3, i64::MIN, i64::MAX, -1, 0, 1];
            let keys = resident_keys(data, n, rng, |r| r.next_u64() as i64, &specials);
            resident_check(ctx, &keys, value_type, options, &what);
        }
        KeyType::F64 => {
            let specials = special_f64();
            let keys = resident_keys(data, n, rng, |r| f64::from_bits(r.next_u64()), &specials);
            resident_check(ctx, &keys, value_type, options, &what);
        }
        other => panic!("{what}: no keys for {other:?}"),
    }
}

/// The shared-memory-resident kernels (Auto and Small plans up to their capacity; radix passes
/// for 4-byte keys, a block merge sort for 8-byte ones): every key type
/// with every value width, counts 0, 1, 2, a few, around the workgroup size, half the capacity,
/// capacity - 1, capacity and capacity + 1 (another kernel), random keys with special values
/// (floats: +-0, +-inf, NaNs, denormals), all-equal keys and few distinct keys (stability),
/// ascending and descending.
#[test]
fn every_type_value_width_and_size() {
    let ctx = context();
    let mut rng = Rng(41);
    for key_type in KeyType::ALL {
        for value_type in ValueType::ALL {
            let cap = resident_capacity(&ctx, key_type, value_type);
            assert!(
                cap >= 256,
                "{key_type:?} -> {value_type:?}: resident capacity {cap}"
            );
            let plan = ctx
                .sort_plan(&SortDesc::new(key_type, value_type, cap as u64))
                .expect("plan");
            assert_eq!(
                plan.path(),
                SortPath::Small,
                "Auto takes the resident kernel at its capacity"
            );
            assert!(plan.auto_small_limit() >= cap as u64 && plan.small_limit() >= cap as u64);
            // 8-byte keys (8 passes) are merge-sorted in one workgroup where the whole tile of
            // keys and values fits the shared memory: always up to 2048 elements; at the full
            // capacity of pairs on GPUs the radix kernel, which stages keys and values in turn.
            // The radix kernel of 4-byte keys keeps its digit counters apart from the stage
            // where both fit: always up to 2048 elements (SortPlan::resident_counters_apart).
            let small = ctx
                .sort_plan(&SortDesc::new(key_type, value_type, cap.min(2048) as u64))
                .expect("plan");
            assert_eq!(
                small.resident_merges(),
                key_type.bits() == 64,
                "{key_type:?} -> {value_type:?}"
            );
            assert_eq!(
                small.resident_counters_apart(),
                key_type.bits() == 32,
                "{key_type:?} -> {value_type:?}"
            );
            let wg = plan.tuning().workgroup_size as usize;
            for n in [0, 1, 2, 5, wg - 1, wg + 1, cap / 2 + 3, cap - 1, cap, cap + 1] {
                for data in 0..3 {
                    // Both directions for the random keys; all-equal and few distinct ascending
                    // (descending all-equal keys are the same case).
                    for descending in [false, true] {
                        if descending && data != 0 {
                            continue;
                        }
                        let options = SortOptions {
                            descending,
                            ..Default::default()
                        };
                        resident_case(&ctx, key_type, value_type, n, data, &options, &mut rng);
                    }
                }
            }
            // The Small path asked for explicitly.
            let options = SortOptions {
                path: SortPath::Small,
                ..Default::default()
            };
            resident_case(&ctx, key_type, value_type, cap - 7, 0, &options, &mut rng);
        }
    }
}

/// The resident kernel fills the slots past the count with the largest ordered key: keys that
/// tie with those pads (all keys the largest in the sort's order, ascending and descending, and
/// a partial bit range whose digits are all ones) must still come out in input order, ahead
/// of the pads, at counts that leave pads in the last subgroup's steps and in whole steps.
#[test]
fn keys_tied_with_the_pads() {
    let ctx = context();
    let cap = resident_capacity(&ctx, KeyType::U32, ValueType::U32);
    let wg = ctx
        .sort_plan(&SortDesc::new(KeyType::U32, ValueType::U32, cap as u64))
        .expect("plan")
        .tuning()
        .workgroup_size as usize;
    let f32_largest = f32::from_bits(0x7fff_ffff); // the largest in totalOrder: a NaN
    for n in [1, wg - 1, wg + 1, cap / 2 + 3, cap - 1] {
        for descending in [false, true] {
            let options = SortOptions {
                descending,
                ..Default::default()
            };
            let what = format!("n={n} desc={descending}");
            let largest = if descending { 0 } else { u32::MAX };
            check_pairs(&ctx, &vec![largest; n], &options, &format!("u32 {what}"));
            check_wide_pairs(&ctx, &vec![largest; n], &options, &format!("u32 -> u64 {what}"));
            // 8-byte keys over six digits: the radix kernel, not the block merge.
            let radix = SortOptions {
                end_bit: 48,
                ..options
            };
            let largest = if descending { 0 } else { u64::MAX };
            check_pairs(&ctx, &vec![largest; n], &radix, &format!("u64 [0, 48) {what}"));
        }
        let keys: Vec<f32> = (0..n)
            .map(|i| if i % 3 == 0 { 1.5 } else { f32_largest })
            .collect();
        check_pairs(&ctx, &keys, &SortOptions::default(), &format!("f32 n={n}"));
        let bits = SortOptions {
            begin_bit: 4,
            end_bit: 12,
            ..Default::default()
        };
        let keys: Vec<u32> = (0..n as u32).map(|i| 0x0ff0 | (i << 12)).collect();
        check_pairs(&ctx, &keys, &bits, &format!("u32 bits [4, 12) n={n}"));
    }
}

/// The resident kernel on partial bit ranges (odd pass counts leave the result in the
/// alternate buffers; a single pass transforms the keys in and out at once), both directions.
#[test]
fn bit_ranges() {
    let ctx = context();
    let mut rng = Rng(43);
    for key_type in KeyType::ALL {
        let cap = resident_capacity(&ctx, key_type, ValueType::U32);
        let ranges: &[(u32, u32)] = if key_type.bits() == 32 {
            &[(0, 8), (4, 12), (8, 32), (0, 20), (16, 17), (31, 32), (0, 0)]
        } else {
            // (3, 64) and (0, 57): eight passes, merge-sorted (SortPlan::resident_merges).
            &[
                (32, 64),
                (0, 40),
                (60, 64),
                (7, 23),
                (0, 8),
                (63, 64),
                (3, 64),
                (0, 57),
            ]
        };
        for &(begin_bit, end_bit) in ranges {
            for descending in [false, true] {
                let options = SortOptions {
                    descending,
                    begin_bit,
                    end_bit,
                    ..Default::default()
                };
                for value_type in [ValueType::None, ValueType::U32] {
                    resident_case(&ctx, key_type, value_type, cap - 1, 0, &options, &mut rng);
                }
                resident_case(&ctx, key_type, ValueType::U64, 301, 0, &options, &mut rng);
            }
        }
    }
}

/// The resident kernel through the record layer: offsets, poison around the ranges, direct and
/// indirect counts (the kernel is chosen from max_count; the count is read on the GPU), on Auto
/// and Small plans at its capacity; one past the capacity the tiled kernel takes indirect counts
/// even when the count read is small.
#[test]
fn record_layer_and_indirect_counts() {
    let ctx = context();
    let cap = resident_capacity(&ctx, KeyType::U32, ValueType::U32);
    for path in [SortPath::Auto, SortPath::Small] {
        for (max, count, indirect) in [
            (cap, cap, false),
            (cap, cap, true),
            (cap, cap - 3, true),
            (cap, 1, true),
            (cap, 0, true),
            (cap, 2, false),
            (cap + 1, cap + 1, true),
            (cap + 1, 5, true),
            (37, 37, false),
            (37, 36, true),
        ] {
            if path == SortPath::Small && max > geometry(&ctx, KeyType::U32, ValueType::U32).1 {
                continue;
            }
            record_layer_case(&ctx, path, max, count, indirect);
        }
    }
}

/// With the caller's tuning the resident kernel runs with it (capacity one tile), and the tiled
/// single-workgroup kernel takes the counts above: both kernels of one Small plan. 64 x 32 makes
/// the resident stage larger than the digit counters, so the counts below cover its shared
/// memory layouts in one pool (a caller's tuning keeps the counters in the stage's pool): keys
/// and values staged at once or in turns, with the stage reaching the counters (extra barriers
/// and a clear of the counters each pass) or not (at 2048 elements of 8-byte keys with 4- and 8-byte values,
/// lavapipe's subgroups of 8: together below 1366 / 1025 elements, clear of the counters up to
/// 682 / 512; subgroups of 16 also stage in turns clear of the counters, 1025-1536 with 8-byte
/// values).
#[test]
fn stage_layouts_with_a_tuning_beside_the_tiled_kernel() {
    let ctx = context();
    let tuning = SortTuning {
        workgroup_size: 64,
        keys_per_thread: 32,
        lookback_spins: 0,
        stage_split: 1,
    };
    let tile = 64 * 32;
    let plan = ctx
        .sort_plan(&SortDesc {
            path: SortPath::Small,
            tuning: Some(tuning),
            ..SortDesc::new(KeyType::U64, ValueType::U32, 3 * tile as u64)
        })
        .expect("plan");
    assert_eq!(plan.resident_limit(), tile as u64);
    assert_eq!(plan.small_limit(), 4 * tile as u64);
    // With the caller's tuning the counters share the pool with the stage.
    assert!(!plan.resident_counters_apart());
    let mut rng = Rng(47);
    let options = SortOptions {
        path: SortPath::Small,
        tuning: Some(tuning),
        ..Default::default()
    };
    let sizes = [
        1, 300, 511, 512, 513, 682, 683, 1024, 1025, 1365, 1366, 1536, 1537, 2047, 2048,
    ];
    // All 64 bits (eight passes): the block merge sort where its tile fits the shared memory
    // (SortPlan::resident_merges); bits [0, 48) (six passes): the radix kernel and its stage
    // layouts (keys and values at once or in turns).
    let radix = SortOptions {
        end_bit: 48,
        ..options
    };
    for value_type in ValueType::ALL {
        for n in sizes {
            resident_case(&ctx, KeyType::U64, value_type, n, 0, &options, &mut rng);
            resident_case(&ctx, KeyType::U64, value_type, n, 0, &radix, &mut rng);
        }
    }
    // 4-byte keys with 8-byte values, descending.
    let descending = SortOptions {
        descending: true,
        ..options
    };
    for n in [683, 1366, 2048] {
        resident_case(&ctx, KeyType::F32, ValueType::U64, n, 0, &descending, &mut rng);
    }
    // The tiled kernel beside it in the same plan shape.
    for n in [tile + 1, 3 * tile] {
        resident_case(&ctx, KeyType::U64, ValueType::U32, n, 0, &options, &mut rng);
    }
}
