//! Merge path on the Vulkan device (lavapipe in CI), compared exactly with CPU references:
//! stable merges of every key type and order with and without values, sizes around the tile,
//! equal keys (stability through the values), float specials, both kernel paths, the record
//! layer with offsets and indirect counts; set operations with multiset semantics; the merge
//! sort and the segmented merge; bad input through the Rust API and the C ABI.

mod common;

use common::{assert_no_validation_messages, context, Rng};
use vkalgo::ash::vk;
use vkalgo::merge::reference;
use vkalgo::sort::reference::sort_pairs;
use vkalgo::{
    BufferRange, Context, ElementCount, Error, GpuBuffer, KeyType, MemoryLocation, MergeArgs, MergeDesc,
    MergeOptions, MergePath, MergeSortDesc, MergeTuning, SetOp, SetOpArgs, SetOpDesc, SetOpPath, SortKey,
    SortValue, ValueType,
};

/// A key type of the tests: built from small integers (so runs have many equal keys) and with
/// the special values of its type.
trait TestKey: SortKey + std::fmt::Debug {
    fn from_small(v: u64) -> Self;
    fn from_bits64(v: u64) -> Self;
    fn specials() -> Vec<Self> {
        Vec::new()
    }
}

impl TestKey for u32 {
    fn from_small(v: u64) -> Self {
        v as u32
    }
    fn from_bits64(v: u64) -> Self {
        v as u32
    }
    fn specials() -> Vec<Self> {
        vec![0, 1, u32::MAX, u32::MAX - 1, 0x8000_0000]
    }
}
impl TestKey for i32 {
    fn from_small(v: u64) -> Self {
        v as i32 - 8
    }
    fn from_bits64(v: u64) -> Self {
        v as i32
    }
    fn specials() -> Vec<Self> {
        vec![0, -1, i32::MIN, i32::MAX]
    }
}
impl TestKey for f32 {
    fn from_small(v: u64) -> Self {
        (v as f32 - 8.0) * 0.75
    }
    fn from_bits64(v: u64) -> Self {
        f32::from_bits(v as u32)
    }
    fn specials() -> Vec<Self> {
        vec![
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7FC0_0001),
            f32::from_bits(0xFFC0_0001),
            f32::from_bits(0x7F80_0001),
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::MAX,
            f32::MIN,
        ]
    }
}
impl TestKey for u64 {
    fn from_small(v: u64) -> Self {
        v << 32 | 7
    }
    fn from_bits64(v: u64) -> Self {
        v
    }
    fn specials() -> Vec<Self> {
        vec![0, u64::MAX, 1 << 63, u32::MAX as u64, 1 << 32]
    }
}
impl TestKey for i64 {
    fn from_small(v: u64) -> Self {
        (v as i64 - 8) << 33
    }
    fn from_bits64(v: u64) -> Self {
        v as i64
    }
    fn specials() -> Vec<Self> {
        vec![0, -1, i64::MIN, i64::MAX]
    }
}
impl TestKey for f64 {
    fn from_small(v: u64) -> Self {
        (v as f64 - 8.0) * 0.375
    }
    fn from_bits64(v: u64) -> Self {
        f64::from_bits(v)
    }
    fn specials() -> Vec<Self> {
        vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::from_bits(0x7FF8_0000_0000_0001),
            f64::from_bits(0xFFF8_0000_0000_0001),
            f64::from_bits(0x7FF0_0000_0000_0001),
            f64::MIN_POSITIVE,
            f64::from_bits(1),
            f64::MAX,
            f64::MIN,
        ]
    }
}

fn bits<K: SortKey>(k: &[K]) -> &[u8] {
    bytemuck::cast_slice(k)
}

/// `n` keys from `domain` small values (0: full-width random bits), with specials mixed in,
/// sorted in the given order.
fn sorted_run<K: TestKey>(rng: &mut Rng, n: usize, domain: u64, descending: bool) -> Vec<K> {
    let specials = K::specials();
    let mut keys: Vec<K> = (0..n)
        .map(|_| {
            let r = rng.next_u64();
            if !specials.is_empty() && r % 11 == 0 {
                specials[(r >> 8) as usize % specials.len()]
            } else if domain == 0 {
                K::from_bits64(rng.next_u64())
            } else {
                K::from_small(rng.next_u64() % domain)
            }
        })
        .collect();
    sort_pairs::<K, u32>(&mut keys, None, 0, 0, descending);
    keys
}

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

fn tile_of(ctx: &Context, key_type: KeyType) -> usize {
    ctx.merge_plan(&MergeDesc::new(key_type, ValueType::U64, 1 << 20, 1 << 20))
        .unwrap()
        .tile_size() as usize
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
}

/// 2^21 + 2^21 once, with tunings whose tile counts give the partition kernel every width of
/// boundary search on lavapipe (src/merge/mod.rs partition_lanes): 32 x 1 (131,072 tiles: a
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
    assert_no_validation_messages(&ctx);
}

const POISON: u32 = 0xA5A5_5A5A;

/// A host-visible buffer of u32 words filled with POISON, with `data` at word `at`.
fn poisoned(ctx: &Context, words: usize, at: usize, data: &[u32]) -> GpuBuffer {
    let mut buf = GpuBuffer::new(ctx, words as u64 * 4, MemoryLocation::CpuToGpu, "test").unwrap();
    let w: &mut [u32] = bytemuck::cast_slice_mut(buf.mapped().unwrap());
    w.fill(POISON);
    w[at..at + data.len()].copy_from_slice(data);
    buf
}

fn words(buf: &mut GpuBuffer) -> Vec<u32> {
    bytemuck::cast_slice(buf.mapped().unwrap()).to_vec()
}

unsafe fn host_to_compute(ctx: &Context, cmd: vk::CommandBuffer) {
    common::host_to_compute(ctx, cmd);
}

