//! The reduce plan: its checks, its pipeline and the record layer.

use super::{tuning, ReduceArgs, ReduceDesc, ReduceTuning, REDUCE_MAX_COUNT};
use crate::core::buffer::MemoryRequirements;
use crate::core::pipelines::Specialization;
use crate::core::shaders::{self, ShaderSource};
use crate::core::spirv::push_constants;
use crate::core::types::{KeyType, ReduceOp};
use crate::error::{Error, Result};
use crate::Context;
use ash::vk;

push_constants! {
    /// Push constants of the reduce kernel (glsl/reduce/reduce.comp, block `ReducePush`).
    pub(crate) struct ReducePush {
        input_addr: u64,
        result_addr: u64,
        scratch_addr: u64,
        count_addr: u64,
        count: u32,
        max_count: u32,
    }
}

/// Byte offset of the partials in the scratch (the finished-workgroup counter is first).
pub(super) const SCRATCH_PARTIALS: u64 = 16;

/// The specialization constants of the reduce kernel (glsl/reduce/reduce.comp).
#[derive(Clone, Copy)]
struct ReduceSpec {
    /// Invocations per workgroup (constant_id 0).
    workgroup_size: u32,
    /// Elements per invocation per tile (constant_id 1).
    items: u32,
    /// The operation (REDUCE_OP, constant_id 5).
    op: ReduceOp,
    /// The key kind: 0 unsigned, 1 signed, 2 float (KEY_ORDER, constant_id 6).
    key_kind: u32,
}

impl From<ReduceSpec> for Specialization {
    fn from(spec: ReduceSpec) -> Self {
        Specialization {
            workgroup_size: spec.workgroup_size,
            id1: spec.items,
            id2: 1,
            id5: spec.op as u32,
            id6: spec.key_kind,
            id8: 0,
        }
    }
}

/// A reduce plan: made once for a key type, operation and maximum count, recorded any number of
/// times ([`ReducePlan::record`]).
pub struct ReducePlan {
    ctx: Context,
    desc: ReduceDesc,
    tuning: ReduceTuning,
    shader: &'static ShaderSource,
    groups: u32,
}

impl std::fmt::Debug for ReducePlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReducePlan")
            .field("desc", &self.desc)
            .field("tuning", &self.tuning)
            .field("workgroups", &self.groups)
            .finish()
    }
}

impl Context {
    /// Plans a reduce. Errors: a count over [`REDUCE_MAX_COUNT`] or a bad tuning
    /// ([`Error::InvalidArgument`]); an f64 sum on a device without `shaderFloat64`
    /// ([`Error::Unsupported`]).
    pub fn reduce_plan(&self, desc: &ReduceDesc) -> Result<ReducePlan> {
        if desc.max_count > REDUCE_MAX_COUNT {
            return Err(Error::invalid(format!(
                "reduce: max_count {} exceeds {REDUCE_MAX_COUNT}",
                desc.max_count
            )));
        }
        let tuning = desc.tuning.unwrap_or_else(|| ReduceTuning::for_device(self));
        check_tuning(self, &tuning)?;
        let float64_sum = desc.key_type == KeyType::F64 && desc.op == ReduceOp::Sum;
        if float64_sum && !self.supports_float64() {
            return Err(Error::unsupported(format!(
                "reduce: sums of f64 keys need shaderFloat64, which {} lacks",
                self.profile.device_name
            )));
        }
        let shader = match (desc.key_type.bits(), float64_sum) {
            (32, _) => &shaders::REDUCE_K32,
            (_, false) => &shaders::REDUCE_K64,
            (_, true) => &shaders::REDUCE_F64_SUM,
        };
        let tile = tuning.workgroup_size as u64 * tuning.items_per_invocation as u64;
        let groups = desc
            .max_count
            .div_ceil(tile)
            .clamp(1, tuning.max_workgroups as u64) as u32;
        let plan = ReducePlan {
            ctx: self.clone(),
            desc: *desc,
            tuning,
            shader,
            groups,
        };
        self.prepare_kernels(&[(shader, plan.spec())])?;
        Ok(plan)
    }
}

fn check_tuning(ctx: &Context, t: &ReduceTuning) -> Result<()> {
    let wg = t.workgroup_size;
    if !wg.is_power_of_two() || wg < 32 || wg > ctx.profile.max_workgroup_invocations.min(1024) {
        return Err(Error::invalid(format!(
            "reduce: workgroup size {wg} is not a power of two in 32..=device limit"
        )));
    }
    if !(1..=16).contains(&t.items_per_invocation) {
        return Err(Error::invalid(format!(
            "reduce: items_per_invocation {} not in 1..=16",
            t.items_per_invocation
        )));
    }
    if !(1..=tuning::MAX_WORKGROUPS).contains(&t.max_workgroups) {
        return Err(Error::invalid(format!(
            "reduce: max_workgroups {} not in 1..={}",
            t.max_workgroups,
            tuning::MAX_WORKGROUPS
        )));
    }
    Ok(())
}

