//! The sort's tuning tables: the tile of the multi-workgroup kernels, the geometry of the
//! resident single-workgroup kernel, the counts Auto keeps on one workgroup, the look-back
//! polls and the passes from which one workgroup merges. The evidence behind each row is in
//! `docs/tuning/sort.md`, under the row's anchor. The GPU rows were measured on NVIDIA GPUs
//! and are the defaults for other GPUs.

use super::geometry::{shared_bytes, Stage};
use super::{KeyType, SortDesc, SortTuning, ValueType, SMALL_TILES};
use crate::core::tuning::{first_row, rows_for, DeviceClass, Devices, TuningRow};
use crate::Context;

/// Plans of at least this many elements take the large-sort tiles on GPUs.
const LARGE_SORT: u64 = 1 << 22;

/// Which plans a tile row is for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TileWhen {
    /// Plans of at least this many elements.
    pub min_count: u64,
    /// Keys of this many bytes (0: any).
    pub key_bytes: u64,
    /// Values of this type (`None`: any).
    pub values: Option<ValueType>,
}

impl TileWhen {
    fn holds(&self, key_type: KeyType, value_type: ValueType, max_count: u64) -> bool {
        max_count >= self.min_count
            && (self.key_bytes == 0 || self.key_bytes == key_type.bytes())
            && self.values.map_or(true, |v| v == value_type)
    }
}

/// Every plan.
const ANY_PLAN: TileWhen = TileWhen {
    min_count: 0,
    key_bytes: 0,
    values: None,
};

/// Plans of at least [`LARGE_SORT`] elements of these keys and values.
const fn large(key_bytes: u64, values: ValueType) -> TileWhen {
    TileWhen {
        min_count: LARGE_SORT,
        key_bytes,
        values: Some(values),
    }
}

/// A tile of `workgroup_size` x `keys_per_thread` keys staged in `stage_split` parts.
const fn tile(workgroup_size: u32, keys_per_thread: u32, stage_split: u32) -> SortTuning {
    SortTuning {
        workgroup_size,
        keys_per_thread,
        lookback_spins: 0,
        stage_split,
    }
}

/// The tile of the multi-workgroup kernels ([`SortTuning::for_device`]): the first row for the
/// device and plan that the device's invocation and shared-memory limits allow.
const TILES: &[TuningRow<TileWhen, SortTuning>] = &[
    TuningRow {
        devices: Devices::Gpu,
        when: large(4, ValueType::None),
        choice: tile(512, 20, 2),
        why: "two workgroups of 512 per multiprocessor hold the most keys",
        anchor: "large-sort-tiles",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: large(4, ValueType::U32),
        choice: tile(512, 16, 2),
        why: "two workgroups of 512 per multiprocessor hold the most pairs",
        anchor: "large-sort-tiles",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: large(8, ValueType::None),
        choice: tile(512, 12, 2),
        why: "two workgroups of 512 per multiprocessor hold the most keys",
        anchor: "large-sort-tiles",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: large(8, ValueType::U32),
        choice: tile(384, 12, 1),
        why: "the widest tile of two workgroups per multiprocessor; unsplit stage fits",
        anchor: "large-sort-u64-pairs",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: ANY_PLAN,
        choice: tile(512, 8, 1),
        why: "a 16 KiB staged tile",
        anchor: "default-tiles",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: ANY_PLAN,
        choice: tile(256, 8, 1),
        why: "where 512 invocations do not fit",
        anchor: "default-tiles",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: ANY_PLAN,
        choice: tile(128, 8, 1),
        why: "where 256 invocations do not fit",
        anchor: "default-tiles",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: ANY_PLAN,
        choice: tile(64, 8, 1),
        why: "small subgroups need a counter row each in 32 KiB",
        anchor: "cpu-tiles",
    },
];

/// The tile where no row fits the device.
const SMALLEST_TILE: SortTuning = tile(64, 8, 1);

