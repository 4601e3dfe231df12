//! Batches of independent set updates recorded as one pass sequence whatever their number: each
//! pass of an update (clear, classify, the pair passes, check, write) runs for every update of
//! the batch in one dispatch, one update per layer of workgroups (`gl_WorkGroupID.z`), its sets,
//! scratch and status read from a job table (the SET_BATCH kernels, glsl/set/set_common.glsl).
//! Each update has scratch of its own, its chunk lists sized by its bound on listed chunks, so
//! a batch of small sets takes little memory; updates of different directory forms (packed or
//! flat operands) go to dispatches of their own, side by side.

use super::args::GpuSetOpBatchArgs;
use super::gpu::{GpuSet, SetOperand};
use super::layout::{with_forms, SetSpec, CHUNKS, DIR_GROUPS, SCRATCH_HEADER, SET_STATUS_BYTES};
use super::passes::{
    one_pass_grid, record_upload, set_spec, update_spec, wg, PairGrids, SetPush, Update, MODE_CARD, MODE_OP,
    PAIR_PASSES,
};
use super::paths::OpPath;
use super::tuning::{tuned, Knob};
use crate::core::buffer::BufferRange;
use crate::core::shaders::{self, ShaderSource};
use crate::error::{Error, Result};
use crate::{Context, SetOp};
use ash::vk;

/// One job of a batch's kernels (glsl/set/set_common.glsl `SetJobRef`): 64 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct SetJob {
    meta_d: u64,
    meta_a: u64,
    meta_b: u64,
    scratch: u64,
    out_addr: u64,
    op: u32,
    list_cap: u32,
    /// [`JOB_EMPTY_D`] or 0.
    flags: u32,
    pad: [u32; 3],
}

/// Job flag: the destination has no non-empty chunk (glsl SET_JOB_EMPTY_D).
const JOB_EMPTY_D: u32 = 1;

const JOB_BYTES: u64 = std::mem::size_of::<SetJob>() as u64;

/// Bytes of status a batched operation writes: [`SET_STATUS_BYTES`], then (word 8) its
/// destination's count of non-empty chunks, in a 64-byte slot.
pub(crate) const BATCH_STATUS_STRIDE: u64 = 64;

/// Entries of each chunk list of an update's scratch: its bound on listed chunks (a multiple
/// of four, so that every job's scratch stays 16-byte aligned).
fn list_cap(u: &Update) -> u32 {
    u.bound.clamp(1, CHUNKS as u32).next_multiple_of(4)
}

/// Scratch bytes of one update of a batch: the counters and five lists of [`list_cap`].
pub(crate) fn job_scratch_bytes(u: &Update) -> u64 {
    (SCRATCH_HEADER + 5 * list_cap(u) as u64) * 4
}

/// Scratch bytes of a batch of `updates`: the job table, then each update's scratch.
pub(crate) fn batch_scratch_bytes(updates: &[Update]) -> u64 {
    table_bytes(updates.len()) + updates.iter().map(job_scratch_bytes).sum::<u64>()
}

fn table_bytes(jobs: usize) -> u64 {
    (jobs as u64 * JOB_BYTES).next_multiple_of(16)
}

/// The batch kernels of the passes an update of directory forms `forms` records.
fn batch_kernels(ctx: &Context, forms: u32) -> Vec<(&'static ShaderSource, SetSpec)> {
    let mut list = vec![
        (&shaders::SET_BATCH_CHECK, set_spec(ctx)),
        (&shaders::SET_BATCH_CLASSIFY, with_forms(set_spec(ctx), forms)),
        (&shaders::SET_BATCH_TRIVIAL, with_forms(set_spec(ctx), forms)),
    ];
    for pass in PAIR_PASSES {
        list.push((pass.batch_shader(ctx), with_forms(pass.spec(ctx), forms)));
    }
    list.push((
        &shaders::SET_BATCH_CHUNK_COUNT,
        with_forms(update_spec(ctx), forms),
    ));
    list
}

