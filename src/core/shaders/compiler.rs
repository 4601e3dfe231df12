//! The GLSL compiler configuration, one for build time and run time: `cargo xtask shaders`
//! passes it to glslc (xtask/src/main.rs includes this file with `#[path]`), and the run-time
//! compilation of GLSL bucket functions (src/split/glsl.rs) to libshaderc (src/split/shaderc.rs).
//! It holds the target, the optimization, the include directories and the GLSL files the
//! library embeds for the run-time compiler, which resolves their `#include`s by glslc's rule
//! ([`resolve_include`]). Plain `core`/`alloc` code without crate paths: it compiles in both
//! crates.

/// The directory of the GLSL sources, relative to the workspace root. Every path below is
/// relative to it.
pub const GLSL_DIR: &str = "glsl";

/// Every vkalgo shader is a compute shader (glslc `-fshader-stage=compute`).
pub const STAGE: &str = "compute";

/// The Vulkan version the SPIR-V targets, (major, minor) (glslc `--target-env=vulkan1.2`).
pub const TARGET_VULKAN: (u32, u32) = (1, 2);

/// The SPIR-V version, (major, minor) (glslc `--target-spv=spv1.5`).
pub const SPIRV_VERSION: (u32, u32) = (1, 5);

/// Optimized for speed (glslc `-O`; libshaderc's performance level).
pub const OPTIMIZE: bool = true;

/// The include directories (glslc `-I`), searched in order after the including file's own
/// directory.
pub const INCLUDE_DIRS: &[&str] = &["common", "public"];

/// glslc's options for this configuration, before the defines, the output and the input (the
/// include directories relative to the workspace root, glslc's working directory).
#[allow(dead_code)] // xtask's half of the configuration
pub fn glslc_args() -> Vec<String> {
    let mut args = vec![
        format!("-fshader-stage={STAGE}"),
        format!("--target-env=vulkan{}.{}", TARGET_VULKAN.0, TARGET_VULKAN.1),
        format!("--target-spv=spv{}.{}", SPIRV_VERSION.0, SPIRV_VERSION.1),
    ];
    if OPTIMIZE {
        args.push("-O".to_string());
    }
    args.extend(INCLUDE_DIRS.iter().map(|dir| format!("-I{GLSL_DIR}/{dir}")));
    args
}

/// `(path, contents)` of a file of glsl/, embedded at its path.
macro_rules! embed {
    ($path:literal) => {
        ($path, include_str!(concat!("../../../glsl/", $path)))
    };
}

/// The GLSL files the run-time compiler reads: the passes a GLSL bucket function or a select
/// predicate is compiled into and every file they include (the caller's function itself, "vkalgo_bucket.glsl", comes
/// with the compile). A test in src/split/glsl.rs checks that every include of the passes
/// resolves here.
pub const EMBEDDED: &[(&str, &str)] = &[
    embed!("common/bucket_fn.glsl"),
    embed!("common/last_workgroup.glsl"),
    embed!("common/lookback.glsl"),
    embed!("common/tile_ticket.glsl"),
    embed!("common/vkalgo.glsl"),
    embed!("common/workgroup_scan.glsl"),
    embed!("generated/bucket_fn.glsl"),
    embed!("generated/histogram.glsl"),
    embed!("generated/select.glsl"),
    embed!("generated/sort.glsl"),
    embed!("generated/split.glsl"),
    embed!("histogram/histogram.comp"),
    embed!("select/count.comp"),
    embed!("select/lookback.comp"),
    embed!("select/scatter.comp"),
    embed!("select/select_common.glsl"),
    embed!("sort/histogram.comp"),
    embed!("sort/onesweep.comp"),
    embed!("sort/sort_common.glsl"),
    embed!("split/bucket_starts.comp"),
    embed!("split/histogram.comp"),
    embed!("split/scatter.comp"),
    embed!("split/small.comp"),
    embed!("split/split_common.glsl"),
    embed!("split/tile_count.comp"),
    embed!("split/tile_scatter.comp"),
];

/// The embedded file at `path` (relative to glsl/, as in [`EMBEDDED`]).
pub fn embedded(path: &str) -> Option<&'static str> {
    EMBEDDED.iter().find(|(p, _)| *p == path).map(|(_, text)| *text)
}

/// `path` without `.` and `..` components, or `None` where it leaves the root.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// The paths glslc tries for `#include "requested"` (`relative`) or `#include <requested>` in
/// the file `requesting`, in its order: a quoted name relative to the including file's
/// directory first, then each include directory.
pub fn include_candidates(requesting: &str, requested: &str, relative: bool) -> Vec<String> {
    let mut candidates = Vec::new();
    if relative {
        let dir = requesting.rfind('/').map_or("", |slash| &requesting[..=slash]);
        candidates.extend(normalize(&format!("{dir}{requested}")));
    }
    for dir in INCLUDE_DIRS {
        candidates.extend(normalize(&format!("{dir}/{requested}")));
    }
    candidates
}

/// The embedded file an include names, by glslc's rule ([`include_candidates`]): its path
/// (the name it has in messages, and the directory its own includes are relative to) and its
/// contents; `None` where no embedded file answers.
pub fn resolve_include(requesting: &str, requested: &str, relative: bool) -> Option<(String, &'static str)> {
    include_candidates(requesting, requested, relative)
        .into_iter()
        .find_map(|path| embedded(&path).map(|text| (path, text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The options `cargo xtask shaders` has always passed glslc (the pack depends on them).
    #[test]
    fn glslc_args_are_the_packs() {
        assert_eq!(
            glslc_args(),
            [
                "-fshader-stage=compute",
                "--target-env=vulkan1.2",
                "--target-spv=spv1.5",
                "-O",
                "-Iglsl/common",
                "-Iglsl/public",
            ]
        );
    }

    #[test]
    fn includes_resolve_as_glslc_does() {
        let found =
            |requesting, requested| resolve_include(requesting, requested, true).map(|(path, _)| path);
        // Relative to the including file's directory.
        assert_eq!(
            found("sort/sort_common.glsl", "../common/vkalgo.glsl").as_deref(),
            Some("common/vkalgo.glsl")
        );
        assert_eq!(
            found("common/workgroup_scan.glsl", "vkalgo.glsl").as_deref(),
            Some("common/vkalgo.glsl")
        );
        assert_eq!(
            found("split/histogram.comp", "split_common.glsl").as_deref(),
            Some("split/split_common.glsl")
        );
        // Else in the include directories.
        assert_eq!(
            found("sort/onesweep.comp", "bucket_fn.glsl").as_deref(),
            Some("common/bucket_fn.glsl")
        );
        assert_eq!(
            found("vkalgo_bucket.glsl", "vkalgo.glsl").as_deref(),
            Some("common/vkalgo.glsl")
        );
        // A file of another directory is not found by its bare name; nothing leaves the root.
        assert_eq!(found("sort/onesweep.comp", "split_common.glsl"), None);
        assert_eq!(
            found("sort/onesweep.comp", "../../glsl/sort/sort_common.glsl"),
            None
        );
        // `#include <...>` searches the include directories only.
        assert_eq!(
            resolve_include("split/histogram.comp", "split_common.glsl", false),
            None
        );
        assert_eq!(
            include_candidates("split/histogram.comp", "x.glsl", true),
            ["split/x.glsl", "common/x.glsl", "public/x.glsl"]
        );
    }

    #[test]
    fn embedded_paths_are_normal() {
        for (path, text) in EMBEDDED {
            assert_eq!(normalize(path).as_deref(), Some(*path));
            assert!(!text.is_empty(), "{path}");
        }
    }
}
