//! Blocking host calls on sets: upload, record (through the record layer), submit, wait
//! (bounded by the context's timeout), download. Arguments are checked before any GPU work;
//! on an argument error nothing changes. Modifying calls grow the destination's pools and run
//! again when the GPU reports them short (the failed attempt wrote nothing).

use super::args::{
    GpuSetCardinalityBatchArgs, GpuSetContainsArgs, GpuSetFilterArgs, GpuSetRangeCardinalityArgs,
    GpuSetToArrayArgs,
};
use super::batch::{batch_scratch_bytes, parts_within, record_update_batch, BATCH_STATUS_STRIDE};
use super::gpu::{GpuSet, SetOpStatus, SetOperand};
use super::layout::{MAX_BATCH, SET_SCRATCH_BYTES, SET_STATUS_BYTES};
use super::passes::{record_update_phase, Phase, Update};
use super::paths::{CardinalityPath, OpPath};
use super::record::check_range;
use super::roaring;
use super::transfer::StagedUpload;
use crate::core::buffer::{BufferRange, ElementCount, GpuBuffer};
use crate::core::runner::{finish_submission, read_back};
use crate::error::{Error, Result};
use crate::sort::{KeyType, SortArgs, SortDesc, SortResult, ValueType};
use crate::{Context, SetOp};
use ash::vk;

/// Scratch of one submission's batch of operations at most (the batches run one after another).
const BATCH_SCRATCH_BYTES: u64 = 64 << 20;

fn scratch(ctx: &Context) -> Result<GpuBuffer> {
    ctx.device_buffer(SET_SCRATCH_BYTES, "vkalgo set scratch")
}

/// The destinations of a batch of operations ([`GpuSet::run_batch`]).
pub(super) enum Destinations {
    /// The caller's sets: a short one grows its pools.
    Existing,
    /// Empty sets made for the batch ([`GpuSet::empty_many_staged`]: no view of them exists),
    /// with their initialization, recorded first in the batch's submission.
    Fresh(Option<StagedUpload>),
}

impl GpuSet {
    /// Runs updates built by `update` (called again after each growth), growing the pools
    /// while the GPU reports them short. A packed set is unpacked first.
    fn run_update(&mut self, update: impl Fn(&GpuSet) -> Result<Update>) -> Result<SetOpStatus> {
        self.run_growing(SET_SCRATCH_BYTES, |s, cmd, attempt, scratch, status| {
            // After a growth only the check and the write run again: the failed attempt
            // changed nothing, so its chunk lists and block counts in scratch still hold.
            let phase = if attempt == 0 { Phase::All } else { Phase::Retry };
            let u = update(s)?;
            s.note_update(&u);
            // SAFETY: `cmd` is the runner's recording command buffer; the buffers are live.
            let status = s.ctx.address_of(status);
            unsafe { record_update_phase(&s.ctx, cmd, &u, scratch, status, true, phase) }
        })
    }

    /// Runs an update that `record` records (into one submission, with `scratch_bytes` of
    /// scratch and a status range; called again, with the attempt's number,
    /// after each growth), growing the pools while the GPU reports them short; then keeps the
    /// exact count of non-empty chunks. A packed set is unpacked first.
    pub(super) fn run_growing(
        &mut self,
        scratch_bytes: u64,
        record: impl Fn(&GpuSet, vk::CommandBuffer, u32, &BufferRange, &BufferRange) -> Result<()>,
    ) -> Result<SetOpStatus> {
        self.unpack()?;
        let ctx = self.ctx.clone();
        let scratch = ctx.device_buffer(scratch_bytes, "vkalgo set scratch")?;
        // The status, then (at 32) the destination's count of non-empty chunks.
        let mut status_buf = ctx.readback_buffer(64)?;
        for attempt in 0..4 {
            let done = ctx.submit_and_wait(|cmd| unsafe {
                let status = status_buf.range().part(0, SET_STATUS_BYTES);
                record(self, cmd, attempt, &scratch.range(), &status)?;
                self.record_nonempty_copy(cmd, &status_buf, 32);
                Ok(())
            });
            finish_submission!(done, scratch, status_buf);
            let mut words = [0u32; 9];
            read_back(&mut status_buf, &mut words)?;
            let status: SetOpStatus = bytemuck::cast(<[u32; 8]>::try_from(&words[..8]).unwrap());
            if status.ok == 1 {
                self.set_chunk_bound(words[8]);
                return Ok(status);
            }
            self.grow_for(&status)?;
        }
        Err(Error::Internal("set: pool growth did not converge".into()))
    }

