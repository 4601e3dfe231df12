//! The merge family's tuning tables (merge, set operations, merge sort): tile shapes, the fused
//! merge's reach, tiles per workgroup, the partition's searches, the set operations' path,
//! folding and look-back wait. The evidence behind each row is in `docs/tuning/merge.md`,
//! under the row's anchor.

use crate::core::tuning::{first_row, DeviceClass, Devices, TuningRow};
use crate::error::{Error, Result};
use crate::sort::{KeyType, ValueType};
use crate::Context;

/// Tuning of the merge kernels: a tile is `workgroup_size * items_per_thread` outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MergeTuning {
    /// Invocations per workgroup: a power of two from 32 to the device's limit.
    pub workgroup_size: u32,
    /// Outputs each invocation merges per tile (1..=32). Odd counts keep the invocations'
    /// shared-memory writes (stride `items_per_thread`) free of bank conflicts.
    pub items_per_thread: u32,
    /// Set operations on the look-back path: polls of a silent predecessor before walking its
    /// tile instead (0: the device's default; 1 takes the fallback nearly always). `u32::MAX`
    /// is a test mode: every tile walks its nearest predecessor's tile itself, so the fallback
    /// runs for every tile after the first whatever the schedule.
    pub lookback_spins: u32,
}

/// The plans a tile row is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plans {
    /// Every plan: [`MergeTuning::for_device`] (the merge sort, and the others' default).
    Every,
    /// Merges of two runs ([`MergeTuning::for_merge`]).
    Merge,
    /// Set operations ([`MergeTuning::for_set_op`]).
    SetOp,
}

/// Where a tile row applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TileWhen {
    /// The plans.
    pub plans: Plans,
    /// Bytes of a key (0: any).
    pub key_bytes: u64,
    /// The most bytes of a value (0: keys alone).
    pub max_value_bytes: u64,
    /// The fewest invocations per workgroup the device must allow.
    pub min_invocations: u32,
}

/// A tile shape: `items_per_thread` outputs for each of at most `workgroup_size` invocations
/// (the largest power of two, from 32, that the device allows up to it; every Vulkan device
/// allows 128).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TileShape {
    pub workgroup_size: u32,
    pub items_per_thread: u32,
}

const ANY: u64 = u64::MAX;

const fn when(plans: Plans, key_bytes: u64, max_value_bytes: u64, min_invocations: u32) -> TileWhen {
    TileWhen {
        plans,
        key_bytes,
        max_value_bytes,
        min_invocations,
    }
}

const fn tile(
    devices: Devices,
    when: TileWhen,
    (workgroup_size, items_per_thread): (u32, u32),
    why: &'static str,
    anchor: &'static str,
) -> TuningRow<TileWhen, TileShape> {
    TuningRow {
        devices,
        when,
        choice: TileShape {
            workgroup_size,
            items_per_thread,
        },
        why,
        anchor,
    }
}

/// Tile shapes; the first row that fits wins (devices, when(plans, key bytes, most value
/// bytes, fewest invocations the device allows), (workgroup, items)).
#[rustfmt::skip]
pub(crate) const TILES: &[TuningRow<TileWhen, TileShape>] = &[
    tile(Devices::Nvidia, when(Plans::Merge, 4, 4, 512), (512, 7), "fastest tile for u32 keys and u32 pairs", "merge-512x7"),
    tile(Devices::OtherGpu, when(Plans::Merge, 4, 4, 512), (512, 7), "NVIDIA's choice, not measured here", "merge-512x7"),
    tile(Devices::Nvidia, when(Plans::SetOp, 4, 0, 256), (256, 15), "fastest set-operation tile, three workgroups in 48 KiB", "set-op-256x15"),
    tile(Devices::OtherGpu, when(Plans::SetOp, 4, 0, 256), (256, 15), "NVIDIA's choice, not measured here", "set-op-256x15"),
    tile(Devices::Nvidia, when(Plans::Every, 4, ANY, 0), (256, 11), "11 KiB of keys: several workgroups in 48 KiB", "tile-4-byte-keys"),
    tile(Devices::OtherGpu, when(Plans::Every, 4, ANY, 0), (256, 11), "NVIDIA's choice, not measured here", "tile-4-byte-keys"),
    tile(Devices::Nvidia, when(Plans::Every, 8, ANY, 0), (256, 7), "14 KiB of keys: several workgroups in 48 KiB", "tile-8-byte-keys"),
    tile(Devices::OtherGpu, when(Plans::Every, 8, ANY, 0), (256, 7), "NVIDIA's choice, not measured here", "tile-8-byte-keys"),
    tile(Devices::Cpu, when(Plans::Every, 0, ANY, 0), (64, 7), "small workgroups for CPU drivers' tests", "cpu-tiles"),
];

