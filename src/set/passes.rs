//! How set updates run on the GPU: the push constants every set kernel shares, the kernels'
//! specializations and grids, and the passes of an update (clear, classify or boundaries,
//! count, check, write; the one-pass cardinality), as the record layer (record.rs) and the host
//! layer record them.

use super::layout::{
    with_forms, SetSpec, CHUNKS, CLASSIFY_ONE_KERNEL, DIR_PACKED_A, DIR_PACKED_B, DIR_PACKED_D,
    SCRATCH_HEADER, SET_STATUS_BYTES,
};
use super::tuning::{tuned, Knob};
use crate::core::buffer::{BufferRange, ElementCount};
use crate::core::shaders::{self, ShaderSource};
use crate::core::spirv::push_constants;
use crate::error::{Error, Result};
use crate::Context;
use ash::vk;

push_constants! {
    /// Push constants of every set kernel (glsl/set/set_common.glsl, block `SetPush`).
    pub(crate) struct SetPush {
        pub(super) meta_d: u64,
        pub(super) meta_a: u64,
        pub(super) meta_b: u64,
        pub(super) scratch: u64,
        pub(super) values: u64,
        pub(super) out_addr: u64,
        pub(super) count_addr: u64,
        pub(super) range_lo: u64,
        pub(super) range_hi: u64,
        pub(super) count: u32,
        pub(super) max_count: u32,
        pub(super) op: u32,
        pub(super) mode: u32,
        pub(super) grid: u32,
        pub(super) aux: u32,
        /// The batch kernels' job table (batch.rs [`SetJob`](super::batch::SetJob)); 0 elsewhere.
        pub(super) jobs: u64,
    }
}

/// Chunks per workgroup of to_array's offsets passes and of range cardinalities, and the
/// workgroups of the offsets passes (glsl/set/info.comp OFFSET_BLOCK, OFFSET_BLOCKS).
pub(super) const OFFSET_BLOCK: u64 = 256;
pub(super) const OFFSET_BLOCKS: u32 = (CHUNKS / OFFSET_BLOCK) as u32;

/// Workgroups of a grid-stride pass over at most `bound` listed chunks: at most 4096, so each
/// takes at most 16 chunks (lavapipe ends an invocation's loops after a bounded number of
/// iterations: docs/driver-bugs.md#lavapipe-loop-limit), and no more than there can be chunks
/// (idle workgroups cost a lot on CPU drivers).
pub(super) fn chunk_grid(bound: u32) -> u32 {
    bound.clamp(1, 4096)
}

/// Invocations per workgroup of most set kernels (tuning.rs: fewer on CPU drivers, where each
/// invocation of a kernel with barriers is a coroutine).
pub(crate) fn wg(ctx: &Context) -> u32 {
    tuned(ctx.device_class(), Knob::Workgroup)
}

/// What an update does ([`Update::mode`], the push constants' `mode` of classify.comp and the
/// pair kernels): an operation of two sets into a destination ...
pub(super) const MODE_OP: u32 = 0;
/// ... the cardinality of an operation, nothing written ...
pub(super) const MODE_CARD: u32 = 1;
/// ... a range of values inserted ...
pub(super) const MODE_RANGE: u32 = 2;
/// ... sorted values inserted or removed ...
pub(super) const MODE_VALUES: u32 = 3;
/// ... every chunk neither empty nor full written again in the form result_form picks
/// (run_optimize).
pub(super) const MODE_OPTIMIZE: u32 = 4;

/// One modifying (or counting) operation as passes: the push constants that differ.
#[derive(Clone)]
pub(crate) struct Update {
    pub d: u64,
    pub a: u64,
    pub b: u64,
    pub op: u32,
    pub mode: u32,
    pub range: (u64, u64),
    /// Sorted values (MODE_VALUES) and their count.
    pub values: u64,
    pub count: ElementCount,
    pub max_count: u32,
    /// At most this many chunks can be listed (work or trivial).
    pub bound: u32,
    /// Two sets' operation: at most this many chunks are bitmaps in both (the smaller of their
    /// bitmap pools), which sizes bitmap_pairs.comp's grid; 0 for other updates.
    pub bitmap_pair_bound: u32,
    /// Two sets' operation or cardinality: at most this many chunks hold blocks in either
    /// operand (their array and bitmap pools together), and only such chunks make pairs of
    /// arrays or copies, which sizes the array-pair kernels' grids; `u32::MAX` for other
    /// updates.
    pub block_chunk_bound: u32,
    /// The destination's bound on non-empty chunks afterwards.
    pub result_bound: u32,
    /// Two sets' operation on [`OpPath::OneKernel`]: classify lists every pair for
    /// chunk_update.comp, and the other pair kernels are not launched.
    pub one_kernel: bool,
    /// The sets' directory forms ([`dir_forms`]): packed operands are read, never written.
    pub forms: u32,
    /// The destination has no non-empty chunk (a batch's classification skips its directory).
    pub dest_empty: bool,
}

