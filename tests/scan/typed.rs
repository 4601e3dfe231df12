//! Scans of the sort's six key types with SUM, MIN and MAX, exact against the CPU reference
//! (`vkalgo::scan::reference::scan`): every type x operation x inclusive/exclusive on every
//! path, counts around the tiles,
//! the typed look-back's fallback and kept-zeroed scratch, more tiles than partitions, indirect counts, in place, offsets, special
//! keys (NaNs, -0.0, extremes), the identities, the host layer, bad input, and the C ABI.
//!
//! Float sums are tested on multiples of 0.75 (every partial sum exact, so any association
//! order gives the reference's result); minima and maxima on the type's special values.

use super::*;
use vkalgo::{KeyType, ReduceOp, ScanTuning, SortKey};

/// Tiles of 256 elements (64 invocations x 1 vector x 4): many tiles from few elements.
const SMALL_TILES: ScanTuning = ScanTuning {
    workgroup_size: 64,
    vecs_per_thread: 1,
    lookback_spins: 0,
};

/// Keys for a scan with `combine`: float sums take multiples of 0.75 in [-1.5, 1.5] (and some
/// -0.0); everything else the uniform words with the type's special values spread in.
pub(super) fn keys_for<K: TestKey>(n: usize, combine: ReduceOp, seed: u64) -> Vec<K> {
    let mut rng = Rng(seed);
    let float = matches!(K::KEY_TYPE, KeyType::F32 | KeyType::F64);
    if float && combine == ReduceOp::Sum {
        return (0..n)
            .map(|i| {
                if i % 101 == 7 {
                    K::from_bits64(if K::KEY_TYPE == KeyType::F32 {
                        0x8000_0000
                    } else {
                        1 << 63
                    })
                } else {
                    K::from_small(6 + (rng.next_u32() % 5) as u64)
                }
            })
            .collect();
    }
    keys_with_specials(n, &DISTRIBUTIONS[0], &mut rng)
}

/// The keys' bits as u32 words (keys compare by bits: NaNs and signed zeros exactly).
pub(super) fn words<K: SortKey>(keys: &[K]) -> &[u32] {
    bytemuck::cast_slice(keys)
}

/// Elements of 32 bits per key.
pub(super) fn key_words<K: SortKey>() -> usize {
    std::mem::size_of::<K>() / 4
}

/// Scans `data[..count]` with `plan` through the record layer (`data` holds the plan's
/// max_count keys) and compares with the reference; the output past `count` must keep its
/// poison.
pub(super) fn check_record<K: TestKey>(
    ctx: &vkalgo::Context,
    plan: &vkalgo::ScanPlan,
    data: &[K],
    count: u64,
    layout: Layout,
    what: &str,
) {
    let desc = plan.desc();
    let got = record_scan(ctx, plan, words(data), count, layout).unwrap();
    let expected = reference::scan(&data[..count as usize], desc.op, desc.combine);
    let end = count as usize * key_words::<K>();
    if got[..end] != *words(&expected) {
        let first = got[..end]
            .iter()
            .zip(words(&expected))
            .position(|(a, b)| a != b)
            .unwrap()
            / key_words::<K>();
        panic!(
            "{what}: {:?} {:?} {:?} {:?} n={count} {layout:?}: first mismatch at element {first}: got {:?} expected {:?}",
            K::KEY_TYPE,
            desc.combine,
            desc.op,
            plan.path(),
            &got[first * key_words::<K>()..(first + 1) * key_words::<K>()],
            expected[first]
        );
    }
    assert!(
        got[end..].iter().all(|&w| w == POISON),
        "{what}: {:?} {:?} wrote past count {count}",
        K::KEY_TYPE,
        desc.combine
    );
}

pub(super) fn typed_plan(
    ctx: &vkalgo::Context,
    key_type: KeyType,
    combine: ReduceOp,
    op: ScanOp,
    path: ScanPath,
    max_count: u64,
    tuning: Option<ScanTuning>,
) -> vkalgo::ScanPlan {
    let desc = ScanDesc {
        tuning,
        ..ScanDesc::typed(key_type, combine, op, max_count).with_path(path)
    };
    ctx.scan_plan(&desc).unwrap()
}

