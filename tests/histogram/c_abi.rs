//! The histogram through the C ABI: the host call with every bucket function, bad input
//! (nothing written), and the record layer on the caller's command buffer.

use super::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};
use vkalgo::ash::vk::Handle;
use vkalgo_ffi::histogram::*;
use vkalgo_ffi::split::VkalgoMultisplitDesc;
use vkalgo_ffi::types::*;
use vkalgo_ffi::*;

/// A multisplit desc for the histogram.
fn desc(key_type: VkalgoKeyType, m: u32, f: VkalgoBucketFn) -> VkalgoMultisplitDesc {
    VkalgoMultisplitDesc {
        key_type,
        bucket_count: m,
        bucket_fn: f,
        ..Default::default()
    }
}

#[test]
fn host_calls() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let mut rng = Rng(41);
        let keys: Vec<f32> = (0..7000).map(|_| f32::from_bits(rng.next_u32())).collect();
        let kp = keys.as_ptr() as *const c_void;
        let mut counts = vec![7u64; 1024];
        // BITS, with a value type set (ignored).
        let mut d = desc(VKALGO_KEY_F32, 1024, VKALGO_BUCKET_BITS);
        d.bit_offset = 22;
        d.value_type = VKALGO_VALUE_U64;
        assert_eq!(
            vkalgo_histogram_host(ctx, &d, kp, keys.len(), counts.as_mut_ptr()),
            OK
        );
        let bits = Bucketing::Bits {
            bucket_count: 1024,
            bit_offset: 22,
        };
        assert_eq!(counts, reference::histogram(&keys, &bits).unwrap());
        // SPLITTERS.
        let splitters = [-1.0f32, 0.0, 0.0, 2.5];
        let mut d = desc(VKALGO_KEY_F32, 5, VKALGO_BUCKET_SPLITTERS);
        d.splitters = splitters.as_ptr().cast();
        assert_eq!(
            vkalgo_histogram_host(ctx, &d, kp, keys.len(), counts.as_mut_ptr()),
            OK
        );
        let want = reference::histogram(&keys, &Bucketing::Splitters(&splitters)).unwrap();
        assert_eq!(&counts[..5], &want[..]);
        // IDS.
        let ids: Vec<u32> = (0..7000).map(|i| i % 3).collect();
        let mut d = desc(VKALGO_KEY_F32, 3, VKALGO_BUCKET_IDS);
        d.bucket_ids = ids.as_ptr();
        assert_eq!(
            vkalgo_histogram_host(ctx, &d, kp, keys.len(), counts.as_mut_ptr()),
            OK
        );
        assert_eq!(&counts[..3], &[2334, 2333, 2333]);
        // GLSL.
        // The sign bit, not `k < 0.0`: GPUs may flush denormals and order NaNs as they like.
        let src = c"uint vkalgo_bucket(float k) { return (floatBitsToUint(k) >> 31) != 0u ? vkalgo_params.x : vkalgo_params.y; }";
        let mut d = desc(VKALGO_KEY_F32, 2, VKALGO_BUCKET_GLSL);
        d.glsl = src.as_ptr();
        d.params = [1, 0, 0, 0];
        assert_eq!(
            vkalgo_histogram_host(ctx, &d, kp, keys.len(), counts.as_mut_ptr()),
            OK
        );
        let negative = keys.iter().filter(|k| k.is_sign_negative()).count() as u64;
        assert_eq!(&counts[..2], &[keys.len() as u64 - negative, negative]);
        // Zero keys: all counts zero (NULL keys allowed).
        let d = desc(VKALGO_KEY_U64, 4, VKALGO_BUCKET_BITS);
        assert_eq!(vkalgo_histogram_host(ctx, &d, null(), 0, counts.as_mut_ptr()), OK);
        assert_eq!(&counts[..4], &[0; 4]);

        // Bad input: nothing written.
        counts.fill(77);
        let good = desc(VKALGO_KEY_F32, 4, VKALGO_BUCKET_BITS);
        let bad_key = VkalgoMultisplitDesc {
            key_type: VkalgoKeyType(6),
            ..good
        };
        let bad_fn = VkalgoMultisplitDesc {
            bucket_fn: VkalgoBucketFn(4),
            ..good
        };
        let with_next = VkalgoMultisplitDesc { next: kp, ..good };
        let no_buckets = VkalgoMultisplitDesc {
            bucket_count: 0,
            ..good
        };
        let bad_ids: Vec<u32> = (0..7000).map(|i| if i == 6999 { 4 } else { i % 4 }).collect();
        let out_of_range = VkalgoMultisplitDesc {
            bucket_fn: VKALGO_BUCKET_IDS,
            bucket_ids: bad_ids.as_ptr(),
            ..good
        };
        let glsl_out_of_range = VkalgoMultisplitDesc {
            bucket_fn: VKALGO_BUCKET_GLSL,
            glsl: c"uint vkalgo_bucket(float k) { return 4u; }".as_ptr(),
            ..good
        };
        let no_splitters = VkalgoMultisplitDesc {
            bucket_fn: VKALGO_BUCKET_SPLITTERS,
            ..good
        };
        let cp = counts.as_mut_ptr();
        let n = keys.len();
        for (what, d, k, count, c) in [
            ("key type", &bad_key as *const _, kp, n, cp),
            ("bucket fn", &bad_fn, kp, n, cp),
            ("next", &with_next, kp, n, cp),
            ("desc", null(), kp, n, cp),
            ("no buckets", &no_buckets, kp, n, cp),
            ("keys", &good, null(), n, cp),
            ("counts", &good, kp, n, null_mut()),
            ("count over the maximum", &good, kp, 1usize << 32, cp),
            ("id out of range", &out_of_range, kp, n, cp),
            ("GLSL id out of range", &glsl_out_of_range, kp, n, cp),
            ("no splitters", &no_splitters, kp, n, cp),
        ] {
            assert_eq!(vkalgo_histogram_host(ctx, d, k, count, c), INVALID, "{what}");
        }
        assert_eq!(vkalgo_histogram_host(null_mut(), &good, kp, n, cp), INVALID);
        assert!(counts.iter().all(|&c| c == 77), "a refused call wrote the counts");
        vkalgo_context_destroy(ctx);
    }
}

