//! The C ABI of the merge sort and the segmented merge (`vkalgo_merge_sort_*`,
//! `vkalgo_segmented_merge_host`), in the shape every new entry point takes: the desc holds
//! every creation parameter and begins with `next`, records take the plan, the command buffer
//! and an args struct.

use super::types::{VkCommandBuffer, VkalgoBufferRange, VkalgoMemoryRequirements};
use super::{byte_len, context_ref, guard, in_place_on_copies, non_null, VkalgoContext, VkalgoResult};
use std::ffi::c_void;
use vkalgo::merge::{MergeSortArgs, MergeSortDesc, MergeSortPlan};
use vkalgo::sort::{KeyType, SortResult, ValueType};
use vkalgo::Error;

/// What to plan a merge sort (and segmented merges) for.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMergeSortDesc {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const c_void,
    /// `VKALGO_KEY_*`.
    pub key_type: u32,
    /// `VKALGO_VALUE_*` (`VKALGO_VALUE_NONE`: keys only).
    pub value_type: u32,
    /// 0 or 1: 1 sorts (and expects runs) largest first, still stable.
    pub descending: u32,
    /// The largest array a call sorts or merges (at most 2^32 - 1); the host calls take the
    /// count from here.
    pub max_count: u64,
    /// The most runs a segmented merge takes (0: the plan only sorts; at most 2^31).
    pub max_runs: u64,
}

/// A merge-sort plan (`vkalgo_merge_sort_plan_create`); it keeps its context alive.
pub struct VkalgoMergeSortPlan {
    plan: MergeSortPlan,
    ctx: vkalgo::Context,
}

/// The buffers of one recorded merge sort or segmented merge.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMergeSortArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const c_void,
    /// The keys (a segmented merge: the runs, each sorted in the plan's order).
    pub keys: VkalgoBufferRange,
    /// The values (buffer VK_NULL_HANDLE exactly when the plan has no value type).
    pub values: VkalgoBufferRange,
    /// Alternate keys, as large as the keys.
    pub keys_alt: VkalgoBufferRange,
    /// Alternate values (VK_NULL_HANDLE exactly when `values` is).
    pub values_alt: VkalgoBufferRange,
    /// Scratch as `vkalgo_merge_sort_plan_memory_requirements` asks.
    pub scratch: VkalgoBufferRange,
    /// Elements of the array (at most the plan's max_count).
    pub count: u64,
    /// Segmented merges: `runs + 1` u32 run starts, from 0 to `count`, non-decreasing
    /// (ignored by `vkalgo_merge_sort_record`).
    pub offsets: VkalgoBufferRange,
    /// Segmented merges: the number of runs (at most the plan's max_runs).
    pub runs: u64,
}

/// The most runs a segmented merge takes (2^31).
const MAX_RUNS: u64 = 1 << 31;

fn desc_of(d: &VkalgoMergeSortDesc) -> vkalgo::Result<MergeSortDesc> {
    super::no_extension(d.next, "desc->next")?;
    if d.descending > 1 {
        return Err(Error::invalid(format!(
            "merge sort: descending must be 0 or 1, not {}",
            d.descending
        )));
    }
    Ok(MergeSortDesc {
        descending: d.descending == 1,
        max_runs: d.max_runs,
        ..MergeSortDesc::new(
            KeyType::from_raw(d.key_type)?,
            ValueType::from_raw(d.value_type)?,
            d.max_count,
        )
    })
}

/// Plans merge sorts of up to `desc->max_count` elements (and, with `max_runs`, segmented
/// merges). `*out` is set only on success; destroy it with `vkalgo_merge_sort_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_sort_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoMergeSortDesc,
    out: *mut *mut VkalgoMergeSortPlan,
) -> VkalgoResult {
    guard("vkalgo_merge_sort_plan_create", || {
        let ctx = context_ref(ctx)?;
        non_null(desc, "desc")?;
        non_null(out, "out")?;
        let plan = ctx.merge_sort_plan(&desc_of(&*desc)?)?;
        *out = Box::into_raw(Box::new(VkalgoMergeSortPlan {
            plan,
            ctx: ctx.clone(),
        }));
        Ok(())
    })
}

/// Destroys a merge-sort plan (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_sort_plan_destroy(plan: *mut VkalgoMergeSortPlan) {
    super::destroy_boxed(plan);
}

/// The scratch each record of this plan needs.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_sort_plan_memory_requirements(
    plan: *const VkalgoMergeSortPlan,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_merge_sort_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        non_null(out, "out")?;
        *out = (*plan).plan.memory_requirements().into();
        Ok(())
    })
}

