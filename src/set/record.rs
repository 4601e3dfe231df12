//! The record layer of sets: `GpuSet`'s record calls (operations and their cardinalities,
//! inserts and removals, ranges, contains, filter, to_array, range cardinalities) into the
//! caller's command buffers, and the updates they describe.

use super::args::{
    GpuSetCardinalityArgs, GpuSetCardinalityBatchArgs, GpuSetContainsArgs, GpuSetFilterArgs,
    GpuSetInsertArgs, GpuSetInsertRangeArgs, GpuSetInsertSortedArgs, GpuSetOpArgs,
    GpuSetRangeCardinalityArgs, GpuSetRunOptimizeArgs, GpuSetToArrayArgs,
};
use super::batch::{
    batch_scratch_bytes, parts_within, record_one_pass_cardinality_batch, record_update_batch,
};
use super::gpu::GpuSet;
use super::layout::{FILTER_STATUS_WORD, MAX_BATCH, SET_SCRATCH_BYTES, SET_STATUS_BYTES};
use super::passes::{
    chunk_grid, earlier_passes_barrier, filter_lookback_spec, filter_spins, kernel,
    record_cardinality_passes, record_one_pass_cardinality, record_update, record_update_phase, set_spec, wg,
    OnePassTail, Phase, SetPush, Update, UpdatePasses, OFFSET_BLOCK, OFFSET_BLOCKS,
};
use super::paths::{CardinalityPath, FilterPath};
use super::tuning::{tuned, Knob, FILTER_ITEMS};
use crate::core::buffer::{BufferRange, ElementCount, MemoryRequirements};
use crate::core::shaders;
use crate::error::{Error, Result};
use crate::{Context, SetOp};
use ash::vk;

/// Phases of a recorded to-array ([`GpuSet::record_to_array_phase`]).
const TO_ARRAY_PHASES: u32 = 3;

impl GpuSet {
    /// What the record calls need of the caller's memory besides their inputs and outputs:
    /// `scratch` is [`SET_SCRATCH_BYTES`] at a 16-byte aligned offset (every record call that
    /// takes one; [`GpuSet::record_op_cardinality_batch`] fits many pairs of small sets in it,
    /// and [`GpuSet::record_op_batch`] takes [`GpuSet::op_batch_scratch_bytes`]).
    /// The status of a modifying or cardinality-only operation is [`SET_STATUS_BYTES`] at a
    /// 4-byte aligned offset (a [`SetOpStatus`]). Sets' own storage is
    /// [`GpuSet::memory_requirements`].
    ///
    /// [`SetOpStatus`]: super::SetOpStatus
    pub fn record_requirements() -> MemoryRequirements {
        MemoryRequirements::scratch(SET_SCRATCH_BYTES, 16)
    }

    /// Records `self = a op b` (operands may be the set itself) into `cmd`: see the module's
    /// synchronization contract. `args.scratch`: [`SET_SCRATCH_BYTES`] bytes (16-byte aligned
    /// offset); `args.status`: [`SET_STATUS_BYTES`] bytes receiving a [`SetOpStatus`]. When the
    /// destination's pools lack free blocks ([`GpuSet::reserve`]) nothing is written and the
    /// status says what was needed. With free blocks for the bound of
    /// [`GpuSet::reserve_for_op`] the operation takes its one-pass path (no counting pass);
    /// with [`GpuSetOpArgs::reserved`] it records that path alone. Either operand may be packed
    /// ([`GpuSet::pack`]); a packed destination is refused ([`Error::InvalidArgument`], nothing
    /// recorded), as for every recorded write.
    ///
    /// [`SetOpStatus`]: super::SetOpStatus
    ///
    /// # Safety
    /// `cmd` must be a command buffer of the set's device in the recording state; the ranges
    /// must stay valid until it has executed; other work must not use the sets meanwhile
    /// without barriers.
    pub unsafe fn record_op(&self, cmd: vk::CommandBuffer, args: &GpuSetOpArgs) -> Result<()> {
        let GpuSetOpArgs {
            a,
            b,
            op,
            path,
            reserved,
            scratch,
            status,
        } = *args;
        let phase = if reserved { Phase::Reserved } else { Phase::All };
        self.check_writable("set op")?;
        check_scratch_status(&self.ctx, &scratch, &status, "set op")?;
        let u = self.op_update(a, b, op, path)?;
        self.note_recorded_update(&u);
        record_update_phase(
            &self.ctx,
            cmd,
            &u,
            &scratch,
            self.ctx.address_of(&status),
            true,
            phase,
        )
    }

