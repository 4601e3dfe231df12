//! The constants the reduce shares with its kernel: `glsl/generated/reduce.glsl` (included by
//! glsl/reduce/reduce.comp), rendered from this list (src/core/shaders/shared_constants.rs).

use super::plan::SCRATCH_PARTIALS;
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};
use crate::ReduceOp;

/// `glsl/generated/reduce.glsl`.
pub(crate) const REDUCE: GeneratedHeader = GeneratedHeader {
    file: "reduce",
    source: "src/reduce/shared_constants.rs",
    summary: "The reduce's operation codes and scratch layout.",
    constants: &[
        GlslConstant::uint("REDUCE_OP_SUM", ReduceOp::Sum as u32),
        GlslConstant::uint("REDUCE_OP_MIN", ReduceOp::Min as u32),
        GlslConstant::uint("REDUCE_OP_MAX", ReduceOp::Max as u32),
        GlslConstant::uint64("REDUCE_SCRATCH_PARTIALS", SCRATCH_PARTIALS),
    ],
};
