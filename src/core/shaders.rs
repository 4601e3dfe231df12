//! Embedded SPIR-V of every shader permutation (compiled by build.rs from glsl/).

/// One compiled compute shader permutation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ShaderSource {
    /// Permutation name (also the pipeline's debug name).
    pub name: &'static str,
    /// SPIR-V bytes.
    pub spirv: &'static [u8],
}

include!(concat!(env!("OUT_DIR"), "/shaders.rs"));
