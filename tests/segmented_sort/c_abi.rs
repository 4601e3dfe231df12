//! The segmented sort through the C ABI: the host call (every value type, count 0), bad input
//! (nothing written), and the record layer on the caller's command buffer.

use super::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};
use vkalgo::ash::vk::Handle;
use vkalgo::{GpuBuffer, MemoryLocation};
use vkalgo_ffi::extensions::{VkalgoKeepScratchZeroed, VkalgoSegmentLengthBound};
use vkalgo_ffi::segmented_sort::*;
use vkalgo_ffi::sort::VkalgoSortDesc;
use vkalgo_ffi::types::*;
use vkalgo_ffi::*;

fn sort_desc(key_type: VkalgoKeyType, value_type: VkalgoValueType) -> VkalgoSortDesc {
    VkalgoSortDesc {
        next: null(),
        key_type,
        value_type,
        begin_bit: 0,
        end_bit: 0,
        descending: 0,
        path: VKALGO_SORT_PATH_AUTO,
        max_count: 0,
    }
}

#[test]
fn host_calls() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        // i32 keys with u32 values, an empty segment among them.
        let mut keys = [5i32, -9, 3, 3, 8, 1, 0];
        let mut values = [10u32, 11, 12, 13, 14, 15, 16];
        let offsets = [0u64, 3, 3, 7];
        let r = vkalgo_segmented_sort_host(
            ctx,
            &sort_desc(VKALGO_KEY_I32, VKALGO_VALUE_U32),
            keys.as_mut_ptr() as *mut c_void,
            values.as_mut_ptr() as *mut c_void,
            7,
            offsets.as_ptr(),
            3,
        );
        assert_eq!(r, OK);
        assert_eq!(keys, [-9, 3, 5, 0, 1, 3, 8]);
        assert_eq!(values, [11, 12, 10, 16, 15, 13, 14]);
        // f64 keys alone, descending, larger than a tile.
        let mut wide: Vec<f64> = keys_with_specials(3000, &DISTRIBUTIONS[0], &mut Rng(31));
        let offsets: Vec<u64> = vec![0, 1000, 1001, 3000];
        let (want, _) = expected::<f64, u32>(
            &wide,
            None,
            &offsets,
            &SegmentedSortOptions {
                descending: true,
                ..Default::default()
            },
        );
        let desc = VkalgoSortDesc {
            descending: 1,
            ..sort_desc(VKALGO_KEY_F64, VKALGO_VALUE_NONE)
        };
        let r = vkalgo_segmented_sort_host(
            ctx,
            &desc,
            wide.as_mut_ptr() as *mut c_void,
            null_mut(),
            3000,
            offsets.as_ptr(),
            3,
        );
        assert_eq!(r, OK);
        assert!(bits(&wide) == bits(&want));
        // u64 values with a bit range.
        let mut k64: Vec<u64> = (0..2000u64).map(|i| (i * 7919) % 1000).collect();
        let mut v64: Vec<u64> = (0..2000).collect();
        let offsets: Vec<u64> = vec![0, 700, 2000];
        let options = SegmentedSortOptions {
            begin_bit: 2,
            end_bit: 9,
            ..Default::default()
        };
        let (want_k, want_v) = expected(&k64, Some(&v64[..]), &offsets, &options);
        let desc = VkalgoSortDesc {
            begin_bit: 2,
            end_bit: 9,
            ..sort_desc(VKALGO_KEY_U64, VKALGO_VALUE_U64)
        };
        let r = vkalgo_segmented_sort_host(
            ctx,
            &desc,
            k64.as_mut_ptr() as *mut c_void,
            v64.as_mut_ptr() as *mut c_void,
            2000,
            offsets.as_ptr(),
            2,
        );
        assert_eq!(r, OK);
        assert_eq!((k64, Some(v64)), (want_k, want_v));
        // count 0: valid with NULL data (one offset, 0; or several empty segments).
        let zeros = [0u64; 3];
        let d = sort_desc(VKALGO_KEY_U32, VKALGO_VALUE_NONE);
        assert_eq!(
            vkalgo_segmented_sort_host(ctx, &d, null_mut(), null_mut(), 0, zeros.as_ptr(), 0),
            OK
        );
        assert_eq!(
            vkalgo_segmented_sort_host(ctx, &d, null_mut(), null_mut(), 0, zeros.as_ptr(), 2),
            OK
        );
        vkalgo_context_destroy(ctx);
    }
}

