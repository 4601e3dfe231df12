//! The constants the hash map shares with its kernels: `glsl/generated/hash.glsl` (included by
//! glsl/hash/hash_common.glsl for apply.comp), rendered from this list
//! (src/core/shaders/shared_constants.rs).

use super::apply::{APPLY_OP_MASK, APPLY_RESERVE_ONLY};
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};
use crate::ReduceOp;

/// `glsl/generated/hash.glsl`.
pub(crate) const HASH: GeneratedHeader = GeneratedHeader {
    file: "hash",
    source: "src/hash/shared_constants.rs",
    summary: "The insert-or-apply kernels' mode bits and shared table.",
    constants: &[
        GlslConstant::uint("APPLY_OP_SUM", ReduceOp::Sum as u32),
        GlslConstant::uint("APPLY_OP_MIN", ReduceOp::Min as u32),
        GlslConstant::uint("APPLY_OP_MAX", ReduceOp::Max as u32),
        GlslConstant::uint("APPLY_OP_MASK", APPLY_OP_MASK),
        GlslConstant::uint("APPLY_RESERVE_ONLY", APPLY_RESERVE_ONLY),
    ],
};
