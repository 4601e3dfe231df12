//! The safe path (glsl/sort/upsweep.comp, a scan of the block counts, glsl/sort/downsweep.comp):
//! no workgroup waits on another.

use super::geometry::blocking;
use super::record::Pass;
use super::{SortPush, ALIGNMENT, MAX_BLOCKS, SCRATCH_RING};
use crate::core::buffer::{BufferRange, ElementCount};
use crate::core::shaders::SortKernel;
use crate::error::Result;
use crate::scan::{ScanArgs, ScanPlan};

/// Per digit pass: count per block, exclusive scan of the digit-major block counts in place,
/// rank and scatter per block.
pub(super) fn record(pass: &Pass, mut push: SortPush, scratch: &BufferRange, scan: &ScanPlan) -> Result<()> {
    let upsweep = pass
        .ctx
        .kernel(pass.keys_shader(SortKernel::Upsweep)?, pass.spec)?;
    let downsweep = pass.ctx.kernel(pass.shader(SortKernel::Downsweep)?, pass.spec)?;
    let (blocks, per) = blocking(pass.tiles, MAX_BLOCKS);
    push.blocks = blocks as u32;
    push.tiles_per_block = per as u32;
    let counts_bytes = 256 * blocks * 4;
    let counts = scratch.part(SCRATCH_RING, counts_bytes);
    let scan_offset = SCRATCH_RING + counts_bytes.next_multiple_of(ALIGNMENT);
    let scan_args = ScanArgs {
        input: counts,
        output: counts,
        scratch: scratch.part(scan_offset, scan.memory_requirements().scratch.size),
        count: ElementCount::Direct(256 * blocks),
    };
    for p in 0..push.pass_count {
        unsafe {
            if p > 0 {
                pass.ctx.compute_to_compute(pass.cmd);
            }
            pass.dispatch(upsweep, &push, blocks as u32);
            pass.ctx.compute_to_compute(pass.cmd);
            scan.record(pass.cmd, &scan_args)?;
            pass.ctx.compute_to_compute(pass.cmd);
            pass.dispatch(downsweep, &push, blocks as u32);
        }
        if p + 1 < push.pass_count {
            Pass::next_pass(&mut push);
        }
    }
    Ok(())
}