/// Every type x operation x inclusive/exclusive on every path, over counts around the
/// 256-element tiles.
fn matrix_of<K: TestKey>() {
    let ctx = context();
    let counts = [0u64, 1, 255, 256, 257, 5 * 256 + 3];
    let max = *counts.iter().max().unwrap();
    for (c, combine) in ReduceOp::ALL.into_iter().enumerate() {
        let data: Vec<K> = keys_for(max as usize, combine, 1000 + c as u64);
        for op in [ScanOp::Exclusive, ScanOp::Inclusive] {
            for path in [ScanPath::ReduceThenScan, ScanPath::Small, ScanPath::Lookback] {
                if path == ScanPath::Lookback && !ctx.profile().int64_atomics {
                    continue; // the look-back needs 64-bit atomics
                }
                let plan = typed_plan(&ctx, K::KEY_TYPE, combine, op, path, max, Some(SMALL_TILES));
                assert_eq!(plan.path(), path, "{:?} {combine:?}", K::KEY_TYPE);
                for &n in &counts {
                    check_record(&ctx, &plan, &data, n, Layout::default(), "matrix");
                }
            }
        }
        // The default tuning under Auto (the small path up to its limit on GPUs).
        let plan = typed_plan(
            &ctx,
            K::KEY_TYPE,
            combine,
            ScanOp::Inclusive,
            ScanPath::Auto,
            max,
            None,
        );
        check_record(&ctx, &plan, &data, max, Layout::default(), "auto");
    }
}

#[test]
fn matrix_u32() {
    matrix_of::<u32>();
}

#[test]
fn matrix_i32() {
    matrix_of::<i32>();
}

#[test]
fn matrix_f32() {
    matrix_of::<f32>();
}

#[test]
fn matrix_u64() {
    matrix_of::<u64>();
}

#[test]
fn matrix_i64() {
    matrix_of::<i64>();
}

#[test]
fn matrix_f64() {
    matrix_of::<f64>();
}

