//! The constants the segmented sort shares with its kernels: `glsl/generated/segmented_sort.glsl`
//! (included by glsl/segmented_sort/segsort_common.glsl), rendered from this list
//! (src/core/shaders/shared_constants.rs).

use super::kernels::{NO_TAG, PASS_COUNT, PASS_PARTITION, PASS_SEGMENT_TABLE};
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};

/// `glsl/generated/segmented_sort.glsl`.
pub(crate) const SEGMENTED_SORT: GeneratedHeader = GeneratedHeader {
    file: "segmented_sort",
    source: "src/segmented_sort/shared_constants.rs",
    summary: "The segmented sort's partition passes and padding tag.",
    constants: &[
        GlslConstant::uint("SEGSORT_PASS_COUNT", PASS_COUNT),
        GlslConstant::uint("SEGSORT_PASS_PARTITION", PASS_PARTITION),
        GlslConstant::uint("SEGSORT_PASS_SEGMENT_TABLE", PASS_SEGMENT_TABLE),
        GlslConstant::uint("SEGSORT_NO_TAG", NO_TAG),
    ],
};