    /// Records, after the set's update, the copy of its count of non-empty chunks to byte
    /// `offset` of `readback` and the barrier to the host's read.
    ///
    /// # Safety
    /// `cmd` must be recording; `readback` must hold 4 bytes at `offset`.
    unsafe fn record_nonempty_copy(&self, cmd: vk::CommandBuffer, readback: &GpuBuffer, offset: u64) {
        let ctx = &self.ctx;
        ctx.compute_to_transfer(cmd);
        let region = [vk::BufferCopy {
            src_offset: self.control.offset() + 80,
            dst_offset: offset,
            size: 4,
        }];
        ctx.device
            .cmd_copy_buffer(cmd, self.control.buffer(), readback.buffer(), &region);
        ctx.memory_barrier(
            cmd,
            vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE,
            vk::PipelineStageFlags::HOST,
            vk::AccessFlags::HOST_READ,
        );
    }

    /// Builds a set from values in any order, duplicates allowed. Its pools hold exactly the
    /// blocks in use ([`GpuSet::shrink_to_fit`]: batches of more than 2^22 values leave free
    /// blocks behind).
    pub fn from_values(ctx: &Context, values: &[u32]) -> Result<Self> {
        let mut s = GpuSet::new(ctx)?;
        s.insert(values)?;
        s.shrink_to_fit()?;
        Ok(s)
    }

    /// Inserts values (any order, duplicates allowed). They go in batches of 2^22: on a set
    /// whose pools cannot grow (on the caller's memory), an [`Error::OutOfMemory`] leaves the
    /// batches before the failing one applied (the failing batch changes nothing).
    pub fn insert(&mut self, values: &[u32]) -> Result<()> {
        self.insert_or_remove(values, false)
    }

    /// Removes values (any order, duplicates and absent values allowed), in batches as
    /// [`GpuSet::insert`].
    pub fn remove(&mut self, values: &[u32]) -> Result<()> {
        self.insert_or_remove(values, true)
    }

    fn insert_or_remove(&mut self, values: &[u32], remove: bool) -> Result<()> {
        // Batches of 2^22: bounded per-invocation loops on CPU drivers (a chunk's run of
        // values is read by one workgroup) and bounded temporary memory.
        for batch in values.chunks(1 << 22) {
            self.insert_batch(batch, remove)?;
        }
        Ok(())
    }