/// The tile of the first row of [`TILES`] for `plans` (or every plan) that fits.
fn tile_for(
    class: DeviceClass,
    max_invocations: u32,
    plans: Plans,
    key_type: KeyType,
    value_type: ValueType,
) -> MergeTuning {
    let row = first_row(TILES, class, |w| {
        (w.plans == Plans::Every || w.plans == plans)
            && (w.key_bytes == 0 || w.key_bytes == key_type.bytes())
            && value_type.bytes() <= w.max_value_bytes
            && max_invocations >= w.min_invocations
    })
    .expect("the merge tile table has a row for every device and key type");
    let limit = max_invocations.clamp(32, row.choice.workgroup_size);
    MergeTuning {
        workgroup_size: 1 << (31 - limit.leading_zeros()), // largest power of two <= limit
        items_per_thread: row.choice.items_per_thread,
        lookback_spins: 0,
    }
}

impl MergeTuning {
    /// The tuning vkalgo uses on this device for `key_type` keys (the merge sort's, and the
    /// other plans' default).
    ///
    /// GPUs: 256 invocations x 11 outputs for 4-byte keys, x 7 for 8-byte keys (tiles of 11
    /// and 14 KiB of keys, the merge kernel's only shared memory, so that several workgroups
    /// share a multiprocessor's ~48 KiB under NVIDIA's Vulkan driver; odd counts avoid
    /// shared-memory bank conflicts, as ModernGPU's merge tunings do). CPU drivers: 64 x 7.
    pub fn for_device(ctx: &Context, key_type: KeyType) -> Self {
        let limit = ctx.profile.max_workgroup_invocations;
        tile_for(ctx.device_class(), limit, Plans::Every, key_type, ValueType::None)
    }

    /// The tuning of the two-run merge ([`Context::merge_plan`]): [`MergeTuning::for_device`],
    /// except 4-byte keys alone or with 4-byte values on GPUs that allow 512 invocations:
    /// 512 x 7.
    pub fn for_merge(ctx: &Context, key_type: KeyType, value_type: ValueType) -> Self {
        let limit = ctx.profile.max_workgroup_invocations;
        tile_for(ctx.device_class(), limit, Plans::Merge, key_type, value_type)
    }

    /// The tuning of the set operations ([`Context::set_op_plan`]): [`MergeTuning::for_device`],
    /// except 4-byte keys on GPUs that allow 256 invocations: 256 x 15 (tiles of 15 KiB, three
    /// workgroups in 48 KiB).
    pub fn for_set_op(ctx: &Context, key_type: KeyType) -> Self {
        let limit = ctx.profile.max_workgroup_invocations;
        tile_for(ctx.device_class(), limit, Plans::SetOp, key_type, ValueType::None)
    }

    pub(super) fn tile(&self) -> u64 {
        self.workgroup_size as u64 * self.items_per_thread as u64
    }

    /// Refuses a tuning the device cannot run.
    pub(super) fn check(&self, ctx: &Context, key_type: KeyType, value_type: ValueType) -> Result<()> {
        let wg = self.workgroup_size;
        if !wg.is_power_of_two() || wg < 32 || wg > ctx.profile.max_workgroup_invocations.min(1024) {
            return Err(Error::invalid(format!(
                "merge: workgroup size {wg} is not a power of two in 32..=device limit"
            )));
        }
        if !(1..=32).contains(&self.items_per_thread) {
            return Err(Error::invalid(format!(
                "merge: items_per_thread {} not in 1..=32",
                self.items_per_thread
            )));
        }
        let shared = shared_bytes(self, key_type, value_type);
        let max = ctx.profile.max_shared_memory as u64;
        if shared > max {
            return Err(Error::invalid(format!(
                "merge: tuning {wg}x{} needs {shared} bytes of shared memory; {} has {max}",
                self.items_per_thread, ctx.profile.device_name
            )));
        }
        Ok(())
    }
}