    /// Records the cardinality of `a op b` without materializing it: a [`SetOpStatus`] to
    /// `args.status` ([`SetOpStatus::cardinality`]). Operands with few array and bitmap blocks
    /// (clustered sets after [`GpuSet::run_optimize`]) are counted in one pass, which keeps a
    /// count of its workgroups in `a`'s control block: like every operation on a set, it must
    /// not overlap another that uses the same set (record [`GpuSet::record_barrier`] between
    /// them).
    ///
    /// [`SetOpStatus`]: super::SetOpStatus
    /// [`SetOpStatus::cardinality`]: super::SetOpStatus::cardinality
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_op_cardinality(cmd: vk::CommandBuffer, args: &GpuSetCardinalityArgs) -> Result<()> {
        let GpuSetCardinalityArgs {
            a,
            b,
            op,
            path,
            scratch,
            status,
        } = *args;
        check_scratch_status(&a.ctx, &scratch, &status, "set op cardinality")?;
        unsafe { Self::record_cardinality(cmd, a, b, op, path, &scratch, a.ctx.address_of(&status)) }
    }

    /// Whether [`CardinalityPath::Auto`] counts `a op b` in one pass: few bitmap and array
    /// blocks in the operands' pools, most of their chunks empty, full or single runs (tests).
    #[doc(hidden)]
    pub fn one_pass_suits(a: &GpuSet, b: &GpuSet) -> bool {
        let class = a.ctx.device_class();
        let array_blocks = a.ar_blocks.saturating_add(b.ar_blocks);
        Self::one_pass_bounded(a, b)
            && array_blocks.saturating_mul(tuned(class, Knob::OnePassChunksPerArrayBlock))
                <= a.chunk_bound().saturating_add(b.chunk_bound())
    }

    /// Few bitmap and array blocks in the operands' pools: the chunks a one pass lists for
    /// the whole workgroup are few (on CPU drivers, each invocation's loops stay within
    /// lavapipe's limit: docs/driver-bugs.md#lavapipe-loop-limit).
    pub(super) fn one_pass_bounded(a: &GpuSet, b: &GpuSet) -> bool {
        Self::one_pass_within(a, b, Knob::OnePassBitmapBlocks)
    }

    /// [`GpuSet::one_pass_bounded`] for a pair of a batch, whose workgroups count the pairs'
    /// listed chunks side by side: at most `Knob::BatchOnePassBitmapBlocks` bitmap blocks.
    pub(super) fn one_pass_bounded_in_batch(a: &GpuSet, b: &GpuSet) -> bool {
        Self::one_pass_within(a, b, Knob::BatchOnePassBitmapBlocks)
    }

    fn one_pass_within(a: &GpuSet, b: &GpuSet, bitmap_blocks: Knob) -> bool {
        let class = a.ctx.device_class();
        a.bm_blocks.saturating_add(b.bm_blocks) <= tuned(class, bitmap_blocks)
            && a.ar_blocks.saturating_add(b.ar_blocks) <= tuned(class, Knob::OnePassArrayBlocks)
    }

