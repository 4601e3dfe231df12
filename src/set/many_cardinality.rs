//! The cardinality of a many-way operation, `|sets[0] op sets[1] op ... op sets[n - 1]|`,
//! without materializing it: two dispatches whatever the number of sets
//! (glsl/set/many_cardinality.comp: the chunks the result may hold listed, then each listed
//! chunk of every set combined and counted), on the record layer and as a blocking host call.

use super::args::GpuSetManyCardinalityArgs;
use super::gpu::{GpuSet, SetOpStatus};
use super::layout::SET_STATUS_BYTES;
use super::passes::{kernel, record_upload};
use super::view::SetDeviceView;
use crate::core::runner::{finish_submission, read_back};
use crate::core::shaders;
use crate::core::spirv::push_constants;
use crate::core::tuning::DeviceClass;
use crate::error::{Error, Result};
use crate::SetOp;
use ash::vk;

push_constants! {
    /// Push constants of glsl/set/many_cardinality.comp (block `ManyCardinalityPush`).
    pub(crate) struct ManyCardinalityPush {
        pub(super) views: u64,
        pub(super) list: u64,
        pub(super) ids: u64,
        pub(super) status: u64,
        pub(super) counters: u64,
        pub(super) count: u32,
        pub(super) op: u32,
        pub(super) mode: u32,
        pub(super) per_workgroup: u32,
    }
}

/// Most sets of one many-way cardinality on a CPU driver: each invocation walks every set's
/// chunk of its listed chunk, and CPU drivers end an invocation's loops after a fixed number of
/// iterations (docs/driver-bugs.md#lavapipe-loop-limit).
pub const SET_MANY_CARDINALITY_CPU_MAX: usize = 64;

/// Workgroups of the combining dispatch, striding over the listed chunks: as many as the
/// result may have chunks (the sets' host-side bounds), at most a few resident waves on GPUs;
/// on CPU drivers one chunk a workgroup (the loop cap again). Workgroups past the list return
/// at once.
fn combine_groups(class: DeviceClass, sets: &[&GpuSet], op: SetOp) -> u32 {
    let most = if class == DeviceClass::Cpu { 65536 } else { 1024 };
    many_result_bound(sets, op).clamp(1, most)
}

/// The bound on the non-empty chunks of `sets[0] op sets[1] op ...`: those of `sets[0]` for
/// AND and ANDNOT, of any set for OR and XOR (the sets' host-side bounds).
pub(super) fn many_result_bound(sets: &[&GpuSet], op: SetOp) -> u32 {
    match op {
        SetOp::And | SetOp::AndNot => sets[0].chunk_bound(),
        SetOp::Or | SetOp::Xor => sets
            .iter()
            .fold(0u32, |sum, s| sum.saturating_add(s.chunk_bound()))
            .min(65536),
    }
}

/// The checks of a many-way call's operands: at least one, all of `ctx`, at most `cpu_max` on
/// a CPU driver (else [`Error::Unsupported`]), fewer than 2^32 - 1 (the views of the sets and
/// of a destination are counted in u32). Returns the number of sets.
pub(super) fn check_many_operands(
    ctx: &crate::Context,
    sets: &[&GpuSet],
    what: &str,
    cpu_max: usize,
) -> Result<u32> {
    if sets.is_empty() {
        return Err(Error::invalid(format!("{what}: no sets")));
    }
    if sets.iter().any(|s| !s.ctx.same_as(ctx)) {
        return Err(Error::invalid(format!(
            "{what}: the sets come from different contexts"
        )));
    }
    if ctx.device_class() == DeviceClass::Cpu && sets.len() > cpu_max {
        return Err(Error::unsupported(format!(
            "{what}: {} sets, at most {cpu_max} on a CPU driver",
            sets.len()
        )));
    }
    u32::try_from(sets.len())
        .ok()
        .filter(|&n| n < u32::MAX)
        .ok_or_else(|| Error::invalid(format!("{what}: more than 2^32 - 2 sets")))
}

/// Index groups (64 chunks each, 1024 in all) a workgroup of the listing dispatch looks at, a
/// subgroup at a time: 8 on GPUs; on CPU drivers 16, so that few workgroups run (each costs
/// much there).
pub(super) fn list_groups_per_workgroup(class: DeviceClass) -> u32 {
    if class == DeviceClass::Cpu {
        16
    } else {
        8
    }
}

/// Workgroups of the listing dispatch.
pub(super) fn list_workgroups(class: DeviceClass) -> u32 {
    1024u32.div_ceil(list_groups_per_workgroup(class))
}

/// The list's bytes in scratch: its length (16 bytes with padding), then a u32 a chunk.
const LIST_BYTES: u64 = 16 + 65536 * 4;

/// The combining dispatch's counter a listed chunk (a u32 each, after the list): the slices
/// of a chunk that a union splits among workgroups add their counts there.
const COUNTER_BYTES: u64 = 65536 * 4;

/// The parts of a union's slices (after the counters; glsl/set/many_cardinality.comp
/// PART_CHUNKS, MAX_SLICES): a bitmap of 8 KiB for each of the first 32 listed chunks, then a
/// u32 for each of their 8 slices.
const PART_BYTES: u64 = 32 * 8192 + 32 * 8 * 4;

/// Mode of many_cardinality.comp: list the chunks the result may hold.
const MODE_LIST: u32 = 0;
/// Mode of many_cardinality.comp: combine and count the listed chunks.
const MODE_COMBINE: u32 = 1;
/// Mode of many_cardinality.comp: [`MODE_LIST`], and the chunks of the view after the sets
/// (a materializing many-way operation's destination, many_op.rs).
pub(super) const MODE_LIST_WITH_DESTINATION: u32 = 2;

