//! C ABI of the merge and the set operations on sorted arrays: host convenience calls and the
//! record layer.

use super::types::*;
use super::{byte_len, context_ref, guard, no_extension, non_null, try_filled, VkalgoContext, VkalgoResult};
use std::ffi::c_void;
use vkalgo::merge::{MergeDesc, MergePath, SetOpDesc, SetOpPath};
use vkalgo::sort::ValueType;
use vkalgo::Error;

/// What to merge: key and value types, the order of both inputs and the output, and for plans
/// the largest runs and the path.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMergeDesc {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const c_void,
    /// The key type (any of the six).
    pub key_type: VkalgoKeyType,
    /// The value type (`VKALGO_VALUE_NONE`: keys only).
    pub value_type: VkalgoValueType,
    /// 0 or 1: the order of both inputs and the output (1: descending).
    pub descending: u32,
    /// Plans: the largest count of A any record call merges (at most 2^32 - 1). Host calls
    /// ignore it.
    pub max_a: u64,
    /// Plans: the largest count of B (at most 2^32 - 1). Host calls ignore it.
    pub max_b: u64,
    /// Which kernels to record (`VKALGO_MERGE_PATH_AUTO`: by size). Host calls take it too.
    pub path: VkalgoMergePath,
}

/// What set operation to run on sorted arrays, and for plans the largest inputs and the path.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSortedSetOpDesc {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const c_void,
    /// The key type of both inputs and the output (any of the six).
    pub key_type: VkalgoKeyType,
    /// The operation.
    pub op: VkalgoSetOp,
    /// Plans: the largest count of A any record call takes. Host calls ignore it.
    pub max_a: u64,
    /// Plans: the largest count of B (`max_a + max_b` at most 2^32 - 1). Host calls ignore it.
    pub max_b: u64,
    /// Plans: which kernels to record (`VKALGO_SORTED_SET_OP_PATH_AUTO`: the device decides).
    /// Host calls choose their own (an unknown value is still refused).
    pub path: VkalgoSortedSetOpPath,
}

/// The Rust desc of `d` with the maxima `max_a` and `max_b`.
unsafe fn merge_desc(d: *const VkalgoMergeDesc, max_a: u64, max_b: u64) -> vkalgo::Result<MergeDesc> {
    non_null(d, "desc")?;
    let d = &*d;
    no_extension(d.next, "merge desc")?;
    let path = match d.path {
        VKALGO_MERGE_PATH_AUTO => MergePath::Auto,
        VKALGO_MERGE_PATH_PARTITIONED => MergePath::Partitioned,
        VKALGO_MERGE_PATH_FUSED => MergePath::Fused,
        other => return Err(Error::invalid(format!("merge: unknown path {}", other.0))),
    };
    Ok(MergeDesc {
        key_type: d.key_type.to_rust()?,
        value_type: d.value_type.to_rust()?,
        descending: c_bool(d.descending, "merge: descending")?,
        max_a,
        max_b,
        path,
        tuning: None,
    })
}

/// The Rust desc of `d`.
unsafe fn set_op_desc(d: *const VkalgoSortedSetOpDesc) -> vkalgo::Result<SetOpDesc> {
    non_null(d, "desc")?;
    let d = &*d;
    no_extension(d.next, "sorted set operation desc")?;
    let mut desc = SetOpDesc::new(d.key_type.to_rust()?, d.op.to_rust()?, d.max_a, d.max_b);
    desc.path = match d.path {
        VKALGO_SORTED_SET_OP_PATH_AUTO => SetOpPath::Auto,
        VKALGO_SORTED_SET_OP_PATH_LOOKBACK => SetOpPath::Lookback,
        VKALGO_SORTED_SET_OP_PATH_COUNT_SCAN_WRITE => SetOpPath::CountScanWrite,
        other => return Err(Error::invalid(format!("set operation: unknown path {}", other.0))),
    };
    Ok(desc)
}

/// A host slice of `bytes` bytes at `ptr` (NULL is allowed for 0 bytes).
unsafe fn input<'a>(ptr: *const c_void, bytes: usize, what: &str) -> vkalgo::Result<&'a [u8]> {
    if bytes == 0 {
        return Ok(&[]);
    }
    non_null(ptr, what)?;
    Ok(std::slice::from_raw_parts(ptr as *const u8, bytes))
}