/// The record layer with ranges at offsets inside larger buffers, poisoned around them, direct
/// or indirect counts; checks the output and that nothing else changed.
fn record_merge_case(ctx: &Context, path: MergePath, m: usize, n: usize, indirect: bool) {
    let mut rng = Rng(m as u64 * 31 + n as u64);
    let a = sorted_run::<u32>(&mut rng, m, 50, false);
    let b = sorted_run::<u32>(&mut rng, n, 50, false);
    let av: Vec<u32> = (0..m as u32).collect();
    let bv: Vec<u32> = (0..n as u32).map(|j| j | 1 << 31).collect();
    let (max_a, max_b) = (m + 13, n + 9);
    let desc = MergeDesc {
        path,
        ..MergeDesc::new(KeyType::U32, ValueType::U32, max_a as u64, max_b as u64)
    };
    let plan = ctx.merge_plan(&desc).unwrap();
    let total = max_a + max_b;
    // One buffer for the inputs, one for the outputs, at odd word offsets.
    let input: Vec<u32> = [
        a.clone(),
        vec![POISON; max_a - m],
        av.clone(),
        vec![POISON; max_a - m],
    ]
    .concat()
    .into_iter()
    .chain(
        [
            b.clone(),
            vec![POISON; max_b - n],
            bv.clone(),
            vec![POISON; max_b - n],
        ]
        .concat(),
    )
    .collect();
    let in_buf = poisoned(ctx, input.len() + 8, 3, &input);
    let mut out_buf = poisoned(ctx, 2 * total + 10, 0, &[]);
    let scratch = GpuBuffer::new(
        ctx,
        plan.memory_requirements().scratch.size + 32,
        MemoryLocation::GpuOnly,
        "scratch",
    )
    .unwrap();
    let count_buf = poisoned(ctx, 8, 0, &[m as u32, POISON, n as u32]);
    let range = |buf: &GpuBuffer, word: usize, len: usize| buf.sub_range(word as u64 * 4, len as u64 * 4);
    let out_at = 5;
    let args = MergeArgs {
        a_keys: range(&in_buf, 3, max_a),
        a_values: Some(range(&in_buf, 3 + max_a, max_a)),
        b_keys: range(&in_buf, 3 + 2 * max_a, max_b),
        b_values: Some(range(&in_buf, 3 + 2 * max_a + max_b, max_b)),
        out_keys: range(&out_buf, out_at, total),
        out_values: Some(range(&out_buf, out_at + total, total)),
        scratch: scratch.sub_range(16, plan.memory_requirements().scratch.size),
        a_count: if indirect {
            ElementCount::Indirect(range(&count_buf, 0, 1))
        } else {
            ElementCount::Direct(m as u64)
        },
        b_count: if indirect {
            ElementCount::Indirect(range(&count_buf, 2, 1))
        } else {
            ElementCount::Direct(n as u64)
        },
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        plan.record(cmd, &args)?;
        common::compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap();
    let got = words(&mut out_buf);
    let (want_keys, want_values) = reference::merge(&a, Some(&av), &b, Some(&bv), false);
    let what = format!("record {path:?} ({m}, {n}) indirect={indirect}");
    let mut want = vec![POISON; got.len()];
    want[out_at..out_at + m + n].copy_from_slice(&want_keys);
    want[out_at + total..out_at + total + m + n].copy_from_slice(&want_values.unwrap());
    assert!(got == want, "{what}: output or poison differs");
}

#[test]
fn merge_record_layer_offsets_and_indirect_counts() {
    let ctx = context();
    let tile = tile_of(&ctx, KeyType::U32);
    for path in [MergePath::Fused, MergePath::Partitioned] {
        for (m, n) in [(0, 0), (0, 7), (tile, tile + 1), (3 * tile + 2, 17)] {
            for indirect in [false, true] {
                record_merge_case(&ctx, path, m, n, indirect);
            }
        }
    }
    assert_no_validation_messages(&ctx);
}

fn set_ops_for<K: TestKey>(ctx: &Context, rng: &mut Rng) {
    let tile = tile_of(ctx, K::KEY_TYPE);
    let unique = |rng: &mut Rng, n: usize, spread: u64| -> Vec<K> {
        let mut v: Vec<K> = (0..n).map(|_| K::from_small(rng.next_u64() % spread)).collect();
        sort_pairs::<K, u32>(&mut v, None, 0, 0, false);
        v.dedup_by(|x, y| bits(std::slice::from_ref(x)) == bits(std::slice::from_ref(y)));
        v
    };
    let sizes = [
        (0, 0),
        (0, 9),
        (9, 0),
        (1, 1),
        (tile + 1, tile - 1),
        (2000, 3000),
        (5, 3000),
    ];
    for op in SetOp::ALL {
        for &(m, n) in &sizes {
            // Repeated values (runs of equal keys crossing tiles) and unique values.
            for (domain, dedup) in [(12u64, false), (6000, true), (0, false)] {
                let (a, b) = if dedup {
                    (unique(rng, m, domain), unique(rng, n, domain))
                } else {
                    (
                        sorted_run::<K>(rng, m, domain, false),
                        sorted_run::<K>(rng, n, domain, false),
                    )
                };
                let want = reference::set_op(op, &a, &b);
                let got = ctx
                    .sorted_set_op(op, &a, &b)
                    .unwrap_or_else(|e| panic!("{op:?} {:?}: {e}", K::KEY_TYPE));
                assert!(
                    bits(&got) == bits(&want),
                    "{op:?} {:?} ({}, {}) domain {domain}: got {} keys, want {}",
                    K::KEY_TYPE,
                    a.len(),
                    b.len(),
                    got.len(),
                    want.len()
                );
            }
        }
    }
}

#[test]
fn set_ops_every_key_type_unique_and_repeated() {
    let ctx = context();
    let mut rng = Rng(51);
    set_ops_for::<u32>(&ctx, &mut rng);
    set_ops_for::<i32>(&ctx, &mut rng);
    set_ops_for::<f32>(&ctx, &mut rng);
    set_ops_for::<u64>(&ctx, &mut rng);
    set_ops_for::<i64>(&ctx, &mut rng);
    set_ops_for::<f64>(&ctx, &mut rng);
    // Multiset counts: value v present v % 4 times in a and v % 3 times in b.
    let a: Vec<u32> = (0..400u32)
        .flat_map(|v| std::iter::repeat(v).take((v % 4) as usize))
        .collect();
    let b: Vec<u32> = (0..400u32)
        .flat_map(|v| std::iter::repeat(v).take((v % 3) as usize))
        .collect();
    for op in SetOp::ALL {
        let got = ctx.sorted_set_op(op, &a, &b).unwrap();
        let want: Vec<u32> = (0..400u32)
            .flat_map(|v| std::iter::repeat(v).take(op.copies((v % 4) as u64, (v % 3) as u64) as usize))
            .collect();
        assert_eq!(got, want, "{op:?} multiset counts");
        assert_eq!(got, reference::set_op(op, &a, &b), "{op:?} reference");
    }
    assert_no_validation_messages(&ctx);
}

/// Set operations through the record layer with indirect counts, ranges inside larger
/// buffers and poison around the output.
fn record_set_ops(ctx: &Context, path: SetOpPath, tuning: Option<MergeTuning>) {
    let ctx = ctx.clone();
    let mut rng = Rng(61);
    let (m, n) = (1000usize, 1700usize);
    let a = sorted_run::<u32>(&mut rng, m, 900, false);
    let b = sorted_run::<u32>(&mut rng, n, 900, false);
    for op in SetOp::ALL {
        let plan = ctx
            .set_op_plan(&SetOpDesc {
                key_type: KeyType::U32,
                op,
                max_a: m as u64 + 100,
                max_b: n as u64 + 50,
                path,
                tuning,
            })
            .unwrap();
        assert_eq!(plan.path(), path);
        let input = [a.clone(), b.clone()].concat();
        let in_buf = poisoned(&ctx, input.len() + 4, 1, &input);
        let mut out_buf = poisoned(&ctx, m + n + 150 + 8, 0, &[]);
        let count_buf = poisoned(&ctx, 4, 0, &[m as u32, n as u32]);
        let scratch = GpuBuffer::new(
            &ctx,
            plan.memory_requirements().scratch.size,
            MemoryLocation::GpuOnly,
            "scratch",
        )
        .unwrap();
        let args = SetOpArgs {
            a: in_buf.sub_range(4, m as u64 * 4),
            b: in_buf.sub_range(4 + m as u64 * 4, n as u64 * 4),
            out: out_buf.sub_range(8, (m + n + 150) as u64 * 4),
            out_count: out_buf.sub_range(0, 4),
            scratch: scratch.range(),
            a_count: ElementCount::Indirect(count_buf.sub_range(0, 4)),
            b_count: ElementCount::Indirect(count_buf.sub_range(4, 4)),
        };
        // The ranges of A and B are sized for their counts; an indirect count sizes for the
        // maxima, so these ranges are refused...
        let refused = ctx.submit_and_wait(|cmd| unsafe { plan.record(cmd, &args) });
        assert!(matches!(refused, Err(Error::InvalidArgument(_))), "{op:?}");
        // ...and accepted with room for the maxima.
        let in_buf = poisoned(&ctx, m + n + 160, 0, &[]);
        {
            let mut in_buf = in_buf;
            let w: &mut [u32] = bytemuck::cast_slice_mut(in_buf.mapped().unwrap());
            w[..m].copy_from_slice(&a);
            w[m + 100..m + 100 + n].copy_from_slice(&b);
            let args = SetOpArgs {
                a: in_buf.sub_range(0, (m + 100) as u64 * 4),
                b: in_buf.sub_range((m + 100) as u64 * 4, (n + 50) as u64 * 4),
                ..args
            };
            ctx.submit_and_wait(|cmd| unsafe {
                host_to_compute(&ctx, cmd);
                plan.record(cmd, &args)?;
                common::compute_to_host(&ctx, cmd);
                Ok(())
            })
            .unwrap();
        }
        let got = words(&mut out_buf);
        let want = reference::set_op(op, &a, &b);
        assert_eq!(got[0] as usize, want.len(), "{op:?} count");
        assert_eq!(&got[2..2 + want.len()], &want[..], "{op:?} keys");
        assert!(
            got[1] == POISON && got[2 + want.len()..].iter().all(|&w| w == POISON),
            "{op:?} poison"
        );
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn set_ops_record_layer_indirect_counts() {
    record_set_ops(&context(), SetOpPath::CountScanWrite, None);
}

/// The single-pass look-back path (the default where the device allows inter-workgroup
/// waiting), with the default spin limit and with the fallback taken nearly always.
#[test]
fn set_ops_lookback_path() {
    let ctx = common::context_with_lookback(true);
    let plan = ctx
        .set_op_plan(&SetOpDesc::new(KeyType::U32, SetOp::Or, 10, 10))
        .unwrap();
    assert_eq!(plan.path(), SetOpPath::Lookback);
    let mut rng = Rng(52);
    set_ops_for::<u32>(&ctx, &mut rng);
    set_ops_for::<f64>(&ctx, &mut rng);
    record_set_ops(&ctx, SetOpPath::Lookback, None);
    let small = MergeTuning {
        workgroup_size: 32,
        items_per_thread: 3,
        lookback_spins: 1,
    };
    record_set_ops(&ctx, SetOpPath::Lookback, Some(small));
    // Every tile after the first walks its predecessor's tile itself (the fallback).
    let forced = MergeTuning {
        lookback_spins: u32::MAX,
        ..small
    };
    record_set_ops(&ctx, SetOpPath::Lookback, Some(forced));
    assert_no_validation_messages(&ctx);
}

/// The walk's extremes: one element per invocation (starts that move by one past their
/// diagonal on every pair) and 32 (a 33-step walk, the widest kept-output mask), on both paths;
/// and the GPUs' tuning of 4-byte keys (256 x 15).
#[test]
fn set_ops_extreme_tunings() {
    let ctx = common::context_with_lookback(true);
    for (workgroup_size, items_per_thread) in [(32, 1), (32, 2), (32, 32), (256, 15)] {
        let tuning = MergeTuning {
            workgroup_size,
            items_per_thread,
            lookback_spins: 0,
        };
        record_set_ops(&ctx, SetOpPath::CountScanWrite, Some(tuning));
        record_set_ops(&ctx, SetOpPath::Lookback, Some(tuning));
    }
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
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
    assert_no_validation_messages(&ctx);
}

fn is_invalid<T: std::fmt::Debug>(r: vkalgo::Result<T>, what: &str) {
    assert!(matches!(r, Err(Error::InvalidArgument(_))), "{what}: {r:?}");
}

#[test]
fn bad_input_is_refused_and_nothing_written() {
    let ctx = context();
    let tile = tile_of(&ctx, KeyType::U32);
    // Unsorted runs (a single inversion late in a multi-tile run), every path and order.
    let mut a: Vec<u32> = (0..3 * tile as u32).collect();
    a.swap(2 * tile + 5, 2 * tile + 6);
    let b: Vec<u32> = (0..100).collect();
    for path in [MergePath::Fused, MergePath::Partitioned] {
        let options = MergeOptions {
            path,
            ..Default::default()
        };
        let mut out = vec![7u32; a.len() + b.len()];
        is_invalid(ctx.merge_with(&a, &b, &mut out, &options), "unsorted A");
        is_invalid(ctx.merge_with(&b, &a, &mut out, &options), "unsorted B");
        let descending = MergeOptions {
            descending: true,
            ..options
        };
        is_invalid(
            ctx.merge_with(&b, &b, &mut out[..200], &descending),
            "ascending runs, descending merge",
        );
        let mut out_values = vec![7u32; out.len()];
        let av = vec![1u32; a.len()];
        let bv = vec![2u32; b.len()];
        is_invalid(
            ctx.merge_pairs_with(&a, &av, &b, &bv, &mut out, &mut out_values, &options),
            "unsorted pairs",
        );
        assert!(out.iter().chain(&out_values).all(|&w| w == 7), "nothing written");
    }
    // A NaN out of place is unsorted too.
    let mut out = [0f32; 4];
    is_invalid(
        ctx.merge(&[f32::NAN, 1.0], &[1.0, 2.0], &mut out),
        "NaN before 1.0",
    );
    for op in SetOp::ALL {
        is_invalid(ctx.sorted_set_op(op, &a, &b), "unsorted set input A");
        is_invalid(ctx.sorted_set_op(op, &b, &a), "unsorted set input B");
    }
    // Lengths.
    let mut out = vec![0u32; 5];
    is_invalid(ctx.merge(&[1u32, 2], &[3u32, 4], &mut out), "output too long");
    let mut out_values = vec![0u64; 4];
    let mut out = vec![0u32; 4];
    is_invalid(
        ctx.merge_pairs(
            &[1u32, 2],
            &[1u64],
            &[3u32, 4],
            &[1u64, 2],
            &mut out,
            &mut out_values,
        ),
        "values shorter than keys",
    );
    // Plans.
    is_invalid(
        ctx.merge_plan(&MergeDesc::new(KeyType::U32, ValueType::None, 1 << 32, 1)),
        "max_a over 2^32 - 1",
    );
    is_invalid(
        ctx.set_op_plan(&SetOpDesc {
            key_type: KeyType::U32,
            op: SetOp::And,
            max_a: 1 << 31,
            max_b: 1 << 31,
            path: SetOpPath::Auto,
            tuning: None,
        }),
        "set operation over 2^32 - 1",
    );
    for (workgroup_size, items_per_thread) in [(48, 4), (16, 4), (64, 0), (64, 33), (2048, 1)] {
        is_invalid(
            ctx.merge_plan(&MergeDesc {
                tuning: Some(MergeTuning {
                    workgroup_size,
                    items_per_thread,
                    lookback_spins: 0,
                }),
                ..MergeDesc::new(KeyType::U32, ValueType::None, 10, 10)
            }),
            &format!("tuning {workgroup_size}x{items_per_thread}"),
        );
    }
    // Record layer: nothing is recorded on error.
    let plan = ctx
        .merge_plan(&MergeDesc::new(KeyType::U32, ValueType::None, 100, 100))
        .unwrap();
    let buf = GpuBuffer::new(&ctx, 4096, MemoryLocation::GpuOnly, "bad").unwrap();
    let other = GpuBuffer::new(&ctx, 4096, MemoryLocation::GpuOnly, "bad2").unwrap();
    let good = MergeArgs {
        a_keys: buf.sub_range(0, 400),
        a_values: None,
        b_keys: buf.sub_range(400, 400),
        b_values: None,
        out_keys: buf.sub_range(800, 800),
        out_values: None,
        scratch: other.sub_range(0, plan.memory_requirements().scratch.size),
        a_count: ElementCount::Direct(100),
        b_count: ElementCount::Direct(100),
    };
    let bad_cases: Vec<(&str, MergeArgs)> = vec![
        (
            "count over max",
            MergeArgs {
                a_count: ElementCount::Direct(101),
                ..good
            },
        ),
        (
            "output too small",
            MergeArgs {
                out_keys: buf.sub_range(800, 796),
                ..good
            },
        ),
        (
            "output overlaps input",
            MergeArgs {
                out_keys: buf.sub_range(396, 800),
                ..good
            },
        ),
        (
            "scratch overlaps output",
            MergeArgs {
                scratch: buf.sub_range(800, 800),
                ..good
            },
        ),
        (
            "values without a value type",
            MergeArgs {
                a_values: Some(buf.sub_range(1600, 400)),
                ..good
            },
        ),
        (
            "misaligned keys",
            MergeArgs {
                a_keys: buf.sub_range(2, 400),
                ..good
            },
        ),
        (
            "null buffer",
            MergeArgs {
                b_keys: BufferRange::new(vk::Buffer::null(), 0, 400),
                ..good
            },
        ),
        (
            "indirect count overlapping output",
            MergeArgs {
                a_count: ElementCount::Indirect(buf.sub_range(800, 4)),
                ..good
            },
        ),
    ];
    for (what, args) in bad_cases {
        let r = ctx.submit_and_wait(|cmd| unsafe { plan.record(cmd, &args) });
        is_invalid(r, what);
    }
    // The context is still usable.
    let mut out = [0u32; 4];
    ctx.merge(&[1u32, 3], &[2u32, 4], &mut out).unwrap();
    assert_eq!(out, [1, 2, 3, 4]);
    // Segmented merge: bad offsets and unsorted runs.
    let mut keys = vec![1u32, 2, 0, 5];
    for offsets in [vec![0u32, 2, 5], vec![1, 4], vec![0, 3, 2, 4], vec![]] {
        is_invalid(
            ctx.segmented_merge::<u32, u32>(&mut keys, None, &offsets, &MergeOptions::default()),
            &format!("offsets {offsets:?}"),
        );
    }
    is_invalid(
        ctx.segmented_merge::<u32, u32>(&mut keys, None, &[0, 3, 4], &MergeOptions::default()),
        "unsorted run",
    );
    assert_eq!(keys, [1, 2, 0, 5]);
    assert_no_validation_messages(&ctx);
}

#[test]
fn c_abi_merge_and_set_ops() {
    use vkalgo_ffi::merge::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    unsafe {
        let mut ctx = std::ptr::null_mut();
        assert_eq!(
            vkalgo_context_create_default(&mut ctx),
            VkalgoResult::VkalgoSuccess
        );
        let ok = VkalgoResult::VkalgoSuccess;
        let invalid = VkalgoResult::VkalgoErrorInvalidArgument;
        let null = std::ptr::null();
        let null_mut = std::ptr::null_mut();
        // A stable merge of f64 pairs, descending.
        let mut rng = Rng(91);
        let a = sorted_run::<f64>(&mut rng, 1000, 9, true);
        let b = sorted_run::<f64>(&mut rng, 1500, 9, true);
        let av: Vec<u32> = (0..1000).collect();
        let bv: Vec<u32> = (0..1500).map(|j| j | 1 << 31).collect();
        let (wk, wv) = reference::merge(&a, Some(&av), &b, Some(&bv), true);
        let mut ok_keys = vec![0f64; 2500];
        let mut ok_values = vec![0u32; 2500];
        let desc = VkalgoMergeDesc {
            key_type: VKALGO_KEY_F64,
            value_type: VKALGO_VALUE_U32,
            descending: 1,
            ..Default::default()
        };
        let r = vkalgo_merge_host(
            ctx,
            &desc,
            a.as_ptr().cast(),
            av.as_ptr().cast(),
            a.len(),
            b.as_ptr().cast(),
            bv.as_ptr().cast(),
            b.len(),
            ok_keys.as_mut_ptr().cast(),
            ok_values.as_mut_ptr().cast(),
        );
        assert_eq!(r, ok);
        assert!(bits(&ok_keys) == bits(&wk));
        assert_eq!(ok_values, wv.unwrap());
        // Bad merge arguments: a negative result with a message, nothing written.
        let ka = [1u32, 2, 3];
        let kb = [2u32, 5];
        let unsorted = [3u32, 1];
        let mut out = [9u32; 5];
        let mut out_values = [9u32; 5];
        let op = out.as_mut_ptr().cast();
        let ovp = out_values.as_mut_ptr().cast();
        let d = |key_type, value_type, descending| VkalgoMergeDesc {
            key_type,
            value_type,
            descending,
            ..Default::default()
        };
        let keys_only = d(VKALGO_KEY_U32, VKALGO_VALUE_NONE, 0);
        let pairs = d(VKALGO_KEY_U32, VKALGO_VALUE_U32, 0);
        let vals = [0u32; 3];
        let vp = vals.as_ptr().cast();
        let (pa, pb, pu) = (ka.as_ptr().cast(), kb.as_ptr().cast(), unsorted.as_ptr().cast());
        let no_ctx = std::ptr::null_mut();
        // A merge of 3 and 2 elements with the arguments given.
        let merge = |c: *mut VkalgoContext, desc: *const VkalgoMergeDesc, a, av, b, bv, o, ov| {
            vkalgo_merge_host(c, desc, a, av, 3, b, bv, 2, o, ov)
        };
        let cases = [
            (
                "unknown key type",
                merge(
                    ctx,
                    &d(VkalgoKeyType(6), VKALGO_VALUE_NONE, 0),
                    pa,
                    null,
                    pb,
                    null,
                    op,
                    null_mut,
                ),
            ),
            (
                "unknown value type",
                merge(
                    ctx,
                    &d(VKALGO_KEY_U32, VkalgoValueType(3), 0),
                    pa,
                    null,
                    pb,
                    null,
                    op,
                    null_mut,
                ),
            ),
            (
                "descending 2",
                merge(
                    ctx,
                    &d(VKALGO_KEY_U32, VKALGO_VALUE_NONE, 2),
                    pa,
                    null,
                    pb,
                    null,
                    op,
                    null_mut,
                ),
            ),
            (
                "NULL a_keys",
                merge(ctx, &keys_only, null, null, pb, null, op, null_mut),
            ),
            (
                "NULL out_keys",
                merge(ctx, &keys_only, pa, null, pb, null, null_mut, null_mut),
            ),
            (
                "values without a type",
                merge(ctx, &keys_only, pa, vp, pb, null, op, null_mut),
            ),
            ("missing values", merge(ctx, &pairs, pa, vp, pb, null, op, ovp)),
            (
                "missing out values",
                merge(ctx, &pairs, pa, vp, pb, vp, op, null_mut),
            ),
            (
                "unsorted b",
                merge(ctx, &keys_only, pa, null, pu, null, op, null_mut),
            ),
            (
                "NULL desc",
                merge(ctx, std::ptr::null(), pa, null, pb, null, op, null_mut),
            ),
            (
                "NULL context",
                merge(no_ctx, &keys_only, pa, null, pb, null, op, null_mut),
            ),
            (
                "an extension struct",
                merge(
                    ctx,
                    &VkalgoMergeDesc {
                        next: (&keys_only as *const VkalgoMergeDesc).cast(),
                        ..keys_only
                    },
                    pa,
                    null,
                    pb,
                    null,
                    op,
                    null_mut,
                ),
            ),
        ];
        for (what, r) in cases {
            assert_eq!(r, invalid, "{what}");
            let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message())
                .to_string_lossy()
                .into_owned();
            assert!(message.contains("vkalgo_merge_host"), "{what}: {message}");
        }
        assert_eq!((out, out_values), ([9; 5], [9; 5]), "nothing written");
        // Empty inputs with NULL pointers are fine.
        assert_eq!(
            vkalgo_merge_host(ctx, &pairs, null, null, 0, null, null, 0, null_mut, null_mut),
            ok
        );
        assert_eq!(
            vkalgo_merge_host(
                ctx,
                &keys_only,
                ka.as_ptr().cast(),
                null,
                3,
                kb.as_ptr().cast(),
                null,
                2,
                op,
                null_mut
            ),
            ok
        );
        assert_eq!(out, [1, 2, 2, 3, 5]);

        // Set operations: size query, too small, exact.
        let sa: Vec<i64> = vec![-5, 1, 1, 2, 7, 7, 7];
        let sb: Vec<i64> = vec![1, 2, 2, 7, 9];
        let sizes = [
            (VKALGO_SET_AND, vec![1i64, 2, 7]),
            (VKALGO_SET_OR, vec![-5, 1, 1, 2, 2, 7, 7, 7, 9]),
            (VKALGO_SET_ANDNOT, vec![-5, 1, 7, 7]),
            (VKALGO_SET_XOR, vec![-5, 1, 2, 7, 7, 9]),
        ];
        for (code, want) in sizes {
            let mut count = 12345usize;
            let set = |out: *mut std::ffi::c_void, cap: usize, count: *mut usize| {
                let desc = VkalgoSortedSetOpDesc {
                    key_type: VKALGO_KEY_I64,
                    op: code,
                    ..Default::default()
                };
                vkalgo_sorted_set_op_host(
                    ctx,
                    &desc,
                    sa.as_ptr().cast(),
                    7,
                    sb.as_ptr().cast(),
                    5,
                    out,
                    cap,
                    count,
                )
            };
            assert_eq!(set(null_mut, 0, &mut count), ok, "size query {code:?}");
            assert_eq!(count, want.len());
            let mut out = vec![100i64; want.len() + 1];
            count = 0;
            assert_eq!(
                set(out.as_mut_ptr().cast(), want.len() - 1, &mut count),
                invalid,
                "too small {code:?}"
            );
            assert_eq!(count, want.len(), "needed size reported");
            assert!(out.iter().all(|&x| x == 100), "nothing written when too small");
            count = 0;
            assert_eq!(set(out.as_mut_ptr().cast(), want.len(), &mut count), ok);
            assert_eq!(
                (count, &out[..want.len()], out[want.len()]),
                (want.len(), &want[..], 100)
            );
        }
        let mut count = 77usize;
        let mut out = [0u32; 8];
        let po = out.as_mut_ptr().cast();
        // A set operation on 3 and 2 elements into 8 with the arguments given.
        let set_op = |c: *mut VkalgoContext, key_type: u32, op: u32, a, an, b, o, count| {
            let desc = VkalgoSortedSetOpDesc {
                key_type: VkalgoKeyType(key_type),
                op: VkalgoSetOp(op),
                ..Default::default()
            };
            vkalgo_sorted_set_op_host(c, &desc, a, an, b, 2, o, 8, count)
        };
        let extended = VkalgoSortedSetOpDesc {
            next: (&kb as *const [u32; 2]).cast(),
            ..Default::default()
        };
        let set_cases = [
            ("unknown op", set_op(ctx, 0, 4, pa, 3, pb, po, &mut count)),
            ("unknown key type", set_op(ctx, 9, 0, pa, 3, pb, po, &mut count)),
            ("NULL a", set_op(ctx, 0, 0, null, 3, pb, po, &mut count)),
            (
                "NULL out with capacity",
                set_op(ctx, 0, 0, pa, 3, pb, null_mut, &mut count),
            ),
            ("unsorted", set_op(ctx, 0, 1, pu, 2, pb, po, &mut count)),
            ("NULL context", set_op(no_ctx, 0, 0, pa, 3, pb, po, &mut count)),
            (
                "an extension struct",
                vkalgo_sorted_set_op_host(ctx, &extended, pa, 3, pb, 2, po, 8, &mut count),
            ),
            (
                "NULL desc",
                vkalgo_sorted_set_op_host(ctx, std::ptr::null(), pa, 3, pb, 2, po, 8, &mut count),
            ),
        ];
        for (what, r) in set_cases {
            assert_eq!(r, invalid, "{what}");
        }
        assert_eq!((count, out), (77, [0; 8]), "nothing written");
        assert_eq!(
            vkalgo_sorted_set_op_host(
                ctx,
                &VkalgoSortedSetOpDesc::default(),
                ka.as_ptr().cast(),
                3,
                kb.as_ptr().cast(),
                2,
                out.as_mut_ptr().cast(),
                8,
                std::ptr::null_mut()
            ),
            invalid,
            "NULL out_count"
        );
        // Empty inputs.
        assert_eq!(
            vkalgo_sorted_set_op_host(
                ctx,
                &VkalgoSortedSetOpDesc {
                    op: VKALGO_SET_OR,
                    ..Default::default()
                },
                null,
                0,
                null,
                0,
                null_mut,
                0,
                &mut count
            ),
            ok
        );
        assert_eq!(count, 0);
        assert_eq!(vkalgo_context_validation_message_count(ctx), 0);
        vkalgo_context_destroy(ctx);
    }
}

/// The C record layer (plans, memory requirements, record into the caller's command buffer)
/// on a C context made over this test's device.
#[test]
fn c_abi_record_layer() {
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::merge::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let ctx = context();
    unsafe {
        let cctx = common::c_context_over(&ctx);
        let range = |b: &GpuBuffer, word: usize, words: usize| VkalgoBufferRange {
            buffer: VkBuffer(b.buffer().as_raw()),
            offset: word as u64 * 4,
            size: words as u64 * 4,
        };
        let none = VkalgoBufferRange {
            buffer: VkBuffer(0),
            offset: 0,
            size: 0,
        };
        let cmd_of = |cmd: vk::CommandBuffer| VkCommandBuffer(cmd.as_raw() as *mut std::ffi::c_void);

        // A merge of u32 pairs, descending, B's count indirect.
        let mut rng = Rng(101);
        let (m, n) = (1700usize, 2300usize);
        let a = sorted_run::<u32>(&mut rng, m, 100, true);
        let b = sorted_run::<u32>(&mut rng, n, 100, true);
        let av: Vec<u32> = (0..m as u32).collect();
        let bv: Vec<u32> = (0..n as u32).map(|j| j | 1 << 31).collect();
        let mut plan = std::ptr::null_mut();
        let mdesc = VkalgoMergeDesc {
            key_type: VKALGO_KEY_U32,
            value_type: VKALGO_VALUE_U32,
            descending: 1,
            max_a: m as u64,
            max_b: n as u64 + 5,
            ..Default::default()
        };
        assert_eq!(
            vkalgo_merge_plan_create(cctx, &mdesc, &mut plan),
            VkalgoResult::VkalgoSuccess
        );
        assert!(vkalgo_merge_plan_tile_size(plan) > 0);
        let mut req = VkalgoMemoryRequirements::default();
        assert_eq!(
            vkalgo_merge_plan_memory_requirements(plan, &mut req),
            VkalgoResult::VkalgoSuccess
        );
        let input = [
            a.clone(),
            av.clone(),
            b.clone(),
            vec![0; 5],
            bv.clone(),
            vec![0; 5],
            vec![n as u32],
        ]
        .concat();
        let in_buf = poisoned(&ctx, input.len(), 0, &input);
        let total = m + n + 5;
        let mut out_buf = poisoned(&ctx, 2 * total, 0, &[]);
        let scratch = GpuBuffer::new(&ctx, req.scratch.size, MemoryLocation::GpuOnly, "scratch").unwrap();
        let args = VkalgoMergeArgs {
            a_keys: range(&in_buf, 0, m),
            a_values: range(&in_buf, m, m),
            b_keys: range(&in_buf, 2 * m, n + 5),
            b_values: range(&in_buf, 2 * m + n + 5, n + 5),
            out_keys: range(&out_buf, 0, total),
            out_values: range(&out_buf, total, total),
            scratch: VkalgoBufferRange {
                buffer: VkBuffer(scratch.buffer().as_raw()),
                offset: 0,
                size: req.scratch.size,
            },
            a_count: m as u64,
            a_count_buffer: none,
            b_count: 0,
            b_count_buffer: range(&in_buf, input.len() - 1, 1),
            ..Default::default()
        };
        ctx.submit_and_wait(|cmd| {
            common::host_to_compute(&ctx, cmd);
            assert_eq!(
                vkalgo_merge_record(plan, cmd_of(cmd), &args),
                VkalgoResult::VkalgoSuccess
            );
            common::compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        let got = words(&mut out_buf);
        let (wk, wv) = reference::merge(&a, Some(&av), &b, Some(&bv), true);
        assert_eq!(&got[..m + n], &wk[..], "C record merge keys");
        assert_eq!(
            &got[total..total + m + n],
            &wv.unwrap()[..],
            "C record merge values"
        );
        assert!(got[m + n..total].iter().all(|&w| w == POISON));
        // Bad arguments: nothing recorded, a message.
        let bad = VkalgoMergeArgs {
            a_values: none,
            ..args
        };
        let extended = VkalgoMergeArgs {
            next: (&args as *const VkalgoMergeArgs).cast(),
            ..args
        };
        ctx.submit_and_wait(|cmd| {
            for (what, bad) in [("missing values", &bad), ("an extension struct", &extended)] {
                assert_eq!(
                    vkalgo_merge_record(plan, cmd_of(cmd), bad),
                    VkalgoResult::VkalgoErrorInvalidArgument,
                    "{what}"
                );
            }
            assert_eq!(
                vkalgo_merge_record(plan, VkCommandBuffer(std::ptr::null_mut()), &args),
                VkalgoResult::VkalgoErrorInvalidArgument
            );
            Ok(())
        })
        .unwrap();
        vkalgo_merge_plan_destroy(plan);

        // A set operation (i64 keys, union) with direct counts.
        let a: Vec<i64> = sorted_run::<i64>(&mut rng, 900, 50, false);
        let b: Vec<i64> = sorted_run::<i64>(&mut rng, 1300, 50, false);
        let mut splan = std::ptr::null_mut();
        assert_eq!(
            vkalgo_sorted_set_op_plan_create(
                cctx,
                &VkalgoSortedSetOpDesc {
                    key_type: VKALGO_KEY_I64,
                    op: VKALGO_SET_OR,
                    max_a: 900,
                    max_b: 1300,
                    ..Default::default()
                },
                &mut splan
            ),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(
            vkalgo_sorted_set_op_plan_memory_requirements(splan, &mut req),
            VkalgoResult::VkalgoSuccess
        );
        let words_of = |k: &[i64]| -> Vec<u32> { bytemuck::cast_slice(k).to_vec() };
        let input = [words_of(&a), words_of(&b)].concat();
        let in_buf = poisoned(&ctx, input.len(), 0, &input);
        let mut out_buf = poisoned(&ctx, 2 + 2 * 2200, 0, &[]);
        let scratch = GpuBuffer::new(&ctx, req.scratch.size, MemoryLocation::GpuOnly, "scratch").unwrap();
        let sargs = VkalgoSortedSetOpArgs {
            a: range(&in_buf, 0, 1800),
            b: range(&in_buf, 1800, 2600),
            out: range(&out_buf, 2, 2 * 2200),
            out_count: range(&out_buf, 0, 1),
            scratch: VkalgoBufferRange {
                buffer: VkBuffer(scratch.buffer().as_raw()),
                offset: 0,
                size: req.scratch.size,
            },
            a_count: 900,
            a_count_buffer: none,
            b_count: 1300,
            b_count_buffer: none,
            ..Default::default()
        };
        ctx.submit_and_wait(|cmd| {
            common::host_to_compute(&ctx, cmd);
            assert_eq!(
                vkalgo_sorted_set_op_record(splan, cmd_of(cmd), &sargs),
                VkalgoResult::VkalgoSuccess
            );
            common::compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        let got = words(&mut out_buf);
        let want = reference::set_op(SetOp::Or, &a, &b);
        assert_eq!(got[0] as usize, want.len(), "C record set count");
        assert_eq!(
            &got[2..2 + 2 * want.len()],
            &words_of(&want)[..],
            "C record set keys"
        );
        assert_eq!(
            vkalgo_sorted_set_op_plan_create(
                cctx,
                &VkalgoSortedSetOpDesc {
                    key_type: VKALGO_KEY_I64,
                    op: VkalgoSetOp(9),
                    max_a: 1,
                    max_b: 1,
                    ..Default::default()
                },
                &mut splan
            ),
            VkalgoResult::VkalgoErrorInvalidArgument,
            "unknown op"
        );
        vkalgo_sorted_set_op_plan_destroy(splan);
        vkalgo_context_destroy(cctx);
    }
    assert_no_validation_messages(&ctx);
}

/// The merge sort and the segmented merge through the C ABI: host calls (u64 keys with u32
/// values, f32 keys descending in runs) against the CPU's stable sort, bad offsets and an
/// unsorted run refused with the arrays unchanged, and the record layer on the test's buffers
/// (plan, memory requirements, record, where the result is).
#[test]
fn c_abi_merge_sort_and_segmented_merge() {
    use std::ptr::{null, null_mut};
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::merge_sort::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let ctx = context();
    let mut rng = Rng(77);
    unsafe {
        let mut host = null_mut();
        assert_eq!(
            vkalgo_context_create_default(&mut host),
            VkalgoResult::VkalgoSuccess
        );
        let desc = |key_type, value_type, descending, max_count, max_runs| VkalgoMergeSortDesc {
            next: null(),
            key_type,
            value_type,
            descending,
            max_count,
            max_runs,
        };
        // u64 keys of few values (stability shows) with their indices.
        let n = 3000usize;
        let mut keys: Vec<u64> = (0..n).map(|_| rng.next_u64() % 50).collect();
        let mut values: Vec<u32> = (0..n as u32).collect();
        let (want_keys, want_values) = stable_by_key(&keys, &values);
        let d = desc(VKALGO_KEY_U64, VKALGO_VALUE_U32, 0, n as u64, 0);
        assert_eq!(
            vkalgo_merge_sort_host(host, &d, keys.as_mut_ptr().cast(), values.as_mut_ptr().cast(), n),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!((keys, values), (want_keys, want_values));

        // f32 keys descending, in runs of uneven lengths (one empty), keys only.
        let lengths = [700usize, 0, 1, 1300, 999];
        let mut runs_keys: Vec<f32> = Vec::new();
        let mut offsets = vec![0u32];
        for &len in &lengths {
            runs_keys.extend(sorted_run::<f32>(&mut rng, len, 40, true));
            offsets.push(runs_keys.len() as u32);
        }
        let total = runs_keys.len();
        let mut want = runs_keys.clone();
        want.sort_by(|a, b| b.total_cmp(a)); // stable, descending in totalOrder
        let d = desc(VKALGO_KEY_F32, VKALGO_VALUE_NONE, 1, total as u64, 0);
        let mut merged = runs_keys.clone();
        assert_eq!(
            vkalgo_merge_sort_segmented_host(
                host,
                &d,
                merged.as_mut_ptr().cast(),
                null_mut(),
                total,
                offsets.as_ptr(),
                lengths.len()
            ),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(
            merged.iter().map(|k| k.to_bits()).collect::<Vec<_>>(),
            want.iter().map(|k| k.to_bits()).collect::<Vec<_>>()
        );
        // Bad offsets, an unsorted run, values without a value type, a non-NULL next: refused,
        // the keys unchanged.
        let invalid = VkalgoResult::VkalgoErrorInvalidArgument;
        let mut bad_offsets = offsets.clone();
        bad_offsets[2] = bad_offsets[3] + 1;
        let mut unsorted = runs_keys.clone();
        unsorted.swap(0, 699);
        let mut copy = unsorted.clone();
        for (keys, offs, what) in [
            (&mut copy, &bad_offsets, "decreasing offsets"),
            (&mut unsorted.clone(), &offsets, "unsorted run"),
        ] {
            let before = keys.clone();
            assert_eq!(
                vkalgo_merge_sort_segmented_host(
                    host,
                    &d,
                    keys.as_mut_ptr().cast(),
                    null_mut(),
                    total,
                    offs.as_ptr(),
                    lengths.len()
                ),
                invalid,
                "{what}"
            );
            assert_eq!(
                keys.iter().map(|k| k.to_bits()).collect::<Vec<_>>(),
                before.iter().map(|k| k.to_bits()).collect::<Vec<_>>()
            );
        }
        let mut dummy = [0u32; 4];
        assert_eq!(
            vkalgo_merge_sort_host(
                host,
                &d,
                merged.as_mut_ptr().cast(),
                dummy.as_mut_ptr().cast(),
                total
            ),
            invalid,
            "values with VKALGO_VALUE_NONE"
        );
        let with_next = VkalgoMergeSortDesc {
            next: &d as *const _ as *const std::ffi::c_void,
            ..d
        };
        assert_eq!(
            vkalgo_merge_sort_host(host, &with_next, merged.as_mut_ptr().cast(), null_mut(), total),
            invalid
        );
        vkalgo_context_destroy(host);

        // The record layer: u32 -> u32 pairs sorted in the test's buffers.
        let cctx = common::c_context_over(&ctx);
        let n = 5000usize;
        let keys: Vec<u32> = (0..n).map(|_| rng.next_u32() % 1000).collect();
        let values: Vec<u32> = (0..n as u32).collect();
        let (want_keys, want_values) = stable_by_key(&keys, &values);
        let mut plan = null_mut();
        let d = desc(VKALGO_KEY_U32, VKALGO_VALUE_U32, 0, n as u64, 4);
        assert_eq!(
            vkalgo_merge_sort_plan_create(cctx, &d, &mut plan),
            VkalgoResult::VkalgoSuccess
        );
        let mut req = VkalgoMemoryRequirements::default();
        assert_eq!(
            vkalgo_merge_sort_plan_memory_requirements(plan, &mut req),
            VkalgoResult::VkalgoSuccess
        );
        let mut data = poisoned(&ctx, 4 * n, 0, &[keys.clone(), values.clone()].concat());
        let scratch =
            GpuBuffer::new(&ctx, req.scratch.size.max(16), MemoryLocation::GpuOnly, "scratch").unwrap();
        let range = |b: &GpuBuffer, word: usize, words: usize| VkalgoBufferRange {
            buffer: VkBuffer(b.buffer().as_raw()),
            offset: word as u64 * 4,
            size: words as u64 * 4,
        };
        let none = VkalgoBufferRange {
            buffer: VkBuffer(0),
            offset: 0,
            size: 0,
        };
        let args = VkalgoMergeSortArgs {
            next: null(),
            keys: range(&data, 0, n),
            values: range(&data, n, n),
            keys_alt: range(&data, 2 * n, n),
            values_alt: range(&data, 3 * n, n),
            scratch: range(&scratch, 0, (req.scratch.size.max(16) / 4) as usize),
            count: n as u64,
            offsets: none,
            runs: 0,
            result_in_alternate: null_mut(),
        };
        let mut alternate = 7u32;
        ctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut std::ffi::c_void);
            host_to_compute(&ctx, cmd);
            let reporting = VkalgoMergeSortArgs {
                result_in_alternate: &mut alternate,
                ..args
            };
            assert_eq!(
                vkalgo_merge_sort_record(plan, c, &reporting),
                VkalgoResult::VkalgoSuccess
            );
            let too_many = VkalgoMergeSortArgs {
                count: n as u64 + 1,
                ..args
            };
            let extended = VkalgoMergeSortArgs {
                next: (&args as *const VkalgoMergeSortArgs).cast(),
                ..args
            };
            assert_eq!(vkalgo_merge_sort_record(plan, c, &too_many), invalid);
            assert_eq!(vkalgo_merge_sort_record(plan, c, &extended), invalid);
            assert_eq!(vkalgo_merge_sort_record(plan, c, null()), invalid);
            common::compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        assert!(alternate <= 1);
        let all = words(&mut data);
        let at = if alternate == 1 { 2 * n } else { 0 };
        assert_eq!(&all[at..at + n], &want_keys[..]);
        assert_eq!(&all[at + n..at + 2 * n], &want_values[..]);
        vkalgo_merge_sort_plan_destroy(plan);
        vkalgo_merge_sort_plan_destroy(null_mut());
        vkalgo_context_destroy(cctx);
    }
    assert_no_validation_messages(&ctx);
}

/// The CPU's stable ascending sort of `keys` with their `values`.
fn stable_by_key<K: Copy + Ord>(keys: &[K], values: &[u32]) -> (Vec<K>, Vec<u32>) {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&i| keys[i]); // stable
    (
        order.iter().map(|&i| keys[i]).collect(),
        order.iter().map(|&i| values[i]).collect(),
    )
}

/// Unsorted input gives an unspecified result, but inside the output: with one lane per
/// partition boundary (many tiles), a boundary two workgroups search apart may get two
/// co-ranks and their tiles overlap by an element; the writes and the count stay within
/// count(A) + count(B) (a word past the output changed, and the count was a + b + 1, before).
#[test]
fn set_ops_on_unsorted_input_stay_inside_the_output() {
    let ctx = context();
    let (na, nb) = (600_000usize, 600_000usize);
    let mut rng = Rng(1007);
    let a: Vec<u32> = (0..na)
        .map(|i| {
            if rng.next_u32() % 128 == 0 {
                7
            } else {
                2 * ((i as u32 / 3) % 50)
            }
        })
        .collect();
    let b: Vec<u32> = (0..nb)
        .map(|i| {
            if rng.next_u32() % 128 == 0 {
                7
            } else {
                2 * (((nb - i) as u32 / 5) % 50) + 1
            }
        })
        .collect();
    let mut paths = vec![SetOpPath::CountScanWrite];
    if ctx.profile().lookback {
        paths.push(SetOpPath::Lookback);
    }
    for op in SetOp::ALL {
        for &path in &paths {
            let desc = SetOpDesc {
                path,
                // 32 x 1 tiles: 37500 of them, one lane per partition boundary.
                tuning: Some(MergeTuning {
                    workgroup_size: 32,
                    items_per_thread: 1,
                    lookback_spins: 0,
                }),
                ..SetOpDesc::new(KeyType::U32, op, na as u64, nb as u64)
            };
            let plan = ctx.set_op_plan(&desc).expect("plan");
            let req = plan.memory_requirements();
            let input = [a.clone(), b.clone()].concat();
            let in_buf = poisoned(&ctx, input.len(), 0, &input);
            // The count and 7 words of POISON, the output, then 4096 words of POISON.
            let mut out_buf = poisoned(&ctx, 8 + na + nb + 4096, 0, &[]);
            let scratch =
                GpuBuffer::new(&ctx, req.scratch.size.max(16), MemoryLocation::GpuOnly, "scratch").unwrap();
            let args = SetOpArgs {
                a: in_buf.sub_range(0, (na * 4) as u64),
                b: in_buf.sub_range((na * 4) as u64, (nb * 4) as u64),
                out: out_buf.sub_range(32, ((na + nb) * 4) as u64),
                out_count: out_buf.sub_range(0, 4),
                scratch: scratch.sub_range(0, req.scratch.size.max(16)),
                a_count: ElementCount::Direct(na as u64),
                b_count: ElementCount::Direct(nb as u64),
            };
            ctx.submit_and_wait(|cmd| unsafe {
                common::host_to_compute(&ctx, cmd);
                plan.record(cmd, &args)?;
                common::compute_to_host(&ctx, cmd);
                Ok(())
            })
            .unwrap();
            let got = words(&mut out_buf);
            assert!(
                got[0] as usize <= na + nb,
                "{op:?} {path:?}: count {} > a + b",
                got[0]
            );
            assert!(
                got[1..8].iter().all(|&w| w == POISON),
                "{op:?} {path:?}: words after the count"
            );
            let past = got[8 + na + nb..].iter().filter(|&&w| w != POISON).count();
            assert_eq!(past, 0, "{op:?} {path:?}: {past} words past the output changed");
        }
    }
    assert_no_validation_messages(&ctx);
}
