//! Radix sort on the Vulkan device (lavapipe in CI), compared exactly with a stable CPU sort:
//! every path, every key type, pairs (stability), descending, bit ranges, adversarial data,
//! sizes around the tile and the small-path limit, the record layer with offsets and indirect
//! counts, and bad input through the Rust API and the C ABI.

mod common;

use common::{assert_no_validation_messages, context, Rng};
use vkalgo::ash::vk;
use vkalgo::sort::reference;
use vkalgo::{
    Context, ElementCount, GpuBuffer, KeyType, MemoryLocation, SortArgs, SortDesc, SortKey, SortOptions,
    SortPath, SortResult, SortTuning, SortValue, ValueType,
};

const PATHS: [SortPath; 4] = [
    SortPath::Auto,
    SortPath::Small,
    SortPath::Safe,
    SortPath::Onesweep,
];

/// A named u32 data generator (element index in, key out).
type Distribution = (&'static str, fn(&mut Rng, usize) -> u32);

/// Adversarial u32 data sets.
fn distributions() -> Vec<Distribution> {
    vec![
        ("uniform", |r, _| r.next_u32()),
        ("all equal", |_, _| 0x1234_5678),
        ("sorted", |_, i| i as u32),
        ("reversed", |_, i| u32::MAX - i as u32),
        ("few distinct", |r, _| r.next_u32() % 5),
        ("low entropy", |r, _| r.next_u32() & r.next_u32() & r.next_u32()),
        ("high bits only", |r, _| r.next_u32() & 0xFF00_0000),
        ("low bits only", |r, _| r.next_u32() & 0xFF),
    ]
}

/// The plan's tile and small-path capacity for the default tuning of (key, value) types (Auto
/// plans leave the small path at one tile where Onesweep runs: sizes around the tile cover it).
fn geometry(ctx: &Context, key_type: KeyType, value_type: ValueType) -> (usize, usize) {
    let plan = ctx
        .sort_plan(&SortDesc::new(key_type, value_type, 1 << 20))
        .expect("plan");
    (plan.tile_size() as usize, plan.small_limit() as usize)
}

/// Sorts pairs (key, input index) on the GPU and checks keys and values exactly against the
/// stable CPU sort (the values prove stability).
fn check_pairs<K: SortKey + PartialEq + std::fmt::Debug>(
    ctx: &Context,
    keys: &[K],
    options: &SortOptions,
    what: &str,
) {
    let values: Vec<u32> = (0..keys.len() as u32).collect();
    check_pairs_with_values(ctx, keys, values, options, what);
}

/// Pairs with 8-byte values (the input index in the high word, so both value words matter),
/// compared exactly with the stable CPU sort.
fn check_wide_pairs<K: SortKey + PartialEq + std::fmt::Debug>(
    ctx: &Context,
    keys: &[K],
    options: &SortOptions,
    what: &str,
) {
    let values: Vec<u64> = (0..keys.len() as u64).map(|i| i << 33 | 5).collect();
    check_pairs_with_values(ctx, keys, values, options, what);
}

/// Sorts `keys` with distinct `values` and compares both exactly with the stable CPU sort.
fn check_pairs_with_values<K, V>(ctx: &Context, keys: &[K], values: Vec<V>, options: &SortOptions, what: &str)
where
    K: SortKey + PartialEq + std::fmt::Debug,
    V: SortValue + PartialEq + std::fmt::Debug,
{
    let mut got_keys = keys.to_vec();
    let mut got_values = values.clone();
    ctx.sort_pairs_with(&mut got_keys, &mut got_values, options)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut want_keys = keys.to_vec();
    let mut want_values = values;
    reference::sort_pairs(
        &mut want_keys,
        Some(&mut want_values),
        options.begin_bit,
        options.end_bit,
        options.descending,
    );
    // Bit patterns, so NaNs compare exactly.
    let bits = |k: &[K]| -> Vec<u8> { bytemuck::cast_slice(k).to_vec() };
    if bits(&got_keys) != bits(&want_keys) || got_values != want_values {
        let first = got_values.iter().zip(&want_values).position(|(a, b)| a != b);
        panic!(
            "{what}: n={} first difference at {first:?}: got {:?} want {:?}",
            keys.len(),
            first.map(|i| (got_keys[i], got_values[i])),
            first.map(|i| (want_keys[i], want_values[i]))
        );
    }
}

/// Keys only, compared bit for bit with the CPU sort.
fn check_keys<K: SortKey + std::fmt::Debug>(ctx: &Context, keys: &[K], options: &SortOptions, what: &str) {
    let mut got = keys.to_vec();
    ctx.sort_keys_with(&mut got, options)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut want = keys.to_vec();
    reference::sort_pairs::<K, u32>(
        &mut want,
        None,
        options.begin_bit,
        options.end_bit,
        options.descending,
    );
    let got_bits: &[u8] = bytemuck::cast_slice(&got);
    let want_bits: &[u8] = bytemuck::cast_slice(&want);
    assert!(got_bits == want_bits, "{what}: n={} keys differ", keys.len());
}

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
            for (name, generate) in distributions() {
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
    assert_no_validation_messages(&ctx);
}

fn special_f32() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7F80_0001), // signalling NaN
        f32::from_bits(0xFFC0_1234), // negative NaN with payload
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1), // smallest denormal
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007F_FFFF), // largest denormal
        f32::MAX,
        f32::MIN,
        1.0,
        -1.0,
    ];
    v.extend(v.clone());
    v
}

