//! The select through the C ABI: the host call in every mode (in place included), bad input
//! (nothing written), a compile error, and the record layer on the caller's command buffer.

use super::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};
use vkalgo::ash::vk::Handle;
use vkalgo_ffi::select::*;
use vkalgo_ffi::types::*;
use vkalgo_ffi::*;

fn desc(key_type: VkalgoKeyType, value_type: VkalgoValueType, mode: u32) -> VkalgoSelectDesc {
    VkalgoSelectDesc {
        next: null(),
        key_type: key_type.0,
        value_type: value_type.0,
        mode,
        flags: null(),
        glsl: null(),
        params: [0; 4],
    }
}

#[test]
fn host_calls_in_every_mode() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        // FLAGGED with u32 values, out of place.
        let keys = [5i32, -9, 3, 3, 8];
        let values = [10u32, 11, 12, 13, 14];
        let flags = [1u8, 0, 0xFF, 0, 2];
        let (mut keys_out, mut values_out, mut kept) = ([0i32; 5], [0u32; 5], 99u64);
        let flagged = VkalgoSelectDesc {
            flags: flags.as_ptr(),
            ..desc(VKALGO_KEY_I32, VKALGO_VALUE_U32, VKALGO_SELECT_FLAGGED)
        };
        let r = vkalgo_select_host(
            ctx,
            &flagged,
            keys.as_ptr() as *const c_void,
            values.as_ptr() as *const c_void,
            5,
            keys_out.as_mut_ptr() as *mut c_void,
            values_out.as_mut_ptr() as *mut c_void,
            &mut kept,
        );
        assert_eq!(r, OK);
        assert_eq!(
            (kept, &keys_out[..3], &values_out[..3]),
            (3, &[5, 3, 8][..], &[10, 12, 14][..])
        );
        // UNIQUE in place, keys only (values NULL).
        let mut wide = [1.0f64, 1.0, -0.0, 0.0, 0.0, f64::NAN, f64::NAN];
        let r = vkalgo_select_host(
            ctx,
            &desc(VKALGO_KEY_F64, VKALGO_VALUE_NONE, VKALGO_SELECT_UNIQUE),
            wide.as_ptr() as *const c_void,
            null(),
            7,
            wide.as_mut_ptr() as *mut c_void,
            null_mut(),
            &mut kept,
        );
        assert_eq!(r, OK);
        assert_eq!(kept, 4);
        assert_eq!(bits(&wide[..4]), bits(&[1.0, -0.0, 0.0, f64::NAN]));
        // IF with params, u64 keys and u64 values in place.
        let glsl = c"bool vkalgo_select(uint64_t k) { return k >= uint64_t(vkalgo_params.y); }";
        let if_desc = VkalgoSelectDesc {
            glsl: glsl.as_ptr(),
            params: [0, 4, 0, 0],
            ..desc(VKALGO_KEY_U64, VKALGO_VALUE_U64, VKALGO_SELECT_IF)
        };
        let mut k64: Vec<u64> = (0..3000).map(|i| i % 7).collect();
        let mut v64: Vec<u64> = (0..3000).collect();
        let (kp, vp) = (k64.as_mut_ptr() as *mut c_void, v64.as_mut_ptr() as *mut c_void);
        assert_eq!(
            vkalgo_select_host(ctx, &if_desc, kp, vp, 3000, kp, vp, &mut kept),
            OK
        );
        let want: Vec<u64> = (0..3000u64).filter(|i| i % 7 >= 4).collect();
        assert_eq!(kept as usize, want.len());
        assert_eq!(v64[..want.len()], want[..]);
        assert!(k64[..want.len()].iter().zip(&want).all(|(k, v)| *k == v % 7));
        // count 0: valid with NULL data.
        kept = 5;
        let empty = desc(VKALGO_KEY_U32, VKALGO_VALUE_NONE, VKALGO_SELECT_FLAGGED);
        assert_eq!(
            vkalgo_select_host(ctx, &empty, null(), null(), 0, null_mut(), null_mut(), &mut kept),
            OK
        );
        assert_eq!(kept, 0);
        vkalgo_context_destroy(ctx);
    }
}