    /// Records the cardinality of `a op b` on `path`, its status to the address `status`.
    pub(super) unsafe fn record_cardinality(
        cmd: vk::CommandBuffer,
        a: &GpuSet,
        b: &GpuSet,
        op: SetOp,
        path: CardinalityPath,
        scratch: &BufferRange,
        status: u64,
    ) -> Result<()> {
        let u = Self::card_update(a, b, op)?;
        let one_pass = path.counts_in_one_pass(a, b);
        let tail = match path {
            CardinalityPath::OnePassSlots => OnePassTail::Slots,
            _ => OnePassTail::recorded(&a.ctx),
        };
        unsafe {
            if one_pass {
                record_one_pass_cardinality(&a.ctx, cmd, &u, scratch, status, tail, 1)
            } else {
                record_update(&a.ctx, cmd, &u, scratch, status, true)
            }
        }
    }

    /// Records the cardinalities of `a_i op b_i` for many pairs (one query set against many,
    /// say) as one operation whose pairs run side by side, the status of pair `i` at byte
    /// `32 i` of `args.statuses` ([`SetOpStatus`], [`SET_STATUS_BYTES`] each; the batch zeroes
    /// them first). On [`CardinalityPath::Auto`] a single pair is counted as
    /// [`GpuSet::record_op_cardinality`] would count it, several pairs by the passes; pairs
    /// on a one-pass path are all counted at once, adding into their zeroed statuses (no
    /// control block is written, so the pairs may share sets); the others by the passes as
    /// batches (each pass for every
    /// pair in one dispatch), as many pairs a batch as `args.scratch` holds the chunk lists of
    /// (those of small sets take a few KiB; a pair needing more than the scratch alone is
    /// counted by itself). The whole batch is one operation
    /// on each of its sets: record [`GpuSet::record_barrier`] between it and another that uses
    /// them.
    ///
    /// [`SetOpStatus`]: super::SetOpStatus
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_op_cardinality_batch(
        cmd: vk::CommandBuffer,
        args: &GpuSetCardinalityBatchArgs,
    ) -> Result<()> {
        let GpuSetCardinalityBatchArgs {
            pairs,
            op,
            path,
            scratch,
            statuses,
        } = *args;
        let Some(&(first, _)) = pairs.first() else {
            return Ok(());
        };
        let ctx = &first.ctx;
        let mut updates = Vec::with_capacity(pairs.len());
        for (a, b) in pairs {
            first.check_same_context(a, "set op cardinality batch")?;
            updates.push(Self::card_update(a, b, op)?);
        }
        scratch.check(ctx, "set scratch", SET_SCRATCH_BYTES, 16)?;
        let status_bytes = SET_STATUS_BYTES * pairs.len() as u64;
        statuses.check(ctx, "set statuses", status_bytes, 4)?;
        if scratch.overlaps(&statuses) {
            return Err(Error::invalid(
                "set op cardinality batch: scratch and statuses overlap",
            ));
        }
        // Auto counts a batch of several pairs by the batched passes, which pay their launches
        // once for every pair, or on some devices in one pass where it suits
        // (docs/tuning/set.md#batch-cardinality-path).
        let one_pass: Vec<bool> = pairs
            .iter()
            .map(|(a, b)| path.counts_in_one_pass_of_batch(pairs.len(), a, b))
            .collect();
        let by_passes: Vec<Update> = (0..pairs.len())
            .filter(|&i| !one_pass[i])
            .map(|i| updates[i].clone())
            .collect();
        let passes_status: Vec<usize> = (0..pairs.len()).filter(|&i| !one_pass[i]).collect();
        let status_of = |i: usize| ctx.address_of(&statuses) + i as u64 * SET_STATUS_BYTES;
        unsafe {
            if one_pass.contains(&true) {
                // Earlier passes on the statuses or the sets (the caller's barrier), then the
                // statuses zeroed: the one-pass pairs add their sums into them, touching no
                // control block, so they all run at once, even where they share a set.
                // All in one dispatch per directory form, a layer of workgroups each, their job
                // table in the scratch (which the passes below take again after a barrier).
                earlier_passes_barrier(ctx, cmd);
                ctx.record_compute_fill(cmd, &statuses, (status_bytes / 4) as u32, 0)?;
                let by_one_pass: Vec<usize> = (0..pairs.len()).filter(|&i| one_pass[i]).collect();
                let listed: Vec<&Update> = by_one_pass.iter().map(|&i| &updates[i]).collect();
                record_one_pass_cardinality_batch(ctx, cmd, &listed, &scratch, |k| {
                    status_of(by_one_pass[k])
                })?;
            }
            // The others as batches (one pass sequence each) within the scratch; a pair whose
            // lists alone need more than it holds by the passes of one operation.
            for part in parts_within(&by_passes, scratch.size) {
                let group = &by_passes[part.clone()];
                if batch_scratch_bytes(group) <= scratch.size {
                    let status = |k: usize| status_of(passes_status[part.start + k]);
                    record_update_batch(ctx, cmd, group, &scratch, status, false)?;
                } else {
                    let status = status_of(passes_status[part.start]);
                    let p = UpdatePasses::new(ctx, cmd, &group[0], &scratch, status);
                    record_cardinality_passes(ctx, cmd, &[p], true)?;
                }
            }
            ctx.compute_to_compute(cmd);
        }
        Ok(())
    }