fn special_f64() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::from_bits(0x7FF0_0000_0000_0001),
        f64::from_bits(0xFFF8_0000_0000_1234),
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::from_bits(0x8000_0000_0000_0001),
        f64::MAX,
        f64::MIN,
        1.0,
        -1.0,
    ];
    v.extend(v.clone());
    v
}

/// Random keys of every type with the special values mixed in.
fn mixed<K: Copy>(n: usize, rng: &mut Rng, random: impl Fn(&mut Rng) -> K, specials: &[K]) -> Vec<K> {
    (0..n)
        .map(|i| {
            if i % 7 == 3 {
                specials[(rng.next_u32() as usize) % specials.len()]
            } else {
                random(rng)
            }
        })
        .collect()
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
}

const POISON: u32 = 0xA5A5_5A5A;

/// Runs a sort through the record layer with keys, values, alternates and scratch at odd
/// offsets inside larger buffers, poisoned around the data; checks the result where the plan
/// says it is and that nothing outside the first `count` elements changed.
fn record_layer_case(ctx: &Context, path: SortPath, max_count: usize, count: usize, indirect: bool) {
    record_layer_case_at(ctx, path, None, 256, max_count, count, indirect);
}

/// [`record_layer_case`] with a tuning and the byte offset (a multiple of 4) of every data
/// range in its buffer.
fn record_layer_case_at(
    ctx: &Context,
    path: SortPath,
    tuning: Option<SortTuning>,
    offset: u64,
    max_count: usize,
    count: usize,
    indirect: bool,
) {
    let desc = SortDesc {
        path,
        tuning,
        ..SortDesc::new(KeyType::U32, ValueType::U32, max_count as u64)
    };
    let plan = ctx.sort_plan(&desc).expect("plan");
    let req = plan.memory_requirements();
    let bytes = max_count as u64 * 4;
    let total = offset + bytes + 256; // keys and values start mid-buffer
    let lead = (offset / 4) as usize; // words before the ranges
    let mut rng = Rng(count as u64 + 5);
    // Keys below 1000: the upper two digits are the same in every key (on the Onesweep path,
    // those passes copy their tiles in place).
    let keys: Vec<u32> = (0..max_count).map(|_| rng.next_u32() % 1000).collect();
    let mut initial = vec![POISON; (total / 4) as usize];
    initial[lead..lead + max_count].copy_from_slice(&keys);
    let values: Vec<u32> = (0..max_count as u32).collect();
    let mut initial_values = vec![POISON; (total / 4) as usize];
    initial_values[lead..lead + max_count].copy_from_slice(&values);
    let host = |data: &[u32], name: &str| {
        let mut b = GpuBuffer::new(ctx, total, MemoryLocation::CpuToGpu, name).expect("buffer");
        b.mapped().unwrap()[..data.len() * 4].copy_from_slice(bytemuck::cast_slice(data));
        b
    };
    let mut keys_buffer = host(&initial, "keys");
    let mut values_buffer = host(&initial_values, "values");
    let mut keys_alt = host(&vec![POISON; (total / 4) as usize], "keys alt");
    let mut values_alt = host(&vec![POISON; (total / 4) as usize], "values alt");
    let scratch = GpuBuffer::new(ctx, req.scratch.size + 512, MemoryLocation::GpuOnly, "scratch").unwrap();
    let count_buffer = host(&[count as u32, 0, 0, 0], "count");
    let args = SortArgs {
        keys: keys_buffer.sub_range(offset, bytes),
        values: Some(values_buffer.sub_range(offset, bytes)),
        keys_alt: keys_alt.sub_range(offset, bytes),
        values_alt: Some(values_alt.sub_range(offset, bytes)),
        scratch: scratch.sub_range(256, req.scratch.size),
        count: if indirect {
            ElementCount::Indirect(count_buffer.sub_range(0, 4))
        } else {
            ElementCount::Direct(count as u64)
        },
    };
    let mut location = None;
    ctx.submit_and_wait(|cmd| unsafe {
        location = Some(plan.record(cmd, &args)?);
        common::compute_to_host(ctx, cmd);
        Ok(())
    })
    .expect("submit");
    let location = location.unwrap();
    assert_eq!(location, plan.result_location());
    let (k, v) = match location {
        SortResult::InPlace => (read(&mut keys_buffer), read(&mut values_buffer)),
        SortResult::Alternate => (read(&mut keys_alt), read(&mut values_alt)),
    };
    let mut want_keys = keys[..count].to_vec();
    let mut want_values = values[..count].to_vec();
    reference::sort_pairs(&mut want_keys, Some(&mut want_values), 0, 0, false);
    let what =
        format!("{path:?} {tuning:?} offset {offset} max {max_count} count {count} indirect {indirect}");
    assert_eq!(&k[lead..lead + count], &want_keys[..], "{what}: keys");
    assert_eq!(&v[lead..lead + count], &want_values[..], "{what}: values");
    // Poison before the ranges and past `count` is untouched in every buffer.
    for (name, b) in [
        ("keys", &mut keys_buffer),
        ("values", &mut values_buffer),
        ("keys_alt", &mut keys_alt),
        ("values_alt", &mut values_alt),
    ] {
        let data = read(b);
        assert!(
            data[..lead].iter().all(|&x| x == POISON),
            "{what}: {name} written before its range"
        );
        let is_original = |i: usize| match name {
            "keys" => data[i] == keys[i - lead],
            "values" => data[i] == values[i - lead],
            _ => data[i] == POISON,
        };
        assert!(
            (lead + count..lead + max_count).all(is_original),
            "{what}: {name} written past count"
        );
        let past: Vec<(usize, u32)> = data[lead + max_count..]
            .iter()
            .enumerate()
            .filter(|(_, &x)| x != POISON)
            .map(|(i, &x)| (i, x))
            .take(8)
            .collect();
        assert!(past.is_empty(), "{what}: {name} written past its range: {past:?}");
    }
}