#[test]
fn bad_input_writes_nothing() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let keys = [1u32, 2, 3];
        let flags = [1u8, 1, 1];
        let mut out = [7u32; 3];
        let mut kept = 77u64;
        let (kin, kout) = (keys.as_ptr() as *const c_void, out.as_mut_ptr() as *mut c_void);
        let base = VkalgoSelectDesc {
            flags: flags.as_ptr(),
            ..desc(VKALGO_KEY_U32, VKALGO_VALUE_NONE, VKALGO_SELECT_FLAGGED)
        };
        let cases: Vec<(&str, VkalgoSelectDesc, *const c_void, usize, *mut c_void)> = vec![
            ("key type", VkalgoSelectDesc { key_type: 6, ..base }, kin, 3, kout),
            (
                "value type",
                VkalgoSelectDesc {
                    value_type: 3,
                    ..base
                },
                kin,
                3,
                kout,
            ),
            ("mode", VkalgoSelectDesc { mode: 3, ..base }, kin, 3, kout),
            ("next", VkalgoSelectDesc { next: kin, ..base }, kin, 3, kout),
            (
                "NULL flags",
                VkalgoSelectDesc {
                    flags: null(),
                    ..base
                },
                kin,
                3,
                kout,
            ),
            (
                "NULL glsl",
                VkalgoSelectDesc {
                    mode: VKALGO_SELECT_IF,
                    ..base
                },
                kin,
                3,
                kout,
            ),
            ("NULL keys_in", base, null(), 3, kout),
            ("NULL keys_out", base, kin, 3, null_mut()),
            ("count over the maximum", base, kin, 1usize << 32, kout),
        ];
        for (what, d, kin, n, kout) in cases {
            let r = vkalgo_select_host(ctx, &d, kin, null(), n, kout, null_mut(), &mut kept);
            assert_eq!(r, INVALID, "{what}");
        }
        let values = VkalgoSelectDesc {
            value_type: VKALGO_VALUE_U32.0,
            ..base
        };
        let r = vkalgo_select_host(ctx, &values, kin, null(), 3, kout, null_mut(), &mut kept);
        assert_eq!(r, INVALID, "NULL values with a value type");
        assert_eq!(
            vkalgo_select_host(ctx, null(), kin, null(), 3, kout, null_mut(), &mut kept),
            INVALID
        );
        assert_eq!(
            vkalgo_select_host(ctx, &base, kin, null(), 3, kout, null_mut(), null_mut()),
            INVALID
        );
        assert_eq!(
            vkalgo_select_host(null_mut(), &base, kin, null(), 3, kout, null_mut(), &mut kept),
            INVALID
        );
        let broken = c"bool vkalgo_select(uint k) { return k +; }";
        let compile = VkalgoSelectDesc {
            mode: VKALGO_SELECT_IF,
            glsl: broken.as_ptr(),
            ..base
        };
        let r = vkalgo_select_host(ctx, &compile, kin, null(), 3, kout, null_mut(), &mut kept);
        assert_eq!(r, VkalgoResult::VkalgoErrorCompile);
        assert_eq!((out, kept), ([7; 3], 77), "a refused call wrote its outputs");
        vkalgo_context_destroy(ctx);
    }
}

#[test]
fn record_layer() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let mut plan = null_mut();
        let d = desc(VKALGO_KEY_U32, VKALGO_VALUE_NONE, VKALGO_SELECT_UNIQUE);
        assert_eq!(vkalgo_select_plan_create(ctx, &d, 2000, &mut plan), OK);
        let mut req = VkalgoMemoryRequirements::default();
        assert_eq!(vkalgo_select_plan_memory_requirements(plan, &mut req), OK);
        let keys: Vec<u32> = (0..2000u32).map(|i| i / 4).collect();
        let mut buf = GpuBuffer::new(&rctx, 20480 + req.scratch.size, MemoryLocation::CpuToGpu, "t").unwrap();
        buf.mapped().unwrap()[..8000].copy_from_slice(bytemuck::cast_slice(&keys));
        let range = |offset: u64, size: u64| c_range(&buf, offset, size);
        let args = VkalgoSelectArgs {
            next: null(),
            keys_in: range(0, 8000),
            values_in: VkalgoBufferRange::default(),
            flags: VkalgoBufferRange::default(),
            keys_out: range(8192, 8000),
            values_out: VkalgoBufferRange::default(),
            selected_count: range(16384, 4),
            scratch: range(20480, req.scratch.size),
            count: 2000,
            count_buffer: VkalgoBufferRange::default(),
            params: [0; 4],
        };
        rctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            assert_eq!(vkalgo_select_record(plan, c, null()), INVALID);
            assert_eq!(vkalgo_select_record(plan, c, &args), OK);
            compute_to_host(&rctx, cmd);
            Ok(())
        })
        .unwrap();
        let m = buf.mapped().unwrap();
        let word = |at: usize| u32::from_le_bytes(m[at..at + 4].try_into().unwrap());
        assert_eq!(word(16384), 500);
        assert!((0..500).all(|i| word(8192 + i * 4) == i as u32));
        vkalgo_select_plan_destroy(plan);
        vkalgo_select_plan_destroy(null_mut());
        vkalgo_context_destroy(ctx);
    }
}

