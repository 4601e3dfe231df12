//! Onesweep (glsl/sort/histogram.comp, glsl/sort/onesweep.comp).

use super::push::histogram_scan_shader;
use super::record::{DigitHook, Pass};
use super::{SortPush, MAX_HISTOGRAM_GROUPS, RING_TILES, SCRATCH_RING};
use crate::core::buffer::BufferRange;
use crate::core::shaders::SortKernel;
use crate::error::Result;

/// Clears the counters, histograms and look-back ring; counts every pass's digits in one read
/// of the keys and turns the counts into digit starts; then one dispatch per digit pass, one
/// workgroup per tile. `hook` (the digit pass's bucket hook, [`DigitHook`]) replaces the
/// histogram and Onesweep kernels with its bucket kernels where it has them, and sends the
/// last pass to its output (its input is only read, so a two-pass sort runs input ->
/// alternate -> output).
pub(super) fn record(
    pass: &Pass,
    mut push: SortPush,
    scratch: &BufferRange,
    hook: Option<&DigitHook>,
) -> Result<()> {
    let (histogram, binning) = match hook.and_then(|h| h.kernels) {
        Some(pair) => pair,
        None => (
            pass.keys_shader(SortKernel::Histogram)?,
            pass.shader(SortKernel::Onesweep)?,
        ),
    };
    let histogram = pass.ctx.kernel(histogram, pass.spec)?;
    let histogram_scan = pass.ctx.kernel(histogram_scan_shader()?, pass.spec)?;
    let binning = pass.ctx.kernel(binning, pass.spec)?;
    let groups = pass.tiles.min(MAX_HISTOGRAM_GROUPS);
    push.tiles_per_block = pass.tiles.div_ceil(groups) as u32;
    let clear_bytes = SCRATCH_RING + RING_TILES * 256 * 8;
    unsafe {
        // A compute clear and a compute-to-compute barrier: cheaper than vkCmdFillBuffer and
        // a transfer-to-compute barrier (src/scan/lookback.rs).
        pass.ctx
            .record_compute_fill(pass.cmd, scratch, (clear_bytes / 4) as u32, 0)?;
        pass.ctx.compute_to_compute(pass.cmd);
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
            if let (Some(hook), true) = (hook, p + 1 == push.pass_count) {
                push.keys_out = hook.keys_out;
                push.values_out = hook.values_out;
            }
            pass.ctx.compute_to_compute(pass.cmd);
            pass.dispatch(binning, &push, pass.tiles as u32);
            if p + 1 < push.pass_count {
                Pass::next_pass(&mut push);
            }
        }
    }
    Ok(())
}
