//! The multimap through the C ABI: host calls (round trip, the retrieve's room contract, bad
//! input, absurd counts, TABLE_FULL) and the record layer on the caller's command buffer.

use super::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};
use vkalgo_ffi::hash::*;
use vkalgo_ffi::hash_multimap::*;
use vkalgo_ffi::types::*;
use vkalgo_ffi::*;

const OK: VkalgoResult = VkalgoResult::VkalgoSuccess;
const INVALID: VkalgoResult = VkalgoResult::VkalgoErrorInvalidArgument;

fn c_desc(key_type: VkalgoKeyType, value_type: VkalgoValueType, capacity: u64) -> VkalgoHashMapDesc {
    VkalgoHashMapDesc {
        key_type,
        value_type,
        capacity,
        ..Default::default()
    }
}

#[test]
fn host() {
    unsafe {
        let ctx = c_default_context();
        let desc = c_desc(VKALGO_KEY_U32, VKALGO_VALUE_U32, 100);
        let mut mm = null_mut();
        assert_eq!(vkalgo_hash_multimap_create(null_mut(), &desc, &mut mm), INVALID);
        assert_eq!(vkalgo_hash_multimap_create(ctx, null(), &mut mm), INVALID);
        assert_eq!(vkalgo_hash_multimap_create(ctx, &desc, null_mut()), INVALID);
        for (k, v, c) in [
            (VKALGO_KEY_I32, VKALGO_VALUE_U32, 100),
            (VkalgoKeyType(7), VKALGO_VALUE_U32, 100),
            (VKALGO_KEY_U32, VKALGO_VALUE_NONE, 100),
            (VKALGO_KEY_U32, VKALGO_VALUE_U32, 0),
        ] {
            assert_eq!(
                vkalgo_hash_multimap_create(ctx, &c_desc(k, v, c), &mut mm),
                INVALID
            );
            assert!(mm.is_null());
        }
        assert_eq!(vkalgo_hash_multimap_create(ctx, &desc, &mut mm), OK);
        let keys = [1u32, 2, 1, 3, 1, 2];
        let values = [10u32, 20, 11, 30, 10, 21];
        let (kp, vp) = (keys.as_ptr() as *const c_void, values.as_ptr() as *const c_void);
        assert_eq!(vkalgo_hash_multimap_insert_host(null_mut(), kp, vp, 6), INVALID);
        assert_eq!(vkalgo_hash_multimap_insert_host(mm, null(), vp, 6), INVALID);
        assert_eq!(vkalgo_hash_multimap_insert_host(mm, kp, null(), 6), INVALID);
        assert_eq!(vkalgo_hash_multimap_insert_host(mm, null(), null(), 0), OK);
        let reserved = [5u32, u32::MAX - 1];
        assert_eq!(
            vkalgo_hash_multimap_insert_host(mm, reserved.as_ptr().cast(), vp, 2),
            INVALID
        );
        assert_eq!(vkalgo_hash_multimap_insert_host(mm, kp, vp, 6), OK);
        let mut size = 0u64;
        assert_eq!(vkalgo_hash_multimap_size(mm, &mut size), OK);
        assert_eq!(size, 6);
        assert_eq!(vkalgo_hash_multimap_size(mm, null_mut()), INVALID);
        assert_eq!(vkalgo_hash_multimap_size(null_mut(), &mut size), INVALID);
        count_and_retrieve(mm);
        view_and_clear(mm);
        table_full(ctx);
        vkalgo_hash_multimap_destroy(mm);
        vkalgo_hash_multimap_destroy(null_mut());
        vkalgo_context_destroy(ctx);
    }
}

