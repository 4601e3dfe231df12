//! C ABI of the reduce-by-key and run-length encoding: the host call and the record layer.

use super::extensions::chained_types;
use super::types::*;
use super::{context_ref, guard, no_extension, non_null, VkalgoContext, VkalgoResult};
use vkalgo::{Error, KeyType, ReduceByKeyArgs, ReduceByKeyDesc, ReduceByKeyPlan, ReduceOp, ValueType};

/// What to reduce by key: the key type, the value type and the operation.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoReduceByKeyDesc {
    /// NULL, or a chain of extension structures: `VkalgoKeepScratchZeroed` (plans).
    pub next: *const std::ffi::c_void,
    /// A `VKALGO_KEY_*` code: the sort's six key types. Keys are equal when their bits are.
    pub key_type: u32,
    /// A `VKALGO_VALUE_*` code. `VKALGO_VALUE_NONE`: run-length encoding: values_out receives
    /// u32 run lengths.
    pub value_type: u32,
    /// A `VKALGO_OP_*` code for U32/U64 values: SUM (wrapping), MIN, MAX as unsigned. Ignored
    /// for `VKALGO_VALUE_NONE`.
    pub op: u32,
}

/// A reduce-by-key plan (kernels and scratch size fixed for one context, key type, value
/// type, operation and maximum count). Keeps its context alive; immutable once made: any
/// thread may record it.
pub struct VkalgoReduceByKeyPlan {
    plan: ReduceByKeyPlan,
}

/// The buffers of one recorded reduce-by-key. Outputs must not overlap each other, the inputs
/// or the scratch.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoReduceByKeyArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The keys (offset a multiple of the key size).
    pub keys_in: VkalgoBufferRange,
    /// The values (offset a multiple of the value size); VK_NULL_HANDLE exactly for
    /// `VKALGO_VALUE_NONE`.
    pub values_in: VkalgoBufferRange,
    /// Room for `count` keys: each run's key, in order.
    pub keys_out: VkalgoBufferRange,
    /// Room for `count` values (u32 run lengths for `VKALGO_VALUE_NONE`).
    pub values_out: VkalgoBufferRange,
    /// One u32 receiving the number of runs, written on the GPU: usable as the indirect count
    /// (`count_buffer`) of a later vkalgo call or as a workgroup count of a
    /// `vkCmdDispatchIndirect` (after a barrier of your own).
    pub run_count: VkalgoBufferRange,
    /// Scratch memory as `vkalgo_reduce_by_key_plan_memory_requirements` reports.
    pub scratch: VkalgoBufferRange,
    /// Element count when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a u32 at `count_buffer.offset`, read on the GPU (clamped to the plan's
    /// max_count). VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
}

/// The Rust desc of `d` for `max_count` elements.
unsafe fn rbk_desc(d: *const VkalgoReduceByKeyDesc, max_count: u64) -> vkalgo::Result<ReduceByKeyDesc> {
    non_null(d, "desc")?;
    let d = &*d;
    let chained = chained_types(
        d.next,
        "reduce_by_key desc",
        &[VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED],
    )?;
    let value_type = ValueType::from_raw(d.value_type)?;
    let op = match value_type {
        ValueType::None => ReduceOp::Sum,
        _ => ReduceOp::from_raw(d.op)?,
    };
    Ok(ReduceByKeyDesc {
        keep_scratch_zeroed: chained.contains(&VKALGO_STRUCTURE_TYPE_KEEP_SCRATCH_ZEROED),
        ..ReduceByKeyDesc::new(KeyType::from_raw(d.key_type)?, value_type, op, max_count)
    })
}

