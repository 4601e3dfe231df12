//! Reduce-then-scan: three passes, no inter-workgroup waiting (glsl/scan/reduce.comp and
//! glsl/scan/downsweep.comp; glsl/scan/typed.comp for the typed scans). Safe on every Vulkan
//! implementation.

use super::{
    partitioning, Pass, ScanPush, SCAN_FLAG_ACCUMULATOR_BITS, TYPED_PASS_DOWNSWEEP, TYPED_PASS_REDUCE,
};
use crate::core::pipelines::Kernel;
use crate::core::shaders;
use crate::error::Result;

/// The kernel that scans partitions from their seeds (the downsweep).
fn downsweep_kernel(pass: &Pass) -> Result<Kernel> {
    match pass.typed {
        Some(typed) => pass.ctx.kernel(typed, pass.spec.pass(TYPED_PASS_DOWNSWEEP)),
        None => pass.ctx.kernel(
            pass.shader(&shaders::SCAN_DOWNSWEEP_VEC4, &shaders::SCAN_DOWNSWEEP_SCALAR),
            pass.spec,
        ),
    }
}

/// One workgroup scans all `tiles` tiles in order (the small path): one dispatch.
pub(super) fn record_single(pass: &Pass, push: ScanPush, tiles: u64) -> Result<()> {
    let downsweep = downsweep_kernel(pass)?;
    let single = ScanPush {
        aux_addr: 0,
        tiles_per_partition: tiles.max(1) as u32,
        num_partitions: 1,
        ..push
    };
    unsafe { pass.ctx.dispatch(pass.cmd, downsweep, &single, 1) };
    Ok(())
}

/// Records reduce (partials), scan of the partials, and the seeded scan of every partition.
/// A single partition needs only the last pass.
pub(super) fn record(pass: &Pass, push: ScanPush, tiles: u64) -> Result<()> {
    let ctx = pass.ctx;
    let (partitions, per_partition) = partitioning(tiles);
    if partitions <= 1 {
        return record_single(pass, push, tiles);
    }
    let downsweep = downsweep_kernel(pass)?;
    let partitioned = ScanPush {
        tiles_per_partition: per_partition as u32,
        num_partitions: partitions as u32,
        ..push
    };
    let (reduce, spine_kernel, spine_flags) = match pass.typed {
        Some(typed) => (
            ctx.kernel(typed, pass.spec.pass(TYPED_PASS_REDUCE))?,
            // The partials are accumulator bits: scanned as they are.
            downsweep,
            SCAN_FLAG_ACCUMULATOR_BITS,
        ),
        None => (
            ctx.kernel(
                pass.shader(&shaders::SCAN_REDUCE_VEC4, &shaders::SCAN_REDUCE_SCALAR),
                pass.spec,
            )?,
            // The partials live at the start of scratch (16-byte aligned), so the vec4 kernel
            // serves.
            ctx.kernel(&shaders::SCAN_DOWNSWEEP_VEC4, pass.spec)?,
            0,
        ),
    };
    let tile = pass.spec.workgroup_size as u64 * pass.spec.vecs_per_thread as u64 * 4;
    let spine = ScanPush {
        input_addr: push.aux_addr,
        output_addr: push.aux_addr,
        aux_addr: 0,
        count_addr: 0,
        count: partitions as u32,
        max_count: partitions as u32,
        inclusive: 0,
        tiles_per_partition: partitions.div_ceil(tile) as u32,
        num_partitions: 1,
        flags: spine_flags,
    };
    unsafe {
        ctx.dispatch(pass.cmd, reduce, &partitioned, partitions as u32);
        ctx.compute_to_compute(pass.cmd);
        ctx.dispatch(pass.cmd, spine_kernel, &spine, 1);
        ctx.compute_to_compute(pass.cmd);
        ctx.dispatch(pass.cmd, downsweep, &partitioned, partitions as u32);
    }
    Ok(())
}
