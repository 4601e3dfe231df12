//! The constants the reduce-by-key shares with its kernels: `glsl/generated/reduce_by_key.glsl`
//! (included by glsl/reduce_by_key/rbk_common.glsl), rendered from this list
//! (src/core/shaders/shared_constants.rs).

use super::plan::{FLAG_AGGREGATE, FLAG_INCLUSIVE, FLAG_NONE, SCRATCH_HEADER};
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};
use crate::ReduceOp;

/// `glsl/generated/reduce_by_key.glsl`.
pub(crate) const REDUCE_BY_KEY: GeneratedHeader = GeneratedHeader {
    file: "reduce_by_key",
    source: "src/reduce_by_key/shared_constants.rs",
    summary: "The reduce-by-key's operation codes, look-back flags, options and scratch header.",
    constants: &[
        GlslConstant::uint("RBK_OP_SUM", ReduceOp::Sum as u32),
        GlslConstant::uint("RBK_OP_MIN", ReduceOp::Min as u32),
        GlslConstant::uint("RBK_OP_MAX", ReduceOp::Max as u32),
        GlslConstant::uint("RBK_FLAG_NONE", FLAG_NONE),
        GlslConstant::uint("RBK_FLAG_AGGREGATE", FLAG_AGGREGATE),
        GlslConstant::uint("RBK_FLAG_INCLUSIVE", FLAG_INCLUSIVE),
        GlslConstant::uint64("RBK_SCRATCH_HEADER", SCRATCH_HEADER),
    ],
};