/// Per maximal run of equal consecutive keys (equal bits: -0.0 and +0.0 differ, NaNs with equal
/// bits are equal): its key in `keys_out` and op over its values in `values_out` (or, for
/// `VKALGO_VALUE_NONE`, its length as a u32), on the GPU (blocking). Outputs need room for
/// `count` runs; `*run_count` = the number of runs. `count` 0 is valid (`*run_count` = 0).
/// Errors (nothing written): NULL data with count > 0, NULL `run_count`, NULL `values_in`
/// with a value type other than NONE, an unknown enum, a count over 2^32 - 1, misaligned
/// data (INVALID_ARGUMENT).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_reduce_by_key_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoReduceByKeyDesc,
    keys_in: *const std::ffi::c_void,
    values_in: *const std::ffi::c_void,
    count: usize,
    keys_out: *mut std::ffi::c_void,
    values_out: *mut std::ffi::c_void,
    run_count: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_reduce_by_key_host", || {
        let ctx = context_ref(ctx)?;
        let desc = rbk_desc(desc, count as u64)?;
        non_null(run_count, "run_count")?;
        let n = count as u64;
        let kb = desc.key_type.bytes();
        let vb = desc.value_type.bytes();
        let ob: u64 = if desc.value_type == ValueType::U64 { 8 } else { 4 };
        if count > 0 {
            non_null(keys_in, "keys_in")?;
            non_null(keys_out, "keys_out")?;
            non_null(values_out, "values_out")?;
            if desc.value_type != ValueType::None {
                non_null(values_in, "values_in")?;
            }
            let aligned = |p: usize, a: u64| p as u64 % a == 0;
            if !aligned(keys_in as usize, kb)
                || !aligned(keys_out as usize, kb)
                || !aligned(values_out as usize, ob)
            {
                return Err(Error::invalid(
                    "reduce_by_key: data not aligned to its element size",
                ));
            }
            if vb > 0 && !aligned(values_in as usize, vb) {
                return Err(Error::invalid(
                    "reduce_by_key: values_in not aligned to its value size",
                ));
            }
        }
        // The count is checked before the data is read.
        ctx.reduce_by_key_plan(&desc)?;
        if count == 0 {
            *run_count = 0;
            return Ok(());
        }
        let keys = std::slice::from_raw_parts(keys_in as *const u8, (n * kb) as usize);
        let values = (vb > 0).then(|| std::slice::from_raw_parts(values_in as *const u8, (n * vb) as usize));
        let runs = ctx.reduce_by_key_host_bytes(desc.key_type, desc.value_type, desc.op, keys, values)?;
        std::ptr::copy_nonoverlapping(runs.keys.as_ptr(), keys_out as *mut u8, runs.keys.len());
        std::ptr::copy_nonoverlapping(runs.values.as_ptr(), values_out as *mut u8, runs.values.len());
        *run_count = runs.runs;
        Ok(())
    })
}

/// Plans a reduce-by-key of up to `max_count` elements (at most 2^32 - 1); `desc`'s path is
/// the device's choice (look-back where it allows inter-workgroup waiting). A chained
/// `VkalgoKeepScratchZeroed` keeps the plan's scratch zeroed between calls (zero it once
/// before the first). `*out` is set only on success; destroy it with
/// `vkalgo_reduce_by_key_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_reduce_by_key_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoReduceByKeyDesc,
    max_count: u64,
    out: *mut *mut VkalgoReduceByKeyPlan,
) -> VkalgoResult {
    guard("vkalgo_reduce_by_key_plan_create", || {
        let ctx = context_ref(ctx)?;
        non_null(out, "out")?;
        let plan = ctx.reduce_by_key_plan(&rbk_desc(desc, max_count)?)?;
        super::box_out(out, VkalgoReduceByKeyPlan { plan })
    })
}

/// Destroys a reduce-by-key plan (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_reduce_by_key_plan_destroy(plan: *mut VkalgoReduceByKeyPlan) {
    super::destroy_boxed(plan);
}

/// The scratch memory each `vkalgo_reduce_by_key_record` of this plan needs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_reduce_by_key_plan_memory_requirements(
    plan: *const VkalgoReduceByKeyPlan,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_reduce_by_key_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        write_requirements(out, (*plan).plan.memory_requirements())
    })
}

/// Elements per tile of the plan (one workgroup's share).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_reduce_by_key_plan_tile_size(
    plan: *const VkalgoReduceByKeyPlan,
    out: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_reduce_by_key_plan_tile_size", || {
        non_null(plan, "plan")?;
        non_null(out, "out")?;
        *out = (*plan).plan.tile_size();
        Ok(())
    })
}

/// Records the reduce-by-key into the caller's command buffer (on the plan's context, which
/// the plan keeps alive): a compute clear of part of the scratch, a barrier and one dispatch
/// (look-back; with a kept-zeroed scratch the dispatch alone, or past 256 tiles the dispatch,
/// a barrier and the clear), or three dispatches with barriers between. Synchronization: writes to the
/// inputs and count buffer must be visible to COMPUTE_SHADER reads; earlier uses of the
/// outputs, run count and scratch must be complete before COMPUTE_SHADER; afterwards they are
/// written by COMPUTE_SHADER (SHADER_WRITE). Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_reduce_by_key_record(
    plan: *const VkalgoReduceByKeyPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoReduceByKeyArgs,
) -> VkalgoResult {
    guard("vkalgo_reduce_by_key_record", || {
        non_null(plan, "plan")?;
        non_null(args, "args")?;
        let a = &*args;
        no_extension(a.next, "reduce_by_key args")?;
        let args = ReduceByKeyArgs {
            keys_in: a.keys_in.to_rust(),
            values_in: a.values_in.to_rust_optional(),
            keys_out: a.keys_out.to_rust(),
            values_out: a.values_out.to_rust(),
            run_count: a.run_count.to_rust(),
            scratch: a.scratch.to_rust(),
            count: element_count(a.count, a.count_buffer),
        };
        (*plan).plan.record(command_buffer.to_vk(), &args)
    })
}