    /// The checks of [`GpuSet::record_insert_sorted`] (`sorted` at most `max` values; `None`:
    /// not checked, the caller checks its own values): the largest count.
    fn check_insert_sorted(
        &self,
        sorted: Option<&BufferRange>,
        count: ElementCount,
        max_count: u64,
        scratch: &BufferRange,
        status: &BufferRange,
    ) -> Result<u64> {
        let max = match count {
            ElementCount::Direct(n) => n,
            ElementCount::Indirect(r) => {
                r.check(&self.ctx, "set count", 4, 4)?;
                max_count
            }
        };
        if max > MAX_BATCH {
            return Err(Error::invalid(format!("set insert: count {max} above 2^24")));
        }
        self.check_writable("set insert")?;
        if let Some(sorted) = sorted {
            sorted.check(&self.ctx, "set values", max * 4, 4)?;
        }
        check_scratch_status(&self.ctx, scratch, status, "set insert")?;
        Ok(max)
    }

    /// Records an insert (`args.remove` false) or removal of `args.count` values that are
    /// already SORTED ascending in `args.sorted` (duplicates allowed; sort them with
    /// [`SortPlan::record`](crate::SortPlan::record) first). At most 2^24 values
    /// (`args.max_count` bounds an indirect count). Status and scratch as
    /// [`GpuSet::record_op`].
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_insert_sorted(
        &self,
        cmd: vk::CommandBuffer,
        args: &GpuSetInsertSortedArgs,
    ) -> Result<()> {
        let GpuSetInsertSortedArgs {
            sorted,
            count,
            max_count,
            remove,
            scratch,
            status,
        } = *args;
        let max = self.check_insert_sorted(Some(&sorted), count, max_count, &scratch, &status)?;
        unsafe { self.record_insert_sorted_checked(cmd, &sorted, count, max, remove, &scratch, &status) }
    }

    /// [`GpuSet::record_insert_sorted`] after its checks (`max`: the largest count).
    #[allow(clippy::too_many_arguments)]
    unsafe fn record_insert_sorted_checked(
        &self,
        cmd: vk::CommandBuffer,
        sorted: &BufferRange,
        count: ElementCount,
        max: u64,
        remove: bool,
        scratch: &BufferRange,
        status: &BufferRange,
    ) -> Result<()> {
        if max == 0 {
            return Ok(());
        }
        let u = self.values_update(self.ctx.address_of(sorted), count, max as u32, remove);
        self.note_recorded_update(&u);
        record_update(&self.ctx, cmd, &u, scratch, self.ctx.address_of(status), true)
    }

