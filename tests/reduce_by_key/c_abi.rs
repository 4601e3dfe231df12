//! The reduce-by-key through the C ABI: the host call with key and value types, run-length
//! encoding, bad input (nothing written), and the record layer on the caller's command buffer.

use super::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};
use vkalgo_ffi::reduce_by_key::*;
use vkalgo_ffi::types::*;
use vkalgo_ffi::*;

fn desc(key_type: VkalgoKeyType, value_type: VkalgoValueType, op: VkalgoReduceOp) -> VkalgoReduceByKeyDesc {
    VkalgoReduceByKeyDesc {
        next: null(),
        key_type: key_type.0,
        value_type: value_type.0,
        op: op.0,
    }
}

#[test]
fn host_calls_and_bad_input() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let keys = [3i64, 3, -1, -1, -1, 3];
        let values = [u64::MAX, 2, 5, 1, 9, 4];
        let mut keys_out = [0i64; 6];
        let mut values_out = [0u64; 6];
        let mut runs = 77u64;
        let d = desc(VKALGO_KEY_I64, VKALGO_VALUE_U64, VKALGO_OP_SUM);
        let (ki, vi) = (keys.as_ptr() as *const c_void, values.as_ptr() as *const c_void);
        let (ko, vo) = (
            keys_out.as_mut_ptr() as *mut c_void,
            values_out.as_mut_ptr() as *mut c_void,
        );
        assert_eq!(
            vkalgo_reduce_by_key_host(ctx, &d, ki, vi, 6, ko, vo, &mut runs),
            OK
        );
        assert_eq!(runs, 3);
        assert_eq!(&keys_out[..3], &[3, -1, 3]);
        assert_eq!(&values_out[..3], &[1, 15, 4]);
        // Run-length encoding: u32 lengths, the op and values ignored.
        let mut lengths = [0u32; 6];
        let rle = VkalgoReduceByKeyDesc {
            op: 99,
            ..desc(VKALGO_KEY_I64, VKALGO_VALUE_NONE, VKALGO_OP_SUM)
        };
        let lo = lengths.as_mut_ptr() as *mut c_void;
        assert_eq!(
            vkalgo_reduce_by_key_host(ctx, &rle, ki, null(), 6, ko, lo, &mut runs),
            OK
        );
        assert_eq!((runs, &lengths[..3]), (3, &[2u32, 3, 1][..]));
        assert_eq!(
            vkalgo_reduce_by_key_host(ctx, &rle, null(), null(), 0, null_mut(), null_mut(), &mut runs),
            OK
        );
        assert_eq!(runs, 0);
        // Bad input: nothing written.
        keys_out = [7; 6];
        values_out = [7; 6];
        runs = 7;
        let (ko, vo) = (
            keys_out.as_mut_ptr() as *mut c_void,
            values_out.as_mut_ptr() as *mut c_void,
        );
        let bad_key = VkalgoReduceByKeyDesc { key_type: 6, ..d };
        let bad_value = VkalgoReduceByKeyDesc { value_type: 3, ..d };
        let bad_op = VkalgoReduceByKeyDesc { op: 3, ..d };
        let with_next = VkalgoReduceByKeyDesc { next: ki, ..d };
        for (what, dp, keys_in, values_in, count) in [
            ("key type", &bad_key as *const _, ki, vi, 6usize),
            ("value type", &bad_value, ki, vi, 6),
            ("op", &bad_op, ki, vi, 6),
            ("next", &with_next, ki, vi, 6),
            ("desc", null(), ki, vi, 6),
            ("keys", &d, null(), vi, 6),
            ("values", &d, ki, null(), 6),
            ("count", &d, ki, vi, (u32::MAX as usize) + 1),
        ] {
            assert_eq!(
                vkalgo_reduce_by_key_host(ctx, dp, keys_in, values_in, count, ko, vo, &mut runs),
                INVALID,
                "{what}"
            );
        }
        assert_eq!(
            vkalgo_reduce_by_key_host(ctx, &d, ki, vi, 6, ko, vo, null_mut()),
            INVALID
        );
        assert_eq!(
            (keys_out, values_out, runs),
            ([7; 6], [7; 6], 7),
            "written on error"
        );
        vkalgo_context_destroy(ctx);
    }
}