/// Refuses pools of more than 2^31 blocks.
pub(super) fn check_pool_blocks(bitmap_blocks: u32, array_blocks: u32) -> Result<()> {
    if bitmap_blocks > 1 << 31 || array_blocks > 1 << 31 {
        return Err(Error::invalid("set storage: a pool would exceed 2^31 blocks"));
    }
    Ok(())
}

/// Creates every set pipeline (when a set is made, not while recording).
pub(crate) fn prepare_kernels(ctx: &Context) -> Result<()> {
    let spec = set_spec(ctx);
    let list = [
        &shaders::SET_BOUNDARIES,
        &shaders::SET_CHECK,
        &shaders::SET_BITMAP_PAIRS,
        &shaders::SET_CLASSIFY,
        &shaders::SET_CONTAINS,
        &shaders::SET_ORDER,
        &shaders::SET_FILTER,
        &shaders::SET_INFO,
        &shaders::SET_TO_ARRAY,
        &shaders::SET_TRIVIAL,
        &shaders::SET_COMPACT,
        &shaders::SET_MANY_CARDINALITY,
        &shaders::SET_MANY_UNION,
        &shaders::SET_SERIALIZE,
        &shaders::SET_DESERIALIZE,
        &shaders::SET_TO_ARRAY_MANY,
    ];
    ctx.prepare_kernels(&list.map(|s| (s, spec)))?;
    ctx.prepare_kernels(&[(&shaders::SET_CHUNK_UPDATE_MANY, update_spec(ctx))])?;
    if ctx.profile.lookback {
        ctx.prepare_kernels(&[(&shaders::SET_FILTER, filter_lookback_spec(ctx, filter_spins(ctx)))])?;
    }
    ctx.prepare_kernels(&[
        (&shaders::SET_CHUNK_UPDATE, update_spec(ctx)),
        (one_pass_card_shader(ctx.profile.int64_atomics), update_spec(ctx)),
        (&shaders::SET_ARRAY_PAIRS_MEDIUM, medium_pairs_spec(ctx)),
        (small_pairs_shader(ctx), small_pairs_spec(ctx)),
    ])?;
    super::batch::prepare_batch_kernels(ctx, 0)
}

/// Polls of a silent tile before the one-pass filter looks its values up itself (tuning.rs,
/// as the merge's look-back).
pub(super) fn filter_spins(ctx: &Context) -> u32 {
    tuned(ctx.device_class(), Knob::FilterSpins)
}

/// The one-pass filter's specialization (SPIN_LIMIT `spins`).
pub(super) fn filter_lookback_spec(ctx: &Context, spins: u32) -> SetSpec {
    SetSpec {
        lookback_spins: spins,
        ..SetSpec::new(wg(ctx))
    }
}

/// The specialization of most set kernels (flat directories).
pub(super) fn set_spec(ctx: &Context) -> SetSpec {
    SetSpec::new(wg(ctx))
}

pub(super) fn kernel(ctx: &Context, s: &ShaderSource) -> Result<crate::core::pipelines::Kernel> {
    ctx.kernel(s, set_spec(ctx))
}