/// The contents of a host-visible test buffer as u32.
fn read(b: &mut GpuBuffer) -> Vec<u32> {
    // The mapping may be longer than the buffer (the allocation is rounded up).
    let size = b.size() as usize;
    bytemuck::cast_slice(&b.mapped().expect("mapped")[..size]).to_vec()
}

#[test]
fn record_layer_offsets_indirect_counts_and_result_location() {
    let ctx = context();
    let (tile, small) = geometry(&ctx, KeyType::U32, ValueType::U32);
    for path in PATHS {
        let max = if path == SortPath::Small {
            small
        } else {
            5 * tile + 9
        };
        record_layer_case(&ctx, path, max, max, false);
        record_layer_case(&ctx, path, max, max - tile - 3, true);
        record_layer_case(&ctx, path, max, 1, true);
        record_layer_case(&ctx, path, max, 0, true);
    }
    assert_no_validation_messages(&ctx);
}

/// Tiles that are not a power of two (288 keys: 96 invocations x 3), an odd number of them, at a
/// large byte offset that is not a multiple of 16: the per-tile 64-bit base addresses of the
/// counting kernels, the Onesweep constant-digit copy, the small path and the
/// 64-bit scatter addresses, with direct and indirect counts on every path.
#[test]
fn odd_tiles_at_large_offsets() {
    let ctx = context();
    let offset = (16 << 20) + 4;
    // One tuning: each costs its own pipeline compilations on lavapipe in every CI variant.
    let tuning = SortTuning {
        workgroup_size: 96,
        keys_per_thread: 3,
        lookback_spins: 0,
        stage_split: 1,
    };
    let tile = 96 * 3;
    for path in [SortPath::Safe, SortPath::Onesweep, SortPath::Small] {
        // Odd tile counts: 7 and 5 (the small path: 3 and 1).
        let max = if path == SortPath::Small {
            2 * tile + 7
        } else {
            6 * tile + 9
        };
        record_layer_case_at(&ctx, path, Some(tuning), offset, max, max, false);
        record_layer_case_at(&ctx, path, Some(tuning), offset, max, max - 2 * tile - 1, true);
    }
    assert_no_validation_messages(&ctx);
}

