//! C ABI of the sets' order statistics: minimum, maximum, rank (CRoaring's
//! `roaring_bitmap_rank`) and select, as blocking host calls and on the record layer (the
//! synchronization and argument checks of `set_record`: on an error nothing is recorded or
//! written and the call returns VKALGO_ERROR_INVALID_ARGUMENT or the error that stopped it).

use super::set::{set_ref, slice, slice_mut, VkalgoSet};
use super::set_record::{args_ref, command_buffer};
use super::types::*;
use super::{guard, non_null, VkalgoResult};
use vkalgo::set::{GpuSetMinMaxArgs, GpuSetRankArgs, GpuSetSelectArgs};
use vkalgo::Error;

/// What `vkalgo_set_record_select` writes for a rank at or above the cardinality (and sets
/// its `out_of_range` flag): a value a set may also hold, so read the flag.
pub const VKALGO_SET_SELECT_OUT_OF_RANGE: u32 = 0xFFFF_FFFF;

/// Bytes `vkalgo_set_record_min_max` writes: three uint32_t.
pub const VKALGO_SET_MIN_MAX_BYTES: u32 = 12;

/// The smallest value of the set into `*out`. An empty set: INVALID_ARGUMENT, `*out`
/// unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_minimum(set: *const VkalgoSet, out: *mut u32) -> VkalgoResult {
    guard("vkalgo_set_minimum", || {
        let set = set_ref(set, "set")?;
        non_null(out, "out")?;
        *out = set
            .minimum()?
            .ok_or_else(|| Error::invalid("set minimum: the set is empty"))?;
        Ok(())
    })
}

/// The largest value of the set into `*out`. An empty set: INVALID_ARGUMENT, `*out`
/// unchanged.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_maximum(set: *const VkalgoSet, out: *mut u32) -> VkalgoResult {
    guard("vkalgo_set_maximum", || {
        let set = set_ref(set, "set")?;
        non_null(out, "out")?;
        *out = set
            .maximum()?
            .ok_or_else(|| Error::invalid("set maximum: the set is empty"))?;
        Ok(())
    })
}

/// `ranks_out[i]` = the number of the set's values at or below `values[i]` (CRoaring's
/// `roaring_bitmap_rank`; up to 2^32 for the full set), for `count` values in any order.
/// NULL arrays are allowed only with `count` 0.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_rank_host(
    set: *const VkalgoSet,
    values: *const u32,
    count: usize,
    ranks_out: *mut u64,
) -> VkalgoResult {
    guard("vkalgo_set_rank_host", || {
        let set = set_ref(set, "set")?;
        let values = slice(values, count, "values")?;
        let ranks = slice_mut(ranks_out, count, "ranks_out")?;
        set.rank(values, ranks)
    })
}

/// `values_out[i]` = the set's value of 0-based rank `ranks[i]`, for `count` ranks in any
/// order. A rank at or above the cardinality: INVALID_ARGUMENT, and nothing is written. NULL
/// arrays are allowed only with `count` 0.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_select_host(
    set: *const VkalgoSet,
    ranks: *const u64,
    count: usize,
    values_out: *mut u32,
) -> VkalgoResult {
    guard("vkalgo_set_select_host", || {
        let set = set_ref(set, "set")?;
        let ranks = slice(ranks, count, "ranks")?;
        let values = slice_mut(values_out, count, "values_out")?;
        set.select(ranks, values)
    })
}

/// The values and buffers of `vkalgo_set_record_rank`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetRankArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The values (uint32_t) whose ranks are wanted.
    pub values: VkalgoBufferRange,
    /// Number of values (at most 2^32 - 1) when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a uint32_t at `count_buffer.offset`, read on the GPU, clamped to
    /// `max_count`. VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
    /// The largest indirect count; ignored for a direct count.
    pub max_count: u64,
    /// A uint64_t per value (4-byte aligned offset): the number of the set's values at or
    /// below it.
    pub ranks: VkalgoBufferRange,
    /// The set's scratch (`vkalgo_set_record_requirements`), overlapping neither `values` nor
    /// `ranks`.
    pub scratch: VkalgoBufferRange,
}

/// Records ranks: `ranks[i]` = the number of the set's values at or below `values[i]`.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_rank(
    set: *const VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetRankArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_rank", || {
        let set = set_ref(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set rank args")?;
        let rust = GpuSetRankArgs {
            values: a.values.to_rust(),
            count: element_count(a.count, a.count_buffer),
            max_count: a.max_count,
            ranks: a.ranks.to_rust(),
            scratch: a.scratch.to_rust(),
        };
        set.record_rank(cmd, &rust)
    })
}

/// The ranks and buffers of `vkalgo_set_record_select`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetSelectArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// The 0-based ranks (uint64_t, 4-byte aligned offset).
    pub ranks: VkalgoBufferRange,
    /// Number of ranks (at most 2^32 - 1) when `count_buffer.buffer` is VK_NULL_HANDLE.
    pub count: u64,
    /// Indirect count: a uint32_t at `count_buffer.offset`, read on the GPU, clamped to
    /// `max_count`. VK_NULL_HANDLE: use `count`.
    pub count_buffer: VkalgoBufferRange,
    /// The largest indirect count; ignored for a direct count.
    pub max_count: u64,
    /// A uint32_t per rank: the set's value of that rank, `VKALGO_SET_SELECT_OUT_OF_RANGE`
    /// for a rank at or above the cardinality.
    pub values: VkalgoBufferRange,
    /// A uint32_t: 0 when every rank was below the cardinality, 1 when any was not (zeroed by
    /// the recorded work first).
    pub out_of_range: VkalgoBufferRange,
    /// The set's scratch (`vkalgo_set_record_requirements`), overlapping no other range.
    pub scratch: VkalgoBufferRange,
}

/// Records select: `values[i]` = the set's value of 0-based rank `ranks[i]`. A rank cannot be
/// refused at record time: one at or above the cardinality writes
/// `VKALGO_SET_SELECT_OUT_OF_RANGE` for that query and sets `*out_of_range` to 1.
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_select(
    set: *const VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetSelectArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_select", || {
        let set = set_ref(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set select args")?;
        let rust = GpuSetSelectArgs {
            ranks: a.ranks.to_rust(),
            count: element_count(a.count, a.count_buffer),
            max_count: a.max_count,
            values: a.values.to_rust(),
            out_of_range: a.out_of_range.to_rust(),
            scratch: a.scratch.to_rust(),
        };
        set.record_select(cmd, &rust)
    })
}

/// The output of `vkalgo_set_record_min_max`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VkalgoSetMinMaxArgs {
    /// Reserved for extension structs: set it to NULL.
    pub next: *const std::ffi::c_void,
    /// `VKALGO_SET_MIN_MAX_BYTES` (4-byte aligned offset) receiving three uint32_t: the
    /// smallest value, the largest value, and 1; 0, 0 and 0 for an empty set.
    pub out: VkalgoBufferRange,
}

/// Records the minimum and the maximum of the set into `args->out` (no scratch).
#[no_mangle]
pub unsafe extern "C" fn vkalgo_set_record_min_max(
    set: *const VkalgoSet,
    command_buffer: VkCommandBuffer,
    args: *const VkalgoSetMinMaxArgs,
) -> VkalgoResult {
    guard("vkalgo_set_record_min_max", || {
        let set = set_ref(set, "set")?;
        let cmd = self::command_buffer(command_buffer)?;
        let a = args_ref(args, |a| a.next, "set min_max args")?;
        set.record_min_max(cmd, &GpuSetMinMaxArgs { out: a.out.to_rust() })
    })
}