impl SortTuning {
    /// The tuning vkalgo uses on this device for these key and value types and a plan of at
    /// most `max_count` elements.
    ///
    /// GPUs: 512 x 8 (a 16 KiB staged tile; 8-byte keys and values are staged in two rounds)
    /// where the device's limits allow it, else 256 x 8 or 128 x 8. From 2^22 elements, with
    /// the stage split in two: 4-byte keys alone take 512 x 20, with 4-byte values 512 x 16,
    /// 8-byte keys alone 512 x 12; 8-byte keys with 4-byte values take 384 x 12 unsplit. Two
    /// workgroups of 512 per multiprocessor hold more keys than the narrower tiles.
    /// CPU drivers: 64 x 8 (their small subgroups need a counter row per subgroup in 32 KiB).
    /// The rows and their evidence: `src/sort/tuning.rs`, `docs/tuning/sort.md`.
    pub fn for_device(ctx: &Context, key_type: KeyType, value_type: ValueType, max_count: u64) -> Self {
        // The first row the device's invocation and shared-memory limits allow: shared memory
        // and registers bound how many workgroups run at once.
        let desc = SortDesc::new(key_type, value_type, 0);
        let fits = |t: &SortTuning| {
            t.workgroup_size <= ctx.profile.max_workgroup_invocations
                && shared_bytes(ctx, t, &desc, Stage::Rounds) <= ctx.profile.max_shared_memory as u64
        };
        rows_for(TILES, ctx.device_class(), |w| {
            w.holds(key_type, value_type, max_count)
        })
        .map(|row| row.choice)
        .find(fits)
        .unwrap_or(SMALLEST_TILE)
    }
}

/// A workgroup size of the resident kernel and the most keys per invocation it may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ResidentShape {
    /// Invocations.
    pub workgroup_size: u32,
    /// Most keys per invocation.
    pub max_keys: u32,
}

/// The resident kernel's geometry (plans without the caller's tuning): the first workgroup
/// size the device allows, with the most keys per invocation up to `max_keys` that fit its
/// shared memory.
const RESIDENT: &[TuningRow<(), ResidentShape>] = &[
    TuningRow {
        devices: Devices::Gpu,
        when: (),
        choice: ResidentShape {
            workgroup_size: 512,
            max_keys: 16,
        },
        why: "as wide as the tile kernels; 16 keys and values stay in registers",
        anchor: "resident-geometry",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: (),
        choice: ResidentShape {
            workgroup_size: 256,
            max_keys: 16,
        },
        why: "where 512 invocations do not fit",
        anchor: "resident-geometry",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: (),
        choice: ResidentShape {
            workgroup_size: 128,
            max_keys: 16,
        },
        why: "where 256 invocations do not fit",
        anchor: "resident-geometry",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: ResidentShape {
            workgroup_size: 64,
            max_keys: 8,
        },
        why: "CPU drivers compile the unrolled kernel slowly at more keys",
        anchor: "resident-cpu-geometry",
    },
];

/// The resident kernel's workgroup sizes for a device of `class`, widest first.
pub(super) fn resident_shapes(class: DeviceClass) -> impl Iterator<Item = ResidentShape> {
    rows_for(RESIDENT, class, |_| true).map(|row| row.choice)
}

/// Tiles of the tiled single-workgroup kernel up to which [`SortPath::Auto`] takes it, on
/// devices with (`true`) and without the look-back (Onesweep) path.
///
/// [`SortPath::Auto`]: super::SortPath::Auto
const AUTO_SMALL_TILES: &[TuningRow<bool, u64>] = &[
    TuningRow {
        devices: Devices::Any,
        when: true,
        choice: 1,
        why: "Onesweep is faster from two tiles",
        anchor: "auto-small-beside-onesweep",
    },
    TuningRow {
        devices: Devices::Any,
        when: false,
        choice: SMALL_TILES,
        why: "without Onesweep, every count the tiled kernel takes",
        anchor: "auto-small-without-onesweep",
    },
];

/// Tiles up to which Auto takes the tiled single-workgroup kernel (`lookback`: the device runs
/// the Onesweep path).
pub(super) fn auto_small_tiles(class: DeviceClass, lookback: bool) -> u64 {
    first_row(AUTO_SMALL_TILES, class, |&w| w == lookback).map_or(SMALL_TILES, |row| row.choice)
}