/// Shared memory of the largest merge kernel of a tuning (keys and source indices of a tile,
/// the workgroup-scan slots of the set operations).
fn shared_bytes(tuning: &MergeTuning, key_type: KeyType, _value_type: ValueType) -> u64 {
    let tile = tuning.tile();
    tile * key_type.bytes() + tile * 4 + tuning.workgroup_size as u64 * 4 + 64
}

/// The choice of the first row of `table`, whose rows are for every device, where `holds`.
fn every_device<W, C: Copy>(table: &[TuningRow<W, C>], holds: impl Fn(&W) -> bool) -> C {
    debug_assert!(table.iter().all(|row| row.devices == Devices::Any));
    first_row(table, DeviceClass::Nvidia, holds)
        .expect("a row for every case")
        .choice
}

/// Tiles up to which [`super::MergePath::Auto`] merges in one dispatch (the fused path, no
/// partition kernel), by whether the merge has values.
pub(crate) const FUSED_TILES: &[TuningRow<bool, u64>] = &[
    TuningRow {
        devices: Devices::Any,
        when: false,
        choice: 256,
        why: "keys alone: fused faster up to about 2^20 outputs",
        anchor: "fused-merge",
    },
    TuningRow {
        devices: Devices::Any,
        when: true,
        choice: 1024,
        why: "longer tiles with values hide more of each workgroup's own search",
        anchor: "fused-merge",
    },
];

/// Tiles up to which [`super::MergePath::Auto`] takes the fused path.
pub(super) fn fused_tiles(value_type: ValueType) -> u64 {
    let values = value_type != ValueType::None;
    every_device(FUSED_TILES, |w| *w == values)
}

/// The kernels that take several consecutive tiles per workgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GroupKernel {
    /// The merge kernel, keys alone (merges and merge sorts).
    MergeKeys,
    /// The merge kernel with values.
    MergePairs,
    /// The set operations' look-back pass (glsl/merge/setop.comp `lookback_tiles`).
    SetOpLookback,
}

/// Consecutive tiles one workgroup takes.
pub(crate) const TILES_PER_GROUP: &[TuningRow<GroupKernel, u32>] = &[
    TuningRow {
        devices: Devices::Any,
        when: GroupKernel::MergeKeys,
        choice: 2,
        why: "the next tile's keys load into registers while one merges",
        anchor: "merge-tiles-per-group",
    },
    TuningRow {
        devices: Devices::Any,
        when: GroupKernel::MergePairs,
        choice: 1,
        why: "with values the extra registers cost more than they gain",
        anchor: "merge-tiles-per-group",
    },
    TuningRow {
        devices: Devices::Any,
        when: GroupKernel::SetOpLookback,
        choice: 2,
        why: "both tiles walked before one look-back",
        anchor: "set-op-two-tiles",
    },
];

fn tiles_of(kernel: GroupKernel) -> u32 {
    every_device(TILES_PER_GROUP, |w| *w == kernel)
}

/// Consecutive tiles one workgroup of the merge kernel takes.
pub(super) fn tiles_per_group(value_type: ValueType) -> u32 {
    tiles_of(if value_type == ValueType::None {
        GroupKernel::MergeKeys
    } else {
        GroupKernel::MergePairs
    })
}

/// Consecutive tiles one workgroup of the look-back set operation walks.
pub(super) fn setop_lookback_tiles() -> u32 {
    tiles_of(GroupKernel::SetOpLookback)
}