/// The typed look-back: with one spin allowed and in the test mode (every
/// tile computes its predecessor's aggregate from the input), over counts whose tiles read
/// their window with one subgroup and with the whole workgroup (33 to 512 tiles), and a plan
/// that keeps its scratch zeroed over calls of several sizes.
#[test]
fn lookback_fallback_and_kept_zeroed_scratch() {
    use vkalgo::scan::LOOKBACK_FALLBACKS_OFFSET;
    use vkalgo::{ElementCount, GpuBuffer, MemoryLocation, ScanArgs};
    let ctx = context_with_lookback(true);
    if !ctx.profile().int64_atomics {
        return; // the look-back needs 64-bit atomics
    }
    fn run<K: TestKey>(ctx: &vkalgo::Context, combine: ReduceOp, op: ScanOp) {
        for (n, spins) in [(100_003usize, 1u32), (100_003, u32::MAX), (300_001, u32::MAX)] {
            let data: Vec<K> = keys_for(n, combine, n as u64 + spins as u64);
            let tuning = ScanTuning {
                lookback_spins: spins,
                ..SMALL_TILES
            };
            let plan = typed_plan(
                ctx,
                K::KEY_TYPE,
                combine,
                op,
                ScanPath::Lookback,
                n as u64,
                Some(tuning),
            );
            let (got, fallbacks) =
                record_scan_counted(ctx, &plan, words(&data), n as u64, Layout::default()).unwrap();
            let expected = reference::scan(&data, op, combine);
            assert!(
                got == words(&expected),
                "{:?} {combine:?} n={n} spins={spins}",
                K::KEY_TYPE
            );
            if spins == u32::MAX {
                let tiles = (n as u64).div_ceil(plan.tile_size());
                assert!(
                    fallbacks as u64 >= tiles - 1,
                    "test mode: {fallbacks} fallbacks, {tiles} tiles"
                );
            }
        }
        // Kept zeroed: no clear recorded, the scratch zeroed again after every call.
        let max = 70_000u64;
        let plan = ctx
            .scan_plan(&ScanDesc {
                keep_scratch_zeroed: true,
                tuning: Some(SMALL_TILES),
                ..ScanDesc::typed(K::KEY_TYPE, combine, op, max).with_path(ScanPath::Lookback)
            })
            .unwrap();
        let mut scratch = GpuBuffer::new(
            ctx,
            plan.memory_requirements().scratch.size,
            MemoryLocation::GpuToCpu,
            "s",
        )
        .unwrap();
        scratch.mapped().unwrap().fill(0);
        let kb = std::mem::size_of::<K>();
        let mut input = GpuBuffer::new(ctx, max * kb as u64, MemoryLocation::CpuToGpu, "in").unwrap();
        let mut output = GpuBuffer::new(ctx, max * kb as u64, MemoryLocation::GpuToCpu, "out").unwrap();
        for (round, n) in [70_000usize, 5, 20_001, 70_000].into_iter().enumerate() {
            let data: Vec<K> = keys_for(n, combine, round as u64);
            input.mapped().unwrap()[..n * kb].copy_from_slice(bytemuck::cast_slice(&data));
            let args = ScanArgs {
                input: input.sub_range(0, (n * kb) as u64),
                output: output.sub_range(0, (n * kb) as u64),
                scratch: scratch.range(),
                count: ElementCount::Direct(n as u64),
            };
            ctx.submit_and_wait(|cmd| unsafe {
                host_to_compute(ctx, cmd);
                plan.record(cmd, &args)?;
                compute_to_host(ctx, cmd);
                Ok(())
            })
            .unwrap();
            let got = &output.mapped().unwrap()[..n * kb];
            let expected = reference::scan(&data, op, combine);
            assert!(
                got == bytemuck::cast_slice::<K, u8>(&expected),
                "kept zeroed round {round}"
            );
            let scratch_words: &[u32] = bytemuck::cast_slice(scratch.mapped().unwrap());
            let fallback_word = (LOOKBACK_FALLBACKS_OFFSET / 4) as usize;
            let dirty = scratch_words
                .iter()
                .enumerate()
                .find(|&(i, &w)| i != fallback_word && w != 0);
            assert!(
                dirty.is_none(),
                "round {round}: scratch word {dirty:?} left non-zero"
            );
        }
    }
    run::<f32>(&ctx, ReduceOp::Sum, ScanOp::Inclusive);
    run::<i32>(&ctx, ReduceOp::Min, ScanOp::Exclusive);
    run::<u32>(&ctx, ReduceOp::Max, ScanOp::Inclusive);
    run::<f32>(&ctx, ReduceOp::Max, ScanOp::Exclusive);
    run::<u64>(&ctx, ReduceOp::Sum, ScanOp::Exclusive);
    run::<i64>(&ctx, ReduceOp::Min, ScanOp::Inclusive);
    run::<f64>(&ctx, ReduceOp::Sum, ScanOp::Inclusive);
    run::<f64>(&ctx, ReduceOp::Max, ScanOp::Exclusive);
}

/// More tiles than partitions (4096): partitions of two tiles, and the partials' scan over
/// several tiles; one combination per element width and kind.
#[test]
fn more_tiles_than_partitions() {
    let n = 4097 * 256 + 17;
    let ctx = context();
    fn run<K: TestKey>(ctx: &vkalgo::Context, combine: ReduceOp, op: ScanOp, n: usize) {
        let data: Vec<K> = keys_for(n, combine, 7 + n as u64);
        let path = ScanPath::ReduceThenScan;
        let plan = typed_plan(ctx, K::KEY_TYPE, combine, op, path, n as u64, Some(SMALL_TILES));
        check_record(ctx, &plan, &data, n as u64, Layout::default(), "partitions");
    }
    run::<u64>(&ctx, ReduceOp::Sum, ScanOp::Exclusive, n);
    run::<f32>(&ctx, ReduceOp::Min, ScanOp::Inclusive, n);
    run::<i64>(&ctx, ReduceOp::Max, ScanOp::Exclusive, n);
    run::<f64>(&ctx, ReduceOp::Sum, ScanOp::Inclusive, n);
}