/// Pipelines for packed sets ([`GpuSet::pack`]), made by the first packing on a context (so
/// that recording never makes one): the passes of operations and cardinalities with either
/// operand or both packed, and the single-set readers with the set packed.
pub(super) fn prepare_packed_kernels(ctx: &Context) -> Result<()> {
    let spec = set_spec(ctx);
    let mut list: Vec<(&ShaderSource, SetSpec)> = Vec::new();
    for forms in [DIR_PACKED_A, DIR_PACKED_B, DIR_PACKED_A | DIR_PACKED_B] {
        for (shader, s) in [
            (&shaders::SET_CLASSIFY, spec),
            (&shaders::SET_BITMAP_PAIRS, spec),
            (&shaders::SET_TRIVIAL, spec),
            (&shaders::SET_CHUNK_UPDATE, update_spec(ctx)),
            (one_pass_card_shader(ctx.profile.int64_atomics), update_spec(ctx)),
            (&shaders::SET_ARRAY_PAIRS_MEDIUM, medium_pairs_spec(ctx)),
            (small_pairs_shader(ctx), small_pairs_spec(ctx)),
        ] {
            list.push((shader, with_forms(s, forms)));
        }
    }
    // A many-way operation's first operand packed (the others are read through their views).
    list.push((
        &shaders::SET_CHUNK_UPDATE_MANY,
        with_forms(update_spec(ctx), DIR_PACKED_A),
    ));
    for shader in [
        &shaders::SET_CONTAINS,
        &shaders::SET_ORDER,
        &shaders::SET_FILTER,
        &shaders::SET_INFO,
        &shaders::SET_TO_ARRAY,
    ] {
        list.push((shader, with_forms(spec, DIR_PACKED_D)));
    }
    if ctx.profile.lookback {
        list.push((
            &shaders::SET_FILTER,
            with_forms(filter_lookback_spec(ctx, filter_spins(ctx)), DIR_PACKED_D),
        ));
    }
    ctx.prepare_kernels(&list)?;
    for forms in [DIR_PACKED_A, DIR_PACKED_B, DIR_PACKED_A | DIR_PACKED_B] {
        super::batch::prepare_batch_kernels(ctx, forms)?;
    }
    Ok(())
}

/// The medium array-pair kernel (glsl/set/array_pairs.comp): a workgroup per pair, of
/// [`wg`] invocations.
fn medium_pairs_spec(ctx: &Context) -> SetSpec {
    SetSpec::new(wg(ctx))
}

/// The chunk kernel's workgroup (glsl/set/chunk_update.comp): the widest power of two between
/// [`wg`] and the tuning table's cap that the device allows (its shared memory lets two such
/// workgroups share a multiprocessor).
pub(super) fn update_spec(ctx: &Context) -> SetSpec {
    let cap = tuned(ctx.device_class(), Knob::ChunkKernelWorkgroup);
    let limit = ctx.profile.max_workgroup_invocations.clamp(wg(ctx), cap);
    SetSpec::new(1 << (31 - limit.leading_zeros()))
}

/// The small-pair kernel (glsl/set/small_pairs.comp): one subgroup on GPUs (the kernel needs
/// at least 32 invocations).
fn small_pairs_spec(ctx: &Context) -> SetSpec {
    SetSpec::new(tuned(ctx.device_class(), Knob::SmallPairsWorkgroup))
}

/// The small-pair kernel's permutation: its lists as 16-bit shared-memory values where the
/// device has shaderInt16 (one load a step of the walk instead of a load, a shift and a mask),
/// else as 32-bit words of two values.
fn small_pairs_shader(ctx: &Context) -> &'static ShaderSource {
    if ctx.profile.int16 {
        &shaders::SET_SMALL_PAIRS_LIST16
    } else {
        &shaders::SET_SMALL_PAIRS
    }
}

/// How the one-pass cardinality's workgroups bring their sums together.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum OnePassTail {
    /// Into two 64-bit words of the first operand's control block, one atomic each (needs
    /// 64-bit buffer atomics): the workgroup that completes the count writes the status.
    Sums64,
    /// Into scratch words of each workgroup's own, added up by the last to finish (counted in
    /// the first operand's control block).
    Slots,
    /// Straight into a status that is zero before the dispatch (the host layer's batches):
    /// nothing in a control block, so operations sharing a set run side by side.
    ZeroedStatus,
}

impl OnePassTail {
    /// The tail of a recorded operation: `Sums64` where the device has 64-bit buffer atomics.
    pub(super) fn recorded(ctx: &Context) -> Self {
        if ctx.profile.int64_atomics {
            OnePassTail::Sums64
        } else {
            OnePassTail::Slots
        }
    }
}

/// The one-pass cardinality's kernel: with `sums64` its workgroups add their sums into two
/// 64-bit words (one atomic each; needs 64-bit buffer atomics), else into scratch words of
/// their own that the last workgroup adds up (both take a status zeroed before).
fn one_pass_card_shader(sums64: bool) -> &'static ShaderSource {
    if sums64 {
        &shaders::SET_CHUNK_COUNT_SUMS64
    } else {
        &shaders::SET_CHUNK_COUNT
    }
}

