//! The hash map through the C ABI: round trip, bad input, absurd counts, the record-layer
//! rehash.

use super::*;

/// The C ABI from Rust: round trip, bad input, retrieve_all reporting the needed count.
#[test]
fn host() {
    use std::ptr::{null, null_mut};
    use vkalgo_ffi::hash::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    unsafe {
        let ctx = c_default_context();
        let desc = VkalgoHashMapDesc {
            key_type: VKALGO_KEY_U32,
            value_type: VKALGO_VALUE_U32,
            capacity: 100,
            ..Default::default()
        };
        let mut map = null_mut();
        assert_eq!(vkalgo_hash_map_create(null_mut(), &desc, &mut map), INVALID);
        assert_eq!(vkalgo_hash_map_create(ctx, null(), &mut map), INVALID);
        assert_eq!(vkalgo_hash_map_create(ctx, &desc, null_mut()), INVALID);
        for (k, v, c) in [
            (VKALGO_KEY_I32, VKALGO_VALUE_U32, 100),
            (VKALGO_KEY_F64, VKALGO_VALUE_U32, 100),
            (VkalgoKeyType(7), VKALGO_VALUE_U32, 100),
            (VKALGO_KEY_U32, VKALGO_VALUE_NONE, 100),
            (VKALGO_KEY_U32, VkalgoValueType(9), 100),
            (VKALGO_KEY_U32, VKALGO_VALUE_U32, 0),
        ] {
            let d = VkalgoHashMapDesc {
                key_type: k,
                value_type: v,
                capacity: c,
                ..Default::default()
            };
            assert_eq!(
                vkalgo_hash_map_create(ctx, &d, &mut map),
                INVALID,
                "{k:?} {v:?} {c}"
            );
            assert!(map.is_null());
            let msg = std::ffi::CStr::from_ptr(vkalgo_last_error_message());
            assert!(!msg.to_bytes().is_empty());
        }
        assert_eq!(
            vkalgo_hash_map_create(ctx, &desc, &mut map),
            VkalgoResult::VkalgoSuccess
        );
        let keys = [1u32, 2, 3, 2];
        let values = [10u32, 20, 30, 21];
        let kp = keys.as_ptr() as *const _;
        let vp = values.as_ptr() as *const _;
        assert_eq!(vkalgo_hash_map_insert_host(null_mut(), kp, vp, 4), INVALID);
        assert_eq!(vkalgo_hash_map_insert_host(map, null(), vp, 4), INVALID);
        assert_eq!(vkalgo_hash_map_insert_host(map, kp, null(), 4), INVALID);
        assert_eq!(
            vkalgo_hash_map_insert_host(map, null(), null(), 0),
            VkalgoResult::VkalgoSuccess
        );
        let reserved = [5u32, u32::MAX];
        assert_eq!(
            vkalgo_hash_map_insert_host(map, reserved.as_ptr() as *const _, vp, 2),
            INVALID
        );
        assert_eq!(
            vkalgo_hash_map_insert_host(map, kp, vp, 4),
            VkalgoResult::VkalgoSuccess
        );
        let mut size = 0u64;
        assert_eq!(
            vkalgo_hash_map_size_host(map, &mut size),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(size, 3);
        assert_eq!(vkalgo_hash_map_size_host(map, null_mut()), INVALID);
        assert_eq!(vkalgo_hash_map_size_host(null_mut(), &mut size), INVALID);
        let mut out = [0u32; 4];
        let mut found = [7u8; 4];
        let q = [1u32, 2, 3, 4];
        let qp = q.as_ptr() as *const _;
        assert_eq!(
            vkalgo_hash_map_find_host(map, qp, null_mut(), found.as_mut_ptr(), 4),
            INVALID
        );
        assert_eq!(
            vkalgo_hash_map_find_host(map, qp, out.as_mut_ptr() as *mut _, found.as_mut_ptr(), 4),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(found, [1, 1, 1, 0]);
        assert!(out[0] == 10 && (out[1] == 20 || out[1] == 21) && out[2] == 30 && out[3] == 0);
        assert_eq!(
            vkalgo_hash_map_find_host(map, qp, out.as_mut_ptr() as *mut _, null_mut(), 4),
            VkalgoResult::VkalgoSuccess
        );
        // retrieve_all: too small reports the needed count.
        let (mut rk, mut rv) = ([0u32; 8], [0u32; 8]);
        let mut count = 0usize;
        let (rkp, rvp) = (rk.as_mut_ptr() as *mut _, rv.as_mut_ptr() as *mut _);
        assert_eq!(
            vkalgo_hash_map_retrieve_all_host(map, rkp, rvp, 2, &mut count),
            INVALID
        );
        assert_eq!(count, 3);
        assert_eq!(rk, [0; 8]);
        assert_eq!(
            vkalgo_hash_map_retrieve_all_host(map, rkp, rvp, 8, null_mut()),
            INVALID
        );
        assert_eq!(
            vkalgo_hash_map_retrieve_all_host(map, null_mut(), rvp, 8, &mut count),
            INVALID
        );
        assert_eq!(
            vkalgo_hash_map_retrieve_all_host(map, rkp, rvp, 8, &mut count),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(count, 3);
        let mut got: Vec<(u32, u32)> = rk[..3].iter().copied().zip(rv[..3].iter().copied()).collect();
        got.sort();
        assert!(got[0] == (1, 10) && got[1].0 == 2 && got[2] == (3, 30));
        // erase, tombstones, rehash, capacity.
        assert_eq!(vkalgo_hash_map_erase_host(map, null(), 1), INVALID);
        assert_eq!(
            vkalgo_hash_map_erase_host(map, qp, 1),
            VkalgoResult::VkalgoSuccess
        );
        let mut stats = VkalgoHashMapStats::default();
        assert_eq!(
            vkalgo_hash_map_stats_host(map, &mut stats),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(stats.tombstones, 0); // the key's bucket held EMPTY slots: it became EMPTY, no tombstone
        assert_eq!(vkalgo_hash_map_rehash_host(map, 1), INVALID);
        assert_eq!(vkalgo_hash_map_rehash_host(map, 0), INVALID);
        assert_eq!(vkalgo_hash_map_rehash_host(null_mut(), 10), INVALID);
        assert_eq!(
            vkalgo_hash_map_rehash_host(map, 1000),
            VkalgoResult::VkalgoSuccess
        );
        let mut cap = 0u64;
        assert_eq!(
            vkalgo_hash_map_capacity(map, &mut cap),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(cap, 1004); // 4 slots per 32-byte bucket, 251 buckets
        assert_eq!(
            vkalgo_hash_map_size_host(map, &mut size),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(size, 2);
        // insert with status on an overfilled table: TABLE_FULL and the statuses.
        let small_desc = VkalgoHashMapDesc {
            key_type: VKALGO_KEY_U64,
            value_type: VKALGO_VALUE_U64,
            capacity: 8,
            ..Default::default()
        };
        let mut small = null_mut();
        assert_eq!(
            vkalgo_hash_map_create(ctx, &small_desc, &mut small),
            VkalgoResult::VkalgoSuccess
        );
        let mut cap_small = 0u64;
        vkalgo_hash_map_capacity(small, &mut cap_small);
        assert_eq!(cap_small, 10); // 2 slots per 32-byte bucket, 5 buckets
        let k12: Vec<u64> = (100..112).collect();
        let mut status = [9u32; 12];
        let r = vkalgo_hash_map_insert_status_host(
            small,
            k12.as_ptr() as *const _,
            k12.as_ptr() as *const _,
            status.as_mut_ptr(),
            12,
        );
        assert_eq!(r, VkalgoResult::VkalgoErrorTableFull);
        assert_eq!(
            status
                .iter()
                .filter(|&&s| s == VKALGO_HASH_STATUS_INSERTED.0)
                .count(),
            10
        );
        assert_eq!(
            status.iter().filter(|&&s| s == VKALGO_HASH_STATUS_FULL.0).count(),
            2
        );
        assert_eq!(
            vkalgo_hash_map_insert_host(small, k12.as_ptr() as *const _, k12.as_ptr() as *const _, 12),
            VkalgoResult::VkalgoErrorTableFull
        );
        // A misaligned u64 array is refused.
        let bytes = [0u8; 24];
        assert_eq!(
            vkalgo_hash_map_erase_host(small, bytes.as_ptr().add(1) as *const _, 1),
            INVALID
        );
        let mut view = VkalgoHashMapDeviceView::default();
        assert_eq!(
            vkalgo_hash_map_device_view(small, &mut view),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(
            (
                view.key_bits,
                view.value_bits,
                view.slot_bytes,
                view.bucket_slots,
                view.num_buckets
            ),
            (64, 64, 16, 2, 5)
        );
        vkalgo_hash_map_destroy(small);
        vkalgo_hash_map_destroy(map);
        vkalgo_hash_map_destroy(null_mut());
        vkalgo_context_destroy(ctx);
    }
}

/// Counts no batch may have are refused from the count alone, before anything is allocated,
/// read or written: INVALID_ARGUMENT, never an abort or a panic (the arrays here are far shorter
/// than the counts, so a call that read them would fail under a sanitizer or crash).
#[test]
fn absurd_counts_are_refused_before_allocating() {
    use std::ptr::{null_mut, NonNull};
    use vkalgo_ffi::hash::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    unsafe {
        let ctx = c_default_context();
        let desc = VkalgoHashMapDesc {
            key_type: VKALGO_KEY_U32,
            value_type: VKALGO_VALUE_U32,
            capacity: 64,
            ..Default::default()
        };
        let mut map = null_mut();
        assert_eq!(
            vkalgo_hash_map_create(ctx, &desc, &mut map),
            VkalgoResult::VkalgoSuccess
        );
        let mut keys = [7u32; 4];
        let mut values = [9u32; 4];
        let mut found = [2u8; 4];
        let mut status = [5u32; 4];
        let k = keys.as_mut_ptr().cast::<std::ffi::c_void>();
        let v = values.as_mut_ptr().cast::<std::ffi::c_void>();
        let dangling = NonNull::<u64>::dangling().as_ptr().cast::<std::ffi::c_void>();
        let counts = [vkalgo::hash::MAX_BATCH as usize + 1, usize::MAX / 2, usize::MAX];
        for count in counts {
            assert_eq!(
                vkalgo_hash_map_find_host(map, k, v, found.as_mut_ptr(), count),
                INVALID,
                "find {count}"
            );
            assert_eq!(
                vkalgo_hash_map_contains_host(map, k, found.as_mut_ptr(), count),
                INVALID,
                "contains {count}"
            );
            assert_eq!(
                vkalgo_hash_map_insert_status_host(map, k, v, status.as_mut_ptr(), count),
                INVALID,
                "insert_status {count}"
            );
            assert_eq!(
                vkalgo_hash_map_insert_host(map, k, v, count),
                INVALID,
                "insert {count}"
            );
            assert_eq!(
                vkalgo_hash_map_erase_host(map, dangling, count),
                INVALID,
                "erase {count}"
            );
            let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message()).to_string_lossy();
            assert!(!message.contains("panic"), "{message}");
        }
        assert_eq!((keys, values, found, status), ([7; 4], [9; 4], [2; 4], [5; 4]));
        let mut size = u64::MAX;
        assert_eq!(
            vkalgo_hash_map_size_host(map, &mut size),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(size, 0, "nothing was inserted");
        vkalgo_hash_map_destroy(map);
        vkalgo_context_destroy(ctx);
    }
}

/// The C record-layer rehash and the map's counts: a map with tombstones moved into a larger
/// one through `vkalgo_hash_map_record_rehash_into` on a command buffer of the caller's (here
/// the test's context, the C context made over its device and queue), every live key found
/// there with its value and no erased key, tombstones gone; bad arguments refused.
#[test]
fn record_rehash_into_and_stats() {
    use std::ffi::c_void;
    use std::ptr::{null, null_mut};
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::hash::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let ctx = context();
    unsafe {
        // Over the test context's device and queue, without the 16-bit flag.
        let cctx = c_external_context(&ctx, true, false);
        let map_desc = |capacity| VkalgoHashMapDesc {
            key_type: VKALGO_KEY_U32,
            value_type: VKALGO_VALUE_U32,
            capacity,
            ..Default::default()
        };
        let (mut src, mut dst, mut other) = (null_mut(), null_mut(), null_mut());
        assert_eq!(
            vkalgo_hash_map_create(cctx, &map_desc(600), &mut src),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(
            vkalgo_hash_map_create(cctx, &map_desc(2000), &mut dst),
            VkalgoResult::VkalgoSuccess
        );
        let wide = VkalgoHashMapDesc {
            value_type: VKALGO_VALUE_U64,
            ..map_desc(100)
        };
        let skip = !ctx.profile().int64_atomics; // u64 values need 64-bit atomics
        if !skip {
            assert_eq!(
                vkalgo_hash_map_create(cctx, &wide, &mut other),
                VkalgoResult::VkalgoSuccess
            );
        }
        let keys: Vec<u32> = (0..500u32).map(|i| i.wrapping_mul(2_654_435_761) >> 2).collect();
        let values: Vec<u32> = (0..500).collect();
        assert_eq!(
            vkalgo_hash_map_insert_host(src, keys.as_ptr().cast(), values.as_ptr().cast(), 500),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(
            vkalgo_hash_map_erase_host(src, keys.as_ptr().cast(), 200),
            VkalgoResult::VkalgoSuccess
        );
        let mut stats = VkalgoHashMapStats {
            next: null_mut(),
            size: 0,
            tombstones: 0,
            capacity: 0,
        };
        assert_eq!(
            vkalgo_hash_map_stats_host(src, &mut stats),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(stats.size, 300);
        let mut capacity = 0;
        assert_eq!(
            vkalgo_hash_map_capacity(src, &mut capacity),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(stats.capacity, capacity);
        let src_tombstones = stats.tombstones;

        let args = |dst| VkalgoHashRehashArgs {
            next: null(),
            dst,
            failed_count: VkalgoBufferRange {
                buffer: VkBuffer(0),
                offset: 0,
                size: 0,
            },
        };
        // Bad arguments: refused before anything is recorded.
        let refused = ctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            assert_eq!(vkalgo_hash_map_record_rehash_into(src, c, null()), INVALID);
            assert_eq!(vkalgo_hash_map_record_rehash_into(src, c, &args(null())), INVALID);
            assert_eq!(vkalgo_hash_map_record_rehash_into(null(), c, &args(dst)), INVALID);
            assert_eq!(
                vkalgo_hash_map_record_rehash_into(src, c, &args(src)),
                INVALID,
                "onto itself"
            );
            let with_next = VkalgoHashRehashArgs {
                next: &stats as *const _ as *const c_void,
                ..args(dst)
            };
            assert_eq!(vkalgo_hash_map_record_rehash_into(src, c, &with_next), INVALID);
            if !skip {
                assert_eq!(
                    vkalgo_hash_map_record_rehash_into(src, c, &args(other)),
                    INVALID,
                    "types"
                );
            }
            Ok(())
        });
        refused.unwrap();
        let mut dst_stats = stats;
        assert_eq!(
            vkalgo_hash_map_stats_host(dst, &mut dst_stats),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(dst_stats.size, 0, "nothing moved by the refused calls");

        ctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            assert_eq!(
                vkalgo_hash_map_record_rehash_into(src, c, &args(dst)),
                VkalgoResult::VkalgoSuccess
            );
            Ok(())
        })
        .unwrap();
        assert_eq!(
            vkalgo_hash_map_stats_host(dst, &mut dst_stats),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(
            (dst_stats.size, dst_stats.tombstones),
            (300, 0),
            "src had {src_tombstones} tombstones"
        );
        let mut found_values = vec![u32::MAX; 500];
        let mut found = vec![9u8; 500];
        assert_eq!(
            vkalgo_hash_map_find_host(
                dst,
                keys.as_ptr().cast(),
                found_values.as_mut_ptr().cast(),
                found.as_mut_ptr(),
                500
            ),
            VkalgoResult::VkalgoSuccess
        );
        for i in 0..500 {
            assert_eq!(found[i], (i >= 200) as u8, "key {i}");
            if i >= 200 {
                assert_eq!(found_values[i], i as u32, "key {i}");
            }
        }
        let mut bad = VkalgoHashMapStats {
            next: &mut dst_stats as *mut _ as *mut c_void,
            ..dst_stats
        };
        assert_eq!(
            vkalgo_hash_map_stats_host(dst, &mut bad),
            INVALID,
            "next must be NULL"
        );
        assert_eq!(vkalgo_hash_map_stats_host(dst, null_mut()), INVALID);
        vkalgo_hash_map_destroy(other);
        vkalgo_hash_map_destroy(dst);
        vkalgo_hash_map_destroy(src);
        vkalgo_context_destroy(cctx);
    }
}

/// Insert-or-apply through the C ABI: the host call with every operation, unknown operations,
/// NULL pointers and reserved keys (nothing changed), and the record-layer call.
#[test]
fn insert_or_apply() {
    use std::ffi::c_void;
    use std::ptr::{null, null_mut};
    use vkalgo::ash::vk::Handle;
    use vkalgo_ffi::hash::*;
    use vkalgo_ffi::hash_apply::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let desc = VkalgoHashMapDesc {
            key_type: VKALGO_KEY_U64,
            value_type: VKALGO_VALUE_U32,
            capacity: 100,
            ..Default::default()
        };
        let mut map = null_mut();
        assert_eq!(vkalgo_hash_map_create(ctx, &desc, &mut map), OK);
        let keys = [1u64, 2, 1, 3, 1];
        let values = [5u32, 7, u32::MAX, 2, 4];
        let (kp, vp) = (keys.as_ptr() as *const c_void, values.as_ptr() as *const c_void);
        for bad_op in [3u32, 0x7FFF_FFFF, u32::MAX] {
            assert_eq!(
                vkalgo_hash_map_insert_or_apply_host(map, kp, vp, 5, bad_op),
                INVALID
            );
        }
        assert_eq!(
            vkalgo_hash_map_insert_or_apply_host(null_mut(), kp, vp, 5, 0),
            INVALID
        );
        assert_eq!(
            vkalgo_hash_map_insert_or_apply_host(map, null(), vp, 5, 0),
            INVALID
        );
        assert_eq!(
            vkalgo_hash_map_insert_or_apply_host(map, kp, null(), 5, 0),
            INVALID
        );
        let reserved = [4u64, u64::MAX - 1];
        assert_eq!(
            vkalgo_hash_map_insert_or_apply_host(map, reserved.as_ptr() as *const c_void, vp, 2, 0),
            INVALID
        );
        let mut size = 0u64;
        assert_eq!(vkalgo_hash_map_size_host(map, &mut size), OK);
        assert_eq!(size, 0, "bad input changed the map");
        assert_eq!(
            vkalgo_hash_map_insert_or_apply_host(map, null(), null(), 0, 0),
            OK
        );
        // SUM (key 1: 5 + MAX + 4 wraps to 8), then MIN and MAX on top.
        let find = |want: [u32; 3], what: &str| {
            let mut got = [0u32; 3];
            let lookup = [1u64, 2, 3];
            let lp = lookup.as_ptr() as *const c_void;
            assert_eq!(
                vkalgo_hash_map_find_host(map, lp, got.as_mut_ptr() as *mut c_void, null_mut(), 3),
                OK
            );
            assert_eq!(got, want, "{what}");
        };
        assert_eq!(
            vkalgo_hash_map_insert_or_apply_host(map, kp, vp, 5, VKALGO_OP_SUM.0),
            OK
        );
        find([8, 7, 2], "sum");
        assert_eq!(
            vkalgo_hash_map_insert_or_apply_host(map, kp, vp, 5, VKALGO_OP_MIN.0),
            OK
        );
        find([4, 7, 2], "min");
        assert_eq!(
            vkalgo_hash_map_insert_or_apply_host(map, kp, vp, 5, VKALGO_OP_MAX.0),
            OK
        );
        find([u32::MAX, 7, 2], "max");

        // The record-layer call: keys at 0, values at 64, through the C struct.
        let mut buf = GpuBuffer::new(&rctx, 256, MemoryLocation::CpuToGpu, "t").unwrap();
        {
            let m = buf.mapped().unwrap();
            m[..40].copy_from_slice(bytemuck::cast_slice(&keys));
            m[64..84].copy_from_slice(bytemuck::cast_slice(&[1u32, 1, 1, 1, 1]));
        }
        let range = |offset: u64, size: u64| c_range(&buf, offset, size);
        let none = VkalgoBufferRange {
            buffer: VkBuffer(0),
            offset: 0,
            size: 0,
        };
        let args = VkalgoHashInsertArgs {
            next: null(),
            keys: range(0, 40),
            values: range(64, 20),
            count: 5,
            count_buffer: none,
            max_count: 5,
            status: none,
            failed_count: none,
        };
        rctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            assert_eq!(vkalgo_hash_map_record_insert_or_apply(map, c, null(), 0), INVALID);
            assert_eq!(vkalgo_hash_map_record_insert_or_apply(map, c, &args, 9), INVALID);
            assert_eq!(
                vkalgo_hash_map_record_insert_or_apply(map, c, &args, VKALGO_OP_SUM.0),
                OK
            );
            Ok(())
        })
        .unwrap();
        find([u32::MAX.wrapping_add(3), 8, 3], "recorded sum");
        vkalgo_hash_map_destroy(map);
        vkalgo_context_destroy(ctx);
    }
}