/// Merges the sorted runs A (`a_count` keys, and values when `desc->value_type` is not
/// `VKALGO_VALUE_NONE`) and B into `out_keys` / `out_values` (`a_count + b_count` elements) on
/// the GPU (blocking). Stable: equal keys keep A's elements first, each run in its own order.
/// Floats in IEEE-754 totalOrder. The value pointers are NULL exactly when the value type is
/// NONE (inputs with count 0 and outputs with a total of 0 may be NULL). Each input is checked
/// on the GPU to be sorted in the stated order: unsorted input, like any bad argument, returns
/// `VKALGO_ERROR_INVALID_ARGUMENT` and writes nothing.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn vkalgo_merge_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoMergeDesc,
    a_keys: *const c_void,
    a_values: *const c_void,
    a_count: usize,
    b_keys: *const c_void,
    b_values: *const c_void,
    b_count: usize,
    out_keys: *mut c_void,
    out_values: *mut c_void,
) -> VkalgoResult {
    guard("vkalgo_merge_host", || {
        let ctx = context_ref(ctx)?;
        let merge_desc = merge_desc(desc, a_count as u64, b_count as u64)?;
        let (key_type, value_type) = (merge_desc.key_type, merge_desc.value_type);
        let has_values = value_type != ValueType::None;
        let total = a_count
            .checked_add(b_count)
            .ok_or_else(|| Error::invalid("merge: a_count + b_count overflows"))?;
        for (ptr, count, name) in [
            (a_values, a_count, "a_values"),
            (b_values, b_count, "b_values"),
            (out_values as *const c_void, total, "out_values"),
        ] {
            if !has_values && !ptr.is_null() {
                return Err(Error::invalid(format!(
                    "merge: {name} given with VKALGO_VALUE_NONE"
                )));
            }
            if has_values && ptr.is_null() && count > 0 {
                return Err(Error::invalid(format!(
                    "merge: {name} is NULL but a value type is given"
                )));
            }
        }
        ctx.merge_plan(&merge_desc)?; // checks the counts
        let (kb, vb) = (key_type.bytes(), value_type.bytes());
        let a = input(a_keys, byte_len(a_count, kb, "merge")?, "a_keys")?;
        let b = input(b_keys, byte_len(b_count, kb, "merge")?, "b_keys")?;
        let values = if has_values {
            Some([
                input(a_values, byte_len(a_count, vb, "merge")?, "a_values")?,
                input(b_values, byte_len(b_count, vb, "merge")?, "b_values")?,
            ])
        } else {
            None
        };
        if total == 0 {
            return Ok(());
        }
        non_null(out_keys, "out_keys")?;
        let out_key_bytes = byte_len(total, kb, "merge")?;
        let out_value_bytes = byte_len(total, vb, "merge")?;
        let mut keys_copy = try_filled(0u8, out_key_bytes, "out_keys")?;
        let mut values_copy = if has_values {
            Some(try_filled(0u8, out_value_bytes, "out_values")?)
        } else {
            None
        };
        ctx.merge_host_bytes(
            &merge_desc,
            [a, b],
            values,
            &mut keys_copy,
            values_copy.as_deref_mut(),
        )?;
        std::ptr::copy_nonoverlapping(keys_copy.as_ptr(), out_keys as *mut u8, out_key_bytes);
        if let Some(v) = values_copy {
            std::ptr::copy_nonoverlapping(v.as_ptr(), out_values as *mut u8, out_value_bytes);
        }
        Ok(())
    })
}

/// The set operation `desc->op` on the ascending sorted arrays `a` and `b` of `desc->key_type`
/// keys, with std::set_* multiset semantics (a value
/// present ca times in a and cb times in b appears min(ca, cb), max(ca, cb), max(ca - cb, 0)
/// and |ca - cb| times), into `out`, ascending (blocking). `*out_count` receives the result's
/// size. With `out` NULL and `out_capacity` 0 only the size is reported (success); with a
/// non-NULL `out` smaller than the result, `VKALGO_ERROR_INVALID_ARGUMENT` is returned,
/// `*out_count` holds the size needed and nothing is written to `out`. Each input is checked
/// on the GPU to be sorted: unsorted input returns `VKALGO_ERROR_INVALID_ARGUMENT`, nothing
/// written (`*out_count` included).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn vkalgo_sorted_set_op_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoSortedSetOpDesc,
    a: *const c_void,
    a_count: usize,
    b: *const c_void,
    b_count: usize,
    out: *mut c_void,
    out_capacity: usize,
    out_count: *mut usize,
) -> VkalgoResult {
    guard("vkalgo_sorted_set_op_host", || {
        let ctx = context_ref(ctx)?;
        let desc = set_op_desc(desc)?;
        let (key_type, op) = (desc.key_type, desc.op);
        non_null(out_count, "out_count")?;
        if out.is_null() && out_capacity != 0 {
            return Err(Error::invalid(format!(
                "set operation: out is NULL but out_capacity is {out_capacity}"
            )));
        }
        let kb = key_type.bytes();
        let a = input(a, byte_len(a_count, kb, "set operation")?, "a")?;
        let b = input(b, byte_len(b_count, kb, "set operation")?, "b")?;
        let result = ctx.sorted_set_op_bytes(key_type, op, a, b, None)?;
        let count = result.len() / kb as usize;
        *out_count = count;
        if out.is_null() {
            return Ok(());
        }
        if count > out_capacity {
            return Err(Error::invalid(format!(
                "set operation: the result holds {count} keys but out_capacity is {out_capacity}"
            )));
        }
        std::ptr::copy_nonoverlapping(result.as_ptr(), out as *mut u8, result.len());
        Ok(())
    })
}

