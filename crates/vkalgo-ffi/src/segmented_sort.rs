//! C ABI of the segmented sort: the host call and the record layer.

use super::extensions::segment_length_bound;
use super::sort::{sort_desc, VkalgoSortDesc};
use super::types::*;
use super::{
    byte_len, context_ref, guard, in_place_on_copies, no_extension, non_null, VkalgoContext, VkalgoResult,
};
use std::ffi::c_void;
use vkalgo::segmented_sort::{SEGMENTED_SORT_MAX_COUNT, SEGMENTED_SORT_MAX_SEGMENTS};
use vkalgo::{Error, SegmentedSortArgs, SegmentedSortDesc, SegmentedSortPlan, ValueType};

/// The most elements one segmented sort takes (2^32 - 1; `vkalgo::SEGMENTED_SORT_MAX_COUNT`,
/// checked by a test).
pub const VKALGO_SEGMENTED_SORT_MAX_COUNT: u64 = 4294967295;
/// The most segments one segmented sort takes (2^32 - 2; `vkalgo::SEGMENTED_SORT_MAX_SEGMENTS`,
/// checked by a test).
pub const VKALGO_SEGMENTED_SORT_MAX_SEGMENTS: u64 = 4294967294;

/// What to plan a segmented sort for (the host call takes the sort's `VkalgoSortDesc`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSegmentedSortDesc {
    /// NULL, or a chain of extension structures: `VkalgoSegmentLengthBound`.
    pub next: *const c_void,
    /// The key type (any of the six).
    pub key_type: VkalgoKeyType,
    /// The value type (`VKALGO_VALUE_NONE`: keys only).
    pub value_type: VkalgoValueType,
    /// First order-preserving key bit sorted on (usually 0).
    pub begin_bit: u32,
    /// One past the last bit sorted on; 0: the key's full width.
    pub end_bit: u32,
    /// 0 or 1: 1 sorts each segment largest first, still stable.
    pub descending: u32,
    /// The largest element count a record call sorts (at most VKALGO_SEGMENTED_SORT_MAX_COUNT).
    pub max_count: u64,
    /// The most segments a record call has (at most VKALGO_SEGMENTED_SORT_MAX_SEGMENTS).
    pub max_segments: u64,
}

/// A segmented sort plan (`vkalgo_segmented_sort_plan_create`); it keeps its context alive.
pub struct VkalgoSegmentedSortPlan {
    plan: SegmentedSortPlan,
}

/// The buffers of one recorded segmented sort. The result is always in `keys`/`values`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSegmentedSortArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const c_void,
    /// The keys, sorted in place (offset a multiple of the key size).
    pub keys: VkalgoBufferRange,
    /// The values (buffer VK_NULL_HANDLE exactly when the plan has no value type).
    pub values: VkalgoBufferRange,
    /// `segment_count + 1` u32 segment starts, non-decreasing from 0 to the count (other
    /// offsets: an unspecified order inside the buffers, never an access outside them).
    pub offsets: VkalgoBufferRange,
    /// Scratch as `vkalgo_segmented_sort_plan_memory_requirements` asks.
    pub scratch: VkalgoBufferRange,
    /// Element count when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a u32 at `count_buffer.offset`, read on the GPU (clamped to the plan's
    /// max_count). VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
    /// Segment count when `segment_count_buffer.buffer` is VK_NULL_HANDLE.
    pub segment_count: u64,
    /// Indirect segment count: a u32 read on the GPU (clamped to the plan's max_segments).
    /// VK_NULL_HANDLE: use `segment_count`.
    pub segment_count_buffer: VkalgoBufferRange,
}

unsafe fn plan_desc(d: *const VkalgoSegmentedSortDesc) -> vkalgo::Result<SegmentedSortDesc> {
    non_null(d, "desc")?;
    let d = &*d;
    let bound = segment_length_bound(d.next, "segmented sort desc")?;
    Ok(SegmentedSortDesc {
        max_segment_len: bound,
        begin_bit: d.begin_bit,
        end_bit: d.end_bit,
        descending: c_bool(d.descending, "segmented sort: descending")?,
        ..SegmentedSortDesc::new(
            d.key_type.to_rust()?,
            d.value_type.to_rust()?,
            d.max_count,
            d.max_segments,
        )
    })
}