/// Indirect counts below the maximum (nothing written past them, 0 included), in place (which
/// a look-back plan records as reduce-then-scan), and buffer offsets, on every path.
#[test]
fn indirect_in_place_and_offsets() {
    let ctx = context();
    fn run<K: TestKey>(ctx: &vkalgo::Context, combine: ReduceOp) {
        let max = 3000u64;
        let data: Vec<K> = keys_for(max as usize, combine, 31);
        let lookback = ctx.profile().int64_atomics;
        let paths = [ScanPath::ReduceThenScan, ScanPath::Small, ScanPath::Lookback];
        for path in paths.into_iter().filter(|&p| p != ScanPath::Lookback || lookback) {
            let plan = typed_plan(
                ctx,
                K::KEY_TYPE,
                combine,
                ScanOp::Exclusive,
                path,
                max,
                Some(SMALL_TILES),
            );
            for count in [0u64, 1, 256, 1000, max] {
                let layout = Layout {
                    indirect: true,
                    output_offset: 16,
                    ..Default::default()
                };
                check_record(ctx, &plan, &data, count, layout, "indirect");
            }
            for (input_offset, output_offset, in_place) in [(8, 24, false), (64, 0, true), (8, 0, true)] {
                let layout = Layout {
                    input_offset,
                    output_offset,
                    in_place,
                    ..Default::default()
                };
                check_record(ctx, &plan, &data, max, layout, "offsets / in place");
            }
        }
    }
    run::<i32>(&ctx, ReduceOp::Min);
    run::<f32>(&ctx, ReduceOp::Sum);
    run::<u64>(&ctx, ReduceOp::Max);
    run::<f64>(&ctx, ReduceOp::Min);
}

/// An exclusive scan's first element is the identity, as the reduce documents it.
#[test]
fn exclusive_scans_start_from_the_identity() {
    let ctx = context();
    fn first_of<K: TestKey>(ctx: &vkalgo::Context, combine: ReduceOp) -> Vec<u32> {
        let data: Vec<K> = keys_for(3, combine, 5);
        let mut out = vec![K::zeroed(); 3];
        ctx.scan(&data, &mut out, ScanOp::Exclusive, combine).unwrap();
        words(&out[..1]).to_vec()
    }
    use ReduceOp::*;
    assert_eq!(first_of::<u32>(&ctx, Min), [0xFFFF_FFFF]);
    assert_eq!(first_of::<u32>(&ctx, Max), [0]);
    assert_eq!(first_of::<i32>(&ctx, Min), [0x7FFF_FFFF]);
    assert_eq!(first_of::<i32>(&ctx, Max), [0x8000_0000]);
    assert_eq!(first_of::<f32>(&ctx, Min), [0x7FFF_FFFF]);
    assert_eq!(first_of::<f32>(&ctx, Max), [0xFFFF_FFFF]);
    assert_eq!(first_of::<f32>(&ctx, Sum), [0]);
    assert_eq!(first_of::<u64>(&ctx, Min), [u32::MAX; 2]);
    assert_eq!(first_of::<i64>(&ctx, Min), [u32::MAX, 0x7FFF_FFFF]);
    assert_eq!(first_of::<i64>(&ctx, Max), [0, 0x8000_0000]);
    assert_eq!(first_of::<f64>(&ctx, Min), [u32::MAX, 0x7FFF_FFFF]);
    assert_eq!(first_of::<f64>(&ctx, Max), [u32::MAX; 2]);
    assert_eq!(first_of::<f64>(&ctx, Sum), [0, 0]);
    assert_eq!(first_of::<i64>(&ctx, Sum), [0, 0]);
}

/// Minima and maxima in totalOrder: -0.0 below +0.0, NaNs by their bits.
#[test]
fn float_order_is_total() {
    let ctx = context();
    let keys = [0.0f32, -0.0, 1.0, f32::NAN, -f32::NAN, f32::NEG_INFINITY];
    let mut out = [0f32; 6];
    ctx.scan(&keys, &mut out, ScanOp::Inclusive, ReduceOp::Min)
        .unwrap();
    let bits: Vec<u32> = out.iter().map(|f| f.to_bits()).collect();
    let neg_nan = (-f32::NAN).to_bits();
    assert_eq!(bits, [0, 0x8000_0000, 0x8000_0000, 0x8000_0000, neg_nan, neg_nan]);
    ctx.scan(&keys, &mut out, ScanOp::Inclusive, ReduceOp::Max)
        .unwrap();
    let bits: Vec<u32> = out.iter().map(|f| f.to_bits()).collect();
    let nan = f32::NAN.to_bits();
    assert_eq!(bits, [0, 0, 1f32.to_bits(), nan, nan, nan]);
}

