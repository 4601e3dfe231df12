//! The shader compiler for GLSL bucket functions, loaded at run time: libshaderc's C API
//! through `libloading`, so that programs which never compile GLSL carry and need no compiler.
//! The library is looked for under its usual names (Fedora `libshaderc`, Arch `shaderc`, the
//! Vulkan SDK, Debian/Ubuntu `libshaderc1`), or at the path in `VKALGO_SHADERC_LIBRARY`; when
//! none loads the compile is [`Error::Unsupported`] with the names tried and why each failed.

use crate::core::shaders::compiler;
use crate::error::{Error, Result};
use std::ffi::{c_char, c_int, c_void, CString};
use std::sync::OnceLock;

/// Environment variable naming the shaderc shared library to load instead of the usual names.
pub(super) const LIBRARY_ENV: &str = "VKALGO_SHADERC_LIBRARY";

/// The usual file names of libshaderc's shared library, per platform.
#[cfg(target_os = "windows")]
const LIBRARY_NAMES: &[&str] = &["shaderc_shared.dll"];
#[cfg(any(target_os = "macos", target_os = "ios"))]
const LIBRARY_NAMES: &[&str] = &[
    "libshaderc_shared.1.dylib",
    "libshaderc_shared.dylib",
    "libshaderc.1.dylib",
];
#[cfg(not(any(target_os = "windows", target_os = "macos", target_os = "ios")))]
const LIBRARY_NAMES: &[&str] = &[
    "libshaderc_shared.so.1",
    "libshaderc_shared.so",
    "libshaderc.so.1",
    "libshaderc.so",
];

// Values of shaderc's C enums (shaderc/shaderc.h, shaderc/env.h) for the configuration of
// src/core/shaders/compiler.rs.
const COMPUTE_SHADER: c_int = 2; // shaderc_glsl_compute_shader (compiler::STAGE)
const TARGET_ENV_VULKAN: c_int = 0; // shaderc_target_env_vulkan
/// shaderc_env_version_vulkan_<major>_<minor> of compiler::TARGET_VULKAN (VK_MAKE_VERSION).
const ENV_VERSION_VULKAN: u32 = (compiler::TARGET_VULKAN.0 << 22) | (compiler::TARGET_VULKAN.1 << 12);
/// shaderc_spirv_version_<major>_<minor> of compiler::SPIRV_VERSION.
const SPIRV_VERSION: c_int = ((compiler::SPIRV_VERSION.0 << 16) | (compiler::SPIRV_VERSION.1 << 8)) as c_int;
/// shaderc_optimization_level_performance, or _zero, as compiler::OPTIMIZE says.
const OPTIMIZATION_LEVEL: c_int = if compiler::OPTIMIZE { 2 } else { 0 };
const INCLUDE_RELATIVE: c_int = 0; // shaderc_include_type_relative (#include "...")
const STATUS_SUCCESS: c_int = 0; // shaderc_compilation_status_success

/// shaderc_include_result.
#[repr(C)]
struct IncludeResult {
    source_name: *const c_char,
    source_name_length: usize,
    content: *const c_char,
    content_length: usize,
    user_data: *mut c_void,
}

type ResolveFn =
    unsafe extern "C" fn(*mut c_void, *const c_char, c_int, *const c_char, usize) -> *mut IncludeResult;
type ReleaseFn = unsafe extern "C" fn(*mut c_void, *mut IncludeResult);

/// The entry points vkalgo calls.
struct Api {
    compiler_initialize: unsafe extern "C" fn() -> *mut c_void,
    compiler_release: unsafe extern "C" fn(*mut c_void),
    options_initialize: unsafe extern "C" fn() -> *mut c_void,
    options_release: unsafe extern "C" fn(*mut c_void),
    add_macro_definition: unsafe extern "C" fn(*mut c_void, *const c_char, usize, *const c_char, usize),
    set_target_env: unsafe extern "C" fn(*mut c_void, c_int, u32),
    set_target_spirv: unsafe extern "C" fn(*mut c_void, c_int),
    set_optimization_level: unsafe extern "C" fn(*mut c_void, c_int),
    set_include_callbacks: unsafe extern "C" fn(*mut c_void, ResolveFn, ReleaseFn, *mut c_void),
    compile_into_spv: unsafe extern "C" fn(
        *const c_void,
        *const c_char,
        usize,
        c_int,
        *const c_char,
        *const c_char,
        *const c_void,
    ) -> *mut c_void,
    result_release: unsafe extern "C" fn(*mut c_void),
    result_get_length: unsafe extern "C" fn(*const c_void) -> usize,
    result_get_bytes: unsafe extern "C" fn(*const c_void) -> *const c_char,
    result_get_status: unsafe extern "C" fn(*const c_void) -> c_int,
    result_get_error_message: unsafe extern "C" fn(*const c_void) -> *const c_char,
    /// Keeps the library loaded for the process's lifetime (the compiled shaders outlive calls).
    _library: libloading::Library,
}