/// Bytes of the sets' device views at the start of the scratch, rounded up to 16.
pub(super) fn views_bytes(sets: usize) -> u64 {
    (sets as u64 * std::mem::size_of::<SetDeviceView>() as u64).next_multiple_of(16)
}

impl GpuSet {
    /// Scratch bytes of [`GpuSet::record_op_many_cardinality`] over `sets` sets: 16 a set (their
    /// device views), 512 KiB + 16 (the list of chunks to combine and a counter each) and 257
    /// KiB (the bitmaps of the parts a union of few chunks splits its sets into).
    pub fn op_many_cardinality_scratch_bytes(sets: usize) -> u64 {
        views_bytes(sets) + LIST_BYTES + COUNTER_BYTES + PART_BYTES
    }

    /// Records `|sets[0] op sets[1] op ... op sets[n - 1]|` (left to right; ANDNOT: `sets[0]`
    /// minus the union of the others) without materializing it, into a [`SetOpStatus`] at
    /// `args.status` ([`SetOpStatus::cardinality`]; `ok` 1): two dispatches whatever the number
    /// of sets, after the sets' device views are written to `args.scratch`. Sets may repeat
    /// and mix flat and packed directories. Reads the sets: no operation that writes one of
    /// them may overlap it (record [`GpuSet::record_barrier`] between them). No sets, sets of
    /// different contexts, scratch or status too small or overlapping, more than
    /// [`SET_MANY_CARDINALITY_CPU_MAX`] sets on a CPU driver: an error, nothing recorded.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_op_many_cardinality(
        cmd: vk::CommandBuffer,
        args: &GpuSetManyCardinalityArgs,
    ) -> Result<()> {
        let GpuSetManyCardinalityArgs {
            sets,
            op,
            scratch,
            status,
        } = *args;
        let what = "set op_many cardinality";
        let first = sets
            .first()
            .ok_or_else(|| Error::invalid(format!("{what}: no sets")))?;
        let ctx = &first.ctx;
        let count = check_many_operands(ctx, sets, what, SET_MANY_CARDINALITY_CPU_MAX)?;
        scratch.check(
            ctx,
            "set scratch",
            Self::op_many_cardinality_scratch_bytes(sets.len()),
            16,
        )?;
        status.check(ctx, "set status", SET_STATUS_BYTES, 4)?;
        if scratch.overlaps(&status) {
            return Err(Error::invalid(format!("{what}: scratch and status overlap")));
        }
        // The listing and the unions take the permutation without the intersections' bitmap.
        let list_kernel = kernel(ctx, &shaders::SET_MANY_UNION)?;
        let combine_kernel = match op {
            SetOp::Or | SetOp::Xor => list_kernel,
            SetOp::And | SetOp::AndNot => kernel(ctx, &shaders::SET_MANY_CARDINALITY)?,
        };
        let views: Vec<SetDeviceView> = sets.iter().map(|s| s.device_view()).collect();
        let list = ctx.address_of(&scratch) + views_bytes(sets.len());
        let per_workgroup = list_groups_per_workgroup(ctx.device_class());
        let push = |mode| ManyCardinalityPush {
            views: ctx.address_of(&scratch),
            list,
            ids: list + 16,
            status: ctx.address_of(&status),
            counters: list + LIST_BYTES,
            count,
            op: op as u32,
            mode,
            per_workgroup,
        };
        // SAFETY: `cmd` is recording (documented); the ranges were checked above.
        unsafe {
            // After earlier passes on the scratch, the status or the sets: the views, then the
            // zeroed status and list length.
            record_upload(ctx, cmd, &scratch, bytemuck::cast_slice(&views));
            ctx.device
                .cmd_fill_buffer(cmd, status.buffer, status.offset, SET_STATUS_BYTES, 0);
            let list_at = scratch.offset + views_bytes(sets.len());
            ctx.device.cmd_fill_buffer(cmd, scratch.buffer, list_at, 16, 0);
            ctx.transfer_to_compute(cmd);
            ctx.dispatch(
                cmd,
                list_kernel,
                &push(MODE_LIST),
                list_workgroups(ctx.device_class()),
            );
            ctx.compute_to_compute(cmd);
            let groups = combine_groups(ctx.device_class(), sets, op);
            ctx.dispatch(cmd, combine_kernel, &push(MODE_COMBINE), groups);
            ctx.compute_to_compute(cmd);
        }
        Ok(())
    }

    /// `|sets[0] op sets[1] op ... op sets[n - 1]|` ([`GpuSet::record_op_many_cardinality`]),
    /// one submission. Errors as there.
    pub fn op_many_cardinality(sets: &[&GpuSet], op: SetOp) -> Result<u64> {
        let first = sets
            .first()
            .ok_or_else(|| Error::invalid("set op_many cardinality: no sets"))?;
        let ctx = first.ctx.clone();
        let scratch = ctx.device_buffer(
            Self::op_many_cardinality_scratch_bytes(sets.len()),
            "vkalgo set scratch",
        )?;
        let mut status_buf = ctx.readback_buffer(SET_STATUS_BYTES)?;
        let done = ctx.submit_and_wait(|cmd| unsafe {
            GpuSet::record_op_many_cardinality(
                cmd,
                &GpuSetManyCardinalityArgs {
                    sets,
                    op,
                    scratch: scratch.range(),
                    status: status_buf.range(),
                },
            )?;
            ctx.compute_to_host(cmd);
            Ok(())
        });
        finish_submission!(done, scratch, status_buf);
        let mut status = [SetOpStatus::default()];
        read_back(&mut status_buf, &mut status)?;
        if status[0].ok != 1 {
            return Err(Error::Internal(format!(
                "set op_many cardinality: no result ({:?})",
                status[0]
            )));
        }
        Ok(status[0].cardinality())
    }
}
