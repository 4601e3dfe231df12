//! The constants the merge path shares with its kernels: `glsl/generated/merge.glsl` (included
//! by glsl/merge/merge_common.glsl), rendered from this list
//! (src/core/shaders/shared_constants.rs).

use super::kernels::{MODE_COUNT_TILES, MODE_OFFSETS, MODE_TWO, MODE_TWO_BALANCED, MODE_UNIFORM};
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};
use crate::SetOp;

/// `glsl/generated/merge.glsl`.
pub(crate) const MERGE: GeneratedHeader = GeneratedHeader {
    file: "merge",
    source: "src/merge/shared_constants.rs",
    summary: "The partition kernel's tile-table modes and the set operations' codes.",
    constants: &[
        GlslConstant::uint("MODE_TWO", MODE_TWO),
        GlslConstant::uint("MODE_UNIFORM", MODE_UNIFORM),
        GlslConstant::uint("MODE_OFFSETS", MODE_OFFSETS),
        GlslConstant::uint("MODE_COUNT_TILES", MODE_COUNT_TILES),
        GlslConstant::uint("MODE_TWO_BALANCED", MODE_TWO_BALANCED),
        GlslConstant::uint("SET_AND", SetOp::And as u32),
        GlslConstant::uint("SET_OR", SetOp::Or as u32),
        GlslConstant::uint("SET_ANDNOT", SetOp::AndNot as u32),
        GlslConstant::uint("SET_XOR", SetOp::Xor as u32),
    ],
};
