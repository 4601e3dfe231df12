//! The constants the scan shares with its kernels: `glsl/generated/scan.glsl` (included by
//! glsl/scan/scan_common.glsl), rendered from this list (src/core/shaders/shared_constants.rs).

use super::{
    SCAN_FLAG_ACCUMULATOR_BITS, SCAN_FLAG_WORKGROUP_LOOKBACK, TYPED_PASS_DOWNSWEEP, TYPED_PASS_REDUCE,
};
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};

/// `glsl/generated/scan.glsl`.
pub(crate) const SCAN: GeneratedHeader = GeneratedHeader {
    file: "scan",
    source: "src/scan/shared_constants.rs",
    summary: "The scan's push flags and the typed kernel's passes.",
    constants: &[
        GlslConstant::uint("SCAN_FLAG_WORKGROUP_LOOKBACK", SCAN_FLAG_WORKGROUP_LOOKBACK),
        GlslConstant::uint("SCAN_FLAG_ACCUMULATOR_BITS", SCAN_FLAG_ACCUMULATOR_BITS),
        GlslConstant::uint("SCAN_TYPED_PASS_REDUCE", TYPED_PASS_REDUCE),
        GlslConstant::uint("SCAN_TYPED_PASS_DOWNSWEEP", TYPED_PASS_DOWNSWEEP),
    ],
};