/// A merge plan (tuning and scratch size fixed for one context; keeps the context alive).
///
/// Threads: immutable once created; any thread may query or record it, concurrently.
pub struct VkalgoMergePlan {
    plan: vkalgo::merge::MergePlan,
}

/// A sorted-array set-operation plan (keeps its context alive).
///
/// Threads: immutable once created; any thread may query or record it, concurrently.
pub struct VkalgoSortedSetOpPlan {
    plan: vkalgo::merge::SetOpPlan,
}

/// The buffers of one recorded merge. A count is read from `*_count_buffer` (a u32 at its
/// offset, written by earlier GPU work, clamped to the plan's maximum) when that buffer is not
/// VK_NULL_HANDLE, else `*_count` is used. Value ranges are VK_NULL_HANDLE exactly when the
/// plan has no value type. The output ranges hold count(A) + count(B) elements (the maxima
/// with indirect counts).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMergeArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const c_void,
    /// Keys of run A.
    pub a_keys: VkalgoBufferRange,
    /// Values of run A.
    pub a_values: VkalgoBufferRange,
    /// Keys of run B.
    pub b_keys: VkalgoBufferRange,
    /// Values of run B.
    pub b_values: VkalgoBufferRange,
    /// Output keys.
    pub out_keys: VkalgoBufferRange,
    /// Output values.
    pub out_values: VkalgoBufferRange,
    /// Scratch as `vkalgo_merge_plan_memory_requirements` reports.
    pub scratch: VkalgoBufferRange,
    /// Elements of A (direct).
    pub a_count: u64,
    /// Indirect count of A (VK_NULL_HANDLE: use `a_count`).
    pub a_count_buffer: VkalgoBufferRange,
    /// Elements of B (direct).
    pub b_count: u64,
    /// Indirect count of B (VK_NULL_HANDLE: use `b_count`).
    pub b_count_buffer: VkalgoBufferRange,
}

/// The buffers of one recorded set operation (counts as in `VkalgoMergeArgs`). `out` holds
/// count(A) + count(B) keys (the maxima with indirect counts); `out_count` receives the number
/// of output keys as a u32.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSortedSetOpArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const c_void,
    /// Run A (ascending).
    pub a: VkalgoBufferRange,
    /// Run B (ascending).
    pub b: VkalgoBufferRange,
    /// Output keys.
    pub out: VkalgoBufferRange,
    /// A u32 receiving the output count.
    pub out_count: VkalgoBufferRange,
    /// Scratch as `vkalgo_sorted_set_op_plan_memory_requirements` reports.
    pub scratch: VkalgoBufferRange,
    /// Elements of A (direct).
    pub a_count: u64,
    /// Indirect count of A (VK_NULL_HANDLE: use `a_count`).
    pub a_count_buffer: VkalgoBufferRange,
    /// Elements of B (direct).
    pub b_count: u64,
    /// Indirect count of B (VK_NULL_HANDLE: use `b_count`).
    pub b_count_buffer: VkalgoBufferRange,
}

/// Plans merges of up to `desc->max_a` + `desc->max_b` elements. `*out` is set only on
/// success; destroy it with `vkalgo_merge_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoMergeDesc,
    out: *mut *mut VkalgoMergePlan,
) -> VkalgoResult {
    guard("vkalgo_merge_plan_create", || {
        let ctx = context_ref(ctx)?;
        non_null(desc, "desc")?;
        non_null(out, "out")?;
        let plan = ctx.merge_plan(&merge_desc(desc, (*desc).max_a, (*desc).max_b)?)?;
        super::box_out(out, VkalgoMergePlan { plan })
    })
}

