//! The reduce through the C ABI: the host call with every key type, the identity, bad input
//! (nothing written), and the record layer on the caller's command buffer.

use super::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};
use vkalgo::ash::vk::Handle;
use vkalgo_ffi::reduce::*;
use vkalgo_ffi::types::*;
use vkalgo_ffi::*;

#[test]
fn host_and_record() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let desc = |key_type: VkalgoKeyType, op: VkalgoReduceOp| VkalgoReduceDesc {
            next: null(),
            key_type: key_type.0,
            op: op.0,
        };
        let ints = [5i32, -9, 3];
        let mut out = 0x5555_5555u32;
        let outp = &mut out as *mut u32 as *mut c_void;
        let inp = ints.as_ptr() as *const c_void;
        assert_eq!(
            vkalgo_reduce_host(ctx, &desc(VKALGO_KEY_I32, VKALGO_OP_MIN), inp, 3, outp),
            OK
        );
        assert_eq!(out as i32, -9);
        assert_eq!(
            vkalgo_reduce_host(ctx, &desc(VKALGO_KEY_U32, VKALGO_OP_MAX), inp, 3, outp),
            OK
        );
        assert_eq!(out, (-9i32) as u32);
        assert_eq!(
            vkalgo_reduce_host(ctx, &desc(VKALGO_KEY_F32, VKALGO_OP_MIN), null(), 0, outp),
            OK
        );
        assert_eq!(out, 0x7FFF_FFFF, "the identity of a float minimum");
        let wide = [1.5f64, -0.25, 2.0];
        let mut wide_out = 0f64;
        let wp = &mut wide_out as *mut f64 as *mut c_void;
        assert_eq!(
            vkalgo_reduce_host(
                ctx,
                &desc(VKALGO_KEY_F64, VKALGO_OP_SUM),
                wide.as_ptr() as *const c_void,
                3,
                wp
            ),
            OK
        );
        assert_eq!(wide_out, 3.25);
        // Bad input: nothing written.
        out = 77;
        let bad_op = VkalgoReduceDesc {
            op: 3,
            ..desc(VKALGO_KEY_U32, VKALGO_OP_SUM)
        };
        let bad_key = VkalgoReduceDesc {
            key_type: 6,
            ..desc(VKALGO_KEY_U32, VKALGO_OP_SUM)
        };
        let with_next = VkalgoReduceDesc {
            next: inp,
            ..desc(VKALGO_KEY_U32, VKALGO_OP_SUM)
        };
        for (what, d, input, count, result) in [
            ("op", &bad_op as *const _, inp, 3, outp),
            ("key type", &bad_key, inp, 3, outp),
            ("next", &with_next, inp, 3, outp),
            ("desc", null(), inp, 3, outp),
            (
                "input",
                &desc(VKALGO_KEY_U32, VKALGO_OP_SUM) as *const _,
                null(),
                3,
                outp,
            ),
            (
                "result",
                &desc(VKALGO_KEY_U32, VKALGO_OP_SUM) as *const _,
                inp,
                3,
                null_mut(),
            ),
        ] {
            assert_eq!(
                vkalgo_reduce_host(ctx, d, input, count, result),
                INVALID,
                "{what}"
            );
        }
        assert_eq!(
            vkalgo_reduce_host(null_mut(), &desc(VKALGO_KEY_U32, VKALGO_OP_SUM), inp, 3, outp),
            INVALID
        );
        assert_eq!(out, 77, "a refused call wrote the result");

        // The record layer: a plan, its scratch, a recorded reduce of u64 keys.
        let mut plan = null_mut();
        assert_eq!(
            vkalgo_reduce_plan_create(ctx, &desc(VKALGO_KEY_U64, VKALGO_OP_SUM), 1000, &mut plan),
            OK
        );
        let mut req = VkalgoMemoryRequirements::default();
        assert_eq!(vkalgo_reduce_plan_memory_requirements(plan, &mut req), OK);
        let keys: Vec<u64> = (0..1000u64).map(|i| i * 0x1_0000_0001).collect();
        let mut buf = GpuBuffer::new(&rctx, 16384 + req.scratch.size, MemoryLocation::CpuToGpu, "t").unwrap();
        buf.mapped().unwrap()[..8000].copy_from_slice(bytemuck::cast_slice(&keys));
        let range = |offset: u64, size: u64| c_range(&buf, offset, size);
        let args = VkalgoReduceArgs {
            next: null(),
            input: range(0, 8000),
            result: range(8192, 8),
            scratch: range(16384, req.scratch.size),
            count: 1000,
            count_buffer: VkalgoBufferRange::default(),
        };
        rctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            assert_eq!(vkalgo_reduce_record(plan, c, null()), INVALID);
            assert_eq!(vkalgo_reduce_record(plan, c, &args), OK);
            compute_to_host(&rctx, cmd);
            Ok(())
        })
        .unwrap();
        let got = u64::from_le_bytes(buf.mapped().unwrap()[8192..8200].try_into().unwrap());
        assert_eq!(got, reference::reduce(&keys, ReduceOp::Sum));
        vkalgo_reduce_plan_destroy(plan);
        vkalgo_reduce_plan_destroy(null_mut());
        vkalgo_context_destroy(ctx);
    }
}

