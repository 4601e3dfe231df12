//! Sorts through the host layer: every path, size and distribution, every key type with its
//! special values in both directions, stage splits, digit passes, staging rounds, tunings, bit
//! ranges, the generic calls and the 2^21-2^22 case.

use super::*;

#[test]
fn u32_every_path_size_and_distribution() {
    let ctx = context();
    let (tile, small) = geometry(&ctx, KeyType::U32, ValueType::U32);
    let mut sizes = vec![
        0,
        1,
        2,
        3,
        tile - 1,
        tile,
        tile + 1,
        2 * tile + 3,
        small - 1,
        small,
        small + 1,
    ];
    sizes.extend([1000, 3001, 1 << 14, (1 << 14) + 7]);
    let mut rng = Rng(7);
    for path in PATHS {
        for &n in &sizes {
            if path == SortPath::Small && n > small {
                continue;
            }
            for (name, generate) in DISTRIBUTIONS {
                let keys: Vec<u32> = (0..n).map(|i| generate(&mut rng, i)).collect();
                let options = SortOptions {
                    path,
                    ..Default::default()
                };
                check_pairs(&ctx, &keys, &options, &format!("{path:?} {name}"));
            }
            let keys = rng.vec_u32(n);
            check_keys(
                &ctx,
                &keys,
                &SortOptions {
                    path,
                    ..Default::default()
                },
                &format!("{path:?} keys only"),
            );
        }
    }
}

fn every_key_type_on(ctx: &Context, path: SortPath, n: usize, seed: u64) {
    every_key_type_tuned(ctx, path, None, n, seed)
}

fn every_key_type_tuned(ctx: &Context, path: SortPath, tuning: Option<SortTuning>, n: usize, seed: u64) {
    let mut rng = Rng(seed);
    for descending in [false, true] {
        let options = SortOptions {
            path,
            descending,
            tuning,
            ..Default::default()
        };
        let what = |t: &str| format!("{t} {path:?} descending={descending}");
        let i32_specials = [i32::MIN, i32::MAX, -1, 0, 1, i32::MIN + 1];
        let keys = mixed(n, &mut rng, |r| r.next_u32() as i32, &i32_specials);
        check_pairs(ctx, &keys, &options, &what("i32"));
        let keys = mixed(n, &mut rng, |r| f32::from_bits(r.next_u32()), &special_f32());
        check_pairs(ctx, &keys, &options, &what("f32"));
        let u64_specials = [0, u64::MAX, 1 << 32, (1 << 32) - 1, 1 << 63];
        let keys = mixed(n, &mut rng, |r| r.next_u64(), &u64_specials);
        check_pairs(ctx, &keys, &options, &what("u64"));
        let i64_specials = [i64::MIN, i64::MAX, -1, 0, 1];
        let keys = mixed(n, &mut rng, |r| r.next_u64() as i64, &i64_specials);
        check_pairs(ctx, &keys, &options, &what("i64"));
        let keys = mixed(n, &mut rng, |r| f64::from_bits(r.next_u64()), &special_f64());
        check_pairs(ctx, &keys, &options, &what("f64"));
        // 8-byte values with 4-byte keys and keys only for the 64-bit types.
        let keys = mixed(n, &mut rng, |r| r.next_u32() % 97, &[0u32, u32::MAX]);
        check_wide_pairs(ctx, &keys, &options, &what("u32 -> u64 pairs"));
        let keys = mixed(n, &mut rng, |r| r.next_u64() % 1000, &u64_specials);
        check_keys(ctx, &keys, &options, &what("u64 keys only"));
        let keys = mixed(n, &mut rng, |r| f64::from_bits(r.next_u64()), &special_f64());
        check_keys(ctx, &keys, &options, &what("f64 keys only"));
    }
}