/// Look-back polls of a silent predecessor before counting its keys (the default of
/// [`SortTuning::lookback_spins`]).
const LOOKBACK_SPINS: &[TuningRow<(), u32>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: 256,
        why: "a bounded wait before counting the predecessor",
        anchor: "lookback-spins",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: 256,
        why: "the NVIDIA default",
        anchor: "lookback-spins",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: 32,
        why: "few workgroups run at once: count sooner",
        anchor: "lookback-spins",
    },
];

/// The default look-back polls on a device of `class`.
pub(super) fn default_lookback_spins(class: DeviceClass) -> u32 {
    first_row(LOOKBACK_SPINS, class, |_| true).map_or(256, |row| row.choice)
}

/// Fewest digit passes for which the single-workgroup path sorts by merging (a block merge
/// sort, glsl/sort/block_merge.comp, whose work does not grow with the key bits) instead of
/// running the radix passes in shared memory: full 8-byte keys, not 4-byte ones.
pub const BLOCK_MERGE_MIN_PASSES: u32 = 7;

/// [`BLOCK_MERGE_MIN_PASSES`] as a tuning row.
const BLOCK_MERGE: &[TuningRow<(), u32>] = &[TuningRow {
    devices: Devices::Any,
    when: (),
    choice: BLOCK_MERGE_MIN_PASSES,
    why: "a merge round costs about one radix pass: merging wins at many passes",
    anchor: "block-merge-min-passes",
}];

/// Fewest digit passes for which one workgroup merges instead of running radix passes.
pub(super) fn block_merge_min_passes(class: DeviceClass) -> u32 {
    first_row(BLOCK_MERGE, class, |_| true).map_or(BLOCK_MERGE_MIN_PASSES, |row| row.choice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tuning::assert_anchors;

    const DOC: &str = include_str!("../../docs/tuning/sort.md");
    const CLASSES: [DeviceClass; 3] = [DeviceClass::Nvidia, DeviceClass::OtherGpu, DeviceClass::Cpu];

    #[test]
    fn every_row_has_a_reason_and_evidence() {
        assert_anchors(TILES, DOC);
        assert_anchors(RESIDENT, DOC);
        assert_anchors(AUTO_SMALL_TILES, DOC);
        assert_anchors(LOOKBACK_SPINS, DOC);
        assert_anchors(BLOCK_MERGE, DOC);
    }

    /// The tables choose what vkalgo chose before they existed, on every device class.
    #[test]
    fn tables_keep_the_choices() {
        for class in CLASSES {
            let cpu = class == DeviceClass::Cpu;
            assert_eq!(default_lookback_spins(class), if cpu { 32 } else { 256 });
            assert_eq!(auto_small_tiles(class, true), 1);
            assert_eq!(auto_small_tiles(class, false), SMALL_TILES);
            assert_eq!(block_merge_min_passes(class), 7);
            let shapes: Vec<(u32, u32)> = resident_shapes(class)
                .map(|s| (s.workgroup_size, s.max_keys))
                .collect();
            if cpu {
                assert_eq!(shapes, [(64, 8)]);
            } else {
                assert_eq!(shapes, [(512, 16), (256, 16), (128, 16)]);
            }
            for key_type in KeyType::ALL {
                for value_type in ValueType::ALL {
                    for max_count in [0, LARGE_SORT - 1, LARGE_SORT, 1 << 30] {
                        let tiles: Vec<SortTuning> =
                            rows_for(TILES, class, |w| w.holds(key_type, value_type, max_count))
                                .map(|row| row.choice)
                                .collect();
                        let large = max_count >= LARGE_SORT && value_type.bytes() <= 4;
                        let mut expected = match (cpu, large, key_type.bytes(), value_type) {
                            (true, ..) => vec![tile(64, 8, 1)],
                            (false, true, 4, ValueType::None) => vec![tile(512, 20, 2)],
                            (false, true, 4, _) => vec![tile(512, 16, 2)],
                            (false, true, _, ValueType::None) => vec![tile(512, 12, 2)],
                            (false, true, _, _) => vec![tile(384, 12, 1)],
                            (false, false, ..) => vec![],
                        };
                        if !cpu {
                            expected.extend([tile(512, 8, 1), tile(256, 8, 1), tile(128, 8, 1)]);
                        }
                        assert_eq!(
                            tiles, expected,
                            "{class:?} {key_type:?} {value_type:?} {max_count}"
                        );
                    }
                }
            }
        }
    }
}
