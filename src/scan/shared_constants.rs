//! The constants the scan shares with its kernels: `glsl/generated/scan.glsl` (included by
//! glsl/scan/scan_common.glsl), rendered from this list (src/core/shaders/shared_constants.rs).

use super::{SCAN_FLAG_KEEP_SCRATCH_ZEROED, SCAN_FLAG_WORKGROUP_LOOKBACK};
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};

/// `glsl/generated/scan.glsl`.
pub(crate) const SCAN: GeneratedHeader = GeneratedHeader {
    file: "scan",
    source: "src/scan/shared_constants.rs",
    summary: "The scan's push flags.",
    constants: &[
        GlslConstant::uint("SCAN_FLAG_KEEP_SCRATCH_ZEROED", SCAN_FLAG_KEEP_SCRATCH_ZEROED),
        GlslConstant::uint("SCAN_FLAG_WORKGROUP_LOOKBACK", SCAN_FLAG_WORKGROUP_LOOKBACK),
    ],
};
