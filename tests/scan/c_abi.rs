//! The scan through the C ABI: the typed scans' `key_type` and `combine` fields of
//! `VkalgoScanDesc` on the host call, the plan and the record layer (the u32 sums' C calls are
//! tested in bad_input.rs and ffi-tests/).

use super::typed::{keys_for, words};
use super::*;
use std::ffi::c_void;
use vkalgo::ReduceOp;

/// Through the C ABI: a zeroed desc is a u32 sum; the new fields pick the type and operation
/// on the host call and the record layer; unknown codes are refused with nothing written.
#[test]
fn key_type_and_combine() {
    use vkalgo_ffi::scan::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let rctx = context();
    let rctx: &vkalgo::Context = &rctx;
    unsafe {
        let c = c_context_with_queue(rctx);
        let desc = |key_type: VkalgoKeyType, combine: VkalgoReduceOp, op: VkalgoScanOp| VkalgoScanDesc {
            op,
            key_type: key_type.0,
            combine: combine.0,
            ..Default::default()
        };
        // Zeroed: exclusive u32 sum.
        let ints = [5i32, -9, 3, 7];
        let mut out = [0x5555_5555u32; 4];
        let zeroed = VkalgoScanDesc::default();
        let r = vkalgo_scan_host(c, &zeroed, ints.as_ptr().cast(), out.as_mut_ptr().cast(), 4);
        assert_eq!((r, out), (OK, [0, 5, (-4i32) as u32, (-1i32) as u32]));
        let r = vkalgo_scan_host(
            c,
            &desc(VKALGO_KEY_I32, VKALGO_OP_MIN, VKALGO_SCAN_INCLUSIVE),
            ints.as_ptr().cast(),
            out.as_mut_ptr().cast(),
            4,
        );
        assert_eq!((r, out.map(|w| w as i32)), (OK, [5, -9, -9, -9]));
        let r = vkalgo_scan_host(
            c,
            &desc(VKALGO_KEY_U32, VKALGO_OP_MAX, VKALGO_SCAN_EXCLUSIVE),
            ints.as_ptr().cast(),
            out.as_mut_ptr().cast(),
            4,
        );
        assert_eq!((r, out), (OK, [0, 5, (-9i32) as u32, (-9i32) as u32]));
        let wide = [1.5f64, -0.25, 2.0];
        let mut wide_out = [9f64; 3];
        let r = vkalgo_scan_host(
            c,
            &desc(VKALGO_KEY_F64, VKALGO_OP_SUM, VKALGO_SCAN_INCLUSIVE),
            wide.as_ptr().cast(),
            wide_out.as_mut_ptr().cast(),
            3,
        );
        assert_eq!((r, wide_out), (OK, [1.5, 1.25, 3.25]));
        let longs = [3i64 << 40, -(1 << 50), 7];
        let mut long_out = [0i64; 3];
        let r = vkalgo_scan_host(
            c,
            &desc(VKALGO_KEY_I64, VKALGO_OP_MAX, VKALGO_SCAN_EXCLUSIVE),
            longs.as_ptr().cast(),
            long_out.as_mut_ptr().cast(),
            3,
        );
        assert_eq!((r, long_out), (OK, [i64::MIN, 3 << 40, 3 << 40]));
        // Unknown key type or operation: refused, nothing written (host and plan).
        let before = out;
        let bad_key = VkalgoScanDesc {
            key_type: 6,
            ..zeroed
        };
        let bad_combine = VkalgoScanDesc { combine: 3, ..zeroed };
        let huge_combine = VkalgoScanDesc {
            combine: u32::MAX,
            ..zeroed
        };
        for (what, d) in [
            ("key", &bad_key),
            ("combine", &bad_combine),
            ("combine max", &huge_combine),
        ] {
            let r = vkalgo_scan_host(c, d, ints.as_ptr().cast(), out.as_mut_ptr().cast(), 4);
            assert_eq!(r, INVALID, "{what}");
            assert_eq!(out, before, "{what}: nothing written");
            let mut plan = std::ptr::null_mut();
            let planned = VkalgoScanDesc { max_count: 10, ..*d };
            assert_eq!(vkalgo_scan_plan_create(c, &planned, &mut plan), INVALID, "{what}");
            assert!(plan.is_null());
        }
        // Misaligned host arrays of 8-byte keys are refused.
        let r = vkalgo_scan_host(
            c,
            &desc(VKALGO_KEY_U64, VKALGO_OP_SUM, VKALGO_SCAN_INCLUSIVE),
            (longs.as_ptr() as *const u8).add(4) as *const c_void,
            long_out.as_mut_ptr().cast(),
            2,
        );
        assert_eq!(r, INVALID);
        vkalgo_context_destroy(c);

        // The record layer through the C ABI: a u64 MIN plan on rctx's buffers.
        let c = c_context_over(rctx);
        let n = 700u64;
        let mut plan = std::ptr::null_mut();
        let planned = VkalgoScanDesc {
            max_count: n,
            path: VKALGO_SCAN_PATH_REDUCE_THEN_SCAN,
            ..desc(VKALGO_KEY_U64, VKALGO_OP_MIN, VKALGO_SCAN_INCLUSIVE)
        };
        assert_eq!(vkalgo_scan_plan_create(c, &planned, &mut plan), OK);
        let data: Vec<u64> = keys_for(n as usize, ReduceOp::Min, 3);
        let mut input = poisoned(rctx, 2 * n as usize, 0, words(&data));
        let mut output = poisoned(rctx, 2 * n as usize + 4, 0, &[]);
        let mut req = std::mem::zeroed::<VkalgoMemoryRequirements>();
        assert_eq!(vkalgo_scan_plan_memory_requirements(plan, &mut req), OK);
        let scratch =
            vkalgo::GpuBuffer::new(rctx, req.scratch.size, vkalgo::MemoryLocation::GpuOnly, "s").unwrap();
        let range = |b: &vkalgo::GpuBuffer, offset: u64, size: u64| VkalgoBufferRange {
            buffer: VkBuffer(vkalgo::ash::vk::Handle::as_raw(b.buffer())),
            offset,
            size,
        };
        let args = VkalgoScanArgs {
            next: std::ptr::null(),
            input: range(&input, 0, n * 8),
            output: range(&output, 0, n * 8),
            scratch: range(&scratch, 0, req.scratch.size),
            count: n,
            count_buffer: VkalgoBufferRange::default(),
        };
        rctx.submit_and_wait(|cmd| {
            host_to_compute(rctx, cmd);
            let r = vkalgo_scan_record(
                plan,
                VkCommandBuffer(vkalgo::ash::vk::Handle::as_raw(cmd) as *mut c_void),
                &args,
            );
            assert_eq!(r, OK);
            compute_to_host(rctx, cmd);
            Ok(())
        })
        .unwrap();
        let got = read(&mut output);
        let expected = reference::scan(&data, ScanOp::Inclusive, ReduceOp::Min);
        assert!(got[..2 * n as usize] == *words(&expected));
        assert!(got[2 * n as usize..].iter().all(|&w| w == POISON));
        let _ = read(&mut input);
        vkalgo_scan_plan_destroy(plan);
        vkalgo_context_destroy(c);
    }
}
