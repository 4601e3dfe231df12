//! Onesweep (glsl/sort/histogram.comp, glsl/sort/onesweep.comp).

use super::{Pass, SortPush, MAX_HISTOGRAM_GROUPS, RING_TILES, SCRATCH_RING};
use crate::core::buffer::BufferRange;
use crate::core::shaders::{self, ShaderSource};
use crate::error::Result;

/// Clears the counters, histograms and look-back ring; counts every pass's digits in one read
/// of the keys and turns the counts into digit starts; then one dispatch per digit pass, one
/// workgroup per tile. `kernels` replaces the histogram and Onesweep kernels (the multisplit's
/// bucket kernels, src/split/onesweep.rs).
pub(super) fn record(
    pass: &Pass,
    mut push: SortPush,
    scratch: &BufferRange,
    kernels: Option<(&'static ShaderSource, &'static ShaderSource)>,
) -> Result<()> {
    let (histogram, binning) = match kernels {
        Some(pair) => pair,
        None => (
            if pass.key_bits == 64 {
                &shaders::SORT_HISTOGRAM_K64
            } else {
                &shaders::SORT_HISTOGRAM_K32
            },
            pass.shader("onesweep")?,
        ),
    };
    let histogram = pass.ctx.kernel(histogram, pass.spec)?;
    let histogram_scan = pass.ctx.kernel(&shaders::SORT_HISTOGRAM_SCAN, pass.spec)?;
    let binning = pass.ctx.kernel(binning, pass.spec)?;
    let groups = pass.tiles.min(MAX_HISTOGRAM_GROUPS);
    push.tiles_per_block = pass.tiles.div_ceil(groups) as u32;
    let clear_bytes = SCRATCH_RING + RING_TILES * 256 * 8;
    unsafe {
        pass.ctx
            .device
            .cmd_fill_buffer(pass.cmd, scratch.buffer, scratch.offset, clear_bytes, 0);
        pass.ctx.transfer_to_compute(pass.cmd);
        pass.dispatch(
            histogram,
            &push,
            pass.tiles.div_ceil(push.tiles_per_block as u64) as u32,
        );
        pass.ctx.compute_to_compute(pass.cmd);
        pass.dispatch(histogram_scan, &push, 1);
        // One tile per workgroup (tile ids come from an atomic counter, not the workgroup id).
        push.tiles_per_block = 1;
        for p in 0..push.pass_count {
            pass.ctx.compute_to_compute(pass.cmd);
            pass.dispatch(binning, &push, pass.tiles as u32);
            if p + 1 < push.pass_count {
                Pass::next_pass(&mut push);
            }
        }
    }
    Ok(())
}
