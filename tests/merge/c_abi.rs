//! Merges, set operations, merge sorts and segmented merges through the C ABI, host and
//! record layers.

use super::*;

#[test]
fn host() {
    use vkalgo_ffi::merge::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    unsafe {
        let ctx = c_default_context();
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
        assert_eq!(r, OK);
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
            assert_eq!(r, INVALID, "{what}");
            let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message())
                .to_string_lossy()
                .into_owned();
            assert!(message.contains("vkalgo_merge_host"), "{what}: {message}");
        }
        assert_eq!((out, out_values), ([9; 5], [9; 5]), "nothing written");
        // Empty inputs with NULL pointers are fine.
        assert_eq!(
            vkalgo_merge_host(ctx, &pairs, null, null, 0, null, null, 0, null_mut, null_mut),
            OK
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
            OK
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
            assert_eq!(set(null_mut, 0, &mut count), OK, "size query {code:?}");
            assert_eq!(count, want.len());
            let mut out = vec![100i64; want.len() + 1];
            count = 0;
            assert_eq!(
                set(out.as_mut_ptr().cast(), want.len() - 1, &mut count),
                INVALID,
                "too small {code:?}"
            );
            assert_eq!(count, want.len(), "needed size reported");
            assert!(out.iter().all(|&x| x == 100), "nothing written when too small");
            count = 0;
            assert_eq!(set(out.as_mut_ptr().cast(), want.len(), &mut count), OK);
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
            assert_eq!(r, INVALID, "{what}");
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
            INVALID,
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
            OK
        );
        assert_eq!(count, 0);
        assert_eq!(vkalgo_context_validation_message_count(ctx), 0);
        vkalgo_context_destroy(ctx);
    }
}

/// The C record layer (plans, memory requirements, record into the caller's command buffer)
/// on a C context made over this test's device.
#[test]
fn record_layer() {
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
}

/// The merge sort and the segmented merge through the C ABI: host calls (u64 keys with u32
/// values, f32 keys descending in runs) against the CPU's stable sort, bad offsets and an
/// unsorted run refused with the arrays unchanged, and the record layer on the test's buffers
/// (plan, memory requirements, record, where the result is).
#[test]
fn merge_sort_and_segmented_merge() {
    use std::ptr::{null, null_mut};
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::merge_sort::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let ctx = context();
    let mut rng = Rng(77);
    unsafe {
        let host = c_default_context();
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
                INVALID,
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
            INVALID,
            "values with VKALGO_VALUE_NONE"
        );
        let with_next = VkalgoMergeSortDesc {
            next: &d as *const _ as *const std::ffi::c_void,
            ..d
        };
        assert_eq!(
            vkalgo_merge_sort_host(host, &with_next, merged.as_mut_ptr().cast(), null_mut(), total),
            INVALID
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
            assert_eq!(vkalgo_merge_sort_record(plan, c, &too_many), INVALID);
            assert_eq!(vkalgo_merge_sort_record(plan, c, &extended), INVALID);
            assert_eq!(vkalgo_merge_sort_record(plan, c, null()), INVALID);
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