/// Creates the batch pipelines of updates with directory forms `forms` (with the other set
/// pipelines: passes.rs prepare_kernels, prepare_packed_kernels).
pub(crate) fn prepare_batch_kernels(ctx: &Context, forms: u32) -> Result<()> {
    ctx.prepare_kernels(&batch_kernels(ctx, forms))
}

/// Records `updates` (independent: no update's destination is another's operand or
/// destination; all [`MODE_OP`] or all [`MODE_CARD`] with one-kernel off) as one batch:
/// their job table and scratch in `scratch` ([`batch_scratch_bytes`], 16-byte aligned), the
/// status of update `i` at `status(i)` ([`SET_STATUS_BYTES`](super::SET_STATUS_BYTES); with
/// `report`, an operation also writes its destination's count of non-empty chunks into the
/// word after them: give each a [`BATCH_STATUS_STRIDE`] slot). A cardinality's status is
/// zeroed first and its sums added into it. Earlier passes on the scratch or the sets are waited for; the batch's last pass
/// is followed by a compute-to-compute barrier.
///
/// # Safety
/// `cmd` is recording; the sets, `scratch` and the statuses stay alive until it has run.
pub(crate) unsafe fn record_update_batch(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    updates: &[Update],
    scratch: &BufferRange,
    status: impl Fn(usize) -> u64,
    report: bool,
) -> Result<()> {
    let Some(first) = updates.first() else {
        return Ok(());
    };
    let card = first.mode == MODE_CARD;
    if updates
        .iter()
        .any(|u| u.mode != first.mode || u.one_kernel || !(u.mode == MODE_OP || u.mode == MODE_CARD))
    {
        return Err(Error::Internal("set batch: updates of different kinds".into()));
    }
    scratch.check(ctx, "set batch scratch", batch_scratch_bytes(updates), 16)?;
    // Jobs in groups of one directory form (a dispatch each), at most the device's layers. A
    // group's layers all get its largest grid: where the jobs do not share the workgroups
    // (CPU drivers, whose idle workgroups cost much), groups also of one size class, so that
    // jobs of few chunks do not launch a large one's grid. On GPUs the classes' extra
    // dispatches cost more than they save (docs/tuning/set.md#batch-pass-grids).
    let share = tuned(ctx.device_class(), Knob::BatchPassWorkgroups);
    let keys: Vec<(u32, u32)> = updates
        .iter()
        .map(|u| (u.forms, if share == 0 { size_class(ctx, u) } else { 0 }))
        .collect();
    let mut order: Vec<usize> = (0..updates.len()).collect();
    order.sort_by_key(|&i| keys[i]);
    let max_layers = ctx.profile.max_workgroup_count[2].clamp(1, 65535) as usize;
    let mut groups: Vec<(usize, usize)> = Vec::new(); // (first position in `order`, jobs)
    for (k, &i) in order.iter().enumerate() {
        match groups.last_mut() {
            Some((start, n)) if keys[order[*start]] == keys[i] && *n < max_layers => *n += 1,
            _ => groups.push((k, 1)),
        }
    }
    let base = ctx.address_of(scratch);
    let mut offset = table_bytes(updates.len());
    let mut jobs = vec![SetJob::default(); updates.len()];
    let mut job_scratch = vec![0u64; updates.len()];
    for (i, u) in updates.iter().enumerate() {
        job_scratch[i] = base + offset;
        offset += job_scratch_bytes(u);
    }
    for (k, &i) in order.iter().enumerate() {
        let u = &updates[i];
        jobs[k] = SetJob {
            meta_d: u.d,
            meta_a: u.a,
            meta_b: u.b,
            scratch: job_scratch[i],
            out_addr: status(i),
            op: u.op,
            list_cap: list_cap(u),
            flags: if u.dest_empty { JOB_EMPTY_D } else { 0 },
            pad: [0; 3],
        };
    }
    // After earlier passes on the scratch (a batch before, the caller's).
    record_upload(ctx, cmd, scratch, bytemuck::cast_slice(&jobs));
    ctx.transfer_to_compute(cmd);
    // Each stage: one dispatch per group, the groups side by side.
    let stage = |shared: bool,
                 shader: &ShaderSource,
                 spec_of: &dyn Fn(u32) -> SetSpec,
                 push: SetPush,
                 grid: &dyn Fn(&Update) -> u32|
     -> Result<()> {
        for &(start, n) in &groups {
            let members = &order[start..start + n];
            let forms = updates[members[0]].forms;
            let mut groups_x = members.iter().map(|&i| grid(&updates[i])).max().unwrap_or(0);
            if shared && share != 0 {
                // Many jobs' workgroups, most of them idle for small sets, would only queue up:
                // the jobs share the GPU's (each workgroup loops over more of its job's list).
                groups_x = groups_x.min((share / n as u32).max(1));
            }
            if groups_x == 0 {
                continue;
            }
            let kernel = ctx.kernel(shader, spec_of(forms))?;
            let push = SetPush {
                grid: groups_x,
                jobs: base + start as u64 * JOB_BYTES,
                ..push
            };
            ctx.dispatch_layers(cmd, kernel, &push, groups_x, n as u32);
        }
        Ok(())
    };
    let flat = |_: u32| set_spec(ctx);
    let formed = |forms: u32| with_forms(set_spec(ctx), forms);
    let one = |_: &Update| 1;
    let check = &shaders::SET_BATCH_CHECK;
    // Clear each job's counters (and a cardinality's status).
    stage(
        false,
        check,
        &flat,
        SetPush {
            mode: 2,
            aux: if card { 2 } else { 0 },
            ..Default::default()
        },
        &one,
    )?;
    ctx.compute_to_compute(cmd);
    // One invocation per group of 64 chunks (glsl/set/classify.comp SET_BATCH).
    let classify_groups = (DIR_GROUPS as u32).div_ceil(wg(ctx));
    let pass_stage = if card { 2 } else { 0 };
    stage(
        false,
        &shaders::SET_BATCH_CLASSIFY,
        &formed,
        SetPush {
            mode: first.mode,
            aux: pass_stage,
            ..Default::default()
        },
        &|_| classify_groups,
    )?;
    ctx.compute_to_compute(cmd);
    let pair_passes = |pass_stage: u32| -> Result<()> {
        for (p, pass) in PAIR_PASSES.iter().enumerate() {
            let mode = PairGrids::of(ctx, first, pass_stage).1;
            stage(
                true,
                pass.batch_shader(ctx),
                &|forms| with_forms(pass.spec(ctx), forms),
                SetPush {
                    mode,
                    aux: pass_stage,
                    ..Default::default()
                },
                &|u| PairGrids::of(ctx, u, pass_stage).0[p],
            )?;
        }
        Ok(())
    };
    pair_passes(pass_stage)?;
    ctx.compute_to_compute(cmd);
    if card {
        return Ok(());
    }
    stage(
        false,
        check,
        &flat,
        SetPush {
            mode: 0,
            ..Default::default()
        },
        &one,
    )?;
    ctx.compute_to_compute(cmd);
    pair_passes(1)?;
    stage(
        true,
        &shaders::SET_BATCH_TRIVIAL,
        &formed,
        SetPush::default(),
        &|u| u.bound.div_ceil(wg(ctx)).max(1),
    )?;
    ctx.compute_to_compute(cmd);
    if report {
        // Each destination's count of non-empty chunks into its status.
        stage(
            false,
            check,
            &flat,
            SetPush {
                mode: 3,
                ..Default::default()
            },
            &one,
        )?;
        ctx.compute_to_compute(cmd);
    }
    Ok(())
}

