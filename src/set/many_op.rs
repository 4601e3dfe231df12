//! A many-way operation materialized, `self = sets[0] op sets[1] op ... op sets[n - 1]`, as one
//! pass sequence whatever the number of sets: the chunks the result may hold and those the
//! destination holds listed (glsl/set/many_cardinality.comp), then each listed chunk counted,
//! checked against the destination's free blocks and written (glsl/set/chunk_update.comp
//! MANY_WAY: the first set against the others combined in shared memory), on the record layer
//! and as the host layer's [`GpuSet::assign_many`].

use super::args::GpuSetOpManyArgs;
use super::gpu::{dir_forms, GpuSet};
use super::layout::{with_forms, CHUNKS, SCRATCH_HEADER, SET_SCRATCH_BYTES, SET_STATUS_BYTES};
use super::many_cardinality::{
    check_many_operands, list_groups_per_workgroup, list_workgroups, many_result_bound, views_bytes,
    ManyCardinalityPush, MODE_LIST_WITH_DESTINATION,
};
use super::passes::{chunk_grid, kernel, record_upload, update_spec, SetPush};
use super::view::SetDeviceView;
use crate::core::shaders;
use crate::core::tuning::DeviceClass;
use crate::error::{Error, Result};
use crate::SetOp;
use ash::vk;

/// Most sets of one recorded many-way operation on a CPU driver: a workgroup walks every set's
/// chunk of its listed chunk, and CPU drivers end an invocation's loops after a fixed number of
/// iterations (docs/driver-bugs.md#lavapipe-loop-limit); the host layer combines more in
/// rounds there.
pub const SET_MANY_OP_CPU_MAX: usize = 32;

/// chunk_update.comp's mode of a many-way operation.
const MODE_MANY: u32 = 4;

impl GpuSet {
    /// Scratch bytes of [`GpuSet::record_op_many`] over `sets` sets:
    /// [`SET_SCRATCH_BYTES`](super::SET_SCRATCH_BYTES) and 16 a set and for the destination
    /// (their device views).
    pub fn op_many_scratch_bytes(sets: usize) -> u64 {
        SET_SCRATCH_BYTES + views_bytes(sets + 1)
    }

    /// Records `self = sets[0] op sets[1] op ... op sets[n - 1]` (left to right; ANDNOT:
    /// `sets[0]` minus the union of the others) as one pass sequence whatever the number of
    /// sets: the sets' device views written to `args.scratch`, the chunks listed, counted,
    /// checked and written. As [`GpuSet::record_op`]: when the destination's pools lack free
    /// blocks nothing is written and the status says what was needed ([`GpuSet::reserve`]).
    /// The operands may repeat and mix flat and packed directories; the destination is
    /// written, so it is none of them and not packed. No sets, sets of different contexts, the
    /// destination among the operands or packed, scratch or status too small or overlapping,
    /// more than [`SET_MANY_OP_CPU_MAX`] sets on a CPU driver: an error, nothing recorded.
    ///
    /// # Safety
    /// As [`GpuSet::record_op`].
    pub unsafe fn record_op_many(&self, cmd: vk::CommandBuffer, args: &GpuSetOpManyArgs) -> Result<()> {
        // SAFETY: as documented.
        let bound = unsafe { self.record_many_passes(cmd, args) }?;
        self.note_recorded_bound(bound);
        Ok(())
    }

