//! Multisplits through the C ABI.

use super::*;

#[test]
fn host() {
    use vkalgo_ffi::split::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    assert_eq!(
        (
            VKALGO_BUCKET_BITS,
            VKALGO_BUCKET_SPLITTERS,
            VKALGO_BUCKET_IDS,
            VKALGO_BUCKET_GLSL
        ),
        (
            VkalgoBucketFn(0),
            VkalgoBucketFn(1),
            VkalgoBucketFn(2),
            VkalgoBucketFn(3)
        )
    );
    unsafe {
        let ctx = c_default_context();
        let desc = |key_type, value_type, m, f| VkalgoMultisplitDesc {
            key_type,
            value_type,
            bucket_count: m,
            bucket_fn: f,
            bit_offset: 0,
            splitters: std::ptr::null(),
            bucket_ids: std::ptr::null(),
            glsl: std::ptr::null(),
            params: [0; 4],
            ..Default::default()
        };
        // f32 keys with u64 values by splitters.
        let mut rng = Rng(11);
        let mut keys: Vec<f32> = (0..3000).map(|_| f32::from_bits(rng.next_u32())).collect();
        let mut values: Vec<u64> = (0..3000).collect();
        let splitters = [-1.0f32, 0.0, 0.0, 2.5];
        let buckets: Vec<u32> = keys
            .iter()
            .map(|&k| reference::splitters_bucket(k, &splitters))
            .collect();
        let mut want = keys.clone();
        let mut want_values = values.clone();
        let want_offsets = reference::multisplit(&mut want, Some(&mut want_values), &buckets, 5);
        let mut d = desc(VKALGO_KEY_F32, VKALGO_VALUE_U64, 5, VKALGO_BUCKET_SPLITTERS);
        d.splitters = splitters.as_ptr().cast();
        let mut offsets = vec![0u64; 6];
        let r = vkalgo_multisplit_host(
            ctx,
            &d,
            keys.as_mut_ptr().cast(),
            values.as_mut_ptr().cast(),
            keys.len(),
            offsets.as_mut_ptr(),
        );
        assert_eq!(r, VkalgoResult::VkalgoSuccess);
        assert!(same_bits(&keys, &want));
        assert_eq!(values, want_values);
        assert_eq!(offsets, want_offsets);
        // GLSL with params, keys only, NULL offsets.
        let src = c"uint vkalgo_bucket(uint k) { return k % vkalgo_params.x; }";
        let mut k: Vec<u32> = (0..1000).rev().collect();
        let mut d = desc(VKALGO_KEY_U32, VKALGO_VALUE_NONE, 10, VKALGO_BUCKET_GLSL);
        d.glsl = src.as_ptr();
        d.params = [10, 0, 0, 0];
        let r = vkalgo_multisplit_host(
            ctx,
            &d,
            k.as_mut_ptr().cast(),
            std::ptr::null_mut(),
            k.len(),
            std::ptr::null_mut(),
        );
        assert_eq!(r, VkalgoResult::VkalgoSuccess);
        let ids: Vec<u32> = (0..1000u32).rev().map(|x| x % 10).collect();
        let mut want: Vec<u32> = (0..1000).rev().collect();
        reference::multisplit::<u32, u32>(&mut want, None, &ids, 10);
        assert_eq!(k, want);

        // Bad input: a negative result, a message, nothing changed.
        let mut k: Vec<u32> = vec![3, 2, 1];
        let mut v: Vec<u32> = vec![1, 2, 3];
        let mut off = [77u64; 4];
        let kp: *mut std::ffi::c_void = k.as_mut_ptr().cast();
        let vp: *mut std::ffi::c_void = v.as_mut_ptr().cast();
        let op = off.as_mut_ptr();
        let null = std::ptr::null_mut();
        let ids_bad = [0u32, 3, 1];
        let bad_src = c"uint vkalgo_bucket(uint k) { return nope; }";
        let over_src = c"uint vkalgo_bucket(uint k) { return 3u; }";
        let unsorted = [5u32, 1];
        let with = |f: &dyn Fn(&mut VkalgoMultisplitDesc)| {
            let mut d = desc(VKALGO_KEY_U32, VKALGO_VALUE_U32, 2, VKALGO_BUCKET_BITS);
            f(&mut d);
            d
        };
        let expect = |what: &str, r: VkalgoResult, want: VkalgoResult| {
            assert_eq!(r, want, "{what}");
            let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message())
                .to_string_lossy()
                .into_owned();
            assert!(!message.is_empty(), "{what}: no message");
            if want == VkalgoResult::VkalgoErrorCompile {
                assert!(message.contains("nope"), "{what}: {message}");
            }
        };
        // Descriptions the call refuses, with the keys, values and offsets above.
        // A refused description: its name, its change to a valid one, the expected result.
        type BadDesc<'a> = (&'a str, &'a dyn Fn(&mut VkalgoMultisplitDesc), VkalgoResult);
        let bad_descs: [BadDesc; 15] = [
            ("m = 0", &|d| d.bucket_count = 0, INVALID),
            ("m too large", &|d| d.bucket_count = 1 << 20, INVALID),
            (
                // Refused before the 2^20 - 1 splitters the count implies are read.
                "SPLITTERS m too large",
                &|d| {
                    d.bucket_fn = VKALGO_BUCKET_SPLITTERS;
                    d.bucket_count = 1 << 20;
                    d.splitters = unsorted.as_ptr().cast()
                },
                INVALID,
            ),
            ("BITS m = 3", &|d| d.bucket_count = 3, INVALID),
            ("BITS offset 32", &|d| d.bit_offset = 32, INVALID),
            ("unknown key", &|d| d.key_type = VkalgoKeyType(6), INVALID),
            ("unknown value", &|d| d.value_type = VkalgoValueType(3), INVALID),
            ("unknown fn", &|d| d.bucket_fn = VkalgoBucketFn(4), INVALID),
            (
                "missing splitters",
                &|d| {
                    d.bucket_fn = VKALGO_BUCKET_SPLITTERS;
                    d.bucket_count = 3
                },
                INVALID,
            ),
            (
                "unsorted splitters",
                &|d| {
                    d.bucket_fn = VKALGO_BUCKET_SPLITTERS;
                    d.bucket_count = 3;
                    d.splitters = unsorted.as_ptr().cast()
                },
                INVALID,
            ),
            ("missing ids", &|d| d.bucket_fn = VKALGO_BUCKET_IDS, INVALID),
            (
                "id >= m",
                &|d| {
                    d.bucket_fn = VKALGO_BUCKET_IDS;
                    d.bucket_count = 3;
                    d.bucket_ids = ids_bad.as_ptr()
                },
                INVALID,
            ),
            ("missing GLSL", &|d| d.bucket_fn = VKALGO_BUCKET_GLSL, INVALID),
            (
                "GLSL does not compile",
                &|d| {
                    d.bucket_fn = VKALGO_BUCKET_GLSL;
                    d.glsl = bad_src.as_ptr()
                },
                VkalgoResult::VkalgoErrorCompile,
            ),
            (
                "GLSL bucket >= m",
                &|d| {
                    d.bucket_fn = VKALGO_BUCKET_GLSL;
                    d.glsl = over_src.as_ptr()
                },
                INVALID,
            ),
        ];
        for (what, change, want) in bad_descs {
            expect(
                what,
                vkalgo_multisplit_host(ctx, &with(change), kp, vp, 3, op),
                want,
            );
        }
        expect(
            "NULL keys",
            vkalgo_multisplit_host(ctx, &with(&|_| {}), null, vp, 3, op),
            INVALID,
        );
        expect(
            "NULL values with a type",
            vkalgo_multisplit_host(ctx, &with(&|_| {}), kp, null, 3, op),
            INVALID,
        );
        expect(
            "values without a type",
            vkalgo_multisplit_host(ctx, &with(&|d| d.value_type = VkalgoValueType(0)), kp, vp, 3, op),
            INVALID,
        );
        expect(
            "NULL desc",
            vkalgo_multisplit_host(ctx, std::ptr::null(), kp, vp, 3, op),
            INVALID,
        );
        // Refused before any byte of the (3-element) arrays is read or a size computed.
        expect(
            "count beyond the maximum",
            vkalgo_multisplit_host(ctx, &with(&|_| {}), kp, vp, usize::MAX, op),
            INVALID,
        );
        expect(
            "NULL ctx",
            vkalgo_multisplit_host(null.cast(), &with(&|_| {}), kp, vp, 3, op),
            INVALID,
        );
        assert_eq!(
            (k, v, off),
            (vec![3, 2, 1], vec![1, 2, 3], [77; 4]),
            "data changed"
        );
        // The context still works after every refusal.
        let mut k: Vec<u32> = vec![3, 2, 1];
        let mut v: Vec<u32> = vec![1, 2, 3];
        let good = with(&|_| {});
        let kp: *mut std::ffi::c_void = k.as_mut_ptr().cast();
        let vp: *mut std::ffi::c_void = v.as_mut_ptr().cast();
        let r = vkalgo_multisplit_host(ctx, &good, kp, vp, 3, off.as_mut_ptr());
        assert_eq!(r, VkalgoResult::VkalgoSuccess);
        assert_eq!((k, v, &off[..3]), (vec![2, 3, 1], vec![2, 1, 3], &[0, 1, 3][..]));
        assert_eq!(vkalgo_context_validation_message_count(ctx), 0);
        vkalgo_context_destroy(ctx);
    }
}