fn key_kind(key_type: KeyType) -> u32 {
    match key_type {
        KeyType::I32 | KeyType::I64 => 1,
        KeyType::F32 | KeyType::F64 => 2,
        _ => 0,
    }
}

impl ReducePlan {
    /// What the plan was made for.
    pub fn desc(&self) -> &ReduceDesc {
        &self.desc
    }

    /// The kernel tuning the plan uses.
    pub fn tuning(&self) -> ReduceTuning {
        self.tuning
    }

    /// Scratch every [`ReducePlan::record`] call needs: a counter and one partial per
    /// workgroup.
    pub fn memory_requirements(&self) -> MemoryRequirements {
        MemoryRequirements::scratch(SCRATCH_PARTIALS + self.groups as u64 * 8, 16)
    }

    fn spec(&self) -> ReduceSpec {
        ReduceSpec {
            workgroup_size: self.tuning.workgroup_size,
            items: self.tuning.items_per_invocation,
            op: self.desc.op,
            key_kind: key_kind(self.desc.key_type),
        }
    }

    /// Records the reduce of `args.count` elements of `args.input` into `args.result`: a compute
    /// fill of the scratch's counter and a barrier (unless the desc keeps the scratch zeroed),
    /// then one dispatch (see the module docs for
    /// the synchronization contract). Nothing is recorded on error.
    ///
    /// # Safety
    /// `cmd` must be a command buffer of this context's device in the recording state; every
    /// buffer range must name a live buffer of that device with the usage vkalgo asks for
    /// ([`crate::BUFFER_USAGE`]), kept alive (and not reused) until the recorded commands have
    /// completed; the synchronization contract in the module docs must be met.
    pub unsafe fn record(&self, cmd: vk::CommandBuffer, args: &ReduceArgs) -> Result<()> {
        let ctx = &self.ctx;
        if cmd == vk::CommandBuffer::null() {
            return Err(Error::invalid("reduce: the command buffer is null"));
        }
        let kb = self.desc.key_type.bytes();
        let (direct, n) = args.count.resolve(ctx, "reduce: count", self.desc.max_count)?;
        args.input.check(ctx, "reduce input", n * kb, kb)?;
        args.result.check(ctx, "reduce result", kb, kb)?;
        let scratch_bytes = self.memory_requirements().scratch.size;
        args.scratch.check(ctx, "reduce scratch", scratch_bytes, 16)?;
        let result = args.result.part(0, kb);
        let scratch = args.scratch.part(0, scratch_bytes);
        let mut reads = vec![args.input.part(0, n * kb)];
        if let crate::ElementCount::Indirect(range) = args.count {
            reads.push(range.part(0, 4));
        }
        if result.overlaps(&scratch) || reads.iter().any(|r| r.overlaps(&result) || r.overlaps(&scratch)) {
            return Err(Error::invalid(
                "reduce: the result or the scratch overlaps another range of the call",
            ));
        }
        let kernel = ctx.kernel(self.shader, self.spec())?;
        let push = ReducePush {
            input_addr: ctx.address_of(&args.input),
            result_addr: ctx.address_of(&result),
            scratch_addr: ctx.address_of(&scratch),
            count_addr: match args.count {
                crate::ElementCount::Indirect(range) => ctx.address_of(&range),
                crate::ElementCount::Direct(_) => 0,
            },
            count: direct.unwrap_or(0) as u32,
            max_count: self.desc.max_count as u32,
        };
        // SAFETY: `cmd` is recording (documented); the ranges were checked above. The counter is
        // cleared by a compute fill: with its compute-to-compute barrier it costs less than a
        // vkCmdFillBuffer and a transfer barrier (docs/tuning/core.md#compute-fill).
        // A kept-zeroed scratch needs no clear: every reduce leaves its counter at zero.
        unsafe {
            if !self.desc.keep_scratch_zeroed {
                ctx.record_compute_fill(cmd, &scratch.part(0, 16), 4, 0)?;
                ctx.compute_to_compute(cmd);
            }
            ctx.dispatch(cmd, kernel, &push, self.groups);
        }
        Ok(())
    }
}

/// The reduce shader with its push-constant layout (checked against the SPIR-V by a test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    [shaders::REDUCE_K32, shaders::REDUCE_K64, shaders::REDUCE_F64_SUM]
        .into_iter()
        .map(|s| (s, ReducePush::FIELDS, std::mem::size_of::<ReducePush>()))
        .collect()
}