    fn insert_batch(&mut self, values: &[u32], remove: bool) -> Result<()> {
        debug_assert!(values.len() as u64 <= MAX_BATCH);
        if values.is_empty() {
            return Ok(());
        }
        let ctx = self.ctx.clone();
        let n = values.len() as u64;
        let plan = ctx.sort_plan(&SortDesc::new(KeyType::U32, ValueType::None, n))?;
        let req = plan.memory_requirements();
        let upload = ctx.staging_from(values)?;
        let keys = ctx.device_buffer(n * 4, "vkalgo set values")?;
        let keys_alt = ctx.device_buffer(req.keys_alt.size.max(n * 4), "vkalgo set values alt")?;
        let sort_scratch = ctx.device_buffer(req.scratch.size.max(16), "vkalgo set sort scratch")?;
        let mut location = SortResult::InPlace;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            ctx.record_copy(cmd, &upload, &keys, n * 4);
            ctx.transfer_to_compute(cmd);
            location = plan.record(
                cmd,
                &SortArgs {
                    keys: keys.sub_range(0, n * 4),
                    values: None,
                    keys_alt: keys_alt.sub_range(0, n * 4),
                    values_alt: None,
                    scratch: sort_scratch.range(),
                    count: ElementCount::Direct(n),
                },
            )?;
            ctx.compute_to_compute(cmd);
            Ok(())
        });
        finish_submission!(done, upload, keys, keys_alt, sort_scratch);
        let sorted = match location {
            SortResult::InPlace => keys.address(),
            SortResult::Alternate => keys_alt.address(),
        };
        self.run_update(|s| Ok(s.values_update(sorted, ElementCount::Direct(n), n as u32, remove)))?;
        drop((keys, keys_alt, sort_scratch));
        Ok(())
    }

    /// Inserts every value of `[begin, end)` (`begin <= end <= 2^32`).
    pub fn insert_range(&mut self, begin: u64, end: u64) -> Result<()> {
        check_range(begin, end, "set insert_range")?;
        if begin == end {
            return Ok(());
        }
        self.run_update(|s| Ok(s.range_update(begin, end)))?;
        Ok(())
    }

    /// Keeps each chunk in the smallest of its forms, as CRoaring's `run_optimize`: run
    /// chunks (Roaring's run containers) where their runs take fewer bytes than an array or a
    /// bitmap and there are at most 48 of them, else arrays and bitmaps. Operations write their
    /// results in that form where chunk_update.comp writes them (every chunk pair with a run
    /// chunk, and pairs of more than 2048 values that are not two bitmaps); a set built from
    /// values or by the other pair kernels holds arrays and bitmaps until this is called. On
    /// clustered sets it takes memory down by orders of magnitude. Like every operation, it
    /// first needs free blocks for the results it writes (the pools may grow), and gives the
    /// old ones back: follow it with [`GpuSet::shrink_to_fit`] to return them. Blocking.
    pub fn run_optimize(&mut self) -> Result<()> {
        self.run_update(|s| Ok(s.optimize_update()))?;
        Ok(())
    }

    /// `self = a op b`, where either operand may be the set itself ([`SetOperand::This`]).
    /// Sets of different contexts: [`Error::InvalidArgument`].
    pub fn assign(&mut self, a: SetOperand, b: SetOperand, op: SetOp) -> Result<()> {
        self.assign_on(a, b, op, OpPath::Auto)
    }

    /// [`GpuSet::assign`] on a chosen path (tests and benchmarks).
    #[doc(hidden)]
    pub fn assign_on(&mut self, a: SetOperand, b: SetOperand, op: SetOp, path: OpPath) -> Result<()> {
        self.operand_meta(a, "set op")?;
        self.operand_meta(b, "set op")?;
        self.unpack()?;
        // A retry after the pools grew runs the first attempt's lists again: it keeps the
        // first attempt's path (an operand that is the destination may have grown).
        let first = self.op_update(a, b, op, path)?.one_kernel;
        let path = if first {
            OpPath::OneKernel
        } else {
            OpPath::PairKernels
        };
        self.run_update(|s| s.op_update(a, b, op, path))?;
        Ok(())
    }

    /// A new set `a op b`.
    pub fn op(a: &GpuSet, b: &GpuSet, op: SetOp) -> Result<GpuSet> {
        let mut d = GpuSet::new(&a.ctx)?;
        d.assign(SetOperand::Set(a), SetOperand::Set(b), op)?;
        Ok(d)
    }

    /// Several operations `dst_i = a_i op_i b_i` in one submission, recorded as one batch
    /// whatever their number (each pass runs for every operation in one dispatch; the borrow
    /// rules keep each destination out of the other operations). Operations whose
    /// destination's pools were short write nothing; their pools grow and they run again, all
    /// of them in one more submission.
    pub fn assign_batch(jobs: &mut [(&mut GpuSet, SetOperand, SetOperand, SetOp)]) -> Result<()> {
        Self::run_batch(jobs, Destinations::Existing)
    }

    /// [`GpuSet::assign_batch`] into `destinations`: with fresh ones, the short destinations
    /// are replaced by empty sets with the blocks they need, made in the next attempt's
    /// submission, instead of growing each (two submissions a set).
    pub(super) fn run_batch(
        jobs: &mut [(&mut GpuSet, SetOperand, SetOperand, SetOp)],
        destinations: Destinations,
    ) -> Result<()> {
        let Some(first) = jobs.first() else {
            return Ok(());
        };
        let ctx = first.0.ctx.clone();
        for (d, a, b, _) in jobs.iter() {
            if !d.ctx.same_as(&ctx) {
                return Err(Error::invalid(
                    "set assign_batch: the sets come from different contexts",
                ));
            }
            d.operand_meta(*a, "set assign_batch")?;
            d.operand_meta(*b, "set assign_batch")?;
        }
        for (d, _, _, _) in jobs.iter_mut() {
            d.unpack()?;
        }
        let mut pending: Vec<usize> = (0..jobs.len()).collect();
        let (fresh, mut init) = match destinations {
            Destinations::Existing => (false, None),
            Destinations::Fresh(init) => (true, init),
        };
        for _attempt in 0..4 {
            let mut updates = Vec::with_capacity(pending.len());
            for &j in &pending {
                let (d, a, b, op) = &jobs[j];
                let u = d.op_update(*a, *b, *op, OpPath::PairKernels)?;
                d.note_update(&u);
                updates.push(u);
            }
            // Batches of at most BATCH_SCRATCH_BYTES of scratch, one after another.
            let parts = parts_within(&updates, BATCH_SCRATCH_BYTES);
            let scratch_bytes = parts
                .iter()
                .map(|p| batch_scratch_bytes(&updates[p.clone()]))
                .max()
                .unwrap_or(16);
            let scratch = ctx.device_buffer(scratch_bytes, "vkalgo set batch scratch")?;
            let mut status_buf = ctx.readback_buffer(BATCH_STATUS_STRIDE * updates.len() as u64)?;
            let base = status_buf.address();
            let done = ctx.submit_and_wait(|cmd| unsafe {
                if let Some(init) = &init {
                    init.record(&ctx, cmd)?;
                    ctx.transfer_to_compute(cmd);
                }
                for p in &parts {
                    let slot = |i: usize| base + (p.start + i) as u64 * BATCH_STATUS_STRIDE;
                    record_update_batch(&ctx, cmd, &updates[p.clone()], &scratch.range(), slot, true)?;
                }
                ctx.compute_to_host(cmd);
                Ok(())
            });
            if let (Err(Error::Timeout(_)), Some(init)) = (&done, init.take()) {
                init.leak();
            }
            finish_submission!(done, scratch, status_buf);
            init = None;
            let stride = (BATCH_STATUS_STRIDE / 4) as usize;
            let mut words = vec![0u32; stride * updates.len()];
            read_back(&mut status_buf, &mut words)?;
            let mut failed = Vec::new();
            let mut needs = Vec::new();
            for (k, w) in words.chunks_exact(stride).enumerate() {
                let status: SetOpStatus = bytemuck::cast(<[u32; 8]>::try_from(&w[..8]).unwrap());
                let d = &mut jobs[pending[k]].0;
                if status.ok == 1 {
                    d.set_chunk_bound(w[8]);
                } else {
                    if fresh {
                        // The blocks it needs and an eighth more, as a growth would give.
                        let more = |need: u32| need.saturating_add(need / 8);
                        needs.push((more(status.need_bitmap_blocks), more(status.need_array_blocks)));
                    } else {
                        d.grow_for(&status)?;
                    }
                    failed.push(pending[k]);
                }
            }
            if failed.is_empty() {
                return Ok(());
            }
            if fresh {
                let (made, made_init) = GpuSet::empty_many_staged(&ctx, &needs)?;
                for (&j, d) in failed.iter().zip(made) {
                    *jobs[j].0 = d;
                }
                init = made_init;
            }
            pending = failed;
        }
        Err(Error::Internal("set: pool growth did not converge".into()))
    }

    /// The cardinality of `a op b` without materializing it.
    pub fn op_cardinality(a: &GpuSet, b: &GpuSet, op: SetOp) -> Result<u64> {
        Ok(Self::op_cardinality_batch(&[(a, b)], op)?[0])
    }

    /// The cardinalities of `a_i op b_i` for many pairs (e.g. one query set against many), in
    /// one submission, the pairs side by side ([`GpuSet::record_op_cardinality_batch`], with
    /// scratch for 8 pairs at once).
    pub fn op_cardinality_batch(pairs: &[(&GpuSet, &GpuSet)], op: SetOp) -> Result<Vec<u64>> {
        let Some(first) = pairs.first() else {
            return Ok(Vec::new());
        };
        let ctx = first.0.ctx.clone();
        for (a, b) in pairs {
            if !a.ctx.same_as(&ctx) {
                return Err(Error::invalid(
                    "set op cardinality: the sets come from different contexts",
                ));
            }
            GpuSet::card_update(a, b, op)?; // refuses sets of different contexts first
        }
        // Scratch for every pair counted by the passes in one batch, within BATCH_SCRATCH_BYTES.
        let mut by_passes = Vec::new();
        for (a, b) in pairs
            .iter()
            .filter(|(a, b)| !CardinalityPath::Auto.counts_in_one_pass_of_batch(pairs.len(), a, b))
        {
            by_passes.push(GpuSet::card_update(a, b, op)?);
        }
        let scratch_bytes = batch_scratch_bytes(&by_passes).clamp(SET_SCRATCH_BYTES, BATCH_SCRATCH_BYTES);
        let scratch = ctx.device_buffer(scratch_bytes, "vkalgo set scratch")?;
        let mut status_buf = ctx.readback_buffer(SET_STATUS_BYTES * pairs.len() as u64)?;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            GpuSet::record_op_cardinality_batch(
                cmd,
                &GpuSetCardinalityBatchArgs::new(pairs, op, scratch.range(), status_buf.range()),
            )?;
            ctx.compute_to_host(cmd);
            Ok(())
        });
        finish_submission!(done, scratch, status_buf);
        let mut status = vec![SetOpStatus::default(); pairs.len()];
        read_back(&mut status_buf, &mut status)?;
        for (i, s) in status.iter().enumerate() {
            if s.ok != 1 {
                return Err(Error::Internal(format!(
                    "set op cardinality batch: pair {i} reported no result ({s:?})"
                )));
            }
        }
        Ok(status.iter().map(|s| s.cardinality()).collect())
    }

    /// Whether each value is in the set (`found` as long as `values`).
    pub fn contains(&self, values: &[u32], found: &mut [bool]) -> Result<()> {
        if found.len() != values.len() {
            return Err(Error::invalid("set contains: values and found differ in length"));
        }
        let mut flags = vec![0u32; values.len()];
        self.contains_flags(values, &mut flags)?;
        for (f, c) in found.iter_mut().zip(flags) {
            *f = c != 0;
        }
        Ok(())
    }

    /// [`GpuSet::contains`] with u32 flags (1 in the set, 0 not).
    pub fn contains_flags(&self, values: &[u32], flags: &mut [u32]) -> Result<()> {
        if flags.len() != values.len() {
            return Err(Error::invalid("set contains: values and flags differ in length"));
        }
        let ctx = &self.ctx;
        for (vals, out) in values.chunks(1 << 24).zip(flags.chunks_mut(1 << 24)) {
            let n = vals.len() as u64;
            let upload = ctx.staging_from(vals)?;
            let dev_in = ctx.device_buffer(n * 4, "vkalgo set queries")?;
            let dev_out = ctx.device_buffer(n * 4, "vkalgo set flags")?;
            let mut down = ctx.readback_buffer(n * 4)?;
            let done = ctx.submit_and_wait(|cmd| unsafe {
                ctx.record_copy(cmd, &upload, &dev_in, n * 4);
                ctx.transfer_to_compute(cmd);
                self.record_contains(
                    cmd,
                    &GpuSetContainsArgs {
                        values: dev_in.range(),
                        count: ElementCount::Direct(n),
                        max_count: n,
                        flags: dev_out.range(),
                    },
                )?;
                ctx.compute_to_transfer(cmd);
                ctx.record_copy(cmd, &dev_out, &down, n * 4);
                ctx.transfer_to_host(cmd);
                Ok(())
            });
            finish_submission!(done, upload, dev_in, dev_out, down);
            read_back(&mut down, out)?;
        }
        Ok(())
    }

    /// The number of values in the set (up to 2^32). Answered on the host, with no GPU work,
    /// where the set has not been written since it was built from a Roaring file, packed,
    /// unpacked or counted by an earlier call (as CRoaring keeps its containers' counts); a
    /// set written through the record layer is counted on the GPU at every call.
    pub fn cardinality(&self) -> Result<u64> {
        if let Some(known) = self.known_cardinality() {
            return Ok(known);
        }
        let counted = self.count_range(0, 1 << 32)?;
        self.remember_cardinality(counted);
        Ok(counted)
    }

    /// The number of values in `[begin, end)` (`begin <= end <= 2^32`); the whole universe as
    /// [`GpuSet::cardinality`].
    pub fn range_cardinality(&self, begin: u64, end: u64) -> Result<u64> {
        check_range(begin, end, "set range_cardinality")?;
        if begin == 0 && end == 1 << 32 {
            return self.cardinality();
        }
        self.count_range(begin, end)
    }

    /// Whether [`GpuSet::cardinality`] would answer on the host (tests).
    #[doc(hidden)]
    pub fn knows_cardinality(&self) -> bool {
        self.known_cardinality().is_some()
    }

    /// The cardinality counted on the GPU, whatever the host knows (tests).
    #[doc(hidden)]
    pub fn counted_cardinality(&self) -> Result<u64> {
        self.count_range(0, 1 << 32)
    }

    /// Counts the values in `[begin, end)` on the GPU (a checked range).
    fn count_range(&self, begin: u64, end: u64) -> Result<u64> {
        let ctx = &self.ctx;
        let mut out = ctx.readback_buffer(16)?;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            self.record_range_cardinality(
                cmd,
                &GpuSetRangeCardinalityArgs {
                    begin,
                    end,
                    out: out.sub_range(0, 8),
                },
            )?;
            ctx.compute_to_host(cmd);
            Ok(())
        });
        finish_submission!(done, out);
        let mut v = [0u32; 2];
        read_back(&mut out, &mut v)?;
        Ok(v[0] as u64 | (v[1] as u64) << 32)
    }

    /// The values in ascending order into `out`; returns how many. When `out` is too small,
    /// [`Error::InvalidArgument`] naming the cardinality, and nothing is written.
    pub fn to_array(&self, out: &mut [u32]) -> Result<usize> {
        let card = self.cardinality()?;
        if card > out.len() as u64 {
            return Err(Error::invalid(format!(
                "set to_array: the set holds {card} values, the output has room for {}",
                out.len()
            )));
        }
        if card == 0 {
            return Ok(0);
        }
        let ctx = &self.ctx;
        let scratch = scratch(ctx)?;
        let dev = ctx.device_buffer(card * 4, "vkalgo set values out")?;
        let mut down = ctx.readback_buffer(card * 4)?;
        let count = ctx.device_buffer(16, "vkalgo set count")?;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            self.record_to_array(
                cmd,
                &GpuSetToArrayArgs {
                    out: dev.range(),
                    capacity: card,
                    count_out: count.sub_range(0, 8),
                    scratch: scratch.range(),
                },
            )?;
            ctx.compute_to_transfer(cmd);
            ctx.record_copy(cmd, &dev, &down, card * 4);
            ctx.transfer_to_host(cmd);
            Ok(())
        });
        finish_submission!(done, scratch, dev, down, count);
        read_back(&mut down, &mut out[..card as usize])?;
        Ok(card as usize)
    }

    /// The values in ascending order.
    pub fn to_vec(&self) -> Result<Vec<u32>> {
        let card = self.cardinality()?;
        if card > isize::MAX as u64 / 4 {
            return Err(Error::OutOfMemory("set to_vec: too many values".into()));
        }
        let mut out = vec![0u32; card as usize];
        let n = self.to_array(&mut out)?;
        out.truncate(n);
        Ok(out)
    }

    /// The values of `values` that are in the set, in input order.
    pub fn filter(&self, values: &[u32]) -> Result<Vec<u32>> {
        let ctx = &self.ctx;
        let mut result = Vec::new();
        for vals in values.chunks(1 << 22) {
            let n = vals.len() as u64;
            let scratch = scratch(ctx)?;
            let upload = ctx.staging_from(vals)?;
            let dev_in = ctx.device_buffer(n * 4, "vkalgo set queries")?;
            let dev_out = ctx.device_buffer(n * 4, "vkalgo set filtered")?;
            let mut down = ctx.readback_buffer(n * 4)?;
            let mut count = ctx.readback_buffer(16)?;
            let done = ctx.submit_and_wait(|cmd| unsafe {
                ctx.record_copy(cmd, &upload, &dev_in, n * 4);
                ctx.transfer_to_compute(cmd);
                self.record_filter(
                    cmd,
                    &GpuSetFilterArgs::new(
                        dev_in.range(),
                        ElementCount::Direct(n),
                        n,
                        dev_out.range(),
                        count.sub_range(0, 4),
                        scratch.range(),
                    ),
                )?;
                ctx.memory_barrier(
                    cmd,
                    vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
                    vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE,
                    vk::PipelineStageFlags::TRANSFER | vk::PipelineStageFlags::HOST,
                    vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::HOST_READ,
                );
                ctx.record_copy(cmd, &dev_out, &down, n * 4);
                ctx.transfer_to_host(cmd);
                Ok(())
            });
            finish_submission!(done, scratch, upload, dev_in, dev_out, down, count);
            let mut kept = [0u32];
            read_back(&mut count, &mut kept)?;
            let start = result.len();
            result.resize(start + kept[0] as usize, 0);
            read_back(&mut down, &mut result[start..])?;
        }
        Ok(result)
    }

    /// Bytes of the Roaring portable serialization [`GpuSet::serialize`] writes.
    pub fn serialized_size(&self) -> Result<u64> {
        Ok(Self::serialize_encoded(&[self])?.0.len() as u64)
    }

    /// The Roaring portable serialization, the bytes CRoaring's
    /// `roaring_bitmap_portable_serialize` writes for the same values after `run_optimize`:
    /// each chunk a run container where its runs take fewer bytes, else an array (up to 4096
    /// values) or a bitmap; cookie 12347 when any chunk is runs, else 12346.
    pub fn serialize(&self) -> Result<Vec<u8>> {
        Ok(Self::serialize_encoded(&[self])?.0)
    }

    /// A set from a Roaring portable serialization (cookies 12346 and 12347; array, bitmap
    /// and run containers). Malformed input: [`Error::InvalidArgument`], no set created.
    pub fn deserialize(ctx: &Context, data: &[u8]) -> Result<GpuSet> {
        let chunks = roaring::deserialize(data)?;
        GpuSet::from_chunks(ctx, &chunks)
    }
}