/// glsl/set/chunk_update.comp's pc.mode of the one-pass cardinality: the sums go straight into
/// a status zeroed before (CARD_INTO_ZEROED_STATUS).
const CARD_INTO_ZEROED_STATUS: u32 = 1;

/// Records the one-pass cardinalities of `updates` ([`MODE_CARD`]) into statuses that are zero
/// before (update `i`'s at `status(i)`, which it adds into): one dispatch per directory form
/// and grid (`SET_BATCH_CHUNK_COUNT`, a layer of workgroups per update, each update's grid by
/// [`one_pass_grid`] for a batch) after the job table's upload into `table` (16-byte aligned;
/// as many jobs as it holds at a time). The uploads wait for earlier passes, the dispatches
/// for the uploads and for earlier compute writes (the statuses' clear); the caller records
/// the barrier to their readers.
///
/// # Safety
/// `cmd` is recording; the sets, `table` and the statuses stay alive until it has run.
pub(crate) unsafe fn record_one_pass_cardinality_batch(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    updates: &[&Update],
    table: &BufferRange,
    status: impl Fn(usize) -> u64,
) -> Result<()> {
    if updates.iter().any(|u| u.mode != MODE_CARD) {
        return Err(Error::Internal("set one-pass batch: not a cardinality".into()));
    }
    // One dispatch per directory form and grid, the dispatches side by side (no barrier
    // between them): a job takes only its own grid's workgroups.
    let spec = update_spec(ctx);
    let grids: Vec<u32> = updates
        .iter()
        .map(|u| one_pass_grid(ctx, spec, u, updates.len() as u32))
        .collect();
    let key = |i: usize| (updates[i].forms, grids[i]);
    let mut order: Vec<usize> = (0..updates.len()).collect();
    order.sort_by_key(|&i| key(i));
    let max_layers = ctx.profile.max_workgroup_count[2].clamp(1, 65535) as usize;
    let per_table = ((table.size / JOB_BYTES) as usize).min(max_layers);
    if per_table == 0 {
        return Err(Error::Internal("set one-pass batch: no room for a job".into()));
    }
    for part in order.chunks(per_table) {
        let jobs: Vec<SetJob> = part
            .iter()
            .map(|&i| SetJob {
                meta_a: updates[i].a,
                meta_b: updates[i].b,
                out_addr: status(i),
                op: updates[i].op,
                ..SetJob::default()
            })
            .collect();
        record_upload(ctx, cmd, table, bytemuck::cast_slice(&jobs));
        ctx.memory_barrier(
            cmd,
            vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
        );
        let mut start = 0;
        while start < part.len() {
            let (forms, grid) = key(part[start]);
            let n = part[start..]
                .iter()
                .take_while(|&&i| key(i) == (forms, grid))
                .count();
            let kernel = ctx.kernel(&shaders::SET_BATCH_CHUNK_COUNT, with_forms(spec, forms))?;
            let push = SetPush {
                mode: CARD_INTO_ZEROED_STATUS,
                grid,
                jobs: ctx.address_of(table) + start as u64 * JOB_BYTES,
                ..Default::default()
            };
            ctx.dispatch_layers(cmd, kernel, &push, grid, n as u32);
            start += n;
        }
    }
    Ok(())
}