/// Count and retrieve on a u32/u32 multimap holding {1: 10, 11, 10; 2: 20, 21; 3: 30}: the
/// room contract of the retrieve (exact room, one short, NULL values), bad arguments.
unsafe fn count_and_retrieve(mm: *mut VkalgoHashMultimap) {
    let q = [1u32, 4, 2, 3, 1];
    let qp = q.as_ptr() as *const c_void;
    let mut counts = [9u32; 5];
    assert_eq!(vkalgo_hash_multimap_count_host(mm, qp, 5, null_mut()), INVALID);
    assert_eq!(
        vkalgo_hash_multimap_count_host(mm, null(), 5, counts.as_mut_ptr()),
        INVALID
    );
    assert_eq!(counts, [9; 5]);
    assert_eq!(vkalgo_hash_multimap_count_host(mm, null(), 0, null_mut()), OK);
    assert_eq!(
        vkalgo_hash_multimap_count_host(mm, qp, 5, counts.as_mut_ptr()),
        OK
    );
    assert_eq!(counts, [3, 0, 2, 1, 3]);

    // retrieve: room exactly the total, then one short.
    let mut offsets = [7u64; 6];
    let mut out = [0u32; 16];
    let mut total = 0usize;
    let op = offsets.as_mut_ptr();
    let outp = out.as_mut_ptr() as *mut c_void;
    assert_eq!(
        vkalgo_hash_multimap_retrieve_host(mm, qp, 5, op, outp, 9, &mut total),
        OK
    );
    assert_eq!(total, 9);
    assert_eq!(offsets, [0, 3, 3, 5, 6, 9]);
    let sorted = |a: usize, b: usize| {
        let mut v = out[a..b].to_vec();
        v.sort();
        v
    };
    assert_eq!(sorted(0, 3), [10, 10, 11]);
    assert_eq!(sorted(3, 5), [20, 21]);
    assert_eq!(sorted(5, 6), [30]);
    assert_eq!(sorted(6, 9), [10, 10, 11]);
    let mut offsets = [7u64; 6];
    let mut out = [0xDEADu32; 16];
    let mut total = 0usize;
    let (op, outp) = (offsets.as_mut_ptr(), out.as_mut_ptr() as *mut c_void);
    assert_eq!(
        vkalgo_hash_multimap_retrieve_host(mm, qp, 5, op, outp, 8, &mut total),
        INVALID
    );
    assert_eq!(total, 9, "the total is reported");
    assert_eq!((offsets, out), ([7; 6], [0xDEAD; 16]), "nothing else written");
    let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message()).to_string_lossy();
    assert!(message.contains("total_out = 9"), "{message}");
    // NULL values with room 0 and values to write: the room is too small.
    total = 0;
    assert_eq!(
        vkalgo_hash_multimap_retrieve_host(mm, qp, 5, op, null_mut(), 0, &mut total),
        INVALID
    );
    assert_eq!(total, 9);
    // Other bad arguments write nothing at all.
    total = 77;
    assert_eq!(
        vkalgo_hash_multimap_retrieve_host(mm, qp, 5, null_mut(), outp, 16, &mut total),
        INVALID
    );
    assert_eq!(
        vkalgo_hash_multimap_retrieve_host(mm, null(), 5, op, outp, 16, &mut total),
        INVALID
    );
    assert_eq!(
        vkalgo_hash_multimap_retrieve_host(mm, qp, 5, op, null_mut(), 16, &mut total),
        INVALID
    );
    assert_eq!(
        vkalgo_hash_multimap_retrieve_host(mm, qp, 5, op, outp, 16, null_mut()),
        INVALID
    );
    let with_reserved = [1u32, u32::MAX];
    assert_eq!(
        vkalgo_hash_multimap_retrieve_host(mm, with_reserved.as_ptr().cast(), 2, op, outp, 16, &mut total),
        INVALID
    );
    assert_eq!((total, offsets, out), (77, [7; 6], [0xDEAD; 16]));
    // No keys: one offset, 0.
    assert_eq!(
        vkalgo_hash_multimap_retrieve_host(mm, null(), 0, op, null_mut(), 0, &mut total),
        OK
    );
    assert_eq!((total, offsets[0]), (0, 0));
}