/// Counts up to SORT_MAX_COUNT (2^32 - 2^15) are planned on every path but the small one;
/// one more is refused with InvalidArgument by the plan, the host sort and the C ABI, before
/// anything is read or written.
#[test]
fn counts_beyond_the_maximum_are_refused() {
    use vkalgo::sort::SORT_MAX_COUNT;
    let ctx = context();
    assert_eq!(SORT_MAX_COUNT, (1u64 << 32) - (1 << 15));
    for path in [SortPath::Auto, SortPath::Safe, SortPath::Onesweep] {
        for (key_type, value_type) in [(KeyType::U32, ValueType::None), (KeyType::F64, ValueType::U64)] {
            let desc = |max_count| SortDesc {
                path,
                ..SortDesc::new(key_type, value_type, max_count)
            };
            let plan = ctx
                .sort_plan(&desc(SORT_MAX_COUNT))
                .unwrap_or_else(|e| panic!("{path:?} {key_type:?}: {e}"));
            let req = plan.memory_requirements();
            assert_eq!(req.keys_alt.size, SORT_MAX_COUNT * key_type.bytes());
            assert_eq!(req.values_alt.size, SORT_MAX_COUNT * value_type.bytes());
            for over in [SORT_MAX_COUNT + 1, u32::MAX as u64, 1 << 32, u64::MAX] {
                match ctx.sort_plan(&desc(over)) {
                    Err(vkalgo::Error::InvalidArgument(m)) => {
                        assert!(m.contains("max_count"), "{m}")
                    }
                    other => panic!("{path:?} {key_type:?} max_count {over}: {other:?}"),
                }
            }
        }
    }
    // The C ABI refuses from the count alone: the arrays (far shorter than the count) are
    // neither read nor written.
    unsafe {
        use vkalgo_ffi::sort::*;
        use vkalgo_ffi::types::*;
        use vkalgo_ffi::*;
        let mut c = std::ptr::null_mut();
        assert_eq!(vkalgo_context_create_default(&mut c), VkalgoResult::VkalgoSuccess);
        let desc = VkalgoSortDesc {
            key_type: VKALGO_KEY_U32,
            value_type: VKALGO_VALUE_NONE,
            begin_bit: 0,
            end_bit: 0,
            descending: 0,
            ..Default::default()
        };
        let mut keys = [3u32, 2, 1];
        let r = vkalgo_sort_host(
            c,
            &desc,
            keys.as_mut_ptr().cast(),
            std::ptr::null_mut(),
            (SORT_MAX_COUNT + 1) as usize,
        );
        assert_eq!(r, VkalgoResult::VkalgoErrorInvalidArgument);
        assert_eq!(keys, [3, 2, 1]);
        let mut plan = std::ptr::null_mut();
        let over = VkalgoSortDesc {
            max_count: SORT_MAX_COUNT + 1,
            ..desc
        };
        let r = vkalgo_sort_plan_create(c, &over, &mut plan);
        assert_eq!(r, VkalgoResult::VkalgoErrorInvalidArgument);
        assert!(plan.is_null());
        let at_max = VkalgoSortDesc {
            max_count: SORT_MAX_COUNT,
            ..desc
        };
        let r = vkalgo_sort_plan_create(c, &at_max, &mut plan);
        assert_eq!(r, VkalgoResult::VkalgoSuccess);
        vkalgo_sort_plan_destroy(plan);
        vkalgo_context_destroy(c);
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn result_location_follows_the_pass_count() {
    let ctx = context();
    let plan = |begin_bit, end_bit, key_type| {
        ctx.sort_plan(&SortDesc {
            begin_bit,
            end_bit,
            ..SortDesc::new(key_type, ValueType::None, 100)
        })
        .unwrap()
    };
    assert_eq!(plan(0, 0, KeyType::U32).pass_count(), 4);
    assert_eq!(plan(0, 0, KeyType::U32).result_location(), SortResult::InPlace);
    assert_eq!(plan(0, 0, KeyType::F64).pass_count(), 8);
    assert_eq!(plan(0, 8, KeyType::U32).result_location(), SortResult::Alternate);
    assert_eq!(plan(0, 20, KeyType::U32).pass_count(), 3);
    assert_eq!(plan(3, 4, KeyType::U64).pass_count(), 1);
}

#[test]
fn onesweep_scratch_is_constant_and_small() {
    let ctx = context();
    for max_count in [1u64 << 12, 1 << 20, vkalgo::sort::SORT_MAX_COUNT] {
        let plan = ctx
            .sort_plan(&SortDesc {
                path: SortPath::Onesweep,
                ..SortDesc::new(KeyType::U64, ValueType::U64, max_count)
            })
            .unwrap();
        let req = plan.memory_requirements();
        assert!(
            req.scratch.size <= 2 << 20,
            "{max_count}: {} bytes",
            req.scratch.size
        );
        assert_eq!(req.keys_alt.size, max_count * 8);
        assert_eq!(req.values_alt.size, max_count * 8);
    }
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let ctx = context();
    let err = |r: vkalgo::Result<vkalgo::SortPlan>| matches!(r, Err(vkalgo::Error::InvalidArgument(_)));
    let plan = |f: &dyn Fn(&mut SortDesc)| {
        let mut d = SortDesc::new(KeyType::U32, ValueType::None, 1000);
        f(&mut d);
        ctx.sort_plan(&d)
    };
    assert!(err(plan(&|d| d.end_bit = 33)), "end_bit beyond the key");
    assert!(err(plan(&|d| {
        d.begin_bit = 12;
        d.end_bit = 12
    })));
    assert!(err(plan(&|d| d.begin_bit = 32)), "begin_bit at the width");
    assert!(err(plan(&|d| d.max_count = u32::MAX as u64 + 1)));
    assert!(err(plan(&|d| {
        d.path = SortPath::Small;
        d.max_count = 1 << 24
    })));
    let split = |workgroup_size, keys_per_thread, stage_split| {
        Some(vkalgo::SortTuning {
            workgroup_size,
            keys_per_thread,
            lookback_spins: 0,
            stage_split,
        })
    };
    let tuned = |workgroup_size, keys_per_thread| split(workgroup_size, keys_per_thread, 1);
    assert!(err(plan(&|d| d.tuning = tuned(48, 8))));
    assert!(err(plan(&|d| d.tuning = tuned(0, 8))));
    assert!(
        !err(plan(&|d| d.tuning = tuned(96, 8))),
        "any multiple of 32 is a workgroup size"
    );
    let odd = tuned(64, 3);
    assert!(
        !err(plan(&|d| d.tuning = odd)),
        "odd keys per thread suit 4-byte keys"
    );
    assert!(
        err(plan(&|d| {
            d.key_type = KeyType::U64;
            d.tuning = odd
        })),
        "8-byte keys are staged in two rounds: keys per thread must be even"
    );
    assert!(err(plan(&|d| {
        d.value_type = ValueType::U64;
        d.tuning = odd
    })));
    assert!(err(plan(&|d| d.tuning = split(64, 8, 0))), "stage split 0");
    assert!(err(plan(&|d| d.tuning = split(64, 8, 3))), "stage split 3");
    assert!(
        err(plan(&|d| d.tuning = split(64, 3, 2))),
        "a split stage takes two rounds: keys per thread must be even"
    );
    assert!(!err(plan(&|d| d.tuning = split(64, 6, 2))));
    assert!(
        err(plan(&|d| {
            d.key_type = KeyType::U64;
            d.tuning = split(64, 6, 2)
        })),
        "8-byte keys in a split stage take four rounds"
    );
    assert!(!err(plan(&|d| {
        d.value_type = ValueType::U64;
        d.tuning = split(64, 8, 2)
    })));
    assert!(KeyType::from_raw(6).is_err() && ValueType::from_raw(3).is_err());

    // Host calls: nothing changes on error.
    let mut keys: Vec<u32> = (0..100).rev().collect();
    let before = keys.clone();
    let mut short_values = vec![0u32; 99];
    assert!(ctx.sort_pairs(&mut keys, &mut short_values).is_err());
    let bad = SortOptions {
        begin_bit: 40,
        ..Default::default()
    };
    assert!(ctx.sort_keys_with(&mut keys, &bad).is_err());
    assert_eq!(keys, before);

    // Record layer: wrong buffers are refused before anything is recorded.
    let p = ctx
        .sort_plan(&SortDesc::new(KeyType::U32, ValueType::U32, 1000))
        .unwrap();
    let req = p.memory_requirements();
    let buf = |bytes: u64| GpuBuffer::new(&ctx, bytes, MemoryLocation::GpuOnly, "bad input").unwrap();
    let (k, v, ka, va, s) = (buf(4096), buf(4096), buf(4096), buf(4096), buf(req.scratch.size));
    let good = SortArgs {
        keys: k.sub_range(0, 4000),
        values: Some(v.sub_range(0, 4000)),
        keys_alt: ka.sub_range(0, 4000),
        values_alt: Some(va.sub_range(0, 4000)),
        scratch: s.range(),
        count: ElementCount::Direct(1000),
    };
    let cases: Vec<(&str, SortArgs)> = vec![
        (
            "count over max",
            SortArgs {
                count: ElementCount::Direct(1001),
                ..good
            },
        ),
        ("no values", SortArgs { values: None, ..good }),
        (
            "keys too small",
            SortArgs {
                keys: k.sub_range(0, 3996),
                ..good
            },
        ),
        (
            "misaligned keys",
            SortArgs {
                keys: k.sub_range(2, 4000),
                ..good
            },
        ),
        (
            "alt overlaps keys",
            SortArgs {
                keys_alt: k.sub_range(0, 4000),
                ..good
            },
        ),
        (
            "scratch too small",
            SortArgs {
                scratch: s.sub_range(0, req.scratch.size - 4),
                ..good
            },
        ),
        (
            "count buffer in keys",
            SortArgs {
                count: ElementCount::Indirect(k.sub_range(0, 4)),
                ..good
            },
        ),
    ];
    ctx.submit_and_wait(|cmd| {
        for (what, args) in &cases {
            assert!(
                matches!(
                    unsafe { p.record(cmd, args) },
                    Err(vkalgo::Error::InvalidArgument(_))
                ),
                "{what}"
            );
        }
        assert!(unsafe { p.record(vk::CommandBuffer::null(), &good) }.is_err());
        Ok(())
    })
    .unwrap();
    let keys_only = ctx
        .sort_plan(&SortDesc::new(KeyType::U32, ValueType::None, 1000))
        .unwrap();
    ctx.submit_and_wait(|cmd| {
        assert!(
            unsafe { keys_only.record(cmd, &good) }.is_err(),
            "values given to a keys-only plan"
        );
        Ok(())
    })
    .unwrap();

    // The context still sorts.
    let mut keys: Vec<u32> = (0..5000).rev().collect();
    ctx.sort(&mut keys).unwrap();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]));
    assert_no_validation_messages(&ctx);
}

