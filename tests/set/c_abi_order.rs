//! Order statistics through the C ABI: `vkalgo_set_minimum` / `_maximum`,
//! `vkalgo_set_rank_host` / `_select_host` and the record calls `vkalgo_set_record_rank` /
//! `_select` / `_min_max`, exact against the sorted model; refused input writes nothing.

use super::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};
use vkalgo::ash::vk::Handle;
use vkalgo_ffi::set::*;
use vkalgo_ffi::set_order::*;
use vkalgo_ffi::set_record::vkalgo_set_record_barrier;
use vkalgo_ffi::types::*;
use vkalgo_ffi::*;

/// A set of the C context `cctx` holding `values`.
unsafe fn c_set(cctx: *mut VkalgoContext, values: &[u32]) -> *mut VkalgoSet {
    let mut s = null_mut();
    assert_eq!(vkalgo_set_create(cctx, &VkalgoSetDesc::default(), &mut s), OK);
    assert_eq!(vkalgo_set_insert_host(s, values.as_ptr(), values.len()), OK);
    s
}

/// Minimum, maximum, ranks and selects of the C set `s` against `sorted`, and a select of the
/// cardinality refused with the output untouched.
unsafe fn check_c_order(s: *const VkalgoSet, sorted: &[u32], rng: &mut Rng, what: &str) {
    let (mut lo, mut hi) = (POISON, POISON);
    let want = |r: VkalgoResult| if sorted.is_empty() { INVALID } else { r };
    assert_eq!(vkalgo_set_minimum(s, &mut lo), want(OK), "{what}: minimum");
    assert_eq!(vkalgo_set_maximum(s, &mut hi), want(OK), "{what}: maximum");
    assert_eq!(lo, sorted.first().copied().unwrap_or(POISON), "{what}: minimum");
    assert_eq!(hi, sorted.last().copied().unwrap_or(POISON), "{what}: maximum");
    let mut queries: Vec<u32> = (0..500).map(|_| rng.next_u32()).collect();
    queries.extend([0, u32::MAX, 65535, 65536]);
    if !sorted.is_empty() {
        queries.extend((0..500).map(|_| sorted[rng.next_u32() as usize % sorted.len()]));
    }
    let mut ranks = vec![u64::MAX; queries.len()];
    assert_eq!(
        vkalgo_set_rank_host(s, queries.as_ptr(), queries.len(), ranks.as_mut_ptr()),
        OK
    );
    for (q, r) in queries.iter().zip(&ranks) {
        assert_eq!(
            *r,
            sorted.partition_point(|v| v <= q) as u64,
            "{what}: rank of {q}"
        );
    }
    let card = sorted.len() as u64;
    let picks: Vec<u64> = (0..card.min(700)).map(|_| rng.next_u64() % card).collect();
    let mut values = vec![POISON; picks.len()];
    assert_eq!(
        vkalgo_set_select_host(s, picks.as_ptr(), picks.len(), values.as_mut_ptr()),
        OK
    );
    for (k, v) in picks.iter().zip(&values) {
        assert_eq!(*v, sorted[*k as usize], "{what}: select {k}");
    }
    let bad = [0, card, 0];
    let mut out = [POISON; 3];
    assert_eq!(
        vkalgo_set_select_host(s, bad.as_ptr(), 3, out.as_mut_ptr()),
        INVALID
    );
    assert_eq!(out, [POISON; 3], "{what}: a refused select wrote");
}