#[test]
fn every_key_type_with_special_values_both_directions() {
    let ctx = context();
    let (tile, small) = geometry(&ctx, KeyType::U64, ValueType::U64);
    every_key_type_on(&ctx, SortPath::Small, small - 3, 11);
    for path in [SortPath::Safe, SortPath::Onesweep] {
        every_key_type_on(&ctx, path, 3 * tile + 17, 12);
        every_key_type_on(&ctx, path, 20_011, 13);
    }
}

/// The staged tile split in two, on the paths that stage through the split pool.
#[test]
fn stage_split_in_two_every_key_type() {
    let ctx = context();
    let tuning = SortTuning {
        workgroup_size: 64,
        keys_per_thread: 8,
        lookback_spins: 0,
        stage_split: 2,
    };
    for path in [SortPath::Safe, SortPath::Onesweep] {
        every_key_type_tuned(&ctx, path, Some(tuning), 3 * 512 + 17, 21);
        every_key_type_tuned(&ctx, path, Some(tuning), 20_011, 22);
    }
}

/// Passes whose digit is the same in every key (the Onesweep path copies such a pass's tiles
/// instead of ranking them): every key type, both directions, keys whose first digit (the
/// transform in) and last digits (the transform out) are constant while the middle varies,
/// with 4- and 8-byte values to prove the copy keeps them in place. Also keys that are all
/// equal (every pass constant) and 64-bit keys below 2^32 (the upper four passes constant).
#[test]
fn constant_digit_passes_every_key_type() {
    let ctx = context();
    let (tile, _) = geometry(&ctx, KeyType::U64, ValueType::U64);
    let mut rng = Rng(27);
    for n in [3 * tile + 17, 20_011] {
        for path in [SortPath::Safe, SortPath::Onesweep] {
            for descending in [false, true] {
                let options = SortOptions {
                    path,
                    descending,
                    ..Default::default()
                };
                let what = |t: &str| format!("{t} {path:?} descending={descending} n={n}");
                let middle32 = |r: &mut Rng| r.next_u32() & 0x00FF_FF00;
                let middle64 = |r: &mut Rng| r.next_u64() & 0x0000_FFFF_FFFF_FF00;
                let keys: Vec<u32> = (0..n).map(|_| middle32(&mut rng) | 0x5A).collect();
                check_pairs(&ctx, &keys, &options, &what("u32"));
                let keys: Vec<i32> = (0..n)
                    .map(|_| (middle32(&mut rng) | 0xFF00_005A) as i32)
                    .collect();
                check_pairs(&ctx, &keys, &options, &what("negative i32"));
                let keys: Vec<f32> = (0..n)
                    .map(|_| f32::from_bits(middle32(&mut rng) | 0xC000_005A))
                    .collect();
                check_wide_pairs(&ctx, &keys, &options, &what("negative f32"));
                let keys: Vec<u64> = (0..n).map(|_| middle64(&mut rng) | 0xA5).collect();
                check_pairs(&ctx, &keys, &options, &what("u64"));
                let keys: Vec<i64> = (0..n)
                    .map(|_| (middle64(&mut rng) | 0xFFFF_0000_0000_00A5) as i64)
                    .collect();
                check_wide_pairs(&ctx, &keys, &options, &what("negative i64"));
                let keys: Vec<f64> = (0..n)
                    .map(|_| f64::from_bits(middle64(&mut rng) | 0x4010_0000_0000_00A5))
                    .collect();
                check_pairs(&ctx, &keys, &options, &what("f64"));
                let keys = vec![0x8000_0000_0000_0001u64 ^ rng.next_u64(); n];
                check_pairs(&ctx, &keys, &options, &what("u64 all equal"));
                let keys: Vec<u64> = (0..n).map(|_| rng.next_u64() & 0xFFFF_FFFF).collect();
                check_keys(&ctx, &keys, &options, &what("u64 below 2^32, keys only"));
            }
        }
    }
}

