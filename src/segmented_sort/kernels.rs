//! The segmented sort kernels' interface: push constants, pass codes, the shader lookup, the
//! specialization and dispatch geometry.

use super::SegmentedSortTuning;
use crate::core::pipelines::Specialization;
use crate::core::shaders::{self, KeyBits, SegmentedSortKernel, ShaderSource, ValueWords};
use crate::core::spirv::push_constants;
use crate::error::{Error, Result};
use crate::sort::{KeyType, ValueType};

/// Partition pass: the tiles of each pair's merge in every round (glsl/segmented_sort/partition.comp).
pub(super) const PASS_COUNT: u32 = 0;
/// Partition pass: the tile table of one round.
pub(super) const PASS_PARTITION: u32 = 1;
/// Partition pass (before the block pass): the segment of every small-limit-th position.
pub(super) const PASS_SEGMENT_TABLE: u32 = 2;
/// Partition pass (after the scan of the round counts): each round's dispatch size.
pub(super) const PASS_ROUND_ARGS: u32 = 3;
/// Partition pass (after the tiny kernel): the block pass's dispatch size from the longest
/// segment the tiny kernel left.
pub(super) const PASS_BLOCK_ARGS: u32 = 4;
/// Tiny kernel in an unbounded plan (its only `pass`): it records the longest segment it
/// leaves in the segment table's tail.
pub(super) const PASS_TINY_FIRST: u32 = 5;
/// Bytes after the segment table's entries (from the next 16 bytes): the longest segment the
/// tiny kernel left (u32), then at 16 the block pass's `VkDispatchIndirectCommand`
/// (glsl/segmented_sort/segsort_common.glsl table_tail).
pub(super) const TABLE_TAIL_BYTES: u64 = 32;
/// Bytes of one round's `VkDispatchIndirectCommand` in the scratch (12 used), after the
/// scanned round counts (glsl/segmented_sort/partition.comp round_args).
pub(super) const ROUND_ARGS_BYTES: u64 = 16;
/// The longest segment the tiny kernel sorts (glsl/segmented_sort/tiny.comp): a plan bounded
/// to it records that kernel alone.
pub(crate) const TINY_LIMIT: u64 = 64;
/// The tag of padding and of positions a workgroup does not own (sorts after every segment).
pub(super) const NO_TAG: u32 = 0xFFFF;
/// Bytes of one tile-table entry (glsl/segmented_sort/segsort_common.glsl write_tile).
pub(super) const TILE_ENTRY_BYTES: u64 = 32;

push_constants! {
    /// Push constants of every segmented sort kernel (glsl/segmented_sort/segsort_common.glsl,
    /// block `SegmentedSortPush`).
    pub(crate) struct SegmentedSortPush {
        pub(super) keys: u64,
        pub(super) values: u64,
        pub(super) keys_alt: u64,
        pub(super) values_alt: u64,
        pub(super) offsets: u64,
        pub(super) tiles: u64,
        pub(super) starts: u64,
        pub(super) count_addr: u64,
        pub(super) segments_addr: u64,
        pub(super) key_mask: u64,
        pub(super) segment_table: u64,
        pub(super) count: u32,
        pub(super) max_count: u32,
        pub(super) segments: u32,
        pub(super) max_segments: u32,
        pub(super) width: u32,
        pub(super) max_tiles: u32,
        pub(super) pairs: u32,
        pub(super) round_base: u32,
        pub(super) layout_count: u32,
        pub(super) pass: u32,
    }
}

/// The segmented sort's `kernel` for `key_type` keys and `value_type` values (the partition
/// reads keys alone: `ValueType::None`).
pub(super) fn shader(
    kernel: SegmentedSortKernel,
    key_type: KeyType,
    value_type: ValueType,
) -> Result<&'static ShaderSource> {
    let values = if kernel == SegmentedSortKernel::Partition {
        ValueType::None
    } else {
        value_type
    };
    shaders::segmented_sort(kernel, KeyBits::of(key_type), ValueWords::of(values)).ok_or_else(|| {
        Error::Internal(format!(
            "segmented sort: no shader {kernel:?} for {key_type:?} keys and {values:?} values"
        ))
    })
}

/// Every segmented sort shader with its push-constant layout (checked against the SPIR-V by a
/// test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    shaders::ALL_SHADERS
        .iter()
        .filter(|s| s.name.starts_with("segmented_sort_"))
        .map(|s| {
            (
                *s,
                SegmentedSortPush::FIELDS,
                std::mem::size_of::<SegmentedSortPush>(),
            )
        })
        .collect()
}

/// KEY_ORDER (constant_id 6): the key kind (0 unsigned, 1 signed, 2 float) | 4 for descending.
fn key_order(key_type: KeyType, descending: bool) -> u32 {
    let kind = match key_type {
        KeyType::U32 | KeyType::U64 => 0,
        KeyType::I32 | KeyType::I64 => 1,
        KeyType::F32 | KeyType::F64 => 2,
    };
    kind | ((descending as u32) << 2)
}

/// The specialization of every kernel of a plan: the tile, the key order.
pub(super) fn specialization(
    tuning: &SegmentedSortTuning,
    key_type: KeyType,
    descending: bool,
) -> Specialization {
    Specialization {
        workgroup_size: tuning.workgroup_size,
        id1: tuning.items_per_invocation,
        id2: 1,
        id5: 1,
        id6: key_order(key_type, descending),
        id8: 0,
    }
}

/// The bit range `[begin_bit, end_bit)` of the order-preserving bits as a mask.
pub(super) fn key_mask(begin_bit: u32, end_bit: u32) -> u64 {
    let high = if end_bit >= 64 {
        u64::MAX
    } else {
        (1u64 << end_bit) - 1
    };
    high & !((1u64 << begin_bit) - 1)
}

/// Workgroups for `items` items at `per_group` items per workgroup.
pub(super) fn groups(items: u64, per_group: u64) -> Result<u32> {
    u32::try_from(items.div_ceil(per_group))
        .map_err(|_| Error::invalid("segmented sort: too many workgroups"))
}