#[test]
fn c_abi_sort_host() {
    use vkalgo_ffi::sort::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    assert_eq!(
        (
            VKALGO_KEY_U32,
            VKALGO_KEY_I32,
            VKALGO_KEY_F32,
            VKALGO_KEY_U64,
            VKALGO_KEY_I64,
            VKALGO_KEY_F64
        ),
        (
            VkalgoKeyType(0),
            VkalgoKeyType(1),
            VkalgoKeyType(2),
            VkalgoKeyType(3),
            VkalgoKeyType(4),
            VkalgoKeyType(5)
        )
    );
    assert_eq!(
        (VKALGO_VALUE_NONE, VKALGO_VALUE_U32, VKALGO_VALUE_U64),
        (VkalgoValueType(0), VkalgoValueType(1), VkalgoValueType(2))
    );
    unsafe {
        let mut ctx = std::ptr::null_mut();
        assert_eq!(
            vkalgo_context_create_default(&mut ctx),
            VkalgoResult::VkalgoSuccess
        );
        let desc = |key_type, value_type| VkalgoSortDesc {
            key_type,
            value_type,
            begin_bit: 0,
            end_bit: 0,
            descending: 0,
            ..Default::default()
        };
        let mut rng = Rng(3);
        let mut keys: Vec<f32> = (0..3000).map(|_| f32::from_bits(rng.next_u32())).collect();
        let mut values: Vec<u64> = (0..3000).collect();
        let mut want = keys.clone();
        let mut want_values = values.clone();
        reference::sort_pairs(&mut want, Some(&mut want_values), 0, 0, false);
        let d = desc(VKALGO_KEY_F32, VKALGO_VALUE_U64);
        let r = vkalgo_sort_host(
            ctx,
            &d,
            keys.as_mut_ptr().cast(),
            values.as_mut_ptr().cast(),
            keys.len(),
        );
        assert_eq!(r, VkalgoResult::VkalgoSuccess);
        assert_eq!(
            bytemuck::cast_slice::<f32, u32>(&keys),
            bytemuck::cast_slice::<f32, u32>(&want)
        );
        assert_eq!(values, want_values);

        // Bad input: a negative result, a message, nothing changed.
        let mut k: Vec<u32> = vec![3, 2, 1];
        let mut v: Vec<u32> = vec![1, 2, 3];
        let kp = k.as_mut_ptr().cast();
        let vp = v.as_mut_ptr().cast();
        let null = std::ptr::null_mut();
        let invalid = VkalgoResult::VkalgoErrorInvalidArgument;
        let with = |f: &dyn Fn(&mut VkalgoSortDesc)| {
            let mut d = desc(VKALGO_KEY_U32, VKALGO_VALUE_U32);
            f(&mut d);
            d
        };
        let cases = [
            (
                "unknown key type",
                vkalgo_sort_host(ctx, &with(&|d| d.key_type = VkalgoKeyType(6)), kp, vp, 3),
            ),
            (
                "unknown value type",
                vkalgo_sort_host(ctx, &with(&|d| d.value_type = VkalgoValueType(3)), kp, vp, 3),
            ),
            (
                "begin >= end",
                vkalgo_sort_host(
                    ctx,
                    &with(&|d| {
                        d.begin_bit = 9;
                        d.end_bit = 9
                    }),
                    kp,
                    vp,
                    3,
                ),
            ),
            (
                "end beyond width",
                vkalgo_sort_host(ctx, &with(&|d| d.end_bit = 33), kp, vp, 3),
            ),
            (
                "descending 2",
                vkalgo_sort_host(ctx, &with(&|d| d.descending = 2), kp, vp, 3),
            ),
            ("NULL keys", vkalgo_sort_host(ctx, &with(&|_| {}), null, vp, 3)),
            (
                "NULL values with a type",
                vkalgo_sort_host(ctx, &with(&|_| {}), kp, null, 3),
            ),
            (
                "values without a type",
                vkalgo_sort_host(ctx, &with(&|d| d.value_type = VkalgoValueType(0)), kp, vp, 3),
            ),
            ("NULL desc", vkalgo_sort_host(ctx, std::ptr::null(), kp, vp, 3)),
        ];
        for (what, r) in cases {
            assert_eq!(r, invalid, "{what}");
            let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message())
                .to_string_lossy()
                .into_owned();
            assert!(message.contains("vkalgo_sort_host"), "{what}: {message}");
        }
        assert_eq!(
            vkalgo_sort_host(std::ptr::null_mut(), &with(&|_| {}), kp, vp, 3),
            invalid,
            "NULL context"
        );
        assert_eq!((k.clone(), v.clone()), (vec![3, 2, 1], vec![1, 2, 3]));
        // Count 0 with NULL arrays is fine; the context is still usable.
        assert_eq!(
            vkalgo_sort_host(ctx, &with(&|d| d.value_type = VkalgoValueType(0)), null, null, 0),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(
            vkalgo_sort_host(ctx, &with(&|_| {}), kp, vp, 3),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!((k, v), (vec![1, 2, 3], vec![3, 2, 1]));
        vkalgo_context_destroy(ctx);
    }
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
    assert_no_validation_messages(&ctx);
}

/// Onesweep with a look-back that gives up after one poll: predecessors that have not
/// published are counted by the waiting tile itself (the fallback), and results stay exact.
/// With several lavapipe threads (scripts/test.sh runs LP_NUM_THREADS=4) tiles really do
/// run concurrently; the ring wraps (over 1016 tiles per pass) in the larger case.
#[test]
fn onesweep_forced_fallback_and_ring_wrap() {
    let ctx = context();
    let mut rng = Rng(77);
    // (96 x 3: a workgroup size that is not a power of two, and an odd number of keys.)
    // lookback_spins 1: a waiter gives up after one poll; u32::MAX: the test mode in which every
    // tile counts its nearest predecessor itself (the counters must show it).
    let cases = [
        (64u32, 8u32, 50_000usize, 1u32),
        (96, 3, 30_000, 1),
        (32, 1, 40_000, 1),
        (64, 8, 50_000, u32::MAX),
        (96, 3, 30_000, u32::MAX),
    ];
    for (wg, keys_per_thread, n, lookback_spins) in cases {
        let tuning = vkalgo::SortTuning {
            workgroup_size: wg,
            keys_per_thread,
            lookback_spins,
            stage_split: if keys_per_thread % 2 == 0 { 2 } else { 1 },
        };
        let keys: Vec<u32> = (0..n).map(|_| rng.next_u32() % 3000).collect();
        let desc = SortDesc {
            path: SortPath::Onesweep,
            tuning: Some(tuning),
            ..SortDesc::new(KeyType::U32, ValueType::U32, n as u64)
        };
        let plan = ctx.sort_plan(&desc).unwrap();
        assert!(n as u64 / plan.tile_size() > 1016 || wg != 32);
        let bytes = n as u64 * 4;
        let upload = |data: &[u32]| {
            let mut b = GpuBuffer::new(&ctx, bytes, MemoryLocation::CpuToGpu, "fallback data").unwrap();
            b.mapped().unwrap()[..bytes as usize].copy_from_slice(bytemuck::cast_slice(data));
            b
        };
        let values: Vec<u32> = (0..n as u32).collect();
        let (mut k, mut v) = (upload(&keys), upload(&values));
        let (mut ka, mut va) = (upload(&values), upload(&values));
        let mut scratch = GpuBuffer::new(
            &ctx,
            plan.memory_requirements().scratch.size,
            MemoryLocation::GpuToCpu,
            "s",
        )
        .unwrap();
        let args = SortArgs {
            keys: k.range(),
            values: Some(v.range()),
            keys_alt: ka.range(),
            values_alt: Some(va.range()),
            scratch: scratch.range(),
            count: ElementCount::Direct(n as u64),
        };
        ctx.submit_and_wait(|cmd| unsafe {
            plan.record(cmd, &args)?;
            common::compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        let (got_keys, got_values) = match plan.result_location() {
            SortResult::InPlace => (read(&mut k), read(&mut v)),
            SortResult::Alternate => (read(&mut ka), read(&mut va)),
        };
        let mut want_keys = keys.clone();
        let mut want_values = values.clone();
        reference::sort_pairs(&mut want_keys, Some(&mut want_values), 0, 0, false);
        assert_eq!(got_keys[..n], want_keys[..], "{wg}x{keys_per_thread}");
        assert_eq!(got_values[..n], want_values[..], "{wg}x{keys_per_thread}");
        if lookback_spins == u32::MAX {
            // Keys below 3000: the two low digits vary, the two high ones are copied (no
            // look-back), so at least (tiles - 1) fallbacks per ranked pass.
            let stats = read(&mut scratch);
            let fallbacks = stats[(vkalgo::sort::ONESWEEP_STATS_OFFSET / 4) as usize] as u64;
            let tiles = (n as u64).div_ceil(plan.tile_size());
            assert!(
                fallbacks >= 2 * (tiles - 1),
                "{wg}x{keys_per_thread}: {fallbacks} fallbacks counted, {tiles} tiles"
            );
        }
    }
    assert_no_validation_messages(&ctx);
}

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
fn resident_kernel_every_type_value_width_and_size() {
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
    assert_no_validation_messages(&ctx);
}

/// The resident kernel fills the slots past the count with the largest ordered key: keys that
/// tie with those pads (all keys the largest in the sort's order, ascending and descending, and
/// a partial bit range whose digits are all ones) must still come out in input order, ahead
/// of the pads, at counts that leave pads in the last subgroup's steps and in whole steps.
#[test]
fn resident_kernel_keys_tied_with_the_pads() {
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
    assert_no_validation_messages(&ctx);
}

/// The resident kernel on partial bit ranges (odd pass counts leave the result in the
/// alternate buffers; a single pass transforms the keys in and out at once), both directions.
#[test]
fn resident_kernel_bit_ranges() {
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
    assert_no_validation_messages(&ctx);
}

/// The resident kernel through the record layer: offsets, poison around the ranges, direct and
/// indirect counts (the kernel is chosen from max_count; the count is read on the GPU), on Auto
/// and Small plans at its capacity; one past the capacity the tiled kernel takes indirect counts
/// even when the count read is small.
#[test]
fn resident_kernel_record_layer_and_indirect_counts() {
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
    assert_no_validation_messages(&ctx);
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
fn resident_kernel_stage_layouts_with_a_tuning_beside_the_tiled_kernel() {
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
    assert_no_validation_messages(&ctx);
}