/// The host calls on an empty set, one value, the ends, every chunk kind (flat, run chunks,
/// packed) and the full set; then NULL sets, outputs and arrays (count > 0), which write
/// nothing, and NULL arrays with count 0, which succeed.
#[test]
fn order_c_abi_host() {
    let ctx = context();
    let mut rng = Rng(0xc0dd);
    unsafe {
        let cctx = c_context_with_queue(&ctx);
        let mut values = every_kind_values(&mut rng);
        values.extend([0, u32::MAX, 7 << 28]);
        let sorted: Vec<u32> = model_of(&values).into_iter().collect();
        for (what, v) in [("empty", vec![]), ("zero", vec![0]), ("ends", vec![0, u32::MAX])] {
            let s = c_set(cctx, &v);
            check_c_order(s, &v, &mut rng, what);
            vkalgo_set_destroy(s);
        }
        let s = c_set(cctx, &values);
        check_c_order(s, &sorted, &mut rng, "every kind");
        assert_eq!(vkalgo_set_run_optimize_host(s), OK);
        check_c_order(s, &sorted, &mut rng, "every kind, runs");
        assert_eq!(vkalgo_set_pack_host(s), OK);
        check_c_order(s, &sorted, &mut rng, "every kind, packed");
        let full = c_set(cctx, &[]);
        assert_eq!(vkalgo_set_insert_range_host(full, 0, 1 << 32), OK);
        let mut r = [0u64; 2];
        assert_eq!(
            vkalgo_set_rank_host(full, [u32::MAX, 0].as_ptr(), 2, r.as_mut_ptr()),
            OK
        );
        assert_eq!(r, [1 << 32, 1]);
        let mut v = [0u32; 2];
        assert_eq!(
            vkalgo_set_select_host(full, [(1 << 32) - 1, 5].as_ptr(), 2, v.as_mut_ptr()),
            OK
        );
        assert_eq!(v, [u32::MAX, 5]);
        assert_eq!(
            vkalgo_set_select_host(full, [1 << 32].as_ptr(), 1, v.as_mut_ptr()),
            INVALID
        );
        assert_eq!(v, [u32::MAX, 5]);

        // Bad input: INVALID, nothing written.
        let mut out = POISON;
        assert_eq!(vkalgo_set_minimum(null(), &mut out), INVALID);
        assert_eq!(vkalgo_set_maximum(null(), &mut out), INVALID);
        assert_eq!(out, POISON);
        assert_eq!(vkalgo_set_minimum(s, null_mut()), INVALID);
        assert_eq!(vkalgo_set_maximum(s, null_mut()), INVALID);
        let q = [1u32, 2, 3];
        let mut ranks = [u64::MAX; 3];
        assert_eq!(
            vkalgo_set_rank_host(null(), q.as_ptr(), 3, ranks.as_mut_ptr()),
            INVALID
        );
        assert_eq!(vkalgo_set_rank_host(s, null(), 3, ranks.as_mut_ptr()), INVALID);
        assert_eq!(vkalgo_set_rank_host(s, q.as_ptr(), 3, null_mut()), INVALID);
        assert_eq!(ranks, [u64::MAX; 3]);
        let k = [0u64, 1, 2];
        let mut vals = [POISON; 3];
        assert_eq!(
            vkalgo_set_select_host(null(), k.as_ptr(), 3, vals.as_mut_ptr()),
            INVALID
        );
        assert_eq!(vkalgo_set_select_host(s, null(), 3, vals.as_mut_ptr()), INVALID);
        assert_eq!(vkalgo_set_select_host(s, k.as_ptr(), 3, null_mut()), INVALID);
        assert_eq!(
            vkalgo_set_select_host(s, [u64::MAX].as_ptr(), 1, vals.as_mut_ptr()),
            INVALID
        );
        assert_eq!(vals, [POISON; 3]);
        assert_eq!(vkalgo_set_rank_host(s, null(), 0, null_mut()), OK);
        assert_eq!(vkalgo_set_select_host(s, null(), 0, null_mut()), OK);
        let empty = c_set(cctx, &[]);
        assert_eq!(
            vkalgo_set_select_host(empty, [0].as_ptr(), 1, vals.as_mut_ptr()),
            INVALID
        );
        assert_eq!(vals, [POISON; 3]);
        for set in [s, full, empty] {
            vkalgo_set_destroy(set);
        }
        vkalgo_context_destroy(cctx);
    }
}