/// Records a cardinality-only update (`u`, MODE_CARD) in one pass over the directory
/// (glsl/set/chunk_update.comp FUSED_COUNT) into the status at `status`, its workgroups'
/// sums brought together as `tail` says. With [`OnePassTail::Sums64`] each workgroup adds
/// its sums and a count of itself into two 64-bit words of the first operand's control block
/// with one atomic each, and the workgroup that completes a word's count writes that word's
/// totals and clears it: the tail is one round trip. With [`OnePassTail::Slots`] each
/// workgroup's sums go to its own scratch words and the last workgroup to finish adds them up;
/// it counts the finished workgroups in the first operand's control block, a multiple of the
/// grid between operations (so that it needs no clear). Either way two such operations on one
/// set must not overlap; with [`OnePassTail::ZeroedStatus`] they may, and no barrier is
/// recorded before or after the dispatch (the caller's). `side_by_side`: how many such
/// dispatches run at once (a batch's), which share `Knob::OnePassBatchWorkgroups`.
pub(crate) unsafe fn record_one_pass_cardinality(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    u: &Update,
    scratch: &BufferRange,
    status: u64,
    tail: OnePassTail,
    side_by_side: u32,
) -> Result<()> {
    let spec = update_spec(ctx);
    let sums64 = match tail {
        OnePassTail::Sums64 => true,
        OnePassTail::Slots => false,
        OnePassTail::ZeroedStatus => ctx.profile.int64_atomics,
    };
    let count = ctx.kernel(one_pass_card_shader(sums64), with_forms(spec, u.forms))?;
    let grid = one_pass_grid(ctx, spec, u, side_by_side);
    let push = SetPush {
        meta_d: 0,
        meta_a: u.a,
        meta_b: u.b,
        scratch: ctx.address_of(scratch),
        values: 0,
        out_addr: status,
        count_addr: 0,
        range_lo: 0,
        range_hi: 0,
        count: 0,
        max_count: 0,
        op: u.op,
        mode: u32::from(tail == OnePassTail::ZeroedStatus),
        grid,
        aux: 0,
        jobs: 0,
    };
    if tail == OnePassTail::ZeroedStatus {
        ctx.dispatch(cmd, count, &push, grid);
        return Ok(());
    }
    // Earlier passes on the scratch, the status or the count (another operation of a batch).
    earlier_passes_barrier(ctx, cmd);
    ctx.dispatch(cmd, count, &push, grid);
    ctx.compute_to_compute(cmd);
    Ok(())
}

/// Whether the one pass over `u` walks only its operands' non-empty chunks: both packed
/// (glsl/set/chunk_update.comp FUSED_COUNT `both_packed`).
fn walks_packed(u: &Update) -> bool {
    u.forms & (DIR_PACKED_A | DIR_PACKED_B) == DIR_PACKED_A | DIR_PACKED_B
}

/// Workgroups of the one pass over `u` (a power of two: the finished count and the flat
/// walk's grid stride need it): the directory's chunks a workgroup's share, at most
/// `Knob::OnePassGrid`; two packed operands, a workgroup for each `spec.workgroup_size` of
/// their non-empty chunks at most (docs/tuning/set.md#one-pass-packed). `side_by_side`: how many such passes run at once (a
/// batch's), which share `Knob::OnePassBatchWorkgroups`.
pub(crate) fn one_pass_grid(ctx: &Context, spec: SetSpec, u: &Update, side_by_side: u32) -> u32 {
    let class = ctx.device_class();
    let mut grid = (CHUNKS as u32 / spec.workgroup_size).clamp(1, tuned(class, Knob::OnePassGrid));
    if walks_packed(u) {
        // A workgroup for each `per` non-empty chunks: a workgroup's size of them alone, fewer
        // in a batch, which deals its jobs' chunks round-robin so that a small job's listed
        // chunks are counted side by side.
        let per = if side_by_side > 1 {
            tuned(class, Knob::OnePassBatchChunksPerWorkgroup).clamp(1, spec.workgroup_size)
        } else {
            spec.workgroup_size
        };
        grid = grid.min(u.bound.div_ceil(per).max(1).next_power_of_two());
    }
    if side_by_side > 1 {
        // A batch's one-pass pairs share the GPU: fewer workgroups each, more chunks an
        // invocation (a power of two, so that the grid-stride loop stays within the chunks).
        let share = (tuned(class, Knob::OnePassBatchWorkgroups) / side_by_side)
            .max(tuned(class, Knob::OnePassBatchMinGrid));
        grid = grid.min(1 << (31 - share.leading_zeros()));
    }
    debug_assert!(grid.is_power_of_two(), "the one pass needs a power-of-two grid");
    grid
}

