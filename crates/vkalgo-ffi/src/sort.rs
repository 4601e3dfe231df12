//! C ABI of the radix sort: the host convenience call and the record layer.

use super::types::*;
use super::{context_ref, guard, in_place_on_copies, non_null, plan_context, VkalgoContext, VkalgoResult};
use vkalgo::sort::{KeyType, SortArgs, SortDesc, SortPath, SortPlan, SortResult, ValueType};
use vkalgo::ElementCount;
use vkalgo::Error;

/// Sort path: small counts on one workgroup, else Onesweep where the device profile allows
/// inter-workgroup waiting, else the safe path.
pub const VKALGO_SORT_PATH_AUTO: u32 = 0;
/// Sort path: Onesweep with a circular look-back buffer.
pub const VKALGO_SORT_PATH_ONESWEEP: u32 = 1;
/// Sort path: count, scan, scatter per digit (no inter-workgroup waiting).
pub const VKALGO_SORT_PATH_SAFE: u32 = 2;
/// Sort path: one workgroup for everything (small counts only).
pub const VKALGO_SORT_PATH_SMALL: u32 = 3;

/// What to sort: key and value types, bit range, direction.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSortDesc {
    /// `VKALGO_KEY_*`.
    pub key_type: u32,
    /// `VKALGO_VALUE_*`.
    pub value_type: u32,
    /// First order-preserving key bit sorted on (usually 0).
    pub begin_bit: u32,
    /// One past the last bit sorted on; 0 means the key's full width.
    pub end_bit: u32,
    /// 0: ascending, 1: descending (both stable).
    pub descending: u32,
}

/// Buffers and scratch a sort plan needs from the caller.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSortMemoryRequirements {
    /// Bytes of the alternate keys buffer.
    pub keys_alt_size: VkDeviceSize,
    /// Bytes of the alternate values buffer (0 without values).
    pub values_alt_size: VkDeviceSize,
    /// Bytes of scratch.
    pub scratch_size: VkDeviceSize,
    /// Alignment of every range's offset.
    pub alignment: VkDeviceSize,
    /// Usage flags every buffer passed to the sort must have.
    pub usage: VkBufferUsageFlags,
}

/// The buffers of one recorded sort.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSortArgs {
    /// The keys.
    pub keys: VkalgoBufferRange,
    /// The values (`buffer` VK_NULL_HANDLE exactly when the plan has no value type).
    pub values: VkalgoBufferRange,
    /// Alternate keys (as large as the keys).
    pub keys_alt: VkalgoBufferRange,
    /// Alternate values (VK_NULL_HANDLE exactly when `values` is).
    pub values_alt: VkalgoBufferRange,
    /// Scratch memory as `vkalgo_sort_plan_memory_requirements` reports.
    pub scratch: VkalgoBufferRange,
    /// Element count when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a u32 at `count_buffer.offset`, read on the GPU (clamped to the plan's
    /// max_count). VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
}

/// A sort plan (paths, tuning and memory sizes fixed for one context).
///
/// Keeps its context alive. Immutable once created: any thread may query it or record it,
/// concurrently; destroying it while another thread uses it is the caller's error.
pub struct VkalgoSortPlan {
    plan: SortPlan,
    /// The context the plan was made for (kept alive by the plan).
    ctx: vkalgo::Context,
}

fn sort_desc(d: &VkalgoSortDesc, max_count: u64, path: u32) -> vkalgo::Result<SortDesc> {
    if d.descending > 1 {
        return Err(Error::invalid(format!(
            "sort: descending must be 0 or 1, not {}",
            d.descending
        )));
    }
    let path = match path {
        VKALGO_SORT_PATH_AUTO => SortPath::Auto,
        VKALGO_SORT_PATH_ONESWEEP => SortPath::Onesweep,
        VKALGO_SORT_PATH_SAFE => SortPath::Safe,
        VKALGO_SORT_PATH_SMALL => SortPath::Small,
        other => return Err(Error::invalid(format!("sort: unknown path {other}"))),
    };
    Ok(SortDesc {
        key_type: KeyType::from_raw(d.key_type)?,
        value_type: ValueType::from_raw(d.value_type)?,
        max_count,
        begin_bit: d.begin_bit,
        end_bit: d.end_bit,
        descending: d.descending == 1,
        path,
        tuning: None,
    })
}