unsafe fn record(
    name: &str,
    plan: *const VkalgoMergeSortPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoMergeSortArgs,
    result_in_alternate: *mut u32,
    segmented: bool,
) -> VkalgoResult {
    guard(name, || {
        non_null(plan, "plan")?;
        non_null(args, "args")?;
        non_null(result_in_alternate, "result_in_alternate")?;
        let a = &*args;
        super::no_extension(a.next, "args->next")?;
        let plan = &*plan;
        let rust = MergeSortArgs {
            keys: a.keys.to_rust(),
            values: a.values.to_rust_optional(),
            keys_alt: a.keys_alt.to_rust(),
            values_alt: a.values_alt.to_rust_optional(),
            scratch: a.scratch.to_rust(),
            count: a.count,
        };
        let cmd = command_buffer.to_vk();
        let result = if segmented {
            plan.plan
                .record_segmented(&plan.ctx, cmd, &rust, &a.offsets.to_rust(), a.runs)?
        } else {
            plan.plan.record(&plan.ctx, cmd, &rust)?
        };
        *result_in_alternate = (result == SortResult::Alternate) as u32;
        Ok(())
    })
}

/// Records a stable sort of `args->count` elements (see `vkalgo_merge_record` for the
/// synchronization contract); `*result_in_alternate` is 1 when the result is in the alternate
/// buffers, 0 when in `keys`/`values`. Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_sort_record(
    plan: *const VkalgoMergeSortPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoMergeSortArgs,
    result_in_alternate: *mut u32,
) -> VkalgoResult {
    record(
        "vkalgo_merge_sort_record",
        plan,
        command_buffer,
        args,
        result_in_alternate,
        false,
    )
}

/// Records a stable merge of the `args->runs` sorted runs of the array (run r covers
/// `[offsets[r], offsets[r + 1])`; equal keys keep the order of their runs); other offsets or
/// unsorted runs give an unspecified result inside the buffers. `*result_in_alternate` as
/// `vkalgo_merge_sort_record`. Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_sort_record_segmented(
    plan: *const VkalgoMergeSortPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoMergeSortArgs,
    result_in_alternate: *mut u32,
) -> VkalgoResult {
    record(
        "vkalgo_merge_sort_record_segmented",
        plan,
        command_buffer,
        args,
        result_in_alternate,
        true,
    )
}

/// Sorts `desc->max_count` keys (with their values when `desc->value_type` is not
/// `VKALGO_VALUE_NONE`; `values` NULL exactly then) in place with the stable merge sort
/// (blocking). On error the arrays are unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_sort_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoMergeSortDesc,
    keys: *mut c_void,
    values: *mut c_void,
) -> VkalgoResult {
    guard("vkalgo_merge_sort_host", || {
        let ctx = context_ref(ctx)?;
        non_null(desc, "desc")?;
        let desc = desc_of(&*desc)?;
        host_arrays(&desc, keys, values, |k, v| {
            ctx.merge_sort_host_bytes(&desc, k, v, None)
        })
    })
}

/// Merges the `runs` sorted runs of `desc->max_count` keys (run r is `[offsets[r],
/// offsets[r + 1])`; `offsets` holds `runs + 1` u32 from 0 to the count, non-decreasing) into
/// one sorted array in place, stable, with their values as `vkalgo_merge_sort_host`
/// (blocking). Bad offsets or an unsorted run: INVALID_ARGUMENT, nothing written.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_segmented_merge_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoMergeSortDesc,
    keys: *mut c_void,
    values: *mut c_void,
    offsets: *const u32,
    runs: usize,
) -> VkalgoResult {
    guard("vkalgo_segmented_merge_host", || {
        let ctx = context_ref(ctx)?;
        non_null(desc, "desc")?;
        let desc = desc_of(&*desc)?;
        non_null(offsets, "offsets")?;
        let entries = runs
            .checked_add(1)
            .ok_or_else(|| Error::invalid("segmented merge: too many runs"))?;
        if runs as u64 > MAX_RUNS {
            return Err(Error::invalid(format!(
                "segmented merge: {runs} runs, at most {MAX_RUNS}"
            )));
        }
        byte_len(entries, 4, "offsets")?;
        let offsets = std::slice::from_raw_parts(offsets, entries);
        host_arrays(&desc, keys, values, |k, v| {
            ctx.segmented_merge_host_bytes(&desc, k, v, offsets)
        })
    })
}

/// Runs `body` on copies of the caller's `desc.max_count` keys and values, written back only
/// on success; the count is checked against the merge sort's limit before anything is read.
unsafe fn host_arrays(
    desc: &MergeSortDesc,
    keys: *mut c_void,
    values: *mut c_void,
    body: impl FnOnce(&mut [u8], Option<&mut [u8]>) -> vkalgo::Result<()>,
) -> vkalgo::Result<()> {
    if desc.max_count > vkalgo::merge::MAX_RUN {
        return Err(Error::invalid(format!(
            "merge sort: {} elements, at most {}",
            desc.max_count,
            vkalgo::merge::MAX_RUN
        )));
    }
    let count = usize::try_from(desc.max_count)
        .map_err(|_| Error::invalid("merge sort: the count does not fit this host"))?;
    if count == 0 {
        return Ok(());
    }
    let has_values = desc.value_type != ValueType::None;
    non_null(keys, "keys")?;
    if has_values == values.is_null() {
        return Err(Error::invalid(
            "merge sort: values must be given exactly when the value type is not VKALGO_VALUE_NONE",
        ));
    }
    let value_size = if has_values { desc.value_type.bytes() } else { 0 };
    in_place_on_copies(
        keys,
        desc.key_type.bytes(),
        values,
        value_size,
        count,
        "merge sort",
        body,
    )
}