/// Earlier passes (another operation, a batch's, or the caller's transfers) before a pass
/// that reads or writes what they wrote: compute and transfer writes before compute reads and
/// writes. A set operation's clear is a compute dispatch followed by a compute-to-compute
/// barrier (cheaper than a transfer fill and its barrier: docs/tuning/set.md#compute-clear).
pub(super) unsafe fn earlier_passes_barrier(ctx: &Context, cmd: vk::CommandBuffer) {
    ctx.memory_barrier(
        cmd,
        vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
        vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::SHADER_READ | vk::AccessFlags::TRANSFER_WRITE,
        vk::PipelineStageFlags::COMPUTE_SHADER,
        vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::SHADER_READ,
    );
}

/// Records writing `bytes` (a multiple of 4) at the start of `dst` from the command buffer
/// (`vkCmdUpdateBuffer`, 65536 bytes at most each), after a barrier that orders earlier
/// compute passes and transfers on it (or on the sets) first; the caller records the barrier
/// to its readers. The job table of a batch, the views of a many-way cardinality.
///
/// # Safety
/// `cmd` must be recording; `dst` must hold `bytes` (the caller checked it).
pub(super) unsafe fn record_upload(ctx: &Context, cmd: vk::CommandBuffer, dst: &BufferRange, bytes: &[u8]) {
    ctx.memory_barrier(
        cmd,
        vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
        vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::SHADER_READ | vk::AccessFlags::TRANSFER_WRITE,
        vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
        vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::SHADER_READ | vk::AccessFlags::TRANSFER_WRITE,
    );
    for (k, piece) in bytes.chunks(65536).enumerate() {
        ctx.device
            .cmd_update_buffer(cmd, dst.buffer, dst.offset + k as u64 * 65536, piece);
    }
}

/// Scratch words an operation clears first: the counters, and the batch's failure flag (the
/// header's last word) when it is the first of its batch.
fn counters_to_clear(first: bool) -> u32 {
    (if first { SCRATCH_HEADER } else { SCRATCH_HEADER - 1 }) as u32
}

/// Records the passes of one update: clear the scratch counters (and the batch's failure
/// flag when `first`), classify or boundaries, count, check (status to `status`), write.
pub(crate) unsafe fn record_update(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    u: &Update,
    scratch: &BufferRange,
    status: u64,
    first: bool,
) -> Result<()> {
    record_update_phase(ctx, cmd, u, scratch, status, first, Phase::All)
}

/// Which passes of an update [`record_update_phase`] records.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Everything.
    All,
    /// After the pools grew: clear the failure flag, check again, write (the lists and counts
    /// in scratch are still those of the failed attempt, which changed nothing).
    Retry,
    /// An operation of two sets on the one-pass path only (no counting or check pass): the
    /// last classify workgroup decides whether the free blocks cover the bound.
    Reserved,
}

/// Records the passes of `u` that `phase` names (all of them: [`record_update`]).
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn record_update_phase(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    u: &Update,
    scratch: &BufferRange,
    status: u64,
    first: bool,
    phase: Phase,
) -> Result<()> {
    let p = UpdatePasses::new(ctx, cmd, u, scratch, status);
    if u.mode == MODE_CARD && phase == Phase::All {
        return record_cardinality_passes(ctx, cmd, std::slice::from_ref(&p), first);
    }
    p.barrier_before_clear();
    if phase == Phase::Reserved {
        debug_assert_eq!(u.mode, MODE_OP);
        ctx.record_compute_fill(cmd, scratch, counters_to_clear(first), 0)?;
        ctx.compute_to_compute(cmd);
        p.classify(0, 1)?;
        ctx.compute_to_compute(cmd);
    } else if phase == Phase::All {
        // Counters and, first in a batch, the failure flag (the header's last word).
        ctx.record_compute_fill(cmd, scratch, counters_to_clear(first), 0)?;
        ctx.compute_to_compute(cmd);
        match u.mode {
            MODE_VALUES => {
                // One invocation per chunk (boundaries.comp).
                let groups = (CHUNKS / wg(ctx) as u64) as u32;
                ctx.dispatch(cmd, kernel(ctx, &shaders::SET_BOUNDARIES)?, &p.push(0, 0), groups);
            }
            m => p.classify(m, 0)?,
        }
        ctx.compute_to_compute(cmd);
        p.pair_passes(0)?;
        ctx.compute_to_compute(cmd);
    } else {
        // The failure flag (the header's last word).
        let flag = scratch.part((SCRATCH_HEADER - 1) * 4, 4);
        ctx.record_compute_fill(cmd, &flag, 1, 0)?;
        ctx.compute_to_compute(cmd);
    }
    if phase != Phase::Reserved {
        let check = kernel(ctx, &shaders::SET_CHECK)?;
        ctx.dispatch(cmd, check, &p.push(if u.mode == MODE_CARD { 1 } else { 0 }, 0), 1);
        ctx.compute_to_compute(cmd);
    }
    if u.mode != MODE_CARD {
        // The work lists and the trivial list are disjoint chunks, and each pass takes blocks
        // only from the free ids as they were before the operation (the check pass counted
        // them) while freed ids go after them: the writing passes run side by side.
        p.pair_passes(1)?;
        if u.mode != MODE_VALUES {
            let trivial = p.kernel(&shaders::SET_TRIVIAL, set_spec(ctx))?;
            ctx.dispatch(cmd, trivial, &p.push(0, 0), u.bound.div_ceil(wg(ctx)).max(1));
        }
        ctx.compute_to_compute(cmd);
    }
    Ok(())
}

