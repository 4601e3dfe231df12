//! What the user-shader tests of the map and the multimap share: the SPIR-V of a caller's
//! compute shader compiled against glsl/public/vkalgo_hash_map.glsl (run by
//! `common::run_user_shader`).

pub(crate) use crate::common::run_user_shader;

/// The SPIR-V of tests/shaders/`$name`.comp, a caller's shader, as `cargo xtask shaders`
/// compiled it for (`$key64`: 64-bit keys, `$value64`: 64-bit values).
macro_rules! user_spirv {
    ($name:literal, $key64:expr, $value64:expr) => {{
        let builds: [[&[u8]; 2]; 2] = [
            [
                include_bytes!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/shaders/",
                    $name,
                    "_k32_v32.spv"
                )),
                include_bytes!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/shaders/",
                    $name,
                    "_k32_v64.spv"
                )),
            ],
            [
                include_bytes!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/shaders/",
                    $name,
                    "_k64_v32.spv"
                )),
                include_bytes!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/shaders/",
                    $name,
                    "_k64_v64.spv"
                )),
            ],
        ];
        let bytes = builds[$key64 as usize][$value64 as usize];
        ash::util::read_spv(&mut std::io::Cursor::new(bytes)).unwrap()
    }};
}

pub(crate) use user_spirv;
