//! Segmented sort: a stable sort within each segment `[offsets[s], offsets[s + 1])` of one
//! array, with the radix sort's key types ([`KeyType`]), bit range and order (floats in
//! IEEE-754 totalOrder; descending still stable), optionally moving 4- or 8-byte values
//! ([`ValueType`]).
//!
//! ```
//! use vkalgo::Context;
//! let ctx = Context::new()?;
//! let mut keys = [3u32, 1, 2, 9, 7, 5, 4];
//! ctx.segmented_sort(&mut keys, &[0, 3, 3, 7])?;
//! assert_eq!(keys, [1, 2, 3, 4, 5, 7, 9]);
//! # Ok::<(), vkalgo::Error>(())
//! ```
//!
//! # Method
//! The record layer cannot read the segment sizes, so every decision is made on the GPU, by
//! position: the segment of position `p` is the last `s` with `offsets[s] <= p` (a binary
//! search of the offsets), and a segment is small when it holds at most
//! [`SegmentedSortPlan::small_limit`] elements (half a tile). A first pass writes the segment
//! of every `small_limit`-th position (a segment table), so that later searches are short.
//! - First the tiny kernel (glsl/segmented_sort/tiny.comp, below) sorts every segment of at
//!   most 64 elements, a subgroup each, and notes the longest segment it leaves. A one-workgroup
//!   pass sizes the block pass from that (an indirect dispatch): no workgroups where every
//!   segment was tiny, only its small parts where none is large.
//! - One dispatch (glsl/segmented_sort/block.comp) sorts every other small segment whole and
//!   every large one within each aligned block of a tile: workgroup w of the first part owns
//!   the small segments of more than 64 elements that start in its `small_limit` positions (so
//!   they end within a tile of its first position), a workgroup of the second part the large
//!   segments' positions of one block. Each stages its range's segment starts in shared memory
//!   (a small part whose segments are all tiny is done there), loads the positions it owns,
//!   tags each key with the start of its segment, sorts the tile by (tag, key) with the merge
//!   sort's block merge sort (glsl/common/block_merge_sort.glsl) and writes every segment back,
//!   sorted, to its own positions. Many tiny segments cost the tiny kernel (and the merge
//!   rounds' dispatches, which then launch no workgroups).
//! - Merge rounds then finish the large segments, at full device width however few they are:
//!   round r merges the halves of every aligned block of `2^r` tiles. Only a segment holding
//!   both the last position of a block's first half and the first of its second half spans
//!   both halves (segments are ranges of positions, and each is already sorted within each
//!   half), so each pair of halves has at most one merge: that segment's part in the first
//!   half with its part in the second. Which pairs merge depends on the offsets alone, so one
//!   pass counts the tiles of every pair's merge in every round and one scan places them; each
//!   round then writes its tiles' co-ranks (the merge path, as in
//!   [`MergePlan`](crate::MergePlan)), merges them into the alternate buffers and copies them
//!   back: three dispatches, each a grid stride over the round's tiles, sized on the GPU
//!   (indirect dispatches: at most the tuning's merge workgroups, none for a round with no
//!   merge). `ceil(log2(count / tile))` rounds are recorded (the plan's maximum with an
//!   indirect count).
//! - A plan told that no segment is longer than its small limit
//!   ([`SegmentedSortDesc::max_segment_len`]: an engine's tiles of at most 64 primitives, say)
//!   records the tiny kernel and the block pass's small parts alone: no merge rounds, no large
//!   parts. Bounded to 64 elements, it records the tiny kernel alone. The tiny kernel's
//!   subgroups stride over the segments, each lane holding its elements in registers and
//!   counting their ranks over the segment's staged rank words. The host calls find the
//!   longest segment in the offsets they check and plan with it.
//!
//! Why merging rather than a radix sort of the large segments: a radix sort needs each
//! segment's digit histograms and a workgroup per segment or a segment id per key; the merge
//! rounds need neither, reuse the merge path, and keep every workgroup busy whether the array
//! holds one huge segment or thousands of large ones. No workgroup ever waits on another
//! (there is no spin wait at all), so the one path is safe on every device.
//!
//! # Offsets and counts
//! The offsets are `segments + 1` u32 in a GPU buffer (the host calls take u64 and check them),
//! non-decreasing from 0 to the count; empty segments are allowed. u32 offsets suffice because
//! a plan sorts at most [`SEGMENTED_SORT_MAX_COUNT`] = 2^32 - 1 elements. The record layer does
//! not check offsets it cannot read: others give an unspecified order inside the buffers, never
//! an access outside them. The element count and the segment count may each be indirect (a u32
//! in a GPU buffer, clamped to the plan's maximum).
//!
//! # Synchronization contract (record layer)
//! - Before: writes to the keys, values, offsets and indirect counts must be visible to the
//!   `COMPUTE_SHADER` stage (`SHADER_READ | SHADER_WRITE` for the keys and values); earlier
//!   accesses to the scratch must be complete before `COMPUTE_SHADER`.
//! - vkalgo records the barriers between its own passes (compute to compute).
//! - After: the sorted keys and values are in `keys` and `values` (always: the result never
//!   ends in the scratch), written by the `COMPUTE_SHADER` stage (`SHADER_WRITE`); add a
//!   barrier from there before reading them. Scratch holds nothing of use afterwards; its last
//!   reads are the merge rounds' dispatch sizes (`DRAW_INDIRECT` stage,
//!   `INDIRECT_COMMAND_READ`), so a later write of it waits on that stage too.

