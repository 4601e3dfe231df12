//! Stable merge of sorted runs by the merge path (co-rank), set operations on sorted arrays,
//! and a segmented merge / stable merge sort built on the same kernels.
//!
//! Keys are any of the radix sort's six key types ([`KeyType`]) in the sort's order (floats in
//! IEEE-754 totalOrder: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN), ascending or
//! descending, optionally with 4- or 8-byte values ([`ValueType`]).
//!
//! - [`MergePlan`]: merges two sorted runs A and B into one. Stable: equal keys keep A's
//!   elements first, each run in its own order. A small partition kernel finds the co-ranks of
//!   every output tile (one search per tile boundary, in global memory: by a cluster of lanes
//!   where boundaries are few, a galloping search within the workgroup's window where they are
//!   many; both start from where the co-rank would be if A and B were drawn from one
//!   distribution) and writes them to a tile table; then each workgroup stages its tile's spans of A
//!   and B in shared memory with coalesced loads, every invocation finds its own co-rank by
//!   binary search in shared memory and merges several outputs, and the tile goes out
//!   coalesced (a merge of keys alone gives each workgroup two consecutive tiles and loads the
//!   second one's keys while the first merges). Small merges
//!   ([`MergePlan::small_limit`]: about 2^20 outputs of keys alone, 2^22 with values) skip the
//!   partition kernel: two subgroups of each workgroup find its tile's co-ranks together, a
//!   few rounds of one probe per lane, so the merge is one dispatch. No workgroup ever waits on
//!   another.
//! - [`SetOpPlan`]: intersection, union, difference and symmetric difference of two sorted
//!   (ascending) runs with std::set_* multiset semantics (a value present ca times in A and cb
//!   times in B appears min(ca, cb), max(ca, cb), max(ca - cb, 0) and |ca - cb| times; see
//!   [`SetOp`]), sorted; the output count goes to a caller buffer. The runs are walked as
//!   std::set_* walks them (a pair of equal keys, one from each run, is one step) on the
//!   balanced path: the partition kernel moves each tile boundary of the merge path so that
//!   no pair is split, and each invocation finds its own start in the staged tile the same
//!   way. After the partition, either one pass in which each tile finds its output offset by
//!   decoupled look-back (two tiles per workgroup, both walked before one look-back; bounded
//!   waits whose fallback walks the silent tile itself: [`SetOpPath::Lookback`], where the
//!   device profile allows inter-workgroup waiting) or
//!   count per tile, scan, walk again and write ([`SetOpPath::CountScanWrite`]: no workgroup
//!   waits on another; CPU drivers).
//! - [`MergeSortPlan`]: merges k sorted runs of one array (given by their offsets) pairwise in
//!   rounds ([`MergeSortPlan::record_segmented`]: ceil(log2 k) rounds), or sorts a whole array
//!   stably ([`MergeSortPlan::record`]): each workgroup sorts a block of
//!   [`MergeSortPlan::tile_size`] elements, then rounds merge runs of 1, 2, 4, ... blocks.
//!   Choosing between it and the radix sort ([`crate::SortPlan`]): both are stable and order
//!   the same key types the same way. The radix sort reads and writes the data a fixed 4
//!   (32-bit keys) or 8 (64-bit keys) times, the merge sort 1 + ceil(log2(n / tile)) times, so
//!   the radix sort is the better choice for whole arrays beyond a few tiles, and the merge
//!   sort for data that is already in k sorted runs (ceil(log2 k) passes: a sorted array plus
//!   a sorted batch of new keys is one merge; docs/tuning/merge.md#merge-sort-or-radix-sort).
//!
//! Counts: each run holds at most 2^32 - 1 elements ([`MAX_RUN`]); the output of a merge of
//! two runs may reach 2^33 - 2 elements and is addressed with 64-bit positions. Set operations
//! take at most 2^32 - 1 elements in A and B together (their output count is a u32); the merge
//! sort at most 2^32 - 1 elements and 2^31 runs.
//!
//! # Synchronization contract of the `record` calls
//! - Before: writes to the inputs (keys, values, offsets) and to indirect counts must be visible
//!   to the `COMPUTE_SHADER` stage (`SHADER_READ`; the merge sort also writes its keys and
//!   values: `SHADER_READ | SHADER_WRITE`); earlier accesses to the outputs, the alternate
//!   buffers and scratch must be complete before `COMPUTE_SHADER` and `TRANSFER` (the set
//!   operations' look-back path clears its scratch; today in its partition pass, the contract
//!   keeps `TRANSFER` free for a fill).
//! - vkalgo records the barriers between its own passes.
//! - After: the outputs (and a set operation's output count) are written by the
//!   `COMPUTE_SHADER` stage (`SHADER_WRITE`); add a barrier from there before reading them.
//!   Scratch holds nothing of use afterwards.
//!
//! [`KeyType`]: crate::sort::KeyType
//! [`ValueType`]: crate::sort::ValueType
//! [`SetOp`]: crate::SetOp

mod host;
mod kernels;
mod merge_plan;
mod merge_sort;
pub mod reference;
mod set_op;
#[cfg(test)]
pub(crate) mod shared_constants;
mod tuning;

pub use host::MergeOptions;
pub use merge_plan::{MergeArgs, MergeDesc, MergePath, MergePlan};
pub use merge_sort::{MergeSortArgs, MergeSortDesc, MergeSortPlan, SegmentedMergeArgs};
pub use set_op::{SetOpArgs, SetOpDesc, SetOpPath, SetOpPlan};
pub use tuning::MergeTuning;

#[cfg(test)]
pub(crate) use kernels::push_layouts;

use crate::core::buffer::BufferRange;
use crate::error::{Error, Result};

/// The most elements one run (and the merge sort's array) may hold.
pub const MAX_RUN: u64 = u32::MAX as u64;
/// Alignment vkalgo asks for scratch ranges.
const ALIGNMENT: u64 = 16;
/// Bytes of one tile-table entry (glsl/merge/merge_common.glsl write_tile).
const TILE_ENTRY_BYTES: u64 = 32;

fn check_max(what: &str, max: u64) -> Result<()> {
    if max > MAX_RUN {
        return Err(Error::invalid(format!(
            "{what} {max} exceeds the largest run {MAX_RUN}"
        )));
    }
    Ok(())
}

/// Refuses overlaps between any of `written` and any other range of `all` (reads may share).
fn check_overlaps(algo: &str, written: &[(&str, BufferRange)], all: &[(&str, BufferRange)]) -> Result<()> {
    for (wn, w) in written {
        for (an, a) in all {
            if wn != an && w.overlaps(a) {
                return Err(Error::invalid(format!(
                    "{algo}: the {wn} and {an} ranges overlap"
                )));
            }
        }
    }
    Ok(())
}