/// Capacity, device view and clear of a u32/u32 multimap asked for 100 slots.
unsafe fn view_and_clear(mm: *mut VkalgoHashMultimap) {
    let mut size = 0u64;
    let mut cap = 0u64;
    assert_eq!(vkalgo_hash_multimap_capacity(mm, &mut cap), OK);
    assert_eq!(cap, 116); // 4 slots per 32-byte bucket, 29 buckets
    let mut view = VkalgoHashMapDeviceView::default();
    assert_eq!(vkalgo_hash_multimap_device_view(mm, &mut view), OK);
    assert_eq!(
        (
            view.key_bits,
            view.value_bits,
            view.slot_bytes,
            view.bucket_slots,
            view.num_buckets
        ),
        (32, 32, 8, 4, 29)
    );
    assert_eq!(vkalgo_hash_multimap_device_view(mm, null_mut()), INVALID);
    assert_eq!(vkalgo_hash_multimap_clear_host(mm), OK);
    assert_eq!(vkalgo_hash_multimap_size(mm, &mut size), OK);
    assert_eq!(size, 0);
}

/// TABLE_FULL: the room is used, the rest refused, the size exact (a u64/u64 multimap).
unsafe fn table_full(ctx: *mut VkalgoContext) {
    let mut size = 0u64;
    if c_int64_atomics(ctx) {
        let mut small = null_mut();
        let wide = c_desc(VKALGO_KEY_U64, VKALGO_VALUE_U64, 8);
        assert_eq!(vkalgo_hash_multimap_create(ctx, &wide, &mut small), OK);
        let k12 = [5u64; 12];
        let r = vkalgo_hash_multimap_insert_host(small, k12.as_ptr().cast(), k12.as_ptr().cast(), 12);
        assert_eq!(r, VkalgoResult::VkalgoErrorTableFull);
        assert_eq!(vkalgo_hash_multimap_size(small, &mut size), OK);
        // 2 slots per 32-byte bucket, 5 buckets. A misaligned u64 array is refused.
        assert_eq!(size, 10);
        let bytes = [0u8; 24];
        let mut c = [0u32; 1];
        assert_eq!(
            vkalgo_hash_multimap_count_host(small, bytes.as_ptr().add(1).cast(), 1, c.as_mut_ptr()),
            INVALID
        );
        vkalgo_hash_multimap_destroy(small);
    }
}

/// Whether a C context has 64-bit atomics (a u64 multimap can be made).
unsafe fn c_int64_atomics(ctx: *mut VkalgoContext) -> bool {
    let mut probe = null_mut();
    let wide = c_desc(VKALGO_KEY_U64, VKALGO_VALUE_U32, 8);
    let made = vkalgo_hash_multimap_create(ctx, &wide, &mut probe) == OK;
    vkalgo_hash_multimap_destroy(probe);
    made
}

/// Counts no batch may have are refused from the count alone, before anything is read,
/// allocated or written.
#[test]
fn absurd_counts_are_refused_before_allocating() {
    unsafe {
        let ctx = c_default_context();
        let mut mm = null_mut();
        assert_eq!(
            vkalgo_hash_multimap_create(ctx, &c_desc(VKALGO_KEY_U32, VKALGO_VALUE_U32, 64), &mut mm),
            OK
        );
        let mut keys = [7u32; 4];
        let mut values = [9u32; 4];
        let mut offsets = [5u64; 4];
        let mut total = 3usize;
        let (k, v) = (
            keys.as_mut_ptr().cast::<c_void>(),
            values.as_mut_ptr().cast::<c_void>(),
        );
        for count in [vkalgo::hash::MAX_BATCH as usize + 1, usize::MAX / 2, usize::MAX] {
            assert_eq!(
                vkalgo_hash_multimap_insert_host(mm, k, v, count),
                INVALID,
                "insert {count}"
            );
            assert_eq!(
                vkalgo_hash_multimap_count_host(mm, k, count, values.as_mut_ptr()),
                INVALID,
                "count {count}"
            );
            assert_eq!(
                vkalgo_hash_multimap_retrieve_host(mm, k, count, offsets.as_mut_ptr(), v, 4, &mut total),
                INVALID,
                "retrieve {count}"
            );
            let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message()).to_string_lossy();
            assert!(!message.contains("panic"), "{message}");
        }
        assert_eq!((keys, values, offsets, total), ([7; 4], [9; 4], [5; 4], 3));
        let mut size = u64::MAX;
        assert_eq!(vkalgo_hash_multimap_size(mm, &mut size), OK);
        assert_eq!(size, 0, "nothing was inserted");
        vkalgo_hash_multimap_destroy(mm);
        vkalgo_context_destroy(ctx);
    }
}