#[test]
fn bad_input_writes_nothing() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let original: Vec<u32> = (0..10u32).rev().collect();
        let mut keys = original.clone();
        let mut values: Vec<u32> = (0..10).collect();
        let kp = keys.as_mut_ptr() as *mut c_void;
        let vp = values.as_mut_ptr() as *mut c_void;
        let good = [0u64, 4, 10];
        let keys_only = sort_desc(VKALGO_KEY_U32, VKALGO_VALUE_NONE);
        let pairs = sort_desc(VKALGO_KEY_U32, VKALGO_VALUE_U32);
        let calls: Vec<(&str, VkalgoResult)> = vec![
            (
                "null ctx",
                vkalgo_segmented_sort_host(null_mut(), &keys_only, kp, null_mut(), 10, good.as_ptr(), 2),
            ),
            (
                "null desc",
                vkalgo_segmented_sort_host(ctx, null(), kp, null_mut(), 10, good.as_ptr(), 2),
            ),
            (
                "null keys",
                vkalgo_segmented_sort_host(ctx, &keys_only, null_mut(), null_mut(), 10, good.as_ptr(), 2),
            ),
            (
                "null values",
                vkalgo_segmented_sort_host(ctx, &pairs, kp, null_mut(), 10, good.as_ptr(), 2),
            ),
            (
                "values without type",
                vkalgo_segmented_sort_host(ctx, &keys_only, kp, vp, 10, good.as_ptr(), 2),
            ),
            (
                "null offsets",
                vkalgo_segmented_sort_host(ctx, &keys_only, kp, null_mut(), 10, null(), 2),
            ),
            (
                "null offsets, count 0",
                vkalgo_segmented_sort_host(ctx, &keys_only, null_mut(), null_mut(), 0, null(), 0),
            ),
            (
                "first not 0",
                vkalgo_segmented_sort_host(ctx, &pairs, kp, vp, 10, [1u64, 4, 10].as_ptr(), 2),
            ),
            (
                "decreasing",
                vkalgo_segmented_sort_host(ctx, &pairs, kp, vp, 10, [0u64, 6, 4, 10].as_ptr(), 3),
            ),
            (
                "last != count",
                vkalgo_segmented_sort_host(ctx, &pairs, kp, vp, 10, [0u64, 4, 9].as_ptr(), 2),
            ),
            (
                "count 0, last != 0",
                vkalgo_segmented_sort_host(ctx, &keys_only, null_mut(), null_mut(), 0, good.as_ptr(), 1),
            ),
            (
                "unknown key type",
                vkalgo_segmented_sort_host(
                    ctx,
                    &sort_desc(VkalgoKeyType(77), VKALGO_VALUE_NONE),
                    kp,
                    null_mut(),
                    10,
                    good.as_ptr(),
                    2,
                ),
            ),
            (
                "unknown value type",
                vkalgo_segmented_sort_host(
                    ctx,
                    &sort_desc(VKALGO_KEY_U32, VkalgoValueType(9)),
                    kp,
                    vp,
                    10,
                    good.as_ptr(),
                    2,
                ),
            ),
            (
                "unknown path",
                vkalgo_segmented_sort_host(
                    ctx,
                    &VkalgoSortDesc {
                        path: VkalgoSortPath(99),
                        ..keys_only
                    },
                    kp,
                    null_mut(),
                    10,
                    good.as_ptr(),
                    2,
                ),
            ),
            (
                "descending 2",
                vkalgo_segmented_sort_host(
                    ctx,
                    &VkalgoSortDesc {
                        descending: 2,
                        ..keys_only
                    },
                    kp,
                    null_mut(),
                    10,
                    good.as_ptr(),
                    2,
                ),
            ),
            (
                "bit range",
                vkalgo_segmented_sort_host(
                    ctx,
                    &VkalgoSortDesc {
                        begin_bit: 9,
                        end_bit: 3,
                        ..keys_only
                    },
                    kp,
                    null_mut(),
                    10,
                    good.as_ptr(),
                    2,
                ),
            ),
            (
                "next",
                vkalgo_segmented_sort_host(
                    ctx,
                    &VkalgoSortDesc {
                        next: good.as_ptr() as *const c_void,
                        ..keys_only
                    },
                    kp,
                    null_mut(),
                    10,
                    good.as_ptr(),
                    2,
                ),
            ),
            (
                "count over the maximum",
                vkalgo_segmented_sort_host(
                    ctx,
                    &keys_only,
                    kp,
                    null_mut(),
                    (VKALGO_SEGMENTED_SORT_MAX_COUNT + 1) as usize,
                    good.as_ptr(),
                    2,
                ),
            ),
        ];
        for (what, r) in calls {
            assert_eq!(r, INVALID, "{what}");
        }
        assert_eq!(keys, original);
        assert_eq!(values, (0..10).collect::<Vec<u32>>());
        vkalgo_context_destroy(ctx);
    }
}

