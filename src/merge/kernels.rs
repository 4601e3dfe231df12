//! The merge kernels' interface: push constants, partition modes, the shader lookup, the
//! specializations every plan builds its pipelines from, dispatch geometry, and the
//! sortedness check the host layer records.

use super::tuning::{fold_set_op, partition_workgroup, setop_lookback_tiles, tiles_per_group, MergeTuning};
use crate::core::buffer::{BufferRange, ElementCount};
use crate::core::pipelines::Specialization;
use crate::core::shaders::{self, KeyBits, MergeKernel, ShaderSource, ValueWords};
use crate::core::spirv::push_constants;
use crate::error::{Error, Result};
use crate::sort::{KeyType, ValueType};
use crate::{Context, SetOp};
use ash::vk;

// Partition modes (glsl/merge/merge_common.glsl MODE_*).
pub(super) const MODE_TWO: u32 = 0;
pub(super) const MODE_UNIFORM: u32 = 1;
pub(super) const MODE_OFFSETS: u32 = 2;
pub(super) const MODE_COUNT_TILES: u32 = 3;
pub(super) const MODE_TWO_BALANCED: u32 = 4;

push_constants! {
    /// Push constants of every merge kernel (glsl/merge/merge_common.glsl, block `MergePush`).
    pub(crate) struct MergePush {
        pub(super) a_keys: u64,
        pub(super) b_keys: u64,
        pub(super) out_keys: u64,
        pub(super) a_values: u64,
        pub(super) b_values: u64,
        pub(super) out_values: u64,
        pub(super) tiles_addr: u64,
        pub(super) a_count_addr: u64,
        pub(super) b_count_addr: u64,
        pub(super) aux_addr: u64,
        pub(super) aux2_addr: u64,
        pub(super) a_count: u32,
        pub(super) b_count: u32,
        pub(super) a_max: u32,
        pub(super) b_max: u32,
        pub(super) mode: u32,
        pub(super) width: u32,
        pub(super) runs: u32,
        pub(super) max_tiles: u32,
        pub(super) lanes: u32,
        /// Padding to a multiple of 8 bytes.
        pub(super) reserved: u32,
    }
}

/// The merge family's `kernel` for `key_type` keys and `value_type` values (the partition,
/// check and set-operation kernels read keys alone: `ValueType::None`).
pub(super) fn shader(
    kernel: MergeKernel,
    key_type: KeyType,
    value_type: ValueType,
) -> Result<&'static ShaderSource> {
    shaders::merge(kernel, KeyBits::of(key_type), ValueWords::of(value_type)).ok_or_else(|| {
        Error::Internal(format!(
            "merge: no shader {kernel:?} for {key_type:?} keys and {value_type:?} values"
        ))
    })
}

/// Every merge shader (the permutations of the generated shader table).
#[cfg(test)]
fn merge_shaders() -> impl Iterator<Item = &'static ShaderSource> {
    shaders::ALL_SHADERS
        .iter()
        .filter(|s| s.name.starts_with("merge_"))
}

/// Every merge shader with its push-constant layout (checked against the SPIR-V by a test).
#[cfg(test)]
pub(crate) fn push_layouts() -> Vec<crate::core::spirv::PushCheck> {
    use crate::core::spirv::PushLayout;
    merge_shaders()
        .map(|s| (*s, MergePush::FIELDS, std::mem::size_of::<MergePush>()))
        .collect()
}

/// The device address of an optional range (0: none).
pub(super) fn addr(ctx: &Context, range: Option<BufferRange>) -> u64 {
    range.map_or(0, |r| ctx.address_of(&r))
}

/// The address of an indirect count (0: a direct count, passed in the push constants).
pub(super) fn count_addr(ctx: &Context, count: &ElementCount) -> u64 {
    match count {
        ElementCount::Direct(_) => 0,
        ElementCount::Indirect(range) => ctx.address_of(range),
    }
}

/// KEY_ORDER's bits 0-2: the key kind (0 unsigned, 1 signed, 2 float) and descending.
fn key_order(key_type: KeyType, descending: bool) -> u32 {
    let kind = match key_type {
        KeyType::U32 | KeyType::U64 => 0,
        KeyType::I32 | KeyType::I64 => 1,
        KeyType::F32 | KeyType::F64 => 2,
    };
    kind | ((descending as u32) << 2)
}

/// The specialization constants of the merge's and the set operations' kernels
/// (glsl/merge/merge_common.glsl).
#[derive(Clone, Copy)]
pub(super) struct MergeSpec {
    /// Invocations per workgroup (constant_id 0).
    pub(super) workgroup_size: u32,
    /// Items per invocation per tile (ITEMS, constant_id 1).
    pub(super) items_per_thread: u32,
    /// Polls of a silent predecessor in the set operations' look-back before the waiter walks
    /// that tile itself (SPIN_LIMIT, constant_id 2; 0 is the test mode that always does).
    pub(super) lookback_spins: u32,
    /// Consecutive tiles one workgroup merges or walks (TILES_PER_GROUP, constant_id 5).
    pub(super) tiles_per_group: u32,
    /// Key kind (0 unsigned, 1 signed, 2 float) | 4 for descending (KEY_ORDER bits 0-2,
    /// constant_id 6).
    pub(super) key_order: u32,
    /// The set operation folded into the pipeline as op + 1 (KEY_ORDER bits 3-5); 0: the
    /// kernel reads it from the push constants.
    pub(super) set_op: u32,
}