/// Records the passes of cardinality-only updates (`MODE_CARD`), each with its own scratch and
/// status, stage by stage: every clear, a barrier, every classification, a barrier, every
/// pair pass, a barrier. The updates only read their sets and write their own scratch and
/// status, so those of one stage run side by side (the host layer's batches: one barrier per
/// stage instead of three per operation).
pub(crate) unsafe fn record_cardinality_passes(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    updates: &[UpdatePasses],
    first: bool,
) -> Result<()> {
    let Some(p) = updates.first() else {
        return Ok(());
    };
    p.barrier_before_clear();
    // Cardinality only: every pass adds its sums straight into the zeroed status (stage 2 of
    // the pair passes), so no check pass follows. The scratch counters and the status in one
    // dispatch: one launch less (docs/tuning/set.md#compute-clear).
    let counters = counters_to_clear(first);
    for p in updates {
        debug_assert_eq!(p.u.mode, MODE_CARD);
        p.scratch.check(ctx, "fill destination", counters as u64 * 4, 4)?;
        ctx.record_compute_fill_two_at(
            cmd,
            (p.scratch_addr, counters),
            (p.status, (SET_STATUS_BYTES / 4) as u32),
            0,
        )?;
    }
    ctx.compute_to_compute(cmd);
    for p in updates {
        p.classify(MODE_CARD, 2)?;
    }
    ctx.compute_to_compute(cmd);
    for p in updates {
        p.pair_passes(2)?;
    }
    ctx.compute_to_compute(cmd);
    Ok(())
}

/// One update's passes as record_update_phase records them: its push constants and
/// dispatches.
pub(crate) struct UpdatePasses<'a> {
    ctx: &'a Context,
    cmd: vk::CommandBuffer,
    u: &'a Update,
    scratch: &'a BufferRange,
    scratch_addr: u64,
    status: u64,
    grid: u32,
    count: u32,
    count_addr: u64,
}

impl<'a> UpdatePasses<'a> {
    pub(crate) fn new(
        ctx: &'a Context,
        cmd: vk::CommandBuffer,
        u: &'a Update,
        scratch: &'a BufferRange,
        status: u64,
    ) -> Self {
        let (count, count_addr) = match u.count {
            ElementCount::Direct(n) => (n as u32, 0),
            ElementCount::Indirect(r) => (0, ctx.address_of(&r)),
        };
        UpdatePasses {
            ctx,
            cmd,
            u,
            scratch,
            scratch_addr: ctx.address_of(scratch),
            status,
            grid: chunk_grid(u.bound),
            count,
            count_addr,
        }
    }

    fn push_with(&self, mode: u32, aux: u32, grid: u32) -> SetPush {
        let u = self.u;
        SetPush {
            meta_d: u.d,
            meta_a: u.a,
            meta_b: u.b,
            scratch: self.scratch_addr,
            values: u.values,
            out_addr: self.status,
            count_addr: self.count_addr,
            range_lo: u.range.0,
            range_hi: u.range.1,
            count: self.count,
            max_count: u.max_count,
            op: u.op,
            mode,
            grid,
            aux,
            jobs: 0,
        }
    }

    fn push(&self, mode: u32, aux: u32) -> SetPush {
        self.push_with(mode, aux, self.grid)
    }

    /// A kernel of this update: `spec` with the update's directory forms.
    fn kernel(&self, shader: &ShaderSource, spec: SetSpec) -> Result<crate::core::pipelines::Kernel> {
        self.ctx.kernel(shader, with_forms(spec, self.u.forms))
    }