#[test]
fn record_layer() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let d = desc(VKALGO_KEY_U32, VKALGO_VALUE_U32, VKALGO_OP_MAX);
        let mut plan = null_mut();
        assert_eq!(vkalgo_reduce_by_key_plan_create(ctx, &d, 4000, &mut plan), OK);
        let mut req = VkalgoMemoryRequirements::default();
        assert_eq!(vkalgo_reduce_by_key_plan_memory_requirements(plan, &mut req), OK);
        let mut tile = 0u64;
        assert_eq!(vkalgo_reduce_by_key_plan_tile_size(plan, &mut tile), OK);
        assert!(tile > 0);
        let n = 4000usize;
        let keys: Vec<u32> = (0..n as u32).map(|i| i / 700).collect();
        let values: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
        let mut buf = GpuBuffer::new(&rctx, 65536 + req.scratch.size, MemoryLocation::CpuToGpu, "t").unwrap();
        {
            let m = buf.mapped().unwrap();
            m.fill(0xA5);
            m[..16000].copy_from_slice(bytemuck::cast_slice(&keys));
            m[16384..32384].copy_from_slice(bytemuck::cast_slice(&values));
        }
        let range = |offset: u64, size: u64| VkalgoBufferRange {
            buffer: VkBuffer(vkalgo::ash::vk::Handle::as_raw(buf.buffer())),
            offset,
            size,
        };
        let none = VkalgoBufferRange::default();
        let args = VkalgoReduceByKeyArgs {
            next: null(),
            keys_in: range(0, 16000),
            values_in: range(16384, 16000),
            keys_out: range(32768, 16000),
            values_out: range(49152, 16000),
            run_count: range(65532, 4),
            scratch: range(65536, req.scratch.size),
            count: n as u64,
            count_buffer: none,
        };
        rctx.submit_and_wait(|cmd| {
            host_to_compute(&rctx, cmd);
            let r = vkalgo_reduce_by_key_record(
                plan,
                VkCommandBuffer(vkalgo::ash::vk::Handle::as_raw(cmd) as *mut c_void),
                &args,
            );
            assert_eq!(r, OK);
            compute_to_host(&rctx, cmd);
            Ok(())
        })
        .unwrap();
        let m = buf.mapped().unwrap();
        let word = |at: usize| u32::from_le_bytes(m[at..at + 4].try_into().unwrap());
        let (wk, wv) = reference::reduce_by_key(&keys, &values, ReduceOp::Max);
        assert_eq!(word(65532) as usize, wk.len());
        for (i, (k, v)) in wk.iter().zip(&wv).enumerate() {
            assert_eq!((word(32768 + 4 * i), word(49152 + 4 * i)), (*k, *v));
        }
        vkalgo_reduce_by_key_plan_destroy(plan);
        vkalgo_context_destroy(ctx);
    }
}

/// A plan made with `VkalgoKeepScratchZeroed` chained to its desc: three recorded run-length
/// encodings on one scratch, zeroed once, each right; a chain with an unknown structure type is
/// refused and makes nothing.
#[test]
fn kept_zeroed_scratch_by_extension() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let (kept, unknown) = keep_scratch_zeroed_chains();
        let chained = |next: *const c_void| VkalgoReduceByKeyDesc {
            next,
            ..desc(VKALGO_KEY_U32, VKALGO_VALUE_NONE, VKALGO_OP_SUM)
        };
        let mut plan = null_mut();
        let refused = chained(&unknown as *const _ as *const c_void);
        assert_eq!(
            vkalgo_reduce_by_key_plan_create(ctx, &refused, 4000, &mut plan),
            INVALID
        );
        assert!(plan.is_null());
        let d = chained(&kept as *const _ as *const c_void);
        assert_eq!(vkalgo_reduce_by_key_plan_create(ctx, &d, 4000, &mut plan), OK);
        let mut req = VkalgoMemoryRequirements::default();
        assert_eq!(vkalgo_reduce_by_key_plan_memory_requirements(plan, &mut req), OK);
        let mut buf = GpuBuffer::new(&rctx, 65536 + req.scratch.size, MemoryLocation::CpuToGpu, "t").unwrap();
        buf.mapped().unwrap().fill(0);
        for (round, (n, run)) in [(4000u32, 7u32), (1001, 3), (4000, 1)].into_iter().enumerate() {
            let keys: Vec<u32> = (0..n).map(|i| i / run).collect();
            buf.mapped().unwrap()[..n as usize * 4].copy_from_slice(bytemuck::cast_slice(&keys));
            let range = |offset: u64, size: u64| VkalgoBufferRange {
                buffer: VkBuffer(vkalgo::ash::vk::Handle::as_raw(buf.buffer())),
                offset,
                size,
            };
            let args = VkalgoReduceByKeyArgs {
                next: null(),
                keys_in: range(0, n as u64 * 4),
                values_in: VkalgoBufferRange::default(),
                keys_out: range(32768, n as u64 * 4),
                values_out: range(49152, n as u64 * 4),
                run_count: range(65532, 4),
                scratch: range(65536, req.scratch.size),
                count: n as u64,
                count_buffer: VkalgoBufferRange::default(),
            };
            rctx.submit_and_wait(|cmd| {
                host_to_compute(&rctx, cmd);
                let c = VkCommandBuffer(vkalgo::ash::vk::Handle::as_raw(cmd) as *mut c_void);
                assert_eq!(vkalgo_reduce_by_key_record(plan, c, &args), OK);
                compute_to_host(&rctx, cmd);
                Ok(())
            })
            .unwrap();
            let m = buf.mapped().unwrap();
            let word = |at: usize| u32::from_le_bytes(m[at..at + 4].try_into().unwrap());
            let runs = n.div_ceil(run);
            assert_eq!(word(65532), runs, "round {round}");
            for i in 0..runs {
                let len = run.min(n - i * run);
                assert_eq!(
                    (word(32768 + 4 * i as usize), word(49152 + 4 * i as usize)),
                    (i, len),
                    "round {round}"
                );
            }
        }
        vkalgo_reduce_by_key_plan_destroy(plan);
        vkalgo_context_destroy(ctx);
    }
}
