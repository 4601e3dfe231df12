//! C ABI of the merge sort and the segmented merge: host convenience calls and the record
//! layer.

use super::types::*;
use super::{
    byte_len, context_ref, guard, in_place_on_copies, no_extension, non_null, VkalgoContext, VkalgoResult,
};
use std::ffi::c_void;
use vkalgo::merge::{MergeSortArgs, MergeSortDesc, MergeSortPlan, SegmentedMergeArgs};
use vkalgo::sort::{SortResult, ValueType};
use vkalgo::Error;

/// What to plan a merge sort (and segmented merges) for.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoMergeSortDesc {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const c_void,
    /// The key type (any of the six).
    pub key_type: VkalgoKeyType,
    /// The value type (`VKALGO_VALUE_NONE`: keys only).
    pub value_type: VkalgoValueType,
    /// 0 or 1: 1 sorts (and expects runs) largest first, still stable.
    pub descending: u32,
    /// Plans: the largest array a record call sorts or merges (at most 2^32 - 1). Host calls
    /// ignore it.
    pub max_count: u64,
    /// Plans: the most runs a segmented merge takes (0: the plan only sorts; at most 2^31).
    /// Host calls ignore it.
    pub max_runs: u64,
}

/// A merge-sort plan (`vkalgo_merge_sort_plan_create`); it keeps its context alive.
pub struct VkalgoMergeSortPlan {
    plan: MergeSortPlan,
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
    /// Optional output (NULL: none): 1 when the result ends in the alternate buffers, 0 when
    /// in `keys`/`values`.
    pub result_in_alternate: *mut u32,
}

/// The most runs a segmented merge takes (2^31).
const MAX_RUNS: u64 = 1 << 31;

/// The Rust desc of `d` for arrays of up to `max_count` elements in up to `max_runs` runs.
unsafe fn desc_of(
    d: *const VkalgoMergeSortDesc,
    max_count: u64,
    max_runs: u64,
) -> vkalgo::Result<MergeSortDesc> {
    non_null(d, "desc")?;
    let d = &*d;
    no_extension(d.next, "merge sort desc")?;
    Ok(MergeSortDesc {
        descending: c_bool(d.descending, "merge sort: descending")?,
        max_runs,
        ..MergeSortDesc::new(d.key_type.to_rust()?, d.value_type.to_rust()?, max_count)
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
        let plan = ctx.merge_sort_plan(&desc_of(desc, (*desc).max_count, (*desc).max_runs)?)?;
        super::box_out(out, VkalgoMergeSortPlan { plan })
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
        write_requirements(out, (*plan).plan.memory_requirements())
    })
}

unsafe fn record(
    name: &str,
    plan: *const VkalgoMergeSortPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoMergeSortArgs,
    segmented: bool,
) -> VkalgoResult {
    guard(name, || {
        non_null(plan, "plan")?;
        non_null(args, "args")?;
        let a = &*args;
        no_extension(a.next, "merge sort args")?;
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
            let segmented = SegmentedMergeArgs {
                array: rust,
                offsets: a.offsets.to_rust(),
                runs: a.runs,
            };
            plan.plan.record_segmented(cmd, &segmented)?
        } else {
            plan.plan.record(cmd, &rust)?
        };
        if !a.result_in_alternate.is_null() {
            *a.result_in_alternate = (result == SortResult::Alternate) as u32;
        }
        Ok(())
    })
}

/// Records a stable sort of `args->count` elements (see `vkalgo_merge_record` for the
/// synchronization contract; the plan's context, which the plan keeps alive). Nothing is
/// recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_sort_record(
    plan: *const VkalgoMergeSortPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoMergeSortArgs,
) -> VkalgoResult {
    record("vkalgo_merge_sort_record", plan, command_buffer, args, false)
}

/// Records a stable merge of the `args->runs` sorted runs of the array (run r covers
/// `[offsets[r], offsets[r + 1])`; equal keys keep the order of their runs); other offsets or
/// unsorted runs give an unspecified result inside the buffers. Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_sort_record_segmented(
    plan: *const VkalgoMergeSortPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoMergeSortArgs,
) -> VkalgoResult {
    record(
        "vkalgo_merge_sort_record_segmented",
        plan,
        command_buffer,
        args,
        true,
    )
}

/// Sorts `count` keys (with their values when `desc->value_type` is not `VKALGO_VALUE_NONE`;
/// `values` NULL exactly then) in place with the stable merge sort (blocking). On error the
/// arrays are unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_sort_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoMergeSortDesc,
    keys: *mut c_void,
    values: *mut c_void,
    count: usize,
) -> VkalgoResult {
    guard("vkalgo_merge_sort_host", || {
        let ctx = context_ref(ctx)?;
        let desc = desc_of(desc, count as u64, 0)?;
        host_arrays(&desc, keys, values, |k, v| {
            ctx.merge_sort_host_bytes(&desc, k, v, None)
        })
    })
}

/// Merges the `runs` sorted runs of `count` keys (run r is `[offsets[r], offsets[r + 1])`;
/// `offsets` holds `runs + 1` u32 from 0 to `count`, non-decreasing) into one sorted array in
/// place, stable, with their values as `vkalgo_merge_sort_host` (blocking). Bad offsets or an
/// unsorted run: INVALID_ARGUMENT, nothing written.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_merge_sort_segmented_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoMergeSortDesc,
    keys: *mut c_void,
    values: *mut c_void,
    count: usize,
    offsets: *const u32,
    runs: usize,
) -> VkalgoResult {
    guard("vkalgo_merge_sort_segmented_host", || {
        let ctx = context_ref(ctx)?;
        let desc = desc_of(desc, count as u64, runs as u64)?;
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

/// Runs `body` on copies of the caller's `desc.max_count` keys (the host call's count) and values, written back only
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
