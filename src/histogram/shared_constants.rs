//! The constants the histogram shares with its kernel: `glsl/generated/histogram.glsl`
//! (included by glsl/histogram/histogram.comp), rendered from this list
//! (src/core/shaders/shared_constants.rs).

use super::plan::{PASS_COUNT, PASS_FINISH, SCRATCH_COUNTS};
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};

/// `glsl/generated/histogram.glsl`.
pub(crate) const HISTOGRAM: GeneratedHeader = GeneratedHeader {
    file: "histogram",
    source: "src/histogram/shared_constants.rs",
    summary: "The histogram's pass codes and scratch layout.",
    constants: &[
        GlslConstant::uint("HISTOGRAM_PASS_COUNT", PASS_COUNT),
        GlslConstant::uint("HISTOGRAM_PASS_FINISH", PASS_FINISH),
        GlslConstant::uint64("HISTOGRAM_SCRATCH_COUNTS", SCRATCH_COUNTS),
    ],
};
