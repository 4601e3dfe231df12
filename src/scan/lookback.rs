//! Single-pass scan with decoupled look-back (glsl/scan/lookback.comp; glsl/scan/typed.comp's
//! look-back permutations for the typed scans).

use super::{
    Pass, ScanPush, LOOKBACK_HEADER_BYTES, SCAN_FLAG_KEEP_SCRATCH_ZEROED, SCAN_FLAG_WORKGROUP_LOOKBACK,
};
use crate::core::buffer::BufferRange;
use crate::core::shaders;
use crate::error::Result;

/// The state of a look-back scan's scratch when its dispatch is recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ScratchState {
    /// Unknown: the scan clears it first.
    Clear,
    /// Zero, and to be left zero (`ScanDesc::keep_scratch_zeroed`).
    KeptZeroed,
    /// Zeroed by the caller's own commands for this call (`ScanPlan::record_precleared`).
    Cleared,
}

/// Bytes of look-back scratch a scan of `tiles` tiles with `status_bytes` of status per tile
/// reads zeroed.
pub(super) fn clear_bytes(tiles: u64, status_bytes: u64) -> u64 {
    LOOKBACK_HEADER_BYTES + tiles * status_bytes
}

/// Clears the look-back header and the status words (unless the plan keeps its scratch
/// zeroed), then scans in one dispatch of `tiles` workgroups (tile t is workgroup t on GPUs,
/// taken by ticket on CPU drivers).
pub(super) fn record(
    pass: &Pass,
    mut push: ScanPush,
    tiles: u64,
    scratch: &BufferRange,
    state: ScratchState,
) -> Result<()> {
    if WORKGROUP_LOOKBACK_TILES.contains(&tiles) {
        push.flags |= SCAN_FLAG_WORKGROUP_LOOKBACK;
    }
    let kernel = match (pass.typed, pass.typed_lookback) {
        (None, _) => pass.ctx.kernel(
            pass.shader(&shaders::SCAN_LOOKBACK_VEC4, &shaders::SCAN_LOOKBACK_SCALAR),
            pass.spec,
        )?,
        (Some(_), lookback) => pass
            .ctx
            .kernel(lookback.expect("typed plans have a look-back kernel"), pass.spec)?,
    };
    let clear_bytes = clear_bytes(tiles, pass.status_bytes);
    let fill = |cmd| unsafe {
        pass.ctx
            .device
            .cmd_fill_buffer(cmd, scratch.buffer, scratch.offset, clear_bytes, 0)
    };
    unsafe {
        if state == ScratchState::Cleared {
            pass.ctx.dispatch(pass.cmd, kernel, &push, tiles as u32);
        } else if state == ScratchState::Clear {
            // A compute clear: with its compute-to-compute barrier it costs less than a
            // vkCmdFillBuffer and a transfer-to-compute barrier (docs/tuning/core.md#compute-fill).
            pass.ctx
                .record_compute_fill(pass.cmd, scratch, (clear_bytes / 4) as u32, 0)?;
            pass.ctx.compute_to_compute(pass.cmd);
            pass.ctx.dispatch(pass.cmd, kernel, &push, tiles as u32);
        } else if tiles <= SELF_CLEANING_MAX_TILES {
            pass.ctx.dispatch(pass.cmd, kernel, &push, tiles as u32);
        } else {
            // Many tiles: the end-of-workgroup count and the last workgroup's clear cost more
            // than a fill, so the scan runs as a plain one and a fill after it leaves the
            // scratch zeroed as promised.
            let plain = ScanPush {
                flags: push.flags & !SCAN_FLAG_KEEP_SCRATCH_ZEROED,
                ..push
            };
            pass.ctx.dispatch(pass.cmd, kernel, &plain, tiles as u32);
            pass.ctx.compute_to_transfer(pass.cmd);
            fill(pass.cmd);
            pass.ctx.transfer_to_compute(pass.cmd);
        }
    }
    Ok(())
}

/// Most tiles a scan whose plan keeps its scratch zeroed clears itself (its last workgroup;
/// 2^22 elements in the default tiles); above, a fill after the scan costs less
/// (docs/tuning/scan.md#self-cleaning).
const SELF_CLEANING_MAX_TILES: u64 = 512;

/// Tile counts whose look-back reads a window of status words per step with the whole
/// workgroup rather than its first subgroup: tiles many enough that a subgroup's window takes
/// several round trips, few enough that the windows' extra reads do not crowd the memory
/// system (docs/tuning/scan.md#workgroup-window).
pub(super) const WORKGROUP_LOOKBACK_TILES: std::ops::RangeInclusive<u64> = 33..=512;
