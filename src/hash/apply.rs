//! Insert-or-apply (group-by): the record layer's call and the host call. For each (key,
//! value), an absent key is inserted with its value and a present one gets op(stored, value);
//! the result does not depend on the order within the batch (glsl/hash/apply.comp).

use super::map::Op;
use super::{HashInsertArgs, HashKey, HashMap, HashValue};
use crate::core::types::ReduceOp;
use crate::error::Result;
use ash::vk;

/// Mode bits of apply.comp (shared with glsl/generated/hash.glsl): the operation's bits.
pub(super) const APPLY_OP_MASK: u32 = 3;
/// Mode bit of the two-pass form's first pass: absent keys are claimed with the operation's
/// identity; no value is combined.
pub(super) const APPLY_RESERVE_ONLY: u32 = 4;

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
        let mut push = push;
        if self.packed_insert() {
            push.mode = op_bits;
            return self.run(cmd, shader, &push, n);
        }
        push.mode = op_bits | APPLY_RESERVE_ONLY;
        self.run(cmd, shader, &push, n)?;
        // SAFETY: `cmd` is recording (documented).
        unsafe { self.ctx.compute_to_compute(cmd) };
        // The second pass claims and counts nothing (see apply.comp): no statuses, no failures.
        push.mode = op_bits;
        push.flags_addr = 0;
        push.failed_addr = 0;
        self.run(cmd, shader, &push, n)
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
