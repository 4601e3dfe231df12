//! Single-pass scan with decoupled look-back (glsl/scan/lookback.comp).

use super::{Pass, ScanPush, LOOKBACK_HEADER_BYTES};
use crate::core::buffer::BufferRange;
use crate::core::shaders;
use crate::error::Result;

/// Clears the tile counter and the status words (unless the plan keeps its scratch zeroed),
/// then scans in one dispatch of `tiles` workgroups (tile ids come from the counter, not the
/// workgroup id).
pub(super) fn record(
    pass: &Pass,
    push: ScanPush,
    tiles: u64,
    scratch: &BufferRange,
    zeroed: bool,
) -> Result<()> {
    let kernel = pass.ctx.kernel(
        pass.shader(&shaders::SCAN_LOOKBACK_VEC4, &shaders::SCAN_LOOKBACK_SCALAR),
        pass.spec,
    )?;
    let clear_bytes = LOOKBACK_HEADER_BYTES + tiles * 8;
    unsafe {
        if !zeroed {
            pass.ctx
                .device
                .cmd_fill_buffer(pass.cmd, scratch.buffer, scratch.offset, clear_bytes, 0);
            pass.ctx.transfer_to_compute(pass.cmd);
        }
        pass.ctx.dispatch(pass.cmd, kernel, &push, tiles as u32);
    }
    Ok(())
}
