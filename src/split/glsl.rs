//! Run-time compilation of GLSL bucket functions: the caller's source is included as
//! "vkalgo_bucket.glsl" into the passes a plan records (glsl/split/, embedded here) and compiled
//! with libshaderc, loaded at run time (`shaderc.rs`).
//!
//! Caching: the SPIR-V of each (source text, key type, value type, pass) is compiled once per
//! process and kept for the process's lifetime (a few tens of KiB per distinct source), so it
//! can serve as a `&'static` shader; pipelines are created from it once per context and
//! destroyed with the context (the context's pipeline map, keyed by the shader's unique name).
//! A second plan with the same source therefore compiles nothing.

use super::shaderc;
use super::ShaderSource;
use crate::core::shaders::SplitKernel;
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
const TILE_COUNT: &str = include_str!("../../glsl/split/tile_count.comp");
const TILE_SCATTER: &str = include_str!("../../glsl/split/tile_scatter.comp");
const BUCKET_STARTS: &str = include_str!("../../glsl/split/bucket_starts.comp");
const WORKGROUP_SCAN: &str = include_str!("../../glsl/common/workgroup_scan.glsl");
const BUCKET_FN: &str = include_str!("../../glsl/common/bucket_fn.glsl");
const SORT_COMMON: &str = include_str!("../../glsl/sort/sort_common.glsl");
const SORT_HISTOGRAM: &str = include_str!("../../glsl/sort/histogram.comp");
const SORT_ONESWEEP: &str = include_str!("../../glsl/sort/onesweep.comp");

/// The name under which the caller's source is included (it appears in compile errors).
const USER_FILE: &str = "vkalgo_bucket.glsl";

/// A multisplit pass a GLSL bucket function is compiled into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Pass {
    /// glsl/split/histogram.comp (keys only)
    Histogram,
    /// glsl/split/scatter.comp
    Scatter,
    /// glsl/split/small.comp
    Small,
    /// glsl/split/tile_count.comp (keys only)
    TileCount,
    /// glsl/split/tile_scatter.comp
    TileScatter,
    /// glsl/sort/histogram.comp with SPLIT_BUCKETS (the Onesweep split's count; keys only)
    OnesweepHistogram,
    /// glsl/sort/onesweep.comp with SPLIT_BUCKETS (the Onesweep split's pass)
    Onesweep,
    /// glsl/split/bucket_starts.comp (the two-pass Onesweep split's offsets; keys only)
    BucketStarts,
}

impl Pass {
    fn name_and_source(self) -> (&'static str, &'static str) {
        match self {
            Pass::Histogram => ("histogram", HISTOGRAM),
            Pass::Scatter => ("scatter", SCATTER),
            Pass::Small => ("small", SMALL),
            Pass::TileCount => ("tile_count", TILE_COUNT),
            Pass::TileScatter => ("tile_scatter", TILE_SCATTER),
            Pass::OnesweepHistogram => ("onesweep_histogram", SORT_HISTOGRAM),
            Pass::Onesweep => ("onesweep", SORT_ONESWEEP),
            Pass::BucketStarts => ("bucket_starts", BUCKET_STARTS),
        }
    }

    /// Whether the pass is one of the sort's kernels (compiled with SPLIT_BUCKETS).
    fn is_sort_kernel(self) -> bool {
        matches!(self, Pass::OnesweepHistogram | Pass::Onesweep)
    }

    /// The built-in permutations' kernel of this pass.
    pub(super) fn kernel(self) -> SplitKernel {
        match self {
            Pass::Histogram => SplitKernel::Histogram,
            Pass::Scatter => SplitKernel::Scatter,
            Pass::Small => SplitKernel::Small,
            Pass::TileCount => SplitKernel::TileCount,
            Pass::TileScatter => SplitKernel::TileScatter,
            Pass::OnesweepHistogram => SplitKernel::OnesweepHistogram,
            Pass::Onesweep => SplitKernel::Onesweep,
            Pass::BucketStarts => SplitKernel::BucketStarts,
        }
    }

