//! The constants the radix sort shares with its kernels: `glsl/generated/sort.glsl` (included by
//! glsl/sort/sort_common.glsl), rendered from this list (src/core/shaders/shared_constants.rs).

use super::{ONESWEEP_STATS_OFFSET, RADIX_BITS, RING_TILES, SCRATCH_RING};
use crate::core::shaders::shared_constants::{GeneratedHeader, GlslConstant};

/// `glsl/generated/sort.glsl`.
pub(crate) const SORT: GeneratedHeader = GeneratedHeader {
    file: "sort",
    source: "src/sort/shared_constants.rs",
    summary: "The radix sort's digit width, Onesweep ring and scratch layout.",
    constants: &[
        GlslConstant::uint("RADIX_BITS", RADIX_BITS),
        GlslConstant::uint("RING_TILES", RING_TILES as u32),
        GlslConstant::uint64("SCRATCH_STATS", ONESWEEP_STATS_OFFSET),
        GlslConstant::uint64("SCRATCH_RING", SCRATCH_RING),
    ],
};