/// Whether each set operation gets a pipeline of its own, its rules folded into the walk
/// (`Some(key type)`: that key type only; `None`: every key type).
pub(crate) const FOLD_SET_OP: &[TuningRow<Option<KeyType>, bool>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: None,
        choice: true,
        why: "fewer instructions a step of the walk",
        anchor: "set-op-folded",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: None,
        choice: true,
        why: "NVIDIA's choice, not measured here",
        anchor: "set-op-folded",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: Some(KeyType::U32),
        choice: true,
        why: "CPU drivers' tests run the folded form for u32 keys",
        anchor: "set-op-folded",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: None,
        choice: false,
        why: "compiling a pipeline per operation costs CPU drivers more than the walk",
        anchor: "set-op-folded",
    },
];

/// Whether a set operation on `key_type` keys folds the operation into its pipeline.
pub(super) fn fold_set_op(class: DeviceClass, key_type: KeyType) -> bool {
    first_row(FOLD_SET_OP, class, |w| w.is_none() || *w == Some(key_type))
        .expect("a folding row for every device")
        .choice
}

/// Polls of a silent predecessor before the set operations' look-back walks its tile itself
/// ([`MergeTuning::lookback_spins`] 0).
pub(crate) const LOOKBACK_SPINS: &[TuningRow<(), u32>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: 256,
        why: "a bound on the wait, rarely reached",
        anchor: "lookback-spins",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: 256,
        why: "NVIDIA's choice",
        anchor: "lookback-spins",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: 32,
        why: "CPU drivers run few workgroups at once: fall back sooner",
        anchor: "lookback-spins",
    },
];

/// The default polls of the set operations' look-back on a device of `class`.
pub(super) fn default_lookback_spins(class: DeviceClass) -> u32 {
    first_row(LOOKBACK_SPINS, class, |_| true)
        .expect("a look-back row for every device")
        .choice
}

/// Whether [`super::SetOpPath::Auto`] takes the look-back path, by whether the device profile
/// allows inter-workgroup waiting (else count, scan and write).
pub(crate) const SET_OP_LOOKBACK: &[TuningRow<bool, bool>] = &[
    TuningRow {
        devices: Devices::Any,
        when: true,
        choice: true,
        why: "one pass after the partition instead of three",
        anchor: "set-op-path",
    },
    TuningRow {
        devices: Devices::Any,
        when: false,
        choice: false,
        why: "no workgroup waits on another",
        anchor: "set-op-path",
    },
];

/// Whether [`super::SetOpPath::Auto`] takes the look-back path on this device.
pub(super) fn auto_set_op_lookback(ctx: &Context) -> bool {
    let allowed = ctx.profile.lookback;
    every_device(SET_OP_LOOKBACK, |w| *w == allowed)
}

/// The partition kernel's searches in the two-run modes (merges of two runs, set operations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PartitionSearch {
    /// Invocations per workgroup (or the tuning's workgroup size where smaller): each searches
    /// one tile boundary, a chain of dependent loads, so small workgroups spread the searches
    /// over every multiprocessor.
    pub workgroup_size: u32,
    /// The most invocations that search one boundary together (also at most the device's
    /// smallest subgroup and half the workgroup).
    pub max_lanes: u32,
    /// The most invocations all clusters together search with: lanes double while the
    /// boundaries times the lanes stay within it.
    pub search_invocations: u64,
}

/// The partition's searches (glsl/merge/partition.comp).
pub(crate) const PARTITION: &[TuningRow<(), PartitionSearch>] = &[TuningRow {
    devices: Devices::Any,
    when: (),
    choice: PartitionSearch {
        workgroup_size: 64,
        max_lanes: 16,
        search_invocations: 1 << 16,
    },
    why: "clusters where boundaries are few, one lane in a window where many",
    anchor: "partition-search",
}];

fn partition_search() -> PartitionSearch {
    every_device(PARTITION, |_| true)
}

/// Invocations per workgroup of the partition kernel in the two-run modes.
pub(super) fn partition_workgroup(tuning: &MergeTuning) -> u32 {
    partition_search().workgroup_size.min(tuning.workgroup_size)
}

