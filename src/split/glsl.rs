//! Run-time compilation of GLSL bucket functions: the caller's source is included as
//! "vkalgo_bucket.glsl" into the passes a plan records (embedded with the files they include:
//! src/core/shaders/compiler.rs) and compiled with libshaderc, loaded at run time (`shaderc.rs`),
//! in the configuration the build uses.
//!
//! Caching: the SPIR-V of each (source text, key type, value type, pass) is compiled once per
//! process and kept for the process's lifetime (a few tens of KiB per distinct source), so it
//! can serve as a `&'static` shader; pipelines are created from it once per context and
//! destroyed with the context (the context's pipeline map, keyed by the shader's unique name).
//! A second plan with the same source therefore compiles nothing.
//!
//! Other rooms compile their passes with a caller's GLSL through [`compile_external`] (the
//! select's predicate): the same compiler, includes and cache.

use super::shaderc;
use super::ShaderSource;
use crate::core::shaders::{compiler, SplitKernel};
use crate::error::{Error, Result};
use crate::sort::{KeyType, ValueType};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The name under which the caller's source is included (it appears in compile errors): a
/// file of an include directory of its own, searched after the embedded files.
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
    /// glsl/histogram/histogram.comp (the histogram's count, on the multisplit's bucket
    /// functions; keys only)
    KeyHistogram,
}

impl Pass {
    /// Every pass.
    #[cfg(test)]
    const ALL: [Pass; 9] = [
        Pass::Histogram,
        Pass::Scatter,
        Pass::Small,
        Pass::TileCount,
        Pass::TileScatter,
        Pass::OnesweepHistogram,
        Pass::Onesweep,
        Pass::BucketStarts,
        Pass::KeyHistogram,
    ];

    /// The pass's name (in its shader's name) and its source's path (relative to glsl/, an
    /// embedded file of src/core/shaders/compiler.rs).
    fn name_and_path(self) -> (&'static str, &'static str) {
        match self {
            Pass::Histogram => ("histogram", "split/histogram.comp"),
            Pass::Scatter => ("scatter", "split/scatter.comp"),
            Pass::Small => ("small", "split/small.comp"),
            Pass::TileCount => ("tile_count", "split/tile_count.comp"),
            Pass::TileScatter => ("tile_scatter", "split/tile_scatter.comp"),
            Pass::OnesweepHistogram => ("onesweep_histogram", "sort/histogram.comp"),
            Pass::Onesweep => ("onesweep", "sort/onesweep.comp"),
            Pass::BucketStarts => ("bucket_starts", "split/bucket_starts.comp"),
            Pass::KeyHistogram => ("key_histogram", "histogram/histogram.comp"),
        }
    }

    /// Whether the pass is one of the sort's kernels (compiled with SPLIT_BUCKETS).
    fn is_sort_kernel(self) -> bool {
        matches!(self, Pass::OnesweepHistogram | Pass::Onesweep)
    }

    /// The built-in permutations' kernel of this pass (`None`: not a multisplit kernel).
    pub(super) fn kernel(self) -> Option<SplitKernel> {
        Some(match self {
            Pass::Histogram => SplitKernel::Histogram,
            Pass::Scatter => SplitKernel::Scatter,
            Pass::Small => SplitKernel::Small,
            Pass::TileCount => SplitKernel::TileCount,
            Pass::TileScatter => SplitKernel::TileScatter,
            Pass::OnesweepHistogram => SplitKernel::OnesweepHistogram,
            Pass::Onesweep => SplitKernel::Onesweep,
            Pass::BucketStarts => SplitKernel::BucketStarts,
            Pass::KeyHistogram => return None,
        })
    }

    /// Whether the pass moves values (else it is compiled once for keys only).
    pub(super) fn moves_values(self) -> bool {
        !matches!(
            self,
            Pass::Histogram
                | Pass::TileCount
                | Pass::OnesweepHistogram
                | Pass::BucketStarts
                | Pass::KeyHistogram
        )
    }
}

/// (source, key type, value type, the pass's unique name).
type CacheKey = (String, KeyType, ValueType, &'static str);

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
    let (name, path) = pass.name_and_path();
    let mut defines = vec![
        ("KEY_BITS", key_type.bits().to_string()),
        ("VALUE_WORDS", (value_type as u32).to_string()),
        ("BUCKET_FN", "3".to_string()),
        ("KEY_TYPE_CODE", (key_type as u32).to_string()),
    ];
    if pass.is_sort_kernel() {
        defines.push(("SPLIT_BUCKETS", "1".to_string()));
    }
    let target = Target {
        name,
        path,
        user_file: USER_FILE,
        what: "multisplit GLSL bucket function",
        prefix: "split_glsl",
    };
    cached(source, key_type, value_type, &target, &defines)
}

/// A pass compiled with a caller's GLSL source: its unique name, its source (an embedded file
/// of src/core/shaders/compiler.rs), the name the caller's source is included as, what it is
/// in messages, and the prefix of its shaders' names.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Target {
    /// The pass's name, unique among every pass compiled at run time.
    pub name: &'static str,
    /// Its source, relative to glsl/.
    pub path: &'static str,
    /// The include name of the caller's source.
    pub user_file: &'static str,
    /// What the caller's source is, in errors.
    pub what: &'static str,
    /// The prefix of the compiled shaders' names (debug labels).
    pub prefix: &'static str,
}