/// The loaded API, or why it could not be loaded (kept: one attempt per process).
fn api() -> Result<&'static Api> {
    static API: OnceLock<std::result::Result<Api, String>> = OnceLock::new();
    API.get_or_init(load)
        .as_ref()
        .map_err(|why| Error::Unsupported(why.clone()))
}

fn load() -> std::result::Result<Api, String> {
    let names: Vec<String> = match std::env::var_os(LIBRARY_ENV) {
        Some(path) => vec![path.to_string_lossy().into_owned()],
        None => LIBRARY_NAMES.iter().map(|n| n.to_string()).collect(),
    };
    let mut errors = Vec::new();
    for name in &names {
        // Safety: loading libshaderc runs its initializers, which only set up the compiler.
        match unsafe { libloading::Library::new(name) } {
            Ok(library) => return unsafe { bind(library) }.map_err(|e| format!("{name}: {e}")),
            Err(e) => errors.push(format!("{name}: {e}")),
        }
    }
    // Debian 12's libshaderc.so.1 leaves glslang and SPIRV-Tools symbols undefined.
    let hint = if errors.iter().any(|e| e.contains("undefined symbol")) {
        " (a libshaderc that leaves glslang or SPIRV-Tools symbols undefined, as Debian 12's \
         libshaderc1 does, cannot be loaded: use the Vulkan SDK's libshaderc_shared or one linked \
         with glslang and SPIRV-Tools, see vkalgo's README)"
    } else {
        ""
    };
    Err(format!(
        "GLSL bucket functions need the shaderc shared library at run time, and none could be \
         loaded (Fedora: libshaderc; Arch: shaderc; the Vulkan SDK: libshaderc_shared; or set \
         {LIBRARY_ENV} to its path){hint}; tried {}",
        errors.join("; ")
    ))
}

/// Looks every entry point up in `library`.
unsafe fn bind(library: libloading::Library) -> std::result::Result<Api, String> {
    macro_rules! sym {
        ($name:literal) => {
            *library
                .get(concat!($name, "\0").as_bytes())
                .map_err(|e| format!("{}: {e}", $name))?
        };
    }
    Ok(Api {
        compiler_initialize: sym!("shaderc_compiler_initialize"),
        compiler_release: sym!("shaderc_compiler_release"),
        options_initialize: sym!("shaderc_compile_options_initialize"),
        options_release: sym!("shaderc_compile_options_release"),
        add_macro_definition: sym!("shaderc_compile_options_add_macro_definition"),
        set_target_env: sym!("shaderc_compile_options_set_target_env"),
        set_target_spirv: sym!("shaderc_compile_options_set_target_spirv"),
        set_optimization_level: sym!("shaderc_compile_options_set_optimization_level"),
        set_include_callbacks: sym!("shaderc_compile_options_set_include_callbacks"),
        compile_into_spv: sym!("shaderc_compile_into_spv"),
        result_release: sym!("shaderc_result_release"),
        result_get_length: sym!("shaderc_result_get_length"),
        result_get_bytes: sym!("shaderc_result_get_bytes"),
        result_get_status: sym!("shaderc_result_get_compilation_status"),
        result_get_error_message: sym!("shaderc_result_get_error_message"),
        _library: library,
    })
}

/// Answers an include: given the including file's name, the requested name and whether it is
/// quoted (`#include "name"`, else `<name>`), the included file's name (the name its own
/// includes are resolved against) and contents, or an error message.
pub(super) type Includes<'a> = dyn Fn(&str, &str, bool) -> std::result::Result<(String, String), String> + 'a;

/// An include result with the storage its pointers point into.
struct OwnedInclude {
    result: IncludeResult,
    _name: Vec<u8>,
    _content: Vec<u8>,
}