    /// Whether the pass moves values (else it is compiled once for keys only).
    pub(super) fn moves_values(self) -> bool {
        !matches!(
            self,
            Pass::Histogram | Pass::TileCount | Pass::OnesweepHistogram | Pass::BucketStarts
        )
    }
}

type CacheKey = (String, KeyType, ValueType, Pass);

static CACHE: Mutex<Option<HashMap<CacheKey, &'static ShaderSource>>> = Mutex::new(None);
/// Numbers the compiled shaders (unique pipeline names).
static COMPILATIONS: AtomicU64 = AtomicU64::new(0);

/// How many passes this process has compiled with the bucket function `source` (each once per
/// key type, value type and pass): lets tests prove that a repeated source compiles nothing.
#[doc(hidden)]
pub fn glsl_compilations(source: &str) -> u64 {
    CACHE
        .lock()
        .map(|cache| {
            cache
                .as_ref()
                .map_or(0, |c| c.keys().filter(|k| k.0 == source).count() as u64)
        })
        .unwrap_or(0)
}

/// The shader of `pass` with the bucket function `source`, for these types, compiled on first
/// use.
pub(super) fn compile(
    source: &str,
    key_type: KeyType,
    value_type: ValueType,
    pass: Pass,
) -> Result<&'static ShaderSource> {
    if source.contains('\0') {
        return Err(Error::invalid(
            "multisplit: the GLSL source contains a NUL character",
        ));
    }
    let value_type = if pass.moves_values() {
        value_type
    } else {
        ValueType::None
    };
    let key = (source.to_string(), key_type, value_type, pass);
    let mut cache = CACHE
        .lock()
        .map_err(|_| Error::Internal("multisplit: GLSL cache poisoned".into()))?;
    let cache = cache.get_or_insert_with(HashMap::new);
    if let Some(found) = cache.get(&key) {
        return Ok(*found);
    }
    let id = COMPILATIONS.fetch_add(1, Ordering::Relaxed);
    let (name, main) = pass.name_and_source();
    let shader = compile_pass(
        name,
        main,
        source,
        key_type,
        value_type,
        id,
        pass.is_sort_kernel(),
    )?;
    cache.insert(key, shader);
    Ok(shader)
}

fn compile_pass(
    pass: &str,
    main: &str,
    user: &str,
    key_type: KeyType,
    value_type: ValueType,
    id: u64,
    sort_kernel: bool,
) -> Result<&'static ShaderSource> {
    let mut defines = vec![
        ("KEY_BITS", key_type.bits().to_string()),
        ("VALUE_WORDS", (value_type as u32).to_string()),
        ("BUCKET_FN", "3".to_string()),
        ("KEY_TYPE_CODE", (key_type as u32).to_string()),
    ];
    if sort_kernel {
        defines.push(("SPLIT_BUCKETS", "1".to_string()));
    }
    let includes = |requested: &str| -> std::result::Result<String, String> {
        let content = match requested {
            "split_common.glsl" => SPLIT_COMMON,
            "../common/vkalgo.glsl" | "vkalgo.glsl" => COMMON,
            "../common/workgroup_scan.glsl" => WORKGROUP_SCAN,
            "../common/bucket_fn.glsl" => BUCKET_FN,
            "sort_common.glsl" => SORT_COMMON,
            USER_FILE => user,
            other => return Err(format!("no include file {other}")),
        };
        Ok(content.to_string())
    };
    let file_name = format!("{}/{pass}.comp", if sort_kernel { "sort" } else { "split" });
    let words = shaderc::compile_compute(main, &file_name, &defines, &includes).map_err(|e| match e {
        Error::CompileError(m) => Error::CompileError(format!("multisplit GLSL bucket function: {m}")),
        Error::Unsupported(m) => Error::Unsupported(format!("multisplit GLSL bucket function: {m}")),
        other => other,
    })?;
    let spirv: &'static [u32] = Box::leak(words.into_boxed_slice());
    let name: &'static str = Box::leak(
        format!(
            "split_glsl{id}_{pass}_k{}_v{}",
            key_type as u32, value_type as u32
        )
        .into_boxed_str(),
    );
    Ok(Box::leak(Box::new(ShaderSource::compiled(name, spirv))))
}