/// The args of every C record call on one buffer.
struct CArgs {
    insert: VkalgoHashMultimapInsertArgs,
    count: VkalgoHashMultimapCountArgs,
    retrieve: VkalgoHashMultimapRetrieveArgs,
    size: VkalgoHashSizeArgs,
}

/// Byte offsets in the record test's buffer: keys, values, counters (insert count, failed,
/// size), queries, counts, u64 offsets, values out.
const AT: [u64; 7] = [0, 4096, 8192, 8448, 10240, 12288, 16384];

/// Every bad variant of the args is refused before anything is recorded.
unsafe fn refused_record_calls(
    mm: *const VkalgoHashMultimap,
    c: VkCommandBuffer,
    a: &CArgs,
    buf: &GpuBuffer,
) {
    let null_cmd = VkCommandBuffer(null_mut());
    let some_next = &a.size as *const _ as *const c_void;
    let nq = a.count.count;
    assert_eq!(vkalgo_hash_multimap_record_insert(mm, c, null()), INVALID);
    assert_eq!(vkalgo_hash_multimap_record_insert(null(), c, &a.insert), INVALID);
    let with_next = VkalgoHashMultimapInsertArgs {
        next: some_next,
        ..a.insert
    };
    assert_eq!(vkalgo_hash_multimap_record_insert(mm, c, &with_next), INVALID);
    assert_eq!(
        vkalgo_hash_multimap_record_insert(mm, null_cmd, &a.insert),
        INVALID
    );
    let counts_on_keys = VkalgoHashMultimapCountArgs {
        counts_out: c_range(buf, AT[3], nq * 4),
        ..a.count
    };
    assert_eq!(vkalgo_hash_multimap_record_count(mm, c, &counts_on_keys), INVALID);
    let bits16 = VkalgoHashMultimapRetrieveArgs {
        offset_bits: 16,
        ..a.retrieve
    };
    assert_eq!(vkalgo_hash_multimap_record_retrieve(mm, c, &bits16), INVALID);
    let short_offsets = VkalgoHashMultimapRetrieveArgs {
        offset_bits: 32,
        offsets: c_range(buf, AT[5], nq * 2),
        ..a.retrieve
    };
    assert_eq!(
        vkalgo_hash_multimap_record_retrieve(mm, c, &short_offsets),
        INVALID
    );
    let half_tags = VkalgoHashMultimapRetrieveArgs {
        tags: c_range(buf, AT[3], nq * 4),
        ..a.retrieve
    };
    assert_eq!(vkalgo_hash_multimap_record_retrieve(mm, c, &half_tags), INVALID);
    let size_next = VkalgoHashSizeArgs {
        next: some_next,
        ..a.size
    };
    assert_eq!(vkalgo_hash_multimap_record_size(mm, c, &size_next), INVALID);
    assert_eq!(vkalgo_hash_multimap_record_barrier(mm, null_cmd), INVALID);
    assert_eq!(vkalgo_hash_multimap_record_clear(mm, null_cmd), INVALID);
}