/// A plan made with `VkalgoKeepScratchZeroed` chained to its desc records no clear: three
/// reduces on one scratch, zeroed once, each right. Chains with an unknown structure type, a
/// loop or a misaligned structure are refused, and nothing is made.
#[test]
fn kept_zeroed_scratch_by_extension() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let (kept, unknown) = keep_scratch_zeroed_chains();
        let desc = |next: *const c_void| VkalgoReduceDesc {
            next,
            key_type: VKALGO_KEY_U32.0,
            op: VKALGO_OP_MAX.0,
        };
        // Refused chains.
        let mut looped = kept;
        looped.next = &looped as *const _ as *const c_void;
        let words = [0u64; 4];
        let misaligned = (words.as_ptr() as *const u8).add(4) as *const c_void;
        for (what, next) in [
            ("unknown type", &unknown as *const _ as *const c_void),
            ("loop", &looped as *const _ as *const c_void),
            ("misaligned", misaligned),
        ] {
            let mut plan = null_mut();
            assert_eq!(
                vkalgo_reduce_plan_create(ctx, &desc(next), 100, &mut plan),
                INVALID,
                "{what}"
            );
            assert!(plan.is_null(), "{what}: a plan was made");
        }
        // The host call takes the chain and ignores it.
        let keys = [4u32, 90, 7];
        let mut out = 0u32;
        assert_eq!(
            vkalgo_reduce_host(
                ctx,
                &desc(&kept as *const _ as *const c_void),
                keys.as_ptr() as *const c_void,
                3,
                &mut out as *mut u32 as *mut c_void
            ),
            OK
        );
        assert_eq!(out, 90);

        let mut plan = null_mut();
        assert_eq!(
            vkalgo_reduce_plan_create(ctx, &desc(&kept as *const _ as *const c_void), 5000, &mut plan),
            OK
        );
        let mut req = VkalgoMemoryRequirements::default();
        assert_eq!(vkalgo_reduce_plan_memory_requirements(plan, &mut req), OK);
        let input: Vec<u32> = (0..5000u32).map(|i| i.wrapping_mul(0x85EB_CA6B)).collect();
        let mut buf = GpuBuffer::new(&rctx, 24576 + req.scratch.size, MemoryLocation::CpuToGpu, "t").unwrap();
        {
            let m = buf.mapped().unwrap();
            m.fill(0);
            m[..20000].copy_from_slice(bytemuck::cast_slice(&input));
        }
        let range = |offset: u64, size: u64| c_range(&buf, offset, size);
        let counts = [5000u64, 1, 2500];
        rctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            host_to_compute(&rctx, cmd);
            for (i, &count) in counts.iter().enumerate() {
                let args = VkalgoReduceArgs {
                    next: null(),
                    input: range(0, 20000),
                    result: range(20480 + 4 * i as u64, 4),
                    scratch: range(24576, req.scratch.size),
                    count,
                    count_buffer: VkalgoBufferRange::default(),
                };
                assert_eq!(vkalgo_reduce_record(plan, c, &args), OK);
                compute_to_compute(&rctx, cmd);
            }
            compute_to_host(&rctx, cmd);
            Ok(())
        })
        .unwrap();
        let m = buf.mapped().unwrap();
        for (i, &count) in counts.iter().enumerate() {
            let at = 20480 + 4 * i;
            let got = u32::from_le_bytes(m[at..at + 4].try_into().unwrap());
            assert_eq!(
                got,
                reference::reduce(&input[..count as usize], ReduceOp::Max),
                "call {i}"
            );
        }
        vkalgo_reduce_plan_destroy(plan);
        vkalgo_context_destroy(ctx);
    }
}
