//! C ABI of the radix sort: the host convenience call and the record layer.

use super::types::*;
use super::{context_ref, guard, in_place_on_copies, no_extension, non_null, VkalgoContext, VkalgoResult};
use vkalgo::sort::{SortArgs, SortDesc, SortPath, SortPlan, SortResult, ValueType};
use vkalgo::ElementCount;
use vkalgo::Error;

/// What to sort: key and value types, bit range, direction, and for plans the largest count
/// and the path.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSortDesc {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The key type (any of the six).
    pub key_type: VkalgoKeyType,
    /// The value type (`VKALGO_VALUE_NONE`: keys only).
    pub value_type: VkalgoValueType,
    /// First order-preserving key bit sorted on (usually 0).
    pub begin_bit: u32,
    /// One past the last bit sorted on; 0 means the key's full width.
    pub end_bit: u32,
    /// 0: ascending, 1: descending (both stable).
    pub descending: u32,
    /// Which kernels to record (`VKALGO_SORT_PATH_AUTO`: the device decides). Host calls take
    /// it too.
    pub path: VkalgoSortPath,
    /// Plans: the largest count any record call sorts (at most 2^32 - 2^15). Host calls
    /// ignore it (they take their count).
    pub max_count: u64,
}

/// The buffers of one recorded sort.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSortArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
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
    /// Optional output (NULL: none): 1 when the sorted data ends in the alternate buffers, 0
    /// when in `keys`/`values` (`vkalgo_sort_plan_result_in_alternate` says the same).
    pub result_in_alternate: *mut u32,
}

/// A sort plan (paths, tuning and memory sizes fixed for one context).
///
/// Keeps its context alive. Immutable once created: any thread may query it or record it,
/// concurrently; destroying it while another thread uses it is the caller's error.
pub struct VkalgoSortPlan {
    plan: SortPlan,
}

/// The Rust desc of `d`, for `max_count` elements.
pub(crate) unsafe fn sort_desc(d: *const VkalgoSortDesc, max_count: u64) -> vkalgo::Result<SortDesc> {
    non_null(d, "desc")?;
    let d = &*d;
    no_extension(d.next, "sort desc")?;
    let path = match d.path {
        VKALGO_SORT_PATH_AUTO => SortPath::Auto,
        VKALGO_SORT_PATH_ONESWEEP => SortPath::Onesweep,
        VKALGO_SORT_PATH_SAFE => SortPath::Safe,
        VKALGO_SORT_PATH_SMALL => SortPath::Small,
        other => return Err(Error::invalid(format!("sort: unknown path {}", other.0))),
    };
    Ok(SortDesc {
        key_type: d.key_type.to_rust()?,
        value_type: d.value_type.to_rust()?,
        max_count,
        begin_bit: d.begin_bit,
        end_bit: d.end_bit,
        descending: c_bool(d.descending, "sort: descending")?,
        path,
        tuning: None,
    })
}

/// Sorts `count` keys (and their values) in place on the GPU (blocking), stable, as `desc`
/// says (its `max_count` is ignored). `values` is NULL exactly when `desc->value_type` is
/// `VKALGO_VALUE_NONE`. On error the arrays are unchanged.
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
        let desc = sort_desc(desc, count as u64)?;
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

/// Plans a sort of up to `desc->max_count` elements. `*out` is set only on success; destroy
/// it with `vkalgo_sort_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sort_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoSortDesc,
    out: *mut *mut VkalgoSortPlan,
) -> VkalgoResult {
    guard("vkalgo_sort_plan_create", || {
        let ctx = context_ref(ctx)?;
        non_null(desc, "desc")?;
        non_null(out, "out")?;
        let plan = ctx.sort_plan(&sort_desc(desc, (*desc).max_count)?)?;
        super::box_out(out, VkalgoSortPlan { plan })
    })
}

/// Destroys a sort plan (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sort_plan_destroy(plan: *mut VkalgoSortPlan) {
    super::destroy_boxed(plan);
}

/// The alternate buffers (`keys_alt`, `values_alt`) and scratch each `vkalgo_sort_record` of
/// this plan needs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sort_plan_memory_requirements(
    plan: *const VkalgoSortPlan,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_sort_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        write_requirements(out, (*plan).plan.memory_requirements())
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

/// Records the sort into the caller's command buffer (on the plan's context, which the plan
/// keeps alive). Synchronization: writes to keys, values and the count buffer must be visible to
/// COMPUTE_SHADER reads and writes; earlier uses of the alternates and scratch must be complete
/// before COMPUTE_SHADER and TRANSFER; afterwards the result is written by COMPUTE_SHADER
/// (SHADER_WRITE). Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_sort_record(
    plan: *const VkalgoSortPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSortArgs,
) -> VkalgoResult {
    guard("vkalgo_sort_record", || {
        non_null(plan, "plan")?;
        non_null(args, "args")?;
        let a = &*args;
        no_extension(a.next, "sort args")?;
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
        let location = (*plan).plan.record(command_buffer.to_vk(), &args)?;
        if !a.result_in_alternate.is_null() {
            *a.result_in_alternate = (location == SortResult::Alternate) as u32;
        }
        Ok(())
    })
}
