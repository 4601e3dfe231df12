//! The small-N path: one workgroup, every pass, one dispatch. Counts up to the plan's resident
//! limit take glsl/sort/resident.comp (the input read once, every pass in registers and shared
//! memory, the result written once; built twice, the `resident_all` build without a per-step
//! test for counts that use every ranking step); larger ones glsl/sort/small.comp (tile by
//! tile through global memory in every pass).

use super::plan::SortSpec;
use super::record::Pass;
use super::SortPush;
use crate::core::shaders::SortKernel;
use crate::error::Result;

/// One dispatch of one workgroup of the tiled kernel.
pub(super) fn record(pass: &Pass, push: SortPush) -> Result<()> {
    let kernel = pass.ctx.kernel(pass.shader(SortKernel::Small)?, pass.spec)?;
    unsafe { pass.dispatch(kernel, &push, 1) };
    Ok(())
}

/// One dispatch of one workgroup of the resident kernel (its own geometry, `spec`; `kernel`
/// "resident", or "resident_all" for a count that uses every ranking step). It reads keys_in /
/// values_in and writes the result where the plan's result location says: keys_in / values_in
/// after an even number of passes, keys_out / values_out after an odd number.
pub(super) fn record_resident(pass: &Pass, push: SortPush, kernel: SortKernel, spec: SortSpec) -> Result<()> {
    let kernel = pass.ctx.kernel(pass.shader(kernel)?, spec)?;
    unsafe { pass.dispatch(kernel, &push, 1) };
    Ok(())
}
