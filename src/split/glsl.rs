//! Run-time compilation of GLSL bucket functions: the caller's source is included as
//! "vkalgo_bucket.glsl" into the histogram, scatter and small passes (glsl/split/, embedded here) and
//! compiled with shaderc.
//!
//! Caching: the SPIR-V of each (source text, key type, value type) is compiled once per
//! process and kept for the process's lifetime (a few tens of KiB per distinct source), so it
//! can serve as a `&'static` shader; pipelines are created from it once per context and
//! destroyed with the context (the context's pipeline map, keyed by the shader's unique name).
//! A second plan with the same source therefore compiles nothing.

use super::ShaderSource;
use crate::error::{Error, Result};
use crate::sort::{KeyType, ValueType};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The embedded sources the run-time permutations include.
const COMMON: &str = include_str!("../../glsl/common/vkalgo.glsl");
const SPLIT_COMMON: &str = include_str!("../../glsl/split/split_common.glsl");
const HISTOGRAM: &str = include_str!("../../glsl/split/histogram.comp");
const SCATTER: &str = include_str!("../../glsl/split/scatter.comp");
const SMALL: &str = include_str!("../../glsl/split/small.comp");
const WORKGROUP_SCAN: &str = include_str!("../../glsl/common/workgroup_scan.glsl");

/// The name under which the caller's source is included (it appears in compile errors).
const USER_FILE: &str = "vkalgo_bucket.glsl";

type CacheKey = (String, KeyType, ValueType);
/// (histogram, scatter, small) of one source and pair of types.
pub(super) type Compiled = (
    &'static ShaderSource,
    &'static ShaderSource,
    &'static ShaderSource,
);

static CACHE: Mutex<Option<HashMap<CacheKey, Compiled>>> = Mutex::new(None);
static COMPILATIONS: AtomicU64 = AtomicU64::new(0);

/// How many GLSL bucket functions this process has compiled (each source once per key and
/// value type): lets tests prove that a repeated source compiles nothing.
#[doc(hidden)]
pub fn glsl_compilations() -> u64 {
    COMPILATIONS.load(Ordering::Relaxed)
}

/// The histogram and scatter shaders of `source` for these types, compiled on first use.
pub(super) fn compile(source: &str, key_type: KeyType, value_type: ValueType) -> Result<Compiled> {
    if source.contains('\0') {
        return Err(Error::invalid(
            "multisplit: the GLSL source contains a NUL character",
        ));
    }
    let key = (source.to_string(), key_type, value_type);
    let mut cache = CACHE
        .lock()
        .map_err(|_| Error::Internal("multisplit: GLSL cache poisoned".into()))?;
    let cache = cache.get_or_insert_with(HashMap::new);
    if let Some(found) = cache.get(&key) {
        return Ok(*found);
    }
    let id = COMPILATIONS.fetch_add(1, Ordering::Relaxed);
    let histogram = compile_pass("histogram", HISTOGRAM, source, key_type, ValueType::None, id)?;
    let scatter = compile_pass("scatter", SCATTER, source, key_type, value_type, id)?;
    let small = compile_pass("small", SMALL, source, key_type, value_type, id)?;
    cache.insert(key, (histogram, scatter, small));
    Ok((histogram, scatter, small))
}

fn compile_pass(
    pass: &str,
    main: &str,
    user: &str,
    key_type: KeyType,
    value_type: ValueType,
    id: u64,
) -> Result<&'static ShaderSource> {
    let compiler = shaderc::Compiler::new()
        .map_err(|e| Error::Internal(format!("multisplit: shaderc compiler unavailable: {e}")))?;
    let mut options = shaderc::CompileOptions::new()
        .map_err(|e| Error::Internal(format!("multisplit: shaderc options unavailable: {e}")))?;
    options.set_target_env(shaderc::TargetEnv::Vulkan, shaderc::EnvVersion::Vulkan1_2 as u32);
    options.set_target_spirv(shaderc::SpirvVersion::V1_5);
    options.set_optimization_level(shaderc::OptimizationLevel::Performance);
    options.add_macro_definition("KEY_BITS", Some(&key_type.bits().to_string()));
    options.add_macro_definition("VALUE_WORDS", Some(&(value_type as u32).to_string()));
    options.add_macro_definition("BUCKET_FN", Some("3"));
    options.add_macro_definition("KEY_TYPE_CODE", Some(&(key_type as u32).to_string()));
    let user = user.to_string();
    options.set_include_callback(move |requested, _kind, _requester, _depth| {
        let content = match requested {
            "split_common.glsl" => SPLIT_COMMON,
            "../common/vkalgo.glsl" | "vkalgo.glsl" => COMMON,
            "../common/workgroup_scan.glsl" => WORKGROUP_SCAN,
            USER_FILE => user.as_str(),
            other => return Err(format!("no include file {other}")),
        };
        Ok(shaderc::ResolvedInclude {
            resolved_name: requested.to_string(),
            content: content.to_string(),
        })
    });
    let artifact = compiler
        .compile_into_spirv(
            main,
            shaderc::ShaderKind::Compute,
            &format!("split/{pass}.comp"),
            "main",
            Some(&options),
        )
        .map_err(|e| Error::CompileError(format!("multisplit GLSL bucket function: {e}")))?;
    let spirv: &'static [u8] = Box::leak(artifact.as_binary_u8().to_vec().into_boxed_slice());
    let name: &'static str = Box::leak(
        format!(
            "split_glsl{id}_{pass}_k{}_v{}",
            key_type as u32, value_type as u32
        )
        .into_boxed_str(),
    );
    Ok(Box::leak(Box::new(ShaderSource { name, spirv })))
}