/// A plan made with `VkalgoKeepScratchZeroed` chained to its desc: three recorded selects on
/// one scratch, zeroed once, each right; the host call takes the chain and ignores it; a chain
/// with an unknown structure type is refused and makes nothing.
#[test]
fn kept_zeroed_scratch_by_extension() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let (kept, unknown) = keep_scratch_zeroed_chains();
        let chained = |next: *const c_void| VkalgoSelectDesc {
            next,
            ..desc(VKALGO_KEY_U32, VKALGO_VALUE_NONE, VKALGO_SELECT_UNIQUE)
        };
        let mut plan = null_mut();
        let refused = chained(&unknown as *const _ as *const c_void);
        assert_eq!(vkalgo_select_plan_create(ctx, &refused, 2000, &mut plan), INVALID);
        assert!(plan.is_null());
        let d = chained(&kept as *const _ as *const c_void);
        let keys = [3u32, 3, 9, 9, 9, 1];
        let (mut out, mut count) = ([0u32; 6], 0u64);
        let r = vkalgo_select_host(
            ctx,
            &d,
            keys.as_ptr() as *const c_void,
            null(),
            6,
            out.as_mut_ptr() as *mut c_void,
            null_mut(),
            &mut count,
        );
        assert_eq!((r, count, &out[..3]), (OK, 3, &[3, 9, 1][..]));

        assert_eq!(vkalgo_select_plan_create(ctx, &d, 2000, &mut plan), OK);
        let mut req = VkalgoMemoryRequirements::default();
        assert_eq!(vkalgo_select_plan_memory_requirements(plan, &mut req), OK);
        let mut buf = GpuBuffer::new(&rctx, 20480 + req.scratch.size, MemoryLocation::CpuToGpu, "t").unwrap();
        buf.mapped().unwrap().fill(0);
        for (round, (n, run)) in [(2000u32, 4u32), (999, 3), (2000, 1)].into_iter().enumerate() {
            let keys: Vec<u32> = (0..n).map(|i| i / run).collect();
            buf.mapped().unwrap()[..n as usize * 4].copy_from_slice(bytemuck::cast_slice(&keys));
            let range = |offset: u64, size: u64| c_range(&buf, offset, size);
            let args = VkalgoSelectArgs {
                next: null(),
                keys_in: range(0, n as u64 * 4),
                values_in: VkalgoBufferRange::default(),
                flags: VkalgoBufferRange::default(),
                keys_out: range(8192, n as u64 * 4),
                values_out: VkalgoBufferRange::default(),
                selected_count: range(16384, 4),
                scratch: range(20480, req.scratch.size),
                count: n as u64,
                count_buffer: VkalgoBufferRange::default(),
                params: [0; 4],
            };
            rctx.submit_and_wait(|cmd| {
                let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
                host_to_compute(&rctx, cmd);
                assert_eq!(vkalgo_select_record(plan, c, &args), OK);
                compute_to_host(&rctx, cmd);
                Ok(())
            })
            .unwrap();
            let m = buf.mapped().unwrap();
            let word = |at: usize| u32::from_le_bytes(m[at..at + 4].try_into().unwrap());
            let runs = n.div_ceil(run);
            assert_eq!(word(16384), runs, "round {round}");
            assert!(
                (0..runs).all(|i| word(8192 + i as usize * 4) == i),
                "round {round}"
            );
        }
        vkalgo_select_plan_destroy(plan);
        vkalgo_context_destroy(ctx);
    }
}
