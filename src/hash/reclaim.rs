//! Reclaiming tombstones in place (glsl/hash/reclaim.comp): the passes every erase records
//! first. Stored keys move back into tombstones earlier in their probe sequences, and the
//! tombstones that no stored key then passes on its way to its own bucket become EMPTY slots
//! again, so long erase/insert churn keeps the probe sequences of a fresh map.

use super::map::{HashPush, Op};
use super::HashMap;
use crate::error::Result;
use ash::vk;

/// reclaim.comp's passes (the push constants' mode; shared with glsl/generated/hash.glsl).
pub(super) const RECLAIM_CHECK: u32 = 0;
/// Stored keys moved back into earlier tombstones of their probe sequences, each with one
/// vector store of key and value.
pub(super) const RECLAIM_MOVE: u32 = 4;
/// [`RECLAIM_MOVE`] with the value stored first and the key after it by a compare-and-swap
/// (devices whose vector stores are not seen whole: [`super::tuning::RECLAIM_KEY_LAST`]).
pub(super) const RECLAIM_MOVE_KEY_LAST: u32 = 5;
/// Every tombstone's value word cleared.
pub(super) const RECLAIM_UNMARK: u32 = 1;
/// The tombstones that stored keys pass, marked.
pub(super) const RECLAIM_MARK: u32 = 2;
/// The unmarked tombstones turned EMPTY.
pub(super) const RECLAIM_SWEEP: u32 = 3;
/// The value word of a tombstone that a stored key passes, during a reclaim.
#[cfg_attr(not(test), allow(dead_code))] // read by the GLSL only
pub(super) const RECLAIM_MARKED: u32 = 1;

/// A reclaim starts when the erases since the last one left more tombstones than this share of
/// the slots (1/32): rarely enough that its passes over the table cost about what the erases
/// that made the tombstones cost.
const RECLAIM_SHARE: u64 = 32;

impl HashMap {
    /// Records the reclaim: a one-invocation check, then four passes over the buckets that
    /// return at once unless the check started a reclaim, with barriers between them and after.
    pub(super) fn record_reclaim(&self, cmd: vk::CommandBuffer) -> Result<()> {
        let kernel = self.ctx.kernel(self.shader(Op::Reclaim), self.specialization())?;
        let workgroup = self.table.shape.tuning.workgroup_size as u64;
        let max_groups = super::tuning::reclaim_groups(self.ctx.device_class()) as u64;
        let groups = (self.table.shape.num_buckets as u64)
            .div_ceil(workgroup)
            .min(max_groups);
        let push = |mode: u32| {
            let mut push: HashPush = self.base_push();
            push.count = (self.capacity() / RECLAIM_SHARE) as u32;
            push.max_count = (groups * workgroup) as u32;
            push.mode = mode;
            push
        };
        // SAFETY: the caller's command buffer is recording (documented on every record call).
        unsafe {
            self.ctx.dispatch(cmd, kernel, &push(RECLAIM_CHECK), 1);
            let class = self.ctx.device_class();
            let move_pass = if super::tuning::reclaim_key_last(class) {
                RECLAIM_MOVE_KEY_LAST
            } else {
                RECLAIM_MOVE
            };
            for mode in [move_pass, RECLAIM_UNMARK, RECLAIM_MARK, RECLAIM_SWEEP] {
                self.ctx.compute_to_compute(cmd);
                self.ctx.dispatch(cmd, kernel, &push(mode), groups as u32);
            }
            self.ctx.compute_to_compute(cmd);
        }
        Ok(())
    }
}
