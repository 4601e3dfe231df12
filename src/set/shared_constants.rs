//! The constants the sets share with their kernels: `glsl/generated/set.glsl` (included by
//! glsl/set/set_common.glsl), rendered from this list (src/core/shaders/shared_constants.rs).

use super::blocks::RUN_PAIR_MAX;
use super::layout::*;
use super::order::{ORDER_MIN_MAX, ORDER_MIN_MAX_RESOLVE, ORDER_RANK, ORDER_SELECT, S_ORDER_TOTAL};
use super::passes::{OFFSET_BLOCK, OFFSET_BLOCKS};
use super::roaring::{ARRAY_MAX, RUN_MAX};
use super::tuning::FILTER_ITEMS;
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};
use crate::SetOp;

/// `glsl/generated/set.glsl`.
pub(crate) const SET: GeneratedHeader = GeneratedHeader {
    file: "set",
    source: "src/set/shared_constants.rs",
    summary: "The sets' chunk and block sizes, directory layout, scratch header, kernel limits, operation codes and order-statistics modes.",
    constants: &[
        GlslConstant::uint("CHUNKS", CHUNKS as u32),
        GlslConstant::uint("ARRAY_MAX", ARRAY_MAX),
        GlslConstant::uint("ARRAY_BLOCK_WORDS", (ARRAY_BLOCK_BYTES / 4) as u32),
        GlslConstant::uint("BITMAP_WORDS", (BITMAP_BLOCK_BYTES / 4) as u32),
        GlslConstant::uint("RUN_SHIFT", RUN_SHIFT),
        GlslConstant::uint("CARD_MASK", CARD_MASK),
        GlslConstant::uint("RUN_MAX", RUN_MAX as u32),
        GlslConstant::uint("OP_AND", SetOp::And as u32),
        GlslConstant::uint("OP_OR", SetOp::Or as u32),
        GlslConstant::uint("OP_ANDNOT", SetOp::AndNot as u32),
        GlslConstant::uint("OP_XOR", SetOp::Xor as u32),
        GlslConstant::uint64("META_DIR", META_DIR),
        GlslConstant::uint("S_WORK", SCRATCH_HEADER as u32),
        GlslConstant::uint("DIR_PACKED_D", DIR_PACKED_D),
        GlslConstant::uint("DIR_PACKED_A", DIR_PACKED_A),
        GlslConstant::uint("DIR_PACKED_B", DIR_PACKED_B),
        GlslConstant::uint("DIR_GROUPS", DIR_GROUPS as u32),
        GlslConstant::uint64("DIR_INDEX_BYTES", DIR_INDEX_BYTES),
        GlslConstant::uint("RUN_PAIR_MAX", RUN_PAIR_MAX),
        GlslConstant::uint("CLASSIFY_ONE_KERNEL", CLASSIFY_ONE_KERNEL),
        GlslConstant::uint("FILTER_ITEMS", FILTER_ITEMS as u32),
        GlslConstant::uint("OFFSET_BLOCK", OFFSET_BLOCK as u32),
        GlslConstant::uint("OFFSET_BLOCKS", OFFSET_BLOCKS),
        GlslConstant::uint("S_ORDER_TOTAL", S_ORDER_TOTAL),
        GlslConstant::uint("ORDER_RANK", ORDER_RANK),
        GlslConstant::uint("ORDER_SELECT", ORDER_SELECT),
        GlslConstant::uint("ORDER_MIN_MAX", ORDER_MIN_MAX),
        GlslConstant::uint("ORDER_MIN_MAX_RESOLVE", ORDER_MIN_MAX_RESOLVE),
    ],
};