mod host;
mod kernels;
mod plan;
pub mod reference;
#[cfg(test)]
pub(crate) mod shared_constants;
mod tuning;

pub use host::SegmentedSortOptions;
#[cfg(test)]
pub(crate) use kernels::push_layouts;
pub use plan::SegmentedSortPlan;

use crate::core::buffer::{BufferRange, ElementCount};
use crate::sort::{KeyType, ValueType};

/// The most elements a segmented sort takes: 2^32 - 1 (u32 positions and offsets).
pub const SEGMENTED_SORT_MAX_COUNT: u64 = u32::MAX as u64;
/// The most segments a segmented sort takes: 2^32 - 2 (so that `segments + 1` offsets are u32
/// indices).
pub const SEGMENTED_SORT_MAX_SEGMENTS: u64 = u32::MAX as u64 - 1;

/// What to plan a segmented sort for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentedSortDesc {
    /// Key type.
    pub key_type: KeyType,
    /// Payload type ([`ValueType::None`]: keys only).
    pub value_type: ValueType,
    /// The largest element count any call sorts (at most [`SEGMENTED_SORT_MAX_COUNT`]).
    pub max_count: u64,
    /// The most segments any call has (at most [`SEGMENTED_SORT_MAX_SEGMENTS`]).
    pub max_segments: u64,
    /// First order-preserving key bit sorted on (usually 0).
    pub begin_bit: u32,
    /// One past the last bit sorted on; 0 means the key's full width.
    pub end_bit: u32,
    /// The longest segment any call has, where the caller knows a bound (`None`: up to
    /// `max_count`). A bound of at most [`SegmentedSortPlan::small_limit`] records the sort in
    /// two dispatches instead of the block pass and the merge rounds; a longer segment than the
    /// bound is then left in an unspecified order (never an access outside the buffers).
    pub max_segment_len: Option<u64>,
    /// Largest key first (still stable).
    pub descending: bool,
    /// Kernel tuning (`None`: [`SegmentedSortTuning::for_device`]).
    pub tuning: Option<SegmentedSortTuning>,
}

impl SegmentedSortDesc {
    /// An ascending full-width segmented sort of up to `max_count` elements in up to
    /// `max_segments` segments.
    pub fn new(key_type: KeyType, value_type: ValueType, max_count: u64, max_segments: u64) -> Self {
        SegmentedSortDesc {
            key_type,
            value_type,
            max_count,
            max_segments,
            begin_bit: 0,
            end_bit: 0,
            descending: false,
            max_segment_len: None,
            tuning: None,
        }
    }
}

/// The buffers of one recorded segmented sort. The result is always in `keys`/`values`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentedSortArgs {
    /// The keys, sorted in place (offset a multiple of the key size).
    pub keys: BufferRange,
    /// The values (`None` exactly when the plan's value type is [`ValueType::None`]).
    pub values: Option<BufferRange>,
    /// `segments + 1` u32 segment starts, non-decreasing from 0 to the count.
    pub offsets: BufferRange,
    /// Scratch as [`SegmentedSortPlan::memory_requirements`] asks (it holds the alternate
    /// keys and values of the merge rounds, and their dispatch sizes: the buffer needs
    /// `INDIRECT_BUFFER` usage, part of [`crate::BUFFER_USAGE`]).
    pub scratch: BufferRange,
    /// How many elements to sort.
    pub count: ElementCount,
    /// How many segments (an indirect count is clamped to the plan's `max_segments`).
    pub segments: ElementCount,
}

/// Tuning of the segmented sort's kernels: a tile is `workgroup_size * items_per_invocation`
/// elements; segments of at most half a tile are sorted whole by one workgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SegmentedSortTuning {
    /// Invocations per workgroup: a power of two from 32 to the device's limit (at most 1024).
    pub workgroup_size: u32,
    /// Elements each invocation holds per tile (1..=32; a tile holds at most 2^15 elements).
    pub items_per_invocation: u32,
    /// The most workgroups of a merge round's kernels (1..=65535): they take the round's
    /// tiles by a grid stride, so a round with few merges costs few workgroups.
    pub merge_workgroups: u32,
}

impl SegmentedSortTuning {
    /// The tuning vkalgo uses on this device (`src/segmented_sort/tuning.rs`).
    pub fn for_device(ctx: &crate::Context) -> Self {
        tuning::default_tuning(ctx.device_class())
    }

    fn tile(&self) -> u64 {
        self.workgroup_size as u64 * self.items_per_invocation as u64
    }
}