/// The host layer: every type and operation, the paths, in place, count 0, mismatched lengths.
#[test]
fn host_calls() {
    let ctx = context();
    fn run<K: TestKey>(ctx: &vkalgo::Context) {
        for combine in ReduceOp::ALL {
            let data: Vec<K> = keys_for(1234, combine, 99);
            for (op, path) in [
                (ScanOp::Inclusive, ScanPath::Auto),
                (ScanOp::Exclusive, ScanPath::ReduceThenScan),
            ] {
                let mut out = vec![K::zeroed(); data.len()];
                ctx.scan_with_path(&data, &mut out, op, combine, path).unwrap();
                assert!(
                    words(&out) == words(&reference::scan(&data, op, combine)),
                    "{:?} {combine:?} {op:?} {path:?}",
                    K::KEY_TYPE
                );
            }
            let mut in_place = data.clone();
            ctx.scan_in_place(&mut in_place, ScanOp::Exclusive, combine)
                .unwrap();
            assert!(words(&in_place) == words(&reference::scan(&data, ScanOp::Exclusive, combine)));
            ctx.scan::<K>(&[], &mut [], ScanOp::Inclusive, combine).unwrap();
            let mut short = vec![K::zeroed(); 2];
            assert!(matches!(
                ctx.scan(&data[..3], &mut short, ScanOp::Inclusive, combine),
                Err(vkalgo::Error::InvalidArgument(_))
            ));
        }
    }
    run::<u32>(&ctx);
    run::<i32>(&ctx);
    run::<f32>(&ctx);
    run::<u64>(&ctx);
    run::<i64>(&ctx);
    run::<f64>(&ctx);
}

/// The record layer refuses ranges not aligned to the element and too short for it.
#[test]
fn wide_elements_need_their_alignment_and_size() {
    use vkalgo::{ElementCount, GpuBuffer, MemoryLocation, ScanArgs};
    let ctx = context();
    let plan = typed_plan(
        &ctx,
        KeyType::U64,
        ReduceOp::Sum,
        ScanOp::Inclusive,
        ScanPath::Auto,
        100,
        None,
    );
    let buf = GpuBuffer::new(&ctx, 4096, MemoryLocation::CpuToGpu, "test").unwrap();
    let scratch = GpuBuffer::new(
        &ctx,
        plan.memory_requirements().scratch.size,
        MemoryLocation::GpuOnly,
        "s",
    )
    .unwrap();
    for (input, output) in [
        (buf.sub_range(4, 800), buf.sub_range(1024, 800)),
        (buf.sub_range(0, 800), buf.sub_range(1028, 800)),
        (buf.sub_range(0, 796), buf.sub_range(1024, 800)),
    ] {
        let args = ScanArgs {
            input,
            output,
            scratch: scratch.range(),
            count: ElementCount::Direct(100),
        };
        let r = ctx.submit_and_wait(|cmd| unsafe { plan.record(cmd, &args) });
        assert!(matches!(r, Err(vkalgo::Error::InvalidArgument(_))), "{r:?}");
    }
}

/// A forced small path on a CPU driver takes the typed kernel's limit (128 tiles) and refuses
/// one element more; at the limit it stays exact (the driver's loop cap not reached), for the
/// widest per-element work: 64-bit minima and f64 sums. Other devices: any count.
#[test]
fn small_path_up_to_its_cpu_limit() {
    let ctx = context();
    let tile = typed_plan(
        &ctx,
        KeyType::U64,
        ReduceOp::Min,
        ScanOp::Inclusive,
        ScanPath::Small,
        1,
        None,
    )
    .tile_size();
    let n = 128 * tile;
    let cpu = ctx.profile().device_type == vkalgo::DeviceType::Cpu;
    let over = ctx.scan_plan(
        &ScanDesc::typed(KeyType::U64, ReduceOp::Min, ScanOp::Inclusive, n + 1).with_path(ScanPath::Small),
    );
    assert_eq!(over.is_err(), cpu, "{over:?}");
    fn run<K: TestKey>(ctx: &vkalgo::Context, combine: ReduceOp, n: u64) {
        let data: Vec<K> = keys_for(n as usize, combine, 77);
        let plan = typed_plan(
            ctx,
            K::KEY_TYPE,
            combine,
            ScanOp::Inclusive,
            ScanPath::Small,
            n,
            None,
        );
        check_record(ctx, &plan, &data, n, Layout::default(), "small path limit");
    }
    run::<u64>(&ctx, ReduceOp::Min, n);
    run::<f64>(&ctx, ReduceOp::Sum, n);
}
