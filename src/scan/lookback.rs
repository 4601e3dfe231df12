//! Single-pass scan with decoupled look-back (glsl/scan/lookback.comp; glsl/scan/typed.comp's
//! look-back permutations for the typed scans).

use super::{Pass, ScanPush, ScanSpec, LOOKBACK_HEADER_BYTES, SCAN_FLAG_WORKGROUP_LOOKBACK};
use crate::core::buffer::BufferRange;
use crate::core::lookback_state::LookbackScratch;
use crate::core::shaders;
use crate::error::Result;

/// Bytes of look-back scratch a scan of `tiles` tiles with `status_bytes` of status per tile
/// reads zeroed.
pub(super) fn clear_bytes(tiles: u64, status_bytes: u64) -> u64 {
    LOOKBACK_HEADER_BYTES + tiles * status_bytes
}

/// Clears the look-back header and the status words as `state` says
/// ([`crate::Context::record_lookback`]; [`LookbackScratch::Cleared`]: a call of
/// `ScanPlan::record_precleared`), then scans in one dispatch of `tiles` workgroups (tile t is workgroup t on GPUs,
/// taken by ticket on CPU drivers).
pub(super) fn record(
    pass: &Pass,
    mut push: ScanPush,
    tiles: u64,
    scratch: &BufferRange,
    state: LookbackScratch,
) -> Result<()> {
    if WORKGROUP_LOOKBACK_TILES.contains(&tiles) {
        push.flags |= SCAN_FLAG_WORKGROUP_LOOKBACK;
    }
    let spec = ScanSpec {
        self_cleaning: state.self_cleaning(tiles, SELF_CLEANING_MAX_TILES),
        ..pass.spec
    };
    let kernel = match (pass.typed, pass.typed_lookback) {
        (None, _) => pass.ctx.kernel(
            pass.shader(&shaders::SCAN_LOOKBACK_VEC4, &shaders::SCAN_LOOKBACK_SCALAR),
            spec,
        )?,
        (Some(_), lookback) => pass
            .ctx
            .kernel(lookback.expect("typed plans have a look-back kernel"), spec)?,
    };
    let state_range = scratch.part(0, clear_bytes(tiles, pass.status_bytes));
    // SAFETY: `pass.cmd` is recording; the scratch was checked by the plan's record.
    unsafe {
        pass.ctx.record_lookback(
            pass.cmd,
            state,
            &state_range,
            tiles,
            SELF_CLEANING_MAX_TILES,
            || pass.ctx.dispatch(pass.cmd, kernel, &push, tiles as u32),
        )
    }
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