/// The C record layer on the test context's command buffers (the C context made over its
/// device and queue): clear, insert (indirect), barrier, count, retrieve with u64 offsets and
/// size in one command buffer; bad arguments refused before anything is recorded.
#[test]
fn record_layer() {
    use vkalgo::ash::vk::Handle;
    let ctx = context();
    unsafe {
        let cctx = c_external_context(&ctx, true, false);
        let mut mm = null_mut();
        let desc = c_desc(VKALGO_KEY_U32, VKALGO_VALUE_U32, 2000);
        assert_eq!(vkalgo_hash_multimap_create(cctx, &desc, &mut mm), OK);
        let n = 1000u64;
        let keys: Vec<u32> = (0..n as u32).map(|i| (i * 7) % 300).collect();
        let values: Vec<u32> = (0..n as u32).collect();
        let mut model = MultimapModel::new();
        model.insert(&to64(&keys[..900]), &values64(&values[..900]));
        let queries: Vec<u32> = (0..310).collect();
        let q64 = to64(&queries);
        let nq = queries.len() as u64;
        let mut offsets = vec![0u64];
        for &q in &q64 {
            offsets.push(offsets.last().unwrap() + model.count(q));
        }
        let total = offsets[nq as usize];
        let mut buf = poisoned_bytes(&ctx, AT[6] + 4 * 1024);
        put(&mut buf, AT[0], &keys);
        put(&mut buf, AT[1], &values);
        put(&mut buf, AT[2], &[900u32, 0, 0, 0]);
        put(&mut buf, AT[3], &queries);
        put(&mut buf, AT[5], &offsets[..nq as usize]);
        let none = VkalgoBufferRange {
            buffer: VkBuffer(0),
            offset: 0,
            size: 0,
        };
        let a = CArgs {
            insert: VkalgoHashMultimapInsertArgs {
                next: null(),
                keys: c_range(&buf, AT[0], n * 4),
                values: c_range(&buf, AT[1], n * 4),
                count: 0,
                count_buffer: c_range(&buf, AT[2], 4),
                max_count: n,
                failed_count: c_range(&buf, AT[2] + 4, 4),
            },
            count: VkalgoHashMultimapCountArgs {
                next: null(),
                keys: c_range(&buf, AT[3], nq * 4),
                counts_out: c_range(&buf, AT[4], nq * 4),
                count: nq,
                count_buffer: none,
                max_count: 0,
            },
            retrieve: VkalgoHashMultimapRetrieveArgs {
                next: null(),
                keys: c_range(&buf, AT[3], nq * 4),
                offsets: c_range(&buf, AT[5], nq * 8),
                offset_bits: 64,
                values_out: c_range(&buf, AT[6], total * 4),
                capacity: total,
                count: nq,
                count_buffer: none,
                max_count: 0,
                tags: none,
                tags_out: none,
            },
            size: VkalgoHashSizeArgs {
                next: null(),
                out: c_range(&buf, AT[2] + 8, 4),
            },
        };
        ctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            refused_record_calls(mm, c, &a, &buf);
            host_to_compute(&ctx, cmd);
            assert_eq!(vkalgo_hash_multimap_record_clear(mm, c), OK);
            assert_eq!(vkalgo_hash_multimap_record_insert(mm, c, &a.insert), OK);
            assert_eq!(vkalgo_hash_multimap_record_barrier(mm, c), OK);
            assert_eq!(vkalgo_hash_multimap_record_count(mm, c, &a.count), OK);
            assert_eq!(vkalgo_hash_multimap_record_retrieve(mm, c, &a.retrieve), OK);
            assert_eq!(vkalgo_hash_multimap_record_size(mm, c, &a.size), OK);
            compute_to_host(&ctx, cmd);
            Ok(())
        })
        .unwrap();
        assert_eq!(get::<u32>(&mut buf, AT[2] + 4, 2), [0, 900], "failed count, size");
        let counts: Vec<u64> = get::<u32>(&mut buf, AT[4], nq as usize)
            .iter()
            .map(|&c| c as u64)
            .collect();
        model.check_counts(&q64, &counts).unwrap();
        let got = values64(&get::<u32>(&mut buf, AT[6], total as usize + 4));
        model
            .check_retrieve(&q64, &offsets, &got[..total as usize])
            .unwrap();
        assert!(got[total as usize..].iter().all(|&v| v == 0xA5A5_A5A5));
        vkalgo_hash_multimap_destroy(mm);
        vkalgo_context_destroy(cctx);
    }
}