/// The record calls through the C ABI on a packed set: rank with an indirect count, select
/// with an out-of-range rank (the sentinel and the flag), select of ranks in range (the flag
/// zeroed), min_max of the set and of an empty one; then refused calls (NULL set, command
/// buffer or args, a non-NULL `next`, ranges too small, misaligned or overlapping the scratch)
/// recorded into one command buffer that writes nothing.
#[test]
fn order_c_abi_record() {
    let ctx = context();
    let mut rng = Rng(0xc0de);
    unsafe {
        let cctx = c_context_with_queue(&ctx);
        let mut values = every_kind_values(&mut rng);
        values.extend([0, u32::MAX]);
        let sorted: Vec<u32> = model_of(&values).into_iter().collect();
        let card = sorted.len() as u64;
        let s = c_set(cctx, &values);
        assert_eq!(vkalgo_set_run_optimize_host(s), OK);
        assert_eq!(vkalgo_set_pack_host(s), OK);
        let empty = c_set(cctx, &[]);
        let queries: Vec<u32> = (0..200).map(|_| rng.next_u32() % (30 << 16)).collect();
        let picks: Vec<u64> = (0..200)
            .map(|i| if i == 3 { card + 5 } else { rng.next_u64() % card })
            .collect();
        let pick_words: Vec<u32> = picks
            .iter()
            .flat_map(|k| [*k as u32, (*k >> 32) as u32])
            .collect();
        let mut input = poisoned(&ctx, 2048, 0, &queries);
        input.mapped().unwrap()[1000 * 4..1400 * 4].copy_from_slice(bytemuck_cast(&pick_words));
        input.mapped().unwrap()[1500 * 4..1501 * 4].copy_from_slice(bytemuck_cast(&[150u32]));
        let mut out = poisoned(&ctx, 4096, 0, &[]);
        let scratch = set_scratch(&ctx);
        let range = |b: &GpuBuffer, word: u64, words: u64| VkalgoBufferRange {
            buffer: VkBuffer(b.buffer().as_raw()),
            offset: word * 4,
            size: words * 4,
        };
        let scr = range(&scratch, 0, SET_SCRATCH_BYTES / 4);
        let none = VkalgoBufferRange::default();
        let rank_args = VkalgoSetRankArgs {
            next: null(),
            values: range(&input, 0, 200),
            count: 0,
            count_buffer: range(&input, 1500, 1),
            max_count: 200,
            ranks: range(&out, 0, 400),
            scratch: scr,
        };
        let select_args = |values, flag, ranks| VkalgoSetSelectArgs {
            next: null(),
            ranks,
            count: 200,
            count_buffer: none,
            max_count: 0,
            values,
            out_of_range: flag,
            scratch: scr,
        };
        let bad_select = select_args(
            range(&out, 500, 200),
            range(&out, 800, 1),
            range(&input, 1000, 400),
        );
        let good_select = VkalgoSetSelectArgs {
            count: 2,
            ..select_args(range(&out, 900, 2), range(&out, 910, 1), range(&input, 1002, 4))
        };
        let min_max = |at| VkalgoSetMinMaxArgs {
            next: null(),
            out: range(&out, at, 3),
        };
        let (mm_set, mm_empty) = (min_max(1000), min_max(1010));
        ctx.submit_and_wait(|raw| {
            let cmd = VkCommandBuffer(raw.as_raw() as *mut c_void);
            assert_eq!(vkalgo_set_record_rank(s, cmd, &rank_args), OK);
            assert_eq!(vkalgo_set_record_barrier(s, cmd), OK);
            assert_eq!(vkalgo_set_record_select(s, cmd, &bad_select), OK);
            assert_eq!(vkalgo_set_record_barrier(s, cmd), OK);
            assert_eq!(vkalgo_set_record_select(s, cmd, &good_select), OK);
            assert_eq!(vkalgo_set_record_min_max(s, cmd, &mm_set), OK);
            assert_eq!(vkalgo_set_record_min_max(empty, cmd, &mm_empty), OK);
            compute_to_host(&ctx, raw);
            Ok(())
        })
        .unwrap();
        let w = words(&mut out);
        for i in 0..200 {
            let got = w[2 * i] as u64 | (w[2 * i + 1] as u64) << 32;
            let want = if i < 150 {
                sorted.partition_point(|v| *v <= queries[i]) as u64
            } else {
                POISON as u64 | (POISON as u64) << 32
            };
            assert_eq!(got, want, "rank {i}");
        }
        for (i, k) in picks.iter().enumerate() {
            let want = if *k < card {
                sorted[*k as usize]
            } else {
                VKALGO_SET_SELECT_OUT_OF_RANGE
            };
            assert_eq!(w[500 + i], want, "select {i}");
        }
        assert_eq!((w[800], w[801]), (1, POISON), "out_of_range flag");
        assert_eq!(
            w[900..903],
            [sorted[picks[1] as usize], sorted[picks[2] as usize], POISON]
        );
        assert_eq!(w[910], 0, "out_of_range flag of ranks in range");
        assert_eq!(w[1000..1004], [sorted[0], u32::MAX, 1, POISON]);
        assert_eq!(w[1010..1014], [0, 0, 0, POISON]);

        check_refused_record_calls(&ctx, s, rank_args, bad_select, mm_set, &mut out);
        for set in [s, empty] {
            vkalgo_set_destroy(set);
        }
        vkalgo_context_destroy(cctx);
    }
}