/// The size class of an update in a batch: the power of two at or above the largest grid of
/// its passes alone.
fn size_class(ctx: &Context, u: &Update) -> u32 {
    let pairs = [0, 1, 2].map(|stage| PairGrids::of(ctx, u, stage).0.into_iter().max().unwrap_or(1));
    let trivial = u.bound.div_ceil(wg(ctx)).max(1);
    pairs
        .into_iter()
        .max()
        .unwrap_or(1)
        .max(trivial)
        .next_power_of_two()
}

/// `updates` cut into consecutive parts whose batches each take at most `budget` bytes of
/// scratch ([`batch_scratch_bytes`]); an update that alone takes more is a part of its own.
pub(crate) fn parts_within(updates: &[Update], budget: u64) -> Vec<std::ops::Range<usize>> {
    let mut parts: Vec<std::ops::Range<usize>> = Vec::new();
    let mut bytes = 0; // the last part's job scratch
    for (i, u) in updates.iter().enumerate() {
        let more = job_scratch_bytes(u);
        match parts.last_mut() {
            Some(p) if table_bytes(p.len() + 1) + bytes + more <= budget => {
                p.end = i + 1;
                bytes += more;
            }
            _ => {
                parts.push(i..i + 1);
                bytes = more;
            }
        }
    }
    parts
}