    /// Earlier passes on the scratch (another operation of a batch) before its clear
    /// ([`earlier_passes_barrier`]).
    unsafe fn barrier_before_clear(&self) {
        earlier_passes_barrier(self.ctx, self.cmd);
    }

    /// The classification pass (one invocation per chunk).
    unsafe fn classify(&self, mode: u32, aux: u32) -> Result<()> {
        let classify = self.kernel(&shaders::SET_CLASSIFY, set_spec(self.ctx))?;
        let groups = (CHUNKS / wg(self.ctx) as u64) as u32;
        let aux = if self.u.one_kernel {
            aux | CLASSIFY_ONE_KERNEL
        } else {
            aux
        };
        self.ctx
            .dispatch(self.cmd, classify, &self.push(mode, aux), groups);
        Ok(())
    }

    /// The passes over the chunk pairs, counting (stage 0), writing (1) or adding a
    /// cardinality into the status (2). The work lists are disjoint: they run side by side.
    unsafe fn pair_passes(&self, stage: u32) -> Result<()> {
        let (ctx, cmd) = (self.ctx, self.cmd);
        let grids = PairGrids::of(ctx, self.u, stage);
        for (i, pass) in PAIR_PASSES.iter().enumerate() {
            let grid = grids.0[i];
            if grid != 0 {
                let kernel = self.kernel(pass.shader(ctx), pass.spec(ctx))?;
                ctx.dispatch(cmd, kernel, &self.push_with(grids.1, stage, grid), grid);
            }
        }
        Ok(())
    }
}

/// The kernels of an update's pair passes, in the order they are recorded.
#[derive(Clone, Copy)]
pub(super) enum PairPass {
    /// glsl/set/chunk_update.comp: every pair its own kind of kernel does not take.
    Chunks,
    /// glsl/set/bitmap_pairs.comp: pairs of bitmaps.
    Bitmaps,
    /// glsl/set/small_pairs.comp: pairs of short arrays and chunk copies.
    Small,
    /// glsl/set/array_pairs.comp: pairs of medium arrays.
    Medium,
}

/// [`PairPass`]es in recording order.
pub(super) const PAIR_PASSES: [PairPass; 4] = [
    PairPass::Chunks,
    PairPass::Bitmaps,
    PairPass::Small,
    PairPass::Medium,
];

impl PairPass {
    /// The pass's kernel outside a batch.
    pub(super) fn shader(self, ctx: &Context) -> &'static ShaderSource {
        match self {
            PairPass::Chunks => &shaders::SET_CHUNK_UPDATE,
            PairPass::Bitmaps => &shaders::SET_BITMAP_PAIRS,
            PairPass::Small => small_pairs_shader(ctx),
            PairPass::Medium => &shaders::SET_ARRAY_PAIRS_MEDIUM,
        }
    }

    /// The pass's kernel in a batch (batch.rs).
    pub(super) fn batch_shader(self, ctx: &Context) -> &'static ShaderSource {
        match self {
            PairPass::Chunks => &shaders::SET_BATCH_CHUNK_UPDATE,
            PairPass::Bitmaps => &shaders::SET_BATCH_BITMAP_PAIRS,
            PairPass::Small if ctx.profile.int16 => &shaders::SET_BATCH_SMALL_PAIRS_LIST16,
            PairPass::Small => &shaders::SET_BATCH_SMALL_PAIRS,
            PairPass::Medium => &shaders::SET_BATCH_ARRAY_PAIRS_MEDIUM,
        }
    }

    /// The pass's specialization (flat directories).
    pub(super) fn spec(self, ctx: &Context) -> SetSpec {
        match self {
            PairPass::Chunks => update_spec(ctx),
            PairPass::Bitmaps => set_spec(ctx),
            PairPass::Small => small_pairs_spec(ctx),
            PairPass::Medium => medium_pairs_spec(ctx),
        }
    }
}

/// The workgroups of an update's pair passes ([`PAIR_PASSES`] order; 0: not launched) and their
/// push constants' `mode`.
pub(super) struct PairGrids(pub(super) [u32; 4], pub(super) u32);