#[test]
fn record_layer() {
    let rctx = context();
    unsafe {
        let ctx = c_context_with_queue(&rctx);
        let mut plan = null_mut();
        let d = desc(VKALGO_KEY_U64, 256, VKALGO_BUCKET_BITS);
        assert_eq!(vkalgo_histogram_plan_create(ctx, &d, 1000, &mut plan), OK);
        let mut none = null_mut();
        assert_eq!(
            vkalgo_histogram_plan_create(ctx, &d, VKALGO_HISTOGRAM_MAX_COUNT + 1, &mut none),
            INVALID
        );
        assert!(none.is_null());
        let mut req = VkalgoMemoryRequirements::default();
        assert_eq!(vkalgo_histogram_plan_memory_requirements(plan, &mut req), OK);
        let keys: Vec<u64> = (0..1000u64).map(|i| i * 0x1_0000_0001).collect();
        let mut buf = GpuBuffer::new(&rctx, 16384 + req.scratch.size, MemoryLocation::CpuToGpu, "t").unwrap();
        buf.mapped().unwrap()[..8000].copy_from_slice(bytemuck::cast_slice(&keys));
        buf.mapped().unwrap()[12_000..12_004].copy_from_slice(&600u32.to_le_bytes());
        let range = |offset: u64, size: u64| c_range(&buf, offset, size);
        let args = VkalgoHistogramArgs {
            next: null(),
            keys: range(0, 8000),
            splitters: VkalgoBufferRange::default(),
            bucket_ids: VkalgoBufferRange::default(),
            counts: range(8192, 1024),
            scratch: range(16384, req.scratch.size),
            count: 0,
            count_buffer: range(12_000, 4),
            params: [0; 4],
        };
        rctx.submit_and_wait(|cmd| {
            let c = VkCommandBuffer(cmd.as_raw() as *mut c_void);
            assert_eq!(vkalgo_histogram_record(plan, c, null()), INVALID);
            assert_eq!(
                vkalgo_histogram_record(
                    plan,
                    c,
                    &VkalgoHistogramArgs {
                        next: args.keys.size as *const c_void,
                        ..args
                    }
                ),
                INVALID
            );
            assert_eq!(vkalgo_histogram_record(plan, c, &args), OK);
            compute_to_host(&rctx, cmd);
            Ok(())
        })
        .unwrap();
        let got: Vec<u64> = bytemuck::cast_slice::<u8, u32>(&buf.mapped().unwrap()[8192..9216])
            .iter()
            .map(|&c| c as u64)
            .collect();
        let bits = Bucketing::Bits {
            bucket_count: 256,
            bit_offset: 0,
        };
        assert_eq!(got, reference::histogram(&keys[..600], &bits).unwrap());
        vkalgo_histogram_plan_destroy(plan);
        vkalgo_histogram_plan_destroy(null_mut());
        vkalgo_context_destroy(ctx);
    }
}