    /// Records an insert of every value of `[args.begin, args.end)` (`begin <= end <= 2^32`;
    /// an empty range records nothing). Status and scratch as [`GpuSet::record_op`]: when the
    /// pools lack free blocks nothing is written and the status says what was needed.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_insert_range(
        &self,
        cmd: vk::CommandBuffer,
        args: &GpuSetInsertRangeArgs,
    ) -> Result<()> {
        let GpuSetInsertRangeArgs {
            begin,
            end,
            scratch,
            status,
        } = *args;
        check_range(begin, end, "set insert_range")?;
        self.check_writable("set insert_range")?;
        check_scratch_status(&self.ctx, &scratch, &status, "set insert_range")?;
        if begin == end {
            return Ok(());
        }
        let u = self.range_update(begin, end);
        self.note_recorded_update(&u);
        record_update(&self.ctx, cmd, &u, &scratch, self.ctx.address_of(&status), true)
    }

    /// Records [`GpuSet::run_optimize`]: every chunk that is neither empty nor full is
    /// written again in the form the GPU picks for its values (runs where CRoaring's
    /// run_optimize would pick them and there are at most 48, else an array or a bitmap).
    /// Status and scratch as [`GpuSet::record_op`] (a run chunk never takes more blocks than
    /// the array or bitmap it replaces, but a chunk that an operation left as runs may be
    /// written back as an array or a bitmap).
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_run_optimize(
        &self,
        cmd: vk::CommandBuffer,
        args: &GpuSetRunOptimizeArgs,
    ) -> Result<()> {
        let GpuSetRunOptimizeArgs { scratch, status } = *args;
        check_scratch_status(&self.ctx, &scratch, &status, "set run_optimize")?;
        self.check_writable("set run_optimize")?;
        let u = self.optimize_update();
        self.note_recorded_update(&u);
        record_update(&self.ctx, cmd, &u, &scratch, self.ctx.address_of(&status), true)
    }

    /// The sort plan and its memory needs for [`GpuSet::record_insert`] of up to `max_count`
    /// values (at most 2^24): `values_alt` needs its `keys_alt` size, `sort_scratch` its
    /// `scratch` size ([`SortPlan::memory_requirements`](crate::SortPlan::memory_requirements)).
    pub fn insert_plan(ctx: &Context, max_count: u64) -> Result<crate::SortPlan> {
        if max_count > MAX_BATCH {
            return Err(Error::invalid(format!(
                "set insert: max_count {max_count} above 2^24"
            )));
        }
        ctx.sort_plan(&crate::SortDesc::new(
            crate::KeyType::U32,
            crate::ValueType::None,
            max_count.max(1),
        ))
    }

    /// Records an insert (`args.remove` false) or removal of `args.count` values in any order,
    /// duplicates allowed (at most 2^24, and at most the plan's `max_count`, which also bounds
    /// an indirect count): the values are sorted with `args.plan` ([`GpuSet::insert_plan`], or
    /// any ascending full-width sort of u32 keys without values) IN PLACE, so `values` (and
    /// `values_alt`, `sort_scratch`) hold scratch contents afterwards; then as
    /// [`GpuSet::record_insert_sorted`]. Every argument is checked before anything is recorded.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_insert(&self, cmd: vk::CommandBuffer, args: &GpuSetInsertArgs) -> Result<()> {
        let GpuSetInsertArgs {
            plan,
            values,
            values_alt,
            sort_scratch,
            count,
            remove,
            scratch,
            status,
        } = *args;
        let desc = plan.desc();
        let max_count = desc.max_count;
        if max_count > MAX_BATCH
            || desc.key_type != crate::KeyType::U32
            || desc.value_type != crate::ValueType::None
            || desc.descending
            || desc.begin_bit != 0
            || !matches!(desc.end_bit, 0 | 32)
        {
            return Err(Error::invalid(
                "set insert: the plan must sort u32 keys without values, ascending on all 32 bits, \
                 at most 2^24 (GpuSet::insert_plan)",
            ));
        }
        let bytes = match count {
            ElementCount::Direct(n) if n > max_count => {
                return Err(Error::invalid(format!(
                    "set insert: count {n} above the plan's {max_count}"
                )));
            }
            ElementCount::Direct(n) => n * 4,
            ElementCount::Indirect(_) => max_count * 4,
        };
        values.check(&self.ctx, "set insert values", bytes, 4)?;
        values_alt.check(&self.ctx, "set insert values_alt", bytes, 4)?;
        let max = self.check_insert_sorted(None, count, max_count, &scratch, &status)?;
        let sorted = plan.record(
            cmd,
            &crate::SortArgs {
                keys: values.part(0, bytes),
                values: None,
                keys_alt: values_alt.part(0, bytes),
                values_alt: None,
                scratch: sort_scratch,
                count,
            },
        )?;
        self.ctx.compute_to_compute(cmd);
        let src = match sorted {
            crate::SortResult::InPlace => values,
            crate::SortResult::Alternate => values_alt,
        };
        unsafe { self.record_insert_sorted_checked(cmd, &src, count, max, remove, &scratch, &status) }
    }

    /// Records `contains`: for each of `args.count` values (u32) a u32 flag (1 in the set, 0
    /// not) into `args.flags`. At most 2^32 - 1 values.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_contains(&self, cmd: vk::CommandBuffer, args: &GpuSetContainsArgs) -> Result<()> {
        let GpuSetContainsArgs {
            values,
            count,
            max_count,
            flags,
        } = *args;
        let (n, addr) = match count {
            ElementCount::Direct(n) => (n, 0),
            ElementCount::Indirect(r) => {
                r.check(&self.ctx, "set count", 4, 4)?;
                (max_count, self.ctx.address_of(&r))
            }
        };
        if n > u32::MAX as u64 {
            return Err(Error::invalid("set contains: count above 2^32 - 1"));
        }
        values.check(&self.ctx, "set values", n * 4, 4)?;
        flags.check(&self.ctx, "set flags", n * 4, 4)?;
        let push = SetPush {
            meta_d: self.meta(),
            values: self.ctx.address_of(&values),
            out_addr: self.ctx.address_of(&flags),
            count_addr: addr,
            count: n as u32,
            max_count: n as u32,
            ..Default::default()
        };
        let k = self.reader_kernel(&shaders::SET_CONTAINS, set_spec(&self.ctx))?;
        self.ctx
            .dispatch(cmd, k, &push, n.div_ceil(wg(&self.ctx) as u64) as u32);
        Ok(())
    }

    /// Records a filter: the values of `args.values` that are in the set, in input order, into
    /// `args.out` (room for `count` values), their number (a u32) into `args.out_count`. At
    /// most 65536 workgroups of values: 2^24 on GPUs, 2^22 on CPU drivers. Where the device
    /// runs look-back passes, one pass that looks each value up once; elsewhere count, scan and
    /// write passes that look it up twice ([`GpuSetFilterArgs::path`] chooses, for tests and
    /// benchmarks).
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_filter(&self, cmd: vk::CommandBuffer, args: &GpuSetFilterArgs) -> Result<()> {
        let GpuSetFilterArgs {
            values,
            count,
            max_count,
            out,
            out_count,
            scratch,
            path,
        } = *args;
        let ctx = &self.ctx;
        let (n, addr) = match count {
            ElementCount::Direct(n) => (n, 0),
            ElementCount::Indirect(r) => {
                r.check(&self.ctx, "set count", 4, 4)?;
                (max_count, ctx.address_of(&r))
            }
        };
        let max = 65536 * wg(ctx) as u64;
        if n > max {
            return Err(Error::invalid(format!(
                "set filter: count {n} above {max} (65536 workgroups)"
            )));
        }
        values.check(&self.ctx, "set values", n * 4, 4)?;
        out.check(&self.ctx, "set filter output", n * 4, 4)?;
        out_count.check(&self.ctx, "set filter count", 4, 4)?;
        scratch.check(&self.ctx, "set scratch", SET_SCRATCH_BYTES, 16)?;
        let tiles = n.div_ceil(wg(ctx) as u64) as u32;
        let mut push = SetPush {
            meta_d: self.meta(),
            scratch: ctx.address_of(&scratch),
            values: ctx.address_of(&values),
            out_addr: ctx.address_of(&out),
            count_addr: addr,
            count: n as u32,
            max_count: n as u32,
            ..Default::default()
        };
        if tiles == 0 {
            ctx.device
                .cmd_fill_buffer(cmd, out_count.buffer, out_count.offset, 4, 0);
            return Ok(());
        }
        let spins = match path {
            FilterPath::Auto if ctx.profile.lookback => Some(filter_spins(ctx)),
            FilterPath::Auto | FilterPath::CountScanWrite => None,
            FilterPath::Lookback { spins } => Some(spins),
        };
        if let Some(spin_limit) = spins {
            // The status words (and the 16 bytes before them) zeroed, then the one pass, in
            // tiles of FILTER_ITEMS values an invocation.
            let tiles = n.div_ceil(wg(ctx) as u64 * FILTER_ITEMS) as u32;
            let status_bytes = 16 + tiles as u64 * 8;
            let status = scratch.part(FILTER_STATUS_WORD * 4, status_bytes);
            let filter = self.reader_kernel(&shaders::SET_FILTER, filter_lookback_spec(ctx, spin_limit))?;
            ctx.record_compute_fill(cmd, &status, (status_bytes / 4) as u32, 0)?;
            ctx.compute_to_compute(cmd);
            push.mode = 2;
            push.range_lo = ctx.address_of(&out_count);
            ctx.dispatch(cmd, filter, &push, tiles);
            return Ok(());
        }
        let filter = self.reader_kernel(&shaders::SET_FILTER, set_spec(ctx))?;
        let info = kernel(ctx, &shaders::SET_INFO)?;
        push.mode = 0;
        ctx.dispatch(cmd, filter, &push, tiles);
        ctx.compute_to_compute(cmd);
        let info_push = SetPush {
            scratch: push.scratch,
            out_addr: ctx.address_of(&out_count),
            count: tiles,
            mode: 2,
            ..Default::default()
        };
        ctx.dispatch(cmd, info, &info_push, 1);
        ctx.compute_to_compute(cmd);
        push.mode = 1;
        ctx.dispatch(cmd, filter, &push, tiles);
        Ok(())
    }

    /// Records to-array: the set's values ascending into `args.out` (at most `args.capacity`
    /// of them: values past it are not written) and the cardinality (u64 as two u32, low
    /// first) into `args.count_out`.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_to_array(&self, cmd: vk::CommandBuffer, args: &GpuSetToArrayArgs) -> Result<()> {
        self.check_to_array(args)?;
        for phase in 0..TO_ARRAY_PHASES {
            if phase > 0 {
                self.ctx.compute_to_compute(cmd);
            }
            // SAFETY: as this call's (documented); the arguments are checked.
            unsafe { self.record_to_array_phase(cmd, args, phase)? };
        }
        Ok(())
    }

    /// Refuses to-array arguments [`GpuSet::record_to_array`] cannot use.
    pub(super) fn check_to_array(&self, args: &GpuSetToArrayArgs) -> Result<()> {
        let capacity = args.capacity.min(u32::MAX as u64);
        args.out
            .check(&self.ctx, "set to_array output", capacity * 4, 4)?;
        args.count_out.check(&self.ctx, "set to_array count", 8, 4)?;
        args.scratch
            .check(&self.ctx, "set scratch", SET_SCRATCH_BYTES, 16)
    }

    /// Records phase `phase` (< [`TO_ARRAY_PHASES`]) of [`GpuSet::record_to_array`] with
    /// checked arguments: the chunk offsets and the list of non-empty chunks (each block's
    /// sums, then each block's offsets from the sums before it: glsl/set/info.comp modes 0 and
    /// 3), then the values. Each phase reads what the one before wrote: the caller puts a
    /// compute-to-compute barrier between them.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub(super) unsafe fn record_to_array_phase(
        &self,
        cmd: vk::CommandBuffer,
        args: &GpuSetToArrayArgs,
        phase: u32,
    ) -> Result<()> {
        let ctx = &self.ctx;
        let push = SetPush {
            meta_d: self.meta(),
            scratch: ctx.address_of(&args.scratch),
            out_addr: ctx.address_of(&args.count_out),
            mode: 0,
            ..Default::default()
        };
        match phase {
            0 | 1 => {
                let info = self.reader_kernel(&shaders::SET_INFO, set_spec(ctx))?;
                let mode = if phase == 0 { 0 } else { 3 };
                // SAFETY: `cmd` is recording (the caller's contract).
                unsafe { ctx.dispatch(cmd, info, &SetPush { mode, ..push }, OFFSET_BLOCKS) };
            }
            _ => {
                let to_array = self.reader_kernel(&shaders::SET_TO_ARRAY, set_spec(ctx))?;
                let push = SetPush {
                    out_addr: ctx.address_of(&args.out),
                    max_count: args.capacity.min(u32::MAX as u64) as u32,
                    grid: chunk_grid(self.chunk_bound()),
                    ..push
                };
                // SAFETY: as above.
                unsafe { ctx.dispatch(cmd, to_array, &push, push.grid) };
            }
        }
        Ok(())
    }

    /// Records the cardinality of `[args.begin, args.end)` (u64 as two u32, low first) into
    /// `args.out`: it zeroes `out`, then workgroups of 256 of the range's chunks each add their
    /// count.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_range_cardinality(
        &self,
        cmd: vk::CommandBuffer,
        args: &GpuSetRangeCardinalityArgs,
    ) -> Result<()> {
        let GpuSetRangeCardinalityArgs { begin, end, out } = *args;
        check_range(begin, end, "set range cardinality")?;
        out.check(&self.ctx, "set range cardinality output", 8, 4)?;
        let ctx = &self.ctx;
        let info = self.reader_kernel(&shaders::SET_INFO, set_spec(ctx))?;
        // Workgroups of 256 of the range's chunks each add their count to `out`, zeroed first
        // (glsl/set/info.comp mode 1).
        let groups = if begin < end {
            ((((end - 1) >> 16) - (begin >> 16)) / OFFSET_BLOCK + 1) as u32
        } else {
            1
        };
        ctx.record_compute_fill(cmd, &out, 2, 0)?;
        ctx.compute_to_compute(cmd);
        let push = SetPush {
            meta_d: self.meta(),
            out_addr: ctx.address_of(&out),
            range_lo: begin,
            range_hi: end,
            mode: 1,
            ..Default::default()
        };
        ctx.dispatch(cmd, info, &push, groups);
        Ok(())
    }
}

/// Checks a record call's scratch ([`SET_SCRATCH_BYTES`], 16-byte aligned) and status
/// ([`SET_STATUS_BYTES`], 4-byte aligned), and that they do not overlap.
fn check_scratch_status(
    ctx: &Context,
    scratch: &BufferRange,
    status: &BufferRange,
    what: &str,
) -> Result<()> {
    scratch.check(ctx, "set scratch", SET_SCRATCH_BYTES, 16)?;
    status.check(ctx, "set status", SET_STATUS_BYTES, 4)?;
    if scratch.overlaps(status) {
        return Err(Error::invalid(format!("{what}: scratch and status overlap")));
    }
    Ok(())
}

pub(crate) fn check_range(begin: u64, end: u64, what: &str) -> Result<()> {
    if begin > end || end > 1 << 32 {
        return Err(Error::invalid(format!(
            "{what}: [{begin}, {end}) is not a range within [0, 2^32]"
        )));
    }
    Ok(())
}
