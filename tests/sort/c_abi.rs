//! Sorts through the C ABI.

use super::*;

#[test]
fn host() {
    use vkalgo_ffi::sort::*;
    use vkalgo_ffi::types::*;
    use vkalgo_ffi::*;
    assert_eq!(
        (
            VKALGO_KEY_U32,
            VKALGO_KEY_I32,
            VKALGO_KEY_F32,
            VKALGO_KEY_U64,
            VKALGO_KEY_I64,
            VKALGO_KEY_F64
        ),
        (
            VkalgoKeyType(0),
            VkalgoKeyType(1),
            VkalgoKeyType(2),
            VkalgoKeyType(3),
            VkalgoKeyType(4),
            VkalgoKeyType(5)
        )
    );
    assert_eq!(
        (VKALGO_VALUE_NONE, VKALGO_VALUE_U32, VKALGO_VALUE_U64),
        (VkalgoValueType(0), VkalgoValueType(1), VkalgoValueType(2))
    );
    unsafe {
        let ctx = c_default_context();
        let desc = |key_type, value_type| VkalgoSortDesc {
            key_type,
            value_type,
            begin_bit: 0,
            end_bit: 0,
            descending: 0,
            ..Default::default()
        };
        let mut rng = Rng(3);
        let mut keys: Vec<f32> = (0..3000).map(|_| f32::from_bits(rng.next_u32())).collect();
        let mut values: Vec<u64> = (0..3000).collect();
        let mut want = keys.clone();
        let mut want_values = values.clone();
        reference::sort_pairs(&mut want, Some(&mut want_values), 0, 0, false);
        let d = desc(VKALGO_KEY_F32, VKALGO_VALUE_U64);
        let r = vkalgo_sort_host(
            ctx,
            &d,
            keys.as_mut_ptr().cast(),
            values.as_mut_ptr().cast(),
            keys.len(),
        );
        assert_eq!(r, VkalgoResult::VkalgoSuccess);
        assert_eq!(
            bytemuck::cast_slice::<f32, u32>(&keys),
            bytemuck::cast_slice::<f32, u32>(&want)
        );
        assert_eq!(values, want_values);

        // Bad input: a negative result, a message, nothing changed.
        let mut k: Vec<u32> = vec![3, 2, 1];
        let mut v: Vec<u32> = vec![1, 2, 3];
        let kp = k.as_mut_ptr().cast();
        let vp = v.as_mut_ptr().cast();
        let null = std::ptr::null_mut();
        let with = |f: &dyn Fn(&mut VkalgoSortDesc)| {
            let mut d = desc(VKALGO_KEY_U32, VKALGO_VALUE_U32);
            f(&mut d);
            d
        };
        let cases = [
            (
                "unknown key type",
                vkalgo_sort_host(ctx, &with(&|d| d.key_type = VkalgoKeyType(6)), kp, vp, 3),
            ),
            (
                "unknown value type",
                vkalgo_sort_host(ctx, &with(&|d| d.value_type = VkalgoValueType(3)), kp, vp, 3),
            ),
            (
                "begin >= end",
                vkalgo_sort_host(
                    ctx,
                    &with(&|d| {
                        d.begin_bit = 9;
                        d.end_bit = 9
                    }),
                    kp,
                    vp,
                    3,
                ),
            ),
            (
                "end beyond width",
                vkalgo_sort_host(ctx, &with(&|d| d.end_bit = 33), kp, vp, 3),
            ),
            (
                "descending 2",
                vkalgo_sort_host(ctx, &with(&|d| d.descending = 2), kp, vp, 3),
            ),
            ("NULL keys", vkalgo_sort_host(ctx, &with(&|_| {}), null, vp, 3)),
            (
                "NULL values with a type",
                vkalgo_sort_host(ctx, &with(&|_| {}), kp, null, 3),
            ),
            (
                "values without a type",
                vkalgo_sort_host(ctx, &with(&|d| d.value_type = VkalgoValueType(0)), kp, vp, 3),
            ),
            ("NULL desc", vkalgo_sort_host(ctx, std::ptr::null(), kp, vp, 3)),
        ];
        for (what, r) in cases {
            assert_eq!(r, INVALID, "{what}");
            let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message())
                .to_string_lossy()
                .into_owned();
            assert!(message.contains("vkalgo_sort_host"), "{what}: {message}");
        }
        assert_eq!(
            vkalgo_sort_host(std::ptr::null_mut(), &with(&|_| {}), kp, vp, 3),
            INVALID,
            "NULL context"
        );
        assert_eq!((k.clone(), v.clone()), (vec![3, 2, 1], vec![1, 2, 3]));
        // Count 0 with NULL arrays is fine; the context is still usable.
        assert_eq!(
            vkalgo_sort_host(ctx, &with(&|d| d.value_type = VkalgoValueType(0)), null, null, 0),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!(
            vkalgo_sort_host(ctx, &with(&|_| {}), kp, vp, 3),
            VkalgoResult::VkalgoSuccess
        );
        assert_eq!((k, v), (vec![1, 2, 3], vec![3, 2, 1]));
        vkalgo_context_destroy(ctx);
    }
}