/// Another room's pass `target` with the caller's `source` and the macro `defines` (which
/// must determine the SPIR-V together with the source, the key and value types and the pass),
/// compiled on first use and cached as the multisplit's passes are.
pub(crate) fn compile_external(
    source: &str,
    key_type: KeyType,
    value_type: ValueType,
    target: &Target,
    defines: &[(&str, String)],
) -> Result<&'static ShaderSource> {
    if source.contains('\0') {
        return Err(Error::invalid(format!(
            "{}: the GLSL source contains a NUL character",
            target.what
        )));
    }
    cached(source, key_type, value_type, target, defines)
}

fn cached(
    source: &str,
    key_type: KeyType,
    value_type: ValueType,
    target: &Target,
    defines: &[(&str, String)],
) -> Result<&'static ShaderSource> {
    let key = (source.to_string(), key_type, value_type, target.name);
    let mut cache = CACHE
        .lock()
        .map_err(|_| Error::Internal("GLSL cache poisoned".into()))?;
    let cache = cache.get_or_insert_with(HashMap::new);
    if let Some(found) = cache.get(&key) {
        return Ok(*found);
    }
    let id = COMPILATIONS.fetch_add(1, Ordering::Relaxed);
    let shader = compile_pass(target, source, key_type, value_type, id, defines)?;
    cache.insert(key, shader);
    Ok(shader)
}

/// The included file `requested` names in `requesting` (quoted where `relative`): an embedded
/// file by glslc's rule, else the caller's `user` source as `user_file`.
fn resolve_include(
    requesting: &str,
    requested: &str,
    relative: bool,
    user_file: &str,
    user: &str,
) -> std::result::Result<(String, String), String> {
    if let Some((path, text)) = compiler::resolve_include(requesting, requested, relative) {
        return Ok((path, text.to_string()));
    }
    if requested == user_file {
        return Ok((user_file.to_string(), user.to_string()));
    }
    Err(format!("no include file {requested}"))
}

fn compile_pass(
    target: &Target,
    user: &str,
    key_type: KeyType,
    value_type: ValueType,
    id: u64,
    defines: &[(&str, String)],
) -> Result<&'static ShaderSource> {
    let path = target.path;
    let main = compiler::embedded(path)
        .ok_or_else(|| Error::Internal(format!("{}: {path} is not embedded", target.what)))?;
    let includes = |requesting: &str, requested: &str, relative: bool| {
        resolve_include(requesting, requested, relative, target.user_file, user)
    };
    let what = target.what;
    let words = shaderc::compile_compute(main, path, defines, &includes).map_err(|e| match e {
        Error::CompileError(m) => Error::CompileError(format!("{what}: {m}")),
        Error::Unsupported(m) => Error::Unsupported(format!("{what}: {m}")),
        other => other,
    })?;
    let spirv: &'static [u32] = Box::leak(words.into_boxed_slice());
    let name: &'static str = Box::leak(
        format!(
            "{}{id}_{}_k{}_v{}",
            target.prefix, target.name, key_type as u32, value_type as u32
        )
        .into_boxed_str(),
    );
    Ok(Box::leak(Box::new(ShaderSource::compiled(name, spirv))))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `#include` names of a GLSL source (directive lines, whatever their conditions).
    fn includes_of(source: &str) -> Vec<(&str, bool)> {
        source
            .lines()
            .filter_map(|line| line.trim_start().strip_prefix("#include"))
            .map(|rest| {
                let rest = rest.trim();
                let relative = rest.starts_with('"');
                let name = rest.trim_matches(|c| c == '"' || c == '<' || c == '>');
                (name, relative)
            })
            .collect()
    }

    /// Every file the run-time passes include, directly or through others, resolves: to an
    /// embedded file, or to the caller's function; and every embedded file is one of them.
    #[test]
    fn every_include_of_the_passes_resolves() {
        let mut seen: Vec<String> = Vec::new();
        let mut users_found: Vec<&str> = Vec::new();
        let roots = Pass::ALL
            .iter()
            .map(|p| (p.name_and_path().1, USER_FILE))
            .chain(crate::select::GLSL_TARGETS.iter().map(|t| (t.path, t.user_file)));
        let roots: Vec<(&str, &str)> = roots.collect();
        for &(path, user_file) in &roots {
            let mut pending = vec![path.to_string()];
            while let Some(file) = pending.pop() {
                if seen.contains(&file) {
                    continue;
                }
                let text = compiler::embedded(&file).unwrap_or_else(|| panic!("{file} is not embedded"));
                for (name, relative) in includes_of(text) {
                    match resolve_include(&file, name, relative, user_file, "") {
                        Ok((found, _)) if found == user_file => users_found.push(user_file),
                        Ok((found, _)) => pending.push(found),
                        Err(e) => panic!("{path}: {file} includes {name}: {e}"),
                    }
                }
                seen.push(file);
            }
        }
        for (_, user_file) in &roots {
            assert!(users_found.contains(user_file), "no pass includes {user_file}");
        }
        for (path, _) in compiler::EMBEDDED {
            assert!(
                seen.iter().any(|s| s == path),
                "{path} is embedded but no pass reads it"
            );
        }
    }
}
