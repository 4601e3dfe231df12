//! How a single-pass look-back kernel (the scan's, the select's, the reduce-by-key's) finds its
//! scratch state zeroed and leaves it: cleared before the dispatch, or kept zeroed between
//! calls by the kernel's last workgroup (glsl/common/last_workgroup.glsl
//! `lookback_state_finish`) up to a number of tiles, past which a clear after the dispatch
//! costs less than every workgroup's finish count.

use super::buffer::BufferRange;
use crate::error::{Error, Result};
use crate::Context;
use ash::vk;

/// The state of a look-back kernel's scratch when its dispatch is recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LookbackScratch {
    /// Unknown: cleared first.
    Clear,
    /// Zero, and to be left zero (the plan's `keep_scratch_zeroed`).
    KeptZeroed,
    /// Zeroed by the caller's own commands for this call.
    Cleared,
}

impl LookbackScratch {
    /// A plan's scratch: kept zeroed where the plan says so, else cleared first.
    pub(crate) fn of_plan(keep_scratch_zeroed: bool) -> Self {
        if keep_scratch_zeroed {
            LookbackScratch::KeptZeroed
        } else {
            LookbackScratch::Clear
        }
    }

    /// Whether a dispatch of `tiles` tiles takes the self-cleaning kernel (specialization
    /// constant 8, SELF_CLEANING): a kept-zeroed state of at most `self_cleaning_max_tiles`.
    pub(crate) fn self_cleaning(self, tiles: u64, self_cleaning_max_tiles: u64) -> bool {
        self == LookbackScratch::KeptZeroed && tiles <= self_cleaning_max_tiles
    }
}

/// The look-back kernel variants (self-cleaning or not) a plan's calls may record: a plan that
/// keeps its scratch zeroed cleans in the kernel up to `self_cleaning_max_tiles` and needs the
/// plain kernel past them; any plan may record the plain one (a cleared state).
pub(crate) fn lookback_variants(
    keep_scratch_zeroed: bool,
    max_tiles: u64,
    self_cleaning_max_tiles: u64,
) -> Vec<bool> {
    match (keep_scratch_zeroed, max_tiles <= self_cleaning_max_tiles) {
        (false, _) => vec![false],
        (true, true) => vec![true],
        (true, false) => vec![false, true],
    }
}

/// The most tiles whose select or reduce-by-key kernel clears a kept-zeroed state itself (2^22
/// elements in the select's default tiles): counting 1024 tiles cost 4-5%, 256 nothing
/// (docs/tuning/select.md#kept-zeroed). The scan has its own (docs/tuning/scan.md#self-cleaning).
pub(crate) const KEPT_ZEROED_MAX_TILES: u64 = 256;

impl Context {
    /// Records a look-back kernel of `tiles` tiles whose state (header and status words, the
    /// u32 words of `state`) is found and left as `scratch` says: a compute clear and a
    /// barrier first ([`LookbackScratch::Clear`]); nothing more ([`LookbackScratch::Cleared`]);
    /// for [`LookbackScratch::KeptZeroed`] the kernel clears it itself up to
    /// `self_cleaning_max_tiles` (`dispatch` must then record the self-cleaning kernel:
    /// [`LookbackScratch::self_cleaning`]), past them a barrier and a compute clear follow it.
    /// `dispatch` records the kernel. Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be recording; `state` a checked range of a live buffer.
    pub(crate) unsafe fn record_lookback(
        &self,
        cmd: vk::CommandBuffer,
        scratch: LookbackScratch,
        state: &BufferRange,
        tiles: u64,
        self_cleaning_max_tiles: u64,
        dispatch: impl FnOnce(),
    ) -> Result<()> {
        let words = u32::try_from(state.size / 4)
            .map_err(|_| Error::Internal("look-back state: too many words".into()))?;
        let self_cleaning = scratch.self_cleaning(tiles, self_cleaning_max_tiles);
        match scratch {
            LookbackScratch::Clear => {
                // A compute clear: with its compute-to-compute barrier it costs less than a
                // vkCmdFillBuffer and a transfer-to-compute barrier
                // (docs/tuning/core.md#compute-fill).
                self.record_compute_fill(cmd, state, words, 0)?;
                self.compute_to_compute(cmd);
                dispatch();
            }
            LookbackScratch::Cleared => dispatch(),
            LookbackScratch::KeptZeroed if self_cleaning => dispatch(),
            LookbackScratch::KeptZeroed => {
                // Whatever can fail, before anything is recorded.
                state.check(self, "look-back state", words as u64 * 4, 4)?;
                self.prepare_compute_fill()?;
                dispatch();
                self.compute_to_compute(cmd);
                self.record_compute_fill(cmd, state, words, 0)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_cover_every_call_of_the_plan() {
        assert_eq!(lookback_variants(false, 10_000, 256), [false]);
        assert_eq!(lookback_variants(true, 256, 256), [true]);
        assert_eq!(lookback_variants(true, 257, 256), [false, true]);
        let kept = LookbackScratch::of_plan(true);
        assert!(kept.self_cleaning(256, 256) && !kept.self_cleaning(257, 256));
        assert!(!LookbackScratch::of_plan(false).self_cleaning(1, 256));
        assert!(!LookbackScratch::Cleared.self_cleaning(1, 256));
    }
}