/// Destroys a merge plan (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_plan_destroy(plan: *mut VkalgoMergePlan) {
    super::destroy_boxed(plan);
}

/// The scratch each `vkalgo_merge_record` of this plan needs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_plan_memory_requirements(
    plan: *const VkalgoMergePlan,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_merge_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        write_requirements(out, (*plan).plan.memory_requirements())
    })
}

/// Outputs per tile of the plan (0 for a NULL plan).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_plan_tile_size(plan: *const VkalgoMergePlan) -> u64 {
    if plan.is_null() {
        return 0;
    }
    (*plan).plan.tile_size()
}

/// Records the merge into the caller's command buffer (on the plan's context, which the plan
/// keeps alive). Synchronization: writes to the inputs and
/// count buffers must be visible to COMPUTE_SHADER reads; earlier uses of the outputs and
/// scratch must be complete before COMPUTE_SHADER; afterwards the outputs are written by
/// COMPUTE_SHADER (SHADER_WRITE). Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_record(
    plan: *const VkalgoMergePlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoMergeArgs,
) -> VkalgoResult {
    guard("vkalgo_merge_record", || {
        non_null(plan, "plan")?;
        non_null(args, "args")?;
        let a = &*args;
        no_extension(a.next, "merge args")?;
        let args = vkalgo::merge::MergeArgs {
            a_keys: a.a_keys.to_rust(),
            a_values: a.a_values.to_rust_optional(),
            b_keys: a.b_keys.to_rust(),
            b_values: a.b_values.to_rust_optional(),
            out_keys: a.out_keys.to_rust(),
            out_values: a.out_values.to_rust_optional(),
            scratch: a.scratch.to_rust(),
            a_count: element_count(a.a_count, a.a_count_buffer),
            b_count: element_count(a.b_count, a.b_count_buffer),
        };
        (*plan).plan.record(command_buffer.to_vk(), &args)
    })
}

/// Plans set operations on ascending runs of up to `desc->max_a` + `desc->max_b` keys. `*out`
/// is set only on success; destroy it with `vkalgo_sorted_set_op_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sorted_set_op_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoSortedSetOpDesc,
    out: *mut *mut VkalgoSortedSetOpPlan,
) -> VkalgoResult {
    guard("vkalgo_sorted_set_op_plan_create", || {
        let ctx = context_ref(ctx)?;
        let desc = set_op_desc(desc)?;
        non_null(out, "out")?;
        let plan = ctx.set_op_plan(&desc)?;
        super::box_out(out, VkalgoSortedSetOpPlan { plan })
    })
}

/// Destroys a set-operation plan (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sorted_set_op_plan_destroy(plan: *mut VkalgoSortedSetOpPlan) {
    super::destroy_boxed(plan);
}

/// The scratch each `vkalgo_sorted_set_op_record` of this plan needs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sorted_set_op_plan_memory_requirements(
    plan: *const VkalgoSortedSetOpPlan,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_sorted_set_op_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        write_requirements(out, (*plan).plan.memory_requirements())
    })
}

/// Records the set operation into the caller's command buffer (on the plan's context).
/// Synchronization: writes to the inputs and count buffers must be
/// visible to COMPUTE_SHADER reads; earlier uses of `out`, `out_count` and scratch must be
/// complete before COMPUTE_SHADER and TRANSFER (scratch may be cleared with vkCmdFillBuffer);
/// afterwards `out` and `out_count` are written by COMPUTE_SHADER (SHADER_WRITE). Nothing is
/// recorded on error. Unsorted input gives an unspecified result inside `out`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sorted_set_op_record(
    plan: *const VkalgoSortedSetOpPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSortedSetOpArgs,
) -> VkalgoResult {
    guard("vkalgo_sorted_set_op_record", || {
        non_null(plan, "plan")?;
        non_null(args, "args")?;
        let a = &*args;
        no_extension(a.next, "sorted set operation args")?;
        let args = vkalgo::merge::SetOpArgs {
            a: a.a.to_rust(),
            b: a.b.to_rust(),
            out: a.out.to_rust(),
            out_count: a.out_count.to_rust(),
            scratch: a.scratch.to_rust(),
            a_count: element_count(a.a_count, a.a_count_buffer),
            b_count: element_count(a.b_count, a.b_count_buffer),
        };
        (*plan).plan.record(command_buffer.to_vk(), &args)
    })
}