/// Sorts `count` keys (and their values) in place on the GPU (blocking), stable.
/// `values` is NULL exactly when `desc->value_type` is `VKALGO_VALUE_NONE`. On error the
/// arrays are unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sort_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoSortDesc,
    keys: *mut std::ffi::c_void,
    values: *mut std::ffi::c_void,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_sort_host", || {
        let ctx = context_ref(ctx)?;
        non_null(desc, "desc")?;
        let desc = sort_desc(&*desc, count as u64, VKALGO_SORT_PATH_AUTO)?;
        let has_values = desc.value_type != ValueType::None;
        if has_values && values.is_null() && count > 0 {
            return Err(Error::invalid("sort: values is NULL but a value type is given"));
        }
        if !has_values && !values.is_null() {
            return Err(Error::invalid("sort: values given with VKALGO_VALUE_NONE"));
        }
        ctx.sort_plan(&desc)?; // checks the bit range even for count 0
        if count == 0 {
            return Ok(());
        }
        non_null(keys, "keys")?;
        in_place_on_copies(
            keys,
            desc.key_type.bytes(),
            values,
            desc.value_type.bytes(),
            count,
            "sort",
            |k, v| ctx.sort_host_bytes(&desc, k, v),
        )
    })
}

/// Plans a sort of up to `max_count` elements on `path` (`VKALGO_SORT_PATH_*`). `*out` is set
/// only on success; destroy it with `vkalgo_sort_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sort_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoSortDesc,
    max_count: u64,
    path: u32,
    out: *mut *mut VkalgoSortPlan,
) -> VkalgoResult {
    guard("vkalgo_sort_plan_create", || {
        let ctx = context_ref(ctx)?;
        non_null(desc, "desc")?;
        non_null(out, "out")?;
        let plan = ctx.sort_plan(&sort_desc(&*desc, max_count, path)?)?;
        *out = Box::into_raw(Box::new(VkalgoSortPlan {
            plan,
            ctx: ctx.clone(),
        }));
        Ok(())
    })
}

/// Destroys a sort plan (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sort_plan_destroy(plan: *mut VkalgoSortPlan) {
    super::destroy_boxed(plan);
}

/// The alternate buffers and scratch each `vkalgo_sort_record` of this plan needs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sort_plan_memory_requirements(
    plan: *const VkalgoSortPlan,
    out: *mut VkalgoSortMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_sort_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        non_null(out, "out")?;
        let r = (*plan).plan.memory_requirements();
        *out = VkalgoSortMemoryRequirements {
            keys_alt_size: r.keys_alt_size,
            values_alt_size: r.values_alt_size,
            scratch_size: r.scratch_size,
            alignment: r.alignment,
            usage: r.usage.as_raw(),
        };
        Ok(())
    })
}

/// Keys per tile of the plan (0 for a NULL plan): sizes around it are the edge cases.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sort_plan_tile_size(plan: *const VkalgoSortPlan) -> u64 {
    if plan.is_null() {
        return 0;
    }
    (*plan).plan.tile_size()
}

/// Digit passes one sort of this plan runs (0 for a NULL plan).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sort_plan_pass_count(plan: *const VkalgoSortPlan) -> u32 {
    if plan.is_null() {
        return 0;
    }
    (*plan).plan.pass_count()
}

/// 1 when every sort of this plan leaves its result in the alternate buffers (an odd number of
/// digit passes), 0 when in `keys`/`values` (also 0 for a NULL plan). `vkalgo_sort_record`
/// reports the same.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sort_plan_result_in_alternate(plan: *const VkalgoSortPlan) -> u32 {
    if plan.is_null() {
        return 0;
    }
    ((*plan).plan.result_location() == SortResult::Alternate) as u32
}

/// Records the sort into the caller's command buffer. `ctx` may be NULL (the plan's context, which the
/// plan keeps alive, is used); otherwise it must be the plan's context. `*result_in_alternate` (may be NULL)
/// becomes 1 when the sorted data ends in the alternate buffers, 0 when in `keys`/`values`.
/// Synchronization: writes to keys, values and the count buffer must be visible to
/// COMPUTE_SHADER reads and writes; earlier uses of the alternates and scratch must be complete
/// before COMPUTE_SHADER and TRANSFER; afterwards the result is written by COMPUTE_SHADER
/// (SHADER_WRITE). Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sort_record(
    ctx: *const VkalgoContext,
    plan: *const VkalgoSortPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSortArgs,
    result_in_alternate: *mut u32,
) -> VkalgoResult {
    guard("vkalgo_sort_record", || {
        non_null(plan, "plan")?;
        let ctx = plan_context(ctx, &(*plan).ctx, "sort record")?;
        non_null(args, "args")?;
        let a = &*args;
        let count = if a.count_buffer.buffer.0 == 0 {
            ElementCount::Direct(a.count)
        } else {
            ElementCount::Indirect(a.count_buffer.to_rust())
        };
        let args = SortArgs {
            keys: a.keys.to_rust(),
            values: a.values.to_rust_optional(),
            keys_alt: a.keys_alt.to_rust(),
            values_alt: a.values_alt.to_rust_optional(),
            scratch: a.scratch.to_rust(),
            count,
        };
        let location = (*plan).plan.record(ctx, command_buffer.to_vk(), &args)?;
        if !result_in_alternate.is_null() {
            *result_in_alternate = (location == SortResult::Alternate) as u32;
        }
        Ok(())
    })
}