/// Staging in several rounds. The kernels take the fewest rounds that fit their pool of shared
/// memory, which also holds the digit counters (a row per subgroup), so 64 x 8 stages in one
/// round on lavapipe's 8-wide subgroups. 64 x 24 split in two takes one to four rounds by
/// element width and subgroup size (8-byte elements: two with 8-wide subgroups, three with
/// 16-wide ones, four with 32-wide ones).
#[test]
fn staging_in_several_rounds() {
    let ctx = context();
    let mut rng = Rng(23);
    let keys_per_thread = 24;
    let tuning = SortTuning {
        workgroup_size: 64,
        keys_per_thread,
        lookback_spins: 0,
        stage_split: 2,
    };
    let n = 3 * 64 * keys_per_thread as usize + 17;
    for path in [SortPath::Safe, SortPath::Onesweep] {
        let options = SortOptions {
            path,
            tuning: Some(tuning),
            ..Default::default()
        };
        let what = |t: &str| format!("{t} {path:?} {keys_per_thread} keys per invocation");
        let keys = mixed(n, &mut rng, |r| r.next_u32() % 3000, &[0, u32::MAX]);
        check_pairs(&ctx, &keys, &options, &what("u32 -> u32 pairs"));
        let keys = mixed(n, &mut rng, |r| r.next_u64() % 3000, &[0, u64::MAX, 1 << 32]);
        check_pairs(&ctx, &keys, &options, &what("u64 -> u32 pairs"));
        check_wide_pairs(&ctx, &keys, &options, &what("u64 -> u64 pairs"));
    }
}

/// The tunings the device takes for plans of 2^22 elements and more (on GPUs: the 512-wide
/// large-sort tunings), for every key width with and without 4-byte values, on a few tiles.
#[test]
fn large_plan_tunings_every_key_width() {
    let ctx = context();
    let mut rng = Rng(25);
    let tuned = |key_type, value_type| SortOptions {
        path: SortPath::Onesweep,
        tuning: Some(SortTuning::for_device(&ctx, key_type, value_type, 1 << 22)),
        ..Default::default()
    };
    let tiles = |options: &SortOptions| {
        let t = options.tuning.unwrap();
        3 * (t.workgroup_size * t.keys_per_thread) as usize + 17
    };
    let options = tuned(KeyType::U32, ValueType::None);
    let keys = mixed(tiles(&options), &mut rng, |r| r.next_u32(), &[0, u32::MAX]);
    check_keys(&ctx, &keys, &options, "u32 keys, large tuning");
    let options = tuned(KeyType::U32, ValueType::U32);
    let keys = mixed(tiles(&options), &mut rng, |r| r.next_u32() % 1000, &[0, u32::MAX]);
    check_pairs(&ctx, &keys, &options, "u32 -> u32 pairs, large tuning");
    let options = tuned(KeyType::U64, ValueType::None);
    let keys = mixed(
        tiles(&options),
        &mut rng,
        |r| r.next_u64(),
        &[0, u64::MAX, 1 << 32],
    );
    check_keys(&ctx, &keys, &options, "u64 keys, large tuning");
    let options = tuned(KeyType::U64, ValueType::U32);
    let keys = mixed(
        tiles(&options),
        &mut rng,
        |r| r.next_u64() % 5000,
        &[0, u64::MAX, 1 << 32],
    );
    check_pairs(&ctx, &keys, &options, "u64 -> u32 pairs, large tuning");
}