impl PairGrids {
    /// The grids of `u`'s pair passes in `stage` (see [`UpdatePasses`]).
    pub(super) fn of(ctx: &Context, u: &Update, stage: u32) -> Self {
        let class = ctx.device_class();
        let source_mode = match u.mode {
            MODE_VALUES => 1,
            MODE_RANGE => 2,
            MODE_OPTIMIZE => 3,
            _ => 0,
        };
        // Grid-stride kernels get no more workgroups than can run at once (about a
        // multiprocessor's worth each on today's GPUs): chunk_update's 18.5 KiB of shared memory
        // fits two per multiprocessor, bitmap_pairs' and the medium pairs' several; workgroups
        // beyond those only queue up, and those that find nothing to do still cost a launch.
        let grid = chunk_grid(u.bound);
        let chunks = grid.min(tuned(class, Knob::ChunkKernelGrid));
        if u.one_kernel {
            // Classify listed every pair for chunk_update.comp: the other kernels would only
            // cost their launches.
            return PairGrids([chunks, 0, 0, 0], source_mode);
        }
        let mut bitmaps = 0;
        if source_mode == 0 {
            // Workgroups beyond the pairs that can be listed only cost their launch, so the grid
            // follows the operands' smaller bitmap pool, within the tuning table's cap (lower in
            // the counting stage, which does nothing on the one-pass path). It is a grid-stride
            // loop: a pool grown between recording and execution makes workgroups take more pairs.
            let pairs = u.bound.min(u.bitmap_pair_bound);
            let cap = if stage == 0 {
                Knob::BitmapPairsCountGrid
            } else {
                Knob::BitmapPairsGrid
            };
            bitmaps = pairs.clamp(1, tuned(class, cap));
        }
        // Pairs of arrays and chunk copies come only from chunks that hold blocks: operands
        // with few (clustered sets, mostly runs in their entries) launch as few workgroups,
        // not thousands that find nothing (docs/tuning/set.md#array-pair-grids).
        let listed = u.block_chunk_bound.max(1);
        let small = grid.min(listed);
        let medium = grid.min(tuned(class, Knob::MediumPairsGrid).min(listed));
        PairGrids([chunks, bitmaps, small, medium], source_mode)
    }
}

#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    [
        shaders::SET_CLASSIFY,
        shaders::SET_BOUNDARIES,
        shaders::SET_CHUNK_UPDATE,
        shaders::SET_CHUNK_COUNT,
        shaders::SET_CHUNK_COUNT_SUMS64,
        shaders::SET_CHUNK_UPDATE_MANY,
        shaders::SET_BITMAP_PAIRS,
        shaders::SET_ARRAY_PAIRS_MEDIUM,
        shaders::SET_TRIVIAL,
        shaders::SET_CHECK,
        shaders::SET_INFO,
        shaders::SET_TO_ARRAY,
        shaders::SET_CONTAINS,
        shaders::SET_ORDER,
        shaders::SET_FILTER,
        shaders::SET_COMPACT,
        shaders::SET_SMALL_PAIRS,
        shaders::SET_SMALL_PAIRS_LIST16,
        shaders::SET_BATCH_CLASSIFY,
        shaders::SET_BATCH_CHUNK_UPDATE,
        shaders::SET_BATCH_ARRAY_PAIRS_MEDIUM,
        shaders::SET_BATCH_BITMAP_PAIRS,
        shaders::SET_BATCH_SMALL_PAIRS,
        shaders::SET_BATCH_SMALL_PAIRS_LIST16,
        shaders::SET_BATCH_TRIVIAL,
        shaders::SET_BATCH_CHECK,
        shaders::SET_BATCH_CHUNK_COUNT,
    ]
    .into_iter()
    .map(|s| (s, SetPush::FIELDS, std::mem::size_of::<SetPush>()))
    .chain([
        (
            shaders::SET_MANY_CARDINALITY,
            super::many_cardinality::ManyCardinalityPush::FIELDS,
            std::mem::size_of::<super::many_cardinality::ManyCardinalityPush>(),
        ),
        (
            shaders::SET_MANY_UNION,
            super::many_cardinality::ManyCardinalityPush::FIELDS,
            std::mem::size_of::<super::many_cardinality::ManyCardinalityPush>(),
        ),
        (
            shaders::SET_SERIALIZE,
            super::serialize::ChunkListPush::FIELDS,
            std::mem::size_of::<super::serialize::ChunkListPush>(),
        ),
        (
            shaders::SET_DESERIALIZE,
            super::deserialize::DeserializePush::FIELDS,
            std::mem::size_of::<super::deserialize::DeserializePush>(),
        ),
        (
            shaders::SET_TO_ARRAY_MANY,
            super::serialize::ChunkListPush::FIELDS,
            std::mem::size_of::<super::serialize::ChunkListPush>(),
        ),
    ])
    .collect()
}
