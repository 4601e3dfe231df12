//! The constants the multisplit shares with its kernels: `glsl/generated/split.glsl` (included
//! by glsl/split/split_common.glsl) and `glsl/generated/bucket_fn.glsl` (glsl/common/bucket_fn.glsl,
//! which the sort's bucket hook includes too), rendered from these lists
//! (src/core/shaders/shared_constants.rs).

use super::desc::{MAX_BUCKETS, STATUS_BAD_BUCKET, STATUS_INCONSISTENT};
use super::plan::{SPLITTERS_PLAIN_MAX, SPLIT_FLAG_TOTAL_STATUS, SPLIT_KEY_ORDER_INDEXED, STATUS_BYTES};
use super::tiles::*;
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};

/// `glsl/generated/bucket_fn.glsl`.
pub(crate) const BUCKET_FN: GeneratedHeader = GeneratedHeader {
    file: "bucket_fn",
    source: "src/split/shared_constants.rs",
    summary: "The bucket functions' limits and status bits (the multisplit and the sort's bucket hook).",
    constants: &[
        GlslConstant::uint("MAX_ID_BITS", MAX_BUCKETS.trailing_zeros()),
        GlslConstant::uint("SPLITTERS_PLAIN_MAX", SPLITTERS_PLAIN_MAX),
        GlslConstant::uint("STATUS_BAD_BUCKET", STATUS_BAD_BUCKET),
        GlslConstant::uint("STATUS_INCONSISTENT", STATUS_INCONSISTENT),
    ],
};

/// `glsl/generated/split.glsl`.
pub(crate) const SPLIT: GeneratedHeader = GeneratedHeader {
    file: "split",
    source: "src/split/shared_constants.rs",
    summary: "The multisplit's push flags, scratch layout, key-order bits and tile-variant bits.",
    constants: &[
        GlslConstant::uint("SPLIT_FLAG_TOTAL_STATUS", SPLIT_FLAG_TOTAL_STATUS),
        GlslConstant::uint64("SCAN_STATE_OFFSET", STATUS_BYTES),
        GlslConstant::uint("SPLIT_KEY_ORDER_INDEXED", SPLIT_KEY_ORDER_INDEXED),
        GlslConstant::uint("SMALL_WORDS", super::choice::SMALL_WORDS as u32),
        GlslConstant::uint("TILE_VARIANT_STAGED", TILE_VARIANT_STAGED),
        GlslConstant::uint("TILE_VARIANT_REGISTERS", TILE_VARIANT_REGISTERS),
        GlslConstant::uint("TILE_VARIANT_SUBGROUP_STAGED", TILE_VARIANT_SUBGROUP_STAGED),
        GlslConstant::uint("TILE_VARIANT_COUNT_REGISTERS", TILE_VARIANT_COUNT_REGISTERS),
        GlslConstant::int("TILE_VARIANT_ID_BITS_SHIFT", TILE_VARIANT_ID_BITS_SHIFT),
        GlslConstant::uint("TILE_VARIANT_ID_BITS_MASK", TILE_VARIANT_ID_BITS_MASK),
        GlslConstant::int("TILE_VARIANT_TILES_SHIFT", TILE_VARIANT_TILES_SHIFT),
        GlslConstant::uint("TILE_VARIANT_TILES_MASK", TILE_VARIANT_TILES_MASK),
        GlslConstant::int("TILE_VARIANT_FIRST_ORDER_SHIFT", TILE_VARIANT_FIRST_ORDER_SHIFT),
        GlslConstant::uint("TILE_VARIANT_FIRST_ORDER_MASK", TILE_VARIANT_FIRST_ORDER_MASK),
        GlslConstant::uint("TILE_VARIANT_SUBGROUP_POSITIONS", TILE_VARIANT_SUBGROUP_POSITIONS),
        GlslConstant::uint("TILE_VARIANT_SHUFFLES_FIRST", TILE_VARIANT_SHUFFLES_FIRST),
        GlslConstant::uint("TILE_VARIANT_MATCH_TABLE", TILE_VARIANT_MATCH_TABLE),
    ],
};