/// A tuning whose tile fits the tile kernels but whose small-N kernel (which stages the whole
/// tile at once) does not: the plan leaves the small path out, refuses it when asked, and an
/// Auto sort of a small count takes a multi-workgroup path and is right.
#[test]
fn small_path_is_left_out_where_its_stage_does_not_fit() {
    let ctx = context();
    // 32 u64 keys per invocation fill shared memory in the small kernel's one-round stage.
    let max_shared = ctx.profile().max_shared_memory;
    let tuning = SortTuning {
        workgroup_size: (max_shared / 256).div_ceil(32) * 32,
        keys_per_thread: 32,
        lookback_spins: 0,
        stage_split: 2,
    };
    let n = 3000;
    let mut desc = SortDesc::new(KeyType::U64, ValueType::U32, n as u64);
    desc.tuning = Some(tuning);
    match ctx.sort_plan(&desc) {
        Ok(plan) => {
            assert_eq!(plan.small_limit(), 0, "{tuning:?}");
            desc.path = SortPath::Small;
            let refused = ctx.sort_plan(&desc);
            assert!(
                matches!(&refused, Err(vkalgo::Error::InvalidArgument(m)) if m.contains("small path")),
                "{refused:?}"
            );
            let mut rng = Rng(31);
            let keys = mixed(n, &mut rng, |r| r.next_u64(), &[0, u64::MAX, 1 << 32]);
            let options = SortOptions {
                tuning: Some(tuning),
                ..Default::default()
            };
            check_pairs(&ctx, &keys, &options, "u64 pairs without the small path");
        }
        // Subgroups of 4 need a counter row per 4 invocations: the tile kernels do not fit
        // either, and the plan says why.
        Err(e) => assert!(e.to_string().contains("shared memory"), "{e}"),
    }
}

#[test]
fn bit_ranges_both_directions() {
    let ctx = context();
    let mut rng = Rng(21);
    let n = 9_000;
    let keys32 = rng.vec_u32(n);
    let keys64: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
    let floats: Vec<f32> = mixed(n, &mut rng, |r| f32::from_bits(r.next_u32()), &special_f32());
    for path in [SortPath::Auto, SortPath::Safe, SortPath::Onesweep] {
        for descending in [false, true] {
            for (begin_bit, end_bit) in [(0, 8), (4, 12), (8, 32), (0, 20), (16, 17), (31, 32), (0, 0)] {
                let options = SortOptions {
                    path,
                    descending,
                    begin_bit,
                    end_bit,
                    ..Default::default()
                };
                let what = format!("u32 [{begin_bit},{end_bit}) {path:?} desc={descending}");
                check_pairs(&ctx, &keys32, &options, &what);
                check_pairs(&ctx, &floats, &options, &format!("f32 {what}"));
            }
            for (begin_bit, end_bit) in [(32, 64), (0, 40), (60, 64), (7, 23)] {
                let options = SortOptions {
                    path,
                    descending,
                    begin_bit,
                    end_bit,
                    ..Default::default()
                };
                check_pairs(
                    &ctx,
                    &keys64,
                    &options,
                    &format!("u64 [{begin_bit},{end_bit}) {path:?} desc={descending}"),
                );
            }
        }
    }
}

#[test]
fn large_sort_once() {
    let ctx = context();
    let mut rng = Rng(99);
    let keys = rng.vec_u32(1 << 22);
    check_keys(
        &ctx,
        &keys,
        &SortOptions::default(),
        "2^22 u32 keys, default path",
    );
    let keys = rng.vec_u32(1 << 20);
    let options = SortOptions {
        path: SortPath::Onesweep,
        ..Default::default()
    };
    check_pairs(&ctx, &keys, &options, "2^20 pairs, Onesweep");
}

/// Keeps the generic bounds honest: every documented key and value type is accepted.
#[test]
fn generic_calls_cover_every_type() {
    fn accepts<K: SortKey, V: SortValue>() {}
    accepts::<u32, u32>();
    accepts::<i32, i64>();
    accepts::<f32, f64>();
    accepts::<u64, i32>();
    accepts::<i64, f32>();
    accepts::<f64, u64>();
    let ctx = context();
    let mut a = [3i64, -5, 9];
    ctx.sort(&mut a).unwrap();
    assert_eq!(a, [-5, 3, 9]);
    let mut b = [2.5f64, -0.0, 0.0, -1.0];
    let mut c = [1u32, 2, 3, 4];
    ctx.sort_pairs(&mut b, &mut c).unwrap();
    assert_eq!(c, [4, 2, 3, 1]);
}