impl GpuSet {
    /// Bytes of scratch [`GpuSet::record_op_batch`] needs for `jobs` as the sets are now
    /// (their bounds on non-empty chunks: a few KiB a job for small sets, at most about
    /// [`SET_SCRATCH_BYTES`](super::SET_SCRATCH_BYTES) each). Refuses what `record_op_batch`
    /// refuses.
    pub fn op_batch_scratch_bytes(jobs: &[(&GpuSet, &GpuSet, &GpuSet)], op: SetOp) -> Result<u64> {
        Ok(batch_scratch_bytes(&batch_updates(jobs, op)?))
    }

    /// Records `dst_i = a_i op b_i` for every job of `args.jobs` as one pass sequence whatever
    /// their number: each pass (clear, classify, count, check, write) runs for every job in
    /// one dispatch. A job whose destination lacks free blocks writes nothing and its status
    /// says what it needed (as [`GpuSet::record_op`]'s); the others are written. The whole
    /// batch is one operation on each of its sets: record [`GpuSet::record_barrier`] between
    /// it and other work on them. Refused ([`Error::InvalidArgument`], nothing recorded): sets
    /// of different contexts, a destination twice or among the operands, a packed
    /// destination, scratch smaller than [`GpuSet::op_batch_scratch_bytes`], statuses too
    /// small or overlapping the scratch.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_op_batch(cmd: vk::CommandBuffer, args: &GpuSetOpBatchArgs) -> Result<()> {
        let GpuSetOpBatchArgs {
            jobs,
            op,
            scratch,
            statuses,
        } = *args;
        let Some(&(first, _, _)) = jobs.first() else {
            return Ok(());
        };
        let ctx = &first.ctx;
        let updates = batch_updates(jobs, op)?;
        let need = batch_scratch_bytes(&updates);
        if scratch.size < need {
            return Err(Error::invalid(format!(
                "set op batch: scratch of {} bytes, the batch needs {need}",
                scratch.size
            )));
        }
        scratch.check(ctx, "set scratch", need, 16)?;
        statuses.check(ctx, "set statuses", SET_STATUS_BYTES * jobs.len() as u64, 4)?;
        if scratch.overlaps(&statuses) {
            return Err(Error::invalid("set op batch: scratch and statuses overlap"));
        }
        for ((d, _, _), u) in jobs.iter().zip(&updates) {
            d.note_recorded_update(u);
        }
        let base = ctx.address_of(&statuses);
        unsafe {
            record_update_batch(
                ctx,
                cmd,
                &updates,
                &scratch,
                |i| base + i as u64 * SET_STATUS_BYTES,
                false,
            )
        }
    }
}

/// The updates of a recorded batch of operations, after its checks (see
/// [`GpuSet::record_op_batch`]).
fn batch_updates(jobs: &[(&GpuSet, &GpuSet, &GpuSet)], op: SetOp) -> Result<Vec<Update>> {
    let Some(&(first, _, _)) = jobs.first() else {
        return Ok(Vec::new());
    };
    let mut dsts: Vec<u64> = jobs.iter().map(|(d, _, _)| d.meta()).collect();
    dsts.sort_unstable();
    if dsts.windows(2).any(|w| w[0] == w[1]) {
        return Err(Error::invalid("set op batch: a destination appears twice"));
    }
    let mut updates = Vec::with_capacity(jobs.len());
    for (d, a, b) in jobs {
        first.check_same_context(d, "set op batch")?;
        d.check_writable("set op batch")?;
        if dsts.binary_search(&a.meta()).is_ok() || dsts.binary_search(&b.meta()).is_ok() {
            return Err(Error::invalid(
                "set op batch: a destination is an operand of the batch",
            ));
        }
        updates.push(d.op_update(SetOperand::Set(a), SetOperand::Set(b), op, OpPath::PairKernels)?);
    }
    Ok(updates)
}