/// Invocations of the partition kernel's two-run modes searching one tile boundary together
/// (glsl/merge/merge_common.glsl cluster_co_rank) for `tiles` tiles: a power of two up to the
/// device's smallest subgroup, [`PartitionSearch::max_lanes`] and half the workgroup, doubled
/// while the searching invocations stay within [`PartitionSearch::search_invocations`]. A
/// cluster shortens each boundary's chain of dependent loads (about log2(lanes + 1) bits per
/// round instead of one) but loads more, so it pays where boundaries are few; with one lane
/// the kernel keeps each search within its workgroup's window of tiles.
pub(super) fn partition_lanes(ctx: &Context, tuning: &MergeTuning, tiles: u64) -> u32 {
    let search = partition_search();
    let min_subgroup = ctx.profile().min_subgroup_size;
    let most = if min_subgroup.is_power_of_two() {
        min_subgroup
    } else {
        1
    }
    .min(search.max_lanes)
    .min(partition_workgroup(tuning) / 2)
    .max(1);
    let mut lanes = 1;
    while lanes * 2 <= most && tiles * (lanes as u64) * 2 <= search.search_invocations {
        lanes *= 2;
    }
    lanes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tuning::assert_anchors;

    const DOC: &str = include_str!("../../docs/tuning/merge.md");

    #[test]
    fn every_row_has_its_evidence() {
        assert_anchors(TILES, DOC);
        assert_anchors(FUSED_TILES, DOC);
        assert_anchors(TILES_PER_GROUP, DOC);
        assert_anchors(FOLD_SET_OP, DOC);
        assert_anchors(LOOKBACK_SPINS, DOC);
        assert_anchors(SET_OP_LOOKBACK, DOC);
        assert_anchors(PARTITION, DOC);
        for anchor in ["merge-sort-or-radix-sort", "shared-memory-per-multiprocessor"] {
            assert!(DOC.contains(&format!("<a id=\"{anchor}\"></a>")), "{anchor}");
        }
    }

    /// The choices as they were written before the tables, for every device class.
    fn old_tile(cpu: bool, limit: u32, plans: Plans, key_type: KeyType, value_type: ValueType) -> (u32, u32) {
        if cpu {
            return (64, 7);
        }
        let l = limit.clamp(32, 256);
        let base = (
            1 << (31 - l.leading_zeros()),
            if key_type.bytes() == 8 { 7 } else { 11 },
        );
        let four = key_type.bytes() == 4;
        match plans {
            Plans::Merge
                if four && matches!(value_type, ValueType::None | ValueType::U32) && limit >= 512 =>
            {
                (512, 7)
            }
            Plans::SetOp if four && base.0 == 256 => (256, 15),
            _ => base,
        }
    }

    #[test]
    fn tables_keep_the_choices() {
        let keys = KeyType::ALL;
        for class in [DeviceClass::Nvidia, DeviceClass::OtherGpu, DeviceClass::Cpu] {
            let cpu = class == DeviceClass::Cpu;
            for limit in [128, 192, 256, 384, 512, 1024] {
                for plans in [Plans::Every, Plans::Merge, Plans::SetOp] {
                    for key in keys {
                        for value in ValueType::ALL {
                            let value = if plans == Plans::SetOp {
                                ValueType::None
                            } else {
                                value
                            };
                            let t = tile_for(class, limit, plans, key, value);
                            let old = old_tile(cpu, limit, plans, key, value);
                            assert_eq!((t.workgroup_size, t.items_per_thread), old, "{class:?} {limit}");
                        }
                    }
                }
            }
            for key in keys {
                assert_eq!(fold_set_op(class, key), !cpu || key == KeyType::U32);
            }
            assert_eq!(default_lookback_spins(class), if cpu { 32 } else { 256 });
        }
        assert_eq!(fused_tiles(ValueType::None), 256);
        assert_eq!(fused_tiles(ValueType::U32), 1024);
        assert_eq!(fused_tiles(ValueType::U64), 1024);
        assert_eq!(tiles_per_group(ValueType::None), 2);
        assert_eq!(tiles_per_group(ValueType::U64), 1);
        assert_eq!(setop_lookback_tiles(), 2);
        assert_eq!(
            partition_search(),
            PartitionSearch {
                workgroup_size: 64,
                max_lanes: 16,
                search_invocations: 1 << 16
            }
        );
    }
}