impl From<MergeSpec> for Specialization {
    fn from(spec: MergeSpec) -> Self {
        Specialization {
            workgroup_size: spec.workgroup_size,
            id1: spec.items_per_thread,
            id2: spec.lookback_spins,
            id5: spec.tiles_per_group,
            id6: spec.key_order | (spec.set_op << 3),
            id8: 0,
        }
    }
}

/// The specialization of a plan's kernels: the tuning's tile, the key order.
pub(super) fn specialization(tuning: &MergeTuning, key_type: KeyType, descending: bool) -> MergeSpec {
    MergeSpec {
        workgroup_size: tuning.workgroup_size,
        items_per_thread: tuning.items_per_thread,
        lookback_spins: 1,
        tiles_per_group: 1,
        key_order: key_order(key_type, descending),
        set_op: 0,
    }
}

/// The merge kernel's specialization: the plan's, with its tiles per workgroup.
pub(super) fn merge_spec(spec: MergeSpec, value_type: ValueType) -> MergeSpec {
    MergeSpec {
        tiles_per_group: tiles_per_group(value_type),
        ..spec
    }
}

/// Workgroups of the merge kernel for `tiles` tiles.
pub(super) fn merge_groups(tiles: u64, value_type: ValueType) -> Result<u32> {
    groups(tiles, tiles_per_group(value_type) as u64)
}

/// The look-back set operation's specialization: the plan's, with its tiles per workgroup.
pub(super) fn setop_lookback_spec(spec: MergeSpec) -> MergeSpec {
    MergeSpec {
        tiles_per_group: setop_lookback_tiles(),
        ..spec
    }
}

/// A set operation kernel's specialization (setop_count, setop_write, setop_lookback): the
/// plan's, with the operation folded into the pipeline where the tuning says so
/// (glsl/merge/setop.comp `set_op`), else read from the push constants.
pub(super) fn setop_spec(ctx: &Context, spec: MergeSpec, key_type: KeyType, op: SetOp) -> MergeSpec {
    if !fold_set_op(ctx.device_class(), key_type) {
        return spec;
    }
    MergeSpec {
        set_op: op as u32 + 1,
        ..spec
    }
}

/// The partition kernel's specialization in the two-run modes: the partition's workgroup
/// (or the tuning's workgroup size where smaller), and as many items per invocation as keep
/// its tile (workgroup size x items) the merge's.
pub(super) fn partition_spec(spec: MergeSpec, tuning: &MergeTuning) -> MergeSpec {
    let workgroup_size = partition_workgroup(tuning);
    MergeSpec {
        workgroup_size,
        items_per_thread: (tuning.tile() / workgroup_size as u64) as u32,
        ..spec
    }
}

/// Workgroups of the partition kernel in the two-run modes: each workgroup searches
/// `workgroup_size / lanes` tile boundaries and writes the entries of the tiles between them
/// (glsl/merge/partition.comp).
pub(super) fn two_run_partition_groups(tiles: u64, tuning: &MergeTuning, lanes: u32) -> Result<u32> {
    let boundaries = (partition_workgroup(tuning) / lanes) as u64;
    groups(tiles, boundaries - 1)
}

/// Workgroups for `items` items at `per_group` items per workgroup (u32: the dispatch splits
/// larger grids over y).
pub(super) fn groups(items: u64, per_group: u64) -> Result<u32> {
    u32::try_from(items.div_ceil(per_group)).map_err(|_| Error::invalid("merge: too many workgroups"))
}

/// Records the sortedness check of the host layer (glsl/merge/check.comp) for runs of at most
/// `longest` elements: sets the u32 at `flags` (cleared by the caller) when A is not sorted in
/// the plan's order, the u32 after it when B is not.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn record_check(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    tuning: &MergeTuning,
    key_type: KeyType,
    descending: bool,
    mut push: MergePush,
    longest: u64,
    flags: &BufferRange,
) -> Result<()> {
    if longest < 2 {
        return Ok(());
    }
    flags.check(ctx, "merge check flags", 8, 4)?;
    let kernel = ctx.kernel(
        shader(MergeKernel::Check, key_type, ValueType::None)?,
        specialization(tuning, key_type, descending),
    )?;
    push.aux_addr = ctx.address_of(flags);
    ctx.dispatch(cmd, kernel, &push, groups(longest, tuning.tile())?);
    Ok(())
}
