//! Insert-or-apply (group-by): the record layer's call and the host call. For each (key,
//! value), an absent key is inserted with its value and a present one gets op(stored, value);
//! the result does not depend on the order within the batch (glsl/hash/apply.comp).

use super::map::{HashPush, Op};
use super::{HashInsertArgs, HashKey, HashMap, HashValue};
use crate::core::profile::DeviceProfile;
use crate::core::tuning::DeviceClass;
use crate::core::types::ReduceOp;
use crate::error::Result;
use ash::vk;

/// Mode bits of apply.comp (shared with glsl/generated/hash.glsl): the operation's bits.
pub(super) const APPLY_OP_MASK: u32 = 3;
/// Mode bit of the two-pass form's first pass: absent keys are claimed with the operation's
/// identity; no value is combined.
pub(super) const APPLY_RESERVE_ONLY: u32 = 4;
/// The shape of the shared-memory insert-or-apply (glsl/hash/apply_shared.comp), its own
/// whatever the map's tuning: invocations per workgroup, keys an invocation loads per tile, and
/// the slots of the workgroup's shared table (two u32 arrays in shared memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ApplySharedShape {
    /// Invocations per workgroup (constant_id 0).
    pub workgroup_size: u32,
    /// Keys an invocation loads per tile (APPLY_KEYS, constant_id 5).
    pub keys_per_invocation: u32,
    /// Slots of the shared table (SHARED_SLOTS, constant_id 6).
    pub slots: u32,
}

/// Shared memory apply_shared.comp needs beside its table: its failure flag, and the
/// workgroup's counter sums (glsl/hash/workgroup_counters.glsl: 12 bytes a subgroup).
fn shared_margin(workgroup_size: u32, profile: &DeviceProfile) -> u64 {
    16 + 12 * workgroup_size.div_ceil(profile.min_subgroup_size.max(1)) as u64
}

/// The shared-memory insert-or-apply's shape on a device of `class`.
pub(super) fn apply_shared_shape(class: DeviceClass) -> ApplySharedShape {
    super::tuning::apply_shared_shape(class)
}

impl ApplySharedShape {
    /// Whether the device runs the kernel at this shape (its shared memory and workgroup size).
    pub(super) fn fits(&self, profile: &DeviceProfile) -> bool {
        2 * 4 * self.slots as u64 + shared_margin(self.workgroup_size, profile)
            <= profile.max_shared_memory as u64
            && self.workgroup_size <= profile.max_workgroup_invocations
    }
}

impl HashMap {
    /// Records an insert-or-apply of `args.count` keys with their values: an absent key is
    /// inserted with its value; a present one (in the map before, or inserted by another key of
    /// the batch) gets `op(stored, value)` (unsigned; sums wrap). The result does not depend
    /// on the order within the batch. Statuses, the failure counter and reserved keys as in
    /// [`HashMap::record_insert`] (one occurrence of a new key reports `Inserted`, the others
    /// `Updated`). u32/u32 maps with the packed claim ([`HashMap::packed_insert`]) take one
    /// pass; the other layouts two (absent keys claimed with the operation's identity, then
    /// every value applied), with a COMPUTE_SHADER barrier between them. Nothing is recorded on
    /// error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_insert_or_apply(
        &self,
        cmd: vk::CommandBuffer,
        args: &HashInsertArgs,
        op: ReduceOp,
    ) -> Result<()> {
        let Some((push, n)) = self.insert_push("hash insert_or_apply", cmd, args)? else {
            return Ok(());
        };
        let shader = self.shader(Op::Apply);
        let op_bits = op as u32;
        debug_assert_eq!(op_bits & !APPLY_OP_MASK, 0);
        // The applying pass: a workgroup's equal keys combined in shared memory first where the
        // layout allows and no per-key statuses are asked for (apply_shared.comp).
        let class = self.ctx.device_class();
        let max_groups = super::tuning::apply_shared_groups(class);
        let shape = apply_shared_shape(class);
        let fits = shape.fits(self.ctx.profile());
        let apply = |push: &HashPush| match self.apply_shared_shader() {
            Some(shared) if push.flags_addr == 0 && fits => {
                self.run_apply_shared(cmd, shared, push, n, shape, max_groups)
            }
            _ => self.run(cmd, shader, push, n),
        };
        let mut push = push;
        if self.packed_insert() {
            push.mode = op_bits;
            return apply(&push);
        }
        push.mode = op_bits | APPLY_RESERVE_ONLY;
        self.run(cmd, shader, &push, n)?;
        // SAFETY: `cmd` is recording (documented).
        unsafe { self.ctx.compute_to_compute(cmd) };
        // The second pass claims and counts nothing (see apply.comp): no statuses, no failures.
        push.mode = op_bits;
        push.flags_addr = 0;
        push.failed_addr = 0;
        apply(&push)
    }

    /// Inserts `keys` with `values`, or applies `op` to the values of those already present
    /// (unsigned; sums wrap): afterwards each distinct key of the batch holds op over its
    /// values in the batch, combined with the value it held before if it was present. The
    /// result does not depend on the order of the batch. Reserved keys refuse the whole call
    /// with [`Error::InvalidArgument`](crate::Error) before any GPU work; keys that find no free
    /// slot give [`Error::TableFull`](crate::Error) after the call, every other key applied.
    pub fn insert_or_apply<K: HashKey, V: HashValue>(
        &self,
        keys: &[K],
        values: &[V],
        op: ReduceOp,
    ) -> Result<()> {
        self.insert_impl(keys, values, None, Some(op))
    }
}
