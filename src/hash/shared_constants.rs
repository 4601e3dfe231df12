//! The constants the hash map shares with its kernels: `glsl/generated/hash.glsl` (included by
//! glsl/hash/hash_common.glsl for apply.comp, and by reclaim.comp), rendered from this list
//! (src/core/shaders/shared_constants.rs).

use super::apply::{APPLY_OP_MASK, APPLY_RESERVE_ONLY};
use super::reclaim::{
    RECLAIM_CHECK, RECLAIM_MARK, RECLAIM_MARKED, RECLAIM_MOVE, RECLAIM_MOVE_KEY_LAST, RECLAIM_SWEEP,
    RECLAIM_UNMARK,
};
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};
use crate::ReduceOp;

/// `glsl/generated/hash.glsl`.
pub(crate) const HASH: GeneratedHeader = GeneratedHeader {
    file: "hash",
    source: "src/hash/shared_constants.rs",
    summary: "The insert-or-apply kernels' mode bits; the reclaim's passes and mark.",
    constants: &[
        GlslConstant::uint("APPLY_OP_SUM", ReduceOp::Sum as u32),
        GlslConstant::uint("APPLY_OP_MIN", ReduceOp::Min as u32),
        GlslConstant::uint("APPLY_OP_MAX", ReduceOp::Max as u32),
        GlslConstant::uint("APPLY_OP_MASK", APPLY_OP_MASK),
        GlslConstant::uint("APPLY_RESERVE_ONLY", APPLY_RESERVE_ONLY),
        GlslConstant::uint("RECLAIM_CHECK", RECLAIM_CHECK),
        GlslConstant::uint("RECLAIM_UNMARK", RECLAIM_UNMARK),
        GlslConstant::uint("RECLAIM_MARK", RECLAIM_MARK),
        GlslConstant::uint("RECLAIM_SWEEP", RECLAIM_SWEEP),
        GlslConstant::uint("RECLAIM_MOVE", RECLAIM_MOVE),
        GlslConstant::uint("RECLAIM_MOVE_KEY_LAST", RECLAIM_MOVE_KEY_LAST),
        GlslConstant::uint("RECLAIM_MARKED", RECLAIM_MARKED),
    ],
};
