//! Single-pass scan with decoupled look-back (glsl/scan/lookback.comp).

use super::{Pass, ScanPush, LOOKBACK_HEADER_BYTES};
use crate::core::buffer::BufferRange;
use crate::core::shaders;
use crate::error::Result;

/// Clears the look-back header and the status words (unless the plan keeps its scratch
/// zeroed), then scans in one dispatch of `tiles` workgroups (tile t is workgroup t).
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
    let fill = |cmd| unsafe {
        pass.ctx
            .device
            .cmd_fill_buffer(cmd, scratch.buffer, scratch.offset, clear_bytes, 0)
    };
    unsafe {
        if !zeroed {
            // A compute clear: with its compute-to-compute barrier it costs less than a
            // vkCmdFillBuffer and a transfer-to-compute barrier.
            pass.ctx
                .record_compute_fill(pass.cmd, scratch, (clear_bytes / 4) as u32, 0)?;
            pass.ctx.compute_to_compute(pass.cmd);
            pass.ctx.dispatch(pass.cmd, kernel, &push, tiles as u32);
        } else if tiles <= SELF_CLEANING_MAX_TILES {
            pass.ctx.dispatch(pass.cmd, kernel, &push, tiles as u32);
        } else {
            // Many tiles: the end-of-workgroup count and the last workgroup's clear cost more
            // than a fill (1.12 against 0.92 ms at 2^28 on an H100), so the scan runs as a
            // plain one and a fill after it leaves the scratch zeroed as promised.
            let plain = ScanPush { flags: 0, ..push };
            pass.ctx.dispatch(pass.cmd, kernel, &plain, tiles as u32);
            pass.ctx.compute_to_transfer(pass.cmd);
            fill(pass.cmd);
            pass.ctx.transfer_to_compute(pass.cmd);
        }
    }
    Ok(())
}

/// Most tiles a scan whose plan keeps its scratch zeroed clears itself (its last workgroup):
/// 512 tiles of the default 8192 elements, 2^22. On an H100 the self-cleaning scan took 8.0
/// against 11.1 us at 2^16 and 10.2 against 13.3 us at 2^20, was even at 2^22 and slower from
/// 2^24 (docs/benchmarks/2026-11-22-engine-h100.md).
const SELF_CLEANING_MAX_TILES: u64 = 512;
