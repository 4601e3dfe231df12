//! The constants the select shares with its kernels: `glsl/generated/select.glsl` (included by
//! glsl/select/select_common.glsl), rendered from this list (src/core/shaders/shared_constants.rs).

use super::plan::{MODE_FLAGGED, MODE_UNIQUE, SCRATCH_STATUS};
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};

/// `glsl/generated/select.glsl`.
pub(crate) const SELECT: GeneratedHeader = GeneratedHeader {
    file: "select",
    source: "src/select/shared_constants.rs",
    summary: "The select's mode codes, options and look-back scratch layout.",
    constants: &[
        GlslConstant::uint("SELECT_MODE_FLAGGED", MODE_FLAGGED),
        GlslConstant::uint("SELECT_MODE_UNIQUE", MODE_UNIQUE),
        GlslConstant::uint64("SELECT_SCRATCH_STATUS", SCRATCH_STATUS),
    ],
};
