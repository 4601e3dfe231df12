//! Without a loadable shaderc library, a GLSL bucket function is a clear "unsupported" error
//! (Rust and C), nothing is changed, and everything else works. Its own test binary: the
//! library is looked for once per process, so `VKALGO_SHADERC_LIBRARY` is pointed at a missing
//! file before the first GLSL compile.

mod common;

use common::{context, Rng};
use vkalgo::{Bucketing, Error};

const GLSL: &str = "uint vkalgo_bucket(uint k) { return k % vkalgo_params.x; }";

#[test]
fn glsl_without_shaderc_is_unsupported_and_changes_nothing() {
    std::env::set_var("VKALGO_SHADERC_LIBRARY", "/nonexistent/libshaderc_shared.so.1");
    let ctx = context();
    let mut keys = Rng(5).vec_u32(5000);
    let before = keys.clone();
    let glsl = Bucketing::Glsl {
        bucket_count: 4,
        source: GLSL,
        params: [4, 0, 0, 0],
    };
    for attempt in 0..2 {
        match ctx.multisplit(&mut keys, &glsl) {
            Err(Error::Unsupported(m)) => {
                assert!(
                    m.contains("shaderc") && m.contains("VKALGO_SHADERC_LIBRARY"),
                    "{m}"
                );
                assert!(m.contains("/nonexistent/libshaderc_shared.so.1"), "{m}");
            }
            other => panic!("attempt {attempt}: {other:?}"),
        }
        assert_eq!(keys, before, "keys changed by a failed call");
    }
    // The built-in bucket functions need no compiler.
    let offsets = ctx
        .multisplit(
            &mut keys,
            &Bucketing::Bits {
                bucket_count: 4,
                bit_offset: 0,
            },
        )
        .unwrap();
    let mut want = before.clone();
    want.sort_by_key(|k| k % 4); // stable, as the multisplit
    assert_eq!(keys, want);
    assert_eq!(offsets.len(), 5);

    // The C ABI: VKALGO_ERROR_UNSUPPORTED with the message, the data unchanged.
    unsafe {
        use vkalgo_ffi::split::*;
        use vkalgo_ffi::types::*;
        use vkalgo_ffi::*;
        let mut c_ctx = std::ptr::null_mut();
        assert_eq!(
            vkalgo_context_create_default(&mut c_ctx),
            VkalgoResult::VkalgoSuccess
        );
        let source = std::ffi::CString::new(GLSL).unwrap();
        let desc = VkalgoMultisplitDesc {
            key_type: VKALGO_KEY_U32,
            value_type: VKALGO_VALUE_NONE,
            bucket_count: 4,
            bucket_fn: VKALGO_BUCKET_GLSL,
            bit_offset: 0,
            splitters: std::ptr::null(),
            bucket_ids: std::ptr::null(),
            glsl: source.as_ptr(),
            params: [4, 0, 0, 0],
            ..Default::default()
        };
        let mut c_keys = before.clone();
        let result = vkalgo_multisplit_host(
            c_ctx,
            &desc,
            c_keys.as_mut_ptr().cast(),
            std::ptr::null_mut(),
            c_keys.len(),
            std::ptr::null_mut(),
        );
        assert_eq!(result, VkalgoResult::VkalgoErrorUnsupported);
        let message = std::ffi::CStr::from_ptr(vkalgo_last_error_message()).to_string_lossy();
        assert!(message.contains("shaderc"), "{message}");
        assert_eq!(c_keys, before);
        vkalgo_context_destroy(c_ctx);
    }
}
