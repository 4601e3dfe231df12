//! C ABI of the reduce: the host call and the record layer.

use super::extensions::chained_types;
use super::types::*;
use super::{context_ref, guard, no_extension, non_null, VkalgoContext, VkalgoResult};
use vkalgo::{Error, KeyType, ReduceArgs, ReduceDesc, ReduceOp, ReducePlan};

/// What to reduce: the key type and the operation.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoReduceDesc {
    /// NULL, or a chain of extension structures: `VkalgoKeepScratchZeroed` (plans).
    pub next: *const std::ffi::c_void,
    /// A `VKALGO_KEY_*` code: the sort's six key types.
    pub key_type: u32,
    /// A `VKALGO_OP_*` code: `VKALGO_OP_SUM` (integers wrap; floats in any summation order),
    /// `_MIN` or `_MAX` (in the sort's order: floats in IEEE-754 totalOrder).
    pub op: u32,
}

/// A reduce plan (kernel and scratch size fixed for one context, key type, operation and
/// maximum count). Keeps its context alive; immutable once made: any thread may record it.
pub struct VkalgoReducePlan {
    plan: ReducePlan,
}

/// The buffers of one recorded reduce.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoReduceArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The elements (offset a multiple of the key size).
    pub input: VkalgoBufferRange,
    /// One key receiving the result (offset a multiple of the key size).
    pub result: VkalgoBufferRange,
    /// Scratch memory as `vkalgo_reduce_plan_memory_requirements` reports.
    pub scratch: VkalgoBufferRange,
    /// Element count when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a u32 at `count_buffer.offset`, read on the GPU (clamped to the plan's
    /// max_count). VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
}

/// The Rust desc of `d` for `max_count` elements.
unsafe fn reduce_desc(d: *const VkalgoReduceDesc, max_count: u64) -> vkalgo::Result<ReduceDesc> {
    non_null(d, "desc")?;
    let d = &*d;
    let chained = chained_types(
        d.next,
        "reduce desc",
        &[VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED],
    )?;
    Ok(ReduceDesc {
        keep_scratch_zeroed: chained.contains(&VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED),
        ..ReduceDesc::new(
            KeyType::from_raw(d.key_type)?,
            ReduceOp::from_raw(d.op)?,
            max_count,
        )
    })
}

/// `*result` = op over `input[0..count)` on the GPU (blocking): one key of the desc's type.
/// `count` 0 gives the identity: SUM 0, MIN the largest key of the type in the sort's order
/// (f32 bits 0x7FFFFFFF, f64 0x7FFFFFFFFFFFFFFF), MAX the smallest (f32 bits 0xFFFFFFFF, f64
/// 0xFFFFFFFFFFFFFFFF). Errors (nothing written): NULL input with count > 0, NULL result, an
/// unknown key type or operation, a count over 2^32 - 1 (INVALID_ARGUMENT); an f64 sum on a
/// device without shaderFloat64 (UNSUPPORTED).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_reduce_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoReduceDesc,
    input: *const std::ffi::c_void,
    count: usize,
    result: *mut std::ffi::c_void,
) -> VkalgoResult {
    guard("vkalgo_reduce_host", || {
        let ctx = context_ref(ctx)?;
        let desc = reduce_desc(desc, count as u64)?;
        non_null(result, "result")?;
        if count > 0 {
            non_null(input, "input")?;
        }
        // The count and the device's support are checked before the input is read.
        ctx.reduce_plan(&desc)?;
        macro_rules! run {
            ($t:ty) => {{
                let keys: &[$t] = if count == 0 {
                    &[]
                } else {
                    if (input as usize) % std::mem::align_of::<$t>() != 0 {
                        return Err(Error::invalid(
                            "reduce: input is not aligned to its key size",
                        ));
                    }
                    std::slice::from_raw_parts(input as *const $t, count)
                };
                let r = ctx.reduce(keys, desc.op)?;
                std::ptr::write_unaligned(result as *mut $t, r);
            }};
        }
        match desc.key_type {
            KeyType::U32 => run!(u32),
            KeyType::I32 => run!(i32),
            KeyType::F32 => run!(f32),
            KeyType::U64 => run!(u64),
            KeyType::I64 => run!(i64),
            KeyType::F64 => run!(f64),
            other => return Err(Error::invalid(format!("reduce: key type {other:?}"))),
        }
        Ok(())
    })
}

/// Plans a reduce of up to `max_count` elements (at most 2^32 - 1). `*out` is set only on
/// success; destroy it with `vkalgo_reduce_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_reduce_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoReduceDesc,
    max_count: u64,
    out: *mut *mut VkalgoReducePlan,
) -> VkalgoResult {
    guard("vkalgo_reduce_plan_create", || {
        let ctx = context_ref(ctx)?;
        non_null(out, "out")?;
        let plan = ctx.reduce_plan(&reduce_desc(desc, max_count)?)?;
        super::box_out(out, VkalgoReducePlan { plan })
    })
}

/// Destroys a reduce plan (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_reduce_plan_destroy(plan: *mut VkalgoReducePlan) {
    super::destroy_boxed(plan);
}

/// The scratch memory each `vkalgo_reduce_record` of this plan needs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_reduce_plan_memory_requirements(
    plan: *const VkalgoReducePlan,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_reduce_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        write_requirements(out, (*plan).plan.memory_requirements())
    })
}

/// Records the reduce into the caller's command buffer (on the plan's context, which the plan
/// keeps alive): a compute fill of the scratch's counter, a barrier, one dispatch.
/// Synchronization: writes to the input and count buffer must be visible to COMPUTE_SHADER
/// reads; earlier uses of the result and scratch must be complete before COMPUTE_SHADER;
/// afterwards the result is written by COMPUTE_SHADER (SHADER_WRITE). Nothing is
/// recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_reduce_record(
    plan: *const VkalgoReducePlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoReduceArgs,
) -> VkalgoResult {
    guard("vkalgo_reduce_record", || {
        non_null(plan, "plan")?;
        non_null(args, "args")?;
        let a = &*args;
        no_extension(a.next, "reduce args")?;
        let args = ReduceArgs {
            input: a.input.to_rust(),
            result: a.result.to_rust(),
            scratch: a.scratch.to_rust(),
            count: element_count(a.count, a.count_buffer),
        };
        (*plan).plan.record(command_buffer.to_vk(), &args)
    })
}