/// Refused record calls (NULL set, command buffer or args, a non-NULL `next`, too many values,
/// ranges too small, misaligned or overlapping the scratch or each other) recorded into one
/// command buffer: every one INVALID, and nothing in `out` (where the valid arguments
/// `rank_args`, `bad_select` and `mm_set` write) changes.
unsafe fn check_refused_record_calls(
    ctx: &vkalgo::Context,
    s: *const VkalgoSet,
    rank_args: VkalgoSetRankArgs,
    bad_select: VkalgoSetSelectArgs,
    mm_set: VkalgoSetMinMaxArgs,
    out: &mut GpuBuffer,
) {
    let before = words(out);
    let marker = 5u32;
    let next = &marker as *const u32 as *const c_void;
    ctx.submit_and_wait(|raw| {
        let cmd = VkCommandBuffer(raw.as_raw() as *mut c_void);
        let nocmd = VkCommandBuffer(null_mut());
        assert_eq!(vkalgo_set_record_rank(null(), cmd, &rank_args), INVALID);
        assert_eq!(vkalgo_set_record_rank(s, nocmd, &rank_args), INVALID);
        assert_eq!(vkalgo_set_record_rank(s, cmd, null()), INVALID);
        assert_eq!(
            vkalgo_set_record_rank(s, cmd, &VkalgoSetRankArgs { next, ..rank_args }),
            INVALID
        );
        let small = VkalgoSetRankArgs {
            ranks: VkalgoBufferRange {
                size: 399 * 4,
                ..rank_args.ranks
            },
            ..rank_args
        };
        assert_eq!(vkalgo_set_record_rank(s, cmd, &small), INVALID);
        let overlap = VkalgoSetRankArgs {
            ranks: VkalgoBufferRange {
                size: 1600,
                ..rank_args.scratch
            },
            ..rank_args
        };
        assert_eq!(vkalgo_set_record_rank(s, cmd, &overlap), INVALID);
        let input_in_scratch = VkalgoSetRankArgs {
            values: VkalgoBufferRange {
                offset: rank_args.scratch.offset + 64,
                size: 800,
                ..rank_args.scratch
            },
            ..rank_args
        };
        assert_eq!(vkalgo_set_record_rank(s, cmd, &input_in_scratch), INVALID);
        let too_many = VkalgoSetRankArgs {
            count: 1 << 32,
            count_buffer: VkalgoBufferRange::default(),
            ..rank_args
        };
        assert_eq!(vkalgo_set_record_rank(s, cmd, &too_many), INVALID);
        assert_eq!(vkalgo_set_record_select(null(), cmd, &bad_select), INVALID);
        assert_eq!(vkalgo_set_record_select(s, nocmd, &bad_select), INVALID);
        assert_eq!(vkalgo_set_record_select(s, cmd, null()), INVALID);
        assert_eq!(
            vkalgo_set_record_select(s, cmd, &VkalgoSetSelectArgs { next, ..bad_select }),
            INVALID
        );
        let no_flag = VkalgoSetSelectArgs {
            out_of_range: VkalgoBufferRange::default(),
            ..bad_select
        };
        assert_eq!(vkalgo_set_record_select(s, cmd, &no_flag), INVALID);
        let misaligned = VkalgoSetSelectArgs {
            values: VkalgoBufferRange {
                offset: 2001,
                ..bad_select.values
            },
            ..bad_select
        };
        assert_eq!(vkalgo_set_record_select(s, cmd, &misaligned), INVALID);
        let flag_in_values = VkalgoSetSelectArgs {
            out_of_range: VkalgoBufferRange {
                offset: bad_select.values.offset + 40,
                size: 4,
                ..bad_select.values
            },
            ..bad_select
        };
        assert_eq!(vkalgo_set_record_select(s, cmd, &flag_in_values), INVALID);
        let short_ranks = VkalgoSetSelectArgs {
            ranks: VkalgoBufferRange {
                size: bad_select.ranks.size - 4,
                ..bad_select.ranks
            },
            ..bad_select
        };
        assert_eq!(vkalgo_set_record_select(s, cmd, &short_ranks), INVALID);
        assert_eq!(vkalgo_set_record_min_max(null(), cmd, &mm_set), INVALID);
        assert_eq!(vkalgo_set_record_min_max(s, nocmd, &mm_set), INVALID);
        assert_eq!(vkalgo_set_record_min_max(s, cmd, null()), INVALID);
        assert_eq!(
            vkalgo_set_record_min_max(s, cmd, &VkalgoSetMinMaxArgs { next, ..mm_set }),
            INVALID
        );
        let short = VkalgoSetMinMaxArgs {
            next: null(),
            out: VkalgoBufferRange {
                size: 8,
                ..mm_set.out
            },
        };
        assert_eq!(vkalgo_set_record_min_max(s, cmd, &short), INVALID);
        compute_to_host(ctx, raw);
        Ok(())
    })
    .unwrap();
    assert_eq!(words(out), before, "a refused record call wrote");
}