/// The first 2000 keys of `buf` are `keys` sorted in the segments of `offsets`.
fn assert_sorted(buf: &mut GpuBuffer, keys: &[u32], offsets: &[u32]) {
    let m = buf.mapped().unwrap();
    let got: Vec<u32> = bytemuck::cast_slice(&m[..8000]).to_vec();
    let mut want = keys.to_vec();
    let offsets64: Vec<u64> = offsets.iter().map(|&o| o as u64).collect();
    reference::segmented_sort_pairs::<u32, u32>(&mut want, None, &offsets64, 0, 0, false);
    assert_eq!(got, want);
}

#[test]
fn record_layer() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let mut plan = null_mut();
        let desc = VkalgoSegmentedSortDesc {
            next: null(),
            key_type: VKALGO_KEY_U32,
            value_type: VKALGO_VALUE_NONE,
            begin_bit: 0,
            end_bit: 0,
            descending: 0,
            max_count: 2000,
            max_segments: 4,
        };
        assert_eq!(
            vkalgo_segmented_sort_plan_create(
                ctx,
                &VkalgoSegmentedSortDesc {
                    descending: 3,
                    ..desc
                },
                &mut plan
            ),
            INVALID
        );
        assert!(plan.is_null());
        assert_eq!(vkalgo_segmented_sort_plan_create(ctx, &desc, &mut plan), OK);
        let mut req = VkalgoMemoryRequirements::default();
        assert_eq!(vkalgo_segmented_sort_plan_memory_requirements(plan, &mut req), OK);
        let keys: Vec<u32> = (0..2000u32).map(|i| (i * 7919) % 2000).collect();
        let offsets = [0u32, 100, 100, 1500, 2000];
        let mut buf = GpuBuffer::new(&rctx, 12288 + req.scratch.size, MemoryLocation::CpuToGpu, "t").unwrap();
        {
            let m = buf.mapped().unwrap();
            m[..8000].copy_from_slice(bytemuck::cast_slice(&keys));
            m[8192..8212].copy_from_slice(bytemuck::cast_slice(&offsets));
            m[8448..8452].copy_from_slice(&4u32.to_le_bytes());
        }
        let range = |offset: u64, size: u64| c_range(&buf, offset, size);
        let args = VkalgoSegmentedSortArgs {
            next: null(),
            keys: range(0, 8000),
            values: VkalgoBufferRange::default(),
            offsets: range(8192, 20),
            scratch: range(12288, req.scratch.size),
            count: 2000,
            count_buffer: VkalgoBufferRange::default(),
            segment_count: 0,
            segment_count_buffer: range(8448, 4),
        };
        rctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            assert_eq!(vkalgo_segmented_sort_record(plan, c, null()), INVALID);
            assert_eq!(
                vkalgo_segmented_sort_record(plan, c, &VkalgoSegmentedSortArgs { count: 2001, ..args }),
                INVALID
            );
            host_to_compute(&rctx, cmd);
            assert_eq!(vkalgo_segmented_sort_record(plan, c, &args), OK);
            compute_to_host(&rctx, cmd);
            Ok(())
        })
        .unwrap();
        assert_sorted(&mut buf, &keys, &offsets);
        vkalgo_segmented_sort_plan_destroy(plan);
        vkalgo_segmented_sort_plan_destroy(null_mut());

        // A plan bounded to small segments: the small limit queried, segments of at most 64
        // sorted; a chain with another structure type is refused.
        let bound = VkalgoSegmentLengthBound {
            next: null(),
            structure_type: VKALGO_STRUCTURE_TYPE_SEGMENT_LENGTH_BOUND,
            max_segment_length: 64,
        };
        let zeroed = VkalgoKeepScratchZeroed {
            next: null(),
            structure_type: VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED,
        };
        let mut refused = null_mut();
        let wrong = VkalgoSegmentedSortDesc {
            next: &zeroed as *const _ as *const c_void,
            ..desc
        };
        assert_eq!(
            vkalgo_segmented_sort_plan_create(ctx, &wrong, &mut refused),
            INVALID
        );
        assert!(refused.is_null());
        let bounded = VkalgoSegmentedSortDesc {
            next: &bound as *const _ as *const c_void,
            max_segments: 2000,
            ..desc
        };
        let mut plan = null_mut();
        assert_eq!(vkalgo_segmented_sort_plan_create(ctx, &bounded, &mut plan), OK);
        let mut limit = 0u64;
        assert_eq!(vkalgo_segmented_sort_plan_small_limit(plan, null_mut()), INVALID);
        assert_eq!(vkalgo_segmented_sort_plan_small_limit(plan, &mut limit), OK);
        assert!(limit >= 64 && limit.is_power_of_two(), "small limit {limit}");
        let mut req = VkalgoMemoryRequirements::default();
        assert_eq!(vkalgo_segmented_sort_plan_memory_requirements(plan, &mut req), OK);
        let tiny: Vec<u32> = (0..=2000u32).step_by(40).chain([2000]).collect();
        let tiny: Vec<u32> = tiny
            .windows(2)
            .filter(|w| w[0] != w[1])
            .map(|w| w[0])
            .chain([2000])
            .collect();
        let segments = tiny.len() as u64 - 1;
        let mut buf = GpuBuffer::new(&rctx, 16384 + req.scratch.size, MemoryLocation::CpuToGpu, "t").unwrap();
        {
            let m = buf.mapped().unwrap();
            m[..8000].copy_from_slice(bytemuck::cast_slice(&keys));
            m[8192..8192 + tiny.len() * 4].copy_from_slice(bytemuck::cast_slice(&tiny));
        }
        let range = |offset: u64, size: u64| c_range(&buf, offset, size);
        let args = VkalgoSegmentedSortArgs {
            next: null(),
            keys: range(0, 8000),
            values: VkalgoBufferRange::default(),
            offsets: range(8192, tiny.len() as u64 * 4),
            scratch: range(16384, req.scratch.size),
            count: 2000,
            count_buffer: VkalgoBufferRange::default(),
            segment_count: segments,
            segment_count_buffer: VkalgoBufferRange::default(),
        };
        rctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            host_to_compute(&rctx, cmd);
            assert_eq!(vkalgo_segmented_sort_record(plan, c, &args), OK);
            compute_to_host(&rctx, cmd);
            Ok(())
        })
        .unwrap();
        assert_sorted(&mut buf, &keys, &tiny);
        vkalgo_segmented_sort_plan_destroy(plan);
        vkalgo_context_destroy(ctx);
    }
}
