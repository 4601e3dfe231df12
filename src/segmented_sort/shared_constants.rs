//! The constants the segmented sort shares with its kernels: `glsl/generated/segmented_sort.glsl`
//! (included by glsl/segmented_sort/segsort_common.glsl), rendered from this list
//! (src/core/shaders/shared_constants.rs).

use super::kernels::{
    NO_TAG, PASS_BLOCK_ARGS, PASS_COUNT, PASS_PARTITION, PASS_ROUND_ARGS, PASS_SEGMENT_TABLE,
    PASS_TINY_FIRST, TINY_LIMIT,
};
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};

/// `glsl/generated/segmented_sort.glsl`.
pub(crate) const SEGMENTED_SORT: GeneratedHeader = GeneratedHeader {
    file: "segmented_sort",
    source: "src/segmented_sort/shared_constants.rs",
    summary: "The segmented sort's partition passes, padding tag and tiny segments' limit.",
    constants: &[
        GlslConstant::uint("SEGSORT_PASS_COUNT", PASS_COUNT),
        GlslConstant::uint("SEGSORT_PASS_PARTITION", PASS_PARTITION),
        GlslConstant::uint("SEGSORT_PASS_SEGMENT_TABLE", PASS_SEGMENT_TABLE),
        GlslConstant::uint("SEGSORT_PASS_ROUND_ARGS", PASS_ROUND_ARGS),
        GlslConstant::uint("SEGSORT_PASS_BLOCK_ARGS", PASS_BLOCK_ARGS),
        GlslConstant::uint("SEGSORT_PASS_TINY_FIRST", PASS_TINY_FIRST),
        GlslConstant::uint("SEGSORT_NO_TAG", NO_TAG),
        GlslConstant::uint("SEGSORT_TINY_LIMIT", TINY_LIMIT as u32),
    ],
};