unsafe extern "C" fn resolve_include(
    user_data: *mut c_void,
    requested: *const c_char,
    kind: c_int,
    requesting: *const c_char,
    _depth: usize,
) -> *mut IncludeResult {
    // Never unwinds into C: a panic becomes an include error.
    let found = std::panic::catch_unwind(|| {
        let includes = &*(user_data as *const &Includes<'_>);
        let name = std::ffi::CStr::from_ptr(requested).to_string_lossy();
        let from = std::ffi::CStr::from_ptr(requesting).to_string_lossy();
        match includes(&from, &name, kind == INCLUDE_RELATIVE) {
            Ok((path, content)) => (path.into_bytes(), content.into_bytes()),
            // shaderc reports an include error as an empty name with the message as content.
            Err(message) => (Vec::new(), message.into_bytes()),
        }
    })
    .unwrap_or_else(|_| (Vec::new(), b"include resolution failed".to_vec()));
    let (name, content) = found;
    let mut owned = Box::new(OwnedInclude {
        result: IncludeResult {
            source_name: std::ptr::null(),
            source_name_length: name.len(),
            content: std::ptr::null(),
            content_length: content.len(),
            user_data: std::ptr::null_mut(),
        },
        _name: name,
        _content: content,
    });
    owned.result.source_name = owned._name.as_ptr() as *const c_char;
    owned.result.content = owned._content.as_ptr() as *const c_char;
    // `result` is the first field of a #[repr(Rust)] struct: keep the box's address instead.
    let raw = Box::into_raw(owned);
    (*raw).result.user_data = raw as *mut c_void;
    &mut (*raw).result
}

unsafe extern "C" fn release_include(_user_data: *mut c_void, result: *mut IncludeResult) {
    if !result.is_null() {
        drop(Box::from_raw((*result).user_data as *mut OwnedInclude));
    }
}

/// Compiles the compute shader `source` (named `file_name` in messages) with the macro
/// definitions `defines` with the library's compiler configuration (src/core/shaders/compiler.rs:
/// Vulkan 1.2, SPIR-V 1.5, optimized for speed); `#include` directives are answered by
/// `includes`. A compile error is [`Error::CompileError`] with the
/// compiler's message; a missing shaderc library [`Error::Unsupported`].
pub(super) fn compile_compute(
    source: &str,
    file_name: &str,
    defines: &[(&str, String)],
    includes: &Includes<'_>,
) -> Result<Vec<u32>> {
    let api = api()?;
    let nul = |s: &str| CString::new(s).map_err(|_| Error::invalid("a GLSL string contains a NUL character"));
    let (file_name, entry) = (nul(file_name)?, nul("main")?);
    unsafe {
        let compiler = (api.compiler_initialize)();
        let options = (api.options_initialize)();
        if compiler.is_null() || options.is_null() {
            (api.options_release)(options);
            (api.compiler_release)(compiler);
            return Err(Error::Internal("shaderc could not create a compiler".into()));
        }
        (api.set_target_env)(options, TARGET_ENV_VULKAN, ENV_VERSION_VULKAN);
        (api.set_target_spirv)(options, SPIRV_VERSION);
        (api.set_optimization_level)(options, OPTIMIZATION_LEVEL);
        for (name, value) in defines {
            (api.add_macro_definition)(
                options,
                name.as_ptr() as *const c_char,
                name.len(),
                value.as_ptr() as *const c_char,
                value.len(),
            );
        }
        let includes_ref: &Includes<'_> = includes;
        (api.set_include_callbacks)(
            options,
            resolve_include,
            release_include,
            &includes_ref as *const &Includes<'_> as *mut c_void,
        );
        let result = (api.compile_into_spv)(
            compiler,
            source.as_ptr() as *const c_char,
            source.len(),
            COMPUTE_SHADER,
            file_name.as_ptr(),
            entry.as_ptr(),
            options,
        );
        let outcome = if result.is_null() {
            Err(Error::Internal("shaderc returned no result".into()))
        } else if (api.result_get_status)(result) != STATUS_SUCCESS {
            let message = (api.result_get_error_message)(result);
            let message = if message.is_null() {
                String::from("(no message)")
            } else {
                std::ffi::CStr::from_ptr(message).to_string_lossy().into_owned()
            };
            Err(Error::CompileError(message.trim_end().to_string()))
        } else {
            let length = (api.result_get_length)(result);
            let bytes = (api.result_get_bytes)(result) as *const u8;
            if bytes.is_null() || length % 4 != 0 {
                Err(Error::Internal("shaderc returned malformed SPIR-V".into()))
            } else {
                let bytes = std::slice::from_raw_parts(bytes, length);
                Ok(bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect())
            }
        };
        (api.result_release)(result);
        (api.options_release)(options);
        (api.compiler_release)(compiler);
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The enum values the configuration maps to are shaderc's for Vulkan 1.2, SPIR-V 1.5 and
    /// the performance level.
    #[test]
    fn options_are_the_configurations() {
        assert_eq!(ENV_VERSION_VULKAN, (1 << 22) | (2 << 12)); // shaderc_env_version_vulkan_1_2
        assert_eq!(SPIRV_VERSION, 0x010500); // shaderc_spirv_version_1_5
        assert_eq!(OPTIMIZATION_LEVEL, 2); // shaderc_optimization_level_performance
    }
}