    /// Records [`GpuSet::record_op_many`]'s passes; returns the bound on the result's
    /// non-empty chunks.
    unsafe fn record_many_passes(&self, cmd: vk::CommandBuffer, args: &GpuSetOpManyArgs) -> Result<u32> {
        let GpuSetOpManyArgs {
            sets,
            op,
            scratch,
            status,
        } = *args;
        let what = "set op_many";
        self.check_writable(what)?;
        let ctx = &self.ctx;
        let count = check_many_operands(ctx, sets, what, SET_MANY_OP_CPU_MAX)?;
        if sets.iter().any(|s| std::ptr::eq(*s, self)) {
            return Err(Error::invalid(format!(
                "{what}: the destination is one of the operands"
            )));
        }
        let first = sets[0];
        let cpu = ctx.device_class() == DeviceClass::Cpu;
        scratch.check(ctx, "set scratch", Self::op_many_scratch_bytes(sets.len()), 16)?;
        status.check(ctx, "set status", SET_STATUS_BYTES, 4)?;
        if scratch.overlaps(&status) {
            return Err(Error::invalid(format!("{what}: scratch and status overlap")));
        }
        let list_kernel = kernel(ctx, &shaders::SET_MANY_UNION)?;
        let forms = dir_forms(None, Some(first), None);
        let spec = with_forms(update_spec(ctx), forms);
        let update_kernel = ctx.kernel(&shaders::SET_CHUNK_UPDATE_MANY, spec)?;
        let check_kernel = kernel(ctx, &shaders::SET_CHECK)?;
        let bound = many_result_bound(sets, op);
        // Every chunk the result or the destination holds is listed.
        let listed = bound.saturating_add(self.chunk_bound()).min(CHUNKS as u32);

        let views: Vec<SetDeviceView> = sets
            .iter()
            .chain(std::iter::once(&self))
            .map(|s| s.device_view())
            .collect();
        let views_range = scratch.part(SET_SCRATCH_BYTES, views_bytes(views.len()));
        let scratch_addr = ctx.address_of(&scratch);
        let views_addr = ctx.address_of(&views_range);
        let per_workgroup = list_groups_per_workgroup(ctx.device_class());
        let list = ManyCardinalityPush {
            views: views_addr,
            list: scratch_addr, // S_WORK_COUNT, the scratch's first word
            ids: scratch_addr + SCRATCH_HEADER * 4,
            status: ctx.address_of(&status),
            counters: 0,
            count,
            op: op as u32,
            mode: MODE_LIST_WITH_DESTINATION,
            per_workgroup,
        };
        // On CPU drivers one listed chunk a workgroup (the loop cap: every set's chunk is
        // walked for each).
        let grid = if cpu { listed.max(1) } else { chunk_grid(listed) };
        let update = |aux| SetPush {
            meta_d: self.meta(),
            meta_a: first.meta(),
            meta_b: 0,
            scratch: scratch_addr,
            values: views_addr + 16,
            out_addr: ctx.address_of(&status),
            count_addr: 0,
            range_lo: 0,
            range_hi: 0,
            count: count - 1,
            max_count: 0,
            op: op as u32,
            mode: MODE_MANY,
            grid,
            aux,
            jobs: 0,
        };
        let check = SetPush {
            mode: 0, // check.comp: an operation with a destination
            aux: 0,
            ..update(0)
        };
        // SAFETY: `cmd` is recording (documented); the ranges were checked above.
        unsafe {
            // After earlier passes on the scratch, the status or the sets: the views, the
            // cleared counters (the list's length among them), then the passes.
            record_upload(ctx, cmd, &views_range, bytemuck::cast_slice(&views));
            ctx.transfer_to_compute(cmd);
            ctx.record_compute_fill(cmd, &scratch, SCRATCH_HEADER as u32, 0)?;
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, list_kernel, &list, list_workgroups(ctx.device_class()));
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, update_kernel, &update(0), grid);
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, check_kernel, &check, 1);
            ctx.compute_to_compute(cmd);
            ctx.dispatch(cmd, update_kernel, &update(1), grid);
            ctx.compute_to_compute(cmd);
        }
        Ok(bound)
    }

    /// `self = sets[0] op sets[1] op ...` through [`GpuSet::record_op_many`] in one
    /// submission, again after the pools grew where they were short. `self` is unpacked first.
    pub(super) fn assign_many_recorded(&mut self, sets: &[&GpuSet], op: SetOp) -> Result<()> {
        let scratch_bytes = Self::op_many_scratch_bytes(sets.len());
        self.run_growing(scratch_bytes, |s, cmd, _, scratch, status| {
            let args = GpuSetOpManyArgs {
                sets,
                op,
                scratch: *scratch,
                status: *status,
            };
            // SAFETY: `cmd` is the runner's recording command buffer; the buffers are live.
            let bound = unsafe { s.record_many_passes(cmd, &args) }?;
            s.note_result_bound(bound);
            Ok(())
        })?;
        Ok(())
    }
}
