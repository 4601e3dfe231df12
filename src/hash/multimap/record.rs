//! The multimap's record layer: clear, barrier, insert, count, retrieve, size. Every call
//! checks its arguments first and records nothing on error.

use super::push::{MultimapPush, OFFSETS_U64};
use super::{
    HashMultimap, HashMultimapCountArgs, HashMultimapInsertArgs, HashMultimapOffsets,
    HashMultimapRetrieveArgs,
};
use crate::core::shaders;
use crate::error::Result;
use crate::hash::map::{check_cmd, check_no_overlap, resolve_count};
use crate::hash::HashSizeArgs;
use ash::vk;

impl HashMultimap {
    /// Records emptying the multimap (size 0): three `vkCmdFillBuffer` on its storage
    /// (TRANSFER writes), followed by a barrier to COMPUTE_SHADER. Order it after earlier
    /// operations on the multimap with [`HashMultimap::record_barrier`].
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_clear(&self, cmd: vk::CommandBuffer) -> Result<()> {
        check_cmd(cmd, "hash multimap clear")?;
        // SAFETY: `cmd` is recording (documented).
        unsafe { self.table.record_fills(&self.ctx, cmd) };
        Ok(())
    }

    /// Records an insert of `args.count` pairs: each is stored (duplicates too) unless it finds
    /// no empty slot within the probe bound or its key is reserved; those are counted in the
    /// optional failure counter. Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_insert(&self, cmd: vk::CommandBuffer, args: &HashMultimapInsertArgs) -> Result<()> {
        let what = "hash multimap insert";
        check_cmd(cmd, what)?;
        let count = resolve_count(&self.ctx, what, args.count, args.max_count)?;
        let n = count.elements;
        let (kb, vb) = (self.key_type().bytes(), self.value_type().bytes());
        args.keys
            .check(&self.ctx, "hash multimap insert keys", n * kb, kb)?;
        args.values
            .check(&self.ctx, "hash multimap insert values", n * vb, vb)?;
        if let Some(failed) = &args.failed_count {
            failed.check(&self.ctx, "hash multimap insert failed_count", 4, 4)?;
        }
        check_no_overlap(
            what,
            &[Some(args.keys), Some(args.values), count.range],
            &[args.failed_count],
        )?;
        if n == 0 {
            return Ok(());
        }
        let push = MultimapPush {
            keys_addr: self.ctx.address_of(&args.keys),
            values_addr: self.ctx.address_of(&args.values),
            failed_addr: args.failed_count.map_or(0, |r| self.ctx.address_of(&r)),
            count_addr: count.range.map_or(0, |r| self.ctx.address_of(&r)),
            count: count.direct,
            max_count: n as u32,
            ..self.base_push()
        };
        self.run(cmd, self.kernels.insert, &push, n)
    }

    /// Records counting the stored pairs of each of `args.count` keys into `args.counts_out` (a u32
    /// per key; 0 for absent and reserved keys). Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_count(&self, cmd: vk::CommandBuffer, args: &HashMultimapCountArgs) -> Result<()> {
        let what = "hash multimap count";
        check_cmd(cmd, what)?;
        let count = resolve_count(&self.ctx, what, args.count, args.max_count)?;
        let n = count.elements;
        let kb = self.key_type().bytes();
        args.keys
            .check(&self.ctx, "hash multimap count keys", n * kb, kb)?;
        args.counts_out
            .check(&self.ctx, "hash multimap counts", n * 4, 4)?;
        check_no_overlap(what, &[Some(args.keys), count.range], &[Some(args.counts_out)])?;
        if n == 0 {
            return Ok(());
        }
        let push = MultimapPush {
            keys_addr: self.ctx.address_of(&args.keys),
            out_addr: self.ctx.address_of(&args.counts_out),
            count_addr: count.range.map_or(0, |r| self.ctx.address_of(&r)),
            count: count.direct,
            max_count: n as u32,
            ..self.base_push()
        };
        self.run(cmd, self.kernels.count, &push, n)
    }

    /// Records writing the values of each of `args.count` keys into `args.values`, key `i`'s
    /// from position `offsets[i]` on (in no particular order within a key); positions at or
    /// past `args.capacity` are not written. With the exclusive scan of a
    /// [`HashMultimap::record_count`] of the same keys as offsets (and no insert between), each
    /// key fills exactly its range. Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_retrieve(
        &self,
        cmd: vk::CommandBuffer,
        args: &HashMultimapRetrieveArgs,
    ) -> Result<()> {
        let what = "hash multimap retrieve";
        check_cmd(cmd, what)?;
        let count = resolve_count(&self.ctx, what, args.count, args.max_count)?;
        let n = count.elements;
        let (kb, vb) = (self.key_type().bytes(), self.value_type().bytes());
        args.keys
            .check(&self.ctx, "hash multimap retrieve keys", n * kb, kb)?;
        let offsets = args.offsets.range();
        let ob = args.offsets.bytes();
        offsets.check(&self.ctx, "hash multimap retrieve offsets", n * ob, ob)?;
        let room = args.capacity.checked_mul(vb).ok_or_else(|| {
            crate::Error::invalid(format!("{what}: capacity {} values is too large", args.capacity))
        })?;
        args.values_out
            .check(&self.ctx, "hash multimap retrieve values", room, vb)?;
        let values = (args.capacity > 0).then_some(args.values_out);
        let mut inputs = vec![Some(args.keys), Some(offsets), count.range];
        let mut outputs = vec![values];
        if let Some(t) = &args.tags {
            t.tags.check(&self.ctx, "hash multimap retrieve tags", n * 4, 4)?;
            t.tags_out
                .check(&self.ctx, "hash multimap retrieve tags_out", args.capacity * 4, 4)?;
            inputs.push(Some(t.tags));
            outputs.push((args.capacity > 0).then_some(t.tags_out));
        }
        check_no_overlap(what, &inputs, &outputs)?;
        if n == 0 || args.capacity == 0 {
            return Ok(());
        }
        let push = MultimapPush {
            keys_addr: self.ctx.address_of(&args.keys),
            values_addr: self.ctx.address_of(&args.values_out),
            offsets_addr: self.ctx.address_of(&offsets),
            count_addr: count.range.map_or(0, |r| self.ctx.address_of(&r)),
            capacity: args.capacity,
            tags_addr: args.tags.map_or(0, |t| self.ctx.address_of(&t.tags)),
            tags_out_addr: args.tags.map_or(0, |t| self.ctx.address_of(&t.tags_out)),
            count: count.direct,
            max_count: n as u32,
            flags: match args.offsets {
                HashMultimapOffsets::U32(_) => 0,
                HashMultimapOffsets::U64(_) => OFFSETS_U64,
            },
            ..self.base_push()
        };
        self.run(cmd, self.kernels.retrieve, &push, n)
    }

    /// Records writing the number of pairs stored (a u32) to `args.out` (COMPUTE_SHADER write).
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record_size(&self, cmd: vk::CommandBuffer, args: &HashSizeArgs) -> Result<()> {
        check_cmd(cmd, "hash multimap size")?;
        args.out.check(&self.ctx, "hash multimap size output", 4, 4)?;
        self.record_size_at(cmd, self.ctx.address_of(&args.out))
    }

    /// [`HashMultimap::record_size`] to a device address (4-byte aligned, checked by the caller).
    pub(super) fn record_size_at(&self, cmd: vk::CommandBuffer, address: u64) -> Result<()> {
        let push = MultimapPush {
            out_addr: address,
            ..self.base_push()
        };
        self.run(cmd, &shaders::MULTIMAP_SIZE, &push, 1)
    }
}