/// Stable sort within each segment `[segment_offsets[s], segment_offsets[s + 1])`, `s <
/// segment_count`, with the sort's key types, bit range and order (`desc` as for
/// `vkalgo_sort_host`; its path and max_count are ignored), on the GPU (blocking), in place.
/// `segment_offsets` holds `segment_count + 1` non-decreasing offsets, the first 0 and the last
/// `count`; empty segments are allowed. `values` is NULL exactly when `desc->value_type` is
/// `VKALGO_VALUE_NONE`. Errors (INVALID_ARGUMENT, nothing written): NULL keys or values with
/// count > 0, NULL offsets, an unknown enum, a count over VKALGO_SEGMENTED_SORT_MAX_COUNT,
/// malformed offsets, a bad bit range. count 0 is valid.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_segmented_sort_host(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoSortDesc,
    keys: *mut c_void,
    values: *mut c_void,
    count: usize,
    segment_offsets: *const u64,
    segment_count: usize,
) -> VkalgoResult {
    guard("vkalgo_segmented_sort_host", || {
        let ctx = context_ref(ctx)?;
        let sort = sort_desc(desc, count as u64)?;
        non_null(segment_offsets, "segment_offsets")?;
        if count as u64 > SEGMENTED_SORT_MAX_COUNT {
            return Err(Error::invalid(format!(
                "segmented sort: count {count} exceeds {SEGMENTED_SORT_MAX_COUNT}"
            )));
        }
        if segment_count as u64 > SEGMENTED_SORT_MAX_SEGMENTS {
            return Err(Error::invalid(format!(
                "segmented sort: {segment_count} segments exceed {SEGMENTED_SORT_MAX_SEGMENTS}"
            )));
        }
        let has_values = sort.value_type != ValueType::None;
        if has_values && values.is_null() && count > 0 {
            return Err(Error::invalid(
                "segmented sort: values is NULL but a value type is given",
            ));
        }
        if !has_values && !values.is_null() {
            return Err(Error::invalid(
                "segmented sort: values given with VKALGO_VALUE_NONE",
            ));
        }
        if count > 0 {
            non_null(keys, "keys")?;
        }
        byte_len(segment_count + 1, 8, "segment_offsets")?;
        let offsets = std::slice::from_raw_parts(segment_offsets, segment_count + 1);
        let desc = SegmentedSortDesc {
            begin_bit: sort.begin_bit,
            end_bit: sort.end_bit,
            descending: sort.descending,
            ..SegmentedSortDesc::new(sort.key_type, sort.value_type, count as u64, segment_count as u64)
        };
        if count == 0 {
            // Nothing to sort, but the offsets and the bit range are still checked.
            return ctx.segmented_sort_host_bytes(&desc, &mut [], None, offsets);
        }
        in_place_on_copies(
            keys,
            desc.key_type.bytes(),
            values,
            desc.value_type.bytes(),
            count,
            "segmented sort",
            |k, v| ctx.segmented_sort_host_bytes(&desc, k, v, offsets),
        )
    })
}

/// Plans segmented sorts of up to `desc->max_count` elements in up to `desc->max_segments`
/// segments. `*out` is set only on success; destroy it with
/// `vkalgo_segmented_sort_plan_destroy`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_segmented_sort_plan_create(
    ctx: *mut VkalgoContext,
    desc: *const VkalgoSegmentedSortDesc,
    out: *mut *mut VkalgoSegmentedSortPlan,
) -> VkalgoResult {
    guard("vkalgo_segmented_sort_plan_create", || {
        let ctx = context_ref(ctx)?;
        non_null(out, "out")?;
        let plan = ctx.segmented_sort_plan(&plan_desc(desc)?)?;
        super::box_out(out, VkalgoSegmentedSortPlan { plan })
    })
}

/// Destroys a segmented sort plan (NULL: no-op).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_segmented_sort_plan_destroy(plan: *mut VkalgoSegmentedSortPlan) {
    super::destroy_boxed(plan);
}

/// The scratch each `vkalgo_segmented_sort_record` of this plan needs (it holds the merge
/// rounds' alternate keys and values).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_segmented_sort_plan_memory_requirements(
    plan: *const VkalgoSegmentedSortPlan,
    out: *mut VkalgoMemoryRequirements,
) -> VkalgoResult {
    guard("vkalgo_segmented_sort_plan_memory_requirements", || {
        non_null(plan, "plan")?;
        write_requirements(out, (*plan).plan.memory_requirements())
    })
}

/// The plan's small limit: segments of at most this many elements are sorted whole by one
/// workgroup, and a `VkalgoSegmentLengthBound` of at most it records no merge rounds (half the
/// tile: 512 elements with the default tuning on GPUs).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_segmented_sort_plan_small_limit(
    plan: *const VkalgoSegmentedSortPlan,
    out: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_segmented_sort_plan_small_limit", || {
        non_null(plan, "plan")?;
        non_null(out, "out")?;
        *out = (*plan).plan.small_limit();
        Ok(())
    })
}

/// Records the segmented sort into the caller's command buffer (on the plan's context, which
/// the plan keeps alive). Synchronization: writes to the keys, values, offsets and count
/// buffers must be visible to COMPUTE_SHADER (SHADER_READ | SHADER_WRITE for the keys and
/// values); earlier uses of the scratch must be complete before COMPUTE_SHADER; afterwards the
/// sorted keys and values are in `keys`/`values`, written by COMPUTE_SHADER (SHADER_WRITE);
/// the scratch (which needs VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT) is last read by DRAW_INDIRECT
/// (INDIRECT_COMMAND_READ: the merge rounds' dispatch sizes). Nothing is recorded on error.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_segmented_sort_record(
    plan: *const VkalgoSegmentedSortPlan,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSegmentedSortArgs,
) -> VkalgoResult {
    guard("vkalgo_segmented_sort_record", || {
        non_null(plan, "plan")?;
        non_null(args, "args")?;
        let a = &*args;
        no_extension(a.next, "segmented sort args")?;
        let args = SegmentedSortArgs {
            keys: a.keys.to_rust(),
            values: a.values.to_rust_optional(),
            offsets: a.offsets.to_rust(),
            scratch: a.scratch.to_rust(),
            count: element_count(a.count, a.count_buffer),
            segments: element_count(a.segment_count, a.segment_count_buffer),
        };
        (*plan).plan.record(command_buffer.to_vk(), &args)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn constants_match_the_library() {
        assert_eq!(
            super::VKALGO_SEGMENTED_SORT_MAX_COUNT,
            vkalgo::SEGMENTED_SORT_MAX_COUNT
        );
        assert_eq!(
            super::VKALGO_SEGMENTED_SORT_MAX_SEGMENTS,
            vkalgo::SEGMENTED_SORT_MAX_SEGMENTS
        );
        assert_eq!(
            super::super::VKALGO_ALGORITHM_SEGMENTED_SORT,
            vkalgo::Algorithm::SegmentedSort as u32
        );
    }
}
